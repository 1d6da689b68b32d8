//! Running gpucompat on hostile input and measuring it: exit code, output,
//! wall time, and the child's own CPU time and peak memory (its rusage).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Peak memory any case may use.
pub const MAX_RSS_KB: i64 = 256 * 1024;
/// CPU time any case may use, in a release build (`cargo test --release --test hostile`).
/// Debug builds are about ten times slower; they get ten times the budget.
pub const MAX_CPU: Duration = Duration::from_secs(2);
/// A case still running after this is a hang: it is killed and fails.
const WATCHDOG: Duration = Duration::from_secs(60);

pub fn cpu_budget() -> Duration {
    if cfg!(debug_assertions) {
        MAX_CPU * 10
    } else {
        MAX_CPU
    }
}

#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub wall: Duration,
    pub cpu: Duration,
    pub max_rss_kb: i64,
}

impl Run {
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Exit code, bounded time and memory; prints the figures for the record.
    pub fn check(&self, name: &str, code: i32) -> &Run {
        eprintln!(
            "hostile {name}: exit {} wall {:.3}s cpu {:.3}s peak {} KB",
            self.code,
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.max_rss_kb
        );
        assert_eq!(self.code, code, "{name}: stderr: {}", tail(&self.stderr));
        assert!(
            self.cpu <= cpu_budget(),
            "{name}: {:?} of CPU time (budget {:?})",
            self.cpu,
            cpu_budget()
        );
        assert!(
            self.max_rss_kb <= MAX_RSS_KB,
            "{name}: peak memory {} KB",
            self.max_rss_kb
        );
        assert!(
            !self.stderr.contains("panicked"),
            "{name}: {}",
            tail(&self.stderr)
        );
        self
    }
}

fn tail(s: &str) -> &str {
    let start = s.len().saturating_sub(2000);
    let mut i = start;
    while !s.is_char_boundary(i) {
        i += 1;
    }
    &s[i..]
}

pub struct Opts<'a> {
    pub env: &'a [(&'a str, &'a str)],
    pub cwd: Option<&'a Path>,
}

pub const NO_OPTS: Opts<'static> = Opts {
    env: &[],
    cwd: None,
};

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_gpucompat"))
}

pub fn run(args: &[&str]) -> Run {
    run_with(args, &NO_OPTS)
}

pub fn run_with(args: &[&str], opts: &Opts) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("stdout");
    let err_path = dir.path().join("stderr");
    let res_path = dir.path().join("rusage");
    // gpucompat is started by a small copy of this test binary: a child started
    // from this (large) process would carry its peak memory in its rusage.
    let spec = serde_json::json!({
        "args": args,
        "env": opts.env.iter().map(|(k, v)| [k, v]).collect::<Vec<_>>(),
        "cwd": opts.cwd.map(|c| c.display().to_string()),
        "stdout": out_path, "stderr": err_path, "result": res_path,
    });
    let start = Instant::now();
    let st = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "harness::measured_child",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env(HELPER_VAR, spec.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let wall = start.elapsed();
    assert!(st.success(), "the measuring helper failed");
    let res: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&res_path).unwrap()).unwrap();
    let mut stdout = Vec::new();
    std::fs::File::open(&out_path)
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    let stderr = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap()).into_owned();
    Run {
        code: res["code"].as_i64().unwrap() as i32,
        stdout,
        stderr,
        wall: Duration::from_micros(res["wall_us"].as_u64().unwrap()).min(wall),
        cpu: Duration::from_micros(res["cpu_us"].as_u64().unwrap()),
        max_rss_kb: res["rss_kb"].as_i64().unwrap(),
    }
}

const HELPER_VAR: &str = "GPUCOMPAT_HOSTILE_SPEC";

/// Not a test of its own: the measuring helper, run by [`run_with`] in a fresh copy of this binary.
#[test]
fn measured_child() {
    let Ok(spec) = std::env::var(HELPER_VAR) else {
        return;
    };
    let spec: serde_json::Value = serde_json::from_str(&spec).unwrap();
    let s = |k: &str| spec[k].as_str().unwrap().to_string();
    let mut cmd = Command::new(bin());
    cmd.args(
        spec["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap()),
    )
    .env_remove("GPUCOMPAT_ALLOW_ROOT_CODE")
    .env_remove(HELPER_VAR)
    .env("NO_COLOR", "1")
    .stdin(Stdio::null())
    .stdout(std::fs::File::create(s("stdout")).unwrap())
    .stderr(std::fs::File::create(s("stderr")).unwrap());
    for kv in spec["env"].as_array().unwrap() {
        cmd.env(kv[0].as_str().unwrap(), kv[1].as_str().unwrap());
    }
    if let Some(c) = spec["cwd"].as_str() {
        cmd.current_dir(c);
    }
    let start = Instant::now();
    // Reaped by wait_measured (wait4), which std's Child cannot do.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().expect("spawn gpucompat");
    let (code, cpu, rss) = wait_measured(child.id() as i32, start);
    let res = serde_json::json!({
        "code": code, "cpu_us": cpu.as_micros() as u64, "rss_kb": rss,
        "wall_us": start.elapsed().as_micros() as u64,
    });
    std::fs::write(s("result"), res.to_string()).unwrap();
}

/// Reap the child with `wait4`, which returns its own resource usage; kill it past the watchdog.
fn wait_measured(pid: i32, start: Instant) -> (i32, Duration, i64) {
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value of the plain C struct, which wait4 fills.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: pid is our own child; status and usage point to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            let tv = |t: libc::timeval| {
                Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
            };
            let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
            let code = if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                128 + libc::WTERMSIG(status)
            };
            return (code, cpu, usage.ru_maxrss);
        }
        assert!(r == 0, "wait4 failed");
        if start.elapsed() > WATCHDOG {
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("gpucompat hung for more than {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A copy of a machine fixture to tamper with.
pub fn machine(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    crate::common::copy_tree(&fixture(name), &root);
    (dir, root)
}

pub fn replace_with_link(path: &Path, target: &Path) {
    let _ = std::fs::remove_file(path);
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap();
    }
    std::os::unix::fs::symlink(target, path).unwrap();
}

pub fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let st = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(st.success());
}

pub fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A file of `len` bytes that takes no disk space (reads as zeros).
pub fn sparse(path: &Path, len: u64) {
    let f = std::fs::File::create(path).unwrap();
    f.set_len(len).unwrap();
}
