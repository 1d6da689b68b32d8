//! The only code in gpucompat that calls C: the handful of CUDA driver API and
//! cuBLAS entry points the smoke test needs, loaded at run time with
//! libloading (nothing links against CUDA, so the binary runs without it).
//!
//! Loaded libraries are never unloaded: a hung call may still be running in a
//! detached worker thread, and unloading libcuda is not safe anyway while a
//! context may exist. The function pointers are therefore valid for the rest
//! of the process.

// The FFI module: the one place unsafe code is allowed (Cargo.toml [lints]).
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use libloading::Library;

/// `CUresult`: 0 is success.
pub type CuResult = c_int;
/// `cublasStatus_t`: 0 is success.
pub type CublasStatus = c_int;

/// `CUdevice`: an ordinal handle.
#[derive(Debug, Clone, Copy)]
pub struct Device(c_int);

/// `CUcontext`.
#[derive(Debug, Clone, Copy)]
pub struct Context(*mut c_void);

/// `CUdeviceptr`: a device address (64-bit on every supported platform).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DevicePtr(u64);

/// `CUmodule`.
#[derive(Debug, Clone, Copy)]
pub struct Module(*mut c_void);

/// `CUfunction`.
#[derive(Debug, Clone, Copy)]
pub struct Function(*mut c_void);

/// `cublasHandle_t`.
#[derive(Debug, Clone, Copy)]
pub struct CublasHandle(*mut c_void);

/// `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR` / `_MINOR` (cuda.h).
pub const ATTR_CC_MAJOR: c_int = 75;
pub const ATTR_CC_MINOR: c_int = 76;

/// cuBLAS constants (cublas_api.h, library_types.h).
const CUBLAS_OP_N: c_int = 0;
const CUDA_R_32F: c_int = 0;
const CUDA_R_16F: c_int = 2;
/// `CUBLAS_COMPUTE_32F`, the compute type of cuBLAS 11 and later.
const CUBLAS_COMPUTE_32F: c_int = 68;
const CUBLAS_GEMM_DEFAULT: c_int = -1;
/// `libraryPropertyType`: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL.
const LIB_PROPERTIES: [c_int; 3] = [0, 1, 2];

/// Why a library could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// dlopen failed (not found, wrong architecture, missing dependency).
    Open(String),
    /// The library lacks an entry point we need (too old, or not this library).
    Symbol(String),
}

type FnInit = unsafe extern "C" fn(c_uint) -> CuResult;
type FnGetInt = unsafe extern "C" fn(*mut c_int) -> CuResult;
type FnDeviceGet = unsafe extern "C" fn(*mut c_int, c_int) -> CuResult;
type FnDeviceGetName = unsafe extern "C" fn(*mut c_char, c_int, c_int) -> CuResult;
type FnDeviceGetAttribute = unsafe extern "C" fn(*mut c_int, c_int, c_int) -> CuResult;
type FnDeviceTotalMem = unsafe extern "C" fn(*mut usize, c_int) -> CuResult;
type FnPrimaryCtxRetain = unsafe extern "C" fn(*mut *mut c_void, c_int) -> CuResult;
type FnPrimaryCtxRelease = unsafe extern "C" fn(c_int) -> CuResult;
type FnCtxSetCurrent = unsafe extern "C" fn(*mut c_void) -> CuResult;
type FnCtxSynchronize = unsafe extern "C" fn() -> CuResult;
type FnMemAlloc = unsafe extern "C" fn(*mut u64, usize) -> CuResult;
type FnMemFree = unsafe extern "C" fn(u64) -> CuResult;
type FnMemcpyHtoD = unsafe extern "C" fn(u64, *const c_void, usize) -> CuResult;
type FnMemcpyDtoH = unsafe extern "C" fn(*mut c_void, u64, usize) -> CuResult;
type FnModuleLoadData = unsafe extern "C" fn(*mut *mut c_void, *const c_void) -> CuResult;
type FnModuleGetFunction =
    unsafe extern "C" fn(*mut *mut c_void, *mut c_void, *const c_char) -> CuResult;
