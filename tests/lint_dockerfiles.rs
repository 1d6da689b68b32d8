//! `lint` on fixture Dockerfiles, one or more per rule, each with the lines
//! it must point at, near misses that must stay quiet, and the Dockerfiles
//! `pin` writes, which must produce no finding at all.

use std::path::{Path, PathBuf};

use gpucompat::finding::{Category, Severity};
use gpucompat::kb::{Kb, Semantic};
use gpucompat::plan::formats::{render, Format};
use gpucompat::plan::hosts::{load_card, HostSpec};
use gpucompat::plan::lint::{lint, RULES};
use gpucompat::plan::resolver::{resolve, Components, PlanRequest};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plan")
}

fn card(name: &str) -> HostSpec {
    let inv = load_card(&fixtures().join("cards").join(name)).unwrap();
    HostSpec::from_inventory(&inv, name, name, Kb::embedded())
}

fn run(dockerfile: &str, hosts: &[&str]) -> Vec<(String, usize)> {
    let text = std::fs::read_to_string(fixtures().join("dockerfiles").join(dockerfile)).unwrap();
    let hosts: Vec<HostSpec> = hosts.iter().map(|h| card(h)).collect();
    lint(&text, Kb::embedded(), &hosts)
        .into_iter()
        .map(|f| (f.code, f.line.unwrap_or(0)))
        .collect()
}

fn codes(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|(c, l)| (c.to_string(), *l)).collect()
}

#[test]
fn second_cuda_by_apt_on_the_continuation_line_that_names_it() {
    assert_eq!(run("second-cuda.Dockerfile", &[]), codes(&[("DKR001", 5)]));
}

#[test]
fn second_cuda_by_conda() {
    assert_eq!(run("conda-cuda.Dockerfile", &[]), codes(&[("DKR001", 2)]));
}

#[test]
fn driver_packages_and_runfiles() {
    assert_eq!(
        run("driver.Dockerfile", &[]),
        codes(&[("DKR002", 2), ("DKR002", 4)])
    );
    // The cuda meta-package pulls the driver; on a plain base it is the only CUDA.
    assert_eq!(run("cuda-meta.Dockerfile", &[]), codes(&[("DKR002", 3)]));
}

#[test]
fn pip_tensorrt_over_an_image_with_tensorrt() {
    assert_eq!(
        run("tensorrt-over-image.Dockerfile", &[]),
        codes(&[("DKR003", 2)])
    );
}

#[test]
fn image_cuda_vs_wheel_cuda_is_said_not_blamed() {
    let f = run("wheel-older-than-image.Dockerfile", &[]);
    assert_eq!(f, codes(&[("DKR004", 2)]));
    let text =
        std::fs::read_to_string(fixtures().join("dockerfiles/wheel-older-than-image.Dockerfile"))
            .unwrap();
    let finding = &lint(&text, Kb::embedded(), &[])[0];
    assert_eq!(finding.severity, Severity::Info);
    assert!(
        finding.message.contains("Not an error"),
        "{}",
        finding.message
    );
    // Newer within the major: still information, naming minor-version compatibility.
    assert_eq!(
        run("old-image-new-wheel.Dockerfile", &[]),
        codes(&[("DKR004", 2)])
    );
}

#[test]
fn a_wheel_of_a_newer_major_than_the_image_checks_is_a_warning() {
    // ARG substitution in FROM; the torch pin is on the last continuation line.
    assert_eq!(
        run("wheel-newer-major.Dockerfile", &[]),
        codes(&[("DKR005", 5)])
    );
    // With a host on driver 535 (CUDA 12.2) the wheel cannot run there.
    assert_eq!(
        run("wheel-newer-major.Dockerfile", &["a100-535.json"]),
        codes(&[("DKR005", 5), ("DKR011", 5)])
    );
}

#[test]
fn unpinned_torch() {
    assert_eq!(run("unpinned.Dockerfile", &[]), codes(&[("DKR006", 2)]));
}

#[test]
fn cpu_torch_through_an_env_index() {
    assert_eq!(run("cpu-torch.Dockerfile", &[]), codes(&[("DKR007", 3)]));
}

#[test]
fn torch_builds_that_are_not_on_the_index() {
    let f = run("index-mismatch.Dockerfile", &[]);
    assert!(f.contains(&("DKR008".into(), 2)), "{f:?}");
    assert!(f.contains(&("DKR008".into(), 3)), "{f:?}");
}

#[test]
fn arch_and_requirement_checks_against_hosts() {
    // No host: nothing to check.
    assert!(run("blackwell-wheel.Dockerfile", &[]).is_empty());
    // The Blackwell host runs it; the Pascal host fails the image check and has no kernel.
    assert!(run("blackwell-wheel.Dockerfile", &["rtx5090-570.json"]).is_empty());
    assert_eq!(
        run("blackwell-wheel.Dockerfile", &["gtx1080-535.json"]),
        codes(&[("DKR010", 1), ("DKR009", 2)])
    );
}

