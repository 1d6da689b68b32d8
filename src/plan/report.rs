//! What `db require` and `db image` report: a requirement evaluated on a
//! host, and an image's facts with a verdict per host (forward-compatibility
//! eligibility explained).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::kb::{Kb, Semantic};
use crate::plan::hosts::{forward_compat_eligible, HostSpec};
use crate::plan::image::{
    availability, flavor_name, image_facts, Availability, ImageFacts, ImageKind, ImageRef,
};
use crate::plan::require::{
    classify_clause, clauses, evaluate_set, forward_compat_branches, requirements_from_env,
    ClauseKind, DeviceEval, Outcome, RequireSet, RuntimeView, Seen, TermResult, Verdict,
};
use crate::version::CudaVersion;

// ---------------------------------------------------------------------------
// db require
// ---------------------------------------------------------------------------

/// A fact the runtime would read, with where we got it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShownFact {
    pub fact: String,
    pub value: String,
    pub source: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RequireReport {
    pub host: String,
    pub requirements: RequireSet,
    pub facts: Vec<ShownFact>,
    #[serde(flatten)]
    pub verdict: Verdict,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl RequireReport {
    pub fn exit_code(&self) -> i32 {
        match self.verdict.verdict.as_str() {
            "pass" | "disabled" => 0,
            "unknown" => 2,
            _ => 1,
        }
    }
}

pub fn evaluate_requirements(
    host: &str,
    set: RequireSet,
    view: &RuntimeView,
    facts: Vec<ShownFact>,
) -> RequireReport {
    let verdict = evaluate_set(&set, view);
    let mut notes = Vec::new();
    if matches!(view.driver.driver, Seen::Nothing) {
        notes.push(
            "no NVIDIA driver known: the runtime's rules pass without data, but a GPU container cannot start without the driver".into(),
        );
    }
    RequireReport {
        host: host.to_string(),
        requirements: set,
        facts,
        verdict,
        notes,
    }
}

/// The facts of a runtime view as shown to the user.
pub fn view_facts(view: &RuntimeView, sources: &BTreeMap<String, String>) -> Vec<ShownFact> {
    let show = |s: &Seen| match s {
        Seen::Value(v) => v.clone(),
        Seen::Nothing => "none (the rule passes)".into(),
        Seen::Unknown(c) if c.is_empty() => "unknown".into(),
        Seen::Unknown(c) => format!("one of {}", c.join(", ")),
    };
    let src = |k: &str| sources.get(k).cloned().unwrap_or_default();
    let mut out = vec![
        ShownFact {
            fact: "driver".into(),
            value: show(&view.driver.driver),
            source: src("driver"),
        },
        ShownFact {
            fact: "cuda".into(),
            value: show(&view.driver.cuda),
            source: src("cuda"),
        },
    ];
    for d in &view.devices {
        out.push(ShownFact {
            fact: format!("{} arch", d.label),
            value: show(&d.arch),
            source: src(&format!("{} arch", d.label)),
        });
        out.push(ShownFact {
            fact: format!("{} brand", d.label),
            value: show(&d.brand),
            source: src(&format!("{} brand", d.label)),
        });
    }
    if view.devices.is_empty() {
        out.push(ShownFact {
            fact: "GPUs".into(),
            value: "none visible (arch and brand terms pass)".into(),
            source: String::new(),
        });
    }
    out
}

fn explain_eval(o: &mut String, e: &DeviceEval, full: bool) {
    let cl = clauses(&e.expr);
    let _ = writeln!(
        o,
        "  {} on {}: {}",
        e.origin,
        e.device,
        e.eval.outcome.word()
    );
    let mut shown = 0;
    let mut hidden = 0;
    for (ci, text) in &cl {
        let steps: Vec<_> = e.eval.steps.iter().filter(|s| s.clause == *ci).collect();
        if steps.is_empty() {
            continue;
        }
        if !full && shown >= 4 {
            hidden += 1;
            continue;
        }
        shown += 1;
        let parts: Vec<String> = steps
            .iter()
            .map(|s| match &s.result {
                TermResult::True { compared } => format!(
                    "{} true{}",
                    s.term,
                    compared
                        .as_ref()
                        .map(|c| format!(" ({c})"))
                        .unwrap_or_else(|| " (no data: passes)".into())
                ),
                TermResult::False { compared } => format!(
                    "{} false{}",
                    s.term,
                    compared
                        .as_ref()
                        .map(|c| format!(" ({c})"))
                        .unwrap_or_default()
                ),
                TermResult::Invalid { reason } => format!("{} invalid: {reason}", s.term),
                TermResult::Undetermined { fact } => {
                    format!("{} undetermined: {fact} unknown", s.term)
                }
            })
            .collect();
        let _ = writeln!(o, "    clause {} `{text}`: {}", ci + 1, parts.join("; "));
    }
    if hidden > 0 {
        let _ = writeln!(
            o,
            "    ... {hidden} more clauses evaluated, none held (-v shows them)"
        );
    }
    match &e.eval.outcome {
        Outcome::Pass { clause: Some(c) } => {
            let text = e.expr.split(' ').nth(*c).unwrap_or("");
            let _ = writeln!(o, "    decided by clause {} `{text}`, which holds", c + 1);
        }
        Outcome::Pass { clause: None } => {
            let _ = writeln!(o, "    nothing to check: passes");
        }
        Outcome::Fail { .. } => {
            let _ = writeln!(o, "    no clause holds");
        }
        Outcome::Error { term, reason } => {
            let _ = writeln!(o, "    invalid expression at `{term}`: {reason}");
        }
        Outcome::Undetermined { fact } => {
            let _ = writeln!(o, "    cannot decide: {fact}");
        }
    }
}

pub fn require_text(r: &RequireReport, full: bool) -> String {
    let mut o = String::new();
    match &r.requirements {
        RequireSet::Checked { requirements } => {
            for q in requirements {
                let _ = writeln!(o, "requirement ({}): {}", q.origin, q.expr);
            }
            if requirements.is_empty() {
                let _ = writeln!(o, "requirement: none");
            }
        }
        RequireSet::Disabled { value } => {
            let _ = writeln!(o, "requirements disabled: NVIDIA_DISABLE_REQUIRE={value}");
        }
        RequireSet::Broken { message } => {
            let _ = writeln!(o, "requirements: {message}");
        }
    }
    let facts: Vec<String> = r
        .facts
        .iter()
        .map(|f| {
            if f.source.is_empty() {
                format!("{} {}", f.fact, f.value)
            } else {
                format!("{} {} ({})", f.fact, f.value, f.source)
            }
        })
        .collect();
    let _ = writeln!(
        o,
        "{} as the runtime reads it: {}",
        r.host,
        facts.join("; ")
    );
    let _ = writeln!(o, "verdict: {}", r.verdict.verdict.to_uppercase());
    for (i, e) in r.verdict.evaluations.iter().enumerate() {
        if !full && r.verdict.decided_by.is_some_and(|d| d != i) && r.verdict.evaluations.len() > 1
        {
            continue;
        }
        explain_eval(&mut o, e, full);
    }
    if let Some(m) = &r.verdict.runtime_message {
        let _ = writeln!(o, "nvidia-container-cli would say: {m}");
    }
    for n in &r.notes {
        let _ = writeln!(o, "note: {n}");
    }
    o
}

// ---------------------------------------------------------------------------
// db image
// ---------------------------------------------------------------------------

/// How one host fares with an image.
#[derive(Debug, Clone, Serialize)]
pub struct HostImageCheck {
    pub host: String,
    /// `native`, `forward_compat`, `compat_unsupported`, `fail`, `error`, `unknown`, `disabled`, `not_checked`.
    pub result: String,
    pub explanation: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ImageReport {
    pub facts: ImageFacts,
    /// The `cuda>=X` of the requirement: what a driver must natively run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub native_cuda: Option<String>,
    /// Driver branch → brands admitted through forward compatibility.
    pub forward_compat: BTreeMap<String, Vec<String>>,
    pub hosts: Vec<HostImageCheck>,
    pub notes: Vec<String>,
}

impl ImageReport {
    pub fn exit_code(&self) -> i32 {
        if self.hosts.iter().any(|h| {
            ["fail", "error", "compat_unsupported", "no_nvidia_gpu"].contains(&h.result.as_str())
        }) {
            1
        } else {
            0
        }
    }
}

/// The newest image of the same flavor family and OS that a host's driver runs natively.
fn older_image(kb: &Kb, facts: &ImageFacts, max: CudaVersion) -> Option<String> {
    let ImageKind::Cuda {
        flavor: Some(flavor),
        os: Some(os),
        ..
    } = &facts.image.kind
    else {
        return None;
    };
    let base = if flavor.ends_with("devel") {
        "devel"
    } else if flavor.ends_with("runtime") {
        "runtime"
    } else {
        "base"
    };
    let cudnn = flavor.starts_with("cudnn");
    let mut rows: Vec<_> = kb
        .cuda_images
        .row
        .iter()
        .filter(|r| r.cuda.major_minor() <= max.major_minor() && r.require_cuda.is_some())
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.cuda));
    // The same OS first, else the newest release of the same distribution.
    let family: String = os.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    for r in rows {
        let Some(f) = flavor_name(r, base, cudnn) else {
            continue;
        };
        let mut oses: Vec<&String> =
            r.os.iter()
                .filter(|o| o.starts_with(&family) && *o != os)
                .collect();
        oses.sort_by(|a, b| {
            crate::kb::cmp_versions(b.trim_start_matches(&family), a.trim_start_matches(&family))
        });
        oses.insert(0, os);
        for o in oses {
            if availability(r, &f, o) == Availability::Yes {
                return Some(format!("nvidia/cuda:{}-{f}-{o}", r.cuda));
            }
        }
    }
    None
}

