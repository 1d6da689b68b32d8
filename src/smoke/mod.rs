//! Prove the GPU computes: on every visible GPU, a 512×512 fp16 GEMM through
//! the CUDA driver API and cuBLAS (or, without cuBLAS, a built-in PTX kernel
//! the driver compiles), checked against a CPU reference. No Python, no CUDA
//! toolkit, nothing linked: libcuda and libcublas are loaded at run time.
//!
//! Every failure on the way becomes a finding (`SMK…`, see [`errors`]) and an
//! [`ObservedError`](crate::inventory::ObservedError) in the report's
//! inventory, so the shared rules can judge it next to the other facts.
//!
//! The GPU work runs on a worker thread that announces each call before it
//! makes it; the caller waits for each announcement at most `timeout`, so a
//! hung driver becomes a finding naming the call, and the process can exit
//! (the worker is left behind, detached).
//!
//! Environment: `GPUCOMPAT_LIBCUDA` / `GPUCOMPAT_LIBCUBLAS` name the library
//! files to load instead of the loader's `libcuda.so.1` / `libcublas.so.{13,12,11}`.
//! Under a `--root` other than `/` nothing is loaded (smoke needs the live
//! machine) unless the process environment sets `GPUCOMPAT_SMOKE_ALLOW_ROOT=1`,
//! a test hook that loads the libraries found under the root.

pub mod codes;
pub mod errors;
pub mod failure;
pub mod gemm;
pub mod observed;
pub mod rules;

mod driver;
mod ffi;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::finding::Finding;
use crate::inventory::{Fact, Gpu, Inventory};
use crate::system::System;
use crate::version::{ComputeCapability, CudaVersion};

use errors::{Context, Failure};

/// The default wait for any one driver call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Which GEMM to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GemmChoice {
    /// cuBLAS when it loads, else the built-in kernel.
    #[default]
    Auto,
    /// cuBLAS only; a missing cuBLAS is an error.
    Cublas,
    /// The built-in PTX kernel only.
    Builtin,
}

#[derive(Debug, Clone)]
pub struct SmokeOptions {
    /// The longest any one step (a driver call, the GEMM) may take.
    pub timeout: Duration,
    pub gemm: GemmChoice,
    /// Load libraries found under a non-`/` root (tests only).
    pub allow_root_libraries: bool,
}

