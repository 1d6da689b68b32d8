//! Parsers for what macOS prints and writes: `SystemVersion.plist`,
//! `sw_vers`, `sysctl`, `system_profiler SPDisplaysDataType -json` and the
//! Mach-O header of an interpreter. Pure functions: they run on any OS.

use std::collections::BTreeMap;

/// `<key>K</key><string>V</string>` pairs of an XML property list (the flat
/// dictionaries `SystemVersion.plist` holds; nested values are skipped).
pub fn plist_strings(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = text;
    while let Some(k) = rest.find("<key>") {
        rest = &rest[k + 5..];
        let Some(end) = rest.find("</key>") else {
            break;
        };
        let key = rest[..end].trim().to_string();
        rest = &rest[end + 6..];
        let value = rest.trim_start();
        if let Some(v) = value.strip_prefix("<string>") {
            if let Some(e) = v.find("</string>") {
                out.insert(key, unescape_xml(v[..e].trim()));
            }
        }
    }
    out
}

fn unescape_xml(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// `ProductName:\tmacOS` lines of `sw_vers`, and `key: value` lines of
/// `sysctl NAME...` (both `name: value`); lines of another shape are skipped.
pub fn colon_pairs(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            let k = k.trim();
            (!k.is_empty() && !k.contains(' ')).then(|| (k.to_string(), v.trim().to_string()))
        })
        .collect()
}

/// One graphics processor of `system_profiler SPDisplaysDataType -json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Display {
    /// `sppci_model` (`Apple M1 Pro`, `Intel Iris Plus Graphics`), else `_name`.
    pub model: String,
    /// `sppci_vendor` / `spdisplays_vendor` (`sppci_vendor_Apple`, `Intel`, `sppci_vendor_amd`).
    pub vendor: Option<String>,
    /// `sppci_cores`: GPU cores of Apple silicon.
    pub cores: Option<u32>,
    /// `Metal 3`, `Metal 2`, from `spdisplays_mtlgpufamilysupport` (or `spdisplays_metal`).
    pub metal: Option<String>,
    /// `spdisplays_device-id` (`0x3ea5`) on PCI GPUs.
    pub device_id: Option<String>,
}

impl Display {
    pub fn is_apple(&self) -> bool {
        self.vendor
            .as_deref()
            .is_some_and(|v| v.to_ascii_lowercase().contains("apple"))
            || self.model.starts_with("Apple M")
    }
}

/// The graphics processors listed by `system_profiler SPDisplaysDataType -json`.
pub fn displays(json: &str) -> Result<Vec<Display>, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let items = v
        .get("SPDisplaysDataType")
        .and_then(|x| x.as_array())
        .ok_or("no SPDisplaysDataType array")?;
    let s = |item: &serde_json::Value, k: &str| {
        item.get(k)
            .and_then(|x| x.as_str())
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(str::to_string)
    };
    Ok(items
        .iter()
        .map(|item| {
            let metal = s(item, "spdisplays_mtlgpufamilysupport")
                .or_else(|| s(item, "spdisplays_metal"))
                .or_else(|| s(item, "spdisplays_metalfamily"))
                .map(|m| metal_words(&m));
            Display {
                model: s(item, "sppci_model")
                    .or_else(|| s(item, "_name"))
                    .unwrap_or_else(|| "unnamed GPU".into()),
                vendor: s(item, "sppci_vendor").or_else(|| s(item, "spdisplays_vendor")),
                cores: s(item, "sppci_cores").and_then(|c| c.parse().ok()),
                metal,
                device_id: s(item, "spdisplays_device-id"),
            }
        })
        .collect())
}

/// `spdisplays_metal3` → `Metal 3` (macOS 13 and later); `spdisplays_mtlgpufamilyapple7`
/// → `Metal GPU family Apple 7` (macOS 11-12); other values are kept as written.
fn metal_words(raw: &str) -> String {
    let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    if let Some(n) = raw.strip_prefix("spdisplays_metal").filter(|n| digits(n)) {
        return format!("Metal {n}");
    }
    if let Some(n) = raw
        .strip_prefix("spdisplays_mtlgpufamilyapple")
        .filter(|n| digits(n))
    {
        return format!("Metal GPU family Apple {n}");
    }
    raw.to_string()
}

/// The CPU architectures a Mach-O file is built for: one for a thin binary,
/// several for a universal (fat) one. None when it is not Mach-O.
pub fn macho_archs(head: &[u8]) -> Option<Vec<&'static str>> {
    let le = |o: usize| -> Option<u32> {
        Some(u32::from_le_bytes(head.get(o..o + 4)?.try_into().ok()?))
    };
    let be = |o: usize| -> Option<u32> {
        Some(u32::from_be_bytes(head.get(o..o + 4)?.try_into().ok()?))
    };
    match be(0)? {
        // MH_MAGIC_64 / MH_MAGIC written little-endian (cf fa ed fe / ce fa ed fe).
        0xcffa_edfe | 0xcefa_edfe => Some(vec![cpu_name(le(4)?)]),
        // FAT_MAGIC / FAT_MAGIC_64: big-endian header, then one entry per slice.
        magic @ (0xcafe_babe | 0xcafe_babf) => {
            let n = be(4)? as usize;
            let size = if magic == 0xcafe_babe { 20 } else { 32 };
            // Java class files share 0xcafebabe; their "count" is a version number.
            if n == 0 || n > 8 {
                return None;
            }
            let mut out: Vec<&'static str> = (0..n)
                .filter_map(|i| be(8 + i * size).map(cpu_name))
                .collect();
            out.sort_unstable();
            out.dedup();
            Some(out)
        }
        _ => None,
    }
}

