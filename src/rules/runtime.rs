//! Runtime family: the CUDA runtime a framework bundles against the newest
//! CUDA the driver supports, under each compatibility semantic.

use crate::finding::{Category, Finding, Severity};
use crate::inventory::Inventory;
use crate::kb::{Kb, KernelMatch, MinDriver, Semantic};
use crate::version::CudaVersion;

use super::facts::{self, CudaMax, Runtime};
use super::fix;
use super::{CompatSemantic, Docs, FindingExt, Rule};

pub static RULES: &[&Rule] = &[&RUN001, &RUN002, &RUN003, &RUN004];

/// How a bundled runtime relates to the driver.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// At or below the driver's newest CUDA.
    Fine,
    /// Same major, driver at or above the minor-version floor.
    MinorCompat { floor: Option<MinDriver> },
    /// Across majors, or below the floor.
    TooOld { floor: Option<MinDriver> },
}

#[derive(Debug, Clone)]
pub struct Judgment<'a> {
    pub rt: Runtime<'a>,
    pub max: CudaMax,
    pub verdict: Verdict,
    /// The driver that runs this CUDA with no caveats.
    pub toolkit_min: Option<MinDriver>,
    /// GPUs that would run this runtime's kernels only through PTX JIT.
    pub ptx_only: Vec<String>,
}

/// Whether the driver runs CUDA `r`, newer than its own CUDA `max`, under
/// minor-version compatibility: CUDA 11 and later, within the driver's major,
/// from the major's floor driver on (an unknown driver or floor passes).
/// Also the floor itself, for the message.
fn minor_compat(
    kb: &Kb,
    drv: Option<&crate::version::DriverVersion>,
    os: crate::inventory::OsKind,
    r: CudaVersion,
    max: CudaVersion,
) -> (Option<MinDriver>, bool) {
    let floor = kb.min_driver_for_cuda(&r, os, Semantic::MinorCompat);
    let same_major = r.major == max.major && r.major >= 11;
    let above_floor = match (drv, &floor) {
        (Some(d), Some(f)) => crate::kb::driver_meets(d, &f.driver),
        _ => true,
    };
    (floor, same_major && above_floor)
}

/// Judge every bundled runtime against the driver (nothing when the driver's maximum is unknown).
pub fn judge_all<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<Judgment<'a>> {
    let Some(max) = facts::driver_cuda_max(inv, kb) else {
        return vec![];
    };
    let os = facts::driver_os(inv);
    let drv = facts::driver(inv).map(|f| &f.value);
    let gpus = facts::nvidia_gpus(inv, kb);
    let mut out = Vec::new();
    for rt in facts::runtimes(inv, kb) {
        let r = rt.cuda.value.major_minor();
        if r <= max.value {
            out.push(Judgment {
                rt,
                max: max.clone(),
                verdict: Verdict::Fine,
                toolkit_min: None,
                ptx_only: vec![],
            });
            continue;
        }
        if max.at_least {
            continue;
        }
        let toolkit_min = kb.min_driver_for_cuda(&r, os, Semantic::Toolkit);
        let (floor, compat) = minor_compat(kb, drv, os, r, max.value);
        let verdict = if compat {
            Verdict::MinorCompat { floor }
        } else {
            Verdict::TooOld { floor }
        };
        let ptx_only = match rt.torch.as_ref().and_then(|t| t.arch_list.as_ref()) {
            Some(list) => gpus
                .iter()
                .filter_map(|g| {
                    let cc = g.cc.as_ref()?.value;
                    matches!(kb.kernels_for_gpu(&list.value, cc), KernelMatch::Ptx { .. })
                        .then(|| g.label.clone())
                })
                .collect(),
            None => vec![],
        };
        out.push(Judgment {
            rt,
            max: max.clone(),
            verdict,
            toolkit_min,
            ptx_only,
        });
    }
    out
}

fn forward_compat_possible(inv: &Inventory, kb: &Kb) -> bool {
    let dc = facts::nvidia_gpus(inv, kb)
        .iter()
        .any(|g| g.is_datacenter());
    let compat = !inv.libraries.cuda_compat.is_empty() || inv.toolkits.iter().any(|t| t.has_compat);
    dc && compat && !facts::is_wsl(inv)
}

