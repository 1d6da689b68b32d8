//! The resolver on saved cards: one host, fleets that share a stack, fleets
//! that must split, CPU-only and AMD hosts, `--semantic auto`, and hosts
//! whose GPUs no single build covers.

use std::path::Path;

use gpucompat::inventory::Fact;
use gpucompat::kb::{Kb, Semantic};
use gpucompat::plan::formats::{render, Format};
use gpucompat::plan::hosts::{load_card, HostKind, HostSpec};
use gpucompat::plan::resolver::{
    resolve, resolve_with, Components, Plan, PlanRequest, ResolveOptions, SemanticMode, StackKind,
};
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
    // Driver 550.54.14 runs CUDA 12.4: the newest torch with a build at or below it is
    // 2.7.1, whose CUDA 11.8 build is the newest CUDA of that release within 12.4.
    assert_eq!(s.max_cuda.as_ref().unwrap().shown(), "12.4");
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.7.1+cu118"));
    assert_eq!(pkg(&p, 0, "torchvision").as_deref(), Some("0.22.1+cu118"));
    assert_eq!(
        s.torch().unwrap().index_url.as_deref(),
        Some("https://download.pytorch.org/whl/cu118")
    );
    let img = s.image.as_ref().unwrap();
    assert_eq!(img.reference, "nvidia/cuda:11.8.0-runtime-ubuntu22.04");
    assert_eq!(s.min_driver.as_ref().unwrap().shown(), "520.61.05");
    assert!(s.require_override.is_none());
    // L4 (8.9) runs the sm_86 machine code, from an arch list the wheel was not read for.
    assert_eq!(s.gpus[0].kernel, "sass");
    assert_eq!(s.gpus[0].target.as_deref(), Some("sm_86"));
    assert!(
        s.gpus[0].reason.contains("not read from the wheel"),
        "{}",
        s.gpus[0].reason
    );
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
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.7.1+cu118"));
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
    assert!(torch_reason.contains("torch 2.8.0"), "{torch_reason}");
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
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.7.1+cu118"));
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
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.7.1+cu118"));
    assert_eq!(p.stacks[1].hosts, ["lab-blackwell"]);
    assert_eq!(pkg(&p, 1, "torch").as_deref(), Some("2.11.0+cu128"));
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
        "nvidia/cuda:12.8.2-runtime-rockylinux9"
    );
}

