//! Parsers that turn pasted reports (collect_env, nvidia-smi, pip lists,
//! tracebacks) into an Inventory whose facts say which input line they came from.
//!
//! Every parser has the same shape, `parse(&Doc, &mut Builder)`: it scans the
//! cleaned lines for its own anchors and records facts. Parsers never decide
//! anything; the rules do. A value seen twice with different contents keeps
//! the first and leaves a note, so a file with several reports never silently
//! mixes them.

/// `regex_fn!(name, r"pattern");` defines `fn name() -> &'static Regex`,
/// compiled on first use. Declared before the parser modules so they can use it.
macro_rules! regex_fn {
    ($name:ident, $pat:expr) => {
        fn $name() -> &'static regex::Regex {
            static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
            R.get_or_init(|| regex::Regex::new($pat).expect("static regex"))
        }
    };
}

pub mod clean;
pub mod collect_env;
pub mod context;
pub mod dockerfile;
pub mod env;
pub mod errors;
pub mod gate;
pub mod nvcc;
pub mod nvidia_smi;
pub mod os;
pub mod own_json;
pub mod pip;
pub mod proc_version;
pub mod prose;
pub mod repl;
pub mod topics;

use serde::Serialize;

use crate::inventory::{
    EnvKind, ErrorKind, Fact, FrameworkBuild, Gpu, Inventory, Note, ObservedError, PyPackage,
    PythonEnv, PythonRuntime, TorchBuild,
};
use crate::kb::Kb;
use crate::version::CudaVersion;

pub use clean::{clean, Doc, Line};
pub use errors::{missing_facts, ToBeSure};

/// Like [`ingest`], but an input that is gpucompat's own JSON (`card --json`,
/// `check --json`) is read as the Inventory it holds, and one of the wrong
/// shape is an error. Text inputs add their facts to it.
pub fn ingest_any(inputs: &[(String, String)]) -> Result<Inventory, own_json::OwnJsonError> {
    let mut base: Option<Inventory> = None;
    let mut texts: Vec<(&str, &str)> = Vec::new();
    for (name, text) in inputs {
        match own_json::read(name, text) {
            Some(inv) => {
                let inv = inv?;
                if base.is_none() {
                    base = Some(inv);
                }
            }
            None => texts.push((name, text)),
        }
    }
    let Some(mut inv) = base else {
        return Ok(ingest_texts(&texts));
    };
    if !texts.is_empty() {
        let more = ingest_texts(&texts);
        // Facts from the pasted text fill what the saved JSON left unknown.
        if inv.errors.is_empty() {
            inv.errors = more.errors;
        } else {
            inv.errors.extend(more.errors);
        }
        for (k, v) in more.env {
            inv.env.entry(k).or_insert(v);
        }
        if inv.setting.is_empty() {
            inv.setting = more.setting;
        }
        inv.notes.extend(more.notes);
    }
    Ok(inv)
}

/// Parse pasted reports into one Inventory. Each input is `(name, text)`;
/// with one input, facts cite `input line N`, with several `NAME line N`.
pub fn ingest(inputs: &[(String, String)]) -> Inventory {
    let texts: Vec<(&str, &str)> = inputs
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    ingest_texts(&texts)
}

fn ingest_texts(inputs: &[(&str, &str)]) -> Inventory {
    // The largest patterns take a few milliseconds each to compile; a second
    // core compiles them while this one cleans the text (the first use waits
    // for a compile in progress, so the result is the same either way), then
    // parses the embedded knowledge tables the rules read next.
    if inputs.iter().any(|(_, t)| t.len() >= PREWARM_AT) {
        let _ = std::thread::Builder::new()
            .name("gpucompat-regex".into())
            .spawn(|| {
                context::prewarm();
                nvidia_smi::prewarm();
                proc_version::prewarm();
                prose::prewarm();
                crate::kb::Kb::embedded();
            });
    }
    let names: Vec<&str> = inputs.iter().map(|(n, _)| *n).collect();
    let mut b = Builder::new(format!("explain {}", names.join(" ")));
    let mut clues = context::Clues::default();
    for &(name, text) in inputs {
        let label = if inputs.len() == 1 { "input" } else { name };
        let doc = clean(label, text);
        if text.len() >= PREWARM_AT {
            // The context scan reads only the cleaned lines: on a large paste
            // it runs on a second core beside the parsers.
            let scanned = std::thread::scope(|s| {
                let scan = std::thread::Builder::new()
                    .name("gpucompat-context".into())
                    .spawn_scoped(s, || context::scan(&doc, &mut clues));
                parse_doc(&doc, &mut b);
                match scan.map(|h| h.join()) {
                    Ok(Ok(())) => true,
                    Ok(Err(panic)) => std::panic::resume_unwind(panic),
                    Err(_) => false,
                }
            });
            if !scanned {
                // No thread to be had: scan here (the clues were not touched).
                context::scan(&doc, &mut clues);
            }
        } else {
            parse_doc(&doc, &mut b);
            context::scan(&doc, &mut clues);
        }
    }
    context::apply(&clues, &mut b);
    b.finish()
}

