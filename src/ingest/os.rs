//! The operating system as users paste it: `uname -a` / `uname -r`,
//! `/proc/version`, `/etc/os-release`, `lsb_release -a`, `/etc/redhat-release`,
//! `sw_vers` and `system_profiler` on macOS, `ver` on Windows,
//! `mokutil --sb-state`, and `lspci -k` (which driver is bound to the GPU).

use super::clean::has;
use super::collect_env::distro_id;
use super::gate::Gate;
use super::{put, Builder, Doc};
use crate::inventory::{Fact, GpuVendor, OsKind, PciDevice};

regex_fn!(
    uname_re,
    r"^(Linux|Darwin)\s+(\S+)\s+([0-9]+\.[0-9]+\S*)\s+.*?(?-u:\b)(x86_64|aarch64|arm64|ppc64le|s390x|armv7l)(?-u:\b)"
);

regex_fn!(
    proc_version_re,
    r"^Linux version ([0-9]+\.[0-9]+\S*)(?:\s|$)"
);

regex_fn!(
    lspci_re,
    r"^((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+(VGA compatible controller|3D controller|Display controller)(?:\s+\[[0-9a-fA-F]{4}\])?:\s+(.+?)\s*$"
);

regex_fn!(pci_ids_re, r"\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\]");

const OS_RELEASE_KEYS: [&str; 8] = [
    "NAME",
    "VERSION",
    "ID",
    "ID_LIKE",
    "VERSION_ID",
    "PRETTY_NAME",
    "VERSION_CODENAME",
    "HOME_URL",
];

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut cmd: Option<String> = None;
    let mut os_release: Vec<(String, String, String)> = Vec::new();
    let mut lsb: Vec<(String, String, String)> = Vec::new();
    let mut pending_pci: Option<(PciDevice, bool)> = None;
    let mut lshw: Option<Lshw> = None;

    for line in &doc.lines {
        let raw = &*line.text;
        let t = raw.trim();
        let src: &str = &line.src;

        // `lshw -C display`: a `*-display` node and its `key: value` lines.
        if t.starts_with("*-") {
            flush_lshw(b, lshw.take());
            if t.starts_with("*-display") {
                lshw = Some(Lshw {
                    src: src.to_string(),
                    ..Lshw::default()
                });
            }
            continue;
        }
        if let Some(node) = lshw.as_mut() {
            match t.split_once(": ") {
                Some((k, v)) if LSHW_KEYS.contains(&k) => {
                    node.field(k, v.trim());
                    continue;
                }
                _ => flush_lshw(b, lshw.take()),
            }
        }

        // lspci -k: indented detail lines belong to the device above.
        if let Some((dev, seen)) = pending_pci.as_mut() {
            if raw.starts_with(' ') || raw.starts_with('\t') {
                if let Some(d) = t.strip_prefix("Kernel driver in use:") {
                    dev.driver = Some(d.trim().to_string());
                    *seen = true;
                } else if t.starts_with("Kernel modules:") {
                    // lspci prints the driver in use before the modules: a
                    // block cut after `Subsystem:` has not said there is none.
                    *seen = true;
                } else if dev.driver.is_none()
                    && ["Control:", "Capabilities:", "Region ", "Flags:"]
                        .iter()
                        .any(|p| t.starts_with(p))
                {
                    // `lspci -v` prints the driver after these lines: until its
                    // `Kernel modules:` line, a cut paste has not said there is none.
                    *seen = false;
                }
                continue;
            }
            flush_pci(b, pending_pci.take());
        }

        if os_release.is_empty()
            && lsb.is_empty()
            && cmd.is_none()
            && line.command().is_none()
            && !line.gate(Gate::Os)
        {
            continue;
        }
        if let Some(c) = line.command() {
            // Only `uname -r` prints a bare value that needs its command.
            cmd = (c == "uname -r").then(|| c.to_string());
            flush_os_release(b, &mut os_release);
            flush_lsb(b, &mut lsb);
            continue;
        }

        if let Some((k, v)) = t.split_once('=') {
            if OS_RELEASE_KEYS.contains(&k) {
                os_release.push((k.to_string(), unquote(v).to_string(), src.to_string()));
                continue;
            }
        }
        flush_os_release(b, &mut os_release);

        if let Some((k, v)) = t.split_once(':') {
            let k = k.trim();
            if matches!(k, "Distributor ID" | "Description" | "Release" | "Codename") {
                lsb.push((k.to_string(), v.trim().to_string(), src.to_string()));
                continue;
            }
        }
        flush_lsb(b, &mut lsb);

        if let Some(c) = (t.starts_with("Linux ") || t.starts_with("Darwin "))
            .then(|| uname_re().captures(t))
            .flatten()
        {
            uname(b, &c[1], &c[2], &c[3], &c[4], src);
            continue;
        }
        if let Some(c) = t
            .starts_with("Linux version ")
            .then(|| proc_version_re().captures(t))
            .flatten()
        {
            kernel(b, &c[1], src);
            put(
                &mut b.inv.os.kind,
                Fact::new(OsKind::Linux, src),
                &mut b.notes,
                "operating system",
            );
            continue;
        }
        if cmd.as_deref() == Some("uname -r") {
            if t.starts_with(|c: char| c.is_ascii_digit()) && !t.contains(' ') {
                kernel(b, t, src);
            }
            cmd = None;
            continue;
        }
        if let Some(c) = t
            .contains("controller")
            .then(|| lspci_re().captures(t))
            .flatten()
        {
            pending_pci = Some((pci_device(&c[1], &c[3], src), false));
            continue;
        }
        other(b, t, src);
    }
    flush_pci(b, pending_pci.take());
    flush_lshw(b, lshw.take());
    flush_os_release(b, &mut os_release);
    flush_lsb(b, &mut lsb);
}

