//! Python environment discovery and static reading, on fixture roots laid out
//! like real machines (tests/fixtures/python/<scenario>/).

use std::path::{Path, PathBuf};

use gpucompat::inventory::{EnvKind, Note, PythonEnv};
use gpucompat::probe::python::discover;
use gpucompat::probe::ProbeOptions;
use gpucompat::render::python_envs::build_label;
use gpucompat::system::Host;
use gpucompat::version::CudaVersion;

fn root(scenario: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/python")
        .join(scenario)
}

fn probe(scenario: &str, python: &[&str]) -> (Vec<PythonEnv>, Vec<Note>) {
    let opts = ProbeOptions {
        python: python.iter().map(PathBuf::from).collect(),
        exec_python: false,
        ..Default::default()
    };
    discover(&Host::new(root(scenario)), &opts)
}

fn env<'a>(envs: &'a [PythonEnv], path: &str) -> &'a PythonEnv {
    envs.iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("no environment {path} in {:?}", paths(envs)))
}

fn paths(envs: &[PythonEnv]) -> Vec<&str> {
    envs.iter().map(|e| e.path.as_str()).collect()
}

fn names(e: &PythonEnv) -> Vec<&str> {
    e.packages.iter().map(|p| p.name.as_str()).collect()
}

fn cuda(s: &str) -> CudaVersion {
    s.parse().unwrap()
}

fn notes_about<'a>(notes: &'a [Note], needle: &str) -> Vec<&'a Note> {
    notes
        .iter()
        .filter(|n| n.subject.contains(needle) || n.message.contains(needle))
        .collect()
}

#[test]
fn cuda_torch_in_the_active_venv() {
    let (envs, notes) = probe("cuda_torch", &[]);
    assert!(notes.is_empty(), "{notes:?}");
    let e = &envs[0];
    assert_eq!(e.path, "/home/u/proj/.venv");
    assert!(e.active);
    assert_eq!(envs.iter().filter(|e| e.active).count(), 1);
    assert_eq!(e.kind, EnvKind::Venv);
    let v = e.python_version.as_ref().unwrap();
    assert_eq!(
        (v.value.as_str(), v.source.as_str()),
        ("3.12.3", "/home/u/proj/.venv/pyvenv.cfg")
    );
    assert_eq!(
        e.interpreter.as_deref(),
        Some("/home/u/proj/.venv/bin/python3")
    );
    assert_eq!(
        e.site_packages,
        ["/home/u/proj/.venv/lib/python3.12/site-packages"]
    );
    // Only ML packages; numpy and requests are left out.
    assert_eq!(
        names(e),
        [
            "flash-attn",
            "nvidia-cublas-cu12",
            "nvidia-cuda-runtime-cu12",
            "nvidia-cudnn-cu12",
            "nvidia-nccl-cu12",
            "torch",
            "torchvision",
            "triton",
            "xformers"
        ]
    );
    assert!(e.package("xformers").unwrap().editable);
    assert!(
        !e.package("flash-attn").unwrap().editable,
        "a URL install is not editable"
    );
    assert_eq!(e.package("torch").unwrap().version, "2.5.1");
    assert_eq!(
        e.package("torch").unwrap().source,
        "/home/u/proj/.venv/lib/python3.12/site-packages/torch-2.5.1.dist-info/METADATA"
    );

    let t = e.torch.as_ref().unwrap();
    assert_eq!(t.version.as_ref().unwrap().value, "2.5.1+cu124");
    let c = t.cuda.as_ref().unwrap();
    assert_eq!(c.value, Some(cuda("12.4")));
    assert_eq!(
        c.source,
        "/home/u/proj/.venv/lib/python3.12/site-packages/torch/version.py"
    );
    assert_eq!(t.hip.as_ref().unwrap().value, None);
    assert_eq!(
        t.git_version.as_ref().unwrap().value,
        "a8d6afb511a69687bbb2b7e88a3cf67917e1697e"
    );
    assert_eq!(t.cudnn.as_ref().unwrap().value, "9.1.0.70");
    assert_eq!(e.cuda_runtime.as_ref().unwrap().value, cuda("12.4"));
    assert_eq!(e.cudnn.as_ref().unwrap().value, "9.1.0.70");
    assert_eq!(e.onnxruntime, None);
    assert_eq!(e.tensorflow, None);

    let user = envs.iter().find(|e| e.kind == EnvKind::User).unwrap();
    assert_eq!(
        user.site_packages,
        ["/home/u/.local/lib/python3.12/site-packages"]
    );
    assert_eq!(names(user), ["bitsandbytes"]);
    assert_eq!(user.python_version.as_ref().unwrap().value, "3.12");
    let system = env(&envs, "/usr");
    assert_eq!(system.kind, EnvKind::System);
    assert!(system.packages.is_empty());
    assert_eq!(envs.len(), 3, "{:?}", paths(&envs));
}

