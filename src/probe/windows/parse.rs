//! Parsers for what Windows tools print: `Get-CimInstance Win32_VideoController
//! | ConvertTo-Json`, `reg query`, `wsl --list --verbose` (UTF-16), `py -0p`,
//! a CUDA toolkit's `version.json`; and the mapping of `C:\` paths onto the
//! System seam. Pure functions: they run on any OS.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::inventory::GpuVendor;

/// A Windows absolute path (`C:\Users\me`) as the seam names it (`/Users/me`).
/// The system drive maps to the root; another drive letter `D:` to `/D`.
/// None for a relative or UNC path.
pub fn win_to_path(s: &str) -> Option<PathBuf> {
    let s = s.trim().trim_matches('"');
    let b = s.as_bytes();
    if b.len() < 3
        || !b[0].is_ascii_alphabetic()
        || b[1] != b':'
        || !(b[2] == b'\\' || b[2] == b'/')
    {
        return None;
    }
    let drive = (b[0] as char).to_ascii_uppercase();
    let mut p = PathBuf::from("/");
    if drive != 'C' {
        p.push(drive.to_string());
    }
    for part in s[3..].split(['\\', '/']).filter(|x| !x.is_empty()) {
        p.push(part);
    }
    Some(p)
}

/// One `Win32_VideoController` instance.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Controller {
    pub name: String,
    pub driver_version: Option<String>,
    pub pnp_device_id: Option<String>,
    pub compatibility: Option<String>,
}

/// `Get-CimInstance Win32_VideoController | Select-Object ... | ConvertTo-Json`:
/// one object for one controller, an array for several.
pub fn cim_controllers(json: &str) -> Result<Vec<Controller>, String> {
    let json = json.trim_start_matches('\u{feff}').trim();
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let items = match v {
        serde_json::Value::Array(a) => a,
        o @ serde_json::Value::Object(_) => vec![o],
        _ => return Err("neither an object nor an array".into()),
    };
    let s = |item: &serde_json::Value, k: &str| {
        item.get(k)
            .and_then(|x| x.as_str())
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::to_string)
    };
    Ok(items
        .iter()
        .filter_map(|item| {
            Some(Controller {
                name: s(item, "Name").or_else(|| s(item, "Caption"))?,
                driver_version: s(item, "DriverVersion"),
                pnp_device_id: s(item, "PNPDeviceID"),
                compatibility: s(item, "AdapterCompatibility"),
            })
        })
        .collect())
}

/// The vendor in a PnP device id (`PCI\VEN_10DE&DEV_2684&...`), else from the name.
pub fn controller_vendor(c: &Controller) -> GpuVendor {
    let id = c
        .pnp_device_id
        .as_deref()
        .unwrap_or("")
        .to_ascii_uppercase();
    let name = format!(
        "{} {}",
        c.name,
        c.compatibility.as_deref().unwrap_or_default()
    )
    .to_ascii_lowercase();
    if id.contains("VEN_10DE") || name.contains("nvidia") {
        GpuVendor::Nvidia
    } else if id.contains("VEN_8086") || name.contains("intel") {
        GpuVendor::Intel
    } else if id.contains("VEN_1002") || name.contains("amd") || name.contains("radeon") {
        GpuVendor::Amd
    } else {
        GpuVendor::Other
    }
}

/// `reg query KEY [/v NAME]` lines `    NAME    REG_TYPE    VALUE`, by name.
pub fn reg_values(text: &str) -> BTreeMap<String, (String, String)> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(i) = line.find("    REG_") else {
            continue;
        };
        let name = line[..i].trim();
        let rest = line[i + 4..].trim_start();
        let (ty, value) = match rest.split_once(char::is_whitespace) {
            Some((t, v)) => (t, v.trim()),
            None => (rest, ""),
        };
        if !name.is_empty() {
            out.insert(name.to_string(), (ty.to_string(), value.to_string()));
        }
    }
    out
}

