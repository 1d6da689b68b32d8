//! Driver family: the kernel module, the user-mode libraries, the device
//! nodes, and whether the driver branch knows (and is fit for) the GPU.

use crate::finding::{Category, Finding, Fix, Severity};
use crate::inventory::{Fact, Inventory};
use crate::kb::tables::BranchKind;
use crate::kb::{driver_meets, Kb};
use crate::version::DriverVersion;

use super::facts::{self, GpuView};
use super::fix;
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[
    &DRV001, &DRV002, &DRV003, &DRV004, &DRV005, &DRV006, &DRV007, &DRV008, &DRV009,
];

pub static DRV001: Rule = Rule {
    code: "DRV001",
    name: "driver-library-mismatch",
    category: Category::DriverLibraryMismatch,
    severity: Severity::Error,
    summary: "The loaded kernel module and the user-space driver libraries are from different driver releases.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Compares the version of the loaded `nvidia` kernel module (`/proc/driver/nvidia/version`, `/sys/module/nvidia/version`) with the version in the file names of the first `libcuda.so.*` and `libnvidia-ml.so.*` on the loader path and with the version NVML reports. Libraries of the cuda-compat package and of WSL's `/usr/lib/wsl/lib` are not compared.",
        why_it_breaks: "The kernel module and the user-mode driver must come from the same driver release. After a package upgrade the new libraries are on disk while the old module is still loaded, so NVML fails with `Failed to initialize NVML: Driver/library version mismatch` (NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18) and CUDA with error 803 (`cudaErrorSystemDriverMismatch`). Nothing that uses the GPU works until they match.",
        how_to_fix: "Reboot, so the new module is loaded. Without a reboot: stop every process using the GPU, unload the modules (`sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia`) and load the new one (`sudo modprobe nvidia`). If a reboot does not help, the packages themselves are out of step: reinstall one driver release (kernel module and libraries together).",
        sources: &[
            "https://docs.nvidia.com/deploy/nvml-api/ (nvml.h: NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18)",
            "github:NVIDIA/open-gpu-kernel-modules README (kernel modules must be used with user-space components of the same release)",
            "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorSystemDriverMismatch = 803)",
        ],
    },
    check: check_drv001,
    superseded_by: &[],
};

fn first_lib<'a>(inv: &'a Inventory, name: &str) -> Option<(&'a str, &'a Fact<DriverVersion>)> {
    inv.nvidia
        .user_libraries
        .iter()
        .filter(|l| l.name == name)
        .find(|l| !l.path.contains("/compat") && !l.path.starts_with("/usr/lib/wsl"))
        .map(|l| (l.path.as_str(), &l.version))
}

fn check_drv001(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if facts::is_wsl(inv) {
        return vec![];
    }
    let mut seen: Vec<(String, &Fact<DriverVersion>)> = Vec::new();
    if let Some(k) = &inv.nvidia.kernel_module {
        seen.push(("kernel module version".into(), k));
    }
    for lib in ["libcuda", "libnvidia-ml"] {
        if let Some((path, v)) = first_lib(inv, lib) {
            seen.push((format!("{lib} version ({path})"), v));
        }
    }
    if let Some(d) = &inv.nvidia.driver_version {
        seen.push(("driver version reported by the user-mode driver".into(), d));
    }
    let Some((first_label, first)) = seen.first() else {
        return vec![];
    };
    // A branch alone (`nvidia-driver-565-open`) agrees with every build of it.
    let Some((other_label, other)) = seen
        .iter()
        .skip(1)
        .find(|(_, v)| !v.value.agrees_with(&first.value))
    else {
        return vec![];
    };
    let in_container = facts::in_container(inv);
    let mut f = DRV001.finding(format!(
        "The {first_label} is {} but the {other_label} is {}: the kernel module and the user-space driver are from different releases, so NVML and CUDA refuse to start{}.",
        first.value,
        other.value,
        if in_container { " (in a container: the image must not ship its own driver libraries)" } else { "" }
    ));
    for (label, v) in &seen {
        f = f.fact(label.clone(), v);
    }
    let f = if in_container {
        f.fix_note("Remove the driver libraries (libcuda.so.*, libnvidia-ml.so.*) the image installed itself; the NVIDIA container toolkit mounts the host's, which match the host's kernel module. If the host itself is out of step, reboot the host.")
    } else {
        f.fix_command(
            "sudo reboot",
            Some("or, without a reboot: stop every process using the GPU, then `sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia`. If the versions still differ, reinstall one driver release (module and libraries together).".into()),
        )
    };
    vec![f]
}

