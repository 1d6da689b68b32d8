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
mod output;
mod pin;
mod progress;
mod rule;
mod shell;
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
    #[arg(long, value_name = "DIR", help_heading = GLOBAL)]
    pub kb: Option<PathBuf>,

    /// Probe the system laid out under DIR (an unpacked image, a mounted disk) instead of /.
    #[arg(long, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,

    /// Show where every fact came from, and why probes decided what they did.
    #[arg(short, long, help_heading = GLOBAL)]
    pub verbose: bool,

    /// When to colour text output.
    #[arg(long, value_enum, global = true, value_name = "WHEN", default_value_t = output::ColorWhen::Auto, help_heading = GLOBAL)]
    pub color: output::ColorWhen,

    #[command(subcommand)]
    pub command: Option<Command>,
}

const GLOBAL: &str = "Global options";

/// `--kb`, `--root` and `-v` where a command reads the knowledge base, probes
/// a system and explains its sources.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct Probing {
    /// Load knowledge tables from DIR (files named like data/*.toml replace the built-in ones).
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub kb: Option<PathBuf>,

    /// Probe the system laid out under DIR (an unpacked image, a mounted disk) instead of /.
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,

    /// Show where every fact came from, and why probes decided what they did.
    #[arg(short, long, global = true, help_heading = GLOBAL)]
    pub verbose: bool,
}

/// `--kb` and `-v` where a command reads given input, not a system.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct Reading {
    /// Load knowledge tables from DIR (files named like data/*.toml replace the built-in ones).
    #[arg(long, value_name = "DIR", help_heading = GLOBAL)]
    pub kb: Option<PathBuf>,

    /// Show the source of every knowledge row behind a finding.
    #[arg(short, long, help_heading = GLOBAL)]
    pub verbose: bool,
}

/// `--root` and `-v` for the smoke test, which needs no knowledge tables.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct Smoking {
    /// Run against the system laid out under DIR (the smoke test then proves nothing and exits 2).
    #[arg(long, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,

    /// Show every step of the smoke test.
    #[arg(short, long, help_heading = GLOBAL)]
    pub verbose: bool,
}

/// A subcommand's own arguments, then the global options that apply to it.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct With<A: clap::Args, G: clap::Args> {
    #[command(flatten)]
    pub args: A,
    #[command(flatten)]
    pub global: G,
}

/// The global options as given to one subcommand: (kb, root, verbose).
struct Given {
    kb: Option<PathBuf>,
    root: Option<PathBuf>,
    verbose: bool,
    /// Which of `--kb`, `--root` the subcommand takes.
    takes_kb: bool,
    takes_root: bool,
}

impl From<&Probing> for Given {
    fn from(g: &Probing) -> Given {
        Given {
            kb: g.kb.clone(),
            root: g.root.clone(),
            verbose: g.verbose,
            takes_kb: true,
            takes_root: true,
        }
    }
}

impl From<&Reading> for Given {
    fn from(g: &Reading) -> Given {
        Given {
            kb: g.kb.clone(),
            root: None,
            verbose: g.verbose,
            takes_kb: true,
            takes_root: false,
        }
    }
}

impl From<&Smoking> for Given {
    fn from(g: &Smoking) -> Given {
        Given {
            kb: None,
            root: g.root.clone(),
            verbose: g.verbose,
            takes_kb: false,
            takes_root: true,
        }
    }
}

impl Given {
    fn none() -> Given {
        Given {
            kb: None,
            root: None,
            verbose: false,
            takes_kb: false,
            takes_root: false,
        }
    }
}

/// `gpucompat db ...`: the global options, then the question.
#[derive(Debug, clap::Args)]
pub struct DbArgs {
    #[command(flatten)]
    pub global: Probing,
    /// Output format [default: text]; `--json` is the same as json.
    #[arg(long, global = true, value_enum, value_name = "FORMAT")]
    pub output_format: Option<rule::Format>,
    #[command(subcommand)]
    pub command: db::DbCommand,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe this machine (or read a saved card) and check it against every rule (the default).
    Check(With<check::Args, Probing>),
    /// Print this machine's compatibility card: inventory and tier.
    Card(With<card::Args, Probing>),
    /// Query the knowledge base: drivers, CUDA versions, GPUs, torch wheels, arch lists.
    Db(DbArgs),
    /// Print a rule's documentation, or list every rule.
    Rule(rule::Args),
    /// Diagnose pasted reports (collect_env, nvidia-smi, pip lists, tracebacks).
    Explain(With<explain::Args, Reading>),
    /// Write a stack (pins, Dockerfile, requirements) that runs on one host or a fleet.
    Pin(With<pin::Args, Probing>),
    /// Check a Dockerfile before it ships.
    Lint(With<lint::Args, Reading>),
    /// Prove the GPU computes: an fp16 matmul through the driver and cuBLAS.
    Smoke(With<smoke::Args, Smoking>),
    /// Print shell completions (bash, zsh, fish, powershell, elvish) to standard output.
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff) to standard output.
    Man,
    /// The lab card of many nodes' cards: groups, floors, nodes in error, a stack for all.
    Fleet(With<fleet::Args, Reading>),
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
    let mut out = anstream::AutoStream::new(std::io::stdout().lock(), output::color_choice());
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

