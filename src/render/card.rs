//! The compatibility card: a text table (default), the Inventory as JSON,
//! and the Markdown card a course or lab asks for. With `verbose`, every
//! fact shows where it was read.

use std::fmt::Display;
use std::fmt::Write as _;

use crate::inventory::{Fact, Gpu, GpuVendor, Inventory, ModuleFlavor, OsKind, PythonEnv, Segment};
use crate::kb::Kb;
use crate::tier::Tier;

const UNKNOWN: &str = "unknown";

/// One line of the card: a label, a value, and where the value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub label: String,
    pub value: String,
    pub source: Option<String>,
}

fn row(label: impl Into<String>, value: impl Into<String>, source: Option<String>) -> Row {
    Row {
        label: label.into(),
        value: value.into(),
        source,
    }
}

fn fact_row<T: Display>(label: &str, f: &Option<Fact<T>>) -> Row {
    match f {
        Some(f) => row(
            label,
            with_note(f.value.to_string(), f),
            Some(f.source.clone()),
        ),
        None => row(label, UNKNOWN, None),
    }
}

fn with_note<T>(value: String, f: &Fact<T>) -> String {
    match &f.note {
        Some(n) => format!("{value} ({n})"),
        None => value,
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The whole Inventory as pretty JSON (the `card --json` contract).
pub fn json(inv: &Inventory) -> serde_json::Result<String> {
    let mut s = serde_json::to_string_pretty(inv)?;
    s.push('\n');
    Ok(s)
}

/// The OS whose driver numbering applies: WSL reports the Windows driver.
fn driver_os(inv: &Inventory) -> OsKind {
    if inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value) {
        return OsKind::Windows;
    }
    inv.os.kind.as_ref().map(|k| k.value).unwrap_or_default()
}

/// The driver's newest CUDA: as the driver said, else from the kb by driver version.
pub fn cuda_max_row(inv: &Inventory, kb: &Kb, label: &str) -> Row {
    if let Some(f) = inv
        .nvidia
        .cuda_max
        .as_ref()
        .filter(|f| !crate::kb::resolve::is_kb_source(&f.source))
    {
        return fact_row(label, &Some(f.clone()));
    }
    let Some(d) = inv.driver_version() else {
        return row(label, UNKNOWN, None);
    };
    match kb.max_cuda_for_driver(&d.value, driver_os(inv)) {
        Some(dc) => row(
            label,
            format!(
                "{}{} (from driver {} and the toolkit table)",
                dc.max_cuda,
                if dc.at_least { " or newer" } else { "" },
                d.value
            ),
            Some(format!("kb {} {} ; {}", dc.kb.table, dc.kb.row, d.source)),
        ),
        None => row(label, UNKNOWN, None),
    }
}

/// The torch wheel's CUDA, from the active (else first) Python environment with torch.
pub fn torch_row(python: &[PythonEnv], label: &str) -> Row {
    if python.is_empty() {
        return row(label, "not probed", None);
    }
    let with_torch = python
        .iter()
        .filter(|e| e.torch.is_some())
        .max_by_key(|e| e.active);
    let Some(env) = with_torch else {
        return row(
            label,
            format!("no torch in {} Python environment(s)", python.len()),
            None,
        );
    };
    let Some(t) = &env.torch else {
        return row(label, UNKNOWN, None);
    };
    let version = t.version.as_ref().map(|v| v.value.as_str()).unwrap_or("?");
    match &t.cuda {
        Some(Fact {
            value: Some(c),
            source,
            ..
        }) => row(
            label,
            format!("{c} (torch {version}, {})", env.path),
            Some(source.clone()),
        ),
        Some(Fact {
            value: None,
            source,
            ..
        }) => row(
            label,
            format!("none: CPU-only wheel (torch {version}, {})", env.path),
            Some(source.clone()),
        ),
        None => row(
            label,
            format!("{UNKNOWN} (torch {version}, {})", env.path),
            None,
        ),
    }
}

fn gpu_value(g: &Gpu) -> String {
    let mut parts = vec![g
        .name
        .as_ref()
        .map(|n| n.value.clone())
        .unwrap_or_else(|| "unnamed GPU".into())];
    parts.push(match (&g.compute_capability, &g.architecture) {
        (Some(cc), Some(a)) => format!("CC {} ({})", cc.value, a.value),
        (Some(cc), None) => format!("CC {}", cc.value),
        (None, _) => "CC unknown".into(),
    });
    parts.push(match &g.memory_mib {
        Some(m) => format!("{} MiB", m.value),
        None => "memory unknown".into(),
    });
    if let Some(b) = &g.pci_bus_id {
        parts.push(b.value.clone());
    }
    if let Some(m) = &g.mig {
        if m.value.enabled {
            parts.push("MIG on".into());
        }
    }
    parts.join(", ")
}

fn gpu_sources(g: &Gpu) -> Option<String> {
    let mut s: Vec<String> = Vec::new();
    let mut add = |label: &str, src: Option<&String>| {
        if let Some(src) = src {
            s.push(format!("{label}: {src}"));
        }
    };
    let name = g.name.as_ref().map(|f| &f.source);
    let cc = g.compute_capability.as_ref().map(|f| &f.source);
    let mem = g.memory_mib.as_ref().map(|f| &f.source);
    if name.is_some()
        && cc.map_or(true, |c| Some(c) == name)
        && mem.map_or(true, |m| Some(m) == name)
    {
        return name.cloned();
    }
    add("name", name);
    add("CC", cc);
    add("memory", mem);
    (!s.is_empty()).then(|| s.join("; "))
}

fn segment_name(s: Segment) -> &'static str {
    match s {
        Segment::Geforce => "GeForce",
        Segment::Workstation => "workstation",
        Segment::Datacenter => "datacenter",
        Segment::Embedded => "embedded",
    }
}

