//! The torch build: releases, their CUDA variants, and the fit of each on every host.

use super::*;

/// `3.9-3.13` with a floor of `3.10` → `3.10-3.13`; `>=3.9` → `>=3.10`.
pub(super) fn raise_lower_bound(range: &str, lo: &str) -> String {
    let first = range.split(',').next().unwrap_or(range).trim();
    if let Some(cur) = first.strip_prefix(">=") {
        if series(cur) < series(lo) {
            return format!(">={lo}");
        }
    } else if let Some((cur, hi)) = first.split_once('-') {
        if series(cur) < series(lo) {
            return format!("{lo}-{}", hi.trim());
        }
    }
    range.to_string()
}

/// A Python version to suggest for a release (for images that are not CUDA images).
pub(super) fn python_for(release: &TorchReleaseRow) -> Option<String> {
    let spec = release.python.as_deref()?;
    // The newest CPython of the range (`2.7, 3.5-3.7` → 3.7); free-threaded builds aside.
    spec.split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty() && !i.ends_with('t'))
        .filter_map(|i| match i.strip_prefix(">=") {
            Some(lo) => Some(lo.trim()),
            None => i.split_once('-').map_or(Some(i), |(_, hi)| Some(hi.trim())),
        })
        .max_by(|a, b| series(a).cmp(&series(b)))
        .map(str::to_string)
}

pub(super) fn releases_desc<'a>(
    kb: &'a Kb,
    want: Option<&str>,
    python: Option<&str>,
) -> (Vec<&'a TorchReleaseRow>, Vec<String>) {
    let mut skipped = Vec::new();
    let mut rows: Vec<&TorchReleaseRow> = kb
        .torch_releases
        .row
        .iter()
        .filter(|r| match want {
            None => true,
            Some(w) => r.version == w || r.version.starts_with(&format!("{w}.")),
        })
        .filter(|r| match python {
            None => true,
            Some(py) => match r.python.as_deref().and_then(|s| python_in(s, py)) {
                Some(true) => true,
                Some(false) => {
                    skipped.push(format!(
                        "torch {} supports Python {}, not {py}",
                        r.version,
                        r.python.as_deref().unwrap_or("?")
                    ));
                    false
                }
                None => {
                    skipped.push(format!(
                        "torch {}: supported Python versions unknown",
                        r.version
                    ));
                    false
                }
            },
        })
        .collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    (rows, skipped)
}

pub(super) struct TorchChoice<'a> {
    pub(super) release: &'a TorchReleaseRow,
    pub(super) variant: String,
    pub(super) cuda: CudaVersion,
    pub(super) from_pypi_default: bool,
    pub(super) fits: Vec<GpuFit>,
    pub(super) ptx: bool,
    pub(super) arch_kb: KbRef,
    pub(super) caveats: Vec<String>,
    /// The hosts that run its CUDA only through minor-version compatibility.
    pub(super) minor_hosts: Vec<String>,
}

/// What a build's arch list gives every GPU of the hosts, ignoring drivers.
pub(super) struct KernelFit {
    pub(super) fits: Vec<GpuFit>,
    /// Some GPU runs the build only through its PTX.
    pub(super) ptx: bool,
    /// The GPUs (host, index) that run it only through PTX.
    pub(super) ptx_gpus: Vec<(String, u32)>,
    pub(super) arch_kb: KbRef,
    pub(super) caveats: Vec<String>,
}

