//! The GPU side of the smoke test: which libraries to load, and the sequence
//! of driver and cuBLAS calls per GPU. It runs on a worker thread and reports
//! each step before taking it, so the caller can tell which call hung.

use std::ffi::CStr;
use std::path::Path;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

use crate::system::System;

use super::errors::Failure;
use super::ffi::{
    Context, CublasApi, CublasHandle, CudaApi, Device, DevicePtr, LoadError, Module, ATTR_CC_MAJOR,
    ATTR_CC_MINOR,
};
use super::gemm::N;
use super::GemmChoice;

/// The built-in kernel (see hgemm.ll), NUL-terminated for cuModuleLoadData.
const HGEMM_PTX: &str = concat!(include_str!("hgemm.ptx"), "\0");
const HGEMM_NAME: &CStr = c"gpucompat_hgemm";
/// Threads per block along each axis of the built-in kernel.
const BLOCK: u32 = 16;

/// Library names the system loader resolves on a live machine.
#[cfg(windows)]
const LIBCUDA_NAMES: &[&str] = &["nvcuda.dll"];
#[cfg(not(windows))]
const LIBCUDA_NAMES: &[&str] = &["libcuda.so.1"];
#[cfg(windows)]
const LIBCUBLAS_NAMES: &[&str] = &["cublas64_13.dll", "cublas64_12.dll", "cublas64_11.dll"];
#[cfg(not(windows))]
const LIBCUBLAS_NAMES: &[&str] = &["libcublas.so.13", "libcublas.so.12", "libcublas.so.11"];

/// WSL's libcuda, which the loader may not know about.
const WSL_LIBCUDA: &str = "/usr/lib/wsl/lib/libcuda.so.1";

/// Where libraries are looked for inside a `--root` tree (test opt-in only).
const ROOT_LIB_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/nvidia/lib64",
    "/usr/lib/wsl/lib",
    "/usr/local/cuda/lib64",
];

/// What the worker loads and runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// libcuda candidates, in order (paths or loader names).
    pub libcuda: Vec<String>,
    /// Candidates already known not to exist, with why.
    pub libcuda_absent: Vec<(String, String)>,
    /// The candidate came from GPUCOMPAT_LIBCUDA.
    pub libcuda_overridden: bool,
    pub libcublas: Vec<String>,
    pub libcublas_absent: Vec<(String, String)>,
    pub gemm: GemmChoice,
    pub wsl: bool,
}

impl Plan {
    /// Library candidates for `sys`. On the live machine, names go to the
    /// system loader (as any CUDA program would load them); under a `--root`
    /// tree (test opt-in), files are looked up under the root.
    pub fn new(sys: &dyn System, live: bool, gemm: GemmChoice) -> Plan {
        let wsl = sys.exists(Path::new("/usr/lib/wsl/lib")) || sys.exists(Path::new("/dev/dxg"));
        let cuda_override = non_empty(sys.env("GPUCOMPAT_LIBCUDA"));
        let cublas_override = non_empty(sys.env("GPUCOMPAT_LIBCUBLAS"));
        let (libcuda, libcuda_absent) = match &cuda_override {
            Some(p) => candidates(sys, live, &[p.as_str()]),
            None => {
                let mut names: Vec<&str> = LIBCUDA_NAMES.to_vec();
                if live && sys.exists(Path::new(WSL_LIBCUDA)) {
                    names.push(WSL_LIBCUDA);
                }
                candidates(sys, live, &names)
            }
        };
        let (libcublas, libcublas_absent) = match &cublas_override {
            Some(p) => candidates(sys, live, &[p.as_str()]),
            None => candidates(sys, live, LIBCUBLAS_NAMES),
        };
        Plan {
            libcuda,
            libcuda_absent,
            libcuda_overridden: cuda_override.is_some(),
            libcublas,
            libcublas_absent,
            gemm,
            wsl,
        }
    }
}

fn non_empty(v: Option<String>) -> Option<String> {
    v.filter(|s| !s.trim().is_empty())
}

