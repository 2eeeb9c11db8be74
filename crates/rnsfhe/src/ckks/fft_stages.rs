//! The encoder's special FFT ([`CkksEncoder`], Cheon et al. (SAC 2018) §2.1) factored into sparse stages, the
//! matrices a homomorphic DFT evaluates (Chen–Chillotti–Song, Eurocrypt 2019, "Improved
//! bootstrapping for approximate homomorphic encryption", §3–4; Lattigo's `circuits/ckks/dft`,
//! OpenFHE's `EvalFFTCoeffsToSlotsPrecompute`).
//!
//! For n slots the decoding map U (SlotsToCoeffs: slot j = sum_k v_k xi^(k 5^j)) is
//! U = S_(log n) ... S_1 P, with P the bit reversal and S_i the radix-2 butterfly stage of length
//! 2^i; its inverse (CoeffsToSlots) is U^-1 = (1/n) P S'_1 ... S'_(log n) with the inverse
//! butterflies S'. The bit reversal is left out, as bootstrapping does (the slot-wise EvalMod
//! between the two transforms does not care about the order): the decoding stages take their input
//! in bit-reversed order, the encoding stages give their output in bit-reversed order.
//!
//! A stage is a [`DiagonalMatrix`]: out = sum_k diag_k ⊙ (v rotated left by k), which a linear
//! transform evaluates with one rotation by k per non-zero diagonal. One butterfly stage of length
//! 2h has the diagonals 0, h and n - h (3; 2 for the last stage, where h = n - h). `budget` stages
//! are merged from the log2 n butterflies as evenly as possible (the first groups in the order of
//! application take one more when log2 n is not a multiple of `budget`); a product of k
//! consecutive butterflies with half-lengths h, 2h, ..., 2^(k-1) h has the diagonals
//! sum_i e_i 2^i h (e_i in {-1, 0, 1}) mod n: 2^(k+1) - 1 of them, fewer when the group holds the
//! last stage (the sums then wrap modulo n).

use std::collections::BTreeMap;

use super::{CkksEncoder, Complex};
use crate::{Error, Result};

/// A square matrix on `n` slots by its non-zero diagonals: out\[i] = sum_k diag_k\[i] v[(i + k) mod n]
/// (Lattigo's `LinearTransformation` diagonals; the key k is the left rotation a homomorphic
/// evaluation applies).
#[derive(Clone, Debug, PartialEq)]
pub struct DiagonalMatrix {
    /// The dimension n.
    pub slots: usize,
    /// Diagonal index k in 0..n -> its n values.
    pub diagonals: BTreeMap<usize, Vec<Complex>>,
}

impl DiagonalMatrix {
    fn empty(slots: usize) -> Self {
        DiagonalMatrix {
            slots,
            diagonals: BTreeMap::new(),
        }
    }

    /// Adds `value` at row `i` of diagonal `k`.
    fn add_at(&mut self, k: usize, i: usize, value: Complex) {
        let n = self.slots;
        self.diagonals
            .entry(k % n)
            .or_insert_with(|| vec![Complex::ZERO; n])[i] += value;
    }

    /// The matrix times `v` (n values). Errors: `LengthMismatch`.
    pub fn apply(&self, v: &[Complex]) -> Result<Vec<Complex>> {
        let n = self.slots;
        if v.len() != n {
            return Err(Error::LengthMismatch {
                what: "DiagonalMatrix::apply vector",
                expected: n,
                got: v.len(),
            });
        }
        let mut out = vec![Complex::ZERO; n];
        for (&k, d) in &self.diagonals {
            for (i, o) in out.iter_mut().enumerate() {
                *o += d[i] * v[(i + k) % n];
            }
        }
        Ok(out)
    }

    /// self * other (other applied first): diagonal k + l gets self_k[i] other_l[(i + k) mod n].
    pub(crate) fn after(&self, other: &DiagonalMatrix) -> DiagonalMatrix {
        let n = self.slots;
        let mut out = DiagonalMatrix::empty(n);
        for (&k, a) in &self.diagonals {
            for (&l, b) in &other.diagonals {
                for i in 0..n {
                    out.add_at(k + l, i, a[i] * b[(i + k) % n]);
                }
            }
        }
        out
    }

    /// Every value multiplied by `c`.
    pub(crate) fn scaled(mut self, c: f64) -> DiagonalMatrix {
        for d in self.diagonals.values_mut() {
            d.iter_mut().for_each(|x| *x = x.scale(c));
        }
        self
    }
}