pub static DRV002: Rule = Rule {
    code: "DRV002",
    name: "nvidia-gpu-without-driver",
    category: Category::NoDriver,
    severity: Severity::Error,
    summary: "An NVIDIA GPU is on the PCI bus but the nvidia kernel module does not drive it (nouveau, vfio-pci or nothing is bound).",
    semantics: &[],
    docs: Docs {
        what_it_checks: "For each NVIDIA display or 3D controller in `/sys/bus/pci/devices`, which kernel driver is bound (the `driver` link), and whether the `nvidia` module is loaded at all. Secure Boot state is read where possible.",
        why_it_breaks: "CUDA talks to the GPU only through the `nvidia` kernel module. With `nouveau` bound (the open-source display driver), with `vfio-pci` bound (the GPU is reserved for a virtual machine) or with nothing bound, there is no CUDA device: nvidia-smi says it couldn't communicate with the NVIDIA driver and torch finds no GPU. With Secure Boot on, a module built by DKMS but not signed with an enrolled key is refused by the kernel, which is the most common reason for an installed driver that never loads.",
        how_to_fix: "Install the NVIDIA driver (on Ubuntu `sudo ubuntu-drivers install`), which blacklists nouveau, then reboot. With Secure Boot on, enroll the module signing key (MOK) when the installer asks, or sign the module, or turn Secure Boot off. For `vfio-pci`, remove the device from `vfio-pci.ids` (kernel command line or /etc/modprobe.d) if this host should use it. Check `sudo dmesg | grep -i nvidia` for why the module did not bind.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/ (installing the driver, nouveau, Secure Boot)",
            "https://www.kernel.org/doc/html/latest/driver-api/vfio.html (vfio-pci binds devices for userspace / VM passthrough)",
        ],
    },
    check: check_drv002,
    superseded_by: &[],
};

/// Whether a driver version drives a GPU's architecture: at or above its first
/// driver, at or below its last branch. None when the tables don't say.
pub fn driver_supports(
    g: &GpuView,
    drv: &DriverVersion,
    os: crate::inventory::OsKind,
) -> Option<bool> {
    let arch = g.arch?;
    let min = match os {
        crate::inventory::OsKind::Windows => arch.min_windows_driver.as_ref(),
        _ => arch.min_linux_driver.as_ref(),
    }
    .or(arch.min_driver_branch.as_ref());
    let too_new = min.map(|m| !driver_meets(drv, m));
    let dropped = arch
        .last_driver_branch
        .as_ref()
        .map(|l| drv.branch() > l.branch());
    match (too_new, dropped) {
        (Some(true), _) | (_, Some(true)) => Some(false),
        (None, None) => None,
        _ => Some(true),
    }
}

fn is_display(class: &str) -> bool {
    let c = class.trim().to_lowercase();
    let c = c.strip_prefix("0x").unwrap_or(&c);
    c.is_empty() || c.starts_with("03")
}

fn check_drv002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::is_wsl(inv) || facts::is_macos(inv) {
        return vec![];
    }
    let module_loaded = inv.nvidia.module_loaded.as_ref().map(|f| f.value).or(inv
        .nvidia
        .kernel_module
        .as_ref()
        .map(|_| true));
    let secure_boot = inv.os.secure_boot.as_ref().filter(|f| f.value);
    let gpus = facts::nvidia_gpus(inv, kb);
    let mut groups: Vec<(Option<String>, Vec<&GpuView>)> = Vec::new();
    let drv = facts::driver(inv).map(|f| &f.value);
    let os = facts::driver_os(inv);
    for g in &gpus {
        let Some(p) = g.pci else { continue };
        if !is_display(&p.class) || p.driver.as_deref() == Some("nvidia") {
            continue;
        }
        // A GPU this driver branch does not know (or no longer drives) is DRV004's or ARCH003's finding.
        if p.driver.is_none() && drv.is_some_and(|d| driver_supports(g, d, os) == Some(false)) {
            continue;
        }
        match groups.iter_mut().find(|(d, _)| *d == p.driver) {
            Some((_, v)) => v.push(g),
            None => groups.push((p.driver.clone(), vec![g])),
        }
    }
    let host = if facts::in_container(inv) {
        " on the host"
    } else {
        ""
    };
    let mut out = Vec::new();
    for (driver, devs) in groups {
        let names: Vec<&str> = devs.iter().map(|g| g.label.as_str()).collect();
        let names = names.join(", ");
        let (sev, msg, fix) = match driver.as_deref() {
            Some("nouveau") => (
                Severity::Error,
                format!("{names}: the open-source nouveau driver is bound{host}, not nvidia, so there is no CUDA device."),
                "Install the NVIDIA driver (on Ubuntu: `sudo ubuntu-drivers install`); it blacklists nouveau. Reboot afterwards.".to_string(),
            ),
            Some("vfio-pci") => (
                Severity::Warning,
                format!("{names}: bound to vfio-pci{host}, reserved for passthrough to a virtual machine; this system cannot use it for CUDA."),
                "If this system should use the GPU, remove its id from vfio-pci.ids (kernel command line or /etc/modprobe.d) and reboot.".to_string(),
            ),
            None => (
                Severity::Error,
                match module_loaded {
                    Some(true) => format!("{names}: no kernel driver is bound{host} although the nvidia module is loaded; this driver may not support the GPU (see the other findings) or failed to bind (see `sudo dmesg | grep -i nvidia`)."),
                    _ => format!("{names}: no kernel driver is bound{host} and the nvidia module is not loaded, so there is no CUDA device."),
                },
                "Install the NVIDIA driver, or load it with `sudo modprobe nvidia` and read `sudo dmesg | grep -i nvidia` for why it did not bind.".to_string(),
            ),
            Some(other) => (
                Severity::Error,
                format!("{names}: bound to {other}{host}, not nvidia, so there is no CUDA device."),
                "Install the NVIDIA driver and make sure it binds to the GPU; reboot afterwards.".to_string(),
            ),
        };
        let mut f = DRV002.finding(msg).at(sev);
        for g in &devs {
            if let Some(p) = g.pci {
                f = f.evidence(
                    p.with_address("PCI", "bound driver"),
                    p.driver.as_deref().unwrap_or("none"),
                    &p.source,
                );
            }
            f = g.cite_name(f);
        }
        if let Some(m) = &inv.nvidia.module_loaded {
            f = f.fact("nvidia module loaded", m);
        }
        let mut fix_note = fix;
        if let (Some(sb), true) = (secure_boot, module_loaded != Some(true)) {
            f = f.fact("Secure Boot", sb);
            f.message.push_str(" Secure Boot is on: an unsigned nvidia module is refused by the kernel, a likely cause.");
            fix_note.push_str(" With Secure Boot on: enroll the module signing key (MOK), on Ubuntu `sudo mokutil --import /var/lib/dkms/mok.pub`, and confirm it in the MOK manager at the next boot; or turn Secure Boot off.");
        }
        if sev == Severity::Error
            && driver.as_deref() != Some("vfio-pci")
            && module_loaded != Some(true)
            && facts::is_ubuntu(inv)
            && !facts::in_container(inv)
        {
            f.fix = Some(Fix {
                command: Some("sudo ubuntu-drivers install".into()),
                note: Some(fix_note),
                ..Default::default()
            });
        } else {
            f = f.fix_note(fix_note);
        }
        out.push(f);
    }
    out
}