/// Does the build have a kernel (SASS, else PTX) for every GPU? A GPU with no
/// compute capability known is let through, said to be unchecked.
pub(super) fn kernel_fit(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    release: &TorchReleaseRow,
    variant: &str,
) -> Result<KernelFit, Misfit> {
    let arch_row = kb
        .torch_arch(&release.version, variant)
        .ok_or_else(|| Misfit::Unknown {
            text: format!("no arch list known for torch {} {variant}", release.version),
        })?;
    let list = arch_row
        .arch_list
        .as_deref()
        .ok_or_else(|| Misfit::Unknown {
            text: format!(
                "the arch list of torch {} {variant} is unknown (not assumed to fit)",
                release.version
            ),
        })?;
    let mut fits = Vec::new();
    let mut ptx_gpus = Vec::new();
    let mut caveats = Vec::new();
    for h in hosts {
        for g in &h.spec.gpus {
            let Some(cc) = &g.cc else {
                fits.push(GpuFit {
                    host: h.spec.name.clone(),
                    gpu: g.label(),
                    compute_capability: None,
                    kernel: "unverified".into(),
                    target: None,
                    reason: "compute capability unknown: arch fit not checked (pass --cc)".into(),
                });
                caveats.push(format!(
                    "host {} {}: compute capability unknown, the wheel's arch list was not checked against it",
                    h.spec.name,
                    g.label()
                ));
                continue;
            };
            let m = kb.kernels_for_gpu(list, cc.value);
            let (kernel, target) = match &m {
                KernelMatch::Sass { target, .. } => ("sass", Some(target.to_string())),
                KernelMatch::Ptx { target, .. } if h.avoid_ptx => {
                    let reason = format!(
                        "only PTX ({target}) for it: a build with SASS is preferred to JIT-compiling every kernel"
                    );
                    return Err(Misfit::NoKernel {
                        gpu: g.index,
                        text: format!(
                            "host {} {} ({}): {reason}",
                            h.spec.name,
                            g.label(),
                            cc.value
                        ),
                        reason,
                    });
                }
                KernelMatch::Ptx { target, .. } => {
                    ptx_gpus.push((h.spec.name.clone(), g.index));
                    ("ptx", Some(target.to_string()))
                }
                KernelMatch::None { reason } => {
                    return Err(Misfit::NoKernel {
                        gpu: g.index,
                        reason: reason.to_string(),
                        text: format!(
                            "host {} {} ({}): {reason}",
                            h.spec.name,
                            g.label(),
                            cc.value
                        ),
                    })
                }
            };
            let reason = match arch_row.arch_provenance() {
                Some(p) => format!(
                    "{} (the arch list is from {p}, not read from the wheel)",
                    m.reason()
                ),
                None => m.reason().to_string(),
            };
            fits.push(GpuFit {
                host: h.spec.name.clone(),
                gpu: g.label(),
                compute_capability: Some(cc.value.to_string()),
                kernel: kernel.into(),
                target,
                reason,
            });
        }
    }
    Ok(KernelFit {
        fits,
        ptx: !ptx_gpus.is_empty(),
        ptx_gpus,
        arch_kb: arch_row.kb(),
        caveats,
    })
}

/// Could the build run on every GPU with some driver: the GPUs' last
/// toolkits and the arch list, nothing about the drivers.
pub(super) fn covers_gpus(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    release: &TorchReleaseRow,
    variant: &str,
) -> Result<(), Misfit> {
    let cuda: CudaVersion = variant.parse().map_err(|_| Misfit::Unknown {
        text: format!("{variant}: not a CUDA variant"),
    })?;
    for h in hosts {
        if let Some(m) = arch_ceiling_misfit(h, cuda) {
            return Err(m);
        }
    }
    kernel_fit(kb, hosts, release, variant).map(|_| ())
}

/// Try one (release, CUDA variant) on every host; Err: why not.
pub(super) fn try_torch<'a>(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    release: &'a TorchReleaseRow,
    variant: &str,
    from_pypi_default: bool,
    semantic: Semantic,
) -> Result<TorchChoice<'a>, Misfit> {
    let cuda: CudaVersion = variant.parse().map_err(|_| Misfit::Unknown {
        text: format!("{variant}: not a CUDA variant"),
    })?;
    let mut caveats = Vec::new();
    let mut minor_hosts = Vec::new();
    for h in hosts {
        let fit = cuda_ok(kb, h, cuda, semantic)?;
        if let CudaFit::MinorCompat(_) = &fit {
            minor_hosts.push(h.spec.name.clone());
        }
        caveats.extend(fit.caveat().map(str::to_string));
    }
    let k = kernel_fit(kb, hosts, release, variant)?;
    // Under minor-version compatibility the driver cannot JIT-compile PTX
    // newer than itself: a GPU that has only PTX in the build runs nothing.
    if let Some((host, gpu)) = k.ptx_gpus.iter().find(|(h, _)| minor_hosts.contains(h)) {
        let label = hosts
            .iter()
            .flat_map(|h| h.spec.gpus.iter().map(move |g| (h, g)))
            .find(|(h, g)| h.spec.name == *host && g.index == *gpu)
            .map_or_else(|| format!("GPU {gpu}"), |(_, g)| g.label());
        return Err(Misfit::PtxNeedsNewerDriver {
            gpu: *gpu,
            text: format!(
                "host {host} {label} has only PTX in torch {} {variant}, and its driver runs CUDA {} only through minor-version compatibility, which cannot JIT-compile PTX built by a newer CUDA",
                release.version,
                cuda.major_minor()
            ),
        });
    }
    caveats.extend(k.caveats);
    Ok(TorchChoice {
        release,
        variant: variant.to_string(),
        cuda,
        from_pypi_default,
        fits: k.fits,
        ptx: k.ptx,
        arch_kb: k.arch_kb,
        caveats,
        minor_hosts,
    })
}

