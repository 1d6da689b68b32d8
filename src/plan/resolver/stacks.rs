//! One stack for a group of hosts: CUDA (torch, libraries, base image) or plain (CPU, ROCm, Apple).

use super::*;

/// One CUDA stack for these hosts under `mode`; under `auto`, the newer of
/// the stacks the toolkit semantic and minor-version compatibility give.
pub(super) fn resolve_cuda(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    mode: SemanticMode,
) -> Result<Stack, NoStack> {
    match mode {
        SemanticMode::Toolkit => resolve_cuda_under(kb, hosts, req, Semantic::Toolkit),
        SemanticMode::MinorCompat => resolve_cuda_under(kb, hosts, req, Semantic::MinorCompat),
        SemanticMode::Auto => {
            let toolkit = resolve_cuda_under(kb, hosts, req, Semantic::Toolkit);
            let minor = resolve_cuda_under(kb, hosts, req, Semantic::MinorCompat);
            match (toolkit, minor) {
                (Ok(t), Ok(m)) => Ok(choose_semantic(t, m)),
                (Ok(t), Err(_)) => Ok(t),
                (Err(_), Ok(mut m)) => {
                    m.reasons.insert(
                        0,
                        Reason {
                            subject: "semantic".into(),
                            text: "auto: minor-version compatibility, the only semantic under which these hosts get a stack".into(),
                            kb: vec![],
                        },
                    );
                    Ok(m)
                }
                (Err(_), Err(e)) => Err(e),
            }
        }
    }
}

/// What `auto` compares: the torch release when torch is pinned, else the
/// other packages in order; a tie keeps the toolkit semantic (no caveats).
pub(super) fn newer_than(a: &Stack, b: &Stack) -> bool {
    let base = |p: &PackagePin| {
        p.version
            .as_deref()
            .map(|v| v.split('+').next().unwrap_or(v).to_string())
    };
    let key = |s: &Stack| -> Vec<Option<String>> {
        match s.torch() {
            Some(t) => vec![base(t)],
            None => s.packages.iter().map(base).collect(),
        }
    };
    for (x, y) in key(a).iter().zip(key(b).iter()) {
        match (x, y) {
            (Some(x), Some(y)) => match cmp_versions(x, y) {
                std::cmp::Ordering::Equal => continue,
                o => return o == std::cmp::Ordering::Greater,
            },
            (Some(_), None) => return true,
            (None, Some(_)) => return false,
            (None, None) => continue,
        }
    }
    false
}

fn pins_named(s: &Stack) -> String {
    let v: Vec<&str> = s
        .packages
        .iter()
        .filter_map(|p| p.requirement.as_deref())
        .collect();
    if v.is_empty() {
        format!("CUDA {}", s.cuda.as_ref().map_or("?".into(), |c| c.shown()))
    } else {
        v.join(", ")
    }
}

fn choose_semantic(toolkit: Stack, minor: Stack) -> Stack {
    if newer_than(&minor, &toolkit) {
        let mut m = minor;
        m.reasons.insert(
            0,
            Reason {
                subject: "semantic".into(),
                text: format!(
                    "auto: minor-version compatibility, because it gives a newer stack ({}) than the toolkit semantic, which runs with no caveats ({})",
                    pins_named(&m),
                    pins_named(&toolkit)
                ),
                kb: m.minor_compat.as_ref().map(|u| u.kb.clone()).into_iter().collect(),
            },
        );
        m
    } else {
        let mut t = toolkit;
        t.reasons.insert(
            0,
            Reason {
                subject: "semantic".into(),
                text: "auto: the toolkit semantic (no caveats); minor-version compatibility gives no newer stack".into(),
                kb: vec![],
            },
        );
        t
    }
}

