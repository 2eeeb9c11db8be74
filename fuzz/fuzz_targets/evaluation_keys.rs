//! Fuzzes KeyBytes::evaluation_keys_from_bytes (BFV and CKKS contexts): accepted key sets
//! round-trip exactly, and their keys relinearise and rotate (see fuzz/src/lib.rs for the contexts
//! and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::serialize::KeyBytes;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("evaluation_keys"), |data: &[u8]| {
    let f = fixtures();
    for b in &f.bfv {
        let load = |d: &[u8]| b.ctx.evaluation_keys_from_bytes(d);
        let save = |k: &_| Ok(b.ctx.evaluation_keys_to_bytes(k));
        if let Some(set) = round_trip(data, true, load, save) {
            if let Ok(rlk) = set.relin_key() {
                let _ = b.ctx.multiply(&b.ct, &b.ct, rlk);
            }
            if let Ok(gk) = set.galois_keys() {
                let _ = b.ctx.rotate_rows(&b.ct, 1, gk);
            }
        }
    }
    for c in &f.ckks {
        let load = |d: &[u8]| c.ctx.evaluation_keys_from_bytes(d);
        let save = |k: &_| Ok(c.ctx.evaluation_keys_to_bytes(k));
        if let Some(set) = round_trip(data, true, load, save) {
            if let Ok(gk) = set.galois_keys() {
                let _ = c.ctx.rotate(&c.ct, 1, gk);
            }
        }
    }
});
