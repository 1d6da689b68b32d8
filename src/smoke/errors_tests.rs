//! Tests of the smoke findings, their codes and their observed errors.

use std::time::Duration;

use super::*;
use crate::finding::Category;
use crate::inventory::ErrorKind;
use crate::smoke::gemm::Comparison;
use crate::version::{ComputeCapability, CudaVersion};

fn ctx() -> Context {
    Context::default()
}

/// Every code the smoke test diagnoses: rule, category and shared kind.
#[test]
fn cuda_codes_map_to_rules_categories_and_kinds() {
    let table: &[(i32, &str, Category, ErrorKind)] = &[
        (
            2,
            "SMK015",
            Category::PlatformPosture,
            ErrorKind::OutOfMemory,
        ),
        (3, "SMK005", Category::NoDriver, ErrorKind::InitFailed),
        (4, "SMK005", Category::NoDriver, ErrorKind::InitFailed),
        (34, "SMK003", Category::EnvVar, ErrorKind::StubLibrary),
        (
            35,
            "SMK006",
            Category::DriverTooOld,
            ErrorKind::InsufficientDriver,
        ),
        (
            36,
            "SMK006",
            Category::DriverTooOld,
            ErrorKind::CallRequiresNewerDriver,
        ),
        (46, "SMK012", Category::PlatformPosture, ErrorKind::Other),
        (100, "SMK010", Category::NoDriver, ErrorKind::NoDevice),
        (
            209,
            "SMK013",
            Category::ArchUnsupported,
            ErrorKind::NoKernelImage,
        ),
        (
            222,
            "SMK014",
            Category::DriverTooOld,
            ErrorKind::UnsupportedPtx,
        ),
        (702, "SMK016", Category::PlatformPosture, ErrorKind::Timeout),
        (
            802,
            "SMK009",
            Category::FabricManager,
            ErrorKind::SystemNotReady,
        ),
        (
            803,
            "SMK008",
            Category::DriverLibraryMismatch,
            ErrorKind::SystemDriverMismatch,
        ),
        (
            804,
            "SMK007",
            Category::DriverTooOld,
            ErrorKind::CompatNotSupported,
        ),
        (909, "SMK016", Category::PlatformPosture, ErrorKind::Timeout),
        (999, "SMK005", Category::NoDriver, ErrorKind::InitFailed),
    ];
    for &(code, smk, cat, kind) in table {
        let (rule, k) = classify_cuda(code, "cuMemAlloc_v2", &ctx());
        assert_eq!(
            (rule.code, rule.category, k),
            (smk, cat, kind),
            "CUDA {code}"
        );
        assert!(cuda_error_name(code).is_some(), "CUDA {code} has a name");
        // The finding carries the same rule and category.
        let f = finding(
            &Failure::Cuda {
                call: "cuMemAlloc_v2",
                code,
                name: None,
                text: None,
                device: Some(0),
            },
            &ctx(),
        );
        assert_eq!((f.code.as_str(), f.category), (smk, cat), "CUDA {code}");
        assert_eq!(f.severity, Severity::Error);
        assert!(f.fix.is_some(), "CUDA {code} has a fix");
        let o = observed(
            &Failure::Cuda {
                call: "cuMemAlloc_v2",
                code,
                name: None,
                text: None,
                device: Some(0),
            },
            &ctx(),
        )
        .unwrap();
        assert_eq!((o.kind, o.code), (kind, Some(i64::from(code))));
    }
}

#[test]
fn unknown_codes_depend_on_the_call() {
    let (r, k) = classify_cuda(12345, "cuInit", &ctx());
    assert_eq!((r.code, k), ("SMK005", ErrorKind::InitFailed));
    let (r, k) = classify_cuda(700, "cuCtxSynchronize", &ctx());
    assert_eq!((r.code, k), ("SMK018", ErrorKind::Other));
    let f = finding(
        &Failure::Cuda {
            call: "cuCtxSynchronize",
            code: 12345,
            name: None,
            text: None,
            device: None,
        },
        &ctx(),
    );
    assert!(f.message.contains("CUDA error (12345)"), "{}", f.message);
}

