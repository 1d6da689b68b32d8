//! The Inventory joined with the knowledge base, once: per GPU its table
//! row, compute capability, architecture, segment and whether it is
//! integrated; for the driver its OS-aware branch and kind, and the newest
//! CUDA it runs under each compatibility semantic. Every value keeps where
//! it was read. Probe, ingest, rules, tier and pin read this view; none of
//! them joins a GPU with the `gpus` table on its own.

use crate::finding::{Finding, KbRef};
use crate::inventory::{Fact, Gpu, GpuVendor, Inventory, Note, OsKind, PciDevice, Segment};
use crate::kb::tables::{ArchitectureRow, BranchKind, DriverBranchRow, GpuRow};
use crate::kb::{driver_meets, GpuLookup, Kb};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

/// How a source string that came from the knowledge base begins, so a fact
/// the knowledge base filled in can be told from one the system reported.
pub const KB_SOURCE: &str = "kb";

/// Whether a fact's source is a knowledge-base row rather than the system.
pub fn is_kb_source(source: &str) -> bool {
    source.starts_with("kb ") || source.starts_with("knowledge base")
}

/// A value with the place it was read (an inventory source or a kb row).
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub value: T,
    pub source: String,
    pub kb: Option<KbRef>,
}

impl<T: PartialEq> PartialEq for Sourced<T> {
    fn eq(&self, o: &Self) -> bool {
        self.value == o.value && self.source == o.source
    }
}

impl<T: std::fmt::Display> Sourced<T> {
    pub fn cite(&self, f: Finding, fact: &str) -> Finding {
        let f = f.evidence(fact, &self.value, &self.source);
        match &self.kb {
            Some(k) => f.kb(k.clone()),
            None => f,
        }
    }
}

/// `00000000:01:00.0` (NVML), `0000:01:00.0` (sysfs) and `01:00.0` (lspci)
/// name the same device; the one key every bus-id comparison uses.
pub fn normalize_bus_id(id: &str) -> Option<String> {
    let id = id.trim().to_ascii_lowercase();
    let (domain, rest) = match id.matches(':').count() {
        2 => {
            let (d, r) = id.split_once(':')?;
            (u32::from_str_radix(d, 16).ok()?, r.to_string())
        }
        1 => (0, id.clone()),
        _ => return None,
    };
    let (bus, devfn) = rest.split_once(':')?;
    let bus = u32::from_str_radix(bus, 16).ok()?;
    let (dev, func) = devfn.split_once('.')?;
    let dev = u32::from_str_radix(dev, 16).ok()?;
    let func = u32::from_str_radix(func, 16).ok()?;
    Some(format!("{domain:04x}:{bus:02x}:{dev:02x}.{func:x}"))
}

