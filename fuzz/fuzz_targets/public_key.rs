//! Fuzzes KeyBytes::public_key_from_bytes (BFV and CKKS contexts): accepted keys round-trip exactly and encrypt (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::serialize::KeyBytes;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};
use rnsfhe_math::sample::Csprng;

fuzz_target!(init: write_seeds("public_key"), |data: &[u8]| {
    let mut rng = Csprng::from_seed([1; 32]);
    let f = fixtures();
    for b in &f.bfv {
        let load = |d: &[u8]| b.ctx.public_key_from_bytes(d);
        if let Some(pk) = round_trip(data, true, load, |k| Ok(b.ctx.public_key_to_bytes(k))) {
            let _ = b.ctx.encode(&[1]).and_then(|pt| b.ctx.encrypt(&pt, &pk, &mut rng));
        }
    }
    for c in &f.ckks {
        let load = |d: &[u8]| c.ctx.public_key_from_bytes(d);
        if let Some(pk) = round_trip(data, true, load, |k| Ok(c.ctx.public_key_to_bytes(k))) {
            let _ = c.ctx.encode_real(&[1.0]).and_then(|pt| c.ctx.encrypt(&pt, &pk, &mut rng));
        }
    }
});
