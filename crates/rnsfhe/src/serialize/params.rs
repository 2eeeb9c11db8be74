//! Parameter sets and plaintexts to and from bytes. Parameters are rebuilt through the same
//! validation as the builders (primes, security, layout), so bytes cannot smuggle in an invalid set.

use rnsfhe_math::arith::is_prime;

use super::{Kind, Reader, Writer};
use crate::bfv::{BfvContext, BfvParameters, BfvPlaintext, Decryption, Multiplication};
use crate::ckks::{CkksContext, CkksParameters, CkksPlaintext};
use crate::params::{log2_product, Security, SecurityLevel};
use crate::rlwe::{KeySwitching, SecretDistribution};
use crate::{Error, Result};

/// `from_bytes` of the parameter types: [`from_bytes_allowing_insecure`] refused for a set marked
/// [`Security::InsecureResearchOnly`], so that bytes (a file, a pickle, a peer's message) cannot
/// hand a server a toy parameter set; loading one takes the same explicit opt-in as building it.
///
/// [`from_bytes_allowing_insecure`]: CkksParameters::from_bytes_allowing_insecure
macro_rules! secure_from_bytes {
    ($($T:ty),*) => {$(
        impl $T {
            /// A parameter set from bytes, validated as the builder validates; refused when the
            /// set is marked `Security::InsecureResearchOnly` (research parameters load with
            /// `from_bytes_allowing_insecure`, the opt-in their builder asked for too).
            pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
                let p = Self::from_bytes_allowing_insecure(bytes)?;
                refuse_insecure(p.security(), stringify!($T))?;
                Ok(p)
            }
        }
    )*};
}
secure_from_bytes!(
    BfvParameters,
    CkksParameters,
    crate::bgv::BgvParameters,
    crate::hpr::HprParameters
);

/// Refuses insecure parameters read from bytes (see [`secure_from_bytes`]).
fn refuse_insecure(security: Security, what: &str) -> Result<()> {
    if security == Security::InsecureResearchOnly {
        return Err(Error::InvalidParameters(format!(
            "these {what} bytes describe parameters marked InsecureResearchOnly (no security \
             bound): they load only with {what}::from_bytes_allowing_insecure, the opt-in their \
             builder asked for"
        )));
    }
    Ok(())
}

/// Parameters belong to no context: their header carries this fingerprint.
pub(super) const NO_CONTEXT: u64 = 0;

fn bad(what: &str) -> Error {
    Error::Malformed(what.to_string())
}

pub(super) fn check_hamming(secret: SecretDistribution, degree: usize) -> Result<()> {
    match secret {
        SecretDistribution::HammingWeight(h) if h > degree => Err(bad(&format!(
            "Hamming weight {h} above the degree {degree}"
        ))),
        _ => Ok(()),
    }
}

impl Writer {
    /// A secret distribution: 0 for ternary, h + 1 for Hamming weight h.
    pub(super) fn secret_distribution(&mut self, secret: SecretDistribution) {
        match secret {
            SecretDistribution::Ternary => self.u64(0),
            SecretDistribution::HammingWeight(h) => self.u64(h as u64 + 1),
        }
    }
    pub(super) fn list(&mut self, v: &[u64]) {
        self.u32(v.len() as u32);
        v.iter().for_each(|&x| self.u64(x));
    }
    pub(super) fn common(
        &mut self,
        sigma: f64,
        secret: SecretDistribution,
        ks: KeySwitching,
        sec: Security,
    ) {
        self.f64(sigma);
        self.secret_distribution(secret);
        self.u32(ks.digit_primes as u32);
        self.u32(ks.omega_bits.unwrap_or(0));
        self.u32(ks.truncation as u32);
        self.u8(match sec {
            Security::InsecureResearchOnly => 0,
            Security::Standard(SecurityLevel::Bits128) => 1,
            Security::Standard(SecurityLevel::Bits192) => 2,
            Security::Standard(SecurityLevel::Bits256) => 3,
        });
    }
}

