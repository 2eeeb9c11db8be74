//! Baby-step giant-step polynomial evaluation (the Paterson–Stockmeyer idea, as OpenFHE and Lattigo
//! evaluate polynomials): about 2 sqrt(d) + log2 d ciphertext products instead of d. Since the
//! scheme-neutral [`super::poly`] evaluates every polynomial this way, this is the same function as
//! [`super::evaluate_polynomial`], kept under its name.

use super::poly::Polynomial;
use super::polynomial::evaluate_real;
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
use crate::Result;

/// p(x) = sum_i coeffs\[i] x^i by baby-step giant-step (degree >= 1), in ceil(log2(d + 1)) levels.
pub fn evaluate_polynomial_bsgs(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    coeffs: &[f64],
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    evaluate_real(
        ctx,
        x,
        Polynomial::monomial_real(coeffs),
        "evaluate_polynomial_bsgs",
        rlk,
    )
}
