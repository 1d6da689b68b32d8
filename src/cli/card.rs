//! `gpucompat card`: probe this machine (or `--root DIR`) and print its
//! compatibility card as a text table, JSON (the Inventory) or Markdown.

use clap::ValueEnum;

use gpucompat::render::{card, labels};
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
}

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Print the inventory as JSON (same as --format json).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, alias = "output-format")]
    pub format: Format,

    /// Also read this Python interpreter or environment directory (repeatable).
    #[arg(long, value_name = "PATH")]
    pub python: Vec<std::path::PathBuf>,

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
    let out = match format {
        Format::Json => card::json(inv)?,
        Format::Text => card::text(inv, &ctx.kb, tier, ctx.verbose),
        Format::Markdown => card::markdown(inv, &ctx.kb, tier, ctx.verbose),
        Format::Labels => {
            let l = labels::labels(inv, Some(tier.level), Some(&r.findings));
            labels::nfd_feature_file(&l)
        }
        Format::Prometheus => labels::prometheus(inv, Some(tier.level), Some(&r.findings)),
    };
    if format == Format::Json {
        super::emit_exact(&out)?;
    } else {
        emit(&out)?;
    }
    Ok(0)
}
