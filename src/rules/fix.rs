//! Fixes as exact commands, built from the knowledge base: which torch
//! variant to install for this driver and these GPUs, and the pip / uv
//! command that installs it into the right environment. Other commands
//! (`explain`, `pin`) reuse these builders.

use crate::finding::{Fix, KbRef};
use crate::inventory::{Inventory, OsKind, PythonEnv};
use crate::kb::{cmp_versions, Kb, KernelMatch, MinDriver, Semantic};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

use super::action::FixAction;
use super::facts;
use crate::plan::fit::{Limits, Runs};

/// Where PyTorch publishes its variant wheels.
pub const TORCH_INDEX: &str = "https://download.pytorch.org/whl";

/// How to run pip and uv against one environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installer {
    /// `pip` or `/path/to/env/bin/python -m pip`
    pub pip: String,
    /// `uv pip` or `uv pip ... --python /path/to/env/bin/python` (the flag is appended by the builders)
    pub uv_python: Option<String>,
}

impl Installer {
    pub fn install(&self, args: &str) -> String {
        format!("{} install {args}", self.pip)
    }
    pub fn uninstall(&self, args: &str) -> String {
        format!("{} uninstall -y {args}", self.pip)
    }
    pub fn uv_install(&self, args: &str) -> String {
        match &self.uv_python {
            Some(p) => format!("uv pip install --python {p} {args}"),
            None => format!("uv pip install {args}"),
        }
    }
}

/// The environment's own pip: bare `pip` for the active (or only) environment,
/// else that environment's interpreter, so the fix lands where the problem is.
pub fn installer(inv: &Inventory, env: &PythonEnv) -> Installer {
    if env.active || inv.python.len() <= 1 {
        return Installer {
            pip: "pip".into(),
            uv_python: None,
        };
    }
    let py = env.interpreter.clone().unwrap_or_else(|| {
        if facts::os_kind(inv) == Some(OsKind::Windows) {
            format!("{}\\python.exe", env.path.trim_end_matches('\\'))
        } else {
            format!("{}/bin/python", env.path.trim_end_matches('/'))
        }
    });
    Installer {
        pip: format!("{py} -m pip"),
        uv_python: Some(py),
    }
}

/// How well a variant's compiled kernels fit the GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum KernelFit {
    /// Some GPU has no kernel at all.
    None,
    /// The variant's arch list is not known (unverified in the knowledge base).
    Unverified,
    /// Every GPU runs, at least one only through PTX JIT.
    Ptx,
    /// No GPU is known, so nothing to check.
    NoGpus,
    /// Machine code for every GPU.
    Sass,
}

/// One CUDA variant of a torch release, judged against a driver and GPUs.
#[derive(Debug, Clone)]
pub struct TorchPick {
    pub release: String,
    /// `cu121`
    pub variant: String,
    pub cuda: CudaVersion,
    pub torchvision: Option<String>,
    pub torchaudio: Option<String>,
    pub fit: KernelFit,
    /// How the driver runs this variant's CUDA.
    pub runs: Runs,
    pub min_driver: Option<MinDriver>,
    pub kb: Vec<KbRef>,
}

impl TorchPick {
    pub fn index_url(&self) -> String {
        format!("{TORCH_INDEX}/{}", self.variant)
    }

    /// `torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1`
    pub fn requirements(&self) -> String {
        let mut s = format!("torch=={}", self.release);
        if let Some(v) = &self.torchvision {
            s.push_str(&format!(" torchvision=={v}"));
        }
        if let Some(a) = &self.torchaudio {
            s.push_str(&format!(" torchaudio=={a}"));
        }
        s
    }

    /// The pip command and its uv equivalent.
    pub fn commands(&self, inst: &Installer) -> (String, String) {
        let args = format!("{} --index-url {}", self.requirements(), self.index_url());
        (
            inst.install(&format!("--force-reinstall {args}")),
            inst.uv_install(&format!("--reinstall {args}")),
        )
    }
}

