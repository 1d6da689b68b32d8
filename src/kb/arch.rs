//! Does a compiled arch list hold a kernel that runs on a GPU?
//!
//! The vendor's rules (CUDA C++ Programming Guide, "Binary Compatibility" and
//! "PTX Compatibility"; family-specific targets from the CUDA 12.9 notes):
//! - SASS for `sm_X.Y` runs on a GPU of compute capability `X.Z` with `Z >= Y`
//!   (same major), on desktop GPUs only: integrated (Tegra) parts run only
//!   SASS built for exactly their CC, and never desktop SASS.
//! - PTX for `compute_X.Y` is JIT-compiled by the driver for any CC `>= X.Y`.
//! - Architecture-specific targets (`sm_90a`, `compute_90a`) run only on that
//!   exact CC; family targets (`sm_100f`) run within their family (same major,
//!   minor at or above the target's).

use serde::Serialize;

use crate::version::{ArchSuffix, ArchTarget, ComputeCapability, TargetKind};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum KernelMatch {
    /// Machine code that runs as is.
    Sass { target: ArchTarget, reason: String },
    /// Only PTX: the driver JIT-compiles it at start-up.
    Ptx { target: ArchTarget, reason: String },
    /// Nothing in the list runs on this GPU.
    None { reason: String },
}

impl KernelMatch {
    pub fn kind(&self) -> &'static str {
        match self {
            KernelMatch::Sass { .. } => "sass",
            KernelMatch::Ptx { .. } => "ptx",
            KernelMatch::None { .. } => "none",
        }
    }

    pub fn reason(&self) -> &str {
        match self {
            KernelMatch::Sass { reason, .. }
            | KernelMatch::Ptx { reason, .. }
            | KernelMatch::None { reason } => reason,
        }
    }
}

/// Whether one target runs on a GPU of `cc` (`integrated`: a Tegra part).
pub fn runs_on(target: &ArchTarget, cc: ComputeCapability, integrated: bool) -> bool {
    let t = target.cc;
    let gpu = cc.plain();
    match (target.kind, t.suffix) {
        (_, ArchSuffix::Specific) => t.plain() == gpu,
        (TargetKind::Sass, ArchSuffix::Family) | (TargetKind::Sass, ArchSuffix::None) => {
            if integrated {
                t.plain() == gpu
            } else {
                t.major == gpu.major && t.minor <= gpu.minor
            }
        }
        (TargetKind::Ptx, ArchSuffix::Family) => t.major == gpu.major && t.minor <= gpu.minor,
        (TargetKind::Ptx, ArchSuffix::None) => t.plain() <= gpu,
    }
}

/// The best kernel in `list` for a GPU of `cc`: the newest SASS that runs,
/// else the newest PTX that JIT-compiles, else none.
pub fn kernels_for(list: &[ArchTarget], cc: ComputeCapability, integrated: bool) -> KernelMatch {
    let best = |kind: TargetKind| {
        list.iter()
            .filter(|t| t.kind == kind && runs_on(t, cc, integrated))
            .max_by_key(|t| t.cc)
            .copied()
    };
    let gpu = cc.plain();
    if let Some(t) = best(TargetKind::Sass) {
        let reason = if t.cc.plain() == gpu {
            format!("{t} is machine code for exactly this GPU ({gpu})")
        } else {
            format!(
                "{t} machine code runs on {gpu}: same major {}, minor {} <= {}",
                gpu.major, t.cc.minor, gpu.minor
            )
        };
        return KernelMatch::Sass { target: t, reason };
    }
    if let Some(t) = best(TargetKind::Ptx) {
        return KernelMatch::Ptx {
            target: t,
            reason: format!(
                "no machine code for {gpu}; the driver JIT-compiles {t} PTX at start-up (slow first run, needs a driver whose JIT knows that PTX version)"
            ),
        };
    }
    let mut why = format!("no SASS for major {} at or below {gpu}", gpu.major);
    if integrated {
        why = format!("{gpu} is an integrated (Tegra) GPU: only SASS built for exactly {gpu} runs");
    }
    let newest = list.iter().map(|t| t.cc).max();
    let reason = match newest {
        Some(n) => format!("{why}, and no PTX at or below it (newest target in the list: {n})"),
        None => format!("{why}; the arch list is empty"),
    };
    KernelMatch::None { reason }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::parse_arch_list;

    fn cc(s: &str) -> ComputeCapability {
        s.parse().unwrap()
    }

    #[test]
    fn sass_runs_forward_within_a_major() {
        let l = parse_arch_list("sm_80 sm_86 sm_90").unwrap();
        assert_eq!(kernels_for(&l, cc("8.9"), false).kind(), "sass");
        if let KernelMatch::Sass { target, .. } = kernels_for(&l, cc("8.9"), false) {
            assert_eq!(target.to_string(), "sm_86");
        }
        assert_eq!(kernels_for(&l, cc("9.0"), false).kind(), "sass");
        let l = parse_arch_list("sm_86").unwrap();
        assert_eq!(kernels_for(&l, cc("8.9"), false).kind(), "sass");
        assert_eq!(kernels_for(&l, cc("9.0"), false).kind(), "none");
        assert_eq!(kernels_for(&l, cc("8.0"), false).kind(), "none");
    }

    #[test]
    fn ptx_jits_to_any_newer_cc() {
        let l = parse_arch_list("7.5;8.0;8.6;9.0;10.0;12.0+PTX").unwrap();
        assert_eq!(kernels_for(&l, cc("12.0"), false).kind(), "sass");
        assert_eq!(kernels_for(&l, cc("12.1"), false).kind(), "sass");
        let l = parse_arch_list("sm_80 compute_90").unwrap();
        assert_eq!(kernels_for(&l, cc("12.0"), false).kind(), "ptx");
        assert_eq!(kernels_for(&l, cc("8.9"), false).kind(), "sass");
        assert_eq!(kernels_for(&l, cc("7.5"), false).kind(), "none");
    }

    #[test]
    fn specific_and_family_targets() {
        let l = parse_arch_list("sm_90a").unwrap();
        assert_eq!(kernels_for(&l, cc("9.0"), false).kind(), "sass");
        assert_eq!(kernels_for(&l, cc("10.0"), false).kind(), "none");
        let l = parse_arch_list("compute_90a").unwrap();
        assert_eq!(kernels_for(&l, cc("10.0"), false).kind(), "none");
        let l = parse_arch_list("sm_100f").unwrap();
        assert_eq!(kernels_for(&l, cc("10.3"), false).kind(), "sass");
        assert_eq!(kernels_for(&l, cc("12.0"), false).kind(), "none");
        let l = parse_arch_list("sm_103f").unwrap();
        assert_eq!(kernels_for(&l, cc("10.0"), false).kind(), "none");
    }

    #[test]
    fn integrated_gpus_need_their_own_sass() {
        let l = parse_arch_list("sm_80 sm_86").unwrap();
        assert_eq!(kernels_for(&l, cc("8.7"), true).kind(), "none");
        let l = parse_arch_list("sm_87").unwrap();
        assert_eq!(kernels_for(&l, cc("8.7"), true).kind(), "sass");
        let l = parse_arch_list("sm_80 compute_80").unwrap();
        assert_eq!(kernels_for(&l, cc("8.7"), true).kind(), "ptx");
    }
}
