//! A Prometheus textfile-collector page (node_exporter `--collector.textfile`).
//!
//! Inventory follows the "info" pattern (value 1, facts in labels); what is
//! alerted on is a number. Per-GPU series carry dcgm-exporter's own label
//! names (`gpu`, `UUID`, `pci_bus_id`, `device`, `modelName`, as set in
//! NVIDIA/dcgm-exporter internal/pkg/collector/gpu_collector.go) so a query
//! can join them with its telemetry: `on(UUID)` or `on(pci_bus_id)`.

use std::fmt::Write as _;

use crate::finding::{Finding, Severity};
use crate::fleet::node::NodeFacts;
use crate::inventory::Inventory;
use crate::kb::Kb;

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn header(s: &mut String, name: &str, help: &str) {
    let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} gauge");
}

/// The page. `now` (Unix seconds) fills the last-run gauge.
pub fn page(
    inv: &Inventory,
    kb: &Kb,
    tier: Option<u8>,
    findings: Option<&[Finding]>,
    now: Option<u64>,
) -> String {
    let facts = NodeFacts::of(inv, kb);
    let mut s = String::new();
    let driver = facts
        .driver
        .as_ref()
        .map(|d| d.to_string())
        .unwrap_or_default();
    let branch = facts
        .driver
        .as_ref()
        .map(|d| d.branch_name())
        .unwrap_or_default();
    let cuda = facts
        .cuda_max
        .as_ref()
        .map(|c| c.value.to_string())
        .unwrap_or_default();
    let cuda_source = facts
        .cuda_max
        .as_ref()
        .map(|c| if c.from_driver { "driver" } else { "kb" })
        .unwrap_or("");
    header(
        &mut s,
        "gpucompat_info",
        "The GPU stack gpucompat saw on this node.",
    );
    let _ = writeln!(
        s,
        "gpucompat_info{{driver=\"{}\",driver_branch=\"{}\",cuda_max=\"{}\",cuda_max_source=\"{}\",gpus=\"{}\"}} 1",
        escape(&driver),
        escape(&branch),
        escape(&cuda),
        cuda_source,
        inv.gpus.len()
    );
    header(
        &mut s,
        "gpucompat_probe_success",
        "1 when the probe saw the GPUs it should (no NVIDIA device left unenumerated, no failed or timed-out driver query).",
    );
    let _ = writeln!(
        s,
        "gpucompat_probe_success {}",
        u8::from(facts.blind.is_none())
    );
    if let Some(t) = now {
        header(
            &mut s,
            "gpucompat_last_run_timestamp_seconds",
            "Unix time of the run that wrote this page.",
        );
        let _ = writeln!(s, "gpucompat_last_run_timestamp_seconds {t}");
    }
    if let Some(t) = tier {
        header(&mut s, "gpucompat_tier", "The machine's tier (1-5).");
        let _ = writeln!(s, "gpucompat_tier {t}");
    }
    if !inv.gpus.is_empty() {
        header(
            &mut s,
            "gpucompat_gpu_info",
            "One series per GPU, labelled like dcgm-exporter for joins.",
        );
        for g in &inv.gpus {
            let _ = writeln!(s, "gpucompat_gpu_info{{{}}} 1", gpu_labels(g, true));
        }
        header(
            &mut s,
            "gpucompat_gpu_compute_capability",
            "Compute capability per GPU (8.9 for sm_89).",
        );
        for g in &inv.gpus {
            if let Some(cc) = &g.compute_capability {
                let _ = writeln!(
                    s,
                    "gpucompat_gpu_compute_capability{{{}}} {}.{}",
                    gpu_labels(g, false),
                    cc.value.major,
                    cc.value.minor
                );
            }
        }
    }
    if let Some(findings) = findings {
        header(
            &mut s,
            "gpucompat_findings",
            "Findings of the last check, by severity.",
        );
        for sev in [Severity::Error, Severity::Warning, Severity::Info] {
            let n = findings.iter().filter(|f| f.severity == sev).count();
            let _ = writeln!(s, "gpucompat_findings{{severity=\"{sev}\"}} {n}");
        }
        header(
            &mut s,
            "gpucompat_finding",
            "One series per finding of the last check.",
        );
        let mut seen = std::collections::BTreeSet::new();
        for f in findings {
            // Two findings of one rule would be duplicate series, which the collector rejects.
            if seen.insert((&f.code, f.severity)) {
                let _ = writeln!(
                    s,
                    "gpucompat_finding{{code=\"{}\",category=\"{}\",severity=\"{}\"}} 1",
                    escape(&f.code),
                    f.category,
                    f.severity
                );
            }
        }
    }
    s
}

fn gpu_labels(g: &crate::inventory::Gpu, with_cc: bool) -> String {
    let text = |f: &Option<crate::inventory::Fact<String>>| {
        escape(f.as_ref().map(|v| v.value.as_str()).unwrap_or(""))
    };
    let mut l = format!(
        "gpu=\"{}\",UUID=\"{}\",pci_bus_id=\"{}\",device=\"nvidia{}\",modelName=\"{}\"",
        g.index,
        text(&g.uuid),
        text(&g.pci_bus_id),
        g.index,
        text(&g.name)
    );
    if with_cc {
        let cc = g
            .compute_capability
            .as_ref()
            .map(|c| c.value.plain().to_string())
            .unwrap_or_default();
        let _ = write!(l, ",cc=\"{cc}\"");
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Gpu};

    #[test]
    fn gpu_series_join_dcgm_exporter_and_cuda_max_comes_from_the_kb() {
        let mut inv = Inventory::new("test");
        inv.nvidia.kernel_module = Some(Fact::new("550.54.14".parse().unwrap(), "/proc"));
        inv.gpus.push(Gpu {
            index: 0,
            name: Some(Fact::new("NVIDIA H100 80GB HBM3".into(), "NVML")),
            uuid: Some(Fact::new("GPU-1234".into(), "NVML")),
            pci_bus_id: Some(Fact::new("00000000:1B:00.0".into(), "NVML")),
            compute_capability: Some(Fact::new("9.0".parse().unwrap(), "NVML")),
            ..Default::default()
        });
        let p = page(
            &inv,
            Kb::embedded(),
            Some(4),
            Some(&[]),
            Some(1_700_000_000),
        );
        assert!(
            p.contains("cuda_max=\"12.4\",cuda_max_source=\"kb\""),
            "{p}"
        );
        assert!(p.contains("gpucompat_gpu_info{gpu=\"0\",UUID=\"GPU-1234\",pci_bus_id=\"00000000:1B:00.0\",device=\"nvidia0\",modelName=\"NVIDIA H100 80GB HBM3\",cc=\"9.0\"} 1"), "{p}");
        assert!(p.contains("gpucompat_probe_success 1\n"), "{p}");
        assert!(
            p.contains("gpucompat_last_run_timestamp_seconds 1700000000\n"),
            "{p}"
        );
    }
}
