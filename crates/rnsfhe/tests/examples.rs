//! Runs every program of the top-level `examples/` folder: each example's `run()` computes, checks its
//! own results against plain arithmetic and returns an error when they are wrong.

#[allow(dead_code)] // each example's main is for `cargo run --example`
#[path = "../../../examples/bfv_quickstart.rs"]
mod bfv_quickstart;
#[allow(dead_code)]
#[path = "../../../examples/ckks_functions.rs"]
mod ckks_functions;
#[allow(dead_code)]
#[path = "../../../examples/ckks_quickstart.rs"]
mod ckks_quickstart;
#[allow(dead_code)]
#[path = "../../../examples/serialization.rs"]
mod serialization;

type Res = Result<(), Box<dyn std::error::Error>>;

#[test]
fn bfv_quickstart() -> Res {
    bfv_quickstart::run()
}

#[test]
fn ckks_quickstart() -> Res {
    ckks_quickstart::run()
}

#[test]
fn ckks_functions() -> Res {
    ckks_functions::run()
}

#[test]
fn serialization() -> Res {
    serialization::run()
}
