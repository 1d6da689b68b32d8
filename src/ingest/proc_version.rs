//! The kernel side of the driver as users paste it: `/proc/driver/nvidia/version`
//! (proprietary and open modules), `/sys/module/nvidia/version`, the dmesg
//! `NVRM: loading` line, `lsmod`, `dpkg -l` / `rpm -qa` driver packages,
//! `libnvidia-ml.so.<version>` file names, `nvidia-container-cli info`, and
//! the fabric manager's `systemctl status` / `--version`, and nouveau's kernel log lines
//! naming the device it drives.

use super::clean::has;
use super::gate::Gate;
use super::{gpu_mut, put, Builder, Doc};
use crate::inventory::{Fact, GpuVendor, LibraryInstall, ModuleFlavor, PciDevice, UserLibrary};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

regex_fn!(
    nvrm_re,
    r"NVRM(?: version)?:\s+(?:loading\s+)?NVIDIA UNIX\s+(Open\s+)?.*?Kernel Module(?:\s+for\s+\S+)?\s+([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)"
);

regex_fn!(
    lib_re,
    r"((?:/[A-Za-z0-9_.+-]+)*/)?(libnvidia-ml|libcuda)\.so\.([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)(?-u:\b)"
);

regex_fn!(
    dpkg_re,
    r"^[a-z][a-z]\s+(libnvidia-compute|nvidia-driver|nvidia-fabricmanager|libnvidia-gl|nvidia-utils|nvidia-kernel-common|nvidia-dkms)-([0-9]{3,4})(?:-server|-open)?(?::\S+)?\s+([0-9]{3,4}\.[0-9]+(?:\.[0-9]+)?)"
);

regex_fn!(
    // `ii  libcudnn8  8.9.7.29-1+cuda12.2  amd64 ...` (dpkg -l),
    // `libcudnn8/unknown,now 8.8.0.121-1+cuda12.0 amd64 [installed]` (apt list),
    // `libnccl2-2.18.3-1+cuda12.2.x86_64` (rpm -qa).
    lib_pkg_re,
    r"^(?:[a-z][a-z]\s+)?((?:lib)?(?:cudnn|nccl|nvinfer)[0-9]*)(?:-dev|-samples|-headers)?(-cuda-([0-9]+))?(?:-dev)?(?::[a-z0-9]+)?(?:/\S+\s+|\s+|-)(?:[0-9]+:)?([0-9]+\.[0-9]+\.[0-9]+(?:\.[0-9]+)?)(?:-[0-9a-z]+)?(?:[+.]cuda([0-9]+\.[0-9]+))?(?:[.\s]|$)"
);

regex_fn!(
    // A Debian package file name anywhere in a line: `libcudnn8_8.9.1.23-1+cuda12.1_arm64(.deb)`
    // (name_version_architecture), as apt prints it while unpacking.
    lib_deb_re,
    r"\b((?:lib)(?:cudnn|nccl|nvinfer)[0-9]*)(-dev)?_(?:[0-9]+:)?([0-9]+\.[0-9]+\.[0-9]+(?:\.[0-9]+)?)-[0-9a-z]+\+cuda([0-9]+\.[0-9]+)_(?:amd64|arm64|ppc64el|all)\b"
);

regex_fn!(
    // `ii  cuda-toolkit-12-4  12.4.1-1  amd64 ...` (dpkg -l),
    // `cuda-toolkit-13-0/unknown,now 13.0.0-1 amd64 [installed]` (apt list),
    // `cuda-toolkit-12-4-12.4.1-1.x86_64` (rpm -qa): NVIDIA's toolkit package.
    toolkit_pkg_re,
    r"^(?:[a-z][a-z]\s+)?cuda-toolkit-([0-9]{1,2})-([0-9]{1,2})(?::[a-z0-9]+)?(?:/\S+\s+|\s+|-)([0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,3})(?:-[0-9a-z]+)?(?:[.\s]|$)"
);

