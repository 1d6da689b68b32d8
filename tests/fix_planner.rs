//! The one fix planner: fixes fit every known fact, and applying a fix
//! removes the finding it fixes without raising a new error. Runs over
//! every machine fixture, every explain report and generated inventories.

mod rules_common;

use std::path::Path;

use gpucompat::finding::{Finding, Severity};
use gpucompat::ingest;
use gpucompat::inventory::{Inventory, OsKind};
use gpucompat::kb::resolve;
use gpucompat::kb::Kb;
use gpucompat::rules::action::FixAction;
use gpucompat::rules::run_rules;
use rules_common::*;

fn explain(text: &str) -> Inventory {
    let mut inv = ingest::ingest(&[("input".to_string(), text.to_string())]);
    ingest::enrich(&mut inv, Kb::embedded());
    inv
}

fn one<'a>(fs: &'a [Finding], code: &str) -> &'a Finding {
    let hits: Vec<&Finding> = fs.iter().filter(|f| f.code == code).collect();
    assert_eq!(hits.len(), 1, "{code} in {:#?}", fs);
    hits[0]
}

#[test]
fn a_driver_too_old_for_cu124_is_offered_a_build_that_runs_on_cuda_11_4_never_cu124() {
    let inv = explain(
        "UserWarning: The NVIDIA driver on your system is too old (found version 11040).\n>>> torch.__version__\n'2.5.1+cu124'\n",
    );
    let fs = run_rules(&inv, kb());
    let f = one(&fs, "RUN001");
    let fx = f.fix.as_ref().unwrap();
    let cmd = fx.command.as_deref().unwrap();
    assert!(!cmd.contains("cu124"), "{cmd}");
    assert!(
        cmd.contains("torch==2.5.1") && cmd.ends_with("/whl/cu118"),
        "{cmd}"
    );
    let note = fx.note.as_deref().unwrap();
    assert!(note.contains("minor-version compatibility"), "{note}");
    assert!(note.contains("upgrade the driver to 550.54.14"), "{note}");
    assert!(fx
        .actions
        .iter()
        .any(|a| matches!(a, FixAction::InstallTorch { variant, .. } if variant == "cu118")));
    // The minor-version row the pick rests on is cited.
    assert!(f
        .kb
        .iter()
        .any(|k| k.table == "minor_compat" && k.row == "11.1-11.8"));
}

#[test]
fn when_the_driver_is_new_enough_the_same_pick_has_no_caveat() {
    // Near miss: the driver runs CUDA 12.4, so no finding and nothing to fix.
    let inv = explain(">>> torch.__version__\n'2.5.1+cu124'\n>>> torch.cuda.is_available()\nTrue\nDriver Version: 550.54.14    CUDA Version: 12.4\n");
    let fs = run_rules(&inv, kb());
    assert!(fs.iter().all(|f| f.code != "RUN001"), "{fs:#?}");
}

#[test]
fn a_k80_on_its_last_branch_is_told_so_with_the_choices_and_the_newest_torch() {
    let inv = explain(
        "$ nvidia-smi --query-gpu=index,name,driver_version --format=csv\nindex, name, driver_version\n0, Tesla K80, 470.182.03\n",
    );
    let fs = run_rules(&inv, kb());
    let f = one(&fs, "DRV005");
    let note = f.fix.as_ref().unwrap().note.as_deref().unwrap();
    assert!(note.contains("R470 is the last driver branch"), "{note}");
    assert!(note.contains("stay on R470 past its end of life"), "{note}");
    assert!(note.contains("replace the GPU"), "{note}");
    for newer in ["R580", "R595", "R620"] {
        assert!(!note.contains(newer), "{note}");
    }
    // The newest torch with sm_37, from the torch_arch table, with how sure it is.
    assert!(note.contains("sm_37"), "{note}");
    assert!(note.contains("torch 2.7.1+cu118"), "{note}");
    assert!(
        note.contains("from a secondary copy of the build scripts, not verified"),
        "{note}"
    );
    assert!(f.kb.iter().any(|k| k.table == "torch_arch"));
    assert!(f.kb.iter().any(|k| k.table == "architectures"));
}

#[test]
fn a_gpu_a_newer_branch_still_drives_gets_the_supported_branches() {
    // Near miss: an H100 on an old branch can move up.
    let inv = explain("index, name, driver_version\n0, NVIDIA H100 80GB HBM3, 470.182.03\n");
    let fs = run_rules(&inv, kb());
    let note = one(&fs, "DRV005")
        .fix
        .as_ref()
        .unwrap()
        .note
        .clone()
        .unwrap();
    assert!(note.contains("Move to a supported branch"), "{note}");
    assert!(!note.contains("last driver branch"), "{note}");
}

