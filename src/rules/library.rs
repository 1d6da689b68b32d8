//! Library family: cuDNN, TensorRT and ONNX Runtime next to the CUDA they
//! were built for, and CUDA pieces of different releases side by side.

use std::collections::BTreeSet;

use crate::finding::{Category, Finding, KbRef, Severity};
use crate::inventory::{ErrorKind, FrameworkBuild, Inventory, PythonEnv};
use crate::kb::{series, Kb};

use super::facts::{self, major_of, Sourced};
use super::fix;
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[
    &LIB001, &LIB002, &LIB003, &LIB004, &LIB005, &LIB006, &LIB007, &LIB008, &LIB009, &LIB010,
    &LIB011,
];

/// A cuDNN that the environment can load: (cuDNN major, what/where).
fn cudnn_present(inv: &Inventory, env: &PythonEnv) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    for p in env
        .packages
        .iter()
        .filter(|p| p.name.starts_with("nvidia-cudnn"))
    {
        if let Some(m) = major_of(&p.version) {
            out.push((m, format!("{} {}", p.name, p.version), p.source.clone()));
        }
    }
    for l in &inv.libraries.cudnn {
        if let Some(m) = major_of(&l.version.value) {
            out.push((
                m,
                format!("cuDNN {} ({})", l.version.value, l.path),
                l.version.source.clone(),
            ));
        }
    }
    out
}

struct CudnnNeed {
    who: String,
    major: u32,
    cuda_major: Option<u32>,
    source: String,
    kb: Option<KbRef>,
    /// Does the framework rely on a separately installed cuDNN (ORT, TF), or ship/pin its own (torch)?
    external: bool,
}

/// Is this environment's TensorFlow a CUDA build: its build says so, or the
/// package is one (`tensorflow-gpu`; `tensorflow` 2.1+ on Linux, where the
/// PyPI wheel carries the GPU build).
fn tf_is_cuda_build(inv: &Inventory, env: &PythonEnv, b: &FrameworkBuild) -> bool {
    if b.cuda.is_some() || env.package("tensorflow-gpu").is_some() {
        return true;
    }
    let linux = inv
        .os
        .kind
        .as_ref()
        .map_or(true, |k| k.value == crate::inventory::OsKind::Linux);
    let from_2_1 = env
        .package("tensorflow")
        .and_then(|p| series(&p.version))
        .is_some_and(|(maj, min)| (maj, min) >= (2, 1));
    linux && from_2_1
}

fn cudnn_needs(inv: &Inventory, kb: &Kb, env: &PythonEnv) -> Vec<CudnnNeed> {
    let mut out = Vec::new();
    if env.package("onnxruntime-gpu").is_some() {
        if let Some(b) = &env.onnxruntime {
            push_fw_need(&mut out, "onnxruntime-gpu", b, |v| {
                kb.onnxruntime(v)
                    .map(|r| (r.cudnn_major, r.cuda_major, r.kb()))
            });
        }
    }
    if let Some(b) = &env.tensorflow {
        if tf_is_cuda_build(inv, env, b) {
            push_fw_need(&mut out, "tensorflow", b, |v| {
                kb.tensorflow(v)
                    .map(|r| (r.cudnn_major, r.cuda_version.map(|c| c.major), r.kb()))
            });
        }
    }
    if let Some(t) = &env.torch {
        if let (Some(c), Some(Some(cuda))) = (&t.cudnn, t.cuda.as_ref().map(|c| c.value)) {
            if let Some(m) = major_of(&c.value) {
                out.push(CudnnNeed {
                    who: t
                        .version
                        .as_ref()
                        .map_or("torch".into(), |v| format!("torch {}", v.value)),
                    major: m,
                    cuda_major: Some(cuda.major),
                    source: c.source.clone(),
                    kb: None,
                    external: false,
                });
            }
        }
    }
    out
}

fn push_fw_need(
    out: &mut Vec<CudnnNeed>,
    name: &str,
    b: &FrameworkBuild,
    row: impl Fn(&str) -> Option<(Option<u32>, Option<u32>, KbRef)>,
) {
    let who = b
        .version
        .as_ref()
        .map_or(name.to_string(), |v| format!("{name} {}", v.value));
    let cuda_major = b.cuda.as_ref().map(|c| c.value.major);
    if let Some(c) = &b.cudnn {
        if let Some(m) = major_of(&c.value) {
            out.push(CudnnNeed {
                who,
                major: m,
                cuda_major,
                source: c.source.clone(),
                kb: None,
                external: true,
            });
            return;
        }
    }
    if let Some(v) = &b.version {
        if let Some((Some(m), cm, k)) = row(&v.value) {
            out.push(CudnnNeed {
                who,
                major: m,
                cuda_major: cuda_major.or(cm),
                source: "knowledge base".into(),
                kb: Some(k),
                external: true,
            });
        }
    }
}

pub static LIB001: Rule = Rule {
    code: "LIB001",
    name: "cudnn-major-mismatch",
    category: Category::CudnnMismatch,
    severity: Severity::Error,
    summary: "A framework needs a cuDNN major (ORT, TensorFlow, torch's pinned nvidia-cudnn) that is not the one present, or none is present.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "For onnxruntime-gpu and TensorFlow CUDA builds (build_and_package_info.py / build_info.py, else the knowledge tables) and torch (torch.backends.cudnn.version() when known): the cuDNN major they were built with, against the nvidia-cudnn-cuXX wheels in the same environment and the system cuDNN libraries found. For torch only a conflicting nvidia-cudnn wheel counts: torch may carry its own.",
        why_it_breaks: "cuDNN's library name carries only its own major (libcudnn.so.8, libcudnn.so.9). A framework built for cuDNN 9 cannot load libcudnn.so.8 ('Could not load library libcudnn_ops.so.9', ORT's CUDAExecutionProvider falling back to CPU), and a cuDNN of the right major but built for another CUDA major fails at the first convolution.",
        how_to_fix: "Install the cuDNN major the framework needs, built for its CUDA major (`pip install \"nvidia-cudnn-cu12==9.*\"`, or the system package), or install a framework build that matches the cuDNN present.",
        sources: &[
            "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements",
            "https://www.tensorflow.org/install/source#gpu (tested build configurations)",
            "https://docs.nvidia.com/deeplearning/cudnn/backend/latest/reference/support-matrix.html",
        ],
    },
    check: check_lib001,
    superseded_by: &[],
};

