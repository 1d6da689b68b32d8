//! Installed Python packages as pasted: `pip list` (the table), `pip freeze`
//! / `pip list --format=freeze`, `pip show`, `conda list`, and pip's own
//! install chatter (`Requirement already satisfied: ... (2.5.1)`,
//! `Successfully installed torch-2.5.1+cu124 ...`).

use super::clean::has;
use super::gate::Gate;
use super::{Builder, Doc};
use crate::inventory::Fact;
use crate::version::CudaVersion;

/// PEP 503 normalisation: lowercase, runs of `-_.` become `-`.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
            continue;
        }
        if sep && !out.is_empty() {
            out.push('-');
        }
        sep = false;
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 100
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn is_version(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 80
        && s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_' | '!'))
}

/// `name==version` (pip freeze), the whole line; `name @ url` has no version.
pub fn requirement(s: &str) -> Option<(String, String)> {
    let s = s.trim();
    if s.find('=').is_none() || s.find(' ').is_some() {
        return None;
    }
    let (n, v) = s.split_once("===").or_else(|| s.split_once("=="))?;
    let (n, v) = (n.trim(), v.trim());
    // `name[extra]==1.0`
    let n = n.split('[').next().unwrap_or(n);
    (is_name(n) && is_version(v)).then(|| (n.to_string(), v.to_string()))
}

/// A conda package row; `pytorch`'s build string says which CUDA it was built
/// with (`py3.10_cuda12.1_cudnn8.9.2_0`, `cuda118_py310h...`, `cpu_py310...`).
pub fn conda_package(b: &mut Builder, name: &str, version: &str, build: Option<&str>, src: &str) {
    let name = normalize_name(name);
    match name.as_str() {
        "pytorch" => {
            b.package("torch", version, &format!("{src} (conda pytorch)"));
            if let Some(cuda) = build.and_then(conda_build_cuda) {
                b.torch_cuda(Fact::new(cuda, format!("{src} (conda build string)")));
            }
        }
        "pytorch-cuda" => {
            if let Ok(c) = version.parse::<CudaVersion>() {
                b.torch_cuda(Fact::new(Some(c), format!("{src} (conda pytorch-cuda)")));
            }
            b.package(&name, version, src);
        }
        _ => b.package(&name, version, src),
    }
}

/// `Some(None)` for a CPU build, `Some(Some(cuda))` for a CUDA build.
fn conda_build_cuda(build: &str) -> Option<Option<CudaVersion>> {
    let b = build.to_ascii_lowercase();
    if b.starts_with("cpu") || b.contains("_cpu") {
        return Some(None);
    }
    let p = b.find("cuda")?;
    let rest = &b[p + 4..];
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    if digits.contains('.') {
        return digits.trim_end_matches('.').parse().ok().map(Some);
    }
    format!("cu{digits}").parse().ok().map(Some)
}

/// A row of conda's transaction plan (`The following NEW packages will be
/// INSTALLED:`): `pytorch   pytorch/win-64::pytorch-1.10.0-py3.8_cpu_0` is
/// (name, version, build string).
fn conda_plan_row(t: &str) -> Option<(&str, &str, &str)> {
    if !t.contains("::") {
        return None;
    }
    let mut cols = t.split_whitespace();
    let (name, spec) = (cols.next()?, cols.next()?);
    if cols.next().is_some() || !is_name(name) {
        return None;
    }
    let (_, pkg) = spec.split_once("::")?;
    let rest = pkg.strip_prefix(name)?.strip_prefix('-')?;
    let (version, build) = rest.split_once('-')?;
    (is_version(version) && !build.is_empty() && !build.contains('-'))
        .then_some((name, version, build))
}

/// Channels a `conda list` row names in its last column.
const CONDA_CHANNELS: &[&str] = &[
    "conda-forge",
    "pytorch",
    "pytorch-nightly",
    "nvidia",
    "defaults",
    "anaconda",
    "pkgs/main",
];