/// Why no torch build fits: the driver, the GPUs together, one GPU, or the knowledge base.
fn torch_limit(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    releases: &[&TorchReleaseRow],
    search: &TorchSearch<'_>,
) -> Limit {
    // The newest build that has kernels for every GPU, whatever the driver.
    for r in releases {
        for (variant, _) in cuda_variants(r) {
            if covers_gpus(kb, hosts, r, &variant).is_ok() {
                let cuda: Option<CudaVersion> = variant.parse().ok();
                let os = hosts
                    .first()
                    .map_or(crate::inventory::OsKind::Linux, |h| h.spec.os_kind);
                let driver = cuda
                    .and_then(|c| kb.min_driver_for_cuda(&c, os, Semantic::Toolkit))
                    .map(|m| m.driver.to_string());
                return Limit::Driver {
                    build: Some(format!("{}+{variant}", r.version)),
                    driver,
                };
            }
        }
    }
    let only_unknown = search
        .rejected
        .iter()
        .flat_map(|(_, why)| why.iter())
        .all(|(_, m)| matches!(m, Misfit::Unknown { .. }));
    if only_unknown {
        return Limit::Knowledge;
    }
    // Every GPU alone has some build: together they have none.
    for h in hosts {
        for g in &h.spec.gpus {
            let mut one = h.spec.clone();
            one.gpus = vec![g.clone()];
            let ctx = host_ctx(kb, &one);
            let alone = releases.iter().any(|r| {
                cuda_variants(r)
                    .iter()
                    .any(|(v, _)| covers_gpus(kb, &[&ctx], r, v).is_ok())
            });
            if !alone {
                return Limit::GpuUnsupported {
                    gpu: format!("host {} {}", h.spec.name, g.label()),
                };
            }
        }
    }
    Limit::GpuMix
}

/// The cost of running on drivers older than the stack's CUDA, said plainly.
fn minor_compat_use(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    cuda: CudaVersion,
    minor_hosts: &[String],
    torch: Option<&TorchChoice<'_>>,
) -> Option<MinorCompatUse> {
    let users: Vec<&HostCtx<'_>> = hosts
        .iter()
        .copied()
        .filter(|h| minor_hosts.contains(&h.spec.name))
        .collect();
    if users.is_empty() {
        return None;
    }
    let os = users[0].spec.os_kind;
    let floor = kb.min_driver_for_cuda(&cuda, os, Semantic::MinorCompat)?;
    let toolkit = kb.min_driver_for_cuda(&cuda, os, Semantic::Toolkit);
    let mm = cuda.major_minor();
    let mut caveats = Vec::new();
    for h in &users {
        let drv = h
            .spec
            .driver
            .as_ref()
            .map_or("?".into(), |d| d.value.to_string());
        let have = h
            .toolkit_max
            .as_ref()
            .map_or("?".into(), |(m, _, _, _)| m.to_string());
        caveats.push(format!(
            "host {} (driver {drv}, CUDA {have} with no caveats) runs CUDA {mm} under minor-version compatibility: APIs newer than CUDA {have} return cudaErrorCallRequiresNewerDriver",
            h.spec.name
        ));
    }
    caveats.push(match torch {
        Some(t) if !t.ptx => format!(
            "no JIT of newer PTX: PTX built by CUDA {mm} cannot be JIT-compiled by these drivers, so every GPU needs machine code (SASS) in the wheel; torch {}+{} has it for every GPU known here",
            t.release.version, t.variant
        ),
        _ => format!(
            "no JIT of newer PTX: PTX built by CUDA {mm} cannot be JIT-compiled by these drivers; kernels that exist only as PTX (custom extensions, JIT-compiled code) fail"
        ),
    });
    for h in &users {
        caveats.push(match forward_compat_eligible(h.spec) {
            Ok(()) => format!(
                "host {}: its data center GPUs could instead use forward compatibility (the cuda-compat package of CUDA {mm}), which lifts these limits without a new kernel driver",
                h.spec.name
            ),
            Err(why) => format!(
                "host {}: forward compatibility (the cuda-compat package) is no way around these limits: it is for data center GPUs only; {why}",
                h.spec.name
            ),
        });
    }
    if let Some(t) = &toolkit {
        caveats.push(format!(
            "no caveats from driver {} on (the CUDA {mm} toolkit driver)",
            t.driver
        ));
    }
    Some(MinorCompatUse {
        hosts: users.iter().map(|h| h.spec.name.clone()).collect(),
        floor: floor.driver.to_string(),
        toolkit_driver: toolkit.map(|t| t.driver.to_string()),
        caveats,
        kb: floor.kb,
    })
}

