//! Wheel family: is the installed torch the right kind of build for the
//! GPU that is there (CUDA, ROCm or CPU)?

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{EnvKind, ErrorKind, Inventory};
use crate::kb::{series, Kb};

use super::facts::{self, TorchKind};
use super::fix;
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[&WHL001, &WHL002, &WHL003, &WHL004];

pub static WHL001: Rule = Rule {
    code: "WHL001",
    name: "cpu-only-torch",
    category: Category::CpuOnlyWheel,
    severity: Severity::Error,
    summary: "torch is a CPU-only build (`+cpu`, or torch.version.cuda is None) while an NVIDIA GPU is present.",
    semantics: &[CompatSemantic::Toolkit, CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "For each Python environment with torch: whether the build has CUDA (torch/version.py `cuda`, or the `+cpu` / `+cuXXX` local version; a bare version is the PyPI wheel of the machine's platform, from `torch_releases`: a CUDA build on Linux x86_64, CPU-only on Windows and macOS, and on Linux aarch64 before 2.11), while an NVIDIA GPU is on the PCI bus or listed by the driver.",
        why_it_breaks: "A CPU-only wheel contains no CUDA code at all, so torch.cuda.is_available() is False and 'Torch not compiled with CUDA enabled' is raised, whatever the driver. Installing the CUDA toolkit does not fix a CPU wheel: torch never uses the system toolkit at run time; the CUDA runtime comes inside the CUDA wheel (and its nvidia-* dependencies). CPU wheels come from `--index-url .../whl/cpu`, from Windows PyPI (where the default torch is CPU-only), or from a dependency resolver that picked the CPU build.",
        how_to_fix: "Reinstall torch (with torchvision and torchaudio, which must match) from the CUDA variant index. The fix picks the newest variant of the installed release that this driver runs with no caveats (toolkit semantic) and whose arch list has kernels for every GPU, e.g. for torch 2.5.1 on driver 535.104.05 with an RTX 3090: `pip install --force-reinstall torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu121`, with the uv equivalent in the note. When no variant of the release fits, it says what to change: the driver or the release.",
        sources: &[
            "https://pytorch.org/get-started/locally/ (CUDA variants and their index URLs)",
            "https://pytorch.org/get-started/previous-versions/",
            "https://docs.astral.sh/uv/guides/integration/pytorch/",
        ],
    },
    check: check_whl001,
    superseded_by: &[],
};

fn check_whl001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::is_macos(inv) {
        return vec![];
    }
    let gpus = facts::nvidia_gpus(inv, kb);
    if gpus.is_empty() && !inv.has_nvidia_hardware() {
        return vec![];
    }
    let names: Vec<&str> = gpus.iter().map(|g| g.label.as_str()).collect();
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let TorchKind::Cpu { source } = &t.kind else {
            continue;
        };
        let mut f = WHL001.finding(format!(
            "{} is a CPU-only build, while NVIDIA GPUs are present ({}): torch.cuda.is_available() is False. Installing the CUDA toolkit does not change that; the CUDA build of torch is needed.",
            t.label,
            names.join(", ")
        ));
        f = t.cite_version(f);
        f = f.evidence(
            format!("torch CUDA build ({})", t.env.path),
            "none (CPU-only)",
            source,
        );
        for g in &gpus {
            f = g.cite_cc(g.cite_name(f));
        }
        match &t.release {
            Some(release) => f = fix::torch_fix(inv, kb, t.env, release).apply(f),
            None => {
                f = f.fix_note(format!(
                    "reinstall torch from a CUDA index ({}/cuXXX) whose CUDA the driver supports",
                    fix::TORCH_INDEX
                ))
            }
        }
        out.push(f);
    }
    out
}

pub static WHL002: Rule = Rule {
    code: "WHL002",
    name: "amd-gpu-without-rocm-torch",
    category: Category::AmdRocm,
    severity: Severity::Error,
    summary: "An AMD GPU (and no NVIDIA GPU) with a CUDA or CPU torch build: the ROCm build is the one that uses it.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Machines with an AMD GPU (PCI vendor 0x1002, /dev/kfd, gfx targets) and no NVIDIA GPU, where an environment's torch is a CUDA build (error) or a CPU build (warning).",
        why_it_breaks: "CUDA builds of torch run only on NVIDIA GPUs; on an AMD GPU torch.cuda.is_available() is False. AMD GPUs are used through the ROCm (HIP) build of torch, which keeps the `torch.cuda` API names.",
        how_to_fix: "Install the ROCm variant of the same release from the PyTorch index (`--index-url https://download.pytorch.org/whl/rocmX.Y`); the fix picks the variant closest to the installed ROCm. Check that the GPU's gfx target is supported by that ROCm release.",
        sources: &[
            "https://pytorch.org/get-started/locally/ (ROCm builds)",
            "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/3rd-party/pytorch-install.html",
        ],
    },
    check: check_whl002,
    superseded_by: &[],
};

