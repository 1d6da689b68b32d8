//! The one module that talks to C: NVML and libcuda through `dlopen`, and
//! two libc calls. Everything else in the probe is safe code; callers put a
//! timeout around the library calls (see `nvml.rs`).
//!
//! Libraries loaded here are never unloaded: `dlclose` of driver libraries
//! whose helper threads are still running has crashed tools at exit, and a
//! call that timed out may still be running inside the library.

// The FFI module: the one place unsafe code is allowed (Cargo.toml [lints]).
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString, OsStr};
use std::path::Path;

use libloading::Library;

/// NVML_SUCCESS / CUDA_SUCCESS.
const SUCCESS: c_int = 0;
/// NVML_ERROR_NOT_SUPPORTED.
const NVML_NOT_SUPPORTED: c_int = 3;
/// NVML_NVLINK_MAX_LINKS in nvml.h (R535 and later).
const NVLINK_MAX_LINKS: c_uint = 18;
/// More devices than any node holds: a bound on what a broken library reports.
const MAX_DEVICES: c_uint = 64;
/// NVML string buffers (NVML_DEVICE_NAME_V2_BUFFER_SIZE is 96; driver and UUID are shorter).
const STR_BUF: usize = 256;

type NvmlDevice = *mut c_void;

#[repr(C)]
#[derive(Default)]
struct NvmlMemory {
    total: u64,
    free: u64,
    used: u64,
}

/// nvmlPciInfo_t as of nvmlDeviceGetPciInfo_v3 (nvml.h).
#[repr(C)]
struct NvmlPciInfo {
    bus_id_legacy: [c_char; 16],
    domain: c_uint,
    bus: c_uint,
    device: c_uint,
    pci_device_id: c_uint,
    pci_sub_system_id: c_uint,
    bus_id: [c_char; 32],
}

type VoidFn = unsafe extern "C" fn() -> c_int;
type SysStrFn = unsafe extern "C" fn(*mut c_char, c_uint) -> c_int;
type SysIntFn = unsafe extern "C" fn(*mut c_int) -> c_int;
type CountFn = unsafe extern "C" fn(*mut c_uint) -> c_int;
type HandleFn = unsafe extern "C" fn(c_uint, *mut NvmlDevice) -> c_int;
type DevStrFn = unsafe extern "C" fn(NvmlDevice, *mut c_char, c_uint) -> c_int;
type DevCcFn = unsafe extern "C" fn(NvmlDevice, *mut c_int, *mut c_int) -> c_int;
type DevMemFn = unsafe extern "C" fn(NvmlDevice, *mut NvmlMemory) -> c_int;
type DevUintFn = unsafe extern "C" fn(NvmlDevice, *mut c_uint) -> c_int;
type DevMigFn = unsafe extern "C" fn(NvmlDevice, *mut c_uint, *mut c_uint) -> c_int;
type DevPciFn = unsafe extern "C" fn(NvmlDevice, *mut NvmlPciInfo) -> c_int;
type DevLinkFn = unsafe extern "C" fn(NvmlDevice, c_uint, *mut c_uint) -> c_int;
type ErrStrFn = unsafe extern "C" fn(c_int) -> *const c_char;

/// What NVML said about one device. A call that failed leaves its field
/// None and adds a line to `failures`.
#[derive(Debug, Default, Clone)]
pub struct NvmlDeviceReport {
    pub index: u32,
    pub name: Option<String>,
    pub uuid: Option<String>,
    pub compute_capability: Option<(i32, i32)>,
    pub memory_total_bytes: Option<u64>,
    /// nvmlBrandType_t.
    pub brand: Option<u32>,
    /// (current, pending) MIG mode: 1 enabled, 0 disabled.
    pub mig_mode: Option<(u32, u32)>,
    pub persistence: Option<bool>,
    pub pci_bus_id: Option<String>,
    pub pci_device_id: Option<u32>,
    /// Number of NVLink links reported active; None when NVML has no NVLink for the device.
    pub nvlink_active_links: Option<u32>,
    pub failures: Vec<String>,
}

