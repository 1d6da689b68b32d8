//! `gpucompat db require` and `gpucompat db image`: the parts of `db` that
//! evaluate NVIDIA_REQUIRE_* and the nvidia/cuda image table. The `db` enum
//! (src/cli/db.rs) wires them in as `Require(RequireArgs)` / `Image(ImageArgs)`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context;

use gpucompat::plan::hosts::{load_card, HostKind, HostSpec};
use gpucompat::plan::image::ImageRef;
use gpucompat::plan::report::{
    evaluate_requirements, image_report, image_text, require_text, view_facts,
};
use gpucompat::plan::require::{
    requirements_from_env, runtime_brand, DeviceView, DriverView, RequireSet, Requirement,
    RuntimeView, Seen,
};
use gpucompat::probe::{probe, ProbeOptions};
use gpucompat::version::{ComputeCapability, DriverVersion};

use super::Ctx;

/// Evaluate an NVIDIA_REQUIRE_CUDA expression the way nvidia-container-cli does.
#[derive(Debug, clap::Args)]
pub struct RequireArgs {
    /// The requirement, e.g. "cuda>=12.4 brand=tesla,driver>=470,driver<471".
    #[arg(value_name = "EXPR")]
    pub expr: Option<String>,
    /// An image environment variable (NVIDIA_REQUIRE_*, CUDA_VERSION, NVIDIA_DISABLE_REQUIRE); repeatable.
    #[arg(long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// The driver's CUDA version as the runtime reads it (12.2).
    #[arg(long, value_name = "X.Y")]
    pub cuda: Option<String>,
    /// The driver version (535.104.05).
    #[arg(long, value_name = "VER")]
    pub driver: Option<String>,
    /// A visible GPU's compute capability; repeatable (one per GPU).
    #[arg(long = "cc", value_name = "X.Y")]
    pub ccs: Vec<String>,
    /// A visible GPU's NVML brand (tesla, geforce, nvidia, ...); repeatable (one per GPU).
    #[arg(long = "brand", value_name = "BRAND")]
    pub brands: Vec<String>,
    /// Take driver and GPUs from a saved card instead; repeatable.
    #[arg(long = "host", value_name = "CARD.json")]
    pub hosts: Vec<PathBuf>,
    /// Evaluate with no visible GPU (arch and brand terms then pass).
    #[arg(long)]
    pub no_gpu: bool,
    /// Output as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Show an nvidia/cuda image's CUDA, cuDNN and requirement, and whether hosts satisfy it.
#[derive(Debug, clap::Args)]
pub struct ImageArgs {
    /// An image reference (nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04); none lists the table.
    #[arg(value_name = "IMAGE")]
    pub image: Option<String>,
    /// Check against this card instead of this machine; repeatable.
    #[arg(long = "host", value_name = "CARD.json")]
    pub hosts: Vec<PathBuf>,
    /// Output as JSON.
    #[arg(long)]
    pub json: bool,
}

fn cards(ctx: &Ctx, paths: &[PathBuf]) -> anyhow::Result<Vec<HostSpec>> {
    let mut out = Vec::new();
    for p in paths {
        let inv = load_card(p)?;
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(HostSpec::from_inventory(
            &inv,
            &stem,
            &format!("card {}", p.display()),
            &ctx.kb,
        ));
    }
    Ok(out)
}

fn this_host(ctx: &Ctx) -> HostSpec {
    let inv = probe(&ctx.host(), &ctx.kb, &ProbeOptions::default());
    HostSpec::from_inventory(&inv, "this-host", "live probe", &ctx.kb)
}

fn sources_of(h: &HostSpec, view: &RuntimeView, ctx: &Ctx) -> BTreeMap<String, String> {
    let mut s = BTreeMap::new();
    if let Some(d) = &h.driver {
        s.insert("driver".into(), d.source.clone());
    }
    if let Some(c) = h.driver_cuda(&ctx.kb) {
        s.insert("cuda".into(), c.source);
    }
    for (d, g) in view.devices.iter().zip(&h.gpus) {
        if let Some(cc) = &g.cc {
            s.insert(format!("{} arch", d.label), cc.source.clone());
        }
        s.insert(
            format!("{} brand", d.label),
            match &g.brand {
                Some(b) => format!(
                    "NVML brand {b}, read by the runtime as {}",
                    runtime_brand(b)
                ),
                None => "no brand on the card: the brands its market segment reports".into(),
            },
        );
    }
    s
}

pub fn run_require(ctx: &Ctx, args: RequireArgs) -> anyhow::Result<i32> {
    let mut env = BTreeMap::new();
    for kv in &args.env {
        let (k, v) = kv
            .split_once('=')
            .with_context(|| format!("--env {kv}: expected KEY=VALUE"))?;
        env.insert(k.to_string(), v.to_string());
    }
    let set = match (&args.expr, env.is_empty()) {
        (Some(e), true) => RequireSet::Checked {
            requirements: vec![Requirement {
                origin: "command line".into(),
                expr: e.clone(),
            }],
        },
        (expr, false) => {
            let mut s = requirements_from_env(&env);
            if let (Some(e), RequireSet::Checked { requirements }) = (expr, &mut s) {
                requirements.push(Requirement {
                    origin: "command line".into(),
                    expr: e.clone(),
                });
            }
            s
        }
        (None, true) => anyhow::bail!("give a requirement EXPR or --env NVIDIA_REQUIRE_CUDA=..."),
    };
    let mut reports = Vec::new();
    if !args.hosts.is_empty() {
        for h in cards(ctx, &args.hosts)? {
            let mut view = h.runtime_view(&ctx.kb);
            if args.no_gpu {
                view.devices.clear();
            }
            let facts = view_facts(&view, &sources_of(&h, &view, ctx));
            reports.push(evaluate_requirements(
                &format!("host {}", h.name),
                set.clone(),
                &view,
                facts,
            ));
        }
    } else {
        let manual = args.driver.is_some()
            || args.cuda.is_some()
            || !args.ccs.is_empty()
            || !args.brands.is_empty()
            || args.no_gpu;
        let (view, sources, label) = if manual {
            manual_view(ctx, &args)?
        } else {
            let h = this_host(ctx);
            let mut view = h.runtime_view(&ctx.kb);
            if h.kind != HostKind::Nvidia {
                view.devices.clear();
            }
            let s = sources_of(&h, &view, ctx);
            (view, s, "this host".to_string())
        };
        let facts = view_facts(&view, &sources);
        reports.push(evaluate_requirements(&label, set, &view, facts));
    }
    if args.json {
        gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(&reports)?);
    } else {
        for r in &reports {
            gpucompat::render::sanitize::print(&require_text(r, ctx.verbose));
        }
    }
    Ok(reports.iter().map(|r| r.exit_code()).max().unwrap_or(0))
}

