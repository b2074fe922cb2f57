#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fila_fuzz::engines(data));
