//! One report for every command: the smoke rules in the catalog and in
//! `--select`/`--ignore`, one text shape and one JSON envelope across
//! `check`, `explain`, `lint` and `smoke`, sorted findings, the number of
//! rules actually checked, and the tier-1 line.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Out {
    let o = Command::cargo_bin("gpucompat")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("CUDA_VISIBLE_DEVICES")
        .env_remove("GPUCOMPAT_SMOKE_ALLOW_ROOT")
        .args(args)
        .output()
        .unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn json(args: &[&str]) -> Value {
    let out = run(args);
    serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}\n{}", out.stdout, out.stderr))
}

fn fixture(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
        .display()
        .to_string()
}

#[test]
fn rule_smk001_prints_its_docs() {
    let out = run(&["rule", "SMK001"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for section in [
        "## What it checks",
        "## Why it breaks",
        "## How to fix",
        "## Sources",
    ] {
        assert!(out.stdout.contains(section), "{section}: {}", out.stdout);
    }
    assert!(
        out.stdout.starts_with("SMK001 no-cuda-driver\n"),
        "{}",
        out.stdout
    );
    let v = json(&["rule", "smk001", "--json"]);
    assert_eq!(v["kind"], "smoke");
    assert_eq!(v["category"], "no_driver");
    // Dockerfile rules share the same shape.
    let v = json(&["rule", "DKR001", "--json"]);
    assert_eq!(v["kind"], "dockerfile");
    assert!(v["docs"]["sources"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));
}

#[test]
fn rule_all_lists_every_kind() {
    let v = json(&["rule", "--all", "--json"]);
    let kinds: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    for k in ["inventory", "dockerfile", "smoke"] {
        assert!(kinds.contains(&k), "{k}");
    }
    let text = run(&["rule", "--all"]).stdout;
    assert!(text.contains("SMK001") && text.contains("DKR001") && text.contains("DRV001"));
}

#[test]
fn smoke_codes_are_accepted_by_select_and_ignore() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Under a --root tree smoke reports SMK022 (a warning); ignoring it leaves none.
    let out = run(&["check", "--root", d, "--smoke", "--ignore", "SMK001"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v = json(&[
        "check", "--root", d, "--smoke", "--json", "--ignore", "SMK022",
    ]);
    assert!(v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["code"] != "SMK022"));
    let v = json(&["check", "--root", d, "--smoke", "--json", "--select", "SMK"]);
    let n = gpucompat::smoke::rules::RULES.len() as u64;
    assert_eq!(v["summary"]["rules_checked"], n);
    assert_eq!(v["findings"][0]["code"], "SMK022");
    // smoke and lint take the same flags.
    let out = run(&["smoke", "--root", d, "--ignore", "SMK022", "--json"]);
    assert_eq!(out.code, 2);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["findings"], serde_json::json!([]));
    let out = run(&[
        "lint",
        "--select",
        "SMK999",
        &fixture("plan/dockerfiles/clean.Dockerfile"),
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("SMK0"), "{}", out.stderr);
}

#[test]
fn select_counts_the_rules_actually_checked() {
    let card = fixture("cards/cu124-on-535.json");
    let all = json(&["check", "--card", &card, "--json"]);
    let inventory_rules = gpucompat::rules::all().len() as u64;
    assert_eq!(all["summary"]["rules_checked"], inventory_rules);
    let run_only = json(&["check", "--card", &card, "--json", "--select", "RUN"]);
    let run_rules = gpucompat::rules::all()
        .iter()
        .filter(|r| r.code.starts_with("RUN"))
        .count() as u64;
    assert!(run_rules > 0 && run_rules < inventory_rules);
    assert_eq!(run_only["summary"]["rules_checked"], run_rules);
    let text = run(&["check", "--card", &card, "--select", "RUN"]).stdout;
    assert!(
        text.contains(&format!("({run_rules} rules checked")),
        "{text}"
    );
    let ignored = json(&["check", "--card", &card, "--json", "--ignore", "RUN002"]);
    assert_eq!(ignored["summary"]["rules_checked"], inventory_rules - 1);
}

#[test]
fn explain_sorts_its_findings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain");
    let mut several = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        // The top-level reports; corpus/ holds the sealed part too.
        if !p.is_file() {
            continue;
        }
        let v = json(&["explain", "--json", p.to_str().unwrap()]);
        let f = v["findings"].as_array().unwrap();
        let rank = |s: &Value| match s.as_str() {
            Some("error") => 0,
            Some("warning") => 1,
            _ => 2,
        };
        let keys: Vec<(i32, String)> = f
            .iter()
            .map(|x| {
                (
                    rank(&x["severity"]),
                    x["code"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{}", p.display());
        if keys.len() > 1 {
            several += 1;
        }
    }
    assert!(several > 0, "no report with several findings");
}

#[test]
fn every_command_writes_one_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let reports = [
        json(&[
            "check",
            "--card",
            &fixture("cards/cpu-torch-3090.json"),
            "--json",
        ]),
        json(&[
            "explain",
            "--json",
            &fixture("explain/01-cpu-wheel-windows-rtx4080.txt"),
        ]),
        json(&[
            "lint",
            "--json",
            &fixture("plan/dockerfiles/cpu-torch.Dockerfile"),
        ]),
        json(&["smoke", "--json", "--root", d]),
    ];
    let kinds: Vec<&str> = reports
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["check", "explain", "lint", "smoke"]);
    for r in &reports {
        assert_eq!(r["schema_version"], gpucompat::report::SCHEMA_VERSION);
        assert_eq!(r["tool"]["name"], "gpucompat");
        assert_eq!(r["tool"]["version"], env!("CARGO_PKG_VERSION"));
        let s = &r["summary"];
        let f = r["findings"].as_array().unwrap();
        let count = |sev: &str| f.iter().filter(|x| x["severity"] == sev).count() as u64;
        assert_eq!(s["errors"], count("error"), "{}", r["kind"]);
        assert_eq!(s["warnings"], count("warning"));
        assert_eq!(s["info"], count("info"));
        assert!(s["rules_checked"].as_u64().unwrap() > 0, "{}", r["kind"]);
    }
}

#[test]
fn text_findings_have_one_shape_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let outs = [
        run(&["check", "--card", &fixture("cards/cpu-torch-3090.json")]).stdout,
        run(&[
            "explain",
            &fixture("explain/01-cpu-wheel-windows-rtx4080.txt"),
        ])
        .stdout,
        run(&["lint", &fixture("plan/dockerfiles/cpu-torch.Dockerfile")]).stdout,
        run(&["smoke", "--root", d]).stdout,
    ];
    let header =
        regex::Regex::new(r"(?m)^(error|warning|info)\[[A-Z]+[0-9]{3}\] [a-z0-9-]+: \S").unwrap();
    let summary = regex::Regex::new(
        r"(?m)^(No findings|\d+ errors?, \d+ warnings?, \d+ info) .*rules? checked against ",
    )
    .unwrap();
    for o in &outs {
        assert!(header.is_match(o), "{o}");
        assert!(summary.is_match(o), "{o}");
    }
    // lint points at the line.
    assert!(outs[2].contains("  --> "), "{}", outs[2]);
}

#[test]
fn no_accelerator_is_said_first() {
    let out = run(&["check", "--root", &fixture("vm-no-gpu")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("no NVIDIA GPU: tier 1, CPU only"),
        "{}",
        out.stdout
    );
    let v = json(&["check", "--root", &fixture("vm-no-gpu"), "--json"]);
    assert_eq!(v["tier"]["level"], 1);
    // A machine with a GPU does not get the line.
    let out = run(&["check", "--root", &fixture("geforce-desktop")]);
    assert!(!out.stdout.contains("tier 1, CPU only"), "{}", out.stdout);
}
