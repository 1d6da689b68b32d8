//! `nvidia-smi --query-gpu ... --format=csv,noheader,nounits`: the last
//! fallback when NVML cannot be loaded. Only the CSV query is used; the
//! banner is never parsed here (R610 renamed its fields).

use crate::inventory::ErrorKind;

/// The fields asked for, in order.
pub const QUERY_FIELDS: &[&str] = &[
    "index",
    "name",
    "uuid",
    "driver_version",
    "compute_cap",
    "memory.total",
    "pci.bus_id",
];

/// One GPU line of the CSV answer; fields that read `[N/A]` are None.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SmiRow {
    pub index: u32,
    pub name: Option<String>,
    pub uuid: Option<String>,
    pub driver_version: Option<String>,
    pub compute_cap: Option<String>,
    pub memory_mib: Option<u64>,
    pub pci_bus_id: Option<String>,
}

/// What nvidia-smi printed: GPU rows, and the lines that were not rows
/// (error texts go to stdout when NVML fails).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SmiAnswer {
    pub rows: Vec<SmiRow>,
    pub other_lines: Vec<String>,
}

/// The `--query-gpu=` argument for `fields`.
pub fn query_arg(fields: &[&str]) -> String {
    format!("--query-gpu={}", fields.join(","))
}

/// Parse CSV lines answering a query for `fields` (a subset of
/// [`QUERY_FIELDS`], in that order). Lines of the wrong shape are kept as
/// `other_lines`, never guessed at.
pub fn parse_csv(out: &str, fields: &[&str]) -> SmiAnswer {
    let mut ans = SmiAnswer::default();
    for line in out.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let row = (cells.len() == fields.len())
            .then(|| row_from(&cells, fields))
            .flatten();
        match row {
            Some(r) => ans.rows.push(r),
            None => ans.other_lines.push(line.to_string()),
        }
    }
    ans
}

fn row_from(cells: &[&str], fields: &[&str]) -> Option<SmiRow> {
    let mut row = SmiRow::default();
    let mut have_index = false;
    for (field, cell) in fields.iter().zip(cells) {
        let value = known(cell);
        match *field {
            "index" => {
                row.index = cell.parse().ok()?;
                have_index = true;
            }
            "name" => row.name = value,
            "uuid" => row.uuid = value,
            "driver_version" => row.driver_version = value,
            "compute_cap" => row.compute_cap = value,
            "memory.total" => {
                row.memory_mib =
                    value.and_then(|v| v.trim_end_matches("MiB").trim().parse::<u64>().ok())
            }
            "pci.bus_id" => row.pci_bus_id = value,
            _ => {}
        }
    }
    have_index.then_some(row)
}

fn known(cell: &str) -> Option<String> {
    let c = cell.trim();
    let unknown = c.is_empty()
        || c.eq_ignore_ascii_case("[n/a]")
        || c.eq_ignore_ascii_case("n/a")
        || c.starts_with("[Unknown")
        || c.eq_ignore_ascii_case("[not supported]")
        || c == "ERR!";
    (!unknown).then(|| c.to_string())
}

/// An older driver (before compute_cap existed) rejects the whole query.
pub fn field_rejected(text: &str) -> bool {
    text.contains("is not a valid field to query")
}

/// What an error text printed by nvidia-smi means.
pub fn classify_error(line: &str) -> Option<ErrorKind> {
    let l = line.to_ascii_lowercase();
    if l.contains("driver/library version mismatch") {
        Some(ErrorKind::NvmlDriverLibraryMismatch)
    } else if l.contains("couldn't communicate with the nvidia driver") {
        Some(ErrorKind::SmiNoDriver)
    } else if l.contains("no devices were found") {
        Some(ErrorKind::NoDevice)
    } else if l.contains("failed to initialize nvml") {
        Some(ErrorKind::InitFailed)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_gpus_nounits() {
        let out = "0, NVIDIA H100 80GB HBM3, GPU-5d5b7c1e-0a0e-4c5b-9f0b-3c1a2b3c4d5e, 550.54.15, 9.0, 81559, 00000000:18:00.0\n\
                   1, NVIDIA H100 80GB HBM3, GPU-6e6c8d2f-1b1f-5d6c-0a1c-4d2b3c4d5e6f, 550.54.15, 9.0, 81559, 00000000:2A:00.0\n";
        let a = parse_csv(out, QUERY_FIELDS);
        assert_eq!(a.rows.len(), 2);
        assert!(a.other_lines.is_empty());
        let r = &a.rows[1];
        assert_eq!(r.index, 1);
        assert_eq!(r.name.as_deref(), Some("NVIDIA H100 80GB HBM3"));
        assert_eq!(r.driver_version.as_deref(), Some("550.54.15"));
        assert_eq!(r.compute_cap.as_deref(), Some("9.0"));
        assert_eq!(r.memory_mib, Some(81559));
        assert_eq!(r.pci_bus_id.as_deref(), Some("00000000:2A:00.0"));
    }

    #[test]
    fn units_and_not_available() {
        let out =
            "0, NVIDIA GeForce RTX 4090, GPU-abc, 550.54.14, [N/A], 24564 MiB, 00000000:01:00.0\n";
        let a = parse_csv(out, QUERY_FIELDS);
        assert_eq!(a.rows[0].compute_cap, None);
        assert_eq!(a.rows[0].memory_mib, Some(24564));
    }

    #[test]
    fn error_texts_are_not_rows() {
        let out = "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.90\n";
        let a = parse_csv(out, QUERY_FIELDS);
        assert!(a.rows.is_empty());
        assert_eq!(a.other_lines.len(), 2);
        assert_eq!(
            classify_error(&a.other_lines[0]),
            Some(ErrorKind::NvmlDriverLibraryMismatch)
        );
        assert_eq!(classify_error(&a.other_lines[1]), None);
        assert_eq!(
            classify_error("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."),
            Some(ErrorKind::SmiNoDriver)
        );
        assert_eq!(
            classify_error("No devices were found"),
            Some(ErrorKind::NoDevice)
        );
    }

    #[test]
    fn one_lost_gpu_leaves_the_others() {
        let out = "0, Tesla V100-SXM2-16GB, GPU-1, 470.256.02, 7.0, 16160, 00000000:00:1E.0\nUnable to determine the device handle for GPU 0000:00:1F.0: Unknown Error\n";
        let a = parse_csv(out, QUERY_FIELDS);
        assert_eq!(a.rows.len(), 1);
        assert_eq!(a.other_lines.len(), 1);
    }

    #[test]
    fn old_driver_rejects_compute_cap() {
        assert!(field_rejected(
            "Field \"compute_cap\" is not a valid field to query.\n"
        ));
        let fields: Vec<&str> = QUERY_FIELDS
            .iter()
            .copied()
            .filter(|f| *f != "compute_cap")
            .collect();
        let a = parse_csv(
            "0, Tesla K80, GPU-x, 470.256.02, 11441, 00000000:04:00.0\n",
            &fields,
        );
        assert_eq!(a.rows[0].compute_cap, None);
        assert_eq!(a.rows[0].memory_mib, Some(11441));
        // The wrong number of cells is not a row.
        assert!(parse_csv("0, Tesla K80, GPU-x\n", QUERY_FIELDS)
            .rows
            .is_empty());
        // A non-numeric index is not a row.
        assert!(parse_csv("x, a, b, c, d, e, f\n", QUERY_FIELDS)
            .rows
            .is_empty());
    }
}