fn manual_view(
    ctx: &Ctx,
    args: &RequireArgs,
) -> anyhow::Result<(RuntimeView, BTreeMap<String, String>, String)> {
    let mut sources = BTreeMap::new();
    let driver = match &args.driver {
        Some(d) => {
            sources.insert("driver".into(), "--driver".into());
            Seen::value(d.trim())
        }
        None => Seen::Unknown(vec![]),
    };
    let cuda = match (&args.cuda, &args.driver) {
        (Some(c), _) => {
            sources.insert("cuda".into(), "--cuda".into());
            Seen::value(c.trim())
        }
        (None, Some(d)) => {
            let v: Option<DriverVersion> = d.parse().ok();
            match v.and_then(|v| {
                ctx.kb
                    .max_cuda_for_driver(&v, gpucompat::inventory::OsKind::Linux)
            }) {
                Some(m) if !m.at_least => {
                    sources.insert(
                        "cuda".into(),
                        format!(
                            "from the driver: {} {} (pass --cuda to override)",
                            m.kb.table, m.kb.row
                        ),
                    );
                    Seen::value(format!("{}.{}", m.max_cuda.major, m.max_cuda.minor))
                }
                _ => Seen::Unknown(vec![]),
            }
        }
        (None, None) => Seen::Unknown(vec![]),
    };
    let n = if args.no_gpu {
        0
    } else {
        args.ccs.len().max(args.brands.len())
    };
    let pick = |v: &[String], i: usize| -> Option<String> {
        v.get(i)
            .cloned()
            .or_else(|| (v.len() == 1).then(|| v[0].clone()))
    };
    let mut devices = Vec::new();
    for i in 0..n {
        let label = format!("GPU {i}");
        let arch = match pick(&args.ccs, i) {
            Some(c) => {
                let cc: ComputeCapability = c.parse().with_context(|| format!("--cc {c}"))?;
                sources.insert(format!("{label} arch"), "--cc".into());
                Seen::value(format!("{}.{}", cc.major, cc.minor))
            }
            None => Seen::Unknown(vec![]),
        };
        let brand = match pick(&args.brands, i) {
            Some(b) => {
                let rb = runtime_brand(&b);
                sources.insert(
                    format!("{label} brand"),
                    format!("--brand {b}, read by the runtime as {rb}"),
                );
                Seen::value(rb)
            }
            None => Seen::Unknown(vec![]),
        };
        devices.push(DeviceView { label, arch, brand });
    }
    Ok((
        RuntimeView {
            driver: DriverView { driver, cuda },
            devices,
        },
        sources,
        "host".to_string(),
    ))
}

pub fn run_image(ctx: &Ctx, args: ImageArgs) -> anyhow::Result<i32> {
    let Some(image) = &args.image else {
        return list_images(ctx, args.json);
    };
    let image = ImageRef::parse(image);
    let hosts = if args.hosts.is_empty() {
        vec![this_host(ctx)]
    } else {
        cards(ctx, &args.hosts)?
    };
    let report = image_report(&ctx.kb, &image, &hosts);
    if args.json {
        gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(&report)?);
    } else {
        gpucompat::render::sanitize::print(&image_text(&report, ctx.verbose));
    }
    Ok(report.exit_code())
}

fn list_images(ctx: &Ctx, json: bool) -> anyhow::Result<i32> {
    let rows = &ctx.kb.cuda_images.row;
    if json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "cuda": r.cuda, "os": r.os, "flavors": r.flavors, "cudnn": r.cudnn,
                    "require_cuda": r.require_cuda, "source": r.source,
                })
            })
            .collect();
        gpucompat::render::sanitize::print_exact(&serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    let mut table = String::from(
        "| CUDA | cuDNN | NVIDIA_REQUIRE_CUDA | flavors | OS |\n|---|---|---|---|---|\n",
    );
    for r in rows {
        let req = r
            .require_cuda
            .as_deref()
            .map_or("unknown".to_string(), |q| {
                let n = q.split(' ').filter(|c| !c.is_empty()).count();
                let first = q.split(' ').next().unwrap_or("");
                if n > 1 {
                    format!("{first} (+{} forward-compat clauses)", n - 1)
                } else {
                    first.to_string()
                }
            });
        table.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.cuda,
            r.cudnn.as_deref().unwrap_or("-"),
            req,
            r.flavors.join(" "),
            r.os.join(" ")
        ));
    }
    Ok(0)
}
