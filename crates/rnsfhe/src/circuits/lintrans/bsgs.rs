//! The baby-step giant-step split of a set of diagonals and its hoisted evaluation over Q_l u P,
//! shared by CKKS, BFV and BGV (Halevi and Shoup 2018, section 4.2; Lattigo's
//! `MultiplyByDiagMatrixBSGS`).

use std::collections::{BTreeMap, BTreeSet};

use rnsfhe_math::arith::vector;
use rnsfhe_math::parallel;
use rnsfhe_math::ring::{ntt_automorphism_index, Poly, Representation};

use super::storage::Diagonal;
use crate::rlwe::hoisted::{accumulate, Hoisted};
use crate::{Error, Result};

/// Diagonal k = j n1 + i: giant step j n1, baby step i < n1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BsgsSplit {
    /// The baby-step count n1 (a power of two).
    pub n1: usize,
    /// Giant step j n1 -> its baby steps i.
    pub giants: BTreeMap<usize, Vec<usize>>,
}

impl BsgsSplit {
    /// The split with the fewest rotations (distinct non-zero baby steps plus distinct non-zero giant
    /// steps) over the powers of two n1 <= slots: for d consecutive diagonals about 2 sqrt(d)
    /// rotations at n1 ~ sqrt(d) (the square-root rule); ties go to the larger n1, since a hoisted
    /// baby step costs less than a giant step (which decomposes anew).
    pub fn new(diagonals: &BTreeSet<usize>, slots: usize) -> Self {
        let mut best: Option<(usize, BsgsSplit)> = None;
        let mut n1 = 1;
        while n1 <= slots.max(1) {
            let split = Self::with_n1(diagonals, n1);
            let babies: BTreeSet<usize> = split.giants.values().flatten().copied().collect();
            let cost = babies.iter().filter(|&&i| i != 0).count()
                + split.giants.keys().filter(|&&j| j != 0).count();
            if best.as_ref().is_none_or(|(c, _)| cost <= *c) {
                best = Some((cost, split));
            }
            n1 *= 2;
        }
        best.map_or_else(|| Self::with_n1(diagonals, 1), |(_, s)| s)
    }

    /// The split for a given n1.
    pub fn with_n1(diagonals: &BTreeSet<usize>, n1: usize) -> Self {
        let n1 = n1.max(1);
        let mut giants: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &k in diagonals {
            giants.entry(k / n1 * n1).or_default().push(k % n1);
        }
        BsgsSplit { n1, giants }
    }

    /// The rotation steps the evaluation needs keys for: the baby steps, then the giant steps (0
    /// left out).
    pub fn rotation_steps(&self) -> Vec<i64> {
        let babies: BTreeSet<usize> = self.giants.values().flatten().copied().collect();
        babies
            .into_iter()
            .chain(self.giants.keys().copied())
            .filter(|&s| s != 0)
            .map(|s| s as i64)
            .collect::<BTreeSet<i64>>()
            .into_iter()
            .collect()
    }
}

/// Diagonals encoded for the hoisted evaluation: per giant step (its Galois element) the baby
/// steps' elements and the pre-rotated diagonals over Q_l u P.
#[derive(Clone, Debug)]
pub(crate) struct Encoded {
    pub(crate) giants: Vec<(u64, Vec<(u64, Diagonal)>)>,
}

impl Encoded {
    /// The bytes the diagonals hold.
    pub(crate) fn bytes(&self) -> usize {
        self.giants
            .iter()
            .flat_map(|(_, t)| t.iter().map(|(_, d)| d.bytes()))
            .sum()
    }
}

