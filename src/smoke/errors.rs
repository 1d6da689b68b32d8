//! What went wrong on the way to a GEMM, in three forms: the CUDA / cuBLAS
//! names of the codes, the shared [`ErrorKind`] each maps to (pushed into an
//! [`Inventory`] as an [`ObservedError`], so the rules judge smoke failures
//! as they judge pasted tracebacks), and the smoke report's own findings,
//! codes `SMK001`…, in the categories `check` uses.

use std::time::Duration;

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{ErrorKind, ObservedError};
use crate::version::{ComputeCapability, CudaVersion};

use super::gemm::Comparison;

/// One failure met by the smoke test.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// `--root` is not `/`: there is no live driver to call.
    NotLive { root: String },
    /// No libcuda could be loaded; each candidate with the loader's error.
    LibcudaMissing {
        tried: Vec<(String, String)>,
        /// The path came from GPUCOMPAT_LIBCUDA.
        overridden: bool,
        /// The machine is WSL (libcuda should come from /usr/lib/wsl/lib).
        wsl: bool,
    },
    /// A library loaded but lacks an entry point the smoke test calls.
    SymbolMissing { library: String, symbol: String },
    /// A driver API call returned an error.
    Cuda {
        call: &'static str,
        code: i32,
        /// `cuGetErrorName` / `cuGetErrorString` as the driver words them.
        name: Option<String>,
        text: Option<String>,
        device: Option<u32>,
    },
    /// cuInit succeeded but cuDeviceGetCount reported no device.
    NoDevices,
    /// No cuBLAS could be loaded.
    CublasMissing {
        tried: Vec<(String, String)>,
        /// `--gemm cublas`: a missing cuBLAS is then an error, not a fallback.
        required: bool,
    },
    /// A cuBLAS call returned an error status.
    Cublas {
        call: &'static str,
        status: i32,
        device: Option<u32>,
        /// cuBLAS's own version, `12.4.5`.
        version: Option<String>,
    },
    /// A step did not return within the timeout; the worker was left behind.
    Timeout {
        step: String,
        device: Option<u32>,
        after: Duration,
    },
    /// The GEMM ran but its result differs from the CPU reference.
    WrongResult {
        device: u32,
        backend: &'static str,
        cmp: Comparison,
        tolerance: f64,
    },
    /// The worker thread could not start or stopped without a result.
    WorkerLost { detail: String },
}

/// What the findings may cite besides the failure itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    /// The libcuda that was loaded.
    pub driver_library: Option<String>,
    /// cuDriverGetVersion.
    pub driver_cuda: Option<CudaVersion>,
    /// GPUs as the driver named them: (index, name, compute capability).
    pub devices: Vec<(u32, Option<String>, Option<ComputeCapability>)>,
    /// CUDA_VISIBLE_DEVICES as set for this process (None when unset).
    pub visible_devices: Option<String>,
    /// NVIDIA GPUs are visible to the kernel (/proc/driver/nvidia/gpus, /dev/nvidia0).
    pub gpus_on_bus: bool,
}

/// A smoke finding's identity: code, name, category, severity, and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmokeRule {
    pub code: &'static str,
    pub name: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub summary: &'static str,
}

macro_rules! rules {
    ($($id:ident = $code:literal, $name:literal, $cat:ident, $sev:ident, $summary:literal;)*) => {
        $(pub const $id: SmokeRule = SmokeRule {
            code: $code,
            name: $name,
            category: Category::$cat,
            severity: Severity::$sev,
            summary: $summary,
        };)*
        /// Every smoke finding, in code order.
        pub const RULES: &[SmokeRule] = &[$($id),*];
    };
}

rules! {
    NO_CUDA_DRIVER = "SMK001", "no-cuda-driver", NoDriver, Error,
        "libcuda.so.1 (the CUDA user-mode driver) cannot be loaded";
    WSL_NO_LIBCUDA = "SMK002", "wsl-no-libcuda", Wsl, Error,
        "under WSL, libcuda.so.1 from /usr/lib/wsl/lib cannot be loaded";
    STUB_LIBCUDA = "SMK003", "stub-libcuda", NoDriver, Error,
        "a stub libcuda (CUDA toolkit lib64/stubs) was loaded instead of the driver's (CUDA 34)";
    LIBCUDA_INCOMPLETE = "SMK004", "libcuda-incomplete", DriverTooOld, Error,
        "the loaded libcuda lacks a driver API entry point (too old, or not libcuda)";
    CUDA_INIT_FAILED = "SMK005", "cuda-init-failed", NoDriver, Error,
        "cuInit failed (CUDA 3, 4, 999 or another initialisation error)";
    DRIVER_OLDER_THAN_RUNTIME = "SMK006", "driver-older-than-runtime", DriverTooOld, Error,
        "the driver is older than the CUDA runtime that called it (CUDA 35, 36)";
    FORWARD_COMPAT_UNSUPPORTED = "SMK007", "forward-compat-unsupported", DriverTooOld, Error,
        "forward-compatibility libraries (cuda-compat) on a GPU that does not support them (CUDA 804)";
    DRIVER_LIBRARY_MISMATCH = "SMK008", "driver-library-mismatch", DriverLibraryMismatch, Error,
        "libcuda and the nvidia kernel module are of different versions (CUDA 803)";
    FABRIC_MANAGER_NOT_READY = "SMK009", "fabric-manager-not-ready", FabricManager, Error,
        "the system is not initialised: on NVSwitch systems, Fabric Manager is not running (CUDA 802)";
    NO_CUDA_DEVICE = "SMK010", "no-cuda-device", NoDriver, Error,
        "the driver loaded but sees no CUDA-capable GPU (CUDA 100)";
    VISIBLE_DEVICES_HIDE_GPUS = "SMK011", "visible-devices-hide-gpus", EnvVar, Error,
        "CUDA_VISIBLE_DEVICES hides every GPU (CUDA 100)";
    GPU_UNAVAILABLE = "SMK012", "gpu-unavailable", PlatformPosture, Error,
        "the GPU is busy or unavailable, e.g. exclusive-process compute mode held by another process (CUDA 46)";
    NO_KERNEL_IMAGE = "SMK013", "no-kernel-image", ArchUnsupported, Error,
        "no kernel image for this GPU's compute capability (CUDA 209, CUBLAS_STATUS_ARCH_MISMATCH)";
    PTX_NEWER_THAN_DRIVER = "SMK014", "ptx-newer-than-driver", DriverTooOld, Error,
        "PTX from a newer toolkit than the driver's JIT compiler (CUDA 222)";
    GPU_OUT_OF_MEMORY = "SMK015", "gpu-out-of-memory", PlatformPosture, Error,
        "the GPU had no memory for a 512x512 GEMM (CUDA 2); not a compatibility failure";
    GPU_HUNG = "SMK016", "gpu-hung", PlatformPosture, Error,
        "a driver call did not return within the timeout";
    GEMM_WRONG_RESULT = "SMK017", "gemm-wrong-result", PlatformPosture, Error,
        "the GPU's fp16 GEMM differs from the CPU reference";
    CUDA_CALL_FAILED = "SMK018", "cuda-call-failed", PlatformPosture, Error,
        "a CUDA driver call failed with an error not covered by another code";
    NO_SYSTEM_CUBLAS = "SMK019", "no-system-cublas", Misconception, Info,
        "no system cuBLAS; frameworks ship their own, and the GEMM ran on gpucompat's built-in kernel";
    CUBLAS_FAILED = "SMK020", "cublas-failed", PlatformPosture, Error,
        "a cuBLAS call failed";
    CUBLAS_NEEDS_NEWER_DRIVER = "SMK021", "cublas-needs-newer-driver", DriverTooOld, Error,
        "cuBLAS is built for a newer CUDA major than the driver supports";
    SMOKE_NEEDS_LIVE_MACHINE = "SMK022", "smoke-needs-live-machine", PlatformPosture, Warning,
        "smoke runs GPU code, so it needs the live machine, not a --root tree";
    SMOKE_WORKER_FAILED = "SMK023", "smoke-worker-failed", PlatformPosture, Error,
        "the smoke test's worker thread stopped without a result";
}

