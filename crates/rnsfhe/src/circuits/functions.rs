//! Analytic functions of encrypted vectors (Cheon et al. (SAC 2018) section 5): exp and sigmoid by Taylor expansions
//! of degree 7, and the multiplicative inverse (Cheon et al. (SAC 2018) via \[12] Alg. 2).

use super::poly::ckks::evaluate_polynomial;
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

/// The Taylor coefficients of the sigmoid 1 / (1 + e^-x) around 0 up to degree 7 (Cheon et al. (SAC 2018) Table 2).
pub const SIGMOID_TAYLOR_7: [f64; 8] = [
    0.5,
    0.25,
    0.0,
    -1.0 / 48.0,
    0.0,
    1.0 / 480.0,
    0.0,
    -17.0 / 80640.0,
];

/// exp(x) by its Taylor expansion of degree 7 (Cheon et al. (SAC 2018) Table 2; accurate for |x| <= 1).
pub fn exp(ctx: &CkksContext, x: &CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
    let mut c = [1.0f64; 8];
    for i in 1..8 {
        c[i] = c[i - 1] / i as f64;
    }
    evaluate_polynomial(ctx, x, &c, rlk)
}

/// The sigmoid 1 / (1 + e^-x) by its Taylor expansion of degree 7 around 0 (Cheon et al. (SAC 2018) Table 2;
/// accurate for |x| <= 1): 1/2 + x/4 - x^3/48 + x^5/480 - 17 x^7/80640.
pub fn sigmoid(ctx: &CkksContext, x: &CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
    evaluate_polynomial(ctx, x, &SIGMOID_TAYLOR_7, rlk)
}

/// 1/x for slots in (0, 2) by \[12] Alg. 2 (Goldschmidt): with y = 1 - x,
/// 1/x = (1 + y)(1 + y^2)(1 + y^4)...(1 + y^(2^(r-1))) up to y^(2^r); `r` iterations, depth r + 1.
pub fn inverse(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    r: usize,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    if r == 0 || r.saturating_add(1) > x.level() {
        return Err(Error::InvalidParameters(format!(
            "inverse with {r} iterations needs {} levels, the ciphertext has {}",
            r + 1,
            x.level()
        )));
    }
    // y = 1 - x; product a = 2 - x = 1 + y.
    let y = ctx.add_const(&negate_copy(ctx, x)?, 1.0)?;
    let mut a = ctx.add_const(&negate_copy(ctx, x)?, 2.0)?;
    let mut yp = y;
    for _ in 1..r {
        yp = ctx.multiply_rescale(&yp, &yp, rlk)?;
        let factor = ctx.add_const(&yp, 1.0)?;
        let a_low = ctx.drop_to_level(&a, factor.level())?;
        a = ctx.multiply_rescale(&a_low, &factor, rlk)?;
    }
    Ok(a)
}

fn negate_copy(ctx: &CkksContext, x: &CkksCiphertext) -> Result<CkksCiphertext> {
    let mut r = x.clone();
    ctx.negate_assign(&mut r)?;
    Ok(r)
}
