//! Binary (SASS/PTX) compatibility per GPU, driver-branch and CUDA-major drops.

mod rules_common;

use gpucompat::finding::Severity;
use rules_common::*;

fn arch_codes(inv: &gpucompat::inventory::Inventory) -> Vec<String> {
    codes(inv)
        .into_iter()
        .filter(|c| c.starts_with("ARCH"))
        .collect()
}

#[test]
fn rtx_4090_with_an_sm86_sm90_wheel_has_no_arch_finding() {
    let inv = B::linux()
        .driver("550.54.14", Some("12.4"))
        .gpu("NVIDIA GeForce RTX 4090")
        .torch("2.5.1+cu124", Some("12.4"))
        .torch_arch("sm_86;sm_90")
        .build();
    assert!(arch_codes(&inv).is_empty(), "{:?}", codes(&inv));
}

#[test]
fn the_kb_arch_list_is_used_when_python_did_not_report_one() {
    let inv = B::linux()
        .driver("570.124.04", Some("12.8"))
        .gpu("NVIDIA GeForce RTX 5090")
        .torch("2.6.0+cu124", Some("12.4"))
        .build();
    let e = fired(&inv, "ARCH001");
    assert_eq!(e.len(), 1);
    assert!(e[0]
        .evidence
        .iter()
        .any(|x| x.source.contains("torch_arch")));
    // The fix moves to a release verified to carry sm_120 that this driver runs.
    let cmd = e[0]
        .fix
        .as_ref()
        .and_then(|f| f.command.clone())
        .unwrap_or_default();
    assert!(
        cmd.contains("--index-url https://download.pytorch.org/whl/cu128"),
        "{cmd}"
    );
    // A cu128 build of a release with sm_120 is quiet.
    let ok = B::linux()
        .driver("570.124.04", Some("12.8"))
        .gpu("NVIDIA GeForce RTX 5090")
        .torch("2.8.0+cu128", Some("12.8"))
        .build();
    assert!(arch_codes(&ok).is_empty(), "{:?}", codes(&ok));
}

#[test]
fn arch_specific_and_family_targets() {
    let h100 = |list: &str| {
        B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA H100 80GB HBM3")
            .torch("2.5.1+cu124", Some("12.4"))
            .torch_arch(list)
            .build()
    };
    assert!(arch_codes(&h100("sm_90a")).is_empty());
    assert_eq!(fired(&h100("sm_86 sm_89"), "ARCH001").len(), 1);
    // compute_90a is PTX for exactly 9.0: no JIT to newer GPUs.
    let b200 = B::linux()
        .driver("570.124.04", Some("12.8"))
        .gpu("NVIDIA B200")
        .torch("2.8.0+cu128", Some("12.8"))
        .torch_arch("sm_90a compute_90a")
        .build();
    assert_eq!(fired(&b200, "ARCH001").len(), 1);
    let b300 = B::linux()
        .driver("580.65.06", Some("13.0"))
        .gpu("NVIDIA B300 SXM6 AC")
        .torch("2.9.0+cu130", Some("13.0"))
        .torch_arch("sm_100f")
        .build();
    assert!(arch_codes(&b300).is_empty(), "{:?}", codes(&b300));
    let rtx5090 = B::linux()
        .driver("580.65.06", Some("13.0"))
        .gpu("NVIDIA GeForce RTX 5090")
        .torch("2.9.0+cu130", Some("13.0"))
        .torch_arch("sm_100f")
        .build();
    assert_eq!(fired(&rtx5090, "ARCH001").len(), 1);
}

#[test]
fn ptx_only_is_a_warning_and_not_an_error() {
    let inv = firing("ARCH002");
    let w = fired(&inv, "ARCH002");
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(fired(&inv, "ARCH001").is_empty());
}

