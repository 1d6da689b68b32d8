//! Views over the Inventory that several rule families share: the GPUs with
//! their compute capability and knowledge row, the driver and its newest
//! CUDA, each Python environment's torch build. Each value keeps where it
//! was read so findings can cite it.

use crate::finding::{Finding, KbRef};
use crate::inventory::{
    DriverModel, Fact, FrameworkBuild, Gpu, GpuVendor, Inventory, OsKind, PciDevice, PythonEnv,
    Segment, TorchBuild,
};
use crate::kb::tables::{ArchitectureRow, GpuRow};
use crate::kb::{GpuLookup, Kb, TorchBuildInfo};
use crate::version::{ArchTarget, ComputeCapability, CudaVersion, DriverVersion};

/// A value with the place it was read (an inventory source or a kb row).
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub value: T,
    pub source: String,
    pub kb: Option<KbRef>,
}

impl<T: std::fmt::Display> Sourced<T> {
    pub fn cite(&self, f: Finding, fact: &str) -> Finding {
        let f = f.evidence(fact, &self.value, &self.source);
        match &self.kb {
            Some(k) => f.kb(k.clone()),
            None => f,
        }
    }
}

pub fn is_wsl(inv: &Inventory) -> bool {
    inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value)
}

pub fn in_container(inv: &Inventory) -> bool {
    inv.container.runtime.is_some() || inv.container.kubernetes.as_ref().is_some_and(|f| f.value)
}

pub fn is_kubernetes(inv: &Inventory) -> bool {
    inv.container.kubernetes.as_ref().is_some_and(|f| f.value)
        || inv
            .container
            .runtime
            .as_ref()
            .is_some_and(|f| f.value == "kubernetes")
}

pub fn os_kind(inv: &Inventory) -> Option<OsKind> {
    inv.os.kind.as_ref().map(|f| f.value)
}

pub fn is_macos(inv: &Inventory) -> bool {
    os_kind(inv) == Some(OsKind::Macos)
}

/// The OS whose driver numbers apply: WSL runs the Windows driver.
pub fn driver_os(inv: &Inventory) -> OsKind {
    if is_wsl(inv) {
        OsKind::Windows
    } else {
        os_kind(inv).unwrap_or_default()
    }
}

pub fn is_ubuntu(inv: &Inventory) -> bool {
    inv.os
        .id
        .as_ref()
        .is_some_and(|f| f.value.eq_ignore_ascii_case("ubuntu"))
}

pub fn driver(inv: &Inventory) -> Option<&Fact<DriverVersion>> {
    inv.driver_version()
}

/// The newest CUDA the driver supports: as the driver reports it, else from the toolkit table.
pub fn driver_cuda_max(inv: &Inventory, kb: &Kb) -> Option<CudaMax> {
    if let Some(f) = &inv.nvidia.cuda_max {
        return Some(CudaMax {
            value: f.value.major_minor(),
            source: f.source.clone(),
            kb: None,
            from_driver: true,
            at_least: false,
        });
    }
    let d = driver(inv)?;
    let m = kb.max_cuda_for_driver(&d.value, driver_os(inv))?;
    Some(CudaMax {
        value: m.max_cuda,
        source: format!("knowledge base, for driver {}", d.value),
        kb: Some(m.kb),
        from_driver: false,
        at_least: m.at_least,
    })
}

#[derive(Debug, Clone)]
pub struct CudaMax {
    pub value: CudaVersion,
    pub source: String,
    pub kb: Option<KbRef>,
    /// Reported by the driver itself (NVML, nvidia-smi, cuDriverGetVersion).
    pub from_driver: bool,
    /// The driver is newer than every row of the table: the real maximum may be higher.
    pub at_least: bool,
}

impl CudaMax {
    pub fn cite(&self, f: Finding) -> Finding {
        let f = f.evidence("driver's newest CUDA", self.value, &self.source);
        match &self.kb {
            Some(k) => f.kb(k.clone()),
            None => f,
        }
    }
}

