//! The `NVIDIA_REQUIRE_*` requirement language, evaluated the way the
//! container runtime evaluates it, so an image can be checked against a host
//! (or a saved card) before anyone runs `docker run --gpus`.
//!
//! Two layers, each following its own upstream source (re-implemented here,
//! behaviour for behaviour):
//!
//! 1. The expression evaluator of libnvidia-container
//!    (`src/cli/dsl.c`: `dsl_evaluate`, `evaluate_rule`, `dsl_compare_version`,
//!    `dsl_compare_string`) and its four rules (`src/cli/configure.c`:
//!    `check_cuda_version`, `check_driver_version`, `check_device_arch`,
//!    `check_device_brand`, and the per-device loop in `configure_command`).
//! 2. How nvidia-container-toolkit turns an image's environment into
//!    `--require=` arguments (`internal/config/image/cuda_image.go`:
//!    `GetRequirements`, `IsLegacy`, `HasDisableRequire`, `legacyVersion`).
//!
//! What the runtime compares against (libnvidia-container `src/driver.c`):
//! - `cuda`: `nvmlSystemGetCudaDriverVersion` printed as `major.minor`
//!   (`version / 1000`, `version % 100 / 10`), the newest CUDA the driver runs;
//! - `driver`: `nvmlSystemGetDriverVersion`, e.g. `535.104.05`;
//! - `arch`: `nvmlDeviceGetCudaComputeCapability` printed as `major.minor`;
//! - `brand`: `nvmlDeviceGetBrand` mapped to `Quadro`, `Tesla`, `NVS`, `GRID`,
//!   `GeForce`, `TITAN`, and `Unknown` for every other brand (so an H100,
//!   whose NVML brand is `NVIDIA`, is `brand=unknown` to the runtime).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// `EXPR_MAX` in dsl.c: a false term is formatted as `"<rule> <op> <value>"`
/// into a buffer of this size for error reporting; when it does not fit,
/// `evaluate_rule` returns -1 and the whole predicate is an invalid expression.
pub const EXPR_MAX: usize = 128;

/// The hint newer libnvidia-container releases append when the first clause
/// starts with `cuda>=` (dsl.c `dsl_evaluate`, `CUDA_REQUIRE_GREATER`).
pub const CUDA_HINT: &str =
    "please update your driver to a newer version, or use an earlier cuda container";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cmp {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "!=")]
    Ne,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
}

impl Cmp {
    /// The operator table of dsl.c, in its order (the order matters: see [`parse_term`]).
    pub const TABLE: [(&'static str, Cmp); 6] = [
        ("=", Cmp::Eq),
        ("!=", Cmp::Ne),
        ("<", Cmp::Lt),
        ("<=", Cmp::Le),
        (">", Cmp::Gt),
        (">=", Cmp::Ge),
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// The four rules of configure.c.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    Cuda,
    Driver,
    Arch,
    Brand,
}

impl Rule {
    pub const ALL: [Rule; 4] = [Rule::Cuda, Rule::Driver, Rule::Arch, Rule::Brand];

    pub fn name(&self) -> &'static str {
        match self {
            Rule::Cuda => "cuda",
            Rule::Driver => "driver",
            Rule::Arch => "arch",
            Rule::Brand => "brand",
        }
    }

    /// Rule names match case-insensitively (`str_case_equal` in `evaluate_rule`).
    pub fn lookup(name: &str) -> Option<Rule> {
        Rule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One `<rule><op><value>` term as `evaluate_rule` splits it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term<'a> {
    /// The rule name as written (before lookup).
    pub name: &'a str,
    pub cmp: Cmp,
    /// Everything after the operator run, verbatim.
    pub value: &'a str,
}

/// Why a term is an "invalid expression".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Malformed {
    /// The term starts with one of `<>=!`, so there is no rule name.
    NoRuleName,
    /// No operator character in the term.
    NoOperator,
    /// The run of operator characters is not one of the six operators.
    BadOperator(String),
    /// Nothing after the operator.
    EmptyValue,
    /// Not `cuda`, `driver`, `arch` or `brand`.
    UnknownRule(String),
    /// A version that is not digits and dots, starts with a dot, or overflows.
    BadVersion(String),
    /// `<`, `<=`, `>`, `>=` on `brand`, which only knows `=` and `!=`.
    OrderOnBrand,
    /// A false term too long to format into dsl.c's 128-byte error buffer.
    TooLong(usize),
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Malformed::NoRuleName => write!(f, "the term starts with an operator (no rule name)"),
            Malformed::NoOperator => write!(f, "no operator (=, !=, <, <=, >, >=)"),
            Malformed::BadOperator(op) => write!(f, "{op:?} is not an operator"),
            Malformed::EmptyValue => write!(f, "nothing after the operator"),
            Malformed::UnknownRule(r) => {
                write!(f, "unknown rule {r:?} (cuda, driver, arch, brand)")
            }
            Malformed::BadVersion(v) => write!(
                f,
                "{v:?} is not a version the runtime can compare (digits and dots only)"
            ),
            Malformed::OrderOnBrand => write!(f, "brand compares only with = and !="),
            Malformed::TooLong(n) => write!(
                f,
                "the false term formats to {n} bytes, more than the runtime's {EXPR_MAX}-byte buffer holds"
            ),
        }
    }
}

