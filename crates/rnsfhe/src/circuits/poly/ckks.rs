//! Polynomial evaluation on CKKS ciphertexts with real coefficients (Cheon, Han, Kim, Kim, Song,
//! "A Full RNS Variant of Approximate Homomorphic Encryption", SAC 2018, section 5): thin
//! wrappers over the scheme-neutral [`super`] (baby-step giant-step with the target scale
//! propagated backwards), landing on the chain's scale of level `x.level() - ceil(log2(d + 1))`,
//! where the automatic forms (`add_auto`, `mul_auto`, Python's operators) keep ciphertexts.

use super::{self as poly, depth, Polynomial, PowerBasis, Target};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::RelinKey;
use crate::{Error, Result};

pub use super::MAX_POLYNOMIAL_DEGREE;

/// Refuses a degree `d` of 0 or above [`MAX_POLYNOMIAL_DEGREE`], or one whose `need` levels exceed
/// the `level` left, before any work (`what` names the operation).
pub(crate) fn check_degree(d: usize, need: usize, level: usize, what: &str) -> Result<()> {
    if d == 0 || d > MAX_POLYNOMIAL_DEGREE {
        return Err(Error::OutOfRange(format!(
            "{what}: degree {d} is not in 1..={MAX_POLYNOMIAL_DEGREE}"
        )));
    }
    if need > level {
        return Err(Error::InvalidParameters(format!(
            "{what}: degree {d} needs {need} levels, the ciphertext has {level} left"
        )));
    }
    Ok(())
}

/// The powers x^1..x^d, each relinearised and rescaled (x^i at depth ceil(log2 i); the basis of
/// [`poly::PowerBasis`], scales tracked from x's).
pub fn powers(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    d: usize,
    rlk: &RelinKey,
) -> Result<Vec<CkksCiphertext>> {
    check_degree(d, depth(d.saturating_sub(1)), x.level(), "powers")?;
    collect_basis(ctx, x, d, false, rlk)
}

/// B_1..B_d of x (powers, or Chebyshev polynomials).
pub(crate) fn collect_basis(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    d: usize,
    chebyshev: bool,
    rlk: &RelinKey,
) -> Result<Vec<CkksCiphertext>> {
    let mut basis = PowerBasis::new(ctx, x, d, chebyshev, rlk);
    (1..=d).map(|i| basis.get(i).cloned()).collect()
}

/// p(x) = sum_i coeffs\[i] x^i (real coefficients, degree >= 1) in ceil(log2(d + 1)) levels, on the
/// chain's scale of the level reached ([`poly::evaluate`]).
pub fn evaluate_polynomial(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    coeffs: &[f64],
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    evaluate_real(
        ctx,
        x,
        Polynomial::monomial_real(coeffs),
        "evaluate_polynomial",
        rlk,
    )
}

/// `p` at `x`, landing on the chain's scale of the level it reaches (`what` names the caller in
/// errors).
pub(crate) fn evaluate_real(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    p: Polynomial<crate::ckks::Complex>,
    what: &str,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    let named = |e: Error| match e {
        Error::OutOfRange(m) => Error::OutOfRange(format!("{what}: {m}")),
        Error::InvalidParameters(m) => Error::InvalidParameters(format!("{what}: {m}")),
        other => other,
    };
    let target = Target::after(ctx, x, &p).map_err(named)?;
    poly::evaluate(ctx, x, &p, target, rlk).map_err(named)
}

/// The same evaluation under the name OpenFHE and Lattigo users look for: every polynomial is
/// evaluated by baby-step giant-step (Paterson–Stockmeyer), about 2 sqrt(d) + log2 d products.
/// p(x) = sum_i coeffs\[i] x^i (degree >= 1), in ceil(log2(d + 1)) levels.
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
