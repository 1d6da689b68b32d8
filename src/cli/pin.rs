//! `gpucompat pin`: write a stack that runs on one host or a fleet.

use std::path::PathBuf;

use anyhow::Context;

use gpucompat::kb::Semantic;
use gpucompat::plan::formats::{self, Format};
use gpucompat::plan::hosts::{load_card, HostSpec};
use gpucompat::plan::resolver::{
    resolve_with, Components, PlanRequest, ResolveOptions, SemanticMode,
};
use gpucompat::probe::{probe, ProbeOptions};
use gpucompat::version::{ComputeCapability, DriverVersion};

use super::{emit, Ctx};

/// `--semantic`: which compatibility semantic the stack may rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PinSemantic {
    /// The toolkit semantic, unless minor-version compatibility gives a newer stack.
    Auto,
    /// Every host's driver runs the stack's CUDA with no caveats.
    Toolkit,
    /// CUDA minor-version compatibility: older drivers of the same major, with caveats.
    MinorCompat,
}

impl From<PinSemantic> for SemanticMode {
    fn from(s: PinSemantic) -> SemanticMode {
        match s {
            PinSemantic::Auto => SemanticMode::Auto,
            PinSemantic::Toolkit => SemanticMode::Toolkit,
            PinSemantic::MinorCompat => SemanticMode::MinorCompat,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A saved card (`gpucompat card --json > a.json`); repeat for a fleet. Default: this machine.
    #[arg(long = "host", value_name = "CARD.json")]
    pub hosts: Vec<PathBuf>,
    /// A host given by its driver version (with --gpu / --cc), instead of or besides cards.
    #[arg(long, value_name = "VER")]
    pub driver: Option<String>,
    /// A GPU of that host by name (`"RTX 4090"`); repeatable.
    #[arg(long = "gpu", value_name = "NAME")]
    pub gpus: Vec<String>,
    /// A GPU of that host by compute capability (`8.9`, `sm_89`); repeatable.
    #[arg(long = "cc", value_name = "X.Y")]
    pub ccs: Vec<String>,
    /// Container OS of the base image: ubuntu22.04, ubuntu24.04, rockylinux9, ...
    #[arg(long, value_name = "OS")]
    pub os: Option<String>,
    /// Python version the stack must support (`3.11`).
    #[arg(long, value_name = "X.Y")]
    pub python: Option<String>,
    /// What to pin: torch[==X],torchvision,torchaudio,tensorrt,onnxruntime-gpu,jax.
    #[arg(long = "with", value_name = "LIST", default_value = "torch")]
    pub with: String,
    /// auto: toolkit, unless minor-version compatibility gives a newer stack (said per stack); toolkit: the driver each CUDA shipped with (no caveats); minor-compat: older drivers of the same major, with caveats.
    #[arg(long, value_enum, default_value = "auto")]
    pub semantic: PinSemantic,
    /// A devel image (nvcc, headers) instead of runtime.
    #[arg(long)]
    pub devel: bool,
    /// An image flavor with cuDNN.
    #[arg(long)]
    pub cudnn: bool,
    /// What to write: the pin list, a Dockerfile, requirements.txt, uv settings, or JSON.
    #[arg(long, value_enum, default_value = "pins", alias = "output-format")]
    pub format: Format,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Only this stack (1-based) when the fleet is split.
    #[arg(long, value_name = "N")]
    pub group: Option<usize>,
}

pub fn run(ctx: &Ctx, args: Args) -> anyhow::Result<i32> {
    let with = Components::parse(&args.with).map_err(anyhow::Error::msg)?;
    let mut hosts = Vec::new();
    for path in &args.hosts {
        let inv = load_card(path)?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let name = path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        hosts.push(HostSpec::from_inventory(
            &inv,
            &stem,
            &format!("card {name}"),
            &ctx.kb,
        ));
    }
    if args.driver.is_some() || !args.gpus.is_empty() || !args.ccs.is_empty() {
        let mut h = HostSpec::empty("command-line", "--driver/--gpu/--cc");
        if let Some(d) = &args.driver {
            let v: DriverVersion = d.parse().with_context(|| format!("--driver {d}"))?;
            h.driver = Some(gpucompat::inventory::Fact::new(v, "--driver"));
            h.kind = gpucompat::plan::hosts::HostKind::Nvidia;
        }
        for g in &args.gpus {
            h.add_gpu_by_name(&ctx.kb, g)?;
        }
        for c in &args.ccs {
            let cc: ComputeCapability = c.parse().with_context(|| format!("--cc {c}"))?;
            h.add_gpu_by_cc(cc);
        }
        hosts.push(h);
    }
    if hosts.is_empty() {
        let sys = ctx.host();
        let inv = probe(&sys, &ctx.kb, &ProbeOptions::default());
        hosts.push(HostSpec::from_inventory(
            &inv,
            "this-host",
            "live probe",
            &ctx.kb,
        ));
    }
    let mode = SemanticMode::from(args.semantic);
    let req = PlanRequest {
        hosts,
        // Under auto, the semantic of record is the one with no caveats.
        semantic: match mode {
            SemanticMode::MinorCompat => Semantic::MinorCompat,
            _ => Semantic::Toolkit,
        },
        os: args.os.clone(),
        python: args.python.clone(),
        with,
        devel: args.devel,
        cudnn_image: args.cudnn,
    };
    let plan = resolve_with(
        &ctx.kb,
        &req,
        ResolveOptions {
            semantic: mode,
            split_gpus: true,
        },
    );
    if let Some(g) = args.group {
        if g == 0 || g > plan.stacks.len() {
            anyhow::bail!("--group {g}: the plan has {} stack(s)", plan.stacks.len());
        }
    }
    let format = if args.json { Format::Json } else { args.format };
    let out = formats::render(&plan, format, args.group);
    if format == Format::Json {
        super::emit_exact(&out)?;
    } else {
        emit(&out)?;
    }
    if ctx.verbose && format != Format::Pins && format != Format::Json {
        for s in &plan.stacks {
            for r in &s.reasons {
                eprintln!("stack {}: {}: {}", s.id, r.subject, r.text);
            }
        }
    }
    Ok(plan.exit_code())
}
