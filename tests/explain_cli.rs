//! `gpucompat explain` from the outside: files and stdin, text and JSON, exit codes.

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/explain")
        .join(name)
}

fn gpucompat() -> Command {
    Command::cargo_bin("gpucompat").unwrap()
}

#[test]
fn text_report_cites_lines_and_says_what_to_run() {
    let out = gpucompat()
        .args(["explain"])
        .arg(fixture("07-driver-too-old-11040-bare.txt"))
        .assert()
        // An error finding: exit 1, as for check.
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("driver's CUDA: 11.4 (input line 7)"),
        "{text}"
    );
    assert!(text.contains("To be sure, also run:"), "{text}");
    assert!(text.contains("  nvidia-smi\n"), "{text}");
}

#[test]
fn json_has_the_contract_fields() {
    let out = gpucompat()
        .args(["explain", "--json"])
        .arg(fixture("13-mismatch-nvml-570.txt"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["schema_version"], gpucompat::report::SCHEMA_VERSION);
    assert_eq!(v["tool"]["name"], "gpucompat");
    assert!(v["findings"].is_array());
    let lib = &v["inventory"]["nvidia"]["user_libraries"][0]["version"];
    assert_eq!(lib["value"], "570.124");
    assert_eq!(lib["source"], "input line 13");
    let tbs = v["to_be_sure"].as_array().unwrap();
    assert!(tbs
        .iter()
        .any(|t| t["command"] == "cat /proc/driver/nvidia/version" && t["reason"].is_string()));
    let errs = v["inventory"]["errors"].as_array().unwrap();
    assert_eq!(errs[0]["kind"], "nvml_driver_library_mismatch");
    assert_eq!(errs[0]["code"], 18);
}

#[test]
fn stdin_and_dash() {
    for args in [vec!["explain"], vec!["explain", "-"]] {
        gpucompat()
            .args(&args)
            .write_stdin(
                "| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: 12.4 |\n",
            )
            .assert()
            .success()
            .stdout(predicate::str::contains("driver: 550.54.14 (input line 1)"));
    }
}

#[test]
fn several_files_cite_their_names() {
    let a = fixture("04-driver-too-old-470-rtx3050.txt");
    let b = fixture("08-arch-rtx5090-sm120.txt");
    let out = gpucompat()
        .args(["explain", "--json"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let src = v["inventory"]["nvidia"]["driver_version"]["source"]
        .as_str()
        .unwrap();
    assert_eq!(src, format!("{} line 12", a.display()));
    // The RTX 5090 is named in the second file only.
    let gpus = v["inventory"]["gpus"].as_array().unwrap();
    let g = gpus
        .iter()
        .find(|g| {
            g["name"]["value"]
                .as_str()
                .is_some_and(|n| n.contains("5090"))
        })
        .unwrap_or_else(|| panic!("{gpus:?}"));
    let gpu_src = g["name"]["source"].as_str().unwrap();
    assert!(gpu_src.starts_with(&b.display().to_string()), "{gpu_src}");
}

#[test]
fn missing_file_is_a_usage_error_with_its_path() {
    gpucompat()
        .args(["explain", "/nonexistent/report.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/report.txt"));
}

#[test]
fn odd_bytes_and_empty_input_do_not_fail() {
    gpucompat()
        .args(["explain"])
        .write_stdin(vec![0xff, 0xfe, b'\n', 0x00, b'N', b'V', 0x80])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Nothing gpucompat knows how to read",
        ));
    gpucompat()
        .args(["explain", "--json"])
        .write_stdin("")
        .assert()
        .success();
}

#[test]
fn text_snapshot() {
    let out = gpucompat()
        .current_dir(fixture(""))
        .args(["explain", "24-container-nvml-unknown-daemon-reload.txt"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

#[test]
fn json_snapshot() {
    // Relative to the fixture directory, so the snapshot names no machine path.
    let out = gpucompat()
        .current_dir(fixture(""))
        .args(["explain", "--json", "20-wsl-smi-cuda-err.txt"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    insta::assert_json_snapshot!(v);
}

#[test]
fn reads_its_own_card_and_check_json() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nouveau");
    let check = gpucompat()
        .args(["check", "--json", "--root"])
        .arg(&root)
        .assert()
        .get_output()
        .stdout
        .clone();
    let card = gpucompat()
        .args(["card", "--json", "--root"])
        .arg(&root)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    for input in [check, card] {
        let out = gpucompat()
            .args(["explain", "--json", "-"])
            .write_stdin(input)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let codes: Vec<&str> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["code"].as_str())
            .collect();
        // The saved facts, not text parsing, name the nouveau-bound GPU.
        assert!(codes.contains(&"DRV002"), "{codes:?}");
        let src = v["inventory"]["nvidia"]["module_loaded"]["source"].as_str();
        assert_eq!(src, Some("/proc/modules"));
    }
}

#[test]
fn own_json_of_the_wrong_shape_is_an_error() {
    gpucompat()
        .args(["explain", "-"])
        .write_stdin(r#"{"schema_version": 1, "origin": "x", "gpus": "eight"}"#)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a valid card"));
}

/// A finding resting only on what the reporter typed is a lead, shown as a
/// warning with its thin evidence named; the same facts from tool output are an error.
#[test]
fn typed_facts_alone_give_warnings_not_errors() {
    let explained = |text: &str| {
        let out = gpucompat()
            .args(["explain", "-"])
            .write_stdin(text)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = explained(
        "My NVIDIA driver version is 390.48.\nI installed PyTorch 2.1.0 (CUDA 12.1 build).\n",
    );
    assert!(text.contains("warning[RUN001]"), "{text}");
    assert!(text.contains("Thin evidence"), "{text}");
    let text = explained(
        "| NVIDIA-SMI 390.48                 Driver Version: 390.48                    |\nPyTorch version: 2.1.0+cu121\nCUDA used to build PyTorch: 12.1\n",
    );
    assert!(text.contains("error[RUN001]"), "{text}");
}
