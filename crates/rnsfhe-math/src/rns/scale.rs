//! Scale-and-round by t / Q in RNS with a 128-bit fixed-point fraction (the HPS technique,
//! ../shared/notes/hps.md): decryption's round(t x / Q) mod t and multiplication's round(t x / Q) in an
//! extension base P, with word arithmetic only.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;

use super::fast::{blocked_dots, Extras};
use super::RnsBasis;
use crate::parallel::Work;
use crate::{Error, Result};

/// round(t x / Q) from the residues of x.
///
/// With S the input base (Q, or Q u P) and c_r the CRT coefficients, t x / Q = sum_r x_r t c_r S / (r Q)
/// minus a multiple of t P. For r in Q the constant t c_r S / (r Q) = A_r + F_r splits into an integer
/// (kept modulo each output modulus) and a fraction F_r in [0, 1) kept to 128 bits; for r = p_j in P
/// it is an integer that vanishes modulo every other p_i. So, per coefficient,
/// out_j = [sum_{r in Q} x_r A_{r,j} + round(sum_{r in Q} x_r F_r) + x_{p_j} B_j]_{out_j}.
///
/// Precision (every backend, by design): the fraction of each term is the exact rounding
/// round(sum_r x_r F_r / 2^128) of the sum with F_r = floor(2^128 frac(t c_r S / (r Q))), computed without
/// any per-term truncation (three-word sums in the scalar and AVX2 paths, four 52-bit columns in the IFMA
/// path). Each term x_r F_r / 2^128 is below the true x_r frac_r by less than 2^-64, so the rounding
/// equals the exact round(t x / Q) unless the true value lies within k 2^-64 of a half-integer
/// (k = |Q|); and because the rounded quantity is one well-defined integer function of the residues, the
/// scalar, AVX2 and AVX-512 IFMA paths return the same words (tested bit for bit in `tests/rns.rs`).
#[derive(Clone, Debug)]
pub struct ScaleAndRound {
    q: RnsBasis,
    /// The output moduli: P, or the single modulus t.
    out: RnsBasis,
    /// Whether the input holds the residues of P after those of Q.
    extension: bool,
    /// A_{r,j} at [j k + r].
    int_part: Vec<u64>,
    /// F_r as (high, low) 64-bit words of F_r 2^128.
    frac: Vec<(u64, u64)>,
    /// F_r as its 52-bit limbs [g0, g1, g2] (F_r = g0 + g1 2^52 + g2 2^104; the IFMA kernel).
    frac52: Vec<[u64; 3]>,
    /// B_j = t c_{p_j} P / p_j mod p_j (extension only).
    own: Vec<u64>,
}

impl ScaleAndRound {
    /// round(t x / Q) mod t for x in [0, Q) given by its residues in Q (HPS decryption). With
    /// `folded = false` the input must be y_i = |x_i q~_i|_{q_i} instead, and the constants are t / q_i
    /// (Bajard et al. (SAC 2016) section 3.5, the DecRNS-flp sum with two-word constants).
    pub fn to_plain(q: &RnsBasis, t: u64, folded: bool) -> Result<Self> {
        let out = RnsBasis::new(&[t])?;
        let c: Vec<BigUint> = if folded {
            q.inv_punctured_products()
                .iter()
                .map(|w| BigUint::from(w.value))
                .collect()
        } else {
            vec![BigUint::from(1u32); q.len()]
        };
        let ratios = q
            .moduli()
            .iter()
            .zip(&c)
            .map(|(qi, ci)| (BigUint::from(t) * ci, BigUint::from(qi.value())))
            .collect::<Vec<_>>();
        Self::build(q, out, false, &ratios, Vec::new())
    }

    /// round(t x / Q) in base P for an integer x with |x| < Q P / 2 given by its residues in Q u P
    /// (the limbs of Q, then those of P): step 3 of HPS multiplication.
    pub fn to_extension(q: &RnsBasis, p: &RnsBasis, t: u64) -> Result<Self> {
        let s = q.concat(p)?;
        let k = q.len();
        let inv = s.inv_punctured_products();
        let ratios = q
            .moduli()
            .iter()
            .zip(inv)
            .map(|(qi, ci)| {
                (
                    BigUint::from(t) * p.product() * ci.value,
                    BigUint::from(qi.value()),
                )
            })
            .collect::<Vec<_>>();
        let own = p
            .moduli()
            .iter()
            .zip(&inv[k..])
            .zip(p.punctured_products())
            .map(|((pj, cj), pp)| super::residue(&(BigUint::from(t) * cj.value * pp), pj))
            .collect();
        Self::build(q, p.clone(), true, &ratios, own)
    }