fn check_lib001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &inv.python {
        let present = cudnn_present(inv, env);
        let wheels: Vec<&(u32, String, String)> = present
            .iter()
            .filter(|p| p.1.starts_with("nvidia-cudnn"))
            .collect();
        for need in cudnn_needs(inv, kb, env) {
            let pool: Vec<&(u32, String, String)> = if need.external {
                present.iter().collect()
            } else {
                wheels.clone()
            };
            if pool.iter().any(|p| p.0 == need.major) {
                continue;
            }
            // A pasted report that lists no cuDNN says nothing of whether one is there.
            let reported = env.kind == crate::inventory::EnvKind::Reported;
            if pool.is_empty() && (!need.external || reported) {
                continue;
            }
            let (sev, msg) = if pool.is_empty() {
                (
                    Severity::Warning,
                    format!(
                        "{} in {} needs cuDNN {}, and no cuDNN was found (no nvidia-cudnn wheel in this environment, no system libcudnn): its CUDA provider cannot load.",
                        need.who, env.path, need.major
                    ),
                )
            } else {
                let have: Vec<&str> = pool.iter().map(|p| p.1.as_str()).collect();
                (
                    Severity::Error,
                    format!(
                        "{} in {} needs cuDNN {}, but only {} is present: libcudnn.so.{} cannot be loaded.",
                        need.who, env.path, need.major, have.join(", "), need.major
                    ),
                )
            };
            let mut f = LIB001.finding(msg).at(sev).evidence(
                format!("{} cuDNN build", need.who),
                need.major,
                &need.source,
            );
            if let Some(k) = &need.kb {
                f = f.kb(k.clone());
            }
            for p in &pool {
                f = f.evidence("cuDNN present", &p.1, &p.2);
            }
            let inst = fix::installer(inv, env);
            // nvidia-cudnn wheels exist per CUDA major (nvidia_wheels) and only from cuDNN 8.
            let wheel = |cm: u32| {
                need.major >= 8
                    && kb
                        .nvidia_wheels
                        .row
                        .iter()
                        .any(|r| r.package == format!("nvidia-cudnn-cu{cm}"))
            };
            f = match need.cuda_major {
                Some(cm) if wheel(cm) => f.fix_command(
                    inst.install(&format!("\"nvidia-cudnn-cu{cm}=={}.*\"", need.major)),
                    Some(format!(
                        "cuDNN {} for CUDA {cm}; or install a build of {} made for the cuDNN present. With uv: {}",
                        need.major,
                        need.who,
                        inst.uv_install(&format!("\"nvidia-cudnn-cu{cm}=={}.*\"", need.major))
                    )),
                ),
                Some(cm) => f.fix_note(format!(
                    "install cuDNN {}.x built for CUDA {cm} (NVIDIA's cuDNN archive or its system package: no nvidia-cudnn-cu{cm} wheel carries it), or a build of {} made for the cuDNN present",
                    need.major, need.who
                )),
                None => f.fix_note(format!("install cuDNN {} for the framework's CUDA major", need.major)),
            };
            out.push(f);
        }
    }
    out
}

/// TensorRT's CUDA major in an environment: its build fact, else its `-cuXX` packages.
fn trt_cuda_major(env: &PythonEnv) -> Option<Sourced<u32>> {
    if let Some(c) = env.tensorrt.as_ref().and_then(|t| t.cuda.as_ref()) {
        return Some(Sourced {
            value: c.value.major,
            source: c.source.clone(),
            kb: None,
        });
    }
    env.packages
        .iter()
        .filter(|p| p.name.starts_with("tensorrt"))
        .find_map(|p| {
            facts::cu_suffix_major(&p.name).map(|m| Sourced {
                value: m,
                source: format!("{} ({})", p.name, p.source),
                kb: None,
            })
        })
}

fn env_cuda_major(inv: &Inventory, kb: &Kb, env: &PythonEnv) -> Option<(u32, String, String)> {
    facts::runtimes(inv, kb)
        .into_iter()
        .filter(|r| std::ptr::eq(r.env, env) && !r.what.starts_with("tensorrt"))
        .map(|r| (r.cuda.value.major, r.what.clone(), r.cuda.source.clone()))
        .next()
}

pub static LIB002: Rule = Rule {
    code: "LIB002",
    name: "tensorrt-cuda-major-mismatch",
    category: Category::TensorrtMismatch,
    severity: Severity::Error,
    summary: "TensorRT is built for another CUDA major than the environment's framework.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "In each Python environment: TensorRT's CUDA major (its build, or the `-cu11`/`-cu12`/`-cu13` suffix of the tensorrt packages) against the CUDA major of the framework that feeds it (torch, else onnxruntime).",
        why_it_breaks: "TensorRT links the CUDA runtime and cuBLAS of its CUDA major. Next to a framework of another major, the process needs two CUDA majors' libraries at once: TensorRT fails to load (libcudart.so.N / libcublas.so.N not found) or torch-tensorrt / ORT's TensorRT provider refuse to start.",
        how_to_fix: "Install the TensorRT build for the framework's CUDA major (`pip install tensorrt-cu12==<version>`) and remove the other (`pip uninstall tensorrt-cu11 tensorrt-cu11-libs tensorrt-cu11-bindings`).",
        sources: &[
            "https://docs.nvidia.com/deeplearning/tensorrt/latest/installing-tensorrt/installing.html (Python package per CUDA major)",
            "https://docs.nvidia.com/deeplearning/tensorrt/latest/getting-started/support-matrix.html",
        ],
    },
    check: check_lib002,
    superseded_by: &[],
};

