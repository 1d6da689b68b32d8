//! A `--kb` table: the first byte picks the table, the rest is its TOML text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let tables = gpucompat::kb::EMBEDDED;
    let (name, _) = tables[pick as usize % tables.len()];
    if let Ok(text) = std::str::from_utf8(rest) {
        let _ = gpucompat::kb::Kb::with_table_text(name, text);
    }
});