pub static DRV003: Rule = Rule {
    code: "DRV003",
    name: "device-nodes-missing",
    category: Category::NoDriver,
    severity: Severity::Error,
    summary: "The nvidia module is loaded but /dev/nvidia* device nodes are missing or not readable.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On bare metal or a VM (not WSL, not a container), when the `nvidia` module is loaded and NVML/nvidia-smi did not answer: whether `/dev/nvidiactl` and `/dev/nvidia<N>` exist, and whether the user can open them.",
        why_it_breaks: "CUDA and NVML open `/dev/nvidiactl`, `/dev/nvidia<N>` and `/dev/nvidia-uvm`. These nodes are created by udev rules or by the setuid helper `nvidia-modprobe`; on minimal systems without either, the module loads but no process can reach the GPU (CUDA error 100, no CUDA-capable device). Nodes the user cannot open give the same result for that user.",
        how_to_fix: "Run `sudo nvidia-smi` once (it creates the nodes), or install nvidia-modprobe / the driver's udev rules so they appear at boot. For permissions, add the user to the group that owns the nodes (often `video` or `render`) and log in again.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/ (device node creation, nvidia-modprobe)",
            "https://github.com/NVIDIA/nvidia-modprobe (README: creates the NVIDIA device files)",
        ],
    },
    check: check_drv003,
    superseded_by: &[],
};

fn is_gpu_node(path: &str) -> bool {
    path == "/dev/nvidiactl"
        || path
            .strip_prefix("/dev/nvidia")
            .is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()))
}

fn check_drv003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if facts::is_wsl(inv) || facts::in_container(inv) {
        return vec![];
    }
    let Some(loaded) = inv.nvidia.module_loaded.as_ref().filter(|f| f.value) else {
        return vec![];
    };
    // A pasted report that shows the module says nothing about /dev unless
    // it lists the nodes: their absence from a paste is no evidence.
    let pasted = loaded.source.contains(" line ");
    if pasted && inv.nvidia.device_nodes.is_empty() {
        return vec![];
    }
    let nodes: Vec<_> = inv
        .nvidia
        .device_nodes
        .iter()
        .filter(|n| is_gpu_node(&n.path))
        .collect();
    let smi_ok = inv.nvidia.smi_ok.as_ref().is_some_and(|f| f.value);
    if nodes.is_empty() && !smi_ok {
        let f = DRV003
            .finding("The nvidia module is loaded but /dev/nvidiactl and /dev/nvidia<N> do not exist, so no process can reach the GPU.")
            .fact("nvidia module loaded", loaded)
            .evidence("/dev/nvidia* device nodes", "none", "/dev")
            .fix_command(
                "sudo nvidia-smi",
                Some("running nvidia-smi as root creates the nodes; install nvidia-modprobe or the driver's udev rules so they exist after every boot".into()),
            );
        return vec![f];
    }
    if !nodes.is_empty() && nodes.iter().all(|n| !n.readable) {
        let mut f = DRV003
            .finding("The /dev/nvidia* device nodes exist but this user cannot open them, so CUDA sees no device for this user.")
            .at(Severity::Warning);
        for n in &nodes {
            f = f.evidence(format!("{} readable", n.path), n.readable, &n.path);
        }
        return vec![f.fix_note("Add the user to the group that owns /dev/nvidia* (`ls -l /dev/nvidia*`, often video or render): `sudo usermod -aG video $USER`, then log in again.")];
    }
    vec![]
}