/// What the `gpus` table says about one GPU name or PCI id.
#[derive(Debug, Clone)]
pub enum RowMatch<'a> {
    /// One row, with how it was found (for the facts' source).
    Found(&'a GpuRow, String),
    /// A name cut short by nvidia-smi (`NVIDIA GeForce RTX 3080 Ti Lap...`):
    /// every row it could be; only what they all agree on is used.
    Prefix(Vec<&'a GpuRow>, String),
    /// Several rows fit and nothing else decides: the GPU stays unknown.
    Ambiguous(Vec<&'a GpuRow>),
    NotFound,
}

/// Names longer than this are not real GPU names (hostile input); they are not looked up.
const MAX_NAME: usize = 96;

/// The `gpus` row for a GPU: by name first, then by the PCI device id of
/// its bus address. A name two rows fit stays unknown unless the PCI id decides.
pub fn gpu_row<'a>(kb: &'a Kb, name: Option<&str>, pci: Option<&PciDevice>) -> RowMatch<'a> {
    let by_pci = || {
        let p = pci?;
        kb.gpu_by_pci_id(&p.device_id).map(|r| {
            (
                r,
                format!(
                    "{KB_SOURCE} gpus: {} (by PCI device id {})",
                    r.name, p.device_id
                ),
            )
        })
    };
    let Some(name) = name.filter(|n| n.len() <= MAX_NAME && !n.trim().is_empty()) else {
        return match by_pci() {
            Some((r, s)) => RowMatch::Found(r, s),
            None => RowMatch::NotFound,
        };
    };
    if let Some(prefix) = name.strip_suffix("...") {
        let p = prefix.trim().to_lowercase();
        let rows: Vec<&GpuRow> = kb
            .gpus
            .row
            .iter()
            .filter(|r| !p.is_empty() && r.name.to_lowercase().starts_with(&p))
            .collect();
        if let Some((r, s)) = by_pci() {
            return RowMatch::Found(r, s);
        }
        if rows.is_empty() {
            return RowMatch::NotFound;
        }
        let how = format!(
            "{KB_SOURCE} gpus: all {} rows named \"{}...\"",
            rows.len(),
            prefix.trim()
        );
        return RowMatch::Prefix(rows, how);
    }
    match kb.gpu_match(name) {
        GpuLookup::Found(r) => RowMatch::Found(r, format!("{KB_SOURCE} gpus: {}", r.name)),
        GpuLookup::Ambiguous(rows) => match by_pci() {
            Some((r, s)) => RowMatch::Found(r, s),
            // `Tesla V100` names four rows (memory, form factor) of one
            // chip: what they all agree on is known all the same.
            None if rows.iter().all(|r| {
                r.compute_capability.is_some()
                    && r.compute_capability == rows[0].compute_capability
                    && r.architecture == rows[0].architecture
            }) =>
            {
                let names: Vec<&str> = rows.iter().take(4).map(|r| r.name.as_str()).collect();
                let more = if rows.len() > 4 { ", ..." } else { "" };
                let how = format!(
                    "{KB_SOURCE} gpus: all {} rows \"{}\" fits ({}{more})",
                    rows.len(),
                    name.trim(),
                    names.join(", ")
                );
                RowMatch::Prefix(rows, how)
            }
            None => RowMatch::Ambiguous(rows),
        },
        GpuLookup::NotFound { .. } => match by_pci() {
            Some((r, s)) => RowMatch::Found(r, s),
            None => RowMatch::NotFound,
        },
    }
}

/// An NVIDIA GPU as everything after resolve sees it, from the driver's
/// list or, when the driver lists none, from the PCI bus and the knowledge base.
#[derive(Debug, Clone)]
pub struct GpuView<'a> {
    /// `GPU 0 (NVIDIA GeForce RTX 3090)`, `0000:01:00.0 (NVIDIA GeForce RTX 3090)`.
    pub label: String,
    pub name: Option<String>,
    pub cc: Option<Sourced<ComputeCapability>>,
    pub segment: Option<Sourced<Segment>>,
    pub architecture: Option<Sourced<String>>,
    /// A Tegra / integrated GPU (its own binary-compatibility rule); None when the CC is unknown.
    pub integrated: Option<bool>,
    pub row: Option<&'a GpuRow>,
    pub arch: Option<&'a ArchitectureRow>,
    pub gpu: Option<&'a Gpu>,
    pub pci: Option<&'a PciDevice>,
}

