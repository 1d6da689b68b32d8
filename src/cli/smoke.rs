//! `gpucompat smoke`: prove the GPU computes, an fp16 GEMM per GPU through
//! the driver and cuBLAS, checked against the CPU.

use std::time::Duration;

use gpucompat::render::smoke as render;
use gpucompat::report::{report, Input, Options};
use gpucompat::smoke::{GemmChoice, SmokeOptions};

use super::{emit, emit_exact, Ctx, SelectArgs};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,

    /// Seconds any one step (a driver call, the GEMM) may take before it is reported as hung.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,

    /// Which GEMM to run: cuBLAS when present, else the built-in kernel (auto); only cuBLAS; only the built-in kernel.
    #[arg(long, value_enum, default_value_t = Gemm::Auto)]
    pub gemm: Gemm,

    #[command(flatten)]
    pub selection: SelectArgs,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            json: false,
            timeout: 60.0,
            gemm: Gemm::Auto,
            selection: SelectArgs::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Gemm {
    Auto,
    Cublas,
    Builtin,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 86_400.0) {
        anyhow::bail!(
            "--timeout {}: give a number of seconds above 0",
            args.timeout
        );
    }
    let mut opts = SmokeOptions::new(Duration::from_secs_f64(args.timeout));
    opts.gemm = match args.gemm {
        Gemm::Auto => GemmChoice::Auto,
        Gemm::Cublas => GemmChoice::Cublas,
        Gemm::Builtin => GemmChoice::Builtin,
    };
    let options = Options {
        selection: args.selection.parse()?,
        smoke: None,
    };
    let host = ctx.host();
    let input = Input::Smoke {
        system: &host,
        options: opts,
    };
    let r = report(input, &ctx.kb, &options)?;
    if args.json {
        emit_exact(&format!("{}\n", r.to_json()))?;
    } else {
        emit(&render::text(&r, &ctx.kb, ctx.verbose))?;
    }
    // Smoke under a --root tree tested nothing: a usage error, not a pass.
    Ok(r.exit_code())
}
