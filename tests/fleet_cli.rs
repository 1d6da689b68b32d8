//! `gpucompat fleet` on directories of real fixture cards, with the bad
//! inputs a card directory collects (a binary, an empty file, a card of
//! another schema version, two cards for one hostname).

use std::path::Path;

use serde_json::Value;

const PLAN_CARDS: &str = "tests/fixtures/plan/cards";

fn fleet(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("fleet")
        .args(args)
        .output()
        .unwrap()
}

fn copy_card(from: &str, to: &Path, hostname: &str) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(PLAN_CARDS)
            .join(from),
    )
    .unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["os"]["hostname"] = serde_json::json!({"value": hostname, "source": "test"});
    std::fs::write(to, serde_json::to_string(&v).unwrap()).unwrap();
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn identical_nodes_share_a_stack_and_an_odd_driver_is_an_outlier() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..4 {
        copy_card(
            "rtx3090-535.json",
            &dir.path().join(format!("n{i}.json")),
            &format!("n{i}"),
        );
    }
    let odd = dir.path().join("n4.json");
    copy_card("rtx3090-535.json", &odd, "n4");
    let text = std::fs::read_to_string(&odd)
        .unwrap()
        .replace("535.104.05", "560.35.03");
    std::fs::write(&odd, text).unwrap();

    let out = fleet(&[dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["nodes"], 5);
    assert_eq!(v["groups"].as_array().unwrap().len(), 2);
    assert_eq!(v["groups"][0]["nodes"].as_array().unwrap().len(), 4);
    assert_eq!(v["floors"]["driver"]["value"], "535.104.05");
    assert_eq!(v["floors"]["driver"]["nodes_at"], 4);
    assert_eq!(v["floors"]["compute_capability"]["value"], "8.6");
    let outliers = v["outliers"].as_array().unwrap();
    assert_eq!(outliers.len(), 1, "{outliers:?}");
    assert_eq!(outliers[0]["node"], "n4");
    assert_eq!(outliers[0]["fact"], "driver");
    assert_eq!(v["common_stack"], true);
    let torch = v["plan"]["stacks"][0]["packages"][0]["requirement"]
        .as_str()
        .unwrap();
    assert!(torch.starts_with("torch=="), "{torch}");
}

#[test]
fn bad_cards_are_listed_and_the_rest_still_make_the_card() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_card("a100-535.json", &d.join("a.json"), "train-a");
    copy_card("t4-535.json", &d.join("b.json"), "cloud-t4");
    copy_card("l4-550.json", &d.join("c.json"), "train-a");
    std::fs::write(
        d.join("binary.json"),
        b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00",
    )
    .unwrap();
    std::fs::write(d.join("empty.json"), b"").unwrap();
    copy_card("t4-535.json", &d.join("future.json"), "future");
    let future = std::fs::read_to_string(d.join("future.json"))
        .unwrap()
        .replacen("\"schema_version\":1", "\"schema_version\":99", 1);
    std::fs::write(d.join("future.json"), future).unwrap();

    let out = fleet(&[d.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for (file, why) in [
        ("binary.json", "binary"),
        ("empty.json", "empty file"),
        ("future.json", "schema version 99"),
        ("c.json", "duplicate hostname \"train-a\""),
    ] {
        assert!(
            err.lines().any(|l| l.contains(file) && l.contains(why)),
            "{file}: {err}"
        );
    }
    let v = json(&out);
    assert_eq!(v["nodes"], 2);
    assert_eq!(v["rejected"].as_array().unwrap().len(), 4);
    assert_eq!(v["floors"]["compute_capability"]["value"], "7.5");

    let text = fleet(&[d.to_str().unwrap()]);
    let t = String::from_utf8_lossy(&text.stdout);
    assert!(t.contains("Skipped cards (4):"), "{t}");
    let md = fleet(&[d.to_str().unwrap(), "--format", "markdown"]);
    let m = String::from_utf8_lossy(&md.stdout);
    assert!(m.starts_with("# Lab compatibility card\n"), "{m}");
    assert!(m.contains("| group-1 |"), "{m}");
}

#[test]
fn nodes_in_error_and_per_group_pins_when_no_stack_fits_all() {
    let out = fleet(&[PLAN_CARDS, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let errors = v["errors"].as_array().unwrap();
    let blackwell = errors
        .iter()
        .find(|e| e["node"] == "lab-blackwell")
        .expect("lab-blackwell in error");
    assert_eq!(blackwell["findings"][0]["code"], "DRV004");
    assert_eq!(v["common_stack"], false);
    assert!(v["plan"]["stacks"].as_array().unwrap().len() > 1);
    // Cards read back from check --json keep the node's own findings.
    let dir = tempfile::tempdir().unwrap();
    let card = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(PLAN_CARDS)
            .join("t4-535.json"),
    )
    .unwrap();
    let env = format!("{{\"schema_version\":1,\"kind\":\"check\",\"findings\":[{{\"code\":\"DRV001\",\"name\":\"x\",\"category\":\"driver_library_mismatch\",\"severity\":\"error\",\"message\":\"seen on the node\",\"evidence\":[],\"kb\":[]}}],\"inventory\":{card}}}");
    std::fs::write(dir.path().join("t4.json"), env).unwrap();
    let out = fleet(&[dir.path().join("t4.json").to_str().unwrap(), "--json"]);
    let v = json(&out);
    assert_eq!(v["errors"][0]["findings"][0]["message"], "seen on the node");
}

#[test]
fn nothing_readable_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.json"), "{").unwrap();
    let out = fleet(&[dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = fleet(&["/no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
}
