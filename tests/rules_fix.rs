//! The fix builder: exact commands from the knowledge base.

mod rules_common;

use gpucompat::inventory::OsKind;
use gpucompat::plan::fit::{Limits, Runs};
use gpucompat::rules::fix::{self, KernelFit};
use gpucompat::version::ComputeCapability;
use rules_common::*;

fn cc(s: &str) -> ComputeCapability {
    s.parse().unwrap()
}

#[test]
fn cpu_torch_251_on_535_with_a_3090_gets_the_cu121_command() {
    let inv = firing("WHL001");
    let e = fired(&inv, "WHL001");
    let fx = e[0].fix.clone().unwrap();
    assert_eq!(
        fx.command.as_deref(),
        Some("pip install --force-reinstall torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu121")
    );
    let note = fx.note.unwrap();
    assert!(note.contains("uv pip install --reinstall torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu121"), "{note}");
}

#[test]
fn the_pick_is_the_newest_variant_the_driver_runs_without_caveats() {
    let kb = kb();
    let d = "535.104.05".parse().unwrap();
    let p = fix::pick_torch_cuda(
        kb,
        "2.5.1",
        &Limits::new(kb, Some(&d), OsKind::Linux, &[cc("8.6")]),
        None,
    )
    .unwrap();
    assert_eq!(p.variant, "cu121");
    assert_eq!(p.fit, KernelFit::Sass);
    let d = "550.54.14".parse().unwrap();
    let p = fix::pick_torch_cuda(
        kb,
        "2.5.1",
        &Limits::new(kb, Some(&d), OsKind::Linux, &[cc("8.6")]),
        None,
    )
    .unwrap();
    assert_eq!(p.variant, "cu124");
    // An unknown driver rules nothing out.
    let p = fix::pick_torch_cuda(
        kb,
        "2.5.1",
        &Limits::new(kb, None, OsKind::Linux, &[cc("8.6")]),
        None,
    )
    .unwrap();
    assert_eq!(p.variant, "cu124");
    assert_eq!(p.runs, Runs::Unknown);
    // Windows minimums differ from Linux ones.
    let d = "531.14".parse().unwrap();
    let p = fix::pick_torch_cuda(
        kb,
        "2.5.1",
        &Limits::new(kb, Some(&d), OsKind::Windows, &[cc("8.6")]),
        None,
    )
    .unwrap();
    assert_eq!(p.variant, "cu121");
}

#[test]
fn a_gpu_without_kernels_in_any_variant_rules_the_variant_out() {
    let kb = kb();
    let d = "570.124.04".parse().unwrap();
    assert!(fix::pick_torch_cuda(
        kb,
        "2.5.1",
        &Limits::new(kb, Some(&d), OsKind::Linux, &[cc("12.0")]),
        None
    )
    .is_none());
    let newer = fix::newest_fitting_release(
        kb,
        None,
        &Limits::new(kb, Some(&d), OsKind::Linux, &[cc("12.0")]),
        None,
    )
    .unwrap();
    assert_eq!(newer.variant, "cu128");
    assert_eq!(newer.fit, KernelFit::Sass);
}

#[test]
fn when_no_variant_runs_on_the_driver_the_note_says_what_to_change() {
    let inv = B::linux()
        .driver("470.82.01", Some("11.4"))
        .gpu("NVIDIA GeForce RTX 3090")
        .torch("2.9.0+cpu", None)
        .build();
    let e = fired(&inv, "WHL001");
    let fx = e[0].fix.clone().unwrap();
    assert!(fx.command.is_none());
    let note = fx.note.unwrap();
    assert!(note.contains("upgrade the driver to 580.65.06"), "{note}");
    // The driver (CUDA 11.4) runs CUDA 11.8 under minor-version compatibility,
    // so the newest release with a cu118 build for Python 3.11 is offered.
    assert!(
        note.contains("or stay on this driver with torch 2.7.1 cu118, the newest release that runs on it: pip install --force-reinstall torch==2.7.1 torchvision==0.22.1 torchaudio==2.7.1 --index-url https://download.pytorch.org/whl/cu118"),
        "{note}"
    );
    // A Python no release old enough for this driver supports: said plainly.
    let mut inv = inv;
    inv.python[0].python_version = f("3.14.0".into(), "/home/ana/.venv/pyvenv.cfg");
    let note = fired(&inv, "WHL001")[0].fix.clone().unwrap().note.unwrap();
    assert!(
        note.contains(
            "no older torch release in the knowledge base for Python 3.14.0 runs on this driver"
        ),
        "{note}"
    );
}

#[test]
fn a_non_active_environment_gets_its_own_interpreter() {
    let inv = B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA GeForce RTX 3090")
        .torch("2.5.1+cu121", Some("12.1"))
        .with(|i| {
            let mut other = i.python[0].clone();
            other.path = "/srv/app/venv".into();
            other.interpreter = None;
            other.active = false;
            if let Some(t) = other.torch.as_mut() {
                t.version = f(
                    "2.5.1+cpu".into(),
                    "/srv/app/venv/lib/python3.11/site-packages/torch/version.py",
                );
                t.cuda = f(
                    None,
                    "/srv/app/venv/lib/python3.11/site-packages/torch/version.py",
                );
            }
            i.python.push(other);
        })
        .build();
    let e = fired(&inv, "WHL001");
    assert_eq!(e.len(), 1);
    let fx = e[0].fix.clone().unwrap();
    assert!(fx
        .command
        .unwrap()
        .starts_with("/srv/app/venv/bin/python -m pip install --force-reinstall torch==2.5.1"));
    assert!(fx
        .note
        .unwrap()
        .contains("uv pip install --python /srv/app/venv/bin/python --reinstall"));
}

#[test]
fn rocm_variant_follows_the_installed_rocm() {
    let kb = kb();
    assert_eq!(
        fix::pick_torch_rocm(kb, "2.5.1", Some("6.1.2")).as_deref(),
        Some("rocm6.1")
    );
    assert_eq!(
        fix::pick_torch_rocm(kb, "2.5.1", Some("5.7.0")).as_deref(),
        Some("rocm6.2")
    );
    assert_eq!(
        fix::pick_torch_rocm(kb, "2.5.1", None).as_deref(),
        Some("rocm6.2")
    );
    assert!(fix::pick_torch_rocm(kb, "0.1.0", None).is_none());
}

#[test]
fn driver_upgrades_name_a_supported_branch_that_still_drives_the_gpu() {
    let kb = kb();
    let hopper = B::linux().gpu("NVIDIA H100 80GB HBM3").build();
    assert_eq!(
        fix::recommended_branch(&hopper, kb, &"520.61.05".parse().unwrap()),
        Some(580)
    );
    // Pascal stops at R580: nothing newer may be recommended.
    let pascal = B::linux().gpu("NVIDIA GeForce GTX 1080").build();
    assert_eq!(
        fix::recommended_branch(&pascal, kb, &"590".parse().unwrap()),
        None
    );
    let fx = fix::driver_upgrade_fix(&hopper, kb, &"520.61.05".parse().unwrap(), "test");
    assert_eq!(
        fx.command.as_deref(),
        Some("sudo apt install nvidia-driver-580")
    );
    let wsl = B::wsl().gpu("NVIDIA GeForce RTX 4090").build();
    let fx = fix::driver_upgrade_fix(&wsl, kb, &"552.22".parse().unwrap(), "test");
    assert!(fx.command.is_none() && fx.note.unwrap().contains("Windows"));
}
