//! macOS family: what keeps MPS and MLX from the Apple GPU (PLAT001 covers
//! CUDA expected on a Mac).

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{Inventory, PythonEnv};
use crate::kb::Kb;

use super::facts;
use super::{Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[&MAC001, &MAC002, &MAC003];

/// The first release with the MPS backend.
const TORCH_MPS: (u32, u32, u32) = (1, 12, 0);
/// The macOS the MPS backend needs.
const MACOS_MPS: (u32, u32, u32) = (12, 3, 0);
/// The macOS MLX's PyPI wheels need.
const MACOS_MLX: (u32, u32, u32) = (14, 0, 0);

/// `14.5`, `2.5.1+cpu`, `1.11.0a0` → (14, 5, 0), (2, 5, 1), (1, 11, 0).
pub fn triple(v: &str) -> Option<(u32, u32, u32)> {
    let mut it = v.split(['.', '+']).map(|p| {
        let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().ok()
    });
    let a = it.next()??;
    let b = it.next().flatten().unwrap_or(0);
    let c = it.next().flatten().unwrap_or(0);
    Some((a, b, c))
}

fn apple_silicon(inv: &Inventory) -> bool {
    inv.apple.apple_silicon.as_ref().is_some_and(|f| f.value) || inv.apple.chip.is_some()
}

fn cite_silicon(inv: &Inventory, f: Finding) -> Finding {
    match (&inv.apple.chip, &inv.apple.apple_silicon) {
        (Some(c), _) => f.fact("Apple chip", c),
        (None, Some(s)) => f.fact("Apple silicon", s),
        _ => f,
    }
}

/// The GPU frameworks of an environment, by name (`torch 2.5.1`, `mlx 0.21.0`).
fn gpu_frameworks(env: &PythonEnv) -> Vec<String> {
    [
        "torch",
        "mlx",
        "tensorflow-metal",
        "tensorflow",
        "jax-metal",
    ]
    .iter()
    .filter_map(|n| env.package(n).map(|p| format!("{} {}", p.name, p.version)))
    .collect()
}

pub static MAC001: Rule = Rule {
    code: "MAC001",
    name: "python-under-rosetta",
    category: Category::PlatformPosture,
    severity: Severity::Error,
    summary: "An x86_64 Python on Apple silicon runs under Rosetta 2: torch gets no MPS and MLX does not install.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On an Apple silicon Mac (`hw.optional.arm64` = 1, or an Apple GPU in system_profiler): each Python environment whose interpreter is built only for x86_64 (its Mach-O header), or, when the interpreter cannot be read, whose wheels carry an x86_64 macOS platform tag.",
        why_it_breaks: "An x86_64 process on Apple silicon is translated by Rosetta 2; pip then installs x86_64 wheels. The MPS backend is built only into the arm64 macOS wheels, so `torch.backends.mps.is_available()` is False; MLX publishes arm64 wheels only, so `pip install mlx` finds no matching distribution. Typical causes: an Intel Homebrew under /usr/local, an x86_64 Miniconda/Anaconda installer, a terminal opened with 'Open using Rosetta'.",
        how_to_fix: "Install a native arm64 Python (the python.org universal2 installer, Homebrew under /opt/homebrew, or the arm64 Miniforge/Miniconda), recreate the environment with it and reinstall the packages. `python -c \"import platform; print(platform.machine())\"` must print arm64.",
        sources: &[
            "https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment",
            "https://ml-explore.github.io/mlx/build/html/install.html (requires a native Python; troubleshooting: non-native Python)",
            "https://developer.apple.com/metal/pytorch/ (arm64 Python needed for MPS)",
        ],
    },
    check: check_mac001,
    superseded_by: &[],
};

fn check_mac001(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !facts::is_macos(inv) || !apple_silicon(inv) {
        return vec![];
    }
    let mut out = Vec::new();
    for env in &inv.python {
        let Some(arch) = &env.arch else {
            continue;
        };
        let archs: Vec<&str> = arch.value.split_whitespace().collect();
        if archs.contains(&"arm64") || !archs.contains(&"x86_64") {
            continue;
        }
        let fw = gpu_frameworks(env);
        let what = if fw.is_empty() {
            String::new()
        } else {
            format!(" ({} installed as x86_64 builds)", fw.join(", "))
        };
        let mut f = MAC001.finding(format!(
            "The Python in {} is built for x86_64 only and runs under Rosetta 2 on this Apple silicon Mac{what}: torch gets no MPS and MLX cannot be installed.",
            env.path
        ));
        f = cite_silicon(inv, f).fact("Python architecture", arch);
        if let Some(i) = &env.interpreter {
            f = f.evidence("interpreter", i, &arch.source);
        }
        if fw.is_empty() {
            f = f.at(Severity::Warning);
        }
        out.push(f.fix_note(format!(
            "Install a native arm64 Python (python.org universal2, Homebrew in /opt/homebrew, or arm64 Miniforge), recreate {} with it, and reinstall its packages; `python -c \"import platform; print(platform.machine())\"` must print arm64.",
            env.path
        )));
    }
    out
}

