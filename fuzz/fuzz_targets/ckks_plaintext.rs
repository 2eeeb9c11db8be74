//! Fuzzes CkksContext::plaintext_from_bytes: accepted plaintexts round-trip, decode and multiply without panicking (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("ckks_plaintext"), |data: &[u8]| {
    for c in &fixtures().ckks {
        let load = |d: &[u8]| c.ctx.plaintext_from_bytes(d);
        if let Some(pt) = round_trip(data, false, load, |p| c.ctx.plaintext_to_bytes(p)) {
            let _ = c.ctx.decode(&pt);
            let _ = c.ctx.mul_plain(&c.ct, &pt);
        }
    }
});
