//! What the parties agree on for one collective refresh ([`super::refresh`]): the masks' size
//! (CKKS), their statistical security, and the slot map applied on the way.

use super::transform::SlotMap;
use super::DEFAULT_LAMBDA;
use crate::{Error, Result};

/// What the parties agree on for one refresh: the masks' size (CKKS), the statistical security of
/// the masks, and the slot map applied on the way (none: a plain refresh). Every share and the
/// aggregate are bound to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refresh {
    pub(crate) values_log2: Option<f64>,
    pub(crate) lambda: u32,
    pub(crate) map: Option<SlotMap>,
}

impl Default for Refresh {
    fn default() -> Self {
        Self::new()
    }
}

impl Refresh {
    /// A refresh of a BFV or BGV ciphertext (masks uniform modulo t: they hide perfectly).
    pub fn new() -> Self {
        Refresh {
            values_log2: None,
            lambda: DEFAULT_LAMBDA,
            map: None,
        }
    }

    /// A refresh of a CKKS ciphertext whose slot values are at most 2^`values_log2` in modulus:
    /// its coefficients are at most Delta_l 2^values_log2 (each a mean of the slots), plus the error
    /// and the smudging, which the masks hide ([`Self::mask_bits`]).
    pub fn ckks(values_log2: f64) -> Result<Self> {
        if !values_log2.is_finite() || !(-60.0..=200.0).contains(&values_log2) {
            return Err(Error::InvalidParameters(format!(
                "a CKKS refresh for values up to 2^{values_log2}: give log2 of a bound on the \
                 slots' modulus, within -60..=200"
            )));
        }
        Ok(Refresh {
            values_log2: Some(values_log2),
            ..Self::new()
        })
    }

    /// The masks' statistical security in bits (CKKS; default [`DEFAULT_LAMBDA`]).
    pub fn with_lambda(mut self, lambda: u32) -> Result<Self> {
        if !(1..=128).contains(&lambda) {
            return Err(Error::InvalidParameters(format!(
                "mask security lambda = {lambda}: within 1..=128"
            )));
        }
        self.lambda = lambda;
        Ok(self)
    }

    /// The refresh applies `map` to the slots (a masked transform).
    pub fn with_map(mut self, map: SlotMap) -> Self {
        self.map = Some(map);
        self
    }

    /// The slot map applied, if any.
    pub fn map(&self) -> Option<&SlotMap> {
        self.map.as_ref()
    }

    /// The bits b of a CKKS mask at a level of scale 2^`scale_log2`, for smudging of deviation
    /// `sigma` on ring degree `degree`: lambda + log2(n) + log2(B) + 1 for the bound B =
    /// Delta_l 2^values_log2 + 2^9 sigma on the masked coefficients m + e + E (the smudging of up
    /// to [`MAX_CKKS_PARTIES`] parties within 9.6 sqrt(k) sigma < 2^9 sigma, the error below sigma
    /// when checked), so that one uniform mask of b bits hides all n of them within 2^-lambda
    /// (statistical distance n B / 2^(b-1)). `None` for BFV and BGV.
    pub fn mask_bits(&self, scale_log2: f64, sigma: f64, degree: usize) -> Option<u32> {
        let v = self.values_log2?;
        let b = crate::rlwe::log2_add(scale_log2 + v, sigma.log2() + 9.0);
        Some((f64::from(self.lambda) + (degree as f64).log2() + b + 1.0).ceil() as u32)
    }

    /// Ok when a CKKS ciphertext at a level of modulus 2^`log_q` can be refreshed by `parties`
    /// parties with masks of `bits` bits: sum_i M_i + m + e + E stays below Q_l / 2, i.e. log2 Q_l >=
    /// bits + log2(parties) + 2; refused naming the bits missing.
    pub fn check_level(bits: u32, log_q: f64, parties: usize, level: usize) -> Result<()> {
        if parties > MAX_CKKS_PARTIES {
            return Err(Error::InvalidParameters(format!(
                "a CKKS refresh by {parties} parties: its masks are sized for at most \
                 {MAX_CKKS_PARTIES}"
            )));
        }
        let need = f64::from(bits) + (parties.max(1) as f64).log2() + 2.0;
        if log_q < need {
            return Err(Error::LevelsExhausted {
                op: format!(
                    "a CKKS refresh with masks of {bits} bits by {parties} parties needs Q_l of \
                     2^{need:.1}; level {level} has 2^{log_q:.1}: refresh at a higher level, or \
                     state a smaller value bound or lambda"
                ),
                level,
                needed: level + 1,
            });
        }
        Ok(())
    }

    /// The words the round's binding hashes.
    pub(crate) fn words(&self) -> [u64; 3] {
        [
            self.values_log2.map_or(u64::MAX, f64::to_bits),
            u64::from(self.lambda),
            self.map.as_ref().map_or(0, SlotMap::digest),
        ]
    }
}

/// The most parties of a CKKS refresh (its masks hide the smudging of that many).
pub const MAX_CKKS_PARTIES: usize = 1024;
