#![no_main]
//! The whole pipeline (every parser, enrichment, follow-up commands) never panics.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut inv = gpucompat::ingest::ingest(&[("fuzz".to_string(), text)]);
    gpucompat::ingest::enrich(&mut inv, gpucompat::kb::Kb::embedded());
    let _ = gpucompat::ingest::missing_facts(&inv);
    let _ = serde_json::to_string(&inv);
});
