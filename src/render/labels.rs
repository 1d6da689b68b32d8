//! Fleet outputs: Kubernetes node labels (as an NFD `local` feature file)
//! and a Prometheus textfile-collector page, so existing cluster engines can
//! schedule on gpucompat's verdicts.
//!
//! Labels live in gpucompat's own namespace and fill what GPU Feature
//! Discovery leaves out (driver branch, kernel module flavor, min/max CC
//! across heterogeneous GPUs, the verdict). Values are sanitized to valid
//! label values: at most 63 characters of `[A-Za-z0-9._-]`, alphanumeric at
//! both ends.

use std::fmt::Write as _;

use crate::finding::{Finding, Severity};
use crate::inventory::{Inventory, ModuleFlavor};

pub const NAMESPACE: &str = "gpucompat.io";

/// Make a valid Kubernetes label value (GFD sanitizes device names the same way).
pub fn label_value(raw: &str) -> String {
    let mut s: String = raw
        .trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect();
    s.truncate(63);
    let s = s.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    s.to_string()
}

/// Node labels as `(key, value)` pairs, keys without the namespace prefix.
pub fn labels(
    inv: &Inventory,
    tier: Option<u8>,
    findings: Option<&[Finding]>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, v: String| {
        let v = label_value(&v);
        if !v.is_empty() {
            out.push((k.to_string(), v));
        }
    };
    if let Some(t) = tier {
        put("tier", t.to_string());
    }
    if let Some(d) = inv.driver_version() {
        put("driver.version", d.value.to_string());
        // Windows numbers do not carry their branch (552.22 is R550): resolve says.
        let os = crate::kb::resolve::driver_os(inv);
        if let Some(b) = crate::kb::resolve::driver_branch(crate::kb::Kb::embedded(), &d.value, os)
        {
            put("driver.branch", format!("R{}", b.value));
        }
    }
    if let Some(f) = &inv.nvidia.module_flavor {
        put(
            "driver.module",
            match f.value {
                ModuleFlavor::Open => "open".into(),
                ModuleFlavor::Proprietary => "proprietary".into(),
            },
        );
    }
    if let Some(c) = &inv.nvidia.cuda_max {
        put("cuda.max", c.value.to_string());
    }
    put("gpu.count", inv.gpus.len().to_string());
    let ccs: Vec<_> = inv
        .gpus
        .iter()
        .filter_map(|g| g.compute_capability.as_ref().map(|c| c.value.plain()))
        .collect();
    if let (Some(lo), Some(hi)) = (ccs.iter().min(), ccs.iter().max()) {
        put("gpu.cc.min", lo.to_string());
        put("gpu.cc.max", hi.to_string());
    }
    let mut names: Vec<&str> = inv
        .gpus
        .iter()
        .filter_map(|g| g.name.as_ref().map(|n| n.value.as_str()))
        .collect();
    names.dedup();
    if names.len() == 1 {
        put("gpu.product", names[0].to_string());
    } else if names.len() > 1 {
        put("gpu.product", "mixed".into());
    }
    if let Some(findings) = findings {
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        let warnings = findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count();
        put("check.ok", (errors == 0).to_string());
        put("check.errors", errors.to_string());
        put("check.warnings", warnings.to_string());
    }
    out
}

/// An NFD `local` feature file (`/etc/kubernetes/node-feature-discovery/features.d/gpucompat`).
pub fn nfd_feature_file(labels: &[(String, String)]) -> String {
    let mut s = String::from("# gpucompat node labels (NFD local feature file)\n");
    for (k, v) in labels {
        let _ = writeln!(s, "{NAMESPACE}/{k}={v}");
    }
    s
}

