//! How each ML framework in an environment was built, from the files it
//! ships (see research/frameworks/files.md): `torch/version.py`,
//! `onnxruntime/capi/build_and_package_info.py`, TensorFlow's `build_info.py`,
//! the CUDA major in a package name (`tensorrt-cu12`, `jax-cuda12-plugin`),
//! and the nvidia-* wheels' versions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use regex::Regex;

use crate::inventory::{Fact, FrameworkBuild, Note, PyPackage, PythonEnv, TorchBuild};
use crate::system::System;
use crate::version::CudaVersion;

use super::{elf, io_reason, note, MAX_DIR_ENTRIES};

const SOURCE_FILE_HEAD: usize = 64 * 1024;

/// Distributions that bear on whether GPU code runs: frameworks, their CUDA
/// builds and kernels, and the CUDA libraries shipped as wheels.
pub fn is_ml_package(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "torch",
        "torchvision",
        "torchaudio",
        "torchtext",
        "torchdata",
        "torchao",
        "torchcodec",
        "torch-tensorrt",
        "fbgemm-gpu",
        "triton",
        "pytorch-triton",
        "pytorch-triton-rocm",
        "pytorch-triton-xpu",
        "onnx",
        "jax",
        "jaxlib",
        "flash-attn",
        "flash-attn-3",
        "flashinfer-python",
        "xformers",
        "vllm",
        "sglang",
        "cupy",
        "bitsandbytes",
        "deepspeed",
        "apex",
        "mamba-ssm",
        "causal-conv1d",
        "cuda-toolkit",
        "cuda-python",
        "cuda-bindings",
        "numba",
        "numba-cuda",
        "pynvml",
        "llama-cpp-python",
        "ctranslate2",
        "paddlepaddle-gpu",
        "paddlepaddle",
        "tf-keras",
        "mlx",
        "mlx-metal",
        "mlx-lm",
    ];
    const PREFIXES: &[&str] = &[
        "nvidia-",
        "onnxruntime",
        "tensorflow",
        "tf-nightly",
        "tensorrt",
        "jax-cuda",
        "jax-rocm",
        "cupy-",
        "mxnet-cu",
    ];
    EXACT.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Fill the framework builds and the wheel CUDA runtime of `env` from its files.
pub(crate) fn fill(
    sys: &dyn System,
    env: &mut PythonEnv,
    site_dirs: &[PathBuf],
    notes: &mut Vec<Note>,
) {
    env.torch = torch(sys, env, site_dirs, notes);
    let torch_major = env
        .torch
        .as_ref()
        .and_then(|t| t.cuda.as_ref())
        .and_then(|f| f.value)
        .map(|v| v.major);
    env.cuda_runtime = cuda_runtime(&env.packages, torch_major);
    env.cudnn = wheel_cudnn(&env.packages, torch_major);
    if let Some(major) = torch_major {
        let cudnn = bundled_cudnn(sys, site_dirs).or_else(|| {
            let pkg = env.package(&format!("nvidia-cudnn-cu{major}"))?;
            Some(
                Fact::new(pkg.version.clone(), pkg.source.clone())
                    .with_note(format!("the nvidia-cudnn-cu{major} wheel torch loads")),
            )
        });
        if let Some(t) = env.torch.as_mut() {
            t.cudnn = t.cudnn.take().or(cudnn);
        }
    }
    env.onnxruntime = onnxruntime(sys, env, site_dirs, notes);
    env.tensorflow = tensorflow(sys, env, site_dirs, notes);
    env.jax = jax(sys, env, site_dirs);
    env.tensorrt = tensorrt(env);
}

/// A top-level `NAME = value` assignment's value in a generated Python file.
#[derive(Debug, Clone, PartialEq)]
enum PyValue {
    Str(String),
    None,
    Bool(bool),
}

