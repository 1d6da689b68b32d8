//! The smoke test's rules (`SMK001`…): what each failure on the way to a
//! GEMM means, with the same docs sections as every other rule, so that
//! `gpucompat rule SMK001` prints them and `--select`/`--ignore` know them.

use crate::finding::{Category, Severity};
use crate::rules::Docs;

/// A smoke finding's identity: code, name, category, severity, summary and docs.
#[derive(Debug, Clone, Copy)]
pub struct SmokeRule {
    pub code: &'static str,
    pub name: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub summary: &'static str,
    pub docs: Docs,
}

impl PartialEq for SmokeRule {
    fn eq(&self, other: &Self) -> bool {
        self.code == other.code
    }
}

impl Eq for SmokeRule {}

const DRIVER_API: &str =
    "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html (CUresult)";
const RUNTIME_API: &str =
    "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaError_t)";
const CUBLAS: &str = "https://docs.nvidia.com/cuda/cublas/index.html (cublasStatus_t)";
const COMPAT: &str = "https://docs.nvidia.com/deploy/cuda-compatibility/index.html";
const WSL: &str = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html";
const FABRIC: &str = "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/";
const ENV_VARS: &str =
    "https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html";
const PTX: &str =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#ptx-compatibility";

macro_rules! rules {
    ($($id:ident = $code:literal, $name:literal, $cat:ident, $sev:ident, $summary:literal,
        what: $what:literal, why: $why:literal, fix: $fix:literal, sources: [$($src:expr),* $(,)?];)*) => {
        $(pub const $id: SmokeRule = SmokeRule {
            code: $code,
            name: $name,
            category: Category::$cat,
            severity: Severity::$sev,
            summary: $summary,
            docs: Docs {
                what_it_checks: $what,
                why_it_breaks: $why,
                how_to_fix: $fix,
                sources: &[$($src),*],
            },
        };)*
        /// Every smoke rule, in code order.
        pub const RULES: &[SmokeRule] = &[$($id),*];
    };
}

