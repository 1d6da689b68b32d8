//! The card's Python environments section: each environment (path, kind,
//! Python version) with its ML packages and the CUDA build each one carries,
//! as plain text lines or as Markdown table rows. Unknown facts print as
//! "unknown".

use crate::inventory::{EnvKind, Fact, PyPackage, PythonEnv, PythonRuntime};
use crate::version::CudaVersion;

const UNKNOWN: &str = "unknown";

/// nvidia-* wheels always listed; the other CUDA library wheels are summed up
/// unless verbose.
fn is_key_nvidia(name: &str) -> bool {
    name.starts_with("nvidia-cuda-runtime")
        || name.starts_with("nvidia-cudnn")
        || name.starts_with("nvidia-nccl")
}

pub fn kind_name(kind: EnvKind) -> &'static str {
    match kind {
        EnvKind::Venv => "venv",
        EnvKind::Conda => "conda",
        EnvKind::System => "system",
        EnvKind::User => "user",
        EnvKind::Uv => "uv",
        EnvKind::Pyenv => "pyenv",
        EnvKind::Reported => "reported",
    }
}

fn cuda_major_of_name(name: &str) -> Option<u32> {
    name.split('-').find_map(|tok| {
        let d = tok
            .strip_prefix("cuda")
            .or_else(|| tok.strip_prefix("cu"))?;
        let d = d.strip_suffix('x').unwrap_or(d);
        (d.len() == 2 && d.bytes().all(|b| b.is_ascii_digit()))
            .then(|| d.parse().ok())
            .flatten()
    })
}

fn cuda_text(cuda: Option<&Fact<CudaVersion>>, major: Option<&Fact<u32>>) -> String {
    match (cuda, major) {
        (Some(c), _) => format!("CUDA {}", c.value),
        (None, Some(m)) => format!("CUDA {}.x", m.value),
        (None, None) => format!("CUDA {UNKNOWN}"),
    }
}

/// The version shown for a package: torch's own label (`2.5.1+cu124`) when
/// `torch/version.py` gives one.
fn shown_version(env: &PythonEnv, pkg: &PyPackage) -> String {
    if pkg.name == "torch" {
        if let Some(v) = env.torch.as_ref().and_then(|t| t.version.as_ref()) {
            return v.value.clone();
        }
    }
    pkg.version.clone()
}

/// What a package was built for, when the card should say: `CUDA 12.4`,
/// `CPU only`, `ROCm 6.2`, `cuDNN 9.1.0.70`; None when nothing needs saying.
pub fn build_label(env: &PythonEnv, pkg: &PyPackage) -> Option<String> {
    let n = pkg.name.as_str();
    let label = match n {
        "torch" => {
            let t = env.torch.as_ref()?;
            let mut s = match (&t.cuda, &t.hip) {
                (Some(f), _) if f.value.is_some() => {
                    format!(
                        "CUDA {}",
                        f.value.map(|v| v.to_string()).unwrap_or_default()
                    )
                }
                (_, Some(h)) if h.value.is_some() => {
                    format!("ROCm {}", h.value.clone().unwrap_or_default())
                }
                (Some(_), _) => "CPU only".to_string(),
                (None, _) => format!("CUDA {UNKNOWN}"),
            };
            if let Some(c) = &t.cudnn {
                s.push_str(&format!(", cuDNN {}", c.value));
            }
            s
        }
        "onnxruntime" if env.package("onnxruntime-gpu").is_some() => {
            "installed together with onnxruntime-gpu".to_string()
        }
        "onnxruntime" => return None,
        _ if n.starts_with("onnxruntime-") => {
            let b = env.onnxruntime.as_ref()?;
            if n != "onnxruntime-gpu" && b.cuda.is_none() && b.cuda_major.is_none() {
                return None;
            }
            let mut s = cuda_text(b.cuda.as_ref(), b.cuda_major.as_ref());
            if let Some(c) = &b.cudnn {
                s.push_str(&format!(", cuDNN {}", c.value));
            }
            s
        }
        "tensorflow" | "tensorflow-gpu" | "tf-nightly" | "tensorflow-cpu" => {
            let b = env.tensorflow.as_ref()?;
            if b.cuda.is_none() && b.cuda_major.is_none() {
                if n == "tensorflow-cpu" {
                    return None;
                }
                format!("CUDA {UNKNOWN} or CPU only")
            } else {
                let mut s = cuda_text(b.cuda.as_ref(), b.cuda_major.as_ref());
                if let Some(c) = &b.cudnn {
                    s.push_str(&format!(", cuDNN {}", c.value));
                }
                s
            }
        }
        "jaxlib" => {
            let b = env.jax.as_ref()?;
            if b.cuda.is_none() && b.cuda_major.is_none() {
                return None;
            }
            cuda_text(b.cuda.as_ref(), b.cuda_major.as_ref())
        }
        "cuda-toolkit" => format!("CUDA {}", pkg.version),
        _ if n == "nvidia-cuda-runtime" || n.starts_with("nvidia-cuda-runtime-cu") => {
            match pkg.version.parse::<CudaVersion>() {
                Ok(v) => format!("CUDA {}", v.major_minor()),
                Err(_) => format!("CUDA {UNKNOWN}"),
            }
        }
        _ if n.starts_with("nvidia-cudnn") => "cuDNN".to_string(),
        _ if n.starts_with("nvidia-") => return None,
        _ => format!("CUDA {}.x", cuda_major_of_name(n)?),
    };
    Some(label)
}

