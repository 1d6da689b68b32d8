//! `db image` and `db require` reports: image facts from the table, a verdict
//! per host with forward-compatibility eligibility, and the clause that decided.

use std::collections::BTreeMap;
use std::path::Path;

use gpucompat::kb::Kb;
use gpucompat::plan::hosts::{load_card, HostSpec};
use gpucompat::plan::image::{image_facts, Availability, ImageRef};
use gpucompat::plan::report::{
    evaluate_requirements, image_report, image_text, require_text, view_facts,
};
use gpucompat::plan::require::{RequireSet, Requirement};

fn card(name: &str) -> HostSpec {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/plan/cards")
        .join(name);
    HostSpec::from_inventory(&load_card(&p).unwrap(), name, name, Kb::embedded())
}

fn results(image: &str, cards: &[&str]) -> Vec<String> {
    let hosts: Vec<HostSpec> = cards.iter().map(|c| card(c)).collect();
    image_report(Kb::embedded(), &ImageRef::parse(image), &hosts)
        .hosts
        .into_iter()
        .map(|h| h.result)
        .collect()
}

#[test]
fn image_facts_come_from_the_table() {
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04"),
    );
    assert_eq!(f.cuda.unwrap().to_string(), "12.4.1");
    assert_eq!(f.cudnn.as_deref(), Some("9.1.0.70"));
    assert!(f
        .require_cuda
        .as_deref()
        .unwrap()
        .starts_with("cuda>=12.4 brand=tesla,driver>=470,driver<471"));
    assert_eq!(f.exists, Availability::Yes);
    // Flavors missing on some OSes, per the table's notes.
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:12.5.1-cudnn-runtime-ubuntu24.04"),
    );
    assert!(matches!(f.exists, Availability::No(_)), "{:?}", f.exists);
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:13.0.0-tensorrt-runtime-ubuntu22.04"),
    );
    assert!(matches!(f.exists, Availability::No(_)), "{:?}", f.exists);
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:12.8.0-cudnn-runtime-ubuntu22.04"),
    );
    assert!(
        matches!(f.exists, Availability::Unknown(_)),
        "{:?}",
        f.exists
    );
    // No cuDNN for a non-cudnn flavor; unknown requirement for images the table lacks.
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:12.4.1-runtime-ubuntu22.04"),
    );
    assert_eq!(f.cudnn, None);
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:11.2.2-runtime-ubuntu20.04"),
    );
    assert_eq!(f.require_cuda, None);
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:13.4.1-runtime-ubuntu24.04"),
    );
    assert_eq!(f.require_cuda, None);
    assert!(matches!(f.exists, Availability::Unknown(_)));
    // A tabled tag whose NVIDIA_REQUIRE_CUDA no NVIDIA file showed: it exists, its requirement is unknown.
    let f = image_facts(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:13.3.0-cudnn-runtime-ubuntu24.04"),
    );
    assert_eq!(f.require_cuda, None);
    assert_eq!(f.cudnn.as_deref(), Some("9.22.0.52"));
    assert!(matches!(f.exists, Availability::Yes), "{:?}", f.exists);
    // 13.1.0 published no cuDNN images; 13.3.x's TensorRT flavor is Ubuntu 24.04 only.
    for (tag, yes) in [
        ("13.1.0-cudnn-runtime-ubuntu24.04", false),
        ("13.1.0-runtime-ubuntu24.04", true),
        ("13.3.1-tensorrt-devel-ubuntu24.04", true),
        ("13.3.1-tensorrt-devel-ubuntu22.04", false),
        ("13.2.1-cudnn-devel-amzn2023", false),
    ] {
        let f = image_facts(
            Kb::embedded(),
            &ImageRef::parse(&format!("nvidia/cuda:{tag}")),
        );
        assert_eq!(
            matches!(f.exists, Availability::Yes),
            yes,
            "{tag}: {:?}",
            f.exists
        );
    }
}

#[test]
fn verdicts_per_host_with_forward_compatibility_explained() {
    assert_eq!(
        results(
            "nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04",
            &[
                "l4-550.json",
                "a100-535.json",
                "t4-535.json",
                "rtx3090-535.json",
                "cpu-only.json"
            ]
        ),
        [
            "native",
            "forward_compat",
            "forward_compat",
            "compat_unsupported",
            "no_nvidia_gpu"
        ]
    );
    // 12.8 images no longer list GeForce at all: a plain failure, with the fix.
    let r = image_report(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:12.8.1-runtime-ubuntu24.04"),
        &[card("rtx3090-535.json")],
    );
    assert_eq!(r.hosts[0].result, "fail");
    assert!(
        r.hosts[0].fix.as_deref().unwrap().contains("570.26"),
        "{:?}",
        r.hosts[0].fix
    );
    assert!(
        r.hosts[0]
            .fix
            .as_deref()
            .unwrap()
            .contains("nvidia/cuda:12.2.2-runtime-ubuntu"),
        "{:?}",
        r.hosts[0].fix
    );
    assert_eq!(r.exit_code(), 1);
    assert!(r.forward_compat.contains_key("535"));
    assert_eq!(r.native_cuda.as_deref(), Some("12.8"));
}

#[test]
fn images_the_table_lacks_are_unknown_not_guessed() {
    assert_eq!(
        results("nvidia/cuda:11.0.3-runtime-ubuntu20.04", &["l4-550.json"]),
        ["not_checked"]
    );
    assert_eq!(
        results(
            "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime",
            &["rtx3090-535.json"]
        ),
        ["unknown"]
    );
}

#[test]
fn image_report_golden() {
    let hosts = [
        card("a100-535.json"),
        card("rtx3090-535.json"),
        card("l4-550.json"),
    ];
    let r = image_report(
        Kb::embedded(),
        &ImageRef::parse("nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04"),
        &hosts,
    );
    insta::with_settings!({snapshot_path => "fixtures/plan/golden", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("db_image__12_4_1", image_text(&r, false));
    });
}

#[test]
fn require_report_names_the_deciding_clause() {
    let set = RequireSet::Checked {
        requirements: vec![Requirement {
            origin: "command line".into(),
            expr: "cuda>=12.4 brand=tesla,driver>=470,driver<471".into(),
        }],
    };
    for (card_name, verdict) in [("a100-535.json", "fail"), ("l4-550.json", "pass")] {
        let h = card(card_name);
        let view = h.runtime_view(Kb::embedded());
        let r = evaluate_requirements(
            &h.name,
            set.clone(),
            &view,
            view_facts(&view, &BTreeMap::new()),
        );
        assert_eq!(r.verdict.verdict, verdict, "{card_name}");
    }
    let h = card("t4-535.json");
    let view = h.runtime_view(Kb::embedded());
    let set = RequireSet::Checked {
        requirements: vec![Requirement {
            origin: "NVIDIA_REQUIRE_CUDA".into(),
            expr: "cuda>=12.4 brand=tesla,driver>=535,driver<536".into(),
        }],
    };
    let r = evaluate_requirements(
        "host cloud-t4",
        set,
        &view,
        view_facts(&view, &BTreeMap::new()),
    );
    let text = require_text(&r, false);
    assert!(
        text.contains("decided by clause 2 `brand=tesla,driver>=535,driver<536`"),
        "{text}"
    );
    insta::with_settings!({snapshot_path => "fixtures/plan/golden", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("db_require__t4", text);
    });
}