/// Inputs from this size on compile their patterns on a second thread.
const PREWARM_AT: usize = 4096;

/// Run every parser over one cleaned document. The order matters only for
/// which of two conflicting values is kept: the most direct sources first.
pub fn parse_doc(doc: &Doc, b: &mut Builder) {
    proc_version::parse(doc, b);
    nvidia_smi::parse(doc, b);
    collect_env::parse(doc, b);
    nvcc::parse(doc, b);
    os::parse(doc, b);
    pip::parse(doc, b);
    repl::parse(doc, b);
    dockerfile::parse(doc, b);
    env::parse(doc, b);
    errors::parse(doc, b);
    topics::scan(doc, b);
    // Last: typed facts fill only what no tool output stated.
    prose::parse(doc, b);
}

/// Facts a pasted report does not state but the knowledge base knows from
/// one it does (see [`crate::kb::resolve::fill_inventory`]): a GPU's compute
/// capability and architecture from its name, the driver's newest CUDA from
/// its version. Each filled fact cites the table row; a name that fits
/// several rows is added to the notes (a name the table lacks is the
/// knowledge base's gap, not the report's).
pub fn enrich(inv: &mut Inventory, kb: &Kb) {
    for gap in crate::kb::resolve::fill_inventory(inv, kb) {
        if !gap.ambiguous {
            continue;
        }
        let n = gap.note;
        if !inv
            .notes
            .iter()
            .any(|o| o.subject == n.subject && o.message == n.message)
        {
            inv.notes.push(n);
        }
    }
}

/// Collects facts while parsers run. Fields are public so a parser can put
/// into one part of the inventory while recording a conflict note in another.
#[derive(Debug, Default)]
pub struct Builder {
    pub inv: Inventory,
    pub notes: Notes,
    /// Index into `inv.python` of the environment report lines now belong to.
    pub current_env: Option<usize>,
    /// Where each GPU index sits in `inv.gpus` (see [`gpu_mut`]).
    pub gpu_pos: GpuPositions,
    /// Errors recorded so far, to drop repeats in constant time.
    seen_errors: std::collections::HashSet<(ErrorKind, String)>,
    /// Per kind: errors kept, and those left out past [`Builder::MAX_ERRORS_PER_KIND`].
    error_counts: std::collections::BTreeMap<ErrorKind, (usize, usize)>,
    /// Where a traceback showed torch inside a conda environment.
    pub conda_torch: Option<String>,
}

impl Builder {
    pub fn new(origin: impl Into<String>) -> Self {
        Builder {
            inv: Inventory::new(origin),
            notes: Notes::default(),
            current_env: None,
            gpu_pos: GpuPositions::default(),
            seen_errors: Default::default(),
            error_counts: Default::default(),
            conda_torch: None,
        }
    }

    pub fn note(&mut self, subject: impl Into<String>, message: impl Into<String>) {
        self.notes.push(Note {
            subject: subject.into(),
            message: message.into(),
        });
    }

    /// The GPU with this index, created if not yet seen.
    pub fn gpu(&mut self, index: u32) -> &mut Gpu {
        gpu_mut(&mut self.inv.gpus, &mut self.gpu_pos, index)
    }

    /// The Python environment report lines belong to now, created on first use.
    pub fn env(&mut self) -> &mut PythonEnv {
        env_mut(&mut self.inv.python, &mut self.current_env)
    }

    /// A new report of a Python environment begins (a second collect_env in
    /// the same paste). Reuses the current one while it is still empty.
    pub fn begin_env(&mut self, src: &str) {
        if let Some(i) = self.current_env {
            if let Some(e) = self.inv.python.get(i) {
                if e.torch.is_none() && e.packages.is_empty() && e.python_version.is_none() {
                    return;
                }
            }
        }
        self.inv.python.push(reported_env(src));
        self.current_env = Some(self.inv.python.len() - 1);
    }

