//! The automorphisms X -> X^g of R = Z[X]/(X^n + 1), g odd, in both representations (general Phi_m:
//! `cyclotomic/poly.rs`).

use super::{Poly, Representation};
use crate::arith::Modulus;
use crate::parallel::Work;
use crate::{Error, Result};

fn bit_reverse(i: usize, log_n: u32) -> usize {
    i.reverse_bits() >> (usize::BITS - log_n)
}

/// The sign flag of a permutation index: the value is negated modulo q.
const NEG: u64 = 1 << 63;

/// g^-1 mod m for odd g and m a power of two (Newton: each step doubles the correct low bits).
fn inverse_mod_pow2(g: usize, m: usize) -> usize {
    let mut x = g; // g g = 1 mod 8 for odd g: 3 bits
    for _ in 0..6 {
        x = x.wrapping_mul(2usize.wrapping_sub(g.wrapping_mul(x)));
    }
    x & (m - 1)
}

/// dst[i] = src[idx[i]] (negated mod q where the index carries [`NEG`]). Scalar by measurement: an AVX2
/// `vpgatherqq` twin took 1.5x this loop's time on Zen 3.
fn permute(q: &Modulus, idx: &[u64], src: &[u64], dst: &mut [u64]) {
    for (d, &i) in dst.iter_mut().zip(idx) {
        let x = src[(i & !NEG) as usize];
        *d = if i & NEG == 0 { x } else { q.neg(x) };
    }
}

/// The gather table of X -> X^g on the NTT form of X^n + 1 (n a power of two up to 2^31, g odd, taken
/// mod 2n): the automorphism's value at slot i is the input's at slot `table[i]` (slot i holds
/// A(psi^(2 bitrev(i) + 1)), so it reads slot j with 2 bitrev(j) + 1 = (2 bitrev(i) + 1) g mod 2n).
/// For loops that fuse the permutation with other work (hoisted key switching's sums).
pub fn ntt_automorphism_index(n: usize, g: u64) -> Result<Vec<u32>> {
    if !n.is_power_of_two() || !(2..=1 << 31).contains(&n) || g.is_multiple_of(2) {
        return Err(Error::OutOfRange(format!(
            "NTT automorphism table: n = {n} must be a power of two in 2..=2^31 and g = {g} odd"
        )));
    }
    let log_n = n.trailing_zeros();
    let mask = 2 * n - 1;
    let g = (g % (2 * n as u64)) as usize;
    Ok((0..n)
        .map(|i| {
            let e = ((2 * bit_reverse(i, log_n) + 1) * g) & mask;
            bit_reverse((e - 1) / 2, log_n) as u32
        })
        .collect())
}

impl Poly {
    /// X -> X^g for an odd g (any integer; taken mod 2n): the Galois automorphism behind rotations.
    /// Coefficient form: X^j -> ±X^(jg mod n), sign from jg mod 2n. NTT form: a permutation of the
    /// evaluations (slot i holds A(psi^(2 bitrev(i) + 1)), so it receives slot j with
    /// 2 bitrev(j) + 1 = (2 bitrev(i) + 1) g mod 2n).
    ///
    /// General m (kind `Cyclotomic`): any g coprime to m, see `automorphism_general`.
    pub fn automorphism(&self, g: i64) -> Result<Poly> {
        if self.context().general().is_some() {
            return self.automorphism_general(g);
        }
        let n = self.context().degree();
        let two_n = 2 * n as i64;
        let g = g.rem_euclid(two_n) as usize;
        if g.is_multiple_of(2) {
            return Err(Error::OutOfRange(format!(
                "automorphism exponent must be odd (coprime to 2n = {two_n}); got {g} mod {two_n}"
            )));
        }
        let form = self.representation();
        let mask = 2 * n - 1;
        let src = self.residues();
        let moduli = self.context().moduli();
        let out = match form {
            // X^j -> sign X^(jg mod n): destination e reads j = e g^-1 mod 2n, negated when j >= n
            // (then (j - n) g = e + n mod 2n).
            Representation::Coefficient => {
                let g_inv = inverse_mod_pow2(g, 2 * n);
                let idx: Vec<u64> = (0..n)
                    .map(|e| {
                        let j = (e * g_inv) & mask;
                        if j < n {
                            j as u64
                        } else {
                            (j - n) as u64 | NEG
                        }
                    })
                    .collect();
                Poly::from_fill(self.context(), form, |dst| {
                    crate::parallel::for_each_limb_as(Work::Light, dst, n, |i, limb| {
                        permute(&moduli[i], &idx, &src[i * n..(i + 1) * n], limb);
                        Ok(())
                    })
                })?
            }
            // A permutation of the evaluations, no signs: one pass per limb into a buffer without
            // zero fill (the gathers are the cost: n of them per limb).
            Representation::Ntt => {
                let idx = ntt_automorphism_index(n, g as u64)?;
                Poly::from_fill(self.context(), form, |dst| {
                    crate::parallel::for_each_limb_as(Work::Light, dst, n, |i, limb| {
                        let s = &src[i * n..(i + 1) * n];
                        for (d, &j) in limb.iter_mut().zip(&idx) {
                            *d = s[j as usize];
                        }
                        Ok(())
                    })
                })?
            }
        };
        Ok(out)
    }
}
