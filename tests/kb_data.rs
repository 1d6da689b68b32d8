//! The knowledge tables load, every row names its source, keys are unique and ordered.

use gpucompat::kb::{cmp_versions, Kb};

#[test]
fn every_table_loads_and_every_row_has_a_source() {
    let kb = Kb::embedded();
    let v = serde_json::to_value(kb_tables(kb)).unwrap();
    for (name, table) in v.as_object().unwrap() {
        let rows = table["row"].as_array().unwrap();
        assert!(!rows.is_empty(), "{name} has no rows");
        for (i, r) in rows.iter().enumerate() {
            let src = r["source"].as_str().unwrap_or("");
            assert!(!src.trim().is_empty(), "{name} row {i} has no source");
        }
        assert_eq!(
            table["meta"]["table"].as_str(),
            Some(name.as_str()),
            "meta.table of {name}"
        );
    }
}

fn kb_tables(kb: &Kb) -> serde_json::Value {
    serde_json::json!({
        "cuda_toolkits": kb.cuda_toolkits, "minor_compat": kb.minor_compat,
        "nvcc_targets": kb.nvcc_targets, "gpus": kb.gpus, "architectures": kb.architectures,
        "driver_branches": kb.driver_branches, "mig": kb.mig, "torch_releases": kb.torch_releases,
        "torch_arch": kb.torch_arch, "onnxruntime": kb.onnxruntime, "tensorrt": kb.tensorrt,
        "cudnn": kb.cudnn, "tensorflow": kb.tensorflow, "jax": kb.jax,
        "nvidia_wheels": kb.nvidia_wheels, "cuda_images": kb.cuda_images,
        "extensions": kb.extensions,
    })
}

fn assert_unique_sorted<K: Ord + std::fmt::Debug + Clone>(name: &str, keys: Vec<K>) {
    for w in keys.windows(2) {
        assert!(
            w[0] < w[1],
            "{name}: {:?} then {:?} (duplicate or out of order)",
            w[0],
            w[1]
        );
    }
}

#[test]
fn keys_are_unique_and_ordered() {
    let kb = Kb::embedded();
    assert_unique_sorted(
        "cuda_toolkits",
        kb.cuda_toolkits.row.iter().map(|r| r.version).collect(),
    );
    assert_unique_sorted(
        "nvcc_targets",
        kb.nvcc_targets.row.iter().map(|r| r.cuda).collect(),
    );
    assert_unique_sorted(
        "cuda_images",
        kb.cuda_images.row.iter().map(|r| r.cuda).collect(),
    );
    assert_unique_sorted(
        "driver_branches",
        kb.driver_branches.row.iter().map(|r| r.branch).collect(),
    );
    let mut names: Vec<String> = kb.gpus.row.iter().map(|r| r.name.to_lowercase()).collect();
    names.sort();
    assert_unique_sorted("gpus", names);
    let torch: Vec<&str> = kb
        .torch_releases
        .row
        .iter()
        .map(|r| r.version.as_str())
        .collect();
    for w in torch.windows(2) {
        assert!(
            cmp_versions(w[0], w[1]).is_lt(),
            "torch_releases: {} then {}",
            w[0],
            w[1]
        );
    }
    let ort: Vec<&str> = kb
        .onnxruntime
        .row
        .iter()
        .map(|r| r.version.as_str())
        .collect();
    for w in ort.windows(2) {
        assert!(
            cmp_versions(w[0], w[1]).is_lt(),
            "onnxruntime: {} then {}",
            w[0],
            w[1]
        );
    }
    let mut arch: Vec<(String, String)> = kb
        .torch_arch
        .row
        .iter()
        .map(|r| {
            (
                format!("{}-{} {}", r.torch_min, r.torch_max, r.platform),
                r.variant.clone(),
            )
        })
        .collect();
    let n = arch.len();
    arch.sort();
    arch.dedup();
    assert_eq!(
        arch.len(),
        n,
        "torch_arch has duplicate (range, variant, platform) rows"
    );
}

#[test]
fn unverified_values_stay_unknown() {
    let kb = Kb::embedded();
    // CUDA 13.5's driver was not read from a primary source: the tool must not invent one.
    let r = kb
        .cuda_toolkits
        .row
        .iter()
        .find(|r| r.version.to_string() == "13.5")
        .unwrap();
    assert!(r.linux_driver.is_none() && r.windows_driver.is_none());
    // torch 2.6 cu118/cu126's and 2.7 cu118's arch lists were never seen in a primary
    // source: a list there is a secondary copy's, marked so and not verified.
    for (torch, variant) in [("2.6.0", "cu118"), ("2.6.0", "cu126"), ("2.7.0", "cu118")] {
        let r = kb.torch_arch(torch, variant).expect("row");
        assert!(
            r.arch_list.is_none() || (!r.verified && r.source.starts_with("secondary:")),
            "torch {torch} {variant}: {}",
            r.source
        );
    }
}

#[test]
fn embedded_json_matches_the_toml_tables() {
    let from_toml = Kb::from_embedded_toml().expect("data/*.toml parse");
    assert_eq!(kb_tables(&from_toml), kb_tables(Kb::embedded()));
}

#[test]
fn the_embedded_tables_pass_the_validator_every_kb_table_passes() {
    gpucompat::kb::tables::validate(Kb::embedded()).unwrap();
}

