//! The worst-error helper refuses what `fold(0.0, f64::max)` let through (run once, in the crate's
//! unit tests).

use super::worst::{worst_error, worst_slot_error};
use crate::ckks::Complex;

fn refused(errors: Vec<f64>) -> bool {
    std::panic::catch_unwind(|| worst_error(errors)).is_err()
}

#[test]
fn worst_error_takes_the_largest() {
    assert_eq!(worst_error([0.5, 2.0, 1e-9]), 2.0);
    assert_eq!(worst_error([0.0]), 0.0);
}

#[test]
fn worst_error_refuses_nan_infinity_and_nothing() {
    let nan_everywhere = vec![f64::NAN; 8];
    // What the old fold made of it: a perfect result.
    assert_eq!(nan_everywhere.iter().copied().fold(0.0, f64::max), 0.0);
    assert!(refused(nan_everywhere));
    assert!(refused(vec![1e-9, f64::NAN, 1e-9]));
    assert!(refused(vec![1e-9, f64::INFINITY]));
    assert!(refused(vec![f64::NEG_INFINITY]));
    assert!(refused(vec![]));
}

#[test]
fn worst_slot_error_refuses_a_nan_slot_and_a_short_result() {
    let want = vec![Complex::new(1.0, -1.0); 4];
    let mut got = want.clone();
    assert_eq!(worst_slot_error(&got, &want), 0.0);
    got[2] = Complex::new(f64::NAN, 0.0);
    assert!(std::panic::catch_unwind(|| worst_slot_error(&got, &want)).is_err());
    assert!(std::panic::catch_unwind(|| worst_slot_error(&want[..3], &want)).is_err());
}