#[derive(Debug, Default, Clone)]
pub struct NvmlReport {
    pub driver_version: Option<String>,
    /// cuDriverGetVersion-style integer (12040).
    pub cuda_driver_version: Option<i32>,
    pub nvml_version: Option<String>,
    pub devices: Vec<NvmlDeviceReport>,
    pub failures: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryError {
    /// dlopen failed (not installed, wrong architecture, not an ELF file).
    Load(String),
    /// A required symbol is missing.
    Symbol(String),
    /// The library answered with an error code.
    Call {
        call: &'static str,
        code: i32,
        message: String,
    },
}

impl std::fmt::Display for LibraryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LibraryError::Load(m) => write!(f, "could not be loaded: {m}"),
            LibraryError::Symbol(s) => write!(f, "has no symbol {s}"),
            LibraryError::Call {
                call,
                code,
                message,
            } => write!(f, "{call} failed with error {code}: {message}"),
        }
    }
}

fn load(path: &OsStr) -> Result<&'static Library, LibraryError> {
    // SAFETY: loading runs the library's initialisers. Only NVIDIA's user-mode
    // driver libraries are loaded here: by soname through the system loader on
    // the live machine, or from inside a --root only when the caller opted in
    // (test fixtures). The handle is leaked on purpose (see the module docs),
    // so symbols taken from it stay valid for the life of the process.
    let lib = unsafe { Library::new(path) }.map_err(|e| LibraryError::Load(e.to_string()))?;
    Ok(Box::leak(Box::new(lib)))
}

/// A function pointer out of a library that is never unloaded.
///
/// # Safety
/// `T` must be the C signature the library documents for `name`.
unsafe fn sym<T: Copy>(lib: &'static Library, name: &str) -> Option<T> {
    let mut bytes = name.as_bytes().to_vec();
    bytes.push(0);
    // SAFETY: the caller guarantees `T` matches the symbol; the library is
    // never unloaded, so copying the pointer out of the Symbol is sound.
    unsafe { lib.get::<T>(&bytes).ok().map(|s| *s) }
}

fn buf_to_string(buf: &[c_char]) -> String {
    let bytes: Vec<u8> = buf
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).trim().to_string()
}

struct Nvml {
    err_str: Option<ErrStrFn>,
}

impl Nvml {
    fn message(&self, code: c_int) -> String {
        let Some(f) = self.err_str else {
            return format!("error {code}");
        };
        // SAFETY: nvmlErrorString takes any return code and returns a pointer
        // to a static NUL-terminated string (or NULL, checked below).
        let p = unsafe { f(code) };
        if p.is_null() {
            return format!("error {code}");
        }
        // SAFETY: non-NULL, static and NUL-terminated per nvml.h.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    fn fail(&self, call: &str, code: c_int) -> String {
        format!("{call}: {} ({code})", self.message(code))
    }
}

