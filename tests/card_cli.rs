//! `gpucompat card` on the machine running the tests (whatever it has:
//! only that each format works and the JSON reads back), the overrides and
//! --root handling of the command line, and the hanging nvidia-smi.

use std::time::{Duration, Instant};

use assert_cmd::Command;
use gpucompat::inventory::Inventory;

fn gpucompat() -> Command {
    let mut c = Command::cargo_bin("gpucompat").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn card_runs_on_this_machine_in_every_format() {
    for args in [
        vec!["card"],
        vec!["card", "-v"],
        vec!["card", "--format", "markdown"],
        vec!["card", "--format", "markdown", "-v"],
    ] {
        let out = gpucompat().args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("Tier") || text.contains("**"),
            "{args:?}: {text}"
        );
    }
    let out = gpucompat().args(["card", "--json"]).output().unwrap();
    assert!(out.status.success());
    let inv: Inventory = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(inv.schema_version, gpucompat::inventory::SCHEMA_VERSION);
    assert_eq!(inv.origin, "probe /");
}

#[test]
fn verbose_text_names_sources() {
    let out = gpucompat()
        .args(["card", "-v", "--root", "tests/fixtures/geforce-desktop"])
        .env("GPUCOMPAT_ALLOW_ROOT_CODE", "1")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("<- /sys/module/nvidia/version"), "{text}");
    let plain = gpucompat()
        .args(["card", "--root", "tests/fixtures/geforce-desktop"])
        .env("GPUCOMPAT_ALLOW_ROOT_CODE", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8(plain.stdout).unwrap().contains("<- "));
}

#[test]
fn overrides_from_the_shell_apply_under_a_root() {
    let out = gpucompat()
        .args(["card", "--json", "--root", "tests/fixtures/vm-no-gpu"])
        .env("GPUCOMPAT_GPUS", "NVIDIA GeForce RTX 4090")
        .env("GPUCOMPAT_DRIVER_VERSION", "550.54.14")
        .output()
        .unwrap();
    assert!(out.status.success());
    let inv: Inventory = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(inv.gpus.len(), 1);
    let cc = inv.gpus[0].compute_capability.as_ref().unwrap();
    assert_eq!(cc.value.to_string(), "8.9");
    assert_eq!(cc.source, "kb gpus: NVIDIA GeForce RTX 4090");
    assert_eq!(
        inv.nvidia.driver_version.as_ref().unwrap().source,
        "env GPUCOMPAT_DRIVER_VERSION"
    );
}

#[test]
fn without_the_opt_in_a_root_runs_nothing_of_its_own() {
    let out = gpucompat()
        .args(["card", "--json", "--root", "tests/fixtures/smi-hangs"])
        .env_remove("GPUCOMPAT_ALLOW_ROOT_CODE")
        .output()
        .unwrap();
    let inv: Inventory = serde_json::from_slice(&out.stdout).unwrap();
    assert!(inv.nvidia.smi_ok.is_none(), "nvidia-smi must not have run");
    assert!(inv.notes.iter().any(|n| n.message.contains("nvidia-smi")));
}

#[test]
fn a_hanging_nvidia_smi_is_killed_and_the_card_printed() {
    let t = Instant::now();
    let out = gpucompat()
        .args(["card", "--root", "tests/fixtures/smi-hangs"])
        .env("GPUCOMPAT_ALLOW_ROOT_CODE", "1")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let took = t.elapsed();
    assert!(out.status.success());
    assert!(
        took >= Duration::from_secs(5) && took < Duration::from_secs(20),
        "{took:?}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("timed out after 5.0 s and was killed"),
        "{text}"
    );
    assert!(text.contains("Tier 3"), "{text}");
}

#[test]
fn a_missing_root_is_a_usage_error() {
    let out = gpucompat()
        .args(["card", "--root", "tests/fixtures/no-such-root"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such directory"));
}
