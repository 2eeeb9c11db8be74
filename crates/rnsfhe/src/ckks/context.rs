//! The CKKS context (Cheon et al. (SAC 2018) section 3): precomputation per level, keys, encoding, encryption and
//! decryption.

use std::sync::Arc;

use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::sample::{Csprng, DiscreteGaussian, DEFAULT_TAIL};

use super::{CkksCiphertext, CkksEncoder, CkksParameters, CkksPlaintext, Complex};
use crate::rlwe::{
    expand_seeded_ntt, GaloisKeys, KeyId, KeySwitcher, Levels, ModulusChain, Parts, PublicKey,
    SecretKey,
};
use crate::{Error, Result};

/// Everything a CKKS parameter set precomputes; build once with [`CkksContext::new`] and share.
///
/// # Example
///
/// Complex slots: a product by a plaintext (rescaled), a rotation and the conjugation, checked
/// within CKKS precision (toy, insecure size):
///
/// ```
/// use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
/// use rnsfhe::params::Security;
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let params = CkksParameters::builder()
///     .degree(2048)
///     .levels(2)
///     .scale_bits(40)
///     .security(Security::InsecureResearchOnly)
///     .build()?;
/// let ctx = CkksContext::new(params)?;
/// let mut rng = Csprng::from_seed([3; 32]);
/// let (sk, pk) = ctx.keygen(&mut rng)?;
/// let gk = ctx.galois_keys(&sk, &[1], true, &mut rng)?; // rotation by 1, and conjugation
///
/// let z: Vec<Complex> = (0..8).map(|i| Complex::new(i as f64 / 8.0, 0.5)).collect();
/// let w: Vec<Complex> = (0..8).map(|i| Complex::from_real(1.0 + i as f64)).collect();
/// let c = ctx.encrypt(&ctx.encode(&z)?, &pk, &mut rng)?;
/// let prod = ctx.rescale(&ctx.mul_plain(&c, &ctx.encode(&w)?)?)?;
/// let r = ctx.conjugate(&ctx.rotate(&prod, 1, &gk)?, &gk)?;
///
/// let got = ctx.decrypt_values(&r, &sk)?;
/// for i in 0..8 {
///     let j = (i + 1) % 8; // 8 values fill 8 slots (sparse packing): the rotation wraps at 8
///     let want = Complex::new(z[j].re * w[j].re, -z[j].im * w[j].re);
///     assert!((got[i].re - want.re).abs() < 1e-6 && (got[i].im - want.im).abs() < 1e-6);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct CkksContext {
    /// The parameter set's fingerprint: ciphertexts, plaintexts and keys carry it, and any context of
    /// equal parameters accepts them (in any process).
    fingerprint: u64,
    params: CkksParameters,
    sw: KeySwitcher,
    encoder: CkksEncoder,
    gaussian: DiscreteGaussian,
    /// The rings of the levels and RS, the chain's step with t = 1 (Cheon et al. (SAC 2018) section 3, Rescale).
    chain: ModulusChain,
    /// The scale of each level, Delta_0..Delta_L ([`CkksContext::scale_at`]).
    pub(super) scales: Vec<f64>,
}

impl CkksContext {
    /// Setup(q, L, eta) for `params`: the rings of every level, key switching, the encoder.
    pub fn new(params: CkksParameters) -> Result<Arc<Self>> {
        let rings = Levels::new(params.degree, &params.chain, &params.special)?;
        let sw = KeySwitcher::on(Arc::clone(&rings), params.key_switching)?;
        let chain = ModulusChain::on(rings, 1)?;
        let scales = super::scales::chain_scales(&params)?;
        Ok(Arc::new(CkksContext {
            scales,
            fingerprint: params.fingerprint(),
            encoder: CkksEncoder::new(params.degree)?,
            gaussian: DiscreteGaussian::new(params.sigma, DEFAULT_TAIL)?,
            params,
            sw,
            chain,
        }))
    }

