//! The rule catalog: one file per family, a registry that lists them all.
//!
//! A rule is a small unit that reads like its own docs: a stable code
//! (`<FAMILY><3 digits>`), a kebab-case name, a category from the fixed list,
//! a default severity, a summary, the docs printed by `gpucompat rule CODE`,
//! and a pure `check(&Inventory, &Kb) -> Vec<Finding>`.
//!
//! Rules that read `inventory.errors` (the `ERR` family) explain an error
//! message when the other facts cannot; when a fact-based rule already names
//! the same cause, the error's finding is dropped and its text is added to
//! that rule's evidence instead (see [`run_rules`]).

pub mod action;
pub mod arch;
pub mod container;
pub mod driver;
pub mod env;
pub mod extension;
pub mod fabric;
pub mod facts;
pub mod fix;
pub mod hint;
pub mod library;
pub mod macos;
pub mod mig;
pub mod misconception;
pub mod observed;
pub mod platform;
pub mod registry;
pub mod runtime;
pub mod wheel;
pub mod windows;

use serde::Serialize;

use crate::finding::{Category, Finding, Severity};
use crate::inventory::Inventory;
use crate::kb::{nearest, Kb};

/// Which side of the compatibility inequality a rule reasons with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompatSemantic {
    /// The driver that shipped with a toolkit: everything works, no caveats.
    Toolkit,
    /// CUDA 11+ minor-version compatibility: an older driver of the same
    /// major at or above the floor, with a limited feature set and no JIT of newer PTX.
    MinorVersion,
    /// The cuda-compat package: a newer user-mode driver over an older kernel
    /// module, datacenter GPUs only.
    Forward,
    /// Binary (SASS/PTX) compatibility of compiled kernels with a GPU's compute capability.
    Binary,
}

impl CompatSemantic {
    pub fn describe(&self) -> &'static str {
        match self {
            CompatSemantic::Toolkit => "toolkit (the driver that shipped with the CUDA toolkit; no caveats)",
            CompatSemantic::MinorVersion => "minor-version compatibility (CUDA 11+: same major, driver at or above the floor, limited features, no JIT of newer PTX)",
            CompatSemantic::Forward => "forward compatibility (cuda-compat user-mode driver over an older kernel module; datacenter GPUs only)",
            CompatSemantic::Binary => "binary (SASS/PTX) compatibility (SASS runs within a major at or above its minor; PTX JIT-compiles forward)",
        }
    }
}

/// The fixed sections of a rule's documentation.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Docs {
    pub what_it_checks: &'static str,
    pub why_it_breaks: &'static str,
    pub how_to_fix: &'static str,
    pub sources: &'static [&'static str],
}

pub type CheckFn = fn(&Inventory, &Kb) -> Vec<Finding>;

#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub category: Category,
    /// The severity it reports at by default (some findings of a rule may be lower or higher).
    pub severity: Severity,
    pub summary: &'static str,
    /// The compatibility semantics the rule reasons with; empty for configuration
    /// checks that involve no version inequality.
    pub semantics: &'static [CompatSemantic],
    pub docs: Docs,
    pub check: CheckFn,
    /// Codes of fact-based rules that, when they fire, already name this finding's cause.
    pub superseded_by: &'static [&'static str],
}

impl Rule {
    /// A finding of this rule at its default severity.
    pub fn finding(&self, message: impl Into<String>) -> Finding {
        Finding {
            code: self.code.to_string(),
            name: self.name.to_string(),
            category: self.category,
            severity: self.severity,
            message: message.into(),
            evidence: Vec::new(),
            kb: Vec::new(),
            fix: None,
            line: None,
        }
    }

    /// The docs as `gpucompat rule CODE` prints them (see [`registry::RuleInfo::render_docs`]).
    pub fn render_docs(&'static self) -> String {
        registry::RuleInfo::from(self).render_docs()
    }
}

/// Extra builders used by the rules.
pub trait FindingExt {
    fn at(self, severity: Severity) -> Finding;
}

impl FindingExt for Finding {
    fn at(mut self, severity: Severity) -> Finding {
        self.severity = severity;
        self
    }
}

/// Every rule, fact-based families first, the observed-error family last.
pub fn all() -> Vec<&'static Rule> {
    let mut v: Vec<&'static Rule> = Vec::new();
    v.extend_from_slice(driver::RULES);
    v.extend_from_slice(runtime::RULES);
    v.extend_from_slice(arch::RULES);
    v.extend_from_slice(wheel::RULES);
    v.extend_from_slice(platform::RULES);
    v.extend_from_slice(container::RULES);
    v.extend_from_slice(env::RULES);
    v.extend_from_slice(library::RULES);
    v.extend_from_slice(fabric::RULES);
    v.extend_from_slice(mig::RULES);
    v.extend_from_slice(extension::RULES);
    v.extend_from_slice(macos::RULES);
    v.extend_from_slice(windows::RULES);
    v.extend_from_slice(misconception::RULES);
    v.extend_from_slice(observed::RULES);
    v.extend_from_slice(hint::RULES);
    v
}

