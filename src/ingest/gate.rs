//! One pass over the paste that tells each parser which lines can concern
//! it, so a 1 MB log costs a parser only the lines that carry its keywords.
//!
//! Each line is split into words (runs of ASCII letters, lowercased); a word
//! table maps a word to the parsers that care about it and to the error
//! catalog entries whose message contains it. A parser then skips every line
//! whose gate bit is clear (unless it is inside a multi-line block), and the
//! error catalog checks only its candidate entries. The gates are only a
//! prefilter: every parser still checks the exact text.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// A parser's bit in a line's gate mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum Gate {
    Smi = 1,
    Proc = 1 << 1,
    Os = 1 << 2,
    Collect = 1 << 3,
    Nvcc = 1 << 4,
    Pip = 1 << 5,
    Repl = 1 << 6,
    Env = 1 << 7,
    /// Platform and launcher clues (see [`super::context`]).
    Context = 1 << 8,
    /// Facts typed in prose (see [`super::prose`]).
    Prose = 1 << 9,
    /// Device numbering clues (see [`super::context`]).
    Devices = 1 << 10,
    /// Subjects a report mentions (see [`super::topics`]).
    Topic = 1 << 11,
    /// The GPU itself named (`gpu`, `cuda`, `nvidia`): a topic only in a failing line.
    GpuWord = 1 << 12,
    /// A word of a phrase that makes a line read as a failure (`error`, `cannot`).
    Failing = 1 << 13,
    /// A word of a statement that a change fixed something (see
    /// `errors::fixed_in_the_report`).
    Fixed = 1 << 14,
    /// A word of ownership (`I have a 3060`, `my 4090`), for GPUs typed bare
    /// in prose (see [`super::prose`]).
    Owned = 1 << 15,
}

/// Words (lowercase letters only) that can make a line matter to a parser.
const WORDS: &[(Gate, &[&str])] = &[
    (
        Gate::Smi,
        &[
            "smi",
            "mig",
            "processes",
            "gpu",
            "query",
            "name",
            "version",
            "nvsmi",
            "kmd",
            "attached",
            "capability",
            "computecapability",
            "selected",
            "found",
            "device",
            "product",
            "persistence",
            "mode",
            "current",
            "total",
            "fb",
            "bus",
            "uuid",
            "compute",
            "cap",
            "index",
        ],
    ),
    (
        Gate::Proc,
        &[
            "kernel",
            "module",
            "nvrm",
            "nvidia",
            "nouveau",
            "amdgpu",
            "libnvidia",
            "libcuda",
            "libcudnn",
            "cudnn",
            "libnccl",
            "libnvinfer",
            "libc",
            "fabric",
            "fabricmanager",
            "active",
            "unit",
            "cuda",
            "device",
            "model",
            "architecture",
            "ii",
            "modules",
            "size",
            "used",
        ],
    ),
    (
        Gate::Os,
        &[
            "linux",
            "darwin",
            "controller",
            "description",
            "release",
            "codename",
            "distributor",
            "productversion",
            "chip",
            "secureboot",
            "file",
            "site",
            "packages",
            "dist",
            "name",
            "rock",
            "pretty",
            "id",
            "version",
            "like",
            "home",
            "url",
            "kernel",
        ],
    ),
    (
        Gate::Collect,
        &[
            "collecting",
            "paste",
            "pip",
            "conda",
            "pytorch",
            "debug",
            "build",
            "cuda",
            "rocm",
            "xpu",
            "available",
            "runtime",
            "loading",
            "gpu",
            "models",
            "configuration",
            "nvidia",
            "driver",
            "cudnn",
            "hip",
            "miopen",
            "xnnpack",
            "python",
            "platform",
            "versions",
            "relevant",
            "libraries",
            "transformers",
            "accelerate",
            "tensorflow",
            "vllm",
            "jax",
            "jaxlib",
            "archs",
        ],
    ),
    (
        Gate::Nvcc,
        &["cuda", "compilation", "nvcc", "version", "command"],
    ),
    (
        Gate::Pip,
        &[
            "package",
            "packages",
            "name",
            "requirement",
            "successfully",
            "version",
            // A `conda list` row's channel.
            "forge",
            "pytorch",
            "defaults",
            "anaconda",
        ],
    ),
    (
        Gate::Repl,
        &[
            "in",
            "out",
            "print",
            "python",
            "torch",
            "cuda",
            "available",
            "version",
            "cudadeviceproperties",
        ],
    ),
    (Gate::Env, &["environ", "export", "set", "env", "echo", "e"]),
    (Gate::Owned, &["have", "my", "with", "using", "own"]),
    (
        Gate::Fixed,
        &["worked", "fixed", "solved", "resolved", "rid"],
    ),
    (
        Gate::Context,
        &[
            "apple",
            "platform",
            "pro",
            "max",
            "ultra",
            "mbp",
            "deepspeed",
            "macbook",
            "mac",
            "mini",
            "studio",
            "imac",
            "macos",
            "os",
            "osx",
            "darwin",
            "users",
            "homebrew",
            "chipset",
            "metal",
            "mps",
            "microsoft",
            "wsl",
            "mnt",
            "win",
            "windows",
            "powershell",
            "exe",
            "dll",
            "radeon",
            "rx",
            "gfx",
            "rocm",
            "amdgpu",
            "hip",
            "hsa",
            "instinct",
            "mi",
            "directml",
            "advanced",
            "zluda",
            "ryzen",
            "raven",
            "amd",
            "whl",
            "jetson",
            "colab",
            "nix",
            "suspend",
            "suspended",
            "suspends",
            "suspending",
            "hibernate",
            "hibernated",
            "hibernation",
            "hibernates",
            "standby",
            "wake",
            "wakes",
            "waking",
            "sleep",
            "resume",
            "nixpkgs",
            "nixos",
            "nixgl",
            "virtualization",
            "vgpu",
            "fractional",
            "dgx",
            "hgx",
            "tegra",
            "l",
            "jetpack",
            "agx",
            "orin",
            "xavier",
            "docker",
            "podman",
            "singularity",
            "apptainer",
            "container",
            "update",
            "updates",
            "upgrade",
            "upgrades",
            "updating",
            "upgrading",
            "yesterday",
            "rootless",
            "root",
            "dockerenv",
            "ray",
            "remote",
            "num",
            "sbatch",
            "srun",
            "k",
            "rke",
            "rancher",
            "command",
            "solve",
            "kubectl",
            "operator",
            "plugin",
            "kubernetes",
            "microk",
            "kubelet",
            "kind",
            "runtimeclassname",
            "ollama",
            "vllm",
            "cuml",
            "cudf",
            "cugraph",
            "rapids",
            "rapidsai",
            "intel",
            "iris",
            "slurm",
            "slurmstepd",
            "salloc",
            "secure",
            "mig",
            "driver",
            "runtime",
            "subsystem",
            "dev",
            "dxg",
            "libnvidia",
            "ii",
            "utils",
            "c",
            "d",
            "f",
            "g",
            "h",
        ],
    ),
    (
        Gate::Devices,
        &[
            "visible",
            "ids",
            "gpu",
            "cuda",
            "smi",
            "setup",
            "buildextension",
            "cpp",
            "extension",
            "extensions",
            "wheel",
            "wheels",
            "built",
            "isolation",
            "compiled",
            "mmcv",
            "scatter",
            "sparse",
            "spline",
        ],
    ),
    (
        Gate::Prose,
        &[
            "driver",
            "gpu",
            "gpus",
            "graphics",
            "video",
            "card",
            "version",
            "install",
            "torch",
            "pytorch",
            "gtx",
            "rtx",
            "geforce",
            "tesla",
            "quadro",
            "titan",
            "mx",
            "nvidia",
            "proprietary",
            // `it still uses the CPU`: the reporter's words for a fallback.
            "cpu",
            "nouveau",
        ],
    ),
];

