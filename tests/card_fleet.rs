//! `card --format labels|prometheus` on machine fixtures, checked by the
//! tools that will read them: NFD's feature-file syntax, promtool and the
//! Prometheus text parser of prometheus-client.

#![allow(clippy::print_stderr)] // a skipped check says so, loudly

mod common;

use std::process::Command;

fn card(fixture: &str, format: &str) -> String {
    let out = common::gpucompat_at_fixture(fixture, &["card", "--format", format]);
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A tool the check needs: missing is a loud skip here and a failure in CI.
fn tool(name: &str, probe: &[&str]) -> bool {
    let ok = Command::new(name)
        .args(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").is_err(),
            "{name} is required in CI (.ci/run installs it)"
        );
        eprintln!("SKIPPED: {name} is not installed; this check did not run");
    }
    ok
}

/// NFD's `local` source syntax: comments, `# +expiry-time=RFC3339`, and
/// `<ns>/<name>=<value>` with a valid label name and value, under 64 kB.
fn assert_nfd_feature_file(text: &str) {
    let name_re =
        regex::Regex::new(r"^[a-z0-9.-]+/[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$").unwrap();
    let value_re =
        regex::Regex::new(r"^([A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$").unwrap();
    let expiry_re =
        regex::Regex::new(r"^# \+expiry-time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$").unwrap();
    assert!(text.len() < 64 * 1024);
    for l in text.lines() {
        if l.starts_with("# +") {
            assert!(expiry_re.is_match(l), "bad directive: {l}");
        } else if !l.starts_with('#') {
            let (k, v) = l.split_once('=').unwrap_or_else(|| panic!("no value: {l}"));
            assert!(name_re.is_match(k), "bad name: {l}");
            assert!(value_re.is_match(v) && !v.is_empty(), "bad value: {l}");
            assert!(!k.contains("kubernetes.io"), "denied namespace: {l}");
        }
    }
}

fn label<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("gpucompat.io/{key}=")))
}

#[test]
fn node_labels_carry_driver_gpu_and_verdict() {
    let ok = card("geforce-desktop", "labels");
    assert_nfd_feature_file(&ok);
    assert_eq!(label(&ok, "check.ok"), Some("true"), "{ok}");
    assert_eq!(label(&ok, "gpu.count"), Some("1"), "{ok}");
    assert_eq!(label(&ok, "gpu.product"), Some("NVIDIA-GeForce-RTX-4090"));
    assert_eq!(label(&ok, "gpu.family"), Some("ada-lovelace"));
    assert_eq!(label(&ok, "cuda.max.major"), Some("12"), "{ok}");
    assert_eq!(label(&ok, "driver.major"), Some("550"), "{ok}");
    assert!(ok.contains("\n# +expiry-time="), "{ok}");
    assert!(label(&ok, "timestamp").is_some_and(|t| t.parse::<u64>().is_ok()));
    let broken = card("module-lib-mismatch", "labels");
    assert_nfd_feature_file(&broken);
    assert_eq!(label(&broken, "check.ok"), Some("false"), "{broken}");
    assert_eq!(label(&broken, "check.errors"), Some("1"), "{broken}");
}

#[test]
fn a_hung_driver_query_never_publishes_check_ok() {
    let l = card("smi-hangs", "labels");
    assert_nfd_feature_file(&l);
    assert_eq!(label(&l, "probe.ok"), Some("false"), "{l}");
    assert_eq!(label(&l, "check.ok"), Some("false"), "{l}");
    let p = card("smi-hangs", "prometheus");
    assert!(p.contains("gpucompat_probe_success 0\n"), "{p}");
}

#[test]
fn expiry_can_be_turned_off() {
    let out = common::gpucompat_at_fixture(
        "geforce-desktop",
        &["card", "--format", "labels", "--expire-after", "0"],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("+expiry-time"), "{text}");
}