rules! {
    NO_CUDA_DRIVER = "SMK001", "no-cuda-driver", NoDriver, Error,
        "libcuda.so.1 (the CUDA user-mode driver) cannot be loaded",
        what: "The smoke test loads libcuda.so.1 (or the file GPUCOMPAT_LIBCUDA names) with the dynamic loader; this fires when no candidate loads.",
        why: "Every CUDA program, framework wheels included, reaches the GPU through libcuda, which ships with the NVIDIA driver, not with the CUDA toolkit or a wheel. Without it nothing runs on the GPU.",
        fix: "Install the NVIDIA driver for the GPU; in a container, start it with the NVIDIA Container Toolkit (`docker run --gpus all`). If the driver is installed, check `ldconfig -p | grep libcuda`.",
        sources: [DRIVER_API, "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"];
    WSL_NO_LIBCUDA = "SMK002", "wsl-no-libcuda", Wsl, Error,
        "under WSL, libcuda.so.1 from /usr/lib/wsl/lib cannot be loaded",
        what: "Under WSL 2, the same load of libcuda.so.1 failing.",
        why: "Under WSL 2 libcuda comes from the Windows driver, mapped into /usr/lib/wsl/lib; a Linux NVIDIA driver installed inside the distribution replaces it and breaks CUDA.",
        fix: "Install or update the NVIDIA driver on Windows, then `wsl --shutdown`; do not install a Linux driver inside WSL. Check that /usr/lib/wsl/lib is in the loader path.",
        sources: [WSL];
    STUB_LIBCUDA = "SMK003", "stub-libcuda", EnvVar, Error,
        "a stub libcuda (CUDA toolkit lib64/stubs) was loaded instead of the driver's (CUDA 34)",
        what: "A driver call answering CUDA_ERROR_STUB_LIBRARY (34).",
        why: "The CUDA toolkit ships a stub libcuda.so for linking only; when its directory is on the loader path ahead of the driver's, programs load the stub and every call fails.",
        fix: "Remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH and the ld.so configuration.",
        sources: [DRIVER_API, RUNTIME_API];
    LIBCUDA_INCOMPLETE = "SMK004", "libcuda-incomplete", DriverTooOld, Error,
        "the loaded libcuda lacks a driver API entry point (too old, or not libcuda)",
        what: "A driver API symbol the smoke test calls (cuInit, cuDeviceGet, cuMemAlloc_v2, ...) missing from the loaded library.",
        why: "A library without those entry points is either a driver too old for the API or not the CUDA driver at all; programs built against a current CUDA fail to start on it.",
        fix: "Install a current NVIDIA driver; check that GPUCOMPAT_LIBCUDA and LD_LIBRARY_PATH point at the driver's libcuda.so.1.",
        sources: ["https://docs.nvidia.com/cuda/cuda-driver-api/index.html"];
    CUDA_INIT_FAILED = "SMK005", "cuda-init-failed", NoDriver, Error,
        "cuInit failed (CUDA 3, 4, 999 or another initialisation error)",
        what: "cuInit returning an error other than the ones with their own rule.",
        why: "The driver is installed but could not start: kernel modules not loaded, /dev/nvidia* missing or unreadable, or a driver update without a reboot.",
        fix: "Check `nvidia-smi`; load the modules (`sudo modprobe nvidia nvidia-uvm`), check /dev/nvidia* and /dev/nvidia-uvm, and reboot after a driver update.",
        sources: [DRIVER_API];
    DRIVER_OLDER_THAN_RUNTIME = "SMK006", "driver-older-than-runtime", DriverTooOld, Error,
        "the driver is older than the CUDA runtime that called it (CUDA 35, 36)",
        what: "cudaErrorInsufficientDriver (35) or cudaErrorCallRequiresNewerDriver (36).",
        why: "A CUDA runtime needs a driver that supports its CUDA version (or, from CUDA 11, the same major under minor-version compatibility, without newer features).",
        fix: "Update the NVIDIA driver, or use a CUDA build the driver supports.",
        sources: [RUNTIME_API, COMPAT];
    FORWARD_COMPAT_UNSUPPORTED = "SMK007", "forward-compat-unsupported", DriverTooOld, Error,
        "forward-compatibility libraries (cuda-compat) on a GPU that does not support them (CUDA 804)",
        what: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804).",
        why: "The cuda-compat package lets a newer user-mode driver run over an older kernel module, on data-center GPUs only; on other GPUs it refuses to start.",
        fix: "Remove the cuda-compat libraries (/usr/local/cuda*/compat) from LD_LIBRARY_PATH and the ld.so configuration, or upgrade the driver itself.",
        sources: [DRIVER_API, COMPAT];
    DRIVER_LIBRARY_MISMATCH = "SMK008", "driver-library-mismatch", DriverLibraryMismatch, Error,
        "libcuda and the nvidia kernel module are of different versions (CUDA 803)",
        what: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803).",
        why: "libcuda and the nvidia kernel module must come from one driver version; after an upgrade without a reboot, or a container carrying its own libcuda, they differ.",
        fix: "Reboot after a driver update, or reinstall the driver so both come from one version (compare /proc/driver/nvidia/version with the libcuda.so.* version).",
        sources: [DRIVER_API];
    FABRIC_MANAGER_NOT_READY = "SMK009", "fabric-manager-not-ready", FabricManager, Error,
        "the system is not initialised: on NVSwitch systems, Fabric Manager is not running (CUDA 802)",
        what: "CUDA_ERROR_SYSTEM_NOT_READY (802).",
        why: "On NVSwitch systems (HGX, DGX) CUDA waits for the nvidia-fabricmanager service, which must be of exactly the driver's version; without it CUDA does not initialise.",
        fix: "Install nvidia-fabricmanager of the driver's version and `sudo systemctl enable --now nvidia-fabricmanager`.",
        sources: [DRIVER_API, FABRIC];
    NO_CUDA_DEVICE = "SMK010", "no-cuda-device", NoDriver, Error,
        "the driver loaded but sees no CUDA-capable GPU (CUDA 100)",
        what: "CUDA_ERROR_NO_DEVICE (100), or cuDeviceGetCount answering 0, when CUDA_VISIBLE_DEVICES does not explain it.",
        why: "The driver runs but no GPU reaches it: a container started without GPUs, a VM without passthrough, or a GPU the driver does not support.",
        fix: "Check `nvidia-smi -L`; pass the GPUs to the container (`docker run --gpus all`, the nvidia.com/gpu resource in Kubernetes), or to the VM.",
        sources: [DRIVER_API, "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"];
    VISIBLE_DEVICES_HIDE_GPUS = "SMK011", "visible-devices-hide-gpus", EnvVar, Error,
        "CUDA_VISIBLE_DEVICES hides every GPU (CUDA 100)",
        what: "No CUDA device while CUDA_VISIBLE_DEVICES is set to a value that leaves none visible (empty, -1, an index or UUID that does not exist).",
        why: "CUDA enumerates only the devices CUDA_VISIBLE_DEVICES lists, up to its first invalid entry.",
        fix: "`unset CUDA_VISIBLE_DEVICES`, or set it to indices or GPU UUIDs that exist (`nvidia-smi -L`).",
        sources: [ENV_VARS];
    GPU_UNAVAILABLE = "SMK012", "gpu-unavailable", PlatformPosture, Error,
        "the GPU is busy or unavailable, e.g. exclusive-process compute mode held by another process (CUDA 46)",
        what: "CUDA_ERROR_DEVICE_UNAVAILABLE (46).",
        why: "In exclusive-process compute mode only one process may hold a context on the GPU; another one does.",
        fix: "See who holds the GPU (`nvidia-smi`) and its compute mode (`nvidia-smi -q -d COMPUTE`); set Default mode (`sudo nvidia-smi -c DEFAULT`) or wait.",
        sources: [DRIVER_API];
    NO_KERNEL_IMAGE = "SMK013", "no-kernel-image", ArchUnsupported, Error,
        "no kernel image for this GPU's compute capability (CUDA 209, CUBLAS_STATUS_ARCH_MISMATCH)",
        what: "CUDA_ERROR_NO_BINARY_FOR_GPU (209) or CUBLAS_STATUS_ARCH_MISMATCH (8).",
        why: "Compiled GPU code runs only on the architectures it was built for (or that can JIT its PTX); a library built without this GPU's architecture has nothing to run on it.",
        fix: "Use a build of the library that includes this GPU's architecture (or PTX it can JIT), or a GPU the build supports.",
        sources: [DRIVER_API, CUBLAS, "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility"];
    PTX_NEWER_THAN_DRIVER = "SMK014", "ptx-newer-than-driver", DriverTooOld, Error,
        "PTX from a newer toolkit than the driver's JIT compiler (CUDA 222)",
        what: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222) while loading a module.",
        why: "The driver JIT-compiles PTX only up to the PTX version of its own CUDA; PTX from a newer toolkit is rejected.",
        fix: "Update the NVIDIA driver to one that supports the toolkit that produced the PTX.",
        sources: [DRIVER_API, PTX];
    GPU_OUT_OF_MEMORY = "SMK015", "gpu-out-of-memory", PlatformPosture, Error,
        "the GPU had no memory for a 512x512 GEMM (CUDA 2); not a compatibility failure",
        what: "CUDA_ERROR_OUT_OF_MEMORY (2) or CUBLAS_STATUS_ALLOC_FAILED (3) during the GEMM.",
        why: "Other processes hold the GPU's memory; the stack may be fine, but nothing more fits.",
        fix: "Free GPU memory: see the processes holding it with `nvidia-smi`.",
        sources: [DRIVER_API, CUBLAS];
    GPU_HUNG = "SMK016", "gpu-hung", PlatformPosture, Error,
        "a driver call did not return within the timeout",
        what: "A driver or cuBLAS call that does not return within --timeout, or CUDA_ERROR_LAUNCH_TIMEOUT (702) / CUDA_ERROR_TIMEOUT (909).",
        why: "A hung GPU or driver (often after an Xid error) blocks every program that touches it.",
        fix: "Check `nvidia-smi` and `sudo dmesg | grep -i xid`; reset the GPU (`nvidia-smi -r -i N`) or reboot. Raise --timeout if the machine is merely slow.",
        sources: [DRIVER_API, "https://docs.nvidia.com/deploy/xid-errors/index.html"];
    GEMM_WRONG_RESULT = "SMK017", "gemm-wrong-result", PlatformPosture, Error,
        "the GPU's fp16 GEMM differs from the CPU reference",
        what: "The GEMM result compared element by element with a CPU reference, within a tolerance for fp16 rounding.",
        why: "Wrong numbers without an error point at failing hardware (memory, ECC) or a broken driver.",
        fix: "Check `nvidia-smi -q -d ECC` and `sudo dmesg | grep -i xid`, update the driver, and reset or replace the GPU if it persists.",
        sources: ["https://docs.nvidia.com/deploy/xid-errors/index.html"];
    CUDA_CALL_FAILED = "SMK018", "cuda-call-failed", PlatformPosture, Error,
        "a CUDA driver call failed with an error not covered by another code",
        what: "Any other CUresult error from a driver call after cuInit.",
        why: "The driver refused the call; the error name and text say why.",
        fix: "Check `nvidia-smi` and `sudo dmesg | grep -i xid`; rerun with -v and report the error if it persists.",
        sources: [DRIVER_API];
    NO_SYSTEM_CUBLAS = "SMK019", "no-system-cublas", Misconception, Info,
        "no system cuBLAS; frameworks ship their own, and the GEMM ran on gpucompat's built-in kernel",
        what: "libcublas.so.{13,12,11} (or GPUCOMPAT_LIBCUBLAS) not loading; an error under --gemm cublas.",
        why: "Nothing breaks: a driver-only machine is normal, since PyTorch, JAX and TensorFlow wheels bring their own cuBLAS. Only programs linked against a system cuBLAS need one.",
        fix: "Nothing for frameworks that ship cuBLAS; to test a system cuBLAS, install the CUDA toolkit's libcublas or point GPUCOMPAT_LIBCUBLAS at one.",
        sources: [CUBLAS];
    CUBLAS_FAILED = "SMK020", "cublas-failed", PlatformPosture, Error,
        "a cuBLAS call failed",
        what: "A cublasStatus_t error from cublasCreate or cublasGemmEx not covered by another code.",
        why: "cuBLAS could not initialise or run the GEMM; the status name says why.",
        fix: "Check that cuBLAS and the driver are of compatible versions (`gpucompat check`); rerun with -v.",
        sources: [CUBLAS];
    CUBLAS_NEEDS_NEWER_DRIVER = "SMK021", "cublas-needs-newer-driver", DriverTooOld, Error,
        "cuBLAS is built for a newer CUDA major than the driver supports",
        what: "CUBLAS_STATUS_NOT_INITIALIZED (1) from a cuBLAS whose major (cuBLAS 12.x ships with CUDA 12.x) is above the driver's CUDA major.",
        why: "A library of a newer CUDA major needs a driver of that major; minor-version compatibility stops at the major.",
        fix: "Update the NVIDIA driver, or use the cuBLAS of the CUDA major the driver supports.",
        sources: [CUBLAS, COMPAT];
    SMOKE_NEEDS_LIVE_MACHINE = "SMK022", "smoke-needs-live-machine", PlatformPosture, Warning,
        "smoke runs GPU code, so it needs the live machine, not a --root tree",
        what: "`smoke` (or `check --smoke`) asked to run under a --root other than /.",
        why: "A directory tree has no running driver; loading its libraries would run code from it, so nothing is loaded and nothing is proven.",
        fix: "Run `gpucompat smoke` on the machine, or inside the container, itself.",
        sources: ["gpucompat README, `--root`: code inside a root is not loaded or run"];
    SMOKE_WORKER_FAILED = "SMK023", "smoke-worker-failed", PlatformPosture, Error,
        "the smoke test's worker thread stopped without a result",
        what: "The thread that makes the driver calls ending, or failing to start, without reporting a result.",
        why: "Nothing was proven about the GPU; this is a gpucompat bug or a crash inside the driver.",
        fix: "Report it with `gpucompat smoke --json -v` output.",
        sources: ["gpucompat src/smoke/mod.rs (the worker thread and its timeouts)"];
}

/// The rule with this code.
pub fn rule(code: &str) -> Option<&'static SmokeRule> {
    RULES.iter().find(|r| r.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_are_unique_and_ordered() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.code, format!("SMK{:03}", i + 1));
            assert!(rule(r.code).is_some());
            assert!(
                RULES.iter().filter(|o| o.name == r.name).count() == 1,
                "{}",
                r.name
            );
        }
        assert!(rule("SMK999").is_none());
    }
}