fn check_lib002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &inv.python {
        let Some(trt) = trt_cuda_major(env) else {
            continue;
        };
        let Some((m, who, src)) = env_cuda_major(inv, kb, env) else {
            continue;
        };
        if trt.value == m {
            continue;
        }
        let version = env.tensorrt.as_ref().and_then(|t| t.version.as_ref());
        let mut f = LIB002
            .finding(format!(
                "TensorRT in {} is built for CUDA {}, but {who} uses CUDA {m}: the two need different CUDA runtimes in one process.",
                env.path, trt.value
            ))
            .evidence(format!("TensorRT CUDA major ({})", env.path), trt.value, &trt.source)
            .evidence(format!("{who} CUDA major"), m, &src);
        if let Some(v) = version {
            f = f.fact("TensorRT version", v);
            if let Some(r) = kb.tensorrt(&v.value) {
                f = f.kb(r.kb());
            }
        }
        let inst = fix::installer(inv, env);
        let pkg_version = env
            .packages
            .iter()
            .find(|p| {
                p.name.starts_with("tensorrt") && facts::cu_suffix_major(&p.name) == Some(trt.value)
            })
            .map(|p| p.version.clone());
        let pin = version
            .map(|v| v.value.clone())
            .or(pkg_version)
            .map_or(String::new(), |v| format!("=={v}"));
        f = f.fix_command(
            inst.install(&format!("tensorrt-cu{m}{pin}")),
            Some(format!(
                "then remove the CUDA {} build: {}",
                trt.value,
                inst.uninstall(&format!(
                    "tensorrt-cu{0} tensorrt-cu{0}-libs tensorrt-cu{0}-bindings",
                    trt.value
                ))
            )),
        );
        out.push(f);
    }
    out
}

pub static LIB003: Rule = Rule {
    code: "LIB003",
    name: "tensorrt-several-versions",
    category: Category::TensorrtMismatch,
    severity: Severity::Warning,
    summary: "Several TensorRT versions are on the loader path.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "The system TensorRT libraries found (libnvinfer.so.X.Y.Z): more than one major.minor.",
        why_it_breaks: "libnvinfer.so.N carries only the major, so which release a program gets depends on loader order; plugins (libnvinfer_plugin) and parsers (libnvonnxparser) from another release then fail with symbol errors, and engines built with one release are refused by the other.",
        how_to_fix: "Keep one TensorRT release on the loader path: remove the others (their packages or directories) or scope LD_LIBRARY_PATH per application.",
        sources: &["https://docs.nvidia.com/deeplearning/tensorrt/latest/installing-tensorrt/installing.html"],
    },
    check: check_lib003,
    superseded_by: &[],
};

fn check_lib003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let versions: BTreeSet<(u32, u32)> = inv
        .libraries
        .tensorrt
        .iter()
        .filter_map(|l| series(&l.version.value))
        .collect();
    if versions.len() < 2 {
        return vec![];
    }
    let list: Vec<String> = versions.iter().map(|(a, b)| format!("{a}.{b}")).collect();
    let mut f = LIB003.finding(format!(
        "{} TensorRT releases are installed ({}): which one a program loads depends on loader order.",
        versions.len(),
        list.join(", ")
    ));
    for l in &inv.libraries.tensorrt {
        f = f.evidence("TensorRT library", &l.version.value, &l.path);
    }
    vec![f.fix_note("Keep one TensorRT release on the loader path; remove the others or scope LD_LIBRARY_PATH per application.")]
}

pub static LIB004: Rule = Rule {
    code: "LIB004",
    name: "tensorrt-engines-are-device-specific",
    category: Category::TensorrtMismatch,
    severity: Severity::Info,
    summary: "TensorRT engines are built for one compute capability and one TensorRT version.",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "Whether TensorRT is installed (Python packages or system libraries), with the GPUs' compute capabilities.",
        why_it_breaks: "A serialized engine (.engine/.plan) holds kernels for the GPU it was built on and is tied to the exact TensorRT version: on another compute capability or TensorRT release deserialization fails ('The engine plan file is not compatible with this version of TensorRT' / 'was created on a different device'). Hardware- and version-compatible engines exist but must be asked for at build time.",
        how_to_fix: "Build engines on the target GPU with the TensorRT version that will run them (ship ONNX, build at deploy), or build with hardware compatibility (`--hardwareCompatibilityLevel=ampere+`) and version compatibility where supported.",
        sources: &["https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html (hardware and version compatibility)"],
    },
    check: check_lib004,
    superseded_by: &[],
};

