//! The hosts a plan or an image check is for: saved cards (`card --json`),
//! the live machine, or hand-given `--driver` / `--gpu` / `--cc` facts,
//! reduced to what the resolver and the requirement evaluator need.

use std::path::Path;

use serde::Serialize;

use crate::inventory::{Fact, GpuVendor, Inventory, OsKind, Segment};
use crate::kb::{GpuLookup, Kb};
use crate::plan::require::{runtime_brand, DeviceView, DriverView, RuntimeView, Seen};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a gpucompat card (card --json): {message}")]
    Parse { path: String, message: String },
    #[error(transparent)]
    Card(#[from] crate::card::CardError),
    #[error("--gpu {name:?}: {message}")]
    Gpu { name: String, message: String },
}

/// Read a saved card (strictly: see [`crate::card`]).
pub fn load_card(path: &Path) -> Result<Inventory, HostError> {
    Ok(crate::card::read(path)?)
}

/// What accelerators a host has, as far as planning goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HostKind {
    Nvidia,
    Amd,
    Apple,
    Cpu,
}

#[derive(Debug, Clone, Serialize)]
pub struct GpuSpec {
    pub index: u32,
    pub name: Option<String>,
    pub cc: Option<Fact<ComputeCapability>>,
    /// NVML brand as reported (`geforce`, `tesla`, `nvidia_rtx`, ...).
    pub brand: Option<String>,
    pub segment: Option<Segment>,
}