#[test]
fn forward_compatibility_is_checked_for_eligibility() {
    // 12.4.1 admits brand=geforce on R535: the container starts, CUDA then fails with 804.
    let f = run("geforce-forward-compat.Dockerfile", &["rtx3090-535.json"]);
    assert!(f.contains(&("DKR010".into(), 1)), "{f:?}");
    // A Tesla T4 on R535 uses forward compatibility legitimately.
    let f = run("geforce-forward-compat.Dockerfile", &["t4-535.json"]);
    assert!(!f.iter().any(|(c, _)| c == "DKR010"), "{f:?}");
}

#[test]
fn disabled_requirement_check() {
    assert_eq!(
        run("disable-require.Dockerfile", &[]),
        codes(&[("DKR012", 2)])
    );
    // ... and then no host can fail it.
    assert_eq!(
        run("disable-require.Dockerfile", &["rtx3090-535.json"]),
        codes(&[("DKR012", 2)])
    );
}

#[test]
fn ngc_pytorch_base() {
    assert_eq!(
        run("ngc-torch.Dockerfile", &[]),
        codes(&[("DKR014", 1), ("DKR003", 2), ("DKR013", 2)])
    );
}

#[test]
fn unknown_cuda_image() {
    let f = run("unknown-image.Dockerfile", &[]);
    assert!(f.contains(&("DKR014".into(), 1)), "{f:?}");
}

#[test]
fn near_misses_stay_quiet() {
    // Multi-stage, devel image, cuda-compat (not a toolkit), pinned torch of the image's CUDA.
    assert!(run("clean.Dockerfile", &[]).is_empty());
    assert!(run("clean.Dockerfile", &["l4-550.json"]).is_empty());
}

#[test]
fn inline_edge_cases() {
    let kb = Kb::embedded();
    let q = |t: &str| -> Vec<String> { lint(t, kb, &[]).into_iter().map(|f| f.code).collect() };
    // The container toolkit is not a driver; a compat package is not a toolkit.
    assert!(q("FROM nvidia/cuda:12.4.1-base-ubuntu22.04\nRUN apt-get install -y nvidia-container-toolkit cuda-compat-12-4\n").is_empty());
    // Heredoc RUN bodies are read.
    assert_eq!(
        q("# syntax=docker/dockerfile:1\nFROM nvidia/cuda:12.4.1-base-ubuntu22.04\nRUN <<EOF\napt-get update\napt-get install -y nvidia-utils-550\nEOF\n"),
        ["DKR002"]
    );
    // The escape directive changes the continuation character.
    let t = "# escape=`\nFROM nvidia/cuda:12.4.1-base-ubuntu22.04\nRUN apt-get install -y `\n    cuda-toolkit-12-6\n";
    let f = lint(t, kb, &[]);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].line, Some(4));
    // Comments, empty input and non-GPU images: nothing.
    assert!(q("").is_empty());
    assert!(q("# just a comment\n").is_empty());
    assert!(q("FROM python:3.12-slim\nRUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.5.1+cpu\n").is_empty());
    // A second toolkit after an earlier one, on a plain base.
    assert_eq!(
        q("FROM ubuntu:22.04\nRUN apt-get install -y cuda-toolkit-12-4\nRUN apt-get install -y cuda-toolkit-12-6\n"),
        ["DKR001"]
    );
}

#[test]
fn every_rule_has_its_docs_and_a_category() {
    let mut seen = std::collections::BTreeSet::new();
    for r in RULES {
        assert!(r.code.starts_with("DKR") && r.code.len() == 6, "{}", r.code);
        assert!(seen.insert(r.code), "duplicate {}", r.code);
        assert!(Category::ALL.contains(&r.category));
        for text in [
            r.summary,
            r.what_it_checks,
            r.why_it_breaks,
            r.how_to_fix,
            r.sources,
        ] {
            assert!(!text.trim().is_empty(), "{}", r.code);
        }
        assert!(
            r.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            r.name
        );
    }
}

/// cards, --with, semantic, --os, --devel, --cudnn
type Case<'a> = (
    &'a [&'a str],
    &'a str,
    Semantic,
    Option<&'a str>,
    bool,
    bool,
);

