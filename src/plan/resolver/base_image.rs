//! The `nvidia/cuda` base image: the newest tag every host's driver accepts.

use super::*;

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
            let view = h.spec.runtime_view(kb);
            let v = evaluate_set(&set, &view);
            match v.verdict.as_str() {
                "pass" => {
                    // Which clause let it through, for the explanation.
                    if let Some(e) = v.evaluations.first() {
                        if let crate::plan::require::Outcome::Pass { clause: Some(c) } =
                            e.eval.outcome
                        {
                            let text = require.split(' ').nth(c).unwrap_or("");
                            if !matches!(
                                crate::plan::require::classify_clause(text),
                                ClauseKind::Native { .. }
                            ) {
                                if let Err(why) = forward_compat_eligible(h.spec) {
                                    failed = Some(format!(
                                        "{}: host {} passes the requirement only through `{text}` (forward compatibility), which it cannot use: {why}",
                                        row.cuda, h.spec.name
                                    ));
                                    break;
                                }
                                via.push(format!("host {} passes the image requirement only through `{text}`: the container uses the image's forward-compatibility libraries (supported on its data center GPUs)", h.spec.name));
                            }
                        }
                    }
                }
                "unknown" => unknown_hosts.push(h.spec.name.clone()),
                _ => {
                    failed = Some(format!(
                        "{}: host {} fails its requirement ({})",
                        row.cuda,
                        h.spec.name,
                        v.runtime_message.unwrap_or_default()
                    ));
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
                "the image's NVIDIA_REQUIRE_CUDA could not be checked on {} (driver unknown)",
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
