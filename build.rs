//! Convert the knowledge tables (data/*.toml) to JSON at build time: the
//! binary embeds JSON, which parses several times faster than TOML at start-up.
//! `--kb DIR` still reads TOML.

// Cargo reads its instructions from the build script's stdout.
#![allow(clippy::print_stdout)]

use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    println!("cargo:rerun-if-changed=data");
    let mut entries: Vec<_> = std::fs::read_dir("data")
        .expect("data/ holds the knowledge tables")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    entries.sort();
    let mut as_of = String::new();
    for path in entries {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("readable table");
        let value: serde_json::Value = match toml::from_str(&text) {
            Ok(v) => v,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        if let Some(d) = value["meta"]["as_of"].as_str() {
            if d > as_of.as_str() {
                as_of = d.to_string();
            }
        }
        let stem = path.file_stem().expect("file name").to_string_lossy();
        let dest = Path::new(&out).join(format!("{stem}.json"));
        std::fs::write(dest, serde_json::to_string(&value).expect("JSON")).expect("write OUT_DIR");
    }
    // `gpucompat --version` names how current the embedded tables are.
    println!("cargo:rustc-env=GPUCOMPAT_KB_AS_OF={as_of}");
}
