//! Lifting small signed coefficients into the limb-major RNS layout, branch-free in the values.

use super::constant_time::{mask, opaque_zero, sub_if_ge};
use crate::arith::Modulus;
use crate::{Error, Result};

/// x mod q for x < 2^64, branch-free: x - floor(x * floor(2^64 / q) / 2^64) * q is in [0, 2q), then a
/// masked subtraction.
#[inline(always)]
fn reduce_ct(m: &Modulus, x: u64, zero: u64) -> u64 {
    let q = m.value();
    let est = ((u128::from(x) * u128::from(m.barrett_ratio().1)) >> 64) as u64;
    sub_if_ge(x.wrapping_sub(est.wrapping_mul(q)), q, zero)
}

/// a mod q in [0, q) for any i64, without branches on a; `zero` from [`opaque_zero`].
#[inline(always)]
fn lift_ct(m: &Modulus, a: i64, zero: u64) -> u64 {
    let q = m.value();
    let r = reduce_ct(m, a.unsigned_abs(), zero);
    // q - r is in [1, q]; map q to 0.
    let negated = sub_if_ge(q - r, q, zero);
    r ^ ((r ^ negated) & mask((a as u64) >> 63, zero))
}

/// Writes `signed[j] mod q_i` (in [0, q_i)) to `out[i*n + j]`, n = `signed.len()`. Branch-free in the
/// coefficients, so it may lift secrets; errors if `out.len() != moduli.len() * n`.
pub fn to_rns_into(signed: &[i64], moduli: &[Modulus], out: &mut [u64]) -> Result<()> {
    let n = signed.len();
    if out.len() != moduli.len() * n {
        return Err(Error::LengthMismatch {
            what: "RNS polynomial (moduli.len() * n)",
            expected: moduli.len() * n,
            got: out.len(),
        });
    }
    if n == 0 {
        return Ok(());
    }
    let zero = opaque_zero();
    for (limb, m) in out.chunks_exact_mut(n).zip(moduli) {
        for (o, &a) in limb.iter_mut().zip(signed) {
            *o = lift_ct(m, a, zero);
        }
    }
    Ok(())
}

/// `signed` (n coefficients) as a limb-major RNS polynomial of `moduli.len() * n` words in [0, q_i).
/// For a secret, wrap the result (e.g. `zeroize::Zeroizing`) or lift into a zeroizing buffer with
/// [`to_rns_into`].
pub fn to_rns(signed: &[i64], moduli: &[Modulus]) -> Vec<u64> {
    let n = signed.len();
    let mut out = vec![0u64; moduli.len() * n];
    let zero = opaque_zero();
    for (i, m) in moduli.iter().enumerate() {
        for (o, &a) in out[i * n..(i + 1) * n].iter_mut().zip(signed) {
            *o = lift_ct(m, a, zero);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn moduli() -> Vec<Modulus> {
        [2u64, 3, 17, 0x3fff_fff0_0001, (1 << 62) - 57]
            .iter()
            .map(|&q| Modulus::new(q).unwrap())
            .collect()
    }

    #[test]
    fn layout_and_edges() {
        let ms = moduli();
        let s = [0i64, 1, -1, 19, -19, i64::MAX, i64::MIN];
        let out = to_rns(&s, &ms);
        assert_eq!(out.len(), ms.len() * s.len());
        for (i, m) in ms.iter().enumerate() {
            for (j, &a) in s.iter().enumerate() {
                let want = i128::from(a).rem_euclid(i128::from(m.value())) as u64;
                assert_eq!(out[i * s.len() + j], want, "q={} a={a}", m.value());
                assert_eq!(out[i * s.len() + j], m.reduce_i64(a));
            }
        }
        let mut buf = vec![0u64; out.len()];
        to_rns_into(&s, &ms, &mut buf).unwrap();
        assert_eq!(buf, out);
        assert!(matches!(
            to_rns_into(&s, &ms, &mut buf[1..]),
            Err(Error::LengthMismatch { .. })
        ));
        assert!(to_rns(&[], &ms).is_empty());
    }

    proptest! {
        #[test]
        fn matches_reduce_i64(qi in 0usize..5, a in any::<i64>()) {
            let m = moduli()[qi];
            prop_assert_eq!(lift_ct(&m, a, opaque_zero()), m.reduce_i64(a));
        }
    }
}