type FnModuleUnload = unsafe extern "C" fn(*mut c_void) -> CuResult;
#[allow(clippy::type_complexity)]
type FnLaunchKernel = unsafe extern "C" fn(
    *mut c_void,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    *mut c_void,
    *mut *mut c_void,
    *mut *mut c_void,
) -> CuResult;
type FnGetErrorText = unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult;

type FnCublasCreate = unsafe extern "C" fn(*mut *mut c_void) -> CublasStatus;
type FnCublasDestroy = unsafe extern "C" fn(*mut c_void) -> CublasStatus;
type FnCublasGetProperty = unsafe extern "C" fn(c_int, *mut c_int) -> CublasStatus;
#[allow(clippy::type_complexity)]
type FnCublasGemmEx = unsafe extern "C" fn(
    *mut c_void,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    *const c_void,
    *const c_void,
    c_int,
    c_int,
    *const c_void,
    c_int,
    c_int,
    *const c_void,
    *mut c_void,
    c_int,
    c_int,
    c_int,
    c_int,
) -> CublasStatus;

/// Open a library and keep it loaded for the rest of the process.
fn open(path: &str) -> Result<&'static Library, LoadError> {
    // SAFETY: loading a shared library runs its initializers. We load only
    // the CUDA driver and cuBLAS from the system loader's search path, or a
    // file the user named in GPUCOMPAT_LIBCUDA / GPUCOMPAT_LIBCUBLAS, whose
    // initializers are trusted exactly as any CUDA program trusts them.
    let lib = unsafe { Library::new(path) }.map_err(|e| LoadError::Open(e.to_string()))?;
    Ok(Box::leak(Box::new(lib)))
}

/// Look up `name` (without its trailing NUL) as a function of type `T`.
///
/// # Safety
/// `T` must be the `unsafe extern "C" fn` type matching the symbol's C prototype.
unsafe fn sym<T: Copy>(lib: &'static Library, name: &str) -> Result<T, LoadError> {
    let mut cname = name.as_bytes().to_vec();
    cname.push(0);
    // SAFETY: the caller guarantees `T` matches the C prototype; the library
    // is leaked, so the pointer stays valid for the life of the process.
    unsafe { lib.get::<T>(&cname) }
        .map(|s| *s)
        .map_err(|_| LoadError::Symbol(name.to_string()))
}

/// The CUDA driver API entry points the smoke test calls.
pub struct CudaApi {
    init: FnInit,
    driver_get_version: FnGetInt,
    device_get_count: FnGetInt,
    device_get: FnDeviceGet,
    device_get_name: FnDeviceGetName,
    device_get_attribute: FnDeviceGetAttribute,
    device_total_mem: FnDeviceTotalMem,
    primary_ctx_retain: FnPrimaryCtxRetain,
    primary_ctx_release: FnPrimaryCtxRelease,
    ctx_set_current: FnCtxSetCurrent,
    ctx_synchronize: FnCtxSynchronize,
    mem_alloc: FnMemAlloc,
    mem_free: FnMemFree,
    memcpy_htod: FnMemcpyHtoD,
    memcpy_dtoh: FnMemcpyDtoH,
    module_load_data: FnModuleLoadData,
    module_get_function: FnModuleGetFunction,
    module_unload: FnModuleUnload,
    launch_kernel: FnLaunchKernel,
    get_error_name: Option<FnGetErrorText>,
    get_error_string: Option<FnGetErrorText>,
}

