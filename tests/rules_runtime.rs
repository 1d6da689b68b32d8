//! Runtime vs driver, under each compatibility semantic.

mod rules_common;

use gpucompat::finding::{exit_code, Severity};
use gpucompat::inventory::{ErrorKind, LibraryInstall};
use rules_common::*;

fn on(driver: &str, cuda_max: Option<&str>, torch: &str, cuda: &str) -> B {
    B::linux()
        .driver(driver, cuda_max)
        .gpu("NVIDIA GeForce RTX 3090")
        .torch(torch, Some(cuda))
}

#[test]
fn smi_cuda_above_torch_gives_only_the_misconception_info() {
    let inv = on("560.35.03", Some("12.6"), "2.5.1+cu121", "12.1").build();
    let found = run(&inv);
    assert_eq!(codes(&inv), vec!["RUN003"], "{found:#?}");
    assert_eq!(found[0].severity, Severity::Info);
    assert!(found[0].message.contains("12.6"));
    assert_eq!(exit_code(&found), 0);
}

#[test]
fn cu124_on_535_is_the_minor_compat_warning_not_an_error() {
    let inv = on("535.104.05", Some("12.2"), "2.5.1+cu124", "12.4").build();
    let found = run(&inv);
    assert!(fired(&inv, "RUN001").is_empty());
    let w = fired(&inv, "RUN002");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("minor-version compatibility"));
    assert!(w[0].kb.iter().any(|k| k.table == "minor_compat"));
    assert_eq!(exit_code(&found), 0);
}

#[test]
fn cu130_on_535_is_an_error() {
    let inv = on("535.104.05", Some("12.2"), "2.9.0+cu130", "13.0").build();
    let e = fired(&inv, "RUN001");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].severity, Severity::Error);
    assert!(e[0].message.contains("another major"), "{}", e[0].message);
    assert!(fired(&inv, "RUN002").is_empty());
    assert_eq!(exit_code(&run(&inv)), 1);
}

#[test]
fn the_driver_maximum_comes_from_the_table_when_the_driver_does_not_report_it() {
    let inv = on("535.104.05", None, "2.5.1+cu124", "12.4").build();
    let w = fired(&inv, "RUN002");
    assert_eq!(w.len(), 1);
    assert!(
        w[0].kb.iter().any(|k| k.table == "cuda_toolkits"),
        "{:?}",
        w[0].kb
    );
    // Without a reported maximum there is no nvidia-smi misconception to correct.
    let inv = on("535.104.05", None, "2.5.1+cu121", "12.1").build();
    assert!(fired(&inv, "RUN003").is_empty());
}

#[test]
fn cuda_11_minor_compat_and_across_majors() {
    // 470.82.01 supports CUDA 11.4; 11.8 is the same major above the 450.80.02 floor.
    let inv = on("470.82.01", Some("11.4"), "2.0.1+cu118", "11.8").build();
    assert_eq!(fired(&inv, "RUN002").len(), 1);
    let inv = on("470.82.01", Some("11.4"), "2.1.2+cu121", "12.1").build();
    assert_eq!(fired(&inv, "RUN001").len(), 1);
}

#[test]
fn below_the_floor_of_the_same_major_is_an_error() {
    // A driver that reports 12.0 yet is below the 12.x floor (as a pasted report might say).
    let inv = on("525.60.11", Some("12.0"), "2.5.1+cu124", "12.4").build();
    let e = fired(&inv, "RUN001");
    assert_eq!(e.len(), 1, "{:?}", codes(&inv));
    assert!(e[0].message.contains("floor"), "{}", e[0].message);
}

#[test]
fn ptx_only_gpu_under_minor_compat_is_an_error() {
    let inv = B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA GeForce RTX 4090")
        .torch("2.5.1+cu124", Some("12.4"))
        .torch_arch("sm_75 compute_86")
        .build();
    let e = fired(&inv, "RUN002");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].severity, Severity::Error);
    assert!(e[0].message.contains("only PTX"), "{}", e[0].message);
}

#[test]
fn an_observed_error_raises_the_minor_compat_warning() {
    let inv = with_error(
        on("535.104.05", Some("12.2"), "2.5.1+cu124", "12.4").build(),
        ErrorKind::CallRequiresNewerDriver,
    );
    let found = run(&inv);
    assert!(found.iter().all(|f| f.code != "ERR002"));
    let w = fired(&inv, "RUN002");
    assert_eq!(w[0].severity, Severity::Error);
    assert!(w[0]
        .evidence
        .iter()
        .any(|e| e.fact.starts_with("observed error")));
}

#[test]
fn forward_compat_on_a_datacenter_gpu_is_a_warning() {
    let base = B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA H100 80GB HBM3")
        .torch("2.9.0+cu130", Some("13.0"));
    let with_compat = base
        .with(|i| {
            i.libraries.cuda_compat.push(LibraryInstall {
                path: "/usr/local/cuda-13.0/compat/libcuda.so.580.65.06".into(),
                version: gpucompat::inventory::Fact::new(
                    "580.65.06".into(),
                    "/usr/local/cuda-13.0/compat",
                ),
                built_for_cuda: None,
            })
        })
        .build();
    let w = fired(&with_compat, "RUN001");
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("forward compatibility"));
}

#[test]
fn other_frameworks_are_judged_too() {
    let inv = B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA GeForce RTX 3090")
        .package("onnxruntime-gpu", "1.31.0")
        .framework("onnxruntime", "1.31.0", Some("13.0"), Some("9"))
        .build();
    let e = fired(&inv, "RUN001");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].message.starts_with("onnxruntime 1.31.0"),
        "{}",
        e[0].message
    );
    let fix = e[0].fix.as_ref().unwrap();
    assert!(
        fix.command
            .as_deref()
            .unwrap_or("")
            .contains("nvidia-driver-580"),
        "{fix:?}"
    );
}

#[test]
fn windows_driver_numbers_apply_under_wsl() {
    // 552.22 is the CUDA 12.4 Windows driver; inside WSL RUN00x stay quiet and PLAT004 speaks.
    let inv = B::wsl()
        .driver("531.79", Some("12.1"))
        .gpu("NVIDIA GeForce RTX 4090")
        .torch("2.5.1+cu124", Some("12.4"))
        .build();
    assert!(fired(&inv, "RUN002").is_empty());
    let w = fired(&inv, "PLAT004");
    assert_eq!(w[0].severity, Severity::Warning, "{:?}", w);
    assert!(w[0].message.contains("528.33"), "{}", w[0].message);
}
