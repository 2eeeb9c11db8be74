//! [`Evaluator`] for HPR-FV (Bajard et al. (HPR-FV, ePrint 2019/500)): scale-invariant like BFV, one level, plaintexts as n
//! coefficients in [0, t). Left out: [`Evaluator::mul_values_to_scale`] (the context has no slot
//! encoder); rotations use the Galois elements of the X^n + 1 batch layout (3^step and 2n - 1).

use super::{integer, Evaluator};
use crate::encoding::batch::{rotation_element, row_swap_element};
use crate::hpr::{HprCiphertext, HprContext, HprGaloisKeys, HprRelinKey};
use crate::{Error, Result};

impl HprContext {
    /// The constant polynomial c (coefficients in [0, t)).
    fn constant_plain(&self, c: i64) -> Vec<u64> {
        integer::constant(self.params().plain_modulus(), self.params().degree(), c)
    }
}

impl Evaluator for HprContext {
    type Ciphertext = HprCiphertext;
    type Plaintext = Vec<u64>;
    type Scalar = i64;
    type RelinKey = HprRelinKey;
    type GaloisKeys = HprGaloisKeys;

    integer::single_level_methods!(HprCiphertext);

    fn slots(&self) -> usize {
        self.params().degree()
    }

    integer::integer_scalars!(|c| c.params().plain_modulus());

    fn add_assign(&self, a: &mut HprCiphertext, b: &HprCiphertext) -> Result<()> {
        *a = HprContext::add(self, a, b)?;
        Ok(())
    }
    fn sub_assign(&self, a: &mut HprCiphertext, b: &HprCiphertext) -> Result<()> {
        *a = HprContext::sub(self, a, b)?;
        Ok(())
    }
    fn negate_assign(&self, a: &mut HprCiphertext) -> Result<()> {
        *a = self.neg(a)?;
        Ok(())
    }
    fn add_const(&self, a: &HprCiphertext, c: i64) -> Result<HprCiphertext> {
        HprContext::add_plain(self, a, &self.constant_plain(c))
    }
    fn add_plain(&self, a: &HprCiphertext, m: &Vec<u64>) -> Result<HprCiphertext> {
        HprContext::add_plain(self, a, m)
    }

    fn mul(&self, a: &HprCiphertext, b: &HprCiphertext) -> Result<HprCiphertext> {
        self.mul_no_relin(a, b)
    }
    fn relinearize(&self, a: &HprCiphertext, rlk: &HprRelinKey) -> Result<HprCiphertext> {
        HprContext::relinearize(self, a, rlk)
    }
    fn mul_relin(
        &self,
        a: &HprCiphertext,
        b: &HprCiphertext,
        rlk: &HprRelinKey,
    ) -> Result<HprCiphertext> {
        HprContext::mul(self, a, b, rlk)
    }
    fn mul_plain(&self, a: &HprCiphertext, m: &Vec<u64>) -> Result<HprCiphertext> {
        HprContext::mul_plain(self, a, m)
    }
    fn mul_const_to_scale(&self, a: &HprCiphertext, c: i64, scale: f64) -> Result<HprCiphertext> {
        integer::unit_scale(scale, "mul_const_to_scale")?;
        HprContext::mul_plain(self, a, &self.constant_plain(c))
    }
    fn mul_values_to_scale(
        &self,
        _a: &HprCiphertext,
        _values: &[i64],
        _scale: f64,
    ) -> Result<HprCiphertext> {
        Err(Error::InvalidParameters(
            "mul_values_to_scale: the HPR context has no slot encoder; batch-encode the values \
             (encoding::BatchEncoder) and use mul_plain"
                .into(),
        ))
    }

    fn rotate(&self, a: &HprCiphertext, step: i64, keys: &HprGaloisKeys) -> Result<HprCiphertext> {
        let g = rotation_element(self.params().degree(), step);
        self.apply_galois(a, g, keys)
    }
    fn conjugate(&self, a: &HprCiphertext, keys: &HprGaloisKeys) -> Result<HprCiphertext> {
        self.apply_galois(a, row_swap_element(self.params().degree()), keys)
    }
}
