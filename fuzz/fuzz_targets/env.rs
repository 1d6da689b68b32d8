#![no_main]
//! The env parser never panics on any input.

use gpucompat::ingest::{clean, env, Builder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let doc = clean("fuzz", &text);
    let mut b = Builder::new("fuzz");
    env::parse(&doc, &mut b);
    let inv = b.finish();
    let _ = gpucompat::ingest::missing_facts(&inv);
});
