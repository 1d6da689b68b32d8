//! The gpucompat command line: parse, call the library, render, exit.
//! Exit codes: 0 nothing at error severity, 1 at least one error finding,
//! 2 usage or internal error.

mod cli;

use std::process::ExitCode;

use clap::Parser;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[allow(clippy::print_stderr)] // the binary prints; the library does not (Cargo.toml [lints])
fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            gpucompat::render::sanitize::eprint_line(&format!("gpucompat: error: {}", message(&e)));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes, each said once: a cause whose text the message
/// already holds (`path: No such file or directory` over the same I/O error)
/// is not repeated.
fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}
