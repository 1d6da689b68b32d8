//! Builds the fake libcuda and libcublas (fakecuda.c, fakecublas.c) with the
//! system C compiler, once per test binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub struct Fake {
    pub libcuda: PathBuf,
    pub libcublas: PathBuf,
}

fn compile(src: &str, out: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fakecuda")
        .join(src);
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(out)
        .arg(&src)
        .status()
        .unwrap_or_else(|e| panic!("running cc for {}: {e}", src.display()));
    assert!(status.success(), "cc failed on {}", src.display());
}

/// The fake libraries, built into this test binary's own directory.
pub fn fake() -> &'static Fake {
    static FAKE: OnceLock<Fake> = OnceLock::new();
    FAKE.get_or_init(|| {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fakecuda-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("creating the fake library directory");
        let fake = Fake {
            libcuda: dir.join("libcuda.so.1"),
            libcublas: dir.join("libcublas.so.12"),
        };
        compile("fakecuda.c", &fake.libcuda);
        compile("fakecublas.c", &fake.libcublas);
        fake
    })
}