/// The rule with this code.
pub fn rule(code: &str) -> Option<&'static SmokeRule> {
    RULES.iter().find(|r| r.code == code)
}

/// `CUresult` (driver API) names and descriptions, from cuda.h. The numbers
/// of the failures gpucompat diagnoses are the same in the runtime API
/// (`cudaError_t`), whose names are given where the driver API has no such code.
pub fn cuda_error_name(code: i32) -> Option<(&'static str, &'static str)> {
    Some(match code {
        0 => ("CUDA_SUCCESS", "no error"),
        1 => ("CUDA_ERROR_INVALID_VALUE", "invalid argument"),
        2 => ("CUDA_ERROR_OUT_OF_MEMORY", "out of memory"),
        3 => ("CUDA_ERROR_NOT_INITIALIZED", "initialization error"),
        4 => ("CUDA_ERROR_DEINITIALIZED", "driver shutting down"),
        34 => ("CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"),
        35 => (
            "cudaErrorInsufficientDriver",
            "CUDA driver version is insufficient for CUDA runtime version",
        ),
        36 => (
            "cudaErrorCallRequiresNewerDriver",
            "API call is not supported in the installed CUDA driver",
        ),
        46 => (
            "CUDA_ERROR_DEVICE_UNAVAILABLE",
            "CUDA-capable device(s) is/are busy or unavailable",
        ),
        100 => ("CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"),
        101 => ("CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"),
        200 => ("CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"),
        201 => ("CUDA_ERROR_INVALID_CONTEXT", "invalid device context"),
        209 => (
            "CUDA_ERROR_NO_BINARY_FOR_GPU",
            "no kernel image is available for execution on the device",
        ),
        214 => (
            "CUDA_ERROR_ECC_UNCORRECTABLE",
            "uncorrectable ECC error encountered",
        ),
        218 => ("CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"),
        221 => (
            "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
            "PTX JIT compiler library not found",
        ),
        222 => (
            "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
            "the provided PTX was compiled with an unsupported toolchain",
        ),
        223 => (
            "CUDA_ERROR_JIT_COMPILATION_DISABLED",
            "PTX JIT compilation was disabled",
        ),
        400 => ("CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"),
        500 => ("CUDA_ERROR_NOT_FOUND", "named symbol not found"),
        700 => (
            "CUDA_ERROR_ILLEGAL_ADDRESS",
            "an illegal memory access was encountered",
        ),
        701 => (
            "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
            "too many resources requested for launch",
        ),
        702 => (
            "CUDA_ERROR_LAUNCH_TIMEOUT",
            "the launch timed out and was terminated",
        ),
        719 => ("CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"),
        800 => ("CUDA_ERROR_NOT_PERMITTED", "operation not permitted"),
        801 => ("CUDA_ERROR_NOT_SUPPORTED", "operation not supported"),
        802 => ("CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized"),
        803 => (
            "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
            "system has unsupported display driver / cuda driver combination",
        ),
        804 => (
            "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
            "forward compatibility was attempted on non supported HW",
        ),
        909 => ("CUDA_ERROR_TIMEOUT", "wait operation timed out"),
        999 => ("CUDA_ERROR_UNKNOWN", "unknown error"),
        _ => return None,
    })
}

/// `cublasStatus_t` names, from cublas_api.h.
pub fn cublas_status_name(status: i32) -> Option<&'static str> {
    Some(match status {
        0 => "CUBLAS_STATUS_SUCCESS",
        1 => "CUBLAS_STATUS_NOT_INITIALIZED",
        3 => "CUBLAS_STATUS_ALLOC_FAILED",
        7 => "CUBLAS_STATUS_INVALID_VALUE",
        8 => "CUBLAS_STATUS_ARCH_MISMATCH",
        11 => "CUBLAS_STATUS_MAPPING_ERROR",
        13 => "CUBLAS_STATUS_EXECUTION_FAILED",
        14 => "CUBLAS_STATUS_INTERNAL_ERROR",
        15 => "CUBLAS_STATUS_NOT_SUPPORTED",
        16 => "CUBLAS_STATUS_LICENSE_ERROR",
        _ => return None,
    })
}

