//! `db torch VER[+VARIANT]`: a torch release's variants, arch lists and minimum drivers.

use serde::Serialize;

use gpucompat::finding::KbRef;
use gpucompat::kb::{Kb, Semantic};
use gpucompat::version::{ArchTarget, CudaVersion};

use super::text::Text;
use super::{nearest_of, Answer, MinDrivers, Unknown, MINOR_COMPAT_CAVEATS};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// torch version: 2.6.0, or one build: 2.6.0+cu126, 2.6.0+cpu, 2.6.0+rocm6.2.4.
    #[arg(id = "VER", value_name = "VERSION")]
    pub version: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
pub struct TorchAnswer {
    pub query: String,
    pub release: String,
    pub python: Option<String>,
    pub torchvision: Option<String>,
    pub torchaudio: Option<String>,
    /// The variant a plain `pip install torch` gets from PyPI.
    pub default_variant: Option<String>,
    /// The PyPI wheel's variant on other platforms (`linux-aarch64`,
    /// `windows-x86_64`, `macos-arm64`), where known.
    pub platform_defaults: std::collections::BTreeMap<String, String>,
    /// Null when the table does not know the list.
    pub cuda_variants: Option<Vec<String>>,
    pub rocm_variants: Option<Vec<String>>,
    pub note: Option<String>,
    pub kb: KbRef,
    /// One entry per variant asked for (all CUDA variants when none was given).
    pub variants: Vec<Variant>,
    pub minor_compat_caveats: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct Variant {
    pub variant: String,
    /// `cuda`, `cpu`, or `rocm`.
    pub kind: &'static str,
    /// The CUDA the variant was built with; null for cpu / rocm.
    pub cuda: Option<CudaVersion>,
    pub is_default: bool,
    /// SASS (`sm_XY`) and PTX (`compute_XY`) targets; null when unknown.
    pub arch_list: Option<Vec<ArchTarget>>,
    /// `yes`, `no` or `unknown`, as the torch_arch table says.
    pub ptx: Option<String>,
    pub arch_verified: Option<bool>,
    /// Where an unverified arch list comes from (`build scripts`, or `a secondary
    /// copy of the build scripts`); null when verified or unknown.
    pub arch_provenance: Option<&'static str>,
    pub arch_note: Option<String>,
    pub arch_kb: Option<KbRef>,
    /// Minimum drivers per semantic; null for cpu / rocm builds.
    pub min_driver: Option<VariantDrivers>,
}

#[derive(Debug, Serialize)]
pub struct VariantDrivers {
    pub toolkit: MinDrivers,
    pub minor_compat: MinDrivers,
}

fn variant(kb: &Kb, release: &str, v: &str, default: Option<&str>) -> Variant {
    let is_default = default == Some(v);
    if v == "cpu" || v.starts_with("rocm") {
        return Variant {
            variant: v.to_string(),
            kind: if v == "cpu" { "cpu" } else { "rocm" },
            cuda: None,
            is_default,
            arch_list: None,
            ptx: None,
            arch_verified: None,
            arch_provenance: None,
            arch_note: None,
            arch_kb: None,
            min_driver: None,
        };
    }
    let cuda = v.parse::<CudaVersion>().ok();
    let arch = kb.torch_arch(release, v);
    Variant {
        variant: v.to_string(),
        kind: "cuda",
        cuda,
        is_default,
        arch_list: arch.and_then(|a| a.arch_list.clone()),
        ptx: arch.map(|a| a.ptx.clone()),
        arch_verified: arch.map(|a| a.verified),
        arch_provenance: arch
            .filter(|a| a.arch_list.is_some())
            .and_then(|a| a.arch_provenance()),
        arch_note: arch.and_then(|a| a.note.clone()),
        arch_kb: arch.map(|a| a.kb()),
        min_driver: cuda.map(|c| VariantDrivers {
            toolkit: MinDrivers::lookup(kb, &c, Semantic::Toolkit),
            minor_compat: MinDrivers::lookup(kb, &c, Semantic::MinorCompat),
        }),
    }
}

pub fn answer(kb: &Kb, args: &Args) -> Result<TorchAnswer, Unknown> {
    let q = args.version.trim();
    let (release, local) = match q.split_once('+') {
        Some((r, l)) => (r.trim(), Some(l.trim())),
        None => (q, None),
    };
    // `2.8` means the newest 2.8.x the table knows.
    let newest_patch = || {
        let prefix = format!("{release}.");
        kb.torch_releases
            .row
            .iter()
            .filter(|r| release.matches('.').count() == 1 && r.version.starts_with(&prefix))
            .max_by_key(|r| {
                r.version[prefix.len()..]
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|p| p.parse::<u32>().ok())
            })
    };
    let Some(row) = kb.torch_release(release).or_else(newest_patch) else {
        let names: Vec<String> = kb
            .torch_releases
            .row
            .iter()
            .map(|r| r.version.clone())
            .collect();
        return Err(Unknown::new(
            format!("torch {release:?} is not in the torch_releases table"),
            nearest_of(release, &names, 3),
        ));
    };
    let default = row.default_variant.as_deref();
    let wanted: Vec<String> = match local {
        Some(l) => {
            let published =
                |list: &Option<Vec<String>>| list.as_ref().map(|v| v.iter().any(|x| x == l));
            let known = if l == "cpu" {
                Some(true)
            } else if l.starts_with("rocm") {
                published(&row.rocm_variants)
            } else if l.starts_with("cu") && l.parse::<CudaVersion>().is_ok() {
                published(&row.cuda_variants).map(|p| p || default == Some(l))
            } else {
                Some(false)
            };
            if known == Some(false) {
                let mut names: Vec<String> = row.cuda_variants.clone().unwrap_or_default();
                names.extend(row.rocm_variants.clone().unwrap_or_default());
                names.push("cpu".into());
                return Err(Unknown::new(
                    format!("torch {release} has no {l:?} build in the torch_releases table"),
                    nearest_of(l, &names, 3),
                ));
            }
            vec![l.to_string()]
        }
        None => match &row.cuda_variants {
            Some(v) => v.clone(),
            None => default.map(|d| vec![d.to_string()]).unwrap_or_default(),
        },
    };
    let variants = wanted
        .iter()
        .map(|v| variant(kb, &row.version, v, default))
        .collect();
    Ok(TorchAnswer {
        query: args.version.clone(),
        release: row.version.clone(),
        python: row.python.clone(),
        torchvision: row.torchvision.clone(),
        torchaudio: row.torchaudio.clone(),
        default_variant: row.default_variant.clone(),
        platform_defaults: row.platform_defaults.clone().unwrap_or_default(),
        cuda_variants: row.cuda_variants.clone(),
        rocm_variants: row.rocm_variants.clone(),
        note: row.note.clone(),
        kb: row.kb(),
        variants,
        minor_compat_caveats: MINOR_COMPAT_CAVEATS.to_vec(),
    })
}