    pub fn torch(&mut self) -> &mut TorchBuild {
        self.env().torch.get_or_insert_with(TorchBuild::default)
    }

    /// Record a CUDA toolkit with nvcc that the input names, once per path.
    pub fn toolkit_with_nvcc(&mut self, path: &str, version: Fact<CudaVersion>) {
        if !self.inv.toolkits.iter().any(|t| t.path == path) {
            self.inv.toolkits.push(crate::inventory::Toolkit {
                path: path.to_string(),
                version,
                has_nvcc: true,
                has_compat: false,
            });
        }
    }

    /// Record the current environment's torch CUDA build (None: a CPU-only
    /// build); the first value wins and a conflicting one becomes a note.
    pub fn torch_cuda(&mut self, fact: Fact<Option<CudaVersion>>) {
        let t = env_mut(&mut self.inv.python, &mut self.current_env)
            .torch
            .get_or_insert_with(TorchBuild::default);
        put_opt(&mut t.cuda, fact, &mut self.notes, "torch CUDA build");
    }

    /// Record macOS and its version (`sw_vers`, collect_env's `OS: macOS 14.4`).
    pub fn macos(&mut self, version: &str, src: &str) {
        let (notes, os) = (&mut self.notes, &mut self.inv.os);
        put(
            &mut os.kind,
            Fact::new(crate::inventory::OsKind::Macos, src),
            notes,
            "operating system",
        );
        put(
            &mut os.id,
            Fact::new("macos".to_string(), src),
            notes,
            "OS id",
        );
        let v = Fact::new(version.trim().to_string(), src);
        put(&mut os.version_id, v, notes, "OS version");
    }

    /// Record a run-time fact of the current environment's torch
    /// (`torch.cuda.is_available()`, the device count), keeping the first of
    /// two that disagree, with a note.
    pub fn put_runtime<T: PartialEq + Serialize>(
        &mut self,
        field: fn(&mut PythonRuntime) -> &mut Option<Fact<T>>,
        fact: Fact<T>,
        what: &str,
    ) {
        let r = env_mut(&mut self.inv.python, &mut self.current_env)
            .runtime
            .get_or_insert_with(PythonRuntime::default);
        put(field(r), fact, &mut self.notes, what);
    }

    pub fn runtime(&mut self) -> &mut PythonRuntime {
        self.env()
            .runtime
            .get_or_insert_with(PythonRuntime::default)
    }

    /// Record an installed Python distribution in the current environment.
    pub fn package(&mut self, name: &str, version: &str, src: &str) {
        let name = pip::normalize_name(name);
        let version = version.trim();
        if name.is_empty() || version.is_empty() {
            return;
        }
        let env = env_mut(&mut self.inv.python, &mut self.current_env);
        match env.packages.iter().find(|p| p.name == name) {
            Some(p) if p.version == version => {}
            Some(p) => {
                let msg = format!(
                    "{name} is {} ({}) and {version} ({src}); kept the first",
                    p.version, p.source
                );
                self.note("input", msg);
            }
            None => env.packages.push(PyPackage {
                name,
                version: version.to_string(),
                source: src.to_string(),
                editable: false,
            }),
        }
    }

    /// Record an environment variable (first value wins).
    pub fn env_var(&mut self, name: &str, value: &str, src: &str) {
        let fact = Fact::new(value.to_string(), src);
        match self.inv.env.get(name) {
            Some(f) if f.value == value => {}
            Some(f) => {
                let msg = format!(
                    "{name} is {:?} ({}) and {value:?} ({src}); kept the first",
                    f.value, f.source
                );
                self.note("input", msg);
            }
            None => {
                self.inv.env.insert(name.to_string(), fact);
            }
        }
    }

    /// Errors of one kind kept; a log repeating a failure a thousand times
    /// (each with its own step number) says no more than its first few.
    pub const MAX_ERRORS_PER_KIND: usize = 20;

    /// Record an error message seen in the input.
    pub fn error(&mut self, kind: ErrorKind, text: &str, src: &str, code: Option<i64>) {
        let text = one_line(text, ERROR_TEXT_CHARS);
        if self.seen_errors.contains(&(kind, text.clone())) {
            return;
        }
        let kept = self.error_counts.entry(kind).or_default();
        if kept.0 >= Self::MAX_ERRORS_PER_KIND {
            kept.1 += 1;
            return;
        }
        kept.0 += 1;
        self.seen_errors.insert((kind, text.clone()));
        self.inv.errors.push(ObservedError {
            kind,
            text,
            source: src.to_string(),
            code,
        });
    }

