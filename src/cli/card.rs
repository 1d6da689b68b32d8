//! `gpucompat card`: probe this machine (or `--root DIR`) and print its
//! compatibility card as a text table, JSON (the Inventory), Markdown, node
//! labels, a Prometheus page or package-manager hints.

use std::path::PathBuf;

use clap::ValueEnum;

use gpucompat::fleet::output::write_atomic;
use gpucompat::fleet::time::now_unix;
use gpucompat::render::{card, labels, package_views, prometheus};
use gpucompat::report::{report, Input, Options};

use super::{emit, Ctx};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people (add -v for the source of every fact).
    #[default]
    Text,
    /// The whole inventory, with schema_version (see docs/json.md).
    Json,
    /// The compatibility card for a course or lab, with the tier.
    Markdown,
    /// Kubernetes node labels as an NFD `local` feature file.
    Labels,
    /// A Prometheus textfile-collector page.
    Prometheus,
    /// conda virtual packages (`__cuda`, `__glibc`, `__linux`, `__archspec`, `__cuda_arch`) and CONDA_OVERRIDE_* lines.
    Conda,
    /// UV_TORCH_BACKEND for a torch build that fits the driver and every GPU.
    UvEnv,
}

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Print the inventory as JSON (same as --format json).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, alias = "output-format")]
    pub format: Format,

    /// Write to FILE instead of stdout, atomically (a dot-file in the same directory, then a rename).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Labels: NFD drops them this many seconds after the run (`# +expiry-time=`); 0 never.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    pub expire_after: u64,

    /// Also read this Python interpreter or environment directory (repeatable).
    #[arg(long, value_name = "PATH")]
    pub python: Vec<PathBuf>,

    /// Run a small inventory script in each Python interpreter (torch import, a GPU matmul).
    #[arg(long)]
    pub exec_python: bool,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let exec_python = args.exec_python;
    let host = ctx.probe_host();
    let input = Input::Probe {
        system: &host,
        options: ctx.probe_options(args.python.clone(), args.exec_python),
    };
    let progress = exec_python.then(|| {
        super::progress::Progress::start("running the inventory script in each Python interpreter")
    });
    let r = report(input, &ctx.kb, &Options::default())?;
    drop(progress);
    let (Some(inv), Some(tier)) = (r.inventory.as_ref(), r.tier.as_ref()) else {
        anyhow::bail!("the probe returned no inventory");
    };
    let format = if args.json { Format::Json } else { args.format };
    let now = now_unix();
    let mut code = 0;
    let out = match format {
        Format::Json => card::json(inv)?,
        Format::Text => card::text(inv, &ctx.kb, tier, ctx.verbose),
        Format::Markdown => card::markdown(inv, &ctx.kb, tier, ctx.verbose),
        Format::Labels => {
            let stamp = labels::Stamp {
                now,
                ttl: args.expire_after,
            };
            let l = labels::labels(
                inv,
                &ctx.kb,
                Some(tier.level),
                Some(&r.findings),
                Some(stamp),
            );
            labels::nfd_feature_file(&l, Some(stamp))
        }
        Format::Prometheus => {
            prometheus::page(inv, &ctx.kb, Some(tier.level), Some(&r.findings), Some(now))
        }
        Format::Conda => package_views::conda(inv, &ctx.kb),
        Format::UvEnv => {
            let (text, found) = package_views::uv_env(inv, &ctx.kb);
            code = i32::from(!found);
            text
        }
    };
    match &args.output {
        Some(path) => write_atomic(path, &out)?,
        None if format == Format::Json => super::emit_exact(&out)?,
        None => emit(&out)?,
    }
    Ok(code)
}
