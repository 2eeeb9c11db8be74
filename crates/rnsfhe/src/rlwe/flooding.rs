//! Noise flooding of decryptions: what a decryption reveals of a ciphertext's error, the standard
//! deviation that hides it, and the noise itself ([`Flooding`]); used by CKKS decryption
//! (`CkksContext::decrypt_flooded`) and by the collective key switching of `multiparty`.
//!
//! What leaks. A decryption reveals the phase c_0 + c_1 s = m + e. BFV and BGV round e away; CKKS
//! returns it: Li and Micciancio, "On the security of homomorphic encryption on approximate
//! numbers" (Eurocrypt 2021), recover s from one shared decryption of a fresh ciphertext (s =
//! (m + e - c_0) / c_1, solved in the NTT domain; `tests/flooding_attack.rs` mounts it), and a
//! collective decryption shows m + e to every party. Adding a fresh X ~ D_{Z, sigma}^n, the output
//! reveals e + X, and X hides e.
//!
//! The bound. Let P be the distribution of e + X and Q that of X (or of e' + X for another
//! ciphertext's e'). For the discrete Gaussian and an integer shift e the Renyi divergence of order
//! 2 is exactly R_2(P || Q) = exp(||e||_2^2 / sigma^2), and the Kullback-Leibler divergence is
//! ||e||_2^2 / (2 sigma^2) (to within the sampler's 2^-450 factor, `rnsfhe_math::sample::WideGaussian`).
//! Divergences add over independent releases, so D decryptions (each with fresh noise) under one
//! key need sigma^2 times D. With sigma >= 2^(lambda/2) sqrt(n D) B and ||e||_2 <= sqrt(n) B for a
//! bound B on ||e||_inf:
//!
//! - search (recovering s, Li and Micciancio's attack): R_2 <= exp(2^-lambda) over the D
//!   decryptions; by the probability preservation of Renyi divergence (Bai, Lepoint,
//!   Roux-Langlois, Sakzad, Stehle and Steinfeld, Asiacrypt 2015) an attack of success p on the
//!   real outputs succeeds with at least p^2 / R_2 on outputs that reveal nothing of e.
//! - decision (IND-CPA-D of Li and Micciancio: telling which of two computations, of errors e_0
//!   and e_1 with ||e_0 - e_1||_inf <= 2B, was decrypted): KL <= 2^-(lambda-1) over the D
//!   decryptions, so by Pinsker the statistical distance is at most 2^-(lambda/2); in the bit
//!   security of Micciancio and Walter (Eurocrypt 2018), which counts a distinguisher of advantage
//!   delta as 1/delta^2 of work, that is lambda bits. Li, Micciancio, Schultz and Sorrell,
//!   "Securing approximate homomorphic encryption using differential privacy" (Crypto 2022), prove
//!   this Gaussian mechanism IND-CPA-D with sigma growing as sqrt(D) 2^(s/2) times the error bound,
//!   as here, and show that much noise is needed; OpenFHE's NOISE_FLOODING_DECRYPT and
//!   NOISE_FLOODING_MULTIPARTY follow them with sigma = sqrt(24 n D) 2^(s/2) B (their constant
//!   counts the difference of two errors in the canonical embedding; ours counts it in the
//!   coefficients, where the noise is added).
//!
//! Hence [`Flooding::new`]: sigma = 2^(lambda/2) sqrt(n D) 2^noise_log2, lambda the statistical
//! security (default [`DEFAULT_LAMBDA`] = 40), D the number of decryptions the key will see (of
//! this or related ciphertexts), 2^noise_log2 >= ||e||_inf. The bound is the caller's to state when
//! the ciphertext carries none (CKKS): see `CkksContext::error_log2`, which measures it on a
//! rehearsal of the computation under a throwaway key (OpenFHE's EXEC_NOISE_ESTIMATION does the
//! same with a second run; a bound measured on the real key's ciphertext would depend on e).
//!
//! The cost. Each coefficient gains a Gaussian of sigma (times sqrt(k) for k parties' noise):
//! below 9.6 sqrt(k) sigma but for a 2^-70 tail ([`Flooding::bound_log2`]). A CKKS slot sums n
//! coefficients times roots of unity, so each real component of a slot gains a Gaussian of
//! sqrt(k n / 2) sigma / Delta ([`Flooding::slot_error_log2`]): the precision left is log2 Delta -
//! log2(sqrt(k n / 2) sigma) bits ([`Flooding::precision_bits`]), i.e. the ciphertext's own
//! precision log2(Delta / B) less lambda/2 + log2(n) + (log2(k D / 2)) / 2 bits.

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::{Csprng, WideGaussian};

use crate::{Error, Result};

/// The default statistical security lambda in bits.
pub const DEFAULT_LAMBDA: u32 = 40;

/// z of a 2^-70 tail of a standard Gaussian.
const Z_TAIL: f64 = 9.6;

/// Flooding noise: a discrete Gaussian of standard deviation sigma added to each coefficient of a
/// decryption's phase (module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Flooding {
    gaussian: WideGaussian,
}

