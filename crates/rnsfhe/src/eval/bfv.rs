//! [`Evaluator`] for BFV: scale-invariant, no levels. A rescale does nothing and consumes no level,
//! so a circuit over the trait runs unchanged (its level checks pass at level 0).

use super::{integer, Evaluator};
use crate::bfv::{BfvContext, Ciphertext, Plaintext};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::Result;

impl Evaluator for BfvContext {
    type Ciphertext = Ciphertext;
    type Plaintext = Plaintext;
    type Scalar = i64;
    type RelinKey = RelinKey;
    type GaloisKeys = GaloisKeys;

    fn max_level(&self) -> usize {
        0
    }
    fn slots(&self) -> usize {
        BfvContext::slots(self)
    }
    fn level(&self, _ct: &Ciphertext) -> usize {
        0
    }
    fn scale(&self, _ct: &Ciphertext) -> f64 {
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
        Ok(integer::reduce(self.t().value(), i128::from(c)))
    }
    fn scalar_from_int(&self, v: i64) -> i64 {
        integer::reduce(self.t().value(), i128::from(v))
    }
    fn scalar_from_real(&self, v: f64) -> Result<i64> {
        integer::from_real(self.t().value(), v)
    }
    fn scalar_mul_add(&self, a: i64, k: i64, b: i64) -> i64 {
        integer::mul_add(self.t().value(), a, k, b)
    }

    fn add_assign(&self, a: &mut Ciphertext, b: &Ciphertext) -> Result<()> {
        BfvContext::add_assign(self, a, b)
    }
    fn sub_assign(&self, a: &mut Ciphertext, b: &Ciphertext) -> Result<()> {
        BfvContext::sub_assign(self, a, b)
    }
    fn negate_assign(&self, a: &mut Ciphertext) -> Result<()> {
        BfvContext::negate_assign(self, a)
    }
    fn add_const(&self, a: &Ciphertext, c: i64) -> Result<Ciphertext> {
        let coeffs = integer::constant(self.t().value(), self.params().degree(), c);
        BfvContext::add_plain(self, a, &self.plaintext_from_coefficients(&coeffs)?)
    }
    fn add_plain(&self, a: &Ciphertext, m: &Plaintext) -> Result<Ciphertext> {
        BfvContext::add_plain(self, a, m)
    }

    fn mul(&self, a: &Ciphertext, b: &Ciphertext) -> Result<Ciphertext> {
        self.multiply_no_relin(a, b)
    }
    fn relinearize(&self, a: &Ciphertext, rlk: &RelinKey) -> Result<Ciphertext> {
        BfvContext::relinearize(self, a, rlk)
    }
    fn rescale(&self, a: &Ciphertext) -> Result<Ciphertext> {
        self.check_ct(a)?;
        Ok(a.clone())
    }
    fn drop_level(&self, a: &Ciphertext, level: usize) -> Result<Ciphertext> {
        integer::level_zero(level, "drop_level")?;
        self.check_ct(a)?;
        Ok(a.clone())
    }
    fn mul_plain(&self, a: &Ciphertext, m: &Plaintext) -> Result<Ciphertext> {
        BfvContext::mul_plain(self, a, m)
    }
    fn mul_const_to_scale(&self, a: &Ciphertext, c: i64, scale: f64) -> Result<Ciphertext> {
        integer::unit_scale(scale, "mul_const_to_scale")?;
        self.mul_scalar(a, c)
    }
    fn mul_values_to_scale(
        &self,
        a: &Ciphertext,
        values: &[i64],
        scale: f64,
    ) -> Result<Ciphertext> {
        integer::unit_scale(scale, "mul_values_to_scale")?;
        let v = integer::reduce_all(self.t().value(), values);
        BfvContext::mul_plain(self, a, &self.encode_signed(&v)?)
    }

    fn rotate(&self, a: &Ciphertext, step: i64, keys: &GaloisKeys) -> Result<Ciphertext> {
        self.rotate_rows(a, step, keys)
    }
    fn conjugate(&self, a: &Ciphertext, keys: &GaloisKeys) -> Result<Ciphertext> {
        self.rotate_columns(a, keys)
    }
}