regex_fn!(
    cli_info_re,
    r"^(NVRM version|CUDA version|Device Index|Model|Architecture):\s+(\S.*)$"
);

regex_fn!(
    nouveau_log_re,
    r"^(?:\[\s*[0-9.]+\]\s*)?(?:[A-Za-z]{3}\s+[0-9]{1,2}\s+[0-9:]{8}\s+\S+\s+)?(?:kernel:\s*)?nouveau ((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-9]): "
);

/// A kernel log line of nouveau about a device (`[ 5.12] nouveau
/// 0000:3b:00.0: DRM: VRAM: 8192 MiB`, journalctl's `kernel: nouveau ...`):
/// nouveau is bound to that NVIDIA device. Recorded once per address.
fn nouveau_bound(b: &mut Builder, t: &str, src: &str) -> bool {
    let Some(c) = has(t, "nouveau")
        .then(|| nouveau_log_re().captures(t))
        .flatten()
    else {
        return false;
    };
    let addr = super::os::full_pci_address(&c[1]);
    if !b.inv.pci.iter().any(|d| d.address == addr) {
        b.inv.pci.push(PciDevice {
            address: addr,
            vendor: GpuVendor::Nvidia,
            driver: Some("nouveau".into()),
            source: format!("{src} (kernel log)"),
            ..PciDevice::default()
        });
    }
    true
}

/// Compile the pattern of `dpkg -l` driver rows ahead of its first use.
pub(super) fn prewarm() {
    dpkg_re();
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut cmd: Option<String> = None;
    let mut lsmod_seen = false;
    // A paste cut inside the module list (`[...]`) has not shown every module.
    let mut lsmod_cut = false;
    let mut lsmod_nvidia = false;
    let mut lsmod_src = String::new();
    let mut cli_device: Option<u32> = None;
    let mut fm_pending = false;

    for line in &doc.lines {
        if lsmod_seen && matches!(line.text.trim(), "[...]" | "..." | "…" | "[…]") {
            lsmod_cut = true;
            continue;
        }
        if cmd.is_none() && line.command().is_none() && !line.gate(Gate::Proc) {
            continue;
        }
        let t = line.text.trim();
        let src: &str = &line.src;
        if let Some(c) = line.command() {
            // Only this command's output is read without a marker of its own.
            cmd = c
                .contains("/sys/module/nvidia/version")
                .then(|| c.to_string());
            continue;
        }
        if t.is_empty() {
            continue;
        }

        if nouveau_bound(b, t, src) {
            continue;
        }
        if has(t, "Kernel Module") {
            if let Some(c) = nvrm_re().captures(t) {
                kernel_module(b, &c[2], c.get(1).is_some(), src);
                continue;
            }
        }

        // `cat /sys/module/nvidia/version` prints the bare version.
        if cmd
            .as_deref()
            .is_some_and(|c| c.contains("/sys/module/nvidia/version"))
        {
            if let Ok(v) = t.parse::<DriverVersion>() {
                kernel_module(b, &v.to_string(), false, src);
                b.inv.nvidia.module_flavor = None;
                cmd = None;
                continue;
            }
        }

        if t.starts_with("Module") && has(t, "Size") && has(t, "Used by") {
            lsmod_seen = true;
            lsmod_src = src.to_string();
            continue;
        }
        if let Some(name) = lsmod_row(t) {
            if name == "nvidia" {
                lsmod_nvidia = true;
                put(
                    &mut b.inv.nvidia.module_loaded,
                    Fact::new(true, src),
                    &mut b.notes,
                    "nvidia module loaded",
                );
            } else if name == "nouveau" {
                b.note("lsmod", format!("the nouveau module is loaded ({src})"));
            }
            continue;
        }

        if let Some(c) = t
            .contains("nvidia")
            .then(|| dpkg_re().captures(t))
            .flatten()
        {
            dpkg_row(b, &c[1], &c[3], src);
            continue;
        }

        if t.contains("cuda-toolkit-") {
            if let Some(c) = toolkit_pkg_re().captures(t) {
                toolkit_package(b, &c, src);
                continue;
            }
        }

        if t.contains("cudnn") || t.contains("libnccl") || t.contains("libnvinfer") {
            if let Some(c) = lib_pkg_re().captures(t) {
                lib_package(b, &c, src);
                continue;
            }
            for c in lib_deb_re().captures_iter(t) {
                lib_deb(b, &c, src);
            }
        }

        if has(t, " => ") && has(t, "(libc6") {
            ldconfig_row(b, t, src);
            continue;
        }

        if has(t, ".so.") {
            for c in lib_re().captures_iter(t) {
                let Ok(v) = c[3].parse::<DriverVersion>() else {
                    continue;
                };
                let dir = c.get(1).map_or("", |m| m.as_str());
                let name = c[2].to_string();
                let path = format!("{dir}{name}.so.{}", &c[3]);
                if b.inv.nvidia.user_libraries.iter().any(|l| l.path == path) {
                    continue;
                }
                b.inv.nvidia.user_libraries.push(UserLibrary {
                    name,
                    path,
                    version: Fact::new(v, src),
                });
            }
        }

        if let Some(c) = t
            .contains(":  ")
            .then(|| cli_info_re().captures(t))
            .flatten()
        {
            cli_info(b, &c[1], c[2].trim(), &mut cli_device, src);
            continue;
        }

        fabric_manager(b, t, src, &mut fm_pending);
    }

    if lsmod_seen && !lsmod_nvidia && !lsmod_cut {
        put(
            &mut b.inv.nvidia.module_loaded,
            Fact::new(false, lsmod_src).with_note("lsmod lists no nvidia module"),
            &mut b.notes,
            "nvidia module loaded",
        );
    }
}