#[test]
fn each_environment_is_checked() {
    let inv = B::linux()
        .driver("570.124.04", Some("12.8"))
        .gpu("NVIDIA GeForce RTX 5090")
        .torch("2.8.0+cu128", Some("12.8"))
        .with(|i| {
            let mut other = i.python[0].clone();
            other.path = "/opt/conda/envs/old".into();
            other.active = false;
            other.interpreter = Some("/opt/conda/envs/old/bin/python".into());
            if let Some(t) = other.torch.as_mut() {
                t.version = f(
                    "2.4.1+cu121".into(),
                    "/opt/conda/envs/old/lib/python3.11/site-packages/torch/version.py",
                );
                t.cuda = f(
                    Some("12.1".parse().unwrap()),
                    "/opt/conda/envs/old/lib/python3.11/site-packages/torch/version.py",
                );
            }
            i.python.push(other);
        })
        .build();
    let e = fired(&inv, "ARCH001");
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("/opt/conda/envs/old"));
    // The fix targets that environment's own interpreter.
    let cmd = e[0]
        .fix
        .as_ref()
        .and_then(|f| f.command.clone())
        .unwrap_or_default();
    assert!(
        cmd.starts_with("/opt/conda/envs/old/bin/python -m pip install"),
        "{cmd}"
    );
}

#[test]
fn kepler_after_r470_and_hopper_before_r520() {
    let k80 = B::linux()
        .driver("535.104.05", Some("12.2"))
        .gpu("Tesla K80")
        .build();
    let e = fired(&k80, "ARCH003");
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("R470"));
    let ok = B::linux()
        .driver("470.82.01", Some("11.4"))
        .gpu("Tesla K80")
        .build();
    assert!(fired(&ok, "ARCH003").is_empty());
}

#[test]
fn cuda_13_drops_pascal_for_any_framework() {
    let inv = B::linux()
        .driver("580.65.06", Some("13.0"))
        .gpu("NVIDIA GeForce GTX 1080")
        .package("onnxruntime-gpu", "1.31.0")
        .framework("onnxruntime", "1.31.0", Some("13.0"), Some("9"))
        .build();
    let e = fired(&inv, "ARCH004");
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("12.9"), "{}", e[0].message);
    // A known torch arch list is ARCH001's to judge, not ARCH004's.
    let inv = B::linux()
        .driver("580.65.06", Some("13.0"))
        .gpu("NVIDIA GeForce GTX 1080")
        .torch("2.9.0+cu130", Some("13.0"))
        .build();
    assert!(fired(&inv, "ARCH004").is_empty());
    assert_eq!(fired(&inv, "ARCH001").len(), 1);
}

#[test]
fn an_aarch64_machine_reads_the_aarch64_wheels_arch_list() {
    // The linux-aarch64 (SBSA) cu128 wheels of torch 2.10 carry sm_80..sm_120 only: no
    // kernel for a T4 (sm_75), which the x86_64 wheel of the same version does carry.
    let t4 = |arch: &'static str| {
        B::linux()
            .driver("580.65.06", Some("13.0"))
            .gpu("Tesla T4")
            .torch("2.10.0+cu128", Some("12.8"))
            .with(move |i| i.os.arch = f(arch.into(), "uname -m"))
            .build()
    };
    let e = fired(&t4("aarch64"), "ARCH001");
    assert_eq!(e.len(), 1, "{:?}", codes(&t4("aarch64")));
    assert!(e[0]
        .evidence
        .iter()
        .any(|x| x.source.contains("linux-aarch64")));
    assert!(fired(&t4("x86_64"), "ARCH001").is_empty());
    // A version with no aarch64 row: the list is unknown there, never the x86_64 one.
    let inv = B::linux()
        .driver("580.65.06", Some("13.0"))
        .gpu("Tesla T4")
        .torch("2.8.0+cu128", Some("12.8"))
        .with(|i| i.os.arch = f("aarch64".into(), "uname -m"))
        .build();
    assert!(fired(&inv, "ARCH001").is_empty());
}

