//! A discrete Gaussian of large standard deviation (noise flooding, smudging), added straight into
//! the residues of an RNS polynomial: its samples may exceed 64 bits, and are never formed as one
//! machine integer.
//!
//! Construction. A sample is X = sum_p 2^(k_p) X_p with independent parts X_p = round(sigma_p z_p),
//! z_p standard normal by Box-Muller in f64, every sigma_p <= 2^48 (so |X_p| < 2^52, exact in f64
//! and in i64), and sum_p 4^(k_p) sigma_p^2 = sigma^2. It is built top-down: for sigma <= 2^48 one
//! part; otherwise X = 2^k Y + X_lo with X_lo of sigma_lo = max(4 * 2^k, 2^24) and Y, of
//! sigma_Y = sqrt(sigma^2 - sigma_lo^2) / 2^k, built the same way (k = log2(sigma) - 48 rounded up,
//! within 1..=46).
//!
//! Why the sum is Gaussian. Two exactly sampled parts X_hi 2^k + X_lo are not a Gaussian in general
//! (with X_lo narrow, X mod 2^k follows X_lo alone, and the low bits of whatever X hides show
//! through). Peikert's convolution theorem ("An efficient and parallel Gaussian sampler for
//! lattices", Crypto 2010, Theorem 3.1; in the form of Micciancio and Walter, "Gaussian sampling
//! over the integers: efficient, generic, constant-time", Crypto 2017, Theorem 3) makes it one: for
//! Y ~ D_{Z, sigma_Y} and X_lo ~ D_{Z, sigma_lo}, 2^k Y + X_lo is within a factor (1 + eps)/(1 - eps)
//! of D_{Z, sigma} at every point as soon as sigma_Y sigma_lo / sigma >= eta_eps(Z), the smoothing
//! parameter of Z (here as a standard deviation: eta = sqrt(ln(2 + 2/eps) / pi) / sqrt(2 pi)). With
//! sigma_lo >= 4 * 2^k and sigma ~ 2^k sigma_Y that ratio is at least 4 (less a 2^-44 relative
//! term), for which eps < 2^-450: the parts combine into a discrete Gaussian of sigma to that factor,
//! at every level of the recursion. Every X mod 2^j is then as good as uniform up to j = log2 sigma.
//!
//! The base parts. round(sigma_p z) of a continuous Gaussian is D_{Z, sigma_p} up to a relative
//! error below 2^-40 for sigma_p >= 2^24 (the second-order Euler-Maclaurin term (x^2/sigma^2 - 1)
//! / (24 sigma^2) over |x| <= 9.42 sigma); only a sigma below 2^24 uses one part of that sigma.
//! Box-Muller: r = sqrt(-2 ln u1), u1 = (x + 1) 2^-64 for a 64-bit word x (tail cut at 9.42 sigma_p,
//! mass about 2^-64 beyond), theta = 2 pi u2 with 53 bits, each pair of normals from two CSPRNG
//! words. The arithmetic does not branch on the values (residues are reduced through an offset
//! multiple of q, no sign test), but libm's ln, sin and cos are not guaranteed constant time (as in
//! Lattigo's and OpenFHE's flooding samplers).

use std::f64::consts::PI;

use zeroize::Zeroizing;

use super::Csprng;
use crate::arith::{vector, Modulus};
use crate::{Error, Result};

/// The widest part: every |X_p| <= 9.42 * 2^48 < 2^52.
const BASE_LOG_SIGMA: f64 = 48.0;
/// The largest shift of one level of the recursion (sigma_lo = 4 * 2^k <= 2^48).
const MAX_SHIFT: i32 = 46;
/// sigma_lo >= LO_RATIO * 2^k: the convolution theorem's margin over the smoothing parameter.
const LO_RATIO: f64 = 4.0;
/// The narrowest low part (relative error of a rounded continuous Gaussian below 2^-40).
const LO_MIN_LOG: f64 = 24.0;
/// The largest |z| of Box-Muller with 64-bit u1: sqrt(-2 ln 2^-64).
pub const WIDE_Z_MAX: f64 = 9.42;
/// The largest accepted log2 sigma (the samples are never formed as one integer; the caller's
/// modulus bounds what is useful).
pub const WIDE_MAX_LOG_SIGMA: f64 = 1000.0;

/// One part X_p of a sample: shift k_p and standard deviation sigma_p.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Part {
    shift: u32,
    sigma: f64,
}

/// A discrete Gaussian D_{Z, sigma} of any sigma in [1, 2^1000] (see the module doc). Public
/// parameters only.
#[derive(Clone, Debug, PartialEq)]
pub struct WideGaussian {
    sigma: f64,
    parts: Vec<Part>,
}