#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type WordMap = HashMap<u64, Entry, BuildHasherDefault<IdHasher>>;

/// The word table plus a bitmap of its hashes: most words of a log are not
/// in the table, and one bit test turns them away before a map probe.
struct Table {
    map: WordMap,
    bloom: Vec<u64>,
}

const BLOOM_BITS: u64 = 1 << 14;

fn bloom_bit(h: u64) -> (usize, u64) {
    let b = (h >> 7) % BLOOM_BITS;
    ((b / 64) as usize, 1 << (b % 64))
}

#[derive(Default)]
struct Entry {
    gates: u16,
    catalog: Vec<u16>,
}

/// FNV-1a over lowercase ASCII letters.
fn word_hash(word: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in word {
        h ^= u64::from(b | 0x20);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The words of a text: maximal runs of ASCII letters.
#[cfg(test)]
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
}

/// Words too frequent in logs to select catalog candidates with.
const COMMON: &[&str] = &[
    "nvidia",
    "error",
    "version",
    "cuda",
    "driver",
    "system",
    "library",
    "available",
    "device",
    "devices",
    "file",
    "found",
    "failed",
    "unknown",
    "runtime",
    "torch",
    "the",
    "not",
    "with",
    "for",
    "is",
    "no",
    "gpu",
    "load",
    "could",
    "of",
    "out",
    "to",
    "in",
    "on",
    "a",
    "an",
    "at",
    "be",
    "by",
    "it",
    "you",
    "your",
    "this",
    "was",
    "has",
    "are",
    "can",
];

/// The catalog word that must appear in a line for an entry to match: the
/// longest word of its needle that is whole inside the needle (letters on
/// neither side), so it is a whole word in any line containing the needle.
pub fn catalog_word(needle: &str) -> Option<String> {
    let b = needle.as_bytes();
    // (score, start, end); interior words score above any edge word.
    let mut best: Option<(usize, usize, usize)> = None;
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        let interior = start > 0 && i < b.len();
        // Words every log is full of make poor keys: most lines would be candidates.
        let common = COMMON.contains(&needle[start..i].to_ascii_lowercase().as_str());
        let score = (i - start) + if interior { 100 } else { 0 } + if common { 0 } else { 1000 };
        if best.map_or(true, |(s, _, _)| score > s) {
            best = Some((score, start, i));
        }
    }
    best.map(|(_, s, e)| needle[s..e].to_ascii_lowercase())
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let mut m = WordMap::default();
        for (gate, ws) in WORDS {
            for w in *ws {
                m.entry(word_hash(w.bytes())).or_default().gates |= *gate as u16;
            }
        }
        // The topic words gate as catalog needles do: by their best key word.
        for (topic, needles) in super::topics::TOPICS {
            let gate = if *topic == crate::inventory::Topic::Gpu {
                Gate::GpuWord
            } else {
                Gate::Topic
            };
            for w in needles.iter().filter_map(|n| catalog_word(n)) {
                m.entry(word_hash(w.bytes())).or_default().gates |= gate as u16;
            }
        }
        // A failing phrase matches inside longer words (`fail` in `failed`),
        // so its key word gates with the usual endings too.
        for w in super::topics::FAILING
            .iter()
            .chain(super::topics::HANGS)
            .filter_map(|n| catalog_word(n))
        {
            for end in ["", "s", "d", "ed", "es", "ing", "ure", "ures"] {
                let word = format!("{w}{end}");
                m.entry(word_hash(word.bytes())).or_default().gates |= Gate::Failing as u16;
            }
        }
        for (i, e) in super::errors::CATALOG.iter().enumerate() {
            if let Some(w) = catalog_word(e.needle) {
                m.entry(word_hash(w.bytes()))
                    .or_default()
                    .catalog
                    .push(i as u16);
            }
        }
        let mut bloom = vec![0u64; (BLOOM_BITS / 64) as usize];
        for h in m.keys() {
            let (w, bit) = bloom_bit(*h);
            bloom[w] |= bit;
        }
        Table { map: m, bloom }
    })
}

