//! The user-mode driver asked directly: NVML (driver version, CUDA driver
//! version, every GPU), libcuda's `cuDriverGetVersion`, and `nvidia-smi
//! --query-gpu` only when NVML gave no answer. Each call runs under a
//! timeout on its own thread; a call that hangs is abandoned and noted.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::ffi::{self, LibraryError, NvmlDeviceReport, NvmlReport};
use super::loader::{LibraryIndex, WSL_LIB_DIR};
use super::smi::{self, SmiAnswer};
use super::{find_program, Ctx, Log};
use crate::inventory::{ErrorKind, Fact, Gpu, Inventory, MigInfo};
use crate::system::CommandOutcome;
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

const NVML_SONAME: &str = "libnvidia-ml.so.1";
const CUDA_SONAME: &str = "libcuda.so.1";
/// NVML_ERROR_LIB_RM_VERSION_MISMATCH.
const NVML_LIB_RM_VERSION_MISMATCH: i32 = 18;
/// CUDA_ERROR_STUB_LIBRARY.
const CUDA_ERROR_STUB_LIBRARY: i32 = 34;
const SMI: &str = "nvidia-smi";
const SMI_SOURCE: &str = "nvidia-smi --query-gpu";
const CUDA_SOURCE: &str = "libcuda cuDriverGetVersion";

/// What the driver's own libraries (or nvidia-smi) said.
#[derive(Debug, Default)]
pub(crate) struct DriverApi {
    driver_version: Option<Fact<DriverVersion>>,
    cuda_max: Option<Fact<CudaVersion>>,
    smi_ok: Option<Fact<bool>>,
    gpus: Vec<Gpu>,
    nvlink_active: Option<Fact<bool>>,
}

impl DriverApi {
    pub fn merge_into(self, inv: &mut Inventory) {
        inv.nvidia.driver_version = self.driver_version;
        inv.nvidia.cuda_max = self.cuda_max;
        inv.nvidia.smi_ok = self.smi_ok;
        inv.gpus = self.gpus;
        inv.fabric.nvlink_active = self.nvlink_active;
    }
}

enum Waited<T> {
    Done(T),
    TimedOut,
    Crashed,
}

/// Run `f` on its own thread; the receiver yields its answer.
fn spawn_call<T: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<mpsc::Receiver<T>> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(format!("gpucompat-{name}"))
        .spawn(move || {
            let _ = tx.send(f());
        })
        .ok()?;
    Some(rx)
}

fn wait<T>(rx: Option<mpsc::Receiver<T>>, deadline: Instant) -> Waited<T> {
    let Some(rx) = rx else {
        return Waited::Crashed;
    };
    let left = deadline.saturating_duration_since(Instant::now());
    match rx.recv_timeout(left) {
        Ok(v) => Waited::Done(v),
        Err(mpsc::RecvTimeoutError::Timeout) => Waited::TimedOut,
        Err(mpsc::RecvTimeoutError::Disconnected) => Waited::Crashed,
    }
}

/// Where to load a library from: by soname through the system loader on the
/// live machine (then the WSL directory), or the copies inside a --root when
/// the caller allowed it.
fn candidates(ctx: &Ctx, index: &LibraryIndex, soname: &str, log: &mut Log) -> Vec<OsString> {
    let wsl = Path::new(WSL_LIB_DIR).join(soname);
    let stem = soname.trim_end_matches(".1");
    let driver_signs = ["/dev/nvidiactl", "/dev/dxg", "/proc/driver/nvidia"];
    if ctx.live
        && index.find(stem).next().is_none()
        && !driver_signs.iter().any(|p| ctx.sys.exists(Path::new(p)))
    {
        // Nothing of the driver on this machine: no loader search, no thread.
        return Vec::new();
    }
    if ctx.live {
        let mut v = vec![OsString::from(soname)];
        if ctx.sys.exists(&wsl) {
            v.push(wsl.into_os_string());
        }
        return v;
    }
    let found: Vec<PathBuf> = index
        .find(soname)
        .filter(|e| e.name == soname)
        .map(|e| e.path.clone())
        .collect();
    if found.is_empty() {
        return Vec::new();
    }
    if !ctx.opts.allow_root_code {
        log.not_run.push(soname.to_string());
        return Vec::new();
    }
    found
        .iter()
        .map(|p| ctx.sys.host_path(p).into_os_string())
        .collect()
}