/// One CUDA stack for these hosts under one semantic.
pub(super) fn resolve_cuda_under(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    semantic: Semantic,
) -> Result<Stack, NoStack> {
    let names: Vec<String> = hosts.iter().map(|h| h.spec.name.clone()).collect();
    let Some((bound, bound_why, bound_kb)) = fleet_max_cuda(kb, hosts, semantic) else {
        return Err(NoStack::new(
            vec![format!(
                "no CUDA version in the table runs on every one of {}",
                names.join(", ")
            )],
            Limit::Driver {
                build: None,
                driver: None,
            },
        ));
    };
    let mut reasons = Vec::new();
    let mut caveats = Vec::new();
    let bound_text = if bound_why.is_empty() {
        format!("CUDA <= {bound}: the newest the knowledge base knows")
    } else {
        let mut w = bound_why.clone();
        w.dedup();
        format!("CUDA <= {bound} because {}", w.join("; "))
    };
    reasons.push(Reason {
        subject: "cuda".into(),
        text: bound_text,
        kb: bound_kb,
    });
    let mut packages = Vec::new();
    let mut gpus = Vec::new();
    let mut cudnn = None;
    let mut torch_python: Option<String> = None;
    // The Python the stack must support: --python, else the python3 of the --os image.
    let py_filter: Option<String> = req.python.clone().or_else(|| {
        req.os
            .as_deref()
            .and_then(distro_python)
            .map(|(p, _)| p.to_string())
    });
    let mut minor_hosts: Vec<String> = Vec::new();
    let mut chosen_torch = None;
    let cuda = if req.with.torch {
        let (releases, py_skips) =
            releases_desc(kb, req.with.torch_version.as_deref(), py_filter.as_deref());
        if releases.is_empty() {
            let mut e = vec![match &req.with.torch_version {
                Some(v) => format!("no torch release {v} in the knowledge base"),
                None => "no torch release in the knowledge base".into(),
            }];
            e.extend(py_skips);
            return Err(NoStack::new(e, Limit::Request));
        }
        let search = search_torch(kb, hosts, semantic, &releases);
        let Some(choice) = search.choice else {
            let limit = torch_limit(kb, hosts, &releases, &search);
            let mut e = vec![match &limit {
                Limit::GpuMix => "no torch build in the knowledge base has kernels for every GPU at once, whatever the driver".to_string(),
                Limit::GpuUnsupported { gpu } => format!("no torch build in the knowledge base has kernels for {gpu}"),
                _ => "no torch build in the knowledge base runs on every GPU within these drivers".to_string(),
            }];
            for (rel, why) in search.rejected.iter().take(2) {
                for (v, w) in why {
                    e.push(format!("torch {rel} {v}: {w}"));
                }
            }
            return Err(NoStack::new(e, limit));
        };
        let mut text = format!(
            "torch {} {}: the newest release with a build that runs on every GPU within CUDA <= {bound}",
            choice.release.version, choice.variant
        );
        // The closest newer release, and why each of its builds was turned down.
        if let Some((rel, why)) = search.rejected.last() {
            let parts: Vec<String> = why.iter().map(|(v, w)| format!("{v}: {w}")).collect();
            text.push_str(&format!(
                "; the next newer release, torch {rel}, was turned down ({})",
                parts.join("; ")
            ));
        }
        if choice.ptx {
            caveats.push(format!(
                "torch {}+{} has no machine code for some GPUs; they run its PTX through the driver's JIT (slow first start)",
                choice.release.version, choice.variant
            ));
        }
        caveats.extend(choice.caveats.iter().cloned());
        minor_hosts = choice.minor_hosts.clone();
        reasons.push(Reason {
            subject: "torch".into(),
            text,
            kb: vec![choice.release.kb(), choice.arch_kb.clone()],
        });
        packages.extend(torch_packages(&choice, &req.with));
        gpus = choice.fits.clone();
        torch_python = choice.release.python.clone();
        if let Some(v) = choice.release.cudnn.clone() {
            let row = kb.cudnn(&v, choice.cuda.major);
            cudnn = Some(Pin {
                value: Some(v.clone()),
                source: format!(
                    "torch_releases {} cudnn (the wheel's nvidia-cudnn pin)",
                    choice.release.version
                ),
                note: Some(match row {
                    Some(r) => format!("bundled by the torch wheel; {}", r.kb().row),
                    None => "bundled by the torch wheel".into(),
                }),
            });
        }
        let c = choice.cuda;
        chosen_torch = Some(choice);
        c
    } else {
        // Without torch the stack's CUDA is the bound itself.
        for h in hosts {
            if let Ok(CudaFit::MinorCompat(c)) = cuda_ok(kb, h, bound, semantic) {
                minor_hosts.push(h.spec.name.clone());
                caveats.push(c);
            }
        }
        bound
    };
    let minor_compat = minor_compat_use(kb, hosts, cuda, &minor_hosts, chosen_torch.as_ref());
    let major = cuda.major;
    if req.with.tensorrt {
        let (p, r) = pick_tensorrt(kb, hosts, major, bound, semantic);
        packages.push(p);
        reasons.push(r);
    }
    if req.with.onnxruntime {
        let (p, r) = pick_onnxruntime(kb, major, bound, py_filter.as_deref(), semantic);
        // Its Requires-Python may start above torch's range.
        let lo = p
            .version
            .as_deref()
            .and_then(|v| kb.onnxruntime(v))
            .and_then(|row| row.python_min.clone());
        if let (Some(lo), Some(range)) = (lo, torch_python.as_mut()) {
            *range = raise_lower_bound(range, &lo);
        }
        packages.push(p);
        reasons.push(r);
    }
    if req.with.jax {
        let (p, r) = pick_jax(kb, hosts, major);
        packages.extend(p);
        reasons.push(r);
        if req.with.torch {
            caveats.push(format!(
                "torch and JAX in one environment share the nvidia-*-cu{major} wheels; their pins must agree"
            ));
        }
    }
    let img = pick_image(kb, hosts, req, cuda, torch_python.as_deref());
    reasons.push(img.reason);
    caveats.extend(img.caveats);
    if cudnn.is_none() {
        if let Some(i) = &img.pin {
            if let Some(c) = &i.cudnn {
                cudnn = Some(
                    Pin::known(c, format!("cuda_images {}", i.cuda))
                        .with_note("inside the cudnn image"),
                );
            }
        }
    }
    let min_driver = kb
        .min_driver_for_cuda(&cuda, crate::inventory::OsKind::Linux, semantic)
        .map(|m| {
            Pin::known(&m.driver, format!("{} {}", m.kb.table, m.kb.row)).with_note(format!(
                "lowest Linux driver for CUDA {cuda} under {} semantics",
                semantic.as_str()
            ))
        });
    for h in hosts {
        if h.spec.driver.is_none() {
            caveats.push(format!(
                "host {}: driver version unknown; it needs driver >= {} for this stack",
                h.spec.name,
                min_driver.as_ref().map_or("?".into(), |p| p.shown())
            ));
        }
        if h.spec.gpus.is_empty() {
            caveats.push(format!(
                "host {}: no GPU known; the torch arch list was not checked for it (pass --gpu or --cc)",
                h.spec.name
            ));
        }
    }
    let python = match (&req.python, &img.pin) {
        (Some(p), _) => Some(Pin::known(p, "--python")),
        (None, Some(i)) => i
            .python
            .as_ref()
            .map(|p| Pin::known(p, format!("python3 of {}", i.os))),
        (None, None) => torch_python
            .as_deref()
            .and_then(|s| s.split([',', '-']).next())
            .map(|s| {
                Pin::known(
                    s.trim().trim_start_matches(">="),
                    "torch_releases python range",
                )
            }),
    };
    // The image checks its own CUDA at container start; when the wheels'
    // CUDA is newer, check what the wheels need instead.
    let require_override = img.pin.as_ref().and_then(|i| {
        if i.cuda.major_minor() >= cuda.major_minor() {
            return None;
        }
        Some(match semantic {
            Semantic::Toolkit => format!("cuda>={}", cuda.major_minor()),
            Semantic::MinorCompat => {
                let floor = kb.min_driver_for_cuda(
                    &cuda,
                    crate::inventory::OsKind::Linux,
                    Semantic::MinorCompat,
                )?;
                format!("driver>={}", floor.driver)
            }
        })
    });
    if let (Some(r), Some(i)) = (&require_override, &img.pin) {
        let mut text = format!(
            "the wheels carry CUDA {}, newer than the image's: the Dockerfile sets NVIDIA_REQUIRE_CUDA={r} so the container refuses to start where they cannot run",
            cuda.major_minor()
        );
        if minor_compat.is_some() {
            text.push_str(&format!(
                "; the image is CUDA {}.{} because newer images ask for cuda>={} at container start, which nvidia-container-toolkit refuses on these drivers (unless NVIDIA_DISABLE_REQUIRE is set); the torch wheel brings its own CUDA {} runtime, which runs here under minor-version compatibility",
                i.cuda.major,
                i.cuda.minor,
                cuda.major_minor(),
                cuda.major_minor()
            ));
        }
        reasons.push(Reason {
            subject: "image".into(),
            text,
            kb: vec![],
        });
    }
    caveats.sort();
    caveats.dedup();
    Ok(Stack {
        id: 0,
        kind: StackKind::Cuda,
        hosts: names,
        semantic: Some(semantic),
        minor_compat,
        gpu_selection: None,
        cuda: Some(Pin::known(
            cuda.major_minor(),
            if req.with.torch {
                "the torch wheel's CUDA variant"
            } else {
                "the newest CUDA every host runs"
            },
        )),
        max_cuda: Some(Pin::known(bound, "fleet bound (see reasons)")),
        min_driver,
        rocm: None,
        python,
        python_range: torch_python,
        cudnn,
        image: img.pin,
        require_override,
        packages,
        gpus,
        reasons,
        caveats,
    })
}

