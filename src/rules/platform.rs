//! Platform family: macOS, WSL2, Windows driver models and the posture a
//! machine's hardware tier calls for.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{DriverModel, ErrorKind, Inventory, OsKind};
use crate::kb::Kb;

use super::facts;
use super::runtime::{judge_all, judgment_finding, Verdict};
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[
    &PLAT001, &PLAT002, &PLAT003, &PLAT004, &PLAT005, &PLAT006, &PLAT007, &PLAT008, &PLAT009,
    &PLAT010,
];

pub static PLAT001: Rule = Rule {
    code: "PLAT001",
    name: "macos-cuda-expected",
    category: Category::MacosNoCuda,
    severity: Severity::Error,
    summary: "CUDA is expected on macOS (CUDA wheels, CUDA env vars, a CUDA error): macOS has no CUDA; the answer is MPS/MLX or tier 1.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On macOS: CUDA builds of torch, NVIDIA CUDA wheels (nvidia-*-cuXX, cuda-toolkit, onnxruntime-gpu, cupy-cuda*), CUDA_HOME / CUDA_PATH / CUDA_VISIBLE_DEVICES set, or a 'Torch not compiled with CUDA enabled' error.",
        why_it_breaks: "There is no CUDA on macOS: the last CUDA for macOS was 10.2, Apple silicon GPUs do not run CUDA, and PyPI's macOS torch wheels are built without it. Code that calls `.cuda()` or `device='cuda'` fails with 'Torch not compiled with CUDA enabled'.",
        how_to_fix: "Use the Apple GPU through torch's MPS backend (`device = 'mps' if torch.backends.mps.is_available() else 'cpu'`) or through MLX; remove CUDA-only packages. For work that needs CUDA, use a remote Linux GPU machine or hosted APIs (tier 1).",
        sources: &[
            "https://pytorch.org/docs/stable/notes/mps.html",
            "https://developer.apple.com/metal/pytorch/",
            "https://docs.nvidia.com/cuda/archive/10.2/cuda-toolkit-release-notes/index.html (last CUDA release for macOS)",
        ],
    },
    check: check_plat001,
    superseded_by: &[],
};

fn cuda_package(name: &str) -> bool {
    (name.starts_with("nvidia-") && facts::cu_suffix_major(name).is_some())
        || name == "cuda-toolkit"
        || name == "onnxruntime-gpu"
        || name.starts_with("cupy-cuda")
}

fn check_plat001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if !facts::is_macos(inv) {
        return vec![];
    }
    let mut f = PLAT001.finding(String::new());
    let mut hard = false;
    let mut reasons = Vec::new();
    for t in facts::torch_views(inv, kb) {
        if t.cuda().is_some() {
            hard = true;
            reasons.push(format!("{} is a CUDA build", t.label));
            f = t.cite_cuda(t.cite_version(f));
        }
    }
    for env in &inv.python {
        for p in env.packages.iter().filter(|p| cuda_package(&p.name)) {
            hard = true;
            reasons.push(format!(
                "{} {} is installed in {}",
                p.name, p.version, env.path
            ));
            f = f.evidence(format!("package {}", p.name), &p.version, &p.source);
        }
    }
    for e in inv.errors_of(&[ErrorKind::TorchNotCompiledWithCuda]) {
        hard = true;
        reasons.push("code asked torch for CUDA ('Torch not compiled with CUDA enabled')".into());
        f = f.evidence("observed error", &e.text, &e.source);
    }
    for var in ["CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES"] {
        if let Some(v) = inv.env.get(var) {
            reasons.push(format!("{var} is set"));
            f = f.fact(var, v);
        }
    }
    if reasons.is_empty() {
        return vec![];
    }
    reasons.dedup();
    let chip = inv
        .apple
        .chip
        .as_ref()
        .map_or("the Mac's GPU".to_string(), |c| c.value.clone());
    if let Some(c) = &inv.apple.chip {
        f = f.fact("Apple chip", c);
    }
    if let Some(m) = &inv.apple.mps_available {
        f = f.fact("MPS available", m);
    }
    f.message = format!(
        "CUDA is expected here ({}), but macOS has no CUDA. Use {chip} through torch's MPS backend or MLX, or a remote CUDA machine.",
        reasons.join("; ")
    );
    let f = if hard { f } else { f.at(Severity::Warning) };
    vec![f.fix_note("In code: `device = 'mps' if torch.backends.mps.is_available() else 'cpu'` (or use MLX). Uninstall CUDA-only packages (nvidia-*-cuXX, onnxruntime-gpu) and use the plain macOS wheels (`pip install torch`, `pip install onnxruntime`). For CUDA-only work, use a Linux GPU machine or hosted APIs.")]
}

