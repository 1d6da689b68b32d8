//! Architecture family: does each GPU get a kernel it can run, from the
//! wheel's arch list, the driver branch and the CUDA major?

use crate::finding::{Category, Finding, Fix, KbRef, Severity};
use crate::inventory::{ErrorKind, Inventory, OsKind};
use crate::kb::tables::{AppRow, ArchitectureRow};
use crate::kb::{Kb, KernelMatch};
use crate::version::DriverVersion;

use super::facts::{self, GpuView};
use super::fix;
use super::{CompatSemantic, Docs, Rule};

pub static RULES: &[&Rule] = &[
    &ARCH001, &ARCH002, &ARCH003, &ARCH004, &ARCH005, &ARCH006, &ARCH007, &ARCH008,
];

pub static ARCH001: Rule = Rule {
    code: "ARCH001",
    name: "no-kernel-for-gpu",
    category: Category::ArchUnsupported,
    severity: Severity::Error,
    summary: "The torch wheel holds no kernel that runs on a GPU: no SASS of its major at or below its minor, and no PTX at or below it.",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "For each CUDA torch build and each NVIDIA GPU with a known compute capability: the wheel's arch list (torch.cuda.get_arch_list() when Python was run, else the `torch_arch` table for that release, variant and wheel platform: an aarch64 Linux machine reads the linux-aarch64 rows only, a Windows machine the windows-x86_64 rows only) against the GPU. SASS `sm_X.Y` runs on `X.Z` with `Z >= Y` (same major); PTX `compute_X.Y` JIT-compiles for any CC at or above X.Y; `sm_90a`-style targets run only on exactly that CC; `sm_100f` family targets run within their family; integrated (Jetson) GPUs need SASS for exactly their CC.",
        why_it_breaks: "Without a kernel the GPU can run, every CUDA operation fails with 'no kernel image is available for execution on the device' (CUDA error 209), and torch warns that the GPU's capability 'is not compatible with the current PyTorch installation'. It happens with a GPU newer than the wheel (an RTX 50-series sm_120 on a cu124 wheel) or older than it (a Kepler or Maxwell GPU on a wheel that dropped it).",
        how_to_fix: "Install a variant whose arch list covers the GPU: the fix names the newest variant of the same release with kernels for every GPU that this driver runs, or, when the release has none, the newest release that has. For GPUs dropped by current wheels, use an older release or build from source with TORCH_CUDA_ARCH_LIST set.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#ptx-compatibility",
            "https://developer.nvidia.com/blog/nvidia-blackwell-and-nvidia-cuda-12-9-introduce-family-specific-architecture-features/",
        ],
    },
    check: check_arch001,
    superseded_by: &[],
};

fn sm_of(g: &GpuView) -> String {
    g.cc.as_ref().map_or("?".into(), |c| c.value.sm())
}

/// The GPUs (of those with a known compute capability) an arch list holds
/// no kernel for, each with the reason.
pub(super) fn without_kernels<'g, 'a>(
    kb: &Kb,
    list: &[crate::version::ArchTarget],
    gpus: &'g [GpuView<'a>],
) -> Vec<(&'g GpuView<'a>, String)> {
    gpus.iter()
        .filter_map(|g| {
            let cc = g.cc.as_ref()?.value;
            match kb.kernels_for_gpu(list, cc) {
                KernelMatch::None { reason } => Some((g, reason)),
                _ => None,
            }
        })
        .collect()
}

fn check_arch001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let gpus = facts::nvidia_gpus(inv, kb);
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        if t.cuda().is_none() {
            continue;
        }
        let Some(list) = &t.arch_list else { continue };
        let missing = without_kernels(kb, &list.value, &gpus);
        if missing.is_empty() {
            continue;
        }
        let what: Vec<String> = missing
            .iter()
            .map(|(g, _)| format!("{} ({})", g.label, sm_of(g)))
            .collect();
        let reason = missing.first().map(|(_, r)| r.clone()).unwrap_or_default();
        let mut f = ARCH001.finding(format!(
            "{} has no kernel for {}: {reason}. CUDA operations fail with 'no kernel image is available for execution on the device'.",
            t.label,
            what.join(", ")
        ));
        f = t.cite_arch(t.cite_version(f));
        for (g, _) in &missing {
            f = g.cite_cc(f);
        }
        if let Some(release) = &t.release {
            f = fix::torch_fix(inv, kb, t.env, release).apply(f);
        }
        out.push(f);
    }
    out
}

