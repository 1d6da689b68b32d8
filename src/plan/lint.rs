//! `gpucompat lint Dockerfile`: the GPU stack a Dockerfile builds, checked
//! before it ships. Findings carry the line they point at.
//!
//! What is read: FROM (with ARG substitution and stage names), ENV, and the
//! commands inside RUN (apt/dnf/yum/zypper/apk installs, pip / `python -m pip`
//! / `uv pip` installs with their index URLs, conda/mamba installs, NVIDIA
//! runfiles). With `--host` cards, the image's NVIDIA_REQUIRE_CUDA and the
//! torch build are also checked against each host.

use std::collections::{BTreeMap, HashMap};

use crate::finding::{Category, Finding, Severity};
use crate::kb::{driver_meets, Kb, KernelMatch, Semantic};
use crate::plan::hosts::{forward_compat_eligible, HostSpec};
use crate::plan::image::{image_facts, ImageKind, ImageRef};
use crate::plan::require::{
    classify_clause, clauses, evaluate_set, go_parse_bool, parse_term, requirements_from_env,
    ClauseKind, Cmp, Outcome, RequireSet, Rule,
};
use crate::version::{CudaVersion, DriverVersion};

/// Dockerfiles larger than this are refused (`lint` reads at most this much).
pub const MAX_DOCKERFILE_BYTES: u64 = 1024 * 1024;
/// ARG/ENV substitution adds at most this many bytes to one value or one
/// RUN line; a `$VAR` whose value would pass it stays as written. Without
/// it, `ARG B=${A}${A}` lines double a value each line.
pub const MAX_EXPANSION: usize = 64 * 1024;
/// A finding repeated with the same code and message (one per word of a
/// long RUN line) is shown once, with the count and its first lines.
const SHOWN_REPEAT_LINES: usize = 5;

/// A lint rule and its docs (the fixed sections of every gpucompat rule).
#[derive(Debug, Clone, Copy)]
pub struct LintRule {
    pub code: &'static str,
    pub name: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub summary: &'static str,
    pub what_it_checks: &'static str,
    pub why_it_breaks: &'static str,
    pub how_to_fix: &'static str,
    pub sources: &'static str,
}

macro_rules! rule {
    ($code:literal, $name:literal, $cat:ident, $sev:ident, $summary:literal, $what:literal, $why:literal, $fix:literal, $src:literal) => {
        LintRule {
            code: $code,
            name: $name,
            category: Category::$cat,
            severity: Severity::$sev,
            summary: $summary,
            what_it_checks: $what,
            why_it_breaks: $why,
            how_to_fix: $fix,
            sources: $src,
        }
    };
}