/// Gate bits of one line and the catalog entries it may match (appended to `catalog`).
pub fn scan_line(text: &str, catalog: &mut Vec<u16>) -> u16 {
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;
    let t = table();
    let mut gates = 0u16;
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    // The word hash, computed inline: this loop sees every byte of the paste.
    while i < n {
        while i < n && !bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i == n {
            break;
        }
        let start = i;
        let mut h = SEED;
        while i < n && bytes[i].is_ascii_alphabetic() {
            h ^= u64::from(bytes[i] | 0x20);
            h = h.wrapping_mul(0x0100_0000_01b3);
            i += 1;
        }
        // A one-letter word right after a digit is a number's exponent or
        // unit (`3e-4`, `12k`), on every line of a training log.
        if i - start == 1 && start > 0 && bytes[start - 1].is_ascii_digit() {
            continue;
        }
        let (w, bit) = bloom_bit(h);
        if t.bloom.get(w).is_some_and(|x| x & bit != 0) {
            if let Some(e) = t.map.get(&h) {
                gates |= e.gates;
                catalog.extend_from_slice(&e.catalog);
            }
        }
    }
    gates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_words_are_whole_words_of_their_examples() {
        for e in super::super::errors::CATALOG {
            let w = catalog_word(e.needle).unwrap_or_else(|| panic!("{}: no word", e.id));
            assert!(
                words(e.example).any(|x| x.eq_ignore_ascii_case(&w)),
                "{}: {w:?} is not a word of {:?}",
                e.id,
                e.example
            );
        }
    }

    #[test]
    fn a_letter_after_a_digit_is_no_word() {
        // No catalog entry is keyed on one letter after a digit.
        for (k, e) in super::super::errors::CATALOG.iter().enumerate() {
            let mut c = Vec::new();
            scan_line(e.example, &mut c);
            assert!(c.contains(&(k as u16)), "{}", e.id);
        }
        let mut c = Vec::new();
        assert_eq!(
            scan_line("loss=0.0123, lr=3e-4", &mut c) & Gate::Env as u16,
            0
        );
        assert_ne!(
            scan_line("docker run -e CUDA_VISIBLE_DEVICES=0 img", &mut c) & Gate::Env as u16,
            0
        );
    }

    #[test]
    fn gates() {
        let mut c = Vec::new();
        let g = scan_line(
            "| NVIDIA-SMI 550.54.14   Driver Version: 550.54.14 |",
            &mut c,
        );
        assert!(g & Gate::Smi as u16 != 0);
        c.clear();
        let g = scan_line("Epoch 1/100: 100%|####| 512/512 [00:41<00:00]", &mut c);
        assert_eq!(g, 0);
        assert!(c.is_empty());
        scan_line(
            "Failed to initialize NVML: Driver/library version mismatch",
            &mut c,
        );
        assert!(!c.is_empty());
    }
}