fn amd_evidence(inv: &Inventory, f: Finding) -> Finding {
    let mut f = f;
    for p in inv
        .pci
        .iter()
        .filter(|p| p.vendor == crate::inventory::GpuVendor::Amd)
    {
        f = if p.address.is_empty() {
            // Named in a report, not read from the PCI bus.
            let name = p.name.as_deref().unwrap_or("an AMD device");
            f.evidence("AMD GPU", name, &p.source)
        } else {
            f.evidence(
                format!("PCI {} (AMD)", p.address),
                format!("{} {}", p.vendor_id, p.device_id),
                &p.source,
            )
        };
    }
    if let Some(k) = &inv.amd.kfd_present {
        f = f.fact("/dev/kfd present", k);
    }
    for g in &inv.amd.gfx_targets {
        f = f.fact("AMD gfx target", g);
    }
    if let Some(r) = &inv.amd.rocm_version {
        f = f.fact("installed ROCm", r);
    }
    f
}

fn check_whl002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if !facts::has_amd_gpu(inv) || inv.has_nvidia_hardware() {
        return vec![];
    }
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let (sev, what) = match &t.kind {
            TorchKind::Cuda(c) => (Severity::Error, format!("a CUDA {} build", c.value)),
            TorchKind::Cpu { .. } => (Severity::Warning, "a CPU-only build".to_string()),
            _ => continue,
        };
        let mut f = WHL002
            .finding(format!(
                "{} is {what}, but this machine's GPU is AMD: only the ROCm build of torch uses it (torch.cuda.is_available() is False otherwise).",
                t.label
            ))
            .at(sev);
        f = t.cite_cuda(t.cite_version(f));
        f = amd_evidence(inv, f);
        match &t.release {
            Some(release) => {
                let (fx, refs) = fix::torch_rocm_fix(inv, kb, t.env, release);
                for k in refs {
                    f = f.kb(k);
                }
                f.fix = Some(fx);
            }
            None => {
                f = f.fix_note(format!(
                    "install a ROCm build of torch from {}/rocmX.Y",
                    fix::TORCH_INDEX
                ))
            }
        }
        out.push(f);
    }
    out
}

pub static WHL003: Rule = Rule {
    code: "WHL003",
    name: "rocm-torch-vs-installed-rocm",
    category: Category::AmdRocm,
    severity: Severity::Warning,
    summary: "torch's ROCm build and the installed ROCm are different releases.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "For ROCm builds of torch (torch.version.hip, or a `+rocmX.Y` version): the HIP/ROCm major.minor against the installed ROCm (`/opt/rocm/.info/version`).",
        why_it_breaks: "ROCm wheels bundle their ROCm user-space libraries, but the kernel driver (amdgpu/KFD) of the installed ROCm must support them, and extensions built against /opt/rocm (or libraries loaded from it through LD_LIBRARY_PATH) must match the wheel's ROCm. Mixed releases show up as HIP errors ('hipErrorNoBinaryForGpu', 'invalid device function') or segfaults at load.",
        how_to_fix: "Install the torch ROCm variant that matches the installed ROCm (the fix names it), or upgrade ROCm to the wheel's release.",
        sources: &[
            "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html",
            "https://pytorch.org/get-started/previous-versions/ (ROCm variants per release)",
        ],
    },
    check: check_whl003,
    superseded_by: &[],
};