/// A REG_DWORD as `reg query` prints it (`0x1`).
pub fn reg_dword(value: &str) -> Option<u32> {
    let v = value.trim();
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

/// Text that a Windows tool wrote as UTF-16LE and that was read as UTF-8:
/// NULs and the byte-order mark dropped.
pub fn utf16_as_text(s: &str) -> String {
    s.chars()
        .filter(|&c| c != '\0' && c != '\u{feff}' && c != '\u{fffd}')
        .collect()
}

/// One line of `wsl --list --verbose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distro {
    pub name: String,
    pub state: String,
    pub version: u32,
    pub default: bool,
}

/// `wsl.exe --list --verbose` (`* Ubuntu    Running    2`), UTF-16 or not.
pub fn wsl_list(raw: &str) -> Vec<Distro> {
    utf16_as_text(raw)
        .lines()
        .filter_map(|line| {
            let t = line.trim();
            let (default, t) = match t.strip_prefix('*') {
                Some(r) => (true, r.trim_start()),
                None => (false, t),
            };
            let cells: Vec<&str> = t.split_whitespace().collect();
            let [name, state, version] = cells.as_slice() else {
                return None;
            };
            let version = version.parse().ok()?;
            Some(Distro {
                name: name.to_string(),
                state: state.to_string(),
                version,
                default,
            })
        })
        .collect()
}

/// One interpreter the py launcher lists (`py -0p`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launched {
    /// `3.12` (from `-V:3.12` or `-3.12-64`).
    pub version: Option<String>,
    pub path: String,
    pub default: bool,
}

/// `py -0p` lines: ` -V:3.12 *        C:\...\python.exe` (3.11+ launcher) or
/// ` -3.9-64 *      C:\...\python.exe` (older launchers).
pub fn py_list_paths(text: &str) -> Vec<Launched> {
    text.lines()
        .filter_map(|line| {
            let t = line.trim();
            let rest = t.strip_prefix('-')?;
            let (tag, rest) = rest.split_once(char::is_whitespace)?;
            let rest = rest.trim_start();
            let (default, path) = match rest.strip_prefix('*') {
                Some(p) => (true, p.trim()),
                None => (false, rest.trim()),
            };
            if path.is_empty() {
                return None;
            }
            let tag = tag.strip_prefix("V:").unwrap_or(tag);
            let tag = tag.rsplit('/').next().unwrap_or(tag);
            let version = tag
                .split('-')
                .next()
                .filter(|v| {
                    let mut it = v.split('.');
                    it.next().is_some_and(|a| a.parse::<u32>().is_ok())
                        && it.next().is_some_and(|b| b.parse::<u32>().is_ok())
                })
                .map(str::to_string);
            Some(Launched {
                version,
                path: path.to_string(),
                default,
            })
        })
        .collect()
}

/// `Python312` (python.org), `cpython-3.12.4-windows-x86_64-none` (uv) → `3.12`.
pub fn minor_from_dir(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("cpython-") {
        let mut it = rest.split(['.', '-']);
        let (a, b) = (it.next()?, it.next()?);
        return (a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok()).then(|| format!("{a}.{b}"));
    }
    let digits = lower.strip_prefix("python")?;
    let digits = digits.split('-').next()?;
    if digits.len() < 2 || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(format!("{}.{}", &digits[..1], &digits[1..]))
}

