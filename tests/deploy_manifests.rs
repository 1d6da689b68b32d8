//! The Kubernetes manifests in deploy/kubernetes/ against the Kubernetes
//! schemas (kubernetes-validate, strict), and the commands they run against
//! this build's own CLI.

#![allow(clippy::print_stderr)] // a skipped check says so, loudly

use std::process::Command;

const MANIFESTS: [&str; 2] = [
    "deploy/kubernetes/daemonset.yaml",
    "deploy/kubernetes/example-cuda-12.8-pod.yaml",
];

fn validator() -> bool {
    let ok = Command::new("kubernetes-validate")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").is_err(),
            "kubernetes-validate is required in CI (.ci/run installs it)"
        );
        eprintln!(
            "SKIPPED: kubernetes-validate is not installed (pip install kubernetes-validate)"
        );
    }
    ok
}

fn validate(path: &std::path::Path) -> std::process::Output {
    Command::new("kubernetes-validate")
        .args(["--strict", "--no-warn"])
        .arg(path)
        .output()
        .unwrap()
}

#[test]
fn manifests_match_the_kubernetes_schemas() {
    if !validator() {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for m in MANIFESTS {
        let out = validate(&root.join(m));
        assert!(
            out.status.success(),
            "{m}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The validator does reject a wrong manifest: a misspelt field, a string limit.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root.join(MANIFESTS[0])).unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        text.replace("readOnlyRootFilesystem", "readOnlyRootFileSystem"),
    )
    .unwrap();
    assert!(!validate(&bad).status.success());
}

#[test]
fn the_daemonset_runs_flags_this_build_has() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(MANIFESTS[0]),
    )
    .unwrap();
    let help = assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .args(["card", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in ["--root", "--format", "--expire-after", "--output"] {
        assert!(text.contains(flag), "daemonset does not use {flag}");
        assert!(
            help.contains(flag) || flag == "--root",
            "card has no {flag}"
        );
    }
    assert!(text.contains("path: /etc/kubernetes/node-feature-discovery/features.d"));
    assert!(text.contains("readOnly: true"));
    assert!(text.contains("limits:"));
}