/// The finding for one judgment under a rule; `None` when the verdict is not the rule's.
pub fn judgment_finding(
    rule: &'static Rule,
    inv: &Inventory,
    kb: &Kb,
    j: &Judgment,
) -> Option<Finding> {
    let r = j.rt.cuda.value.major_minor();
    let drv = facts::driver(inv);
    let drv_s = drv.map_or("the driver".to_string(), |d| format!("driver {}", d.value));
    let drv_paren = drv.map_or(String::new(), |d| format!(" (driver {})", d.value));
    let (severity, message) = match &j.verdict {
        Verdict::Fine => return None,
        Verdict::MinorCompat { floor } => {
            let floor_s = floor
                .as_ref()
                .map_or("the minor-version floor".to_string(), |f| {
                    format!("the CUDA {}.x floor {}", r.major, f.driver)
                });
            if j.ptx_only.is_empty() {
                (
                    Severity::Warning,
                    format!(
                        "{} in {} bundles CUDA {r}, newer than the driver's CUDA {}{drv_paren}; it runs under minor-version compatibility (driver at or above {floor_s}) with caveats: APIs newer than CUDA {} return cudaErrorCallRequiresNewerDriver, and PTX built by CUDA {r} cannot be JIT-compiled by this driver.",
                        j.rt.what, j.rt.env.path, j.max.value, j.max.value
                    ),
                )
            } else {
                (
                    Severity::Error,
                    format!(
                        "{} in {} bundles CUDA {r}, newer than the driver's CUDA {}{drv_paren}, and {} has only PTX in this wheel: under minor-version compatibility the driver cannot JIT-compile PTX built by CUDA {r} (error 222, unsupported PTX version), so no kernel runs there.",
                        j.rt.what, j.rt.env.path, j.max.value, j.ptx_only.join(", ")
                    ),
                )
            }
        }
        Verdict::TooOld { floor } => {
            let why = if r.major != j.max.value.major {
                format!(
                    "CUDA {} is another major than the driver's CUDA {}",
                    r.major, j.max.value
                )
            } else {
                match floor {
                    Some(f) => format!(
                        "the driver is below the CUDA {}.x minor-version floor {}",
                        r.major, f.driver
                    ),
                    None => "the driver is below the minor-version floor".to_string(),
                }
            };
            let floor_hint = match floor {
                Some(f) if r.major != j.max.value.major => {
                    format!(" (CUDA {}.x needs driver {} or newer)", r.major, f.driver)
                }
                _ => String::new(),
            };
            if forward_compat_possible(inv, kb) {
                (
                    Severity::Warning,
                    format!(
                        "{} in {} bundles CUDA {r} but {drv_s} supports at most CUDA {}: {why}{floor_hint}. This datacenter GPU has the cuda-compat package, so it runs under forward compatibility only if those libraries are the ones loaded (LD_LIBRARY_PATH or ld cache).",
                        j.rt.what, j.rt.env.path, j.max.value
                    ),
                )
            } else {
                (
                    Severity::Error,
                    format!(
                        "{} in {} bundles CUDA {r} but {drv_s} supports at most CUDA {}: {why}{floor_hint}. CUDA fails at start-up with 'driver version is insufficient for CUDA runtime version' (error 35).",
                        j.rt.what, j.rt.env.path, j.max.value
                    ),
                )
            }
        }
    };
    let mut f = rule.finding(message).at(severity);
    f =
        j.rt.cuda
            .cite(f, &format!("{} CUDA build ({})", j.rt.what, j.rt.env.path));
    if let Some(d) = drv {
        f = f.fact("driver version", d);
    }
    f = j.max.cite(f);
    match &j.verdict {
        Verdict::MinorCompat { floor: Some(fl) } | Verdict::TooOld { floor: Some(fl) } => {
            f = f.kb(fl.kb.clone());
        }
        _ => {}
    }
    if let Some(t) = &j.toolkit_min {
        f = f.kb(t.kb.clone());
    }
    if let Some(t) = &j.rt.torch {
        if !j.ptx_only.is_empty() {
            f = t.cite_arch(f);
        }
        if let Some(release) = &t.release {
            // A wheel that runs only under minor-version compatibility is fixed
            // by one that runs with no caveats, not by another of its kind.
            let min_runs = match j.verdict {
                Verdict::MinorCompat { .. } => crate::plan::fit::Runs::Toolkit,
                _ => crate::plan::fit::Runs::MinorCompat,
            };
            let plan = fix::torch_fix_at_least(inv, kb, j.rt.env, release, min_runs);
            for k in plan.kb {
                f = f.kb(k);
            }
            let mut fx = plan.fix;
            if let (Some(tm), Some(note)) = (&j.toolkit_min, fx.note.as_mut()) {
                if fx.command.is_some() {
                    note.push_str(&format!(
                        ". Or keep {} and upgrade the driver to {} or newer (CUDA {r} with no caveats)",
                        j.rt.what, tm.driver
                    ));
                }
            }
            f.fix = Some(fx);
            return Some(f);
        }
    }
    let target: Option<&MinDriver> = j.toolkit_min.as_ref();
    f.fix = Some(match target {
        Some(t) => {
            let mut fx = fix::driver_upgrade_fix(inv, kb, &t.driver, &format!("CUDA {r} with no caveats"));
            if let Some(n) = fx.note.as_mut() {
                n.push_str(&format!(
                    "; or install a build of {} made for CUDA {} or older",
                    j.rt.what, j.max.value
                ));
            }
            fx
        }
        None => crate::finding::Fix {
            command: None,
            note: Some(format!(
                "upgrade the driver to one that supports CUDA {r}, or install a build of {} made for CUDA {} or older",
                j.rt.what, j.max.value
            )),
            ..Default::default()
        },
    });
    Some(f)
}

