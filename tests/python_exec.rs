//! `--exec-python` against fixture interpreters: shell scripts that print
//! what the inventory script prints, or fail as a broken Python does.

use std::path::{Path, PathBuf};

use gpucompat::inventory::PythonEnv;
use gpucompat::probe::python::discover;
use gpucompat::probe::ProbeOptions;
use gpucompat::system::Host;
use gpucompat::version::{ComputeCapability, CudaVersion};

fn run() -> (Vec<PythonEnv>, Vec<gpucompat::inventory::Note>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python/exec");
    let opts = ProbeOptions {
        python: ["/envs/gpu", "/envs/old-driver", "/envs/broken"]
            .iter()
            .map(PathBuf::from)
            .collect(),
        exec_python: true,
        allow_root_code: true,
        ..Default::default()
    };
    discover(&Host::new(root), &opts)
}

fn env<'a>(envs: &'a [PythonEnv], path: &str) -> &'a PythonEnv {
    envs.iter().find(|e| e.path == path).unwrap()
}

#[test]
fn a_working_gpu_python() {
    let (envs, _) = run();
    let e = env(&envs, "/envs/gpu");
    let rt = e.runtime.as_ref().expect("runtime facts");
    let src = "python:/envs/gpu/bin/python3";
    let ok = rt.cuda_available.as_ref().unwrap();
    assert!(ok.value);
    assert_eq!(ok.source, src);
    assert_eq!(rt.device_count.as_ref().unwrap().value, 1);
    let gpu = &rt.devices[0];
    assert_eq!(gpu.name.as_ref().unwrap().value, "NVIDIA H200");
    assert_eq!(
        gpu.compute_capability.as_ref().unwrap().value,
        ComputeCapability::new(9, 0)
    );
    assert_eq!(gpu.memory_mib.as_ref().unwrap().value, 143771);
    let mm = rt.matmul_ok.as_ref().unwrap();
    assert!(mm.value);
    assert!(mm.note.as_deref().unwrap().contains("7.812e-3"), "{mm:?}");
    assert_eq!(rt.exception, None);
    assert_eq!(
        rt.torch_version.as_ref().unwrap().value.as_deref(),
        Some("2.5.1+cu124")
    );
    assert_eq!(
        rt.torch_cuda.as_ref().unwrap().value,
        Some("12.4".parse::<CudaVersion>().unwrap())
    );
    // The static facts stay; the arch list comes from the running torch.
    let t = e.torch.as_ref().unwrap();
    assert!(t
        .cuda
        .as_ref()
        .unwrap()
        .source
        .ends_with("torch/version.py"));
    let arch = t.arch_list.as_ref().unwrap();
    assert_eq!(arch.source, src);
    assert_eq!(arch.value.len(), 7);
    assert_eq!(t.cudnn.as_ref().unwrap().value, "9.1.0.70");
}

#[test]
fn a_driver_too_old_for_the_wheel() {
    let (envs, _) = run();
    let rt = env(&envs, "/envs/old-driver").runtime.clone().unwrap();
    assert!(!rt.cuda_available.unwrap().value);
    assert_eq!(rt.matmul_ok, None);
    let e = rt.exception.unwrap().value;
    assert!(e.starts_with("CUDA initialization: The NVIDIA driver on your system is too old (found version 12040)"), "{e}");
}

#[test]
fn a_broken_python_keeps_the_static_facts() {
    let (envs, notes) = run();
    let e = env(&envs, "/envs/broken");
    assert_eq!(e.runtime, None);
    let b = e.onnxruntime.as_ref().unwrap();
    assert_eq!(b.cuda.as_ref().unwrap().value.to_string(), "12.2");
    let n: Vec<_> = notes
        .iter()
        .filter(|n| n.subject == "/envs/broken/bin/python3")
        .collect();
    assert_eq!(n.len(), 1, "{notes:?}");
    assert!(
        n[0].message
            .contains("exited with status 1: Fatal Python error"),
        "{}",
        n[0].message
    );
    assert!(n[0].message.contains("the facts read from its files stand"));
    // The working ones added no notes.
    assert!(
        notes.iter().all(|n| !n.subject.starts_with("/envs/gpu")),
        "{notes:?}"
    );
}

#[test]
fn no_interpreter_is_run_without_the_flag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python/exec");
    let opts = ProbeOptions {
        python: vec![PathBuf::from("/envs/broken")],
        exec_python: false,
        ..Default::default()
    };
    let (envs, notes) = discover(&Host::new(root), &opts);
    assert_eq!(envs[0].runtime, None);
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn the_interpreter_gives_the_full_python_version() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python/exec");
    let run = |exec_python| {
        let opts = ProbeOptions {
            python: vec![PathBuf::from("/opt/sys/bin/python3")],
            exec_python,
            allow_root_code: true,
            ..Default::default()
        };
        let (envs, notes) = discover(&Host::new(&root), &opts);
        assert!(
            notes.iter().all(|n| n.subject == "--exec-python"),
            "{notes:?}"
        );
        env(&envs, "/opt/sys").clone()
    };
    let v = run(false).python_version.unwrap();
    assert_eq!(v.value, "3.12");
    assert!(v.note.is_some());
    let e = run(true);
    let v = e.python_version.unwrap();
    assert_eq!(
        (v.value.as_str(), v.source.as_str()),
        ("3.12.8", "python:/opt/sys/bin/python3")
    );
    let t = e.runtime.unwrap().torch_version.unwrap();
    assert_eq!(t.value, None);
    assert_eq!(e.torch, None);
}
