//! `gpucompat fleet DIR|FILES...`: the lab card of many nodes' cards.

use std::path::PathBuf;

use gpucompat::fleet::lab::lab_card;
use gpucompat::fleet::output::write_atomic;
use gpucompat::fleet::read::{card_paths, read_cards};
use gpucompat::fleet::render;
use gpucompat::plan::resolver::Components;

use super::Ctx;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The lab card for people.
    #[default]
    Text,
    /// The lab card as a Markdown page.
    Markdown,
    /// The lab card as JSON (groups, floors, nodes in error, outliers, stacks, rejected cards).
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Cards (`card --json`) or check reports (`check --json`); a directory means its *.json files.
    #[arg(required = true, value_name = "DIR|FILE")]
    pub inputs: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, alias = "output-format")]
    pub format: Format,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// What the common stack pins: torch[==X],torchvision,torchaudio,tensorrt,onnxruntime-gpu,jax.
    #[arg(long = "with", value_name = "LIST", default_value = "torch")]
    pub with: String,
    /// Write to FILE instead of stdout, atomically.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let with = Components::parse(&args.with).map_err(anyhow::Error::msg)?;
    let paths = card_paths(&args.inputs).map_err(anyhow::Error::msg)?;
    let (cards, rejected) = read_cards(&paths);
    for r in &rejected {
        eprintln!("gpucompat: skipped {}: {}", r.path, r.reason);
    }
    if cards.is_empty() {
        anyhow::bail!("no readable card among {} file(s)", paths.len());
    }
    let card = lab_card(&ctx.kb, cards, rejected, with);
    let format = if args.json { Format::Json } else { args.format };
    let out = match format {
        Format::Text => render::text(&card),
        Format::Markdown => render::markdown(&card),
        Format::Json => render::json(&card),
    };
    match &args.output {
        Some(p) => write_atomic(p, &out)?,
        None if format == Format::Json => super::emit_exact(&out)?,
        None => super::emit(&out)?,
    }
    Ok(card.exit_code())
}
