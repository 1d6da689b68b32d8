//! docs/rules.md is generated from `gpucompat rule --all` and each rule's
//! `gpucompat rule CODE`; this test fails when it is stale. To regenerate:
//! `GPUCOMPAT_UPDATE_DOCS=1 cargo test --test docs_rules`.

use std::path::Path;

fn gpucompat(args: &[&str]) -> String {
    let out = assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .args(args)
        .args(["--color", "never"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn generated() -> String {
    let mut doc = String::from(
        "# Rules\n\n\
         Generated from `gpucompat rule --all` and `gpucompat rule CODE` (the rules' own docs, so this page\n\
         cannot drift from the code); `tests/docs_rules.rs` fails when it is stale, and\n\
         `GPUCOMPAT_UPDATE_DOCS=1 cargo test --test docs_rules` rewrites it.\n\n\
         Select or skip rules with `--select` / `--ignore` (codes like `DRV001`, families like `DRV`, or\n\
         categories like `driver_too_old`).\n\n## The catalog\n\n```text\n",
    );
    doc.push_str(&gpucompat(&["rule", "--all"]));
    doc.push_str("```\n");
    let all: serde_json::Value =
        serde_json::from_str(&gpucompat(&["rule", "--all", "--json"])).unwrap();
    for rule in all.as_array().unwrap() {
        let code = rule["code"].as_str().unwrap();
        let name = rule["name"].as_str().unwrap();
        doc.push_str(&format!("\n## {code} {name}\n\n```text\n"));
        doc.push_str(gpucompat(&["rule", code]).trim_end());
        doc.push_str("\n```\n");
    }
    doc
}

#[test]
fn docs_rules_md_is_generated_from_the_rule_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let want = generated();
    if std::env::var_os("GPUCOMPAT_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/rules.md is stale: run `GPUCOMPAT_UPDATE_DOCS=1 cargo test --test docs_rules`"
    );
}