fn cpu_name(cputype: u32) -> &'static str {
    match cputype {
        0x0100_0007 => "x86_64",
        0x0100_000c => "arm64",
        0x0200_000c => "arm64_32",
        7 => "i386",
        12 => "arm",
        _ => "unknown",
    }
}

/// The architecture a wheel's platform tag is for (`macosx_11_0_arm64` → `arm64`,
/// `macosx_10_9_x86_64` → `x86_64`, `macosx_10_9_universal2` → `arm64 x86_64`).
pub fn wheel_tag_arch(tag: &str) -> Option<&'static str> {
    let platform = tag.rsplit('-').next()?;
    if !platform.starts_with("macosx_") {
        return None;
    }
    if platform.ends_with("_arm64") {
        Some("arm64")
    } else if platform.ends_with("_x86_64") {
        Some("x86_64")
    } else if platform.ends_with("_universal2") {
        Some("arm64 x86_64")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_version_plist() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>ProductBuildVersion</key>\n\t<string>23F79</string>\n\t<key>ProductName</key>\n\t<string>macOS</string>\n\t<key>ProductVersion</key>\n\t<string>14.5</string>\n</dict>\n</plist>\n";
        let m = plist_strings(text);
        assert_eq!(m["ProductVersion"], "14.5");
        assert_eq!(m["ProductBuildVersion"], "23F79");
        assert_eq!(m["ProductName"], "macOS");
    }

    #[test]
    fn sw_vers_and_sysctl_lines() {
        let m =
            colon_pairs("ProductName:\t\tmacOS\nProductVersion:\t\t14.5\nBuildVersion:\t\t23F79\n");
        assert_eq!(m["ProductVersion"], "14.5");
        let m = colon_pairs("hw.memsize: 17179869184\nmachdep.cpu.brand_string: Apple M1 Pro\nhw.optional.arm64: 1\n");
        assert_eq!(m["machdep.cpu.brand_string"], "Apple M1 Pro");
        assert_eq!(m["hw.optional.arm64"], "1");
    }

    #[test]
    fn displays_of_an_m3_and_an_intel_mac() {
        let m3 = r#"{"SPDisplaysDataType":[{"_name":"Apple M3 Pro","spdisplays_mtlgpufamilysupport":"spdisplays_metal3","sppci_cores":"18","sppci_model":"Apple M3 Pro","sppci_vendor":"sppci_vendor_Apple"}]}"#;
        let d = displays(m3).unwrap();
        assert_eq!(d.len(), 1);
        assert!(d[0].is_apple());
        assert_eq!(d[0].cores, Some(18));
        assert_eq!(d[0].metal.as_deref(), Some("Metal 3"));
        let intel = r#"{"SPDisplaysDataType":[{"_name":"kHW_IntelIrisPlusGraphics655Item","spdisplays_vendor":"Intel","sppci_model":"Intel Iris Plus Graphics 655","spdisplays_device-id":"0x3ea5","spdisplays_mtlgpufamilysupport":"spdisplays_metal3"}]}"#;
        let d = displays(intel).unwrap();
        assert!(!d[0].is_apple());
        assert_eq!(d[0].device_id.as_deref(), Some("0x3ea5"));
        let m1 = r#"{"SPDisplaysDataType":[{"_name":"kHW_AppleM1Item","spdisplays_metalfamily":"spdisplays_mtlgpufamilyapple7"}]}"#;
        let d = displays(m1).unwrap();
        assert_eq!(d[0].metal.as_deref(), Some("Metal GPU family Apple 7"));
        assert!(displays("[]").is_err());
        assert!(displays("not json").is_err());
    }

    #[test]
    fn macho_headers() {
        let arm = [0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0x00, 0x00, 0x01];
        assert_eq!(macho_archs(&arm), Some(vec!["arm64"]));
        let x86 = [0xcf, 0xfa, 0xed, 0xfe, 0x07, 0x00, 0x00, 0x01];
        assert_eq!(macho_archs(&x86), Some(vec!["x86_64"]));
        let mut fat = vec![0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2];
        fat.extend([1, 0, 0, 7]);
        fat.extend([0; 16]);
        fat.extend([1, 0, 0, 12]);
        fat.extend([0; 16]);
        assert_eq!(macho_archs(&fat), Some(vec!["arm64", "x86_64"]));
        assert_eq!(macho_archs(b"\x7fELF\x02\x01\x01\x00"), None);
        assert_eq!(macho_archs(&[0xcf, 0xfa]), None);
        // A Java class file (major version 52) is not a fat binary.
        assert_eq!(macho_archs(&[0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]), None);
    }

    #[test]
    fn wheel_tags() {
        assert_eq!(
            wheel_tag_arch("cp312-none-macosx_11_0_arm64"),
            Some("arm64")
        );
        assert_eq!(
            wheel_tag_arch("cp39-none-macosx_10_9_x86_64"),
            Some("x86_64")
        );
        assert_eq!(wheel_tag_arch("cp312-cp312-win_amd64"), None);
    }
}