impl CudaApi {
    pub fn load(path: &str) -> Result<CudaApi, LoadError> {
        let lib = open(path)?;
        // SAFETY (for every `sym` call below): each type alias above is the
        // prototype of that entry point in cuda.h (the `_v2` variants take
        // 64-bit sizes and device pointers, as declared there).
        unsafe {
            Ok(CudaApi {
                init: sym(lib, "cuInit")?,
                driver_get_version: sym(lib, "cuDriverGetVersion")?,
                device_get_count: sym(lib, "cuDeviceGetCount")?,
                device_get: sym(lib, "cuDeviceGet")?,
                device_get_name: sym(lib, "cuDeviceGetName")?,
                device_get_attribute: sym(lib, "cuDeviceGetAttribute")?,
                device_total_mem: sym(lib, "cuDeviceTotalMem_v2")?,
                primary_ctx_retain: sym(lib, "cuDevicePrimaryCtxRetain")?,
                primary_ctx_release: sym(lib, "cuDevicePrimaryCtxRelease_v2")
                    .or_else(|_| sym(lib, "cuDevicePrimaryCtxRelease"))?,
                ctx_set_current: sym(lib, "cuCtxSetCurrent")?,
                ctx_synchronize: sym(lib, "cuCtxSynchronize")?,
                mem_alloc: sym(lib, "cuMemAlloc_v2")?,
                mem_free: sym(lib, "cuMemFree_v2")?,
                memcpy_htod: sym(lib, "cuMemcpyHtoD_v2")?,
                memcpy_dtoh: sym(lib, "cuMemcpyDtoH_v2")?,
                module_load_data: sym(lib, "cuModuleLoadData")?,
                module_get_function: sym(lib, "cuModuleGetFunction")?,
                module_unload: sym(lib, "cuModuleUnload")?,
                launch_kernel: sym(lib, "cuLaunchKernel")?,
                get_error_name: sym(lib, "cuGetErrorName").ok(),
                get_error_string: sym(lib, "cuGetErrorString").ok(),
            })
        }
    }

    pub fn init(&self) -> CuResult {
        // SAFETY: cuInit takes a flags word that must be 0.
        unsafe { (self.init)(0) }
    }

    /// The newest CUDA version the driver supports, as 1000·major + 10·minor.
    pub fn driver_version(&self) -> Result<i32, CuResult> {
        let mut v: c_int = 0;
        // SAFETY: writes one int through a valid pointer; callable before cuInit.
        check(unsafe { (self.driver_get_version)(&mut v) }).map(|()| v)
    }

    pub fn device_count(&self) -> Result<i32, CuResult> {
        let mut n: c_int = 0;
        // SAFETY: writes one int through a valid pointer.
        check(unsafe { (self.device_get_count)(&mut n) }).map(|()| n)
    }

    pub fn device(&self, ordinal: i32) -> Result<Device, CuResult> {
        let mut d: c_int = 0;
        // SAFETY: writes one CUdevice (an int) through a valid pointer.
        check(unsafe { (self.device_get)(&mut d, ordinal) }).map(|()| Device(d))
    }

