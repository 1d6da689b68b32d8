//! `gpucompat pin`: the newest stack that runs on every given host.
//!
//! Each choice is bounded by a fact and says which: the CUDA runtime by the
//! lowest driver (`max_cuda_for_driver`, or the minor-version-compatibility
//! floor under `--semantic minor-compat`) and by the GPUs' last toolkit; the
//! torch build by its arch list against every GPU (SASS preferred, PTX-only
//! said, unknown lists never assumed to fit); TensorRT, ONNX Runtime, JAX and
//! cuDNN by the CUDA major; the `nvidia/cuda` image by its
//! `NVIDIA_REQUIRE_CUDA` evaluated on every host. When no single stack fits,
//! the hosts are split into groups that each get one.

use serde::Serialize;

use crate::finding::KbRef;
use crate::inventory::{Fact, SCHEMA_VERSION};
use crate::kb::tables::{CudaImageRow, TorchReleaseRow};
use crate::kb::{cmp_versions, driver_meets, series, Kb, KernelMatch, Semantic};
use crate::plan::hosts::{forward_compat_eligible, HostKind, HostSpec};
use crate::plan::image::{availability, distro_python, flavor_name, Availability};
use crate::plan::require::{evaluate_set, requirements_from_env, ClauseKind};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

/// The PyTorch wheel index for a variant (`cu124`, `rocm6.2`, `cpu`), as the
/// pytorch.org install selector writes it.
pub fn torch_index_url(variant: &str) -> String {
    format!("https://download.pytorch.org/whl/{variant}")
}

/// Which packages to pin (`--with`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Components {
    pub torch: bool,
    /// `torch==2.5.1` or `torch==2.5`: a release or a release series.
    pub torch_version: Option<String>,
    pub torchvision: bool,
    pub torchaudio: bool,
    pub tensorrt: bool,
    pub onnxruntime: bool,
    pub jax: bool,
}

impl Components {
    /// Parse `torch[==X],torchvision,torchaudio,tensorrt,onnxruntime-gpu,jax`.
    pub fn parse(list: &str) -> Result<Components, String> {
        let mut c = Components::default();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, ver) = match item.split_once("==") {
                Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
                None => (item, None),
            };
            match name.to_ascii_lowercase().replace('_', "-").as_str() {
                "torch" | "pytorch" => {
                    c.torch = true;
                    if let Some(v) = &ver {
                        if series(v).is_none() {
                            return Err(format!("torch=={v}: expected a release such as 2.5.1 or 2.5"));
                        }
                        c.torch_version = Some(v.split('+').next().unwrap_or(v).to_string());
                    }
                }
                "torchvision" => c.torchvision = true,
                "torchaudio" => c.torchaudio = true,
                "tensorrt" => c.tensorrt = true,
                "onnxruntime-gpu" | "onnxruntime" | "ort" => c.onnxruntime = true,
                "jax" => c.jax = true,
                other => {
                    return Err(format!(
                        "--with {other}: expected torch[==X], torchvision, torchaudio, tensorrt, onnxruntime-gpu, jax"
                    ))
                }
            }
            if ver.is_some()
                && !name.eq_ignore_ascii_case("torch")
                && !name.eq_ignore_ascii_case("pytorch")
            {
                return Err(format!("--with {item}: only torch takes a version"));
            }
        }
        if c.torchvision || c.torchaudio {
            c.torch = true;
        }
        Ok(c)
    }

    fn names(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.torch {
            v.push(match &self.torch_version {
                Some(x) => format!("torch=={x}"),
                None => "torch".into(),
            });
        }
        for (on, n) in [
            (self.torchvision, "torchvision"),
            (self.torchaudio, "torchaudio"),
            (self.tensorrt, "tensorrt"),
            (self.onnxruntime, "onnxruntime-gpu"),
            (self.jax, "jax"),
        ] {
            if on {
                v.push(n.into());
            }
        }
        v
    }
}

/// Everything `pin` was asked.
#[derive(Debug, Clone)]
pub struct PlanRequest {
    pub hosts: Vec<HostSpec>,
    pub semantic: Semantic,
    /// `--os ubuntu22.04`: the container OS.
    pub os: Option<String>,
    /// `--python 3.11`.
    pub python: Option<String>,
    pub with: Components,
    /// A `devel` image (nvcc, headers) instead of `runtime`.
    pub devel: bool,
    /// A cuDNN image flavor.
    pub cudnn_image: bool,
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

/// A value with the fact it rests on. `value: None` means unknown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pin {
    pub value: Option<String>,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Pin {
    fn known(value: impl ToString, source: impl Into<String>) -> Pin {
        Pin {
            value: Some(value.to_string()),
            source: source.into(),
            note: None,
        }
    }
    fn with_note(mut self, note: impl Into<String>) -> Pin {
        self.note = Some(note.into());
        self
    }
    pub fn shown(&self) -> String {
        self.value.clone().unwrap_or_else(|| "unknown".into())
    }
}

/// One Python package to install.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackagePin {
    /// `torch`, `tensorrt-cu12`, `onnxruntime-gpu`.
    pub package: String,
    /// The version installed (`2.5.1+cu121`); None when unknown.
    pub version: Option<String>,
    /// The requirement line (`torch==2.5.1+cu121`); None when unknown.
    pub requirement: Option<String>,
    /// The index it comes from; None: PyPI.
    pub index_url: Option<String>,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The base image chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImagePin {
    pub reference: String,
    pub cuda: CudaVersion,
    pub flavor: String,
    pub os: String,
    pub require_cuda: Option<String>,
    pub cudnn: Option<String>,
    /// The `python3` the image's distribution ships.
    pub python: Option<String>,
    pub kb: KbRef,
}

/// How one GPU runs the chosen torch build.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuFit {
    pub host: String,
    pub gpu: String,
    pub compute_capability: Option<String>,
    /// `sass`, `ptx`, or `unverified` (no compute capability known).
    pub kernel: String,
    pub target: Option<String>,
    pub reason: String,
}

