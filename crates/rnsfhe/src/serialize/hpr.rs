//! HPR-FV parameters, ciphertexts and keys to and from bytes (the format of this module's parent).
//!
//! A carried digit's B_sk residues are the centred FBE of its P residues (`HprBasis::normalize`), so
//! only the P residues are written (k of 2k + 1 limbs, coefficient form) and the B_sk residues are
//! recomputed on load: a loaded object is carried whatever the bytes say, so no byte string can
//! give digits outside the bounds the products rely on.

use rnsfhe_math::ring::{Poly, Representation};

use super::{fingerprint, Kind, Reader, Writer};
use zeroize::Zeroizing;

use crate::hpr::{
    Digits, HprCiphertext, HprContext, HprGaloisKeys, HprParameters, HprPublicKey, HprRelinKey,
    HprSecretKey,
};
use crate::params::{Security, SecurityLevel};
use crate::rlwe::KeyId;
use crate::{Error, Result};

/// Upper bounds on counts read from bytes before allocating.
const MAX_KEYS: usize = 4096;

impl HprParameters {
    /// The fingerprint: degree, t, P, then B_sk and d.
    pub fn fingerprint(&self) -> u64 {
        let mut tail = self.b_sk_moduli().to_vec();
        tail.push(self.digits() as u64);
        fingerprint(
            3,
            self.degree(),
            self.plain_modulus(),
            self.p_moduli(),
            &tail,
        )
    }

    /// The parameter set as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(Kind::HprParameters, 0);
        w.u32(self.degree() as u32);
        w.u64(self.plain_modulus());
        w.u32(self.digits() as u32);
        w.u32(self.p_moduli().len() as u32);
        self.p_moduli()
            .iter()
            .chain(self.b_sk_moduli())
            .for_each(|&m| w.u64(m));
        w.f64(self.sigma());
        w.u32(match self.security() {
            Security::InsecureResearchOnly => 0,
            Security::Standard(l) => l.bits(),
        });
        w.finish()
    }

    /// A parameter set from [`HprParameters::to_bytes`], validated as [`HprParameters::with_moduli`].
    pub fn from_bytes_allowing_insecure(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, Kind::HprParameters, 0)?;
        let n = r.u32()? as usize;
        let t = r.u64()?;
        let d = r.u32()? as usize;
        let k = r.u32()? as usize;
        if k == 0 || k > 16 || n > 1 << 17 || d > 64 {
            return Err(Error::Malformed(format!(
                "HPR sizes n = {n}, k = {k}, d = {d}"
            )));
        }
        let moduli = (0..2 * k + 1)
            .map(|_| r.u64())
            .collect::<Result<Vec<_>>>()?;
        let sigma = r.f64()?;
        let security = match r.u32()? {
            0 => Security::InsecureResearchOnly,
            bits => Security::Standard(
                SecurityLevel::ALL
                    .into_iter()
                    .find(|l| l.bits() == bits)
                    .ok_or_else(|| Error::Malformed(format!("security level {bits} bits")))?,
            ),
        };
        r.end()?;
        HprParameters::with_moduli(n, t, d, &moduli[..k], &moduli[k..], sigma, security)
    }
}

impl HprContext {
    fn write_digits(&self, w: &mut Writer, digits: &[Poly]) -> Result<()> {
        let (n, k) = (self.params().degree(), self.basis().k());
        for digit in digits {
            let mut x = digit.clone();
            x.to_coefficient()?;
            let p = Poly::from_residues(
                self.ring_p(),
                x.residues()[..k * n].to_vec(),
                Representation::Coefficient,
            )?;
            w.poly(&p);
        }
        Ok(())
    }

    fn read_digits(&self, r: &mut Reader<'_>, form: Representation) -> Result<Digits> {
        let (n, k) = (self.params().degree(), self.basis().k());
        (0..self.params().digits())
            .map(|_| {
                let p = r.poly(self.ring_p())?;
                if p.representation() != Representation::Coefficient {
                    return Err(Error::Malformed(
                        "HPR digits are stored in coefficient form".into(),
                    ));
                }
                let mut data = vec![0u64; self.basis().full().len() * n];
                data[..k * n].copy_from_slice(p.residues());
                self.basis().normalize(&mut data)?;
                let mut digit =
                    Poly::from_residues(self.ring(), data, Representation::Coefficient)?;
                if form == Representation::Ntt {
                    digit.to_ntt()?;
                }
                Ok(digit)
            })
            .collect()
    }

