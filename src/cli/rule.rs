//! `gpucompat rule CODE` prints a rule's docs; `gpucompat rule --all` lists
//! every rule of every kind (inventory, Dockerfile, smoke).

use gpucompat::render::findings as render;
use gpucompat::rules::registry;

use super::{emit, emit_exact, Ctx};

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The rule's code (DRV001, DKR001, SMK001) or name (driver-library-mismatch).
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub code: Option<String>,

    /// List every rule.
    #[arg(long)]
    pub all: bool,

    /// Print JSON: a list of {code, name, kind, category, severity, summary}, or one rule with its docs.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let Some(code) = args.code.filter(|_| !args.all) else {
        let all = registry::all();
        if args.json {
            emit_exact(&format!("{}\n", render::rules_json(&all)))?;
        } else {
            emit(&render::rules_text(&all))?;
        }
        return Ok(0);
    };
    match registry::by_code(&code) {
        Some(r) => {
            if args.json {
                emit_exact(&format!("{}\n", render::rule_json(&r)))?;
            } else {
                emit(&r.render_docs())?;
            }
            Ok(0)
        }
        None => {
            eprintln!(
                "gpucompat: unknown rule {code:?}; nearest: {}",
                registry::nearest_codes(&code).join(", ")
            );
            Ok(2)
        }
    }
}