    /// The parameters.
    pub fn params(&self) -> &CkksParameters {
        &self.params
    }
    /// The parameter set's fingerprint (`crate::serialize::fingerprint` of what defines its rings and
    /// chain): the identity of the context, carried by its ciphertexts, plaintexts and keys.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    /// The top level L.
    pub fn max_level(&self) -> usize {
        self.params.levels()
    }
    /// The maximal number of slots, N/2.
    pub fn slots(&self) -> usize {
        self.params.degree / 2
    }
    /// The encoder.
    pub fn encoder(&self) -> &CkksEncoder {
        &self.encoder
    }
    /// Key-switching precomputation.
    pub fn key_switcher(&self) -> &KeySwitcher {
        &self.sw
    }
    /// The ring of a level.
    pub fn ring_at(&self, level: usize) -> Result<&Arc<RingContext>> {
        self.chain.ring_at(level).map_err(|_| {
            Error::InvalidParameters(format!(
                "level {level} is above the top level {}",
                self.max_level()
            ))
        })
    }

    /// The modulus chain of the levels (t = 1: its step is RS).
    pub fn chain(&self) -> &ModulusChain {
        &self.chain
    }

    /// Rotation keys for slot rotations by `steps` and, if `conjugation`, the conjugation key.
    pub fn galois_keys(
        &self,
        sk: &SecretKey,
        steps: &[i64],
        conjugation: bool,
        rng: &mut Csprng,
    ) -> Result<GaloisKeys> {
        self.galois_keys_at(sk, steps, conjugation, self.max_level(), rng)
    }

    /// Encodes up to N/2 complex values at the top level L with its scale Delta_L
    /// ([`Self::scale_at`]: 2^scale_bits unless the parameters' scale level is below L).
    pub fn encode(&self, values: &[Complex]) -> Result<CkksPlaintext> {
        let top = self.max_level();
        self.encode_at(values, top, self.scale_at(top)?)
    }

    /// Encodes real values at the top level with its scale (as [`Self::encode`]).
    pub fn encode_real(&self, values: &[f64]) -> Result<CkksPlaintext> {
        let v: Vec<Complex> = values.iter().map(|&x| Complex::from_real(x)).collect();
        self.encode(&v)
    }

    /// Encodes at a given level and scale: round(scale tau^-1(z)) in NTT form over Q_level.
    ///
    /// Errors: those of [`CkksEncoder::encode`] (scale below 1, values lost to rounding, ...), and
    /// `OutOfRange` for a coefficient beyond [`Self::coefficient_bound_log2`] of the level (it would wrap
    /// modulo Q_level), naming the largest value the level holds at this scale.
    pub fn encode_at(&self, values: &[Complex], level: usize, scale: f64) -> Result<CkksPlaintext> {
        let poly = self.encode_over(self.ring_at(level)?, values, level, scale)?;
        Ok(CkksPlaintext {
            poly,
            level,
            scale,
            slots: values.len().next_power_of_two(),
            fingerprint: self.fingerprint,
        })
    }

    /// round(scale tau^-1(z)) in NTT form over `ring` (Q_level, or Q_level u P for hoisted products),
    /// its coefficients checked against the bound of `level`.
    pub(crate) fn encode_over(
        &self,
        ring: &Arc<RingContext>,
        values: &[Complex],
        level: usize,
        scale: f64,
    ) -> Result<Poly> {
        let coeffs = self.encoder.encode_rounded(values, scale)?;
        let largest = coeffs.iter().fold(0f64, |m, c| m.max(c.abs()));
        self.check_coefficient(largest, level, scale, "encode")?;
        if largest < 2f64.powi(63) {
            // The usual case: i64 coefficients, exact (integer-valued f64 below 2^63).
            let c64: Vec<i64> = coeffs.iter().map(|&c| c as i64).collect();
            return Ok(Poly::from_signed_ntt(ring, &c64)?);
        }
        let wide: Vec<i128> = coeffs.iter().map(|&c| c as i128).collect();
        integers_to_ntt(ring, &wide)
    }

