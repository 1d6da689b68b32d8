//! Environment variables that matter to the GPU stack, as they show up in
//! pastes: `export X=...`, `X=... python train.py`, `set X=...` (cmd),
//! `$env:X="..."` (PowerShell), `docker run -e X=...`, `env` / vLLM's
//! environment section (`X=...`), and `echo $X` followed by its output.

use super::clean::has;
use super::gate::Gate;
use super::{Builder, Doc};

regex_fn!(
    // `CUDA_VISIBLE_DEVICES is set but empty`, `an empty CUDA_VISIBLE_DEVICES`.
    empty_visible_said,
    r"(?i)\bCUDA_VISIBLE_DEVICES`?\s+(?:is|was|being|gets|got)\s+(?:set\s+(?:but|to\s+an?)\s+)?empty\b|\ban?\s+empty\s+`?CUDA_VISIBLE_DEVICES\b"
);

/// Names read exactly.
const NAMES: [&str; 10] = [
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "PATH",
    "HSA_OVERRIDE_GFX_VERSION",
    "ROCR_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL",
    "CONDA_OVERRIDE_CUDA",
    "UV_TORCH_BACKEND",
    "DOCKER_HOST",
];

/// Prefixes of names read (vLLM's collect_env reports the same families).
const PREFIXES: [&str; 9] = [
    "CUDA_", "NVIDIA_", "CUDNN_", "CUBLAS_", "NCCL_", "PYTORCH_", "TORCH_", "XLA_", "TF_",
];

/// The assignments of a systemd `Environment=` value: quoted or bare
/// `NAME=VALUE` words, the GPU variables among them.
fn unit_environment(rest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = rest.trim();
    while !rest.is_empty() {
        let (word, tail) = match rest.as_bytes()[0] {
            q @ (b'"' | b'\'') => match rest[1..].find(q as char) {
                Some(e) => (&rest[1..1 + e], &rest[2 + e..]),
                None => (&rest[1..], ""),
            },
            _ => match rest.find(char::is_whitespace) {
                Some(e) => (&rest[..e], &rest[e..]),
                None => (rest, ""),
            },
        };
        if let Some((name, value)) = word.split_once('=') {
            if is_gpu_var(name) {
                out.push((name.to_string(), value.to_string()));
            }
        }
        rest = tail.trim_start();
    }
    out
}

pub fn is_gpu_var(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        && (NAMES.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p)))
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut echo: Option<String> = None;
    // The first line that only assigns a GPU selector (see `unexported_selector`).
    let mut bare: Option<(usize, &str)> = None;
    for (i, line) in doc.lines.iter().enumerate() {
        let t = line.text.trim();
        let src: &str = &line.src;
        if t.is_empty() {
            continue;
        }
        if bare.is_none() {
            bare = bare_selector(t).map(|name| (i, name));
        }
        if let Some(var) = echo.take() {
            // `echo $CUDA_VISIBLE_DEVICES` prints the value (or an empty line).
            if line.command().is_none() {
                b.env_var(&var, t, src);
                continue;
            }
        }
        // The report saying the variable is set but empty (`echo` printed nothing).
        if has(t, "CUDA_VISIBLE_DEVICES") && empty_visible_said().is_match(t) {
            b.env_var("CUDA_VISIBLE_DEVICES", "", &format!("{src} (prose)"));
            continue;
        }
        // A systemd unit's `Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0"`, or
        // `systemctl show -p Environment`'s `Environment=A=1 B=2`.
        if let Some(p) = t.find("Environment=") {
            for (name, value) in unit_environment(&t[p + "Environment=".len()..]) {
                b.env_var(&name, &value, src);
            }
            continue;
        }
        if has(t, "os.environ") {
            for (name, value) in python_assignments(t) {
                b.env_var(&name, &value, src);
            }
            continue;
        }
        // The loader's trace (LD_DEBUG=libs) prints the directories it took
        // from LD_LIBRARY_PATH: `search path=/a:/b:tls:x86_64  (LD_LIBRARY_PATH)`.
        if t.ends_with("(LD_LIBRARY_PATH)") {
            if let Some(dirs) = ld_trace_search_path(t) {
                if !b.inv.env.contains_key("LD_LIBRARY_PATH") {
                    b.env_var("LD_LIBRARY_PATH", &dirs, &format!("{src} (LD_DEBUG trace)"));
                }
            }
            continue;
        }
        if line.command().is_none() && !line.gate(Gate::Env) && !first_token_assigns(t) {
            continue;
        }
        let cmd = line.command().unwrap_or(t);
        // A command quoted whole in prose: `"export CUDA_VISIBLE_DEVICES=2"`.
        let cmd = match cmd.as_bytes() {
            [q @ (b'"' | b'\'' | b'`'), .., e] if q == e && cmd.len() > 2 => &cmd[1..cmd.len() - 1],
            _ => cmd,
        };
        // `echo 'export LD_LIBRARY_PATH=...' >> $CONDA_PREFIX/etc/conda/activate.d/env_vars.sh`:
        // the export an activation script will run.
        if let Some(inner) = echoed_export(cmd) {
            for (name, value) in assignments(inner) {
                b.env_var(&name, &value, src);
            }
            continue;
        }
        if let Some(var) = echo_target(cmd) {
            echo = Some(var);
            continue;
        }
        if !cmd.contains('=') || !may_assign(cmd) {
            continue;
        }
        for (name, value) in assignments(cmd) {
            b.env_var(&name, &value, src);
        }
    }
    if let Some((i, name)) = bare {
        unexported_selector(doc, i, name, b);
    }
}