/// y = sum_j phi_{g_j}( sum_i p_{j,i} * phi_{h_i}(x) ) for the ciphertext hoisted in `h`, with one
/// ModDown per giant step and one for the result (times t for BGV): the parts in the ciphertext's
/// representation.
pub(crate) fn evaluate(h: &Hoisted<'_>, enc: &Encoded) -> Result<Vec<Poly>> {
    let c0 = &h.lift_c0()?;
    // The baby rotations, lazy over Q_l u P, each computed once (Lattigo's `ctPreRot`), side by
    // side with several threads.
    let elements: Vec<u64> = enc
        .giants
        .iter()
        .flat_map(|(_, terms)| terms.iter().map(|(g, _)| *g))
        .collect::<BTreeSet<u64>>()
        .into_iter()
        .collect();
    let words = c0.residues().len();
    let rotated = parallel::map(elements.len(), elements.len() * words, |i| {
        h.lazy(elements[i], c0)
    })?;
    let babies: BTreeMap<u64, [Poly; 2]> = elements.into_iter().zip(rotated).collect();
    let ring = h.ring_qp()?;
    let n = ring.degree();
    let mut acc = [
        Poly::zero(ring, Representation::Ntt),
        Poly::zero(ring, Representation::Ntt),
    ];
    // The giant steps, as many side by side as there are threads (one term each in memory).
    let giant = |(g, terms): &(u64, Vec<(u64, Diagonal)>)| {
        let rows: Vec<(&[Poly; 2], &Diagonal)> = terms
            .iter()
            .map(|(b, p)| {
                babies
                    .get(b)
                    .map(|x| (x, p))
                    .ok_or_else(|| Error::Internal("a baby rotation was not computed".into()))
            })
            .collect::<Result<_>>()?;
        h.switch_lazy(inner_sum(&rows)?, *g)
    };
    for chunk in enc.giants.chunks(parallel::num_threads().max(1)) {
        let terms = parallel::map(chunk.len(), chunk.len() * words, |j| giant(&chunk[j]))?;
        for ((g, _), term) in chunk.iter().zip(&terms) {
            let idx = (g % (2 * n as u64) != 1)
                .then(|| ntt_automorphism_index(n, *g))
                .transpose()?;
            for (a, x) in acc.iter_mut().zip(term) {
                accumulate(a, x, idx.as_deref())?;
            }
        }
    }
    h.finish(acc)
}

/// sum_r p_r * x_r for lazy pairs x_r over Q_l u P: per limb one inner product (lazy sums, one
/// reduction), as Lattigo's `MulCoeffsMontgomeryLazyThenAddLazy`; a compact diagonal's limb is
/// computed once per limb for both parts.
fn inner_sum(rows: &[(&[Poly; 2], &Diagonal)]) -> Result<[Poly; 2]> {
    let first = rows
        .first()
        .ok_or_else(|| Error::Internal("a giant step without baby steps".into()))?;
    let ring = first.1.ring().clone();
    if rows.iter().any(|(x, p)| {
        !std::sync::Arc::ptr_eq(p.ring(), &ring)
            || x.iter()
                .any(|q| !std::sync::Arc::ptr_eq(q.context(), &ring))
    }) {
        return Err(Error::Internal(
            "BSGS terms over different rings (the transform's level is not the ciphertext's)"
                .into(),
        ));
    }
    let n = ring.degree();
    let compact = rows.iter().filter(|(_, p)| p.is_compact()).count();
    // One limb of both sums: the diagonals' limb (compact ones lifted into the scratch), then
    // each part's inner product, which writes every word of its limb.
    let limb_sums = |limb: usize, d0: &mut [u64], d1: &mut [u64], scratch: &mut [u64]| {
        let r = limb * n..(limb + 1) * n;
        let mut bufs = scratch.chunks_exact_mut(n.max(1));
        let b: Vec<&[u64]> = rows
            .iter()
            .map(|(_, p)| {
                let buf = match p.is_compact() {
                    true => bufs.next().unwrap_or_default(),
                    false => &mut [],
                };
                p.limb(limb, buf)
            })
            .collect::<Result<_>>()?;
        for (c, dst) in [d0, d1].into_iter().enumerate() {
            let a: Vec<&[u64]> = rows
                .iter()
                .map(|(x, _)| &x[c].residues()[r.clone()])
                .collect();
            vector::inner_product(&ring.moduli()[limb], &a, &b, dst);
        }
        Ok::<(), Error>(())
    };
    let work = parallel::Work::Products(rows.len());
    Poly::from_fill_many::<2, Error>(&ring, Representation::Ntt, |[o0, o1]| {
        parallel::for_each_limb2(work, o0, o1, n, compact * n, limb_sums)
    })
}