pub static PLAT002: Rule = Rule {
    code: "PLAT002",
    name: "wsl-linux-driver-installed",
    category: Category::Wsl,
    severity: Severity::Error,
    summary: "Inside WSL2, a Linux NVIDIA driver is installed and shadows the Windows driver's libcuda in /usr/lib/wsl/lib.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Under WSL2: whether the first libcuda / libnvidia-ml on the loader path is outside /usr/lib/wsl/lib (a Linux driver's library), or a Linux nvidia kernel module is reported.",
        why_it_breaks: "In WSL2 the Windows driver provides CUDA: its libcuda.so is mapped into /usr/lib/wsl/lib. NVIDIA: 'users must not install any NVIDIA GPU Linux driver within WSL 2'. A Linux driver's libcuda (from the `cuda`, `cuda-drivers` or `nvidia-driver-*` packages) is found first and cannot talk to the GPU, so CUDA reports no device or a driver error.",
        how_to_fix: "Remove the Linux driver packages inside WSL (on Ubuntu: `sudo apt-get remove --purge 'nvidia-driver-*' 'libnvidia-compute-*' 'cuda-drivers*'`), run `sudo ldconfig`, and install only the WSL toolkit (`cuda-toolkit-12-x`) if a toolkit is needed.",
        sources: &["https://docs.nvidia.com/cuda/wsl-user-guide/index.html"],
    },
    check: check_plat002,
    superseded_by: &[],
};

fn check_plat002(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !facts::is_wsl(inv) {
        return vec![];
    }
    let shadow = inv
        .nvidia
        .user_libraries
        .iter()
        .find(|l| l.name == "libcuda" || l.name == "libnvidia-ml")
        .filter(|l| !l.path.starts_with("/usr/lib/wsl"));
    let module = inv.nvidia.kernel_module.as_ref();
    let package = inv.setting.linux_driver_package.as_ref();
    if shadow.is_none() && module.is_none() && package.is_none() {
        return vec![];
    }
    let mut f = PLAT002.finding(match (shadow, package) {
        (Some(l), _) => format!(
            "This is WSL2, but the first {} on the loader path is {}, a Linux driver's library, not the Windows driver's in /usr/lib/wsl/lib: CUDA cannot reach the GPU through it.",
            l.name, l.path
        ),
        (None, Some(p)) if module.is_none() && crate::ingest::prose::is_prose(&p.source) => format!(
            "This is WSL2, but the report says {} was installed inside it: its libcuda can shadow the Windows driver's in /usr/lib/wsl/lib.",
            p.value
        ),
        (None, Some(p)) if module.is_none() => format!(
            "This is WSL2, but the Linux driver package {} is installed inside it: its libcuda can shadow the Windows driver's in /usr/lib/wsl/lib.",
            p.value
        ),
        _ => "This is WSL2, but a Linux nvidia kernel module is reported: a Linux driver is installed inside WSL, where only the Windows driver may provide CUDA.".to_string(),
    });
    if let Some(p) = package {
        f = f.fact("Linux driver package", p);
    }
    if let Some(w) = &inv.wsl.is_wsl {
        f = f.fact("WSL2", w);
    }
    if let Some(l) = shadow {
        f = f.evidence(format!("{} path", l.name), &l.path, &l.version.source);
    }
    if let Some(m) = module {
        f = f.fact("kernel module version", m);
    }
    let cmd = "sudo apt-get remove --purge 'nvidia-driver-*' 'libnvidia-compute-*' 'cuda-drivers*' && sudo ldconfig";
    let note = "Inside WSL use only the Windows driver's libraries in /usr/lib/wsl/lib; install the WSL toolkit package (cuda-toolkit-12-x), never cuda, cuda-12-x or cuda-drivers.";
    vec![if facts::is_ubuntu(inv) {
        f.fix_command(cmd, Some(note.into()))
    } else {
        f.fix_note(format!(
            "Remove the Linux NVIDIA driver packages inside WSL. {note}"
        ))
    }]
}

