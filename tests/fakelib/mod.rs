//! Builds a root whose libnvidia-ml.so.1 and libcuda.so.1 are small fakes
//! compiled from fake_nvml.c / fake_cuda.c with the system `cc`; the
//! `FAKE_*` defines fix what they answer.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

const LIB_DIR: &str = "usr/lib/x86_64-linux-gnu";

fn src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fakelib")
        .join(name)
}

fn compile(source: &str, out: &Path, defines: &[&str]) {
    let mut cmd = Command::new("cc");
    cmd.args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(out)
        .arg(src(source));
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("the fake NVML tests need a C compiler (cc): {e}"));
    assert!(status.success(), "cc failed for {source} with {defines:?}");
}

/// A root with fake driver libraries named for `driver` (e.g. 550.54.14).
pub fn root(driver: &str, nvml: &[&str], cuda: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib = dir.path().join(LIB_DIR);
    std::fs::create_dir_all(&lib).unwrap();
    let nvml_file = lib.join(format!("libnvidia-ml.so.{driver}"));
    let cuda_file = lib.join(format!("libcuda.so.{driver}"));
    compile("fake_nvml.c", &nvml_file, nvml);
    compile("fake_cuda.c", &cuda_file, cuda);
    std::os::unix::fs::symlink(
        format!("libnvidia-ml.so.{driver}"),
        lib.join("libnvidia-ml.so.1"),
    )
    .unwrap();
    std::os::unix::fs::symlink(format!("libcuda.so.{driver}"), lib.join("libcuda.so.1")).unwrap();
    let write = |p: &str, s: &str| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    write(
        "etc/os-release",
        "PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nID=ubuntu\nVERSION_ID=\"22.04\"\n",
    );
    write("proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
    write("sys/module/nvidia/version", &format!("{driver}\n"));
    write("proc/self/environ", "PATH=/usr/bin:/bin\0");
    dir
}
