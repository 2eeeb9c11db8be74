//! The worst error of a check, refusing what `fold(0.0, f64::max)` lets through: `f64::max` drops
//! NaN, so a result made of NaN would have worst error 0, and an empty result (a truncating `zip`)
//! would too. Shared by the integration tests (`#[path = "support/worst.rs"] mod worst;`) and the
//! crate's unit tests (`crate::worst`).
#![allow(dead_code, clippy::panic)] // each test file uses what it needs; a test fails by panicking

use rnsfhe::ckks::Complex;

/// The largest of `errors`; panics when one is NaN or infinite (naming its index) or when there
/// are none.
pub fn worst_error(errors: impl IntoIterator<Item = f64>) -> f64 {
    let mut worst = None;
    for (i, e) in errors.into_iter().enumerate() {
        if !e.is_finite() {
            panic!("error {i} is {e}: the result is not a number");
        }
        worst = Some(worst.map_or(e, |w: f64| w.max(e)));
    }
    worst.unwrap_or_else(|| panic!("no errors to take the worst of: the result is empty"))
}

/// The worst |got_i - want_i| of two slot vectors of the same length (panics on another length).
pub fn worst_slot_error(got: &[Complex], want: &[Complex]) -> f64 {
    assert_eq!(got.len(), want.len(), "slot counts differ");
    worst_error(got.iter().zip(want).map(|(g, w)| (*g - *w).abs()))
}
