//! Baby-step giant-step (Paterson–Stockmeyer) evaluation with the target propagated backwards
//! (Bossuat et al., Eurocrypt 2021, Alg. 2; Lattigo's `circuits/common/polynomial`): every piece
//! of the recursion is asked for a (level, scale) and lands on it exactly.
//!
//! With baby steps B_1..B_(k-1) (k = 2^ceil(log2(d + 1) / 2)) and giant steps B_m for the powers of
//! two m, p = low + B_m high (m the largest power of two <= deg p, `basis::split`):
//!
//! - high is asked for (T + r, S q_(T+r) / scale(B_m)) (r = `rescale_levels`), so that
//!   high * B_m, rescaled from level T + r, lands on (T, S);
//! - low is asked for (T, S) directly;
//! - a piece of degree < k whose baby steps all sit at level T + r or above is a leaf: each term
//!   c_i B_i is multiplied at level T + r by a constant chosen so that its product is at exactly
//!   S q_(T+r) (`mul_const_to_scale`), the terms are summed and rescaled once onto (T, S), and c_0
//!   is added at S. The leading piece (the one all giant steps multiply) may not have its baby
//!   steps that high: it is then split again by smaller powers of two (Lattigo's "lead" case), which
//!   keeps the depth at ceil(log2(d + 1)).
//!
//! Lazy relinearisation and rescaling (Bossuat et al., section 4.2; OpenFHE's `EvalMultNoRelin` in
//! `EvalChebyshevSeriesPS`): a piece is built `Pending`, before its last rescale, at
//! (T + r, S q_(T+r)), so that low and high * B_m are summed there as they are, the product a
//! tensor (3 parts), and the sum is relinearised and rescaled once, when the piece is a high
//! (multiplied next) or the result. An odd degree-59 series (EvalMod's) then takes 4 key
//! switches instead of 7 for its 7 giant-step products, and 8 rescales instead of 15; the key
//! switch and the rescale still act at T + r, so their noise is divided by q_(T+r) as before.
//!
//! By induction on the degree, level(B_1) >= T + r ceil(log2(d + 1)) suffices: B_m (m = 2^floor(log2
//! d)) sits at level(B_1) - r log2 m >= T + r, and high has degree < m. Zero coefficients are
//! skipped (an odd polynomial evaluates its odd terms only), and a piece that is only a constant
//! is carried as that constant into its parent's sum.

use super::basis::{degree, split};
use super::powers::PowerBasis;
use crate::eval::Evaluator;
use crate::{Error, Result};

/// A piece before its last rescale: `acc` at (T + r, S q_(T+r)) for the piece's target (T, S), a
/// tensor (3 parts, not relinearised) when `tensor`; c_0 is added after the rescale, at S.
pub(super) struct Pending<C, Ct> {
    acc: Ct,
    tensor: bool,
    c0: C,
}

/// The value of one piece: a constant (no ciphertext term), or a ciphertext to be finished onto
/// the piece's target ([`Bsgs::finish`]).
pub(super) enum Piece<C, Ct> {
    Const(C),
    Pending(Pending<C, Ct>),
}

/// One evaluation: the basis and the baby-step bound.
pub(super) struct Bsgs<'a, E: Evaluator> {
    pub(super) e: &'a E,
    pub(super) basis: PowerBasis<'a, E>,
    pub(super) rlk: &'a E::RelinKey,
    pub(super) chebyshev: bool,
    /// Baby steps are B_1..B_(k-1).
    pub(super) k: usize,
}

