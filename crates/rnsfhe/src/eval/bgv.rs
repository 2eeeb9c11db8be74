//! [`Evaluator`] for BGV: the explicit operations of [`BgvContext`]. The product is the tensor at
//! the operands' common level whatever `ModulusSwitching` says (the automatic mode's switches are
//! the operators'; a circuit over the trait decides its levels), and the rescale is one modulus
//! switch, which keeps the message (q_l = 1 mod t, Bajard et al. (SAC 2017) Lemma 3): the scale stays 1.

use super::Evaluator;
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

    super::integer::batched_integer_methods!(BgvContext, BgvCiphertext, BgvPlaintext);

    fn mul(&self, a: &BgvCiphertext, b: &BgvCiphertext) -> Result<BgvCiphertext> {
        self.tensor(a, b)
    }
    fn rescale(&self, a: &BgvCiphertext) -> Result<BgvCiphertext> {
        self.mod_switch(a)
    }
    fn drop_level(&self, a: &BgvCiphertext, level: usize) -> Result<BgvCiphertext> {
        self.mod_switch_to_level(a, level)
    }
}