/// Split a term as `evaluate_rule` does.
///
/// dsl.c: the rule name is everything before the first of `<>=!`
/// (`strcspn`); the operator is the whole run of those characters after it
/// (`strspn`, length n); the operator is the first table entry `op` with
/// `strncmp(run, op, n) == 0`, i.e. an entry at least n long whose first n
/// characters are the run. So `!` alone matches `!=` (and means "not equal"),
/// while `==`, `=<` or `<>` match nothing. The value starts right after the
/// run and must not be empty.
pub fn parse_term(term: &str) -> Result<Term<'_>, Malformed> {
    const OPS: &[u8] = b"<>=!";
    let bytes = term.as_bytes();
    let n = bytes.iter().position(|b| OPS.contains(b));
    let n = match n {
        Some(0) => return Err(Malformed::NoRuleName),
        Some(n) => n,
        None => return Err(Malformed::NoOperator),
    };
    let run_len = bytes[n..].iter().take_while(|b| OPS.contains(b)).count();
    let run = &term[n..n + run_len];
    let cmp = Cmp::TABLE
        .iter()
        .find(|(s, _)| s.len() >= run_len && s.as_bytes()[..run_len] == *run.as_bytes())
        .map(|(_, c)| *c)
        .ok_or_else(|| Malformed::BadOperator(run.to_string()))?;
    let value = &term[n + run_len..];
    if value.is_empty() {
        return Err(Malformed::EmptyValue);
    }
    Ok(Term {
        name: &term[..n],
        cmp,
        value,
    })
}

