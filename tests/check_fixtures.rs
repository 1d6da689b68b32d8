//! `gpucompat check --root tests/fixtures/X` for every machine fixture: the
//! codes each scenario must (and must not) produce, and snapshots of the
//! text and the JSON findings users see.

use std::path::Path;

mod common;

struct Out {
    code: i32,
    stdout: String,
}

fn check(fixture: &str, args: &[&str]) -> Out {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let out = common::gpucompat_at_fixture(fixture, &all);
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout)
            .unwrap()
            .replace(env!("CARGO_PKG_VERSION"), "[VERSION]"),
    }
}

/// (fixture, codes that must fire, codes that must stay quiet, exit code)
const EXPECT: &[(&str, &[&str], &[&str], i32)] = &[
    ("amd-rocm", &[], &["DRV002", "PLAT007", "WHL002"], 0),
    ("container-gpus", &["CTR002"], &["CTR001"], 0),
    ("container-no-devices", &["CTR001"], &["CTR002"], 1),
    ("cuda-visible-empty", &["ENV001"], &["DRV002"], 1),
    (
        "geforce-desktop",
        &[],
        &["DRV001", "DRV002", "DRV006", "DRV007", "ENV001", "PLAT007"],
        0,
    ),
    ("gpu-no-module", &["DRV002"], &["DRV001", "PLAT007"], 1),
    ("hgx-h100-nvswitch", &["FAB001"], &["DRV002"], 1),
    (
        "module-lib-mismatch",
        &["DRV001"],
        &["DRV002", "DRV006", "DRV007"],
        1,
    ),
    ("multi-toolkit", &[], &["DRV001", "DRV002", "ARCH007"], 0),
    ("nouveau", &["DRV002"], &["DRV001"], 1),
    ("odd-files", &["DRV003"], &["DRV006"], 1),
    ("smi-hangs", &["DRV006"], &["PLAT007", "DRV007"], 1),
    ("unpacked-image", &[], &["PLAT007"], 0),
    ("vm-no-gpu", &["PLAT007"], &["DRV002"], 0),
    ("wsl2", &[], &["PLAT002", "PLAT003", "PLAT007"], 0),
];

#[test]
fn every_machine_fixture_gives_its_expected_findings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut seen = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        // macOS and Windows trees are tested in tests/platforms.rs.
        if ["cards", "explain", "kb", "plan", "python"].contains(&name.as_str())
            || name.starts_with("macos")
            || name.starts_with("windows")
        {
            continue;
        }
        assert!(
            EXPECT.iter().any(|(f, ..)| *f == name),
            "fixture {name} has no expectation in check_fixtures.rs"
        );
        seen += 1;
    }
    assert_eq!(seen, EXPECT.len());

    for (fixture, fire, quiet, exit) in EXPECT {
        let text = check(fixture, &[]);
        let json = check(fixture, &["--json"]);
        assert_eq!(text.code, *exit, "{fixture} text exit code");
        assert_eq!(json.code, *exit, "{fixture} json exit code");
        let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(v["schema_version"], gpucompat::report::SCHEMA_VERSION);
        assert!(v["inventory"].is_object(), "{fixture}: inventory in JSON");
        let got = common::finding_codes(&v);
        for c in *fire {
            assert!(
                got.iter().any(|g| g == c),
                "{fixture}: {c} should fire, got {got:?}"
            );
        }
        for c in *quiet {
            assert!(
                !got.iter().any(|g| g == c),
                "{fixture}: {c} should stay quiet, got {got:?}"
            );
        }
        insta::assert_snapshot!(format!("check_text__{fixture}"), text.stdout);
        insta::assert_json_snapshot!(format!("check_json__{fixture}"), v["findings"]);
    }
}
