//! The dynamic loader's search path, and the files on it that the probes
//! care about, listed once: LD_LIBRARY_PATH, `/etc/ld.so.conf` (with its
//! includes), the standard directories, and `/usr/lib/wsl/lib`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::text::{self, glob_match};
use super::{Ctx, Log};
use crate::system::DirEntry;

/// File-name prefixes worth keeping from a library directory.
const INTERESTING: &[&str] = &[
    "libcuda.so",
    "libnvidia-ml.so",
    "libcudnn.so",
    "libnccl.so",
    "libnvinfer.so",
    "libc.so.6",
    "libc-2.",
    "ld-linux",
];

/// Where glibc looks when nothing in ld.so.conf says otherwise, plus the
/// multiarch directories Debian and Ubuntu configure.
const STANDARD_DIRS: &[&str] = &[
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
];

pub const WSL_LIB_DIR: &str = "/usr/lib/wsl/lib";

/// A directory on the loader path and its interesting entries.
#[derive(Debug, Clone)]
pub(crate) struct LibDir {
    pub entries: Vec<DirEntry>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct LibraryIndex {
    /// In loader search order, each directory once.
    pub dirs: Vec<LibDir>,
}

impl LibraryIndex {
    pub fn scan(ctx: &Ctx, log: &mut Log) -> LibraryIndex {
        let mut seen = HashSet::new();
        let mut dirs = Vec::new();
        for dir in search_dirs(ctx, log) {
            // Merged /usr (`/lib -> usr/lib`) lists the same directory twice.
            let Ok(real) = std::fs::canonicalize(ctx.sys.host_path(&dir)) else {
                continue;
            };
            if !seen.insert(real) {
                continue;
            }
            let Ok(names) = ctx.sys.read_dir_names(&dir) else {
                continue;
            };
            let mut entries: Vec<DirEntry> = names
                .into_iter()
                .filter(|n| INTERESTING.iter().any(|p| n.starts_with(p)))
                .map(|name| {
                    let path = dir.join(&name);
                    DirEntry {
                        is_symlink: ctx.sys.read_link(&path).is_ok(),
                        is_dir: false,
                        name,
                        path,
                    }
                })
                .collect();
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            dirs.push(LibDir { entries });
        }
        LibraryIndex { dirs }
    }

    /// Every entry whose name starts with `prefix`, in loader order.
    pub fn find<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a DirEntry> + 'a {
        self.dirs
            .iter()
            .flat_map(|d| d.entries.iter())
            .filter(move |e| e.name.starts_with(prefix))
    }

    /// The first entry named exactly `name`, in loader order.
    pub fn first_named(&self, name: &str) -> Option<&DirEntry> {
        self.dirs
            .iter()
            .flat_map(|d| d.entries.iter())
            .find(|e| e.name == name)
    }
}

/// The loader's directories in search order (duplicates allowed).
pub(crate) fn search_dirs(ctx: &Ctx, log: &mut Log) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(ld) = ctx.sys.env("LD_LIBRARY_PATH") {
        out.extend(split_path_list(&ld));
    }
    ld_so_conf(ctx, "/etc/ld.so.conf", 0, &mut out, log);
    out.extend(STANDARD_DIRS.iter().map(PathBuf::from));
    out.push(PathBuf::from(WSL_LIB_DIR));
    out
}

fn split_path_list(s: &str) -> Vec<PathBuf> {
    s.split([':', ';'])
        .filter(|d| d.starts_with('/'))
        .map(PathBuf::from)
        .collect()
}

/// Directories named in an ld.so.conf file, following `include` lines.
fn ld_so_conf(ctx: &Ctx, path: &str, depth: u32, out: &mut Vec<PathBuf>, log: &mut Log) {
    if depth > 4 {
        return;
    }
    let Some(content) = text::read(ctx, path, log) else {
        return;
    };
    for line in content.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with("hwcap") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("include") {
            if !rest.starts_with(char::is_whitespace) {
                continue;
            }
            for pattern in rest.split_whitespace() {
                let pattern = if pattern.starts_with('/') {
                    PathBuf::from(pattern)
                } else {
                    Path::new("/etc").join(pattern)
                };
                for file in expand(ctx, &pattern) {
                    ld_so_conf(ctx, &file, depth + 1, out, log);
                }
            }
            continue;
        }
        out.extend(
            line.split(|c: char| c.is_whitespace() || c == ':' || c == ',')
                .filter(|d| d.starts_with('/'))
                .map(PathBuf::from),
        );
    }
}

/// Expand a `*` in the last component of `pattern`, sorted as glibc does.
fn expand(ctx: &Ctx, pattern: &Path) -> Vec<String> {
    let name = pattern
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !name.contains('*') {
        return vec![pattern.display().to_string()];
    }
    let dir = pattern.parent().unwrap_or(Path::new("/"));
    ctx.sys
        .read_dir(dir)
        .map(|entries| {
            entries
                .into_iter()
                .filter(|e| !e.is_dir && glob_match(&name, &e.name))
                .map(|e| e.path.display().to_string())
                .collect()
        })
        .unwrap_or_default()
}
