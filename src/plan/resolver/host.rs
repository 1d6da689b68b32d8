//! Per-host facts the search reads: the CUDA each host runs and what bounds it.

use super::*;

pub(super) struct HostCtx<'a> {
    pub(super) spec: &'a HostSpec,
    /// The newest CUDA under toolkit semantics, with its reason (None: driver unknown).
    pub(super) toolkit_max: Option<(CudaVersion, String, Option<KbRef>, bool)>,
    /// CUDA ceilings from GPU architectures (last toolkit), with reasons and the GPU's index.
    pub(super) arch_ceiling: Vec<(CudaVersion, String, KbRef, u32)>,
    pub(super) blockers: Vec<(String, String)>,
    /// What the host runs, as the rules' fixes judge it too.
    pub(super) limits: Limits,
    /// A build that gives one of its GPUs only PTX does not fit (the first
    /// pass: a stack with SASS for every GPU, split if need be, is preferred).
    pub(super) avoid_ptx: bool,
}

pub(super) fn host_ctx<'a>(kb: &Kb, h: &'a HostSpec) -> HostCtx<'a> {
    let mut toolkit_max = None;
    if let Some(d) = &h.driver {
        if let Some(c) = &h.cuda_max {
            toolkit_max = Some((
                c.value.major_minor(),
                format!(
                    "host {} has driver {} which reports CUDA {} ({})",
                    h.name, d.value, c.value, c.source
                ),
                None,
                false,
            ));
        } else if let Some(m) = kb.max_cuda_for_driver(&d.value, h.os_kind) {
            let text = if m.at_least {
                format!(
                    "host {} has driver {}, newer than every toolkit driver in the table (CUDA {} or newer)",
                    h.name, d.value, m.max_cuda
                )
            } else {
                format!(
                    "host {} has driver {} (CUDA {} toolkit ships driver {})",
                    h.name,
                    d.value,
                    m.kb.row,
                    kb.toolkit(&m.kb.row.parse().unwrap_or(m.max_cuda))
                        .and_then(|r| r.driver(h.os_kind).map(|x| x.to_string()))
                        .unwrap_or_else(|| "?".into())
                )
            };
            toolkit_max = Some((m.max_cuda, text, Some(m.kb), m.at_least));
        }
    } else if let Some(c) = &h.cuda_max {
        toolkit_max = Some((
            c.value.major_minor(),
            format!("host {} reports CUDA {} ({})", h.name, c.value, c.source),
            None,
            false,
        ));
    }
    let mut arch_ceiling = Vec::new();
    let mut blockers = Vec::new();
    for g in &h.gpus {
        let Some(cc) = &g.cc else { continue };
        let Some(arch) = kb.architecture(cc.value) else {
            continue;
        };
        if let Some(last) = arch.last_toolkit {
            arch_ceiling.push((
                last.major_minor(),
                format!(
                    "host {} {} is {} ({}), supported through CUDA {}",
                    h.name,
                    g.label(),
                    arch.name,
                    cc.value,
                    last
                ),
                arch.kb(),
                g.index,
            ));
        }
        if let Some(d) = &h.driver {
            let min = match h.os_kind {
                crate::inventory::OsKind::Windows => arch.min_windows_driver.as_ref(),
                _ => arch.min_linux_driver.as_ref(),
            };
            if let Some(min) = min {
                if !driver_meets(&d.value, min) {
                    blockers.push((
                        format!(
                            "{} ({} {}) needs driver {} or newer; host {} has {}",
                            g.label(),
                            arch.name,
                            cc.value,
                            min,
                            h.name,
                            d.value
                        ),
                        format!("install an NVIDIA driver >= {min} on {}", h.name),
                    ));
                }
            }
            if let Some(last) = &arch.last_driver_branch {
                if d.value.branch() > last.branch() {
                    blockers.push((
                        format!(
                            "{} ({} {}) is not driven by drivers after {}; host {} has {}",
                            g.label(),
                            arch.name,
                            cc.value,
                            last.branch_name(),
                            h.name,
                            d.value
                        ),
                        format!("install a {} driver on {}", last.branch_name(), h.name),
                    ));
                }
            }
        }
    }
    let ccs: Vec<ComputeCapability> = h
        .gpus
        .iter()
        .filter_map(|g| g.cc.as_ref().map(|c| c.value))
        .collect();
    let mut limits = Limits::new(kb, h.driver.as_ref().map(|d| &d.value), h.os_kind, &ccs);
    if let Some(c) = &h.cuda_max {
        limits = limits.with_reported_cuda_max(kb, c.value);
    }
    HostCtx {
        limits,
        spec: h,
        toolkit_max,
        arch_ceiling,
        blockers,
        avoid_ptx: false,
    }
}

