//! `gpucompat explain [FILE|-]...`: read pasted reports (collect_env,
//! nvidia-smi, pip lists, tracebacks), build an Inventory whose facts cite
//! their input line, run the rules, and say what else to run when a fact
//! that would change the verdict is missing.

use std::path::PathBuf;

use anyhow::Context;
use serde::Serialize;

use gpucompat::finding::{exit_code, Finding};
use gpucompat::ingest::{self, ToBeSure};
use gpucompat::inventory::{Inventory, SCHEMA_VERSION};
use gpucompat::rules::run_rules;

use super::Ctx;

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Files holding pasted reports; `-` (or nothing) reads standard input.
    #[arg(value_name = "FILE|-")]
    pub files: Vec<PathBuf>,

    /// Print findings, the inventory and the follow-up commands as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Report<'a> {
    schema_version: u32,
    tool: Tool,
    findings: &'a [Finding],
    inventory: &'a Inventory,
    to_be_sure: &'a [ToBeSure],
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    if ctx.root != std::path::Path::new("/") {
        eprintln!("gpucompat: --root has no effect on explain: it reads only the given input");
    }
    let inputs = read_inputs(&args.files)?;
    let mut inv = ingest::ingest(&inputs);
    ingest::enrich(&mut inv, &ctx.kb);
    let findings = run_rules(&inv, &ctx.kb);
    let to_be_sure = ingest::missing_facts(&inv);

    if args.json {
        let report = Report {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: "gpucompat",
                version: env!("CARGO_PKG_VERSION"),
            },
            findings: &findings,
            inventory: &inv,
            to_be_sure: &to_be_sure,
        };
        gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(&report)?);
    } else {
        gpucompat::render::sanitize::print(&render_text(&findings, &inv, &to_be_sure, ctx.verbose));
    }
    Ok(exit_code(&findings))
}

fn read_inputs(files: &[PathBuf]) -> anyhow::Result<Vec<(String, String)>> {
    let stdin_only = files.is_empty();
    let mut inputs = Vec::new();
    for f in files.iter().map(Some).chain(stdin_only.then_some(None)) {
        let (name, bytes) = match f {
            Some(p) if p.as_os_str() != "-" => {
                let bytes = gpucompat::system::read_input(p, gpucompat::system::MAX_PASTE_BYTES)
                    .with_context(|| format!("reading {}", p.display()))?;
                (p.display().to_string(), bytes)
            }
            _ => {
                let bytes = gpucompat::system::read_input(
                    std::path::Path::new("-"),
                    gpucompat::system::MAX_PASTE_BYTES,
                )
                .context("reading standard input")?;
                ("stdin".to_string(), bytes)
            }
        };
        // Pastes come in every encoding; bytes that are not UTF-8 become U+FFFD.
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        inputs.push((name, text));
    }
    Ok(inputs)
}

/// The text report: findings (the same rendering as `check`), the facts read
/// from the input with their line numbers, then what else to run.
pub fn render_text(
    findings: &[Finding],
    inv: &Inventory,
    to_be_sure: &[ToBeSure],
    verbose: bool,
) -> String {
    let mut s = String::new();
    if findings.is_empty() {
        s.push_str("No findings from the rules on what was pasted.\n");
    } else {
        for f in findings {
            s.push_str(&gpucompat::render::findings::finding_text(f, verbose));
            s.push('\n');
        }
    }
    let facts = fact_lines(inv);
    if !s.ends_with("\n\n") {
        s.push('\n');
    }
    if facts.is_empty() {
        s.push_str("Nothing gpucompat knows how to read was found in the input.\n");
    } else {
        s.push_str("Read from the input:\n");
        for f in &facts {
            s.push_str("  ");
            s.push_str(f);
            s.push('\n');
        }
    }
    if verbose || findings.is_empty() {
        for n in &inv.notes {
            s.push_str(&format!("  note: {}: {}\n", n.subject, n.message));
        }
    }
    if !to_be_sure.is_empty() {
        s.push_str("\nTo be sure, also run:\n");
        for t in to_be_sure {
            s.push_str(&format!("  {}\n      ({})\n", t.command, t.reason));
        }
    }
    s
}

