//! One evaluator for every scheme (Lattigo v6's `schemes.Evaluator` is the anchor): the operations
//! that circuits are written with, over [`Evaluator`], implemented by [`CkksContext`],
//! [`BgvContext`], [`BfvContext`] and [`HprContext`].
//!
//! The trait is the scheme-neutral vocabulary of `crate::circuits`: sums, products (tensor, then
//! relinearisation, then a separate rescale, as Lattigo's `MulRelin` and `Rescale`), products by
//! constants and slot vectors that land on a chosen scale, levels and scales. It is written in the
//! explicit ("manual") mode of each scheme, so that a circuit decides every level it spends:
//!
//! | operation | CKKS | BGV | BFV, HPR |
//! |---|---|---|---|
//! | [`Evaluator::rescale`] | divide by q_l (RS) | modulus switch (scale stays 1) | nothing |
//! | [`Evaluator::drop_level`] | drop primes, scale kept | modulus switches | level 0 only |
//! | [`Evaluator::mul`] | tensor, one level | tensor, one level (no automatic switch) | tensor |
//! | [`Evaluator::scale`] | the tracked scale | 1 | 1 |
//! | [`Evaluator::Scalar`] | [`Complex`] | `i64` mod t | `i64` mod t |
//!
//! The schemes' own methods stay as they are (`ctx.add(&a, &b)`, `ctx.multiply_rescale`, the
//! operators' automatic forms); the trait's methods delegate to them. Where an inherent method has
//! the same name (`add`, `rescale`, `mul_plain`, ...) a call on a context resolves to the inherent
//! one; generic code (`E: Evaluator`) calls the trait's.
//!
//! Many rotations of one ciphertext, [`Evaluator::rotate_many`] and [`Evaluator::sum_rotations`],
//! are provided methods: the default is one [`Evaluator::rotate`] per step ([`rotations`], which HPR
//! uses), and CKKS, BGV and BFV override them with their hoisted methods (one decomposition of c_1
//! for all the steps, one ModDown for a sum: `CkksContext::rotate_many`, `BgvContext::sum_rotations`,
//! ...), so that implementors and callers of the other methods are unaffected. A weighted sum keeps
//! the level and scale on the integer schemes and spends one rescale on CKKS (see
//! [`Evaluator::sum_rotations`]).
//!
//! What HPR leaves out: [`Evaluator::mul_values_to_scale`] (its context has no slot encoder), and
//! rotations act on its coefficients through the Galois elements of the X^n + 1 batch layout.
//!
//! [`CkksContext`]: crate::ckks::CkksContext
//! [`BgvContext`]: crate::bgv::BgvContext
//! [`BfvContext`]: crate::bfv::BfvContext
//! [`HprContext`]: crate::hpr::HprContext
//! [`Complex`]: crate::ckks::Complex

mod bfv;
mod bgv;
mod ckks;
mod hpr;
pub(crate) mod integer;
pub mod refresh;
pub mod rotations;

pub use refresh::{Levels, Refresh};

use crate::{Error, Result};

/// Relative difference up to which two scales count as one (the f64 bookkeeping of a few products
/// and quotients; CKKS's `SCALE_TOLERANCE`).
pub const SCALE_TOLERANCE: f64 = crate::ckks::SCALE_TOLERANCE;

/// Whether two scales are one within [`SCALE_TOLERANCE`].
pub fn same_scale(a: f64, b: f64) -> bool {
    crate::ckks::same_scale(a, b)
}

/// The operations a circuit is written with, for every scheme (see the module doc for what each
/// means per scheme). All take `&self` and return a `Result`; no method panics on user input.
pub trait Evaluator {
    /// The scheme's ciphertext.
    type Ciphertext: Clone;
    /// The scheme's plaintext.
    type Plaintext;
    /// A constant: a complex number for CKKS, an integer taken modulo t for BGV, BFV and HPR.
    type Scalar: Copy + PartialEq + Default + core::fmt::Debug;
    /// The relinearisation key.
    type RelinKey;
    /// The Galois (rotation) keys.
    type GaloisKeys;

    // ---- queries ----