/// Does a CUDA release still target this GPU at all (architecture's last toolkit, nvcc's lowest SM)?
pub fn cuda_targets_gpu(kb: &Kb, cuda: &CudaVersion, cc: ComputeCapability) -> Option<bool> {
    let mm = cuda.major_minor();
    if let Some(last) = kb.architecture(cc).and_then(|a| a.last_toolkit) {
        return Some(mm <= last.major_minor());
    }
    kb.nvcc_targets(&mm)
        .and_then(|n| n.min_sm)
        .map(|min| cc.plain() >= min.plain())
}

fn kernel_fit(
    kb: &Kb,
    release: &str,
    variant: &str,
    cuda: &CudaVersion,
    ccs: &[ComputeCapability],
) -> (KernelFit, Option<KbRef>) {
    let row = kb.torch_arch(release, variant);
    let kbref = row.map(|r| r.kb());
    if ccs
        .iter()
        .any(|cc| cuda_targets_gpu(kb, cuda, *cc) == Some(false))
    {
        return (KernelFit::None, kbref);
    }
    let Some(list) = row.and_then(|r| r.arch_list.as_deref()) else {
        return (KernelFit::Unverified, kbref);
    };
    if ccs.is_empty() {
        return (KernelFit::NoGpus, kbref);
    }
    let mut fit = KernelFit::Sass;
    for cc in ccs {
        match kb.kernels_for_gpu(list, *cc) {
            KernelMatch::Sass { .. } => {}
            KernelMatch::Ptx { .. } => fit = fit.min(KernelFit::Ptx),
            KernelMatch::None { .. } => return (KernelFit::None, kbref),
        }
    }
    (fit, kbref)
}

/// Every CUDA variant of a release, newest CUDA first, judged against one machine's limits.
pub fn torch_cuda_candidates(kb: &Kb, release: &str, lim: &Limits) -> Vec<TorchPick> {
    let Some(row) = kb.torch_release(release) else {
        return Vec::new();
    };
    let mut out: Vec<TorchPick> = row
        .cuda_variants
        .iter()
        .flatten()
        .filter_map(|v| {
            let cuda: CudaVersion = v.parse().ok()?;
            let min_driver = kb.min_driver_for_cuda(&cuda, lim.os, Semantic::Toolkit);
            let (fit, arch_kb) = kernel_fit(kb, &row.version, v, &cuda, &lim.ccs);
            let mut kbrefs = vec![row.kb()];
            kbrefs.extend(arch_kb);
            kbrefs.extend(min_driver.as_ref().map(|m| m.kb.clone()));
            let runs = lim.runs(kb, &cuda);
            if runs == Runs::MinorCompat {
                kbrefs.extend(kb.minor_compat(&cuda).map(|r| r.kb()));
            }
            Some(TorchPick {
                release: row.version.clone(),
                variant: v.clone(),
                cuda,
                torchvision: row.torchvision.clone(),
                torchaudio: row.torchaudio.clone(),
                fit,
                runs,
                min_driver,
                kb: kbrefs,
            })
        })
        .collect();
    out.sort_by_key(|p| std::cmp::Reverse(p.cuda));
    out
}

/// Can this variant be installed at all: the driver runs its CUDA, it has
/// kernels for every GPU, and (under minor-version compatibility, where the
/// driver cannot JIT newer PTX) machine code rather than PTX.
fn installable(p: &TorchPick) -> bool {
    p.runs != Runs::No
        && p.fit != KernelFit::None
        && !(p.runs == Runs::MinorCompat && matches!(p.fit, KernelFit::Ptx | KernelFit::Unverified))
}

/// The best variant of `release` for one machine, other than `skip` (the
/// variant already installed, which a fix never offers again): one the
/// driver runs with no caveats before one it runs under minor-version
/// compatibility, then SASS before PTX, verified arch lists before
/// unverified ones, then the newest CUDA. A driver that is not known does
/// not rule a variant out; the pick then says so.
pub fn pick_torch_cuda(
    kb: &Kb,
    release: &str,
    lim: &Limits,
    skip: Option<&str>,
) -> Option<TorchPick> {
    pick_torch_cuda_at_least(kb, release, lim, skip, Runs::MinorCompat)
}