impl GpuView<'_> {
    pub fn cite_cc(&self, f: Finding) -> Finding {
        let f = match &self.cc {
            Some(cc) => cc.cite(f, &format!("{} compute capability", self.label)),
            None => f,
        };
        match self.row {
            Some(r) => f.kb(r.kb()),
            None => f,
        }
    }

    pub fn cite_name(&self, f: Finding) -> Finding {
        if let Some(g) = self.gpu.and_then(|g| g.name.as_ref()) {
            return f.fact(format!("GPU {} name", self.gpu.map_or(0, |g| g.index)), g);
        }
        if let Some(p) = self.pci {
            let id = if p.device_id.is_empty() {
                p.name.clone().unwrap_or_else(|| "unknown".into())
            } else {
                format!("{} {}", p.vendor_id, p.device_id)
            };
            let f = f.evidence(p.with_address("PCI device", ""), id, &p.source);
            return match self.row {
                Some(r) => f.kb(r.kb()),
                None => f,
            };
        }
        f
    }

    pub fn cite_segment(&self, f: Finding) -> Finding {
        match &self.segment {
            Some(s) => {
                let v = format!("{:?}", s.value).to_lowercase();
                let f = f.evidence(format!("{} segment", self.label), v, &s.source);
                match &s.kb {
                    Some(k) => f.kb(k.clone()),
                    None => f,
                }
            }
            None => f,
        }
    }

    pub fn is_datacenter(&self) -> bool {
        self.segment
            .as_ref()
            .is_some_and(|s| s.value == Segment::Datacenter)
    }

    pub fn driver_model(&self) -> Option<&Fact<crate::inventory::DriverModel>> {
        self.gpu.and_then(|g| g.driver_model.as_ref())
    }

    /// The newest driver branch that still drives this GPU, from its architecture row.
    pub fn last_branch(&self) -> Option<u32> {
        self.arch
            .and_then(|a| a.last_driver_branch.as_ref())
            .map(|b| b.branch())
    }

    /// The board memory in MiB: as the driver said, else from the table.
    pub fn memory_mib(&self) -> Option<u64> {
        self.gpu
            .and_then(|g| g.memory_mib.as_ref())
            .map(|m| m.value)
            .or_else(|| {
                self.row
                    .and_then(|r| r.vram_gib)
                    .map(|v| (v * 1024.0) as u64)
            })
    }
}

fn sourced<T: Clone>(f: &Fact<T>, kb: Option<KbRef>) -> Sourced<T> {
    Sourced {
        value: f.value.clone(),
        kb: if is_kb_source(&f.source) { kb } else { None },
        source: f.source.clone(),
    }
}

/// The one row a match pins down, or None.
fn single<'a, 'm>(m: &'m RowMatch<'a>) -> Option<(&'a GpuRow, &'m str)> {
    match m {
        RowMatch::Found(r, s) => Some((r, s.as_str())),
        _ => None,
    }
}

/// Lookups already made, by GPU name and PCI device id: a card lists the
/// same GPU many times (and hostile ones 100 000 times).
type RowMemo<'a> = std::collections::HashMap<(Option<String>, Option<String>), RowMatch<'a>>;

fn view<'a>(
    kb: &'a Kb,
    memo: &mut RowMemo<'a>,
    label: String,
    name: Option<String>,
    gpu: Option<&'a Gpu>,
    pci: Option<&'a PciDevice>,
) -> GpuView<'a> {
    let m = memo
        .entry((name.clone(), pci.map(|p| p.device_id.clone())))
        .or_insert_with(|| gpu_row(kb, name.as_deref(), pci))
        .clone();
    let found = single(&m);
    let row = found.map(|(r, _)| r);
    let rkb = row.map(|r| r.kb());
    let cc = match gpu.and_then(|g| g.compute_capability.as_ref()) {
        Some(f) => Some(sourced(f, rkb.clone())),
        None => found.and_then(|(r, s)| {
            r.compute_capability.map(|c| Sourced {
                value: c,
                source: s.to_string(),
                kb: Some(r.kb()),
            })
        }),
    };
    let segment = match gpu.and_then(|g| g.segment.as_ref()) {
        Some(f) => Some(sourced(f, rkb.clone())),
        None => found.map(|(r, s)| Sourced {
            value: r.segment,
            source: s.to_string(),
            kb: Some(r.kb()),
        }),
    };
    let arch = cc.as_ref().and_then(|c| kb.architecture(c.value));
    let architecture = match gpu.and_then(|g| g.architecture.as_ref()) {
        Some(f) => Some(sourced(f, rkb)),
        None => match (found, arch) {
            (Some((r, s)), _) => Some(Sourced {
                value: r.architecture.clone(),
                source: s.to_string(),
                kb: Some(r.kb()),
            }),
            (None, Some(a)) => Some(Sourced {
                value: a.name.clone(),
                source: format!("{KB_SOURCE} architectures: {}", a.name),
                kb: Some(a.kb()),
            }),
            _ => None,
        },
    };
    let integrated = cc.as_ref().map(|c| kb.is_integrated(c.value));
    GpuView {
        label,
        name,
        cc,
        segment,
        architecture,
        integrated,
        row,
        arch,
        gpu,
        pci,
    }
}