#[test]
fn unknown_arch_lists_are_never_assumed_to_fit() {
    // A knowledge base where torch 2.6 cu126's and cu118's arch lists are unknown
    // (cu124 has no sm_120): an RTX 5090 host must not get any 2.6 build.
    let mut kb = Kb::embedded().clone();
    for row in kb.torch_arch.row.iter_mut() {
        if row.torch_min == "2.6" && (row.variant == "cu126" || row.variant == "cu118") {
            row.arch_list = None;
        }
    }
    let mut r = req(vec![card("rtx5090-570.json")], "torch==2.6");
    r.semantic = Semantic::Toolkit;
    let p = resolve(&kb, &r);
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
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.7.1+cu118"));
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

fn cmp_release(a: &str, b: &str) -> std::cmp::Ordering {
    let parse = |s: &str| -> Vec<u32> {
        s.split('+')
            .next()
            .unwrap_or(s)
            .split('.')
            .map(|x| x.parse().unwrap())
            .collect()
    };
    parse(a).cmp(&parse(b))
}

fn all_text(p: &Plan) -> String {
    render(p, Format::Pins, None) + &render(p, Format::Json, None)
}

#[test]
fn auto_takes_minor_compat_when_it_gives_a_newer_torch_and_says_so() {
    let r = req(vec![card("rtx3090-535.json")], "torch");
    let toolkit = plan(&r);
    let auto = resolve_with(Kb::embedded(), &r, pin_opts(SemanticMode::Auto));
    let t = pkg(&toolkit, 0, "torch").unwrap();
    let a = pkg(&auto, 0, "torch").unwrap();
    assert_eq!(
        cmp_release(&a, &t),
        std::cmp::Ordering::Greater,
        "{a} vs {t}"
    );
    assert_eq!(auto.semantic, SemanticMode::Auto);
    let s = &auto.stacks[0];
    assert_eq!(s.semantic, Some(Semantic::MinorCompat));
    let m = s
        .minor_compat
        .as_ref()
        .expect("relies on minor-version compatibility");
    assert_eq!(m.hosts, ["desk-3090"]);
    assert_eq!(m.floor, "525.60.13");
    let caveats = m.caveats.join("\n");
    assert!(caveats.contains("no JIT of newer PTX"), "{caveats}");
    assert!(caveats.contains("for data center GPUs only"), "{caveats}");
    assert!(caveats.contains("GeForce"), "{caveats}");
    // The image must still start on R535: a 12.x image whose requirement the
    // driver meets natively, with the wheel's newer runtime inside.
    let img = s.image.as_ref().unwrap();
    assert!(
        img.cuda.major_minor() <= "12.2".parse().unwrap(),
        "{}",
        img.reference
    );
    assert_eq!(s.require_override.as_deref(), Some("driver>=525.60.13"));
    let why = &s.reasons[0];
    assert_eq!(why.subject, "semantic");
    assert!(why.text.contains(&t), "{}", why.text);
    let out = all_text(&auto);
    assert!(
        out.contains("Relies on CUDA minor-version compatibility"),
        "{out}"
    );
    assert!(out.contains("\"minor_compat\": {"), "{out}");
    assert!(out.contains("\"semantic\": \"auto\""), "{out}");
}

#[test]
fn auto_with_a_geforce_named_on_the_command_line_picks_an_image_the_host_starts() {
    // A GPU known only by name may report GeForce, TITAN or Unknown as its
    // brand: newer images start only through a brand clause (forward
    // compatibility, not for GeForce), so none of them is used.
    let kb = Kb::embedded();
    let mut h = HostSpec::empty("cli", "--driver");
    h.driver = Some(Fact::new("535.183.01".parse().unwrap(), "--driver"));
    h.kind = HostKind::Nvidia;
    h.add_gpu_by_name(kb, "RTX 4090").unwrap();
    let p = resolve_with(kb, &req(vec![h], "torch"), pin_opts(SemanticMode::Auto));
    let s = &p.stacks[0];
    assert!(s.minor_compat.is_some());
    let img = s.image.as_ref().unwrap();
    assert!(
        img.cuda.major_minor() <= "12.2".parse().unwrap(),
        "{}",
        img.reference
    );
    assert!(
        !s.caveats.iter().any(|c| c.contains("could not be checked")),
        "{:?}",
        s.caveats
    );
    let image = s
        .reasons
        .iter()
        .filter(|r| r.subject == "image")
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(image.contains("NVIDIA_DISABLE_REQUIRE"), "{image}");
    assert!(image.contains("brings its own CUDA"), "{image}");
}

#[test]
fn auto_keeps_the_toolkit_semantic_when_it_already_gives_the_newest_stack() {
    let kb = Kb::embedded();
    // The newest toolkit's own driver runs everything the table knows with no caveats.
    let newest = kb
        .cuda_toolkits
        .row
        .iter()
        .filter_map(|r| r.linux_driver.clone())
        .filter(|d| d.to_string().contains('.'))
        .max()
        .unwrap();
    let mut h = HostSpec::empty("new", "--driver");
    h.driver = Some(Fact::new(newest, "--driver"));
    h.kind = HostKind::Nvidia;
    h.add_gpu_by_name(kb, "RTX 4090").unwrap();
    let r = req(vec![h], "torch");
    let toolkit = plan(&r);
    let auto = resolve_with(kb, &r, pin_opts(SemanticMode::Auto));
    assert_eq!(pkg(&auto, 0, "torch"), pkg(&toolkit, 0, "torch"));
    let s = &auto.stacks[0];
    assert_eq!(s.semantic, Some(Semantic::Toolkit));
    assert!(s.minor_compat.is_none());
    assert!(
        !s.caveats.iter().any(|c| c.contains("minor-version")),
        "{:?}",
        s.caveats
    );
    let out = all_text(&auto);
    assert!(
        !out.contains("Relies on CUDA minor-version compatibility"),
        "{out}"
    );
    assert!(!out.contains("\"minor_compat\": {"), "{out}");
}

fn mixed_host(driver: &str) -> HostSpec {
    let kb = Kb::embedded();
    let mut h = HostSpec::empty("mixed", "--driver");
    h.driver = Some(Fact::new(driver.parse().unwrap(), "--driver"));
    h.kind = HostKind::Nvidia;
    h.add_gpu_by_name(kb, "GTX 1080").unwrap();
    h.add_gpu_by_name(kb, "RTX 5090").unwrap();
    h
}

/// torch arch lists for a test: the 2.8 cu126 and cu128 lists of
/// data/torch_arch.toml, with no build that has both sm_6x and sm_120.
pub const NO_COMMON_BUILD_ARCH: &str = r#"
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

#[test]
fn a_host_with_sm_61_and_sm_120_gets_a_stack_per_gpu_and_no_driver_advice() {
    let kb = Kb::with_table_text("torch_arch", NO_COMMON_BUILD_ARCH).unwrap();
    for mode in [SemanticMode::Auto, SemanticMode::Toolkit] {
        let p = resolve_with(
            &kb,
            &req(vec![mixed_host("570.86")], "torch"),
            pin_opts(mode),
        );
        assert!(p.unplaced.is_empty(), "{:?}", p.unplaced);
        assert_eq!(p.exit_code(), 0);
        assert_eq!(p.stacks.len(), 2);
        let sel: Vec<Vec<u32>> = p
            .stacks
            .iter()
            .map(|s| s.gpu_selection.as_ref().unwrap().gpus.clone())
            .collect();
        assert_eq!(sel, [vec![0], vec![1]]);
        assert_eq!(
            p.stacks[1].gpu_selection.as_ref().unwrap().env,
            "CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=1"
        );
        // The Pascal stack has sm_6x kernels, the Blackwell one sm_120.
        assert!(p.stacks[0].gpus.iter().all(|g| g.gpu.contains("GTX 1080")));
        assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.8.0+cu126"));
        assert_eq!(pkg(&p, 1, "torch").as_deref(), Some("2.8.0+cu128"));
        assert_eq!(p.stacks[1].gpus[0].target.as_deref(), Some("sm_120"));
        assert_eq!(p.gpu_split.len(), 1);
        let g = &p.gpu_split[0];
        assert!(!g.driver_limited);
        assert_eq!(g.stacks, [1, 2]);
        let why = g.why.join("\n");
        assert!(
            why.contains("the driver (570.86) is not the limit"),
            "{why}"
        );
        assert!(
            why.contains("Pascal is supported through CUDA 12.9"),
            "{why}"
        );
        assert!(
            why.contains("Blackwell (RTX) needs CUDA 12.8 or newer"),
            "{why}"
        );
        assert!(why.contains("no SASS for major 6"), "{why}");
        assert!(why.contains("no SASS for major 12"), "{why}");
        let choices = g.choices.join("\n");
        assert!(choices.contains("CUDA_VISIBLE_DEVICES=0"), "{choices}");
        assert!(
            choices.contains("remove or replace GPU 0 NVIDIA GeForce GTX 1080"),
            "{choices}"
        );
        let out = all_text(&p);
        assert!(!out.contains("upgrade the driver"), "{out}");
    }
}

#[test]
fn a_host_whose_gpus_share_a_build_gets_one_stack() {
    // Same architecture family on both GPUs: no per-GPU split.
    let kb = Kb::embedded();
    let mut h = HostSpec::empty("pair", "--driver");
    h.driver = Some(Fact::new("570.86".parse().unwrap(), "--driver"));
    h.kind = HostKind::Nvidia;
    h.add_gpu_by_name(kb, "RTX 4090").unwrap();
    h.add_gpu_by_name(kb, "RTX 5090").unwrap();
    let p = resolve_with(kb, &req(vec![h], "torch"), pin_opts(SemanticMode::Auto));
    assert_eq!(p.stacks.len(), 1, "{:?}", p.gpu_split);
    assert!(p.gpu_split.is_empty());
    assert!(p.stacks[0].gpu_selection.is_none());
    assert_eq!(p.stacks[0].gpus.len(), 2);
}

/// torch arch lists for a test: a 2.10 cu128 build and a 2.8 cu129 build that
/// (hypothetically) carry sm_60 next to sm_120, and the real 2.8 cu126/cu128 lists.
const BOTH_GPUS_ARCH: &str = r#"
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
source = "test"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu128"
platform = "linux-x86_64"
arch_list = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ptx = "no"
verified = false
source = "test"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu129"
platform = "linux-x86_64"
arch_list = ["sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ptx = "no"
verified = false
source = "test: a hypothetical list"

[[row]]
torch_min = "2.10"
torch_max = "2.10"
variant = "cu128"
platform = "linux-x86_64"
arch_list = ["sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]
ptx = "no"
verified = false
source = "test: a hypothetical list"
"#;

#[test]
fn a_build_with_kernels_for_both_gpus_is_taken() {
    let kb = Kb::with_table_text("torch_arch", BOTH_GPUS_ARCH).unwrap();
    let p = resolve_with(
        &kb,
        &req(vec![mixed_host("570.86")], "torch"),
        pin_opts(SemanticMode::Auto),
    );
    assert_eq!(p.stacks.len(), 1, "{:?}", p.gpu_split);
    assert!(p.gpu_split.is_empty());
    assert_eq!(pkg(&p, 0, "torch").as_deref(), Some("2.10.0+cu128"));
    let kernels: Vec<(&str, Option<&str>)> = p.stacks[0]
        .gpus
        .iter()
        .map(|g| (g.kernel.as_str(), g.target.as_deref()))
        .collect();
    assert_eq!(kernels, [("sass", Some("sm_60")), ("sass", Some("sm_120"))]);
}

#[test]
fn when_the_driver_is_what_keeps_one_build_off_both_gpus_it_says_so() {
    let kb = Kb::with_table_text("torch_arch", BOTH_GPUS_ARCH).unwrap();
    // Only 2.8 cu129 covers both GPUs; driver 570.86 runs CUDA 12.9 only under
    // minor-version compatibility.
    let r = req(vec![mixed_host("570.86")], "torch==2.8");
    let t = resolve_with(&kb, &r, pin_opts(SemanticMode::Toolkit));
    assert_eq!(t.stacks.len(), 2);
    let g = &t.gpu_split[0];
    assert!(g.driver_limited);
    let choices = g.choices.join("\n");
    assert!(
        choices.contains(
            "upgrade the driver to 575.51.03 or newer: then torch 2.8.0+cu129 runs on every GPU"
        ),
        "{choices}"
    );
    let a = resolve_with(&kb, &r, pin_opts(SemanticMode::Auto));
    assert_eq!(a.stacks.len(), 1);
    assert_eq!(pkg(&a, 0, "torch").as_deref(), Some("2.8.0+cu129"));
    assert!(a.stacks[0].minor_compat.is_some());
}

#[test]
fn minor_compat_refuses_a_build_that_has_only_ptx_for_a_gpu() {
    // Under minor-version compatibility the driver cannot JIT newer PTX.
    let arch = r#"
[meta]
table = "torch_arch"
description = "test table"
as_of = "2026-10"

[[row]]
torch_min = "2.8"
torch_max = "2.8"
variant = "cu128"
platform = "linux-x86_64"
arch_list = ["sm_70", "compute_70"]
ptx = "yes"
verified = false
source = "test: a hypothetical list"
"#;
    let kb = Kb::with_table_text("torch_arch", arch).unwrap();
    let mut r = req(vec![card("rtx3090-535.json")], "torch==2.8");
    r.semantic = Semantic::MinorCompat;
    let p = resolve(&kb, &r);
    assert!(p.stacks.is_empty());
    let u = &p.unplaced[0];
    let why = u.problems.join("\n");
    assert!(why.contains("has only PTX"), "{why}");
    // The build does cover the GPU: the driver is the limit.
    assert!(
        u.fixes[0].contains("upgrade the driver to 570.26 or newer"),
        "{:?}",
        u.fixes
    );
}

/// What `pin` solves with: the semantic given, GPU groups split.
fn pin_opts(semantic: SemanticMode) -> ResolveOptions {
    ResolveOptions {
        semantic,
        split_gpus: true,
    }
}

#[test]
fn without_gpu_groups_a_mixed_host_is_unplaced_with_the_real_limit() {
    // `resolve` keeps one stack for all of a host's GPUs (one environment).
    let kb = Kb::with_table_text("torch_arch", NO_COMMON_BUILD_ARCH).unwrap();
    let p = resolve(&kb, &req(vec![mixed_host("570.86")], "torch"));
    assert!(p.stacks.is_empty());
    assert!(p.gpu_split.is_empty());
    let u = &p.unplaced[0];
    assert!(
        u.problems[0].contains("has kernels for every GPU at once, whatever the driver"),
        "{:?}",
        u.problems
    );
    let fixes = u.fixes.join("\n");
    assert!(fixes.contains("one stack per GPU group"), "{fixes}");
    assert!(!fixes.contains("upgrade the driver"), "{fixes}");
}
