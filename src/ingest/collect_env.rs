//! Environment reports: every generation of PyTorch's `collect_env` (2019
//! to the XPU-era template), vLLM's sectioned `Key : value` fork, the
//! bullet lists of `transformers env` / `accelerate env`, and
//! `jax.print_environment_info()` (whose appended `nvidia-smi` box the
//! nvidia-smi parser reads).
//!
//! The distinctive keys (`CUDA used to build PyTorch`, `Nvidia driver
//! version`, ...) are read anywhere; generic ones (`OS`, `Platform`,
//! `Python version`) only near them, so a log line that happens to start
//! with `OS:` is not taken for a report.

use super::clean::has;
use super::gate::Gate;
use super::{gpu_mut, pip, put, put_opt, Builder, Doc};
use crate::inventory::{Fact, LibraryInstall, OsKind, Toolkit};
use crate::version::{CudaVersion, DriverVersion};

/// How many lines after a report key a generic key is still believed.
const WINDOW: usize = 12;

/// Keys that identify an environment report on their own (lowercase, backticks removed).
const DISTINCTIVE: [&str; 24] = [
    "pytorch version",
    "pytorch version (gpu?)",
    "pytorch version (accelerator?)",
    "is debug build",
    "cuda used to build pytorch",
    "rocm used to build pytorch",
    "xpu used to build pytorch",
    "is cuda available",
    "cuda runtime version",
    "cuda_module_loading set to",
    "gpu models and configuration",
    "nvidia driver version",
    "cudnn version",
    "hip runtime version",
    "miopen runtime version",
    "is xnnpack available",
    "is xpu available",
    "python platform",
    "versions of relevant libraries",
    "transformers version",
    "accelerate version",
    "tensorflow version (gpu?)",
    "vllm version",
    "jaxlib version",
];

/// `Key: value`, `Key   : value` (vLLM), `- Key: value` (transformers).
pub fn key_value(t: &str) -> Option<(String, &str)> {
    let t = t
        .strip_prefix("- ")
        .or_else(|| t.strip_prefix("* "))
        .unwrap_or(t);
    let (k, v) = match t.find(": ") {
        Some(p) => (&t[..p], t[p + 2..].trim()),
        None => (t.strip_suffix(':')?, ""),
    };
    // No report key has a digit, starts with a non-letter or runs long: reject before allocating.
    if k.len() > 60
        || !k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '`')
        || k.bytes().any(|c| c.is_ascii_digit()) && !k.starts_with("jax.devices")
    {
        return None;
    }
    // Lowercase, backticks dropped, runs of spaces collapsed: one allocation.
    let mut key = String::with_capacity(k.len());
    for w in k.split_whitespace() {
        if !key.is_empty() {
            key.push(' ');
        }
        key.extend(
            w.chars()
                .filter(|&c| c != '`')
                .map(|c| c.to_ascii_lowercase()),
        );
    }
    if key.is_empty() || key.len() > 60 || !key.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    Some((key, v))
}

fn is_null(v: &str) -> bool {
    matches!(
        v,
        "" | "N/A"
            | "NA"
            | "Could not collect"
            | "No CUDA"
            | "not installed"
            | "not found"
            | "Not Set"
            | "None"
            | "Unknown"
    )
}

fn looks_like_version(v: &str) -> bool {
    v.starts_with(|c: char| c.is_ascii_digit())
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_'))
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut window_end: Option<usize> = None;
    let mut in_report = false;
    let mut i = 0;
    while i < doc.lines.len() {
        let t = doc.text(i);
        let in_window = window_end.is_some_and(|w| i <= w);
        if !in_window
            && !doc.lines[i].gate(Gate::Collect)
            && !t.starts_with('=')
            && !t.starts_with('[')
        {
            i += 1;
            continue;
        }
        let src: &str = doc.src_at(i);
        if t.starts_with("Collecting environment information") {
            b.begin_env(src);
            in_report = true;
            window_end = Some(i + WINDOW);
            i += 1;
            continue;
        }
        if has(t, "Copy-and-paste the text below") || is_section_banner(t) {
            window_end = Some(i + WINDOW);
            i += 1;
            continue;
        }
        if let Some(rest) = t.strip_prefix('[') {
            if let Some((tag, row)) = rest.split_once(']') {
                if matches!(tag, "pip" | "pip3" | "conda") {
                    library_row(b, tag, row.trim(), src);
                    window_end = Some(i + WINDOW);
                    i += 1;
                    continue;
                }
            }
        }
        let Some((key, val)) = key_value(t) else {
            i += 1;
            continue;
        };
        let jax_key = (key == "jax" || key == "jaxlib") && looks_like_version(val);
        let distinctive = DISTINCTIVE.contains(&key.as_str()) || jax_key;
        if !distinctive && window_end.map_or(true, |w| i > w) {
            i += 1;
            continue;
        }
        let begins = key == "pytorch version"
            || key == "jax" && jax_key
            || has(t, "`transformers` version")
            || has(t, "`Accelerate` version");
        if begins {
            if !in_report || env_has_report(b) {
                b.begin_env(src);
            }
            in_report = true;
        }
        window_end = Some(i + WINDOW);
        i = field(doc, b, i, &key, val, src);
    }
}

