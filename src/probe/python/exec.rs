//! `--exec-python`: run the inventory script in each interpreter (with a
//! timeout, no network) and record what torch itself reports, with the source
//! `python:<interpreter>`. A Python that fails leaves the facts read from
//! files in place and adds a note.
//!
//! Interpreters run isolated (`-I`: no `PYTHONPATH`, no user site, not the
//! working directory), in `/`, with only the variables that shape what the GPU
//! stack does ([`PASSED_VARS`]). Under `--root`, nothing runs unless
//! `GPUCOMPAT_ALLOW_ROOT_CODE=1`. A note names every interpreter that ran.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::inventory::{Fact, Gpu, Note, PythonEnv, PythonRuntime, TorchBuild};
use crate::system::{CommandOutcome, System};
use crate::version::{parse_arch_list, ComputeCapability, CudaVersion};

use super::note;

/// The script run in each interpreter (`python -I -S -B -c SCRIPT`); it prints one
/// line: [`MARK`] followed by JSON.
pub const INVENTORY_SCRIPT: &str = include_str!("inventory.py");

const MARK: &str = "GPUCOMPAT_JSON ";
/// Importing torch and initializing CUDA can take tens of seconds on a loaded machine.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Interpreters run at once.
const PARALLEL: usize = 4;

/// The only variables an interpreter gets (besides `PATH` and `LANG`): those
/// that decide which GPUs and libraries torch sees. Proxies, `PYTHONPATH`
/// and the rest of the caller's environment stay out.
pub const PASSED_VARS: &[&str] = &[
    "CUDA_VISIBLE_DEVICES",
    "NVIDIA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "CUDA_HOME",
    "CUDA_PATH",
    "CUDA_MODULE_LOADING",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "LD_LIBRARY_PATH",
];
const ISOLATED: &[&str] = &["-I", "-S", "-B", "-c", INVENTORY_SCRIPT];
/// Python 2 has no `-I`; `-E -s` are its parts that exist there.
const ISOLATED_PY2: &[&str] = &["-E", "-s", "-S", "-B", "-c", INVENTORY_SCRIPT];

/// The environment an interpreter runs with.
pub fn child_env(sys: &dyn System) -> BTreeMap<String, String> {
    let mut env: BTreeMap<String, String> = PASSED_VARS
        .iter()
        .filter_map(|k| Some((k.to_string(), sys.env(k)?)))
        .collect();
    env.insert(
        "PATH".into(),
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".into(),
    );
    env.insert("LANG".into(), "C.UTF-8".into());
    env.insert("PYTHONNOUSERSITE".into(), "1".into());
    env
}

fn run_one(sys: &dyn System, exe: &str, env: &BTreeMap<String, String>) -> CommandOutcome {
    let out = sys.run_isolated(exe, ISOLATED, env, TIMEOUT);
    match &out {
        CommandOutcome::Finished {
            code: Some(c),
            stderr,
            ..
        } if *c != 0 && stderr.contains("-I") && stderr.contains("nknown option") => {
            sys.run_isolated(exe, ISOLATED_PY2, env, TIMEOUT)
        }
        _ => out,
    }
}

fn yes() -> bool {
    true
}

/// What the inventory script prints (after the marker).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct InventoryReport {
    pub schema: u32,
    pub python: PythonReport,
    pub torch: Option<TorchReport>,
    /// An exception that stopped the script itself.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PythonReport {
    pub version: Option<String>,
    pub executable: Option<String>,
    pub prefix: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct TorchReport {
    #[serde(default = "yes")]
    pub installed: bool,
    pub import_error: Option<String>,
    pub version: Option<String>,
    pub cuda: Option<String>,
    pub hip: Option<String>,
    pub git_version: Option<String>,
    /// `torch.backends.cudnn.version()`: 90100 for 9.1.0, 8902 for 8.9.2.
    pub cudnn: Option<i64>,
    pub cuda_available: Option<bool>,
    pub cuda_error: Option<String>,
    pub warnings: Vec<String>,
    pub arch_list: Option<Vec<String>>,
    pub device_count: Option<u32>,
    pub devices: Vec<DeviceReport>,
    pub matmul: Option<MatmulReport>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DeviceReport {
    pub index: u32,
    pub name: Option<String>,
    pub capability: Option<String>,
    pub total_memory_mib: Option<u64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct MatmulReport {
    pub ok: bool,
    pub max_abs_error: Option<f64>,
    pub max_abs_reference: Option<f64>,
    pub error: Option<String>,
}

/// The report in the script's stdout (the last marked line; anything a
/// `.pth` file or a library printed before it is ignored).
pub fn parse_inventory(stdout: &str) -> Result<InventoryReport, String> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(MARK))
        .ok_or("printed no inventory line")?;
    serde_json::from_str(line).map_err(|e| format!("printed an unreadable inventory: {e}"))
}

