//! A fix's change in structured form, beside its command text: what the
//! inventory looks like after the fix is applied. The fix property test
//! applies it and re-runs the rules; the finding must be gone.

use crate::inventory::{Fact, Inventory};
use crate::kb::Kb;
use crate::version::{CudaVersion, DriverVersion};

/// Where an applied fix's facts say they came from.
pub const APPLIED: &str = "applied fix";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixAction {
    /// Install torch `release` built for `variant` (`cu118`, `cpu`, `rocm6.2`) into the environment at `env`.
    InstallTorch {
        env: String,
        release: String,
        variant: String,
    },
    /// Install an NVIDIA driver at or above `min`.
    UpgradeDriver { min: DriverVersion },
    /// Set an environment variable.
    SetEnv { name: String, value: String },
    /// Remove an environment variable.
    UnsetEnv { name: String },
}

/// Put the structured change on a finding's fix (which the fix text describes).
pub fn with_actions(
    mut f: crate::finding::Finding,
    actions: Vec<FixAction>,
) -> crate::finding::Finding {
    if let Some(fx) = f.fix.as_mut() {
        fx.actions = actions;
    }
    f
}

impl FixAction {
    /// The inventory after the change. Facts the change makes stale (a
    /// wheel's own arch list, the driver's reported CUDA) are dropped so the
    /// knowledge base answers for the new state.
    pub fn apply(&self, inv: &mut Inventory, kb: &Kb) {
        match self {
            FixAction::InstallTorch {
                env,
                release,
                variant,
            } => {
                let Some(e) = inv.python.iter_mut().find(|e| &e.path == env) else {
                    return;
                };
                let t = e.torch.get_or_insert_with(Default::default);
                t.version = Some(Fact::new(format!("{release}+{variant}"), APPLIED));
                t.cuda = Some(Fact::new(variant.parse::<CudaVersion>().ok(), APPLIED));
                t.hip = variant
                    .strip_prefix("rocm")
                    .map(|r| Fact::new(Some(r.to_string()), APPLIED));
                t.arch_list = None;
                t.cudnn = None;
                t.git_version = None;
                for p in e.packages.iter_mut().filter(|p| p.name == "torch") {
                    p.version = format!("{release}+{variant}");
                }
            }
            FixAction::UpgradeDriver { min } => {
                let n = &mut inv.nvidia;
                let d = Fact::new(min.clone(), APPLIED);
                n.driver_version = Some(d.clone());
                if n.kernel_module.is_some() {
                    n.kernel_module = Some(d.clone());
                }
                for l in &mut n.user_libraries {
                    l.version = d.clone();
                }
                n.cuda_max = None;
                let os = crate::kb::resolve::driver_os(inv);
                if let Some(m) = kb.max_cuda_for_driver(min, os) {
                    inv.nvidia.cuda_max = Some(Fact::new(m.max_cuda, APPLIED));
                }
            }
            FixAction::SetEnv { name, value } => {
                inv.env
                    .insert(name.clone(), Fact::new(value.clone(), APPLIED));
            }
            FixAction::UnsetEnv { name } => {
                inv.env.remove(name);
            }
        }
    }
}
