//! `gpucompat check` (the default command): probe the machine or read a
//! saved card, run every rule, print the findings. Exit 0 when nothing is at
//! error severity, 1 when something is, 2 on usage or internal errors.

use std::path::PathBuf;

use gpucompat::finding::exit_code;
use gpucompat::inventory::Inventory;
use gpucompat::probe::probe;
use gpucompat::render::findings as render;
use gpucompat::rules::{self, Selector};

use super::Ctx;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Check a saved card (`gpucompat card --json` output) instead of probing this machine.
    #[arg(long, value_name = "FILE.json")]
    pub card: Option<PathBuf>,

    /// Print the findings and the inventory as JSON (same as --format json).
    #[arg(long)]
    pub json: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Only these rules: codes (DRV001), families (DRV) or categories (driver_too_old); repeatable, comma lists allowed.
    #[arg(long, value_name = "CODE|CATEGORY", value_delimiter = ',')]
    pub select: Vec<String>,

    /// Skip these rules: codes, families or categories; repeatable, comma lists allowed.
    #[arg(long, value_name = "CODE|CATEGORY", value_delimiter = ',')]
    pub ignore: Vec<String>,

    /// Also read this Python interpreter or environment directory (repeatable).
    #[arg(long, value_name = "PATH")]
    pub python: Vec<PathBuf>,

    /// Run a small inventory script in each Python interpreter (torch.cuda, arch list, a matmul).
    #[arg(long)]
    pub exec_python: bool,

    /// Also prove the GPU computes (an fp16 matmul through the driver and cuBLAS) and check what failed.
    #[arg(long)]
    pub smoke: bool,
}

fn parse_selectors(list: &[String]) -> anyhow::Result<Vec<Selector>> {
    list.iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| Selector::parse(s).map_err(anyhow::Error::msg))
        .collect()
}

/// Read a saved card: the Inventory itself, or a `check --json` report holding one.
pub fn read_card(path: &std::path::Path) -> anyhow::Result<Inventory> {
    Ok(gpucompat::card::read(path)?)
}

/// `--smoke`: run the GPU smoke test. Its findings (SMK*) join the check's;
/// the observed CUDA errors stay in the smoke report rather than the
/// inventory, so the same failure is not reported twice (ERR* and SMK*).
fn run_smoke(ctx: &Ctx, inv: &mut Inventory) -> Vec<gpucompat::finding::Finding> {
    let host = ctx.host();
    let report = gpucompat::smoke::run_smoke(&host, std::time::Duration::from_secs(60));
    let ok = report.devices.iter().filter(|d| d.gemm.ok).count();
    inv.note(
        "smoke",
        format!(
            "fp16 GEMM matched the CPU reference on {ok} of {} GPU(s)",
            report.devices.len()
        ),
    );
    report.findings
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let select = parse_selectors(&args.select)?;
    let ignore = parse_selectors(&args.ignore)?;
    let json = args.json || args.format == Format::Json;

    let mut inv = match &args.card {
        Some(path) => {
            if !args.python.is_empty() || args.exec_python {
                eprintln!("gpucompat: warning: --python and --exec-python are ignored with --card");
            }
            read_card(path)?
        }
        None => {
            let opts = ctx.probe_options(args.python.clone(), args.exec_python);
            probe(&ctx.probe_host(), &ctx.kb, &opts)
        }
    };
    let smoke_findings = if args.smoke {
        run_smoke(ctx, &mut inv)
    } else {
        Vec::new()
    };

    let mut findings: Vec<_> = rules::run_rules(&inv, &ctx.kb)
        .into_iter()
        .chain(smoke_findings)
        .filter(|f| rules::is_selected(f, &select, &ignore))
        .collect();
    rules::sort_findings(&mut findings);

    if json {
        gpucompat::render::sanitize::print_exact(&render::json(&findings, &inv));
    } else {
        gpucompat::render::sanitize::print(&render::text(
            &findings,
            &inv,
            rules::all().len(),
            ctx.verbose,
        ));
    }
    Ok(exit_code(&findings))
}
