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
    pub kind: BranchKind,
    pub eol: Option<String>,
    pub max_cuda_major: Option<u32>,
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
