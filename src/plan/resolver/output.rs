//! What `pin` returns: the stack, its pins and the reasons for each.

use super::*;

/// A value with the fact it rests on. `value: None` means unknown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pin {
    pub value: Option<String>,
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Pin {
    pub(super) fn known(value: impl ToString, source: impl Into<String>) -> Pin {
        Pin {
            value: Some(value.to_string()),
            source: source.into(),
            note: None,
        }
    }
    pub(super) fn with_note(mut self, note: impl Into<String>) -> Pin {
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

/// How a stack leans on CUDA minor-version compatibility: some host's driver
/// is older than the stack's CUDA toolkit driver, at or above the major's floor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MinorCompatUse {
    /// The hosts whose driver runs the stack's CUDA only this way.
    pub hosts: Vec<String>,
    /// The lowest driver that runs the stack's CUDA this way (Linux).
    pub floor: String,
    /// The driver from which on the stack's CUDA runs with no caveats (Linux).
    pub toolkit_driver: Option<String>,
    /// What it costs, plainly: APIs that need a newer driver, no JIT of newer
    /// PTX, whether forward compatibility is a way around on these GPUs.
    pub caveats: Vec<String>,
    /// The `minor_compat` row of the floor.
    pub kb: KbRef,
}

/// The GPUs of one host a stack is for, when the host's GPUs need different stacks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuSelection {
    pub host: String,
    /// The GPUs' indices, as nvidia-smi numbers them.
    pub gpus: Vec<u32>,
    /// How a process selects them: `CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0`.
    pub env: String,
    /// How a container gets only them: `docker run --gpus '"device=0"'`.
    pub docker: String,
}

/// Why one host's GPUs got one stack per group, and the choices.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuSplit {
    pub host: String,
    /// A newer driver would let one build run on every GPU (false: the GPUs
    /// themselves are the limit, and no driver helps).
    pub driver_limited: bool,
    /// Which GPU limits which way.
    pub why: Vec<String>,
    /// What to do: one stack per GPU group, or dropping or replacing a GPU.
    pub choices: Vec<String>,
    /// The stacks (ids) of the GPU groups, in GPU order.
    pub stacks: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stack {
    /// 1-based.
    pub id: usize,
    pub kind: StackKind,
    pub hosts: Vec<String>,
    /// The compatibility semantic the stack was solved under (CUDA stacks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic: Option<Semantic>,
    /// Present when the stack runs only through CUDA minor-version compatibility somewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minor_compat: Option<MinorCompatUse>,
    /// Present when the stack is for some GPUs of a host only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_selection: Option<GpuSelection>,
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
    /// The newest CUDA this host runs under the chosen semantic (`auto`: with no caveats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cuda: Option<Pin>,
    /// Under `auto`: the newest CUDA under minor-version compatibility, when newer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cuda_minor_compat: Option<Pin>,
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
    /// What was asked: `auto`, `toolkit` or `minor_compat`; each CUDA stack says which it uses.
    pub semantic: SemanticMode,
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
    /// Hosts whose GPUs need different stacks, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gpu_split: Vec<GpuSplit>,
    pub notes: Vec<String>,
}

impl Plan {
    /// Exit code: 1 when some host got no stack.
    pub fn exit_code(&self) -> i32 {
        i32::from(!self.unplaced.is_empty())
    }
}
