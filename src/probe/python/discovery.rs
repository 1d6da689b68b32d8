//! Where Python environments live: the active one (VIRTUAL_ENV, CONDA_PREFIX,
//! the first python on PATH), `--python`, `.venv` in the current directory,
//! conda, pyenv, uv-managed Pythons, the system interpreters and the user site.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use crate::inventory::{EnvKind, Fact, Note};
use crate::probe::ProbeOptions;
use crate::system::System;

use super::{note, real_path, MAX_DIR_ENTRIES, MAX_ENVS};

/// An environment found, before its packages are read.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub prefix: PathBuf,
    pub interpreter: Option<PathBuf>,
    pub kind: EnvKind,
    pub active: bool,
    /// `3.12` when known from an interpreter's or a directory's name.
    pub minor: Option<String>,
    /// The user site: only this directory is read.
    pub user_site: Option<PathBuf>,
}

/// What `pyvenv.cfg` says.
#[derive(Debug, Clone, Default)]
pub(crate) struct PyvenvCfg {
    pub path: PathBuf,
    pub home: Option<PathBuf>,
    pub version: Option<String>,
    pub include_system_site_packages: bool,
}

struct Ctx<'a> {
    sys: &'a dyn System,
    home: Option<PathBuf>,
    pwd: Option<PathBuf>,
    pyenv_root: Option<PathBuf>,
    uv_dir: Option<PathBuf>,
    notes: RefCell<Vec<Note>>,
}

impl<'a> Ctx<'a> {
    fn new(sys: &'a dyn System) -> Self {
        let var = |n: &str| sys.env(n).filter(|v| !v.is_empty());
        let abs = |v: String| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
        let home = var("HOME").and_then(abs);
        let pwd = var("PWD").and_then(abs);
        let pyenv_root = var("PYENV_ROOT")
            .and_then(abs)
            .or_else(|| home.as_ref().map(|h| h.join(".pyenv")));
        let uv_dir = var("UV_PYTHON_INSTALL_DIR")
            .and_then(abs)
            .or_else(|| {
                var("XDG_DATA_HOME")
                    .and_then(abs)
                    .map(|d| d.join("uv/python"))
            })
            .or_else(|| home.as_ref().map(|h| h.join(".local/share/uv/python")));
        Ctx {
            sys,
            home,
            pwd,
            pyenv_root,
            uv_dir,
            notes: RefCell::new(Vec::new()),
        }
    }

    fn var(&self, name: &str) -> Option<String> {
        self.sys.env(name).filter(|v| !v.is_empty())
    }

