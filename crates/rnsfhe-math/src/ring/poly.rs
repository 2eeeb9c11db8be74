//! [`Poly`]: an element of R_Q in RNS form, limb-major (`data[i * len + j]` = value j mod q_i, in
//! [0, q_i), len = `RingContext::limb_len(form)`), in coefficient or NTT representation.

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};

use super::cyclotomic::Form;
use super::RingContext;
use crate::arith::vector;
use crate::parallel::Work;
use crate::{Error, Result};

/// How the residues of a [`Poly`] are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// Coefficients of the polynomial.
    Coefficient,
    /// Power-of-two rings: evaluations at the primitive 2n-th roots (the negacyclic NTT's order, see
    /// `ntt::NttTable`), n per limb.
    ///
    /// General Phi_m (Bajard et al. (SAC 2017)): the N = N2(2n) values of the cyclic NTT_N of the coefficients, N per
    /// limb — not the evaluations at the phi(m) primitive m-th roots that HElib's DoubleCRT holds. Both
    /// multiply pointwise; the choice is Bajard et al. (SAC 2017)'s: NTT_N costs a power-of-two transform of size N
    /// <= 4n, where evaluating at the primitive m-th roots needs a length-m transform (Bluestein: three
    /// transforms of size N2(2m) >= 2N), and sums of products stay exact in NTT_N (degree <= 2n - 2 < N)
    /// so that a whole inner product (key switching, tensoring) is reduced modulo Phi_m once, when
    /// leaving the form. The price: a product of products cannot be formed (degree would wrap; reduce
    /// first), and automorphisms go through the coefficient form.
    Ntt,
}

/// A polynomial of a [`RingContext`], residues in [0, q_i). Its buffer comes from and returns to the
/// per-thread [`crate::pool`].
#[derive(Debug)]
pub struct Poly {
    ctx: Arc<RingContext>,
    data: Vec<u64>,
    form: Representation,
    /// a or a M (Montgomery rings only ever hold `Montgomery` values here).
    pub(super) mform: Form,
    /// General m, NTT form: the values are those of an unreduced sum of products (deg <= 2n - 2).
    pub(super) product: bool,
}

impl Clone for Poly {
    fn clone(&self) -> Self {
        self.with_data(crate::pool::copied(&self.data))
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
        let len = ctx.limb_len(form) * ctx.moduli().len();
        Poly::from_parts(ctx, crate::pool::zeroed(len), form)
    }

    /// A polynomial whose residues `fill` writes, every word of them (limb-major,
    /// `ctx.limb_len(form)` per modulus, each below its modulus; checked in debug builds): the buffer
    /// comes from the pool without a zero fill, for outputs computed in place (key-switching sums,
    /// ModDown).
    pub fn from_fill<E>(
        ctx: &Arc<RingContext>,
        form: Representation,
        fill: impl FnOnce(&mut [u64]) -> std::result::Result<(), E>,
    ) -> std::result::Result<Self, E> {
        let len = ctx.limb_len(form) * ctx.moduli().len();
        let mut data = crate::pool::stale(len);
        fill(&mut data)?;
        debug_assert!(super::check_residues(ctx.moduli(), ctx.limb_len(form), &data).is_ok());
        Ok(Poly::from_parts(ctx, data, form))
    }

    /// K polynomials whose residues `fill` writes, every word of each (as [`Poly::from_fill`]; the
    /// slices in order): outputs computed together, such as the three parts of a tensor product.
    pub fn from_fill_many<const K: usize, E>(
        ctx: &Arc<RingContext>,
        form: Representation,
        fill: impl FnOnce(&mut [&mut [u64]; K]) -> std::result::Result<(), E>,
    ) -> std::result::Result<[Self; K], E> {
        let len = ctx.limb_len(form) * ctx.moduli().len();
        let mut data: [Vec<u64>; K] = std::array::from_fn(|_| crate::pool::stale(len));
        fill(&mut data.each_mut().map(Vec::as_mut_slice))?;
        Ok(data.map(|d| {
            debug_assert!(super::check_residues(ctx.moduli(), ctx.limb_len(form), &d).is_ok());
            Poly::from_parts(ctx, d, form)
        }))
    }

    /// A polynomial of this one's ring, representation and forms with residues `data`.
    fn with_data(&self, data: Vec<u64>) -> Self {
        Poly {
            ctx: Arc::clone(&self.ctx),
            data,
            form: self.form,
            mform: self.mform,
            product: self.product,
        }
    }