fn or_unknown(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "unknown".into())
}

fn list(v: &Option<Vec<String>>) -> String {
    match v {
        Some(v) if v.is_empty() => "none".into(),
        Some(v) => v.join(" "),
        None => "unknown".into(),
    }
}

impl Answer for TorchAnswer {
    fn render(&self, out: &mut Text) {
        let c = out.cite(&self.kb);
        out.kv("torch", format!("{}   {c}", self.release));
        out.kv("python", or_unknown(&self.python));
        out.kv("torchvision", or_unknown(&self.torchvision));
        out.kv("torchaudio", or_unknown(&self.torchaudio));
        let pypi = match (&self.default_variant, self.platform_defaults.is_empty()) {
            (Some(d), false) => format!("{d} (linux-x86_64)"),
            _ => or_unknown(&self.default_variant).to_string(),
        };
        out.kv("PyPI default", pypi);
        for (platform, v) in &self.platform_defaults {
            out.kv(format!("  on {platform}"), v);
        }
        out.kv("CUDA variants", list(&self.cuda_variants));
        out.kv("ROCm variants", list(&self.rocm_variants));
        for v in &self.variants {
            out.blank();
            let head = match (&v.cuda, v.kind) {
                (Some(c), _) => format!("{} (CUDA {c})", v.variant),
                (None, "cpu") => format!("{} (CPU only: no CUDA, no driver needed)", v.variant),
                (None, "rocm") => format!("{} (AMD ROCm: no NVIDIA driver involved)", v.variant),
                _ => v.variant.clone(),
            };
            let head = if v.is_default {
                format!("{head}, the PyPI default")
            } else {
                head
            };
            out.plain(head);
            if v.kind != "cuda" {
                continue;
            }
            let arch = match &v.arch_list {
                Some(l) => l
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                None => "unknown".into(),
            };
            let arch = match &v.arch_kb {
                Some(k) => format!("{arch}   {}", out.cite(k)),
                None => format!("{arch} (no torch_arch row)"),
            };
            out.sub("arch list", arch);
            out.sub("PTX", or_unknown(&v.ptx));
            if let Some(ver) = v.arch_verified {
                out.sub(
                    "verified",
                    match (ver, v.arch_provenance) {
                        (true, _) => "yes (read from a published wheel)".to_string(),
                        (false, Some(p)) => format!("no (from {p})"),
                        (false, None) => "no".to_string(),
                    },
                );
            }
            if let Some(d) = &v.min_driver {
                let t = d.toolkit.line(out);
                out.sub("min driver, toolkit", t);
                let m = d.minor_compat.line(out);
                out.sub("min driver, minor_compat", m);
            }
        }
        if self
            .variants
            .iter()
            .any(|v| v.cuda.is_some_and(|c| c.major >= 11))
        {
            out.blank();
            out.plain("minor_compat caveats");
            for c in &self.minor_compat_caveats {
                out.sub("caveat", *c);
            }
        }
    }
}