/// How a host runs a CUDA version that it runs at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CudaFit {
    /// With no caveats: the driver is at least the CUDA's toolkit driver.
    Toolkit,
    /// Only through CUDA minor-version compatibility; the caveat says so.
    MinorCompat(String),
    /// Not checked (driver unknown); the caveat says so.
    Unverified(String),
}

impl CudaFit {
    pub(super) fn caveat(&self) -> Option<&str> {
        match self {
            CudaFit::Toolkit => None,
            CudaFit::MinorCompat(c) | CudaFit::Unverified(c) => Some(c),
        }
    }
}

/// The newest CUDA a host's GPUs are still targeted by, if `v` is past it.
pub(super) fn arch_ceiling_misfit(h: &HostCtx<'_>, v: CudaVersion) -> Option<Misfit> {
    let v = v.major_minor();
    h.arch_ceiling
        .iter()
        .find(|(last, _, _, _)| v > *last)
        .map(|(last, why, _, gpu)| Misfit::ArchLastToolkit {
            gpu: *gpu,
            text: format!("CUDA {v} > {last}: {why}"),
        })
}

/// Can host `h` run CUDA `v`? How it does, or why not.
pub(super) fn cuda_ok(
    kb: &Kb,
    h: &HostCtx<'_>,
    v: CudaVersion,
    semantic: Semantic,
) -> Result<CudaFit, Misfit> {
    let v = v.major_minor();
    if let Some(m) = arch_ceiling_misfit(h, v) {
        return Err(m);
    }
    let Some(d) = &h.spec.driver else {
        return match &h.toolkit_max {
            Some((max, why, _, _)) if v > *max => Err(Misfit::Driver {
                text: format!("CUDA {v} > {max}: {why}"),
            }),
            Some(_) => Ok(CudaFit::Toolkit),
            None => Ok(CudaFit::Unverified(format!(
                "host {}: driver version unknown, CUDA {v} not checked against it",
                h.spec.name
            ))),
        };
    };
    match semantic {
        Semantic::Toolkit => match &h.toolkit_max {
            Some((max, why, _, _)) => {
                if h.limits.runs(kb, &v) == Runs::Toolkit {
                    Ok(CudaFit::Toolkit)
                } else {
                    Err(Misfit::Driver {
                        text: format!("CUDA {v} > {max}: {why}"),
                    })
                }
            }
            None => Err(Misfit::Driver {
                text: format!(
                    "host {}: no toolkit in the table runs on driver {}",
                    h.spec.name, d.value
                ),
            }),
        },
        Semantic::MinorCompat => {
            let Some(min) = kb.min_driver_for_cuda(&v, h.spec.os_kind, Semantic::MinorCompat)
            else {
                return Err(Misfit::Unknown {
                    text: format!("no driver floor known for CUDA {v}"),
                });
            };
            match h.limits.runs(kb, &v) {
                Runs::Toolkit | Runs::Unknown => Ok(CudaFit::Toolkit),
                Runs::MinorCompat => Ok(CudaFit::MinorCompat(format!(
                    "host {} runs CUDA {v} through minor-version compatibility (driver {} is older than the {v} toolkit driver): no JIT of newer PTX, some APIs return cudaErrorCallRequiresNewerDriver",
                    h.spec.name, d.value
                ))),
                Runs::No => Err(Misfit::Driver {
                    text: format!(
                        "CUDA {v} needs driver >= {} (minor-version compatibility, {}); host {} has {}",
                        min.driver, min.kb.row, h.spec.name, d.value
                    ),
                }),
            }
        }
    }
}

/// The newest CUDA every host runs, with the reasons that bound it.
pub(super) fn fleet_max_cuda(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    semantic: Semantic,
) -> Option<(CudaVersion, Vec<String>, Vec<KbRef>)> {
    let ascending = kb.cuda_versions();
    let newest = *ascending.last()?;
    for &v in ascending.iter().rev() {
        if hosts.iter().all(|h| cuda_ok(kb, h, v, semantic).is_ok()) {
            // What stopped the next newer version: the bounding facts.
            let mut why = Vec::new();
            let mut refs = Vec::new();
            if v < newest {
                let next = ascending.iter().copied().find(|c| *c > v);
                if let Some(next) = next {
                    for h in hosts {
                        if let Err(e) = cuda_ok(kb, h, next, semantic) {
                            let e = e.text();
                            why.push(
                                e.split_once(": ")
                                    .map_or(e.to_string(), |(_, r)| r.to_string()),
                            );
                            if let Some((_, _, Some(r), _)) = &h.toolkit_max {
                                refs.push(r.clone());
                            }
                            for (_, _, r, _) in &h.arch_ceiling {
                                refs.push(r.clone());
                            }
                        }
                    }
                }
            }
            return Some((v, why, refs));
        }
    }
    None
}