pub static RUN001: Rule = Rule {
    code: "RUN001",
    name: "runtime-newer-than-driver",
    category: Category::DriverTooOld,
    severity: Severity::Error,
    summary: "A framework bundles a CUDA runtime that the driver cannot run: another CUDA major, or below the minor-version floor.",
    semantics: &[CompatSemantic::Toolkit, CompatSemantic::MinorVersion, CompatSemantic::Forward],
    docs: Docs {
        what_it_checks: "For each CUDA build of torch, onnxruntime, tensorflow, jax and tensorrt in each Python environment: its CUDA version against the newest CUDA the driver supports (as the driver reports it, NVML / nvidia-smi's `CUDA Version`, else from the driver version via the toolkit table). It fires when the runtime is of a newer CUDA major than the driver supports, or of the same major but the driver is below that major's minor-version-compatibility floor (12.x: 525.60.13 Linux / 528.33 Windows; 13.x: R580). Not under WSL (see PLAT004).",
        why_it_breaks: "An application built with CUDA runtime R needs a driver whose CUDA is at least R (toolkit semantic). From CUDA 11 on, an older driver of the same major at or above the floor also works (minor-version compatibility), but across majors nothing does, except forward compatibility: the cuda-compat package on datacenter GPUs. Otherwise CUDA fails at start-up with error 35, 'CUDA driver version is insufficient for CUDA runtime version', and torch reports that the NVIDIA driver is too old.",
        how_to_fix: "Either install a build of the framework made for a CUDA the driver supports (for torch, the fix names the newest variant of the same release that this driver runs with no caveats and that has kernels for every GPU, as a pip command with the uv equivalent), or upgrade the driver to the toolkit driver of the runtime's CUDA. On datacenter GPUs the cuda-compat package of that CUDA version is a third way.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (Table 2: minor-version compatibility floors; Table 3: toolkit drivers)",
            "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
            "https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html",
        ],
    },
    check: check_run001,
    superseded_by: &[],
};

fn check_run001(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::is_wsl(inv) {
        return vec![];
    }
    judge_all(inv, kb)
        .iter()
        .filter(|j| matches!(j.verdict, Verdict::TooOld { .. }))
        .filter_map(|j| judgment_finding(&RUN001, inv, kb, j))
        .collect()
}

pub static RUN002: Rule = Rule {
    code: "RUN002",
    name: "runtime-needs-minor-version-compat",
    category: Category::DriverTooOld,
    severity: Severity::Warning,
    summary: "A framework's CUDA runtime is newer than the driver's CUDA but of the same major, at or above the floor: it runs under minor-version compatibility, with caveats.",
    semantics: &[CompatSemantic::MinorVersion, CompatSemantic::Binary],
    docs: Docs {
        what_it_checks: "As RUN001, for runtimes of the driver's CUDA major that are newer than the driver's CUDA while the driver is at or above the major's minor-version floor (for example a cu124 torch on driver 535.104.05, whose CUDA is 12.2). When the wheel's arch list gives some GPU only PTX, it is an error: under minor-version compatibility the driver cannot JIT-compile PTX built by a newer toolkit. Not under WSL (see PLAT004).",
        why_it_breaks: "Minor-version compatibility runs the application, but with a limited feature set: APIs that need the newer driver return cudaErrorCallRequiresNewerDriver (36), and PTX generated by the newer toolkit cannot be JIT-compiled by the older driver's PTX compiler (error 222). Code that has SASS for the GPU and avoids new APIs runs; torch usually does. A GPU that needs PTX JIT gets no kernels.",
        how_to_fix: "To remove the caveats: install the variant of the same release built for a CUDA the driver supports (the fix names it), or upgrade the driver to the toolkit driver of the runtime's CUDA (named in the note). Leaving it is fine when everything works and no GPU relies on PTX.",
        sources: &[
            "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html (limited feature set; PTX caveat)",
            "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (Table 2)",
        ],
    },
    check: check_run002,
    superseded_by: &[],
};

