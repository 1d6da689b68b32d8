//! `gpucompat db`: typed questions to the knowledge base, answered in text or
//! JSON, every fact with the table row it came from.
//!
//! Each subcommand lives in `db/<name>.rs` and turns its arguments into an
//! answer (a serializable struct that also renders as text) or an
//! [`Unknown`] (exit 2 with the nearest known names). New subcommands add a
//! variant to [`DbCommand`] and an arm to [`run`].

mod arch;
mod cuda;
mod driver;
mod gpu;
mod package;
mod sources;
mod text;
mod torch;

use serde::Serialize;

use gpucompat::finding::KbRef;
use gpucompat::inventory::OsKind;
use gpucompat::kb::Kb;

use self::text::Text;
use super::Ctx;

#[derive(Debug, clap::Subcommand)]
pub enum DbCommand {
    /// What a driver runs: branch, max CUDA, CUDA and torch variants under each semantic.
    Driver(driver::Args),
    /// A CUDA version in any spelling: its minimum drivers and the SM targets of its nvcc.
    Cuda(cuda::Args),
    /// A GPU by name: compute capability, architecture, drivers, torch kernels for it.
    Gpu(gpu::Args),
    /// A torch release (or release+variant): variants, arch lists, minimum drivers.
    Torch(torch::Args),
    /// Which kernel of an arch list runs on a GPU of a given compute capability.
    Arch(arch::Args),
    /// A package table's rows: onnxruntime, tensorrt, tensorflow, cudnn, jax, the compiled extensions.
    Package(package::Args),
    /// Every source the knowledge tables cite, and each table's as-of date.
    Sources(sources::Args),
    /// Evaluate an NVIDIA_REQUIRE_CUDA expression as libnvidia-container does.
    Require(super::db_plan::RequireArgs),
    /// An nvidia/cuda image: its CUDA, cuDNN, requirement string, and whether hosts satisfy it.
    Image(super::db_plan::ImageArgs),
}

pub fn run(ctx: &Ctx, cmd: DbCommand) -> anyhow::Result<i32> {
    let kb = &ctx.kb;
    match cmd {
        DbCommand::Driver(a) => emit(ctx, a.json, driver::answer(kb, &a)),
        DbCommand::Cuda(a) => emit(ctx, a.json, cuda::answer(kb, &a)),
        DbCommand::Gpu(a) => emit(ctx, a.json, gpu::answer(kb, &a)),
        DbCommand::Torch(a) => emit(ctx, a.json, torch::answer(kb, &a)),
        DbCommand::Arch(a) => emit(ctx, a.json, arch::answer(kb, &a)),
        DbCommand::Package(a) => emit(ctx, a.json, package::answer(kb, &a)),
        DbCommand::Sources(a) => emit(ctx, a.json, sources::answer(kb, &a)),
        DbCommand::Require(a) => super::db_plan::run_require(ctx, a),
        DbCommand::Image(a) => super::db_plan::run_image(ctx, a),
    }
}

/// An answer to one `db` question: JSON through serde, text through `render`.
pub trait Answer: Serialize {
    fn render(&self, out: &mut Text);
}

/// Input the knowledge base does not know (or cannot read): exit 2.
#[derive(Debug, Clone, Serialize)]
pub struct Unknown {
    pub message: String,
    /// The closest names the tables do know, best first.
    pub nearest: Vec<String>,
    /// Spellings the command accepts, for input that could not be read at all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accepted: Vec<String>,
}

impl Unknown {
    pub fn new(message: impl Into<String>, nearest: Vec<String>) -> Self {
        Unknown {
            message: message.into(),
            nearest,
            accepted: Vec::new(),
        }
    }

    pub fn accepting(mut self, spellings: &[&str]) -> Self {
        self.accepted = spellings.iter().map(|s| s.to_string()).collect();
        self
    }
}