pub static PLAT003: Rule = Rule {
    code: "PLAT003",
    name: "wsl-libcuda-missing",
    category: Category::Wsl,
    severity: Severity::Error,
    summary: "Inside WSL2, /usr/lib/wsl/lib is missing or has no libcuda: the Windows driver does not expose CUDA to WSL.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Under WSL2: whether /usr/lib/wsl/lib exists and holds libcuda.so*.",
        why_it_breaks: "The Windows NVIDIA driver maps its CUDA libraries into /usr/lib/wsl/lib. Without them (no NVIDIA driver on Windows, a driver too old for WSL, WSL 1, or GPU support switched off in .wslconfig) there is no libcuda, so every CUDA program fails to find a driver.",
        how_to_fix: "Install a current NVIDIA driver on Windows (not inside WSL), make sure this is WSL 2 (`wsl -l -v` in Windows), then restart WSL (`wsl --shutdown`).",
        sources: &["https://docs.nvidia.com/cuda/wsl-user-guide/index.html"],
    },
    check: check_plat003,
    superseded_by: &[],
};

fn check_plat003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !facts::is_wsl(inv) {
        return vec![];
    }
    let dir = inv.wsl.lib_dir.as_ref();
    let lib = inv.wsl.libcuda_in_lib_dir.as_ref();
    let msg = match (dir.map(|f| f.value), lib.map(|f| f.value)) {
        (Some(false), _) => "This is WSL2 but /usr/lib/wsl/lib does not exist: the Windows NVIDIA driver is not exposing CUDA to WSL.",
        (_, Some(false)) => "This is WSL2 but /usr/lib/wsl/lib has no libcuda: the Windows NVIDIA driver is missing or too old for WSL.",
        _ => return vec![],
    };
    let mut f = PLAT003.finding(msg);
    if let Some(d) = dir {
        f = f.fact("/usr/lib/wsl/lib exists", d);
    }
    if let Some(l) = lib {
        f = f.fact("libcuda in /usr/lib/wsl/lib", l);
    }
    vec![f.fix_command(
        "wsl --shutdown",
        Some("install a current NVIDIA driver on Windows (not inside WSL) first; run `wsl --shutdown` in a Windows terminal, then start WSL again".into()),
    )]
}

pub static PLAT008: Rule = Rule {
    code: "PLAT008",
    name: "wsl-gpu-not-exposed",
    category: Category::Wsl,
    severity: Severity::Error,
    summary: "Inside WSL2, CUDA or nvidia-smi finds no GPU or no driver: the Windows driver does not expose the GPU to WSL.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "Under WSL2, an error saying there is no device or no usable driver (CUDA error 100 or 999, 'No devices were found', nvidia-smi unable to reach the driver or a device handle, libcuda missing), when PLAT002 and PLAT003 do not already name the cause.",
        why_it_breaks: "WSL2 has no Linux kernel driver: the Windows driver shares its GPUs through GPU paravirtualization and maps libcuda into /usr/lib/wsl/lib. Only GPUs in WDDM mode are shared; a GPU in TCC mode, a Windows driver without WSL support, or GPU support switched off in .wslconfig leaves WSL with no device. Installing a Linux driver inside WSL does not help.",
        how_to_fix: "On Windows: install a current NVIDIA driver, switch datacenter/workstation GPUs to WDDM (`nvidia-smi -g N -dm 0` as administrator, then reboot) and check that nvidia-smi works there; then `wsl --shutdown` and start WSL again.",
        sources: &[
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
            "https://learn.microsoft.com/en-us/windows/wsl/tutorials/gpu-compute",
        ],
    },
    check: check_plat008,
    superseded_by: &[],
};

