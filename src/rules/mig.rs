//! MIG family: Multi-Instance GPU mode and what CUDA sees under it.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::Inventory;
use crate::kb::{driver_meets, Kb};

use super::facts;
use super::{CompatSemantic, Docs, Rule};

pub static RULES: &[&Rule] = &[&MIG001, &MIG002, &MIG003];

pub static MIG001: Rule = Rule {
    code: "MIG001",
    name: "mig-enabled",
    category: Category::Mig,
    severity: Severity::Info,
    summary: "MIG is enabled: CUDA sees MIG devices, addressed by their MIG UUIDs.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "GPUs whose MIG mode is enabled, with their number of GPU instances when known; when no GPU reports its MIG mode, a CUDA_VISIBLE_DEVICES that selects MIG devices (`MIG-<uuid>`), or a pasted report that shows MIG enabled (nvidia-smi's 'Enabled MIG Mode for GPU', a MIG device name).",
        why_it_breaks: "It does not break, but it changes what CUDA sees: a MIG-enabled GPU is not a CUDA device itself; each compute instance is. CUDA_VISIBLE_DEVICES takes MIG UUIDs (`MIG-...`, from `nvidia-smi -L`), and with CUDA 11/R450 and CUDA 12/R525 a process enumerates only one MIG instance, so multi-GPU code sees one small device.",
        how_to_fix: "Address instances by UUID: `CUDA_VISIBLE_DEVICES=MIG-<uuid>` (list them with `nvidia-smi -L`); run one process per instance.",
        sources: &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (CUDA device enumeration, CUDA_VISIBLE_DEVICES with MIG)"],
    },
    check: check_mig001,
    superseded_by: &[],
};

fn mig_gpus<'a>(
    inv: &'a Inventory,
    kb: &'a Kb,
) -> Vec<(
    facts::GpuView<'a>,
    &'a crate::inventory::Fact<crate::inventory::MigInfo>,
)> {
    facts::nvidia_gpus(inv, kb)
        .into_iter()
        .filter_map(|g| {
            let m = g
                .gpu
                .and_then(|x| x.mig.as_ref())
                .filter(|m| m.value.enabled)?;
            Some((g, m))
        })
        .collect()
}

/// MIG device UUIDs selected by CUDA_VISIBLE_DEVICES (`MIG-<uuid>` entries).
fn visible_mig_devices(inv: &Inventory) -> Option<(&crate::inventory::Fact<String>, Vec<&str>)> {
    let v = inv.env.get("CUDA_VISIBLE_DEVICES")?;
    let migs: Vec<&str> = v
        .value
        .split(',')
        .map(|e| e.trim().trim_matches(|c| c == '"' || c == '\''))
        .filter(|e| e.starts_with("MIG-"))
        .collect();
    (!migs.is_empty()).then_some((v, migs))
}

fn check_mig001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let gpus = mig_gpus(inv, kb);
    if gpus.is_empty() {
        // No GPU reports its MIG mode, but MIG devices are selected by UUID: MIG is on.
        let Some((var, migs)) = visible_mig_devices(inv) else {
            return mig_said(inv);
        };
        let f = MIG001
            .finding(format!(
                "CUDA_VISIBLE_DEVICES selects {} MIG device(s): MIG is enabled on a GPU here, so CUDA sees MIG instances, not whole GPUs; with CUDA 11/R450 and CUDA 12/R525 a process enumerates only one MIG instance, and a GPU count taken from NVML rather than from CUDA can differ from what CUDA uses.",
                migs.len()
            ))
            .fact("CUDA_VISIBLE_DEVICES", var);
        return vec![f.fix_note("Check the instance exists and is the one meant: `nvidia-smi -L` lists MIG devices with their UUIDs; select one per process with CUDA_VISIBLE_DEVICES=MIG-<uuid>, and test with a CUDA allocation rather than a device count.")];
    }
    let names: Vec<String> = gpus
        .iter()
        .map(|(g, m)| match m.value.instances {
            Some(n) => format!("{} ({n} GPU instance(s))", g.label),
            None => g.label.clone(),
        })
        .collect();
    let mut f = MIG001.finding(format!(
        "MIG is enabled on {}: CUDA sees MIG devices, not these GPUs; address them as CUDA_VISIBLE_DEVICES=MIG-<uuid> (`nvidia-smi -L`), one instance per process.",
        names.join(", ")
    ));
    for (g, m) in &gpus {
        f = f.evidence(format!("{} MIG mode", g.label), "enabled", &m.source);
    }
    vec![f.fix_note("Nothing to fix; list instances with `nvidia-smi -L` and select one per process with CUDA_VISIBLE_DEVICES=MIG-<uuid>.")]
}

