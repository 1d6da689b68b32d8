//! TensorRT, ONNX Runtime and JAX for the chosen CUDA major.

use super::*;

pub(super) fn gpu_ccs(hosts: &[&HostCtx<'_>]) -> (Vec<(String, ComputeCapability)>, bool) {
    let mut v = Vec::new();
    let mut unknown = false;
    for h in hosts {
        for g in &h.spec.gpus {
            match &g.cc {
                Some(c) => v.push((format!("host {} {}", h.spec.name, g.label()), c.value)),
                None => unknown = true,
            }
        }
    }
    (v, unknown)
}

pub(super) fn pick_tensorrt(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    major: u32,
    bound: CudaVersion,
    semantic: Semantic,
) -> (PackagePin, Reason) {
    let (ccs, cc_unknown) = gpu_ccs(hosts);
    let mut rows: Vec<_> = kb.tensorrt.row.iter().collect();
    rows.sort_by(|a, b| cmp_versions(&b.version_max, &a.version_max));
    let package = format!("tensorrt-cu{major}");
    let mut skipped = Vec::new();
    for r in rows {
        let v = &r.version_max;
        if !r.wheel_cuda_majors.iter().flatten().any(|m| *m == major) {
            skipped.push(format!("{v}: no {package} wheel recorded"));
            continue;
        }
        if !r.cuda_majors.iter().flatten().any(|m| *m == major) {
            skipped.push(format!("{v}: not built for CUDA {major}"));
            continue;
        }
        let builds: Vec<CudaVersion> = r
            .cuda_builds
            .iter()
            .flatten()
            .filter(|b| b.major == major)
            .copied()
            .collect();
        if semantic == Semantic::Toolkit && !builds.iter().any(|b| b.major_minor() <= bound) {
            skipped.push(format!(
                "{v}: built with CUDA {} > {bound}",
                builds
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join("/")
            ));
            continue;
        }
        let Some(min_cc) = r.min_cc else {
            skipped.push(format!("{v}: supported GPUs unverified"));
            continue;
        };
        if let Some((who, cc)) = ccs
            .iter()
            .find(|(_, cc)| cc.plain() < min_cc || r.max_cc.is_some_and(|m| cc.plain() > m))
        {
            skipped.push(format!("{v}: does not support {who} ({cc})"));
            continue;
        }
        let mut text = format!(
            "TensorRT {v}: newest release with a {package} wheel built for CUDA {} (<= {bound}) supporting every GPU (compute capability {min_cc}{})",
            builds.iter().map(|b| b.to_string()).collect::<Vec<_>>().join("/"),
            r.max_cc.map_or("+".into(), |m| format!("..{m}"))
        );
        if let Some(s) = skipped.first() {
            text.push_str(&format!("; newer: {s}"));
        }
        if cc_unknown {
            text.push_str("; some GPUs have no known compute capability and were not checked");
        }
        return (
            PackagePin {
                package: package.clone(),
                version: Some(v.clone()),
                requirement: Some(format!("{package}=={v}.*")),
                index_url: None,
                source: format!("tensorrt {}-{}", r.version_min, r.version_max),
                note: None,
            },
            Reason {
                subject: "tensorrt".into(),
                text,
                kb: vec![r.kb()],
            },
        );
    }
    (
        PackagePin {
            package: package.clone(),
            version: None,
            requirement: None,
            index_url: None,
            source: "tensorrt".into(),
            note: Some({
                let informative: Vec<String> = skipped
                    .iter()
                    .filter(|s| !s.contains("not built for CUDA") && !s.contains("wheel recorded"))
                    .take(2)
                    .cloned()
                    .collect();
                let mut n = format!(
                    "unknown: no TensorRT release with a {package} wheel fits ({})",
                    if informative.is_empty() { skipped.iter().take(2).cloned().collect::<Vec<_>>().join("; ") } else { informative.join("; ") }
                );
                if semantic == Semantic::Toolkit && skipped.iter().any(|s| s.contains("built with CUDA")) {
                    n.push_str("; --semantic minor-compat admits builds of the same CUDA major");
                }
                n
            }),
        },
        Reason {
            subject: "tensorrt".into(),
            text: format!("no TensorRT release in the knowledge base has a {package} wheel that fits this stack"),
            kb: vec![],
        },
    )
}

pub(super) fn pick_onnxruntime(
    kb: &Kb,
    major: u32,
    bound: CudaVersion,
    python: Option<&str>,
    semantic: Semantic,
) -> (PackagePin, Reason) {
    let mut rows: Vec<_> = kb.onnxruntime.row.iter().collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    let mut skipped: Vec<String> = Vec::new();
    for r in rows {
        if r.cuda_major != Some(major) {
            if skipped.is_empty() {
                skipped.push(format!(
                    "{}: built for CUDA {}",
                    r.version,
                    r.cuda_major.map_or("?".into(), |m| m.to_string())
                ));
            }
            continue;
        }
        if let (Semantic::Toolkit, Some(b)) = (semantic, r.cuda_version) {
            if b.major_minor() > bound {
                skipped.push(format!("{}: built with CUDA {b} > {bound}", r.version));
                continue;
            }
        }
        let req_py = r.python_min.clone();
        if let (Some(py), Some(lo)) = (python, req_py.as_deref()) {
            if series(py) < series(lo) {
                skipped.push(format!("{}: needs Python >= {lo}", r.version));
                continue;
            }
        }
        let mut text = format!(
            "onnxruntime-gpu {}: newest PyPI release built for CUDA {major}{}",
            r.version,
            r.cuda_version.map_or(String::new(), |b| format!(" ({b})"))
        );
        if let Some(s) = skipped.first() {
            text.push_str(&format!("; newer: {s}"));
        }
        return (
            PackagePin {
                package: "onnxruntime-gpu".into(),
                version: Some(r.version.clone()),
                requirement: Some(format!("onnxruntime-gpu=={}", r.version)),
                index_url: None,
                source: format!("onnxruntime {}", r.version),
                note: r
                    .cudnn_major
                    .map(|c| format!("needs cuDNN {c} and the CUDA {major} libraries (torch's nvidia-* wheels or a cudnn image provide them)")),
            },
            Reason {
                subject: "onnxruntime-gpu".into(),
                text,
                kb: vec![r.kb()],
            },
        );
    }
    (
        PackagePin {
            package: "onnxruntime-gpu".into(),
            version: None,
            requirement: None,
            index_url: None,
            source: "onnxruntime".into(),
            note: Some(format!(
                "unknown: no onnxruntime-gpu release fits CUDA {major}"
            )),
        },
        Reason {
            subject: "onnxruntime-gpu".into(),
            text: format!(
                "no onnxruntime-gpu release in the knowledge base is built for CUDA {major}"
            ),
            kb: vec![],
        },
    )
}

pub(super) fn pick_jax(kb: &Kb, hosts: &[&HostCtx<'_>], major: u32) -> (Vec<PackagePin>, Reason) {
    let package = format!("jax-cuda{major}-plugin");
    let mut rows: Vec<_> = kb.jax.row.iter().filter(|r| r.package == package).collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    for r in rows {
        if let Some(min) = &r.min_linux_driver {
            if let Some(h) = hosts.iter().find(|h| {
                h.spec
                    .driver
                    .as_ref()
                    .is_some_and(|d| !driver_meets(&d.value, min))
            }) {
                let _ = h;
                continue;
            }
        }
        let pins = vec![
            PackagePin {
                package: package.clone(),
                version: Some(r.version.clone()),
                requirement: Some(format!("{package}[with-cuda]=={}", r.version)),
                index_url: None,
                source: format!("jax {} {}", r.package, r.version),
                note: None,
            },
            PackagePin {
                package: "jax".into(),
                version: None,
                requirement: None,
                index_url: None,
                source: "jax".into(),
                note: Some(format!(
                    "the jax release that matches {package} {} (not in the knowledge base)",
                    r.version
                )),
            },
        ];
        let floor = r
            .min_linux_driver
            .as_ref()
            .map_or("no driver floor recorded".into(), |d| {
                format!("needs driver >= {d}")
            });
        return (
            pins,
            Reason {
                subject: "jax".into(),
                text: format!(
                    "{package} {}: newest plugin for CUDA {major} ({floor})",
                    r.version
                ),
                kb: vec![KbRef {
                    table: "jax".into(),
                    row: format!("{} {}", r.package, r.version),
                    source: r.source.clone(),
                }],
            },
        );
    }
    (
        vec![PackagePin {
            package,
            version: None,
            requirement: None,
            index_url: None,
            source: "jax".into(),
            note: Some(format!(
                "unknown: no JAX CUDA {major} plugin fits every host's driver"
            )),
        }],
        Reason {
            subject: "jax".into(),
            text: format!("no JAX plugin for CUDA {major} fits"),
            kb: vec![],
        },
    )
}
