//! One host whose GPUs no single torch build covers (a Pascal card next to a
//! Blackwell one): a stack per GPU group, each process selecting its GPUs,
//! with which GPU limits which way, and the choice of dropping the old GPU.

use super::*;

pub(super) struct SplitStacks {
    pub(super) stacks: Vec<Stack>,
    pub(super) summary: GpuSplit,
}

fn subset(spec: &HostSpec, idx: &[usize]) -> HostSpec {
    let mut s = spec.clone();
    s.gpus = idx.iter().map(|&i| spec.gpus[i].clone()).collect();
    s
}

fn selection(spec: &HostSpec, idx: &[usize]) -> GpuSelection {
    let gpus: Vec<u32> = idx.iter().map(|&i| spec.gpus[i].index).collect();
    let list = gpus
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    GpuSelection {
        host: spec.name.clone(),
        gpus,
        env: format!("CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES={list}"),
        docker: format!("docker run --gpus '\"device={list}\"'"),
    }
}

fn resolve_subset(
    kb: &Kb,
    spec: &HostSpec,
    idx: &[usize],
    req: &PlanRequest,
    mode: SemanticMode,
) -> Result<Stack, NoStack> {
    let sub = subset(spec, idx);
    let ctx = host_ctx(kb, &sub);
    let mut s = resolve_cuda(kb, &[&ctx], req, mode)?;
    s.gpu_selection = Some(selection(spec, idx));
    Ok(s)
}