pub fn image_report(kb: &Kb, image: &ImageRef, hosts: &[HostSpec]) -> ImageReport {
    let facts = image_facts(kb, image);
    let mut notes = Vec::new();
    let require = facts.require_cuda.clone();
    let native_cuda = require.as_deref().and_then(|r| {
        clauses(r)
            .into_iter()
            .find_map(|(_, c)| match classify_clause(c) {
                ClauseKind::Native { cuda } => Some(cuda),
                _ => None,
            })
    });
    let forward_compat = require
        .as_deref()
        .map(forward_compat_branches)
        .unwrap_or_default();
    let set = facts.env().map(|e| requirements_from_env(&e));
    if set.is_some() {
        notes.push(
            "checked as nvidia-container-cli does in the toolkit's legacy mode; CSV mode (Jetson) checks only cuda and arch terms, CDI mode does not check requirements".into(),
        );
    }
    let native_driver = native_cuda
        .as_deref()
        .and_then(|c| c.parse::<CudaVersion>().ok())
        .and_then(|c| {
            kb.min_driver_for_cuda(&c, crate::inventory::OsKind::Linux, Semantic::Toolkit)
        });
    let mut checks = Vec::new();
    for h in hosts {
        let mut explanation = Vec::new();
        if h.kind != crate::plan::hosts::HostKind::Nvidia {
            checks.push(HostImageCheck {
                host: h.name.clone(),
                result: "no_nvidia_gpu".into(),
                explanation: vec![format!(
                    "no NVIDIA driver or GPU known on {} ({}): a GPU container needs the NVIDIA driver and the container toolkit",
                    h.name, h.origin
                )],
                fix: None,
                verdict: None,
            });
            continue;
        }
        let max = h.driver_cuda(kb);
        let Some(set) = &set else {
            // No requirement known: say what the image's CUDA needs natively.
            let mut result = "not_checked".to_string();
            if let (Some(c), Some(m)) = (facts.cuda, &max) {
                if c.major_minor() <= m.value.major_minor() {
                    explanation.push(format!(
                        "the image's requirement is unknown; its CUDA {} runs natively on driver CUDA {} ({})",
                        c.major_minor(),
                        m.value,
                        m.source
                    ));
                } else {
                    result = "unknown".into();
                    explanation.push(format!(
                        "the image's requirement is unknown; its CUDA {} is newer than this driver runs natively ({}, {})",
                        c.major_minor(),
                        m.value,
                        m.source
                    ));
                }
            } else {
                explanation.push("the image's requirement is unknown to the knowledge base".into());
            }
            checks.push(HostImageCheck {
                host: h.name.clone(),
                result,
                explanation,
                fix: None,
                verdict: None,
            });
            continue;
        };
        let v = evaluate_set(set, &h.runtime_view(kb));
        let mut fix = None;
        let result = match v.verdict.as_str() {
            "pass" => {
                let via = v.evaluations.iter().find_map(|e| match e.eval.outcome {
                    Outcome::Pass { clause: Some(c) } => {
                        let text = e.expr.split(' ').nth(c).unwrap_or("").to_string();
                        match classify_clause(&text) {
                            ClauseKind::Native { .. } => None,
                            k => Some((text, k)),
                        }
                    }
                    _ => None,
                });
                match via {
                    None => {
                        explanation.push(format!(
                            "passes natively: the driver runs CUDA {} (>= {})",
                            max.as_ref().map_or("?".into(), |m| m.value.to_string()),
                            native_cuda.as_deref().unwrap_or("?")
                        ));
                        "native".to_string()
                    }
                    Some((text, _)) => {
                        explanation.push(format!(
                            "passes only through `{text}`: forward compatibility, the container uses the image's cuda-compat libraries (/usr/local/cuda/compat) in place of the host's older libcuda"
                        ));
                        match forward_compat_eligible(h) {
                            Ok(()) => {
                                explanation.push(
                                    "eligible: every visible GPU is a data center GPU".into(),
                                );
                                "forward_compat".to_string()
                            }
                            Err(why) => {
                                explanation.push(format!("not eligible: {why}"));
                                fix = Some(fix_text(kb, &facts, &native_driver, &max));
                                "compat_unsupported".to_string()
                            }
                        }
                    }
                }
            }
            "fail" | "error" => {
                explanation.push(v.runtime_message.clone().unwrap_or_default());
                if let Some(m) = &max {
                    explanation.push(format!(
                        "the driver runs CUDA up to {} ({})",
                        m.value, m.source
                    ));
                }
                if !forward_compat.is_empty() {
                    match forward_compat_eligible(h) {
                        Ok(()) => explanation.push(format!(
                            "forward compatibility would need a driver on branch {} (listed by the image)",
                            forward_compat.keys().map(|b| format!("R{b}")).collect::<Vec<_>>().join(", ")
                        )),
                        Err(why) => explanation.push(format!("forward compatibility is no way out: {why}")),
                    }
                }
                fix = Some(fix_text(kb, &facts, &native_driver, &max));
                v.verdict.clone()
            }
            other => {
                if let Some(e) = v.decided_by.and_then(|i| v.evaluations.get(i)) {
                    if let Outcome::Undetermined { fact } = &e.eval.outcome {
                        explanation.push(format!("cannot decide: {fact}"));
                    }
                }
                other.to_string()
            }
        };
        checks.push(HostImageCheck {
            host: h.name.clone(),
            result,
            explanation,
            fix,
            verdict: Some(v),
        });
    }
    ImageReport {
        facts,
        native_cuda,
        forward_compat,
        hosts: checks,
        notes,
    }
}

