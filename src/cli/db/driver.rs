//! `db driver VER`: what a driver runs.

use serde::Serialize;

use gpucompat::finding::KbRef;
use gpucompat::kb::{driver_meets, Kb};
use gpucompat::version::{CudaVersion, DriverVersion};

use super::text::Text;
use super::{
    nearest_of, show_driver, Answer, OsArg, Unknown, MINOR_COMPAT_CAVEATS, MINOR_COMPAT_SOURCE,
};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Driver version: 550.54.14, 570.26, Windows 552.22 or 32.0.15.5222, a branch R550.
    #[arg(id = "VER", value_name = "VERSION")]
    pub version: String,
    /// The OS the driver is for [default: linux; windows for the 32.0.15.xxxx form].
    #[arg(long, value_enum)]
    pub os: Option<OsArg>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct DriverAnswer {
    pub query: String,
    pub driver: DriverVersion,
    pub os: &'static str,
    /// Only a branch was given: answers hold for the branch's first driver.
    pub branch_only: bool,
    pub branch: Branch,
    /// The newest CUDA the driver runs with no caveats; null when the driver is
    /// older than every toolkit driver in the table.
    pub max_cuda: Option<MaxCuda>,
    pub cuda: CudaRuns,
    /// Every torch CUDA variant ever published and whether it loads.
    pub torch_variants: Vec<TorchVariant>,
    /// Architectures whose last driver branch is older than this driver's.
    pub architectures_dropped: Vec<ArchLimit>,
    /// Architectures whose minimum driver this driver does not meet.
    pub architectures_too_new: Vec<ArchLimit>,
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct Branch {
    /// `R535`
    pub name: String,
    /// `LTSB`, `PB`, `NFB`; null when the branch is not in driver_branches or its row gives no kind.
    pub kind: Option<gpucompat::kb::tables::BranchKind>,
    pub eol: Option<String>,
    pub max_cuda_major: Option<u32>,
    pub note: Option<String>,
    pub kb: Option<KbRef>,
}

#[derive(Debug, Serialize)]
pub struct MaxCuda {
    pub value: CudaVersion,
    /// True when the driver is newer than the table: the real maximum may be higher.
    pub at_least: bool,
    pub kb: KbRef,
}

#[derive(Debug, Serialize)]
pub struct CudaRuns {
    /// Toolkit semantic: every CUDA version up to `max_cuda`.
    pub toolkit: Vec<CudaVersion>,
    /// Minor-version compatibility: the CUDA families whose driver floor this driver meets.
    pub minor_compat: Vec<Family>,
    pub minor_compat_caveats: Vec<&'static str>,
    pub minor_compat_source: &'static str,
}

#[derive(Debug, Serialize)]
pub struct Family {
    /// `12.x`
    pub family: String,
    pub cuda_min: CudaVersion,
    pub cuda_max: CudaVersion,
    pub min_driver: DriverVersion,
    /// Versions of the family newer than `max_cuda`: they run only with the caveats.
    pub beyond_max_cuda: Vec<CudaVersion>,
    pub kb: KbRef,
}

#[derive(Debug, Serialize)]
pub struct TorchVariant {
    pub variant: String,
    pub cuda: CudaVersion,
    /// `toolkit` (no caveats), `minor_compat` (with the caveats), `unknown`, or `no`.
    pub loads: &'static str,
    pub kb: Option<KbRef>,
}

#[derive(Debug, Serialize)]
pub struct ArchLimit {
    pub architecture: String,
    pub compute_capabilities: Vec<gpucompat::version::ComputeCapability>,
    /// The last branch (for dropped) or the minimum driver (for too new).
    pub driver: String,
    pub kb: KbRef,
}

pub fn answer(kb: &Kb, args: &Args) -> Result<DriverAnswer, Unknown> {
    let driver = args.version.parse::<DriverVersion>().map_err(|e| {
        let known: Vec<String> = kb
            .cuda_toolkits
            .row
            .iter()
            .flat_map(|r| [&r.linux_driver, &r.windows_driver])
            .flatten()
            .map(|d| d.to_string())
            .collect();
        let nearest = if args.version.chars().any(|c| c.is_ascii_digit()) {
            nearest_of(&args.version, &known, 3)
        } else {
            vec![]
        };
        Unknown::new(e.to_string(), nearest).accepting(&[
            "550.54.14",
            "570.26",
            "552.22",
            "32.0.15.5222",
            "R550",
        ])
    })?;
    // A branch alone answers for its lowest driver (rules read a typed
    // branch as any of its releases; here each answer says which it holds for).
    let query = if driver.is_branch_only() {
        DriverVersion::new(driver.branch(), Some(0), Some(0))
    } else {
        driver.clone()
    };
    let windows_form = args.version.trim().split('.').count() == 4;
    let os = args.os.unwrap_or(if windows_form {
        OsArg::Windows
    } else {
        OsArg::Linux
    });
    let os_kind = os.kind();
    let mut notes = Vec::new();
    if windows_form {
        notes.push(format!(
            "{} is the Windows internal form of driver {driver}",
            args.version.trim()
        ));
    }
    if driver.is_branch_only() {
        let newest = DriverVersion::new(driver.branch(), Some(99_999), Some(99_999));
        let top = kb.max_cuda_for_driver(&newest, os.kind());
        let low = kb.max_cuda_for_driver(&query, os.kind());
        let mut n = format!(
            "only a branch was given: the answers hold for its lowest driver, {}.0",
            driver.branch()
        );
        if let Some(t) = top.filter(|t| low.as_ref().map(|l| l.max_cuda) != Some(t.max_cuda)) {
            n.push_str(&format!(
                "; later {} drivers run up to CUDA {} (cuda_toolkits {})",
                driver.branch_name(),
                t.max_cuda,
                t.kb.row
            ));
        }
        notes.push(n);
    }

    let branch_row = kb.driver_branch(driver.branch());
    let branch = Branch {
        name: driver.branch_name(),
        kind: branch_row.and_then(|r| r.kind),
        eol: branch_row.and_then(|r| r.eol.clone()),
        max_cuda_major: branch_row.and_then(|r| r.max_cuda_major),
        note: branch_row.and_then(|r| r.note.clone()),
        kb: branch_row.map(|r| r.kb()),
    };

    let max = kb.max_cuda_for_driver(&query, os_kind);
    if max.is_none() {
        notes.push(format!(
            "{driver} is older than every {} driver in the toolkit table",
            os.as_str()
        ));
    }
    let known = kb.cuda_versions();
    let max_v = max.as_ref().map(|m| m.max_cuda);
    let toolkit: Vec<CudaVersion> = known
        .iter()
        .copied()
        .filter(|v| max_v.is_some_and(|m| *v <= m))
        .collect();

    let mut families = Vec::new();
    for r in &kb.minor_compat.row {
        let floor = match os_kind {
            gpucompat::inventory::OsKind::Windows => r.min_windows.as_ref(),
            _ => r.min_linux.as_ref(),
        };
        let Some(floor) = floor else { continue };
        if !driver_meets(&query, floor) {
            continue;
        }
        let lo = r.cuda_min.major_minor();
        let hi = r.cuda_max.major_minor();
        let beyond = known
            .iter()
            .copied()
            .filter(|v| *v >= lo && *v <= hi && max_v.map_or(true, |m| *v > m))
            .collect();
        families.push(Family {
            family: if lo == hi {
                lo.to_string()
            } else if lo.major == hi.major && lo.minor == 0 && hi.minor == 9 {
                format!("{}.x", lo.major)
            } else {
                format!("{lo}-{hi}")
            },
            cuda_min: lo,
            cuda_max: hi,
            min_driver: floor.clone(),
            beyond_max_cuda: beyond,
            kb: r.kb(),
        });
    }

    let at_least = max.as_ref().is_some_and(|m| m.at_least);
    let torch_variants = kb
        .torch_cuda_variants()
        .into_iter()
        .map(|cuda| {
            let fam = families
                .iter()
                .find(|f| cuda >= f.cuda_min && cuda <= f.cuda_max);
            let (loads, kbref) = match (&max, fam) {
                (Some(m), _) if cuda <= m.max_cuda => ("toolkit", Some(m.kb.clone())),
                (_, Some(f)) => ("minor_compat", Some(f.kb.clone())),
                _ if at_least => ("unknown", None),
                _ => ("no", None),
            };
            TorchVariant {
                variant: cuda.wheel_tag(),
                cuda,
                loads,
                kb: kbref,
            }
        })
        .collect();

    let mut dropped = Vec::new();
    let mut too_new = Vec::new();
    for a in &kb.architectures.row {
        if let Some(last) = &a.last_driver_branch {
            if last.branch() < driver.branch() {
                dropped.push(ArchLimit {
                    architecture: a.name.clone(),
                    compute_capabilities: a.compute_capabilities.clone(),
                    driver: last.branch_name(),
                    kb: a.kb(),
                });
            }
        }
        let min = match os_kind {
            gpucompat::inventory::OsKind::Windows => a.min_windows_driver.as_ref(),
            _ => a.min_linux_driver.as_ref(),
        }
        .or(a.min_driver_branch.as_ref());
        if let Some(min) = min {
            if !driver_meets(&query, min) {
                too_new.push(ArchLimit {
                    architecture: a.name.clone(),
                    compute_capabilities: a.compute_capabilities.clone(),
                    driver: show_driver(min),
                    kb: a.kb(),
                });
            }
        }
    }

    Ok(DriverAnswer {
        query: args.version.clone(),
        os: os.as_str(),
        branch_only: driver.is_branch_only(),
        driver,
        branch,
        max_cuda: max.map(|m| MaxCuda {
            value: m.max_cuda,
            at_least: m.at_least,
            kb: m.kb,
        }),
        cuda: CudaRuns {
            toolkit,
            minor_compat: families,
            minor_compat_caveats: MINOR_COMPAT_CAVEATS.to_vec(),
            minor_compat_source: MINOR_COMPAT_SOURCE,
        },
        torch_variants,
        architectures_dropped: dropped,
        architectures_too_new: too_new,
        notes,
    })
}

fn list(v: &[CudaVersion]) -> String {
    match v {
        [] => "none".into(),
        [one] => one.to_string(),
        [first, .., last] => format!("{first} to {last} ({} versions)", v.len()),
    }
}

fn ccs(v: &[gpucompat::version::ComputeCapability]) -> String {
    if v.is_empty() {
        return "CC unknown".into();
    }
    let s: Vec<String> = v.iter().map(|c| c.to_string()).collect();
    format!("CC {}", s.join(" "))
}

impl Answer for DriverAnswer {
    fn render(&self, out: &mut Text) {
        out.kv(
            "driver",
            format!("{} ({})", show_driver(&self.driver), self.os),
        );
        let b = &self.branch;
        let mut branch = b.name.clone();
        match (&b.kind, &b.kb) {
            (kind, Some(kb)) => {
                let kind = match kind {
                    Some(gpucompat::kb::tables::BranchKind::Ltsb) => "long-term support (LTSB)",
                    Some(gpucompat::kb::tables::BranchKind::Pb) => "production (PB)",
                    Some(gpucompat::kb::tables::BranchKind::Nfb) => "new feature (NFB)",
                    None => "kind unknown (no LTSB/PB/NFB class in the sources)",
                };
                branch.push_str(&format!(", {kind}"));
                if let Some(eol) = &b.eol {
                    branch.push_str(&format!(", end of life {eol}"));
                }
                if let Some(m) = b.max_cuda_major {
                    branch.push_str(&format!(", CUDA {m}.x without the compat package"));
                }
                branch.push_str("   ");
                branch.push_str(&out.cite(kb));
            }
            _ => branch.push_str(", kind unknown (not in driver_branches)"),
        }
        out.kv("branch", branch);
        match &self.max_cuda {
            Some(m) => {
                let v = if m.at_least {
                    format!("at least {} (driver newer than the table)", m.value)
                } else {
                    m.value.to_string()
                };
                let c = out.cite(&m.kb);
                out.kv("max CUDA", format!("{v}   {c}"));
            }
            None => out.kv("max CUDA", "unknown"),
        }
        out.blank();
        out.plain("CUDA that runs");
        out.sub("toolkit", list(&self.cuda.toolkit));
        let (beyond, within): (Vec<&Family>, Vec<&Family>) = self
            .cuda
            .minor_compat
            .iter()
            .partition(|f| !f.beyond_max_cuda.is_empty());
        for f in &beyond {
            let c = out.cite(&f.kb);
            out.sub(
                "minor_compat",
                format!(
                    "also {} with caveats ({} floor {})   {c}",
                    list(&f.beyond_max_cuda),
                    f.family,
                    show_driver(&f.min_driver)
                ),
            );
        }
        if beyond.is_empty() {
            let met: Vec<&str> = within.iter().map(|f| f.family.as_str()).collect();
            out.sub(
                "minor_compat",
                if met.is_empty() {
                    "nothing (no family floor met)".to_string()
                } else {
                    format!("nothing beyond max CUDA (floors met: {})", met.join(", "))
                },
            );
        }
        if self
            .cuda
            .minor_compat
            .iter()
            .any(|f| !f.beyond_max_cuda.is_empty())
        {
            for c in &self.cuda.minor_compat_caveats {
                out.sub("caveat", *c);
            }
        }
        out.blank();
        out.plain("torch CUDA variants");
        for loads in ["toolkit", "minor_compat", "unknown", "no"] {
            let v: Vec<&str> = self
                .torch_variants
                .iter()
                .filter(|t| t.loads == loads)
                .map(|t| t.variant.as_str())
                .collect();
            if !v.is_empty() {
                let label = match loads {
                    "toolkit" => "load",
                    "minor_compat" => "load (minor_compat)",
                    "unknown" => "unknown",
                    _ => "do not load",
                };
                out.sub(label, v.join(" "));
            }
        }
        if !self.architectures_dropped.is_empty() || !self.architectures_too_new.is_empty() {
            out.blank();
            out.plain("GPUs this driver does not drive");
            let mut rows = Vec::new();
            for (why, list) in [
                ("last branch", &self.architectures_dropped),
                ("needs", &self.architectures_too_new),
            ] {
                for a in list {
                    let c = out.cite(&a.kb);
                    rows.push(vec![
                        a.architecture.clone(),
                        ccs(&a.compute_capabilities),
                        format!("{why} {}", a.driver),
                        c,
                    ]);
                }
            }
            out.table(rows);
        }
        for n in &self.notes {
            out.kv("note", n.clone());
        }
    }
}
