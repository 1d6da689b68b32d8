//! Driver family, platform posture and the observed-error family.

mod rules_common;

use gpucompat::finding::{Category, Severity};
use gpucompat::inventory::ErrorKind;
use rules_common::*;

#[test]
fn secure_boot_is_named_as_the_likely_cause() {
    let inv = B::linux()
        .pci_nvidia("0x2204", None)
        .with(|i| {
            i.nvidia.module_loaded = f(false, "/sys/module/nvidia");
            i.os.secure_boot = f(
                true,
                "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
            );
        })
        .build();
    let e = fired(&inv, "DRV002");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].message.contains("Secure Boot is on"),
        "{}",
        e[0].message
    );
    assert!(e[0].evidence.iter().any(|x| x.fact == "Secure Boot"));
    assert!(e[0]
        .fix
        .as_ref()
        .unwrap()
        .note
        .as_deref()
        .unwrap()
        .contains("mokutil"));
}

#[test]
fn vfio_is_a_warning_and_several_gpus_make_one_finding() {
    let inv = B::linux()
        .driver("535.104.05", Some("12.2"))
        .pci_nvidia("0x2204", Some("vfio-pci"))
        .pci_nvidia("0x2204", Some("vfio-pci"))
        .build();
    let w = fired(&inv, "DRV002");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].severity, Severity::Warning);
    assert_eq!(
        w[0].evidence
            .iter()
            .filter(|e| e.fact.ends_with("bound driver"))
            .count(),
        2
    );
}

#[test]
fn driver_library_mismatch_in_a_container_blames_the_image() {
    let inv = B::linux()
        .container("docker")
        .driver("550.54.14", None)
        .with(|i| {
            i.nvidia.user_libraries[0].version = gpucompat::inventory::Fact::new(
                "535.104.05".parse().unwrap(),
                "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05",
            );
        })
        .build();
    let e = fired(&inv, "DRV001");
    assert!(e[0].fix.as_ref().unwrap().command.is_none());
    assert!(e[0].message.contains("container"));
}

#[test]
fn unreadable_device_nodes_are_a_warning() {
    let inv = B::linux()
        .driver("535.104.05", None)
        .with(|i| {
            i.nvidia.smi_ok = f(false, "nvidia-smi");
            for n in &mut i.nvidia.device_nodes {
                n.readable = false;
            }
        })
        .build();
    let w = fired(&inv, "DRV003");
    assert_eq!(w[0].severity, Severity::Warning);
}

#[test]
fn a_gpu_the_driver_does_not_know_is_not_also_reported_as_unbound() {
    let inv = firing("DRV004");
    assert!(fired(&inv, "DRV002").is_empty(), "{:?}", codes(&inv));
}

#[test]
fn an_lts_branch_on_a_datacenter_gpu_is_fine_and_end_of_life_is_not() {
    let ok = B::linux()
        .driver("580.65.06", Some("13.0"))
        .gpu("NVIDIA H100 80GB HBM3")
        .build();
    assert!(fired(&ok, "DRV005").is_empty());
    let eol = B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA H100 80GB HBM3")
        .build();
    let w = fired(&eol, "DRV005");
    assert!(w[0].message.contains("end of life"), "{}", w[0].message);
    // A Kubernetes node counts even with a GeForce GPU.
    let k8s = B::linux()
        .driver("560.35.03", Some("12.6"))
        .gpu("NVIDIA GeForce RTX 4090")
        .with(|i| i.container.kubernetes = f(true, "KUBERNETES_SERVICE_HOST"))
        .build();
    assert_eq!(fired(&k8s, "DRV005").len(), 1);
}

#[test]
fn a_branch_older_than_an_ended_lts_branch_has_ended_too() {
    // R510 (PB) has no end of life in the table, but R535 (LTSB) has passed its own.
    let old = B::linux()
        .driver("510.85.02", Some("11.6"))
        .gpu("NVIDIA A100-SXM4-80GB")
        .build();
    let w = fired(&old, "DRV005");
    assert_eq!(w.len(), 1, "{:?}", codes(&old));
    assert!(w[0].message.contains("older than R535"), "{}", w[0].message);
    // Near miss: R580 (LTSB, end of life 2028-06) is newer than every ended LTS branch.
    let newer = B::linux()
        .driver("580.95.05", Some("13.0"))
        .gpu("NVIDIA A100-SXM4-80GB")
        .build();
    assert!(fired(&newer, "DRV005").is_empty(), "{:?}", codes(&newer));
}

