//! A real venv made by `scripts/make-test-venv.sh target/test-venv` (CI runs it
//! before the tests): real pip installs of small wheels, read from disk and
//! then by running the inventory script in its interpreter. Skipped, with a
//! message, when the venv has not been made.

// Tests report measurements and skips on the console.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::{Path, PathBuf};

use gpucompat::inventory::PythonEnv;
use gpucompat::probe::python::{discover, exec_python};
use gpucompat::probe::ProbeOptions;
use gpucompat::system::Host;
use gpucompat::version::CudaVersion;

fn venv() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-venv");
    if dir.join(".ready").exists() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: {} is missing; run scripts/make-test-venv.sh target/test-venv to test a real venv",
            dir.display()
        );
        None
    }
}

/// The live machine, but with nothing of the caller's environment pointing at
/// other Pythons: only `--python DIR` and the system interpreters are found.
fn read(dir: &Path) -> PythonEnv {
    let empty = tempfile::tempdir().unwrap();
    let blank = empty.path().display().to_string();
    let host = Host::new("/").with_env(
        [
            ("PATH", ""),
            ("VIRTUAL_ENV", ""),
            ("CONDA_PREFIX", ""),
            ("CONDA_EXE", ""),
            ("MAMBA_ROOT_PREFIX", ""),
            ("PYENV_VERSION", ""),
            ("PYTHONUSERBASE", ""),
            ("UV_PYTHON_INSTALL_DIR", ""),
            ("XDG_DATA_HOME", ""),
            ("PYENV_ROOT", blank.as_str()),
            ("HOME", blank.as_str()),
            ("PWD", blank.as_str()),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    let opts = ProbeOptions {
        python: vec![dir.to_path_buf()],
        exec_python: false,
        ..Default::default()
    };
    let (envs, _) = discover(&host, &opts);
    let path = dir.display().to_string();
    let mut env = envs
        .into_iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("{path} was not found"));

    let mut notes = Vec::new();
    exec_python(&host, std::slice::from_mut(&mut env), &mut notes);
    assert!(notes.is_empty(), "{notes:?}");
    env
}

#[test]
fn a_real_venv_read_from_disk_and_by_its_python() {
    let Some(dir) = venv() else { return };
    let env = read(&dir);
    assert_eq!(env.kind, gpucompat::inventory::EnvKind::Venv);
    assert!(env.python_version.is_some());

    // From the files pip wrote.
    let cudart = env
        .package("nvidia-cuda-runtime-cu12")
        .expect("nvidia-cuda-runtime-cu12");
    assert_eq!(cudart.version, "12.4.127");
    assert!(cudart
        .source
        .ends_with("nvidia_cuda_runtime_cu12-12.4.127.dist-info/METADATA"));
    let rt = env.cuda_runtime.as_ref().unwrap();
    assert_eq!(rt.value, CudaVersion::new(12, 4));
    let ort = env.package("onnxruntime").expect("onnxruntime");
    let build = env.onnxruntime.as_ref().unwrap();
    assert_eq!(build.version.as_ref().unwrap().value, ort.version);
    assert_eq!(
        build.cuda, None,
        "the CPU onnxruntime wheel has no CUDA build"
    );
    assert!(env.package("numpy").is_none(), "numpy is not an ML package");
    assert!(env.package("pip").is_none());
    assert_eq!(env.torch, None);

    // From running its interpreter: no torch there, reported as such.
    let run = env.runtime.as_ref().expect("the inventory script ran");
    let t = run.torch_version.as_ref().unwrap();
    assert_eq!(t.value, None);
    assert_eq!(t.source, format!("python:{}/bin/python3", dir.display()));
    assert_eq!(run.exception, None);
    assert_eq!(run.cuda_available, None);
}