pub static DRV004: Rule = Rule {
    code: "DRV004",
    name: "gpu-newer-than-driver",
    category: Category::DriverTooOld,
    severity: Severity::Error,
    summary: "The GPU's architecture needs a newer driver branch than the one installed (Hopper on R470, Blackwell before R570).",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "For each NVIDIA GPU (from the driver, or from its PCI device id when the driver does not list it): the architecture's first supported driver (`architectures` table: the driver of the first toolkit that targets it), compared with the installed driver.",
        why_it_breaks: "A driver knows only the GPUs that existed when its branch was cut. An older branch does not bind to a newer GPU at all, or binds without CUDA support: nvidia-smi lists no device, or CUDA reports no device. No wheel or toolkit choice can work around it.",
        how_to_fix: "Install a driver at or above the architecture's minimum (the finding names it). On Ubuntu `sudo apt install nvidia-driver-<branch>` for that branch or newer; datacenter GPUs use the production or LTS branches. Reboot afterwards.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html",
            "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (Table 3: toolkit and its driver)",
        ],
    },
    check: check_drv004,
    superseded_by: &[],
};

fn check_drv004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(drv) = facts::driver(inv) else {
        return vec![];
    };
    let os = facts::driver_os(inv);
    let mut out = Vec::new();
    for g in facts::nvidia_gpus(inv, kb) {
        let Some(arch) = g.arch else { continue };
        let min = match os {
            crate::inventory::OsKind::Windows => arch.min_windows_driver.as_ref(),
            _ => arch.min_linux_driver.as_ref(),
        }
        .or(arch.min_driver_branch.as_ref());
        let Some(min) = min else { continue };
        if driver_meets(&drv.value, min) {
            continue;
        }
        let f = DRV004.finding(format!(
            "{} is a {} GPU, which needs driver {min} or newer; driver {} ({}) predates it, so it cannot run CUDA on this GPU.",
            g.label,
            arch.name,
            drv.value,
            drv.value.branch_name()
        ));
        let f = g
            .cite_cc(g.cite_name(f))
            .fact("driver version", drv)
            .kb(arch.kb());
        let fx = fix::driver_upgrade_fix(inv, kb, min, &format!("first driver for {}", arch.name));
        let mut f = f;
        f.fix = Some(fx);
        out.push(f);
    }
    out
}

pub static DRV005: Rule = Rule {
    code: "DRV005",
    name: "driver-branch-not-production",
    category: Category::DriverBranch,
    severity: Severity::Warning,
    summary: "A datacenter GPU or Kubernetes node runs a new-feature (short-lived) or end-of-life driver branch.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "The driver's branch (`535.104.05` → R535) in the `driver_branches` table: its kind (LTSB, PB or NFB) and end-of-life date, compared with the knowledge base's date. It fires only where the branch matters for support: a datacenter GPU, or a Kubernetes node. A warning on a machine gpucompat probes; in a pasted report, an info finding: lifecycle advice beside the failure the report shows.",
        why_it_breaks: "NVIDIA's datacenter drivers come in Long Term Support (LTSB), Production (PB) and New Feature (NFB) branches. NFBs are short-lived and get no long-term fixes; an end-of-life branch gets no security or bug fixes and no support for newer CUDA. Fleets on such branches drift apart and break on the next CUDA image.",
        how_to_fix: "Move to a supported production or LTS branch (the finding lists those still supported). Keep the same branch on every node of a cluster. Where the branch is the last one that drives the GPU (the `architectures` table's last driver branch, R470 for Kepler), no newer branch is a fix: the finding says so and gives the choices, staying on that branch past its end of life or replacing the GPU, with the newest torch build that still has kernels for it.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/drivers/index.html (Driver Lifecycle: LTSB, PB, NFB)",
            "https://docs.nvidia.com/datacenter/tesla/drivers/620/supported-drivers-and-cuda-toolkit-versions.html",
        ],
    },
    check: check_drv005,
    superseded_by: &[],
};