/// Load NVML from `path`, initialise it, and read the driver and every device.
pub fn query_nvml(path: &OsStr) -> Result<NvmlReport, LibraryError> {
    let lib = load(path)?;
    // SAFETY: ErrStrFn is nvmlErrorString's signature in nvml.h.
    let nvml = Nvml {
        err_str: unsafe { sym::<ErrStrFn>(lib, "nvmlErrorString") },
    };
    // SAFETY: both symbols are `nvmlReturn_t f(void)` in nvml.h.
    let init = unsafe { sym::<VoidFn>(lib, "nvmlInit_v2") }
        .or_else(|| unsafe { sym::<VoidFn>(lib, "nvmlInit") })
        .ok_or_else(|| LibraryError::Symbol("nvmlInit_v2".into()))?;
    // SAFETY: nvmlInit_v2 takes no arguments; it may be called from any thread.
    let rc = unsafe { init() };
    if rc != SUCCESS {
        return Err(LibraryError::Call {
            call: "nvmlInit_v2",
            code: rc,
            message: nvml.message(rc),
        });
    }
    let mut report = NvmlReport::default();

    let sys_str = |name: &'static str, out: &mut Option<String>, failures: &mut Vec<String>| {
        // SAFETY: only called with nvmlSystemGetDriverVersion and
        // nvmlSystemGetNVMLVersion, both `nvmlReturn_t f(char *, unsigned)`.
        let Some(f) = (unsafe { sym::<SysStrFn>(lib, name) }) else {
            return;
        };
        let mut buf = [0 as c_char; STR_BUF];
        // SAFETY: buf is writable for STR_BUF bytes and its length is passed.
        let rc = unsafe { f(buf.as_mut_ptr(), STR_BUF as c_uint) };
        if rc == SUCCESS {
            *out = Some(buf_to_string(&buf)).filter(|s| !s.is_empty());
        } else {
            failures.push(nvml.fail(name, rc));
        }
    };
    sys_str(
        "nvmlSystemGetDriverVersion",
        &mut report.driver_version,
        &mut report.failures,
    );
    sys_str(
        "nvmlSystemGetNVMLVersion",
        &mut report.nvml_version,
        &mut report.failures,
    );

    // SAFETY: both symbols are `nvmlReturn_t f(int *)` in nvml.h.
    let cuda = unsafe { sym::<SysIntFn>(lib, "nvmlSystemGetCudaDriverVersion_v2") }
        .or_else(|| unsafe { sym::<SysIntFn>(lib, "nvmlSystemGetCudaDriverVersion") });
    if let Some(f) = cuda {
        let mut v: c_int = 0;
        // SAFETY: v is a valid out-pointer for the duration of the call.
        let rc = unsafe { f(&mut v) };
        if rc == SUCCESS && v > 0 {
            report.cuda_driver_version = Some(v);
        } else if rc != SUCCESS {
            report
                .failures
                .push(nvml.fail("nvmlSystemGetCudaDriverVersion_v2", rc));
        }
    }

    // SAFETY: both symbols are `nvmlReturn_t f(unsigned *)` in nvml.h.
    let count_fn = unsafe { sym::<CountFn>(lib, "nvmlDeviceGetCount_v2") }
        .or_else(|| unsafe { sym::<CountFn>(lib, "nvmlDeviceGetCount") });
    // SAFETY: both symbols are `nvmlReturn_t f(unsigned, nvmlDevice_t *)` in nvml.h.
    let handle_fn = unsafe { sym::<HandleFn>(lib, "nvmlDeviceGetHandleByIndex_v2") }
        .or_else(|| unsafe { sym::<HandleFn>(lib, "nvmlDeviceGetHandleByIndex") });
    let (Some(count_fn), Some(handle_fn)) = (count_fn, handle_fn) else {
        report
            .failures
            .push("NVML has no nvmlDeviceGetCount/nvmlDeviceGetHandleByIndex".into());
        return Ok(report);
    };
    let mut count: c_uint = 0;
    // SAFETY: count is a valid out-pointer.
    let rc = unsafe { count_fn(&mut count) };
    if rc != SUCCESS {
        report.failures.push(nvml.fail("nvmlDeviceGetCount_v2", rc));
        return Ok(report);
    }
    let device_fns = DeviceFns::new(lib);
    for i in 0..count.min(MAX_DEVICES) {
        let mut dev: NvmlDevice = std::ptr::null_mut();
        // SAFETY: dev is a valid out-pointer; i < count.
        let rc = unsafe { handle_fn(i, &mut dev) };
        if rc != SUCCESS || dev.is_null() {
            report
                .failures
                .push(nvml.fail(&format!("nvmlDeviceGetHandleByIndex_v2({i})"), rc));
            continue;
        }
        report.devices.push(device_fns.read(&nvml, i, dev));
    }
    // SAFETY: nvmlShutdown is `nvmlReturn_t nvmlShutdown(void)` in nvml.h.
    if let Some(shutdown) = unsafe { sym::<VoidFn>(lib, "nvmlShutdown") } {
        // SAFETY: NVML was initialised above and no handle is used after this.
        unsafe { shutdown() };
    }
    Ok(report)
}

struct DeviceFns {
    name: Option<DevStrFn>,
    uuid: Option<DevStrFn>,
    cc: Option<DevCcFn>,
    memory: Option<DevMemFn>,
    brand: Option<DevUintFn>,
    persistence: Option<DevUintFn>,
    mig: Option<DevMigFn>,
    pci: Option<DevPciFn>,
    nvlink: Option<DevLinkFn>,
}

