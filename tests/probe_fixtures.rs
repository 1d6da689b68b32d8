//! Every fixture root probed through the library: the key facts of each
//! scenario, with their sources, and what the tier makes of them.

use std::time::{Duration, Instant};

use gpucompat::inventory::{ErrorKind, GpuVendor, Inventory, ModuleFlavor};
use gpucompat::kb::Kb;
use gpucompat::probe::{probe, ProbeOptions, Timeouts};
use gpucompat::system::Host;
use gpucompat::tier::{tier, Tier};

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn probe_with(name: &str, allow: bool, command: Duration) -> Inventory {
    let opts = ProbeOptions {
        allow_root_code: allow,
        timeouts: Timeouts {
            command,
            library: Duration::from_secs(10),
        },
        ..Default::default()
    };
    probe(&Host::new(fixture(name)), Kb::embedded(), &opts)
}

fn fx(name: &str) -> (Inventory, Tier) {
    let inv = probe_with(name, true, Duration::from_secs(5));
    let t = tier(&inv, Kb::embedded());
    (inv, t)
}

fn has_posture(t: &Tier, needle: &str) -> bool {
    t.posture.iter().any(|p| p.contains(needle))
}

#[test]
fn vm_without_gpu() {
    let (inv, t) = fx("vm-no-gpu");
    assert!(
        inv.pci.is_empty(),
        "a QEMU VGA adapter is not a GPU: {:?}",
        inv.pci
    );
    assert!(inv.gpus.is_empty());
    assert_eq!(inv.os.id.as_ref().unwrap().value, "ubuntu");
    assert_eq!(inv.os.kernel.as_ref().unwrap().value, "5.15.0-105-generic");
    assert_eq!(inv.os.secure_boot.as_ref().map(|f| f.value), Some(false));
    assert_eq!(
        inv.nvidia.module_loaded.as_ref().map(|f| f.value),
        Some(false)
    );
    assert_eq!(t.level, 1);
    assert!(t.posture.is_empty(), "{t:?}");
}

#[test]
fn working_geforce_desktop() {
    let (inv, t) = fx("geforce-desktop");
    let nv = &inv.nvidia;
    let k = nv.kernel_module.as_ref().unwrap();
    assert_eq!(k.value.to_string(), "550.54.14");
    assert_eq!(k.source, "/sys/module/nvidia/version");
    assert_eq!(
        nv.module_flavor.as_ref().unwrap().value,
        ModuleFlavor::Proprietary
    );
    let libs: Vec<String> = nv
        .user_libraries
        .iter()
        .map(|l| format!("{} {}", l.name, l.version.value))
        .collect();
    assert_eq!(libs, ["libnvidia-ml 550.54.14", "libcuda 550.54.14"]);
    assert_eq!(inv.gpus.len(), 1);
    let g = &inv.gpus[0];
    assert_eq!(g.name.as_ref().unwrap().value, "NVIDIA GeForce RTX 4090");
    assert_eq!(
        g.compute_capability.as_ref().unwrap().source,
        "nvidia-smi --query-gpu"
    );
    assert_eq!(g.memory_mib.as_ref().unwrap().value, 24564);
    // The Intel iGPU is listed, the NVIDIA audio function (class 0x0403) is not.
    assert_eq!(inv.pci.len(), 2);
    let nvpci: Vec<_> = inv.nvidia_pci().collect();
    assert_eq!(nvpci[0].driver.as_deref(), Some("nvidia"));
    assert_eq!(nvpci[0].name.as_deref(), Some("NVIDIA GeForce RTX 4090"));
    assert!(inv
        .pci
        .iter()
        .any(|d| d.vendor == GpuVendor::Intel && d.driver.as_deref() == Some("i915")));
    assert!(inv.toolkits.iter().any(|t| t.path == "/usr/local/cuda-12.4"
        && t.version.value.to_string() == "12.4.1"
        && t.has_nvcc));
    assert_eq!(inv.libraries.cudnn.len(), 1);
    assert_eq!(inv.libraries.cudnn[0].version.value, "9.1.0");
    assert_eq!(inv.os.secure_boot.as_ref().map(|f| f.value), Some(true));
    assert_eq!(inv.env["LD_LIBRARY_PATH"].value, "/usr/local/cuda/lib64");
    assert_eq!(t.level, 3, "{t:?}");
    assert!(t.posture.is_empty(), "{t:?}");
}

