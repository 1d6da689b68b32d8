//! The resolver on saved cards: one host, fleets that share a stack, fleets
//! that must split, CPU-only and AMD hosts.

use std::path::Path;

use gpucompat::inventory::Fact;
use gpucompat::kb::{Kb, Semantic};
use gpucompat::plan::hosts::{load_card, HostKind, HostSpec};
use gpucompat::plan::resolver::{resolve, Components, Plan, PlanRequest, StackKind};
use gpucompat::version::DriverVersion;

fn card(name: &str) -> HostSpec {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/plan/cards")
        .join(name);
    let inv = load_card(&p).unwrap();
    HostSpec::from_inventory(&inv, name, &format!("card {name}"), Kb::embedded())
}

fn req(hosts: Vec<HostSpec>, with: &str) -> PlanRequest {
    PlanRequest {
        hosts,
        semantic: Semantic::Toolkit,
        os: None,
        python: None,
        with: Components::parse(with).unwrap(),
        devel: false,
        cudnn_image: false,
    }
}

fn plan(r: &PlanRequest) -> Plan {
    resolve(Kb::embedded(), r)
}

fn pkg(p: &Plan, stack: usize, name: &str) -> Option<String> {
    p.stacks[stack]
        .package(name)
        .and_then(|x| x.version.clone())
}

#[test]
fn one_host_gets_the_newest_torch_its_driver_runs() {
    let p = plan(&req(vec![card("l4-550.json")], "torch,torchvision"));
    assert_eq!(p.stacks.len(), 1);
    assert!(p.unplaced.is_empty());
    let s = &p.stacks[0];
    assert_eq!(s.kind, StackKind::Cuda);
    // Driver 550.54.14 runs CUDA 12.4: the newest torch with a cu124 build is 2.6.0.
    assert_eq!(s.max_cuda.as_ref().unwrap().shown(), "12.4");
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.6.0+cu124"));
    assert_eq!(pkg(&p, 0, "torchvision").as_deref(), Some("0.21.0+cu124"));
    assert_eq!(
        s.torch().unwrap().index_url.as_deref(),
        Some("https://download.pytorch.org/whl/cu124")
    );
    let img = s.image.as_ref().unwrap();
    assert_eq!(img.reference, "nvidia/cuda:12.4.1-runtime-ubuntu22.04");
    assert_eq!(s.min_driver.as_ref().unwrap().shown(), "550.54.14");
    assert!(s.require_override.is_none());
    // L4 (8.9) runs the sm_86 machine code.
    assert_eq!(s.gpus[0].kernel, "sass");
    assert_eq!(s.gpus[0].target.as_deref(), Some("sm_86"));
    assert_eq!(p.exit_code(), 0);
}

#[test]
fn the_lowest_driver_bounds_the_fleet_and_says_so() {
    let p = plan(&req(
        vec![card("a100-535.json"), card("l4-550.json")],
        "torch",
    ));
    assert_eq!(p.stacks.len(), 1);
    let s = &p.stacks[0];
    assert_eq!(s.hosts, ["train-a", "infer-b"]);
    assert_eq!(s.max_cuda.as_ref().unwrap().shown(), "12.2");
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.5.1+cu121"));
    let cuda_reason = &s.reasons.iter().find(|r| r.subject == "cuda").unwrap().text;
    assert!(
        cuda_reason.contains("CUDA <= 12.2 because host train-a has driver 535.104.05"),
        "{cuda_reason}"
    );
    let torch_reason = &s
        .reasons
        .iter()
        .find(|r| r.subject == "torch")
        .unwrap()
        .text;
    assert!(torch_reason.contains("torch 2.6.0"), "{torch_reason}");
}

#[test]
fn drivers_535_and_550_with_sm_61_and_sm_120_cannot_share_a_stack() {
    // The RTX 5090 (sm_120) on driver 550 is below Blackwell's minimum driver:
    // no stack can run there until the driver is upgraded; the Pascal host still gets one.
    let p = plan(&req(
        vec![card("gtx1080-535.json"), card("rtx5090-550.json")],
        "torch",
    ));
    assert_eq!(p.stacks.len(), 1);
    assert_eq!(p.stacks[0].hosts, ["lab-pascal"]);
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.5.1+cu121"));
    assert_eq!(p.unplaced.len(), 1);
    let u = &p.unplaced[0];
    assert_eq!(u.host, "lab-blackwell");
    assert!(
        u.problems[0].contains("needs driver 570.26 or newer"),
        "{:?}",
        u.problems
    );
    assert!(u.fixes[0].contains(">= 570.26"));
    assert_eq!(p.exit_code(), 1);
}

