//! CUDA toolkits on disk (`/usr/local/cuda*`, `/opt/cuda`, CUDA_HOME,
//! CUDA_PATH, `nvcc` on PATH) and the cuda-compat forward-compatibility
//! libraries in their `compat/` directories.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::{find_program, text, Ctx, Log};
use crate::inventory::{Fact, LibraryInstall, Toolkit};
use crate::system::CommandOutcome;
use crate::version::CudaVersion;

const ENV_DIRS: &[&str] = &["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"];
const OTHER_DIRS: &[&str] = &["/opt/cuda", "/usr/lib/cuda", "/usr/lib/nvidia-cuda-toolkit"];

/// Directories that may hold a toolkit, each once, in a stable order.
pub(crate) fn candidate_dirs(ctx: &Ctx) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Ok(entries) = ctx.sys.read_dir(Path::new("/usr/local")) {
        dirs.extend(
            entries
                .into_iter()
                .filter(|e| e.is_dir && e.name.starts_with("cuda"))
                .map(|e| e.path),
        );
    }
    dirs.extend(OTHER_DIRS.iter().map(PathBuf::from));
    for var in ENV_DIRS {
        if let Some(v) = ctx.sys.env(var) {
            let v = v.trim().trim_end_matches('/');
            if v.starts_with('/') {
                dirs.push(PathBuf::from(v));
            }
        }
    }
    let mut seen = HashSet::new();
    dirs.retain(|d| ctx.sys.is_dir(d) && seen.insert(d.clone()));
    dirs
}

pub(crate) fn probe(
    ctx: &Ctx,
    dirs: &[PathBuf],
    log: &mut Log,
) -> (Vec<Toolkit>, Vec<LibraryInstall>) {
    let mut toolkits = Vec::new();
    for dir in dirs {
        if let Some(t) = toolkit_at(ctx, dir, log) {
            toolkits.push(t);
        }
    }
    path_nvcc(ctx, &mut toolkits, log);
    let compat = compat_libraries(ctx, &toolkits);
    (toolkits, compat)
}

fn toolkit_at(ctx: &Ctx, dir: &Path, log: &mut Log) -> Option<Toolkit> {
    let d = dir.display().to_string();
    let has_nvcc = ctx.sys.exists(&dir.join("bin/nvcc"));
    let has_compat = ctx.sys.is_dir(&dir.join("compat"));
    let version = version_json(ctx, &d, log)
        .or_else(|| version_txt(ctx, &d, log))
        .or_else(|| {
            has_nvcc
                .then(|| nvcc_version(ctx, &format!("{d}/bin/nvcc"), log))
                .flatten()
        });
    let Some(mut version) = version else {
        if has_nvcc || ctx.sys.is_dir(&dir.join("lib64")) {
            log.note(
                &d,
                "looks like a CUDA toolkit, but its version could not be read",
            );
        }
        return None;
    };
    if let Ok(target) = ctx.sys.read_link(dir) {
        version = version.with_note(format!("{d} links to {}", target.display()));
    }
    Some(Toolkit {
        path: d,
        version,
        has_nvcc,
        has_compat,
    })
}

fn version_json(ctx: &Ctx, dir: &str, log: &mut Log) -> Option<Fact<CudaVersion>> {
    let path = format!("{dir}/version.json");
    let content = text::read(ctx, &path, log)?;
    match parse_version_json(&content) {
        Some(v) => Some(Fact::new(v, path)),
        None => {
            log.note(&path, "no cuda.version field could be read");
            None
        }
    }
}

/// `{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, ...}` (CUDA 11.1 and later).
pub fn parse_version_json(content: &str) -> Option<CudaVersion> {
    let v: serde_json::Value = serde_json::from_str(content).ok()?;
    v.get("cuda")?.get("version")?.as_str()?.parse().ok()
}

fn version_txt(ctx: &Ctx, dir: &str, log: &mut Log) -> Option<Fact<CudaVersion>> {
    let path = format!("{dir}/version.txt");
    let content = text::read(ctx, &path, log)?;
    parse_version_txt(&content).map(|v| Fact::new(v, path))
}

/// `CUDA Version 10.2.89` (CUDA 11.0 and earlier).
pub fn parse_version_txt(content: &str) -> Option<CudaVersion> {
    let re = Regex::new(r"CUDA Version\s+(\d+\.\d+(?:\.\d+)?)").ok()?;
    re.captures(content)?.get(1)?.as_str().parse().ok()
}

