//! `db cuda VER`: a CUDA version in any spelling, its minimum drivers and nvcc targets.

use serde::Serialize;

use gpucompat::finding::KbRef;
use gpucompat::kb::{Kb, Semantic};
use gpucompat::version::{ComputeCapability, CudaVersion, DriverVersion};

use super::text::Text;
use super::{nearest_of, show_driver, Answer, MinDrivers, Unknown, MINOR_COMPAT_CAVEATS};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// CUDA version: 12.4, 12.4.1, 12040, cu124, V12.4.131 (nvcc), 12.4.127 (runtime wheel).
    #[arg(id = "VER", value_name = "VERSION")]
    pub version: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct CudaAnswer {
    pub query: String,
    /// How the input was read: `major.minor`, `toolkit release`, `component version`,
    /// `integer`, `wheel tag`, `nvcc release`.
    pub spelling: &'static str,
    /// The CUDA version (major.minor) the input names.
    pub cuda: CudaVersion,
    /// The exact toolkit release the input names, when it names one.
    pub release: Option<CudaVersion>,
    pub spellings: Spellings,
    /// Every toolkit release of this version, with the drivers shipped with it.
    pub toolkit_releases: Vec<Release>,
    pub min_driver: MinDriverBySemantic,
    /// The SM targets nvcc of this version compiles for; null when unknown.
    pub nvcc_targets: Option<NvccTargets>,
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct Spellings {
    pub version: String,
    /// cuDriverGetVersion / cudaRuntimeGetVersion / NVML form.
    pub integer: u32,
    /// PyTorch wheel tag.
    pub wheel_tag: String,
}

#[derive(Debug, Serialize)]
pub struct Release {
    pub version: CudaVersion,
    pub linux_driver: Option<DriverVersion>,
    pub windows_driver: Option<DriverVersion>,
    pub note: Option<String>,
    pub kb: KbRef,
}

#[derive(Debug, Serialize)]
pub struct MinDriverBySemantic {
    /// The driver shipped with the toolkit: every feature works.
    pub toolkit: MinDrivers,
    /// The family floor of minor-version compatibility (CUDA 11 on), with caveats.
    pub minor_compat: MinDrivers,
    pub minor_compat_caveats: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct NvccTargets {
    pub min_sm: Option<ComputeCapability>,
    pub max_sm: Option<ComputeCapability>,
    /// Every target; null when the table does not list them.
    pub targets: Option<Vec<ComputeCapability>>,
    pub added: Option<Vec<String>>,
    pub removed: Option<Vec<String>>,
    pub note: Option<String>,
    pub kb: KbRef,
}

fn spelling(input: &str, kb: &Kb, v: &CudaVersion) -> &'static str {
    let s = input.trim();
    let s = ["CUDA", "cuda"]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .map_or(s, str::trim_start);
    if s.starts_with("cu") {
        "wheel tag"
    } else if s.starts_with(['V', 'v']) {
        "nvcc release"
    } else if !s.contains('.') {
        "integer"
    } else if v.patch.is_none() {
        "major.minor"
    } else if kb.cuda_toolkits.row.iter().any(|r| r.version == *v) {
        "toolkit release"
    } else {
        "component version"
    }
}

fn sm(c: &Option<ComputeCapability>) -> String {
    c.map_or("unknown".into(), |c| c.sm())
}

pub fn answer(kb: &Kb, args: &Args) -> Result<CudaAnswer, Unknown> {
    let mut known: Vec<CudaVersion> = kb
        .cuda_toolkits
        .row
        .iter()
        .map(|r| r.version.major_minor())
        .collect();
    known.sort();
    known.dedup();
    let parsed = args.version.parse::<CudaVersion>().map_err(|e| {
        let names: Vec<String> = known.iter().map(|v| v.to_string()).collect();
        let nearest = if args.version.chars().any(|c| c.is_ascii_digit()) {
            nearest_of(&args.version, &names, 3)
        } else {
            vec![]
        };
        Unknown::new(e.to_string(), nearest).accepting(&[
            "12.4",
            "12.4.1",
            "12040",
            "cu124",
            "V12.4.131",
            "12.4.127",
        ])
    })?;
    let cuda = parsed.major_minor();
    if !known.contains(&cuda) {
        let below = known.iter().rev().find(|v| **v < cuda);
        let above = known.iter().find(|v| **v > cuda);
        return Err(Unknown::new(
            format!("CUDA {cuda} is not a release in the cuda_toolkits table"),
            below
                .into_iter()
                .chain(above)
                .map(|v| v.to_string())
                .collect(),
        ));
    }
    let spelling = spelling(&args.version, kb, &parsed);
    let release = kb
        .cuda_toolkits
        .row
        .iter()
        .find(|r| parsed.patch.is_some() && r.version == parsed)
        .map(|r| r.version);
    let mut notes = Vec::new();
    match spelling {
        "integer" => notes.push(format!(
            "the integer form is 1000*major + 10*minor: it does not say which {cuda} release; drivers are those of the first"
        )),
        "nvcc release" | "component version" if release.is_none() => notes.push(format!(
            "{parsed} is a component build number, not a toolkit release: drivers are those of the first {cuda} release"
        )),
        _ => {}
    }
    if cuda.major < 11 {
        notes.push(
            "no minor-version compatibility before CUDA 11: both semantics need the toolkit's driver"
                .into(),
        );
    }
    let query_v = release.unwrap_or(cuda);
    let toolkit_releases = kb
        .cuda_toolkits
        .row
        .iter()
        .filter(|r| r.version.major_minor() == cuda)
        .map(|r| Release {
            version: r.version,
            linux_driver: r.linux_driver.clone(),
            windows_driver: r.windows_driver.clone(),
            note: r.note.clone(),
            kb: r.kb(),
        })
        .collect();
    let nvcc_targets = kb.nvcc_targets(&cuda).map(|r| NvccTargets {
        min_sm: r.min_sm,
        max_sm: r.max_sm,
        targets: r.targets.clone(),
        added: r.added.clone(),
        removed: r.removed.clone(),
        note: r.note.clone(),
        kb: r.kb(),
    });
    Ok(CudaAnswer {
        query: args.version.clone(),
        spelling,
        cuda,
        release,
        spellings: Spellings {
            version: cuda.to_string(),
            integer: cuda.to_int(),
            wheel_tag: cuda.wheel_tag(),
        },
        toolkit_releases,
        min_driver: MinDriverBySemantic {
            toolkit: MinDrivers::lookup(kb, &query_v, Semantic::Toolkit),
            minor_compat: MinDrivers::lookup(kb, &query_v, Semantic::MinorCompat),
            minor_compat_caveats: MINOR_COMPAT_CAVEATS.to_vec(),
        },
        nvcc_targets,
        notes,
    })
}

impl Answer for CudaAnswer {
    fn render(&self, out: &mut Text) {
        let what = match self.release {
            Some(r) => format!("{} (toolkit release {r})", self.cuda),
            None => self.cuda.to_string(),
        };
        out.kv("CUDA", what);
        out.kv(
            "read as",
            format!("{} {:?}", self.spelling, self.query.trim()),
        );
        out.kv(
            "spellings",
            format!(
                "{}  {}  {}",
                self.spellings.version, self.spellings.integer, self.spellings.wheel_tag
            ),
        );
        out.blank();
        out.plain("minimum driver");
        let t = self.min_driver.toolkit.line(out);
        out.sub("toolkit", t);
        let m = self.min_driver.minor_compat.line(out);
        out.sub("minor_compat", m);
        if self.cuda.major >= 11 {
            for c in &self.min_driver.minor_compat_caveats {
                out.sub("caveat", *c);
            }
        }
        out.blank();
        out.plain("toolkit releases");
        let mut rows = Vec::new();
        for r in &self.toolkit_releases {
            let d = |d: &Option<DriverVersion>| d.as_ref().map_or("unknown".into(), show_driver);
            let c = out.cite(&r.kb);
            rows.push(vec![
                r.version.to_string(),
                format!("Linux {}", d(&r.linux_driver)),
                format!("Windows {}", d(&r.windows_driver)),
                c,
            ]);
        }
        out.table(rows);
        out.blank();
        match &self.nvcc_targets {
            Some(n) => {
                let c = out.cite(&n.kb);
                out.kv(
                    "nvcc targets",
                    format!("{} to {}   {c}", sm(&n.min_sm), sm(&n.max_sm)),
                );
                let list = |v: &Option<Vec<String>>| match v {
                    Some(v) if !v.is_empty() => Some(v.join(" ")),
                    _ => None,
                };
                match &n.targets {
                    Some(t) => out.sub(
                        "all",
                        t.iter().map(|c| c.sm()).collect::<Vec<_>>().join(" "),
                    ),
                    None => out.sub("all", "unknown"),
                }
                if let Some(a) = list(&n.added) {
                    out.sub("added", a);
                }
                if let Some(r) = list(&n.removed) {
                    out.sub("removed", r);
                }
            }
            None => out.kv("nvcc targets", "unknown"),
        }
        for n in &self.notes {
            out.kv("note", n.clone());
        }
    }
}
