//! Typed questions to the knowledge base. Every answer carries the row it
//! came from (as a [`KbRef`]) so findings can show it.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::arch::{kernels_for, KernelMatch};
use super::tables::*;
use super::Kb;
use crate::finding::KbRef;
use crate::inventory::OsKind;
use crate::version::{ArchTarget, ComputeCapability, CudaVersion, DriverVersion};

/// Which compatibility semantic a driver minimum follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Semantic {
    /// The driver that shipped with that toolkit: every feature works, no caveats.
    Toolkit,
    /// CUDA minor-version compatibility (11.x and later): runs on an older
    /// driver of the same major at or above the floor, with a limited feature
    /// set and no PTX JIT of newer PTX.
    MinorCompat,
}

impl Semantic {
    pub fn as_str(&self) -> &'static str {
        match self {
            Semantic::Toolkit => "toolkit",
            Semantic::MinorCompat => "minor_compat",
        }
    }
}

/// A driver's newest supported CUDA according to the toolkit table.
#[derive(Debug, Clone, Serialize)]
pub struct DriverCuda {
    pub max_cuda: CudaVersion,
    /// The driver is newer than every toolkit driver the table knows, so
    /// the real maximum may be higher.
    pub at_least: bool,
    pub kb: KbRef,
}

/// A minimum driver for a CUDA version under one semantic.
#[derive(Debug, Clone, Serialize)]
pub struct MinDriver {
    pub driver: DriverVersion,
    pub semantic: Semantic,
    pub kb: KbRef,
}

/// Result of looking a GPU up by name.
#[derive(Debug, Clone)]
pub enum GpuLookup<'a> {
    Found(&'a GpuRow),
    /// Several rows fit the name (e.g. "A100"): never pick one silently.
    Ambiguous(Vec<&'a GpuRow>),
    NotFound {
        nearest: Vec<&'a str>,
    },
}

/// A torch wheel identified by its version string.
#[derive(Debug, Clone, Serialize)]
pub struct TorchBuildInfo<'a> {
    /// `2.5.1`
    pub release: String,
    /// `cu124`, `cpu`, `rocm6.1`; None when the variant can't be told.
    pub variant: Option<String>,
    /// The CUDA the variant was built with; None for cpu / rocm / unknown.
    pub cuda: Option<CudaVersion>,
    /// True when the variant came from the release's PyPI default, not the version string.
    pub variant_from_default: bool,
    #[serde(skip)]
    pub release_row: Option<&'a TorchReleaseRow>,
    #[serde(skip)]
    pub arch_row: Option<&'a TorchArchRow>,
}

impl TorchBuildInfo<'_> {
    /// The SASS/PTX list of this build, when the table knows it.
    pub fn arch_list(&self) -> Option<&[ArchTarget]> {
        self.arch_row.and_then(|r| r.arch_list.as_deref())
    }
    pub fn is_cpu(&self) -> bool {
        self.variant.as_deref() == Some("cpu")
    }
    pub fn is_rocm(&self) -> bool {
        self.variant
            .as_deref()
            .is_some_and(|v| v.starts_with("rocm"))
    }
}

fn kbref(table: &str, row: impl ToString, source: &str) -> KbRef {
    KbRef {
        table: table.to_string(),
        row: row.to_string(),
        source: source.to_string(),
    }
}