/// Loadable candidates, and those that are certainly absent (under a root).
fn candidates(
    sys: &dyn System,
    live: bool,
    names: &[&str],
) -> (Vec<String>, Vec<(String, String)>) {
    if live {
        return (names.iter().map(|s| s.to_string()).collect(), Vec::new());
    }
    let mut found = Vec::new();
    let mut absent = Vec::new();
    for name in names {
        let paths: Vec<String> = if name.starts_with('/') {
            vec![name.to_string()]
        } else {
            ROOT_LIB_DIRS
                .iter()
                .map(|d| format!("{d}/{name}"))
                .collect()
        };
        let mut any = false;
        for p in paths {
            if sys.exists(Path::new(&p)) {
                found.push(sys.host_path(Path::new(&p)).to_string_lossy().into_owned());
                any = true;
            }
        }
        if !any {
            absent.push((
                name.to_string(),
                format!("not found under {}", sys.root().display()),
            ));
        }
    }
    (found, absent)
}

/// What the worker tells the caller, in order.
#[derive(Debug)]
pub enum Msg {
    /// About to make this call (on this GPU).
    Step {
        device: Option<u32>,
        step: &'static str,
    },
    DriverLoaded {
        library: String,
    },
    DriverVersion(i32),
    DeviceCount(u32),
    CublasLoaded {
        library: String,
        version: Option<String>,
    },
    DeviceInfo {
        index: u32,
        name: Option<String>,
        cc: Option<(i32, i32)>,
        memory_bytes: Option<usize>,
    },
    GemmDone {
        index: u32,
        backend: &'static str,
        result: Vec<f32>,
        ms: f64,
    },
    Failed {
        device: Option<u32>,
        failure: Failure,
    },
    Done,
}

/// The worker's side of the channel. A closed channel means the caller gave
/// up (a timeout); the worker then just runs to its end unheard.
pub struct Progress(pub Sender<Msg>);

impl Progress {
    fn step(&self, device: Option<u32>, step: &'static str) {
        let _ = self.0.send(Msg::Step { device, step });
    }

    fn send(&self, m: Msg) {
        let _ = self.0.send(m);
    }

    fn fail(&self, device: Option<u32>, failure: Failure) {
        let _ = self.0.send(Msg::Failed { device, failure });
    }
}

fn cuda_failure(cuda: &CudaApi, call: &'static str, code: i32, device: Option<u32>) -> Failure {
    let (name, text) = cuda.error_text(code);
    Failure::Cuda {
        call,
        code,
        name,
        text,
        device,
    }
}

/// The whole GPU side: load, initialise, then each GPU in turn.
pub fn work(plan: Plan, a: Arc<Vec<u16>>, b: Arc<Vec<u16>>, p: Progress) {
    let Some((library, cuda)) = load_cuda(&plan, &p) else {
        return;
    };
    p.send(Msg::DriverLoaded { library });

    p.step(None, "cuDriverGetVersion");
    if let Ok(v) = cuda.driver_version() {
        p.send(Msg::DriverVersion(v));
    }

    p.step(None, "cuInit");
    let r = cuda.init();
    if r != 0 {
        p.fail(None, cuda_failure(&cuda, "cuInit", r, None));
        return;
    }

    p.step(None, "cuDeviceGetCount");
    let count = match cuda.device_count() {
        Ok(n) => u32::try_from(n).unwrap_or(0),
        Err(r) => {
            p.fail(None, cuda_failure(&cuda, "cuDeviceGetCount", r, None));
            return;
        }
    };
    p.send(Msg::DeviceCount(count));
    if count == 0 {
        p.fail(None, Failure::NoDevices);
        return;
    }

    let cublas = match plan.gemm {
        GemmChoice::Builtin => None,
        GemmChoice::Auto | GemmChoice::Cublas => match load_cublas(&plan, &p) {
            Ok(api) => Some(api),
            Err(tried) => {
                let required = plan.gemm == GemmChoice::Cublas;
                p.fail(None, Failure::CublasMissing { tried, required });
                if required {
                    return;
                }
                None
            }
        },
    };

    for index in 0..count {
        if let Err(f) = device(&cuda, cublas.as_ref(), index, &a, &b, &p) {
            p.fail(Some(index), f);
        }
    }
    p.send(Msg::Done);
}

fn load_cuda(plan: &Plan, p: &Progress) -> Option<(String, CudaApi)> {
    let mut tried = plan.libcuda_absent.clone();
    for path in &plan.libcuda {
        p.step(None, "dlopen libcuda");
        match CudaApi::load(path) {
            Ok(api) => return Some((path.clone(), api)),
            Err(LoadError::Open(e)) => tried.push((path.clone(), e)),
            Err(LoadError::Symbol(symbol)) => {
                p.fail(
                    None,
                    Failure::SymbolMissing {
                        library: path.clone(),
                        symbol,
                    },
                );
                return None;
            }
        }
    }
    p.fail(
        None,
        Failure::LibcudaMissing {
            tried,
            overridden: plan.libcuda_overridden,
            wsl: plan.wsl,
        },
    );
    None
}

