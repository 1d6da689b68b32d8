//! A real one-node Slurm cluster (tests/slurm/cluster-test.sh): gpucompat as
//! HealthCheckProgram drains a broken node with the finding code as reason
//! and resumes a healthy one; fleet collects cards through srun. Skips with
//! a loud message where Slurm or munge is not installed (never in CI).

#![allow(clippy::print_stderr)] // a skipped check says so, loudly

use std::time::{Duration, Instant};

#[test]
fn health_check_drains_and_resumes_a_real_slurm_node() {
    let root = env!("CARGO_MANIFEST_DIR");
    let bin = assert_cmd::cargo::cargo_bin("gpucompat");
    let start = Instant::now();
    // Bounded: the script's own waits add up to under two minutes; timeout(1) ends it at three.
    let out = std::process::Command::new("timeout")
        .args(["-k", "5", "180"])
        .arg(format!("{root}/tests/slurm/cluster-test.sh"))
        .arg(&bin)
        .arg(root)
        .output()
        .expect("run tests/slurm/cluster-test.sh");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.code() == Some(77) {
        assert!(
            std::env::var("CI").is_err(),
            "the Slurm test must run in CI (.ci/run installs slurm-wlm and munge): {said}"
        );
        eprintln!("\n*** SKIPPED: Slurm integration test did not run ***\n{said}");
        return;
    }
    assert!(out.status.success(), "{said}");
    for step in [
        "ok: broken root drained the node: gpucompat: DRV001",
        "ok: healthy root resumed the node",
        "ok: an admin's drain stayed",
        "ok: fleet collected the node's card through srun",
    ] {
        assert!(said.contains(step), "missing {step:?}: {said}");
    }
    assert!(start.elapsed() < Duration::from_secs(180));
}