#[test]
fn a_branch_with_no_kind_is_still_past_an_ended_lts_branch() {
    // R410 has a row but no kind and no end-of-life month; R418 (LTSB) ended 2022-03.
    let old = B::linux()
        .driver("410.104", Some("10.0"))
        .gpu("Tesla V100-SXM2-16GB")
        .build();
    let w = fired(&old, "DRV005");
    assert_eq!(w.len(), 1, "{:?}", codes(&old));
    assert!(w[0].message.contains("older than R418"), "{}", w[0].message);
    assert!(!w[0].message.contains("new-feature"), "{}", w[0].message);
}

#[test]
fn macos_with_only_env_vars_is_a_warning() {
    let inv = B::macos().env_var("CUDA_VISIBLE_DEVICES", "0").build();
    let w = fired(&inv, "PLAT001");
    assert_eq!(w[0].severity, Severity::Warning);
    // The 'not compiled with CUDA' error on a Mac is explained by PLAT001, not ERR005.
    let inv = B::macos()
        .torch("2.5.1", None)
        .error(
            ErrorKind::TorchNotCompiledWithCuda,
            "AssertionError: Torch not compiled with CUDA enabled",
        )
        .build();
    let found = run(&inv);
    assert!(found
        .iter()
        .any(|f| f.code == "PLAT001" && f.severity == Severity::Error));
    assert!(found.iter().all(|f| f.code != "ERR005"));
}

#[test]
fn no_accelerator_needs_a_probe_and_nothing_nvidia() {
    assert_eq!(codes(&B::linux().build()), vec!["PLAT007"]);
    let inv = B::linux().driver("535.104.05", None).build();
    assert!(fired(&inv, "PLAT007").is_empty());
    assert!(fired(&amd(B::linux()).build(), "PLAT007").is_empty());
    assert!(fired(&B::macos().build(), "PLAT007").is_empty());
    let mut degraded = B::linux().build();
    degraded.note("pci", "/sys/bus/pci/devices: permission denied");
    assert!(fired(&degraded, "PLAT007").is_empty());
}

#[test]
fn an_error_alone_gives_its_meaning_and_what_to_run() {
    let inv = pasted(
        ErrorKind::CompatNotSupported,
        "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
    );
    let e = fired(&inv, "ERR003");
    assert_eq!(e[0].category, Category::DriverTooOld);
    assert!(e[0].message.contains("forward compatibility"));
    assert!(e[0].message.contains("To be sure, run:"));
    // Several errors of a kind make one finding with each as evidence.
    let inv = B(inv)
        .error(
            ErrorKind::CompatNotSupported,
            "cudaErrorCompatNotSupportedOnDevice",
        )
        .build();
    assert_eq!(fired(&inv, "ERR003")[0].evidence.len(), 2);
    // Errors the catalog treats as noise make no finding.
    assert!(run(&pasted(ErrorKind::Other, "Segmentation fault")).is_empty());
}

#[test]
fn no_device_inside_wsl_is_the_windows_drivers_and_not_a_missing_linux_driver() {
    let inv = B::wsl()
        .error(ErrorKind::NoDevice, "No devices were found")
        .build();
    let w = fired(&inv, "PLAT008");
    assert_eq!(w.len(), 1, "{:?}", codes(&inv));
    assert_eq!(w[0].category, Category::Wsl);
    assert!(fired(&inv, "ERR006").is_empty(), "{:?}", codes(&inv));
    // Near miss: WSL without libcuda is PLAT003's, and PLAT008 stays quiet.
    let no_lib = B::wsl()
        .with(|i| i.wsl.libcuda_in_lib_dir = f(false, "/usr/lib/wsl/lib"))
        .error(ErrorKind::NoDevice, "No devices were found")
        .build();
    assert!(fired(&no_lib, "PLAT008").is_empty(), "{:?}", codes(&no_lib));
    assert_eq!(fired(&no_lib, "PLAT003").len(), 1);
    // Near miss: the same error on plain Linux is ERR006's.
    let linux = B::linux()
        .error(ErrorKind::NoDevice, "No devices were found")
        .build();
    assert!(fired(&linux, "PLAT008").is_empty());
    assert_eq!(fired(&linux, "ERR006").len(), 1);
}