fn gpu_names(spec: &HostSpec, kb: &Kb, idx: &[usize]) -> String {
    idx.iter()
        .map(|&i| {
            let g = &spec.gpus[i];
            match &g.cc {
                Some(cc) => match kb.architecture(cc.value) {
                    Some(a) => format!("{} ({}, {})", g.label(), cc.value, a.name),
                    None => format!("{} ({})", g.label(), cc.value),
                },
                None => g.label(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn build_name(s: &Stack) -> String {
    s.torch()
        .and_then(|t| t.version.clone())
        .map_or_else(|| "its build".to_string(), |v| format!("torch {v}"))
}

/// Why stack `s`'s torch build does not run on the GPUs `idx` of `spec`.
fn misfit_on(kb: &Kb, spec: &HostSpec, idx: &[usize], s: &Stack) -> Option<Misfit> {
    let (row, variant) = stack_build(kb, s)?;
    let sub = subset(spec, idx);
    let ctx = host_ctx(kb, &sub);
    try_torch(
        kb,
        &[&ctx],
        row,
        &variant,
        false,
        s.semantic.unwrap_or(Semantic::Toolkit),
    )
    .err()
}

/// What a misfit says about the GPU, without naming it again.
fn misfit_reason(m: &Misfit) -> String {
    match m {
        Misfit::NoKernel { reason, .. } => format!("{reason}; no driver changes that"),
        m => m.to_string(),
    }
}

/// A stack per GPU group for a host no single stack covers; None when that
/// does not help (one group, or a GPU that gets nothing even alone).
pub(super) fn split_gpus(
    kb: &Kb,
    host: &HostCtx<'_>,
    req: &PlanRequest,
    mode: SemanticMode,
    why: &NoStack,
    first_id: usize,
) -> Option<SplitStacks> {
    let driver_fix = match &why.limit {
        Limit::GpuMix => None,
        Limit::Driver {
            build: Some(b),
            driver,
        } => Some((b.clone(), driver.clone())),
        _ => return None,
    };
    let spec = host.spec;
    if spec.gpus.len() < 2 {
        return None;
    }
    // Each GPU joins the first group it still shares a stack with.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..spec.gpus.len() {
        let mut placed = false;
        for g in groups.iter_mut() {
            let mut trial = g.clone();
            trial.push(i);
            if resolve_subset(kb, spec, &trial, req, mode).is_ok() {
                g.push(i);
                placed = true;
                break;
            }
        }
        if !placed {
            groups.push(vec![i]);
        }
    }
    if groups.len() < 2 {
        return None;
    }
    let mut stacks = Vec::new();
    for g in &groups {
        stacks.push(resolve_subset(kb, spec, g, req, mode).ok()?);
    }
    for (k, s) in stacks.iter_mut().enumerate() {
        s.id = first_id + k;
    }
    // The oldest architecture first: the GPUs that hold the others back.
    let min_cc = |g: &Vec<usize>| {
        g.iter()
            .filter_map(|&i| spec.gpus[i].cc.as_ref().map(|c| c.value))
            .min()
    };
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&k| (min_cc(&groups[k]), k));
    let driver = spec
        .driver
        .as_ref()
        .map_or("unknown".to_string(), |d| d.value.to_string());
    let all: Vec<usize> = (0..spec.gpus.len()).collect();
    let mut lines = Vec::new();
    lines.push(match &driver_fix {
        None => format!(
            "host {}: no torch build in the knowledge base has kernels for all of {} at once, whatever the driver: the driver ({driver}) is not the limit, the GPUs together are",
            spec.name,
            gpu_names(spec, kb, &all)
        ),
        Some((b, d)) => format!(
            "host {}: torch {b} has kernels for every GPU, but driver {driver} does not run it{}",
            spec.name,
            d.as_ref()
                .map(|d| format!(" (it needs {d} or newer)"))
                .unwrap_or_default()
        ),
    });
    let labels = |idx: &[usize]| {
        idx.iter()
            .map(|&i| spec.gpus[i].label())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for w in order.windows(2) {
        let (old, new) = (w[0], w[1]);
        let (old_s, new_s) = (&stacks[old], &stacks[new]);
        let (old_names, new_names) = (labels(&groups[old]), labels(&groups[new]));
        let firsts: Vec<String> = groups[new]
            .iter()
            .filter_map(|&i| {
                let cc = spec.gpus[i].cc.as_ref()?.value;
                let a = kb.architecture(cc)?;
                Some(format!(
                    "{} needs CUDA {} or newer",
                    a.name, a.first_toolkit?
                ))
            })
            .collect();
        let mut line = format!(
            "{new_names} needs builds that {old_names} cannot use{}: {}, the newest build for {old_names}, does not run on it",
            if firsts.is_empty() {
                String::new()
            } else {
                format!(" ({})", firsts.join("; "))
            },
            build_name(old_s)
        );
        if let Some(m) = misfit_on(kb, spec, &groups[new], old_s) {
            line.push_str(&format!(": {}", misfit_reason(&m)));
        }
        lines.push(line);
        let lasts: Vec<String> = groups[old]
            .iter()
            .filter_map(|&i| {
                let cc = spec.gpus[i].cc.as_ref()?.value;
                let a = kb.architecture(cc)?;
                Some(format!(
                    "{} is supported through CUDA {}",
                    a.name, a.last_toolkit?
                ))
            })
            .collect();
        let mut line = format!(
            "{old_names} rules out the builds {new_names} needs{}: {}, the newest build for {new_names}, does not run on it",
            if lasts.is_empty() {
                String::new()
            } else {
                format!(" ({})", lasts.join("; "))
            },
            build_name(new_s)
        );
        if let Some(m) = misfit_on(kb, spec, &groups[old], new_s) {
            line.push_str(&format!(": {}", misfit_reason(&m)));
        }
        lines.push(line);
    }
    let mut choices = Vec::new();
    let per_group: Vec<String> = (0..groups.len())
        .map(|k| {
            let s = &stacks[k];
            let sel = s.gpu_selection.as_ref().map_or(String::new(), |g| {
                format!("{} (in a container: {})", g.env, g.docker)
            });
            format!(
                "stack {} ({}) on {}: {sel}",
                s.id,
                build_name(s),
                labels(&groups[k])
            )
        })
        .collect();
    choices.push(format!(
        "one stack per GPU group, each process (or container) selecting its GPUs: {}",
        per_group.join("; ")
    ));
    // Dropping the GPUs that hold the others back leaves the newest stack.
    let newest = *order.last().unwrap_or(&0);
    let old: Vec<usize> = order[..order.len() - 1]
        .iter()
        .flat_map(|&k| groups[k].iter().copied())
        .collect();
    choices.push(format!(
        "remove or replace {}: the rest of the host then runs stack {} ({}) alone",
        gpu_names(spec, kb, &old),
        stacks[newest].id,
        build_name(&stacks[newest])
    ));
    if let Some((b, Some(d))) = &driver_fix {
        choices.push(format!(
            "upgrade the driver to {d} or newer: then torch {b} runs on every GPU as one stack"
        ));
    }
    let ids = stacks.iter().map(|s| s.id).collect();
    Some(SplitStacks {
        stacks,
        summary: GpuSplit {
            host: spec.name.clone(),
            driver_limited: driver_fix.is_some(),
            why: lines,
            choices,
            stacks: ids,
        },
    })
}