/// The rule with this code (case-insensitive).
pub fn by_code(code: &str) -> Option<&'static Rule> {
    all()
        .into_iter()
        .find(|r| r.code.eq_ignore_ascii_case(code.trim()) || r.name == code.trim())
}

/// The codes (and names) closest to an unknown one, of any rule kind.
pub fn nearest_codes(code: &str) -> Vec<&'static str> {
    registry::nearest_codes(code)
}

/// Run every rule; drop observed-error findings whose cause a fact-based
/// rule already reported, moving the error text into that finding's evidence.
pub fn run_rules(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let rules = all();
    let mut findings: Vec<Finding> = Vec::new();
    let mut observed: Vec<(&Rule, Finding)> = Vec::new();
    for rule in &rules {
        for f in (rule.check)(inv, kb) {
            if rule.superseded_by.is_empty() {
                findings.push(f);
            } else {
                observed.push((rule, f));
            }
        }
    }
    for (rule, f) in observed {
        let idx = findings
            .iter()
            .position(|g| rule.superseded_by.contains(&g.code.as_str()));
        match idx {
            Some(i) => {
                if let Some(target) = findings.get_mut(i) {
                    // The error proves the cause bites: never report it lower than the error.
                    target.severity = target.severity.max(f.severity);
                    for e in f.evidence {
                        if e.fact.starts_with("observed error") && !target.evidence.contains(&e) {
                            target.evidence.push(e);
                        }
                    }
                }
            }
            None => findings.push(f),
        }
    }
    hint::settle(&mut findings);
    findings
}

/// Selects rules of any kind by code (`DRV001`, `SMK001`), family prefix
/// (`DRV`), name or category (`driver_too_old`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Code(&'static str),
    Prefix(String),
    Category(Category),
}

impl Selector {
    pub fn parse(s: &str) -> Result<Selector, String> {
        let t = s.trim();
        if let Some(r) = registry::by_code(t) {
            return Ok(Selector::Code(r.code));
        }
        if let Some(c) = Category::parse(&t.to_lowercase()) {
            return Ok(Selector::Category(c));
        }
        let upper = t.to_uppercase();
        if !upper.is_empty() && registry::all().iter().any(|r| r.code.starts_with(&upper)) {
            return Ok(Selector::Prefix(upper));
        }
        let mut near = nearest_codes(t);
        near.extend(nearest(t, Category::ALL.iter().map(|c| c.as_str()), 2));
        Err(format!(
            "unknown rule code or category {t:?}; nearest: {}",
            near.join(", ")
        ))
    }

    /// Parse a list of selectors (empty entries skipped).
    pub fn parse_all<S: AsRef<str>>(list: &[S]) -> Result<Vec<Selector>, String> {
        list.iter()
            .map(|s| s.as_ref().trim())
            .filter(|s| !s.is_empty())
            .map(Selector::parse)
            .collect()
    }

    fn matches_code(&self, code: &str, category: Category) -> bool {
        match self {
            Selector::Code(c) => code == *c,
            Selector::Prefix(p) => code.starts_with(p.as_str()),
            Selector::Category(c) => category == *c,
        }
    }

    pub fn matches(&self, f: &Finding) -> bool {
        self.matches_code(&f.code, f.category)
    }

    pub fn matches_rule(&self, r: &registry::RuleInfo) -> bool {
        self.matches_code(r.code, r.category)
    }
}

/// What `--select` and `--ignore` keep: a rule or finding is kept when it
/// matches a `select` (or there is none) and no `ignore`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub select: Vec<Selector>,
    pub ignore: Vec<Selector>,
}

impl Selection {
    pub fn parse<S: AsRef<str>>(select: &[S], ignore: &[S]) -> Result<Selection, String> {
        Ok(Selection {
            select: Selector::parse_all(select)?,
            ignore: Selector::parse_all(ignore)?,
        })
    }

    pub fn keeps(&self, f: &Finding) -> bool {
        is_selected(f, &self.select, &self.ignore)
    }

    pub fn keeps_rule(&self, r: &registry::RuleInfo) -> bool {
        (self.select.is_empty() || self.select.iter().any(|s| s.matches_rule(r)))
            && !self.ignore.iter().any(|s| s.matches_rule(r))
    }
}

/// Keep a finding when it matches a `select` (or there is none) and no `ignore`.
/// In a pasted report (not a probed machine), a finding that may not be the
/// cause of what the report shows drops to `severity`, and says why.
fn lower_in_a_paste(inv: &Inventory, f: &mut Finding, severity: Severity, why: &str) {
    if !inv.probed() {
        f.severity = severity;
        f.message.push(' ');
        f.message.push_str(why);
    }
}

pub fn is_selected(f: &Finding, select: &[Selector], ignore: &[Selector]) -> bool {
    (select.is_empty() || select.iter().any(|s| s.matches(f)))
        && !ignore.iter().any(|s| s.matches(f))
}

/// Findings sorted for display: errors first, then warnings, then info; by code within.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(a.code.cmp(&b.code))
            .then(a.line.cmp(&b.line))
    });
}