/// `dsl_compare_version`: `Ok(bool)` or `Err` where dsl.c returns -1.
///
/// Both sides must be only digits and dots. Fields are compared as numbers
/// left to right (runs of dots are skipped, so `12..4` reads as `12.4`); the
/// first differing field decides. When one side runs out, the rest of the
/// other side is skipped over its leading dots and zeros: nothing left means
/// equal (`12.4 == 12.4.0`, `12 == 12.0.0`), anything left means that side is
/// greater (`525.60.13 > 525.60`). A field that does not start with a digit
/// (`.5`) or that reaches `UINTMAX_MAX` is an error, but only if it is
/// reached: the walk stops at the first differing field.
pub fn compare_version(v1: &str, cmp: Cmp, v2: &str) -> Result<bool, Malformed> {
    let valid = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !valid(v1) {
        return Err(Malformed::BadVersion(v1.to_string()));
    }
    if !valid(v2) {
        return Err(Malformed::BadVersion(v2.to_string()));
    }
    let (mut a, mut b) = (v1.as_bytes(), v2.as_bytes());
    while !a.is_empty() && !b.is_empty() {
        let (n1, r1) = leading_number(a).ok_or_else(|| Malformed::BadVersion(v1.to_string()))?;
        let (n2, r2) = leading_number(b).ok_or_else(|| Malformed::BadVersion(v2.to_string()))?;
        if n1 != n2 {
            return Ok(match cmp {
                Cmp::Eq => false,
                Cmp::Ne => true,
                Cmp::Lt | Cmp::Le => n1 < n2,
                Cmp::Gt | Cmp::Ge => n1 > n2,
            });
        }
        a = skip(r1, b".");
        b = skip(r2, b".");
    }
    let a_rest = !skip(a, b".0").is_empty();
    let b_rest = !skip(b, b".0").is_empty();
    Ok(match cmp {
        Cmp::Ne => a_rest || b_rest,
        Cmp::Eq => !a_rest && !b_rest,
        Cmp::Le => !a_rest,
        Cmp::Ge => !b_rest,
        Cmp::Lt => !a_rest && b_rest,
        Cmp::Gt => a_rest && !b_rest,
    })
}

/// `strtoumax` on a string of digits and dots: the number and the rest, or
/// None when there is no digit first or the value saturates at `UINTMAX_MAX`.
fn leading_number(s: &[u8]) -> Option<(u64, &[u8])> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut n: u64 = 0;
    for &d in &s[..digits] {
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    if n == u64::MAX {
        return None;
    }
    Some((n, &s[digits..]))
}

fn skip<'a>(s: &'a [u8], set: &[u8]) -> &'a [u8] {
    let k = s.iter().take_while(|b| set.contains(b)).count();
    &s[k..]
}

/// `dsl_compare_string`: case-insensitive, `=` and `!=` only.
pub fn compare_string(s1: &str, cmp: Cmp, s2: &str) -> Result<bool, Malformed> {
    match cmp {
        Cmp::Eq => Ok(s1.eq_ignore_ascii_case(s2)),
        Cmp::Ne => Ok(!s1.eq_ignore_ascii_case(s2)),
        _ => Err(Malformed::OrderOnBrand),
    }
}

// ---------------------------------------------------------------------------
// What the runtime sees
// ---------------------------------------------------------------------------

/// One fact as the runtime would see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Seen {
    /// The runtime reads this value.
    Value(String),
    /// The runtime has no value: configure.c then counts the rule as satisfied.
    Nothing,
    /// We do not know what the runtime would read. With candidates, the
    /// verdict is computed for each and holds only if they all agree.
    Unknown(Vec<String>),
}

impl Seen {
    pub fn value(v: impl Into<String>) -> Seen {
        Seen::Value(v.into())
    }
}

/// Driver facts (`struct nvc_driver_info`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DriverView {
    /// `drv->nvrm_version`.
    pub driver: Seen,
    /// `drv->cuda_version`.
    pub cuda: Seen,
}

/// One visible GPU (`struct nvc_device`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceView {
    /// How we name it in output (`GPU 0 NVIDIA A100-SXM4-80GB`).
    pub label: String,
    /// `dev->arch`, e.g. `8.0`.
    pub arch: Seen,
    /// `dev->brand` as the runtime names it (see [`runtime_brand`]).
    pub brand: Seen,
}

/// Everything one container start evaluates requirements against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuntimeView {
    pub driver: DriverView,
    /// Visible GPUs; empty means "no visible device", and then configure.c
    /// evaluates every requirement once with no device (arch and brand pass).
    pub devices: Vec<DeviceView>,
}

