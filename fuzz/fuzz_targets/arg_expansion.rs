//! Dockerfile ARG/ENV expansion: bounded output whatever the input, and the
//! whole lint on the same text.
#![no_main]
use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut vars = BTreeMap::new();
    for (i, line) in text.lines().take(64).enumerate() {
        let v = gpucompat::plan::lint::substitute(line, &vars);
        assert!(v.len() <= line.len() + gpucompat::plan::lint::MAX_EXPANSION);
        vars.insert(format!("V{i}"), v);
    }
    let _ = gpucompat::plan::lint::lint(text, gpucompat::kb::Kb::embedded(), &[]);
});
