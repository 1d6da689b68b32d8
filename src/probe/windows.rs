//! Windows: the NVIDIA driver and GPUs (`nvidia-smi.exe` CSV, else WMI/CIM
//! `Win32_VideoController`), CUDA toolkits (CUDA_PATH*, Program Files), the
//! VC++ runtime, long-path support, WSL seen from Windows, and the Python
//! environments with their torch wheels. Paths are the seam's: `C:\` is `/`.

pub mod parse;
mod python_envs;

use std::path::{Path, PathBuf};

use super::{smi, Ctx, Log};
use crate::inventory::{
    Fact, FileCheck, Gpu, GpuVendor, Inventory, OsKind, PathVar, Toolkit, VideoController,
    WslDistro,
};
use crate::system::CommandOutcome;
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

const SYSTEM32: &str = "/Windows/System32";
const NVIDIA_SMI: &[&str] = &[
    "/Windows/System32/nvidia-smi.exe",
    "/Program Files/NVIDIA Corporation/NVSMI/nvidia-smi.exe",
];
const POWERSHELL: &str = "/Windows/System32/WindowsPowerShell/v1.0/powershell.exe";
const REG: &str = "/Windows/System32/reg.exe";
const WSL: &str = "/Windows/System32/wsl.exe";
const TOOLKITS: &str = "/Program Files/NVIDIA GPU Computing Toolkit/CUDA";
/// The Visual C++ 2015-2022 runtime DLLs torch's DLLs link against.
pub const VC_RUNTIME: &[&str] = &["vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll"];
const CIM_QUERY: &str = "Get-CimInstance Win32_VideoController | Select-Object Name,DriverVersion,PNPDeviceID,AdapterCompatibility | ConvertTo-Json";
const LONG_PATHS_KEY: &str = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem";
const VERSION_KEY: &str = r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion";

/// Is the probed system Windows? Live: the OS this binary was built for;
/// under a root: the tree has a `Windows\System32`.
pub(crate) fn detect(ctx: &Ctx) -> bool {
    if ctx.live {
        cfg!(windows)
    } else {
        ctx.sys.is_dir(Path::new(SYSTEM32))
    }
}

pub(crate) fn probe(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    inv.os.kind = Some(Fact::new(OsKind::Windows, SYSTEM32));
    os(ctx, inv, log);
    let smi_ok = nvidia_smi(ctx, inv, log);
    controllers(ctx, inv, log, smi_ok);
    let nvcuda = Path::new(SYSTEM32).join("nvcuda.dll");
    inv.windows.nvcuda_dll = Some(Fact::new(
        ctx.sys.exists(&nvcuda),
        nvcuda.display().to_string(),
    ));
    inv.windows.vc_runtime = VC_RUNTIME
        .iter()
        .map(|dll| {
            let p = Path::new(SYSTEM32).join(dll);
            FileCheck {
                name: dll.to_string(),
                present: ctx.sys.exists(&p),
                path: p.display().to_string(),
            }
        })
        .collect();
    long_paths(ctx, inv, log);
    inv.env = super::env::probe(ctx);
    cuda_paths(ctx, inv);
    toolkits(ctx, inv);
    wsl(ctx, inv, log);
    inv.python = python_envs::probe(ctx, log);
}

fn os(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    if let Some(a) = ctx.sys.env("PROCESSOR_ARCHITECTURE") {
        let arch = match a.to_ascii_uppercase().as_str() {
            "AMD64" => "x86_64".to_string(),
            "ARM64" => "arm64".to_string(),
            "X86" => "x86".to_string(),
            other => other.to_ascii_lowercase(),
        };
        inv.os.arch = Some(Fact::new(arch, "env PROCESSOR_ARCHITECTURE"));
    }
    if let Some(h) = ctx.sys.env("COMPUTERNAME") {
        inv.os.hostname = Some(Fact::new(h, "env COMPUTERNAME"));
    }
    inv.os.id = Some(Fact::new("windows".to_string(), SYSTEM32));
    let Some(out) = run(ctx, REG, &["query", VERSION_KEY], log) else {
        return;
    };
    let src = format!("reg query \"{VERSION_KEY}\"");
    let m = parse::reg_values(&out);
    let get = |k: &str| m.get(k).map(|(_, v)| v.clone()).filter(|v| !v.is_empty());
    if let Some(build) = get("CurrentBuild").or_else(|| get("CurrentBuildNumber")) {
        let ubr = get("UBR").and_then(|u| parse::reg_dword(&u));
        let full = match ubr {
            Some(u) => format!("10.0.{build}.{u}"),
            None => format!("10.0.{build}"),
        };
        inv.os.version_id = Some(Fact::new(full, src.clone()));
        inv.os.kernel = Some(Fact::new(format!("NT 10.0 build {build}"), src.clone()));
        let name = get("ProductName").unwrap_or_else(|| "Windows".into());
        let pretty = match get("DisplayVersion") {
            Some(d) => format!("{name} {d} (build {build})"),
            None => format!("{name} (build {build})"),
        };
        // Windows 11 keeps "Windows 10" in ProductName; the build number tells them apart.
        let mut f = Fact::new(pretty, src);
        if build.parse::<u32>().is_ok_and(|b| b >= 22000) && name.contains("Windows 10") {
            f = f.with_note("build 22000 or later is Windows 11; the registry's ProductName still says Windows 10");
        }
        inv.os.pretty_name = Some(f);
    }
}