/// An NVIDIA GPU as the rules see it, from the driver's list or, when the
/// driver lists none, from the PCI bus and the knowledge base.
#[derive(Debug, Clone)]
pub struct GpuView<'a> {
    /// `GPU 0 (NVIDIA GeForce RTX 3090)`, `0000:01:00.0 (NVIDIA GeForce RTX 3090)`.
    pub label: String,
    pub name: Option<String>,
    pub cc: Option<Sourced<ComputeCapability>>,
    pub segment: Option<Sourced<Segment>>,
    pub row: Option<&'a GpuRow>,
    pub arch: Option<&'a ArchitectureRow>,
    pub gpu: Option<&'a Gpu>,
    pub pci: Option<&'a PciDevice>,
}

impl GpuView<'_> {
    pub fn cite_cc(&self, f: Finding) -> Finding {
        let f = match &self.cc {
            Some(cc) => cc.cite(f, &format!("{} compute capability", self.label)),
            None => f,
        };
        match self.row {
            Some(r) => f.kb(r.kb()),
            None => f,
        }
    }

    pub fn cite_name(&self, f: Finding) -> Finding {
        if let Some(g) = self.gpu.and_then(|g| g.name.as_ref()) {
            return f.fact(format!("GPU {} name", self.gpu_index()), g);
        }
        if let Some(p) = self.pci {
            let f = f.evidence(
                format!("PCI device {}", p.address),
                format!("{} {}", p.vendor_id, p.device_id),
                &p.source,
            );
            return match self.row {
                Some(r) => f.kb(r.kb()),
                None => f,
            };
        }
        f
    }

    fn gpu_index(&self) -> u32 {
        self.gpu.map_or(0, |g| g.index)
    }

    pub fn cite_segment(&self, f: Finding) -> Finding {
        match &self.segment {
            Some(s) => {
                let v = format!("{:?}", s.value).to_lowercase();
                let f = f.evidence(format!("{} segment", self.label), v, &s.source);
                match &s.kb {
                    Some(k) => f.kb(k.clone()),
                    None => f,
                }
            }
            None => f,
        }
    }

    pub fn is_datacenter(&self) -> bool {
        self.segment
            .as_ref()
            .is_some_and(|s| s.value == Segment::Datacenter)
    }

    pub fn driver_model(&self) -> Option<&Fact<DriverModel>> {
        self.gpu.and_then(|g| g.driver_model.as_ref())
    }
}

fn bus_key(s: &str) -> String {
    let s = s.trim().to_lowercase();
    let tail: String = s.chars().rev().take(7).collect();
    tail.chars().rev().collect()
}

fn row_for_name<'a>(kb: &'a Kb, name: &str) -> Option<&'a GpuRow> {
    match kb.gpu_match(name) {
        GpuLookup::Found(r) => Some(r),
        _ => None,
    }
}

