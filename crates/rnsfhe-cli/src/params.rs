//! `rnsfhe params`: secure parameters for a wanted BFV depth and plaintext modulus, or CKKS levels and
//! precision, at 128, 192 or 256 bits, with the reasoning printed.

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe::ckks::CkksParameters;
use rnsfhe::params::{max_log_q, Security, SecurityLevel};
use rnsfhe::{Error, Result};

/// The security level for 128, 192 or 256.
pub fn level(bits: u32) -> Result<SecurityLevel> {
    match bits {
        128 => Ok(SecurityLevel::Bits128),
        192 => Ok(SecurityLevel::Bits192),
        256 => Ok(SecurityLevel::Bits256),
        b => Err(Error::InvalidParameters(format!(
            "security must be 128, 192 or 256 bits, not {b}"
        ))),
    }
}

/// BFV: the smallest n whose largest secure q reaches `depth` by Bajard et al. (SAC 2016)'s worst-case bound (20).
pub fn bfv(depth: u32, t: u64, bits: u32) -> Result<()> {
    let lvl = level(bits)?;
    println!("BFV, t = {t}, multiplicative depth {depth}, {bits}-bit security:\n");
    for log_n in 11..=16u32 {
        let n = 1usize << log_n;
        let Some(total) = max_log_q(n, lvl) else {
            continue;
        };
        let params = BfvParameters::builder()
            .degree(n)
            .plain_modulus(t)
            .multiplication(Multiplication::Hps)
            .security(Security::Standard(lvl))
            .build()?;
        let ctx = BfvContext::new(params)?;
        let worst = ctx.depth_inputs().depth();
        println!(
            "- n = 2^{log_n}: log q <= {total} bits by the HE standard; {} ciphertext primes of <= 60 bits \
             ({:.0} bits) + 1 special; worst-case depth by (20): {worst}",
            ctx.params().moduli().len(),
            ctx.params().log_q()
        );
        if worst >= depth {
            println!(
                "\nSuggested: BfvParameters::builder().degree({n}).plain_modulus({t}) (the 128-bit \
                 preset moduli at this n{}). Bound (20) is a worst case: measured circuits usually go \
                 deeper (see `rnsfhe bench bfv`, Table 1's measured column); check with noise_budget.",
                if bits == 128 { "" } else { ", with .security(..) set" }
            );
            return Ok(());
        }
    }
    Err(Error::InvalidParameters(format!(
        "no n up to 2^16 reaches depth {depth} with t = {t} at {bits} bits by the worst-case bound; \
         lower t or the depth"
    )))
}

/// CKKS: scale 2^(precision + 20) (fresh and per-level noise near 2^20 in the slots), q_0 with 20 more
/// bits for the values, 60-bit special prime, and the smallest N whose bound fits them.
pub fn ckks(levels: usize, precision: u32, bits: u32) -> Result<()> {
    let lvl = level(bits)?;
    let scale = (precision + 20).clamp(25, 60);
    let q0 = (scale + 20).min(61);
    let total = q0 as usize + levels * scale as usize + 60;
    println!(
        "CKKS, {levels} levels, about {precision} bits of precision, {bits}-bit security:\n\n- scale 2^{scale} \
         (noise is about 2^20 in the slots, so precision ~ scale - 20 bits); q_0 of {q0} bits (values \
         below 2^{} at that scale); one 60-bit special prime; log QP = {q0} + {levels} x {scale} + 60 = {total}",
        q0 - scale
    );
    for log_n in 11..=17u32 {
        let n = 1usize << log_n;
        let Some(max) = max_log_q(n, lvl) else {
            continue;
        };
        if max as usize >= total {
            let p = CkksParameters::builder()
                .degree(n)
                .levels(levels)
                .scale_bits(scale)
                .first_modulus_bits(q0)
                .security(Security::Standard(lvl))
                .build()?;
            println!(
                "- N = 2^{log_n} allows {max} bits: chosen ({} slots; chain primes within 2^-{} of 2^{scale})\n\n\
                 Suggested: CkksParameters::builder().degree({n}).levels({levels}).scale_bits({scale})\
                 .first_modulus_bits({q0})",
                n / 2,
                p.eta()
            );
            return Ok(());
        }
        println!("- N = 2^{log_n} allows {max} bits: too small");
    }
    Err(Error::InvalidParameters(format!(
        "{levels} levels at scale 2^{scale} need {total} bits, more than N = 2^17 allows at {bits} bits"
    )))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;

    #[test]
    fn suggestions_and_refusals() {
        assert!(level(100).is_err());
        assert!(bfv(2, 65537, 128).is_ok());
        assert!(ckks(10, 25, 128).is_ok());
        assert!(
            ckks(60, 40, 256).is_err(),
            "60 levels at 2^60 exceed every N at 256 bits"
        );
        assert!(bfv(200, 65537, 128).is_err());
    }
}
