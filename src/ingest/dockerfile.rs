//! Dockerfiles: the `FROM` image of the final stage (with `ARG` defaults
//! substituted and stage names followed) and the GPU-related `ENV` lines.
//! An `nvidia/cuda:12.4.1-...` base sets `CUDA_VERSION=12.4.1` in the image,
//! which is what the container runtime's requirement check compares with the
//! host driver.

use std::collections::BTreeMap;

use super::env::is_gpu_var;
use super::{put, Builder, Doc};
use crate::inventory::Fact;
use crate::version::CudaVersion;

struct From {
    image: String,
    alias: Option<String>,
    src: String,
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    cdi_spec(doc, b);
    let mut args: BTreeMap<String, String> = BTreeMap::new();
    let mut froms: Vec<From> = Vec::new();
    let mut envs: Vec<(String, String, String)> = Vec::new();
    for line in &doc.lines {
        let t = line.text.trim();
        let src: &str = &line.src;
        if !matches!(
            t.as_bytes().first(),
            Some(b'A' | b'F' | b'E' | b'a' | b'f' | b'e')
        ) {
            continue;
        }
        let Some((instr, rest)) = t.split_once(char::is_whitespace) else {
            continue;
        };
        let rest = rest.trim();
        let upper = ["ARG", "FROM", "ENV"]
            .iter()
            .find(|k| instr.eq_ignore_ascii_case(k));
        let Some(&instr_uc) = upper else {
            continue;
        };
        match instr_uc {
            "ARG" => {
                if let Some((k, v)) = rest.split_once('=') {
                    args.insert(k.trim().to_string(), v.trim().trim_matches('"').to_string());
                }
            }
            "FROM" if instr == "FROM" || instr == "from" => {
                let mut toks = rest
                    .split_whitespace()
                    .filter(|t| !t.starts_with("--platform="));
                let Some(image) = toks.next() else { continue };
                // A compiler's `In file included from ./src/gemm.h:3,` continues
                // with `from PATH:LINE`: a file, not an image reference.
                if image.starts_with(['.', '/']) || image.ends_with([':', ',']) {
                    continue;
                }
                let (next, name) = (toks.next(), toks.next());
                // `FROM image [AS name]` only: Python's `from x.y import z` is no Dockerfile.
                let alias = match (next, name) {
                    (Some(a), Some(name)) if a.eq_ignore_ascii_case("as") => Some(name.to_string()),
                    (None, _) => None,
                    _ => continue,
                };
                froms.push(From {
                    image: substitute(image, &args),
                    alias,
                    src: src.to_string(),
                });
            }
            "ENV" if !froms.is_empty() && instr == "ENV" => {
                for (k, v) in env_pairs(rest) {
                    if is_gpu_var(&k) {
                        envs.push((k, v, src.to_string()));
                    }
                }
            }
            _ => {}
        }
    }
    let Some(last) = froms.last() else { return };
    // Follow `FROM base` to the stage called `base`.
    let mut image = last.image.clone();
    let mut src = last.src.clone();
    for _ in 0..froms.len() {
        match froms
            .iter()
            .find(|f| f.alias.as_deref() == Some(image.as_str()))
        {
            Some(f) => {
                image = f.image.clone();
                src = f.src.clone();
            }
            None => break,
        }
    }
    put(
        &mut b.inv.container.runtime,
        Fact::new("docker".to_string(), &src).with_note("the input is a Dockerfile"),
        &mut b.notes,
        "container runtime",
    );
    image_facts(b, &image, &format!("{src} (FROM {image})"));
    for (k, v, s) in envs {
        b.env_var(&k, &v, &s);
    }
}

fn substitute(s: &str, args: &BTreeMap<String, String>) -> String {
    let mut out = s.to_string();
    for (k, v) in args {
        out = out
            .replace(&format!("${{{k}}}"), v)
            .replace(&format!("${k}"), v);
    }
    out
}

