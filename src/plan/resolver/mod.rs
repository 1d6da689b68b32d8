//! `gpucompat pin`: the newest stack that runs on every given host.
//!
//! Each choice is bounded by a fact and says which: the CUDA runtime by the
//! lowest driver (`max_cuda_for_driver`, or the minor-version-compatibility
//! floor under `--semantic minor-compat`) and by the GPUs' last toolkit; the
//! torch build by its arch list against every GPU (SASS preferred, PTX-only
//! said, unknown lists never assumed to fit); TensorRT, ONNX Runtime, JAX and
//! cuDNN by the CUDA major; the `nvidia/cuda` image by its
//! `NVIDIA_REQUIRE_CUDA` evaluated on every host. When no single stack fits,
//! the hosts are split into groups that each get one.

use serde::Serialize;

use crate::finding::KbRef;
use crate::inventory::{Fact, SCHEMA_VERSION};
use crate::kb::tables::{CudaImageRow, TorchReleaseRow};
use crate::kb::{cmp_versions, driver_meets, python_in, series, Kb, KernelMatch, Semantic};
use crate::plan::fit::{Limits, Runs};
use crate::plan::hosts::{forward_compat_eligible, HostKind, HostSpec};
use crate::plan::image::{availability, distro_python, flavor_name, Availability};
use crate::plan::require::{evaluate_set, requirements_from_env, ClauseKind};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

/// The PyTorch wheel index for a variant (`cu124`, `rocm6.2`, `cpu`), as the
/// pytorch.org install selector writes it.
pub fn torch_index_url(variant: &str) -> String {
    format!("https://download.pytorch.org/whl/{variant}")
}

/// Which packages to pin (`--with`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Components {
    pub torch: bool,
    /// `torch==2.5.1` or `torch==2.5`: a release or a release series.
    pub torch_version: Option<String>,
    pub torchvision: bool,
    pub torchaudio: bool,
    pub tensorrt: bool,
    pub onnxruntime: bool,
    pub jax: bool,
}

impl Components {
    /// Parse `torch[==X],torchvision,torchaudio,tensorrt,onnxruntime-gpu,jax`.
    pub fn parse(list: &str) -> Result<Components, String> {
        let mut c = Components::default();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, ver) = match item.split_once("==") {
                Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
                None => (item, None),
            };
            match name.to_ascii_lowercase().replace('_', "-").as_str() {
                "torch" | "pytorch" => {
                    c.torch = true;
                    if let Some(v) = &ver {
                        if series(v).is_none() {
                            return Err(format!("torch=={v}: expected a release such as 2.5.1 or 2.5"));
                        }
                        c.torch_version = Some(v.split('+').next().unwrap_or(v).to_string());
                    }
                }
                "torchvision" => c.torchvision = true,
                "torchaudio" => c.torchaudio = true,
                "tensorrt" => c.tensorrt = true,
                "onnxruntime-gpu" | "onnxruntime" | "ort" => c.onnxruntime = true,
                "jax" => c.jax = true,
                other => {
                    return Err(format!(
                        "--with {other}: expected torch[==X], torchvision, torchaudio, tensorrt, onnxruntime-gpu, jax"
                    ))
                }
            }
            if ver.is_some()
                && !name.eq_ignore_ascii_case("torch")
                && !name.eq_ignore_ascii_case("pytorch")
            {
                return Err(format!("--with {item}: only torch takes a version"));
            }
        }
        if c.torchvision || c.torchaudio {
            c.torch = true;
        }
        Ok(c)
    }

    fn names(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.torch {
            v.push(match &self.torch_version {
                Some(x) => format!("torch=={x}"),
                None => "torch".into(),
            });
        }
        for (on, n) in [
            (self.torchvision, "torchvision"),
            (self.torchaudio, "torchaudio"),
            (self.tensorrt, "tensorrt"),
            (self.onnxruntime, "onnxruntime-gpu"),
            (self.jax, "jax"),
        ] {
            if on {
                v.push(n.into());
            }
        }
        v
    }
}