fn check_drv005(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(drv) = facts::driver(inv) else {
        return vec![];
    };
    if facts::driver_os(inv) == crate::inventory::OsKind::Windows {
        return vec![];
    }
    let gpus = facts::nvidia_gpus(inv, kb);
    let dc = gpus.iter().find(|g| g.is_datacenter());
    let k8s = facts::is_kubernetes(inv);
    if dc.is_none() && !k8s {
        return vec![];
    }
    let Some(row) = kb.driver_branch(drv.value.branch()) else {
        return vec![];
    };
    let as_of = kb.driver_branches.meta.as_of.clone().unwrap_or_default();
    let eol_passed = row
        .eol
        .as_ref()
        .is_some_and(|e| !as_of.is_empty() && e.as_str() < as_of.as_str());
    // A branch the table gives no end of life for is past it when a newer LTS
    // branch already is: an LTSB lives three years and a PB one, so every
    // branch released before an ended LTSB has ended too.
    let ended_newer_lts = if row.eol.is_none() && !as_of.is_empty() {
        kb.driver_branches.row.iter().find(|r| {
            r.kind == Some(BranchKind::Ltsb)
                && r.branch > row.branch
                && r.eol.as_ref().is_some_and(|e| e.as_str() < as_of.as_str())
        })
    } else {
        None
    };
    let nfb = row.kind == Some(BranchKind::Nfb);
    if !nfb && !eol_passed && ended_newer_lts.is_none() {
        return vec![];
    }
    let why = match (nfb, eol_passed, ended_newer_lts) {
        (true, true, _) => format!(
            "a new-feature branch whose end of life ({}) has passed",
            row.eol.as_deref().unwrap_or("?")
        ),
        (true, false, _) => "a short-lived new-feature branch (NFB)".to_string(),
        (false, false, Some(lts)) => format!(
            "past its end of life: it is older than R{}, an LTS branch whose end of life ({}) has passed",
            lts.branch,
            lts.eol.as_deref().unwrap_or("?")
        ),
        _ => format!(
            "past its end of life ({})",
            row.eol.as_deref().unwrap_or("?")
        ),
    };
    let on = match (dc, k8s) {
        (Some(g), true) => format!("{} on a Kubernetes node", g.label),
        (Some(g), false) => g.label.clone(),
        (None, _) => "this Kubernetes node".to_string(),
    };
    let mut f = DRV005
        .finding(format!(
            "Driver {} is on {}, which is {why}; {on} should run a supported production or LTS branch.",
            drv.value,
            drv.value.branch_name(),
        ))
        .fact("driver version", drv)
        .kb(row.kb());
    if let (false, Some(lts)) = (nfb, ended_newer_lts) {
        f = f.kb(lts.kb());
    }
    if let Some(g) = dc {
        f = g.cite_segment(f);
    }
    if let Some(k) = &inv.container.kubernetes {
        f = f.fact("Kubernetes", k);
    }
    // A pasted report shows a failure; a branch's lifecycle is advice beside
    // it, not its cause, and must not hide what the report's words point at.
    super::lower_in_a_paste(
        inv,
        &mut f,
        Severity::Info,
        "In a pasted report this is lifecycle advice: it names no cause of what the report shows.",
    );
    if let Some(fx) = last_branch_fix(inv, kb, &drv.value, &mut f) {
        f.fix = Some(fx);
        return vec![f];
    }
    let supported: Vec<String> = kb
        .driver_branches
        .row
        .iter()
        .filter(|r| r.eol.as_ref().is_some_and(|e| e.as_str() >= as_of.as_str()))
        .filter_map(|r| {
            let kind = match r.kind? {
                BranchKind::Ltsb => "LTSB",
                BranchKind::Pb => "PB",
                BranchKind::Nfb => return None,
            };
            Some(format!(
                "R{} ({kind}, until {})",
                r.branch,
                r.eol.as_deref().unwrap_or("?")
            ))
        })
        .collect();
    let note = if supported.is_empty() {
        "Move to a supported production or LTS branch.".to_string()
    } else {
        format!(
            "Move to a supported branch: {} (as of {as_of}); keep one branch across the fleet.",
            supported.join(", ")
        )
    };
    vec![f.fix_note(note)]
}

pub static DRV006: Rule = Rule {
    code: "DRV006",
    name: "gpu-not-answering",
    category: Category::NoDriver,
    severity: Severity::Error,
    summary: "An NVIDIA GPU is on the PCI bus with the nvidia driver bound, but the driver's own query (NVML, nvidia-smi) did not answer for it.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On bare metal or a VM (not WSL, not a container): each NVIDIA display or 3D controller on the PCI bus that the `nvidia` kernel driver is bound to, against the GPUs NVML or nvidia-smi listed. A GPU the query did not list (because it failed, timed out, or answered without it) is reported, unless a library mismatch (DRV001) or missing device nodes (DRV003) already explain the silence.",
        why_it_breaks: "When the driver is bound but cannot answer for a GPU, CUDA cannot use it either: the GPU has fallen off the bus, is hung after an Xid error, or the driver is stuck. Every check that needs the GPU's facts (compute capability, memory, MIG mode) is blind to it, so no finding about it is an all-clear.",
        how_to_fix: "Read the kernel log for the cause: `sudo dmesg | grep -iE 'NVRM|Xid'`. A hung GPU usually needs a reset (`sudo nvidia-smi -r -i <index>` when no process uses it) or a reboot; a GPU that fell off the bus needs a power cycle and a look at its power and seating.",
        sources: &[
            "https://docs.nvidia.com/deploy/xid-errors/ (Xid errors: what the driver logs when a GPU faults or falls off the bus)",
            "https://docs.nvidia.com/deploy/nvidia-smi/ (nvidia-smi -r: reset a GPU)",
        ],
    },
    check: check_drv006,
    superseded_by: &[],
};

fn silence_explained(inv: &Inventory, kb: &Kb) -> bool {
    !check_drv001(inv, kb).is_empty() || !check_drv003(inv, kb).is_empty()
}

