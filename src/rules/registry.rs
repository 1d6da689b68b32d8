//! One registry for every rule kind: the inventory rules (`check`, `explain`),
//! the Dockerfile rules (`lint`) and the smoke rules (`smoke`, `check --smoke`).
//! `gpucompat rule`, `--select` and `--ignore` read it, so every code is known
//! everywhere; each kind keeps its own check functions.

use serde::Serialize;

use crate::finding::{Category, Severity};
use crate::kb::nearest;
use crate::plan::lint;
use crate::smoke::rules as smoke;

use super::{CompatSemantic, Docs, Rule};

/// What a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    /// The inventory of a machine: probed, from a saved card, or from pasted text.
    Inventory,
    /// A Dockerfile (`gpucompat lint`).
    Dockerfile,
    /// What the smoke test met on the way to a GEMM (`gpucompat smoke`, `check --smoke`).
    Smoke,
}

impl RuleKind {
    pub const ALL: [RuleKind; 3] = [RuleKind::Inventory, RuleKind::Dockerfile, RuleKind::Smoke];

    pub fn as_str(&self) -> &'static str {
        match self {
            RuleKind::Inventory => "inventory",
            RuleKind::Dockerfile => "dockerfile",
            RuleKind::Smoke => "smoke",
        }
    }

    /// Which commands run the rules of this kind.
    pub fn applies_to(&self) -> &'static str {
        match self {
            RuleKind::Inventory => {
                "machine inventories (gpucompat check, explain, card --format labels)"
            }
            RuleKind::Dockerfile => "Dockerfiles (gpucompat lint)",
            RuleKind::Smoke => "the GPU smoke test (gpucompat smoke, check --smoke)",
        }
    }
}

impl std::fmt::Display for RuleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule of any kind, as the catalog lists it.
#[derive(Debug, Clone, Copy)]
pub struct RuleInfo {
    pub code: &'static str,
    pub name: &'static str,
    pub kind: RuleKind,
    pub category: Category,
    pub severity: Severity,
    pub summary: &'static str,
    pub docs: Docs,
    /// The compatibility semantics an inventory rule reasons with.
    pub semantics: &'static [CompatSemantic],
    /// Codes of fact-based rules that, when they fire, already name this finding's cause.
    pub superseded_by: &'static [&'static str],
}

impl From<&'static Rule> for RuleInfo {
    fn from(r: &'static Rule) -> RuleInfo {
        RuleInfo {
            code: r.code,
            name: r.name,
            kind: RuleKind::Inventory,
            category: r.category,
            severity: r.severity,
            summary: r.summary,
            docs: r.docs,
            semantics: r.semantics,
            superseded_by: r.superseded_by,
        }
    }
}

impl From<&'static lint::LintRule> for RuleInfo {
    fn from(r: &'static lint::LintRule) -> RuleInfo {
        RuleInfo {
            code: r.code,
            name: r.name,
            kind: RuleKind::Dockerfile,
            category: r.category,
            severity: r.severity,
            summary: r.summary,
            docs: Docs {
                what_it_checks: r.what_it_checks,
                why_it_breaks: r.why_it_breaks,
                how_to_fix: r.how_to_fix,
                sources: std::slice::from_ref(&r.sources),
            },
            semantics: &[],
            superseded_by: &[],
        }
    }
}

impl From<&'static smoke::SmokeRule> for RuleInfo {
    fn from(r: &'static smoke::SmokeRule) -> RuleInfo {
        RuleInfo {
            code: r.code,
            name: r.name,
            kind: RuleKind::Smoke,
            category: r.category,
            severity: r.severity,
            summary: r.summary,
            docs: r.docs,
            semantics: &[],
            superseded_by: &[],
        }
    }
}

impl RuleInfo {
    /// The compatibility semantic line of the docs.
    pub fn semantics_line(&self) -> String {
        if self.semantics.is_empty() {
            "none: a configuration check, no version inequality".to_string()
        } else {
            self.semantics
                .iter()
                .map(|s| s.describe())
                .collect::<Vec<_>>()
                .join("; ")
        }
    }

