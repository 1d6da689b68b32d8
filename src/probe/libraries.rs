//! System cuDNN, NCCL and TensorRT: versioned library files on the loader
//! path and in toolkit `lib64/` directories; the headers when no library
//! file names a version.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::loader::LibraryIndex;
use super::{text, Ctx, Log};
use crate::inventory::{Fact, LibraryInstall, SystemLibraries};

struct Kind {
    stem: &'static str,
    headers: &'static [&'static str],
    /// MAJOR, MINOR, PATCH define names.
    defines: [&'static str; 3],
}

const CUDNN: Kind = Kind {
    stem: "libcudnn",
    headers: &[
        "cudnn_version.h",
        "cudnn_version_v9.h",
        "cudnn_version_v8.h",
        "cudnn.h",
    ],
    defines: ["CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"],
};
const NCCL: Kind = Kind {
    stem: "libnccl",
    headers: &["nccl.h"],
    defines: ["NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"],
};
const TENSORRT: Kind = Kind {
    stem: "libnvinfer",
    headers: &["NvInferVersion.h"],
    defines: [
        "NV_TENSORRT_MAJOR",
        "NV_TENSORRT_MINOR",
        "NV_TENSORRT_PATCH",
    ],
};

const INCLUDE_DIRS: &[&str] = &[
    "/usr/include",
    "/usr/include/x86_64-linux-gnu",
    "/usr/include/aarch64-linux-gnu",
    "/usr/local/include",
];

pub(crate) fn probe(
    ctx: &Ctx,
    index: &LibraryIndex,
    toolkit_dirs: &[PathBuf],
    log: &mut Log,
) -> SystemLibraries {
    // Toolkit lib64 directories often hold cuDNN/NCCL copied in by hand.
    let extra: Vec<(PathBuf, Vec<crate::system::DirEntry>)> = toolkit_dirs
        .iter()
        .map(|d| d.join("lib64"))
        .filter_map(|d| {
            let entries = ctx.sys.read_dir(&d).ok()?;
            Some((d, entries))
        })
        .collect();
    let mut include_dirs: Vec<PathBuf> = INCLUDE_DIRS.iter().map(PathBuf::from).collect();
    include_dirs.extend(toolkit_dirs.iter().map(|d| d.join("include")));

    let find = |kind: &Kind, log: &mut Log| {
        let mut found = from_files(ctx, index, &extra, kind.stem);
        if found.is_empty() {
            found = from_headers(ctx, &include_dirs, kind, log);
        }
        found
    };
    SystemLibraries {
        cudnn: find(&CUDNN, log),
        nccl: find(&NCCL, log),
        tensorrt: find(&TENSORRT, log),
        cuda_compat: Vec::new(),
    }
}

fn from_files(
    ctx: &Ctx,
    index: &LibraryIndex,
    extra: &[(PathBuf, Vec<crate::system::DirEntry>)],
    stem: &str,
) -> Vec<LibraryInstall> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let entries = index
        .find(stem)
        .chain(extra.iter().flat_map(|(_, e)| e.iter()));
    for e in entries {
        let Some(v) = text::so_version(&e.name, stem) else {
            continue;
        };
        // The same file through /usr/local/cuda and /usr/local/cuda-12.4.
        let real =
            std::fs::canonicalize(ctx.sys.host_path(&e.path)).unwrap_or_else(|_| e.path.clone());
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
    out
}

fn from_headers(
    ctx: &Ctx,
    include_dirs: &[PathBuf],
    kind: &Kind,
    log: &mut Log,
) -> Vec<LibraryInstall> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for dir in include_dirs {
        for h in kind.headers {
            let p = dir.join(h);
            if !ctx.sys.exists(&p) {
                continue;
            }
            let path = p.display().to_string();
            let Some(content) = text::read(ctx, &path, log) else {
                continue;
            };
            let Some(v) = header_version(&content, &kind.defines) else {
                continue;
            };
            let real = std::fs::canonicalize(ctx.sys.host_path(Path::new(&p))).unwrap_or(p.clone());
            if seen.insert(real) {
                out.push(LibraryInstall {
                    version: Fact::new(v, path.clone()),
                    path,
                    built_for_cuda: None,
                });
            }
            break;
        }
    }
    out
}

/// `MAJOR.MINOR.PATCH` from a header's defines.
pub fn header_version(content: &str, defines: &[&str; 3]) -> Option<String> {
    let major = text::c_define_num(content, defines[0])?;
    let minor = text::c_define_num(content, defines[1])?;
    Some(match text::c_define_num(content, defines[2]) {
        Some(p) => format!("{major}.{minor}.{p}"),
        None => format!("{major}.{minor}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cudnn_header() {
        let h = "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n";
        assert_eq!(header_version(h, &CUDNN.defines).as_deref(), Some("9.1.0"));
    }

    #[test]
    fn nccl_header() {
        let h = "#define NCCL_MAJOR 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX \"\"\n";
        assert_eq!(header_version(h, &NCCL.defines).as_deref(), Some("2.21.5"));
    }

    #[test]
    fn tensorrt_10_header_indirection() {
        let h = "#define TRT_MAJOR_ENTERPRISE 10\n#define TRT_MINOR_ENTERPRISE 3\n#define TRT_PATCH_ENTERPRISE 0\n#define NV_TENSORRT_MAJOR TRT_MAJOR_ENTERPRISE //!< TensorRT major version.\n#define NV_TENSORRT_MINOR TRT_MINOR_ENTERPRISE\n#define NV_TENSORRT_PATCH TRT_PATCH_ENTERPRISE\n";
        assert_eq!(
            header_version(h, &TENSORRT.defines).as_deref(),
            Some("10.3.0")
        );
        assert_eq!(
            header_version("#define NV_TENSORRT_MAJOR 8\n", &TENSORRT.defines),
            None
        );
    }
}
