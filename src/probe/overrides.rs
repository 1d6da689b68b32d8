//! `GPUCOMPAT_*` overrides: facts set by hand (for image builds on machines
//! without a GPU, or to ask "what if"). They win over everything probed and
//! carry the source `env GPUCOMPAT_...`.

use super::Log;
use crate::inventory::{Fact, Gpu, Inventory};
use crate::system::System;
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

pub const DRIVER_VAR: &str = "GPUCOMPAT_DRIVER_VERSION";
pub const CUDA_VAR: &str = "GPUCOMPAT_CUDA_DRIVER_VERSION";
pub const GPUS_VAR: &str = "GPUCOMPAT_GPUS";

/// Every override with what it sets (also printed in the README).
pub const OVERRIDE_VARS: &[(&str, &str)] = &[
    (DRIVER_VAR, "the driver version, e.g. 550.54.14"),
    (
        CUDA_VAR,
        "the newest CUDA the driver supports, e.g. 12.4 (or 12040)",
    ),
    (
        GPUS_VAR,
        "the GPUs: NAME[:CC[:MEMORY]] separated by ';', N*NAME for N alike, empty or 'none' for no GPU",
    ),
];

/// One GPU of `GPUCOMPAT_GPUS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuOverride {
    pub name: String,
    pub compute_capability: Option<ComputeCapability>,
    pub memory_mib: Option<u64>,
}

/// Parse `NAME[:CC[:MEMORY]];...`: `NVIDIA GeForce RTX 4090:8.9:24564`,
/// `8*NVIDIA H100 80GB HBM3`, `Tesla T4::15360`, `none`. MEMORY is MiB, or
/// with a `MiB`/`GiB` suffix.
pub fn parse_gpus_override(s: &str) -> Result<Vec<GpuOverride>, String> {
    let s = s.trim();
    if s.is_empty() || s.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in s.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let (count, spec) = match entry.split_once('*') {
            Some((n, rest))
                if !n.trim().is_empty() && n.trim().bytes().all(|b| b.is_ascii_digit()) =>
            {
                let n: usize = n
                    .trim()
                    .parse()
                    .map_err(|_| format!("{entry:?}: bad count"))?;
                if n == 0 || n > 64 {
                    return Err(format!("{entry:?}: count must be 1 to 64"));
                }
                (n, rest.trim())
            }
            _ => (1, entry),
        };
        let mut parts = spec.splitn(3, ':').map(str::trim);
        let name = parts.next().unwrap_or("").to_string();
        if name.is_empty() {
            return Err(format!("{entry:?}: no GPU name"));
        }
        let compute_capability = match parts.next().filter(|c| !c.is_empty()) {
            Some(c) => Some(
                c.parse::<ComputeCapability>()
                    .map_err(|e| format!("{entry:?}: {e}"))?,
            ),
            None => None,
        };
        let memory_mib = match parts.next().filter(|m| !m.is_empty()) {
            Some(m) => Some(
                parse_memory(m)
                    .ok_or_else(|| format!("{entry:?}: memory must be MiB, e.g. 24564 or 24GiB"))?,
            ),
            None => None,
        };
        for _ in 0..count {
            out.push(GpuOverride {
                name: name.clone(),
                compute_capability,
                memory_mib,
            });
        }
        if out.len() > 64 {
            return Err("more than 64 GPUs".into());
        }
    }
    Ok(out)
}

fn parse_memory(m: &str) -> Option<u64> {
    let m = m.trim();
    let lower = m.to_ascii_lowercase();
    if let Some(g) = lower
        .strip_suffix("gib")
        .or_else(|| lower.strip_suffix("gb"))
    {
        return g.trim().parse::<u64>().ok().map(|g| g * 1024);
    }
    let n = lower
        .strip_suffix("mib")
        .or_else(|| lower.strip_suffix("mb"))
        .unwrap_or(&lower);
    n.trim().parse().ok()
}

pub(crate) fn apply(sys: &dyn System, inv: &mut Inventory, log: &mut Log) {
    let source = |var: &str| format!("env {var}");
    if let Some(v) = sys.env(DRIVER_VAR) {
        match v.parse::<DriverVersion>() {
            Ok(d) => inv.nvidia.driver_version = Some(Fact::new(d, source(DRIVER_VAR))),
            Err(e) => log.note(DRIVER_VAR, format!("ignored: {e}")),
        }
    }
    if let Some(v) = sys.env(CUDA_VAR) {
        match v.parse::<CudaVersion>() {
            Ok(c) => inv.nvidia.cuda_max = Some(Fact::new(c, source(CUDA_VAR))),
            Err(e) => log.note(CUDA_VAR, format!("ignored: {e}")),
        }
    }
    if let Some(v) = sys.env(GPUS_VAR) {
        match parse_gpus_override(&v) {
            Ok(gpus) => {
                let src = source(GPUS_VAR);
                inv.gpus = gpus
                    .into_iter()
                    .enumerate()
                    .map(|(i, g)| Gpu {
                        index: i as u32,
                        name: Some(Fact::new(g.name, src.clone())),
                        compute_capability: g.compute_capability.map(|c| Fact::new(c, src.clone())),
                        memory_mib: g.memory_mib.map(|m| Fact::new(m, src.clone())),
                        ..Default::default()
                    })
                    .collect();
            }
            Err(e) => log.note(GPUS_VAR, format!("ignored: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpus_full_and_partial() {
        let g =
            parse_gpus_override("NVIDIA GeForce RTX 4090:8.9:24564; Tesla T4::15GiB ;NVIDIA A10G")
                .unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].name, "NVIDIA GeForce RTX 4090");
        assert_eq!(g[0].compute_capability, Some(ComputeCapability::new(8, 9)));
        assert_eq!(g[0].memory_mib, Some(24564));
        assert_eq!(g[1].compute_capability, None);
        assert_eq!(g[1].memory_mib, Some(15 * 1024));
        assert_eq!(g[2].memory_mib, None);
    }

    #[test]
    fn gpus_count_and_none() {
        let g = parse_gpus_override("8*NVIDIA H100 80GB HBM3:9.0").unwrap();
        assert_eq!(g.len(), 8);
        assert!(g.iter().all(|x| x.name == "NVIDIA H100 80GB HBM3"));
        assert!(parse_gpus_override("none").unwrap().is_empty());
        assert!(parse_gpus_override("").unwrap().is_empty());
    }

    #[test]
    fn gpus_errors() {
        assert!(parse_gpus_override(":8.9").is_err());
        assert!(parse_gpus_override("RTX:eight").is_err());
        assert!(parse_gpus_override("RTX:8.9:lots").is_err());
        assert!(parse_gpus_override("0*RTX").is_err());
        assert!(parse_gpus_override("65*RTX").is_err());
    }
}
