//! Solve for the newest stack that runs on every given host, and write it out;
//! check images and Dockerfiles against hosts.
//!
//! - [`require`]: the `NVIDIA_REQUIRE_*` evaluator (as libnvidia-container and
//!   nvidia-container-toolkit evaluate it).
//! - [`hosts`]: cards, flags or the live probe reduced to what planning needs.
//! - [`image`]: image references and the `cuda_images` table.
//! - [`resolver`]: `pin`'s solver; [`formats`] and [`dockerfile`] write its output.
//! - [`fit`]: one machine's constraints, which every fix and pin is checked against.
//! - [`lint`]: Dockerfile checks (DKR rules); [`report`]: `db require` / `db image`.
pub mod dockerfile;
pub mod fit;
pub mod formats;
pub mod hosts;
pub mod image;
pub mod lint;
pub mod report;
pub mod require;
pub mod resolver;