/// PCI devices by normalized bus id; the first device wins a repeated id.
fn bus_index<'a>(
    devices: impl Iterator<Item = &'a PciDevice>,
) -> std::collections::HashMap<String, &'a PciDevice> {
    let mut by_bus = std::collections::HashMap::new();
    for p in devices {
        if let Some(b) = normalize_bus_id(&p.address) {
            by_bus.entry(b).or_insert(p);
        }
    }
    by_bus
}

/// A GPU named without a bus id (typed in a report, or read from a tool
/// that prints none) is the PCI device of the same model when exactly one
/// unmatched device is that model; small lists only, so this stays linear.
fn same_named_pci<'a>(
    inv: &'a Inventory,
    kb: &Kb,
    g: &Gpu,
    matched: &std::collections::HashSet<&str>,
) -> Option<&'a PciDevice> {
    if g.pci_bus_id.is_some() || inv.gpus.len() > 16 || inv.pci.len() > 64 {
        return None;
    }
    let name = g.name.as_ref()?.value.to_ascii_lowercase();
    let name = name.trim_start_matches("nvidia ").trim();
    if name.is_empty() {
        return None;
    }
    let mut hits = inv.nvidia_pci().filter(|p| {
        !matched.contains(p.address.as_str())
            && (kb
                .gpu_by_pci_id(&p.device_id)
                .is_some_and(|r| r.name.to_ascii_lowercase().ends_with(name))
                || p.name
                    .as_ref()
                    .is_some_and(|n| n.to_ascii_lowercase().contains(name)))
    });
    if let Some(first) = hits.next() {
        return hits.next().is_none().then_some(first);
    }
    // One GPU named in the text and one NVIDIA device known by its address
    // alone (a kernel log line): the same GPU.
    let only = inv.nvidia_pci().find(|p| {
        !matched.contains(p.address.as_str()) && p.name.is_none() && p.device_id.is_empty()
    })?;
    (inv.gpus.len() == 1 && inv.nvidia_pci().count() == 1).then_some(only)
}