    /// The top level L (0 for BFV and HPR, which have no levels).
    fn max_level(&self) -> usize;
    /// The number of slots of a plaintext vector (CKKS N/2; BGV/BFV the batching slots, 0 when t
    /// does not batch; HPR the n coefficients).
    fn slots(&self) -> usize;
    /// The level of a ciphertext.
    fn level(&self, ct: &Self::Ciphertext) -> usize;
    /// The scale of a ciphertext (1 for BGV, BFV and HPR).
    fn scale(&self, ct: &Self::Ciphertext) -> f64;
    /// The scale the scheme gives fresh ciphertexts and its automatic forms keep at `level` (CKKS:
    /// the chain's Delta_level; 1 otherwise).
    fn default_scale(&self, level: usize) -> Result<f64>;
    /// The levels one [`Self::rescale`] consumes: 1 for CKKS and BGV, 0 for BFV and HPR.
    fn rescale_levels(&self) -> usize;
    /// The factor a rescale from `level` divides the scale by (CKKS: q_level; 1 otherwise).
    fn rescale_factor(&self, level: usize) -> Result<f64>;

    // ---- constants ----

    /// `c` in the canonical form the scheme computes with: integers reduced to (-t/2, t/2];
    /// CKKS refuses a non-finite constant (`OutOfRange`).
    fn reduce_scalar(&self, c: Self::Scalar) -> Result<Self::Scalar>;
    /// The constant `v` (an integer; CKKS: the real v).
    fn scalar_from_int(&self, v: i64) -> Self::Scalar;
    /// The real constant `v`: CKKS takes any finite v; the integer schemes only an integer
    /// (`InvalidParameters` otherwise).
    fn scalar_from_real(&self, v: f64) -> Result<Self::Scalar>;
    /// a + k b, reduced (mod t for the integer schemes).
    fn scalar_mul_add(&self, a: Self::Scalar, k: i64, b: Self::Scalar) -> Self::Scalar;

    // ---- sums ----

    /// a += b (same level and, for CKKS, the same scale).
    fn add_assign(&self, a: &mut Self::Ciphertext, b: &Self::Ciphertext) -> Result<()>;
    /// a -= b.
    fn sub_assign(&self, a: &mut Self::Ciphertext, b: &Self::Ciphertext) -> Result<()>;
    /// a = -a.
    fn negate_assign(&self, a: &mut Self::Ciphertext) -> Result<()>;
    /// a + b.
    fn add(&self, a: &Self::Ciphertext, b: &Self::Ciphertext) -> Result<Self::Ciphertext> {
        let mut r = a.clone();
        self.add_assign(&mut r, b)?;
        Ok(r)
    }
    /// a - b.
    fn sub(&self, a: &Self::Ciphertext, b: &Self::Ciphertext) -> Result<Self::Ciphertext> {
        let mut r = a.clone();
        self.sub_assign(&mut r, b)?;
        Ok(r)
    }
    /// -a.
    fn negate(&self, a: &Self::Ciphertext) -> Result<Self::Ciphertext> {
        let mut r = a.clone();
        self.negate_assign(&mut r)?;
        Ok(r)
    }
    /// a + c in every slot (CKKS: encoded at a's scale).
    fn add_const(&self, a: &Self::Ciphertext, c: Self::Scalar) -> Result<Self::Ciphertext>;
    /// a += c in every slot: [`Self::add_const`] in place (CKKS: without a copy of `a`; default:
    /// through [`Self::add_const`]).
    fn add_const_assign(&self, a: &mut Self::Ciphertext, c: Self::Scalar) -> Result<()> {
        *a = self.add_const(a, c)?;
        Ok(())
    }
    /// a += a: the bits of [`Self::add_assign`] of a copy of `a` (the default), in place (CKKS).
    fn double_assign(&self, a: &mut Self::Ciphertext) -> Result<()> {
        let b = a.clone();
        self.add_assign(a, &b)
    }
    /// a + m for a plaintext at a's level and scale.
    fn add_plain(&self, a: &Self::Ciphertext, m: &Self::Plaintext) -> Result<Self::Ciphertext>;

    // ---- products ----