/// The factored decoding and encoding maps of one slot count.
#[derive(Clone, Debug, PartialEq)]
pub struct FftStages {
    /// The number of slots n.
    pub slots: usize,
    /// SlotsToCoeffs: U = decode[budget - 1] ... decode\[0], on input in bit-reversed order
    /// (decode\[0] applied first).
    pub decode: Vec<DiagonalMatrix>,
    /// CoeffsToSlots: U^-1 = P encode[budget - 1] ... encode\[0] (encode\[0] applied first; output in
    /// bit-reversed order), with the factor 1/n spread as n^(-1/budget) over the stages.
    pub encode: Vec<DiagonalMatrix>,
}

/// The butterfly stage of length `len` on n slots (decoding), or its inverse (encoding, without
/// the 1/2 the inverse FFT defers to its final 1/n).
fn butterfly(e: &CkksEncoder, n: usize, len: usize, inverse: bool) -> DiagonalMatrix {
    let h = len / 2;
    let mut m = DiagonalMatrix::empty(n);
    for i in 0..n {
        let p = i % len;
        if p < h {
            // Rows of the upper half: u + w t (decoding), u + t (encoding).
            let w = if inverse {
                Complex::from_real(1.0)
            } else {
                e.twiddle(len, p)
            };
            m.add_at(0, i, Complex::from_real(1.0));
            m.add_at(h, i, w);
        } else {
            // Lower half: u - w t (decoding), (u - t) w^-1 (encoding).
            let j = p - h;
            if inverse {
                let w = e.inverse_twiddle(len, j);
                m.add_at(n - h, i, w);
                m.add_at(0, i, -w);
            } else {
                m.add_at(n - h, i, Complex::from_real(1.0));
                m.add_at(0, i, -e.twiddle(len, j));
            }
        }
    }
    m
}

/// The products of consecutive `stages` in `budget` groups as even as possible (the first groups
/// one larger), each group's first stage applied first.
fn merge(stages: &[DiagonalMatrix], budget: usize) -> Vec<DiagonalMatrix> {
    let (q, r) = (stages.len() / budget, stages.len() % budget);
    let mut out = Vec::with_capacity(budget);
    let mut at = 0;
    for g in 0..budget {
        let size = q + usize::from(g < r);
        let mut m = stages[at].clone();
        for s in &stages[at + 1..at + size] {
            m = s.after(&m);
        }
        out.push(m);
        at += size;
    }
    out
}

