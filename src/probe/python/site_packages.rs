//! Reading a site-packages directory as pip left it: `*.dist-info` (and the
//! older `*.egg-info`, `*.egg-link`) name every installed distribution; only
//! the ML-relevant ones are opened.

use std::path::{Path, PathBuf};

use crate::inventory::{Note, PyPackage};
use crate::system::System;

use super::discovery::python_lib_dirs;
use super::frameworks::is_ml_package;
use super::{io_reason, note, real_path, MAX_DIR_ENTRIES};

/// Only the headers of METADATA are needed; they come first.
const METADATA_HEAD: usize = 64 * 1024;

/// PEP 503 normalization: lowercase, runs of `-_.` become one `-`.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// `Name` and `Version` from the header block of a METADATA or PKG-INFO file
/// (RFC 822 style; the header ends at the first blank line).
pub fn parse_metadata(text: &str) -> (Option<String>, Option<String>) {
    let (mut name, mut version) = (None, None);
    for line in text.lines() {
        if line.trim().is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim();
        if v.is_empty() {
            continue;
        }
        if k.eq_ignore_ascii_case("name") && name.is_none() {
            name = Some(v.to_string());
        } else if k.eq_ignore_ascii_case("version") && version.is_none() {
            version = Some(v.to_string());
        }
    }
    (name, version)
}

/// The site directories of an installation prefix, in `sys.path` order.
/// `minor` (`3.12`) picks one Python when the prefix holds several.
pub(crate) fn site_dirs(
    sys: &dyn System,
    prefix: &Path,
    minor: Option<&str>,
    notes: &mut Vec<Note>,
) -> Vec<PathBuf> {
    let mut libs: Vec<String> = python_lib_dirs(sys, prefix)
        .into_iter()
        .map(|(_, m)| m)
        .filter(|m| minor.map_or(true, |want| want == m))
        .collect();
    if libs.is_empty() {
        libs.extend(minor.map(str::to_string));
    }
    let mut cands: Vec<PathBuf> = Vec::new();
    let is_usr = prefix == Path::new("/usr");
    for m in &libs {
        let py = format!("python{m}");
        if is_usr {
            // Debian puts pip's system installs here, and Fedora its /usr/local ones.
            cands.push(PathBuf::from(format!("/usr/local/lib/{py}/dist-packages")));
            cands.push(PathBuf::from(format!(
                "/usr/local/lib64/{py}/site-packages"
            )));
            cands.push(PathBuf::from(format!("/usr/local/lib/{py}/site-packages")));
            if m.starts_with("3.") {
                cands.push(PathBuf::from("/usr/lib/python3/dist-packages"));
            }
        }
        cands.push(prefix.join("lib").join(&py).join("dist-packages"));
        // Venvs often link lib64 to lib: listing lib first keeps the familiar name.
        cands.push(prefix.join("lib").join(&py).join("site-packages"));
        cands.push(prefix.join("lib64").join(&py).join("site-packages"));
    }
    cands.push(prefix.join("Lib/site-packages"));
    cands.retain(|p| {
        if sys.is_dir(p) {
            return true;
        }
        if sys.read_link(p).is_ok() && real_path(sys, p).is_none() {
            notes.push(note(p, "a symlink loop; its packages are unknown"));
        }
        false
    });
    cands
}

/// The ML-relevant distributions installed in `dirs`, the first of each name
/// in path order, sorted by name.
pub(crate) fn read_packages(
    sys: &dyn System,
    dirs: &[PathBuf],
    notes: &mut Vec<Note>,
) -> Vec<PyPackage> {
    let mut out: Vec<PyPackage> = Vec::new();
    for dir in dirs {
        let before = out.len();
        read_dir_packages(sys, dir, &mut out, before, notes);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn read_dir_packages(
    sys: &dyn System,
    dir: &Path,
    out: &mut Vec<PyPackage>,
    from_this_dir: usize,
    notes: &mut Vec<Note>,
) {
    let entries = match sys.read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            notes.push(note(
                dir,
                format!("cannot list site-packages: {}", io_reason(&e, dir)),
            ));
            return;
        }
    };
    if entries.len() > MAX_DIR_ENTRIES {
        notes.push(note(
            dir,
            format!(
                "{} entries; only the first {MAX_DIR_ENTRIES} were looked at",
                entries.len()
            ),
        ));
    }
    for e in entries.into_iter().take(MAX_DIR_ENTRIES) {
        let Some(pkg) = read_entry(sys, &e.name, &e.path, e.is_dir, notes) else {
            continue;
        };
        match out.iter().position(|p| p.name == pkg.name) {
            None => out.push(pkg),
            Some(i) if i >= from_this_dir => {
                // Two versions side by side: an interrupted upgrade. Python imports one of them.
                let first = out.get(i).map(|p| p.version.clone()).unwrap_or_default();
                notes.push(note(
                    dir,
                    format!(
                        "{} is installed twice here ({first} and {}): a leftover of an \
                         interrupted install; the files on disk may belong to either",
                        pkg.name, pkg.version
                    ),
                ));
            }
            // Shadowed by an earlier directory on sys.path.
            Some(_) => {}
        }
    }
}

