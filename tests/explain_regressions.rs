//! One regression test per failure kind `explain` used to get wrong, each on
//! a real report from the development part of the explain corpus: context
//! (macOS, AMD, WSL, MIG, container), messages it did not know, quoted
//! lines, facts typed in prose, old releases.

use std::collections::BTreeSet;
use std::path::Path;

use gpucompat::finding::{Category, Finding, Severity};
use gpucompat::ingest;
use gpucompat::inventory::{ErrorKind, Inventory};
use gpucompat::kb::Kb;
use gpucompat::rules::run_rules;

fn body(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/explain")
        .join(rel);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let rest = text.strip_prefix("---\n").expect("front matter");
    rest.split_once("\n---\n")
        .expect("front matter closed")
        .1
        .to_string()
}

fn explain(rel: &str) -> (Inventory, Vec<Finding>) {
    let mut inv = ingest::ingest(&[(rel.to_string(), body(rel))]);
    ingest::enrich(&mut inv, Kb::embedded());
    let findings = run_rules(&inv, Kb::embedded());
    (inv, findings)
}

fn categories(f: &[Finding]) -> BTreeSet<Category> {
    f.iter().map(|f| f.category).collect()
}

fn errors_in(f: &[Finding], c: Category) -> usize {
    f.iter()
        .filter(|f| f.category == c && f.severity == Severity::Error)
        .count()
}

#[test]
fn not_compiled_with_cuda_on_an_m1_is_macos_not_a_cpu_wheel() {
    let (inv, f) = explain("corpus/c1-transformers-m1-trainer-8bit-not-compiled.txt");
    assert!(inv.os.kind.unwrap().note.unwrap().contains("clue"));
    assert!(categories(&f).contains(&Category::MacosNoCuda), "{f:?}");
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0);
    let (_, f) = explain("corpus/c3-chandra-apple-m2-use-mps.txt");
    assert!(categories(&f).contains(&Category::MacosNoCuda));
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0);
}

#[test]
fn cuda_errors_with_an_amd_gpu_are_rocm() {
    for rel in [
        "corpus/c3-a1111-amd-windows-not-compiled-with-cuda.txt",
        "corpus/c3-sdwebui-amdgpu-rx570-needs-use-directml.txt",
        "corpus/c3-genesis-rx7900xtx-cuda-not-available.txt",
        "corpus/c3-ollama-rocm-docker-gfx1103-780m.txt",
    ] {
        let (_, f) = explain(rel);
        assert!(categories(&f).contains(&Category::AmdRocm), "{rel}: {f:?}");
        assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0, "{rel}");
        assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{rel}");
    }
}

#[test]
fn smi_failure_under_wsl_is_wsl() {
    let (inv, f) = explain("corpus/c2-wsl1-2019-nvidia-smi-no-gpu-access.txt");
    assert!(inv.wsl.is_wsl.unwrap().value);
    assert!(categories(&f).contains(&Category::Wsl), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn device_assert_on_mig_slices_is_mig() {
    let (inv, f) = explain("corpus/c1-pytorch-mig-two-slices-internal-assert.txt");
    assert!(inv.setting.mig_enabled.unwrap().value);
    assert!(inv
        .errors
        .iter()
        .any(|e| e.text.contains("INTERNAL ASSERT")));
    assert!(errors_in(&f, Category::Mig) > 0, "{f:?}");
}

#[test]
fn nvml_unknown_error_in_a_container_is_the_container() {
    let (inv, f) = explain("24-container-nvml-unknown-daemon-reload.txt");
    assert!(inv.container.runtime.is_some());
    assert!(errors_in(&f, Category::Container) > 0, "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn extension_built_for_another_torch() {
    let (inv, f) = explain("corpus/c1-xformers-built-for-201-have-210-cu121.txt");
    let torch = inv.python[0].package("torch").unwrap();
    assert_eq!(torch.version, "2.1.0+cu121");
    assert!(categories(&f).contains(&Category::CompiledExtension));
    let (inv, f) = explain("corpus/c1-flash-attn-setdevice-undefined-torch230.txt");
    assert!(inv
        .errors
        .iter()
        .any(|e| e.kind == ErrorKind::ExtensionMismatch));
    assert!(categories(&f).contains(&Category::CompiledExtension));
}

#[test]
fn quoted_traceback_of_an_old_release_with_facts_in_prose() {
    // `> ` quoting, a 2020 paddle build for CUDA 10 on driver 396, typed fields.
    let (inv, f) = explain("corpus/c3-paddle-182-driver-396-cuda10-build.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    assert!(!inv.errors.is_empty());
    let (_, f) = explain("corpus/c1-pytorch-041-conda-cuda92-driver-387.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
}

#[test]
fn template_fields_are_read_as_prose() {
    let (inv, f) = explain("corpus/c2-trt515-windows-plan-written-text-mode-got-000.txt");
    let d = inv.nvidia.driver_version.unwrap();
    assert_eq!(d.value.to_string(), "445.75");
    assert!(d.source.ends_with("(prose)"), "{}", d.source);
    // `got 0.0.0` is a file that is no engine, not a TensorRT version mismatch.
    assert_eq!(errors_in(&f, Category::TensorrtMismatch), 0, "{f:?}");
}

#[test]
fn pasted_docker_run_without_gpus_is_the_container() {
    // The NGC banner's "Use 'nvidia-docker run'" is a message, not the command.
    let (inv, f) = explain("corpus/c2-docker-1903-ngc-tf-without-gpus-flag.txt");
    assert_eq!(inv.setting.docker_run_gpus.map(|g| g.value), Some(false));
    assert!(errors_in(&f, Category::Container) > 0, "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn no_gpus_after_a_script_exports_cuda_visible_devices() {
    let (inv, f) = explain("corpus/c3-tslib-windows-script-visible-devices-2-no-gpus.txt");
    assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "2");
    assert!(categories(&f).contains(&Category::EnvVar), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}