fn check_run002(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    if facts::is_wsl(inv) {
        return vec![];
    }
    judge_all(inv, kb)
        .iter()
        .filter(|j| matches!(j.verdict, Verdict::MinorCompat { .. }))
        .filter_map(|j| judgment_finding(&RUN002, inv, kb, j))
        .collect()
}

pub static RUN003: Rule = Rule {
    code: "RUN003",
    name: "smi-cuda-is-driver-maximum",
    category: Category::Misconception,
    severity: Severity::Info,
    summary: "nvidia-smi shows a higher CUDA than torch uses: that number is the driver's maximum, and this is fine.",
    semantics: &[CompatSemantic::Toolkit],
    docs: Docs {
        what_it_checks: "When the driver reports its CUDA version (nvidia-smi's `CUDA Version`, NVML, cuDriverGetVersion) and a torch CUDA build in some environment is older than it.",
        why_it_breaks: "It does not break. The `CUDA Version` in nvidia-smi's header is the newest CUDA the driver supports, not an installed CUDA. torch wheels bundle their own CUDA runtime; any runtime at or below the driver's maximum runs. Reinstalling torch or the toolkit to \"match\" nvidia-smi is a common, needless step.",
        how_to_fix: "Nothing to fix. If torch still cannot use the GPU, the cause is another finding.",
        sources: &[
            "https://docs.nvidia.com/datacenter/tesla/drivers/cuda-toolkit-driver-and-architecture-matrix.html (nvidia-smi reports the maximum CUDA supported)",
            "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__VERSION.html (cuDriverGetVersion)",
        ],
    },
    check: check_run003,
    superseded_by: &[],
};

fn check_run003(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(max) = facts::driver_cuda_max(inv, kb).filter(|m| m.from_driver) else {
        return vec![];
    };
    let mut out = Vec::new();
    for t in facts::torch_views(inv, kb) {
        let Some(c) = t.cuda() else { continue };
        let r: CudaVersion = c.value.major_minor();
        if r >= max.value {
            continue;
        }
        let f = RUN003.finding(format!(
            "The driver reports CUDA {} (nvidia-smi's 'CUDA Version'): the newest CUDA it supports, not an installed CUDA. {} bundles its own CUDA {r} runtime, which runs on this driver.",
            max.value, t.label
        ));
        let f = t
            .cite_cuda(max.cite(f))
            .fix_note("Nothing to fix: a runtime at or below the driver's CUDA runs.");
        out.push(f);
    }
    out
}

pub static RUN004: Rule = Rule {
    code: "RUN004",
    name: "toolkit-newer-than-driver",
    category: Category::DriverTooOld,
    severity: Severity::Warning,
    summary: "A CUDA toolkit (nvcc) is newer than the driver's CUDA: what it builds or JIT-compiles needs a newer driver.",
    semantics: &[CompatSemantic::Toolkit, CompatSemantic::MinorVersion],
    docs: Docs {
        what_it_checks: "The CUDA toolkit builds use (the one CUDA_HOME or CUDA_PATH names, else /usr/local/cuda's, else the one `nvcc --version` or the report names; on a probed machine with several toolkits and none selected, none) against the newest CUDA the driver supports. Another CUDA major than the driver's, or a driver below the major's minor-version-compatibility floor: a warning. The same major, newer minor: a warning where the report names no framework that bundles its own CUDA runtime (the toolkit is then what the failing program was built or JIT-compiled with: numba, CuPy, PyCUDA, hashcat, a CUDA sample), else an info finding. An observed 'driver insufficient' or 'unsupported PTX' error raises it to an error. Not when the driver is newer than every row of the table.",
        why_it_breaks: "Programs a toolkit builds link its CUDA runtime and carry PTX of its PTX ISA version. Across a major, a driver older than the toolkit's CUDA runs none of them (error 35, 'CUDA driver version is insufficient for CUDA runtime version'). Within a major, minor-version compatibility runs their SASS, but the driver's JIT compiler cannot read PTX newer than itself: every run-time compiler that emits PTX with this toolkit (numba, CuPy, PyCUDA, NVRTC users) fails with 'the provided PTX was compiled with an unsupported toolchain' (error 222) or ptxas' 'Unsupported .version'. nvidia-smi's CUDA Version is the driver's maximum and must be at least the toolkit's.",
        how_to_fix: "Upgrade the driver to at least the toolkit's own driver (named in the finding), or use a toolkit no newer than the driver's CUDA (nvidia-smi's 'CUDA Version') and rebuild with it.",
        sources: &[
            "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html (Table 3: the toolkit driver of each CUDA release)",
            "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html (PTX built by a newer toolkit is not JIT-compiled by an older driver)",
            "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html (cudaErrorInsufficientDriver = 35, cudaErrorUnsupportedPtxVersion = 222)",
        ],
    },
    check: check_run004,
    superseded_by: &[],
};