fn fix_text(
    kb: &Kb,
    facts: &ImageFacts,
    native_driver: &Option<crate::kb::MinDriver>,
    max: &Option<crate::inventory::Fact<CudaVersion>>,
) -> String {
    let mut parts = Vec::new();
    if let Some(d) = native_driver {
        parts.push(format!(
            "upgrade the driver to >= {} ({} {})",
            d.driver, d.kb.table, d.kb.row
        ));
    }
    if let Some(m) = max {
        if let Some(img) = older_image(kb, facts, m.value) {
            parts.push(format!("or use {img}"));
        }
    }
    if parts.is_empty() {
        "upgrade the driver".into()
    } else {
        parts.join(", ")
    }
}

pub fn image_text(r: &ImageReport, full: bool) -> String {
    let mut o = String::new();
    let f = &r.facts;
    let _ = writeln!(o, "image: {}", f.image.raw);
    let mut line = Vec::new();
    if let ImageKind::Cuda { flavor, os, .. } = &f.image.kind {
        line.push(format!(
            "CUDA {}",
            f.cuda.map_or("unknown".into(), |c| c.to_string())
        ));
        if flavor.as_deref().is_some_and(|x| x.starts_with("cudnn")) {
            line.push(format!("cuDNN {}", f.cudnn.as_deref().unwrap_or("unknown")));
        }
        line.push(format!("flavor {}", flavor.as_deref().unwrap_or("unknown")));
        line.push(format!("OS {}", os.as_deref().unwrap_or("unknown")));
    } else if let ImageKind::Pytorch {
        torch,
        cuda,
        cudnn_major,
        flavor,
    } = &f.image.kind
    {
        line.push(format!("torch {}", torch.as_deref().unwrap_or("unknown")));
        line.push(format!(
            "CUDA {}",
            cuda.map_or("unknown".into(), |c| c.to_string())
        ));
        line.push(format!(
            "cuDNN {}",
            cudnn_major.map_or("unknown".into(), |c| c.to_string())
        ));
        line.push(format!("flavor {}", flavor.as_deref().unwrap_or("unknown")));
    }
    line.push(match &f.exists {
        Availability::Yes => "tag listed in the table".into(),
        Availability::No(w) => format!("tag not built: {w}"),
        Availability::Unknown(w) => format!("tag unverified: {w}"),
    });
    let _ = writeln!(o, "  {}", line.join("; "));
    match &f.require_cuda {
        Some(req) => {
            let n = clauses(req).len();
            if full || req.len() <= 160 {
                let _ = writeln!(o, "  NVIDIA_REQUIRE_CUDA: {req}");
            } else {
                let first: String = req.chars().take(120).collect();
                let _ = writeln!(
                    o,
                    "  NVIDIA_REQUIRE_CUDA: {first}... ({n} clauses; -v prints it all)"
                );
            }
            if let Some(c) = &r.native_cuda {
                let _ = writeln!(o, "    natively: a driver that runs CUDA >= {c}");
            }
            if !r.forward_compat.is_empty() {
                let mut brands: Vec<String> =
                    r.forward_compat.values().flatten().cloned().collect();
                brands.sort();
                brands.dedup();
                let _ = writeln!(
                    o,
                    "    or, through forward compatibility (data center GPUs only): brands {} on driver branches {}",
                    brands.join(", "),
                    r.forward_compat.keys().map(|b| format!("R{b}")).collect::<Vec<_>>().join(", ")
                );
                if brands
                    .iter()
                    .any(|b| b.starts_with("geforce") || b.starts_with("titan"))
                {
                    let _ = writeln!(
                        o,
                        "    (the string also admits GeForce/TITAN brands, which start the container but cannot use forward compatibility)"
                    );
                }
            }
        }
        None => {
            let _ = writeln!(o, "  NVIDIA_REQUIRE_CUDA: unknown");
        }
    }
    if let Some(k) = &f.kb {
        let _ = writeln!(o, "  source: {} {} ({})", k.table, k.row, k.source);
    }
    for n in &f.notes {
        if full || !n.starts_with("table note:") {
            let _ = writeln!(o, "  note: {n}");
        }
    }
    for h in &r.hosts {
        let _ = writeln!(
            o,
            "host {}: {}",
            h.host,
            h.result.to_uppercase().replace('_', " ")
        );
        for e in &h.explanation {
            let _ = writeln!(o, "  {e}");
        }
        if let Some(fx) = &h.fix {
            let _ = writeln!(o, "  fix: {fx}");
        }
    }
    for n in &r.notes {
        let _ = writeln!(o, "note: {n}");
    }
    o
}
