//! GPUCOMPAT_* overrides win over probed facts, carry `env ...` as their
//! source, and are ignored with a note when they do not parse.

use std::time::Duration;

use gpucompat::inventory::Inventory;
use gpucompat::kb::Kb;
use gpucompat::probe::{probe, ProbeOptions, Timeouts};
use gpucompat::system::Host;

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn with(name: &str, vars: &[(&str, &str)]) -> Inventory {
    let host =
        Host::new(fixture(name)).with_env(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let opts = ProbeOptions {
        allow_root_code: true,
        timeouts: Timeouts {
            command: Duration::from_secs(5),
            library: Duration::from_secs(10),
        },
        ..Default::default()
    };
    probe(&host, Kb::embedded(), &opts)
}

#[test]
fn overrides_describe_a_gpu_machine_on_a_cpu_only_one() {
    let inv = with(
        "vm-no-gpu",
        &[
            ("GPUCOMPAT_DRIVER_VERSION", "550.54.15"),
            ("GPUCOMPAT_CUDA_DRIVER_VERSION", "12.4"),
            (
                "GPUCOMPAT_GPUS",
                "2*NVIDIA A100-SXM4-80GB;NVIDIA A10G::23028",
            ),
        ],
    );
    let d = inv.nvidia.driver_version.as_ref().unwrap();
    assert_eq!(d.value.to_string(), "550.54.15");
    assert_eq!(d.source, "env GPUCOMPAT_DRIVER_VERSION");
    let c = inv.nvidia.cuda_max.as_ref().unwrap();
    assert_eq!(
        (c.value.to_string().as_str(), c.source.as_str()),
        ("12.4", "env GPUCOMPAT_CUDA_DRIVER_VERSION")
    );
    assert_eq!(inv.gpus.len(), 3);
    assert_eq!(inv.gpus[1].index, 1);
    let cc = inv.gpus[0].compute_capability.as_ref().unwrap();
    assert_eq!(cc.value.to_string(), "8.0");
    assert_eq!(cc.source, "kb gpus: NVIDIA A100-SXM4-80GB");
    // The A10G is not itemised on NVIDIA's CC page; the kb derives 8.6 from its chip (GA102).
    let a10g = inv.gpus[2].compute_capability.as_ref().unwrap();
    assert_eq!(a10g.value.to_string(), "8.6");
    assert!(a10g.source.starts_with("kb gpus"), "{}", a10g.source);
    assert_eq!(inv.gpus[2].memory_mib.as_ref().unwrap().value, 23028);
    assert_eq!(
        inv.gpus[2].name.as_ref().unwrap().source,
        "env GPUCOMPAT_GPUS"
    );
    // Every GPU has a CC now, so no "unknown compute capability" note is left.
    assert!(!inv
        .notes
        .iter()
        .any(|n| n.subject == "GPU 2" && n.message.contains("has none")));
    let t = gpucompat::tier::tier(&inv, Kb::embedded());
    assert_eq!(t.level, 4, "{t:?}");
}

#[test]
fn an_override_wins_over_what_was_probed() {
    let inv = with(
        "geforce-desktop",
        &[
            ("GPUCOMPAT_DRIVER_VERSION", "555.42.02"),
            ("GPUCOMPAT_GPUS", "none"),
        ],
    );
    assert_eq!(
        inv.nvidia
            .driver_version
            .as_ref()
            .unwrap()
            .value
            .to_string(),
        "555.42.02"
    );
    assert!(inv.gpus.is_empty());
    // The kernel module is still what the files say.
    assert_eq!(
        inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
        "550.54.14"
    );
}

#[test]
fn overrides_given_cc_beats_the_kb() {
    let inv = with(
        "vm-no-gpu",
        &[("GPUCOMPAT_GPUS", "NVIDIA GeForce RTX 4090:8.9:24564")],
    );
    let cc = inv.gpus[0].compute_capability.as_ref().unwrap();
    assert_eq!(cc.source, "env GPUCOMPAT_GPUS");
    assert_eq!(inv.gpus[0].architecture.as_ref().unwrap().value, "Ada");
}

#[test]
fn bad_overrides_are_ignored_with_a_note() {
    let inv = with(
        "geforce-desktop",
        &[
            ("GPUCOMPAT_DRIVER_VERSION", "latest"),
            ("GPUCOMPAT_CUDA_DRIVER_VERSION", "twelve"),
            ("GPUCOMPAT_GPUS", "RTX:eight"),
        ],
    );
    assert_eq!(
        inv.nvidia.driver_version.as_ref().unwrap().source,
        "nvidia-smi --query-gpu"
    );
    assert_eq!(inv.gpus.len(), 1);
    for var in [
        "GPUCOMPAT_DRIVER_VERSION",
        "GPUCOMPAT_CUDA_DRIVER_VERSION",
        "GPUCOMPAT_GPUS",
    ] {
        assert!(
            inv.notes
                .iter()
                .any(|n| n.subject == var && n.message.starts_with("ignored")),
            "{var}: {:?}",
            inv.notes
        );
    }
}
