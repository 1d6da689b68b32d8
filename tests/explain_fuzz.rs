//! A fuzz pass that runs with `cargo test` (the cargo-fuzz targets under
//! `fuzz/` need nightly): every parser gets random bytes, mutated real
//! reports, huge lines and many lines; none may panic, each must finish in
//! time, and the cost must grow linearly with the input.

use std::path::Path;
use std::time::{Duration, Instant};

use gpucompat::ingest::{
    self, clean, collect_env, dockerfile, env, errors, nvcc, nvidia_smi, os, pip, proc_version,
    repl, Builder, Doc,
};

type Parser = fn(&Doc, &mut Builder);

const PARSERS: [(&str, Parser); 11] = [
    ("collect_env", collect_env::parse),
    ("nvidia_smi", nvidia_smi::parse),
    ("proc_version", proc_version::parse),
    ("nvcc", nvcc::parse),
    ("pip", pip::parse),
    ("os", os::parse),
    ("dockerfile", dockerfile::parse),
    ("env", env::parse),
    ("repl", repl::parse),
    ("errors", errors::parse),
    ("all", ingest::parse_doc),
];

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Lines of every real report in the corpus and every catalog example.
fn seed_lines() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain");
    let mut lines = Vec::new();
    // The top-level reports only: corpus/ holds the sealed part too.
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        lines.extend(text.lines().map(str::to_string));
    }
    lines.extend(errors::CATALOG.iter().map(|e| e.example.to_string()));
    lines
}

const NOISE: [&str; 12] = [
    "> ",
    "| ",
    "\t",
    "\r",
    "```",
    "<details>",
    "&lt;",
    ": ",
    "=",
    "\u{1b}[31m",
    "…",
    "GPU 0: ",
];

fn mutate(rng: &mut Rng, seeds: &[String], n_lines: usize) -> String {
    let mut out = String::new();
    for _ in 0..n_lines {
        let mut line = seeds[rng.below(seeds.len())].clone();
        match rng.below(8) {
            0 => {
                // Cut the line at a random character boundary.
                let mut cut = rng.below(line.len() + 1);
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                line.truncate(cut);
            }
            1 => line.insert_str(0, NOISE[rng.below(NOISE.len())]),
            2 => {
                let other = &seeds[rng.below(seeds.len())];
                line.push_str(other);
            }
            3 => {
                let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
                line.push_str(&String::from_utf8_lossy(&bytes));
            }
            4 => line = line.repeat(1 + rng.below(5)),
            _ => {}
        }
        out.push_str(&line);
        out.push(if rng.below(10) == 0 { '\r' } else { '\n' });
    }
    out
}

fn run_all(text: &str, budget: Duration) {
    let doc = clean("fuzz", text);
    for (name, parse) in PARSERS {
        let start = Instant::now();
        let mut b = Builder::new("fuzz");
        parse(&doc, &mut b);
        let inv = b.finish();
        let _ = ingest::missing_facts(&inv);
        let took = start.elapsed();
        assert!(
            took <= budget,
            "{name} took {took:?} on {} bytes",
            text.len()
        );
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..200 {
        let len = rng.below(4096);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        run_all(&String::from_utf8_lossy(&bytes), Duration::from_secs(2));
    }
}

#[test]
fn mutated_real_reports() {
    let seeds = seed_lines();
    let mut rng = Rng(42);
    for _ in 0..300 {
        let n = 1 + rng.below(60);
        run_all(&mutate(&mut rng, &seeds, n), Duration::from_secs(2));
    }
}

#[test]
fn pathological_shapes() {
    let huge_line = "| NVIDIA-SMI ".repeat(200_000);
    let many_lines = "GPU 0: x\n".repeat(100_000);
    let nested_quotes = format!("{}text\n", "> ".repeat(50_000));
    let only_separators = "|".repeat(300_000);
    let prompts = "$ echo $CUDA_VISIBLE_DEVICES\n".repeat(20_000);
    let open_parens = format!(">>> print({}\n", "(".repeat(100_000));
    let many_gpus: String = (0..1000)
        .map(|i| format!("GPU {i}: NVIDIA {} {}\n", "X".repeat(i % 300), i * 7))
        .collect();
    for text in [
        huge_line,
        many_lines,
        nested_quotes,
        only_separators,
        prompts,
        open_parens,
        many_gpus.clone(),
    ] {
        run_all(&text, Duration::from_secs(10));
    }
    // The knowledge-base lookups of GPU names stay bounded too.
    let start = Instant::now();
    let mut inv = ingest::ingest(&[("f".to_string(), many_gpus)]);
    ingest::enrich(&mut inv, gpucompat::kb::Kb::embedded());
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

/// Eight times the input must not cost much more than eight times the time.
#[test]
fn cost_grows_linearly() {
    let seeds = seed_lines();
    let mut rng = Rng(7);
    let small = mutate(&mut rng, &seeds, 2_000);
    let big = small.repeat(8);
    let time = |t: &str| {
        let start = Instant::now();
        let _ = ingest::ingest(&[("f".to_string(), t.to_string())]);
        start.elapsed()
    };
    let _ = time(&small); // warm up statics and regexes
    let t_small = (0..3).map(|_| time(&small)).min().unwrap();
    let t_big = time(&big);
    assert!(
        t_big <= t_small * 24 + Duration::from_millis(200),
        "small {t_small:?} ({} B), big {t_big:?} ({} B)",
        small.len(),
        big.len()
    );
}
