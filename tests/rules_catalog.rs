//! The registry's invariants: every rule has a unique code and name, full
//! docs, and a fixture that makes it fire and a near miss that keeps it quiet.

mod rules_common;

use gpucompat::finding::Category;
use gpucompat::rules;
use rules_common::*;

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let all = rules::all();
    let mut codes: Vec<&str> = all.iter().map(|r| r.code).collect();
    let mut names: Vec<&str> = all.iter().map(|r| r.name).collect();
    codes.sort();
    names.sort();
    let n = codes.len();
    codes.dedup();
    names.dedup();
    assert_eq!(codes.len(), n, "duplicate rule code");
    assert_eq!(names.len(), n, "duplicate rule name");
    for r in &all {
        let (family, digits) = r.code.split_at(r.code.len() - 3);
        assert!(
            !family.is_empty() && family.chars().all(|c| c.is_ascii_uppercase()),
            "{}: family must be upper-case letters",
            r.code
        );
        assert!(
            digits.chars().all(|c| c.is_ascii_digit()),
            "{}: three digits",
            r.code
        );
        assert!(
            r.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !r.name.starts_with('-')
                && !r.name.ends_with('-')
                && !r.name.contains("--"),
            "{}: name {:?} is not kebab-case",
            r.code,
            r.name
        );
    }
}

#[test]
fn every_rule_has_full_docs() {
    for r in rules::all() {
        for (section, text) in [
            ("summary", r.summary),
            ("What it checks", r.docs.what_it_checks),
            ("Why it breaks", r.docs.why_it_breaks),
            ("How to fix", r.docs.how_to_fix),
        ] {
            assert!(text.trim().len() > 20, "{} has no real '{section}'", r.code);
        }
        assert!(!r.docs.sources.is_empty(), "{} names no source", r.code);
        let doc = r.render_docs();
        for h in [
            "## What it checks",
            "## Why it breaks",
            "## How to fix",
            "## Sources",
            "compatibility semantic:",
        ] {
            assert!(doc.contains(h), "{} docs lack {h}", r.code);
        }
        for sup in r.superseded_by {
            assert!(
                rules::by_code(sup).is_some(),
                "{} is superseded by unknown {sup}",
                r.code
            );
        }
    }
}

#[test]
fn every_category_has_a_rule() {
    let all = rules::all();
    for c in Category::ALL {
        assert!(
            all.iter().any(|r| r.category == c),
            "no rule for category {c}"
        );
    }
}

#[test]
fn every_rule_fires_on_its_fixture_with_category_and_fix() {
    for r in rules::all() {
        let inv = firing(r.code);
        let found = fired(&inv, r.code);
        assert!(
            !found.is_empty(),
            "{} did not fire on its fixture; got {:?}",
            r.code,
            codes(&inv)
        );
        for f in &found {
            assert_eq!(f.category, r.category, "{}", r.code);
            assert_eq!(f.name, r.name, "{}", r.code);
            assert!(!f.message.is_empty(), "{}", r.code);
            assert!(!f.evidence.is_empty(), "{} finding has no evidence", r.code);
            assert!(
                f.evidence.iter().all(|e| !e.source.is_empty()),
                "{} evidence without a source",
                r.code
            );
            let fix = f
                .fix
                .as_ref()
                .unwrap_or_else(|| panic!("{} has no fix", r.code));
            assert!(
                fix.command.is_some() || fix.note.is_some(),
                "{} empty fix",
                r.code
            );
        }
    }
}

#[test]
fn every_rule_stays_quiet_on_its_near_miss() {
    for r in rules::all() {
        let inv = near_miss(r.code);
        assert!(
            fired(&inv, r.code).is_empty(),
            "{} fired on its near miss: {:#?}",
            r.code,
            fired(&inv, r.code)
        );
    }
}

#[test]
fn the_near_miss_of_an_observed_error_moves_the_error_into_the_fact_finding() {
    for r in rules::all()
        .into_iter()
        .filter(|r| !r.superseded_by.is_empty())
    {
        let inv = near_miss(r.code);
        let found = run(&inv);
        let host = found
            .iter()
            .find(|f| r.superseded_by.contains(&f.code.as_str()))
            .unwrap_or_else(|| panic!("{}: no superseding finding in {:?}", r.code, codes(&inv)));
        assert!(
            host.evidence
                .iter()
                .any(|e| e.fact.starts_with("observed error")),
            "{}: {} does not carry the observed error",
            r.code,
            host.code
        );
    }
}

#[test]
fn lookup_by_code_name_and_nearest() {
    assert_eq!(rules::by_code("drv001").map(|r| r.code), Some("DRV001"));
    assert_eq!(
        rules::by_code("cpu-only-torch").map(|r| r.code),
        Some("WHL001")
    );
    assert!(rules::by_code("DRV999").is_none());
    let near = rules::nearest_codes("DRV009");
    assert!(near.contains(&"DRV001"), "{near:?}");
}

/// A rule defined in src/rules but left out of its family's RULES list is
/// never checked: every definition there must be in the registry.
#[test]
fn every_rule_defined_in_the_source_is_registered() {
    let re = regex::Regex::new(
        r#"(?m)^\s*(?:pub static ([A-Z]+[0-9]{3}): Rule\b|(?:observed_rule|setting_rule)!\(\s*([A-Z]+[0-9]{3}),)"#,
    )
    .unwrap();
    let registered: Vec<&str> = rules::all().iter().map(|r| r.code).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for m in re.captures_iter(&text) {
            let code = m.get(1).or(m.get(2)).unwrap().as_str();
            seen += 1;
            assert!(
                registered.contains(&code),
                "{code} is defined in {} but not registered",
                path.display()
            );
        }
    }
    assert!(seen >= 100, "only {seen} rule definitions found");
}
