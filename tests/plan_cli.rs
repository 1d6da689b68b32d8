//! The `pin` and `lint` commands end to end: output, exit codes, bad input.

use assert_cmd::Command;
use predicates::prelude::*;

fn gpucompat() -> Command {
    Command::cargo_bin("gpucompat").unwrap()
}

const CARDS: &str = "tests/fixtures/plan/cards";
const DOCKERFILES: &str = "tests/fixtures/plan/dockerfiles";

#[test]
fn pin_a_fleet_as_requirements() {
    gpucompat()
        .args([
            "pin",
            "--host",
            &format!("{CARDS}/a100-535.json"),
            "--host",
            &format!("{CARDS}/l4-550.json"),
        ])
        .args(["--with", "torch,torchvision", "--format", "requirements"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "--index-url https://download.pytorch.org/whl/cu121",
        ))
        .stdout(predicate::str::contains(
            "torch==2.5.1+cu121\ntorchvision==0.20.1+cu121\n",
        ));
}

#[test]
fn pin_exits_1_when_a_host_gets_no_stack() {
    gpucompat()
        .args([
            "pin",
            "--host",
            &format!("{CARDS}/gtx1080-535.json"),
            "--host",
            &format!("{CARDS}/rtx5090-550.json"),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("## Hosts without a stack"))
        .stdout(predicate::str::contains(
            "install an NVIDIA driver >= 570.26 on lab-blackwell",
        ));
}

#[test]
fn pin_from_flags_as_json() {
    let out = gpucompat()
        .args([
            "pin",
            "--driver",
            "550.54.14",
            "--gpu",
            "RTX 4090",
            "--cc",
            "8.6",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["tool"]["name"], "gpucompat");
    let torch = &v["stacks"][0]["packages"][0];
    assert_eq!(torch["package"], "torch");
    assert_eq!(torch["version"], "2.6.0+cu124");
    assert_eq!(v["stacks"][0]["gpus"].as_array().unwrap().len(), 2);
}

#[test]
fn pin_rejects_bad_input_clearly() {
    gpucompat()
        .args(["pin", "--driver", "550.54.14", "--with", "tensorflow"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--with tensorflow"));
    gpucompat()
        .args(["pin", "--host", "tests/fixtures/plan/cards/nope.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nope.json"));
    gpucompat()
        .args(["pin", "--host", &format!("{DOCKERFILES}/clean.Dockerfile")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a gpucompat card"));
    gpucompat()
        .args(["pin", "--driver", "banana"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--driver banana"));
    gpucompat()
        .args(["pin", "--driver", "550.54.14", "--gpu", "A100"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("several GPUs match"));
    gpucompat()
        .args(["pin", "--driver", "550.54.14", "--group", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--group 3"));
}

#[test]
fn pin_dockerfile_for_one_group_of_a_split() {
    gpucompat()
        .args([
            "pin",
            "--host",
            &format!("{CARDS}/gtx1080-535.json"),
            "--host",
            &format!("{CARDS}/rtx5090-570.json"),
        ])
        .args(["--format", "dockerfile", "--group", "2"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "# syntax=docker/dockerfile:1\n",
        ))
        .stdout(predicate::str::contains(
            "FROM nvidia/cuda:12.8.1-runtime-ubuntu24.04",
        ))
        .stdout(predicate::str::contains("=====").not());
}

#[test]
fn lint_exit_codes_and_output() {
    gpucompat()
        .args(["lint", &format!("{DOCKERFILES}/clean.Dockerfile")])
        .assert()
        .success()
        .stdout(predicate::str::contains("No findings"));
    gpucompat()
        .args(["lint", &format!("{DOCKERFILES}/driver.Dockerfile")])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[DKR002] driver-in-image: "))
        .stdout(predicate::str::contains(
            "  --> tests/fixtures/plan/dockerfiles/driver.Dockerfile:2\n",
        ))
        .stdout(predicate::str::contains("  fix: "));
    // Warnings alone exit 0.
    gpucompat()
        .args(["lint", &format!("{DOCKERFILES}/unpinned.Dockerfile")])
        .assert()
        .success()
        .stdout(predicate::str::contains("DKR006"));
}

#[test]
fn lint_json_with_hosts() {
    let out = gpucompat()
        .args([
            "lint",
            &format!("{DOCKERFILES}/blackwell-wheel.Dockerfile"),
            "--host",
            &format!("{CARDS}/gtx1080-535.json"),
            "--json",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let f = v["findings"].as_array().unwrap();
    let codes: Vec<&str> = f.iter().map(|x| x["code"].as_str().unwrap()).collect();
    // Sorted by severity, then code.
    assert_eq!(codes, ["DKR009", "DKR010"]);
    assert_eq!(f[0]["line"], 2);
    assert_eq!(f[0]["category"], "arch_unsupported");
}

#[test]
fn lint_reads_stdin_and_reports_missing_files() {
    gpucompat()
        .args(["lint", "-"])
        .write_stdin("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN apt-get install -y nvidia-driver-550\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[DKR002]"))
        .stdout(predicate::str::contains("  --> stdin:2\n"));
    gpucompat()
        .args(["lint", "tests/fixtures/plan/dockerfiles/missing.Dockerfile"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.Dockerfile"));
}

#[test]
fn lint_survives_binary_garbage() {
    gpucompat()
        .args(["lint", "-"])
        .write_stdin(vec![
            0xff, 0xfe, b'\n', b'R', b'U', b'N', b' ', b'\\', 0x00, b'\n',
        ])
        .assert()
        .success();
}
