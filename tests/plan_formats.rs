//! Golden files for every `pin --format`, for one host, a fleet that shares a
//! stack, a fleet that splits, and hosts without NVIDIA GPUs. Reviewed by eye
//! when written (INSTA_UPDATE=always), compared byte for byte after.

use std::path::Path;

use gpucompat::inventory::Fact;
use gpucompat::kb::{Kb, Semantic};
use gpucompat::plan::formats::{render, Format};
use gpucompat::plan::hosts::HostKind;
use gpucompat::plan::hosts::{load_card, HostSpec};
use gpucompat::plan::resolver::{
    resolve, resolve_with, Components, Plan, PlanRequest, ResolveOptions, SemanticMode,
};

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
fn auto_relying_on_minor_compat() {
    let req = PlanRequest {
        hosts: vec![card("rtx3090-535.json")],
        semantic: Semantic::Toolkit,
        os: None,
        python: None,
        with: Components::parse("torch").unwrap(),
        devel: false,
        cudnn_image: false,
    };
    golden(
        "auto_minor_compat",
        &resolve_with(Kb::embedded(), &req, pin_opts(SemanticMode::Auto)),
    );
}

#[test]
fn one_host_with_gpus_no_build_covers_together() {
    let kb = Kb::embedded();
    let mut h = HostSpec::empty("mixed", "--driver/--gpu/--cc");
    h.driver = Some(Fact::new("570.86".parse().unwrap(), "--driver"));
    h.kind = HostKind::Nvidia;
    h.add_gpu_by_name(kb, "GTX 1080").unwrap();
    h.add_gpu_by_name(kb, "RTX 5090").unwrap();
    let req = PlanRequest {
        hosts: vec![h],
        semantic: Semantic::Toolkit,
        os: None,
        python: None,
        with: Components::parse("torch").unwrap(),
        devel: false,
        cudnn_image: false,
    };
    // Arch lists with no build for both sm_61 and sm_120 (the 2.8 cu126 and
    // cu128 rows of data/torch_arch.toml), so newer tables do not change the case.
    let arch = r#"
[meta]
table = "torch_arch"
description = "test table"
as_of = "2026-10"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu126"
platform = "linux-x86_64"
arch_list = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
ptx = "no"
verified = false
source = "test: the row of data/torch_arch.toml"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu128"
platform = "linux-x86_64"
arch_list = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ptx = "no"
verified = false
source = "test: the row of data/torch_arch.toml"
"#;
    let test_kb = Kb::with_table_text("torch_arch", arch).unwrap();
    golden(
        "gpu_split",
        &resolve_with(&test_kb, &req, pin_opts(SemanticMode::Auto)),
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
    assert!(two.contains("torch==2.11.0+cu128"), "{two}");
    assert!(!two.contains("cu121"), "{two}");
    assert!(!two.contains("====="), "{two}");
}

/// What `pin` solves with: the semantic given, GPU groups split.
fn pin_opts(semantic: SemanticMode) -> ResolveOptions {
    ResolveOptions {
        semantic,
        split_gpus: true,
    }
}
