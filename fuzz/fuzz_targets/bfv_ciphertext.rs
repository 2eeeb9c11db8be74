//! Fuzzes BfvContext::ciphertext_from_bytes: accepted ciphertexts round-trip and decrypt or evaluate without panicking (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("bfv_ciphertext"), |data: &[u8]| {
    for b in &fixtures().bfv {
        let load = |d: &[u8]| b.ctx.ciphertext_from_bytes(d);
        if let Some(ct) = round_trip(data, false, load, |c| b.ctx.ciphertext_to_bytes(c)) {
            let _ = b.ctx.decrypt(&ct, &b.sk).and_then(|pt| b.ctx.decode(&pt));
            let _ = b.ctx.multiply(&ct, &b.ct, &b.rlk);
        }
    }
});
