//! Environment variables: CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH, CUDA_HOME.

mod rules_common;

use gpucompat::finding::Severity;
use gpucompat::inventory::{ErrorKind, Inventory};
use gpucompat::rules::env::parse_visible;
use rules_common::*;

#[test]
fn cuda_visible_devices_is_read_like_the_driver_reads_it() {
    let uuids = vec![
        "GPU-8f5a2c1e-0000".to_string(),
        "GPU-1b2c3d4e-0000".to_string(),
    ];
    assert_eq!(parse_visible("", Some(4), &uuids), (vec![], None));
    assert_eq!(
        parse_visible("0,2,-1,1", Some(4), &uuids),
        (vec!["0".into(), "2".into()], Some("-1".into()))
    );
    assert_eq!(
        parse_visible("5", Some(2), &uuids),
        (vec![], Some("5".into()))
    );
    assert_eq!(
        parse_visible("GPU-1b2c", Some(2), &uuids),
        (vec!["GPU-1b2c".into()], None)
    );
    assert_eq!(
        parse_visible("GPU-ffff", Some(2), &uuids),
        (vec![], Some("GPU-ffff".into()))
    );
    assert_eq!(parse_visible("MIG-0a1b", Some(1), &uuids).0.len(), 1);
    assert_eq!(
        parse_visible("nope,0", None, &[]),
        (vec![], Some("nope".into()))
    );
}

fn two_gpus(cvd: &str) -> gpucompat::inventory::Inventory {
    B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA GeForce RTX 3090")
        .gpu("NVIDIA GeForce RTX 3090")
        .env_var("CUDA_VISIBLE_DEVICES", cvd)
        .build()
}

#[test]
fn visible_devices_past_the_last_gpu_hide_them_all_or_cut_the_list() {
    let e = fired(&two_gpus("2"), "ENV001");
    assert_eq!(e[0].severity, Severity::Error);
    let w = fired(&two_gpus("0,7,1"), "ENV001");
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("\"7\""), "{}", w[0].message);
    assert!(fired(&two_gpus("1,0"), "ENV001").is_empty());
}

#[test]
fn a_no_device_error_with_cuda_visible_devices_set_names_the_variable() {
    // Only the script's assignment and CUDA's error are known: -1 is never a GPU.
    let minus_one = B(Inventory::new("explain issue.txt"))
        .env_var("CUDA_VISIBLE_DEVICES", "-1")
        .error(
            ErrorKind::NoDevice,
            "Call to cuInit results in CUDA_ERROR_NO_DEVICE",
        )
        .build();
    let e = fired(&minus_one, "ENV001");
    assert_eq!(e[0].severity, Severity::Error);
    assert!(
        fired(&minus_one, "ERR006").is_empty(),
        "{:?}",
        codes(&minus_one)
    );
    // An index, with the GPU count unknown: CUDA seeing nothing is the evidence.
    let one = B(Inventory::new("explain issue.txt"))
        .env_var("CUDA_VISIBLE_DEVICES", "1")
        .error(
            ErrorKind::NoDevice,
            "RuntimeError: No CUDA GPUs are available",
        )
        .build();
    let e = fired(&one, "ENV001");
    assert_eq!(e.len(), 1, "{:?}", codes(&one));
    assert!(e[0].evidence.iter().any(|x| x.fact == "observed error"));
    // Near miss: the same index without any error is not a finding.
    let quiet = B(Inventory::new("explain issue.txt"))
        .env_var("CUDA_VISIBLE_DEVICES", "1")
        .build();
    assert!(fired(&quiet, "ENV001").is_empty());
    // Near miss: torch finding no driver at all is not explained by the variable.
    let no_driver = B(Inventory::new("explain issue.txt"))
        .env_var("CUDA_VISIBLE_DEVICES", "1")
        .error(
            ErrorKind::NoNvidiaDriver,
            "Found no NVIDIA driver on your system.",
        )
        .build();
    assert!(fired(&no_driver, "ENV001").is_empty());
}

#[test]
fn an_empty_cuda_visible_devices_on_a_machine_without_cuda_is_not_reported() {
    let inv = B::linux().env_var("CUDA_VISIBLE_DEVICES", "").build();
    assert!(fired(&inv, "ENV001").is_empty());
}

#[test]
fn ld_library_path_without_a_cuda_directory_is_quiet() {
    let inv = B::linux()
        .driver("535.104.05", Some("12.2"))
        .torch("2.5.1+cu121", Some("12.1"))
        .env_var(
            "LD_LIBRARY_PATH",
            "/opt/intel/lib:/usr/local/cuda-13.0/compat",
        )
        .build();
    assert!(fired(&inv, "ENV002").is_empty());
    // A versioned path names its CUDA even without a probed toolkit.
    let inv = B::linux()
        .driver("535.104.05", Some("12.2"))
        .torch("2.5.1+cu121", Some("12.1"))
        .env_var("LD_LIBRARY_PATH", "/opt/cuda-11.8/lib64")
        .build();
    let w = fired(&inv, "ENV002");
    assert_eq!(w.len(), 1);
    assert_eq!(
        w[0].fix.as_ref().unwrap().command.as_deref(),
        Some("unset LD_LIBRARY_PATH")
    );
}

#[test]
fn cuda_home_without_a_matching_toolkit_says_to_install_one() {
    let inv = B::linux()
        .torch("2.5.1+cu121", Some("12.1"))
        .env_var("CUDA_HOME", "/usr/local/cuda-11.8")
        .build();
    let w = fired(&inv, "ENV003");
    assert_eq!(w.len(), 1);
    let fx = w[0].fix.clone().unwrap();
    assert!(fx.command.is_none());
    assert!(fx.note.unwrap().contains("CUDA 12.x toolkit"));
}

#[test]
fn mig_uuids_in_cuda_visible_devices_mean_mig_is_on() {
    // A pasted session: only the variable and the driver are known.
    let mig = B(Inventory::new("explain issue.txt"))
        .driver("515.86.01", None)
        .env_var(
            "CUDA_VISIBLE_DEVICES",
            "MIG-feee0c61-26ec-5616-bb59-b6d777cc4f34",
        )
        .build();
    let f = fired(&mig, "MIG001");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Info);
    assert!(f[0].message.contains("1 MIG device"), "{}", f[0].message);
    assert_eq!(f[0].evidence[0].fact, "CUDA_VISIBLE_DEVICES");
    // Near misses: GPU UUIDs and indices select whole GPUs.
    for cvd in ["GPU-8f5a2c1e-0000", "0,1", ""] {
        let whole = B(Inventory::new("explain issue.txt"))
            .driver("515.86.01", None)
            .env_var("CUDA_VISIBLE_DEVICES", cvd)
            .build();
        assert!(fired(&whole, "MIG001").is_empty(), "{cvd:?}");
    }
}