impl<E: Evaluator> Bsgs<'_, E> {
    /// The piece with coefficients `c` at exactly (`level`, `scale`); `None` for zero.
    pub(super) fn eval(
        &mut self,
        c: &[E::Scalar],
        level: usize,
        scale: f64,
    ) -> Result<Option<Piece<E::Scalar, E::Ciphertext>>> {
        let e = self.e;
        let d = match degree(c) {
            None => return Ok(None),
            Some(0) => return Ok(Some(Piece::Const(c[0]))),
            Some(d) => d,
        };
        if d < self.k && self.leaf_fits(&c[..=d], level)? {
            return self.leaf(&c[..=d], level, scale).map(Some);
        }
        let m = 1usize << (usize::BITS - 1 - d.leading_zeros());
        let r = e.rescale_levels();
        let (low, high) = split(&c[..=d], m, self.chebyshev, |a, k, b| {
            e.scalar_mul_add(a, k, b)
        });
        if self.basis.level_of(m)? < level + r {
            return Err(Error::Internal(format!(
                "giant step {m} below level {}",
                level + r
            )));
        }
        let product_scale = scale * e.rescale_factor(level + r)?;
        let high_scale = product_scale / e.scale(self.basis.get(m)?);
        let term = match self.eval(&high, level + r, high_scale)? {
            None => None,
            Some(Piece::Const(h)) => {
                let bm = e.drop_level(self.basis.get(m)?, level + r)?;
                Some((e.mul_const_to_scale(&bm, h, product_scale)?, false))
            }
            Some(Piece::Pending(h)) => {
                let h = self.finish(h)?;
                Some((e.mul_at(&h, self.basis.get(m)?, level + r)?, true))
            }
        };
        let low = self.eval(&low, level, scale)?;
        let zero = E::Scalar::default();
        Ok(match (low, term) {
            (low, None) => low,
            (None, Some((acc, tensor))) => Some(Piece::Pending(Pending {
                acc,
                tensor,
                c0: zero,
            })),
            (Some(Piece::Const(c0)), Some((acc, tensor))) => {
                Some(Piece::Pending(Pending { acc, tensor, c0 }))
            }
            (Some(Piece::Pending(mut l)), Some((t, tensor))) => {
                e.add_assign(&mut l.acc, &t)?;
                l.tensor |= tensor;
                Some(Piece::Pending(l))
            }
        })
    }

    /// A pending piece at its target: relinearised when a tensor, rescaled once (both in one
    /// step, [`Evaluator::relinearize_rescale`]), plus c_0.
    pub(super) fn finish(&self, p: Pending<E::Scalar, E::Ciphertext>) -> Result<E::Ciphertext> {
        let e = self.e;
        let mut out = if p.tensor {
            e.relinearize_rescale(p.acc, self.rlk)?
        } else {
            e.rescale(&p.acc)?
        };
        if p.c0 != E::Scalar::default() {
            e.add_const_assign(&mut out, p.c0)?;
        }
        Ok(out)
    }

    /// Whether every baby step with a non-zero coefficient sits at `level` + r or above.
    fn leaf_fits(&self, c: &[E::Scalar], level: usize) -> Result<bool> {
        let from = level + self.e.rescale_levels();
        for (i, ci) in c.iter().enumerate().skip(1) {
            if *ci != E::Scalar::default() && self.basis.level_of(i)? < from {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// sum_i c_i B_i pending for (`level`, `scale`): one constant product per term at level + r onto
    /// scale q_(level + r) `scale`, summed (one rescale for the sum, then c_0, in [`Self::finish`]).
    fn leaf(
        &mut self,
        c: &[E::Scalar],
        level: usize,
        scale: f64,
    ) -> Result<Piece<E::Scalar, E::Ciphertext>> {
        let e = self.e;
        let from = level + e.rescale_levels();
        let product_scale = scale * e.rescale_factor(from)?;
        let mut acc: Option<E::Ciphertext> = None;
        for (i, ci) in c.iter().enumerate().skip(1) {
            if *ci == E::Scalar::default() {
                continue;
            }
            let bi = self.basis.get(i)?;
            match acc.as_mut() {
                None => {
                    acc =
                        Some(e.mul_const_to_scale(&e.drop_level(bi, from)?, *ci, product_scale)?)
                }
                Some(a) => e.mul_const_add(a, bi, *ci)?,
            }
        }
        let acc = acc.ok_or_else(|| Error::Internal("leaf without a term".into()))?;
        Ok(Piece::Pending(Pending {
            acc,
            tensor: false,
            c0: c[0],
        }))
    }
}
