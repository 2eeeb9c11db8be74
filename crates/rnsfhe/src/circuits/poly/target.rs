//! Landing on a requested level and scale: the entry point [`evaluate`] checks the polynomial and
//! the levels, applies the basis's change of variable and runs the backward-propagated baby-step
//! giant-step evaluation ([`super::bsgs`]) onto exactly (`level`, `scale`) (CKKS: the scale to
//! within the chain's tolerance, 2^-48 relative).

use super::basis::{degree, depth, Basis, Polynomial, MAX_POLYNOMIAL_DEGREE};
use super::bsgs::{Bsgs, Piece};
use super::powers::PowerBasis;
use crate::eval::{same_scale, Evaluator};
use crate::{Error, Result};

/// Where an evaluation lands: a level and a scale (1 for the integer schemes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The output level.
    pub level: usize,
    /// The output scale.
    pub scale: f64,
}

impl Target {
    /// (`level`, `scale`).
    pub fn new(level: usize, scale: f64) -> Self {
        Target { level, scale }
    }

    /// The deepest level `p` reaches from `x` ([`levels_needed`] below it) at the scheme's scale
    /// of that level (CKKS: the chain's Delta_level, where the automatic forms keep ciphertexts).
    pub fn after<E: Evaluator>(
        e: &E,
        x: &E::Ciphertext,
        p: &Polynomial<E::Scalar>,
    ) -> Result<Self> {
        let need = levels_needed(e, p)?;
        let have = e.level(x);
        let level = have
            .checked_sub(need)
            .ok_or_else(|| too_few(p.degree(), need, have))?;
        Ok(Target::new(level, e.default_scale(level)?))
    }
}

fn too_few(d: usize, need: usize, have: usize) -> Error {
    Error::InvalidParameters(format!(
        "a polynomial of degree {d} needs {need} levels, the ciphertext has {have} left"
    ))
}

/// Whether the change of variable y = alpha x + beta needs a product that spends a level: only a
/// non-integer alpha does (an integer alpha is an integer product, beta an added constant).
fn affine_spends_level(alpha: f64) -> bool {
    alpha.fract() != 0.0
}

/// The levels evaluating `p` spends: `rescale_levels` (ceil(log2(d + 1)), plus one when the
/// Chebyshev interval's change of variable multiplies by a non-integer 2 / (b - a)).
pub fn levels_needed<E: Evaluator>(e: &E, p: &Polynomial<E::Scalar>) -> Result<usize> {
    let d = check_coefficients(e, p)?.len() - 1;
    let extra = usize::from(affine_spends_level(p.basis().affine().0));
    Ok(e.rescale_levels() * (depth(d) + extra))
}

/// The coefficients reduced by the scheme, up to the degree; errors for a degree of 0 or above
/// [`MAX_POLYNOMIAL_DEGREE`] and for a coefficient the scheme refuses (CKKS: non-finite).
fn check_coefficients<E: Evaluator>(e: &E, p: &Polynomial<E::Scalar>) -> Result<Vec<E::Scalar>> {
    let c = p.coeffs();
    if c.len() > MAX_POLYNOMIAL_DEGREE + 1 {
        return Err(Error::OutOfRange(format!(
            "{} coefficients, at most {} (degree {MAX_POLYNOMIAL_DEGREE})",
            c.len(),
            MAX_POLYNOMIAL_DEGREE + 1
        )));
    }
    let c = c
        .iter()
        .map(|&x| e.reduce_scalar(x))
        .collect::<Result<Vec<_>>>()
        .map_err(|err| Error::OutOfRange(format!("polynomial coefficients: {err}")))?;
    match degree(&c) {
        Some(d) if d >= 1 => Ok(c[..=d].to_vec()),
        _ => Err(Error::InvalidParameters(
            "polynomial evaluation needs degree >= 1; add a constant with add_const".into(),
        )),
    }
}

/// p(x) landing exactly on `target` (level, and scale within 2^-48 relative), by baby-step
/// giant-step in the polynomial's basis. Spends [`levels_needed`]: ceil(log2(d + 1)) levels for
/// degree d (CKKS, BGV; none for BFV and HPR), one more for a Chebyshev interval whose 2 / (b - a)
/// is not an integer ([-1, 1] and [-1/2, 1/2] are free; otherwise scale x beforehand, as
/// bootstrapping does, to save it). Any level below that is a valid target.
///
/// Errors: `OutOfRange` for more than [`MAX_POLYNOMIAL_DEGREE`] + 1 coefficients or a coefficient
/// the scheme refuses; `InvalidParameters` for degree 0, a target above what x reaches (naming the
/// levels needed and left) or a target scale that is not finite and > 0.
pub fn evaluate<E: Evaluator>(
    e: &E,
    x: &E::Ciphertext,
    p: &Polynomial<E::Scalar>,
    target: Target,
    rlk: &E::RelinKey,
) -> Result<E::Ciphertext> {
    let c = check_coefficients(e, p)?;
    let d = c.len() - 1;
    if !(target.scale.is_finite() && target.scale > 0.0) {
        return Err(Error::InvalidParameters(format!(
            "the target scale must be finite and > 0, got {}",
            target.scale
        )));
    }
    let need = levels_needed(e, p)?;
    let have = e.level(x);
    if have < target.level + need {
        return Err(Error::InvalidParameters(format!(
            "a polynomial of degree {d} needs {need} levels to land on level {}, the ciphertext is \
             at level {have}",
            target.level
        )));
    }
    let chebyshev = matches!(p.basis(), Basis::Chebyshev { .. });
    let y = change_of_variable(e, x, p.basis())?;
    let bits = depth(d);
    let mut run = Bsgs {
        e,
        basis: PowerBasis::new(e, &y, d, chebyshev, rlk),
        rlk,
        chebyshev,
        k: 1 << bits.div_ceil(2),
    };
    let out = match run.eval(&c, target.level, target.scale)? {
        Some(Piece::Pending(p)) => run.finish(p)?,
        _ => {
            return Err(Error::Internal(
                "a polynomial of degree >= 1 gave a constant".into(),
            ))
        }
    };
    if e.level(&out) != target.level || !same_scale(e.scale(&out), target.scale) {
        return Err(Error::Internal(format!(
            "polynomial evaluation landed on level {} scale {:e}, not on level {} scale {:e}",
            e.level(&out),
            e.scale(&out),
            target.level,
            target.scale
        )));
    }
    Ok(out)
}

/// y = alpha x + beta for the basis (x itself for the monomial basis and [-1, 1]): an integer alpha
/// as an integer product (no level), any other through one rescaled product onto the scheme's
/// scale of the level below.
fn change_of_variable<E: Evaluator>(
    e: &E,
    x: &E::Ciphertext,
    basis: Basis,
) -> Result<E::Ciphertext> {
    let (alpha, beta) = basis.affine();
    let mut y = if alpha == 1.0 {
        x.clone()
    } else if !affine_spends_level(alpha) {
        e.mul_const_to_scale(x, e.scalar_from_real(alpha)?, e.scale(x))?
    } else {
        let level = e.level(x) - e.rescale_levels();
        e.mul_const_rescale_to(x, e.scalar_from_real(alpha)?, e.default_scale(level)?)?
    };
    if beta != 0.0 {
        y = e.add_const(&y, e.scalar_from_real(beta)?)?;
    }
    Ok(y)
}