impl ToolkitRow {
    pub fn kb(&self) -> KbRef {
        kbref("cuda_toolkits", self.version, &self.source)
    }
    pub fn driver(&self, os: OsKind) -> Option<&DriverVersion> {
        match os {
            OsKind::Windows => self.windows_driver.as_ref(),
            _ => self.linux_driver.as_ref(),
        }
    }
}
impl MinorCompatRow {
    pub fn kb(&self) -> KbRef {
        kbref(
            "minor_compat",
            format!("{}-{}", self.cuda_min, self.cuda_max),
            &self.source,
        )
    }
}
impl GpuRow {
    pub fn kb(&self) -> KbRef {
        kbref("gpus", &self.name, &self.source)
    }
}
impl ArchitectureRow {
    pub fn kb(&self) -> KbRef {
        let ccs: Vec<String> = self
            .compute_capabilities
            .iter()
            .map(|c| c.to_string())
            .collect();
        let row = if ccs.is_empty() {
            self.name.clone()
        } else {
            format!("{} ({})", self.name, ccs.join(" "))
        };
        kbref("architectures", row, &self.source)
    }
}
impl TorchReleaseRow {
    pub fn kb(&self) -> KbRef {
        kbref("torch_releases", &self.version, &self.source)
    }
}
impl TorchArchRow {
    pub fn kb(&self) -> KbRef {
        kbref(
            "torch_arch",
            format!("{}-{} {}", self.torch_min, self.torch_max, self.variant),
            &self.source,
        )
    }
}
impl DriverBranchRow {
    pub fn kb(&self) -> KbRef {
        kbref("driver_branches", format!("R{}", self.branch), &self.source)
    }
}
impl OnnxruntimeRow {
    pub fn kb(&self) -> KbRef {
        kbref("onnxruntime", &self.version, &self.source)
    }
}
impl TensorflowRow {
    pub fn kb(&self) -> KbRef {
        kbref("tensorflow", &self.version, &self.source)
    }
}
impl CudnnRow {
    pub fn kb(&self) -> KbRef {
        kbref(
            "cudnn",
            format!(
                "{}-{} cuda{}",
                self.version_min, self.version_max, self.cuda_major
            ),
            &self.source,
        )
    }
}
impl TensorrtRow {
    pub fn kb(&self) -> KbRef {
        kbref(
            "tensorrt",
            format!("{}-{}", self.version_min, self.version_max),
            &self.source,
        )
    }
}
impl CudaImageRow {
    pub fn kb(&self) -> KbRef {
        kbref("cuda_images", self.cuda, &self.source)
    }
}
impl MigRow {
    pub fn kb(&self) -> KbRef {
        kbref("mig", &self.gpu, &self.source)
    }
}
impl NvccTargetsRow {
    pub fn kb(&self) -> KbRef {
        kbref("nvcc_targets", self.cuda, &self.source)
    }

    /// Whether this toolkit's nvcc targets a compute capability (its SASS):
    /// false when a known end of its range excludes it, None when an end
    /// that would decide is unknown.
    pub fn targets(&self, cc: &ComputeCapability) -> Option<bool> {
        let c = cc.plain();
        let above = self.max_sm.as_ref().map(|m| c > m.plain());
        let below = self.min_sm.as_ref().map(|m| c < m.plain());
        match (above, below) {
            (Some(true), _) | (_, Some(true)) => Some(false),
            (Some(false), Some(false)) => Some(true),
            _ => None,
        }
    }
}

/// A driver satisfies a table minimum. Branch-only minimums (`R615`, `580`)
/// compare on the branch alone, and so does a driver known only by its branch
/// (`driver 470` in a report): it meets what the branch's releases meet.
pub fn driver_meets(driver: &DriverVersion, min: &DriverVersion) -> bool {
    if min.is_branch_only() || driver.is_branch_only() {
        driver.branch() >= min.branch()
    } else {
        driver >= min
    }
}

/// The platform of the torch wheels that `Kb::torch_arch` answers for.
pub const TORCH_ARCH_DEFAULT_PLATFORM: &str = "linux-x86_64";

/// The platforms a `torch_arch` row may name.
pub const TORCH_ARCH_PLATFORMS: [&str; 3] = ["linux-x86_64", "linux-aarch64", "windows-x86_64"];

/// `(major, minor)` of a dotted version string (`2.10.1+cu128` → (2, 10)).
pub fn series(v: &str) -> Option<(u32, u32)> {
    let v = v.split('+').next()?;
    let mut it = v.split('.');
    let a = it.next()?.trim().parse().ok()?;
    let b = it.next()?.trim().parse().ok()?;
    Some((a, b))
}

/// `"3.9-3.12"`, `"3.9-3.13, 3.13t"`, `">=3.10"`: does it include `py`?
pub fn python_in(spec: &str, py: &str) -> Option<bool> {
    let free_threaded = py.trim().ends_with('t');
    let want = series(py.trim().trim_end_matches('t'))?;
    let mut any = false;
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if item.ends_with('t') != free_threaded {
            continue;
        }
        let item = item.trim_end_matches('t');
        let hit = if let Some(lo) = item.strip_prefix(">=") {
            series(lo)? <= want
        } else if let Some((lo, hi)) = item.split_once('-') {
            series(lo)? <= want && want <= series(hi)?
        } else {
            series(item)? == want
        };
        any |= hit;
    }
    Some(any)
}

/// Numeric comparison key of a dotted version (`1.19.2` → [1, 19, 2]); pre-release tails are ignored.
pub fn version_key(v: &str) -> Vec<u32> {
    v.split('+')
        .next()
        .unwrap_or("")
        .split('.')
        .map(|p| {
            let digits: String = p.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().unwrap_or(0)
        })
        .collect()
}

pub fn cmp_versions(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut ka, mut kb) = (version_key(a), version_key(b));
    let n = ka.len().max(kb.len());
    ka.resize(n, 0);
    kb.resize(n, 0);
    ka.cmp(&kb)
}

