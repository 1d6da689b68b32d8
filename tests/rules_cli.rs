//! `gpucompat check` and `gpucompat rule` from the outside: text and JSON
//! snapshots of saved cards, selection, exit codes, rule docs.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn cards() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir("tests/fixtures/cards")
        .expect("cards dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn card(name: &str) -> String {
    format!("tests/fixtures/cards/{name}.json")
}

fn gpucompat() -> Command {
    let mut c = Command::cargo_bin("gpucompat").expect("binary");
    c.env("NO_COLOR", "1");
    c
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Out {
    let o = gpucompat().args(args).output().expect("run");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn check_card_text_snapshots() {
    for p in cards() {
        let out = run(&["check", "--card", p.to_str().unwrap()]);
        assert!(
            out.code == 0 || out.code == 1,
            "{}: {}",
            p.display(),
            out.stderr
        );
        insta::assert_snapshot!(format!("check_text__{}", stem(&p)), out.stdout);
    }
}

#[test]
fn check_card_json_snapshots() {
    for p in cards() {
        let out = run(&["check", "--card", p.to_str().unwrap(), "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        assert_eq!(v["schema_version"], gpucompat::report::SCHEMA_VERSION);
        assert_eq!(v["tool"]["name"], "gpucompat");
        assert!(v["inventory"].is_object());
        for f in v["findings"].as_array().unwrap() {
            for key in [
                "code", "name", "category", "severity", "message", "evidence", "kb",
            ] {
                assert!(f.get(key).is_some(), "finding without {key}: {f}");
            }
        }
        insta::assert_json_snapshot!(format!("check_json__{}", stem(&p)), v);
    }
}

#[test]
fn exit_codes_follow_the_worst_severity() {
    assert_eq!(run(&["check", "--card", &card("cpu-torch-3090")]).code, 1);
    assert_eq!(run(&["check", "--card", &card("cu130-on-535")]).code, 1);
    // Warnings and info only: 0.
    assert_eq!(run(&["check", "--card", &card("cu124-on-535")]).code, 0);
    assert_eq!(
        run(&["check", "--card", &card("healthy-3090-smi-12.6")]).code,
        0
    );
    // Usage and input errors: 2.
    let out = run(&[
        "check",
        "--card",
        "tests/fixtures/cards/does-not-exist.json",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("does-not-exist.json"), "{}", out.stderr);
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"gpus\": 7}").unwrap();
    let out = run(&["check", "--card", bad.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("not a gpucompat card"),
        "{}",
        out.stderr
    );
}

#[test]
fn select_and_ignore_by_code_family_and_category() {
    let c = card("cu124-on-535");
    let only = |args: &[&str]| {
        let mut a = vec!["check", "--card", c.as_str(), "--json"];
        a.extend_from_slice(args);
        let out = run(&a);
        assert_ne!(out.code, 2, "{}", out.stderr);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(only(&[]), vec!["RUN002"]);
    assert_eq!(only(&["--select", "RUN002"]), vec!["RUN002"]);
    assert_eq!(only(&["--select", "run002"]), vec!["RUN002"]);
    assert_eq!(only(&["--select", "RUN"]), vec!["RUN002"]);
    assert_eq!(only(&["--select", "driver_too_old"]), vec!["RUN002"]);
    assert_eq!(only(&["--select", "ARCH001,WHL001"]), Vec::<String>::new());
    assert_eq!(
        only(&["--select", "ARCH001", "--select", "RUN002"]),
        vec!["RUN002"]
    );
    assert_eq!(only(&["--ignore", "RUN002"]), Vec::<String>::new());
    assert_eq!(
        only(&["--select", "RUN", "--ignore", "driver_too_old"]),
        Vec::<String>::new()
    );
    // Ignoring the only error turns exit 1 into 0.
    let out = run(&[
        "check",
        "--card",
        &card("cpu-torch-3090"),
        "--ignore",
        "cpu_only_wheel",
    ]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("No findings"));
}

#[test]
fn unknown_selector_is_a_usage_error_with_the_nearest_codes() {
    let out = run(&[
        "check",
        "--card",
        &card("cu124-on-535"),
        "--select",
        "RUN09",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("nearest"), "{}", out.stderr);
    assert!(out.stderr.contains("RUN001"), "{}", out.stderr);
}

#[test]
fn a_check_report_reads_back_as_a_card() {
    let out = run(&["check", "--card", &card("cpu-torch-3090"), "--json"]);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("report.json");
    std::fs::write(&p, &out.stdout).unwrap();
    let again = run(&["check", "--card", p.to_str().unwrap(), "--json"]);
    assert_eq!(again.code, 1);
    let a: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(a["findings"], b["findings"]);
}

#[test]
fn check_is_the_default_command_and_probes_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["--root", dir.path().to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("checked against probe"),
        "{}",
        out.stdout
    );
    let out = run(&[
        "check",
        "--root",
        dir.path().to_str().unwrap(),
        "--python",
        "/nonexistent/python",
        "--exec-python",
        "--smoke",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("note: smoke:"), "{}", out.stdout);
}

#[test]
fn rule_all_lists_every_rule() {
    let out = run(&["rule", "--all"]);
    assert_eq!(out.code, 0);
    for r in gpucompat::rules::registry::all() {
        assert!(
            out.stdout.contains(r.code) && out.stdout.contains(r.name),
            "{}",
            r.code
        );
    }
    insta::assert_snapshot!("rule_all", out.stdout);
    let out = run(&["rule", "--all", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(
        list.len(),
        gpucompat::rules::all().len()
            + gpucompat::plan::lint::RULES.len()
            + gpucompat::smoke::rules::RULES.len()
    );
    for r in list {
        for k in ["code", "name", "kind", "category", "severity", "summary"] {
            assert!(r[k].is_string(), "{k} in {r}");
        }
    }
}

#[test]
fn rule_code_prints_the_docs() {
    let out = run(&["rule", "WHL001"]);
    assert_eq!(out.code, 0);
    assert!(out
        .stdout
        .contains("Installing the CUDA toolkit does not fix a CPU wheel"));
    insta::assert_snapshot!("rule_whl001", out.stdout);
    let out = run(&["rule", "run002", "--json"]);
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["code"], "RUN002");
    assert_eq!(v["semantics"][0], "minor_version");
    for k in ["what_it_checks", "why_it_breaks", "how_to_fix"] {
        assert!(v["docs"][k].as_str().is_some_and(|s| !s.is_empty()), "{k}");
    }
    assert!(v["docs"]["sources"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));
}

#[test]
fn unknown_rule_code_exits_2_with_the_nearest_codes() {
    let out = run(&["rule", "DRV010"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("DRV001"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert_eq!(run(&["rule"]).code, 2);
}