fn check_lib004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let mut versions: Vec<(String, String, String)> = Vec::new();
    for env in &inv.python {
        if let Some(v) = env.tensorrt.as_ref().and_then(|t| t.version.as_ref()) {
            versions.push((
                format!("TensorRT ({})", env.path),
                v.value.clone(),
                v.source.clone(),
            ));
        }
    }
    for l in &inv.libraries.tensorrt {
        versions.push((
            "TensorRT library".into(),
            l.version.value.clone(),
            l.path.clone(),
        ));
    }
    if versions.is_empty() {
        return vec![];
    }
    let gpus = facts::nvidia_gpus(inv, kb);
    let ccs: BTreeSet<String> = gpus
        .iter()
        .filter_map(|g| g.cc.as_ref().map(|c| c.value.sm()))
        .collect();
    let on = if ccs.is_empty() {
        String::new()
    } else {
        format!(
            " Engines built here run on {} only.",
            ccs.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    let mut f = LIB004.finding(format!(
        "TensorRT is installed: its engines are tied to the GPU's compute capability and the exact TensorRT version they were built with.{on}"
    ));
    for (what, v, s) in &versions {
        f = f.evidence(what.clone(), v, s);
    }
    for g in &gpus {
        f = g.cite_cc(f);
    }
    vec![f.fix_note("Build engines where they run (ship ONNX and build at deploy time), or build with hardware/version compatibility enabled.")]
}

pub static LIB005: Rule = Rule {
    code: "LIB005",
    name: "onnxruntime-and-onnxruntime-gpu",
    category: Category::OnnxruntimeCuda,
    severity: Severity::Error,
    summary: "onnxruntime and onnxruntime-gpu are installed together.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "An environment with both the `onnxruntime` and the `onnxruntime-gpu` distributions.",
        why_it_breaks: "Both install the same `onnxruntime` Python package into the same directory; whichever was installed last wins file by file. The usual result is the CPU build's files: `get_available_providers()` lists only CPUExecutionProvider, or the import fails.",
        how_to_fix: "Uninstall both, then install only onnxruntime-gpu (the fix pins the version that was there).",
        sources: &["https://onnxruntime.ai/docs/install/ (install only one of the onnxruntime packages)"],
    },
    check: check_lib005,
    superseded_by: &[],
};

fn check_lib005(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &inv.python {
        let (Some(cpu), Some(gpu)) = (env.package("onnxruntime"), env.package("onnxruntime-gpu"))
        else {
            continue;
        };
        let inst = fix::installer(inv, env);
        let f = LIB005
            .finding(format!(
                "onnxruntime {} and onnxruntime-gpu {} are both installed in {}: they write the same files, and the CPU build usually wins (no CUDAExecutionProvider).",
                cpu.version, gpu.version, env.path
            ))
            .evidence("onnxruntime", &cpu.version, &cpu.source)
            .evidence("onnxruntime-gpu", &gpu.version, &gpu.source)
            .fix_command(
                format!(
                    "{} && {}",
                    inst.uninstall("onnxruntime onnxruntime-gpu"),
                    inst.install(&format!("onnxruntime-gpu=={}", gpu.version))
                ),
                Some(format!(
                    "remove whatever pulls in the CPU package (a requirement on plain onnxruntime) so it does not come back; with uv: uv pip uninstall onnxruntime onnxruntime-gpu && {}",
                    inst.uv_install(&format!("onnxruntime-gpu=={}", gpu.version))
                )),
            );
        out.push(f);
    }
    out
}

/// CUDA majors whose runtime libraries the environment (or the system) provides.
fn cuda_runtime_majors(inv: &Inventory, env: &PythonEnv) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    for p in &env.packages {
        let n = p.name.as_str();
        let major = if n.starts_with("nvidia-cuda-runtime") || n.starts_with("nvidia-cublas") {
            facts::cu_suffix_major(n)
                .or_else(|| major_of(&p.version).filter(|_| !n.starts_with("nvidia-cublas")))
        } else if n == "cuda-toolkit" {
            major_of(&p.version)
        } else {
            None
        };
        if let Some(m) = major {
            out.push((m, format!("{n} {}", p.version), p.source.clone()));
        }
    }
    for t in &inv.toolkits {
        out.push((
            t.version.value.major,
            format!("CUDA toolkit {} ({})", t.version.value, t.path),
            t.version.source.clone(),
        ));
    }
    out
}

pub static LIB006: Rule = Rule {
    code: "LIB006",
    name: "onnxruntime-gpu-without-cuda-runtime",
    category: Category::OnnxruntimeCuda,
    severity: Severity::Error,
    summary: "onnxruntime-gpu is built for a CUDA major whose runtime libraries are not installed.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "onnxruntime-gpu's CUDA major (build_and_package_info.py, else the `onnxruntime` table: CUDA 11 up to 1.18, 12 from 1.19, 13 from 1.27) against the CUDA runtimes present: nvidia-cuda-runtime / nvidia-cublas / cuda-toolkit wheels in the environment and CUDA toolkits on disk.",
        why_it_breaks: "Unlike torch, onnxruntime-gpu does not bundle the CUDA runtime, cuBLAS or cuFFT: it loads libcudart.so.N, libcublasLt.so.N of its own major from the system or from nvidia-* wheels. Without them the CUDAExecutionProvider fails to load ('Failed to load library libonnxruntime_providers_cuda.so ... libcublasLt.so.12: cannot open shared object file') and sessions silently fall back to the CPU.",
        how_to_fix: "Install the CUDA runtime wheels of its major (for onnxruntime-gpu 1.19+: `pip install \"onnxruntime-gpu[cuda,cudnn]==<version>\"`), a CUDA toolkit of that major, or an onnxruntime-gpu built for the CUDA present (the note names it).",
        sources: &[
            "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements",
            "https://onnxruntime.ai/docs/install/",
        ],
    },
    check: check_lib006,
    superseded_by: &[],
};

