//! `gpucompat explain [FILE|-]...`: read pasted reports (collect_env,
//! nvidia-smi, pip lists, tracebacks), build an Inventory whose facts cite
//! their input line, run the rules, and say what else to run when a fact
//! that would change the verdict is missing.

use std::path::PathBuf;

use gpucompat::render::explain as render;
use gpucompat::report::{report, Input, Options};

use super::output::OutputArgs;
use super::{Ctx, SelectArgs};

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Files holding pasted reports; `-` (or nothing) reads standard input.
    #[arg(value_name = "FILE|-")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub selection: SelectArgs,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let options = Options {
        selection: args.selection.parse()?,
        smoke: None,
    };
    let reads_stdin = args.files.is_empty() || args.files.iter().any(|f| f.as_os_str() == "-");
    if reads_stdin && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!(
            "gpucompat: reading a report from standard input: paste it, then press Ctrl-D (Ctrl-Z then Enter on Windows)"
        );
    }
    // The KbRef itself, not the tables: they are parsed beside the reading.
    let r = report(Input::Pasted(args.files), &ctx.kb, &options)?;
    args.output
        .print(&r, ctx.verbose, || render::text(&r, ctx.verbose))?;
    Ok(args.output.exit_code(&r))
}