fn check_plat008(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if !facts::is_wsl(inv) {
        return vec![];
    }
    let errs = inv.errors_of(&[
        ErrorKind::NoDevice,
        ErrorKind::InitFailed,
        ErrorKind::SmiNoDriver,
        ErrorKind::NoNvidiaDriver,
        ErrorKind::LibcudaMissing,
    ]);
    if errs.is_empty() || !check_plat002(inv, kb).is_empty() || !check_plat003(inv, kb).is_empty() {
        return vec![];
    }
    // torch in the same report opened the GPU: WSL shares it, and what one
    // program fails at is that program's.
    let opened = facts::cuda_said_available(inv).is_some();
    if opened && errs.iter().all(|e| e.kind == ErrorKind::NoDevice) {
        return vec![];
    }
    // A program that dlopens `libcuda.so` by name misses WSL's copy, which
    // only the ld.so.conf entry (not every loader) knows about.
    let by_name = errs.iter().all(|e| {
        e.kind == ErrorKind::LibcudaMissing
            && !e.text.contains("/usr/lib/wsl")
            && !e.text.contains("/lib/x86_64-linux-gnu/libcuda")
    });
    // nvidia-smi itself crashing: the Windows driver's WSL components.
    if errs
        .iter()
        .all(|e| crate::ingest::clean::has_ci(&e.text, "segmentation fault"))
    {
        let mut f = PLAT008.finding(
            "This is WSL2 and nvidia-smi crashed (segmentation fault): under WSL, nvidia-smi and libcuda in /usr/lib/wsl/lib are the Windows driver's, so the crash comes from that driver release's WSL components, not from anything installed in Linux.",
        );
        if let Some(w) = &inv.wsl.is_wsl {
            f = f.fact("WSL2", w);
        }
        return vec![f.observed(errs).fix_note(
            "install another Windows driver release (a newer one, or the last one that worked), then `wsl --shutdown` and start WSL again; do not install a Linux driver inside WSL",
        )];
    }
    if by_name {
        let mut f = PLAT008.finding(
            "This is WSL2 and a program could not load libcuda by name: WSL's libcuda lives in /usr/lib/wsl/lib (mapped from the Windows driver), where a plain dlopen('libcuda.so') does not look unless the loader path includes it.",
        );
        if let Some(w) = &inv.wsl.is_wsl {
            f = f.fact("WSL2", w);
        }
        f = f.observed(errs);
        return vec![f.fix_note(
            "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH (or run `sudo ldconfig` so /usr/lib/wsl/lib is in the cache); check `ls -l /usr/lib/wsl/lib/libcuda*`. Do not install a Linux driver inside WSL.",
        )];
    }
    let mut f = PLAT008.finding(
        "This is WSL2 and CUDA (or nvidia-smi) found no GPU: the Windows driver is not sharing a GPU with WSL. Only GPUs in WDDM mode are shared (not TCC), and only by a Windows driver with WSL support.",
    );
    if let Some(w) = &inv.wsl.is_wsl {
        f = f.fact("WSL2", w);
    }
    for e in errs {
        let label = match e.code {
            Some(c) => format!("observed error (code {c})"),
            None => "observed error".to_string(),
        };
        f = f.evidence(label, &e.text, &e.source);
    }
    vec![f.fix_note(
        "On Windows: run nvidia-smi there; switch GPUs in TCC mode to WDDM (`nvidia-smi -g N -dm 0` as administrator, then reboot); install a current driver; then `wsl --shutdown` and start WSL again. Do not install a Linux driver inside WSL.",
    )]
}

pub static PLAT009: Rule = Rule {
    code: "PLAT009",
    name: "wsl-gpu-is-paravirtualized",
    category: Category::Wsl,
    severity: Severity::Info,
    summary: "Under WSL2, lspci lists Microsoft's paravirtualized GPU, not the NVIDIA one: GPU detection by PCI listing, /proc/driver/nvidia or the nvidia module finds nothing there.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "An lspci listing that shows WSL2's paravirtualized GPU (a 3D controller 'Microsoft Corporation Device 008e') and no NVIDIA device.",
        why_it_breaks: "It does not break CUDA: WSL2 has no Linux PCI device and no Linux kernel driver for the GPU. The Windows driver shares it through GPU paravirtualization (/dev/dxg), and nvidia-smi and libcuda come from /usr/lib/wsl/lib. Scripts and tools that look for the GPU with `lspci | grep -i nvidia`, /proc/driver/nvidia/gpus, /dev/nvidia* or `lsmod | grep nvidia` therefore report no GPU under WSL2 although CUDA works.",
        how_to_fix: "Detect the GPU through the driver instead: `nvidia-smi -L` (or NVML, or `torch.cuda.is_available()`); a script that must tell WSL2 apart can test for /dev/dxg or /usr/lib/wsl/lib.",
        sources: &[
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html (GPU paravirtualization; the driver's libraries in /usr/lib/wsl/lib)",
            "https://github.com/open-webui/open-webui/issues/574",
            "https://pci-ids.ucw.cz/read/PC/1414 (vendor 1414: Microsoft Corporation)",
        ],
    },
    check: check_plat009,
    superseded_by: &[],
};

