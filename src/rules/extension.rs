//! Compiled-extension family: flash-attn, xformers, vLLM and the other
//! packages that ship (or build) CUDA kernels against one torch, one CUDA
//! major and a range of compute capabilities.

use crate::finding::{Category, Finding, KbRef, Severity};
use crate::inventory::{ErrorKind, Inventory, PyPackage, PythonEnv};
use crate::kb::tables::{ExtensionRow, Prebuilt};
use crate::kb::{cmp_versions, series, Kb, KernelMatch};
use crate::version::{parse_arch_list, ComputeCapability};

use super::facts;
use super::{CompatSemantic, Docs, Rule};

pub static RULES: &[&Rule] = &[&EXT001, &EXT002, &EXT003, &EXT004, &EXT005];

/// The public part of a version (`2.7.4.post1+cu12torch2.6` -> `2.7.4.post1`).
fn public(v: &str) -> &str {
    v.split('+').next().unwrap_or(v).trim()
}

/// A pre-release or source build (`2.9.0.dev20250804`, NGC's `2.6.0a0+ecf3bae`):
/// PyPI's pins pair releases, so they say nothing about such a build.
fn prerelease(v: &str) -> bool {
    public(v)
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        .starts_with(|c: char| c.is_ascii_alphabetic() && !v.to_ascii_lowercase().contains("post"))
}

/// A build from a git checkout (`3.4.0+git663e04e8`), not the PyPI release.
fn git_build(v: &str) -> bool {
    v.split_once('+').is_some_and(|(_, l)| l.starts_with("git"))
}

/// The knowledge row of an installed extension release.
pub fn extension_row<'a>(kb: &'a Kb, package: &str, version: &str) -> Option<&'a ExtensionRow> {
    let v = public(version);
    let rows = || kb.extensions.row.iter().filter(|r| r.package == package);
    // A one-release row matches its exact version (`0.0.28.post3` is not `0.0.28.post1`);
    // a range row matches numerically.
    rows()
        .find(|r| r.version_min == r.version_max && r.version_min == v)
        .or_else(|| {
            rows().find(|r| {
                r.version_min != r.version_max
                    && cmp_versions(v, &r.version_min).is_ge()
                    && cmp_versions(v, &r.version_max).is_le()
            })
        })
}

fn ext_kb(r: &ExtensionRow) -> KbRef {
    KbRef {
        table: "extensions".into(),
        row: format!("{} {}..{}", r.package, r.version_min, r.version_max),
        source: r.source.clone(),
    }
}

/// What a wheel's local version says it was built against: `+cu12torch2.6cxx11abiFALSE`,
/// `+cu118`, `+pt25cu121` -> (CUDA major, torch major.minor).
fn local_build(version: &str) -> (Option<u32>, Option<String>) {
    let Some((_, local)) = version.split_once('+') else {
        return (None, None);
    };
    let l = local.to_lowercase();
    let cuda = l.find("cu").and_then(|i| {
        let d: String = l[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        match d.len() {
            0 => None,
            1 | 2 => d.parse().ok(),
            _ => d[..d.len() - 1].parse().ok(),
        }
    });
    let torch = l.find("torch").map(|i| {
        l[i + 5..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect::<String>()
    });
    (cuda, torch.filter(|t| !t.is_empty()))
}

/// Installed extensions of one environment with their knowledge rows (when the table has one).
fn extensions<'a>(
    kb: &'a Kb,
    env: &'a PythonEnv,
) -> Vec<(&'a PyPackage, Option<&'a ExtensionRow>)> {
    env.packages
        .iter()
        .filter(|p| kb.extensions.row.iter().any(|r| r.package == p.name))
        .map(|p| (p, extension_row(kb, &p.name, &p.version)))
        .collect()
}

fn torch_release(env: &PythonEnv) -> Option<(&crate::inventory::Fact<String>, String)> {
    let t = env.torch.as_ref()?.version.as_ref()?;
    Some((t, public(&t.value).to_string()))
}

fn torch_cuda_major(
    env: &PythonEnv,
) -> Option<(
    u32,
    &crate::inventory::Fact<Option<crate::version::CudaVersion>>,
)> {
    let c = env.torch.as_ref()?.cuda.as_ref()?;
    Some((c.value?.major, c))
}

pub static EXT001: Rule = Rule {
    code: "EXT001",
    name: "extension-built-for-other-torch",
    category: Category::CompiledExtension,
    severity: Severity::Error,
    summary: "A prebuilt extension was built for another torch release or CUDA major than the one installed.",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "Each installed compiled extension against the installed torch: the exact torch it pairs with (PyPI Requires-Dist of the extension's wheel, or of the torch wheel that pins it, as triton; from the extensions table), and the torch series and CUDA major in the wheel's local version (`+cu12torch2.6cxx11abiFALSE`, `+cu118`).",
        why_it_breaks: "Extensions link against torch's C++ ABI and its CUDA runtime. Built for another torch they fail at import with `undefined symbol` errors (or xFormers' 'can't load C++/CUDA extensions ... built for'); built for another CUDA major they cannot load libcudart of the major torch ships.",
        how_to_fix: "Install the extension release built for the installed torch (or the torch it pins), from the same CUDA index; for flash-attn, reinstall with `pip install flash-attn --no-build-isolation` so setup.py picks the matching wheel or builds one.",
        sources: &["https://pypi.org/project/xformers/ and https://pypi.org/project/vllm/ (Requires-Dist: torch==X per release)", "github:Dao-AILab/flash-attention setup.py (wheel names carry CUDA major, torch major.minor and the C++11 ABI)"],
    },
    check: check_ext001,
    superseded_by: &[],
};

