//! The explain corpus: real reports from public issues, each with the
//! categories a maintainer would name. Scores the rules on them; the score
//! is asserted once the rule catalog is present (before that it is printed).

// Tests report measurements and skips on the console.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use gpucompat::finding::{Category, Finding, Severity};
use gpucompat::ingest;
use gpucompat::inventory::Inventory;
use gpucompat::kb::Kb;
use gpucompat::rules::run_rules;

struct Report {
    file: String,
    source: String,
    expected: Vec<Category>,
    no_error: bool,
    body: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain")
}

fn load() -> Vec<Report> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus directory")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files.iter().map(|p| parse_report(p)).collect()
}

/// `---` front matter (`source:`, `expected: [a, b]`, `no_error:`, `about:`) then the pasted text.
fn parse_report(path: &Path) -> Report {
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).expect("read fixture");
    let rest = text
        .strip_prefix("---\n")
        .unwrap_or_else(|| panic!("{file}: no front matter"));
    let (header, body) = rest
        .split_once("\n---\n")
        .unwrap_or_else(|| panic!("{file}: front matter not closed"));
    let mut source = String::new();
    let mut expected = Vec::new();
    let mut no_error = None;
    let mut about = String::new();
    for line in header.lines() {
        let (k, v) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("{file}: bad header line {line:?}"));
        match k {
            "source" => source = v.to_string(),
            "expected" => {
                let inner = v.trim().trim_start_matches('[').trim_end_matches(']');
                for c in inner.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                    expected.push(
                        Category::parse(c)
                            .unwrap_or_else(|| panic!("{file}: unknown category {c}")),
                    );
                }
            }
            "no_error" => no_error = Some(v == "true"),
            "about" => about = v.to_string(),
            _ => panic!("{file}: unknown header key {k}"),
        }
    }
    assert!(
        source.starts_with("https://github.com/"),
        "{file}: source must be a public issue URL"
    );
    assert!(!about.is_empty(), "{file}: needs an about line");
    let no_error = no_error.unwrap_or_else(|| panic!("{file}: no_error missing"));
    Report {
        file,
        source,
        expected,
        no_error,
        body: body.to_string(),
    }
}

fn inventory(r: &Report) -> Inventory {
    let mut inv = ingest::ingest(&[(r.file.clone(), r.body.clone())]);
    ingest::enrich(&mut inv, Kb::embedded());
    inv
}

#[test]
fn corpus_is_large_sourced_and_covers_every_category() {
    let reports = load();
    assert!(reports.len() >= 40, "{} reports", reports.len());
    let covered: BTreeSet<Category> = reports.iter().flat_map(|r| r.expected.clone()).collect();
    for c in Category::ALL {
        assert!(covered.contains(&c), "no report expects {c}");
    }
    let working = reports.iter().filter(|r| r.no_error).count();
    assert!(working >= 3, "only {working} working setups");
    let sources: BTreeSet<&str> = reports.iter().map(|r| r.source.as_str()).collect();
    assert_eq!(sources.len(), reports.len(), "two fixtures share a source");
}

/// Every report yields facts or a recognised error: a parser that stops
/// reading a real format fails here.
#[test]
fn every_report_is_read() {
    for r in load() {
        let inv = inventory(&r);
        let read = !inv.errors.is_empty()
            || !inv.gpus.is_empty()
            || inv.driver_version().is_some()
            || inv.nvidia.cuda_max.is_some()
            || !inv.python.is_empty()
            || !inv.env.is_empty()
            || !inv.toolkits.is_empty()
            || !inv.amd.gfx_targets.is_empty()
            || inv.os.kind.is_some();
        assert!(read, "{}: nothing was read", r.file);
        for e in &inv.errors {
            assert!(e.source.starts_with("input line "), "{}: {:?}", r.file, e);
        }
    }
}

fn errors(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count()
}

#[test]
fn rules_name_the_expected_category() {
    let reports = load();
    let kb = Kb::embedded();
    let mut hits = 0usize;
    let mut errors_on_working = 0usize;
    let mut any_findings = false;
    let mut misses = Vec::new();
    for r in &reports {
        let inv = inventory(r);
        let findings = run_rules(&inv, kb);
        any_findings |= !findings.is_empty();
        let got: BTreeSet<Category> = findings.iter().map(|f| f.category).collect();
        let has_expected = r.expected.iter().all(|c| got.contains(c));
        let n_err = errors(&findings);
        let hit = if r.no_error {
            errors_on_working += n_err;
            n_err == 0 && has_expected
        } else {
            has_expected
        };
        if hit {
            hits += 1;
        } else {
            let got: Vec<&str> = got.iter().map(|c| c.as_str()).collect();
            misses.push(format!(
                "  {}: expected {:?}, got {:?}{}",
                r.file,
                r.expected.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
                got,
                if r.no_error && n_err > 0 {
                    format!(" ({n_err} error findings on a working setup)")
                } else {
                    String::new()
                }
            ));
        }
    }
    let score = hits as f64 / reports.len() as f64;
    println!(
        "explain corpus: {hits}/{} reports get their expected categories ({:.1}%); {errors_on_working} error findings on working setups",
        reports.len(),
        score * 100.0
    );
    for m in &misses {
        println!("{m}");
    }
    if !any_findings {
        println!("the rule registry returned no findings on any report: score not asserted");
        return;
    }
    assert!(score >= 0.9, "score {:.1}% is below 90%", score * 100.0);
    assert_eq!(errors_on_working, 0, "error findings on working setups");
}
