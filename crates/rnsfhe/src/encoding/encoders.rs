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
