//! Version types for the three numbers every GPU stack question turns on:
//! the NVIDIA driver, the CUDA version and the GPU's compute capability.
//!
//! Each type parses every spelling seen in the wild, orders totally, prints
//! in one canonical form and (de)serializes as that string.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A spelling that could not be read as the version type asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {input:?} as a {kind}: {reason}")]
pub struct ParseVersionError {
    pub kind: &'static str,
    pub input: String,
    pub reason: &'static str,
}

fn err(kind: &'static str, input: &str, reason: &'static str) -> ParseVersionError {
    ParseVersionError {
        kind,
        input: input.to_string(),
        reason,
    }
}

fn parse_u32(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

macro_rules! string_serde {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

// ---------------------------------------------------------------------------
// DriverVersion
// ---------------------------------------------------------------------------

/// An NVIDIA driver version: `550.54.14`, `535.104.05`, `570.26`, Windows
/// `552.22`, a branch-only bound `580` / `R615`.
///
/// The fields after the branch keep their printed width (`535.104.05` has a
/// zero-padded patch) so that the version prints as the driver names itself.
#[derive(Debug, Clone)]
pub struct DriverVersion {
    branch: u32,
    minor: Option<(u32, u8)>,
    patch: Option<(u32, u8)>,
}

impl DriverVersion {
    pub fn new(branch: u32, minor: Option<u32>, patch: Option<u32>) -> Self {
        DriverVersion {
            branch,
            minor: minor.map(|m| (m, 2)),
            patch: patch.map(|p| (p, 2)),
        }
    }

    /// The first dot field: `535.104.05` is on branch 535 (printed `R535`).
    pub fn branch(&self) -> u32 {
        self.branch
    }

    pub fn branch_name(&self) -> String {
        format!("R{}", self.branch)
    }

    /// True when only the branch is known (`580`, `R615`): a bound, not a build.
    pub fn is_branch_only(&self) -> bool {
        self.minor.is_none()
    }

    /// The same release as far as both versions say: `565` and `565.57.01`
    /// agree (a branch is no build), `565.57.01` and `565.77` do not.
    pub fn agrees_with(&self, other: &DriverVersion) -> bool {
        if self.branch != other.branch {
            return false;
        }
        let same = |a: Option<(u32, u8)>, b: Option<(u32, u8)>| match (a, b) {
            (Some(x), Some(y)) => x.0 == y.0,
            _ => true,
        };
        same(self.minor, other.minor) && same(self.patch, other.patch)
    }

    fn key(&self) -> (u32, u32, u32) {
        (
            self.branch,
            self.minor.map_or(0, |m| m.0),
            self.patch.map_or(0, |p| p.0),
        )
    }

    /// Windows reports the driver in its internal form `32.0.15.5222`; the
    /// public number is the last five digits of the last two fields: `552.22`.
    pub fn from_windows_internal(s: &str) -> Result<Self, ParseVersionError> {
        const KIND: &str = "Windows internal driver version";
        let parts: Vec<&str> = s.trim().split('.').collect();
        if parts.len() != 4 || parts.iter().any(|p| parse_u32(p).is_none()) {
            return Err(err(KIND, s, "expected four dot-separated numbers"));
        }
        let digits = format!("{}{}", parts[2], parts[3]);
        if digits.len() < 5 {
            return Err(err(KIND, s, "too few digits in the last two fields"));
        }
        let tail = &digits[digits.len() - 5..];
        let branch = parse_u32(&tail[..3]).ok_or_else(|| err(KIND, s, "bad digits"))?;
        let minor = parse_u32(&tail[3..]).ok_or_else(|| err(KIND, s, "bad digits"))?;
        Ok(DriverVersion {
            branch,
            minor: Some((minor, 2)),
            patch: None,
        })
    }

    /// The Windows internal form of a two-field Windows version: `552.22` → `32.0.15.5222`.
    pub fn to_windows_internal(&self) -> Option<String> {
        if self.patch.is_some() {
            return None;
        }
        let (minor, _) = self.minor?;
        if self.branch > 999 || minor > 99 {
            return None;
        }
        let five = format!("{:03}{:02}", self.branch, minor);
        Some(format!("32.0.1{}.{}", &five[..1], &five[1..]))
    }
}

impl FromStr for DriverVersion {
    type Err = ParseVersionError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        const KIND: &str = "driver version";
        let s = input.trim();
        let s = s.strip_prefix(['R', 'r']).unwrap_or(s);
        if s.is_empty() {
            return Err(err(KIND, input, "empty"));
        }
        let parts: Vec<&str> = s.split('.').collect();
        if parts.len() == 4 {
            return DriverVersion::from_windows_internal(s);
        }
        if parts.len() > 3 {
            return Err(err(KIND, input, "too many dot-separated fields"));
        }
        let nums: Option<Vec<u32>> = parts.iter().map(|p| parse_u32(p)).collect();
        let nums = nums.ok_or_else(|| err(KIND, input, "expected numbers like 550.54.14"))?;
        if nums[0] < 100 || nums[0] > 9999 {
            return Err(err(KIND, input, "the branch must be a number such as 550"));
        }
        let width = |i: usize| parts.get(i).map(|p| p.len().min(9) as u8);
        Ok(DriverVersion {
            branch: nums[0],
            minor: nums.get(1).map(|&m| (m, width(1).unwrap_or(2))),
            patch: nums.get(2).map(|&p| (p, width(2).unwrap_or(2))),
        })
    }
}

impl fmt::Display for DriverVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.branch)?;
        if let Some((m, w)) = self.minor {
            write!(f, ".{:0width$}", m, width = w as usize)?;
        }
        if let Some((p, w)) = self.patch {
            write!(f, ".{:0width$}", p, width = w as usize)?;
        }
        Ok(())
    }
}