#[test]
fn no_device_blames_cuda_visible_devices_only_when_it_hides_gpus() {
    let mut c = ctx();
    // Unset: the machine has no GPU (or the container got none).
    assert_eq!(classify_cuda(100, "cuInit", &c).0.code, "SMK010");
    // Empty or "-1": hides every GPU, whatever is on the bus.
    for v in ["", " ", "-1", "-1,0", "none", "NoDevFiles"] {
        c.visible_devices = Some(v.into());
        let (r, k) = classify_cuda(100, "cuInit", &c);
        assert_eq!(
            (r.code, r.category, k),
            ("SMK011", Category::EnvVar, ErrorKind::NoVisibleDevices),
            "{v:?}"
        );
    }
    // A plausible index with no GPU on the bus: the hardware is missing, not hidden.
    c.visible_devices = Some("0".into());
    assert_eq!(classify_cuda(100, "cuInit", &c).0.code, "SMK010");
    // The same index with GPUs on the bus: the variable is to blame.
    c.gpus_on_bus = true;
    assert_eq!(classify_cuda(100, "cuInit", &c).0.code, "SMK011");
    let f = finding(&Failure::NoDevices, &c);
    assert_eq!(f.code, "SMK011");
    assert_eq!(
        f.fix.unwrap().command.as_deref(),
        Some("unset CUDA_VISIBLE_DEVICES")
    );
    assert_eq!(
        observed(&Failure::NoDevices, &c).unwrap().kind,
        ErrorKind::NoVisibleDevices
    );
}

#[test]
fn cublas_statuses_map_to_rules() {
    let mut c = ctx();
    c.driver_cuda = Some(CudaVersion::new(11, 4));
    let v12 = Some("12.4.5".to_string());
    let v11 = Some("11.8.0".to_string());
    // cuBLAS 12 on a CUDA 11.4 driver: the driver is too old.
    let (r, k) = classify_cublas(1, &v12, &c);
    assert_eq!(
        (r.code, r.category, k),
        (
            "SMK021",
            Category::DriverTooOld,
            ErrorKind::InsufficientDriver
        )
    );
    // cuBLAS 11 on the same driver: some other initialisation failure.
    let (r, k) = classify_cublas(1, &v11, &c);
    assert_eq!((r.code, k), ("SMK020", ErrorKind::InitFailed));
    // Unknown cuBLAS version: no claim about the driver.
    assert_eq!(classify_cublas(1, &None, &c).0.code, "SMK020");
    assert_eq!(
        classify_cublas(3, &v12, &c),
        (&GPU_OUT_OF_MEMORY, ErrorKind::OutOfMemory)
    );
    assert_eq!(
        classify_cublas(8, &v12, &c),
        (&NO_KERNEL_IMAGE, ErrorKind::NoKernelImage)
    );
    assert_eq!(
        classify_cublas(13, &v12, &c),
        (&CUBLAS_FAILED, ErrorKind::Other)
    );
    for s in [1, 3, 7, 8, 11, 13, 14, 15, 16] {
        assert!(cublas_status_name(s).is_some(), "status {s}");
    }
    let f = finding(
        &Failure::Cublas {
            call: "cublasCreate_v2",
            status: 1,
            device: Some(0),
            version: v12.clone(),
        },
        &c,
    );
    assert_eq!(f.code, "SMK021");
    assert!(
        f.message.contains("needs a driver for CUDA 12"),
        "{}",
        f.message
    );
    assert!(f.message.contains("CUDA 11.4 at most"), "{}", f.message);
    // cuBLAS statuses never pose as CUDA error codes.
    let o = observed(
        &Failure::Cublas {
            call: "cublasGemmEx",
            status: 13,
            device: Some(0),
            version: v12,
        },
        &c,
    )
    .unwrap();
    assert_eq!(o.code, None);
    assert!(o.text.contains("CUBLAS_STATUS_EXECUTION_FAILED (13)"));
}

#[test]
fn missing_libcuda_is_a_clear_no_driver_finding() {
    let tried = vec![(
        "libcuda.so.1".to_string(),
        "libcuda.so.1: cannot open shared object file: No such file or directory".to_string(),
    )];
    let f = finding(
        &Failure::LibcudaMissing {
            tried: tried.clone(),
            overridden: false,
            wsl: false,
        },
        &ctx(),
    );
    assert_eq!(f.code, "SMK001");
    assert_eq!(f.category, Category::NoDriver);
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.message, "no CUDA driver: libcuda.so.1 cannot be loaded");
    assert!(f.evidence[0].value.contains("No such file"));
    let o = observed(
        &Failure::LibcudaMissing {
            tried: tried.clone(),
            overridden: false,
            wsl: false,
        },
        &ctx(),
    )
    .unwrap();
    assert_eq!(o.kind, ErrorKind::LibcudaMissing);

    // Under WSL the advice is about the Windows driver.
    let f = finding(
        &Failure::LibcudaMissing {
            tried: tried.clone(),
            overridden: false,
            wsl: true,
        },
        &ctx(),
    );
    assert_eq!((f.code.as_str(), f.category), ("SMK002", Category::Wsl));
    assert_eq!(
        observed(
            &Failure::LibcudaMissing {
                tried,
                overridden: false,
                wsl: true
            },
            &ctx()
        )
        .unwrap()
        .kind,
        ErrorKind::WslLibcuda
    );

    // A user-named library that does not load says so.
    let f = finding(
        &Failure::LibcudaMissing {
            tried: vec![("/opt/x/libcuda.so".into(), "nope".into())],
            overridden: true,
            wsl: true,
        },
        &ctx(),
    );
    assert_eq!(f.code, "SMK001");
    assert!(f.message.contains("/opt/x/libcuda.so (GPUCOMPAT_LIBCUDA)"));
}

