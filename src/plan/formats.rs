//! `pin --format pins | requirements | uv | json` writers (the Dockerfile
//! writer is in `dockerfile`).

use std::fmt::Write;

use crate::plan::dockerfile;
use crate::plan::resolver::{Pin, Plan, SemanticMode, Stack, StackKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The one-page pin list (Markdown), with the reasons.
    Pins,
    /// A Dockerfile FROM the official image.
    Dockerfile,
    /// pip requirements with the index URL.
    Requirements,
    /// A pyproject snippet for uv: dependencies, [[tool.uv.index]], [tool.uv.sources].
    Uv,
    /// The plan as JSON: every stack, its hosts and its pins, each with its source.
    Json,
}

/// Render the plan. `group`: only that stack (1-based) for the per-stack formats.
pub fn render(plan: &Plan, format: Format, group: Option<usize>) -> String {
    let stacks: Vec<&Stack> = plan
        .stacks
        .iter()
        .filter(|s| group.map_or(true, |g| s.id == g))
        .collect();
    let per_stack = |f: &dyn Fn(&Stack) -> String| -> String {
        let mut out = String::new();
        for s in &stacks {
            if stacks.len() > 1 {
                let _ = writeln!(
                    out,
                    "# ===== stack {} of {}: {} =====",
                    s.id,
                    plan.stacks.len(),
                    stack_target(s)
                );
            }
            out.push_str(&f(s));
            if stacks.len() > 1 {
                out.push('\n');
            }
        }
        if stacks.is_empty() {
            out.push_str("# no stack: see `gpucompat pin --format pins` for why\n");
        }
        out
    };
    match format {
        Format::Pins => pins(plan, &stacks),
        Format::Dockerfile => per_stack(&|s| dockerfile::render(plan, s)),
        Format::Requirements => per_stack(&|s| requirements(plan, s)),
        Format::Uv => per_stack(&|s| uv(plan, s)),
        Format::Json => json(plan),
    }
}

fn summary_line(plan: &Plan, s: &Stack) -> String {
    let mut what = Vec::new();
    match s.kind {
        StackKind::Cuda => {
            if let Some(c) = s.cuda.as_ref().and_then(|c| c.value.as_ref()) {
                what.push(format!("CUDA {c}"));
            }
            if let Some(d) = s.min_driver.as_ref().and_then(|d| d.value.as_ref()) {
                what.push(format!("driver >= {d}"));
            }
        }
        StackKind::Rocm => {
            if let Some(r) = s.rocm.as_ref().and_then(|r| r.value.as_ref()) {
                what.push(format!("ROCm {r}"));
            }
        }
        StackKind::Cpu => what.push("CPU only".into()),
        StackKind::Mps => what.push("Apple MPS".into()),
    }
    format!(
        "# gpucompat pin ({}): stack {} for {} ({})",
        semantics_label(plan, s),
        s.id,
        stack_target(s),
        what.join(", ")
    )
}

/// `toolkit semantics`, `minor_compat semantics`, `auto: minor_compat semantics`.
pub fn semantics_label(plan: &Plan, s: &Stack) -> String {
    match (plan.semantic, s.semantic) {
        (SemanticMode::Auto, Some(used)) => format!("auto: {} semantics", used.as_str()),
        (mode, _) => format!("{} semantics", mode.as_str()),
    }
}

/// The hosts of a stack, and the GPUs when it is for some GPUs of a host only.
pub fn stack_target(s: &Stack) -> String {
    match &s.gpu_selection {
        Some(g) => format!(
            "{} GPU {}",
            g.host,
            g.gpus
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
        None => s.hosts.join(", "),
    }
}

/// Comment lines (without `# `) a per-stack file carries: minor-version
/// compatibility and GPU selection, said where the stack is used.
pub fn stack_notes(s: &Stack) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(m) = &s.minor_compat {
        v.push(format!(
            "relies on CUDA minor-version compatibility on {} (driver >= {}{}): no JIT of newer PTX, APIs of newer CUDA need a newer driver; see `gpucompat pin --format pins`",
            m.hosts.join(", "),
            m.floor,
            m.toolkit_driver
                .as_deref()
                .map(|d| format!("; no caveats from {d}"))
                .unwrap_or_default()
        ));
    }
    if let Some(g) = &s.gpu_selection {
        v.push(format!(
            "for GPU {} of {} only: run with {} (in a container: {})",
            g.gpus
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
            g.host,
            g.env,
            g.docker
        ));
    }
    v
}