#[test]
fn a_windows_machine_reads_the_windows_wheels_arch_list() {
    // The Windows cu128 wheels of torch 2.7 keep sm_50..sm_90 beside sm_100/sm_120, while the
    // Linux x86_64 ones start at sm_75: a GTX 1080 (sm_61) has kernels on Windows only.
    let gtx1080 = |b: B, torch: &str| {
        b.driver("576.02", Some("12.9"))
            .gpu("NVIDIA GeForce GTX 1080")
            .torch(torch, Some("12.8"))
            .build()
    };
    let win = gtx1080(B::windows(), "2.7.1+cu128");
    assert!(fired(&win, "ARCH001").is_empty(), "{:?}", codes(&win));
    assert_eq!(
        fired(&gtx1080(B::linux(), "2.7.1+cu128"), "ARCH001").len(),
        1
    );
    // 2.10's Windows cu128 build starts at sm_70: the finding names the Windows row.
    let e = fired(&gtx1080(B::windows(), "2.10.0+cu128"), "ARCH001");
    assert_eq!(e.len(), 1);
    assert!(e[0]
        .evidence
        .iter()
        .any(|x| x.source.contains("windows-x86_64")));
    // A version with no Windows row: the list is unknown there, never the Linux one.
    let win = gtx1080(B::windows(), "2.8.0+cu128");
    assert!(fired(&win, "ARCH001").is_empty(), "{:?}", codes(&win));
    assert_eq!(
        fired(&gtx1080(B::linux(), "2.8.0+cu128"), "ARCH001").len(),
        1
    );
}

#[test]
fn a_toolkit_older_or_newer_than_the_gpu() {
    use gpucompat::inventory::ErrorKind;
    // Too new a GPU: a warning without an error, naming the first toolkit that targets it.
    let f = fired(&firing("ARCH007"), "ARCH007");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    let note = f[0]
        .fix
        .as_ref()
        .and_then(|x| x.note.clone())
        .unwrap_or_default();
    assert!(note.contains("11.8 or newer"), "{note}");
    assert!(fired(&near_miss("ARCH007"), "ARCH007").is_empty());
    // Too old a GPU (Kepler after CUDA 11), and nvcc's refusal makes it an error.
    let inv = B::linux()
        .gpu("Quadro K2000")
        .toolkit("/usr/local/cuda-12.2", "12.2.140", true)
        .error(
            ErrorKind::ArchNotCompiled,
            "nvcc fatal   : Value 'sm_30' is not defined for option 'gpu-architecture'",
        )
        .build();
    let f = fired(&inv, "ARCH007");
    assert_eq!(f.len(), 1, "{:?}", codes(&inv));
    assert_eq!(f[0].severity, Severity::Error);
    let note = f[0]
        .fix
        .as_ref()
        .and_then(|x| x.note.clone())
        .unwrap_or_default();
    assert!(note.contains("10.2 or older"), "{note}");
    assert!(!codes(&inv).contains(&"ERR004".to_string()));
    // A prebuilt wheel's missing kernel is not the toolkit's doing.
    let inv = B::linux()
        .gpu("NVIDIA GeForce RTX 4090")
        .toolkit("/usr/local/cuda-11.7", "11.7.64", true)
        .torch("1.13.1+cu117", Some("11.7"))
        .error(
            ErrorKind::NoKernelImage,
            "CUDA error: no kernel image is available for execution on the device",
        )
        .build();
    assert!(fired(&inv, "ARCH007").is_empty(), "{:?}", codes(&inv));
}

#[test]
fn a_compiler_refusal_bounds_an_unseen_toolkit() {
    use gpucompat::inventory::ErrorKind;
    // cryoem-uoft/cryosparc-issues#131: CUDA 7.5 asked for a GTX 1080's sm_61.
    let inv = B::linux()
        .gpu("NVIDIA GeForce GTX 1080")
        .error(
            ErrorKind::ArchNotCompiled,
            "nvcc fatal : Value 'sm_61' is not defined for option 'cpu-architecture'",
        )
        .build();
    let f = fired(&inv, "ARCH007");
    assert_eq!(f.len(), 1, "{:?}", codes(&inv));
    assert!(f[0].message.contains("older than 8.0"), "{}", f[0].message);
    assert!(f[0].message.contains("newer than 12.9"), "{}", f[0].message);
    // A refusal that names no architecture says nothing about the toolkit.
    let inv = B::linux()
        .gpu("NVIDIA GeForce GTX 1080")
        .error(
            ErrorKind::ArchNotCompiled,
            "pygpu.gpuarray.GpuArrayException: (b'nvrtcCompileProgram: NVRTC_ERROR_INVALID_OPTION', 3)",
        )
        .build();
    assert!(fired(&inv, "ARCH007").is_empty());
    assert!(codes(&inv).contains(&"ERR004".to_string()));
}

