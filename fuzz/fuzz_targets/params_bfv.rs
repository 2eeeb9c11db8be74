//! Fuzzes BfvParameters::from_bytes_allowing_insecure (the parser of every security level): accepted parameters round-trip exactly and build a context without panicking (see fuzz/src/lib.rs for the contexts and the property).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe_fuzz::{round_trip, write_seeds};

fuzz_target!(init: write_seeds("params_bfv"), |data: &[u8]| {
    let load = BfvParameters::from_bytes_allowing_insecure;
    if let Some(p) = round_trip(data, true, load, |p| Ok(p.to_bytes())) {
        assert_eq!(load(&p.to_bytes()).ok(), Some(p.clone()), "equal parameters");
        // Small accepted sets must also give a context or an error, never a panic.
        if p.degree() <= 256 && p.moduli().len() + p.special_moduli().len() <= 8 {
            let _ = BfvContext::new(p);
        }
    }
});