#[test]
fn cpu_torch_has_no_cuda() {
    let (envs, notes) = probe("cpu_torch", &[]);
    assert!(notes.is_empty(), "{notes:?}");
    let e = &envs[0];
    assert_eq!(e.path, "/home/u/cpu");
    let t = e.torch.as_ref().unwrap();
    assert_eq!(t.version.as_ref().unwrap().value, "2.5.1+cpu");
    // Known to be a CPU wheel: a fact whose value is None, not an unknown.
    assert_eq!(t.cuda.as_ref().unwrap().value, None);
    assert_eq!(t.cudnn, None);
    assert_eq!(e.package("torch").unwrap().version, "2.5.1+cpu");
    assert_eq!(
        build_label(e, e.package("torch").unwrap()).as_deref(),
        Some("CPU only")
    );
    assert_eq!(e.cuda_runtime, None);
}

#[test]
fn rocm_torch_reports_hip() {
    let (envs, _) = probe("rocm_torch", &[]);
    let e = &envs[0];
    let t = e.torch.as_ref().unwrap();
    assert_eq!(t.cuda.as_ref().unwrap().value, None);
    assert_eq!(
        t.hip.as_ref().unwrap().value.as_deref(),
        Some("6.2.41133-dd7f95766")
    );
    assert_eq!(
        build_label(e, e.package("torch").unwrap()).as_deref(),
        Some("ROCm 6.2.41133-dd7f95766")
    );
    assert!(names(e).contains(&"pytorch-triton-rocm"));
}

#[test]
fn torch_next_to_nvidia_wheels_of_another_cuda() {
    let (envs, _) = probe("torch_other_cuda", &[]);
    let e = &envs[0];
    let t = e.torch.as_ref().unwrap();
    assert_eq!(t.cuda.as_ref().unwrap().value, Some(cuda("12.4")));
    // The runtime wheel of torch's major wins over the cu11 one; it is 12.1, not 12.4.
    let rt = e.cuda_runtime.as_ref().unwrap();
    assert_eq!(rt.value, cuda("12.1"));
    assert!(
        rt.source
            .contains("nvidia_cuda_runtime_cu12-12.1.105.dist-info"),
        "{}",
        rt.source
    );
    assert_eq!(e.cudnn.as_ref().unwrap().value, "8.9.2.26");
    assert_eq!(t.cudnn.as_ref().unwrap().value, "8.9.2.26");
    assert_eq!(
        e.package("nvidia-cuda-runtime-cu11").unwrap().version,
        "11.8.89"
    );
}

