//! One library call for every input: [`report`] takes a live probe, a saved
//! card, pasted text, a Dockerfile or the smoke test, with options
//! (`--select`, `--ignore`, `--smoke`), and returns one [`Report`]: the
//! inventory where there is one, the findings sorted by severity then code,
//! how many rules were checked after selection, the tier and the schema
//! version of the JSON envelope. The commands under `cli/` parse their
//! arguments, call [`report`] and render what it returns.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::finding::{exit_code, Finding, Severity};
use crate::ingest::{self, ToBeSure};
use crate::inventory::Inventory;
use crate::kb::{Kb, KbSource};
use crate::plan::hosts::{load_card, HostError, HostSpec};
use crate::probe::{probe, ProbeOptions};
use crate::rules::registry::{self, RuleKind};
use crate::rules::{self, Selection};
use crate::smoke::{self, CublasReport, DeviceReport, DriverReport, SmokeOptions, SmokeReport};
use crate::system::System;
use crate::tier::{tier, Tier};

/// The version of the JSON envelope of `check`, `explain`, `lint` and `smoke`
/// (`schema/report.schema.json`). Bumped whenever that shape changes
/// incompatibly. The card (`card --json`) has its own version,
/// [`crate::inventory::SCHEMA_VERSION`].
pub const SCHEMA_VERSION: u32 = 2;

/// The tool that wrote a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

pub const TOOL: Tool = Tool {
    name: "gpucompat",
    version: env!("CARGO_PKG_VERSION"),
};

/// Which command's question a report answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A machine's inventory, probed or from a saved card (`check`).
    Check,
    /// Pasted reports (`explain`).
    Explain,
    /// A Dockerfile (`lint`).
    Lint,
    /// The GPU smoke test (`smoke`).
    Smoke,
}

/// What to report on.
pub enum Input<'a> {
    /// Probe the machine behind `system`.
    Probe {
        system: &'a dyn System,
        options: ProbeOptions,
    },
    /// A card already read.
    Card(Box<Inventory>),
    /// A saved card: `card --json` output, or a `check --json` report holding one.
    CardFile(PathBuf),
    /// Pasted reports as (name, text) pairs.
    Text(Vec<(String, String)>),
    /// Files of pasted reports; `-` (or no file at all) reads standard input.
    Pasted(Vec<PathBuf>),
    /// A Dockerfile (`-` reads standard input), checked against these saved cards.
    Dockerfile { file: PathBuf, hosts: Vec<PathBuf> },
    /// A Dockerfile's text, checked against these hosts.
    DockerfileText {
        name: String,
        text: String,
        hosts: Vec<HostSpec>,
    },
    /// The smoke test alone.
    Smoke {
        system: &'a dyn System,
        options: SmokeOptions,
    },
}

/// How to report.
#[derive(Default)]
pub struct Options<'a> {
    /// `--select` and `--ignore`, over rules of every kind.
    pub selection: Selection,
    /// `check --smoke`: also run the smoke test on this system, its findings joining the check's.
    pub smoke: Option<&'a dyn System>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{}", read_message(path, source))]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("--card {path}: {message}")]
    Card { path: String, message: String },
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    StrictCard(#[from] crate::card::CardError),
}

/// The counts a report's summary line and JSON `summary` give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub info: usize,
    /// Rules of the kinds this report ran, after `--select` and `--ignore`.
    pub rules_checked: usize,
}

/// What one library call returns, for any input.
#[derive(Debug, Clone)]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    pub kind: Kind,
    /// Sorted by severity (errors first), then code.
    pub findings: Vec<Finding>,
    /// Rules of the kinds this report ran, after selection.
    pub rules_checked: usize,
    /// The facts the rules read (`check`, `explain`).
    pub inventory: Option<Inventory>,
    /// The tier of the machine (`check`).
    pub tier: Option<Tier>,
    /// The file a `lint` report read.
    pub file: Option<String>,
    /// `explain`: commands that would supply a missing fact.
    pub to_be_sure: Vec<ToBeSure>,
    /// The smoke test's devices and libraries (`smoke`, `check --smoke`).
    pub smoke: Option<SmokeReport>,
}