pub(super) fn resolve_plain(
    kb: &Kb,
    hosts: &[&HostSpec],
    req: &PlanRequest,
    kind: StackKind,
) -> Result<Stack, NoStack> {
    let names: Vec<String> = hosts.iter().map(|h| h.name.clone()).collect();
    let (releases, py_skips) =
        releases_desc(kb, req.with.torch_version.as_deref(), req.python.as_deref());
    let mut reasons = Vec::new();
    let mut caveats = Vec::new();
    let mut packages = Vec::new();
    let mut rocm = None;
    let mut python = req.python.as_ref().map(|p| Pin::known(p, "--python"));
    let (release, variant) = match kind {
        StackKind::Rocm => {
            let r = releases
                .iter()
                .find(|r| r.rocm_variants.as_ref().is_some_and(|v| !v.is_empty()));
            let Some(r) = r else {
                let mut e = vec!["no torch release with a ROCm build fits".to_string()];
                e.extend(py_skips);
                return Err(NoStack::new(e, Limit::Request));
            };
            let mut vs = r.rocm_variants.clone().unwrap_or_default();
            vs.sort_by(|a, b| {
                cmp_versions(b.trim_start_matches("rocm"), a.trim_start_matches("rocm"))
            });
            let v = vs.first().cloned().unwrap_or_default();
            rocm = Some(Pin::known(
                v.trim_start_matches("rocm"),
                format!("torch_releases {}", r.version),
            ));
            let gfx: Vec<String> = hosts
                .iter()
                .flat_map(|h| h.amd_gfx.iter().cloned())
                .collect();
            caveats.push(format!(
                "the GPU targets of torch's ROCm wheels are not in the knowledge base: check that {} {} supported by ROCm {}",
                if gfx.is_empty() { "these GPUs".to_string() } else { gfx.join(", ") },
                if gfx.len() == 1 { "is" } else { "are" },
                v.trim_start_matches("rocm")
            ));
            for h in hosts {
                if let Some(have) = &h.rocm {
                    caveats.push(format!(
                        "host {} has ROCm {have} installed; the wheel brings its own ROCm {} user-space libraries, the amdgpu kernel driver must support them",
                        h.name,
                        v.trim_start_matches("rocm")
                    ));
                }
            }
            reasons.push(Reason {
                subject: "torch".into(),
                text: format!(
                    "AMD GPUs: torch {} {v}, the newest release's newest ROCm build",
                    r.version
                ),
                kb: vec![r.kb()],
            });
            (*r, v)
        }
        StackKind::Cpu | StackKind::Mps => {
            // The CPU wheel is part of every release's build matrix; take the
            // newest release whose matrix the table records.
            let r = match kind {
                StackKind::Cpu => releases.iter().find(|r| r.cuda_variants.is_some()),
                _ => releases.first(),
            };
            let Some(r) = r else {
                let mut e = vec!["no torch release fits".to_string()];
                e.extend(py_skips);
                return Err(NoStack::new(e, Limit::Request));
            };
            let text = if kind == StackKind::Cpu {
                caveats.push("tier 1: no usable local accelerator; this stack runs on the CPU (or use a remote API)".into());
                format!(
                    "no GPU on these hosts: torch {} CPU build, the newest release whose build matrix the table records",
                    r.version
                )
            } else {
                caveats.push(
                    "Apple silicon: torch uses MPS from the PyPI wheel; containers on macOS have no GPU access".into(),
                );
                format!(
                    "Apple silicon: torch {} from PyPI (MPS backend), the newest release",
                    r.version
                )
            };
            reasons.push(Reason {
                subject: "torch".into(),
                text,
                kb: vec![r.kb()],
            });
            (
                *r,
                if kind == StackKind::Cpu {
                    "cpu".to_string()
                } else {
                    String::new()
                },
            )
        }
        StackKind::Cuda => unreachable!("CUDA stacks go through resolve_cuda"),
    };
    if req.with.torch || !req.with.tensorrt && !req.with.onnxruntime && !req.with.jax {
        let (index, local) = if variant.is_empty() {
            (None, String::new())
        } else {
            (Some(torch_index_url(&variant)), format!("+{variant}"))
        };
        packages.push(PackagePin {
            package: "torch".into(),
            version: Some(format!("{}{local}", release.version)),
            requirement: Some(format!("torch=={}{local}", release.version)),
            index_url: index.clone(),
            source: format!("torch_releases {}", release.version),
            note: None,
        });
        for (on, name, ver) in [
            (req.with.torchvision, "torchvision", &release.torchvision),
            (req.with.torchaudio, "torchaudio", &release.torchaudio),
        ] {
            if on {
                packages.push(PackagePin {
                    package: name.into(),
                    version: ver.as_ref().map(|v| format!("{v}{local}")),
                    requirement: ver.as_ref().map(|v| format!("{name}=={v}{local}")),
                    index_url: index.clone(),
                    source: format!("torch_releases {}", release.version),
                    note: ver.is_none().then(|| {
                        format!(
                            "unknown: no {name} release is known to pin torch {}",
                            release.version
                        )
                    }),
                });
            }
        }
    }
    for (on, what) in [
        (req.with.tensorrt, "TensorRT"),
        (req.with.onnxruntime, "onnxruntime-gpu"),
        (req.with.jax, "JAX CUDA plugin"),
    ] {
        if on {
            caveats.push(format!(
                "{what} needs an NVIDIA GPU: not pinned for these hosts"
            ));
        }
    }
    if python.is_none() {
        python = python_for(release).map(|p| {
            Pin::known(
                p,
                format!("torch_releases {} python range", release.version),
            )
        });
    }
    Ok(Stack {
        id: 0,
        kind,
        hosts: names,
        semantic: None,
        minor_compat: None,
        gpu_selection: None,
        cuda: None,
        max_cuda: None,
        min_driver: None,
        rocm,
        python,
        python_range: release.python.clone(),
        cudnn: None,
        image: None,
        require_override: None,
        packages,
        gpus: vec![],
        reasons,
        caveats,
    })
}