/// [`pick_torch_cuda`] among the variants the driver runs at least as well as `min_runs`.
pub fn pick_torch_cuda_at_least(
    kb: &Kb,
    release: &str,
    lim: &Limits,
    skip: Option<&str>,
    min_runs: Runs,
) -> Option<TorchPick> {
    torch_cuda_candidates(kb, release, lim)
        .into_iter()
        .filter(installable)
        .filter(|p| p.runs >= min_runs)
        .filter(|p| skip != Some(p.variant.as_str()))
        .max_by(|a, b| {
            let no_caveat = |p: &TorchPick| p.runs != Runs::MinorCompat;
            no_caveat(a)
                .cmp(&no_caveat(b))
                .then(a.fit.cmp(&b.fit))
                .then(a.runs.cmp(&b.runs))
                .then(a.cuda.cmp(&b.cuda))
        })
}

/// The newest torch release (any, or only older than `older_than`) with a
/// variant that the driver is known to run (with no caveats, or under
/// minor-version compatibility) and that has SASS or PTX for every GPU.
pub fn newest_fitting_release(
    kb: &Kb,
    env: Option<&PythonEnv>,
    lim: &Limits,
    older_than: Option<&str>,
) -> Option<TorchPick> {
    newest_release_where(kb, env, lim, older_than, &Want::default())
}

/// The torch releases of the knowledge base, the newest first.
fn releases_newest_first(kb: &Kb) -> Vec<&crate::kb::tables::TorchReleaseRow> {
    let mut rows: Vec<_> = kb.torch_releases.row.iter().collect();
    rows.sort_by(|a, b| cmp_versions(&b.version, &a.version));
    rows
}

/// The newest torch release whose best variant passes `ok` (how the driver
/// runs it, how its kernels fit the GPUs).
pub fn newest_release_such_that(
    kb: &Kb,
    lim: &Limits,
    ok: impl Fn(Runs, KernelFit) -> bool,
) -> Option<TorchPick> {
    releases_newest_first(kb).into_iter().find_map(|r| {
        pick_torch_cuda_at_least(kb, &r.version, lim, None, Runs::MinorCompat)
            .filter(|p| ok(p.runs, p.fit))
    })
}

/// What a fix must do better than the installed wheel.
#[derive(Debug, Clone, Default)]
pub struct Want {
    /// The installed (release, variant): never offered again.
    pub skip: Option<(String, String)>,
    /// Only variants the driver runs at least this well (`Toolkit` when the
    /// finding is about running under minor-version compatibility).
    pub min_runs: Option<Runs>,
}

impl Want {
    fn skips(&self, release: &str) -> Option<&str> {
        self.skip
            .as_ref()
            .filter(|(r, _)| r == release)
            .map(|(_, v)| v.as_str())
    }
    fn min_runs(&self) -> Runs {
        self.min_runs.unwrap_or(Runs::MinorCompat)
    }
}

/// [`newest_fitting_release`] under what a fix must do better.
pub fn newest_release_where(
    kb: &Kb,
    env: Option<&PythonEnv>,
    lim: &Limits,
    older_than: Option<&str>,
    want: &Want,
) -> Option<TorchPick> {
    let py = env
        .and_then(|e| e.python_version.as_ref())
        .map(|f| f.value.clone());
    releases_newest_first(kb)
        .into_iter()
        .filter(|r| older_than.map_or(true, |o| cmp_versions(&r.version, o).is_lt()))
        // A known Python needs a release known to ship wheels for it.
        .filter(|r| match (&py, &r.python) {
            (Some(p), Some(range)) => crate::kb::python_in(range, p) == Some(true),
            (Some(_), None) => false,
            (None, _) => true,
        })
        .find_map(|r| {
            pick_torch_cuda_at_least(kb, &r.version, lim, want.skips(&r.version), want.min_runs())
                .filter(|p| {
                    matches!(p.runs, Runs::Toolkit | Runs::MinorCompat)
                        && matches!(p.fit, KernelFit::Sass | KernelFit::Ptx)
                })
        })
}