/// The brand string libnvidia-container reads for an NVML brand name
/// (`driver_get_device_brand_1_svc` in src/driver.c): six brands keep their
/// name, every other NVML brand (NVIDIA, NVIDIA RTX, Quadro RTX, GeForce RTX,
/// TITAN RTX, the vGPU brands) reads as `Unknown`. Accepts the spellings
/// nvidia-smi, NVML enum names and cards use (`geforce`, `NVML_BRAND_TESLA`,
/// `Quadro RTX`, `nvidia_rtx`).
pub fn runtime_brand(nvml_brand: &str) -> &'static str {
    let k: String = nvml_brand
        .trim()
        .trim_start_matches("NVML_BRAND_")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    match k.as_str() {
        "quadro" => "Quadro",
        "tesla" => "Tesla",
        "nvs" => "NVS",
        "grid" => "GRID",
        "geforce" => "GeForce",
        "titan" => "TITAN",
        _ => "Unknown",
    }
}

// ---------------------------------------------------------------------------
// Evaluating one predicate
// ---------------------------------------------------------------------------

/// What one evaluated term came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum TermResult {
    True {
        compared: Option<String>,
    },
    False {
        compared: Option<String>,
    },
    /// The runtime would stop here with "invalid expression".
    Invalid {
        reason: String,
    },
    /// The term needs a fact we do not have.
    Undetermined {
        fact: String,
    },
}

/// One term the evaluator reached, in evaluation order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TermStep {
    /// 0-based index of the space-separated clause (empty clauses count).
    pub clause: usize,
    pub term: String,
    #[serde(flatten)]
    pub result: TermResult,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Outcome {
    /// `clause`: the clause that held (None: nothing to evaluate, e.g. an empty string).
    Pass { clause: Option<usize> },
    /// No clause held; `message` is what nvidia-container-cli prints after "requirement error: ".
    Fail { message: String },
    /// "invalid expression" at this term.
    Error { term: String, reason: String },
    /// A fact we lack would decide it.
    Undetermined { fact: String },
}

impl Outcome {
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Pass { .. } => "pass",
            Outcome::Fail { .. } => "fail",
            Outcome::Error { .. } => "error",
            Outcome::Undetermined { .. } => "unknown",
        }
    }
}

/// A predicate's result with the terms that led there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PredicateEval {
    pub outcome: Outcome,
    pub steps: Vec<TermStep>,
}

/// A concrete value lookup, one possible world.
#[derive(Clone, Copy)]
enum Lookup<'a> {
    Value(&'a str),
    Null,
    Missing,
}

struct World<'a> {
    driver: Lookup<'a>,
    cuda: Lookup<'a>,
    /// None: no visible device (`data->dev == NULL`).
    device: Option<(Lookup<'a>, Lookup<'a>)>,
}

/// Evaluate one predicate against one device (or none), as `dsl_evaluate` does.
///
/// When a fact is `Seen::Unknown` with candidates, every candidate is tried
/// and the result stands only if they agree; without candidates, the result
/// is undetermined as soon as the evaluator needs that fact (and exact if it
/// never does).
pub fn evaluate(
    predicate: &str,
    driver: &DriverView,
    device: Option<&DeviceView>,
) -> PredicateEval {
    let drivers = options(&driver.driver);
    let cudas = options(&driver.cuda);
    let devs: Vec<Option<(Lookup<'_>, Lookup<'_>)>> = match device {
        None => vec![None],
        Some(d) => {
            let mut v = Vec::new();
            for a in options(&d.arch) {
                for b in options(&d.brand) {
                    v.push(Some((a, b)));
                }
            }
            v
        }
    };
    let mut results: Vec<PredicateEval> = Vec::new();
    for &dr in &drivers {
        for &cu in &cudas {
            for &dv in &devs {
                results.push(evaluate_world(
                    predicate,
                    &World {
                        driver: dr,
                        cuda: cu,
                        device: dv,
                    },
                ));
            }
        }
    }
    let first = results.remove(0);
    let agree = results
        .iter()
        .all(|r| r.outcome.word() == first.outcome.word());
    if agree {
        return first;
    }
    let fact = [
        (drivers.len() > 1, "driver version"),
        (cudas.len() > 1, "driver CUDA version"),
        (
            device.is_some_and(|d| matches!(&d.arch, Seen::Unknown(c) if c.len() > 1)),
            "compute capability",
        ),
        (
            device.is_some_and(|d| matches!(&d.brand, Seen::Unknown(c) if c.len() > 1)),
            "brand",
        ),
    ]
    .iter()
    .filter(|(b, _)| *b)
    .map(|(_, s)| *s)
    .collect::<Vec<_>>()
    .join(", ");
    PredicateEval {
        outcome: Outcome::Undetermined {
            fact: format!("{fact}: the possible values give different results"),
        },
        steps: first.steps,
    }
}

