//! Fuzzes KeyBytes::galois_keys_from_bytes (BFV and CKKS contexts): accepted keys round-trip (sorted by element) and rotate (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::serialize::KeyBytes;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("galois_keys"), |data: &[u8]| {
    let f = fixtures();
    for b in &f.bfv {
        let load = |d: &[u8]| b.ctx.galois_keys_from_bytes(d);
        if let Some(gk) = round_trip(data, false, load, |k| Ok(b.ctx.galois_keys_to_bytes(k))) {
            let _ = b.ctx.rotate_rows(&b.ct, 1, &gk);
            let _ = b.ctx.rotate_columns(&b.ct, &gk);
        }
    }
    for c in &f.ckks {
        let load = |d: &[u8]| c.ctx.galois_keys_from_bytes(d);
        if let Some(gk) = round_trip(data, false, load, |k| Ok(c.ctx.galois_keys_to_bytes(k))) {
            let _ = c.ctx.rotate(&c.ct, 1, &gk);
            let _ = c.ctx.conjugate(&c.ct, &gk);
        }
    }
});