/// Brand words that do not tell parts apart. "Tegra" is how Jetson boards
/// name their GPU ("NVIDIA Tegra X1"; Vulkan: "NVIDIA Tegra Orin (nvgpu)").
const NOISE: [&str; 4] = ["nvidia", "geforce", "tesla", "tegra"];

/// The words of a GPU name that tell parts apart, in order: lowercase, no
/// punctuation, without the [`NOISE`] words.
fn plain_words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty() && !NOISE.contains(t))
        .map(|t| t.to_string())
        .collect()
}

/// The GPU names closest to `query`, compared without the noise words and
/// also with spaces removed (so `rtx5090` is next to `RTX 5090`).
fn nearest_gpus<'a>(query: &str, rows: &'a [GpuRow], n: usize) -> Vec<&'a str> {
    let qw = plain_words(query);
    let (qs, qg) = (qw.join(" "), qw.concat());
    let mut scored: Vec<(usize, &str)> = rows
        .iter()
        .map(|r| {
            let w = plain_words(&r.name);
            let (s, g) = (w.join(" "), w.concat());
            let d = if !qg.is_empty() && g.contains(&qg) {
                0
            } else {
                edit_distance(&qs, &s).min(edit_distance(&qg, &g))
            };
            (d, r.name.as_str())
        })
        .collect();
    scored.sort();
    scored.into_iter().take(n).map(|(_, s)| s).collect()
}

/// Product-line words: a name that says one line ("GeForce 210") is never
/// a row of another ("Tesla ...", "Quadro ...", "CMP ...").
const LINES: [&str; 8] = [
    "geforce", "quadro", "tesla", "titan", "grid", "cmp", "nvs", "jetson",
];

fn lines_of(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| LINES.contains(t))
        .map(str::to_string)
        .collect()
}

/// The word that names the model: the first word with a digit in it, read
/// after the brand words ("210" in "GeForce 210", "pg509" in "PG509-210",
/// "100" in "CMP 100-210", "a100" in "A100-SXM4-40GB").
fn model_word(words: &[String]) -> Option<&str> {
    words
        .iter()
        .find(|w| w.chars().any(|c| c.is_ascii_digit()))
        .map(String::as_str)
}

/// A GPU name split the ways a lookup compares it.
#[derive(Debug)]
pub(crate) struct NameKey {
    /// [`plain_words`], sorted (as [`normalize_tokens`]).
    tokens: Vec<String>,
    /// [`plain_words`] run together.
    glued: String,
    /// [`lines_of`]: the product-line words.
    lines: Vec<String>,
    /// [`model_word`] of [`plain_words`].
    model: Option<String>,
}

impl NameKey {
    fn new(name: &str) -> NameKey {
        let words = plain_words(name);
        let mut tokens = words.clone();
        tokens.sort();
        NameKey {
            tokens,
            glued: words.concat(),
            lines: lines_of(name),
            model: model_word(&words).map(str::to_string),
        }
    }

    /// Whether a reported name and a row name are of one product line (or
    /// either names none).
    fn same_line(&self, row: &NameKey) -> bool {
        self.lines.is_empty()
            || row.lines.is_empty()
            || self.lines.iter().any(|l| row.lines.contains(l))
    }

    /// Whether a row that holds every word of a reported name can be that
    /// part: same product line, and the same model word when both have one.
    /// A number shared with a board's suffix ("GeForce 210" and "PG509-210")
    /// does not make them one part.
    fn same_part(&self, row: &NameKey) -> bool {
        self.same_line(row)
            && match (&self.model, &row.model) {
                (Some(q), Some(r)) => q == r,
                _ => true,
            }
    }
}

/// The GPU rows' [`NameKey`]s, built on first use.
#[derive(Default)]
pub(crate) struct GpuKeys(OnceLock<Vec<NameKey>>);

impl Clone for GpuKeys {
    /// A copy starts empty: its rows may be changed before its first lookup.
    fn clone(&self) -> Self {
        GpuKeys::default()
    }
}

impl std::fmt::Debug for GpuKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GpuKeys")
    }
}

/// [`plain_words`], sorted: the words compared as a set.
fn normalize_tokens(name: &str) -> Vec<String> {
    let mut toks = plain_words(name);
    toks.sort();
    toks
}