#[test]
fn a_bare_torch_on_windows_is_the_cpu_wheel() {
    use gpucompat::inventory::{Fact, TorchBuild};
    let bare = |b: B, v: &str| {
        b.gpu("NVIDIA GeForce RTX 4070")
            .package("torch", v)
            .with(|i| {
                i.python[0].torch = Some(TorchBuild {
                    version: Some(Fact::new(v.to_string(), "pip list")),
                    ..Default::default()
                })
            })
            .build()
    };
    // PyPI's Windows wheel of 2.5.1 is CPU-only: WHL001 says so.
    let inv = bare(B::windows(), "2.5.1");
    let f = fired(&inv, "WHL001");
    assert_eq!(f.len(), 1, "{:?}", codes(&inv));
    assert!(f[0]
        .evidence
        .iter()
        .any(|e| e.source.contains("PyPI windows-x86_64 wheel")));
    // Its fix installs a CUDA build of the release: the CPU wheel is what is installed.
    let inv = bare(B::windows().driver("560.94", Some("12.6")), "2.5.1");
    let f = fired(&inv, "WHL001");
    let cmd = f[0]
        .fix
        .as_ref()
        .and_then(|x| x.command.clone())
        .unwrap_or_default();
    assert!(cmd.contains("whl/cu124"), "{cmd}");
    // The same bare version on Linux x86_64 is the cu124 wheel.
    let inv = bare(B::linux().driver("550.54.14", Some("12.4")), "2.5.1");
    assert!(fired(&inv, "WHL001").is_empty(), "{:?}", codes(&inv));
}

#[test]
fn applications_below_their_floor() {
    // (app, name in the message, a GPU below its floor, one at or above it).
    // NVIDIA/cuml#2884: a GTX 750 Ti (5.0) asked about for cuML; a Pascal GPU
    // ran RAPIDS up to 23.12. vllm-project/vllm#963: a P100 (6.0); V100 is 7.0.
    for (app, name, below, fits) in [
        (
            "rapids",
            "RAPIDS",
            "NVIDIA GeForce GTX 750 Ti",
            "NVIDIA GeForce GTX 1080",
        ),
        (
            "vllm",
            "vLLM",
            "Tesla P100-PCIE-16GB",
            "Tesla V100-SXM2-16GB",
        ),
    ] {
        let on = |gpu: &str| {
            B::linux()
                .gpu(gpu)
                .with(|i| i.setting.app = f(app.into(), "input line 1"))
                .build()
        };
        let f = fired(&on(below), "ARCH006");
        assert_eq!(f.len(), 1, "{app}");
        assert!(f[0].message.contains(name), "{}", f[0].message);
        assert!(fired(&on(fits), "ARCH006").is_empty(), "{app}");
    }
}

#[test]
fn an_old_toolkit_beside_one_that_targets_the_gpu() {
    let two = || {
        B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .toolkit("/usr/local/cuda-10.2", "10.2.89", true)
            .toolkit("/usr/local/cuda-12.4", "12.4.131", true)
    };
    // Left on disk beside a 12.4 toolkit: nothing to say.
    assert!(fired(&two().build(), "ARCH007").is_empty());
    // CUDA_HOME names the old one: builds take it, and the fix names the other.
    let inv = two().env_var("CUDA_HOME", "/usr/local/cuda-10.2").build();
    let f = fired(&inv, "ARCH007");
    assert_eq!(f.len(), 1, "{:?}", codes(&inv));
    let note = f[0]
        .fix
        .as_ref()
        .and_then(|x| x.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("export CUDA_HOME=/usr/local/cuda-12.4"),
        "{note}"
    );
    // CUDA_HOME wins over CUDA_PATH, as in torch's cpp_extension: a build takes 12.4.
    let inv = two()
        .env_var("CUDA_HOME", "/usr/local/cuda-12.4")
        .env_var("CUDA_PATH", "/usr/local/cuda-10.2")
        .build();
    assert!(fired(&inv, "ARCH007").is_empty(), "{:?}", codes(&inv));
}
