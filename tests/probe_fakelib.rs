//! NVML and libcuda loading against fake libraries compiled by the test:
//! what they answer reaches the Inventory with its source; init errors,
//! stub libraries and hangs become observed errors and notes.

mod common;
#[path = "fakelib/mod.rs"]
mod fakelib;

use std::time::{Duration, Instant};

use gpucompat::inventory::{ErrorKind, Inventory};
use gpucompat::kb::Kb;
use gpucompat::probe::{probe, ProbeOptions, Timeouts};
use gpucompat::system::Host;

fn run(root: &std::path::Path, allow: bool, library_timeout: Duration) -> Inventory {
    let opts = ProbeOptions {
        allow_root_code: allow,
        timeouts: Timeouts {
            command: Duration::from_secs(5),
            library: library_timeout,
        },
        ..Default::default()
    };
    probe(&Host::new(root), Kb::embedded(), &opts)
}

#[test]
fn nvml_answers_every_gpu_and_libcuda_gives_the_cuda_version() {
    let root = fakelib::root("550.54.14", &[], &["FAKE_CUDA_VERSION=12050"]);
    let inv = run(root.path(), true, Duration::from_secs(10));
    let nv = &inv.nvidia;
    let d = nv.driver_version.as_ref().expect("driver version");
    assert_eq!(
        (d.value.to_string().as_str(), d.source.as_str()),
        ("550.54.14", "NVML")
    );
    // libcuda's cuDriverGetVersion wins over NVML's 12040.
    let c = nv.cuda_max.as_ref().expect("cuda max");
    assert_eq!(c.value.to_string(), "12.5");
    assert_eq!(c.source, "libcuda cuDriverGetVersion");
    assert_eq!(nv.smi_ok.as_ref().map(|f| f.value), Some(true));
    assert_eq!(inv.gpus.len(), 2);
    let g = &inv.gpus[1];
    assert_eq!(g.index, 1);
    assert_eq!(g.name.as_ref().unwrap().value, "NVIDIA GeForce RTX 4090");
    assert_eq!(
        g.compute_capability.as_ref().unwrap().value.to_string(),
        "8.9"
    );
    assert_eq!(g.compute_capability.as_ref().unwrap().source, "NVML");
    assert_eq!(g.memory_mib.as_ref().unwrap().value, 24564);
    assert_eq!(g.brand.as_ref().unwrap().value, "geforce");
    assert_eq!(g.pci_bus_id.as_ref().unwrap().value, "00000000:02:00.0");
    assert_eq!(g.persistence.as_ref().map(|f| f.value), Some(true));
    assert!(g.mig.is_none(), "MIG is not supported on the fake GeForce");
    assert_eq!(g.architecture.as_ref().unwrap().value, "Ada");
    assert!(inv.fabric.nvlink_active.is_none());
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // The fake root has no /sys: only the PCI scan may say it could not look.
    assert!(
        inv.notes
            .iter()
            .all(|n| n.subject == "/sys/bus/pci/devices"),
        "{:?}",
        inv.notes
    );
}

#[test]
fn libraries_under_a_root_are_not_loaded_unless_allowed() {
    let root = fakelib::root("550.54.14", &[], &[]);
    let inv = run(root.path(), false, Duration::from_secs(10));
    assert!(inv.gpus.is_empty());
    assert!(inv.nvidia.driver_version.is_none());
    let note = inv
        .notes
        .iter()
        .find(|n| n.subject == "--root")
        .expect("a note naming what was not loaded");
    assert!(note.message.contains("libnvidia-ml.so.1"), "{note:?}");
    assert!(note.message.contains("libcuda.so.1"), "{note:?}");
    // The file names still give the user-mode driver version.
    assert_eq!(
        inv.driver_version().map(|d| d.value.to_string()).as_deref(),
        Some("550.54.14")
    );
}

#[test]
fn version_mismatch_at_init_is_an_observed_error() {
    let root = fakelib::root("550.90.07", &["FAKE_INIT_RC=18"], &[]);
    let inv = run(root.path(), true, Duration::from_secs(10));
    let e = inv
        .errors
        .iter()
        .find(|e| e.kind == ErrorKind::NvmlDriverLibraryMismatch)
        .expect("mismatch error");
    assert_eq!(e.code, Some(18));
    assert!(e.text.contains("Driver/library version mismatch"), "{e:?}");
    assert_eq!(inv.nvidia.smi_ok.as_ref().map(|f| f.value), Some(false));
    assert!(inv.gpus.is_empty());
    // libcuda still answered.
    assert_eq!(
        inv.nvidia
            .cuda_max
            .as_ref()
            .map(|c| c.value.to_string())
            .as_deref(),
        Some("12.4")
    );
}