#[test]
fn gpu_on_pci_without_a_module() {
    let (inv, t) = fx("gpu-no-module");
    let d: Vec<_> = inv.nvidia_pci().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].driver, None);
    assert_eq!(d[0].name.as_deref(), Some("NVIDIA GeForce RTX 3060"));
    assert_eq!(
        inv.nvidia.module_loaded.as_ref().map(|f| f.value),
        Some(false)
    );
    assert!(inv.gpus.is_empty());
    assert_eq!(t.level, 2, "{t:?}");
    assert!(t.reason.contains("memory unknown"), "{t:?}");
    assert!(has_posture(&t, "no driver is bound"), "{t:?}");
    assert!(has_posture(&t, "kernel module is not loaded"), "{t:?}");
}

#[test]
fn nouveau_bound() {
    let (inv, t) = fx("nouveau");
    assert_eq!(
        inv.nvidia_pci().next().unwrap().driver.as_deref(),
        Some("nouveau")
    );
    assert_eq!(inv.os.id.as_ref().unwrap().value, "fedora");
    assert_eq!(t.level, 3, "the kb knows the RTX 4090 has 24 GiB: {t:?}");
    assert!(has_posture(&t, "nouveau"), "{t:?}");
}

#[test]
fn kernel_module_and_user_library_out_of_step() {
    let (inv, t) = fx("module-lib-mismatch");
    assert_eq!(
        inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
        "550.54.14"
    );
    assert_eq!(
        inv.nvidia.user_libraries[0].version.value.to_string(),
        "550.90.07"
    );
    let e = inv
        .errors
        .iter()
        .find(|e| e.kind == ErrorKind::NvmlDriverLibraryMismatch)
        .expect("nvidia-smi's mismatch text");
    assert_eq!(e.source, "nvidia-smi");
    assert_eq!(inv.nvidia.smi_ok.as_ref().map(|f| f.value), Some(false));
    assert!(has_posture(&t, "reboot or reload"), "{t:?}");
    assert_eq!(t.level, 3, "RTX A6000, 48 GiB from the kb: {t:?}");
}

#[test]
fn hgx_h100_with_nvswitch_and_no_fabric_manager() {
    let (inv, t) = fx("hgx-h100-nvswitch");
    assert_eq!(inv.gpus.len(), 8);
    assert_eq!(
        inv.nvidia.module_flavor.as_ref().unwrap().value,
        ModuleFlavor::Open
    );
    assert_eq!(inv.fabric.nvswitch_count.as_ref().unwrap().value, 4);
    assert_eq!(
        inv.fabric
            .fabric_manager_installed
            .as_ref()
            .map(|f| f.value),
        Some(false)
    );
    assert_eq!(inv.fabric.infiniband_devices.len(), 4);
    assert_eq!(inv.nvidia_pci().count(), 8, "NVSwitch bridges are not GPUs");
    assert_eq!(inv.libraries.nccl[0].version.value, "2.21.5");
    assert_eq!(t.level, 5, "{t:?}");
    assert!(t.reason.contains("8× NVIDIA H100 80GB HBM3"), "{t:?}");
    assert!(has_posture(&t, "fabric manager is not installed"), "{t:?}");
}

#[test]
fn wsl2() {
    let (inv, t) = fx("wsl2");
    assert_eq!(inv.wsl.is_wsl.as_ref().map(|f| f.value), Some(true));
    assert_eq!(inv.wsl.lib_dir.as_ref().map(|f| f.value), Some(true));
    assert_eq!(
        inv.wsl.libcuda_in_lib_dir.as_ref().map(|f| f.value),
        Some(true)
    );
    assert!(inv.nvidia.kernel_module.is_none());
    // nvidia-smi is not on PATH in WSL; it is found in /usr/lib/wsl/lib.
    assert_eq!(inv.gpus.len(), 1);
    assert_eq!(
        inv.nvidia
            .driver_version
            .as_ref()
            .unwrap()
            .value
            .to_string(),
        "552.22"
    );
    assert!(inv.nvidia.device_nodes.iter().any(|n| n.path == "/dev/dxg"));
    assert_eq!(t.level, 2, "{t:?}");
    assert!(t.posture.is_empty(), "{t:?}");
}

