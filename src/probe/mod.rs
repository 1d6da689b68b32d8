//! Probes: small functions that read a live system through the [`System`]
//! seam and return facts with their source. They never decide anything.
//!
//! Order of trust in each probe: the `GPUCOMPAT_*` override first (applied
//! last, so it wins), then the most trustworthy source, then fallbacks.
//! Probes that may wait (NVML, libcuda, external commands) run concurrently
//! with the file reads, each under a timeout; a timeout becomes a Note.

mod amd;
mod driver_api;
mod enrich;
mod env;
mod fabric;
pub mod ffi;
mod libraries;
mod loader;
mod macos;
mod nvidia;
mod os;
mod overrides;
mod pci;
mod platform;
pub mod smi;
mod text;
mod toolkits;
mod wheels;
mod windows;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::inventory::{ErrorKind, Inventory, Note, ObservedError};
use crate::kb::Kb;
use crate::system::System;

pub mod python;

pub use overrides::{parse_gpus_override, GpuOverride, OVERRIDE_VARS};

/// The env var that lets `--root` load libraries and run programs found
/// inside the root (read by the CLI from the process environment).
pub const ALLOW_ROOT_CODE_VAR: &str = "GPUCOMPAT_ALLOW_ROOT_CODE";

/// What the caller asked the probe to do beyond the defaults.
#[derive(Debug, Clone, Default)]
pub struct ProbeOptions {
    /// `--python PATH`: extra interpreters or environment directories.
    pub python: Vec<PathBuf>,
    /// `--exec-python`: run the inventory script in each interpreter.
    pub exec_python: bool,
    /// Under a root other than `/`, load shared libraries and run programs
    /// found inside it. Off by default: an unpacked image's code is never
    /// run unless asked for (test fixtures set it).
    pub allow_root_code: bool,
    pub timeouts: Timeouts,
}

/// How long each kind of outside call may take before it is abandoned.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// External commands (`nvidia-smi`, `nvcc`, `rocm_agent_enumerator`).
    pub command: Duration,
    /// Library calls (NVML init and queries, cuDriverGetVersion).
    pub library: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            command: Duration::from_secs(5),
            library: Duration::from_secs(10),
        }
    }
}

/// What every probe gets.
pub(crate) struct Ctx<'a> {
    pub sys: &'a dyn System,
    pub opts: &'a ProbeOptions,
    pub live: bool,
}

impl Ctx<'_> {
    /// May libraries and programs of the probed system be loaded or run?
    pub fn may_run_code(&self) -> bool {
        self.live || self.opts.allow_root_code
    }
}

/// Where `program` lies on the probed system's PATH (not run, only found).
pub(crate) fn find_program(ctx: &Ctx, program: &str) -> Option<PathBuf> {
    let path = ctx
        .sys
        .env("PATH")
        .unwrap_or_else(|| "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".into());
    path.split(':')
        .filter(|d| d.starts_with('/'))
        .map(|d| Path::new(d).join(program))
        .find(|p| ctx.sys.exists(p) && !ctx.sys.is_dir(p))
}

/// Notes and observed errors a probe collects on its own thread.
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub notes: Vec<Note>,
    pub errors: Vec<ObservedError>,
    /// Libraries or programs that were found under a --root but not run.
    pub not_run: Vec<String>,
}

impl Log {
    pub fn note(&mut self, subject: impl Into<String>, message: impl Into<String>) {
        self.notes.push(Note {
            subject: subject.into(),
            message: message.into(),
        });
    }

    pub fn error(
        &mut self,
        kind: ErrorKind,
        text: impl Into<String>,
        source: impl Into<String>,
        code: Option<i64>,
    ) {
        self.errors.push(ObservedError {
            kind,
            text: text.into(),
            source: source.into(),
            code,
        });
    }

    fn append(&mut self, other: Log) {
        self.notes.extend(other.notes);
        self.errors.extend(other.errors);
        self.not_run.extend(other.not_run);
    }
}

/// Probe the machine behind `sys` into an Inventory.
pub fn probe(sys: &dyn System, kb: &Kb, opts: &ProbeOptions) -> Inventory {
    let mut inv = Inventory::new(format!("probe {}", sys.root().display()));
    let ctx = Ctx {
        sys,
        opts,
        live: sys.root() == Path::new("/"),
    };
    let mut log = Log::default();
    // macOS and Windows (live, or a tree recorded from one) have probes of their own.
    if macos::detect(&ctx) {
        macos::probe(&ctx, &mut inv, &mut log);
    } else if windows::detect(&ctx) {
        windows::probe(&ctx, &mut inv, &mut log);
    } else {
        probe_linux(&ctx, &mut inv, &mut log);
    }
    finish(sys, kb, &ctx, inv, log)
}

fn probe_linux(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    let (sys, opts) = (ctx.sys, ctx.opts);
    let index = loader::LibraryIndex::scan(ctx, log);
    let toolkit_dirs = toolkits::candidate_dirs(ctx);

    std::thread::scope(|s| {
        // The calls that may wait run beside the file reads.
        let api = s.spawn(|| {
            let mut l = Log::default();
            (driver_api::probe(ctx, &index, &mut l), l)
        });
        // Python environments are file reads too (and interpreter runs with --exec-python).
        let py = s.spawn(|| python::discover(sys, opts));

        let mut l = Log::default();
        inv.os = os::probe(ctx, &index, &mut l);
        let (container, wsl) = platform::probe(ctx, &mut l);
        inv.container = container;
        inv.wsl = wsl;
        inv.pci = pci::probe(ctx, &mut l);
        inv.nvidia = nvidia::probe(ctx, &index, &mut l);
        inv.fabric = fabric::probe(ctx, &mut l);
        inv.libraries = libraries::probe(ctx, &index, &toolkit_dirs, &mut l);
        inv.env = env::probe(ctx);
        // nvcc and rocm_agent_enumerator run only when files do not tell.
        let (toolkits, compat) = toolkits::probe(ctx, &toolkit_dirs, &mut l);
        inv.toolkits = toolkits;
        inv.libraries.cuda_compat = compat;
        inv.amd = amd::probe(ctx, &mut l);
        log.append(l);

        match api.join() {
            Ok((api, l)) => {
                api.merge_into(inv);
                log.append(l);
            }
            Err(_) => log.note("NVML", "the driver library probe failed internally"),
        }
        match py.join() {
            Ok((envs, notes)) => {
                inv.python = envs;
                log.notes.extend(notes);
            }
            Err(_) => log.note("python", "the Python environment probe failed internally"),
        }
    });
}

fn finish(sys: &dyn System, kb: &Kb, ctx: &Ctx, mut inv: Inventory, mut log: Log) -> Inventory {
    if !log.not_run.is_empty() {
        log.not_run.sort();
        log.not_run.dedup();
        log.note(
            "--root",
            format!(
                "not loaded or run from inside the root: {} (set {ALLOW_ROOT_CODE_VAR}=1 to allow)",
                log.not_run.join(", ")
            ),
        );
    }
    overrides::apply(sys, &mut inv, &mut log);
    enrich::apply(kb, &mut inv, &mut log);

    if !ctx.live {
        hide_root(sys.root(), &mut log);
    }
    inv.notes = log.notes;
    inv.errors = log.errors;
    inv
}

/// Paths in messages name the probed system's paths, not where its root lies here.
fn hide_root(root: &Path, log: &mut Log) {
    let prefix = root.display().to_string();
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() {
        return;
    }
    for n in &mut log.notes {
        n.message = n.message.replace(prefix, "");
    }
    for e in &mut log.errors {
        e.text = e.text.replace(prefix, "");
    }
}
