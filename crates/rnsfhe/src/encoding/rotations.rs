//! Many row rotations of one BFV or BGV ciphertext from one decomposition (`rlwe::hoisted`), and
//! weighted sums of them with one ModDown (double hoisting, Bossuat et al., Eurocrypt 2021,
//! section 3.2). The schemes supply their bookkeeping through `IntegerRotations`; the public
//! methods come from `hoisted_rotation_methods`.

use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::{Poly, RingContext};

use crate::rlwe::hoisted::{Hoisted, Weight};
use crate::rlwe::noise::Bound;
use crate::rlwe::{GaloisKeys, KeySwitcher};
use crate::{Error, Result};

/// The weights of a BFV or BGV sum of rotations, one per step: integers (taken mod t, lifted
/// centred) or plaintexts (slot-wise products, e.g. batch-encoded vectors).
#[derive(Clone, Copy, Debug)]
pub enum IntegerWeights<'a, P> {
    /// One integer per step, the same in every slot.
    Scalars(&'a [i64]),
    /// One plaintext per step.
    Plaintexts(&'a [P]),
}

/// What BFV and BGV supply to hoisted rotations (and to `circuits::lintrans`).
pub(crate) trait IntegerRotations {
    type Ct: Clone;
    type Pt;
    /// Checks the ciphertext and decomposes its c_1 (BGV: t^-1 c_1).
    fn hoist<'a>(&'a self, a: &'a Self::Ct, keys: &'a GaloisKeys) -> Result<Hoisted<'a>>;
    /// The plaintext modulus t.
    fn plain_modulus(&self) -> &Modulus;
    /// The centred coefficients of a plaintext of this context.
    fn plain_coefficients<'p>(&self, m: &'p Self::Pt) -> Result<&'p [u64]>;
    /// The noise bound `noise` after one key switch.
    fn switched_noise(&self, noise: Option<Bound>) -> Option<Bound>;
    /// The noise bound of a product by m.
    fn plain_noise(&self, noise: Option<Bound>, m: &Self::Pt) -> Option<Bound>;
    /// The noise bound a ciphertext carries.
    fn noise_of(a: &Self::Ct) -> Option<Bound>;
    /// The ciphertext of `a`'s level and key pair with `parts` and noise bound `noise`.
    fn with_parts(&self, a: &Self::Ct, parts: Vec<Poly>, noise: Option<Bound>) -> Self::Ct;
    /// The Galois element of a row rotation by `step`.
    fn row_element(&self, step: i64) -> u64;
    /// The key switcher of the Galois keys.
    fn switcher(&self) -> &KeySwitcher;
    /// The level a ciphertext is at (BFV: the one level, the top).
    fn level_of(&self, a: &Self::Ct) -> usize;
    /// The top level.
    fn top_level(&self) -> usize;
    /// Batch-encodes n slot values in [0, t).
    fn encode_slots(&self, values: &[u64]) -> Result<Self::Pt>;
    /// a * m (the scheme's plaintext product).
    fn mul_plain_ct(&self, a: &Self::Ct, m: &Self::Pt) -> Result<Self::Ct>;
    /// a + b.
    fn add_ct(&self, a: &Self::Ct, b: &Self::Ct) -> Result<Self::Ct>;
    /// A row rotation by `step`.
    fn rotate_ct(&self, a: &Self::Ct, step: i64, keys: &GaloisKeys) -> Result<Self::Ct>;

    /// [m]_t lifted centred to `ring` (Q_l u P of hoisting), NTT form.
    fn lift_to(&self, m: &Self::Pt, ring: &std::sync::Arc<RingContext>) -> Result<Poly> {
        let t = self.plain_modulus();
        let centred: Vec<i64> = self
            .plain_coefficients(m)?
            .iter()
            .map(|&c| t.center(c))
            .collect();
        let mut p = Poly::from_signed(ring, &centred)?;
        p.to_ntt()?;
        Ok(p)
    }
}

/// The Galois elements of `steps`, each key checked before any work (the error names the step).
pub(crate) fn elements<R: IntegerRotations>(
    ctx: &R,
    steps: &[i64],
    keys: &GaloisKeys,
    level: usize,
) -> Result<Vec<u64>> {
    steps
        .iter()
        .map(|&s| {
            let g = ctx.row_element(s);
            keys.require(g, Some(s), level).map(|()| g)
        })
        .collect()
}

/// One ciphertext per step: the row rotations of `a`, from one decomposition.
pub(crate) fn rotate_many<R: IntegerRotations>(
    ctx: &R,
    a: &R::Ct,
    steps: &[i64],
    keys: &GaloisKeys,
) -> Result<Vec<R::Ct>> {
    let h = ctx.hoist(a, keys)?;
    let els = elements(ctx, steps, keys, h.level())?;
    els.iter()
        .map(|&g| {
            let noise = if g == 1 {
                R::noise_of(a)
            } else {
                ctx.switched_noise(R::noise_of(a))
            };
            Ok(ctx.with_parts(a, h.rotate(g)?, noise))
        })
        .collect()
}