fn check_ext001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &inv.python {
        let Some((torch, release)) = torch_release(env) else {
            continue;
        };
        for (p, row) in extensions(kb, env) {
            let mut why = Vec::new();
            let releases = !prerelease(&torch.value) && !git_build(&p.version);
            if let Some(pins) = row
                .and_then(|r| r.torch.as_ref())
                .filter(|p| releases && !p.is_empty())
            {
                if !pins.iter().any(|t| cmp_versions(t, &release).is_eq()) {
                    why.push(format!(
                        "it pairs with torch=={} (PyPI metadata)",
                        pins.join(" or ")
                    ));
                }
            }
            let (cuda, built_for) = local_build(&p.version);
            if let (Some(s), Some((a, b))) = (&built_for, series(&release)) {
                if *s != format!("{a}.{b}") {
                    why.push(format!("it was built for torch {s}"));
                }
            }
            if let (Some(c), Some((have, _))) = (cuda, torch_cuda_major(env)) {
                if c != have {
                    why.push(format!(
                        "it was built for CUDA {c}, torch is a CUDA {have} build"
                    ));
                }
            }
            if why.is_empty() {
                continue;
            }
            let mut f = EXT001
                .finding(format!(
                    "{} {} does not match torch {} in {}: {}",
                    p.name,
                    p.version,
                    torch.value,
                    env.path,
                    why.join("; ")
                ))
                .evidence(format!("{} version", p.name), &p.version, &p.source)
                .fact(format!("torch version ({})", env.path), torch);
            if let Some((_, c)) = torch_cuda_major(env) {
                f = f.evidence(
                    format!("torch CUDA build ({})", env.path),
                    c.value.map_or("none".into(), |v| v.to_string()),
                    &c.source,
                );
            }
            if let Some(r) = row {
                f = f.kb(ext_kb(r));
            }
            let fix = match row.and_then(|r| r.torch.as_ref()) {
                Some(pins) => format!(
                    "pip install \"torch=={}\"  # the torch {} {} was built for; or install the {} release built for torch {}",
                    pins[0], p.name, public(&p.version), p.name, release
                ),
                None => format!("pip install --force-reinstall --no-build-isolation {}", p.name),
            };
            out.push(f.fix_command(fix, None));
        }
    }
    out
}

pub static EXT002: Rule = Rule {
    code: "EXT002",
    name: "extension-needs-other-gpu",
    category: Category::CompiledExtension,
    severity: Severity::Error,
    summary: "An installed extension has no kernels for this GPU's compute capability (FlashAttention 2 needs 8.0+, FlashAttention 3 Hopper).",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "The compute-capability range of each installed compiled extension (extensions table: min_cc, max_cc) against every NVIDIA GPU's compute capability.",
        why_it_breaks: "The kernels use instructions of newer architectures and refuse other GPUs at run time: FlashAttention 2 raises 'FlashAttention only supports Ampere GPUs or newer' on Turing, Volta and older; FlashAttention 3 runs on Hopper only; vLLM needs compute capability 7.0.",
        how_to_fix: "Use another attention backend on this GPU (PyTorch SDPA: `attn_implementation=\"sdpa\"`; xFormers; FlashAttention 1.x on Turing), or run on a GPU inside the extension's range.",
        sources: &["github:Dao-AILab/flash-attention README.md and csrc/flash_attn/flash_api.cpp", "https://docs.vllm.ai/en/latest/getting_started/installation/gpu.html"],
    },
    check: check_ext002,
    superseded_by: &[],
};