    /// The docs as `gpucompat rule CODE` prints them: the same sections for every kind.
    pub fn render_docs(&self) -> String {
        let mut s = format!(
            "{} {}\n\nkind: {}\napplies to: {}\ncategory: {}\nseverity: {}\n",
            self.code,
            self.name,
            self.kind,
            self.kind.applies_to(),
            self.category,
            self.severity,
        );
        if self.kind == RuleKind::Inventory {
            s.push_str(&format!(
                "compatibility semantic: {}\n",
                self.semantics_line()
            ));
        }
        s.push_str(&format!("\n{}\n", self.summary));
        for (title, body) in [
            ("What it checks", self.docs.what_it_checks),
            ("Why it breaks", self.docs.why_it_breaks),
            ("How to fix", self.docs.how_to_fix),
        ] {
            s.push_str(&format!("\n## {title}\n{}\n", body.trim()));
        }
        s.push_str("\n## Sources\n");
        for src in self.docs.sources {
            s.push_str(&format!("- {}\n", src.trim()));
        }
        s
    }
}

/// Every rule of every kind: inventory rules (fact-based families first,
/// observed errors last), then Dockerfile rules, then smoke rules.
pub fn all() -> Vec<RuleInfo> {
    let mut v: Vec<RuleInfo> = super::all().into_iter().map(RuleInfo::from).collect();
    v.extend(lint::RULES.iter().map(RuleInfo::from));
    v.extend(smoke::RULES.iter().map(RuleInfo::from));
    v
}

/// The rules of one kind.
pub fn of_kind(kind: RuleKind) -> Vec<RuleInfo> {
    all().into_iter().filter(|r| r.kind == kind).collect()
}

/// The rule with this code or name (the code case-insensitive), of any kind.
pub fn by_code(code: &str) -> Option<RuleInfo> {
    let t = code.trim();
    all()
        .into_iter()
        .find(|r| r.code.eq_ignore_ascii_case(t) || r.name == t)
}

/// The codes (and names) closest to an unknown one, of any kind.
pub fn nearest_codes(code: &str) -> Vec<&'static str> {
    let rules = all();
    let upper = code.trim().to_uppercase();
    let family = upper.trim_end_matches(char::is_numeric);
    // A family prefix ("DRV") lists that family first.
    let mut out: Vec<&'static str> = rules
        .iter()
        .filter(|r| !family.is_empty() && r.code.starts_with(family))
        .map(|r| r.code)
        .take(5)
        .collect();
    let names = rules.iter().flat_map(|r| [r.code, r.name]);
    for n in nearest(code.trim(), names, 5) {
        if out.len() >= 5 {
            break;
        }
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_unique_across_kinds() {
        let all = all();
        for r in &all {
            assert_eq!(
                all.iter().filter(|o| o.code == r.code).count(),
                1,
                "{}",
                r.code
            );
            assert!(!r.docs.what_it_checks.trim().is_empty(), "{}", r.code);
            assert!(!r.docs.why_it_breaks.trim().is_empty(), "{}", r.code);
            assert!(!r.docs.how_to_fix.trim().is_empty(), "{}", r.code);
            assert!(!r.docs.sources.is_empty(), "{}", r.code);
        }
        for kind in RuleKind::ALL {
            assert!(!of_kind(kind).is_empty(), "{kind}");
        }
    }

    #[test]
    fn smoke_and_dockerfile_codes_are_found() {
        assert_eq!(by_code("smk001").map(|r| r.kind), Some(RuleKind::Smoke));
        assert_eq!(
            by_code("DKR001").map(|r| r.kind),
            Some(RuleKind::Dockerfile)
        );
        assert_eq!(by_code("DRV001").map(|r| r.kind), Some(RuleKind::Inventory));
        assert!(by_code("SMK999").is_none());
        assert!(nearest_codes("SMK0").contains(&"SMK001"));
    }
}
