//! Windows family: the failures only Windows has (a CPU torch from PyPI is
//! WHL001, a torch whose CUDA needs a newer driver is RT001).

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{Inventory, OsKind};
use crate::kb::Kb;

use super::facts;
use super::{Docs, Rule};

pub static RULES: &[&Rule] = &[&WIN001, &WIN002, &WIN003, &WIN004, &WIN005];

fn is_windows(inv: &Inventory) -> bool {
    facts::os_kind(inv) == Some(OsKind::Windows)
}

pub static WIN001: Rule = Rule {
    code: "WIN001",
    name: "vc-runtime-missing",
    category: Category::PlatformPosture,
    severity: Severity::Error,
    summary: "The Visual C++ runtime torch's DLLs link against is missing: `import torch` fails with WinError 126 on c10.dll or fbgemm.dll.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On Windows with torch installed: whether vcruntime140.dll, vcruntime140_1.dll and msvcp140.dll are in System32.",
        why_it_breaks: "torch's Windows DLLs (c10.dll, torch_cpu.dll, fbgemm.dll) are built with MSVC and load the Visual C++ 2015-2022 runtime. Without it, Windows cannot load them and `import torch` raises `OSError: [WinError 126] The specified module could not be found. Error loading ...\\torch\\lib\\c10.dll or one of its dependencies`.",
        how_to_fix: "Install the latest Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64) from https://aka.ms/vs/17/release/vc_redist.x64.exe, then restart the Python session.",
        sources: &[
            "https://learn.microsoft.com/en-us/cpp/windows/latest-supported-vc-redist",
            "https://pytorch.org/get-started/locally/ (Windows prerequisites)",
            "https://github.com/pytorch/pytorch/issues/131662 (WinError 126 loading fbgemm.dll)",
        ],
    },
    check: check_win001,
    superseded_by: &[],
};

fn check_win001(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !is_windows(inv) {
        return vec![];
    }
    let torch: Vec<_> = inv.python.iter().filter(|e| e.torch.is_some()).collect();
    if torch.is_empty() {
        return vec![];
    }
    let missing: Vec<_> = inv
        .windows
        .vc_runtime
        .iter()
        .filter(|c| !c.present)
        .collect();
    if missing.is_empty() {
        return vec![];
    }
    let names: Vec<&str> = missing.iter().map(|c| c.name.as_str()).collect();
    let mut f = WIN001.finding(format!(
        "The Visual C++ runtime is missing ({} not in System32): torch's DLLs cannot load, and `import torch` fails with WinError 126 on c10.dll or fbgemm.dll.",
        names.join(", ")
    ));
    for c in &missing {
        f = f.evidence(format!("{} present", c.name), "no", &c.path);
    }
    for e in &torch {
        if let Some(v) = e.torch.as_ref().and_then(|t| t.version.as_ref()) {
            f = f.fact(format!("torch in {}", e.path), v);
        }
    }
    vec![f.fix_command(
        "winget install --id Microsoft.VCRedist.2015+.x64",
        Some(
            "or download https://aka.ms/vs/17/release/vc_redist.x64.exe; then restart Python"
                .into(),
        ),
    )]
}

pub static WIN002: Rule = Rule {
    code: "WIN002",
    name: "cuda-path-missing",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "CUDA_PATH (or CUDA_PATH_Vx_y) points at a toolkit directory that no longer exists.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On Windows: each CUDA_PATH and CUDA_PATH_Vx_y variable, and whether the directory it names exists.",
        why_it_breaks: "The CUDA installer sets CUDA_PATH and CUDA_PATH_Vx_y; uninstalling or deleting a toolkit can leave them behind. Builds of CUDA extensions (torch cpp_extension, CuPy, llama-cpp-python) and libraries that look for CUDA DLLs through CUDA_PATH then fail to find nvcc or the DLLs, or pick a stale path over a working one.",
        how_to_fix: "Point CUDA_PATH at an installed toolkit (`setx CUDA_PATH \"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\"` for the user, or System Properties → Environment Variables for the machine), or delete the stale variable; open a new terminal afterwards.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-installation-guide-microsoft-windows/index.html (the installer sets CUDA_PATH and CUDA_PATH_Vx_y)",
        ],
    },
    check: check_win002,
    superseded_by: &[],
};