impl Reader<'_> {
    /// A secret distribution written by [`Writer::secret_distribution`].
    pub(super) fn secret_distribution(&mut self) -> Result<SecretDistribution> {
        Ok(match self.u64()? {
            0 => SecretDistribution::Ternary,
            h => SecretDistribution::HammingWeight(
                usize::try_from(h - 1)
                    .map_err(|_| bad(&format!("Hamming weight {} beyond a word", h - 1)))?,
            ),
        })
    }
    pub(super) fn list(&mut self, max: usize) -> Result<Vec<u64>> {
        let len = self.u32()? as usize;
        if len > max {
            return Err(bad(&format!("a list of {len} moduli (at most {max})")));
        }
        (0..len).map(|_| self.u64()).collect()
    }
    pub(super) fn common(&mut self) -> Result<(f64, SecretDistribution, KeySwitching, Security)> {
        let sigma = self.f64()?;
        let secret = self.secret_distribution()?;
        let ks = KeySwitching {
            digit_primes: self.u32()? as usize,
            omega_bits: Some(self.u32()?).filter(|&w| w != 0),
            truncation: self.u32()? as usize,
        };
        let sec = match self.u8()? {
            0 => Security::InsecureResearchOnly,
            1 => Security::Standard(SecurityLevel::Bits128),
            2 => Security::Standard(SecurityLevel::Bits192),
            3 => Security::Standard(SecurityLevel::Bits256),
            s => return Err(bad(&format!("security code {s}"))),
        };
        Ok((sigma, secret, ks, sec))
    }
}

impl BfvParameters {
    /// The parameter set as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(Kind::BfvParameters, NO_CONTEXT);
        w.u64(self.degree_word() | crate::params::barrett_flag(self.cyclotomic, self.reduction));
        w.u64(self.plain_modulus);
        w.list(&self.moduli);
        w.list(&self.special_moduli);
        w.u8(match self.multiplication {
            Multiplication::Behz => 0,
            Multiplication::Hps => 1,
        });
        w.u8(match self.decryption {
            Decryption::Gamma => 0,
            Decryption::PowerOfTwoGamma => 1,
            Decryption::FloatingPoint => 2,
            Decryption::Hps => 3,
        });
        w.u64(self.m_tilde.unwrap_or(0));
        w.common(self.sigma, self.secret, self.key_switching, self.security);
        w.finish()
    }

    /// A parameter set from bytes, validated as the builder validates.
    pub fn from_bytes_allowing_insecure(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, Kind::BfvParameters, NO_CONTEXT)?;
        let word = r.u64()?;
        let mixed = word & crate::params::MONTGOMERY_FLAG != 0;
        let barrett = word & crate::params::BARRETT_FLAG != 0;
        let full = word & crate::params::FULL_MONTGOMERY_FLAG != 0;
        let (degree, cyclotomic) = crate::params::read_degree_word(
            word & !(crate::params::MONTGOMERY_FLAG
                | crate::params::BARRETT_FLAG
                | crate::params::FULL_MONTGOMERY_FLAG),
        )?;
        if full && !mixed {
            return Err(bad("the full Montgomery flag needs the Montgomery flag"));
        }
        if mixed && cyclotomic.is_none() {
            return Err(bad("the Montgomery strategy needs a general Phi_m"));
        }
        if barrett && (mixed || cyclotomic.is_none()) {
            return Err(bad(
                "the Barrett flag needs a general Phi_m without Montgomery",
            ));
        }
        let t = r.u64()?;
        let (q, p) = (r.list(256)?, r.list(256)?);
        let mul = match r.u8()? {
            0 => Multiplication::Behz,
            1 => Multiplication::Hps,
            m => return Err(bad(&format!("multiplication code {m}"))),
        };
        let dec = match r.u8()? {
            0 => Decryption::Gamma,
            1 => Decryption::PowerOfTwoGamma,
            2 => Decryption::FloatingPoint,
            3 => Decryption::Hps,
            d => return Err(bad(&format!("decryption code {d}"))),
        };
        let m_tilde = Some(r.u64()?).filter(|&m| m != 0);
        let (sigma, secret, ks, sec) = r.common()?;
        r.end()?;
        check_hamming(secret, degree)?;
        let mut b = BfvParameters::builder();
        if let Some(m) = cyclotomic {
            b = b.cyclotomic_index(m);
        }
        if full {
            b = b.fv_montgomery(crate::bfv::FvMontgomery::Full);
        }
        if mixed {
            b = b.reduction(rnsfhe_math::ring::Reduction::Montgomery);
        } else if barrett {
            b = b.reduction(rnsfhe_math::ring::Reduction::Barrett);
        }
        b.degree(degree)
            .plain_modulus(t)
            .moduli(&q)
            .special_moduli(&p)
            .multiplication(mul)
            .decryption(dec)
            .m_tilde(m_tilde)
            .sigma(sigma)
            .secret(secret)
            .key_switching(ks)
            .security(sec)
            .build()
    }
}

