//! Facts people type rather than paste: issue-template fields
//! (`**NVIDIA Driver Version**: 470.129.06`, `- PyTorch Version (e.g., 1.0): 1.3.1`),
//! short statements (`Driver version: 410.48.`, `GPU: GTX 1080 Ti`) and the
//! install command they ran (`pip install torch===1.3.0`).
//!
//! A typed fact is weaker than a tool's output (it may be misremembered), so
//! it fills only what no tool output stated, and its source says `(prose)`:
//! a finding that rests only on such facts says so (see
//! `rules::observed::mark_thin_evidence`).

use super::clean::has_ci;
use super::{Builder, Doc};
use crate::inventory::{ErrorKind, Fact, LibraryInstall, OsKind};
use crate::version::{CudaVersion, DriverVersion};

/// The suffix a fact read from typed text carries in its source.
pub const PROSE: &str = "(prose)";

/// A fact's source says it was read from the report's prose.
pub fn is_prose(source: &str) -> bool {
    source.ends_with(PROSE)
}

regex_fn!(
    driver_re,
    r"(?i)^[\s*\-_>|]*(?:(?:the|my|our|this|its)\s+(?:[a-z0-9'’-]+\s+){0,2}?)?(?:nvidia\s+)?(?:gpu\s+)?driver(?:\s+version)?[\s*_]*(?::|=|is)\s*[\s*_`]*r?([0-9]{3}\.[0-9]{1,3}(?:\.[0-9]{1,3})?)(?:[\s.,;)*_`]|$)"
);
// A driver named mid-sentence: `with NVIDIA driver 470`, `the default nvidia
// driver is 390.87`, `nvidia-driver-535`, `driver version 525.60.13`.
regex_fn!(
    driver_said_re,
    r"(?i)(?:\bnvidia[\s-]+(?:gpu\s+|display\s+|graphics\s+|linux\s+)?drivers?|\b(?:gpu|display|graphics)\s+drivers?|\bdriver\s+version|\bnvidia-driver-|\bdriver)(?:\s+(?:is|was|at|of|version|v))?(?:\s+(?:bumped|upgraded|updated|downgraded|pinned)\s+to)?\s*[:=]?\s*[`*_\x22']*[rv]?(?P<v>[0-9]{3}(?:\.[0-9]{1,3}){0,2})(?P<tail>\.[0-9x]|[0-9]|\s*\+|\s+(?:or|and)\s+(?:newer|later|higher|above|greater|up)\b)?"
);
// The number first: `the 390.87 driver`, `R535 drivers`, `470 series driver`.
regex_fn!(
    driver_first_re,
    r"(?i)\b[r]?(?P<v>[0-9]{3}(?:\.[0-9]{1,3}){0,2})(?P<tail>\.[0-9x]|[0-9])?\s+(?:series\s+|branch\s+)?(?:nvidia\s+)?(?:gpu\s+)?drivers?\b"
);
// The toolkit by its own names: `cuda-11.6.2`, `/usr/local/cuda-12.1`,
// `cuda-toolkit-12-4`, `CUDA Toolkit 11.8` (not `cudatoolkit=`, conda's runtime).
regex_fn!(
    toolkit_said_re,
    r"(?i)(?:\bcuda[\s_-]*toolkit[\s_-]*(?:version\s*)?v?|(?:^|[\s(/\x22'`])cuda-|\btoolkit\s+(?:is|was)\s+v?)(1[0-3]|[7-9])[.-]([0-9])(?:[.-]([0-9]{1,3}))?\b"
);
// The symptom in the reporter's words: `it only runs on the CPU`, `it does not
// use my GPU`, `runs on CPU instead of the GPU`.
regex_fn!(
    cpu_fallback_said_re,
    r"(?i)\b(?:(?:is|was|only|still|keeps|always|everything)\s+(?:running|runs|run|using|uses|use)\s+(?:on\s+)?(?:the\s+)?cpu\b|(?:does\s*n[o']t|didn't|isn't|is\s+not|never|not)\s+(?:use|using|uses|utili[sz]e|utili[sz]ing)\s+(?:the\s+|my\s+|any\s+)?(?:nvidia\s+|amd\s+|dedicated\s+)?gpu\b|runs?\s+on\s+(?:the\s+)?cpu\s+(?:instead|rather|not))"
);
// The reporter says the torch they got is the CPU build: `resulted in the CPU
// version of torch`, `installs PyTorch CPU version`, `picks the "CPU" build of
// PyTorch`, `a CPU-only torch`, `installed a torch build without CUDA`.
regex_fn!(
    cpu_build_said_re,
    r#"(?i)\b(?:"?cpu"?(?:[\s-]+only)?\s+(?:version|build|variant|wheel)s?\s+of\s+(?:py)?torch\b|(?:py)?torch\s+(?:[0-9][\w.]*\s+)?"?cpu"?(?:[\s-]+only)?\s+(?:version|build|variant|wheel)\b|cpu[\s-]+only\s+(?:py)?torch\b|(?:py)?torch\s+(?:[0-9][\w.]*\s+)?(?:build\s+|version\s+|wheel\s+)?without\s+cuda\b|(?:py)?torch\b[^!?;]{0,80}?\b(?:is|was)\s+(?:the\s+|a\s+)?"?cpu"?(?:[\s-]+only)?\s+(?:variant|version|build|wheel)\b)"#
);
// The words that make that a result, not advice or a wish.
regex_fn!(
    got_re,
    r"(?i)\b(?:install(?:s|ed)|result(?:s|ed|ing)|got|gets|pick(?:s|ed)|pull(?:s|ed)|downloads|downloaded|end(?:s|ed)\s+up|still|came|comes)\b"
);
regex_fn!(
    gpu_re,
    r"(?i)^[\s*\-_>|]*(?:gpu|gpus|gpu\s+models?(?:\s+and\s+configuration)?|gpu\s+type|graphics\s+card|video\s+card)[\s*_]*:\s*[\s*_]*(?:[0-9]+\s*x\s*)?(.{3,60}?)[\s.*_]*$"
);
regex_fn!(
    torch_version_re,
    r"(?i)^[\s*\-_>|]*pytorch\s+version(?:\s*\(e\.g\.,?\s*[0-9.]+\))?[\s*_]*:\s*[\s*_`]*v?([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:\+[a-z0-9.]+)?)"
);
regex_fn!(
    pip_torch_re,
    r"(?i)\bpip3?\s+install\b.*?\btorch\s*={2,3}\s*([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:\+[a-z0-9.]+)?)"
);

regex_fn!(
    torch_tagged_re,
    r"(?i)\b(?:py)?torch[\s=:v-]*([0-9]+\.[0-9]+(?:\.[0-9]+)?)\s*\+\s*(cpu|cu[0-9]{2,3}|rocm[0-9.]+)\b"
);
// `PyTorch 2.0.0 (CUDA 11.8 build)`, `torch 2.1.2 (cu121)`, `torch 1.13.1
// built for CUDA 11.7`: a release and the CUDA of its wheel, said in words.
regex_fn!(
    torch_said_build_re,
    r"(?i)\b(?:py)?torch\s+v?([0-9]+\.[0-9]+(?:\.[0-9]+)?)\s*(?:\(\s*(?:cuda\s*([0-9]{2})\.([0-9])\s+build|cu([0-9]{2,3}))\s*\)|,?\s*built\s+(?:for|with|against)\s+cuda\s*([0-9]{2})\.([0-9])\b)"
);
regex_fn!(
    gpu_named_re,
    r"\b((?:NVIDIA\s+)?(?:GeForce\s+)?(?:GTX|RTX|[Gg][Tt][Xx]|[Rr][Tt][Xx])\s?[0-9]{3,4}(?:\s?(?:Ti|ti|SUPER|Super|super|Laptop GPU))?|(?:NVIDIA\s+|nvidia\s+)?(?:Tesla|tesla|TESLA)\s+[KPMVTkpmvt][0-9]{1,3}|(?:NVIDIA\s+)?(?:A|H|L)[0-9]{2,3}(?:\s?PCIe|-SXM4-[0-9]+GB)?|NVIDIA\s+L4\b|K(?:10|20X?|40|80)|M(?:40|60)|P(?:40|100)|V100S?|(?:NVIDIA\s+)?GeForce\s+GT\s?[0-9]{3,4}M?|(?:NVIDIA\s+)?(?:GeForce\s+)?MX\s?[1-5][0-9]0|(?:NVIDIA\s+)?GeForce\s+[89][1-6]0MX?|[89][1-6]0MX|(?:NVIDIA\s+)?[Qq]uadro\s+(?:RTX\s+)?[KMPTkmpt]?[0-9]{3,4}M?|(?:NVIDIA\s+)?RTX\s?A[0-9]{4}|(?:NVIDIA\s+)?(?:GeForce\s+)?(?:GTX\s+|RTX\s+)?(?:TITAN|Titan)(?:\s+(?:Xp|X|V|RTX|Black|Z))?|(?:NVIDIA\s+)?(?:GB10|GB[23]00|B[123]00)|DGX\s+Spark)\b"
);