#[test]
fn a_driver_upgrade_that_would_drop_the_gpu_is_no_fix() {
    // Kepler on R470 with a wheel that needs CUDA 12: no driver runs both.
    let inv = B::linux()
        .driver("470.182.03", Some("11.4"))
        .gpu("Tesla K80")
        .torch("2.5.1+cu124", Some("12.4"))
        .build();
    let up = gpucompat::rules::fix::driver_upgrade_fix(
        &inv,
        kb(),
        &"550.54.14".parse().unwrap(),
        "CUDA 12.4",
    );
    let note = up.note.unwrap();
    assert!(note.contains("no fix by driver upgrade"), "{note}");
    assert!(note.contains("R470 is the last branch"), "{note}");
    assert!(up.command.is_none() && up.actions.is_empty());
}

#[test]
fn windows_driver_552_is_branch_r550() {
    let inv = B::windows().driver("552.22", None).build();
    let v = resolve::driver(&inv, kb());
    assert_eq!(v.branch_name().as_deref(), Some("R550"));
    let labels = gpucompat::render::labels::labels(&inv, kb(), None, None, None);
    assert!(
        labels
            .iter()
            .any(|(k, v)| k == "driver.branch" && v == "R550"),
        "{labels:?}"
    );
    // On Linux the first field is the branch.
    let inv = B::linux().driver("550.54.14", None).build();
    assert_eq!(
        resolve::driver(&inv, kb()).branch_name().as_deref(),
        Some("R550")
    );
}

#[test]
fn the_kb_cuda_max_is_a_fact_with_its_row_as_source() {
    let mut inv = B::linux().driver("550.54.14", None).build();
    inv.nvidia.cuda_max = None;
    let gaps = resolve::fill_inventory(&mut inv, kb());
    assert!(gaps.is_empty());
    let c = inv.nvidia.cuda_max.as_ref().unwrap();
    assert_eq!(c.value.to_string(), "12.4");
    assert!(resolve::is_kb_source(&c.source), "{}", c.source);
    assert!(c.source.contains("cuda_toolkits"), "{}", c.source);
    // Still known to be the knowledge base's, not the driver's.
    let m = resolve::driver_cuda_max(&inv, kb()).unwrap();
    assert!(!m.from_driver && m.kb.is_some());
    // Near miss: a driver-reported maximum is kept as it is.
    let mut inv = B::linux().driver("550.54.14", Some("12.4")).build();
    resolve::fill_inventory(&mut inv, kb());
    assert_eq!(inv.nvidia.cuda_max.as_ref().unwrap().source, "NVML");
}

#[test]
fn a_name_two_rows_of_a_kb_table_share_stays_unknown_with_a_note() {
    let mut kb = Kb::embedded().clone();
    let mut twin = kb
        .gpus
        .row
        .iter()
        .find(|r| r.name == "NVIDIA GeForce RTX 4090")
        .unwrap()
        .clone();
    twin.compute_capability = Some("9.0".parse().unwrap());
    kb.gpus.row.push(twin);
    let mut inv = B::linux().driver("550.54.14", None).build();
    inv.gpus.push(gpucompat::inventory::Gpu {
        index: 0,
        name: f("NVIDIA GeForce RTX 4090".into(), "NVML"),
        ..Default::default()
    });
    let gaps = resolve::fill_inventory(&mut inv, &kb);
    assert!(inv.gpus[0].compute_capability.is_none());
    assert!(
        gaps.iter()
            .any(|g| g.ambiguous && g.note.message.contains("several")),
        "{gaps:?}"
    );
    // Near miss: the embedded table has one such row.
    let mut inv2 = inv.clone();
    let gaps = resolve::fill_inventory(&mut inv2, Kb::embedded());
    assert!(gaps.is_empty());
    assert_eq!(
        inv2.gpus[0]
            .compute_capability
            .as_ref()
            .unwrap()
            .value
            .to_string(),
        "8.9"
    );
}

/// Apply every structured fix, re-run the rules: that finding is gone and no
/// new error appears. Returns how many fixes were applied.
fn fixes_hold(label: &str, inv: &Inventory) -> usize {
    let kb = kb();
    let before = run_rules(inv, kb);
    let mut applied = 0;
    for f in &before {
        let Some(fx) = &f.fix else { continue };
        if fx.actions.is_empty() {
            continue;
        }
        let mut after_inv = inv.clone();
        for a in &fx.actions {
            a.apply(&mut after_inv, kb);
        }
        // An error message the finding explained was seen before the fix; it is not seen again.
        after_inv.errors.retain(|e| {
            !f.evidence
                .iter()
                .any(|ev| ev.fact.starts_with("observed error") && ev.source == e.source)
        });
        let after = run_rules(&after_inv, kb);
        let count = |fs: &[Finding]| fs.iter().filter(|g| g.code == f.code).count();
        assert!(
            count(&after) < count(&before),
            "{label}: {} still fires after {:?}:\n{:#?}",
            f.code,
            fx.actions,
            after
                .iter()
                .filter(|g| g.code == f.code)
                .collect::<Vec<_>>()
        );
        for g in after.iter().filter(|g| g.severity == Severity::Error) {
            assert!(
                before.iter().any(|b| b.code == g.code),
                "{label}: fixing {} with {:?} raised {}: {}",
                f.code,
                fx.actions,
                g.code,
                g.message
            );
        }
        applied += 1;
    }
    applied
}

