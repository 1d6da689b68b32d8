//! macOS and Windows machine trees (tests/fixtures/macos-*, windows-*):
//! `card --root` and `check --root` detect the platform from the tree, run
//! the recorded commands inside it, and give the expected findings, with
//! snapshots of what users see.

use std::path::Path;

mod common;

/// (fixture, codes that must fire, codes that must stay quiet, exit code)
const EXPECT: &[(&str, &[&str], &[&str], i32)] = &[
    (
        "macos-intel",
        &["PLAT007"],
        &["MAC001", "MAC002", "MAC003", "PLAT001"],
        0,
    ),
    (
        "macos-m1-mps",
        &[],
        &["MAC001", "MAC002", "MAC003", "PLAT001", "PLAT007"],
        0,
    ),
    (
        "macos-m3-mps",
        &[],
        &["MAC001", "MAC002", "MAC003", "PLAT001", "PLAT007"],
        0,
    ),
    (
        "macos-rosetta",
        &["MAC001"],
        &["MAC002", "MAC003", "PLAT007"],
        1,
    ),
    (
        "macos-old",
        &["MAC002", "MAC003"],
        &["MAC001", "PLAT001"],
        1,
    ),
    (
        "macos-cuda-package",
        &["PLAT001"],
        &["MAC001", "MAC002", "MAC003"],
        1,
    ),
    (
        "macos-mlx",
        &["MAC003"],
        &["MAC001", "MAC002", "PLAT001"],
        1,
    ),
    (
        "windows-cpu-torch",
        &["WHL001"],
        &["RUN001", "WIN001", "WIN002", "WIN003"],
        1,
    ),
    (
        "windows-cu121-old-driver",
        &["RUN001"],
        &["WHL001", "WIN001"],
        1,
    ),
    (
        "windows-no-vcruntime",
        &["WIN001"],
        &["WHL001", "RUN001", "WIN002"],
        1,
    ),
    (
        "windows-stale-cuda-path",
        &["WIN002"],
        &["WIN001", "WHL001", "RUN001"],
        0,
    ),
    (
        "windows-several-pythons",
        &["WIN003"],
        &["WHL001", "RUN001", "WIN001", "WIN004"],
        0,
    ),
    (
        "windows-wsl2",
        &["WIN004"],
        &["WIN001", "WIN003", "PLAT002"],
        0,
    ),
    (
        "windows-studio-driver",
        &[],
        &["RUN001", "WHL001", "WIN001", "WIN002", "WIN003", "DRV005"],
        0,
    ),
    (
        "windows-optimus-laptop",
        &[],
        &["RUN001", "WHL001", "WIN001", "PLAT007"],
        0,
    ),
];

fn run(fixture: &str, args: &[&str]) -> (i32, String) {
    let out = common::gpucompat_at_fixture(fixture, args);
    assert!(
        out.stderr.is_empty(),
        "{fixture} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout)
            .unwrap()
            .replace(env!("CARGO_PKG_VERSION"), "[VERSION]"),
    )
}

#[test]
fn every_platform_fixture_has_an_expectation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("macos") || n.starts_with("windows"))
        .collect();
    names.sort();
    let mut want: Vec<String> = EXPECT.iter().map(|e| e.0.to_string()).collect();
    want.sort();
    assert_eq!(names, want);
    assert!(names.iter().filter(|n| n.starts_with("macos")).count() >= 6);
    assert!(names.iter().filter(|n| n.starts_with("windows")).count() >= 8);
    for n in &names {
        let sources = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(n)
            .join("SOURCES.md");
        assert!(sources.is_file(), "{n} cites no sources");
    }
}

#[test]
fn checks_give_the_expected_findings() {
    for (fixture, fire, quiet, exit) in EXPECT {
        let (code, text) = run(fixture, &["check"]);
        let (jcode, json) = run(fixture, &["check", "--json"]);
        assert_eq!(code, *exit, "{fixture} exit code\n{text}");
        assert_eq!(jcode, *exit, "{fixture} json exit code");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let got = common::finding_codes(&v);
        for c in *fire {
            assert!(
                got.iter().any(|g| g == c),
                "{fixture}: {c} should fire, got {got:?}"
            );
        }
        for c in *quiet {
            assert!(
                !got.iter().any(|g| g == c),
                "{fixture}: {c} should stay quiet, got {got:?}"
            );
        }
        insta::assert_snapshot!(format!("check_text__{fixture}"), text);
        insta::assert_json_snapshot!(format!("check_json__{fixture}"), v["findings"]);
    }
}