/// Try each candidate until one loads; the answer of the first that loads.
fn first_loading<T>(
    paths: &[OsString],
    f: impl Fn(&OsString) -> Result<T, LibraryError>,
) -> Option<Result<T, LibraryError>> {
    let mut last = None;
    for p in paths {
        let r = f(p);
        let load_failed = matches!(r, Err(LibraryError::Load(_)));
        last = Some(r);
        if !load_failed {
            break;
        }
    }
    last
}

/// A loader's "not installed" answer is not worth a note when nothing of
/// the library is on disk either (a machine without NVIDIA software).
fn is_absent(e: &LibraryError, index: &LibraryIndex, prefix: &str) -> bool {
    matches!(e, LibraryError::Load(m) if m.contains("No such file") || m.contains("cannot open shared object"))
        && index.find(prefix).next().is_none()
}

pub(crate) fn probe(ctx: &Ctx, index: &LibraryIndex, log: &mut Log) -> DriverApi {
    let mut out = DriverApi::default();
    let timeout = ctx.opts.timeouts.library;

    let nvml_paths = candidates(ctx, index, NVML_SONAME, log);
    let cuda_paths = candidates(ctx, index, CUDA_SONAME, log);
    let start = Instant::now();
    let nvml_rx = (!nvml_paths.is_empty()).then(|| {
        let paths = nvml_paths.clone();
        spawn_call("nvml", move || {
            first_loading(&paths, |p| ffi::query_nvml(p.as_os_str()))
        })
    });
    let cuda_rx = (!cuda_paths.is_empty()).then(|| {
        let paths = cuda_paths.clone();
        spawn_call("libcuda", move || {
            first_loading(&paths, |p| ffi::cuda_driver_version(p.as_os_str()))
        })
    });

    let mut nvml_answered = false;
    if let Some(rx) = nvml_rx {
        match wait(rx, start + timeout) {
            Waited::Done(Some(Ok(report))) => {
                nvml_answered = true;
                from_nvml(report, &mut out, log);
            }
            Waited::Done(Some(Err(e))) => nvml_failed(&e, index, &mut out, log),
            Waited::Done(None) => {}
            Waited::TimedOut => {
                let msg = format!("NVML did not answer within {}", secs(timeout));
                out.smi_ok = Some(Fact::new(false, "NVML").with_note(msg.clone()));
                log.error(ErrorKind::Timeout, msg.clone(), "NVML", None);
                log.note("NVML", format!("{msg}; the call was abandoned"));
            }
            Waited::Crashed => log.note("NVML", "the NVML query failed internally"),
        }
    }
    if let Some(rx) = cuda_rx {
        match wait(rx, start + timeout) {
            Waited::Done(Some(Ok(v))) => match CudaVersion::from_int(v as u32) {
                Ok(c) if v > 0 => out.cuda_max = Some(Fact::new(c, CUDA_SOURCE)),
                _ => log.note(CUDA_SOURCE, format!("returned an unusable version {v}")),
            },
            Waited::Done(Some(Err(e))) => libcuda_failed(&e, index, log),
            Waited::Done(None) => {}
            Waited::TimedOut => {
                let msg = format!("cuDriverGetVersion did not answer within {}", secs(timeout));
                log.error(ErrorKind::Timeout, msg.clone(), CUDA_SOURCE, None);
                log.note("libcuda", format!("{msg}; the call was abandoned"));
            }
            Waited::Crashed => log.note("libcuda", "the libcuda query failed internally"),
        }
    }
    if !nvml_answered {
        nvidia_smi(ctx, &mut out, log);
    }
    out
}

fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

fn from_nvml(report: NvmlReport, out: &mut DriverApi, log: &mut Log) {
    out.smi_ok = Some(Fact::new(true, "NVML"));
    if let Some(v) = &report.driver_version {
        match v.parse::<DriverVersion>() {
            Ok(d) => out.driver_version = Some(Fact::new(d, "NVML")),
            Err(e) => log.note("NVML", e.to_string()),
        }
    }
    if let Some(c) = report.cuda_driver_version {
        match CudaVersion::from_int(c as u32) {
            // libcuda's own answer (read in parallel) replaces this one when it comes.
            Ok(c) if out.cuda_max.is_none() => out.cuda_max = Some(Fact::new(c, "NVML")),
            Ok(_) => {}
            Err(e) => log.note("NVML", e.to_string()),
        }
    }
    for f in &report.failures {
        log.note("NVML", f.clone());
    }
    let mut any_nvlink = None;
    for d in report.devices {
        if let Some(n) = d.nvlink_active_links {
            *any_nvlink.get_or_insert(false) |= n > 0;
        }
        for f in &d.failures {
            log.note(format!("NVML GPU {}", d.index), f.clone());
        }
        out.gpus.push(gpu_from_nvml(d));
    }
    out.nvlink_active = any_nvlink.map(|v| Fact::new(v, "NVML nvmlDeviceGetNvLinkState"));
}