fn check_plat009(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(pv) = inv.pci.iter().find(|p| p.is_wsl_gpu_pv()) else {
        return vec![];
    };
    if inv.nvidia_pci().next().is_some() {
        return vec![];
    }
    let f = PLAT009
        .finding(format!(
            "This is WSL2: the PCI listing shows its paravirtualized GPU ({} at {}) and no NVIDIA device, because the GPU stays with the Windows driver. A script that looks for the GPU with lspci, /proc/driver/nvidia or the nvidia module finds none here, though CUDA may work.",
            pv.name.as_deref().unwrap_or("a Microsoft 3D controller"),
            pv.address
        ))
        .evidence(
            "WSL2 paravirtualized GPU",
            pv.name.as_deref().unwrap_or("Microsoft device 1414:008e"),
            &pv.source,
        );
    vec![f.fix_note(
        "Detect the GPU through the driver: `nvidia-smi -L` (from /usr/lib/wsl/lib), NVML, or the framework's own check; to tell WSL2 apart, test for /dev/dxg or /usr/lib/wsl/lib.",
    )]
}

pub static PLAT010: Rule = Rule {
    code: "PLAT010",
    name: "rocm-under-wsl",
    category: Category::Wsl,
    severity: Severity::Warning,
    summary: "An AMD GPU under WSL2 with ROCm failing: WSL has no amdgpu kernel driver and no /dev/kfd, so the Linux ROCm stack does not run there; only AMD's own WSL support, for the GPUs it lists, does.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A WSL2 report with an AMD GPU (a Radeon or gfx target named, an AMD PCI device) or a HIP/ROCm error, where something failed (an error read, or a line that reads as a failure).",
        why_it_breaks: "WSL2 runs its own Microsoft kernel and shares the GPU through the Windows driver (/dev/dxg); the amdgpu kernel module and /dev/kfd that the Linux ROCm stack talks to do not exist there. A ROCm installed as on native Linux (rocminfo, amdgpu-dkms) finds no GPU, and HSA_OVERRIDE_GFX_VERSION does not help. AMD's WSL support works through the Windows driver and covers only the Radeon GPUs its WSL list names.",
        how_to_fix: "Use a GPU AMD's ROCm-on-WSL support lists, with AMD's WSL packages and the matching Windows driver; otherwise run ROCm on native Linux (dual boot), or use a Windows backend (torch-directml, onnxruntime-directml).",
        sources: &[
            "https://github.com/ROCm/legacy-rocm-build/issues/1361 (ROCm support: ROCm on the WSL kernel is not a supported configuration)",
            "https://github.com/Comfy-Org/ComfyUI/issues/5406 (an RX 6800 XT under WSL: the override that works on native Linux does not, as the WSL path does not support that GPU)",
        ],
    },
    check: check_plat010,
    superseded_by: &[],
};

fn check_plat010(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(wsl) = inv.wsl.is_wsl.as_ref().filter(|f| f.value) else {
        return vec![];
    };
    let Some(amd) = facts::amd_gpu_failing(inv) else {
        return vec![];
    };
    let mut f = PLAT010
        .finding(
            "This is WSL2 with an AMD GPU, and ROCm fails: WSL has no amdgpu kernel driver and no /dev/kfd, so the Linux ROCm stack does not run there (and HSA_OVERRIDE_GFX_VERSION does not change that). ROCm under WSL works only through AMD's own WSL support, for the Radeon GPUs it lists."
                .to_string(),
        )
        .fact("WSL", wsl);
    if let Some(p) = amd.pci {
        f = f.evidence(
            "AMD GPU",
            p.name.as_deref().unwrap_or(&p.device_id),
            &p.source,
        );
    }
    if let Some(g) = inv.amd.gfx_targets.first() {
        f = f.fact("gfx target", g);
    }
    vec![f.observed(amd.hip).fix_note(
        "check AMD's ROCm-on-WSL support list for this GPU and use its WSL packages with the matching Windows driver; otherwise run ROCm on native Linux, or use a Windows backend (torch-directml, onnxruntime-directml)",
    )]
}