pub static ARCH002: Rule = Rule {
    code: "ARCH002",
    name: "ptx-jit-only",
    category: Category::ArchUnsupported,
    severity: Severity::Warning,
    summary: "The torch wheel has only PTX for a GPU: the driver JIT-compiles it at start-up.",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "As ARCH001, for GPUs that get no SASS from the wheel but a PTX target at or below their compute capability.",
        why_it_breaks: "PTX runs after the driver JIT-compiles it, which makes the first start slow (minutes for torch; the cache in ~/.nv/ComputeCache helps later runs), may be slower than SASS, and fails when the driver's JIT is older than the PTX (error 222, e.g. under minor-version compatibility).",
        how_to_fix: "Install a variant with SASS for the GPU (the fix names one when the knowledge base has it). Otherwise keep the JIT cache large enough (CUDA_CACHE_MAXSIZE) so it compiles once.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#just-in-time-compilation",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#ptx-compatibility",
        ],
    },
    check: check_arch002,
    superseded_by: &[],
};

fn check_arch002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let gpus = facts::nvidia_gpus(inv, kb);
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        if t.cuda().is_none() {
            continue;
        }
        let Some(list) = &t.arch_list else { continue };
        let ptx: Vec<(&GpuView, String)> = gpus
            .iter()
            .filter_map(|g| {
                let cc = g.cc.as_ref()?.value;
                match kb.kernels_for_gpu(&list.value, cc) {
                    KernelMatch::Ptx { reason, .. } => Some((g, reason)),
                    _ => None,
                }
            })
            .collect();
        if ptx.is_empty() {
            continue;
        }
        let what: Vec<String> = ptx
            .iter()
            .map(|(g, _)| format!("{} ({})", g.label, sm_of(g)))
            .collect();
        let reason = ptx.first().map(|(_, r)| r.clone()).unwrap_or_default();
        let mut f = ARCH002.finding(format!(
            "{} runs on {} only through PTX: {reason}.",
            t.label,
            what.join(", ")
        ));
        f = t.cite_arch(t.cite_version(f));
        for (g, _) in &ptx {
            f = g.cite_cc(f);
        }
        if let Some(release) = &t.release {
            let plan = fix::torch_fix(inv, kb, t.env, release);
            // Only offer a reinstall when it gives SASS; otherwise say how to live with the JIT.
            if plan
                .pick
                .as_ref()
                .is_some_and(|p| p.fit == fix::KernelFit::Sass)
            {
                f = plan.apply(f);
            } else {
                f = f.fix_note("No variant in the knowledge base has SASS for this GPU; let the JIT cache keep the compiled kernels (CUDA_CACHE_MAXSIZE=4294967296) so only the first start is slow.");
            }
        }
        out.push(f);
    }
    out
}

pub static ARCH003: Rule = Rule {
    code: "ARCH003",
    name: "gpu-dropped-by-driver-branch",
    category: Category::DriverBranch,
    severity: Severity::Error,
    summary: "The driver branch no longer supports the GPU's architecture (Kepler after R470; Maxwell, Pascal and Volta after R580).",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "For each NVIDIA GPU: its architecture's last driver branch (`architectures` table) against the installed driver's branch.",
        why_it_breaks: "Newer driver branches drop old architectures: R470 is the last for Kepler, R580 for Maxwell, Pascal and Volta. A newer driver ignores the GPU (the kernel log says it 'is supported through the NVIDIA 580.xx Legacy drivers'), so there is no CUDA device.",
        how_to_fix: "Install the legacy branch that still supports the GPU (R470 for Kepler, R580 for Maxwell/Pascal/Volta), with CUDA builds that branch runs, or replace the GPU.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html (last driver branch per architecture)",
            "github:NixOS/nixos-hardware issues #1828, #1880 (595.xx kernel log: GPU supported through the 580.xx legacy drivers, ignored)",
        ],
    },
    check: check_arch003,
    superseded_by: &[],
};

/// The NVIDIA GPUs whose architecture's support ended with a driver branch,
/// with that architecture and its last branch.
fn legacy_gpus<'a>(
    inv: &'a Inventory,
    kb: &'a Kb,
) -> Vec<(GpuView<'a>, &'a ArchitectureRow, &'a DriverVersion)> {
    facts::nvidia_gpus(inv, kb)
        .into_iter()
        .filter_map(|g| {
            let arch = g.arch?;
            let last = arch.last_driver_branch.as_ref()?;
            Some((g, arch, last))
        })
        .collect()
}

