//! The centred coefficients of a CKKS plaintext as f64, for decoding: each coefficient lifted from
//! the fewest primes q_0..q_j whose product exceeds scale 2^40 and checked against the residues of
//! every other prime of the level; a coefficient that disagrees (it is larger than that product
//! allows) is composed again from all the primes, exactly, with big integers.
//!
//! One or two primes (products below 2^126, the usual case: a 60-bit q_0 and a 40-bit q_1 at scale
//! 2^40) are lifted in machine words, limb by limb, with the same values as the big-integer
//! composition: the CRT of two residues is exact in 128 bits, and `i128 as f64` rounds to nearest
//! as `BigInt::to_f64` does.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use rnsfhe_math::arith::{vector, Modulus, Shoup};
use rnsfhe_math::parallel;
use rnsfhe_math::ring::Poly;
use rnsfhe_math::rns::RnsBasis;

use super::CkksContext;
use crate::Result;

impl CkksContext {
    /// The centred coefficients of an NTT-form polynomial over Q_level as f64, exact for every
    /// coefficient in (-Q_level/2, Q_level/2] (see the module documentation).
    pub(super) fn centered_coefficients(&self, mut x: Poly, scale: f64) -> Result<Vec<f64>> {
        let ring = x.context().clone();
        let limbs = lift_limbs(ring.moduli(), scale);
        x.to_coefficient()?;
        let few = self.ring_at(limbs - 1)?.basis();
        let (n, res, all) = (ring.degree(), x.residues(), ring.basis());
        match small_lift(ring.moduli(), limbs, res, n) {
            Some((mut values, disagree)) => {
                for j in disagree {
                    values[j] = composed(all, res, n, j)?;
                }
                Ok(values)
            }
            None => (0..n).map(|j| lifted(few, all, res, n, j)).collect(),
        }
    }
}

/// The fewest primes (from q_0) whose product exceeds scale 2^40 (all of them if none does).
fn lift_limbs(moduli: &[Modulus], scale: f64) -> usize {
    let need = scale.log2() + 40.0;
    let mut bits = 0.0;
    let mut limbs = 0;
    for m in moduli {
        limbs += 1;
        bits += (m.value() as f64).log2();
        if bits > need {
            break;
        }
    }
    limbs
}

/// Coefficient j's residues (limb-major `res`, n words a limb).
fn column(res: &[u64], n: usize, j: usize) -> Vec<u64> {
    res.iter().skip(j).step_by(n).copied().collect()
}

/// Coefficient j composed from every prime, centred, as f64.
fn composed(all: &RnsBasis, res: &[u64], n: usize, j: usize) -> Result<f64> {
    let v = all.compose_centered(&column(res, n, j))?;
    Ok(v.to_f64().unwrap_or(f64::NAN))
}

/// Coefficient j from the primes of `few`, checked against the others, with big integers.
fn lifted(few: &RnsBasis, all: &RnsBasis, res: &[u64], n: usize, j: usize) -> Result<f64> {
    let col = column(res, n, j);
    let v: BigInt = few.compose_centered(&col[..few.len()])?;
    if few.len() == col.len() || all.decompose_signed(&v) == col {
        Ok(v.to_f64().unwrap_or(f64::NAN))
    } else {
        composed(all, res, n, j)
    }
}

