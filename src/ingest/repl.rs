//! What users print from Python to show their setup: REPL sessions
//! (`>>> torch.cuda.is_available()` / `False`), `python -c "import torch;
//! print(torch.__version__, torch.version.cuda)"` with its output line, and
//! labelled prints (`torch.version.cuda: 12.1`, `CUDA available: True`).

use std::collections::VecDeque;

use super::clean::has;
use super::gate::Gate;
use super::{gpu_mut, put, put_opt, Builder, Doc};
use crate::inventory::{Fact, GpuVendor};
use crate::version::{parse_arch_list, ComputeCapability, CudaVersion};

/// Expressions whose printed value is a fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expr {
    TorchVersion,
    TorchCuda,
    TorchHip,
    CudaAvailable,
    DeviceCount,
    ArchList,
    DeviceName,
    DeviceCapability,
    CudnnVersion,
    /// `torch.backends.cudnn.enabled`: a switch, true by default.
    CudnnEnabled,
    MpsAvailable,
    MpsBuilt,
    /// TensorFlow's GPU list (`tf.config.list_physical_devices('GPU')`) or
    /// `tf.test.is_gpu_available()`.
    TfGpus,
}

fn expr(s: &str) -> Option<Expr> {
    let s = s.trim().trim_end_matches(';');
    let s = s
        .strip_prefix("print(")
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(s);
    let base = s.split('(').next().unwrap_or(s).trim();
    Some(match base {
        "torch.__version__" => Expr::TorchVersion,
        "torch.version.cuda" => Expr::TorchCuda,
        "torch.version.hip" => Expr::TorchHip,
        "torch.cuda.is_available" => Expr::CudaAvailable,
        "torch.cuda.device_count" => Expr::DeviceCount,
        "torch.cuda.get_arch_list" => Expr::ArchList,
        "torch.cuda.get_device_name" => Expr::DeviceName,
        "torch.cuda.get_device_capability" => Expr::DeviceCapability,
        "torch.backends.cudnn.version" => Expr::CudnnVersion,
        "torch.backends.cudnn.enabled" => Expr::CudnnEnabled,
        "torch.backends.mps.is_available" => Expr::MpsAvailable,
        "torch.backends.mps.is_built" => Expr::MpsBuilt,
        "tf.config.list_physical_devices"
        | "tf.config.experimental.list_physical_devices"
        | "tensorflow.config.list_physical_devices"
            if s.contains("GPU") =>
        {
            Expr::TfGpus
        }
        "tf.test.is_gpu_available" => Expr::TfGpus,
        _ => return None,
    })
}

/// Labels people print before a value.
fn label(s: &str) -> Option<Expr> {
    if let Some(e) = expr(s) {
        return Some(e);
    }
    Some(match s.trim() {
        "CUDA available" | "cuda available" | "Cuda available" => Expr::CudaAvailable,
        "torch version" | "Torch version" => Expr::TorchVersion,
        _ => return None,
    })
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut pending: Option<Expr> = None;
    // Printed expressions waiting for their output lines, one entry per print().
    let mut printed: VecDeque<Vec<Expr>> = VecDeque::new();
    for line in &doc.lines {
        let t = line.text.trim();
        let src: &str = &line.src;
        if t.is_empty() {
            continue;
        }
        if pending.is_none()
            && printed.is_empty()
            && line.command().is_none()
            && !line.gate(Gate::Repl)
            && !t.starts_with('>')
        {
            continue;
        }
        if let Some(rest) = t.strip_prefix("Device: cuda:") {
            device_line(b, rest, src);
            continue;
        }
        if let Some(at) = t.find("_CudaDeviceProperties(name=") {
            device_properties(b, &t[at + "_CudaDeviceProperties(name=".len()..], src);
            continue;
        }
        // IPython: `In [7]: expr` and `Out[7]: value`.
        let ipy_in = t
            .strip_prefix("In [")
            .and_then(|r| r.split_once("]: "))
            .map(|(_, c)| c);
        let t = t
            .strip_prefix("Out[")
            .and_then(|r| r.split_once("]: "))
            .map_or(t, |(_, v)| v);
        if let Some(code) = t.strip_prefix(">>> ").or(ipy_in) {
            pending = expr(code);
            printed.clear();
            if pending.is_none() {
                // `>>> print(torch.__version__, torch.version.cuda)`
                printed = print_calls(code);
            }
            continue;
        }
        if let Some(e) = pending.take() {
            value(b, e, t, src);
            continue;
        }
        let cmd = line
            .command()
            .or_else(|| (t.starts_with("python") && has(t, " -c ")).then_some(t));
        if let Some(cmd) = cmd {
            printed = print_calls(cmd);
            // `python -c "...print(X)"  # displays []`: the output, noted beside the command.
            if let Some(v) = commented_output(cmd) {
                if let Some([e]) = printed.front().map(Vec::as_slice) {
                    value(b, *e, v, src);
                    printed.clear();
                }
            }
            continue;
        }
        if let Some(exprs) = printed.pop_front() {
            // One output line with one value per printed expression.
            let vals = split_values(t, exprs.len());
            if vals.len() == exprs.len() {
                for (e, v) in exprs.iter().zip(vals) {
                    value(b, *e, &v, src);
                }
                continue;
            }
            printed.clear();
        }
        // `torch.version.cuda: 12.1`, `CUDA available: True`, `torch.cuda.is_available() = False`,
        // `torch.backends.cudnn.enabled - True`; `torch.backends.cudnn.enabled = True` is
        // code that sets the switch, not its printed value.
        let assigned = |e: Expr, sep: &str| sep == " = " && e == Expr::CudnnEnabled;
        let kv = [": ", " = ", " - "]
            .iter()
            .find_map(|sep| t.split_once(sep).map(|(k, v)| (k, v, *sep)));
        if let Some((k, v, sep)) = kv {
            if let Some(e) = label(k).filter(|e| !assigned(*e, sep)) {
                value(b, e, v.trim(), src);
            }
        }
    }
}

