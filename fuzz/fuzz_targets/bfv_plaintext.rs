//! Fuzzes BfvContext::plaintext_from_bytes: accepted plaintexts round-trip exactly and decode (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe_fuzz::{fixtures, round_trip, write_seeds};

fuzz_target!(init: write_seeds("bfv_plaintext"), |data: &[u8]| {
    for b in &fixtures().bfv {
        let load = |d: &[u8]| b.ctx.plaintext_from_bytes(d);
        if let Some(pt) = round_trip(data, true, load, |p| b.ctx.plaintext_to_bytes(p)) {
            let _ = b.ctx.decode(&pt);
        }
    }
});