#[test]
fn sm_61_and_sm_120_split_the_fleet_with_reasons() {
    let p = plan(&req(
        vec![card("gtx1080-535.json"), card("rtx5090-570.json")],
        "torch,torchvision",
    ));
    assert!(p.unplaced.is_empty());
    assert_eq!(p.stacks.len(), 2);
    assert_eq!(p.stacks[0].hosts, ["lab-pascal"]);
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.5.1+cu121"));
    assert_eq!(p.stacks[1].hosts, ["lab-blackwell"]);
    assert_eq!(pkg(&p, 1, "torch").as_deref(), Some("2.10.0+cu128"));
    assert_eq!(p.stacks[1].gpus[0].target.as_deref(), Some("sm_120"));
    let why = p.split.join("\n");
    assert!(
        why.contains("no single stack runs on all of lab-pascal, lab-blackwell"),
        "{why}"
    );
    // The Pascal build has no kernel for sm_120; the Blackwell build needs CUDA 12.8 and drops sm_6x.
    assert!(why.contains("no SASS for major 12"), "{why}");
    assert!(why.contains("CUDA 12.8 > 12.2"), "{why}");
    assert!(why.contains("no SASS for major 6"), "{why}");
}

#[test]
fn a_newer_driver_on_the_pascal_host_still_needs_a_split() {
    let mut a = card("gtx1080-535.json");
    a.driver = Some(Fact::new(
        "570.124.06".parse::<DriverVersion>().unwrap(),
        "test",
    ));
    a.cuda_max = Some(Fact::new("12.8".parse().unwrap(), "test"));
    let p = plan(&req(vec![a, card("rtx5090-570.json")], "torch"));
    assert_eq!(p.stacks.len(), 2, "{:#?}", p.split);
    // Pascal keeps the cu126 builds (sm_60 SASS), up to the newest release that has one.
    assert!(pkg(&p, 0, "torch").unwrap().ends_with("+cu126"));
}

#[test]
fn cpu_only_hosts_get_a_cpu_stack() {
    let p = plan(&req(
        vec![card("cpu-only.json")],
        "torch,torchvision,tensorrt",
    ));
    assert_eq!(p.stacks.len(), 1);
    let s = &p.stacks[0];
    assert_eq!(s.kind, StackKind::Cpu);
    let t = s.torch().unwrap();
    assert!(t.version.as_deref().unwrap().ends_with("+cpu"));
    assert_eq!(
        t.index_url.as_deref(),
        Some("https://download.pytorch.org/whl/cpu")
    );
    assert!(s.caveats.iter().any(|c| c.starts_with("tier 1")));
    assert!(s
        .caveats
        .iter()
        .any(|c| c.contains("TensorRT needs an NVIDIA GPU")));
    assert!(s.image.is_none());
    assert!(s.package("tensorrt-cu12").is_none());
}

#[test]
fn amd_hosts_get_the_rocm_build() {
    let p = plan(&req(vec![card("mi300x.json")], "torch,torchvision"));
    assert_eq!(p.stacks.len(), 1);
    let s = &p.stacks[0];
    assert_eq!(s.kind, StackKind::Rocm);
    let t = s.torch().unwrap();
    assert!(t.version.as_deref().unwrap().contains("+rocm"), "{t:?}");
    assert!(t.index_url.as_deref().unwrap().contains("/whl/rocm"));
    assert!(s.caveats.iter().any(|c| c.contains("gfx942")));
    assert_eq!(p.hosts[0].kind, HostKind::Amd);
}

#[test]
fn mixed_vendors_get_one_stack_each() {
    let p = plan(&req(
        vec![
            card("l4-550.json"),
            card("mi300x.json"),
            card("cpu-only.json"),
        ],
        "torch",
    ));
    let kinds: Vec<StackKind> = p.stacks.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [StackKind::Cuda, StackKind::Rocm, StackKind::Cpu]);
    assert!(p.split.is_empty());
    assert!(!p.notes.is_empty());
}

#[test]
fn minor_compat_admits_newer_cuda_with_caveats() {
    let mut r = req(vec![card("a100-535.json")], "torch");
    r.semantic = Semantic::MinorCompat;
    let p = plan(&r);
    let s = &p.stacks[0];
    assert_eq!(s.max_cuda.as_ref().unwrap().shown(), "12.9");
    let t = pkg(&p, 0, "torch").unwrap();
    assert!(t.ends_with("+cu126") || t.ends_with("+cu128"), "{t}");
    assert!(s
        .caveats
        .iter()
        .any(|c| c.contains("minor-version compatibility")));
    assert_eq!(s.min_driver.as_ref().unwrap().shown(), "525.60.13");
}