#[test]
fn container_with_gpus() {
    let (inv, t) = fx("container-gpus");
    assert_eq!(inv.container.runtime.as_ref().unwrap().value, "docker");
    assert_eq!(inv.env["NVIDIA_VISIBLE_DEVICES"].value, "all");
    assert_eq!(inv.env["CUDA_VERSION"].value, "12.4.1");
    assert_eq!(
        inv.libraries.cuda_compat.len(),
        1,
        "{:?}",
        inv.libraries.cuda_compat
    );
    assert_eq!(inv.libraries.cuda_compat[0].version.value, "550.54.15");
    assert!(inv.toolkits.iter().all(|t| !t.has_nvcc && t.has_compat));
    // The kb has no CC for the A10G; nvidia-smi said 8.6.
    let cc = inv.gpus[0].compute_capability.as_ref().unwrap();
    assert_eq!(
        (cc.value.to_string().as_str(), cc.source.as_str()),
        ("8.6", "nvidia-smi --query-gpu")
    );
    assert_eq!(t.level, 4, "{t:?}");
    assert!(t.posture.is_empty(), "{t:?}");
}

#[test]
fn container_without_device_nodes() {
    let (inv, t) = fx("container-no-devices");
    assert_eq!(inv.container.runtime.as_ref().unwrap().value, "docker");
    assert!(inv.nvidia.device_nodes.is_empty());
    assert!(inv.nvidia.user_libraries.is_empty());
    assert!(inv.gpus.is_empty());
    assert_eq!(t.level, 4, "{t:?}");
    assert!(has_posture(&t, "no /dev/nvidia*"), "{t:?}");
}

#[test]
fn amd_rocm() {
    let (inv, t) = fx("amd-rocm");
    assert_eq!(inv.amd.amdgpu_loaded.as_ref().map(|f| f.value), Some(true));
    assert_eq!(inv.amd.kfd_present.as_ref().map(|f| f.value), Some(true));
    assert_eq!(inv.amd.rocm_version.as_ref().unwrap().value, "6.1.2-119");
    let gfx: Vec<&str> = inv
        .amd
        .gfx_targets
        .iter()
        .map(|f| f.value.as_str())
        .collect();
    assert_eq!(gfx, ["gfx1100"]);
    assert_eq!(inv.pci[0].vram_mib, Some(24560));
    assert_eq!(inv.env["HIP_VISIBLE_DEVICES"].value, "0");
    assert_eq!(t.level, 3, "{t:?}");
}

#[test]
fn cuda_visible_devices_empty() {
    let (inv, t) = fx("cuda-visible-empty");
    assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "");
    assert_eq!(
        inv.gpus.len(),
        1,
        "nvidia-smi is not filtered by CUDA_VISIBLE_DEVICES"
    );
    assert_eq!(t.level, 2, "{t:?}");
    assert!(has_posture(&t, "hides every GPU"), "{t:?}");
}

#[test]
fn several_toolkits_side_by_side() {
    let (inv, _) = fx("multi-toolkit");
    let mut v: Vec<String> = inv
        .toolkits
        .iter()
        .map(|t| format!("{} {}", t.path, t.version.value))
        .collect();
    v.sort();
    assert_eq!(
        v,
        [
            "/usr 11.5.119",
            "/usr/local/cuda 12.4.1",
            "/usr/local/cuda-10.2 10.2.89",
            "/usr/local/cuda-11.8 11.8.0",
            "/usr/local/cuda-12.1 12.1.1",
            "/usr/local/cuda-12.4 12.4.1",
        ]
    );
    let usr = inv.toolkits.iter().find(|t| t.path == "/usr").unwrap();
    assert!(usr
        .version
        .note
        .as_deref()
        .unwrap()
        .contains("first on PATH"));
    assert_eq!(usr.version.source, "/usr/bin/nvcc --version");
    let link = inv
        .toolkits
        .iter()
        .find(|t| t.path == "/usr/local/cuda")
        .unwrap();
    assert!(link
        .version
        .note
        .as_deref()
        .unwrap()
        .contains("links to cuda-12.4"));
    let cudnn: Vec<&str> = inv
        .libraries
        .cudnn
        .iter()
        .map(|l| l.version.value.as_str())
        .collect();
    assert_eq!(cudnn.len(), 2, "{cudnn:?}");
    assert!(cudnn.contains(&"8.9.7") && cudnn.contains(&"9.1.0"));
    assert_eq!(inv.env["CUDA_HOME"].value, "/usr/local/cuda-12.1");
}

