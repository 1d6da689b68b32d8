//! `db arch LIST --cc X.Y`: which kernel of an arch list runs on a GPU.

use serde::Serialize;

use gpucompat::finding::KbRef;
use gpucompat::kb::arch::runs_on;
use gpucompat::kb::{Kb, KernelMatch};
use gpucompat::version::{parse_arch_list, ArchTarget, ComputeCapability, TargetKind};

use super::text::Text;
use super::{Answer, Unknown};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Arch list in any spelling: "sm_80 sm_86 compute_90", "8.0;8.6;9.0+PTX",
    /// "['sm_80', 'sm_90a']", "sm_100f".
    pub list: String,
    /// The GPU's compute capability: 8.9, sm_89, 89, 12.0.
    #[arg(long)]
    pub cc: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct ArchAnswer {
    pub query: String,
    /// The list as read, one entry per target.
    pub arch_list: Vec<ArchTarget>,
    pub compute_capability: ComputeCapability,
    /// Whether the GPU is an integrated (Tegra) part: then only its own SASS runs.
    pub integrated: bool,
    /// The architectures row that says so; null when the CC is not in the table.
    pub architecture: Option<String>,
    pub architecture_kb: Option<KbRef>,
    /// The best kernel: `kind` sass | ptx | none, `target`, `reason`.
    pub result: KernelMatch,
    /// Every target of the list and whether it runs on this GPU.
    pub targets: Vec<TargetRuns>,
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct TargetRuns {
    pub target: ArchTarget,
    pub kind: TargetKind,
    pub runs: bool,
}

const SPELLINGS: [&str; 4] = [
    "sm_80 sm_86 compute_90",
    "8.0;8.6;9.0+PTX",
    "['sm_80', 'sm_90a']",
    "sm_100f",
];

const CC_SPELLINGS: [&str; 4] = ["8.9", "sm_89", "89", "12.0"];

pub fn answer(kb: &Kb, args: &Args) -> Result<ArchAnswer, Unknown> {
    let list = parse_arch_list(&args.list)
        .map_err(|e| Unknown::new(e.to_string(), vec![]).accepting(&SPELLINGS))?;
    let cc = args
        .cc
        .parse::<ComputeCapability>()
        .map_err(|e| Unknown::new(format!("--cc: {e}"), vec![]).accepting(&CC_SPELLINGS))?;
    let cc = cc.plain();
    let arch = kb.architecture(cc);
    let integrated = kb.is_integrated(cc);
    let mut notes = Vec::new();
    if arch.is_none() {
        notes.push(format!(
            "compute capability {cc} is not in the architectures table: the desktop rules were applied"
        ));
    }
    let targets = list
        .iter()
        .map(|t| TargetRuns {
            target: *t,
            kind: t.kind,
            runs: runs_on(t, cc, integrated),
        })
        .collect();
    Ok(ArchAnswer {
        query: args.list.clone(),
        result: kb.kernels_for_gpu(&list, cc),
        arch_list: list,
        compute_capability: cc,
        integrated,
        architecture: arch.map(|a| a.name.clone()),
        architecture_kb: arch.map(|a| a.kb()),
        targets,
        notes,
    })
}

impl Answer for ArchAnswer {
    fn render(&self, out: &mut Text) {
        let list: Vec<String> = self.arch_list.iter().map(|t| t.to_string()).collect();
        out.kv("arch list", list.join(" "));
        let gpu = match (&self.architecture, &self.architecture_kb) {
            (Some(a), Some(k)) => {
                let kind = if self.integrated {
                    "integrated"
                } else {
                    "desktop"
                };
                format!(
                    "{} ({a}, {kind})   {}",
                    self.compute_capability,
                    out.cite(k)
                )
            }
            _ => format!("{} (architecture unknown)", self.compute_capability),
        };
        out.kv("GPU", gpu);
        let result = match &self.result {
            KernelMatch::Sass { target, .. } | KernelMatch::Ptx { target, .. } => {
                format!("{} via {target}", self.result.kind())
            }
            KernelMatch::None { .. } => "none".into(),
        };
        out.kv("kernel", result);
        out.kv("reason", self.result.reason());
        out.blank();
        let mut rows = Vec::new();
        for t in &self.targets {
            rows.push(vec![
                t.target.to_string(),
                match t.kind {
                    TargetKind::Sass => "SASS".into(),
                    TargetKind::Ptx => "PTX".to_string(),
                },
                if t.runs { "runs" } else { "does not run" }.into(),
            ]);
        }
        out.table(rows);
        for n in &self.notes {
            out.kv("note", n.clone());
        }
    }
}
