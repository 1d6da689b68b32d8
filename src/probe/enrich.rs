//! Facts the knowledge base adds to what was probed, each with its kb row
//! as the source: PCI device names, and a GPU's compute capability,
//! architecture and segment when the driver did not say. Never a guess: a
//! name the kb cannot pin to one row leaves the fact unknown, with a Note.

use super::Log;
use crate::inventory::{Fact, GpuVendor, Inventory};
use crate::kb::tables::GpuRow;
use crate::kb::{GpuLookup, Kb};

pub(crate) fn apply(kb: &Kb, inv: &mut Inventory, log: &mut Log) {
    let mut names: std::collections::HashMap<String, Option<String>> = Default::default();
    for d in inv.pci.iter_mut().filter(|d| d.vendor == GpuVendor::Nvidia) {
        if d.name.is_none() {
            d.name = names
                .entry(d.device_id.clone())
                .or_insert_with(|| kb.gpu_by_pci_id(&d.device_id).map(|r| r.name.clone()))
                .clone();
        }
    }
    let pci = inv.pci.clone();
    for g in &mut inv.gpus {
        let Some(name) = g.name.as_ref().map(|n| n.value.clone()) else {
            continue;
        };
        let by_pci = || -> Option<&GpuRow> {
            let bus = normalize_bus_id(&g.pci_bus_id.as_ref()?.value)?;
            let dev = pci
                .iter()
                .find(|d| normalize_bus_id(&d.address).as_deref() == Some(bus.as_str()))?;
            kb.gpu_by_pci_id(&dev.device_id)
        };
        let (row, source) = match kb.gpu_match(&name) {
            GpuLookup::Found(r) => (Some(r), format!("kb gpus: {}", r.name)),
            GpuLookup::Ambiguous(rows) => match by_pci() {
                Some(r) => (Some(r), format!("kb gpus: {} (by PCI device id)", r.name)),
                None => {
                    if g.compute_capability.is_none() {
                        let names: Vec<&str> =
                            rows.iter().take(4).map(|r| r.name.as_str()).collect();
                        log.note(
                            format!("GPU {}", g.index),
                            format!(
                                "compute capability unknown: \"{name}\" fits several knowledge-base rows ({})",
                                names.join(", ")
                            ),
                        );
                    }
                    (None, String::new())
                }
            },
            GpuLookup::NotFound { .. } => match by_pci() {
                Some(r) => (Some(r), format!("kb gpus: {} (by PCI device id)", r.name)),
                None => {
                    if g.compute_capability.is_none() {
                        log.note(
                            format!("GPU {}", g.index),
                            format!("compute capability unknown: \"{name}\" is not in the knowledge base"),
                        );
                    }
                    (None, String::new())
                }
            },
        };
        if let Some(row) = row {
            if g.compute_capability.is_none() {
                g.compute_capability = row
                    .compute_capability
                    .map(|cc| Fact::new(cc, source.clone()));
                if g.compute_capability.is_none() {
                    log.note(
                        format!("GPU {}", g.index),
                        format!(
                            "compute capability unknown: the knowledge-base row for {} has none",
                            row.name
                        ),
                    );
                }
            }
            if g.segment.is_none() {
                g.segment = Some(Fact::new(row.segment, source.clone()));
            }
            if g.architecture.is_none() {
                g.architecture = Some(Fact::new(row.architecture.clone(), source.clone()));
            }
        }
        if g.architecture.is_none() {
            if let Some(a) = g
                .compute_capability
                .as_ref()
                .and_then(|cc| kb.architecture(cc.value))
            {
                g.architecture = Some(Fact::new(
                    a.name.clone(),
                    format!("kb architectures: {}", a.name),
                ));
            }
        }
    }
}

/// `00000000:01:00.0` (NVML) and `0000:01:00.0` (sysfs) name the same device.
pub fn normalize_bus_id(id: &str) -> Option<String> {
    let (domain, rest) = id.trim().split_once(':')?;
    let domain = u32::from_str_radix(domain, 16).ok()?;
    Some(format!("{domain:04x}:{}", rest.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_ids() {
        assert_eq!(
            normalize_bus_id("00000000:2A:00.0"),
            normalize_bus_id("0000:2a:00.0")
        );
        assert_eq!(
            normalize_bus_id("0000:2a:00.0").as_deref(),
            Some("0000:2a:00.0")
        );
        assert_eq!(normalize_bus_id("garbage"), None);
    }
}