const LSHW_KEYS: &[&str] = &[
    "description",
    "product",
    "vendor",
    "physical id",
    "bus info",
    "logical name",
    "version",
    "width",
    "clock",
    "capabilities",
    "configuration",
    "resources",
    "serial",
    "size",
];

/// One `*-display` node of `lshw -C display`.
#[derive(Default)]
struct Lshw {
    product: Option<String>,
    vendor: Option<String>,
    bus: Option<String>,
    driver: Option<String>,
    src: String,
}

impl Lshw {
    fn field(&mut self, k: &str, v: &str) {
        match k {
            "product" => self.product = Some(v.to_string()),
            "vendor" => self.vendor = Some(v.to_string()),
            // `pci@0000:03:00.0`
            "bus info" => self.bus = v.strip_prefix("pci@").map(str::to_string),
            // `driver=nouveau latency=0`
            "configuration" => {
                self.driver = v
                    .split_whitespace()
                    .find_map(|kv| kv.strip_prefix("driver="))
                    .map(str::to_string)
            }
            _ => {}
        }
    }
}

/// lshw names the bound driver in `configuration:`; a node without one is
/// bound to nothing (lshw prints `driver=` whenever a driver is bound).
fn flush_lshw(b: &mut Builder, node: Option<Lshw>) {
    let Some(n) = node else { return };
    let (Some(bus), Some(vendor)) = (n.bus, n.vendor) else {
        return;
    };
    let desc = match &n.product {
        Some(p) => format!("{vendor} {p}"),
        None => vendor,
    };
    let mut dev = pci_device(&bus, &desc, &n.src);
    dev.driver = n.driver;
    flush_pci(b, Some((dev, true)));
}

fn unquote(v: &str) -> &str {
    v.trim().trim_matches('"').trim_matches('\'')
}

fn kernel(b: &mut Builder, k: &str, src: &str) {
    let notes = &mut b.notes;
    put(
        &mut b.inv.os.kernel,
        Fact::new(k.to_string(), src),
        notes,
        "kernel",
    );
    let l = k.to_ascii_lowercase();
    if has(&l, "microsoft") || has(&l, "wsl") {
        put(&mut b.inv.wsl.is_wsl, Fact::new(true, src), notes, "WSL");
    }
}

fn uname(b: &mut Builder, sys: &str, host: &str, release: &str, arch: &str, src: &str) {
    let kind = if sys == "Darwin" {
        OsKind::Macos
    } else {
        OsKind::Linux
    };
    put(
        &mut b.inv.os.kind,
        Fact::new(kind, src),
        &mut b.notes,
        "operating system",
    );
    kernel(b, release, src);
    let notes = &mut b.notes;
    put(
        &mut b.inv.os.arch,
        Fact::new(arch.to_string(), src),
        notes,
        "CPU architecture",
    );
    put(
        &mut b.inv.os.hostname,
        Fact::new(host.to_string(), src),
        notes,
        "hostname",
    );
}