/// vLLM's `====` banners and the section titles between them.
fn is_section_banner(t: &str) -> bool {
    (t.len() >= 10 && t.bytes().all(|c| c == b'='))
        || matches!(
            t,
            "System Info"
                | "PyTorch Info"
                | "Python Environment"
                | "CUDA / GPU Info"
                | "CPU Info"
                | "Versions of relevant libraries"
                | "vLLM Info"
                | "Environment Variables"
        )
}

fn env_has_report(b: &mut Builder) -> bool {
    let e = b.env();
    e.torch.as_ref().is_some_and(|t| t.version.is_some()) || e.python_version.is_some()
}

/// Handle one field; returns the index of the next line to read.
fn field(doc: &Doc, b: &mut Builder, i: usize, key: &str, val: &str, src: &str) -> usize {
    let next = i + 1;
    match key {
        "pytorch version" | "pytorch version (gpu?)" | "pytorch version (accelerator?)" => {
            torch_version(b, val, src)
        }
        "cuda used to build pytorch" => {
            // collect_env prints torch.version.cuda; its replace_nones turns a
            // None (a CPU or ROCm build) into `Could not collect`. Without torch
            // every field reads `N/A`, so only a known torch makes it a build fact.
            let has_torch = b.env().torch.as_ref().is_some_and(|t| t.version.is_some());
            let v = match val {
                "None" => Some(None),
                "Could not collect" => has_torch.then_some(None),
                v => v.parse::<CudaVersion>().ok().map(Some),
            };
            if let Some(v) = v {
                b.torch_cuda(Fact::new(v, src));
            }
        }
        "rocm used to build pytorch" => {
            let has_torch = b.env().torch.as_ref().is_some_and(|t| t.version.is_some());
            let v = if val == "N/A" {
                has_torch.then_some(None)
            } else if is_null(val) {
                None
            } else {
                Some(Some(val.to_string()))
            };
            if let Some(v) = v {
                let notes = &mut b.notes;
                let t = super::env_mut(&mut b.inv.python, &mut b.current_env)
                    .torch
                    .get_or_insert_with(Default::default);
                put_opt(&mut t.hip, Fact::new(v, src), notes, "torch ROCm build");
            }
        }
        "os" => os_field(b, val, src),
        // `CPU:` then the model on the next line; on a Mac, sysctl's brand
        // string names the Apple chip even for a Python under Rosetta.
        "cpu" if val.is_empty() => {
            let model = doc.text(next).trim();
            if model.starts_with("Apple M") && model.len() <= 40 {
                let notes = &mut b.notes;
                put(
                    &mut b.inv.apple.chip,
                    Fact::new(model.to_string(), doc.src_at(next)),
                    notes,
                    "Apple chip",
                );
                return next + 1;
            }
        }
        "libc version" => {
            if let Some(g) = val.strip_prefix("glibc-") {
                put(
                    &mut b.inv.os.glibc,
                    Fact::new(g.to_string(), src),
                    &mut b.notes,
                    "glibc",
                );
            }
        }
        "python version" | "python" => {
            let v = val.split_whitespace().next().unwrap_or("");
            if looks_like_version(v) {
                let notes = &mut b.notes;
                let e = super::env_mut(&mut b.inv.python, &mut b.current_env);
                put(
                    &mut e.python_version,
                    Fact::new(v.to_string(), src),
                    notes,
                    "Python version",
                );
            }
        }
        "python platform" | "platform" => {
            if val.starts_with("uname_result(") {
                uname_result(b, val, src);
            } else {
                platform(b, val, src);
            }
        }
        "is cuda available" => {
            let v = match val {
                "True" | "Yes" => Some(true),
                "False" | "No" => Some(false),
                _ => None,
            };
            if let Some(v) = v {
                b.put_runtime(
                    |r| &mut r.cuda_available,
                    Fact::new(v, src),
                    "CUDA available",
                );
            }
        }
        "cuda runtime version" => {
            if let Ok(v) = val.parse::<CudaVersion>() {
                add_toolkit(b, "nvcc on PATH", v, src);
            }
        }
        "gpu models and configuration" => {
            if val.is_empty() {
                // One `GPU N: name` per line follows (read by the nvidia-smi -L
                // parser); AMD names carry their gfx target.
                let mut j = next;
                while j < doc.lines.len() && !doc.text(j).is_empty() {
                    gfx_target(b, doc.text(j), doc.src_at(j));
                    j += 1;
                }
                return j;
            }
            gpu_models_inline(b, val, src);
        }
        "nvidia driver version" => {
            if let Ok(d) = val.parse::<DriverVersion>() {
                put(
                    &mut b.inv.nvidia.driver_version,
                    Fact::new(d, src),
                    &mut b.notes,
                    "driver version",
                );
            }
        }
        "cudnn version" => {
            if val.starts_with("Probably one of the following") {
                let mut j = next;
                while j < doc.lines.len() {
                    let t = doc.text(j);
                    if t.is_empty() || key_value(t).is_some_and(|(_, v)| !v.is_empty()) {
                        break;
                    }
                    cudnn_path(b, t, doc.src_at(j));
                    j += 1;
                }
                return j;
            }
            if !is_null(val) {
                cudnn_path(b, val, src);
            }
        }
        "hip runtime version" | "rocm version" | "rocm hip version"
            if !is_null(val) && looks_like_version(val) =>
        {
            put(
                &mut b.inv.amd.rocm_version,
                Fact::new(val.to_string(), src),
                &mut b.notes,
                "ROCm version",
            );
        }
        "gpu type" if !is_null(val) && !is_amd_name(val) => {
            let notes = &mut b.notes;
            let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, 0);
            if g.name.is_none() {
                put(
                    &mut g.name,
                    Fact::new(val.to_string(), src),
                    notes,
                    "GPU name",
                );
            }
        }
        "tensorflow version (gpu?)" => package_with_flag(b, "tensorflow", val, src),
        "flax version (cpu?/gpu?/tpu?)" => package_with_flag(b, "flax", val, src),
        "jax version" | "jax" => package_with_flag(b, "jax", val, src),
        "jaxlib version" | "jaxlib" => package_with_flag(b, "jaxlib", val, src),
        "numpy version" | "numpy" => package_with_flag(b, "numpy", val, src),
        "transformers version" => package_with_flag(b, "transformers", val, src),
        "accelerate version" => package_with_flag(b, "accelerate", val, src),
        "huggingface_hub version" => package_with_flag(b, "huggingface-hub", val, src),
        "safetensors version" => package_with_flag(b, "safetensors", val, src),
        "deepspeed version" => package_with_flag(b, "deepspeed", val, src),
        "vllm version" => package_with_flag(b, "vllm", val, src),
        "cuda archs" => {
            let v = val.split(';').next().unwrap_or("").trim();
            if !is_null(v) {
                b.env_var("TORCH_CUDA_ARCH_LIST", v, src);
            }
        }
        k if k.starts_with("jax.devices")
            && has(val, "CpuDevice")
            && !has(val, "CudaDevice")
            && !has(val, "GpuDevice") =>
        {
            b.note("jax", format!("JAX sees only CPU devices ({src})"));
        }
        _ => {}
    }
    next
}