fn check_arch003(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(drv) = facts::driver(inv) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (g, arch, last) in legacy_gpus(inv, kb) {
        if drv.value.branch() <= last.branch() {
            continue;
        }
        let mut f = ARCH003.finding(format!(
            "{} is a {} GPU, supported up to the {} driver branch; driver {} ({}) no longer drives it, so there is no CUDA device.",
            g.label,
            arch.name,
            last.branch_name(),
            drv.value,
            drv.value.branch_name()
        ));
        f = g
            .cite_cc(g.cite_name(f))
            .fact("driver version", drv)
            .kb(arch.kb());
        let note = format!(
            "install the {} legacy driver ({}.xx) and CUDA builds it runs (see `gpucompat db driver {}`), or replace the GPU",
            last.branch_name(),
            last.branch(),
            last.branch()
        );
        f.fix = Some(
            if facts::is_ubuntu(inv) && !facts::in_container(inv) && !facts::is_wsl(inv) {
                Fix {
                    command: Some(format!("sudo apt install nvidia-driver-{}", last.branch())),
                    note: Some(note),
                    ..Default::default()
                }
            } else {
                Fix {
                    command: None,
                    note: Some(note),
                    ..Default::default()
                }
            },
        );
        out.push(f);
    }
    out
}

pub static ARCH004: Rule = Rule {
    code: "ARCH004",
    name: "gpu-dropped-by-cuda-major",
    category: Category::ArchUnsupported,
    severity: Severity::Error,
    summary: "A framework is built with a CUDA release that no longer supports the GPU's architecture (e.g. CUDA 13.x and Maxwell, Pascal or Volta).",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "For each framework CUDA build whose arch list is not known (a known torch arch list is ARCH001's job): the architecture's last toolkit (`architectures` table), else the lowest SM that CUDA version's nvcc targets (`nvcc_targets`), against each GPU's compute capability.",
        why_it_breaks: "Each CUDA major drops old architectures from nvcc and the libraries (CUDA 12.0 dropped Kepler; CUDA 13.0 dropped Maxwell, Pascal and Volta). A framework built with that CUDA has no kernels for those GPUs, and its bundled cuBLAS/cuDNN neither: 'no kernel image is available' or a library error at the first call.",
        how_to_fix: "Use a build of the framework made with the last CUDA that supports the GPU (for Maxwell/Pascal/Volta: CUDA 12.x; for Kepler: 11.x).",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (deprecated and dropped architectures)",
            "https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html",
        ],
    },
    check: check_arch004,
    superseded_by: &[],
};

fn check_arch004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let gpus = facts::nvidia_gpus(inv, kb);
    let mut out = Vec::new();
    for rt in facts::runtimes(inv, kb) {
        if rt.torch.as_ref().is_some_and(|t| t.arch_list.is_some()) {
            continue;
        }
        let r = rt.cuda.value.major_minor();
        for g in &gpus {
            let Some(cc) = g.cc.as_ref() else { continue };
            let (dropped, kbref, last) = match g.arch.and_then(|a| a.last_toolkit.map(|l| (a, l))) {
                Some((a, last)) => (r > last.major_minor(), Some(a.kb()), Some(last)),
                None => match kb.nvcc_targets(&r).and_then(|n| n.min_sm.map(|m| (n, m))) {
                    Some((n, min)) => (cc.value.plain() < min.plain(), Some(n.kb()), None),
                    None => (false, None, None),
                },
            };
            if !dropped {
                continue;
            }
            let why = match (last, g.arch) {
                (Some(l), Some(a)) => format!("the last CUDA for {} is {l}", a.name),
                _ => format!("CUDA {r} does not target {}", cc.value.sm()),
            };
            let mut f = ARCH004.finding(format!(
                "{} in {} is built with CUDA {r}, which has no support for {} ({}): {why}.",
                rt.what,
                rt.env.path,
                g.label,
                cc.value.sm()
            ));
            f = rt
                .cuda
                .cite(f, &format!("{} CUDA build ({})", rt.what, rt.env.path));
            f = g.cite_cc(f);
            if let Some(k) = kbref {
                f = f.kb(k);
            }
            let fx = match (
                &rt.torch,
                &rt.torch.as_ref().and_then(|t| t.release.clone()),
            ) {
                (Some(t), Some(release)) => {
                    let plan = fix::torch_fix(inv, kb, t.env, release);
                    for k in plan.kb {
                        f = f.kb(k);
                    }
                    plan.fix
                }
                _ => Fix {
                    command: None,
                    note: Some(match last {
                        Some(l) => format!(
                            "install a build of {} made with CUDA {} or older",
                            rt.what,
                            l.major_minor()
                        ),
                        None => format!(
                            "install a build of {} made with an older CUDA that still targets {}",
                            rt.what,
                            cc.value.sm()
                        ),
                    }),
                    ..Default::default()
                },
            };
            f.fix = Some(fx);
            out.push(f);
        }
    }
    out
}