/// A cuDNN, NCCL or TensorRT package row: the version, and the CUDA it was
/// built for (`+cuda12.0` in the version, `-cuda-12` in the name).
fn lib_package(b: &mut Builder, c: &regex::Captures, src: &str) {
    let name = &c[1];
    // `cudnn9-cuda-12`; a bare `cudnn 8.9` is prose, not a package.
    if !name.starts_with("lib") && c.get(3).is_none() {
        return;
    }
    // `-cuda-12` names only the major: the path keeps it (`LibraryInstall::cuda_major`).
    let suffix = c.get(2).map_or("", |m| m.as_str());
    let cuda = c.get(5).map(|m| m.as_str());
    push_package(b, name, suffix, &c[4], cuda, src);
}

/// A package file name (`libcudnn8_8.9.1.23-1+cuda12.1_arm64`): the same
/// facts as the package row.
fn lib_deb(b: &mut Builder, c: &regex::Captures, src: &str) {
    let suffix = c.get(2).map_or("", |m| m.as_str());
    push_package(b, &c[1], suffix, &c[3], Some(&c[4]), src);
}

/// Record a library package once per name: its version and, where the
/// version names it, the CUDA it was built for.
fn push_package(
    b: &mut Builder,
    name: &str,
    suffix: &str,
    version: &str,
    cuda: Option<&str>,
    src: &str,
) {
    let install = LibraryInstall {
        path: format!("package {name}{suffix}"),
        version: Fact::new(version.to_string(), src),
        built_for_cuda: cuda
            .and_then(|v| v.parse::<CudaVersion>().ok())
            .map(|v| Fact::new(v, src).with_note("the package's CUDA build")),
    };
    let list = if name.contains("cudnn") {
        &mut b.inv.libraries.cudnn
    } else if name.starts_with("libnccl") {
        &mut b.inv.libraries.nccl
    } else {
        &mut b.inv.libraries.tensorrt
    };
    if !list.iter().any(|l| l.path == install.path) {
        list.push(install);
    }
}