// `RTX 5000 series`, `RTX 50-series`, `GTX 10xx`: a GeForce generation, not one model.
regex_fn!(
    geforce_series_re,
    r"(?i)\b(?:geforce\s+)?(gtx|rtx)\s?(10|16|20|30|40|50)(?:00)?(?:[\s-]*series\b|xx\b)"
);

// `only the nouveau driver loaded`, `cards driven by nouveau`: the open-source
// driver bound to the NVIDIA GPU, as the reporter says it.
regex_fn!(
    nouveau_said_re,
    r"(?i)\bnouveau\s+(?:display\s+)?(?:driver\s+|module\s+)?(?:is\s+|was\s+)?(?:still\s+)?(?:loaded|in\s+use|active|bound|running)\b|\bdriven\s+by\s+(?:the\s+)?nouveau\b|\b(?:only|still|running|using)\s+(?:the\s+)?(?:open[- ]source\s+)?nouveau\b"
);

regex_fn!(
    proprietary_re,
    r"(?i)\bproprietary\s+(?:nvidia\s+)?(?:kernel\s+)?(?:kmod|modules?|module\s+flavou?r)\b|--kernel-module-type[= ]proprietary\b"
);
regex_fn!(
    family_gpu_re,
    r"(?:\(|\b(?:[Mm]y|[Oo]ur|[Aa]n?|[Tt]he|[Tt]his)\s+)(Blackwell|Hopper|Ada|Ampere|Turing|Volta|Pascal|Maxwell|Kepler)\s+GPU\b"
);

regex_fn!(
    bare_model_re,
    r"(?i)\b(?:(?:have|with|my|using|own)\s+(?:an?\s+)?(?:nvidia\s+)?|(?:to|an?)\s+nvidia\s+)(10[5-8]0|16[56]0|20[6-8]0|30[5-9]0|40[6-9]0|50[6-9]0)(\s?ti)?\b(?P<unit>\s*(?:mhz|mb|gb|hz|fps|px|x)\b)?"
);

/// `I have a 3060`: a GeForce model number alone, named as the reporter's
/// own card (`have`, `my`, `with`), read as the GeForce GPU of that number.
fn bare_geforce(t: &str) -> Option<String> {
    let m = bare_model_re().captures(t)?;
    if m.name("unit").is_some() {
        return None;
    }
    let n = &m[1];
    let family = if n.starts_with("10") || n.starts_with("16") {
        "GTX"
    } else {
        "RTX"
    };
    let ti = if m.get(2).is_some() { " Ti" } else { "" };
    Some(format!("NVIDIA GeForce {family} {n}{ti}"))
}

regex_fn!(
    torch_cuda_said_re,
    r"(?i)\btorch\.version\.cuda\b[`'\x22)]*\s*(?:is|=|==|:|returns|gives|shows|prints|says|reports)\s*[`'\x22]?([0-9]+\.[0-9]+)(?:\.[0-9]+)?\b"
);
regex_fn!(
    nvcc_said_re,
    r"(?i)\bnvcc(?:\s+--version|\s+-v)?\b[`'\x22)]*\s*(?:is|reports|shows|says|gives|prints|returns|outputs)\s*(?:cuda\s*|release\s*|version\s*)?v?([0-9]+\.[0-9]+)\b"
);

/// A bare GeForce number the reporter owns, where no GPU is named yet.
fn bare_gpu(t: &str, src: &str, b: &mut Builder) {
    if b.inv.gpus.iter().all(|g| g.name.is_none()) && b.inv.pci.is_empty() {
        if let Some(name) = bare_geforce(t) {
            let g = b.gpu(0);
            g.name = Some(Fact::new(name, src).with_note(
                "a bare model number typed in the report, read as the GeForce card of that number",
            ));
        }
    }
}

regex_fn!(gpu_count_re, r"(?i)^[\s*_`]*([0-9]{1,2})\s*x\s*\S");

/// `8x H200`: the number of GPUs a typed value names, 1 unless it says 2-16.
fn typed_gpu_count(value: &str) -> u32 {
    gpu_count_re()
        .captures(value)
        .and_then(|c| c[1].parse::<u32>().ok())
        .filter(|n| (2..=16).contains(n))
        .unwrap_or(1)
}

/// Name GPUs 0..count with a typed name.
fn name_gpus(b: &mut Builder, name: &str, count: u32, src: &str, note: &str) {
    for i in 0..count {
        b.gpu(i).name = Some(Fact::new(name.to_string(), src).with_note(note));
    }
}

/// A typed GPU value as a name: the first of a comma list, without
/// nvidia-smi's own `GPU 0: ` prefix (`GPU: GPU 0: Tesla P100-PCIE-16GB`), a
/// count (`8x H200`), the memory before or after it (`16GB RTX A4000`,
/// `RTX2070 8G`), or a parenthesis (`GTX 1650 (Turing / TU117)`, one a comma
/// cut open: `RTX 5060 Ti (Blackwell`).
fn typed_gpu_name(v: &str) -> &str {
    let mut v = v.split(',').next().unwrap_or("").trim();
    if let Some(rest) = v.strip_prefix("GPU ") {
        if let Some((n, name)) = rest.split_once(':') {
            if n.trim().parse::<u32>().is_ok() {
                v = name.trim();
            }
        }
    }
    if let Some(open) = v.find(" (") {
        v = v[..open].trim_end();
    }
    let memory = |w: &str| {
        let l = w.to_ascii_lowercase();
        let digits = l.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !digits.is_empty()
            && digits.bytes().all(|c| c.is_ascii_digit())
            && matches!(&l[digits.len()..], "g" | "gb" | "gib")
    };
    let count = |w: &str| {
        let l = w.to_ascii_lowercase();
        l.len() > 1 && l.ends_with('x') && l[..l.len() - 1].bytes().all(|c| c.is_ascii_digit())
    };
    if let Some((first, rest)) = v.split_once(' ') {
        if memory(first) || count(first) {
            v = rest.trim_start();
        }
    }
    if let Some((rest, last)) = v.rsplit_once(' ') {
        if memory(last) {
            v = rest.trim_end();
        }
    }
    v
}

/// Names that make a typed `GPU:` value an NVIDIA GPU's.
fn nvidia_gpu_name(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    [
        "nvidia", "geforce", "gtx", "rtx", "tesla", "quadro", "titan", "a100", "h100", "h200",
        "v100", "p100", "k80", "a10", "a40", "l4", "l40", "t4", "a6000", "a5000", "a4000", "a800",
        "h800", "gb200", "b200",
    ]
    .iter()
    .any(|w| {
        l.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|t| t.starts_with(w))
    })
}