fn check_ext002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let gpus = facts::nvidia_gpus(inv, kb);
    let mut out = Vec::new();
    for env in &inv.python {
        for (p, row) in extensions(kb, env) {
            let Some(r) = row else { continue };
            if r.min_cc.is_none() && r.max_cc.is_none() {
                continue;
            }
            for g in &gpus {
                let Some(cc) = g.cc.as_ref() else { continue };
                let below = r.min_cc.is_some_and(|m| cc.value < m);
                let above = r.max_cc.is_some_and(|m| cc.value > m);
                if !below && !above {
                    continue;
                }
                let range = range_text(r.min_cc, r.max_cc);
                let f = EXT002
                    .finding(format!(
                        "{} {} (in {}) runs on compute capability {range}; {} is {}",
                        p.name, p.version, env.path, g.label, cc.value
                    ))
                    .evidence(format!("{} version", p.name), &p.version, &p.source);
                let f = g.cite_cc(f).kb(ext_kb(r)).fix_note(
                    "use PyTorch SDPA or another backend on this GPU, or a GPU inside the extension's range",
                );
                out.push(f);
            }
        }
    }
    out
}

fn range_text(min: Option<ComputeCapability>, max: Option<ComputeCapability>) -> String {
    match (min, max) {
        (Some(a), Some(b)) if a == b => format!("{a} only"),
        (Some(a), Some(b)) => format!("{a} to {b}"),
        (Some(a), None) => format!("{a} or newer"),
        (None, Some(b)) => format!("up to {b}"),
        (None, None) => "any".into(),
    }
}

pub static EXT003: Rule = Rule {
    code: "EXT003",
    name: "extension-nvcc-major-differs",
    category: Category::CompiledExtension,
    severity: Severity::Warning,
    summary: "An extension built from source here would be compiled by an nvcc of another CUDA major than torch's.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "Extensions that are built from source (no binaries published, or installed editable) next to the CUDA toolkits with nvcc (CUDA_HOME first) and torch's CUDA build.",
        why_it_breaks: "torch.utils.cpp_extension refuses to build when nvcc's CUDA major differs from torch.version.cuda ('The detected CUDA version (X) mismatches the version that was used to compile PyTorch (Y)'); when forced, the extension links another libcudart than torch.",
        how_to_fix: "Point CUDA_HOME at a toolkit of torch's CUDA major before building (or install the torch build of the toolkit's major), then rebuild the extension with `--no-build-isolation`.",
        sources: &["github:pytorch/pytorch torch/utils/cpp_extension.py (_check_cuda_version)", "github:NVIDIA/apex setup.py (check_cuda_torch_binary_vs_bare_metal)"],
    },
    check: check_ext003,
    superseded_by: &[],
};

fn check_ext003(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let nvccs: Vec<_> = {
        let home = inv
            .env
            .get("CUDA_HOME")
            .map(|f| f.value.trim_end_matches('/').to_string());
        let all: Vec<_> = inv.toolkits.iter().filter(|t| t.has_nvcc).collect();
        match home.and_then(|h| {
            all.iter()
                .find(|t| t.path.trim_end_matches('/') == h)
                .copied()
        }) {
            Some(t) => vec![t],
            None => all,
        }
    };
    if nvccs.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for env in &inv.python {
        let Some((major, cuda)) = torch_cuda_major(env) else {
            continue;
        };
        if nvccs.iter().any(|t| t.version.value.major == major) {
            continue;
        }
        for (p, row) in extensions(kb, env) {
            let source_built = p.editable || row.is_some_and(|r| r.prebuilt == Prebuilt::Source);
            if !source_built {
                continue;
            }
            let t = nvccs[0];
            let mut f = EXT003
                .finding(format!(
                    "{} {} in {} builds from source with nvcc {} ({}), but torch is a CUDA {major} build",
                    p.name, p.version, env.path, t.version.value, t.path
                ))
                .evidence(format!("{} version", p.name), &p.version, &p.source)
                .fact(format!("nvcc ({})", t.path), &t.version)
                .evidence(
                    format!("torch CUDA build ({})", env.path),
                    cuda.value.map_or("none".into(), |v| v.to_string()),
                    &cuda.source,
                );
            if let Some(r) = row {
                f = f.kb(ext_kb(r));
            }
            out.push(f.fix_note(format!(
                "set CUDA_HOME to a CUDA {major}.x toolkit (or install the torch build for CUDA {}), then rebuild {} with --no-build-isolation",
                t.version.value.major, p.name
            )));
        }
        // A build the report shows (setup.py, BuildExtension, `Building wheel for X`)
        // of an extension no environment lists yet.
        if let (true, Some(build)) = (out.is_empty(), inv.setting.extension_build.as_ref()) {
            let t = nvccs[0];
            out.push(
                EXT003
                    .finding(format!(
                        "The report builds {} from source with nvcc {} ({}), but torch is a CUDA {major} build: torch.utils.cpp_extension refuses a CUDA major other than torch's, and a forced build links another CUDA runtime than torch's.",
                        build.value, t.version.value, t.path
                    ))
                    .fact("extension build", build)
                    .fact(format!("nvcc ({})", t.path), &t.version)
                    .evidence(
                        format!("torch CUDA build ({})", env.path),
                        cuda.value.map_or("none".into(), |v| v.to_string()),
                        &cuda.source,
                    )
                    .fix_note(format!(
                        "set CUDA_HOME to a CUDA {major}.x toolkit (or install the torch build for CUDA {}), then rebuild with --no-build-isolation",
                        t.version.value.major
                    )),
            );
        }
    }
    out
}