impl DeviceFns {
    fn new(lib: &'static Library) -> Self {
        // SAFETY (every field): the type alias is the signature nvml.h
        // declares for that symbol; enums are C ints, read as c_uint.
        unsafe {
            DeviceFns {
                name: sym(lib, "nvmlDeviceGetName"),
                uuid: sym(lib, "nvmlDeviceGetUUID"),
                cc: sym(lib, "nvmlDeviceGetCudaComputeCapability"),
                memory: sym(lib, "nvmlDeviceGetMemoryInfo"),
                brand: sym(lib, "nvmlDeviceGetBrand"),
                persistence: sym(lib, "nvmlDeviceGetPersistenceMode"),
                mig: sym(lib, "nvmlDeviceGetMigMode"),
                pci: sym::<DevPciFn>(lib, "nvmlDeviceGetPciInfo_v3")
                    .or_else(|| sym(lib, "nvmlDeviceGetPciInfo_v2")),
                nvlink: sym(lib, "nvmlDeviceGetNvLinkState"),
            }
        }
    }

    fn read(&self, nvml: &Nvml, index: u32, dev: NvmlDevice) -> NvmlDeviceReport {
        let mut r = NvmlDeviceReport {
            index,
            ..Default::default()
        };
        let mut failures = Vec::new();
        let mut check = |call: &str, rc: c_int| {
            // "Not supported" is an answer (e.g. MIG on a GeForce), not a failure.
            if rc != SUCCESS && rc != NVML_NOT_SUPPORTED {
                failures.push(nvml.fail(call, rc));
            }
            rc == SUCCESS
        };
        let read_str = |f: DevStrFn, check: &mut dyn FnMut(&str, c_int) -> bool, call: &str| {
            let mut buf = [0 as c_char; STR_BUF];
            // SAFETY: dev is a live handle from nvmlDeviceGetHandleByIndex; buf
            // is writable for STR_BUF bytes and its length is passed.
            let rc = unsafe { f(dev, buf.as_mut_ptr(), STR_BUF as c_uint) };
            check(call, rc)
                .then(|| buf_to_string(&buf))
                .filter(|s| !s.is_empty())
        };
        if let Some(f) = self.name {
            r.name = read_str(f, &mut check, "nvmlDeviceGetName");
        }
        if let Some(f) = self.uuid {
            r.uuid = read_str(f, &mut check, "nvmlDeviceGetUUID");
        }
        if let Some(f) = self.cc {
            let (mut major, mut minor) = (0, 0);
            // SAFETY: live handle, valid out-pointers.
            let rc = unsafe { f(dev, &mut major, &mut minor) };
            if check("nvmlDeviceGetCudaComputeCapability", rc) && major > 0 {
                r.compute_capability = Some((major, minor));
            }
        }
        if let Some(f) = self.memory {
            let mut m = NvmlMemory::default();
            // SAFETY: live handle; m is an nvmlMemory_t.
            let rc = unsafe { f(dev, &mut m) };
            if check("nvmlDeviceGetMemoryInfo", rc) && m.total > 0 {
                r.memory_total_bytes = Some(m.total);
            }
        }
        if let Some(f) = self.brand {
            let mut b: c_uint = 0;
            // SAFETY: live handle, valid out-pointer (nvmlBrandType_t is a C enum).
            let rc = unsafe { f(dev, &mut b) };
            if check("nvmlDeviceGetBrand", rc) {
                r.brand = Some(b);
            }
        }
        if let Some(f) = self.persistence {
            let mut p: c_uint = 0;
            // SAFETY: live handle, valid out-pointer (nvmlEnableState_t).
            let rc = unsafe { f(dev, &mut p) };
            if check("nvmlDeviceGetPersistenceMode", rc) {
                r.persistence = Some(p == 1);
            }
        }
        if let Some(f) = self.mig {
            let (mut cur, mut pending) = (0, 0);
            // SAFETY: live handle, valid out-pointers.
            let rc = unsafe { f(dev, &mut cur, &mut pending) };
            if check("nvmlDeviceGetMigMode", rc) {
                r.mig_mode = Some((cur, pending));
            }
        }
        if let Some(f) = self.pci {
            let mut p = NvmlPciInfo {
                bus_id_legacy: [0; 16],
                domain: 0,
                bus: 0,
                device: 0,
                pci_device_id: 0,
                pci_sub_system_id: 0,
                bus_id: [0; 32],
            };
            // SAFETY: live handle; p has the nvmlPciInfo_t layout of the _v3 call.
            let rc = unsafe { f(dev, &mut p) };
            if check("nvmlDeviceGetPciInfo_v3", rc) {
                let id = buf_to_string(&p.bus_id);
                let id = if id.is_empty() {
                    buf_to_string(&p.bus_id_legacy)
                } else {
                    id
                };
                r.pci_bus_id = Some(id).filter(|s| !s.is_empty());
                // pciDeviceId packs the device id in the high 16 bits, the vendor in the low.
                r.pci_device_id = Some(p.pci_device_id >> 16).filter(|&d| d != 0);
            }
        }
        if let Some(f) = self.nvlink {
            let mut active = 0;
            let mut any = false;
            for link in 0..NVLINK_MAX_LINKS {
                let mut state: c_uint = 0;
                // SAFETY: live handle, valid out-pointer; links past the last
                // one return an error, which ends the loop.
                let rc = unsafe { f(dev, link, &mut state) };
                if rc != SUCCESS {
                    break;
                }
                any = true;
                if state == 1 {
                    active += 1;
                }
            }
            r.nvlink_active_links = any.then_some(active);
        }
        r.failures = failures;
        r
    }
}