regex_fn!(
    torch_dunder_re,
    r"^[\s>]*torch\.__version__\s*[=:]\s*['\x22]?([0-9]+\.[0-9]+(?:\.[0-9]+)?(?:\+[a-z0-9.]+)?)"
);
regex_fn!(
    pip_install_re,
    r"(?i)\b(?:pip3?|uv\s+pip|python3?(?:\s+-[a-z]{1,2})*\s+-m\s+pip)\s+install\b(.*)"
);
regex_fn!(
    torch_index_re,
    r"(?i)download\.pytorch\.org/whl/(?:nightly/|test/)?(cpu|cu[0-9]{2,3}|rocm[0-9]+(?:\.[0-9]+){0,2})\b"
);
regex_fn!(
    torch_arg_re,
    r"(?i)(?:^|\s)['\x22]?torch(?:\s|$|[=<>~!]|['\x22])"
);
// TensorFlow's version as typed: `TensorFlow 2.16.1`, `tensorflow version: 2.15`,
// `Tensorflow-gpu 2.10.0` (a full release or a `version` label, not `since TF 2.11`).
regex_fn!(
    tf_said_re,
    r"(?i)\btensorflow(-gpu)?(?:\s+version\s*[:=]?|\s*[:=]|\s+v?)\s*[`*_]*v?(2\.[0-9]{1,2}(?:\.[0-9]{1,2})?)\b(?:[^.0-9]|$)"
);
regex_fn!(
    pinned_re,
    r"(?i)(?:^|\s)['\x22]?([a-z][a-z0-9._-]{1,40})(?:\[[a-z0-9_,-]+\])?={2,3}([0-9]+(?:\.[0-9a-z]+){0,3}(?:\+[a-z0-9.]+)?)"
);
regex_fn!(
    version_token_re,
    r"v?([0-9]+\.[0-9]+(?:\.[0-9]+){0,2}(?:\+[a-z0-9.]+)?)"
);
regex_fn!(
    jaxlib_re,
    r"(?i)\bjaxlib\s*[=:v\s]\s*v?([0-9]+\.[0-9]+\.[0-9]+(?:\+[a-z0-9.]+)?)"
);
regex_fn!(
    field_re,
    r"^(?:#{2,6}\s*(?P<h>[^#].*?)\s*#*|[-*\s]*\*\*(?P<b>[^*]+?):?\*\*:?\s*(?P<bv>.*)|-\s+(?P<d>[A-Za-z][A-Za-z /()]{1,50}?):\s+(?P<dv>.+)|(?P<p>(?i:tensorflow version|cudnn|cudnn version|cuda/cudnn version|cuda|cuda version|cuda toolkit|cuda toolkit version|driver version|nvidia driver version|nvidia-smi|gpu model and memory|os platform and distribution)):\s+(?P<pv>.+))$"
);

/// Compile the patterns most reports reach, ahead of their first use.
pub(super) fn prewarm() {
    cpu_fallback_said_re();
    toolkit_installed_re();
    proprietary_re();
    field_re();
    pip_install_re();
    pinned_re();
    tf_said_re();
    torch_index_re();
    gpu_named_re();
    version_token_re();
}

/// The keys `field_re` reads from a plain `Key: value` line.
const PLAIN_KEYS: &[&str] = &[
    "tensorflow version",
    "cudnn",
    "cudnn version",
    "cuda/cudnn version",
    "cuda",
    "cuda version",
    "cuda toolkit",
    "cuda toolkit version",
    "driver version",
    "nvidia driver version",
    "nvidia-smi",
    "gpu model and memory",
    "os platform and distribution",
];

/// An issue template's field: a `### Heading` and the first line under it,
/// `**Key**: value`, or `- Key: value`.
fn fields(doc: &Doc) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let n = doc.lines.len();
    for i in 0..n {
        let t = doc.lines[i].text.trim();
        // Plain `Key: value` only for the closed set of keys in `field_re`.
        let plain = t.len() <= 120 && t.contains(": ");
        if !(t.starts_with("##") || t.starts_with("**") || t.starts_with("- ") || plain)
            || t.len() > 200
        {
            continue;
        }
        // Plain `Key: value` lines are read only for a closed set of keys.
        if plain && !(t.starts_with("##") || t.starts_with("**") || t.starts_with("- ")) {
            let key = t.split(": ").next().unwrap_or("").trim();
            if !PLAIN_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k)) {
                continue;
            }
        }
        let Some(m) = field_re().captures(t) else {
            continue;
        };
        // A heading of at most 81 characters, a bold key of 2 to 60.
        if m.name("h").is_some_and(|h| h.as_str().chars().count() > 81)
            || m.name("b")
                .is_some_and(|k| !(2..=60).contains(&k.as_str().chars().count()))
        {
            continue;
        }
        let (key, value, src) = if let Some(h) = m.name("h") {
            // The value is the first non-empty line under the heading.
            let mut j = i + 1;
            while j < n && j <= i + 3 {
                let v = doc.lines[j].text.trim();
                if v.is_empty() || v.starts_with("```") || v.starts_with("<") {
                    j += 1;
                    continue;
                }
                break;
            }
            if j >= n || j > i + 3 || doc.lines[j].text.trim().starts_with('#') {
                continue;
            }
            (
                h.as_str().to_string(),
                doc.lines[j].text.trim().to_string(),
                doc.lines[j].src.clone(),
            )
        } else if let (Some(k), Some(v)) = (m.name("b"), m.name("bv")) {
            (
                k.as_str().to_string(),
                v.as_str().to_string(),
                doc.lines[i].src.clone(),
            )
        } else if let (Some(k), Some(v)) = (m.name("p"), m.name("pv")) {
            (
                k.as_str().to_string(),
                v.as_str().to_string(),
                doc.lines[i].src.clone(),
            )
        } else if let (Some(k), Some(v)) = (m.name("d"), m.name("dv")) {
            (
                k.as_str().to_string(),
                v.as_str().to_string(),
                doc.lines[i].src.clone(),
            )
        } else {
            continue;
        };
        let value = value.trim_matches(['*', '_', '`', ' ']).to_string();
        if !value.is_empty() && value.len() <= 120 {
            out.push((key.to_ascii_lowercase(), value, src));
        }
    }
    out
}

/// The platform a typed OS names.
fn os_of(v: &str) -> Option<(OsKind, bool)> {
    let l = v.to_ascii_lowercase();
    let words: Vec<&str> = l
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.iter().any(|x| x.starts_with(w));
    if has("wsl") || l.contains("windows subsystem for linux") {
        return Some((OsKind::Linux, true));
    }
    if has("win") {
        return Some((OsKind::Windows, false));
    }
    if has("macos") || has("osx") || l.contains("mac os") || has("sonoma") || has("ventura") {
        return Some((OsKind::Macos, false));
    }
    let linux = [
        "linux",
        "ubuntu",
        "debian",
        "centos",
        "fedora",
        "rhel",
        "rocky",
        "arch",
        "opensuse",
        "suse",
        "almalinux",
        "manjaro",
        "mint",
    ];
    linux
        .iter()
        .any(|w| has(w))
        .then_some((OsKind::Linux, false))
}

