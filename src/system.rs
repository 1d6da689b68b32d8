//! The System seam: every live read goes through [`System`]. The real
//! machine is `Host::new("/")`; tests and `--root DIR` point the same type at
//! a directory tree laid out like a machine (fixtures, an unpacked image).
//!
//! Paths passed in are absolute paths *on the probed system* (`/proc/version`);
//! the seam maps them under its root. Environment variables come from the
//! process when the root is `/`, and from `<root>/proc/self/environ` (NUL
//! separated, as Linux writes it) otherwise. Commands are looked up on the
//! probed system's PATH under the root and always run with a timeout.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    /// Absolute path on the probed system.
    pub path: PathBuf,
    pub is_dir: bool,
    pub is_symlink: bool,
}

/// How an external command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandOutcome {
    Finished {
        code: Option<i32>,
        stdout: String,
        stderr: String,
    },
    NotFound,
    TimedOut {
        after: Duration,
    },
    Failed(String),
}

impl CommandOutcome {
    /// Stdout of a command that exited 0.
    pub fn success_stdout(&self) -> Option<&str> {
        match self {
            CommandOutcome::Finished {
                code: Some(0),
                stdout,
                ..
            } => Some(stdout),
            _ => None,
        }
    }

    /// A one-line description for a note.
    pub fn describe(&self) -> String {
        match self {
            CommandOutcome::Finished { code, stderr, .. } => {
                let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                match code {
                    Some(c) => format!("exited with status {c}{}", tail(first)),
                    None => format!("killed by a signal{}", tail(first)),
                }
            }
            CommandOutcome::NotFound => "not found".into(),
            CommandOutcome::TimedOut { after } => {
                format!(
                    "timed out after {:.1} s and was killed",
                    after.as_secs_f64()
                )
            }
            CommandOutcome::Failed(e) => format!("could not be run: {e}"),
        }
    }
}

fn tail(s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!(": {}", s.trim())
    }
}

/// Read access to a machine, real or laid out under a directory.
pub trait System: Send + Sync {
    /// The root the probed system's `/` maps to.
    fn root(&self) -> &Path;
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    fn read_dir(&self, path: &Path) -> io::Result<Vec<DirEntry>>;
    /// The target of a symlink, as written in the link.
    fn read_link(&self, path: &Path) -> io::Result<PathBuf>;
    fn exists(&self, path: &Path) -> bool;
    fn is_dir(&self, path: &Path) -> bool;
    /// Can the current user open the file for reading?
    fn readable(&self, path: &Path) -> bool;
    fn env(&self, name: &str) -> Option<String>;
    fn env_vars(&self) -> BTreeMap<String, String>;
    /// Run a program found on the probed system's PATH (or an absolute path on it).
    fn run(&self, program: &str, args: &[&str], timeout: Duration) -> CommandOutcome;
    /// Run a program of the probed system with exactly `env`, in the neutral
    /// working directory `/` (nothing of the caller's directory or environment leaks in).
    fn run_isolated(
        &self,
        program: &str,
        args: &[&str],
        env: &BTreeMap<String, String>,
        timeout: Duration,
    ) -> CommandOutcome;

    /// At most `len` bytes of the file from `offset` (fewer at its end): headers of
    /// large files (ELF, METADATA) without reading them whole.
    fn read_range(&self, path: &Path, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let bytes = self.read(path)?;
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let end = start.saturating_add(len).min(bytes.len());
        Ok(bytes.get(start..end).unwrap_or_default().to_vec())
    }

    /// The names in a directory, unsorted, without looking at each entry
    /// (no stat per entry: cheap on library directories with thousands of files).
    fn read_dir_names(&self, path: &Path) -> io::Result<Vec<String>> {
        Ok(self.read_dir(path)?.into_iter().map(|e| e.name).collect())
    }