fn check_lib006(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &inv.python {
        let Some(pkg) = env.package("onnxruntime-gpu") else {
            continue;
        };
        let build = env.onnxruntime.as_ref();
        let row = kb.onnxruntime(&pkg.version);
        let (major, src, kbref) = match build.and_then(|b| b.cuda.as_ref()) {
            Some(c) => (c.value.major, c.source.clone(), None),
            None => match row.and_then(|r| r.cuda_major.map(|m| (m, r))) {
                Some((m, r)) => (m, "knowledge base".to_string(), Some(r.kb())),
                None => continue,
            },
        };
        let present = cuda_runtime_majors(inv, env);
        if present.iter().any(|p| p.0 == major) {
            continue;
        }
        // A paste that lists no CUDA libraries says nothing of whether they are there.
        if present.is_empty() && env.kind == crate::inventory::EnvKind::Reported {
            continue;
        }
        let (sev, msg) = if present.is_empty() {
            (
                Severity::Warning,
                format!(
                    "onnxruntime-gpu {} in {} needs the CUDA {major} runtime libraries (libcudart, libcublasLt), and none were found (no nvidia-cuda-runtime/cublas wheels, no CUDA toolkit): its CUDAExecutionProvider will not load.",
                    pkg.version, env.path
                ),
            )
        } else {
            let have: Vec<&str> = present.iter().map(|p| p.1.as_str()).collect();
            (
                Severity::Error,
                format!(
                    "onnxruntime-gpu {} in {} is built for CUDA {major}, but only {} is present: its CUDAExecutionProvider cannot load and sessions fall back to the CPU.",
                    pkg.version,
                    env.path,
                    have.join(", ")
                ),
            )
        };
        let mut f = LIB006
            .finding(msg)
            .at(sev)
            .evidence("onnxruntime-gpu", &pkg.version, &pkg.source)
            .evidence("onnxruntime-gpu CUDA major", major, &src);
        if let Some(k) = kbref {
            f = f.kb(k);
        }
        for p in &present {
            f = f.evidence("CUDA runtime present", &p.1, &p.2);
        }
        let inst = fix::installer(inv, env);
        let has_extras = row.and_then(|r| r.cuda_extras).unwrap_or(false);
        let alt = present.first().and_then(|p| {
            kb.onnxruntime
                .row
                .iter()
                .rev()
                .find(|r| r.cuda_major == Some(p.0))
                .map(|r| (p.0, r))
        });
        let mut note = String::new();
        if let Some((m, r)) = alt {
            f = f.kb(r.kb());
            note = format!(
                "or install the build for the CUDA {m} present: {}",
                inst.install(&format!("onnxruntime-gpu=={}", r.version))
            );
        }
        f = if has_extras {
            f.fix_command(
                inst.install(&format!("\"onnxruntime-gpu[cuda,cudnn]=={}\"", pkg.version)),
                Some(if note.is_empty() {
                    "installs the CUDA runtime and cuDNN wheels of its CUDA major".to_string()
                } else {
                    format!("installs the CUDA runtime and cuDNN wheels of its CUDA major; {note}")
                }),
            )
        } else {
            f.fix_note(if note.is_empty() {
                format!("install a CUDA {major} toolkit or the CUDA {major} runtime wheels (nvidia-cuda-runtime-cu{major}, nvidia-cublas-cu{major}, nvidia-cufft-cu{major}, nvidia-curand-cu{major})")
            } else {
                format!("install a CUDA {major} toolkit or the CUDA {major} runtime wheels, {note}")
            })
        };
        out.push(f);
    }
    out
}

pub static LIB007: Rule = Rule {
    code: "LIB007",
    name: "toolkit-differs-from-torch-cuda",
    category: Category::MultipleCuda,
    severity: Severity::Info,
    summary: "The nvcc toolkit's CUDA differs from torch's: fine, the wheel bundles its own runtime.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "The first CUDA toolkit with nvcc (PATH, /usr/local/cuda*) against each CUDA torch build.",
        why_it_breaks: "It does not break running torch: the wheel carries its own CUDA runtime and libraries and never uses the system toolkit. It matters when compiling CUDA code against torch (extensions, JIT-built kernels), where the toolkit's major must match torch's (see ENV003), and it is a frequent source of confusion ('nvcc says 11.8, torch says 12.1').",
        how_to_fix: "Nothing to fix for running torch. For building extensions, use a toolkit of torch's CUDA major (same minor is safest) via CUDA_HOME.",
        sources: &["https://pytorch.org/get-started/locally/ (wheels ship their CUDA dependencies)", "https://pytorch.org/docs/stable/cpp_extension.html"],
    },
    check: check_lib007,
    superseded_by: &[],
};

/// Where an nvcc is: a toolkit directory, or (from a pasted `nvcc --version`) just "nvcc on PATH".
fn nvcc_where(path: &str) -> String {
    if path.starts_with("nvcc ") {
        format!("The {path}")
    } else {
        format!("nvcc at {path}")
    }
}

fn check_lib007(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(tk) = inv.toolkits.iter().find(|t| t.has_nvcc) else {
        return vec![];
    };
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let Some(c) = t.cuda() else { continue };
        if c.value.major_minor() == tk.version.value.major_minor() {
            continue;
        }
        let extra = if c.value.major != tk.version.value.major {
            " Extensions compiled with this nvcc will not match torch (another major)."
        } else {
            ""
        };
        let f = LIB007
            .finding(format!(
                "{} is CUDA {}, while {} uses its bundled CUDA {}: fine for running torch, which never uses the system toolkit.{extra}",
                nvcc_where(&tk.path), tk.version.value, t.label, c.value
            ))
            .fact(format!("CUDA toolkit ({})", tk.path), &tk.version);
        out.push(t.cite_cuda(f).fix_note("Nothing to fix for running torch; to build extensions, point CUDA_HOME at a toolkit of torch's CUDA major."));
    }
    out
}

pub static LIB008: Rule = Rule {
    code: "LIB008",
    name: "nvidia-wheels-other-cuda-major",
    category: Category::MultipleCuda,
    severity: Severity::Warning,
    summary: "nvidia-* CUDA wheels of another CUDA major than every framework in the environment.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "In each environment with a CUDA framework: nvidia-*-cuXX wheels (the suffix is the CUDA major) whose major no framework in the environment uses.",
        why_it_breaks: "torch, onnxruntime and TensorFlow load the nvidia-* wheels of their own CUDA major. Wheels of another major are at best dead weight; at worst they share library names that do not carry the CUDA major (libcudnn.so.9, libnccl.so.2), so the wrong build is loaded, or they were pulled in by a mis-resolved install, leaving the right major's wheel missing.",
        how_to_fix: "Uninstall the other major's wheels (check `pip show <name>` for what requires them first), then reinstall the framework so its own nvidia-* wheels are complete.",
        sources: &["https://pypi.org/project/nvidia-cuda-runtime-cu12/ (one wheel per CUDA major)", "gpucompat knowledge table nvidia_wheels"],
    },
    check: check_lib008,
    superseded_by: &[],
};

