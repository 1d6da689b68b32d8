//! The facts read from real reports of the explain corpus are right, and each
//! cites the line of the pasted file it came from (the files' own line
//! numbers: the front matter counts, as it does when a user runs explain on them).

use std::path::Path;

use gpucompat::ingest;
use gpucompat::inventory::{DriverModel, ErrorKind, Inventory, ModuleFlavor, OsKind};
use gpucompat::kb::Kb;
use gpucompat::version::{ComputeCapability, CudaVersion};

fn read(prefix: &str) -> Inventory {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain");
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{prefix}-"))
        })
        .unwrap_or_else(|| panic!("no fixture {prefix}"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut inv = ingest::ingest(&[("f".to_string(), text)]);
    ingest::enrich(&mut inv, Kb::embedded());
    inv
}

fn kinds(inv: &Inventory) -> Vec<ErrorKind> {
    inv.errors.iter().map(|e| e.kind).collect()
}

fn driver(inv: &Inventory) -> String {
    inv.nvidia
        .driver_version
        .as_ref()
        .unwrap()
        .value
        .to_string()
}

#[test]
fn windows_collect_env_without_cuda_build() {
    let inv = read("01");
    assert_eq!(driver(&inv), "551.86");
    assert_eq!(
        inv.nvidia.driver_version.as_ref().unwrap().source,
        "input line 25"
    );
    assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Windows);
    let t = inv.python[0].torch.as_ref().unwrap();
    assert_eq!(t.version.as_ref().unwrap().value, "2.2.2");
    // With torch present, collect_env prints torch.version.cuda, and its
    // replace_nones turns None into "Could not collect": a CPU build.
    assert_eq!(t.cuda.as_ref().unwrap().value, None);
    assert_eq!(t.cuda.as_ref().unwrap().source, "input line 10");
    assert!(
        !inv.python[0]
            .runtime
            .as_ref()
            .unwrap()
            .cuda_available
            .as_ref()
            .unwrap()
            .value
    );
    assert_eq!(
        inv.gpus[0].name.as_ref().unwrap().value,
        "NVIDIA GeForce RTX 4080 Laptop GPU"
    );
    assert_eq!(inv.toolkits[0].version.value.to_string(), "12.4.99");
}

#[test]
fn not_compiled_with_cuda_next_to_a_wddm_box() {
    let inv = read("02");
    let t = inv.python[0].torch.as_ref().unwrap();
    assert_eq!(t.cuda.as_ref().unwrap().value, None);
    assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Windows);
    assert_eq!(
        inv.gpus[0].driver_model.as_ref().unwrap().value,
        DriverModel::Wddm
    );
    assert_eq!(
        inv.gpus[0].compute_capability.as_ref().unwrap().value,
        ComputeCapability::new(7, 5)
    );
    assert_eq!(kinds(&inv), [ErrorKind::TorchNotCompiledWithCuda]);
}

#[test]
fn found_version_and_banner_agree() {
    let inv = read("04");
    assert_eq!(driver(&inv), "470.86");
    let cuda = inv.nvidia.cuda_max.as_ref().unwrap();
    assert_eq!(cuda.value, CudaVersion::new(11, 4));
    // Both the torch error (line 7) and the cut-off banner (line 12) say 11.4.
    assert_eq!(cuda.source, "input line 7");
    assert!(inv.notes.is_empty(), "{:?}", inv.notes);
}

#[test]
fn old_collect_env_with_eight_gpus() {
    let inv = read("05");
    assert_eq!(inv.gpus.len(), 8);
    assert_eq!(driver(&inv), "410.48");
    let t = inv.python[0].torch.as_ref().unwrap();
    assert_eq!(
        t.cuda.as_ref().unwrap().value.unwrap().major_minor(),
        CudaVersion::new(10, 1)
    );
    assert_eq!(inv.toolkits[0].version.value.to_string(), "10.0.130");
}

#[test]
fn sm_120_report() {
    let inv = read("08");
    assert_eq!(
        inv.gpus[0].compute_capability.as_ref().unwrap().value,
        ComputeCapability::new(12, 0)
    );
    let al = inv.python[0]
        .torch
        .as_ref()
        .unwrap()
        .arch_list
        .as_ref()
        .unwrap();
    assert_eq!(al.value.len(), 7);
    assert_eq!(al.value.last().unwrap().to_string(), "sm_90");
}

