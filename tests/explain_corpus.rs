//! The explain corpus: real reports from public issues, each with the
//! categories the maintainers' resolution names and those a careless tool
//! would wrongly flag. The 63 top-level reports and the reports under
//! `corpus/` whose source URL has an even FNV-1a 64-bit hash are the
//! development part; the odd-hash ones are the sealed part, scored only to
//! measure how the rules hold on reports they were not tuned on.
//!
//! A report's body keeps its logs verbatim and paraphrases its prose; a
//! `Title:` line is the issue's own title where it states context (WSL, a
//! platform) that the body does not repeat, as the reporter would paste it.
//!
//! `GPUCOMPAT_CORPUS_SPLIT=dev` scores the development part only and never
//! reads past the `source:` line of a sealed report; unset (CI), both parts
//! are scored and both scores printed.

// Tests report measurements and skips on the console.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use gpucompat::finding::{Category, Finding, Severity};
use gpucompat::ingest;
use gpucompat::inventory::Inventory;
use gpucompat::kb::Kb;

/// Reports the whole corpus must hold, and its sealed part.
const MIN_REPORTS: usize = 250;
const MIN_SEALED: usize = 80;
const DEV_SCORE: f64 = 0.95;
const SEALED_SCORE: f64 = 0.90;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Dev,
    Sealed,
}

struct Report {
    file: String,
    part: Part,
    source: String,
    expected: Vec<Category>,
    must_not: Vec<Category>,
    no_error: bool,
    body: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain")
}

/// True when only the development part may be read.
fn dev_only() -> bool {
    std::env::var("GPUCOMPAT_CORPUS_SPLIT").is_ok_and(|v| v == "dev")
}

pub fn fnv1a64(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// The `source:` of a report, read line by line from the top so that
/// nothing past it is read.
fn source_of(path: &Path) -> String {
    let f = std::fs::File::open(path).expect("open report");
    for line in std::io::BufReader::new(f).lines().take(12) {
        let line = line.expect("read report");
        if let Some(v) = line.strip_prefix("source: ") {
            return v.trim().to_string();
        }
    }
    panic!("{}: no source line in its front matter", path.display());
}

/// Every report with its part; sealed ones are read whole only when
/// `read_sealed`, otherwise they count but carry no body or labels.
fn load(read_sealed: bool) -> (Vec<Report>, usize) {
    let mut out = Vec::new();
    let mut sealed = 0usize;
    for p in txt_files(&corpus_dir()) {
        out.push(parse_report(&p, Part::Dev));
    }
    for p in txt_files(&corpus_dir().join("corpus")) {
        let part = if fnv1a64(&source_of(&p)) % 2 == 1 {
            Part::Sealed
        } else {
            Part::Dev
        };
        if part == Part::Sealed {
            sealed += 1;
            if !read_sealed {
                continue;
            }
        }
        out.push(parse_report(&p, part));
    }
    (out, sealed)
}

fn categories(file: &str, v: &str) -> Vec<Category> {
    let inner = v.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| Category::parse(c).unwrap_or_else(|| panic!("{file}: unknown category {c}")))
        .collect()
}

/// `---` front matter (`source:`, `expected: [a, b]`, `must_not: [c]`,
/// `no_error:`, `about:`) then the pasted text.
fn parse_report(path: &Path, part: Part) -> Report {
    let file = path
        .strip_prefix(corpus_dir())
        .unwrap_or(path)
        .to_string_lossy()
        .to_string();
    let text = std::fs::read_to_string(path).expect("read fixture");
    let text = text.replace("\r\n", "\n");
    let rest = text
        .strip_prefix("---\n")
        .unwrap_or_else(|| panic!("{file}: no front matter"));
    let (header, body) = rest
        .split_once("\n---\n")
        .unwrap_or_else(|| panic!("{file}: front matter not closed"));
    let mut source = String::new();
    let mut expected = None;
    let mut must_not = Vec::new();
    let mut no_error = None;
    let mut about = String::new();
    for line in header.lines().filter(|l| !l.trim().is_empty()) {
        let (k, v) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{file}: bad header line {line:?}"));
        let v = v.trim();
        match k.trim() {
            "source" => source = v.to_string(),
            "expected" => expected = Some(categories(&file, v)),
            "must_not" => must_not = categories(&file, v),
            "no_error" => no_error = Some(v == "true"),
            "about" => about = v.to_string(),
            k => panic!("{file}: unknown header key {k}"),
        }
    }
    assert!(
        source.starts_with("https://github.com/") || source.starts_with("https://forums."),
        "{file}: source must be a public issue or forum thread URL"
    );
    assert!(!about.is_empty(), "{file}: needs an about line");
    let expected = expected.unwrap_or_else(|| panic!("{file}: expected missing"));
    let no_error = no_error.unwrap_or_else(|| panic!("{file}: no_error missing"));
    Report {
        file,
        part,
        source,
        expected,
        must_not,
        no_error,
        body: body.to_string(),
    }
}