    /// The integers round(scale tau^-1(z)) of an encoding, checked against the bound of `level`
    /// (before their reduction modulo a basis: [`integers_to_ntt`]).
    pub(crate) fn encode_integers(
        &self,
        values: &[Complex],
        level: usize,
        scale: f64,
    ) -> Result<Vec<i128>> {
        let coeffs = self.encoder.encode(values, scale)?;
        let largest = coeffs.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0);
        self.check_coefficient(largest as f64, level, scale, "encode")?;
        Ok(coeffs)
    }

    /// log2 of the bound B_level = Q_level / 4 on the coefficients of an encoding at `level`: half of
    /// Q_level (beyond which the centred value wraps modulo Q_level) with one bit of headroom for the
    /// encryption noise and the rounding of the decoding. Since |a_k| <= max_j |z_j| for tau^-1
    /// (each coefficient is a mean of N values of modulus |z_j|), every vector with
    /// max |z_j| < B_level / scale fits.
    pub fn coefficient_bound_log2(&self, level: usize) -> Result<f64> {
        let ring = self.ring_at(level)?;
        Ok(ring
            .moduli()
            .iter()
            .map(|m| (m.value() as f64).log2())
            .sum::<f64>()
            - 2.0)
    }

    /// Refuses a coefficient of magnitude `largest` (at `scale`) beyond the bound of `level`.
    pub(crate) fn check_coefficient(
        &self,
        largest: f64,
        level: usize,
        scale: f64,
        op: &str,
    ) -> Result<()> {
        let bound = self.coefficient_bound_log2(level)?;
        if largest == 0.0 || largest.log2() < bound {
            return Ok(());
        }
        Err(Error::OutOfRange(format!(
            "{op}: a coefficient of magnitude {largest:e} (values times the scale {scale:e}) exceeds \
             Q_{level}/4 = 2^{bound:.2} and would wrap modulo the level's modulus; level {level} holds \
             values up to {:e} at this scale (lower the scale or the values, or use a higher level)",
            2f64.powf(bound) / scale
        )))
    }

    pub(crate) fn check_plain(&self, pt: &CkksPlaintext) -> Result<()> {
        crate::params::check_plaintext(pt.fingerprint, self.fingerprint)
    }

    /// Decodes a plaintext (its slots, divided by its scale).
    pub fn decode(&self, pt: &CkksPlaintext) -> Result<Vec<Complex>> {
        self.check_plain(pt)?;
        let coeffs = self.centered_coefficients(pt.poly.clone(), pt.scale)?;
        self.encoder.decode(&coeffs, pt.scale, pt.slots)
    }

    /// A noiseless ciphertext (m, 0) of public values at a level and scale (e.g. zero-initialised model
    /// weights); it reveals m, so use it for public data only.
    pub fn encrypt_trivial(
        &self,
        values: &[Complex],
        level: usize,
        scale: f64,
    ) -> Result<CkksCiphertext> {
        let pt = self.encode_at(values, level, scale)?;
        let zero = Poly::zero(pt.poly.context(), Representation::Ntt);
        Ok(CkksCiphertext {
            parts: vec![pt.poly, zero].into(),
            level,
            scale,
            slots: pt.slots,
            fingerprint: self.fingerprint,
            key_id: None,
        })
    }

    /// Re-reads a ciphertext at a nearby scale: the values change by the relative difference, allowed
    /// up to 2^-16 (the drift of Cheon et al. (SAC 2018)'s approximate rescaling over many levels); larger
    /// differences are an error.
    pub fn set_scale(&self, ct: &CkksCiphertext, scale: f64) -> Result<CkksCiphertext> {
        self.check_ct(ct)?;
        if !(scale.is_finite() && scale > 0.0) || (ct.scale / scale - 1.0).abs() > 2f64.powi(-16) {
            return Err(Error::ScaleMismatch {
                op: "set_scale".into(),
                left: scale,
                right: ct.scale,
                tolerance: 2f64.powi(-16),
                hint: "set_scale relabels a ciphertext's scale only within the tolerance".into(),
            });
        }
        let mut r = ct.clone();
        r.scale = scale;
        Ok(r)
    }

    /// A plaintext from an NTT-form polynomial over the ring of `level` (deserialisation).
    pub fn plaintext_from_poly(
        &self,
        mut poly: Poly,
        level: usize,
        scale: f64,
        slots: usize,
    ) -> Result<CkksPlaintext> {
        if !Arc::ptr_eq(poly.context(), self.ring_at(level)?) {
            return Err(Error::ContextMismatch(format!(
                "plaintext polynomial must be over this context's ring of level {level}"
            )));
        }
        poly.to_ntt()?;
        Ok(CkksPlaintext {
            poly,
            level,
            scale,
            slots,
            fingerprint: self.fingerprint,
        })
    }

    /// A ciphertext from NTT-form polynomials over the ring of `level`, of key pair `key_id` (`None`:
    /// unknown, combines with any) (deserialisation, experiments).
    pub fn ciphertext_from_parts(
        &self,
        parts: Vec<Poly>,
        level: usize,
        scale: f64,
        slots: usize,
        key_id: Option<KeyId>,
    ) -> Result<CkksCiphertext> {
        let out = crate::rlwe::ciphertext_parts(
            parts,
            self.ring_at(level)?,
            Representation::Ntt,
            &format!("this context's ring of level {level}"),
        )?;
        Ok(CkksCiphertext {
            parts: out.into(),
            level,
            scale,
            slots,
            fingerprint: self.fingerprint,
            key_id,
        })
    }

    /// Public-key encryption at the plaintext's level: (p0 u + e0 + m, p1 u + e1).
    pub fn encrypt(
        &self,
        pt: &CkksPlaintext,
        pk: &PublicKey,
        rng: &mut Csprng,
    ) -> Result<CkksCiphertext> {
        self.check_plain(pt)?;
        self.check_public(pk)?;
        let (c0, c1) = pk.encrypt_zero_ntt(&self.sw, self.params.secret, &self.gaussian, rng)?;
        self.finish_encryption(pt, c0, c1, pk.id(), None)
    }

    /// Symmetric encryption: (-a s + e + m, a), a from a seed kept in the ciphertext (half-size
    /// bytes until an operation changes a).
    pub fn encrypt_symmetric(
        &self,
        pt: &CkksPlaintext,
        sk: &SecretKey,
        rng: &mut Csprng,
    ) -> Result<CkksCiphertext> {
        self.check_plain(pt)?;
        self.check_secret(sk)?;
        let (c0, c1, seed) = sk.encrypt_zero_ntt(&self.gaussian, rng)?;
        self.finish_encryption(pt, c0, c1, sk.id(), Some(seed))
    }

    /// Top-level encryption of zero (coefficient or NTT form) + m at the plaintext's level; `seed`:
    /// the seed c_1 was expanded from (symmetric encryption).
    fn finish_encryption(
        &self,
        pt: &CkksPlaintext,
        c0: Poly,
        c1: Poly,
        key_id: KeyId,
        seed: Option<[u8; 32]>,
    ) -> Result<CkksCiphertext> {
        let mut c0 = self.part_at(c0, pt.level)?;
        c0.add_assign(&pt.poly)?;
        let c1 = self.part_at(c1, pt.level)?;
        let parts = match seed {
            Some(seed) => Parts::seeded(c0, c1, seed),
            None => vec![c0, c1].into(),
        };
        Ok(CkksCiphertext {
            parts,
            level: pt.level,
            scale: pt.scale,
            slots: pt.slots,
            fingerprint: self.fingerprint,
            key_id: Some(key_id),
        })
    }

    /// A top-level part of an encryption of zero taken to `level`, NTT form.
    fn part_at(&self, c: Poly, level: usize) -> Result<Poly> {
        let mut p = if Arc::ptr_eq(c.context(), self.ring_at(level)?) {
            c
        } else {
            self.chain().drop_to(&c, level)?
        };
        p.to_ntt()?;
        Ok(p)
    }

    /// c_1 of a symmetric encryption at `level` from its seed (the bits [`Self::encrypt_symmetric`]
    /// gives it), for seeded bytes.
    pub(crate) fn seeded_c1(&self, seed: &[u8; 32], level: usize) -> Result<Poly> {
        let a = expand_seeded_ntt(self.ring_at(self.max_level())?, seed)?;
        self.part_at(a, level)
    }

    /// Decryption: the phase m + e = c0 + c1 s (+ c2 s^2) at the ciphertext's level, as a
    /// plaintext. It holds the error e, which is a function of the secret: whoever sees a
    /// decryption together with its ciphertext recovers s (Li and Micciancio, Eurocrypt 2021). Keep
    /// raw decryptions to the key's owner; before sharing a decrypted result (with a server, another
    /// party, or in a published output) decrypt with [`Self::decrypt_flooded`], which adds noise
    /// that hides e (IND-CPA-D, `rlwe::Flooding`).
    pub fn decrypt(&self, ct: &CkksCiphertext, sk: &SecretKey) -> Result<CkksPlaintext> {
        self.check_ct(ct)?;
        self.check_secret(sk)?;
        KeyId::check(ct.key_id, sk.id(), "secret key")?;
        let poly = self.phase(ct, sk)?;
        Ok(CkksPlaintext {
            poly,
            level: ct.level,
            scale: ct.scale,
            slots: ct.slots,
            fingerprint: self.fingerprint,
        })
    }

    /// Decrypts and decodes (raw: see [`Self::decrypt`] for when to use
    /// [`Self::decrypt_values_flooded`] instead).
    pub fn decrypt_values(&self, ct: &CkksCiphertext, sk: &SecretKey) -> Result<Vec<Complex>> {
        let pt = self.decrypt(ct, sk)?;
        let coeffs = self.centered_coefficients(pt.poly, pt.scale)?;
        self.encoder.decode(&coeffs, pt.scale, pt.slots)
    }

    pub(crate) fn check_ct(&self, ct: &CkksCiphertext) -> Result<()> {
        crate::params::check_ciphertext(ct.fingerprint, self.fingerprint, ct.parts.len())
    }
}