/// The facts an issue template's fields state.
fn template(doc: &Doc, b: &mut Builder) {
    for (key, value, src) in fields(doc) {
        let src = format!("{src} {PROSE}");
        let typed = "typed in the report, not a tool's output";
        let kw = |w: &str| {
            key.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|x| x == w)
        };
        if (kw("os") || key.contains("operating system") || key == "platform")
            && !key.contains("cuda")
        {
            if let Some((kind, wsl)) = os_of(&value) {
                if b.inv.os.kind.is_none() {
                    b.inv.os.kind = Some(Fact::new(kind, &src).with_note(typed));
                }
                if wsl && b.inv.wsl.is_wsl.is_none() {
                    b.inv.wsl.is_wsl = Some(Fact::new(true, &src).with_note(typed));
                }
            }
            continue;
        }
        let last_version = || {
            version_token_re()
                .captures_iter(&value)
                .last()
                .map(|m| m[1].to_string())
        };
        if key.contains("tensorflow version") || key == "tensorflow" {
            if let Some(v) = last_version() {
                b.package("tensorflow", &v, &src);
            }
            continue;
        }
        // `CUDA version: 11.2`, `CUDA/cuDNN version: 10.1 / 7.6`: the CUDA
        // the reporter installed, read as a toolkit where no tool named one.
        if matches!(
            key.as_str(),
            "cuda"
                | "cuda version"
                | "cuda toolkit"
                | "cuda toolkit version"
                | "cuda/cudnn version"
        ) && b.inv.toolkits.is_empty()
        {
            if let Some(c) = version_token_re()
                .captures(&value)
                .and_then(|m| m[1].parse::<CudaVersion>().ok())
                .filter(|c| (7..=13).contains(&c.major))
            {
                toolkit_stated(
                    b,
                    "a CUDA toolkit",
                    c,
                    &src,
                    "the CUDA version a template field states",
                );
            }
        }
        // `cuDNN: 8.0.4`, `CUDA/cuDNN version: 10.1 / 7.6`: the cuDNN the reporter installed.
        if key.starts_with("cudnn") || key == "cuda/cudnn version" {
            let tokens: Vec<String> = version_token_re()
                .captures_iter(&value)
                .map(|m| m[1].to_string())
                .collect();
            let v = if key.starts_with("cudnn") {
                tokens.first()
            } else {
                tokens.get(1)
            };
            let path = "cuDNN named in the report".to_string();
            if let Some(v) = v {
                if b.inv.libraries.cudnn.iter().all(|l| l.path != path) {
                    b.inv.libraries.cudnn.push(LibraryInstall {
                        path,
                        version: Fact::new(v.clone(), &src).with_note(typed),
                        built_for_cuda: None,
                    });
                }
            }
            continue;
        }
        if key == "nvidia-smi" {
            if b.inv.nvidia.driver_version.is_none() {
                let v = value.split_whitespace().next().unwrap_or("");
                if let Ok(v) = v.parse::<DriverVersion>() {
                    b.inv.nvidia.driver_version = Some(Fact::new(v, &src).with_note(typed));
                }
            }
            continue;
        }
        if key.contains("tensorrt version") {
            if let Some(v) = last_version() {
                b.package("tensorrt", &v, &src);
            }
            continue;
        }
        if key.contains("jax") {
            if let Some(m) = jaxlib_re().captures(&value) {
                b.package("jaxlib", &m[1], &src);
            }
            continue;
        }
        if key.contains("kernel release") || key.contains("kernel version") {
            if b.inv.os.kernel.is_none() {
                let k = value.split_whitespace().next().unwrap_or("").to_string();
                if k.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                    b.inv.os.kernel = Some(Fact::new(k, &src).with_note(typed));
                }
            }
            continue;
        }
        if key.contains("open gpu kernel modules version") || key.contains("driver version") {
            if b.inv.nvidia.driver_version.is_none() {
                let v = value.split(['-', ' ']).next().unwrap_or("");
                if let Ok(v) = v.parse::<DriverVersion>() {
                    b.inv.nvidia.driver_version = Some(Fact::new(v, &src).with_note(typed));
                }
            }
            continue;
        }
        if (kw("gpu") || key.contains("graphics card"))
            && b.inv.gpus.iter().all(|g| g.name.is_none())
        {
            let name = typed_gpu_name(&value);
            // A model, not only the vendor (`### GPU` / `Nvidia`).
            let model = name.chars().any(|c| c.is_ascii_digit());
            if nvidia_gpu_name(name) && model && name.len() <= 60 {
                name_gpus(b, name, typed_gpu_count(&value), &src, typed);
            }
        }
    }
}

/// `pip install torch --index-url https://download.pytorch.org/whl/cu121`:
/// the index names the build the command installs (`cpu`, `cuXYZ`,
/// `rocmX.Y`), where nothing else said which torch build it is.
fn torch_index(args: &str, src: &str, b: &mut Builder) {
    let Some(m) = torch_index_re().captures(args) else {
        return;
    };
    if !torch_arg_re().is_match(args) {
        return;
    }
    let tagged = b
        .inv
        .python
        .iter()
        .any(|e| e.package("torch").is_some_and(|p| p.version.contains('+')));
    if torch_build_known(b) || tagged {
        return;
    }
    let tag = m[1].to_ascii_lowercase();
    let note = format!("the wheel index ({tag}) of a typed install command");
    if let Some(h) = tag.strip_prefix("rocm") {
        b.torch().hip = Some(Fact::new(Some(h.to_string()), src).with_note(note));
    } else if tag == "cpu" {
        b.torch_cuda(Fact::new(None, src).with_note(note));
    } else if let Ok(c) = tag.parse::<CudaVersion>() {
        b.torch_cuda(Fact::new(Some(c), src).with_note(note));
    }
}

/// Some environment's torch already has its CUDA or ROCm build recorded.
fn torch_build_known(b: &Builder) -> bool {
    b.inv.python.iter().any(|e| {
        e.torch
            .as_ref()
            .is_some_and(|t| t.cuda.is_some() || t.hip.is_some())
    })
}

/// "the proprietary kernel module is loaded", `--kernel-module-type=proprietary`:
/// the module's flavour; "(Blackwell GPU, PCI ID ...)": the GPU's family when
/// nothing names the GPU itself.
fn module_said(t: &str, src: &str, b: &mut Builder) {
    if b.inv.nvidia.module_flavor.is_none() && proprietary_re().is_match(t) {
        let said = [
            "--kernel-module-type",
            "loaded",
            "installed",
            "in use",
            "is used",
            "running",
            "picked",
            "chose",
            "with the proprietary",
        ]
        .iter()
        .any(|w| has_ci(t, w));
        if said {
            b.inv.nvidia.module_flavor = Some(
                Fact::new(crate::inventory::ModuleFlavor::Proprietary, src)
                    .with_note("as the report states it"),
            );
        }
    }
    let unnamed =
        b.inv.gpus.iter().all(|g| {
            g.name.is_none() && g.compute_capability.is_none() && g.architecture.is_none()
        });
    if unnamed {
        if let Some(m) = family_gpu_re().captures(t) {
            let g = b.gpu(0);
            g.architecture = Some(
                Fact::new(m[1].to_string(), src)
                    .with_note("the GPU's family as the report states it"),
            );
        }
    }
}

regex_fn!(
    toolkit_installed_re,
    r"(?i)\b(?:installed|install|installing|reinstalled|upgraded\s+to|updated\s+to)\b([^.;]{0,60}?)\bcuda(?:\s*toolkit)?\s*v?((?:1[0-3]|[7-9])\.[0-9])\b"
);

/// "installed the latest 396 driver and CUDA 9.1": the toolkit the reporter
/// installed, in their words, unless the words are about a framework's build
/// (`installed torch for CUDA 11.8`) or a denial.
fn toolkit_installed_said(t: &str, src: &str, b: &mut Builder) {
    if b.inv.setting.toolkit_installed_said.is_some() {
        return;
    }
    let Some(m) = toolkit_installed_re().captures(t) else {
        return;
    };
    let between = m[1].to_ascii_lowercase();
    let framework = [
        "torch",
        "tensorflow",
        "paddle",
        "jax",
        "wheel",
        "version of",
        "build",
        "not ",
        "n't",
        "instead",
        "cudnn",
    ]
    .iter()
    .any(|w| between.contains(w));
    if framework {
        return;
    }
    b.inv.setting.toolkit_installed_said = Some(
        Fact::new(m[2].to_string(), src).with_note("the toolkit the report says was installed"),
    );
}