/// Why a choice is what it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    /// `cuda`, `torch`, `image`, `tensorrt`, ...
    pub subject: String,
    pub text: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kb: Vec<KbRef>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StackKind {
    Cuda,
    Rocm,
    Cpu,
    Mps,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stack {
    /// 1-based.
    pub id: usize,
    pub kind: StackKind,
    pub hosts: Vec<String>,
    /// The CUDA runtime the stack's wheels carry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda: Option<Pin>,
    /// The newest CUDA every host of this stack runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cuda: Option<Pin>,
    /// The lowest driver that runs this stack (under the chosen semantic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_driver: Option<Pin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rocm: Option<Pin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub python: Option<Pin>,
    /// The Python versions the torch release supports (`3.9-3.12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub python_range: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cudnn: Option<Pin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<ImagePin>,
    /// An `NVIDIA_REQUIRE_CUDA` the Dockerfile sets because the wheels need
    /// more than the image's own requirement checks (their CUDA is newer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_override: Option<String>,
    pub packages: Vec<PackagePin>,
    pub gpus: Vec<GpuFit>,
    pub reasons: Vec<Reason>,
    /// Things that work, with a condition worth knowing.
    pub caveats: Vec<String>,
}

impl Stack {
    pub fn package(&self, name: &str) -> Option<&PackagePin> {
        self.packages.iter().find(|p| p.package == name)
    }
    pub fn torch(&self) -> Option<&PackagePin> {
        self.package("torch")
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostSummary {
    pub name: String,
    pub origin: String,
    pub kind: HostKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver: Option<Fact<DriverVersion>>,
    /// The newest CUDA this host runs under the chosen semantic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cuda: Option<Pin>,
    pub gpus: Vec<GpuSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuSummary {
    pub name: Option<String>,
    pub compute_capability: Option<Fact<ComputeCapability>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
}

/// A host no stack could be found for, and what would change that.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unplaced {
    pub host: String,
    pub problems: Vec<String>,
    pub fixes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub schema_version: u32,
    pub semantic: Semantic,
    pub with: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub python: Option<String>,
    pub hosts: Vec<HostSummary>,
    pub stacks: Vec<Stack>,
    pub unplaced: Vec<Unplaced>,
    /// Why the NVIDIA hosts were split into several stacks (empty: not split).
    pub split: Vec<String>,
    pub notes: Vec<String>,
}

impl Plan {
    /// Exit code: 1 when some host got no stack.
    pub fn exit_code(&self) -> i32 {
        i32::from(!self.unplaced.is_empty())
    }
}

// ---------------------------------------------------------------------------
// Per-host facts
// ---------------------------------------------------------------------------

struct HostCtx<'a> {
    spec: &'a HostSpec,
    /// The newest CUDA under toolkit semantics, with its reason (None: driver unknown).
    toolkit_max: Option<(CudaVersion, String, Option<KbRef>, bool)>,
    /// CUDA ceilings from GPU architectures (last toolkit), with reasons.
    arch_ceiling: Vec<(CudaVersion, String, KbRef)>,
    blockers: Vec<(String, String)>,
}

fn host_ctx<'a>(kb: &Kb, h: &'a HostSpec) -> HostCtx<'a> {
    let mut toolkit_max = None;
    if let Some(d) = &h.driver {
        if let Some(c) = &h.cuda_max {
            toolkit_max = Some((
                c.value.major_minor(),
                format!(
                    "host {} has driver {} which reports CUDA {} ({})",
                    h.name, d.value, c.value, c.source
                ),
                None,
                false,
            ));
        } else if let Some(m) = kb.max_cuda_for_driver(&d.value, h.os_kind) {
            let text = if m.at_least {
                format!(
                    "host {} has driver {}, newer than every toolkit driver in the table (CUDA {} or newer)",
                    h.name, d.value, m.max_cuda
                )
            } else {
                format!(
                    "host {} has driver {} (CUDA {} toolkit ships driver {})",
                    h.name,
                    d.value,
                    m.kb.row,
                    kb.toolkit(&m.kb.row.parse().unwrap_or(m.max_cuda))
                        .and_then(|r| r.driver(h.os_kind).map(|x| x.to_string()))
                        .unwrap_or_else(|| "?".into())
                )
            };
            toolkit_max = Some((m.max_cuda, text, Some(m.kb), m.at_least));
        }
    } else if let Some(c) = &h.cuda_max {
        toolkit_max = Some((
            c.value.major_minor(),
            format!("host {} reports CUDA {} ({})", h.name, c.value, c.source),
            None,
            false,
        ));
    }
    let mut arch_ceiling = Vec::new();
    let mut blockers = Vec::new();
    for g in &h.gpus {
        let Some(cc) = &g.cc else { continue };
        let Some(arch) = kb.architecture(cc.value) else {
            continue;
        };
        if let Some(last) = arch.last_toolkit {
            arch_ceiling.push((
                last.major_minor(),
                format!(
                    "host {} {} is {} ({}), supported through CUDA {}",
                    h.name,
                    g.label(),
                    arch.name,
                    cc.value,
                    last
                ),
                arch.kb(),
            ));
        }
        if let Some(d) = &h.driver {
            let min = match h.os_kind {
                crate::inventory::OsKind::Windows => arch.min_windows_driver.as_ref(),
                _ => arch.min_linux_driver.as_ref(),
            };
            if let Some(min) = min {
                if !driver_meets(&d.value, min) {
                    blockers.push((
                        format!(
                            "{} ({} {}) needs driver {} or newer; host {} has {}",
                            g.label(),
                            arch.name,
                            cc.value,
                            min,
                            h.name,
                            d.value
                        ),
                        format!("install an NVIDIA driver >= {min} on {}", h.name),
                    ));
                }
            }
            if let Some(last) = &arch.last_driver_branch {
                if d.value.branch() > last.branch() {
                    blockers.push((
                        format!(
                            "{} ({} {}) is not driven by drivers after {}; host {} has {}",
                            g.label(),
                            arch.name,
                            cc.value,
                            last.branch_name(),
                            h.name,
                            d.value
                        ),
                        format!("install a {} driver on {}", last.branch_name(), h.name),
                    ));
                }
            }
        }
    }
    HostCtx {
        spec: h,
        toolkit_max,
        arch_ceiling,
        blockers,
    }
}

/// Can host `h` run CUDA `v`? Ok(caveat) or Err(why not).
fn cuda_ok(
    kb: &Kb,
    h: &HostCtx<'_>,
    v: CudaVersion,
    semantic: Semantic,
) -> Result<Option<String>, String> {
    let v = v.major_minor();
    for (last, why, _) in &h.arch_ceiling {
        if v > *last {
            return Err(format!("CUDA {v} > {last}: {why}"));
        }
    }
    let Some(d) = &h.spec.driver else {
        return match &h.toolkit_max {
            Some((max, why, _, _)) if v > *max => Err(format!("CUDA {v} > {max}: {why}")),
            Some(_) => Ok(None),
            None => Ok(Some(format!(
                "host {}: driver version unknown, CUDA {v} not checked against it",
                h.spec.name
            ))),
        };
    };
    match semantic {
        Semantic::Toolkit => match &h.toolkit_max {
            Some((max, why, _, at_least)) => {
                if v <= *max || *at_least && v.major == max.major {
                    Ok(None)
                } else {
                    Err(format!("CUDA {v} > {max}: {why}"))
                }
            }
            None => Err(format!(
                "host {}: no toolkit in the table runs on driver {}",
                h.spec.name, d.value
            )),
        },
        Semantic::MinorCompat => {
            let Some(min) = kb.min_driver_for_cuda(&v, h.spec.os_kind, Semantic::MinorCompat)
            else {
                return Err(format!("no driver floor known for CUDA {v}"));
            };
            if !driver_meets(&d.value, &min.driver) {
                return Err(format!(
                    "CUDA {v} needs driver >= {} (minor-version compatibility, {}); host {} has {}",
                    min.driver, min.kb.row, h.spec.name, d.value
                ));
            }
            match &h.toolkit_max {
                Some((max, _, _, _)) if v > *max => Ok(Some(format!(
                    "host {} runs CUDA {v} through minor-version compatibility (driver {} is older than the {v} toolkit driver): no JIT of newer PTX, some APIs return cudaErrorCallRequiresNewerDriver",
                    h.spec.name, d.value
                ))),
                _ => Ok(None),
            }
        }
    }
}

/// The newest CUDA every host runs, with the reasons that bound it.
fn fleet_max_cuda(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    semantic: Semantic,
) -> Option<(CudaVersion, Vec<String>, Vec<KbRef>)> {
    let ascending = kb.cuda_versions();
    let newest = *ascending.last()?;
    for &v in ascending.iter().rev() {
        if hosts.iter().all(|h| cuda_ok(kb, h, v, semantic).is_ok()) {
            // What stopped the next newer version: the bounding facts.
            let mut why = Vec::new();
            let mut refs = Vec::new();
            if v < newest {
                let next = ascending.iter().copied().find(|c| *c > v);
                if let Some(next) = next {
                    for h in hosts {
                        if let Err(e) = cuda_ok(kb, h, next, semantic) {
                            why.push(e.split_once(": ").map_or(e.clone(), |(_, r)| r.to_string()));
                            if let Some((_, _, Some(r), _)) = &h.toolkit_max {
                                refs.push(r.clone());
                            }
                            for (_, _, r) in &h.arch_ceiling {
                                refs.push(r.clone());
                            }
                        }
                    }
                }
            }
            return Some((v, why, refs));
        }
    }
    None
}

// ---------------------------------------------------------------------------
// torch
// ---------------------------------------------------------------------------

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