fn check_win002(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !is_windows(inv) {
        return vec![];
    }
    let stale: Vec<_> = inv
        .windows
        .cuda_path_vars
        .iter()
        .filter(|p| !p.exists)
        .collect();
    if stale.is_empty() {
        return vec![];
    }
    let what: Vec<String> = stale
        .iter()
        .map(|p| format!("{}={}", p.var, p.value))
        .collect();
    let mut f = WIN002.finding(format!(
        "{} names a CUDA toolkit directory that does not exist: extension builds and libraries that find CUDA through it will fail.",
        what.join(", ")
    ));
    for p in &stale {
        f = f.evidence(
            &p.var,
            &p.value,
            format!("env {} (directory missing)", p.var),
        );
    }
    let installed: Vec<&str> = inv.toolkits.iter().map(|t| t.path.as_str()).collect();
    for t in &inv.toolkits {
        f = f.fact(format!("toolkit {}", t.path), &t.version);
    }
    let note = if installed.is_empty() {
        "No CUDA toolkit is installed: delete the stale variable(s) (System Properties → Environment Variables), or install the toolkit they name. torch wheels do not need a toolkit.".to_string()
    } else {
        format!(
            "Point the variable(s) at an installed toolkit ({}) with `setx` or System Properties → Environment Variables, or delete them; open a new terminal afterwards.",
            installed.join(", ")
        )
    };
    vec![f.fix_note(note)]
}

pub static WIN003: Rule = Rule {
    code: "WIN003",
    name: "long-paths-disabled",
    category: Category::PlatformPosture,
    severity: Severity::Info,
    summary: "Windows long-path support is off: installing packages with deep paths can fail past 260 characters.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On Windows with a Python environment: the LongPathsEnabled value under HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem.",
        why_it_breaks: "Without it, Win32 paths are limited to MAX_PATH (260 characters). Wheels with deep directory trees installed into a long prefix (a venv under a long user folder) fail with `OSError: [Errno 2] No such file or directory` or `[WinError 206]` during `pip install`.",
        how_to_fix: "As an administrator: `reg add HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem /v LongPathsEnabled /t REG_DWORD /d 1 /f` (or choose 'Disable path length limit' at the end of the python.org installer), then sign out and in.",
        sources: &[
            "https://docs.python.org/3/using/windows.html#removing-the-max-path-limitation",
            "https://learn.microsoft.com/en-us/windows/win32/fileio/maximum-file-path-limitation",
        ],
    },
    check: check_win003,
    superseded_by: &[],
};

fn check_win003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !is_windows(inv) || inv.python.is_empty() {
        return vec![];
    }
    let Some(lp) = inv.windows.long_paths_enabled.as_ref().filter(|f| !f.value) else {
        return vec![];
    };
    vec![WIN003
        .finding("Long-path support is off (LongPathsEnabled = 0): pip installs of packages with deep paths can fail past 260 characters.")
        .fact("LongPathsEnabled", lp)
        .fix_command(
            r"reg add HKLM\SYSTEM\CurrentControlSet\Control\FileSystem /v LongPathsEnabled /t REG_DWORD /d 1 /f",
            Some("as an administrator; then sign out and in".into()),
        )]
}

pub static WIN004: Rule = Rule {
    code: "WIN004",
    name: "wsl1-distro",
    category: Category::Wsl,
    severity: Severity::Warning,
    summary: "A WSL distribution runs as WSL 1, which has no GPU access: CUDA in WSL needs WSL 2.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On Windows with an NVIDIA GPU: the version of each distribution `wsl --list --verbose` lists.",
        why_it_breaks: "GPU compute in WSL (the Windows driver's libcuda mapped into /usr/lib/wsl/lib) exists only in WSL 2's virtual machine. A WSL 1 distribution sees no GPU: nvidia-smi is missing and torch finds no CUDA device.",
        how_to_fix: "Convert the distribution: `wsl --set-version NAME 2` (and `wsl --set-default-version 2` for new ones).",
        sources: &[
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
            "https://learn.microsoft.com/en-us/windows/wsl/tutorials/gpu-compute",
        ],
    },
    check: check_win004,
    superseded_by: &[],
};