/// One directory entry as a distribution, when it is one and it is ML-relevant.
fn read_entry(
    sys: &dyn System,
    name: &str,
    path: &Path,
    is_dir: bool,
    notes: &mut Vec<Note>,
) -> Option<PyPackage> {
    if let Some(stem) = name.strip_suffix(".dist-info") {
        if !is_dir {
            return None;
        }
        let (dir_name, dir_version) = split_stem(stem);
        if !is_ml_package(&normalize_name(dir_name)) {
            return None;
        }
        let mut pkg = from_metadata(sys, &path.join("METADATA"), dir_name, dir_version, notes);
        pkg.editable = is_editable(sys, &path.join("direct_url.json"));
        return Some(pkg);
    }
    if let Some(stem) = name.strip_suffix(".egg-info") {
        let (dir_name, dir_version) = split_stem(stem);
        if !is_ml_package(&normalize_name(dir_name)) {
            return None;
        }
        let pkg_info = if is_dir {
            path.join("PKG-INFO")
        } else {
            path.to_path_buf()
        };
        return Some(from_metadata(sys, &pkg_info, dir_name, dir_version, notes));
    }
    if let Some(stem) = name.strip_suffix(".egg-link") {
        // `pip install -e` before PEP 660: the file names the source checkout.
        let n = normalize_name(stem);
        if !is_ml_package(&n) {
            return None;
        }
        let mut pkg = egg_link_package(sys, path, &n);
        pkg.editable = true;
        return Some(pkg);
    }
    None
}

/// `torch-2.5.1+cu124` → (`torch`, `2.5.1+cu124`); `foo-1.0-py3.11` → (`foo`, `1.0`).
fn split_stem(stem: &str) -> (&str, Option<&str>) {
    match stem.split_once('-') {
        Some((n, rest)) => {
            let v = rest.split('-').next().filter(|v| !v.is_empty());
            (n, v)
        }
        None => (stem, None),
    }
}

fn from_metadata(
    sys: &dyn System,
    file: &Path,
    dir_name: &str,
    dir_version: Option<&str>,
    notes: &mut Vec<Note>,
) -> PyPackage {
    let (name, version, problem) = match sys.read_range(file, 0, METADATA_HEAD) {
        Ok(bytes) => {
            let (n, v) = parse_metadata(&String::from_utf8_lossy(&bytes));
            (n, v, "no Version header".to_string())
        }
        Err(e) => (None, None, format!("cannot read ({})", io_reason(&e, file))),
    };
    let source = file.display().to_string();
    let version = match (version, dir_version) {
        (Some(v), _) => v,
        (None, Some(v)) => {
            notes.push(note(
                file,
                format!("{problem}; the version {v} is taken from the directory name"),
            ));
            v.to_string()
        }
        (None, None) => {
            notes.push(note(
                file,
                format!("{problem}, and no version in the directory name"),
            ));
            "unknown".to_string()
        }
    };
    PyPackage {
        name: normalize_name(name.as_deref().unwrap_or(dir_name)),
        version,
        source,
        editable: false,
    }
}

fn is_editable(sys: &dyn System, direct_url: &Path) -> bool {
    let Ok(bytes) = sys.read_range(direct_url, 0, 64 * 1024) else {
        return false;
    };
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v.get("dir_info")?.get("editable")?.as_bool())
        .unwrap_or(false)
}

fn egg_link_package(sys: &dyn System, link: &Path, name: &str) -> PyPackage {
    let mut pkg = PyPackage {
        name: name.to_string(),
        version: "unknown".to_string(),
        source: link.display().to_string(),
        editable: true,
    };
    let target = sys
        .read_range(link, 0, 4096)
        .ok()
        .and_then(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .next()
                .map(|l| PathBuf::from(l.trim()))
        })
        .filter(|p| p.is_absolute());
    let Some(target) = target else {
        return pkg;
    };
    let Ok(entries) = sys.read_dir(&target) else {
        return pkg;
    };
    for e in entries.into_iter().take(1000) {
        if let Some(stem) = e.name.strip_suffix(".egg-info") {
            if normalize_name(split_stem(stem).0) != name {
                continue;
            }
            let info = e.path.join("PKG-INFO");
            if let Ok(b) = sys.read_range(&info, 0, METADATA_HEAD) {
                if let (_, Some(v)) = parse_metadata(&String::from_utf8_lossy(&b)) {
                    pkg.version = v;
                    pkg.source = info.display().to_string();
                }
            }
            break;
        }
    }
    pkg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalize_as_pep_503() {
        assert_eq!(normalize_name("onnxruntime_gpu"), "onnxruntime-gpu");
        assert_eq!(normalize_name("Flash_Attn"), "flash-attn");
        assert_eq!(
            normalize_name("nvidia.cuda__runtime-cu12"),
            "nvidia-cuda-runtime-cu12"
        );
    }

    #[test]
    fn metadata_headers_stop_at_the_body() {
        let text = "Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\"\n\nName: not-this\n";
        assert_eq!(
            parse_metadata(text),
            (Some("torch".into()), Some("2.5.1".into()))
        );
        assert_eq!(parse_metadata("garbage\x00\u{fffd}\n"), (None, None));
        assert_eq!(parse_metadata("\nName: after-blank\n"), (None, None));
    }

    #[test]
    fn stems_split_into_name_and_version() {
        assert_eq!(
            split_stem("torch-2.5.1+cu124"),
            ("torch", Some("2.5.1+cu124"))
        );
        assert_eq!(split_stem("foo-1.0-py3.11"), ("foo", Some("1.0")));
        assert_eq!(split_stem("broken"), ("broken", None));
    }
}
