//! Containers: started without GPUs, or with an image newer than the host driver.

mod rules_common;

use gpucompat::finding::Severity;
use gpucompat::inventory::{ErrorKind, LibraryInstall};
use gpucompat::rules::container::require_satisfied;
use rules_common::*;

#[test]
fn nvidia_require_cuda_is_evaluated_like_the_container_toolkit() {
    let req = "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471";
    let d470 = "470.82.01".parse().unwrap();
    let d550 = "550.54.14".parse().unwrap();
    let c = |s: &str| Some(s.parse().unwrap());
    let brand = |b: &str| vec![b.to_string()];
    assert_eq!(
        require_satisfied(req, c("12.4"), Some(&d550), &brand("geforce")),
        Some(true)
    );
    assert_eq!(
        require_satisfied(req, c("11.4"), Some(&d470), &brand("geforce")),
        Some(false)
    );
    // The datacenter escape hatch: brand=tesla on the matching LTS branch.
    assert_eq!(
        require_satisfied(req, c("11.4"), Some(&d470), &brand("tesla")),
        Some(true)
    );
    // Unknown brand: the cuda clause fails, the brand clauses can't be decided.
    assert_eq!(require_satisfied(req, c("11.4"), Some(&d470), &[]), None);
    assert_eq!(
        require_satisfied("cuda>=12.2", c("12.2"), None, &[]),
        Some(true)
    );
}

#[test]
fn a_container_without_gpu_expectations_is_quiet() {
    let inv = B::linux().container("docker").build();
    assert!(fired(&inv, "CTR001").is_empty());
    // A container without device nodes but with a CUDA image env fires.
    let inv = B::linux()
        .container("docker")
        .env_var("CUDA_VERSION", "12.4.1")
        .build();
    let e = fired(&inv, "CTR001");
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].fix.as_ref().unwrap().command.as_deref(),
        Some("docker run --gpus all IMAGE")
    );
}

#[test]
fn a_start_the_runtime_refused_is_not_a_container_without_gpus() {
    // nvidia-docker / nvidia-container-cli refused the image: no container ran, so its
    // missing device nodes say nothing and `--gpus` is not the fix.
    let inv = B::linux()
        .container("docker")
        .env_var("NVIDIA_REQUIRE_CUDA", "cuda>=7.5")
        .error(
            ErrorKind::ContainerRequirementUnsatisfied,
            "Error: unsupported CUDA version: driver 7.0 < image 7.5",
        )
        .build();
    assert!(fired(&inv, "CTR001").is_empty());
    // The same container with another error still lacks its GPUs.
    let inv = B::linux()
        .container("docker")
        .env_var("NVIDIA_REQUIRE_CUDA", "cuda>=7.5")
        .error(
            ErrorKind::NoVisibleDevices,
            "RuntimeError: No CUDA GPUs are available",
        )
        .build();
    assert_eq!(fired(&inv, "CTR001").len(), 1);
}

#[test]
fn kubernetes_gets_a_pod_spec_fix() {
    let inv = B::linux()
        .container("containerd")
        .env_var("CUDA_VERSION", "12.4.1")
        .with(|i| i.container.kubernetes = f(true, "KUBERNETES_SERVICE_HOST"))
        .build();
    let e = fired(&inv, "CTR001");
    assert!(e[0]
        .fix
        .as_ref()
        .unwrap()
        .note
        .as_deref()
        .unwrap()
        .contains("nvidia.com/gpu"));
}

#[test]
fn image_cuda_in_the_same_major_is_minor_compat() {
    let inv = B::linux()
        .container("docker")
        .driver("535.104.05", Some("12.2"))
        .gpu("NVIDIA GeForce RTX 3090")
        .env_var("CUDA_VERSION", "12.4.1")
        .build();
    let w = fired(&inv, "CTR002");
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("minor-version compatibility"));
}

#[test]
fn forward_compat_needs_a_datacenter_gpu_and_the_compat_libraries() {
    let base = || {
        B::linux()
            .container("docker")
            .driver("535.104.05", Some("12.2"))
            .env_var("CUDA_VERSION", "13.0.1")
    };
    let geforce = base().gpu("NVIDIA GeForce RTX 3090").build();
    let e = fired(&geforce, "CTR002");
    assert_eq!(e[0].severity, Severity::Error);
    assert!(
        e[0].message.contains("only on datacenter GPUs"),
        "{}",
        e[0].message
    );
    let h100 = base()
        .gpu("NVIDIA H100 80GB HBM3")
        .with(|i| {
            i.libraries.cuda_compat.push(LibraryInstall {
                path: "/usr/local/cuda-13.0/compat/libcuda.so.580.82.07".into(),
                version: gpucompat::inventory::Fact::new(
                    "580.82.07".into(),
                    "/usr/local/cuda-13.0/compat",
                ),
                built_for_cuda: None,
            })
        })
        .build();
    let w = fired(&h100, "CTR002");
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("forward compatibility"));
}