/// sum_i w_i rot_{steps[i]}(a) with one ModDown (weights `None`: all 1).
pub(crate) fn sum_rotations<R: IntegerRotations>(
    ctx: &R,
    a: &R::Ct,
    steps: &[i64],
    weights: Option<IntegerWeights<'_, R::Pt>>,
    keys: &GaloisKeys,
) -> Result<R::Ct> {
    if steps.is_empty() {
        return Err(Error::InvalidParameters(
            "sum_rotations needs at least one step".into(),
        ));
    }
    let count = match weights {
        None => steps.len(),
        Some(IntegerWeights::Scalars(w)) => w.len(),
        Some(IntegerWeights::Plaintexts(w)) => w.len(),
    };
    if count != steps.len() {
        return Err(Error::LengthMismatch {
            what: "sum_rotations weights (one per step)",
            expected: steps.len(),
            got: count,
        });
    }
    let h = ctx.hoist(a, keys)?;
    let els = elements(ctx, steps, keys, h.level())?;
    let t = ctx.plain_modulus();
    let lifted: Vec<Poly> = match weights {
        Some(IntegerWeights::Plaintexts(w)) => {
            let ring = h.ring_qp()?;
            w.iter()
                .map(|m| ctx.lift_to(m, ring))
                .collect::<Result<_>>()?
        }
        _ => Vec::new(),
    };
    let mut noise: Option<Option<Bound>> = None;
    let mut terms = Vec::with_capacity(steps.len());
    for (i, &g) in els.iter().enumerate() {
        let base = if g == 1 {
            R::noise_of(a)
        } else {
            ctx.switched_noise(R::noise_of(a))
        };
        let (w, n) = match weights {
            None => (Weight::One, base),
            Some(IntegerWeights::Scalars(w)) => {
                let c = t.center(t.reduce_i64(w[i]));
                let n = crate::rlwe::noise::scale(base, c.unsigned_abs() as f64);
                (Weight::Integer(c), n)
            }
            Some(IntegerWeights::Plaintexts(w)) => {
                (Weight::Plain(&lifted[i]), ctx.plain_noise(base, &w[i]))
            }
        };
        noise = Some(match noise {
            None => n,
            Some(acc) => crate::rlwe::noise::add(acc, n),
        });
        terms.push((g, w));
    }
    let parts = h.sum(&terms)?;
    Ok(ctx.with_parts(a, parts, noise.flatten()))
}

/// The [`IntegerRotations`] items BFV and BGV share (forwards to their own methods), inside an
/// `impl IntegerRotations for` block of a context with ciphertext `$ct` and plaintext `$pt`.
macro_rules! integer_rotation_forwards {
    ($ct:ty, $pt:ty) => {
        type Ct = $ct;
        type Pt = $pt;
        fn plain_modulus(&self) -> &rnsfhe_math::arith::Modulus {
            self.t()
        }
        fn plain_coefficients<'p>(&self, m: &'p $pt) -> $crate::Result<&'p [u64]> {
            self.check_plain(m)?;
            Ok(&m.coeffs)
        }
        fn switched_noise(
            &self,
            noise: Option<$crate::rlwe::noise::Bound>,
        ) -> Option<$crate::rlwe::noise::Bound> {
            self.noise.key_switch(noise)
        }
        fn noise_of(a: &$ct) -> Option<$crate::rlwe::noise::Bound> {
            a.noise
        }
        fn row_element(&self, step: i64) -> u64 {
            self.galois_element(step)
        }
        fn switcher(&self) -> &$crate::rlwe::KeySwitcher {
            self.key_switcher()
        }
        fn encode_slots(&self, values: &[u64]) -> $crate::Result<$pt> {
            self.encode(values)
        }
        fn mul_plain_ct(&self, a: &$ct, m: &$pt) -> $crate::Result<$ct> {
            self.mul_plain(a, m)
        }
        fn add_ct(&self, a: &$ct, b: &$ct) -> $crate::Result<$ct> {
            self.add(a, b)
        }
        fn rotate_ct(
            &self,
            a: &$ct,
            step: i64,
            keys: &$crate::rlwe::GaloisKeys,
        ) -> $crate::Result<$ct> {
            self.rotate_rows(a, step, keys)
        }
    };
}
pub(crate) use integer_rotation_forwards;

/// The hoisted rotation methods of a BFV or BGV context `$ctx` (ciphertext `$ct`, plaintext `$pt`)
/// over its [`IntegerRotations`] implementation.
macro_rules! hoisted_rotation_methods {
    ($ctx:ty, $ct:ty, $pt:ty) => {
        impl $ctx {
            /// The row rotations of `a` by every step (one ciphertext per step; step 0 gives a
            /// copy), from one decomposition of c_1 (hoisting, Halevi and Shoup 2018): each is the
            /// same bits as [`Self::rotate_rows`] by that step. Errors: a missing Galois key names
            /// the step; a 3-part ciphertext or keys of another context are refused.
            pub fn rotate_many(
                &self,
                a: &$ct,
                steps: &[i64],
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<Vec<$ct>> {
                self.refuse_general("rotate_many")?;
                $crate::encoding::rotations::rotate_many(self, a, steps, keys)
            }

            /// sum_i w_i rot_{steps\[i]}(a) (row rotations; `weights` `None`: every w_i = 1) with one
            /// decomposition of c_1 and one ModDown for the whole sum (double hoisting, Bossuat et
            /// al., Eurocrypt 2021). Integer weights are taken mod t and lifted centred; plaintext
            /// weights multiply slot-wise. The level is kept (BGV). Same errors as
            /// [`Self::rotate_many`], and `LengthMismatch` for a weight count other than the step
            /// count.
            pub fn sum_rotations(
                &self,
                a: &$ct,
                steps: &[i64],
                weights: Option<$crate::encoding::rotations::IntegerWeights<'_, $pt>>,
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<$ct> {
                self.refuse_general("sum_rotations")?;
                $crate::encoding::rotations::sum_rotations(self, a, steps, weights, keys)
            }
        }
    };
}
pub(crate) use hoisted_rotation_methods;
