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

    /// The file as text, with invalid UTF-8 replaced; at most `limit` bytes are read.
    fn read_text(&self, path: &Path) -> io::Result<String> {
        let bytes = self.read(path)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Where `path` lies on this machine's own file system (for dlopen, exec).
    fn host_path(&self, path: &Path) -> PathBuf {
        map_under(self.root(), path)
    }
}

/// Map an absolute path of the probed system under `root`, never escaping it.
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

/// Files larger than this are not read whole: no probed file should be near it.
const MAX_READ: u64 = 16 * 1024 * 1024;

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
        let env = if live {
            std::env::vars_os()
                .filter_map(|(k, v)| {
                    Some((k.into_string().ok()?, v.to_string_lossy().into_owned()))
                })
                .collect()
        } else {
            read_environ(&root.join("proc/self/environ"))
        };
        Host { root, env }
    }

    /// Replace or add environment variables (tests, `--root` with overrides).
    pub fn with_env(mut self, vars: impl IntoIterator<Item = (String, String)>) -> Host {
        self.env.extend(vars);
        self
    }

    pub fn is_live(&self) -> bool {
        self.root == Path::new("/")
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

fn read_environ(path: &Path) -> BTreeMap<String, String> {
    let Ok(bytes) = std::fs::read(path) else {
        return BTreeMap::new();
    };
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
        let p = self.host_path(path);
        let f = std::fs::File::open(&p)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut buf = Vec::new();
        f.take(MAX_READ)
            .read_to_end(&mut buf)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Ok(buf)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<DirEntry>> {
        let p = self.host_path(path);
        let rd = std::fs::read_dir(&p)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut out = Vec::new();
        for entry in rd.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let ft = entry.file_type().ok();
            let is_symlink = ft.is_some_and(|t| t.is_symlink());
            let is_dir = if is_symlink {
                entry.path().is_dir()
            } else {
                ft.is_some_and(|t| t.is_dir())
            };
            out.push(DirEntry {
                path: path.join(&name),
                name,
                is_dir,
                is_symlink,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn read_link(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::read_link(self.host_path(path))
    }

    fn exists(&self, path: &Path) -> bool {
        // A dangling symlink still "exists" as a device node or library link would.
        let p = self.host_path(path);
        p.exists() || p.symlink_metadata().is_ok()
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.host_path(path).is_dir()
    }

    fn readable(&self, path: &Path) -> bool {
        std::fs::File::open(self.host_path(path)).is_ok()
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
}

/// Run `exe` with a clean environment (`env`), no stdin, and kill it at `timeout`.
pub fn run_with_timeout<S: AsRef<OsStr>>(
    exe: &Path,
    args: &[S],
    env: &BTreeMap<String, String>,
    timeout: Duration,
) -> CommandOutcome {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env_clear()
        .envs(env)
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
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let out_t = std::thread::spawn(move || drain(out.as_mut()));
    let err_t = std::thread::spawn(move || drain(err.as_mut()));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() >= timeout => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return CommandOutcome::Failed(e.to_string()),
        }
    };
    match status {
        Some(s) => CommandOutcome::Finished {
            code: s.code(),
            stdout: out_t.join().unwrap_or_default(),
            stderr: err_t.join().unwrap_or_default(),
        },
        None => {
            kill_tree(&mut child);
            let _ = child.wait();
            CommandOutcome::TimedOut {
                after: start.elapsed(),
            }
        }
    }
}

fn kill_tree(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        // The child leads its own process group: signal the group.
        let pgid = child.id() as i32;
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pgid}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
}

fn drain<R: Read>(r: Option<&mut R>) -> String {
    let mut buf = Vec::new();
    if let Some(r) = r {
        let _ = r.take(MAX_READ).read_to_end(&mut buf);
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