/// `90100` → `9.1.0` (cuDNN 9: major·10000), `8902` → `8.9.2` (cuDNN ≤ 8: major·1000).
fn cudnn_string(v: i64) -> Option<String> {
    if v <= 0 {
        return None;
    }
    Some(if v >= 10_000 {
        format!("{}.{}.{}", v / 10_000, (v % 10_000) / 100, v % 100)
    } else {
        format!("{}.{}.{}", v / 1000, (v % 1000) / 100, v % 100)
    })
}

fn at<T>(source: &str, value: T) -> Fact<T> {
    Fact::new(value, source.to_string())
}

/// Record what the script reported in `env`, each fact with `source`.
pub fn apply_inventory(
    env: &mut PythonEnv,
    report: &InventoryReport,
    source: &str,
    notes: &mut Vec<Note>,
) {
    let subject = Path::new(source);
    let mut rt = PythonRuntime::default();
    // The interpreter knows its full version where only `3.12` was read from a file name.
    let minor_only = env
        .python_version
        .as_ref()
        .map_or(true, |f| f.value.matches('.').count() < 2);
    if minor_only {
        if let Some(v) = &report.python.version {
            env.python_version = Some(at(source, v.clone()));
        }
    }
    if let Some(e) = &report.error {
        rt.exception = Some(at(source, e.clone()));
    }
    let Some(t) = &report.torch else {
        env.runtime = Some(rt);
        return;
    };
    if !t.installed {
        rt.torch_version =
            Some(at(source, None).with_note("torch is not installed in this environment"));
        env.runtime = Some(rt);
        return;
    }
    if let Some(e) = &t.import_error {
        rt.exception = Some(at(source, e.clone()).with_note("import torch failed"));
        env.runtime = Some(rt);
        return;
    }
    rt.torch_version = Some(at(source, t.version.clone()));
    let cuda = match t.cuda.as_deref().map(str::parse::<CudaVersion>) {
        None => Some(None),
        Some(Ok(v)) => Some(Some(v)),
        Some(Err(e)) => {
            notes.push(note(subject, format!("torch.version.cuda: {e}")));
            None
        }
    };
    rt.torch_cuda = cuda.map(|v| at(source, v));
    rt.cuda_available = t.cuda_available.map(|v| at(source, v));
    rt.device_count = t.device_count.map(|v| at(source, v));
    for d in &t.devices {
        let cc = d
            .capability
            .as_deref()
            .and_then(|c| c.parse::<ComputeCapability>().ok());
        rt.devices.push(Gpu {
            index: d.index,
            name: d.name.clone().map(|v| at(source, v)),
            compute_capability: cc.map(|v| at(source, v)),
            memory_mib: d.total_memory_mib.map(|v| at(source, v)),
            ..Default::default()
        });
    }
    if let Some(m) = &t.matmul {
        let detail = match (&m.error, m.max_abs_error, m.max_abs_reference) {
            (Some(e), _, _) => e.clone(),
            (None, Some(err), Some(scale)) => format!(
                "512x512 fp16 matmul on GPU 0: max abs error {err:.3e} against a CPU reference of magnitude {scale:.1}"
            ),
            _ => "512x512 fp16 matmul on GPU 0".to_string(),
        };
        rt.matmul_ok = Some(at(source, m.ok).with_note(detail));
    }
    // The first error a user would see: CUDA init, then the matmul.
    let cuda_message = t.cuda_error.clone().or_else(|| {
        (t.cuda_available == Some(false))
            .then(|| t.warnings.first().cloned())
            .flatten()
    });
    let exception = cuda_message.or_else(|| t.matmul.as_ref().and_then(|m| m.error.clone()));
    if rt.exception.is_none() {
        rt.exception = exception.map(|v| at(source, v));
    }

    let arch_list = t
        .arch_list
        .as_ref()
        .filter(|l| !l.is_empty())
        .and_then(|l| parse_arch_list(&l.join(" ")).ok())
        .map(|v| at(source, v));
    let cudnn = t.cudnn.and_then(cudnn_string).map(|v| at(source, v));
    match env.torch.as_mut() {
        Some(st) => {
            if let (Some(file), Some(run)) = (st.version.as_ref(), t.version.as_ref()) {
                if &file.value != run {
                    notes.push(note(
                        subject,
                        format!(
                            "import torch gives {run}, but {} says {}: another torch shadows the installed one",
                            file.source, file.value
                        ),
                    ));
                }
            }
            if arch_list.is_some() {
                st.arch_list = arch_list;
            }
            if st.cudnn.is_none() {
                st.cudnn = cudnn;
            }
        }
        None => {
            env.torch = Some(TorchBuild {
                version: t.version.clone().map(|v| at(source, v)),
                cuda: rt.torch_cuda.clone(),
                hip: Some(at(source, t.hip.clone())),
                arch_list,
                cudnn,
                git_version: t.git_version.clone().map(|v| at(source, v)),
                ..Default::default()
            });
        }
    }
    env.runtime = Some(rt);
}

