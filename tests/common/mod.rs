//! Shared by the CLI tests that probe a tree laid out like a machine.

#![allow(dead_code)] // each test binary uses part of it

use std::path::Path;

/// `gpucompat ARGS... --root ROOT`, run from the crate directory with the
/// fixture's own programs and libraries allowed and none of the caller's
/// GPUCOMPAT_* overrides leaking in.
pub fn gpucompat_at_root(root: &Path, args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .arg("--root")
        .arg(root)
        .env("GPUCOMPAT_ALLOW_ROOT_CODE", "1")
        .env_remove("GPUCOMPAT_GPUS")
        .env_remove("GPUCOMPAT_DRIVER_VERSION")
        .env_remove("GPUCOMPAT_CUDA_DRIVER_VERSION")
        .output()
        .unwrap()
}

/// The same, for a fixture under tests/fixtures/ (a relative path, so output names it as such).
pub fn gpucompat_at_fixture(fixture: &str, args: &[&str]) -> std::process::Output {
    let root = format!("tests/fixtures/{fixture}");
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(&root).is_dir(),
        "no fixture {fixture}"
    );
    gpucompat_at_root(Path::new(&root), args)
}