/// The value a comment after a command says it printed: `# displays []`,
/// `# prints False`, `# -> 0`, `# output: 11.8`.
fn commented_output(cmd: &str) -> Option<&str> {
    let (_, comment) = cmd.rsplit_once(" # ")?;
    let c = comment.trim();
    [
        "displays ",
        "prints ",
        "returns ",
        "outputs ",
        "gives ",
        "-> ",
        "=> ",
        "output: ",
    ]
    .iter()
    .find_map(|p| c.strip_prefix(p))
    .map(str::trim)
    .filter(|v| !v.is_empty())
}

/// ComfyUI's start-up line `Device: cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync`
/// (after the prefix): torch initialised CUDA and opened that device.
fn device_line(b: &mut Builder, rest: &str, src: &str) {
    let Some((index, named)) = rest.split_once(' ') else {
        return;
    };
    let Ok(index) = index.parse::<u32>() else {
        return;
    };
    let name = named.rsplit_once(" : ").map_or(named, |(n, _)| n);
    opened_device(
        b,
        index,
        name,
        src,
        "the device the program opened, as its start-up line names it",
    );
}

/// A CUDA device a program opened and named: CUDA is available and the GPU
/// is named as the driver reports it. torch's ROCm build opens an AMD GPU as
/// `cuda:0` too: that is no NVIDIA GPU.
fn opened_device(b: &mut Builder, index: u32, name: &str, src: &str, note: &str) {
    let name = name.trim();
    if name.is_empty() || name.len() > 80 {
        return;
    }
    let lower = name.to_ascii_lowercase();
    if ["amd ", "radeon", "instinct"]
        .iter()
        .any(|w| lower.contains(w))
    {
        b.inv.add_named_gpu(GpuVendor::Amd, name, src);
        return;
    }
    let g = b.gpu(index);
    if g.name.is_none() {
        g.name = Some(Fact::new(name.to_string(), src).with_note(note));
    }
    b.put_runtime(
        |r| &mut r.cuda_available,
        Fact::new(true, src).with_note("the program opened a CUDA device"),
        "CUDA available",
    );
}

/// torch's repr of `torch.cuda.get_device_properties(i)`,
/// `_CudaDeviceProperties(name='GeForce RTX 2080', major=7, ...)` (after
/// `name=`): torch opened that device.
fn device_properties(b: &mut Builder, rest: &str, src: &str) {
    let Some(q) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
        return;
    };
    let Some((name, _)) = rest[1..].split_once(q) else {
        return;
    };
    opened_device(
        b,
        0,
        name,
        src,
        "the device torch opened, as its device properties name it",
    );
}