/// Every NVIDIA GPU: the driver's list, plus PCI devices the driver does not list.
pub fn gpus<'a>(inv: &'a Inventory, kb: &'a Kb) -> Vec<GpuView<'a>> {
    let mut out = Vec::new();
    // Indexes keep this linear in GPUs and PCI devices (a hostile root holds thousands).
    let by_bus = bus_index(inv.nvidia_pci());
    let mut matched: std::collections::HashSet<&str> = Default::default();
    let mut memo = RowMemo::default();
    for g in &inv.gpus {
        let name = g.name.as_ref().map(|f| f.value.clone());
        let bus = g
            .pci_bus_id
            .as_ref()
            .and_then(|b| normalize_bus_id(&b.value));
        let pci = bus
            .as_deref()
            .and_then(|b| by_bus.get(b).copied())
            .or_else(|| same_named_pci(inv, kb, g, &matched));
        if let Some(p) = pci {
            matched.insert(p.address.as_str());
        }
        let label = match &name {
            Some(n) => format!("GPU {} ({n})", g.index),
            None => format!("GPU {}", g.index),
        };
        out.push(view(kb, &mut memo, label, name, Some(g), pci));
    }
    // The driver listed GPUs but could not tell their bus ids: don't count twice.
    let unkeyed = !inv.gpus.is_empty() && inv.gpus.iter().all(|g| g.pci_bus_id.is_none());
    let mut pci_rows: std::collections::HashMap<&str, Option<&GpuRow>> = Default::default();
    for p in inv.nvidia_pci() {
        if unkeyed || matched.contains(p.address.as_str()) {
            continue;
        }
        let pci_row = *pci_rows
            .entry(p.device_id.as_str())
            .or_insert_with(|| kb.gpu_by_pci_id(&p.device_id));
        let name = pci_row.map(|r| r.name.clone()).or_else(|| p.name.clone());
        let label = match &name {
            // Named in the report, with no bus address.
            Some(n) if p.address.is_empty() => n.clone(),
            Some(n) => format!("{} ({n})", p.address),
            None if p.device_id.is_empty() => format!("{} (an NVIDIA device)", p.address),
            None => format!("{} (device {})", p.address, p.device_id),
        };
        let lookup = if pci_row.is_some() {
            None
        } else {
            name.clone()
        };
        let mut v = view(kb, &mut memo, label, lookup, None, Some(p));
        v.name = name;
        out.push(v);
    }
    out
}

/// The newest CUDA a driver runs, under one semantic, with where that was read.
#[derive(Debug, Clone)]
pub struct CudaMax {
    pub value: CudaVersion,
    pub source: String,
    pub kb: Option<KbRef>,
    /// Reported by the driver itself (NVML, nvidia-smi, cuDriverGetVersion).
    pub from_driver: bool,
    /// The driver is newer than every row of the table: the real maximum may be higher.
    pub at_least: bool,
}

impl CudaMax {
    pub fn cite(&self, f: Finding) -> Finding {
        let f = f.evidence("driver's newest CUDA", self.value, &self.source);
        match &self.kb {
            Some(k) => f.kb(k.clone()),
            None => f,
        }
    }
}

/// The OS whose driver numbers apply: WSL runs the Windows driver.
pub fn driver_os(inv: &Inventory) -> OsKind {
    if inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value) {
        OsKind::Windows
    } else {
        inv.os.kind.as_ref().map(|f| f.value).unwrap_or_default()
    }
}

/// The driver's branch on its own OS. Linux numbers carry the branch in the
/// first field (`550.54.14` is R550). Windows numbers do not (`552.22` is an
/// R550 driver): the branch is that of the Linux driver released with the
/// same toolkit as the newest Windows driver in the toolkit table at or below it.
pub fn driver_branch(kb: &Kb, d: &DriverVersion, os: OsKind) -> Option<Sourced<u32>> {
    if os != OsKind::Windows {
        return Some(Sourced {
            value: d.branch(),
            source: "the driver version's first field".into(),
            kb: None,
        });
    }
    let row = kb
        .cuda_toolkits
        .row
        .iter()
        .filter(|r| {
            r.windows_driver
                .as_ref()
                .is_some_and(|w| driver_meets(d, w))
        })
        .filter(|r| r.linux_driver.is_some())
        .max_by(|a, b| a.windows_driver.cmp(&b.windows_driver))?;
    let linux = row.linux_driver.as_ref()?;
    let win = row.windows_driver.as_ref()?;
    // Past the table's newest Windows driver nothing brackets it: unknown.
    let bracketed = kb
        .cuda_toolkits
        .row
        .iter()
        .any(|r| r.windows_driver.as_ref().is_some_and(|w| w > d));
    if !bracketed {
        return None;
    }
    Some(Sourced {
        value: linux.branch(),
        source: format!(
            "{KB_SOURCE} cuda_toolkits: {}, Windows {} ships with Linux {}",
            row.version, win, linux
        ),
        kb: Some(row.kb()),
    })
}

