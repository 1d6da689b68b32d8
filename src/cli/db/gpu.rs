//! `db gpu NAME`: a GPU's compute capability, architecture, drivers and the
//! torch builds that carry kernels for it.

use serde::Serialize;

use gpucompat::finding::KbRef;
use gpucompat::inventory::Segment;
use gpucompat::kb::tables::{CcDerivation, GpuRow};
use gpucompat::kb::{series, GpuLookup, Kb, KernelMatch, TORCH_ARCH_DEFAULT_PLATFORM};
use gpucompat::version::{ArchTarget, ComputeCapability, CudaVersion};

use super::text::Text;
use super::{show_driver, Answer, Unknown};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// GPU name as nvidia-smi prints it, or part of it: "RTX 5090", "NVIDIA A100-SXM4-80GB".
    pub name: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct GpuAnswer {
    pub query: String,
    /// `found` (one GPU) or `ambiguous` (several; see `candidates`).
    #[serde(rename = "match")]
    pub matched: &'static str,
    pub gpu: Option<Gpu>,
    pub candidates: Vec<Candidate>,
}

#[derive(Debug, Serialize)]
pub struct Candidate {
    pub name: String,
    pub architecture: String,
    pub compute_capability: Option<ComputeCapability>,
    pub segment: Segment,
    pub kb: KbRef,
}

#[derive(Debug, Serialize)]
pub struct Gpu {
    pub name: String,
    pub architecture: String,
    /// Null when the table does not know it.
    pub compute_capability: Option<ComputeCapability>,
    /// Set when no NVIDIA list itemises the model and the CC follows from its
    /// architecture or chip family; `cc_rule` says how.
    pub cc_derived: Option<CcDerivation>,
    pub cc_rule: Option<String>,
    pub vram_gib: Option<f64>,
    pub segment: Segment,
    pub pci_device_ids: Vec<String>,
    pub note: Option<String>,
    pub kb: KbRef,
    /// The architectures row of the compute capability; null when the CC is unknown.
    pub architecture_facts: Option<ArchFacts>,
    /// Per torch_arch row: does that build carry a kernel for this GPU?
    pub torch_kernels: Vec<TorchKernel>,
}

#[derive(Debug, Serialize)]
pub struct ArchFacts {
    pub name: String,
    /// Jetson/Tegra: runs only SASS built for exactly its CC.
    pub integrated: bool,
    pub first_cuda: Option<CudaVersion>,
    pub first_driver_branch: Option<String>,
    pub min_linux_driver: Option<String>,
    pub min_windows_driver: Option<String>,
    pub last_cuda: Option<CudaVersion>,
    /// Null while the architecture is still supported (or unknown; see note).
    pub last_driver_branch: Option<String>,
    pub note: Option<String>,
    pub kb: KbRef,
}

#[derive(Debug, Serialize)]
pub struct TorchKernel {
    /// `2.8` or `2.1-2.3`: the release series the row covers.
    pub torch: String,
    /// The releases in torch_releases that fall in the range and publish the variant.
    pub releases: Vec<String>,
    pub variant: String,
    pub platform: String,
    /// `sass`, `ptx` (JIT only), `none`, or `unknown` (arch list or CC unknown).
    pub kernel: &'static str,
    pub target: Option<ArchTarget>,
    pub reason: String,
    /// Whether the arch list was read from a published wheel.
    pub verified: bool,
    pub kb: KbRef,
}

fn candidate(r: &GpuRow) -> Candidate {
    Candidate {
        name: r.name.clone(),
        architecture: r.architecture.clone(),
        compute_capability: r.compute_capability,
        segment: r.segment,
        kb: r.kb(),
    }
}

pub fn answer(kb: &Kb, args: &Args) -> Result<GpuAnswer, Unknown> {
    match kb.gpu(&args.name) {
        GpuLookup::Found(r) => Ok(GpuAnswer {
            query: args.name.clone(),
            matched: "found",
            gpu: Some(gpu(kb, r)),
            candidates: vec![],
        }),
        GpuLookup::Ambiguous(rows) => Ok(GpuAnswer {
            query: args.name.clone(),
            matched: "ambiguous",
            gpu: None,
            candidates: rows.into_iter().map(candidate).collect(),
        }),
        GpuLookup::NotFound { nearest } => Err(Unknown::new(
            format!("no GPU named {:?} in the gpus table", args.name.trim()),
            nearest.into_iter().map(str::to_string).collect(),
        )),
    }
}

