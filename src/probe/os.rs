//! Operating system: os-release, kernel, architecture, glibc, Secure Boot, hostname.

use std::path::Path;

use regex::bytes::Regex;

use super::loader::LibraryIndex;
use super::{ffi, text, Ctx, Log};
use crate::inventory::{Fact, OsInfo, OsKind};

const SECURE_BOOT_VAR: &str =
    "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0e1b6f7ce36";

pub(crate) fn probe(ctx: &Ctx, index: &LibraryIndex, log: &mut Log) -> OsInfo {
    let mut os = OsInfo::default();
    for path in ["/etc/os-release", "/usr/lib/os-release"] {
        let Some(content) = text::read(ctx, path, log) else {
            continue;
        };
        let fields = parse_os_release(&content);
        let get = |k: &str| {
            fields
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| Fact::new(v.clone(), path))
        };
        os.id = get("ID");
        os.version_id = get("VERSION_ID");
        os.pretty_name = get("PRETTY_NAME").or_else(|| get("NAME"));
        os.kind = Some(Fact::new(OsKind::Linux, path));
        break;
    }
    if os.kind.is_none() && ctx.sys.is_dir(Path::new("/proc/sys/kernel")) {
        os.kind = Some(Fact::new(OsKind::Linux, "/proc/sys/kernel"));
    }
    os.kernel = text::read_trimmed(ctx, "/proc/sys/kernel/osrelease", log)
        .map(|k| Fact::new(k, "/proc/sys/kernel/osrelease"));
    os.arch = arch(ctx, index, log);
    os.glibc = glibc(ctx, index, log);
    os.secure_boot = secure_boot(ctx, log);
    os.hostname = ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .into_iter()
        .find_map(|p| text::read_trimmed(ctx, p, log).map(|h| Fact::new(h, p)));
    os
}

/// `KEY=value` pairs of an os-release file, quotes and escapes removed.
pub fn parse_os_release(content: &str) -> Vec<(String, String)> {
    content
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            if l.starts_with('#') {
                return None;
            }
            let (k, v) = l.split_once('=')?;
            let k = k.trim();
            if k.is_empty() || !k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return None;
            }
            let v = v.trim();
            let v = match v.as_bytes() {
                [q @ (b'"' | b'\''), .., last] if last == q && v.len() >= 2 => &v[1..v.len() - 1],
                _ => v,
            };
            let mut out = String::with_capacity(v.len());
            let mut chars = v.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                } else {
                    out.push(c);
                }
            }
            Some((k.to_string(), out))
        })
        .collect()
}

fn arch(ctx: &Ctx, index: &LibraryIndex, log: &mut Log) -> Option<Fact<String>> {
    if let Some(a) = text::read_trimmed(ctx, "/proc/sys/kernel/arch", log) {
        return Some(Fact::new(a, "/proc/sys/kernel/arch"));
    }
    if ctx.live {
        return Some(Fact::new(
            std::env::consts::ARCH.to_string(),
            "the architecture this program was built for",
        ));
    }
    // An unpacked image has no /proc: its dynamic loader's name tells.
    let loaders = [
        ("ld-linux-x86-64.so.2", "x86_64"),
        ("ld-linux-aarch64.so.1", "aarch64"),
        ("ld-linux-armhf.so.3", "armv7l"),
        ("ld64.so.2", "ppc64le"),
    ];
    index.dirs.iter().find_map(|d| {
        d.entries.iter().find_map(|e| {
            loaders
                .iter()
                .find(|(n, _)| e.name == *n)
                .map(|(_, a)| Fact::new(a.to_string(), e.path.display().to_string()))
        })
    })
}

fn glibc(ctx: &Ctx, index: &LibraryIndex, log: &mut Log) -> Option<Fact<String>> {
    if ctx.live {
        if let Some(v) = ffi::glibc_version() {
            return Some(Fact::new(v, "gnu_get_libc_version()"));
        }
    }
    let libc = index.first_named("libc.so.6")?;
    // Before glibc 2.34 libc.so.6 links to libc-2.31.so: the name is the version.
    if libc.is_symlink {
        if let Ok(target) = ctx.sys.read_link(&libc.path) {
            let name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Some(v) = name
                .strip_prefix("libc-")
                .and_then(|v| v.strip_suffix(".so"))
            {
                return Some(Fact::new(v.to_string(), libc.path.display().to_string()));
            }
        }
    }
    let path = libc.path.display().to_string();
    match ctx.sys.read(&libc.path) {
        Ok(bytes) => glibc_from_binary(&bytes).map(|v| Fact::new(v, path)),
        Err(e) => {
            log.note(&path, text::unreadable(&path, &e));
            None
        }
    }
}

/// The version in libc.so.6's banner: "GNU C Library (...) stable release version 2.35."
pub fn glibc_from_binary(bytes: &[u8]) -> Option<String> {
    let re =
        Regex::new(r"(?-u)GNU C Library[^\n\x00]*? release version (\d+\.\d+(?:\.\d+)?)").ok()?;
    let caps = re.captures(bytes)?;
    let v = caps.get(1)?;
    Some(String::from_utf8_lossy(v.as_bytes()).into_owned())
}

fn secure_boot(ctx: &Ctx, log: &mut Log) -> Option<Fact<bool>> {
    match ctx.sys.read(Path::new(SECURE_BOOT_VAR)) {
        // 4 bytes of attributes, then the value: 1 enabled, 0 disabled.
        Ok(bytes) => match bytes.get(4) {
            Some(&v) => Some(Fact::new(v == 1, SECURE_BOOT_VAR)),
            None => {
                log.note(SECURE_BOOT_VAR, "shorter than 5 bytes");
                None
            }
        },
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_release_ubuntu() {
        let s = "PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nVERSION=\"22.04.4 LTS (Jammy Jellyfish)\"\nID=ubuntu\nID_LIKE=debian\n# comment\n";
        let f = parse_os_release(s);
        let get = |k: &str| f.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str());
        assert_eq!(get("PRETTY_NAME"), Some("Ubuntu 22.04.4 LTS"));
        assert_eq!(get("ID"), Some("ubuntu"));
        assert_eq!(get("VERSION_ID"), Some("22.04"));
        assert_eq!(get("comment"), None);
    }

    #[test]
    fn os_release_quotes_and_escapes() {
        let f = parse_os_release(
            "NAME='Rocky Linux'\nPRETTY_NAME=\"A \\\"quoted\\\" name\"\nBAD KEY=x\n=x\n",
        );
        assert_eq!(f[0], ("NAME".into(), "Rocky Linux".into()));
        assert_eq!(f[1], ("PRETTY_NAME".into(), "A \"quoted\" name".into()));
        assert_eq!(f.len(), 2);
    }

    #[test]
    fn glibc_banner() {
        let b = b"\x00\x01GNU C Library (Ubuntu GLIBC 2.35-0ubuntu3.8) stable release version 2.35.\nCopyright";
        assert_eq!(glibc_from_binary(b).as_deref(), Some("2.35"));
        let b = b"GNU C Library (GNU libc) release release version 2.28.";
        assert_eq!(glibc_from_binary(b).as_deref(), Some("2.28"));
        assert_eq!(glibc_from_binary(b"musl libc (x86_64)"), None);
    }
}
