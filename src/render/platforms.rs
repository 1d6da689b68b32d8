//! Card rows for the macOS and Windows facts (Apple GPU, Rosetta, each
//! Python's architecture; VC++ runtime, long paths, CUDA_PATH, WSL).

use crate::inventory::{GpuVendor, Inventory};

use super::card::Row;

fn row(label: impl Into<String>, value: impl Into<String>, source: impl Into<String>) -> Row {
    Row {
        label: label.into(),
        value: value.into(),
        source: Some(source.into()),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The extra sections, titled, in card order; empty on Linux.
pub fn sections(inv: &Inventory) -> Vec<(&'static str, Vec<Row>)> {
    let mut out = Vec::new();
    let a = &inv.apple;
    let mut rows = Vec::new();
    if let Some(c) = &a.cpu {
        rows.push(row("CPU", c.value.clone(), c.source.clone()));
    }
    if let Some(s) = &a.apple_silicon {
        rows.push(row("Apple silicon", yes_no(s.value), s.source.clone()));
    }
    if let Some(c) = &a.gpu_cores {
        rows.push(row("GPU cores", c.value.to_string(), c.source.clone()));
    }
    if let Some(m) = &a.metal {
        rows.push(row("Metal", m.value.clone(), m.source.clone()));
    }
    if a.chip.is_none() {
        for g in &a.graphics {
            rows.push(row("Graphics", g.value.clone(), g.source.clone()));
        }
    }
    if let Some(r) = &a.rosetta_installed {
        rows.push(row(
            "Rosetta 2",
            if r.value {
                "installed"
            } else {
                "not installed"
            },
            r.source.clone(),
        ));
    }
    for env in &inv.python {
        if let Some(arch) = &env.arch {
            let v = match &arch.note {
                Some(n) => format!("{} ({}; {n})", arch.value, env.path),
                None => format!("{} ({})", arch.value, env.path),
            };
            rows.push(row("Python arch", v, arch.source.clone()));
        }
    }
    if !rows.is_empty() {
        out.push(("macOS", rows));
    }

    let w = &inv.windows;
    let mut rows = Vec::new();
    for c in &w.video_controllers {
        let vendor = match c.vendor {
            GpuVendor::Nvidia => "NVIDIA",
            GpuVendor::Intel => "Intel",
            GpuVendor::Amd => "AMD",
            _ => "other",
        };
        let v = match &c.driver_version {
            Some(d) => format!("{} ({vendor}, driver {d})", c.name),
            None => format!("{} ({vendor})", c.name),
        };
        rows.push(row("Video controller", v, c.source.clone()));
    }
    if let Some(n) = &w.nvcuda_dll {
        rows.push(row("nvcuda.dll", yes_no(n.value), n.source.clone()));
    }
    if !w.vc_runtime.is_empty() {
        let missing: Vec<&str> = w
            .vc_runtime
            .iter()
            .filter(|c| !c.present)
            .map(|c| c.name.as_str())
            .collect();
        let v = if missing.is_empty() {
            "present".to_string()
        } else {
            format!("missing {}", missing.join(", "))
        };
        rows.push(row("VC++ runtime", v, "/Windows/System32"));
    }
    if let Some(l) = &w.long_paths_enabled {
        rows.push(row(
            "Long paths",
            if l.value { "enabled" } else { "disabled" },
            l.source.clone(),
        ));
    }
    for p in &w.cuda_path_vars {
        let v = format!("{}{}", p.value, if p.exists { "" } else { " (missing)" });
        rows.push(row(p.var.clone(), v, format!("env {}", p.var)));
    }
    for d in &w.wsl_distros {
        let v = format!(
            "{} WSL {}{}",
            d.state,
            d.version,
            if d.default { ", default" } else { "" }
        );
        rows.push(row(format!("WSL {}", d.name), v, d.source.clone()));
    }
    if w.wsl_distros.is_empty() {
        if let Some(e) = w.wsl_exe.as_ref().filter(|e| e.value) {
            rows.push(row(
                "WSL",
                "wsl.exe present, no distribution listed",
                e.source.clone(),
            ));
        }
    }
    for env in &inv.python {
        if let Some(t) = &env.torch {
            if let Some(d) = &t.bundled_cudart {
                rows.push(row(
                    "torch CUDA DLL",
                    format!("{} ({})", d.value, env.path),
                    d.source.clone(),
                ));
            }
        }
    }
    if !rows.is_empty() {
        out.push(("Windows", rows));
    }
    out
}
