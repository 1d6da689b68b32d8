//! Where the system runs: inside a container, under WSL2.

use std::path::Path;

use super::loader::WSL_LIB_DIR;
use super::{text, Ctx, Log};
use crate::inventory::{ContainerInfo, Fact, WslInfo};

pub(crate) fn probe(ctx: &Ctx, log: &mut Log) -> (ContainerInfo, WslInfo) {
    (container(ctx, log), wsl(ctx, log))
}

fn container(ctx: &Ctx, log: &mut Log) -> ContainerInfo {
    let mut c = ContainerInfo::default();
    let sys = ctx.sys;
    if sys.exists(Path::new("/.dockerenv")) {
        c.runtime = Some(Fact::new("docker".to_string(), "/.dockerenv"));
    } else if sys.exists(Path::new("/run/.containerenv")) {
        c.runtime = Some(Fact::new("podman".to_string(), "/run/.containerenv"));
    } else if let Some(v) = sys.env("container").filter(|v| !v.trim().is_empty()) {
        // systemd's convention, set by podman, lxc and systemd-nspawn.
        c.runtime = Some(Fact::new(v.trim().to_string(), "env container"));
    }
    let cgroup = text::read(ctx, "/proc/1/cgroup", log);
    let from_cgroup = cgroup.as_deref().and_then(runtime_from_cgroup);
    if c.runtime.is_none() {
        if let Some(rt) = from_cgroup.filter(|rt| *rt != "kubernetes") {
            c.runtime = Some(Fact::new(rt.to_string(), "/proc/1/cgroup"));
        }
    }
    if sys.env("KUBERNETES_SERVICE_HOST").is_some() {
        c.kubernetes = Some(Fact::new(true, "env KUBERNETES_SERVICE_HOST"));
    } else if cgroup.as_deref().is_some_and(|s| s.contains("kubepods")) {
        c.kubernetes = Some(Fact::new(true, "/proc/1/cgroup"));
    }
    if c.runtime.is_none() && c.kubernetes.is_some() {
        c.runtime = c.kubernetes.clone().map(|f| f.map(|_| "kubernetes".into()));
    }
    c
}

/// The container runtime a cgroup listing names (cgroup v1 paths; v2 shows `0::/`).
pub fn runtime_from_cgroup(content: &str) -> Option<&'static str> {
    let mut kube = false;
    for line in content.lines() {
        let path = line.splitn(3, ':').nth(2).unwrap_or("");
        if path.contains("kubepods") {
            kube = true;
        }
        if path.contains("libpod") {
            return Some("podman");
        }
        if path.contains("/docker/") || path.contains("docker-") {
            return Some("docker");
        }
        if path.contains("cri-containerd") || path.contains("/containerd") {
            return Some("containerd");
        }
        if path.starts_with("/lxc/") || path.contains("/lxc.payload") {
            return Some("lxc");
        }
    }
    kube.then_some("kubernetes")
}

fn wsl(ctx: &Ctx, log: &mut Log) -> WslInfo {
    let mut w = WslInfo::default();
    if let Some(v) = text::read(ctx, "/proc/version", log) {
        let is = is_wsl_kernel(&v);
        w.is_wsl = Some(Fact::new(is, "/proc/version"));
    } else if let Some(k) = text::read_trimmed(ctx, "/proc/sys/kernel/osrelease", log) {
        w.is_wsl = Some(Fact::new(is_wsl_kernel(&k), "/proc/sys/kernel/osrelease"));
    }
    let lib_dir = ctx.sys.is_dir(Path::new(WSL_LIB_DIR));
    let wsl_known = w.is_wsl.as_ref().is_some_and(|f| f.value);
    if lib_dir || wsl_known {
        w.lib_dir = Some(Fact::new(lib_dir, WSL_LIB_DIR));
        let has_cuda = ["libcuda.so", "libcuda.so.1", "libcuda.so.1.1"]
            .iter()
            .any(|n| ctx.sys.exists(&Path::new(WSL_LIB_DIR).join(n)));
        w.libcuda_in_lib_dir = Some(Fact::new(has_cuda, format!("{WSL_LIB_DIR}/libcuda.so*")));
    }
    w
}

/// WSL kernels say "microsoft" in their release ("5.15.153.1-microsoft-standard-WSL2").
pub fn is_wsl_kernel(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.contains("microsoft") || l.contains("wsl2")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroup_runtimes() {
        assert_eq!(
            runtime_from_cgroup("12:pids:/docker/3f9c0a2b1e\n11:memory:/docker/3f9c0a2b1e\n"),
            Some("docker")
        );
        assert_eq!(
            runtime_from_cgroup("0::/system.slice/docker-3f9c0a2b1e.scope\n"),
            Some("docker")
        );
        assert_eq!(
            runtime_from_cgroup("11:cpu:/kubepods/besteffort/pod1234/cri-containerd-abc\n"),
            Some("containerd")
        );
        assert_eq!(
            runtime_from_cgroup("3:cpu:/kubepods.slice/kubepods-pod12.slice\n"),
            Some("kubernetes")
        );
        assert_eq!(runtime_from_cgroup("0::/\n"), None);
        assert_eq!(runtime_from_cgroup("0::/init.scope\n"), None);
    }

    #[test]
    fn wsl_kernels() {
        assert!(is_wsl_kernel(
            "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 11.2.0)"
        ));
        assert!(is_wsl_kernel("4.4.0-19041-Microsoft"));
        assert!(!is_wsl_kernel(
            "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-115) (x86_64-linux-gnu-gcc-13)"
        ));
    }
}