fn options(s: &Seen) -> Vec<Lookup<'_>> {
    match s {
        Seen::Value(v) => vec![Lookup::Value(v)],
        Seen::Nothing => vec![Lookup::Null],
        Seen::Unknown(c) if c.is_empty() => vec![Lookup::Missing],
        Seen::Unknown(c) => c.iter().map(|v| Lookup::Value(v)).collect(),
    }
}

fn evaluate_world(predicate: &str, w: &World<'_>) -> PredicateEval {
    let mut steps = Vec::new();
    // `ret` starts true; each term overwrites it; a clause that breaks on a
    // false term leaves it false for the next clause.
    let mut ret = true;
    let mut passed: Option<usize> = None;
    // strsep on " ": every single space separates; empty clauses are skipped.
    for (ci, clause) in predicate.split(' ').enumerate() {
        if clause.is_empty() {
            continue;
        }
        let mut completed = true;
        for term in clause.split(',') {
            if term.is_empty() {
                continue;
            }
            match evaluate_term(term, w) {
                Ok((true, compared)) => {
                    ret = true;
                    steps.push(step(ci, term, TermResult::True { compared }));
                }
                Ok((false, compared)) => {
                    ret = false;
                    steps.push(step(ci, term, TermResult::False { compared }));
                    completed = false;
                    break;
                }
                Err(TermError::Invalid(m)) => {
                    let reason = m.to_string();
                    steps.push(step(
                        ci,
                        term,
                        TermResult::Invalid {
                            reason: reason.clone(),
                        },
                    ));
                    return PredicateEval {
                        outcome: Outcome::Error {
                            term: term.to_string(),
                            reason,
                        },
                        steps,
                    };
                }
                Err(TermError::Missing(fact)) => {
                    steps.push(step(
                        ci,
                        term,
                        TermResult::Undetermined { fact: fact.into() },
                    ));
                    return PredicateEval {
                        outcome: Outcome::Undetermined {
                            fact: format!("{fact} (needed by `{term}`)"),
                        },
                        steps,
                    };
                }
            }
        }
        // A clause whose terms all held (or that had only empty terms)
        // ends the walk: dsl.c breaks when the inner strsep returns NULL.
        if completed {
            if ret {
                passed = Some(ci);
            }
            break;
        }
    }
    let outcome = if ret {
        Outcome::Pass { clause: passed }
    } else {
        Outcome::Fail {
            message: unsatisfied_message(predicate),
        }
    };
    PredicateEval { outcome, steps }
}

/// The runtime's message for an unsatisfied predicate: it quotes only the
/// text before the first space (which may be empty), with a hint when that
/// text starts with `cuda>=`.
pub fn unsatisfied_message(predicate: &str) -> String {
    let first = predicate.split(' ').next().unwrap_or("");
    if first.starts_with("cuda>=") {
        format!("unsatisfied condition: {first}, {CUDA_HINT}")
    } else {
        format!("unsatisfied condition: {first}")
    }
}

fn step(clause: usize, term: &str, result: TermResult) -> TermStep {
    TermStep {
        clause,
        term: term.to_string(),
        result,
    }
}

