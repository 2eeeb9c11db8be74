//! The plaintext encoders of one parameter set, shared by the schemes over Z_t[X]/(Phi_m) (FV and
//! BGV): batching for X^n + 1, the GF(t^d) slots of a general Phi_m, and coefficients. Each scheme
//! wraps the coefficient vectors into its own plaintext type.

use rnsfhe_math::ring::cyclotomic::SlotAlgebra;

use super::{BatchEncoder, CoefficientEncoder};
use crate::{Error, Result};

/// Batch, slot and coefficient encoders of degree n, plaintext modulus t and cyclotomic index m.
#[derive(Debug)]
pub(crate) struct Encoders {
    batch: Option<BatchEncoder>,
    slots: Option<SlotAlgebra>,
    coeff: CoefficientEncoder,
    m: usize,
    n: usize,
    t: u64,
}

impl Encoders {
    /// The encoders of degree `n` and modulus `t`: with `batching`, the 2 x n/2 batch encoder on
    /// X^n + 1 (`cyclotomic` None) or the slot algebra of Phi_m (`cyclotomic` Some(m)).
    pub(crate) fn new(n: usize, t: u64, cyclotomic: Option<usize>, batching: bool) -> Result<Self> {
        let (batch, slots) = match cyclotomic {
            Some(m) if batching => (None, Some(SlotAlgebra::new(m, t)?)),
            None if batching => (Some(BatchEncoder::new(n, t)?), None),
            _ => (None, None),
        };
        Ok(Encoders {
            batch,
            slots,
            coeff: CoefficientEncoder::new(n, t)?,
            m: cyclotomic.unwrap_or(2 * n),
            n,
            t,
        })
    }

    /// The number of batching slots (0 when t does not allow batching).
    pub(crate) fn slot_count(&self) -> usize {
        match &self.slots {
            Some(a) => a.slots(),
            None => self.batch.as_ref().map_or(0, BatchEncoder::slots),
        }
    }

    /// The slot algebra of a general Phi_m ring, or an error saying why there is none.
    pub(crate) fn slot_algebra(&self) -> Result<&SlotAlgebra> {
        self.slots.as_ref().ok_or_else(|| {
            Error::InvalidParameters(format!(
                "no slot algebra: it needs a general cyclotomic_index m and a prime t not dividing \
                 m (m = {}, t = {})",
                self.m, self.t
            ))
        })
    }

    /// The batch encoder, or an error saying why there is none.
    pub(crate) fn batch(&self) -> Result<&BatchEncoder> {
        self.batch.as_ref().ok_or_else(|| {
            Error::InvalidParameters(format!(
                "batching needs a prime t = 1 mod 2n = {}; t = {} does not allow it (use \
                 encode_coefficients, or choose such a t)",
                2 * self.n,
                self.t
            ))
        })
    }

    /// The coefficient encoder (any t).
    pub(crate) fn coeff(&self) -> &CoefficientEncoder {
        &self.coeff
    }

    /// Checks raw plaintext coefficients: exactly n of them, each in [0, t).
    pub(crate) fn check_coefficients(&self, coeffs: &[u64]) -> Result<()> {
        if coeffs.len() != self.n {
            return Err(Error::LengthMismatch {
                what: "plaintext coefficients",
                expected: self.n,
                got: coeffs.len(),
            });
        }
        if let Some(i) = coeffs.iter().position(|&c| c >= self.t) {
            return Err(Error::OutOfRange(format!(
                "plaintext coefficient {i} = {} is not below t = {}",
                coeffs[i], self.t
            )));
        }
        Ok(())
    }
}

/// The integer encoding methods of an FV or BGV context `$ctx` with plaintext `$pt` (fields
/// `coeffs` and `fingerprint`): batch, coefficient, GF(t^d) slot and raw plaintexts in and out over
/// the context's [`Encoders`] (its fields `encoders` and `fingerprint`).
macro_rules! integer_encoding_methods {
    ($ctx:ty, $pt:ident) => {
        impl $ctx {
            fn plaintext(&self, coeffs: Vec<u64>) -> $pt {
                $pt {
                    coeffs,
                    fingerprint: self.fingerprint,
                }
            }

            /// Batch-encodes up to n values in [0, t) into the 2 x n/2 slot matrix (SEAL's layout).
            pub fn encode(&self, values: &[u64]) -> $crate::Result<$pt> {
                Ok(self.plaintext(self.encoders.batch()?.encode(values)?))
            }
            /// Batch-encodes signed values with |v| < t.
            pub fn encode_signed(&self, values: &[i64]) -> $crate::Result<$pt> {
                Ok(self.plaintext(self.encoders.batch()?.encode_signed(values)?))
            }
            /// Puts up to n signed values into the coefficients (any t).
            pub fn encode_coefficients(&self, values: &[i64]) -> $crate::Result<$pt> {
                Ok(self.plaintext(self.encoders.coeff().encode(values)?))
            }
            /// A plaintext from raw coefficients in [0, t) (length n).
            pub fn plaintext_from_coefficients(&self, coeffs: &[u64]) -> $crate::Result<$pt> {
                self.encoders.check_coefficients(coeffs)?;
                Ok(self.plaintext(coeffs.to_vec()))
            }
            /// The slot values of a batch-encoded plaintext, in [0, t).
            pub fn decode(&self, pt: &$pt) -> $crate::Result<Vec<u64>> {
                self.check_plain(pt)?;
                self.encoders.batch()?.decode(&pt.coeffs)
            }
            /// The slot values centred in (-t/2, t/2].
            pub fn decode_signed(&self, pt: &$pt) -> $crate::Result<Vec<i64>> {
                self.check_plain(pt)?;
                self.encoders.batch()?.decode_signed(&pt.coeffs)
            }
            /// The coefficients centred in (-t/2, t/2].
            pub fn decode_coefficients(&self, pt: &$pt) -> $crate::Result<Vec<i64>> {
                self.check_plain(pt)?;
                self.encoders.coeff().decode(&pt.coeffs)
            }

            /// The number of batching slots (0 when t does not allow batching).
            pub fn slots(&self) -> usize {
                self.encoders.slot_count()
            }
            /// The slot algebra of a general Phi_m ring (l slots of GF(t^d), Bajard et al. (SAC 2017) section
            /// 2.4).
            pub fn slot_algebra(
                &self,
            ) -> $crate::Result<&rnsfhe_math::ring::cyclotomic::SlotAlgebra> {
                self.encoders.slot_algebra()
            }
            /// Encodes l slots of GF(t^d), each d coefficients in [0, t) (general Phi_m).
            pub fn encode_slots(&self, slots: &[Vec<u64>]) -> $crate::Result<$pt> {
                Ok(self.plaintext(self.slot_algebra()?.encode(slots)?))
            }
            /// The l slots of GF(t^d) of a plaintext (general Phi_m).
            pub fn decode_slots(&self, pt: &$pt) -> $crate::Result<Vec<Vec<u64>>> {
                self.check_plain(pt)?;
                Ok(self.slot_algebra()?.decode(&pt.coeffs)?)
            }

            pub(crate) fn check_plain(&self, pt: &$pt) -> $crate::Result<()> {
                $crate::params::check_plaintext(pt.fingerprint, self.fingerprint)
            }
        }
    };
}
pub(crate) use integer_encoding_methods;