/// A GPU name without what a partition or a driver appends to the board's
/// own name: a MIG instance profile ("NVIDIA A100-SXM4-40GB MIG 1g.5gb"), a
/// vGPU profile ("NVIDIA A10-24Q") or the Tegra Vulkan driver's " (nvgpu)".
/// `None` when there is nothing to take off.
fn undecorated(name: &str) -> Option<String> {
    static MIG: OnceLock<Regex> = OnceLock::new();
    static VGPU: OnceLock<Regex> = OnceLock::new();
    static NVGPU: OnceLock<Regex> = OnceLock::new();
    let mig = MIG.get_or_init(|| {
        Regex::new(r"(?i)\s+MIG\s+\d+g\.\d+gb(?:[+-][a-z]+)*\s*$").expect("MIG profile pattern")
    });
    let vgpu = VGPU.get_or_init(|| Regex::new(r"-\d+[ABCQ]\s*$").expect("vGPU profile pattern"));
    let nvgpu = NVGPU.get_or_init(|| Regex::new(r"(?i)\s*\(nvgpu\)\s*$").expect("nvgpu pattern"));
    let mut bare = mig.replace(name.trim(), "").into_owned();
    let board = vgpu.replace(&bare, "").into_owned();
    if board != bare {
        // A vGPU on a datacenter board is "GRID <board>-<profile>" ("GRID P4-1Q").
        bare = board
            .strip_prefix("GRID ")
            .map_or(board.clone(), str::to_string);
    }
    bare = nvgpu.replace(&bare, "").into_owned();
    (bare != name.trim() && !bare.is_empty()).then_some(bare)
}

/// A typed name with its memory after it ("GTX 1080 8GB", "RTX 3060 (12 GB)",
/// "RTX 3090 24GB VRAM"), without it. Tried last: names nvidia-smi prints
/// with their memory ("NVIDIA H100 80GB HBM3") are found whole.
fn without_typed_memory(name: &str) -> Option<String> {
    static MEMORY: OnceLock<Regex> = OnceLock::new();
    let memory = MEMORY.get_or_init(|| {
        Regex::new(r"(?i)\s+\(?\d{1,3}\s?GB\)?(?:\s+(?:VRAM|GDDR\dX?))?\s*$")
            .expect("memory suffix pattern")
    });
    let bare = memory.replace(name.trim(), "").into_owned();
    (bare != name.trim() && !bare.is_empty()).then_some(bare)
}

