//! BFV encryption (Bajard et al. (SAC 2016)'s Enc_FV, and symmetric with a seeded a), the phase, and decryption:
//! by the parameter set's method after a modulus switch to a shorter prefix of q, by a chosen
//! method, or checked against the noise.

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;

use super::BfvContext;
use crate::bfv::decrypt::{Decryptor, SwitchedDecryption};
use crate::bfv::{BfvCiphertext, BfvPlaintext, Decryption};
use crate::rlwe::{KeyId, Parts, PublicKey, SecretKey};
use crate::{Error, Result};

impl BfvContext {
    /// A ciphertext of this context and a secret key of it, the one it was encrypted under.
    fn check_decryption(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<()> {
        self.check_ct(ct)?;
        self.check_secret(sk)?;
        KeyId::check(ct.key_id, sk.id(), "secret key")
    }

    /// A ciphertext of this context of key pair `key_id` with the noise bound `noise` (log2, see
    /// `noise.rs`).
    pub(crate) fn ciphertext(
        &self,
        parts: impl Into<Parts>,
        key_id: Option<KeyId>,
        noise: Option<[f64; 2]>,
    ) -> BfvCiphertext {
        BfvCiphertext {
            parts: parts.into(),
            fingerprint: self.fingerprint,
            key_id,
            noise,
        }
    }

    /// A ciphertext from its polynomials over this context's Q (any representation; at least 2), of
    /// key pair `key_id` (`None`: unknown, combines with any). For tests, deserialisation and
    /// experiments such as trivial ciphertexts (Delta m + v, 0). Full Montgomery: parts in the plain
    /// form are converted to c M (their values kept); parts in Montgomery form are taken as they are.
    pub fn ciphertext_from_parts(
        &self,
        parts: Vec<Poly>,
        key_id: Option<KeyId>,
    ) -> Result<BfvCiphertext> {
        let out = crate::rlwe::ciphertext_parts(
            parts,
            self.ring(),
            Representation::Coefficient,
            "this context's ring",
        )?
        .into_iter()
        .map(|p| self.enter(p))
        .collect::<Result<Vec<_>>>()?;
        Ok(self.ciphertext(out, key_id, None))
    }

    /// Public-key encryption (Enc_FV): (Delta \[m]_t + p0 u + e1, p1 u + e2).
    pub fn encrypt(
        &self,
        pt: &BfvPlaintext,
        pk: &PublicKey,
        rng: &mut Csprng,
    ) -> Result<BfvCiphertext> {
        self.check_public(pk)?;
        let (mut c0, c1) = pk.encrypt_zero(&self.sw, self.params.secret, &self.gaussian, rng)?;
        c0.add_assign(&self.scaled_plain(pt)?)?;
        Ok(self.ciphertext(
            vec![self.enter(c0)?, self.enter(c1)?],
            Some(pk.id()),
            self.noise.fresh(self, true, pt),
        ))
    }

    /// Symmetric encryption: (Delta \[m]_t - a s + e, a) with a from a seed kept in the ciphertext.
    pub fn encrypt_symmetric(
        &self,
        pt: &BfvPlaintext,
        sk: &SecretKey,
        rng: &mut Csprng,
    ) -> Result<BfvCiphertext> {
        self.check_secret(sk)?;
        let (mut c0, c1, seed) = sk.encrypt_zero(&self.gaussian, rng)?;
        c0.add_assign(&self.scaled_plain(pt)?)?;
        let (c0, c1) = (self.enter(c0)?, self.enter(c1)?);
        // c_1 M is not the seed's expansion: full Montgomery ciphertexts keep both parts.
        let parts = if self.params.is_full_montgomery() {
            vec![c0, c1].into()
        } else {
            Parts::seeded(c0, c1, seed)
        };
        Ok(self.ciphertext(parts, Some(sk.id()), self.noise.fresh(self, false, pt)))
    }

    /// The phase [ct(s)]_q = c0 + c1 s + c2 s^2 + ... = Delta m + v (mod q), coefficient form.
    pub fn phase(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<Poly> {
        self.check_decryption(ct, sk)?;
        let s = sk.ntt_q();
        let mut acc = ct.parts[1].clone();
        acc.to_ntt()?;
        acc.mul_assign(s)?;
        let mut power = s.clone();
        for c in &ct.parts[2..] {
            power.mul_assign(s)?;
            crate::rlwe::reduce_product(&mut power)?;
            let mut c = c.clone();
            c.to_ntt()?;
            c.mul_assign(&power)?;
            acc.add_assign(&c)?;
        }
        acc.to_coefficient()?;
        acc.add_assign(&ct.parts[0])?;
        if self.params.is_full_montgomery() {
            // (c_0 + c_1 s + ...) M, left by a Montgomery reduction (Bajard et al. (SAC 2017) section 4).
            return Ok(acc.from_montgomery()?);
        }
        Ok(acc)
    }

    /// Decrypts with the parameter set's default method. A two-part ciphertext over X^n + 1 is first
    /// switched to the fewest primes of q that keep 64 bits above the switch's rounding (2 of 3 at
    /// n = 2^13, 2 of 7 at 2^14): the same plaintext as [`Self::decrypt_with`] over the whole q for any ciphertext
    /// with a noise budget of at least one bit (decision and bound in `decrypt.rs`).
    pub fn decrypt(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<BfvPlaintext> {
        let (x, dec) = self.decryption_phase(ct, sk)?;
        let m = dec.decrypt(self.params.decryption, x.residues(), self.params.degree)?;
        Ok(self.plaintext(m))
    }

    /// The number of primes of q that [`Self::decrypt`] works over for a two-part ciphertext after
    /// its modulus switch (all of q when no shorter prefix is wide enough).
    pub fn decryption_moduli(&self) -> usize {
        self.switched
            .as_ref()
            .map_or(self.params.moduli.len(), |s| s.level + 1)
    }

    /// The phase `decrypt` and `decrypt_checked` work on, with the decryptor of its modulus: over
    /// q' after the switch (two parts, X^n + 1, a shorter prefix wide enough), else
    /// [`Self::phase`] over q.
    fn decryption_phase(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<(Poly, &Decryptor)> {
        match &self.switched {
            Some(sw) if ct.parts.len() == 2 => Ok((self.switched_phase(sw, ct, sk)?, &sw.dec)),
            _ => Ok((self.phase(ct, sk)?, &self.dec)),
        }
    }

    /// x' = c_0' + c_1' s over q' for c_j' = round(q' c_j / q) (`SwitchedDecryption`).
    fn switched_phase(
        &self,
        sw: &SwitchedDecryption,
        ct: &BfvCiphertext,
        sk: &SecretKey,
    ) -> Result<Poly> {
        self.check_decryption(ct, sk)?;
        let ring = self
            .sw
            .ring_at(sw.level)
            .ok_or_else(|| Error::Internal("switched decryption level beyond the chain".into()))?;
        let n = self.params.degree;
        // Every word is written by the switch (a floor over the dropped primes).
        let switched = |c: &Poly| {
            Poly::from_fill(ring, Representation::Coefficient, |out| {
                sw.switch(c.residues(), n, out)
            })
        };
        let mut x = switched(&ct.parts[1])?;
        x.to_ntt()?;
        x.mul_assign(&sk.ntt_at(ring)?)?;
        x.to_coefficient()?;
        x.add_assign(&switched(&ct.parts[0])?)?;
        Ok(x)
    }

    /// Decrypts with a chosen method (any size of ciphertext), over the whole q: the paper's
    /// algorithm as written. Correct while the noise is below the method's bound; an exhausted
    /// ciphertext decrypts to garbage, which `noise_budget` reports as 0.
    pub fn decrypt_with(
        &self,
        ct: &BfvCiphertext,
        sk: &SecretKey,
        method: Decryption,
    ) -> Result<BfvPlaintext> {
        let x = self.phase(ct, sk)?;
        let m = self.dec.decrypt(method, x.residues(), self.params.degree)?;
        Ok(self.plaintext(m))
    }

    /// Decrypts with a chosen method after checking the noise on the same phase: a ciphertext whose
    /// noise budget is 0 is refused with `Error::NoiseBudgetExhausted` instead of decrypting to
    /// garbage. Refused: a measured ||[t ct(s)]_q|| / q >= 1/4, or a carried noise bound >= 1/4 (the
    /// measurement cannot see a coefficient that wrapped past q/2; decision in `noise.rs`). The
    /// check costs about one HPS decryption (128-bit fractions, no big integers). Works on the
    /// switched phase as [`Self::decrypt`] does (its fractions within 2^-64 of those over q).
    pub fn decrypt_checked(
        &self,
        ct: &BfvCiphertext,
        sk: &SecretKey,
        method: Decryption,
    ) -> Result<BfvPlaintext> {
        let (x, dec) = self.decryption_phase(ct, sk)?;
        if let Err(why) = self.noise_verdict(ct, &x, dec)? {
            return Err(Error::NoiseBudgetExhausted(format!(
                "{why}, so the decryption may be wrong; these parameters guarantee {} \
                 multiplications in the worst case (bound (20) of Bajard et al. (SAC 2016)): use larger moduli or \
                 a larger degree, or fewer multiplications",
                self.depth_inputs().depth()
            )));
        }
        let m = dec.decrypt(method, x.residues(), self.params.degree)?;
        Ok(self.plaintext(m))
    }

    /// Whether DecRNS-flp runs in f64 (else in two-word fixed point) for these parameters.
    pub fn flp_uses_f64(&self) -> bool {
        self.dec.flp_uses_f64()
    }
}
