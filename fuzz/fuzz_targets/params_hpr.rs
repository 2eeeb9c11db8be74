//! Fuzzes HprParameters::from_bytes_allowing_insecure (the parser of every security level): loading never panics, and what loads round-trips stably.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::hpr::HprParameters;
use rnsfhe_fuzz::{round_trip, write_seeds};

fuzz_target!(init: write_seeds("params_hpr"), |data: &[u8]| {
    let _ = round_trip(data, false, HprParameters::from_bytes_allowing_insecure, |p: &HprParameters| {
        Ok(p.to_bytes())
    });
});
