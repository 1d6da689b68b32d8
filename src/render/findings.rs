//! Findings as users read them, the same in every command (`check`,
//! `explain`, `lint`, `smoke`): text for people (ruff-style
//! `severity[CODE] name: message`, then the location, the evidence and the
//! fix), the JSON envelope for scripts ([`crate::report::Report`]), and the
//! rule catalog (`rule --all`, `rule CODE`).

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::report::Report;
use crate::rules::registry::{RuleInfo, RuleKind};
use crate::rules::{CompatSemantic, Docs};

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One finding as text. `file` names the input a `line` points into;
/// `verbose` adds the source of every knowledge row.
pub fn finding_text(f: &Finding, file: Option<&str>, verbose: bool) -> String {
    let mut s = format!("{}[{}] {}: {}\n", f.severity, f.code, f.name, f.message);
    if let Some(line) = f.line {
        s.push_str(&format!("  --> {}:{line}\n", file.unwrap_or("input")));
    }
    for e in &f.evidence {
        s.push_str(&format!("  = {}: {}  [{}]\n", e.fact, e.value, e.source));
    }
    for k in &f.kb {
        if verbose {
            s.push_str(&format!("  = kb {}: {}  [{}]\n", k.table, k.row, k.source));
        } else {
            s.push_str(&format!("  = kb {}: {}\n", k.table, k.row));
        }
    }
    if let Some(fix) = &f.fix {
        match (&fix.command, &fix.note) {
            (Some(c), Some(n)) => s.push_str(&format!("  fix: {c}\n       {n}\n")),
            (Some(c), None) => s.push_str(&format!("  fix: {c}\n")),
            (None, Some(n)) => s.push_str(&format!("  fix: {n}\n")),
            (None, None) => {}
        }
    }
    s
}

/// Every finding of a report, each followed by a blank line.
pub fn findings_text(r: &Report, verbose: bool) -> String {
    let mut s = String::new();
    for f in &r.findings {
        s.push_str(&finding_text(f, r.file.as_deref(), verbose));
        s.push('\n');
    }
    s
}

/// The summary line: the counts, the rules checked and what they were checked against.
pub fn summary_line(r: &Report) -> String {
    let n = r.summary();
    let rules = plural(n.rules_checked, "rule", "rules");
    let origin = r.origin();
    if r.findings.is_empty() {
        format!("No findings: {rules} checked against {origin}.\n")
    } else {
        format!(
            "{}, {}, {} ({rules} checked against {origin}).\n",
            plural(n.errors, "error", "errors"),
            plural(n.warnings, "warning", "warnings"),
            plural(n.info, "info", "info"),
        )
    }
}

/// The line `check` starts with when there is no accelerator at all.
pub fn no_accelerator_line(r: &Report) -> Option<String> {
    let t = r.no_accelerator()?;
    Some(format!("no NVIDIA GPU: tier 1, CPU only ({})\n", t.reason))
}

/// `check`: the tier-1 line where it applies, every finding, the summary, the notes.
pub fn text(r: &Report, verbose: bool) -> String {
    let mut s = String::new();
    if let Some(line) = no_accelerator_line(r) {
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(&findings_text(r, verbose));
    s.push_str(&summary_line(r));
    if let Some(inv) = &r.inventory {
        for n in &inv.notes {
            s.push_str(&format!("note: {}: {}\n", n.subject, n.message));
        }
    }
    s
}

/// `lint`: every finding (each pointing at its line), then the summary.
pub fn lint_text(r: &Report, verbose: bool) -> String {
    let mut s = findings_text(r, verbose);
    s.push_str(&summary_line(r));
    s
}

/// A line of `rule --all --json`.
#[derive(Debug, Serialize)]
pub struct RuleSummary<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub kind: RuleKind,
    pub category: &'a str,
    pub severity: Severity,
    pub summary: &'a str,
}

/// `rule CODE --json`: the summary plus the docs.
#[derive(Debug, Serialize)]
pub struct RuleDocs<'a> {
    #[serde(flatten)]
    pub summary: RuleSummary<'a>,
    pub applies_to: &'a str,
    pub semantics: &'a [CompatSemantic],
    pub compatibility_semantic: String,
    pub docs: Docs,
    /// Fact-based rules whose firing makes this (observed-error) rule stay quiet.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub superseded_by: &'a [&'a str],
}

fn summary(r: &RuleInfo) -> RuleSummary<'_> {
    RuleSummary {
        code: r.code,
        name: r.name,
        kind: r.kind,
        category: r.category.as_str(),
        severity: r.severity,
        summary: r.summary,
    }
}

pub fn rules_json(rules: &[RuleInfo]) -> String {
    let v: Vec<RuleSummary> = rules.iter().map(summary).collect();
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

pub fn rule_json(r: &RuleInfo) -> String {
    let d = RuleDocs {
        summary: summary(r),
        applies_to: r.kind.applies_to(),
        semantics: r.semantics,
        compatibility_semantic: r.semantics_line(),
        docs: r.docs,
        superseded_by: r.superseded_by,
    };
    serde_json::to_string_pretty(&d).unwrap_or_default()
}

/// `rule --all`: one line a rule, grouped by kind.
pub fn rules_text(rules: &[RuleInfo]) -> String {
    let w = rules.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut s = String::new();
    for kind in RuleKind::ALL {
        let of_kind: Vec<&RuleInfo> = rules.iter().filter(|r| r.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&format!("# {}: {}\n", kind, kind.applies_to()));
        for r in of_kind {
            s.push_str(&format!(
                "{:<8} {:<w$}  {:<7}  {:<23}  {}\n",
                r.code,
                r.name,
                r.severity.to_string(),
                r.category.as_str(),
                r.summary
            ));
        }
    }
    s
}
