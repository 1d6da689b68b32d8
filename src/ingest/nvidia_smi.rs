//! `nvidia-smi` in every form users paste: the box (79, 89 and 91 columns,
//! Windows `TCC/WDDM` / `Driver-Model` columns, `N/A` and `ERR!` cells, the
//! R610 `KMD Version` / `CUDA UMD Version` banner, MIG device tables),
//! `nvidia-smi -L`, `nvidia-smi -q`, `nvidia-smi --version`,
//! `--query-gpu ... --format=csv` (with or without header) and `topo -m`.

use std::collections::BTreeMap;

use super::clean::has;
use super::gate::Gate;
use super::{gpu_mut, put, Builder, Doc, Notes};
use crate::inventory::{DriverModel, ErrorKind, Fact, Gpu, MigInfo, OsKind};
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};

regex_fn!(
    banner_re,
    r"NVIDIA-SMI\s+(\S+)\s+(?:Driver|KMD)\s+Version:\s*([^\s|]+)(?:\s+CUDA(?:\s+UMD)?\s+Version:\s*([^\s|]*))?"
);

regex_fn!(
    bus_re,
    r"^([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])(?-u:\b)"
);

regex_fn!(mem_re, r"([0-9]+)\s*MiB\s*/\s*([0-9]+)\s*MiB");

regex_fn!(
    list_re,
    r"^GPU ([0-9]{1,3}): (.+?)(?:\s+\(UUID: (GPU-[0-9A-Fa-f-]+)\))?\s*$"
);

regex_fn!(mig_list_re, r"^MIG \S+\s+Device\s+[0-9]+:");

/// One `nvidia-smi -L` entry (`list_re` or `joined_list_re`: index, name,
/// UUID when shown): the GPU's name and UUID; returns its index.
fn listed(b: &mut Builder, c: &regex::Captures, src: &str) -> u32 {
    let idx: u32 = c[1].parse().unwrap_or(0);
    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
    put_name(g, c[2].trim(), src, &mut b.notes);
    if let Some(u) = c.get(3) {
        put(
            &mut g.uuid,
            Fact::new(u.as_str().to_string(), src),
            &mut b.notes,
            "GPU uuid",
        );
    }
    idx
}

// `nvidia-smi -L` joined onto one line by a paste: each `GPU N: NAME (UUID: ...)`.
regex_fn!(
    joined_list_re,
    r"GPU ([0-9]{1,3}): (.+?)\s+\(UUID: (GPU-[0-9A-Fa-f-]+)\)"
);

regex_fn!(q_re, r"^( *)(\S[^:]*?)\s+:\s?(.*)$");

regex_fn!(
    topo_re,
    r"^GPU[0-9]+\s+(?:X|NV[0-9]+|SYS|PIX|PXB|PHB|NODE)\s"
);

const PERSISTENCE: [&str; 6] = ["On", "Off", "WDDM", "TCC", "MCDM", "N/A"];

/// Query fields gpucompat understands, with the aliases nvidia-smi accepts.
const CSV_FIELDS: [&str; 21] = [
    "index",
    "count",
    "name",
    "gpu_name",
    "driver_version",
    "compute_cap",
    "memory.total",
    "memory.used",
    "memory.free",
    "uuid",
    "gpu_uuid",
    "pci.bus_id",
    "gpu_bus_id",
    "mig.mode.current",
    "mig.mode.pending",
    "persistence_mode",
    "driver_model.current",
    "driver_model.pending",
    "vbios_version",
    "pstate",
    "serial",
];

#[derive(Default)]
struct BoxState {
    /// The GPU whose rows are being read, and which of its rows comes next.
    gpu: Option<u32>,
    row: u8,
    has_mig_col: bool,
    in_mig_table: bool,
    /// Instances per GPU, and the line of the first one.
    mig_counts: BTreeMap<u32, (u32, String)>,
}

#[derive(Default)]
struct QState {
    active: bool,
    gpu: Option<u32>,
    next_gpu: u32,
    section: String,
}

struct CsvState {
    fields: Vec<String>,
    header_pending: bool,
    row: u32,
}

