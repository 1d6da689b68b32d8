//! `gpucompat lint Dockerfile`: check a Dockerfile before it ships.

use std::path::PathBuf;

use gpucompat::finding::exit_code;
use gpucompat::plan::hosts::{load_card, HostSpec};
use gpucompat::plan::lint::{lint, render_text};

use super::Ctx;

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The Dockerfile to check (`-` reads standard input).
    #[arg(value_name = "DOCKERFILE")]
    pub file: PathBuf,
    /// Also check the image and its torch build against this card; repeatable.
    #[arg(long = "host", value_name = "CARD.json")]
    pub hosts: Vec<PathBuf>,
    /// Findings as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let bytes =
        gpucompat::system::read_input(&args.file, gpucompat::plan::lint::MAX_DOCKERFILE_BYTES)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut hosts = Vec::new();
    for p in &args.hosts {
        let inv = load_card(p)?;
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        hosts.push(HostSpec::from_inventory(
            &inv,
            &stem,
            &format!("card {}", p.display()),
            &ctx.kb,
        ));
    }
    let findings = lint(&text, &ctx.kb, &hosts);
    if args.json {
        let v = serde_json::json!({
            "schema_version": gpucompat::inventory::SCHEMA_VERSION,
            "tool": {"name": "gpucompat", "version": env!("CARGO_PKG_VERSION")},
            "file": args.file.display().to_string(),
            "findings": findings,
        });
        gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(&v)?);
    } else {
        gpucompat::render::sanitize::print(&render_text(
            &args.file.display().to_string(),
            &findings,
        ));
    }
    Ok(exit_code(&findings))
}