pub static ARCH005: Rule = Rule {
    code: "ARCH005",
    name: "legacy-gpu-without-a-driver",
    category: Category::DriverBranch,
    severity: Severity::Error,
    summary: "A GPU that only a legacy driver branch still drives (Kepler: R470; Maxwell, Pascal, Volta: R580) is named next to a driver that does not load or finds no device, and the driver's version is not in sight.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Reports with a no-driver error (nvidia-smi cannot talk to the driver, no NVIDIA driver, no CUDA device) that name a GPU whose architecture's support ended with a driver branch, when no driver version is shown. With the version in sight ARCH003 decides. It stays quiet under WSL and in containers (the driver is Windows' or the host's), beside a GPU the firmware left unmapped or that fell off the bus, and for errors another reading claims (CUDA_VISIBLE_DEVICES, a launcher, the platform).",
        why_it_breaks: "Each driver branch after an architecture's last one ignores those GPUs: the module loads but claims no device ('NVRM: ... supported through the NVIDIA 470.xx Legacy drivers'), so nvidia-smi fails and CUDA finds nothing. A distribution's or a cloud image's current driver is often such a newer branch.",
        how_to_fix: "Install the last branch that drives the GPU (`sudo apt install nvidia-driver-470` for Kepler, `nvidia-driver-580` for Maxwell, Pascal and Volta), with CUDA builds it supports; `nvidia-smi` then lists the GPU. `sudo dmesg | grep NVRM` shows the driver's own refusal.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html (last driver branch per architecture)",
            "https://github.com/skypilot-org/skypilot/issues/449",
        ],
    },
    check: check_arch005,
    superseded_by: &[],
};

fn check_arch005(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    // Under WSL the driver is Windows'; in a container the host's, given or
    // not by the runtime; a GPU the firmware left unmapped or that fell off
    // the bus fails whatever the branch.
    if facts::driver(inv).is_some()
        || facts::is_wsl(inv)
        || facts::in_container(inv)
        || !inv
            .errors_of(&[ErrorKind::PciResourceUnassigned, ErrorKind::GpuFellOffBus])
            .is_empty()
    {
        return vec![];
    }
    // Errors another reading claims (CUDA_VISIBLE_DEVICES, a launcher, the
    // platform) are not the driver's silence.
    let errs: Vec<_> = inv
        .errors_of(&[
            ErrorKind::SmiNoDriver,
            ErrorKind::NoNvidiaDriver,
            ErrorKind::NoDevice,
        ])
        .into_iter()
        .filter(|e| super::observed::claimed_by(inv, e).map_or(true, |c| c == "ERR006"))
        .collect();
    if errs.is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    for (g, arch, last) in legacy_gpus(inv, kb) {
        let mut f = ARCH005.finding(format!(
            "{} is a {} GPU, which drivers after the {} branch no longer drive: a newer driver loads but claims no device, which matches the error here. The driver's version is not in the report; installed or not, this GPU needs that branch.",
            g.label,
            arch.name,
            last.branch_name()
        ));
        f = g
            .cite_cc(g.cite_name(f))
            .kb(arch.kb())
            .observed(errs.iter().copied());
        let note = format!(
            "if `nvidia-smi`'s driver is newer than {}, install the {} legacy driver ({}.xx); `sudo dmesg | grep NVRM` shows whether the driver ignored the GPU",
            last.branch_name(),
            last.branch_name(),
            last.branch()
        );
        out.push(
            if facts::is_macos(inv)
                || facts::is_wsl(inv)
                || facts::os_kind(inv) == Some(OsKind::Windows)
            {
                f.fix_note(note)
            } else {
                f.fix_command(
                    format!("sudo apt install nvidia-driver-{}", last.branch()),
                    Some(note),
                )
            },
        );
    }
    out
}