impl Report {
    fn new(kind: Kind) -> Report {
        Report {
            schema_version: SCHEMA_VERSION,
            kind,
            findings: Vec::new(),
            rules_checked: 0,
            inventory: None,
            tier: None,
            file: None,
            to_be_sure: Vec::new(),
            smoke: None,
        }
    }

    pub fn summary(&self) -> Summary {
        let count = |s: Severity| self.findings.iter().filter(|f| f.severity == s).count();
        Summary {
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            info: count(Severity::Info),
            rules_checked: self.rules_checked,
        }
    }

    /// 0 when nothing is at error severity, 1 when something is; 2 when the
    /// smoke test could not run at all (under a `--root` tree it proves nothing).
    pub fn exit_code(&self) -> i32 {
        if self.kind == Kind::Smoke && self.smoke.as_ref().is_some_and(|s| s.skipped_not_live()) {
            return 2;
        }
        exit_code(&self.findings)
    }

    /// What the findings were checked against: the inventory's origin, the file.
    pub fn origin(&self) -> String {
        if let Some(f) = &self.file {
            return f.clone();
        }
        match &self.inventory {
            Some(inv) if !inv.origin.is_empty() => inv.origin.clone(),
            Some(_) => "the inventory".into(),
            None => match self.kind {
                Kind::Smoke => "the smoke test".into(),
                _ => "the input".into(),
            },
        }
    }

    /// The tier-1 case: no accelerator the rules could check at all.
    pub fn no_accelerator(&self) -> Option<&Tier> {
        self.tier.as_ref().filter(|t| t.level == 1)
    }

    /// The JSON envelope.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The smoke test's own parts of the envelope.
#[derive(Serialize)]
struct SmokeParts<'a> {
    driver: &'a DriverReport,
    cublas: &'a Option<CublasReport>,
    devices: &'a [DeviceReport],
}

/// `{"schema_version", "tool", "kind", "findings", "summary", ..., "inventory"?}`
#[derive(Serialize)]
struct Envelope<'a> {
    schema_version: u32,
    tool: Tool,
    kind: Kind,
    findings: &'a [Finding],
    summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tier: Option<&'a Tier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_be_sure: Option<&'a [ToBeSure]>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    smoke: Option<SmokeParts<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    inventory: Option<&'a Inventory>,
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Envelope {
            schema_version: self.schema_version,
            tool: TOOL,
            kind: self.kind,
            findings: &self.findings,
            summary: self.summary(),
            file: self.file.as_deref(),
            tier: self.tier.as_ref(),
            to_be_sure: (self.kind == Kind::Explain).then_some(self.to_be_sure.as_slice()),
            smoke: self.smoke.as_ref().map(|r| SmokeParts {
                driver: &r.driver,
                cublas: &r.cublas,
                devices: &r.devices,
            }),
            inventory: self.inventory.as_ref(),
        }
        .serialize(s)
    }
}