crate::rlwe::key_methods!(CkksContext);

/// Integer coefficients in NTT form over `ring`: each residue the canonical one in [0, q).
pub(crate) fn integers_to_ntt(ring: &Arc<RingContext>, coeffs: &[i128]) -> Result<Poly> {
    let mut poly = integers_to_coefficients(ring, coeffs)?;
    poly.to_ntt()?;
    Ok(poly)
}

/// Integer coefficients in coefficient form over `ring` (each residue canonical).
pub(crate) fn integers_to_coefficients(ring: &Arc<RingContext>, coeffs: &[i128]) -> Result<Poly> {
    let largest = coeffs.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0);
    Ok(if largest < 1 << 63 {
        // The usual case: i64 residues by Barrett (the i128 remainder is a library call).
        let c64: Vec<i64> = coeffs.iter().map(|&c| c as i64).collect();
        Poly::from_signed(ring, &c64)?
    } else {
        let n = ring.degree();
        let mut poly = Poly::zero(ring, Representation::Coefficient);
        for (limb, m) in poly.residues_mut().chunks_exact_mut(n).zip(ring.moduli()) {
            let q = i128::from(m.value());
            for (o, &c) in limb.iter_mut().zip(coeffs) {
                *o = c.rem_euclid(q) as u64;
            }
        }
        poly
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use num_bigint::BigInt;

    use super::*;
    use crate::params::Security;

    /// `encode_at` holds the encoder's integers modulo Q_level exactly, for coefficients below 2^63
    /// (reduced as i64) and above (the i128 path).
    #[test]
    fn encoding_is_exact_modulo_q() {
        let p = CkksParameters::builder()
            .degree(1 << 6)
            .levels(3)
            .scale_bits(40)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let ctx = CkksContext::new(p).unwrap();
        let x: Vec<Complex> = (0..32)
            .map(|i| Complex::new(i as f64 / 7.0 - 2.0, 1.5 - i as f64 / 11.0))
            .collect();
        for scale in [2f64.powi(40), 2f64.powi(70)] {
            let want = ctx.encoder.encode(&x, scale).unwrap();
            let pt = ctx.encode_at(&x, 3, scale).unwrap();
            let mut poly = pt.poly.clone();
            poly.to_coefficient().unwrap();
            let q = BigInt::from(poly.context().basis().product().clone());
            let got = poly.to_biguint().unwrap();
            for (g, &w) in got.iter().zip(&want) {
                let w = ((BigInt::from(w) % &q) + &q) % &q;
                assert_eq!(BigInt::from(g.clone()), w, "scale {scale}");
            }
            let top = want.iter().map(|c| c.unsigned_abs()).max().unwrap();
            assert_eq!(top >= 1 << 63, scale > 2f64.powi(60));
        }
    }
}