/// The toolkit builds use: the one CUDA_HOME / CUDA_PATH names, else
/// `/usr/local/cuda`'s, else the newest a report shows (nvcc's output, a
/// toolkit it names). On a probed machine with several toolkits and none
/// selected, none: a toolkit left installed builds nothing until chosen.
fn toolkit_in_use(inv: &Inventory) -> Option<&crate::inventory::Toolkit> {
    let nvcc = || inv.toolkits.iter().filter(|t| t.has_nvcc);
    if let Some(t) = nvcc().find(|t| facts::named_by_home(inv, t).is_some()) {
        return Some(t);
    }
    if let Some(t) = nvcc().find(|t| t.path.trim_end_matches(['/', '\\']) == "/usr/local/cuda") {
        return Some(t);
    }
    let mut versions: Vec<_> = nvcc().map(|t| t.version.value.major_minor()).collect();
    versions.sort();
    versions.dedup();
    if inv.probed() && versions.len() > 1 {
        return None;
    }
    nvcc().max_by_key(|t| t.version.value)
}

fn check_run004(inv: &Inventory, kb: &Kb) -> Vec<Finding> {
    let Some(max) = facts::driver_cuda_max(inv, kb).filter(|m| !m.at_least) else {
        return vec![];
    };
    let Some(t) = toolkit_in_use(inv).filter(|t| t.version.value.major_minor() > max.value) else {
        return vec![];
    };
    let v = t.version.value.major_minor();
    let os = facts::driver_os(inv);
    let toolkit_min = kb.min_driver_for_cuda(&v, os, Semantic::Toolkit);
    let (floor, compat) = minor_compat(kb, facts::driver(inv).map(|d| &d.value), os, v, max.value);
    let bundled = !facts::runtimes(inv, kb).is_empty();
    let what = if !compat {
        format!(
            "Nothing it builds runs on this driver: a CUDA {v} runtime needs a driver of CUDA {v} or newer{} (error 35).",
            match (&floor, v.major >= 11) {
                (Some(m), true) => format!(", or of CUDA {}.x from {} on (minor-version compatibility)", v.major, m.driver),
                _ => String::new(),
            }
        )
    } else {
        "What it builds runs under minor-version compatibility, but PTX it emits (numba, CuPy, PyCUDA, NVRTC and other run-time compilers, or binaries without SASS for this GPU) cannot be JIT-compiled by this driver (error 222, 'Unsupported .version').".to_string()
    };
    let mut f = RUN004.finding(format!(
        "CUDA toolkit {v} ({}) is newer than this driver's CUDA {}. {what}",
        t.path, max.value
    ));
    if compat && bundled {
        f.severity = Severity::Info;
        f.message.push_str(" The frameworks here bundle their own CUDA runtime: this matters only to what the toolkit builds.");
    }
    f = max
        .cite(f)
        .evidence("CUDA toolkit version", t.version.value, &t.version.source);
    if let Some(d) = facts::driver(inv) {
        f = f.fact("driver version", d);
    }
    let f = match toolkit_min {
        Some(m) => {
            f = f.kb(m.kb.clone());
            f.fix_note(format!(
                "upgrade the driver to {} or newer (CUDA {v}'s toolkit driver), or use a CUDA toolkit no newer than {} and rebuild with it",
                m.driver, max.value
            ))
        }
        None => f.fix_note(format!(
            "upgrade the driver to one that supports CUDA {v}, or use a CUDA toolkit no newer than {} and rebuild with it",
            max.value
        )),
    };
    vec![f]
}
