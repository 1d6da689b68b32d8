//! Facts the knowledge base adds to what was probed, each with its kb row
//! as the source (see [`crate::kb::resolve::fill_inventory`]).

use super::Log;
use crate::inventory::Inventory;
use crate::kb::Kb;

pub(crate) fn apply(kb: &Kb, inv: &mut Inventory, log: &mut Log) {
    for g in crate::kb::resolve::fill_inventory(inv, kb) {
        log.note(g.note.subject, g.note.message);
    }
}
