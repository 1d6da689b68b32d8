//! The one data model: what is known about a machine, each fact with where
//! it was read. `probe` fills it from a live system, `ingest` from pasted
//! reports; a saved card (`card --json`) reads back into it.
//!
//! Unknown facts are `None`; a probe that degraded (a timeout, an unreadable
//! file) also leaves a [`Note`] saying why.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::version::{ArchTarget, ComputeCapability, CudaVersion, DriverVersion};

/// Bumped whenever the JSON shape changes incompatibly.
pub const SCHEMA_VERSION: u32 = 1;

/// A value and where it came from (`"/proc/driver/nvidia/version"`, `"NVML"`,
/// `"input line 14"`, `"env GPUCOMPAT_DRIVER_VERSION"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fact<T> {
    pub value: T,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl<T> Fact<T> {
    pub fn new(value: T, source: impl Into<String>) -> Self {
        Fact {
            value,
            source: source.into(),
            note: None,
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Fact<U> {
        Fact {
            value: f(self.value),
            source: self.source,
            note: self.note,
        }
    }
}

/// Something a probe or parser could not establish, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// What was being read: `nvidia-smi`, `/proc/driver/nvidia/version`, `NVML`.
    pub subject: String,
    pub message: String,
}

type F<T> = Option<Fact<T>>;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inventory {
    pub schema_version: u32,
    /// Where this inventory came from: `probe /`, `probe --root DIR`, `explain FILE`, `card FILE`.
    pub origin: String,
    pub os: OsInfo,
    pub pci: Vec<PciDevice>,
    pub nvidia: NvidiaDriver,
    pub gpus: Vec<Gpu>,
    pub amd: AmdInfo,
    pub apple: AppleInfo,
    /// Windows-only facts (VC++ runtime, long paths, WSL seen from Windows, CUDA_PATH checks).
    #[serde(skip_serializing_if = "WindowsInfo::is_empty")]
    pub windows: WindowsInfo,
    pub container: ContainerInfo,
    pub wsl: WslInfo,
    pub fabric: FabricInfo,
    pub toolkits: Vec<Toolkit>,
    pub libraries: SystemLibraries,
    /// Environment variables that matter to the GPU stack, by name.
    pub env: BTreeMap<String, Fact<String>>,
    pub python: Vec<PythonEnv>,
    /// Error messages seen (pasted tracebacks, smoke test failures), mapped to what they imply.
    pub errors: Vec<ObservedError>,
    /// How the failing program was started and on what, as far as a pasted
    /// report shows it (explain only; empty for a probed machine).
    #[serde(skip_serializing_if = "Setting::is_empty")]
    pub setting: Setting,
    pub notes: Vec<Note>,
}

impl Inventory {
    pub fn new(origin: impl Into<String>) -> Self {
        Inventory {
            schema_version: SCHEMA_VERSION,
            origin: origin.into(),
            ..Default::default()
        }
    }

    /// Read from a machine by the probe (its origin is `probe ...`, kept when
    /// its card or check JSON is read back), not from a pasted report, where
    /// what is absent is only unsaid.
    pub fn probed(&self) -> bool {
        self.origin.starts_with("probe")
    }

    pub fn note(&mut self, subject: impl Into<String>, message: impl Into<String>) {
        self.notes.push(Note {
            subject: subject.into(),
            message: message.into(),
        });
    }

    /// NVIDIA GPUs seen on the PCI bus, whether or not a driver runs them.
    pub fn nvidia_pci(&self) -> impl Iterator<Item = &PciDevice> {
        self.pci.iter().filter(|d| d.vendor == GpuVendor::Nvidia)
    }

    /// Record a GPU a report names, unless one of its vendor is known already.
    pub fn add_named_gpu(
        &mut self,
        vendor: GpuVendor,
        name: impl Into<String>,
        source: impl Into<String>,
    ) {
        if !self.pci.iter().any(|p| p.vendor == vendor) {
            self.pci.push(PciDevice::named(vendor, name, source));
        }
    }

    pub fn has_nvidia_hardware(&self) -> bool {
        self.nvidia_pci().next().is_some() || !self.gpus.is_empty()
    }

    /// The observed errors of these kinds, in the order they were read.
    pub fn errors_of(&self, kinds: &[ErrorKind]) -> Vec<&ObservedError> {
        self.errors
            .iter()
            .filter(|e| kinds.contains(&e.kind))
            .collect()
    }

    /// The user-mode driver version: NVML first, then libcuda/libnvidia-ml
    /// file names, then the kernel module.
    pub fn driver_version(&self) -> Option<&Fact<DriverVersion>> {
        self.nvidia
            .driver_version
            .as_ref()
            .or(self.nvidia.user_libraries.first().map(|l| &l.version))
            .or(self.nvidia.kernel_module.as_ref())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OsKind {
    #[default]
    Linux,
    Macos,
    Windows,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OsInfo {
    pub kind: F<OsKind>,
    /// `/etc/os-release` ID, e.g. `ubuntu`.
    pub id: F<String>,
    /// `/etc/os-release` VERSION_ID, e.g. `22.04`.
    pub version_id: F<String>,
    pub pretty_name: F<String>,
    /// Kernel release, e.g. `6.8.0-45-generic`.
    pub kernel: F<String>,
    /// CPU architecture, e.g. `x86_64`, `aarch64`, `arm64`.
    pub arch: F<String>,
    pub glibc: F<String>,
    pub secure_boot: F<bool>,
    pub hostname: F<String>,
}

/// Platform and launcher facts a pasted report shows around its errors:
/// what a pasted `docker run`, Ray task or Slurm job asked for, and
/// platforms the rest of the inventory has no slot for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Setting {
    /// An NVIDIA Jetson (Tegra, L4T, JetPack).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jetson: F<bool>,
    /// A Google Colab runtime (its URL, its paths, the report's words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colab: F<bool>,
    /// Programs built by Nix (a /nix/store path, nix-shell, nixpkgs, NixOS):
    /// they search only Nix paths and /run/opengl-driver for the driver's libraries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nix: F<bool>,
    /// The report says the failure came after the machine suspended or hibernated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_suspend: F<bool>,
    /// The failure is a `docker build` step's (`The command '/bin/sh -c ...'
    /// returned a non-zero code`, BuildKit's `failed to solve: process`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docker_build_step: F<bool>,
    /// The GPU is an NVIDIA vGPU profile in a VM (`Virtualization Mode: VGPU`,
    /// a profile name such as A40-48C or L4-24Q, a fractional cloud GPU).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vgpu: F<bool>,
    /// A pasted `docker run`: whether it gave the container GPUs
    /// (`--gpus`, `--runtime=nvidia`, `--device nvidia.com/gpu=...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docker_run_gpus: F<bool>,
    /// A pasted CDI spec (`nvidia-ctk cdi generate`): whether the device nodes
    /// its `containerEdits` give every container include /dev/nvidia-uvm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cdi_spec_uvm: F<bool>,
    /// A Ray task or actor declared without `num_gpus` (Ray then hides every GPU from it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ray_without_gpus: F<bool>,
    /// A Slurm job, and whether it asked for GPUs (`--gres=gpu`, `--gpus`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slurm_gpus: F<bool>,
    /// A Slurm job that asks for GPUs per task (`--gpus-per-task`): each task
    /// is bound to its own GPUs and sees only those.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slurm_gpus_per_task: F<bool>,
    /// MIG enabled, read from a pasted nvidia-smi, on some GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mig_enabled: F<bool>,
    /// A Linux NVIDIA driver package in a pasted package list
    /// (`libnvidia-compute-510`, `nvidia-driver-535`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linux_driver_package: F<String>,
    /// The CUDA of the `nvidia/cuda:X.Y...` image a pasted `docker run` starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_image_cuda: F<String>,
    /// A library the program could not load (`libcudnn_ops_infer.so.8:
    /// cannot open shared object file`) that the report shows on disk (a
    /// `find` or `ls` line, a path typed in prose): its path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library_on_disk: F<String>,
    /// A script line that only assigns a GPU selector (`CUDA_VISIBLE_DEVICES=3`),
    /// never exported, before the command the script starts: `VAR=value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unexported_assignment: F<String>,
    /// GPUs chosen by index from other than 0 (`CUDA_VISIBLE_DEVICES=5`,
    /// `gpu_ids: '3,4'`) next to a program that reports using device 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renumbered_devices: F<String>,
    /// A GPU asked for by an index other than 0 on a command line or in code
    /// (`--gpu 1`, `cuda:1`, `torch.cuda.set_device(1)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_index: F<String>,
    /// A script sets CUDA_VISIBLE_DEVICES after it already called into torch.cuda.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible_devices_set_late: F<bool>,
    /// The report says a program's device numbers and nvidia-smi's do not
    /// name the same GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_order_differs: F<bool>,
    /// A CUDA extension being built from source (`setup.py install`,
    /// BuildExtension, `Building wheel for X`): the package, when named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extension_build: F<String>,
    /// The Jetson host's L4T (Jetson Linux) major release: `R36` for
    /// JetPack 6 (/etc/nv_tegra_release, "L4T 36.4.0", "JetPack 6").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l4t_host: F<u32>,
    /// A Jetson container image whose tag names an L4T release
    /// (`dustynv/l4t-ml:r35.4.1`, `nvcr.io/nvidia/l4t-base:r32.4.3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l4t_image: F<String>,
    /// The L4T major release that image's tag names (35 for `r35.4.1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l4t_image_release: F<u32>,
    /// A k3s or RKE2 cluster, whose bundled containerd keeps its own
    /// configuration (`k3s`, `RKE2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k3s: F<String>,
    /// A DGX or HGX 8-GPU system the report names (`DGX A100`, `HGX H100`),
    /// whose GPUs are joined through NVSwitches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nvswitch_board: F<String>,
    /// The report says the failure began after a system or driver update
    /// (`after a recent Ubuntu update`, `worked yesterday`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_update: F<bool>,
    /// The CUDA toolkit the report says was installed (`installed the 396
    /// driver and CUDA 9.1`), kept beside the toolkits tools reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit_installed_said: F<String>,
    /// A line programs print on a working GPU that reads like a fault
    /// (Paddle's driver/runtime API notice, TensorRT's lazy-loading advice).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub benign_notice: F<String>,
    /// The report names a pod's `runtimeClassName` (the nvidia runtime
    /// chosen per pod, not by default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_class_named: F<bool>,
    /// An application the report is about whose GPU floor the knowledge
    /// base knows (`ollama`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: F<String>,
    /// A `deepspeed` launch given `--num_gpus`, `--include`, `--exclude` or
    /// `--num_nodes` (the launcher then sets CUDA_VISIBLE_DEVICES itself):
    /// the command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deepspeed_picks_gpus: F<String>,
    /// A CUDA_VISIBLE_DEVICES assignment the report shows commented out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible_devices_commented: F<bool>,
    /// Subjects of the stack the report mentions (first line of each), for
    /// hints when no rule names a cause.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<Mention>,
}

/// A subject a report mentions, with the line that does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mention {
    pub topic: Topic,
    /// The line, trimmed to at most 160 bytes.
    pub text: String,
    pub source: String,
    /// The line reads as a failure (an error, something missing or refused).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failing: bool,
}

/// What a mention is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    Mig,
    Nvswitch,
    Onnxruntime,
    Tensorrt,
    Cudnn,
    /// CUDA_VISIBLE_DEVICES or LD_LIBRARY_PATH.
    EnvVar,
    /// A GPU, CUDA, nvcc or NVIDIA itself (`the GPU does not appear`).
    Gpu,
    /// Collective work across GPUs: NCCL, all-reduce, tensor parallelism, DDP.
    Collective,
}

impl Setting {
    pub fn is_empty(&self) -> bool {
        self == &Setting::default()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum GpuVendor {
    #[default]
    Nvidia,
    Amd,
    Intel,
    Apple,
    Other,
}

/// A display or 3D controller on the PCI bus.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PciDevice {
    /// `0000:01:00.0`
    pub address: String,
    pub vendor: GpuVendor,
    /// `0x10de`
    pub vendor_id: String,
    /// `0x2684`
    pub device_id: String,
    /// `0x030000`
    pub class: String,
    /// The bound kernel driver (`nvidia`, `nouveau`, `vfio-pci`, `amdgpu`); None when nothing is bound.
    pub driver: Option<String>,
    /// The marketing name when the knowledge base knows the device id.
    pub name: Option<String>,
    pub source: String,
    /// Video memory in MiB where the kernel driver exports it (amdgpu's `mem_info_vram_total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vram_mib: Option<u64>,
}

impl PciDevice {
    /// A GPU of this vendor a pasted report names in words (no bus address,
    /// no device id): `vendor_id` is the vendor's PCI id.
    pub fn named(vendor: GpuVendor, name: impl Into<String>, source: impl Into<String>) -> Self {
        let vendor_id = match vendor {
            GpuVendor::Nvidia => "0x10de",
            GpuVendor::Amd => "0x1002",
            GpuVendor::Intel => "0x8086",
            GpuVendor::Apple | GpuVendor::Other => "",
        };
        PciDevice {
            vendor,
            vendor_id: vendor_id.to_string(),
            name: Some(name.into()),
            source: source.into(),
            ..Default::default()
        }
    }

    /// `before ADDRESS after` for evidence labels; without the address where
    /// the report named the device without one.
    pub fn with_address(&self, before: &str, after: &str) -> String {
        [before, self.address.as_str(), after]
            .iter()
            .filter(|w| !w.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// WSL2's paravirtualized GPU as lspci lists it: Microsoft's device 008e
    /// ("3D controller: Microsoft Corporation Device 008e", "Basic Render
    /// Driver" where pci.ids names it), Hyper-V's GPU-PV adapter.
    pub fn is_wsl_gpu_pv(&self) -> bool {
        let name = self.name.as_deref().unwrap_or("");
        (self.vendor_id == "0x1414" && self.device_id == "0x008e")
            || (name.contains("Microsoft Corporation")
                && (name.contains("Device 008e") || name.contains("Basic Render Driver")))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModuleFlavor {
    Open,
    Proprietary,
}

/// A user-mode driver library found on disk, with the version in its file name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserLibrary {
    /// `libcuda` or `libnvidia-ml`.
    pub name: String,
    pub path: String,
    pub version: Fact<DriverVersion>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceNode {
    pub path: String,
    pub readable: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DriverModel {
    Wddm,
    Tcc,
    Mcdm,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NvidiaDriver {
    /// The loaded kernel module's version (`/sys/module/nvidia/version`, `/proc/driver/nvidia/version`).
    pub kernel_module: F<DriverVersion>,
    pub module_flavor: F<ModuleFlavor>,
    /// Is the `nvidia` module loaded at all?
    pub module_loaded: F<bool>,
    /// User-mode libraries (libcuda, libnvidia-ml) found, loader path first.
    pub user_libraries: Vec<UserLibrary>,
    /// The driver version as the user-mode driver reports it (NVML, nvidia-smi, a pasted report).
    pub driver_version: F<DriverVersion>,
    /// The newest CUDA the driver supports (cuDriverGetVersion, NVML, nvidia-smi's "CUDA Version").
    pub cuda_max: F<CudaVersion>,
    pub device_nodes: Vec<DeviceNode>,
    /// Windows driver model of the GPUs, when reported (WDDM/TCC).
    pub driver_model: F<DriverModel>,
    /// Did `nvidia-smi` / NVML answer? False with a note when it failed or hung.
    pub smi_ok: F<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Segment {
    Geforce,
    Workstation,
    Datacenter,
    Embedded,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MigInfo {
    pub enabled: bool,
    /// Number of GPU instances, when known.
    pub instances: Option<u32>,
}

/// A GPU as the driver (or a report) names it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Gpu {
    pub index: u32,
    pub name: F<String>,
    pub uuid: F<String>,
    pub compute_capability: F<ComputeCapability>,
    pub memory_mib: F<u64>,
    /// NVML brand: `geforce`, `tesla`, `quadro`, `nvidia_rtx`, ...
    pub brand: F<String>,
    pub pci_bus_id: F<String>,
    pub mig: F<MigInfo>,
    pub persistence: F<bool>,
    pub driver_model: F<DriverModel>,
    pub architecture: F<String>,
    pub segment: F<Segment>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AmdInfo {
    pub amdgpu_loaded: F<bool>,
    pub kfd_present: F<bool>,
    pub rocm_version: F<String>,
    /// `gfx90a`, `gfx1100`, ...
    pub gfx_targets: Vec<Fact<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppleInfo {
    /// `Apple M2 Max`
    pub chip: F<String>,
    pub unified_memory_gib: F<u64>,
    pub mps_available: F<bool>,
    /// GPU cores (`sppci_cores` of `system_profiler SPDisplaysDataType`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_cores: F<u32>,
    /// Metal support as system_profiler words it (`Metal 3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metal: F<String>,
    /// The CPU is Apple silicon (`hw.optional.arm64`), whatever the probing process runs as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub apple_silicon: F<bool>,
    /// CPU name (`machdep.cpu.brand_string`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: F<String>,
    /// Rosetta 2 is installed (its runtime is on disk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rosetta_installed: F<bool>,
    /// Every graphics processor system_profiler lists (Intel and AMD ones on Intel Macs too).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub graphics: Vec<Fact<String>>,
}

/// A video controller as Windows lists it (`Win32_VideoController`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VideoController {
    pub name: String,
    /// The internal form (`32.0.15.6094`), as WMI reports it.
    pub driver_version: Option<String>,
    /// `PCI\VEN_10DE&DEV_2684&...`
    pub pnp_device_id: Option<String>,
    pub vendor: GpuVendor,
    pub source: String,
}

/// A file looked for, and whether it is there.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FileCheck {
    pub name: String,
    /// Where it was found, or the first place looked when it was not.
    pub path: String,
    pub present: bool,
}

/// An environment variable that names a directory, and whether it exists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PathVar {
    pub var: String,
    pub value: String,
    pub exists: bool,
}

/// A WSL distribution as `wsl.exe --list --verbose` lists it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WslDistro {
    pub name: String,
    pub state: String,
    /// 1 or 2.
    pub version: u32,
    pub default: bool,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowsInfo {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub video_controllers: Vec<VideoController>,
    /// vcruntime140.dll, vcruntime140_1.dll, msvcp140.dll in System32.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vc_runtime: Vec<FileCheck>,
    /// The NVIDIA driver's CUDA driver library (`nvcuda.dll`) in System32.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nvcuda_dll: F<bool>,
    /// `HKLM\SYSTEM\CurrentControlSet\Control\FileSystem` `LongPathsEnabled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub long_paths_enabled: F<bool>,
    /// CUDA_PATH and CUDA_PATH_V*_* with whether their directory exists.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cuda_path_vars: Vec<PathVar>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wsl_exe: F<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wsl_distros: Vec<WslDistro>,
}

impl WindowsInfo {
    pub fn is_empty(&self) -> bool {
        self == &WindowsInfo::default()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerInfo {
    /// `docker`, `podman`, `kubernetes`, `containerd`, `lxc`; None on bare metal.
    pub runtime: F<String>,
    pub kubernetes: F<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WslInfo {
    pub is_wsl: F<bool>,
    /// `/usr/lib/wsl/lib` exists.
    pub lib_dir: F<bool>,
    /// `/usr/lib/wsl/lib/libcuda.so*` exists.
    pub libcuda_in_lib_dir: F<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FabricInfo {
    pub nvswitch_count: F<u32>,
    pub fabric_manager_installed: F<bool>,
    pub fabric_manager_version: F<DriverVersion>,
    pub fabric_manager_running: F<bool>,
    pub infiniband_devices: Vec<Fact<String>>,
    pub nvlink_active: F<bool>,
}

/// A CUDA toolkit found on disk or on PATH.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Toolkit {
    pub path: String,
    pub version: Fact<CudaVersion>,
    /// `nvcc` exists in its bin directory.
    pub has_nvcc: bool,
    /// Has a `compat/` directory (the cuda-compat forward-compatibility package).
    pub has_compat: bool,
}

/// A system library (cuDNN, NCCL, TensorRT) found on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibraryInstall {
    pub path: String,
    /// Version as read (`9.1.0`, `8.6.1`, `2.21.5`).
    pub version: Fact<String>,
    /// The CUDA release the library was built for, where its package says
    /// (`libcudnn8 8.8.0.121-1+cuda12.0`, `libcudnn9-cuda-12`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built_for_cuda: F<CudaVersion>,
}

impl LibraryInstall {
    /// The CUDA major the library was built for: its package's `+cudaX.Y`,
    /// or a `-cuda-N` package name (`package libcudnn9-cuda-12`).
    pub fn cuda_major(&self) -> Option<u32> {
        if let Some(c) = &self.built_for_cuda {
            return Some(c.value.major);
        }
        let (_, n) = self.path.strip_prefix("package ")?.rsplit_once("-cuda-")?;
        n.parse().ok()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SystemLibraries {
    pub cudnn: Vec<LibraryInstall>,
    pub nccl: Vec<LibraryInstall>,
    pub tensorrt: Vec<LibraryInstall>,
    /// `/usr/local/cuda*/compat` user-mode driver libraries (forward compatibility).
    pub cuda_compat: Vec<LibraryInstall>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum EnvKind {
    Venv,
    Conda,
    #[default]
    System,
    User,
    Uv,
    Pyenv,
    /// Known only from a pasted report.
    Reported,
}

/// One installed Python distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PyPackage {
    /// Normalized name (`onnxruntime-gpu`, `nvidia-cudnn-cu12`).
    pub name: String,
    pub version: String,
    /// Where it was read (`.../torch-2.5.1.dist-info/METADATA`, `pip list line 4`).
    pub source: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub editable: bool,
}

/// What the torch wheel was built with (from `torch/version.py`, collect_env, or Python itself).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TorchBuild {
    /// `2.5.1+cu124`
    pub version: F<String>,
    /// `torch.version.cuda`; a `Fact` whose value is None means the wheel is CPU-only.
    pub cuda: F<Option<CudaVersion>>,
    /// `torch.version.hip` for ROCm builds.
    pub hip: F<Option<String>>,
    /// `torch.cuda.get_arch_list()` when known from running Python or a report.
    pub arch_list: F<Vec<ArchTarget>>,
    pub cudnn: F<String>,
    /// `torch.version.git_version`: the commit the wheel was built from.
    pub git_version: F<String>,
    /// The wheel's platform tag (`Tag:` in the dist-info WHEEL file: `cp312-none-macosx_11_0_arm64`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wheel_tag: F<String>,
    /// The CUDA runtime DLL inside a Windows wheel (`torch\lib\cudart64_12.dll`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundled_cudart: F<String>,
}

/// Build facts of other ML frameworks (onnxruntime, tensorflow, jax, tensorrt).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FrameworkBuild {
    pub version: F<String>,
    pub cuda: F<CudaVersion>,
    pub cudnn: F<String>,
    /// The CUDA major the build targets, also when only the major is recorded
    /// (`tensorrt-cu12`, `jax-cuda12-plugin`, `libcudart.so.11.0` in a library's DT_NEEDED).
    pub cuda_major: F<u32>,
}

/// What `--exec-python` (or a pasted collect_env) learned by running torch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PythonRuntime {
    pub cuda_available: F<bool>,
    /// `torch.backends.cudnn.enabled` as printed: a switch, true by default
    /// in every build, CPU-only included; it says nothing about cuDNN being there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cudnn_enabled: F<bool>,
    pub device_count: F<u32>,
    pub devices: Vec<Gpu>,
    pub matmul_ok: F<bool>,
    pub exception: F<String>,
    /// `torch.__version__` as imported; a `Fact` whose value is None means torch is not installed.
    pub torch_version: F<Option<String>>,
    /// `torch.version.cuda` as imported; None inside the `Fact` means a CPU or ROCm build.
    pub torch_cuda: F<Option<CudaVersion>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PythonEnv {
    /// The environment prefix (`/home/u/.venv`), or the interpreter when that is all we know.
    pub path: String,
    pub interpreter: Option<String>,
    pub python_version: F<String>,
    pub kind: EnvKind,
    /// The environment the user is in now (VIRTUAL_ENV, CONDA_PREFIX, or first python on PATH).
    pub active: bool,
    pub site_packages: Vec<String>,
    /// The ML-relevant distributions (not every package), sorted by name.
    pub packages: Vec<PyPackage>,
    pub torch: Option<TorchBuild>,
    pub onnxruntime: Option<FrameworkBuild>,
    pub tensorflow: Option<FrameworkBuild>,
    pub jax: Option<FrameworkBuild>,
    pub tensorrt: Option<FrameworkBuild>,
    pub runtime: Option<PythonRuntime>,
    /// The CUDA runtime the environment's wheels carry (`nvidia-cuda-runtime-cu12==12.4.127` → 12.4,
    /// or the `cuda-toolkit` metapackage for 13.x).
    pub cuda_runtime: F<CudaVersion>,
    /// The cuDNN the environment's wheels carry (`nvidia-cudnn-cu12` version).
    pub cudnn: F<String>,
    /// The CPU architectures the interpreter is built for (`arm64`, `x86_64`, `arm64 x86_64`
    /// for a universal2 build), from its Mach-O header or its wheels' platform tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arch: F<String>,
}

impl PythonEnv {
    pub fn package(&self, name: &str) -> Option<&PyPackage> {
        self.packages.iter().find(|p| p.name == name)
    }
}

/// An error message seen in a report or raised by a probe (smoke test,
/// NVML init), and what kind of failure it is. Parsers and probes record it;
/// rules decide what it means next to the other facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObservedError {
    pub kind: ErrorKind,
    /// The text as seen (trimmed to one line).
    pub text: String,
    pub source: String,
    /// A CUDA / NVML error code when the message carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
}

/// The shared vocabulary of failures, used by `explain`'s error catalog,
/// `smoke`'s CUDA error mapping and the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// NVML: "Driver/library version mismatch" (NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18).
    NvmlDriverLibraryMismatch,
    /// CUDA 803: display driver and CUDA driver versions differ.
    SystemDriverMismatch,
    /// CUDA 35: "CUDA driver version is insufficient for CUDA runtime version".
    InsufficientDriver,
    /// CUDA 36: the call requires a newer driver (minor-version compatibility limits).
    CallRequiresNewerDriver,
    /// torch: "The NVIDIA driver on your system is too old (found version N)".
    DriverTooOld,
    /// CUDA 209: "no kernel image is available for execution on the device".
    NoKernelImage,
    /// torch: "... with CUDA capability sm_XY is not compatible with the current PyTorch installation".
    ArchNotCompiled,
    /// CUDA 222: PTX from a newer toolkit than the driver's JIT.
    UnsupportedPtx,
    /// CUDA 100: no CUDA-capable device is detected.
    NoDevice,
    /// CUDA 34: a stub libcuda was loaded.
    StubLibrary,
    /// CUDA 802: "system not yet initialized" (fabric manager on NVSwitch systems).
    SystemNotReady,
    /// CUDA 804: forward compatibility attempted on non-supported hardware.
    CompatNotSupported,
    /// CUDA 999 / 3: unknown or initialization error.
    InitFailed,
    /// "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver".
    SmiNoDriver,
    /// torch: "Found no NVIDIA driver on your system".
    NoNvidiaDriver,
    /// libcuda.so.1 cannot be loaded / is missing.
    LibcudaMissing,
    /// torch: "Torch not compiled with CUDA enabled".
    TorchNotCompiledWithCuda,
    /// torch cpp_extension: "The detected CUDA version (X) mismatches the version that was used to compile PyTorch (Y)".
    ToolkitTorchMismatch,
    /// "libcudnn.so.N: cannot open shared object file", "Could not load library libcudnn_*".
    CudnnMissing,
    /// cuDNN present but of the wrong version ("Loaded runtime CuDNN library: X but source was compiled with: Y").
    CudnnVersionMismatch,
    /// onnxruntime: CUDAExecutionProvider failed to load / not available.
    OrtCudaProviderFailed,
    /// TensorRT: engine plan built on another device / TensorRT version.
    TrtEngineIncompatible,
    /// A CUDA library of another major could not be loaded (libcublas.so.11, libcudart.so.12 ...).
    CudaLibraryMissing,
    /// nvidia-container-cli: "requirement error: unsatisfied condition: cuda>=X".
    ContainerRequirementUnsatisfied,
    /// docker: could not select device driver "" with capabilities: [[gpu]].
    ContainerNoGpuRuntime,
    /// ROCm/HIP: no GPU / HIP error.
    HipError,
    /// Apple MPS not available / not built.
    MpsUnavailable,
    /// WSL: libcuda.so cannot be loaded from /usr/lib/wsl/lib.
    WslLibcuda,
    /// CUDA_VISIBLE_DEVICES hides every GPU.
    NoVisibleDevices,
    /// A GPU hung or an operation timed out.
    Timeout,
    /// CUDA out of memory (not a compatibility failure; reported so it is not misread as one).
    OutOfMemory,
    /// NVRM: the GPU is supported only by an older (legacy) driver branch.
    GpuDroppedByDriver,
    /// NVRM: the open kernel module does not support this (pre-Turing) GPU.
    OpenModuleUnsupported,
    /// A program or framework says CUDA is not available, without saying why
    /// (`torch.cuda.is_available(): False`, "Torch is not able to use GPU").
    CudaUnavailable,
    /// A compiled extension (flash-attn, xformers, vLLM's `_C`, apex, bitsandbytes...)
    /// built against another torch or CUDA: `undefined symbol`, "xFormers was built for".
    ExtensionMismatch,
    /// A CUDA library of the system shadows the one the wheel carries
    /// (`undefined symbol: cublasLtGetStatusString`).
    LibraryShadowed,
    /// A package that has no build for this platform ("vLLM only supports
    /// Linux", no Triton distribution for Windows).
    PlatformUnsupported,
    /// NVML: "Insufficient Permissions": the process may not open /dev/nvidia*
    /// (a rootless container without the device groups, or node permissions).
    NvmlNoPermission,
    /// nvidia-container-cli could not mount a driver file over one the image
    /// already holds ("file exists"): driver files were baked into the image.
    ContainerDriverFilesInImage,
    /// Not a failure: a report that reads nvidia-smi's CUDA Version as the
    /// installed toolkit's ("nvidia-smi still shows 12.2").
    SmiCudaQuestion,
    /// Not a failure: a question about a GPU usage figure (Windows Task
    /// Manager's engine graphs, a utilization said to be low).
    UsageGraphQuestion,
    /// Not a failure by itself: the report says the GPU seems unused
    /// ("the GPU seems to haven't been used").
    GpuUnusedQuestion,
    /// PyTorch's CUDA caching allocator failed an internal assertion
    /// (CUDACachingAllocator.cpp), which its configuration usually causes.
    AllocatorAssert,
    /// A library the loaded program opens itself at run time, of its own
    /// exact version, is not on the loader path (TensorRT's builder resource).
    OwnLibraryOffPath,
    /// torch.compile's Triton backend refuses the GPU ("too old to be
    /// supported by the triton GPU compiler": Triton needs CC 7.0+).
    TritonGpuTooOld,
    /// A framework says it has no CUDA in this build (a CPU-only jaxlib:
    /// "a CUDA-enabled jaxlib is not installed", "No GPU/TPU found").
    FrameworkCpuBuild,
    /// CUDA_PATH (or CUDA_HOME) names the toolkit's bin folder, so a program
    /// that appends `bin` looks in `...\bin\bin`.
    CudaPathIsBin,
    /// `nvidia-smi -q`: `License Status : Unlicensed` on a vGPU (an unlicensed
    /// vGPU is throttled and loses CUDA).
    VgpuUnlicensed,
    /// libNVVM (the toolkit's `nvvm/lib64/libnvvm.so`) could not be loaded:
    /// numba's "libNVVM cannot be found", a build script's libnvvm.so.N.
    NvvmMissing,
    /// A container engine could not resolve a CDI device name
    /// (`nvidia.com/gpu=0`): no CDI spec, a spec it cannot read, or an
    /// engine too old for CDI names in `--device`.
    CdiDeviceUnresolved,
    /// The Kubernetes device plugin refuses the node's MIG layout under its
    /// MIG strategy ("More than one MIG device type present", "migEnabled=true
    /// was not configured correctly").
    MigStrategyMismatch,
    /// A package's CUDA extension was never compiled (GroundingDINO's
    /// "Failed to load custom C++ ops", `name '_C' is not defined`): its
    /// install found no CUDA toolkit.
    ExtensionNotBuilt,
    /// "Torch not compiled with XPU enabled": a torch without Intel GPU
    /// (XPU) support, where an Intel GPU was asked for.
    TorchNotCompiledWithXpu,
    /// DKMS (or the installer) could not build the nvidia module for the
    /// running kernel ("Bad return status for module build on kernel").
    ModuleBuildFailed,
    /// The GSP firmware file is of another driver version than the module
    /// ("GSP firmware image version mismatch").
    GspFirmwareMismatch,
    /// The GSP firmware did not start ("cannot initialize GSP-RM").
    GspInitFailed,
    /// An early open kernel module refused a GeForce/workstation GPU
    /// ("Open nvidia.ko is only ready for use on Data Center GPUs").
    OpenModuleDatacenterOnly,
    /// A MIG mode change waits for a GPU reset that a process holding the
    /// GPU blocks ("pending enable state", "could not be reset").
    MigPendingReset,
    /// The kernel refused to load the module: `could not insert 'nvidia':
    /// Operation not permitted` (lockdown, an unsigned module).
    ModuleLoadNotPermitted,
    /// The GPU stopped answering on the PCI bus ("GPU has fallen off the
    /// bus", Xid 79).
    GpuFellOffBus,
    /// The GPU's PCI memory windows (BARs) were left unassigned or could not
    /// be reserved ("BAR0 is 0M", "The system BIOS may have misconfigured
    /// your GPU", "BAR 1: can't reserve").
    PciResourceUnassigned,
    /// The nvcc on PATH and the toolkit a build or program uses are not one
    /// install ("nvcc path != CUDA_PATH", "stub version of nvrtc",
    /// "Path to libdevice library not specified", an HPC SDK nvcc for a CUDA
    /// it does not ship).
    ToolkitPathMismatch,
    /// A report asks whether the host's CUDA toolkit version lets it run a
    /// container or image of another CUDA version (it plays no part).
    HostCudaContainerQuestion,
    /// nvidia-container-cli could not load the host driver's NVML
    /// ("load library failed: libnvidia-ml.so.1").
    ContainerToolkitNoDriver,
    /// CUDA error 304: "OS call failed or operation not supported on this OS".
    CudaOsCallFailed,
    /// A program says a CUDA library was loaded from LD_LIBRARY_PATH rather
    /// than from its own copy (CUDA.jl's "was loaded from a system path").
    LoaderPathOverride,
    /// XLA's "ptxas does not support CC X.Y": the ptxas it found (a CUDA
    /// toolkit on PATH) is older than the GPU.
    PtxasOlderThanGpu,
    /// OpenVINO's GPU device (its intel_gpu plugin) failed: "invalid vendor
    /// type", "Couldn't find a suitable kernel".
    OpenvinoGpuPluginFailed,
    /// The program turned GPU use off because the CPU lacks AVX (Ollama's
    /// "CPU does not have AVX or AVX2, disabling GPU support").
    CpuLacksAvx,
    /// CUDA refused an operation the device or platform does not support
    /// (error 801, `CUDA_ERROR_NOT_SUPPORTED`; XLA's "does not support CUDA
    /// Virtual Memory Management"): memory pools, VMM, unified memory.
    CudaFeatureUnsupported,
    /// XLA (TensorFlow, jax) found no CUDA libdevice to compile a GPU kernel
    /// with ("libdevice not found at ./libdevice.10.bc").
    XlaLibdeviceMissing,
    /// A build found no CUDA toolkit: torch's cpp_extension "CUDA_HOME
    /// environment variable is not set", "No CUDA runtime is found".
    ToolkitNotFound,
    /// Shared memory (/dev/shm) ran out: NCCL's "Error while creating shared
    /// memory segment", a DataLoader worker's "insufficient shared memory (shm)".
    ShmExhausted,
    /// A standalone ptxas (a CUDA toolkit's) refused PTX of a newer ISA
    /// version than it knows ("Unsupported .version 8.4; current version is
    /// '7.8'" outside the driver's JIT): the toolkit is older than the
    /// compiler that wrote the PTX.
    PtxasTooOld,
    /// Apple's MPS backend lacks an operation or a dtype the program uses
    /// ("not currently implemented for the MPS device", "the MPS framework
    /// doesn't support float64").
    MpsUnsupported,
    /// "PyTorch is not linked with support for xpu devices" where the paste
    /// never imports Intel's extension, which registers the `xpu` device for
    /// torch before 2.5.
    XpuNotRegistered,
    /// "device kernel image is invalid" (CUDA 200): a compiled kernel the
    /// driver cannot load on this GPU.
    InvalidKernelImage,
    /// "uncorrectable ECC error encountered" (CUDA 214): the GPU's memory
    /// reported an error ECC could not correct.
    EccUncorrectable,
    /// "named symbol not found" (CUDA 500) while CUDA initializes: the libcuda
    /// loaded lacks an entry point the runtime calls.
    LibcudaSymbolMissing,
    /// A kernel stopped by a display watchdog ("the launch timed out and
    /// was terminated", CUDA 702).
    LaunchTimeout,
    /// NVRTC could not load its builtins library (libnvrtc-builtins.so,
    /// nvrtc-builtins64_XY.dll), which it opens by name when it compiles.
    NvrtcBuiltinsMissing,
    /// A failure the catalog does not know.
    Other,
}

impl ErrorKind {
    /// A question the report asks, not a failure it shows (nvidia-smi's CUDA
    /// Version, a usage graph, a GPU that seems idle, the host's toolkit in a
    /// container).
    pub fn is_question(self) -> bool {
        matches!(
            self,
            ErrorKind::SmiCudaQuestion
                | ErrorKind::UsageGraphQuestion
                | ErrorKind::GpuUnusedQuestion
                | ErrorKind::HostCudaContainerQuestion
        )
    }
}