/// The driver as the rules see it.
#[derive(Debug, Clone)]
pub struct DriverView<'a> {
    pub version: Option<&'a Fact<DriverVersion>>,
    pub os: OsKind,
    /// R550 for `550.54.14` and for Windows `552.22`.
    pub branch: Option<Sourced<u32>>,
    pub branch_row: Option<&'a DriverBranchRow>,
    pub kind: Option<BranchKind>,
    /// The newest CUDA with no caveats (the toolkit semantic).
    pub cuda_max: Option<CudaMax>,
    /// The newest CUDA under minor-version compatibility (same major, limited features).
    pub cuda_max_minor: Option<CudaMax>,
}

impl DriverView<'_> {
    /// `R550`, OS-aware.
    pub fn branch_name(&self) -> Option<String> {
        self.branch.as_ref().map(|b| format!("R{}", b.value))
    }
}

/// The newest CUDA the driver supports with no caveats: as the driver reports
/// it, else from the toolkit table by driver version.
pub fn driver_cuda_max(inv: &Inventory, kb: &Kb) -> Option<CudaMax> {
    let os = driver_os(inv);
    if let Some(f) = &inv.nvidia.cuda_max {
        if !is_kb_source(&f.source) {
            return Some(CudaMax {
                value: f.value.major_minor(),
                source: f.source.clone(),
                kb: None,
                from_driver: true,
                at_least: false,
            });
        }
    }
    let d = inv.driver_version()?;
    let m = kb.max_cuda_for_driver(&d.value, os)?;
    Some(CudaMax {
        value: m.max_cuda,
        source: kb_cuda_source(&m.kb, &d.value),
        kb: Some(m.kb),
        from_driver: false,
        at_least: m.at_least,
    })
}

fn kb_cuda_source(k: &KbRef, d: &DriverVersion) -> String {
    format!("{KB_SOURCE} {}: {}, for driver {d}", k.table, k.row)
}

/// The newest CUDA the driver runs under minor-version compatibility: the
/// newest toolkit of the family (`minor_compat` row) whose floor the driver
/// meets. With only the driver's own CUDA known, its toolkit driver is the
/// lower bound the floor is checked against.
pub fn driver_cuda_max_minor(inv: &Inventory, kb: &Kb, toolkit: &CudaMax) -> Option<CudaMax> {
    cuda_max_minor(
        kb,
        driver_os(inv),
        inv.driver_version().map(|d| &d.value),
        toolkit,
    )
}

/// [`driver_cuda_max_minor`] for a driver given by its number (or not at all) and OS.
pub fn cuda_max_minor(
    kb: &Kb,
    os: OsKind,
    driver: Option<&DriverVersion>,
    toolkit: &CudaMax,
) -> Option<CudaMax> {
    let floor_of = |r: &crate::kb::tables::MinorCompatRow| match os {
        OsKind::Windows => r.min_windows.clone(),
        _ => r.min_linux.clone(),
    };
    let known = match driver {
        Some(d) => Some(d.clone()),
        None => kb
            .min_driver_for_cuda(&toolkit.value, os, crate::kb::Semantic::Toolkit)
            .map(|m| m.driver),
    }?;
    let row = kb
        .minor_compat
        .row
        .iter()
        .filter(|r| floor_of(r).is_some_and(|f| driver_meets(&known, &f)))
        .filter(|r| r.cuda_min.major_minor().major == toolkit.value.major)
        .max_by_key(|r| r.cuda_max)?;
    let newest = kb
        .cuda_versions()
        .into_iter()
        .filter(|v| row.cuda_min.major_minor() <= *v && *v <= row.cuda_max.major_minor())
        .max()?;
    if newest <= toolkit.value {
        return Some(toolkit.clone());
    }
    Some(CudaMax {
        value: newest,
        source: format!(
            "{KB_SOURCE} minor_compat: {}-{}, driver {} meets the floor of CUDA {}.x",
            row.cuda_min, row.cuda_max, known, toolkit.value.major
        ),
        kb: Some(row.kb()),
        from_driver: false,
        at_least: false,
    })
}