fn check_drv006(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::is_wsl(inv) || facts::is_macos(inv) || facts::in_container(inv) {
        return vec![];
    }
    // Without a driver query there is nothing to compare the bus with.
    let Some(query) = &inv.nvidia.smi_ok else {
        return vec![];
    };
    let gpus = facts::nvidia_gpus(inv, kb);
    let silent: Vec<&GpuView> = gpus
        .iter()
        .filter(|g| g.gpu.is_none())
        .filter(|g| {
            g.pci
                .is_some_and(|p| is_display(&p.class) && p.driver.as_deref() == Some("nvidia"))
        })
        .collect();
    if silent.is_empty() || silence_explained(inv, kb) {
        return vec![];
    }
    let names: Vec<&str> = silent.iter().map(|g| g.label.as_str()).collect();
    let how = match (query.value, &query.note) {
        (false, Some(n)) => format!("the driver query ({}) failed: {n}", query.source),
        (false, None) => format!("the driver query ({}) failed", query.source),
        (true, _) => format!("the driver query ({}) answered without it", query.source),
    };
    let mut f = DRV006.finding(format!(
        "{}: the nvidia driver is bound but {how}, so CUDA cannot use it and no other check could see it.",
        names.join(", ")
    ));
    for g in &silent {
        if let Some(p) = g.pci {
            f = f.evidence(
                format!("PCI {} bound driver", p.address),
                "nvidia",
                &p.source,
            );
        }
        f = g.cite_name(f);
    }
    f = f.evidence(
        "driver query answered",
        match &query.note {
            Some(n) => format!("{} ({n})", query.value),
            None => query.value.to_string(),
        },
        &query.source,
    );
    vec![f.fix_note("Read the kernel log: `sudo dmesg | grep -iE 'NVRM|Xid'`. A hung GPU needs a reset (`sudo nvidia-smi -r -i <index>` with no process on it) or a reboot; a GPU that fell off the bus needs a power cycle.")]
}

pub static DRV007: Rule = Rule {
    code: "DRV007",
    name: "driver-query-failed",
    category: Category::NoDriver,
    severity: Severity::Warning,
    summary: "NVML or nvidia-smi failed or timed out: the facts it gives (GPU list, driver version, CUDA maximum) are missing and the other checks see less.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Whether the driver query the probe ran (NVML, else nvidia-smi) answered. Reported when it failed or timed out and no more specific rule (DRV001 library mismatch, DRV006 a GPU that does not answer) names the cause.",
        why_it_breaks: "Every driver fact (the GPUs, their compute capability and memory, the driver version and its newest CUDA) comes from that query. When it fails, the checks that need those facts are quiet because they are blind, not because all is well.",
        how_to_fix: "Run `nvidia-smi` yourself and read its error; `sudo dmesg | grep -iE 'NVRM|Xid'` shows driver faults. A query that hangs points at a hung GPU or driver: reset the GPU or reboot.",
        sources: &["https://docs.nvidia.com/deploy/nvidia-smi/ (nvidia-smi and its error messages)"],
    },
    check: check_drv007,
    superseded_by: &[],
};

fn check_drv007(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    // A probe records why its query failed; a pasted "failed" line is the observed-error family's.
    let Some(query) = inv
        .nvidia
        .smi_ok
        .as_ref()
        .filter(|f| !f.value && f.note.is_some())
    else {
        return vec![];
    };
    if !check_drv006(inv, kb).is_empty() || !check_drv001(inv, kb).is_empty() {
        return vec![];
    }
    let why = query.note.as_deref().unwrap_or("no answer");
    let f = DRV007
        .finding(format!(
            "The driver query ({}) failed: {why}. The GPU facts it gives are missing, so the other checks could not see them.",
            query.source
        ))
        .evidence("driver query answered", format!("false ({why})"), &query.source);
    vec![f.fix_note("Run `nvidia-smi` and read its error; `sudo dmesg | grep -iE 'NVRM|Xid'` shows driver faults. A query that hangs points at a hung GPU or driver: reset the GPU or reboot.")]
}

pub static DRV008: Rule = Rule {
    code: "DRV008",
    name: "proprietary-module-on-open-only-gpu",
    category: Category::DriverBranch,
    severity: Severity::Error,
    summary: "The proprietary kernel module drives a GPU that only the open kernel modules support (Blackwell).",
    semantics: &[],
    docs: Docs {
        what_it_checks: "The kernel module's flavour (the `Open Kernel Module` tag of /proc/driver/nvidia/version, or as a report states it) against each NVIDIA GPU's architecture: the `architectures` table marks the ones only the open kernel modules support (`open_module_only`).",
        why_it_breaks: "NVIDIA supports Blackwell GPUs (and Grace Hopper) with the open GPU kernel modules only; the proprietary flavour of the same release does not drive them. The driver loads, but nvidia-smi says 'No devices were found', CUDA sees no device and a Kubernetes device plugin advertises no GPU.",
        how_to_fix: "Install the open flavour of the same driver release: on Ubuntu `sudo apt install nvidia-driver-<branch>-open` (NVIDIA's repository: `nvidia-open`), with the .run installer `--kernel-module-type=open`. A node image that picks the flavour from a list of device IDs needs this GPU's ID on that list. Reboot (or unload and reload the modules) afterwards.",
        sources: &[
            "https://developer.nvidia.com/blog/nvidia-transitions-fully-towards-open-source-gpu-kernel-modules/ (Grace Hopper and Blackwell must use the open kernel modules)",
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html (the two flavours)",
        ],
    },
    check: check_drv008,
    superseded_by: &[],
};