impl PartialEq for DriverVersion {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for DriverVersion {}
impl PartialOrd for DriverVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for DriverVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}
impl std::hash::Hash for DriverVersion {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}
string_serde!(DriverVersion);

// ---------------------------------------------------------------------------
// CudaVersion
// ---------------------------------------------------------------------------

/// A CUDA version: `12.4`, `12.4.1`, `12040` (cuDriverGetVersion),
/// `cu124` (wheel tag), `V12.4.131` (nvcc), `12.4.127` (nvidia-* wheel).
#[derive(Debug, Clone, Copy)]
pub struct CudaVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: Option<u32>,
}

impl CudaVersion {
    pub const fn new(major: u32, minor: u32) -> Self {
        CudaVersion {
            major,
            minor,
            patch: None,
        }
    }

    /// The integer form used by `cuDriverGetVersion` and NVML: 1000·major + 10·minor.
    pub fn from_int(v: u32) -> Result<Self, ParseVersionError> {
        if !(1000..=99_990).contains(&v) {
            return Err(err(
                "CUDA version",
                &v.to_string(),
                "an integer CUDA version is 1000*major + 10*minor, e.g. 12040",
            ));
        }
        Ok(CudaVersion::new(v / 1000, (v % 1000) / 10))
    }

    pub fn to_int(&self) -> u32 {
        self.major * 1000 + self.minor * 10
    }

    /// The same version without its patch level: `12.4.1` → `12.4`.
    pub fn major_minor(&self) -> CudaVersion {
        CudaVersion::new(self.major, self.minor)
    }

    /// The PyTorch wheel tag: `12.4` → `cu124`.
    pub fn wheel_tag(&self) -> String {
        format!("cu{}{}", self.major, self.minor)
    }

    fn key(&self) -> (u32, u32, u32) {
        (self.major, self.minor, self.patch.unwrap_or(0))
    }
}