fn check_lib008(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let rts = facts::runtimes(inv, kb);
    let mut out = Vec::new();
    for env in &inv.python {
        let used: BTreeSet<u32> = rts
            .iter()
            .filter(|r| std::ptr::eq(r.env, env))
            .map(|r| r.cuda.value.major)
            .collect();
        if used.is_empty() {
            continue;
        }
        let stray: Vec<_> = env
            .packages
            .iter()
            .filter(|p| p.name.starts_with("nvidia-"))
            .filter_map(|p| facts::cu_suffix_major(&p.name).map(|m| (p, m)))
            .filter(|(_, m)| !used.contains(m))
            .collect();
        if stray.is_empty() {
            continue;
        }
        let names: Vec<String> = stray
            .iter()
            .map(|(p, _)| format!("{} {}", p.name, p.version))
            .collect();
        let used_s: Vec<String> = used.iter().map(|m| m.to_string()).collect();
        let mut f = LIB008.finding(format!(
            "{} has CUDA wheels of another major ({}) than its frameworks use (CUDA {}): libraries without the CUDA major in their name can be loaded from the wrong build.",
            env.path,
            names.join(", "),
            used_s.join(", ")
        ));
        for r in rts.iter().filter(|r| std::ptr::eq(r.env, env)) {
            f = r.cuda.cite(f, &format!("{} CUDA build", r.what));
        }
        for (p, _) in &stray {
            f = f.evidence(format!("package {}", p.name), &p.version, &p.source);
        }
        let inst = fix::installer(inv, env);
        let list: Vec<&str> = stray.iter().map(|(p, _)| p.name.as_str()).collect();
        f = f.fix_command(
            inst.uninstall(&list.join(" ")),
            Some("check `pip show <name>` (Required-by) first; then reinstall the framework so its own nvidia-* wheels are complete".into()),
        );
        out.push(f);
    }
    out
}

pub static LIB009: Rule = Rule {
    code: "LIB009",
    name: "system-cudnn-built-for-other-cuda",
    category: Category::CudnnMismatch,
    severity: Severity::Warning,
    summary: "A system cuDNN package built for another CUDA major than the toolkit and the frameworks that load the system cuDNN.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "Each system cuDNN whose package names the CUDA it was built for (`libcudnn8 8.8.0.121-1+cuda12.0`, `libcudnn9-cuda-12`) against the CUDA majors that use the system cuDNN: toolkits with nvcc, and the jaxlib, TensorFlow and onnxruntime builds that do not carry their own cuDNN wheel.",
        why_it_breaks: "NVIDIA publishes each cuDNN release once per CUDA major, under the same library name (libcudnn.so.8). A cuDNN built for CUDA 12 loads CUDA 12's cuBLAS (libcublasLt.so.12), which a CUDA 11 machine does not have ('Could not load library libcublasLt.so.12'), or mixes two CUDA majors in one process. `apt upgrade` moves to the newest build, whatever its CUDA.",
        how_to_fix: "Install the build of that cuDNN for the CUDA major in use (`apt list -a libcudnn8` lists them; pin `libcudnn8=<version>-1+cuda11.8` and the same for -dev), or use the framework's own cuDNN wheel.",
        sources: &[
            "https://developer.download.nvidia.com/compute/redist/cudnn/v8.0.5/Ubuntu18_04-x64 (one cuDNN release, one package per CUDA: libcudnn8_8.0.5.39-1+cuda10.1 ... +cuda11.1)",
            "https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-893/pdf/cuDNN-Installation-Guide.pdf (Debian installation: libcudnn8=${cudnn_version}-1+${cuda_version})",
            "https://docs.nvidia.com/deeplearning/cudnn/backend/latest/reference/support-matrix.html",
        ],
    },
    check: check_lib009,
    superseded_by: &[],
};

/// The CUDA major of a jaxlib local tag: `+cuda11.cudnn82` → 11, `+cuda111` → 11, `+cuda102` → 10.
fn jaxlib_cuda_major(version: &str) -> Option<u32> {
    let (_, local) = version.split_once('+')?;
    let digits: String = local
        .strip_prefix("cuda")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.len() {
        2 => digits.parse().ok(),
        3 => digits[..2].parse().ok(),
        _ => None,
    }
}

/// The CUDA majors that load the system cuDNN: (major, what, source).
fn system_cudnn_users(inv: &Inventory) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    for t in inv.toolkits.iter().filter(|t| t.has_nvcc) {
        out.push((
            t.version.value.major,
            format!("CUDA toolkit {} ({})", t.version.value, t.path),
            t.version.source.clone(),
        ));
    }
    for env in &inv.python {
        if env
            .packages
            .iter()
            .any(|p| p.name.starts_with("nvidia-cudnn"))
        {
            continue;
        }
        if let Some(p) = env.package("jaxlib") {
            if let Some(m) = jaxlib_cuda_major(&p.version) {
                out.push((m, format!("jaxlib {}", p.version), p.source.clone()));
            }
        }
        let fws: [(&str, &Option<FrameworkBuild>); 2] = [
            ("tensorflow", &env.tensorflow),
            ("onnxruntime", &env.onnxruntime),
        ];
        for (name, fw) in fws {
            if let Some(c) = fw.as_ref().and_then(|b| b.cuda.as_ref()) {
                out.push((
                    c.value.major,
                    format!("{name} built for CUDA {}", c.value),
                    c.source.clone(),
                ));
            }
        }
    }
    out
}