/// Does CUDA_VISIBLE_DEVICES explain a "no device" answer?
pub fn visible_devices_hide_gpus(value: &str, gpus_on_bus: bool) -> bool {
    let v = value.trim();
    let first = v.split(',').next().unwrap_or("").trim();
    // Empty hides everything; an invalid first entry ("-1") truncates the list
    // to nothing; with GPUs on the bus, any setting that leaves none visible is to blame.
    v.is_empty()
        || first.starts_with('-')
        || ["none", "void", "nodevfiles"].contains(&first.to_ascii_lowercase().as_str())
        || gpus_on_bus
}

/// The rule and shared error kind of a CUDA error code returned by `call`.
pub fn classify_cuda(code: i32, call: &str, ctx: &Context) -> (&'static SmokeRule, ErrorKind) {
    match code {
        2 => (&GPU_OUT_OF_MEMORY, ErrorKind::OutOfMemory),
        3 | 4 | 999 => (&CUDA_INIT_FAILED, ErrorKind::InitFailed),
        34 => (&STUB_LIBCUDA, ErrorKind::StubLibrary),
        35 => (&DRIVER_OLDER_THAN_RUNTIME, ErrorKind::InsufficientDriver),
        36 => (
            &DRIVER_OLDER_THAN_RUNTIME,
            ErrorKind::CallRequiresNewerDriver,
        ),
        // The shared vocabulary has no "busy" kind; the code travels with it.
        46 => (&GPU_UNAVAILABLE, ErrorKind::Other),
        100 => no_device(ctx),
        209 => (&NO_KERNEL_IMAGE, ErrorKind::NoKernelImage),
        222 => (&PTX_NEWER_THAN_DRIVER, ErrorKind::UnsupportedPtx),
        702 | 909 => (&GPU_HUNG, ErrorKind::Timeout),
        802 => (&FABRIC_MANAGER_NOT_READY, ErrorKind::SystemNotReady),
        803 => (&DRIVER_LIBRARY_MISMATCH, ErrorKind::SystemDriverMismatch),
        804 => (&FORWARD_COMPAT_UNSUPPORTED, ErrorKind::CompatNotSupported),
        _ if call == "cuInit" => (&CUDA_INIT_FAILED, ErrorKind::InitFailed),
        _ => (&CUDA_CALL_FAILED, ErrorKind::Other),
    }
}

fn no_device(ctx: &Context) -> (&'static SmokeRule, ErrorKind) {
    match &ctx.visible_devices {
        Some(v) if visible_devices_hide_gpus(v, ctx.gpus_on_bus) => {
            (&VISIBLE_DEVICES_HIDE_GPUS, ErrorKind::NoVisibleDevices)
        }
        _ => (&NO_CUDA_DEVICE, ErrorKind::NoDevice),
    }
}

/// The major of the CUDA a cuBLAS version belongs to (cuBLAS 12.x ships with CUDA 12.x).
fn cublas_major(version: &Option<String>) -> Option<u32> {
    version.as_deref()?.split('.').next()?.parse().ok()
}

/// The rule and shared error kind of a cuBLAS status.
pub fn classify_cublas(
    status: i32,
    version: &Option<String>,
    ctx: &Context,
) -> (&'static SmokeRule, ErrorKind) {
    match status {
        1 => match (cublas_major(version), ctx.driver_cuda) {
            (Some(m), Some(d)) if m > d.major => {
                (&CUBLAS_NEEDS_NEWER_DRIVER, ErrorKind::InsufficientDriver)
            }
            _ => (&CUBLAS_FAILED, ErrorKind::InitFailed),
        },
        3 => (&GPU_OUT_OF_MEMORY, ErrorKind::OutOfMemory),
        8 => (&NO_KERNEL_IMAGE, ErrorKind::NoKernelImage),
        _ => (&CUBLAS_FAILED, ErrorKind::Other),
    }
}

fn base(rule: &SmokeRule, message: String) -> Finding {
    Finding {
        code: rule.code.to_string(),
        name: rule.name.to_string(),
        category: rule.category,
        severity: rule.severity,
        message,
        evidence: Vec::new(),
        kb: Vec::new(),
        fix: None,
        line: None,
    }
}

fn on_device(device: Option<u32>) -> String {
    device.map(|d| format!(" on GPU {d}")).unwrap_or_default()
}

/// Evidence common to every driver-side finding.
fn with_context(mut f: Finding, device: Option<u32>, ctx: &Context) -> Finding {
    if let Some(lib) = &ctx.driver_library {
        f = f.evidence("CUDA driver library", lib, "dlopen");
    }
    if let Some(v) = ctx.driver_cuda {
        f = f.evidence("driver's CUDA version", v, "cuDriverGetVersion");
    }
    if let Some(d) = device {
        if let Some((_, name, cc)) = ctx.devices.iter().find(|(i, _, _)| *i == d) {
            if let Some(name) = name {
                f = f.evidence(format!("GPU {d} name"), name, "cuDeviceGetName");
            }
            if let Some(cc) = cc {
                f = f.evidence(
                    format!("GPU {d} compute capability"),
                    format!("{cc} ({})", cc.sm()),
                    "cuDeviceGetAttribute",
                );
            }
        }
    }
    f
}

