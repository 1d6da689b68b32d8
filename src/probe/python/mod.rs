//! Python environments: find every one on the machine, read its ML wheels from
//! the files pip and conda wrote (dist-info, `torch/version.py`, ...) without
//! running Python, and, only when asked (`--exec-python`), run a small
//! inventory script in each interpreter for ground truth.
//!
//! Importing torch to learn how it was built costs seconds and fails in exactly
//! the broken cases; reading its files costs microseconds and always works.

mod discovery;
mod elf;
mod exec;
mod frameworks;
mod site_packages;

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use crate::inventory::{Note, PythonEnv};
use crate::probe::ProbeOptions;
use crate::system::System;

pub use exec::{apply_inventory, parse_inventory, InventoryReport, INVENTORY_SCRIPT};
pub use frameworks::is_ml_package;
pub use site_packages::{normalize_name, parse_metadata};

/// At most this many environments are read: a machine with more is odd, and
/// the probe must stay fast.
pub(crate) const MAX_ENVS: usize = 256;
/// At most this many entries of one directory are looked at.
pub(crate) const MAX_DIR_ENTRIES: usize = 20_000;
/// Symlinks followed while resolving one path before it counts as a loop.
pub(crate) const MAX_LINK_HOPS: usize = 40;

/// Find every Python environment on the machine behind `sys` and read its ML
/// packages; with `opts.exec_python`, also run each interpreter. The active
/// environment comes first. Notes say what could not be read.
pub fn discover(sys: &dyn System, opts: &ProbeOptions) -> (Vec<PythonEnv>, Vec<Note>) {
    let mut notes = Vec::new();
    let candidates = discovery::find(sys, opts, &mut notes);
    let mut envs: Vec<PythonEnv> = candidates
        .into_iter()
        .map(|c| read_env(sys, c, &mut notes))
        .collect();
    if opts.exec_python {
        exec::run_all(sys, &mut envs, &mut notes, opts.allow_root_code);
    }
    (envs, notes)
}

/// An environment found by a platform's own discovery (Windows layouts), to be read like any other.
#[derive(Debug, Clone)]
pub(crate) struct FoundEnv {
    pub prefix: PathBuf,
    pub interpreter: Option<PathBuf>,
    pub kind: crate::inventory::EnvKind,
    pub active: bool,
    /// `3.12` when known from a directory's name.
    pub minor: Option<String>,
}

/// Read the packages and framework builds of environments found elsewhere.
pub(crate) fn read_found(
    sys: &dyn System,
    found: Vec<FoundEnv>,
    notes: &mut Vec<Note>,
) -> Vec<PythonEnv> {
    found
        .into_iter()
        .take(MAX_ENVS)
        .map(|f| {
            let c = discovery::Candidate {
                prefix: f.prefix,
                interpreter: f.interpreter,
                kind: f.kind,
                active: f.active,
                minor: f.minor,
                user_site: None,
            };
            read_env(sys, c, notes)
        })
        .collect()
}

/// Run the inventory script in each environment's interpreter (what
/// `--exec-python` adds to [`discover`]), recording the results in `envs`.
/// Under a root other than `/` nothing runs (use [`discover`] with
/// `allow_root_code` for that).
pub fn exec_python(sys: &dyn System, envs: &mut [PythonEnv], notes: &mut Vec<Note>) {
    exec::run_all(sys, envs, notes, false);
}