enum Table {
    None,
    PipList,
    Conda,
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut table = Table::None;
    let mut show_name: Option<String> = None;
    let mut i = 0;
    while i < doc.lines.len() {
        let t = doc.text(i);
        let src: &str = doc.src_at(i);
        i += 1;
        if t.is_empty() {
            table = Table::None;
            continue;
        }
        if matches!(table, Table::None)
            && show_name.is_none()
            && !doc.lines[i - 1].gate(Gate::Pip)
            && !has_double_eq(t)
            // A `conda list` row from the nvidia channel (not a gate word:
            // nvidia-smi's rows would all pass).
            && !t.ends_with(" nvidia")
        {
            continue;
        }
        // pip list: `Package    Version` then a dashed rule.
        if t.starts_with("Package") && t.split_whitespace().nth(1) == Some("Version") {
            if doc.text(i).starts_with("---") {
                i += 1;
            }
            table = Table::PipList;
            continue;
        }
        if t.starts_with("# packages in environment at") || t.starts_with("# Name") {
            table = Table::Conda;
            continue;
        }
        match table {
            Table::PipList => {
                let cols: Vec<&str> = t.split_whitespace().collect();
                if cols.len() >= 2 && is_name(cols[0]) && is_version(cols[1]) {
                    b.package(cols[0], cols[1], src);
                    continue;
                }
                table = Table::None;
            }
            Table::Conda => {
                if t.starts_with('#') {
                    continue;
                }
                let cols: Vec<&str> = t.split_whitespace().collect();
                if cols.len() >= 2 && is_name(cols[0]) && is_version(cols[1]) {
                    conda_package(b, cols[0], cols[1], cols.get(2).copied(), src);
                    continue;
                }
                table = Table::None;
            }
            Table::None => {
                // One row of `conda list` pasted without its header
                // (`pytorch  2.1.0  cpu_generic_py311h8354fdb_2  conda-forge`).
                let cols: Vec<&str> = t.split_whitespace().collect();
                if cols.len() == 4
                    && CONDA_CHANNELS.contains(&cols[3])
                    && is_name(cols[0])
                    && is_version(cols[1])
                {
                    conda_package(b, cols[0], cols[1], Some(cols[2]), src);
                    continue;
                }
            }
        }

        if let Some((n, v, build)) = conda_plan_row(t) {
            conda_package(
                b,
                n,
                v,
                Some(build),
                &format!("{src} (conda's install plan)"),
            );
            continue;
        }
        if let Some(specs) = conda_install(t) {
            for (n, v) in specs {
                conda_package(b, n, v, None, &format!("{src} (conda install)"));
            }
            continue;
        }
        // uv's install summary marks what it added (`+`) or reinstalled (`~`);
        // a `-` line is what it removed.
        let req = t
            .strip_prefix("+ ")
            .or_else(|| t.strip_prefix("~ "))
            .unwrap_or(t);
        if let Some((n, v)) = requirement(req) {
            b.package(&n, &v, src);
            continue;
        }
        if let Some(rest) = t.strip_prefix("Requirement already satisfied: ") {
            // `torch in ./venv/lib/python3.10/site-packages (2.5.1+cu124)`
            if let (Some(name), Some(open)) = (rest.split_whitespace().next(), rest.rfind(" (")) {
                let name = name
                    .split(|c: char| "<>=!~[;".contains(c))
                    .next()
                    .unwrap_or(name);
                let ver = rest[open + 2..].trim_end_matches(')');
                if is_name(name) && is_version(ver) && has(rest, " in ") {
                    b.package(name, ver, src);
                }
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("Successfully installed ") {
            for tok in rest.split_whitespace() {
                if let Some((n, v)) = split_dist(tok) {
                    b.package(n, v, src);
                }
            }
            continue;
        }
        if let Some(n) = t.strip_prefix("Name: ") {
            show_name = is_name(n.trim()).then(|| n.trim().to_string());
            continue;
        }
        if let Some(v) = t.strip_prefix("Version: ") {
            if let Some(n) = show_name.take() {
                if is_version(v.trim()) {
                    b.package(&n, v.trim(), src);
                }
            }
            continue;
        }
    }
}

/// The exact pins of a `conda install` (or mamba/micromamba) command:
/// `conda install pytorch==2.2.0 pytorch-cuda=12.1 -c pytorch -c nvidia` →
/// (`pytorch`, `2.2.0`), (`pytorch-cuda`, `12.1`). conda installs exactly the
/// pinned versions or nothing, so a pin is the version in the environment.
/// Ranges and wildcards (`>=`, `12.*`) say no exact version and are skipped.
fn conda_install(t: &str) -> Option<Vec<(&str, &str)>> {
    let t = t.trim_start_matches(['$', '#', '>', ' ']);
    let mut words = t.split_whitespace();
    let tool = words.next()?;
    if !matches!(tool, "conda" | "mamba" | "micromamba") || words.next()? != "install" {
        return None;
    }
    let mut out = Vec::new();
    let mut skip_arg = false;
    for w in words {
        if skip_arg {
            skip_arg = false;
            continue;
        }
        if w.starts_with('-') {
            // `-c pytorch`, `-n env`, `--channel x`; `-y` takes none.
            skip_arg = matches!(w, "-c" | "--channel" | "-n" | "--name" | "-p" | "--prefix");
            continue;
        }
        let w = w.trim_matches(|c| c == '"' || c == '\'');
        let w = w.rsplit("::").next().unwrap_or(w);
        let (n, v) = match w.split_once("==") {
            Some(nv) => nv,
            None => match w.split_once('=') {
                Some(nv) => nv,
                None => continue,
            },
        };
        // `pkg=1.2=build` pins a build too; the version is the middle part.
        let v = v.split('=').next().unwrap_or(v);
        if is_name(n) && is_version(v) && !v.contains('*') {
            out.push((n, v));
        }
    }
    Some(out)
}

/// `==` somewhere in the line (memchr for `=`, then a look at the next byte).
fn has_double_eq(t: &str) -> bool {
    let mut from = 0;
    while let Some(p) = t.get(from..).and_then(|r| r.find('=')) {
        if t.as_bytes().get(from + p + 1) == Some(&b'=') {
            return true;
        }
        from += p + 1;
    }
    false
}

/// `torch-2.5.1+cu124` → (`torch`, `2.5.1+cu124`); `nvidia-cudnn-cu12-9.1.0.70`
/// → (`nvidia-cudnn-cu12`, `9.1.0.70`).
fn split_dist(tok: &str) -> Option<(&str, &str)> {
    let bytes = tok.as_bytes();
    let mut p = tok.len();
    while let Some(q) = tok[..p].rfind('-') {
        if bytes.get(q + 1).is_some_and(|c| c.is_ascii_digit()) {
            let (n, v) = (&tok[..q], &tok[q + 1..]);
            if is_name(n) && is_version(v) {
                return Some((n, v));
            }
        }
        p = q;
    }
    None
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
    fn conda_s_install_plan_names_the_build() {
        let inv = run("The following NEW packages will be INSTALLED:\n\n  pytorch            pytorch/win-64::pytorch-1.10.0-py3.8_cpu_0\n  torchvision        pytorch/win-64::torchvision-0.11.1-py38_cpu\n");
        let env = &inv.python[0];
        assert_eq!(env.package("torch").unwrap().version, "1.10.0");
        let t = env.torch.as_ref().unwrap();
        assert!(t.cuda.as_ref().unwrap().value.is_none(), "a CPU build");
        assert_eq!(
            conda_plan_row(
                "  cudatoolkit        conda-forge/linux-64::cudatoolkit-11.8.0-h6a678d5_0"
            ),
            Some(("cudatoolkit", "11.8.0", "h6a678d5_0"))
        );
        // An update row, or prose with '::', is not a plan row.
        assert_eq!(
            conda_plan_row("pytorch  1.9.0-py3.8_cuda11.1 --> 1.10.0-py3.8_cpu_0"),
            None
        );
        assert_eq!(conda_plan_row("see std::vector"), None);
    }

    #[test]
    fn names() {
        assert_eq!(normalize_name("onnxruntime_gpu"), "onnxruntime-gpu");
        assert_eq!(normalize_name("Nvidia.CUDNN__cu12"), "nvidia-cudnn-cu12");
    }

    #[test]
    fn pip_list_table() {
        let inv = run("Package                  Version
------------------------ ------------
numpy                    1.26.4
nvidia-cudnn-cu12        9.1.0.70
torch                    2.5.1
onnxruntime-gpu          1.20.1      /home/u/src/ort

some prose after the table 1.0");
        let env = &inv.python[0];
        assert_eq!(env.packages.len(), 4);
        assert_eq!(env.package("torch").unwrap().source, "input line 5");
        // A bare version says nothing about the CUDA build: unknown, not guessed.
        assert!(env.torch.as_ref().unwrap().cuda.is_none());
    }

    #[test]
    fn pip_freeze_lines() {
        let inv = run("torch==2.5.1+cu124\ntorchvision==0.20.1+cu124\nflash_attn @ file:///tmp/flash_attn.whl\nnot a package line == nope");
        let env = &inv.python[0];
        assert_eq!(env.packages.len(), 2);
        let t = env.torch.as_ref().unwrap();
        assert_eq!(
            t.cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(12, 4))
        );
        assert_eq!(
            t.cuda.as_ref().unwrap().source,
            "input line 1 (version tag)"
        );
    }

    #[test]
    fn conda_list() {
        let inv = run("# packages in environment at /opt/conda/envs/x:
#
# Name                    Version                   Build  Channel
cudatoolkit               11.3.1               h2bc3f7f_2
pytorch                   1.12.1          py3.9_cuda11.3_cudnn8.3.2_0    pytorch
pytorch-mutex             1.0                        cuda    pytorch
");
        let env = &inv.python[0];
        let t = env.torch.as_ref().unwrap();
        assert_eq!(t.version.as_ref().unwrap().value, "1.12.1");
        assert_eq!(
            t.cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(11, 3))
        );
        assert!(env.package("cudatoolkit").is_some());
    }

    #[test]
    fn conda_forge_builds() {
        assert_eq!(
            conda_build_cuda("cuda118_py310h8b1ae6e_301"),
            Some(Some(CudaVersion::new(11, 8)))
        );
        assert_eq!(conda_build_cuda("cpu_generic_py311h"), Some(None));
        assert_eq!(conda_build_cuda("py3.10_cpu_0"), Some(None));
        assert_eq!(conda_build_cuda("h2bc3f7f_2"), None);
    }

    #[test]
    fn pip_install_chatter() {
        let inv = run("Requirement already satisfied: torch in ./venv/lib/python3.10/site-packages (2.3.0)
Requirement already satisfied: typing-extensions>=4.8.0 in ./venv/lib/python3.10/site-packages (from torch) (4.12.2)
Successfully installed nvidia-cudnn-cu12-9.1.0.70 onnxruntime-gpu-1.20.1");
        let env = &inv.python[0];
        assert_eq!(env.package("torch").unwrap().version, "2.3.0");
        assert_eq!(env.package("typing-extensions").unwrap().version, "4.12.2");
        assert_eq!(
            env.package("nvidia-cudnn-cu12").unwrap().version,
            "9.1.0.70"
        );
        assert_eq!(env.package("onnxruntime-gpu").unwrap().version, "1.20.1");
    }

    #[test]
    fn conda_install_pins() {
        let inv = run("conda install pytorch==2.2.0 torchvision==0.17.0 pytorch-cuda=12.1 -c pytorch -c nvidia");
        let env = &inv.python[0];
        assert_eq!(env.package("torch").unwrap().version, "2.2.0");
        assert_eq!(env.package("torchvision").unwrap().version, "0.17.0");
        let t = env.torch.as_ref().unwrap();
        assert_eq!(
            t.cuda.as_ref().unwrap().value,
            Some("12.1".parse().unwrap())
        );
        // Near miss: a range or wildcard is no version, and a channel is no package.
        let inv = run("conda install \"pytorch>=2.0\" pytorch-cuda=12.* -c pytorch==1");
        let cuda = inv
            .python
            .first()
            .and_then(|e| e.torch.as_ref())
            .and_then(|t| t.cuda.as_ref());
        assert!(cuda.is_none(), "{cuda:?}");
        assert!(inv
            .python
            .first()
            .and_then(|e| e.package("torch"))
            .is_none());
    }

    #[test]
    fn uv_install_summary() {
        let inv = run("Installed 3 packages in 6.00s\n + jax==0.6.1\n ~ nvidia-cudnn-cu12==9.10.1.4\n - torch==2.5.1\n");
        let e = &inv.python[0];
        assert_eq!(e.package("jax").map(|p| p.version.as_str()), Some("0.6.1"));
        assert_eq!(
            e.package("nvidia-cudnn-cu12").map(|p| p.version.as_str()),
            Some("9.10.1.4")
        );
        assert!(
            e.package("torch").is_none(),
            "a removed package is not there"
        );
    }

    #[test]
    fn pip_show() {
        let inv = run("Name: onnxruntime-gpu\nVersion: 1.18.0\nSummary: ONNX Runtime");
        assert_eq!(
            inv.python[0].package("onnxruntime-gpu").unwrap().version,
            "1.18.0"
        );
    }

    #[test]
    fn no_packages_from_prose() {
        let inv = run("I installed torch and it is version 2.1\nVersion: 3\n");
        assert!(inv.python.is_empty());
    }
}
