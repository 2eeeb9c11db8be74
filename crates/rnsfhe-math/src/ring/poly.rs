//! [`Poly`]: an element of R_Q in RNS form, limb-major (`data[i * n + j]` = coefficient j mod q_i, in
//! [0, q_i)), in coefficient or NTT representation.

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};

use super::RingContext;
use crate::arith::vector;
use crate::{Error, Result};

/// How the residues of a [`Poly`] are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// Coefficients of the polynomial.
    Coefficient,
    /// Evaluations at the primitive 2n-th roots (the negacyclic NTT's order, see `ntt::NttTable`).
    Ntt,
}

/// A polynomial of a [`RingContext`], residues in [0, q_i). Its buffer comes from and returns to the
/// per-thread [`crate::pool`].
#[derive(Debug)]
pub struct Poly {
    ctx: Arc<RingContext>,
    data: Vec<u64>,
    form: Representation,
}

impl Clone for Poly {
    fn clone(&self) -> Self {
        Poly {
            ctx: Arc::clone(&self.ctx),
            data: crate::pool::copied(&self.data),
            form: self.form,
        }
    }
}

impl Drop for Poly {
    fn drop(&mut self) {
        crate::pool::recycle(std::mem::take(&mut self.data));
    }
}

impl Poly {
    /// The zero polynomial.
    pub fn zero(ctx: &Arc<RingContext>, form: Representation) -> Self {
        let len = ctx.degree() * ctx.moduli().len();
        Poly {
            ctx: Arc::clone(ctx),
            data: crate::pool::zeroed(len),
            form,
        }
    }

    /// A polynomial from limb-major residues; errors on a wrong length or a residue >= its modulus.
    pub fn from_residues(
        ctx: &Arc<RingContext>,
        data: Vec<u64>,
        form: Representation,
    ) -> Result<Self> {
        super::check_residues(ctx.moduli(), ctx.degree(), &data)?;
        Ok(Poly {
            ctx: Arc::clone(ctx),
            data,
            form,
        })
    }

    /// A polynomial in coefficient form from signed integer coefficients (length n).
    pub fn from_signed(ctx: &Arc<RingContext>, coeffs: &[i64]) -> Result<Self> {
        let n = ctx.degree();
        if coeffs.len() != n {
            return Err(Error::LengthMismatch {
                what: "coefficients",
                expected: n,
                got: coeffs.len(),
            });
        }
        let mut p = Poly::zero(ctx, Representation::Coefficient);
        for (limb, q) in p.data.chunks_exact_mut(n).zip(ctx.moduli()) {
            for (x, &c) in limb.iter_mut().zip(coeffs) {
                *x = q.reduce_i64(c);
            }
        }
        Ok(p)
    }

    /// A polynomial in coefficient form from big-integer coefficients (reduced mod Q); tests and debugging.
    pub fn from_bigint(ctx: &Arc<RingContext>, coeffs: &[BigInt]) -> Result<Self> {
        let n = ctx.degree();
        if coeffs.len() != n {
            return Err(Error::LengthMismatch {
                what: "coefficients",
                expected: n,
                got: coeffs.len(),
            });
        }
        let mut p = Poly::zero(ctx, Representation::Coefficient);
        for (j, c) in coeffs.iter().enumerate() {
            for (i, r) in ctx.basis().decompose_signed(c).into_iter().enumerate() {
                p.data[i * n + j] = r;
            }
        }
        Ok(p)
    }

    /// The coefficients as integers in [0, Q) (exact CRT; tests and debugging). Coefficient form only.
    pub fn to_biguint(&self) -> Result<Vec<BigUint>> {
        self.expect_form(Representation::Coefficient, "to_biguint")?;
        let (n, k) = (self.ctx.degree(), self.ctx.moduli().len());
        (0..n)
            .map(|j| {
                let residues: Vec<u64> = (0..k).map(|i| self.data[i * n + j]).collect();
                self.ctx.basis().compose(&residues)
            })
            .collect()
    }

    /// The ring this polynomial belongs to.
    pub fn context(&self) -> &Arc<RingContext> {
        &self.ctx
    }

    /// The representation.
    pub fn representation(&self) -> Representation {
        self.form
    }

    /// All residues, limb-major.
    pub fn residues(&self) -> &[u64] {
        &self.data
    }

    /// All residues, mutable; the caller keeps them in [0, q_i).
    pub fn residues_mut(&mut self) -> &mut [u64] {
        &mut self.data
    }

    /// The residues modulo q_i (n values); errors when i is out of range.
    pub fn limb(&self, i: usize) -> Result<&[u64]> {
        let n = self.ctx.degree();
        self.data.get(i * n..(i + 1) * n).ok_or_else(|| {
            Error::OutOfRange(format!(
                "limb {i} of a polynomial with {} moduli",
                self.ctx.moduli().len()
            ))
        })
    }

