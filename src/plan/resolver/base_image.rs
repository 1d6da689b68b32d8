//! The `nvidia/cuda` base image: the newest tag every host's driver accepts.

use super::*;
use crate::plan::require::{
    classify_clause, DeviceView, Outcome, RequireSet, RuntimeView, Seen, Verdict,
};

pub(super) const DEFAULT_OSES: [&str; 3] = ["ubuntu24.04", "ubuntu22.04", "ubuntu20.04"];

pub(super) struct ImagePick {
    pub(super) pin: Option<ImagePin>,
    pub(super) reason: Reason,
    pub(super) caveats: Vec<String>,
}

pub(super) fn pick_image(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    cuda: CudaVersion,
    torch_python: Option<&str>,
) -> ImagePick {
    let base = if req.devel { "devel" } else { "runtime" };
    let oses: Vec<String> = match &req.os {
        Some(o) => vec![o.clone()],
        None => DEFAULT_OSES.iter().map(|s| s.to_string()).collect(),
    };
    let mut rows: Vec<&CudaImageRow> = kb
        .cuda_images
        .row
        .iter()
        .filter(|r| r.cuda.major == cuda.major && r.cuda.major_minor() <= cuda.major_minor())
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.cuda));
    let mut skipped: Vec<String> = Vec::new();
    let mut caveats = Vec::new();
    for row in rows {
        let Some(require) = &row.require_cuda else {
            skipped.push(format!("{}: NVIDIA_REQUIRE_CUDA unknown", row.cuda));
            continue;
        };
        let Some(flavor) = flavor_name(row, base, req.cudnn_image) else {
            skipped.push(format!(
                "{}: no {}{base} flavor",
                row.cuda,
                if req.cudnn_image { "cudnn " } else { "" }
            ));
            continue;
        };
        let env = std::collections::BTreeMap::from([
            ("NVIDIA_REQUIRE_CUDA".to_string(), require.clone()),
            ("CUDA_VERSION".to_string(), row.cuda.to_string()),
        ]);
        let set = requirements_from_env(&env);
        let mut failed = None;
        let mut unknown_hosts = Vec::new();
        let mut via = Vec::new();
        for h in hosts {
            match admits(kb, h, &set, require) {
                Admits::Yes { forward_compat } => {
                    for text in forward_compat {
                        via.push(format!("host {} passes the image requirement only through `{text}`: the container uses the image's forward-compatibility libraries (supported on its data center GPUs)", h.spec.name));
                    }
                }
                Admits::Unknown(fact) => unknown_hosts.push(format!("{} ({fact})", h.spec.name)),
                Admits::No(why) | Admits::ForwardCompatUnusable(why) => {
                    failed = Some(format!("{}: {why}", row.cuda));
                    break;
                }
            }
        }
        if let Some(f) = failed {
            skipped.push(f);
            continue;
        }
        let mut os_skips = Vec::new();
        let mut chosen_os = None;
        for os in &oses {
            match availability(row, &flavor, os) {
                Availability::Yes => {}
                Availability::No(w) | Availability::Unknown(w) => {
                    os_skips.push(w);
                    continue;
                }
            }
            let py = distro_python(os).map(|(p, _)| p);
            if req.os.is_none() {
                if let (Some(spec), Some(p)) = (torch_python, py) {
                    if python_in(spec, p) != Some(true) {
                        os_skips.push(format!("{os} ships Python {p}, outside torch's {spec}"));
                        continue;
                    }
                }
            }
            chosen_os = Some(os.clone());
            break;
        }
        let Some(os) = chosen_os else {
            skipped.push(format!("{}: {}", row.cuda, os_skips.join("; ")));
            continue;
        };
        let python = distro_python(&os).map(|(p, _)| p.to_string());
        if let (Some(want), Some(have)) = (&req.python, &python) {
            if series(want) != series(have) {
                caveats.push(format!(
                    "--python {want}: {os} ships Python {have}; the Dockerfile uses the distribution's python3"
                ));
            }
        }
        if let (Some(spec), Some(p)) = (torch_python, &python) {
            if python_in(spec, p) == Some(false) {
                caveats.push(format!(
                    "{os} ships Python {p}, outside the torch release's range {spec}"
                ));
            }
        }
        if !unknown_hosts.is_empty() {
            caveats.push(format!(
                "the image's NVIDIA_REQUIRE_CUDA could not be checked on {}",
                unknown_hosts.join(", ")
            ));
        }
        caveats.extend(via.clone());
        let reference = format!("nvidia/cuda:{}-{flavor}-{os}", row.cuda);
        let mut text = format!(
            "{reference}: newest {flavor} image with CUDA <= {} whose NVIDIA_REQUIRE_CUDA every host satisfies",
            cuda.major_minor()
        );
        if let Some(s) = skipped.first() {
            text.push_str(&format!("; newer: {s}"));
        }
        return ImagePick {
            pin: Some(ImagePin {
                reference,
                cuda: row.cuda,
                flavor: flavor.clone(),
                os,
                require_cuda: Some(require.clone()),
                cudnn: flavor
                    .starts_with("cudnn")
                    .then(|| row.cudnn.clone())
                    .flatten(),
                python,
                kb: row.kb(),
            }),
            reason: Reason {
                subject: "image".into(),
                text,
                kb: vec![row.kb()],
            },
            caveats,
        };
    }
    ImagePick {
        pin: None,
        reason: Reason {
            subject: "image".into(),
            text: format!(
                "no nvidia/cuda image in the table fits CUDA {}: {}",
                cuda.major_minor(),
                if skipped.is_empty() {
                    "none with that major".to_string()
                } else {
                    skipped.join("; ")
                }
            ),
            kb: vec![],
        },
        caveats,
    }
}