pub fn driver<'a>(inv: &'a Inventory, kb: &'a Kb) -> DriverView<'a> {
    let os = driver_os(inv);
    let version = inv.driver_version();
    let branch = version.and_then(|d| driver_branch(kb, &d.value, os));
    let branch_row = branch.as_ref().and_then(|b| kb.driver_branch(b.value));
    let cuda_max = driver_cuda_max(inv, kb);
    let cuda_max_minor = cuda_max
        .as_ref()
        .and_then(|t| driver_cuda_max_minor(inv, kb, t));
    DriverView {
        version,
        os,
        branch,
        branch_row,
        kind: branch_row.and_then(|r| r.kind),
        cuda_max,
        cuda_max_minor,
    }
}

/// The whole view for one inventory.
#[derive(Debug, Clone)]
pub struct Resolved<'a> {
    pub gpus: Vec<GpuView<'a>>,
    pub driver: DriverView<'a>,
}

pub fn resolve<'a>(inv: &'a Inventory, kb: &'a Kb) -> Resolved<'a> {
    Resolved {
        gpus: gpus(inv, kb),
        driver: driver(inv, kb),
    }
}

/// Write what the knowledge base knows into the inventory itself, each fact
/// with its knowledge row as the source, so every output (JSON card, labels,
/// prometheus) carries it: PCI device names, each GPU's compute capability,
/// architecture and segment, and the driver's newest CUDA. A GPU the table
/// cannot pin to one row stays unknown; the returned notes say why.
pub fn fill_inventory(inv: &mut Inventory, kb: &Kb) -> Vec<KbGap> {
    let mut notes = Vec::new();
    let mut names: std::collections::HashMap<String, Option<String>> = Default::default();
    for d in inv.pci.iter_mut().filter(|d| d.vendor == GpuVendor::Nvidia) {
        if d.name.is_none() {
            d.name = names
                .entry(d.device_id.clone())
                .or_insert_with(|| kb.gpu_by_pci_id(&d.device_id).map(|r| r.name.clone()))
                .clone();
        }
    }
    // Names repeat (eight of the same GPU) and hostile input may bring
    // thousands of invented ones: look each name up once, and only so many.
    const MAX_LOOKUPS: usize = 64;
    let mut seen: Vec<String> = Vec::new();
    let pci = inv.pci.clone();
    let by_bus = bus_index(pci.iter());
    for g in &mut inv.gpus {
        if g.compute_capability.is_some() && g.architecture.is_some() && g.segment.is_some() {
            continue;
        }
        let name = g.name.as_ref().map(|n| n.value.clone());
        if let Some(n) = &name {
            if !seen.contains(n) {
                if seen.len() >= MAX_LOOKUPS {
                    continue;
                }
                seen.push(n.clone());
            }
        }
        let bus = g
            .pci_bus_id
            .as_ref()
            .and_then(|b| normalize_bus_id(&b.value));
        let dev = bus.as_deref().and_then(|b| by_bus.get(b).copied());
        let subject = format!("GPU {}", g.index);
        match gpu_row(kb, name.as_deref(), dev) {
            RowMatch::Found(row, src) => {
                if g.compute_capability.is_none() {
                    g.compute_capability =
                        row.compute_capability.map(|cc| Fact::new(cc, src.clone()));
                    if g.compute_capability.is_none() {
                        notes.push(note(&subject, format!("compute capability unknown: the knowledge-base row for {} has none", row.name)));
                    }
                }
                if g.segment.is_none() {
                    g.segment = Some(Fact::new(row.segment, src.clone()));
                }
                if g.architecture.is_none() {
                    g.architecture = Some(Fact::new(row.architecture.clone(), src));
                }
            }
            RowMatch::Prefix(rows, src) => {
                let first = rows[0];
                let all = |f: &dyn Fn(&GpuRow) -> bool| rows.iter().all(|r| f(r));
                if g.compute_capability.is_none()
                    && all(&|r| r.compute_capability == first.compute_capability)
                {
                    g.compute_capability =
                        first.compute_capability.map(|c| Fact::new(c, src.clone()));
                }
                if g.architecture.is_none() && all(&|r| r.architecture == first.architecture) {
                    g.architecture = Some(Fact::new(first.architecture.clone(), src.clone()));
                }
                if g.segment.is_none() && all(&|r| r.segment == first.segment) {
                    g.segment = Some(Fact::new(first.segment, src));
                }
            }
            RowMatch::Ambiguous(rows) => {
                if g.compute_capability.is_none() {
                    let names: Vec<&str> = rows.iter().take(4).map(|r| r.name.as_str()).collect();
                    let mut n = note(
                        &subject,
                        format!(
                            "compute capability unknown: \"{}\" fits several knowledge-base rows ({})",
                            name.as_deref().unwrap_or(""),
                            names.join(", ")
                        ),
                    );
                    n.ambiguous = true;
                    notes.push(n);
                }
            }
            RowMatch::NotFound => {
                if let (None, Some(n)) = (&g.compute_capability, &name) {
                    if n.len() <= MAX_NAME {
                        notes.push(note(
                            &subject,
                            format!(
                                "compute capability unknown: \"{n}\" is not in the knowledge base"
                            ),
                        ));
                    }
                }
            }
        }
        if g.architecture.is_none() {
            if let Some(a) = g
                .compute_capability
                .as_ref()
                .and_then(|cc| kb.architecture(cc.value))
            {
                g.architecture = Some(Fact::new(
                    a.name.clone(),
                    format!("{KB_SOURCE} architectures: {}", a.name),
                ));
            }
        }
    }
    if inv.nvidia.cuda_max.is_none() {
        if let Some(d) = inv.driver_version().cloned() {
            if let Some(m) = kb.max_cuda_for_driver(&d.value, driver_os(inv)) {
                // A lower bound is not the driver's maximum: leave it unknown.
                if !m.at_least {
                    inv.nvidia.cuda_max =
                        Some(Fact::new(m.max_cuda, kb_cuda_source(&m.kb, &d.value)));
                }
            }
        }
    }
    notes
}