fn describe_fit(p: &TorchPick, ccs: &[ComputeCapability]) -> String {
    let sms: Vec<String> = ccs.iter().map(|c| c.sm()).collect();
    match p.fit {
        KernelFit::Sass => format!("has machine code (SASS) for {}", sms.join(", ")),
        KernelFit::Ptx => format!(
            "runs on {} only through PTX JIT (slow first start)",
            sms.join(", ")
        ),
        KernelFit::Unverified => {
            "is not verified against the GPUs (its arch list is not in the knowledge base): check torch.cuda.get_arch_list() after installing".into()
        }
        KernelFit::NoGpus => "was not checked against the GPUs (no compute capability is known)".into(),
        KernelFit::None => "has no kernels for these GPUs".into(),
    }
}

fn describe_driver(p: &TorchPick, lim: &Limits) -> String {
    let cuda = p.cuda.major_minor();
    let max = lim
        .cuda_max
        .map_or("unknown".to_string(), |(m, _)| m.to_string());
    match (p.runs, &lim.driver, &p.min_driver) {
        (Runs::MinorCompat, _, _) => format!(
            "CUDA {cuda} runs on this driver (newest CUDA {max}) under minor-version compatibility: APIs newer than CUDA {max} return cudaErrorCallRequiresNewerDriver and newer PTX is not JIT-compiled"
        ),
        (_, Some(d), Some(m)) => format!(
            "driver {d} runs it with no caveats (CUDA {cuda} needs {} or newer)",
            m.driver
        ),
        (_, None, Some(m)) if lim.cuda_max.is_some() => format!(
            "the driver's newest CUDA is {max}, so it runs CUDA {cuda} with no caveats (which needs driver {} or newer)",
            m.driver
        ),
        (_, None, Some(m)) => format!(
            "the driver version is unknown: CUDA {cuda} needs driver {} or newer",
            m.driver
        ),
        _ => format!(
            "the minimum driver of CUDA {cuda} is not in the knowledge base"
        ),
    }
}

/// A torch fix: the fix itself, the knowledge rows it used, and the variant it installs (if any).
#[derive(Debug, Clone)]
pub struct TorchFixPlan {
    pub fix: Fix,
    pub kb: Vec<KbRef>,
    pub pick: Option<TorchPick>,
}

impl TorchFixPlan {
    /// Put the fix and its knowledge rows on a finding.
    pub fn apply(self, mut f: crate::finding::Finding) -> crate::finding::Finding {
        for k in self.kb {
            f = f.kb(k);
        }
        f.fix = Some(self.fix);
        f
    }
}

fn plan_note(p: &TorchPick, lim: &Limits, lead: String, uv: &str) -> String {
    format!(
        "{lead}: {}, and it {}. With uv: {uv}",
        describe_driver(p, lim),
        describe_fit(p, &lim.ccs)
    )
}

/// The variant the environment has installed (`cu124`, `cpu`), when its
/// version says (a bare version: its platform's PyPI wheel, as the rules read it).
fn installed_variant(inv: &Inventory, kb: &Kb, env: &PythonEnv, release: &str) -> Option<String> {
    let v = env.torch.as_ref()?.version.as_ref()?;
    let info = facts::torch_build(inv, kb, env, &v.value);
    (info.release == release).then_some(info.variant).flatten()
}

/// A fix that installs the right CUDA variant of `release` (or says what to
/// change when none fits), with the knowledge rows it used. Never the
/// variant already installed: when that is the only one, the fix says so.
pub fn torch_fix(inv: &Inventory, kb: &Kb, env: &PythonEnv, release: &str) -> TorchFixPlan {
    torch_fix_at_least(inv, kb, env, release, Runs::MinorCompat)
}