fn check_lib009(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let users = system_cudnn_users(inv);
    if users.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    for l in &inv.libraries.cudnn {
        let Some(built) = l.cuda_major() else {
            continue;
        };
        if users.iter().any(|u| u.0 == built) {
            continue;
        }
        // The -dev package beside its runtime package of the same build is one install.
        let runtime_beside = l.path.strip_suffix("-dev").is_some_and(|rt| {
            inv.libraries
                .cudnn
                .iter()
                .any(|o| o.path == rt && o.version.value == l.version.value)
        });
        if runtime_beside {
            continue;
        }
        let used: BTreeSet<u32> = users.iter().map(|u| u.0).collect();
        let used: Vec<String> = used.iter().map(|m| format!("CUDA {m}")).collect();
        let built_s = match &l.built_for_cuda {
            Some(c) => format!("CUDA {}", c.value),
            None => format!("CUDA {built}"),
        };
        let mut f = LIB009
            .finding(format!(
                "cuDNN {} ({}) is built for {built_s}, but what loads the system cuDNN here is {}: it asks for CUDA {built} libraries (libcublasLt.so.{built}) that this CUDA does not provide.",
                l.version.value,
                l.path,
                used.join(", ")
            ))
            .fact(format!("cuDNN ({})", l.path), &l.version);
        if let Some(c) = &l.built_for_cuda {
            f = f.fact(format!("cuDNN ({}) built for CUDA", l.path), c);
        }
        for (_, what, src) in &users {
            f = f.evidence("uses the system cuDNN", what, src);
        }
        let pkg = l.path.strip_prefix("package ").unwrap_or("libcudnn8");
        let want = users.first().map_or(0, |u| u.0);
        f = f.fix_command(
            format!("apt list -a {pkg} 2>/dev/null | grep cuda{want}"),
            Some(format!(
                "lists the builds of {pkg} for CUDA {want}; install one with `sudo apt-get install {pkg}=<version>` (and the same version of its -dev package), or use the framework's own cuDNN wheel (nvidia-cudnn-cu{want})"
            )),
        );
        out.push(f);
    }
    out
}

pub static LIB010: Rule = Rule {
    code: "LIB010",
    name: "tensorflow-needs-other-cuda",
    category: Category::MultipleCuda,
    severity: Severity::Error,
    summary: "A TensorFlow GPU build loads the CUDA libraries of the release it was built with, and the CUDA installed is another whose libraries have other names.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "Outside containers (an image carries its own CUDA), each environment's TensorFlow GPU build (tensorflow-gpu, tensorflow 2.1+ on Linux, tensorflow 2.1-2.10 on Windows) with a known build CUDA (build_info.py, else the tested build configurations) and no nvidia-cuda-runtime wheel of that CUDA's major beside it, against the CUDA toolkits in the report: none carries the runtime library name that CUDA's build loads (per minor before CUDA 11: libcudart.so.10.1, cudart64_101.dll; per major from 11).",
        why_it_breaks: "TensorFlow does not bundle CUDA: it opens libcudart, libcublas, libcufft and the rest by the names of the release it was built with. Before CUDA 11 each minor release had its own names, so TensorFlow 2.1 (CUDA 10.1) cannot use CUDA 10.2; from CUDA 11 the names carry the major only. Without them TensorFlow logs 'Could not load dynamic library' and lists no GPU.",
        how_to_fix: "Install the CUDA release (and cuDNN) the TensorFlow version was built with beside the other, with its libraries on the loader path, or install the TensorFlow release built for the CUDA you have (tensorflow.org's tested build configurations).",
        sources: &[
            "https://www.tensorflow.org/install/source#gpu (tested build configurations: the CUDA and cuDNN each release was built with)",
            "https://docs.nvidia.com/deploy/cuda-compatibility/ (from CUDA 11, minor releases of a major share the runtime's soname)",
            "https://github.com/tensorflow/tensorflow/issues/38090 (TensorFlow 2.1 on Windows with CUDA 10.2 found no GPU; CUDA 10.1 fixed it)",
        ],
    },
    check: check_lib010,
    superseded_by: &[],
};

/// The CUDA runtime's library names: per minor before 11, per major from 11.
fn cudart_names(v: crate::version::CudaVersion) -> (String, String) {
    if v.major < 11 {
        (
            format!("libcudart.so.{}.{}", v.major, v.minor),
            format!("cudart64_{}{}.dll", v.major, v.minor),
        )
    } else if v.major == 11 {
        ("libcudart.so.11.0".into(), "cudart64_110.dll".into())
    } else {
        (
            format!("libcudart.so.{}", v.major),
            format!("cudart64_{}.dll", v.major),
        )
    }
}