/// The CUDA variants of a release, newest CUDA first; the PyPI default is
/// added when the variant list is unknown.
pub(super) fn cuda_variants(release: &TorchReleaseRow) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = release
        .cuda_variants
        .iter()
        .flatten()
        .map(|s| (s.clone(), false))
        .collect();
    if let Some(d) = &release.default_variant {
        if d.starts_with("cu") && !v.iter().any(|(x, _)| x == d) {
            v.push((d.clone(), true));
        }
    }
    v.sort_by_key(|(s, _)| std::cmp::Reverse(s.parse::<CudaVersion>().ok()));
    v
}

pub(super) struct TorchSearch<'a> {
    pub(super) choice: Option<TorchChoice<'a>>,
    /// Newer releases and why each variant was turned down (for the explanation).
    pub(super) rejected: Vec<(String, Vec<(String, Misfit)>)>,
}

pub(super) fn search_torch<'a>(
    kb: &'a Kb,
    hosts: &[&HostCtx<'_>],
    semantic: Semantic,
    releases: &[&'a TorchReleaseRow],
) -> TorchSearch<'a> {
    let mut rejected = Vec::new();
    for release in releases {
        let mut fits = Vec::new();
        let mut why = Vec::new();
        for (variant, dflt) in cuda_variants(release) {
            match try_torch(kb, hosts, release, &variant, dflt, semantic) {
                Ok(c) => fits.push(c),
                Err(e) => why.push((variant, e)),
            }
        }
        if !fits.is_empty() {
            // SASS for every GPU first, then the newest CUDA.
            fits.sort_by_key(|c| (c.ptx, std::cmp::Reverse(c.cuda)));
            return TorchSearch {
                choice: fits.into_iter().next(),
                rejected,
            };
        }
        rejected.push((release.version.clone(), why));
    }
    TorchSearch {
        choice: None,
        rejected,
    }
}

pub(super) fn torch_packages(c: &TorchChoice<'_>, with: &Components) -> Vec<PackagePin> {
    let r = c.release;
    let (index, local) = if c.from_pypi_default {
        (None, String::new())
    } else {
        (Some(torch_index_url(&c.variant)), format!("+{}", c.variant))
    };
    let mut out = vec![PackagePin {
        package: "torch".into(),
        version: Some(format!("{}{local}", r.version)),
        requirement: Some(format!("torch=={}{local}", r.version)),
        index_url: index.clone(),
        source: format!("torch_releases {}; {}", r.version, c.arch_kb.table.clone() + " " + &c.arch_kb.row),
        note: c.from_pypi_default.then(|| {
            format!(
                "the PyPI wheel of {} is the {} build; the knowledge base does not list the other variants",
                r.version, c.variant
            )
        }),
    }];
    for (on, name, ver) in [
        (with.torchvision, "torchvision", &r.torchvision),
        (with.torchaudio, "torchaudio", &r.torchaudio),
    ] {
        if !on {
            continue;
        }
        out.push(match ver {
            Some(v) => PackagePin {
                package: name.into(),
                version: Some(format!("{v}{local}")),
                requirement: Some(format!("{name}=={v}{local}")),
                index_url: index.clone(),
                source: format!(
                    "torch_releases {} ({name} pins torch=={})",
                    r.version, r.version
                ),
                note: None,
            },
            None => PackagePin {
                package: name.into(),
                version: None,
                requirement: None,
                index_url: index.clone(),
                source: format!("torch_releases {}", r.version),
                note: Some(format!(
                    "unknown: no {name} release is known to pin torch {}{}",
                    r.version,
                    r.note
                        .as_deref()
                        .filter(|n| n.contains(name))
                        .map(|_| " (see the table note)")
                        .unwrap_or("")
                )),
            },
        });
    }
    out
}
