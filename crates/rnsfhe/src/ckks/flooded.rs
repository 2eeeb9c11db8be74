//! IND-CPA-D decryption: CKKS decryption with noise flooding (`rlwe::flooding` for the analysis).
//!
//! [`CkksContext::decrypt`] returns the phase m + e, whose error reveals the secret to anyone who
//! also holds the ciphertext (Li and Micciancio, Eurocrypt 2021). [`CkksContext::decrypt_flooded`]
//! adds a fresh discrete Gaussian of the [`Flooding`]'s sigma to every coefficient of the phase
//! before anything leaves the function, so the output is m + e + X, which Li, Micciancio, Schultz
//! and Sorrell (Crypto 2022) prove IND-CPA-D for sigma of the form of [`Flooding::new`].
//!
//! The error bound. CKKS ciphertexts carry no noise bound, and one computed from the real
//! ciphertext's decryption would depend on e. Decided here: the caller states the bound, and
//! [`CkksContext::error_log2`] measures it on a rehearsal: the same computation on representative
//! inputs under a throwaway key pair (OpenFHE's EXEC_NOISE_ESTIMATION runs the computation a second
//! time for the same reason). Add a margin of a bit or two for inputs of larger magnitude.
//!
//! Precision. Each real slot component gains a Gaussian of sqrt(n / 2) sigma / Delta
//! ([`Flooding::precision_bits`]): the flooded decryption keeps log2 Delta - log2(sqrt(n / 2)
//! sigma) bits, which at lambda = 40 is the ciphertext's own precision less about 20 + log2 n bits.
//! A decryption that must keep p bits needs a scale of [`Flooding::scale_log2_for`] p at the
//! level it is decrypted at (a level of two or more primes holds scales above 2^60: encode there
//! with `encode_at`).

use rnsfhe_math::sample::Csprng;

use super::{CkksCiphertext, CkksContext, CkksPlaintext, Complex};
use crate::rlwe::{Flooding, SecretKey};
use crate::{Error, Result};

impl CkksContext {
    /// Decryption with noise flooding: the phase m + e plus a fresh draw of `flooding` in every
    /// coefficient, as a plaintext (NTT form). Use it for every decryption whose result leaves the
    /// key's owner; size `flooding` for the number of such decryptions ([`Flooding::new`]).
    pub fn decrypt_flooded(
        &self,
        ct: &CkksCiphertext,
        sk: &SecretKey,
        flooding: &Flooding,
        rng: &mut Csprng,
    ) -> Result<CkksPlaintext> {
        let mut pt = self.flooded_phase(ct, sk, flooding, rng)?;
        pt.poly.to_ntt()?;
        Ok(pt)
    }

    /// The phase m + e plus a fresh draw of `flooding`, in coefficient form.
    fn flooded_phase(
        &self,
        ct: &CkksCiphertext,
        sk: &SecretKey,
        flooding: &Flooding,
        rng: &mut Csprng,
    ) -> Result<CkksPlaintext> {
        let mut pt = self.decrypt(ct, sk)?;
        pt.poly.to_coefficient()?;
        flooding.add_to(&mut pt.poly, 1, rng)?;
        Ok(pt)
    }

    /// [`Self::decrypt_flooded`] and decoding, without the round trip through the NTT form: the
    /// cost of [`Self::decrypt_values`] plus the sampling.
    pub fn decrypt_values_flooded(
        &self,
        ct: &CkksCiphertext,
        sk: &SecretKey,
        flooding: &Flooding,
        rng: &mut Csprng,
    ) -> Result<Vec<Complex>> {
        let pt = self.flooded_phase(ct, sk, flooding, rng)?;
        let coeffs = self.centered_coefficients(pt.poly.clone(), pt.scale)?;
        self.encoder().decode(&coeffs, pt.scale, pt.slots)
    }

    /// log2 of ||ct(s) - expected||_inf, the error of `ct` against the plaintext it should hold
    /// (at its level): the bound [`Flooding::new`] takes, measured on a rehearsal of the
    /// computation under a throwaway key pair (module doc), never on the ciphertext that is then
    /// decrypted for others. `expected` is the exact encoding (the plaintext encrypted, or the
    /// decryption of the computation run on trivial ciphertexts `encrypt_trivial`): encoding the
    /// expected values again would count the encoder's f64 rounding, which grows with the scale
    /// (about 2^-50 of it) and hides nothing secret. Minus infinity for no error.
    pub fn error_log2(
        &self,
        ct: &CkksCiphertext,
        sk: &SecretKey,
        expected: &CkksPlaintext,
    ) -> Result<f64> {
        self.check_plain(expected)?;
        if expected.level != ct.level {
            return Err(Error::LevelMismatch {
                op: "error_log2".into(),
                left: ct.level,
                right: expected.level,
                hint: "encode the expected values at the ciphertext's level".into(),
            });
        }
        let mut phase = self.decrypt(ct, sk)?.poly;
        phase.sub_assign(&expected.poly)?;
        let coeffs = self.centered_coefficients(phase, ct.scale)?;
        let max = coeffs.iter().fold(0f64, |m, c| m.max(c.abs()));
        if max.is_nan() {
            return Err(Error::OutOfRange(
                "the error does not fit a float: the ciphertext does not hold these values".into(),
            ));
        }
        Ok(max.log2())
    }
}