/// The architecture row that says only the open modules drive this GPU: its
/// own row, or, for a GPU known only by its family (`Blackwell`), the
/// family's discrete rows when every one of them says so.
fn open_only_row<'a>(
    g: &GpuView<'a>,
    kb: &'a Kb,
) -> Option<&'a crate::kb::tables::ArchitectureRow> {
    if let Some(a) = g.arch {
        return a.open_module_only.then_some(a);
    }
    let family = g.architecture.as_ref()?.value.as_str();
    let rows: Vec<_> = kb
        .architectures
        .row
        .iter()
        .filter(|r| !r.integrated && r.name.split([' ', '(']).next() == Some(family))
        .collect();
    (!rows.is_empty() && rows.iter().all(|r| r.open_module_only)).then(|| rows[0])
}

fn check_drv008(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(flavor) = inv
        .nvidia
        .module_flavor
        .as_ref()
        .filter(|f| f.value == crate::inventory::ModuleFlavor::Proprietary)
    else {
        return vec![];
    };
    let mut out = Vec::new();
    for g in facts::nvidia_gpus(inv, kb) {
        let Some(row) = open_only_row(&g, kb) else {
            continue;
        };
        let arch = g
            .architecture
            .as_ref()
            .map_or(row.name.as_str(), |a| a.value.as_str());
        let mut f = DRV008
            .finding(format!(
                "{} is a {arch} GPU, which only the open NVIDIA kernel modules drive; the proprietary module is loaded, so the driver sees no usable GPU here.",
                g.label
            ))
            .evidence("kernel module flavour", "proprietary", &flavor.source);
        if let Some(a) = &g.architecture {
            f = f.evidence("GPU architecture", &a.value, &a.source);
        }
        let f = g.cite_cc(g.cite_name(f)).kb(row.kb());
        out.push(f.fix_note("Install the open flavour of the same release: `sudo apt install nvidia-driver-<branch>-open` (NVIDIA's repository: `nvidia-open`), or the .run installer with `--kernel-module-type=open`; where a node image picks the flavour from a device-ID list, add this GPU's ID to it. Then reboot."));
    }
    out
}

pub static DRV009: Rule = Rule {
    code: "DRV009",
    name: "driver-holds-torch-back",
    category: Category::DriverTooOld,
    severity: Severity::Warning,
    summary: "No torch is installed, and the driver is too old for the newest torch builds: `pip install torch` gives a wheel it cannot run; the finding names the newest that runs.",
    semantics: &[CompatSemantic::Toolkit, CompatSemantic::MinorVersion],
    docs: Docs {
        what_it_checks: "With a known driver and no torch installed (in any environment read), the newest torch release in the knowledge base with kernels for these GPUs against the newest one whose CUDA variants this driver runs (natively or under minor-version compatibility). Quiet when the driver is on the last branch that drives a GPU here (DRV005/ARCH003 name that), when a GPU is newer than the driver (DRV004), and when a torch is installed (RUN001 judges the real one). In a pasted report, which names no torch, it is an info finding: advice for the next install, not the cause of what the report shows.",
        why_it_breaks: "Each torch release ships builds for a few CUDA versions only, and its default wheel for the newest. A driver whose newest CUDA is below every variant of the current release cannot start any of them: `torch.cuda.is_available()` is False (or CUDA error 35), while an older torch would run.",
        how_to_fix: "Upgrade the driver to the minimum the finding names (the production branch of the newest CUDA is the lasting fix), or install the newest torch this driver runs, with its wheel index (the finding gives the command).",
        sources: &[
            "https://docs.nvidia.com/deploy/cuda-compatibility/ (a CUDA runtime needs a driver of its major, minor-version compatibility within it)",
            "https://pytorch.org/get-started/previous-versions/ (CUDA variants per torch release)",
        ],
    },
    check: check_drv009,
    superseded_by: &[],
};