    /// The file as text, with invalid UTF-8 replaced; at most `limit` bytes are read.
    fn read_text(&self, path: &Path) -> io::Result<String> {
        let bytes = self.read(path)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Where `path` lies on this machine's own file system (for dlopen, exec),
    /// links resolved inside the root.
    fn host_path(&self, path: &Path) -> PathBuf {
        resolve_in_root(self.root(), path, true).unwrap_or_else(|_| map_under(self.root(), path))
    }
}

/// Map an absolute path of the probed system under `root` lexically (`..`
/// clamped at the root), without looking at the file system. Reads go through
/// [`resolve_in_root`], which also follows symlinks the way the image would.
pub fn map_under(root: &Path, path: &Path) -> PathBuf {
    let mut out = root.to_path_buf();
    for c in path.components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::ParentDir if out != root => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// Symlinks followed while resolving one path before it counts as a loop (Linux uses 40).
pub const MAX_LINK_HOPS: usize = 40;

/// Resolve `path` of the probed system to where it lies under `root`, as the
/// image itself would see it: an absolute link target starts again at the
/// root, `..` stops at the root, so the result never leaves `root`. With
/// `follow_last` false the last component is not followed (for `read_link`).
/// A component that does not exist ends the resolution; the rest is appended
/// as written (with `..` still clamped). Too many links are an `ELOOP` error.
pub fn resolve_in_root(root: &Path, path: &Path, follow_last: bool) -> io::Result<PathBuf> {
    enum Step {
        Name(std::ffi::OsString),
        Parent,
    }
    fn push_steps(stack: &mut Vec<Step>, p: &Path) {
        for c in p.components().rev() {
            match c {
                Component::Normal(n) => stack.push(Step::Name(n.to_os_string())),
                Component::ParentDir => stack.push(Step::Parent),
                _ => {}
            }
        }
    }
    let mut rel = PathBuf::new();
    let mut stack = Vec::new();
    push_steps(&mut stack, path);
    let mut hops = 0;
    let mut exists = true;
    while let Some(step) = stack.pop() {
        match step {
            Step::Parent => {
                rel.pop();
            }
            Step::Name(name) => {
                let candidate = rel.join(&name);
                let last = stack.is_empty();
                if !exists || (last && !follow_last) {
                    rel = candidate;
                    continue;
                }
                match std::fs::symlink_metadata(root.join(&candidate)) {
                    Ok(m) if m.file_type().is_symlink() => {
                        hops += 1;
                        if hops > MAX_LINK_HOPS {
                            return Err(io::Error::other(format!(
                                "{}: more than {MAX_LINK_HOPS} symbolic links (a loop)",
                                path.display()
                            )));
                        }
                        let target = std::fs::read_link(root.join(&candidate))?;
                        if target.is_absolute() {
                            rel = PathBuf::new();
                        }
                        push_steps(&mut stack, &target);
                    }
                    Ok(_) => rel = candidate,
                    Err(_) => {
                        exists = false;
                        rel = candidate;
                    }
                }
            }
        }
    }
    Ok(root.join(rel))
}

/// Probed files larger than this are not read: no file a probe reads is near it.
pub const MAX_READ: u64 = 16 * 1024 * 1024;
/// Each output stream of an external command is kept up to this size.
pub const MAX_COMMAND_OUTPUT: u64 = 4 * 1024 * 1024;
/// `<root>/proc/self/environ` is read up to this size (Linux caps the
/// environment of `execve` near 2 MiB).
pub const MAX_ENVIRON: u64 = 2 * 1024 * 1024;

/// `explain` reads at most this much pasted text (each file, and stdin).
pub const MAX_PASTE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file was not read: it is not a regular file.
fn not_regular(path: &Path, ft: std::fs::FileType) -> io::Error {
    use std::os::unix::fs::FileTypeExt;
    let kind = if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: {kind}; only regular files are read", path.display()),
    )
}

/// Open a file for reading without blocking on it (a FIFO or a device never
/// stalls the open) and without making it the controlling terminal; only
/// regular files are accepted. `shown` names the file in errors.
pub fn open_regular(host_path: &Path, shown: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nonblocking_flags())
        .open(host_path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", shown.display())))?;
    check_regular(f, shown)
}

fn nonblocking_flags() -> i32 {
    (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32
}

fn check_regular(f: std::fs::File, shown: &Path) -> io::Result<std::fs::File> {
    let m = f
        .metadata()
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", shown.display())))?;
    if !m.file_type().is_file() {
        return Err(not_regular(shown, m.file_type()));
    }
    Ok(f)
}

/// Read at most `cap` bytes of an open regular file; a file that holds more
/// is an error naming the limit, not a truncated read.
pub fn read_capped(f: impl Read, cap: u64, shown: &Path) -> io::Result<Vec<u8>> {
    read_capped_sized(f, cap, shown, 0)
}

/// [`read_capped`] into a buffer sized for `expected` bytes up front (a
/// file's length), so a large input is not copied as the buffer doubles.
fn read_capped_sized(
    mut f: impl Read,
    cap: u64,
    shown: &Path,
    expected: u64,
) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(expected.min(cap) as usize + 1);
    (&mut f)
        .take(cap + 1)
        .read_to_end(&mut buf)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", shown.display())))?;
    if buf.len() as u64 > cap {
        return Err(too_large(shown, cap));
    }
    Ok(buf)
}

/// The error for an input over its documented size limit.
pub fn too_large(shown: &Path, cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{}: larger than the {} limit; not read",
            shown.display(),
            human_size(cap)
        ),
    )
}