impl FromStr for CudaVersion {
    type Err = ParseVersionError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        const KIND: &str = "CUDA version";
        let mut s = input.trim();
        for prefix in ["CUDA ", "cuda ", "CUDA", "cuda"] {
            if let Some(rest) = s.strip_prefix(prefix) {
                s = rest.trim_start();
                break;
            }
        }
        if let Some(tag) = s.strip_prefix("cu") {
            // cu124 → 12.4, cu92 → 9.2, cu130 → 13.0: the last digit is the minor.
            if tag.len() < 2 || tag.len() > 3 || parse_u32(tag).is_none() {
                return Err(err(KIND, input, "a wheel tag looks like cu124"));
            }
            let (maj, min) = tag.split_at(tag.len() - 1);
            return Ok(CudaVersion::new(
                parse_u32(maj).unwrap_or(0),
                parse_u32(min).unwrap_or(0),
            ));
        }
        let s = s.strip_prefix(['V', 'v']).unwrap_or(s);
        if s.is_empty() {
            return Err(err(KIND, input, "empty"));
        }
        if !s.contains('.') {
            let v = parse_u32(s).ok_or_else(|| err(KIND, input, "expected e.g. 12.4"))?;
            return CudaVersion::from_int(v).map_err(|_| {
                err(
                    KIND,
                    input,
                    "expected 12.4, 12.4.1, 12040, cu124 or V12.4.131",
                )
            });
        }
        let parts: Vec<&str> = s.split('.').collect();
        if parts.len() > 3 {
            return Err(err(KIND, input, "too many dot-separated fields"));
        }
        let nums: Option<Vec<u32>> = parts.iter().map(|p| parse_u32(p)).collect();
        let nums = nums.ok_or_else(|| err(KIND, input, "expected numbers like 12.4.1"))?;
        if nums[0] == 0 || nums[0] > 99 || nums[1] > 99 {
            return Err(err(
                KIND,
                input,
                "major and minor are small numbers, e.g. 12.4",
            ));
        }
        Ok(CudaVersion {
            major: nums[0],
            minor: nums[1],
            patch: nums.get(2).copied(),
        })
    }
}

impl fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(p) => write!(f, "{}.{}.{}", self.major, self.minor, p),
            None => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

impl PartialEq for CudaVersion {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for CudaVersion {}
impl PartialOrd for CudaVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for CudaVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}
impl std::hash::Hash for CudaVersion {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}
string_serde!(CudaVersion);

// ---------------------------------------------------------------------------
// ComputeCapability
// ---------------------------------------------------------------------------

/// The suffix of an architecture-specific (`sm_90a`) or family (`sm_100f`) target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ArchSuffix {
    #[default]
    None,
    /// `a`: architecture-specific features, runs only on exactly this CC.
    Specific,
    /// `f`: family-specific features, runs within the family.
    Family,
}

/// A GPU compute capability: `8.9`, `sm_89`, `compute_89`, `89`, `sm_90a`,
/// `sm_100f`, `12.0`, `sm_120`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ComputeCapability {
    pub major: u32,
    pub minor: u32,
    pub suffix: ArchSuffix,
}

impl ComputeCapability {
    pub const fn new(major: u32, minor: u32) -> Self {
        ComputeCapability {
            major,
            minor,
            suffix: ArchSuffix::None,
        }
    }

    /// The same CC without an `a`/`f` suffix.
    pub fn plain(&self) -> ComputeCapability {
        ComputeCapability::new(self.major, self.minor)
    }

    /// `sm_89`, `sm_90a`.
    pub fn sm(&self) -> String {
        format!("sm_{}{}{}", self.major, self.minor, self.suffix_str())
    }

    fn suffix_str(&self) -> &'static str {
        match self.suffix {
            ArchSuffix::None => "",
            ArchSuffix::Specific => "a",
            ArchSuffix::Family => "f",
        }
    }
}

impl FromStr for ComputeCapability {
    type Err = ParseVersionError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        const KIND: &str = "compute capability";
        let s = input.trim();
        let s = s
            .strip_prefix("sm_")
            .or_else(|| s.strip_prefix("compute_"))
            .or_else(|| s.strip_prefix("SM_"))
            .or_else(|| s.strip_prefix("sm"))
            .unwrap_or(s);
        let (body, suffix) = match s.as_bytes().last() {
            Some(b'a') => (&s[..s.len() - 1], ArchSuffix::Specific),
            Some(b'f') => (&s[..s.len() - 1], ArchSuffix::Family),
            _ => (s, ArchSuffix::None),
        };
        if body.is_empty() {
            return Err(err(KIND, input, "empty"));
        }
        let (major, minor) = if let Some((a, b)) = body.split_once('.') {
            match (parse_u32(a), parse_u32(b)) {
                (Some(a), Some(b)) if b < 10 => (a, b),
                _ => return Err(err(KIND, input, "expected e.g. 8.9 or sm_89")),
            }
        } else {
            // 89 → 8.9, 120 → 12.0: the last digit is the minor.
            let v =
                parse_u32(body).ok_or_else(|| err(KIND, input, "expected e.g. 8.9 or sm_89"))?;
            if !(10..=999).contains(&v) {
                return Err(err(KIND, input, "expected e.g. 8.9 or sm_89"));
            }
            (v / 10, v % 10)
        };
        if major == 0 || major > 99 {
            return Err(err(KIND, input, "major out of range"));
        }
        Ok(ComputeCapability {
            major,
            minor,
            suffix,
        })
    }
}