/// `3.9-3.13` with a floor of `3.10` → `3.10-3.13`; `>=3.9` → `>=3.10`.
fn raise_lower_bound(range: &str, lo: &str) -> String {
    let first = range.split(',').next().unwrap_or(range).trim();
    if let Some(cur) = first.strip_prefix(">=") {
        if series(cur) < series(lo) {
            return format!(">={lo}");
        }
    } else if let Some((cur, hi)) = first.split_once('-') {
        if series(cur) < series(lo) {
            return format!("{lo}-{}", hi.trim());
        }
    }
    range.to_string()
}

/// A Python version to suggest for a release (for images that are not CUDA images).
fn python_for(release: &TorchReleaseRow) -> Option<String> {
    let spec = release.python.as_deref()?;
    let first = spec.split(',').next()?.trim();
    if let Some(lo) = first.strip_prefix(">=") {
        return Some(lo.trim().to_string());
    }
    let (_, hi) = first.split_once('-')?;
    Some(hi.trim().to_string())
}

fn releases_desc<'a>(
    kb: &'a Kb,
    want: Option<&str>,
    python: Option<&str>,
) -> (Vec<&'a TorchReleaseRow>, Vec<String>) {
    let mut skipped = Vec::new();
    let mut rows: Vec<&TorchReleaseRow> = kb
        .torch_releases
        .row
        .iter()
        .filter(|r| match want {
            None => true,
            Some(w) => r.version == w || r.version.starts_with(&format!("{w}.")),
        })
        .filter(|r| match python {
            None => true,
            Some(py) => match r.python.as_deref().and_then(|s| python_in(s, py)) {
                Some(true) => true,
                Some(false) => {
                    skipped.push(format!(
                        "torch {} supports Python {}, not {py}",
                        r.version,
                        r.python.as_deref().unwrap_or("?")
                    ));
                    false
                }
                None => {
                    skipped.push(format!(
                        "torch {}: supported Python versions unknown",
                        r.version
                    ));
                    false
                }
            },
        })
        .collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    (rows, skipped)
}

struct TorchChoice<'a> {
    release: &'a TorchReleaseRow,
    variant: String,
    cuda: CudaVersion,
    from_pypi_default: bool,
    fits: Vec<GpuFit>,
    ptx: bool,
    arch_kb: KbRef,
    caveats: Vec<String>,
}

/// Try one (release, CUDA variant) on every host; Err: why not, per host.
fn try_torch<'a>(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    release: &'a TorchReleaseRow,
    variant: &str,
    from_pypi_default: bool,
    semantic: Semantic,
) -> Result<TorchChoice<'a>, String> {
    let cuda: CudaVersion = variant
        .parse()
        .map_err(|_| format!("{variant}: not a CUDA variant"))?;
    let mut caveats = Vec::new();
    for h in hosts {
        match cuda_ok(kb, h, cuda, semantic) {
            Ok(Some(c)) => caveats.push(c),
            Ok(None) => {}
            Err(e) => return Err(e),
        }
    }
    let arch_row = kb
        .torch_arch(&release.version, variant)
        .ok_or_else(|| format!("no arch list known for torch {} {variant}", release.version))?;
    let list = arch_row.arch_list.as_deref().ok_or_else(|| {
        format!(
            "the arch list of torch {} {variant} is unknown (not assumed to fit)",
            release.version
        )
    })?;
    let mut fits = Vec::new();
    let mut ptx = false;
    for h in hosts {
        for g in &h.spec.gpus {
            let Some(cc) = &g.cc else {
                fits.push(GpuFit {
                    host: h.spec.name.clone(),
                    gpu: g.label(),
                    compute_capability: None,
                    kernel: "unverified".into(),
                    target: None,
                    reason: "compute capability unknown: arch fit not checked (pass --cc)".into(),
                });
                caveats.push(format!(
                    "host {} {}: compute capability unknown, the wheel's arch list was not checked against it",
                    h.spec.name,
                    g.label()
                ));
                continue;
            };
            let m = kb.kernels_for_gpu(list, cc.value);
            let (kernel, target) = match &m {
                KernelMatch::Sass { target, .. } => ("sass", Some(target.to_string())),
                KernelMatch::Ptx { target, .. } => {
                    ptx = true;
                    ("ptx", Some(target.to_string()))
                }
                KernelMatch::None { reason } => {
                    return Err(format!(
                        "host {} {} ({}): {reason}",
                        h.spec.name,
                        g.label(),
                        cc.value
                    ))
                }
            };
            fits.push(GpuFit {
                host: h.spec.name.clone(),
                gpu: g.label(),
                compute_capability: Some(cc.value.to_string()),
                kernel: kernel.into(),
                target,
                reason: m.reason().to_string(),
            });
        }
    }
    Ok(TorchChoice {
        release,
        variant: variant.to_string(),
        cuda,
        from_pypi_default,
        fits,
        ptx,
        arch_kb: arch_row.kb(),
        caveats,
    })
}

/// The CUDA variants of a release, newest CUDA first; the PyPI default is
/// added when the variant list is unknown.
fn cuda_variants(release: &TorchReleaseRow) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = release
        .cuda_variants
        .iter()
        .flatten()
        .map(|s| (s.clone(), false))
        .collect();
    if let Some(d) = &release.default_variant {
        if d.starts_with("cu") && !v.iter().any(|(x, _)| x == d) {
            v.push((d.clone(), true));
        }
    }
    v.sort_by_key(|(s, _)| std::cmp::Reverse(s.parse::<CudaVersion>().ok()));
    v
}

struct TorchSearch<'a> {
    choice: Option<TorchChoice<'a>>,
    /// Newer releases and why each variant was turned down (for the explanation).
    rejected: Vec<(String, Vec<(String, String)>)>,
}

fn search_torch<'a>(
    kb: &'a Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    releases: &[&'a TorchReleaseRow],
) -> TorchSearch<'a> {
    let mut rejected = Vec::new();
    for release in releases {
        let mut fits = Vec::new();
        let mut why = Vec::new();
        for (variant, dflt) in cuda_variants(release) {
            match try_torch(kb, hosts, release, &variant, dflt, req.semantic) {
                Ok(c) => fits.push(c),
                Err(e) => why.push((variant, e)),
            }
        }
        if !fits.is_empty() {
            // SASS for every GPU first, then the newest CUDA.
            fits.sort_by_key(|c| (c.ptx, std::cmp::Reverse(c.cuda)));
            return TorchSearch {
                choice: fits.into_iter().next(),
                rejected,
            };
        }
        rejected.push((release.version.clone(), why));
    }
    TorchSearch {
        choice: None,
        rejected,
    }
}

fn torch_packages(c: &TorchChoice<'_>, with: &Components) -> Vec<PackagePin> {
    let r = c.release;
    let (index, local) = if c.from_pypi_default {
        (None, String::new())
    } else {
        (Some(torch_index_url(&c.variant)), format!("+{}", c.variant))
    };
    let mut out = vec![PackagePin {
        package: "torch".into(),
        version: Some(format!("{}{local}", r.version)),
        requirement: Some(format!("torch=={}{local}", r.version)),
        index_url: index.clone(),
        source: format!("torch_releases {}; {}", r.version, c.arch_kb.table.clone() + " " + &c.arch_kb.row),
        note: c.from_pypi_default.then(|| {
            format!(
                "the PyPI wheel of {} is the {} build; the knowledge base does not list the other variants",
                r.version, c.variant
            )
        }),
    }];
    for (on, name, ver) in [
        (with.torchvision, "torchvision", &r.torchvision),
        (with.torchaudio, "torchaudio", &r.torchaudio),
    ] {
        if !on {
            continue;
        }
        out.push(match ver {
            Some(v) => PackagePin {
                package: name.into(),
                version: Some(format!("{v}{local}")),
                requirement: Some(format!("{name}=={v}{local}")),
                index_url: index.clone(),
                source: format!(
                    "torch_releases {} ({name} pins torch=={})",
                    r.version, r.version
                ),
                note: None,
            },
            None => PackagePin {
                package: name.into(),
                version: None,
                requirement: None,
                index_url: index.clone(),
                source: format!("torch_releases {}", r.version),
                note: Some(format!(
                    "unknown: no {name} release is known to pin torch {}{}",
                    r.version,
                    r.note
                        .as_deref()
                        .filter(|n| n.contains(name))
                        .map(|_| " (see the table note)")
                        .unwrap_or("")
                )),
            },
        });
    }
    out
}

