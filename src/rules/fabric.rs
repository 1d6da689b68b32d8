//! Fabric family: NVSwitch systems and their fabric manager.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::Inventory;
use crate::kb::Kb;

use super::facts;
use super::{Docs, Rule};

pub static RULES: &[&Rule] = &[&FAB001];

pub static FAB001: Rule = Rule {
    code: "FAB001",
    name: "fabric-manager-not-ready",
    category: Category::FabricManager,
    severity: Severity::Error,
    summary: "NVSwitches are present but the fabric manager is missing, stopped, or of another driver version.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On systems with NVSwitch devices (`/dev/nvidia-nvswitch*`, `/proc/driver/nvidia-nvswitch`): whether nvidia-fabricmanager is installed, whether it runs, and whether its version equals the driver version.",
        why_it_breaks: "On HGX/DGX baseboards the GPUs are joined through NVSwitches that the fabric manager configures. Until it has, CUDA initialization fails with 'system not yet initialized' (CUDA error 802, cudaErrorSystemNotReady) and nvidia-smi -q shows the fabric state as in progress. The fabric manager must be exactly the driver's version: 'the version of fabricmanager must match the NVIDIA driver installed'.",
        how_to_fix: "Install the fabric manager package of the driver's branch and exact version (`cuda-drivers-fabricmanager-<branch>`, or `nvidia-fabricmanager-<branch>`), then `sudo systemctl enable --now nvidia-fabricmanager`. After a driver upgrade, upgrade it to the same version and restart it.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/",
            "github:NVIDIA/yum-packaging-fabric-manager README (version must match the driver; package per branch)",
            "cuda.h: CUDA_ERROR_SYSTEM_NOT_READY = 802",
        ],
    },
    check: check_fab001,
    superseded_by: &[],
};

fn check_fab001(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let fab = &inv.fabric;
    let Some(n) = fab.nvswitch_count.as_ref().filter(|n| n.value > 0) else {
        return vec![];
    };
    let drv = facts::driver(inv);
    let installed = fab.fabric_manager_installed.as_ref();
    let running = fab.fabric_manager_running.as_ref();
    let version = fab.fabric_manager_version.as_ref();
    let problem = if installed.is_some_and(|i| !i.value) {
        "the fabric manager is not installed".to_string()
    } else if running.is_some_and(|r| !r.value) {
        "the fabric manager is installed but not running".to_string()
    } else if let (Some(v), Some(d)) = (version, drv) {
        if v.value != d.value {
            format!("the fabric manager is version {} but the driver is {}; they must be the same release", v.value, d.value)
        } else {
            return vec![];
        }
    } else {
        return vec![];
    };
    let mut f = FAB001
        .finding(format!(
            "{} NVSwitch device(s) are present and {problem}: CUDA fails to initialize with 'system not yet initialized' (error 802).",
            n.value
        ))
        .fact("NVSwitch devices", n);
    for (label, v) in [
        ("fabric manager installed", installed),
        ("fabric manager running", running),
    ] {
        if let Some(v) = v {
            f = f.fact(label, v);
        }
    }
    if let Some(v) = version {
        f = f.fact("fabric manager version", v);
    }
    if let Some(d) = drv {
        f = f.fact("driver version", d);
    }
    let start = "sudo systemctl enable --now nvidia-fabricmanager";
    let Some(d) = drv else {
        return vec![f.fix_note(format!(
            "install the fabric manager of the driver's exact version, then `{start}`"
        ))];
    };
    let pkg = format!("cuda-drivers-fabricmanager-{}", d.value.branch());
    let id = inv
        .os
        .id
        .as_ref()
        .map(|i| i.value.to_lowercase())
        .unwrap_or_default();
    let tool = match id.as_str() {
        "ubuntu" | "debian" => Some("apt"),
        "rhel" | "rocky" | "centos" | "almalinux" | "ol" | "fedora" | "amzn" => Some("dnf"),
        _ => None,
    };
    let only_start =
        installed.is_some_and(|i| i.value) && version.map_or(true, |v| v.value == d.value);
    let f = if only_start {
        f.fix_command(
            start,
            Some("check `journalctl -u nvidia-fabricmanager` if it does not stay up".into()),
        )
    } else {
        match tool {
            Some(t) => f.fix_command(
                format!("sudo {t} install {pkg} && {start}"),
                Some(format!("the package must install fabric manager {} exactly (the driver's version); pin it if the repository offers a newer one", d.value)),
            ),
            None => f.fix_note(format!("install {pkg} at version {} (the driver's), then `{start}`", d.value)),
        }
    };
    vec![f]
}
