use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let t0 = Instant::now();
    let kb = gpucompat::kb::Kb::embedded();
    let t1 = Instant::now();
    let doc = gpucompat::ingest::clean("input", &text);
    let t2 = Instant::now();
    let mut times = vec![];
    type P = fn(&gpucompat::ingest::Doc, &mut gpucompat::ingest::Builder);
    let ps: [(&str, P); 10] = [
        ("proc", gpucompat::ingest::proc_version::parse),
        ("smi", gpucompat::ingest::nvidia_smi::parse),
        ("collect", gpucompat::ingest::collect_env::parse),
        ("nvcc", gpucompat::ingest::nvcc::parse),
        ("os", gpucompat::ingest::os::parse),
        ("pip", gpucompat::ingest::pip::parse),
        ("repl", gpucompat::ingest::repl::parse),
        ("docker", gpucompat::ingest::dockerfile::parse),
        ("env", gpucompat::ingest::env::parse),
        ("errors", gpucompat::ingest::errors::parse),
    ];
    let mut b = gpucompat::ingest::Builder::new("x");
    for (n, p) in ps {
        let s = Instant::now();
        p(&doc, &mut b);
        times.push((n, s.elapsed()));
    }
    let t3 = Instant::now();
    let mut inv = b.finish();
    gpucompat::ingest::enrich(&mut inv, kb);
    let t4 = Instant::now();
    let j = serde_json::to_string(&inv).unwrap();
    let t5 = Instant::now();
    println!("kb {:?} clean {:?} parsers {:?} finish+enrich {:?} json {:?} ({} bytes json, {} errors, {} notes)", t1-t0, t2-t1, t3-t2, t4-t3, t5-t4, j.len(), inv.errors.len(), inv.notes.len());
    for (n, d) in times {
        println!("  {n}: {d:?}");
    }
}
#[allow(dead_code)]
fn ac_only(doc: &gpucompat::ingest::Doc) {
    use aho_corasick::{AhoCorasick, AhoCorasickKind};
    for kind in [
        AhoCorasickKind::DFA,
        AhoCorasickKind::ContiguousNFA,
        AhoCorasickKind::NoncontiguousNFA,
    ] {
        let s = std::time::Instant::now();
        let ac = AhoCorasick::builder()
            .kind(Some(kind))
            .ascii_case_insensitive(true)
            .build(gpucompat::ingest::errors::CATALOG.iter().map(|e| e.needle))
            .unwrap();
        let b = s.elapsed();
        let s = std::time::Instant::now();
        let mut n = 0;
        for l in &doc.lines {
            n += ac.find_overlapping_iter(l.text.trim()).count();
        }
        let s2 = std::time::Instant::now();
        let mut m = 0;
        for l in &doc.lines {
            if ac.is_match(l.text.trim()) {
                m += 1;
            }
        }
        println!(
            "{kind:?}: build {b:?} overlapping {:?} ({n}) is_match {:?} ({m})",
            s2 - s,
            s2.elapsed()
        );
    }
}