fn torch_version(b: &mut Builder, val: &str, src: &str) {
    // `2.1.0+cu121 (True)` (transformers/accelerate) or plain `2.5.1+cu124`.
    let (ver, flag) = match val.split_once(" (") {
        Some((v, f)) => (v.trim(), Some(f.trim_end_matches(')').trim())),
        None => (val.trim(), None),
    };
    if is_null(ver) || !looks_like_version(ver) {
        return;
    }
    b.package("torch", ver, src);
    {
        let notes = &mut b.notes;
        let t = super::env_mut(&mut b.inv.python, &mut b.current_env)
            .torch
            .get_or_insert_with(Default::default);
        put(
            &mut t.version,
            Fact::new(ver.to_string(), src),
            notes,
            "torch version",
        );
    }
    let avail = match flag {
        Some("True") | Some("CUDA") => Some(true),
        Some("False") | Some("NA") => Some(false),
        _ => None,
    };
    if let Some(a) = avail {
        b.put_runtime(
            |r| &mut r.cuda_available,
            Fact::new(a, src),
            "CUDA available",
        );
    }
    if flag == Some("MPS") {
        put(
            &mut b.inv.apple.mps_available,
            Fact::new(true, src),
            &mut b.notes,
            "MPS available",
        );
    }
}

fn package_with_flag(b: &mut Builder, name: &str, val: &str, src: &str) {
    let v = val.split_whitespace().next().unwrap_or("");
    if !is_null(v) && looks_like_version(v) {
        b.package(name, v, src);
    }
}

/// `[pip3] torch==2.5.1+cu124`, `[conda] pytorch 2.1.0 py3.10_cuda12.1_cudnn8.9.2_0 pytorch`.
fn library_row(b: &mut Builder, tag: &str, row: &str, src: &str) {
    if tag == "conda" {
        let parts: Vec<&str> = row.split_whitespace().collect();
        if parts.len() >= 2 && looks_like_version(parts[1]) {
            pip::conda_package(b, parts[0], parts[1], parts.get(2).copied(), src);
        }
    } else if let Some((n, v)) = pip::requirement(row) {
        b.package(&n, &v, src);
    }
}

