//! Views over the Inventory that several rule families share: the GPUs with
//! their compute capability and knowledge row, the driver and its newest
//! CUDA, each Python environment's torch build. Each value keeps where it
//! was read so findings can cite it.

use crate::finding::Finding;
use crate::inventory::{
    EnvKind, Fact, FrameworkBuild, GpuVendor, Inventory, OsKind, PythonEnv, TorchBuild,
};
use crate::kb::resolve;
pub use crate::kb::resolve::{CudaMax, GpuView, Sourced};
use crate::kb::{Kb, TorchBuildInfo};
use crate::version::{ArchTarget, CudaVersion, DriverVersion};

pub fn is_wsl(inv: &Inventory) -> bool {
    inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value)
}

pub fn in_container(inv: &Inventory) -> bool {
    inv.container.runtime.is_some() || inv.container.kubernetes.as_ref().is_some_and(|f| f.value)
}

/// What the report's programs said of CUDA's availability
/// (`torch.cuda.is_available()`, a device they opened), environment by environment.
pub fn cuda_availability(inv: &Inventory) -> impl Iterator<Item = &Fact<bool>> {
    inv.python
        .iter()
        .filter_map(|e| e.runtime.as_ref()?.cuda_available.as_ref())
}

/// A torch in the report that said CUDA is unavailable (`torch.cuda.is_available()` False).
pub fn cuda_said_unavailable(inv: &Inventory) -> Option<&Fact<bool>> {
    cuda_availability(inv).find(|a| !a.value)
}

/// A program in the report that found CUDA available or opened a device.
pub fn cuda_said_available(inv: &Inventory) -> Option<&Fact<bool>> {
    cuda_availability(inv).find(|a| a.value)
}

/// The report sets which GPUs the process sees: CUDA_VISIBLE_DEVICES, or a
/// Slurm GPU allocation.
pub fn gpus_allocated(inv: &Inventory) -> bool {
    inv.env.contains_key("CUDA_VISIBLE_DEVICES")
        || inv.setting.slurm_gpus.is_some()
        || inv.setting.slurm_gpus_per_task.is_some()
}

pub fn is_kubernetes(inv: &Inventory) -> bool {
    inv.container.kubernetes.as_ref().is_some_and(|f| f.value)
        || inv
            .container
            .runtime
            .as_ref()
            .is_some_and(|f| f.value == "kubernetes")
}

/// An NVIDIA vGPU profile: the report says so (`Virtualization Mode: VGPU`, a
/// fractional cloud GPU), or a GPU's name is a profile's (`NVIDIA A40-48C`,
/// `GRID T4-16Q`, `... DC-1-24Q`: compute and workstation profiles end in C and Q).
/// Returns (what, source).
pub fn vgpu(inv: &Inventory) -> Option<(String, String)> {
    if let Some(v) = inv.setting.vgpu.as_ref().filter(|v| v.value) {
        return Some(("the report names a vGPU".into(), v.source.clone()));
    }
    let profile = |t: &str| {
        let Some((head, tail)) = t.rsplit_once('-') else {
            return false;
        };
        let Some(num) = tail.strip_suffix(['Q', 'C']) else {
            return false;
        };
        !num.is_empty()
            && num.bytes().all(|b| b.is_ascii_digit())
            && head.bytes().any(|b| b.is_ascii_digit())
            && head.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
    };
    inv.gpus
        .iter()
        .filter_map(|g| g.name.as_ref())
        .find(|n| n.value.split_whitespace().any(profile))
        .map(|n| (n.value.clone(), n.source.clone()))
}

pub fn os_kind(inv: &Inventory) -> Option<OsKind> {
    inv.os.kind.as_ref().map(|f| f.value)
}

pub fn is_macos(inv: &Inventory) -> bool {
    os_kind(inv) == Some(OsKind::Macos)
}

/// macOS up to 10.13 (High Sierra), where NVIDIA's web driver and CUDA
/// driver ran NVIDIA GPUs (CUDA 10.2 was the last CUDA for macOS).
pub fn macos_with_nvidia_cuda(inv: &Inventory) -> bool {
    let Some(v) = inv.os.version_id.as_ref().filter(|_| is_macos(inv)) else {
        return false;
    };
    let mut parts = v.value.split('.').map(|p| p.parse::<u32>().ok());
    matches!((parts.next(), parts.next()), (Some(Some(10)), Some(Some(m))) if m <= 13)
}

pub use crate::kb::resolve::driver_os;

pub fn is_ubuntu(inv: &Inventory) -> bool {
    inv.os
        .id
        .as_ref()
        .is_some_and(|f| f.value.eq_ignore_ascii_case("ubuntu"))
}

pub fn driver(inv: &Inventory) -> Option<&Fact<DriverVersion>> {
    inv.driver_version()
}