/// `cuDriverGetVersion` from the libcuda at `path` (no cuInit needed).
/// Returns the integer version (12040) or the CUresult error.
pub fn cuda_driver_version(path: &OsStr) -> Result<i32, LibraryError> {
    let lib = load(path)?;
    // SAFETY: cuDriverGetVersion is `CUresult cuDriverGetVersion(int *)` (cuda.h).
    let f = unsafe { sym::<SysIntFn>(lib, "cuDriverGetVersion") }
        .ok_or_else(|| LibraryError::Symbol("cuDriverGetVersion".into()))?;
    let mut v: c_int = 0;
    // SAFETY: v is a valid out-pointer for the duration of the call.
    let rc = unsafe { f(&mut v) };
    if rc != SUCCESS {
        return Err(LibraryError::Call {
            call: "cuDriverGetVersion",
            code: rc,
            message: cuda_error_name(lib, rc),
        });
    }
    Ok(v)
}

type CuErrNameFn = unsafe extern "C" fn(c_int, *mut *const c_char) -> c_int;

fn cuda_error_name(lib: &'static Library, code: c_int) -> String {
    // SAFETY: `CUresult cuGetErrorName(CUresult, const char **)` (cuda.h).
    let Some(f) = (unsafe { sym::<CuErrNameFn>(lib, "cuGetErrorName") }) else {
        return format!("CUresult {code}");
    };
    let mut p: *const c_char = std::ptr::null();
    // SAFETY: p is a valid out-pointer; on success it points to a static string.
    let rc = unsafe { f(code, &mut p) };
    if rc != SUCCESS || p.is_null() {
        return format!("CUresult {code}");
    }
    // SAFETY: non-NULL, static and NUL-terminated per cuda.h.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The glibc this process runs on (`gnu_get_libc_version`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn glibc_version() -> Option<String> {
    extern "C" {
        fn gnu_get_libc_version() -> *const c_char;
    }
    // SAFETY: glibc returns a pointer to a static NUL-terminated string.
    let p = unsafe { gnu_get_libc_version() };
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL, static and NUL-terminated.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn glibc_version() -> Option<String> {
    None
}

/// Can this user open `path` for reading and writing? Uses access(2), so a
/// device node is never opened (opening /dev/nvidiaN can wake the GPU).
#[cfg(unix)]
pub fn can_read_write(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    extern "C" {
        fn access(path: *const c_char, mode: c_int) -> c_int;
    }
    const R_OK: c_int = 4;
    const W_OK: c_int = 2;
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: c is a valid NUL-terminated string that outlives the call;
    // access(2) only reads it.
    unsafe { access(c.as_ptr(), R_OK | W_OK) == 0 }
}

#[cfg(not(unix))]
pub fn can_read_write(path: &Path) -> bool {
    std::fs::File::open(path).is_ok()
}