/// Levenshtein distance, for "did you mean".
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The `n` names closest to `query` (case-insensitive edit distance).
pub fn nearest<'a>(query: &str, names: impl Iterator<Item = &'a str>, n: usize) -> Vec<&'a str> {
    let q = query.to_lowercase();
    let mut scored: Vec<(usize, &str)> = names
        .map(|name| {
            let l = name.to_lowercase();
            let d = if l.contains(&q) {
                0
            } else {
                edit_distance(&q, &l)
            };
            (d, name)
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(n).map(|(_, s)| s).collect()
}

impl Kb {
    /// The newest CUDA a driver runs with no caveats: the newest toolkit whose
    /// bundled driver is not newer than this one.
    pub fn max_cuda_for_driver(&self, driver: &DriverVersion, os: OsKind) -> Option<DriverCuda> {
        let rows = &self.cuda_toolkits.row;
        let row = rows
            .iter()
            .filter(|r| r.driver(os).is_some_and(|min| driver_meets(driver, min)))
            .max_by_key(|r| r.version)?;
        let max = row.version.major_minor();
        // The answer is a lower bound only when a newer CUDA version, older
        // than the next one whose (unmet) driver is known, has no known driver
        // for this OS at all, and this driver is on a newer branch than the row.
        let known = |v: CudaVersion| {
            rows.iter()
                .any(|r| r.version.major_minor() == v && r.driver(os).is_some())
        };
        let next_known = rows
            .iter()
            .map(|r| r.version.major_minor())
            .filter(|&v| v > max && known(v))
            .min();
        let unknown_between = rows
            .iter()
            .map(|r| r.version.major_minor())
            .any(|v| v > max && next_known.map_or(true, |n| v < n) && !known(v));
        let past_table = row
            .driver(os)
            .is_some_and(|min| driver.branch() > min.branch());
        Some(DriverCuda {
            max_cuda: max,
            at_least: unknown_between && past_table,
            kb: row.kb(),
        })
    }

    /// The first toolkit release of a CUDA version (`12.4` → 12.4.0; `12.4.1` → that release).
    pub fn toolkit(&self, cuda: &CudaVersion) -> Option<&ToolkitRow> {
        let rows = self.cuda_toolkits.row.iter();
        match cuda.patch {
            Some(_) => rows
                .clone()
                .find(|r| r.version == *cuda)
                .or_else(|| self.toolkit(&cuda.major_minor())),
            None => rows
                .filter(|r| r.version.major_minor() == *cuda)
                .min_by_key(|r| r.version),
        }
    }

    /// The minor-version-compatibility row covering a CUDA version (11.0 and later).
    pub fn minor_compat(&self, cuda: &CudaVersion) -> Option<&MinorCompatRow> {
        let mm = cuda.major_minor();
        self.minor_compat
            .row
            .iter()
            .find(|r| r.cuda_min.major_minor() <= mm && mm <= r.cuda_max.major_minor())
    }

    /// The lowest driver that runs CUDA `cuda` under `semantic`. Before CUDA 11
    /// there is no minor-version compatibility, so both semantics give the toolkit driver.
    pub fn min_driver_for_cuda(
        &self,
        cuda: &CudaVersion,
        os: OsKind,
        semantic: Semantic,
    ) -> Option<MinDriver> {
        if semantic == Semantic::MinorCompat {
            if let Some(r) = self.minor_compat(cuda) {
                let d = match os {
                    OsKind::Windows => r.min_windows.clone(),
                    _ => r.min_linux.clone(),
                }?;
                return Some(MinDriver {
                    driver: d,
                    semantic,
                    kb: r.kb(),
                });
            }
            if cuda.major >= 11 {
                return None;
            }
        }
        let row = self.toolkit(cuda)?;
        // A first release with no driver in the table (the 13.4.0 developer
        // preview) leaves the version to the first release that names one.
        let exact_release = cuda.patch.is_some() && row.version == *cuda;
        let row = if row.driver(os).is_none() && !exact_release {
            let mm = cuda.major_minor();
            self.cuda_toolkits
                .row
                .iter()
                .filter(|r| r.version.major_minor() == mm && r.driver(os).is_some())
                .min_by_key(|r| r.version)?
        } else {
            row
        };
        Some(MinDriver {
            driver: row.driver(os)?.clone(),
            semantic,
            kb: row.kb(),
        })
    }

    /// Look a GPU up by the name `nvidia-smi` prints, forgivingly: case,
    /// punctuation and the "NVIDIA"/"GeForce"/"Tesla" words don't matter, but
    /// every other word does, so "RTX 5090" never matches "RTX 5090 D" or a Laptop GPU.
    /// A name that says its product line ("GeForce 210") is not offered a row
    /// of another line, nor one whose model word differs ("PG509-210").
    pub fn gpu(&self, name: &str) -> GpuLookup<'_> {
        self.gpu_candidates(name)
            .unwrap_or_else(|| GpuLookup::NotFound {
                nearest: nearest_gpus(name, &self.gpus.row, 5),
            })
    }

    fn gpu_candidates(&self, name: &str) -> Option<GpuLookup<'_>> {
        let full = self.gpu_candidates_as_given(name);
        if matches!(full, Some(GpuLookup::Found(_))) {
            return full;
        }
        // A MIG instance, a vGPU profile or a Vulkan-decorated Tegra name
        // is the board it runs on.
        for bare in [undecorated(name), without_typed_memory(name)]
            .into_iter()
            .flatten()
        {
            if let Some(found @ GpuLookup::Found(_)) = self.gpu_candidates_as_given(&bare) {
                return Some(found);
            }
        }
        full
    }

    fn gpu_candidates_as_given(&self, name: &str) -> Option<GpuLookup<'_>> {
        let rows = &self.gpus.row;
        // Two rows of the same name (a `--kb` table may have them) decide nothing.
        let same: Vec<&GpuRow> = rows
            .iter()
            .filter(|r| r.name.eq_ignore_ascii_case(name.trim()))
            .collect();
        match same.len() {
            1 => return Some(GpuLookup::Found(same[0])),
            n if n > 1 => return Some(GpuLookup::Ambiguous(same)),
            _ => {}
        }
        let q = NameKey::new(name);
        if q.tokens.is_empty() {
            return Some(GpuLookup::NotFound { nearest: vec![] });
        }
        let key_rows = || {
            rows.iter()
                .map(|r| NameKey::new(&r.name))
                .collect::<Vec<_>>()
        };
        let built;
        let keys: &[NameKey] = match self.gpu_keys.0.get_or_init(key_rows) {
            k if k.len() == rows.len() => k,
            // Rows changed after the keys were built: key them afresh.
            _ => {
                built = key_rows();
                &built
            }
        };
        let keyed = || rows.iter().zip(keys);
        let exact: Vec<&GpuRow> = keyed()
            .filter(|(_, k)| k.tokens == q.tokens && q.same_line(k))
            .map(|(r, _)| r)
            .collect();
        match exact.len() {
            1 => return Some(GpuLookup::Found(exact[0])),
            n if n > 1 => return Some(GpuLookup::Ambiguous(exact)),
            _ => {}
        }
        // The same words run together ("rtx5090", "A100-SXM4-80GB" typed as "a100sxm480gb").
        let same_glued: Vec<&GpuRow> = keyed()
            .filter(|(_, k)| k.glued == q.glued && q.same_line(k))
            .map(|(r, _)| r)
            .collect();
        if let [one] = same_glued.as_slice() {
            return Some(GpuLookup::Found(one));
        }
        let containing: Vec<&GpuRow> = keyed()
            .filter(|(_, k)| q.tokens.iter().all(|w| k.tokens.contains(w)) && q.same_part(k))
            .map(|(r, _)| r)
            .collect();
        if !containing.is_empty() {
            return Some(GpuLookup::Ambiguous(containing));
        }
        None
    }

    /// [`Kb::gpu`] without the "did you mean" list on a miss, for callers that
    /// only want the row (probes, parsers, rules): a miss then costs no edit
    /// distance against every row.
    pub fn gpu_match(&self, name: &str) -> GpuLookup<'_> {
        match self.gpu_candidates(name) {
            Some(found) => found,
            None => GpuLookup::NotFound { nearest: vec![] },
        }
    }

    /// The GPU row for a PCI device id (`0x2684`).
    pub fn gpu_by_pci_id(&self, device_id: &str) -> Option<&GpuRow> {
        let id = device_id.trim().to_lowercase();
        let id = id.strip_prefix("0x").unwrap_or(&id);
        self.gpus.row.iter().find(|r| {
            r.pci_ids()
                .any(|p| p.to_lowercase().trim_start_matches("0x") == id)
        })
    }

    /// The architecture a compute capability belongs to.
    pub fn architecture(&self, cc: ComputeCapability) -> Option<&ArchitectureRow> {
        let cc = cc.plain();
        self.architectures
            .row
            .iter()
            .find(|r| r.compute_capabilities.contains(&cc))
    }

    /// Integrated (Tegra) GPUs follow their own binary-compatibility rule.
    /// A row may be discrete except for a few Tegra CCs (5.3 in Maxwell).
    pub fn is_integrated(&self, cc: ComputeCapability) -> bool {
        let cc = cc.plain();
        self.architecture(cc).is_some_and(|a| {
            a.integrated || a.integrated_ccs.as_ref().is_some_and(|l| l.contains(&cc))
        })
    }

    /// `kernels_for` with the integrated flag taken from the architecture table.
    pub fn kernels_for_gpu(&self, list: &[ArchTarget], cc: ComputeCapability) -> KernelMatch {
        kernels_for(list, cc, self.is_integrated(cc))
    }

    pub fn driver_branch(&self, branch: u32) -> Option<&DriverBranchRow> {
        self.driver_branches.row.iter().find(|r| r.branch == branch)
    }

    pub fn torch_release(&self, version: &str) -> Option<&TorchReleaseRow> {
        let base = version.split('+').next().unwrap_or(version).trim();
        self.torch_releases.row.iter().find(|r| r.version == base)
    }

    /// The arch-list row for a torch release series and variant of the Linux x86_64 wheels,
    /// the build every verdict without a platform of its own is about.
    pub fn torch_arch(&self, version: &str, variant: &str) -> Option<&TorchArchRow> {
        self.torch_arch_on(version, variant, TORCH_ARCH_DEFAULT_PLATFORM)
    }

    /// The arch-list row for a torch release series and variant built for `platform`
    /// (`linux-x86_64`, `linux-aarch64`, `windows-x86_64`). A row of one platform never
    /// answers for another: the aarch64 (SBSA) wheels carry a shorter list than x86_64.
    pub fn torch_arch_on(
        &self,
        version: &str,
        variant: &str,
        platform: &str,
    ) -> Option<&TorchArchRow> {
        let s = series(version)?;
        self.torch_arch.row.iter().find(|r| {
            r.variant == variant
                && r.platform == platform
                && series(&r.torch_min).is_some_and(|lo| lo <= s)
                && series(&r.torch_max).is_some_and(|hi| s <= hi)
        })
    }

    /// What a bare version of `release` is on `platform` (`linux-x86_64`,
    /// `linux-aarch64`, `windows-x86_64`, `macos-arm64`): the variant of the
    /// PyPI wheel built for it, when known.
    pub fn torch_default_on(&self, release: &str, platform: &str) -> Option<&str> {
        let row = self.torch_release(release)?;
        if platform == "linux-x86_64" {
            return row.default_variant.as_deref();
        }
        row.platform_defaults
            .as_ref()?
            .get(platform)
            .map(String::as_str)
    }

    /// What a torch version string says about its build: `2.5.1+cu124`,
    /// `2.5.1+cpu`, `2.5.1+rocm6.2`, or a bare `2.5.1` (the PyPI default variant).
    pub fn torch_build(&self, version: &str) -> TorchBuildInfo<'_> {
        self.torch_build_on(version, "linux-x86_64")
    }

    /// [`Kb::torch_build`] for a wheel of `platform`: a bare version is the
    /// PyPI wheel of that platform (CPU-only on Windows and macOS, and on
    /// linux-aarch64 before 2.11).
    pub fn torch_build_on(&self, version: &str, platform: &str) -> TorchBuildInfo<'_> {
        let version = version.trim();
        let (release, local) = match version.split_once('+') {
            Some((r, l)) => (r.to_string(), Some(l.to_string())),
            None => (version.to_string(), None),
        };
        let release_row = self.torch_release(&release);
        let (variant, from_default) = match local {
            Some(l) => (Some(l), false),
            None => (
                self.torch_default_on(&release, platform)
                    .map(str::to_string),
                true,
            ),
        };
        let cuda = variant
            .as_deref()
            .filter(|v| v.starts_with("cu"))
            .and_then(|v| v.parse::<CudaVersion>().ok());
        let arch_row = variant
            .as_deref()
            .and_then(|v| self.torch_arch(&release, v));
        TorchBuildInfo {
            release,
            variant,
            cuda,
            variant_from_default: from_default,
            release_row,
            arch_row,
        }
    }

    pub fn onnxruntime(&self, version: &str) -> Option<&OnnxruntimeRow> {
        let rows = &self.onnxruntime.row;
        rows.iter().find(|r| r.version == version).or_else(|| {
            let s = series(version)?;
            rows.iter().rfind(|r| series(&r.version) == Some(s))
        })
    }

    pub fn tensorflow(&self, version: &str) -> Option<&TensorflowRow> {
        let s = series(version)?;
        self.tensorflow
            .row
            .iter()
            .find(|r| series(&r.version) == Some(s))
    }

    pub fn tensorrt(&self, version: &str) -> Option<&TensorrtRow> {
        self.tensorrt.row.iter().find(|r| {
            cmp_versions(&r.version_min, version).is_le()
                && cmp_versions(version, &r.version_max).is_le()
                || series(&r.version_min) == series(version)
                    && series(&r.version_max) == series(version)
        })
    }

    pub fn cudnn(&self, version: &str, cuda_major: u32) -> Option<&CudnnRow> {
        self.cudnn.row.iter().find(|r| {
            r.cuda_major == cuda_major
                && cmp_versions(&r.version_min, version).is_le()
                && cmp_versions(version, &r.version_max).is_le()
        })
    }

    pub fn cuda_image(&self, cuda: &CudaVersion) -> Option<&CudaImageRow> {
        self.cuda_images.row.iter().find(|r| r.cuda == *cuda)
    }

    pub fn nvcc_targets(&self, cuda: &CudaVersion) -> Option<&NvccTargetsRow> {
        let mm = cuda.major_minor();
        self.nvcc_targets
            .row
            .iter()
            .find(|r| r.cuda.major_minor() == mm)
    }

    /// The oldest toolkit whose nvcc targets a compute capability.
    pub fn nvcc_first_for(&self, cc: &ComputeCapability) -> Option<&NvccTargetsRow> {
        self.nvcc_rows_for(cc).into_iter().next()
    }

    /// The newest toolkit whose nvcc still targets a compute capability.
    pub fn nvcc_last_for(&self, cc: &ComputeCapability) -> Option<&NvccTargetsRow> {
        self.nvcc_rows_for(cc).pop()
    }

    /// The toolkits whose nvcc targets a compute capability, oldest first.
    fn nvcc_rows_for(&self, cc: &ComputeCapability) -> Vec<&NvccTargetsRow> {
        let mut rows: Vec<&NvccTargetsRow> = self
            .nvcc_targets
            .row
            .iter()
            .filter(|r| r.targets(cc) == Some(true))
            .collect();
        rows.sort_by_key(|r| r.cuda.major_minor());
        rows
    }

    /// The MIG minimum driver row whose model key appears in a GPU name.
    pub fn mig_min_driver(&self, gpu_name: &str) -> Option<&MigRow> {
        let toks = normalize_tokens(gpu_name);
        self.mig.row.iter().find(|r| {
            let key = normalize_tokens(&r.gpu);
            !key.is_empty() && key.iter().all(|k| toks.contains(k))
        })
    }

    /// The CUDA major.minor versions the toolkit table knows, ascending.
    pub fn cuda_versions(&self) -> Vec<CudaVersion> {
        let mut v: Vec<CudaVersion> = self
            .cuda_toolkits
            .row
            .iter()
            .map(|r| r.version.major_minor())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The torch CUDA variants (`cu118`, `cu124`, ...) ever published, ascending.
    pub fn torch_cuda_variants(&self) -> Vec<CudaVersion> {
        let mut v: Vec<CudaVersion> = self
            .torch_releases
            .row
            .iter()
            .flat_map(|r| r.cuda_variants.iter().flatten())
            .filter_map(|v| v.parse().ok())
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::{undecorated, without_typed_memory, GpuLookup, NameKey};

    fn same_part(query: &str, row: &str) -> bool {
        NameKey::new(query).same_part(&NameKey::new(row))
    }

    #[test]
    fn a_shared_number_is_not_a_shared_part() {
        // the number of a GeForce is a board suffix of these rows
        assert!(!same_part("GeForce 210", "NVIDIA PG509-210"));
        assert!(!same_part("GeForce 210", "NVIDIA CMP 100-210"));
        assert!(same_part("GeForce 210", "GeForce 210"));
        // a product line the row does not share
        assert!(!same_part("GeForce P4", "Tesla P4"));
        assert!(!same_part("Tesla 100-210", "NVIDIA CMP 100-210"));
        // a shorter name of the same part still is one
        assert!(same_part("A100", "NVIDIA A100-SXM4-40GB"));
        assert!(same_part("GTX 1080", "NVIDIA GeForce GTX 1080 Ti"));
        assert!(same_part("GeForce GTX TITAN", "NVIDIA TITAN RTX"));
        assert!(same_part("Jetson Orin", "NVIDIA Tegra Orin"));
    }

    #[test]
    fn partition_and_driver_decorations_come_off() {
        for (decorated, bare) in [
            ("NVIDIA A100-SXM4-40GB MIG 1g.5gb", "NVIDIA A100-SXM4-40GB"),
            ("NVIDIA H100 NVL MIG 3g.47gb", "NVIDIA H100 NVL"),
            (
                "NVIDIA H100 80GB HBM3 MIG 1g.10gb+me",
                "NVIDIA H100 80GB HBM3",
            ),
            ("NVIDIA A10-24Q", "NVIDIA A10"),
            ("NVIDIA A100-40C", "NVIDIA A100"),
            ("GRID P4-1Q", "P4"),
            ("NVIDIA Tegra X1 (nvgpu)", "NVIDIA Tegra X1"),
            ("NVIDIA Tegra Orin (nvgpu)", "NVIDIA Tegra Orin"),
        ] {
            assert_eq!(undecorated(decorated).as_deref(), Some(bare), "{decorated}");
        }
    }

    #[test]
    fn typed_memory_comes_off_last() {
        for (typed, bare) in [
            ("GTX 1080 8GB", "GTX 1080"),
            ("RTX 3060 (12 GB)", "RTX 3060"),
            ("RTX 3090 24GB VRAM", "RTX 3090"),
        ] {
            assert_eq!(
                without_typed_memory(typed).as_deref(),
                Some(bare),
                "{typed}"
            );
        }
        assert_eq!(without_typed_memory("NVIDIA A100-SXM4-40GB"), None);
        let kb = crate::kb::Kb::embedded();
        let GpuLookup::Found(r) = kb.gpu_match("GTX 1080 8GB") else {
            panic!("GTX 1080 8GB not found");
        };
        assert_eq!(r.name, "NVIDIA GeForce GTX 1080");
        // Whole names that carry their memory are still their own rows.
        let GpuLookup::Found(r) = kb.gpu_match("NVIDIA H100 80GB HBM3") else {
            panic!("H100 80GB HBM3 not found");
        };
        assert_eq!(r.name, "NVIDIA H100 80GB HBM3");
        // Two rows left after the memory comes off decide nothing.
        assert!(!matches!(kb.gpu_match("A100 80GB"), GpuLookup::Found(_)));
    }

    #[test]
    fn board_names_are_left_alone() {
        // Memory sizes, form factors and board ids are part of the name.
        for name in [
            "NVIDIA A100-SXM4-40GB",
            "Tesla V100-SXM2-32GB-LS",
            "NVIDIA PG509-210",
            "Tesla K10.G1.8GB",
            "NVIDIA H20-3e",
            "NVIDIA GeForce RTX 4090",
            "GRID K520",
        ] {
            assert_eq!(undecorated(name), None, "{name}");
        }
    }
}