fn check_whl003(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(installed) = &inv.amd.rocm_version else {
        return vec![];
    };
    let Some(inst) = series(&installed.value) else {
        return vec![];
    };
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let TorchKind::Rocm(h) = &t.kind else {
            continue;
        };
        let wheel = series(h.value.trim_start_matches("rocm"));
        let Some(w) = wheel else { continue };
        if w == inst {
            continue;
        }
        let mut f = WHL003.finding(format!(
            "{} is built for ROCm {}.{}, but ROCm {} is installed.",
            t.label, w.0, w.1, installed.value
        ));
        f = t.cite_version(f);
        f = f.evidence(
            format!("torch ROCm/HIP build ({})", t.env.path),
            &h.value,
            &h.source,
        );
        f = f.fact("installed ROCm", installed);
        match &t.release {
            Some(release) => {
                let (fx, refs) = fix::torch_rocm_fix(inv, kb, t.env, release);
                for k in refs {
                    f = f.kb(k);
                }
                f.fix = Some(fx);
            }
            None => {
                f = f.fix_note("install the torch ROCm variant that matches the installed ROCm")
            }
        }
        out.push(f);
    }
    out
}

pub static WHL004: Rule = Rule {
    code: "WHL004",
    name: "cpu-only-torch-in-a-report",
    category: Category::CpuOnlyWheel,
    severity: Severity::Warning,
    summary: "A pasted package list shows a CPU-only torch build (`+cpu`, conda's `cpu_*` build) and the report names no GPU: that torch never uses one.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Environments read from a pasted report (pip or conda lists, collect_env) whose torch is a CPU-only build, when the report names no NVIDIA or AMD GPU and is not from a Mac. With an NVIDIA GPU in the report, WHL001 says it as an error; a 'Torch not compiled with CUDA enabled' in the report is ERR005's.",
        why_it_breaks: "A CPU-only build has no CUDA code: torch.cuda.is_available() is False on any machine. Such builds come from the CPU index, from Windows PyPI's default, from a resolver that picked it for a dependency, and with conda from a solve that saw no GPU: conda-forge selects a CUDA build of pytorch only when the `__cuda` virtual package (the driver's CUDA) is present, so an install on a login node, in a container build or without the driver gets `cpu_generic`/`cpu_mkl`.",
        how_to_fix: "With pip, reinstall torch from a CUDA index (`--index-url https://download.pytorch.org/whl/cuXXX`, a CUDA the driver supports). With conda-forge, ask for the CUDA build: `conda install -c conda-forge pytorch-gpu` (or `pytorch=*=cuda*`), with `CONDA_OVERRIDE_CUDA=12.6` where the solve runs without the GPU's driver.",
        sources: &[
            "https://pytorch.org/get-started/locally/ (CUDA variants and their index URLs)",
            "https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-virtual.html (the __cuda virtual package, CONDA_OVERRIDE_CUDA)",
            "https://github.com/conda-forge/pytorch-cpu-feedstock (conda-forge's pytorch cpu and cuda builds, and pytorch-gpu)",
            "https://github.com/computational-cell-analytics/micro-sam/issues/356",
        ],
    },
    check: check_whl004,
    superseded_by: &[],
};

fn check_whl004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::is_macos(inv)
        || facts::has_amd_gpu(inv)
        || inv.has_nvidia_hardware()
        || !facts::nvidia_gpus(inv, kb).is_empty()
        || inv
            .errors
            .iter()
            .any(|e| e.kind == ErrorKind::TorchNotCompiledWithCuda)
    {
        return vec![];
    }
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let TorchKind::Cpu { source } = &t.kind else {
            continue;
        };
        if t.env.kind != EnvKind::Reported {
            continue;
        }
        let mut f = WHL004.finding(format!(
            "{} is a CPU-only build: it never uses a GPU. The report names no GPU; on a machine with an NVIDIA GPU the CUDA build of torch is needed.",
            t.label
        ));
        f = t.cite_version(f);
        f = f.evidence(
            format!("torch CUDA build ({})", t.env.path),
            "none (CPU-only)",
            source,
        );
        f = f.observed(inv.errors_of(&[ErrorKind::CudaUnavailable]));
        let conda = t.version.is_some_and(|v| v.source.contains("conda"));
        f = if conda {
            f.fix_command(
                "conda install -c conda-forge pytorch-gpu".to_string(),
                Some("on the machine with the GPU (conda then sees its driver); elsewhere set CONDA_OVERRIDE_CUDA to the driver's CUDA for the solve".into()),
            )
        } else {
            f.fix_note(format!(
                "reinstall torch from a CUDA index ({}/cuXXX) whose CUDA the driver supports; `gpucompat check` on the machine names the variant",
                fix::TORCH_INDEX
            ))
        };
        out.push(f);
    }
    out
}
