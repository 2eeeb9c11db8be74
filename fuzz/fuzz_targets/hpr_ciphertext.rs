//! Fuzzes HprContext::ciphertext_from_bytes: accepted ciphertexts round-trip stably and decrypt or
//! add without panicking (see fuzz/src/lib.rs for the context and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("hpr_ciphertext"), |data: &[u8]| {
    for h in &fixtures().hpr {
        let load = |d: &[u8]| h.ctx.ciphertext_from_bytes(d);
        if let Some(ct) = round_trip(data, false, load, |c| h.ctx.ciphertext_to_bytes(c)) {
            let _ = h.ctx.decrypt(&h.sk, &ct);
            let _ = h.ctx.add(&ct, &h.ct);
        }
    }
});