/// `pin` output, for many requests, lints clean (with the same hosts given to lint).
#[test]
fn the_dockerfiles_pin_writes_lint_clean() {
    let cases: &[Case] = &[
        (
            &["l4-550.json"],
            "torch,torchvision,tensorrt,onnxruntime-gpu",
            Semantic::Toolkit,
            None,
            false,
            false,
        ),
        (
            &["a100-535.json", "l4-550.json"],
            "torch,torchvision,torchaudio",
            Semantic::Toolkit,
            None,
            false,
            false,
        ),
        (
            &["gtx1080-535.json", "rtx5090-570.json"],
            "torch,torchvision",
            Semantic::Toolkit,
            None,
            false,
            false,
        ),
        (
            &["rtx3090-535.json"],
            "torch",
            Semantic::MinorCompat,
            None,
            false,
            false,
        ),
        (
            &["a100-535.json"],
            "torch,tensorrt,jax",
            Semantic::MinorCompat,
            None,
            false,
            false,
        ),
        (
            &["rtx5090-570.json"],
            "torch,torchaudio",
            Semantic::Toolkit,
            None,
            true,
            true,
        ),
        (
            &["l4-550.json"],
            "torch",
            Semantic::Toolkit,
            Some("rockylinux9"),
            true,
            false,
        ),
        (
            &["t4-535.json"],
            "torch,onnxruntime-gpu",
            Semantic::Toolkit,
            Some("ubuntu20.04"),
            false,
            true,
        ),
        (
            &["cpu-only.json", "mi300x.json"],
            "torch,torchvision",
            Semantic::Toolkit,
            None,
            false,
            false,
        ),
    ];
    let mut checked = 0;
    for (cards, with, semantic, os, devel, cudnn) in cases {
        let hosts: Vec<HostSpec> = cards.iter().map(|c| card(c)).collect();
        let req = PlanRequest {
            hosts: hosts.clone(),
            semantic: *semantic,
            os: os.map(str::to_string),
            python: None,
            with: Components::parse(with).unwrap(),
            devel: *devel,
            cudnn_image: *cudnn,
        };
        let plan = resolve(Kb::embedded(), &req);
        assert!(!plan.stacks.is_empty(), "{cards:?}");
        for s in &plan.stacks {
            let text = render(&plan, Format::Dockerfile, Some(s.id));
            let members: Vec<HostSpec> = hosts
                .iter()
                .filter(|h| s.hosts.contains(&h.name))
                .cloned()
                .collect();
            let f = lint(&text, Kb::embedded(), &members);
            assert!(f.is_empty(), "{cards:?} {with}: {f:#?}\n{text}");
            checked += 1;
        }
    }
    assert!(checked >= 10);
}

/// A test that could fail: a pin Dockerfile with a driver line added is caught.
#[test]
fn a_tampered_pin_dockerfile_is_caught() {
    let req = PlanRequest {
        hosts: vec![card("l4-550.json")],
        semantic: Semantic::Toolkit,
        os: None,
        python: None,
        with: Components::parse("torch").unwrap(),
        devel: false,
        cudnn_image: false,
    };
    let plan = resolve(Kb::embedded(), &req);
    let mut text = render(&plan, Format::Dockerfile, Some(1));
    text.push_str("RUN apt-get install -y cuda-toolkit-12-6 nvidia-driver-550\n");
    let codes: Vec<String> = lint(&text, Kb::embedded(), &[])
        .into_iter()
        .map(|f| f.code)
        .collect();
    assert_eq!(codes, ["DKR001", "DKR002"]);
}

#[test]
fn no_dockerfile_makes_lint_panic() {
    let atoms = [
        "FROM ",
        "RUN ",
        "ENV ",
        "ARG ",
        "nvidia/cuda:12.4.1-runtime-ubuntu22.04",
        "pip install ",
        "apt-get install -y ",
        "torch==2.5.1+cu121 ",
        "--index-url ",
        "https://download.pytorch.org/whl/cu124 ",
        "\\\n",
        "\n",
        "\"",
        "'",
        "${X:-",
        "}",
        "$",
        "<<EOF\n",
        "EOF\n",
        "é",
        "# escape=`\n",
        "`\n",
        "conda install cudatoolkit=",
        "=",
        " AS b\n",
        "FROM b\n",
        "&&",
        "|",
        ";",
        "NVIDIA_REQUIRE_CUDA=",
        "cuda>=13.0 ",
        "brand=geforce,driver>=535",
        "NVIDIA-Linux-x86_64.run ",
        "sh ",
    ];
    let mut state: u64 = 11;
    let hosts = [card("rtx3090-535.json"), card("cpu-only.json")];
    for _ in 0..3_000 {
        let mut s = String::new();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = (state >> 33) % 40;
        for _ in 0..n {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.push_str(atoms[((state >> 33) as usize) % atoms.len()]);
        }
        for f in lint(&s, Kb::embedded(), &hosts) {
            let lines = s.lines().count().max(1);
            assert!(
                f.line.unwrap_or(0) >= 1 && f.line.unwrap_or(0) <= lines + 1,
                "{s:?} {f:?}"
            );
        }
    }
}