fn human_size(n: u64) -> String {
    if n >= 1024 * 1024 && n % (1024 * 1024) == 0 {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n % 1024 == 0 {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// Read a file named on the command line (`explain FILE`, `--card`, a
/// Dockerfile, a `--kb` table): only a regular file, opened without blocking,
/// at most `cap` bytes. `-` reads stdin, with the same cap.
pub fn read_input(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    if path == Path::new("-") {
        return read_capped(io::stdin().lock(), cap, Path::new("stdin"));
    }
    let f = open_regular(path, path)?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len > cap {
        return Err(too_large(path, cap));
    }
    read_capped_sized(f, cap, path, len)
}

/// The one implementation: a machine whose `/` is `root`.
#[derive(Debug, Clone)]
pub struct Host {
    root: PathBuf,
    env: BTreeMap<String, String>,
}

impl Host {
    /// The machine this process runs on, or a tree laid out like one.
    pub fn new(root: impl Into<PathBuf>) -> Host {
        let root: PathBuf = root.into();
        let live = root == Path::new("/");
        let mut host = Host {
            root,
            env: BTreeMap::new(),
        };
        host.env = if live {
            std::env::vars_os()
                .filter_map(|(k, v)| {
                    Some((k.into_string().ok()?, v.to_string_lossy().into_owned()))
                })
                .collect()
        } else {
            host.open(Path::new("/proc/self/environ"))
                .and_then(|f| read_capped(f, MAX_ENVIRON, Path::new("/proc/self/environ")))
                .map(|b| parse_environ(&b))
                .unwrap_or_default()
        };
        host
    }

    /// Replace or add environment variables (tests, `--root` with overrides).
    pub fn with_env(mut self, vars: impl IntoIterator<Item = (String, String)>) -> Host {
        self.env.extend(vars);
        self
    }

    pub fn is_live(&self) -> bool {
        self.root == Path::new("/")
    }

    /// Where `path` lies on this machine, links resolved inside the root.
    fn resolved(&self, path: &Path, follow_last: bool) -> io::Result<PathBuf> {
        if self.is_live() {
            return Ok(path.to_path_buf());
        }
        resolve_in_root(&self.root, path, follow_last)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    /// Open `path` of the probed system for reading: a regular file only,
    /// never blocking, never leaving the root. Under a root, the kernel
    /// resolves the path inside it (`openat2` with `RESOLVE_IN_ROOT`); where
    /// that call is missing, [`resolve_in_root`] does it component by
    /// component and the last component is opened without following a link.
    fn open(&self, path: &Path) -> io::Result<std::fs::File> {
        if self.is_live() {
            return open_regular(path, path);
        }
        match self.open_in_root(path) {
            Some(r) => r,
            None => self.open_resolved(path),
        }
    }

    /// The fallback of [`Host::open`]: resolve in the root, open the last component without following it.
    fn open_resolved(&self, path: &Path) -> io::Result<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        let p = self.resolved(path, true)?;
        let f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nonblocking_flags() | rustix::fs::OFlags::NOFOLLOW.bits() as i32)
            .open(&p)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        check_regular(f, path)
    }

    /// `None` when the kernel has no `openat2` (before Linux 5.6, or filtered).
    #[cfg(target_os = "linux")]
    fn open_in_root(&self, path: &Path) -> Option<io::Result<std::fs::File>> {
        use rustix::fs::{openat2, Mode, OFlags, ResolveFlags};
        use std::sync::atomic::{AtomicBool, Ordering};
        static MISSING: AtomicBool = AtomicBool::new(false);
        if MISSING.load(Ordering::Relaxed) {
            return None;
        }
        let ctx = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let root = match rustix::fs::open(
            &self.root,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(e) => return Some(Err(ctx(e.into()))),
        };
        let rel = path.strip_prefix("/").unwrap_or(path);
        let rel = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        match openat2(
            &root,
            rel,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
            ResolveFlags::IN_ROOT | ResolveFlags::NO_MAGICLINKS,
        ) {
            Ok(fd) => Some(check_regular(std::fs::File::from(fd), path)),
            Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM) => {
                MISSING.store(true, Ordering::Relaxed);
                None
            }
            Err(rustix::io::Errno::AGAIN) => None,
            Err(e) => Some(Err(ctx(e.into()))),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn open_in_root(&self, _path: &Path) -> Option<io::Result<std::fs::File>> {
        None
    }

    fn find_program(&self, program: &str) -> Option<PathBuf> {
        if program.starts_with('/') {
            let p = self.host_path(Path::new(program));
            return p.is_file().then_some(p);
        }
        let path = self.env.get("PATH").cloned().unwrap_or_else(|| {
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".into()
        });
        path.split(':')
            .filter(|d| d.starts_with('/'))
            .map(|d| self.host_path(&Path::new(d).join(program)))
            .find(|p| p.is_file())
    }
}

fn parse_environ(bytes: &[u8]) -> BTreeMap<String, String> {
    bytes
        .split(|&b| b == 0 || b == b'\n')
        .filter_map(|kv| {
            let kv = String::from_utf8_lossy(kv);
            let (k, v) = kv.split_once('=')?;
            (!k.is_empty()).then(|| (k.to_string(), v.to_string()))
        })
        .collect()
}

impl System for Host {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let f = self.open(path)?;
        if let Ok(m) = f.metadata() {
            if m.len() > MAX_READ {
                return Err(too_large(path, MAX_READ));
            }
        }
        read_capped(f, MAX_READ, path)
    }

    fn read_range(&self, path: &Path, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        use std::io::{Seek, SeekFrom};
        let ctx = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut f = self.open(path)?;
        f.seek(SeekFrom::Start(offset)).map_err(ctx)?;
        let mut buf = Vec::new();
        f.take(len.min(MAX_READ as usize) as u64)
            .read_to_end(&mut buf)
            .map_err(ctx)?;
        Ok(buf)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<DirEntry>> {
        let p = self.resolved(path, true)?;
        let rd = std::fs::read_dir(&p)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut out = Vec::new();
        for entry in rd.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let ft = entry.file_type().ok();
            let is_symlink = ft.is_some_and(|t| t.is_symlink());
            let shown = path.join(&name);
            let is_dir = if is_symlink {
                self.is_dir(&shown)
            } else {
                ft.is_some_and(|t| t.is_dir())
            };
            out.push(DirEntry {
                path: shown,
                name,
                is_dir,
                is_symlink,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::read_link(self.resolved(path, false)?)
    }

    fn read_dir_names(&self, path: &Path) -> io::Result<Vec<String>> {
        let rd = std::fs::read_dir(self.resolved(path, true)?)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Ok(rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect())
    }

    fn exists(&self, path: &Path) -> bool {
        // A dangling symlink still "exists" as a device node or library link would.
        let Ok(p) = self.resolved(path, false) else {
            return false;
        };
        p.symlink_metadata().is_ok()
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.resolved(path, true)
            .is_ok_and(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
    }

    fn readable(&self, path: &Path) -> bool {
        // A device node (/dev/nvidia0) counts: opened without blocking, not read.
        let Ok(p) = self.resolved(path, true) else {
            return false;
        };
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nonblocking_flags())
            .open(p)
            .is_ok()
    }

    fn env(&self, name: &str) -> Option<String> {
        self.env.get(name).cloned()
    }

    fn env_vars(&self) -> BTreeMap<String, String> {
        self.env.clone()
    }

    fn run(&self, program: &str, args: &[&str], timeout: Duration) -> CommandOutcome {
        let Some(exe) = self.find_program(program) else {
            return CommandOutcome::NotFound;
        };
        run_with_timeout(&exe, args, &self.env, timeout)
    }

    fn run_isolated(
        &self,
        program: &str,
        args: &[&str],
        env: &BTreeMap<String, String>,
        timeout: Duration,
    ) -> CommandOutcome {
        let Some(exe) = self.find_program(program) else {
            return CommandOutcome::NotFound;
        };
        run_in(&exe, args, env, Path::new("/"), timeout)
    }

    fn host_path(&self, path: &Path) -> PathBuf {
        self.resolved(path, true)
            .unwrap_or_else(|_| map_under(&self.root, path))
    }
}

/// Run `exe` with a clean environment (`env`), no stdin, and kill it at `timeout`.
pub fn run_with_timeout<S: AsRef<OsStr>>(
    exe: &Path,
    args: &[S],
    env: &BTreeMap<String, String>,
    timeout: Duration,
) -> CommandOutcome {
    run_in(exe, args, env, Path::new("."), timeout)
}

/// Run `exe` in `cwd` with exactly `env`, no stdin, in its own process group.
/// The deadline holds whatever the program does: at `timeout` the whole
/// group is killed, and when the program exits, anything it left running in
/// its group (a `sleep 40 &` holding the output pipe) is killed too; output
/// still unread at the deadline is abandoned.
pub fn run_in<S: AsRef<OsStr>>(
    exe: &Path,
    args: &[S],
    env: &BTreeMap<String, String>,
    cwd: &Path,
    timeout: Duration,
) -> CommandOutcome {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env_clear()
        .envs(env)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Own process group, so a timeout kills the whole tree (a shell script's children too).
        cmd.process_group(0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return CommandOutcome::NotFound,
        Err(e) => return CommandOutcome::Failed(format!("{}: {e}", exe.display())),
    };
    let start = Instant::now();
    let (tx_out, rx_out) = std::sync::mpsc::channel();
    let (tx_err, rx_err) = std::sync::mpsc::channel();
    let out = child.stdout.take();
    let err = child.stderr.take();
    std::thread::spawn(move || {
        let _ = tx_out.send(drain(out));
    });
    std::thread::spawn(move || {
        let _ = tx_err.send(drain(err));
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() >= timeout => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => {
                kill_group(&mut child);
                return CommandOutcome::Failed(e.to_string());
            }
        }
    };
    let Some(s) = status else {
        kill_group(&mut child);
        let _ = child.wait();
        return CommandOutcome::TimedOut {
            after: start.elapsed(),
        };
    };
    // What the program left behind in its group holds the pipes open.
    kill_group(&mut child);
    let left = timeout
        .saturating_sub(start.elapsed())
        .max(Duration::from_millis(50));
    let deadline = Instant::now() + left;
    let recv = |rx: std::sync::mpsc::Receiver<String>| {
        rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .ok()
    };
    match (recv(rx_out), recv(rx_err)) {
        (Some(stdout), Some(stderr)) => CommandOutcome::Finished {
            code: s.code(),
            stdout,
            stderr,
        },
        // A descendant that left the group still holds the output open.
        _ => CommandOutcome::TimedOut {
            after: start.elapsed(),
        },
    }
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        // The child leads its own process group: signal the group.
        if let Some(pid) = i32::try_from(child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    let _ = child.kill();
}

fn drain<R: Read>(r: Option<R>) -> String {
    let mut buf = Vec::new();
    if let Some(mut r) = r {
        let _ = (&mut r).take(MAX_COMMAND_OUTPUT).read_to_end(&mut buf);
        // Keep reading what is over the cap, so the program is not stalled on a full pipe.
        let _ = io::copy(&mut r, &mut io::sink());
    }
    String::from_utf8_lossy(&buf).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_under_never_escapes() {
        let root = Path::new("/tmp/fx");
        assert_eq!(
            map_under(root, Path::new("/proc/version")),
            Path::new("/tmp/fx/proc/version")
        );
        assert_eq!(
            map_under(root, Path::new("/../../etc/passwd")),
            Path::new("/tmp/fx/etc/passwd")
        );
    }

    #[test]
    fn links_resolve_inside_the_root_both_ways() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "host").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("etc")).unwrap();
        std::fs::create_dir_all(root.join("usr/lib")).unwrap();
        std::fs::write(root.join("usr/lib/os-release"), "image").unwrap();
        symlink("/usr/lib/os-release", root.join("etc/os-release")).unwrap();
        symlink(outside.path().join("secret"), root.join("etc/abs")).unwrap();
        let climb = format!(
            "../../../../../../..{}",
            outside.path().join("secret").display()
        );
        symlink(&climb, root.join("etc/climb")).unwrap();
        symlink("/etc/loop2", root.join("etc/loop1")).unwrap();
        symlink("/etc/loop1", root.join("etc/loop2")).unwrap();
        let h = Host::new(root);
        for open in [Host::open, Host::open_resolved] {
            let read = |p: &str| {
                open(&h, Path::new(p)).map(|mut f| {
                    let mut s = String::new();
                    f.read_to_string(&mut s).unwrap();
                    s
                })
            };
            assert_eq!(read("/etc/os-release").unwrap(), "image");
            assert!(read("/etc/abs").is_err());
            assert!(read("/etc/climb").is_err());
            assert!(read("/etc/loop1").is_err());
        }
        assert_eq!(
            resolve_in_root(root, Path::new("/etc/abs"), true).unwrap(),
            root.join(outside.path().join("secret").strip_prefix("/").unwrap())
        );
        assert!(h.read_link(Path::new("/etc/os-release")).is_ok());
        assert!(!h.exists(Path::new("/etc/abs/x")));
    }

    #[test]
    fn environ_is_read_under_a_root() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("proc/self")).unwrap();
        std::fs::write(
            dir.path().join("proc/self/environ"),
            b"A=1\0CUDA_VISIBLE_DEVICES=\0junk\0",
        )
        .unwrap();
        let h = Host::new(dir.path());
        assert_eq!(h.env("A").as_deref(), Some("1"));
        assert_eq!(h.env("CUDA_VISIBLE_DEVICES").as_deref(), Some(""));
        assert_eq!(h.env("junk"), None);
    }

    #[test]
    fn a_hung_command_is_killed_at_its_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("usr/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let script = bin.join("hang");
        std::fs::write(&script, "#!/bin/sh\nsleep 30\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let h = Host::new(dir.path()).with_env([("PATH".into(), "/usr/bin".into())]);
        let t = Instant::now();
        let out = h.run("hang", &[], Duration::from_millis(300));
        assert!(matches!(out, CommandOutcome::TimedOut { .. }), "{out:?}");
        assert!(t.elapsed() < Duration::from_secs(5));
        assert_eq!(
            h.run("missing", &[], Duration::from_secs(1)),
            CommandOutcome::NotFound
        );
    }
}