/// The one library call: read or probe the input, run the rules of its kind
/// (after selection), sort the findings.
pub fn report(
    input: Input<'_>,
    kb: &(impl KbSource + ?Sized),
    options: &Options<'_>,
) -> Result<Report, ReportError> {
    let sel = &options.selection;
    let mut r = match input {
        Input::Probe { system, options } => check(probe(system, kb.kb(), &options), kb.kb(), sel),
        Input::Card(inv) => check(*inv, kb.kb(), sel),
        Input::CardFile(path) => check(read_card(&path)?, kb.kb(), sel),
        Input::Text(inputs) => explain(&inputs, kb, sel)?,
        Input::Pasted(files) => explain(&read_inputs(&files)?, kb, sel)?,
        Input::Dockerfile { file, hosts } => {
            let text = read_text(&file, crate::plan::lint::MAX_DOCKERFILE_BYTES)?;
            let mut specs = Vec::new();
            for p in &hosts {
                let inv = load_card(p)?;
                let stem = p
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                specs.push(HostSpec::from_inventory(
                    &inv,
                    &stem,
                    &format!("card {}", p.display()),
                    kb.kb(),
                ));
            }
            let name = if file.as_os_str() == "-" {
                "stdin".to_string()
            } else {
                file.display().to_string()
            };
            lint(name, &text, &specs, kb.kb(), sel)
        }
        Input::DockerfileText { name, text, hosts } => lint(name, &text, &hosts, kb.kb(), sel),
        Input::Smoke { system, options } => {
            let s = smoke::run_smoke_with(system, &options);
            let mut r = Report::new(Kind::Smoke);
            r.findings = s.findings.clone();
            r.rules_checked = checked(&[RuleKind::Smoke], sel);
            r.smoke = Some(s);
            r
        }
    };
    if let (Some(sys), Kind::Check) = (options.smoke, r.kind) {
        let s = smoke::run_smoke(sys, Duration::from_secs(60));
        let ok = s.devices.iter().filter(|d| d.gemm.ok).count();
        if let Some(inv) = r.inventory.as_mut() {
            inv.note(
                "smoke",
                format!(
                    "fp16 GEMM matched the CPU reference on {ok} of {} GPU(s)",
                    s.devices.len()
                ),
            );
        }
        // The observed CUDA errors stay in the smoke report rather than the
        // inventory, so the same failure is not reported twice (ERR* and SMK*).
        r.findings.extend(s.findings.iter().cloned());
        r.rules_checked += checked(&[RuleKind::Smoke], sel);
        r.smoke = Some(s);
    }
    r.findings.retain(|f| sel.keeps(f));
    rules::sort_findings(&mut r.findings);
    Ok(r)
}

/// How many rules of these kinds the selection keeps.
fn checked(kinds: &[RuleKind], sel: &Selection) -> usize {
    registry::all()
        .iter()
        .filter(|r| kinds.contains(&r.kind) && sel.keeps_rule(r))
        .count()
}

fn check(inv: Inventory, kb: &Kb, sel: &Selection) -> Report {
    let mut r = Report::new(Kind::Check);
    r.findings = rules::run_rules(&inv, kb);
    r.rules_checked = checked(&[RuleKind::Inventory], sel);
    r.tier = Some(tier(&inv, kb));
    r.inventory = Some(inv);
    r
}

/// Pasted text, or gpucompat's own card / check JSON (read strictly).
fn explain(
    inputs: &[(String, String)],
    kb: &(impl KbSource + ?Sized),
    sel: &Selection,
) -> Result<Report, ReportError> {
    let mut inv = ingest::ingest_any(inputs).map_err(|e| ReportError::Card {
        path: e.name.clone(),
        message: e.to_string(),
    })?;
    // Asked for only now: the embedded tables were parsed on another thread
    // while the text was read (see `ingest`).
    let kb = kb.kb();
    ingest::enrich(&mut inv, kb);
    let mut r = Report::new(Kind::Explain);
    r.findings = rules::run_rules(&inv, kb);
    rules::observed::mark_thin_evidence(&mut r.findings);
    rules::observed::settle_competing(&mut r.findings);
    r.rules_checked = checked(&[RuleKind::Inventory], sel);
    r.to_be_sure = ingest::missing_facts(&inv);
    r.inventory = Some(inv);
    Ok(r)
}

fn lint(name: String, text: &str, hosts: &[HostSpec], kb: &Kb, sel: &Selection) -> Report {
    let mut r = Report::new(Kind::Lint);
    r.findings = crate::plan::lint::lint(text, kb, hosts);
    r.rules_checked = checked(&[RuleKind::Dockerfile], sel);
    r.file = Some(name);
    r
}

/// Read a saved card strictly (see [`crate::card`]).
fn read_card(path: &Path) -> Result<Inventory, ReportError> {
    Ok(crate::card::read(path)?)
}

/// Read a file, or standard input for `-`; bytes that are not UTF-8 become U+FFFD.
/// The read error, naming the path once (the system's errors often name it already).
fn read_message(path: &str, e: &std::io::Error) -> String {
    let e = e.to_string();
    if e.contains(path) {
        e
    } else {
        format!("{path}: {e}")
    }
}