fn add_toolkit(b: &mut Builder, path: &str, v: CudaVersion, src: &str) {
    if b.inv
        .toolkits
        .iter()
        .any(|t| t.version.value == v && t.path == path)
    {
        return;
    }
    b.inv.toolkits.push(Toolkit {
        path: path.to_string(),
        version: Fact::new(v, src),
        has_nvcc: true,
        has_compat: false,
    });
}

fn is_amd_name(n: &str) -> bool {
    n.contains("AMD") || n.contains("Radeon") || n.contains("Instinct") || n.contains("(gfx")
}

fn gfx_target(b: &mut Builder, t: &str, src: &str) {
    if let Some(p) = t.find("gfx") {
        let tgt: String = t[p..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if tgt.len() > 3 && !b.inv.amd.gfx_targets.iter().any(|f| f.value == tgt) {
            b.inv.amd.gfx_targets.push(Fact::new(tgt, src));
        }
    }
}

fn gpu_models_inline(b: &mut Builder, val: &str, src: &str) {
    if is_null(val) {
        return;
    }
    if is_amd_name(val) {
        gfx_target(b, val, src);
        return;
    }
    if let Some(rest) = val.strip_prefix("GPU ") {
        if let Some((idx, name)) = rest.split_once(": ") {
            if let Ok(i) = idx.parse::<u32>() {
                let name = match name.find(" (UUID:") {
                    Some(p) => &name[..p],
                    None => name,
                };
                let notes = &mut b.notes;
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, i);
                put(
                    &mut g.name,
                    Fact::new(name.trim().to_string(), src),
                    notes,
                    "GPU name",
                );
            }
        }
    }
}

/// A cuDNN path or version: `/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.2`,
/// `C:\...\cudnn_ops_train64_8.dll`, `8.9.2`, `90100`.
pub fn cudnn_path(b: &mut Builder, val: &str, src: &str) {
    let val = val.trim();
    let version = cudnn_version_of(val);
    let Some(version) = version else { return };
    if b.inv.libraries.cudnn.iter().any(|l| l.path == val) {
        return;
    }
    b.inv.libraries.cudnn.push(LibraryInstall {
        path: val.to_string(),
        version: Fact::new(version, src),
        built_for_cuda: None,
    });
}

fn cudnn_version_of(val: &str) -> Option<String> {
    let file = val.rsplit(['/', '\\']).next().unwrap_or(val);
    if let Some(p) = file.find(".so.") {
        if file[..p].starts_with("libcudnn") {
            let v = &file[p + 4..];
            return looks_like_version(v).then(|| v.to_string());
        }
        return None;
    }
    if let Some(stem) = file.strip_suffix(".dll") {
        // cudnn64_8.dll, cudnn_ops_train64_8.dll → major 8
        let major = stem.rsplit('_').next()?;
        return (stem.starts_with("cudnn") && major.bytes().all(|c| c.is_ascii_digit()))
            .then(|| major.to_string());
    }
    if val.bytes().all(|c| c.is_ascii_digit()) {
        // torch.backends.cudnn.version(): 8902 → 8.9.2, 90100 → 9.1.0
        let n: u64 = val.parse().ok()?;
        return Some(super::errors::cudnn_int(n));
    }
    looks_like_version(val).then(|| val.to_string())
}

/// The `OS:` field: `Ubuntu 22.04.4 LTS (x86_64)`, `macOS 14.5 (arm64)`,
/// `Microsoft Windows 11 Pro`, `CentOS Linux release 7.9.2009 (Core) (x86_64)`.
pub fn os_field(b: &mut Builder, val: &str, src: &str) {
    if is_null(val) {
        return;
    }
    let mut name = val.trim();
    if let Some(p) = name.rfind(" (") {
        let arch = name[p + 2..].trim_end_matches(')');
        if matches!(
            arch,
            "x86_64" | "aarch64" | "arm64" | "ppc64le" | "s390x" | "AMD64"
        ) {
            put(
                &mut b.inv.os.arch,
                Fact::new(arch.to_string(), src),
                &mut b.notes,
                "CPU architecture",
            );
            name = name[..p].trim();
        }
    }
    if let Some(v) = name.strip_prefix("macOS ") {
        b.macos(v, src);
        return;
    }
    let notes = &mut b.notes;
    let os = &mut b.inv.os;

    if name.starts_with("Microsoft Windows") {
        put(
            &mut os.kind,
            Fact::new(OsKind::Windows, src),
            notes,
            "operating system",
        );
        put(
            &mut os.pretty_name,
            Fact::new(name.to_string(), src),
            notes,
            "OS name",
        );
        return;
    }
    put(
        &mut os.kind,
        Fact::new(OsKind::Linux, src),
        notes,
        "operating system",
    );
    put(
        &mut os.pretty_name,
        Fact::new(name.to_string(), src),
        notes,
        "OS name",
    );
    if let Some((id, ver)) = distro_id(name) {
        put(&mut os.id, Fact::new(id.to_string(), src), notes, "OS id");
        if let Some(v) = ver {
            put(&mut os.version_id, Fact::new(v, src), notes, "OS version");
        }
    }
}

