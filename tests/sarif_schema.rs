//! SARIF output validates against the OASIS SARIF 2.1.0 schema (vendored in
//! tests/schemas/), for Dockerfile findings with lines and for machine checks.

use std::path::Path;

use gpucompat::kb::Kb;
use gpucompat::plan::lint;
use gpucompat::render::sarif::{sarif, Artifact, RuleText};

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/sarif-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft4::new(&schema).expect("the SARIF schema compiles")
}

fn assert_valid(v: &serde_json::Value) {
    let errors: Vec<String> = validator()
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{v:#}");
}

fn describe(code: &str) -> Option<RuleText> {
    lint::rule(code).map(|r| RuleText {
        summary: r.summary.to_string(),
        help: format!("{}\n\n{}", r.what_it_checks, r.how_to_fix),
    })
}

#[test]
fn lint_findings_are_valid_sarif_with_regions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plan/dockerfiles");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let findings = lint::lint(&text, Kb::embedded(), &[]);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let v = sarif(&findings, Artifact { uri: Some(&name) }, &describe);
        assert_valid(&v);
        let results = v["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), findings.len());
        checked += findings.len();
    }
    assert!(checked > 0, "no Dockerfile fixture produced a finding");
}

#[test]
fn machine_findings_without_a_file_are_valid_sarif() {
    let inv = gpucompat::ingest::ingest(&[(
        "report".to_string(),
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n"
            .to_string(),
    )]);
    let findings = gpucompat::rules::run_rules(&inv, Kb::embedded());
    assert!(!findings.is_empty());
    let v = sarif(&findings, Artifact::default(), &|_| None);
    assert_valid(&v);
}

#[test]
fn an_invalid_log_is_rejected() {
    // The validator is real: a result without a message fails.
    let mut v = sarif(&[], Artifact::default(), &|_| None);
    v["runs"][0]["results"] = serde_json::json!([{ "ruleId": "X" }]);
    assert!(!validator().is_valid(&v));
}