    fn absolute(&self, p: &Path) -> PathBuf {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.pwd.as_deref().unwrap_or(Path::new("/")).join(p)
        }
    }

    fn dir_names(&self, dir: &Path) -> Vec<String> {
        match self.sys.read_dir(dir) {
            Ok(entries) => entries
                .into_iter()
                .take(MAX_DIR_ENTRIES)
                .filter(|e| (e.is_dir || e.is_symlink) && !e.name.starts_with('.'))
                .map(|e| e.name)
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    fn is_pyenv_shims(&self, dir: &Path) -> bool {
        dir.file_name().is_some_and(|n| n == "shims")
            && dir.ancestors().any(|a| {
                a.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains("pyenv"))
            })
    }

    fn classify(&self, prefix: &Path) -> EnvKind {
        if self.sys.exists(&prefix.join("pyvenv.cfg")) {
            EnvKind::Venv
        } else if self.sys.is_dir(&prefix.join("conda-meta")) {
            EnvKind::Conda
        } else if self
            .pyenv_root
            .as_ref()
            .is_some_and(|r| prefix.starts_with(r.join("versions")))
        {
            EnvKind::Pyenv
        } else if self.uv_dir.as_ref().is_some_and(|d| prefix.starts_with(d)) {
            EnvKind::Uv
        } else {
            EnvKind::System
        }
    }

    /// An environment directory: a venv, a conda env, an installation prefix.
    fn env_at(&self, prefix: &Path) -> Option<Candidate> {
        if !self.sys.is_dir(prefix) {
            if self.sys.read_link(prefix).is_ok() && real_path(self.sys, prefix).is_none() {
                self.notes
                    .borrow_mut()
                    .push(note(prefix, "a symlink loop; skipped"));
            }
            return None;
        }
        let interpreter = [
            "bin/python3",
            "bin/python",
            "python.exe",
            "Scripts/python.exe",
        ]
        .iter()
        .map(|rel| prefix.join(rel))
        .find(|p| self.sys.exists(p));
        let looks_like_env = interpreter.is_some()
            || self.sys.exists(&prefix.join("pyvenv.cfg"))
            || self.sys.is_dir(&prefix.join("conda-meta"))
            || !python_lib_dirs(self.sys, prefix).is_empty()
            || self.sys.is_dir(&prefix.join("Lib/site-packages"));
        if !looks_like_env {
            return None;
        }
        let kind = self.classify(prefix);
        let minor = interpreter
            .as_ref()
            .and_then(|i| real_path(self.sys, i))
            .and_then(|r| minor_from_name(&r))
            .or_else(|| {
                read_pyvenv_cfg(self.sys, prefix)
                    .and_then(|c| c.version)
                    .and_then(|v| minor_of(&v))
            })
            .or_else(|| match python_lib_dirs(self.sys, prefix).as_slice() {
                [(_, m)] => Some(m.clone()),
                _ => None,
            });
        Some(Candidate {
            prefix: prefix.to_path_buf(),
            interpreter,
            kind,
            active: false,
            minor,
            user_site: None,
        })
    }

    /// A python executable: its environment is the venv or conda env it sits
    /// in, or else the prefix of the file it links to.
    fn env_of_interpreter(&self, path: &Path) -> Option<Candidate> {
        if !self.sys.exists(path) || self.sys.is_dir(path) {
            return None;
        }
        let dir = path.parent()?;
        if self.is_pyenv_shims(dir) {
            let version = self.pyenv_version()?;
            // The shim is a script that runs this version's own interpreter.
            return self.env_at(&self.pyenv_root.as_ref()?.join("versions").join(version));
        }
        let own_minor = minor_from_name(path);
        let in_env = |p: &Path| {
            self.sys.exists(&p.join("pyvenv.cfg")) || self.sys.is_dir(&p.join("conda-meta"))
        };
        let (prefix, minor) = match dir.parent() {
            Some(p) if in_env(p) => (p.to_path_buf(), own_minor),
            _ => {
                let real = real_path(self.sys, path)?;
                let prefix = real.parent()?.parent()?.to_path_buf();
                (prefix, own_minor.or_else(|| minor_from_name(&real)))
            }
        };
        let kind = self.classify(&prefix);
        let minor = minor.or_else(|| match python_lib_dirs(self.sys, &prefix).as_slice() {
            [(_, m)] => Some(m.clone()),
            _ => None,
        });
        Some(Candidate {
            prefix,
            interpreter: Some(path.to_path_buf()),
            kind,
            active: false,
            minor,
            user_site: None,
        })
    }

    /// The pyenv version a shim runs: PYENV_VERSION, a `.python-version` in the
    /// current directory or above, then `$PYENV_ROOT/version`. `system` means
    /// the next python on PATH, so it gives None here.
    fn pyenv_version(&self) -> Option<String> {
        let first = |s: &str| {
            s.lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('#'))
                .and_then(|l| l.split([':', ' ']).next())
                .map(str::to_string)
        };
        let v = if let Some(v) = self.var("PYENV_VERSION") {
            first(&v)
        } else {
            let local = self.pwd.as_ref().and_then(|pwd| {
                pwd.ancestors()
                    .take(64)
                    .map(|d| d.join(".python-version"))
                    .find_map(|f| self.sys.read_text(&f).ok())
            });
            match local {
                Some(text) => first(&text),
                None => self
                    .pyenv_root
                    .as_ref()
                    .and_then(|r| self.sys.read_text(&r.join("version")).ok())
                    .and_then(|t| first(&t)),
            }
        }?;
        (v != "system" && !v.contains('/')).then_some(v)
    }

    fn path_pythons(&self) -> Vec<Candidate> {
        let Some(path) = self.var("PATH") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for dir in path.split(':').filter(|d| d.starts_with('/')).take(256) {
            for name in ["python3", "python"] {
                let exe = Path::new(dir).join(name);
                if let Some(c) = self.env_of_interpreter(&exe) {
                    out.push(c);
                    break;
                }
            }
        }
        out
    }

    fn conda_envs(&self) -> Vec<Candidate> {
        let mut roots: Vec<PathBuf> = Vec::new();
        if let Some(exe) = self.var("CONDA_EXE") {
            if let Some(root) = Path::new(&exe).parent().and_then(Path::parent) {
                roots.push(root.to_path_buf());
            }
        }
        for var in ["MAMBA_ROOT_PREFIX", "CONDA_ROOT", "_CONDA_ROOT"] {
            if let Some(v) = self.var(var) {
                roots.push(PathBuf::from(v));
            }
        }
        if let Some(prefix) = self.var("CONDA_PREFIX") {
            if let Some((root, _)) = prefix.split_once("/envs/") {
                roots.push(PathBuf::from(root));
            }
        }
        if let Some(home) = &self.home {
            for d in [
                "miniconda3",
                "anaconda3",
                "miniforge3",
                "mambaforge",
                "micromamba",
                "miniconda",
                "anaconda",
                ".conda",
            ] {
                roots.push(home.join(d));
            }
        }
        for d in [
            "/opt/conda",
            "/opt/miniconda3",
            "/opt/anaconda3",
            "/opt/miniforge3",
        ] {
            roots.push(PathBuf::from(d));
        }
        let mut out = Vec::new();
        for root in roots.iter().filter(|r| r.is_absolute()) {
            if self.sys.is_dir(&root.join("conda-meta")) {
                out.extend(self.env_at(root));
            }
            for name in self.dir_names(&root.join("envs")) {
                let p = root.join("envs").join(name);
                if self.sys.is_dir(&p.join("conda-meta")) {
                    out.extend(self.env_at(&p));
                }
            }
        }
        if let Some(home) = &self.home {
            if let Ok(text) = self.sys.read_text(&home.join(".conda/environments.txt")) {
                for line in text.lines().map(str::trim).take(MAX_ENVS) {
                    if line.starts_with('/') {
                        out.extend(self.env_at(Path::new(line)));
                    }
                }
            }
        }
        out
    }

    fn pyenv_versions(&self) -> Vec<Candidate> {
        let Some(root) = &self.pyenv_root else {
            return Vec::new();
        };
        let versions = root.join("versions");
        let mut out = Vec::new();
        for name in self.dir_names(&versions) {
            let p = versions.join(&name);
            out.extend(self.env_at(&p));
            // pyenv-virtualenv keeps its venvs under the version they were made from.
            for env in self.dir_names(&p.join("envs")) {
                out.extend(self.env_at(&p.join("envs").join(env)));
            }
        }
        out
    }

    fn uv_pythons(&self) -> Vec<Candidate> {
        let Some(dir) = &self.uv_dir else {
            return Vec::new();
        };
        self.dir_names(dir)
            .into_iter()
            .filter_map(|n| self.env_at(&dir.join(n)))
            .collect()
    }

    fn system_pythons(&self) -> Vec<Candidate> {
        let mut out = Vec::new();
        for bin in ["/usr/bin", "/usr/local/bin"] {
            // Names first: /usr/bin holds thousands of entries, few of them Pythons.
            let Ok(mut names) = self.sys.read_dir_names(Path::new(bin)) else {
                continue;
            };
            names.sort();
            names.truncate(MAX_DIR_ENTRIES);
            for name in names {
                let path = Path::new(bin).join(&name);
                if minor_from_name(Path::new(&name)).is_some() && !self.sys.is_dir(&path) {
                    out.extend(self.env_of_interpreter(&path));
                }
            }
        }
        out
    }

    fn user_sites(&self) -> Vec<Candidate> {
        let base = match self.var("PYTHONUSERBASE") {
            Some(b) if b.starts_with('/') => PathBuf::from(b),
            _ => match &self.home {
                Some(h) => h.join(".local"),
                None => return Vec::new(),
            },
        };
        python_lib_dirs(self.sys, &base)
            .into_iter()
            .filter_map(|(lib, minor)| {
                let site = lib.join("site-packages");
                self.sys.is_dir(&site).then(|| Candidate {
                    prefix: base.clone(),
                    interpreter: None,
                    kind: EnvKind::User,
                    active: false,
                    minor: Some(minor),
                    user_site: Some(site),
                })
            })
            .collect()
    }
}