    fn build(
        q: &RnsBasis,
        out: RnsBasis,
        extension: bool,
        ratios: &[(BigUint, BigUint)],
        own: Vec<u64>,
    ) -> Result<Self> {
        let mut ints = Vec::with_capacity(ratios.len());
        let mut frac = Vec::with_capacity(ratios.len());
        let mut frac52 = Vec::with_capacity(ratios.len());
        let word = |f: &BigUint, shift: u32, bits: u32| -> u64 {
            ((f >> shift) & ((BigUint::from(1u32) << bits) - 1u32))
                .to_u64()
                .unwrap_or(0)
        };
        for (num, den) in ratios {
            let (a, r) = num.div_rem(den);
            let f: BigUint = (&r << 128u32) / den;
            frac.push((word(&f, 64, 64), word(&f, 0, 64)));
            frac52.push([word(&f, 0, 52), word(&f, 52, 52), word(&f, 104, 24)]);
            ints.push(a);
        }
        let int_part = out
            .moduli()
            .iter()
            .flat_map(|m| ints.iter().map(move |a| super::residue(a, m)))
            .collect();
        Ok(ScaleAndRound {
            q: q.clone(),
            out,
            extension,
            int_part,
            frac,
            frac52,
            own,
        })
    }

    /// round(sum_r x_r F_r / 2^128) for the coefficients start..start + lo.len() (x_r at
    /// xq[r n + start ..]) as (low, high) words: the reference that the AVX2 (`round_avx2`) and IFMA
    /// (`dot_ifma::round_fractions`) kernels equal bit for bit. With x F_lo = a_hi 2^64 + a_lo and
    /// p = x F_hi + a_hi, the sum is P 2^64 + A (P = sum p, A = sum a_lo, both exact in 128 bits), and
    /// floor((P 2^64 + A + 2^127) / 2^128) = floor((P + floor(A / 2^64) + 2^63) / 2^64).
    pub(super) fn round_scalar(
        &self,
        xq: &[u64],
        n: usize,
        start: usize,
        lo: &mut [u64],
        hi: &mut [u64],
    ) {
        let len = lo.len();
        // P as whole (its high word) and fraction (its low word) sums, A apart: no sum overflows.
        let mut whole = vec![0u128; len];
        let mut fraction = vec![0u128; len];
        let mut low = vec![0u128; len];
        for (xi, &(fh, fl)) in xq.chunks_exact(n).zip(&self.frac) {
            let xi = &xi[start..start + len];
            for (((w, f), a), &x) in whole
                .iter_mut()
                .zip(fraction.iter_mut())
                .zip(low.iter_mut())
                .zip(xi)
            {
                let xl = u128::from(x) * u128::from(fl);
                let p = u128::from(x) * u128::from(fh) + (xl >> 64);
                *w += p >> 64;
                *f += p & u128::from(u64::MAX);
                *a += xl & u128::from(u64::MAX);
            }
        }
        for ((((l, h), &w), &f), &a) in lo
            .iter_mut()
            .zip(hi.iter_mut())
            .zip(&whole)
            .zip(&fraction)
            .zip(&low)
        {
            let r = w + ((f + (a >> 64) + (1 << 63)) >> 64);
            (*l, *h) = (r as u64, (r >> 64) as u64);
        }
    }

    /// For [`ScaleAndRound::to_plain`] with `folded`: max over the n coefficients of the distance of
    /// t x / Q to the nearest integer, in [0, 1/2], from the 128-bit fractions (each term off by less
    /// than 2^-64, so the result is good to about k 2^-64). For a BFV phase x = Delta m + v this is
    /// ||[t x]_Q|| / Q, the quantity SEAL's noise budget is -log2 of, minus one.
    pub fn max_fraction_distance(&self, xq: &[u64]) -> Result<f64> {
        let k = self.q.len();
        if xq.is_empty() || !xq.len().is_multiple_of(k) {
            return Err(Error::LengthMismatch {
                what: "scale-and-round input (k limbs of n residues)",
                expected: k * (xq.len() / k).max(1),
                got: xq.len(),
            });
        }
        let n = xq.len() / k;
        let mut fraction = vec![0u64; n];
        for (xi, &(hi, lo)) in xq.chunks_exact(n).zip(&self.frac) {
            for (f, &x) in fraction.iter_mut().zip(xi) {
                let p = u128::from(x) * u128::from(hi) + ((u128::from(x) * u128::from(lo)) >> 64);
                *f = f.wrapping_add(p as u64);
            }
        }
        let worst = fraction
            .iter()
            .map(|&f| f.min(f.wrapping_neg()))
            .max()
            .unwrap_or(0);
        Ok(worst as f64 / 2f64.powi(64))
    }