/// The GPU selectors a script assigns on a line of their own.
const SELECTORS: &[&str] = &[
    "CUDA_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
];

/// Programs a training or serving script starts.
const LAUNCHERS: &[&str] = &[
    "python",
    "python3",
    "accelerate",
    "torchrun",
    "deepspeed",
    "srun",
    "mpirun",
    "horovodrun",
    "vllm",
    "ollama",
    "./",
];

/// `CUDA_VISIBLE_DEVICES=3` and nothing else on the (trimmed) line: the selector's name.
fn bare_selector(t: &str) -> Option<&str> {
    if !t.as_bytes().first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    let (name, value) = t.split_once('=')?;
    (SELECTORS.contains(&name) && !value.is_empty() && !value.contains(char::is_whitespace))
        .then_some(name)
}

/// `CUDA_VISIBLE_DEVICES=3` alone on script line `i` (selector `name`), with a
/// program started on a later line and no `export` of it anywhere: the shell
/// keeps the value and the program never sees it.
fn unexported_selector(doc: &Doc, i: usize, name: &str, b: &mut Builder) {
    let lines = &doc.lines;
    let line = &lines[i];
    if b.inv.setting.unexported_assignment.is_some() {
        return;
    }
    let exported = lines.iter().any(|l| {
        let x = &*l.text;
        has(x, "set -a")
            || (has(x, "export ") || has(x, "declare -x") || has(x, "os.environ")) && has(x, name)
    });
    let launches = lines[i + 1..].iter().take(30).any(|l| {
        let first = l.text.split_whitespace().next().unwrap_or("");
        LAUNCHERS.iter().any(|p| first.starts_with(p))
    });
    if exported || !launches {
        return;
    }
    b.inv.setting.unexported_assignment = Some(
        crate::inventory::Fact::new(line.text.trim().to_string(), &line.src)
            .with_note("a shell assignment on a line of its own, never exported"),
    );
}

