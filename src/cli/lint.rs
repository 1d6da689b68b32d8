//! `gpucompat lint Dockerfile`: check a Dockerfile before it ships.

use std::path::PathBuf;

use gpucompat::render::findings as render;
use gpucompat::report::{report, Input, Options};

use super::{emit, emit_exact, Ctx, SelectArgs};

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The Dockerfile to check (`-` reads standard input).
    #[arg(value_name = "DOCKERFILE")]
    pub file: PathBuf,
    /// Also check the image and its torch build against this card; repeatable.
    #[arg(long = "host", value_name = "CARD.json")]
    pub hosts: Vec<PathBuf>,
    /// Findings as JSON (the report envelope, see docs/json.md).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub selection: SelectArgs,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let options = Options {
        selection: args.selection.parse()?,
        smoke: None,
    };
    let input = Input::Dockerfile {
        file: args.file,
        hosts: args.hosts,
    };
    let r = report(input, &ctx.kb, &options)?;
    if args.json {
        emit_exact(&format!("{}\n", r.to_json()))?;
    } else {
        emit(&render::lint_text(&r, ctx.verbose))?;
    }
    Ok(r.exit_code())
}
