//! Constants of the integer schemes (BGV, BFV, HPR): integers taken modulo t, held centred in
//! (-t/2, t/2].

use crate::{Error, Result};

/// v mod t, centred in (-t/2, t/2].
pub(super) fn reduce(t: u64, v: i128) -> i64 {
    let t = i128::from(t);
    let r = v.rem_euclid(t);
    (if r > t / 2 { r - t } else { r }) as i64
}

/// The integer v mod t, centred; `InvalidParameters` for a v that is not an integer below 2^63.
pub(super) fn from_real(t: u64, v: f64) -> Result<i64> {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.2e18 {
        Ok(reduce(t, v as i128))
    } else {
        Err(Error::InvalidParameters(format!(
            "the integer schemes take integer constants (mod t), got {v}"
        )))
    }
}

/// a + k b mod t, centred.
pub(super) fn mul_add(t: u64, a: i64, k: i64, b: i64) -> i64 {
    reduce(t, i128::from(a) + i128::from(k) * i128::from(b))
}

/// Every value reduced and centred.
pub(super) fn reduce_all(t: u64, values: &[i64]) -> Vec<i64> {
    values.iter().map(|&v| reduce(t, i128::from(v))).collect()
}

/// The coefficients (in [0, t)) of the constant polynomial c, of length n: the constant c in every
/// slot of the batch layout.
pub(super) fn constant(t: u64, n: usize, c: i64) -> Vec<u64> {
    let mut coeffs = vec![0u64; n];
    if let Some(x) = coeffs.first_mut() {
        *x = i128::from(c).rem_euclid(i128::from(t)) as u64;
    }
    coeffs
}

/// Refuses a scale other than 1 (the integer schemes have no scale to land on).
pub(super) fn unit_scale(scale: f64, op: &str) -> Result<()> {
    if scale == 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "{op}: the integer schemes hold every ciphertext at scale 1, got {scale}"
        )))
    }
}

/// Refuses a level other than 0 (BFV and HPR have one level).
pub(super) fn level_zero(level: usize, op: &str) -> Result<()> {
    if level == 0 {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "{op}: level {level}; this scheme has level 0 only"
        )))
    }
}