/// Compile the patterns an nvidia-smi table or a framework's device lines
/// reach, ahead of their first use.
pub(super) fn prewarm() {
    banner_re();
    bus_re();
    mem_re();
    list_re();
    topo_re();
    ggml_device_re();
    tf_props_re();
    tf_created_re();
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    let mut bx = BoxState::default();
    let mut q = QState::default();
    let mut csv: Option<CsvState> = None;
    let mut last_listed: Option<u32> = None;
    let mut list_mig: BTreeMap<u32, (u32, String)> = BTreeMap::new();
    let mut tf_device: Option<u32> = None;

    for line in &doc.lines {
        let raw = &*line.text;
        let t = raw.trim();
        if t.is_empty()
            || csv.is_none()
                && !q.active
                && !line.gate(Gate::Smi)
                && !t.starts_with(['|', '+'])
                && line.command().is_none()
        {
            continue;
        }
        let src: &str = &line.src;

        if has(t, "NVIDIA-SMI") && !has(t, "NVIDIA-SMI has failed") {
            if let Some(c) = banner_re().captures(t) {
                banner(b, c.get(1), c.get(2), c.get(3), src);
                bx = BoxState::default();
                continue;
            }
        }

        if t.starts_with('|') || t.starts_with('+') {
            box_line(b, &mut bx, t, src);
            continue;
        }
        if has(t, "MIG devices:") {
            bx.in_mig_table = true;
            continue;
        }
        if t.starts_with("Processes:") {
            bx.in_mig_table = false;
            continue;
        }

        if t.starts_with("GPU ") && t.matches("(UUID: GPU-").count() > 1 {
            for c in joined_list_re().captures_iter(t) {
                last_listed = Some(listed(b, &c, src));
            }
            continue;
        }
        if let Some(c) = t
            .starts_with("GPU ")
            .then(|| list_re().captures(t))
            .flatten()
        {
            last_listed = Some(listed(b, &c, src));
            continue;
        }
        if t.starts_with("MIG ") && mig_list_re().is_match(t) {
            if let Some(idx) = last_listed {
                list_mig.entry(idx).or_insert((0, src.to_string())).0 += 1;
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                if g.mig.is_none() {
                    g.mig = Some(Fact::new(
                        MigInfo {
                            enabled: true,
                            instances: None,
                        },
                        src,
                    ));
                }
            }
            continue;
        }

        if t.starts_with("GPU") && topo_re().is_match(t) {
            if t.split_whitespace().any(is_nvlink_cell) {
                put(
                    &mut b.inv.fabric.nvlink_active,
                    Fact::new(true, src),
                    &mut b.notes,
                    "NVLink",
                );
            }
            continue;
        }

        if has(t, "--query-gpu=") {
            if let Some(fields) = query_fields_from_command(t) {
                csv = Some(CsvState {
                    header_pending: !has(t, "noheader"),
                    fields,
                    row: 0,
                });
                continue;
            }
        }
        if let Some(state) = csv.as_mut() {
            if csv_line(b, state, t, src) {
                continue;
            }
            csv = None;
        }
        if let Some(fields) = csv_header(t) {
            csv = Some(CsvState {
                fields,
                header_pending: false,
                row: 0,
            });
            continue;
        }

        if q_line(b, &mut q, raw, src) {
            continue;
        }
        device_log(b, t, src, &mut tf_device);
    }

    for (idx, (n, first)) in bx.mig_counts.into_iter().chain(list_mig) {
        let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
        let src = g.mig.as_ref().map_or(first, |m| m.source.clone());
        let cur = g.mig.as_ref().and_then(|m| m.value.instances).unwrap_or(0);
        g.mig = Some(Fact::new(
            MigInfo {
                enabled: true,
                instances: Some(n.max(cur)),
            },
            src,
        ));
    }
}

regex_fn!(
    ggml_device_re,
    r"(?:^|[\s:])Device ([0-9]{1,2}): ([A-Za-z][A-Za-z0-9 ._()/-]{2,59}), compute capability ([0-9]{1,2}\.[0-9])\b"
);
regex_fn!(
    tf_props_re,
    r"name: (.+?) computeCapability: ([0-9]+\.[0-9]+)"
);

regex_fn!(
    tf_created_re,
    r"\(device: ([0-9]+), name: (.+?), pci bus id: [^,]+, compute capability: ([0-9]+\.[0-9]+)\)"
);

