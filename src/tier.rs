//! The tier (1–5) a machine's hardware qualifies for, with its reason, per
//! DESIGN.md "Tiers"; and where the software posture falls short of it.
//!
//! | tier | hardware |
//! | --- | --- |
//! | 1 | no usable local accelerator |
//! | 2 | one desktop GPU under 16 GiB, or Apple silicon |
//! | 3 | desktop or workstation GPUs with 16 GiB or more |
//! | 4 | datacenter-class GPUs in one node |
//! | 5 | several datacenter GPUs joined by NVLink/NVSwitch, or nodes joined by InfiniBand |
//!
//! The tier is computed from hardware (the GPUs the driver reports, else the
//! PCI bus); a machine whose software does not yet use that hardware keeps
//! its tier and lists the gaps in `posture`.

use serde::Serialize;

use crate::inventory::{GpuVendor, Inventory, OsKind, Segment};
use crate::kb::Kb;

/// 16 GiB, compared after rounding to whole GiB: a "16 GB" card reports
/// a little less (16376 MiB for an RTX 4080).
const TIER3_GIB: u64 = 16;

/// AMD Instinct targets (MI100 gfx908, MI200 gfx90a, MI300 gfx94x, MI350
/// gfx950; ROCm "GPU hardware specifications").
const AMD_DATACENTER_GFX: &[&str] = &["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tier {
    pub level: u8,
    pub reason: String,
    /// Where the software falls short of the hardware's tier.
    pub posture: Vec<String>,
    /// The facts the level rests on (`NVML`, `kb gpus: ...`), for `-v`.
    pub sources: Vec<String>,
}

/// One accelerator as the tier sees it.
#[derive(Debug, Clone)]
struct Accel {
    name: String,
    segment: Option<Segment>,
    memory_mib: Option<u64>,
    source: String,
}

fn gib(mib: u64) -> u64 {
    (mib + 512) / 1024
}

pub fn tier(inv: &Inventory, kb: &Kb) -> Tier {
    let accels = accelerators(inv, kb);
    let mut sources: Vec<String> = accels.iter().map(|a| a.source.clone()).collect();
    sources.dedup();
    let (level, reason) = level(inv, &accels, &mut sources);
    Tier {
        level,
        reason,
        posture: posture(inv, level),
        sources,
    }
}

fn accelerators(inv: &Inventory, kb: &Kb) -> Vec<Accel> {
    let mut out = Vec::new();
    for g in crate::kb::resolve::gpus(inv, kb) {
        let (name, source) = match (g.gpu, g.pci) {
            (Some(d), _) => (
                d.name
                    .as_ref()
                    .map(|n| n.value.clone())
                    .unwrap_or_else(|| format!("GPU {}", d.index)),
                d.name
                    .as_ref()
                    .map(|n| n.source.clone())
                    .unwrap_or_default(),
            ),
            (None, Some(p)) => (
                g.name
                    .clone()
                    .unwrap_or_else(|| format!("NVIDIA device {}", p.device_id)),
                match g.row {
                    Some(r) => format!("{} and kb gpus: {}", p.source, r.name),
                    None => p.source.clone(),
                },
            ),
            (None, None) => continue,
        };
        out.push(Accel {
            segment: g.segment.as_ref().map(|s| s.value),
            memory_mib: g.memory_mib(),
            name,
            source,
        });
    }
    // AMD GPUs count when ROCm's kernel interface is there.
    if inv.amd.kfd_present.as_ref().is_some_and(|f| f.value) {
        let datacenter = inv
            .amd
            .gfx_targets
            .iter()
            .any(|t| AMD_DATACENTER_GFX.contains(&t.value.as_str()));
        let gfx: Vec<&str> = inv
            .amd
            .gfx_targets
            .iter()
            .map(|t| t.value.as_str())
            .collect();
        for d in inv.pci.iter().filter(|d| d.vendor == GpuVendor::Amd) {
            out.push(Accel {
                name: if gfx.is_empty() {
                    format!("AMD GPU {}", d.device_id)
                } else {
                    format!("AMD GPU {} ({})", d.device_id, gfx.join(", "))
                },
                segment: Some(if datacenter {
                    Segment::Datacenter
                } else {
                    Segment::Geforce
                }),
                memory_mib: d.vram_mib,
                source: d.source.clone(),
            });
        }
    }
    out
}

