//! `nvcc --version` (and the old `/usr/local/cuda/version.txt`): which CUDA
//! toolkit is on PATH. This is the compiler, not the runtime a wheel brings.

use super::clean::has;
use super::gate::Gate;
use super::{Builder, Doc};
use crate::inventory::{Fact, Toolkit};
use crate::version::CudaVersion;

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut nvcc_path: Option<String> = None;
    let mut distro_toolkit = false;
    for line in &doc.lines {
        if line.command().is_none() && !line.gate(Gate::Nvcc) {
            continue;
        }
        let t = line.text.trim();
        let src: &str = &line.src;
        let cmd = line.command().unwrap_or(t);
        if let Some(p) = nvcc_path_in(cmd) {
            nvcc_path = Some(p);
        }
        // Usually a line of its own; apex's setup.py prints nvcc's output joined into one line.
        let tools = t
            .find("Cuda compilation tools, release ")
            .map(|p| &t[p + "Cuda compilation tools, release ".len()..]);
        if let Some(rest) = tools {
            let rest = rest
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ");
            let rest = rest.as_str();
            // `12.4, V12.4.131`
            let full = rest.split(", V").nth(1).map(str::trim);
            let short = rest.split(',').next().map(str::trim);
            let v = full
                .and_then(|f| f.parse::<CudaVersion>().ok())
                .or_else(|| short.and_then(|s| s.parse::<CudaVersion>().ok()));
            if let Some(v) = v {
                let path = nvcc_path
                    .take()
                    .unwrap_or_else(|| "nvcc on PATH".to_string());
                add(b, path, v, src, true);
            }
            continue;
        }
        // `apt show nvidia-cuda-toolkit`: Debian's toolkit, nvcc in /usr/bin.
        if t == "Package: nvidia-cuda-toolkit" {
            distro_toolkit = true;
            continue;
        }
        if distro_toolkit {
            if let Some(v) = t.strip_prefix("Version: ") {
                distro_toolkit = false;
                let v = v.split(['-', '~', '+']).next().unwrap_or("");
                if let Ok(v) = v.parse::<CudaVersion>() {
                    add(b, "/usr (nvidia-cuda-toolkit)".to_string(), v, src, true);
                }
                continue;
            }
        }
        if device_query(t, src, b) {
            continue;
        }
        if let Some(rest) = t.strip_prefix("CUDA Version ") {
            if let Ok(v) = rest.trim().parse::<CudaVersion>() {
                add(b, "/usr/local/cuda".to_string(), v, src, false);
            }
            continue;
        }
        if has(t, "nvcc: command not found")
            || has(t, "'nvcc' is not recognized")
            || has(t, "Command 'nvcc' not found")
        {
            b.note("nvcc", format!("no nvcc on PATH ({src})"));
        }
    }
}

/// The CUDA sample deviceQuery: `CUDA Driver Version / Runtime Version  12.4 / 12.1`
/// is the driver's newest CUDA (cuDriverGetVersion) and the runtime the sample
/// was built with; `CUDA Capability Major/Minor version number:  8.6` is the
/// device's compute capability. True when the line was one of them.
fn device_query(t: &str, src: &str, b: &mut Builder) -> bool {
    if let Some(rest) = t.strip_prefix("CUDA Driver Version / Runtime Version") {
        let mut v = rest.split('/').map(|s| s.trim().parse::<CudaVersion>());
        if let (Some(Ok(driver)), Some(Ok(runtime))) = (v.next(), v.next()) {
            if b.inv.nvidia.cuda_max.is_none() {
                b.inv.nvidia.cuda_max =
                    Some(Fact::new(driver, src).with_note("deviceQuery's CUDA Driver Version"));
            }
            add(
                b,
                "CUDA runtime of deviceQuery".to_string(),
                runtime,
                src,
                false,
            );
        }
        return true;
    }
    if let Some(rest) = t.strip_prefix("CUDA Capability Major/Minor version number:") {
        if let Ok(cc) = rest.trim().parse::<crate::version::ComputeCapability>() {
            let g = b.gpu(0);
            if g.compute_capability.is_none() {
                g.compute_capability = Some(Fact::new(cc, src).with_note("deviceQuery"));
            }
        }
        return true;
    }
    false
}

/// `/usr/local/cuda-11.8/bin/nvcc` → `/usr/local/cuda-11.8`.
fn nvcc_path_in(s: &str) -> Option<String> {
    let p = s.find("/bin/nvcc")?;
    let start = s[..p].rfind(|c: char| c.is_whitespace() || c == '"' || c == '\'');
    let dir = &s[start.map_or(0, |i| i + 1)..p];
    dir.starts_with('/').then(|| dir.to_string())
}

fn add(b: &mut Builder, path: String, v: CudaVersion, src: &str, has_nvcc: bool) {
    if b.inv
        .toolkits
        .iter()
        .any(|t| t.path == path && t.version.value == v)
    {
        return;
    }
    b.inv.toolkits.push(Toolkit {
        path,
        version: Fact::new(v, src),
        has_nvcc,
        has_compat: false,
    });
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
    fn nvcc_version() {
        let inv = run("$ nvcc --version
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2024 NVIDIA Corporation
Built on Thu_Mar_28_02:18:24_PDT_2024
Cuda compilation tools, release 12.4, V12.4.131
Build cuda_12.4.r12.4/compiler.34097967_0");
        let tk = &inv.toolkits[0];
        assert_eq!(tk.version.value.to_string(), "12.4.131");
        assert_eq!(tk.version.source, "input line 5");
        assert_eq!(tk.path, "nvcc on PATH");
        assert!(tk.has_nvcc);
    }

    #[test]
    fn nvcc_with_path_and_old_release() {
        let inv = run(
            "$ /usr/local/cuda-10.1/bin/nvcc -V\nCuda compilation tools, release 10.1, V10.1.243\n",
        );
        assert_eq!(inv.toolkits[0].path, "/usr/local/cuda-10.1");
        assert_eq!(inv.toolkits[0].version.value.to_string(), "10.1.243");
    }

    #[test]
    fn version_txt_and_missing_nvcc() {
        let inv = run("CUDA Version 11.2.152\nbash: nvcc: command not found\n");
        assert_eq!(inv.toolkits[0].path, "/usr/local/cuda");
        assert!(!inv.toolkits[0].has_nvcc);
        assert_eq!(inv.notes.len(), 1);
    }

    #[test]
    fn device_query_gives_the_drivers_cuda_the_runtime_and_the_capability() {
        let inv = run("  CUDA Driver Version / Runtime Version          13.0 / 13.4\n  CUDA Capability Major/Minor version number:    7.5\n");
        assert_eq!(inv.nvidia.cuda_max.unwrap().value.to_string(), "13.0");
        let t = &inv.toolkits[0];
        assert_eq!(t.version.value.to_string(), "13.4");
        assert!(!t.has_nvcc);
        let cc = inv.gpus[0]
            .compute_capability
            .as_ref()
            .map(|c| c.value.to_string());
        assert_eq!(cc.as_deref(), Some("7.5"));
    }
}
