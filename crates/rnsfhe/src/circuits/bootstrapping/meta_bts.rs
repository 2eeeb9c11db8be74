//! META-BTS (Bae, Cheon, Cho, Kim and Kim, "META-BTS: Bootstrapping Precision Beyond the Limit",
//! CCS 2022; Lattigo's bootstrapping `IterationsParameters`): a second bootstrap of the first one's
//! residual, scaled up, corrects the first one's error.
//!
//! With x the input at its lowest level (the values m the bootstrap refreshes) and BTS(x) = m + e_1
//! at the level R + 1 above the residual top (one reserved prime):
//!
//! 1. r = 2^k (x - BTS(x)) = -2^k e_1 at x's level: BTS(x) is brought there by one rescale onto x's
//!    scale (rounding noise e_a), the difference is exact, 2^k is an integer product;
//! 2. BTS(r) = -2^k e_1 + e_2 at R + 1: the same bootstrap, its error e_2 about e_1's (EvalMod's
//!    error is absolute, and |r| <= 1 for 2^k below the first bootstrap's worst precision);
//! 3. out = BTS(x) + BTS(r) / 2^k = m + e_a + e_2 / 2^k at R on the chain's scale (each term lands
//!    there by one rescale: the reserved prime).
//!
//! The error is then e_2 2^-k (the iteration's gain, k bits) plus what no iteration removes: the
//! rescale noise e_a of step 1 at x's scale and of step 3 at the residual scale (sqrt(N) sigma / Delta
//! per slot for a secret of rounding noise sigma per coefficient: 2^-26 for a dense ternary secret at
//! N = 2^16 and Delta = 2^40, 2^-38 for h = 32 at N = 2^13 and 2^45) and the constants' rounding
//! (2^-41 relative at 40-bit primes). So META-BTS reaches the precision floor of the residual scale,
//! not beyond: 40 bits need a residual scale of about 2^54 with a dense secret (2^50 with h = 192).

use crate::ckks::{CkksCiphertext, CkksContext};
use crate::{Error, Result};

/// BTS(x) + BTS(2^k (x - BTS(x))) / 2^k (module doc) for `x` at its lowest level on the chain's
/// scale and `first` = BTS(x) one level above the output (the reserved prime): the output is one
/// level below `first`, on the chain's scale. `bootstrap` is the pipeline (ModRaise to SlotsToCoeffs).
///
/// Errors: `OutOfRange` for k above 61; those of the bootstrap and of the operations.
pub(super) fn second_iteration(
    ctx: &CkksContext,
    x: &CkksCiphertext,
    first: &CkksCiphertext,
    k: u32,
    bootstrap: &mut dyn FnMut(&CkksCiphertext) -> Result<CkksCiphertext>,
) -> Result<CkksCiphertext> {
    let factor = 1i64
        .checked_shl(k)
        .filter(|_| k <= 61)
        .ok_or_else(|| Error::OutOfRange(format!("META-BTS factor 2^{k}: k <= 61")))?;
    // 1. BTS(x) at x's level and scale, one rescale; the residual scaled up by 2^k.
    let above = ctx.drop_to_level_keeping_scale(first, x.level() + 1)?;
    let aligned = ctx.mul_const_rescale_to(&above, 1.0, x.scale())?;
    let r = ctx.mul_integer(&ctx.sub(x, &aligned)?, factor)?;
    // 2. Its bootstrap.
    let second = bootstrap(&r)?;
    // 3. Both terms onto the chain one level below, the correction divided by 2^k.
    let target = ctx.scale_at(first.level().saturating_sub(1))?;
    let a = ctx.mul_const_rescale_to(first, 1.0, target)?;
    let b = ctx.mul_const_rescale_to(&second, 1.0 / factor as f64, target)?;
    ctx.add(&a, &b)
}
