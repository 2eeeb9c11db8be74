//! BFV and BGV linear transforms of the 2 x n/2 slot matrix over Z_t: row rotations act on both rows,
//! so diagonal k (k < n/2) holds n values, the first n/2 for row 0 and the others for row 1, and
//! each row r gets y_r[t] = sum_k diag_k[r n/2 + t] x_r[(t + k) mod n/2]. The scheme's bookkeeping
//! comes from `encoding::rotations::IntegerRotations`.

use std::collections::{BTreeMap, BTreeSet};

use super::bsgs::{self, BsgsSplit, Encoded};
use super::storage::Diagonal;
use super::Diagonals;
use crate::encoding::rotations::IntegerRotations;
use crate::rlwe::noise::{add, Bound};
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// A BFV or BGV linear transform y = M x for ciphertexts at one level (BFV: its only one), `P` the
/// scheme's plaintext ([`BfvLinearTransform`], [`BgvLinearTransform`]). Built with `new` /
/// `at_level` and applied with `apply` / `apply_naive`; the output has the input's level.
#[derive(Clone, Debug)]
pub struct IntegerLinearTransform<P> {
    level: usize,
    split: BsgsSplit,
    encoded: Encoded,
    /// The diagonals (apply_naive) and the pre-rotated ones (noise bound), as plaintexts.
    plains: BTreeMap<usize, P>,
    rotated: Vec<P>,
}

impl<P> IntegerLinearTransform<P> {
    /// The level of the inputs and output.
    pub fn level(&self) -> usize {
        self.level
    }
    /// The BSGS split.
    pub fn split(&self) -> &BsgsSplit {
        &self.split
    }
    /// The row-rotation steps `apply` needs Galois keys for.
    pub fn rotation_steps(&self) -> Vec<i64> {
        self.split.rotation_steps()
    }
    /// The row-rotation steps `apply_naive` needs: the non-zero diagonal indices.
    pub fn naive_rotation_steps(&self) -> Vec<i64> {
        self.plains
            .keys()
            .filter(|&&k| k != 0)
            .map(|&k| k as i64)
            .collect()
    }
}

/// A BFV linear transform ([`IntegerLinearTransform`] of BFV plaintexts).
pub type BfvLinearTransform = IntegerLinearTransform<crate::bfv::BfvPlaintext>;
/// A BGV linear transform ([`IntegerLinearTransform`] of BGV plaintexts).
pub type BgvLinearTransform = IntegerLinearTransform<crate::bgv::BgvPlaintext>;

/// The transform of `diagonals` at `level` (split by [`BsgsSplit::new`] unless `n1` is given).
pub(crate) fn build<R: IntegerRotations>(
    ctx: &R,
    diagonals: &Diagonals<u64>,
    level: usize,
    n1: Option<usize>,
) -> Result<IntegerLinearTransform<R::Pt>> {
    let sw = ctx.switcher();
    if sw.ring_q().kind() != rnsfhe_math::ring::RingKind::PowerOfTwo {
        return Err(Error::InvalidParameters(
            "linear transforms act on the 2 x n/2 slot matrix of X^n + 1 (row rotations); a \
             general Phi_m ring has no such rows"
                .into(),
        ));
    }
    let n = sw.ring_q().degree();
    let half = n / 2;
    if diagonals.is_empty() {
        return Err(Error::InvalidParameters(
            "a linear transform needs at least one diagonal".into(),
        ));
    }
    if level > ctx.top_level() {
        return Err(Error::InvalidParameters(format!(
            "level {level} is above the top level {}",
            ctx.top_level()
        )));
    }
    for (&k, d) in diagonals {
        if k >= half || d.len() != n {
            return Err(Error::LengthMismatch {
                what: "diagonal (index below n/2, n slot values)",
                expected: if k >= half { half } else { n },
                got: if k >= half { k } else { d.len() },
            });
        }
    }
    let set: BTreeSet<usize> = diagonals.keys().copied().collect();
    let split = match n1 {
        Some(n1) if !n1.is_power_of_two() || n1 > half => {
            return Err(Error::InvalidParameters(format!(
                "{n1} baby steps: a power of two up to n/2 = {half}"
            )))
        }
        Some(n1) => BsgsSplit::with_n1(&set, n1),
        None => BsgsSplit::new(&set, half),
    };
    let ring = sw.ring_qp_at(level)?;
    let mut giants = Vec::with_capacity(split.giants.len());
    let mut rotated = Vec::with_capacity(diagonals.len());
    for (&j, babies) in &split.giants {
        let mut terms = Vec::with_capacity(babies.len());
        for &i in babies {
            let d = &diagonals[&(j + i)];
            // rot_{-j} of each row: slot r n/2 + t holds diag[r n/2 + (t - j) mod n/2].
            let v: Vec<u64> = (0..n)
                .map(|s| {
                    let (r, t) = (s / half, s % half);
                    d[r * half + (t + half - j) % half]
                })
                .collect();
            let pt = ctx.encode_slots(&v)?;
            terms.push((
                ctx.row_element(i as i64),
                Diagonal::Ntt(ctx.lift_to(&pt, ring)?),
            ));
            rotated.push(pt);
        }
        giants.push((ctx.row_element(j as i64), terms));
    }
    let plains = diagonals
        .iter()
        .map(|(&k, d)| Ok((k, ctx.encode_slots(d)?)))
        .collect::<Result<_>>()?;
    Ok(IntegerLinearTransform {
        level,
        split,
        encoded: Encoded { giants },
        plains,
        rotated,
    })
}

