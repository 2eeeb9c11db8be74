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

    integer::single_level_methods!(Ciphertext);

    fn slots(&self) -> usize {
        BfvContext::slots(self)
    }

    integer::batched_integer_methods!(BfvContext, Ciphertext, Plaintext);

    fn mul(&self, a: &Ciphertext, b: &Ciphertext) -> Result<Ciphertext> {
        self.multiply_no_relin(a, b)
    }
}