pub static EXT004: Rule = Rule {
    code: "EXT004",
    name: "torch-cuda-arch-list-misses-gpu",
    category: Category::CompiledExtension,
    severity: Severity::Warning,
    summary: "TORCH_CUDA_ARCH_LIST leaves out a GPU of this machine: extensions built with it have no kernel for that GPU.",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "The targets in TORCH_CUDA_ARCH_LIST (`8.0;8.6+PTX`, `80 86`) against every NVIDIA GPU's compute capability, with the SASS/PTX binary-compatibility rules.",
        why_it_breaks: "torch.utils.cpp_extension compiles for exactly the targets listed; a GPU outside them gets 'no kernel image is available for execution on the device' from every kernel of the extension.",
        how_to_fix: "Add the GPU's compute capability to TORCH_CUDA_ARCH_LIST (or unset it so the build targets the GPUs present), then rebuild the extension.",
        sources: &["github:pytorch/pytorch torch/utils/cpp_extension.py (_get_cuda_arch_flags: TORCH_CUDA_ARCH_LIST)", "https://docs.nvidia.com/cuda/cuda-c-programming-guide/#binary-compatibility"],
    },
    check: check_ext004,
    superseded_by: &[],
};

fn check_ext004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(var) = inv.env.get("TORCH_CUDA_ARCH_LIST") else {
        return Vec::new();
    };
    // Bare two- or three-digit entries ("80 86") are CCs without the dot.
    let spelled: String = var
        .value
        .split([';', ' ', ','])
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (base, ptx) = t.strip_suffix("+PTX").map_or((t, ""), |b| (b, "+PTX"));
            if base.chars().all(|c| c.is_ascii_digit()) && base.len() >= 2 {
                format!(
                    "{}.{}{ptx}",
                    &base[..base.len() - 1],
                    &base[base.len() - 1..]
                )
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(";");
    let Ok(list) = parse_arch_list(&spelled) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for g in facts::nvidia_gpus(inv, kb) {
        let Some(cc) = g.cc.as_ref() else { continue };
        if let KernelMatch::None { reason } = kb.kernels_for_gpu(&list, cc.value) {
            let f = EXT004
                .finding(format!(
                    "TORCH_CUDA_ARCH_LIST={} has no target that runs on {} (compute capability {}): {reason}",
                    var.value, g.label, cc.value
                ))
                .fact("TORCH_CUDA_ARCH_LIST", var);
            out.push(g.cite_cc(f).fix_command(
                format!(
                    "export TORCH_CUDA_ARCH_LIST=\"{};{}\"",
                    var.value.trim_matches('"'),
                    cc.value
                ),
                Some("then rebuild the extensions compiled with it".into()),
            ));
        }
    }
    out
}