impl WideGaussian {
    /// The sampler of standard deviation `sigma`; errors unless 1 <= sigma <= 2^1000.
    pub fn new(sigma: f64) -> Result<Self> {
        if !(sigma.is_finite() && (1.0..=WIDE_MAX_LOG_SIGMA.exp2()).contains(&sigma)) {
            return Err(Error::OutOfRange(format!(
                "wide Gaussian sigma = {sigma:e}: must be within 1..=2^{WIDE_MAX_LOG_SIGMA}"
            )));
        }
        let mut parts = Vec::new();
        let (mut s, mut shift) = (sigma, 0u32);
        while s.log2() > BASE_LOG_SIGMA {
            let k = ((s.log2() - BASE_LOG_SIGMA).ceil() as i32).clamp(1, MAX_SHIFT);
            let step = f64::from(k).exp2();
            let lo = (LO_RATIO * step).max(LO_MIN_LOG.exp2());
            parts.push(Part { shift, sigma: lo });
            s = (s * s - lo * lo).sqrt() / step;
            shift += k as u32;
        }
        parts.push(Part { shift, sigma: s });
        Ok(WideGaussian { sigma, parts })
    }

    /// The standard deviation sigma.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The number of base parts per sample (1 for sigma <= 2^48).
    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// log2 of the largest |X| the sampler can output: sum_p 2^(k_p) (9.42 sigma_p + 1/2).
    pub fn max_log2(&self) -> f64 {
        self.parts
            .iter()
            .map(|p| f64::from(p.shift).exp2() * (WIDE_Z_MAX * p.sigma + 0.5))
            .sum::<f64>()
            .log2()
    }

    /// n * parts base samples round(sigma_p z), part-major (`out[p * n + j]`: part p of sample j).
    fn base_samples(&self, n: usize, rng: &mut Csprng) -> Zeroizing<Vec<i64>> {
        let count = n * self.parts.len();
        let mut words = Zeroizing::new(vec![0u64; count + (count & 1)]);
        rng.fill_words(&mut words);
        let mut out = Zeroizing::new(vec![0i64; count]);
        let sigma_of = |i: usize| self.parts[i / n].sigma;
        for (i, w) in words.chunks_exact(2).enumerate() {
            let u1 = (w[0] as f64 + 1.0) * (-64f64).exp2();
            let u2 = (w[1] >> 11) as f64 * (-53f64).exp2();
            let r = (-2.0 * u1.ln()).sqrt();
            let (s, c) = (2.0 * PI * u2).sin_cos();
            let (a, b) = (2 * i, 2 * i + 1);
            out[a] = (sigma_of(a) * r * c).round() as i64;
            if let Some(x) = out.get_mut(b) {
                *x = (sigma_of(b) * r * s).round() as i64;
            }
        }
        out
    }

    /// Adds `factor` times n fresh samples X_0..X_{n-1} to limb-major residues `out` (`out[i*n + j]`
    /// in [0, q_i), coefficient j of limb i): X_j mod q_i from its parts, sum_p (2^(k_p) mod q_i)
    /// (X_p mod q_i), with the vector kernels of `arith::vector`. Errors if `out.len() !=
    /// moduli.len() * n`.
    pub fn add_to(
        &self,
        moduli: &[Modulus],
        n: usize,
        factor: u64,
        out: &mut [u64],
        rng: &mut Csprng,
    ) -> Result<()> {
        if out.len() != moduli.len() * n {
            return Err(Error::LengthMismatch {
                what: "residues",
                expected: moduli.len() * n,
                got: out.len(),
            });
        }
        let x = self.base_samples(n, rng);
        let mut shifted = Zeroizing::new(vec![0u64; n]);
        let mut reduced = Zeroizing::new(vec![0u64; n]);
        for (q, limb) in moduli.iter().zip(out.chunks_exact_mut(n)) {
            let f = q.reduce(factor);
            // An offset multiple of q above 2^52 > |X_p| makes X_p + offset non-negative.
            let offset = q.value() * ((1u64 << 53) / q.value() + 1);
            for (part, xs) in self.parts.iter().zip(x.chunks_exact(n)) {
                for (d, &v) in shifted.iter_mut().zip(xs) {
                    *d = (v as u64).wrapping_add(offset);
                }
                vector::reduce_into(q, u64::MAX, &shifted, &mut reduced);
                let w = q.mul(q.pow(2, u64::from(part.shift)), f);
                if w != 1 {
                    vector::mul_shoup_scalar_assign(q, &mut reduced, q.shoup(w));
                }
                vector::add_assign(q, limb, &reduced);
            }
        }
        Ok(())
    }

