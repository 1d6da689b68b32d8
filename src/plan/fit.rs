//! What one machine can run, as one set of constraints every fix and every
//! pin is checked against: the driver's newest CUDA under each compatibility
//! semantic, the GPUs' compute capabilities against a wheel's arch list, the
//! architectures' last toolkit and last driver branch, and the OS. The rules'
//! fixes (`rules::fix`) and `pin` (`plan::resolver`) both ask it, so a fix
//! never contradicts the facts a finding rests on.

use crate::inventory::{Inventory, OsKind};
use crate::kb::resolve::{self, CudaMax};
use crate::kb::{driver_meets, Kb, Semantic};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

/// How a driver runs a CUDA version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Runs {
    /// Not at all: another major, below the minor-version floor, or past an architecture's last toolkit.
    No,
    /// Under minor-version compatibility: same major, limited features, no JIT of newer PTX.
    MinorCompat,
    /// Nothing is known about the driver: not ruled out, not confirmed.
    Unknown,
    /// With no caveats (the toolkit semantic).
    Toolkit,
}

/// One machine's constraints.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    pub os: OsKind,
    pub driver: Option<DriverVersion>,
    /// The newest CUDA with no caveats, and whether it is only a lower bound.
    pub cuda_max: Option<(CudaVersion, bool)>,
    /// The newest CUDA under minor-version compatibility.
    pub cuda_max_minor: Option<CudaVersion>,
    /// Every GPU's compute capability that is known.
    pub ccs: Vec<ComputeCapability>,
    /// The newest CUDA every GPU's architecture is still targeted by.
    pub arch_last_toolkit: Option<CudaVersion>,
    /// The newest driver branch that still drives every GPU.
    pub last_branch: Option<u32>,
}

impl Limits {
    /// The constraints of an inventory, from its resolved view.
    pub fn of(inv: &Inventory, kb: &Kb) -> Limits {
        let gpus = resolve::gpus(inv, kb);
        let toolkit = resolve::driver_cuda_max(inv, kb);
        Limits {
            os: resolve::driver_os(inv),
            driver: inv.driver_version().map(|d| d.value.clone()),
            cuda_max_minor: toolkit
                .as_ref()
                .and_then(|t| resolve::driver_cuda_max_minor(inv, kb, t))
                .map(|m| m.value),
            cuda_max: toolkit.map(|t| (t.value, t.at_least)),
            ccs: gpus
                .iter()
                .filter_map(|g| g.cc.as_ref().map(|c| c.value))
                .collect(),
            arch_last_toolkit: gpus
                .iter()
                .filter_map(|g| g.arch.and_then(|a| a.last_toolkit))
                .map(|c| c.major_minor())
                .min(),
            last_branch: gpus.iter().filter_map(|g| g.last_branch()).min(),
        }
    }

    /// A machine known only by its driver number, OS and GPUs (`pin --driver`, tests).
    pub fn new(
        kb: &Kb,
        driver: Option<&DriverVersion>,
        os: OsKind,
        ccs: &[ComputeCapability],
    ) -> Limits {
        let toolkit = driver
            .and_then(|d| kb.max_cuda_for_driver(d, os))
            .map(|m| CudaMax {
                value: m.max_cuda,
                source: String::new(),
                kb: Some(m.kb),
                from_driver: false,
                at_least: m.at_least,
            });
        let archs: Vec<_> = ccs.iter().filter_map(|c| kb.architecture(*c)).collect();
        Limits {
            os,
            driver: driver.cloned(),
            cuda_max_minor: toolkit
                .as_ref()
                .and_then(|t| resolve::cuda_max_minor(kb, os, driver, t))
                .map(|m| m.value),
            cuda_max: toolkit.map(|t| (t.value, t.at_least)),
            ccs: ccs.to_vec(),
            arch_last_toolkit: archs
                .iter()
                .filter_map(|a| a.last_toolkit)
                .map(|c| c.major_minor())
                .min(),
            last_branch: archs
                .iter()
                .filter_map(|a| a.last_driver_branch.as_ref())
                .map(|b| b.branch())
                .min(),
        }
    }

    /// The same machine, with the newest CUDA its driver itself reported.
    pub fn with_reported_cuda_max(mut self, kb: &Kb, reported: CudaVersion) -> Limits {
        let t = CudaMax {
            value: reported.major_minor(),
            source: String::new(),
            kb: None,
            from_driver: true,
            at_least: false,
        };
        self.cuda_max_minor =
            resolve::cuda_max_minor(kb, self.os, self.driver.as_ref(), &t).map(|m| m.value);
        self.cuda_max = Some((t.value, false));
        self
    }

    /// Does this machine run CUDA `v`?
    pub fn runs(&self, kb: &Kb, v: &CudaVersion) -> Runs {
        let v = v.major_minor();
        if self.arch_last_toolkit.is_some_and(|last| v > last) {
            return Runs::No;
        }
        let by_driver = |d: &DriverVersion| {
            kb.min_driver_for_cuda(&v, self.os, Semantic::Toolkit)
                .map(|m| driver_meets(d, &m.driver))
        };
        let toolkit_ok = match (self.cuda_max, &self.driver) {
            (Some((max, _)), _) if v <= max => Some(true),
            (Some((max, true)), _) if v.major == max.major => Some(true),
            // Newer than the table's newest driver: only a stated minimum decides.
            (Some((_, true)), Some(d)) => by_driver(d),
            (Some(_), _) => Some(false),
            (None, Some(d)) => by_driver(d),
            (None, None) => None,
        };
        match toolkit_ok {
            Some(true) => Runs::Toolkit,
            None => Runs::Unknown,
            Some(false) => match self.cuda_max_minor {
                Some(m) if v.major == m.major && v <= m && v.major >= 11 => Runs::MinorCompat,
                _ => Runs::No,
            },
        }
    }

    /// The driver is on the last branch that drives some GPU here (or past it).
    pub fn on_last_branch(&self) -> bool {
        match (&self.driver, self.last_branch) {
            (Some(d), Some(last)) => d.branch() >= last,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuda(s: &str) -> CudaVersion {
        s.parse().unwrap()
    }

    #[test]
    fn a_driver_known_only_by_its_cuda_runs_older_minors_of_its_major() {
        let kb = Kb::embedded();
        let mut inv = Inventory::new("test");
        inv.nvidia.cuda_max = Some(crate::inventory::Fact::new(cuda("11.4"), "input line 1"));
        let l = Limits::of(&inv, kb);
        assert_eq!(l.runs(kb, &cuda("11.2")), Runs::Toolkit);
        assert_eq!(l.runs(kb, &cuda("11.8")), Runs::MinorCompat);
        assert_eq!(l.runs(kb, &cuda("12.4")), Runs::No);
        assert_eq!(l.runs(kb, &cuda("12.1")), Runs::No);
    }

    #[test]
    fn an_unknown_driver_rules_nothing_out_but_the_gpu_does() {
        let kb = Kb::embedded();
        let l = Limits {
            arch_last_toolkit: Some(cuda("11.8")),
            ..Default::default()
        };
        assert_eq!(l.runs(kb, &cuda("11.8")), Runs::Unknown);
        assert_eq!(l.runs(kb, &cuda("12.1")), Runs::No);
    }
}
