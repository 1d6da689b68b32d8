//! Python environments on Windows: the active one (VIRTUAL_ENV, CONDA_PREFIX),
//! what the py launcher lists, python.org installs (per user under
//! %LOCALAPPDATA%\Programs\Python, for all users under Program Files), conda
//! installs and their envs, and uv-managed Pythons. Each is then read like
//! any other environment (dist-info, torch\version.py), plus the CUDA runtime
//! DLL a torch wheel carries in torch\lib.

use std::path::{Path, PathBuf};

use super::parse;
use crate::inventory::{EnvKind, Fact, PythonEnv};
use crate::probe::python::{self, FoundEnv};
use crate::probe::{Ctx, Log};

const PY_LAUNCHERS: &[&str] = &["/Windows/py.exe"];
const CONDA_DIRS: &[&str] = &["miniconda3", "anaconda3", "miniforge3", "mambaforge"];

pub(super) fn probe(ctx: &Ctx, log: &mut Log) -> Vec<PythonEnv> {
    let mut found: Vec<FoundEnv> = Vec::new();
    let var = |n: &str| ctx.sys.env(n).and_then(|v| parse::win_to_path(&v));
    let push = |found: &mut Vec<FoundEnv>, prefix: PathBuf, kind, active, minor| {
        if !ctx.sys.is_dir(&prefix) {
            return;
        }
        if let Some(f) = found.iter_mut().find(|f| f.prefix == prefix) {
            f.active |= active;
            return;
        }
        let interpreter = ["python.exe", "Scripts/python.exe"]
            .iter()
            .map(|r| prefix.join(r))
            .find(|p| ctx.sys.exists(p));
        let kind = if ctx.sys.exists(&prefix.join("pyvenv.cfg")) {
            EnvKind::Venv
        } else if ctx.sys.is_dir(&prefix.join("conda-meta")) {
            EnvKind::Conda
        } else {
            kind
        };
        found.push(FoundEnv {
            prefix,
            interpreter,
            kind,
            active,
            minor,
        });
    };

    let venv = var("VIRTUAL_ENV");
    let conda = var("CONDA_PREFIX");
    let any_active = venv.is_some() || conda.is_some();
    if let Some(v) = venv {
        push(&mut found, v, EnvKind::Venv, true, None);
    } else if let Some(c) = conda {
        push(&mut found, c, EnvKind::Conda, true, None);
    }

    for launcher in launchers(ctx) {
        let Some(out) = super::run(ctx, &launcher, &["-0p"], log) else {
            continue;
        };
        for l in parse::py_list_paths(&out) {
            if let Some(prefix) =
                parse::win_to_path(&l.path).and_then(|p| p.parent().map(Path::to_path_buf))
            {
                push(
                    &mut found,
                    prefix,
                    EnvKind::System,
                    l.default && !any_active,
                    l.version,
                );
            }
        }
    }

    let scan = |found: &mut Vec<FoundEnv>, dir: PathBuf, kind: EnvKind| {
        let Ok(entries) = ctx.sys.read_dir(&dir) else {
            return;
        };
        for e in entries.into_iter().take(256).filter(|e| e.is_dir) {
            if let Some(minor) = parse::minor_from_dir(&e.name) {
                push(found, e.path, kind, false, Some(minor));
            }
        }
    };
    if let Some(local) = var("LOCALAPPDATA") {
        scan(&mut found, local.join("Programs/Python"), EnvKind::System);
    }
    scan(&mut found, PathBuf::from("/Program Files"), EnvKind::System);
    if let Some(appdata) = var("APPDATA") {
        scan(&mut found, appdata.join("uv/python"), EnvKind::Uv);
    }
    let mut conda_roots: Vec<PathBuf> = Vec::new();
    if let Some(home) = var("USERPROFILE") {
        conda_roots.extend(CONDA_DIRS.iter().map(|d| home.join(d)));
    }
    conda_roots.extend(CONDA_DIRS.iter().map(|d| Path::new("/ProgramData").join(d)));
    for root in conda_roots {
        if !ctx.sys.is_dir(&root.join("conda-meta")) {
            continue;
        }
        push(&mut found, root.clone(), EnvKind::Conda, false, None);
        if let Ok(entries) = ctx.sys.read_dir(&root.join("envs")) {
            for e in entries.into_iter().take(256).filter(|e| e.is_dir) {
                push(&mut found, e.path, EnvKind::Conda, false, None);
            }
        }
    }
    for p in &ctx.opts.python {
        if p.is_absolute() {
            push(&mut found, p.clone(), EnvKind::System, false, None);
        }
    }

    let mut notes = Vec::new();
    let mut envs = python::read_found(ctx.sys, found, &mut notes);
    // pyvenv.cfg's `home` is a Windows path: the shared reader cannot map it, so check it here.
    notes.retain(|n| {
        !n.message
            .starts_with("pyvenv.cfg names the base interpreter directory")
    });
    for env in &envs {
        let cfg = Path::new(&env.path).join("pyvenv.cfg");
        let Ok(text) = ctx.sys.read_text(&cfg) else {
            continue;
        };
        let home = text.lines().find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == "home").then(|| v.trim().to_string())
        });
        if let Some(home) = home {
            if parse::win_to_path(&home).is_some_and(|p| !ctx.sys.is_dir(&p)) {
                notes.push(crate::inventory::Note {
                    subject: env.path.clone(),
                    message: format!("pyvenv.cfg names the base interpreter directory {home}, which does not exist: this environment's python cannot start; its packages were read from disk"),
                });
            }
        }
    }
    log.notes.extend(notes);
    for env in &mut envs {
        torch_dlls(ctx, env);
    }
    envs.sort_by_key(|e| !e.active);
    envs
}

fn launchers(ctx: &Ctx) -> Vec<String> {
    let mut out: Vec<String> = PY_LAUNCHERS.iter().map(|s| s.to_string()).collect();
    if let Some(local) = ctx
        .sys
        .env("LOCALAPPDATA")
        .and_then(|v| parse::win_to_path(&v))
    {
        out.push(
            local
                .join("Programs/Python/Launcher/py.exe")
                .display()
                .to_string(),
        );
    }
    out.retain(|p| ctx.sys.exists(Path::new(p)));
    out.truncate(1);
    out
}

/// torch's wheel tag and the CUDA runtime DLL in torch\lib (`cudart64_12.dll`).
fn torch_dlls(ctx: &Ctx, env: &mut PythonEnv) {
    let tag = env
        .package("torch")
        .and_then(|p| crate::probe::wheels::tag(ctx.sys, &p.source));
    let site: Vec<PathBuf> = env.site_packages.iter().map(PathBuf::from).collect();
    let Some(t) = env.torch.as_mut() else {
        return;
    };
    t.wheel_tag = tag;
    for s in site {
        let lib = s.join("torch/lib");
        let Ok(mut names) = ctx.sys.read_dir_names(&lib) else {
            continue;
        };
        names.sort();
        if let Some(n) = names
            .iter()
            .find(|n| n.starts_with("cudart64_") && n.ends_with(".dll"))
        {
            t.bundled_cudart = Some(Fact::new(n.clone(), lib.join(n).display().to_string()));
        }
        break;
    }
}