/// Frameworks' own device logs: TensorFlow's `Found device 0 with
/// properties:` / `Created TensorFlow device (... compute capability: 3.7)`
/// and trtexec's `Selected Device:` / `Compute Capability:`.
fn device_log(b: &mut Builder, t: &str, src: &str, tf_device: &mut Option<u32>) {
    if let Some(p) = t.find("Found device ") {
        *tf_device = t[p + 13..]
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok());
    }
    let named = |b: &mut Builder, idx: u32, name: &str, cc: &str| {
        let notes = &mut b.notes;
        let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
        put_name(g, name, src, notes);
        if let Ok(cc) = cc.parse::<ComputeCapability>() {
            put(
                &mut g.compute_capability,
                Fact::new(cc, src),
                notes,
                "compute capability",
            );
        }
    };
    if !has(t, "apability") && !has(t, "Selected Device") {
        return;
    }
    if let Some(c) = tf_props_re().captures(t) {
        let idx = tf_device.take().unwrap_or(0);
        named(b, idx, c[1].trim(), &c[2]);
        return;
    }
    if let Some(c) = tf_created_re().captures(t) {
        let idx = c[1].parse().unwrap_or(0);
        named(b, idx, c[2].trim(), &c[3]);
        return;
    }
    // ggml (llama.cpp, Ollama, koboldcpp): `Device 0: Tesla K80, compute capability 3.7, VMM: yes`.
    if let Some(c) = ggml_device_re().captures(t) {
        let idx = c[1].parse().unwrap_or(0);
        named(b, idx, c[2].trim(), &c[3]);
        return;
    }
    if let Some(p) = t.find("] Selected Device: ") {
        let name = t[p + 19..].trim();
        let notes = &mut b.notes;
        let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, 0);
        put_name(g, name, src, notes);
        return;
    }
    if let Some(p) = t.find("] Compute Capability: ") {
        if let Ok(cc) = t[p + 22..].trim().parse::<ComputeCapability>() {
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

fn is_nvlink_cell(s: &str) -> bool {
    s.len() > 2 && s.starts_with("NV") && s[2..].bytes().all(|b| b.is_ascii_digit())
}

fn banner(
    b: &mut Builder,
    smi: Option<regex::Match>,
    driver: Option<regex::Match>,
    cuda: Option<regex::Match>,
    src: &str,
) {
    put(
        &mut b.inv.nvidia.smi_ok,
        Fact::new(true, src),
        &mut b.notes,
        "nvidia-smi answered",
    );
    let driver_s = driver.map_or("", |m| m.as_str());
    match driver_s.parse::<DriverVersion>() {
        Ok(d) => put(
            &mut b.inv.nvidia.driver_version,
            Fact::new(d, src),
            &mut b.notes,
            "driver version",
        ),
        Err(_) => b.note(
            "nvidia-smi",
            format!("driver version {driver_s:?} at {src} is not a version"),
        ),
    }
    let smi_s = smi.map_or("", |m| m.as_str());
    if !smi_s.is_empty() && !driver_s.is_empty() && smi_s != driver_s {
        // On Linux nvidia-smi refuses to run when its library and the kernel
        // driver differ, so two numbers in the banner mean WSL: the Linux
        // user-space libraries of a Windows driver.
        if b.inv.wsl.is_wsl.is_none() {
            b.inv.wsl.is_wsl = Some(Fact::new(true, src).with_note(format!(
                "NVIDIA-SMI {smi_s} differs from the driver {driver_s}, as under WSL"
            )));
        }
    }
    match cuda.map(|m| m.as_str().trim_matches('|')) {
        None => {}
        Some(v) => {
            match v.parse::<CudaVersion>() {
                Ok(c) => put(
                    &mut b.inv.nvidia.cuda_max,
                    Fact::new(c, src),
                    &mut b.notes,
                    "driver's CUDA version",
                ),
                Err(_) => {
                    b.note(
                    "nvidia-smi",
                    format!("CUDA Version at {src} reads {v:?}: the driver's CUDA version is unknown"),
                );
                    // nvidia-smi prints ERR! there when it cannot get the version from
                    // libcuda (cuDriverGetVersion): the CUDA driver library failed to load.
                    if v.eq_ignore_ascii_case("ERR!") {
                        let wsl = b.inv.wsl.is_wsl.as_ref().is_some_and(|w| w.value);
                        let kind = if wsl {
                            ErrorKind::WslLibcuda
                        } else {
                            ErrorKind::LibcudaMissing
                        };
                        b.error(kind, "nvidia-smi: CUDA Version: ERR!", src, None);
                    }
                }
            }
        }
    }
}

fn put_name(g: &mut Gpu, name: &str, src: &str, notes: &mut Notes) {
    let name = name.trim();
    if name.is_empty() {
        return;
    }
    let truncated = name.ends_with("...");
    if let Some(old) = &g.name {
        // nvidia-smi's box cuts long names; a full name from -L or collect_env wins.
        if let Some(prefix) = old.value.strip_suffix("...") {
            if !truncated && name.starts_with(prefix.trim_end()) {
                g.name = Some(Fact::new(name.to_string(), src));
            }
            return;
        }
        if truncated
            && old
                .value
                .starts_with(name.trim_end_matches("...").trim_end())
        {
            return;
        }
    }
    let mut f = Fact::new(name.to_string(), src);
    if truncated {
        f = f.with_note("nvidia-smi cut the name short");
    }
    put(&mut g.name, f, notes, "GPU name");
}

fn cells(t: &str) -> Vec<&str> {
    t.trim_matches('|').split('|').map(str::trim).collect()
}

/// The note on the operating system a table's driver-model column implies:
/// Windows, or WSL under it (the context stage reads it back).
pub(super) const DRIVER_MODEL_NOTE: &str = "nvidia-smi shows the Windows driver model column";

fn box_line(b: &mut Builder, bx: &mut BoxState, t: &str, src: &str) {
    if t.starts_with('+') || t.starts_with("|=") || t.starts_with("|-") {
        return;
    }
    if has(t, "TCC/WDDM") || has(t, "Driver-Model") {
        put(
            &mut b.inv.os.kind,
            Fact::new(OsKind::Windows, src).with_note(DRIVER_MODEL_NOTE),
            &mut b.notes,
            "operating system",
        );
    }
    if has(t, "MIG M.") {
        bx.has_mig_col = true;
    }
    if has(t, "Persistence-M") || has(t, "TCC/WDDM") || has(t, "Driver-Model") {
        bx.in_mig_table = false;
        return;
    }
    if has(t, "MIG devices:") {
        bx.in_mig_table = true;
        return;
    }
    if has(t, "Processes:") {
        bx.in_mig_table = false;
        bx.gpu = None;
        return;
    }
    let c = cells(t);
    let first: Vec<&str> = c.first().map_or(vec![], |s| s.split_whitespace().collect());

    if bx.in_mig_table {
        // | GPU  GI  CI  MIG | ... : four integers in the first cell.
        if first.len() == 4 && first.iter().all(|s| s.parse::<u32>().is_ok()) {
            if let Ok(g) = first[0].parse::<u32>() {
                bx.mig_counts.entry(g).or_insert((0, src.to_string())).0 += 1;
            }
        }
        return;
    }

    if let Some(bus) = c.get(1).and_then(|s| bus_re().captures(s)) {
        let Some(idx) = first.first().and_then(|s| s.parse::<u32>().ok()) else {
            return;
        };
        let last = first.last().copied().unwrap_or("");
        let (name_toks, pers) = if first.len() > 2 && PERSISTENCE.contains(&last) {
            (&first[1..first.len() - 1], Some(last))
        } else {
            (&first[1..], None)
        };
        let name = name_toks.join(" ");
        let notes = &mut b.notes;
        let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
        put_name(g, &name, src, notes);
        put(
            &mut g.pci_bus_id,
            Fact::new(bus[1].to_string(), src),
            notes,
            "GPU bus id",
        );
        let model = match pers {
            Some("On") => {
                put(
                    &mut g.persistence,
                    Fact::new(true, src),
                    notes,
                    "persistence",
                );
                None
            }
            Some("Off") => {
                put(
                    &mut g.persistence,
                    Fact::new(false, src),
                    notes,
                    "persistence",
                );
                None
            }
            Some("WDDM") => Some(DriverModel::Wddm),
            Some("TCC") => Some(DriverModel::Tcc),
            Some("MCDM") => Some(DriverModel::Mcdm),
            _ => None,
        };
        if let Some(m) = model {
            put(
                &mut g.driver_model,
                Fact::new(m, src),
                notes,
                "driver model",
            );
            put(
                &mut b.inv.nvidia.driver_model,
                Fact::new(m, src),
                notes,
                "driver model",
            );
        }
        bx.gpu = Some(idx);
        bx.row = 1;
        return;
    }

    let Some(idx) = bx.gpu else { return };
    match bx.row {
        1 => {
            if let Some(m) = c.get(1).and_then(|s| mem_re().captures(s)) {
                if let Ok(total) = m[2].parse::<u64>() {
                    let notes = &mut b.notes;
                    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                    put(
                        &mut g.memory_mib,
                        Fact::new(total, src),
                        notes,
                        "GPU memory",
                    );
                }
            }
            bx.row = 2;
        }
        2 => {
            if bx.has_mig_col {
                let last = c.last().copied().unwrap_or("");
                let enabled = match last {
                    "Enabled" => Some(true),
                    "Disabled" => Some(false),
                    _ => None,
                };
                if let Some(e) = enabled {
                    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                    if g.mig.is_none() {
                        g.mig = Some(Fact::new(
                            MigInfo {
                                enabled: e,
                                instances: None,
                            },
                            src,
                        ));
                    }
                }
            }
            bx.row = 3;
        }
        _ => {}
    }
}

fn query_fields_from_command(t: &str) -> Option<Vec<String>> {
    let start = t.find("--query-gpu=")? + "--query-gpu=".len();
    let rest = &t[start..];
    let rest = rest.trim_start_matches(['"', '\'']);
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
        .unwrap_or(rest.len());
    let fields: Vec<String> = rest[..end]
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    (!fields.is_empty()).then_some(fields)
}

/// `name, driver_version, compute_cap, memory.total [MiB]`
fn csv_header(t: &str) -> Option<Vec<String>> {
    if !t.contains(',') || !(has(t, "name") || has(t, "driver_version") || has(t, "compute_cap")) {
        return None;
    }
    let fields: Vec<String> = t
        .split(',')
        .map(|s| {
            let s = s.trim();
            s.split(" [").next().unwrap_or(s).trim().to_string()
        })
        .collect();
    let known = fields.iter().all(|f| CSV_FIELDS.contains(&f.as_str()));
    let useful = fields.iter().any(|f| {
        matches!(
            f.as_str(),
            "name" | "gpu_name" | "driver_version" | "compute_cap"
        )
    });
    (fields.len() >= 2 && known && useful).then_some(fields)
}

/// One line while a CSV block is open; false when the line ends the block.
fn csv_line(b: &mut Builder, st: &mut CsvState, t: &str, src: &str) -> bool {
    let vals: Vec<&str> = t.split(',').map(str::trim).collect();
    if vals.len() != st.fields.len() {
        return false;
    }
    if st.header_pending {
        st.header_pending = false;
        // nvidia-smi names its columns after the query's fields, `gpu_name` as
        // `name`, and adds units (`memory.total [MiB]`).
        let named = |v: &str, f: &str| {
            let v = v.split(" [").next().unwrap_or(v);
            v == f || f.strip_prefix("gpu_") == Some(v)
        };
        let header = vals.iter().zip(&st.fields).all(|(v, f)| named(v, f));
        if header || csv_header(t).is_some() {
            return true;
        }
    }
    let idx = st
        .fields
        .iter()
        .position(|f| f == "index")
        .and_then(|p| vals.get(p))
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(st.row);
    st.row += 1;
    for (f, v) in st.fields.iter().zip(&vals) {
        let v = *v;
        if v.is_empty() || v.starts_with('[') || v == "N/A" {
            continue;
        }
        let notes = &mut b.notes;
        match f.as_str() {
            "name" | "gpu_name" => {
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                put_name(g, v, src, notes);
            }
            "driver_version" => match v.parse::<DriverVersion>() {
                Ok(d) => put(
                    &mut b.inv.nvidia.driver_version,
                    Fact::new(d, src),
                    notes,
                    "driver version",
                ),
                Err(_) => continue,
            },
            "compute_cap" => {
                if let Ok(cc) = v.parse::<ComputeCapability>() {
                    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                    put(
                        &mut g.compute_capability,
                        Fact::new(cc, src),
                        notes,
                        "compute capability",
                    );
                }
            }
            "memory.total" => {
                let n = v.trim_end_matches("MiB").trim();
                if let Ok(n) = n.parse::<u64>() {
                    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                    put(&mut g.memory_mib, Fact::new(n, src), notes, "GPU memory");
                }
            }
            "uuid" | "gpu_uuid" => {
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                put(
                    &mut g.uuid,
                    Fact::new(v.to_string(), src),
                    notes,
                    "GPU uuid",
                );
            }
            "pci.bus_id" | "gpu_bus_id" => {
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                put(
                    &mut g.pci_bus_id,
                    Fact::new(v.to_string(), src),
                    notes,
                    "GPU bus id",
                );
            }
            "mig.mode.current" => {
                let e = match v {
                    "Enabled" => true,
                    "Disabled" => false,
                    _ => continue,
                };
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                if g.mig.is_none() {
                    g.mig = Some(Fact::new(
                        MigInfo {
                            enabled: e,
                            instances: None,
                        },
                        src,
                    ));
                }
            }
            "persistence_mode" => {
                let e = match v {
                    "Enabled" => true,
                    "Disabled" => false,
                    _ => continue,
                };
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                put(&mut g.persistence, Fact::new(e, src), notes, "persistence");
            }
            "driver_model.current" => {
                if let Some(m) = driver_model(v) {
                    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                    put(
                        &mut g.driver_model,
                        Fact::new(m, src),
                        notes,
                        "driver model",
                    );
                }
            }
            _ => {}
        }
    }
    true
}

fn driver_model(v: &str) -> Option<DriverModel> {
    match v {
        "WDDM" => Some(DriverModel::Wddm),
        "TCC" => Some(DriverModel::Tcc),
        "MCDM" => Some(DriverModel::Mcdm),
        _ => None,
    }
}

/// One line of `nvidia-smi -q` or `nvidia-smi --version`; false when the
/// line is not part of such output.
fn q_line(b: &mut Builder, q: &mut QState, raw: &str, src: &str) -> bool {
    let t = raw.trim();
    if has(t, "NVSMI LOG") {
        q.active = true;
        return true;
    }
    let indent = raw.len() - raw.trim_start().len();
    if let Some(c) = has(raw, " :").then(|| q_re().captures(raw)).flatten() {
        let key = c[2].trim();
        let val = c[3].trim();
        let top_anchor = indent == 0
            && matches!(
                key,
                "Driver Version"
                    | "KMD Version"
                    | "Attached GPUs"
                    | "NVIDIA-SMI version"
                    | "DRIVER version"
            );
        if !q.active && !top_anchor {
            return false;
        }
        q.active = true;
        q_value(b, q, indent, key, val, src);
        return true;
    }
    if !q.active {
        return false;
    }
    if indent == 0 {
        if let Some(rest) = t.strip_prefix("GPU ") {
            if bus_re().is_match(rest.trim()) {
                let idx = q.next_gpu;
                q.next_gpu += 1;
                q.gpu = Some(idx);
                q.section.clear();
                let notes = &mut b.notes;
                let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
                put(
                    &mut g.pci_bus_id,
                    Fact::new(rest.trim().to_string(), src),
                    notes,
                    "GPU bus id",
                );
                return true;
            }
        }
        if t.starts_with('=') {
            return true;
        }
        q.active = false;
        return false;
    }
    // An indented line without a value: a section header (`MIG Mode`, `Fabric`).
    if indent <= 4 {
        q.section = t.to_string();
    }
    true
}

fn q_value(b: &mut Builder, q: &mut QState, indent: usize, key: &str, val: &str, src: &str) {
    let first = val.split_whitespace().next().unwrap_or("");
    let notes = &mut b.notes;
    if indent == 0 {
        match key {
            "Driver Version" | "KMD Version" | "DRIVER version" => {
                if let Ok(d) = first.parse::<DriverVersion>() {
                    put(
                        &mut b.inv.nvidia.driver_version,
                        Fact::new(d, src),
                        notes,
                        "driver version",
                    );
                    put(
                        &mut b.inv.nvidia.smi_ok,
                        Fact::new(true, src),
                        notes,
                        "nvidia-smi answered",
                    );
                }
            }
            "CUDA Version" | "CUDA UMD Version" => {
                if let Ok(c) = first.parse::<CudaVersion>() {
                    put(
                        &mut b.inv.nvidia.cuda_max,
                        Fact::new(c, src),
                        notes,
                        "driver's CUDA version",
                    );
                }
            }
            _ => {}
        }
        return;
    }
    let Some(idx) = q.gpu else { return };
    if indent <= 4 {
        q.section.clear();
        if val.is_empty() {
            q.section = key.to_string();
            return;
        }
    }
    let g = gpu_mut(&mut b.inv.gpus, &mut b.gpu_pos, idx);
    match (q.section.as_str(), key) {
        ("", "Product Name") => put_name(g, val, src, notes),
        ("", "Product Brand") => put(
            &mut g.brand,
            Fact::new(val.to_lowercase().replace(' ', "_"), src),
            notes,
            "GPU brand",
        ),
        ("", "Product Architecture") => put(
            &mut g.architecture,
            Fact::new(val.to_string(), src),
            notes,
            "GPU architecture",
        ),
        ("", "Persistence Mode") => match val {
            "Enabled" => put(
                &mut g.persistence,
                Fact::new(true, src),
                notes,
                "persistence",
            ),
            "Disabled" => put(
                &mut g.persistence,
                Fact::new(false, src),
                notes,
                "persistence",
            ),
            _ => {}
        },
        ("", "GPU UUID") => put(
            &mut g.uuid,
            Fact::new(val.to_string(), src),
            notes,
            "GPU uuid",
        ),
        ("MIG Mode", "Current") => {
            let e = match val {
                "Enabled" => true,
                "Disabled" => false,
                _ => return,
            };
            if g.mig.is_none() {
                g.mig = Some(Fact::new(
                    MigInfo {
                        enabled: e,
                        instances: None,
                    },
                    src,
                ));
            }
        }
        ("Driver Model", "Current") => {
            if let Some(m) = driver_model(val) {
                put(
                    &mut g.driver_model,
                    Fact::new(m, src),
                    notes,
                    "driver model",
                );
            }
        }
        ("FB Memory Usage", "Total") => {
            if let Ok(n) = first.parse::<u64>() {
                put(&mut g.memory_mib, Fact::new(n, src), notes, "GPU memory");
            }
        }
        _ => {}
    }
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
    fn cuda_version_err_means_libcuda_failed() {
        // WSL (library and driver numbers differ): the Windows driver's libcuda failed.
        let inv = run("| NVIDIA-SMI 545.46                 Driver Version: 546.80       CUDA Version: ERR!     |\n");
        assert!(inv.nvidia.cuda_max.is_none());
        assert_eq!(inv.errors.len(), 1, "{:?}", inv.errors);
        assert_eq!(inv.errors[0].kind, ErrorKind::WslLibcuda);
        assert_eq!(inv.errors[0].source, "input line 1");
        // Plain Linux: the CUDA driver library failed to load.
        let inv =
            run("| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: ERR!     |\n");
        assert_eq!(inv.errors.len(), 1);
        assert_eq!(inv.errors[0].kind, ErrorKind::LibcudaMissing);
        // Near miss: a version is no error, and N/A is unknown without blame.
        let inv =
            run("| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: 12.4     |\n");
        assert!(inv.errors.is_empty());
        let inv =
            run("| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: N/A      |\n");
        assert!(inv.errors.is_empty());
        assert!(inv.nvidia.cuda_max.is_none());
    }

    // rossumai/nvgpu#15 (R450, 79 columns)
    const BOX_79: &str = "Wed Jul 29 21:51:11 2020
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 450.57       Driver Version: 450.57       CUDA Version: 11.0     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  TITAN Xp            On   | 00000000:17:00.0 Off |                  N/A |
| 23%   39C    P8     9W / 250W |      7MiB / 12196MiB |      0%      Default |
|                               |                      |                  N/A |
+-------------------------------+----------------------+----------------------+
";

    #[test]
    fn box_79_columns() {
        let inv = run(BOX_79);
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "450.57"
        );
        let cuda = inv.nvidia.cuda_max.as_ref().unwrap();
        assert_eq!(cuda.value, CudaVersion::new(11, 0));
        assert_eq!(cuda.source, "input line 3");
        let g = &inv.gpus[0];
        assert_eq!(g.name.as_ref().unwrap().value, "TITAN Xp");
        assert_eq!(g.name.as_ref().unwrap().source, "input line 9");
        assert_eq!(g.memory_mib.as_ref().unwrap().value, 12196);
        assert!(g.persistence.as_ref().unwrap().value);
        assert_eq!(g.pci_bus_id.as_ref().unwrap().value, "00000000:17:00.0");
        assert!(g.mig.is_none());
        assert!(inv.wsl.is_wsl.is_none());
    }

    // Frogging-Family/nvidia-all#212 (R550, 91 columns)
    const BOX_91: &str = "+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.40.07              Driver Version: 550.40.07      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 4070        Off |   00000000:2D:00.0  On |                  N/A |
|  0%   36C    P5             17W /  200W |     430MiB /  12282MiB |      1%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+
";

    #[test]
    fn box_91_columns() {
        let inv = run(BOX_91);
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "12.4"
        );
        let g = &inv.gpus[0];
        assert_eq!(g.name.as_ref().unwrap().value, "NVIDIA GeForce RTX 4070");
        assert_eq!(g.memory_mib.as_ref().unwrap().value, 12282);
        assert!(!g.persistence.as_ref().unwrap().value);
    }

    // sgl-project/sglang#27487 (R610 banner)
    #[test]
    fn r610_banner() {
        let inv = run("| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |
+-----------------------------------------+------------------------+----------------------+
|   0  NVIDIA B200                    On  |   00000000:63:00.0 Off |                    0 |
| N/A   26C    P0            139W / 1000W |       0MiB / 183359MiB |      0%      Default |
|                                         |                        |             Disabled |
");
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "610.43.02"
        );
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "13.3"
        );
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "NVIDIA B200");
        assert_eq!(inv.gpus[0].memory_mib.as_ref().unwrap().value, 183359);
    }

    // microsoft/WSL#11589: WSL, CUDA Version ERR!
    #[test]
    fn wsl_err_banner() {
        let inv = run("| NVIDIA-SMI 545.46   Driver Version: 546.80   CUDA Version: ERR! |");
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "546.80"
        );
        assert!(inv.nvidia.cuda_max.is_none());
        assert!(inv.notes.iter().any(|n| n.message.contains("ERR!")));
        assert!(inv.wsl.is_wsl.as_ref().unwrap().value);
    }

    #[test]
    fn windows_wddm_row() {
        let inv = run("| NVIDIA-SMI 560.94                 Driver Version: 560.94         CUDA Version: 12.6     |
| GPU  Name                  Driver-Model | Bus-Id          Disp.A | Volatile Uncorr. ECC |
|   0  NVIDIA GeForce RTX 4090      WDDM  |   00000000:01:00.0  On |                  Off |
");
        assert_eq!(inv.os.kind.as_ref().unwrap().value, OsKind::Windows);
        assert_eq!(
            inv.gpus[0].driver_model.as_ref().unwrap().value,
            DriverModel::Wddm
        );
        assert_eq!(
            inv.gpus[0].name.as_ref().unwrap().value,
            "NVIDIA GeForce RTX 4090"
        );
    }

    #[test]
    fn old_banner_without_cuda_and_cut_line() {
        let inv = run("| NVIDIA-SMI 331.62     Driver Version: 331.62         |\n| NVIDIA-SMI 470.86       Driver Version: 470.86       CUDA Version: 11.4");
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "331.62"
        );
        // The second banner disagrees; the first is kept and the conflict noted.
        assert!(inv.notes.iter().any(|n| n.message.contains("470.86")));
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "11.4"
        );
    }

    #[test]
    fn mig_table_counts_instances() {
        let inv = run("| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|                                         |                      |               MIG M. |
|   0  NVIDIA A100-SXM4-40GB          On  | 00000000:07:00.0 Off |                   On |
| N/A   32C    P0              42W / 400W |     87MiB / 40960MiB |     N/A      Default |
|                                         |                      |              Enabled |
+-----------------------------------------+----------------------+----------------------+
| MIG devices:                                                                          |
+------------------+--------------------------------+-----------+-----------------------+
| GPU   GI   CI  MIG |                   Memory-Usage |        Vol|      Shared           |
|==================+================================+===========+=======================|
|  0    1   0   0  |              25MiB / 19968MiB  | 42      0 |  3   0    2    0    0 |
|  0    2   0   1  |              25MiB / 19968MiB  | 42      0 |  3   0    2    0    0 |
");
        let m = &inv.gpus[0].mig.as_ref().unwrap().value;
        assert!(m.enabled);
        assert_eq!(m.instances, Some(2));
    }

    #[test]
    fn mig_enabled_no_instances() {
        let inv = run("| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|                                         |                      |               MIG M. |
|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                   On |
| N/A   32C    P0              70W / 700W |      0MiB / 81559MiB |     N/A      Default |
|                                         |                      |              Enabled |
");
        let m = &inv.gpus[0].mig.as_ref().unwrap().value;
        assert!(m.enabled);
        assert_eq!(m.instances, None);
    }

    #[test]
    fn list_and_mig_list() {
        let inv = run(
            "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5d5b6a2c-1111-2222-3333-444455556666)
  MIG 1g.5gb      Device  0: (UUID: MIG-c6d4f1e2-aaaa-bbbb-cccc-ddddeeeeffff)
  MIG 1g.5gb      Device  1: (UUID: MIG-c6d4f1e2-aaaa-bbbb-cccc-ddddeeeefff0)
GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-00000000-1111-2222-3333-444455556666)",
        );
        assert_eq!(inv.gpus.len(), 2);
        assert_eq!(
            inv.gpus[0].uuid.as_ref().unwrap().value,
            "GPU-5d5b6a2c-1111-2222-3333-444455556666"
        );
        assert_eq!(inv.gpus[0].mig.as_ref().unwrap().value.instances, Some(2));
        assert!(inv.gpus[1].mig.is_none());
    }

    #[test]
    fn query_csv_with_header_and_noheader() {
        let inv = run("name, driver_version, compute_cap, memory.total [MiB]
NVIDIA GeForce RTX 4090, 550.54.14, 8.9, 24564 MiB
NVIDIA GeForce RTX 3090, 550.54.14, 8.6, 24576 MiB");
        assert_eq!(inv.gpus.len(), 2);
        assert_eq!(
            inv.gpus[1].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(8, 6)
        );
        assert_eq!(inv.gpus[0].memory_mib.as_ref().unwrap().value, 24564);
        let inv =
            run("$ nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader\nTesla T4, 7.5\n");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "Tesla T4");
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().source,
            "input line 2"
        );
    }

    #[test]
    fn csv_error_text_is_not_data() {
        let inv = run("$ nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader\nFailed to initialize NVML: Driver/library version mismatch\n");
        assert!(inv.gpus.is_empty());
    }

    // pastebin LQUEyJgc / nvidia-docker#954 (470, -q)
    #[test]
    fn query_q() {
        let inv = run("==============NVSMI LOG==============

Timestamp                                 : Mon Oct  6 19:40:28 2025
Driver Version                            : 470.256.02
CUDA Version                              : 11.4

Attached GPUs                             : 1
GPU 00000000:01:00.0
    Product Name                          : NVIDIA GeForce GTX 660
    Product Brand                         : GeForce
    Display Mode                          : N/A
    Persistence Mode                      : Disabled
    MIG Mode
        Current                           : N/A
        Pending                           : N/A
    FB Memory Usage
        Total                             : 1996 MiB
        Used                              : 1 MiB
");
        assert_eq!(
            inv.nvidia
                .driver_version
                .as_ref()
                .unwrap()
                .value
                .to_string(),
            "470.256.02"
        );
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "11.4"
        );
        let g = &inv.gpus[0];
        assert_eq!(g.name.as_ref().unwrap().value, "NVIDIA GeForce GTX 660");
        assert_eq!(g.brand.as_ref().unwrap().value, "geforce");
        assert_eq!(g.memory_mib.as_ref().unwrap().value, 1996);
        assert!(!g.persistence.as_ref().unwrap().value);
        assert!(g.mig.is_none());
    }

    #[test]
    fn q_r610_keys() {
        let inv = run("KMD Version                               : 610.43.02\nCUDA UMD Version                          : 13.3\n");
        assert_eq!(
            inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
            "13.3"
        );
    }

    #[test]
    fn topo_nvlink() {
        let inv = run("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV12\t0-63\nGPU1\tNV12\t X \t0-63\n");
        assert!(inv.fabric.nvlink_active.as_ref().unwrap().value);
        let inv = run("GPU0\t X \tSYS\t0-63\nGPU1\tSYS\t X \t0-63\n");
        assert!(inv.fabric.nvlink_active.is_none());
    }

    #[test]
    fn framework_device_logs() {
        let inv = run("2020-03-17 08:06:02.691797: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1544] Found device 0 with properties: 
pciBusID: 0000:17:00.0 name: TITAN RTX computeCapability: 7.5
> I tensorflow/core/common_runtime/gpu/gpu_device.cc:838] Creating TensorFlow device (/gpu:1) -> (device: 1, name: Tesla K80, pci bus id: 0000:07:00.0, compute capability: 3.7)
[07/22/2022-13:25:12] [I] Selected Device: NVIDIA GeForce GTX 1050 Ti");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "TITAN RTX");
        assert_eq!(
            inv.gpus[0].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(7, 5)
        );
        assert_eq!(
            inv.gpus[1].compute_capability.as_ref().unwrap().value,
            ComputeCapability::new(3, 7)
        );
        // A different name for GPU 0 keeps the first and notes the conflict.
        assert_eq!(inv.notes.len(), 1);
    }

    #[test]
    fn truncated_name_gives_way_to_full_name() {
        let inv = run("|   0  NVIDIA GeForce RTX 3080 Ti Laptop...  Off | 00000000:01:00.0 Off |                  N/A |
GPU 0: NVIDIA GeForce RTX 3080 Ti Laptop GPU (UUID: GPU-1)");
        assert_eq!(
            inv.gpus[0].name.as_ref().unwrap().value,
            "NVIDIA GeForce RTX 3080 Ti Laptop GPU"
        );
        assert!(inv.notes.is_empty());
    }

    #[test]
    fn processes_table_is_not_a_gpu() {
        let inv = run("| Processes:                                                                              |
|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |
|    0   N/A  N/A      1234      G   /usr/lib/xorg/Xorg                           200MiB |");
        assert!(inv.gpus.is_empty());
    }
}