pub static ARCH006: Rule = Rule {
    code: "ARCH006",
    name: "gpu-below-app-floor",
    category: Category::ArchUnsupported,
    severity: Severity::Error,
    summary: "The application the report is about supports only GPUs of a higher compute capability than this one (Ollama: 5.0 and newer).",
    semantics: &[CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "Reports that name an application with a documented GPU floor (`apps` table: Ollama, vLLM, RAPIDS) and an NVIDIA GPU whose compute capability is below it. An error when every NVIDIA GPU named is below the floor, a warning when some other GPU meets it or when the only error shown is the program refusing bfloat16 (a check made before any kernel runs).",
        why_it_breaks: "An application's CUDA build carries kernels only for the architectures its project builds for, whatever the driver and the toolkit would allow. Below that floor it finds no usable GPU and falls back to the CPU (or stops), and no driver or CUDA install changes that.",
        how_to_fix: "Use a GPU at or above the application's floor, or build the application from source for the older GPU where its project documents how.",
        sources: &[
            "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx (Ollama supports Nvidia GPUs with compute capability 5.0+)",
            "https://docs.vllm.ai/en/v0.5.0/getting_started/installation.html (vLLM: compute capability 7.0 or higher)",
        ],
    },
    check: check_arch006,
    superseded_by: &[],
};

fn app_kb(r: &AppRow) -> KbRef {
    KbRef {
        table: "apps".into(),
        row: r.app.clone(),
        source: r.source.clone(),
    }
}

fn check_arch006(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(app) = &inv.setting.app else {
        return vec![];
    };
    let Some(row) = kb.apps.row.iter().find(|r| r.app == app.value) else {
        return vec![];
    };
    let Some(floor) = row.min_cc else {
        return vec![];
    };
    let gpus = facts::nvidia_gpus(inv, kb);
    let below: Vec<_> = gpus
        .iter()
        .filter(|g| g.cc.as_ref().is_some_and(|cc| cc.value < floor))
        .collect();
    if below.is_empty() {
        return vec![];
    }
    let all_below = below.len() == gpus.len();
    let errs = inv.errors_of(NO_GPU_KINDS);
    below
        .into_iter()
        .map(|g| {
            let cc = g.cc.as_ref().map(|c| c.value.to_string()).unwrap_or_default();
            let name = row.name.as_deref().unwrap_or(&app.value);
            let without = match (all_below, &row.without_gpu) {
                (true, Some(w)) => format!(" and {w}"),
                _ => String::new(),
            };
            let mut f = ARCH006.finding(format!(
                "{} has compute capability {cc}; {name} supports NVIDIA GPUs of compute capability {floor} and newer, so it cannot use this GPU{without}.",
                g.label,
            ));
            f = g
                .cite_cc(g.cite_name(f))
                .evidence("application", &app.value, &app.source)
                .kb(app_kb(row))
                .observed(errs.iter().copied());
            // The error shown is the program refusing bfloat16, a check made
            // before any kernel runs: the floor is advice, not its cause.
            if !all_below || super::observed::bf16_refused_only(inv) {
                f.severity = Severity::Warning;
            }
            let more = row.note.as_deref().map(|n| format!(". {n}")).unwrap_or_default();
            f.fix_note(format!("use a GPU of compute capability {floor} or newer{more}"))
        })
        .collect()
}