#[test]
fn onnxruntime_and_onnxruntime_gpu_together() {
    let (envs, notes) = probe("ort_both", &[]);
    let e = &envs[0];
    assert_eq!(e.package("onnxruntime").unwrap().version, "1.20.1");
    assert_eq!(e.package("onnxruntime-gpu").unwrap().version, "1.22.0");
    let b = e.onnxruntime.as_ref().unwrap();
    assert_eq!(b.version.as_ref().unwrap().value, "1.22.0");
    assert_eq!(b.cuda.as_ref().unwrap().value, cuda("12.2"));
    assert_eq!(b.cuda_major.as_ref().unwrap().value, 12);
    assert!(b
        .cuda
        .as_ref()
        .unwrap()
        .source
        .ends_with("onnxruntime/capi/build_and_package_info.py"));
    let conflict = notes_about(&notes, "both installed");
    assert_eq!(conflict.len(), 1, "{notes:?}");
    assert!(
        conflict[0].message.contains("files of onnxruntime-gpu"),
        "{}",
        conflict[0].message
    );
    assert_eq!(
        build_label(e, e.package("onnxruntime").unwrap()).as_deref(),
        Some("installed together with onnxruntime-gpu")
    );
}

/// The provider library in this fixture is a real (tiny) ELF shared object, built with
/// `gcc -shared` against stub libraries whose sonames are libcublas.so.11, libcudnn.so.8
/// and libcudart.so.11.0, as onnxruntime-gpu 1.16's CUDA provider links them.
#[test]
fn onnxruntime_cuda_11_build_from_its_provider_library() {
    let (envs, notes) = probe("ort_cuda11", &[]);
    assert!(notes_about(&notes, "both installed").is_empty());
    assert!(notes.is_empty(), "{notes:?}");
    let e = &envs[0];
    let b = e.onnxruntime.as_ref().unwrap();
    assert_eq!(b.version.as_ref().unwrap().value, "1.16.3");
    // Only the major is recorded: cuda stays unknown, cuda_major says 11.
    assert_eq!(b.cuda, None);
    let m = b.cuda_major.as_ref().unwrap();
    assert_eq!(m.value, 11);
    assert!(m
        .source
        .ends_with("onnxruntime/capi/libonnxruntime_providers_cuda.so"));
    assert_eq!(m.note.as_deref(), Some("from DT_NEEDED libcudart.so.11.0"));
    assert_eq!(b.cudnn.as_ref().unwrap().value, "8");
    assert_eq!(
        build_label(e, e.package("onnxruntime-gpu").unwrap()).as_deref(),
        Some("CUDA 11.x, cuDNN 8")
    );
}

#[test]
fn tensorflow_build_info() {
    let (envs, _) = probe("tensorflow", &[]);
    let b = envs[0].tensorflow.as_ref().unwrap();
    assert_eq!(b.version.as_ref().unwrap().value, "2.18.1");
    assert_eq!(b.cuda.as_ref().unwrap().value.to_string(), "12.5.1");
    assert_eq!(b.cuda_major.as_ref().unwrap().value, 12);
    assert_eq!(b.cudnn.as_ref().unwrap().value, "9");
    assert!(b
        .cuda
        .as_ref()
        .unwrap()
        .source
        .ends_with("tensorflow/python/platform/build_info.py"));
}

#[test]
fn jax_with_its_cuda_12_plugin() {
    let (envs, _) = probe("jax_cuda12", &[]);
    let e = &envs[0];
    let b = e.jax.as_ref().unwrap();
    assert_eq!(b.version.as_ref().unwrap().value, "0.4.35");
    assert_eq!(b.cuda, None, "jax records no exact CUDA version in a file");
    let m = b.cuda_major.as_ref().unwrap();
    assert_eq!(m.value, 12);
    assert_eq!(
        m.note.as_deref(),
        Some("from the package name jax-cuda12-pjrt")
    );
    assert_eq!(e.cuda_runtime.as_ref().unwrap().value, cuda("12.6"));
    assert_eq!(
        build_label(e, e.package("jaxlib").unwrap()).as_deref(),
        Some("CUDA 12.x")
    );
    assert_eq!(
        build_label(e, e.package("jax-cuda12-plugin").unwrap()).as_deref(),
        Some("CUDA 12.x")
    );
}