pub static EXT005: Rule = Rule {
    code: "EXT005",
    name: "kernel-image-missing-outside-torch",
    category: Category::CompiledExtension,
    severity: Severity::Warning,
    summary: "'No kernel image is available' although the torch build carries kernels for every GPU: the missing kernels belong to another compiled package.",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "A 'no kernel image is available for execution on the device' error (CUDA error 209, not a compiler's refusal) in a report whose CUDA torch build has a known arch list that covers every NVIDIA GPU with a known compute capability, or in a report that builds a CUDA extension itself (setup.py, BuildExtension, 'compiled X from source').",
        why_it_breaks: "torch's own operations run on such a GPU, so the kernel the program could not find comes from code compiled separately: a custom CUDA extension built by the project, a prebuilt wheel (xformers, a rasterizer, a quantization kernel) or the program's own binary, built with an arch list (TORCH_CUDA_ARCH_LIST, -gencode, CMAKE_CUDA_ARCHITECTURES) that leaves this GPU out.",
        how_to_fix: "Find the package from the traceback (the module that raised the error) and install its build for this GPU and torch, or build it from source with this GPU's compute capability in its arch list (for torch extensions: `TORCH_CUDA_ARCH_LIST=X.Y pip install --no-build-isolation PACKAGE`).",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility",
            "https://pytorch.org/docs/stable/cpp_extension.html (TORCH_CUDA_ARCH_LIST selects the architectures an extension is built for; without it, those of the GPUs visible at build time)",
            "https://github.com/open-mmlab/mmcv/issues/2201 (mmcv built on an A100, run on a V100)",
        ],
    },
    check: check_ext005,
    superseded_by: &[],
};

fn check_ext005(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(first) = inv
        .errors
        .iter()
        .find(|e| e.kind == ErrorKind::NoKernelImage && !super::arch::compiler_refused(e))
    else {
        return vec![];
    };
    let gpus: Vec<_> = facts::nvidia_gpus(inv, kb)
        .into_iter()
        .filter(|g| g.cc.is_some())
        .collect();
    let cc = gpus
        .first()
        .and_then(|g| g.cc.as_ref())
        .map_or("X.Y".into(), |c| c.value.to_string());
    // Which torch carries kernels for the GPUs needs GPUs to compare with.
    let torch = if gpus.is_empty() {
        Vec::new()
    } else {
        facts::torch_views(inv, kb)
    };
    for t in torch {
        if t.cuda().is_none() {
            continue;
        }
        let Some(list) = &t.arch_list else { continue };
        if !super::arch::without_kernels(kb, &list.value, &gpus).is_empty() {
            continue;
        }
        let names: Vec<String> = gpus
            .iter()
            .map(|g| {
                format!(
                    "{} (compute capability {})",
                    g.label,
                    g.cc.as_ref().map_or("?".into(), |c| c.value.to_string())
                )
            })
            .collect();
        let mut f = EXT005
            .finding(format!(
                "The program reported no kernel image for the device, yet {} carries kernels for {}: the kernels that are missing belong to another compiled package loaded beside torch (a custom CUDA extension, a prebuilt wheel such as xformers or a rasterizer, or the program's own binary) built without this GPU's architecture.",
                t.label,
                names.join(", ")
            ))
            .evidence("observed error", &first.text, &first.source);
        f = t.cite_arch(t.cite_version(f));
        for g in &gpus {
            f = g.cite_cc(f);
        }
        return vec![f.fix_command(
            format!("TORCH_CUDA_ARCH_LIST={cc} pip install --no-build-isolation --force-reinstall --no-deps PACKAGE"),
            Some("PACKAGE: the extension the traceback names (its module raised the error); or install that package's prebuilt build for this GPU and torch".into()),
        )];
    }
    // The report builds an extension itself: without TORCH_CUDA_ARCH_LIST,
    // torch's build targets the GPUs of the machine that builds it.
    if let Some(build) = &inv.setting.extension_build {
        let mut f = EXT005
            .finding(format!(
                "The report builds {} itself, and the program then found no kernel image for {}: an extension is compiled for the architectures TORCH_CUDA_ARCH_LIST names or, without it, for the GPUs of the machine that built it, so a build made elsewhere (or for other GPUs) has no kernels for this one.",
                build.value, gpus.first().map_or("the GPU", |g| g.label.as_str())
            ))
            .fact("extension build", build)
            .evidence("observed error", &first.text, &first.source);
        for g in &gpus {
            f = g.cite_cc(f);
        }
        return vec![f.fix_command(
            format!("TORCH_CUDA_ARCH_LIST=\"{cc}\" pip install --no-build-isolation --force-reinstall --no-deps PACKAGE"),
            Some("rebuild the extension on this machine, or list every GPU's compute capability in TORCH_CUDA_ARCH_LIST when one build serves several GPUs".into()),
        )];
    }
    vec![]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_build_tags() {
        assert_eq!(
            local_build("2.7.4.post1+cu12torch2.6cxx11abiFALSE"),
            (Some(12), Some("2.6".into()))
        );
        assert_eq!(local_build("0.0.28.post2+cu118"), (Some(11), None));
        assert_eq!(local_build("0.0.23"), (None, None));
    }
}