fn gpu(kb: &Kb, r: &GpuRow) -> Gpu {
    let cc = r.compute_capability;
    let architecture_facts = cc.and_then(|cc| kb.architecture(cc)).map(|a| ArchFacts {
        name: a.name.clone(),
        integrated: cc.is_some_and(|cc| kb.is_integrated(cc)),
        first_cuda: a.first_toolkit,
        first_driver_branch: a.min_driver_branch.as_ref().map(|d| d.branch_name()),
        min_linux_driver: a.min_linux_driver.as_ref().map(show_driver),
        min_windows_driver: a.min_windows_driver.as_ref().map(show_driver),
        last_cuda: a.last_toolkit,
        last_driver_branch: a.last_driver_branch.as_ref().map(|d| d.branch_name()),
        note: a.note.clone(),
        kb: a.kb(),
    });
    let torch_kernels = kb
        .torch_arch
        .row
        .iter()
        .map(|row| {
            let (kernel, target, reason) = match (cc, row.arch_list.as_deref()) {
                (None, _) => (
                    "unknown",
                    None,
                    "the compute capability of this GPU is unknown".to_string(),
                ),
                (Some(_), None) => (
                    "unknown",
                    None,
                    "the arch list of this build is unknown".to_string(),
                ),
                (Some(cc), Some(list)) => match kb.kernels_for_gpu(list, cc) {
                    KernelMatch::Sass { target, reason } => ("sass", Some(target), reason),
                    KernelMatch::Ptx { target, reason } => ("ptx", Some(target), reason),
                    KernelMatch::None { reason } => ("none", None, reason),
                },
            };
            let torch = if row.torch_min == row.torch_max {
                row.torch_min.clone()
            } else {
                format!("{}-{}", row.torch_min, row.torch_max)
            };
            let (lo, hi) = (series(&row.torch_min), series(&row.torch_max));
            let releases = kb
                .torch_releases
                .row
                .iter()
                .filter(|t| {
                    let s = series(&t.version);
                    s.is_some() && lo <= s && s <= hi
                })
                .filter(|t| {
                    t.cuda_variants
                        .as_ref()
                        .is_some_and(|v| v.contains(&row.variant))
                        || t.default_variant.as_deref() == Some(row.variant.as_str())
                })
                .map(|t| t.version.clone())
                .collect();
            TorchKernel {
                torch,
                releases,
                variant: row.variant.clone(),
                platform: row.platform.clone(),
                kernel,
                target,
                reason,
                verified: row.verified,
                kb: row.kb(),
            }
        })
        .collect();
    Gpu {
        name: r.name.clone(),
        architecture: r.architecture.clone(),
        compute_capability: cc,
        cc_derived: r.cc_derived,
        cc_rule: r.cc_rule.clone(),
        vram_gib: r.vram_gib,
        segment: r.segment,
        pci_device_ids: r.pci_ids().map(str::to_string).collect(),
        note: r.note.clone(),
        kb: r.kb(),
        architecture_facts,
        torch_kernels,
    }
}

fn segment(s: Segment) -> &'static str {
    match s {
        Segment::Geforce => "geforce",
        Segment::Workstation => "workstation",
        Segment::Datacenter => "datacenter",
        Segment::Embedded => "embedded",
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or("unknown".into(), |v| v.to_string())
}

impl Answer for GpuAnswer {
    fn render(&self, out: &mut Text) {
        let Some(g) = &self.gpu else {
            out.plain(format!(
                "{:?} matches {} GPUs; give the full name:",
                self.query.trim(),
                self.candidates.len()
            ));
            let mut rows = Vec::new();
            for c in &self.candidates {
                rows.push(vec![
                    c.name.clone(),
                    c.architecture.clone(),
                    format!("CC {}", opt(&c.compute_capability)),
                    segment(c.segment).to_string(),
                ]);
            }
            out.table(rows);
            return;
        };
        let c = out.cite(&g.kb);
        out.kv("GPU", format!("{}   {c}", g.name));
        out.kv("architecture", g.architecture.clone());
        match (&g.cc_derived, &g.cc_rule) {
            (Some(_), Some(rule)) => out.kv(
                "compute capability",
                format!("{} (derived: {rule})", opt(&g.compute_capability)),
            ),
            _ => out.kv("compute capability", opt(&g.compute_capability)),
        }
        out.kv(
            "VRAM",
            g.vram_gib.map_or("unknown".into(), |v| format!("{v} GiB")),
        );
        out.kv("segment", segment(g.segment));
        if !g.pci_device_ids.is_empty() {
            out.kv("PCI device id", g.pci_device_ids.join(" "));
        }
        match &g.architecture_facts {
            Some(a) => {
                let c = out.cite(&a.kb);
                let kind = if a.integrated {
                    " (integrated: only its own SASS runs)"
                } else {
                    ""
                };
                out.kv("architecture row", format!("{}{kind}   {c}", a.name));
                out.sub("first CUDA", opt(&a.first_cuda));
                out.sub(
                    "first driver",
                    format!(
                        "{} (Linux {}, Windows {})",
                        a.first_driver_branch.as_deref().unwrap_or("unknown"),
                        a.min_linux_driver.as_deref().unwrap_or("unknown"),
                        a.min_windows_driver.as_deref().unwrap_or("unknown")
                    ),
                );
                if let Some(l) = &a.last_cuda {
                    out.sub("last CUDA", l.to_string());
                }
                out.sub(
                    "last driver branch",
                    a.last_driver_branch
                        .as_deref()
                        .unwrap_or("none (still supported or unknown)"),
                );
            }
            None => out.kv("architecture row", "unknown (compute capability unknown)"),
        }
        out.blank();
        out.plain("torch kernels for this GPU");
        let mut rows = vec![vec![
            "torch".to_string(),
            "variant".into(),
            "kernel".into(),
            "target".into(),
            "verified".into(),
        ]];
        for k in &g.torch_kernels {
            rows.push(vec![
                k.torch.clone(),
                if k.platform == TORCH_ARCH_DEFAULT_PLATFORM {
                    k.variant.clone()
                } else {
                    format!("{} ({})", k.variant, k.platform)
                },
                k.kernel.to_string(),
                k.target.map_or("-".into(), |t| t.to_string()),
                if k.verified { "yes" } else { "no" }.into(),
            ]);
        }
        out.table(rows);
    }
}