/// Every `print(...)` call in a line of code, in order; empty when any
/// argument is not an expression gpucompat knows.
fn print_calls(code: &str) -> VecDeque<Vec<Expr>> {
    let mut out = VecDeque::new();
    let mut rest = code;
    while let Some(p) = rest.find("print(") {
        let after = &rest[p + 6..];
        let mut depth = 1i32;
        let mut end = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        match print_args(&format!("print({})", &after[..end])) {
            Some(args) => out.push_back(args),
            None => return VecDeque::new(),
        }
        rest = &after[end..];
    }
    out
}

fn print_args(code: &str) -> Option<Vec<Expr>> {
    let start = code.find("print(")? + 6;
    let inner = &code[start..];
    let end = inner.rfind(')')?;
    let inner = &inner[..end];
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in inner.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => {
                out.push(expr(&cur)?);
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(expr(&cur)?);
    }
    (!out.is_empty()).then_some(out)
}

/// Split a print line into `n` values: Python lists and tuples stay whole.
fn split_values(t: &str, n: usize) -> Vec<String> {
    if n == 1 {
        return vec![t.to_string()];
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in t.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth -= 1;
                cur.push(c);
            }
            c if c.is_whitespace() && depth == 0 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn boolean(v: &str) -> Option<bool> {
    match v {
        "True" => Some(true),
        "False" => Some(false),
        _ => None,
    }
}

fn value(b: &mut Builder, e: Expr, v: &str, src: &str) {
    let v = v.trim();
    let unq = v.trim_matches('\'').trim_matches('"');
    match e {
        Expr::TorchVersion => {
            if unq.starts_with(|c: char| c.is_ascii_digit()) && !unq.contains(' ') {
                b.package("torch", unq, src);
                let notes = &mut b.notes;
                let t = super::env_mut(&mut b.inv.python, &mut b.current_env)
                    .torch
                    .get_or_insert_with(Default::default);
                put(
                    &mut t.version,
                    Fact::new(unq.to_string(), src),
                    notes,
                    "torch version",
                );
            }
        }
        Expr::TorchCuda => {
            let c = if v == "None" {
                Some(None)
            } else {
                unq.parse::<CudaVersion>().ok().map(Some)
            };
            if let Some(c) = c {
                b.torch_cuda(Fact::new(c, src));
            }
        }
        Expr::TorchHip => {
            let h = if v == "None" {
                Some(None)
            } else if unq.starts_with(|c: char| c.is_ascii_digit()) {
                Some(Some(unq.to_string()))
            } else {
                None
            };
            if let Some(h) = h {
                let notes = &mut b.notes;
                let t = super::env_mut(&mut b.inv.python, &mut b.current_env)
                    .torch
                    .get_or_insert_with(Default::default);
                put_opt(&mut t.hip, Fact::new(h, src), notes, "torch ROCm build");
            }
        }
        Expr::TfGpus => {
            if v.trim() == "[]" || boolean(v) == Some(false) {
                b.error(
                    crate::inventory::ErrorKind::CudaUnavailable,
                    &format!("TensorFlow lists no GPU ({})", v.trim()),
                    src,
                    None,
                );
            }
        }
        Expr::CudaAvailable => {
            if let Some(a) = boolean(v) {
                b.put_runtime(
                    |r| &mut r.cuda_available,
                    Fact::new(a, src),
                    "CUDA available",
                );
            }
        }
        Expr::CudnnEnabled => {
            if let Some(a) = boolean(v) {
                b.put_runtime(
                    |r| &mut r.cudnn_enabled,
                    Fact::new(a, src),
                    "torch.backends.cudnn.enabled",
                );
            }
        }
        Expr::DeviceCount => {
            if let Ok(n) = v.parse::<u32>() {
                b.put_runtime(
                    |r| &mut r.device_count,
                    Fact::new(n, src),
                    "CUDA device count",
                );
            }
        }
        Expr::ArchList => {
            if v.starts_with('[') {
                if let Ok(list) = parse_arch_list(v) {
                    let t = b.torch();
                    if t.arch_list.is_none() {
                        t.arch_list = Some(Fact::new(list, src));
                    }
                }
            }
        }
        Expr::DeviceName => {
            if !unq.is_empty() && v.starts_with(['\'', '"']) {
                let notes = &mut b.notes;
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, 0);
                put(
                    &mut g.name,
                    Fact::new(unq.to_string(), src),
                    notes,
                    "GPU name",
                );
            }
        }
        Expr::DeviceCapability => {
            // `(8, 9)`
            let inner = v.trim_start_matches('(').trim_end_matches(')');
            if let Some((a, c)) = inner.split_once(',') {
                if let Ok(cc) = format!("{}.{}", a.trim(), c.trim()).parse::<ComputeCapability>() {
                    let notes = &mut b.notes;
                    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, 0);
                    put(
                        &mut g.compute_capability,
                        Fact::new(cc, src),
                        notes,
                        "compute capability",
                    );
                }
            }
        }
        Expr::CudnnVersion => {
            if let Ok(n) = v.parse::<u64>() {
                let s = super::errors::cudnn_int(n);
                let notes = &mut b.notes;
                let t = super::env_mut(&mut b.inv.python, &mut b.current_env)
                    .torch
                    .get_or_insert_with(Default::default);
                put(&mut t.cudnn, Fact::new(s, src), notes, "torch cuDNN");
            }
        }
        Expr::MpsAvailable => {
            if let Some(a) = boolean(v) {
                put(
                    &mut b.inv.apple.mps_available,
                    Fact::new(a, src),
                    &mut b.notes,
                    "MPS available",
                );
            }
        }
        Expr::MpsBuilt => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::clean;
    use crate::version::TargetKind;

    fn run(text: &str) -> crate::inventory::Inventory {
        let doc = clean("input", text);
        let mut b = Builder::new("t");
        parse(&doc, &mut b);
        b.finish()
    }

    #[test]
    fn repl_session() {
        let inv = run(">>> import torch
>>> torch.__version__
'2.1.0+cu121'
>>> torch.version.cuda
'12.1'
>>> torch.cuda.is_available()
False
>>> torch.cuda.get_arch_list()
['sm_50', 'sm_60', 'sm_70', 'sm_75', 'sm_80', 'sm_86', 'sm_90', 'compute_90']
>>> torch.backends.cudnn.version()
8902
");
        let env = &inv.python[0];
        let t = env.torch.as_ref().unwrap();
        assert_eq!(t.version.as_ref().unwrap().value, "2.1.0+cu121");
        assert_eq!(
            t.cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(12, 1))
        );
        assert_eq!(t.cuda.as_ref().unwrap().source, "input line 5");
        let al = &t.arch_list.as_ref().unwrap().value;
        assert_eq!(al.len(), 8);
        assert_eq!(al[7].kind, TargetKind::Ptx);
        assert_eq!(t.cudnn.as_ref().unwrap().value, "8.9.2");
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

    #[test]
    fn python_c_print() {
        let inv = run("$ python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"
2.5.1+cpu None False
");
        let env = &inv.python[0];
        let t = env.torch.as_ref().unwrap();
        assert_eq!(t.version.as_ref().unwrap().value, "2.5.1+cpu");
        assert_eq!(t.cuda.as_ref().unwrap().value, None);
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

    #[test]
    fn python_c_several_prints() {
        let inv = run("python -c \"import torch; print(torch.__version__); print(torch.cuda.is_available()); print(torch.cuda.get_device_capability())\"\n2.9.0+cu128\nTrue\n(12, 0)\n");
        let env = &inv.python[0];
        assert_eq!(
            env.torch.as_ref().unwrap().version.as_ref().unwrap().value,
            "2.9.0+cu128"
        );
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
            inv.gpus[0].compute_capability.as_ref().unwrap().source,
            "input line 4"
        );
    }

    #[test]
    fn capability_and_labels() {
        let inv = run(">>> torch.cuda.get_device_capability(0)\n(12, 0)\ntorch.version.cuda: 12.8\nCUDA available: True\n");
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(12, 0)
        );
        let env = &inv.python[0];
        assert_eq!(
            env.torch.as_ref().unwrap().cuda.as_ref().unwrap().value,
            Some(CudaVersion::new(12, 8))
        );
    }

    #[test]
    fn ipython() {
        let inv = run("In [7]: torch.cuda.device_count()\nOut[7]: 0\n");
        let r = inv.python[0].runtime.as_ref().unwrap();
        assert_eq!(r.device_count.as_ref().unwrap().value, 0);
    }

    #[test]
    fn a_traceback_after_the_prompt_is_not_a_value() {
        let inv = run(">>> torch.cuda.is_available()\nTraceback (most recent call last):\n");
        assert!(inv.python.is_empty());
    }
}