pub static ARCH007: Rule = Rule {
    code: "ARCH007",
    name: "toolkit-cannot-target-gpu",
    category: Category::ArchUnsupported,
    severity: Severity::Warning,
    summary: "A CUDA toolkit's nvcc cannot compile for a GPU: the GPU is newer than the toolkit (an RTX 4090's sm_89 before CUDA 11.8) or older than it (Kepler after CUDA 11).",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "For each CUDA toolkit (nvcc --version, a toolkit directory, or one the report names) and each NVIDIA GPU with a known compute capability: the lowest and highest SASS target that toolkit's nvcc knows (`nvcc_targets`). A toolkit left beside another that targets the GPU is named only when CUDA_HOME / CUDA_PATH points at it or a compiler refusal is seen. An error when the report shows the compiler refusing the architecture (nvcc, ptxas or NVRTC), a warning otherwise.",
        why_it_breaks: "Whatever compiles device code with this toolkit for the GPU it runs on fails: CUDA extensions built from source (flash-attn, apex, a torch cpp_extension), and run-time compilers that use its nvcc or NVRTC (CuPy, PyCUDA, Numba, Theano). nvcc stops with 'Unsupported gpu architecture' or 'Value sm_XY is not defined', NVRTC with an invalid option. Prebuilt wheels do not use the toolkit and are not affected.",
        how_to_fix: "Install a toolkit whose nvcc targets the GPU (the fix names the first or last one that does) and point CUDA_HOME and PATH at it for the build.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list",
            "https://github.com/cryoem-uoft/cryosparc-issues/issues/131 (CUDA 7.5 asked for sm_61 on a GTX 1080)",
            "https://github.com/Theano/Theano/issues/6503 (CUDA 8 on Volta: NVRTC_ERROR_INVALID_OPTION)",
        ],
    },
    check: check_arch007,
    superseded_by: &[],
};