#[test]
fn a_hanging_nvidia_smi_is_killed_and_the_probe_finishes() {
    let t0 = Instant::now();
    let inv = probe_with("smi-hangs", true, Duration::from_millis(300));
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    let ok = inv.nvidia.smi_ok.as_ref().expect("smi_ok");
    assert!(!ok.value);
    assert!(ok.note.as_deref().unwrap().contains("timed out"));
    assert!(inv
        .errors
        .iter()
        .any(|e| e.kind == ErrorKind::Timeout && e.source == "nvidia-smi"));
    // The rest of the inventory is there.
    assert_eq!(
        inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
        "550.54.14"
    );
    assert_eq!(tier(&inv, Kb::embedded()).level, 3);
}

#[test]
fn odd_files_degrade_to_notes() {
    let (inv, _) = fx("odd-files");
    let notes: Vec<String> = inv
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.subject, n.message))
        .collect();
    let has = |s: &str| notes.iter().any(|n| n.contains(s));
    assert!(has("/etc/os-release: not valid UTF-8"), "{notes:#?}");
    assert!(has("/sys/module/nvidia/version: unreadable"), "{notes:#?}");
    assert!(has("/usr/local/cuda-12.2/version.json"), "{notes:#?}");
    assert!(
        has("/usr/local/cuda-12.2: looks like a CUDA toolkit"),
        "{notes:#?}"
    );
    // Facts still read around the damage.
    let pretty = &inv.os.pretty_name.as_ref().unwrap().value;
    assert!(pretty.starts_with("Distribuci") && pretty.ends_with("Linux 1.0"));
    let k = inv.nvidia.kernel_module.as_ref().unwrap();
    assert_eq!(
        (k.value.to_string().as_str(), k.source.as_str()),
        ("535.104.05", "/proc/driver/nvidia/version")
    );
    assert!(inv.toolkits.is_empty());
}

#[test]
fn unpacked_image_without_proc_or_sys() {
    let (inv, t) = fx("unpacked-image");
    assert!(inv.os.kernel.is_none());
    let arch = inv.os.arch.as_ref().unwrap();
    assert_eq!(arch.value, "x86_64");
    assert!(arch.source.ends_with("ld-linux-x86-64.so.2"), "{arch:?}");
    assert_eq!(inv.os.glibc.as_ref().unwrap().value, "2.34");
    assert_eq!(inv.libraries.cudnn.len(), 1, "{:?}", inv.libraries.cudnn);
    assert_eq!(inv.libraries.tensorrt[0].version.value, "10.3.0");
    assert!(inv.env.is_empty());
    assert_eq!(t.level, 1);
}

#[test]
fn programs_under_a_root_run_only_when_allowed() {
    let inv = probe_with("geforce-desktop", false, Duration::from_secs(5));
    assert!(inv.gpus.is_empty());
    let note = inv
        .notes
        .iter()
        .find(|n| n.subject == "--root")
        .expect("note");
    assert!(note.message.contains("nvidia-smi"), "{note:?}");
    assert!(
        note.message.contains("GPUCOMPAT_ALLOW_ROOT_CODE=1"),
        "{note:?}"
    );
    let allowed = probe_with("geforce-desktop", true, Duration::from_secs(5));
    assert_eq!(allowed.gpus.len(), 1);
    assert!(allowed.notes.iter().all(|n| n.subject != "--root"));
}

#[test]
fn paths_in_notes_never_show_where_the_root_lies() {
    for name in ["geforce-desktop", "odd-files", "module-lib-mismatch"] {
        let inv = probe_with(name, true, Duration::from_secs(5));
        for n in &inv.notes {
            assert!(!n.message.contains("tests/fixtures"), "{name}: {n:?}");
        }
    }
}