impl Flooding {
    /// sigma = 2^(lambda/2) sqrt(degree * decryptions) 2^noise_log2 for errors of ||e||_inf <=
    /// 2^noise_log2 (module doc).
    pub fn new(lambda: u32, noise_log2: f64, degree: usize, decryptions: u64) -> Result<Self> {
        Self::with_sigma(Self::sigma_log2(lambda, noise_log2, degree, decryptions)?.exp2())
    }

    /// log2 of the sigma of [`Self::new`].
    pub fn sigma_log2(
        lambda: u32,
        noise_log2: f64,
        degree: usize,
        decryptions: u64,
    ) -> Result<f64> {
        if !noise_log2.is_finite() || degree == 0 || decryptions == 0 {
            return Err(Error::InvalidParameters(format!(
                "flooding for a noise of 2^{noise_log2}, degree {degree}, {decryptions} \
                 decryptions: a finite bound and positive counts are needed"
            )));
        }
        Ok(f64::from(lambda) / 2.0
            + 0.5 * ((degree as f64).log2() + (decryptions as f64).log2())
            + noise_log2)
    }

    /// Flooding of a given sigma, from 1 to 2^1000 (whether it hides anything is the caller's).
    pub fn with_sigma(sigma: f64) -> Result<Self> {
        let gaussian = WideGaussian::new(sigma).map_err(|_| {
            Error::InvalidParameters(format!(
                "flooding sigma = 2^{:.1}: must be within 1..=2^{}",
                sigma.log2(),
                rnsfhe_math::sample::WIDE_MAX_LOG_SIGMA
            ))
        })?;
        Ok(Flooding { gaussian })
    }

    /// The standard deviation sigma.
    pub fn sigma(&self) -> f64 {
        self.gaussian.sigma()
    }

    /// log2 of the bound on each coefficient of the sum of `count` independent draws (parties):
    /// min(count * the sampler's largest output, 9.6 sqrt(count) sigma).
    pub fn bound_log2(&self, count: usize) -> f64 {
        let k = count.max(1) as f64;
        (self.gaussian.max_log2() + k.log2()).min((Z_TAIL * k.sqrt() * self.sigma()).log2())
    }

    /// log2 of the standard deviation of each real component of a CKKS slot after `count` draws
    /// on a ring of `degree`, relative to the scale 1: sqrt(count * degree / 2) sigma.
    pub fn slot_error_log2(&self, degree: usize, count: usize) -> f64 {
        0.5 * ((count.max(1) * degree) as f64 / 2.0).log2() + self.sigma().log2()
    }

    /// The bits of precision a CKKS decryption at scale 2^scale_log2 keeps after `count` draws:
    /// scale_log2 less [`Self::slot_error_log2`] (the flooding dominates the ciphertext's error).
    pub fn precision_bits(&self, scale_log2: f64, degree: usize, count: usize) -> f64 {
        scale_log2 - self.slot_error_log2(degree, count)
    }

    /// log2 of the scale a CKKS decryption needs to keep `precision_bits` bits after `count`
    /// draws (parties; 1 for one key) on a ring of `degree`: the bits plus
    /// [`Self::slot_error_log2`].
    pub fn scale_log2_for(&self, precision_bits: f64, degree: usize, count: usize) -> f64 {
        precision_bits + self.slot_error_log2(degree, count)
    }

    /// Adds `factor` times a fresh draw to each coefficient of `poly` (coefficient form; BGV's
    /// factor is t, so that the noise stays a multiple of t).
    pub fn add_to(&self, poly: &mut Poly, factor: u64, rng: &mut Csprng) -> Result<()> {
        if poly.representation() != Representation::Coefficient {
            return Err(Error::InvalidParameters(
                "flooding adds to a polynomial in coefficient form".into(),
            ));
        }
        let ring = poly.context().clone();
        let n = ring.limb_len(Representation::Coefficient);
        self.gaussian
            .add_to(ring.moduli(), n, factor, poly.residues_mut(), rng)?;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;

    /// The formula: lambda/2 + (log2 n + log2 D)/2 + noise bits, and the precision it leaves.
    #[test]
    fn sigma_formula() {
        let f = Flooding::new(40, 10.0, 4096, 4).unwrap();
        assert!((f.sigma().log2() - (20.0 + 7.0 + 10.0)).abs() < 1e-9);
        // Three parties on N = 4096: each real component of a slot has deviation
        // sqrt(3 * 4096 / 2) sigma = 2^(5.5 + 0.79 + 37).
        assert!((f.slot_error_log2(4096, 3) - (42.5 + 0.5 * 3f64.log2())).abs() < 1e-9);
        assert!((f.precision_bits(60.0, 4096, 3) - (17.5 - 0.5 * 3f64.log2())).abs() < 1e-9);
        assert!(Flooding::new(40, f64::NAN, 4096, 1).is_err());
        assert!(Flooding::new(40, 10.0, 4096, 0).is_err());
        // 2^68.5 (a BFV product's bound at lambda = 40) and beyond 2^48 are accepted.
        assert!(Flooding::with_sigma(2f64.powf(68.5)).is_ok());
        assert!(Flooding::with_sigma(0.5).is_err());
    }
}
