//! The Dockerfile `pin` writes: FROM the official image, the pinned wheels
//! from their index, nothing that installs a second CUDA, and a LABEL that
//! carries the pins. `gpucompat lint` finds nothing in it.

use crate::plan::image::package_manager;
use crate::plan::resolver::{Plan, Stack, StackKind};

fn header(plan: &Plan, stack: &Stack) -> String {
    let mut what = Vec::new();
    if let Some(c) = stack.cuda.as_ref().and_then(|c| c.value.as_ref()) {
        what.push(format!("CUDA {c}"));
    }
    if let Some(d) = stack.min_driver.as_ref().and_then(|d| d.value.as_ref()) {
        what.push(format!("driver >= {d}"));
    }
    if let Some(r) = stack.rocm.as_ref().and_then(|r| r.value.as_ref()) {
        what.push(format!("ROCm {r}"));
    }
    if stack.kind == StackKind::Cpu || stack.kind == StackKind::Mps {
        what.push("CPU".into());
    }
    let mut out = format!(
        "# gpucompat pin ({}): stack {} for {} ({})",
        crate::plan::formats::semantics_label(plan, stack),
        stack.id,
        crate::plan::formats::stack_target(stack),
        what.join(", ")
    );
    for n in crate::plan::formats::stack_notes(stack) {
        out.push_str(&format!("\n# {n}"));
    }
    out
}

fn label(stack: &Stack) -> String {
    let mut kv: Vec<(String, String)> = vec![(
        "io.gpucompat.stack".into(),
        format!("{:?}", stack.kind).to_lowercase(),
    )];
    if let Some(c) = stack.cuda.as_ref().and_then(|c| c.value.clone()) {
        kv.push(("io.gpucompat.cuda".into(), c));
    }
    if let Some(d) = stack.min_driver.as_ref().and_then(|d| d.value.clone()) {
        kv.push(("io.gpucompat.min-driver".into(), d));
    }
    if let Some(r) = stack.rocm.as_ref().and_then(|r| r.value.clone()) {
        kv.push(("io.gpucompat.rocm".into(), r));
    }
    let pins: Vec<&str> = stack
        .packages
        .iter()
        .filter_map(|p| p.requirement.as_deref())
        .collect();
    kv.push(("io.gpucompat.pins".into(), pins.join(" ")));
    kv.push(("io.gpucompat.hosts".into(), stack.hosts.join(",")));
    if let Some(g) = &stack.gpu_selection {
        let list: Vec<String> = g.gpus.iter().map(u32::to_string).collect();
        kv.push(("io.gpucompat.gpus".into(), list.join(",")));
    }
    let body: Vec<String> = kv
        .iter()
        .map(|(k, v)| format!("{k}=\"{}\"", v.replace('"', "'")))
        .collect();
    format!("LABEL {}", body.join(" \\\n      "))
}

/// pip install lines, one per index, in package order.
fn pip_lines(stack: &Stack, pip: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut groups: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for p in &stack.packages {
        let Some(r) = &p.requirement else {
            out.push(format!(
                "# {}: {}",
                p.package,
                p.note.as_deref().unwrap_or("unknown")
            ));
            continue;
        };
        match groups.iter_mut().find(|(i, _)| *i == p.index_url) {
            Some((_, v)) => v.push(r.clone()),
            None => groups.push((p.index_url.clone(), vec![r.clone()])),
        }
    }
    for (index, reqs) in groups {
        let quoted: Vec<String> = reqs
            .iter()
            .map(|r| {
                if r.contains(['[', '*', '>', '<']) {
                    format!("\"{r}\"")
                } else {
                    r.clone()
                }
            })
            .collect();
        match index {
            Some(i) => out.push(format!(
                "RUN {pip} install --index-url {i} {}",
                quoted.join(" ")
            )),
            None => out.push(format!("RUN {pip} install {}", quoted.join(" "))),
        }
    }
    out
}

/// The Dockerfile for one stack.
pub fn render(plan: &Plan, stack: &Stack) -> String {
    let mut l: Vec<String> = vec!["# syntax=docker/dockerfile:1".into(), header(plan, stack)];
    match (&stack.kind, &stack.image) {
        (StackKind::Cuda, Some(img)) => {
            l.push(format!("FROM {}", img.reference));
            l.push(label(stack));
            let cuda = stack.cuda.as_ref().and_then(|c| c.value.clone());
            let mut env = vec![
                "DEBIAN_FRONTEND=noninteractive".to_string(),
                "PIP_NO_CACHE_DIR=1".to_string(),
                "PATH=/opt/venv/bin:$PATH".to_string(),
            ];
            if let Some(r) = &stack.require_override {
                l.push(format!(
                    "# the wheels carry CUDA {}, newer than the image's {}.{}: check what they need at container start",
                    cuda.as_deref().unwrap_or("?"),
                    img.cuda.major,
                    img.cuda.minor
                ));
                env.push(format!("NVIDIA_REQUIRE_CUDA=\"{r}\""));
            }
            l.push(format!("ENV {}", env.join(" ")));
            match package_manager(&img.os) {
                Some("dnf") => l.push(
                    "RUN dnf install -y python3 python3-pip && dnf clean all \\\n && python3 -m venv /opt/venv"
                        .into(),
                ),
                _ => l.push(
                    "RUN apt-get update \\\n && apt-get install -y --no-install-recommends python3 python3-venv python3-pip \\\n && rm -rf /var/lib/apt/lists/* \\\n && python3 -m venv /opt/venv"
                        .into(),
                ),
            }
            if let Some(c) = &cuda {
                l.push(format!(
                    "# the wheels bring their own CUDA {c} runtime libraries; nothing here installs another CUDA or a driver"
                ));
            }
            l.extend(pip_lines(stack, "pip"));
        }
        (StackKind::Cuda, None) => {
            l.push("# no nvidia/cuda image in the knowledge base fits this stack; see `gpucompat pin --format pins`".into());
            return l.join("\n") + "\n";
        }
        (kind, _) => {
            let py = stack
                .python
                .as_ref()
                .and_then(|p| p.value.clone())
                .unwrap_or_else(|| "3".into());
            l.push(format!("FROM python:{py}-slim"));
            l.push(label(stack));
            l.push("ENV PIP_NO_CACHE_DIR=1".into());
            match kind {
                StackKind::Rocm => l.push(
                    "# run with --device /dev/kfd --device /dev/dri --group-add video; the wheels bring their own ROCm libraries".into(),
                ),
                StackKind::Mps => l.push(
                    "# containers on macOS have no GPU: this image runs torch on the CPU (use the requirements output on the Mac itself)".into(),
                ),
                _ => l.push("# CPU only: no GPU driver or CUDA needed".into()),
            }
            let mut s = stack.clone();
            if *kind == StackKind::Mps {
                for p in &mut s.packages {
                    if let (Some(v), Some(_)) = (&p.version, &p.requirement) {
                        let base = v.split('+').next().unwrap_or(v).to_string();
                        p.version = Some(format!("{base}+cpu"));
                        p.requirement = Some(format!("{}=={base}+cpu", p.package));
                        p.index_url = Some(crate::plan::resolver::torch_index_url("cpu"));
                    }
                }
            }
            l.extend(pip_lines(&s, "pip"));
        }
    }
    l.join("\n") + "\n"
}