fn requirements(plan: &Plan, s: &Stack) -> String {
    let mut out = summary_line(plan, s) + "\n";
    for n in stack_notes(s) {
        let _ = writeln!(out, "# {n}");
    }
    let indexes: Vec<&str> = {
        let mut v: Vec<&str> = s
            .packages
            .iter()
            .filter_map(|p| p.index_url.as_deref())
            .collect();
        v.dedup();
        v
    };
    let from_pypi = s
        .packages
        .iter()
        .any(|p| p.requirement.is_some() && p.index_url.is_none());
    if let Some(first) = indexes.first() {
        let _ = writeln!(out, "--index-url {first}");
        for i in &indexes[1..] {
            let _ = writeln!(out, "--extra-index-url {i}");
        }
        if from_pypi {
            let _ = writeln!(out, "--extra-index-url https://pypi.org/simple");
        }
    }
    for p in &s.packages {
        match &p.requirement {
            Some(r) => {
                let _ = writeln!(out, "{r}");
            }
            None => {
                let _ = writeln!(
                    out,
                    "# {}: {}",
                    p.package,
                    p.note.as_deref().unwrap_or("unknown")
                );
            }
        }
    }
    out
}

fn index_name(url: &str) -> String {
    let tail = url
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("index");
    format!("pytorch-{tail}")
}

fn toml_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn uv(plan: &Plan, s: &Stack) -> String {
    let mut out = summary_line(plan, s) + "\n";
    for n in stack_notes(s) {
        let _ = writeln!(out, "# {n}");
    }
    out.push_str("[project]\n");
    let requires = match (&plan.python, &s.python_range) {
        (Some(p), _) => Some(format!("=={p}.*")),
        (None, Some(range)) => {
            let first = range.split(',').next().unwrap_or("").trim();
            if let Some(lo) = first.strip_prefix(">=") {
                Some(format!(">={}", lo.trim()))
            } else {
                first.split_once('-').map(|(lo, hi)| {
                    let (a, b) = hi.trim().split_once('.').unwrap_or((hi, "0"));
                    let next = b
                        .parse::<u32>()
                        .map(|m| format!("{a}.{}", m + 1))
                        .unwrap_or_default();
                    format!(">={},<{next}", lo.trim())
                })
            }
        }
        (None, None) => None,
    };
    if let Some(r) = requires {
        let _ = writeln!(out, "requires-python = {}", toml_str(&r));
    }
    out.push_str("dependencies = [\n");
    for p in &s.packages {
        match &p.requirement {
            Some(r) => {
                let _ = writeln!(out, "    {},", toml_str(r));
            }
            None => {
                let _ = writeln!(
                    out,
                    "    # {}: {}",
                    p.package,
                    p.note.as_deref().unwrap_or("unknown")
                );
            }
        }
    }
    out.push_str("]\n");
    let mut indexes: Vec<&str> = s
        .packages
        .iter()
        .filter_map(|p| p.index_url.as_deref())
        .collect();
    indexes.dedup();
    for i in &indexes {
        let _ = write!(
            out,
            "\n[[tool.uv.index]]\nname = {}\nurl = {}\nexplicit = true\n",
            toml_str(&index_name(i)),
            toml_str(i)
        );
    }
    let sourced: Vec<_> = s
        .packages
        .iter()
        .filter(|p| p.requirement.is_some() && p.index_url.is_some())
        .collect();
    if !sourced.is_empty() {
        out.push_str("\n[tool.uv.sources]\n");
        for p in sourced {
            let _ = writeln!(
                out,
                "{} = {{ index = {} }}",
                p.package,
                toml_str(&index_name(p.index_url.as_deref().unwrap_or("")))
            );
        }
    }
    out
}