    /// The output moduli (P, or the single modulus t).
    pub fn output_basis(&self) -> &RnsBasis {
        &self.out
    }

    /// Scales n coefficients: `input` holds k n residues (or (k + |P|) n for an extension), `output`
    /// |P| n (or n residues modulo t), limb-major. Inputs in [0, modulus); outputs likewise.
    pub fn apply(&self, input: &[u64], output: &mut [u64]) -> Result<()> {
        let n = output.len() / self.out.len();
        let (xq, xp) = input.split_at((self.q.len() * n).min(input.len()));
        // Words past Q's without an extension are refused as a length mismatch.
        self.apply_split(xq, (self.extension || !xp.is_empty()).then_some(xp), output)
    }

    /// [`Self::apply`] with the residues of Q and those of P (an extension's, `None` otherwise) in
    /// two slices: the same words, without joining them first. Every word of `output` is written.
    pub fn apply_split(&self, xq: &[u64], xp: Option<&[u64]>, output: &mut [u64]) -> Result<()> {
        let k = self.q.len();
        let n = output.len() / self.out.len();
        let p_len = if self.extension {
            n * self.out.len()
        } else {
            0
        };
        if n == 0
            || output.len() != n * self.out.len()
            || xq.len() != n * k
            || xp.map_or(0, <[u64]>::len) != p_len
            || xp.is_some() != self.extension
        {
            return Err(Error::LengthMismatch {
                what: "scale-and-round input (residues of Q, then P)",
                expected: n * k + p_len,
                got: xq.len() + xp.map_or(0, <[u64]>::len),
            });
        }
        let q_max = self.q.max_modulus().value();
        let own = xp.map(|xp| (xp, self.own.as_slice()));
        #[cfg(target_arch = "x86_64")]
        if n.is_multiple_of(16) && super::dot_ifma::available(q_max, self.out.moduli(), k + 2) {
            let mut rounded = crate::pool::Buffer::zeroed(n);
            super::dot_ifma::round_fractions(xq, &self.frac52, &mut rounded);
            let extras = Extras {
                add: Some(&rounded),
                own,
            };
            blocked_dots(&self.out, xq, n, &self.int_part, q_max, extras, output);
            return Ok(());
        }
        let mut lo = crate::pool::Buffer::zeroed(n);
        let mut hi = crate::pool::Buffer::zeroed(n);
        // Threads: chunks of coefficients (any chunking gives the same words).
        let chunk = if crate::parallel::splits(2 * n, Work::Heavy) && n.is_multiple_of(64) {
            n / 16
        } else {
            n
        };
        crate::parallel::for_each_limb2(
            Work::Heavy,
            &mut lo,
            &mut hi,
            chunk,
            0,
            |c, lo, hi, _| {
                if !super::round_avx2::round_fractions(xq, n, c * chunk, &self.frac, lo, hi) {
                    self.round_scalar(xq, n, c * chunk, lo, hi);
                }
                Ok(())
            },
        )?;
        let extras = Extras { add: None, own };
        blocked_dots(&self.out, xq, n, &self.int_part, q_max, extras, output);
        let moduli = self.out.moduli();
        crate::parallel::for_each_limb_as(Work::Light, output, n, |j, o| {
            let m = &moduli[j];
            if !super::round_avx2::add_reduced(m, &lo, &hi, o) {
                for ((ov, &l), &h) in o.iter_mut().zip(lo.iter()).zip(hi.iter()) {
                    *ov = m.add(*ov, m.reduce_u128(u128::from(h) << 64 | u128::from(l)));
                }
            }
            Ok(())
        })?;
        Ok(())
    }
}