/// The decoding map U (SlotsToCoeffs) and the encoding map U^-1 (CoeffsToSlots) of `slots` values
/// (a power of two in 2..=N/2; sparse packing uses the same maps on its n' slots), each as
/// `budget` sparse stages (1..=log2 slots) merged from the radix-2 butterflies (module doc).
///
/// Errors: `OutOfRange` for a slot count that is not a power of two in 2..=N/2 or a budget outside
/// 1..=log2 slots.
pub fn fft_stages(encoder: &CkksEncoder, slots: usize, budget: usize) -> Result<FftStages> {
    if !slots.is_power_of_two() || slots < 2 || slots > encoder.max_slots() {
        return Err(Error::OutOfRange(format!(
            "fft_stages: {slots} slots; a power of two in 2..={} (N/2)",
            encoder.max_slots()
        )));
    }
    let log = slots.trailing_zeros() as usize;
    if budget == 0 || budget > log {
        return Err(Error::OutOfRange(format!(
            "fft_stages: a budget of {budget} stages for {slots} slots; 1..={log}"
        )));
    }
    let lens: Vec<usize> = (1..=log).map(|i| 1 << i).collect();
    let forward: Vec<DiagonalMatrix> = lens
        .iter()
        .map(|&len| butterfly(encoder, slots, len, false))
        .collect();
    let factor = (slots as f64).powf(-1.0 / budget as f64);
    let inverse: Vec<DiagonalMatrix> = lens
        .iter()
        .rev()
        .map(|&len| butterfly(encoder, slots, len, true))
        .collect();
    Ok(FftStages {
        slots,
        decode: merge(&forward, budget),
        encode: merge(&inverse, budget)
            .into_iter()
            .map(|m| m.scaled(factor))
            .collect(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn vector(n: usize, seed: usize) -> Vec<Complex> {
        (0..n)
            .map(|i| {
                let a = ((i * 7919 + seed * 104_729) % 1000) as f64 / 500.0 - 1.0;
                let b = ((i * 6007 + seed * 7717) % 997) as f64 / 498.5 - 1.0;
                Complex::new(a, b)
            })
            .collect()
    }

    fn apply_all(stages: &[DiagonalMatrix], v: &[Complex]) -> Vec<Complex> {
        stages.iter().fold(v.to_vec(), |x, m| m.apply(&x).unwrap())
    }

    fn max_diff(a: &[Complex], b: &[Complex]) -> f64 {
        crate::worst::worst_slot_error(a, b)
    }

    /// The diagonal indices of a group of butterflies with half-lengths `halves`: every sum of
    /// one of {-h, 0, h} per stage, modulo n (the model the matrix products are checked against).
    fn expected_diagonals(halves: &[usize], n: usize) -> BTreeSet<usize> {
        let mut s = BTreeSet::from([0usize]);
        for &h in halves {
            s = s
                .iter()
                .flat_map(|&k| [k, (k + h) % n, (k + n - h) % n])
                .collect();
        }
        s
    }

    /// The stages reproduce the encoder's decoding (`embed`) and encoding (`embed_inverse`) to
    /// 1e-9, for 2^3..2^10 slots (full packing, and sparse in a ring twice as large) and every
    /// budget; each stage has the diagonals of its butterflies' sums.
    #[test]
    fn stages_reproduce_the_encoder() {
        for log in 3..=10u32 {
            let n = 1usize << log;
            for ring in [2 * n, 4 * n] {
                let enc = CkksEncoder::new(ring).unwrap();
                let (half, gap) = (ring / 2, ring / 2 / n);
                let v = vector(n, log as usize);
                // Decoding: coefficients c_k = a_(k gap) - i a_(k gap + N/2) -> n slots.
                let mut coeffs = vec![0.0; ring];
                for (k, c) in v.iter().enumerate() {
                    coeffs[k * gap] = c.re;
                    coeffs[k * gap + half] = -c.im;
                }
                let slots = enc.embed(&coeffs);
                let want: Vec<Complex> = (0..n).map(|j| slots[j]).collect();
                let rev: Vec<Complex> = (0..n).map(|i| v[enc.bit_reverse(i, n)]).collect();
                // Encoding: slots -> c_k.
                let z = vector(n, 100 + log as usize);
                let a = enc.embed_inverse(&z).unwrap();
                let c: Vec<Complex> = (0..n)
                    .map(|k| Complex::new(a[k * gap], -a[k * gap + half]))
                    .collect();
                for budget in 1..=log as usize {
                    let st = fft_stages(&enc, n, budget).unwrap();
                    assert_eq!((st.decode.len(), st.encode.len()), (budget, budget));
                    let got = apply_all(&st.decode, &rev);
                    let e = max_diff(&got, &want);
                    assert!(e < 1e-9, "decode n {n} ring {ring} budget {budget}: {e:e}");
                    let out = apply_all(&st.encode, &z);
                    let got: Vec<Complex> = (0..n).map(|i| out[enc.bit_reverse(i, n)]).collect();
                    let e = max_diff(&got, &c);
                    assert!(e < 1e-9, "encode n {n} ring {ring} budget {budget}: {e:e}");
                    // Diagonal counts: the butterflies' sums, group by group.
                    let (q, r) = (log as usize / budget, log as usize % budget);
                    let mut at = 0;
                    for g in 0..budget {
                        let size = q + usize::from(g < r);
                        let halves: Vec<usize> = (at..at + size).map(|i| 1 << i).collect();
                        let want = expected_diagonals(&halves, n);
                        let got: BTreeSet<usize> = st.decode[g].diagonals.keys().copied().collect();
                        assert_eq!(got, want, "decode n {n} budget {budget} group {g}");
                        let top: Vec<usize> = halves.iter().map(|&h| n / 2 / h).collect();
                        let got: BTreeSet<usize> = st.encode[g].diagonals.keys().copied().collect();
                        assert_eq!(got, expected_diagonals(&top, n), "encode group {g}");
                        if size == 1 {
                            let top_stage = at + 1 == log as usize;
                            assert_eq!(want.len(), if top_stage { 2 } else { 3 });
                        } else if at + size < log as usize {
                            assert_eq!(want.len(), (1 << (size + 1)) - 1);
                        }
                        at += size;
                    }
                }
            }
        }
    }

    #[test]
    fn refusals() {
        let enc = CkksEncoder::new(64).unwrap();
        assert!(fft_stages(&enc, 3, 1).is_err());
        assert!(fft_stages(&enc, 64, 1).is_err());
        assert!(fft_stages(&enc, 16, 0).is_err());
        assert!(fft_stages(&enc, 16, 5).is_err());
        let st = fft_stages(&enc, 16, 2).unwrap();
        assert!(st.decode[0].apply(&[Complex::ZERO; 3]).is_err());
    }
}
