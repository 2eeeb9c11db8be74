//! Discrete Gaussian errors by a full-scan cumulative distribution table (CDT).
//!
//! Distribution: P(x) proportional to exp(-x^2 / (2 sigma^2)) on the integers, conditioned on
//! |x| <= B with B = floor(tail * sigma) (rejection-style truncation, like SEAL's resampling outside
//! the bound, not clamping). Defaults: sigma = 3.2 and tail = 6, so B = 19 and the cut-off mass is
//! ~2e-9 (HE standard, Albrecht et al. 2018, uses sigma ~ 3.2; the 6 sigma cut follows SEAL).
//!
//! Constant time: a 128-bit draw gives a sign bit and a 127-bit uniform u; |x| is the number of table
//! entries T[k] <= u, counted over the *whole* table with borrow-based comparisons (no early exit, no
//! table index depending on u); the sign is applied with a mask. Every sample costs 2 words and B
//! comparisons. The table is computed with 256-bit fixed-point arithmetic, so each entry is
//! floor(2^127 * CDF(k)) up to one unit: per-sample statistical distance below (B + 1) * 2^-127.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use zeroize::Zeroizing;

use super::constant_time::opaque_zero;
use super::Csprng;
use crate::{Error, Result};

/// Default standard deviation (HE standard; SEAL, OpenFHE and Lattigo use 3.2 too).
pub const DEFAULT_SIGMA: f64 = 3.2;
/// Default tail cut in multiples of sigma (SEAL's `noise_max_deviation` is 6 sigma).
pub const DEFAULT_TAIL: f64 = 6.0;
/// Smallest accepted sigma (keeps the table computation cheap and meaningful).
pub const MIN_SIGMA: f64 = 0.5;
/// Largest accepted bound B = floor(tail * sigma); each sample scans B entries, so the CDT is for
/// small-sigma errors (flooding noise needs another sampler).
pub const MAX_BOUND: u64 = 4096;

/// Fraction bits of the fixed-point arithmetic used to build the table.
const FRAC: u64 = 256;

/// A discrete Gaussian sampler with its precomputed table. Public parameters only (no secret state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscreteGaussian {
    sigma_bits: u64,
    bound: u64,
    /// table[k] = floor(2^127 * P(|x| <= k)) for k in [0, B).
    table: Vec<u128>,
}

impl Default for DiscreteGaussian {
    /// sigma = 3.2, tail cut 6 sigma (|x| <= 19).
    fn default() -> Self {
        Self::build(DEFAULT_SIGMA, 19)
    }
}

impl DiscreteGaussian {
    /// A sampler for standard deviation `sigma` cut at |x| <= floor(tail * sigma). Errors unless
    /// sigma >= 0.5 and tail > 0 are finite and 1 <= floor(tail * sigma) <= [`MAX_BOUND`].
    pub fn new(sigma: f64, tail: f64) -> Result<Self> {
        if !(sigma.is_finite() && sigma >= MIN_SIGMA) {
            return Err(Error::OutOfRange(format!(
                "Gaussian sigma = {sigma}: must be finite and at least {MIN_SIGMA}"
            )));
        }
        if !(tail.is_finite() && tail > 0.0) {
            return Err(Error::OutOfRange(format!(
                "Gaussian tail cut = {tail} sigma: must be finite and positive"
            )));
        }
        let b = (tail * sigma).floor();
        if !(1.0..=MAX_BOUND as f64).contains(&b) {
            return Err(Error::OutOfRange(format!(
                "Gaussian bound floor({tail} * {sigma}) = {b}: must be in [1, {MAX_BOUND}]"
            )));
        }
        Ok(Self::build(sigma, b as u64))
    }

    /// Standard deviation sigma.
    pub fn sigma(&self) -> f64 {
        f64::from_bits(self.sigma_bits)
    }

    /// Tail bound B: every sample lies in [-B, B].
    pub fn bound(&self) -> u64 {
        self.bound
    }