/// Accept an os-release block only when it has ID and a version or name,
/// so stray `NAME=` lines in a log are not taken for one.
fn flush_os_release(b: &mut Builder, block: &mut Vec<(String, String, String)>) {
    let rows = std::mem::take(block);
    let get = |k: &str| rows.iter().find(|(key, _, _)| key == k);
    let Some(id) = get("ID") else { return };
    if get("VERSION_ID").is_none() && get("PRETTY_NAME").is_none() {
        return;
    }
    let notes = &mut b.notes;
    let os = &mut b.inv.os;
    put(
        &mut os.kind,
        Fact::new(OsKind::Linux, &id.2),
        notes,
        "operating system",
    );
    put(&mut os.id, Fact::new(id.1.clone(), &id.2), notes, "OS id");
    if let Some(v) = get("VERSION_ID") {
        put(
            &mut os.version_id,
            Fact::new(v.1.clone(), &v.2),
            notes,
            "OS version",
        );
    }
    if let Some(p) = get("PRETTY_NAME") {
        put(
            &mut os.pretty_name,
            Fact::new(p.1.clone(), &p.2),
            notes,
            "OS name",
        );
    }
}

fn flush_lsb(b: &mut Builder, block: &mut Vec<(String, String, String)>) {
    let rows = std::mem::take(block);
    let get = |k: &str| rows.iter().find(|(key, _, _)| key == k);
    let (Some(dist), Some(rel)) = (get("Distributor ID"), get("Release")) else {
        return;
    };
    let notes = &mut b.notes;
    let os = &mut b.inv.os;
    put(
        &mut os.kind,
        Fact::new(OsKind::Linux, &dist.2),
        notes,
        "operating system",
    );
    let id = match dist.1.as_str() {
        "RedHatEnterprise" | "RedHatEnterpriseServer" => "rhel".to_string(),
        d => d.to_lowercase(),
    };
    put(&mut os.id, Fact::new(id, &dist.2), notes, "OS id");
    put(
        &mut os.version_id,
        Fact::new(rel.1.clone(), &rel.2),
        notes,
        "OS version",
    );
    if let Some(d) = get("Description") {
        put(
            &mut os.pretty_name,
            Fact::new(d.1.clone(), &d.2),
            notes,
            "OS name",
        );
    }
}

/// `01:00.0` as the kernel names it: `0000:01:00.0` (PCI domain 0).
pub(super) fn full_pci_address(addr: &str) -> String {
    if addr.len() == 7 {
        format!("0000:{addr}")
    } else {
        addr.to_string()
    }
}

fn pci_device(addr: &str, desc: &str, src: &str) -> PciDevice {
    let vendor = if desc.contains("NVIDIA") {
        GpuVendor::Nvidia
    } else if desc.contains("Advanced Micro Devices") || desc.contains("AMD/ATI") {
        GpuVendor::Amd
    } else if desc.starts_with("Intel") {
        GpuVendor::Intel
    } else {
        GpuVendor::Other
    };
    let (vendor_id, device_id) = match pci_ids_re().captures(desc) {
        Some(c) => (format!("0x{}", &c[1]), format!("0x{}", &c[2])),
        None => (String::new(), String::new()),
    };
    let addr = full_pci_address(addr);
    let name = desc
        .split_once(": ")
        .map_or(desc, |(_, n)| n)
        .split(" (rev")
        .next()
        .unwrap_or(desc);
    PciDevice {
        address: addr,
        vendor,
        vendor_id,
        device_id,
        class: String::new(),
        driver: None,
        name: Some(name.trim().to_string()).filter(|n| !n.is_empty()),
        source: src.to_string(),
        vram_mib: None,
    }
}

/// Only `lspci -k` says which driver is bound; without its detail lines the
/// device is left out rather than reported as bound to nothing.
fn flush_pci(b: &mut Builder, pending: Option<(PciDevice, bool)>) {
    if let Some((dev, _)) = pending.as_ref().filter(|(d, _)| d.is_wsl_gpu_pv()) {
        if b.inv.wsl.is_wsl.is_none() {
            b.inv.wsl.is_wsl = Some(
                Fact::new(true, &dev.source)
                    .with_note("lspci lists WSL2's paravirtualized GPU (Microsoft device 008e)"),
            );
        }
        if !b.inv.pci.iter().any(|d| d.address == dev.address) {
            b.inv.pci.push(dev.clone());
        }
        return;
    }
    match pending {
        Some((dev, true)) if !b.inv.pci.iter().any(|d| d.address == dev.address) => {
            b.inv.pci.push(dev)
        }
        Some((_, true)) => {}
        Some((dev, false)) => b.note(
            "lspci",
            format!(
                "{} at {} ({}): run `lspci -k` to see which driver is bound",
                dev.name.as_deref().unwrap_or("a display device"),
                dev.address,
                dev.source
            ),
        ),
        None => {}
    }
}