#[test]
fn driver_branch_dates_are_well_formed_and_ordered() {
    let kb = Kb::embedded();
    let shape = |s: &str, parts: usize| {
        let f: Vec<&str> = s.split('-').collect();
        f.len() == parts
            && f[0].len() == 4
            && f[1..].iter().all(|p| p.len() == 2)
            && f.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    };
    for b in &kb.driver_branches.row {
        if let Some(e) = &b.eol {
            assert!(shape(e, 2), "R{}: eol {e} is not YYYY-MM", b.branch);
        }
        if let Some(r) = &b.released {
            assert!(shape(r, 3), "R{}: released {r} is not YYYY-MM-DD", b.branch);
            if let Some(e) = &b.eol {
                assert!(
                    r.as_str() < e.as_str(),
                    "R{}: released {r} after eol {e}",
                    b.branch
                );
            }
        }
    }
    // Release dates follow the branch numbers.
    let dated: Vec<(u32, &str)> = kb
        .driver_branches
        .row
        .iter()
        .filter_map(|b| Some((b.branch, b.released.as_deref()?)))
        .collect();
    for w in dated.windows(2) {
        assert!(
            w[0].1 < w[1].1,
            "R{} released {} not before R{} {}",
            w[0].0,
            w[0].1,
            w[1].0,
            w[1].1
        );
    }
}

#[test]
fn torch_arch_rows_of_other_platforms_never_answer_for_x86_64() {
    let kb = Kb::embedded();
    // 2.10 cu126 has both a linux-x86_64 and a linux-aarch64 row; the plain lookup is the
    // x86_64 wheel's list, whatever order the rows are in.
    let x86 = kb.torch_arch("2.10.0", "cu126").unwrap();
    assert_eq!(x86.platform, "linux-x86_64");
    assert!(x86
        .arch_list
        .as_ref()
        .unwrap()
        .iter()
        .any(|t| t.to_string() == "sm_50"));
    let arm = kb
        .torch_arch_on("2.10.0", "cu126", "linux-aarch64")
        .unwrap();
    assert_eq!(arm.platform, "linux-aarch64");
    assert_eq!(
        arm.arch_list
            .as_ref()
            .unwrap()
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>(),
        ["sm_80", "sm_90"]
    );
    // Every row the plain lookup can return is an x86_64 row.
    for r in &kb.torch_arch.row {
        if let Some(hit) = kb.torch_arch(&r.torch_min, &r.variant) {
            assert_eq!(
                hit.platform, "linux-x86_64",
                "{} {}",
                r.torch_min, r.variant
            );
        }
    }
    // A platform with no row answers nothing rather than borrowing the x86_64 list.
    assert!(kb
        .torch_arch_on("2.9.0", "cu126", "windows-x86_64")
        .is_none());
    assert!(kb.torch_arch("2.9.0", "cu126").is_some());
    // The Windows cu126 wheels carry sm_61, the Linux ones do not.
    let has_61 = |r: &gpucompat::kb::tables::TorchArchRow| {
        r.arch_list
            .as_ref()
            .unwrap()
            .iter()
            .any(|t| t.to_string() == "sm_61")
    };
    let win = kb
        .torch_arch_on("2.10.0", "cu126", "windows-x86_64")
        .unwrap();
    assert_eq!(win.platform, "windows-x86_64");
    assert!(has_61(win));
    assert!(!has_61(x86));
    // A variant with no row answers nothing.
    assert!(kb.torch_arch("2.10.0", "cu999").is_none());
}

#[test]
fn a_torch_arch_row_with_an_unknown_platform_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let table = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/torch_arch.toml"),
    )
    .unwrap()
    .replacen(
        "platform = \"linux-aarch64\"",
        "platform = \"linux-arm64\"",
        1,
    );
    std::fs::write(dir.path().join("torch_arch.toml"), table).unwrap();
    let err = Kb::with_overrides(dir.path()).unwrap_err().to_string();
    assert!(err.contains("linux-arm64"), "{err}");
}

/// Every torch release on PyPI from 1.0 on, as pypi.org/simple/torch lists
/// its files (read 2026-12-04): `db torch X` answers for each.
const PYPI_TORCH_RELEASES: &[&str] = &[
    "1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.3.0", "1.3.1", "1.4.0", "1.5.0", "1.5.1", "1.6.0",
    "1.7.0", "1.7.1", "1.8.0", "1.8.1", "1.9.0", "1.9.1", "1.10.0", "1.10.1", "1.10.2", "1.11.0",
    "1.12.0", "1.12.1", "1.13.0", "1.13.1", "2.0.0", "2.0.1", "2.1.0", "2.1.1", "2.1.2", "2.2.0",
    "2.2.1", "2.2.2", "2.3.0", "2.3.1", "2.4.0", "2.4.1", "2.5.0", "2.5.1", "2.6.0", "2.7.0",
    "2.7.1", "2.8.0", "2.9.0", "2.9.1", "2.10.0", "2.11.0", "2.12.0", "2.12.1", "2.13.0", "2.14.0",
    "2.14.1", "2.15.0",
];

#[test]
fn every_torch_release_on_pypi_since_1_0_has_a_row() {
    let kb = gpucompat::kb::Kb::embedded();
    for v in PYPI_TORCH_RELEASES {
        let r = kb
            .torch_release(v)
            .unwrap_or_else(|| panic!("torch {v}: no torch_releases row"));
        assert_eq!(r.version, *v, "torch {v} answered by another row");
    }
}