#[test]
fn minor_compat_never_leans_on_forward_compat_for_geforce() {
    let mut r = req(vec![card("rtx3090-535.json")], "torch");
    r.semantic = Semantic::MinorCompat;
    let p = plan(&r);
    let s = &p.stacks[0];
    let img = s.image.as_ref().unwrap();
    // 12.4.1 and newer pass only through a brand clause, which GeForce cannot use.
    assert!(
        img.cuda.major_minor() <= "12.2".parse().unwrap(),
        "{}",
        img.reference
    );
    assert_eq!(s.require_override.as_deref(), Some("driver>=525.60.13"));
}

#[test]
fn a_requested_release_and_python_are_honoured() {
    let mut r = req(vec![card("l4-550.json")], "torch==2.4");
    r.python = Some("3.12".into());
    let p = plan(&r);
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.4.1+cu124"));
    assert_eq!(p.stacks[0].python.as_ref().unwrap().shown(), "3.12");
    let mut r = req(vec![card("l4-550.json")], "torch==2.9");
    r.python = Some("3.9".into());
    let p = plan(&r);
    assert!(p.stacks.is_empty());
    assert!(
        p.unplaced[0]
            .problems
            .iter()
            .any(|x| x.contains("supports Python")),
        "{:?}",
        p.unplaced
    );
}

#[test]
fn the_container_os_python_bounds_the_release() {
    let mut r = req(vec![card("rtx5090-570.json")], "torch");
    r.os = Some("rockylinux9".into());
    let p = plan(&r);
    // Rocky Linux 9 ships Python 3.9; torch 2.9+ needs 3.10.
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.8.0+cu128"));
    assert_eq!(
        p.stacks[0].image.as_ref().unwrap().reference,
        "nvidia/cuda:12.8.1-runtime-rockylinux9"
    );
}

#[test]
fn unknown_arch_lists_are_never_assumed_to_fit() {
    // torch 2.7 cu128 has no verified arch list; an RTX 5090 host must not get it.
    let mut r = req(vec![card("rtx5090-570.json")], "torch==2.7");
    r.semantic = Semantic::Toolkit;
    let p = plan(&r);
    assert!(
        p.stacks.is_empty(),
        "{:?}",
        p.stacks.first().map(|s| s.packages.clone())
    );
    let why = p.unplaced[0].problems.join("\n");
    assert!(why.contains("unknown (not assumed to fit)"), "{why}");
}

#[test]
fn libraries_follow_the_cuda_major() {
    let mut r = req(
        vec![card("rtx5090-570.json")],
        "torch,tensorrt,onnxruntime-gpu,jax",
    );
    r.semantic = Semantic::Toolkit;
    let p = plan(&r);
    let s = &p.stacks[0];
    assert!(s
        .package("tensorrt-cu12")
        .unwrap()
        .requirement
        .as_deref()
        .unwrap()
        .starts_with("tensorrt-cu12==10."));
    // onnxruntime-gpu 1.27+ are CUDA 13 builds; a CUDA 12 stack gets the newest CUDA 12 build.
    assert_eq!(pkg(&p, 0, "onnxruntime-gpu").as_deref(), Some("1.26.0"));
    assert!(s.package("jax-cuda12-plugin").unwrap().version.is_some());
    // The jax package itself is not pinned: its version is not in the knowledge base.
    assert!(s.package("jax").unwrap().version.is_none());
}

#[test]
fn command_line_hosts_and_unknown_gpus() {
    let kb = Kb::embedded();
    let mut h = HostSpec::empty("cli", "--driver");
    h.driver = Some(Fact::new("550.54.14".parse().unwrap(), "--driver"));
    h.kind = HostKind::Nvidia;
    h.add_gpu_by_name(kb, "RTX 4090").unwrap();
    assert!(h.add_gpu_by_name(kb, "A100").is_err());
    assert!(h.add_gpu_by_name(kb, "Voodoo 5").is_err());
    let p = plan(&req(vec![h], "torch"));
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.6.0+cu124"));
    // A host with a driver and no GPU information still gets a stack, said to be unchecked.
    let mut h = HostSpec::empty("cli", "--driver");
    h.driver = Some(Fact::new("550.54.14".parse().unwrap(), "--driver"));
    h.kind = HostKind::Nvidia;
    let p = plan(&req(vec![h], "torch"));
    assert!(p.stacks[0]
        .caveats
        .iter()
        .any(|c| c.contains("no GPU known")));
}