/// A pasted report that says MIG is on (nvidia-smi's "Enabled MIG Mode for
/// GPU ...", a MIG device name) without any GPU's own MIG state.
fn mig_said(inv: &Inventory) -> Vec<Finding> {
    let Some(on) = inv.setting.mig_enabled.as_ref().filter(|f| f.value) else {
        return vec![];
    };
    let f = MIG001
        .finding("The report shows MIG enabled: CUDA sees MIG instances, not whole GPUs, and only the instances that exist; with CUDA 11/R450 and CUDA 12/R525 a process enumerates only one, and programs that expect whole GPUs (device counts from NVML, tools that open every GPU) fail or find nothing.")
        .evidence("MIG enabled", "true", &on.source);
    vec![f.fix_note("List what CUDA can use with `nvidia-smi -L` (MIG devices and their UUIDs) and select one per process with CUDA_VISIBLE_DEVICES=MIG-<uuid>; if the program needs whole GPUs, disable MIG on them: `sudo nvidia-smi -i <N> -mig 0`, then reset the GPU or reboot.")]
}

pub static MIG002: Rule = Rule {
    code: "MIG002",
    name: "mig-enabled-without-instances",
    category: Category::Mig,
    severity: Severity::Warning,
    summary: "MIG is enabled on a GPU that has no GPU instances: CUDA sees no device there.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "GPUs whose MIG mode is enabled and whose GPU-instance count is zero.",
        why_it_breaks: "With MIG on and no instances, the GPU offers CUDA nothing: CUDA reports no device (error 100) for it although nvidia-smi lists it.",
        how_to_fix: "Create instances (`sudo nvidia-smi mig -lgip` to list profiles, `sudo nvidia-smi mig -i <N> -cgi <profile> -C`), or disable MIG (`sudo nvidia-smi -i <N> -mig 0`, then reset the GPU or reboot).",
        sources: &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (creating GPU instances; enabling and disabling MIG)"],
    },
    check: check_mig002,
    superseded_by: &[],
};

fn check_mig002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    mig_gpus(inv, kb)
        .into_iter()
        .filter(|(_, m)| m.value.instances == Some(0))
        .map(|(g, m)| {
            let idx = g.gpu.map_or(0, |x| x.index);
            MIG002
                .finding(format!("MIG is enabled on {} but it has no GPU instances, so CUDA sees no device there.", g.label))
                .evidence(format!("{} MIG GPU instances", g.label), 0, &m.source)
                .fix_command(
                    "sudo nvidia-smi mig -lgip",
                    Some(format!("pick a profile, then `sudo nvidia-smi mig -i {idx} -cgi <profile> -C`; or disable MIG: `sudo nvidia-smi -i {idx} -mig 0`")),
                )
        })
        .collect()
}

pub static MIG003: Rule = Rule {
    code: "MIG003",
    name: "mig-driver-too-old",
    category: Category::Mig,
    severity: Severity::Error,
    summary: "MIG is enabled on a GPU whose MIG support needs a newer driver.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "For MIG-enabled GPUs: the minimum driver for MIG on that GPU model (`mig` table: A100 450.80.02, H100 525.85.12, H200 550.90.07, B200 570.133.20, ...) against the installed driver.",
        why_it_breaks: "MIG on each GPU model arrived with a specific driver; older drivers cannot create or run its instances correctly.",
        how_to_fix: "Upgrade the driver to the model's MIG minimum or newer.",
        sources: &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/620/deployment-considerations.html (minimum drivers)"],
    },
    check: check_mig003,
    superseded_by: &[],
};

fn check_mig003(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(drv) = facts::driver(inv) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (g, m) in mig_gpus(inv, kb) {
        let Some(name) = &g.name else { continue };
        let Some(row) = kb.mig_min_driver(name) else {
            continue;
        };
        if driver_meets(&drv.value, &row.min_driver) {
            continue;
        }
        let mut f = MIG003
            .finding(format!(
                "MIG on {} needs driver {} or newer; driver {} is older.",
                g.label, row.min_driver, drv.value
            ))
            .evidence(format!("{} MIG mode", g.label), "enabled", &m.source)
            .fact("driver version", drv)
            .kb(row.kb());
        f = g.cite_name(f);
        f.fix = Some(super::fix::driver_upgrade_fix(
            inv,
            kb,
            &row.min_driver,
            &format!("MIG on {}", row.gpu),
        ));
        out.push(f);
    }
    out
}