    /// A ciphertext as bytes (its key identity, its noise bound as BFV's, parts, the P residues of
    /// each digit).
    pub fn ciphertext_to_bytes(&self, ct: &HprCiphertext) -> Result<Vec<u8>> {
        self.check_ct(ct)?;
        let mut w = Writer::new(Kind::HprCiphertext, self.params().fingerprint());
        w.key_id(ct.id());
        w.noise_bound(ct.noise_bounds());
        w.u32(ct.size() as u32);
        for part in ct.parts() {
            self.write_digits(&mut w, part)?;
        }
        Ok(w.finish())
    }

    /// A ciphertext from [`HprContext::ciphertext_to_bytes`] for this parameter set.
    pub fn ciphertext_from_bytes(&self, bytes: &[u8]) -> Result<HprCiphertext> {
        let mut r = Reader::new(bytes, Kind::HprCiphertext, self.params().fingerprint())?;
        let id = r.key_id()?;
        let noise = r.noise_bound()?;
        let parts = r.u32()? as usize;
        if !(2..=3).contains(&parts) {
            return Err(Error::InvalidCiphertext(format!(
                "the bytes declare {parts} parts, an HPR ciphertext has 2 or 3"
            )));
        }
        let parts = (0..parts)
            .map(|_| self.read_digits(&mut r, Representation::Coefficient))
            .collect::<Result<Vec<_>>>()?;
        r.end()?;
        Ok(HprCiphertext::from_parts(parts, id, noise))
    }

    /// A plaintext (n coefficients in [0, t)) as bytes.
    pub fn plaintext_to_bytes(&self, m: &[u64]) -> Result<Vec<u8>> {
        self.check_plain(m)?;
        let mut w = Writer::new(Kind::HprPlaintext, self.params().fingerprint());
        w.u32(m.len() as u32);
        m.iter().for_each(|&c| w.u64(c));
        Ok(w.finish())
    }

    /// A plaintext from [`HprContext::plaintext_to_bytes`] for this parameter set.
    pub fn plaintext_from_bytes(&self, bytes: &[u8]) -> Result<Vec<u64>> {
        let mut r = Reader::new(bytes, Kind::HprPlaintext, self.params().fingerprint())?;
        let n = self.params().degree();
        let count = r.u32()? as usize;
        if count != n {
            return Err(Error::Malformed(format!(
                "a plaintext of {count} coefficients, this parameter set has degree {n}"
            )));
        }
        let m = (0..n).map(|_| r.u64()).collect::<Result<Vec<_>>>()?;
        r.end()?;
        self.check_plain(&m)?;
        Ok(m)
    }