fn prom_escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// A Prometheus textfile-collector page: one info metric with the stack's
/// versions as labels, the tier, and finding counts by severity and code.
pub fn prometheus(inv: &Inventory, tier: Option<u8>, findings: Option<&[Finding]>) -> String {
    let mut s = String::new();
    let driver = inv
        .driver_version()
        .map(|d| d.value.to_string())
        .unwrap_or_default();
    let cuda = inv
        .nvidia
        .cuda_max
        .as_ref()
        .map(|c| c.value.to_string())
        .unwrap_or_default();
    s.push_str("# HELP gpucompat_info The GPU stack gpucompat saw on this node.\n");
    s.push_str("# TYPE gpucompat_info gauge\n");
    let _ = writeln!(
        s,
        "gpucompat_info{{driver=\"{}\",cuda_max=\"{}\",gpus=\"{}\"}} 1",
        prom_escape(&driver),
        prom_escape(&cuda),
        inv.gpus.len()
    );
    if let Some(t) = tier {
        s.push_str(
            "# HELP gpucompat_tier The machine's tier (1-5).\n# TYPE gpucompat_tier gauge\n",
        );
        let _ = writeln!(s, "gpucompat_tier {t}");
    }
    s.push_str("# HELP gpucompat_gpu_compute_capability Compute capability per GPU.\n");
    s.push_str("# TYPE gpucompat_gpu_compute_capability gauge\n");
    for g in &inv.gpus {
        if let Some(cc) = &g.compute_capability {
            let name = g.name.as_ref().map(|n| n.value.as_str()).unwrap_or("");
            let _ = writeln!(
                s,
                "gpucompat_gpu_compute_capability{{index=\"{}\",name=\"{}\"}} {}.{}",
                g.index,
                prom_escape(name),
                cc.value.major,
                cc.value.minor
            );
        }
    }
    if let Some(findings) = findings {
        s.push_str("# HELP gpucompat_findings Findings of the last check, by severity.\n");
        s.push_str("# TYPE gpucompat_findings gauge\n");
        for sev in [Severity::Error, Severity::Warning, Severity::Info] {
            let n = findings.iter().filter(|f| f.severity == sev).count();
            let _ = writeln!(s, "gpucompat_findings{{severity=\"{sev}\"}} {n}");
        }
        s.push_str("# HELP gpucompat_finding One series per finding of the last check.\n");
        s.push_str("# TYPE gpucompat_finding gauge\n");
        for f in findings {
            let _ = writeln!(
                s,
                "gpucompat_finding{{code=\"{}\",category=\"{}\",severity=\"{}\"}} 1",
                prom_escape(&f.code),
                f.category,
                f.severity
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Gpu};

    #[test]
    fn label_values_are_sanitized() {
        assert_eq!(
            label_value("NVIDIA GeForce RTX 4090"),
            "NVIDIA-GeForce-RTX-4090"
        );
        assert_eq!(label_value("  (weird)/name!  "), "weirdname");
        assert_eq!(label_value(&"x".repeat(80)).len(), 63);
        assert_eq!(label_value("-._"), "");
    }

    #[test]
    fn labels_and_prometheus_carry_the_stack() {
        let mut inv = Inventory::new("test");
        inv.nvidia.driver_version = Some(Fact::new("550.54.14".parse().unwrap(), "NVML"));
        inv.nvidia.cuda_max = Some(Fact::new("12.4".parse().unwrap(), "NVML"));
        inv.gpus.push(Gpu {
            index: 0,
            name: Some(Fact::new("NVIDIA GeForce RTX 4090".into(), "NVML")),
            compute_capability: Some(Fact::new("8.9".parse().unwrap(), "NVML")),
            ..Default::default()
        });
        let l = labels(&inv, Some(3), Some(&[]));
        let file = nfd_feature_file(&l);
        assert!(file.contains("gpucompat.io/driver.branch=R550\n"), "{file}");
        assert!(file.contains("gpucompat.io/cuda.max=12.4\n"));
        assert!(file.contains("gpucompat.io/gpu.cc.min=8.9\n"));
        assert!(file.contains("gpucompat.io/check.ok=true\n"));
        let p = prometheus(&inv, Some(3), Some(&[]));
        assert!(p.contains("gpucompat_info{driver=\"550.54.14\",cuda_max=\"12.4\",gpus=\"1\"} 1"));
        assert!(p.contains("gpucompat_tier 3"));
        assert!(p.contains(
            "gpucompat_gpu_compute_capability{index=\"0\",name=\"NVIDIA GeForce RTX 4090\"} 8.9"
        ));
    }
}
