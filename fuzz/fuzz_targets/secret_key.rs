//! Fuzzes KeyBytes::secret_key_from_bytes (BFV and CKKS contexts) and
//! HprContext::secret_key_from_bytes: accepted keys round-trip exactly and
//! decrypt (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::serialize::KeyBytes;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("secret_key"), |data: &[u8]| {
    let f = fixtures();
    for b in &f.bfv {
        let load = |d: &[u8]| b.ctx.secret_key_from_bytes(d);
        let save = |k: &_| Ok(b.ctx.secret_key_to_bytes(k)?.to_vec());
        if let Some(sk) = round_trip(data, true, load, save) {
            let _ = b.ctx.decrypt(&b.ct, &sk);
        }
    }
    for c in &f.ckks {
        let load = |d: &[u8]| c.ctx.secret_key_from_bytes(d);
        let save = |k: &_| Ok(c.ctx.secret_key_to_bytes(k)?.to_vec());
        if let Some(sk) = round_trip(data, true, load, save) {
            let _ = c.ctx.decrypt_values(&c.ct, &sk);
        }
    }
    for h in &f.hpr {
        let load = |d: &[u8]| h.ctx.secret_key_from_bytes(d);
        let save = |k: &_| Ok(h.ctx.secret_key_to_bytes(k).to_vec());
        if let Some(sk) = round_trip(data, true, load, save) {
            let _ = h.ctx.decrypt_checked(&sk, &h.ct);
        }
    }
});