fn gpu_from_nvml(d: NvmlDeviceReport) -> Gpu {
    let f = |v| Fact::new(v, "NVML");
    Gpu {
        index: d.index,
        name: d.name.map(f),
        uuid: d.uuid.map(f),
        compute_capability: d.compute_capability.and_then(|(ma, mi)| {
            (ma > 0 && (0..10).contains(&mi))
                .then(|| Fact::new(ComputeCapability::new(ma as u32, mi as u32), "NVML"))
        }),
        memory_mib: d
            .memory_total_bytes
            .map(|b| Fact::new(b / (1024 * 1024), "NVML")),
        brand: d.brand.and_then(brand_name).map(|b| f(b.to_string())),
        pci_bus_id: d.pci_bus_id.map(f),
        mig: d.mig_mode.map(|(cur, _)| {
            Fact::new(
                MigInfo {
                    enabled: cur == 1,
                    instances: None,
                },
                "NVML",
            )
        }),
        persistence: d.persistence.map(|p| Fact::new(p, "NVML")),
        ..Default::default()
    }
}

/// nvmlBrandType_t names (nvml.h), lowercased.
pub fn brand_name(b: u32) -> Option<&'static str> {
    Some(match b {
        1 => "quadro",
        2 => "tesla",
        3 => "nvs",
        4 => "grid",
        5 => "geforce",
        6 => "titan",
        7 => "nvidia_vapps",
        8 => "nvidia_vpc",
        9 => "nvidia_vcs",
        10 => "nvidia_vws",
        11 => "nvidia_cloud_gaming",
        12 => "quadro_rtx",
        13 => "nvidia_rtx",
        14 => "nvidia",
        15 => "geforce_rtx",
        16 => "titan_rtx",
        _ => return None,
    })
}

fn nvml_failed(e: &LibraryError, index: &LibraryIndex, out: &mut DriverApi, log: &mut Log) {
    if is_absent(e, index, "libnvidia-ml.so") {
        return;
    }
    if let LibraryError::Call { code, message, .. } = e {
        out.smi_ok = Some(Fact::new(false, "NVML").with_note(e.to_string()));
        if *code == NVML_LIB_RM_VERSION_MISMATCH {
            log.error(
                ErrorKind::NvmlDriverLibraryMismatch,
                format!("Failed to initialize NVML: {message}"),
                "NVML nvmlInit_v2",
                Some(i64::from(*code)),
            );
        }
    }
    log.note("NVML", format!("{NVML_SONAME} {e}"));
}

fn libcuda_failed(e: &LibraryError, index: &LibraryIndex, log: &mut Log) {
    if is_absent(e, index, "libcuda.so") {
        return;
    }
    if let LibraryError::Call { code, message, .. } = e {
        if *code == CUDA_ERROR_STUB_LIBRARY {
            log.error(
                ErrorKind::StubLibrary,
                format!("cuDriverGetVersion: {message}"),
                CUDA_SOURCE,
                Some(i64::from(*code)),
            );
        }
    }
    log.note("libcuda", format!("{CUDA_SONAME} {e}"));
}

/// The last fallback: `nvidia-smi --query-gpu` as CSV, under the command timeout.
fn nvidia_smi(ctx: &Ctx, out: &mut DriverApi, log: &mut Log) {
    let program = find_program(ctx, SMI).or_else(|| {
        let wsl = Path::new(WSL_LIB_DIR).join(SMI);
        ctx.sys.exists(&wsl).then_some(wsl)
    });
    let Some(program) = program else {
        return;
    };
    if !ctx.may_run_code() {
        log.not_run.push(SMI.to_string());
        return;
    }
    let program = program.display().to_string();
    let timeout = ctx.opts.timeouts.command;
    let mut fields: Vec<&str> = smi::QUERY_FIELDS.to_vec();
    let mut outcome = run(ctx, &program, &fields, timeout);
    if let CommandOutcome::Finished { stdout, stderr, .. } = &outcome {
        if smi::field_rejected(stdout) || smi::field_rejected(stderr) {
            fields.retain(|f| *f != "compute_cap");
            outcome = run(ctx, &program, &fields, timeout);
        }
    }
    match outcome {
        CommandOutcome::Finished {
            code,
            stdout,
            stderr,
        } => {
            let ans = smi::parse_csv(&stdout, &fields);
            from_smi(&ans, code == Some(0), out, log);
            if ans.rows.is_empty() {
                for line in stderr.lines().filter(|l| !l.trim().is_empty()).take(3) {
                    match smi::classify_error(line) {
                        Some(kind) => log.error(kind, line.trim(), SMI, None),
                        None => log.note(SMI, line.trim()),
                    }
                }
                if code != Some(0) && stdout.trim().is_empty() && stderr.trim().is_empty() {
                    log.note(SMI, outcome_text(code));
                }
            }
        }
        CommandOutcome::TimedOut { after } => {
            let msg = format!(
                "timed out after {} and was killed",
                secs(after.min(timeout))
            );
            out.smi_ok = Some(Fact::new(false, SMI).with_note(msg.clone()));
            log.error(ErrorKind::Timeout, format!("nvidia-smi {msg}"), SMI, None);
            log.note(SMI, msg);
        }
        CommandOutcome::NotFound => {}
        CommandOutcome::Failed(e) => log.note(SMI, format!("could not be run: {e}")),
    }
}

