//! The gpucompat command line: parse, call the library, render, exit.
//! Exit codes: 0 nothing at error severity, 1 at least one error finding,
//! 2 usage or internal error.

mod cli;

use std::process::ExitCode;

use clap::Parser;

#[allow(clippy::print_stderr)] // the binary prints; the library does not (Cargo.toml [lints])
fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            gpucompat::render::sanitize::eprint_line(&format!("gpucompat: error: {e:#}"));
            ExitCode::from(2)
        }
    }
}