#[test]
fn nvml_library_version() {
    let inv = read("13");
    assert_eq!(
        inv.nvidia.user_libraries[0].version.value.to_string(),
        "570.124"
    );
    assert!(!inv.nvidia.smi_ok.as_ref().unwrap().value);
    assert!(kinds(&inv).contains(&ErrorKind::NvmlDriverLibraryMismatch));
}

#[test]
fn wsl_banner_with_err() {
    let inv = read("20");
    assert!(inv.wsl.is_wsl.as_ref().unwrap().value);
    assert_eq!(driver(&inv), "546.80");
    // Not read from the report: at most the knowledge base's value for the driver.
    assert!(inv
        .nvidia
        .cuda_max
        .as_ref()
        .map_or(true, |c| gpucompat::kb::resolve::is_kb_source(&c.source)));
    // "Microsoft Windows [Version ...]" in a WSL template is the host, not this system.
    assert!(inv.os.kind.is_none());
    // A cut-off name is not resolved when the rows it could be disagree.
    let g = &inv.gpus[0];
    assert_eq!(
        g.name.as_ref().unwrap().value,
        "NVIDIA GeForce RTX 3060 ..."
    );
}

#[test]
fn wsl_kernel_line() {
    let inv = read("21");
    assert!(inv.wsl.is_wsl.as_ref().unwrap().value);
    assert_eq!(
        inv.os.kernel.as_ref().unwrap().value,
        "5.15.167.4-microsoft-standard-WSL2"
    );
    assert!(kinds(&inv).contains(&ErrorKind::NoDevice));
}

#[test]
fn nvidia_smi_q_and_docker() {
    let inv = read("22");
    assert_eq!(driver(&inv), "451.67");
    assert_eq!(
        inv.nvidia.cuda_max.as_ref().unwrap().value,
        CudaVersion::new(11, 0)
    );
    assert_eq!(inv.container.runtime.as_ref().unwrap().value, "docker");
    assert_eq!(kinds(&inv), [ErrorKind::ContainerNoGpuRuntime]);
}

#[test]
fn requirement_error_inside_escaped_json() {
    let inv = read("23");
    assert_eq!(inv.env["NVIDIA_REQUIRE_CUDA"].value, "cuda>=10.2");
    assert_eq!(kinds(&inv), [ErrorKind::ContainerRequirementUnsatisfied]);
}

#[test]
fn host_list_and_container_failure() {
    let inv = read("24");
    assert_eq!(inv.gpus.len(), 4);
    assert_eq!(inv.gpus[2].name.as_ref().unwrap().value, "Tesla T4");
    assert_eq!(driver(&inv), "570.133.20");
    // The container's failure comes first in the paste and is kept.
    assert!(!inv.nvidia.smi_ok.as_ref().unwrap().value);
    assert!(kinds(&inv).contains(&ErrorKind::InitFailed));
}

#[test]
fn macos_from_paths() {
    for f in ["26", "27"] {
        let inv = read(f);
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Macos, "{f}");
        assert!(
            kinds(&inv).contains(&ErrorKind::TorchNotCompiledWithCuda),
            "{f}"
        );
    }
}

#[test]
fn rocm_facts() {
    let inv = read("29");
    assert_eq!(
        inv.amd.rocm_version.as_ref().unwrap().value,
        "6.1.40093-f61212abc"
    );
    let inv = read("30");
    assert!(inv.amd.amdgpu_loaded.as_ref().unwrap().value);
    assert_eq!(kinds(&inv), [ErrorKind::HipError]);
}

#[test]
fn cudnn_8_wanted_cudnn_9_present() {
    let inv = read("31");
    assert!(!inv.libraries.cudnn.is_empty());
    assert!(inv.libraries.cudnn.iter().all(|l| l.version.value == "9"));
    assert_eq!(kinds(&inv), [ErrorKind::CudnnMissing]);
}

#[test]
fn tensorflow_integer_cudnn_versions() {
    let inv = read("34");
    assert_eq!(inv.libraries.cudnn[0].version.value, "5.0.5");
    assert_eq!(kinds(&inv), [ErrorKind::CudnnVersionMismatch]);
}

#[test]
fn trt_expecting_is_this_device() {
    let inv = read("36");
    assert_eq!(inv.gpus.len(), 2);
    assert_eq!(
        inv.gpus[0].compute_capability.as_ref().unwrap().value,
        ComputeCapability::new(8, 6)
    );
}

#[test]
fn ort_failure_names_the_missing_library() {
    let inv = read("39");
    let k = kinds(&inv);
    assert!(k.contains(&ErrorKind::OrtCudaProviderFailed));
    assert!(k.contains(&ErrorKind::CudnnMissing));
    assert_eq!(inv.toolkits[0].version.value.to_string(), "12.0.140");
}