/// Every environment on the machine, the active one first, each once.
pub(crate) fn find(sys: &dyn System, opts: &ProbeOptions, notes: &mut Vec<Note>) -> Vec<Candidate> {
    let ctx = Ctx::new(sys);
    let mut list: Vec<Candidate> = Vec::new();

    let venv = ctx.var("VIRTUAL_ENV");
    let conda = ctx.var("CONDA_PREFIX");
    for (var, value) in [("VIRTUAL_ENV", &venv), ("CONDA_PREFIX", &conda)] {
        if let Some(v) = value {
            let p = PathBuf::from(v);
            match ctx.env_at(&p) {
                Some(c) => list.push(c),
                None => notes.push(note(
                    &p,
                    format!("{var} names this directory, but no Python environment is there"),
                )),
            }
        }
    }
    if let Some(first) = list.first_mut() {
        first.active = true;
    }
    let on_path = ctx.path_pythons();
    let none_active = list.is_empty();
    for (i, mut c) in on_path.into_iter().enumerate() {
        c.active = none_active && i == 0;
        list.push(c);
    }

    for p in &opts.python {
        let p = ctx.absolute(p);
        let c = if sys.is_dir(&p) {
            ctx.env_at(&p)
        } else {
            ctx.env_of_interpreter(&p)
        };
        match c {
            Some(c) => list.push(c),
            None if !sys.exists(&p) => notes.push(note(&p, "--python: no such file or directory")),
            None if real_path(sys, &p).is_none() => notes.push(note(
                &p,
                "--python: a symlink loop (or a chain of more than 40 links)",
            )),
            None => notes.push(note(
                &p,
                "--python: neither a python interpreter nor an environment directory \
                 (no bin/python, pyvenv.cfg, conda-meta or lib/python3.*)",
            )),
        }
    }
    if let Some(pwd) = &ctx.pwd {
        list.extend(ctx.env_at(&pwd.join(".venv")));
    }
    list.extend(ctx.conda_envs());
    list.extend(ctx.pyenv_versions());
    list.extend(ctx.uv_pythons());
    list.extend(ctx.system_pythons());
    list.extend(ctx.user_sites());

    notes.append(&mut ctx.notes.borrow_mut());
    let mut out = dedupe(sys, list);
    if out.len() > MAX_ENVS {
        notes.push(note(
            Path::new("python"),
            format!(
                "{} Python environments found; only the first {MAX_ENVS} were read",
                out.len()
            ),
        ));
        out.truncate(MAX_ENVS);
    }
    // The active one first; otherwise the order found.
    out.sort_by_key(|c| !c.active);
    out
}