    pub fn device_name(&self, dev: Device) -> Result<String, CuResult> {
        let mut buf = [0 as c_char; 256];
        // SAFETY: the driver writes at most `len` bytes, NUL-terminated, into the buffer.
        check(unsafe { (self.device_get_name)(buf.as_mut_ptr(), buf.len() as c_int, dev.0) })?;
        let bytes: Vec<u8> = buf.iter().map(|&c| c as u8).collect();
        Ok(CStr::from_bytes_until_nul(&bytes)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|_| String::from_utf8_lossy(&bytes).into_owned()))
    }

    pub fn device_attribute(&self, attr: c_int, dev: Device) -> Result<i32, CuResult> {
        let mut v: c_int = 0;
        // SAFETY: writes one int through a valid pointer.
        check(unsafe { (self.device_get_attribute)(&mut v, attr, dev.0) }).map(|()| v)
    }

    pub fn device_total_mem(&self, dev: Device) -> Result<usize, CuResult> {
        let mut v: usize = 0;
        // SAFETY: writes one size_t through a valid pointer.
        check(unsafe { (self.device_total_mem)(&mut v, dev.0) }).map(|()| v)
    }

    pub fn primary_ctx_retain(&self, dev: Device) -> Result<Context, CuResult> {
        let mut ctx: *mut c_void = std::ptr::null_mut();
        // SAFETY: writes one CUcontext through a valid pointer.
        check(unsafe { (self.primary_ctx_retain)(&mut ctx, dev.0) }).map(|()| Context(ctx))
    }

    pub fn primary_ctx_release(&self, dev: Device) -> CuResult {
        // SAFETY: releases a reference taken by primary_ctx_retain on this device.
        unsafe { (self.primary_ctx_release)(dev.0) }
    }

    pub fn set_current(&self, ctx: Option<Context>) -> CuResult {
        let raw = ctx.map_or(std::ptr::null_mut(), |c| c.0);
        // SAFETY: a context from primary_ctx_retain, or NULL to unbind the thread.
        unsafe { (self.ctx_set_current)(raw) }
    }

    pub fn synchronize(&self) -> CuResult {
        // SAFETY: no arguments; acts on the thread's current context.
        unsafe { (self.ctx_synchronize)() }
    }

    pub fn mem_alloc(&self, bytes: usize) -> Result<DevicePtr, CuResult> {
        let mut p: u64 = 0;
        // SAFETY: writes one CUdeviceptr through a valid pointer.
        check(unsafe { (self.mem_alloc)(&mut p, bytes) }).map(|()| DevicePtr(p))
    }

    pub fn mem_free(&self, p: DevicePtr) -> CuResult {
        // SAFETY: frees device memory; the driver validates the address.
        unsafe { (self.mem_free)(p.0) }
    }

    pub fn copy_to_device(&self, dst: DevicePtr, src: &[u16]) -> CuResult {
        // SAFETY: reads exactly `size_of_val(src)` bytes from a live slice;
        // the driver checks the device range against its allocation.
        unsafe { (self.memcpy_htod)(dst.0, src.as_ptr().cast(), std::mem::size_of_val(src)) }
    }

    pub fn copy_from_device(&self, dst: &mut [f32], src: DevicePtr) -> CuResult {
        // SAFETY: writes exactly `size_of_val(dst)` bytes into a live, exclusively
        // borrowed slice (any bit pattern is a valid f32).
        unsafe { (self.memcpy_dtoh)(dst.as_mut_ptr().cast(), src.0, std::mem::size_of_val(dst)) }
    }

    pub fn module_load(&self, image: &CStr) -> Result<Module, CuResult> {
        let mut m: *mut c_void = std::ptr::null_mut();
        // SAFETY: `image` is a NUL-terminated PTX text that outlives the call.
        check(unsafe { (self.module_load_data)(&mut m, image.as_ptr().cast()) }).map(|()| Module(m))
    }

    pub fn module_function(&self, m: Module, name: &CStr) -> Result<Function, CuResult> {
        let mut f: *mut c_void = std::ptr::null_mut();
        // SAFETY: a module from module_load and a NUL-terminated name.
        check(unsafe { (self.module_get_function)(&mut f, m.0, name.as_ptr()) })
            .map(|()| Function(f))
    }

    pub fn module_unload(&self, m: Module) -> CuResult {
        // SAFETY: a module from module_load, unloaded once.
        unsafe { (self.module_unload)(m.0) }
    }

    /// Launch the built-in `gpucompat_hgemm(const half*, const half*, float*, unsigned n)`.
    pub fn launch_hgemm(
        &self,
        f: Function,
        grid: (u32, u32),
        block: (u32, u32),
        (a, b, c): (DevicePtr, DevicePtr, DevicePtr),
        n: u32,
    ) -> CuResult {
        let (mut pa, mut pb, mut pc, mut pn) = (a.0, b.0, c.0, n);
        let mut params: [*mut c_void; 4] = [
            (&mut pa as *mut u64).cast(),
            (&mut pb as *mut u64).cast(),
            (&mut pc as *mut u64).cast(),
            (&mut pn as *mut u32).cast(),
        ];
        // SAFETY: `params` holds one pointer per kernel parameter, each to a
        // value of the parameter's type (.u64, .u64, .u64, .u32 in hgemm.ptx);
        // cuLaunchKernel copies them before returning. Stream 0, no shared memory.
        unsafe {
            (self.launch_kernel)(
                f.0,
                grid.0,
                grid.1,
                1,
                block.0,
                block.1,
                1,
                0,
                std::ptr::null_mut(),
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        }
    }

    /// `CUDA_ERROR_NO_DEVICE` and its description, as the driver words them.
    pub fn error_text(&self, code: CuResult) -> (Option<String>, Option<String>) {
        let get = |f: Option<FnGetErrorText>| {
            let f = f?;
            let mut p: *const c_char = std::ptr::null();
            // SAFETY: the driver points `p` at a static NUL-terminated string, or fails.
            let r = unsafe { f(code, &mut p) };
            if r != 0 || p.is_null() {
                return None;
            }
            // SAFETY: non-NULL and NUL-terminated per the cuGetErrorName/String contract.
            Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        };
        (get(self.get_error_name), get(self.get_error_string))
    }
}

