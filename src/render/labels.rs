//! Kubernetes node labels, published as an NFD `local` feature file, so
//! existing schedulers can place pods on gpucompat's verdicts.
//!
//! Labels live in gpucompat's own namespace. Where GPU Feature Discovery has
//! the same fact (product, family, memory, count) the name and value follow
//! GFD; the rest fills what GFD leaves out (driver branch, kind and end of
//! life, module flavor, min/max CC across heterogeneous GPUs, the verdict).
//! Dotted versions also come as integer labels (`cuda.max.major`, ...)
//! because node affinity's `Gt`/`Lt` compare integers only. Values are valid
//! label values: at most 63 characters of `[A-Za-z0-9._-]`, alphanumeric at
//! both ends.
//!
//! NFD versions (docs/kubernetes.md has the sources): a feature file in
//! `features.d/` with a vendor namespace needs v0.13 or later, the
//! `# +expiry-time=` directive v0.14 or later.

use std::fmt::Write as _;

use crate::finding::{Finding, Severity};
use crate::fleet::node::{gfd_family, gfd_sanitise, NodeFacts};
use crate::fleet::time::{rfc3339, year_month};
use crate::inventory::{Inventory, ModuleFlavor};
use crate::kb::tables::BranchKind;
use crate::kb::Kb;

pub const NAMESPACE: &str = "gpucompat.io";

/// Make a valid Kubernetes label value: GFD's sanitization, then the label
/// value limits (63 characters, alphanumeric at both ends).
pub fn label_value(raw: &str) -> String {
    let mut s = gfd_sanitise(raw);
    s.truncate(63);
    let s = s.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    s.to_string()
}

/// When the labels were made, and how long they hold.
#[derive(Debug, Clone, Copy)]
pub struct Stamp {
    /// Unix seconds.
    pub now: u64,
    /// Seconds after `now` at which NFD drops the labels (0: never).
    pub ttl: u64,
}

/// The dot fields of a driver version as integers: `535.104.05` → 535, 104, 5.
fn driver_fields(v: &str) -> Vec<u64> {
    v.split('.').map_while(|p| p.parse().ok()).collect()
}