/// The knowledge base a subcommand reads: the tables a `--kb` directory
/// replaced, or the embedded ones, parsed on first use (explain parses them
/// on its second thread while it reads the text).
pub struct KbRef(Option<&'static Kb>);

impl std::ops::Deref for KbRef {
    type Target = Kb;
    fn deref(&self) -> &Kb {
        self.0.unwrap_or_else(Kb::embedded)
    }
}

impl gpucompat::kb::KbSource for KbRef {
    fn kb(&self) -> &Kb {
        self
    }
}

/// What every subcommand gets.
pub struct Ctx {
    pub kb: KbRef,
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
    output::set_color(cli.color);
    let command = cli
        .command
        .unwrap_or(Command::Check(With::<check::Args, Probing>::default()));
    let (name, given) = match &command {
        Command::Check(a) => ("check", Given::from(&a.global)),
        Command::Card(a) => ("card", Given::from(&a.global)),
        Command::Db(a) => ("db", Given::from(&a.global)),
        Command::Pin(a) => ("pin", Given::from(&a.global)),
        Command::Explain(a) => ("explain", Given::from(&a.global)),
        Command::Lint(a) => ("lint", Given::from(&a.global)),
        Command::Smoke(a) => ("smoke", Given::from(&a.global)),
        Command::Rule(_) => ("rule", Given::none()),
        Command::Completions(_) => ("completions", Given::none()),
        Command::Man => ("man", Given::none()),
        Command::Fleet(a) => ("fleet", Given::from(&a.global)),
    };
    // `gpucompat --root DIR check` still works: the options before the
    // subcommand apply to it, where it takes them.
    if cli.kb.is_some() && !given.takes_kb {
        return usage(&format!("--kb does not apply to `{name}`"));
    }
    if cli.root.is_some() && !given.takes_root {
        return usage(&format!("--root does not apply to `{name}`"));
    }
    let kb_dir = given.kb.or(cli.kb);
    let kb = match &kb_dir {
        Some(dir) => {
            dir_or_bail("--kb", dir)?;
            // Parsed once and kept for the life of the process, as the
            // embedded tables are.
            let kb = Kb::with_overrides(dir).with_context(|| format!("--kb {}", dir.display()))?;
            KbRef(Some(Box::leak(Box::new(kb))))
        }
        None => KbRef(None),
    };
    let root = given
        .root
        .or(cli.root)
        .unwrap_or_else(|| PathBuf::from("/"));
    dir_or_bail("--root", &root)?;
    let ctx = Ctx {
        kb,
        root,
        verbose: given.verbose || cli.verbose,
    };
    match command {
        Command::Check(a) => check::run(&ctx, a.args),
        Command::Card(a) => card::run(&ctx, a.args),
        Command::Db(a) => {
            let json = a.output_format == Some(rule::Format::Json);
            db::run(&ctx, a.command, json)
        }
        Command::Rule(a) => rule::run(&ctx, a),
        Command::Explain(a) => explain::run(&ctx, a.args),
        Command::Pin(a) => pin::run(&ctx, a.args),
        Command::Lint(a) => lint::run(&ctx, a.args),
        Command::Smoke(a) => smoke::run(&ctx, a.args),
        Command::Completions(a) => shell::completions(a),
        Command::Man => shell::man(),
        Command::Fleet(a) => fleet::run(&ctx, a.args),
    }
}

/// `--kb DIR`, `--root DIR`: an error that says what DIR is instead.
fn dir_or_bail(option: &str, dir: &std::path::Path) -> anyhow::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let why = if dir.exists() {
        "not a directory"
    } else {
        "no such directory"
    };
    anyhow::bail!("{option} {}: {why}", dir.display())
}

/// A usage error: the message on stderr, exit 2.
fn usage(message: &str) -> anyhow::Result<i32> {
    eprintln!("gpucompat: error: {message}");
    Ok(2)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// Every argument and every possible value of every subcommand, as
    /// `path: what lacks a description`.
    fn undescribed(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                out.push(format!("{path}: --{id}"));
            }
            if arg.get_action().takes_values() {
                for v in arg.get_possible_values() {
                    if v.get_help().is_none() && !v.is_hide_set() {
                        out.push(format!("{path}: --{id} {}", v.get_name()));
                    }
                }
            }
        }
        for sub in cmd.get_subcommands() {
            if sub.get_about().is_none() && sub.get_name() != "help" {
                out.push(format!("{path} {}: no about", sub.get_name()));
            }
            undescribed(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_option_and_value_of_every_subcommand_has_a_description() {
        let mut out = Vec::new();
        undescribed(&Cli::command(), "gpucompat", &mut out);
        assert!(
            out.is_empty(),
            "options without a description:\n{}",
            out.join("\n")
        );
    }

    #[test]
    fn global_options_are_grouped_and_shown_only_where_they_apply() {
        let mut cli = Cli::command();
        cli.build();
        let heading = |sub: &str, id: &str| {
            let cmd = cli.find_subcommand(sub).unwrap();
            cmd.get_arguments()
                .find(|a| a.get_id() == id)
                .map(|a| a.get_help_heading().map(str::to_string))
        };
        let global = Some(Some("Global options".to_string()));
        for sub in ["check", "card", "pin", "db"] {
            for id in ["root", "kb", "verbose", "color"] {
                assert_eq!(heading(sub, id), global, "{sub} --{id}");
            }
        }
        for (sub, ids) in [
            ("explain", &["kb", "verbose"][..]),
            ("lint", &["kb", "verbose"][..]),
            ("smoke", &["root", "verbose"][..]),
        ] {
            for id in ids {
                assert_eq!(heading(sub, id), global, "{sub} --{id}");
            }
        }
        for (sub, id) in [
            ("rule", "root"),
            ("rule", "kb"),
            ("rule", "verbose"),
            ("smoke", "kb"),
            ("explain", "root"),
            ("completions", "root"),
            ("completions", "kb"),
            ("man", "verbose"),
        ] {
            assert_eq!(heading(sub, id), None, "{sub} --{id} should not exist");
        }
    }
}