    /// Derive framework builds from packages, order GPUs, attach notes.
    pub fn finish(mut self) -> Inventory {
        for env in &mut self.inv.python {
            derive_frameworks(env);
            // torch imported from a conda environment: a bare version there may
            // be conda's build of any CUDA, not PyPI's default.
            if let (Some(src), EnvKind::Reported, Some(_)) =
                (&self.conda_torch, &env.kind, &env.torch)
            {
                env.kind = EnvKind::Conda;
                env.site_packages
                    .push(format!("a conda environment ({src})"));
            }
        }
        self.inv.gpus.sort_by_key(|g| g.index);
        if !self.gpu_pos.left_out.is_empty() {
            let msg = format!(
                "{} more GPUs were left out after the first {MAX_GPUS}: a paste this large is a fleet, not one machine",
                self.gpu_pos.left_out.len()
            );
            self.note("input", msg);
        }
        for (kind, (kept, left_out)) in std::mem::take(&mut self.error_counts) {
            if left_out > 0 {
                let msg = format!(
                    "{left_out} more distinct errors of kind {kind:?} were left out after the first {kept}"
                );
                self.note("input", msg);
            }
        }
        let notes = std::mem::take(&mut self.notes);
        self.inv.notes.extend(notes.into_vec());
        self.inv
    }
}

/// Notes collected while parsing: each once, and at most [`Notes::MAX`]
/// (a paste that repeats a report would otherwise note every repeat).
#[derive(Debug, Default)]
pub struct Notes {
    list: Vec<Note>,
    seen: std::collections::HashSet<(String, String)>,
    dropped: usize,
}

impl Notes {
    pub const MAX: usize = 100;

    pub fn push(&mut self, n: Note) {
        if self.seen.contains(&(n.subject.clone(), n.message.clone())) {
            return;
        }
        if self.list.len() >= Self::MAX {
            self.dropped += 1;
            return;
        }
        self.seen.insert((n.subject.clone(), n.message.clone()));
        self.list.push(n);
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Note> {
        self.list.iter()
    }

    fn into_vec(mut self) -> Vec<Note> {
        if self.dropped > 0 {
            self.list.push(Note {
                subject: "input".to_string(),
                message: format!("{} more notes like these were left out", self.dropped),
            });
        }
        self.list
    }
}

/// Put a fact into an empty slot; a different value for a filled slot leaves
/// a note instead of overwriting.
pub fn put<T: PartialEq + Serialize>(
    slot: &mut Option<Fact<T>>,
    fact: Fact<T>,
    notes: &mut Notes,
    what: &str,
) {
    match slot {
        None => *slot = Some(fact),
        Some(old) if old.value == fact.value => {
            if earlier(&fact.source, &old.source) {
                *old = fact;
            }
        }
        Some(old) => {
            // Keep what comes first in the paste, whichever parser read it.
            let message = if earlier(&fact.source, &old.source) {
                let dropped = std::mem::replace(old, fact);
                format!(
                    "{what} is {} ({}) and {} ({}); kept the first",
                    show(&old.value),
                    old.source,
                    show(&dropped.value),
                    dropped.source
                )
            } else {
                format!(
                    "{what} is {} ({}) and {} ({}); kept the first",
                    show(&old.value),
                    old.source,
                    show(&fact.value),
                    fact.source
                )
            };
            let n = Note {
                subject: "input".to_string(),
                message,
            };
            notes.push(n);
        }
    }
}

/// True when `a` cites an earlier line of the same input than `b`
/// (`input line 3` before `input line 9`).
fn earlier(a: &str, b: &str) -> bool {
    fn split(s: &str) -> Option<(&str, usize)> {
        let (label, rest) = s.split_once(" line ")?;
        let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        Some((label, n.parse().ok()?))
    }
    match (split(a), split(b)) {
        (Some((la, na)), Some((lb, nb))) => la == lb && na < nb,
        _ => false,
    }
}

/// A value as it prints in a note: its JSON form without quotes.
fn show<T: Serialize>(v: &T) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    s.trim_matches('"').to_string()
}

