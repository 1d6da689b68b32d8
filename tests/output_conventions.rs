//! The output conventions every findings command shares: --output-format
//! (text, json, sarif, github) with --json as its alias, --color with
//! NO_COLOR and CLICOLOR_FORCE, --quiet, --exit-zero, --fail-on, and the
//! conflicting pairs that are usage errors.

mod common;

use std::path::Path;
use std::process::Output;

use common::gpucompat_at_fixture;

const ESC: &str = "\u{1b}[";

fn gpucompat() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("gpucompat").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    c
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `check` on a fixture with one error (a kernel module and libraries from
/// different driver releases).
const BROKEN: &str = "module-lib-mismatch";
/// Two warnings, no error.
const WARNINGS: &str = "container-gpus";
/// Nothing to report.
const CLEAN: &str = "geforce-desktop";

fn check(fixture: &str, args: &[&str]) -> Output {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    gpucompat_at_fixture(fixture, &all)
}

#[test]
fn exit_codes_follow_fail_on_and_exit_zero() {
    assert_eq!(check(BROKEN, &[]).status.code(), Some(1));
    assert_eq!(check(BROKEN, &["--exit-zero"]).status.code(), Some(0));
    assert_eq!(
        check(BROKEN, &["--fail-on", "warning"]).status.code(),
        Some(1)
    );
    assert_eq!(check(WARNINGS, &[]).status.code(), Some(0));
    assert_eq!(
        check(WARNINGS, &["--fail-on", "error"]).status.code(),
        Some(0)
    );
    assert_eq!(
        check(WARNINGS, &["--fail-on", "warning"]).status.code(),
        Some(1)
    );
    assert_eq!(
        check(CLEAN, &["--fail-on", "warning"]).status.code(),
        Some(0)
    );
}

#[test]
fn exit_zero_and_fail_on_together_are_a_usage_error() {
    let o = check(BROKEN, &["--exit-zero", "--fail-on", "warning"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn exit_zero_keeps_the_usage_error_of_a_smoke_test_that_proved_nothing() {
    let o = gpucompat_at_fixture(CLEAN, &["smoke", "--exit-zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn quiet_prints_only_the_findings_and_nothing_on_success() {
    let o = check(BROKEN, &["--quiet"]);
    let out = stdout(&o);
    assert!(out.starts_with("error[DRV001]"), "{out}");
    assert!(!out.contains("rules checked"), "{out}");
    assert!(!out.contains("note:"), "{out}");
    let o = check(CLEAN, &["-q"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
    // Without --quiet the clean machine says so.
    assert!(stdout(&check(CLEAN, &[])).contains("No findings"));
}

#[test]
fn json_is_an_alias_of_output_format_json_and_format_still_works() {
    let a: serde_json::Value = serde_json::from_slice(&check(BROKEN, &["--json"]).stdout).unwrap();
    let b: serde_json::Value =
        serde_json::from_slice(&check(BROKEN, &["--output-format", "json"]).stdout).unwrap();
    let c: serde_json::Value =
        serde_json::from_slice(&check(BROKEN, &["--format", "json"]).stdout).unwrap();
    assert_eq!(a["findings"], b["findings"]);
    assert_eq!(a["findings"], c["findings"]);
    assert_eq!(a["findings"][0]["code"], "DRV001");
}

#[test]
fn conflicting_formats_are_usage_errors() {
    let o = check(BROKEN, &["--json", "--output-format", "text"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gpucompat_at_fixture(CLEAN, &["card", "--json", "--format", "markdown"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = gpucompat()
        .args(["rule", "--all", "--json", "--output-format", "text"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = gpucompat()
        .args([
            "pin",
            "--driver",
            "550.54.14",
            "--cc",
            "8.9",
            "--json",
            "--format",
            "uv",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn text_into_a_pipe_is_plain_unless_colour_is_forced() {
    let plain = check(BROKEN, &[]);
    assert!(!stdout(&plain).contains(ESC), "{}", stdout(&plain));

    let forced = gpucompat()
        .args(["check", "--root", &format!("tests/fixtures/{BROKEN}")])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    let out = stdout(&forced);
    assert!(out.contains(&format!("{ESC}1m{ESC}31merror")), "{out:?}");

    let always = gpucompat()
        .args([
            "check",
            "--color",
            "always",
            "--root",
            &format!("tests/fixtures/{BROKEN}"),
        ])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&always),
        out,
        "--color always colours like CLICOLOR_FORCE"
    );
}

#[test]
fn no_color_and_color_never_win_over_clicolor_force() {
    let root = format!("tests/fixtures/{BROKEN}");
    let o = gpucompat()
        .args(["check", "--root", &root])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!stdout(&o).contains(ESC));
    let o = gpucompat()
        .args(["check", "--color", "never", "--root", &root])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(!stdout(&o).contains(ESC));
    // The stripped text is exactly the plain text.
    let plain = gpucompat()
        .args(["check", "--root", &root])
        .output()
        .unwrap();
    assert_eq!(stdout(&o), stdout(&plain));
}

#[test]
fn json_sarif_and_github_output_never_carry_colour() {
    for format in ["json", "sarif", "github"] {
        let o = gpucompat()
            .args(["check", "--color", "always", "--output-format", format])
            .args(["--root", &format!("tests/fixtures/{BROKEN}")])
            .output()
            .unwrap();
        assert!(!stdout(&o).contains(ESC), "{format}: {}", stdout(&o));
        assert_eq!(o.status.code(), Some(1), "{format}");
    }
}

fn sarif_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/sarif-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft4::new(&schema).expect("the SARIF schema compiles")
}

fn assert_valid_sarif(o: &Output) -> serde_json::Value {
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)));
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&v)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{v:#}");
    v
}

#[test]
fn sarif_from_every_findings_command_validates_against_the_schema() {
    let v = assert_valid_sarif(&check(BROKEN, &["--output-format", "sarif"]));
    let run = &v["runs"][0];
    assert_eq!(run["results"][0]["ruleId"], "DRV001");
    assert_eq!(run["results"][0]["level"], "error");
    let rule = &run["tool"]["driver"]["rules"][0];
    assert_eq!(rule["id"], "DRV001");
    assert!(
        rule["fullDescription"].is_object() || rule["help"].is_object(),
        "{rule:#}"
    );

    let o = gpucompat()
        .args(["lint", "--output-format", "sarif"])
        .arg("tests/fixtures/plan/dockerfiles/driver.Dockerfile")
        .output()
        .unwrap();
    let v = assert_valid_sarif(&o);
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert!(loc["artifactLocation"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("driver.Dockerfile"));
    assert!(loc["region"]["startLine"].as_u64().unwrap() > 0, "{loc:#}");

    let o = gpucompat()
        .args(["explain", "--output-format", "sarif"])
        .arg("tests/fixtures/explain/04-driver-too-old-470-rtx3050.txt")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_valid_sarif(&o);

    // A clean machine is a valid log with no results.
    let v = assert_valid_sarif(&check(CLEAN, &["--output-format", "sarif"]));
    assert_eq!(v["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn github_output_is_one_workflow_command_per_finding() {
    let out = stdout(&check(WARNINGS, &["--output-format", "github"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines.iter().all(|l| l.starts_with("::warning title=")),
        "{out}"
    );

    let o = gpucompat()
        .args(["lint", "--output-format", "github"])
        .arg("tests/fixtures/plan/dockerfiles/driver.Dockerfile")
        .output()
        .unwrap();
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("::"), "{out}");
    assert!(
        first.contains("file=") && first.contains(",line="),
        "{first}"
    );
    assert!(stdout(&check(CLEAN, &["--output-format", "github"])).is_empty());
}

#[test]
fn global_options_apply_only_where_they_mean_something() {
    // Before the subcommand, as always.
    let o = gpucompat()
        .args([
            "--root",
            &format!("tests/fixtures/{BROKEN}"),
            "check",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // After it, too.
    let o = gpucompat()
        .args([
            "check",
            "--json",
            "--root",
            &format!("tests/fixtures/{BROKEN}"),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // Not where they mean nothing.
    for args in [
        &["rule", "DRV001", "--root", "/"][..],
        &["smoke", "--kb", "data"][..],
        &["completions", "bash", "--root", "/"][..],
        &["--root", "/", "rule", "DRV001"][..],
        &["--kb", "data", "smoke"][..],
    ] {
        let o = gpucompat().args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn rule_db_card_and_pin_take_output_format_too() {
    let json = |args: &[&str]| -> serde_json::Value {
        let o = gpucompat().args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    };
    assert_eq!(
        json(&["rule", "DRV001", "--output-format", "json"])["code"],
        "DRV001"
    );
    assert_eq!(
        json(&["db", "driver", "550.54.14", "--output-format", "json"])["driver"],
        "550.54.14"
    );
    assert!(json(&["db", "image", "--list", "--output-format", "json"]).is_array());
    let card = gpucompat_at_fixture(CLEAN, &["card", "--output-format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&card.stdout).unwrap();
    assert!(v["schema_version"].is_number(), "{v}");
}
