//! Compiled-extension rules (EXT) on inventories taken from public reports:
//! each fixture names its source, the rules it must fire and those it must not.

use std::path::Path;

use gpucompat::inventory::Inventory;
use gpucompat::kb::Kb;
use gpucompat::rules;

#[derive(serde::Deserialize)]
struct Case {
    source: String,
    excerpt: String,
    expect: Vec<String>,
    must_not: Vec<String>,
    inventory: Inventory,
}

fn run(inv: &Inventory) -> Vec<String> {
    let kb = Kb::embedded();
    rules::all()
        .into_iter()
        .filter(|r| r.code.starts_with("EXT"))
        .flat_map(|r| (r.check)(inv, kb))
        .map(|f| f.code)
        .collect()
}

#[test]
fn extension_fixtures_fire_and_stay_quiet() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kb/extensions");
    let mut n = 0;
    let mut fired = std::collections::BTreeSet::new();
    let mut quiet = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let case: Case =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !case.source.is_empty() && !case.excerpt.is_empty(),
            "{}",
            path.display()
        );
        let codes = run(&case.inventory);
        for c in &case.expect {
            assert!(
                codes.contains(c),
                "{}: expected {c}, got {codes:?}",
                path.display()
            );
            fired.insert(c.clone());
        }
        for c in &case.must_not {
            assert!(
                !codes.contains(c),
                "{}: {c} must not fire, got {codes:?}",
                path.display()
            );
            quiet.insert(c.clone());
        }
        n += 1;
    }
    assert!(n >= 8);
    for code in ["EXT001", "EXT002", "EXT003", "EXT004"] {
        assert!(fired.contains(code), "no fixture fires {code}");
        assert!(quiet.contains(code), "no fixture keeps {code} quiet");
    }
}

#[test]
fn findings_carry_evidence_and_the_kb_row() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/kb/extensions/xformers-0.0.23.post1-torch-2.1.0-cpu.json"),
    )
    .unwrap();
    let case: Case = serde_json::from_str(&text).unwrap();
    let kb = Kb::embedded();
    let f = &(rules::by_code("EXT001").unwrap().check)(&case.inventory, kb)[0];
    assert!(f.message.contains("torch==2.1.2"), "{}", f.message);
    assert!(f.kb.iter().any(|k| k.table == "extensions"));
    assert!(f.evidence.iter().any(|e| e.fact.starts_with("xformers")));
    assert!(f
        .fix
        .as_ref()
        .and_then(|x| x.command.as_deref())
        .unwrap()
        .contains("torch==2.1.2"));
}

#[test]
fn a_row_that_pins_no_torch_raises_no_pin_mismatch() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/kb/extensions/xformers-0.0.23.post1-torch-2.1.0-cpu.json"),
    )
    .unwrap();
    let case: Case = serde_json::from_str(&text).unwrap();
    let table = include_str!("../data/extensions.toml");
    let pin = "torch = [\"2.1.2\"]\nprebuilt = \"pypi\"\nnote = \"PyPI wheel requires torch==2.1.2";
    assert!(table.contains(pin));
    // The same row with its pin emptied: "pins no torch", so no pin finding.
    let kb = Kb::with_table_text(
        "extensions",
        &table.replacen(
            pin,
            "torch = []\nprebuilt = \"pypi\"\nnote = \"PyPI wheel requires torch==2.1.2",
            1,
        ),
    )
    .unwrap();
    let f = (rules::by_code("EXT001").unwrap().check)(&case.inventory, &kb);
    assert!(
        f.iter().all(|f| !f.message.contains("pairs with torch")),
        "{f:?}"
    );
    // With the pin, it fires (the test can fail).
    let f = (rules::by_code("EXT001").unwrap().check)(&case.inventory, Kb::embedded());
    assert!(f.iter().any(|f| f.message.contains("torch==2.1.2")));
}
