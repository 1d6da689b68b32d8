//! Multi-GPU fabric: NVSwitch devices, the fabric manager, InfiniBand.
//! (NVLink state comes from NVML, in `driver_api`.)

use std::path::Path;

use regex::Regex;

use super::{find_program, text, Ctx, Log};
use crate::inventory::{FabricInfo, Fact};
use crate::system::CommandOutcome;
use crate::version::DriverVersion;

const FM_BINARIES: &[&str] = &["/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager"];
const FM_CONFIG: &str = "/usr/share/nvidia/nvswitch/fabricmanager.cfg";
const DPKG_STATUS: &str = "/var/lib/dpkg/status";

pub(crate) fn probe(ctx: &Ctx, log: &mut Log) -> FabricInfo {
    let mut f = FabricInfo {
        nvswitch_count: nvswitches(ctx),
        ..Default::default()
    };
    fabric_manager(ctx, &mut f, log);
    if let Ok(entries) = ctx.sys.read_dir(Path::new("/sys/class/infiniband")) {
        f.infiniband_devices = entries
            .into_iter()
            .map(|e| Fact::new(e.name, e.path.display().to_string()))
            .collect();
    }
    f
}

fn nvswitches(ctx: &Ctx) -> Option<Fact<u32>> {
    let dev = ctx.sys.read_dir(Path::new("/dev")).unwrap_or_default();
    let n = dev
        .iter()
        .filter(|e| {
            e.name
                .strip_prefix("nvidia-nvswitch")
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        })
        .count() as u32;
    if n > 0 {
        return Some(Fact::new(n, "/dev/nvidia-nvswitch*"));
    }
    let proc_dir = "/proc/driver/nvidia-nvswitch/devices";
    let n = ctx
        .sys
        .read_dir(Path::new(proc_dir))
        .map(|v| v.len() as u32)
        .unwrap_or(0);
    (n > 0).then(|| Fact::new(n, proc_dir))
}

fn fabric_manager(ctx: &Ctx, f: &mut FabricInfo, log: &mut Log) {
    let found = FM_BINARIES
        .iter()
        .chain([FM_CONFIG].iter())
        .find(|p| ctx.sys.exists(Path::new(p)));
    let Some(found) = found else {
        if f.nvswitch_count.is_some() {
            f.fabric_manager_installed = Some(Fact::new(false, FM_BINARIES[0]));
        }
        return;
    };
    f.fabric_manager_installed = Some(Fact::new(true, *found));
    f.fabric_manager_version = dpkg_version(ctx, log).or_else(|| fm_version_command(ctx, log));
    f.fabric_manager_running = running(ctx);
}

fn dpkg_version(ctx: &Ctx, log: &mut Log) -> Option<Fact<DriverVersion>> {
    let status = text::read(ctx, DPKG_STATUS, log)?;
    let (pkg, v) = fabricmanager_from_dpkg(&status)?;
    Some(Fact::new(v, format!("{DPKG_STATUS} ({pkg})")))
}

/// The installed `nvidia-fabricmanager[-NNN]` package and its version from a
/// dpkg status file.
pub fn fabricmanager_from_dpkg(status: &str) -> Option<(String, DriverVersion)> {
    status.split("\n\n").find_map(|stanza| {
        let field = |k: &str| {
            stanza
                .lines()
                .find_map(|l| l.strip_prefix(k)?.strip_prefix(':').map(str::trim))
        };
        let pkg = field("Package")?;
        if !pkg.starts_with("nvidia-fabricmanager") || pkg.contains("-dev") {
            return None;
        }
        if !field("Status")?.ends_with(" installed") {
            return None;
        }
        let version = field("Version")?;
        // "550.54.15-1", "1:550.54.15-0ubuntu1": the upstream part.
        let upstream = version.rsplit(':').next()?.split('-').next()?;
        Some((pkg.to_string(), upstream.parse().ok()?))
    })
}

fn fm_version_command(ctx: &Ctx, log: &mut Log) -> Option<Fact<DriverVersion>> {
    let program = find_program(ctx, "nv-fabricmanager")?;
    if !ctx.may_run_code() {
        log.not_run.push("nv-fabricmanager".into());
        return None;
    }
    let program = program.display().to_string();
    let out = ctx
        .sys
        .run(&program, &["--version"], ctx.opts.timeouts.command);
    match &out {
        CommandOutcome::Finished { stdout, .. } => {
            let re = Regex::new(r"(?i)version is\s*:\s*(\d+\.\d+(?:\.\d+)?)").ok()?;
            let v = re.captures(stdout)?.get(1)?.as_str().parse().ok()?;
            Some(Fact::new(v, "nv-fabricmanager --version"))
        }
        CommandOutcome::NotFound => None,
        other => {
            log.note("nv-fabricmanager --version", other.describe());
            None
        }
    }
}

/// Is an `nv-fabricmanager` process running? Read from /proc/<pid>/comm.
fn running(ctx: &Ctx) -> Option<Fact<bool>> {
    let procs = ctx.sys.read_dir(Path::new("/proc")).ok()?;
    let mut any_pid = false;
    for p in procs
        .iter()
        .filter(|e| e.name.bytes().all(|b| b.is_ascii_digit()))
    {
        any_pid = true;
        let comm = p.path.join("comm");
        if let Ok(c) = ctx.sys.read(&comm) {
            if String::from_utf8_lossy(&c).trim() == "nv-fabricmanager" {
                return Some(Fact::new(true, comm.display().to_string()));
            }
        }
    }
    any_pid.then(|| Fact::new(false, "/proc/*/comm"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpkg_status_stanzas() {
        let s = "Package: libc6\nStatus: install ok installed\nVersion: 2.35-0ubuntu3.8\n\nPackage: nvidia-fabricmanager-550\nStatus: install ok installed\nPriority: optional\nVersion: 550.54.15-1\n\nPackage: nvidia-fabricmanager-dev-550\nStatus: install ok installed\nVersion: 550.54.15-1\n";
        let (pkg, v) = fabricmanager_from_dpkg(s).unwrap();
        assert_eq!(pkg, "nvidia-fabricmanager-550");
        assert_eq!(v.to_string(), "550.54.15");
    }

    #[test]
    fn dpkg_removed_package_does_not_count() {
        let s = "Package: nvidia-fabricmanager-535\nStatus: deinstall ok config-files\nVersion: 535.104.05-1\n";
        assert!(fabricmanager_from_dpkg(s).is_none());
        assert!(fabricmanager_from_dpkg("").is_none());
    }
}