/// The smoke report's finding for a failure.
pub fn finding(failure: &Failure, ctx: &Context) -> Finding {
    match failure {
        Failure::NotLive { root } => base(
            &SMOKE_NEEDS_LIVE_MACHINE,
            format!(
                "smoke needs the live machine: it runs a GEMM on the GPU, and {root} is a directory tree, \
                 not a running system; nothing was loaded from it"
            ),
        )
        .evidence("--root", root, "command line")
        .fix_command(
            "gpucompat smoke",
            Some("run it on the machine (or inside the container) itself".into()),
        ),
        Failure::LibcudaMissing {
            tried,
            overridden,
            wsl,
        } => libcuda_missing(tried, *overridden, *wsl),
        Failure::SymbolMissing { library, symbol } => base(
            &LIBCUDA_INCOMPLETE,
            format!(
                "{library} has no {symbol}: the driver is too old for the driver API calls the smoke \
                 test makes, or the file is not the CUDA driver"
            ),
        )
        .evidence("library", library, "dlopen")
        .evidence("missing symbol", symbol, "dlsym")
        .fix_note("Install a current NVIDIA driver; check that GPUCOMPAT_LIBCUDA / LD_LIBRARY_PATH point at the driver's libcuda.so.1."),
        Failure::Cuda {
            call,
            code,
            name,
            text,
            device,
        } => cuda_finding(call, *code, name, text, *device, ctx),
        Failure::NoDevices => {
            let (rule, _) = no_device(ctx);
            let f = base(
                rule,
                "no CUDA device: cuDeviceGetCount found 0 GPUs".to_string(),
            );
            no_device_advice(with_context(f, None, ctx), rule, ctx)
        }
        Failure::CublasMissing { tried, required } => {
            let names: Vec<&str> = tried.iter().map(|(p, _)| p.as_str()).collect();
            let mut f = base(
                &NO_SYSTEM_CUBLAS,
                if *required {
                    format!("cuBLAS cannot be loaded (tried {}), and --gemm cublas asks for it", names.join(", "))
                } else {
                    format!(
                        "no system cuBLAS (tried {}): the GEMM ran on gpucompat's built-in PTX kernel. \
                         A driver-only machine is normal: PyTorch, JAX and TensorFlow wheels bring their own cuBLAS",
                        names.join(", ")
                    )
                },
            );
            if *required {
                f.severity = Severity::Error;
            }
            for (p, e) in tried {
                f = f.evidence(format!("dlopen {p}"), e, "dlopen");
            }
            f.fix_note("Nothing to fix for frameworks that ship cuBLAS; to test a system cuBLAS, install the CUDA toolkit's libcublas or point GPUCOMPAT_LIBCUBLAS at one.")
        }
        Failure::Cublas {
            call,
            status,
            device,
            version,
        } => cublas_finding(call, *status, *device, version, ctx),
        Failure::Timeout {
            step,
            device,
            after,
        } => {
            let f = base(
                &GPU_HUNG,
                format!(
                    "{step}{} did not return within {:.1} s: the GPU or driver is hung; the call was left running and the smoke test stopped",
                    on_device(*device),
                    after.as_secs_f64()
                ),
            )
            .evidence("hung step", step, "smoke");
            with_context(f, *device, ctx).fix_note(
                "Check `nvidia-smi` and `sudo dmesg | grep -i xid` for GPU errors; a GPU reset (`nvidia-smi -r -i N`) or a reboot may be needed. Raise --timeout if the machine is merely slow (many GPUs without persistence mode).",
            )
        }
        Failure::WrongResult {
            device,
            backend,
            cmp,
            tolerance,
        } => {
            let mut f = base(
                &GEMM_WRONG_RESULT,
                format!(
                    "GPU {device} computed a wrong fp16 GEMM ({backend}): {} of {} elements differ from the CPU reference by more than {tolerance}{}",
                    cmp.wrong,
                    super::gemm::N * super::gemm::N,
                    if cmp.non_finite > 0 { format!(", {} are NaN or infinite", cmp.non_finite) } else { String::new() }
                ),
            )
            .evidence(format!("GPU {device} max abs error"), cmp.max_abs_err, "smoke GEMM vs CPU reference");
            if let Some((r, c, got, want)) = cmp.first_wrong {
                f = f.evidence(
                    format!("GPU {device} C[{r}][{c}]"),
                    format!("{got} (CPU reference: {want})"),
                    "smoke GEMM vs CPU reference",
                );
            }
            with_context(f, Some(*device), ctx).fix_note(
                "Wrong numbers with no error point at the hardware or driver: check `nvidia-smi -q -d ECC` and `sudo dmesg | grep -i xid`, update the driver, and reset or replace the GPU if it persists.",
            )
        }
        Failure::WorkerLost { detail } => base(
            &SMOKE_WORKER_FAILED,
            format!("the smoke test stopped without a result: {detail}"),
        )
        .fix_note("This is a gpucompat bug; please report it with `gpucompat smoke --json -v` output."),
    }
}

fn libcuda_missing(tried: &[(String, String)], overridden: bool, wsl: bool) -> Finding {
    let first = tried
        .first()
        .map(|(p, _)| p.as_str())
        .unwrap_or("libcuda.so.1");
    let (rule, message) = if wsl && !overridden {
        (
            &WSL_NO_LIBCUDA,
            "no CUDA driver: libcuda.so.1 cannot be loaded (WSL: it comes from the Windows driver, in /usr/lib/wsl/lib)".to_string(),
        )
    } else if overridden {
        (
            &NO_CUDA_DRIVER,
            format!("no CUDA driver: {first} (GPUCOMPAT_LIBCUDA) cannot be loaded"),
        )
    } else {
        (
            &NO_CUDA_DRIVER,
            "no CUDA driver: libcuda.so.1 cannot be loaded".to_string(),
        )
    };
    let mut f = base(rule, message);
    for (p, e) in tried {
        f = f.evidence(format!("dlopen {p}"), e, "dlopen");
    }
    if rule.code == WSL_NO_LIBCUDA.code {
        f.fix_note("Install or update the NVIDIA driver on Windows (not inside WSL), then `wsl --shutdown`; do not install a Linux NVIDIA driver in the distribution. Check that /usr/lib/wsl/lib is in the loader path (`ldconfig -p | grep libcuda`).")
    } else {
        f.fix_note("Install the NVIDIA driver for this GPU (Ubuntu: `sudo ubuntu-drivers install`), or in a container run with the NVIDIA Container Toolkit (`docker run --gpus all ...`). If the driver is installed, check `ldconfig -p | grep libcuda`.")
    }
}