pub static MAC002: Rule = Rule {
    code: "MAC002",
    name: "torch-before-mps",
    category: Category::PlatformPosture,
    severity: Severity::Warning,
    summary: "torch older than 1.12 on Apple silicon: the MPS backend does not exist there, torch runs on the CPU only.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On an Apple silicon Mac: each environment's torch version, against 1.12, the first release with the MPS backend.",
        why_it_breaks: "The MPS (Metal Performance Shaders) backend arrived in torch 1.12; earlier releases have no `torch.backends.mps` and no `mps` device, so the Apple GPU is never used.",
        how_to_fix: "Upgrade torch in that environment (`pip install --upgrade torch torchvision torchaudio`), with an arm64 Python on macOS 12.3 or later.",
        sources: &[
            "https://pytorch.org/blog/introducing-accelerated-pytorch-training-on-mac/ (MPS backend in PyTorch v1.12)",
            "https://pytorch.org/docs/stable/notes/mps.html",
        ],
    },
    check: check_mac002,
    superseded_by: &[],
};

fn check_mac002(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !facts::is_macos(inv) || !apple_silicon(inv) {
        return vec![];
    }
    let mut out = Vec::new();
    for env in &inv.python {
        let Some(v) = env.torch.as_ref().and_then(|t| t.version.as_ref()) else {
            continue;
        };
        if triple(&v.value).map_or(true, |t| t >= TORCH_MPS) {
            continue;
        }
        let f = MAC002
            .finding(format!(
                "torch {} in {} predates the MPS backend (torch 1.12): it runs on the CPU only and cannot use the Apple GPU.",
                v.value, env.path
            ))
            .fact("torch version", v);
        out.push(cite_silicon(inv, f).fix_command(
            "pip install --upgrade torch torchvision torchaudio",
            Some(format!("in {}", env.path)),
        ));
    }
    out
}

pub static MAC003: Rule = Rule {
    code: "MAC003",
    name: "macos-too-old-for-mps",
    category: Category::PlatformPosture,
    severity: Severity::Error,
    summary: "macOS is older than MPS (12.3) or MLX (14.0) needs: the Apple GPU cannot be used by them.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "On a Mac with Apple silicon or with torch or MLX installed: the macOS version (SystemVersion.plist or sw_vers) against 12.3 for torch's MPS backend and 14.0 for MLX's wheels.",
        why_it_breaks: "The MPS backend uses Metal Performance Shaders graphs that macOS provides from 12.3 on: on older macOS, `torch.backends.mps.is_available()` is False. MLX's PyPI wheels are built for macOS 14.0 and later, so pip finds no matching distribution on older macOS.",
        how_to_fix: "Update macOS (System Settings → General → Software Update) to 12.3 or later for MPS, 14.0 or later for MLX; until then, torch runs on the CPU.",
        sources: &[
            "https://developer.apple.com/metal/pytorch/ (requirements: macOS 12.3 or later)",
            "https://pytorch.org/docs/stable/notes/mps.html",
            "https://ml-explore.github.io/mlx/build/html/install.html (macOS >= 14.0)",
        ],
    },
    check: check_mac003,
    superseded_by: &[],
};

fn check_mac003(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if !facts::is_macos(inv) {
        return vec![];
    }
    let Some(ver) = &inv.os.version_id else {
        return vec![];
    };
    let Some(os) = triple(&ver.value) else {
        return vec![];
    };
    let torch: Vec<&PythonEnv> = inv.python.iter().filter(|e| e.torch.is_some()).collect();
    let mlx: Vec<&PythonEnv> = inv
        .python
        .iter()
        .filter(|e| e.package("mlx").is_some())
        .collect();
    let mut reasons = Vec::new();
    let mut f = MAC003.finding(String::new()).fact("macOS", ver);
    if os < MACOS_MPS && (apple_silicon(inv) || !torch.is_empty()) {
        reasons.push("torch's MPS backend needs macOS 12.3 or later");
        for e in &torch {
            if let Some(v) = e.torch.as_ref().and_then(|t| t.version.as_ref()) {
                f = f.fact(format!("torch in {}", e.path), v);
            }
        }
    }
    if os < MACOS_MLX && !mlx.is_empty() {
        reasons.push("MLX needs macOS 14.0 or later");
        for e in &mlx {
            if let Some(p) = e.package("mlx") {
                f = f.evidence(format!("mlx in {}", e.path), &p.version, &p.source);
            }
        }
    }
    if reasons.is_empty() {
        return vec![];
    }
    f = cite_silicon(inv, f);
    f.message = format!(
        "macOS {} is too old for the Apple GPU frameworks here: {}.",
        ver.value,
        reasons.join("; ")
    );
    vec![f.fix_note("Update macOS (System Settings → General → Software Update): 12.3 or later for torch's MPS, 14.0 or later for MLX. Until then torch runs on the CPU.")]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_triples() {
        assert_eq!(triple("14.5"), Some((14, 5, 0)));
        assert_eq!(triple("12.3.1"), Some((12, 3, 1)));
        assert_eq!(triple("2.5.1+cpu"), Some((2, 5, 1)));
        assert_eq!(triple("1.11.0a0"), Some((1, 11, 0)));
        assert_eq!(triple("x"), None);
        assert!(triple("1.11.0").unwrap() < TORCH_MPS);
        assert!(triple("1.12.0").unwrap() >= TORCH_MPS);
    }
}
