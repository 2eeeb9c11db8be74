//! Fuzzes BgvContext::ciphertext_from_bytes: accepted ciphertexts round-trip stably and decrypt or
//! multiply without panicking (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("bgv_ciphertext"), |data: &[u8]| {
    for b in &fixtures().bgv {
        let load = |d: &[u8]| b.ctx.ciphertext_from_bytes(d);
        if let Some(ct) = round_trip(data, false, load, |c| b.ctx.ciphertext_to_bytes(c)) {
            let _ = b.ctx.decrypt(&ct, &b.sk);
            let _ = b.ctx.multiply(&ct, &b.ct, &b.rlk);
        }
    }
});
