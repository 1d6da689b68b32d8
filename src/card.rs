//! The one reader of saved cards, used by `check --card`, `pin --host` and
//! everything else that takes a card file.
//!
//! A card is what `gpucompat card --json` prints: the [`Inventory`] object.
//! A findings report (`check --json`) embeds one under `inventory` and is
//! accepted for it. Anything else is refused, naming the field: another
//! JSON shape (`{}`, `[]`, a `smoke` or `pin` output), another schema
//! version, a value of the wrong type, a key no card has. `{}` is never read
//! as an empty machine.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::de::IgnoredAny;
use serde::Deserialize;

use crate::inventory::{Inventory, SCHEMA_VERSION};
use crate::render::sanitize::excerpt;

/// Card files larger than this are refused (a card of 100 000 GPUs, each with every fact, is about 46 MiB).
pub const MAX_CARD_BYTES: u64 = 48 * 1024 * 1024;

/// The most GPUs one card may list. A card describes one machine, and the
/// largest single nodes hold 16; a longer list is refused before it is built.
pub const MAX_CARD_GPUS: usize = 1024;

/// Keys every card has (hand-written cards may leave out the rest, read as unknown).
const REQUIRED: &[&str] = &["schema_version", "origin", "os", "gpus"];

/// Every key a card may hold at its top level.
const KNOWN: &[&str] = &[
    "schema_version",
    "origin",
    "os",
    "pci",
    "nvidia",
    "gpus",
    "amd",
    "apple",
    "container",
    "wsl",
    "fabric",
    "toolkits",
    "libraries",
    "env",
    "python",
    "errors",
    "notes",
];

#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// The message names the file already.
    #[error("{message}")]
    Read { message: String },
    #[error("{path}: not a gpucompat card: not JSON: {message}")]
    Json { path: String, message: String },
    /// The file is JSON but not a card: `field` names where it went wrong.
    #[error("{path}: not a gpucompat card (`gpucompat card --json`): field `{field}`: {message}")]
    Shape {
        path: String,
        field: String,
        message: String,
    },
}

/// Read and check the card at `path` (`-` for stdin).
pub fn read(path: &Path) -> Result<Inventory, CardError> {
    let shown = path.display().to_string();
    let bytes = crate::system::read_input(path, MAX_CARD_BYTES).map_err(|e| CardError::Read {
        message: e.to_string(),
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|e| CardError::Json {
        path: shown.clone(),
        message: format!("not UTF-8 (at byte {})", e.valid_up_to()),
    })?;
    parse(text, &shown)
}

/// Check a card given as text; `shown` names it in errors.
pub fn parse(text: &str, shown: &str) -> Result<Inventory, CardError> {
    parse_in(text, shown, true)
}

fn parse_in(text: &str, shown: &str, report_allowed: bool) -> Result<Inventory, CardError> {
    // Field paths hold the card's own map keys, and messages may quote its values: both are cut short.
    let shape = |field: &str, message: String| CardError::Shape {
        path: shown.to_string(),
        field: excerpt(field, 120),
        message: excerpt(&message, 300),
    };
    let json_err = |e: serde_json::Error| CardError::Json {
        path: shown.to_string(),
        message: json_message(&e),
    };
    // The top level, without building the values (cheap on a large card).
    let top: BTreeMap<String, IgnoredAny> = match serde_json::from_str(text) {
        Ok(t) => t,
        Err(e) if e.is_data() => {
            let found = first_token(text);
            return Err(shape(
                "(top level)",
                format!("expected the card's JSON object, found {found}"),
            ));
        }
        Err(e) => return Err(json_err(e)),
    };
    let is_report = top.contains_key("findings") || top.contains_key("kind");
    if is_report && report_allowed {
        if !top.contains_key("inventory") {
            return Err(shape(
                "inventory",
                "missing: this is a findings report without a card (only `check --json` output embeds one)".into(),
            ));
        }
        #[derive(Deserialize)]
        struct Report<'a> {
            #[serde(borrow)]
            inventory: &'a serde_json::value::RawValue,
        }
        // The report's own fields are not needed; only the embedded card is read.
        let r: Report = serde_json::from_str(text).map_err(json_err)?;
        return match parse_in(r.inventory.get(), shown, false) {
            Err(CardError::Shape { field, message, .. }) => Err(shape(
                &if field == "(top level)" {
                    "inventory".to_string()
                } else {
                    format!("inventory.{field}")
                },
                message,
            )),
            other => other,
        };
    }
    check_keys(&top, "").map_err(|(f, m)| shape(&f, m))?;
    // Counted without building the GPUs: IgnoredAny skips each element.
    #[derive(Deserialize)]
    struct GpuList {
        gpus: Vec<IgnoredAny>,
    }
    if let Ok(list) = serde_json::from_str::<GpuList>(text) {
        if list.gpus.len() > MAX_CARD_GPUS {
            return Err(shape(
                "gpus",
                format!(
                    "{} GPUs; a card describes one machine and lists at most {MAX_CARD_GPUS}",
                    list.gpus.len()
                ),
            ));
        }
    }
    #[derive(Deserialize)]
    struct Head {
        schema_version: serde_json::Value,
    }
    let head: Head = serde_json::from_str(text).map_err(json_err)?;
    check_schema(&head.schema_version, "").map_err(|(f, m)| shape(&f, m))?;
    let de = &mut serde_json::Deserializer::from_str(text);
    let inventory = serde_path_to_error::deserialize::<_, Inventory>(de)
        .map_err(|e| shape(&e.path().to_string(), json_message(e.inner())))?;
    consistent(&inventory).map_err(|(f, m)| shape(&f, m))?;
    Ok(inventory)
}