/// The newest CUDA the driver supports with no caveats (see [`resolve::driver_cuda_max`]).
pub fn driver_cuda_max(inv: &Inventory, kb: &Kb) -> Option<CudaMax> {
    resolve::driver_cuda_max(inv, kb)
}

/// A fact read from pasted text (`input line 14`, `issue.txt line 3`), not
/// from the machine itself.
pub fn pasted(source: &str) -> bool {
    source.contains(" line ")
}

/// Every NVIDIA GPU, resolved against the knowledge base (see [`resolve::gpus`]).
pub fn nvidia_gpus<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<GpuView<'a>> {
    resolve::gpus(inv, kb)
}

/// An AMD GPU the report shows, with ROCm failing on it: its PCI device
/// when one is listed, and the HIP errors read.
pub struct AmdFailing<'a> {
    pub pci: Option<&'a crate::inventory::PciDevice>,
    pub hip: Vec<&'a crate::inventory::ObservedError>,
}

/// See [`AmdFailing`]. None when neither an AMD GPU (a PCI device, a gfx
/// target) nor a HIP error is in sight, or when nothing failed (no error
/// read, no line that reads as a failure).
pub fn amd_gpu_failing(inv: &Inventory) -> Option<AmdFailing<'_>> {
    let hip = inv.errors_of(&[crate::inventory::ErrorKind::HipError]);
    let pci = inv.pci.iter().find(|p| p.vendor == GpuVendor::Amd);
    if hip.is_empty() && pci.is_none() && inv.amd.gfx_targets.is_empty() {
        return None;
    }
    if inv.errors.is_empty() && !inv.setting.mentions.iter().any(|m| m.failing) {
        return None;
    }
    Some(AmdFailing { pci, hip })
}

/// AMD display devices on the PCI bus, or the amdgpu/KFD facts.
pub fn has_amd_gpu(inv: &Inventory) -> bool {
    inv.pci.iter().any(|p| p.vendor == GpuVendor::Amd)
        || inv.amd.kfd_present.as_ref().is_some_and(|f| f.value)
        || !inv.amd.gfx_targets.is_empty()
}

/// How a torch wheel was built, as far as the facts tell.
#[derive(Debug, Clone, PartialEq)]
pub enum TorchKind {
    Cuda(Sourced<CudaVersion>),
    Cpu { source: String },
    Rocm(Sourced<String>),
    Unknown,
}

/// One environment's torch with what the rules need.
#[derive(Debug, Clone)]
pub struct TorchView<'a> {
    pub env: &'a PythonEnv,
    pub torch: &'a TorchBuild,
    /// `torch 2.5.1+cpu in /home/u/.venv`
    pub label: String,
    pub version: Option<&'a Fact<String>>,
    /// `2.5.1`
    pub release: Option<String>,
    pub kind: TorchKind,
    pub info: Option<TorchBuildInfo<'a>>,
    /// The compiled arch list: from Python itself, else from the knowledge base.
    pub arch_list: Option<Sourced<Vec<ArchTarget>>>,
}

impl TorchView<'_> {
    pub fn cuda(&self) -> Option<&Sourced<CudaVersion>> {
        match &self.kind {
            TorchKind::Cuda(c) => Some(c),
            _ => None,
        }
    }

    pub fn cite_version(&self, f: Finding) -> Finding {
        match self.version {
            Some(v) => f.fact(format!("torch version ({})", self.env.path), v),
            None => f,
        }
    }

    pub fn cite_cuda(&self, f: Finding) -> Finding {
        match self.cuda() {
            Some(c) => c.cite(f, &format!("torch CUDA build ({})", self.env.path)),
            None => f,
        }
    }

    pub fn cite_arch(&self, f: Finding) -> Finding {
        match &self.arch_list {
            Some(a) => {
                let list: Vec<String> = a.value.iter().map(|t| t.to_string()).collect();
                let f = f.evidence(
                    format!("torch arch list ({})", self.env.path),
                    list.join(" "),
                    &a.source,
                );
                match &a.kb {
                    Some(k) => f.kb(k.clone()),
                    None => f,
                }
            }
            None => f,
        }
    }
}

/// The platform whose PyPI wheel a bare torch version is (`linux-x86_64`
/// when nothing says otherwise), or None when the report's platform has no
/// known PyPI default (an Intel Mac).
fn pypi_platform(inv: &Inventory, env: &PythonEnv) -> Option<&'static str> {
    let arm = |a: &str| matches!(a.trim(), "aarch64" | "arm64");
    let arch = env.arch.as_ref().or(inv.os.arch.as_ref());
    let is_arm = arch.is_some_and(|a| arm(&a.value));
    match os_kind(inv) {
        None | Some(OsKind::Linux) if is_arm => Some("linux-aarch64"),
        None | Some(OsKind::Linux) => Some("linux-x86_64"),
        Some(OsKind::Windows) => Some("windows-x86_64"),
        Some(OsKind::Macos) if is_arm => Some("macos-arm64"),
        _ => None,
    }
}

