//! Reading a fleet's cards: `card --json` outputs or `check --json`
//! envelopes, from files or directories. A card that cannot be trusted is
//! rejected with a reason and the rest are still read: one bad node must not
//! hide the fleet.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::finding::Finding;
use crate::inventory::{Inventory, SCHEMA_VERSION};

/// Cards larger than this are not cards (a full card is a few kB).
pub const MAX_CARD_BYTES: u64 = 4 * 1024 * 1024;

/// One node as read from its card.
#[derive(Debug, Clone)]
pub struct NodeCard {
    /// The file it came from.
    pub path: String,
    /// The hostname on the card, else the file stem.
    pub name: String,
    pub inventory: Inventory,
    /// The findings a `check --json` envelope carried; None for a bare card.
    pub findings: Option<Vec<Finding>>,
}

/// A file that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Rejected {
    pub path: String,
    pub reason: String,
}

#[derive(Deserialize)]
struct Findings {
    findings: Vec<Finding>,
}

/// Just enough of a card or report to decide how to read it.
#[derive(Deserialize)]
struct Head {
    schema_version: Option<u64>,
    findings: Option<serde::de::IgnoredAny>,
    inventory: Option<Version>,
}

#[derive(Deserialize)]
struct Version {
    schema_version: Option<u64>,
}

fn json_error(e: serde_json::Error) -> String {
    match e.classify() {
        serde_json::error::Category::Data => format!("not a gpucompat card: {e}"),
        _ => format!("not JSON: {e}"),
    }
}

/// Parse one card's bytes. `path` is only used to name the node when the
/// card carries no hostname. Two passes over the text (a cheap one for the
/// shape and version, then the typed one) cost less than building a
/// `serde_json::Value` first.
pub fn parse_card(path: &str, bytes: &[u8]) -> Result<NodeCard, String> {
    let Some(first) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Err("empty file".into());
    };
    let text = std::str::from_utf8(bytes).map_err(|_| "not text (binary data)".to_string())?;
    if text.contains('\0') {
        return Err("not text (binary data)".into());
    }
    if bytes[first] != b'{' {
        return Err(match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => "not a gpucompat card: the JSON is not an object".into(),
            Err(e) => format!("not JSON: {e}"),
        });
    }
    let head: Head = serde_json::from_str(text).map_err(json_error)?;
    let envelope = head.findings.is_some() && head.inventory.is_some();
    let version = if envelope {
        head.inventory.and_then(|v| v.schema_version)
    } else {
        head.schema_version
    };
    match version {
        Some(v) if v == u64::from(SCHEMA_VERSION) => {}
        Some(v) => {
            return Err(format!(
                "card schema version {v}; this build reads version {SCHEMA_VERSION}"
            ))
        }
        None => return Err("not a gpucompat card: no schema_version".into()),
    }
    // The strict card reader decides what a card is; a report's findings are read beside it.
    let inventory = crate::card::parse(text, path).map_err(|e| {
        let msg = e.to_string();
        msg.strip_prefix(&format!("{path}: "))
            .unwrap_or(&msg)
            .to_string()
    })?;
    let findings = if envelope {
        let env: Findings =
            serde_json::from_str(text).map_err(|e| format!("not a gpucompat check report: {e}"))?;
        Some(env.findings)
    } else {
        None
    };
    let name = inventory
        .os
        .hostname
        .as_ref()
        .map(|h| h.value.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| {
            Path::new(path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.to_string())
        });
    Ok(NodeCard {
        path: path.to_string(),
        name,
        inventory,
        findings,
    })
}