enum TermError {
    Invalid(Malformed),
    Missing(&'static str),
}

/// `evaluate_rule` plus the rule functions of configure.c. The value is only
/// validated when it is compared: a rule with no data (no device, no driver
/// info) is true without looking at the value.
fn evaluate_term(term: &str, w: &World<'_>) -> Result<(bool, Option<String>), TermError> {
    let t = parse_term(term).map_err(TermError::Invalid)?;
    let rule = Rule::lookup(t.name)
        .ok_or_else(|| TermError::Invalid(Malformed::UnknownRule(t.name.to_string())))?;
    let (data, fact) = match rule {
        Rule::Cuda => (w.cuda, "driver CUDA version"),
        Rule::Driver => (w.driver, "driver version"),
        Rule::Arch => match w.device {
            None => (Lookup::Null, "compute capability"),
            Some((a, _)) => (a, "compute capability"),
        },
        Rule::Brand => match w.device {
            None => (Lookup::Null, "brand"),
            Some((_, b)) => (b, "brand"),
        },
    };
    let have = match data {
        Lookup::Null => return Ok((true, None)),
        Lookup::Missing => return Err(TermError::Missing(fact)),
        Lookup::Value(v) => v,
    };
    let r = match rule {
        Rule::Brand => compare_string(have, t.cmp, t.value),
        _ => compare_version(have, t.cmp, t.value),
    }
    .map_err(TermError::Invalid)?;
    if !r {
        let len = t.name.len() + 1 + t.cmp.as_str().len() + 1 + t.value.len();
        if len >= EXPR_MAX {
            return Err(TermError::Invalid(Malformed::TooLong(len)));
        }
    }
    Ok((r, Some(have.to_string())))
}

// ---------------------------------------------------------------------------
// Requirements of an image, and the per-device loop
// ---------------------------------------------------------------------------

/// One `--require=` argument and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// `NVIDIA_REQUIRE_CUDA`, `CUDA_VERSION (legacy image)`, `command line`.
    pub origin: String,
    pub expr: String,
}

/// What nvidia-container-toolkit derives from an image's environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RequireSet {
    /// `NVIDIA_DISABLE_REQUIRE` is a true boolean: nothing is checked.
    Disabled { value: String },
    /// Every one of these must hold (multiple variables are ANDed).
    Checked { requirements: Vec<Requirement> },
    /// The hook fails before starting the container (bad legacy `CUDA_VERSION`).
    Broken { message: String },
}

/// Go's `strconv.ParseBool`: the only spellings it accepts.
pub fn go_parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// The `major.minor` of a legacy `CUDA_VERSION` as the toolkit reads it:
/// `parseMajorMinorVersion` (cuda_image.go) calls Masterminds semver v3
/// `NewVersion`, which by default coerces with its loose pattern
/// `v?N(.N)?(.N)?(-pre)?(+meta)?` (at most 256 bytes; numeric prerelease
/// parts may not start with 0), then requires major and minor to fit 32 bits.
pub fn legacy_major_minor(v: &str) -> Option<String> {
    if v.len() > 256 {
        return None;
    }
    let s = v.strip_prefix('v').unwrap_or(v);
    let (s, meta) = match s.split_once('+') {
        Some((a, m)) => (a, Some(m)),
        None => (s, None),
    };
    let (core, pre) = match s.split_once('-') {
        Some((a, p)) => (a, Some(p)),
        None => (s, None),
    };
    let ident_ok =
        |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if let Some(pre) = pre {
        for part in pre.split('.') {
            if !ident_ok(part) {
                return None;
            }
            if part.len() > 1 && part.starts_with('0') && part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
        }
    }
    if let Some(meta) = meta {
        if !meta.split('.').all(ident_ok) {
            return None;
        }
    }
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut nums = Vec::new();
    for p in &parts {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        nums.push(p.parse::<u64>().ok()?);
    }
    let major = u32::try_from(*nums.first()?).ok()?;
    let minor = u32::try_from(nums.get(1).copied().unwrap_or(0)).ok()?;
    Some(format!("{major}.{minor}"))
}