/// One candidate per real environment: the first found wins, and learns what
/// the later ones knew (an interpreter, being active).
fn dedupe(sys: &dyn System, list: Vec<Candidate>) -> Vec<Candidate> {
    let mut keys: Vec<(PathBuf, Option<String>)> = Vec::new();
    let mut out: Vec<Candidate> = Vec::new();
    for c in list {
        let base = c.user_site.as_ref().unwrap_or(&c.prefix);
        let real = real_path(sys, base).unwrap_or_else(|| base.clone());
        // One prefix (/usr) can hold several Python versions, each its own environment.
        let minor = matches!(c.kind, EnvKind::System | EnvKind::User)
            .then(|| c.minor.clone())
            .flatten();
        let key = (real, minor);
        match keys
            .iter()
            .position(|k| k.0 == key.0 && (k.1 == key.1 || k.1.is_none() || key.1.is_none()))
        {
            Some(i) => {
                if let Some(first) = out.get_mut(i) {
                    first.active |= c.active;
                    if first.interpreter.is_none() {
                        first.interpreter = c.interpreter;
                    }
                    if first.minor.is_none() {
                        first.minor = c.minor;
                    }
                }
            }
            None => {
                keys.push(key);
                out.push(c);
            }
        }
    }
    out
}

/// `python3.12` → `3.12` (also `python3.13t`, the free-threaded build).
pub(crate) fn minor_from_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let rest = name.strip_prefix("python")?;
    let rest = rest.strip_suffix('t').unwrap_or(rest);
    let (a, b) = rest.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|c| c.is_ascii_digit());
    (digits(a) && digits(b)).then(|| format!("{a}.{b}"))
}

/// `3.12.4` → `3.12`.
fn minor_of(version: &str) -> Option<String> {
    let mut it = version.split('.');
    let (a, b) = (it.next()?, it.next()?);
    let ok = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    (ok(a) && ok(b)).then(|| format!("{a}.{b}"))
}

/// `<prefix>/lib/pythonX.Y` directories with their `X.Y`.
pub(crate) fn python_lib_dirs(sys: &dyn System, prefix: &Path) -> Vec<(PathBuf, String)> {
    let lib = prefix.join("lib");
    match sys.read_dir(&lib) {
        Ok(entries) => entries
            .into_iter()
            .take(MAX_DIR_ENTRIES)
            .filter(|e| e.is_dir)
            .filter_map(|e| minor_from_name(Path::new(&e.name)).map(|m| (e.path, m)))
            .collect(),
        Err(_) => Vec::new(),
    }
}