fn check_drv009(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(drv) = facts::driver(inv) else {
        return vec![];
    };
    if facts::is_macos(inv) || facts::in_container(inv) {
        return vec![];
    }
    let torch_installed = inv
        .python
        .iter()
        .any(|e| e.package("torch").is_some() || e.torch.is_some());
    if torch_installed {
        return vec![];
    }
    let lim = crate::plan::fit::Limits::of(inv, kb);
    // A GPU newer than the driver (DRV004) is the driver's first problem.
    if lim.cuda_max.is_none() || lim.on_last_branch() || !check_drv004(inv, kb).is_empty() {
        return vec![];
    }
    let unbound = crate::plan::fit::Limits {
        driver: None,
        cuda_max: None,
        cuda_max_minor: None,
        ..lim.clone()
    };
    use crate::plan::fit::Runs;
    use fix::KernelFit;
    // With no GPU known, a release is judged by the driver alone.
    let fits = |f: KernelFit| match f {
        KernelFit::Sass | KernelFit::Ptx => true,
        KernelFit::NoGpus | KernelFit::Unverified => lim.ccs.is_empty(),
        KernelFit::None => false,
    };
    let (Some(newest), Some(here)) = (
        fix::newest_release_such_that(kb, &unbound, |_, f| fits(f)),
        fix::newest_release_such_that(kb, &lim, |r, f| {
            matches!(r, Runs::Toolkit | Runs::MinorCompat) && fits(f)
        }),
    ) else {
        return vec![];
    };
    if newest.release == here.release {
        return vec![];
    }
    let Some(row) = kb.torch_release(&newest.release) else {
        return vec![];
    };
    // The lowest CUDA the newest release is built for, and the driver it needs.
    let Some(lowest) = row
        .cuda_variants
        .iter()
        .flatten()
        .filter_map(|v| v.parse::<crate::version::CudaVersion>().ok())
        .min()
    else {
        return vec![];
    };
    let os = facts::driver_os(inv);
    let need = kb.min_driver_for_cuda(&lowest, os, crate::kb::Semantic::MinorCompat);
    let need_text = need
        .as_ref()
        .map(|m| format!(", which needs driver {} or newer", m.driver))
        .unwrap_or_default();
    let mut f = DRV009
        .finding(format!(
            "Driver {} ({}) is too old for the newest torch: torch {}'s lowest build is for CUDA {}{need_text}, so `pip install torch` gives a wheel this driver cannot run. The newest torch known to run here is {}+{}.",
            drv.value,
            drv.value.branch_name(),
            newest.release,
            lowest.major_minor(),
            here.release,
            here.variant
        ))
        .fact("driver version", drv);
    if let Some(c) = facts::driver_cuda_max(inv, kb) {
        f = f.evidence("driver's newest CUDA", c.value, &c.source);
    }
    f = f.kb(row.kb());
    if let Some(m) = &need {
        f = f.kb(m.kb.clone());
    }
    for k in &here.kb {
        f = f.kb(k.clone());
    }
    let cmd = format!(
        "pip install {} --index-url {}",
        here.requirements(),
        here.index_url()
    );
    let note = match &need {
        Some(m) => format!(
            "or upgrade the driver to {} or newer for torch {}",
            m.driver, newest.release
        ),
        None => format!("or upgrade the driver for torch {}", newest.release),
    };
    // A pasted report that names no torch is about something else: this is
    // advice for the next install, not the cause of what the report shows.
    super::lower_in_a_paste(
        inv,
        &mut f,
        Severity::Info,
        "The report names no torch: this is advice for the next install, not the cause of what it shows.",
    );
    vec![f.fix_command(cmd, Some(note))]
}

/// The driver is on the last branch that drives some GPU here (a K80 on
/// R470): no supported branch is a fix. Name the branch, the choices, and
/// the newest torch that still has kernels for these GPUs on this driver.
fn last_branch_fix(inv: &Inventory, kb: &Kb, drv: &DriverVersion, f: &mut Finding) -> Option<Fix> {
    let lim = crate::plan::fit::Limits::of(inv, kb);
    if !lim.on_last_branch() {
        return None;
    }
    let last = lim.last_branch?;
    let gpus = facts::nvidia_gpus(inv, kb);
    let held: Vec<&GpuView> = gpus
        .iter()
        .filter(|g| g.last_branch() == Some(last))
        .collect();
    for g in &held {
        if let Some(a) = g.arch {
            *f = f.clone().kb(a.kb());
        }
        *f = g.cite_cc(f.clone());
    }
    let names: Vec<String> = held
        .iter()
        .map(|g| match g.arch {
            Some(a) => format!("{} ({})", g.label, a.name),
            None => g.label.clone(),
        })
        .collect();
    let sms: Vec<String> = lim.ccs.iter().map(|c| c.sm()).collect();
    let torch = match fix::newest_fitting_release(kb, None, &lim, None) {
        Some(p) => {
            let provenance = kb
                .torch_arch(&p.release, &p.variant)
                .map_or(Some("build scripts"), |r| r.arch_provenance());
            for k in &p.kb {
                *f = f.clone().kb(k.clone());
            }
            format!(
                " The newest torch in the knowledge base with kernels for {} that runs on driver {drv} is torch {}+{} (`pip install torch=={} --index-url {}`{}).",
                sms.join(", "),
                p.release,
                p.variant,
                p.release,
                p.index_url(),
                provenance
                    .map(|p| format!("; its arch list is from {p}, not verified against the wheel"))
                    .unwrap_or_default()
            )
        }
        None => format!(
            " No torch release in the knowledge base is known to have kernels for {} and run on driver {drv}.",
            sms.join(", ")
        ),
    };
    Some(Fix::from_note(format!(
            "R{last} is the last driver branch for {}: every newer branch has dropped it, so no supported branch is a fix. The choices: stay on R{last} past its end of life, or replace the GPU.{torch}",
            names.join(", ")
        )))
}