// ---------------------------------------------------------------------------
// Libraries
// ---------------------------------------------------------------------------

fn gpu_ccs(hosts: &[&HostCtx<'_>]) -> (Vec<(String, ComputeCapability)>, bool) {
    let mut v = Vec::new();
    let mut unknown = false;
    for h in hosts {
        for g in &h.spec.gpus {
            match &g.cc {
                Some(c) => v.push((format!("host {} {}", h.spec.name, g.label()), c.value)),
                None => unknown = true,
            }
        }
    }
    (v, unknown)
}

fn pick_tensorrt(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    major: u32,
    bound: CudaVersion,
    semantic: Semantic,
) -> (PackagePin, Reason) {
    let (ccs, cc_unknown) = gpu_ccs(hosts);
    let mut rows: Vec<_> = kb.tensorrt.row.iter().collect();
    rows.sort_by(|a, b| cmp_versions(&b.version_max, &a.version_max));
    let package = format!("tensorrt-cu{major}");
    let mut skipped = Vec::new();
    for r in rows {
        let v = &r.version_max;
        if !r.wheel_cuda_majors.iter().flatten().any(|m| *m == major) {
            skipped.push(format!("{v}: no {package} wheel recorded"));
            continue;
        }
        if !r.cuda_majors.iter().flatten().any(|m| *m == major) {
            skipped.push(format!("{v}: not built for CUDA {major}"));
            continue;
        }
        let builds: Vec<CudaVersion> = r
            .cuda_builds
            .iter()
            .flatten()
            .filter(|b| b.major == major)
            .copied()
            .collect();
        if semantic == Semantic::Toolkit && !builds.iter().any(|b| b.major_minor() <= bound) {
            skipped.push(format!(
                "{v}: built with CUDA {} > {bound}",
                builds
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join("/")
            ));
            continue;
        }
        let Some(min_cc) = r.min_cc else {
            skipped.push(format!("{v}: supported GPUs unverified"));
            continue;
        };
        if let Some((who, cc)) = ccs
            .iter()
            .find(|(_, cc)| cc.plain() < min_cc || r.max_cc.is_some_and(|m| cc.plain() > m))
        {
            skipped.push(format!("{v}: does not support {who} ({cc})"));
            continue;
        }
        let mut text = format!(
            "TensorRT {v}: newest release with a {package} wheel built for CUDA {} (<= {bound}) supporting every GPU (compute capability {min_cc}{})",
            builds.iter().map(|b| b.to_string()).collect::<Vec<_>>().join("/"),
            r.max_cc.map_or("+".into(), |m| format!("..{m}"))
        );
        if let Some(s) = skipped.first() {
            text.push_str(&format!("; newer: {s}"));
        }
        if cc_unknown {
            text.push_str("; some GPUs have no known compute capability and were not checked");
        }
        return (
            PackagePin {
                package: package.clone(),
                version: Some(v.clone()),
                requirement: Some(format!("{package}=={v}.*")),
                index_url: None,
                source: format!("tensorrt {}-{}", r.version_min, r.version_max),
                note: None,
            },
            Reason {
                subject: "tensorrt".into(),
                text,
                kb: vec![r.kb()],
            },
        );
    }
    (
        PackagePin {
            package: package.clone(),
            version: None,
            requirement: None,
            index_url: None,
            source: "tensorrt".into(),
            note: Some({
                let informative: Vec<String> = skipped
                    .iter()
                    .filter(|s| !s.contains("not built for CUDA") && !s.contains("wheel recorded"))
                    .take(2)
                    .cloned()
                    .collect();
                let mut n = format!(
                    "unknown: no TensorRT release with a {package} wheel fits ({})",
                    if informative.is_empty() { skipped.iter().take(2).cloned().collect::<Vec<_>>().join("; ") } else { informative.join("; ") }
                );
                if semantic == Semantic::Toolkit && skipped.iter().any(|s| s.contains("built with CUDA")) {
                    n.push_str("; --semantic minor-compat admits builds of the same CUDA major");
                }
                n
            }),
        },
        Reason {
            subject: "tensorrt".into(),
            text: format!("no TensorRT release in the knowledge base has a {package} wheel that fits this stack"),
            kb: vec![],
        },
    )
}

fn pick_onnxruntime(
    kb: &Kb,
    major: u32,
    bound: CudaVersion,
    python: Option<&str>,
    semantic: Semantic,
) -> (PackagePin, Reason) {
    let mut rows: Vec<_> = kb.onnxruntime.row.iter().collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    let mut skipped: Vec<String> = Vec::new();
    for r in rows {
        if r.cuda_major != Some(major) {
            if skipped.is_empty() {
                skipped.push(format!(
                    "{}: built for CUDA {}",
                    r.version,
                    r.cuda_major.map_or("?".into(), |m| m.to_string())
                ));
            }
            continue;
        }
        if let (Semantic::Toolkit, Some(b)) = (semantic, r.cuda_version) {
            if b.major_minor() > bound {
                skipped.push(format!("{}: built with CUDA {b} > {bound}", r.version));
                continue;
            }
        }
        let req_py = r.python_min.clone();
        if let (Some(py), Some(lo)) = (python, req_py.as_deref()) {
            if series(py) < series(lo) {
                skipped.push(format!("{}: needs Python >= {lo}", r.version));
                continue;
            }
        }
        let mut text = format!(
            "onnxruntime-gpu {}: newest PyPI release built for CUDA {major}{}",
            r.version,
            r.cuda_version.map_or(String::new(), |b| format!(" ({b})"))
        );
        if let Some(s) = skipped.first() {
            text.push_str(&format!("; newer: {s}"));
        }
        return (
            PackagePin {
                package: "onnxruntime-gpu".into(),
                version: Some(r.version.clone()),
                requirement: Some(format!("onnxruntime-gpu=={}", r.version)),
                index_url: None,
                source: format!("onnxruntime {}", r.version),
                note: r
                    .cudnn_major
                    .map(|c| format!("needs cuDNN {c} and the CUDA {major} libraries (torch's nvidia-* wheels or a cudnn image provide them)")),
            },
            Reason {
                subject: "onnxruntime-gpu".into(),
                text,
                kb: vec![r.kb()],
            },
        );
    }
    (
        PackagePin {
            package: "onnxruntime-gpu".into(),
            version: None,
            requirement: None,
            index_url: None,
            source: "onnxruntime".into(),
            note: Some(format!(
                "unknown: no onnxruntime-gpu release fits CUDA {major}"
            )),
        },
        Reason {
            subject: "onnxruntime-gpu".into(),
            text: format!(
                "no onnxruntime-gpu release in the knowledge base is built for CUDA {major}"
            ),
            kb: vec![],
        },
    )
}

fn pick_jax(kb: &Kb, hosts: &[&HostCtx<'_>], major: u32) -> (Vec<PackagePin>, Reason) {
    let package = format!("jax-cuda{major}-plugin");
    let mut rows: Vec<_> = kb.jax.row.iter().filter(|r| r.package == package).collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    for r in rows {
        if let Some(min) = &r.min_linux_driver {
            if let Some(h) = hosts.iter().find(|h| {
                h.spec
                    .driver
                    .as_ref()
                    .is_some_and(|d| !driver_meets(&d.value, min))
            }) {
                let _ = h;
                continue;
            }
        }
        let pins = vec![
            PackagePin {
                package: package.clone(),
                version: Some(r.version.clone()),
                requirement: Some(format!("{package}[with-cuda]=={}", r.version)),
                index_url: None,
                source: format!("jax {} {}", r.package, r.version),
                note: None,
            },
            PackagePin {
                package: "jax".into(),
                version: None,
                requirement: None,
                index_url: None,
                source: "jax".into(),
                note: Some(format!(
                    "the jax release that matches {package} {} (not in the knowledge base)",
                    r.version
                )),
            },
        ];
        let floor = r
            .min_linux_driver
            .as_ref()
            .map_or("no driver floor recorded".into(), |d| {
                format!("needs driver >= {d}")
            });
        return (
            pins,
            Reason {
                subject: "jax".into(),
                text: format!(
                    "{package} {}: newest plugin for CUDA {major} ({floor})",
                    r.version
                ),
                kb: vec![KbRef {
                    table: "jax".into(),
                    row: format!("{} {}", r.package, r.version),
                    source: r.source.clone(),
                }],
            },
        );
    }
    (
        vec![PackagePin {
            package,
            version: None,
            requirement: None,
            index_url: None,
            source: "jax".into(),
            note: Some(format!(
                "unknown: no JAX CUDA {major} plugin fits every host's driver"
            )),
        }],
        Reason {
            subject: "jax".into(),
            text: format!("no JAX plugin for CUDA {major} fits"),
            kb: vec![],
        },
    )
}

// ---------------------------------------------------------------------------
// Image
// ---------------------------------------------------------------------------

const DEFAULT_OSES: [&str; 3] = ["ubuntu24.04", "ubuntu22.04", "ubuntu20.04"];

struct ImagePick {
    pin: Option<ImagePin>,
    reason: Reason,
    caveats: Vec<String>,
}

fn pick_image(
    kb: &Kb,
    hosts: &[&HostCtx<'_>],
    req: &PlanRequest,
    cuda: CudaVersion,
    torch_python: Option<&str>,
) -> ImagePick {
    let base = if req.devel { "devel" } else { "runtime" };
    let oses: Vec<String> = match &req.os {
        Some(o) => vec![o.clone()],
        None => DEFAULT_OSES.iter().map(|s| s.to_string()).collect(),
    };
    let mut rows: Vec<&CudaImageRow> = kb
        .cuda_images
        .row
        .iter()
        .filter(|r| r.cuda.major == cuda.major && r.cuda.major_minor() <= cuda.major_minor())
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.cuda));
    let mut skipped: Vec<String> = Vec::new();
    let mut caveats = Vec::new();
    for row in rows {
        let Some(require) = &row.require_cuda else {
            skipped.push(format!("{}: NVIDIA_REQUIRE_CUDA unknown", row.cuda));
            continue;
        };
        let Some(flavor) = flavor_name(row, base, req.cudnn_image) else {
            skipped.push(format!(
                "{}: no {}{base} flavor",
                row.cuda,
                if req.cudnn_image { "cudnn " } else { "" }
            ));
            continue;
        };
        let env = std::collections::BTreeMap::from([
            ("NVIDIA_REQUIRE_CUDA".to_string(), require.clone()),
            ("CUDA_VERSION".to_string(), row.cuda.to_string()),
        ]);
        let set = requirements_from_env(&env);
        let mut failed = None;
        let mut unknown_hosts = Vec::new();
        let mut via = Vec::new();
        for h in hosts {
            let view = h.spec.runtime_view(kb);
            let v = evaluate_set(&set, &view);
            match v.verdict.as_str() {
                "pass" => {
                    // Which clause let it through, for the explanation.
                    if let Some(e) = v.evaluations.first() {
                        if let crate::plan::require::Outcome::Pass { clause: Some(c) } =
                            e.eval.outcome
                        {
                            let text = require.split(' ').nth(c).unwrap_or("");
                            if !matches!(
                                crate::plan::require::classify_clause(text),
                                ClauseKind::Native { .. }
                            ) {
                                if let Err(why) = forward_compat_eligible(h.spec) {
                                    failed = Some(format!(
                                        "{}: host {} passes the requirement only through `{text}` (forward compatibility), which it cannot use: {why}",
                                        row.cuda, h.spec.name
                                    ));
                                    break;
                                }
                                via.push(format!("host {} passes the image requirement only through `{text}`: the container uses the image's forward-compatibility libraries (supported on its data center GPUs)", h.spec.name));
                            }
                        }
                    }
                }
                "unknown" => unknown_hosts.push(h.spec.name.clone()),
                _ => {
                    failed = Some(format!(
                        "{}: host {} fails its requirement ({})",
                        row.cuda,
                        h.spec.name,
                        v.runtime_message.unwrap_or_default()
                    ));
                    break;
                }
            }
        }
        if let Some(f) = failed {
            skipped.push(f);
            continue;
        }
        let mut os_skips = Vec::new();
        let mut chosen_os = None;
        for os in &oses {
            match availability(row, &flavor, os) {
                Availability::Yes => {}
                Availability::No(w) | Availability::Unknown(w) => {
                    os_skips.push(w);
                    continue;
                }
            }
            let py = distro_python(os).map(|(p, _)| p);
            if req.os.is_none() {
                if let (Some(spec), Some(p)) = (torch_python, py) {
                    if python_in(spec, p) != Some(true) {
                        os_skips.push(format!("{os} ships Python {p}, outside torch's {spec}"));
                        continue;
                    }
                }
            }
            chosen_os = Some(os.clone());
            break;
        }
        let Some(os) = chosen_os else {
            skipped.push(format!("{}: {}", row.cuda, os_skips.join("; ")));
            continue;
        };
        let python = distro_python(&os).map(|(p, _)| p.to_string());
        if let (Some(want), Some(have)) = (&req.python, &python) {
            if series(want) != series(have) {
                caveats.push(format!(
                    "--python {want}: {os} ships Python {have}; the Dockerfile uses the distribution's python3"
                ));
            }
        }
        if let (Some(spec), Some(p)) = (torch_python, &python) {
            if python_in(spec, p) == Some(false) {
                caveats.push(format!(
                    "{os} ships Python {p}, outside the torch release's range {spec}"
                ));
            }
        }
        if !unknown_hosts.is_empty() {
            caveats.push(format!(
                "the image's NVIDIA_REQUIRE_CUDA could not be checked on {} (driver unknown)",
                unknown_hosts.join(", ")
            ));
        }
        caveats.extend(via.clone());
        let reference = format!("nvidia/cuda:{}-{flavor}-{os}", row.cuda);
        let mut text = format!(
            "{reference}: newest {flavor} image with CUDA <= {} whose NVIDIA_REQUIRE_CUDA every host satisfies",
            cuda.major_minor()
        );
        if let Some(s) = skipped.first() {
            text.push_str(&format!("; newer: {s}"));
        }
        return ImagePick {
            pin: Some(ImagePin {
                reference,
                cuda: row.cuda,
                flavor: flavor.clone(),
                os,
                require_cuda: Some(require.clone()),
                cudnn: flavor
                    .starts_with("cudnn")
                    .then(|| row.cudnn.clone())
                    .flatten(),
                python,
                kb: row.kb(),
            }),
            reason: Reason {
                subject: "image".into(),
                text,
                kb: vec![row.kb()],
            },
            caveats,
        };
    }
    ImagePick {
        pin: None,
        reason: Reason {
            subject: "image".into(),
            text: format!(
                "no nvidia/cuda image in the table fits CUDA {}: {}",
                cuda.major_minor(),
                if skipped.is_empty() {
                    "none with that major".to_string()
                } else {
                    skipped.join("; ")
                }
            ),
            kb: vec![],
        },
        caveats,
    }
}

// ---------------------------------------------------------------------------
// Stacks
// ---------------------------------------------------------------------------

fn resolve_cuda(kb: &Kb, hosts: &[&HostCtx<'_>], req: &PlanRequest) -> Result<Stack, Vec<String>> {
    let names: Vec<String> = hosts.iter().map(|h| h.spec.name.clone()).collect();
    let Some((bound, bound_why, bound_kb)) = fleet_max_cuda(kb, hosts, req.semantic) else {
        return Err(vec![format!(
            "no CUDA version in the table runs on every one of {}",
            names.join(", ")
        )]);
    };
    let mut reasons = Vec::new();
    let mut caveats = Vec::new();
    let bound_text = if bound_why.is_empty() {
        format!("CUDA <= {bound}: the newest the knowledge base knows")
    } else {
        let mut w = bound_why.clone();
        w.dedup();
        format!("CUDA <= {bound} because {}", w.join("; "))
    };
    reasons.push(Reason {
        subject: "cuda".into(),
        text: bound_text,
        kb: bound_kb,
    });
    let mut packages = Vec::new();
    let mut gpus = Vec::new();
    let mut cudnn = None;
    let mut torch_python: Option<String> = None;
    // The Python the stack must support: --python, else the python3 of the --os image.
    let py_filter: Option<String> = req.python.clone().or_else(|| {
        req.os
            .as_deref()
            .and_then(distro_python)
            .map(|(p, _)| p.to_string())
    });
    let cuda = if req.with.torch {
        let (releases, py_skips) =
            releases_desc(kb, req.with.torch_version.as_deref(), py_filter.as_deref());
        if releases.is_empty() {
            let mut e = vec![match &req.with.torch_version {
                Some(v) => format!("no torch release {v} in the knowledge base"),
                None => "no torch release in the knowledge base".into(),
            }];
            e.extend(py_skips);
            return Err(e);
        }
        let search = search_torch(kb, hosts, req, &releases);
        let Some(choice) = search.choice else {
            let mut e = vec![
                "no torch build in the knowledge base runs on every GPU within these drivers"
                    .to_string(),
            ];
            for (rel, why) in search.rejected.iter().take(2) {
                for (v, w) in why {
                    e.push(format!("torch {rel} {v}: {w}"));
                }
            }
            return Err(e);
        };
        let mut text = format!(
            "torch {} {}: the newest release with a build that runs on every GPU within CUDA <= {bound}",
            choice.release.version, choice.variant
        );
        // The closest newer release, and why each of its builds was turned down.
        if let Some((rel, why)) = search.rejected.last() {
            let parts: Vec<String> = why.iter().map(|(v, w)| format!("{v}: {w}")).collect();
            text.push_str(&format!(
                "; the next newer release, torch {rel}, was turned down ({})",
                parts.join("; ")
            ));
        }
        if choice.ptx {
            caveats.push(format!(
                "torch {}+{} has no machine code for some GPUs; they run its PTX through the driver's JIT (slow first start)",
                choice.release.version, choice.variant
            ));
        }
        caveats.extend(choice.caveats.iter().cloned());
        reasons.push(Reason {
            subject: "torch".into(),
            text,
            kb: vec![choice.release.kb(), choice.arch_kb.clone()],
        });
        packages.extend(torch_packages(&choice, &req.with));
        gpus = choice.fits.clone();
        torch_python = choice.release.python.clone();
        if let Some(v) = choice.release.cudnn.clone() {
            let row = kb.cudnn(&v, choice.cuda.major);
            cudnn = Some(Pin {
                value: Some(v.clone()),
                source: format!(
                    "torch_releases {} cudnn (the wheel's nvidia-cudnn pin)",
                    choice.release.version
                ),
                note: Some(match row {
                    Some(r) => format!("bundled by the torch wheel; {}", r.kb().row),
                    None => "bundled by the torch wheel".into(),
                }),
            });
        }
        choice.cuda
    } else {
        bound
    };
    let major = cuda.major;
    if req.with.tensorrt {
        let (p, r) = pick_tensorrt(kb, hosts, major, bound, req.semantic);
        packages.push(p);
        reasons.push(r);
    }
    if req.with.onnxruntime {
        let (p, r) = pick_onnxruntime(kb, major, bound, py_filter.as_deref(), req.semantic);
        // Its Requires-Python may start above torch's range.
        let lo = p
            .version
            .as_deref()
            .and_then(|v| kb.onnxruntime(v))
            .and_then(|row| row.python_min.clone());
        if let (Some(lo), Some(range)) = (lo, torch_python.as_mut()) {
            *range = raise_lower_bound(range, &lo);
        }
        packages.push(p);
        reasons.push(r);
    }
    if req.with.jax {
        let (p, r) = pick_jax(kb, hosts, major);
        packages.extend(p);
        reasons.push(r);
        if req.with.torch {
            caveats.push(format!(
                "torch and JAX in one environment share the nvidia-*-cu{major} wheels; their pins must agree"
            ));
        }
    }
    let img = pick_image(kb, hosts, req, cuda, torch_python.as_deref());
    reasons.push(img.reason);
    caveats.extend(img.caveats);
    if cudnn.is_none() {
        if let Some(i) = &img.pin {
            if let Some(c) = &i.cudnn {
                cudnn = Some(
                    Pin::known(c, format!("cuda_images {}", i.cuda))
                        .with_note("inside the cudnn image"),
                );
            }
        }
    }
    let min_driver = kb
        .min_driver_for_cuda(&cuda, crate::inventory::OsKind::Linux, req.semantic)
        .map(|m| {
            Pin::known(&m.driver, format!("{} {}", m.kb.table, m.kb.row)).with_note(format!(
                "lowest Linux driver for CUDA {cuda} under {} semantics",
                req.semantic.as_str()
            ))
        });
    for h in hosts {
        if h.spec.driver.is_none() {
            caveats.push(format!(
                "host {}: driver version unknown; it needs driver >= {} for this stack",
                h.spec.name,
                min_driver.as_ref().map_or("?".into(), |p| p.shown())
            ));
        }
        if h.spec.gpus.is_empty() {
            caveats.push(format!(
                "host {}: no GPU known; the torch arch list was not checked for it (pass --gpu or --cc)",
                h.spec.name
            ));
        }
    }
    let python = match (&req.python, &img.pin) {
        (Some(p), _) => Some(Pin::known(p, "--python")),
        (None, Some(i)) => i
            .python
            .as_ref()
            .map(|p| Pin::known(p, format!("python3 of {}", i.os))),
        (None, None) => torch_python
            .as_deref()
            .and_then(|s| s.split([',', '-']).next())
            .map(|s| {
                Pin::known(
                    s.trim().trim_start_matches(">="),
                    "torch_releases python range",
                )
            }),
    };
    // The image checks its own CUDA at container start; when the wheels'
    // CUDA is newer, check what the wheels need instead.
    let require_override = img.pin.as_ref().and_then(|i| {
        if i.cuda.major_minor() >= cuda.major_minor() {
            return None;
        }
        Some(match req.semantic {
            Semantic::Toolkit => format!("cuda>={}", cuda.major_minor()),
            Semantic::MinorCompat => {
                let floor = kb.min_driver_for_cuda(
                    &cuda,
                    crate::inventory::OsKind::Linux,
                    Semantic::MinorCompat,
                )?;
                format!("driver>={}", floor.driver)
            }
        })
    });
    if let Some(r) = &require_override {
        reasons.push(Reason {
            subject: "image".into(),
            text: format!(
                "the wheels carry CUDA {}, newer than the image's: the Dockerfile sets NVIDIA_REQUIRE_CUDA={r} so the container refuses to start where they cannot run",
                cuda.major_minor()
            ),
            kb: vec![],
        });
    }
    caveats.sort();
    caveats.dedup();
    Ok(Stack {
        id: 0,
        kind: StackKind::Cuda,
        hosts: names,
        cuda: Some(Pin::known(
            cuda.major_minor(),
            if req.with.torch {
                "the torch wheel's CUDA variant"
            } else {
                "the newest CUDA every host runs"
            },
        )),
        max_cuda: Some(Pin::known(bound, "fleet bound (see reasons)")),
        min_driver,
        rocm: None,
        python,
        python_range: torch_python,
        cudnn,
        image: img.pin,
        require_override,
        packages,
        gpus,
        reasons,
        caveats,
    })
}

fn resolve_plain(
    kb: &Kb,
    hosts: &[&HostSpec],
    req: &PlanRequest,
    kind: StackKind,
) -> Result<Stack, Vec<String>> {
    let names: Vec<String> = hosts.iter().map(|h| h.name.clone()).collect();
    let (releases, py_skips) =
        releases_desc(kb, req.with.torch_version.as_deref(), req.python.as_deref());
    let mut reasons = Vec::new();
    let mut caveats = Vec::new();
    let mut packages = Vec::new();
    let mut rocm = None;
    let mut python = req.python.as_ref().map(|p| Pin::known(p, "--python"));
    let (release, variant) = match kind {
        StackKind::Rocm => {
            let r = releases
                .iter()
                .find(|r| r.rocm_variants.as_ref().is_some_and(|v| !v.is_empty()));
            let Some(r) = r else {
                let mut e = vec!["no torch release with a ROCm build fits".to_string()];
                e.extend(py_skips);
                return Err(e);
            };
            let mut vs = r.rocm_variants.clone().unwrap_or_default();
            vs.sort_by(|a, b| {
                cmp_versions(b.trim_start_matches("rocm"), a.trim_start_matches("rocm"))
            });
            let v = vs.first().cloned().unwrap_or_default();
            rocm = Some(Pin::known(
                v.trim_start_matches("rocm"),
                format!("torch_releases {}", r.version),
            ));
            let gfx: Vec<String> = hosts
                .iter()
                .flat_map(|h| h.amd_gfx.iter().cloned())
                .collect();
            caveats.push(format!(
                "the GPU targets of torch's ROCm wheels are not in the knowledge base: check that {} {} supported by ROCm {}",
                if gfx.is_empty() { "these GPUs".to_string() } else { gfx.join(", ") },
                if gfx.len() == 1 { "is" } else { "are" },
                v.trim_start_matches("rocm")
            ));
            for h in hosts {
                if let Some(have) = &h.rocm {
                    caveats.push(format!(
                        "host {} has ROCm {have} installed; the wheel brings its own ROCm {} user-space libraries, the amdgpu kernel driver must support them",
                        h.name,
                        v.trim_start_matches("rocm")
                    ));
                }
            }
            reasons.push(Reason {
                subject: "torch".into(),
                text: format!(
                    "AMD GPUs: torch {} {v}, the newest release's newest ROCm build",
                    r.version
                ),
                kb: vec![r.kb()],
            });
            (*r, v)
        }
        StackKind::Cpu | StackKind::Mps => {
            // The CPU wheel is part of every release's build matrix; take the
            // newest release whose matrix the table records.
            let r = match kind {
                StackKind::Cpu => releases.iter().find(|r| r.cuda_variants.is_some()),
                _ => releases.first(),
            };
            let Some(r) = r else {
                let mut e = vec!["no torch release fits".to_string()];
                e.extend(py_skips);
                return Err(e);
            };
            let text = if kind == StackKind::Cpu {
                caveats.push("tier 1: no usable local accelerator; this stack runs on the CPU (or use a remote API)".into());
                format!(
                    "no GPU on these hosts: torch {} CPU build, the newest release whose build matrix the table records",
                    r.version
                )
            } else {
                caveats.push(
                    "Apple silicon: torch uses MPS from the PyPI wheel; containers on macOS have no GPU access".into(),
                );
                format!(
                    "Apple silicon: torch {} from PyPI (MPS backend), the newest release",
                    r.version
                )
            };
            reasons.push(Reason {
                subject: "torch".into(),
                text,
                kb: vec![r.kb()],
            });
            (
                *r,
                if kind == StackKind::Cpu {
                    "cpu".to_string()
                } else {
                    String::new()
                },
            )
        }
        StackKind::Cuda => unreachable!("CUDA stacks go through resolve_cuda"),
    };
    if req.with.torch || !req.with.tensorrt && !req.with.onnxruntime && !req.with.jax {
        let (index, local) = if variant.is_empty() {
            (None, String::new())
        } else {
            (Some(torch_index_url(&variant)), format!("+{variant}"))
        };
        packages.push(PackagePin {
            package: "torch".into(),
            version: Some(format!("{}{local}", release.version)),
            requirement: Some(format!("torch=={}{local}", release.version)),
            index_url: index.clone(),
            source: format!("torch_releases {}", release.version),
            note: None,
        });
        for (on, name, ver) in [
            (req.with.torchvision, "torchvision", &release.torchvision),
            (req.with.torchaudio, "torchaudio", &release.torchaudio),
        ] {
            if on {
                packages.push(PackagePin {
                    package: name.into(),
                    version: ver.as_ref().map(|v| format!("{v}{local}")),
                    requirement: ver.as_ref().map(|v| format!("{name}=={v}{local}")),
                    index_url: index.clone(),
                    source: format!("torch_releases {}", release.version),
                    note: ver.is_none().then(|| {
                        format!(
                            "unknown: no {name} release is known to pin torch {}",
                            release.version
                        )
                    }),
                });
            }
        }
    }
    for (on, what) in [
        (req.with.tensorrt, "TensorRT"),
        (req.with.onnxruntime, "onnxruntime-gpu"),
        (req.with.jax, "JAX CUDA plugin"),
    ] {
        if on {
            caveats.push(format!(
                "{what} needs an NVIDIA GPU: not pinned for these hosts"
            ));
        }
    }
    if python.is_none() {
        python = python_for(release).map(|p| {
            Pin::known(
                p,
                format!("torch_releases {} python range", release.version),
            )
        });
    }
    Ok(Stack {
        id: 0,
        kind,
        hosts: names,
        cuda: None,
        max_cuda: None,
        min_driver: None,
        rocm,
        python,
        python_range: release.python.clone(),
        cudnn: None,
        image: None,
        require_override: None,
        packages,
        gpus: vec![],
        reasons,
        caveats,
    })
}

/// Solve the plan.
pub fn resolve(kb: &Kb, req: &PlanRequest) -> Plan {
    // Two cards from machines of the same name still need telling apart.
    let mut hosts: Vec<HostSpec> = Vec::with_capacity(req.hosts.len());
    for h in &req.hosts {
        let mut h = h.clone();
        let base = h.name.clone();
        let mut k = 2;
        while hosts.iter().any(|o| o.name == h.name) {
            h.name = format!("{base}-{k}");
            k += 1;
        }
        hosts.push(h);
    }
    let ctxs: Vec<HostCtx<'_>> = hosts.iter().map(|h| host_ctx(kb, h)).collect();
    let mut plan = Plan {
        schema_version: SCHEMA_VERSION,
        semantic: req.semantic,
        with: req.with.names(),
        os: req.os.clone(),
        python: req.python.clone(),
        hosts: Vec::new(),
        stacks: Vec::new(),
        unplaced: Vec::new(),
        split: Vec::new(),
        notes: Vec::new(),
    };
    for c in &ctxs {
        let h = c.spec;
        let max = fleet_max_cuda(kb, &[c], req.semantic).map(|(v, why, _)| {
            Pin::known(
                v,
                if why.is_empty() {
                    "newest in the table".to_string()
                } else {
                    why.join("; ")
                },
            )
        });
        plan.hosts.push(HostSummary {
            name: h.name.clone(),
            origin: h.origin.clone(),
            kind: h.kind,
            os: h.os_name.clone(),
            kernel: h.kernel.clone(),
            driver: h.driver.clone(),
            max_cuda: if h.kind == HostKind::Nvidia {
                max
            } else {
                None
            },
            gpus: h
                .gpus
                .iter()
                .map(|g| GpuSummary {
                    name: g.name.clone(),
                    compute_capability: g.cc.clone(),
                    architecture: g
                        .cc
                        .as_ref()
                        .and_then(|c| kb.architecture(c.value))
                        .map(|a| a.name.clone()),
                })
                .collect(),
            notes: h.notes.clone(),
        });
    }
    let mut nvidia: Vec<&HostCtx<'_>> = Vec::new();
    for c in &ctxs {
        if c.spec.kind != HostKind::Nvidia {
            continue;
        }
        if c.blockers.is_empty() {
            nvidia.push(c);
        } else {
            plan.unplaced.push(Unplaced {
                host: c.spec.name.clone(),
                problems: c.blockers.iter().map(|(p, _)| p.clone()).collect(),
                fixes: c.blockers.iter().map(|(_, f)| f.clone()).collect(),
            });
        }
    }
    let mut stacks = Vec::new();
    if !nvidia.is_empty() {
        match resolve_cuda(kb, &nvidia, req) {
            Ok(s) => stacks.push(s),
            Err(why_all) => {
                let groups = split_groups(kb, &nvidia, req);
                if nvidia.len() > 1 {
                    plan.split.push(format!(
                        "no single stack runs on all of {}: {}",
                        nvidia
                            .iter()
                            .map(|h| h.spec.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        why_all.first().cloned().unwrap_or_default()
                    ));
                    plan.split.extend(explain_split(kb, &nvidia, req));
                }
                for g in groups {
                    let members: Vec<&HostCtx<'_>> = g.iter().map(|&i| nvidia[i]).collect();
                    match resolve_cuda(kb, &members, req) {
                        Ok(s) => stacks.push(s),
                        Err(why) => {
                            for m in members {
                                plan.unplaced.push(Unplaced {
                                    host: m.spec.name.clone(),
                                    problems: why.clone(),
                                    fixes: vec![
                                        "upgrade the driver, or relax the request (--with, --python, --semantic minor-compat)".into(),
                                    ],
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    for (kind, stack_kind) in [
        (HostKind::Amd, StackKind::Rocm),
        (HostKind::Cpu, StackKind::Cpu),
        (HostKind::Apple, StackKind::Mps),
    ] {
        let group: Vec<&HostSpec> = hosts.iter().filter(|h| h.kind == kind).collect();
        if group.is_empty() {
            continue;
        }
        match resolve_plain(kb, &group, req, stack_kind) {
            Ok(s) => stacks.push(s),
            Err(why) => {
                for h in group {
                    plan.unplaced.push(Unplaced {
                        host: h.name.clone(),
                        problems: why.clone(),
                        fixes: vec!["relax the request (--with, --python)".into()],
                    });
                }
            }
        }
    }
    let kinds: Vec<HostKind> = {
        let mut k: Vec<HostKind> = hosts.iter().map(|h| h.kind).collect();
        k.sort_by_key(|k| *k as u8);
        k.dedup();
        k
    };
    if kinds.len() > 1 {
        plan.notes.push(
            "the hosts mix accelerator vendors (or have none): each kind gets its own stack".into(),
        );
    }
    for (i, s) in stacks.iter_mut().enumerate() {
        s.id = i + 1;
    }
    plan.stacks = stacks;
    plan
}

/// Group hosts greedily, in the order given: each host joins the first group
/// it still shares a stack with.
fn split_groups(kb: &Kb, hosts: &[&HostCtx<'_>], req: &PlanRequest) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..hosts.len() {
        let mut placed = false;
        for g in groups.iter_mut() {
            let mut trial: Vec<&HostCtx<'_>> = g.iter().map(|&j| hosts[j]).collect();
            trial.push(hosts[i]);
            if resolve_cuda(kb, &trial, req).is_ok() {
                g.push(i);
                placed = true;
                break;
            }
        }
        if !placed {
            groups.push(vec![i]);
        }
    }
    groups
}

/// For each host: the best stack it gets alone, and the first other host that rules it out.
fn explain_split(kb: &Kb, hosts: &[&HostCtx<'_>], req: &PlanRequest) -> Vec<String> {
    let mut out = Vec::new();
    for (i, h) in hosts.iter().enumerate() {
        let Ok(alone) = resolve_cuda(kb, &[h], req) else {
            continue;
        };
        let what = alone
            .torch()
            .and_then(|t| t.version.clone())
            .map(|v| format!("torch {v}"))
            .unwrap_or_else(|| {
                format!(
                    "CUDA {}",
                    alone.cuda.as_ref().map_or("?".into(), |c| c.shown())
                )
            });
        let bound = alone.max_cuda.as_ref().map_or("?".into(), |c| c.shown());
        let mut line = format!("host {} alone: {what} (CUDA <= {bound})", h.spec.name);
        for (j, other) in hosts.iter().enumerate() {
            if i == j {
                continue;
            }
            if resolve_cuda(kb, &[h, other], req).is_err() {
                // Say why the other host cannot take this host's build.
                let why = alone
                    .torch()
                    .and_then(|t| t.version.as_deref())
                    .and_then(|v| {
                        let (rel, variant) = v.split_once('+')?;
                        let row = kb.torch_release(rel)?;
                        try_torch(kb, &[other], row, variant, false, req.semantic).err()
                    })
                    .unwrap_or_else(|| "no common stack".into());
                line.push_str(&format!(
                    "; that build does not run on host {}: {why}",
                    other.spec.name
                ));
                if why.contains("CUDA") {
                    if let Some(arch) = alone
                        .torch()
                        .and_then(|t| t.version.as_deref())
                        .and_then(|v| arch_misfit(kb, other, v))
                    {
                        line.push_str(&format!("; a newer driver there would not help: {arch}"));
                    }
                }
                break;
            }
        }
        out.push(line);
    }
    out
}

/// Why a torch build (`2.10.0+cu128`) has no kernel for some GPU of a host, ignoring the driver.
fn arch_misfit(kb: &Kb, h: &HostCtx<'_>, version: &str) -> Option<String> {
    let (rel, variant) = version.split_once('+')?;
    let list = kb.torch_arch(rel, variant)?.arch_list.as_deref()?;
    for g in &h.spec.gpus {
        let cc = g.cc.as_ref()?.value;
        if let KernelMatch::None { reason } = kb.kernels_for_gpu(list, cc) {
            return Some(format!(
                "{} ({cc}) has no kernel in torch {version}: {reason}",
                g.label()
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_ranges() {
        assert_eq!(python_in("3.9-3.12", "3.12"), Some(true));
        assert_eq!(python_in("3.9-3.12", "3.13"), Some(false));
        assert_eq!(python_in("3.9-3.13, 3.13t", "3.13t"), Some(true));
        assert_eq!(python_in(">=3.10", "3.14"), Some(true));
        assert_eq!(python_in(">=3.10", "3.9"), Some(false));
    }

    #[test]
    fn with_lists() {
        let c = Components::parse("torch==2.5.1,torchvision,tensorrt").unwrap();
        assert!(c.torch && c.torchvision && c.tensorrt && !c.jax);
        assert_eq!(c.torch_version.as_deref(), Some("2.5.1"));
        assert!(Components::parse("tensorflow").is_err());
        assert!(Components::parse("jax==0.4").is_err());
    }

    #[test]
    fn typed_columns_agree_with_the_notes_people_read() {
        let kb = Kb::embedded();
        let pins: Vec<_> = kb
            .torch_releases
            .row
            .iter()
            .filter_map(|r| Some((r, r.cudnn.as_ref()?)))
            .collect();
        assert!(pins.len() >= 5);
        for (r, v) in pins {
            assert!(
                r.note.as_deref().unwrap_or("").contains(v.as_str()),
                "torch {}",
                r.version
            );
        }
        for r in &kb.onnxruntime.row {
            if let Some(lo) = &r.python_min {
                assert!(
                    r.note
                        .as_deref()
                        .unwrap_or("")
                        .contains(&format!("Requires-Python >={lo}")),
                    "ort {}",
                    r.version
                );
            }
        }
        for r in &kb.tensorrt.row {
            for m in r.wheel_cuda_majors.iter().flatten() {
                assert!(
                    r.note
                        .as_deref()
                        .unwrap_or("")
                        .contains(&format!("tensorrt-cu{m}")),
                    "trt {}",
                    r.version_max
                );
            }
        }
    }
}