/// Whether one host starts a container of the image, as nvidia-container-toolkit decides.
enum Admits {
    /// Yes; the forward-compatibility clauses it passed through, if any.
    Yes { forward_compat: Vec<String> },
    /// Refused.
    No(String),
    /// Admitted only through forward compatibility, which the host cannot use.
    ForwardCompatUnusable(String),
    /// A fact we lack decides it.
    Unknown(String),
}

/// One device's (or, with none, the host's) verdict, with the clause that let it through.
fn judge(h: &HostCtx<'_>, require: &str, v: &Verdict) -> Admits {
    match v.verdict.as_str() {
        "pass" | "disabled" => {
            let mut fwd = Vec::new();
            for e in &v.evaluations {
                if let Outcome::Pass { clause: Some(c) } = e.eval.outcome {
                    let text = require.split(' ').nth(c).unwrap_or("");
                    if !matches!(classify_clause(text), ClauseKind::Native { .. }) {
                        if let Err(why) = forward_compat_eligible(h.spec) {
                            return Admits::ForwardCompatUnusable(format!(
                                "host {} passes the requirement only through `{text}` (forward compatibility), which it cannot use: {why}",
                                h.spec.name
                            ));
                        }
                        if !fwd.contains(&text.to_string()) {
                            fwd.push(text.to_string());
                        }
                    }
                }
            }
            Admits::Yes {
                forward_compat: fwd,
            }
        }
        "unknown" => {
            let fact = v
                .decided_by
                .and_then(|i| v.evaluations.get(i))
                .and_then(|e| match &e.eval.outcome {
                    Outcome::Undetermined { fact } => Some(fact.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| "driver unknown".into());
            Admits::Unknown(fact)
        }
        _ => Admits::No(format!(
            "host {} fails its requirement ({})",
            h.spec.name,
            v.runtime_message.clone().unwrap_or_default()
        )),
    }
}

/// Does the host start the image? A GPU whose brand is not known exactly (a
/// GeForce RTX reads as `Unknown`, a GeForce as `GeForce`) is tried with every
/// brand it may report: the image is used only if each of them starts it
/// (through forward compatibility only where the GPU can use it), refused if
/// none does.
fn admits(kb: &Kb, h: &HostCtx<'_>, set: &RequireSet, require: &str) -> Admits {
    let view = h.spec.runtime_view(kb);
    if view.devices.is_empty() {
        return judge(h, require, &evaluate_set(set, &view));
    }
    let mut forward_compat = Vec::new();
    let mut unknown = None;
    for d in &view.devices {
        let brands: Vec<Seen> = match &d.brand {
            Seen::Unknown(c) if c.len() > 1 => c.iter().map(|b| Seen::value(b.clone())).collect(),
            b => vec![b.clone()],
        };
        let mut yes = 0;
        let mut no = Vec::new();
        let mut unsure = None;
        for b in &brands {
            let one = RuntimeView {
                driver: view.driver.clone(),
                devices: vec![DeviceView {
                    brand: b.clone(),
                    ..d.clone()
                }],
            };
            match judge(h, require, &evaluate_set(set, &one)) {
                Admits::Yes { forward_compat: f } => {
                    yes += 1;
                    for t in f {
                        if !forward_compat.contains(&t) {
                            forward_compat.push(t);
                        }
                    }
                }
                Admits::No(why) => no.push((why, false)),
                Admits::ForwardCompatUnusable(why) => no.push((why, true)),
                Admits::Unknown(fact) => {
                    unsure.get_or_insert(fact);
                }
            }
        }
        if no.len() == brands.len() {
            let (why, _) = no.swap_remove(0);
            if brands.len() == 1 {
                return Admits::No(why);
            }
            let names: Vec<&str> = brands
                .iter()
                .filter_map(|b| match b {
                    Seen::Value(v) => Some(v.as_str()),
                    _ => None,
                })
                .collect();
            let through = if no.iter().any(|(_, fwd)| *fwd) {
                "refused, or admitted only through forward compatibility it cannot use"
            } else {
                "refused"
            };
            return Admits::No(format!(
                "{why}; {} may report any of the brands {}, and with each the image is {through}",
                d.label,
                names.join(", ")
            ));
        }
        if yes < brands.len() {
            unknown.get_or_insert(unsure.unwrap_or_else(|| {
                format!(
                    "{}: its brand decides, and it is not known exactly",
                    d.label
                )
            }));
        }
    }
    match unknown {
        Some(fact) => Admits::Unknown(fact),
        None => Admits::Yes { forward_compat },
    }
}
