//! Fuzzes BgvParameters::from_bytes_allowing_insecure (the parser of every security level): loading never panics, and what loads round-trips stably.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::bgv::BgvParameters;
use rnsfhe_fuzz::{round_trip, write_seeds};

fuzz_target!(init: write_seeds("params_bgv"), |data: &[u8]| {
    let _ = round_trip(data, false, BgvParameters::from_bytes_allowing_insecure, |p: &BgvParameters| {
        Ok(p.to_bytes())
    });
});