fn check_lib010(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    // In a container TensorFlow takes the image's CUDA, not the host's toolkit.
    if inv.toolkits.is_empty() || facts::in_container(inv) {
        return vec![];
    }
    let windows = facts::os_kind(inv) == Some(crate::inventory::OsKind::Windows);
    let mut out = Vec::new();
    for env in &inv.python {
        let Some(b) = &env.tensorflow else { continue };
        let Some(v) = &b.version else { continue };
        let on_windows =
            windows && series(&v.value).is_some_and(|s| ((2, 1)..=(2, 10)).contains(&s));
        if !(tf_is_cuda_build(inv, env, b) || on_windows) {
            continue;
        }
        let row = kb.tensorflow(&v.value);
        let Some((need, need_src)) = b
            .cuda
            .as_ref()
            .map(|c| (c.value, c.source.clone()))
            .or_else(|| {
                row.and_then(|r| r.cuda_version)
                    .map(|c| (c, "knowledge base".to_string()))
            })
        else {
            continue;
        };
        let wheel = format!("nvidia-cuda-runtime-cu{}", need.major);
        if env.packages.iter().any(|p| p.name == wheel) {
            continue;
        }
        if inv
            .toolkits
            .iter()
            .any(|t| cudart_names(t.version.value) == cudart_names(need))
        {
            continue;
        }
        let tk = &inv.toolkits[0];
        let (so, dll) = cudart_names(need);
        let name = if windows { dll } else { so };
        let mut f = LIB010
            .finding(format!(
                "TensorFlow {} was built with CUDA {need} and loads that release's libraries by name ({name}); the CUDA here is {}, whose libraries have other names, so TensorFlow finds no GPU.",
                v.value, tk.version.value
            ))
            .fact("tensorflow", v)
            .fact(format!("CUDA toolkit ({})", tk.path), &tk.version);
        f.push_evidence("TensorFlow's build CUDA", need.to_string(), &need_src);
        if let Some(r) = row {
            f = f.kb(r.kb());
        }
        let cudnn = row
            .and_then(|r| r.cudnn_major)
            .map(|m| format!(" and cuDNN {m}"))
            .unwrap_or_default();
        // The newest release built with the CUDA present, where the tables know one.
        let have = tk.version.value.major_minor();
        let other = kb
            .tensorflow
            .row
            .iter()
            .rev()
            .find(|r| r.cuda_version.is_some_and(|c| c.major_minor() == have))
            .map(|r| r.version.as_str());
        let or = match other {
            Some(o) => format!(", or TensorFlow {o} (built with CUDA {have})"),
            None => format!(
                "; no TensorFlow release in gpucompat's tables is built for CUDA {}",
                tk.version.value
            ),
        };
        out.push(f.fix_note(format!(
            "install CUDA {need}{cudnn} beside the other (its libraries on the loader path){or}"
        )));
    }
    out
}
pub static LIB011: Rule = Rule {
    code: "LIB011",
    name: "conda-env-mixes-cuda-majors",
    category: Category::MultipleCuda,
    severity: Severity::Warning,
    summary: "One conda environment holds CUDA packages of two CUDA majors (cudatoolkit 11.8 beside cuda-nvcc 12.4): its compiler and its runtime libraries disagree.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "The CUDA component packages of one environment (cudatoolkit, cuda-version, cuda-nvcc, cuda-cudart, cuda-runtime, cuda-toolkit, cuda-libraries, cuda-nvrtc) as conda lists them: two CUDA majors among them. An error when code built in that environment fails on the GPU ('no kernel image', invalid PTX).",
        why_it_breaks: "conda resolves an unpinned package (`nvidia::cuda-nvcc`) to its newest build, whatever CUDA the rest of the environment holds. JAX, Triton and CuPy then compile with that nvcc or ptxas for one CUDA and load the code through the other's runtime and libraries: kernels the runtime cannot load ('no kernel image is available', 'the provided PTX was compiled with an unsupported toolchain') or libraries that do not match.",
        how_to_fix: "Pin every CUDA package of the environment to one release: `cuda-version=X.Y` with the components (`conda install cuda-nvcc cuda-version=11.8 -c nvidia -c conda-forge`), or remove the stray one (`conda remove cuda-nvcc`); recreate the environment if the solver keeps mixing them.",
        sources: &[
            "https://github.com/conda-forge/cuda-version-feedstock (cuda-version X.Y constrains cudatoolkit and the cuda-* packages to that release)",
            "https://github.com/dattalab/keypoint-moseq/issues/161 (an unpinned cuda-nvcc 12.4 beside cudatoolkit 11.8: JAX 'no kernel image is available')",
        ],
    },
    check: check_lib011,
    superseded_by: &[],
};

/// conda's CUDA component packages, which each name the CUDA release they belong to.
const CUDA_COMPONENTS: &[&str] = &[
    "cudatoolkit",
    "cuda-version",
    "cuda-nvcc",
    "cuda-cudart",
    "cuda-runtime",
    "cuda-toolkit",
    "cuda-libraries",
    "cuda-nvrtc",
];

fn check_lib011(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &inv.python {
        let parts: Vec<(&crate::inventory::PyPackage, u32)> = env
            .packages
            .iter()
            .filter(|p| CUDA_COMPONENTS.contains(&p.name.as_str()))
            .filter_map(|p| {
                let major = p.version.split('.').next()?.parse::<u32>().ok()?;
                (8..=20).contains(&major).then_some((p, major))
            })
            .collect();
        let majors: BTreeSet<u32> = parts.iter().map(|(_, m)| *m).collect();
        if majors.len() < 2 {
            continue;
        }
        let list: Vec<String> = parts
            .iter()
            .map(|(p, _)| format!("{} {}", p.name, p.version))
            .collect();
        // 'No kernel image' (ERR004) folds into this finding and makes it an
        // error; a PTX the runtime refuses is shown here.
        let failed = inv.errors_of(&[ErrorKind::UnsupportedPtx]);
        let mut f = LIB011.finding(format!(
            "The environment's CUDA packages belong to {} CUDA majors ({}): code compiled with one release's nvcc or ptxas is loaded by the other's runtime and libraries.",
            majors.len(),
            list.join(", ")
        ));
        for (p, _) in &parts {
            f = f.evidence(format!("conda package {}", p.name), &p.version, &p.source);
        }
        f = f.observed(failed.iter().copied());
        if !failed.is_empty() {
            f.severity = Severity::Error;
        }
        // The release the environment is pinned to: cuda-version's, else cudatoolkit's.
        let pinned = ["cuda-version", "cudatoolkit"]
            .iter()
            .find_map(|n| parts.iter().find(|(p, _)| p.name == *n));
        let keep = pinned.map(|(p, _)| p.version.split('.').take(2).collect::<Vec<_>>().join("."));
        f = match keep {
            Some(v) => f.fix_command(
                format!("conda install cuda-nvcc cuda-version={v} -c nvidia -c conda-forge"),
                Some("pins the compiler to the CUDA release the rest of the environment holds; or remove the stray packages and pin all of them to one cuda-version".into()),
            ),
            None => f.fix_note("pin every CUDA package of the environment to one release (`cuda-version=X.Y`), or recreate it with one"),
        };
        out.push(f);
    }
    out
}