/// Every Dockerfile rule, in code order.
pub const RULES: &[LintRule] = &[
    rule!("DKR001", "second-cuda-toolkit", MultipleCuda, Warning,
        "A RUN line installs a CUDA toolkit into an image that already has one.",
        "apt/dnf/yum/zypper installs of cuda, cuda-toolkit*, cuda-X-Y, cuda-runtime*, cuda-libraries*, nvidia-cuda-toolkit; conda installs of cudatoolkit / cuda-toolkit / cuda; CUDA runfiles; on a base image that carries CUDA (nvidia/cuda, pytorch/pytorch, NGC) or after an earlier CUDA install.",
        "Two CUDA trees in one image: which libcudart, nvcc or cuBLAS a program gets depends on PATH and LD_LIBRARY_PATH order, and a mismatch shows up as missing symbols, 'CUDA driver version is insufficient' or a toolkit/torch version mismatch at extension build time.",
        "Pick the base image whose CUDA you need (nvidia/cuda:<version>-devel-<os> for nvcc) instead of installing a second toolkit; pip wheels (torch, nvidia-*) bring their own runtime and need no toolkit.",
        "research/cuda/rules.md (toolkit layout); nvidia/cuda image Dockerfiles (gitlab.com/nvidia/container-images/cuda dist/)"),
    rule!("DKR002", "driver-in-image", Container, Error,
        "A RUN line installs the NVIDIA driver inside the image.",
        "apt/dnf installs of nvidia-driver-*, nvidia-utils-*, libnvidia-compute-*, nvidia-dkms-*, kmod-nvidia*, cuda-drivers*, the cuda meta-package (which pulls cuda-drivers), and NVIDIA-Linux-*.run or CUDA runfiles without --toolkit.",
        "The NVIDIA container runtime mounts the host's user-mode driver (libcuda, libnvidia-ml) into the container to match the host's kernel module. A driver copy inside the image shadows or conflicts with it: 'Failed to initialize NVML: Driver/library version mismatch', CUDA error 803 (system has unsupported display driver / cuda driver combination), or a container that works on one host and not on the next.",
        "Remove the driver packages; install the driver on the host only. For CUDA in the image use an nvidia/cuda base image (it has no driver).",
        "nvidia-container-toolkit docs (the driver comes from the host); libnvidia-container src/nvc_mount.c (driver libraries mounted from the host)"),
    rule!("DKR003", "pip-tensorrt-over-image-tensorrt", TensorrtMismatch, Warning,
        "pip installs TensorRT over an image that already ships TensorRT.",
        "pip installs of tensorrt, tensorrt-cu11/12/13, tensorrt-libs or tensorrt-bindings when the base image is an nvidia/cuda tensorrt flavor or an NGC PyTorch / TensorRT container.",
        "Two TensorRT copies: the Python bindings may load the other copy's libnvinfer, and engines built with one version do not deserialize with the other ('engine plan file is not compatible').",
        "Use the image's TensorRT, or start from an image without it (nvidia/cuda runtime) and pin the pip TensorRT.",
        "NGC PyTorch / TensorRT container release notes (container contents); research/frameworks/cuda_images.md (tensorrt flavors)"),
    rule!("DKR004", "wheel-cuda-differs-from-image", Misconception, Info,
        "The torch wheel's CUDA differs from the base image's CUDA: not an error by itself.",
        "The CUDA of the torch build (its +cuXYZ, its index URL, or the PyPI default of the pinned release) against the CUDA version in the base image tag.",
        "Not broken: pip wheels bundle their own CUDA runtime (nvidia-*-cuXX wheels) and do not use the image's CUDA libraries. What matters is that the host driver runs the wheel's CUDA; the image's NVIDIA_REQUIRE_CUDA only checks the image's own version. When the wheel's CUDA is newer within the same major, it runs on the image's hosts through minor-version compatibility (driver at or above the major's floor).",
        "Nothing required. To save space and avoid confusion, use a base image with the wheel's CUDA (or a plain runtime image of it).",
        "research/frameworks/cuda_images.md (torch pins its own cuDNN/runtime via nvidia-* wheels); research/cuda/rules.md (minor-version compatibility)"),
    rule!("DKR005", "wheel-cuda-newer-than-image-check", DriverTooOld, Warning,
        "The torch wheel needs a newer CUDA major than the image's start-up check verifies.",
        "The wheel's CUDA is of a newer major than the base image's, and no NVIDIA_REQUIRE_CUDA in effect asks for it.",
        "The container starts on any host whose driver runs the image's CUDA, but torch then fails with 'The NVIDIA driver on your system is too old' or CUDA error 35 (insufficient driver) on hosts whose driver predates the wheel's CUDA major.",
        "Use a base image of the wheel's CUDA, pick a torch build of the image's CUDA major, or set ENV NVIDIA_REQUIRE_CUDA=\"cuda>=<wheel CUDA>\" so the container refuses to start where the wheel cannot run.",
        "libnvidia-container src/cli/dsl.c (requirement check); research/cuda/rules.md (driver per CUDA version)"),
    rule!("DKR006", "torch-unpinned", DriverTooOld, Warning,
        "torch is installed without a version pin.",
        "pip install torch (or torch>=X) without ==.",
        "Each build picks up whatever release is newest, and the PyPI default CUDA variant moves with releases (cu121 → cu124 → cu126 → cu128 → cu130 → cu132 in the knowledge base): a rebuild can silently need a newer driver or drop your GPU's architecture.",
        "Pin torch==X+cuXYZ with --index-url https://download.pytorch.org/whl/cuXYZ (`gpucompat pin` writes such a line).",
        "torch_releases table (PyPI default variant per release)"),
    rule!("DKR007", "cpu-torch-on-gpu-image", CpuOnlyWheel, Error,
        "A CPU-only torch build is installed in a GPU image.",
        "torch==X+cpu or the .../whl/cpu index on a base image with CUDA.",
        "The CPU wheel has no CUDA: torch.cuda.is_available() is False and 'Torch not compiled with CUDA enabled' is raised on the first GPU call.",
        "Install the CUDA build: --index-url https://download.pytorch.org/whl/cuXYZ and torch==X+cuXYZ.",
        "torch_releases table; pytorch.org install selector (index per variant)"),
    rule!("DKR008", "torch-build-not-on-index", Misconception, Error,
        "The pinned torch build cannot come from the index the line uses.",
        "torch==X+cuXYZ next to an index URL of another variant, or a +cuXYZ variant the release was never built with.",
        "pip resolves only what the index holds: 'No matching distribution found for torch==X+cuXYZ' fails the build, or an --extra-index-url silently supplies another build.",
        "Use the index of the pinned variant (https://download.pytorch.org/whl/cuXYZ) and a variant the release has (`gpucompat db torch X`).",
        "torch_releases table (variants per release)"),
    rule!("DKR009", "torch-arch-not-in-wheel", ArchUnsupported, Error,
        "The torch build has no kernels for a GPU of a --host card.",
        "The build's arch list (torch_arch table) against every GPU of every --host card, with the vendor's SASS/PTX compatibility rules.",
        "'CUDA error: no kernel image is available for execution on the device', or the warning 'sm_XY is not compatible with the current PyTorch installation'.",
        "Pick a torch build whose arch list covers the GPU (`gpucompat pin --host CARD`).",
        "torch_arch table; CUDA C++ Programming Guide, binary and PTX compatibility"),
    rule!("DKR010", "image-requirement-fails-host", Container, Error,
        "The image's NVIDIA_REQUIRE_CUDA rejects a --host card (or admits it only through forward compatibility it cannot use).",
        "The image's requirement variables (NVIDIA_REQUIRE_*, legacy CUDA_VERSION, NVIDIA_DISABLE_REQUIRE, with ENV overrides from the Dockerfile) evaluated as libnvidia-container does, per visible GPU of each --host card.",
        "'nvidia-container-cli: requirement error: unsatisfied condition: cuda>=X' at docker run; or, through a brand/driver clause on a GPU without forward-compatibility support, CUDA error 804 (forward compatibility not supported on this device).",
        "Upgrade the host driver to one that runs the image's CUDA, or use an image with an older CUDA (`gpucompat pin --host CARD`).",
        "libnvidia-container src/cli/dsl.c, src/cli/configure.c; nvidia-container-toolkit internal/config/image/cuda_image.go; CUDA forward-compatibility docs"),
    rule!("DKR011", "wheel-needs-newer-driver", DriverTooOld, Error,
        "The torch wheel's CUDA is newer than a --host card's driver runs.",
        "The wheel's CUDA against each --host card's driver (toolkit driver table, then the minor-version-compatibility floor).",
        "'The NVIDIA driver on your system is too old' / CUDA error 35 (insufficient driver) when torch initializes CUDA.",
        "Upgrade the host driver, or pin a torch build of an older CUDA (`gpucompat pin --host CARD`).",
        "cuda_toolkits and minor_compat tables"),
    rule!("DKR012", "require-check-disabled", EnvVar, Warning,
        "NVIDIA_DISABLE_REQUIRE turns the image's driver check off.",
        "ENV NVIDIA_DISABLE_REQUIRE with a value Go's ParseBool reads as true (1, t, T, true, TRUE, True).",
        "The container then starts on hosts whose driver cannot run its CUDA, and fails later inside the application with a less clear error.",
        "Remove it; if a specific host needs it (WSL reports a lower CUDA, nvidia-container-toolkit#148), set it at docker run time for that host only.",
        "nvidia-container-toolkit internal/config/image/cuda_image.go (HasDisableRequire)"),
    rule!("DKR013", "torch-over-image-torch", Misconception, Warning,
        "pip installs torch over an image that already ships a torch build.",
        "pip installs of torch on pytorch/pytorch or NGC PyTorch (nvcr.io/nvidia/pytorch) base images.",
        "The pip wheel replaces the image's torch (NGC's is a custom build matched to the container's CUDA, cuDNN and TensorRT); extensions and libraries built against the original then fail to import or load the wrong CUDA libraries.",
        "Use the image's torch, or start from an nvidia/cuda runtime image and install the pinned wheel.",
        "NGC PyTorch container release notes (container contents)"),
    rule!("DKR014", "gpu-base-image-unknown", Container, Info,
        "The base image looks GPU-related but the knowledge base does not know its CUDA.",
        "FROM images from NVIDIA or PyTorch (or ROCm) whose tag the cuda_images table does not cover.",
        "Checks that need the image's CUDA or NVIDIA_REQUIRE_CUDA are skipped for it.",
        "Use a tag the table covers (`gpucompat db image`), or check the image's env with `docker image inspect` and `gpucompat db require`.",
        "cuda_images table"),
];

pub fn rule(code: &str) -> Option<&'static LintRule> {
    RULES.iter().find(|r| r.code.eq_ignore_ascii_case(code))
}

fn finding(code: &str, line: usize, message: String) -> Finding {
    let r = rule(code).unwrap_or(&RULES[0]);
    Finding {
        code: r.code.into(),
        name: r.name.into(),
        category: r.category,
        severity: r.severity,
        message,
        evidence: vec![],
        kb: vec![],
        fix: Some(crate::finding::Fix {
            command: None,
            note: Some(r.how_to_fix.into()),
            ..Default::default()
        }),
        line: Some(line),
    }
}