/// Every simple assignment (`__version__ = '2.5.1'`, `cuda: Optional[str] = None`).
fn py_assignments(text: &str) -> HashMap<String, PyValue> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r#"(?m)^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|(None|True|False))[ \t]*(?:#.*)?\r?$"#,
        )
        .expect("static regex")
    });
    let mut out = HashMap::new();
    for c in re.captures_iter(text) {
        let Some(name) = c.get(1) else { continue };
        let value = if let Some(s) = c.get(2).or(c.get(3)) {
            PyValue::Str(s.as_str().to_string())
        } else {
            match c.get(4).map(|m| m.as_str()) {
                Some("True") => PyValue::Bool(true),
                Some("False") => PyValue::Bool(false),
                _ => PyValue::None,
            }
        };
        out.entry(name.as_str().to_string()).or_insert(value);
    }
    out
}

/// The pairs of TensorFlow's `build_info = collections.OrderedDict([('cuda_version', '12.5.1'), ...])`.
fn py_tuple_pairs(text: &str) -> HashMap<String, PyValue> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r#"\(\s*['"]([A-Za-z_]+)['"]\s*,\s*(?:'([^']*)'|"([^"]*)"|(True|False|None))\s*\)"#,
        )
        .expect("static regex")
    });
    let mut out = HashMap::new();
    for c in re.captures_iter(text) {
        let Some(name) = c.get(1) else { continue };
        let value = if let Some(s) = c.get(2).or(c.get(3)) {
            PyValue::Str(s.as_str().to_string())
        } else {
            match c.get(4).map(|m| m.as_str()) {
                Some("True") => PyValue::Bool(true),
                Some("False") => PyValue::Bool(false),
                _ => PyValue::None,
            }
        };
        out.entry(name.as_str().to_string()).or_insert(value);
    }
    out
}

fn find_file(sys: &dyn System, site_dirs: &[PathBuf], rel: &str) -> Option<PathBuf> {
    site_dirs
        .iter()
        .map(|d| d.join(rel))
        .find(|p| sys.exists(p))
}

fn read_head(sys: &dyn System, file: &Path, notes: &mut Vec<Note>) -> Option<String> {
    match sys.read_range(file, 0, SOURCE_FILE_HEAD) {
        Ok(b) => Some(String::from_utf8_lossy(&b).into_owned()),
        Err(e) => {
            notes.push(note(file, format!("cannot read: {}", io_reason(&e, file))));
            None
        }
    }
}