fn outcome_text(code: Option<i32>) -> String {
    match code {
        Some(c) => format!("exited with status {c} and printed nothing"),
        None => "killed by a signal".into(),
    }
}

fn run(ctx: &Ctx, program: &str, fields: &[&str], timeout: Duration) -> CommandOutcome {
    let query = smi::query_arg(fields);
    ctx.sys
        .run(program, &[&query, "--format=csv,noheader,nounits"], timeout)
}

fn from_smi(ans: &SmiAnswer, exited_ok: bool, out: &mut DriverApi, log: &mut Log) {
    for line in &ans.other_lines {
        if let Some(kind) = smi::classify_error(line) {
            log.error(kind, line.clone(), SMI, None);
        }
    }
    if !ans.rows.is_empty() || !ans.other_lines.is_empty() {
        let ok = exited_ok && !ans.rows.is_empty();
        let mut f = Fact::new(ok, SMI);
        if !ok {
            if let Some(first) = ans.other_lines.first() {
                f = f.with_note(first.clone());
            }
        }
        out.smi_ok = Some(f);
    }
    // Lines that became observed errors are not repeated as notes.
    let unexplained = || {
        ans.other_lines
            .iter()
            .filter(|l| smi::classify_error(l).is_none())
            .take(3)
    };
    if ans.rows.is_empty() {
        for line in unexplained() {
            log.note(SMI, line.clone());
        }
        return;
    }
    if out.driver_version.is_none() {
        out.driver_version = ans
            .rows
            .iter()
            .find_map(|r| r.driver_version.as_deref()?.parse::<DriverVersion>().ok())
            .map(|d| Fact::new(d, SMI_SOURCE));
    }
    for r in &ans.rows {
        let f = |v: &Option<String>| v.clone().map(|v| Fact::new(v, SMI_SOURCE));
        out.gpus.push(Gpu {
            index: r.index,
            name: f(&r.name),
            uuid: f(&r.uuid),
            compute_capability: r
                .compute_cap
                .as_deref()
                .and_then(|c| c.parse::<ComputeCapability>().ok())
                .map(|c| Fact::new(c, SMI_SOURCE)),
            memory_mib: r.memory_mib.map(|m| Fact::new(m, SMI_SOURCE)),
            pci_bus_id: f(&r.pci_bus_id),
            ..Default::default()
        });
    }
    for line in unexplained() {
        log.note(SMI, line.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brands() {
        assert_eq!(brand_name(5), Some("geforce"));
        assert_eq!(brand_name(2), Some("tesla"));
        assert_eq!(brand_name(13), Some("nvidia_rtx"));
        assert_eq!(brand_name(0), None);
        assert_eq!(brand_name(99), None);
    }

    #[test]
    fn first_loading_tries_the_next_path_only_when_loading_fails() {
        let paths = vec![
            OsString::from("a"),
            OsString::from("b"),
            OsString::from("c"),
        ];
        let r = first_loading(&paths, |p| {
            if p == "a" {
                Err::<(), _>(LibraryError::Load("a: cannot open".into()))
            } else {
                Err(LibraryError::Call {
                    call: "x",
                    code: 18,
                    message: p.to_string_lossy().into_owned(),
                })
            }
        });
        assert!(matches!(r, Some(Err(LibraryError::Call { message, .. })) if message == "b"));
        assert!(first_loading(&[], |_| Ok::<(), LibraryError>(())).is_none());
    }
}
