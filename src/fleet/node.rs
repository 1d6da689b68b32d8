//! What one node's card says for scheduling: the facts every fleet output
//! (labels, metrics, package-manager views, the lab card) reads the same way.

use crate::inventory::Inventory;
use crate::kb::Kb;
use crate::rules::facts::{driver_cuda_max, CudaMax};
use crate::version::{ComputeCapability, DriverVersion};

#[derive(Debug, Clone)]
pub struct NodeFacts {
    pub driver: Option<DriverVersion>,
    /// The driver's newest CUDA, as the driver reported it or from the toolkit table.
    pub cuda_max: Option<CudaMax>,
    pub cc_min: Option<ComputeCapability>,
    pub cc_max: Option<ComputeCapability>,
    /// Why the rules could not see the GPUs, when they could not: a clean
    /// check then proves nothing and must not be published as healthy.
    pub blind: Option<String>,
}

impl NodeFacts {
    pub fn of(inv: &Inventory, kb: &Kb) -> NodeFacts {
        let ccs = || {
            inv.gpus
                .iter()
                .filter_map(|g| g.compute_capability.as_ref().map(|c| c.value.plain()))
        };
        NodeFacts {
            driver: inv.driver_version().map(|d| d.value.clone()),
            cuda_max: driver_cuda_max(inv, kb),
            cc_min: ccs().min(),
            cc_max: ccs().max(),
            blind: blind(inv),
        }
    }
}

/// NVIDIA devices on the PCI bus that the driver did not enumerate, or an
/// NVML/nvidia-smi query that failed or timed out.
pub fn blind(inv: &Inventory) -> Option<String> {
    let on_bus = inv.nvidia_pci().count();
    if on_bus > 0 && inv.gpus.is_empty() {
        return Some(format!(
            "{on_bus} NVIDIA device(s) on the PCI bus, none enumerated by the driver"
        ));
    }
    match &inv.nvidia.smi_ok {
        Some(f) if !f.value => Some(format!(
            "{} failed{}",
            f.source,
            f.note
                .as_deref()
                .map(|n| format!(": {n}"))
                .unwrap_or_default()
        )),
        _ => None,
    }
}

/// GPU Feature Discovery's `gpu.family` for a compute capability
/// (`getArchFamily` in NVIDIA/k8s-device-plugin internal/lm/resource.go).
pub fn gfd_family(cc: ComputeCapability) -> &'static str {
    match (cc.major, cc.minor) {
        (1, _) => "tesla",
        (2, _) => "fermi",
        (3, _) => "kepler",
        (5, _) => "maxwell",
        (6, _) => "pascal",
        (7, m) if m < 5 => "volta",
        (7, _) => "turing",
        (8, 9) => "ada-lovelace",
        (8, _) => "ampere",
        (9, _) => "hopper",
        (10, _) | (12, _) => "blackwell",
        (13, _) => "rubin",
        _ => "undefined",
    }
}

/// GFD's `sanitise`: drop every character outside `[A-Za-z0-9-_. ]`, then
/// join the space-separated fields with `-` (`NVIDIA  H100` → `NVIDIA-H100`).
pub fn gfd_sanitise(raw: &str) -> String {
    let kept: String = raw
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '))
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join("-")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, GpuVendor, PciDevice};

    #[test]
    fn families_follow_gfd() {
        let f = |s: &str| gfd_family(s.parse().unwrap());
        assert_eq!(f("7.0"), "volta");
        assert_eq!(f("7.5"), "turing");
        assert_eq!(f("8.6"), "ampere");
        assert_eq!(f("8.9"), "ada-lovelace");
        assert_eq!(f("9.0"), "hopper");
        assert_eq!(f("10.0"), "blackwell");
        assert_eq!(f("12.0"), "blackwell");
        assert_eq!(f("11.0"), "undefined");
    }

    #[test]
    fn sanitise_matches_gfd() {
        assert_eq!(gfd_sanitise("NVIDIA  H100"), "NVIDIA-H100");
        assert_eq!(
            gfd_sanitise("NVIDIA A100-SXM4-40GB"),
            "NVIDIA-A100-SXM4-40GB"
        );
        assert_eq!(gfd_sanitise(" Tesla T4 (rev a1)/x "), "Tesla-T4-rev-a1x");
        assert_eq!(gfd_sanitise("a\tb"), "ab");
    }

    #[test]
    fn gpus_on_the_bus_that_the_driver_did_not_enumerate_blind_the_check() {
        let mut inv = Inventory::new("t");
        assert_eq!(blind(&inv), None);
        inv.pci.push(PciDevice {
            vendor: GpuVendor::Nvidia,
            ..Default::default()
        });
        assert!(blind(&inv).unwrap().contains("none enumerated"));
        inv.gpus.push(Default::default());
        assert_eq!(blind(&inv), None);
        inv.nvidia.smi_ok = Some(Fact::new(false, "nvidia-smi").with_note("timed out after 5 s"));
        assert_eq!(
            blind(&inv).as_deref(),
            Some("nvidia-smi failed: timed out after 5 s")
        );
    }
}