fn summarize(accels: &[&Accel]) -> String {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for a in accels {
        match groups.iter_mut().find(|(n, _)| *n == a.name) {
            Some(g) => g.1 += 1,
            None => groups.push((a.name.clone(), 1)),
        }
    }
    groups
        .iter()
        .map(|(n, c)| {
            if *c > 1 {
                format!("{c}× {n}")
            } else {
                n.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn level(inv: &Inventory, accels: &[Accel], sources: &mut Vec<String>) -> (u8, String) {
    if let Some(chip) = &inv.apple.chip {
        sources.push(chip.source.clone());
        return (2, format!("Apple silicon ({}): MPS/MLX", chip.value));
    }
    if accels.is_empty() {
        let others: Vec<&str> = inv
            .pci
            .iter()
            .filter(|d| d.vendor != GpuVendor::Nvidia)
            .map(|d| match d.vendor {
                GpuVendor::Amd => "AMD",
                GpuVendor::Intel => "Intel",
                _ => "other",
            })
            .collect();
        let reason = if others.is_empty() {
            if inv
                .notes
                .iter()
                .any(|n| n.subject == "/sys/bus/pci/devices")
            {
                "no usable local accelerator found, but the PCI bus could not be read: the hardware is unknown".to_string()
            } else {
                "no usable local accelerator: no GPU found".to_string()
            }
        } else {
            format!(
                "no usable local accelerator: only {} graphics, not counted as a compute GPU",
                others.join(", ")
            )
        };
        return (1, reason);
    }
    let dc: Vec<&Accel> = accels
        .iter()
        .filter(|a| a.segment == Some(Segment::Datacenter))
        .collect();
    if !dc.is_empty() {
        let what = summarize(&dc);
        let nvswitch = inv.fabric.nvswitch_count.as_ref().filter(|n| n.value > 0);
        let nvlink = inv.fabric.nvlink_active.as_ref().filter(|f| f.value);
        let ib = &inv.fabric.infiniband_devices;
        if dc.len() >= 2 {
            if let Some(n) = nvswitch {
                sources.push(n.source.clone());
                return (
                    5,
                    format!("{what} joined by NVSwitch ({} switches)", n.value),
                );
            }
            if let Some(l) = nvlink {
                sources.push(l.source.clone());
                return (5, format!("{what} joined by NVLink"));
            }
        }
        if !ib.is_empty() {
            sources.push("/sys/class/infiniband".into());
            let names: Vec<&str> = ib.iter().map(|f| f.value.as_str()).collect();
            return (
                5,
                format!(
                    "{what}, with InfiniBand to other nodes ({})",
                    names.join(", ")
                ),
            );
        }
        return (4, format!("{what}: datacenter-class, one node"));
    }
    let all: Vec<&Accel> = accels.iter().collect();
    let what = summarize(&all);
    let largest = accels.iter().filter_map(|a| a.memory_mib).max();
    match largest {
        Some(m) if gib(m) >= TIER3_GIB => (3, format!("{what}: {} GiB", gib(m))),
        Some(m) if accels.iter().all(|a| a.memory_mib.is_some()) => {
            (2, format!("{what}: {} GiB, under {TIER3_GIB} GiB", gib(m)))
        }
        _ => (
            2,
            format!("{what}: memory unknown (tier 3 needs {TIER3_GIB} GiB or more)"),
        ),
    }
}

fn posture(inv: &Inventory, level: u8) -> Vec<String> {
    let mut out = Vec::new();
    let nv = &inv.nvidia;
    let wsl = inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value);
    let overridden = !inv.gpus.is_empty()
        && inv.gpus.iter().all(|g| {
            g.name
                .as_ref()
                .is_some_and(|n| n.source.starts_with("env "))
        });
    let nvidia_hw = inv.has_nvidia_hardware();

    for d in inv.nvidia_pci() {
        match d.driver.as_deref() {
            Some("nvidia") => {}
            Some("nouveau") => out.push(format!(
                "nouveau, not the NVIDIA driver, drives the GPU at {}",
                d.address
            )),
            Some("vfio-pci") => out.push(format!(
                "the GPU at {} is bound to vfio-pci (passed through to a VM)",
                d.address
            )),
            Some(other) => out.push(format!("the GPU at {} is bound to {other}", d.address)),
            None => out.push(format!("no driver is bound to the GPU at {}", d.address)),
        }
    }
    if nvidia_hw && !overridden && !wsl {
        let in_container = inv.container.runtime.is_some();
        if nv.module_loaded.as_ref().is_some_and(|f| !f.value) && !in_container {
            out.push("the NVIDIA kernel module is not loaded".into());
        }
        if in_container
            && nv
                .device_nodes
                .iter()
                .all(|n| !n.path.starts_with("/dev/nvidia"))
        {
            out.push(
                "the container has no /dev/nvidia* device nodes (started without GPUs)".into(),
            );
        }
    }
    if let (Some(k), Some(lib)) = (
        &nv.kernel_module,
        nv.user_libraries.iter().find(|l| l.name == "libnvidia-ml"),
    ) {
        if k.value != lib.version.value {
            out.push(format!(
                "kernel module {} but user-mode library {} ({}): reboot or reload the module",
                k.value, lib.version.value, lib.path
            ));
        }
    }
    if let Some(ok) = nv.smi_ok.as_ref().filter(|f| !f.value) {
        let why = ok.note.as_deref().unwrap_or("no answer");
        out.push(format!(
            "{} got no answer from the driver: {why}",
            ok.source
        ));
    }
    if let Some(v) = inv.env.get("CUDA_VISIBLE_DEVICES") {
        let t = v.value.trim();
        if t.is_empty() || t == "-1" {
            out.push(format!(
                "CUDA_VISIBLE_DEVICES={:?} hides every GPU",
                v.value
            ));
        }
    }
    if let Some(v) = inv.env.get("NVIDIA_VISIBLE_DEVICES") {
        let t = v.value.trim();
        if t == "void" || t == "none" || t.is_empty() {
            out.push(format!(
                "NVIDIA_VISIBLE_DEVICES={:?}: the container runtime mounts no GPU",
                v.value
            ));
        }
    }
    if level >= 4 {
        if inv
            .os
            .kind
            .as_ref()
            .is_some_and(|k| k.value == OsKind::Windows)
        {
            out.push(
                "datacenter GPUs under Windows: tier 4–5 expects Linux with datacenter drivers"
                    .into(),
            );
        } else if wsl {
            out.push("datacenter GPUs under WSL2: tier 4–5 expects native Linux".into());
        }
    }
    if level == 5
        && inv
            .fabric
            .nvswitch_count
            .as_ref()
            .is_some_and(|n| n.value > 0)
    {
        let fm = &inv.fabric;
        if fm
            .fabric_manager_installed
            .as_ref()
            .is_some_and(|f| !f.value)
        {
            out.push("NVSwitch present but the fabric manager is not installed".into());
        } else if fm.fabric_manager_running.as_ref().is_some_and(|f| !f.value) {
            out.push("NVSwitch present but the fabric manager is not running".into());
        }
    }
    if inv.amd.kfd_present.as_ref().is_some_and(|f| f.value)
        && inv.amd.amdgpu_loaded.as_ref().is_some_and(|f| !f.value)
    {
        out.push("/dev/kfd exists but the amdgpu module is not loaded".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Gpu, PciDevice};

    fn kb() -> &'static Kb {
        Kb::embedded()
    }

    fn gpu(i: u32, name: &str, mib: Option<u64>) -> Gpu {
        Gpu {
            index: i,
            name: Some(Fact::new(name.to_string(), "NVML")),
            memory_mib: mib.map(|m| Fact::new(m, "NVML")),
            ..Default::default()
        }
    }

    fn inv(gpus: Vec<Gpu>) -> Inventory {
        Inventory {
            gpus,
            ..Inventory::new("test")
        }
    }

    #[test]
    fn tier_1_without_accelerators() {
        let t = tier(&inv(vec![]), kb());
        assert_eq!(t.level, 1);
        let mut i = inv(vec![]);
        i.pci.push(PciDevice {
            vendor: GpuVendor::Intel,
            device_id: "0xa780".into(),
            ..Default::default()
        });
        let t = tier(&i, kb());
        assert_eq!(t.level, 1);
        assert!(t.reason.contains("Intel"), "{t:?}");
    }

    #[test]
    fn tier_2_and_3_by_memory() {
        let t = tier(
            &inv(vec![gpu(0, "NVIDIA GeForce RTX 3060", Some(12288))]),
            kb(),
        );
        assert_eq!(t.level, 2, "{t:?}");
        // A "16 GB" card reports a little less than 16384 MiB.
        let t = tier(
            &inv(vec![gpu(0, "NVIDIA GeForce RTX 4080", Some(16376))]),
            kb(),
        );
        assert_eq!(t.level, 3, "{t:?}");
        let t = tier(
            &inv(vec![gpu(0, "NVIDIA GeForce RTX 4090", Some(24564))]),
            kb(),
        );
        assert_eq!(t.level, 3, "{t:?}");
        // Memory unknown, kb has no VRAM for the RTX 3060: tier 2, saying so.
        let t = tier(&inv(vec![gpu(0, "NVIDIA GeForce RTX 3060", None)]), kb());
        assert_eq!(t.level, 2);
        assert!(t.reason.contains("memory unknown"), "{t:?}");
        // Memory unknown but the kb row has it.
        let t = tier(&inv(vec![gpu(0, "NVIDIA GeForce RTX 4090", None)]), kb());
        assert_eq!(t.level, 3, "{t:?}");
    }

    #[test]
    fn tier_4_datacenter_in_one_node() {
        let t = tier(
            &inv(vec![gpu(0, "NVIDIA A100-SXM4-80GB", Some(81920))]),
            kb(),
        );
        assert_eq!(t.level, 4, "{t:?}");
        // Two without NVLink, NVSwitch or InfiniBand stay at 4.
        let t = tier(
            &inv(vec![
                gpu(0, "NVIDIA A100-SXM4-80GB", Some(81920)),
                gpu(1, "NVIDIA A100-SXM4-80GB", Some(81920)),
            ]),
            kb(),
        );
        assert_eq!(t.level, 4, "{t:?}");
        assert!(t.reason.starts_with("2× NVIDIA A100-SXM4-80GB"), "{t:?}");
    }

    #[test]
    fn tier_5_joined_by_nvswitch_nvlink_or_infiniband() {
        let h100 = |i| gpu(i, "NVIDIA H100 80GB HBM3", Some(81559));
        let mut i = inv((0..8).map(h100).collect());
        i.fabric.nvswitch_count = Some(Fact::new(4, "/dev/nvidia-nvswitch*"));
        i.fabric.fabric_manager_installed = Some(Fact::new(false, "x"));
        let t = tier(&i, kb());
        assert_eq!(t.level, 5, "{t:?}");
        assert!(t.posture.iter().any(|p| p.contains("fabric manager")));

        let mut i = inv((0..2).map(h100).collect());
        i.fabric.nvlink_active = Some(Fact::new(true, "NVML"));
        assert_eq!(tier(&i, kb()).level, 5);
        i.fabric.nvlink_active = Some(Fact::new(false, "NVML"));
        assert_eq!(tier(&i, kb()).level, 4);

        let mut i = inv(vec![h100(0)]);
        i.fabric.infiniband_devices =
            vec![Fact::new("mlx5_0".into(), "/sys/class/infiniband/mlx5_0")];
        assert_eq!(tier(&i, kb()).level, 5);
    }

    #[test]
    fn hardware_from_pci_when_no_driver_answers() {
        let mut i = inv(vec![]);
        i.pci.push(PciDevice {
            address: "0000:01:00.0".into(),
            vendor: GpuVendor::Nvidia,
            device_id: "0x2330".into(),
            driver: Some("nouveau".into()),
            source: "/sys/bus/pci/devices/0000:01:00.0".into(),
            ..Default::default()
        });
        let t = tier(&i, kb());
        assert_eq!(t.level, 4, "{t:?}");
        assert!(t.posture.iter().any(|p| p.contains("nouveau")), "{t:?}");
    }

    #[test]
    fn apple_silicon_is_tier_2() {
        let mut i = inv(vec![]);
        i.apple.chip = Some(Fact::new("Apple M2 Max".into(), "report"));
        let t = tier(&i, kb());
        assert_eq!(t.level, 2);
        assert!(t.reason.contains("Apple M2 Max"));
    }

    #[test]
    fn datacenter_gpus_under_windows_or_wsl_are_a_posture_gap() {
        let mut i = inv(vec![gpu(0, "NVIDIA H100 80GB HBM3", Some(81559))]);
        i.os.kind = Some(Fact::new(OsKind::Windows, "report"));
        let t = tier(&i, kb());
        assert_eq!(t.level, 4);
        assert!(t.posture.iter().any(|p| p.contains("Windows")), "{t:?}");
        let mut i = inv(vec![gpu(0, "NVIDIA GeForce RTX 4090", Some(24564))]);
        i.os.kind = Some(Fact::new(OsKind::Windows, "report"));
        assert!(tier(&i, kb()).posture.is_empty());
    }

    #[test]
    fn hidden_gpus_are_a_posture_gap() {
        let mut i = inv(vec![gpu(0, "NVIDIA GeForce RTX 4090", Some(24564))]);
        i.env.insert(
            "CUDA_VISIBLE_DEVICES".into(),
            Fact::new(String::new(), "env CUDA_VISIBLE_DEVICES"),
        );
        assert!(tier(&i, kb()).posture.iter().any(|p| p.contains("hides")));
        i.env.insert(
            "CUDA_VISIBLE_DEVICES".into(),
            Fact::new("0".into(), "env CUDA_VISIBLE_DEVICES"),
        );
        assert!(tier(&i, kb()).posture.is_empty());
    }
}
