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
    explain_text(rel, &body(rel))
}

/// What `explain` finds in a text given inline: the same pipeline as the
/// command (rules, then thin evidence and competing readings settled).
fn explain_text(label: &str, text: &str) -> (Inventory, Vec<Finding>) {
    let r = gpucompat::report::report(
        gpucompat::report::Input::Text(vec![(label.to_string(), text.to_string())]),
        Kb::embedded(),
        &gpucompat::report::Options::default(),
    )
    .expect("explain reads the text");
    (
        r.inventory.expect("explain keeps its inventory"),
        r.findings,
    )
}

fn categories(f: &[Finding]) -> BTreeSet<Category> {
    f.iter().map(|f| f.category).collect()
}

/// The finding of this rule; the test fails when the rule did not fire.
fn finding<'a>(f: &'a [Finding], code: &str) -> &'a Finding {
    f.iter()
        .find(|x| x.code == code)
        .unwrap_or_else(|| panic!("{code} did not fire: {f:?}"))
}

fn fires(f: &[Finding], code: &str) -> bool {
    f.iter().any(|x| x.code == code)
}

/// Whether the pipeline read an error of this kind.
fn read_kind(inv: &Inventory, k: ErrorKind) -> bool {
    inv.errors.iter().any(|e| e.kind == k)
}