#[test]
fn a_hanging_nvml_init_is_abandoned_at_its_timeout() {
    let root = fakelib::root("550.54.14", &["FAKE_HANG_INIT=1"], &[]);
    let t = Instant::now();
    let inv = run(root.path(), true, Duration::from_millis(300));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(inv
        .errors
        .iter()
        .any(|e| e.kind == ErrorKind::Timeout && e.source == "NVML"));
    let ok = inv.nvidia.smi_ok.as_ref().expect("smi_ok");
    assert!(!ok.value);
    assert!(ok.note.as_deref().unwrap_or("").contains("did not answer"));
}

#[test]
fn a_stub_libcuda_is_reported_and_nvml_gives_the_cuda_version() {
    let root = fakelib::root("550.54.14", &[], &["FAKE_CUDA_RC=34"]);
    let inv = run(root.path(), true, Duration::from_secs(10));
    let e = inv
        .errors
        .iter()
        .find(|e| e.kind == ErrorKind::StubLibrary)
        .expect("stub library error");
    assert_eq!(e.code, Some(34));
    assert!(e.text.contains("CUDA_ERROR_STUB_LIBRARY"));
    let c = inv.nvidia.cuda_max.as_ref().unwrap();
    assert_eq!(
        (c.value.to_string().as_str(), c.source.as_str()),
        ("12.4", "NVML")
    );
}

#[test]
fn nvlink_state_comes_from_nvml() {
    let root = fakelib::root(
        "550.54.15",
        &[
            "FAKE_COUNT=8",
            "FAKE_NAME=\"NVIDIA H100 80GB HBM3\"",
            "FAKE_CC_MAJOR=9",
            "FAKE_CC_MINOR=0",
            "FAKE_MEM_MIB=81559ULL",
            "FAKE_BRAND=2",
            "FAKE_NVLINKS=18",
            "FAKE_MIG=0",
        ],
        &[],
    );
    let inv = run(root.path(), true, Duration::from_secs(10));
    assert_eq!(inv.gpus.len(), 8);
    assert_eq!(
        inv.fabric.nvlink_active.as_ref().map(|f| f.value),
        Some(true)
    );
    assert_eq!(inv.gpus[0].brand.as_ref().unwrap().value, "tesla");
    assert_eq!(
        inv.gpus[0].mig.as_ref().map(|m| m.value.enabled),
        Some(false)
    );
    let t = gpucompat::tier::tier(&inv, Kb::embedded());
    assert_eq!(t.level, 5, "{t:?}");
    assert!(t.reason.contains("NVLink"), "{t:?}");
}

#[test]
fn compute_capability_missing_from_nvml_comes_from_the_kb() {
    let root = fakelib::root("550.54.14", &["FAKE_CC_MAJOR=0", "FAKE_COUNT=1"], &[]);
    let inv = run(root.path(), true, Duration::from_secs(10));
    let cc = inv.gpus[0].compute_capability.as_ref().expect("cc from kb");
    assert_eq!(cc.value.to_string(), "8.9");
    assert_eq!(cc.source, "kb gpus: NVIDIA GeForce RTX 4090");
}

#[test]
fn an_unknown_gpu_name_leaves_the_compute_capability_unknown() {
    let root = fakelib::root(
        "550.54.14",
        &[
            "FAKE_CC_MAJOR=0",
            "FAKE_COUNT=1",
            "FAKE_NAME=\"NVIDIA Prototype X9\"",
        ],
        &[],
    );
    let inv = run(root.path(), true, Duration::from_secs(10));
    assert!(inv.gpus[0].compute_capability.is_none());
    assert!(inv
        .notes
        .iter()
        .any(|n| n.message.contains("compute capability unknown")));
}

#[test]
fn card_json_through_the_cli_reads_the_fake_nvml() {
    let root = fakelib::root("550.54.14", &["FAKE_COUNT=1"], &[]);
    let out = common::gpucompat_at_root(root.path(), &["card", "--json"]);
    assert!(out.status.success());
    let inv: Inventory = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(inv.gpus.len(), 1);
    assert_eq!(inv.gpus[0].name.as_ref().unwrap().source, "NVML");
}
