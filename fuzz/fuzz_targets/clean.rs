#![no_main]
//! Cleaning pasted text never panics and keeps one line per input line.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let doc = gpucompat::ingest::clean("fuzz", &text);
    assert!(doc.lines.len() <= text.split('\n').count());
    for l in &doc.lines {
        assert!(l.text.len() <= gpucompat::ingest::clean::MAX_LINE);
    }
});