    /// The tensor product of two 2-part ciphertexts at one level (3 parts; scales multiply; not
    /// relinearised, not rescaled).
    fn mul(&self, a: &Self::Ciphertext, b: &Self::Ciphertext) -> Result<Self::Ciphertext>;
    /// [`Self::mul`] at `level`, for `a` and `b` at `level` or above: the bits of
    /// [`Self::drop_level`] of both, then [`Self::mul`] (the default); CKKS reads the first limbs of
    /// each operand where they are, without the copies.
    fn mul_at(
        &self,
        a: &Self::Ciphertext,
        b: &Self::Ciphertext,
        level: usize,
    ) -> Result<Self::Ciphertext> {
        self.mul(&self.drop_level(a, level)?, &self.drop_level(b, level)?)
    }
    /// Relinearisation of a 3-part ciphertext (a 2-part one is returned as it is).
    fn relinearize(&self, a: &Self::Ciphertext, rlk: &Self::RelinKey) -> Result<Self::Ciphertext>;
    /// [`Self::relinearize`] of a ciphertext the caller gives up (in place where the scheme can:
    /// CKKS; default: a copy).
    fn relinearize_owned(
        &self,
        a: Self::Ciphertext,
        rlk: &Self::RelinKey,
    ) -> Result<Self::Ciphertext> {
        self.relinearize(&a, rlk)
    }
    /// [`Self::relinearize_owned`] then [`Self::rescale`] (the default); CKKS divides by P (the
    /// key switch's ModDown) and by q_l (the rescale) in one step, with one rounding
    /// (`CkksContext::relinearize_rescale`).
    fn relinearize_rescale(
        &self,
        a: Self::Ciphertext,
        rlk: &Self::RelinKey,
    ) -> Result<Self::Ciphertext> {
        self.rescale(&self.relinearize_owned(a, rlk)?)
    }
    /// a * b relinearised, not rescaled (Lattigo's `MulRelin`).
    fn mul_relin(
        &self,
        a: &Self::Ciphertext,
        b: &Self::Ciphertext,
        rlk: &Self::RelinKey,
    ) -> Result<Self::Ciphertext> {
        self.relinearize_owned(self.mul(a, b)?, rlk)
    }
    /// One rescale (CKKS RS by q_l, BGV modulus switch, nothing for BFV and HPR): the level goes
    /// down by [`Self::rescale_levels`], the scale is divided by [`Self::rescale_factor`].
    fn rescale(&self, a: &Self::Ciphertext) -> Result<Self::Ciphertext>;
    /// The same values and scale at a lower `level` (CKKS drops primes; BGV switches the modulus,
    /// which keeps the message; BFV and HPR: level 0 only).
    fn drop_level(&self, a: &Self::Ciphertext, level: usize) -> Result<Self::Ciphertext>;
    /// a * m for a plaintext at a's level (scales multiply; not rescaled).
    fn mul_plain(&self, a: &Self::Ciphertext, m: &Self::Plaintext) -> Result<Self::Ciphertext>;
    /// a * c, not rescaled, with the constant encoded so that the product's scale is exactly `scale`
    /// (CKKS: c round(scale / scale(a)) as an integer, complex through X^(N/2); the integer schemes
    /// accept only `scale` 1).
    fn mul_const_to_scale(
        &self,
        a: &Self::Ciphertext,
        c: Self::Scalar,
        scale: f64,
    ) -> Result<Self::Ciphertext>;
    /// acc += a c for `a` at acc's level or above (its primes beyond acc's level ignored), the
    /// constant encoded as [`Self::mul_const_to_scale`] encodes it onto acc's scale: a term of a
    /// linear combination (the leaves of [`crate::circuits::poly`]). Default: `drop_level`,
    /// `mul_const_to_scale` and `add_assign`; CKKS does it limb by limb without copying `a`, with
    /// the same bits.
    fn mul_const_add(
        &self,
        acc: &mut Self::Ciphertext,
        a: &Self::Ciphertext,
        c: Self::Scalar,
    ) -> Result<()> {
        let a = self.drop_level(a, self.level(acc))?;
        let term = self.mul_const_to_scale(&a, c, self.scale(acc))?;
        self.add_assign(acc, &term)
    }
    /// a times `values` slot by slot, not rescaled, the vector encoded so that the product's scale
    /// is exactly `scale` (as [`Self::mul_const_to_scale`]).
    fn mul_values_to_scale(
        &self,
        a: &Self::Ciphertext,
        values: &[Self::Scalar],
        scale: f64,
    ) -> Result<Self::Ciphertext>;
    /// a * c, then one rescale that lands exactly on `target` (CKKS: the constant chosen for the
    /// prime the rescale removes, as `CkksContext::mul_const_rescale_to`).
    fn mul_const_rescale_to(
        &self,
        a: &Self::Ciphertext,
        c: Self::Scalar,
        target: f64,
    ) -> Result<Self::Ciphertext> {
        let f = self.rescale_factor(self.level(a))?;
        let r = self.rescale(&self.mul_const_to_scale(a, c, target * f)?)?;
        self.check_landed(&r, target, "mul_const_rescale_to")?;
        Ok(r)
    }
    /// a times `values`, then one rescale that lands exactly on `target`.
    fn mul_values_rescale_to(
        &self,
        a: &Self::Ciphertext,
        values: &[Self::Scalar],
        target: f64,
    ) -> Result<Self::Ciphertext> {
        let f = self.rescale_factor(self.level(a))?;
        let r = self.rescale(&self.mul_values_to_scale(a, values, target * f)?)?;
        self.check_landed(&r, target, "mul_values_rescale_to")?;
        Ok(r)
    }
    /// Fails with `Internal` when a result meant to land on `target` did not (a bookkeeping bug).
    fn check_landed(&self, r: &Self::Ciphertext, target: f64, op: &str) -> Result<()> {
        if same_scale(self.scale(r), target) {
            Ok(())
        } else {
            Err(Error::Internal(format!(
                "{op}: landed on scale {:e}, not on {target:e}",
                self.scale(r)
            )))
        }
    }
    /// `a` at exactly (`level`, `scale`): itself when it is there already, else dropped to
    /// `level` + [`Self::rescale_levels`] and multiplied by 1 onto `scale` with one rescale (the
    /// level spent is one the drop gives up anyway). Errors: `InvalidParameters` when `a` is not
    /// that far above `level`.
    fn lower_onto(
        &self,
        a: &Self::Ciphertext,
        level: usize,
        scale: f64,
    ) -> Result<Self::Ciphertext> {
        let have = self.level(a);
        if have == level && same_scale(self.scale(a), scale) {
            return Ok(a.clone());
        }
        let from = level + self.rescale_levels();
        if have < from {
            return Err(Error::InvalidParameters(format!(
                "lower_onto: a ciphertext at level {have} cannot be brought onto level {level} at \
                 another scale (that needs level {from})"
            )));
        }
        let one = self.scalar_from_int(1);
        self.mul_const_rescale_to(&self.drop_level(a, from)?, one, scale)
    }