/// Read one environment's packages and framework builds from its files.
fn read_env(sys: &dyn System, c: discovery::Candidate, notes: &mut Vec<Note>) -> PythonEnv {
    let mut env = PythonEnv {
        path: c.prefix.display().to_string(),
        interpreter: c.interpreter.as_ref().map(|p| p.display().to_string()),
        kind: c.kind,
        active: c.active,
        ..Default::default()
    };
    let cfg = discovery::read_pyvenv_cfg(sys, &c.prefix);
    env.python_version = discovery::python_version(sys, &c, cfg.as_ref());

    let mut site_dirs = match &c.user_site {
        Some(site) => vec![site.clone()],
        None => site_packages::site_dirs(sys, &c.prefix, c.minor.as_deref(), notes),
    };
    if let Some(cfg) = &cfg {
        if let Some(home) = &cfg.home {
            if !sys.is_dir(home) {
                notes.push(note(
                    &c.prefix,
                    format!(
                        "pyvenv.cfg names the base interpreter directory {}, which does not exist: \
                         this environment's python cannot start; its packages were read from disk",
                        home.display()
                    ),
                ));
            } else if cfg.include_system_site_packages {
                if let Some(base) = home.parent() {
                    site_dirs.extend(site_packages::site_dirs(
                        sys,
                        base,
                        c.minor.as_deref(),
                        notes,
                    ));
                }
            }
        }
    }
    site_dirs = dedupe_paths(sys, site_dirs);
    env.site_packages = site_dirs.iter().map(|d| d.display().to_string()).collect();

    env.packages = site_packages::read_packages(sys, &site_dirs, notes);
    frameworks::fill(sys, &mut env, &site_dirs, notes);
    env
}

/// Keep the first of several paths that resolve to the same place (`lib64 -> lib`).
fn dedupe_paths(sys: &dyn System, paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for p in paths {
        let key = real_path(sys, &p).unwrap_or_else(|| p.clone());
        if !seen.contains(&key) {
            seen.push(key);
            out.push(p);
        }
    }
    out
}

/// An I/O error's reason without the path the seam puts in front (the note's subject has it).
pub(crate) fn io_reason(e: &std::io::Error, path: &Path) -> String {
    let s = e.to_string();
    let prefix = format!("{}: ", path.display());
    s.strip_prefix(&prefix).map(str::to_string).unwrap_or(s)
}

pub(crate) fn note(subject: &Path, message: impl Into<String>) -> Note {
    Note {
        subject: subject.display().to_string(),
        message: message.into(),
    }
}

enum Step {
    Name(OsString),
    Parent,
}

/// The path with every symlink resolved, on the probed system (an absolute
/// link target is read under its root). None on a symlink loop. Missing
/// components are kept as written.
pub(crate) fn real_path(sys: &dyn System, path: &Path) -> Option<PathBuf> {
    fn push_steps(stack: &mut Vec<Step>, p: &Path) {
        for c in p.components().rev() {
            match c {
                Component::Normal(n) => stack.push(Step::Name(n.to_os_string())),
                Component::ParentDir => stack.push(Step::Parent),
                _ => {}
            }
        }
    }
    let mut out = PathBuf::from("/");
    let mut stack = Vec::new();
    push_steps(&mut stack, path);
    let mut hops = 0;
    while let Some(step) = stack.pop() {
        match step {
            Step::Parent => {
                out.pop();
            }
            Step::Name(name) => {
                let candidate = out.join(&name);
                match sys.read_link(&candidate) {
                    Ok(target) => {
                        hops += 1;
                        if hops > MAX_LINK_HOPS {
                            return None;
                        }
                        if target.is_absolute() {
                            out = PathBuf::from("/");
                        }
                        push_steps(&mut stack, &target);
                    }
                    Err(_) => out = candidate,
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::Host;

    #[test]
    fn real_path_follows_relative_and_absolute_links_under_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("usr/bin")).unwrap();
        std::fs::write(root.join("usr/bin/python3.12"), "").unwrap();
        std::os::unix::fs::symlink("python3.12", root.join("usr/bin/python3")).unwrap();
        std::fs::create_dir_all(root.join("venv/bin")).unwrap();
        std::os::unix::fs::symlink("/usr/bin/python3", root.join("venv/bin/python")).unwrap();
        let h = Host::new(root);
        assert_eq!(
            real_path(&h, Path::new("/venv/bin/python")),
            Some(PathBuf::from("/usr/bin/python3.12"))
        );
        assert_eq!(
            real_path(&h, Path::new("/venv/bin/../bin/missing")),
            Some(PathBuf::from("/venv/bin/missing"))
        );
    }

    #[test]
    fn real_path_gives_up_on_a_loop() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::os::unix::fs::symlink("/b", root.join("a")).unwrap();
        std::os::unix::fs::symlink("/a", root.join("b")).unwrap();
        let h = Host::new(root);
        assert_eq!(real_path(&h, Path::new("/a/python")), None);
    }
}