    /// P(|x| <= k) as given by the table (1 for k >= B).
    pub fn cdf_abs(&self, k: u64) -> f64 {
        match self.table.get(k as usize) {
            Some(&t) => t as f64 / (1u128 << 127) as f64,
            None => 1.0,
        }
    }

    /// Builds the table for a validated sigma (>= 0.5, normal f64) and bound B >= 1.
    fn build(sigma: f64, bound: u64) -> Self {
        let one = BigUint::one() << FRAC;
        // sigma = m * 2^e exactly (sigma is a normal f64).
        let bits = sigma.to_bits();
        let m = BigUint::from((bits & ((1u64 << 52) - 1)) | (1u64 << 52));
        let e = ((bits >> 52) & 0x7ff) as i64 - 1075;
        // c = 1 / (2 sigma^2) = 2^(-1 - 2e) / m^2, in fixed point (e <= -40 for sigma < 2^12).
        let m2 = &m * &m;
        let shift = FRAC as i64 - 1 - 2 * e;
        let c = if shift >= 0 {
            (BigUint::one() << shift as u64) / &m2
        } else {
            BigUint::one() / (m2 << (-shift) as u64)
        };
        // r = exp(-c) = 1 / exp(c); the series of exp(c) has positive terms (c <= 2), so no cancellation.
        let mut ec = one.clone();
        let mut term = one.clone();
        let mut i = 1u32;
        while !term.is_zero() {
            term = ((&term * &c) >> FRAC) / i;
            ec += &term;
            i += 1;
        }
        let r = (&one << FRAC) / &ec;
        let r2 = (&r * &r) >> FRAC;
        // rho_k = exp(-k^2 c) via rho_k = rho_{k-1} * g_k with g_k = r^(2k - 1), g_{k+1} = g_k * r^2.
        let mut cum = Vec::with_capacity(bound as usize + 1);
        let mut rho = one.clone();
        let mut g = r;
        let mut total = one;
        cum.push(total.clone());
        for _ in 1..=bound {
            rho = (&rho * &g) >> FRAC;
            g = (&g * &r2) >> FRAC;
            total += &rho << 1u32;
            cum.push(total.clone());
        }
        let table = cum[..bound as usize]
            .iter()
            .map(|ck| u128::try_from((ck << 127u32) / &total).unwrap_or(1 << 127))
            .collect();
        DiscreteGaussian {
            sigma_bits: sigma.to_bits(),
            bound,
            table,
        }
    }

    /// One sample in [-B, B]; constant time in the value (see the module doc).
    #[inline]
    pub fn sample_one(&self, rng: &mut Csprng) -> i64 {
        let (hi, lo) = (rng.next_u64(), rng.next_u64());
        super::cdt::scan_one(&self.table, hi, lo, opaque_zero())
    }

    /// Fills `out` with independent samples: those of [`Self::sample_one`] in order, the rng's
    /// words drawn in bulk and the table scanned for many at once (`cdt.rs`).
    pub fn fill(&self, rng: &mut Csprng, out: &mut [i64]) {
        super::cdt::fill(&self.table, rng, out);
    }

    /// The table (`cdt.rs`).
    #[cfg(test)]
    pub(super) fn table(&self) -> &[u128] {
        &self.table
    }

