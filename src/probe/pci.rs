//! Display and 3D controllers on the PCI bus, with the driver bound to each:
//! how "a GPU is there but nothing drives it" becomes visible.

use std::path::Path;

use super::{text, Ctx, Log};
use crate::inventory::{GpuVendor, PciDevice};

const PCI_DEVICES: &str = "/sys/bus/pci/devices";

pub(crate) fn probe(ctx: &Ctx, log: &mut Log) -> Vec<PciDevice> {
    let entries = match ctx.sys.read_dir(Path::new(PCI_DEVICES)) {
        Ok(e) => e,
        Err(e) => {
            // An unpacked image or a locked-down container has no /sys: absence of GPUs is then unknown.
            log.note(
                PCI_DEVICES,
                format!("cannot list the PCI bus ({e}); which GPUs this machine has is unknown"),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for e in entries {
        let dir = e.path.display().to_string();
        let read = |name: &str, log: &mut Log| {
            text::read_trimmed(ctx, &format!("{dir}/{name}"), log).map(|s| s.to_ascii_lowercase())
        };
        let Some(class) = read("class", log) else {
            continue;
        };
        // Class 0x03xxxx: display controllers (VGA 0x0300, 3D 0x0302, other 0x0380).
        if !class.starts_with("0x03") {
            continue;
        }
        let Some(vendor_id) = read("vendor", log) else {
            continue;
        };
        let vendor = match vendor_id.as_str() {
            "0x10de" => GpuVendor::Nvidia,
            "0x1002" => GpuVendor::Amd,
            "0x8086" => GpuVendor::Intel,
            _ => continue,
        };
        let device_id = read("device", log).unwrap_or_default();
        let driver = ctx
            .sys
            .read_link(&e.path.join("driver"))
            .ok()
            .and_then(|t| t.file_name().map(|n| n.to_string_lossy().into_owned()));
        let vram_mib = (vendor == GpuVendor::Amd)
            .then(|| read("mem_info_vram_total", log))
            .flatten()
            .and_then(|b| b.parse::<u64>().ok())
            .map(|b| b / (1024 * 1024))
            .filter(|&m| m > 0);
        out.push(PciDevice {
            address: e.name.clone(),
            vendor,
            vendor_id,
            device_id,
            class,
            driver,
            name: None,
            source: dir,
            vram_mib,
        });
    }
    out
}
