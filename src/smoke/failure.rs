//! A failure met on the way to a GEMM, and what its findings may cite.

use std::time::Duration;

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