/// Node labels as `(key, value)` pairs, keys without the namespace prefix.
pub fn labels(
    inv: &Inventory,
    kb: &Kb,
    tier: Option<u8>,
    findings: Option<&[Finding]>,
    stamp: Option<Stamp>,
) -> Vec<(String, String)> {
    let facts = NodeFacts::of(inv, kb);
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
    if let Some(d) = &facts.driver {
        let text = d.to_string();
        put("driver.version", text.clone());
        // Windows numbers do not carry their branch (552.22 is R550): resolve says.
        let os = crate::kb::resolve::driver_os(inv);
        let branch = crate::kb::resolve::driver_branch(kb, d, os).map(|b| b.value);
        if let Some(b) = branch {
            put("driver.branch", format!("R{b}"));
        }
        for (name, n) in ["driver.major", "driver.minor", "driver.rev"]
            .iter()
            .zip(driver_fields(&text))
        {
            put(name, n.to_string());
        }
        if let Some(row) = branch.and_then(|b| kb.driver_branch(b)) {
            if let Some(kind) = row.kind {
                put(
                    "driver.branch.kind",
                    match kind {
                        BranchKind::Ltsb => "ltsb",
                        BranchKind::Pb => "pb",
                        BranchKind::Nfb => "nfb",
                    }
                    .into(),
                );
            }
            if let Some(eol) = &row.eol {
                put("driver.branch.eol", eol.clone());
                if let Some(s) = stamp {
                    put("driver.eol", (year_month(s.now) > *eol).to_string());
                }
            }
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
    if let Some(c) = &facts.cuda_max {
        put("cuda.max", c.value.to_string());
        put("cuda.max.major", c.value.major.to_string());
        put("cuda.max.minor", c.value.minor.to_string());
    }
    put("gpu.count", inv.gpus.len().to_string());
    if let (Some(lo), Some(hi)) = (facts.cc_min, facts.cc_max) {
        put("gpu.cc.min", lo.to_string());
        put("gpu.cc.min.major", lo.major.to_string());
        put("gpu.cc.min.minor", lo.minor.to_string());
        put("gpu.cc.max", hi.to_string());
        put("gpu.cc.max.major", hi.major.to_string());
        put("gpu.cc.max.minor", hi.minor.to_string());
        let mut families: Vec<&str> = inv
            .gpus
            .iter()
            .filter_map(|g| g.compute_capability.as_ref())
            .map(|c| gfd_family(c.value))
            .collect();
        families.sort_unstable();
        families.dedup();
        put(
            "gpu.family",
            if families.len() == 1 {
                families[0]
            } else {
                "mixed"
            }
            .into(),
        );
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
    // GFD labels the first device's memory; the smallest is what every GPU offers.
    if let Some(mib) = inv
        .gpus
        .iter()
        .filter_map(|g| g.memory_mib.as_ref().map(|m| m.value))
        .min()
    {
        put("gpu.memory", mib.to_string());
    }
    if !inv.gpus.is_empty() {
        let capable = inv.gpus.iter().any(|g| {
            g.mig.is_some()
                || g.name
                    .as_ref()
                    .is_some_and(|n| kb.mig_min_driver(&n.value).is_some())
        });
        put("mig.capable", capable.to_string());
    }
    put("probe.ok", facts.blind.is_none().to_string());
    if let Some(findings) = findings {
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        let warnings = findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count();
        put(
            "check.ok",
            (errors == 0 && facts.blind.is_none()).to_string(),
        );
        put("check.errors", errors.to_string());
        put("check.warnings", warnings.to_string());
    }
    if let Some(s) = stamp {
        put("timestamp", s.now.to_string());
    }
    out
}

/// An NFD `local` feature file (`/etc/kubernetes/node-feature-discovery/features.d/gpucompat`).
/// With a stamp whose ttl is set, every label expires at `now + ttl`.
pub fn nfd_feature_file(labels: &[(String, String)], stamp: Option<Stamp>) -> String {
    let mut s = String::from("# gpucompat node labels (NFD local feature file)\n");
    if let Some(st) = stamp.filter(|s| s.ttl > 0) {
        let _ = writeln!(s, "# +expiry-time={}", rfc3339(st.now + st.ttl));
    }
    for (k, v) in labels {
        let _ = writeln!(s, "{NAMESPACE}/{k}={v}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Gpu, GpuVendor, PciDevice};

    fn rtx4090() -> Gpu {
        Gpu {
            index: 0,
            name: Some(Fact::new("NVIDIA GeForce RTX 4090".into(), "NVML")),
            compute_capability: Some(Fact::new("8.9".parse().unwrap(), "NVML")),
            memory_mib: Some(Fact::new(24564, "NVML")),
            ..Default::default()
        }
    }

    fn get<'a>(l: &'a [(String, String)], k: &str) -> Option<&'a str> {
        l.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str())
    }

    #[test]
    fn label_values_are_sanitized() {
        assert_eq!(
            label_value("NVIDIA GeForce RTX 4090"),
            "NVIDIA-GeForce-RTX-4090"
        );
        assert_eq!(label_value("NVIDIA  H100"), "NVIDIA-H100");
        assert_eq!(label_value("  (weird)/name!  "), "weirdname");
        assert_eq!(label_value(&"x".repeat(80)).len(), 63);
        assert_eq!(label_value("-._"), "");
    }

    #[test]
    fn labels_carry_the_stack_in_dotted_and_integer_forms() {
        let kb = Kb::embedded();
        let mut inv = Inventory::new("test");
        inv.nvidia.driver_version = Some(Fact::new("535.104.05".parse().unwrap(), "NVML"));
        inv.nvidia.cuda_max = Some(Fact::new("12.2".parse().unwrap(), "NVML"));
        inv.gpus.push(rtx4090());
        let stamp = Stamp {
            now: 1_767_225_600,
            ttl: 3600,
        };
        let l = labels(&inv, kb, Some(3), Some(&[]), Some(stamp));
        assert_eq!(get(&l, "driver.major"), Some("535"));
        assert_eq!(get(&l, "driver.minor"), Some("104"));
        assert_eq!(get(&l, "driver.rev"), Some("5"));
        assert_eq!(get(&l, "driver.branch.kind"), Some("ltsb"));
        assert_eq!(get(&l, "driver.branch.eol"), Some("2026-06"));
        assert_eq!(get(&l, "driver.eol"), Some("false"));
        let later = Stamp {
            now: 1_796_256_000, // 2026-12-03
            ttl: 0,
        };
        let after = labels(&inv, kb, None, None, Some(later));
        assert_eq!(get(&after, "driver.eol"), Some("true"));
        assert!(!nfd_feature_file(&after, Some(later)).contains("expiry"));
        assert_eq!(get(&l, "cuda.max.major"), Some("12"));
        assert_eq!(get(&l, "cuda.max.minor"), Some("2"));
        assert_eq!(get(&l, "gpu.cc.min.major"), Some("8"));
        assert_eq!(get(&l, "gpu.cc.max.minor"), Some("9"));
        assert_eq!(get(&l, "gpu.family"), Some("ada-lovelace"));
        assert_eq!(get(&l, "gpu.memory"), Some("24564"));
        assert_eq!(get(&l, "mig.capable"), Some("false"));
        assert_eq!(get(&l, "check.ok"), Some("true"));
        assert_eq!(get(&l, "timestamp"), Some("1767225600"));
        let file = nfd_feature_file(&l, Some(stamp));
        assert!(
            file.contains("\n# +expiry-time=2026-01-01T01:00:00Z\n"),
            "{file}"
        );
        assert!(file.contains("gpucompat.io/driver.branch=R535\n"), "{file}");
        assert!(file.contains("gpucompat.io/gpu.product=NVIDIA-GeForce-RTX-4090\n"));
    }

    #[test]
    fn cuda_max_comes_from_the_knowledge_base_when_the_driver_did_not_say() {
        let kb = Kb::embedded();
        let mut inv = Inventory::new("test");
        inv.nvidia.kernel_module = Some(Fact::new("550.54.14".parse().unwrap(), "/proc"));
        inv.gpus.push(rtx4090());
        let l = labels(&inv, kb, None, None, None);
        assert_eq!(get(&l, "cuda.max"), Some("12.4"));
        assert_eq!(get(&l, "cuda.max.minor"), Some("4"));
        assert_eq!(get(&l, "timestamp"), None);
    }

    #[test]
    fn check_ok_is_false_when_the_gpus_were_not_seen() {
        let kb = Kb::embedded();
        let mut inv = Inventory::new("test");
        inv.pci.push(PciDevice {
            vendor: GpuVendor::Nvidia,
            ..Default::default()
        });
        let l = labels(&inv, kb, None, Some(&[]), None);
        assert_eq!(get(&l, "check.ok"), Some("false"));
        assert_eq!(get(&l, "probe.ok"), Some("false"));
        let mut seen = Inventory::new("test");
        seen.gpus.push(rtx4090());
        let l = labels(&seen, kb, None, Some(&[]), None);
        assert_eq!(get(&l, "check.ok"), Some("true"));
    }

    #[test]
    fn a_datacenter_gpu_is_mig_capable_and_mixed_gpus_say_so() {
        let kb = Kb::embedded();
        let mut inv = Inventory::new("test");
        inv.gpus.push(Gpu {
            name: Some(Fact::new("NVIDIA H100 80GB HBM3".into(), "NVML")),
            compute_capability: Some(Fact::new("9.0".parse().unwrap(), "NVML")),
            ..Default::default()
        });
        inv.gpus.push(rtx4090());
        let l = labels(&inv, kb, None, None, None);
        assert_eq!(get(&l, "mig.capable"), Some("true"));
        assert_eq!(get(&l, "gpu.family"), Some("mixed"));
        assert_eq!(get(&l, "gpu.product"), Some("mixed"));
        assert_eq!(get(&l, "gpu.cc.min"), Some("8.9"));
        assert_eq!(get(&l, "gpu.cc.max"), Some("9.0"));
    }
}