fn json(plan: &Plan) -> String {
    let mut v = serde_json::to_value(plan).unwrap_or(serde_json::Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "tool".into(),
            serde_json::json!({"name": "gpucompat", "version": env!("CARGO_PKG_VERSION")}),
        );
    }
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn pin_cell(p: &Pin) -> (String, String) {
    let mut v = p.shown();
    if let Some(n) = &p.note {
        v.push_str(&format!(" ({n})"));
    }
    (cell(&v), cell(&p.source))
}

fn pins(plan: &Plan, stacks: &[&Stack]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# gpucompat pin\n");
    let sem = match plan.semantic {
        SemanticMode::Toolkit => "toolkit (each CUDA version with the driver it shipped with: no caveats)",
        SemanticMode::MinorCompat => "minor-compat (CUDA minor-version compatibility: older drivers of the same major, with caveats)",
        SemanticMode::Auto => "auto (the toolkit semantic, no caveats, unless CUDA minor-version compatibility gives a newer stack; each stack says which it uses)",
    };
    let _ = writeln!(o, "Semantic: {sem}. Requested: {}.", plan.with.join(", "));
    if let Some(os) = &plan.os {
        let _ = writeln!(o, "Container OS: {os}.");
    }
    if let Some(py) = &plan.python {
        let _ = writeln!(o, "Python: {py}.");
    }
    let _ = writeln!(o, "\n## Hosts\n");
    let _ = writeln!(
        o,
        "| host | from | OS / kernel | driver | newest CUDA | GPUs |"
    );
    let _ = writeln!(o, "|---|---|---|---|---|---|");
    for h in &plan.hosts {
        let gpus: Vec<String> = h
            .gpus
            .iter()
            .map(|g| {
                let cc = g
                    .compute_capability
                    .as_ref()
                    .map_or("cc unknown".into(), |c| c.value.to_string());
                let arch = g
                    .architecture
                    .as_deref()
                    .map(|a| format!(", {a}"))
                    .unwrap_or_default();
                format!("{} ({cc}{arch})", g.name.as_deref().unwrap_or("GPU"))
            })
            .collect();
        let gpus = if gpus.is_empty() {
            format!("none ({})", format!("{:?}", h.kind).to_lowercase())
        } else {
            gpus.join("; ")
        };
        let mut max = h.max_cuda.as_ref().map_or("-".into(), |c| c.shown());
        if let Some(m) = &h.max_cuda_minor_compat {
            max.push_str(&format!(
                " ({} with minor-version compatibility)",
                m.shown()
            ));
        }
        let _ = writeln!(
            o,
            "| {} | {} | {} / {} | {} | {} | {} |",
            cell(&h.name),
            cell(&h.origin),
            cell(h.os.as_deref().unwrap_or("unknown")),
            cell(h.kernel.as_deref().unwrap_or("unknown")),
            h.driver
                .as_ref()
                .map_or("none".into(), |d| d.value.to_string()),
            cell(&max),
            cell(&gpus)
        );
    }
    for h in &plan.hosts {
        for n in &h.notes {
            let _ = writeln!(o, "\n- {}: {}", h.name, n);
        }
    }
    for s in stacks {
        let _ = writeln!(o, "\n## Stack {}: {}\n", s.id, stack_target(s));
        if let Some(g) = &s.gpu_selection {
            let _ = writeln!(
                o,
                "For GPU {} of {} only: run with `{}` (in a container: `{}`).\n",
                g.gpus
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
                g.host,
                g.env,
                g.docker
            );
        }
        if let Some(sem) = s.semantic {
            let used = match (sem, &s.minor_compat) {
                (_, Some(m)) => format!(
                    "CUDA minor-version compatibility: this stack relies on it on {}",
                    m.hosts.join(", ")
                ),
                (crate::kb::Semantic::MinorCompat, None) => {
                    "minor-compat, though every host runs this stack's CUDA with no caveats".into()
                }
                (crate::kb::Semantic::Toolkit, None) => {
                    "toolkit: every host runs this stack's CUDA with no caveats".into()
                }
            };
            let _ = writeln!(o, "Semantic: {used}.\n");
        }
        let _ = writeln!(o, "| layer | pin | from |");
        let _ = writeln!(o, "|---|---|---|");
        let mut row = |layer: &str, p: &Pin| {
            let (v, src) = pin_cell(p);
            let _ = writeln!(o, "| {layer} | {v} | {src} |");
        };
        if let Some(p) = &s.min_driver {
            row("NVIDIA driver (minimum)", p);
        }
        if let Some(p) = &s.max_cuda {
            row("newest CUDA on every host", p);
        }
        if let Some(p) = &s.cuda {
            row("CUDA runtime", p);
        }
        if let Some(p) = &s.rocm {
            row("ROCm (in the wheel)", p);
        }
        if let Some(p) = &s.cudnn {
            row("cuDNN", p);
        }
        if let Some(p) = &s.python {
            row("Python", p);
        }
        if let Some(i) = &s.image {
            let _ = writeln!(
                o,
                "| base image | {} | {} {} |",
                cell(&i.reference),
                i.kb.table,
                i.kb.row
            );
        }
        for p in &s.packages {
            let v = match (&p.version, &p.index_url) {
                (Some(v), Some(i)) => format!("{v} from {i}"),
                (Some(v), None) => format!("{v} from PyPI"),
                (None, _) => format!("unknown ({})", p.note.as_deref().unwrap_or("")),
            };
            let _ = writeln!(
                o,
                "| {} | {} | {} |",
                cell(&p.package),
                cell(&v),
                cell(&p.source)
            );
        }
        if !s.gpus.is_empty() {
            let _ = writeln!(o, "\nGPUs:");
            for g in &s.gpus {
                let _ = writeln!(
                    o,
                    "- {} {} ({}): {}{}: {}",
                    g.host,
                    g.gpu,
                    g.compute_capability.as_deref().unwrap_or("cc unknown"),
                    g.kernel,
                    g.target
                        .as_deref()
                        .map(|t| format!(" {t}"))
                        .unwrap_or_default(),
                    g.reason
                );
            }
        }
        let _ = writeln!(o, "\nWhy:");
        for r in &s.reasons {
            let _ = writeln!(o, "- {}: {}", r.subject, r.text);
        }
        if let Some(m) = &s.minor_compat {
            let _ = writeln!(
                o,
                "\nRelies on CUDA minor-version compatibility (driver >= {}, {} {}):",
                m.floor, m.kb.table, m.kb.row
            );
            for c in &m.caveats {
                let _ = writeln!(o, "- {c}");
            }
        }
        if !s.caveats.is_empty() {
            let _ = writeln!(o, "\nCaveats:");
            for c in &s.caveats {
                let _ = writeln!(o, "- {c}");
            }
        }
    }
    if !plan.split.is_empty() {
        let _ = writeln!(o, "\n## Why the fleet is split\n");
        for s in &plan.split {
            let _ = writeln!(o, "- {s}");
        }
    }
    for g in &plan.gpu_split {
        let _ = writeln!(o, "\n## Why host {} has one stack per GPU group\n", g.host);
        for w in &g.why {
            let _ = writeln!(o, "- {w}");
        }
        let _ = writeln!(o, "\nChoices:");
        for c in &g.choices {
            let _ = writeln!(o, "- {c}");
        }
    }
    if !plan.unplaced.is_empty() {
        let _ = writeln!(o, "\n## Hosts without a stack\n");
        for u in &plan.unplaced {
            let _ = writeln!(o, "- {}: {}", u.host, u.problems.join("; "));
            for f in &u.fixes {
                let _ = writeln!(o, "  - fix: {f}");
            }
        }
    }
    if !plan.notes.is_empty() {
        let _ = writeln!(o, "\nNotes:");
        for n in &plan.notes {
            let _ = writeln!(o, "- {n}");
        }
    }
    o
}