/// The arch-list row of a torch build for the platform its wheel is built for: Linux aarch64
/// (SBSA) wheels carry a shorter list than x86_64 ones, so an aarch64 machine or interpreter
/// reads only aarch64 rows, and none means the list is unknown. A Windows machine reads only
/// the Windows wheels' rows (their lists differ from Linux: sm_61 in cu126, for one); WSL is
/// Linux and reads the Linux rows.
fn wheel_arch_row<'a>(
    inv: &Inventory,
    kb: &'a Kb,
    env: &PythonEnv,
    i: &crate::kb::TorchBuildInfo<'a>,
) -> Option<&'a crate::kb::tables::TorchArchRow> {
    match pypi_platform(inv, env) {
        Some(p @ ("linux-aarch64" | "windows-x86_64")) => {
            kb.torch_arch_on(&i.release, i.variant.as_deref()?, p)
        }
        _ => i.arch_row,
    }
}

/// What a torch version says about its build on this environment's
/// platform: a bare version is that platform's PyPI wheel (see
/// [`pypi_platform`]; Linux x86_64's when the platform has none known).
pub fn torch_build<'a>(
    inv: &Inventory,
    kb: &'a Kb,
    env: &PythonEnv,
    version: &str,
) -> TorchBuildInfo<'a> {
    kb.torch_build_on(version, pypi_platform(inv, env).unwrap_or("linux-x86_64"))
}

pub fn torch_view<'a>(inv: &'a Inventory, kb: &'a Kb, env: &'a PythonEnv) -> Option<TorchView<'a>> {
    let torch = env.torch.as_ref()?;
    let version = torch.version.as_ref();
    let platform = pypi_platform(inv, env);
    let info = version.map(|v| torch_build(inv, kb, env, &v.value));
    let release = info.as_ref().map(|i| i.release.clone());
    let hip = torch
        .hip
        .as_ref()
        .and_then(|f| f.value.clone().map(|h| (h, f.source.clone())));
    let kind = if let Some((h, src)) = hip {
        TorchKind::Rocm(Sourced {
            value: h,
            source: src,
            kb: None,
        })
    } else if let Some(c) = &torch.cuda {
        match c.value {
            Some(v) => TorchKind::Cuda(Sourced {
                value: v,
                source: c.source.clone(),
                kb: None,
            }),
            None => match (&info, version) {
                // version.py's `hip` not read, but the local tag says ROCm.
                (Some(i), Some(v)) if i.is_rocm() => TorchKind::Rocm(Sourced {
                    value: i.variant.clone().unwrap_or_default(),
                    source: format!("{} (local version tag)", v.source),
                    kb: None,
                }),
                _ => TorchKind::Cpu {
                    source: c.source.clone(),
                },
            },
        }
    } else {
        match (&info, version) {
            (Some(i), Some(v))
                if !i.variant_from_default
                    || (platform.is_some() && env.kind != EnvKind::Conda) =>
            {
                let src = if i.variant_from_default {
                    format!(
                        "{} (no local tag: the PyPI {} wheel of torch {})",
                        v.source,
                        platform.unwrap_or("linux-x86_64"),
                        i.release
                    )
                } else {
                    format!("{} (local version tag)", v.source)
                };
                let rkb = i.release_row.map(|r| r.kb());
                if i.is_cpu() {
                    TorchKind::Cpu { source: src }
                } else if i.is_rocm() {
                    TorchKind::Rocm(Sourced {
                        value: i.variant.clone().unwrap_or_default(),
                        source: src,
                        kb: None,
                    })
                } else if let Some(c) = i.cuda {
                    TorchKind::Cuda(Sourced {
                        value: c,
                        source: src,
                        kb: if i.variant_from_default { rkb } else { None },
                    })
                } else {
                    TorchKind::Unknown
                }
            }
            _ => TorchKind::Unknown,
        }
    };
    let arch_list = match &torch.arch_list {
        Some(f) => Some(Sourced {
            value: f.value.clone(),
            source: f.source.clone(),
            kb: None,
        }),
        None => match (&kind, &info) {
            (TorchKind::Cuda(_), Some(i)) => wheel_arch_row(inv, kb, env, i).and_then(|r| {
                r.arch_list.as_ref().map(|l| Sourced {
                    value: l.clone(),
                    source: format!(
                        "knowledge base (torch_arch {} {}{}{})",
                        i.release,
                        r.variant,
                        if r.platform == crate::kb::TORCH_ARCH_DEFAULT_PLATFORM {
                            String::new()
                        } else {
                            format!(" {}", r.platform)
                        },
                        r.arch_provenance()
                            .map(|p| format!(", from {p}"))
                            .unwrap_or_default()
                    ),
                    kb: Some(r.kb()),
                })
            }),
            _ => None,
        },
    };
    let label = match version {
        Some(v) => format!("torch {} in {}", v.value, env.path),
        None => format!("torch in {}", env.path),
    };
    Some(TorchView {
        env,
        torch,
        label,
        version,
        release,
        kind,
        info,
        arch_list,
    })
}

