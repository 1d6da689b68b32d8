//! Golden files for every `pin --format`, for one host, a fleet that shares a
//! stack, a fleet that splits, and hosts without NVIDIA GPUs. Reviewed by eye
//! when written (INSTA_UPDATE=always), compared byte for byte after.

use std::path::Path;

use gpucompat::kb::{Kb, Semantic};
use gpucompat::plan::formats::{render, Format};
use gpucompat::plan::hosts::{load_card, HostSpec};
use gpucompat::plan::resolver::{resolve, Components, Plan, PlanRequest};

fn card(name: &str) -> HostSpec {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/plan/cards")
        .join(name);
    let inv = load_card(&p).unwrap();
    HostSpec::from_inventory(&inv, name, &format!("card {name}"), Kb::embedded())
}

fn plan(cards: &[&str], with: &str, semantic: Semantic) -> Plan {
    let req = PlanRequest {
        hosts: cards.iter().map(|c| card(c)).collect(),
        semantic,
        os: None,
        python: None,
        with: Components::parse(with).unwrap(),
        devel: false,
        cudnn_image: false,
    };
    resolve(Kb::embedded(), &req)
}

const FORMATS: [(Format, &str); 5] = [
    (Format::Pins, "pins"),
    (Format::Dockerfile, "dockerfile"),
    (Format::Requirements, "requirements"),
    (Format::Uv, "uv"),
    (Format::Json, "json"),
];

fn golden(case: &str, p: &Plan) {
    insta::with_settings!({snapshot_path => "fixtures/plan/golden", prepend_module_to_snapshot => false}, {
        for (f, name) in FORMATS {
            insta::assert_snapshot!(format!("{case}__{name}"), render(p, f, None));
        }
    });
}

#[test]
fn one_host() {
    golden(
        "one_host",
        &plan(
            &["l4-550.json"],
            "torch,torchvision,tensorrt,onnxruntime-gpu",
            Semantic::Toolkit,
        ),
    );
}

#[test]
fn fleet_sharing_a_stack() {
    golden(
        "fleet",
        &plan(
            &["a100-535.json", "l4-550.json"],
            "torch,torchvision,torchaudio",
            Semantic::Toolkit,
        ),
    );
}

#[test]
fn fleet_that_splits() {
    golden(
        "split",
        &plan(
            &["gtx1080-535.json", "rtx5090-570.json", "rtx5090-550.json"],
            "torch,torchvision",
            Semantic::Toolkit,
        ),
    );
}

#[test]
fn hosts_without_nvidia_gpus() {
    golden(
        "cpu_amd",
        &plan(
            &["cpu-only.json", "mi300x.json"],
            "torch,torchvision",
            Semantic::Toolkit,
        ),
    );
}

#[test]
fn minor_compat_with_a_newer_wheel_than_image() {
    golden(
        "minor_compat",
        &plan(&["rtx3090-535.json"], "torch", Semantic::MinorCompat),
    );
}

#[test]
fn one_group_of_a_split() {
    let p = plan(
        &["gtx1080-535.json", "rtx5090-570.json"],
        "torch",
        Semantic::Toolkit,
    );
    let two = render(&p, Format::Requirements, Some(2));
    assert!(two.contains("torch==2.10.0+cu128"), "{two}");
    assert!(!two.contains("cu121"), "{two}");
    assert!(!two.contains("====="), "{two}");
}