/// With one or two primes (product below 2^126): every coefficient's centred lift from them as f64,
/// with the coefficients where another prime's residue disagrees (their values unspecified); `None`
/// for more primes or a larger product.
///
/// Two primes: x = r_0 + q_0 d with d = (r_1 - r_0) q_0^-1 mod q_1, x in [0, q_0 q_1), centred as
/// `RnsBasis::compose_centered` does (x > floor(Q/2) -> x - Q). The check against a prime m needs
/// no wide arithmetic: x mod m = r_0 + |q_0|_m d mod m, less |Q|_m where x was centred down. One
/// prime: d = 0, Q = q_0.
fn small_lift(
    moduli: &[Modulus],
    limbs: usize,
    res: &[u64],
    n: usize,
) -> Option<(Vec<f64>, Vec<usize>)> {
    let q0 = moduli.first()?;
    let (q1, product) = match limbs {
        1 => (None, u128::from(q0.value())),
        2 => {
            let q1 = moduli.get(1)?;
            let product = u128::from(q0.value()).checked_mul(u128::from(q1.value()))?;
            if product >= 1 << 126 {
                return None;
            }
            let inv = q1.inv(q1.reduce(q0.value())).ok()?;
            (Some((q1, inv)), product)
        }
        _ => return None,
    };
    let half = product >> 1;
    let others = &moduli[limbs..];
    // |q_0|_m and |Q|_m for the other primes.
    let consts: Vec<(Shoup, u64)> = others
        .iter()
        .map(|m| {
            (
                m.shoup(q0.value()),
                (product % u128::from(m.value())) as u64,
            )
        })
        .collect();
    // Chunks of coefficients side by side on the threads there are.
    let chunk = n.div_ceil(CHUNKS).max(1);
    let words = n * moduli.len();
    let parts = parallel::map(n.div_ceil(chunk), words, |c| {
        let range = c * chunk..((c + 1) * chunk).min(n);
        let r0 = &res[range.clone()];
        let mut d = vec![0u64; range.len()];
        if let Some((q1, inv)) = q1 {
            // d = r_1 inv + r_0 (-inv) mod q_1 (r_0 < 2^64 reduced by the kernel).
            let r1 = &res[n + range.start..n + range.end];
            let (w1, w0) = (q1.shoup(inv), q1.shoup(q1.neg(inv)));
            vector::mul_shoup2_add(q1, (r1, w1), (r0, w0), 0, &mut d);
        }
        let mut values = Vec::with_capacity(range.len());
        // All ones where x was centred down.
        let mut down = Vec::with_capacity(range.len());
        for (&r, &d) in r0.iter().zip(&d) {
            let x = u128::from(r) + u128::from(q0.value()) * u128::from(d);
            let centred = x > half;
            down.push(0u64.wrapping_sub(u64::from(centred)));
            values.push(if centred {
                x as i128 - product as i128
            } else {
                x as i128
            } as f64);
        }
        // Nonzero where a residue disagrees: the OR of r ^ expected over the other primes.
        let mut bad = vec![0u64; range.len()];
        let mut t = vec![0u64; range.len()];
        for ((m, &(wq0, qm)), limb) in others
            .iter()
            .zip(&consts)
            .zip(res.chunks_exact(n).skip(limbs))
        {
            vector::mul_shoup2_add(m, (r0, m.shoup(1)), (&d, wq0), 0, &mut t);
            let mv = m.value();
            for (((bad, &t), &down), &r) in
                bad.iter_mut().zip(&t).zip(&down).zip(&limb[range.clone()])
            {
                // t - |Q|_m mod m where centred (t in [0, m)), branch-free.
                let s = t.wrapping_sub(qm & down);
                let e = s.min(s.wrapping_add(mv));
                *bad |= r ^ e;
            }
        }
        let disagree: Vec<usize> = bad
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b != 0)
            .map(|(j, _)| range.start + j)
            .collect();
        Ok::<_, std::convert::Infallible>((values, disagree))
    })
    .ok()?;
    let mut values = Vec::with_capacity(n);
    let mut disagree = Vec::new();
    for (v, d) in parts {
        values.extend(v);
        disagree.extend(d);
    }
    Some((values, disagree))
}

/// Chunks of coefficients whose agreement with the other primes is checked as one task.
const CHUNKS: usize = 8;

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use rnsfhe_math::arith::ntt_primes;

    /// The word lift equals the big-integer lift (value, agreement and f64 rounding) for one and
    /// two primes, on random residues (almost all disagree with the other primes), on small values
    /// of both signs, and on values next to +-Q/2 and to f64 rounding ties.
    #[test]
    fn word_lift_matches_big_integers() {
        let n = 64;
        let mut primes = ntt_primes(60, 2 * n as u64, 1, &[]).unwrap();
        primes.extend(ntt_primes(40, 2 * n as u64, 3, &primes).unwrap());
        let moduli: Vec<Modulus> = primes.iter().map(|&q| Modulus::new(q).unwrap()).collect();
        let all = RnsBasis::new(&primes).unwrap();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for limbs in [1, 2] {
            let few = RnsBasis::new(&primes[..limbs]).unwrap();
            let q = few.product().clone();
            // Coefficients: random residues, then chosen integers decomposed over all primes.
            let mut values: Vec<BigInt> = vec![
                BigInt::from(0),
                BigInt::from(1),
                BigInt::from(-1),
                BigInt::from(q.clone() >> 1u32),
                -BigInt::from(q.clone() >> 1u32),
                BigInt::from(q.clone() >> 1u32) + 1,
                BigInt::from((1u128 << 60) + 1) << 40u32,
                -(BigInt::from((1u128 << 54) + 3) << 43u32),
                BigInt::from(q.clone() >> 2u32),
            ];
            values.extend((0..20).map(|_| BigInt::from(next() >> 3) - BigInt::from(1u64 << 60)));
            let mut res = vec![0u64; moduli.len() * n];
            for j in 0..n {
                let col: Vec<u64> = match values.get(j) {
                    Some(v) => all.decompose_signed(v),
                    None => moduli.iter().map(|m| m.reduce(next())).collect(),
                };
                for (i, r) in col.into_iter().enumerate() {
                    res[i * n + j] = r;
                }
            }
            let (mut words, disagree) = small_lift(&moduli, limbs, &res, n).unwrap();
            assert_eq!(words.len(), n);
            for j in disagree {
                words[j] = composed(&all, &res, n, j).unwrap();
            }
            for (j, &got) in words.iter().enumerate() {
                let want = lifted(&few, &all, &res, n, j).unwrap();
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "{limbs} primes, coefficient {j}"
                );
            }
        }
    }
}