impl fmt::Display for ComputeCapability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}{}", self.major, self.minor, self.suffix_str())
    }
}
string_serde!(ComputeCapability);

// ---------------------------------------------------------------------------
// Arch targets
// ---------------------------------------------------------------------------

/// Whether a compiled target is machine code for one GPU generation or PTX
/// that the driver JIT-compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    Sass,
    Ptx,
}

/// One entry of an arch list: `sm_86` (SASS) or `compute_90` (PTX).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArchTarget {
    pub kind: TargetKind,
    pub cc: ComputeCapability,
}

impl ArchTarget {
    pub fn sass(cc: ComputeCapability) -> Self {
        ArchTarget {
            kind: TargetKind::Sass,
            cc,
        }
    }
    pub fn ptx(cc: ComputeCapability) -> Self {
        ArchTarget {
            kind: TargetKind::Ptx,
            cc,
        }
    }
}

impl FromStr for ArchTarget {
    type Err = ParseVersionError;
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let s = input.trim();
        if let Some(rest) = s.strip_prefix("compute_") {
            return Ok(ArchTarget::ptx(rest.parse()?));
        }
        Ok(ArchTarget::sass(s.parse()?))
    }
}

impl fmt::Display for ArchTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            TargetKind::Sass => write!(f, "{}", self.cc.sm()),
            TargetKind::Ptx => write!(f, "compute_{}", &self.cc.sm()[3..]),
        }
    }
}
string_serde!(ArchTarget);

