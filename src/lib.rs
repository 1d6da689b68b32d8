//! gpucompat: will this machine's GPU software stack run, and if not, why and how to fix it.
//!
//! The pipeline (see DESIGN.md): `probe` (live system) or `ingest` (pasted
//! text) fill an [`inventory::Inventory`]; `rules` check it against the
//! knowledge base ([`kb::Kb`]) and return [`finding::Finding`]s; `plan`
//! solves for a stack that runs; `render` prints. [`report::report`] is the
//! one entry point every findings command calls (see docs/architecture.md).

pub mod card;
pub mod finding;
pub mod fleet;
pub mod ingest;
pub mod inventory;
pub mod kb;
pub mod plan;
pub mod probe;
pub mod render;
pub mod report;
pub mod rules;
pub mod smoke;
pub mod system;
pub mod tier;
pub mod version;