/// `"cuda": {"version": "12.4.1"}` of a toolkit's `version.json`.
pub fn toolkit_version_json(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    v.get("cuda")?.get("version")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(
            win_to_path(r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4"),
            Some(PathBuf::from(
                "/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.4"
            ))
        );
        assert_eq!(
            win_to_path(r"d:\mysoft\anaconda3"),
            Some(PathBuf::from("/D/mysoft/anaconda3"))
        );
        assert_eq!(win_to_path(r"relative\dir"), None);
        assert_eq!(win_to_path(r"\\server\share"), None);
        assert_eq!(win_to_path(""), None);
    }

    #[test]
    fn cim_one_or_many() {
        let one = r#"{"Name":"NVIDIA GeForce RTX 4070","DriverVersion":"32.0.15.6094","PNPDeviceID":"PCI\\VEN_10DE&DEV_2786&SUBSYS_00000000&REV_A1\\4&1&0&0008"}"#;
        let c = cim_controllers(one).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(controller_vendor(&c[0]), GpuVendor::Nvidia);
        let many = r#"[{"Name":"Intel(R) UHD Graphics","DriverVersion":"31.0.101.2111","PNPDeviceID":"PCI\\VEN_8086&DEV_9BC4&SUBSYS_170D1043&REV_05\\3&11583659&0&10"},{"Name":"NVIDIA GeForce RTX 3060 Laptop GPU","DriverVersion":"31.0.15.3623"}]"#;
        let c = cim_controllers(many).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(controller_vendor(&c[0]), GpuVendor::Intel);
        assert_eq!(controller_vendor(&c[1]), GpuVendor::Nvidia);
        assert!(cim_controllers("").is_err());
        assert!(cim_controllers("42").is_err());
    }

    #[test]
    fn reg_query_lines() {
        let text = "\r\nHKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\r\n    LongPathsEnabled    REG_DWORD    0x0\r\n\r\n";
        let m = reg_values(text);
        assert_eq!(m["LongPathsEnabled"].0, "REG_DWORD");
        assert_eq!(reg_dword(&m["LongPathsEnabled"].1), Some(0));
        let text = "    ProductName    REG_SZ    Windows 10 Pro\r\n    CurrentBuild    REG_SZ    22631\r\n";
        assert_eq!(reg_values(text)["ProductName"].1, "Windows 10 Pro");
        assert_eq!(reg_dword("0x1"), Some(1));
        assert_eq!(reg_dword("junk"), None);
    }

    #[test]
    fn wsl_list_utf16() {
        let text = "  NAME              STATE           VERSION\r\n* Ubuntu            Running         2\r\n  Legacy            Stopped         1\r\n";
        let utf16: String = std::iter::once('\u{feff}')
            .chain(text.chars())
            .flat_map(|c| [c, '\0'])
            .collect();
        for t in [text.to_string(), utf16] {
            let d = wsl_list(&t);
            assert_eq!(d.len(), 2, "{d:?}");
            assert!(d[0].default);
            assert_eq!(d[0].version, 2);
            assert_eq!(d[1].name, "Legacy");
            assert_eq!(d[1].version, 1);
        }
        assert!(wsl_list("Windows Subsystem for Linux has no installed distributions.").is_empty());
    }

    #[test]
    fn py_launcher_lists() {
        let new = " -V:3.12 *        C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python312\\python.exe\r\n -V:3.11          C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python311\\python.exe\r\n";
        let l = py_list_paths(new);
        assert_eq!(l.len(), 2);
        assert!(l[0].default);
        assert_eq!(l[0].version.as_deref(), Some("3.12"));
        assert!(l[1].path.ends_with("Python311\\python.exe"));
        let old = " -3.9-64 *      C:\\Python39\\python.exe\r\n";
        assert_eq!(py_list_paths(old)[0].version.as_deref(), Some("3.9"));
        let conda = " -V:ContinuumAnalytics/Anaconda39-64 C:\\Users\\me\\anaconda3\\python.exe\r\n";
        let l = py_list_paths(conda);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].version, None);
    }

    #[test]
    fn dir_names() {
        assert_eq!(minor_from_dir("Python312").as_deref(), Some("3.12"));
        assert_eq!(minor_from_dir("Python39").as_deref(), Some("3.9"));
        assert_eq!(minor_from_dir("Python312-32").as_deref(), Some("3.12"));
        assert_eq!(
            minor_from_dir("cpython-3.12.4-windows-x86_64-none").as_deref(),
            Some("3.12")
        );
        assert_eq!(minor_from_dir("Launcher"), None);
    }

    #[test]
    fn version_json() {
        let t = r#"{"cuda" : {"name" : "CUDA SDK", "version" : "12.4.1"}, "cuda_cudart" : {"version" : "12.4.127"}}"#;
        assert_eq!(toolkit_version_json(t).as_deref(), Some("12.4.1"));
        assert_eq!(toolkit_version_json("{}"), None);
    }
}