/// At most `cap` bytes, only from a regular file (or stdin), opened without blocking.
fn read_text(path: &Path, cap: u64) -> Result<String, ReportError> {
    let read = crate::system::read_input(path, cap);
    let bytes = read.map_err(|source| ReportError::Read {
        path: if path.as_os_str() == "-" {
            "standard input".into()
        } else {
            path.display().to_string()
        },
        source,
    })?;
    Ok(match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Pasted reports: each file (or standard input) as (name, text).
fn read_inputs(files: &[PathBuf]) -> Result<Vec<(String, String)>, ReportError> {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    files
        .iter()
        .map(|p| {
            let name = if p.as_os_str() == "-" {
                "stdin".to_string()
            } else {
                p.display().to_string()
            };
            Ok((name, read_text(p, crate::system::MAX_PASTE_BYTES)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Selection;

    fn kb() -> &'static Kb {
        Kb::embedded()
    }

    #[test]
    fn pasted_text_gives_a_sorted_explain_report() {
        let text = "NVIDIA-SMI 470.182.03   Driver Version: 470.182.03   CUDA Version: 11.4\n\
                    torch==2.5.1+cu124\n";
        let r = report(
            Input::Text(vec![("paste".into(), text.into())]),
            kb(),
            &Options::default(),
        )
        .unwrap();
        assert_eq!(r.kind, Kind::Explain);
        assert_eq!(r.schema_version, SCHEMA_VERSION);
        assert_eq!(r.rules_checked, rules::all().len());
        assert!(r.inventory.is_some() && r.tier.is_none());
        let mut sorted = r.findings.clone();
        rules::sort_findings(&mut sorted);
        assert_eq!(r.findings, sorted);
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["kind"], "explain");
        assert!(v["to_be_sure"].is_array());
    }

    #[test]
    fn a_card_gives_a_check_report_with_its_tier() {
        let inv = Inventory::new("card test");
        let r = report(Input::Card(Box::new(inv)), kb(), &Options::default()).unwrap();
        assert_eq!(r.kind, Kind::Check);
        assert_eq!(r.no_accelerator().map(|t| t.level), Some(1));
        assert_eq!(r.origin(), "card test");
    }

    #[test]
    fn selection_counts_the_rules_of_the_report_kind() {
        let text = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN apt-get install -y nvidia-driver-550\n";
        let lint = |selection: Selection| {
            report(
                Input::DockerfileText {
                    name: "Dockerfile".into(),
                    text: text.into(),
                    hosts: Vec::new(),
                },
                kb(),
                &Options {
                    selection,
                    smoke: None,
                },
            )
            .unwrap()
        };
        let all = lint(Selection::default());
        assert_eq!(all.rules_checked, crate::plan::lint::RULES.len());
        assert!(all.findings.iter().any(|f| f.code == "DKR002"));
        assert_eq!(all.exit_code(), 1);
        let ignored = lint(Selection::parse(&[] as &[&str], &["DKR002"]).unwrap());
        assert_eq!(ignored.rules_checked, crate::plan::lint::RULES.len() - 1);
        assert!(ignored.findings.iter().all(|f| f.code != "DKR002"));
        // Selecting only smoke rules checks no Dockerfile rule.
        let smoke_only = lint(Selection::parse(&["SMK"], &[]).unwrap());
        assert_eq!(smoke_only.rules_checked, 0);
        assert!(smoke_only.findings.is_empty());
    }

    #[test]
    fn unreadable_inputs_are_errors_naming_the_path() {
        let e = report(
            Input::CardFile(PathBuf::from("/nonexistent/card.json")),
            kb(),
            &Options::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("/nonexistent/card.json"), "{e}");
        let e = report(
            Input::Pasted(vec![PathBuf::from("/nonexistent/paste.txt")]),
            kb(),
            &Options::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("/nonexistent/paste.txt"), "{e}");
    }
}
