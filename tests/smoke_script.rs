//! scripts/smoke-check.sh decides PASS / FAIL from `gpucompat smoke --json`
//! (run here against the fake libcuda and libcublas).

#![cfg(unix)]

#[path = "fakecuda/mod.rs"]
mod fakecuda;

use std::path::Path;
use std::process::Command;

fn check_script(env: &[(&str, &str)], args: &[&str]) -> (i32, String) {
    let fake = fakecuda::fake();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("scripts/smoke-check.sh"))
        .args(args)
        .env("GPUCOMPAT_BIN", env!("CARGO_BIN_EXE_gpucompat"))
        .env("GPUCOMPAT_LIBCUDA", &fake.libcuda)
        .env("GPUCOMPAT_LIBCUBLAS", &fake.libcublas)
        .env_remove("CUDA_VISIBLE_DEVICES");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("running bash");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn every_gpu_matching_is_a_pass() {
    let (code, out) = check_script(&[("FAKECUDA_COUNT", "2")], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!(
            "\"schema_version\": {}",
            gpucompat::report::SCHEMA_VERSION
        )),
        "the report is printed"
    );
    assert_eq!(
        last_line(&out),
        "PASS: 2 GPU(s) computed the fp16 GEMM and matched the CPU reference"
    );
}

#[test]
fn one_wrong_gpu_is_a_fail() {
    let (code, out) = check_script(
        &[("FAKECUDA_COUNT", "2"), ("FAKECUDA_WRONG", "0")],
        &["--gemm", "builtin"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(last_line(&out).starts_with("FAIL: 1 GPU(s) matched, 1 did not"));
}

#[test]
fn no_driver_is_a_fail() {
    let (code, out) = check_script(&[("GPUCOMPAT_LIBCUDA", "/nonexistent/libcuda.so.1")], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no CUDA driver"));
    assert!(last_line(&out).starts_with("FAIL: 0 GPU(s) matched, 0 did not"));
}