fn cuda_finding(
    call: &str,
    code: i32,
    name: &Option<String>,
    text: &Option<String>,
    device: Option<u32>,
    ctx: &Context,
) -> Finding {
    let (rule, _) = classify_cuda(code, call, ctx);
    let known = cuda_error_name(code);
    let name = name
        .clone()
        .or_else(|| known.map(|k| k.0.to_string()))
        .unwrap_or_else(|| "CUDA error".to_string());
    let text = text.clone().or_else(|| known.map(|k| k.1.to_string()));
    let described = match &text {
        Some(t) => format!("{name} ({code}): {t}"),
        None => format!("{name} ({code})"),
    };
    let why = match rule.code {
        "SMK003" => "the libcuda that was loaded is the CUDA toolkit's link-time stub, not the driver",
        "SMK005" => "the driver is installed but could not start",
        "SMK006" => "the driver is older than the CUDA runtime in use",
        "SMK007" => "cuda-compat forward-compatibility libraries are loaded, and this GPU does not support them",
        "SMK008" => "the user-mode driver (libcuda) and the nvidia kernel module are of different versions",
        "SMK009" => "on an NVSwitch system (HGX/DGX) this means Fabric Manager is not running or does not match the driver",
        "SMK010" => "the driver loaded but sees no GPU",
        "SMK011" => "CUDA_VISIBLE_DEVICES leaves no GPU visible",
        "SMK012" => "another process holds the GPU (exclusive-process compute mode) or it is otherwise unavailable",
        "SMK013" => "the code has no binary for this GPU's architecture",
        "SMK014" => "the PTX comes from a newer toolkit than the driver's JIT compiler",
        "SMK015" => "other processes hold the GPU's memory; this is not a compatibility problem",
        "SMK016" => "the GPU did not finish the work",
        _ => "the driver rejected the call",
    };
    let f = base(
        rule,
        format!("{call} failed{}: {described}; {why}", on_device(device)),
    )
    .evidence("CUDA call", call, "smoke")
    .evidence("CUDA error", format!("{name} ({code})"), "CUresult");
    let f = with_context(f, device, ctx);
    match rule.code {
        "SMK003" => f.fix_note("Remove the toolkit's stubs directory (…/lib64/stubs) from LD_LIBRARY_PATH and the ld.so configuration; the real libcuda.so.1 comes with the driver."),
        "SMK005" => f.fix_note("Check `nvidia-smi`; load the modules (`sudo modprobe nvidia nvidia-uvm`), check that /dev/nvidia* and /dev/nvidia-uvm exist and are readable, and reboot after a driver update."),
        "SMK006" => f.fix_note(format!(
            "Update the NVIDIA driver, or use a CUDA build the driver supports{}.",
            ctx.driver_cuda.map(|v| format!(" (this driver supports CUDA {v} at most)")).unwrap_or_default()
        )),
        "SMK007" => f.fix_note("Remove the cuda-compat libraries (/usr/local/cuda*/compat) from LD_LIBRARY_PATH and the ld.so configuration, or upgrade the driver itself; forward compatibility works only on data-center GPUs."),
        "SMK008" => f.fix_note("Reboot after a driver update so the kernel module matches libcuda, or reinstall the driver so both come from one version (compare `cat /proc/driver/nvidia/version` with the libcuda.so.* version)."),
        "SMK009" => f.fix_command(
            "sudo systemctl enable --now nvidia-fabricmanager",
            Some("install nvidia-fabricmanager of exactly the driver's version first (package cuda-drivers-fabricmanager-<branch>)".into()),
        ),
        "SMK010" => no_device_advice(f, rule, ctx),
        "SMK011" => no_device_advice(f, rule, ctx),
        "SMK012" => f.fix_note("See who holds the GPU (`nvidia-smi`) and its compute mode (`nvidia-smi -q -d COMPUTE`); set Default mode (`sudo nvidia-smi -c DEFAULT`) or wait for the other process."),
        "SMK013" => f.fix_note("Use a build of the library that includes this GPU's architecture (or PTX it can JIT), or a GPU the build supports."),
        "SMK014" => f.fix_note("Update the NVIDIA driver to one that supports the toolkit that produced the PTX."),
        "SMK015" => f.fix_note("Free GPU memory: see the processes holding it with `nvidia-smi`."),
        "SMK016" => f.fix_note("Check `sudo dmesg | grep -i xid`; a GPU reset or reboot may be needed."),
        _ => f.fix_note("Check `nvidia-smi` and `sudo dmesg | grep -i xid`; rerun with -v and report the error if it persists."),
    }
}

fn no_device_advice(f: Finding, rule: &SmokeRule, ctx: &Context) -> Finding {
    if rule.code == VISIBLE_DEVICES_HIDE_GPUS.code {
        let v = ctx.visible_devices.clone().unwrap_or_default();
        f.evidence("CUDA_VISIBLE_DEVICES", format!("{v:?}"), "environment")
            .fix_command(
                "unset CUDA_VISIBLE_DEVICES",
                Some("or set it to indices or GPU UUIDs that exist (`nvidia-smi -L`)".into()),
            )
    } else {
        let f = match &ctx.visible_devices {
            Some(v) => f.evidence("CUDA_VISIBLE_DEVICES", format!("{v:?}"), "environment"),
            None => f,
        };
        f.fix_note("Check `nvidia-smi -L`; in a container, pass the GPUs (`docker run --gpus all`, or the nvidia.com/gpu resource in Kubernetes); on a VM, check that the GPU is passed through.")
    }
}