/// `A=1 B="x y"` or the legacy `A value with spaces`.
fn env_pairs(rest: &str) -> Vec<(String, String)> {
    let first = rest.split_whitespace().next().unwrap_or("");
    if !first.contains('=') {
        let (k, v) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        return vec![(k.to_string(), v.trim().trim_matches('"').to_string())];
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in rest.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if let Some((k, v)) = cur.split_once('=') {
                    out.push((k.to_string(), v.to_string()));
                }
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    if let Some((k, v)) = cur.split_once('=') {
        out.push((k.to_string(), v.to_string()));
    }
    out
}

fn image_facts(b: &mut Builder, image: &str, src: &str) {
    let (repo, tag) = match image.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, t),
        _ => (image, "latest"),
    };
    let repo = repo
        .trim_start_matches("docker.io/")
        .trim_start_matches("library/");
    let lead_version = |t: &str| -> String {
        t.chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect::<String>()
            .trim_end_matches('.')
            .to_string()
    };
    match repo {
        "nvidia/cuda" | "nvcr.io/nvidia/cuda" => {
            let v = lead_version(tag);
            if v.parse::<CudaVersion>().is_ok() {
                b.env_var("CUDA_VERSION", &v, src);
            }
        }
        "pytorch/pytorch" => {
            // `2.1.0-cuda12.1-cudnn8-runtime`
            let v = lead_version(tag);
            if !v.is_empty() {
                b.package("torch", &v, src);
            }
            if let Some(p) = tag.find("-cuda") {
                let c: String = tag[p + 5..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                if let Ok(c) = c.parse::<CudaVersion>() {
                    b.torch_cuda(Fact::new(Some(c), src));
                }
            }
        }
        "tensorflow/tensorflow" => {
            let v = lead_version(tag);
            if !v.is_empty() {
                b.package("tensorflow", &v, src);
            }
        }
        r if r.starts_with("rocm/") => {
            if let Some(p) = tag.find("rocm") {
                let v: String = tag[p + 4..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                if !v.is_empty() {
                    put(
                        &mut b.inv.amd.rocm_version,
                        Fact::new(v, src),
                        &mut b.notes,
                        "ROCm version",
                    );
                }
            }
        }
        _ => {}
    }
}

/// A pasted CDI spec: the device nodes listed under its `containerEdits:`
/// (`deviceNodes:` then `- path: /dev/...` rows) are given to every container
/// that asks for a GPU. CUDA needs /dev/nvidia-uvm among them; a spec written
/// before the nvidia-uvm module had made its nodes lacks it.
fn cdi_spec(doc: &Doc, b: &mut Builder) {
    let mut in_edits: Option<usize> = None;
    let mut nodes: Vec<(String, String)> = Vec::new();
    for line in &doc.lines {
        let raw = &*line.text;
        let t = raw.trim();
        let indent = raw.len() - raw.trim_start().len();
        if t == "containerEdits:" {
            in_edits = Some(indent);
            continue;
        }
        let Some(at) = in_edits else {
            continue;
        };
        if t.is_empty() {
            continue;
        }
        // The block ends at a line back at its own indentation (or a fence, an elision).
        let ends = (indent <= at && !t.starts_with('-'))
            || t.starts_with("```")
            || t == "..."
            || t == "---";
        if ends {
            // The first block that listed device nodes is the spec's.
            if !nodes.is_empty() {
                break;
            }
            in_edits = None;
            continue;
        }
        if let Some(p) = t
            .strip_prefix("- path:")
            .or_else(|| t.strip_prefix("path:"))
        {
            let p = p.trim().trim_matches('"');
            if p.starts_with("/dev/nvidia") {
                nodes.push((p.to_string(), line.src.clone()));
            }
        }
    }
    let Some((_, src)) = nodes.first() else {
        return;
    };
    let uvm = nodes.iter().any(|(p, _)| p == "/dev/nvidia-uvm");
    b.inv.setting.cdi_spec_uvm = Some(
        crate::inventory::Fact::new(uvm, src.as_str())
            .with_note("the device nodes of the CDI spec's containerEdits"),
    );
}

#[cfg(test)]
mod python_import_tests {
    use crate::ingest::ingest;

    #[test]
    fn a_python_import_is_not_a_from_line() {
        let inv = ingest(&[(
            "t".to_string(),
            "from tensorflow.python.client import device_lib\nfrom torch import nn\n".to_string(),
        )]);
        assert!(inv.container.runtime.is_none());
        let inv = ingest(&[(
            "t".to_string(),
            "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS base\n".to_string(),
        )]);
        assert!(inv.container.runtime.is_some());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::clean;

    fn run(text: &str) -> crate::inventory::Inventory {
        let doc = clean("input", text);
        let mut b = Builder::new("t");
        parse(&doc, &mut b);
        b.finish()
    }

    #[test]
    fn a_cdi_spec_names_whether_it_gives_nvidia_uvm() {
        let spec = "cdiVersion: 0.5.0\ncontainerEdits:\n  deviceNodes:\n  - path: /dev/nvidiactl\n  hooks:\n  - args:\n    - nvidia-ctk\n...\n";
        let inv = run(spec);
        let f = inv.setting.cdi_spec_uvm.as_ref().unwrap();
        assert!(!f.value);
        assert_eq!(f.source, "input line 4");
        let full = "containerEdits:\n  deviceNodes:\n  - path: /dev/nvidia-modeset\n  - path: /dev/nvidia-uvm\n  - path: /dev/nvidia-uvm-tools\n  - path: /dev/nvidiactl\nkind: nvidia.com/gpu\n";
        assert!(run(full).setting.cdi_spec_uvm.unwrap().value);
        // No device nodes under containerEdits: nothing said.
        assert!(run(
            "containerEdits:\n  env:\n  - NVIDIA_VISIBLE_DEVICES=void\nkind: nvidia.com/gpu\n"
        )
        .setting
        .cdi_spec_uvm
        .is_none());
    }

    #[test]
    fn multi_stage_with_args() {
        let inv = run("ARG CUDA=12.4.1
FROM nvidia/cuda:${CUDA}-devel-ubuntu22.04 AS build
RUN make
FROM nvidia/cuda:${CUDA}-cudnn-runtime-ubuntu22.04 AS runtime
ENV NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility
ENV LD_LIBRARY_PATH /usr/local/cuda/lib64
ENV HOME=/root
");
        let e = &inv.env["CUDA_VERSION"];
        assert_eq!(e.value, "12.4.1");
        assert!(e.source.starts_with("input line 4"));
        assert_eq!(
            inv.env["NVIDIA_DRIVER_CAPABILITIES"].value,
            "compute,utility"
        );
        assert_eq!(inv.env["LD_LIBRARY_PATH"].value, "/usr/local/cuda/lib64");
        assert!(!inv.env.contains_key("HOME"));
        assert_eq!(inv.container.runtime.as_ref().unwrap().value, "docker");
    }

    #[test]
    fn stage_alias_is_followed() {
        let inv = run("FROM nvidia/cuda:11.8.0-base-ubuntu22.04 AS base\nFROM base\n");
        assert_eq!(inv.env["CUDA_VERSION"].value, "11.8.0");
    }

    #[test]
    fn pytorch_image() {
        let inv = run("FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime");
        let t = inv.python[0].torch.as_ref().unwrap();
        assert_eq!(
            t.cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(12, 1))
        );
        assert_eq!(t.version.as_ref().unwrap().value, "2.1.0");
    }

    #[test]
    fn prose_from_is_not_a_dockerfile() {
        let inv = run("From the logs I can see the error\nENV CUDA_HOME=/x");
        assert!(inv.container.runtime.is_none());
        assert!(inv.env.is_empty());
    }
}
