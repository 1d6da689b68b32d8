//! `gpucompat smoke`: prove the GPU computes, an fp16 GEMM per GPU through
//! the driver and cuBLAS, checked against the CPU.

use std::fmt::Write as _;
use std::time::Duration;

use anyhow::Context as _;

use gpucompat::finding::{exit_code, Finding};
use gpucompat::kb::Kb;
use gpucompat::smoke::{self, GemmChoice, SmokeOptions, SmokeReport};
use gpucompat::version::ComputeCapability;

use super::Ctx;

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
}

impl Default for Args {
    fn default() -> Self {
        Args {
            json: false,
            timeout: 60.0,
            gemm: Gemm::Auto,
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
    let host = ctx.host();
    let report = smoke::run_smoke_with(&host, &opts);
    if args.json {
        let text = serde_json::to_string_pretty(&report).context("serializing the report")?;
        gpucompat::render::sanitize::print_exact(&text);
    } else {
        gpucompat::render::sanitize::print(&render_text(&report, &ctx.kb, ctx.verbose));
    }
    // Smoke under a --root tree tested nothing: a usage error, not a pass.
    if report.skipped_not_live() {
        return Ok(2);
    }
    Ok(exit_code(&report.findings))
}

fn or_unknown(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("unknown")
}

pub fn render_text(r: &SmokeReport, kb: &Kb, verbose: bool) -> String {
    let mut s = String::new();
    let n = smoke::gemm::N;
    let _ = writeln!(
        s,
        "gpucompat smoke: fp16 GEMM {n}x{n}x{n} on every visible GPU, checked against the CPU"
    );
    if let Some(lib) = &r.driver.library {
        let _ = writeln!(
            s,
            "driver   {lib} (CUDA {})",
            or_unknown(&r.driver.cuda_version)
        );
    }
    match &r.cublas {
        Some(c) => {
            let _ = writeln!(s, "cuBLAS   {} ({})", c.library, or_unknown(&c.version));
        }
        None if r.devices.iter().any(|d| d.gemm.backend.is_some()) => {
            let _ = writeln!(s, "GEMM     gpucompat's built-in PTX kernel (no cuBLAS)");
        }
        None => {}
    }
    for d in &r.devices {
        let cc = match d.cc.as_deref().map(|c| (c, c.parse::<ComputeCapability>())) {
            Some((_, Ok(cc))) => match kb.architecture(cc) {
                Some(arch) => format!("{}, {}", cc.sm(), arch.name),
                None => cc.sm(),
            },
            Some((c, Err(_))) => format!("cc {c}"),
            None => "cc unknown".into(),
        };
        let what = format!("{} ({cc})", or_unknown(&d.name));
        let g = &d.gemm;
        if g.ok {
            let _ = writeln!(
                s,
                "GPU {}    {what}: ok ({}, max abs error {}, {:.3} ms)",
                d.index,
                g.backend.as_deref().unwrap_or("?"),
                g.max_abs_err.unwrap_or(f64::NAN),
                g.ms.unwrap_or(f64::NAN)
            );
        } else {
            let _ = writeln!(
                s,
                "GPU {}    {what}: FAILED: {}",
                d.index,
                or_unknown(&g.error)
            );
        }
    }
    if !r.findings.is_empty() {
        s.push('\n');
    }
    for f in &r.findings {
        render_finding(&mut s, f, verbose);
    }
    let passed = r.devices.iter().filter(|d| d.gemm.ok).count();
    if r.devices.is_empty() {
        let _ = writeln!(s, "\nno GPU was tested");
    } else {
        let _ = writeln!(
            s,
            "\n{} of {} GPU(s) computed the GEMM correctly",
            passed,
            r.devices.len()
        );
    }
    s
}

fn render_finding(s: &mut String, f: &Finding, verbose: bool) {
    let _ = writeln!(
        s,
        "{}[{}] {} ({}): {}",
        f.severity, f.code, f.name, f.category, f.message
    );
    for e in &f.evidence {
        if verbose {
            let _ = writeln!(s, "    {}: {} (from {})", e.fact, e.value, e.source);
        } else {
            let _ = writeln!(s, "    {}: {}", e.fact, e.value);
        }
    }
    if let Some(fix) = &f.fix {
        if let Some(c) = &fix.command {
            let _ = writeln!(s, "    fix: {c}");
        }
        if let Some(n) = &fix.note {
            let _ = writeln!(
                s,
                "    {}{n}",
                if fix.command.is_some() {
                    "     "
                } else {
                    "fix: "
                }
            );
        }
    }
}
