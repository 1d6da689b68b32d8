//! Subcommands: each file holds its arguments and its `run`.

mod card;
mod check;
mod db;
mod explain;
mod lint;
mod pin;
mod rule;
mod smoke;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

use gpucompat::kb::Kb;
use gpucompat::system::Host;

/// Will this machine's GPU software stack run? If not, exactly why, and how to fix it.
#[derive(Debug, Parser)]
#[command(name = "gpucompat", version, about, propagate_version = true)]
pub struct Cli {
    /// Load knowledge tables from DIR (files named like data/*.toml replace the built-in ones).
    #[arg(long, global = true, value_name = "DIR")]
    pub kb: Option<PathBuf>,

    /// Probe the system laid out under DIR (an unpacked image, a mounted disk) instead of /.
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Show where every fact came from, and why probes decided what they did.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe this machine (or read a saved card) and check it against every rule (the default).
    Check(check::Args),
    /// Print this machine's compatibility card: inventory and tier.
    Card(card::Args),
    /// Query the knowledge base: drivers, CUDA versions, GPUs, torch wheels, arch lists.
    #[command(subcommand)]
    Db(db::DbCommand),
    /// Print a rule's documentation, or list every rule.
    Rule(rule::Args),
    /// Diagnose pasted reports (collect_env, nvidia-smi, pip lists, tracebacks).
    Explain(explain::Args),
    /// Write a stack (pins, Dockerfile, requirements) that runs on one host or a fleet.
    Pin(pin::Args),
    /// Check a Dockerfile before it ships.
    Lint(lint::Args),
    /// Prove the GPU computes: an fp16 matmul through the driver and cuBLAS.
    Smoke(smoke::Args),
}

/// What every subcommand gets.
pub struct Ctx {
    pub kb: Kb,
    pub root: PathBuf,
    pub verbose: bool,
}

impl Ctx {
    #[allow(dead_code)] // for the subcommands that probe the machine
    pub fn host(&self) -> Host {
        Host::new(&self.root)
    }
}

pub fn run(cli: Cli) -> anyhow::Result<i32> {
    let kb = match &cli.kb {
        Some(dir) => Kb::with_overrides(dir).with_context(|| format!("--kb {}", dir.display()))?,
        None => Kb::embedded().clone(),
    };
    let root = cli.root.clone().unwrap_or_else(|| PathBuf::from("/"));
    if !root.is_dir() {
        anyhow::bail!("--root {}: not a directory", root.display());
    }
    let ctx = Ctx {
        kb,
        root,
        verbose: cli.verbose,
    };
    match cli
        .command
        .unwrap_or(Command::Check(check::Args::default()))
    {
        Command::Check(a) => check::run(&ctx, a),
        Command::Card(a) => card::run(&ctx, a),
        Command::Db(a) => db::run(&ctx, a),
        Command::Rule(a) => rule::run(&ctx, a),
        Command::Explain(a) => explain::run(&ctx, a),
        Command::Pin(a) => pin::run(&ctx, a),
        Command::Lint(a) => lint::run(&ctx, a),
        Command::Smoke(a) => smoke::run(&ctx, a),
    }
}