fn cublas_finding(
    call: &str,
    status: i32,
    device: Option<u32>,
    version: &Option<String>,
    ctx: &Context,
) -> Finding {
    let (rule, _) = classify_cublas(status, version, ctx);
    let name = cublas_status_name(status).unwrap_or("cuBLAS status");
    let ver = version
        .as_deref()
        .map(|v| format!("cuBLAS {v}"))
        .unwrap_or_else(|| "cuBLAS".into());
    let message = match rule.code {
        "SMK021" => format!(
            "{call} failed{}: {name} ({status}); {ver} needs a driver for CUDA {}, and this driver supports CUDA {} at most",
            on_device(device),
            cublas_major(version).unwrap_or(0),
            ctx.driver_cuda.map(|v| v.to_string()).unwrap_or_else(|| "unknown".into()),
        ),
        "SMK013" => format!(
            "{call} failed{}: {name} ({status}); {ver} has no kernels for this GPU's architecture",
            on_device(device)
        ),
        _ => format!("{call} failed{}: {name} ({status}) from {ver}", on_device(device)),
    };
    let mut f = base(rule, message)
        .evidence("cuBLAS call", call, "smoke")
        .evidence(
            "cuBLAS status",
            format!("{name} ({status})"),
            "cublasStatus_t",
        );
    if let Some(v) = version {
        f = f.evidence("cuBLAS version", v, "cublasGetProperty");
    }
    let f = with_context(f, device, ctx);
    match rule.code {
        "SMK021" => f.fix_note("Update the NVIDIA driver, or use the cuBLAS of the CUDA major the driver supports."),
        "SMK015" => f.fix_note("Free GPU memory: see the processes holding it with `nvidia-smi`."),
        "SMK013" => f.fix_note("Use a cuBLAS (CUDA toolkit) that supports this GPU's architecture."),
        _ => f.fix_note("Check that cuBLAS and the driver are of compatible versions (`gpucompat check`); rerun with -v."),
    }
}