fn str_of(a: &HashMap<String, PyValue>, key: &str) -> Option<String> {
    match a.get(key) {
        Some(PyValue::Str(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

/// The site directory a package's dist-info sits in.
fn site_of(pkg: &PyPackage) -> Option<PathBuf> {
    Path::new(&pkg.source)
        .parent()?
        .parent()
        .map(Path::to_path_buf)
}

fn torch(
    sys: &dyn System,
    env: &PythonEnv,
    site_dirs: &[PathBuf],
    notes: &mut Vec<Note>,
) -> Option<TorchBuild> {
    let pkg = env.package("torch");
    let vfile = find_file(sys, site_dirs, "torch/version.py");
    if pkg.is_none() && vfile.is_none() {
        return None;
    }
    let mut t = TorchBuild::default();
    match &vfile {
        Some(f) => {
            if let Some(text) = read_head(sys, f, notes) {
                let a = py_assignments(&text);
                let src = f.display().to_string();
                t.version = str_of(&a, "__version__").map(|v| Fact::new(v, src.clone()));
                if t.version.is_none() {
                    notes.push(note(f, "no __version__ assignment found"));
                }
                match a.get("cuda") {
                    Some(PyValue::Str(s)) => match s.parse::<CudaVersion>() {
                        Ok(v) => t.cuda = Some(Fact::new(Some(v), src.clone())),
                        Err(e) => notes.push(note(f, format!("cuda = {s:?}: {e}"))),
                    },
                    Some(PyValue::None) => t.cuda = Some(Fact::new(None, src.clone())),
                    _ => notes.push(note(
                        f,
                        "no cuda assignment found: the CUDA build is unknown",
                    )),
                }
                match a.get("hip") {
                    Some(PyValue::Str(s)) => t.hip = Some(Fact::new(Some(s.clone()), src.clone())),
                    Some(PyValue::None) => t.hip = Some(Fact::new(None, src.clone())),
                    _ => {}
                }
                t.git_version = str_of(&a, "git_version").map(|v| Fact::new(v, src.clone()));
            }
        }
        None => {
            let at = pkg
                .and_then(site_of)
                .map(|d| d.join("torch/version.py"))
                .unwrap_or_else(|| PathBuf::from("torch/version.py"));
            notes.push(note(
                &at,
                "torch is installed but torch/version.py is missing (a broken or partial install): \
                 its CUDA build is read from the version label, if at all",
            ));
        }
    }
    if let Some(pkg) = pkg {
        if t.version.is_none() && pkg.version != "unknown" {
            t.version = Some(Fact::new(pkg.version.clone(), pkg.source.clone()));
        }
        // Wheels from download.pytorch.org carry the build in the local label (`2.5.1+cu124`).
        if t.cuda.is_none() {
            if let Some((_, label)) = pkg.version.split_once('+') {
                let from_label = |v| {
                    Fact::new(v, pkg.source.clone())
                        .with_note(format!("from the local version label +{label}"))
                };
                if label == "cpu" || label.starts_with("cpu.") {
                    t.cuda = Some(from_label(None));
                } else if let Some(rocm) = label.strip_prefix("rocm") {
                    t.cuda = Some(from_label(None));
                    if t.hip.is_none() {
                        t.hip = Some(
                            Fact::new(Some(rocm.to_string()), pkg.source.clone())
                                .with_note(format!("from the local version label +{label}")),
                        );
                    }
                } else if let Ok(v) = label.parse::<CudaVersion>() {
                    t.cuda = Some(from_label(Some(v)));
                }
            }
        }
    }
    Some(t)
}

/// Old torch wheels (1.x cu10x/cu11x) bundle `torch/lib/libcudnn.so.8.x.y`.
fn bundled_cudnn(sys: &dyn System, site_dirs: &[PathBuf]) -> Option<Fact<String>> {
    let lib = find_file(sys, site_dirs, "torch/lib")?;
    let entries = sys.read_dir(&lib).ok()?;
    entries.into_iter().take(MAX_DIR_ENTRIES).find_map(|e| {
        let v = e.name.strip_prefix("libcudnn.so.")?;
        let parts: Vec<&str> = v.split('.').collect();
        (parts.len() >= 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
        .then(|| Fact::new(v.to_string(), e.path.display().to_string()))
    })
}

/// The CUDA major a package name carries: `-cu12`, `-cu12-libs`, `cuda12` (jax), `cuda12x` (cupy).
pub(crate) fn name_cuda_major(name: &str) -> Option<u32> {
    name.split('-').find_map(|tok| {
        let digits = tok
            .strip_prefix("cuda")
            .or_else(|| tok.strip_prefix("cu"))?;
        let digits = digits.strip_suffix('x').unwrap_or(digits);
        (digits.len() == 2 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    })
}

/// The CUDA runtime the wheels carry: `nvidia-cuda-runtime-cu12==12.4.127` is
/// CUDA 12.4; CUDA 13 drops the suffix, and the `cuda-toolkit` metapackage
/// names the toolkit release. The one matching torch's CUDA major wins.
fn cuda_runtime(packages: &[PyPackage], prefer_major: Option<u32>) -> Option<Fact<CudaVersion>> {
    let mut found: Vec<Fact<CudaVersion>> = Vec::new();
    for p in packages {
        let suffix_ok = |v: &CudaVersion| name_cuda_major(&p.name).map_or(true, |m| m == v.major);
        if p.name == "nvidia-cuda-runtime" || p.name.starts_with("nvidia-cuda-runtime-cu") {
            if let Ok(v) = p.version.parse::<CudaVersion>() {
                if suffix_ok(&v) && v.major >= 11 {
                    found.push(
                        Fact::new(v.major_minor(), p.source.clone())
                            .with_note(format!("from {} {}", p.name, p.version)),
                    );
                }
            }
        }
    }
    if found.is_empty() {
        if let Some(p) = packages.iter().find(|p| p.name == "cuda-toolkit") {
            if let Ok(v) = p.version.parse::<CudaVersion>() {
                found.push(
                    Fact::new(v, p.source.clone())
                        .with_note(format!("from cuda-toolkit {}", p.version)),
                );
            }
        }
    }
    let preferred = prefer_major.and_then(|m| found.iter().position(|f| f.value.major == m));
    match preferred {
        Some(i) => found.into_iter().nth(i),
        None => found.into_iter().max_by_key(|f| f.value),
    }
}

fn wheel_cudnn(packages: &[PyPackage], prefer_major: Option<u32>) -> Option<Fact<String>> {
    let cudnn: Vec<&PyPackage> = packages
        .iter()
        .filter(|p| p.name.starts_with("nvidia-cudnn-cu") && p.version != "unknown")
        .collect();
    let pick = prefer_major
        .and_then(|m| cudnn.iter().find(|p| name_cuda_major(&p.name) == Some(m)))
        .or(cudnn.last())?;
    Some(
        Fact::new(pick.version.clone(), pick.source.clone())
            .with_note(format!("from {}", pick.name)),
    )
}

fn cuda_fact(s: &str, src: &str, f: &Path, notes: &mut Vec<Note>) -> Option<Fact<CudaVersion>> {
    match s.parse::<CudaVersion>() {
        Ok(v) => Some(Fact::new(v, src.to_string())),
        Err(e) => {
            notes.push(note(f, format!("{e}")));
            None
        }
    }
}

const ORT_DISTS: &[&str] = &[
    "onnxruntime-gpu",
    "onnxruntime",
    "onnxruntime-training",
    "onnxruntime-directml",
    "onnxruntime-openvino",
    "onnxruntime-rocm",
    "onnxruntime-qnn",
];

fn onnxruntime(
    sys: &dyn System,
    env: &PythonEnv,
    site_dirs: &[PathBuf],
    notes: &mut Vec<Note>,
) -> Option<FrameworkBuild> {
    let dists: Vec<&PyPackage> = ORT_DISTS.iter().filter_map(|n| env.package(n)).collect();
    let info = find_file(sys, site_dirs, "onnxruntime/capi/build_and_package_info.py");
    if dists.is_empty() && info.is_none() {
        return None;
    }
    let mut b = FrameworkBuild::default();
    let mut files_from: Option<String> = None;
    if let Some(f) = &info {
        if let Some(text) = read_head(sys, f, notes) {
            let a = py_assignments(&text);
            let src = f.display().to_string();
            files_from = str_of(&a, "package_name");
            b.version = str_of(&a, "__version__").map(|v| Fact::new(v, src.clone()));
            if let Some(s) = str_of(&a, "cuda_version") {
                b.cuda = cuda_fact(&s, &src, f, notes);
                b.cuda_major = b
                    .cuda
                    .as_ref()
                    .map(|c| Fact::new(c.value.major, src.clone()));
            }
            b.cudnn = str_of(&a, "cudnn_version").map(|v| Fact::new(v, src.clone()));
        }
    }
    if b.version.is_none() {
        b.version = dists
            .first()
            .map(|p| Fact::new(p.version.clone(), p.source.clone()));
    }
    // Before 1.21 no file records the CUDA build; the CUDA provider's DT_NEEDED does.
    let provider = find_file(
        sys,
        site_dirs,
        "onnxruntime/capi/libonnxruntime_providers_cuda.so",
    );
    if b.cuda_major.is_none() {
        if let Some(so) = &provider {
            match elf::needed(sys, so) {
                Ok(needed) => {
                    let src = so.display().to_string();
                    for lib in &needed {
                        if let Some(m) = soname_major(lib, "libcudart.so.") {
                            b.cuda_major.get_or_insert_with(|| {
                                Fact::new(m, src.clone()).with_note(format!("from DT_NEEDED {lib}"))
                            });
                        }
                        if let Some(m) = soname_major(lib, "libcudnn.so.") {
                            b.cudnn.get_or_insert_with(|| {
                                Fact::new(m.to_string(), src.clone())
                                    .with_note(format!("major only, from DT_NEEDED {lib}"))
                            });
                        }
                    }
                }
                Err(e) => notes.push(note(so, format!("cannot read its ELF dependencies: {e}"))),
            }
        }
    }
    let names: Vec<&str> = dists.iter().map(|p| p.name.as_str()).collect();
    if names.contains(&"onnxruntime") && names.iter().any(|n| *n != "onnxruntime") {
        let others: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| *n != "onnxruntime")
            .collect();
        let owner = match &files_from {
            Some(p) => format!("; onnxruntime/ now holds the files of {p}"),
            None => String::new(),
        };
        let at = info
            .as_ref()
            .and_then(|f| f.parent()?.parent().map(Path::to_path_buf))
            .or_else(|| {
                dists
                    .first()
                    .and_then(|p| site_of(p))
                    .map(|d| d.join("onnxruntime"))
            })
            .unwrap_or_else(|| PathBuf::from("onnxruntime"));
        notes.push(note(
            &at,
            format!(
                "onnxruntime and {} are both installed: they write the same onnxruntime/ package, \
                 so whichever was installed last wins{owner}",
                others.join(", ")
            ),
        ));
    }
    Some(b)
}

/// `libcudart.so.11.0` with prefix `libcudart.so.` → 11.
fn soname_major(lib: &str, prefix: &str) -> Option<u32> {
    lib.strip_prefix(prefix)?.split('.').next()?.parse().ok()
}

const TF_DISTS: &[&str] = &[
    "tensorflow",
    "tensorflow-gpu",
    "tensorflow-cpu",
    "tensorflow-intel",
    "tensorflow-macos",
    "tensorflow-rocm",
    "tf-nightly",
    "tf-nightly-gpu",
    "tf-nightly-cpu",
];

fn tensorflow(
    sys: &dyn System,
    env: &PythonEnv,
    site_dirs: &[PathBuf],
    notes: &mut Vec<Note>,
) -> Option<FrameworkBuild> {
    let dist = TF_DISTS.iter().find_map(|n| env.package(n));
    let info = find_file(sys, site_dirs, "tensorflow/python/platform/build_info.py");
    if dist.is_none() && info.is_none() {
        return None;
    }
    let mut b = FrameworkBuild {
        version: dist.map(|p| Fact::new(p.version.clone(), p.source.clone())),
        ..Default::default()
    };
    match &info {
        Some(f) => {
            if let Some(text) = read_head(sys, f, notes) {
                let src = f.display().to_string();
                // TF ≥ 2.5: an OrderedDict of pairs; older: module-level `cuda_version_number = '10.1'`.
                let mut a = py_tuple_pairs(&text);
                for (k, v) in py_assignments(&text) {
                    a.entry(k).or_insert(v);
                }
                let cuda = str_of(&a, "cuda_version").or_else(|| str_of(&a, "cuda_version_number"));
                if let Some(s) = cuda {
                    b.cuda = cuda_fact(&s, &src, f, notes);
                    b.cuda_major = b
                        .cuda
                        .as_ref()
                        .map(|c| Fact::new(c.value.major, src.clone()));
                }
                b.cudnn = str_of(&a, "cudnn_version")
                    .or_else(|| str_of(&a, "cudnn_version_number"))
                    .map(|v| Fact::new(v, src.clone()));
            }
        }
        None => notes.push(note(
            &dist
                .and_then(site_of)
                .map(|d| d.join("tensorflow/python/platform/build_info.py"))
                .unwrap_or_default(),
            "tensorflow is installed but its build_info.py is missing: its CUDA build is unknown",
        )),
    }
    Some(b)
}

fn jax(sys: &dyn System, env: &PythonEnv, site_dirs: &[PathBuf]) -> Option<FrameworkBuild> {
    let jax = env.package("jax");
    let jaxlib = env.package("jaxlib");
    let main = jax.or(jaxlib)?;
    let mut b = FrameworkBuild {
        version: Some(Fact::new(main.version.clone(), main.source.clone())),
        ..Default::default()
    };
    // CUDA lives in plugins whose name carries the major (jax ≥ 0.4.22).
    for p in &env.packages {
        if p.name.starts_with("jax-cuda") {
            if let Some(m) = name_cuda_major(&p.name) {
                b.cuda_major = Some(
                    Fact::new(m, p.source.clone())
                        .with_note(format!("from the package name {}", p.name)),
                );
                break;
            }
        }
    }
    if b.cuda_major.is_none() {
        for dir in site_dirs {
            let Ok(entries) = sys.read_dir(&dir.join("jax_plugins")) else {
                continue;
            };
            if let Some((m, path)) = entries.iter().take(1000).find_map(|e| {
                let m = e.name.strip_prefix("xla_cuda")?.parse::<u32>().ok()?;
                Some((m, e.path.clone()))
            }) {
                b.cuda_major = Some(Fact::new(m, path.display().to_string()));
                break;
            }
        }
    }
    // jaxlib ≤ 0.4.21 from Google's index: `0.4.20+cuda12.cudnn89`, `0.1.69+cuda111`.
    if let Some(lib) = jaxlib {
        if let Some((_, label)) = lib.version.split_once('+') {
            let src = || lib.source.clone();
            for part in label.split('.') {
                if let Some(d) = part.strip_prefix("cudnn") {
                    if d.len() >= 2 && d.bytes().all(|c| c.is_ascii_digit()) {
                        let (major, rest) = d.split_at(1);
                        let (minor, patch) = rest.split_at(1);
                        let v = if patch.is_empty() {
                            format!("{major}.{minor}")
                        } else {
                            format!("{major}.{minor}.{patch}")
                        };
                        b.cudnn = Some(
                            Fact::new(v, src())
                                .with_note(format!("from the local version label +{label}")),
                        );
                    }
                } else if let Some(d) = part.strip_prefix("cuda") {
                    let note = format!("from the local version label +{label}");
                    if d.len() == 2 {
                        if let Ok(m) = d.parse::<u32>() {
                            b.cuda_major
                                .get_or_insert_with(|| Fact::new(m, src()).with_note(note));
                        }
                    } else if let Ok(v) = format!("cu{d}").parse::<CudaVersion>() {
                        b.cuda = Some(Fact::new(v, src()).with_note(note.clone()));
                        b.cuda_major
                            .get_or_insert_with(|| Fact::new(v.major, src()).with_note(note));
                    }
                }
            }
        }
    }
    Some(b)
}

fn tensorrt(env: &PythonEnv) -> Option<FrameworkBuild> {
    let trt: Vec<&PyPackage> = env
        .packages
        .iter()
        .filter(|p| p.name.starts_with("tensorrt") || p.name == "nvidia-tensorrt")
        .filter(|p| p.name != "tensorrt-llm" && p.name != "torch-tensorrt")
        .collect();
    // The bindings provide `import tensorrt`; the metapackage and the libraries follow.
    let rank = |p: &PyPackage| {
        if p.name.ends_with("-bindings") {
            0
        } else if !p.name.ends_with("-libs") {
            1
        } else {
            2
        }
    };
    let main = trt.iter().min_by_key(|p| rank(p))?;
    let mut b = FrameworkBuild {
        version: Some(Fact::new(main.version.clone(), main.source.clone())),
        ..Default::default()
    };
    if let Some((m, p)) = trt
        .iter()
        .find_map(|p| name_cuda_major(&p.name).map(|m| (m, p)))
    {
        b.cuda_major = Some(
            Fact::new(m, p.source.clone()).with_note(format!("from the package name {}", p.name)),
        );
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torch_version_py_both_formats() {
        let new = "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n__version__ = '2.9.1+cu128'\ndebug = False\ncuda: Optional[str] = '12.8'\ngit_version = '5811a8d7da873dd699ff6687092c225caffcf1bb'\nhip: Optional[str] = None\nxpu: Optional[str] = None\n";
        let a = py_assignments(new);
        assert_eq!(
            a.get("__version__"),
            Some(&PyValue::Str("2.9.1+cu128".into()))
        );
        assert_eq!(a.get("cuda"), Some(&PyValue::Str("12.8".into())));
        assert_eq!(a.get("hip"), Some(&PyValue::None));
        assert_eq!(a.get("debug"), Some(&PyValue::Bool(false)));
        let old = "__version__ = '1.12.1+cu102'\ndebug = False\ncuda = '10.2'\ngit_version = '664058fa83f1d8eede5d66418abff6e20bd76ca8'\nhip = None\n";
        let a = py_assignments(old);
        assert_eq!(a.get("cuda"), Some(&PyValue::Str("10.2".into())));
        assert!(!a.contains_key("__all__"));
    }

    #[test]
    fn tensorflow_build_info_pairs() {
        let text = "\"\"\"Auto-generated module providing information about the build.\"\"\"\nimport collections\n\nbuild_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-18/bin/clang'), ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])\n";
        let a = py_tuple_pairs(text);
        assert_eq!(a.get("cuda_version"), Some(&PyValue::Str("12.5.1".into())));
        assert_eq!(a.get("cudnn_version"), Some(&PyValue::Str("9".into())));
        assert_eq!(a.get("is_cuda_build"), Some(&PyValue::Bool(true)));
        assert!(!a.contains_key("cuda_compute_capabilities"));
    }

    #[test]
    fn cuda_major_from_names() {
        assert_eq!(name_cuda_major("tensorrt-cu12-libs"), Some(12));
        assert_eq!(name_cuda_major("jax-cuda13-plugin"), Some(13));
        assert_eq!(name_cuda_major("cupy-cuda11x"), Some(11));
        assert_eq!(name_cuda_major("nvidia-cudnn-cu12"), Some(12));
        assert_eq!(name_cuda_major("nvidia-cuda-runtime"), None);
        assert_eq!(name_cuda_major("tensorrt"), None);
        assert_eq!(name_cuda_major("custom"), None);
    }

    #[test]
    fn relevant_packages() {
        for n in [
            "torch",
            "onnxruntime-gpu",
            "nvidia-cudnn-cu12",
            "cupy-cuda12x",
            "tensorrt-cu12-bindings",
            "jax-cuda12-pjrt",
        ] {
            assert!(is_ml_package(n), "{n}");
        }
        for n in ["numpy", "requests", "torchmetrics", "pip"] {
            assert!(!is_ml_package(n), "{n}");
        }
    }

    fn pkg(name: &str, version: &str) -> PyPackage {
        PyPackage {
            name: name.into(),
            version: version.into(),
            source: format!("/s/{name}-{version}.dist-info/METADATA"),
            editable: false,
        }
    }

    #[test]
    fn wheel_runtime_prefers_the_torch_major() {
        let pkgs = vec![
            pkg("nvidia-cuda-runtime-cu11", "11.8.89"),
            pkg("nvidia-cuda-runtime-cu12", "12.4.127"),
        ];
        assert_eq!(
            cuda_runtime(&pkgs, Some(11)).unwrap().value,
            CudaVersion::new(11, 8)
        );
        assert_eq!(
            cuda_runtime(&pkgs, None).unwrap().value,
            CudaVersion::new(12, 4)
        );
        let toolkit = vec![pkg("cuda-toolkit", "13.0.2")];
        assert_eq!(
            cuda_runtime(&toolkit, None).unwrap().value.to_string(),
            "13.0.2"
        );
        // A placeholder (`nvidia-cuda-runtime-cu13==0.0.1`) is no CUDA version.
        assert_eq!(
            cuda_runtime(&[pkg("nvidia-cuda-runtime-cu13", "0.0.1")], None),
            None
        );
    }
}