fn check_win004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if !is_windows(inv) || facts::nvidia_gpus(inv, kb).is_empty() {
        return vec![];
    }
    let mut out = Vec::new();
    for d in inv.windows.wsl_distros.iter().filter(|d| d.version == 1) {
        out.push(
            WIN004
                .finding(format!(
                    "WSL distribution {} runs as WSL 1: it has no access to the GPU; CUDA in WSL needs WSL 2.",
                    d.name
                ))
                .evidence(format!("WSL {} version", d.name), d.version, &d.source)
                .fix_command(format!("wsl --set-version {} 2", d.name), None),
        );
    }
    out
}

pub static WIN005: Rule = Rule {
    code: "WIN005",
    name: "tensorflow-gpu-not-on-native-windows",
    category: Category::CpuOnlyWheel,
    severity: Severity::Error,
    summary: "TensorFlow 2.11 or newer on native Windows: those releases have no GPU support there, it runs on the CPU only.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On native Windows (not WSL2): the version of each installed tensorflow, tensorflow-gpu or tensorflow-cpu package.",
        why_it_breaks: "TensorFlow 2.10 was the last release with CUDA support on native Windows. From 2.11 the Windows wheels are CPU-only whatever CUDA and cuDNN are installed, so tf.config.list_physical_devices('GPU') is empty on a machine where PyTorch uses the GPU.",
        how_to_fix: "Run TensorFlow in WSL2 (`pip install tensorflow[and-cuda]` inside a WSL2 distribution), or stay on tensorflow<2.11 with CUDA 11.2 and cuDNN 8.1 on native Windows, or use the DirectML plugin.",
        sources: &["https://www.tensorflow.org/install/pip#windows-native (TensorFlow 2.10 was the last TensorFlow release that supported GPU on native Windows)"],
    },
    check: check_win005,
    superseded_by: &[],
};

fn check_win005(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    // A Linux container (Docker Desktop's, an NGC image) on a Windows host
    // runs Linux TensorFlow.
    if !is_windows(inv) || facts::is_wsl(inv) || facts::in_container(inv) {
        return vec![];
    }
    let mut out = Vec::new();
    for env in &inv.python {
        for p in &env.packages {
            if !matches!(
                p.name.as_str(),
                "tensorflow" | "tensorflow-gpu" | "tensorflow-cpu" | "tensorflow-intel"
            ) {
                continue;
            }
            let mut it = p.version.split(['.', '+', '-', 'r']);
            let major = it.next().and_then(|x| x.parse::<u32>().ok());
            let minor = it.next().and_then(|x| x.parse::<u32>().ok());
            let (Some(major), Some(minor)) = (major, minor) else {
                continue;
            };
            if (major, minor) < (2, 11) {
                continue;
            }
            let mut f = WIN005
                .finding(format!(
                    "{} {} on native Windows has no GPU support (the last release with it there was 2.10): it runs on the CPU only.",
                    p.name, p.version
                ))
                .evidence(format!("{} version", p.name), &p.version, &p.source);
            if let Some(k) = &inv.os.kind {
                f = f.evidence("operating system", "windows", &k.source);
            }
            // A pasted report whose errors never name TensorFlow: it is one
            // package of the list, maybe not the program that fails.
            let tf_errors: Vec<_> = inv
                .errors
                .iter()
                .filter(|e| crate::ingest::clean::has_ci(&e.text, "tensorflow"))
                .collect();
            let tf_failing = !tf_errors.is_empty();
            f = f.observed(tf_errors);
            if !tf_failing {
                super::lower_in_a_paste(inv, &mut f, Severity::Warning, "The report shows it only in its package list, not in an error: if the failing program is another one, this is advice for TensorFlow's own use.");
            }
            out.push(f.fix_note("Use WSL2 (`pip install tensorflow[and-cuda]` inside it), or `pip install \"tensorflow<2.11\"` with CUDA 11.2 and cuDNN 8.1 on native Windows."));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, PathVar};

    #[test]
    fn stale_cuda_path_fires_and_a_present_one_does_not() {
        let kb = Kb::embedded();
        let mut inv = Inventory::new("test");
        inv.os.kind = Some(Fact::new(OsKind::Windows, "test"));
        inv.windows.cuda_path_vars.push(PathVar {
            var: "CUDA_PATH".into(),
            value: r"C:\gone".into(),
            exists: false,
        });
        assert_eq!(check_win002(&inv, kb).len(), 1);
        inv.windows.cuda_path_vars[0].exists = true;
        assert!(check_win002(&inv, kb).is_empty());
    }
}