/// The failure as the shared vocabulary records it, for the rules. Failures
/// that say nothing about the stack (no --root machine, a fallback taken) give None.
pub fn observed(failure: &Failure, ctx: &Context) -> Option<ObservedError> {
    let (kind, text, source, code) = match failure {
        Failure::NotLive { .. } => return None,
        Failure::CublasMissing {
            required: false, ..
        } => return None,
        Failure::CublasMissing { tried, .. } => (
            ErrorKind::CudaLibraryMissing,
            format!(
                "cuBLAS cannot be loaded: {}",
                tried
                    .iter()
                    .map(|(p, e)| format!("{p}: {e}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            "smoke: dlopen libcublas".to_string(),
            None,
        ),
        Failure::LibcudaMissing {
            tried,
            wsl,
            overridden,
        } => (
            if *wsl && !*overridden {
                ErrorKind::WslLibcuda
            } else {
                ErrorKind::LibcudaMissing
            },
            tried
                .first()
                .map(|(p, e)| format!("{p} cannot be loaded: {e}"))
                .unwrap_or_else(|| "libcuda.so.1 cannot be loaded".into()),
            "smoke: dlopen libcuda".to_string(),
            None,
        ),
        Failure::SymbolMissing { library, symbol } => (
            ErrorKind::DriverTooOld,
            format!("{library}: undefined symbol {symbol}"),
            "smoke: dlsym".to_string(),
            None,
        ),
        Failure::Cuda {
            call,
            code,
            name,
            text,
            device,
        } => {
            let (_, kind) = classify_cuda(*code, call, ctx);
            let known = cuda_error_name(*code);
            let name = name
                .clone()
                .or_else(|| known.map(|k| k.0.to_string()))
                .unwrap_or_else(|| "CUDA error".into());
            let text = text.clone().or_else(|| known.map(|k| k.1.to_string()));
            (
                kind,
                match text {
                    Some(t) => format!("{call}: {name} ({code}): {t}"),
                    None => format!("{call}: {name} ({code})"),
                },
                format!("smoke:{} {call}", on_device(*device)),
                Some(i64::from(*code)),
            )
        }
        Failure::NoDevices => {
            let (_, kind) = no_device(ctx);
            (
                kind,
                "cuDeviceGetCount: 0 devices".to_string(),
                "smoke: cuDeviceGetCount".to_string(),
                None,
            )
        }
        Failure::Cublas {
            call,
            status,
            device,
            version,
        } => {
            let (_, kind) = classify_cublas(*status, version, ctx);
            (
                kind,
                format!(
                    "{call}: {} ({status})",
                    cublas_status_name(*status).unwrap_or("cuBLAS status")
                ),
                format!("smoke:{} {call}", on_device(*device)),
                // cuBLAS statuses are not CUDA error codes: keep them out of `code`.
                None,
            )
        }
        Failure::Timeout {
            step,
            device,
            after,
        } => (
            ErrorKind::Timeout,
            format!(
                "{step}{} did not return within {:.1} s",
                on_device(*device),
                after.as_secs_f64()
            ),
            format!("smoke:{} {step}", on_device(*device)),
            None,
        ),
        Failure::WrongResult {
            device,
            backend,
            cmp,
            ..
        } => (
            ErrorKind::Other,
            format!(
                "fp16 GEMM ({backend}) on GPU {device}: {} wrong elements, max abs error {}",
                cmp.wrong, cmp.max_abs_err
            ),
            format!("smoke: GPU {device} GEMM"),
            None,
        ),
        Failure::WorkerLost { detail } => (
            ErrorKind::Other,
            detail.clone(),
            "smoke: worker".to_string(),
            None,
        ),
    };
    Some(ObservedError {
        kind,
        text,
        source,
        code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> Context {
        Context::default()
    }

    /// Every code the smoke test diagnoses: rule, category and shared kind.
    #[test]
    fn cuda_codes_map_to_rules_categories_and_kinds() {
        let table: &[(i32, &str, Category, ErrorKind)] = &[
            (
                2,
                "SMK015",
                Category::PlatformPosture,
                ErrorKind::OutOfMemory,
            ),
            (3, "SMK005", Category::NoDriver, ErrorKind::InitFailed),
            (4, "SMK005", Category::NoDriver, ErrorKind::InitFailed),
            (34, "SMK003", Category::NoDriver, ErrorKind::StubLibrary),
            (
                35,
                "SMK006",
                Category::DriverTooOld,
                ErrorKind::InsufficientDriver,
            ),
            (
                36,
                "SMK006",
                Category::DriverTooOld,
                ErrorKind::CallRequiresNewerDriver,
            ),
            (46, "SMK012", Category::PlatformPosture, ErrorKind::Other),
            (100, "SMK010", Category::NoDriver, ErrorKind::NoDevice),
            (
                209,
                "SMK013",
                Category::ArchUnsupported,
                ErrorKind::NoKernelImage,
            ),
            (
                222,
                "SMK014",
                Category::DriverTooOld,
                ErrorKind::UnsupportedPtx,
            ),
            (702, "SMK016", Category::PlatformPosture, ErrorKind::Timeout),
            (
                802,
                "SMK009",
                Category::FabricManager,
                ErrorKind::SystemNotReady,
            ),
            (
                803,
                "SMK008",
                Category::DriverLibraryMismatch,
                ErrorKind::SystemDriverMismatch,
            ),
            (
                804,
                "SMK007",
                Category::DriverTooOld,
                ErrorKind::CompatNotSupported,
            ),
            (909, "SMK016", Category::PlatformPosture, ErrorKind::Timeout),
            (999, "SMK005", Category::NoDriver, ErrorKind::InitFailed),
        ];
        for &(code, smk, cat, kind) in table {
            let (rule, k) = classify_cuda(code, "cuMemAlloc_v2", &ctx());
            assert_eq!(
                (rule.code, rule.category, k),
                (smk, cat, kind),
                "CUDA {code}"
            );
            assert!(cuda_error_name(code).is_some(), "CUDA {code} has a name");
            // The finding carries the same rule and category.
            let f = finding(
                &Failure::Cuda {
                    call: "cuMemAlloc_v2",
                    code,
                    name: None,
                    text: None,
                    device: Some(0),
                },
                &ctx(),
            );
            assert_eq!((f.code.as_str(), f.category), (smk, cat), "CUDA {code}");
            assert_eq!(f.severity, Severity::Error);
            assert!(f.fix.is_some(), "CUDA {code} has a fix");
            let o = observed(
                &Failure::Cuda {
                    call: "cuMemAlloc_v2",
                    code,
                    name: None,
                    text: None,
                    device: Some(0),
                },
                &ctx(),
            )
            .unwrap();
            assert_eq!((o.kind, o.code), (kind, Some(i64::from(code))));
        }
    }

    #[test]
    fn unknown_codes_depend_on_the_call() {
        let (r, k) = classify_cuda(12345, "cuInit", &ctx());
        assert_eq!((r.code, k), ("SMK005", ErrorKind::InitFailed));
        let (r, k) = classify_cuda(700, "cuCtxSynchronize", &ctx());
        assert_eq!((r.code, k), ("SMK018", ErrorKind::Other));
        let f = finding(
            &Failure::Cuda {
                call: "cuCtxSynchronize",
                code: 12345,
                name: None,
                text: None,
                device: None,
            },
            &ctx(),
        );
        assert!(f.message.contains("CUDA error (12345)"), "{}", f.message);
    }

    #[test]
    fn no_device_blames_cuda_visible_devices_only_when_it_hides_gpus() {
        let mut c = ctx();
        // Unset: the machine has no GPU (or the container got none).
        assert_eq!(classify_cuda(100, "cuInit", &c).0.code, "SMK010");
        // Empty or "-1": hides every GPU, whatever is on the bus.
        for v in ["", " ", "-1", "-1,0", "none", "NoDevFiles"] {
            c.visible_devices = Some(v.into());
            let (r, k) = classify_cuda(100, "cuInit", &c);
            assert_eq!(
                (r.code, r.category, k),
                ("SMK011", Category::EnvVar, ErrorKind::NoVisibleDevices),
                "{v:?}"
            );
        }
        // A plausible index with no GPU on the bus: the hardware is missing, not hidden.
        c.visible_devices = Some("0".into());
        assert_eq!(classify_cuda(100, "cuInit", &c).0.code, "SMK010");
        // The same index with GPUs on the bus: the variable is to blame.
        c.gpus_on_bus = true;
        assert_eq!(classify_cuda(100, "cuInit", &c).0.code, "SMK011");
        let f = finding(&Failure::NoDevices, &c);
        assert_eq!(f.code, "SMK011");
        assert_eq!(
            f.fix.unwrap().command.as_deref(),
            Some("unset CUDA_VISIBLE_DEVICES")
        );
        assert_eq!(
            observed(&Failure::NoDevices, &c).unwrap().kind,
            ErrorKind::NoVisibleDevices
        );
    }

    #[test]
    fn cublas_statuses_map_to_rules() {
        let mut c = ctx();
        c.driver_cuda = Some(CudaVersion::new(11, 4));
        let v12 = Some("12.4.5".to_string());
        let v11 = Some("11.8.0".to_string());
        // cuBLAS 12 on a CUDA 11.4 driver: the driver is too old.
        let (r, k) = classify_cublas(1, &v12, &c);
        assert_eq!(
            (r.code, r.category, k),
            (
                "SMK021",
                Category::DriverTooOld,
                ErrorKind::InsufficientDriver
            )
        );
        // cuBLAS 11 on the same driver: some other initialisation failure.
        let (r, k) = classify_cublas(1, &v11, &c);
        assert_eq!((r.code, k), ("SMK020", ErrorKind::InitFailed));
        // Unknown cuBLAS version: no claim about the driver.
        assert_eq!(classify_cublas(1, &None, &c).0.code, "SMK020");
        assert_eq!(
            classify_cublas(3, &v12, &c),
            (&GPU_OUT_OF_MEMORY, ErrorKind::OutOfMemory)
        );
        assert_eq!(
            classify_cublas(8, &v12, &c),
            (&NO_KERNEL_IMAGE, ErrorKind::NoKernelImage)
        );
        assert_eq!(
            classify_cublas(13, &v12, &c),
            (&CUBLAS_FAILED, ErrorKind::Other)
        );
        for s in [1, 3, 7, 8, 11, 13, 14, 15, 16] {
            assert!(cublas_status_name(s).is_some(), "status {s}");
        }
        let f = finding(
            &Failure::Cublas {
                call: "cublasCreate_v2",
                status: 1,
                device: Some(0),
                version: v12.clone(),
            },
            &c,
        );
        assert_eq!(f.code, "SMK021");
        assert!(
            f.message.contains("needs a driver for CUDA 12"),
            "{}",
            f.message
        );
        assert!(f.message.contains("CUDA 11.4 at most"), "{}", f.message);
        // cuBLAS statuses never pose as CUDA error codes.
        let o = observed(
            &Failure::Cublas {
                call: "cublasGemmEx",
                status: 13,
                device: Some(0),
                version: v12,
            },
            &c,
        )
        .unwrap();
        assert_eq!(o.code, None);
        assert!(o.text.contains("CUBLAS_STATUS_EXECUTION_FAILED (13)"));
    }

    #[test]
    fn missing_libcuda_is_a_clear_no_driver_finding() {
        let tried = vec![(
            "libcuda.so.1".to_string(),
            "libcuda.so.1: cannot open shared object file: No such file or directory".to_string(),
        )];
        let f = finding(
            &Failure::LibcudaMissing {
                tried: tried.clone(),
                overridden: false,
                wsl: false,
            },
            &ctx(),
        );
        assert_eq!(f.code, "SMK001");
        assert_eq!(f.category, Category::NoDriver);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(f.message, "no CUDA driver: libcuda.so.1 cannot be loaded");
        assert!(f.evidence[0].value.contains("No such file"));
        let o = observed(
            &Failure::LibcudaMissing {
                tried: tried.clone(),
                overridden: false,
                wsl: false,
            },
            &ctx(),
        )
        .unwrap();
        assert_eq!(o.kind, ErrorKind::LibcudaMissing);

        // Under WSL the advice is about the Windows driver.
        let f = finding(
            &Failure::LibcudaMissing {
                tried: tried.clone(),
                overridden: false,
                wsl: true,
            },
            &ctx(),
        );
        assert_eq!((f.code.as_str(), f.category), ("SMK002", Category::Wsl));
        assert_eq!(
            observed(
                &Failure::LibcudaMissing {
                    tried,
                    overridden: false,
                    wsl: true
                },
                &ctx()
            )
            .unwrap()
            .kind,
            ErrorKind::WslLibcuda
        );

        // A user-named library that does not load says so.
        let f = finding(
            &Failure::LibcudaMissing {
                tried: vec![("/opt/x/libcuda.so".into(), "nope".into())],
                overridden: true,
                wsl: true,
            },
            &ctx(),
        );
        assert_eq!(f.code, "SMK001");
        assert!(f.message.contains("/opt/x/libcuda.so (GPUCOMPAT_LIBCUDA)"));
    }

    #[test]
    fn findings_cite_the_driver_and_the_gpu() {
        let c = Context {
            driver_library: Some("libcuda.so.1".into()),
            driver_cuda: Some(CudaVersion::new(12, 4)),
            devices: vec![(
                0,
                Some("NVIDIA H100 80GB HBM3".into()),
                Some(ComputeCapability::new(9, 0)),
            )],
            ..Context::default()
        };
        let f = finding(
            &Failure::Cuda {
                call: "cuModuleLoadData",
                code: 209,
                name: Some("CUDA_ERROR_NO_BINARY_FOR_GPU".into()),
                text: Some("no kernel image is available for execution on the device".into()),
                device: Some(0),
            },
            &c,
        );
        assert_eq!(f.code, "SMK013");
        assert!(f
            .message
            .starts_with("cuModuleLoadData failed on GPU 0: CUDA_ERROR_NO_BINARY_FOR_GPU (209)"));
        let facts: Vec<(&str, &str)> = f
            .evidence
            .iter()
            .map(|e| (e.fact.as_str(), e.value.as_str()))
            .collect();
        assert!(
            facts.contains(&("driver's CUDA version", "12.4")),
            "{facts:?}"
        );
        assert!(
            facts.contains(&("GPU 0 name", "NVIDIA H100 80GB HBM3")),
            "{facts:?}"
        );
        assert!(
            facts.contains(&("GPU 0 compute capability", "9.0 (sm_90)")),
            "{facts:?}"
        );
    }

    #[test]
    fn the_rest_of_the_failures_have_findings() {
        let c = ctx();
        let t = finding(
            &Failure::Timeout {
                step: "cuCtxSynchronize".into(),
                device: Some(1),
                after: Duration::from_secs(3),
            },
            &c,
        );
        assert_eq!(t.code, "SMK016");
        assert!(t
            .message
            .contains("cuCtxSynchronize on GPU 1 did not return within 3.0 s"));
        let cmp = Comparison {
            max_abs_err: 2.5,
            non_finite: 0,
            wrong: 7,
            first_wrong: Some((0, 3, 1.0, 3.5)),
            size_mismatch: false,
        };
        let w = finding(
            &Failure::WrongResult {
                device: 0,
                backend: "cublas",
                cmp,
                tolerance: 0.01,
            },
            &c,
        );
        assert_eq!((w.code.as_str(), w.severity), ("SMK017", Severity::Error));
        let info = finding(
            &Failure::CublasMissing {
                tried: vec![("libcublas.so.12".into(), "x".into())],
                required: false,
            },
            &c,
        );
        assert_eq!(
            (info.code.as_str(), info.severity),
            ("SMK019", Severity::Info)
        );
        assert!(observed(
            &Failure::CublasMissing {
                tried: vec![],
                required: false
            },
            &c
        )
        .is_none());
        let req = finding(
            &Failure::CublasMissing {
                tried: vec![],
                required: true,
            },
            &c,
        );
        assert_eq!(req.severity, Severity::Error);
        assert_eq!(
            observed(
                &Failure::CublasMissing {
                    tried: vec![],
                    required: true
                },
                &c
            )
            .unwrap()
            .kind,
            ErrorKind::CudaLibraryMissing
        );
        let live = finding(
            &Failure::NotLive {
                root: "/img".into(),
            },
            &c,
        );
        assert_eq!(
            (live.code.as_str(), live.severity),
            ("SMK022", Severity::Warning)
        );
        assert!(live.message.starts_with("smoke needs the live machine"));
        assert!(observed(
            &Failure::NotLive {
                root: "/img".into()
            },
            &c
        )
        .is_none());
        let sym = finding(
            &Failure::SymbolMissing {
                library: "x.so".into(),
                symbol: "cuInit".into(),
            },
            &c,
        );
        assert_eq!(
            (sym.code.as_str(), sym.category),
            ("SMK004", Category::DriverTooOld)
        );
    }

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