fn load_cublas(plan: &Plan, p: &Progress) -> Result<CublasApi, Vec<(String, String)>> {
    let mut tried = plan.libcublas_absent.clone();
    for path in &plan.libcublas {
        p.step(None, "dlopen libcublas");
        match CublasApi::load(path) {
            Ok(api) => {
                let version = api.version().map(|(ma, mi, pa)| format!("{ma}.{mi}.{pa}"));
                p.send(Msg::CublasLoaded {
                    library: path.clone(),
                    version,
                });
                return Ok(api);
            }
            Err(LoadError::Open(e)) => tried.push((path.clone(), e)),
            Err(LoadError::Symbol(s)) => tried.push((path.clone(), format!("no symbol {s}"))),
        }
    }
    Err(tried)
}

/// The primary context of a device, current on this thread until dropped.
struct CurrentContext<'a> {
    cuda: &'a CudaApi,
    dev: Device,
}

impl Drop for CurrentContext<'_> {
    fn drop(&mut self) {
        self.cuda.set_current(None);
        self.cuda.primary_ctx_release(self.dev);
    }
}

/// Device memory, freed when dropped (while the context is still current).
struct DeviceBuf<'a> {
    cuda: &'a CudaApi,
    ptr: DevicePtr,
}

impl Drop for DeviceBuf<'_> {
    fn drop(&mut self) {
        self.cuda.mem_free(self.ptr);
    }
}

struct LoadedModule<'a> {
    cuda: &'a CudaApi,
    module: Module,
}

impl Drop for LoadedModule<'_> {
    fn drop(&mut self) {
        self.cuda.module_unload(self.module);
    }
}

struct Handle<'a> {
    cublas: &'a CublasApi,
    handle: CublasHandle,
}

impl Drop for Handle<'_> {
    fn drop(&mut self) {
        self.cublas.destroy(self.handle);
    }
}

fn device(
    cuda: &CudaApi,
    cublas: Option<&CublasApi>,
    index: u32,
    a: &[u16],
    b: &[u16],
    p: &Progress,
) -> Result<(), Failure> {
    let dev_of = Some(index);
    let fail = |call: &'static str, r: i32| cuda_failure(cuda, call, r, dev_of);

    p.step(dev_of, "cuDeviceGet");
    let dev = cuda
        .device(i32::try_from(index).unwrap_or(i32::MAX))
        .map_err(|r| fail("cuDeviceGet", r))?;
    p.step(dev_of, "cuDeviceGetName");
    let name = cuda.device_name(dev).ok();
    p.step(dev_of, "cuDeviceGetAttribute");
    let cc = match (
        cuda.device_attribute(ATTR_CC_MAJOR, dev),
        cuda.device_attribute(ATTR_CC_MINOR, dev),
    ) {
        (Ok(ma), Ok(mi)) => Some((ma, mi)),
        _ => None,
    };
    p.step(dev_of, "cuDeviceTotalMem_v2");
    let memory_bytes = cuda.device_total_mem(dev).ok();
    p.send(Msg::DeviceInfo {
        index,
        name,
        cc,
        memory_bytes,
    });

    p.step(dev_of, "cuDevicePrimaryCtxRetain");
    let ctx: Context = cuda
        .primary_ctx_retain(dev)
        .map_err(|r| fail("cuDevicePrimaryCtxRetain", r))?;
    let _current = CurrentContext { cuda, dev };
    p.step(dev_of, "cuCtxSetCurrent");
    let r = cuda.set_current(Some(ctx));
    if r != 0 {
        return Err(fail("cuCtxSetCurrent", r));
    }

    let n = N;
    let alloc = |bytes: usize| -> Result<DeviceBuf<'_>, Failure> {
        p.step(dev_of, "cuMemAlloc_v2");
        cuda.mem_alloc(bytes)
            .map(|ptr| DeviceBuf { cuda, ptr })
            .map_err(|r| fail("cuMemAlloc_v2", r))
    };
    let da = alloc(n * n * 2)?;
    let db = alloc(n * n * 2)?;
    let dc = alloc(n * n * 4)?;

    for (dst, src) in [(&da, a), (&db, b)] {
        p.step(dev_of, "cuMemcpyHtoD_v2");
        let r = cuda.copy_to_device(dst.ptr, src);
        if r != 0 {
            return Err(fail("cuMemcpyHtoD_v2", r));
        }
    }

    let (backend, ms) = match cublas {
        Some(bl) => (
            "cublas",
            gemm_cublas(cuda, bl, index, (da.ptr, db.ptr, dc.ptr), p)?,
        ),
        None => (
            "builtin",
            gemm_builtin(cuda, index, (da.ptr, db.ptr, dc.ptr), p)?,
        ),
    };

    p.step(dev_of, "cuMemcpyDtoH_v2");
    let mut result = vec![0.0f32; n * n];
    let r = cuda.copy_from_device(&mut result, dc.ptr);
    if r != 0 {
        return Err(fail("cuMemcpyDtoH_v2", r));
    }
    p.send(Msg::GemmDone {
        index,
        backend,
        result,
        ms,
    });
    Ok(())
}