/// Run the script in every environment that has an interpreter, a few at a
/// time. Under a root other than `/`, only with `allow_root_code`.
pub(crate) fn run_all(
    sys: &dyn System,
    envs: &mut [PythonEnv],
    notes: &mut Vec<Note>,
    allow_root_code: bool,
) {
    let jobs: Vec<(usize, String)> = envs
        .iter()
        .enumerate()
        .filter_map(|(i, e)| Some((i, e.interpreter.clone()?)))
        .collect();
    if jobs.is_empty() {
        return;
    }
    let live = sys.root() == Path::new("/");
    if !live && !allow_root_code {
        notes.push(note(
            Path::new("--exec-python"),
            format!(
                "ran nothing: {} interpreter(s) lie inside --root, and code from inside the root runs only with {}=1",
                jobs.len(),
                crate::probe::ALLOW_ROOT_CODE_VAR
            ),
        ));
        return;
    }
    let env = child_env(sys);
    let env = &env;
    let mut results: Vec<(usize, String, CommandOutcome)> = Vec::new();
    for chunk in jobs.chunks(PARALLEL) {
        std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|(i, exe)| {
                    s.spawn(move || {
                        let out = run_one(sys, exe, env);
                        (*i, exe.clone(), out)
                    })
                })
                .collect();
            for h in handles {
                if let Ok(r) = h.join() {
                    results.push(r);
                }
            }
        });
    }
    let ran: Vec<&str> = jobs.iter().map(|(_, e)| e.as_str()).collect();
    notes.push(note(
        Path::new("--exec-python"),
        format!(
            "ran {} (isolated: python -I in /, only {} and PATH, LANG passed on)",
            ran.join(", "),
            PASSED_VARS.join(", ")
        ),
    ));
    for (i, exe, outcome) in results {
        let Some(env) = envs.get_mut(i) else { continue };
        let source = format!("python:{exe}");
        let subject = Path::new(&exe);
        let parsed = match &outcome {
            CommandOutcome::Finished { stdout, .. } => parse_inventory(stdout),
            _ => Err(String::new()),
        };
        match parsed {
            Ok(report) => apply_inventory(env, &report, &source, notes),
            Err(why) => {
                let what = match &outcome {
                    CommandOutcome::Finished { code: Some(0), .. } => why,
                    other => other.describe(),
                };
                notes.push(note(
                    subject,
                    format!("--exec-python: the interpreter {what}; the facts read from its files stand"),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cudnn_numbers() {
        assert_eq!(cudnn_string(90100).as_deref(), Some("9.1.0"));
        assert_eq!(cudnn_string(8902).as_deref(), Some("8.9.2"));
        assert_eq!(cudnn_string(0), None);
    }

    #[test]
    fn the_last_marked_line_counts() {
        let out = "hello from a .pth\nGPUCOMPAT_JSON {\"schema\": 1, \"torch\": {\"installed\": false}}\n";
        let r = parse_inventory(out).unwrap();
        assert!(!r.torch.unwrap().installed);
        assert!(parse_inventory("nothing").is_err());
        assert!(parse_inventory("GPUCOMPAT_JSON {broken").is_err());
    }

    #[test]
    fn script_is_embedded() {
        assert!(INVENTORY_SCRIPT.contains(MARK.trim()));
    }
}