fn check_input<R: IntegerRotations>(
    lt: &IntegerLinearTransform<R::Pt>,
    ctx: &R,
    ct: &R::Ct,
) -> Result<()> {
    let level = ctx.level_of(ct);
    if level != lt.level {
        return Err(Error::LevelMismatch {
            op: "linear transform (ciphertext, transform)".into(),
            left: level,
            right: lt.level,
            hint: "build the transform at the ciphertext's level (at_level)".into(),
        });
    }
    Ok(())
}

/// y = M x by hoisted BSGS.
pub(crate) fn apply<R: IntegerRotations>(
    lt: &IntegerLinearTransform<R::Pt>,
    ctx: &R,
    ct: &R::Ct,
    keys: &GaloisKeys,
) -> Result<R::Ct> {
    check_input(lt, ctx, ct)?;
    let h = ctx.hoist(ct, keys)?;
    for s in lt.rotation_steps() {
        keys.require(ctx.row_element(s), Some(s), h.level())?;
    }
    let parts = bsgs::evaluate(&h, &lt.encoded)?;
    // Noise: each term a key switch and a plaintext product, the sum another key switch.
    let base = ctx.switched_noise(R::noise_of(ct));
    let sum = lt
        .rotated
        .iter()
        .map(|p| ctx.plain_noise(base, p))
        .reduce(add)
        .flatten();
    let noise: Option<Bound> = ctx.switched_noise(sum);
    Ok(ctx.with_parts(ct, parts, noise))
}

/// y = sum_k diag_k * rot_k(x), one rotation and one plaintext product per diagonal.
pub(crate) fn apply_naive<R: IntegerRotations>(
    lt: &IntegerLinearTransform<R::Pt>,
    ctx: &R,
    ct: &R::Ct,
    keys: &GaloisKeys,
) -> Result<R::Ct> {
    check_input(lt, ctx, ct)?;
    let mut acc: Option<R::Ct> = None;
    for (&k, p) in &lt.plains {
        let r = ctx.mul_plain_ct(&ctx.rotate_ct(ct, k as i64, keys)?, p)?;
        acc = Some(match acc {
            None => r,
            Some(a) => ctx.add_ct(&a, &r)?,
        });
    }
    acc.ok_or_else(|| Error::InvalidParameters("no diagonals".into()))
}

/// The public constructors and evaluations of [`IntegerLinearTransform`] for a BFV or BGV context.
macro_rules! integer_lintrans_methods {
    ($ctx:ty, $ct:ty, $pt:ty) => {
        impl IntegerLinearTransform<$pt> {
            /// Encodes the diagonals (index k < n/2 -> n slot values in [0, t)) for ciphertexts at
            /// the top level. Errors: `InvalidParameters` for no diagonals, `LengthMismatch` for an
            /// index or a vector of another size.
            pub fn new(ctx: &$ctx, diagonals: &Diagonals<u64>) -> Result<Self> {
                build(ctx, diagonals, ctx.top_level(), None)
            }
            /// [`Self::new`] for ciphertexts at `level`, with `n1` baby steps (a power of two) or the
            /// cheapest split (`None`).
            pub fn at_level(
                ctx: &$ctx,
                diagonals: &Diagonals<u64>,
                level: usize,
                n1: Option<usize>,
            ) -> Result<Self> {
                build(ctx, diagonals, level, n1)
            }
            /// y = M x by hoisted BSGS (keys: [`Self::rotation_steps`]): exact mod t.
            pub fn apply(&self, ctx: &$ctx, ct: &$ct, keys: &GaloisKeys) -> Result<$ct> {
                apply(self, ctx, ct, keys)
            }
            /// y = M x with one rotation and one plaintext product per diagonal (keys:
            /// [`Self::naive_rotation_steps`]).
            pub fn apply_naive(&self, ctx: &$ctx, ct: &$ct, keys: &GaloisKeys) -> Result<$ct> {
                apply_naive(self, ctx, ct, keys)
            }
        }
    };
}

integer_lintrans_methods!(
    crate::bfv::BfvContext,
    crate::bfv::BfvCiphertext,
    crate::bfv::BfvPlaintext
);
integer_lintrans_methods!(
    crate::bgv::BgvContext,
    crate::bgv::BgvCiphertext,
    crate::bgv::BgvPlaintext
);