/// Which OS a file path in a traceback or warning belongs to.
fn path_os(t: &str) -> Option<OsKind> {
    let l = t.trim_start();
    let is_path_line =
        l.starts_with("File \"") || has(l, "site-packages") || has(l, "dist-packages");
    if !is_path_line {
        return None;
    }
    // A drive letter first: `C:/Users/me/...` is a Windows path written
    // with forward slashes, not a Mac home directory.
    let b = l.as_bytes();
    let win = b.windows(3).enumerate().any(|(i, w)| {
        w[0].is_ascii_alphabetic()
            && w[1] == b':'
            && (w[2] == b'\\' || w[2] == b'/')
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
    });
    if win {
        return Some(OsKind::Windows);
    }
    if has(l, "/Users/") || has(l, "/Applications/") || has(l, "/opt/homebrew/") {
        return Some(OsKind::Macos);
    }
    if has(l, "/home/")
        || has(l, "/usr/lib/python")
        || has(l, "/usr/local/lib/python")
        || has(l, "/opt/conda/")
        || has(l, "dist-packages")
    {
        return Some(OsKind::Linux);
    }
    None
}

/// A traceback line of torch's own files under a conda root
/// (`/home/u/anaconda3/envs/pt/lib/python3.6/site-packages/torch/cuda/__init__.py`).
fn conda_torch_path(t: &str) -> bool {
    let torch = has(t, "site-packages/torch/") || has(t, "site-packages\\torch\\");
    torch
        && [
            "anaconda3",
            "miniconda3",
            "miniforge3",
            "mambaforge",
            "/opt/conda/",
            "\\conda\\",
        ]
        .iter()
        .any(|r| has(t, r))
}