/// `GetRequirements` of nvidia-container-toolkit (cuda_image.go):
/// - `NVIDIA_DISABLE_REQUIRE` parsed with Go's ParseBool; true disables every
///   check (an unparsable value counts as false);
/// - every variable named `NVIDIA_REQUIRE_*` except `NVIDIA_REQUIRE_JETPACK*`
///   becomes one requirement, all ANDed (Go visits them in map order; here in
///   name order, which only changes which failure is reported first);
/// - a legacy image (non-empty `CUDA_VERSION`, empty or absent
///   `NVIDIA_REQUIRE_CUDA`) also gets `cuda>=<major.minor of CUDA_VERSION>`.
pub fn requirements_from_env(env: &BTreeMap<String, String>) -> RequireSet {
    if let Some(v) = env.get("NVIDIA_DISABLE_REQUIRE") {
        if go_parse_bool(v) == Some(true) {
            return RequireSet::Disabled { value: v.clone() };
        }
    }
    let mut requirements: Vec<Requirement> = env
        .iter()
        .filter(|(k, _)| {
            k.starts_with("NVIDIA_REQUIRE_") && !k.starts_with("NVIDIA_REQUIRE_JETPACK")
        })
        .map(|(k, v)| Requirement {
            origin: k.clone(),
            expr: v.clone(),
        })
        .collect();
    let legacy_cuda = env.get("CUDA_VERSION").filter(|v| !v.is_empty());
    let has_require_cuda = env
        .get("NVIDIA_REQUIRE_CUDA")
        .is_some_and(|v| !v.is_empty());
    if let (Some(cv), false) = (legacy_cuda, has_require_cuda) {
        match legacy_major_minor(cv) {
            Some(mm) => requirements.push(Requirement {
                origin: "CUDA_VERSION (legacy image)".into(),
                expr: format!("cuda>={mm}"),
            }),
            None => {
                return RequireSet::Broken {
                    message: format!(
                        "failed to get requirements: invalid CUDA version {cv}: the hook stops and the container does not start"
                    ),
                }
            }
        }
    }
    RequireSet::Checked { requirements }
}

/// One requirement on one device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceEval {
    /// The device label, or `no visible device`.
    pub device: String,
    pub origin: String,
    pub expr: String,
    #[serde(flatten)]
    pub eval: PredicateEval,
}

/// The verdict of a whole container start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// `pass`, `fail`, `error`, `unknown`, or `disabled`.
    pub verdict: String,
    /// The evaluation that decided it (the first failing one in runtime order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<usize>,
    /// What nvidia-container-cli would print.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_message: Option<String>,
    pub evaluations: Vec<DeviceEval>,
}

impl Verdict {
    pub fn passes(&self) -> bool {
        self.verdict == "pass" || self.verdict == "disabled"
    }
}

/// Evaluate every requirement on every visible device, in configure.c's
/// order (each device, then each requirement; the first failure stops the
/// container). With no visible device, each requirement is evaluated once
/// with no device. A definite failure anywhere decides the verdict even if an
/// earlier evaluation is undetermined (the container fails either way).
pub fn evaluate_set(set: &RequireSet, view: &RuntimeView) -> Verdict {
    let reqs = match set {
        RequireSet::Disabled { value } => {
            return Verdict {
                verdict: "disabled".into(),
                decided_by: None,
                runtime_message: Some(format!(
                    "NVIDIA_DISABLE_REQUIRE={value}: requirements are not checked"
                )),
                evaluations: vec![],
            }
        }
        RequireSet::Broken { message } => {
            return Verdict {
                verdict: "error".into(),
                decided_by: None,
                runtime_message: Some(message.clone()),
                evaluations: vec![],
            }
        }
        RequireSet::Checked { requirements } => requirements,
    };
    let mut evaluations = Vec::new();
    let devices: Vec<Option<&DeviceView>> = if view.devices.is_empty() {
        vec![None]
    } else {
        view.devices.iter().map(Some).collect()
    };
    for dev in devices {
        for r in reqs {
            evaluations.push(DeviceEval {
                device: dev.map_or_else(|| "no visible device".to_string(), |d| d.label.clone()),
                origin: r.origin.clone(),
                expr: r.expr.clone(),
                eval: evaluate(&r.expr, &view.driver, dev),
            });
        }
    }
    let definite = evaluations
        .iter()
        .position(|e| matches!(e.eval.outcome, Outcome::Fail { .. } | Outcome::Error { .. }));
    let unknown = evaluations
        .iter()
        .position(|e| matches!(e.eval.outcome, Outcome::Undetermined { .. }));
    let (verdict, decided_by, runtime_message) = match (definite, unknown) {
        (Some(i), _) => {
            let e = &evaluations[i];
            let msg = match &e.eval.outcome {
                Outcome::Fail { message } => format!("requirement error: {message}"),
                _ => "requirement error: invalid expression".to_string(),
            };
            (e.eval.outcome.word(), Some(i), Some(msg))
        }
        (None, Some(i)) => ("unknown", Some(i), None),
        (None, None) => ("pass", None, None),
    };
    Verdict {
        verdict: verdict.into(),
        decided_by,
        runtime_message,
        evaluations,
    }
}