impl GpuSpec {
    pub fn label(&self) -> String {
        match &self.name {
            Some(n) => format!("GPU {} {n}", self.index),
            None => format!("GPU {}", self.index),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct HostSpec {
    pub name: String,
    /// Where the facts came from: `card a.json`, `live probe`, `command line`.
    pub origin: String,
    pub kind: HostKind,
    pub os_kind: OsKind,
    /// `Ubuntu 22.04.4 LTS`.
    pub os_name: Option<String>,
    pub kernel: Option<String>,
    pub driver: Option<Fact<DriverVersion>>,
    /// The newest CUDA the driver reports (nvidia-smi / cuDriverGetVersion).
    pub cuda_max: Option<Fact<CudaVersion>>,
    pub gpus: Vec<GpuSpec>,
    pub amd_gfx: Vec<String>,
    pub rocm: Option<String>,
    pub apple_chip: Option<String>,
    pub notes: Vec<String>,
}

impl HostSpec {
    pub fn empty(name: impl Into<String>, origin: impl Into<String>) -> HostSpec {
        HostSpec {
            name: name.into(),
            origin: origin.into(),
            kind: HostKind::Cpu,
            os_kind: OsKind::Linux,
            os_name: None,
            kernel: None,
            driver: None,
            cuda_max: None,
            gpus: vec![],
            amd_gfx: vec![],
            rocm: None,
            apple_chip: None,
            notes: vec![],
        }
    }

    /// Build from a card. `fallback_name` names the host when the card has no hostname.
    pub fn from_inventory(inv: &Inventory, fallback_name: &str, origin: &str, kb: &Kb) -> HostSpec {
        let name = inv
            .os
            .hostname
            .as_ref()
            .map(|h| h.value.clone())
            .filter(|h| !h.trim().is_empty())
            .unwrap_or_else(|| fallback_name.to_string());
        let mut h = HostSpec::empty(name, origin);
        h.os_kind = inv.os.kind.as_ref().map_or(OsKind::Linux, |k| k.value);
        h.os_name = inv
            .os
            .pretty_name
            .as_ref()
            .map(|p| p.value.clone())
            .or_else(|| match (&inv.os.id, &inv.os.version_id) {
                (Some(i), Some(v)) => Some(format!("{} {}", i.value, v.value)),
                _ => None,
            });
        h.kernel = inv.os.kernel.as_ref().map(|k| k.value.clone());
        h.driver = inv.driver_version().cloned();
        h.cuda_max = inv.nvidia.cuda_max.clone();
        // The driver's GPUs, or (when it lists none) NVIDIA hardware seen on the bus.
        let seen = crate::kb::resolve::gpus(inv, kb);
        let listed = seen.iter().any(|g| g.gpu.is_some());
        for (i, g) in seen
            .iter()
            .filter(|g| g.gpu.is_some() == listed)
            .enumerate()
        {
            h.gpus.push(GpuSpec {
                index: g.gpu.map_or(i as u32, |d| d.index),
                name: g.name.clone(),
                cc: g.cc.as_ref().map(|c| Fact::new(c.value, c.source.clone())),
                brand: g
                    .gpu
                    .and_then(|d| d.brand.as_ref())
                    .map(|b| b.value.clone()),
                segment: g.segment.as_ref().map(|s| s.value),
            });
        }
        h.amd_gfx = inv
            .amd
            .gfx_targets
            .iter()
            .map(|g| g.value.clone())
            .collect();
        h.rocm = inv.amd.rocm_version.as_ref().map(|r| r.value.clone());
        h.apple_chip = inv.apple.chip.as_ref().map(|c| c.value.clone());
        let has_amd = !h.amd_gfx.is_empty() || inv.pci.iter().any(|d| d.vendor == GpuVendor::Amd);
        h.kind = if !h.gpus.is_empty() || h.driver.is_some() {
            HostKind::Nvidia
        } else if has_amd {
            HostKind::Amd
        } else if h.apple_chip.is_some() || h.os_kind == OsKind::Macos {
            HostKind::Apple
        } else {
            HostKind::Cpu
        };
        for n in &inv.notes {
            h.notes.push(format!("{}: {}", n.subject, n.message));
        }
        h
    }

    /// Add a GPU named on the command line (`--gpu "RTX 4090"`).
    pub fn add_gpu_by_name(&mut self, kb: &Kb, name: &str) -> Result<(), HostError> {
        let row = match kb.gpu(name) {
            GpuLookup::Found(r) => r,
            GpuLookup::Ambiguous(rows) => {
                let names: Vec<&str> = rows.iter().take(8).map(|r| r.name.as_str()).collect();
                return Err(HostError::Gpu {
                    name: name.into(),
                    message: format!("several GPUs match: {}", names.join(", ")),
                });
            }
            GpuLookup::NotFound { nearest } => {
                return Err(HostError::Gpu {
                    name: name.into(),
                    message: format!("not in the GPU table; nearest: {}", nearest.join(", ")),
                })
            }
        };
        self.gpus.push(GpuSpec {
            index: self.gpus.len() as u32,
            name: Some(row.name.clone()),
            cc: row
                .compute_capability
                .map(|c| Fact::new(c, format!("gpus table: {}", row.name))),
            brand: None,
            segment: Some(row.segment),
        });
        self.kind = HostKind::Nvidia;
        Ok(())
    }

    pub fn add_gpu_by_cc(&mut self, cc: ComputeCapability) {
        self.gpus.push(GpuSpec {
            index: self.gpus.len() as u32,
            name: None,
            cc: Some(Fact::new(cc, "--cc")),
            brand: None,
            segment: None,
        });
        self.kind = HostKind::Nvidia;
    }

    /// The CUDA the driver reports, else what the toolkit table says for the driver.
    pub fn driver_cuda(&self, kb: &Kb) -> Option<Fact<CudaVersion>> {
        if let Some(c) = &self.cuda_max {
            return Some(c.clone());
        }
        let d = self.driver.as_ref()?;
        let m = kb.max_cuda_for_driver(&d.value, self.os_kind)?;
        if m.at_least {
            return None;
        }
        Some(Fact::new(
            m.max_cuda,
            format!("cuda_toolkits {} (driver {})", m.kb.row, d.value),
        ))
    }

    /// What the container runtime would read on this host.
    pub fn runtime_view(&self, kb: &Kb) -> RuntimeView {
        let driver = match &self.driver {
            Some(d) => Seen::value(d.value.to_string()),
            None if self.kind == HostKind::Nvidia => Seen::Unknown(vec![]),
            None => Seen::Nothing,
        };
        let cuda = match self.driver_cuda(kb) {
            Some(c) => Seen::value(format!("{}.{}", c.value.major, c.value.minor)),
            None if self.kind == HostKind::Nvidia => Seen::Unknown(vec![]),
            None => Seen::Nothing,
        };
        let devices = self
            .gpus
            .iter()
            .map(|g| DeviceView {
                label: g.label(),
                arch: match &g.cc {
                    Some(c) => Seen::value(format!("{}.{}", c.value.major, c.value.minor)),
                    None => Seen::Unknown(vec![]),
                },
                brand: brand_seen(g),
            })
            .collect();
        RuntimeView {
            driver: DriverView { driver, cuda },
            devices,
        }
    }
}

/// Can this host use CUDA forward compatibility (the image's cuda-compat
/// libraries standing in for an older driver)? NVIDIA supports it on data
/// center GPUs (and select NGC-ready RTX SKUs and Jetson, which are not
/// assumed); elsewhere CUDA fails with CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
/// (804). Every visible GPU must qualify.
pub fn forward_compat_eligible(h: &HostSpec) -> Result<(), String> {
    if h.gpus.is_empty() {
        return Err("no GPU known: forward-compatibility eligibility unknown".into());
    }
    for g in &h.gpus {
        match g.segment {
            Some(Segment::Datacenter) => {}
            Some(Segment::Geforce) => {
                return Err(format!(
                    "{} is a GeForce GPU: forward compatibility is not supported (CUDA error 804, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)",
                    g.label()
                ))
            }
            Some(Segment::Workstation) => {
                return Err(format!(
                    "{} is a workstation GPU: forward compatibility covers only select NGC-ready RTX SKUs (not assumed)",
                    g.label()
                ))
            }
            Some(Segment::Embedded) => {
                return Err(format!(
                    "{} is an embedded (Jetson) GPU: forward compatibility there follows JetPack, not these images",
                    g.label()
                ))
            }
            None => {
                return Err(format!(
                    "{}: market segment unknown, forward-compatibility eligibility unknown",
                    g.label()
                ))
            }
        }
    }
    Ok(())
}

/// The brand the runtime would read: from the card when it has NVML's brand,
/// else the brands a GPU of that market segment can report.
fn brand_seen(g: &GpuSpec) -> Seen {
    if let Some(b) = &g.brand {
        return Seen::value(runtime_brand(b));
    }
    let c = |v: &[&str]| Seen::Unknown(v.iter().map(|s| s.to_string()).collect());
    match g.segment {
        // Datacenter parts report Tesla (older) or NVIDIA (read as Unknown).
        Some(Segment::Datacenter) => c(&["Tesla", "Unknown"]),
        // GeForce / TITAN parts, or GeForce RTX (read as Unknown).
        Some(Segment::Geforce) => c(&["GeForce", "TITAN", "Unknown"]),
        // Quadro, or NVIDIA RTX / Quadro RTX (read as Unknown).
        Some(Segment::Workstation) => c(&["Quadro", "Unknown"]),
        _ => Seen::Unknown(vec![]),
    }
}