#[test]
fn a_gpu_on_the_bus_that_the_driver_does_not_answer_for_is_an_error() {
    let e = fired(
        &hung_4090(Some("timed out after 5.0 s and was killed")),
        "DRV006",
    );
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].severity, Severity::Error);
    assert!(e[0].message.contains("timed out"), "{}", e[0].message);
    assert!(e[0].message.contains("RTX 4090"), "{}", e[0].message);
    // The more specific finding stands alone: no second word about the same query.
    assert!(fired(&hung_4090(None), "DRV007").is_empty());
}

#[test]
fn a_gpu_the_driver_lists_or_a_query_never_run_is_no_silence() {
    // Listed by NVML: nothing silent.
    let listed = B::linux()
        .driver("550.54.14", Some("12.4"))
        .gpu("NVIDIA GeForce RTX 4090")
        .build();
    assert!(fired(&listed, "DRV006").is_empty());
    // No driver query ran at all (an unpacked image): nothing to compare the bus with.
    let mut unqueried = hung_4090(None);
    unqueried.nvidia.smi_ok = None;
    assert!(fired(&unqueried, "DRV006").is_empty());
    // Inside a container the host's other GPUs are on the bus: not this rule's business.
    let mut contained = hung_4090(None);
    contained.container.runtime = f("docker".into(), "/.dockerenv");
    assert!(fired(&contained, "DRV006").is_empty());
}

#[test]
fn a_failed_driver_query_is_a_warning_not_an_all_clear() {
    let w = fired(&firing("DRV007"), "DRV007");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("timed out"));
    assert!(fired(&near_miss("DRV007"), "DRV007").is_empty());
}

/// What `explain` finds in pasted text.
fn explained(text: &str) -> Vec<gpucompat::finding::Finding> {
    let kb = gpucompat::kb::Kb::embedded();
    let mut inv = gpucompat::ingest::ingest(&[("paste".to_string(), text.to_string())]);
    gpucompat::ingest::enrich(&mut inv, kb);
    gpucompat::rules::run_rules(&inv, kb)
}

#[test]
fn nouveau_in_a_pasted_kernel_log_holds_the_gpu_the_report_names() {
    let log = "[    5.435274] nouveau 0000:3b:00.0: enabling device (0000 -> 0003)\n[    5.603461] nouveau 0000:3b:00.0: bios: version 86.04.50.00.5b\n";
    let f = explained(&format!("{log}GPU: Tesla P4\n"));
    let d = f.iter().find(|f| f.code == "DRV002").expect("DRV002");
    assert!(d.message.contains("Tesla P4"), "{}", d.message);
    assert!(d
        .evidence
        .iter()
        .any(|e| e.value == "nouveau" && e.source.contains("kernel log")));
    // Two GPUs named and one device known only by its address: which one
    // nouveau holds is not known, so the named GPUs are not joined to it.
    let f = explained(&format!("{log}GPU 0: Tesla P4\nGPU 1: Tesla T4\n"));
    assert!(f
        .iter()
        .filter(|f| f.code == "DRV002")
        .all(|d| !d.message.contains("Tesla")));
}

#[test]
fn no_device_alone_is_a_warning_that_names_the_causes() {
    let f = explained("RuntimeError: CUDA error: no CUDA-capable device is detected\n");
    let e = f.iter().find(|f| f.code == "ERR006").expect("ERR006");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("CUDA_VISIBLE_DEVICES"), "{}", e.message);
    // torch's own words say the driver answered: the visible devices, a warning.
    let f = explained("RuntimeError: No CUDA GPUs are available\n");
    let e = f.iter().find(|f| f.code == "ERR082").expect("ERR082");
    assert_eq!(e.severity, Severity::Warning);
    // nvidia-smi saying it cannot reach the driver is the driver's: an error.
    let f = explained("RuntimeError: No CUDA GPUs are available\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n");
    let e = f.iter().find(|f| f.code == "ERR006").expect("ERR006");
    assert_eq!(e.severity, Severity::Error);
}