fn other(b: &mut Builder, t: &str, src: &str) {
    if b.conda_torch.is_none() && conda_torch_path(t) {
        b.conda_torch = Some(src.to_string());
    }
    if b.inv.os.kind.is_none() {
        if let Some(k) = path_os(t) {
            b.inv.os.kind = Some(Fact::new(k, src).with_note("from a file path in a traceback"));
            return;
        }
    }
    // rocminfo: `Name:                    gfx1031`
    if let Some(v) = t.strip_prefix("Name:") {
        let v = v.trim();
        if v.starts_with("gfx") && v.len() > 3 && v[3..].bytes().all(|c| c.is_ascii_alphanumeric())
        {
            if !b.inv.amd.gfx_targets.iter().any(|f| f.value == v) {
                b.inv.amd.gfx_targets.push(Fact::new(v.to_string(), src));
            }
            return;
        }
    }
    if t.starts_with("ROCk module") && t.ends_with("is loaded") {
        put(
            &mut b.inv.amd.amdgpu_loaded,
            Fact::new(true, src),
            &mut b.notes,
            "amdgpu loaded",
        );
        return;
    }
    if let Some(v) = t.strip_prefix("ProductVersion:") {
        b.macos(v, src);
        return;
    }
    let notes = &mut b.notes;
    let os = &mut b.inv.os;

    if let Some(chip) = t.strip_prefix("Chip:") {
        let chip = chip.trim();
        if chip.starts_with("Apple M") {
            put(
                &mut os.kind,
                Fact::new(OsKind::Macos, src),
                notes,
                "operating system",
            );
            put(
                &mut b.inv.apple.chip,
                Fact::new(chip.to_string(), src),
                notes,
                "Apple chip",
            );
        }
        return;
    }
    // `Microsoft Windows [Version ...]` is left alone: WSL issue templates
    // print the host's version for what is a Linux system.
    for prefix in [
        "CentOS Linux release ",
        "Rocky Linux release ",
        "Red Hat Enterprise Linux release ",
        "AlmaLinux release ",
    ] {
        if t.starts_with(prefix) {
            put(
                &mut os.kind,
                Fact::new(OsKind::Linux, src),
                notes,
                "operating system",
            );
            put(
                &mut os.pretty_name,
                Fact::new(t.to_string(), src),
                notes,
                "OS name",
            );
            let name = t.replace(" release", "");
            if let Some((id, ver)) = distro_id(&name) {
                put(&mut os.id, Fact::new(id.to_string(), src), notes, "OS id");
                if let Some(v) = ver {
                    put(&mut os.version_id, Fact::new(v, src), notes, "OS version");
                }
            }
            return;
        }
    }
    match t {
        "SecureBoot enabled" => put(
            &mut os.secure_boot,
            Fact::new(true, src),
            notes,
            "Secure Boot",
        ),
        "SecureBoot disabled" => put(
            &mut os.secure_boot,
            Fact::new(false, src),
            notes,
            "Secure Boot",
        ),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::clean;

    #[test]
    fn lshw_display_nodes() {
        let inv = run("  *-display\n       description: VGA compatible controller\n       product: G98 [GeForce 9300 GS]\n       vendor: NVIDIA Corporation\n       physical id: 0\n       bus info: pci@0000:03:00.0\n       configuration: driver=nouveau latency=0\n  *-display\n       product: Some Intel part\n       vendor: Intel Corporation\n       bus info: pci@0000:00:02.0\n       configuration: latency=0\n");
        assert_eq!(inv.pci.len(), 2);
        assert_eq!(inv.pci[0].address, "0000:03:00.0");
        assert_eq!(inv.pci[0].vendor, GpuVendor::Nvidia);
        assert_eq!(inv.pci[0].driver.as_deref(), Some("nouveau"));
        assert_eq!(inv.pci[1].vendor, GpuVendor::Intel);
        assert_eq!(inv.pci[1].driver, None);
        // A node without a bus id, or prose that only looks like a field, adds nothing.
        let inv = run(
            "  *-display UNCLAIMED\n       vendor: NVIDIA Corporation\nproduct: nothing here\n",
        );
        assert!(inv.pci.is_empty());
    }

    fn run(text: &str) -> crate::inventory::Inventory {
        let doc = clean("input", text);
        let mut b = Builder::new("t");
        parse(&doc, &mut b);
        b.finish()
    }

    #[test]
    fn uname_a_linux_and_wsl() {
        let inv = run("Linux gpu01 5.15.0-91-generic #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023 x86_64 x86_64 x86_64 GNU/Linux");
        assert_eq!(inv.os.kernel.as_ref().unwrap().value, "5.15.0-91-generic");
        assert_eq!(inv.os.arch.as_ref().unwrap().value, "x86_64");
        assert_eq!(inv.os.hostname.as_ref().unwrap().value, "gpu01");
        assert!(inv.wsl.is_wsl.is_none());
        let inv = run("Linux DESKTOP-1 5.15.153.1-microsoft-standard-WSL2 #1 SMP Fri Mar 29 23:14:13 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux");
        assert!(inv.wsl.is_wsl.as_ref().unwrap().value);
    }

    #[test]
    fn uname_darwin() {
        let inv = run("Darwin Mac.local 23.5.0 Darwin Kernel Version 23.5.0: Wed May  1 20:12:58 PDT 2024; root:xnu-10063.121.3~5/RELEASE_ARM64_T6000 arm64");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Macos);
        assert_eq!(inv.os.arch.as_ref().unwrap().value, "arm64");
    }

    #[test]
    fn os_release_block() {
        let inv = run("PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nVERSION=\"22.04.4 LTS (Jammy Jellyfish)\"\nID=ubuntu\nID_LIKE=debian\n");
        assert_eq!(inv.os.id.as_ref().unwrap().value, "ubuntu");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "22.04");
        assert_eq!(inv.os.version_id.as_ref().unwrap().source, "input line 3");
        assert_eq!(
            inv.os.pretty_name.as_ref().unwrap().value,
            "Ubuntu 22.04.4 LTS"
        );
        // A lone NAME= line is not an os-release file.
        let inv = run("NAME=foo\n");
        assert!(inv.os.id.is_none());
    }

    #[test]
    fn lsb_release() {
        let inv = run("No LSB modules are available.\nDistributor ID:\tUbuntu\nDescription:\tUbuntu 20.04.6 LTS\nRelease:\t20.04\nCodename:\tfocal\n");
        assert_eq!(inv.os.id.as_ref().unwrap().value, "ubuntu");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "20.04");
    }

    #[test]
    fn wsl2_s_paravirtualized_gpu_in_lspci() {
        // open-webui#574: lspci under WSL2 lists no NVIDIA device.
        let inv = run("2761:00:00.0 3D controller: Microsoft Corporation Device 008e\n0e2b:00:00.0 SCSI storage controller: Red Hat, Inc. Virtio filesystem (rev 01)\n");
        assert!(inv.wsl.is_wsl.unwrap().value);
        assert_eq!(inv.pci.len(), 1);
        assert_eq!(inv.pci[0].address, "2761:00:00.0");
        let inv =
            run("01:00.0 VGA compatible controller: Microsoft Corporation Hyper-V virtual VGA\n");
        assert!(inv.wsl.is_wsl.is_none());
    }

    #[test]
    fn lspci_k_nouveau() {
        let inv = run("01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] [10de:2684] (rev a1)\n\tSubsystem: ASUSTeK Computer Inc. Device [1043:889d]\n\tKernel driver in use: nouveau\n\tKernel modules: nvidiafb, nouveau\n");
        let d = &inv.pci[0];
        assert_eq!(d.vendor, GpuVendor::Nvidia);
        assert_eq!(d.driver.as_deref(), Some("nouveau"));
        assert_eq!(d.device_id, "0x2684");
        assert_eq!(d.address, "0000:01:00.0");
    }

    #[test]
    fn lspci_k_nothing_bound_and_plain_lspci() {
        let inv = run("01:00.0 3D controller: NVIDIA Corporation GA100 [A100 SXM4 40GB] (rev a1)\n\tSubsystem: NVIDIA Corporation Device 145f\n\tKernel modules: nvidiafb, nouveau\n");
        assert_eq!(inv.pci[0].driver, None);
        let inv = run("01:00.0 VGA compatible controller: NVIDIA Corporation TU104 [GeForce RTX 2080] (rev a1)\n");
        assert!(inv.pci.is_empty());
        assert_eq!(inv.notes.len(), 1);
    }

    #[test]
    fn lspci_cut_after_its_subsystem_line_names_no_driver() {
        // `lspci -v` prints the driver after the regions: a block cut after
        // `Subsystem:` has not said that nothing is bound.
        let inv = run("01:00.0 VGA compatible controller: NVIDIA Corporation GP104GLM [Quadro P5000 Mobile] (rev a1) (prog-if 00 [VGA controller])\n        Subsystem: Hewlett-Packard Company GP104GLM [Quadro P5000 Mobile]\n");
        assert!(inv.pci.is_empty(), "{:?}", inv.pci);
    }

    #[test]
    fn secure_boot_and_macos() {
        let inv = run("$ mokutil --sb-state\nSecureBoot enabled\n");
        assert!(inv.os.secure_boot.as_ref().unwrap().value);
        let inv = run("ProductName:\t\tmacOS\nProductVersion:\t\t14.5\n      Chip: Apple M2 Pro\n");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "14.5");
        assert_eq!(inv.apple.chip.as_ref().unwrap().value, "Apple M2 Pro");
    }

    #[test]
    fn uname_r_and_proc_version() {
        let inv = run("$ uname -r\n6.8.0-45-generic\n");
        assert_eq!(inv.os.kernel.as_ref().unwrap().value, "6.8.0-45-generic");
        let inv = run("Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) (gcc (Ubuntu 11.4.0) 11.4.0) #101-Ubuntu SMP");
        assert_eq!(inv.os.kernel.as_ref().unwrap().value, "5.15.0-91-generic");
    }

    #[test]
    fn traceback_paths_and_rocminfo() {
        let inv = run("  File \"/Users/me/anaconda3/envs/x/lib/python3.8/site-packages/torch/cuda/__init__.py\", line 293, in _lazy_init");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Macos);
        let inv = run("C:\\Users\\me\\AppData\\Local\\site-packages\\torch\\cuda\\__init__.py:116: UserWarning:");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Windows);
        // A Windows path written with forward slashes is not a Mac home.
        let inv = run("  File \"C:/Users/me/tmp/taichi/hello.py\", line 3, in <module>");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Windows);
        let inv = run("ROCk module version 6.16.6 is loaded\n  Name:                    gfx1151\n");
        assert_eq!(inv.amd.gfx_targets[0].value, "gfx1151");
        assert!(inv.amd.amdgpu_loaded.as_ref().unwrap().value);
        let inv = run("Some log line mentioning /Users/ without a path context");
        assert!(inv.os.kind.is_none());
    }

    #[test]
    fn redhat_release() {
        let inv = run("Rocky Linux release 9.3 (Blue Onyx)");
        assert_eq!(inv.os.id.as_ref().unwrap().value, "rocky");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "9.3");
    }
}