/// Why the knowledge base left a GPU's facts unknown.
#[derive(Debug, Clone)]
pub struct KbGap {
    pub note: Note,
    /// The name fits several rows (as opposed to none, or a row without the fact).
    pub ambiguous: bool,
}

fn note(subject: &str, message: String) -> KbGap {
    KbGap {
        note: Note {
            subject: subject.to_string(),
            message,
        },
        ambiguous: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_ids_in_every_spelling_agree() {
        let k = normalize_bus_id("0000:2a:00.0");
        assert_eq!(k.as_deref(), Some("0000:2a:00.0"));
        assert_eq!(normalize_bus_id("00000000:2A:00.0"), k);
        assert_eq!(normalize_bus_id("2a:00.0"), k);
        assert_ne!(normalize_bus_id("0000:2b:00.0"), k);
        assert_eq!(normalize_bus_id("garbage"), None);
        assert_eq!(normalize_bus_id("zz:00.0"), None);
    }

    #[test]
    fn windows_branch_comes_from_the_toolkit_pairing() {
        let kb = Kb::embedded();
        let d: DriverVersion = "552.22".parse().unwrap();
        let b = driver_branch(kb, &d, OsKind::Windows).unwrap();
        assert_eq!(b.value, 550, "{}", b.source);
        assert!(b.kb.is_some());
        // The same number on Linux is its own branch.
        assert_eq!(driver_branch(kb, &d, OsKind::Linux).unwrap().value, 552);
        let l: DriverVersion = "550.54.14".parse().unwrap();
        assert_eq!(driver_branch(kb, &l, OsKind::Linux).unwrap().value, 550);
    }
}
