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
        .args(["--semantic", "toolkit"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "# gpucompat pin (toolkit semantics): stack 1",
        ))
        .stdout(predicate::str::contains(
            "--index-url https://download.pytorch.org/whl/cu118",
        ))
        .stdout(predicate::str::contains(
            "torch==2.7.1+cu118\ntorchvision==0.22.1+cu118\n",
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
            "--semantic",
            "toolkit",
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
    assert_eq!(torch["version"], "2.7.1+cu118");
    assert_eq!(v["stacks"][0]["gpus"].as_array().unwrap().len(), 2);
    assert_eq!(v["semantic"], "toolkit");
    assert_eq!(v["stacks"][0]["semantic"], "toolkit");
    assert!(v["stacks"][0].get("minor_compat").is_none());
}

fn pin_json(args: &[&str]) -> serde_json::Value {
    let out = gpucompat()
        .arg("pin")
        .args(args)
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn pin_defaults_to_auto_and_names_minor_version_compatibility() {
    let args = ["--driver", "535.183.01", "--gpu", "RTX 4090"];
    // The explicit toolkit semantic is still there, with no caveats.
    let v = pin_json(&[
        "--driver",
        "535.183.01",
        "--gpu",
        "RTX 4090",
        "--semantic",
        "toolkit",
    ]);
    assert!(v["stacks"][0].get("minor_compat").is_none());
    let toolkit = v["stacks"][0]["packages"][0]["requirement"]
        .as_str()
        .unwrap()
        .to_string();
    gpucompat()
        .arg("pin")
        .args(args)
        .assert()
        .success()
        .stdout(predicate::str::contains("Semantic: auto ("))
        .stdout(predicate::str::contains(
            "Semantic: CUDA minor-version compatibility: this stack relies on it on command-line.",
        ))
        .stdout(predicate::str::contains(
            "Relies on CUDA minor-version compatibility (driver >= 525.60.13",
        ))
        .stdout(predicate::str::contains("no JIT of newer PTX"))
        .stdout(predicate::str::contains("it is for data center GPUs only"))
        .stdout(predicate::str::contains(format!("({toolkit})")));
    let v = pin_json(&args);
    assert_eq!(v["semantic"], "auto");
    let s = &v["stacks"][0];
    assert_eq!(s["semantic"], "minor_compat");
    assert_eq!(s["minor_compat"]["floor"], "525.60.13");
    assert_eq!(s["require_override"], "driver>=525.60.13");
    let image = s["image"]["reference"].as_str().unwrap();
    assert!(image.starts_with("nvidia/cuda:12.2."), "{image}");
    assert_eq!(v["hosts"][0]["max_cuda"]["value"], "12.2");
    assert_eq!(v["hosts"][0]["max_cuda_minor_compat"]["value"], "12.9");
    // The Dockerfile says so too, and keeps the container check.
    gpucompat()
        .arg("pin")
        .args(args)
        .args(["--format", "dockerfile"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(auto: minor_compat semantics)"))
        .stdout(predicate::str::contains(
            "# relies on CUDA minor-version compatibility on command-line",
        ))
        .stdout(predicate::str::contains(
            "NVIDIA_REQUIRE_CUDA=\"driver>=525.60.13\"",
        ));
}

#[test]
fn pin_auto_stays_with_the_toolkit_semantic_when_it_is_newest() {
    // Driver 570.86 runs the Blackwell build with no caveats.
    let v = pin_json(&["--host", &format!("{CARDS}/rtx5090-570.json")]);
    let s = &v["stacks"][0];
    assert_eq!(s["semantic"], "toolkit");
    assert!(s.get("minor_compat").is_none());
    assert_eq!(s["reasons"][0]["subject"], "semantic");
}

/// A `--kb` directory whose torch_arch table is `text`.
fn kb_dir(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("torch_arch.toml"), text).unwrap();
    dir
}

/// The 2.8 cu126 and cu128 rows of data/torch_arch.toml: no build has both sm_6x and sm_120.
const NO_COMMON_BUILD_ARCH: &str = r#"[meta]
table = "torch_arch"
description = "test table"
as_of = "2026-10"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu126"
platform = "linux-x86_64"
arch_list = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
ptx = "no"
verified = false
source = "test: the row of data/torch_arch.toml"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu128"
platform = "linux-x86_64"
arch_list = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ptx = "no"
verified = false
source = "test: the row of data/torch_arch.toml"
"#;

#[test]
fn pin_a_mixed_gpu_host_gets_a_stack_per_gpu_group() {
    let dir = kb_dir(NO_COMMON_BUILD_ARCH);
    let kb = dir.path().to_str().unwrap();
    let args = [
        "--kb", kb, "--driver", "570.86", "--gpu", "GTX 1080", "--gpu", "RTX 5090",
    ];
    gpucompat()
        .arg("pin")
        .args(args)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "## Why host command-line has one stack per GPU group",
        ))
        .stdout(predicate::str::contains(
            "the driver (570.86) is not the limit",
        ))
        .stdout(predicate::str::contains("CUDA_VISIBLE_DEVICES=1"))
        .stdout(predicate::str::contains(
            "remove or replace GPU 0 NVIDIA GeForce GTX 1080",
        ))
        .stdout(predicate::str::contains("upgrade the driver").not())
        .stdout(predicate::str::contains("Hosts without a stack").not());
    let v = pin_json(&args);
    assert_eq!(v["stacks"].as_array().unwrap().len(), 2);
    assert_eq!(v["stacks"][1]["gpu_selection"]["gpus"][0], 1);
    assert_eq!(v["gpu_split"][0]["driver_limited"], false);
    gpucompat()
        .arg("pin")
        .args(args)
        .args(["--format", "dockerfile", "--group", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "# for GPU 1 of command-line only: run with CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=1",
        ))
        .stdout(predicate::str::contains("FROM nvidia/cuda:12.8"));
}

#[test]
fn pin_takes_a_build_with_kernels_for_every_gpu_from_newer_tables() {
    // A test table in which one torch build carries both sm_60 and sm_120.
    let dir = kb_dir(
        r#"[meta]
table = "torch_arch"
description = "test table"
as_of = "2026-10"

[[row]]
torch_min = "2.10"
torch_max = "2.10"
variant = "cu128"
platform = "linux-x86_64"
arch_list = ["sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ptx = "no"
verified = false
source = "test: a hypothetical list"
"#,
    );
    let kb = dir.path().to_str().unwrap();
    let v = pin_json(&[
        "--kb", kb, "--driver", "570.86", "--gpu", "GTX 1080", "--gpu", "RTX 5090",
    ]);
    let stacks = v["stacks"].as_array().unwrap();
    assert_eq!(stacks.len(), 1, "{v:#}");
    assert_eq!(stacks[0]["packages"][0]["version"], "2.10.0+cu128");
    assert!(v.get("gpu_split").is_none());
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
            "FROM nvidia/cuda:12.8.2-runtime-ubuntu24.04",
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