    /// n independent samples, zeroized on drop.
    pub fn sample(&self, rng: &mut Csprng, n: usize) -> Zeroizing<Vec<i64>> {
        let mut out = Zeroizing::new(vec![0i64; n]);
        self.fill(rng, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact-enough pmf of the truncated discrete Gaussian, in f64.
    fn pmf(sigma: f64, bound: i64) -> Vec<f64> {
        let rho: Vec<f64> = (-bound..=bound)
            .map(|x| (-((x * x) as f64) / (2.0 * sigma * sigma)).exp())
            .collect();
        let s: f64 = rho.iter().sum();
        rho.iter().map(|r| r / s).collect()
    }

    #[test]
    fn default_is_3_2_with_bound_19() {
        let g = DiscreteGaussian::default();
        assert_eq!(g, DiscreteGaussian::new(3.2, 6.0).unwrap());
        assert_eq!((g.sigma(), g.bound()), (3.2, 19));
        // |x| = 19 stays possible (table resolution 2^-127, P(|x| = 19) ~ 2e-9).
        assert!(g.cdf_abs(18) < 1.0 - 1e-10);
        assert_eq!(g.cdf_abs(19), 1.0);
    }

    #[test]
    fn table_matches_f64_pmf() {
        for (sigma, tail) in [(3.2, 6.0), (1.0, 6.0), (0.5, 4.0), (10.0, 6.0), (3.2, 12.0)] {
            let g = DiscreteGaussian::new(sigma, tail).unwrap();
            let b = g.bound() as i64;
            let p = pmf(sigma, b);
            let mut cdf = 0.0;
            for k in 0..=b {
                cdf += if k == 0 {
                    p[b as usize]
                } else {
                    2.0 * p[(b + k) as usize]
                };
                assert!(
                    (g.cdf_abs(k as u64) - cdf).abs() < 1e-12,
                    "sigma {sigma} k {k}"
                );
            }
        }
    }

    #[test]
    fn rejects_bad_parameters() {
        for (s, t) in [
            (f64::NAN, 6.0),
            (-1.0, 6.0),
            (0.4, 6.0),
            (3.2, 0.0),
            (3.2, f64::INFINITY),
            (0.5, 1.0),
            (1000.0, 6.0),
        ] {
            assert!(
                matches!(DiscreteGaussian::new(s, t), Err(Error::OutOfRange(_))),
                "{s} {t}"
            );
        }
    }

    #[test]
    fn moments_support_and_shape() {
        for (seed, sigma) in [(21u8, 3.2), (22, 1.0), (23, 8.0)] {
            let g = DiscreteGaussian::new(sigma, 6.0).unwrap();
            let b = g.bound() as i64;
            let mut rng = Csprng::from_seed([seed; 32]);
            let n = 200_000;
            let s = g.sample(&mut rng, n);
            assert!(s.iter().all(|x| x.abs() <= b));
            let mean = s.iter().sum::<i64>() as f64 / n as f64;
            let var = s.iter().map(|&x| (x * x) as f64).sum::<f64>() / n as f64 - mean * mean;
            // 6 standard deviations of the estimators: sigma/sqrt(n) and sigma^2 sqrt(2/n).
            let v = sigma * sigma;
            assert!(mean.abs() < 6.0 * sigma / (n as f64).sqrt(), "mean {mean}");
            assert!(
                (var - v).abs() < 6.0 * v * (2.0 / n as f64).sqrt(),
                "var {var}"
            );
            // Chi-square over |x| <= 2 sigma cells plus both tails, df <= 34: P(> 90) < 1e-6.
            let p = pmf(sigma, b);
            let c = (2.0 * sigma) as i64;
            let mut obs = vec![0usize; (2 * c + 3) as usize];
            for &x in s.iter() {
                obs[(x.clamp(-c - 1, c + 1) + c + 1) as usize] += 1;
            }
            let mut chi = 0.0;
            for (cell, &o) in obs.iter().enumerate() {
                let x = cell as i64 - c - 1;
                let pr: f64 = (-b..=b)
                    .filter(|&y| y.clamp(-c - 1, c + 1) == x)
                    .map(|y| p[(y + b) as usize])
                    .sum();
                let e = pr * n as f64;
                chi += (o as f64 - e).powi(2) / e;
            }
            assert!(chi < 90.0, "sigma {sigma}: chi2 {chi}, {obs:?}");
        }
    }

    #[test]
    fn deterministic_under_seed() {
        let g = DiscreteGaussian::default();
        let a = g.sample(&mut Csprng::from_seed([5; 32]), 1000);
        let b = g.sample(&mut Csprng::from_seed([5; 32]), 1000);
        assert_eq!(*a, *b);
    }
}