/// `os.environ["CUDA_VISIBLE_DEVICES"] = "1"` in pasted code.
fn python_assignments(t: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(p) = rest.find("os.environ[") {
        rest = &rest[p + "os.environ[".len()..];
        let inner = rest.trim_start();
        let Some(q) = inner.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(end) = inner[1..].find(q) else { break };
        let name = &inner[1..1 + end];
        let after = inner[1 + end + 1..].trim_start();
        let Some(after) = after.strip_prefix(']') else {
            continue;
        };
        let Some(after) = after.trim_start().strip_prefix('=') else {
            continue;
        };
        let after = after.trim_start();
        // An f-string: its `{...}` parts are other values (the old
        // variable), its text the directories this assignment adds.
        let (after, formatted) = match after.strip_prefix(['f', 'F']) {
            Some(a) => (a, true),
            None => (after, false),
        };
        let Some(vq) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(vend) = after[1..].find(vq) else {
            continue;
        };
        if is_gpu_var(name) {
            let value = &after[1..1 + vend];
            let value = if formatted {
                without_placeholders(value)
            } else {
                value.to_string()
            };
            out.push((name.to_string(), value));
        }
    }
    out
}

/// An f-string's text without its `{...}` fields.
fn without_placeholders(v: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for ch in v.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

/// The quoted `export ...` an `echo '...' >> FILE` writes into a script.
fn echoed_export(cmd: &str) -> Option<&str> {
    let rest = cmd.strip_prefix("echo ")?.trim_start();
    let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let end = rest[1..].find(q)? + 1;
    let inner = &rest[1..end];
    let after = rest[end + 1..].trim_start();
    (inner.starts_with("export ") && after.starts_with('>')).then_some(inner)
}

fn echo_target(cmd: &str) -> Option<String> {
    let rest = cmd.strip_prefix("echo ")?.trim();
    let rest = rest.trim_matches('"');
    let var = rest
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| rest.strip_prefix('$'))?;
    is_gpu_var(var).then(|| var.to_string())
}

/// `CUDA_VISIBLE_DEVICES=0 python ...`: an uppercase first word with `=`.
fn first_token_assigns(t: &str) -> bool {
    t.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && t.split(' ').next().is_some_and(|w| w.contains('='))
}

/// Cheap test before tokenizing: the line starts with an assignment or a
/// command that sets variables, or passes `-e`/`--env`.
fn may_assign(cmd: &str) -> bool {
    let first = cmd.split_whitespace().next().unwrap_or("");
    matches!(first, "export" | "set" | "ENV" | "env")
        || first.starts_with("$env:")
        || first.contains('=') && first.starts_with(|c: char| c.is_ascii_uppercase())
        || has(cmd, " -e ")
        || has(cmd, "--env")
}

/// Assignments at the start of a command or after `export`, `set`, `ENV`,
/// `$env:`, `-e`/`--env`.
fn assignments(cmd: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let toks = split_shell(cmd);
    let mut i = 0;
    let mut leading = true;
    while i < toks.len() {
        let tok = toks[i].as_str();
        let take = |s: &str, out: &mut Vec<(String, String)>| {
            if let Some((n, v)) = s.split_once('=') {
                let n = n.strip_prefix("$env:").unwrap_or(n);
                if is_gpu_var(n) {
                    out.push((n.to_string(), v.to_string()));
                    return true;
                }
            }
            false
        };
        match tok {
            "export" | "set" | "ENV" | "env" if leading => {}
            "-e" | "--env" => {
                if let Some(next) = toks.get(i + 1) {
                    take(next, &mut out);
                    i += 1;
                }
            }
            _ if tok.starts_with("--env=") => {
                take(&tok[6..], &mut out);
            }
            _ if leading => leading = take(tok, &mut out),
            _ => {}
        }
        i += 1;
    }
    out
}

