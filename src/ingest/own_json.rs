//! gpucompat's own JSON as input to `explain`: a saved card (`card --json`,
//! the Inventory itself) or a `check --json` envelope (its `inventory`).
//! A paste that is JSON of that shape is read whole, strictly: a wrong shape
//! is an error, never an empty machine.

use serde_json::Value;

use crate::inventory::Inventory;

/// Why a JSON input that claims to be gpucompat's could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{name}: looks like gpucompat JSON but is not a valid {what}: {reason}")]
pub struct OwnJsonError {
    pub name: String,
    pub what: &'static str,
    pub reason: String,
}

/// The Inventory a gpucompat JSON document holds; None when `text` is not
/// such a document (then it is read as a pasted report).
pub fn read(name: &str, text: &str) -> Option<Result<Inventory, OwnJsonError>> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if !t.starts_with('{') {
        return None;
    }
    let v: Value = serde_json::from_str(t).ok()?;
    let obj = v.as_object()?;
    obj.get("schema_version")?;
    let err = |what: &'static str, reason: String| OwnJsonError {
        name: name.to_string(),
        what,
        reason,
    };
    // `check --json` / `explain --json`: an envelope with findings and the inventory.
    if obj.contains_key("findings") {
        let inv = obj
            .get("inventory")
            .ok_or_else(|| err("check --json report", "it has no \"inventory\"".into()));
        return Some(inv.and_then(|i| {
            serde_json::from_value::<Inventory>(i.clone())
                .map_err(|e| err("check --json report", e.to_string()))
        }));
    }
    // `card --json`: the Inventory, which has these top-level keys.
    let card_keys = ["origin", "os", "nvidia", "gpus", "python"];
    if !card_keys.iter().any(|k| obj.contains_key(*k)) {
        return None;
    }
    Some(serde_json::from_value::<Inventory>(v).map_err(|e| err("card", e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Gpu};

    fn card() -> Inventory {
        let mut inv = Inventory::new("probe /");
        inv.nvidia.driver_version = Some(Fact::new("535.104.05".parse().unwrap(), "NVML"));
        inv.gpus.push(Gpu {
            index: 0,
            name: Some(Fact::new("Tesla T4".to_string(), "NVML")),
            ..Default::default()
        });
        inv
    }

    #[test]
    fn card_and_check_envelope_read_back() {
        let inv = card();
        let text = serde_json::to_string_pretty(&inv).unwrap();
        assert_eq!(read("card.json", &text).unwrap().unwrap(), inv);
        let env = serde_json::json!({"schema_version": 1, "tool": {"name": "gpucompat"}, "kind": "check", "findings": [], "inventory": inv});
        let got = read("check.json", &env.to_string()).unwrap().unwrap();
        assert_eq!(got.gpus[0].name.as_ref().unwrap().value, "Tesla T4");
    }

    #[test]
    fn wrong_shapes_are_errors_and_other_json_is_text() {
        let bad = r#"{"schema_version": 1, "origin": "x", "gpus": "eight"}"#;
        let e = read("c.json", bad).unwrap().unwrap_err();
        assert!(e.to_string().contains("c.json"), "{e}");
        let bad = r#"{"schema_version": 1, "findings": []}"#;
        assert!(read("r.json", bad).unwrap().is_err());
        assert!(read("x", r#"{"name": "not ours"}"#).is_none());
        assert!(read("x", "Traceback (most recent call last):").is_none());
    }
}