#[test]
fn conda_layout() {
    let (envs, notes) = probe("conda", &[]);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        paths(&envs),
        [
            "/home/u/miniconda3/envs/ml",
            "/usr",
            "/home/u/miniconda3",
            "/home/u/miniconda3/envs/old"
        ]
    );
    let ml = &envs[0];
    assert!(ml.active);
    assert_eq!(ml.kind, EnvKind::Conda);
    let v = ml.python_version.as_ref().unwrap();
    assert_eq!(v.value, "3.11.9");
    assert!(v
        .source
        .ends_with("conda-meta/python-3.11.9-h955ad1f_0.json"));
    assert_eq!(
        ml.torch.as_ref().unwrap().cuda.as_ref().unwrap().value,
        Some(cuda("12.4"))
    );
    let base = env(&envs, "/home/u/miniconda3");
    assert_eq!((base.kind, base.active), (EnvKind::Conda, false));
    assert_eq!(base.python_version.as_ref().unwrap().value, "3.12.4");
    assert!(
        base.packages.is_empty(),
        "conda itself is not an ML package"
    );
    let old = env(&envs, "/home/u/miniconda3/envs/old");
    assert_eq!(names(old), ["cupy-cuda11x"]);
    assert_eq!(
        build_label(old, &old.packages[0]).as_deref(),
        Some("CUDA 11.x")
    );
}

#[test]
fn venv_whose_base_python_is_gone() {
    let (envs, notes) = probe("broken_venv", &[]);
    let e = &envs[0];
    assert_eq!(e.path, "/srv/app/venv");
    assert!(e.active);
    assert_eq!(e.python_version.as_ref().unwrap().value, "3.9.18");
    let n = notes_about(&notes, "/opt/python3.9/bin");
    assert_eq!(n.len(), 1, "{notes:?}");
    assert_eq!(n[0].subject, "/srv/app/venv");
    assert!(n[0].message.contains("does not exist"));
    // The packages are still read from disk.
    let t = e.torch.as_ref().unwrap();
    assert_eq!(t.version.as_ref().unwrap().value, "1.13.1+cu117");
    assert_eq!(t.cuda.as_ref().unwrap().value, Some(cuda("11.7")));
}