    /// n samples as integers (sigma below 2^100: each |X| < 2^104 fits), for tests and reference
    /// computations; the same draws as [`Self::add_to`] from the same generator state.
    pub fn sample_i128(&self, n: usize, rng: &mut Csprng) -> Result<Zeroizing<Vec<i128>>> {
        if self.max_log2() > 120.0 {
            return Err(Error::OutOfRange(format!(
                "wide Gaussian sigma = 2^{:.1}: samples exceed i128; add them to residues instead",
                self.sigma.log2()
            )));
        }
        let x = self.base_samples(n, rng);
        Ok(Zeroizing::new(
            (0..n)
                .map(|j| {
                    self.parts
                        .iter()
                        .enumerate()
                        .map(|(p, part)| i128::from(x[p * n + j]) << part.shift)
                        .sum()
                })
                .collect(),
        ))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;

    fn sd(x: &[i128]) -> f64 {
        (x.iter().map(|&v| (v as f64).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
    }

    /// The parts' variances add up to sigma^2, each part within 2^48, and the convolution margin
    /// sigma_Y sigma_lo / sigma >= 4 holds at every level.
    #[test]
    fn parts_compose_sigma() {
        for log in [0.0, 20.0, 48.0, 48.5, 60.0, 68.5, 93.0, 94.5, 140.0, 400.0] {
            let g = WideGaussian::new(f64::exp2(log)).unwrap();
            let var: f64 = g
                .parts
                .iter()
                .map(|p| f64::from(2 * p.shift).exp2() * p.sigma * p.sigma)
                .sum();
            assert!((var.sqrt() / g.sigma() - 1.0).abs() < 1e-12, "2^{log}");
            assert!(g.parts.iter().all(|p| p.sigma.log2() <= 48.0 + 1e-9));
            for w in g.parts.windows(2) {
                let k = f64::from(w[1].shift - w[0].shift).exp2();
                assert!(w[0].sigma >= 4.0 * k, "2^{log}: low part below 4 * 2^k");
            }
        }
        assert_eq!(WideGaussian::new(2f64.powi(40)).unwrap().parts(), 1);
        assert_eq!(WideGaussian::new(2f64.powf(68.5)).unwrap().parts(), 2);
        assert!(WideGaussian::new(0.5).is_err() && WideGaussian::new(f64::NAN).is_err());
    }

    /// Residues equal the integer samples modulo each q, with a factor (same generator state).
    #[test]
    fn residues_match_integers() {
        let moduli: Vec<Modulus> = [(1u64 << 61) - 1, 1_099_511_627_689, 65537]
            .iter()
            .map(|&q| Modulus::new(q).unwrap())
            .collect();
        let n = 64;
        for log in [10.0, 47.0, 70.0, 99.0] {
            let g = WideGaussian::new(f64::exp2(log)).unwrap();
            let x = g.sample_i128(n, &mut Csprng::from_seed([5; 32])).unwrap();
            let mut out = vec![0u64; 3 * n];
            for (i, q) in moduli.iter().enumerate() {
                for j in 0..n {
                    out[i * n + j] = (j as u64 * 7) % q.value();
                }
            }
            g.add_to(&moduli, n, 3, &mut out, &mut Csprng::from_seed([5; 32]))
                .unwrap();
            for (i, q) in moduli.iter().enumerate() {
                let qi = i128::from(q.value());
                for j in 0..n {
                    let want = (j as i128 * 7 + 3 * x[j]).rem_euclid(qi) as u64;
                    assert_eq!(out[i * n + j], want, "2^{log}, limb {i}, coefficient {j}");
                }
            }
        }
    }

    /// The measured standard deviation is sigma (within 3% over 2^14 samples), including beyond
    /// 2^48, and the low bits of a sigma = 2^70 sample are uniform: a chi-square over X mod 2^8 and
    /// over (X >> 30) mod 2^8 (a sampler rounding one f64 to 53 bits has zeros below 2^17).
    #[test]
    fn wide_samples_are_gaussian_to_the_last_bit() {
        let mut rng = Csprng::from_seed([9; 32]);
        let n = 1 << 14;
        for log in [30.0, 60.0, 70.0, 100.0] {
            let g = WideGaussian::new(f64::exp2(log)).unwrap();
            let x = g.sample_i128(n, &mut rng).unwrap();
            assert!(
                (sd(&x) / g.sigma() - 1.0).abs() < 0.03,
                "2^{log}: sd 2^{}",
                sd(&x).log2()
            );
            let max = x.iter().map(|v| v.unsigned_abs()).max().unwrap() as f64;
            assert!(max.log2() <= g.max_log2());
            assert!(max > 3.0 * g.sigma());
        }
        let g = WideGaussian::new(2f64.powi(70)).unwrap();
        let x = g.sample_i128(n, &mut rng).unwrap();
        for shift in [0u32, 30] {
            let mut hist = [0f64; 256];
            for &v in x.iter() {
                hist[((v >> shift) & 255) as usize] += 1.0;
            }
            let e = n as f64 / 256.0;
            let chi2: f64 = hist.iter().map(|&h| (h - e) * (h - e) / e).sum();
            // 255 degrees of freedom: mean 255, sd 22.6; 400 is 6.4 sd out.
            assert!(chi2 < 400.0, "bits {shift}..{}: chi2 {chi2}", shift + 8);
        }
    }
}