fn read_one(path: &Path) -> Result<NodeCard, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_CARD_BYTES {
        return Err(format!(
            "{} bytes, more than a card can be ({MAX_CARD_BYTES})",
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.take(MAX_CARD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_CARD_BYTES {
        return Err(format!("more than a card can be ({MAX_CARD_BYTES} bytes)"));
    }
    parse_card(&path.display().to_string(), &bytes)
}

/// The files to read: each FILE as given, each DIR's `*.json` files (sorted).
pub fn card_paths(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for a in args {
        if a.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(a)
                .map_err(|e| format!("{}: {e}", a.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json")
                        && !p
                            .file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            files.sort();
            out.extend(files);
        } else if a.exists() {
            out.push(a.clone());
        } else {
            return Err(format!("{}: no such file or directory", a.display()));
        }
    }
    Ok(out)
}

/// Read every card, in parallel, keeping the input order. Duplicate
/// hostnames are rejected after the first: two cards for one node mean one
/// of them is stale or copied, and counting both would skew the groups.
pub fn read_cards(paths: &[PathBuf]) -> (Vec<NodeCard>, Vec<Rejected>) {
    let results: Vec<Result<NodeCard, Rejected>> = super::par_map(paths, |p| {
        read_one(p).map_err(|reason| Rejected {
            path: p.display().to_string(),
            reason,
        })
    });
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for r in results {
        match r {
            Ok(card) => {
                if let Some(first) = seen.get(&card.name) {
                    bad.push(Rejected {
                        path: card.path.clone(),
                        reason: format!("duplicate hostname {:?} (first in {first})", card.name),
                    });
                } else {
                    seen.insert(card.name.clone(), card.path.clone());
                    good.push(card);
                }
            }
            Err(e) => bad.push(e),
        }
    }
    (good, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(host: &str) -> String {
        let mut inv = Inventory::new("t");
        inv.os.hostname = Some(crate::inventory::Fact::new(host.into(), "t"));
        serde_json::to_string(&inv).unwrap()
    }

    #[test]
    fn bad_cards_get_a_reason() {
        assert_eq!(parse_card("a", b"").unwrap_err(), "empty file");
        assert!(parse_card("a", b"\x7fELF\x02\x01\x01\xff\xfe")
            .unwrap_err()
            .contains("binary"));
        assert!(parse_card("a", b"[1,2]")
            .unwrap_err()
            .contains("not an object"));
        let v2 = card("n1").replace("\"schema_version\":1", "\"schema_version\":2");
        assert!(parse_card("a", v2.as_bytes())
            .unwrap_err()
            .contains("schema version 2"));
        assert!(parse_card("a", b"{\"os\":{}}")
            .unwrap_err()
            .contains("no schema_version"));
        let wrong = card("n1").replace("\"gpus\":[]", "\"gpus\":7");
        assert!(parse_card("a", wrong.as_bytes())
            .unwrap_err()
            .contains("not a gpucompat card"));
    }

    #[test]
    fn a_check_report_carries_its_findings_and_names_the_node() {
        let env = format!(
            "{{\"schema_version\":1,\"kind\":\"check\",\"findings\":[],\"inventory\":{}}}",
            card("gpu-07")
        );
        let n = parse_card("x/y.json", env.as_bytes()).unwrap();
        assert_eq!(n.name, "gpu-07");
        assert_eq!(n.findings.as_deref().map(|f| f.len()), Some(0));
        let bare = serde_json::to_string(&Inventory::new("t")).unwrap();
        let bare = parse_card("x/node-3.json", bare.as_bytes());
        assert_eq!(bare.unwrap().name, "node-3");
    }

    #[test]
    fn duplicates_are_rejected_after_the_first() {
        let dir = tempfile::tempdir().unwrap();
        for (f, h) in [("a.json", "n1"), ("b.json", "n1"), ("c.json", "n2")] {
            std::fs::write(dir.path().join(f), card(h)).unwrap();
        }
        std::fs::write(dir.path().join("empty.json"), "").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let paths = card_paths(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(paths.len(), 4);
        let (good, bad) = read_cards(&paths);
        assert_eq!(
            good.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["n1", "n2"]
        );
        assert_eq!(bad.len(), 2);
        assert!(bad
            .iter()
            .any(|b| b.path.ends_with("b.json") && b.reason.contains("duplicate")));
        assert!(bad
            .iter()
            .any(|b| b.path.ends_with("empty.json") && b.reason == "empty file"));
    }
}
