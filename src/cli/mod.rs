//! Subcommands: each file holds its arguments and its `run`: parse the
//! arguments, make the library call, render, return the exit code.

// The command line prints; the library does not (Cargo.toml [lints]).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod card;
mod check;
mod db;
mod db_plan;
mod explain;
mod fleet;
mod lint;
mod pin;
mod rule;
mod smoke;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

use gpucompat::kb::Kb;
use gpucompat::probe::{ProbeOptions, ALLOW_ROOT_CODE_VAR, OVERRIDE_VARS};
use gpucompat::system::Host;

/// Will this machine's GPU software stack run? If not, exactly why, and how to fix it.
#[derive(Debug, Parser)]
#[command(name = "gpucompat", version = concat!(env!("CARGO_PKG_VERSION"), " (knowledge tables as of ", env!("GPUCOMPAT_KB_AS_OF"), ")"), about, propagate_version = true)]
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
    /// The lab card of many nodes' cards: groups, floors, nodes in error, a stack for all.
    Fleet(fleet::Args),
}

/// Write the result to stdout. A closed pipe (`gpucompat check | head`) ends
/// the output quietly instead of panicking.
/// Text is made inert first (`render::sanitize`): values from cards, pastes and
/// images may hold terminal escapes.
pub fn emit(text: &str) -> anyhow::Result<()> {
    emit_exact(&gpucompat::render::sanitize::text(text))
}

/// JSON and other exact formats, printed as they are.
pub fn emit_exact(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// `--select` and `--ignore`, shared by every command that reports findings.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct SelectArgs {
    /// Only these rules: codes (DRV001, SMK001, DKR001), families (DRV) or categories (driver_too_old); repeatable, comma lists allowed.
    #[arg(long, value_name = "CODE|CATEGORY", value_delimiter = ',')]
    pub select: Vec<String>,

    /// Skip these rules: codes, families or categories; repeatable, comma lists allowed.
    #[arg(long, value_name = "CODE|CATEGORY", value_delimiter = ',')]
    pub ignore: Vec<String>,
}

impl SelectArgs {
    pub fn parse(&self) -> anyhow::Result<gpucompat::rules::Selection> {
        gpucompat::rules::Selection::parse(&self.select, &self.ignore).map_err(anyhow::Error::msg)
    }
}

/// What every subcommand gets.
pub struct Ctx {
    pub kb: Kb,
    pub root: PathBuf,
    pub verbose: bool,
}

impl Ctx {
    /// Probe options from the command line; `--root` loads libraries and runs
    /// programs inside the root only when GPUCOMPAT_ALLOW_ROOT_CODE=1 is set here.
    pub fn probe_options(&self, python: Vec<PathBuf>, exec_python: bool) -> ProbeOptions {
        ProbeOptions {
            python,
            exec_python,
            allow_root_code: std::env::var(ALLOW_ROOT_CODE_VAR).is_ok_and(|v| v == "1"),
            ..Default::default()
        }
    }

    /// The probed system. Under `--root` its environment is the root's own
    /// (`<root>/proc/self/environ`), but the user's GPUCOMPAT_* overrides still
    /// come from this shell.
    pub fn probe_host(&self) -> Host {
        let host = self.host();
        if self.root == std::path::Path::new("/") {
            return host;
        }
        let overrides: Vec<(String, String)> = OVERRIDE_VARS
            .iter()
            .filter_map(|(name, _)| Some((name.to_string(), std::env::var(name).ok()?)))
            .collect();
        host.with_env(overrides)
    }

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
        Command::Fleet(a) => fleet::run(&ctx, a),
    }
}
