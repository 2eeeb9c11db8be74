//! A CKKS evaluator that counts its tensor products (the non-scalar products of a circuit run
//! over the `Evaluator` trait) and its relinearisations (key switches), for the test files that
//! report a circuit's product count
//! (`#[path = "support/counting.rs"] mod counting;`).
#![allow(dead_code)]

use std::cell::Cell;

use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksPlaintext, Complex};
use rnsfhe::eval::Evaluator;
use rnsfhe::rlwe::{GaloisKeys, RelinKey};
use rnsfhe::Result;

/// CKKS with every tensor product and relinearisation counted.
pub struct Counting<'a> {
    pub ctx: &'a CkksContext,
    pub products: Cell<usize>,
    pub relinearisations: Cell<usize>,
}

impl<'a> Counting<'a> {
    /// A counter over `ctx`, at 0.
    pub fn new(ctx: &'a CkksContext) -> Self {
        Counting {
            ctx,
            products: Cell::new(0),
            relinearisations: Cell::new(0),
        }
    }
}

impl Evaluator for Counting<'_> {
    type Ciphertext = CkksCiphertext;
    type Plaintext = CkksPlaintext;
    type Scalar = Complex;
    type RelinKey = RelinKey;
    type GaloisKeys = GaloisKeys;
    fn max_level(&self) -> usize {
        Evaluator::max_level(self.ctx)
    }
    fn slots(&self) -> usize {
        Evaluator::slots(self.ctx)
    }
    fn level(&self, ct: &CkksCiphertext) -> usize {
        ct.level()
    }
    fn scale(&self, ct: &CkksCiphertext) -> f64 {
        ct.scale()
    }
    fn default_scale(&self, level: usize) -> Result<f64> {
        self.ctx.default_scale(level)
    }
    fn rescale_levels(&self) -> usize {
        1
    }
    fn rescale_factor(&self, level: usize) -> Result<f64> {
        self.ctx.rescale_factor(level)
    }
    fn reduce_scalar(&self, c: Complex) -> Result<Complex> {
        self.ctx.reduce_scalar(c)
    }
    fn scalar_from_int(&self, v: i64) -> Complex {
        self.ctx.scalar_from_int(v)
    }
    fn scalar_from_real(&self, v: f64) -> Result<Complex> {
        self.ctx.scalar_from_real(v)
    }
    fn scalar_mul_add(&self, a: Complex, k: i64, b: Complex) -> Complex {
        self.ctx.scalar_mul_add(a, k, b)
    }
    fn add_assign(&self, a: &mut CkksCiphertext, b: &CkksCiphertext) -> Result<()> {
        Evaluator::add_assign(self.ctx, a, b)
    }
    fn sub_assign(&self, a: &mut CkksCiphertext, b: &CkksCiphertext) -> Result<()> {
        Evaluator::sub_assign(self.ctx, a, b)
    }
    fn negate_assign(&self, a: &mut CkksCiphertext) -> Result<()> {
        Evaluator::negate_assign(self.ctx, a)
    }
    fn add_const(&self, a: &CkksCiphertext, c: Complex) -> Result<CkksCiphertext> {
        Evaluator::add_const(self.ctx, a, c)
    }
    fn add_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        Evaluator::add_plain(self.ctx, a, m)
    }
    fn mul(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        self.products.set(self.products.get() + 1);
        Evaluator::mul(self.ctx, a, b)
    }
    fn relinearize(&self, a: &CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
        self.relinearisations.set(self.relinearisations.get() + 1);
        Evaluator::relinearize(self.ctx, a, rlk)
    }
    fn rescale(&self, a: &CkksCiphertext) -> Result<CkksCiphertext> {
        Evaluator::rescale(self.ctx, a)
    }
    fn drop_level(&self, a: &CkksCiphertext, level: usize) -> Result<CkksCiphertext> {
        Evaluator::drop_level(self.ctx, a, level)
    }
    fn mul_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        Evaluator::mul_plain(self.ctx, a, m)
    }
    fn mul_const_to_scale(&self, a: &CkksCiphertext, c: Complex, s: f64) -> Result<CkksCiphertext> {
        self.ctx.mul_const_to_scale(a, c, s)
    }
    fn mul_values_to_scale(
        &self,
        a: &CkksCiphertext,
        v: &[Complex],
        s: f64,
    ) -> Result<CkksCiphertext> {
        self.ctx.mul_values_to_scale(a, v, s)
    }
    fn rotate(&self, a: &CkksCiphertext, step: i64, k: &GaloisKeys) -> Result<CkksCiphertext> {
        Evaluator::rotate(self.ctx, a, step, k)
    }
    fn conjugate(&self, a: &CkksCiphertext, k: &GaloisKeys) -> Result<CkksCiphertext> {
        Evaluator::conjugate(self.ctx, a, k)
    }
}