/// Everything `pin` was asked.
#[derive(Debug, Clone)]
pub struct PlanRequest {
    pub hosts: Vec<HostSpec>,
    /// The semantic [`resolve`] solves under; [`resolve_with`] takes a
    /// [`SemanticMode`] instead (`auto` among them).
    pub semantic: Semantic,
    /// `--os ubuntu22.04`: the container OS.
    pub os: Option<String>,
    /// `--python 3.11`.
    pub python: Option<String>,
    pub with: Components,
    /// A `devel` image (nvcc, headers) instead of `runtime`.
    pub devel: bool,
    /// A cuDNN image flavor.
    pub cudnn_image: bool,
}

/// Which compatibility semantic `pin` solves under (`--semantic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SemanticMode {
    /// Both, per stack: the newer stack wins, the toolkit semantic on a tie.
    Auto,
    /// Every host's driver runs the stack's CUDA with no caveats.
    Toolkit,
    /// CUDA minor-version compatibility: older drivers of the same major, with caveats.
    MinorCompat,
}

impl SemanticMode {
    pub fn as_str(&self) -> &'static str {
        match self {
            SemanticMode::Auto => "auto",
            SemanticMode::Toolkit => "toolkit",
            SemanticMode::MinorCompat => "minor_compat",
        }
    }
}

impl From<Semantic> for SemanticMode {
    fn from(s: Semantic) -> SemanticMode {
        match s {
            Semantic::Toolkit => SemanticMode::Toolkit,
            Semantic::MinorCompat => SemanticMode::MinorCompat,
        }
    }
}

mod base_image;
mod gpu_split;
mod host;
mod libraries;
mod misfit;
mod output;
mod stacks;
mod torch;

use base_image::*;
use gpu_split::*;
use host::*;
use libraries::*;
use misfit::*;
pub use output::*;
use stacks::*;
use torch::*;

/// How to solve beyond what the request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolveOptions {
    /// The compatibility semantic (`auto`: per stack, the one giving the newer stack).
    pub semantic: SemanticMode,
    /// A host whose GPUs no single torch build covers gets a stack per GPU
    /// group (selected with `CUDA_VISIBLE_DEVICES`). Off, such a host is
    /// unplaced with the reason: what callers need that want one environment
    /// for all of a host's GPUs.
    pub split_gpus: bool,
}

/// Solve the plan under `req.semantic`, one stack for all of each host's GPUs.
pub fn resolve(kb: &Kb, req: &PlanRequest) -> Plan {
    resolve_with(
        kb,
        req,
        ResolveOptions {
            semantic: req.semantic.into(),
            split_gpus: false,
        },
    )
}

fn max_cuda_pin(kb: &Kb, c: &HostCtx<'_>, semantic: Semantic) -> Option<Pin> {
    fleet_max_cuda(kb, &[c], semantic).map(|(v, why, _)| {
        Pin::known(
            v,
            if why.is_empty() {
                "newest in the table".to_string()
            } else {
                why.join("; ")
            },
        )
    })
}

/// Solve the plan with these options (`pin`: `auto`, GPU groups split).
///
/// Stacks whose builds carry SASS for every GPU come first, split across
/// hosts or GPU groups if need be; a build that reaches some GPU only
/// through PTX (an old wheel's `compute_37`, JIT-compiled at every start on
/// a new GPU) is used only where it places hosts that nothing else does.
pub fn resolve_with(kb: &Kb, req: &PlanRequest, opts: ResolveOptions) -> Plan {
    let mut native = resolve_pass(kb, req, opts, true);
    if native.unplaced.is_empty() {
        return native;
    }
    let any = resolve_pass(kb, req, opts, false);
    if any.unplaced.len() < native.unplaced.len() {
        return any;
    }
    // The same hosts are left out either way: PTX was not what kept them
    // out, so their reasons are the ones found with PTX allowed.
    let hosts = |p: &Plan| {
        p.unplaced
            .iter()
            .map(|u| u.host.clone())
            .collect::<Vec<_>>()
    };
    if hosts(&any) == hosts(&native) {
        native.unplaced = any.unplaced;
    }
    native
}

