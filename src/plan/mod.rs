//! Solve for the newest stack that runs on every given host, and write it out;
//! check images and Dockerfiles against hosts.
//!
//! - [`require`]: the `NVIDIA_REQUIRE_*` evaluator (as libnvidia-container and
//!   nvidia-container-toolkit evaluate it).

pub mod dockerfile;
pub mod formats;
pub mod hosts;
pub mod image;
pub mod lint;
pub mod report;
pub mod require;
pub mod resolver;
