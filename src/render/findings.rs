//! Findings as users read them: text for people, JSON for scripts (the
//! `check --json` contract), and the rule catalog (`rule --all`, `rule CODE`).

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::inventory::Inventory;
use crate::rules::{CompatSemantic, Docs, Rule};

/// Bumped whenever the shape of `check --json` changes incompatibly.
pub const FINDINGS_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

pub const TOOL: Tool = Tool {
    name: "gpucompat",
    version: env!("CARGO_PKG_VERSION"),
};

/// `{"schema_version", "tool": {"name", "version"}, "findings": [...], "inventory": {...}}`
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub schema_version: u32,
    pub tool: Tool,
    pub findings: &'a [Finding],
    pub inventory: &'a Inventory,
}

pub fn json(findings: &[Finding], inventory: &Inventory) -> String {
    let r = Report {
        schema_version: FINDINGS_SCHEMA_VERSION,
        tool: TOOL,
        findings,
        inventory,
    };
    serde_json::to_string_pretty(&r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One finding as text. `verbose` adds the source of every knowledge row.
pub fn finding_text(f: &Finding, verbose: bool) -> String {
    let mut s = format!("{}[{}] {} ({})\n", f.severity, f.code, f.name, f.category);
    s.push_str(&format!("  {}\n", f.message));
    if !f.evidence.is_empty() {
        s.push_str("  evidence:\n");
        for e in &f.evidence {
            s.push_str(&format!("    {} = {}  [{}]\n", e.fact, e.value, e.source));
        }
    }
    if !f.kb.is_empty() {
        s.push_str("  knowledge:\n");
        for k in &f.kb {
            if verbose {
                s.push_str(&format!("    {} {}  [{}]\n", k.table, k.row, k.source));
            } else {
                s.push_str(&format!("    {} {}\n", k.table, k.row));
            }
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

/// Every finding, then a summary line.
pub fn text(
    findings: &[Finding],
    inventory: &Inventory,
    rules_run: usize,
    verbose: bool,
) -> String {
    let mut s = String::new();
    for f in findings {
        s.push_str(&finding_text(f, verbose));
        s.push('\n');
    }
    let count = |sev: Severity| findings.iter().filter(|f| f.severity == sev).count();
    let origin = if inventory.origin.is_empty() {
        "the inventory".to_string()
    } else {
        inventory.origin.clone()
    };
    if findings.is_empty() {
        s.push_str(&format!(
            "No findings: {} checked against {origin}.\n",
            plural(rules_run, "rule", "rules")
        ));
    } else {
        s.push_str(&format!(
            "{}, {}, {} ({} checked against {origin}).\n",
            plural(count(Severity::Error), "error", "errors"),
            plural(count(Severity::Warning), "warning", "warnings"),
            plural(count(Severity::Info), "info", "info"),
            plural(rules_run, "rule", "rules"),
        ));
    }
    for n in &inventory.notes {
        s.push_str(&format!("note: {}: {}\n", n.subject, n.message));
    }
    s
}

/// A line of `rule --all --json`.
#[derive(Debug, Serialize)]
pub struct RuleSummary<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub category: &'a str,
    pub severity: Severity,
    pub summary: &'a str,
}

/// `rule CODE --json`: the summary plus the docs.
#[derive(Debug, Serialize)]
pub struct RuleDocs<'a> {
    #[serde(flatten)]
    pub summary: RuleSummary<'a>,
    pub semantics: &'a [CompatSemantic],
    pub compatibility_semantic: String,
    pub docs: Docs,
    /// Fact-based rules whose firing makes this (observed-error) rule stay quiet.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub superseded_by: &'a [&'a str],
}

fn summary(r: &Rule) -> RuleSummary<'_> {
    RuleSummary {
        code: r.code,
        name: r.name,
        category: r.category.as_str(),
        severity: r.severity,
        summary: r.summary,
    }
}

pub fn rules_json(rules: &[&Rule]) -> String {
    let v: Vec<RuleSummary> = rules.iter().map(|r| summary(r)).collect();
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

pub fn rule_json(r: &Rule) -> String {
    let d = RuleDocs {
        summary: summary(r),
        semantics: r.semantics,
        compatibility_semantic: r.semantics_line(),
        docs: r.docs,
        superseded_by: r.superseded_by,
    };
    serde_json::to_string_pretty(&d).unwrap_or_default()
}

/// `rule --all`: one line a rule.
pub fn rules_text(rules: &[&Rule]) -> String {
    let w = rules.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut s = String::new();
    for r in rules {
        s.push_str(&format!(
            "{:<8} {:<w$}  {:<7}  {:<23}  {}\n",
            r.code,
            r.name,
            r.severity.to_string(),
            r.category.as_str(),
            r.summary
        ));
    }
    s
}
