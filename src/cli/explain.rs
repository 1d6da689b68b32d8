//! `gpucompat explain [FILE|-]...`: read pasted reports (collect_env,
//! nvidia-smi, pip lists, tracebacks), build an Inventory whose facts cite
//! their input line, run the rules, and say what else to run when a fact
//! that would change the verdict is missing.

use std::path::PathBuf;

use gpucompat::render::explain as render;
use gpucompat::report::{report, Input, Options};

use super::{emit, emit_exact, Ctx, SelectArgs};

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Files holding pasted reports; `-` (or nothing) reads standard input.
    #[arg(value_name = "FILE|-")]
    pub files: Vec<PathBuf>,

    /// Print findings, the inventory and the follow-up commands as JSON.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub selection: SelectArgs,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    if ctx.root != std::path::Path::new("/") {
        eprintln!("gpucompat: --root has no effect on explain: it reads only the given input");
    }
    let options = Options {
        selection: args.selection.parse()?,
        smoke: None,
    };
    let r = report(Input::Pasted(args.files), &ctx.kb, &options)?;
    if args.json {
        emit_exact(&format!("{}\n", r.to_json()))?;
    } else {
        emit(&render::text(&r, ctx.verbose))?;
    }
    Ok(r.exit_code())
}
