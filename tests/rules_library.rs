//! cuDNN, TensorRT, ONNX Runtime and mixed CUDA pieces.

mod rules_common;

use gpucompat::finding::Severity;
use rules_common::*;

#[test]
fn onnxruntime_gpu_without_any_cudnn_is_a_warning() {
    let inv = B::linux()
        .package("onnxruntime-gpu", "1.20.1")
        .framework("onnxruntime", "1.20.1", Some("12.2"), Some("9.1"))
        .package("nvidia-cuda-runtime-cu12", "12.4.127")
        .build();
    let w = fired(&inv, "LIB001");
    assert_eq!(w[0].severity, Severity::Warning);
    assert_eq!(
        w[0].fix.as_ref().unwrap().command.as_deref(),
        Some("pip install \"nvidia-cudnn-cu12==9.*\"")
    );
}

#[test]
fn a_system_cudnn_of_the_right_major_is_enough() {
    let inv = B::linux()
        .package("onnxruntime-gpu", "1.20.1")
        .framework("onnxruntime", "1.20.1", Some("12.2"), None)
        .with(|i| {
            i.libraries
                .cudnn
                .push(lib("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0", "9.1.0"))
        })
        .build();
    assert!(fired(&inv, "LIB001").is_empty());
}

#[test]
fn torch_only_cares_about_a_conflicting_cudnn_wheel() {
    let torch = |pkg: Option<(&str, &str)>| {
        let mut b = B::linux().torch("2.5.1+cu124", Some("12.4")).with(|i| {
            if let Some(t) = i.python[0].torch.as_mut() {
                t.cudnn = f("90100".into(), "python:/home/ana/.venv/bin/python");
            }
        });
        if let Some((n, v)) = pkg {
            b = b.package(n, v);
        }
        b.build()
    };
    assert!(fired(&torch(None), "LIB001").is_empty());
    assert!(fired(&torch(Some(("nvidia-cudnn-cu12", "9.1.0.70"))), "LIB001").is_empty());
    assert_eq!(
        fired(&torch(Some(("nvidia-cudnn-cu12", "8.9.2.26"))), "LIB001").len(),
        1
    );
}

#[test]
fn onnxruntime_gpu_fix_uses_its_extras_when_the_release_has_them() {
    let inv = B::linux()
        .package("onnxruntime-gpu", "1.22.0")
        .package("nvidia-cuda-runtime-cu11", "11.8.89")
        .build();
    let e = fired(&inv, "LIB006");
    assert_eq!(
        e[0].fix.as_ref().unwrap().command.as_deref(),
        Some("pip install \"onnxruntime-gpu[cuda,cudnn]==1.22.0\"")
    );
    // 1.20.x publishes no extras: the fix says what to install in words.
    let inv = B::linux()
        .package("onnxruntime-gpu", "1.20.1")
        .package("nvidia-cuda-runtime-cu11", "11.8.89")
        .build();
    let fx = fired(&inv, "LIB006")[0].fix.clone().unwrap();
    assert!(fx.command.is_none());
    assert!(fx.note.unwrap().contains("onnxruntime-gpu==1.18.1"));
    // A CUDA 11 build next to CUDA 11 runtime wheels is quiet.
    let ok = B::linux()
        .package("onnxruntime-gpu", "1.18.1")
        .package("nvidia-cuda-runtime-cu11", "11.8.89")
        .build();
    assert!(fired(&ok, "LIB006").is_empty());
}

#[test]
fn tensorrt_fix_keeps_the_version() {
    let e = fired(&firing("LIB002"), "LIB002");
    assert_eq!(
        e[0].fix.as_ref().unwrap().command.as_deref(),
        Some("pip install tensorrt-cu12==10.0.1")
    );
}

#[test]
fn wheels_another_framework_needs_are_not_stray() {
    let inv = B::linux()
        .torch("2.5.1+cu121", Some("12.1"))
        .package("nvidia-cudnn-cu12", "9.1.0.70")
        .package("nvidia-cudnn-cu11", "8.5.0.96")
        .package("onnxruntime-gpu", "1.18.1")
        .framework("onnxruntime", "1.18.1", Some("11.8"), Some("8"))
        .build();
    assert!(
        fired(&inv, "LIB008").is_empty(),
        "{:?}",
        fired(&inv, "LIB008")
    );
}
