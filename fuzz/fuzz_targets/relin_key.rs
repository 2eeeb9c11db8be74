//! Fuzzes KeyBytes::relin_key_from_bytes (BFV and CKKS contexts): accepted keys round-trip exactly and relinearise (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::serialize::KeyBytes;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("relin_key"), |data: &[u8]| {
    let f = fixtures();
    for b in &f.bfv {
        let load = |d: &[u8]| b.ctx.relin_key_from_bytes(d);
        if let Some(rlk) = round_trip(data, true, load, |k| Ok(b.ctx.relin_key_to_bytes(k))) {
            let _ = b.ctx.multiply(&b.ct, &b.ct, &rlk);
        }
    }
    for c in &f.ckks {
        let load = |d: &[u8]| c.ctx.relin_key_from_bytes(d);
        if let Some(rlk) = round_trip(data, true, load, |k| Ok(c.ctx.relin_key_to_bytes(k))) {
            let _ = c.ctx.multiply_rescale(&c.ct, &c.ct, &rlk);
        }
    }
});