/// torch's CUDA build and nvcc's CUDA as a sentence states them, each only
/// where no tool output gave it.
fn said_builds(t: &str, src: &str, b: &mut Builder) {
    let lower = t.to_ascii_lowercase();
    if lower.contains("cuda")
        && ["install", "upgraded to", "updated to"]
            .iter()
            .any(|w| lower.contains(w))
    {
        toolkit_installed_said(t, src, b);
    }
    if lower.contains("torch.version.cuda") {
        if let (false, Some(m)) = (torch_build_known(b), torch_cuda_said_re().captures(t)) {
            if let Ok(c) = m[1].parse::<CudaVersion>() {
                b.torch_cuda(
                    Fact::new(Some(c), src).with_note("torch.version.cuda as the report states it"),
                );
            }
        }
    }
    if lower.contains("cuda") && b.inv.toolkits.is_empty() {
        if let Some(m) = toolkit_said_re().captures(t) {
            let v = match m.get(3) {
                Some(p) => format!("{}.{}.{}", &m[1], &m[2], p.as_str()),
                None => format!("{}.{}", &m[1], &m[2]),
            };
            if let Ok(c) = v.parse::<CudaVersion>() {
                toolkit_stated(
                    b,
                    "a CUDA toolkit",
                    c,
                    src,
                    "the toolkit as the report names it",
                );
                return;
            }
        }
    }
    if lower.contains("nvcc") && b.inv.toolkits.is_empty() {
        if let Some(c) = nvcc_said_re()
            .captures(t)
            .and_then(|m| m[1].parse::<CudaVersion>().ok())
        {
            toolkit_stated(
                b,
                "nvcc on PATH",
                c,
                src,
                "nvcc's version as the report states it",
            );
        }
    }
}

/// "`pip install torch` resulted in the CPU version of torch": the build of
/// the torch the reporter got, where nothing else said which build it is.
/// Not when the CPU build is what they were advised or chose instead
/// ("instead of the CPU version", "install the CPU-only torch").
fn cpu_build_said(t: &str, src: &str, b: &mut Builder) {
    if !(has_ci(t, "cpu") || has_ci(t, "without cuda"))
        || !has_ci(t, "torch")
        || torch_build_known(b)
    {
        return;
    }
    let Some(m) = cpu_build_said_re().find(t) else {
        return;
    };
    let before = t[..m.start()].to_ascii_lowercase();
    let before = before.trim_end();
    if before
        .strip_suffix(" the")
        .unwrap_or(before)
        .ends_with("instead of")
    {
        return;
    }
    if !got_re().is_match(t) {
        return;
    }
    b.torch_cuda(Fact::new(None, src).with_note("the CPU build, as the report states it"));
}

/// A toolkit (with nvcc) known only from the report's words.
fn toolkit_stated(b: &mut Builder, what: &str, version: CudaVersion, src: &str, note: &str) {
    b.inv.toolkits.push(crate::inventory::Toolkit {
        path: format!("{what} (stated in the report)"),
        version: Fact::new(version, src).with_note(note),
        has_nvcc: true,
        has_compat: false,
    });
}

pub fn parse(doc: &Doc, b: &mut Builder) {
    template(doc, b);
    for line in &doc.lines {
        let whole = line.text.trim();
        if whole.len() < 6 || whole.len() > 2000 {
            continue;
        }
        if whole.len() <= 200 {
            statement(line, whole, b);
            continue;
        }
        for t in sentences(whole) {
            statement(line, t, b);
        }
    }
}