pub static PLAT004: Rule = Rule {
    code: "PLAT004",
    name: "wsl-windows-driver-too-old",
    category: Category::Wsl,
    severity: Severity::Error,
    summary: "Inside WSL2, a framework's CUDA is newer than the Windows driver supports.",
    semantics: &[CompatSemantic::Toolkit, CompatSemantic::MinorVersion],
    docs: Docs {
        what_it_checks: "Under WSL2, RUN001 and RUN002's comparison with the Windows driver's numbers: each framework's bundled CUDA against the newest CUDA the Windows driver supports (nvidia-smi inside WSL shows it), with the Windows minor-version floors (12.x: 528.33).",
        why_it_breaks: "WSL2 has no Linux driver: CUDA inside WSL is the Windows driver's. A runtime newer than the Windows driver's CUDA fails (across majors or below the floor) or runs with minor-version caveats (same major at or above the floor).",
        how_to_fix: "Update the NVIDIA driver on Windows (nothing inside WSL changes the driver), or install a build of the framework for a CUDA the Windows driver supports (the fix names the torch variant).",
        sources: &[
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
            "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (Tables 2 and 3, Windows columns)",
        ],
    },
    check: check_plat004,
    superseded_by: &[],
};

fn check_plat004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if !facts::is_wsl(inv) {
        return vec![];
    }
    judge_all(inv, kb)
        .iter()
        .filter(|j| !matches!(j.verdict, Verdict::Fine))
        .filter_map(|j| judgment_finding(&PLAT004, inv, kb, j))
        .map(|mut f| {
            f.message
                .push_str(" (WSL2: this is the Windows driver; update it on Windows.)");
            f
        })
        .collect()
}

pub static PLAT005: Rule = Rule {
    code: "PLAT005",
    name: "datacenter-gpu-on-windows",
    category: Category::PlatformPosture,
    severity: Severity::Warning,
    summary: "Datacenter-class GPUs (tier 4-5 hardware) under Windows or WSL2: that tier's posture is Linux with datacenter drivers.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A GPU whose segment is datacenter (A100, H100, L40S, ...) on Windows or inside WSL2.",
        why_it_breaks: "Datacenter GPUs are validated and supported on Linux with the datacenter driver branches; MIG, fabric manager, NCCL over NVLink/InfiniBand and most CUDA containers are Linux-only, and WSL2 runs them in WDDM mode with reduced NVML and no MIG. Windows works for some single-GPU jobs but is outside the tier's supported posture.",
        how_to_fix: "Run the GPU under Linux with a datacenter driver branch and pinned CUDA containers. Under Windows, use TCC or MCDM mode (see PLAT006) for compute.",
        sources: &[
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html (WSL limitations)",
            "https://docs.nvidia.com/datacenter/tesla/drivers/index.html",
        ],
    },
    check: check_plat005,
    superseded_by: &[],
};

fn check_plat005(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let windows = facts::os_kind(inv) == Some(OsKind::Windows);
    let wsl = facts::is_wsl(inv);
    if !windows && !wsl {
        return vec![];
    }
    let gpus = facts::nvidia_gpus(inv, kb);
    let dc: Vec<_> = gpus.iter().filter(|g| g.is_datacenter()).collect();
    if dc.is_empty() {
        return vec![];
    }
    let names: Vec<&str> = dc.iter().map(|g| g.label.as_str()).collect();
    let mut f = PLAT005.finding(format!(
        "{} is datacenter-class (tier 4-5 hardware) but runs under {}; that tier's posture is Linux with a datacenter driver branch.",
        names.join(", "),
        if wsl { "WSL2" } else { "Windows" }
    ));
    if let Some(k) = &inv.os.kind {
        f = f.fact("OS", &k.clone().map(|k| format!("{k:?}").to_lowercase()));
    }
    if let Some(w) = &inv.wsl.is_wsl {
        f = f.fact("WSL2", w);
    }
    for g in dc {
        f = g.cite_segment(f);
    }
    vec![f.fix_note("Run this GPU under Linux with a datacenter driver branch (LTSB/PB) and pinned CUDA containers; on Windows use TCC/MCDM mode for compute.")]
}

