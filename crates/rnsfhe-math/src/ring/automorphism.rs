//! The automorphisms X -> X^g of R = Z[X]/(X^n + 1), g odd, in both representations (general Phi_m:
//! `cyclotomic/poly.rs`).

use super::{Poly, Representation};
use crate::{Error, Result};

fn bit_reverse(i: usize, log_n: u32) -> usize {
    i.reverse_bits() >> (usize::BITS - log_n)
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
        let mut out = Poly::zero(self.context(), self.representation());
        let src = self.residues();
        let (ctx, dst, form) = out.parts_mut();
        let mask = 2 * n - 1;
        match form {
            Representation::Coefficient => {
                for (limb, (s, q)) in dst
                    .chunks_exact_mut(n)
                    .zip(src.chunks_exact(n).zip(ctx.moduli()))
                {
                    for (j, &x) in s.iter().enumerate() {
                        let e = (j * g) & mask;
                        if e < n {
                            limb[e] = x;
                        } else {
                            limb[e - n] = q.neg(x);
                        }
                    }
                }
            }
            Representation::Ntt => {
                let log_n = n.trailing_zeros();
                let perm: Vec<usize> = (0..n)
                    .map(|i| {
                        let e = ((2 * bit_reverse(i, log_n) + 1) * g) & mask;
                        bit_reverse((e - 1) / 2, log_n)
                    })
                    .collect();
                for (limb, s) in dst.chunks_exact_mut(n).zip(src.chunks_exact(n)) {
                    for (d, &j) in limb.iter_mut().zip(&perm) {
                        *d = s[j];
                    }
                }
            }
        }
        Ok(out)
    }
}
