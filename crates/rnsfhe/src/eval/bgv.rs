//! [`Evaluator`] for BGV: the explicit operations of [`BgvContext`]. The product is the tensor at
//! the operands' common level whatever `ModulusSwitching` says (the automatic mode's switches are
//! the operators'; a circuit over the trait decides its levels), and the rescale is one modulus
//! switch, which keeps the message (q_l = 1 mod t, paper 001 Lemma 3): the scale stays 1.

use super::{integer, Evaluator};
use crate::bgv::{BgvCiphertext, BgvContext, BgvPlaintext};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::Result;

impl Evaluator for BgvContext {
    type Ciphertext = BgvCiphertext;
    type Plaintext = BgvPlaintext;
    type Scalar = i64;
    type RelinKey = RelinKey;
    type GaloisKeys = GaloisKeys;

    fn max_level(&self) -> usize {
        BgvContext::max_level(self)
    }
    fn slots(&self) -> usize {
        BgvContext::slots(self)
    }
    fn level(&self, ct: &BgvCiphertext) -> usize {
        ct.level()
    }
    fn scale(&self, _ct: &BgvCiphertext) -> f64 {
        1.0
    }
    fn default_scale(&self, _level: usize) -> Result<f64> {
        Ok(1.0)
    }
    fn rescale_levels(&self) -> usize {
        1
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

    fn add_assign(&self, a: &mut BgvCiphertext, b: &BgvCiphertext) -> Result<()> {
        BgvContext::add_assign(self, a, b)
    }
    fn sub_assign(&self, a: &mut BgvCiphertext, b: &BgvCiphertext) -> Result<()> {
        BgvContext::sub_assign(self, a, b)
    }
    fn negate_assign(&self, a: &mut BgvCiphertext) -> Result<()> {
        BgvContext::negate_assign(self, a)
    }
    fn add_const(&self, a: &BgvCiphertext, c: i64) -> Result<BgvCiphertext> {
        let coeffs = integer::constant(self.t().value(), self.params().degree(), c);
        BgvContext::add_plain(self, a, &self.plaintext_from_coefficients(&coeffs)?)
    }
    fn add_plain(&self, a: &BgvCiphertext, m: &BgvPlaintext) -> Result<BgvCiphertext> {
        BgvContext::add_plain(self, a, m)
    }

    fn mul(&self, a: &BgvCiphertext, b: &BgvCiphertext) -> Result<BgvCiphertext> {
        self.tensor(a, b)
    }
    fn relinearize(&self, a: &BgvCiphertext, rlk: &RelinKey) -> Result<BgvCiphertext> {
        BgvContext::relinearize(self, a, rlk)
    }
    fn rescale(&self, a: &BgvCiphertext) -> Result<BgvCiphertext> {
        self.mod_switch(a)
    }
    fn drop_level(&self, a: &BgvCiphertext, level: usize) -> Result<BgvCiphertext> {
        self.mod_switch_to_level(a, level)
    }
    fn mul_plain(&self, a: &BgvCiphertext, m: &BgvPlaintext) -> Result<BgvCiphertext> {
        BgvContext::mul_plain(self, a, m)
    }
    fn mul_const_to_scale(&self, a: &BgvCiphertext, c: i64, scale: f64) -> Result<BgvCiphertext> {
        integer::unit_scale(scale, "mul_const_to_scale")?;
        self.mul_scalar(a, c)
    }
    fn mul_values_to_scale(
        &self,
        a: &BgvCiphertext,
        values: &[i64],
        scale: f64,
    ) -> Result<BgvCiphertext> {
        integer::unit_scale(scale, "mul_values_to_scale")?;
        let v = integer::reduce_all(self.t().value(), values);
        BgvContext::mul_plain(self, a, &self.encode_signed(&v)?)
    }

    fn rotate(&self, a: &BgvCiphertext, step: i64, keys: &GaloisKeys) -> Result<BgvCiphertext> {
        self.rotate_rows(a, step, keys)
    }
    fn conjugate(&self, a: &BgvCiphertext, keys: &GaloisKeys) -> Result<BgvCiphertext> {
        self.rotate_columns(a, keys)
    }
}