/// The GPUs and the driver from nvidia-smi.exe's CSV query; true when it answered.
fn nvidia_smi(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) -> bool {
    let Some(exe) = NVIDIA_SMI
        .iter()
        .copied()
        .find(|p| ctx.sys.exists(Path::new(p)))
    else {
        return false;
    };
    let mut fields: Vec<&str> = smi::QUERY_FIELDS.to_vec();
    let mut out = None;
    for _ in 0..2 {
        let q = smi::query_arg(&fields);
        let Some(text) = run(ctx, exe, &[&q, "--format=csv,noheader,nounits"], log) else {
            break;
        };
        if smi::field_rejected(&text) {
            fields.retain(|f| *f != "compute_cap");
            continue;
        }
        out = Some(text);
        break;
    }
    let Some(out) = out else {
        return false;
    };
    let src = format!("nvidia-smi.exe {}", smi::query_arg(&fields));
    let ans = smi::parse_csv(&out, &fields);
    for line in &ans.other_lines {
        if let Some(kind) = smi::classify_error(line) {
            log.error(kind, line.clone(), src.clone(), None);
        }
    }
    inv.nvidia.smi_ok = Some(Fact::new(!ans.rows.is_empty(), src.clone()));
    for r in &ans.rows {
        let at = |v: String| Fact::new(v, src.clone());
        if inv.nvidia.driver_version.is_none() {
            inv.nvidia.driver_version = r
                .driver_version
                .as_deref()
                .and_then(|d| d.parse::<DriverVersion>().ok())
                .map(|d| Fact::new(d, src.clone()));
        }
        inv.gpus.push(Gpu {
            index: r.index,
            name: r.name.clone().map(at),
            uuid: r.uuid.clone().map(at),
            compute_capability: r
                .compute_cap
                .as_deref()
                .and_then(|c| c.parse::<ComputeCapability>().ok())
                .map(|c| Fact::new(c, src.clone())),
            memory_mib: r.memory_mib.map(|m| Fact::new(m, src.clone())),
            pci_bus_id: r.pci_bus_id.clone().map(at),
            ..Default::default()
        });
    }
    !ans.rows.is_empty()
}

/// Every video controller from CIM; the NVIDIA ones give the driver and the
/// GPUs when nvidia-smi.exe did not.
fn controllers(ctx: &Ctx, inv: &mut Inventory, log: &mut Log, smi_ok: bool) {
    let args = ["-NoProfile", "-NonInteractive", "-Command", CIM_QUERY];
    let Some(out) = run(ctx, POWERSHELL, &args, log) else {
        return;
    };
    let src = "Get-CimInstance Win32_VideoController".to_string();
    let list = match parse::cim_controllers(&out) {
        Ok(l) => l,
        Err(e) => {
            log.note(&src, e);
            return;
        }
    };
    for c in list {
        let vendor = parse::controller_vendor(&c);
        if vendor == GpuVendor::Nvidia && !smi_ok {
            if inv.nvidia.driver_version.is_none() {
                if let Some(raw) = &c.driver_version {
                    match DriverVersion::from_windows_internal(raw) {
                        Ok(d) => {
                            inv.nvidia.driver_version = Some(
                                Fact::new(d, format!("{src} DriverVersion"))
                                    .with_note(format!("from the internal version {raw}")),
                            )
                        }
                        Err(e) => log.note(&src, e.to_string()),
                    }
                }
            }
            let index = inv.gpus.len() as u32;
            inv.gpus.push(Gpu {
                index,
                name: Some(Fact::new(c.name.clone(), format!("{src} Name"))),
                ..Default::default()
            });
        }
        inv.windows.video_controllers.push(VideoController {
            name: c.name,
            driver_version: c.driver_version,
            pnp_device_id: c.pnp_device_id,
            vendor,
            source: src.clone(),
        });
    }
}

