//! Fuzzes CkksContext::ciphertext_from_bytes: accepted ciphertexts round-trip and decrypt or evaluate without panicking (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("ckks_ciphertext"), |data: &[u8]| {
    for c in &fixtures().ckks {
        let load = |d: &[u8]| c.ctx.ciphertext_from_bytes(d);
        if let Some(ct) = round_trip(data, false, load, |x| c.ctx.ciphertext_to_bytes(x)) {
            let _ = c.ctx.decrypt_values(&ct, &c.sk);
            let _ = c.ctx.multiply_rescale(&ct, &c.ct, &c.rlk);
            let _ = c.ctx.add(&ct, &c.ct);
        }
    }
});