    pub(super) fn from_parts(ctx: &Arc<RingContext>, data: Vec<u64>, form: Representation) -> Self {
        Poly {
            ctx: Arc::clone(ctx),
            data,
            form,
            mform: Form::Plain,
            product: false,
        }
    }

    /// A polynomial from limb-major residues (`ctx.limb_len(form)` per modulus; for general m in NTT
    /// form, the NTT_N values of a polynomial of degree < n, checked by an inverse NTT_N), in the plain
    /// form; errors on a wrong length, a residue >= its modulus, or NTT_N values of a higher degree.
    pub fn from_residues(
        ctx: &Arc<RingContext>,
        data: Vec<u64>,
        form: Representation,
    ) -> Result<Self> {
        let len = ctx.limb_len(form);
        super::check_residues(ctx.moduli(), len, &data)?;
        if let (Some(g), Representation::Ntt) = (ctx.general(), form) {
            for (i, (limb, t)) in data.chunks_exact(len).zip(g.tables()).enumerate() {
                if !t.is_reduced_ntt(limb)? {
                    return Err(Error::OutOfRange(format!(
                        "limb {i} holds NTT_N values of a polynomial of degree >= n = {}: not an element of this ring's NTT form",
                        ctx.degree()
                    )));
                }
            }
        }
        Ok(Poly::from_parts(ctx, data, form))
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
        let moduli = ctx.moduli();
        let max_abs = coeffs.iter().fold(0u64, |m, &c| m.max(c.unsigned_abs()));
        let mut data = crate::pool::stale(n * moduli.len());
        for (q, limb) in moduli.iter().zip(data.chunks_exact_mut(n)) {
            crate::arith::vector::reduce_signed_into(q, max_abs, coeffs, limb);
        }
        Ok(Poly::from_parts(ctx, data, Representation::Coefficient))
    }