fn long_paths(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    let args = ["query", LONG_PATHS_KEY, "/v", "LongPathsEnabled"];
    let Some(out) = run(ctx, REG, &args, log) else {
        return;
    };
    let m = parse::reg_values(&out);
    if let Some(v) = m
        .get("LongPathsEnabled")
        .and_then(|(_, v)| parse::reg_dword(v))
    {
        inv.windows.long_paths_enabled = Some(Fact::new(
            v == 1,
            format!("reg query {LONG_PATHS_KEY} /v LongPathsEnabled"),
        ));
    }
}

/// CUDA_PATH and the CUDA_PATH_V12_4-style variables each installer sets.
fn cuda_paths(ctx: &Ctx, inv: &mut Inventory) {
    for (var, value) in ctx.sys.env_vars() {
        if var != "CUDA_PATH" && !var.starts_with("CUDA_PATH_V") {
            continue;
        }
        if var != "CUDA_PATH" {
            inv.env
                .insert(var.clone(), Fact::new(value.clone(), format!("env {var}")));
        }
        // A relative or UNC value cannot be checked here: its existence stays unknown.
        let Some(dir) = parse::win_to_path(&value) else {
            continue;
        };
        let exists = ctx.sys.is_dir(&dir);
        inv.windows
            .cuda_path_vars
            .push(PathVar { var, value, exists });
    }
}

/// Toolkits under Program Files and wherever CUDA_PATH* points.
fn toolkits(ctx: &Ctx, inv: &mut Inventory) {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Ok(entries) = ctx.sys.read_dir(Path::new(TOOLKITS)) {
        dirs.extend(
            entries
                .into_iter()
                .take(64)
                .filter(|e| e.is_dir && e.name.starts_with('v'))
                .map(|e| e.path),
        );
    }
    for pv in inv.windows.cuda_path_vars.iter().filter(|p| p.exists) {
        if let Some(p) = parse::win_to_path(&pv.value) {
            if !dirs.contains(&p) {
                dirs.push(p);
            }
        }
    }
    for dir in dirs {
        let vj = dir.join("version.json");
        let version = ctx
            .sys
            .read_range(&vj, 0, 64 * 1024)
            .ok()
            .and_then(|b| parse::toolkit_version_json(&String::from_utf8_lossy(&b)))
            .and_then(|v| v.parse::<CudaVersion>().ok())
            .map(|v| Fact::new(v, vj.display().to_string()))
            .or_else(|| {
                let name = dir.file_name()?.to_str()?.strip_prefix('v')?;
                let v = name.parse::<CudaVersion>().ok()?;
                Some(Fact::new(v, dir.display().to_string()).with_note("from the directory name"))
            });
        let Some(version) = version else {
            continue;
        };
        inv.toolkits.push(Toolkit {
            has_nvcc: ctx.sys.exists(&dir.join("bin/nvcc.exe")),
            has_compat: false,
            path: dir.display().to_string(),
            version,
        });
    }
}

fn wsl(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    let present = ctx.sys.exists(Path::new(WSL));
    inv.windows.wsl_exe = Some(Fact::new(present, WSL));
    if !present {
        return;
    }
    let Some(out) = run(ctx, WSL, &["--list", "--verbose"], log) else {
        return;
    };
    let src = "wsl.exe --list --verbose".to_string();
    inv.windows.wsl_distros = parse::wsl_list(&out)
        .into_iter()
        .map(|d| WslDistro {
            name: d.name,
            state: d.state,
            version: d.version,
            default: d.default,
            source: src.clone(),
        })
        .collect();
}

/// Run a Windows program, or say it was not run (under a root without permission).
pub(super) fn run(ctx: &Ctx, program: &str, args: &[&str], log: &mut Log) -> Option<String> {
    if !ctx.sys.exists(Path::new(program)) {
        return None;
    }
    if !ctx.may_run_code() {
        log.not_run.push(program.to_string());
        return None;
    }
    let outcome = ctx.sys.run(program, args, ctx.opts.timeouts.command);
    match &outcome {
        CommandOutcome::Finished { stdout, .. } if outcome.success_stdout().is_some() => {
            Some(stdout.clone())
        }
        // nvidia-smi prints its errors on stdout and exits non-zero.
        CommandOutcome::Finished { stdout, .. } if program.ends_with("nvidia-smi.exe") => {
            log.note(program, outcome.describe());
            Some(stdout.clone())
        }
        _ => {
            log.note(program, outcome.describe());
            None
        }
    }
}
