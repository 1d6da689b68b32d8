//! The rule catalog: one file per family, a registry that lists them all.

use crate::finding::Finding;
use crate::inventory::Inventory;
use crate::kb::Kb;

/// Run every rule over an inventory.
pub fn run_rules(_inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
    Vec::new()
}
