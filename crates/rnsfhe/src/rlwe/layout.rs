//! The key-switching layout chosen at parameter time.

use crate::{Error, Result};

/// How a polynomial is decomposed for key switching (relinearisation, rotations).
///
/// The default is one digit per ciphertext prime: Bajard et al. (SAC 2016)'s xi_q(c) = (|c q_i / q|_{q_i})_i
/// (section 4.5, Lemma 7). With special moduli P (set in the scheme parameters) it is the hybrid
/// form of SEAL, OpenFHE and Lattigo: digits are extended to Q u P and the result is divided by P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeySwitching {
    /// Ciphertext primes per digit (dnum = ceil(k / digit_primes)).
    pub digit_primes: usize,
    /// Bajard et al. (SAC 2016) Remark 2: a second level of digits, each RNS digit split into omega = 2^bits digits.
    /// Only with one prime per digit.
    pub omega_bits: Option<u32>,
    /// Bajard et al. (SAC 2016) section 4.6: i zero entries per row of the relinearisation key (rows multiplied by
    /// q_{I_j}); smaller keys, more noise. Only with one prime per digit, no omega digits, no special
    /// moduli.
    pub truncation: usize,
}

impl Default for KeySwitching {
    fn default() -> Self {
        KeySwitching {
            digit_primes: 1,
            omega_bits: None,
            truncation: 0,
        }
    }
}

impl KeySwitching {
    /// Checks the layout against k ciphertext primes and `special` special primes.
    pub fn validate(&self, k: usize, special: usize) -> Result<()> {
        if self.digit_primes == 0 || self.digit_primes > k {
            return Err(Error::InvalidParameters(format!(
                "key switching: {} primes per digit is outside 1..={k}",
                self.digit_primes
            )));
        }
        if let Some(w) = self.omega_bits {
            if self.digit_primes != 1 || !(1..=30).contains(&w) {
                return Err(Error::InvalidParameters(format!(
                    "key switching: omega digits of {w} bits need one prime per digit and 1..=30 bits"
                )));
            }
        }
        if self.truncation > 0
            && (self.digit_primes != 1
                || self.omega_bits.is_some()
                || special > 0
                || self.truncation >= k)
        {
            return Err(Error::InvalidParameters(format!(
                "key truncation i = {} (Bajard et al. (SAC 2016) section 4.6) needs i < k = {k}, one prime per digit, \
                 no omega digits and no special moduli",
                self.truncation
            )));
        }
        Ok(())
    }
}

/// What a key depends on beyond the ring and the moduli that the parameter fingerprint covers: the
/// key-switching layout (the gadget), the error distribution's sigma, the secret distribution and
/// the security level the key was made under. Key bytes carry it and loading compares it field by
/// field with the context's ([`KeySwitching::check`], [`Self::check_distributions`]); a key-switching key also carries its layout in
/// memory and is refused by a switcher of another layout (a key of another gadget switches to
/// garbage). Ciphertexts do not carry it: their meaning is fixed by the ring, the chain and the
/// scale (the fingerprint) and by their key pair (its identity), whatever gadget the evaluation
/// keys use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyProfile {
    /// The key-switching layout (digit primes, omega bits, truncation).
    pub layout: KeySwitching,
    /// The standard deviation of the error distribution.
    pub sigma: f64,
    /// The secret distribution.
    pub secret: super::SecretDistribution,
    /// The security requirement the parameters were validated against.
    pub security: crate::params::Security,
}

impl KeyProfile {
    /// The profile of keys made by `ctx`.
    pub fn of(ctx: &dyn super::KeyContext) -> Self {
        KeyProfile {
            layout: ctx.key_switcher().layout(),
            sigma: ctx.error_distribution().sigma(),
            secret: ctx.secret_distribution(),
            security: ctx.security(),
        }
    }

    /// Refuses a `what` of profile `self` for a context of profile `ours`, naming the first field
    /// of sigma, secret distribution and security that differs. The layout is checked per
    /// key-switching key ([`KeySwitching::check`]), where it matters: secret and public keys hold
    /// no gadget, so they serve contexts of any layout with the same ring, moduli, distributions
    /// and security.
    pub fn check_distributions(&self, ours: &KeyProfile, what: &str) -> Result<()> {
        let field = if self.sigma.to_bits() != ours.sigma.to_bits() {
            (
                "sigma",
                format!("{}", self.sigma),
                format!("{}", ours.sigma),
            )
        } else if self.secret != ours.secret {
            (
                "secret distribution",
                format!("{:?}", self.secret),
                format!("{:?}", ours.secret),
            )
        } else if self.security != ours.security {
            (
                "security",
                format!("{:?}", self.security),
                format!("{:?}", ours.security),
            )
        } else {
            return Ok(());
        };
        Err(mismatch(what, field))
    }
}

impl KeySwitching {
    /// Refuses a `what` made under layout `self` for a switcher of layout `ours`, naming the first
    /// field that differs.
    pub fn check(&self, ours: &KeySwitching, what: &str) -> Result<()> {
        let show = |w: Option<u32>| w.map_or("none".to_string(), |w| w.to_string());
        let field = if self.digit_primes != ours.digit_primes {
            (
                "digit_primes",
                self.digit_primes.to_string(),
                ours.digit_primes.to_string(),
            )
        } else if self.omega_bits != ours.omega_bits {
            ("omega_bits", show(self.omega_bits), show(ours.omega_bits))
        } else if self.truncation != ours.truncation {
            (
                "truncation",
                self.truncation.to_string(),
                ours.truncation.to_string(),
            )
        } else {
            return Ok(());
        };
        Err(mismatch(what, field))
    }
}

/// The error of a key made with `field.1` for a context with `field.2` of field `field.0`.
fn mismatch(what: &str, field: (&'static str, String, String)) -> Error {
    Error::KeyParameterMismatch {
        what: what.into(),
        field: field.0,
        key: field.1,
        context: field.2,
    }
}