struct Section {
    title: &'static str,
    rows: Vec<Row>,
}

fn sections(inv: &Inventory, kb: &Kb, tier: &Tier) -> Vec<Section> {
    let mut out = Vec::new();

    // System
    let mut rows = Vec::new();
    if let Some(h) = &inv.os.hostname {
        rows.push(fact_row("Host", &Some(h.clone())));
    }
    rows.push(match &inv.os.pretty_name {
        Some(p) => row("OS", p.value.clone(), Some(p.source.clone())),
        None => fact_row("OS", &inv.os.id),
    });
    rows.push(fact_row("Kernel", &inv.os.kernel));
    rows.push(fact_row("Architecture", &inv.os.arch));
    rows.push(fact_row("glibc", &inv.os.glibc));
    if let Some(sb) = &inv.os.secure_boot {
        rows.push(row(
            "Secure Boot",
            if sb.value { "enabled" } else { "disabled" },
            Some(sb.source.clone()),
        ));
    }
    if let Some(c) = &inv.container.runtime {
        rows.push(fact_row("Container", &Some(c.clone())));
    }
    if let Some(k) = inv.container.kubernetes.as_ref().filter(|k| k.value) {
        rows.push(row("Kubernetes", "yes", Some(k.source.clone())));
    }
    if let Some(w) = inv.wsl.is_wsl.as_ref().filter(|w| w.value) {
        let lib = match &inv.wsl.libcuda_in_lib_dir {
            Some(f) if f.value => "libcuda in /usr/lib/wsl/lib",
            Some(_) => "no libcuda in /usr/lib/wsl/lib",
            None => "/usr/lib/wsl/lib not checked",
        };
        rows.push(row("WSL2", format!("yes, {lib}"), Some(w.source.clone())));
    }
    out.push(Section {
        title: "System",
        rows,
    });

    // NVIDIA driver
    let nv = &inv.nvidia;
    let mut rows = Vec::new();
    rows.push(match &nv.kernel_module {
        Some(k) => {
            let flavor = match nv.module_flavor.as_ref().map(|f| f.value) {
                Some(ModuleFlavor::Open) => " (open)",
                Some(ModuleFlavor::Proprietary) => " (proprietary)",
                None => "",
            };
            row(
                "Kernel module",
                format!("{}{flavor}", k.value),
                Some(k.source.clone()),
            )
        }
        None => match (&nv.module_loaded, &inv.wsl.is_wsl) {
            (_, Some(w)) if w.value => row(
                "Kernel module",
                "none in WSL2 (the Windows driver serves the GPU)",
                Some(w.source.clone()),
            ),
            (Some(l), _) if !l.value => row("Kernel module", "not loaded", Some(l.source.clone())),
            _ => row("Kernel module", UNKNOWN, None),
        },
    });
    rows.push(fact_row("Driver", &inv.driver_version().cloned()));
    rows.push(cuda_max_row(inv, kb, "Driver CUDA max"));
    for l in &nv.user_libraries {
        rows.push(row(
            "User library",
            format!("{} {}", l.name, l.version.value),
            Some(l.path.clone()),
        ));
    }
    if !nv.device_nodes.is_empty() {
        let names: Vec<String> = nv
            .device_nodes
            .iter()
            .map(|n| {
                if n.readable {
                    n.path.clone()
                } else {
                    format!("{} (no access)", n.path)
                }
            })
            .collect();
        rows.push(row("Device nodes", names.join(" "), Some("/dev".into())));
    }
    if let Some(ok) = &nv.smi_ok {
        let v = if ok.value {
            "answered".to_string()
        } else {
            with_note("failed".into(), ok)
        };
        rows.push(row("NVML/nvidia-smi", v, Some(ok.source.clone())));
    }
    out.push(Section {
        title: "NVIDIA driver",
        rows,
    });

    // GPUs
    let mut rows = Vec::new();
    for g in &inv.gpus {
        rows.push(row(
            format!("GPU {}", g.index),
            gpu_value(g),
            gpu_sources(g),
        ));
    }
    if inv.gpus.is_empty() {
        rows.push(row("GPUs", "none reported by a driver", None));
    }
    for d in &inv.pci {
        let vendor = match d.vendor {
            GpuVendor::Nvidia => "NVIDIA",
            GpuVendor::Amd => "AMD",
            GpuVendor::Intel => "Intel",
            GpuVendor::Apple => "Apple",
            GpuVendor::Other => "other",
        };
        let mut v = format!("{vendor} {}", d.device_id);
        if let Some(n) = &d.name {
            v.push_str(&format!(" {n}"));
        }
        if let Some(m) = d.vram_mib {
            v.push_str(&format!(", {m} MiB"));
        }
        v.push_str(&match &d.driver {
            Some(drv) => format!(", driver {drv}"),
            None => ", no driver".into(),
        });
        rows.push(row(format!("PCI {}", d.address), v, Some(d.source.clone())));
    }
    out.push(Section {
        title: "GPUs",
        rows,
    });

    // Fabric
    let f = &inv.fabric;
    let mut rows = Vec::new();
    if let Some(n) = &f.nvswitch_count {
        rows.push(fact_row("NVSwitch", &Some(n.clone())));
    }
    if let Some(l) = &f.nvlink_active {
        rows.push(row(
            "NVLink active",
            yes_no(l.value),
            Some(l.source.clone()),
        ));
    }
    if let Some(i) = &f.fabric_manager_installed {
        let mut v = if i.value {
            "installed"
        } else {
            "not installed"
        }
        .to_string();
        if let Some(ver) = &f.fabric_manager_version {
            v.push_str(&format!(" {}", ver.value));
        }
        if let Some(r) = &f.fabric_manager_running {
            v.push_str(if r.value {
                ", running"
            } else {
                ", not running"
            });
        }
        rows.push(row("Fabric manager", v, Some(i.source.clone())));
    }
    if !f.infiniband_devices.is_empty() {
        let names: Vec<&str> = f
            .infiniband_devices
            .iter()
            .map(|d| d.value.as_str())
            .collect();
        rows.push(row(
            "InfiniBand",
            names.join(" "),
            Some("/sys/class/infiniband".into()),
        ));
    }
    if !rows.is_empty() {
        out.push(Section {
            title: "Fabric",
            rows,
        });
    }

    // CUDA toolkits and libraries
    let mut rows = Vec::new();
    for t in &inv.toolkits {
        let mut extra = Vec::new();
        if t.has_nvcc {
            extra.push("nvcc");
        }
        if t.has_compat {
            extra.push("compat");
        }
        let mut v = format!("{} {}", t.version.value, t.path);
        if !extra.is_empty() {
            v.push_str(&format!(" [{}]", extra.join(", ")));
        }
        if let Some(n) = &t.version.note {
            v.push_str(&format!(" ({n})"));
        }
        rows.push(row("CUDA toolkit", v, Some(t.version.source.clone())));
    }
    let libs = &inv.libraries;
    for (label, list) in [
        ("cuda-compat", &libs.cuda_compat),
        ("cuDNN", &libs.cudnn),
        ("NCCL", &libs.nccl),
        ("TensorRT", &libs.tensorrt),
    ] {
        for l in list {
            rows.push(row(
                label,
                format!("{} {}", l.version.value, l.path),
                Some(l.version.source.clone()),
            ));
        }
    }
    rows.push(torch_row(&inv.python, "torch wheel CUDA"));
    out.push(Section {
        title: "CUDA software",
        rows,
    });

    // AMD
    let a = &inv.amd;
    let mut rows = Vec::new();
    if let Some(l) = &a.amdgpu_loaded {
        rows.push(row(
            "amdgpu module",
            yes_no(l.value),
            Some(l.source.clone()),
        ));
    }
    if let Some(k) = &a.kfd_present {
        rows.push(row("/dev/kfd", yes_no(k.value), Some(k.source.clone())));
    }
    if let Some(r) = &a.rocm_version {
        rows.push(fact_row("ROCm", &Some(r.clone())));
    }
    if !a.gfx_targets.is_empty() {
        let t: Vec<&str> = a.gfx_targets.iter().map(|f| f.value.as_str()).collect();
        rows.push(row(
            "gfx targets",
            t.join(" "),
            a.gfx_targets.first().map(|f| f.source.clone()),
        ));
    }
    if !rows.is_empty() {
        out.push(Section { title: "AMD", rows });
    }

    // Apple
    let ap = &inv.apple;
    if ap.chip.is_some() {
        let mut rows = vec![fact_row("Chip", &ap.chip)];
        if ap.unified_memory_gib.is_some() {
            rows.push(fact_row("Unified memory GiB", &ap.unified_memory_gib));
        }
        if let Some(m) = &ap.mps_available {
            rows.push(row("MPS", yes_no(m.value), Some(m.source.clone())));
        }
        out.push(Section {
            title: "Apple",
            rows,
        });
    }

    for (title, rows) in super::platforms::sections(inv) {
        out.push(Section { title, rows });
    }

    // Environment
    if !inv.env.is_empty() {
        let rows = inv
            .env
            .iter()
            .map(|(k, f)| {
                let v = if f.value.is_empty() {
                    "\"\" (set, empty)".to_string()
                } else {
                    f.value.clone()
                };
                row(k.clone(), v, Some(f.source.clone()))
            })
            .collect();
        out.push(Section {
            title: "Environment",
            rows,
        });
    }

    // Tier
    let mut rows = vec![row(
        format!("Tier {}", tier.level),
        tier.reason.clone(),
        (!tier.sources.is_empty()).then(|| tier.sources.join("; ")),
    )];
    for p in &tier.posture {
        rows.push(row("Posture gap", p.clone(), None));
    }
    out.push(Section {
        title: "Tier",
        rows,
    });

    // What could not be established
    let mut rows = Vec::new();
    for e in &inv.errors {
        let kind = serde_json::to_value(e.kind)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        rows.push(row(
            "Error",
            format!("{kind}: {}", e.text),
            Some(e.source.clone()),
        ));
    }
    for n in &inv.notes {
        rows.push(row("Note", format!("{}: {}", n.subject, n.message), None));
    }
    if !rows.is_empty() {
        out.push(Section {
            title: "Notes",
            rows,
        });
    }
    out
}