fn emit<A: Answer>(ctx: &Ctx, json: bool, answer: Result<A, Unknown>) -> anyhow::Result<i32> {
    match answer {
        Ok(a) => {
            if json {
                gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(&a)?);
            } else {
                let mut t = Text::default();
                a.render(&mut t);
                gpucompat::render::sanitize::print(&t.finish(ctx.verbose));
            }
            Ok(0)
        }
        Err(u) => {
            gpucompat::render::sanitize::eprint_line(&format!("gpucompat: error: {}", u.message));
            if !u.nearest.is_empty() {
                gpucompat::render::sanitize::eprint_line(&format!(
                    "nearest known: {}",
                    u.nearest.join(", ")
                ));
            }
            if !u.accepted.is_empty() {
                gpucompat::render::sanitize::eprint_line(&format!(
                    "accepted spellings: {}",
                    u.accepted.join(", ")
                ));
            }
            if json {
                #[derive(Serialize)]
                struct ErrorOut<'a> {
                    error: &'a Unknown,
                }
                gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(
                    &ErrorOut { error: &u },
                )?);
            }
            Ok(2)
        }
    }
}

/// The OS a driver version belongs to (Linux and Windows number their drivers apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OsArg {
    Linux,
    Windows,
}

impl OsArg {
    pub fn kind(self) -> OsKind {
        match self {
            OsArg::Linux => OsKind::Linux,
            OsArg::Windows => OsKind::Windows,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            OsArg::Linux => "linux",
            OsArg::Windows => "windows",
        }
    }
}

/// A driver minimum and the row that sets it.
#[derive(Debug, Clone, Serialize)]
pub struct DriverFact {
    pub driver: gpucompat::version::DriverVersion,
    /// True when the table gives only a branch (`580` means any R580 driver or newer).
    pub branch_only: bool,
    pub kb: KbRef,
}

impl DriverFact {
    pub fn new(driver: &gpucompat::version::DriverVersion, kb: KbRef) -> Self {
        DriverFact {
            driver: driver.clone(),
            branch_only: driver.is_branch_only(),
            kb,
        }
    }

    /// `550.54.14`, or `R580` for a branch-only minimum.
    pub fn shown(&self) -> String {
        show_driver(&self.driver)
    }
}

pub fn show_driver(d: &gpucompat::version::DriverVersion) -> String {
    if d.is_branch_only() {
        d.branch_name()
    } else {
        d.to_string()
    }
}

/// Minimum drivers for one CUDA version under one semantic, per OS (None: unknown).
#[derive(Debug, Clone, Serialize)]
pub struct MinDrivers {
    pub linux: Option<DriverFact>,
    pub windows: Option<DriverFact>,
}

impl MinDrivers {
    pub fn lookup(
        kb: &Kb,
        cuda: &gpucompat::version::CudaVersion,
        semantic: gpucompat::kb::Semantic,
    ) -> Self {
        let get = |os| {
            kb.min_driver_for_cuda(cuda, os, semantic)
                .map(|m| DriverFact::new(&m.driver, m.kb))
        };
        MinDrivers {
            linux: get(OsKind::Linux),
            windows: get(OsKind::Windows),
        }
    }

    /// `Linux 550.54.14, Windows 551.61   [cuda_toolkits 12.4.0]`
    pub fn line(&self, out: &mut Text) -> String {
        let one = |f: &Option<DriverFact>| f.as_ref().map_or("unknown".to_string(), |f| f.shown());
        let mut s = format!("Linux {}, Windows {}", one(&self.linux), one(&self.windows));
        let mut refs: Vec<&KbRef> = Vec::new();
        for f in [&self.linux, &self.windows].into_iter().flatten() {
            if !refs.contains(&&f.kb) {
                refs.push(&f.kb);
            }
        }
        for r in refs {
            s.push_str("   ");
            s.push_str(&out.cite(r));
        }
        s
    }
}

/// The caveats of CUDA minor-version compatibility, as the vendor lists them.
pub const MINOR_COMPAT_CAVEATS: [&str; 3] = [
    "limited feature set: APIs that need the newer driver fail with cudaErrorCallRequiresNewerDriver (36)",
    "PTX from the newer toolkit does not JIT-compile on the older driver (cudaErrorUnsupportedPtxVersion, 222): the code needs SASS for the GPU",
    "for full features, use at least the driver of the toolkit it was built with",
];

pub const MINOR_COMPAT_SOURCE: &str =
    "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html";

/// `nearest` over owned strings.
pub fn nearest_of(query: &str, names: &[String], n: usize) -> Vec<String> {
    gpucompat::kb::nearest(query, names.iter().map(|s| s.as_str()), n)
        .into_iter()
        .map(str::to_string)
        .collect()
}