// ---------------------------------------------------------------------------
// Dockerfile parsing
// ---------------------------------------------------------------------------

/// One instruction, with its logical text and where each piece came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Upper-case keyword (`FROM`, `RUN`, ...).
    pub keyword: String,
    /// The arguments, continuation lines joined (with a space), heredoc bodies appended after '\n'.
    pub args: String,
    /// 1-based line of the keyword.
    pub line: usize,
    /// (offset in `args`, line) at the start of each physical piece.
    pieces: Vec<(usize, usize)>,
}

impl Instruction {
    /// The physical line an offset of `args` comes from.
    pub fn line_at(&self, offset: usize) -> usize {
        // Pieces are in offset order: a binary search keeps long RUN lines linear.
        let n = self.pieces.partition_point(|(o, _)| *o <= offset);
        n.checked_sub(1)
            .and_then(|i| self.pieces.get(i))
            .map_or(self.line, |(_, l)| *l)
    }
}

/// Split a Dockerfile into instructions (escape directive, continuations,
/// comments inside continuations, heredocs).
pub fn parse_dockerfile(text: &str) -> Vec<Instruction> {
    let lines: Vec<&str> = text.lines().collect();
    let mut escape = '\\';
    // Parser directives: only at the very top, before any instruction or blank line.
    for l in &lines {
        let t = l.trim();
        let Some(d) = t.strip_prefix('#') else { break };
        let d = d.trim();
        match d.split_once('=') {
            Some((k, v)) if k.trim().eq_ignore_ascii_case("escape") => {
                if let Some(c) = v.trim().chars().next() {
                    escape = c;
                }
            }
            Some((k, _))
                if k.trim().eq_ignore_ascii_case("syntax")
                    || k.trim().eq_ignore_ascii_case("check") => {}
            _ => break,
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let t = raw.trim_start();
        if t.is_empty() || t.starts_with('#') {
            i += 1;
            continue;
        }
        let start = i;
        let mut args = String::new();
        let mut pieces = Vec::new();
        let kw_len = t.find(char::is_whitespace).unwrap_or(t.len());
        let keyword = t[..kw_len].to_ascii_uppercase();
        let mut piece = t[kw_len..].trim_start().to_string();
        loop {
            let trimmed = piece.trim_end();
            let cont = trimmed.ends_with(escape);
            let body = if cont {
                &trimmed[..trimmed.len() - escape.len_utf8()]
            } else {
                trimmed
            };
            pieces.push((args.len(), i + 1));
            args.push_str(body);
            i += 1;
            if !cont {
                break;
            }
            args.push(' ');
            // Skip comment and blank lines inside a continuation.
            while i < lines.len() {
                let n = lines[i].trim_start();
                if n.is_empty() || n.starts_with('#') {
                    i += 1;
                } else {
                    break;
                }
            }
            if i >= lines.len() {
                break;
            }
            piece = lines[i].trim_start().to_string();
        }
        // Heredocs: `<<EOF`, `<<-EOF`, `<<"EOF"`: the body follows until the delimiter line.
        for word in heredoc_words(&args) {
            args.push('\n');
            while i < lines.len() {
                let l = lines[i];
                i += 1;
                if l.trim() == word {
                    break;
                }
                pieces.push((args.len(), i));
                args.push_str(l);
                args.push('\n');
            }
        }
        out.push(Instruction {
            keyword,
            args,
            line: start + 1,
            pieces,
        });
    }
    out
}

fn heredoc_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(p) = rest.find("<<") {
        let after = rest[p + 2..].trim_start_matches('-');
        let word: String = after
            .trim_start_matches(['"', '\''])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !word.is_empty() && word.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
            out.push(word);
        }
        rest = &rest[p + 2..];
    }
    out
}