#[test]
fn cuda_visible_devices_from_python() {
    let inv = read("41");
    assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "-1");
    assert!(kinds(&inv).contains(&ErrorKind::NoDevice));
}

#[test]
fn error_802_with_its_code() {
    let inv = read("43");
    assert!(inv
        .errors
        .iter()
        .all(|e| e.kind == ErrorKind::SystemNotReady && e.code == Some(802)));
}

#[test]
fn mig_uuid_and_ipython() {
    let inv = read("46");
    assert!(inv.env["CUDA_VISIBLE_DEVICES"].value.starts_with("MIG-"));
    let r = inv.python[0].runtime.as_ref().unwrap();
    assert_eq!(r.device_count.as_ref().unwrap().value, 0);
    assert_eq!(inv.libraries.cudnn.len(), 8);
    let inv = read("47");
    let m = |i: usize| inv.gpus[i].mig.as_ref().unwrap().value.instances;
    assert_eq!((m(0), m(1)), (Some(3), Some(1)));
}

#[test]
fn wrapped_toolkit_mismatch() {
    let inv = read("48");
    assert_eq!(inv.toolkits[0].version.value, CudaVersion::new(10, 1));
    let t = inv.python[0].torch.as_ref().unwrap();
    assert_eq!(
        t.cuda.as_ref().unwrap().value,
        Some(CudaVersion::new(11, 3))
    );
    assert!(inv.notes.is_empty(), "{:?}", inv.notes);
}

#[test]
fn legacy_branch_messages() {
    let inv = read("52");
    assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "GeForce GT 710");
    assert_eq!(
        inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
        "535.129.03"
    );
    let inv = read("54");
    assert_eq!(
        inv.nvidia.module_flavor.as_ref().unwrap().value,
        ModuleFlavor::Open
    );
    let pci = &inv.pci[0];
    assert_eq!(
        (pci.device_id.as_str(), pci.driver.as_deref()),
        ("0x1bb3", Some("nvidia"))
    );
}

#[test]
fn tcc_on_windows() {
    let inv = read("56");
    assert_eq!(
        inv.gpus[0].driver_model.as_ref().unwrap().value,
        DriverModel::Tcc
    );
    assert_eq!(
        inv.gpus[1].driver_model.as_ref().unwrap().value,
        DriverModel::Wddm
    );
    assert_eq!(
        inv.gpus[0].compute_capability.as_ref().unwrap().value,
        ComputeCapability::new(6, 0)
    );
}

#[test]
fn kernel_against_dso() {
    let inv = read("57");
    assert_eq!(
        inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
        "470.182.3"
    );
    assert_eq!(
        inv.nvidia.user_libraries[0].version.value.to_string(),
        "520.61.5"
    );
    assert_eq!(
        inv.nvidia.cuda_max.as_ref().unwrap().value,
        CudaVersion::new(11, 8)
    );
}

#[test]
fn working_setups_read_cleanly() {
    let inv = read("60");
    let env = &inv.python[0];
    assert_eq!(
        env.torch.as_ref().unwrap().cuda.as_ref().unwrap().value,
        Some(CudaVersion::new(12, 8))
    );
    assert_eq!(
        inv.gpus[0].compute_capability.as_ref().unwrap().value,
        ComputeCapability::new(12, 0)
    );
    for f in ["59", "61", "62", "63"] {
        let inv = read(f);
        assert!(inv.errors.is_empty(), "{f}: {:?}", inv.errors);
        assert!(inv.notes.is_empty(), "{f}: {:?}", inv.notes);
        let r = inv.python[0].runtime.as_ref().unwrap();
        assert!(r.cuda_available.as_ref().unwrap().value, "{f}");
    }
}

#[test]
fn what_to_run_next() {
    let cmds = |f: &str| -> Vec<String> {
        ingest::missing_facts(&read(f))
            .into_iter()
            .map(|t| t.command)
            .collect()
    };
    // Only the torch error: ask for the driver and the wheel.
    let c = cmds("07");
    assert!(c.iter().any(|c| c == "nvidia-smi"), "{c:?}");
    assert!(c.iter().any(|c| c.contains("torch.version.cuda")), "{c:?}");
    // A full working report needs nothing else.
    assert!(cmds("62").is_empty(), "{:?}", cmds("62"));
    // Error 802: look at the fabric manager.
    assert!(cmds("43")
        .iter()
        .any(|c| c.contains("nvidia-fabricmanager")));
}
