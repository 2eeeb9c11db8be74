//! [`Evaluator`] for HPR-FV (paper 002): scale-invariant like BFV, one level, plaintexts as n
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

    fn max_level(&self) -> usize {
        0
    }
    fn slots(&self) -> usize {
        self.params().degree()
    }
    fn level(&self, _ct: &HprCiphertext) -> usize {
        0
    }
    fn scale(&self, _ct: &HprCiphertext) -> f64 {
        1.0
    }
    fn default_scale(&self, level: usize) -> Result<f64> {
        integer::level_zero(level, "default_scale")?;
        Ok(1.0)
    }
    fn rescale_levels(&self) -> usize {
        0
    }
    fn rescale_factor(&self, _level: usize) -> Result<f64> {
        Ok(1.0)
    }

    fn reduce_scalar(&self, c: i64) -> Result<i64> {
        Ok(integer::reduce(
            self.params().plain_modulus(),
            i128::from(c),
        ))
    }
    fn scalar_from_int(&self, v: i64) -> i64 {
        integer::reduce(self.params().plain_modulus(), i128::from(v))
    }
    fn scalar_from_real(&self, v: f64) -> Result<i64> {
        integer::from_real(self.params().plain_modulus(), v)
    }
    fn scalar_mul_add(&self, a: i64, k: i64, b: i64) -> i64 {
        integer::mul_add(self.params().plain_modulus(), a, k, b)
    }

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
    fn rescale(&self, a: &HprCiphertext) -> Result<HprCiphertext> {
        self.check_ct(a)?;
        Ok(a.clone())
    }
    fn drop_level(&self, a: &HprCiphertext, level: usize) -> Result<HprCiphertext> {
        integer::level_zero(level, "drop_level")?;
        self.check_ct(a)?;
        Ok(a.clone())
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
