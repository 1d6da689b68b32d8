//! `gpucompat card --root tests/fixtures/X` in text, --json and --format
//! markdown for every fixture, as insta snapshots of what users see.

use std::path::Path;

mod common;

fn card(fixture: &str, args: &[&str]) -> String {
    let mut all = vec!["card"];
    all.extend_from_slice(args);
    let out = common::gpucompat_at_fixture(fixture, &all);
    assert!(
        out.status.success(),
        "{fixture} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
}

macro_rules! fixture_cards {
    ($($name:ident => $dir:literal),* $(,)?) => {
        mod text {
            $(#[test] fn $name() { insta::assert_snapshot!($dir, super::card($dir, &[])); })*
        }
        mod json {
            $(#[test] fn $name() {
                let out = super::card($dir, &["--json"]);
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert_eq!(v["schema_version"], 1);
                let back: gpucompat::inventory::Inventory = serde_json::from_str(&out).unwrap();
                assert_eq!(serde_json::to_value(&back).unwrap(), v, "a saved card reads back unchanged");
                insta::assert_snapshot!($dir, out);
            })*
        }
        mod markdown {
            $(#[test] fn $name() { insta::assert_snapshot!($dir, super::card($dir, &["--format", "markdown"])); })*
        }
    };
}

fixture_cards! {
    amd_rocm => "amd-rocm",
    container_gpus => "container-gpus",
    container_no_devices => "container-no-devices",
    cuda_visible_empty => "cuda-visible-empty",
    geforce_desktop => "geforce-desktop",
    gpu_no_module => "gpu-no-module",
    hgx_h100_nvswitch => "hgx-h100-nvswitch",
    module_lib_mismatch => "module-lib-mismatch",
    multi_toolkit => "multi-toolkit",
    nouveau => "nouveau",
    odd_files => "odd-files",
    smi_hangs => "smi-hangs",
    unpacked_image => "unpacked-image",
    vm_no_gpu => "vm-no-gpu",
    wsl2 => "wsl2",
}

#[test]
fn every_fixture_has_cards() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().replace('-', "_");
        // Directories of other inputs (saved cards, pasted reports, Python trees, plans), not machine roots.
        // macOS and Windows trees are tested in tests/platforms.rs.
        if ["cards", "explain", "kb", "plan", "python"].contains(&name.as_str())
            || name.starts_with("macos")
            || name.starts_with("windows")
        {
            continue;
        }
        let src = include_str!("card_fixtures.rs");
        assert!(
            src.contains(&format!("{name} => ")),
            "fixture {name} has no card test"
        );
        n += 1;
    }
    assert!(n >= 12, "{n} fixtures");
}

#[test]
fn verbose_text_shows_every_source() {
    insta::assert_snapshot!(
        "verbose_text__geforce-desktop",
        card("geforce-desktop", &["-v"])
    );
    insta::assert_snapshot!("verbose_text__wsl2", card("wsl2", &["-v"]));
}

#[test]
fn verbose_markdown_has_a_source_column() {
    let md = card("hgx-h100-nvswitch", &["--format", "markdown", "-v"]);
    assert!(md.contains("| Item | Value | Source |"));
    insta::assert_snapshot!("verbose_markdown__hgx-h100-nvswitch", md);
}

#[test]
fn json_flag_and_format_json_agree() {
    assert_eq!(
        card("container-gpus", &["--json"]),
        card("container-gpus", &["--format", "json"])
    );
}
