//! Reading small text files through the seam, degrading to a Note.

use std::io;
use std::path::Path;

use super::{Ctx, Log};

/// The file as text. A missing file is silently None; any other failure
/// (permissions, a directory where a file should be) is None with a Note.
/// Bytes that are not UTF-8 are replaced, with a Note.
pub(crate) fn read(ctx: &Ctx, path: &str, log: &mut Log) -> Option<String> {
    match ctx.sys.read(Path::new(path)) {
        Ok(bytes) => Some(decode(path, bytes, log)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => {
            log.note(path, unreadable(path, &e));
            None
        }
    }
}

/// Like [`read`], trimmed, and None when empty.
pub(crate) fn read_trimmed(ctx: &Ctx, path: &str, log: &mut Log) -> Option<String> {
    read(ctx, path, log)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

pub(crate) fn decode(path: &str, bytes: Vec<u8>, log: &mut Log) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            log.note(path, "not valid UTF-8; the invalid bytes were replaced");
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    }
}

/// The error without the path the seam already prefixed.
pub(crate) fn unreadable(path: &str, e: &io::Error) -> String {
    let msg = e.to_string();
    let msg = msg
        .strip_prefix(path)
        .and_then(|m| m.strip_prefix(": "))
        .unwrap_or(&msg)
        .to_string();
    format!("unreadable: {msg}")
}

/// The version in a shared library's file name: `libcuda.so.550.54.14` with
/// stem `libcuda` gives `550.54.14`. Only fully numeric suffixes with at
/// least two fields count (`libcuda.so.1` names no version).
pub fn so_version<'a>(file_name: &'a str, stem: &str) -> Option<&'a str> {
    let rest = file_name.strip_prefix(stem)?.strip_prefix(".so.")?;
    let parts: Vec<&str> = rest.split('.').collect();
    (parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
    .then_some(rest)
}

/// `#define NAME VALUE` lines of a C header, VALUE as written.
pub fn c_define<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        (it.next()? == "#define" && it.next()? == name)
            .then(|| it.next())
            .flatten()
    })
}

/// A numeric define, following one level of indirection
/// (`#define NV_TENSORRT_MAJOR TRT_MAJOR_ENTERPRISE`).
pub fn c_define_num(header: &str, name: &str) -> Option<u32> {
    let v = c_define(header, name)?;
    let v = v.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Ok(n) = v.parse() {
        return Some(n);
    }
    let inner = c_define(header, v)?;
    inner.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()
}

/// A minimal glob: `*` matches any run of characters, nothing else is special.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_from_library_file_names() {
        assert_eq!(
            so_version("libcuda.so.550.54.14", "libcuda"),
            Some("550.54.14")
        );
        assert_eq!(
            so_version("libnvidia-ml.so.535.104.05", "libnvidia-ml"),
            Some("535.104.05")
        );
        assert_eq!(so_version("libcudnn.so.9.1.0", "libcudnn"), Some("9.1.0"));
        assert_eq!(so_version("libcuda.so.1", "libcuda"), None);
        assert_eq!(so_version("libcuda.so", "libcuda"), None);
        assert_eq!(so_version("libcudnn_ops.so.9.1.0", "libcudnn"), None);
        assert_eq!(so_version("libcuda.so.550.54.14.bak", "libcuda"), None);
        assert_eq!(so_version("libcuda.so.550..14", "libcuda"), None);
    }

    #[test]
    fn c_defines_with_indirection() {
        let h = "#define TRT_MAJOR_ENTERPRISE 10\n#define NV_TENSORRT_MAJOR TRT_MAJOR_ENTERPRISE //!< major\n#define NV_TENSORRT_MINOR 3\n";
        assert_eq!(c_define_num(h, "NV_TENSORRT_MAJOR"), Some(10));
        assert_eq!(c_define_num(h, "NV_TENSORRT_MINOR"), Some(3));
        assert_eq!(c_define_num(h, "NV_TENSORRT_PATCH"), None);
        assert_eq!(
            c_define_num("#define CUDNN_MAJOR 9u\n", "CUDNN_MAJOR"),
            Some(9)
        );
    }

    #[test]
    fn globs() {
        assert!(glob_match("*.conf", "libc.conf"));
        assert!(glob_match("cuda-*", "cuda-12.4"));
        assert!(!glob_match("*.conf", "libc.conf.bak"));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "aXXcYYb"));
        assert!(glob_match("exact", "exact"));
    }
}
