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
//! 3. out = BTS(x) + BTS(r) / 2^k = m + e_a + e_2 / 2^k + e_b at R on the chain's scale: both
//!    terms times integer constants (the second's divided by 2^k), added, one rescale (the reserved
//!    prime; its rounding noise e_b).
//!
//! # Error budget of the output (per slot, against the decrypted input)
//!
//! - e_2 / 2^k: the second bootstrap's error (EvalMod's approximation, the DFTs' constants, the
//!   rescale noise inside the bootstrap, all of e_1's kind) divided by 2^k: the first bootstrap's
//!   precision plus k bits, with k at most its worst slot's bits so that |r| stays within EvalMod's
//!   range (the sine's error is relative: a smaller r only helps).
//! - e_a, e_b: two rescales at about the residual scale Delta, which no iteration removes: each
//!   sqrt(pi / 4) sqrt(N) sigma / Delta on average (a complex slot sums N coefficients of rounding
//!   noise sigma = sqrt((h + 1) / 12), the key's weight h): sigma = 60 for a dense ternary secret
//!   at N = 2^16, 4 for h = 192, so 2^-39.1 and 2^-43.0 per rescale at Delta = 2^53.
//! - The encoding of the constants: 2^-53 relative at Delta = 2^53, and 2^-(53 - k) on the
//!   correction (itself 2^-k e_1): nothing.
//!
//! So META-BTS reaches the floor of the residual scale, not beyond: sqrt(2) 2^-39.1 = 2^-38.6 for
//! a dense secret at 2^53 (q_0 = Delta 2^r <= 61 bits with r = 7 caps the scale), 2^-42.5 for
//! h = 192. 40 bits need h = 192 ([`super::BootstrappingParameters::n16_h192_meta_bts`]: first
//! bootstrap near 24 bits, k = 20, so e_2 / 2^k near 2^-44) or a dense secret at 2^55, beyond
//! q_0's 61 bits with any message ratio that EvalMod resolves. Measured at N = 2^16 (loaded
//! machine): 42.8 / 39.8 bits mean / worst with h = 192.

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
    // 3. Both terms onto the chain one level below by one rescale of their sum (one rounding
    //    noise, not two), the correction divided by 2^k in its integer constant.
    if second.level() != first.level() || second.scale() != first.scale() {
        return Err(Error::Internal(
            "META-BTS: the two bootstraps landed apart".into(),
        ));
    }
    let level = first.level();
    let target = ctx.scale_at(level.saturating_sub(1))?;
    let onto = ctx.factor_onto(level, first.scale(), target)?.round();
    let a = ctx.mul_integer(first, onto as i64)?;
    let b = ctx.mul_integer(&second, (onto / factor as f64).round() as i64)?;
    let mut sum = ctx.add(&a, &b)?;
    sum.scale = first.scale() * onto;
    ctx.rescale_assign(&mut sum)?;
    sum.scale = target;
    Ok(sum)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::circuits::bootstrapping::BootstrappingParameters;
    use crate::ckks::Complex;
    use rnsfhe_math::sample::Csprng;

    /// Against a plaintext model of the bootstrap, BTS(c) = Dec(c) + delta re-encrypted one level
    /// above the residual top (a known error delta of 2^-16): the output is m + delta 2^-k. A
    /// skipped iteration leaves m + delta, a wrong sign m + 2 delta.
    #[test]
    fn second_iteration_divides_a_known_error_by_2_to_the_k() {
        let mut p = BootstrappingParameters::toy(11);
        p.meta_bts = Some(10);
        let ctx = CkksContext::new(p.ckks_parameters().unwrap()).unwrap();
        let mut rng = Csprng::from_seed([7; 32]);
        let (sk, _) = ctx.keygen(&mut rng).unwrap();
        let n = ctx.slots();
        let delta: Vec<Complex> = (0..n)
            .map(|i| Complex::new(1.0, -((i % 3) as f64)) * 2f64.powi(-16))
            .collect();
        let top = p.residual_levels + 1;
        let mut noise = Csprng::from_seed([8; 32]);
        let mut model = |c: &CkksCiphertext| {
            let v: Vec<Complex> = ctx.decrypt_values(c, &sk)?;
            let v: Vec<Complex> = v.iter().zip(&delta).map(|(a, d)| *a + *d).collect();
            let pt = ctx.encode_at(&v, top, ctx.scale_at(top)?)?;
            ctx.encrypt_symmetric(&pt, &sk, &mut noise)
        };
        let m: Vec<Complex> = (0..n)
            .map(|i| Complex::new((i as f64 / n as f64) - 0.5, 0.25))
            .collect();
        let pt = ctx.encode_at(&m, 0, ctx.scale_at(0).unwrap()).unwrap();
        let x = ctx.encrypt_symmetric(&pt, &sk, &mut rng).unwrap();
        let want = ctx.decrypt_values(&x, &sk).unwrap();
        let first = model(&x).unwrap();
        let out = second_iteration(&ctx, &x, &first, 10, &mut model).unwrap();
        assert_eq!(out.level(), top - 1);
        assert_eq!(out.scale(), ctx.scale_at(top - 1).unwrap());
        let got = ctx.decrypt_values(&out, &sk).unwrap();
        for ((g, w), d) in got.iter().zip(&want).zip(&delta) {
            // The residual error delta 2^-10 = 2^-26 per unit, the rescales' noise near 2^-38.
            let left = (*g - *w - *d * 2f64.powi(-10)).abs();
            assert!(left < 2f64.powi(-33), "{left:e}");
        }
    }
}
