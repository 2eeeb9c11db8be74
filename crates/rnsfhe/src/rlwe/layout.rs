//! The key-switching layout chosen at parameter time.

use crate::{Error, Result};

/// How a polynomial is decomposed for key switching (relinearisation, rotations).
///
/// The default is one digit per ciphertext prime: paper 000's xi_q(c) = (|c q_i / q|_{q_i})_i
/// (section 4.5, Lemma 7). With special moduli P (set in the scheme parameters) it is the hybrid
/// form of SEAL, OpenFHE and Lattigo: digits are extended to Q u P and the result is divided by P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeySwitching {
    /// Ciphertext primes per digit (dnum = ceil(k / digit_primes)).
    pub digit_primes: usize,
    /// Paper 000 Remark 2: a second level of digits, each RNS digit split into omega = 2^bits digits.
    /// Only with one prime per digit.
    pub omega_bits: Option<u32>,
    /// Paper 000 section 4.6: i zero entries per row of the relinearisation key (rows multiplied by
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
                "key truncation i = {} (paper 000 section 4.6) needs i < k = {k}, one prime per digit, \
                 no omega digits and no special moduli",
                self.truncation
            )));
        }
        Ok(())
    }
}