/// [`torch_fix`] offering only builds the driver runs at least as well as
/// `min_runs` (`Toolkit` for a wheel that already runs, but only under
/// minor-version compatibility).
pub fn torch_fix_at_least(
    inv: &Inventory,
    kb: &Kb,
    env: &PythonEnv,
    release: &str,
    min_runs: Runs,
) -> TorchFixPlan {
    let lim = Limits::of(inv, kb);
    let ccs = lim.ccs.clone();
    let inst = installer(inv, env);
    let installed = installed_variant(inv, kb, env, release);
    let want = Want {
        skip: installed.clone().map(|v| (release.to_string(), v)),
        min_runs: Some(min_runs),
    };
    let install = |p: &TorchPick| FixAction::InstallTorch {
        env: env.path.clone(),
        release: p.release.clone(),
        variant: p.variant.clone(),
    };
    let note_only = |note: String, kb: Vec<KbRef>| TorchFixPlan {
        fix: Fix {
            command: None,
            note: Some(note),
            ..Default::default()
        },
        kb,
        pick: None,
    };
    let with_pick = |p: TorchPick, note: String, kbrefs: Vec<KbRef>| {
        let (cmd, _) = p.commands(&inst);
        TorchFixPlan {
            fix: Fix {
                command: Some(cmd),
                note: Some(note),
                actions: vec![install(&p)],
            },
            kb: kbrefs,
            pick: Some(p),
        }
    };

    if kb.torch_release(release).is_none() {
        return note_only(
            format!(
                "torch {release} is not in the knowledge base; install a CUDA build from {TORCH_INDEX}/<variant> whose CUDA is at most the driver's (see `gpucompat db driver`)"
            ),
            Vec::new(),
        );
    }

    if let Some(p) = pick_torch_cuda_at_least(kb, release, &lim, installed.as_deref(), min_runs) {
        // An unverified arch list is a guess: prefer a release verified to
        // carry kernels for these GPUs, and name the unverified one in the note.
        if p.fit == KernelFit::Unverified && !ccs.is_empty() {
            if let Some(v) = newest_release_where(kb, Some(env), &lim, None, &want) {
                let (_, uv) = v.commands(&inst);
                let lead = format!(
                    "torch {}+{} is the newest variant of this release that the driver runs, but its arch list is not verified in the knowledge base; torch {} {} is verified to fit",
                    p.release, p.variant, v.release, v.variant
                );
                let mut kbrefs = p.kb.clone();
                kbrefs.extend(v.kb.clone());
                let note = plan_note(&v, &lim, lead, &uv);
                return with_pick(v, note, kbrefs);
            }
        }
        let (_, uv) = p.commands(&inst);
        let lead = format!(
            "{} is the newest variant of torch {} that fits",
            p.variant, p.release
        );
        let note = plan_note(&p, &lim, lead, &uv);
        let kbrefs = p.kb.clone();
        return with_pick(p, note, kbrefs);
    }

    let candidates: Vec<TorchPick> = torch_cuda_candidates(kb, release, &lim)
        .into_iter()
        .filter(|p| installed.as_deref() != Some(p.variant.as_str()) || p.runs < min_runs)
        .collect();
    let with_kernels: Vec<&TorchPick> = candidates
        .iter()
        .filter(|p| p.fit != KernelFit::None)
        .collect();
    let mut kbrefs: Vec<KbRef> = Vec::new();
    for k in candidates.iter().flat_map(|p| p.kb.clone()) {
        if !kbrefs.contains(&k) {
            kbrefs.push(k);
        }
    }

    if with_kernels.is_empty() {
        // No variant of this release carries kernels for the GPU: a newer release is needed.
        let sms: Vec<String> = ccs.iter().map(|c| c.sm()).collect();
        return match newest_release_where(kb, Some(env), &lim, None, &want) {
            Some(p) => {
                let (_, uv) = p.commands(&inst);
                kbrefs.extend(p.kb.clone());
                let lead = format!(
                    "no variant of torch {release} has kernels for {}; torch {} {} does",
                    sms.join(", "),
                    p.release,
                    p.variant
                );
                let note = plan_note(&p, &lim, lead, &uv);
                with_pick(p, note, kbrefs)
            }
            None => note_only(
                format!(
                    "no variant of torch {release} has kernels for {}, and no release in the knowledge base has one that this driver runs: upgrade the driver and install a newer torch release",
                    sms.join(", ")
                ),
                kbrefs,
            ),
        };
    }

    // Variants with kernels exist but each needs a newer driver.
    let oldest_need = with_kernels
        .iter()
        .filter_map(|p| p.min_driver.as_ref().map(|m| (p, m)))
        .min_by(|a, b| a.1.driver.cmp(&b.1.driver));
    let newest = with_kernels.first();
    let mut parts = Vec::new();
    let mut actions = Vec::new();
    if let Some(best) = newest {
        let dropped = best
            .min_driver
            .as_ref()
            .map(|m| dropped_by(inv, kb, &m.driver))
            .unwrap_or_default();
        if let Some(last) = dropped.iter().map(|(_, b)| *b).min() {
            let names: Vec<&str> = dropped.iter().map(|(n, _)| n.as_str()).collect();
            parts.push(format!(
                "no driver upgrade helps: R{last} is the last branch that drives {}",
                names.join(", ")
            ));
        } else if let Some(m) = &best.min_driver {
            parts.push(format!(
                "upgrade the driver to {} or newer ({}) to run torch {}+{}",
                m.driver,
                m.driver.branch_name(),
                best.release,
                best.variant
            ));
            actions.push(FixAction::UpgradeDriver {
                min: m.driver.clone(),
            });
            if installed.as_deref() != Some(best.variant.as_str()) {
                actions.push(install(best));
            }
        }
    }
    if let Some((p, m)) = oldest_need {
        if newest.map_or(true, |n| n.variant != p.variant) {
            parts.push(format!(
                "driver {} or newer runs torch {}+{}",
                m.driver, p.release, p.variant
            ));
        }
    }
    match newest_release_where(kb, Some(env), &lim, Some(release), &want) {
        Some(older) => {
            let (cmd, _) = older.commands(&inst);
            kbrefs.extend(older.kb.clone());
            parts.push(format!(
                "or stay on this driver with torch {} {}, the newest release that runs on it: {cmd}",
                older.release, older.variant
            ));
        }
        None => {
            let py = env
                .python_version
                .as_ref()
                .map_or(String::new(), |p| format!(" for Python {}", p.value));
            parts.push(format!(
                "no older torch release in the knowledge base{py} runs on this driver"
            ));
        }
    }
    let how = if min_runs == Runs::Toolkit {
        " with no caveats"
    } else {
        ""
    };
    let note = if parts.is_empty() {
        format!("no CUDA variant of torch {release} runs on this driver{how}; upgrade the driver")
    } else {
        format!(
            "no CUDA variant of torch {release} runs on this driver{how}: {}",
            parts.join("; ")
        )
    };
    let mut plan = note_only(note, kbrefs);
    plan.fix.actions = actions;
    plan
}

