//! Fast Hierarchical Base Extension (FHBE), Vollmer et al. (ARITH 2023) Alg. 1.

use num_bigint::BigUint;
use num_traits::One;

use super::converter::{batch_len, BaseConverter};
use super::fast::{blocked_dots, scaled_residues, Extras, BLOCK};
use super::RnsBasis;
use crate::{Error, Result};

/// Widest super-residue handled: 32 words (2048 bits), i.e. c * w + log2 c <= 2048.
const MAX_LIMBS: usize = 32;

/// Vollmer et al. (ARITH 2023), Alg. 1: the source base of k = r x c moduli is read as r rows of c moduli (row i holds
/// q_{i c}..q_{i c + c - 1}, in base order). Lines 1–3 compute y = |x_{ij} T_{ij}|_{q_ij} as FastBconv does;
/// lines 4–7 form per row the super-residue X_i = sum_j y_ij * (Q_i / q_ij) < c Q_i exactly, in
/// machine words; lines 8–12 reduce each X_i modulo each target p and accumulate X_i |Q / Q_i|_p.
///
/// The integer computed is sum_ij y_ij Q / q_ij, the very integer FastBconv computes, so the output is
/// bit-for-bit FastBconv's: x + alpha Q with alpha in [0, k - 1]. Inputs in [0, q_i), outputs in [0, p_j).
///
/// Implementation choice (beyond the paper): lines 11–12 are fused. With X_i held in L 64-bit words,
/// |X_i * Qbar_i|_p = sum_t X_i\[t] |2^(64 t) Qbar_i|_p, so each target is one dot product of r * L
/// terms, at the price of r * L constants per target (the paper's layout stores r per target plus one
/// reduction constant set). That dot product runs on FastBconv's kernel (`fast::blocked_dots`: AVX2 or
/// AVX-512 IFMA where the backend and the bounds allow, else the lazy u128 sum), so that the two
/// converters differ by algorithm only.
#[derive(Clone, Debug)]
pub struct FhbeConverter {
    source: RnsBasis,
    target: RnsBasis,
    rows: usize,
    cols: usize,
    /// Words of Q_i / q_ij (the widest row decides).
    qbar_limbs: usize,
    /// Words of a super-residue X_i < c Q_i.
    x_limbs: usize,
    /// Q_i / q_ij as `qbar_limbs` words each, at [(i c + j) * qbar_limbs ..].
    qbar: Vec<u64>,
    /// |2^(64 t) Q / Q_i|_p at [(p * r + i) * x_limbs + t].
    reduce_consts: Vec<u64>,
    /// Super-residues of one word, source moduli and qbar below 2^32 (the fast path of lines 4–7).
    narrow: bool,
}

fn words(x: &BigUint, len: usize) -> Vec<u64> {
    let mut w = x.to_u64_digits();
    w.resize(len, 0);
    w
}

impl FhbeConverter {
    /// Precomputes Alg. 1's constants for k = r x c. Errors when c is 0 or does not divide k, or when a
    /// super-residue would exceed 2048 bits.
    pub fn new(source: &RnsBasis, target: &RnsBasis, cols: usize) -> Result<Self> {
        let k = source.len();
        if cols == 0 || !k.is_multiple_of(cols) {
            return Err(Error::InvalidBasis(format!(
                "FHBE needs k = r x c: c = {cols} does not divide the {k} source moduli"
            )));
        }
        let rows = k / cols;
        let mut row_products = Vec::with_capacity(rows);
        let mut qbar_big = Vec::with_capacity(k);
        for i in 0..rows {
            let row = &source.moduli()[i * cols..(i + 1) * cols];
            let qi = row.iter().fold(BigUint::one(), |acc, q| acc * q.value());
            qbar_big.extend(row.iter().map(|q| &qi / q.value()));
            row_products.push(qi);
        }
        let qbar_limbs = qbar_big
            .iter()
            .map(|x| x.to_u64_digits().len())
            .max()
            .unwrap_or(1)
            .max(1);
        let x_bound = row_products
            .iter()
            .max()
            .map(|q| q * cols)
            .unwrap_or_default();
        let x_limbs = x_bound.to_u64_digits().len().max(1);
        if x_limbs > MAX_LIMBS {
            return Err(Error::InvalidBasis(format!(
                "FHBE rows of {cols} moduli make {}-bit super-residues; at most {} bits are supported, use a smaller c",
                x_bound.bits(),
                64 * MAX_LIMBS
            )));
        }
        let qbar: Vec<u64> = qbar_big.iter().flat_map(|x| words(x, qbar_limbs)).collect();
        let narrow = x_limbs == 1
            && source.max_modulus().value() >> 32 == 0
            && qbar.iter().all(|&w| w >> 32 == 0);
        let mut reduce_consts = Vec::with_capacity(target.len() * rows * x_limbs);
        for p in target.moduli() {
            for qi in &row_products {
                let qbar_row = super::residue(&(source.product() / qi), p);
                let mut pow = 1u64 % p.value();
                for _ in 0..x_limbs {
                    reduce_consts.push(p.mul(qbar_row, pow));
                    pow = p.mul(pow, p.reduce_u128(1u128 << 64));
                }
            }
        }
        Ok(FhbeConverter {
            source: source.clone(),
            target: target.clone(),
            rows,
            cols,
            qbar_limbs,
            x_limbs,
            qbar,
            reduce_consts,
            narrow,
        })
    }