/// The facts that were read, each with its source, one per line.
fn fact_lines(inv: &Inventory) -> Vec<String> {
    let mut v = Vec::new();
    let mut f = |what: &str, value: String, src: &str| v.push(format!("{what}: {value} ({src})"));
    let n = &inv.nvidia;
    if let Some(x) = &n.driver_version {
        f("driver", x.value.to_string(), &x.source);
    }
    if let Some(x) = &n.kernel_module {
        f("kernel module", x.value.to_string(), &x.source);
    }
    for l in &n.user_libraries {
        f(&l.name, l.version.value.to_string(), &l.version.source);
    }
    if let Some(x) = &n.cuda_max {
        f("driver's CUDA", x.value.to_string(), &x.source);
    }
    if let Some(x) = &n.module_flavor {
        f(
            "kernel module flavor",
            format!("{:?}", x.value).to_lowercase(),
            &x.source,
        );
    }
    if let Some(x) = &n.module_loaded {
        f("nvidia module loaded", x.value.to_string(), &x.source);
    }
    if let Some(x) = &n.smi_ok {
        f("nvidia-smi answered", x.value.to_string(), &x.source);
    }
    for d in inv.nvidia_pci() {
        let driver = d.driver.as_deref().unwrap_or("none");
        let name = d.name.as_deref().unwrap_or("NVIDIA device");
        f(
            &format!("PCI {}", d.address),
            format!("{name}, driver {driver}"),
            &d.source,
        );
    }
    for g in &inv.gpus {
        if let Some(x) = &g.name {
            f(&format!("GPU {}", g.index), x.value.clone(), &x.source);
        }
        if let Some(x) = &g.compute_capability {
            f(
                &format!("GPU {} compute capability", g.index),
                x.value.to_string(),
                &x.source,
            );
        }
        if let Some(x) = &g.mig {
            let v = match (x.value.enabled, x.value.instances) {
                (false, _) => "disabled".to_string(),
                (true, Some(n)) => format!("enabled, {n} instances"),
                (true, None) => "enabled".to_string(),
            };
            f(&format!("GPU {} MIG", g.index), v, &x.source);
        }
        if let Some(x) = &g.driver_model {
            f(
                &format!("GPU {} driver model", g.index),
                format!("{:?}", x.value).to_uppercase(),
                &x.source,
            );
        }
    }
    for (what, libs) in [
        ("cuDNN", &inv.libraries.cudnn),
        ("NCCL", &inv.libraries.nccl),
        ("TensorRT", &inv.libraries.tensorrt),
    ] {
        if let Some(l) = libs.first() {
            let more = match libs.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            f(
                what,
                format!("{} {}{more}", l.version.value, l.path),
                &l.version.source,
            );
        }
    }
    if let Some(x) = &inv.amd.amdgpu_loaded {
        f(
            "amdgpu (ROCk) module loaded",
            x.value.to_string(),
            &x.source,
        );
    }
    if let Some(x) = &inv.amd.rocm_version {
        f("ROCm", x.value.clone(), &x.source);
    }
    for x in &inv.amd.gfx_targets {
        f("AMD GPU target", x.value.clone(), &x.source);
    }
    if let Some(x) = &inv.apple.chip {
        f("Apple chip", x.value.clone(), &x.source);
    }
    let fab = &inv.fabric;
    if let Some(x) = &fab.fabric_manager_running {
        f("fabric manager running", x.value.to_string(), &x.source);
    }
    if let Some(x) = &fab.fabric_manager_version {
        f("fabric manager", x.value.to_string(), &x.source);
    }
    for t in &inv.toolkits {
        f(
            &format!("CUDA toolkit ({})", t.path),
            t.version.value.to_string(),
            &t.version.source,
        );
    }
    let os = &inv.os;
    if let Some(x) = &os.pretty_name {
        f("OS", x.value.clone(), &x.source);
    } else if let Some(x) = &os.kind {
        f("OS", format!("{:?}", x.value).to_lowercase(), &x.source);
    }
    if let Some(x) = &os.kernel {
        f("kernel", x.value.clone(), &x.source);
    }
    if let Some(x) = &inv.wsl.is_wsl {
        f("WSL", x.value.to_string(), &x.source);
    }
    if let Some(x) = &inv.container.runtime {
        f("container", x.value.clone(), &x.source);
    }
    for env in &inv.python {
        if let Some(t) = &env.torch {
            if let Some(x) = &t.version {
                f("torch", x.value.clone(), &x.source);
            }
            if let Some(x) = &t.cuda {
                let v = x
                    .value
                    .map_or("none (CPU-only)".to_string(), |c| c.to_string());
                f("torch CUDA build", v, &x.source);
            }
        }
        if let Some(r) = &env.runtime {
            if let Some(x) = &r.cuda_available {
                f("torch.cuda.is_available()", x.value.to_string(), &x.source);
            }
        }
        for p in &env.packages {
            if p.name != "torch" {
                f(&p.name, p.version.clone(), &p.source);
            }
        }
    }
    for (k, x) in &inv.env {
        f(k, format!("{:?}", x.value), &x.source);
    }
    for e in &inv.errors {
        let mut text: String = e.text.chars().take(120).collect();
        if text.len() < e.text.len() {
            text.push('…');
        }
        f(&format!("error ({:?})", e.kind), text, &e.source);
    }
    v
}
