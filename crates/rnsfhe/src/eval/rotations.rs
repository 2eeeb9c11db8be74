//! The unhoisted forms of [`Evaluator::rotate_many`] and [`Evaluator::sum_rotations`]: one
//! [`Evaluator::rotate`] (one decomposition and one ModDown) per step, then products by constants and
//! sums. They are the trait's provided methods (HPR uses them) and the reference the hoisted
//! overrides of CKKS, BGV and BFV are tested against (Halevi and Shoup, CRYPTO 2018, section 5, and
//! Bossuat et al., Eurocrypt 2021, section 3.2, for what the overrides save).

use super::Evaluator;
use crate::{Error, Result};

/// The rotations of `a` left by every step, one [`Evaluator::rotate`] each (step 0: a copy of `a`).
pub fn rotate_many_separately<E: Evaluator + ?Sized>(
    e: &E,
    a: &E::Ciphertext,
    steps: &[i64],
    keys: &E::GaloisKeys,
) -> Result<Vec<E::Ciphertext>> {
    steps
        .iter()
        .map(|&s| {
            if s == 0 {
                Ok(a.clone())
            } else {
                e.rotate(a, s, keys)
            }
        })
        .collect()
}

/// `sum_i w_i rot_{steps[i]}(a)` from [`rotate_many_separately`], the products by
/// [`Evaluator::mul_const_to_scale`] and [`Evaluator::add_assign`], with the levels and scales of
/// [`Evaluator::sum_rotations`]: without weights `a`'s level and scale; with weights, on a scheme
/// whose rescale divides the scale (CKKS) every product is encoded at Delta_{l-1} q_l / scale(a) and
/// the sum is rescaled once onto Delta_{l-1} = [`Evaluator::default_scale`](l - 1); on the integer
/// schemes (rescale factor 1) the weights are integers mod t and the level and scale are kept.
///
/// Errors: `InvalidParameters` for no steps, or for weights on a CKKS ciphertext at level 0;
/// `LengthMismatch` for a weight count other than the step count; those of the operations.
pub fn sum_rotations_separately<E: Evaluator + ?Sized>(
    e: &E,
    a: &E::Ciphertext,
    steps: &[i64],
    weights: Option<&[E::Scalar]>,
    keys: &E::GaloisKeys,
) -> Result<E::Ciphertext> {
    check_sum_arguments(steps, weights)?;
    let rotations = rotate_many_separately(e, a, steps, keys)?;
    let Some(weights) = weights else {
        return sum(e, rotations);
    };
    let level = e.level(a);
    let factor = e.rescale_factor(level)?;
    if factor == 1.0 {
        // The integer schemes: exact products mod t, nothing to rescale.
        let scale = e.scale(a);
        let terms = rotations
            .iter()
            .zip(weights)
            .map(|(r, &w)| e.mul_const_to_scale(r, w, scale))
            .collect::<Result<Vec<_>>>()?;
        return sum(e, terms);
    }
    let below = level.checked_sub(e.rescale_levels()).ok_or_else(|| {
        Error::InvalidParameters(
            "sum_rotations with weights rescales once: the ciphertext is at level 0".into(),
        )
    })?;
    let target = e.default_scale(below)?;
    let terms = rotations
        .iter()
        .zip(weights)
        .map(|(r, &w)| e.mul_const_to_scale(r, w, target * factor))
        .collect::<Result<Vec<_>>>()?;
    let r = e.rescale(&sum(e, terms)?)?;
    e.check_landed(&r, target, "sum_rotations")?;
    Ok(r)
}

/// Refuses an empty step list and a weight count other than the step count (the checks every
/// `sum_rotations` makes first).
fn check_sum_arguments<S>(steps: &[i64], weights: Option<&[S]>) -> Result<()> {
    if steps.is_empty() {
        return Err(Error::InvalidParameters(
            "sum_rotations needs at least one step".into(),
        ));
    }
    match weights {
        Some(w) if w.len() != steps.len() => Err(Error::LengthMismatch {
            what: "sum_rotations weights (one per step)",
            expected: steps.len(),
            got: w.len(),
        }),
        _ => Ok(()),
    }
}

/// The sum of the terms (at least one).
fn sum<E: Evaluator + ?Sized>(e: &E, terms: Vec<E::Ciphertext>) -> Result<E::Ciphertext> {
    let mut it = terms.into_iter();
    let mut acc = it
        .next()
        .ok_or_else(|| Error::Internal("sum_rotations: no terms".into()))?;
    for t in it {
        e.add_assign(&mut acc, &t)?;
    }
    Ok(acc)
}