    fn expect_form(&self, form: Representation, op: &str) -> Result<()> {
        if self.form == form {
            Ok(())
        } else {
            Err(Error::WrongForm(format!(
                "{op} needs {form:?} representation, the polynomial is in {:?}",
                self.form
            )))
        }
    }

    fn check_compatible(&self, other: &Poly, op: &str) -> Result<()> {
        self.ctx.check_same(&other.ctx, op)?;
        if self.form != other.form {
            return Err(Error::WrongForm(format!(
                "{op}: operands are in {:?} and {:?} representation; convert one first",
                self.form, other.form
            )));
        }
        Ok(())
    }

    /// Applies the slice kernel `f(modulus, self_limb, other_limb)` to each limb pair.
    fn zip_slices(&mut self, other: &Poly, f: impl Fn(&crate::arith::Modulus, &mut [u64], &[u64])) {
        let n = self.ctx.degree();
        for ((a, b), q) in self
            .data
            .chunks_exact_mut(n)
            .zip(other.data.chunks_exact(n))
            .zip(self.ctx.moduli())
        {
            f(q, a, b);
        }
    }

    /// self += other (same ring, same representation).
    pub fn add_assign(&mut self, other: &Poly) -> Result<()> {
        self.check_compatible(other, "add")?;
        self.zip_slices(other, vector::add_assign);
        Ok(())
    }

    /// self -= other (same ring, same representation).
    pub fn sub_assign(&mut self, other: &Poly) -> Result<()> {
        self.check_compatible(other, "sub")?;
        self.zip_slices(other, vector::sub_assign);
        Ok(())
    }

    /// self *= other, pointwise in NTT representation (both operands must be in NTT form).
    pub fn mul_assign(&mut self, other: &Poly) -> Result<()> {
        self.check_compatible(other, "mul")?;
        self.expect_form(Representation::Ntt, "mul")?;
        self.zip_slices(other, vector::mul_assign);
        Ok(())
    }

    /// self + other.
    pub fn add(&self, other: &Poly) -> Result<Poly> {
        let mut r = self.clone();
        r.add_assign(other)?;
        Ok(r)
    }

    /// self - other.
    pub fn sub(&self, other: &Poly) -> Result<Poly> {
        let mut r = self.clone();
        r.sub_assign(other)?;
        Ok(r)
    }

    /// self * other in NTT representation.
    pub fn mul(&self, other: &Poly) -> Result<Poly> {
        let mut r = self.clone();
        r.mul_assign(other)?;
        Ok(r)
    }

    /// self = -self.
    pub fn neg_assign(&mut self) {
        let n = self.ctx.degree();
        for (limb, q) in self.data.chunks_exact_mut(n).zip(self.ctx.moduli()) {
            limb.iter_mut().for_each(|x| *x = q.neg(*x));
        }
    }

    /// -self.
    pub fn neg(&self) -> Poly {
        let mut r = self.clone();
        r.neg_assign();
        r
    }

    /// self *= c for an integer scalar c (any representation).
    pub fn mul_scalar_assign(&mut self, c: u64) {
        let n = self.ctx.degree();
        for (limb, q) in self.data.chunks_exact_mut(n).zip(self.ctx.moduli()) {
            vector::mul_shoup_scalar_assign(q, limb, q.shoup(q.reduce(c)));
        }
    }

    /// self * c for an integer scalar c.
    pub fn mul_scalar(&self, c: u64) -> Poly {
        let mut r = self.clone();
        r.mul_scalar_assign(c);
        r
    }

    /// Converts to NTT representation in place (no-op if already there).
    pub fn to_ntt(&mut self) -> Result<()> {
        if self.form == Representation::Ntt {
            return Ok(());
        }
        let (n, tables) = (self.ctx.degree(), self.ctx.ntt_tables());
        crate::parallel::for_each_limb(&mut self.data, n, |i, limb| tables[i].forward(limb))?;
        self.form = Representation::Ntt;
        Ok(())
    }

    /// Converts to coefficient representation in place (no-op if already there).
    pub fn to_coefficient(&mut self) -> Result<()> {
        if self.form == Representation::Coefficient {
            return Ok(());
        }
        let (n, tables) = (self.ctx.degree(), self.ctx.ntt_tables());
        crate::parallel::for_each_limb(&mut self.data, n, |i, limb| tables[i].inverse(limb))?;
        self.form = Representation::Coefficient;
        Ok(())
    }

    pub(super) fn parts_mut(&mut self) -> (&Arc<RingContext>, &mut Vec<u64>, Representation) {
        (&self.ctx, &mut self.data, self.form)
    }
}