pub static PLAT006: Rule = Rule {
    code: "PLAT006",
    name: "datacenter-gpu-in-wddm",
    category: Category::PlatformPosture,
    severity: Severity::Warning,
    summary: "A datacenter GPU on Windows runs in WDDM (display) mode instead of TCC/MCDM (compute).",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On native Windows, the driver model (WDDM, TCC, MCDM) of datacenter GPUs.",
        why_it_breaks: "In WDDM mode the GPU is managed as a display device: Windows' scheduler adds launch latency, memory is limited by the display driver's policy, and a long kernel can be reset by the TDR timeout. TCC or MCDM gives the GPU to compute.",
        how_to_fix: "As Administrator: `nvidia-smi -i <index> -dm 1` (TCC) and reboot; where the GPU supports MCDM, that mode also works. WSL2 needs WDDM, so do not switch GPUs that WSL uses.",
        sources: &["https://docs.nvidia.com/gameworks/content/developertools/desktop/nsight/tdr.htm (WDDM timeout detection and recovery)", "nvidia-smi --help (-dm, --driver-model: 0 WDDM, 1 TCC)"],
    },
    check: check_plat006,
    superseded_by: &[],
};

fn check_plat006(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::os_kind(inv) != Some(OsKind::Windows) || facts::is_wsl(inv) {
        return vec![];
    }
    let mut out = Vec::new();
    for g in facts::nvidia_gpus(inv, kb) {
        if !g.is_datacenter() {
            continue;
        }
        let model = g.driver_model().or(inv.nvidia.driver_model.as_ref());
        let Some(m) = model.filter(|m| m.value == DriverModel::Wddm) else {
            continue;
        };
        let idx = g.gpu.map_or(0, |x| x.index);
        let mut f = PLAT006
            .finding(format!("{} is a datacenter GPU running in WDDM (display) mode; compute belongs in TCC or MCDM mode.", g.label))
            .fact(format!("{} driver model", g.label), &m.clone().map(|v| format!("{v:?}").to_uppercase()));
        f = g.cite_segment(f);
        out.push(f.fix_command(
            format!("nvidia-smi -i {idx} -dm 1"),
            Some("run as Administrator, then reboot; do not switch a GPU that WSL2 or a display uses".into()),
        ));
    }
    out
}

pub static PLAT007: Rule = Rule {
    code: "PLAT007",
    name: "no-accelerator",
    category: Category::PlatformPosture,
    severity: Severity::Info,
    summary: "No usable local accelerator: tier 1, use APIs and SDKs and skip the CUDA stack.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On a probed machine (not a container or WSL, where the host's PCI bus is not reliably visible): no NVIDIA or AMD GPU on the PCI bus or from the driver, no NVIDIA driver, and no Apple GPU.",
        why_it_breaks: "It does not break; it sets expectations. Without a local accelerator, CUDA wheels, drivers and toolkits only add weight. Tier 1 work uses hosted APIs and SDKs, CPU builds, or a remote GPU.",
        how_to_fix: "Nothing to fix. Install CPU builds (`pip install torch --index-url https://download.pytorch.org/whl/cpu`) or use hosted APIs; run `gpucompat check` on the GPU machine instead.",
        sources: &["gpucompat DESIGN.md, Tiers (tier 1: no usable local accelerator)"],
    },
    check: check_plat007,
    superseded_by: &[],
};

fn check_plat007(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    // Containers and WSL do not show the host's PCI bus reliably: absence proves nothing there.
    if !inv.probed() || facts::in_container(inv) || facts::is_wsl(inv) {
        return vec![];
    }
    // A PCI scan that degraded (a note says so) cannot prove absence either.
    if inv
        .notes
        .iter()
        .any(|n| n.subject.to_lowercase().contains("pci"))
    {
        return vec![];
    }
    let nv = &inv.nvidia;
    let driver_seen = nv.kernel_module.is_some()
        || nv.driver_version.is_some()
        || !nv.user_libraries.is_empty()
        || nv.module_loaded.as_ref().is_some_and(|f| f.value);
    if driver_seen
        || inv.has_nvidia_hardware()
        || !facts::nvidia_gpus(inv, kb).is_empty()
        || facts::has_amd_gpu(inv)
        || inv.apple.chip.is_some()
        || inv.apple.mps_available.as_ref().is_some_and(|f| f.value)
    {
        return vec![];
    }
    let f = PLAT007
        .finding("No NVIDIA, AMD or Apple GPU was found on this machine: tier 1 (no usable local accelerator). Use hosted APIs and SDKs or CPU builds; the CUDA stack is not needed here.")
        .evidence("GPUs on the PCI bus", "none", &inv.origin)
        .fix_note("Nothing to fix. For a GPU stack, run gpucompat on the GPU machine.");
    vec![f]
}