/// Every NVIDIA GPU: the driver's list, plus PCI devices the driver does not list.
pub fn nvidia_gpus<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<GpuView<'a>> {
    let mut out = Vec::new();
    // Indexes and memos keep this linear in GPUs and PCI devices (cards of 100 000 GPUs).
    let mut by_bus: std::collections::HashMap<String, &PciDevice> = Default::default();
    for p in inv.nvidia_pci() {
        by_bus.entry(bus_key(&p.address)).or_insert(p);
    }
    let mut by_name: std::collections::HashMap<&str, Option<&GpuRow>> = Default::default();
    for g in &inv.gpus {
        let name = g.name.as_ref().map(|f| f.value.clone());
        let pci = g
            .pci_bus_id
            .as_ref()
            .and_then(|b| by_bus.get(&bus_key(&b.value)).copied());
        let row = g
            .name
            .as_ref()
            .and_then(|n| {
                *by_name
                    .entry(n.value.as_str())
                    .or_insert_with(|| row_for_name(kb, &n.value))
            })
            .or_else(|| pci.and_then(|p| kb.gpu_by_pci_id(&p.device_id)));
        let cc = match &g.compute_capability {
            Some(f) => Some(Sourced {
                value: f.value,
                source: f.source.clone(),
                kb: None,
            }),
            None => row.and_then(|r| {
                r.compute_capability.map(|c| Sourced {
                    value: c,
                    source: "knowledge base (gpus)".into(),
                    kb: Some(r.kb()),
                })
            }),
        };
        let segment = match &g.segment {
            Some(f) => Some(Sourced {
                value: f.value,
                source: f.source.clone(),
                kb: None,
            }),
            None => row.map(|r| Sourced {
                value: r.segment,
                source: "knowledge base (gpus)".into(),
                kb: Some(r.kb()),
            }),
        };
        let arch = cc.as_ref().and_then(|c| kb.architecture(c.value));
        let label = match &name {
            Some(n) => format!("GPU {} ({n})", g.index),
            None => format!("GPU {}", g.index),
        };
        out.push(GpuView {
            label,
            name,
            cc,
            segment,
            row,
            arch,
            gpu: Some(g),
            pci,
        });
    }
    // Sets and a per-id memo keep this linear on a bus with thousands of devices.
    let listed: std::collections::HashSet<&str> = out
        .iter()
        .filter_map(|v| v.pci.map(|q| q.address.as_str()))
        .collect();
    let mut by_id: std::collections::HashMap<&str, Option<&GpuRow>> = Default::default();
    for p in inv.nvidia_pci() {
        if listed.contains(p.address.as_str()) {
            continue;
        }
        // The driver listed GPUs but could not tell their bus ids: don't count twice.
        if !inv.gpus.is_empty() && inv.gpus.iter().all(|g| g.pci_bus_id.is_none()) {
            continue;
        }
        let row = *by_id
            .entry(p.device_id.as_str())
            .or_insert_with(|| kb.gpu_by_pci_id(&p.device_id));
        let row = row.or_else(|| p.name.as_deref().and_then(|n| row_for_name(kb, n)));
        let name = row.map(|r| r.name.clone()).or_else(|| p.name.clone());
        let cc = row.and_then(|r| {
            r.compute_capability.map(|c| Sourced {
                value: c,
                source: format!("knowledge base (gpus), PCI id {}", p.device_id),
                kb: Some(r.kb()),
            })
        });
        let segment = row.map(|r| Sourced {
            value: r.segment,
            source: format!("knowledge base (gpus), PCI id {}", p.device_id),
            kb: Some(r.kb()),
        });
        let arch = cc.as_ref().and_then(|c| kb.architecture(c.value));
        let label = match &name {
            Some(n) => format!("{} ({n})", p.address),
            None => format!("{} (device {})", p.address, p.device_id),
        };
        out.push(GpuView {
            label,
            name,
            cc,
            segment,
            row,
            arch,
            gpu: None,
            pci: Some(p),
        });
    }
    out
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

impl<T: PartialEq> PartialEq for Sourced<T> {
    fn eq(&self, o: &Self) -> bool {
        self.value == o.value && self.source == o.source
    }
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

fn pypi_default_is_cuda(inv: &Inventory) -> bool {
    let linux = matches!(os_kind(inv), None | Some(OsKind::Linux));
    let x86 = inv
        .os
        .arch
        .as_ref()
        .map_or(true, |a| a.value == "x86_64" || a.value == "amd64");
    linux && x86
}

pub fn torch_view<'a>(inv: &'a Inventory, kb: &'a Kb, env: &'a PythonEnv) -> Option<TorchView<'a>> {
    let torch = env.torch.as_ref()?;
    let version = torch.version.as_ref();
    let info = version.map(|v| kb.torch_build(&v.value));
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
            (Some(i), Some(v)) if !i.variant_from_default || pypi_default_is_cuda(inv) => {
                let src = if i.variant_from_default {
                    format!(
                        "{} (no local tag: the PyPI Linux x86_64 default of torch {})",
                        v.source, i.release
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
            (TorchKind::Cuda(_), Some(i)) => i.arch_row.and_then(|r| {
                r.arch_list.as_ref().map(|l| Sourced {
                    value: l.clone(),
                    source: format!(
                        "knowledge base (torch_arch {} {}{})",
                        i.release,
                        r.variant,
                        if r.verified {
                            ""
                        } else {
                            ", from build scripts"
                        }
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