    /// [`Poly::from_signed`] taken to NTT form, limb by limb while the limb is in cache (the same
    /// bits as `from_signed` then [`Poly::to_ntt`]).
    pub fn from_signed_ntt(ctx: &Arc<RingContext>, coeffs: &[i64]) -> Result<Self> {
        if ctx.general().is_some() || coeffs.len() != ctx.degree() {
            let mut p = Poly::from_signed(ctx, coeffs)?;
            p.to_ntt()?;
            return Ok(p);
        }
        let (n, moduli, tables) = (ctx.degree(), ctx.moduli(), ctx.ntt_tables());
        let max_abs = coeffs.iter().fold(0u64, |m, &c| m.max(c.unsigned_abs()));
        Poly::from_fill(ctx, Representation::Ntt, |data| {
            crate::parallel::for_each_limb(data, n, |i, limb| {
                crate::arith::vector::reduce_signed_into(&moduli[i], max_abs, coeffs, limb);
                tables[i].forward(limb)
            })
        })
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

    /// Moves the residues into a buffer of their exact length when the one held is larger (a pooled
    /// buffer may be up to twice the length): for polynomials kept long, e.g. key components.
    pub fn shrink_to_fit(&mut self) {
        if self.data.capacity() > self.data.len() {
            self.data = self.data.to_vec();
        }
    }

    /// Whether the polynomial holds a or a M (Montgomery rings, see [`Poly::to_montgomery`]).
    pub fn montgomery_form(&self) -> Form {
        self.mform
    }

    /// General m, NTT form: whether the values are an unreduced sum of products (reduced modulo Phi_m
    /// by [`Poly::to_coefficient`]). Always false for power-of-two rings.
    pub fn is_unreduced_product(&self) -> bool {
        self.product
    }

    /// Words per limb.
    fn limb_len(&self) -> usize {
        self.ctx.limb_len(self.form)
    }

    /// The residues modulo q_i (`limb_len` values); errors when i is out of range.
    pub fn limb(&self, i: usize) -> Result<&[u64]> {
        let n = self.limb_len();
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
        if self.mform != other.mform {
            return Err(Error::WrongForm(format!(
                "{op}: operands are in {:?} and {:?} form; convert with to_montgomery / from_montgomery",
                self.mform, other.mform
            )));
        }
        Ok(())
    }

    /// Applies the slice kernel `f(modulus, self_limb, other_limb)` to each limb pair.
    fn zip_slices(
        &mut self,
        other: &Poly,
        f: impl Fn(&crate::arith::Modulus, &mut [u64], &[u64]) + Sync + Send,
    ) {
        let n = self.limb_len();
        if crate::parallel::splits(self.data.len(), Work::Light) {
            // Limbs on the threads there are; the kernels cannot fail.
            let (moduli, src) = (self.ctx.moduli(), &other.data);
            let _: Result<()> =
                crate::parallel::for_each_limb_as(Work::Light, &mut self.data, n, |i, a| {
                    f(&moduli[i], a, &src[i * n..(i + 1) * n]);
                    Ok(())
                });
            return;
        }
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
        if self.product != other.product {
            return self.add_mixed(other, vector::add_assign);
        }
        self.zip_slices(other, vector::add_assign);
        Ok(())
    }

    /// self -= other (same ring, same representation).
    pub fn sub_assign(&mut self, other: &Poly) -> Result<()> {
        self.check_compatible(other, "sub")?;
        if self.product != other.product {
            return self.add_mixed(other, vector::sub_assign);
        }
        self.zip_slices(other, vector::sub_assign);
        Ok(())
    }

    /// self *= other, pointwise in NTT representation (both operands must be in NTT form). General m:
    /// the result is an unreduced product (reduced by `to_coefficient`), so neither operand may be one;
    /// in a Montgomery ring a M * b M gives a b M and a M * b gives a b (a * b in plain form errors).
    pub fn mul_assign(&mut self, other: &Poly) -> Result<()> {
        self.ctx.check_same(&other.ctx, "mul")?;
        self.expect_form(Representation::Ntt, "mul")?;
        other.expect_form(Representation::Ntt, "mul")?;
        if self.ctx.general().is_none() {
            self.zip_slices(other, vector::mul_assign);
            return Ok(());
        }
        self.mform = self.product_form(self, other)?;
        self.zip_slices(other, vector::mul_assign);
        self.product = true;
        Ok(())
    }

    /// self += a * b in NTT representation (all three in NTT form), without reducing (general m: the
    /// sum of products is reduced once by `to_coefficient`, Bajard et al. (SAC 2017) section 3).
    pub fn mul_add_assign(&mut self, a: &Poly, b: &Poly) -> Result<()> {
        self.ctx.check_same(&a.ctx, "mul_add")?;
        a.ctx.check_same(&b.ctx, "mul_add")?;
        for p in [&*self, a, b] {
            p.expect_form(Representation::Ntt, "mul_add")?;
        }
        if self.ctx.general().is_some() {
            let mform = self.product_form(a, b)?;
            if !self.product && self.data.iter().all(|&x| x == 0) {
                self.mform = mform; // a zero accumulator takes the products' form
            }
            if mform != self.mform {
                return Err(Error::WrongForm(format!(
                    "mul_add: the product is in {mform:?} form, the accumulator in {:?}",
                    self.mform
                )));
            }
            if !self.product {
                self.promote();
            }
        }
        let n = self.limb_len();
        let general = self.ctx.general().is_some();
        for (((x, y), z), q) in self
            .data
            .chunks_exact_mut(n)
            .zip(a.data.chunks_exact(n))
            .zip(b.data.chunks_exact(n))
            .zip(self.ctx.moduli())
        {
            if general {
                for ((x, &y), &z) in x.iter_mut().zip(y).zip(z) {
                    *x = q.mul_add(y, z, *x);
                }
            } else {
                // Residues in [0, q): the backend's kernel, the same values.
                vector::mul_add_assign(q, x, y, z);
            }
        }
        Ok(())
    }

    /// The limb kernel `f(modulus, self_limb, other_limb, out_limb)` into a fresh buffer that `f`
    /// writes in full (no copy of self, no zero fill), with self's forms.
    fn zip_into(
        &self,
        other: &Poly,
        f: impl Fn(&crate::arith::Modulus, &[u64], &[u64], &mut [u64]) + Sync + Send,
    ) -> Poly {
        let n = self.limb_len();
        let (moduli, a, b) = (self.ctx.moduli(), &self.data, &other.data);
        let mut data = crate::pool::stale(a.len());
        // The kernels cannot fail.
        let _: Result<()> = crate::parallel::for_each_limb_as(Work::Light, &mut data, n, |i, o| {
            let r = i * n..(i + 1) * n;
            f(&moduli[i], &a[r.clone()], &b[r], o);
            Ok(())
        });
        self.with_data(data)
    }

    /// self + other (as [`Poly::add_assign`] on a copy, in one pass).
    pub fn add(&self, other: &Poly) -> Result<Poly> {
        self.check_compatible(other, "add")?;
        if self.product != other.product {
            let mut r = self.clone();
            r.add_assign(other)?;
            return Ok(r);
        }
        Ok(self.zip_into(other, vector::add_into))
    }

    /// self - other (as [`Poly::sub_assign`] on a copy, in one pass).
    pub fn sub(&self, other: &Poly) -> Result<Poly> {
        self.check_compatible(other, "sub")?;
        if self.product != other.product {
            let mut r = self.clone();
            r.sub_assign(other)?;
            return Ok(r);
        }
        Ok(self.zip_into(other, vector::sub_into))
    }

    /// self * other in NTT representation (as [`Poly::mul_assign`] on a copy, in one pass on
    /// power-of-two rings).
    pub fn mul(&self, other: &Poly) -> Result<Poly> {
        if self.ctx.general().is_some() {
            let mut r = self.clone();
            r.mul_assign(other)?;
            return Ok(r);
        }
        self.ctx.check_same(&other.ctx, "mul")?;
        self.expect_form(Representation::Ntt, "mul")?;
        other.expect_form(Representation::Ntt, "mul")?;
        Ok(self.zip_into(other, vector::mul_into))
    }

    /// self = self + self, in place ([`vector::double_assign`]: an aggregation of a share with
    /// itself, as Lattigo's benchmarks time theirs).
    pub fn double_assign(&mut self) {
        let (n, moduli) = (self.limb_len(), self.ctx.moduli());
        let _: Result<()> =
            crate::parallel::for_each_limb_as(Work::Light, &mut self.data, n, |i, a| {
                vector::double_assign(&moduli[i], a);
                Ok(())
            });
    }

    /// self = -self.
    pub fn neg_assign(&mut self) {
        let n = self.limb_len();
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
        let n = self.limb_len();
        for (limb, q) in self.data.chunks_exact_mut(n).zip(self.ctx.moduli()) {
            vector::mul_shoup_scalar_assign(q, limb, q.shoup(q.reduce(c)));
        }
    }

    /// self * c for an integer scalar c.
    pub fn mul_scalar(&self, c: u64) -> Poly {
        self.mul_scalar_from(c, false)
    }

    /// self * c for a signed integer scalar c, in one pass from self into a pooled buffer: the bits
    /// of [`Poly::mul_scalar`] of |c| and, for c < 0, [`Poly::neg_assign`].
    pub fn mul_signed_scalar(&self, c: i64) -> Poly {
        self.mul_scalar_from(c.unsigned_abs(), c < 0)
    }

    /// self * c (negated when `neg`), each limb written from self's by the Shoup product with
    /// c mod q (its negative modulo q when `neg`).
    fn mul_scalar_from(&self, c: u64, neg: bool) -> Poly {
        let n = self.limb_len();
        let mut data = crate::pool::stale(self.data.len());
        for ((out, src), q) in data
            .chunks_exact_mut(n)
            .zip(self.data.chunks_exact(n))
            .zip(self.ctx.moduli())
        {
            let w = q.reduce(c);
            let w = if neg { q.neg(w) } else { w };
            vector::mul_shoup_scalar_into(q, src, q.shoup(w), out);
        }
        self.with_data(data)
    }

    /// Converts to NTT representation in place (no-op if already there).
    pub fn to_ntt(&mut self) -> Result<()> {
        if self.form == Representation::Ntt {
            return Ok(());
        }
        if self.ctx.general().is_some() {
            return self.enter_ntt_general();
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
        if self.ctx.general().is_some() {
            return self.leave_ntt_general();
        }
        let (n, tables) = (self.ctx.degree(), self.ctx.ntt_tables());
        crate::parallel::for_each_limb(&mut self.data, n, |i, limb| tables[i].inverse(limb))?;
        self.form = Representation::Coefficient;
        Ok(())
    }

    pub(super) fn parts_mut(&mut self) -> (&Arc<RingContext>, &mut Vec<u64>, Representation) {
        (&self.ctx, &mut self.data, self.form)
    }

    /// Replaces the residues and the forms (general-m conversions).
    pub(super) fn set_parts(
        &mut self,
        data: Vec<u64>,
        form: Representation,
        mform: Form,
        product: bool,
    ) {
        crate::pool::recycle(std::mem::replace(&mut self.data, data));
        self.form = form;
        self.mform = mform;
        self.product = product;
    }
}