/// The ROCm variant of a torch release for an installed ROCm (`6.2.0` → `rocm6.2`),
/// else the release's newest ROCm variant.
pub fn pick_torch_rocm(kb: &Kb, release: &str, installed: Option<&str>) -> Option<String> {
    let row = kb.torch_release(release)?;
    let variants = row.rocm_variants.as_ref()?;
    if let Some(inst) = installed.and_then(crate::kb::series) {
        if let Some(v) = variants
            .iter()
            .rev()
            .find(|v| crate::kb::series(v.trim_start_matches("rocm")) == Some(inst))
        {
            return Some(v.clone());
        }
    }
    variants.last().cloned()
}

/// A fix that installs the ROCm build of `release`.
pub fn torch_rocm_fix(
    inv: &Inventory,
    kb: &Kb,
    env: &PythonEnv,
    release: &str,
) -> (Fix, Vec<KbRef>) {
    let installed = inv.amd.rocm_version.as_ref().map(|f| f.value.as_str());
    let Some(row) = kb.torch_release(release) else {
        return (
            Fix {
                command: None,
                note: Some(format!(
                    "torch {release} is not in the knowledge base; install its ROCm build from {TORCH_INDEX}/rocm<version>"
                )),
                ..Default::default()
            },
            Vec::new(),
        );
    };
    let Some(variant) = pick_torch_rocm(kb, release, installed) else {
        return (
            Fix {
                command: None,
                note: Some(format!(
                    "torch {release} has no ROCm build in the knowledge base; install a release that has one"
                )),
                ..Default::default()
            },
            vec![row.kb()],
        );
    };
    let inst = installer(inv, env);
    let mut reqs = format!("torch=={}", row.version);
    if let Some(v) = &row.torchvision {
        reqs.push_str(&format!(" torchvision=={v}"));
    }
    if let Some(a) = &row.torchaudio {
        reqs.push_str(&format!(" torchaudio=={a}"));
    }
    let args = format!("{reqs} --index-url {TORCH_INDEX}/{variant}");
    let cmd = inst.install(&format!("--force-reinstall {args}"));
    let uv = inst.uv_install(&format!("--reinstall {args}"));
    let why = match installed {
        Some(i) => format!(
            "{variant} is the ROCm build of torch {release} closest to the installed ROCm {i}"
        ),
        None => format!("{variant} is the newest ROCm build of torch {release}"),
    };
    (
        Fix {
            command: Some(cmd),
            note: Some(format!("{why}. With uv: {uv}")),
            actions: vec![FixAction::InstallTorch {
                env: env.path.clone(),
                release: row.version.clone(),
                variant,
            }],
        },
        vec![row.kb()],
    )
}