#[test]
fn every_fix_holds_over_the_machine_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if ["cards", "explain", "plan", "python"].contains(&name.as_str()) || !path.is_dir() {
            continue;
        }
        let out = gpucompat_at_fixture_card(&name);
        n += 1;
        fixes_hold(&name, &out);
    }
    assert!(n >= 15, "{n} fixtures");
}

fn gpucompat_at_fixture_card(fixture: &str) -> Inventory {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpucompat"))
        .args([
            "card",
            "--json",
            "--root",
            &format!("tests/fixtures/{fixture}"),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("GPUCOMPAT_ALLOW_ROOT_CODE", "1")
        .env_remove("GPUCOMPAT_GPUS")
        .env_remove("GPUCOMPAT_DRIVER_VERSION")
        .env_remove("GPUCOMPAT_CUDA_DRIVER_VERSION")
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{fixture}: {e}"))
}

#[test]
fn every_fix_holds_over_the_explain_reports() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain");
    let mut applied = 0;
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().and_then(|x| x.to_str()) != Some("txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        n += 1;
        applied += fixes_hold(&path.display().to_string(), &explain(&text));
    }
    assert!(n >= 40, "{n} reports");
    // Most corpus findings are observed errors whose fix is advice; the
    // torch, driver and environment fixes there are structured.
    assert!(
        applied >= 3,
        "only {applied} structured fixes over the corpus"
    );
}

#[test]
fn every_fix_holds_over_generated_inventories() {
    let drivers = [
        ("470.182.03", "11.4"),
        ("525.60.13", "12.0"),
        ("535.104.05", "12.2"),
        ("550.54.14", "12.4"),
        ("560.35.03", "12.6"),
        ("570.124.06", "12.8"),
    ];
    let gpus = [
        "Tesla K80",
        "NVIDIA GeForce RTX 3090",
        "NVIDIA GeForce RTX 4090",
        "NVIDIA GeForce RTX 5090",
        "NVIDIA H100 80GB HBM3",
        "Tesla V100-SXM2-16GB",
    ];
    let torches = [
        ("2.5.1+cu124", Some("12.4")),
        ("2.5.1+cu118", Some("11.8")),
        ("2.5.1+cpu", None),
        ("2.9.0+cu130", Some("13.0")),
        ("2.7.1+cu128", Some("12.8")),
        ("2.0.1+cu117", Some("11.7")),
    ];
    let mut applied = 0;
    for (d, c) in drivers {
        for g in gpus {
            for (t, tc) in torches {
                for reported in [true, false] {
                    let inv = B::linux()
                        .driver(d, reported.then_some(c))
                        .gpu(g)
                        .torch(t, tc)
                        .build();
                    applied += fixes_hold(&format!("{d} {g} {t} reported={reported}"), &inv);
                }
            }
        }
    }
    assert!(applied >= 50, "only {applied} fixes applied");
    // Environment variables: hidden GPUs, a CUDA_HOME of another major.
    for (k, v) in [("CUDA_VISIBLE_DEVICES", ""), ("CUDA_VISIBLE_DEVICES", "3")] {
        let inv = B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .torch("2.5.1+cu124", Some("12.4"))
            .env_var(k, v)
            .build();
        assert_eq!(fixes_hold(&format!("{k}={v}"), &inv), 1, "{k}={v}");
    }
    let inv = B::linux()
        .driver("550.54.14", Some("12.4"))
        .gpu("NVIDIA GeForce RTX 4090")
        .torch("2.5.1+cu124", Some("12.4"))
        .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
        .toolkit("/usr/local/cuda-12.4", "12.4.131", true)
        .env_var("CUDA_HOME", "/usr/local/cuda-11.8")
        .build();
    assert_eq!(fixes_hold("CUDA_HOME", &inv), 1);
    // The Windows numbering path too.
    let inv = B::windows()
        .driver("531.14", Some("12.1"))
        .gpu("NVIDIA GeForce RTX 4090")
        .torch("2.5.1+cu124", Some("12.4"))
        .build();
    assert_eq!(resolve::driver_os(&inv), OsKind::Windows);
    fixes_hold("windows 531.14", &inv);
}
