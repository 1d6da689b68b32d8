//! `card --format labels|prometheus` on machine fixtures.

mod common;

fn card(fixture: &str, format: &str) -> String {
    let out = common::gpucompat_at_fixture(fixture, &["card", "--format", format]);
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn node_labels_carry_driver_gpu_and_verdict() {
    let ok = card("geforce-desktop", "labels");
    assert!(
        ok.lines()
            .all(|l| l.starts_with('#') || l.starts_with("gpucompat.io/")),
        "{ok}"
    );
    assert!(ok.contains("gpucompat.io/check.ok=true"), "{ok}");
    assert!(ok.contains("gpucompat.io/gpu.count=1"), "{ok}");
    assert!(ok.contains("gpucompat.io/driver.branch=R"), "{ok}");
    for l in ok.lines().filter(|l| !l.starts_with('#')) {
        let v = l.split_once('=').unwrap().1;
        assert!(!v.is_empty() && v.len() <= 63, "{l}");
        assert!(
            v.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
            "{l}"
        );
    }
    let broken = card("module-lib-mismatch", "labels");
    assert!(broken.contains("gpucompat.io/check.ok=false"), "{broken}");
    assert!(broken.contains("gpucompat.io/check.errors=1"), "{broken}");
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
}