/// The first GPU's compute capability as read or resolved ("" when unknown).
fn gpu0_cc(inv: &Inventory) -> String {
    inv.gpus
        .first()
        .and_then(|g| g.compute_capability.as_ref())
        .map_or(String::new(), |c| c.value.to_string())
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

fn codes(f: &[Finding]) -> BTreeSet<&str> {
    f.iter().map(|f| f.code.as_str()).collect()
}

#[test]
fn the_title_s_wsl_makes_a_libcuda_dlopen_failure_a_loader_path_fix() {
    let (_, f) = explain("corpus/c1-bnb-wsl-libcuda-so-cannot-open.txt");
    let w = finding(&f, "PLAT008");
    assert!(w.message.contains("/usr/lib/wsl/lib"), "{}", w.message);
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
    // A Linux driver package inside WSL is named as the shadowing driver.
    let (inv, f) = explain("corpus/c3-numba-wsl2-linux-libnvidia-compute-510-installed.txt");
    assert_eq!(
        inv.setting.linux_driver_package.unwrap().value,
        "libnvidia-compute-510"
    );
    assert!(codes(&f).contains("PLAT002"), "{f:?}");
}

#[test]
fn nvidia_smi_s_cuda_version_read_as_the_toolkit_s_is_a_misconception() {
    let (_, f) = explain("corpus/c3-switch-cuda-nvidia-smi-still-122-after-switch.txt");
    assert!(codes(&f).contains("MIS001"), "{f:?}");
    assert!(f.iter().all(|f| f.severity == Severity::Info));
    let (_, f) = explain("corpus/c2-jax-2020-autoinstall-reads-nvidia-smi-cuda102.txt");
    assert!(codes(&f).contains("MIS001"), "{f:?}");
}

#[test]
fn visible_devices_renumbering_is_explained_not_flagged() {
    let (_, f) = explain("corpus/c1-accelerate-gpu-ids-renumbered-cuda0-expected.txt");
    assert!(codes(&f).contains("MIS002"), "{f:?}");
    assert_eq!(errors_in(&f, Category::EnvVar), 0);
    let (_, f) = explain("corpus/c1-pytorch-device-count-cached-visible-devices-changed.txt");
    assert!(codes(&f).contains("ENV004"), "{f:?}");
}

#[test]
fn tensorflow_after_2_10_on_native_windows_is_cpu_only() {
    let (inv, f) = explain("corpus/c2-tf212-native-windows-1050ti-no-gpu.txt");
    assert!(inv.os.kind.unwrap().source.contains("(prose)"));
    assert!(codes(&f).contains("WIN005"), "{f:?}");
}

#[test]
fn an_nvcc_of_another_cuda_than_torch_s_fails_extension_builds() {
    for rel in [
        "corpus/c1-apex-2019-nvcc-80-vs-torch-cu90.txt",
        "corpus/c1-apex-distro-nvcc-115-usr-bin-vs-torch-cu121.txt",
        "corpus/c1-flash-attn-nvcc-101-torch-cu121-build.txt",
    ] {
        let (inv, f) = explain(rel);
        assert!(!inv.toolkits.is_empty(), "{rel}: nvcc not read");
        assert!(codes(&f).contains("ERR016"), "{rel}: {f:?}");
    }
}

#[test]
fn insufficient_driver_from_a_driver_that_suffices_is_not_an_old_driver() {
    // A 12.6 driver and no runtime named: a CUDA 13 runtime or a process that
    // never reached the driver (here: a container without NVIDIA_VISIBLE_DEVICES);
    // the warning names both, and neither is claimed at error.
    let (_, f) = explain("corpus/c3-faster-whisper-unraid-p40-missing-visible-devices.txt");
    let e = finding(&f, "ERR002");
    assert!(
        e.message.contains("a container without GPU access"),
        "{}",
        e.message
    );
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
    // With a CUDA build newer than the driver's, it stays a driver that is too old.
    let (_, f) = explain("04-driver-too-old-470-rtx3050.txt");
    assert!(!codes(&f).contains("ERR035"), "{f:?}");
}

#[test]
fn container_and_tensorrt_messages_it_did_not_know() {
    let (_, f) = explain("corpus/c2-nvidia-docker-image-ships-nvidia-smi-file-exists.txt");
    assert!(codes(&f).contains("ERR033"), "{f:?}");
    let (_, f) = explain("corpus/c2-podman-rootless-no-cgroups-nvml-permissions.txt");
    assert!(codes(&f).contains("ERR032"), "{f:?}");
    let (_, f) = explain("corpus/c2-trt70-rtx-a6000-unsupported-sm.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    let (inv, _) = explain("corpus/c2-tf-2015-ec2-g2-grid-k520-cc30.txt");
    assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "GRID K520");
}

#[test]
fn torch_compile_on_pascal_is_triton_s_capability_floor() {
    for rel in [
        "corpus/c4-nanogpt-gtx1080-torch-compile-triton-needs-cc70.txt",
        "corpus/c4-nnunet-1080ti-torch-compile-triton-cc61.txt",
    ] {
        let (inv, f) = explain(rel);
        assert!(codes(&f).contains("ERR037"), "{rel}: {f:?}");
        let cc = inv.gpus[0].compute_capability.as_ref().expect("cc read");
        assert_eq!(cc.value.to_string(), "6.1");
        assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
    }
}

#[test]
fn lshw_with_nouveau_bound_is_no_driver() {
    let (inv, f) = explain("corpus/c4-nvidia-htop-proxmox-nouveau-no-nvidia-smi.txt");
    assert_eq!(inv.pci[0].driver.as_deref(), Some("nouveau"));
    assert!(codes(&f).contains("DRV002"), "{f:?}");
}

#[test]
fn tensorflow_s_tensorrt_probe_is_not_an_error() {
    let (_, f) = explain("corpus/c4-fast-sd-colab-libnvinfer-tf-trt-warning-ignore.txt");
    assert!(f.iter().all(|f| f.severity != Severity::Error), "{f:?}");
}

#[test]
fn new_messages_name_their_cause() {
    for (rel, code) in [
        (
            "corpus/c4-cupy-2020-windows-cuda-path-duplicate-bin.txt",
            "ERR039",
        ),
        (
            // The toolkit (11.2) newer than driver 450 names it; the error joins it.
            "corpus/c4-jittor-cuda112-on-driver-450-ptx-unsupported.txt",
            "RUN004",
        ),
        (
            "corpus/c4-ollama-039-windows-1080ti-nvcuda-old-driver.txt",
            "ERR002",
        ),
        (
            "corpus/c4-diffusers-dreambooth-flax-a100-jax-cpu-only.txt",
            "ERR038",
        ),
        (
            "corpus/c4-microwakeword-docker-onnxruntime-cpu-package-only.txt",
            "ERR009",
        ),
    ] {
        let (_, f) = explain(rel);
        assert!(codes(&f).contains(code), "{rel}: {f:?}");
    }
}

#[test]
fn a_cudnn_package_built_for_another_cuda_is_the_cudnn_not_a_second_cuda() {
    // jax #14931: `apt list --installed` shows libcudnn8 8.8.0.121-1+cuda12.0 on CUDA 11.8.
    let rel = "corpus/c2-jax046-cuda11-wheel-asks-cublaslt12-cudnn-cuda12-build.txt";
    let (inv, f) = explain(rel);
    let l = &inv.libraries.cudnn[0];
    assert_eq!(l.cuda_major(), Some(12));
    let lib = finding(&f, "LIB009");
    assert_eq!(
        lib.severity,
        Severity::Error,
        "the observed error proves it"
    );
    assert_eq!(errors_in(&f, Category::MultipleCuda), 0, "{f:?}");
}

#[test]
fn a_typed_install_from_the_cuda_index_on_an_amd_card_is_rocm() {
    // StableSwarmUI #269: the install script's cu121 line on an AMD card.
    let (_, f) = explain("corpus/c5-stableswarmui-amd-install-script-pulls-cu121.txt");
    assert!(codes(&f).contains("WHL002"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn a_tensorflow_template_names_the_cudnn_its_release_was_not_built_for() {
    // tensorflow #44040: TF 2.3.1 (built with cuDNN 7) beside a typed cuDNN 8.0.4.
    let (_, f) = explain("corpus/c6-tf-231-cudnn804-wants-libcudnn7.txt");
    let lib = finding(&f, "LIB001");
    assert_eq!(lib.category, Category::CudnnMismatch);
    // No nvidia-cudnn-cu10 wheel exists: the fix says where cuDNN 7 comes from.
    let fix = lib.fix.as_ref().expect("a fix");
    assert!(fix.command.is_none(), "{fix:?}");
    // A report that lists no cuDNN says nothing of whether one is there.
    let (_, f) = explain("corpus/c2-tf27-conda-cudatoolkit-needs-ld-library-path.txt");
    assert!(!codes(&f).contains("LIB001"), "{f:?}");
}

#[test]
fn a_linux_driver_installed_inside_wsl_in_prose_is_wsl() {
    // WSL #12272: the Linux driver put into WSL on top of the Windows one.
    let (inv, f) = explain("corpus/c6-wsl-linux-gpu-driver-installed-by-mistake.txt");
    let p = inv.setting.linux_driver_package.expect("a Linux driver");
    assert!(p.source.ends_with("(prose)"), "{p:?}");
    let w = finding(&f, "PLAT002");
    assert!(w.message.contains("the report says"), "{}", w.message);
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
}

#[test]
fn an_ort_tensorrt_ep_engine_from_another_tensorrt_is_tensorrt() {
    // onnxruntime #22139: an embedded engine built by another TensorRT.
    let (_, f) = explain("corpus/c6-ort-trt-ep-embedded-engine-other-trt-version.txt");
    assert!(codes(&f).contains("ERR015"), "{f:?}");
    assert!(categories(&f).contains(&Category::TensorrtMismatch));
    assert_eq!(errors_in(&f, Category::OnnxruntimeCuda), 0);
}

#[test]
fn whisper_on_the_cpu_beside_a_geforce_card_is_a_cpu_only_torch() {
    // dsymbol/decipher #8: "I have a 3060" and Whisper's FP16-on-CPU warning.
    let (inv, f) = explain("corpus/c3-decipher-rtx3060-whisper-fp16-cpu-torch.txt");
    assert_eq!(
        inv.gpus[0].name.as_ref().unwrap().value,
        "NVIDIA GeForce RTX 3060"
    );
    let w = finding(&f, "ERR041");
    assert_eq!(w.category, Category::CpuOnlyWheel);
    assert_eq!(w.severity, Severity::Warning);
    assert!(w.evidence.iter().any(|e| e.fact == "NVIDIA GPU"), "{w:?}");
    // A CUDA build of torch named, or Whisper saying CUDA is available: not the wheel.
    let quiet = [
        "I have a 3060. pip list shows torch 2.4.0+cu121\nUserWarning: FP16 is not supported on CPU; using FP32 instead\n",
        "I have a 3060\nUserWarning: Performing inference on CPU when CUDA is available\nUserWarning: FP16 is not supported on CPU; using FP32 instead\n",
    ];
    for t in quiet {
        let (_, f) = explain_text("t", t);
        assert!(!codes(&f).contains("ERR041"), "{t}: {f:?}");
    }
}

#[test]
fn cuda_unavailable_in_a_container_names_the_runtime_s_causes_too() {
    let t = "$ docker run --gpus all myimage python -c \"import torch; print(torch.cuda.is_available())\"\nFalse\nGPU: NVIDIA GeForce RTX 3090\n";
    let (_, f) = explain_text("t", t);
    let w = finding(&f, "ERR041");
    assert!(w.message.contains("NVIDIA_DRIVER_CAPABILITIES"), "{w:?}");
    assert!(w.message.contains("/dev/nvidia-uvm"), "{w:?}");
    // On a host the message stays about the build.
    let (_, f) = explain_text(
        "t",
        "GPU: NVIDIA GeForce RTX 3090\n>>> torch.cuda.is_available()\nFalse\n",
    );
    let w = finding(&f, "ERR041");
    assert!(!w.message.contains("NVIDIA_DRIVER_CAPABILITIES"), "{w:?}");
}

#[test]
fn nvidia_smi_missing_inside_a_container_is_the_container() {
    // cnstark/pytorch-docker #19: nvcc works in the image, nvidia-smi is not found.
    let (inv, f) = explain("corpus/c7-cnstark-pytorch-docker-forgot-gpus-all.txt");
    assert!(inv.container.runtime.is_some());
    assert!(codes(&f).contains("ERR042"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
    // On a host, the same message is a missing driver.
    let (_, f) = explain_text("t", "bash: nvidia-smi: command not found\n");
    assert!(!codes(&f).contains("ERR042"), "{f:?}");
}

#[test]
fn an_unlicensed_vgpu_is_the_platform_not_the_driver() {
    // NVIDIA/gpu-operator #220: pods slow to a crawl; nvidia-smi -q says Unlicensed.
    let (_, f) = explain("corpus/c7-gpu-operator-okd-vgpu-unlicensed-throttle.txt");
    let e = finding(&f, "ERR043");
    assert_eq!(e.category, Category::PlatformPosture);
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
    assert_eq!(errors_in(&f, Category::Container), 0);
}

#[test]
fn device_numbers_that_differ_from_nvidia_smi_s_are_the_device_order() {
    // nanoporetech/bonito #120: --device N is not nvidia-smi's GPU N.
    let (_, f) = explain("corpus/c7-bonito-device-order-pci-bus-id.txt");
    let e = finding(&f, "ENV006");
    let fix = e.fix.as_ref().and_then(|x| x.command.as_deref());
    assert_eq!(fix, Some("export CUDA_DEVICE_ORDER=PCI_BUS_ID"));
    assert_eq!(errors_in(&f, Category::Mig), 0);
}

#[test]
fn an_extension_built_with_an_nvcc_of_another_major_than_torch_s() {
    // rusty1s/pytorch_scatter #45: torch.version.cuda 9.0.176, nvcc 10.0.
    let (inv, f) = explain("corpus/c7-pytorch-scatter-torch-cu90-vs-nvcc-100.txt");
    assert_eq!(
        inv.setting
            .extension_build
            .as_ref()
            .map(|b| b.value.as_str()),
        Some("pytorch-scatter")
    );
    let e = finding(&f, "EXT003");
    assert_eq!(e.category, Category::CompiledExtension);
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
}

#[test]
fn a_module_that_will_not_load_under_secure_boot_is_the_platform() {
    // NVIDIA/gpu-driver-container #44: the installer cannot load nvidia.ko, Secure Boot on.
    let (_, f) = explain("corpus/c8-gpu-driver-container-secure-boot-unsigned-module.txt");
    let e = finding(&f, "ERR044");
    assert_eq!(e.category, Category::PlatformPosture);
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
}

#[test]
fn torch_not_compiled_with_cuda_on_an_m1_mac_in_prose_is_macos() {
    // maszhongming/UniEval #4: "on an M1 Mac".
    let (_, f) = explain("corpus/c8-unieval-m1-get-evaluator-cuda-assert.txt");
    assert!(categories(&f).contains(&Category::MacosNoCuda), "{f:?}");
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0);
}

#[test]
fn messages_it_did_not_know_jax_s_outdated_cudnn_and_ptxas_s_ptx_version() {
    // rgommers/pixi-dev-scipystack #1: JAX's plugin found cuDNN 8907 below 9100.
    let (_, f) = explain("corpus/c8-pixi-scipystack-jax-cudnn-8907-below-9100.txt");
    assert!(categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
    // numba #8961: the driver's JIT linker refuses PTX 8.1 from CUDA 12.1.
    let (_, f) = explain("corpus/c8-numba-ptx-81-driver-525-after-toolkit-121.txt");
    assert!(codes(&f).contains("ERR002"), "{f:?}");
    // A standalone ptxas saying the same is not the driver's.
    let t =
        "ptxas /tmp/k.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '8.3'\n";
    let (_, f) = explain_text("t", t);
    assert!(!codes(&f).contains("ERR002"));
}

#[test]
fn error_35_with_no_driver_in_sight_is_not_called_an_old_driver_at_error() {
    // PaddlePaddle #14625: a CUDA build on CPU-only nodes, error 35 and nothing else.
    let (_, f) = explain("corpus/c3-paddlecloud-cuda-paddle-on-cpu-cluster.txt");
    let e = finding(&f, "ERR002");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("no driver at all"), "{}", e.message);
    // With the driver's version in the paste, the same error is an old driver.
    let t = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  384.130  Wed Mar 21 15:36:58 PDT 2018\nRuntimeError: CUDA driver version is insufficient for CUDA runtime version\n";
    let (_, f) = explain_text("t", t);
    assert!(
        f.iter()
            .any(|f| f.category == Category::DriverTooOld && f.severity == Severity::Error),
        "{f:?}"
    );
}

#[test]
fn libnvvm_not_found_is_the_toolkit_s_nvvm_folder_not_another_cuda() {
    // Rust-GPU/rust-cuda #78: a build script cannot load libnvvm.so.4.
    let (_, f) = explain("corpus/c9-rust-cuda-libnvvm-not-on-ld-path.txt");
    let e = finding(&f, "ERR045");
    assert_eq!(e.category, Category::EnvVar);
    assert_eq!(errors_in(&f, Category::MultipleCuda), 0);
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn a_cuda_wheel_index_from_a_macbook_prompt_is_macos() {
    // DeepGraphLearning/ULTRA #8: `me@MY-MBP ULTRA % pip install torch==2.1.0 --index-url .../cu118`.
    let (inv, f) = explain("corpus/c9-ultra-macbook-cu118-index-no-wheel.txt");
    assert_eq!(
        inv.os.kind.map(|k| k.value),
        Some(gpucompat::inventory::OsKind::Macos)
    );
    assert!(codes(&f).contains("PLAT001"), "{f:?}");
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0);
}

#[test]
fn a_report_that_says_the_nvidia_module_did_not_load_is_no_driver() {
    // forums.almalinux.org 7216: no kmod-nvidia-open for the new kernels.
    let (inv, f) = explain("corpus/c10-almalinux-kmod-nvidia-open-missing-for-new-kernel.txt");
    assert_eq!(inv.nvidia.module_loaded.map(|m| m.value), Some(false));
    assert!(categories(&f).contains(&Category::NoDriver), "{f:?}");
    for t in [
        "The nouveau module did not load either.\n",
        "After the reboot the nvidia module loads fine.\n",
    ] {
        let inv = ingest::ingest(&[("t".into(), t.into())]);
        assert!(inv.errors.is_empty(), "{t}: {:?}", inv.errors);
    }
}

#[test]
fn a_serialized_engine_size_mismatch_is_another_tensorrt() {
    // NVIDIA-AI-IOT/torch2trt #371: saved from Python, loaded by another TensorRT in C++.
    let (_, f) = explain("corpus/c8-torch2trt-engine-loaded-by-other-trt-in-cpp.txt");
    assert!(codes(&f).contains("ERR015"), "{f:?}");
    assert_eq!(errors_in(&f, Category::CompiledExtension), 0);
}

#[test]
fn onnxruntime_gpu_that_runs_on_the_cpu_is_its_cuda_provider() {
    // deepinsight/insightface #1824: onnxruntime-gpu 1.9.0, "only the CPU is used".
    let (_, f) = explain("corpus/c8-insightface-ort-gpu-19-on-cuda-101.txt");
    let e = finding(&f, "ERR046");
    assert_eq!(e.category, Category::OnnxruntimeCuda);
    assert!(e.message.contains("unknown here"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0);
}

#[test]
fn a_stub_libcuda_on_the_loader_path_is_the_path_not_a_missing_driver() {
    // numba/numba #8985: $CUDA_PATH/lib64/stubs on LD_LIBRARY_PATH.
    let (_, f) = explain("corpus/c11c-numba-cuinit-unknown-stub-libcuda-ld-path.txt");
    assert!(codes(&f).contains("ERR047"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn a_cuda_library_missing_in_a_jetson_container_is_the_runtime() {
    // dusty-nv/jetson-containers #93: libcurand.so.10 missing in an l4t r32 container.
    let (_, f) = explain("corpus/c11c-jetson-ros-pytorch-container-libcurand-missing.txt");
    assert!(codes(&f).contains("ERR048"), "{f:?}");
    assert_eq!(errors_in(&f, Category::MultipleCuda), 0);
}

#[test]
fn an_l4t_image_of_another_release_than_the_host_is_named() {
    // dusty-nv/jetson-containers #725: an r35.4.1 image on a JetPack 6 (L4T 36.4) host.
    let (inv, f) = explain("corpus/c11c-jetson-l4t-r35-image-on-jetpack6-host-no-cuda.txt");
    assert_eq!(inv.setting.l4t_host.as_ref().map(|x| x.value), Some(36));
    assert_eq!(
        inv.setting.l4t_image_release.as_ref().map(|x| x.value),
        Some(35)
    );
    assert!(codes(&f).contains("CTR003"), "{f:?}");
    assert!(!codes(&f).contains("CTR005"), "{f:?}");
    // dusty-nv/jetson-containers #149: an r34.1 image on an L4T R32.6 host, the
    // other way round: the host's driver is too old for the image's CUDA.
    let (_, f) = explain("corpus/c32c-jetson-containers-r34-container-on-r32-host.txt");
    assert_eq!(codes(&f), BTreeSet::from(["CTR005"]), "{f:?}");
    assert_eq!(f[0].category, Category::DriverTooOld);
}

#[test]
fn path_variables_that_name_no_directory() {
    // jkjung-avt/tensorrt_demos #517: the TensorRT guide's `<...>` kept in LD_LIBRARY_PATH.
    let (_, f) = explain("corpus/c11c-tensorrt-demos-ld-library-path-angle-brackets.txt");
    assert!(codes(&f).contains("ENV007"), "{f:?}");
    assert_eq!(errors_in(&f, Category::MultipleCuda), 0);
    // open-mmlab/mmdetection #944: CUDA_HOME=/usr/local/cuda-10.0:$CUDA_HOME.
    let (_, f) = explain("corpus/c16b-mmdet-compile-cuda-home-self-appended.txt");
    let e = finding(&f, "ENV007");
    assert!(e.message.contains("holds a list"), "{}", e.message);
    // A Windows CUDA_PATH's drive colon is no list.
    let (_, f) = explain_text(
        "t",
        "set CUDA_PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\n",
    );
    assert!(!codes(&f).contains("ENV007"), "{f:?}");
}

#[test]
fn k3s_pods_without_the_nvidia_runtime_class() {
    // NVIDIA/gpu-operator #415: error 35 in a k3s pod, fixed by runtimeClassName: nvidia.
    let (_, f) = explain("corpus/c12b-gpu-operator-k3s-vectoradd-driver-insufficient-runtime.txt");
    assert!(codes(&f).contains("CTR004"), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
    // A driver that fails to load on an RKE2 node is the node's, not the pod's runtime.
    let (_, f) = explain("corpus/c8-gpu-driver-container-secure-boot-unsigned-module.txt");
    assert!(!codes(&f).contains("CTR004"), "{f:?}");
    assert!(codes(&f).contains("ERR044"), "{f:?}");
}

#[test]
fn a_conda_list_row_without_its_header_is_read() {
    // computational-cell-analytics/micro-sam #356: conda-forge's cpu_generic pytorch.
    let (inv, f) = explain("corpus/c12a-microsam-mamba-conda-forge-cpu-generic-torch.txt");
    assert!(inv.python.iter().any(|e| e
        .torch
        .as_ref()
        .is_some_and(|t| t.cuda.as_ref().is_some_and(|c| c.value.is_none()))));
    assert!(codes(&f).contains("WHL004"), "{f:?}");
}

#[test]
fn the_driver_layer_messages() {
    for (file, code, not) in [
        // M-Bab/linux-kernel-amdgpu-binaries #101: DKMS failed on a kernel named `.amdgpu`.
        (
            "corpus/c15b-dkms-470-custom-amdgpu-kernel-build-fails.txt",
            "ERR053",
            Category::AmdRocm,
        ),
        // NVIDIA/open-gpu-kernel-modules #116: GSP-RM did not start under the open module.
        (
            "corpus/c15b-open-km-515-rtx2060-missing-nvdec0-gsp.txt",
            "ERR055",
            Category::NoDriver,
        ),
        // siderolabs/extensions #114: the R515 open module takes data-center GPUs only.
        (
            "corpus/c15b-talos-open-module-rtx2080s-datacenter-only.txt",
            "ERR056",
            Category::NoDriver,
        ),
        // NVIDIA/gpu-operator #118: MIG change pending, the reset blocked.
        (
            "corpus/c15b-gpu-operator-persistenced-blocks-mig-reset.txt",
            "ERR057",
            Category::NoDriver,
        ),
    ] {
        let (_, f) = explain(file);
        assert!(codes(&f).contains(code), "{file}: {f:?}");
        assert_eq!(errors_in(&f, not), 0, "{file}: {f:?}");
    }
}

#[test]
fn a_legacy_gpu_next_to_a_driver_that_claims_none() {
    // skypilot-org/skypilot #449: a K80 behind a driver newer than R470.
    let (_, f) = explain("corpus/c13b-skypilot-azure-k80-dsvm-driver-nvidia-smi-failed.txt");
    let e = finding(&f, "ARCH005");
    assert!(e.message.contains("R470"), "{}", e.message);
    // It carries the no-driver error, which then names no other cause.
    assert!(
        e.evidence
            .iter()
            .any(|x| x.value.contains("NVIDIA-SMI has failed")),
        "{e:?}"
    );
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn error_35_beside_a_12_x_driver_and_no_runtime_named_names_both_causes() {
    // NVIDIA/cutlass#2866: the driver is typed mid-sentence (570.133.20, CUDA
    // 12.8) and the failing runtime (cuda-python 13) is never named.
    let rel = "corpus/c19c-cutlass-cutedsl-cuda-python13-driver570-insufficient.txt";
    let (inv, f) = explain(rel);
    let d = inv.nvidia.driver_version.clone().unwrap();
    assert_eq!(d.value.to_string(), "570.133.20");
    assert!(d.source.ends_with("(prose)"));
    assert!(!codes(&f).contains("ERR035"), "{f:?}");
    let e = finding(&f, "ERR002");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("CUDA 13 runtime"), "{}", e.message);
    // With the runtime named and covered by the driver, the process did not
    // reach the driver: ERR035 at error, as before.
    let text = format!("{}\ntorch 2.7.1+cu128\n", body(rel));
    let (_, f) = explain_text(rel, &text);
    assert!(codes(&f).contains("ERR035"), "{f:?}");
}

#[test]
fn a_driver_typed_mid_sentence_is_read_as_the_reporter_s() {
    // NVIDIA/cudf#355: "On Ubuntu 18.04, the default nvidia driver is 390.87."
    let (inv, _) = explain("corpus/c22a-cudf-2018-ubuntu1804-driver390-cuda92.txt");
    let d = inv.nvidia.driver_version.unwrap();
    assert_eq!(d.value.to_string(), "390.87");
    assert!(d.source.ends_with("(prose)"));
    // jax-ml/jax#11967: "NVIDIA driver 470": its branch only, a bound.
    let (inv, f) = explain("corpus/c22a-jax-0316-cuda1162-driver470-no-kernel-image.txt");
    let d = inv.nvidia.driver_version.unwrap();
    assert!(d.value.is_branch_only());
    assert_eq!(d.value.branch(), 470);
    // ... and "cuda-11.6.2" is the toolkit, newer than any R470 driver's CUDA
    // 11.4: XLA's kernels from that ptxas do not load (not a GPU the build lacks).
    assert_eq!(inv.toolkits[0].version.value.to_string(), "11.6.2");
    assert!(codes(&f).contains("ERR062"), "{f:?}");
    assert!(!codes(&f).contains("ERR004"), "{f:?}");
}

#[test]
fn nvidia_smi_enabling_mig_in_the_paste_is_a_mig_finding() {
    // wilicc/gpu-burn#122: `nvidia-smi -i 0 -mig 1` answered "Enabled MIG Mode
    // for GPU ...", then the tool failed to initialise.
    let (inv, f) = explain("corpus/c19d-gpuburn-a100-mig-one-gpu-init-error.txt");
    assert!(inv.setting.mig_enabled.unwrap().value);
    let m = finding(&f, "MIG001");
    assert_eq!(m.category, Category::Mig);
    assert_eq!(m.severity, Severity::Info);
}

#[test]
fn a_bare_torch_version_in_a_conda_environment_is_not_pypi_s_build() {
    // pytorch/pytorch#49081: torch 1.7.0 imported from anaconda3/envs/Pt with
    // "CUDA version: 11.0" on an A100. PyPI's 1.7.0 (cu102) has no sm_80, but a
    // conda build may be any CUDA: no kernel verdict is drawn from the version.
    let (inv, f) = explain("corpus/c23b-pytorch-a100-unknown-error-no-reboot.txt");
    let env = &inv.python[0];
    assert_eq!(env.kind, gpucompat::inventory::EnvKind::Conda);
    assert!(!codes(&f).contains("ARCH001"), "{f:?}");
    // The same traceback from a venv keeps PyPI's default, and its verdict.
    let text = body("corpus/c23b-pytorch-a100-unknown-error-no-reboot.txt")
        .replace("/home/XXX/anaconda3/envs/Pt/", "/home/XXX/venv/");
    let (_, f) = explain_text("venv", &text);
    assert!(codes(&f).contains("ARCH001"), "{f:?}");
}

#[test]
fn xla_s_ptxas_older_than_the_gpu_is_the_old_toolkit_on_path() {
    // jax-ml/jax#17976: "ptxas does not support CC 8.9", "Used ptxas at ptxas",
    // then CUDA_ERROR_INVALID_IMAGE: an old toolkit's ptxas on PATH, not the GPU.
    let (inv, f) = explain("corpus/c23b-jax-system-ptxas-on-path-cc89-invalid-image.txt");
    let cc = inv.gpus[0].compute_capability.as_ref().unwrap();
    assert_eq!(cc.value.to_string(), "8.9");
    let e = finding(&f, "ERR063");
    assert_eq!(e.category, Category::MultipleCuda);
    assert_eq!(errors_in(&f, Category::ArchUnsupported), 0);
}

#[test]
fn lspci_under_wsl2_lists_the_paravirtualized_gpu_not_the_nvidia_one() {
    // open-webui/open-webui#574: a setup script's `lspci | grep -i nvidia`.
    let (inv, f) = explain("corpus/c24a-open-webui-wsl2-lspci-no-nvidia-gpu.txt");
    assert!(inv.wsl.is_wsl.unwrap().value);
    let p = finding(&f, "PLAT009");
    assert_eq!(p.category, Category::Wsl);
    assert_eq!(p.severity, Severity::Info);
}

#[test]
fn nccl_s_optional_net_plugin_is_no_missing_library() {
    // NVIDIA/nccl#162: "Unable to load libnccl-net.so" is NCCL's INFO line.
    let (_, f) = explain("corpus/c24a-nccl-2018-libnccl-net-plugin-info-message.txt");
    assert!(f.iter().all(|f| f.severity != Severity::Error), "{f:?}");
}

#[test]
fn openvino_s_gpu_device_on_an_nvidia_gpu_is_the_wrong_platform() {
    // openvinotoolkit/openvino#97 and intel/openvino-plugins-ai-audacity#144.
    for rel in [
        "corpus/c24a-openvino-gtx970-gpu-plugin-invalid-vendor.txt",
        "corpus/c24a-openvino-audacity-rtx4070-super-gpu-no-kernel.txt",
    ] {
        let (_, f) = explain(rel);
        let e = f
            .iter()
            .find(|f| f.code == "ERR064")
            .unwrap_or_else(|| panic!("{rel}: {f:?}"));
        assert_eq!(e.category, Category::PlatformPosture);
        assert_eq!(errors_in(&f, Category::ArchUnsupported), 0, "{rel}");
    }
}

#[test]
fn the_program_on_the_cpu_beside_an_amd_gpu_is_the_amd_gpu_s_case() {
    // Purfview/whisper-standalone-win#379: "running on: CPU", and in the
    // reporter's words it never uses the (AMD) GPU.
    let (inv, f) = explain("corpus/c25a-whisper-standalone-win-amd-gpu-runs-on-cpu.txt");
    assert!(inv
        .errors
        .iter()
        .any(|e| e.kind == ErrorKind::CudaUnavailable && e.source.ends_with("(prose)")));
    assert!(categories(&f).contains(&Category::AmdRocm), "{f:?}");
}

#[test]
fn a_compiler_refusing_the_gpu_s_architecture() {
    // cryoem-uoft/cryosparc-issues#131: CUDA 7.5's nvcc and a GTX 1080's sm_61.
    let (_, f) = explain("corpus/c26b-cryosparc-gtx1080-cuda75-sm61-undefined.txt");
    let e = f
        .iter()
        .find(|f| f.code == "ARCH007")
        .unwrap_or_else(|| panic!("{f:?}"));
    assert_eq!(e.severity, Severity::Error);
    assert!(e.message.contains("older than 8.0"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0);
    // Theano/Theano#6503: NVRTC's bare refusal on a Volta GPU with CUDA 8.
    let (_, f) = explain("corpus/c21a-theano-volta-cuda8-nvrtc-invalid-option.txt");
    let e = f.iter().find(|f| f.code == "ERR004").unwrap();
    let fix = e
        .fix
        .as_ref()
        .and_then(|x| x.note.clone())
        .unwrap_or_default();
    assert!(fix.contains("NVRTC"), "{fix}");
    // ccsb-scripps/AutoDock-GPU#249: 'invalid device symbol' on an RTX 4090.
    let (_, f) = explain("corpus/c27a-autodock-gpu-rtx4090-invalid-device-symbol.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
}

#[test]
fn messages_new_to_the_catalog() {
    // NVIDIA/TensorRT-LLM#3629: a CUDA 12.3 driver API missing from libcuda.
    let (_, f) = explain("corpus/c27a-trtllm-019-undefined-symbol-cukernelgetname.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    assert_eq!(errors_in(&f, Category::CompiledExtension), 0);
    // trexminer/T-Rex#259: the application's own driver check, naming CUDA.
    let (_, f) = explain("corpus/c26b-trex-cuda111-build-video-driver-too-old.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    let (_, f) = explain_text("t", "Your video driver is too old for this game.\n");
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn no_cuda_on_a_mac_for_a_build_or_for_tensorflow() {
    // Zheng-Chong/CatVTON#23: a CUDA extension's build on Apple silicon.
    let (_, f) = explain("corpus/c27a-catvton-macos-apple-silicon-cuda-home-not-set.txt");
    assert!(categories(&f).contains(&Category::MacosNoCuda), "{f:?}");
    assert_eq!(errors_in(&f, Category::EnvVar), 0);
    // sun1638650145/...-for-Apple-Silicon#20: an arm64 macOS wheel, an empty GPU list.
    let (inv, f) = explain("corpus/c27b-tf215-apple-silicon-wheel-gpu-list-empty-no-metal.txt");
    assert_eq!(
        inv.os.kind.map(|k| k.value),
        Some(gpucompat::inventory::OsKind::Macos)
    );
    let e = f.iter().find(|f| f.code == "ERR019").unwrap();
    assert_eq!(
        e.fix.as_ref().and_then(|x| x.command.as_deref()),
        Some("pip install tensorflow-metal")
    );
}

#[test]
fn no_driver_in_a_colab_notebook_is_its_cpu_runtime() {
    // lllyasviel/Fooocus#1583: Colab on a CPU runtime.
    let (inv, f) = explain("corpus/c28a-fooocus-colab-cpu-runtime-found-no-nvidia-driver.txt");
    assert!(inv.setting.colab.is_some());
    assert!(fires(&f, "ERR066"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn an_application_s_gpu_floor_and_a_driver_api_it_lacks() {
    // NVIDIA/cuml#2884: cuML on a GTX 750 Ti.
    let (_, f) = explain("corpus/c28a-cuml-gtx-750ti-question-maxwell-too-old.txt");
    assert!(fires(&f, "ARCH006"), "{f:?}");
    // NVIDIA/k8s-device-plugin#66: nvmlDeviceGetPciInfo_v3 missing from the driver's NVML.
    let (_, f) = explain("corpus/c28b-k8s-device-plugin-111-undefined-nvmlDeviceGetPciInfo-v3.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
}

#[test]
fn vllm_on_a_pascal_gpu_is_below_its_floor() {
    // vllm-project/vllm#963: vLLM asked about on a Tesla P100 (6.0).
    let (inv, f) = explain("corpus/c41a-vllm-2023-p100-cc60-prebuilt-requires-cc70.txt");
    assert_eq!(
        inv.setting.app.as_ref().map(|a| a.value.as_str()),
        Some("vllm")
    );
    let a = finding(&f, "ARCH006");
    assert!(
        a.message.contains("vLLM") && a.message.contains("7.0"),
        "{}",
        a.message
    );
    // vLLM on a V100 (7.0) is at its floor: quiet.
    let (_, f) = explain_text(
        "v100",
        "Running vLLM 0.5.0 on a Tesla V100, it fails to start.\n",
    );
    assert!(!fires(&f, "ARCH006"), "{f:?}");
}

#[test]
fn error_804_beside_a_driver_library_mismatch_is_the_mismatch() {
    // ollama/ollama#15918: a driver update without a reboot; libcuda took the
    // old module for forward compatibility.
    let (_, f) = explain("corpus/c29a-ollama-driver-update-no-reboot-forward-compat-cpu.txt");
    assert!(
        categories(&f).contains(&Category::DriverLibraryMismatch),
        "{f:?}"
    );
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
    let e = f
        .iter()
        .find(|f| f.category == Category::DriverLibraryMismatch)
        .unwrap();
    assert!(e
        .evidence
        .iter()
        .any(|x| x.value.contains("forward compatibility")));
}

#[test]
fn an_application_s_own_words_for_no_gpu() {
    // RVC-Project/Retrieval-based-Voice-Conversion-WebUI#350: its Chinese start-up line.
    let (_, f) = explain("corpus/c29b-rvc-win-rtx3090-torch-cpu-build-no-supported-n-card.txt");
    assert!(fires(&f, "ERR041"), "{f:?}");
    // ollama/ollama#2903: GPU support off on a CPU without AVX.
    let (_, f) = explain("corpus/c29a-ollama-windows-x5675-no-avx-gpu-disabled.txt");
    assert!(fires(&f, "ERR067"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
}

#[test]
fn found_no_nvidia_driver_with_no_nvidia_gpu_named_is_a_question() {
    // lllyasviel/Fooocus#3: the message on a machine whose GPU is AMD.
    let text = "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n";
    let (_, f) = explain_text("t", text);
    let e = f.iter().find(|f| f.code == "ERR006").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("no NVIDIA GPU at all"), "{}", e.message);
    // With an NVIDIA GPU in the report the driver is what is missing.
    let (_, f) = explain_text("t", &format!("GPU: NVIDIA GeForce RTX 3060\n{text}"));
    let e = f.iter().find(|f| f.category == Category::NoDriver).unwrap();
    assert_eq!(e.severity, Severity::Error, "{f:?}");
}

#[test]
fn a_hint_where_no_rule_names_a_cause() {
    // cuDNN named beside a failure no catalog message describes.
    let (_, f) = explain_text(
        "t",
        "Since installing cuDNN by hand, the first convolution crashes the kernel with no message.\n",
    );
    let h = f.iter().find(|f| f.code == "HINT006").unwrap();
    assert_eq!(h.severity, Severity::Info);
    assert_eq!(f.len(), 1, "{f:?}");
    // jax-ml/jax#16078: cuDNN failing to start is now read, as a warning with both causes.
    let (_, f) = explain("corpus/c29a-jax-quadro-m1000m-cudnn-handle-internal-error.txt");
    let e = f.iter().find(|f| f.code == "ERR008").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    // A working setup whose collect_env could not see a system cuDNN: no hint.
    let (_, f) = explain("61-working-wsl-rtx4070-cu121.txt");
    assert!(f.iter().all(|f| !f.code.starts_with("HINT")), "{f:?}");
    // TensorFlow's optional TF-TRT probe is no TensorRT problem.
    let (_, f) = explain_text(
        "t",
        "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n",
    );
    assert!(f.iter().all(|f| !f.code.starts_with("HINT")), "{f:?}");
}

#[test]
fn a_platform_hint_where_something_failed_there() {
    // MouseLand/cellpose#366 (the GPU option never appears on macOS),
    // colmap/colmap#840 (num_cuda_devices is 0 on macOS Mojave).
    for rel in [
        "corpus/c30a-cellpose-macos-gpu-missing.txt",
        "corpus/c25a-colmap-macos-mojave-num-cuda-devices-zero.txt",
        // gnina/gnina#145: CMake fails to find nvcc on an Intel MacBook Pro.
        "corpus/c33b-gnina-macbook-pro-intel-cmake-failed-to-find-nvcc.txt",
    ] {
        let (_, f) = explain(rel);
        assert_eq!(codes(&f), BTreeSet::from(["HINT008"]), "{rel}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].evidence.iter().any(|e| e.fact == "platform"), "{rel}");
    }
    // ray-project/ray#17914: WSL2 and a GPU Ray does not discover, no error line.
    let (_, f) = explain("corpus/c24a-ray-wsl2-proc-driver-nvidia-gpus-missing.txt");
    assert_eq!(codes(&f), BTreeSet::from(["HINT003"]));
    // A Mac whose report shows nothing failing gets no hint.
    let (_, f) = explain_text(
        "t",
        "ProductName: macOS\nProductVersion: 14.4\nThe GPU is an Apple M2 Max\n",
    );
    assert!(f.is_empty(), "{f:?}");
    // An AMD GPU and a failing line about the GPU; not when an NVIDIA GPU is named too.
    let amd = "GPU: AMD Radeon RX 6800\nThe GPU does not appear in the device list.\n";
    let (_, f) = explain_text("t", amd);
    assert_eq!(codes(&f), BTreeSet::from(["HINT009"]));
    let (_, f) = explain_text(
        "t",
        &format!("{amd}It works with my GeForce RTX 3060 though.\n"),
    );
    assert!(f.iter().all(|f| f.code != "HINT009"), "{f:?}");
}

#[test]
fn a_missing_cuda_library_with_no_cuda_install_in_sight_is_a_question() {
    // A CUDA 9.2 runtime asked for, and nothing shows the CUDA installed. (In
    // dmlc/dgl#919 the line follows `import dgl`, which makes it DGL's build.)
    let (_, f) = explain_text(
        "t",
        "ImportError: libcudart.so.9.2: cannot open shared object file: No such file or directory\n",
    );
    let e = f.iter().find(|f| f.code == "ERR017").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("no CUDA install"), "{}", e.message);
    // With the CUDA 12 wheels in the report, a CUDA 11 library asked for is another major.
    let (_, f) = explain_text(
        "t",
        "nvidia-cublas-cu12==12.4.5.8\nnvidia-cuda-runtime-cu12==12.4.127\nImportError: libcublasLt.so.11: cannot open shared object file: No such file or directory\n",
    );
    let e = f.iter().find(|f| f.code == "ERR017").unwrap();
    assert_eq!(e.severity, Severity::Error, "{f:?}");
}

#[test]
fn a_report_that_names_no_torch_gets_torch_advice_as_info() {
    // rigaya/NVEnc#148: an encoder on driver 436.15; no torch anywhere.
    // That driver 436 is too old for torch 2.x is advice.
    let (_, f) = explain("corpus/c69b-nvencc-staxrip-ve-usage.txt");
    let d = f.iter().find(|f| f.code == "DRV009").unwrap();
    assert_eq!(d.severity, Severity::Info);
    assert!(
        d.message.contains("advice for the next install"),
        "{}",
        d.message
    );
    // On a probed machine with no torch it is a warning: the next `pip install torch` fails there.
    let mut inv = Inventory::new("probe /");
    inv.nvidia.driver_version = Some(gpucompat::inventory::Fact::new(
        "495.29.05".parse().unwrap(),
        "nvidia-smi",
    ));
    let f = run_rules(&inv, Kb::embedded());
    let d = f.iter().find(|f| f.code == "DRV009").unwrap();
    assert_eq!(d.severity, Severity::Warning);
}

#[test]
fn the_gpu_operator_s_driver_pod_failing_is_no_driver() {
    // NVIDIA/gpu-operator#15 (the driver pod in CrashLoopBackOff) and #8 (its
    // installer cannot copy dkms.conf).
    for rel in [
        "corpus/c22b-gpu-operator-2019-ubuntu1804-nouveau-blocks-driver-pod.txt",
        "corpus/c2-gpu-operator-418-driver-pod-nouveau.txt",
    ] {
        let (_, f) = explain(rel);
        let e = f
            .iter()
            .find(|f| f.code == "ERR053")
            .unwrap_or_else(|| panic!("{rel}: {f:?}"));
        assert_eq!(e.category, Category::NoDriver);
    }
    // A running driver pod is no failure.
    let (_, f) = explain_text(
        "t",
        "gpu-operator   nvidia-driver-daemonset-tm22t   1/1   Running   0   6m27s\n",
    );
    assert!(f.iter().all(|f| f.code != "ERR053"), "{f:?}");
}

#[test]
fn the_cpu_build_as_the_reporter_names_it() {
    // pytorch/pytorch#168065: `pip install torch` on a GB200 gave the CPU build.
    let (inv, f) = explain("corpus/c5-pytorch-gb200-aarch64-pip-install-cpu-torch.txt");
    let t = inv.python[0].torch.as_ref().unwrap();
    assert_eq!(t.cuda.as_ref().map(|c| c.value), Some(None));
    assert_eq!(codes(&f), BTreeSet::from(["WHL004"]));
    assert!(f[0].evidence.iter().all(|e| e.source.ends_with("(prose)")));
}

#[test]
fn uv_s_install_summary_is_a_package_list() {
    // jax-ml/jax#28929: `uv pip install -U "jax[cuda12]"` prints ` + jax==0.6.1`.
    let (inv, _) = explain("corpus/c2-jax-061-cusparse-nvjitlink-from-ld-library-path.txt");
    let e = &inv.python[0];
    assert_eq!(
        e.package("jaxlib").map(|p| p.version.as_str()),
        Some("0.6.1")
    );
    assert!(e.package("nvidia-nvjitlink-cu12").is_some());
}

#[test]
fn nvenc_s_driver_checks_are_a_driver_too_old() {
    // obsproject/obs-studio#8723 and HandBrake/HandBrake#1827.
    for rel in [
        "corpus/c30a-obs-nvenc-min-driver-471.txt",
        "corpus/c30a-handbrake-nvenc-invalid-version-15.txt",
    ] {
        let (_, f) = explain(rel);
        let e = f
            .iter()
            .find(|f| f.category == Category::DriverTooOld)
            .unwrap_or_else(|| panic!("{rel}: {f:?}"));
        assert!(e.message.contains("NVENC"), "{rel}: {}", e.message);
    }
    // The same status number outside NVENC is no driver verdict.
    let (_, f) = explain_text("t", "parse error: invalid version (15) in manifest\n");
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn a_gtx_name_in_a_longer_sentence() {
    // seanghay/uvr-mdx-infer#2: "They only have a GTX 1050 Ti, which is below the minimum specs, ..."
    let (inv, f) = explain("corpus/c30a-uvr-mdx-infer-cpu-torch-1050ti.txt");
    assert!(inv
        .gpus
        .iter()
        .any(|g| g.name.as_ref().is_some_and(|n| n.value.contains("1050"))));
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
}

#[test]
fn the_oci_runtime_s_file_exists_is_driver_files_in_the_image() {
    // NVIDIA/nvidia-container-toolkit#371: nvidia-opencl-dev put driver libraries in the image.
    let (_, f) =
        explain("corpus/c30b-nct-pytorch-2307-nvidia-opencl-dev-libnvidia-ml-file-exists.txt");
    assert!(fires(&f, "ERR033"), "{f:?}");
    // A user's own symlink that already exists is nothing of the kind.
    let (_, f) = explain_text(
        "t",
        "ln: failed to create symbolic link '/usr/lib/x86_64-linux-gnu/libcuda.so': File exists\n",
    );
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn an_nvswitch_system_where_cuda_fails_is_a_fabric_manager_hint() {
    // NVIDIA/gpu-operator#545 (DGX A100, the CUDA validator crash-loops) and
    // #286 (an A100 HGX, the same): nvidia-smi works, CUDA does not.
    for rel in [
        "corpus/c34c-gpu-operator-2023-dgx-a100-rke2-fabricmanager-not-started.txt",
        "corpus/c34c-gpu-operator-2021-hgx-a100-centos7-fabricmanager-missing.txt",
    ] {
        let (_, f) = explain(rel);
        let h = f
            .iter()
            .find(|f| f.code == "HINT002")
            .unwrap_or_else(|| panic!("{rel}: {f:?}"));
        assert_eq!(h.severity, Severity::Info);
        assert!(h.message.contains("an NVSwitch system"), "{}", h.message);
        assert!(
            f.iter().all(|f| f.severity == Severity::Info),
            "{rel}: {f:?}"
        );
    }
    // Eight A100 SXM4 GPUs in nvidia-smi are an HGX A100 8-GPU board.
    let rows: String = (0..8)
        .map(|i| format!("GPU {i}: NVIDIA A100-SXM4-80GB (UUID: GPU-{i}aaaaaaa-0000-0000-0000-000000000000)\n"))
        .collect();
    let failing = "RuntimeError: CUDA error: unknown error when starting the CUDA validator\n";
    let (_, f) = explain_text("t", &format!("{rows}{failing}"));
    assert!(fires(&f, "HINT002"), "{f:?}");
    // Two of them are not; a DGX that shows nothing failing gets no hint;
    // an HGX A100 4-GPU board has no NVSwitch.
    let two: String = rows.lines().take(2).map(|l| format!("{l}\n")).collect();
    let (_, f) = explain_text("t", &format!("{two}{failing}"));
    assert!(f.iter().all(|f| f.code != "HINT002"), "{f:?}");
    let (_, f) = explain_text("t", "Our DGX A100 runs the training jobs every night.\n");
    assert!(f.iter().all(|f| f.code != "HINT002"), "{f:?}");
    let (inv, _) = explain_text("t", &format!("Node: HGX A100 4-GPU\n{failing}"));
    assert!(inv.setting.nvswitch_board.is_none());
}

#[test]
fn a_driver_branch_past_its_end_of_life_is_advice_in_a_paste() {
    // jax-ml/jax#12335: a V100 on R470 typed in the report; the branch is not the failure.
    let (_, f) = explain("corpus/c34a-jax-2022-jax-platforms-gpu-means-rocm.txt");
    let d = f.iter().find(|f| f.code == "DRV005").unwrap();
    assert_eq!(d.severity, Severity::Info);
    assert!(d.message.contains("lifecycle advice"), "{}", d.message);
    // On a probed machine it is a warning.
    let mut inv = Inventory::new("probe /");
    inv.nvidia.driver_version = Some(gpucompat::inventory::Fact::new(
        "470.57.02".parse().unwrap(),
        "nvidia-smi",
    ));
    inv.gpus.push(gpucompat::inventory::Gpu {
        name: Some(gpucompat::inventory::Fact::new(
            "Tesla V100-SXM2-16GB".to_string(),
            "nvidia-smi",
        )),
        ..Default::default()
    });
    let f = run_rules(&inv, Kb::embedded());
    let d = f.iter().find(|f| f.code == "DRV005").unwrap();
    assert_eq!(d.severity, Severity::Warning);
}

#[test]
fn a_toolkit_newer_than_the_driver_is_named() {
    // NVIDIA/numba-cuda#192: toolkit 12.8 (PTX 8.7) typed beside driver 550 (CUDA 12.4).
    let (_, f) = explain("corpus/c34a-numba-cuda-2025-toolkit128-ptx87-driver550.txt");
    let r = f.iter().find(|f| f.code == "RUN004").unwrap();
    assert_eq!(r.severity, Severity::Warning);
    assert_eq!(r.category, Category::DriverTooOld);
    assert!(
        r.fix
            .as_ref()
            .unwrap()
            .note
            .as_deref()
            .unwrap()
            .contains("570.26"),
        "{r:?}"
    );
    // With the PTX error seen, the observed error joins it at error severity.
    let (_, f) = explain("corpus/c26b-pynari-ptx-85-driver-550.txt");
    let r = f.iter().find(|f| f.code == "RUN004").unwrap();
    assert_eq!(r.severity, Severity::Error);
    assert!(f.iter().all(|f| f.code != "ERR002"), "{f:?}");
    // Another major: nothing it builds runs.
    let (_, f) = explain_text("t", "Driver Version: 470.82.01\nCUDA version: 12.1\n");
    let r = f.iter().find(|f| f.code == "RUN004").unwrap();
    assert_eq!(r.severity, Severity::Warning);
    assert!(r.message.contains("error 35"), "{}", r.message);
    // Quiet: a toolkit at or below the driver's CUDA.
    let (_, f) = explain_text("t", "Driver Version: 550.120\nCUDA version: 12.4\n");
    assert!(f.iter().all(|f| f.code != "RUN004"), "{f:?}");
    // Beside a torch that bundles its runtime, a newer minor is info.
    let (_, f) = explain_text(
        "t",
        "Driver Version: 550.120\nCUDA version: 12.8\ntorch==2.5.1+cu121\n",
    );
    let r = f.iter().find(|f| f.code == "RUN004").unwrap();
    assert_eq!(r.severity, Severity::Info, "{f:?}");
}

#[test]
fn triton_s_mma_assertion_is_a_gpu_its_release_does_not_know() {
    // triton-lang/triton#6087: Triton 3.2's getMMAVersionSafe on an RTX 5080 (sm_120).
    let (_, f) = explain("corpus/c34d-triton-2025-rtx5080-sm120-getmmaversion-assert.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // The words alone, in a sentence about something else, are no error.
    let (inv, _) = explain_text("t", "Triton 3.3 supports compute capability 12.0 now\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_node_that_advertises_no_gpu_is_a_question_about_its_runtime() {
    // kubernetes/minikube#19114: the docker driver started without --gpus.
    let (inv, f) =
        explain("corpus/c34c-minikube-2024-docker-driver-gpu-addon-without-gpus-flag.txt");
    assert!(inv.container.kubernetes.is_some());
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("device plugin"), "{}", e.message);
    // awslabs/amazon-eks-ami#2768: the same symptom, and the driver is the cause.
    let (_, f) = explain("corpus/c21c-eks-al2023-g7-blackwell-proprietary-kmod.txt");
    assert_eq!(errors_in(&f, Category::Container), 0, "{f:?}");
    assert!(categories(&f).contains(&Category::DriverBranch));
    // A pod that asks for a GPU and is scheduled says nothing.
    let (inv, _) = explain_text("t", "Limits:\n  nvidia.com/gpu: 1\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_container_that_misses_what_the_driver_has_is_the_container() {
    // canonical/lxd#5618 (nvidia-uvm not passed: deviceQuery returns 30) and
    // NVIDIA/nvidia-docker#1163 (the hook's ldconfig path: no libnvidia-ml in
    // the container); nvidia-smi shows the driver working in both.
    for rel in [
        "corpus/c35c-lxd-2019-container-missing-nvidia-uvm-error30.txt",
        "corpus/c35c-nvidia-docker-2019-debian-backports-ldconfig-at-prefix.txt",
    ] {
        let (_, f) = explain(rel);
        let e = f
            .iter()
            .find(|f| f.code == "ERR068")
            .unwrap_or_else(|| panic!("{rel}: {f:?}"));
        assert_eq!(e.category, Category::Container);
        assert!(
            e.evidence.iter().any(|e| e.fact == "nvidia-smi answered"),
            "{rel}"
        );
        assert_eq!(errors_in(&f, Category::NoDriver), 0, "{rel}: {f:?}");
    }
    // The same error on the host is no container's.
    let (_, f) = explain_text(
        "t",
        "| NVIDIA-SMI 390.25                 Driver Version: 390.25                    |\ncudaGetDeviceCount returned 30\n",
    );
    assert!(f.iter().all(|f| f.code != "ERR068"), "{f:?}");
}

#[test]
fn error_804_in_a_container_names_both_ways_out() {
    // A homepod image on a GTX 1650 (toolkit 1.4.0 mounted the compat
    // libraries), and the same error where the host driver was the fix.
    let (_, f) = explain("corpus/c35c-torchpod-2021-toolkit-140-error804-gtx1650.txt");
    let e = f.iter().find(|f| f.code == "ERR003").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("container toolkit"), "{}", e.message);
    // On the host with compat libraries on the loader path, error 804 stays an error.
    let (_, f) = explain_text(
        "t",
        "export LD_LIBRARY_PATH=/usr/local/cuda/compat\nCUDA error: forward compatibility was attempted on non supported HW\n",
    );
    let e = f.iter().find(|f| f.code == "ERR003").unwrap();
    assert_eq!(e.severity, Severity::Error);
}

#[test]
fn uv_s_missing_platform_wheel_and_a_cpu_only_device_option() {
    // OpenRAL/openral#88: torch 2.8.0+cu128 has no linux-aarch64 wheel on a GB10.
    let (_, f) = explain("corpus/c36b-openral-2026-gb10-aarch64-torch280-cu128-no-wheel.txt");
    let e = f.iter().find(|f| f.code == "ERR034").unwrap();
    assert_eq!(e.category, Category::PlatformPosture);
    assert!(e.message.contains("platform"), "{}", e.message);
    // TabbyML/tabby#1163: a source build whose --device takes only cpu.
    let (_, f) = explain("corpus/c36a-tabby-2024-source-build-without-cuda-feature-wsl.txt");
    let e = f.iter().find(|f| f.code == "ERR038").unwrap();
    assert_eq!(e.category, Category::CpuOnlyWheel);
    assert!(e.message.contains("offers only cpu"), "{}", e.message);
    // A device option that offers cuda too is no CPU build.
    let (inv, _) = explain_text(
        "t",
        "error: invalid value 'gpu' for '--device <DEVICE>'\n  [possible values: cpu, cuda]\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn torch_compile_without_triton_on_windows_is_the_platform() {
    // pytorch/pytorch#136361: inductor needs Triton, which had no Windows build.
    let (_, f) = explain("corpus/c35a-pytorch-2024-torch-compile-windows-no-triton.txt");
    assert!(fires(&f, "ERR034"), "{f:?}");
    // On Linux the same words say Triton is missing or old, not the platform.
    let (inv, _) = explain_text(
        "t",
        "RuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old.\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn nvidia_smi_not_available_inside_a_container_in_the_reporter_s_words() {
    // odysseus-dev/odysseus#2659: compose started the container without a GPU reservation.
    let (_, f) =
        explain("corpus/c36b-odysseus-2026-compose-missing-gpu-reservation-wsl-docker.txt");
    let e = f.iter().find(|f| f.code == "ERR042").unwrap();
    assert_eq!(e.category, Category::Container);
    // A sentence about another tool's availability is no error.
    let (inv, _) = explain_text(
        "t",
        "The dashboard is not available until nvidia-smi runs\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn error_804_after_an_update_is_the_old_module_not_an_old_driver() {
    // pytorch/pytorch#40671: error 804 the day after a routine Ubuntu update; a reboot fixed it.
    let (inv, f) = explain("corpus/c38a-pytorch-2020-error804-after-ubuntu-driver-update.txt");
    assert!(inv.setting.after_update.is_some());
    let e = f.iter().find(|f| f.code == "ERR001").unwrap();
    assert_eq!(e.category, Category::DriverLibraryMismatch);
    assert!(e.message.contains("began after an update"), "{}", e.message);
    assert!(e.evidence.iter().any(|x| x.fact == "began after an update"));
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
    // Without an update, on a host: both causes, as a warning.
    let err = "RuntimeError: CUDA error: forward compatibility was attempted on non supported HW\n";
    let (_, f) = explain_text("t", err);
    let e = f.iter().find(|f| f.code == "ERR003").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("reboot"), "{}", e.message);
    // After an update but inside a container: the image's compat libraries stay in view.
    let (_, f) = explain_text(
        "t",
        &format!("It broke after a recent system update.\n$ docker run --gpus all img\n{err}"),
    );
    assert!(f.iter().all(|f| f.code != "ERR001"), "{f:?}");
    assert!(fires(&f, "ERR003"), "{f:?}");
    // Compat libraries on the loader path: ERR003 stands, an error.
    let (_, f) = explain_text(
        "t",
        &format!("It broke after a recent system update.\nLD_LIBRARY_PATH=/usr/local/cuda-12.4/compat:/usr/lib\n{err}"),
    );
    let e = f.iter().find(|f| f.code == "ERR003").unwrap();
    assert_eq!(e.severity, Severity::Error);
}

#[test]
fn a_conda_installed_cudnn_off_the_loader_path_is_the_variable() {
    // PaddlePaddle/Paddle#50977: conda's libraries were found once LD_LIBRARY_PATH named the env.
    let (_, f) = explain("corpus/c38b-paddle-2023-conda-cudnn-not-on-ld-library-path.txt");
    let e = f.iter().find(|f| f.code == "ENV008").unwrap();
    assert_eq!(e.category, Category::EnvVar);
    assert!(e
        .fix
        .as_ref()
        .unwrap()
        .command
        .as_deref()
        .unwrap()
        .contains("$CONDA_PREFIX/lib"));
    assert_eq!(errors_in(&f, Category::CudnnMismatch), 0, "{f:?}");
    // A cuDNN pip wheel, not conda's: no such finding.
    let (_, f) = explain_text(
        "t",
        "pip install tensorflow==2.12.0 nvidia-cudnn-cu11==8.6.0.163\nCould not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n",
    );
    assert!(f.iter().all(|f| f.code != "ENV008"), "{f:?}");
}

#[test]
fn pynvml_s_rm_version_mismatch_is_the_driver_library_mismatch() {
    // recommenders-team/recommenders#1287: fastai's pynvml.nvmlInit() on a DSVM.
    let (_, f) = explain("corpus/c37b-recommenders-2021-fastai-pynvml-rm-version-mismatch.txt");
    let e = f.iter().find(|f| f.code == "ERR001").unwrap();
    assert_eq!(e.category, Category::DriverLibraryMismatch);
    // Another NVML error is not this one.
    let (inv, _) = explain_text("t", "pynvml.NVMLError_Uninitialized: Uninitialized\n");
    assert!(inv
        .errors
        .iter()
        .all(|e| e.kind != gpucompat::inventory::ErrorKind::NvmlDriverLibraryMismatch));
}

#[test]
fn a_build_running_a_list_slash_bin_nvcc_names_cuda_home() {
    // facebookresearch/maskrcnn-benchmark#132: CUDA_HOME=/usr/local/cuda:$CUDA_HOME.
    let (inv, f) = explain("corpus/c37b-maskrcnn-benchmark-2018-cuda-home-trailing-colon.txt");
    assert_eq!(inv.env["CUDA_HOME"].value, "/usr/local/cuda:");
    let e = f.iter().find(|f| f.code == "ENV007").unwrap();
    assert_eq!(
        e.fix.as_ref().unwrap().command.as_deref(),
        Some("export CUDA_HOME=/usr/local/cuda")
    );
    assert!(f.iter().all(|f| f.code != "ERR065"), "{f:?}");
    // A missing nvcc at an ordinary path says nothing about CUDA_HOME's form.
    let (inv, _) = explain_text(
        "t",
        "unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory\n",
    );
    assert!(!inv.env.contains_key("CUDA_HOME"));
}

#[test]
fn a_missing_libnvinfer_of_one_major_is_tensorrt() {
    // galliot-us/neuralet#72: a JetPack 4.3 container on a JetPack 4.4 (TensorRT 7) host.
    let (_, f) = explain("corpus/c37c-neuralet-2020-jetson-nano-libnvinfer6-vs-jetpack44-trt7.txt");
    let e = f.iter().find(|f| f.code == "ERR015").unwrap();
    assert_eq!(e.category, Category::TensorrtMismatch);
    assert!(e.message.contains("libnvinfer.so.N"), "{}", e.message);
    assert!(f.iter().all(|f| f.code != "ERR017"), "{f:?}");
    // A CUDA runtime library stays ERR017's.
    let (_, f) = explain_text(
        "t",
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
    );
    assert!(fires(&f, "ERR017"), "{f:?}");
}

#[test]
fn a_radeon_named_by_its_number_and_xtx_is_amd() {
    // NixOS/nixpkgs#357345: "ollama does not use GPU acceleration on 7900xtx".
    let (_, f) = explain("corpus/c37c-nixpkgs-2024-ollama-rocm-needs-gfx-override.txt");
    assert!(categories(&f).contains(&Category::AmdRocm), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
    // An NVIDIA card's number with no XT is no AMD clue.
    let (inv, _) = explain_text("t", "It does not use the GPU on my 4090.\n");
    assert!(inv
        .pci
        .iter()
        .all(|p| p.vendor != gpucompat::inventory::GpuVendor::Amd));
    assert!(inv.amd.gfx_targets.is_empty());
}

#[test]
fn unix_only_modules_and_old_bitsandbytes_on_windows_are_the_platform() {
    // vllm-project/vllm#12858: `import vllm` on native Windows.
    let (_, f) = explain("corpus/c37c-vllm-2025-windows-no-module-resource.txt");
    assert!(fires(&f, "ERR034"), "{f:?}");
    // bitsandbytes-foundation/bitsandbytes#505: CUDA setup on Windows before 0.43.
    let (_, f) = explain("corpus/c38a-bitsandbytes-2023-native-windows-unsupported.txt");
    assert!(fires(&f, "ERR034"), "{f:?}");
    // The same bitsandbytes message on Linux is not the platform.
    let (inv, _) = explain_text(
        "t",
        "/home/me/.venv/lib/python3.10/site-packages/bitsandbytes/cextension.py:20\nRuntimeError: CUDA Setup failed despite GPU being available. Please run the following command to get more information:\n",
    );
    assert!(inv
        .errors
        .iter()
        .all(|e| e.kind != gpucompat::inventory::ErrorKind::PlatformUnsupported));
}

#[test]
fn collect_env_under_rosetta_names_the_chip_and_the_python_s_arch() {
    // pytorch/pytorch#146236: an x86_64 Anaconda Python on an M2 Pro.
    let (inv, f) = explain("corpus/c37c-pytorch-2025-rosetta-x86-python-mps-macos-version.txt");
    assert_eq!(inv.apple.chip.as_ref().unwrap().value, "Apple M2 Pro");
    assert!(fires(&f, "MAC001"), "{f:?}");
    // A native arm64 Python on the same chip: no Rosetta finding.
    let (_, f) = explain_text(
        "t",
        "PyTorch version: 2.6.0\nIs debug build: False\nCUDA used to build PyTorch: None\nOS: macOS 15.3 (arm64)\nPython platform: macOS-15.3-arm64-arm-64bit\nIs CUDA available: False\nCPU:\nApple M2 Pro\n",
    );
    assert!(f.iter().all(|f| f.code != "MAC001"), "{f:?}");
}

#[test]
fn tensorflow_in_a_windows_package_list_is_advice_when_another_program_fails() {
    // hacksider/Deep-Live-Cam: ONNX Runtime runs on the CPU; tensorflow is one package of the list.
    let (_, f) = explain("corpus/c39a-deep-live-cam-2026-rtx5080-cuda132-toolkit-ort-cpu-only.txt");
    let e = f.iter().find(|f| f.code == "WIN005").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(
        e.message.contains("only in its package list"),
        "{}",
        e.message
    );
    // TensorFlow's own failure on Windows stays an error.
    let (_, f) = explain_text(
        "t",
        "C:\\Users\\me> pip list\nPackage    Version\n---------- -------\ntensorflow 2.15.0\n>>> import tensorflow as tf; tf.config.list_physical_devices('GPU')\nW tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries.\n",
    );
    let e = f.iter().find(|f| f.code == "WIN005").unwrap();
    assert_eq!(e.severity, Severity::Error);
    assert!(e.evidence.iter().any(|x| x.fact == "observed error"));
    assert!(f.iter().all(|f| f.code != "ERR017"), "{f:?}");
}

#[test]
fn nccl_without_shared_memory_in_a_container_is_the_container_s_shm() {
    // NVIDIA/nccl#342: NCCL 2.7.3 in an nvidia/cuda image, 'posix_fallocate failed: No space left on device'.
    let (_, f) = explain("corpus/c39b-nccl-2020-docker-shm-64mb-nccl273.txt");
    let e = f.iter().find(|f| f.code == "ERR069").unwrap();
    assert_eq!(e.category, Category::Container);
    // The report shows no container: a warning naming both.
    assert_eq!(e.severity, Severity::Warning);
    // A DataLoader bus error inside a pasted docker run: an error, with the fix.
    let (_, f) = explain_text(
        "t",
        "$ docker run --gpus all -it trainer python train.py\nERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n",
    );
    let e = f.iter().find(|f| f.code == "ERR069").unwrap();
    assert_eq!(e.severity, Severity::Error);
    assert!(format!("{:?}", e.fix).contains("--shm-size"), "{:?}", e.fix);
}

#[test]
fn an_unversioned_libcuda_so_is_not_proof_of_no_driver() {
    // taichi-nerfs: "libcuda.so lib not found" while other CUDA programs ran.
    let (_, f) = explain("corpus/c40a-taichi-nerfs-2024-libcuda-not-found-falls-back-to-cpu.txt");
    let e = f.iter().find(|f| f.code == "ERR006").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("libcuda.so link"), "{}", e.message);
    // The versioned library missing stays an error.
    let (_, f) = explain_text(
        "t",
        "OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n",
    );
    let e = f.iter().find(|f| f.code == "ERR006").unwrap();
    assert_eq!(e.severity, Severity::Error);
}

#[test]
fn the_nvidia_module_failing_to_build_for_a_new_kernel() {
    // void-packages#53759 (make in the DKMS tree), nixpkgs#124709 (the module's sources),
    // void-packages#11660 (in the reporter's words).
    for rel in [
        "corpus/c40b-void-2024-nvidia470-dkms-fails-on-linux612.txt",
        "corpus/c40b-nixos-2021-nvidia455-fails-to-build-for-linux511.txt",
        "corpus/c40b-void-2018-nvidia384-dkms-fails-on-linux415.txt",
    ] {
        let (_, f) = explain(rel);
        assert!(fires(&f, "ERR053"), "{rel}: {f:?}");
    }
    // Another program's build failing, and a DKMS build that worked, are not it.
    for t in [
        "make[2]: *** [Makefile:12: /home/me/project/build] Error 2\n",
        "dkms status: nvidia/550.120, 6.8.0-45-generic, x86_64: installed\n",
        "  CC [M]  /tmp/selfgz/kernel/nvidia/nv-pci.o\n  CC [M]  /tmp/selfgz/kernel/nvidia/nv-mmap.o\n",
    ] {
        let (inv, _) = explain_text("t", t);
        assert!(inv.errors.is_empty(), "{t}: {:?}", inv.errors);
    }
}

#[test]
fn linux_only_gpu_packages_on_windows_and_dgl_s_cpu_build() {
    // facebookresearch/faiss#4043: pip finds no faiss-gpu for Windows.
    let (_, f) = explain("corpus/c40a-faiss-2024-windows-pip-faiss-gpu-no-distribution.txt");
    assert!(fires(&f, "ERR034"), "{f:?}");
    // On Linux the same pip message is another problem (a Python or a version with no wheel).
    let (inv, _) = explain_text(
        "t",
        "/home/me$ pip install faiss-gpu\nERROR: No matching distribution found for faiss-gpu\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // THUDM/GraphMAE#9: the CPU build of DGL.
    let (_, f) = explain("corpus/c40a-graphmae-2022-dgl-cpu-build-device-api-gpu.txt");
    let e = f.iter().find(|f| f.code == "ERR038").unwrap();
    assert_eq!(e.category, Category::CpuOnlyWheel);
}

#[test]
fn a_gpu_the_release_does_not_know_names_the_ways_it_can_be() {
    // flatcar/Flatcar#1283: the public 535 driver in a VM whose GPU is a P40 vGPU.
    let (inv, f) = explain("corpus/c40b-flatcar-2023-p40-vgpu-guest-public-driver-unsupported.txt");
    assert_eq!(
        inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
        "535.104.05"
    );
    let e = f.iter().find(|f| f.code == "ERR030").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("vGPU guest driver"), "{}", e.message);
    // A message naming the legacy branch stays the plain error.
    let (_, f) = explain_text(
        "t",
        "NVRM: The NVIDIA GeForce GT 710 GPU installed in this system is\nNVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n",
    );
    let e = f.iter().find(|f| f.code == "ERR030").unwrap();
    assert_eq!(e.severity, Severity::Error);
}

#[test]
fn an_nvcc_without_cxx17_is_older_than_torch_s_cuda() {
    // deepspeedai/DeepSpeedExamples#911: compute_86 and c++17 both refused by an old system nvcc.
    let (_, f) = explain("corpus/c41b-deepspeedexamples-2024-nvcc-compute86-cxx17.txt");
    let e = f.iter().find(|f| f.code == "ERR016").unwrap();
    assert_eq!(e.category, Category::MultipleCuda);
    assert!(e.message.contains("older than 11.0"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::ArchUnsupported), 0, "{f:?}");
    // The architecture refusal alone stays ARCH007's.
    let (_, f) = explain_text(
        "t",
        "nvcc fatal   : Unsupported gpu architecture 'compute_86'\n",
    );
    assert!(fires(&f, "ARCH007"), "{f:?}");
}

#[test]
fn error_803_with_no_driver_in_sight_names_both_repairs() {
    // easydiffusion#134: a lone 803; the latest driver, installed cleanly, fixed it.
    let (_, f) = explain("corpus/c41a-easydiffusion-2022-gtx1080ti-popos-803-driver-update.txt");
    let e = f.iter().find(|f| f.code == "ERR001").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("clean install"), "{}", e.message);
    // With the versions in sight, the mismatch is a plain error.
    let (_, f) = explain_text(
        "t",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14\nError 803: system has unsupported display driver / cuda driver combination\n",
    );
    let e = f
        .iter()
        .find(|f| f.category == Category::DriverLibraryMismatch)
        .unwrap();
    assert_eq!(e.severity, Severity::Error, "{f:?}");
}

#[test]
fn nvidia_smi_crashing_under_wsl_and_text_on_an_opening_fence() {
    // Nevuly/WSL2-Linux-Kernel-Rolling#13: nvidia-smi segfaults under WSL2 with Windows driver 555.85.
    let (_, f) = explain("corpus/c41a-wsl-2024-nvidia-smi-segfault-555-85.txt");
    let e = f.iter().find(|f| f.code == "PLAT008").unwrap();
    assert!(e.message.contains("segmentation fault"), "{}", e.message);
    // Outside WSL a segfaulting process is no finding of ours.
    let (inv, _) = explain_text("t", "[1]    494 segmentation fault  nvidia-smi\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // A torch arch message right after the opening fence is read.
    let (_, f) = explain("corpus/c41a-direct3ds2-2025-rtx5090-sm120-torch-cu128.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
}

#[test]
fn a_request_for_amd_support_names_an_amd_gpu() {
    // Fooocus#3 "AMD support": a CUDA build of torch on Windows with an AMD GPU.
    let (_, f) = explain("corpus/c29b-fooocus-2023-win-amd-gpu-found-no-nvidia-driver.txt");
    let e = f.iter().find(|f| f.code == "ERR020").unwrap();
    assert!(e.message.contains("AMD"), "{}", e.message);
    assert!(!categories(&f).contains(&Category::NoDriver), "{f:?}");
    // An AMD processor beside an NVIDIA card names no AMD GPU.
    let (inv, _) = explain_text(
        "t",
        "Title: Crash on an AMD Ryzen 9 7950X with an RTX 4090\nRuntimeError: Found no NVIDIA driver on your system.\n",
    );
    assert!(
        !inv.pci.iter().any(|p| p.vendor_id == "0x1002"),
        "{:?}",
        inv.pci
    );
}

#[test]
fn amd_variables_listed_empty_name_no_amd_gpu() {
    // Ollama prints every GPU variable it knows, set or not.
    let log = "ollama[1207]: routes.go:1225: INFO server config env=\"map[CUDA_VISIBLE_DEVICES:1 GPU_DEVICE_ORDINAL: HIP_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION: HTTPS_PROXY:]\"\nError: no compatible GPUs were discovered\n";
    let (_, f) = explain_text("t", log);
    assert!(!categories(&f).contains(&Category::AmdRocm), "{f:?}");
    // Set, the same variable does name an AMD GPU.
    let set = log.replace(
        "HSA_OVERRIDE_GFX_VERSION: ",
        "HSA_OVERRIDE_GFX_VERSION:10.3.0 ",
    );
    let (_, f) = explain_text("t", &set);
    assert!(categories(&f).contains(&Category::AmdRocm), "{f:?}");
}

#[test]
fn a_feature_the_device_lacks_is_the_platform_s_on_a_vgpu() {
    let err = "CUDA error 801: operation not supported\n";
    // A vGPU profile in sight: an error naming the platform.
    for setting in [
        "GPU: NVIDIA A40-48C\n",
        "    Virtualization Mode                   : VGPU\n",
        "Running on an AWS g6f fractional L4 instance\n",
    ] {
        let (_, f) = explain_text("t", &format!("{setting}{err}"));
        let e = f.iter().find(|f| f.code == "ERR072").expect(setting);
        assert_eq!(e.severity, Severity::Error, "{setting}");
    }
    // Nothing says vGPU: the same refusal is only a candidate.
    for setting in ["Model: t5-3b on 1 GPU\n", "Loading llama2-7b\n", ""] {
        let (inv, f) = explain_text("t", &format!("{setting}{err}"));
        assert!(inv.setting.vgpu.is_none(), "{setting}");
        let e = f.iter().find(|f| f.code == "ERR072").expect(setting);
        assert_eq!(e.severity, Severity::Warning, "{setting}");
    }
    // XLA's refusal of a MIG-backed vGPU is that, not MIG enumeration.
    let (_, f) = explain("corpus/c53f-xla-2026-gcp-g4-fractional-vgpu-no-vmm.txt");
    assert!(!fires(&f, "ERR024"), "{f:?}");
    assert!(f
        .iter()
        .any(|f| f.code == "ERR072" && f.severity == Severity::Error));
}

#[test]
fn flash_attention_refusing_a_blackwell_gpu_is_its_old_check() {
    let msg = "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n";
    // A Blackwell GPU: the build predates it, one cause read in two links, both errors.
    let (_, f) = explain_text("t", &format!("GPU: NVIDIA GeForce RTX 5090\n{msg}"));
    for code in ["ERR004", "ERR026"] {
        let e = f.iter().find(|f| f.code == code).expect(code);
        assert_eq!(e.severity, Severity::Error, "{code}: {f:?}");
        assert!(e.message.contains("2.7.3"), "{}", e.message);
    }
    // A Turing GPU: FlashAttention 2's real floor, the extension alone.
    let (_, f) = explain_text("t", &format!("GPU: Tesla T4\n{msg}"));
    assert!(fires(&f, "ERR026"), "{f:?}");
    assert!(!fires(&f, "ERR004"), "{f:?}");
}

#[test]
fn onnxruntime_left_with_the_cpu_provider_only() {
    // onnxruntime#6183: only ['CPUExecutionProvider'] available (the CPU package shadows the GPU one).
    let (_, f) = explain("corpus/c15a-ort16-colab-p100-cpu-pkg-shadows-gpu-cuda101.txt");
    let e = f.iter().find(|f| f.code == "ERR009").unwrap();
    assert_eq!(e.severity, Severity::Error);
    // Deep-Live-Cam#37: a session that applied the CPU provider only, while
    // the run used CUDA; the program may choose the CPU for a model, so the
    // line alone is a warning naming both.
    let (_, f) =
        explain("corpus/c29b-deep-live-cam-ubuntu-video-cpu-provider-line-but-cuda-used.txt");
    let e = f.iter().find(|f| f.code == "ERR009").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    // Both providers applied is a working CUDA EP.
    let (inv, f) = explain_text(
        "t",
        "Applied providers: ['CUDAExecutionProvider', 'CPUExecutionProvider'], with options: {}\nThe CPU provider is only a fallback.\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn container_hooks_and_cdi_specs_the_engine_cannot_read() {
    // pyxis#110: enroot's GPU hook finds no nvidia-container-cli on the node.
    let (_, f) = explain("corpus/c42c-pyxis-2023-nvidia-container-cli-missing-on-node.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("libnvidia-container"), "{}", e.message);
    // nvidia-container-toolkit#1860: a CDI spec field podman 4.9 does not know.
    let (_, f) =
        explain("corpus/c42c-nvidia-container-toolkit-2026-podman493-cdi-additionalgids.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("CDI"), "{}", e.message);
    // A spec that failed to load for another reason names no unknown field.
    let (inv, _) = explain_text(
        "t",
        "failed to parse CDI Spec \"/etc/cdi/nvidia.yaml\": open /etc/cdi/nvidia.yaml: permission denied\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn libraries_that_only_one_build_or_platform_has() {
    // text-embeddings-inference#15: an image compiled for compute cap 80 on a V100.
    let (_, f) = explain("corpus/c42a-tei-2023-v100-runtime-cap70-compile-cap80.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // faiss#2892: faiss-cpu over faiss-gpu.
    let (_, f) = explain("corpus/c42d-faiss-2023-faiss-cpu-shadows-faiss-gpu.txt");
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
    // cuml#5869: RAPIDS' conda packages on win-64.
    let (_, f) = explain("corpus/c42d-cuml-2024-conda-win64-packages-not-found.txt");
    assert!(categories(&f).contains(&Category::PlatformPosture), "{f:?}");
    // The same conda refusal on Linux is a version or channel question.
    let (inv, _) = explain_text(
        "t",
        "Platform: linux-64\nPackagesNotFoundError: The following packages are not available from current channels:\n\n  - cuml=24.04*\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn an_extension_binary_that_wants_another_cuda_or_torch() {
    // detectron2#2557: `from detectron2 import _C` wants libcudart.so.11.0 beside torch for 11.1.
    let (_, f) =
        explain("corpus/c42b-detectron2-2021-cu110-build-with-torch17-cuda111-libcudart.txt");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // instruct-nerf2nerf#3: an extension built against torch 1.x under torch 2.0.
    let (_, f) =
        explain("corpus/c42d-tinycudann-2023-nerfstudio-upgraded-torch2-libtorch-cuda-cu.txt");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // dgl#5547: `import dgl` right before a CUDA runtime of another major.
    let (_, f) = explain("corpus/c22a-dgl-cu102-build-with-torch1121-cu113-libcudart11.txt");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // mmcv loads its _ext through importlib.
    let (_, f) = explain("corpus/c35a-mmcv-2021-cu111-wheel-1310-links-cudart102.txt");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // `import torch` failing on its CUDA runtime is torch's own install.
    let (_, f) = explain_text(
        "t",
        ">>> import torch\nOSError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
    );
    assert!(
        !categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // The nearest import decides, and a frame in torch's own files is torch's.
    for text in [
        "import torchvision\nimport torch\nOSError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
        "import torchvision\n  File \"/usr/lib/python3/site-packages/torch/__init__.py\", line 199, in <module>\nOSError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
    ] {
        let (_, f) = explain_text("t", text);
        assert!(!categories(&f).contains(&Category::CompiledExtension), "{text}: {f:?}");
    }
    // torch's own _C missing its CUDA runtime is no extension's.
    let (_, f) = explain_text(
        "t",
        "    from torch._C import *\nImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
    );
    assert!(
        !categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
}

#[test]
fn ffmpeg_without_the_video_capability_in_a_container() {
    // jellyfin-metapackages#2: the new image no longer sets NVIDIA_DRIVER_CAPABILITIES.
    let (_, f) = explain("corpus/c32b-jellyfin-k8s-image-missing-driver-capabilities-nvcuvid.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("video"), "{}", e.message);
    // VSGAN-tensorrt-docker#42: the encode library missing is no old driver.
    let (_, f) = explain("corpus/c11a-vsgan-docker-nvenc-driver-capabilities.txt");
    assert!(!categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    assert!(categories(&f).contains(&Category::Container), "{f:?}");
    // On a host the same line is a driver package question, not a container's.
    let (inv, _) = explain_text(
        "t",
        "[h264_nvenc @ 0x5] Cannot load libnvidia-encode.so.1\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // An nvenc version refusal with a version stays the driver's.
    let (_, f) = explain_text(
        "t",
        "error: The minimum required Nvidia driver for nvenc is 471.41 or newer\n",
    );
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
}

#[test]
fn blackwell_against_builds_that_predate_it() {
    // pytorch#152077: torch 2.0.0 (CUDA 11.8 build) on RTX 5090s, said in words.
    let (_, f) = explain("corpus/c43b-pytorch-2025-ddp-rtx5090-torch200-cu118-nccl.txt");
    let e = f.iter().find(|f| f.code == "ARCH001").unwrap();
    assert!(
        e.evidence.iter().any(|v| v.source.ends_with("(prose)")),
        "{:?}",
        e.evidence
    );
    // microWakeWord-Trainer#56: XLA's PTX 8.5 cannot target sm_120.
    let (_, f) = explain("corpus/c43b-microwakeword-2026-tf-nightly-sm120-ptx85-torch-ok.txt");
    let e = f.iter().find(|f| f.code == "ERR004").unwrap();
    assert_eq!(e.severity, Severity::Error);
    // TensorFlow's JIT notice alone is a warning: on an H100 it is only slow.
    let (_, f) = explain_text(
        "t",
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1938] TensorFlow was not built with CUDA kernel binaries compatible with compute capability 9.0. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer.\n",
    );
    let e = f.iter().find(|f| f.code == "ERR004").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    // tensorflow#112272: an NGC container under Docker Desktop on Windows runs Linux TensorFlow.
    let (_, f) = explain("corpus/c43b-tensorflow-2026-ngc-tf217-rtx5080-laptop-invalid-handle.txt");
    assert!(f.iter().all(|f| f.code != "WIN005"), "{f:?}");
    let (_, f) = explain_text(
        "t",
        "OS: Windows 11\ntensorflow==2.15.0\nI cannot get the GPU listed.\n",
    );
    assert!(fires(&f, "WIN005"), "{f:?}");
}

#[test]
fn driver_cuda_cudnn_and_wheels_that_do_not_fit_the_machine() {
    // nvMolKit#209: torch's driver message retold short, with the driver's CUDA.
    let (inv, f) = explain("corpus/c43b-nvmolkit-2026-uv-default-cu13-torch-driver-12070.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    assert_eq!(inv.nvidia.cuda_max.unwrap().value.to_string(), "12.7");
    // pytorch#188892: cuDNN sub-libraries of two versions.
    let (_, f) =
        explain("corpus/c43b-pytorch-2026-cudnn-cu13-920-system-cudnn-sublibrary-mismatch.txt");
    assert!(categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    // onnxruntime#15732: no onnxruntime-gpu wheel for a Jetson.
    let (_, f) = explain("corpus/c43c-onnxruntime-2023-jetson-orin-jp511-no-gpu-wheel.txt");
    let e = f.iter().find(|f| f.code == "ERR034").unwrap();
    assert!(e.message.contains("aarch64"), "{}", e.message);
    // On an x86-64 machine the same pip refusal is a Python-version or index question.
    let (inv, _) = explain_text(
        "t",
        "Ubuntu 22.04 x86_64\nERROR: Could not find a version that satisfies the requirement onnxruntime-gpu (from versions: none)\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn windows_libraries_a_build_was_made_for() {
    // whisper-standalone-win#102: CTranslate2 asks for CUDA 11's cuBLAS on a CUDA 12 machine.
    let (_, f) = explain("corpus/c44b-whisper-standalone-win-2023-cuda12-cublas64-11-missing.txt");
    let e = f.iter().find(|f| f.code == "ERR026").unwrap();
    assert!(e.message.contains("CTranslate2"), "{}", e.message);
    assert!(f.iter().all(|f| f.code != "ERR050"), "{f:?}");
    // Another program's missing cuBLAS DLL stays the loader path's question.
    let (_, f) = explain_text(
        "t",
        "OSError: [WinError 126] Could not load cublas64_12.dll. Error loading \"C:\\\\venv\\\\torch\\\\lib\\\\cublas64_12.dll\"\n",
    );
    assert!(f.iter().all(|f| f.code != "ERR026"), "{f:?}");
    // YoloDotNet#18: cuDNN 8's zlibwapi.dll.
    let (_, f) = explain("corpus/c44b-yolodotnet-2024-ort-cuda-zlibwapi-missing.txt");
    let e = f.iter().find(|f| f.code == "ERR008").unwrap();
    assert!(e.message.contains("zlibwapi"), "{}", e.message);
    // T-Rex#118: nvcuda.dll without an entry point the build links.
    let (_, f) = explain("corpus/c44d-trex-2020-cuda111-build-cudevprimaryctxreset-v2.txt");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    // TensorRT#3759: tensorrt_libs 8.6 has no Windows wheel.
    let (_, f) = explain("corpus/c44b-tensorrt-2024-windows-pip-tensorrt-861-no-wheel.txt");
    assert!(categories(&f).contains(&Category::PlatformPosture), "{f:?}");
    // kernl#133: a program's own compute capability minimum.
    let (_, f) = explain("corpus/c44b-kernl-2022-t4-v100-needs-ampere-cc80.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
}

#[test]
fn slurm_tasks_bound_to_one_gpu_each() {
    // jax#28194: --gpus-per-task binds each process to one GPU.
    let (inv, f) = explain("corpus/c44c-jax-2025-slurm-gpus-per-task-no-cuda-devices.txt");
    assert!(inv.setting.slurm_gpus_per_task.unwrap().value);
    let e = f.iter().find(|f| f.code == "ERR025").unwrap();
    assert!(e.message.contains("--gpus-per-task"), "{}", e.message);
    // A job that asks for the node's GPUs is not bound per task.
    let (inv, f) = explain_text(
        "t",
        "#SBATCH --gres=gpu:4\nRuntimeError: Unable to initialize backend 'cuda': INTERNAL: no supported devices found for platform CUDA\n",
    );
    assert!(inv.setting.slurm_gpus_per_task.is_none());
    assert!(f.iter().all(|f| f.code != "ERR025"), "{f:?}");
}

#[test]
fn a_driver_the_gpu_can_never_get() {
    // obs-studio#9847: NVENC 12 needs driver 520, a Kepler GTX 660 stops at R470.
    let (_, f) = explain("corpus/c44d-obs-flatpak-2023-kepler-470-nvenc-12.txt");
    let e = f.iter().find(|f| f.code == "ARCH008").unwrap();
    assert!(e.message.contains("R470"), "{}", e.message);
    assert!(f.iter().all(|f| f.code != "ERR002"), "{f:?}");
    // On a GPU every branch drives, the same message is the driver's age.
    let (_, f) = explain_text(
        "t",
        "GPU: RTX 3060\n[h264_nvenc @ 0x5] The minimum required Nvidia driver for nvenc is 520.56.06 or newer\n",
    );
    assert!(f.iter().all(|f| f.code != "ARCH008"), "{f:?}");
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
}

#[test]
fn notices_printed_on_a_working_gpu() {
    // Paddle#23487: Paddle's driver/runtime API notice, read as an error.
    let (_, f) = explain("corpus/c32a-paddle-2020-windows-driver-vs-runtime-api-note-is-info.txt");
    let e = f.iter().find(|f| f.code == "MIS004").unwrap();
    assert_eq!(e.severity, Severity::Info);
    // YOLOv8-TensorRT-CPP#33: TensorRT's lazy-loading advice on a working run.
    let (_, f) = explain("corpus/c44b-yolov8-tensorrt-cpp-2023-cuda-lazy-loading-notice-works.txt");
    assert!(fires(&f, "MIS004"), "{f:?}");
    assert!(f.iter().all(|f| f.severity != Severity::Error), "{f:?}");
    // Beside a real failure the notice explains nothing.
    let (_, f) = explain_text(
        "t",
        "W0404 device_context.cc:237] Please NOTE: device: 0, CUDA Capability: 61, Driver API Version: 10.1, Runtime API Version: 10.0\nOSError: libcudnn.so.7: cannot open shared object file: No such file or directory\n",
    );
    assert!(f.iter().all(|f| f.code != "MIS004"), "{f:?}");
}

#[test]
fn a_container_runtime_that_cannot_mount_the_persistenced_socket() {
    // singularity#4702: --nv fails on the persistenced socket's mount.
    let (_, f) = explain("corpus/c44c-singularity-2019-persistenced-socket-var-run-symlink.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("persistenced"), "{}", e.message);
    // alnair#119: the words that name the cause sit past the first 300
    // characters of a long OCI runtime line; the kept text starts near them.
    let (inv, f) = explain("corpus/c44c-alnair-2022-vgpu-server-run-mount-persistenced-socket.txt");
    assert!(
        inv.errors
            .iter()
            .any(|e| e.text.starts_with('…') && e.text.contains("nvidia-persistenced/socket")),
        "{:?}",
        inv.errors
    );
    assert!(
        f.iter()
            .any(|f| f.code == "ERR010" && f.message.contains("persistenced")),
        "{f:?}"
    );
}

#[test]
fn the_library_a_load_failed_for_is_the_one_after_error() {
    // cuDNN 8 loaded, the driver library it opens by the unversioned name did not.
    let (inv, f) = explain_text(
        "t",
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory\n",
    );
    assert!(
        inv.errors
            .iter()
            .all(|e| e.kind == ErrorKind::LibcudaMissing),
        "{:?}",
        inv.errors
    );
    assert!(!categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    // cuDNN's own library missing stays cuDNN's.
    let (_, f) = explain_text(
        "t",
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory\n",
    );
    assert!(categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    // Windows' page file, not a missing cuDNN DLL.
    let (_, f) = explain_text(
        "t",
        "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading \"C:\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\lib\\\\cudnn_cnn_infer64_8.dll\" or one of its dependencies.\n",
    );
    assert!(f.iter().all(|f| f.severity != Severity::Error), "{f:?}");
    assert!(fires(&f, "ERR018"), "{f:?}");
}

#[test]
fn old_docker_unknown_runtimes_and_a_gpu_off_the_bus() {
    let (_, f) = explain_text("t", "$ docker run --gpus all nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi\nunknown flag: --gpus\n");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("19.03"), "{}", e.message);
    let (_, f) = explain_text(
        "t",
        "docker: Error response from daemon: Unknown runtime specified nvidia.\n",
    );
    assert!(categories(&f).contains(&Category::Container), "{f:?}");
    // Another unknown flag is no GPU question.
    let (inv, _) = explain_text("t", "unknown flag: --platform\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // Xid 79: the fix is the hardware's, not a driver install.
    let (_, f) = explain_text(
        "t",
        "NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus.\n",
    );
    let e = f.iter().find(|f| f.code == "ERR083").unwrap();
    assert_eq!(e.category, Category::PlatformPosture);
    let note = e
        .fix
        .as_ref()
        .and_then(|x| x.note.clone())
        .unwrap_or_default();
    assert!(note.contains("power"), "{note}");
}

#[test]
fn ldconfig_on_wsl_s_libcuda_copies_is_a_warning() {
    // ArchWSL#248: the copies in /usr/lib/wsl/lib make ldconfig warn; CUDA works.
    let (_, f) = explain("corpus/c4-archwsl-ldconfig-libcuda-not-symlink.txt");
    let e = f.iter().find(|f| f.code == "ERR011").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(e
        .fix
        .as_ref()
        .and_then(|x| x.note.as_deref())
        .unwrap_or("")
        .contains("cosmetic"));
    // libcuda that will not load under WSL stays an error.
    let (_, f) = explain_text(
        "t",
        "Linux PC 5.15.153.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\nOSError: /usr/lib/wsl/lib/libcuda.so.1: cannot open shared object file: No such file or directory\n",
    );
    assert!(
        f.iter()
            .any(|f| f.category == Category::Wsl && f.severity == Severity::Error),
        "{f:?}"
    );
}

#[test]
fn a_compose_reservation_gives_gpus_and_a_short_804_is_read() {
    // WhisperFusion#18: the compose file reserves `driver: nvidia`, and error 804
    // in a CUDA image on a GeForce is the host driver older than the image.
    let (inv, f) = explain("corpus/c45a-whisperfusion-2024-docker-error-804-host-driver-old.txt");
    assert_eq!(
        inv.setting.docker_run_gpus.as_ref().map(|g| g.value),
        Some(true)
    );
    assert!(fires(&f, "ERR003"), "{f:?}");
    assert!(!fires(&f, "ERR021"), "{f:?}");
    // A compose service with no reservation gives none.
    let (inv, _) = explain_text(
        "t",
        "services:\n  app:\n    image: x\n$ docker compose run --rm app\nRuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.\n",
    );
    assert_eq!(
        inv.setting.docker_run_gpus.as_ref().map(|g| g.value),
        Some(false)
    );
}

#[test]
fn cudnn_switch_printed_true_is_a_misconception() {
    // fastai#1405: `torch.backends.cudnn.enabled - True` beside is_available() False.
    let (_, f) = explain("corpus/c45a-fastai-2018-cudnn-enabled-true-on-cpu-only-laptop.txt");
    assert!(fires(&f, "MIS005"), "{f:?}");
    for text in [
        ">>> import torch\n>>> torch.backends.cudnn.enabled\nTrue\n",
        "$ python -c \"import torch; print(torch.backends.cudnn.enabled)\"\nTrue\n",
    ] {
        let (_, f) = explain_text("t", text);
        assert!(fires(&f, "MIS005"), "{text}: {f:?}");
    }
    // Code that sets the switch is not its printed value.
    let (inv, f) = explain_text("t", "torch.backends.cudnn.enabled = True\nmodel.cuda()\n");
    assert!(!fires(&f, "MIS005"), "{f:?}");
    assert!(inv.python.iter().all(|e| e.runtime.is_none()));
}

#[test]
fn container_cli_cgroup_and_nvml_refusals_are_container_errors() {
    // libnvidia-container#119, #151, nvidia-container-toolkit#1093: the device cgroup step.
    for file in [
        "corpus/c45b-libnvidia-container-2020-systemd-cgroup-path-devices-allow.txt",
        "corpus/c45b-libnvidia-container-2021-kernel54-cgroupv2-bpf-prog-attach.txt",
        "corpus/c45b-nvidia-container-toolkit-2025-1177-enroot-pyxis-bpf-prog-query.txt",
    ] {
        let (_, f) = explain(file);
        let e = f.iter().find(|f| f.code == "ERR010").expect(file);
        assert!(e.message.contains("device cgroup"), "{file}: {}", e.message);
    }
    // nvidia-docker#1280: an NVML call the 410.48 driver lacks.
    let (_, f) = explain("corpus/c45b-nvidia-docker-2020-nvml-function-not-found-driver-41048.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(
        e.message.contains("NVML_ERROR_FUNCTION_NOT_FOUND"),
        "{}",
        e.message
    );
    // A cgroup word without the runtime's CLI is no container error.
    let (inv, _) = explain_text("t", "Failed to add device rules for the sandbox\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn slurm_s_nodevfiles_and_retyped_or_program_arch_messages() {
    // ray#6978: Slurm's CUDA_VISIBLE_DEVICES=NoDevFiles in a step given no GPU.
    let (_, f) = explain("corpus/c45b-ray-2020-slurm-nodevfiles-visible-devices.txt");
    let e = f.iter().find(|f| f.category == Category::EnvVar).unwrap();
    assert!(e.message.contains("NoDevFiles"), "{}", e.message);
    // The word alone, outside a message, is not an error.
    let (inv, _) = explain_text(
        "t",
        "if [ \"$CUDA_VISIBLE_DEVICES\" == NoDevFiles ]; then\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    // DeOldify#362: "no kernal image" retyped; gpu-post#15: a kernel's minimum capability.
    for file in [
        "corpus/c45a-deoldify-2021-rtx3080-old-pytorch-no-kernel-image.txt",
        "corpus/c45c-gpu-post-2020-tesla-k80-kernel-requires-cc50.txt",
    ] {
        let (_, f) = explain(file);
        assert!(fires(&f, "ERR004"), "{file}: {f:?}");
    }
    let (inv, _) = explain_text(
        "t",
        "The kernel requires a reboot before the new capability applies.\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_pasted_container_with_no_gpu_listing_is_not_gpu_less() {
    // ComfyUI#4654: a compose container on a vGPU; ComfyUI's device line names the GPU.
    let (inv, f) = explain("corpus/c46a-comfyui-2024-docker-grid-p40-24q-vgpu-cudamallocasync.txt");
    assert!(!fires(&f, "CTR001"), "{f:?}");
    assert_eq!(
        inv.gpus[0].name.as_ref().map(|n| n.value.as_str()),
        Some("GRID P40-24Q")
    );
    // A container paste without any GPU line and without a failure says nothing.
    let (_, f) = explain_text(
        "t",
        "root@0123456789ab:/app# pip list | grep torch\ntorch 2.3.0+cu121\n",
    );
    assert!(!fires(&f, "CTR001"), "{f:?}");
    // The same container with CUDA unavailable is CTR001's.
    let (_, f) = explain_text(
        "t",
        "root@0123456789ab:/app# pip list | grep torch\ntorch 2.3.0+cu121\n>>> torch.cuda.is_available()\nFalse\n",
    );
    assert!(fires(&f, "CTR001"), "{f:?}");
}

#[test]
fn docker_build_steps_get_no_gpu() {
    // nvidia-docker#1747: `RUN nvidia-smi` in a Dockerfile.
    let (_, f) = explain("corpus/c37c-nvidia-docker-2023-docker-build-run-nvidia-smi.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("docker build"), "{}", e.message);
    assert!(!fires(&f, "CTR001"), "{f:?}");
    // A build step that fails for another reason is not a GPU question.
    let (inv, _) = explain_text(
        "t",
        "ERROR: failed to solve: process \"/bin/sh -c pip install -r requirements.txt\" did not complete successfully: exit code: 1\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn nvcc_of_another_toolkit_than_the_one_installed() {
    // darknet#1579: CUDA 9.1 installed, nvcc 7.5 on PATH refuses compute_61.
    let (_, f) = explain("corpus/c46b-darknet-2018-nvcc75-shadows-cuda91-compute61.txt");
    let e = f.iter().find(|f| f.code == "ENV009").unwrap();
    assert_eq!(e.severity, Severity::Error);
    assert!(
        !f.iter().any(|f| f.category == Category::ArchUnsupported),
        "{f:?}"
    );
    // A framework's CUDA build in the same words is not a toolkit install.
    let (inv, _) = explain_text(
        "t",
        "I installed torch for CUDA 11.8.\nCuda compilation tools, release 10.1, V10.1.243\n",
    );
    assert!(inv.setting.toolkit_installed_said.is_none());
}

#[test]
fn a_cut_lspci_v_block_does_not_say_no_driver() {
    // A Tesla M40 passed into a VM: `lspci -vvv` cut before its driver lines.
    let (_, f) = explain("corpus/c46d-cloud-hypervisor-2020-tesla-m40-msi-only-passthrough.txt");
    assert!(!fires(&f, "DRV002"), "{f:?}");
    // The whole block, with its `Kernel modules:` line and no driver in use, does.
    let (inv, _) = explain_text(
        "t",
        "00:04.0 3D controller: NVIDIA Corporation GM200GL [Tesla M40] (rev a1)\n\tSubsystem: NVIDIA Corporation Device 1171\n\tControl: I/O+ Mem+ BusMaster-\n\tCapabilities: [60] Power Management version 3\n\tKernel modules: nvidiafb, nouveau\n",
    );
    assert_eq!(inv.pci.len(), 1, "{:?}", inv.pci);
    assert!(inv.pci[0].driver.is_none());
}

#[test]
fn a_wheel_s_cuda_is_no_compiler_and_a_message_s_condition_is_no_container() {
    // apex#1360: "--cuda_ext was requested, but nvcc was not found" beside torch 1.8.0 (CUDA 11.1).
    let (inv, f) = explain("corpus/c47d-apex-2022-expects-torch-bundled-nvcc-cuda-ext.txt");
    assert!(fires(&f, "MIS006"), "{f:?}");
    assert!(fires(&f, "ERR065"), "{f:?}");
    // apex's "If you're installing within a container from ..." is its advice, not the setting.
    assert!(
        inv.container.runtime.is_none(),
        "{:?}",
        inv.container.runtime
    );
    assert!(!fires(&f, "CTR001"), "{f:?}");
    let (inv, _) = explain_text("t", "I run the script within a container on our cluster.\n");
    assert!(inv.container.runtime.is_some());
}

#[test]
fn warnings_that_read_like_errors_and_akmods_builds() {
    // TGI#211: flash-attention's capability check is a start-up warning.
    let (_, f) = explain("corpus/c48d-tgi-2023-cc61-flash-attention-warning-works.txt");
    assert!(f.iter().all(|f| f.severity != Severity::Error), "{f:?}");
    // lhotse (k2): CUDA 999 beside torch's 'driver too old (found version 9010)'.
    let (_, f) = explain("corpus/c48a-lhotse-2022-k2-driver-9010-torch-cu102.txt");
    let e = f.iter().find(|f| f.code == "ERR006").unwrap();
    assert_eq!(e.severity, Severity::Warning);
    assert!(f
        .iter()
        .any(|f| f.code == "RUN001" && f.severity == Severity::Error));
    // Alone, error 999 stays an error.
    let (_, f) = explain_text("t", "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.\n");
    assert!(
        f.iter()
            .any(|f| f.code == "ERR006" && f.severity == Severity::Error),
        "{f:?}"
    );
    // terra#10361: akmods' missing build requirement.
    let (_, f) = explain("corpus/c48b-terra-2026-akmod-nvidia-aarch64-missing-gcc-cpp.txt");
    let e = f.iter().find(|f| f.code == "ERR053").unwrap();
    assert!(e.message.contains("akmods"), "{}", e.message);
    // A question about CUDA on a Mac gets the macOS hint.
    let (_, f) = explain("corpus/c48d-pytorch-2018-macos-egpu-no-cuda-binaries.txt");
    assert!(fires(&f, "HINT008"), "{f:?}");
}

#[test]
fn wheels_for_another_platform_and_an_appended_loader_path() {
    // h2o4gpu#769: an x86_64 wheel on a Jetson Nano; mlx#105: no MLX wheel for a non-native Python.
    for (file, word) in [
        (
            "corpus/c46d-h2o4gpu-2019-jetson-nano-x86-wheel.txt",
            "another platform",
        ),
        (
            "corpus/c46d-mlx-2023-m2-pro-pip-non-native-python.txt",
            "arm64",
        ),
    ] {
        let (_, f) = explain(file);
        let e = f.iter().find(|f| f.code == "ERR034").expect(file);
        assert!(e.message.contains(word), "{file}: {}", e.message);
    }
    // nvidia-docker#1044: the image's requirement is unreadable to an old libnvidia-container.
    let (_, f) =
        explain("corpus/c47c-nvidia-docker-2019-p100-384-cuda10-beta-libnvidia-container.txt");
    let e = f.iter().find(|f| f.code == "ERR010").unwrap();
    assert!(e.message.contains("invalid expression"), "{}", e.message);
    // tensorflow#60750: the install guide's activation line appends the env's cuDNN.
    let (inv, f) = explain(
        "corpus/c47d-tensorflow-2023-ld-library-path-appends-pip-cudnn-after-system-811.txt",
    );
    assert!(inv.env.contains_key("LD_LIBRARY_PATH"));
    let e = f.iter().find(|f| f.code == "ENV005").unwrap();
    let cmd = e
        .fix
        .as_ref()
        .and_then(|x| x.command.clone())
        .unwrap_or_default();
    assert!(cmd.ends_with(":$LD_LIBRARY_PATH"), "{cmd}");
    // A cuDNN directory put first keeps the old reading and fix.
    let (_, f) = explain_text(
        "t",
        "export LD_LIBRARY_PATH=/opt/cudnn-8.0/lib64:/usr/local/cuda/lib64\nRuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked against (8, 0, 3)\n",
    );
    let e = f.iter().find(|f| f.code == "ENV005").unwrap();
    let cmd = e
        .fix
        .as_ref()
        .and_then(|x| x.command.clone())
        .unwrap_or_default();
    assert_eq!(cmd, "export LD_LIBRARY_PATH=/usr/local/cuda/lib64");
}

#[test]
fn a_cut_lsmod_does_not_say_the_module_is_unloaded() {
    let (inv, _) = explain_text(
        "t",
        "$ lsmod\nModule                  Size  Used by\nsnd_hda_intel          53248  4\n[...]\n",
    );
    assert!(
        inv.nvidia.module_loaded.is_none(),
        "{:?}",
        inv.nvidia.module_loaded
    );
    let (inv, _) = explain_text(
        "t",
        "$ lsmod\nModule                  Size  Used by\nsnd_hda_intel          53248  4\n",
    );
    assert_eq!(
        inv.nvidia.module_loaded.as_ref().map(|f| f.value),
        Some(false)
    );
}

#[test]
fn an_error_the_catalog_does_not_know_is_no_all_clear() {
    let (inv, f) = explain_text(
        "t",
        "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    model.cuda()\nRuntimeError: CUDA error: an illegal memory access was encountered\n",
    );
    assert!(f.is_empty(), "{f:?}");
    let n = inv
        .notes
        .iter()
        .find(|n| n.subject == "error not explained")
        .expect("a note");
    assert!(n.message.contains("illegal memory access"), "{}", n.message);
    assert!(n.message.contains("input line 4"), "{}", n.message);
    // A known message needs no such note, nor does a log without errors.
    for text in [
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
        "Epoch 1/10 loss=0.31\nEpoch 2/10 loss=0.28\n",
    ] {
        let (inv, _) = explain_text("t", text);
        assert!(
            !inv.notes.iter().any(|n| n.subject == "error not explained"),
            "{text}: {:?}",
            inv.notes
        );
    }
}

#[test]
fn a_compiler_s_included_from_lines_are_no_dockerfile() {
    // darknet#1579's gcc output: `from ./src/gemm.c:1:` is a file, not FROM IMAGE.
    let (inv, _) = explain("corpus/c46b-darknet-2018-nvcc75-shadows-cuda91-compute61.txt");
    assert!(
        inv.container.runtime.is_none(),
        "{:?}",
        inv.container.runtime
    );
    let (inv, _) = explain_text("t", "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n");
    assert!(inv.container.runtime.is_some());
}

#[test]
fn a_comment_beside_a_command_gives_its_output() {
    let (inv, _) = explain_text(
        "t",
        "python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"  # displays []\n",
    );
    assert!(
        inv.errors
            .iter()
            .any(|e| e.text.contains("TensorFlow lists no GPU")),
        "{:?}",
        inv.errors
    );
    let (inv, _) = explain_text(
        "t",
        "python -c \"import torch; print(torch.cuda.is_available())\"  # -> False\n",
    );
    let a = inv
        .python
        .iter()
        .find_map(|e| e.runtime.as_ref()?.cuda_available.as_ref());
    assert_eq!(a.map(|a| a.value), Some(false));
    // A comment that is no output says nothing.
    let (inv, _) = explain_text(
        "t",
        "python -c \"import torch; print(torch.cuda.is_available())\"  # check the GPU\n",
    );
    assert!(
        inv.python.iter().all(|e| e.runtime.is_none()),
        "{:?}",
        inv.python
    );
}

#[test]
fn a_typed_gpu_value_is_cleaned_to_its_name() {
    for (text, name) in [
        ("GPU: GPU 0: Tesla P100-PCIE-16GB\n", "Tesla P100-PCIE-16GB"),
        (
            "- GPU: NVIDIA RTX 5060 Ti (Blackwell, compute capability 12.0), driver 580.x\n",
            "NVIDIA RTX 5060 Ti",
        ),
    ] {
        let (inv, _) = explain_text("t", text);
        let g = &inv.gpus[0];
        assert_eq!(
            g.name.as_ref().map(|n| n.value.as_str()),
            Some(name),
            "{text}"
        );
        assert!(g.compute_capability.is_some(), "{text}");
    }
}

#[test]
fn smi_lists_joined_on_one_line_and_query_headers_with_units() {
    // `nvidia-smi -L` joined by the paste: one GPU per `(UUID: ...)`.
    let (inv, _) = explain("corpus/c15b-2080ti-device-handle-unknown-error-reseat.txt");
    assert_eq!(inv.gpus.len(), 4, "{:?}", inv.gpus);
    assert!(inv.gpus.iter().all(|g| g.compute_capability.is_some()));
    // `--query-gpu=gpu_name,...,memory.total`: the header says `name` and
    // `memory.total [MiB]`, and is no GPU.
    let (inv, _) =
        explain("corpus/c24b-stableswarmui-k8s-a100-mig-query-insufficient-permissions.txt");
    assert_eq!(
        inv.gpus[0].name.as_ref().map(|n| n.value.as_str()),
        Some("NVIDIA A100-SXM4-80GB")
    );
    // Typed values with counts, memory and notes around the name.
    for (text, name) in [
        ("GPU: 8x H200 (Driver: 550.90.07)\n", "H200"),
        ("GPU: 16GB RTX A4000\n", "RTX A4000"),
        ("GPU: RTX 2070, running NVIDIA Studio drivers\n", "RTX 2070"),
    ] {
        let (inv, _) = explain_text("t", text);
        assert_eq!(
            inv.gpus[0].name.as_ref().map(|n| n.value.as_str()),
            Some(name),
            "{text}"
        );
        assert!(inv.gpus[0].compute_capability.is_some(), "{text}");
    }
    // `8x H200` is eight GPUs: with 999 from nccl-tests, an NVSwitch system's hint.
    let (inv, f) = explain("corpus/c39b-nccl-tests-2024-h200-nvls-999-fabricmanager-restart.txt");
    assert_eq!(inv.gpus.len(), 8);
    assert!(fires(&f, "HINT002"), "{f:?}");
}

#[test]
fn nvenc_driver_requirement_after_a_failed_load_is_not_an_old_driver() {
    // linuxserver/docker-plex#340: ffmpeg prints its minimum driver after it
    // could not load libnvidia-encode; the container lacked the video capability.
    let (_, f) = explain("corpus/c49c-docker-plex-2022-nvenc-needs-driver-capabilities.txt");
    assert!(categories(&f).contains(&Category::Container), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
    // The same requirement after the API version check is an old driver.
    let (_, f) = explain_text(
        "api",
        "[h264_nvenc @ 0x5] Driver does not support the required nvenc API version. Required: 12.1 Found: 12.0\n[h264_nvenc @ 0x5] The minimum required Nvidia driver for nvenc is 531.61 or newer\n",
    );
    assert!(errors_in(&f, Category::DriverTooOld) > 0, "{f:?}");
}

#[test]
fn nvml_unknown_error_in_a_report_about_containers_is_the_container() {
    // tramseyer/bitbucket-pipelines-runner-unlimited#2: `docker update` on a
    // running GPU container, then NVML's Unknown Error inside it.
    let (inv, f) =
        explain("corpus/c49c-bitbucket-runner-2025-docker-update-nvml-unknown-error.txt");
    assert!(inv.container.runtime.is_some());
    assert!(errors_in(&f, Category::Container) > 0, "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
    // On a host that names no container, it stays an initialisation failure.
    let (inv, _) = explain_text(
        "host",
        "$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n",
    );
    assert!(inv.container.runtime.is_none());
}

#[test]
fn messages_that_read_as_two_causes_are_warnings() {
    // GuijiAI/HeyGem.ai: onnxruntime's CUDA provider failed to load for want of
    // libcudnn.so.9; the ORT and cuDNN readings compete, and neither is sure.
    let (_, f) = explain("corpus/c19c-ort-heygem-libcudnn9-missing-ort-vs-cudnn.txt");
    let cats = categories(&f);
    assert!(
        cats.contains(&Category::OnnxruntimeCuda) && cats.contains(&Category::CudnnMismatch),
        "{f:?}"
    );
    assert_eq!(
        errors_in(&f, Category::OnnxruntimeCuda) + errors_in(&f, Category::CudnnMismatch),
        0,
        "{f:?}"
    );
    assert!(f.iter().any(|f| f.message.contains("more than one cause")));
    // One reading alone stays an error (linuxserver/docker-plex#340).
    let (_, f) = explain("corpus/c49c-docker-plex-2022-nvenc-needs-driver-capabilities.txt");
    assert!(errors_in(&f, Category::Container) > 0, "{f:?}");
}

#[test]
fn a_library_the_report_shows_on_disk_is_a_loader_path_question() {
    // jhj0517/Whisper-WebUI#114: libcudnn_ops_infer.so.8 inside the venv's torch/lib.
    let (inv, f) =
        explain("corpus/c50f-whisper-webui-2024-venv-torch-lib-cudnn-ld-library-path.txt");
    let on_disk = inv
        .setting
        .library_on_disk
        .as_ref()
        .expect("the path is read");
    assert!(
        on_disk.value.ends_with("torch/lib/libcudnn_ops_infer.so.8"),
        "{}",
        on_disk.value
    );
    let e = finding(&f, "ERR070");
    assert!(e
        .fix
        .as_ref()
        .and_then(|x| x.command.as_deref())
        .is_some_and(|c| c.contains("torch/lib:$LD_LIBRARY_PATH")));
    assert_eq!(errors_in(&f, Category::CudnnMismatch), 0, "{f:?}");
    // A find that shows only a versioned file of the name is no copy of it,
    // and the failing line's own path is not the file on disk.
    let err = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n";
    let (inv, f) = explain_text("t", &format!("{err}$ find / -name 'libcudnn_ops_infer*'\n/usr/lib/x86_64-linux-gnu/libcudnn_ops_infer.so.8.9.2\n"));
    assert!(inv.setting.library_on_disk.is_none());
    assert!(!fires(&f, "ERR070"), "{f:?}");
    let (inv, _) = explain_text("t", "OSError: /opt/x/lib/libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n");
    assert!(inv.setting.library_on_disk.is_none());
}

#[test]
fn programs_that_say_their_own_cause() {
    // modular/modular#4923: MAX's start-up check of the driver on Cloud Run.
    let (_, f) = explain("corpus/c50e-modular-2025-cloud-run-l4-driver-cuda122-below-max-min.txt");
    assert!(errors_in(&f, Category::DriverTooOld) > 0, "{f:?}");
    // theroyallab/tabbyAPI#285: its hint that an extension wheel was built for another torch.
    let (_, f) = explain(
        "corpus/c50a-tabbyapi-2025-rtx5090-sm120-stable-torch-then-nightly-undefined-symbol.txt",
    );
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // Advice in prose that names no failure stays quiet.
    let (inv, _) = explain_text(
        "t",
        "The README says the tool requires a recent driver and PyTorch.\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn no_driver_in_a_container_on_a_host_with_one_is_the_container() {
    // lhwcv/mlsd_pytorch#6: docker compose without a GPU reservation, driver 460 on the host.
    let (_, f) = explain("corpus/c51b-mlsd-pytorch-2021-compose-no-gpu-capability-then-sm86.txt");
    let e = finding(&f, "ERR021");
    assert!(
        e.evidence.iter().any(|x| x.fact == "host driver version"),
        "{e:?}"
    );
    // The driver container's own module load failure is no such case
    // (NVIDIA/gpu-driver-container#44).
    let (_, f) = explain("corpus/c8-gpu-driver-container-secure-boot-unsigned-module.txt");
    assert!(!fires(&f, "ERR021"), "{f:?}");
}

#[test]
fn tensorflow_beside_a_cuda_whose_libraries_it_cannot_name() {
    // tensorflow/tensorflow#38090: TensorFlow 2.1 on Windows with CUDA 10.2.
    let (_, f) = explain("corpus/c51d-tensorflow-2020-win10-tf21-with-cuda102-instead-of-101.txt");
    let l = finding(&f, "LIB010");
    assert!(l.message.contains("cudart64_101.dll"), "{}", l.message);
    // A TensorFlow that carries its CUDA wheels needs no system CUDA.
    let (_, f) = explain_text(
        "t",
        "Package    Version\n---------- -------\ntensorflow 2.15.0\nnvidia-cuda-runtime-cu12 12.2.140\n\n$ nvcc --version\nCuda compilation tools, release 11.8, V11.8.89\n",
    );
    assert!(!fires(&f, "LIB010"), "{f:?}");
}

#[test]
fn mxnet_s_cpu_package_asked_for_a_gpu() {
    // NVIDIA/mxnet_to_onnx#3: setup.py pulled in the CPU mxnet package.
    let (_, f) = explain("corpus/c46b-mxnet-2018-mx2onnx-setup-pulls-cpu-mxnet.txt");
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
    // The build flag named in a build guide is no failure.
    let (inv, _) = explain_text("t", "To build from source, set USE_CUDA=1 in config.mk.\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn nccl_s_system_error_is_shared_memory_in_a_container_and_a_warning_on_a_host() {
    let nccl = "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1169, unhandled system error, NCCL version 2.10.3\n";
    let (_, f) = explain_text(
        "t",
        &format!("$ docker run --gpus all --rm trainer\n{nccl}"),
    );
    let e = finding(&f, "ERR069");
    assert_eq!(e.severity, Severity::Error, "{e:?}");
    assert!(e.message.contains("ncclSystemError"), "{e:?}");
    let (_, f) = explain_text("t", nccl);
    let w = finding(&f, "ERR069");
    assert_eq!(w.severity, Severity::Warning, "{w:?}");
    assert!(
        w.message.contains("NCCL_SOCKET_IFNAME")
            || w.fix
                .as_ref()
                .is_some_and(|x| format!("{x:?}").contains("NCCL_SOCKET_IFNAME")),
        "{w:?}"
    );
}

#[test]
fn a_colab_notebook_opened_from_a_mac_is_colab_not_macos() {
    // lllyasviel/Fooocus#2472: the notebook link pasted, "on MAC pro M1" said.
    let (_, f) = explain("corpus/c57a-colab-cpu-runtime-mac-fooocus.txt");
    assert!(fires(&f, "ERR066"), "{f:?}");
    assert_eq!(errors_in(&f, Category::MacosNoCuda), 0, "{f:?}");
}

#[test]
fn a_bare_cuda_status_number_is_read_by_its_number() {
    // SthPhoenix/InsightFace-REST#24: TensorRT's "CUDA initialization failure with error 222".
    let (inv, f) = explain("corpus/c57b-insightface-rest-trt-container-error-222.txt");
    let e = inv
        .errors
        .iter()
        .find(|e| e.kind == ErrorKind::UnsupportedPtx)
        .expect("error 222 read");
    assert_eq!(e.code, Some(222));
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    // Numbers the catalog has no meaning for, and the message already read by its own entry.
    let (inv, _) = explain_text("t", "CUDA error 2 at main.cu:33\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    let (inv, _) = explain_text(
        "t",
        "CUDA error 35 at ggml-cuda.cu:4236: CUDA driver version is insufficient for CUDA runtime version\n",
    );
    assert_eq!(inv.errors.len(), 1, "{:?}", inv.errors);
    // Before CUDA 10.1 the runtime's "no device" was 38.
    let (inv, _) = explain_text("t", "Title: cuda error 38 on startup\n");
    assert_eq!(inv.errors[0].kind, ErrorKind::NoDevice);
}

#[test]
fn mps_and_xpu_refusals_are_their_platforms() {
    // huggingface/diffusers#9224: float64 on MPS.
    let (_, f) = explain("corpus/c57c-diffusers-flux-mps-hardcoded-float64.txt");
    assert!(fires(&f, "ERR075"), "{f:?}");
    // intel/intel-extension-for-pytorch#392: 'xpu' used without importing IPEX.
    let (_, f) = explain("corpus/c57c-ipex-xpu-not-linked-missing-import.txt");
    assert!(fires(&f, "ERR076"), "{f:?}");
    // intel/intel-extension-for-pytorch#244: IPEX imported, its release has no XPU.
    let (_, f) = explain("corpus/c46d-ipex-2022-alder-lake-xpu-not-linked-ipex-111.txt");
    assert!(fires(&f, "ERR052"), "{f:?}");
    assert!(!fires(&f, "ERR076"), "{f:?}");
}

#[test]
fn an_image_older_than_the_gpu_is_not_an_old_driver() {
    // immich-app/immich#28031: CUDA 12.2 image, RTX 5060 Ti, driver 580.
    let (_, f) = explain("corpus/c57e-immich-ml-blackwell-cuda122-base.txt");
    assert!(fires(&f, "ERR077"), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
}

#[test]
fn a_dgx_spark_on_the_proprietary_module() {
    // Start9Labs/start-technologies#3693: GB10 named in prose, proprietary modules said.
    let (inv, f) = explain("corpus/c58e-dgx-spark-gb10-proprietary-rminit-fail.txt");
    assert!(inv.driver_version().is_some());
    assert!(fires(&f, "DRV008"), "{f:?}");
    // dusty-nv/jetson-inference#559: a wheel for another JetPack on a Jetson Nano.
    let (_, f2) = explain("corpus/c59e-jetson-nano-jp44-torch-wheel-libcudart100.txt");
    assert!(f2.iter().any(|f| f.code == "ERR078"), "{f2:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
}

#[test]
fn a_missing_libnvinfer_with_no_tensorrt_in_sight_is_a_warning() {
    // onnx/onnx-tensorrt#257: the built binary cannot find libnvinfer.so.6.
    let (_, f) = explain("corpus/c57b-onnx2trt-libnvinfer6-not-on-path.txt");
    let e = finding(&f, "ERR015");
    assert_eq!(e.severity, Severity::Warning);
}

#[test]
fn tensorflow_typed_on_native_windows_and_a_container_hint() {
    // tensorflow/tensorflow#64525: "Windows 11, ..., TensorFlow 2.16.1, RTX 3070" typed.
    let (inv, f) = explain("corpus/c58c-tf216-windows-native-rtx3070-conda.txt");
    let tf = inv.python[0]
        .package("tensorflow")
        .expect("tensorflow typed");
    assert_eq!(tf.version, "2.16.1");
    assert!(tf.source.ends_with("(prose)"), "{}", tf.source);
    assert!(fires(&f, "WIN005"), "{f:?}");
    // Advice quoting a release is no installed version.
    let (inv, _) = explain_text(
        "t",
        "Since TensorFlow 2.11 there is no GPU on native Windows.\n",
    );
    assert!(inv.python.iter().all(|e| e.package("tensorflow").is_none()));
    // A failure inside a container that no rule explains: the container hint.
    let (_, f) = explain_text(
        "t",
        "I run the app with docker compose up and the GPU is not detected, it falls back to the CPU.\n",
    );
    let h = finding(&f, "HINT010");
    assert_eq!(h.severity, Severity::Info);
}

#[test]
fn a_gpu_below_what_the_code_needs_and_an_invalid_kernel_image() {
    // NVIDIA/TransformerEngine#1159: FP8 on an RTX 3090.
    let (_, f) = explain("corpus/c51a-transformer-engine-2024-rtx3090-fp8-autocast-needs-cc89.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // NVlabs/tiny-cuda-nn#434: no binding built for compute capability 87.
    let (_, f) = explain("corpus/c40a-tiny-cuda-nn-2024-jetson-orin-cc87-no-extension.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // triton-lang/triton#1323: a Triton cache from a V100 on an A100: a warning naming the causes.
    let (inv, f) =
        explain("corpus/c56c-triton-2023-kernel-cache-from-v100-loaded-on-a100-invalid-image.txt");
    assert!(inv.errors.iter().any(|e| e.code == Some(200)));
    let e = finding(&f, "ERR079");
    assert_eq!(e.severity, Severity::Warning);
}

#[test]
fn a_framework_built_without_its_gpu_backend_names_the_build() {
    // apache/tvm#10426: TVM could not ask CUDA for the GPU and fell back to sm_20,
    // which nvcc refused: the build, not the GPU's architecture.
    let (_, f) = explain("corpus/c60e-tvm-jetson-built-without-cuda.txt");
    let e = finding(&f, "ERR038");
    assert_eq!(e.severity, Severity::Error);
    assert!(e.message.contains("TVM"), "{}", e.message);
    assert!(
        f.iter().all(|f| f.code != "ARCH007" && f.code != "ERR004"),
        "{f:?}"
    );
    // The same nvcc refusal with no fallback named stays the compiler's.
    let (_, f) = explain_text(
        "t",
        "nvcc fatal   : Unsupported gpu architecture 'compute_20'\n",
    );
    assert!(f.iter().all(|f| f.code != "ERR038"), "{f:?}");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // lightgbm-org/LightGBM#6205: the learner was not built (and the message's misspelt option).
    let (_, f) = explain("corpus/c60c-lightgbm-cuda-built-with-typo-flag-usecudap.txt");
    let e = finding(&f, "ERR038");
    assert!(
        e.fix
            .as_ref()
            .is_some_and(|x| format!("{x:?}").contains("USE_CUDA")),
        "{e:?}"
    );
    // LightGBM's own two-line message: both lines are the same cause.
    let (_, f) = explain_text(
        "t",
        "lightgbm.basic.LightGBMError: CUDA Tree Learner was not enabled in this build.\n\
         Please recompile with CMake option -DUSE_CUDA=1\n",
    );
    let e = finding(&f, "ERR038");
    assert!(e.message.contains("LightGBM"), "{}", e.message);
}

#[test]
fn triton_without_ptxas_and_a_cut_cudnn_file() {
    // kijai/ComfyUI-HunyuanVideoWrapper#29: 'Cannot find ptxas.exe' on Windows.
    let (_, f) = explain("corpus/c60e-triton-windows-ptxas-cuda-home.txt");
    let e = finding(&f, "ERR065");
    assert_eq!(e.category, Category::EnvVar);
    assert!(e.message.contains("TRITON_PTXAS_PATH"), "{}", e.message);
    // microsoft/CNTK#2213: libcudnn.so.6 is there and cut short: no loader-path finding.
    let (_, f) = explain("corpus/c60c-cntk21-libcudnn-so6-file-too-short.txt");
    assert!(f.iter().all(|f| f.code != "ERR070"), "{f:?}");
    let e = finding(&f, "ERR008");
    assert!(e.message.contains("file too short"), "{}", e.message);
}

#[test]
fn driver_install_failures_and_a_branch_named_in_a_package() {
    // negativo17/nvidia-driver#188: akmods could not build the module.
    let (_, f) = explain("corpus/c61b-fedora-aarch64-akmod-nvidia-590-build-failed.txt");
    assert!(fires(&f, "ERR053"), "{f:?}");
    // damentz/liquorix-package#16: the desktop fell back to nouveau.
    let (_, f) = explain("corpus/c61b-liquorix-51-nvidia-418-falls-back-to-nouveau.txt");
    assert!(categories(&f).contains(&Category::NoDriver), "{f:?}");
    // nix-community/nixGL#186: `nvidia-driver-565-open` names the branch of the
    // loaded 565.57.01 module, no other release.
    let (inv, f) = explain("corpus/c61b-nixgl-open-module-version-string-working-driver.txt");
    assert!(inv.nvidia.kernel_module.is_some());
    assert!(f.iter().all(|f| f.code != "DRV001"), "{f:?}");
    // A module and a library of two builds still differ.
    let (_, f) = explain_text(
        "t",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  565.57.01  Release Build\n\
         Failed to initialize NVML: Driver/library version mismatch\n\
         NVML library version: 565.77\n",
    );
    assert!(
        categories(&f).contains(&Category::DriverLibraryMismatch),
        "{f:?}"
    );
}

#[test]
fn a_runtime_class_the_node_lacks_and_xla_without_libdevice() {
    // NVIDIA/gpu-operator#1298: CRI-O has no `nvidia` handler for the pod's RuntimeClass.
    let (_, f) = explain("corpus/c61e-openshift-crio-runtimeclass-nvidia.txt");
    let e = finding(&f, "ERR010");
    assert_eq!(e.category, Category::Container);
    assert!(e.message.contains("RuntimeClass"), "{}", e.message);
    assert!(
        f.iter()
            .all(|f| f.category != Category::Mig || f.severity == Severity::Info),
        "{f:?}"
    );
    // tensorflow/tensorflow#58681: XLA's 'Can't find libdevice directory'.
    let (_, f) = explain("corpus/c61d-tf211-xla-libdevice-missing.txt");
    assert!(fires(&f, "ERR071"), "{f:?}");
}

#[test]
fn named_symbol_not_found_at_init_is_the_containers_libcuda() {
    // jhj0517/Whisper-WebUI#279: Docker Desktop on Windows, 'Error 500: named symbol not found'.
    let (inv, f) = explain("corpus/c27b-whisper-webui-docker-desktop-windows-error-500.txt");
    assert!(inv.errors.iter().any(|e| e.code == Some(500)));
    let e = finding(&f, "ERR081");
    assert_eq!(e.category, Category::Container);
    // EricLBuehler/mistral.rs#654: cudarc's DriverError(CUDA_ERROR_NOT_FOUND) in a
    // `docker run --gpus all` from WSL2: the container's libcuda, and WSL.
    let (_, f) = explain("corpus/c62b-mistralrs-docker-wsl2-named-symbol.txt");
    let c = categories(&f);
    assert!(
        c.contains(&Category::Container) && c.contains(&Category::Wsl),
        "{f:?}"
    );
    // A module's missing kernel on a host is not a libcuda's missing symbol.
    let (_, f) = explain_text(
        "t",
        "E cuda_driver.cc:628] failed to get PTX kernel \"broadcast\" from module: CUDA_ERROR_NOT_FOUND: named symbol not found\n",
    );
    assert!(f.iter().all(|f| f.code != "ERR081"), "{f:?}");
}

#[test]
fn wsl_with_the_hosts_table_and_a_toolkit_that_could_not_reach_the_driver() {
    // microsoft/WSL#11277: the Windows host's nvidia-smi table pasted beside a
    // segfault inside WSL2: WSL, whatever the table's driver-model column says.
    let (inv, f) = explain("corpus/c62b-wsl2-nvidia-smi-segfault-gtx1650.txt");
    assert!(inv.wsl.is_wsl.as_ref().is_some_and(|w| w.value));
    assert!(fires(&f, "PLAT008"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
    // OE4T/tegra-demo-distro#177: nvidia-container-cli's 'driver error' names two causes.
    let (_, f) = explain("corpus/c62c-tegra-demo-distro-tx2i-nvc-driver-segfault.txt");
    let e = finding(&f, "ERR006");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("nvidia-container-cli"), "{}", e.message);
}

#[test]
fn extensions_built_without_cuda_or_against_another_libtorch() {
    // Adamdad/ConsistentTeacher#24: mmcv's DeformConv built without its CUDA kernels.
    let (_, f) = explain("corpus/c61f-mmcv-deformconv-not-compiled-gpu.txt");
    let e = finding(&f, "ERR026");
    assert!(
        e.message.contains("without its CUDA kernels"),
        "{}",
        e.message
    );
    // pytorch/audio#2610: dyld's 'Symbol not found: __ZN...' on a Mac is the extension's, not CUDA's.
    let (_, f) = explain("corpus/c61a-torchaudio-nightly-bogus-014-macos.txt");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    assert!(!categories(&f).contains(&Category::MacosNoCuda), "{f:?}");
    // XLA's libdevice warning alone is a warning.
    let (_, f) = explain("corpus/c61d-tf211-xla-libdevice-missing.txt");
    let e = finding(&f, "ERR071");
    assert_eq!(e.severity, Severity::Warning);
}

#[test]
fn a_gpu_selector_assigned_and_never_exported() {
    // OpenMOSS/MOSS#286: `CUDA_VISIBLE_DEVICES=3` alone above `accelerate launch`.
    let (inv, f) = explain("corpus/c62a-moss-accelerate-cvd-not-exported.txt");
    let a = inv
        .setting
        .unexported_assignment
        .as_ref()
        .expect("assignment");
    assert_eq!(a.value, "CUDA_VISIBLE_DEVICES=3");
    let e = finding(&f, "ENV012");
    assert_eq!(e.category, Category::EnvVar);
    // Exported, or written in front of the command: the program sees it.
    for script in [
        "CUDA_VISIBLE_DEVICES=3\nexport CUDA_VISIBLE_DEVICES\npython train.py\n",
        "export CUDA_VISIBLE_DEVICES=3\npython train.py\n",
        "CUDA_VISIBLE_DEVICES=3 python train.py\n",
        "CUDA_VISIBLE_DEVICES=3\n",
    ] {
        let (inv, f) = explain_text("t", script);
        assert!(inv.setting.unexported_assignment.is_none(), "{script}");
        assert!(f.iter().all(|f| f.code != "ENV012"), "{script}: {f:?}");
    }
}

#[test]
fn a_vllm_probe_log_names_no_amd_gpu_and_a_nightly_torch_no_triton_pin() {
    // vLLM's platform probe and collect_env name ROCm only to say it is absent;
    // a nightly torch pairs with a git build of triton, not the release pin.
    let (inv, f) = explain("corpus/c63b-vllm-k8s-l4-nvml-not-found-ldpath.txt");
    assert!(
        !inv.pci
            .iter()
            .any(|p| p.vendor == gpucompat::inventory::GpuVendor::Amd),
        "{:?}",
        inv.pci
    );
    assert!(
        !f.iter().any(|f| f.code == "WHL002" || f.code == "EXT001"),
        "{f:?}"
    );
    assert!(inv
        .errors
        .iter()
        .any(|e| e.kind == ErrorKind::LibcudaMissing));
    assert!(categories(&f).contains(&Category::Container), "{f:?}");
    let ctr = finding(&f, "CTR001");
    assert!(
        ctr.message.starts_with("This container has"),
        "{}",
        ctr.message
    );
}

#[test]
fn a_module_refused_for_its_key_with_secure_boot_said_off_is_no_driver() {
    let (inv, f) = explain("corpus/c63e-talos-module-key-rejected.txt");
    assert_eq!(inv.os.secure_boot.as_ref().map(|s| s.value), Some(false));
    assert!(!fires(&f, "ERR044"), "{f:?}");
    let e = finding(&f, "ERR006");
    assert!(
        e.message.contains("enforces module signatures"),
        "{}",
        e.message
    );
}

#[test]
fn an_nccl_hang_between_pcie_gpus_hints_at_acs_and_the_iommu() {
    let (_, f) = explain("corpus/c63b-vllm-tp2-ada-a6000-nccl-hang-iommu.txt");
    assert!(fires(&f, "HINT011"), "{f:?}");
    // A line that changes something is no hang.
    let (_, f) = explain_text("t", "NCCL INFO changed the ring order\nall went fine\n");
    assert!(!fires(&f, "HINT011"), "{f:?}");
}

#[test]
fn nvidia_smi_failing_inside_an_lxd_container_is_the_container() {
    let (inv, f) = explain("corpus/c65b-lxd-container-nvidia-smi-failed.txt");
    assert!(inv.container.runtime.is_some());
    let e = finding(&f, "ERR068");
    assert!(e.message.contains("host's kernel module"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
}

#[test]
fn a_cpu_variant_of_torch_said_in_prose_is_a_cpu_wheel() {
    let (_, f) = explain("corpus/c65d-chatchat-a10-vm-requirements-cpu-torch.txt");
    assert!(fires(&f, "WHL001"), "{f:?}");
}

#[test]
fn error_35_from_an_image_the_driver_supports_is_a_container_without_the_gpu() {
    let (_, f) = explain("corpus/c65b-nvidia-docker-error35-during-build.txt");
    assert!(fires(&f, "ERR021"), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
    // With nvidia-smi answering (here a CTranslate2 CUDA 12 build in a CUDA
    // 11.6 image), the driver stays the reading.
    let (_, f) = explain("corpus/c3-faster-whisper-ct2-400-driver-510-cuda116.txt");
    assert!(!fires(&f, "ERR021"), "{f:?}");
}

#[test]
fn a_later_minor_of_torchs_newest_major_is_no_arch_error() {
    let (inv, f) = explain("corpus/c65f-unsloth-dgx-spark-gb10-warning-ok.txt");
    assert_eq!(errors_in(&f, Category::ArchUnsupported), 0, "{f:?}");
    assert!(
        inv.notes.iter().any(|n| n.message.contains("later minor")),
        "{:?}",
        inv.notes
    );
}

#[test]
fn an_old_os_x_ran_cuda_and_the_toolkits_own_nvml_symbol_is_the_toolkit() {
    let (inv, f) = explain("corpus/c65a-cutorch-osx-driver-insufficient.txt");
    assert_eq!(
        inv.os.version_id.as_ref().map(|v| v.value.as_str()),
        Some("10.10.5")
    );
    assert!(!fires(&f, "ERR019"), "{f:?}");
    let (_, f) = explain("corpus/c65c-nvidia-ctk-nvml-symbol-lookup.txt");
    assert!(fires(&f, "ERR010"), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
}

#[test]
fn a_torchvision_op_without_cuda_and_the_nvenc_loader_in_a_container() {
    let (_, f) = explain("corpus/c64d-sam2-torchvision-nms-no-cuda-build.txt");
    let e = finding(&f, "ERR005");
    assert!(e.message.contains("torchvision"), "{}", e.message);
    let (_, f) = explain("corpus/c64f-vpf-nvenc-library-docker.txt");
    let e = finding(&f, "ERR010");
    assert!(e.message.contains("video libraries"), "{}", e.message);
    // The CPU variant said in a sentence that names the resulting torch.
    let (_, f) = explain("corpus/c44a-pytorch-2022-conda-win-113-cpu-instead-of-gpu.txt");
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
}

#[test]
fn an_nccl_error_that_is_no_hang_gets_no_p2p_hint() {
    let (_, f) = explain_text("t", "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, invalid usage\n");
    assert!(!fires(&f, "HINT011"), "{f:?}");
}

#[test]
fn ctranslate2_without_cuda_is_a_cpu_build_and_on_a_mac_the_platform() {
    let (_, f) = explain("corpus/c66c-ctranslate2-aarch64-no-cuda-build.txt");
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
    let (_, f) = explain("corpus/c66c-autocaption-m1-ctranslate2-no-cuda.txt");
    assert!(fires(&f, "ERR019"), "{f:?}");
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0, "{f:?}");
    // CTranslate2's older loader stops at `is not found`.
    let (_, f) = explain("corpus/c66c-wyoming-faster-whisper-cublas12-cuda118.txt");
    assert!(fires(&f, "ERR026"), "{f:?}");
}

#[test]
fn torch_28s_capability_warning_names_the_arch_error() {
    let (inv, f) = explain("corpus/c67a-torch211-cu128-v100-sm70.txt");
    assert!(inv
        .errors
        .iter()
        .any(|e| e.kind == ErrorKind::ArchNotCompiled));
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
}

#[test]
fn an_intel_only_machine_has_no_nvidia_driver_and_an_unticked_box_names_nothing() {
    let (inv, f) = explain("corpus/c67b-roop-intel-gpu-cuda-provider-error35.txt");
    // `- [ ] Linux in WSL` is a choice the reporter did not make.
    assert!(inv.wsl.is_wsl.is_none(), "{:?}", inv.wsl);
    let e = finding(&f, "ERR006");
    assert!(e.message.contains("Intel"), "{}", e.message);
    assert!(!categories(&f).contains(&Category::DriverTooOld), "{f:?}");
}

#[test]
fn trt_llm_tensor_names_and_an_unknown_module_symbol() {
    let (_, f) = explain("corpus/c67d-trtllm-backend-gpt-tensor-names-mismatch.txt");
    assert!(
        categories(&f).contains(&Category::TensorrtMismatch),
        "{f:?}"
    );
    let (_, f) = explain("corpus/c66f-aosc-kernel59-nvidia-uvm-unknown-symbol.txt");
    let e = finding(&f, "ERR006");
    assert!(e.message.contains("Unknown symbol"), "{}", e.message);
}

#[test]
fn visibility_variables_slurm_exports_name_no_amd_gpu() {
    let (inv, f) = explain("corpus/c66d-ollama-slurm-sets-rocr-visible-devices.txt");
    assert!(
        !inv.pci
            .iter()
            .any(|p| p.vendor == gpucompat::inventory::GpuVendor::Amd),
        "{:?}",
        inv.pci
    );
    assert!(!categories(&f).contains(&Category::AmdRocm), "{f:?}");
}

#[test]
fn nvcc_refusing_an_arch_no_gpu_here_has_is_the_builds_target_list() {
    let (_, f) = explain("corpus/c66b-implicit3d-compute30-cuda111.txt");
    let e = finding(&f, "ERR026");
    assert!(e.message.contains("architecture list"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::ArchUnsupported), 0, "{f:?}");
    // With no GPU named, the refusal bounds the toolkit (ARCH007).
    let (_, f) = explain("corpus/c11a-darknet-cuda11-compute30-unsupported.txt");
    assert!(fires(&f, "ARCH007"), "{f:?}");
}

#[test]
fn cudnn_refusing_the_gpu_and_bf16_on_a_t4_are_arch_errors() {
    let (_, f) = explain("corpus/c68b-torch7-waifu2x-cudnn-arch-mismatch.txt");
    let e = finding(&f, "ERR004");
    assert!(
        e.message.contains("cuDNN refused this GPU"),
        "{}",
        e.message
    );
    assert!(!categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    let (_, f) = explain("corpus/c68c-kohya-accelerate-bf16-colab.txt");
    let e = finding(&f, "ERR004");
    assert!(
        e.fix
            .as_ref()
            .unwrap()
            .note
            .as_ref()
            .unwrap()
            .contains("fp16"),
        "{e:?}"
    );
}

#[test]
fn bitsandbytes_setup_off_windows_is_its_binary_not_the_platform() {
    let (_, f) = explain("corpus/c68c-firefly-bnb039-cuda110-setup.txt");
    assert!(fires(&f, "ERR026"), "{f:?}");
    let (_, f) = explain("corpus/c38a-bitsandbytes-2023-native-windows-unsupported.txt");
    assert!(!fires(&f, "ERR026"), "{f:?}");
}

#[test]
fn a_rocm_torch_opening_cuda_0_names_an_amd_gpu() {
    let (inv, f) = explain("corpus/c68a-fooocus-rx6700xt-upscale-hang-rocm.txt");
    assert!(inv.gpus.is_empty(), "{:?}", inv.gpus);
    assert!(inv
        .pci
        .iter()
        .any(|p| p.vendor == gpucompat::inventory::GpuVendor::Amd));
    assert!(categories(&f).contains(&Category::AmdRocm), "{f:?}");
}

#[test]
fn a_jetpack_named_for_an_image_is_not_the_hosts() {
    let (_, f) = explain("corpus/c68d-xavier-jp5-container-on-jp4-host.txt");
    let e = finding(&f, "CTR005");
    assert!(e.message.contains("host runs L4T R32"), "{}", e.message);
}

#[test]
fn the_intel_gpu_is_the_evidence_and_the_fix_is_no_driver_update() {
    let (_, f) = explain("corpus/c67b-roop-intel-gpu-cuda-provider-error35.txt");
    let e = finding(&f, "ERR006");
    assert!(e.evidence.iter().any(|x| x.fact == "Intel GPU"), "{e:?}");
    let fix = e.fix.as_ref().and_then(|x| x.note.as_deref()).unwrap_or("");
    assert!(fix.contains("OpenVINO"), "{fix}");
}

#[test]
fn a_gpu_off_the_bus_is_the_platform_and_claims_the_cuda_failures_after_it() {
    let (_, f) = explain("corpus/c69e-gpu-burn-k40m-xid79-overheat.txt");
    let e = finding(&f, "ERR083");
    assert_eq!(e.category, Category::PlatformPosture);
    // The CUDA_ERROR_UNKNOWN that followed is its evidence, not a driver finding.
    assert!(
        e.evidence
            .iter()
            .any(|x| x.value.contains("CUDA_ERROR_UNKNOWN")),
        "{e:?}"
    );
    assert!(e.message.contains("fallen off the bus"), "{}", e.message);
    assert!(!fires(&f, "ERR006"), "{f:?}");
    // Without Xid 79 the same CUDA failure stays ERR006's.
    let (_, f) = explain_text(
        "t",
        "Failure during compute: Error in \"Read faultyelemdata\": CUDA_ERROR_UNKNOWN\n",
    );
    assert!(fires(&f, "ERR006"), "{f:?}");
}

#[test]
fn libraries_and_programs_refusing_the_gpu_s_architecture() {
    for rel in [
        "corpus/c69c-diffbloch-p100-cublas-arch-mismatch.txt",
        "corpus/c69f-drivestudio-gsplat-p100-sm60-unsupported.txt",
        "corpus/c69c-pgstrom-quadro-k600-cc30-not-supported.txt",
    ] {
        let (_, f) = explain(rel);
        assert!(fires(&f, "ERR004"), "{rel}: {f:?}");
    }
    // A requirement met, or a capability line without a refusal, is no error.
    let (inv, _) = explain_text(
        "t",
        "LOG:  GPU0 Tesla T4 (40 SMs, 1590MHz), L2 4096KB, RAM 15109MB, capability 7.5\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    let (inv, _) = explain_text(
        "t",
        "Device 0: compute capability >= 7.0 found, using tensor cores\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_link_against_another_libtorch_is_an_extension_build_mismatch() {
    let (_, f) = explain("corpus/c69c-rust-bert-libtorch-abi-undefined-reference.txt");
    let e = finding(&f, "ERR026");
    assert!(e.message.contains("C++ ABI"), "{}", e.message);
    // NCCL's own symbols missing at link time are not libtorch's.
    let (_, f) = explain("corpus/c55d-nccl-2020-nccl-tests-links-old-cuda10-libnccl.txt");
    assert!(!fires(&f, "ERR026"), "{f:?}");
}

#[test]
fn omniverse_refusing_the_driver_is_a_driver_below_its_minimum() {
    let (_, f) = explain("corpus/c69f-isaacautomator-aws-g5-isaacsim5-driver-535.txt");
    let e = finding(&f, "ERR002");
    assert!(e.message.contains("Omniverse"), "{}", e.message);
    assert!(!e.message.contains("torch"), "{}", e.message);
}

#[test]
fn a_nix_built_program_without_the_host_s_libcuda_is_its_search_path() {
    let (inv, f) = explain("corpus/c70c-nix-ffmpeg-nvenc-libcuda-non-nixos.txt");
    assert!(inv.setting.nix.is_some());
    let e = finding(&f, "ERR084");
    assert_eq!(e.category, Category::EnvVar);
    assert!(e.message.contains("/run/opengl-driver"), "{}", e.message);
    assert!(
        e.evidence.iter().any(|x| x.fact == "programs built by Nix"),
        "{e:?}"
    );
    assert!(!fires(&f, "ERR006"), "{f:?}");
    // NixOS named for a driver build that failed is no library search.
    let (_, f) = explain("corpus/c40b-nixos-2021-nvidia455-fails-to-build-for-linux511.txt");
    assert!(!fires(&f, "ERR084"), "{f:?}");
}

#[test]
fn cuda_s_unknown_error_after_a_suspend_is_the_lost_driver_state() {
    let (inv, f) = explain("corpus/c70d-pytorch-suspend-resume-cuda-unknown.txt");
    assert!(inv.setting.after_suspend.is_some());
    let e = finding(&f, "ERR085");
    assert_eq!(e.category, Category::PlatformPosture);
    assert!(e.message.contains("suspended"), "{}", e.message);
    assert!(
        e.evidence.iter().any(|x| x.fact == "after a suspend"),
        "{e:?}"
    );
    let fix = e.fix.as_ref().and_then(|x| x.note.as_deref()).unwrap_or("");
    assert!(fix.contains("nvidia_uvm"), "{fix}");
    // A script's `sleep 5` is no suspend.
    let (inv, _) = explain_text(
        "t",
        "sleep 5\npython train.py\nRuntimeError: CUDA error: unknown error\n",
    );
    assert!(inv.setting.after_suspend.is_none());
}

#[test]
fn a_triton_of_another_release_and_a_driver_below_a_plugin_s_cuda() {
    let (_, f) = explain("corpus/c70f-wan2gp-triton-attrsdescriptor-torch26.txt");
    let e = finding(&f, "ERR026");
    assert!(e.message.contains("Triton"), "{}", e.message);
    let (_, f) = explain("corpus/c70c-arch-xmrig-cuda-12-5-driver-12-4.txt");
    assert!(fires(&f, "ERR002"), "{f:?}");
    // A name missing from another package is no Triton mismatch.
    let (inv, _) = explain_text(
        "t",
        "ImportError: cannot import name 'cached_download' from 'huggingface_hub'\n",
    );
    assert!(
        inv.errors
            .iter()
            .all(|e| e.kind != gpucompat::inventory::ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
}

#[test]
fn lightgbm_without_its_opencl_learner_is_a_warning_naming_both_builds() {
    let (_, f) = explain("corpus/c70e-lightgbm-cuda-build-device-gpu-param.txt");
    let e = finding(&f, "ERR038");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("device_type='cuda'"), "{}", e.message);
    // The CUDA learner missing is a build without CUDA: an error.
    let (_, f) = explain_text(
        "t",
        "lightgbm.basic.LightGBMError: CUDA Tree Learner was not enabled in this build.\n",
    );
    assert_eq!(finding(&f, "ERR038").severity, Severity::Error);
}

#[test]
fn bf16_code_refused_by_ptxas_is_the_gpu_s_architecture_not_the_compiler_s() {
    let (_, f) = explain("corpus/c71c-unsloth-colab-t4-bf16-ptxas.txt");
    let e = finding(&f, "ERR004");
    assert!(e.message.contains("bfloat16"), "{}", e.message);
    assert!(!fires(&f, "ARCH007"), "{f:?}");
}

#[test]
fn a_trainer_on_the_cpu_with_gpu_0_selected_is_not_a_hidden_gpu() {
    let (_, f) = explain("corpus/c71c-llamafactory-cpu-torch-centos-a100.txt");
    assert!(fires(&f, "ERR028"), "{f:?}");
    assert!(!fires(&f, "ERR025"), "{f:?}");
    // A selection without GPU 0 can hide them all.
    let (_, f) = explain_text(
        "t",
        "export CUDA_VISIBLE_DEVICES=3\nProcess rank: 0, device: cpu, n_gpu: 0, distributed training: False\n",
    );
    assert!(fires(&f, "ERR025"), "{f:?}");
}

#[test]
fn the_deepspeed_launcher_ignoring_the_selection_is_its_arguments() {
    let (_, f) = explain("corpus/c71c-accelerate-deepspeed-ignores-cvd.txt");
    let e = finding(&f, "ERR014");
    assert!(e.message.contains("--include"), "{}", e.message);
}

#[test]
fn a_worker_killed_by_sigbus_is_shared_memory() {
    for rel in [
        "corpus/c71c-megatron-docker-bus-error-2080ti.txt",
        "corpus/c71c-deepspeed-chat-docker-shm-rc7.txt",
    ] {
        let (_, f) = explain(rel);
        assert!(fires(&f, "ERR069"), "{rel}: {f:?}");
    }
    // Another return code is no SIGBUS.
    let (inv, _) = explain_text(
        "t",
        "Killing subprocess 1234; exits with return code = -9\n",
    );
    assert!(
        inv.errors.iter().all(|e| e.kind != ErrorKind::ShmExhausted),
        "{:?}",
        inv.errors
    );
}

#[test]
fn a_task_manager_usage_figure_without_a_failure_is_a_misconception() {
    for rel in [
        "corpus/c72a-leelazero-win10-taskmanager-gpu-stats.txt",
        "corpus/c72c-tf241-win-task-manager-shows-gpu-idle.txt",
    ] {
        let (_, f) = explain(rel);
        let m = finding(&f, "MIS007");
        assert_eq!(m.category, Category::Misconception, "{rel}");
        assert!(
            f.iter().all(|x| x.severity != Severity::Error),
            "{rel}: {f:?}"
        );
    }
    // Task Manager's shared memory is no usage question.
    let (_, f) = explain_text(
        "t",
        "When the reporter lowers the frame count, Task Manager shows it using shared GPU memory instead.\n",
    );
    assert!(!fires(&f, "MIS007"), "{f:?}");
    // A low usage beside the program falling back to the CPU is that failure's symptom.
    let (_, f) = explain_text(
        "t",
        "ggml-cuda.cu:102: CUDA error\nGPU usage jumps briefly then drops to 0% and the model falls back to CPU.\n",
    );
    assert!(!fires(&f, "MIS007"), "{f:?}");
}

#[test]
fn the_tensorrt_provider_failing_over_to_cuda_is_not_a_cuda_provider_failure() {
    let (inv, f) = explain("corpus/c72d-deface-colab-ort-trt-ep-libnvinfer-path.txt");
    assert!(
        inv.errors
            .iter()
            .all(|e| e.kind != ErrorKind::OrtCudaProviderFailed),
        "{:?}",
        inv.errors
    );
    // The wheel of that TensorRT major is installed: the loader path is what lacks it.
    let e = finding(&f, "ENV013");
    assert_eq!(e.category, Category::EnvVar);
    assert!(!fires(&f, "ERR015"), "{f:?}");
    // Falling back to the CPU alone is the CUDA provider failing.
    let (inv, _) = explain_text(
        "t",
        " when using ['CUDAExecutionProvider', 'CPUExecutionProvider']\nFalling back to ['CPUExecutionProvider'] and retrying.\n",
    );
    assert!(
        inv.errors
            .iter()
            .any(|e| e.kind == ErrorKind::OrtCudaProviderFailed),
        "{:?}",
        inv.errors
    );
}

#[test]
fn error_35_in_a_pod_with_no_driver_in_sight_is_the_container() {
    let (inv, f) =
        explain("corpus/c72b-gpu-operator-v2492-unprivileged-envvar-driver-insufficient.txt");
    assert!(inv.container.kubernetes.as_ref().is_some_and(|k| k.value));
    let e = finding(&f, "ERR010");
    assert!(e.message.contains("error 35"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
    // A docker run with --gpus had the runtime: the driver stays the suspect.
    let (_, f) = explain("corpus/c33a-turboocr-2026-rtx2080ti-cuda13-image-driver-123.txt");
    assert!(fires(&f, "ERR002"), "{f:?}");
}

#[test]
fn a_kernel_library_refusing_the_architecture_is_the_gpu_s() {
    let (_, f) = explain("corpus/c72d-trtllm-qwen-p40-unsupported-arch.txt");
    assert!(fires(&f, "ERR004"), "{f:?}");
    assert!(categories(&f).contains(&Category::ArchUnsupported));
    assert_eq!(errors_in(&f, Category::TensorrtMismatch), 0, "{f:?}");
}

#[test]
fn a_crash_on_an_amd_gpu_named_in_a_start_up_line_is_a_rocm_hint() {
    let (_, f) = explain("corpus/c72f-fooocus-2025-rx6600xt-linux-rocm-segfault.txt");
    assert!(fires(&f, "HINT009"), "{f:?}");
}

#[test]
fn tensorrt_s_own_builder_resource_not_loaded_is_the_loader_path() {
    let (_, f) = explain("corpus/c57b-tensorrtx-builder-resource-ld-library-path.txt");
    let e = finding(&f, "ERR086");
    assert_eq!(e.category, Category::EnvVar);
    assert_eq!(errors_in(&f, Category::TensorrtMismatch), 0, "{f:?}");
}

#[test]
fn ollama_s_nvml_return_code_names_the_failure() {
    let (inv, f) = explain("corpus/c73a-ollama-flake-nvml-init-err-18.txt");
    assert!(
        inv.errors
            .iter()
            .any(|e| e.kind == ErrorKind::NvmlDriverLibraryMismatch),
        "{:?}",
        inv.errors
    );
    assert!(fires(&f, "ERR001"), "{f:?}");
    // A code NVML gives for something else names nothing.
    let (inv, _) = explain_text(
        "t",
        "libnvidia-ml.so.545.29.06: nvml vram init failure: 3\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_gpu_that_seems_unused_while_torch_opened_it_is_a_misconception() {
    let (inv, f) = explain("corpus/c73d-yolov3-windows-rtx2080-task-manager-shows-cpu.txt");
    assert_eq!(
        inv.gpus[0].name.as_ref().map(|n| n.value.as_str()),
        Some("GeForce RTX 2080")
    );
    assert!(fires(&f, "MIS007"), "{f:?}");
    // Without the device opened, "the GPU seems unused" is no verdict either way.
    let (_, f) = explain_text(
        "t",
        "Title: The GPU seems to haven't be used when i do training.\n",
    );
    assert!(!fires(&f, "MIS007"), "{f:?}");
}

#[test]
fn dkms_failing_to_build_the_module_in_a_kernel_hook_is_no_driver() {
    let (_, f) = explain("corpus/c73c-void-dkms-nvidia390-cc-symlink-clang.txt");
    assert!(fires(&f, "ERR053"), "{f:?}");
    let (inv, _) = explain_text(
        "t",
        "Building DKMS module: virtualbox-ose-6.0.14... done.\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_gfx_target_refused_by_name_is_rocm() {
    let (inv, f) = explain("corpus/c73f-rocm-flash-attn-gfx1100-7900xtx-unsupported.txt");
    assert!(fires(&f, "ERR012"), "{f:?}");
    assert!(inv.amd.gfx_targets.iter().any(|t| t.value == "gfx1100"));
}

#[test]
fn a_caching_allocator_assertion_points_at_its_configuration() {
    for rel in [
        "corpus/c73b-cuda-alloc-conf-set-after-import-assert.txt",
        "corpus/c64b-pytorch-alloc-conf-expandable-plus-max-split.txt",
    ] {
        let (_, f) = explain(rel);
        let e = finding(&f, "ERR087");
        assert_eq!(e.category, Category::EnvVar, "{rel}");
    }
}

#[test]
fn no_kernel_image_after_building_an_extension_names_the_extension_too() {
    for rel in [
        "corpus/c73d-mmcv-built-on-a100-run-on-v100-no-kernel.txt",
        "corpus/c49a-mish-cuda-2020-titanx-maxwell-arch-list-missing-52.txt",
    ] {
        let (_, f) = explain(rel);
        assert!(fires(&f, "ERR004"), "{rel}: {f:?}");
        assert!(fires(&f, "EXT005"), "{rel}: {f:?}");
    }
    // No build in the report and no torch arch list: the extension is not named.
    let (_, f) = explain_text(
        "t",
        "GPU: Tesla V100\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n",
    );
    assert!(!fires(&f, "EXT005"), "{f:?}");
}

#[test]
fn work_on_the_cpu_where_onnx_runtime_is_the_only_framework_named_is_its_provider() {
    let (_, f) = explain("corpus/c70a-gpt-sovits-uvr5-onnx-not-gpu.txt");
    assert!(fires(&f, "ERR046"), "{f:?}");
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0, "{f:?}");
}

#[test]
fn no_device_in_one_program_while_torch_opened_the_gpu_is_not_the_platform() {
    let (_, f) = explain("corpus/c74c-wsl2-llmc-cudasetdevice-100-works-after-update.txt");
    assert!(!fires(&f, "PLAT008"), "{f:?}");
    assert!(f.iter().all(|x| x.severity != Severity::Error), "{f:?}");
    let e = finding(&f, "ERR006");
    assert!(
        e.message
            .contains("torch in the same report opened the GPU"),
        "{}",
        e.message
    );
    // Without torch's output, no device under WSL stays WSL's.
    let (_, f) = explain_text(
        "t",
        "Linux 5.15.146.1-microsoft-standard-WSL2\ncudaSetDevice(0) failed: no CUDA-capable device is detected\n",
    );
    assert!(categories(&f).contains(&Category::Wsl), "{f:?}");
}

#[test]
fn a_jetson_docker_build_step_without_cuda_libraries_is_the_default_runtime() {
    let (inv, f) = explain("corpus/c74b-jetson-containers-tx2-build-libcurand-default-runtime.txt");
    assert!(inv
        .setting
        .docker_build_step
        .as_ref()
        .is_some_and(|b| b.value));
    let e = finding(&f, "ERR010");
    assert!(e.message.contains("default"), "{}", e.message);
    assert_eq!(errors_in(&f, Category::DriverBranch), 0, "{f:?}");
}

#[test]
fn ctranslate2_refusing_float16_is_the_gpu_s_architecture() {
    for rel in [
        "corpus/c74a-faster-whisper-gtx1050ti-float16.txt",
        "corpus/c74a-whisper-diarization-tesla-p40-float16.txt",
    ] {
        let (_, f) = explain(rel);
        let e = finding(&f, "ERR004");
        assert!(e.message.contains("float16"), "{rel}: {}", e.message);
    }
    // Its warning that it converted the weights is no failure.
    let (_, f) = explain("corpus/c74a-faster-whisper-float16-to-float32-warning.txt");
    assert!(f.iter().all(|x| x.severity != Severity::Error), "{f:?}");
}

#[test]
fn a_kernel_missing_from_its_module_is_the_architecture_not_cuda_s_start() {
    let (inv, f) = explain("corpus/c74f-candle-flux-dual-gpu-61-89-bf16-symbol.txt");
    assert!(
        inv.errors
            .iter()
            .any(|e| e.kind == ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
    assert!(fires(&f, "ERR004"), "{f:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
    // cuInit's own 'named symbol not found' is still a start-up failure.
    let (inv, _) = explain_text(
        "t",
        "failed call to cuInit: CUDA_ERROR_NOT_FOUND: named symbol not found\n",
    );
    assert!(
        inv.errors
            .iter()
            .all(|e| e.kind != ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
}

#[test]
fn a_program_asserting_cuda_is_available_in_a_colab_cpu_runtime_is_the_runtime() {
    let (inv, f) = explain("corpus/c74d-colab-2019-cpu-runtime-cuda-unavailable.txt");
    assert!(
        inv.errors
            .iter()
            .any(|e| e.kind == ErrorKind::CudaUnavailable),
        "{:?}",
        inv.errors
    );
    assert!(fires(&f, "ERR066"), "{f:?}");
}

#[test]
fn no_kernel_image_after_the_report_builds_an_extension_names_the_extension() {
    // TORCH_CUDA_ARCH_LIST set in the image's Dockerfile: an extension build.
    let (inv, f) = explain("corpus/c75b-mmdet-docker-t4-sm75-ops-no-kernel-image.txt");
    assert!(inv.setting.extension_build.is_some(), "{:?}", inv.setting);
    assert!(fires(&f, "EXT005"), "{f:?}");
    // A bare `pip3 install torch-scatter` builds it from source; no GPU named.
    let (inv, f) = explain("corpus/c75b-torch-scatter-docker-build-pypi-scatter-max-no-kernel.txt");
    assert_eq!(inv.setting.extension_build.unwrap().value, "torch-scatter");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // The prebuilt wheel from the project's index is no source build.
    let (inv, _) = explain_text(
        "t",
        "pip install torch-scatter -f https://data.pyg.org/whl/torch-2.1.0+cu121.html\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n",
    );
    assert!(inv.setting.extension_build.is_none(), "{:?}", inv.setting);
}

#[test]
fn a_device_attribute_the_driver_refuses_is_a_driver_older_than_the_program() {
    for rel in [
        "corpus/c75a-taichi-087-cudevicegetattribute-cuda102-windows.txt",
        "corpus/c75a-cuda-python-d3d12-cig-attr-driver-124.txt",
    ] {
        let (inv, f) = explain(rel);
        let m = finding(&f, "ERR002");
        assert_eq!(m.severity, Severity::Warning, "{rel}");
        assert!(m.message.contains("device attribute"), "{rel}: {m:?}");
        // A forward-slash Windows path is no Mac home directory.
        assert_ne!(
            inv.os.kind.map(|k| k.value),
            Some(gpucompat::inventory::OsKind::Macos),
            "{rel}"
        );
    }
}

#[test]
fn a_gpu_index_past_the_machines_gpus_is_named_as_such() {
    let (inv, f) = explain("corpus/c75a-pycuda-chainer-aws-g2-gpu1-invalid-device.txt");
    assert_eq!(inv.setting.device_index.unwrap().value, "1");
    let m = finding(&f, "MIS008");
    assert!(
        m.evidence
            .iter()
            .any(|e| e.fact.starts_with("observed error")),
        "{m:?}"
    );
    assert!(!fires(&f, "ERR014"), "{f:?}");
    // Where CUDA_VISIBLE_DEVICES narrows the GPUs, the variable is the cause.
    let (_, f) =
        explain("corpus/c49b-pick-pytorch-2020-visible-devices-two-nproc-four-invalid-ordinal.txt");
    assert!(!fires(&f, "MIS008"), "{f:?}");
    assert!(categories(&f).contains(&Category::EnvVar), "{f:?}");
}

#[test]
fn torchs_no_gpus_in_a_script_while_torch_opened_the_gpu_is_the_scripts_environment() {
    let (_, f) = explain("corpus/c75d-anomaly-transformer-script-visible-devices-gpu-id.txt");
    assert!(fires(&f, "ERR082"), "{f:?}");
    assert!(!fires(&f, "ERR006"), "{f:?}");
}

#[test]
fn a_gpu_whose_memory_windows_the_firmware_left_unassigned_is_the_platform() {
    // An eGPU the nvidia module refused: "BAR0 is 0M", not a legacy branch.
    let (_, f) = explain("corpus/c77f-system76-egpu-akitio-bar0-bios-misconfigured.txt");
    assert!(fires(&f, "ERR088"), "{f:?}");
    assert!(!fires(&f, "ARCH005"), "{f:?}");
    // nvidia-smi's failure follows from it: one finding, not two causes.
    assert!(!fires(&f, "ERR006"), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverBranch), 0, "{f:?}");
    // vfio-pci could not reserve a BAR that the framebuffer held.
    let (_, f) = explain("corpus/c15b-harvester-p5000-passthrough-bar1-efifb.txt");
    assert!(categories(&f).contains(&Category::PlatformPosture), "{f:?}");
}

#[test]
fn an_lspci_block_cut_after_its_subsystem_line_says_nothing_of_the_driver() {
    let (inv, f) = explain("corpus/c77c-folding-at-home-docker-gpus-no-nvidia-runtime.txt");
    assert!(inv.pci.iter().all(|d| d.driver.is_none()), "{:?}", inv.pci);
    assert!(!fires(&f, "DRV002"), "{f:?}");
    assert!(fires(&f, "ERR010"), "{f:?}");
}

#[test]
fn a_legacy_gpu_is_not_named_where_another_reading_claims_the_no_device_error() {
    // CUDA_VISIBLE_DEVICES="$0" hides the TITAN X: the variable, not the branch.
    let (_, f) = explain("corpus/c65c-cuda-visible-devices-dollar-zero.txt");
    assert!(!fires(&f, "ARCH005"), "{f:?}");
    assert!(categories(&f).contains(&Category::EnvVar), "{f:?}");
    // Under WSL1 the GPU is not there for Linux at all.
    let (_, f) = explain("corpus/c2-wsl1-2019-nvidia-smi-no-gpu-access.txt");
    assert!(!fires(&f, "ARCH005"), "{f:?}");
    // A K80 with nvidia-smi failing and nothing else in sight: still the branch.
    let (_, f) = explain("corpus/c13b-skypilot-azure-k80-dsvm-driver-nvidia-smi-failed.txt");
    assert!(fires(&f, "ARCH005"), "{f:?}");
}

#[test]
fn a_geforce_generation_named_in_prose_gives_its_compute_capability() {
    let (inv, f) = explain("corpus/c76b-tf220-rtx50-sm120-invalid-ptx.txt");
    let g = &inv.gpus[0];
    assert_eq!(gpu0_cc(&inv), "12.0");
    assert!(g
        .name
        .as_ref()
        .unwrap()
        .note
        .as_deref()
        .unwrap_or("")
        .contains("generation"));
    // TensorFlow's JIT could not compile its PTX for the GPU.
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // A model number alone (Quadro RTX 5000) is not a generation.
    let (inv, _) = explain_text("t", "GPU: Quadro RTX 5000\n");
    assert_eq!(gpu0_cc(&inv), "7.5");
}

#[test]
fn error_35_in_a_container_on_a_jetson_is_an_image_made_for_discrete_gpus() {
    let (_, f) = explain("corpus/c76c-triton-x86-container-on-jetson-agx-l4t.txt");
    let m = finding(&f, "ERR078");
    assert!(m.message.contains("discrete-GPU"), "{m:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
}

#[test]
fn nvenc_libraries_missing_under_wsl_are_wsls() {
    let (_, f) = explain("corpus/c76e-wsl2-ffmpeg-nvenc-cannot-load-libnvidia-encode.txt");
    let m = finding(&f, "ERR011");
    assert!(m.message.contains("libnvidia-encode"), "{m:?}");
}

#[test]
fn a_module_named_for_another_driver_release_is_two_releases_mixed() {
    let (_, f) = explain("corpus/c76f-keras-theano-gtx1080-nvidia-361-uvm.txt");
    let m = finding(&f, "ERR001");
    assert!(m.message.contains("two driver releases"), "{m:?}");
    // A module without a release in its name says nothing of two releases.
    let (inv, _) = explain_text(
        "t",
        "modprobe: ERROR: could not insert 'nvidia_uvm': Invalid argument\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::NvmlDriverLibraryMismatch),
        "{:?}",
        inv.errors
    );
}

#[test]
fn dotnets_dll_not_found_for_cudnn_and_a_miners_cuda_initialize_error() {
    let (_, f) = explain("corpus/c77b-convnetsharp-windows-cudnn64-6-dll-missing.txt");
    assert!(categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    for rel in [
        "corpus/c77d-trex-cuda-initialize-error-driver-pre-410.txt",
        "corpus/c26b-trex-driver-391-below-397.txt",
    ] {
        let (_, f) = explain(rel);
        assert!(
            categories(&f).contains(&Category::DriverTooOld),
            "{rel}: {f:?}"
        );
    }
}

#[test]
fn is_available_named_without_its_parentheses_still_reads_false() {
    let (inv, f) = explain("corpus/c32c-jetson-inference-jp512-py310-pip-torch-no-cuda.txt");
    assert!(
        read_kind(&inv, ErrorKind::CudaUnavailable),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
}

#[test]
fn no_kernel_image_quoted_in_a_sentence_is_still_read() {
    let (inv, f) = explain("corpus/c75a-cudf-k40m-kepler-no-kernel-image.txt");
    assert!(
        read_kind(&inv, ErrorKind::NoKernelImage),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
}

#[test]
fn a_driver_and_a_gpu_typed_in_one_sentence_are_both_read() {
    let (inv, _) = explain_text("t", "My driver is 531.41 and I have an RTX 3060\n");
    assert_eq!(inv.driver_version().unwrap().value.to_string(), "531.41");
    assert_eq!(gpu0_cc(&inv), "8.6");
}

#[test]
fn a_program_said_to_run_on_the_cpu_on_an_amd_machine_is_rocms() {
    let (inv, f) = explain("corpus/c76d-invokeai-main-rocm-image-ships-cuda-torch.txt");
    assert!(
        read_kind(&inv, ErrorKind::CudaUnavailable),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::AmdRocm), "{f:?}");
}

#[test]
fn nouveau_said_to_drive_the_gpu_is_read_from_prose() {
    let (inv, f) = explain("corpus/c77a-nvtop-nouveau-no-gpu-to-monitor.txt");
    assert_eq!(
        inv.pci[0].driver.as_deref(),
        Some("nouveau"),
        "{:?}",
        inv.pci
    );
    let m = finding(&f, "DRV002");
    assert!(m.message.contains("Thin evidence"), "{m:?}");
    // Steps taken against nouveau say nothing of what is bound now.
    for t in [
        "I blacklisted nouveau and rebooted.\n",
        "The installer asks to disable the nouveau driver that is loaded.\n",
    ] {
        let (inv, _) = explain_text("t", t);
        assert!(inv.pci.is_empty(), "{t}: {:?}", inv.pci);
    }
}

#[test]
fn an_egl_context_with_no_cuda_device_is_no_device() {
    let (_, f) = explain("corpus/c75e-habitat-sim-ubuntu-vm-no-gpu-egl-cuda-device-0.txt");
    assert!(categories(&f).contains(&Category::NoDriver), "{f:?}");
}

#[test]
fn bfloat16_refused_by_a_gpu_is_a_precision_not_a_fault() {
    // vLLM's dtype check on a Tesla P40: no error, float16 is the fix.
    let (_, f) = explain("corpus/c78d-pascal-p40-vllm-bfloat16-dtype.txt");
    assert!(f.iter().all(|x| x.severity != Severity::Error), "{f:?}");
    let m = finding(&f, "ERR004");
    assert!(m.message.contains("bfloat16"), "{m:?}");
    let fix = m.fix.as_ref().and_then(|x| x.note.as_deref()).unwrap_or("");
    assert!(fix.contains("--dtype half"), "{fix}");
    assert_eq!(finding(&f, "ARCH006").severity, Severity::Warning);
    // torch's autocast words it its own way.
    let (inv, f) = explain_text(
        "t",
        "RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.\n",
    );
    assert!(
        read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
    assert_eq!(finding(&f, "ERR004").severity, Severity::Warning);
    // A kernel image missing on the same GPU stays an error.
    let (_, f) = explain_text(
        "t",
        "GPU: Tesla P40\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n",
    );
    assert!(errors_in(&f, Category::ArchUnsupported) > 0, "{f:?}");
}

#[test]
fn singularity_nv_container_is_a_container() {
    let (inv, f) = explain("corpus/c78a-singularity3-nv-nvidia-smi-missing.txt");
    assert_eq!(
        inv.container.runtime.as_ref().map(|r| r.value.as_str()),
        Some("singularity")
    );
    assert_eq!(
        inv.setting.docker_run_gpus.as_ref().map(|g| g.value),
        Some(true)
    );
    let m = finding(&f, "ERR042");
    assert!(m.message.contains("Singularity/Apptainer"), "{m:?}");
    assert_eq!(errors_in(&f, Category::NoDriver), 0, "{f:?}");
    // Without --nv the container was given no GPU.
    let (inv, _) = explain_text("t", "$ apptainer exec image.sif python train.py\n");
    assert_eq!(
        inv.setting.docker_run_gpus.as_ref().map(|g| g.value),
        Some(false)
    );
    // A command cut before its image says nothing of --nv.
    let (inv, _) = explain_text("t", "$ singularity shell -\n");
    assert!(inv.container.runtime.is_some());
    assert!(inv.setting.docker_run_gpus.is_none());
    // A sentence about the tool names no container.
    let (inv, _) = explain_text("t", "I have not tried singularity yet.\n");
    assert!(inv.container.runtime.is_none());
}

#[test]
fn ptx_refused_on_a_jetson_is_a_build_for_another_platform() {
    let (_, f) = explain("corpus/c78d-ollama-jetson-orin-ptx-toolchain.txt");
    assert!(categories(&f).contains(&Category::DriverBranch), "{f:?}");
    assert_eq!(errors_in(&f, Category::DriverTooOld), 0, "{f:?}");
    // Off a Jetson the same error is the driver's.
    let (_, f) = explain_text(
        "t",
        "CUDA error: the provided PTX was compiled with an unsupported toolchain.\n",
    );
    assert!(!fires(&f, "ERR078"), "{f:?}");
}

#[test]
fn a_cuda_call_s_status_number_is_read() {
    let (inv, f) = explain("corpus/c78f-paddle-aistudio-post107-error35-cuda92.txt");
    assert!(
        read_kind(&inv, ErrorKind::InsufficientDriver),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::DriverTooOld), "{f:?}");
    let (inv, _) = explain_text("t", "cudaGetDeviceCount returned 100\n");
    assert!(read_kind(&inv, ErrorKind::NoDevice), "{:?}", inv.errors);
    // A number that names no state, or one beside its own message, adds nothing.
    let (inv, _) = explain_text("t", "cudaGetDeviceCount returned 2\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn invalid_ordinal_with_nothing_narrowing_the_gpus_is_the_program_s_index() {
    let (_, f) = explain("corpus/c79c-alpaca-nproc-invalid-ordinal.txt");
    let m = finding(&f, "ERR014");
    assert_eq!(m.severity, Severity::Warning, "{m:?}");
    assert!(m.message.contains("nproc_per_node"), "{m:?}");
    // With CUDA_VISIBLE_DEVICES in sight it is the variable's, an error.
    let (_, f) = explain_text(
        "t",
        "export CUDA_VISIBLE_DEVICES=3\nRuntimeError: CUDA error: invalid device ordinal\n",
    );
    assert!(errors_in(&f, Category::EnvVar) > 0, "{f:?}");
    assert!(
        !f.iter().any(|x| x.message.contains("nproc_per_node")),
        "{f:?}"
    );
}

#[test]
fn a_cuda_folder_that_is_not_there_is_a_stale_variable() {
    let (_, f) = explain("corpus/c79a-llama-cpp-stale-cuda-path-112.txt");
    let m = finding(&f, "ERR039");
    assert!(m.message.contains("does not exist"), "{m:?}");
    // Any other missing path is not CUDA's.
    let (inv, _) = explain_text(
        "t",
        "FileNotFoundError: [WinError 3] The system cannot find the path specified: 'C:\\\\data\\\\images'\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn ldd_listing_a_cuda_library_not_found_is_read() {
    let (inv, f) = explain("corpus/c46b-mxnet-2019-arch4edu-libmxnet-cuda100-system-cuda101.txt");
    assert!(
        read_kind(&inv, ErrorKind::CudaLibraryMissing),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::MultipleCuda), "{f:?}");
    // Libraries of no GPU stack are nobody's concern here.
    let (inv, _) = explain_text("t", "\tlibpng16.so.16 => not found\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn a_package_operator_missing_from_torch_ops_is_its_extension() {
    let (inv, f) = explain("corpus/c78c-lora-scripts-xformers013-no-such-operator.txt");
    assert!(
        read_kind(&inv, ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // A sentence without an operator's name is nothing.
    let (inv, _) = explain_text("t", "There is no such operator in the docs.\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn curand_launch_failure_points_at_a_cuda_older_than_the_gpu() {
    let (_, f) = explain("corpus/c21a-digits4-docker-cuda75-p100-curand-launch-failure.txt");
    let m = finding(&f, "ERR004");
    assert_eq!(m.severity, Severity::Warning, "{m:?}");
    assert!(m.message.contains("cuRAND"), "{m:?}");
    // Another cuRAND status is no launch failure.
    let (inv, _) = explain_text("t", "CURAND_STATUS_NOT_INITIALIZED\n");
    assert!(
        !read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
}

#[test]
fn an_asserted_cuda_check_and_an_extension_dll_are_read() {
    let (inv, _) = explain("corpus/c39a-so-vits-svc-2023-cpu-training-not-allowed-cpu-torch.txt");
    assert!(
        read_kind(&inv, ErrorKind::CudaUnavailable),
        "{:?}",
        inv.errors
    );
    // The assertion echoed without its failure is source code, not an error.
    let (inv, _) = explain_text(
        "t",
        "    assert torch.cuda.is_available()\n    model.cuda()\n",
    );
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    let (_, f) = explain("corpus/c58a-exllamav2-flash-attn-dll-load.txt");
    assert!(
        categories(&f).contains(&Category::CompiledExtension),
        "{f:?}"
    );
    // A module of no CUDA extension is not one.
    let (inv, _) = explain_text(
        "t",
        "ImportError: DLL load failed while importing _sqlite3\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
}

#[test]
fn applications_inside_containers_put_the_report_in_one() {
    let (inv, f) = explain("corpus/c78a-wsl2-driver555-container-error500.txt");
    assert!(inv.container.runtime.is_some());
    assert!(categories(&f).contains(&Category::Container), "{f:?}");
    // Containers as a subject, not a place the report ran, name none.
    let (inv, _) = explain_text("t", "Support for containers is planned.\n");
    assert!(inv.container.runtime.is_none());
}

#[test]
fn a_loader_trace_names_the_copy_that_shadows_the_wheel_s() {
    let (inv, f) = explain("corpus/c80f-jax-cusparse-nvhpc-ldpath.txt");
    assert!(
        read_kind(&inv, ErrorKind::LibraryShadowed),
        "{:?}",
        inv.errors
    );
    assert_eq!(finding(&f, "ERR027").severity, Severity::Error);
    assert!(fires(&f, "ENV014"), "{f:?}");
    // The trace's search path is the LD_LIBRARY_PATH the loader used.
    let ldp = &inv.env["LD_LIBRARY_PATH"];
    assert!(ldp.value.contains("/cuda/12.4/lib64"), "{ldp:?}");
    assert!(!ldp.value.contains("glibc-hwcaps"), "{ldp:?}");
    // The plugin failed to start: not a CPU-only jaxlib.
    assert!(!fires(&f, "ERR038"), "{f:?}");
    // A library mapped from the environment's own copy shadows nothing.
    let (inv, _) = explain_text(
        "t",
        "  4709:\tfile=libnvJitLink.so.12 [0];  needed by /e/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12 [0]\n  4709:\t  trying file=/e/lib/python3.11/site-packages/nvidia/nvjitlink/lib/libnvJitLink.so.12\n  4709:\tfile=libnvJitLink.so.12 [0];  generating link map\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::LibraryShadowed),
        "{:?}",
        inv.errors
    );
    // A system library no package ships a copy of is the system's to load.
    let (inv, _) = explain_text(
        "t",
        "     32577:       trying file=/usr/local/cuda/lib64/libcudart.so.12\n     32577:     calling init: /usr/local/cuda/lib64/libcudart.so.12\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::LibraryShadowed),
        "{:?}",
        inv.errors
    );
}

#[test]
fn an_ld_library_path_set_in_python_is_read_without_its_fields() {
    let (inv, f) = explain("corpus/c73b-kaggle-cusparse-nvjitlink-conda-ld-path.txt");
    assert_eq!(inv.env["LD_LIBRARY_PATH"].value, "/opt/conda/lib:");
    assert!(fires(&f, "ENV014"), "{f:?}");
}

#[test]
fn jax_s_unloadable_library_is_read_by_its_name() {
    let (inv, f) = explain("corpus/c77c-localcolabfold-jaxlib-unable-to-load-cudnn.txt");
    assert!(read_kind(&inv, ErrorKind::CudnnMissing), "{:?}", inv.errors);
    assert!(categories(&f).contains(&Category::CudnnMismatch), "{f:?}");
    let (inv, _) = explain_text(
        "t",
        "RuntimeError: Unable to load cuSPARSE. Is it installed?\n",
    );
    assert!(
        read_kind(&inv, ErrorKind::CudaLibraryMissing),
        "{:?}",
        inv.errors
    );
    // Another program's question is not jax's.
    let (inv, _) = explain_text("t", "Unable to load config. Is it installed?\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn jax_s_fallback_warning_alone_is_a_notice() {
    let (inv, f) = explain("corpus/c81c-kohya-colab-jaxlib-fallback-warning.txt");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    assert!(fires(&f, "MIS004"), "{f:?}");
    assert_eq!(errors_in(&f, Category::CpuOnlyWheel), 0);
    // A report about JAX itself keeps the warning as its error.
    let (_, f) = explain("corpus/c52e-colabdock-2025-cpu-jax-installed-driver-550.txt");
    assert!(categories(&f).contains(&Category::CpuOnlyWheel), "{f:?}");
}

#[test]
fn an_extension_dll_missing_a_module_may_be_a_cpu_torch() {
    let (_, f) = explain("corpus/c81f-flash-attn-dll-load-cpu-torch.txt");
    let e = finding(&f, "ERR026");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("CPU build"), "{}", e.message);
    // A missing entry point is the extension's build: an error.
    let (_, f) = explain("corpus/c67b-wan21-flash-attn-dll-procedure-not-found.txt");
    assert_eq!(finding(&f, "ERR026").severity, Severity::Error);
}

#[test]
fn cufft_s_internal_error_on_ada_with_cuda_11_7() {
    let (inv, f) = explain("corpus/c81d-l4-cufft-hyenadna-cu117.txt");
    assert_eq!(gpu0_cc(&inv), "8.9");
    assert!(
        read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    // An Ada GPU and torch's CUDA 11.7: the error, with its reading.
    let (_, f) = explain_text(
        "t",
        "GPU 0: NVIDIA GeForce RTX 4090\ntorch 1.13.1+cu117\nRuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\n",
    );
    let e = finding(&f, "ERR004");
    assert_eq!(e.severity, Severity::Error);
    assert!(e.message.contains("11.8"), "{}", e.message);
    // The same error with a CUDA 12 torch is not that: a warning.
    let (_, f) = explain_text(
        "t",
        "GPU 0: NVIDIA GeForce RTX 4090\ntorch 2.3.1+cu121\nRuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR\n",
    );
    assert_eq!(finding(&f, "ERR004").severity, Severity::Warning);
}

#[test]
fn a_list_in_cuda_home_is_read_from_the_nvcc_path_the_build_ran() {
    let (inv, f) = explain("corpus/c80e-apex-cuda-home-colon-path.txt");
    assert_eq!(
        inv.env["CUDA_HOME"].value,
        ":/usr/local/cuda:/usr/local/cuda-10.1"
    );
    assert!(fires(&f, "ENV007"), "{f:?}");
    // One directory is no list.
    let (inv, _) = explain_text(
        "t",
        "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda-10.1/bin/nvcc'\n",
    );
    assert!(!inv.env.contains_key("CUDA_HOME"), "{:?}", inv.env);
}

#[test]
fn an_extension_op_built_without_cuda_is_read() {
    let (inv, f) = explain("corpus/c80e-torch-scatter-jetson-cu114-cpu-build.txt");
    assert!(
        read_kind(&inv, ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
    assert!(finding(&f, "ERR026")
        .message
        .contains("without its CUDA kernels"));
    // A package's sentence about itself has its own entry.
    let (inv, _) = explain_text(
        "t",
        "ValueError: This CTranslate2 package was not compiled with CUDA support\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
}

#[test]
fn a_message_cut_before_its_words_is_read_across_the_cut() {
    let (inv, f) = explain("corpus/c81d-h100-animateanyone-torch1-cu117.txt");
    assert!(
        read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
    let (inv, _) = explain_text(
        "t",
        "NVIDIA H100 PCIe with CUDA capability sm_90\nis not compatible with the current PyTorch installation.\n",
    );
    assert!(
        read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
    // The next line's message without the words it needs stays unread.
    let (inv, _) = explain_text(
        "t",
        "Some other line\nis not compatible with the current PyTorch installation.\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
}

#[test]
fn deepspeed_s_own_gpu_options_override_cuda_visible_devices() {
    let (_, f) = explain("corpus/c71c-deepspeed-launcher-ignores-cvd.txt");
    assert!(fires(&f, "ENV015"), "{f:?}");
    assert!(!fires(&f, "MIS002"), "{f:?}");
    // The launcher's own warning is the observed error's (ERR014), read once.
    let (_, f) = explain_text(
        "t",
        "Detected CUDA_VISIBLE_DEVICES=2,4 but ignoring it because one or several of --include/--exclude/--num_gpus/--num_nodes cl args were used.\n",
    );
    assert!(fires(&f, "ERR014") && !fires(&f, "ENV015"), "{f:?}");
    // The launcher without a selector of its own leaves the variable alone.
    let (_, f) = explain_text(
        "t",
        "CUDA_VISIBLE_DEVICES=2,3 deepspeed train.py --deepspeed ds.json\n",
    );
    assert!(!fires(&f, "ENV015"), "{f:?}");
}

#[test]
fn a_gpu_named_in_words_is_no_gpu_the_container_listed() {
    let (inv, f) = explain("corpus/c63b-vllm-k8s-l4-nvml-not-found-ldpath.txt");
    assert_eq!(gpu0_cc(&inv), "8.9");
    assert!(fires(&f, "CTR001"), "{f:?}");
}

#[test]
fn a_container_under_wsl2_gets_both_hints() {
    let (_, f) = explain("corpus/c62b-ollama-docker-wsl2-cuda-init-500.txt");
    assert!(fires(&f, "HINT003") && fires(&f, "HINT010"), "{f:?}");
    // Outside WSL one hint is kept.
    let (_, f) = explain("corpus/c78b-textymcspeechy-rtx4090-cufft-docker.txt");
    assert!(!fires(&f, "HINT003"), "{f:?}");
}

#[test]
fn cuda_s_unknown_error_from_a_decoder_is_no_failed_initialization() {
    let (inv, f) = explain("corpus/c82d-vali-nv12-format-working.txt");
    assert!(!read_kind(&inv, ErrorKind::InitFailed), "{:?}", inv.errors);
    assert_eq!(errors_in(&f, Category::NoDriver), 0);
    // cuInit failing with it is initialization.
    let (inv, _) = explain_text(
        "t",
        "failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error\n",
    );
    assert!(read_kind(&inv, ErrorKind::InitFailed), "{:?}", inv.errors);
    // The runtime API's name for it is read too.
    let (inv, _) = explain_text("t", "cudaFree() -> cudaErrorUnknown (999)\n");
    assert!(read_kind(&inv, ErrorKind::InitFailed), "{:?}", inv.errors);
}

#[test]
fn a_fork_of_an_application_is_not_held_to_its_gpu_floor() {
    let (inv, f) = explain("corpus/c82f-ollama37-k80-docker-uvm.txt");
    assert!(inv.setting.app.is_none(), "{:?}", inv.setting.app);
    assert!(!fires(&f, "ARCH006"), "{f:?}");
    // Ollama itself on a K80 is below its floor.
    let (_, f) = explain_text("t", "GPU 0: Tesla K80\nollama runs on the CPU only\n");
    assert!(fires(&f, "ARCH006"), "{f:?}");
}

#[test]
fn torchvision_built_for_another_cuda_is_an_extension_mismatch() {
    let (inv, f) = explain("corpus/c82b-colab-torch-cu118-torchvision-cu121-pip-index.txt");
    assert!(
        read_kind(&inv, ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
    let e = finding(&f, "ERR026");
    assert!(
        e.message.contains("different CUDA versions"),
        "{}",
        e.message
    );
}

#[test]
fn rocm_under_wsl_is_read_as_wsl_s() {
    let (_, f) = explain("corpus/c79d-wsl-rocm-rdna2-6800xt-comfyui.txt");
    assert!(fires(&f, "PLAT010"), "{f:?}");
    assert!(categories(&f).contains(&Category::AmdRocm), "{f:?}");
    // ROCm on native Linux is no WSL matter.
    let (_, f) = explain("corpus/c79d-rocm17-docker-no-device-privileged.txt");
    assert!(!fires(&f, "PLAT010"), "{f:?}");
    assert!(fires(&f, "CTR007"), "{f:?}");
}

#[test]
fn a_kernel_stopped_by_the_display_watchdog_is_named() {
    let (_, f) = explain_text(
        "t",
        "RuntimeError: CUDA error: the launch timed out and was terminated\n",
    );
    assert_eq!(finding(&f, "ERR089").category, Category::PlatformPosture);
}

#[test]
fn nvrtc_without_its_builtins_library_is_the_loader_path() {
    let (inv, f) =
        explain("corpus/c49b-chainer-2018-sudo-drops-ld-library-path-nvrtc-builtins.txt");
    assert!(
        read_kind(&inv, ErrorKind::NvrtcBuiltinsMissing),
        "{:?}",
        inv.errors
    );
    assert_eq!(finding(&f, "ERR090").category, Category::EnvVar);
    // The error names the CUDA version: the fix names that toolkit's lib64.
    let (_, f) = explain_text(
        "t",
        "nvrtc: error: failed to open libnvrtc-builtins.so.11.1.\n",
    );
    let fix = finding(&f, "ERR090")
        .fix
        .as_ref()
        .and_then(|x| x.command.clone());
    assert_eq!(
        fix.as_deref(),
        Some("export LD_LIBRARY_PATH=/usr/local/cuda-11.1/lib64:$LD_LIBRARY_PATH")
    );
    // On a 2016 Mac, when CUDA still ran there, it is the same path, not macOS.
    let (_, f) = explain("corpus/c83b-openmm-2016-mac-nvrtc-failed-to-load-builtins.txt");
    assert!(fires(&f, "ERR090"), "{f:?}");
    // NVRTC failing to compile source is no missing library.
    let (inv, _) = explain_text(
        "t",
        "nvrtc: error: invalid value for --gpu-architecture (-arch)\n",
    );
    assert!(
        !read_kind(&inv, ErrorKind::NvrtcBuiltinsMissing),
        "{:?}",
        inv.errors
    );
}

#[test]
fn a_package_s_compiled_cuda_module_missing_is_its_extension() {
    let (inv, f) = explain("corpus/c83a-pyllama-colab-quant-cuda-extension-not-built.txt");
    assert!(
        read_kind(&inv, ErrorKind::ExtensionMismatch),
        "{:?}",
        inv.errors
    );
    let e = finding(&f, "ERR026");
    assert!(e.message.contains("not installed"), "{}", e.message);
    // A Python package or torch's own module is no compiled extension.
    for line in [
        "ModuleNotFoundError: No module named 'torch._C'",
        "ModuleNotFoundError: No module named 'numpy'",
        "ModuleNotFoundError: No module named 'cuda'",
    ] {
        let (inv, _) = explain_text("t", line);
        assert!(
            !read_kind(&inv, ErrorKind::ExtensionMismatch),
            "{line}: {:?}",
            inv.errors
        );
    }
    for line in [
        "ModuleNotFoundError: No module named 'mmcv._ext'",
        "ImportError: No module named amp_C",
        "ModuleNotFoundError: No module named 'selective_scan_cuda'",
    ] {
        let (inv, _) = explain_text("t", line);
        assert!(
            read_kind(&inv, ErrorKind::ExtensionMismatch),
            "{line}: {:?}",
            inv.errors
        );
    }
}

#[test]
fn autogptq_without_its_kernels_is_a_warning_about_its_build() {
    let (_, f) = explain("corpus/c83a-autogptq-cuda-extension-not-installed-no-nvcc.txt");
    let e = finding(&f, "ERR026");
    assert_eq!(e.severity, Severity::Warning);
    assert!(e.message.contains("AutoGPTQ"), "{}", e.message);
}

#[test]
fn torchvision_s_image_extension_alone_is_no_error() {
    let (_, f) = explain("corpus/c83b-pytorch-nightly-docker-image-compile-missing-gcc-cuda-h.txt");
    let e = finding(&f, "ERR026");
    assert_eq!(e.severity, Severity::Warning);
    assert_eq!(errors_in(&f, Category::CompiledExtension), 0);
}

#[test]
fn bitsandbytes_without_cuda_on_a_mac_is_macos() {
    let (_, f) = explain("corpus/c83a-h2ogpt-macos-m1-bitsandbytes-cpu-only.txt");
    assert!(fires(&f, "ERR019"), "{f:?}");
    // The same warning on Linux names no platform.
    let (_, f) = explain_text(
        "t",
        "/home/me/venv/lib/python3.10/site-packages/bitsandbytes/cextension.py:34: UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n",
    );
    assert!(!categories(&f).contains(&Category::MacosNoCuda), "{f:?}");
}

#[test]
fn triton_s_invalid_kernel_under_a_cuda_11_driver_is_the_driver() {
    let (_, f) = explain("corpus/c83b-triton-nightly-a10-driver470-kernel-image-invalid.txt");
    let e = finding(&f, "ERR002");
    assert!(e.message.contains("ptxas"), "{}", e.message);
    assert!(!fires(&f, "ERR079"), "{f:?}");
    // Under a CUDA 12 driver the cause is open (ERR079).
    let (_, f) = explain_text(
        "t",
        "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\nRuntimeError: Triton Error [CUDA]: device kernel image is invalid\n",
    );
    assert!(fires(&f, "ERR079"), "{f:?}");
    assert!(!fires(&f, "ERR002"), "{f:?}");
}

#[test]
fn lxc_s_nvidia_mount_hook_failing_is_the_container() {
    for rel in [
        "corpus/c84a-lxd-nvidia-runtime-out-of-distro-driver.txt",
        "corpus/c82f-proxmox-lxc-privileged-nvidia-hook.txt",
    ] {
        let (_, f) = explain(rel);
        let e = finding(&f, "ERR010");
        assert!(e.message.contains("mount hook"), "{rel}: {}", e.message);
    }
    // A mount hook of a container that has nothing to do with NVIDIA.
    let (inv, _) = explain_text("t", "lxc_setup: 3388 Failed to run mount hooks\n");
    assert!(inv.errors.is_empty(), "{:?}", inv.errors);
}

#[test]
fn transformers_refusing_bf16_is_the_gpu_s_architecture() {
    let (_, f) = explain("corpus/c84c-dolly-v100-bf16-trainingargs.txt");
    assert!(categories(&f).contains(&Category::ArchUnsupported), "{f:?}");
}

#[test]
fn llvm_without_an_instruction_for_the_gpu_is_its_architecture() {
    let (_, f) = explain("corpus/c84c-unsloth-titan-xp-triton-llvm-shfl.txt");
    let e = finding(&f, "ERR004");
    assert!(e.message.contains("Cannot select"), "{}", e.message);
    // LLVM's other errors are not this.
    let (inv, _) = explain_text("t", "LLVM ERROR: out of memory\n");
    assert!(
        !read_kind(&inv, ErrorKind::ArchNotCompiled),
        "{:?}",
        inv.errors
    );
}
