//! Row types of the knowledge-base tables in `data/*.toml`. Every row has a
//! `source`; an optional field that is absent means the fact is unknown.
//! Version fields deserialize into typed versions, so a table that loads is
//! a table whose versions parse.

use serde::{Deserialize, Serialize};

use crate::inventory::Segment;
use crate::version::{ArchTarget, ComputeCapability, CudaVersion, DriverVersion};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Meta {
    pub table: String,
    pub description: String,
    #[serde(default)]
    pub as_of: Option<String>,
}

/// A table file: `[meta]` and `[[row]]`s.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Table<R> {
    pub meta: Meta,
    #[serde(default = "Vec::new")]
    pub row: Vec<R>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolkitRow {
    pub version: CudaVersion,
    pub linux_driver: Option<DriverVersion>,
    pub windows_driver: Option<DriverVersion>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinorCompatRow {
    pub cuda_min: CudaVersion,
    pub cuda_max: CudaVersion,
    pub min_linux: Option<DriverVersion>,
    pub min_windows: Option<DriverVersion>,
    pub driver_branch_below: Option<u32>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NvccTargetsRow {
    pub cuda: CudaVersion,
    pub min_sm: Option<ComputeCapability>,
    pub max_sm: Option<ComputeCapability>,
    pub targets: Option<Vec<ComputeCapability>>,
    pub added: Option<Vec<String>>,
    pub removed: Option<Vec<String>>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuRow {
    pub name: String,
    pub architecture: String,
    pub compute_capability: Option<ComputeCapability>,
    /// Set when the CC is not itemised for this model but follows from its
    /// architecture or chip family; `cc_rule` states the rule.
    pub cc_derived: Option<CcDerivation>,
    pub cc_rule: Option<String>,
    pub vram_gib: Option<f64>,
    pub segment: Segment,
    pub pci_device_id: Option<String>,
    pub pci_device_ids: Option<Vec<String>>,
    pub note: Option<String>,
    pub source: String,
}

/// How a GPU row's compute capability was obtained when no NVIDIA list itemises the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CcDerivation {
    /// The architecture has one compute capability for all its discrete parts (Turing: 7.5).
    Architecture,
    /// The chip family fixes it (GA10x: 8.6, GP10x: 6.1).
    Chip,
}

impl GpuRow {
    pub fn pci_ids(&self) -> impl Iterator<Item = &str> {
        self.pci_device_id
            .iter()
            .chain(self.pci_device_ids.iter().flatten())
            .map(|s| s.as_str())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchitectureRow {
    pub name: String,
    #[serde(default)]
    pub compute_capabilities: Vec<ComputeCapability>,
    #[serde(default)]
    pub integrated: bool,
    /// The compute capabilities of a mostly-discrete row that are Tegra
    /// (integrated) parts, e.g. 5.3 (Tegra X1) in the Maxwell row.
    pub integrated_ccs: Option<Vec<ComputeCapability>>,
    pub first_toolkit: Option<CudaVersion>,
    pub min_driver_branch: Option<DriverVersion>,
    pub min_linux_driver: Option<DriverVersion>,
    pub min_windows_driver: Option<DriverVersion>,
    pub last_toolkit: Option<CudaVersion>,
    pub last_driver_branch: Option<DriverVersion>,
    /// Only the open kernel modules drive it: the proprietary flavour does not
    /// support this architecture at all.
    #[serde(default)]
    pub open_module_only: bool,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BranchKind {
    #[serde(rename = "LTSB")]
    Ltsb,
    #[serde(rename = "PB")]
    Pb,
    #[serde(rename = "NFB")]
    Nfb,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverBranchRow {
    pub branch: u32,
    /// LTSB / PB / NFB; left out for a branch no source classifies (those before the
    /// 2019 data-center lifecycle).
    pub kind: Option<BranchKind>,
    /// First public Linux release of the branch (YYYY-MM-DD), where a source dates it.
    pub released: Option<String>,
    pub eol: Option<String>,
    pub max_cuda_major: Option<u32>,
    /// Architectures (as named in `architectures`) whose last driver branch this is.
    pub last_for: Option<Vec<String>>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MigRow {
    pub gpu: String,
    pub min_driver: DriverVersion,
    pub branch: Option<String>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchReleaseRow {
    pub version: String,
    pub python: Option<String>,
    pub cuda_variants: Option<Vec<String>>,
    pub default_variant: Option<String>,
    /// The variant of the PyPI wheel for other platforms (`linux-aarch64`,
    /// `windows-x86_64`, `macos-arm64`): `cpu` or `cuXYZ`. `default_variant`
    /// is linux-x86_64's. A platform missing here is unknown or has no wheel.
    pub platform_defaults: Option<std::collections::BTreeMap<String, String>>,
    pub rocm_variants: Option<Vec<String>>,
    pub torchvision: Option<String>,
    pub torchaudio: Option<String>,
    /// The cuDNN the default wheel pins (`9.1.0.70`).
    pub cudnn: Option<String>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchArchRow {
    pub torch_min: String,
    pub torch_max: String,
    pub variant: String,
    pub platform: String,
    pub arch_list: Option<Vec<ArchTarget>>,
    pub ptx: String,
    pub verified: bool,
    pub note: Option<String>,
    pub source: String,
}

impl TorchArchRow {
    /// Where the arch list comes from, when it is not the inspected wheel:
    /// the build scripts, or (where those could not be read) a secondary copy.
    pub fn arch_provenance(&self) -> Option<&'static str> {
        if self.verified {
            None
        } else if self.source.starts_with("secondary:") {
            Some("a secondary copy of the build scripts")
        } else {
            Some("build scripts")
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnnxruntimeRow {
    pub version: String,
    pub cuda_major: Option<u32>,
    pub cuda_version: Option<CudaVersion>,
    pub cudnn_major: Option<u32>,
    pub tensorrt_major: Option<u32>,
    /// The wheel's Requires-Python floor (`3.10`).
    pub python_min: Option<String>,
    /// The wheel declares the `[cuda,cudnn]` extras.
    pub cuda_extras: Option<bool>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorrtRow {
    pub version_min: String,
    pub version_max: String,
    pub cuda_majors: Option<Vec<u32>>,
    pub cuda_builds: Option<Vec<CudaVersion>>,
    pub min_cc: Option<ComputeCapability>,
    pub max_cc: Option<ComputeCapability>,
    /// The CUDA majors with a `tensorrt-cuNN` wheel on PyPI.
    pub wheel_cuda_majors: Option<Vec<u32>>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudnnRow {
    pub version_min: String,
    pub version_max: String,
    pub cuda_major: u32,
    pub cuda_min: Option<CudaVersion>,
    pub cuda_max: Option<CudaVersion>,
    pub min_linux_driver: Option<DriverVersion>,
    pub min_windows_driver: Option<DriverVersion>,
    pub compute_capabilities: Option<Vec<ComputeCapability>>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorflowRow {
    pub version: String,
    pub cuda_version: Option<CudaVersion>,
    pub cudnn_major: Option<u32>,
    pub arch_list: Option<Vec<ArchTarget>>,
    pub tensorrt_build: Option<bool>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JaxRow {
    pub package: String,
    pub version: String,
    pub cuda_major: u32,
    pub cudnn_pin: Option<String>,
    pub cuda_runtime_pin: Option<String>,
    pub min_linux_driver: Option<DriverVersion>,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NvidiaWheelRow {
    pub package: String,
    pub cuda_major: Option<u32>,
    pub version_scheme: String,
    pub meaning: String,
    pub note: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudaImageRow {
    pub cuda: CudaVersion,
    pub os: Vec<String>,
    pub flavors: Vec<String>,
    pub cudnn: Option<String>,
    pub require_cuda: Option<String>,
    /// Per flavor, the OS tags it is missing on.
    pub flavors_absent_on: Option<std::collections::BTreeMap<String, Vec<String>>>,
    /// Per flavor, the only OS tags it exists on.
    pub flavors_only_on: Option<std::collections::BTreeMap<String, Vec<String>>>,
    /// Flavors whose per-OS coverage is not recorded.
    pub flavors_unrecorded: Option<Vec<String>>,
    /// OS tags whose per-flavor coverage is not recorded.
    pub os_unrecorded: Option<Vec<String>>,
    pub note: Option<String>,
    pub source: String,
}

/// Where a compiled extension's binaries come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prebuilt {
    /// Binary wheels on PyPI.
    Pypi,
    /// Wheels attached to the project's GitHub releases, fetched by its setup.py.
    GithubRelease,
    /// No binaries: built from source against the installed torch and nvcc.
    Source,
}

/// An application with a GPU floor of its own (Ollama: compute capability 5.0).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppRow {
    pub app: String,
    /// How the application calls itself (`Ollama`, `RAPIDS (cuDF, cuML, cuGraph)`).
    pub name: Option<String>,
    /// What it does when no GPU it supports is present (`falls back to the CPU`).
    pub without_gpu: Option<String>,
    pub min_cc: Option<ComputeCapability>,
    pub note: Option<String>,
    pub source: String,
}

/// A compiled extension release range (flash-attn, xformers, vLLM, ...).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtensionRow {
    pub package: String,
    pub version_min: String,
    pub version_max: String,
    /// The exact torch versions its wheel requires (`Requires-Dist: torch==2.5.1`).
    pub torch: Option<Vec<String>>,
    pub prebuilt: Prebuilt,
    pub min_cc: Option<ComputeCapability>,
    pub max_cc: Option<ComputeCapability>,
    pub wheel_naming: Option<String>,
    pub note: Option<String>,
    pub source: String,
}

/// `--kb` table files larger than this are refused (the largest built-in table is under 100 KiB).
pub const MAX_TABLE_BYTES: u64 = 2 * 1024 * 1024;

/// What is wrong with one row of a table (rows count from 1, in file order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub table: &'static str,
    pub row: usize,
    /// The row's key as written (`name = "NVIDIA H100"`), cut short.
    pub key: String,
    pub message: String,
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.row == 0 {
            write!(f, "table {}: {}", self.table, self.message)
        } else {
            write!(
                f,
                "table {}, row {} ({}): {}",
                self.table, self.row, self.key, self.message
            )
        }
    }
}

/// The checks every table passes, built-in or given with `--kb`: each row
/// names its source, `meta.table` is the file's name, keys are unique (and
/// in order where the tables keep an order), and no range has its minimum
/// above its maximum. Linear in the number of rows.
pub fn validate(kb: &crate::kb::Kb) -> Result<(), RowError> {
    use crate::kb::cmp_versions;
    use std::cmp::Ordering;
    use std::collections::{HashMap, HashSet};

    fn err(
        table: &'static str,
        row: usize,
        key: impl std::fmt::Display,
        message: String,
    ) -> RowError {
        RowError {
            table,
            row: row + 1,
            key: crate::render::sanitize::excerpt(&key.to_string(), 60),
            message,
        }
    }
    fn meta(table: &'static str, m: &Meta) -> Result<(), RowError> {
        if m.table != table {
            return Err(RowError {
                table,
                row: 0,
                key: String::new(),
                message: format!(
                    "meta.table is {:?}; it must name the file ({table})",
                    crate::render::sanitize::excerpt(&m.table, 40)
                ),
            });
        }
        Ok(())
    }
    fn sources<R>(
        table: &'static str,
        t: &Table<R>,
        key: impl Fn(&R) -> String,
        source: impl Fn(&R) -> &str,
    ) -> Result<(), RowError> {
        meta(table, &t.meta)?;
        for (i, r) in t.row.iter().enumerate() {
            if source(r).trim().is_empty() {
                return Err(err(
                    table,
                    i,
                    key(r),
                    "no source: every row names where its facts come from".into(),
                ));
            }
        }
        Ok(())
    }
    /// Keys strictly increasing: unique and in the table's order.
    fn increasing<R, K: std::fmt::Display>(
        table: &'static str,
        t: &Table<R>,
        key: impl Fn(&R) -> K,
        cmp: impl Fn(&K, &K) -> Ordering,
    ) -> Result<(), RowError> {
        for (i, w) in t.row.windows(2).enumerate() {
            let (a, b) = (key(&w[0]), key(&w[1]));
            match cmp(&a, &b) {
                Ordering::Less => {}
                Ordering::Equal => {
                    return Err(err(table, i + 1, &b, format!("duplicate of row {}", i + 1)))
                }
                Ordering::Greater => {
                    return Err(err(
                        table,
                        i + 1,
                        &b,
                        format!("out of order: comes after {a} (row {})", i + 1),
                    ))
                }
            }
        }
        Ok(())
    }
    fn range<K: PartialOrd + std::fmt::Display>(
        table: &'static str,
        i: usize,
        key: impl std::fmt::Display,
        what: &str,
        min: Option<K>,
        max: Option<K>,
    ) -> Result<(), RowError> {
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                return Err(err(
                    table,
                    i,
                    key,
                    format!("{what}: the minimum {lo} is above the maximum {hi}"),
                ));
            }
        }
        Ok(())
    }
    let v = |a: &str, b: &str| cmp_versions(a, b);

    sources(
        "cuda_toolkits",
        &kb.cuda_toolkits,
        |r| format!("version = {}", r.version),
        |r| &r.source,
    )?;
    increasing(
        "cuda_toolkits",
        &kb.cuda_toolkits,
        |r| r.version,
        |a, b| a.cmp(b),
    )?;
    sources(
        "minor_compat",
        &kb.minor_compat,
        |r| format!("cuda_min = {}", r.cuda_min),
        |r| &r.source,
    )?;
    for (i, r) in kb.minor_compat.row.iter().enumerate() {
        range(
            "minor_compat",
            i,
            format!("cuda_min = {}", r.cuda_min),
            "cuda_min..cuda_max",
            Some(r.cuda_min),
            Some(r.cuda_max),
        )?;
    }
    sources(
        "nvcc_targets",
        &kb.nvcc_targets,
        |r| format!("cuda = {}", r.cuda),
        |r| &r.source,
    )?;
    increasing(
        "nvcc_targets",
        &kb.nvcc_targets,
        |r| r.cuda,
        |a, b| a.cmp(b),
    )?;
    for (i, r) in kb.nvcc_targets.row.iter().enumerate() {
        range(
            "nvcc_targets",
            i,
            format!("cuda = {}", r.cuda),
            "min_sm..max_sm",
            r.min_sm,
            r.max_sm,
        )?;
    }
    sources(
        "gpus",
        &kb.gpus,
        |r| format!("name = {:?}", r.name),
        |r| &r.source,
    )?;
    let mut names: HashMap<String, usize> = HashMap::with_capacity(kb.gpus.row.len());
    for (i, r) in kb.gpus.row.iter().enumerate() {
        if let Some(first) = names.insert(r.name.to_lowercase(), i) {
            return Err(err(
                "gpus",
                i,
                format!("name = {:?}", r.name),
                format!(
                    "the same name as row {}: a GPU name must match one row",
                    first + 1
                ),
            ));
        }
    }
    sources(
        "architectures",
        &kb.architectures,
        |r| format!("name = {:?}", r.name),
        |r| &r.source,
    )?;
    sources(
        "driver_branches",
        &kb.driver_branches,
        |r| format!("branch = {}", r.branch),
        |r| &r.source,
    )?;
    increasing(
        "driver_branches",
        &kb.driver_branches,
        |r| r.branch,
        |a, b| a.cmp(b),
    )?;
    sources(
        "mig",
        &kb.mig,
        |r| format!("gpu = {:?}", r.gpu),
        |r| &r.source,
    )?;
    sources(
        "torch_releases",
        &kb.torch_releases,
        |r| format!("version = {:?}", r.version),
        |r| &r.source,
    )?;
    increasing(
        "torch_releases",
        &kb.torch_releases,
        |r| r.version.clone(),
        |a, b| v(a, b),
    )?;
    sources(
        "torch_arch",
        &kb.torch_arch,
        |r| format!("{}-{} {}", r.torch_min, r.torch_max, r.variant),
        |r| &r.source,
    )?;
    let mut seen = HashSet::new();
    for (i, r) in kb.torch_arch.row.iter().enumerate() {
        let key = format!(
            "{}-{} {} {}",
            r.torch_min, r.torch_max, r.variant, r.platform
        );
        if !super::TORCH_ARCH_PLATFORMS.contains(&r.platform.as_str()) {
            return Err(err(
                "torch_arch",
                i,
                &key,
                format!(
                    "platform {:?} is not one of {}",
                    r.platform,
                    super::TORCH_ARCH_PLATFORMS.join(", ")
                ),
            ));
        }
        if v(&r.torch_min, &r.torch_max).is_gt() {
            return Err(err(
                "torch_arch",
                i,
                &key,
                format!(
                    "torch_min {} is above torch_max {}",
                    r.torch_min, r.torch_max
                ),
            ));
        }
        if !seen.insert((
            r.torch_min.clone(),
            r.torch_max.clone(),
            r.variant.clone(),
            r.platform.clone(),
        )) {
            return Err(err(
                "torch_arch",
                i,
                &key,
                "duplicate (range, variant, platform)".into(),
            ));
        }
    }
    sources(
        "onnxruntime",
        &kb.onnxruntime,
        |r| format!("version = {:?}", r.version),
        |r| &r.source,
    )?;
    increasing(
        "onnxruntime",
        &kb.onnxruntime,
        |r| r.version.clone(),
        |a, b| v(a, b),
    )?;
    sources(
        "tensorrt",
        &kb.tensorrt,
        |r| format!("{}-{}", r.version_min, r.version_max),
        |r| &r.source,
    )?;
    for (i, r) in kb.tensorrt.row.iter().enumerate() {
        let key = format!("{}-{}", r.version_min, r.version_max);
        if v(&r.version_min, &r.version_max).is_gt() {
            return Err(err(
                "tensorrt",
                i,
                &key,
                format!(
                    "version_min {} is above version_max {}",
                    r.version_min, r.version_max
                ),
            ));
        }
        range("tensorrt", i, &key, "min_cc..max_cc", r.min_cc, r.max_cc)?;
    }
    sources(
        "cudnn",
        &kb.cudnn,
        |r| format!("{}-{} cuda{}", r.version_min, r.version_max, r.cuda_major),
        |r| &r.source,
    )?;
    for (i, r) in kb.cudnn.row.iter().enumerate() {
        let key = format!("{}-{} cuda{}", r.version_min, r.version_max, r.cuda_major);
        if v(&r.version_min, &r.version_max).is_gt() {
            return Err(err(
                "cudnn",
                i,
                &key,
                format!(
                    "version_min {} is above version_max {}",
                    r.version_min, r.version_max
                ),
            ));
        }
        range(
            "cudnn",
            i,
            &key,
            "cuda_min..cuda_max",
            r.cuda_min,
            r.cuda_max,
        )?;
    }
    sources(
        "tensorflow",
        &kb.tensorflow,
        |r| format!("version = {:?}", r.version),
        |r| &r.source,
    )?;
    sources(
        "jax",
        &kb.jax,
        |r| format!("{} {}", r.package, r.version),
        |r| &r.source,
    )?;
    sources(
        "nvidia_wheels",
        &kb.nvidia_wheels,
        |r| format!("package = {:?}", r.package),
        |r| &r.source,
    )?;
    sources(
        "cuda_images",
        &kb.cuda_images,
        |r| format!("cuda = {}", r.cuda),
        |r| &r.source,
    )?;
    increasing("cuda_images", &kb.cuda_images, |r| r.cuda, |a, b| a.cmp(b))?;
    Ok(())
}