/// `ldconfig -p`: `libcudnn_ops.so.9 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcudnn_ops.so.9`.
fn ldconfig_row(b: &mut Builder, t: &str, src: &str) {
    let Some((_, path)) = t.split_once(" => ") else {
        return;
    };
    let path = path.trim();
    let file = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, ver)) = file.split_once(".so.") else {
        return;
    };
    if ver.is_empty() || !ver.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
        return;
    }
    let install = LibraryInstall {
        path: path.to_string(),
        version: Fact::new(ver.to_string(), src),
        built_for_cuda: None,
    };
    let list = if stem.starts_with("libcudnn") {
        &mut b.inv.libraries.cudnn
    } else if stem == "libnccl" {
        &mut b.inv.libraries.nccl
    } else if stem.starts_with("libnvinfer") {
        &mut b.inv.libraries.tensorrt
    } else {
        return;
    };
    if !list.iter().any(|l| l.path == install.path) {
        list.push(install);
    }
}

fn kernel_module(b: &mut Builder, v: &str, open: bool, src: &str) {
    let Ok(d) = v.parse::<DriverVersion>() else {
        return;
    };
    put(
        &mut b.inv.nvidia.kernel_module,
        Fact::new(d, src),
        &mut b.notes,
        "kernel module version",
    );
    let flavor = if open {
        ModuleFlavor::Open
    } else {
        ModuleFlavor::Proprietary
    };
    if b.inv.nvidia.module_flavor.is_none() {
        b.inv.nvidia.module_flavor = Some(Fact::new(flavor, src));
    }
    put(
        &mut b.inv.nvidia.module_loaded,
        Fact::new(true, src),
        &mut b.notes,
        "nvidia module loaded",
    );
}

/// `nvidia_uvm  1536000  0` → `nvidia_uvm`.
fn lsmod_row(t: &str) -> Option<&str> {
    let mut it = t.split_whitespace();
    let name = it.next()?;
    let size = it.next()?;
    let used = it.next()?;
    let plausible = matches!(
        name,
        "nvidia" | "nvidia_uvm" | "nvidia_drm" | "nvidia_modeset" | "nouveau" | "amdgpu"
    );
    (plausible
        && size.len() >= 4
        && size.bytes().all(|c| c.is_ascii_digit())
        && used.bytes().all(|c| c.is_ascii_digit()))
    .then_some(name)
}

/// NVIDIA's `cuda-toolkit-X-Y` package: a toolkit with nvcc, which NVIDIA's
/// Linux packages install to /usr/local/cuda-X.Y.
fn toolkit_package(b: &mut Builder, c: &regex::Captures, src: &str) {
    let Ok(v) = c[3].parse::<CudaVersion>() else {
        return;
    };
    if v.to_string().split('.').take(2).collect::<Vec<_>>() != [&c[1], &c[2]] {
        return;
    }
    let path = format!("/usr/local/cuda-{}.{}", &c[1], &c[2]);
    let note = format!(
        "installed package cuda-toolkit-{}-{} (NVIDIA's packages install to /usr/local/cuda-X.Y)",
        &c[1], &c[2]
    );
    b.toolkit_with_nvcc(&path, Fact::new(v, src).with_note(note));
}

fn dpkg_row(b: &mut Builder, pkg: &str, ver: &str, src: &str) {
    let Ok(v) = ver.parse::<DriverVersion>() else {
        return;
    };
    match pkg {
        "libnvidia-compute" => {
            let path = format!("dpkg {pkg}");
            if !b.inv.nvidia.user_libraries.iter().any(|l| l.path == path) {
                b.inv.nvidia.user_libraries.push(UserLibrary {
                    name: "libnvidia-ml".to_string(),
                    path,
                    version: Fact::new(v, src).with_note(
                        "installed package; the loaded library may differ until a reboot",
                    ),
                });
            }
        }
        "nvidia-fabricmanager" => {
            put(
                &mut b.inv.fabric.fabric_manager_installed,
                Fact::new(true, src),
                &mut b.notes,
                "fabric manager installed",
            );
            put(
                &mut b.inv.fabric.fabric_manager_version,
                Fact::new(v, src),
                &mut b.notes,
                "fabric manager version",
            );
        }
        _ => {}
    }
}