/// `/etc/os-release`'s ID and VERSION_ID from a distribution's pretty name.
pub fn distro_id(name: &str) -> Option<(&'static str, Option<String>)> {
    let num = |s: &str| -> Option<String> {
        let tok = s
            .split_whitespace()
            .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
        Some(
            tok.trim_end_matches(|c: char| !c.is_ascii_digit())
                .to_string(),
        )
    };
    let parts =
        |v: String, n: usize| -> String { v.split('.').take(n).collect::<Vec<_>>().join(".") };
    let table: [(&str, &'static str, usize); 9] = [
        ("Ubuntu", "ubuntu", 2),
        ("Debian", "debian", 1),
        ("CentOS", "centos", 1),
        ("Rocky Linux", "rocky", 2),
        ("AlmaLinux", "almalinux", 2),
        ("Red Hat Enterprise Linux", "rhel", 2),
        ("Fedora", "fedora", 1),
        ("Amazon Linux", "amzn", 1),
        ("openSUSE", "opensuse", 2),
    ];
    for (prefix, id, n) in table {
        if let Some(rest) = name.strip_prefix(prefix) {
            return Some((id, num(rest).map(|v| parts(v, n))));
        }
    }
    if name.starts_with("Arch Linux") {
        return Some(("arch", None));
    }
    None
}

/// `platform.platform()`: `Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35`,
/// `macOS-14.5-arm64-arm-64bit`, `Windows-10-10.0.22631-SP0`.
pub fn platform(b: &mut Builder, val: &str, src: &str) {
    let notes = &mut b.notes;
    let os = &mut b.inv.os;
    if let Some(rest) = val.strip_prefix("Linux-") {
        put(
            &mut os.kind,
            Fact::new(OsKind::Linux, src),
            notes,
            "operating system",
        );
        // The `-with-glibcX` suffix is the glibc the Python binary was linked
        // against, not the system's; only `Libc version:` says the latter.
        let body = rest.split_once("-with-").map_or(rest, |(body, _)| body);
        for arch in ["x86_64", "aarch64", "ppc64le", "s390x", "armv7l"] {
            if let Some(kernel) = body.strip_suffix(&format!("-{arch}")) {
                put(
                    &mut os.arch,
                    Fact::new(arch.to_string(), src),
                    notes,
                    "CPU architecture",
                );
                put(
                    &mut os.kernel,
                    Fact::new(kernel.to_string(), src),
                    notes,
                    "kernel",
                );
                let k = kernel.to_ascii_lowercase();
                if k.contains("microsoft") || k.contains("wsl") {
                    put(&mut b.inv.wsl.is_wsl, Fact::new(true, src), notes, "WSL");
                }
                break;
            }
        }
        return;
    }
    if let Some(rest) = val
        .strip_prefix("macOS-")
        .or_else(|| val.strip_prefix("Darwin-"))
    {
        put(
            &mut os.kind,
            Fact::new(OsKind::Macos, src),
            notes,
            "operating system",
        );
        for arch in ["arm64", "x86_64"] {
            if rest.contains(arch) {
                put(
                    &mut os.arch,
                    Fact::new(arch.to_string(), src),
                    notes,
                    "CPU architecture",
                );
                // platform.platform() is the running interpreter's: an
                // x86_64 Python on Apple silicon says x86_64 (Rosetta).
                let e = super::env_mut(&mut b.inv.python, &mut b.current_env);
                put(
                    &mut e.arch,
                    Fact::new(arch.to_string(), src)
                        .with_note("platform.platform() of the Python that ran the report"),
                    notes,
                    "Python architecture",
                );
                break;
            }
        }
        return;
    }
    if val.starts_with("Windows-") {
        put(
            &mut os.kind,
            Fact::new(OsKind::Windows, src),
            notes,
            "operating system",
        );
    }
}

/// JAX: `uname_result(system='Linux', node='h', release='6.8.0-1017-aws', version='#18', machine='x86_64')`.
fn uname_result(b: &mut Builder, val: &str, src: &str) {
    let field = |name: &str| -> Option<String> {
        let p = val.find(&format!("{name}='"))? + name.len() + 2;
        let end = val[p..].find('\'')?;
        Some(val[p..p + end].to_string())
    };
    let notes = &mut b.notes;
    let os = &mut b.inv.os;
    match field("system").as_deref() {
        Some("Linux") => put(
            &mut os.kind,
            Fact::new(OsKind::Linux, src),
            notes,
            "operating system",
        ),
        Some("Darwin") => put(
            &mut os.kind,
            Fact::new(OsKind::Macos, src),
            notes,
            "operating system",
        ),
        Some("Windows") => put(
            &mut os.kind,
            Fact::new(OsKind::Windows, src),
            notes,
            "operating system",
        ),
        _ => {}
    }
    if let Some(r) = field("release") {
        if r.to_ascii_lowercase().contains("microsoft") {
            put(&mut b.inv.wsl.is_wsl, Fact::new(true, src), notes, "WSL");
        }
        put(&mut os.kernel, Fact::new(r, src), notes, "kernel");
    }
    if let Some(m) = field("machine") {
        put(&mut os.arch, Fact::new(m, src), notes, "CPU architecture");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{clean, parse_doc};
    use crate::version::ComputeCapability;

    fn run(text: &str) -> crate::inventory::Inventory {
        let doc = clean("input", text);
        let mut b = Builder::new("t");
        parse_doc(&doc, &mut b);
        b.finish()
    }

    // vllm-project/vllm#9293: WSL2, RTX 4070 Laptop, torch 2.4.0+cu121
    const WSL: &str = "Collecting environment information...
PyTorch version: 2.4.0+cu121
Is debug build: False
CUDA used to build PyTorch: 12.1
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.2 LTS (x86_64)
GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0
Clang version: 14.0.0-1ubuntu1.1
CMake version: version 3.30.2
Libc version: glibc-2.35

Python version: 3.12.3 | packaged by Anaconda, Inc. | (main, May  6 2024, 19:46:43) [GCC 11.2.0] (64-bit runtime)
Python platform: Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35
Is CUDA available: True
CUDA runtime version: 12.4.131
CUDA_MODULE_LOADING set to: LAZY
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4070 Laptop GPU
Nvidia driver version: 551.88
cuDNN version: Could not collect
HIP runtime version: N/A
MIOpen runtime version: N/A
Is XNNPACK available: True
";

    #[test]
    fn pytorch_collect_env_wsl() {
        let inv = run(WSL);
        let env = &inv.python[0];
        let t = env.torch.as_ref().unwrap();
        assert_eq!(t.version.as_ref().unwrap().value, "2.4.0+cu121");
        assert_eq!(t.version.as_ref().unwrap().source, "input line 2");
        assert_eq!(
            t.cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(12, 1))
        );
        assert_eq!(t.cuda.as_ref().unwrap().source, "input line 4");
        assert_eq!(t.hip.as_ref().unwrap().value, None);
        assert_eq!(env.python_version.as_ref().unwrap().value, "3.12.3");
        assert!(
            env.runtime
                .as_ref()
                .unwrap()
                .cuda_available
                .as_ref()
                .unwrap()
                .value
        );
        assert_eq!(inv.os.id.as_ref().unwrap().value, "ubuntu");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "22.04");
        assert_eq!(inv.os.arch.as_ref().unwrap().value, "x86_64");
        assert_eq!(inv.os.glibc.as_ref().unwrap().value, "2.35");
        assert_eq!(
            inv.os.kernel.as_ref().unwrap().value,
            "5.15.153.1-microsoft-standard-WSL2"
        );
        assert!(inv.wsl.is_wsl.as_ref().unwrap().value);
        assert_eq!(inv.toolkits[0].version.value.to_string(), "12.4.131");
        assert_eq!(
            inv.gpus[0].name.as_ref().unwrap().value,
            "NVIDIA GeForce RTX 4070 Laptop GPU"
        );
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "551.88"
        );
        assert!(inv.libraries.cudnn.is_empty());
        assert!(inv.notes.is_empty(), "{:?}", inv.notes);
    }

    // vllm-project/vllm#15592: 8x A100, multi-line GPU block
    #[test]
    fn multi_line_gpu_block() {
        let inv = run("PyTorch version: 2.6.0+cu124
CUDA used to build PyTorch: 12.4
OS: CentOS Linux release 7.9.2009 (Core) (x86_64)
Is CUDA available: True
CUDA runtime version: Could not collect
GPU models and configuration: 
GPU 0: NVIDIA A100 80GB PCIe
GPU 1: NVIDIA A100 80GB PCIe

Nvidia driver version: 525.60.13
");
        assert_eq!(inv.gpus.len(), 2);
        assert_eq!(inv.gpus[1].name.as_ref().unwrap().source, "input line 8");
        assert_eq!(inv.os.id.as_ref().unwrap().value, "centos");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "7");
        assert!(inv.toolkits.is_empty());
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "525.60.13"
        );
    }

    // pytorch/pytorch#121067: macOS, CPU build, libraries
    #[test]
    fn macos_cpu_build_with_libraries() {
        let inv = run("PyTorch version: 2.2.2
Is debug build: False
CUDA used to build PyTorch: None
ROCM used to build PyTorch: N/A

OS: macOS 14.5 (x86_64)
Python platform: macOS-14.5-x86_64-i386-64bit
Is CUDA available: False
CUDA runtime version: No CUDA
GPU models and configuration: No CUDA
Nvidia driver version: No CUDA
cuDNN version: No CUDA

Versions of relevant libraries:
[pip3] mypy-extensions==1.0.0
[pip3] numpy==1.26.4
[pip3] onnxruntime==1.19.2
[pip3] torch==2.2.2
[conda] Could not collect
");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Macos);
        let env = &inv.python[0];
        assert_eq!(
            env.torch.as_ref().unwrap().cuda.as_ref().unwrap().value,
            None
        );
        assert_eq!(env.package("onnxruntime").unwrap().version, "1.19.2");
        assert_eq!(env.package("torch").unwrap().source, "input line 1");
        assert!(inv.gpus.is_empty());
        assert!(inv.nvidia.driver_version.is_none());
    }

    // pytorch/pytorch#82382: several cuDNN copies
    #[test]
    fn cudnn_candidates() {
        let inv = run("GPU models and configuration: GPU 0: Tesla T4
Nvidia driver version: 510.47.03
cuDNN version: Probably one of the following:
/usr/local/cuda-11.0/targets/x86_64-linux/lib/libcudnn.so.8.0.5
/usr/local/cuda-11.0/targets/x86_64-linux/lib/libcudnn_adv_infer.so.8.0.5
HIP runtime version: N/A
");
        assert_eq!(inv.libraries.cudnn.len(), 2);
        assert_eq!(inv.libraries.cudnn[0].version.value, "8.0.5");
        assert_eq!(inv.libraries.cudnn[1].version.source, "input line 5");
    }

    // pytorch/pytorch#44106: ROCm
    #[test]
    fn rocm_report() {
        let inv = run("PyTorch version: 1.7.0a0
CUDA used to build PyTorch: N/A
ROCM used to build PyTorch: 3.7.20315-077bcfa0
GPU models and configuration: Device 66a1
Nvidia driver version: Could not collect
HIP runtime version: 3.18.2
MIOpen runtime version: 2.6.0
");
        let t = inv.python[0].torch.as_ref().unwrap();
        assert_eq!(
            t.hip.as_ref().unwrap().value.as_deref(),
            Some("3.7.20315-077bcfa0")
        );
        assert!(t.cuda.is_none());
        assert_eq!(inv.amd.rocm_version.as_ref().unwrap().value, "3.18.2");
        assert!(inv.gpus.is_empty());
    }

    #[test]
    fn rocm_gfx_in_gpu_models() {
        let inv = run("PyTorch version: 2.4.0+rocm6.1\nGPU models and configuration: AMD Radeon RX 7900 XTX (gfx1100)\n");
        assert_eq!(inv.amd.gfx_targets[0].value, "gfx1100");
        assert!(inv.gpus.is_empty());
        let t = inv.python[0].torch.as_ref().unwrap();
        assert_eq!(t.hip.as_ref().unwrap().value.as_deref(), Some("6.1"));
    }

    // vLLM sectioned layout (vllm-project/vllm#21310)
    #[test]
    fn vllm_sections() {
        let inv = run("==============================
        System Info
==============================
OS                           : Red Hat Enterprise Linux release 8.3 (Ootpa) (x86_64)
GCC version                  : (GCC) 8.5.0 20210514 (Red Hat 8.5.0-3)
==============================
       PyTorch Info
==============================
PyTorch version              : 2.5.1+cu124
Is debug build               : False
CUDA used to build PyTorch   : 12.4
==============================
         vLLM Info
==============================
vLLM Version                 : 0.8.5.post1
vLLM Build Flags:
  CUDA Archs: Not Set; ROCm: Disabled; XPU: Disabled
");
        assert_eq!(inv.os.id.as_ref().unwrap().value, "rhel");
        assert_eq!(inv.os.version_id.as_ref().unwrap().value, "8.3");
        let env = &inv.python[0];
        assert_eq!(env.package("vllm").unwrap().version, "0.8.5.post1");
        assert_eq!(
            env.torch.as_ref().unwrap().cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(12, 4))
        );
        assert!(inv.env.is_empty());
    }

    #[test]
    fn transformers_env() {
        let inv = run(
            "Copy-and-paste the text below in your GitHub issue and FILL OUT the two last points.

- `transformers` version: 4.46.2
- Platform: Linux-5.15.0-125-generic-x86_64-with-glibc2.35
- Python version: 3.10.12
- Huggingface_hub version: 0.26.2
- Safetensors version: 0.4.5
- Accelerate version: not installed
- PyTorch version (GPU?): 2.5.1+cu124 (True)
- Tensorflow version (GPU?): not installed (NA)
- Using GPU in script?: yes
- GPU type: NVIDIA A100-SXM4-80GB
",
        );
        let env = &inv.python[0];
        assert_eq!(env.package("transformers").unwrap().version, "4.46.2");
        assert!(env.package("accelerate").is_none());
        assert!(env.package("tensorflow").is_none());
        assert!(
            env.runtime
                .as_ref()
                .unwrap()
                .cuda_available
                .as_ref()
                .unwrap()
                .value
        );
        assert_eq!(
            inv.gpus[0].name.as_ref().unwrap().value,
            "NVIDIA A100-SXM4-80GB"
        );
        assert_eq!(inv.os.kernel.as_ref().unwrap().value, "5.15.0-125-generic");
    }

    #[test]
    fn accelerate_env_not_available() {
        let inv = run("- `Accelerate` version: 1.1.1
- Platform: Windows-10-10.0.22631-SP0
- Python version: 3.11.9
- PyTorch version (GPU?): 2.5.1+cpu (False)
");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Windows);
        let env = &inv.python[0];
        assert_eq!(
            env.torch.as_ref().unwrap().cuda.as_ref().unwrap().value,
            None
        );
        assert!(
            !env.runtime
                .as_ref()
                .unwrap()
                .cuda_available
                .as_ref()
                .unwrap()
                .value
        );
    }

    // jax-ml/jax#21295
    #[test]
    fn jax_environment_info() {
        let inv = run("jax:    0.4.33
jaxlib: 0.4.33
numpy:  1.26.4
python: 3.10.12 (main, Sep 11 2024, 15:47:36) [GCC 11.4.0]
jax.devices (1 total, 1 local): [CpuDevice(id=0)]
process_count: 1
platform: uname_result(system='Linux', node='box', release='6.8.0-1017-aws', version='#18~22.04.1-Ubuntu SMP', machine='x86_64')

$ nvidia-smi
| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |
");
        let env = &inv.python[0];
        assert_eq!(env.package("jaxlib").unwrap().version, "0.4.33");
        assert_eq!(
            env.jax.as_ref().unwrap().version.as_ref().unwrap().value,
            "0.4.33"
        );
        assert_eq!(inv.os.kernel.as_ref().unwrap().value, "6.8.0-1017-aws");
        assert!(inv.notes.iter().any(|n| n.message.contains("only CPU")));
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "12.4"
        );
    }

    #[test]
    fn generic_keys_far_from_a_report_are_ignored() {
        let mut text = String::from("OS: Ubuntu 22.04\n");
        text.push_str(&"log line\n".repeat(60));
        let inv = run(&text);
        assert!(inv.os.pretty_name.is_none());
    }

    #[test]
    fn two_reports_get_two_environments() {
        let inv = run("PyTorch version: 2.5.1+cu124\nCUDA used to build PyTorch: 12.4\n\nPyTorch version: 2.5.1+cpu\nCUDA used to build PyTorch: None\n");
        assert_eq!(inv.python.len(), 2);
        assert_eq!(
            inv.python[1]
                .torch
                .as_ref()
                .unwrap()
                .cuda
                .as_ref()
                .unwrap()
                .value,
            None
        );
        assert!(inv.notes.is_empty(), "{:?}", inv.notes);
    }

    #[test]
    fn cudnn_spellings() {
        assert_eq!(cudnn_version_of("90100").as_deref(), Some("9.1.0"));
        assert_eq!(cudnn_version_of("8902").as_deref(), Some("8.9.2"));
        assert_eq!(
            cudnn_version_of("C:\\CUDA\\v11.8\\bin\\cudnn_ops_train64_8.dll").as_deref(),
            Some("8")
        );
        assert_eq!(cudnn_version_of("/usr/lib/libfoo.so.1"), None);
    }

    #[test]
    fn could_not_collect_cuda_build_is_a_cpu_build_only_with_torch() {
        let inv = run("PyTorch version: 2.2.2\nIs debug build: False\nCUDA used to build PyTorch: Could not collect\nROCM used to build PyTorch: N/A\n");
        let t = inv.python[0].torch.as_ref().unwrap();
        assert_eq!(t.cuda.as_ref().unwrap().value, None);
        // Near miss: no torch version known, so nothing is said about its build.
        let inv = run("PyTorch version: N/A\nIs debug build: N/A\nCUDA used to build PyTorch: Could not collect\nROCM used to build PyTorch: N/A\n");
        let cuda = inv
            .python
            .first()
            .and_then(|e| e.torch.as_ref())
            .and_then(|t| t.cuda.as_ref());
        assert!(cuda.is_none(), "{cuda:?}");
    }

    #[test]
    fn gpu_cc_is_never_guessed_here() {
        let inv = run("GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090\n");
        assert!(inv.gpus[0].compute_capability.is_none());
        let _ = ComputeCapability::new(8, 9);
    }
}
