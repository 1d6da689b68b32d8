//! Every JSON output validates against the schemas published in `schema/`
//! (documented in docs/json.md): the report envelope of `check`, `explain`,
//! `lint` and `smoke`, the card of `card --json`, and the rule catalog.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema(name: &str) -> jsonschema::Validator {
    let path = root().join("schema").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&v).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, v: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .take(5)
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

/// Run gpucompat; its stdout must be JSON, its exit code 0, 1 or `allow`.
fn json_of(args: &[&str], allow: i32) -> Value {
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("CUDA_VISIBLE_DEVICES")
        .env_remove("GPUCOMPAT_SMOKE_ALLOW_ROOT")
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        code == 0 || code == 1 || code == allow,
        "{args:?}: exit {code}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {stdout}"))
}

fn files(dir: &str, ext: Option<&str>) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| match ext {
            Some(x) => p.extension().is_some_and(|e| e == x),
            None => p.is_file(),
        })
        .collect();
    v.sort();
    v
}

/// The machine fixtures: every directory under tests/fixtures that is a fake root.
fn machine_roots() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fixtures"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("proc").is_dir() || p.join("sys").is_dir() || p.join("etc").is_dir())
        .collect();
    v.sort();
    assert!(v.len() >= 10, "{v:?}");
    v
}

#[test]
fn check_reports_and_cards_validate() {
    let report = schema("report.schema.json");
    let card = schema("card.schema.json");
    for p in files("tests/fixtures/cards", Some("json")) {
        let v = json_of(&["check", "--card", p.to_str().unwrap(), "--json"], 1);
        assert_valid(&report, &p.display().to_string(), &v);
        assert_valid(
            &card,
            &format!("{} inventory", p.display()),
            &v["inventory"],
        );
        assert_eq!(v["kind"], "check");
    }
    for r in machine_roots() {
        let r = r.to_str().unwrap();
        let v = json_of(&["check", "--root", r, "--json"], 1);
        assert_valid(&report, r, &v);
        assert_valid(&card, &format!("{r} check inventory"), &v["inventory"]);
        let c = json_of(&["card", "--root", r, "--json"], 0);
        assert_valid(&card, &format!("{r} card"), &c);
    }
}

#[test]
fn explain_reports_validate() {
    let report = schema("report.schema.json");
    let card = schema("card.schema.json");
    for p in files("tests/fixtures/explain", Some("txt")) {
        let v = json_of(&["explain", "--json", p.to_str().unwrap()], 1);
        assert_valid(&report, &p.display().to_string(), &v);
        assert_valid(
            &card,
            &format!("{} inventory", p.display()),
            &v["inventory"],
        );
        assert_eq!(v["kind"], "explain");
    }
}

#[test]
fn lint_reports_validate() {
    let report = schema("report.schema.json");
    let dockerfiles = files("tests/fixtures/plan/dockerfiles", None);
    assert!(!dockerfiles.is_empty());
    for p in dockerfiles {
        let v = json_of(&["lint", "--json", p.to_str().unwrap()], 1);
        assert_valid(&report, &p.display().to_string(), &v);
        assert_eq!(v["kind"], "lint");
        assert_eq!(v["file"], p.display().to_string());
    }
}

#[test]
fn smoke_and_check_smoke_reports_validate() {
    let report = schema("report.schema.json");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Under a --root tree smoke proves nothing: exit 2, and still a report.
    let v = json_of(&["smoke", "--json", "--root", d], 2);
    assert_valid(&report, "smoke --root", &v);
    assert_eq!(v["kind"], "smoke");
    assert_eq!(v["findings"][0]["code"], "SMK022");
    let v = json_of(&["check", "--json", "--root", d, "--smoke"], 1);
    assert_valid(&report, "check --smoke", &v);
}

#[test]
fn the_rule_catalog_validates() {
    let rules = schema("rules.schema.json");
    let v = json_of(&["rule", "--all", "--json"], 0);
    assert_valid(&rules, "rule --all --json", &v);
    for r in gpucompat::rules::registry::all() {
        let one: Value = serde_json::from_str(&gpucompat::render::findings::rule_json(&r)).unwrap();
        assert_valid(&rules, r.code, &one);
    }
    for code in ["DRV001", "DKR001", "SMK001"] {
        let v = json_of(&["rule", code, "--json"], 0);
        assert_valid(&rules, code, &v);
        assert_eq!(v["code"], code);
    }
}

#[test]
fn the_schemas_reject_what_is_not_a_report() {
    let report = schema("report.schema.json");
    let card = schema("card.schema.json");
    for bad in [
        serde_json::json!({}),
        serde_json::json!([]),
        serde_json::json!({"findings": [], "inventory": [1]}),
        serde_json::json!({"schema_version": 1, "tool": {"name": "gpucompat", "version": "0"},
            "kind": "check", "findings": [], "summary": {"errors": 0, "warnings": 0, "info": 0, "rules_checked": 0}}),
    ] {
        assert!(!report.is_valid(&bad), "{bad}");
    }
    assert!(!card.is_valid(&serde_json::json!({})));
    assert!(!card.is_valid(&serde_json::json!({"schema_version": 1, "origin": "x"})));
}