#[test]
fn cards_read_back_and_snapshot() {
    for (fixture, ..) in EXPECT {
        let (code, text) = run(fixture, &["card"]);
        assert_eq!(code, 0, "{fixture}");
        insta::assert_snapshot!(format!("card_text__{fixture}"), text);
        let (_, md) = run(fixture, &["card", "--format", "markdown"]);
        insta::assert_snapshot!(format!("card_markdown__{fixture}"), md);
        let (_, json) = run(fixture, &["card", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let back: gpucompat::inventory::Inventory = serde_json::from_str(&json).unwrap();
        assert_eq!(
            serde_json::to_value(&back).unwrap(),
            v,
            "{fixture}: a saved card reads back unchanged"
        );
        insta::assert_snapshot!(format!("card_json__{fixture}"), json);
    }
}

#[test]
fn the_platform_is_detected_from_the_tree() {
    let os = |fixture: &str| {
        let (_, json) = run(fixture, &["card", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["os"]["kind"]["value"].as_str().unwrap_or("").to_string()
    };
    assert_eq!(os("macos-m3-mps"), "macos");
    assert_eq!(os("windows-wsl2"), "windows");
    assert_eq!(os("geforce-desktop"), "linux");
}

#[test]
fn facts_read_from_recorded_outputs() {
    let card = |fixture: &str| -> serde_json::Value {
        let (_, json) = run(fixture, &["card", "--json"]);
        serde_json::from_str(&json).unwrap()
    };
    let m3 = card("macos-m3-mps");
    assert_eq!(m3["apple"]["chip"]["value"], "Apple M3 Pro");
    assert_eq!(m3["apple"]["gpu_cores"]["value"], 18);
    assert_eq!(m3["apple"]["metal"]["value"], "Metal 3");
    assert_eq!(m3["os"]["version_id"]["value"], "14.5");
    assert_eq!(m3["python"][0]["arch"]["value"], "arm64");
    let ros = card("macos-rosetta");
    assert_eq!(ros["python"][0]["arch"]["value"], "x86_64");
    // The driver from Win32_VideoController's internal version: 32.0.15.6094 is 560.94.
    let w = card("windows-several-pythons");
    assert_eq!(w["nvidia"]["driver_version"]["value"], "560.94");
    assert_eq!(w["python"].as_array().unwrap().len(), 5);
    let opt = card("windows-optimus-laptop");
    assert_eq!(
        opt["windows"]["video_controllers"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(opt["gpus"].as_array().unwrap().len(), 1);
    assert_eq!(opt["nvidia"]["driver_version"]["value"], "536.23");
    let cu = card("windows-cu121-old-driver");
    assert_eq!(
        cu["python"][0]["torch"]["bundled_cudart"]["value"],
        "cudart64_12.dll"
    );
    let tk = card("windows-stale-cuda-path");
    assert_eq!(tk["toolkits"][0]["version"]["value"], "12.4.1");
}

#[test]
fn nothing_inside_the_root_runs_without_permission() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/windows-wsl2");
    let out = assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .args(["card", "--json", "--root"])
        .arg(&root)
        .env_remove("GPUCOMPAT_ALLOW_ROOT_CODE")
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["gpus"].as_array().unwrap().is_empty());
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("nvidia-smi.exe") && notes.contains("GPUCOMPAT_ALLOW_ROOT_CODE"),
        "{notes}"
    );
    let mac = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/macos-m3-mps");
    let out = assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .args(["card", "--json", "--root"])
        .arg(&mac)
        .env_remove("GPUCOMPAT_ALLOW_ROOT_CODE")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["apple"]["chip"].is_null());
    assert!(v["notes"].to_string().contains("system_profiler"));
}