impl SmokeOptions {
    pub fn new(timeout: Duration) -> SmokeOptions {
        SmokeOptions {
            timeout,
            gemm: GemmChoice::Auto,
            allow_root_libraries: std::env::var_os("GPUCOMPAT_SMOKE_ALLOW_ROOT")
                .is_some_and(|v| v == "1"),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DriverReport {
    /// The libcuda that was loaded.
    pub library: Option<String>,
    /// The newest CUDA the driver supports (cuDriverGetVersion), `12.4`.
    pub cuda_version: Option<String>,
    /// cuDeviceGetCount.
    pub device_count: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CublasReport {
    pub library: String,
    /// cuBLAS's own version, `12.4.5`.
    pub version: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GemmReport {
    /// The result matched the CPU reference.
    pub ok: bool,
    /// `cublas` or `builtin`; None when no GEMM ran.
    pub backend: Option<String>,
    /// Matrix size: N×N times N×N.
    pub n: usize,
    pub max_abs_err: Option<f64>,
    pub tolerance: f64,
    /// Wall time of one GEMM, synchronisation included.
    pub ms: Option<f64>,
    /// Why it did not run or did not match.
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceReport {
    pub index: u32,
    pub name: Option<String>,
    /// Compute capability, `9.0`.
    pub cc: Option<String>,
    pub memory_mib: Option<u64>,
    pub gemm: GemmReport,
}

/// What the smoke test found; `smoke --json` prints it inside the report envelope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SmokeReport {
    pub driver: DriverReport,
    pub cublas: Option<CublasReport>,
    pub devices: Vec<DeviceReport>,
    pub findings: Vec<Finding>,
    /// The facts and observed errors, for `check --smoke` and the rules.
    #[serde(skip)]
    pub inventory: Inventory,
}

impl SmokeReport {
    /// At least one GPU ran the GEMM, and every GPU's result matched.
    pub fn passed(&self) -> bool {
        !self.devices.is_empty() && self.devices.iter().all(|d| d.gemm.ok)
    }

    /// Smoke did not run because the root is not the live machine.
    pub fn skipped_not_live(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.code == errors::SMOKE_NEEDS_LIVE_MACHINE.code)
    }
}

/// Run the smoke test on the machine behind `sys`, waiting at most `timeout`
/// for any one step. Never panics; every failure is a finding.
pub fn run_smoke(sys: &dyn System, timeout: Duration) -> SmokeReport {
    run_smoke_with(sys, &SmokeOptions::new(timeout))
}

/// What the caller collects from the worker.
#[derive(Default)]
struct Collected {
    driver: DriverReport,
    cublas: Option<CublasReport>,
    driver_cuda: Option<CudaVersion>,
    devices: BTreeMap<u32, DeviceReport>,
    results: BTreeMap<u32, (&'static str, Vec<f32>, f64)>,
    failures: Vec<(Option<u32>, Failure)>,
}

pub fn run_smoke_with(sys: &dyn System, opts: &SmokeOptions) -> SmokeReport {
    let live = sys.root() == Path::new("/");
    let mut ctx = Context {
        visible_devices: sys.env("CUDA_VISIBLE_DEVICES"),
        gpus_on_bus: gpus_on_bus(sys),
        ..Context::default()
    };
    let mut got = Collected::default();

    if !live && !opts.allow_root_libraries {
        got.failures.push((
            None,
            Failure::NotLive {
                root: sys.root().display().to_string(),
            },
        ));
        return finish(got, &mut ctx);
    }

    let plan = driver::Plan::new(sys, live, opts.gemm);
    let (a, b) = gemm::inputs(gemm::N);
    let (a, b) = (Arc::new(a), Arc::new(b));
    let (tx, rx) = mpsc::channel();
    let worker = {
        let (a, b) = (Arc::clone(&a), Arc::clone(&b));
        std::thread::Builder::new()
            .name("gpucompat-smoke".into())
            .spawn(move || driver::work(plan, a, b, driver::Progress(tx)))
    };
    if let Err(e) = worker {
        got.failures.push((
            None,
            Failure::WorkerLost {
                detail: format!("cannot start a thread: {e}"),
            },
        ));
        return finish(got, &mut ctx);
    }

    let mut current: (Option<u32>, &'static str) = (None, "start");
    loop {
        match rx.recv_timeout(opts.timeout) {
            Ok(driver::Msg::Step { device, step }) => current = (device, step),
            Ok(driver::Msg::DriverLoaded { library }) => got.driver.library = Some(library),
            Ok(driver::Msg::DriverVersion(v)) => {
                got.driver_cuda = u32::try_from(v)
                    .ok()
                    .and_then(|v| CudaVersion::from_int(v).ok());
                got.driver.cuda_version = got.driver_cuda.map(|v| v.to_string());
            }
            Ok(driver::Msg::DeviceCount(n)) => got.driver.device_count = Some(n),
            Ok(driver::Msg::CublasLoaded { library, version }) => {
                got.cublas = Some(CublasReport { library, version })
            }
            Ok(driver::Msg::DeviceInfo {
                index,
                name,
                cc,
                memory_bytes,
            }) => {
                let mut d = untested(index, "not run");
                d.name = name;
                d.cc = cc.map(|(ma, mi)| format!("{ma}.{mi}"));
                d.memory_mib = memory_bytes.map(|b| b as u64 / (1024 * 1024));
                got.devices.insert(index, d);
            }
            Ok(driver::Msg::GemmDone {
                index,
                backend,
                result,
                ms,
            }) => {
                got.results.insert(index, (backend, result, ms));
            }
            Ok(driver::Msg::Failed { device, failure }) => got.failures.push((device, failure)),
            Ok(driver::Msg::Done) => break,
            Err(RecvTimeoutError::Timeout) => {
                let (device, step) = current;
                got.failures.push((
                    device,
                    Failure::Timeout {
                        step: step.to_string(),
                        device,
                        after: opts.timeout,
                    },
                ));
                break;
            }
            // The worker ended: after a failure that stops it, or by panicking.
            Err(RecvTimeoutError::Disconnected) => {
                if got.failures.is_empty() {
                    got.failures.push((
                        None,
                        Failure::WorkerLost {
                            detail: format!("it stopped during {}", current.1),
                        },
                    ));
                }
                break;
            }
        }
    }

    // The CPU side: compare each result with the reference.
    if !got.results.is_empty() {
        let reference = gemm::reference(&a, &b, gemm::N);
        for (index, (backend, result, ms)) in std::mem::take(&mut got.results) {
            let cmp = gemm::compare(&result, &reference, gemm::N, gemm::TOLERANCE);
            let d = got
                .devices
                .entry(index)
                .or_insert_with(|| untested(index, "not run"));
            d.gemm.backend = Some(backend.to_string());
            d.gemm.ms = Some((ms * 1000.0).round() / 1000.0);
            d.gemm.max_abs_err = cmp.non_finite.eq(&0).then_some(cmp.max_abs_err);
            d.gemm.ok = cmp.ok();
            d.gemm.error = None;
            if !cmp.ok() {
                d.gemm.error = Some(format!(
                    "{} of {} elements differ from the CPU reference",
                    cmp.wrong,
                    reference.len()
                ));
                got.failures.push((
                    Some(index),
                    Failure::WrongResult {
                        device: index,
                        backend,
                        cmp,
                        tolerance: gemm::TOLERANCE,
                    },
                ));
            }
        }
    }
    finish(got, &mut ctx)
}

fn untested(index: u32, why: &str) -> DeviceReport {
    DeviceReport {
        index,
        name: None,
        cc: None,
        memory_mib: None,
        gemm: GemmReport {
            ok: false,
            backend: None,
            n: gemm::N,
            max_abs_err: None,
            tolerance: gemm::TOLERANCE,
            ms: None,
            error: Some(why.to_string()),
        },
    }
}

/// NVIDIA GPUs the kernel knows about, whatever CUDA says.
fn gpus_on_bus(sys: &dyn System) -> bool {
    sys.read_dir(Path::new("/proc/driver/nvidia/gpus"))
        .is_ok_and(|e| !e.is_empty())
        || sys.exists(Path::new("/dev/nvidia0"))
}

/// Build the report: devices (untested ones included), findings, inventory.
fn finish(mut got: Collected, ctx: &mut Context) -> SmokeReport {
    ctx.driver_library = got.driver.library.clone();
    ctx.driver_cuda = got.driver_cuda;
    if let Some(n) = got.driver.device_count {
        for i in 0..n {
            got.devices
                .entry(i)
                .or_insert_with(|| untested(i, "not run: an earlier step failed"));
        }
    }
    ctx.devices = got
        .devices
        .values()
        .map(|d| {
            (
                d.index,
                d.name.clone(),
                d.cc.as_deref()
                    .and_then(|c| c.parse::<ComputeCapability>().ok()),
            )
        })
        .collect();

    let mut inv = Inventory::new("smoke");
    if let (Some(v), Some(lib)) = (got.driver_cuda, &got.driver.library) {
        inv.nvidia.cuda_max = Some(Fact::new(v, format!("cuDriverGetVersion ({lib})")));
    }
    for d in got.devices.values() {
        inv.gpus.push(Gpu {
            index: d.index,
            name: d.name.clone().map(|n| Fact::new(n, "cuDeviceGetName")),
            compute_capability: d
                .cc
                .as_deref()
                .and_then(|c| c.parse().ok())
                .map(|c| Fact::new(c, "cuDeviceGetAttribute")),
            memory_mib: d.memory_mib.map(|m| Fact::new(m, "cuDeviceTotalMem_v2")),
            ..Gpu::default()
        });
    }

    let mut findings = Vec::new();
    for (device, failure) in &got.failures {
        let f = errors::finding(failure, ctx);
        if let Some(o) = errors::observed(failure, ctx) {
            // A failed device shows why in its own entry.
            if let Some(d) = device.and_then(|i| got.devices.get_mut(&i)) {
                let replace = match d.gemm.error.as_deref() {
                    None => true,
                    Some(e) => e.starts_with("not run"),
                };
                if replace {
                    d.gemm.error = Some(o.text.clone());
                }
            }
            inv.errors.push(o);
        }
        match failure {
            Failure::CublasMissing {
                required: false, ..
            } => inv.note("cuBLAS", f.message.clone()),
            Failure::NotLive { .. } => inv.note("smoke", f.message.clone()),
            _ => {}
        }
        findings.push(f);
    }

    SmokeReport {
        driver: got.driver,
        cublas: got.cublas,
        devices: got.devices.into_values().collect(),
        findings,
        inventory: inv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{exit_code, Category, Severity};
    use crate::system::Host;

    #[test]
    fn a_fixture_root_is_not_the_live_machine() {
        let dir = tempfile::tempdir().unwrap();
        let opts = SmokeOptions {
            timeout: Duration::from_secs(5),
            gemm: GemmChoice::Auto,
            allow_root_libraries: false,
        };
        let r = run_smoke_with(&Host::new(dir.path()), &opts);
        assert!(r.skipped_not_live());
        assert!(!r.passed());
        assert!(r.devices.is_empty());
        assert_eq!(r.findings.len(), 1);
        assert_eq!(r.findings[0].severity, Severity::Warning);
        assert_eq!(exit_code(&r.findings), 0);
        assert!(r.inventory.errors.is_empty());
        assert_eq!(r.inventory.notes.len(), 1);
    }

    #[test]
    fn an_opted_in_root_without_libcuda_reports_no_driver() {
        let dir = tempfile::tempdir().unwrap();
        let opts = SmokeOptions {
            timeout: Duration::from_secs(5),
            gemm: GemmChoice::Auto,
            allow_root_libraries: true,
        };
        let r = run_smoke_with(&Host::new(dir.path()), &opts);
        assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
        let f = &r.findings[0];
        assert_eq!(
            (f.code.as_str(), f.category),
            ("SMK001", Category::NoDriver)
        );
        assert_eq!(f.message, "no CUDA driver: libcuda.so.1 cannot be loaded");
        assert!(f.evidence[0].value.starts_with("not found under"));
        assert_eq!(exit_code(&r.findings), 1);
        assert_eq!(
            r.inventory.errors[0].kind,
            crate::inventory::ErrorKind::LibcudaMissing
        );
    }

    #[test]
    fn a_library_that_is_not_libcuda_is_reported_not_called() {
        // Any shared library without the driver API: glibc's libc.so.6 is on every such machine.
        if cfg!(not(all(target_os = "linux", target_env = "gnu"))) {
            return;
        }
        let host = Host::new("/").with_env([("GPUCOMPAT_LIBCUDA".into(), "libc.so.6".into())]);
        let r = run_smoke_with(
            &host,
            &SmokeOptions {
                timeout: Duration::from_secs(10),
                gemm: GemmChoice::Auto,
                allow_root_libraries: false,
            },
        );
        let f = &r.findings[0];
        assert_eq!(f.code, "SMK004", "{f:?}");
        assert!(
            f.message.contains("libc.so.6 has no cuInit"),
            "{}",
            f.message
        );
    }
}