    // ---- automorphisms ----

    /// Rotates the slots left by `step` (right when negative; BGV/BFV: both rows of the 2 x n/2
    /// matrix).
    fn rotate(
        &self,
        a: &Self::Ciphertext,
        step: i64,
        keys: &Self::GaloisKeys,
    ) -> Result<Self::Ciphertext>;
    /// X -> X^(2N-1): CKKS conjugates every slot; BGV/BFV swap the two rows of the slot matrix.
    fn conjugate(&self, a: &Self::Ciphertext, keys: &Self::GaloisKeys) -> Result<Self::Ciphertext>;

    /// The rotations of `a` left by every step (one ciphertext per step, at `a`'s level and scale;
    /// step 0 gives a copy). Default: one [`Self::rotate`] per step
    /// ([`rotations::rotate_many_separately`]); CKKS, BGV and BFV decompose c_1 once for all the
    /// steps (hoisting, Halevi and Shoup, CRYPTO 2018, section 5), with the same decryption.
    fn rotate_many(
        &self,
        a: &Self::Ciphertext,
        steps: &[i64],
        keys: &Self::GaloisKeys,
    ) -> Result<Vec<Self::Ciphertext>> {
        rotations::rotate_many_separately(self, a, steps, keys)
    }

    /// `sum_i w_i rot_{steps[i]}(a)`, every w_i = 1 for `weights` `None`. Default: separate rotations,
    /// products by constants and sums ([`rotations::sum_rotations_separately`]); CKKS, BGV and BFV
    /// decompose c_1 once and ModDown once for the whole sum (double hoisting, Bossuat et al.,
    /// Eurocrypt 2021, section 3.2).
    ///
    /// Levels and scales (the schemes' inherent `sum_rotations`):
    /// - without weights, `a`'s level and scale;
    /// - with weights, CKKS spends one level and lands exactly on the chain's scale there,
    ///   [`Self::default_scale`](l - 1) (each weight encoded at Delta_{l-1} q_l / scale(a), one
    ///   rescale by q_l for the sum, as [`Self::mul_const_rescale_to`]);
    /// - with weights, BGV, BFV and HPR keep the level and the scale 1 (weights are integers mod t,
    ///   exact).
    ///
    /// Errors: `InvalidParameters` for no steps, or for weights on a CKKS ciphertext at level 0;
    /// `LengthMismatch` for a weight count other than the step count; a missing Galois key.
    fn sum_rotations(
        &self,
        a: &Self::Ciphertext,
        steps: &[i64],
        weights: Option<&[Self::Scalar]>,
        keys: &Self::GaloisKeys,
    ) -> Result<Self::Ciphertext> {
        rotations::sum_rotations_separately(self, a, steps, weights, keys)
    }
}