fn resolve_pass(kb: &Kb, req: &PlanRequest, opts: ResolveOptions, avoid_ptx: bool) -> Plan {
    let mode = opts.semantic;
    // Two cards from machines of the same name still need telling apart.
    let mut hosts: Vec<HostSpec> = Vec::with_capacity(req.hosts.len());
    for h in &req.hosts {
        let mut h = h.clone();
        let base = h.name.clone();
        let mut k = 2;
        while hosts.iter().any(|o| o.name == h.name) {
            h.name = format!("{base}-{k}");
            k += 1;
        }
        hosts.push(h);
    }
    let ctxs: Vec<HostCtx<'_>> = hosts
        .iter()
        .map(|h| HostCtx {
            avoid_ptx,
            ..host_ctx(kb, h)
        })
        .collect();
    let mut plan = Plan {
        schema_version: SCHEMA_VERSION,
        semantic: mode,
        with: req.with.names(),
        os: req.os.clone(),
        python: req.python.clone(),
        hosts: Vec::new(),
        stacks: Vec::new(),
        unplaced: Vec::new(),
        split: Vec::new(),
        gpu_split: Vec::new(),
        notes: Vec::new(),
    };
    for c in &ctxs {
        let h = c.spec;
        let nvidia = h.kind == HostKind::Nvidia;
        let (max, max_minor) = match mode {
            SemanticMode::Toolkit => (max_cuda_pin(kb, c, Semantic::Toolkit), None),
            SemanticMode::MinorCompat => (max_cuda_pin(kb, c, Semantic::MinorCompat), None),
            SemanticMode::Auto => {
                let t = max_cuda_pin(kb, c, Semantic::Toolkit);
                let m = max_cuda_pin(kb, c, Semantic::MinorCompat);
                let m = m.filter(|m| t.as_ref().map(|t| &t.value) != Some(&m.value));
                (t, m)
            }
        };
        plan.hosts.push(HostSummary {
            name: h.name.clone(),
            origin: h.origin.clone(),
            kind: h.kind,
            os: h.os_name.clone(),
            kernel: h.kernel.clone(),
            driver: h.driver.clone(),
            max_cuda: max.filter(|_| nvidia),
            max_cuda_minor_compat: max_minor.filter(|_| nvidia),
            gpus: h
                .gpus
                .iter()
                .map(|g| GpuSummary {
                    name: g.name.clone(),
                    compute_capability: g.cc.clone(),
                    architecture: g
                        .cc
                        .as_ref()
                        .and_then(|c| kb.architecture(c.value))
                        .map(|a| a.name.clone()),
                })
                .collect(),
            notes: h.notes.clone(),
        });
    }
    let mut nvidia: Vec<&HostCtx<'_>> = Vec::new();
    for c in &ctxs {
        if c.spec.kind != HostKind::Nvidia {
            continue;
        }
        if c.blockers.is_empty() {
            nvidia.push(c);
        } else {
            plan.unplaced.push(Unplaced {
                host: c.spec.name.clone(),
                problems: c.blockers.iter().map(|(p, _)| p.clone()).collect(),
                fixes: c.blockers.iter().map(|(_, f)| f.clone()).collect(),
            });
        }
    }
    let mut stacks = Vec::new();
    if !nvidia.is_empty() {
        match resolve_cuda(kb, &nvidia, req, mode) {
            Ok(s) => stacks.push(s),
            Err(why_all) => {
                let groups = split_groups(kb, &nvidia, req, mode);
                if nvidia.len() > 1 {
                    plan.split.push(format!(
                        "no single stack runs on all of {}: {}",
                        nvidia
                            .iter()
                            .map(|h| h.spec.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        why_all.problems.first().cloned().unwrap_or_default()
                    ));
                    plan.split.extend(explain_split(kb, &nvidia, req, mode));
                }
                for g in groups {
                    let members: Vec<&HostCtx<'_>> = g.iter().map(|&i| nvidia[i]).collect();
                    match resolve_cuda(kb, &members, req, mode) {
                        Ok(s) => stacks.push(s),
                        Err(why) => {
                            // One host whose GPUs need different builds: a stack per GPU group.
                            if let (true, [one]) = (opts.split_gpus, members.as_slice()) {
                                if let Some(split) =
                                    split_gpus(kb, one, req, mode, &why, stacks.len() + 1)
                                {
                                    stacks.extend(split.stacks);
                                    plan.gpu_split.push(split.summary);
                                    continue;
                                }
                            }
                            for m in members {
                                plan.unplaced.push(Unplaced {
                                    host: m.spec.name.clone(),
                                    problems: why.problems.clone(),
                                    fixes: why.fixes(mode),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    for (kind, stack_kind) in [
        (HostKind::Amd, StackKind::Rocm),
        (HostKind::Cpu, StackKind::Cpu),
        (HostKind::Apple, StackKind::Mps),
    ] {
        let group: Vec<&HostSpec> = hosts.iter().filter(|h| h.kind == kind).collect();
        if group.is_empty() {
            continue;
        }
        match resolve_plain(kb, &group, req, stack_kind) {
            Ok(s) => stacks.push(s),
            Err(why) => {
                for h in group {
                    plan.unplaced.push(Unplaced {
                        host: h.name.clone(),
                        problems: why.problems.clone(),
                        fixes: vec!["relax the request (--with, --python)".into()],
                    });
                }
            }
        }
    }
    let kinds: Vec<HostKind> = {
        let mut k: Vec<HostKind> = hosts.iter().map(|h| h.kind).collect();
        k.sort_by_key(|k| *k as u8);
        k.dedup();
        k
    };
    if kinds.len() > 1 {
        plan.notes.push(
            "the hosts mix accelerator vendors (or have none): each kind gets its own stack".into(),
        );
    }
    for (i, s) in stacks.iter_mut().enumerate() {
        s.id = i + 1;
    }
    plan.stacks = stacks;
    plan
}

/// Group hosts greedily, in the order given: each host joins the first group
/// it still shares a stack with.
fn split_groups(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    mode: SemanticMode,
) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..hosts.len() {
        let mut placed = false;
        for g in groups.iter_mut() {
            let mut trial: Vec<&HostCtx<'_>> = g.iter().map(|&j| hosts[j]).collect();
            trial.push(hosts[i]);
            if resolve_cuda(kb, &trial, req, mode).is_ok() {
                g.push(i);
                placed = true;
                break;
            }
        }
        if !placed {
            groups.push(vec![i]);
        }
    }
    groups
}

/// The torch build of a stack as (release row, variant), when it has one from an index.
fn stack_build<'a>(kb: &'a Kb, s: &Stack) -> Option<(&'a TorchReleaseRow, String)> {
    let v = s.torch()?.version.as_deref()?;
    let (rel, variant) = v.split_once('+')?;
    Some((kb.torch_release(rel)?, variant.to_string()))
}

/// For each host: the best stack it gets alone, and the first other host that rules it out.
fn explain_split(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    mode: SemanticMode,
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, h) in hosts.iter().enumerate() {
        let Ok(alone) = resolve_cuda(kb, &[h], req, mode) else {
            continue;
        };
        let what = alone
            .torch()
            .and_then(|t| t.version.clone())
            .map(|v| format!("torch {v}"))
            .unwrap_or_else(|| {
                format!(
                    "CUDA {}",
                    alone.cuda.as_ref().map_or("?".into(), |c| c.shown())
                )
            });
        let bound = alone.max_cuda.as_ref().map_or("?".into(), |c| c.shown());
        let mut line = format!("host {} alone: {what} (CUDA <= {bound})", h.spec.name);
        let semantic = alone.semantic.unwrap_or(Semantic::Toolkit);
        for (j, other) in hosts.iter().enumerate() {
            if i == j {
                continue;
            }
            if resolve_cuda(kb, &[h, other], req, mode).is_err() {
                // Say why the other host cannot take this host's build.
                let misfit = stack_build(kb, &alone).and_then(|(row, variant)| {
                    try_torch(kb, &[other], row, &variant, false, semantic).err()
                });
                let why = misfit
                    .as_ref()
                    .map_or_else(|| "no common stack".to_string(), |m| m.to_string());
                line.push_str(&format!(
                    "; that build does not run on host {}: {why}",
                    other.spec.name
                ));
                if misfit.as_ref().is_some_and(Misfit::cuda_bound) {
                    if let Some(arch) = alone
                        .torch()
                        .and_then(|t| t.version.as_deref())
                        .and_then(|v| arch_misfit(kb, other, v))
                    {
                        line.push_str(&format!("; a newer driver there would not help: {arch}"));
                    }
                }
                break;
            }
        }
        out.push(line);
    }
    out
}

/// Why a torch build (`2.10.0+cu128`) has no kernel for some GPU of a host, ignoring the driver.
fn arch_misfit(kb: &Kb, h: &HostCtx<'_>, version: &str) -> Option<String> {
    let (rel, variant) = version.split_once('+')?;
    let list = kb.torch_arch(rel, variant)?.arch_list.as_deref()?;
    for g in &h.spec.gpus {
        let cc = g.cc.as_ref()?.value;
        if let KernelMatch::None { reason } = kb.kernels_for_gpu(list, cc) {
            return Some(format!(
                "{} ({cc}) has no kernel in torch {version}: {reason}",
                g.label()
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_ranges() {
        assert_eq!(python_in("3.9-3.12", "3.12"), Some(true));
        assert_eq!(python_in("3.9-3.12", "3.13"), Some(false));
        assert_eq!(python_in("3.9-3.13, 3.13t", "3.13t"), Some(true));
        assert_eq!(python_in(">=3.10", "3.14"), Some(true));
        assert_eq!(python_in(">=3.10", "3.9"), Some(false));
        // The early releases also shipped Python 2.7 wheels.
        assert_eq!(python_in("2.7, 3.5-3.7", "3.6.15"), Some(true));
        assert_eq!(python_in("2.7, 3.5-3.7", "2.7"), Some(true));
        assert_eq!(python_in("2.7, 3.5-3.7", "3.11"), Some(false));
        let row = |py: &str| TorchReleaseRow {
            python: Some(py.into()),
            ..Kb::embedded().torch_releases.row[0].clone()
        };
        assert_eq!(
            torch::python_for(&row("2.7, 3.5-3.7")).as_deref(),
            Some("3.7")
        );
        assert_eq!(
            torch::python_for(&row("3.10-3.14, 3.14t")).as_deref(),
            Some("3.14")
        );
        assert_eq!(torch::python_for(&row(">=3.10")).as_deref(), Some("3.10"));
    }

    #[test]
    fn with_lists() {
        let c = Components::parse("torch==2.5.1,torchvision,tensorrt").unwrap();
        assert!(c.torch && c.torchvision && c.tensorrt && !c.jax);
        assert_eq!(c.torch_version.as_deref(), Some("2.5.1"));
        assert!(Components::parse("tensorflow").is_err());
        assert!(Components::parse("jax==0.4").is_err());
    }

    #[test]
    fn typed_columns_agree_with_the_notes_people_read() {
        let kb = Kb::embedded();
        let pins: Vec<_> = kb
            .torch_releases
            .row
            .iter()
            .filter_map(|r| Some((r, r.cudnn.as_ref()?)))
            .collect();
        assert!(pins.len() >= 5);
        for (r, v) in pins {
            assert!(
                r.note.as_deref().unwrap_or("").contains(v.as_str()),
                "torch {}",
                r.version
            );
        }
        for r in &kb.onnxruntime.row {
            if let Some(lo) = &r.python_min {
                assert!(
                    r.note
                        .as_deref()
                        .unwrap_or("")
                        .contains(&format!("Requires-Python >={lo}")),
                    "ort {}",
                    r.version
                );
            }
        }
        for r in &kb.tensorrt.row {
            for m in r.wheel_cuda_majors.iter().flatten() {
                assert!(
                    r.note
                        .as_deref()
                        .unwrap_or("")
                        .contains(&format!("tensorrt-cu{m}")),
                    "trt {}",
                    r.version_max
                );
            }
        }
    }
}