impl CkksParameters {
    /// The parameter set as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(Kind::CkksParameters, NO_CONTEXT);
        w.u64(self.degree as u64);
        w.u32(self.scale_word());
        w.u32(self.eta);
        w.list(&self.chain);
        w.list(&self.special);
        w.common(self.sigma, self.secret, self.key_switching, self.security);
        w.finish()
    }

    /// A parameter set from bytes: primes = 1 mod 2N, distinct, the security bound (with the
    /// secret's) and the layout checked as at build time; the scale level at most L. Bytes written
    /// before `scale_level` existed read with R = L.
    pub fn from_bytes_allowing_insecure(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, Kind::CkksParameters, NO_CONTEXT)?;
        let degree = r.u64()? as usize;
        let (scale_word, eta) = (r.u32()?, r.u32()?);
        let scale_bits = scale_word & ((1 << super::ckks::SCALE_BITS_WIDTH) - 1);
        let above = (scale_word >> super::ckks::SCALE_BITS_WIDTH) as usize;
        let (chain, special) = (r.list(256)?, r.list(256)?);
        let (sigma, secret, key_switching, security) = r.common()?;
        r.end()?;
        check_hamming(secret, degree)?;
        if !degree.is_power_of_two() || !(4..=1 << 17).contains(&degree) || chain.len() < 2 {
            return Err(bad(&format!(
                "degree {degree} with {} chain primes",
                chain.len()
            )));
        }
        let two_n = 2 * degree as u64;
        let mut all: Vec<u64> = chain.iter().chain(&special).copied().collect();
        if all
            .iter()
            .any(|&q| !is_prime(q) || q % two_n != 1 || q >> 62 != 0)
        {
            return Err(bad("every modulus must be a prime = 1 mod 2N below 2^62"));
        }
        all.sort_unstable();
        all.dedup();
        if all.len() != chain.len() + special.len() || !(20..=60).contains(&scale_bits) {
            return Err(bad("repeated moduli or a scale outside 20..=60 bits"));
        }
        if above >= chain.len() {
            return Err(bad(&format!(
                "a scale level {above} levels below the top of {} levels",
                chain.len() - 1
            )));
        }
        crate::params::check_sigma(sigma)?;
        let log_qp = log2_product(&chain) + log2_product(&special);
        security.check(degree, log_qp)?;
        security.check_distributions(degree, log_qp, sigma, secret)?;
        key_switching.validate(chain.len(), special.len())?;
        Ok(CkksParameters {
            degree,
            scale_bits,
            scale_level: chain.len() - 1 - above,
            chain,
            special,
            eta,
            sigma,
            secret,
            key_switching,
            security,
        })
    }
}

impl BfvContext {
    /// A plaintext as bytes (its n coefficients modulo t).
    pub fn plaintext_to_bytes(&self, pt: &BfvPlaintext) -> Result<Vec<u8>> {
        self.check_plain(pt)?;
        let mut w = Writer::new(Kind::BfvPlaintext, self.fingerprint());
        w.list(pt.coefficients());
        Ok(w.finish())
    }

    /// A plaintext from bytes (length n, coefficients below t).
    pub fn plaintext_from_bytes(&self, bytes: &[u8]) -> Result<BfvPlaintext> {
        let mut r = Reader::new(bytes, Kind::BfvPlaintext, self.fingerprint())?;
        let coeffs = r.list(self.params().degree())?;
        r.end()?;
        self.plaintext_from_coefficients(&coeffs)
    }
}

impl CkksContext {
    /// A plaintext as bytes (level, scale, slots, polynomial).
    pub fn plaintext_to_bytes(&self, pt: &CkksPlaintext) -> Result<Vec<u8>> {
        self.check_plain(pt)?;
        let mut w = Writer::new(Kind::CkksPlaintext, self.fingerprint());
        w.u32(pt.level() as u32);
        w.f64(pt.scale());
        w.u32(pt.slots() as u32);
        w.poly(&pt.poly);
        Ok(w.finish())
    }

    /// A plaintext from bytes written for this parameter set.
    pub fn plaintext_from_bytes(&self, bytes: &[u8]) -> Result<CkksPlaintext> {
        let mut r = Reader::new(bytes, Kind::CkksPlaintext, self.fingerprint())?;
        let level = r.u32()? as usize;
        let scale = r.f64()?;
        let slots = r.u32()? as usize;
        if level > self.max_level() || !(scale.is_finite() && scale >= 1.0) {
            return Err(bad(&format!("level {level} or scale {scale}")));
        }
        if !slots.is_power_of_two() || slots > self.slots() {
            return Err(bad(&format!("{slots} slots")));
        }
        let poly = r.poly(self.ring_at(level)?)?;
        r.end()?;
        self.plaintext_from_poly(poly, level, scale, slots)
    }
}
