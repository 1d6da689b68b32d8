//! Fleet views: what one node publishes to a scheduler (labels, metrics,
//! package-manager hints) and what many nodes' cards say together (`fleet`).

pub mod lab;
pub mod node;
pub mod output;
pub mod read;
pub mod render;
pub mod time;