    /// A secret key as bytes: its key identity, then one byte per coefficient of s (0, 1 or 255 for
    /// -1), as BFV's. Keep these bytes secret; whoever holds them can decrypt.
    pub fn secret_key_to_bytes(&self, sk: &HprSecretKey) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::new(Kind::HprSecretKey, self.params().fingerprint());
        w.u64(sk.id().0);
        w.ternary(sk.coefficients());
        Zeroizing::new(w.finish())
    }

    /// A secret key from [`HprContext::secret_key_to_bytes`] for this parameter set; refused when the
    /// stored key identity is not that of the coefficients read.
    pub fn secret_key_from_bytes(&self, bytes: &[u8]) -> Result<HprSecretKey> {
        let mut r = Reader::new(bytes, Kind::HprSecretKey, self.params().fingerprint())?;
        let id = KeyId(r.u64()?);
        let coeffs = r.ternary(self.params().degree())?;
        r.end()?;
        let sk = self.secret_key_from(coeffs)?;
        if sk.id() != id {
            return Err(Error::Malformed(
                "the stored key identity is not that of the secret key's coefficients".into(),
            ));
        }
        Ok(sk)
    }

    /// A public key as bytes.
    pub fn public_key_to_bytes(&self, pk: &HprPublicKey) -> Result<Vec<u8>> {
        let mut w = Writer::new(Kind::HprPublicKey, self.params().fingerprint());
        w.u64(pk.id().0);
        self.write_digits(&mut w, &pk.b)?;
        self.write_digits(&mut w, &pk.a)?;
        Ok(w.finish())
    }

    /// A public key from [`HprContext::public_key_to_bytes`].
    pub fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<HprPublicKey> {
        let mut r = Reader::new(bytes, Kind::HprPublicKey, self.params().fingerprint())?;
        let id = KeyId(r.u64()?);
        let b = self.read_digits(&mut r, Representation::Ntt)?;
        let a = self.read_digits(&mut r, Representation::Ntt)?;
        r.end()?;
        Ok(HprPublicKey::from_parts(b, a, id))
    }

    fn write_switch(&self, w: &mut Writer, pairs: &[(&Digits, &Digits)]) -> Result<()> {
        w.u32(pairs.len() as u32);
        for (b, a) in pairs {
            self.write_digits(w, b)?;
            self.write_digits(w, a)?;
        }
        Ok(())
    }

    fn read_switch(&self, r: &mut Reader<'_>, expected: usize) -> Result<Vec<(Digits, Digits)>> {
        let count = r.u32()? as usize;
        if count != expected || count > MAX_KEYS {
            return Err(Error::Malformed(format!(
                "{count} key-switching samples, the parameters need {expected}"
            )));
        }
        (0..count)
            .map(|_| {
                Ok((
                    self.read_digits(r, Representation::Ntt)?,
                    self.read_digits(r, Representation::Ntt)?,
                ))
            })
            .collect()
    }

    /// A relinearisation key as bytes.
    pub fn relin_key_to_bytes(&self, rlk: &HprRelinKey) -> Result<Vec<u8>> {
        let mut w = Writer::new(Kind::HprRelinKey, self.params().fingerprint());
        w.u64(rlk.id().0);
        w.u8(u8::from(
            rlk.mode() == crate::hpr::Relinearization::PerDigit,
        ));
        self.write_switch(&mut w, &rlk.samples())?;
        Ok(w.finish())
    }

    /// A relinearisation key from [`HprContext::relin_key_to_bytes`].
    pub fn relin_key_from_bytes(&self, bytes: &[u8]) -> Result<HprRelinKey> {
        let mut r = Reader::new(bytes, Kind::HprRelinKey, self.params().fingerprint())?;
        let id = KeyId(r.u64()?);
        let mode = match r.u8()? {
            0 => crate::hpr::Relinearization::PerResidue,
            1 => crate::hpr::Relinearization::PerDigit,
            f => return Err(Error::Malformed(format!("relinearisation mode {f}"))),
        };
        let per = if mode == crate::hpr::Relinearization::PerResidue {
            self.basis().k()
        } else {
            1
        };
        let pairs = self.read_switch(&mut r, per * self.params().digits())?;
        r.end()?;
        Ok(HprRelinKey::from_samples(pairs, mode, id))
    }

    /// Galois keys as bytes.
    pub fn galois_keys_to_bytes(&self, gk: &HprGaloisKeys) -> Result<Vec<u8>> {
        let mut w = Writer::new(Kind::HprGaloisKeys, self.params().fingerprint());
        w.u64(gk.id().0);
        let all = gk.samples();
        w.u32(all.len() as u32);
        for (g, pairs) in all {
            w.u64(g);
            self.write_switch(&mut w, &pairs)?;
        }
        Ok(w.finish())
    }

    /// Galois keys from [`HprContext::galois_keys_to_bytes`].
    pub fn galois_keys_from_bytes(&self, bytes: &[u8]) -> Result<HprGaloisKeys> {
        let mut r = Reader::new(bytes, Kind::HprGaloisKeys, self.params().fingerprint())?;
        let id = KeyId(r.u64()?);
        let count = r.u32()? as usize;
        let two_n = 2 * self.params().degree() as u64;
        if count > self.params().degree() {
            return Err(Error::Malformed(format!("{count} Galois keys")));
        }
        let per = self.basis().k() * self.params().digits();
        let mut keys = Vec::with_capacity(count);
        for _ in 0..count {
            let g = r.u64()?;
            if g >= two_n || g % 2 == 0 {
                return Err(Error::Malformed(format!("Galois element {g}")));
            }
            keys.push((g, self.read_switch(&mut r, per)?));
        }
        r.end()?;
        Ok(HprGaloisKeys::from_samples(keys, id))
    }
}
