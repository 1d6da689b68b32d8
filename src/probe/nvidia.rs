//! The NVIDIA driver as files show it: the kernel module, its flavor, the
//! device nodes, and the user-mode libraries on the loader path.

use std::path::Path;

use regex::Regex;

use super::loader::LibraryIndex;
use super::{ffi, text, Ctx, Log};
use crate::inventory::{DeviceNode, Fact, ModuleFlavor, NvidiaDriver, UserLibrary};
use crate::version::DriverVersion;

const SYS_VERSION: &str = "/sys/module/nvidia/version";
const PROC_VERSION: &str = "/proc/driver/nvidia/version";

pub(crate) fn probe(ctx: &Ctx, index: &LibraryIndex, log: &mut Log) -> NvidiaDriver {
    let mut d = NvidiaDriver::default();
    kernel_module(ctx, &mut d, log);
    d.device_nodes = device_nodes(ctx);
    d.user_libraries = user_libraries(index);
    d
}

fn kernel_module(ctx: &Ctx, d: &mut NvidiaDriver, log: &mut Log) {
    if let Some(v) = text::read_trimmed(ctx, SYS_VERSION, log) {
        match v.parse::<DriverVersion>() {
            Ok(v) => d.kernel_module = Some(Fact::new(v, SYS_VERSION)),
            Err(e) => log.note(SYS_VERSION, e.to_string()),
        }
    }
    if let Some(content) = text::read(ctx, PROC_VERSION, log) {
        match parse_proc_version(&content) {
            Some((v, flavor)) => {
                if d.kernel_module.is_none() {
                    d.kernel_module = Some(Fact::new(v, PROC_VERSION));
                }
                d.module_flavor = Some(Fact::new(flavor, PROC_VERSION));
            }
            None => log.note(PROC_VERSION, "no NVRM version line could be read"),
        }
    }
    if ctx.sys.is_dir(Path::new("/sys/module/nvidia")) {
        d.module_loaded = Some(Fact::new(true, "/sys/module/nvidia"));
    } else if d.kernel_module.is_some() {
        d.module_loaded = Some(Fact::new(true, PROC_VERSION));
    } else if let Some(mods) = text::read(ctx, "/proc/modules", log) {
        let loaded = mods
            .lines()
            .any(|l| l.split_whitespace().next() == Some("nvidia"));
        d.module_loaded = Some(Fact::new(loaded, "/proc/modules"));
    }
}

/// The version and flavor in `/proc/driver/nvidia/version`:
/// `NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.144.03  Release Build ...`
/// or `NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.173.02  Tue Jun 23 ...`.
pub fn parse_proc_version(content: &str) -> Option<(DriverVersion, ModuleFlavor)> {
    let re = Regex::new(r"Kernel Module(?: for \w+)?\s+(\d+\.\d+(?:\.\d+)?)").ok()?;
    let line = content.lines().find(|l| l.contains("NVRM version"))?;
    let v = re.captures(line)?.get(1)?.as_str().parse().ok()?;
    let flavor = if line.contains("Open Kernel Module") {
        ModuleFlavor::Open
    } else {
        ModuleFlavor::Proprietary
    };
    Some((v, flavor))
}

fn device_nodes(ctx: &Ctx) -> Vec<DeviceNode> {
    let Ok(entries) = ctx.sys.read_dir(Path::new("/dev")) else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter(|e| !e.is_dir && (e.name.starts_with("nvidia") || e.name == "dxg"))
        .map(|e| DeviceNode {
            readable: ffi::can_read_write(&ctx.sys.host_path(&e.path)),
            path: e.path.display().to_string(),
        })
        .collect()
}

/// libcuda and libnvidia-ml files whose names carry a driver version, in
/// loader order; each (library, version) once.
fn user_libraries(index: &LibraryIndex) -> Vec<UserLibrary> {
    let mut out: Vec<UserLibrary> = Vec::new();
    for stem in ["libnvidia-ml", "libcuda"] {
        for e in index.find(stem) {
            let Some(v) = text::so_version(&e.name, stem) else {
                continue;
            };
            let Ok(version) = v.parse::<DriverVersion>() else {
                continue;
            };
            if out
                .iter()
                .any(|l| l.name == stem && l.version.value == version)
            {
                continue;
            }
            let path = e.path.display().to_string();
            out.push(UserLibrary {
                name: stem.to_string(),
                version: Fact::new(version, path.clone()),
                path,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_version_open_module() {
        let s = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.144.03  Release Build  (dvs-builder@U16-I3-D08-1-2)  Mon Dec 30 17:26:13 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n";
        let (v, f) = parse_proc_version(s).unwrap();
        assert_eq!(v.to_string(), "550.144.03");
        assert_eq!(f, ModuleFlavor::Open);
    }

    #[test]
    fn proc_version_proprietary() {
        let s = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.173.02  Tue Jun 23 08:38:17 UTC 2026\nGCC version:  gcc version 14.2.0 (Ubuntu 14.2.0-4ubuntu2~24.04.1)\n";
        let (v, f) = parse_proc_version(s).unwrap();
        assert_eq!(v.to_string(), "580.173.02");
        assert_eq!(f, ModuleFlavor::Proprietary);
        let old = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  375.74  Wed Jun 14 01:39:39 PDT 2017\n";
        assert_eq!(parse_proc_version(old).unwrap().0.to_string(), "375.74");
        let arm = "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.86.15  Release Build  (dvs-builder@U16-I1-N07-12-3)  Thu Jan 23 2025\n";
        let (v, f) = parse_proc_version(arm).unwrap();
        assert_eq!(
            (v.to_string().as_str(), f),
            ("570.86.15", ModuleFlavor::Open)
        );
    }

    #[test]
    fn proc_version_garbage() {
        assert!(parse_proc_version("").is_none());
        assert!(parse_proc_version("NVRM version: something else\n").is_none());
        assert!(parse_proc_version("GCC version:  gcc version 12.3.0\n").is_none());
    }
}
