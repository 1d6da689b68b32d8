//! `gpucompat rule CODE` prints a rule's docs; `gpucompat rule --all` lists every rule.

use gpucompat::plan::lint::{self, LintRule};
use gpucompat::render::findings as render;
use gpucompat::rules;

use super::Ctx;

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The rule's code (DRV001) or name (driver-library-mismatch).
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub code: Option<String>,

    /// List every rule.
    #[arg(long)]
    pub all: bool,

    /// Print JSON: a list of {code, name, category, severity, summary}, or one rule with its docs.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let all = rules::all();
    let Some(code) = args.code.filter(|_| !args.all) else {
        if args.json {
            let mut v: Vec<serde_json::Value> =
                serde_json::from_str(&render::rules_json(&all)).unwrap_or_default();
            v.extend(lint::RULES.iter().map(lint_summary));
            gpucompat::render::sanitize::print_exact(
                &serde_json::to_string_pretty(&v).unwrap_or_default(),
            );
        } else {
            let mut out = render::rules_text(&all);
            out.push_str("\nDockerfile rules (gpucompat lint):\n");
            for r in lint::RULES {
                out.push_str(&format!(
                    "{:<8} {:<38}  {:<7}  {:<23}  {}\n",
                    r.code,
                    r.name,
                    r.severity.to_string(),
                    r.category.as_str(),
                    r.summary
                ));
            }
            gpucompat::render::sanitize::print(&out);
        }
        return Ok(0);
    };
    if let Some(r) = lint::RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(&code) || r.name == code)
    {
        if args.json {
            let mut v = lint_summary(r);
            v["docs"] = serde_json::json!({
                "what_it_checks": r.what_it_checks,
                "why_it_breaks": r.why_it_breaks,
                "how_to_fix": r.how_to_fix,
                "sources": [r.sources],
            });
            gpucompat::render::sanitize::print_exact(
                &serde_json::to_string_pretty(&v).unwrap_or_default(),
            );
        } else {
            gpucompat::render::sanitize::print(&lint_docs(r));
        }
        return Ok(0);
    }
    match rules::by_code(&code) {
        Some(r) => {
            if args.json {
                gpucompat::render::sanitize::print_exact(&render::rule_json(r));
            } else {
                gpucompat::render::sanitize::print(&r.render_docs());
            }
            Ok(0)
        }
        None => {
            gpucompat::render::sanitize::eprint_line(&format!(
                "gpucompat: unknown rule {:?}; nearest: {}",
                gpucompat::render::sanitize::excerpt(&code, 40),
                rules::nearest_codes(&code).join(", ")
            ));
            Ok(2)
        }
    }
}

fn lint_summary(r: &LintRule) -> serde_json::Value {
    serde_json::json!({
        "code": r.code,
        "name": r.name,
        "category": r.category.as_str(),
        "severity": r.severity,
        "summary": r.summary,
    })
}

/// A Dockerfile rule's docs, in the same sections as every other rule.
fn lint_docs(r: &LintRule) -> String {
    let mut s = format!(
        "{} {}\n\ncategory: {}\nseverity: {}\napplies to: Dockerfiles (gpucompat lint)\n\n{}\n",
        r.code, r.name, r.category, r.severity, r.summary
    );
    for (title, body) in [
        ("What it checks", r.what_it_checks),
        ("Why it breaks", r.why_it_breaks),
        ("How to fix", r.how_to_fix),
    ] {
        s.push_str(&format!("\n## {title}\n{}\n", body.trim()));
    }
    s.push_str(&format!("\n## Sources\n- {}\n", r.sources.trim()));
    s
}