/// Like [`put`] for `Option` values (torch's CUDA build, where None means CPU-only).
pub fn put_opt<T: PartialEq + Serialize>(
    slot: &mut Option<Fact<Option<T>>>,
    fact: Fact<Option<T>>,
    notes: &mut Notes,
    what: &str,
) {
    let show = |v: &Option<T>| v.as_ref().map_or("none".to_string(), show);
    match slot {
        None => *slot = Some(fact),
        Some(old) if old.value == fact.value => {}
        Some(old) => {
            let n = Note {
                subject: "input".to_string(),
                message: format!(
                    "{what} is {} ({}) and {} ({}); kept the first",
                    show(&old.value),
                    old.source,
                    show(&fact.value),
                    fact.source
                ),
            };
            notes.push(n);
        }
    }
}

/// The GPU with this index, created if not yet seen. `pos` maps an index
/// to its place in `gpus`, so a paste with thousands of rows stays linear.
/// Past [`MAX_GPUS`] a new index gets a scratch GPU that is never kept
/// (the paste is a fleet dump, not one machine; `finish` notes how many).
pub fn gpu_mut<'a>(gpus: &'a mut Vec<Gpu>, pos: &'a mut GpuPositions, index: u32) -> &'a mut Gpu {
    let stale = pos.map.len() != gpus.len()
        || pos
            .map
            .get(&index)
            .is_some_and(|&p| gpus.get(p).map_or(true, |g| g.index != index));
    if stale {
        // The list was changed behind the map's back: index it again.
        pos.map.clear();
        pos.map
            .extend(gpus.iter().enumerate().map(|(i, g)| (g.index, i)));
    }
    let p = match pos.map.get(&index) {
        Some(&p) => p,
        None if gpus.len() >= MAX_GPUS => {
            pos.left_out.insert(index);
            pos.scratch = Gpu {
                index,
                ..Default::default()
            };
            return &mut pos.scratch;
        }
        None => {
            gpus.push(Gpu {
                index,
                ..Default::default()
            });
            pos.map.insert(index, gpus.len() - 1);
            gpus.len() - 1
        }
    };
    &mut gpus[p]
}

/// GPUs one paste may describe: a node has at most a few dozen; a paste
/// with more is a fleet dump (`gpucompat fleet` reads those), and every
/// rule's cost grows with the count.
pub const MAX_GPUS: usize = 256;

/// Where each GPU index sits in the builder's GPU list.
#[derive(Debug, Default)]
pub struct GpuPositions {
    map: std::collections::HashMap<u32, usize>,
    scratch: Gpu,
    left_out: std::collections::HashSet<u32>,
}

pub fn env_mut<'a>(envs: &'a mut Vec<PythonEnv>, current: &mut Option<usize>) -> &'a mut PythonEnv {
    let idx = match *current {
        Some(i) if i < envs.len() => i,
        _ => {
            envs.push(reported_env("the pasted report"));
            envs.len() - 1
        }
    };
    *current = Some(idx);
    &mut envs[idx]
}

fn reported_env(src: &str) -> PythonEnv {
    PythonEnv {
        path: format!("the reported environment ({src})"),
        kind: EnvKind::Reported,
        active: true,
        ..Default::default()
    }
}

/// How much of a line an observed error keeps (see [`Builder::error`]).
pub const ERROR_TEXT_CHARS: usize = 300;

/// The first line of `text`, trimmed and cut to `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    if first.chars().count() <= max {
        return first.to_string();
    }
    let mut s: String = first.chars().take(max).collect();
    s.push('…');
    s
}

/// What a torch version string's local tag says: `+cu124` → Some(Some(12.4)),
/// `+cpu` → Some(None), anything else → None (unknown from the string alone).
pub fn torch_cuda_from_version(version: &str) -> Option<Option<CudaVersion>> {
    let (_, local) = version.trim().split_once('+')?;
    if local == "cpu" || local.starts_with("cpu.") || local.starts_with("cpu_") {
        return Some(None);
    }
    if local.starts_with("cu") {
        return local.parse::<CudaVersion>().ok().map(Some);
    }
    None
}

