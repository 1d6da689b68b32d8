//! GPU names as real reports printed them resolve to one row with a compute
//! capability, and every derived CC agrees with its architecture's CCs.

use gpucompat::kb::tables::CcDerivation;
use gpucompat::kb::{GpuLookup, Kb};

const REPORTED: &str = include_str!("fixtures/kb/gpu_names/reported.tsv");

fn reported() -> Vec<(&'static str, &'static str)> {
    REPORTED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, src) = l.split_once('\t').expect("name<TAB>source");
            (name, src)
        })
        .collect()
}

#[test]
fn every_reported_name_resolves_with_a_compute_capability() {
    let kb = Kb::embedded();
    let names = reported();
    let distinct: std::collections::BTreeSet<&str> = names.iter().map(|(n, _)| *n).collect();
    assert!(
        distinct.len() >= 301,
        "only {} distinct reported names",
        distinct.len()
    );
    let mut misses = Vec::new();
    for (name, src) in &names {
        assert!(src.starts_with("https://"), "{name}: source {src:?}");
        match kb.gpu(name) {
            GpuLookup::Found(r) if r.compute_capability.is_some() => {}
            GpuLookup::Found(r) => misses.push(format!("{name}: row {} has no CC", r.name)),
            GpuLookup::Ambiguous(rows) => misses.push(format!(
                "{name}: ambiguous ({})",
                rows.iter()
                    .map(|r| r.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            GpuLookup::NotFound { .. } => misses.push(format!("{name}: not found")),
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

#[test]
fn every_gpu_row_has_a_compute_capability() {
    let kb = Kb::embedded();
    let missing: Vec<&str> = kb
        .gpus
        .row
        .iter()
        .filter(|r| r.compute_capability.is_none())
        .map(|r| r.name.as_str())
        .collect();
    assert!(missing.is_empty(), "rows without CC: {missing:?}");
}

#[test]
fn derived_ccs_name_their_rule_and_match_the_architecture() {
    let kb = Kb::embedded();
    for r in &kb.gpus.row {
        let Some(kind) = r.cc_derived else {
            assert!(
                r.cc_rule.is_none(),
                "{}: cc_rule without cc_derived",
                r.name
            );
            continue;
        };
        let cc = r.compute_capability.expect("a derived row has a CC");
        let rule = r.cc_rule.as_deref().unwrap_or("");
        assert!(
            rule.contains(&cc.to_string()),
            "{}: rule {rule:?} does not give {cc}",
            r.name
        );
        let arch = kb
            .architecture(cc)
            .unwrap_or_else(|| panic!("{}: no architecture has {cc}", r.name));
        assert!(
            arch.name.starts_with(&r.architecture),
            "{}: CC {cc} belongs to {}, row says {}",
            r.name,
            arch.name,
            r.architecture
        );
        if kind == CcDerivation::Architecture {
            // an architecture with one discrete CC
            let discrete: Vec<_> = kb
                .architectures
                .row
                .iter()
                .filter(|a| a.name == r.architecture && !a.integrated)
                .flat_map(|a| a.compute_capabilities.iter())
                .collect();
            assert_eq!(
                discrete,
                vec![&cc],
                "{}: {} has CCs {discrete:?}",
                r.name,
                r.architecture
            );
        }
    }
}

#[test]
fn names_nvidia_smi_prints_on_old_drivers_resolve_too() {
    let kb = Kb::embedded();
    // Before R495 GeForce names had no NVIDIA prefix; Tesla names keep theirs.
    for (old, cc) in [
        ("GeForce GT 1030", "6.1"),
        ("GeForce MX150", "6.1"),
        ("GeForce GT 710", "3.5"),
        ("Tesla V100S-PCIE-32GB", "7.0"),
        ("Tesla P100-PCIE-12GB", "6.0"),
        ("Tesla M10", "5.0"),
        ("Tesla K20Xm", "3.5"),
        ("GeForce GTX 1060 with Max-Q Design", "6.1"),
    ] {
        match kb.gpu(old) {
            GpuLookup::Found(r) => {
                assert_eq!(r.compute_capability.unwrap().to_string(), cc, "{old}")
            }
            other => panic!("{old}: {other:?}"),
        }
    }
    // The Laptop part is a different row from the desktop part.
    let GpuLookup::Found(d) = kb.gpu("NVIDIA GeForce RTX 4090") else {
        panic!()
    };
    let GpuLookup::Found(l) = kb.gpu("NVIDIA GeForce RTX 4090 Laptop GPU") else {
        panic!()
    };
    assert_ne!(d.name, l.name);
}

#[test]
fn partitions_and_decorated_names_resolve_to_their_board() {
    let kb = Kb::embedded();
    for (reported, row) in [
        // MIG instance as the CUDA runtime names it
        ("NVIDIA H100 NVL MIG 3g.47gb", "NVIDIA H100 NVL"),
        // vGPU profiles
        ("NVIDIA A10-24Q", "NVIDIA A10"),
        ("NVIDIA L40S-24Q", "NVIDIA L40S"),
        ("GRID P4-1Q", "Tesla P4"),
        // the Tegra Vulkan driver's names
        ("NVIDIA Tegra X1 (nvgpu)", "NVIDIA Tegra X1"),
        ("NVIDIA Tegra Xavier (nvgpu)", "Xavier"),
        ("NVIDIA Tegra Orin (nvgpu)", "Orin (nvgpu)"),
        // a physical GRID board keeps its name
        ("GRID K520", "GRID K520"),
    ] {
        match kb.gpu(reported) {
            GpuLookup::Found(r) => assert_eq!(r.name, row, "{reported}"),
            other => panic!("{reported}: {other:?}"),
        }
    }
}

#[test]
fn a_number_shared_with_another_board_does_not_make_a_match() {
    let kb = Kb::embedded();
    // "210" is also the suffix of PG509-210 and CMP 100-210; the GeForce
    // name is its own (legacy) row, and those boards keep theirs.
    for (reported, row, cc) in [
        ("GeForce 210", "GeForce 210", "1.2"),
        ("NVIDIA GeForce 210", "GeForce 210", "1.2"),
        ("PG509-210", "NVIDIA PG509-210", "8.0"),
        ("NVIDIA PG509-210", "NVIDIA PG509-210", "8.0"),
        ("CMP 100-210", "NVIDIA CMP 100-210", "7.0"),
        ("NVIDIA CMP 100-210", "NVIDIA CMP 100-210", "7.0"),
    ] {
        match kb.gpu(reported) {
            GpuLookup::Found(r) => {
                assert_eq!(r.name, row, "{reported}");
                assert_eq!(r.compute_capability.unwrap().to_string(), cc, "{reported}");
            }
            other => panic!("{reported}: {other:?}"),
        }
    }
    // Without a row of its own (a `--kb` table that lacks it) the GeForce
    // name is not offered the boards whose suffix is its number.
    let mut without = kb.clone();
    without.gpus.row.retain(|r| r.name != "GeForce 210");
    for reported in ["GeForce 210", "NVIDIA GeForce 210"] {
        assert!(
            offered(&without, reported).is_empty(),
            "{reported}: offered {:?}",
            offered(&without, reported)
        );
    }
    // A name of one product line is not offered rows of another.
    for (reported, not_row) in [
        ("GeForce 100", "NVIDIA CMP 100-210"),
        ("GeForce 100-210", "NVIDIA CMP 100-210"),
        ("Tesla 210", "GeForce 210"),
        ("Tesla 210", "NVIDIA PG509-210"),
    ] {
        let got = offered(kb, reported);
        assert!(!got.contains(&not_row), "{reported}: offered {got:?}");
    }
}

fn offered<'a>(kb: &'a Kb, name: &str) -> Vec<&'a str> {
    match kb.gpu_match(name) {
        GpuLookup::Found(r) => vec![r.name.as_str()],
        GpuLookup::Ambiguous(rows) => rows.iter().map(|r| r.name.as_str()).collect(),
        GpuLookup::NotFound { .. } => vec![],
    }
}
