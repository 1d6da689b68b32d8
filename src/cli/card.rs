//! `gpucompat card`: probe this machine (or `--root DIR`) and print its
//! compatibility card as a text table, JSON (the Inventory) or Markdown.

use std::path::Path;

use clap::ValueEnum;

use gpucompat::probe::{probe, ProbeOptions, ALLOW_ROOT_CODE_VAR, OVERRIDE_VARS};
use gpucompat::render::card;
use gpucompat::tier::tier;

use super::Ctx;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people (add -v for the source of every fact).
    #[default]
    Text,
    /// The whole inventory, with schema_version (see README).
    Json,
    /// The compatibility card for a course or lab, with the tier.
    Markdown,
}

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Print the inventory as JSON (same as --format json).
    #[arg(long)]
    pub json: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let mut host = ctx.host();
    if ctx.root != Path::new("/") {
        // Under --root the probed environment is the root's own; the
        // user's overrides still come from this shell.
        let overrides: Vec<(String, String)> = OVERRIDE_VARS
            .iter()
            .filter_map(|(name, _)| Some((name.to_string(), std::env::var(name).ok()?)))
            .collect();
        host = host.with_env(overrides);
    }
    let opts = ProbeOptions {
        allow_root_code: std::env::var(ALLOW_ROOT_CODE_VAR).is_ok_and(|v| v == "1"),
        ..Default::default()
    };
    let inv = probe(&host, &ctx.kb, &opts);
    let format = if args.json { Format::Json } else { args.format };
    let out = match format {
        Format::Json => card::json(&inv)?,
        Format::Text => card::text(&inv, &ctx.kb, &tier(&inv, &ctx.kb), ctx.verbose),
        Format::Markdown => card::markdown(&inv, &ctx.kb, &tier(&inv, &ctx.kb), ctx.verbose),
    };
    print!("{out}");
    Ok(0)
}