/// Whether an observed architecture error is a compiler's refusal (nvcc,
/// ptxas, NVRTC) rather than a prebuilt binary's missing kernel.
pub(super) fn compiler_refused(e: &crate::inventory::ObservedError) -> bool {
    let t = e.text.to_ascii_lowercase();
    // `Feature '.bf16' requires .target sm_80`: the code's instruction is
    // above the target, which the compiler accepted.
    if t.contains("requires .target") {
        return false;
    }
    [
        "nvcc",
        "ptxas",
        "nvrtc",
        "gpu-architecture",
        "is not defined for option",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// The `sm_XY` / `compute_XY` an error message names.
pub(crate) fn named_sm(text: &str) -> Option<crate::version::ComputeCapability> {
    ["sm_", "compute_"].iter().find_map(|p| {
        let at = text.find(p)?;
        let tail = &text[at..];
        let end = tail[p.len()..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .map_or(tail.len(), |e| e + p.len());
        tail[..end].parse().ok()
    })
}

/// A compiler refused an architecture and no toolkit version is in sight:
/// the refusal itself bounds the toolkit's version.
fn refused_without_toolkit(
    refused: &[&crate::inventory::ObservedError],
    gpus: &[GpuView],
    kb: &Kb,
) -> Option<Finding> {
    let (e, cc) = refused
        .iter()
        .find_map(|e| named_sm(&e.text).map(|cc| (*e, cc.plain())))?;
    let first = kb.nvcc_first_for(&cc)?;
    let newest = kb
        .nvcc_targets
        .row
        .iter()
        .map(|r| r.cuda.major_minor())
        .max()?;
    let last = kb
        .nvcc_last_for(&cc)
        .filter(|l| l.cuda.major_minor() < newest);
    let range = match last {
        Some(l) => format!(
            "older than {} (the first whose nvcc targets {}) or newer than {} (the last)",
            first.cuda.major_minor(),
            cc.sm(),
            l.cuda.major_minor()
        ),
        None => format!(
            "older than {} (the first whose nvcc targets {})",
            first.cuda.major_minor(),
            cc.sm()
        ),
    };
    let gpu = gpus
        .iter()
        .find(|g| g.cc.as_ref().is_some_and(|c| c.value.plain() == cc));
    // Every GPU known and none of the refused architecture (so `gpu` is None):
    // the build's own target list is at fault (ERR026 says it), not the GPU
    // or the toolkit.
    if super::observed::stale_arch_target(e, gpus.iter().map(|g| g.cc.as_ref().map(|c| c.value))) {
        return None;
    }
    let mut f = ARCH007.finding(format!(
        "The CUDA compiler in use refused {}: its toolkit is {range}.{}",
        cc.sm(),
        gpu.map(|g| format!(
            " {} is {}, so code for it cannot be compiled with that toolkit.",
            g.label,
            cc.sm()
        ))
        .unwrap_or_default()
    ));
    f.severity = Severity::Error;
    f = f.observed([e]).kb(first.kb());
    if let Some(l) = last {
        f = f.kb(l.kb());
    }
    if let Some(g) = gpu {
        f = g.cite_cc(g.cite_name(f));
    }
    let window = match last {
        Some(l) => format!("{} to {}", first.cuda.major_minor(), l.cuda.major_minor()),
        None => format!("{} or newer", first.cuda.major_minor()),
    };
    Some(f.fix_command(
        "nvcc --version",
        Some(format!(
            "build with a CUDA toolkit {window}, whose nvcc targets {} (point CUDA_HOME and PATH at it)",
            cc.sm()
        )),
    ))
}

fn check_arch007(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let gpus = facts::nvidia_gpus(inv, kb);
    let arch_errs = inv.errors_of(&[ErrorKind::ArchNotCompiled, ErrorKind::NoKernelImage]);
    // An arch a framework fell back to because it could not ask the GPU is
    // not the GPU's: ERR038 names that cause.
    let refused: Vec<_> = arch_errs
        .iter()
        .copied()
        .filter(|e| compiler_refused(e) && !super::observed::fallback_arch(inv, e))
        .collect();
    // An nvcc that also refuses what torch's build needs (C++17) is older than
    // torch's CUDA: that mismatch (ERR016) is the cause the refusal follows from.
    if !inv.errors_of(&[ErrorKind::ToolkitTorchMismatch]).is_empty() && !refused.is_empty() {
        return vec![];
    }
    if inv.toolkits.is_empty() {
        return refused_without_toolkit(&refused, &gpus, kb)
            .into_iter()
            .collect();
    }
    // A prebuilt framework's missing kernel is ARCH001/ARCH004's and ERR004's to name.
    if refused.is_empty() && !arch_errs.is_empty() && !facts::runtimes(inv, kb).is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    let mut seen = Vec::new();
    // An nvcc that is not the toolkit the report installed is ENV009's: PATH is the fix.
    let shadowing = super::env::nvcc_not_installed(inv).map(|(t, _, _)| t.version.value);
    for t in &inv.toolkits {
        let v = t.version.value.major_minor();
        if seen.contains(&v) || shadowing == Some(t.version.value) {
            continue;
        }
        seen.push(v);
        let Some(row) = kb.nvcc_targets(&t.version.value) else {
            continue;
        };
        let home = facts::named_by_home(inv, t);
        for g in &gpus {
            let Some(cc) = g.cc.as_ref() else { continue };
            let c = cc.value.plain();
            let newer = row.max_sm.as_ref().is_some_and(|m| c > m.plain());
            let older = row.min_sm.as_ref().is_some_and(|m| c < m.plain());
            if !newer && !older {
                continue;
            }
            // Another toolkit here targets the GPU: an old one left beside it
            // matters only when a build is pointed at it or was seen failing.
            let other_here = inv.toolkits.iter().find(|k| {
                k.has_nvcc
                    && kb
                        .nvcc_targets(&k.version.value)
                        .and_then(|r| r.targets(&cc.value))
                        == Some(true)
            });
            if other_here.is_some() && home.is_none() && refused.is_empty() {
                continue;
            }
            let (range, other) = if newer {
                (
                    format!(
                        "its newest target is {}",
                        row.max_sm.as_ref().map(|m| m.sm()).unwrap_or_default()
                    ),
                    kb.nvcc_first_for(&cc.value),
                )
            } else {
                (
                    format!(
                        "its oldest target is {}",
                        row.min_sm.as_ref().map(|m| m.sm()).unwrap_or_default()
                    ),
                    kb.nvcc_last_for(&cc.value),
                )
            };
            let mut f = ARCH007.finding(format!(
                "CUDA toolkit {v} ({}) cannot compile for {} ({}): {range}. Source builds of CUDA extensions and run-time compilers that use this toolkit (CuPy, PyCUDA, Numba) fail on this GPU.",
                t.path,
                g.label,
                c.sm()
            ));
            f = g
                .cite_cc(g.cite_name(f))
                .fact("CUDA toolkit version", &t.version)
                .kb(row.kb());
            if !refused.is_empty() {
                f.severity = Severity::Error;
                f = f.observed(refused.iter().copied());
            }
            if let Some(h) = home {
                f = f.fact(h.0, h.1);
            }
            let note = match (other_here, other, newer) {
                (Some(k), _, _) => format!(
                    "use the CUDA {} toolkit already here, whose nvcc targets {}: `export CUDA_HOME={}` and `export PATH=$CUDA_HOME/bin:$PATH` before the build",
                    k.version.value.major_minor(),
                    c.sm(),
                    k.path
                ),
                (None, o, n) => {
                    let (g, note) = toolkit_note(f, o, n, c);
                    f = g;
                    note
                }
            };
            out.push(f.fix_note(note));
        }
    }
    out
}

/// The fix's words when no toolkit here targets the GPU, with the row that
/// names the toolkit to install.
fn toolkit_note(
    f: Finding,
    other: Option<&crate::kb::tables::NvccTargetsRow>,
    newer: bool,
    c: crate::version::ComputeCapability,
) -> (Finding, String) {
    match (other, newer) {
        (Some(o), true) => (
            f.kb(o.kb()),
            format!("install CUDA toolkit {} or newer (its nvcc is the first that targets {}) and point CUDA_HOME and PATH at it for the build", o.cuda.major_minor(), c.sm()),
        ),
        (Some(o), false) => (
            f.kb(o.kb()),
            format!("use CUDA toolkit {} or older (the last whose nvcc targets {}), with builds of the software made for it", o.cuda.major_minor(), c.sm()),
        ),
        (None, _) => (f, format!("use a CUDA toolkit whose nvcc targets {}", c.sm())),
    }
}

/// Errors that say the program got no GPU.
const NO_GPU_KINDS: &[ErrorKind] = &[
    ErrorKind::NoDevice,
    ErrorKind::NoNvidiaDriver,
    ErrorKind::CudaUnavailable,
    ErrorKind::NoKernelImage,
    ErrorKind::ArchNotCompiled,
];

pub static ARCH008: Rule = Rule {
    code: "ARCH008",
    name: "needs-a-driver-the-gpu-never-gets",
    category: Category::DriverBranch,
    severity: Severity::Error,
    summary: "The program asks for a newer driver than the last branch that drives this GPU: no driver update can satisfy it (NVENC's SDK on Kepler after R470, a container built for a driver release past the GPU's last branch).",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Observed driver-too-old errors that name the driver version the program needs (ffmpeg's 'minimum required Nvidia driver for nvenc is X', an NGC container 'built for NVIDIA Driver Release X'), against the last driver branch of each NVIDIA GPU's architecture (`architectures` table).",
        why_it_breaks: "The usual repair for a driver-too-old error is a newer driver, but drivers after an architecture's last branch ignore its GPUs: R470 is the last for Kepler, R580 for Maxwell, Pascal and Volta. A program that needs a newer driver than that can never run on this GPU as built.",
        how_to_fix: "Use a build of the program made for what the GPU's last branch supports (an ffmpeg or OBS built with older nv-codec-headers, an older container release, a CUDA build the branch runs), or a newer GPU.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html (last driver branch per architecture)",
            "https://github.com/FFmpeg/FFmpeg/blob/master/libavcodec/nvenc.c (\"The minimum required Nvidia driver for nvenc is %s or newer\")",
        ],
    },
    check: check_arch008,
    superseded_by: &[],
};

/// The driver version an observed driver-too-old message says the program needs.
fn required_driver(text: &str) -> Option<DriverVersion> {
    let lower = text.to_ascii_lowercase();
    let after = ["driver for nvenc is ", "built for nvidia driver release "]
        .iter()
        .find_map(|k| lower.find(k).map(|p| &text[p + k.len()..]))?;
    let v: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    v.trim_end_matches('.').parse().ok()
}

fn check_arch008(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let needs: Vec<_> = inv
        .errors_of(&[ErrorKind::DriverTooOld])
        .into_iter()
        .filter_map(|e| required_driver(&e.text).map(|v| (e, v)))
        .collect();
    let Some((_, need)) = needs.iter().max_by_key(|(_, v)| v.branch()) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (g, arch, last) in legacy_gpus(inv, kb) {
        if need.branch() <= last.branch() {
            continue;
        }
        let f = ARCH008.finding(format!(
            "The program needs driver {need} or newer, but {} is a {} GPU, which no driver after the {} branch drives: updating the driver cannot fix this, since {} and later ignore this GPU.",
            g.label,
            arch.name,
            last.branch_name(),
            need.branch_name()
        ));
        let f = g
            .cite_cc(g.cite_name(f))
            .kb(arch.kb())
            .observed(needs.iter().map(|(e, _)| *e));
        out.push(f.fix_note(format!(
            "keep the {} driver and use a build of the program made for it (for NVENC: an ffmpeg, OBS or HandBrake build with nv-codec-headers the {} branch supports; for a container: a release built for that driver), or use a newer GPU",
            last.branch_name(),
            last.branch_name()
        )));
    }
    out
}
