//! CUDA and cuBLAS error codes: their names (from cuda.h and cublas_api.h),
//! and the smoke rule and shared [`ErrorKind`] each maps to.

use crate::inventory::ErrorKind;

use super::failure::Context;
use super::rules::*;

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

pub(super) fn no_device(ctx: &Context) -> (&'static SmokeRule, ErrorKind) {
    match &ctx.visible_devices {
        Some(v) if visible_devices_hide_gpus(v, ctx.gpus_on_bus) => {
            (&VISIBLE_DEVICES_HIDE_GPUS, ErrorKind::NoVisibleDevices)
        }
        _ => (&NO_CUDA_DEVICE, ErrorKind::NoDevice),
    }
}

/// The major of the CUDA a cuBLAS version belongs to (cuBLAS 12.x ships with CUDA 12.x).
pub(super) fn cublas_major(version: &Option<String>) -> Option<u32> {
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