pub(crate) fn read_pyvenv_cfg(sys: &dyn System, prefix: &Path) -> Option<PyvenvCfg> {
    let path = prefix.join("pyvenv.cfg");
    let text = sys.read_text(&path).ok()?;
    let mut cfg = PyvenvCfg {
        path,
        ..Default::default()
    };
    for line in text.lines() {
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        match k.as_str() {
            "home" if !v.is_empty() => cfg.home = Some(PathBuf::from(v)),
            // `version` (venv, virtualenv) or `version_info` (uv, virtualenv: 3.12.4.final.0).
            "version" | "version_info" if cfg.version.is_none() => {
                let nums: Vec<&str> = v
                    .split('.')
                    .take_while(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
                    .take(3)
                    .collect();
                if nums.len() >= 2 {
                    cfg.version = Some(nums.join("."));
                }
            }
            "include-system-site-packages" => {
                cfg.include_system_site_packages = v.eq_ignore_ascii_case("true")
            }
            _ => {}
        }
    }
    Some(cfg)
}

/// The Python version, from the most precise record there is: pyvenv.cfg,
/// conda-meta, a pyenv or uv directory name, then `X.Y` from a file name.
pub(crate) fn python_version(
    sys: &dyn System,
    c: &Candidate,
    cfg: Option<&PyvenvCfg>,
) -> Option<Fact<String>> {
    if let Some(cfg) = cfg {
        if let Some(v) = &cfg.version {
            return Some(Fact::new(v.clone(), cfg.path.display().to_string()));
        }
    }
    if c.kind != EnvKind::User {
        let meta = c.prefix.join("conda-meta");
        if let Ok(entries) = sys.read_dir(&meta) {
            for e in entries.into_iter().take(MAX_DIR_ENTRIES) {
                if let Some(v) = e
                    .name
                    .strip_prefix("python-")
                    .and_then(|rest| rest.split('-').next())
                    .filter(|v| {
                        v.starts_with(|ch: char| ch.is_ascii_digit()) && e.name.ends_with(".json")
                    })
                {
                    return Some(Fact::new(v.to_string(), e.path.display().to_string()));
                }
            }
        }
        if matches!(c.kind, EnvKind::Pyenv | EnvKind::Uv) {
            let name = c
                .prefix
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            let v = name.as_deref().and_then(|n| {
                let n = n.strip_prefix("cpython-").unwrap_or(n);
                let v = n.split('-').next()?;
                let parts: Vec<&str> = v.split('.').collect();
                (parts.len() == 3
                    && parts
                        .iter()
                        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
                .then(|| v.to_string())
            });
            if let Some(v) = v {
                return Some(Fact::new(v, c.prefix.display().to_string()));
            }
        }
    }
    let minor = c.minor.as_ref()?;
    let source = c
        .user_site
        .clone()
        .or_else(|| c.interpreter.clone())
        .unwrap_or_else(|| c.prefix.clone());
    Some(
        Fact::new(minor.clone(), source.display().to_string())
            .with_note("only the minor version is known from the file name"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_from_interpreter_names() {
        assert_eq!(
            minor_from_name(Path::new("/usr/bin/python3.12")).as_deref(),
            Some("3.12")
        );
        assert_eq!(
            minor_from_name(Path::new("python3.13t")).as_deref(),
            Some("3.13")
        );
        assert_eq!(minor_from_name(Path::new("python3")), None);
        assert_eq!(minor_from_name(Path::new("python3.12-config")), None);
        assert_eq!(minor_from_name(Path::new("python3.x")), None);
    }

    #[test]
    fn pyvenv_cfg_forms() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("pyvenv.cfg"),
            "home = /usr/bin\ninclude-system-site-packages = true\nversion_info = 3.12.4.final.0\nuv = 0.4.0\n",
        )
        .unwrap();
        let h = crate::system::Host::new(dir.path());
        let cfg = read_pyvenv_cfg(&h, Path::new("/")).unwrap();
        assert_eq!(cfg.home.as_deref(), Some(Path::new("/usr/bin")));
        assert_eq!(cfg.version.as_deref(), Some("3.12.4"));
        assert!(cfg.include_system_site_packages);

        std::fs::write(dir.path().join("pyvenv.cfg"), "home=\nversion = garbage\n").unwrap();
        let cfg = read_pyvenv_cfg(&h, Path::new("/")).unwrap();
        assert_eq!(cfg.home, None);
        assert_eq!(cfg.version, None);
        assert!(!cfg.include_system_site_packages);
    }
}