/// The text table.
pub fn text(inv: &Inventory, kb: &Kb, tier: &Tier, verbose: bool) -> String {
    let secs = sections(inv, kb, tier);
    let label_w = secs
        .iter()
        .flat_map(|s| s.rows.iter())
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    let value_w = secs
        .iter()
        .flat_map(|s| s.rows.iter())
        .map(|r| r.value.chars().count())
        .max()
        .unwrap_or(0)
        .min(64);
    let mut out = format!("gpucompat card ({})\n", inv.origin);
    for s in secs {
        let _ = writeln!(out, "\n{}", s.title);
        for r in s.rows {
            let mut line = format!("  {:label_w$}  {}", r.label, r.value);
            if verbose {
                if let Some(src) = &r.source {
                    let pad = value_w.saturating_sub(r.value.chars().count());
                    line.push_str(&" ".repeat(pad));
                    let _ = write!(line, "  <- {src}");
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    if !inv.python.is_empty() {
        out.push('\n');
        for l in super::python_envs::text_lines(&inv.python, verbose) {
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
    out
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The Markdown card: OS, kernel, driver, driver CUDA max, torch wheel CUDA,
/// GPUs with CC and VRAM, and the tier with its reason.
pub fn markdown(inv: &Inventory, kb: &Kb, tier: &Tier, verbose: bool) -> String {
    let mut rows: Vec<Row> = Vec::new();
    if let Some(h) = &inv.os.hostname {
        rows.push(fact_row("Host", &Some(h.clone())));
    }
    rows.push(match &inv.os.pretty_name {
        Some(p) => row("OS", p.value.clone(), Some(p.source.clone())),
        None => fact_row("OS", &inv.os.id),
    });
    rows.push(fact_row("Kernel", &inv.os.kernel));
    if let Some(w) = inv.wsl.is_wsl.as_ref().filter(|w| w.value) {
        rows.push(row("WSL2", "yes", Some(w.source.clone())));
    }
    if let Some(c) = &inv.container.runtime {
        rows.push(fact_row("Container", &Some(c.clone())));
    }
    rows.push(fact_row("Driver", &inv.driver_version().cloned()));
    rows.push(cuda_max_row(inv, kb, "Driver CUDA max"));
    rows.push(torch_row(&inv.python, "torch wheel CUDA"));
    for g in &inv.gpus {
        let mut v = g
            .name
            .as_ref()
            .map(|n| n.value.clone())
            .unwrap_or_else(|| "unnamed GPU".into());
        v.push_str(&match &g.compute_capability {
            Some(cc) => format!(", CC {}", cc.value),
            None => ", CC unknown".into(),
        });
        v.push_str(&match &g.memory_mib {
            Some(m) => format!(", {} MiB VRAM", m.value),
            None => ", VRAM unknown".into(),
        });
        if let Some(s) = &g.segment {
            v.push_str(&format!(" ({})", segment_name(s.value)));
        }
        rows.push(row(format!("GPU {}", g.index), v, gpu_sources(g)));
    }
    if inv.gpus.is_empty() {
        let pci: Vec<String> = inv
            .nvidia_pci()
            .map(|d| {
                format!(
                    "{} at {} ({})",
                    d.name
                        .clone()
                        .unwrap_or_else(|| format!("NVIDIA {}", d.device_id)),
                    d.address,
                    d.driver
                        .as_deref()
                        .map_or("no driver".to_string(), |x| format!("driver {x}"))
                )
            })
            .collect();
        if pci.is_empty() {
            rows.push(row("GPUs", "none", None));
        } else {
            rows.push(row(
                "GPUs",
                format!("none reported by a driver; on PCI: {}", pci.join("; ")),
                Some("/sys/bus/pci/devices".into()),
            ));
        }
    }
    rows.push(row(
        "Tier",
        format!("**{}**: {}", tier.level, tier.reason),
        (!tier.sources.is_empty()).then(|| tier.sources.join("; ")),
    ));

    let mut out = String::from("## GPU compatibility card\n\n");
    if verbose {
        out.push_str("| Item | Value | Source |\n| --- | --- | --- |\n");
    } else {
        out.push_str("| Item | Value |\n| --- | --- |\n");
    }
    for r in &rows {
        if verbose {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                md_cell(&r.label),
                md_cell(&r.value),
                md_cell(r.source.as_deref().unwrap_or(""))
            );
        } else {
            let _ = writeln!(out, "| {} | {} |", md_cell(&r.label), md_cell(&r.value));
        }
    }
    if !tier.posture.is_empty() {
        out.push_str("\nNot yet usable at this tier:\n\n");
        for p in &tier.posture {
            let _ = writeln!(out, "- {p}");
        }
    }
    if !inv.python.is_empty() {
        out.push_str("\n### Python environments\n\n");
        for l in super::python_envs::markdown_rows(&inv.python) {
            let _ = writeln!(out, "{l}");
        }
    }
    if verbose && !inv.notes.is_empty() {
        out.push_str("\nNotes:\n\n");
        for n in &inv.notes {
            let _ = writeln!(out, "- {}: {}", n.subject, n.message);
        }
    }
    let _ = writeln!(
        out,
        "\n<sub>gpucompat {} · {} · tiers as defined by gpucompat (1 none, 2 desktop under 16 GiB or Apple silicon, 3 desktop 16 GiB+, 4 datacenter, 5 datacenter joined by NVLink/NVSwitch or InfiniBand)</sub>",
        env!("CARGO_PKG_VERSION"),
        inv.origin
    );
    out
}