/// The cuBLAS entry points the smoke test calls.
pub struct CublasApi {
    create: FnCublasCreate,
    destroy: FnCublasDestroy,
    gemm_ex: FnCublasGemmEx,
    get_property: Option<FnCublasGetProperty>,
}

impl CublasApi {
    pub fn load(path: &str) -> Result<CublasApi, LoadError> {
        let lib = open(path)?;
        // SAFETY (for every `sym` call below): each type alias above is the
        // prototype of that entry point in cublas_api.h (cuBLAS 11 and later).
        unsafe {
            Ok(CublasApi {
                create: sym(lib, "cublasCreate_v2")?,
                destroy: sym(lib, "cublasDestroy_v2")?,
                gemm_ex: sym(lib, "cublasGemmEx")?,
                get_property: sym(lib, "cublasGetProperty").ok(),
            })
        }
    }

    /// cuBLAS's own version (major, minor, patch), without a handle.
    pub fn version(&self) -> Option<(i32, i32, i32)> {
        let f = self.get_property?;
        let mut v = [0 as c_int; 3];
        for (slot, prop) in v.iter_mut().zip(LIB_PROPERTIES) {
            // SAFETY: writes one int through a valid pointer.
            if unsafe { f(prop, slot) } != 0 {
                return None;
            }
        }
        Some((v[0], v[1], v[2]))
    }

    pub fn create(&self) -> Result<CublasHandle, CublasStatus> {
        let mut h: *mut c_void = std::ptr::null_mut();
        // SAFETY: writes one handle through a valid pointer; uses the current context.
        let s = unsafe { (self.create)(&mut h) };
        if s == 0 {
            Ok(CublasHandle(h))
        } else {
            Err(s)
        }
    }

    pub fn destroy(&self, h: CublasHandle) -> CublasStatus {
        // SAFETY: a handle from create, destroyed once.
        unsafe { (self.destroy)(h.0) }
    }

    /// C = A·B for row-major n×n matrices: A, B fp16, C f32, f32 compute.
    /// cuBLAS is column-major, where a row-major buffer reads as the
    /// transpose, so it computes Cᵀ = Bᵀ·Aᵀ by passing B first.
    pub fn gemm_row_major(
        &self,
        h: CublasHandle,
        a: DevicePtr,
        b: DevicePtr,
        c: DevicePtr,
        n: i32,
    ) -> CublasStatus {
        let alpha: f32 = 1.0;
        let beta: f32 = 0.0;
        // SAFETY: A and B are n·n fp16 and C n·n f32 device allocations with
        // leading dimension n; alpha and beta are host f32 scalars (the
        // default pointer mode) that live across the call.
        unsafe {
            (self.gemm_ex)(
                h.0,
                CUBLAS_OP_N,
                CUBLAS_OP_N,
                n,
                n,
                n,
                (&alpha as *const f32).cast(),
                b.0 as *const c_void,
                CUDA_R_16F,
                n,
                a.0 as *const c_void,
                CUDA_R_16F,
                n,
                (&beta as *const f32).cast(),
                c.0 as *mut c_void,
                CUDA_R_32F,
                n,
                CUBLAS_COMPUTE_32F,
                CUBLAS_GEMM_DEFAULT,
            )
        }
    }
}

fn check(r: CuResult) -> Result<(), CuResult> {
    if r == 0 {
        Ok(())
    } else {
        Err(r)
    }
}
