//! BGV parameter sets, plaintexts and ciphertexts to and from bytes (keys through [`super::KeyBytes`]).

use super::params::{check_hamming, NO_CONTEXT};
use super::parts::seeded_parts;
use super::{fingerprint, Kind, Reader, Writer};
use crate::bgv::{BgvCiphertext, BgvContext, BgvParameters, BgvPlaintext, ModulusSwitching};
use crate::params::{barrett_flag, read_degree_word, BARRETT_FLAG, MONTGOMERY_FLAG};
use crate::{Error, Result};

/// The flag of a parameter set in `ModulusSwitching::Manual` in the degree word of its bytes only
/// (bits 60..63 are the flags of `crate::params`): the mode changes no residue, so fingerprints (and
/// the bytes of ciphertexts and keys) do not carry it; bytes without it read back in the default
/// automatic mode.
const MANUAL_SWITCHING_FLAG: u64 = 1 << 59;

impl BgvParameters {
    /// The parameter set as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(Kind::BgvParameters, NO_CONTEXT);
        let manual = match self.modulus_switching {
            ModulusSwitching::Auto => 0,
            ModulusSwitching::Manual => MANUAL_SWITCHING_FLAG,
        };
        w.u64(self.degree_word() | barrett_flag(self.cyclotomic, self.reduction) | manual);
        w.u64(self.plain_modulus);
        w.list(&self.moduli);
        w.list(&self.special_moduli);
        w.common(self.sigma, self.secret, self.key_switching, self.security);
        w.finish()
    }

    /// A parameter set from bytes, validated as the builder validates (primes = 1 mod lcm(2n, t),
    /// security, layout).
    pub fn from_bytes_allowing_insecure(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, Kind::BgvParameters, NO_CONTEXT)?;
        let word = r.u64()?;
        let montgomery = word & MONTGOMERY_FLAG != 0;
        let barrett = word & BARRETT_FLAG != 0;
        let manual = word & MANUAL_SWITCHING_FLAG != 0;
        let flags = MONTGOMERY_FLAG | BARRETT_FLAG | MANUAL_SWITCHING_FLAG;
        let (degree, m) = read_degree_word(word & !flags)?;
        if montgomery && m.is_none() {
            return Err(Error::Malformed(
                "the Montgomery representation needs a general Phi_m".into(),
            ));
        }
        if barrett && (montgomery || m.is_none()) {
            return Err(Error::Malformed(
                "the Barrett flag needs a general Phi_m without Montgomery".into(),
            ));
        }
        let t = r.u64()?;
        let (q, p) = (r.list(256)?, r.list(256)?);
        let (sigma, secret, ks, sec) = r.common()?;
        r.end()?;
        check_hamming(secret, degree)?;
        let mut b = BgvParameters::builder();
        if let Some(m) = m {
            b = b.cyclotomic_index(m);
        }
        if montgomery {
            b = b.reduction(rnsfhe_math::ring::Reduction::Montgomery);
        } else if barrett {
            b = b.reduction(rnsfhe_math::ring::Reduction::Barrett);
        }
        if manual {
            b = b.modulus_switching(ModulusSwitching::Manual);
        }
        b.degree(degree)
            .plain_modulus(t)
            .moduli(&q)
            .special_moduli(&p)
            .sigma(sigma)
            .secret(secret)
            .key_switching(ks)
            .security(sec)
            .build()
    }
}

impl BgvParameters {
    /// The fingerprint of this parameter set (FNV-1a over what defines its rings and chain: degree
    /// word, t or scale bits, moduli, special moduli): the identity that contexts, keys and
    /// ciphertexts of these parameters share, in any process.
    pub fn fingerprint(&self) -> u64 {
        let p = self;
        fingerprint(
            3,
            p.fingerprint_degree(),
            p.plain_modulus(),
            p.moduli(),
            p.special_moduli(),
        )
    }
}

impl BgvContext {
    /// A plaintext as bytes (its n coefficients modulo t).
    pub fn plaintext_to_bytes(&self, pt: &BgvPlaintext) -> Result<Vec<u8>> {
        self.check_plain(pt)?;
        let mut w = Writer::new(Kind::BgvPlaintext, self.fingerprint());
        w.list(pt.coefficients());
        Ok(w.finish())
    }

    /// A plaintext from bytes (length n, coefficients below t).
    pub fn plaintext_from_bytes(&self, bytes: &[u8]) -> Result<BgvPlaintext> {
        let mut r = Reader::new(bytes, Kind::BgvPlaintext, self.fingerprint())?;
        let coeffs = r.list(self.params().degree())?;
        r.end()?;
        self.plaintext_from_coefficients(&coeffs)
    }

    /// A ciphertext as bytes: key identity, noise bound, level, polynomials (NTT form; a fresh
    /// symmetric encryption: c_0 and the seed of c_1, half size).
    pub fn ciphertext_to_bytes(&self, ct: &BgvCiphertext) -> Result<Vec<u8>> {
        self.check_ct(ct)?;
        let mut w = Writer::new(Kind::BgvCiphertext, self.fingerprint());
        w.key_id(ct.key_id);
        w.noise_bound(ct.noise);
        w.u32(ct.level as u32);
        w.parts(&ct.parts);
        Ok(w.finish())
    }

    /// A ciphertext from bytes written by [`BgvContext::ciphertext_to_bytes`] for this parameter set.
    pub fn ciphertext_from_bytes(&self, bytes: &[u8]) -> Result<BgvCiphertext> {
        let mut r = Reader::new(bytes, Kind::BgvCiphertext, self.fingerprint())?;
        let key_id = r.key_id()?;
        let noise = r.noise_bound()?;
        let level = r.u32()? as usize;
        if level > self.max_level() {
            return Err(Error::InvalidCiphertext(format!(
                "level {level} is above the top level {}",
                self.max_level()
            )));
        }
        let ring = self.ring_at(level)?.clone();
        // The residues written are c M in the Montgomery representation: read them as such.
        let montgomery = self.params().is_montgomery();
        let read = |r: &mut Reader| {
            let mut p = r.poly(&ring)?;
            if montgomery {
                p.relabel_form(rnsfhe_math::ring::Form::Montgomery)?;
            }
            Ok(p)
        };
        let expand = |seed: &[u8; 32]| {
            if level != self.max_level() {
                return Err(Error::InvalidCiphertext(format!(
                    "seeded bytes at level {level}, below the top level {}",
                    self.max_level()
                )));
            }
            self.seeded_c1(seed)
        };
        let (polys, seed) = r.parts(read, expand)?;
        r.end()?;
        let mut ct = self.ciphertext_from_parts(polys, key_id)?;
        ct.parts = seeded_parts(ct.parts, seed)?;
        ct.noise = noise;
        Ok(ct)
    }
}