// ---------------------------------------------------------------------------
// Reading what a requirement string means (for explanations)
// ---------------------------------------------------------------------------

/// What kind of escape a clause is, for explaining `db image` verdicts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClauseKind {
    /// `cuda>=X`: the driver runs CUDA X natively.
    Native {
        cuda: String,
    },
    /// `brand=B,driver>=N,driver<M`: a driver on branch N of brand B may run
    /// the image through its forward-compatibility (cuda-compat) libraries.
    ForwardCompat {
        brand: String,
        branch: String,
    },
    Other,
}

pub fn classify_clause(clause: &str) -> ClauseKind {
    let terms: Vec<Term<'_>> = match clause
        .split(',')
        .filter(|t| !t.is_empty())
        .map(parse_term)
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(t) => t,
        Err(_) => return ClauseKind::Other,
    };
    let is = |t: &Term<'_>, r: Rule, c: Cmp| Rule::lookup(t.name) == Some(r) && t.cmp == c;
    match terms.as_slice() {
        [t] if is(t, Rule::Cuda, Cmp::Ge) => ClauseKind::Native {
            cuda: t.value.to_string(),
        },
        [b, lo, hi]
            if is(b, Rule::Brand, Cmp::Eq)
                && is(lo, Rule::Driver, Cmp::Ge)
                && is(hi, Rule::Driver, Cmp::Lt) =>
        {
            ClauseKind::ForwardCompat {
                brand: b.value.to_ascii_lowercase(),
                branch: lo.value.to_string(),
            }
        }
        _ => ClauseKind::Other,
    }
}

/// The clauses of a predicate as the runtime splits them (empty ones dropped, indices kept).
pub fn clauses(predicate: &str) -> Vec<(usize, &str)> {
    predicate
        .split(' ')
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .collect()
}

/// The forward-compatibility branches a requirement lists, and the brands on each.
pub fn forward_compat_branches(predicate: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, c) in clauses(predicate) {
        if let ClauseKind::ForwardCompat { brand, branch } = classify_clause(c) {
            let e = out.entry(branch).or_default();
            if !e.contains(&brand) {
                e.push(brand);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operator_table_quirks() {
        assert_eq!(parse_term("cuda!12.0").unwrap().cmp, Cmp::Ne);
        assert!(matches!(
            parse_term("cuda==12.0"),
            Err(Malformed::BadOperator(_))
        ));
        assert_eq!(parse_term("cuda>=12.0").unwrap().value, "12.0");
    }

    #[test]
    fn version_edges() {
        assert_eq!(compare_version("12.4", Cmp::Eq, "12.4.0"), Ok(true));
        assert_eq!(compare_version("525.60.13", Cmp::Gt, "525.60"), Ok(true));
        assert!(compare_version(".5", Cmp::Eq, "1").is_err());
    }
}