fn check_keys(keys: &BTreeMap<String, IgnoredAny>, prefix: &str) -> Result<(), (String, String)> {
    if let Some(k) = keys.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err((
            format!("{prefix}{}", excerpt(k, 40)),
            "no card has this key".into(),
        ));
    }
    if let Some(k) = REQUIRED.iter().find(|k| !keys.contains_key(**k)) {
        return Err((format!("{prefix}{k}"), "missing".into()));
    }
    Ok(())
}

fn check_schema(v: &serde_json::Value, prefix: &str) -> Result<(), (String, String)> {
    let field = format!("{prefix}schema_version");
    match v.as_u64() {
        Some(n) if n == u64::from(SCHEMA_VERSION) => Ok(()),
        Some(n) => Err((
            field,
            format!("card schema {n}; this build reads schema {SCHEMA_VERSION}"),
        )),
        None => Err((
            field,
            format!(
                "expected the integer {SCHEMA_VERSION}, found {}",
                excerpt(&v.to_string(), 40)
            ),
        )),
    }
}

/// What the types alone cannot say: each GPU index once.
fn consistent(inv: &Inventory) -> Result<(), (String, String)> {
    let mut seen = HashSet::with_capacity(inv.gpus.len());
    for (i, g) in inv.gpus.iter().enumerate() {
        if !seen.insert(g.index) {
            return Err((
                format!("gpus[{i}].index"),
                format!("GPU index {} appears twice", g.index),
            ));
        }
    }
    Ok(())
}

/// serde_json's message, with its line and column; a value it quotes is cut short.
fn json_message(e: &serde_json::Error) -> String {
    excerpt(&e.to_string(), 300)
}

fn first_token(text: &str) -> &'static str {
    match text.trim_start().chars().next() {
        Some('[') => "an array",
        Some('"') => "a string",
        Some('t' | 'f') => "a boolean",
        Some('n') => "null",
        Some(c) if c == '-' || c.is_ascii_digit() => "a number",
        _ => "something else",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text, "c.json").unwrap_err().to_string()
    }

    #[test]
    fn a_card_reads_back() {
        let inv = Inventory::new("probe /");
        let text = serde_json::to_string(&inv).unwrap();
        assert_eq!(parse(&text, "c.json").unwrap().origin, "probe /");
    }

    #[test]
    fn wrong_shapes_name_the_field() {
        assert!(
            err("{}").contains("field `schema_version`: missing"),
            "{}",
            err("{}")
        );
        assert!(err("[]").contains("found an array"), "{}", err("[]"));
        let e = err(r#"{"findings":[],"inventory":[1]}"#);
        assert!(e.contains("field `inventory`"), "{e}");
        let e = err(r#"{"schema_version":1,"kind":"smoke","findings":[]}"#);
        assert!(e.contains("field `inventory`: missing"), "{e}");
        let e = err(r#"{"schema_version":1,"hosts":[],"pins":[]}"#);
        assert!(e.contains("field `hosts`: no card has this key"), "{e}");
    }

    #[test]
    fn wrong_version_and_types() {
        let mut v = serde_json::to_value(Inventory::new("x")).unwrap();
        v["schema_version"] = 2.into();
        let e = err(&v.to_string());
        assert!(e.contains("card schema 2"), "{e}");
        v["schema_version"] = "1".into();
        assert!(err(&v.to_string()).contains("expected the integer 1"));
        v["schema_version"] = 1.into();
        v["gpus"] = serde_json::json!([{"index": "zero"}]);
        let e = err(&v.to_string());
        assert!(e.contains("field `gpus[0].index`"), "{e}");
    }

    #[test]
    fn a_check_report_embeds_a_card() {
        let inv = Inventory::new("probe /");
        let report = serde_json::json!({"schema_version": 1, "findings": [], "inventory": inv});
        assert_eq!(
            parse(&report.to_string(), "r.json").unwrap().origin,
            "probe /"
        );
        let mut bad = report.clone();
        bad["inventory"]["gpus"] = 3.into();
        let e = err(&bad.to_string());
        assert!(e.contains("field `inventory.gpus`"), "{e}");
    }

    #[test]
    fn duplicate_gpu_index() {
        let mut v = serde_json::to_value(Inventory::new("x")).unwrap();
        v["gpus"] = serde_json::json!([{"index": 0}, {"index": 0}]);
        assert!(err(&v.to_string()).contains("gpus[1].index"));
    }
}