fn cli_info(b: &mut Builder, key: &str, val: &str, device: &mut Option<u32>, src: &str) {
    let notes = &mut b.notes;
    match key {
        "NVRM version" => {
            if let Ok(d) = val.parse::<DriverVersion>() {
                put(
                    &mut b.inv.nvidia.driver_version,
                    Fact::new(d, src),
                    notes,
                    "driver version",
                );
            }
        }
        "CUDA version" => {
            if let Ok(c) = val.parse::<CudaVersion>() {
                put(
                    &mut b.inv.nvidia.cuda_max,
                    Fact::new(c, src),
                    notes,
                    "driver's CUDA version",
                );
            }
        }
        "Device Index" => *device = val.parse().ok(),
        "Model" => {
            if let Some(i) = *device {
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, i);
                put(
                    &mut g.name,
                    Fact::new(val.to_string(), src),
                    notes,
                    "GPU name",
                );
            }
        }
        "Architecture" => {
            if let (Some(i), Ok(cc)) = (*device, val.parse::<ComputeCapability>()) {
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, i);
                put(
                    &mut g.compute_capability,
                    Fact::new(cc, src),
                    notes,
                    "compute capability",
                );
            }
        }
        _ => {}
    }
}

fn fabric_manager(b: &mut Builder, t: &str, src: &str, pending: &mut bool) {
    if !has(t, "abric") && !t.trim_start().starts_with("Active:") {
        return;
    }
    let lower = t.to_ascii_lowercase();
    if lower.contains("unit nvidia-fabricmanager.service could not be found") {
        put(
            &mut b.inv.fabric.fabric_manager_installed,
            Fact::new(false, src),
            &mut b.notes,
            "fabric manager installed",
        );
        return;
    }
    if let Some(v) = t
        .strip_prefix("Fabric Manager version is :")
        .or_else(|| t.strip_prefix("Fabric Manager version is:"))
    {
        if let Ok(d) = v.trim().parse::<DriverVersion>() {
            put(
                &mut b.inv.fabric.fabric_manager_version,
                Fact::new(d, src),
                &mut b.notes,
                "fabric manager version",
            );
            put(
                &mut b.inv.fabric.fabric_manager_installed,
                Fact::new(true, src),
                &mut b.notes,
                "fabric manager installed",
            );
        }
        return;
    }
    if lower.starts_with("active:") && *pending {
        *pending = false;
        let running = lower.contains("active (running)");
        put(
            &mut b.inv.fabric.fabric_manager_running,
            Fact::new(running, src),
            &mut b.notes,
            "fabric manager running",
        );
        put(
            &mut b.inv.fabric.fabric_manager_installed,
            Fact::new(true, src),
            &mut b.notes,
            "fabric manager installed",
        );
        return;
    }
    if lower.contains("nvidia-fabricmanager.service") && lower.contains("fabric manager") {
        *pending = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::clean;

    fn run(text: &str) -> crate::inventory::Inventory {
        let doc = clean("input", text);
        let mut b = Builder::new("t");
        parse(&doc, &mut b);
        b.finish()
    }

    #[test]
    fn cudnn_nccl_and_tensorrt_packages_name_their_cuda_build() {
        let inv = run(
            "ii  libcudnn8  8.9.7.29-1+cuda12.2  amd64  cuDNN runtime libraries\n\
            libcudnn8-dev/unknown,now 8.8.0.121-1+cuda12.0 amd64 [installed]\n\
            ii  libcudnn9-cuda-12   9.1.0.70-1   amd64  cuDNN\n\
            libnccl2-2.18.3-1+cuda12.2.x86_64\n\
            ii  libnvinfer8  8.6.1.6-1+cuda12.0  amd64  TensorRT runtime\n",
        );
        let c = &inv.libraries.cudnn;
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].version.value, "8.9.7.29");
        assert_eq!(
            c[0].built_for_cuda.as_ref().unwrap().value.to_string(),
            "12.2"
        );
        assert_eq!(c[1].path, "package libcudnn9-cuda-12");
        assert!(c[1].built_for_cuda.is_none(), "only the major is named");
        assert_eq!(c[1].cuda_major(), Some(12));
        assert_eq!(inv.libraries.nccl[0].version.value, "2.18.3");
        assert_eq!(inv.libraries.tensorrt[0].cuda_major(), Some(12));
        // A message or a sentence is not a package row.
        let inv = run("cudnn 8.9 is installed\nCould not load library libcudnn_ops_infer.so.8\n");
        assert!(inv.libraries.cudnn.is_empty());
    }

    #[test]
    fn package_file_names_in_a_sentence_name_their_cuda_build() {
        let inv = run("The packages installed are libcudnn8_8.9.1.23-1+cuda12.1_arm64 and libcudnn8-dev_8.9.1.23-1+cuda12.1_arm64.\n\
            Unpacking libnccl2 (2.18.3-1+cuda12.2) ...\n");
        let c = &inv.libraries.cudnn;
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].path, "package libcudnn8");
        assert_eq!(c[1].path, "package libcudnn8-dev");
        assert_eq!(c[0].version.value, "8.9.1.23");
        assert_eq!(
            c[0].built_for_cuda.as_ref().unwrap().value.to_string(),
            "12.1"
        );
        // A file name without the +cudaX.Y build is not read as one.
        let inv = run("downloaded libcudnn8_8.9.1.23-1_arm64.deb\n");
        assert!(inv.libraries.cudnn.is_empty());
    }

    #[test]
    fn proprietary_module() {
        let inv = run("$ cat /proc/driver/nvidia/version\nNVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)");
        let k = inv.nvidia.kernel_module.as_ref().unwrap();
        assert_eq!(k.value.to_string(), "550.54.14");
        assert_eq!(k.source, "input line 2");
        assert_eq!(
            inv.nvidia.module_flavor.as_ref().unwrap().value,
            ModuleFlavor::Proprietary
        );
        assert!(inv.nvidia.module_loaded.as_ref().unwrap().value);
    }

    #[test]
    fn open_module_aarch64() {
        let inv = run("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.124.06  Release Build  (dvs-builder@U16-I3-B03-4-3)  Wed Feb 26 01:33:55 UTC 2025");
        assert_eq!(
            inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
            "570.124.06"
        );
        assert_eq!(
            inv.nvidia.module_flavor.as_ref().unwrap().value,
            ModuleFlavor::Open
        );
    }

    #[test]
    fn dmesg_loading_line() {
        let inv = run("[    5.123456] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023");
        assert_eq!(
            inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
            "535.104.05"
        );
    }

    #[test]
    fn sys_module_version_needs_the_command() {
        let inv = run("$ cat /sys/module/nvidia/version\n550.144.03\n");
        assert_eq!(
            inv.nvidia.kernel_module.as_ref().unwrap().value.to_string(),
            "550.144.03"
        );
        let inv = run("550.144.03\n");
        assert!(inv.nvidia.kernel_module.is_none());
    }

    #[test]
    fn lsmod_with_and_without_nvidia() {
        let inv = run("Module                  Size  Used by\nnouveau              2306048  1\nvideo                  65536  1 nouveau\n");
        assert!(!inv.nvidia.module_loaded.as_ref().unwrap().value);
        assert!(inv.notes.iter().any(|n| n.message.contains("nouveau")));
        let inv =
            run("nvidia_uvm           1536000  0\nnvidia              56713216  2 nvidia_uvm\n");
        assert!(inv.nvidia.module_loaded.as_ref().unwrap().value);
    }

    #[test]
    fn library_file_names_and_dpkg() {
        let inv = run("lrwxrwxrwx 1 root root 26 Jan 1 00:00 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 -> libnvidia-ml.so.550.144.03\nii  libnvidia-compute-550:amd64  550.144.03-0ubuntu0.22.04.1  amd64  NVIDIA libcompute package");
        assert_eq!(inv.nvidia.user_libraries.len(), 2);
        assert_eq!(
            inv.nvidia.user_libraries[0].version.value.to_string(),
            "550.144.03"
        );
    }

    #[test]
    fn cuda_toolkit_packages() {
        for (line, v) in [
            (
                "cuda-toolkit-13-0/unknown,now 13.0.0-1 amd64 [installed,automatic]",
                "13.0.0",
            ),
            (
                "ii  cuda-toolkit-12-4  12.4.1-1  amd64  CUDA Toolkit 12.4 meta-package",
                "12.4.1",
            ),
            ("cuda-toolkit-12-4-12.4.1-1.x86_64", "12.4.1"),
        ] {
            let inv = run(line);
            assert_eq!(inv.toolkits.len(), 1, "{line}");
            assert_eq!(inv.toolkits[0].version.value.to_string(), v, "{line}");
        }
        // The config packages carry the toolkit's file version, not a toolkit.
        for line in [
            "cuda-toolkit-13-0-config-common/unknown,now 13.0.48-1 all [installed,automatic]",
            "cuda-toolkit-config-common/unknown,now 13.0.48-1 all [installed,automatic]",
        ] {
            assert!(run(line).toolkits.is_empty(), "{line}");
        }
    }

    #[test]
    fn ldconfig_libraries() {
        let inv = run("        libcudnn_ops.so.9 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcudnn_ops.so.9\n        libcudnn_ops.so (libc6,x86-64) => /lib/x86_64-linux-gnu/libcudnn_ops.so\n        libnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2\n");
        assert_eq!(inv.libraries.cudnn.len(), 1);
        assert_eq!(inv.libraries.cudnn[0].version.value, "9");
        assert_eq!(inv.libraries.nccl[0].version.value, "2");
    }

    #[test]
    fn container_cli_info() {
        let inv = run("NVRM version:   440.44\nCUDA version:   10.2\n\nDevice Index:   0\nDevice Minor:   0\nModel:          TITAN Xp\nBrand:          GeForce\nArchitecture:   6.1\n");
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "440.44"
        );
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "10.2"
        );
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(6, 1)
        );
    }

    #[test]
    fn fabric_manager_status() {
        let inv = run("● nvidia-fabricmanager.service - NVIDIA fabric manager service\n     Loaded: loaded (/lib/systemd/system/nvidia-fabricmanager.service; enabled)\n     Active: failed (Result: exit-code) since Mon 2024-01-01 00:00:00 UTC\n");
        assert!(!inv.fabric.fabric_manager_running.as_ref().unwrap().value);
        let inv = run("Unit nvidia-fabricmanager.service could not be found.");
        assert!(!inv.fabric.fabric_manager_installed.as_ref().unwrap().value);
        let inv = run("Active: active (running) since Mon");
        assert!(inv.fabric.fabric_manager_running.is_none());
    }
    #[test]
    fn nouveau_in_the_kernel_log_is_bound_to_its_device() {
        let inv = run("[    5.123456] nouveau 0000:3b:00.0: DRM: VRAM: 8192 MiB\n[    5.2] nouveau 0000:3b:00.0: fifo: SCHED_ERROR 08 []\nMay 20 02:46:53 host kernel: nouveau 0000:af:00.0: bus: MMIO read of 00000000 FAULT\n");
        assert_eq!(inv.pci.len(), 2);
        assert_eq!(inv.pci[0].address, "0000:3b:00.0");
        assert_eq!(inv.pci[0].driver.as_deref(), Some("nouveau"));
        assert_eq!(inv.pci[0].vendor, GpuVendor::Nvidia);
        assert_eq!(inv.pci[1].address, "0000:af:00.0");
        // The module's own lines name no device.
        let inv =
            run("[    4.9] nouveau: detected PR support, will not use DSM\nblacklist nouveau\n");
        assert!(inv.pci.is_empty());
    }
}