#[test]
fn every_discovery_source_once_active_first() {
    let (envs, notes) = probe("machine", &["/opt/custom/bin/python3", "/nowhere/python"]);
    assert_eq!(
        paths(&envs),
        [
            "/home/u/.pyenv/versions/3.11.9",
            "/usr",
            "/opt/custom",
            "/home/u/work/.venv",
            "/home/u/.pyenv/versions/3.12.7",
            "/home/u/.pyenv/versions/3.12.7/envs/tools",
            "/home/u/.local/share/uv/python/cpython-3.13.0-linux-x86_64-gnu",
            "/home/u/.local",
        ]
    );
    let kinds: Vec<EnvKind> = envs.iter().map(|e| e.kind).collect();
    use EnvKind::*;
    assert_eq!(kinds, [Pyenv, System, System, Venv, Pyenv, Venv, Uv, User]);
    assert_eq!(envs.iter().filter(|e| e.active).count(), 1);
    assert!(
        envs[0].active,
        "the pyenv shim's version is the active python"
    );
    assert_eq!(
        envs[0].interpreter.as_deref(),
        Some("/home/u/.pyenv/versions/3.11.9/bin/python3")
    );

    // pyenv's version file, a damaged METADATA, an empty dist-info, a duplicate dist-info.
    let py = &envs[0];
    assert_eq!(py.python_version.as_ref().unwrap().value, "3.11.9");
    assert_eq!(py.package("onnxruntime").unwrap().version, "1.19.2");
    assert_eq!(py.package("xformers").unwrap().version, "0.0.27");
    assert_eq!(py.package("torch").unwrap().version, "2.3.0");
    assert_eq!(
        notes_about(&notes, "onnxruntime-1.19.2.dist-info/METADATA").len(),
        1,
        "{notes:?}"
    );
    assert_eq!(
        notes_about(&notes, "xformers-0.0.27.dist-info/METADATA").len(),
        1,
        "{notes:?}"
    );
    assert_eq!(
        notes_about(&notes, "torch is installed twice").len(),
        1,
        "{notes:?}"
    );

    // System python: PATH's /usr/bin/python3 and /bin/python3 (a /bin -> usr/bin link) are one.
    let sys = env(&envs, "/usr");
    assert_eq!(sys.interpreter.as_deref(), Some("/usr/bin/python3"));
    assert_eq!(sys.python_version.as_ref().unwrap().value, "3.11");
    assert_eq!(
        sys.site_packages,
        [
            "/usr/local/lib/python3.11/dist-packages",
            "/usr/lib/python3/dist-packages"
        ]
    );
    // torch without torch/version.py: version from dist-info, CUDA build unknown, a note.
    let t = sys.torch.as_ref().unwrap();
    assert_eq!(t.version.as_ref().unwrap().value, "2.1.0");
    assert_eq!(t.cuda, None);
    assert_eq!(
        notes_about(
            &notes,
            "/usr/local/lib/python3.11/dist-packages/torch/version.py"
        )
        .len(),
        1
    );
    assert_eq!(
        build_label(sys, sys.package("torch").unwrap()).as_deref(),
        Some("CUDA unknown")
    );

    // --python with an interpreter outside every known place.
    assert_eq!(names(env(&envs, "/opt/custom")), ["flash-attn"]);
    assert_eq!(notes_about(&notes, "/nowhere/python").len(), 1);

    // uv venv: version_info, lib64 -> lib read once, tensorrt from its cu12 packages.
    let uv = env(&envs, "/home/u/work/.venv");
    assert_eq!(uv.python_version.as_ref().unwrap().value, "3.13.0");
    assert_eq!(
        uv.site_packages,
        ["/home/u/work/.venv/lib/python3.13/site-packages"]
    );
    let trt = uv.tensorrt.as_ref().unwrap();
    assert_eq!(trt.version.as_ref().unwrap().value, "10.6.0");
    assert!(trt
        .version
        .as_ref()
        .unwrap()
        .source
        .contains("tensorrt_cu12_bindings"));
    assert_eq!(trt.cuda_major.as_ref().unwrap().value, 12);

    let uvpy = env(
        &envs,
        "/home/u/.local/share/uv/python/cpython-3.13.0-linux-x86_64-gnu",
    );
    assert_eq!(uvpy.python_version.as_ref().unwrap().value, "3.13.0");
    assert_eq!(names(uvpy), ["cupy-cuda12x"]);

    // Symlink loops are skipped with a note; the pyenv-virtualenv link is not listed twice.
    assert_eq!(
        notes_about(&notes, "/home/u/.pyenv/versions/loop").len(),
        1,
        "{notes:?}"
    );
    assert_eq!(notes_about(&notes, "/home/u/loopdir").len(), 1, "{notes:?}");
    assert!(!paths(&envs).contains(&"/home/u/.pyenv/versions/tools"));

    let user = env(&envs, "/home/u/.local");
    assert_eq!(names(user), ["bitsandbytes"]);
    assert_eq!(notes.len(), 7, "{notes:#?}");
}

#[test]
fn python_option_takes_an_environment_directory() {
    let (envs, notes) = probe("machine", &["/opt/custom"]);
    assert_eq!(names(env(&envs, "/opt/custom")), ["flash-attn"]);
    assert!(notes_about(&notes, "/opt/custom").is_empty());
    let (_, notes) = probe("machine", &["/home/u"]);
    assert_eq!(
        notes_about(&notes, "neither a python interpreter").len(),
        1,
        "{notes:?}"
    );
}

#[test]
fn no_environment_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let (envs, notes) = discover(&Host::new(dir.path()), &ProbeOptions::default());
    assert!(envs.is_empty());
    assert!(notes.is_empty());
}