/// The oldest supported production or LTS branch at or above `min` that
/// still drives every GPU here (branch kinds and end-of-life dates from the
/// `driver_branches` table, as of its date). None when the table has none.
pub fn recommended_branch(inv: &Inventory, kb: &Kb, min: &DriverVersion) -> Option<u32> {
    let as_of = kb.driver_branches.meta.as_of.clone().unwrap_or_default();
    let ceiling = Limits::of(inv, kb).last_branch;
    kb.driver_branches
        .row
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                Some(crate::kb::tables::BranchKind::Ltsb | crate::kb::tables::BranchKind::Pb)
            )
        })
        .filter(|r| {
            r.eol
                .as_ref()
                .is_some_and(|e| !as_of.is_empty() && e.as_str() >= as_of.as_str())
        })
        .filter(|r| r.branch >= min.branch())
        .filter(|r| ceiling.map_or(true, |c| r.branch <= c))
        .map(|r| r.branch)
        .min()
}

/// The GPUs whose last driver branch is below `min`'s, with that branch:
/// no driver that new drives them.
pub fn dropped_by(inv: &Inventory, kb: &Kb, min: &DriverVersion) -> Vec<(String, u32)> {
    facts::nvidia_gpus(inv, kb)
        .iter()
        .filter_map(|g| Some((g.label.clone(), g.last_branch()?)))
        .filter(|(_, last)| *last < min.branch())
        .collect()
}

/// A driver upgrade: the Ubuntu package of a supported branch where the OS is
/// Ubuntu, else in words. When no driver that new drives some GPU here, it
/// says so instead of offering one.
pub fn driver_upgrade_fix(inv: &Inventory, kb: &Kb, min: &DriverVersion, why: &str) -> Fix {
    let dropped = dropped_by(inv, kb, min);
    if let Some(last) = dropped.iter().map(|(_, b)| *b).min() {
        let names: Vec<&str> = dropped.iter().map(|(n, _)| n.as_str()).collect();
        return Fix::from_note(format!(
                "no fix by driver upgrade: {why} needs driver {min} or newer, but R{last} is the last branch that drives {}. Keep R{last} and a stack that runs on it, or replace the GPU",
                names.join(", ")
            ));
    }
    let action = vec![FixAction::UpgradeDriver { min: min.clone() }];
    if facts::is_wsl(inv) || facts::driver_os(inv) == OsKind::Windows {
        return Fix {
            command: None,
            note: Some(format!(
                "install a Windows NVIDIA driver {min} or newer ({why}); inside WSL nothing changes, the Windows driver is shared"
            )),
            actions: action,
        };
    }
    let branch = recommended_branch(inv, kb, min);
    let branch_note = match branch {
        Some(b) => format!(
            "; R{b} is the oldest supported production/LTS branch that qualifies (knowledge base as of {})",
            kb.driver_branches.meta.as_of.as_deref().unwrap_or("?")
        ),
        None => String::new(),
    };
    if facts::is_ubuntu(inv) && !facts::in_container(inv) {
        let b = branch.unwrap_or(min.branch());
        return Fix {
            command: Some(format!("sudo apt install nvidia-driver-{b}")),
            note: Some(format!(
                "the driver must be {min} or newer ({why}){branch_note}; reboot afterwards"
            )),
            actions: action,
        };
    }
    let where_ = if facts::in_container(inv) {
        " on the host (a container uses the host's driver)"
    } else {
        ""
    };
    Fix {
        command: None,
        note: Some(format!(
            "upgrade the NVIDIA driver{where_} to {min} or newer ({why}){branch_note}"
        )),
        actions: action,
    }
}