#[test]
fn output_is_written_atomically_for_every_format() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "json", "markdown", "labels", "prometheus"] {
        let path = dir.path().join(format!("out.{format}"));
        std::fs::write(&path, "stale").unwrap();
        let out = common::gpucompat_at_fixture(
            "geforce-desktop",
            &[
                "card",
                "--format",
                format,
                "--output",
                path.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{format}: {out:?}");
        assert!(out.stdout.is_empty(), "{format}: wrote to stdout too");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() > 20 && text != "stale", "{format}: {text}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    let bad = common::gpucompat_at_fixture(
        "geforce-desktop",
        &[
            "card",
            "--output",
            dir.path().join("no/dir/x").to_str().unwrap(),
        ],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no/dir/x"));
}

#[test]
fn prometheus_page_counts_findings() {
    let p = card("module-lib-mismatch", "prometheus");
    assert!(p.contains("# TYPE gpucompat_info gauge"), "{p}");
    assert!(
        p.contains("gpucompat_findings{severity=\"error\"} 1"),
        "{p}"
    );
    assert!(p.contains("gpucompat_finding{code=\"DRV001\",category=\"driver_library_mismatch\",severity=\"error\"} 1"), "{p}");
    let ok = card("vm-no-gpu", "prometheus");
    assert!(
        ok.contains("gpucompat_findings{severity=\"error\"} 0"),
        "{ok}"
    );
    assert!(ok.contains("gpucompat_tier 1"), "{ok}");
    let hgx = card("hgx-h100-nvswitch", "prometheus");
    assert!(
        hgx.contains("gpucompat_gpu_info{gpu=\"7\",UUID=\"GPU-"),
        "{hgx}"
    );
    assert!(hgx.contains("pci_bus_id=\"00000000:DB:00.0\""), "{hgx}");
    assert!(hgx.contains("cuda_max=\"12."), "{hgx}");
}

const FIXTURES: [&str; 5] = [
    "geforce-desktop",
    "module-lib-mismatch",
    "hgx-h100-nvswitch",
    "smi-hangs",
    "vm-no-gpu",
];

#[test]
fn promtool_accepts_every_page() {
    if !tool("promtool", &["--version"]) {
        return;
    }
    for f in FIXTURES {
        let page = card(f, "prometheus");
        let mut child = Command::new("promtool")
            .args(["check", "metrics"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(page.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        // Exit 1 is a parse error; 3 is lint advice only. The one piece of
        // advice accepted is camelCase on dcgm-exporter's own label names
        // (UUID, modelName), kept so the series join.
        let lint_ok = out.status.code() == Some(3)
            && said.lines().all(|l| {
                l.ends_with("label names should be written in 'snake_case' not 'camelCase'")
            });
        assert!(
            out.status.success() || lint_ok,
            "{f}: promtool: {said}\n{page}"
        );
    }
}

#[test]
fn prometheus_client_parses_every_page() {
    if !tool("python3", &["-c", "import prometheus_client"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for f in FIXTURES {
        let path = dir.path().join(format!("{f}.prom"));
        std::fs::write(&path, card(f, "prometheus")).unwrap();
    }
    let script = r#"
import sys, glob
from prometheus_client.parser import text_string_to_metric_families
for p in sorted(glob.glob(sys.argv[1] + "/*.prom")):
    fams = list(text_string_to_metric_families(open(p).read()))
    names = {f.name for f in fams}
    assert "gpucompat_probe_success" in names, (p, names)
    for f in fams:
        assert f.type == "gauge", (p, f.name, f.type)
        for s in f.samples:
            float(s.value)
    print(p, len(fams))
"#;
    let out = Command::new("python3")
        .args(["-c", script, dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
}

#[test]
fn the_nfd_checker_rejects_what_nfd_would() {
    let bad = "gpucompat.io/gpu.product=NVIDIA--\n";
    assert!(std::panic::catch_unwind(|| assert_nfd_feature_file(bad)).is_err());
}

#[test]
fn package_manager_views() {
    let c = card("hgx-h100-nvswitch", "conda");
    assert!(c.contains("\n__cuda_arch=9.0=0\n"), "{c}");
    assert!(c.contains("\nexport CONDA_OVERRIDE_CUDA="), "{c}");
    let u = card("geforce-desktop", "uv-env");
    assert!(
        u.lines()
            .last()
            .unwrap()
            .starts_with("export UV_TORCH_BACKEND=cu"),
        "{u}"
    );
    let cpu = card("vm-no-gpu", "uv-env");
    assert!(cpu.ends_with("export UV_TORCH_BACKEND=cpu\n"), "{cpu}");
}