#[test]
fn findings_cite_the_driver_and_the_gpu() {
    let c = Context {
        driver_library: Some("libcuda.so.1".into()),
        driver_cuda: Some(CudaVersion::new(12, 4)),
        devices: vec![(
            0,
            Some("NVIDIA H100 80GB HBM3".into()),
            Some(ComputeCapability::new(9, 0)),
        )],
        ..Context::default()
    };
    let f = finding(
        &Failure::Cuda {
            call: "cuModuleLoadData",
            code: 209,
            name: Some("CUDA_ERROR_NO_BINARY_FOR_GPU".into()),
            text: Some("no kernel image is available for execution on the device".into()),
            device: Some(0),
        },
        &c,
    );
    assert_eq!(f.code, "SMK013");
    assert!(f
        .message
        .starts_with("cuModuleLoadData failed on GPU 0: CUDA_ERROR_NO_BINARY_FOR_GPU (209)"));
    let facts: Vec<(&str, &str)> = f
        .evidence
        .iter()
        .map(|e| (e.fact.as_str(), e.value.as_str()))
        .collect();
    assert!(
        facts.contains(&("driver's CUDA version", "12.4")),
        "{facts:?}"
    );
    assert!(
        facts.contains(&("GPU 0 name", "NVIDIA H100 80GB HBM3")),
        "{facts:?}"
    );
    assert!(
        facts.contains(&("GPU 0 compute capability", "9.0 (sm_90)")),
        "{facts:?}"
    );
}

#[test]
fn the_rest_of_the_failures_have_findings() {
    let c = ctx();
    let t = finding(
        &Failure::Timeout {
            step: "cuCtxSynchronize".into(),
            device: Some(1),
            after: Duration::from_secs(3),
        },
        &c,
    );
    assert_eq!(t.code, "SMK016");
    assert!(t
        .message
        .contains("cuCtxSynchronize on GPU 1 did not return within 3.0 s"));
    let cmp = Comparison {
        max_abs_err: 2.5,
        non_finite: 0,
        wrong: 7,
        first_wrong: Some((0, 3, 1.0, 3.5)),
        size_mismatch: false,
    };
    let w = finding(
        &Failure::WrongResult {
            device: 0,
            backend: "cublas",
            cmp,
            tolerance: 0.01,
        },
        &c,
    );
    assert_eq!((w.code.as_str(), w.severity), ("SMK017", Severity::Error));
    let info = finding(
        &Failure::CublasMissing {
            tried: vec![("libcublas.so.12".into(), "x".into())],
            required: false,
        },
        &c,
    );
    assert_eq!(
        (info.code.as_str(), info.severity),
        ("SMK019", Severity::Info)
    );
    assert!(observed(
        &Failure::CublasMissing {
            tried: vec![],
            required: false
        },
        &c
    )
    .is_none());
    let req = finding(
        &Failure::CublasMissing {
            tried: vec![],
            required: true,
        },
        &c,
    );
    assert_eq!(req.severity, Severity::Error);
    assert_eq!(
        observed(
            &Failure::CublasMissing {
                tried: vec![],
                required: true
            },
            &c
        )
        .unwrap()
        .kind,
        ErrorKind::CudaLibraryMissing
    );
    let live = finding(
        &Failure::NotLive {
            root: "/img".into(),
        },
        &c,
    );
    assert_eq!(
        (live.code.as_str(), live.severity),
        ("SMK022", Severity::Warning)
    );
    assert!(live.message.starts_with("smoke needs the live machine"));
    assert!(observed(
        &Failure::NotLive {
            root: "/img".into()
        },
        &c
    )
    .is_none());
    let sym = finding(
        &Failure::SymbolMissing {
            library: "x.so".into(),
            symbol: "cuInit".into(),
        },
        &c,
    );
    assert_eq!(
        (sym.code.as_str(), sym.category),
        ("SMK004", Category::DriverTooOld)
    );
}