fn inventory(r: &Report) -> Inventory {
    let mut inv = ingest::ingest(&[(r.file.clone(), r.body.clone())]);
    ingest::enrich(&mut inv, Kb::embedded());
    inv
}

#[test]
fn corpus_is_large_sourced_and_covers_every_category() {
    let (reports, sealed) = load(!dev_only());
    let dev = reports.iter().filter(|r| r.part == Part::Dev).count();
    let total = dev + sealed;
    println!("explain corpus: {total} reports, {dev} development, {sealed} sealed");
    assert!(
        total >= MIN_REPORTS,
        "{total} reports, fewer than {MIN_REPORTS}"
    );
    assert!(
        sealed >= MIN_SEALED,
        "{sealed} sealed reports, fewer than {MIN_SEALED}"
    );
    let covered: BTreeSet<Category> = reports.iter().flat_map(|r| r.expected.clone()).collect();
    for c in Category::ALL {
        assert!(covered.contains(&c), "no report expects {c}");
    }
    let working = reports.iter().filter(|r| r.no_error).count();
    assert!(working >= 3, "only {working} working setups");
    let sources: BTreeSet<&str> = reports.iter().map(|r| r.source.as_str()).collect();
    assert_eq!(sources.len(), reports.len(), "two fixtures share a source");
    for r in &reports {
        for c in &r.expected {
            assert!(
                !r.must_not.contains(c),
                "{}: {c} both expected and must_not",
                r.file
            );
        }
    }
}

/// Most reports yield facts or a recognised error: a parser that stops
/// reading a real format fails here. (Some reports are a sentence about
/// what the user saw, or prose about a misconception, with nothing a parser
/// reads; the ones in the development part are listed.)
#[test]
fn every_report_is_read() {
    let (reports, _) = load(!dev_only());
    let mut unread = Vec::new();
    for r in &reports {
        let inv = inventory(r);
        let read = !inv.errors.is_empty()
            || !inv.gpus.is_empty()
            || inv.driver_version().is_some()
            || inv.nvidia.cuda_max.is_some()
            || !inv.python.is_empty()
            || !inv.env.is_empty()
            || !inv.toolkits.is_empty()
            || !inv.amd.gfx_targets.is_empty()
            || !inv.pci.is_empty()
            || inv.os.kind.is_some()
            || !inv.setting.is_empty();
        if !read && r.part == Part::Dev {
            unread.push(r.file.as_str());
        }
        if !read {
            continue;
        }
        for e in &inv.errors {
            assert!(e.source.contains(" line "), "{}: {:?}", r.file, e);
        }
    }
    println!("reports nothing was read from: {unread:?}");
    assert!(
        unread.len() * 100 <= reports.len() * 15,
        "{} of {} reports yield nothing: {unread:?}",
        unread.len(),
        reports.len()
    );
}

fn errors(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count()
}

#[derive(Default)]
struct Score {
    hits: usize,
    /// Hits that only a hint (an info HINT finding) names.
    hint_hits: usize,
    total: usize,
    errors_on_working: usize,
    must_not_errors: usize,
    misses: Vec<String>,
}

impl Score {
    fn ratio(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.hits as f64 / self.total as f64
        }
    }
}

/// A report is a hit when every expected category is named, no must-not
/// category is named at error severity, and a working setup gets no error.
fn score(r: &Report, kb: &Kb, s: &mut Score) {
    // What `gpucompat explain` shows for the report: the same pipeline.
    let findings = gpucompat::report::report(
        gpucompat::report::Input::Text(vec![(r.file.clone(), r.body.clone())]),
        kb,
        &gpucompat::report::Options::default(),
    )
    .expect("explain reads every corpus report")
    .findings;
    let got: BTreeSet<Category> = findings.iter().map(|f| f.category).collect();
    let has_expected = r.expected.iter().all(|c| got.contains(c));
    let wrong: Vec<&str> = findings
        .iter()
        .filter(|f| f.severity == Severity::Error && r.must_not.contains(&f.category))
        .map(|f| f.code.as_str())
        .collect();
    let n_err = errors(&findings);
    let false_error = r.no_error && n_err > 0;
    s.total += 1;
    if r.no_error {
        s.errors_on_working += n_err;
    }
    s.must_not_errors += wrong.len();
    if has_expected && wrong.is_empty() && !false_error {
        s.hits += 1;
        let verdicts: BTreeSet<Category> = findings
            .iter()
            .filter(|f| !f.code.starts_with("HINT"))
            .map(|f| f.category)
            .collect();
        if !r.expected.iter().all(|c| verdicts.contains(c)) {
            s.hint_hits += 1;
        }
        return;
    }
    if r.part == Part::Sealed {
        // The sealed part's misses stay unprinted: they are not for tuning.
        return;
    }
    let got: Vec<&str> = got.iter().map(|c| c.as_str()).collect();
    let mut line = format!(
        "  {}: expected {:?}, got {:?}",
        r.file,
        r.expected.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
        got
    );
    if !wrong.is_empty() {
        line.push_str(&format!(" (must-not at error: {})", wrong.join(", ")));
    }
    if false_error {
        line.push_str(&format!(" ({n_err} error findings on a working setup)"));
    }
    s.misses.push(line);
}

