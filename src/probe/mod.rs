//! Probes: small functions that read a live system through the [`System`]
//! seam and return facts with their source. They never decide anything.

use std::path::PathBuf;

use crate::inventory::Inventory;
use crate::kb::Kb;
use crate::system::System;

pub mod python;

/// What the caller asked the probe to do beyond the defaults.
#[derive(Debug, Clone, Default)]
pub struct ProbeOptions {
    /// `--python PATH`: extra interpreters or environment directories.
    pub python: Vec<PathBuf>,
    /// `--exec-python`: run the inventory script in each interpreter.
    pub exec_python: bool,
}

/// Probe the machine behind `sys` into an Inventory.
pub fn probe(sys: &dyn System, _kb: &Kb, opts: &ProbeOptions) -> Inventory {
    let mut inv = Inventory::new(format!("probe {}", sys.root().display()));
    let (python, notes) = python::discover(sys, opts);
    inv.python = python;
    inv.notes.extend(notes);
    inv
}
