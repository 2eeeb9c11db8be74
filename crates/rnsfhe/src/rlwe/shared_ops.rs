//! Scheme-neutral evaluation (Lattigo's `rlwe.Evaluator` under its `bgv` and `ckks`): a +- b and -a
//! written once for BFV, BGV and CKKS ciphertexts. Each scheme keeps its own checks (levels,
//! scales) and bookkeeping (noise bounds, slot counts, seeds) through [`Evaluate`]; relinearisation
//! and Galois automorphisms are shared through [`super::RelinKey`] and [`super::GaloisKeys`].

use rnsfhe_math::ring::Poly;

use super::{add_parts, sum_parts, KeyId};
use crate::Result;

/// What a scheme supplies to the shared evaluation.
pub(crate) trait Evaluate {
    /// The scheme's ciphertext.
    type Ct;
    /// Its parts (c_0, c_1, ...).
    fn parts(ct: &Self::Ct) -> &[Poly];
    /// Its parts, mutable.
    fn parts_mut(ct: &mut Self::Ct) -> &mut Vec<Poly>;
    /// Checks one operand (context, shape).
    fn check_one(&self, ct: &Self::Ct) -> Result<()>;
    /// Checks the operands of a sum (the scheme's level and scale rules) and returns their key pair.
    fn check_sum(&self, a: &Self::Ct, b: &Self::Ct, op: &str) -> Result<Option<KeyId>>;
    /// Brings the operands of a sum to one level where the scheme manages levels itself (BGV's
    /// `ModulusSwitching::Auto`): `a` lowered in place, or `Some` lowered copy of `b`. Default: none.
    fn align_sum(&self, _a: &mut Self::Ct, _b: &Self::Ct) -> Result<Option<Self::Ct>> {
        Ok(None)
    }
    /// Whether [`Evaluate::align_sum`] would change the operands of a sum (then the out-of-place
    /// sum goes through a copy of `a`). Default: never.
    fn needs_alignment(&self, _a: &Self::Ct, _b: &Self::Ct) -> bool {
        false
    }
    /// The bookkeeping of a = a +- b (key pair, noise, slots, seed).
    fn record_sum(&self, a: &mut Self::Ct, b: &Self::Ct, key: Option<KeyId>);
    /// A ciphertext with `a`'s bookkeeping and these parts (no seed): the fresh output of a + b.
    fn with_parts(a: &Self::Ct, parts: Vec<Poly>) -> Self::Ct;
    /// The bookkeeping of a = -a.
    fn record_negate(&self, _a: &mut Self::Ct) {}
}

/// a += b (or a -= b), part by part, for ciphertexts of any sizes.
pub(crate) fn add_assign<E: Evaluate>(
    e: &E,
    a: &mut E::Ct,
    b: &E::Ct,
    subtract: bool,
) -> Result<()> {
    let lowered = e.align_sum(a, b)?;
    let b = lowered.as_ref().unwrap_or(b);
    let key = e.check_sum(a, b, if subtract { "sub" } else { "add" })?;
    e.record_sum(a, b, key);
    add_parts(E::parts_mut(a), E::parts(b), subtract)
}

/// a + b (or a - b) into fresh parts, each written once (no copy of a first): the same ciphertext
/// as [`add_assign`] on a copy of a.
pub(crate) fn sum<E: Evaluate>(e: &E, a: &E::Ct, b: &E::Ct, subtract: bool) -> Result<E::Ct>
where
    E::Ct: Clone,
{
    if e.needs_alignment(a, b) {
        let mut r = a.clone();
        add_assign(e, &mut r, b, subtract)?;
        return Ok(r);
    }
    let key = e.check_sum(a, b, if subtract { "sub" } else { "add" })?;
    let mut r = E::with_parts(a, sum_parts(E::parts(a), E::parts(b), subtract)?);
    e.record_sum(&mut r, b, key);
    Ok(r)
}

/// a = -a.
pub(crate) fn negate_assign<E: Evaluate>(e: &E, a: &mut E::Ct) -> Result<()> {
    e.check_one(a)?;
    e.record_negate(a);
    E::parts_mut(a).iter_mut().for_each(Poly::neg_assign);
    Ok(())
}

/// Every slot of a batched ciphertext (BFV, BGV) set to the sum of all n slots: row rotations by
/// 1, 2, 4, ... below n / 2, then the row swap, each added.
pub(crate) fn sum_slots<E: Evaluate>(
    e: &E,
    a: &E::Ct,
    n: usize,
    rotate_rows: impl Fn(&E::Ct, i64) -> Result<E::Ct>,
    rotate_columns: impl Fn(&E::Ct) -> Result<E::Ct>,
) -> Result<E::Ct>
where
    E::Ct: Clone,
{
    let mut acc = a.clone();
    let mut step = 1usize;
    while step < n / 2 {
        let r = rotate_rows(&acc, step as i64)?;
        add_assign(e, &mut acc, &r, false)?;
        step *= 2;
    }
    let r = rotate_columns(&acc)?;
    add_assign(e, &mut acc, &r, false)?;
    Ok(acc)
}

/// The public add / sub / negate methods of a scheme context `$ctx` with ciphertext `$ct`, through
/// the context's [`Evaluate`] implementation.
macro_rules! evaluation_methods {
    ($ctx:ty, $ct:ty) => {
        impl $ctx {
            /// a += b (any sizes; the result has the larger size).
            pub fn add_assign(&self, a: &mut $ct, b: &$ct) -> $crate::Result<()> {
                $crate::rlwe::shared_ops::add_assign(self, a, b, false)
            }

            /// a + b.
            pub fn add(&self, a: &$ct, b: &$ct) -> $crate::Result<$ct> {
                $crate::rlwe::shared_ops::sum(self, a, b, false)
            }

            /// a -= b.
            pub fn sub_assign(&self, a: &mut $ct, b: &$ct) -> $crate::Result<()> {
                $crate::rlwe::shared_ops::add_assign(self, a, b, true)
            }

            /// a - b.
            pub fn sub(&self, a: &$ct, b: &$ct) -> $crate::Result<$ct> {
                $crate::rlwe::shared_ops::sum(self, a, b, true)
            }

            /// a = -a.
            pub fn negate_assign(&self, a: &mut $ct) -> $crate::Result<()> {
                $crate::rlwe::shared_ops::negate_assign(self, a)
            }

            /// -a.
            pub fn negate(&self, a: &$ct) -> $crate::Result<$ct> {
                let mut r = a.clone();
                self.negate_assign(&mut r)?;
                Ok(r)
            }
        }
    };
}
pub(crate) use evaluation_methods;
