//! SARIF 2.1.0: findings in the format code-scanning services and editors
//! read (GitHub code scanning, VS Code's SARIF viewer). One run, gpucompat as
//! the tool; each code that fired becomes a rule with its summary and docs.

use serde_json::{json, Value};

use crate::finding::{Finding, Severity};

/// What SARIF says about a rule: its one-line summary and its full docs.
#[derive(Debug, Clone, Default)]
pub struct RuleText {
    pub summary: String,
    pub help: String,
}

/// Where the findings were read from, when they point into a file
/// (`lint Dockerfile`, `explain report.txt`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Artifact<'a> {
    pub uri: Option<&'a str>,
}

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The SARIF log. `describe` returns a rule's text by code (None for a code
/// the catalog does not know, which still gets a rule entry with its name).
pub fn sarif(
    findings: &[Finding],
    artifact: Artifact<'_>,
    describe: &dyn Fn(&str) -> Option<RuleText>,
) -> Value {
    let mut codes: Vec<&Finding> = Vec::new();
    for f in findings {
        if !codes.iter().any(|g| g.code == f.code) {
            codes.push(f);
        }
    }
    let rules: Vec<Value> = codes
        .iter()
        .map(|f| {
            let text = describe(&f.code).unwrap_or_default();
            let summary = if text.summary.is_empty() {
                f.name.clone()
            } else {
                text.summary.clone()
            };
            let mut rule = json!({
                "id": f.code,
                "name": f.name,
                "shortDescription": { "text": summary },
                "defaultConfiguration": { "level": level(f.severity) },
                "properties": { "category": f.category.as_str() },
            });
            if !text.help.is_empty() {
                rule["fullDescription"] = json!({ "text": text.help.lines().next().unwrap_or("") });
                rule["help"] = json!({ "text": text.help });
            }
            rule
        })
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let index = codes.iter().position(|g| g.code == f.code).unwrap_or(0);
            let mut r = json!({
                "ruleId": f.code,
                "ruleIndex": index,
                "level": level(f.severity),
                "message": { "text": f.message },
                "properties": {
                    "category": f.category.as_str(),
                    "evidence": f.evidence,
                    "kb": f.kb,
                },
            });
            if let Some(fix) = &f.fix {
                r["properties"]["fix"] = json!(fix);
            }
            if let Some(uri) = artifact.uri {
                let mut loc = json!({ "physicalLocation": { "artifactLocation": { "uri": uri } } });
                if let Some(line) = f.line.filter(|l| *l > 0) {
                    loc["physicalLocation"]["region"] = json!({ "startLine": line });
                }
                r["locations"] = json!([loc]);
            }
            r
        })
        .collect();
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "gpucompat",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://pypi.org/project/gpucompat/",
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Category;

    fn finding(code: &str, sev: Severity, line: Option<usize>) -> Finding {
        Finding {
            code: code.into(),
            name: "driver-too-old".into(),
            category: Category::DriverTooOld,
            severity: sev,
            message: "the driver supports CUDA 11.4".into(),
            evidence: Vec::new(),
            kb: Vec::new(),
            fix: None,
            line,
        }
    }

    #[test]
    fn one_rule_per_code_and_levels_map() {
        let fs = [
            finding("DRV001", Severity::Error, None),
            finding("DRV001", Severity::Warning, None),
            finding("ENV001", Severity::Info, None),
        ];
        let v = sarif(&fs, Artifact::default(), &|_| None);
        let run = &v["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), 2);
        assert_eq!(run["results"][1]["level"], "warning");
        assert_eq!(run["results"][2]["level"], "note");
        assert_eq!(run["results"][2]["ruleIndex"], 1);
        assert!(run["results"][0].get("locations").is_none());
    }

    #[test]
    fn file_findings_carry_their_line() {
        let fs = [finding("DKR001", Severity::Error, Some(7))];
        let v = sarif(
            &fs,
            Artifact {
                uri: Some("Dockerfile"),
            },
            &|_| None,
        );
        let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "Dockerfile");
        assert_eq!(loc["region"]["startLine"], 7);
    }
}