fn package_text(env: &PythonEnv, pkg: &PyPackage) -> String {
    let mut s = format!("{} {}", pkg.name, shown_version(env, pkg));
    let mut extra: Vec<String> = build_label(env, pkg).into_iter().collect();
    if pkg.editable {
        extra.push("editable".into());
    }
    if !extra.is_empty() {
        s.push_str(&format!(" ({})", extra.join(", ")));
    }
    s
}

fn runtime_text(rt: &PythonRuntime) -> String {
    if let Some(f) = &rt.torch_version {
        if f.value.is_none() {
            return "torch not installed".into();
        }
    }
    let mut parts = Vec::new();
    if let Some(Some(v)) = rt.torch_version.as_ref().map(|f| &f.value) {
        let cuda = match rt.torch_cuda.as_ref().map(|f| f.value) {
            Some(Some(c)) => format!("CUDA {c}"),
            Some(None) => "no CUDA".into(),
            None => format!("CUDA {UNKNOWN}"),
        };
        parts.push(format!("torch {v} ({cuda})"));
    }
    match rt.cuda_available.as_ref().map(|f| f.value) {
        Some(true) => {
            let gpus: Vec<String> = rt
                .devices
                .iter()
                .map(|g| {
                    let name = g.name.as_ref().map_or(UNKNOWN, |f| f.value.as_str());
                    let cc = g
                        .compute_capability
                        .as_ref()
                        .map_or(UNKNOWN.to_string(), |f| f.value.sm());
                    let mem = g
                        .memory_mib
                        .as_ref()
                        .map_or(UNKNOWN.to_string(), |f| format!("{} MiB", f.value));
                    format!("{name} {cc} {mem}")
                })
                .collect();
            let count = rt
                .device_count
                .as_ref()
                .map_or(gpus.len() as u32, |f| f.value);
            parts.push(format!(
                "CUDA available, {count} GPU(s): {}",
                gpus.join("; ")
            ));
        }
        Some(false) => parts.push("CUDA not available".into()),
        None => {}
    }
    match rt.matmul_ok.as_ref().map(|f| f.value) {
        Some(true) => parts.push("fp16 matmul ok".into()),
        Some(false) => parts.push("fp16 matmul FAILED".into()),
        None => {}
    }
    if let Some(e) = &rt.exception {
        parts.push(format!("error: {}", shorten(&e.value, 160)));
    }
    if parts.is_empty() {
        UNKNOWN.into()
    } else {
        parts.join(", ")
    }
}

/// At most `max` characters, cut at a word with an ellipsis (the JSON keeps the whole text).
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
    format!("{cut} …")
}

fn header(env: &PythonEnv) -> String {
    let version = env
        .python_version
        .as_ref()
        .map_or(UNKNOWN, |f| f.value.as_str());
    format!("{}  {}  Python {version}", env.path, kind_name(env.kind))
}

/// The section as plain text lines, without trailing newlines. With
/// `verbose`, every CUDA library wheel and the interpreter are listed too.
pub fn text_lines(envs: &[PythonEnv], verbose: bool) -> Vec<String> {
    let mut out = vec![format!("Python environments: {}", envs.len())];
    for env in envs {
        let mark = if env.active { "*" } else { "-" };
        let active = if env.active { "  (active)" } else { "" };
        out.push(format!("  {mark} {}{active}", header(env)));
        if verbose {
            if let Some(i) = &env.interpreter {
                out.push(format!("      interpreter {i}"));
            }
        }
        let mut hidden = 0;
        for p in &env.packages {
            if !verbose && p.name.starts_with("nvidia-") && !is_key_nvidia(&p.name) {
                hidden += 1;
                continue;
            }
            out.push(format!("      {}", package_text(env, p)));
        }
        if hidden > 0 {
            out.push(format!("      + {hidden} more nvidia-* library wheels"));
        }
        if env.packages.is_empty() {
            out.push("      no ML packages".into());
        }
        if let Some(rt) = &env.runtime {
            out.push(format!("      python says: {}", runtime_text(rt)));
        }
    }
    out
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The section as a Markdown table: the header row, the separator, then one
/// row per environment.
pub fn markdown_rows(envs: &[PythonEnv]) -> Vec<String> {
    let mut out = vec![
        "| Environment | Kind | Python | ML packages |".to_string(),
        "| --- | --- | --- | --- |".to_string(),
    ];
    for env in envs {
        let path = if env.active {
            format!("`{}` (active)", env.path)
        } else {
            format!("`{}`", env.path)
        };
        let version = env
            .python_version
            .as_ref()
            .map_or(UNKNOWN, |f| f.value.as_str());
        let mut pkgs: Vec<String> = Vec::new();
        let mut hidden = 0;
        for p in &env.packages {
            if p.name.starts_with("nvidia-") && !is_key_nvidia(&p.name) {
                hidden += 1;
            } else {
                pkgs.push(package_text(env, p));
            }
        }
        if hidden > 0 {
            pkgs.push(format!("+ {hidden} more nvidia-* library wheels"));
        }
        if let Some(rt) = &env.runtime {
            pkgs.push(format!("python says: {}", runtime_text(rt)));
        }
        let pkgs = if pkgs.is_empty() {
            "none".to_string()
        } else {
            pkgs.join("<br>")
        };
        out.push(format!(
            "| {} | {} | {} | {} |",
            cell(&path),
            kind_name(env.kind),
            cell(version),
            cell(&pkgs)
        ));
    }
    out
}