/// Both parts scored, both scores printed (the sealed part's misses are not).
fn scores() -> (Score, Score) {
    let (reports, _) = load(!dev_only());
    let kb = Kb::embedded();
    let mut dev = Score::default();
    let mut sealed = Score::default();
    for r in &reports {
        match r.part {
            Part::Dev => score(r, kb, &mut dev),
            Part::Sealed => score(r, kb, &mut sealed),
        }
    }
    println!(
        "explain corpus, development part: {}/{} ({:.1}%, {} of them by a hint alone); {} error findings on working setups; {} must-not categories at error",
        dev.hits,
        dev.total,
        dev.ratio() * 100.0,
        dev.hint_hits,
        dev.errors_on_working,
        dev.must_not_errors
    );
    for m in &dev.misses {
        println!("{m}");
    }
    if dev_only() {
        println!("explain corpus, sealed part: not scored (GPUCOMPAT_CORPUS_SPLIT=dev)");
    } else {
        println!(
            "explain corpus, sealed part: {}/{} ({:.1}%, {} of them by a hint alone); {} error findings on working setups; {} must-not categories at error",
            sealed.hits,
            sealed.total,
            sealed.ratio() * 100.0,
            sealed.hint_hits,
            sealed.errors_on_working,
            sealed.must_not_errors
        );
    }
    (dev, sealed)
}

/// What the development part holds today (79.4% of 2007 reports; the reports
/// that joined last, 93 of them, are named at 74% and took it from 79.7%): a
/// score only allowed to rise as reports are fixed; reports that join may
/// lower it.
/// The targets ([`DEV_SCORE`], [`SEALED_SCORE`], no must-not error) are
/// asserted by `corpus_meets_its_targets`, ignored until they are met.
const DEV_FLOOR: f64 = 0.794;
/// One must-not error joined with the last reports and stays:
/// c83d-fooocus-amd-windows-missing-directml-flag shows only "Torch not
/// compiled with CUDA enabled" from a Windows install (the torch there is a
/// CPU build) and names no GPU; that the machine is AMD's, where the fix is
/// the launcher's DirectML option, is in a reply outside the paste.
const DEV_MUST_NOT_CEILING: usize = 1;

#[test]
fn rules_name_the_expected_category() {
    let (dev, _) = scores();
    assert!(
        dev.ratio() >= DEV_FLOOR,
        "development score {:.1}% fell below its floor {:.0}%",
        dev.ratio() * 100.0,
        DEV_FLOOR * 100.0
    );
    assert_eq!(dev.errors_on_working, 0, "error findings on working setups");
    assert_eq!(
        dev.must_not_errors, DEV_MUST_NOT_CEILING,
        "must-not categories at error severity (at most {DEV_MUST_NOT_CEILING})"
    );
}

#[test]
#[ignore = "the corpus targets are not met yet: run with --ignored"]
fn corpus_meets_its_targets() {
    let (dev, sealed) = scores();
    assert!(
        dev.ratio() >= DEV_SCORE,
        "development score {:.1}% is below {:.0}%",
        dev.ratio() * 100.0,
        DEV_SCORE * 100.0
    );
    assert_eq!(
        dev.must_not_errors, 0,
        "must-not categories at error severity"
    );
    if !dev_only() {
        assert!(
            sealed.ratio() >= SEALED_SCORE,
            "sealed score {:.1}% is below {:.0}%",
            sealed.ratio() * 100.0,
            SEALED_SCORE * 100.0
        );
        assert_eq!(
            sealed.errors_on_working, 0,
            "sealed: error findings on working setups"
        );
        assert_eq!(
            sealed.must_not_errors, 0,
            "sealed: must-not categories at error severity"
        );
    }
}

#[test]
fn split_is_the_documented_hash() {
    // CORPUS.md's reference implementation gives these.
    assert_eq!(fnv1a64(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
}
