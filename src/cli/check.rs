//! `gpucompat check` (the default command): probe the machine or read a
//! saved card, run every rule, print the findings. Exit 0 when nothing is at
//! error severity, 1 when something is, 2 on usage or internal errors.

use std::path::PathBuf;

use gpucompat::render::findings as render;
use gpucompat::report::{report, Input, Options};

use super::{emit, emit_exact, Ctx, SelectArgs};

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

    #[command(flatten)]
    pub selection: SelectArgs,

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

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let json = args.json || args.format == Format::Json;
    let host = ctx.host();
    let probe_host = ctx.probe_host();
    let options = Options {
        selection: args.selection.parse()?,
        smoke: args
            .smoke
            .then_some(&host as &dyn gpucompat::system::System),
    };
    let input = match args.card {
        Some(path) => {
            if !args.python.is_empty() || args.exec_python {
                eprintln!("gpucompat: warning: --python and --exec-python are ignored with --card");
            }
            Input::CardFile(path)
        }
        None => Input::Probe {
            system: &probe_host,
            options: ctx.probe_options(args.python, args.exec_python),
        },
    };
    let r = report(input, &ctx.kb, &options)?;
    if json {
        emit_exact(&format!("{}\n", r.to_json()))?;
    } else {
        emit(&render::text(&r, ctx.verbose))?;
    }
    Ok(r.exit_code())
}