/// A line of at most 200 bytes as it is; a longer paragraph as its sentences
/// (split after `. `, `; ` or `! `) of 6 bytes or more.
fn sentences(t: &str) -> Vec<&str> {
    if t.len() <= 200 {
        return vec![t];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..t.len() {
        if sentence_ends(t.as_bytes(), i) {
            out.push(t[start..i].trim());
            start = i + 1;
        }
    }
    out.push(t[start..].trim());
    out.retain(|s| s.len() >= 6);
    out
}

/// A sentence ends at byte `i`: the space after `.`, `;` or `!`.
fn sentence_ends(b: &[u8], i: usize) -> bool {
    b[i] == b' ' && i > 0 && matches!(b[i - 1], b'.' | b';' | b'!')
}

/// The sentence of `t` (as [`sentences`] splits them) that holds byte `at`.
fn sentence_around(t: &str, at: usize) -> &str {
    let b = t.as_bytes();
    let start = (1..at.min(b.len()))
        .rev()
        .find(|&i| sentence_ends(b, i))
        .map_or(0, |i| i + 1);
    let end = (at..b.len())
        .find(|&i| sentence_ends(b, i))
        .unwrap_or(b.len());
    t[start..end].trim()
}

/// Words before a driver number that make it a requirement, advice or
/// another machine's driver rather than the reporter's own.
const NOT_THE_INSTALLED_DRIVER: [&str; 16] = [
    "requir",
    "need",
    "least",
    "minimum",
    "recommend",
    "should",
    "must",
    "than",
    "suggest",
    "legacy",
    "support",
    "upgrade to",
    "update to",
    "downgrad",
    "tried",
    "try ",
];

/// The reporter's own driver stated inside a sentence (`with NVIDIA driver
/// 470`, `the default nvidia driver is 390.87`, `the 535.104.05 driver`): a
/// full version, or a branch alone (`470`, `R535`, a bound the rules compare
/// by branch). Not a requirement (`needs driver 525 or newer`), nor a branch
/// a message says some GPU is supported by.
fn driver_in_sentence(t: &str) -> Option<DriverVersion> {
    if !has_ci(t, "driver") {
        return None;
    }
    let caps = driver_said_re()
        .captures_iter(t)
        .chain(driver_first_re().captures_iter(t));
    for m in caps {
        if m.name("tail").is_some() {
            continue;
        }
        let whole = m.get(0)?;
        let from = super::clean::floor_boundary(t, whole.start().saturating_sub(48));
        let before = &t[from..whole.start()];
        if NOT_THE_INSTALLED_DRIVER.iter().any(|w| has_ci(before, w)) {
            continue;
        }
        let v = &m["v"];
        let Ok(d) = v.parse::<DriverVersion>() else {
            continue;
        };
        // A branch alone only where NVIDIA numbered its Linux and Windows branches.
        if d.is_branch_only() && !(300..700).contains(&d.branch()) {
            continue;
        }
        return Some(d);
    }
    None
}

/// The reporter says nouveau drives the NVIDIA GPU: the GPU bound to it, as
/// lspci would show, unless a tool's output already said what is bound.
fn nouveau_said(t: &str, src: &str, b: &mut Builder) {
    if !has_ci(t, "nouveau") || b.inv.nvidia_pci().next().is_some() {
        return;
    }
    let l = t.to_ascii_lowercase();
    let denied = [
        "blacklist",
        "disabl",
        "not ",
        "n't",
        "no longer",
        "instead of",
        "unload",
        "remov",
        "purg",
        "avoid",
        "without",
    ];
    if denied.iter().any(|w| l.contains(w)) || !nouveau_said_re().is_match(t) {
        return;
    }
    let mut p = crate::inventory::PciDevice::named(
        crate::inventory::GpuVendor::Nvidia,
        "NVIDIA GPU (bound to nouveau, as the report says)",
        src,
    );
    p.driver = Some("nouveau".to_string());
    b.inv.pci.push(p);
}

/// The typed facts of one line or sentence.
fn statement(line: &super::clean::Line, t: &str, b: &mut Builder) {
    if t.len() > 200 {
        // A long sentence: only the readers that need a specific phrase.
        if line.gate(super::gate::Gate::Prose) {
            module_said(t, &format!("{} {PROSE}", line.src), b);
        }
        return;
    }
    if !line.gate(super::gate::Gate::Prose) {
        // `I have a 3060`: a number is no gate word, so the owner's words stand in.
        if line.gate(super::gate::Gate::Owned) && t.bytes().any(|c| c.is_ascii_digit()) {
            bare_gpu(t, &format!("{} {PROSE}", line.src), b);
        }
        return;
    }
    let src = format!("{} {PROSE}", line.src);
    if b.inv.nvidia.driver_version.is_none() {
        if let Some(v) = driver_re()
            .captures(t)
            .and_then(|m| m[1].parse::<DriverVersion>().ok())
        {
            b.inv.nvidia.driver_version =
                Some(Fact::new(v, &src).with_note("typed in the report, not a tool's output"));
        } else if let Some(v) = driver_in_sentence(t) {
            let note = if v.is_branch_only() {
                "typed in the report, its branch only, not a tool's output"
            } else {
                "typed in the report, not a tool's output"
            };
            b.inv.nvidia.driver_version = Some(Fact::new(v, &src).with_note(note));
        }
    }
    if b.inv.gpus.iter().all(|g| g.name.is_none()) {
        if let Some(m) = gpu_re().captures(t) {
            let name = typed_gpu_name(m[1].trim().trim_matches(['`', '*']));
            if nvidia_gpu_name(name) && !name.contains("N/A") {
                let count = typed_gpu_count(&t[t.find(':').map_or(0, |p| p + 1)..]);
                name_gpus(
                    b,
                    name,
                    count,
                    &src,
                    "typed in the report, not a tool's output",
                );
                return;
            }
        }
    }
    // A GeForce generation (`an RTX 5000-series card`): every model of it
    // (the name cut short, as nvidia-smi does) shares its compute capability.
    if b.inv.gpus.iter().all(|g| g.name.is_none()) && (has_ci(t, "series") || has_ci(t, "xx")) {
        if let Some(m) = geforce_series_re().captures(t) {
            let family = m[1].to_ascii_uppercase();
            let name = format!("NVIDIA GeForce {family} {}...", &m[2]);
            b.gpu(0).name = Some(
                Fact::new(name, &src)
                    .with_note("a GeForce generation the report names, not one model"),
            );
        }
    }
    // A GPU named in a short typed line (`**Setup:** i7-8750H, GTX 1070, 16 GB RAM`).
    // A longer sentence only with the full product name (`NVIDIA GeForce GT 710`).
    if b.inv.gpus.iter().all(|g| g.name.is_none()) && t.len() <= 300 {
        if let Some(m) = gpu_named_re().captures(t) {
            // DGX Spark is the product; its GPU is the GB10.
            let name = if m[1].starts_with("DGX") {
                "NVIDIA GB10".to_string()
            } else {
                m[1].trim().to_string()
            };
            let short = sentence_around(t, m.get(1).map_or(0, |g| g.start())).len() <= 120;
            // A brand word makes the name specific enough in a longer sentence too.
            let lower = name.to_ascii_lowercase();
            let branded = ["nvidia ", "tesla ", "geforce ", "quadro ", "gtx", "rtx"]
                .iter()
                .any(|w| lower.contains(w));
            if (short || branded) && (!name.starts_with(['A', 'H', 'L']) || t.contains("NVIDIA")) {
                let g = b.gpu(0);
                g.name = Some(
                    Fact::new(name, &src).with_note("typed in the report, not a tool's output"),
                );
            }
        }
    }
    bare_gpu(t, &src, b);
    module_said(t, &src, b);
    nouveau_said(t, &src, b);
    // The reporter says the program ran on the CPU: CUDA was unavailable to it.
    if has_ci(t, "cpu") || has_ci(t, "gpu") {
        if let Some(m) = cpu_fallback_said_re().find(t) {
            if !b
                .inv
                .errors
                .iter()
                .any(|e| e.kind == ErrorKind::CudaUnavailable)
            {
                b.error(ErrorKind::CudaUnavailable, m.as_str(), &src, None);
            }
        }
    }
    cpu_build_said(t, &src, b);
    // "`torch.version.cuda` is 9.0.176 while `nvcc --version` reports 10.0".
    said_builds(t, &src, b);
    // `TensorFlow 2.16.1` typed where no tool listed TensorFlow.
    if has_ci(t, "tensorflow") {
        if let Some(m) = tf_said_re().captures(t) {
            let name = if m.get(1).is_some() {
                "tensorflow-gpu"
            } else {
                "tensorflow"
            };
            let v = &m[2];
            let full = v.matches('.').count() == 2 || has_ci(t, "version");
            // An image tag (`tensorflow/tensorflow:2.16.1-gpu`) is no installed package.
            let image = t[..m.get(0).map_or(0, |x| x.start())].ends_with('/');
            let known = b
                .inv
                .python
                .iter()
                .any(|e| e.packages.iter().any(|p| p.name.starts_with("tensorflow")));
            if full && !image && !known && !has_ci(t, "since") && !has_ci(t, "after") {
                b.package(name, v, &src);
            }
        }
    }
    // `pip install onnxruntime-gpu==1.5.1`: what the reporter installed.
    if let Some(m) = pip_install_re().captures(t) {
        let args = m[1].to_string();
        for p in pinned_re().captures_iter(&args) {
            let name = p[1].to_ascii_lowercase();
            if name != "torch" && b.inv.python.iter().all(|e| e.package(&name).is_none()) {
                b.package(&name, &p[2], &src);
            }
        }
        torch_index(&args, &src, b);
    }
    let torch_known = b.inv.python.iter().any(|e| {
        e.package("torch").is_some() || e.torch.as_ref().is_some_and(|t| t.version.is_some())
    });
    if !torch_known {
        let v = torch_tagged_re()
            .captures(t)
            .map(|m| format!("{}+{}", &m[1], m[2].to_ascii_lowercase()))
            .or_else(|| {
                torch_said_build_re().captures(t).map(|m| {
                    let cu = match (m.get(4), m.get(2).or(m.get(5)), m.get(3).or(m.get(6))) {
                        (Some(tag), _, _) => tag.as_str().to_string(),
                        (None, Some(major), Some(minor)) => {
                            format!("{}{}", major.as_str(), minor.as_str())
                        }
                        _ => String::new(),
                    };
                    format!("{}+cu{cu}", &m[1])
                })
            })
            .or_else(|| {
                torch_version_re()
                    .captures(t)
                    .or_else(|| torch_dunder_re().captures(t))
                    .or_else(|| pip_torch_re().captures(t))
                    .map(|m| m[1].to_string())
            });
        if let Some(v) = v {
            b.package("torch", &v, &src);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::ingest;
    use crate::inventory::Inventory;

    fn run(text: &str) -> Inventory {
        ingest(&[("t".to_string(), text.to_string())])
    }

    #[test]
    fn torch_s_and_nvcc_s_cuda_stated_in_a_sentence() {
        // rusty1s/pytorch_scatter #45, in the report's words.
        let inv = run("My `torch.version.cuda` is 9.0.176 while `nvcc --version` reports 10.0\n");
        let c = inv.python[0].torch.as_ref().unwrap().cuda.as_ref().unwrap();
        assert_eq!(c.value.map(|c| c.to_string()).as_deref(), Some("9.0"));
        assert!(c.source.ends_with("(prose)"));
        assert_eq!(inv.toolkits[0].version.value.to_string(), "10.0");
        let inv = run("I checked torch.version.cuda and nvcc, both fine\n");
        assert!(inv.python.is_empty() && inv.toolkits.is_empty());
    }

    #[test]
    fn a_bare_geforce_number_the_reporter_owns_is_that_card() {
        // dsymbol/decipher #8: "So I have a 3060 and a core i9-12900kf".
        let inv = run("So I have a 3060 and a core i9-12900kf and whisper is slow\n");
        let n = inv.gpus[0].name.as_ref().unwrap();
        assert_eq!(n.value, "NVIDIA GeForce RTX 3060");
        // intel/openvino-plugins-ai-audacity#144: the brand names the card.
        let inv = run("after upgrading to an NVIDIA 4070 Super the plugin stopped working\n");
        let n = inv.gpus[0].name.as_ref().unwrap();
        assert_eq!(n.value, "NVIDIA GeForce RTX 4070");
        assert!(run("the step went from 2070 to 4070 tokens\n")
            .gpus
            .is_empty());
        assert_eq!(
            run("with my 1080 Ti\n").gpus[0]
                .name
                .as_ref()
                .unwrap()
                .value,
            "NVIDIA GeForce GTX 1080 Ti"
        );
        for t in [
            "I have a 1080p monitor\n",
            "with 3060 MHz memory\n",
            "issue 3060 was closed\n",
            "I have a 2024 laptop\n",
        ] {
            assert!(run(t).gpus.is_empty(), "{t}");
        }
    }

    #[test]
    fn a_typed_torch_install_names_its_build_by_the_wheel_index() {
        // StableSwarmUI #269: the install script's torch line.
        let inv = run("python3 -s -m pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121\n");
        let t = inv.python[0].torch.as_ref().unwrap();
        let c = t.cuda.as_ref().unwrap();
        assert_eq!(c.value.map(|c| c.to_string()).as_deref(), Some("12.1"));
        assert!(c.source.ends_with("(prose)"));
        let inv =
            run("pip3 install torch==2.4.0 --index-url https://download.pytorch.org/whl/cpu\n");
        let t = inv.python[0].torch.as_ref().unwrap();
        assert_eq!(t.cuda.as_ref().unwrap().value, None);
        let inv = run("pip install torch --index-url https://download.pytorch.org/whl/rocm6.1\n");
        let h = inv.python[0].torch.as_ref().unwrap().hip.as_ref().unwrap();
        assert_eq!(h.value.as_deref(), Some("6.1"));
        // The index of another package, or a torch whose tag is already known.
        let inv =
            run("pip install torchvision --index-url https://download.pytorch.org/whl/cu118\n");
        assert!(inv.python.iter().all(|e| e.torch.is_none()));
        let inv = run("pip install torch==2.1.0+cu118\npip install torch --index-url https://download.pytorch.org/whl/cpu\n");
        let t = inv.python[0].torch.as_ref().unwrap();
        let c = t.cuda.as_ref().unwrap();
        assert_eq!(c.value.map(|c| c.to_string()).as_deref(), Some("11.8"));
    }

    #[test]
    fn plain_template_keys_of_the_tensorflow_form() {
        // tensorflow #44040: the template's list markers were lost.
        let inv =
            run("TensorFlow version: 2.3.1\nCUDA: 10.1.243\ncuDNN: 8.0.4\nNVIDIA-SMI: 450.80.02\n");
        assert_eq!(inv.libraries.cudnn[0].version.value, "8.0.4");
        assert!(inv.libraries.cudnn[0].version.source.ends_with("(prose)"));
        assert_eq!(
            inv.nvidia.driver_version.unwrap().value.to_string(),
            "450.80.02"
        );
        assert_eq!(
            inv.python[0].package("tensorflow").unwrap().version,
            "2.3.1"
        );
        assert_eq!(inv.toolkits[0].version.value.to_string(), "10.1.243");
        assert!(inv.toolkits[0].version.source.ends_with("(prose)"));
        let inv = run("- CUDA/cuDNN version: 10.1 / 7.6\n");
        assert_eq!(inv.libraries.cudnn[0].version.value, "7.6");
        assert_eq!(inv.toolkits[0].version.value.to_string(), "10.1");
        // cupy #4664's template: the CUDA the reporter installed.
        let inv = run("CuPy version: 8.4\nPlatform: Debian Linux\nCUDA: 11.2\n");
        assert_eq!(inv.toolkits[0].version.value.to_string(), "11.2");
        // Not a CUDA version: a yes/no field, or a number that is no CUDA release.
        let inv = run("- CUDA: yes\n- CUDA version: 2.1\n");
        assert!(inv.toolkits.is_empty());
        // Other `Key: value` lines are not template fields.
        let inv = run("Error: cuDNN 8.0.4 failed\nnote: cudnn: 9.1 was loaded\n");
        assert!(inv.libraries.cudnn.is_empty());
    }

    #[test]
    fn template_fields_and_statements() {
        let inv = run("**NVIDIA Driver Version**: 470.129.06\n");
        let d = inv.nvidia.driver_version.unwrap();
        assert_eq!(d.value.to_string(), "470.129.06");
        assert_eq!(d.source, "input line 1 (prose)");
        let inv = run("Driver version: 410.48.\nGPU: GTX 1080 Ti\n");
        assert_eq!(
            inv.nvidia.driver_version.unwrap().value.to_string(),
            "410.48"
        );
        let g = inv.gpus[0].name.as_ref().unwrap();
        assert_eq!(g.value, "GTX 1080 Ti");
        assert_eq!(g.source, "input line 2 (prose)");
    }

    #[test]
    fn torch_and_its_cuda_said_in_words() {
        for (text, want) in [
            (
                "Using PyTorch 2.0.0 (CUDA 11.8 build) on two cards.\n",
                "2.0.0+cu118",
            ),
            ("torch 2.1.2 (cu121) from the wheel index\n", "2.1.2+cu121"),
            ("We run torch 1.13.1 built for CUDA 11.7.\n", "1.13.1+cu117"),
        ] {
            let inv = run(text);
            let v = inv
                .python
                .iter()
                .find_map(|e| e.package("torch"))
                .map(|p| p.version.clone());
            assert_eq!(v.as_deref(), Some(want), "{text}");
        }
        // A system CUDA beside a torch version says nothing of the wheel.
        let inv = run("PyTorch 2.0.0 with CUDA 12.1 installed on the system\n");
        let v = inv
            .python
            .iter()
            .find_map(|e| e.package("torch"))
            .map(|p| p.version.clone());
        assert_ne!(v.as_deref(), Some("2.0.0+cu121"));
    }

    #[test]
    fn torch_from_template_and_install_command() {
        let inv = run(
            "pip install torch===1.3.0 -f https://download.pytorch.org/whl/torch_stable.html\n",
        );
        let p = inv.python[0].package("torch").unwrap();
        assert_eq!(p.version, "1.3.0");
        assert!(p.source.ends_with("(prose)"));
        let inv = run("- PyTorch Version (e.g., 1.0): 1.4.0\n");
        assert_eq!(inv.python[0].package("torch").unwrap().version, "1.4.0");
    }

    #[test]
    fn tagged_torch_and_gpu_names_in_a_line() {
        let inv =
            run("**Setup:** i7-8750H, GTX 1070, 16 GB RAM.\n**Versions:** PyTorch 2.8.0 + cu129\n");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "GTX 1070");
        let p = inv.python[0].package("torch").unwrap();
        assert_eq!(p.version, "2.8.0+cu129");
        // GeForce notebook names: the MX series and the 9xxM/MX parts.
        let inv = run("The laptop has Intel graphics and a GeForce 940MX, driver 515.\n");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "GeForce 940MX");
        let inv = run("**Setup:** ThinkPad, MX150, 8 GB RAM\n");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "MX150");
        let inv = run("**Setup:** 2 x 940 cores, 8 GB RAM\n");
        assert!(inv.gpus.is_empty(), "a number alone is not a GPU");
        let inv = run("Cuda not compiled\ntorch2.2.0+cpu\n");
        assert_eq!(inv.python[0].package("torch").unwrap().version, "2.2.0+cpu");
    }

    #[test]
    fn issue_template_fields() {
        let inv = run("### OS Platform and Distribution\n\nWindows 10\n\n### Tensorflow Version\n\nv2.12.0-rc1-12-g0db597d0d75 2.12.0\n\n### GPU\n\nNvidia\n");
        assert_eq!(
            inv.os.kind.as_ref().unwrap().value,
            crate::inventory::OsKind::Windows
        );
        assert!(inv.os.kind.unwrap().source.ends_with("(prose)"));
        assert_eq!(
            inv.python[0].package("tensorflow").unwrap().version,
            "2.12.0"
        );
        assert!(inv.gpus.is_empty(), "a vendor is not a GPU name");
        let inv = run("**TensorRT Version**: 7.0.0.11\n**NVIDIA GPU**: RTX A6000\n");
        assert_eq!(
            inv.python[0].package("tensorrt").unwrap().version,
            "7.0.0.11"
        );
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "RTX A6000");
        let inv = run(
            "### What jax/jaxlib version are you using?\njax=0.4.6, jaxlib=0.4.6+cuda11.cudnn82\n",
        );
        assert_eq!(
            inv.python[0].package("jaxlib").unwrap().version,
            "0.4.6+cuda11.cudnn82"
        );
    }

    #[test]
    fn tool_output_wins_over_prose() {
        let inv = run("Driver version: 410.48\n| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n");
        let d = inv.nvidia.driver_version.unwrap();
        assert_eq!(d.value.to_string(), "535.104.05");
        assert!(!d.source.contains("prose"));
    }

    #[test]
    fn drivers_stated_inside_a_sentence() {
        let cases = [
            (
                "* On Ubuntu 18.04, the default nvidia driver is 390.87.\n",
                "390.87",
            ),
            (
                "It fails with cuda-11.6.2 and NVIDIA driver 470, although the table lists it\n",
                "470",
            ),
            (
                "I installed nvidia-driver-535 from the Ubuntu repository\n",
                "535",
            ),
            ("Running the 525.60.13 driver on this box\n", "525.60.13"),
            ("We are on the R550 driver branch since March\n", "550"),
        ];
        for (text, want) in cases {
            let inv = run(text);
            let d = inv
                .nvidia
                .driver_version
                .unwrap_or_else(|| panic!("{text}"));
            assert_eq!(d.value.to_string(), want, "{text}");
            assert!(d.source.ends_with("(prose)"));
        }
        assert!(run("with driver 470\n")
            .nvidia
            .driver_version
            .unwrap()
            .value
            .is_branch_only());
    }

    #[test]
    fn requirements_and_legacy_branches_are_not_the_driver() {
        for text in [
            "This release requires NVIDIA driver 525 or newer\n",
            "you need at least driver 535.54.03 for CUDA 12.2\n",
            "NVRM: the GPU is supported through the NVIDIA 470.xx Legacy drivers.\n",
            "Upgrading the driver to 500+ would also work\n",
            "CUDA driver version is insufficient for CUDA runtime version\n",
            "nvidia-docker: driver 7.0 < image 7.5\n",
            "I tried the 470 driver and then the 535 one\n",
            "the NVIDIA driver 418.x branch\n",
        ] {
            assert!(run(text).nvidia.driver_version.is_none(), "{text}");
        }
    }

    #[test]
    fn workstation_gpus_named_in_a_sentence() {
        for (text, want) in [
            (
                "Their desktop has an old NVIDIA Quadro K2000 and the code throws\n",
                "NVIDIA Quadro K2000",
            ),
            (
                "The workstation card is a Quadro RTX 5000 with 16 GB\n",
                "Quadro RTX 5000",
            ),
            (
                "The box has an NVIDIA RTX A4000 and the vendor driver\n",
                "NVIDIA RTX A4000",
            ),
        ] {
            let inv = run(text);
            let g = inv.gpus.first().and_then(|g| g.name.as_ref());
            assert_eq!(g.map(|g| g.value.as_str()), Some(want), "{text}");
        }
    }

    #[test]
    fn the_cpu_build_of_torch_in_the_reporter_s_words() {
        // pytorch/pytorch#168065 and mamba-org/mamba#1617, as reported.
        for text in [
            "Hi, noticing that trying to `pip install torch` resulted in the CPU version of torch stable.\n",
            "Title: mamba installs PyTorch CPU version instead of the CUDA version\n",
            "Mamba 0.22.1 still picks the \"CPU\" build of PyTorch when asked for the CUDA one\n",
            // raryelcostasouza/pyTranscriber#56, as reported.
            "The reporter found that the openai-whisper dependency had installed a torch build without CUDA\n",
        ] {
            let inv = run(text);
            let t = inv.python[0].torch.as_ref().expect(text);
            assert_eq!(t.cuda.as_ref().map(|f| f.value), Some(None), "{text}");
            assert!(t.cuda.as_ref().unwrap().source.ends_with("(prose)"));
        }
        for text in [
            "It installs the CUDA version instead of the CPU version of torch\n",
            "You can install the CPU-only torch from the cpu index\n",
            "The CPU version of torch works, but slowly\n",
        ] {
            let inv = run(text);
            assert!(
                inv.python.iter().all(|e| e.torch.is_none()),
                "{text}: {:?}",
                inv.python
            );
        }
    }

    #[test]
    fn the_program_running_on_the_cpu_in_the_reporter_s_words() {
        for text in [
            "Running invoke.bat is very slow, and it is using the CPU instead of my GTX 1060\n",
            "They use PotPlayer and it never uses the GPU, only the processor\n",
            "The model runs on CPU instead of the GPU although nvidia-smi shows the card\n",
        ] {
            let inv = run(text);
            assert_eq!(inv.errors.len(), 1, "{text}");
            assert_eq!(
                inv.errors[0].kind,
                crate::inventory::ErrorKind::CudaUnavailable
            );
        }
        for text in [
            "Starting it on the CPU with run_cpu.bat still works\n",
            "GPU usage is 100% and the CPU is idle\n",
            "I want to use my GPU for training\n",
        ] {
            assert!(run(text).errors.is_empty(), "{text}");
        }
    }

    #[test]
    fn toolkits_named_in_a_sentence() {
        for (text, want) in [
            (
                "It fails with cuda-11.6.2 and NVIDIA driver 470\n",
                "11.6.2",
            ),
            (
                "I installed CUDA Toolkit 11.8 from the NVIDIA site\n",
                "11.8",
            ),
            (
                "export PATH=/usr/local/cuda-12.1/bin:$PATH and the torch install\n",
                "12.1",
            ),
            (
                "sudo apt install cuda-toolkit-12-4 on the GPU box\n",
                "12.4",
            ),
        ] {
            let inv = run(text);
            let t = inv.toolkits.first().unwrap_or_else(|| panic!("{text}"));
            assert_eq!(t.version.value.to_string(), want, "{text}");
            assert!(t.version.source.ends_with("(prose)"));
        }
        // conda's cudatoolkit is a runtime package, and a bare "CUDA 11.8" may be any CUDA.
        for text in [
            "conda install pytorch cudatoolkit=11.3 -c pytorch\n",
            "my torch uses CUDA 11.8 on the GPU\n",
        ] {
            assert!(run(text).toolkits.is_empty(), "{text}");
        }
    }

    #[test]
    fn a_gpu_in_a_short_sentence_of_a_longer_line() {
        // cryoem-uoft/cryosparc-issues#131, in the report's words.
        let inv = run("The install was made against CUDA 7.5 on a machine with a GTX1080 and a Quadro M6000. With the GTX1080 disabled, re-running with only the Quadro gives the error below.\n");
        assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "GTX1080");
        // One long sentence stays unread without a brand word.
        let inv = run("The install was made against CUDA 7.5 on a machine with a P40 and a Quadro M6000 and with the P40 disabled re-running it gives the error below\n");
        assert!(inv.gpus.is_empty());
    }

    #[test]
    fn sentences_are_not_fields() {
        let inv = run("I updated my driver to the latest one yesterday\nthe GPU is fine: nvidia-smi shows it\nmy gpu: an old laptop\n");
        assert!(inv.nvidia.driver_version.is_none());
        assert!(inv.gpus.is_empty());
    }
}