/// Split on whitespace, keeping quoted parts together and dropping the quotes.
fn split_shell(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            None => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

/// The directories of an LD_DEBUG `search path=` line, as LD_LIBRARY_PATH
/// lists them: the loader's own subdirectories (`tls`, `x86_64`,
/// `glibc-hwcaps/...`) dropped, each directory once.
fn ld_trace_search_path(t: &str) -> Option<String> {
    let list = t.split("search path=").nth(1)?;
    let list = list.trim_end_matches("(LD_LIBRARY_PATH)").trim();
    let mut dirs: Vec<&str> = Vec::new();
    for d in list.split(':') {
        let mut d = d.trim();
        for sub in ["/tls/x86_64", "/tls", "/x86_64"] {
            d = d.strip_suffix(sub).unwrap_or(d);
        }
        if let Some(p) = d.find("/glibc-hwcaps/") {
            d = &d[..p];
        }
        if d.starts_with('/') && !dirs.contains(&d) {
            dirs.push(d);
        }
    }
    (!dirs.is_empty()).then(|| dirs.join(":"))
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
    fn a_unit_environment_and_an_empty_variable_said() {
        let inv = run("The reporter added Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\" to the service.\nEnvironment=OLLAMA_HOST=0.0.0.0 CUDA_VISIBLE_DEVICES=1\n");
        assert_eq!(inv.env["HSA_OVERRIDE_GFX_VERSION"].value, "10.3.0");
        assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "1");
        assert!(!inv.env.contains_key("OLLAMA_HOST"), "not a GPU variable");
        let inv = run("On this node CUDA_VISIBLE_DEVICES is set but empty.\n");
        let v = &inv.env["CUDA_VISIBLE_DEVICES"];
        assert_eq!(v.value, "");
        assert!(v.source.ends_with("(prose)"));
        // Saying it is not empty says nothing.
        assert!(run("CUDA_VISIBLE_DEVICES is not empty here\n")
            .env
            .is_empty());
    }

    #[test]
    fn forms() {
        let inv = run("export CUDA_VISIBLE_DEVICES=\"\"
$ CUDA_HOME=/usr/local/cuda-11.8 NCCL_P2P_DISABLE=1 python train.py
docker run --rm -e NVIDIA_VISIBLE_DEVICES=void --env=NVIDIA_DRIVER_CAPABILITIES=compute img
set HIP_VISIBLE_DEVICES=0
$env:XLA_FLAGS=\"--xla_gpu_cuda_data_dir=/usr/local/cuda\"
LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64:/usr/lib
HOME=/root
");
        let get = |k: &str| inv.env.get(k).map(|f| f.value.as_str());
        assert_eq!(get("CUDA_VISIBLE_DEVICES"), Some(""));
        assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].source, "input line 1");
        assert_eq!(get("CUDA_HOME"), Some("/usr/local/cuda-11.8"));
        assert_eq!(get("NCCL_P2P_DISABLE"), Some("1"));
        assert_eq!(get("NVIDIA_VISIBLE_DEVICES"), Some("void"));
        assert_eq!(get("NVIDIA_DRIVER_CAPABILITIES"), Some("compute"));
        assert_eq!(get("HIP_VISIBLE_DEVICES"), Some("0"));
        assert_eq!(
            get("XLA_FLAGS"),
            Some("--xla_gpu_cuda_data_dir=/usr/local/cuda")
        );
        assert_eq!(
            get("LD_LIBRARY_PATH"),
            Some("/usr/local/cuda-11.8/lib64:/usr/lib")
        );
        assert_eq!(get("HOME"), None);
    }

    #[test]
    fn python_os_environ() {
        let inv = run("    os.environ[\"CUDA_VISIBLE_DEVICES\"]='1'\nos.environ['HOME'] = '/x'\n");
        assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "1");
        assert!(!inv.env.contains_key("HOME"));
    }

    #[test]
    fn quoted_export() {
        let inv = run("\"export CUDA_VISIBLE_DEVICES=2\"\n");
        assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "2");
    }

    #[test]
    fn echo_output() {
        let inv = run("$ echo $CUDA_VISIBLE_DEVICES\n2,3\n");
        assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].value, "2,3");
        assert_eq!(inv.env["CUDA_VISIBLE_DEVICES"].source, "input line 2");
    }

    #[test]
    fn prose_is_not_an_assignment() {
        let inv = run(
            "you could set CUDA_VISIBLE_DEVICES=0 to try\npython train.py CUDA_VISIBLE_DEVICES=1",
        );
        assert!(inv.env.is_empty());
    }
}