/// Substitute `$VAR`, `${VAR}`, `${VAR:-default}` from known values; unknown
/// stay as written, and so does a value that would grow the text by more
/// than [`MAX_EXPANSION`].
pub fn substitute(s: &str, vars: &BTreeMap<String, String>) -> String {
    let limit = s.len().saturating_add(MAX_EXPANSION);
    let mut out = String::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    // Set once no `}` follows: later `${` need not look again (linear on `${${${...`).
    let mut no_close = false;
    let fits = |out: &String, add: &str, rest: usize| out.len() + add.len() + rest <= limit;
    while i < b.len() {
        if b[i] == '$' && i + 1 < b.len() {
            if b[i + 1] == '{' && !no_close {
                let found = b[i + 2..].iter().position(|c| *c == '}');
                if found.is_none() {
                    no_close = true;
                }
                if let Some(end) = found {
                    let inner: String = b[i + 2..i + 2 + end].iter().collect();
                    let (name, default) = match inner.split_once(":-") {
                        Some((n, d)) => (n.to_string(), Some(d.to_string())),
                        None => (inner.clone(), None),
                    };
                    let rest = b.len() - (i + end + 3);
                    let value = match (vars.get(&name), default) {
                        (Some(v), _) if !v.is_empty() => Some(v.clone()),
                        (_, Some(d)) => Some(d),
                        (Some(v), None) => Some(v.clone()),
                        (None, None) => None,
                    };
                    match value {
                        Some(v) if fits(&out, &v, rest) => out.push_str(&v),
                        _ => {
                            out.push_str("${");
                            out.push_str(&inner);
                            out.push('}');
                        }
                    }
                    i += end + 3;
                    continue;
                }
            } else if b[i + 1].is_ascii_alphabetic() || b[i + 1] == '_' {
                let name: String = b[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_')
                    .collect();
                let rest = b.len().saturating_sub(i + 1 + name.chars().count());
                if let Some(v) = vars.get(&name).filter(|v| fits(&out, v, rest)) {
                    out.push_str(v);
                } else {
                    out.push('$');
                    out.push_str(&name);
                }
                i += 1 + name.chars().count();
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// `KEY=VALUE KEY2="V 2"` or the legacy `KEY VALUE` form of ENV / ARG / LABEL.
fn key_values(args: &str) -> Vec<(String, Option<String>)> {
    let toks = shell_words(args);
    if toks.len() >= 2 && !toks[0].0.contains('=') {
        // Legacy `ENV KEY value with spaces`.
        let rest = args
            .trim_start()
            .split_once(char::is_whitespace)
            .map_or("", |(_, r)| r)
            .trim()
            .to_string();
        return vec![(toks[0].0.clone(), Some(unquote(&rest)))];
    }
    toks.into_iter()
        .map(|(t, _)| match t.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (t, None),
        })
        .collect()
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    if s.len() >= 2
        && (s.starts_with('"') && s.ends_with('"') || s.starts_with('\'') && s.ends_with('\''))
    {
        s[1..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

/// Split shell text into words (quotes removed) with the offset each word
/// starts at; command separators (`&&`, `||`, `;`, `|`, `&`, newline) come
/// back as their own words.
fn shell_words(s: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut i = 0;
    let mut cur = String::new();
    let mut start: Option<usize> = None;
    let flush = |cur: &mut String, start: &mut Option<usize>, out: &mut Vec<(String, usize)>| {
        if let Some(st) = start.take() {
            out.push((std::mem::take(cur), st));
        }
    };
    while i < chars.len() {
        let (off, c) = chars[i];
        match c {
            '\'' => {
                start.get_or_insert(off);
                i += 1;
                while i < chars.len() && chars[i].1 != '\'' {
                    cur.push(chars[i].1);
                    i += 1;
                }
            }
            '"' => {
                start.get_or_insert(off);
                i += 1;
                while i < chars.len() && chars[i].1 != '"' {
                    if chars[i].1 == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    cur.push(chars[i].1);
                    i += 1;
                }
            }
            '\\' if i + 1 < chars.len() => {
                start.get_or_insert(off);
                cur.push(chars[i + 1].1);
                i += 1;
            }
            c if c.is_whitespace() && c != '\n' => flush(&mut cur, &mut start, &mut out),
            '\n' | ';' | '|' | '&' => {
                flush(&mut cur, &mut start, &mut out);
                let mut sep = c.to_string();
                if (c == '&' || c == '|') && i + 1 < chars.len() && chars[i + 1].1 == c {
                    sep.push(c);
                    i += 1;
                }
                out.push((sep, off));
            }
            '#' if start.is_none() => {
                // A comment runs to the end of the line.
                while i + 1 < chars.len() && chars[i + 1].1 != '\n' {
                    i += 1;
                }
            }
            c => {
                start.get_or_insert(off);
                cur.push(c);
            }
        }
        i += 1;
    }
    flush(&mut cur, &mut start, &mut out);
    out
}

fn is_sep(w: &str) -> bool {
    matches!(w, "&&" | "||" | ";" | "|" | "&" | "\n")
}

/// Simple commands of a RUN, each a list of (word, offset).
fn commands(s: &str) -> Vec<Vec<(String, usize)>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for w in shell_words(s) {
        if is_sep(&w.0) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(w);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

// ---------------------------------------------------------------------------
// What a RUN installs
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Install {
    /// System package (apt, dnf, ...).
    System {
        manager: String,
        package: String,
    },
    Pip {
        spec: String,
        indexes: Vec<String>,
    },
    Conda {
        package: String,
    },
    Runfile {
        file: String,
        toolkit_only: bool,
        driver_only: bool,
    },
}

/// pip options that take a value.
const PIP_VALUE_OPTS: &[&str] = &[
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "--platform",
    "--python-version",
    "--implementation",
    "--abi",
    "--trusted-host",
    "--cache-dir",
    "--src",
    "--upgrade-strategy",
    "--progress-bar",
    "--root-user-action",
    "--log",
    "--timeout",
    "--retries",
    "--proxy",
    "--cert",
    "--client-cert",
    "--exists-action",
    "-e",
    "--editable",
    "--python",
    "--index-strategy",
    "--only-binary",
    "--no-binary",
    "--config-settings",
    "-C",
    "--default-index",
    "--index",
];
const APT_VALUE_OPTS: &[&str] = &["-o", "-t", "--target-release", "-c", "--config-file"];
const DNF_VALUE_OPTS: &[&str] = &[
    "--setopt",
    "--enablerepo",
    "--disablerepo",
    "--releasever",
    "--repo",
    "--installroot",
];
const CONDA_VALUE_OPTS: &[&str] = &[
    "-c",
    "--channel",
    "-n",
    "--name",
    "-p",
    "--prefix",
    "--override-channels-with",
];

fn installs(cmd: &[(String, usize)], env_indexes: &[String]) -> Vec<(Install, usize)> {
    let mut w: Vec<(&str, usize)> = cmd.iter().map(|(s, o)| (s.as_str(), *o)).collect();
    // Leading VAR=value assignments and wrappers.
    while let Some((first, _)) = w.first() {
        if first.contains('=') && !first.starts_with('-')
            || ["sudo", "env", "time", "exec", "nice", "command"].contains(first)
        {
            w.remove(0);
        } else {
            break;
        }
    }
    let Some(&(prog, _)) = w.first() else {
        return vec![];
    };
    let base = prog.rsplit('/').next().unwrap_or(prog);
    let mut out = Vec::new();
    let after = |idx: usize| -> Vec<(&str, usize)> { w.iter().skip(idx).copied().collect() };
    // pip / python -m pip / uv pip
    let pip_at = if base.starts_with("pip") {
        Some(1)
    } else if base.starts_with("python")
        && w.get(1).map(|x| x.0) == Some("-m")
        && w.get(2).is_some_and(|x| x.0.starts_with("pip"))
    {
        Some(3)
    } else if base == "uv" && w.get(1).map(|x| x.0) == Some("pip") {
        Some(2)
    } else {
        None
    };
    if let Some(k) = pip_at {
        if w.get(k).map(|x| x.0) != Some("install") {
            return out;
        }
        let rest = after(k + 1);
        let mut indexes: Vec<String> = env_indexes.to_vec();
        let mut specs = Vec::new();
        let mut j = 0;
        while j < rest.len() {
            let (a, off) = rest[j];
            if let Some((opt, val)) = a.split_once('=').filter(|(o, _)| o.starts_with("--")) {
                if [
                    "--index-url",
                    "--extra-index-url",
                    "--find-links",
                    "--index",
                    "--default-index",
                ]
                .contains(&opt)
                {
                    indexes.push(val.to_string());
                }
            } else if PIP_VALUE_OPTS.contains(&a) {
                if let Some((v, _)) = rest.get(j + 1) {
                    if [
                        "-i",
                        "--index-url",
                        "--extra-index-url",
                        "-f",
                        "--find-links",
                        "--index",
                        "--default-index",
                    ]
                    .contains(&a)
                    {
                        indexes.push(v.to_string());
                    }
                }
                j += 1;
            } else if !a.starts_with('-') {
                specs.push((a.to_string(), off));
            }
            j += 1;
        }
        for (s, off) in specs {
            out.push((
                Install::Pip {
                    spec: s,
                    indexes: indexes.clone(),
                },
                off,
            ));
        }
        return out;
    }
    let (manager, verb_ok, value_opts): (&str, &[&str], &[&str]) = match base {
        "apt-get" | "apt" | "aptitude" => ("apt", &["install"], APT_VALUE_OPTS),
        "dnf" | "yum" | "microdnf" | "tdnf" => ("dnf", &["install"], DNF_VALUE_OPTS),
        "zypper" => ("zypper", &["install", "in"], &[]),
        "apk" => ("apk", &["add"], &[]),
        "conda" | "mamba" | "micromamba" => ("conda", &["install", "create"], CONDA_VALUE_OPTS),
        _ => {
            // Runfiles: sh NVIDIA-Linux-*.run, ./cuda_12.4.0_550.54.14_linux.run
            let file_at = if ["sh", "bash"].contains(&base) { 1 } else { 0 };
            if let Some(&(f, off)) = w.get(file_at) {
                let fname = f.rsplit('/').next().unwrap_or(f);
                if fname.ends_with(".run")
                    && (fname.starts_with("NVIDIA-Linux") || fname.starts_with("cuda_"))
                {
                    let flags: Vec<&str> = w.iter().map(|x| x.0).collect();
                    out.push((
                        Install::Runfile {
                            file: fname.to_string(),
                            toolkit_only: flags.contains(&"--toolkit")
                                && !flags.contains(&"--driver"),
                            driver_only: fname.starts_with("NVIDIA-Linux"),
                        },
                        off,
                    ));
                }
            }
            return out;
        }
    };
    let Some(verb_idx) = w.iter().position(|x| verb_ok.contains(&x.0)) else {
        return out;
    };
    let rest = after(verb_idx + 1);
    let mut j = 0;
    while j < rest.len() {
        let (a, off) = rest[j];
        if value_opts.contains(&a) {
            j += 2;
            continue;
        }
        if !a.starts_with('-') {
            let p = a.to_string();
            out.push((
                if manager == "conda" {
                    Install::Conda { package: p }
                } else {
                    Install::System {
                        manager: manager.into(),
                        package: p,
                    }
                },
                off,
            ));
        }
        j += 1;
    }
    out
}

/// A system package name without its version (`cuda-toolkit-12-4=12.4.1-1` → `cuda-toolkit-12-4`).
fn pkg_name(p: &str) -> String {
    let p = p.split(['=', ':']).next().unwrap_or(p);
    p.trim().to_ascii_lowercase()
}

/// A CUDA toolkit package, and its CUDA version when the name says.
fn cuda_toolkit_package(name: &str) -> Option<Option<CudaVersion>> {
    let n = pkg_name(name);
    if ["nvidia-cuda-toolkit", "nvidia-cuda-dev"].contains(&n.as_str()) {
        return Some(None);
    }
    if n == "cuda" {
        return Some(None);
    }
    let rest = n.strip_prefix("cuda-")?;
    if ["compat", "keyring", "drivers", "repo"]
        .iter()
        .any(|x| rest.starts_with(x))
    {
        return None;
    }
    // cuda-12-4, cuda-toolkit-12-4, cuda-runtime-12-4, cuda-libraries-12-4, cuda-cudart-12-4, ...
    let parts: Vec<&str> = rest.split('-').collect();
    let nums: Vec<u32> = parts
        .iter()
        .rev()
        .take(2)
        .filter_map(|p| p.parse().ok())
        .collect();
    let v = (nums.len() == 2).then(|| CudaVersion::new(nums[1], nums[0]));
    let kind = parts.first().copied().unwrap_or("");
    let known = [
        "toolkit",
        "runtime",
        "libraries",
        "cudart",
        "compiler",
        "nvcc",
        "minimal",
        "core",
        "command",
        "cublas",
        "nvrtc",
    ];
    if kind.parse::<u32>().is_ok() || known.contains(&kind) {
        return Some(v);
    }
    None
}

fn conda_cuda(name: &str) -> Option<Option<CudaVersion>> {
    let (n, ver) = match name.split_once(['=', '<', '>']) {
        Some((n, v)) => (
            n.to_ascii_lowercase(),
            Some(v.trim_start_matches(['=', '>', '<'])),
        ),
        None => (name.to_ascii_lowercase(), None),
    };
    let n = n.rsplit("::").next().unwrap_or(&n).to_string();
    if [
        "cudatoolkit",
        "cuda-toolkit",
        "cuda",
        "cuda-runtime",
        "cuda-cudart",
        "cuda-nvcc",
        "cuda-libraries",
    ]
    .contains(&n.as_str())
    {
        return Some(ver.and_then(|v| {
            v.split('.')
                .take(2)
                .collect::<Vec<_>>()
                .join(".")
                .parse()
                .ok()
        }));
    }
    None
}

fn driver_package(name: &str) -> bool {
    let n = pkg_name(name);
    if n.starts_with("libnvidia-container") || n.starts_with("nvidia-container") {
        return false;
    }
    n == "cuda"
        || n.starts_with("cuda-drivers")
        || n.starts_with("nvidia-driver")
        || n.starts_with("nvidia-utils")
        || n.starts_with("nvidia-dkms")
        || n.starts_with("nvidia-kernel")
        || n.starts_with("kmod-nvidia")
        || n.starts_with("libnvidia-compute")
        || n.starts_with("libnvidia-gl")
        || n.starts_with("xserver-xorg-video-nvidia")
        || n == "nvidia-open"
        || n.starts_with("nvidia-open-")
}

/// A pip requirement: normalized name, the `==` version (local part included), and whether it has any version constraint.
fn pip_req(spec: &str) -> (String, Option<String>, bool) {
    let s = spec.split(';').next().unwrap_or(spec).trim();
    let name_end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
        .unwrap_or(s.len());
    let name = s[..name_end].to_ascii_lowercase().replace('_', "-");
    let rest = s[name_end..].trim();
    let rest = if rest.starts_with('[') {
        rest.find(']').map_or("", |e| &rest[e + 1..]).trim()
    } else {
        rest
    };
    let pinned = rest
        .strip_prefix("===")
        .or_else(|| rest.strip_prefix("=="))
        .map(|v| v.split(',').next().unwrap_or(v).trim().to_string());
    (name, pinned, !rest.is_empty())
}

/// The variant of a download.pytorch.org index URL (`cu124`, `cpu`, `rocm6.2`).
fn index_variant(url: &str) -> Option<String> {
    let u = url.trim_end_matches('/');
    if !u.contains("download.pytorch.org/whl") {
        return None;
    }
    let last = u.rsplit('/').next()?;
    (last.starts_with("cu") || last == "cpu" || last.starts_with("rocm") || last.starts_with("xpu"))
        .then(|| last.to_string())
}

// ---------------------------------------------------------------------------
// The lint
// ---------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Stage {
    name: Option<String>,
    image: ImageRef,
    line: usize,
    /// CUDA trees present: (where, version).
    cuda: Vec<(String, Option<CudaVersion>)>,
    env: BTreeMap<String, String>,
    env_lines: BTreeMap<String, usize>,
    torch: Option<TorchInstall>,
}

#[derive(Debug, Clone)]
struct TorchInstall {
    line: usize,
    version: Option<String>,
    variant: Option<String>,
    /// How the variant was learned.
    via: String,
}

/// Lint a Dockerfile. `hosts`: cards to check the runtime side against.
pub fn lint(text: &str, kb: &Kb, hosts: &[HostSpec]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut global_args: BTreeMap<String, String> = BTreeMap::new();
    let mut stages: Vec<Stage> = Vec::new();
    // The latest stage of each name (a FROM may name an earlier stage).
    let mut by_name: HashMap<String, usize> = HashMap::new();
    // Repeats are folded as they come, so a RUN line of 100 000 words holds one finding, not 100 000.
    let mut collapsed = Collapsed::default();
    for ins in parse_dockerfile(text) {
        collapsed.extend(findings.drain(..));
        match ins.keyword.as_str() {
            "ARG" => {
                for (k, v) in key_values(&ins.args) {
                    let vars = stages.last().map_or(&global_args, |s| &s.env);
                    let v = v.map(|v| substitute(&v, vars)).unwrap_or_default();
                    match stages.last_mut() {
                        None => {
                            global_args.insert(k, v);
                        }
                        Some(s) => {
                            // An ARG without a value inside a stage re-imports the global default.
                            let v = if v.is_empty() {
                                global_args.get(&k).cloned().unwrap_or_default()
                            } else {
                                v
                            };
                            s.env.entry(k).or_insert(v);
                        }
                    }
                }
            }
            "FROM" => {
                let words: Vec<String> = shell_words(&ins.args).into_iter().map(|w| w.0).collect();
                let mut it = words.iter().filter(|w| !w.starts_with("--"));
                let image_s = substitute(it.next().map_or("", |s| s.as_str()), &global_args);
                let name = match (it.next(), it.next()) {
                    (Some(a), Some(n)) if a.eq_ignore_ascii_case("as") => {
                        Some(n.to_ascii_lowercase())
                    }
                    _ => None,
                };
                let parent = by_name
                    .get(&image_s.to_ascii_lowercase())
                    .and_then(|&i| stages.get(i))
                    .cloned();
                let stage = match parent {
                    Some(p) => Stage {
                        name,
                        line: ins.line,
                        ..p
                    },
                    None => {
                        let image = ImageRef::parse(&image_s);
                        let facts = image_facts(kb, &image);
                        let mut cuda = Vec::new();
                        if image.has_cuda() {
                            cuda.push((format!("base image {}", image.raw), image.cuda()));
                        }
                        if image.looks_gpu()
                            && (facts.require_cuda.is_none() && image.cuda().is_none()
                                || matches!(image.kind, ImageKind::Cuda { .. })
                                    && facts.kb.is_none())
                        {
                            findings.push(finding(
                                "DKR014",
                                ins.line,
                                format!(
                                    "{}: {}",
                                    image.raw,
                                    match (&facts.exists, facts.notes.first()) {
                                        (_, Some(n)) if facts.kb.is_none() => n.clone(),
                                        (
                                            crate::plan::image::Availability::Unknown(w)
                                            | crate::plan::image::Availability::No(w),
                                            _,
                                        ) => w.clone(),
                                        _ => "its CUDA and NVIDIA_REQUIRE_CUDA are not in the knowledge base".into(),
                                    }
                                ),
                            ));
                        }
                        let mut env = global_args.clone();
                        if let Some(e) = facts.env() {
                            env.extend(e);
                        } else if let Some(c) = image.cuda() {
                            env.insert("CUDA_VERSION".into(), c.to_string());
                        }
                        Stage {
                            name,
                            image,
                            line: ins.line,
                            cuda,
                            env,
                            env_lines: BTreeMap::new(),
                            torch: None,
                        }
                    }
                };
                if let Some(n) = &stage.name {
                    by_name.insert(n.clone(), stages.len());
                }
                stages.push(stage);
            }
            "ENV" => {
                let Some(s) = stages.last_mut() else { continue };
                for (k, v) in key_values(&ins.args) {
                    let v = substitute(&v.unwrap_or_default(), &s.env);
                    if k == "NVIDIA_DISABLE_REQUIRE" && go_parse_bool(&v) == Some(true) {
                        findings.push(finding(
                            "DKR012",
                            ins.line,
                            format!("NVIDIA_DISABLE_REQUIRE={v}: the container starts without checking that the host driver runs its CUDA"),
                        ));
                    }
                    s.env_lines.insert(k.clone(), ins.line);
                    s.env.insert(k, v);
                }
            }
            "RUN" => {
                let Some(s) = stages.last_mut() else { continue };
                let script = substitute(&ins.args, &s.env);
                // Offsets after substitution drift from the original; map lines from the original where possible.
                let same = script == ins.args;
                let env_indexes: Vec<String> = [
                    "PIP_INDEX_URL",
                    "PIP_EXTRA_INDEX_URL",
                    "UV_INDEX_URL",
                    "UV_EXTRA_INDEX_URL",
                    "UV_INDEX",
                ]
                .iter()
                .filter_map(|k| s.env.get(*k))
                .flat_map(|v| v.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                .collect();
                for cmd in commands(&script) {
                    for (inst, off) in installs(&cmd, &env_indexes) {
                        let line = if same { ins.line_at(off) } else { ins.line };
                        check_install(kb, s, &inst, line, &mut findings);
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(last) = stages.last() {
        check_final_stage(kb, last, hosts, &mut findings);
    }
    collapsed.extend(findings.drain(..));
    let mut findings = collapsed.finish();
    findings.sort_by_key(|f| (f.line, f.code.clone()));
    findings
}

/// One finding per code and message: the first keeps its line, and says how
/// often and where else the same thing was seen.
#[derive(Default)]
struct Collapsed {
    index: HashMap<(String, String), usize>,
    /// Each finding, how many times it came again, and the first of those lines.
    out: Vec<(Finding, usize, Vec<usize>)>,
}

impl Collapsed {
    fn extend(&mut self, findings: impl Iterator<Item = Finding>) {
        for f in findings {
            let key = (f.code.clone(), f.message.clone());
            match self.index.get(&key) {
                Some(&i) => {
                    let (_, n, lines) = &mut self.out[i];
                    *n += 1;
                    if lines.len() < SHOWN_REPEAT_LINES {
                        lines.push(f.line.unwrap_or(0));
                    }
                }
                None => {
                    self.index.insert(key, self.out.len());
                    self.out.push((f, 0, Vec::new()));
                }
            }
        }
    }

    fn finish(self) -> Vec<Finding> {
        self.out
            .into_iter()
            .map(|(mut f, n, lines)| {
                if n > 0 {
                    let mut shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    if n > lines.len() {
                        shown.push("…".into());
                    }
                    let s = if n == 1 { "" } else { "s" };
                    f.message = format!(
                        "{} (and {n} more time{s}, line{s} {})",
                        f.message,
                        shown.join(", ")
                    );
                }
                f
            })
            .collect()
    }
}

fn check_install(kb: &Kb, s: &mut Stage, inst: &Install, line: usize, findings: &mut Vec<Finding>) {
    let second = |s: &Stage, what: String, v: Option<CudaVersion>, findings: &mut Vec<Finding>| {
        if let Some((where_, have)) = s.cuda.first() {
            findings.push(finding(
                "DKR001",
                line,
                format!(
                    "installs {what}{} over {where_}{}: two CUDA installs in one image",
                    v.map(|v| format!(" (CUDA {v})")).unwrap_or_default(),
                    have.map(|h| format!(" (CUDA {h})")).unwrap_or_default()
                ),
            ));
        }
    };
    match inst {
        Install::System { manager, package } => {
            if driver_package(package) {
                findings.push(finding(
                    "DKR002",
                    line,
                    format!(
                        "{manager} installs {package}{}: the driver belongs on the host; the NVIDIA container runtime mounts the host's",
                        if pkg_name(package) == "cuda" { " (the cuda meta-package pulls cuda-drivers)" } else { "" }
                    ),
                ));
            }
            if let Some(v) = cuda_toolkit_package(package) {
                second(s, format!("{package} ({manager})"), v, findings);
                s.cuda.push((format!("{package} (line {line})"), v));
            }
        }
        Install::Conda { package } => {
            if let Some(v) = conda_cuda(package) {
                second(s, format!("{package} (conda)"), v, findings);
                s.cuda.push((format!("{package} (line {line})"), v));
            }
            let n = package
                .split(['=', '<', '>'])
                .next()
                .unwrap_or(package)
                .to_ascii_lowercase();
            if n == "pytorch-cuda" {
                let v = package
                    .split_once('=')
                    .map(|(_, v)| v.trim_start_matches('='));
                if let Some(t) = s.torch.as_mut() {
                    t.variant = v
                        .and_then(|v| v.parse::<CudaVersion>().ok())
                        .map(|c| c.wheel_tag());
                    t.via = format!("conda {package}");
                }
            } else if n == "pytorch" || n == "pytorch::pytorch" {
                s.torch = Some(TorchInstall {
                    line,
                    version: package
                        .split_once('=')
                        .map(|(_, v)| v.trim_start_matches('=').to_string()),
                    variant: None,
                    via: "conda".into(),
                });
            }
        }
        Install::Runfile {
            file,
            toolkit_only,
            driver_only,
        } => {
            if *driver_only || !toolkit_only {
                findings.push(finding(
                    "DKR002",
                    line,
                    format!(
                        "runs {file}{}: the driver belongs on the host",
                        if *driver_only {
                            ""
                        } else {
                            " without --toolkit (it installs the driver too)"
                        }
                    ),
                ));
            }
            if !driver_only {
                second(s, file.clone(), None, findings);
                s.cuda.push((format!("{file} (line {line})"), None));
            }
        }
        Install::Pip { spec, indexes } => {
            let (name, pinned, constrained) = pip_req(spec);
            if name.starts_with("tensorrt")
                && !name.starts_with("tensorrt-llm")
                && s.image.has_tensorrt()
            {
                findings.push(finding(
                    "DKR003",
                    line,
                    format!(
                        "pip installs {spec} over {}, which ships TensorRT",
                        s.image.raw
                    ),
                ));
            }
            if name != "torch" {
                return;
            }
            if s.image.has_torch() {
                findings.push(finding(
                    "DKR013",
                    line,
                    format!(
                        "pip installs {spec} over {}, which ships its own torch build",
                        s.image.raw
                    ),
                ));
            }
            let local = pinned
                .as_deref()
                .and_then(|v| v.split_once('+'))
                .map(|(_, l)| l.to_string());
            let release = pinned
                .as_deref()
                .map(|v| v.split('+').next().unwrap_or(v).to_string());
            let index_vars: Vec<(String, String)> = indexes
                .iter()
                .filter_map(|u| index_variant(u).map(|v| (v, u.clone())))
                .collect();
            let primary = indexes.first().and_then(|u| index_variant(u));
            if pinned.is_none() {
                findings.push(finding(
                    "DKR006",
                    line,
                    format!(
                        "{spec}: {} version pin{}",
                        if constrained { "a range, not a" } else { "no" },
                        match &primary {
                            Some(v) =>
                                format!(" (the {v} index fixes the CUDA variant, not the release)"),
                            None =>
                                "; the PyPI default CUDA variant changes between releases".into(),
                        }
                    ),
                ));
            }
            // Variant: the local version, else the index, else PyPI's default for the release.
            let (variant, via) = match (&local, &primary) {
                (Some(l), _) => (Some(l.clone()), spec.to_string()),
                (None, Some(p)) => (
                    Some(p.clone()),
                    format!("index {}", indexes.first().cloned().unwrap_or_default()),
                ),
                (None, None) => match &release {
                    Some(r) => (
                        kb.torch_release(r)
                            .and_then(|row| row.default_variant.clone()),
                        format!("the PyPI default of torch {r}"),
                    ),
                    None => (None, String::new()),
                },
            };
            if let (Some(l), false) = (&local, index_vars.is_empty()) {
                if !index_vars.iter().any(|(v, _)| v == l) {
                    findings.push(finding(
                        "DKR008",
                        line,
                        format!(
                            "{spec} is a {l} build, but the line installs from {}",
                            index_vars
                                .iter()
                                .map(|(_, u)| u.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
            if let (Some(r), Some(l)) = (&release, &local) {
                if let Some(row) = kb.torch_release(r) {
                    let known: Vec<&String> = row
                        .cuda_variants
                        .iter()
                        .flatten()
                        .chain(row.rocm_variants.iter().flatten())
                        .collect();
                    let listed = row.cuda_variants.is_some();
                    if listed
                        && l.starts_with("cu")
                        && !known.contains(&l)
                        && row.default_variant.as_deref() != Some(l.as_str())
                    {
                        findings.push(finding(
                            "DKR008",
                            line,
                            format!(
                                "torch {r} was not built for {l} (its builds: {})",
                                known
                                    .iter()
                                    .map(|s| s.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ));
                    }
                }
            }
            if variant.as_deref() == Some("cpu") && s.image.has_cuda() {
                findings.push(finding(
                    "DKR007",
                    line,
                    format!(
                        "{spec} ({via}) is the CPU-only build, on the CUDA image {}",
                        s.image.raw
                    ),
                ));
            }
            s.torch = Some(TorchInstall {
                line,
                version: release,
                variant,
                via,
            });
        }
    }
}

/// Does every clause of some requirement guarantee a driver that runs CUDA `y`?
fn requirement_covers(set: &RequireSet, y: CudaVersion, kb: &Kb) -> bool {
    let RequireSet::Checked { requirements } = set else {
        return false;
    };
    let floor = kb
        .min_driver_for_cuda(&y, crate::inventory::OsKind::Linux, Semantic::MinorCompat)
        .map(|m| m.driver);
    requirements.iter().any(|r| {
        let cl = clauses(&r.expr);
        !cl.is_empty()
            && cl.iter().all(|(_, c)| {
                c.split(',')
                    .filter(|t| !t.is_empty())
                    .any(|t| match parse_term(t) {
                        Ok(t)
                            if Rule::lookup(t.name) == Some(Rule::Cuda)
                                && matches!(t.cmp, Cmp::Ge | Cmp::Gt | Cmp::Eq) =>
                        {
                            t.value
                                .parse::<CudaVersion>()
                                .is_ok_and(|v| v.major_minor() >= y.major_minor())
                        }
                        Ok(t)
                            if Rule::lookup(t.name) == Some(Rule::Driver)
                                && matches!(t.cmp, Cmp::Ge | Cmp::Gt | Cmp::Eq) =>
                        {
                            match (t.value.parse::<DriverVersion>(), &floor) {
                                (Ok(d), Some(f)) => driver_meets(&d, f),
                                _ => false,
                            }
                        }
                        _ => false,
                    })
            })
    })
}

fn check_final_stage(kb: &Kb, s: &Stage, hosts: &[HostSpec], findings: &mut Vec<Finding>) {
    let set = requirements_from_env(&s.env);
    let image_cuda = s.image.cuda();
    let torch = s.torch.as_ref();
    let wheel_cuda: Option<CudaVersion> = torch
        .and_then(|t| t.variant.as_deref())
        .filter(|v| v.starts_with("cu"))
        .and_then(|v| v.parse().ok());
    if let (Some(t), Some(y), Some(x)) = (torch, wheel_cuda, image_cuda) {
        let (y, x) = (y.major_minor(), x.major_minor());
        if y < x {
            findings.push(finding(
                "DKR004",
                t.line,
                format!(
                    "torch carries CUDA {y} ({}); the image has CUDA {x}. Not an error: the wheel bundles its own runtime and does not use the image's CUDA libraries",
                    t.via
                ),
            ));
        } else if y > x && !requirement_covers(&set, y, kb) {
            if y.major > x.major {
                findings.push(finding(
                    "DKR005",
                    t.line,
                    format!(
                        "torch carries CUDA {y} ({}), a newer major than the image's CUDA {x}; the image's start-up check only asks for CUDA {x}, so hosts with an older driver start the container and then fail in torch",
                        t.via
                    ),
                ));
            } else {
                let floor = kb
                    .min_driver_for_cuda(&y, crate::inventory::OsKind::Linux, Semantic::MinorCompat)
                    .map_or("?".into(), |m| m.driver.to_string());
                findings.push(finding(
                    "DKR004",
                    t.line,
                    format!(
                        "torch carries CUDA {y} ({}), newer than the image's CUDA {x}. Not an error by itself: the wheel bundles its runtime and runs on hosts with driver >= {floor} through minor-version compatibility, but the image's start-up check does not verify that",
                        t.via
                    ),
                ));
            }
        }
    }
    if hosts.is_empty() {
        return;
    }
    let known_requirement =
        !matches!(&set, RequireSet::Checked { requirements } if requirements.is_empty());
    for h in hosts {
        if known_requirement {
            let v = evaluate_set(&set, &h.runtime_view(kb));
            let line = s
                .env_lines
                .get("NVIDIA_REQUIRE_CUDA")
                .copied()
                .unwrap_or(s.line);
            match v.verdict.as_str() {
                "fail" | "error" => findings.push(finding(
                    "DKR010",
                    line,
                    format!(
                        "host {}: {}",
                        h.name,
                        v.runtime_message
                            .unwrap_or_else(|| "requirement error".into())
                    ),
                )),
                "pass" => {
                    // Passing only through a forward-compatibility clause.
                    for e in &v.evaluations {
                        if let Outcome::Pass { clause: Some(c) } = e.eval.outcome {
                            let text = e.expr.split(' ').nth(c).unwrap_or("");
                            if let ClauseKind::ForwardCompat { .. } = classify_clause(text) {
                                if let Err(why) = forward_compat_eligible(h) {
                                    findings.push(finding(
                                        "DKR010",
                                        line,
                                        format!(
                                            "host {}: the requirement passes only through `{text}` (forward compatibility), which this host cannot use: {why}",
                                            h.name
                                        ),
                                    ));
                                    break;
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let Some(t) = torch else { continue };
        if let (Some(y), Some(d)) = (wheel_cuda, &h.driver) {
            if let Some(max) = h.driver_cuda(kb) {
                if y.major_minor() > max.value.major_minor() {
                    let minor = kb
                        .min_driver_for_cuda(&y, h.os_kind, Semantic::MinorCompat)
                        .filter(|m| driver_meets(&d.value, &m.driver));
                    if minor.is_none() || y.major > max.value.major {
                        findings.push(finding(
                            "DKR011",
                            t.line,
                            format!(
                                "host {}: driver {} runs CUDA up to {}; torch carries CUDA {}",
                                h.name, d.value, max.value, y
                            ),
                        ));
                    }
                }
            }
        }
        let (Some(rel), Some(var)) = (&t.version, &t.variant) else {
            continue;
        };
        let Some(list) = kb.torch_arch(rel, var).and_then(|r| r.arch_list.as_deref()) else {
            continue;
        };
        for g in &h.gpus {
            let Some(cc) = &g.cc else { continue };
            if let KernelMatch::None { reason } = kb.kernels_for_gpu(list, cc.value) {
                findings.push(finding(
                    "DKR009",
                    t.line,
                    format!(
                        "host {} {} ({}): torch {rel}+{var} has no kernel for it: {reason}",
                        h.name,
                        g.label(),
                        cc.value
                    ),
                ));
            }
        }
    }
}

/// Findings as `FILE:LINE: CODE name (severity): message` lines, each with its fix.
pub fn render_text(file: &str, findings: &[Finding]) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    for f in findings {
        let _ = writeln!(
            o,
            "{file}:{}: {} {} ({}): {}",
            f.line.unwrap_or(0),
            f.code,
            f.name,
            f.severity,
            f.message
        );
        if let Some(n) = f.fix.as_ref().and_then(|x| x.note.as_deref()) {
            let _ = writeln!(o, "  fix: {n}");
        }
    }
    if findings.is_empty() {
        let _ = writeln!(o, "{file}: no findings");
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_lines_keep_their_numbers() {
        let d = "FROM x\nRUN apt-get update && \\\n    apt-get install -y \\\n    # a comment\n    cuda-toolkit-12-4\n";
        let ins = parse_dockerfile(d);
        assert_eq!(ins.len(), 2);
        let run = &ins[1];
        assert_eq!(run.line, 2);
        let off = run.args.find("cuda-toolkit").unwrap();
        assert_eq!(run.line_at(off), 5);
    }

    #[test]
    fn package_names() {
        assert_eq!(
            cuda_toolkit_package("cuda-toolkit-12-4"),
            Some(Some(CudaVersion::new(12, 4)))
        );
        assert_eq!(
            cuda_toolkit_package("cuda-12-1"),
            Some(Some(CudaVersion::new(12, 1)))
        );
        assert_eq!(cuda_toolkit_package("cuda-compat-12-4"), None);
        assert_eq!(cuda_toolkit_package("cuda-keyring"), None);
        assert!(driver_package("nvidia-driver-550"));
        assert!(driver_package("cuda"));
        assert!(!driver_package("nvidia-container-toolkit"));
        assert_eq!(
            pip_req("torch==2.5.1+cu124").1.as_deref(),
            Some("2.5.1+cu124")
        );
        assert_eq!(pip_req("torch[opt]>=2.0").1, None);
        assert_eq!(
            index_variant("https://download.pytorch.org/whl/cu121/").as_deref(),
            Some("cu121")
        );
        assert_eq!(
            substitute(
                "a-${X:-1}-$Y-${Z}",
                &BTreeMap::from([("Y".into(), "2".into())])
            ),
            "a-1-2-${Z}"
        );
    }
}