    /// The number of rows r and columns c.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Lines 4–7 for the coefficients start..start + bl: X_i = sum_j y_ij * qbar_ij, written word-major
    /// with row stride n (`x[(i * x_limbs + t) * n + start + b]` = word t of X_i for coefficient
    /// start + b), the layout of the dot product's rows.
    fn super_residues(&self, y: &[u64], n: usize, start: usize, x: &mut [u64], carry: &mut [u64]) {
        let (lq, lx, bl) = (self.qbar_limbs, self.x_limbs, carry.len());
        if self.narrow {
            // One word each, y_ij and qbar_ij below 2^32: X_i = sum_j y_ij qbar_ij < 2^64 with
            // 32 x 32-bit products, which vectorise (`vpmuludq`).
            for (i, xi) in x.chunks_exact_mut(n).enumerate() {
                let xi = &mut xi[start..start + bl];
                xi.iter_mut().for_each(|w| *w = 0);
                for j in 0..self.cols {
                    let idx = i * self.cols + j;
                    let qw = self.qbar[idx] as u32 as u64;
                    for (xw, &yv) in xi.iter_mut().zip(&y[idx * n + start..idx * n + start + bl]) {
                        *xw = xw.wrapping_add((yv as u32 as u64) * qw);
                    }
                }
            }
            return;
        }
        for (i, xi) in x.chunks_exact_mut(lx * n).enumerate() {
            for xt in xi.chunks_exact_mut(n) {
                xt[start..start + bl].iter_mut().for_each(|w| *w = 0);
            }
            for j in 0..self.cols {
                let idx = i * self.cols + j;
                let yb = &y[idx * n + start..idx * n + start + bl];
                let qb = &self.qbar[idx * lq..(idx + 1) * lq];
                carry.iter_mut().for_each(|c| *c = 0);
                let (low, high) = xi.split_at_mut(lq * n);
                for (xt, &qw) in low.chunks_exact_mut(n).zip(qb) {
                    let qw = u128::from(qw);
                    let xt = &mut xt[start..start + bl];
                    for ((xw, &yv), c) in xt.iter_mut().zip(yb).zip(carry.iter_mut()) {
                        // < 2^64 + (2^64 - 1)^2 + 2^64 < 2^128
                        let v = u128::from(*xw) + u128::from(yv) * qw + u128::from(*c);
                        *xw = v as u64;
                        *c = (v >> 64) as u64;
                    }
                }
                // Words above qbar's only take carries (additions, no products).
                for xt in high.chunks_exact_mut(n) {
                    for (xw, c) in xt[start..start + bl].iter_mut().zip(carry.iter_mut()) {
                        let (s, o) = xw.overflowing_add(*c);
                        *xw = s;
                        *c = u64::from(o);
                    }
                }
            }
        }
    }
}

impl BaseConverter for FhbeConverter {
    fn source(&self) -> &RnsBasis {
        &self.source
    }

    fn target(&self) -> &RnsBasis {
        &self.target
    }

    fn convert(&self, input: &[u64], output: &mut [u64]) -> Result<()> {
        let k = self.source.len();
        let n = batch_len(k, self.target.len(), input, output)?;
        // Every word is written by the scaled residues.
        let mut y = crate::pool::Buffer::stale(k * n);
        scaled_residues(&self.source, input, n, &mut y);
        // Lines 4–7 block by block (the rows of y being summed stay in cache), then lines 8–12 as one
        // dot product of r * L rows per target.
        let mut x = crate::pool::Buffer::zeroed(self.rows * self.x_limbs * n);
        let mut carry = vec![0u64; BLOCK.min(n)];
        for start in (0..n).step_by(BLOCK) {
            let bl = BLOCK.min(n - start);
            self.super_residues(&y, n, start, &mut x, &mut carry[..bl]);
        }
        blocked_dots(
            &self.target,
            &x,
            n,
            &self.reduce_consts,
            u64::MAX,
            Extras::default(),
            output,
        );
        Ok(())
    }

    fn precomputed_bytes(&self) -> usize {
        8 * (self.source.len() * 2 + self.qbar.len() + self.reduce_consts.len())
    }
}