/// Parse an arch list in any spelling in use: `sm_80 sm_86 compute_90`,
/// `TORCH_CUDA_ARCH_LIST` style `8.0;8.6;9.0+PTX`, `torch.cuda.get_arch_list()`
/// output `['sm_80', 'sm_86']`, comma separated lists.
pub fn parse_arch_list(input: &str) -> Result<Vec<ArchTarget>, ParseVersionError> {
    let mut out = Vec::new();
    let cleaned: String = input
        .chars()
        .map(|c| match c {
            '[' | ']' | '\'' | '"' | ',' | ';' => ' ',
            c => c,
        })
        .collect();
    for tok in cleaned.split_whitespace() {
        let (base, ptx) = match tok
            .strip_suffix("+PTX")
            .or_else(|| tok.strip_suffix("+ptx"))
        {
            Some(b) => (b, true),
            None => (tok, false),
        };
        let target: ArchTarget = base.parse()?;
        if !out.contains(&target) {
            out.push(target);
        }
        if ptx {
            let p = ArchTarget::ptx(target.cc);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    if out.is_empty() {
        return Err(err("arch list", input, "no targets found"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_branch_agrees_with_its_builds_only() {
        let d = |s: &str| s.parse::<DriverVersion>().unwrap();
        assert!(d("565").agrees_with(&d("565.57.01")));
        assert!(d("565.57.01").agrees_with(&d("565")));
        assert!(d("565.57.01").agrees_with(&d("565.57.01")));
        assert!(!d("565.57.01").agrees_with(&d("565.77")));
        assert!(!d("565").agrees_with(&d("570.86.10")));
    }

    #[test]
    fn driver_spellings() {
        let v: DriverVersion = "535.104.05".parse().unwrap();
        assert_eq!(v.to_string(), "535.104.05");
        assert_eq!(v.branch_name(), "R535");
        assert_eq!("470.82.01".parse::<DriverVersion>().unwrap().branch(), 470);
        assert_eq!(
            "552.22".parse::<DriverVersion>().unwrap().to_string(),
            "552.22"
        );
        assert_eq!(
            "32.0.15.5222".parse::<DriverVersion>().unwrap().to_string(),
            "552.22"
        );
        assert_eq!(
            "552.22"
                .parse::<DriverVersion>()
                .unwrap()
                .to_windows_internal()
                .unwrap(),
            "32.0.15.5222"
        );
        let r: DriverVersion = "R615".parse().unwrap();
        assert!(r.is_branch_only());
        assert_eq!(r.to_string(), "615");
        assert!("550.54.14".parse::<DriverVersion>().unwrap() > "550.54.1".parse().unwrap());
        assert!("535.104.05".parse::<DriverVersion>().unwrap() > "535.54.03".parse().unwrap());
        assert!("580".parse::<DriverVersion>().unwrap() <= "580.65.06".parse().unwrap());
        for bad in ["", "abc", "5.4", "550.x", "1.2.3.4.5", "550..1", "R"] {
            assert!(bad.parse::<DriverVersion>().is_err(), "{bad}");
        }
    }

    #[test]
    fn cuda_spellings() {
        let want = CudaVersion::new(12, 4);
        for s in ["12.4", "12040", "cu124", "CUDA 12.4"] {
            assert_eq!(s.parse::<CudaVersion>().unwrap(), want, "{s}");
        }
        assert_eq!(
            "V12.4.131".parse::<CudaVersion>().unwrap().to_string(),
            "12.4.131"
        );
        assert_eq!(
            "12.4.127".parse::<CudaVersion>().unwrap().major_minor(),
            want
        );
        assert_eq!(
            "13.0".parse::<CudaVersion>().unwrap(),
            CudaVersion::new(13, 0)
        );
        assert_eq!(
            "cu92".parse::<CudaVersion>().unwrap(),
            CudaVersion::new(9, 2)
        );
        assert_eq!(
            "cu130".parse::<CudaVersion>().unwrap(),
            CudaVersion::new(13, 0)
        );
        assert_eq!(
            "11020".parse::<CudaVersion>().unwrap(),
            CudaVersion::new(11, 2)
        );
        assert!("12.4.1".parse::<CudaVersion>().unwrap() > want);
        assert_eq!(want.wheel_tag(), "cu124");
        for bad in ["", "cu", "cuX", "12", "12.x", "1.2.3.4", "V", "0.1"] {
            assert!(bad.parse::<CudaVersion>().is_err(), "{bad}");
        }
    }

    #[test]
    fn cc_spellings() {
        let want = ComputeCapability::new(8, 9);
        for s in ["8.9", "sm_89", "compute_89", "89"] {
            assert_eq!(s.parse::<ComputeCapability>().unwrap(), want, "{s}");
        }
        let a: ComputeCapability = "sm_90a".parse().unwrap();
        assert_eq!(a.suffix, ArchSuffix::Specific);
        assert_eq!(a.sm(), "sm_90a");
        let f: ComputeCapability = "sm_100f".parse().unwrap();
        assert_eq!((f.major, f.minor, f.suffix), (10, 0, ArchSuffix::Family));
        assert_eq!(
            "12.0".parse::<ComputeCapability>().unwrap(),
            "sm_120".parse().unwrap()
        );
        for bad in ["", "sm_", "x", "8.10", "sm_9", "0.5"] {
            assert!(bad.parse::<ComputeCapability>().is_err(), "{bad}");
        }
    }

    #[test]
    fn arch_lists() {
        let l = parse_arch_list("8.0;8.6;9.0+PTX").unwrap();
        let s: Vec<String> = l.iter().map(|t| t.to_string()).collect();
        assert_eq!(s, ["sm_80", "sm_86", "sm_90", "compute_90"]);
        let l = parse_arch_list("['sm_50', 'sm_60', 'compute_90']").unwrap();
        assert_eq!(l.len(), 3);
        assert_eq!(l[2].kind, TargetKind::Ptx);
        assert!(parse_arch_list("  ").is_err());
        assert!(parse_arch_list("sm_80 banana").is_err());
    }

    #[test]
    fn serde_roundtrip() {
        let v: DriverVersion = serde_json::from_str("\"535.104.05\"").unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"535.104.05\"");
        let c: CudaVersion = serde_json::from_str("\"12.4\"").unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"12.4\"");
        assert!(serde_json::from_str::<ComputeCapability>("\"zz\"").is_err());
    }
}
