//! The strict card reader: any bytes give a card or an error naming a field, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = gpucompat::card::parse(text, "fuzz.json");
    }
});
