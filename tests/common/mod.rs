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

/// The finding codes of a `check --json` (or any report) envelope, in order.
pub fn finding_codes(report: &serde_json::Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

/// Copy a fixture tree, keeping symlinks as links.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let ft = e.file_type().unwrap();
        let dest = to.join(e.file_name());
        if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &dest).unwrap();
        } else if ft.is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}