/// Fill the torch / onnxruntime / tensorflow / jax / tensorrt builds of an
/// environment from its packages where a report did not state them directly.
fn derive_frameworks(env: &mut PythonEnv) {
    if let Some(p) = env.package("torch").cloned() {
        let t = env.torch.get_or_insert_with(TorchBuild::default);
        if t.version.is_none() {
            t.version = Some(Fact::new(p.version.clone(), p.source.clone()));
        }
        if t.cuda.is_none() {
            if let Some(c) = torch_cuda_from_version(&p.version) {
                t.cuda = Some(Fact::new(c, format!("{} (version tag)", p.source)));
            }
        }
        if t.hip.is_none() {
            if let Some((_, local)) = p.version.split_once('+') {
                if let Some(rocm) = local.strip_prefix("rocm") {
                    t.hip = Some(Fact::new(
                        Some(rocm.to_string()),
                        format!("{} (version tag)", p.source),
                    ));
                }
            }
        }
    }
    let first = |env: &PythonEnv, names: &[&str]| -> Option<PyPackage> {
        names.iter().find_map(|n| env.package(n).cloned())
    };
    let fill = |slot: &mut Option<FrameworkBuild>, p: Option<PyPackage>| {
        if let Some(p) = p {
            let fb = slot.get_or_insert_with(FrameworkBuild::default);
            if fb.version.is_none() {
                fb.version = Some(Fact::new(p.version, p.source));
            }
        }
    };
    let ort = first(env, &["onnxruntime-gpu", "onnxruntime"]);
    fill(&mut env.onnxruntime, ort);
    let tf = first(
        env,
        &[
            "tensorflow",
            "tensorflow-gpu",
            "tensorflow-cpu",
            "tf-nightly",
        ],
    );
    fill(&mut env.tensorflow, tf);
    let jax = first(env, &["jax"]);
    fill(&mut env.jax, jax);
    let trt = first(env, &["tensorrt", "tensorrt-cu12", "tensorrt-cu11"]);
    fill(&mut env.tensorrt, trt);
    env.packages.sort_by(|a, b| a.name.cmp(&b.name));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_value_wins_and_conflict_is_noted() {
        let mut b = Builder::new("t");
        let d1 = "550.54.14".parse().unwrap();
        let d2 = "535.104.05".parse().unwrap();
        put(
            &mut b.inv.nvidia.driver_version,
            Fact::new(d1, "input line 1"),
            &mut b.notes,
            "driver version",
        );
        put(
            &mut b.inv.nvidia.driver_version,
            Fact::new(d2, "input line 9"),
            &mut b.notes,
            "driver version",
        );
        let inv = b.finish();
        assert_eq!(
            inv.nvidia.driver_version.unwrap().value.to_string(),
            "550.54.14"
        );
        assert_eq!(inv.notes.len(), 1);
        assert!(inv.notes[0].message.contains("input line 9"));
    }

    #[test]
    fn gpu_lookup_is_by_index_and_bounded() {
        let mut text = String::from("name, driver_version, compute_cap\n");
        for i in 0..(MAX_GPUS + 50) {
            text.push_str(&format!("Tesla T4 #{i}, 550.54.15, 7.5\n"));
        }
        let inv = ingest(&[("t".to_string(), text)]);
        assert_eq!(inv.gpus.len(), MAX_GPUS);
        assert_eq!(inv.gpus[5].name.as_ref().unwrap().value, "Tesla T4 #5");
        assert_eq!(inv.gpus[5].name.as_ref().unwrap().source, "input line 7");
        assert!(inv
            .notes
            .iter()
            .any(|n| n.message.starts_with("50 more GPUs")));
    }

    #[test]
    fn torch_tag() {
        assert_eq!(
            torch_cuda_from_version("2.5.1+cu124"),
            Some(Some(CudaVersion::new(12, 4)))
        );
        assert_eq!(torch_cuda_from_version("2.5.1+cpu"), Some(None));
        assert_eq!(torch_cuda_from_version("2.5.1"), None);
        assert_eq!(torch_cuda_from_version("2.5.1+rocm6.2"), None);
    }

    #[test]
    fn packages_derive_frameworks() {
        let mut b = Builder::new("t");
        b.package("torch", "2.5.1+cpu", "input line 3");
        b.package("onnxruntime_gpu", "1.18.0", "input line 4");
        let inv = b.finish();
        let env = &inv.python[0];
        let t = env.torch.as_ref().unwrap();
        assert_eq!(t.cuda.as_ref().unwrap().value, None);
        assert_eq!(
            env.onnxruntime
                .as_ref()
                .unwrap()
                .version
                .as_ref()
                .unwrap()
                .value,
            "1.18.0"
        );
        assert_eq!(env.packages[0].name, "onnxruntime-gpu");
    }
}