/// `Cuda compilation tools, release 12.4, V12.4.131`.
pub fn parse_nvcc_version(out: &str) -> Option<CudaVersion> {
    let re = Regex::new(r"release (\d+\.\d+), (V\d+\.\d+(?:\.\d+)?)").ok()?;
    let caps = re.captures(out)?;
    caps.get(2)?
        .as_str()
        .parse()
        .ok()
        .or_else(|| caps.get(1)?.as_str().parse().ok())
}

fn nvcc_version(ctx: &Ctx, nvcc: &str, log: &mut Log) -> Option<Fact<CudaVersion>> {
    if !ctx.may_run_code() {
        log.not_run.push(nvcc.to_string());
        return None;
    }
    let source = format!("{nvcc} --version");
    match ctx.sys.run(nvcc, &["--version"], ctx.opts.timeouts.command) {
        CommandOutcome::Finished {
            code: Some(0),
            stdout,
            ..
        } => match parse_nvcc_version(&stdout) {
            Some(v) => Some(Fact::new(v, source)),
            None => {
                log.note(&source, "printed no release line");
                None
            }
        },
        CommandOutcome::NotFound => None,
        other => {
            log.note(&source, other.describe());
            None
        }
    }
}

/// The first `nvcc` on PATH: marks its toolkit, or adds one for a
/// distribution package (`/usr/bin/nvcc`) that has no version file.
fn path_nvcc(ctx: &Ctx, toolkits: &mut Vec<Toolkit>, log: &mut Log) {
    let Some(nvcc) = find_program(ctx, "nvcc") else {
        return;
    };
    let root = nvcc
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("/"))
        .display()
        .to_string();
    if let Some(t) = toolkits.iter_mut().find(|t| t.path == root) {
        let note = match t.version.note.take() {
            Some(n) => format!("{n}; its nvcc is the first on PATH"),
            None => "its nvcc is the first on PATH".to_string(),
        };
        t.version.note = Some(note);
        return;
    }
    let nvcc_s = nvcc.display().to_string();
    if let Some(v) = nvcc_version(ctx, &nvcc_s, log) {
        toolkits.push(Toolkit {
            path: root,
            version: v.with_note("its nvcc is the first on PATH"),
            has_nvcc: true,
            has_compat: false,
        });
    }
}

/// `compat/libcuda.so.X.Y.Z` of every toolkit, each real file once.
fn compat_libraries(ctx: &Ctx, toolkits: &[Toolkit]) -> Vec<LibraryInstall> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for t in toolkits.iter().filter(|t| t.has_compat) {
        let dir = Path::new(&t.path).join("compat");
        let Ok(entries) = ctx.sys.read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let Some(v) = text::so_version(&e.name, "libcuda") else {
                continue;
            };
            let real = std::fs::canonicalize(ctx.sys.host_path(&e.path))
                .unwrap_or_else(|_| e.path.clone());
            if !seen.insert(real) {
                continue;
            }
            let path = e.path.display().to_string();
            out.push(LibraryInstall {
                version: Fact::new(v.to_string(), path.clone()),
                path,
                built_for_cuda: None,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_json_real() {
        let s = r#"{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "12.4.1"
   },
   "cuda_cccl" : {
      "name" : "CUDA C++ Core Compute Libraries",
      "version" : "12.4.127"
   }
}"#;
        assert_eq!(parse_version_json(s).unwrap().to_string(), "12.4.1");
        assert!(parse_version_json(r#"{"cuda_cccl": {"version": "12.4.127"}}"#).is_none());
        assert!(parse_version_json("not json").is_none());
    }

    #[test]
    fn version_txt_real() {
        assert_eq!(
            parse_version_txt("CUDA Version 10.2.89\n")
                .unwrap()
                .to_string(),
            "10.2.89"
        );
        assert!(parse_version_txt("cuDNN 8\n").is_none());
    }

    #[test]
    fn nvcc_output() {
        let out = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2024 NVIDIA Corporation\nBuilt on Thu_Mar_28_02:18:24_PDT_2024\nCuda compilation tools, release 12.4, V12.4.131\nBuild cuda_12.4.r12.4/compiler.34097967_0\n";
        assert_eq!(parse_nvcc_version(out).unwrap().to_string(), "12.4.131");
        let debian = "Cuda compilation tools, release 11.5, V11.5.119\n";
        assert_eq!(parse_nvcc_version(debian).unwrap().to_string(), "11.5.119");
        assert!(parse_nvcc_version("nvcc fatal : No input files specified").is_none());
    }
}