/// Two GEMMs (a warm-up that loads the kernels, then a timed one); returns
/// the timed one's wall time in milliseconds, synchronisation included.
fn gemm_cublas(
    cuda: &CudaApi,
    bl: &CublasApi,
    index: u32,
    (a, b, c): (DevicePtr, DevicePtr, DevicePtr),
    p: &Progress,
) -> Result<f64, Failure> {
    let dev_of = Some(index);
    let version = bl.version().map(|(ma, mi, pa)| format!("{ma}.{mi}.{pa}"));
    let blas_fail = |call: &'static str, status: i32| Failure::Cublas {
        call,
        status,
        device: dev_of,
        version: version.clone(),
    };
    p.step(dev_of, "cublasCreate_v2");
    let handle = bl.create().map_err(|s| blas_fail("cublasCreate_v2", s))?;
    let h = Handle { cublas: bl, handle };
    let mut ms = 0.0;
    for _ in 0..2 {
        let t = Instant::now();
        p.step(dev_of, "cublasGemmEx");
        let s = bl.gemm_row_major(h.handle, a, b, c, N as i32);
        if s != 0 {
            return Err(blas_fail("cublasGemmEx", s));
        }
        p.step(dev_of, "cuCtxSynchronize");
        let r = cuda.synchronize();
        if r != 0 {
            return Err(cuda_failure(cuda, "cuCtxSynchronize", r, dev_of));
        }
        ms = t.elapsed().as_secs_f64() * 1e3;
    }
    Ok(ms)
}

fn gemm_builtin(
    cuda: &CudaApi,
    index: u32,
    (a, b, c): (DevicePtr, DevicePtr, DevicePtr),
    p: &Progress,
) -> Result<f64, Failure> {
    let dev_of = Some(index);
    let fail = |call: &'static str, r: i32| cuda_failure(cuda, call, r, dev_of);
    let ptx = CStr::from_bytes_with_nul(HGEMM_PTX.as_bytes()).map_err(|e| Failure::WorkerLost {
        detail: format!("built-in kernel text: {e}"),
    })?;
    p.step(dev_of, "cuModuleLoadData");
    let module = cuda
        .module_load(ptx)
        .map_err(|r| fail("cuModuleLoadData", r))?;
    let m = LoadedModule { cuda, module };
    p.step(dev_of, "cuModuleGetFunction");
    let f = cuda
        .module_function(m.module, HGEMM_NAME)
        .map_err(|r| fail("cuModuleGetFunction", r))?;
    let blocks = (N as u32).div_ceil(BLOCK);
    let mut ms = 0.0;
    for _ in 0..2 {
        let t = Instant::now();
        p.step(dev_of, "cuLaunchKernel");
        let r = cuda.launch_hgemm(f, (blocks, blocks), (BLOCK, BLOCK), (a, b, c), N as u32);
        if r != 0 {
            return Err(fail("cuLaunchKernel", r));
        }
        p.step(dev_of, "cuCtxSynchronize");
        let r = cuda.synchronize();
        if r != 0 {
            return Err(fail("cuCtxSynchronize", r));
        }
        ms = t.elapsed().as_secs_f64() * 1e3;
    }
    Ok(ms)
}