pub fn torch_views<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<TorchView<'a>> {
    inv.python
        .iter()
        .filter_map(|e| torch_view(inv, kb, e))
        .collect()
}

/// A framework's CUDA build as the rules compare it with the driver.
#[derive(Debug, Clone)]
pub struct Runtime<'a> {
    pub env: &'a PythonEnv,
    /// `torch 2.5.1+cu124`, `onnxruntime-gpu 1.20.1`
    pub what: String,
    pub cuda: Sourced<CudaVersion>,
    pub torch: Option<TorchView<'a>>,
}

/// Every CUDA runtime bundled by a Python framework, one per framework and environment.
pub fn runtimes<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<Runtime<'a>> {
    let mut out = Vec::new();
    for env in &inv.python {
        if let Some(t) = torch_view(inv, kb, env) {
            if let Some(c) = t.cuda().cloned() {
                let what = match t.version {
                    Some(v) => format!("torch {}", v.value),
                    None => "torch".into(),
                };
                out.push(Runtime {
                    env,
                    what,
                    cuda: c,
                    torch: Some(t),
                });
            }
        }
        let others: [(&str, &Option<FrameworkBuild>); 4] = [
            ("onnxruntime", &env.onnxruntime),
            ("tensorflow", &env.tensorflow),
            ("jax", &env.jax),
            ("tensorrt", &env.tensorrt),
        ];
        for (name, fw) in others {
            let Some(fw) = fw else { continue };
            let Some(c) = &fw.cuda else { continue };
            let what = match &fw.version {
                Some(v) => format!("{name} {}", v.value),
                None => name.to_string(),
            };
            out.push(Runtime {
                env,
                what,
                cuda: Sourced {
                    value: c.value,
                    source: c.source.clone(),
                    kb: None,
                },
                torch: None,
            });
        }
    }
    out
}

/// The leading integer of a version string (`9.1.0` → 9, `90100` → 9 for cuDNN's integer form).
pub fn major_of(v: &str) -> Option<u32> {
    let v = v.trim();
    let digits: String = v.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    if !v.contains('.') && digits.len() >= 4 {
        // cuDNN integer form: 8907 → 8, 90100 → 9 (major*1000 + ... before 9, major*10000 after).
        let n: u32 = digits.parse().ok()?;
        return Some(if n >= 10000 { n / 10000 } else { n / 1000 });
    }
    digits.parse().ok()
}

/// `-cu12` / `_cu12` suffix (or infix, `tensorrt-cu12-libs`) of an NVIDIA package name.
pub fn cu_suffix_major(name: &str) -> Option<u32> {
    let n = name.to_lowercase().replace('_', "-");
    for part in n.split('-') {
        if let Some(d) = part.strip_prefix("cu") {
            if (2..=3).contains(&d.len()) && d.chars().all(|c| c.is_ascii_digit()) {
                // cu11, cu12, cu13 (a major); cu118-style tags are not package suffixes.
                if d.len() == 2 {
                    return d.parse().ok();
                }
            }
        }
    }
    None
}

/// A path's CUDA version when it names one (`/usr/local/cuda-11.8/lib64` → 11.8).
pub fn cuda_version_in_path(path: &str) -> Option<CudaVersion> {
    let idx = path.find("cuda-")?;
    let rest = &path[idx + 5..];
    let v: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    v.trim_end_matches('.').parse().ok()
}

/// The variable a build takes its CUDA toolkit from, and its value:
/// CUDA_HOME, else CUDA_PATH (torch.utils.cpp_extension's order).
pub fn cuda_home(inv: &Inventory) -> Option<(&'static str, &Fact<String>)> {
    ["CUDA_HOME", "CUDA_PATH"]
        .into_iter()
        .find_map(|k| inv.env.get(k).map(|v| (k, v)))
}

/// The CUDA_HOME / CUDA_PATH a build takes, when it names this toolkit's directory.
pub fn named_by_home<'a>(
    inv: &'a Inventory,
    t: &crate::inventory::Toolkit,
) -> Option<(&'static str, &'a crate::inventory::Fact<String>)> {
    let dir = |p: &str| p.trim_end_matches(['/', '\\']).to_string();
    cuda_home(inv).filter(|(_, v)| dir(&v.value) == dir(&t.path))
}
