//! Ckks plaintexts and ciphertexts, with the operators.

use super::*;
crate::rlwe_context::rlwe_values! {
    context PyCkksContext(CkksShared, CkksContext);
    /// A CKKS plaintext: an encoding of slots at a level and a scale.
    plaintext PyCkksPlaintext("CkksPlaintext", CkksPlaintext) {
        #[getter]
        fn level(&self) -> usize {
            self.pt.level()
        }
        #[getter]
        fn scale(&self) -> f64 {
            self.pt.scale()
        }
        #[getter]
        fn slots(&self) -> usize {
            self.pt.slots()
        }
        fn __repr__(&self) -> String {
            format!(
                "CkksPlaintext(level={}, scale=2^{:.2}, slots={})",
                self.pt.level(),
                self.pt.scale().log2(),
                self.pt.slots()
            )
        }
    }
    /// A CKKS ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, real numbers (numpy scalars
    /// included) and sequences or arrays, on either side (`__array_ufunc__ = None` makes numpy defer).
    /// Every result is at level L minus the circuit's multiplicative depth and at that level's scale
    /// (`CkksContext.scale_at`, OpenFHE's FLEXIBLEAUTO): sums bring the higher operand down onto the
    /// lower one's level and scale, so operands of one level add without spending a level; products
    /// are relinearised (registered key) and rescaled; constants and vectors multiplied in are encoded
    /// so that the rescaled product lands on the chain's scale; unary `-`; `**` for small powers.
    ciphertext PyCkksCiphertext("CkksCiphertext", CkksCiphertext) {
        /// Levels left (rescalings still possible).
        #[getter]
        fn level(&self) -> usize {
            self.ct.level()
        }
        #[getter]
        fn scale(&self) -> f64 {
            self.ct.scale()
        }
        #[getter]
        fn slots(&self) -> usize {
            self.ct.slots()
        }
        fn __repr__(&self) -> String {
            format!(
                "CkksCiphertext(level={}, scale=2^{:.2}, slots={}, size={})",
                self.ct.level(),
                self.ct.scale().log2(),
                self.ct.slots(),
                self.ct.size()
            )
        }

        fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.add_or_sub(other, false)
        }
        fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.add_or_sub(other, false)
        }
        fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.add_or_sub(other, true)
        }
        fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.__neg__()?.add_or_sub(other, false)
        }
        /// The mask of self > other (`ctx.greater` with its defaults: alpha 12, inputs in
        /// [-1, 1], bootstrapping when the context can).
        fn __gt__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.masked(py, other, false)
        }
        /// The mask of self < other (`ctx.less` with its defaults).
        fn __lt__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.masked(py, other, true)
        }
        fn __neg__(&self) -> PyResult<PyCkksCiphertext> {
            let mut x = (*self.ct).clone();
            self.ctx().negate_assign(&mut x).py()?;
            Ok(self.wrap(x))
        }
        fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            let ctx = self.ctx().clone();
            let a = self.ct.clone();
            let r = match self.operand(other, "*")? {
                Operand::Ct(b) => {
                    let k = self.shared.relin_key(
                        "ciphertext * ciphertext",
                        KeyId::join(self.ct.key_id(), b.key_id()).py()?,
                    )?;
                    py.detach(|| ctx.mul_auto(&a, &b, &k))
                }
                Operand::Pt(p) => py.detach(|| ctx.mul_plain_auto(&a, &p)),
                Operand::Real(c) => py.detach(|| ctx.mul_const_auto(&a, c)),
                Operand::Values(v) => py.detach(|| ctx.mul_values_auto(&a, &v)),
            };
            Ok(self.wrap(r.py()?))
        }
        fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            self.__mul__(py, other)
        }
        /// RS by the top prime.
        fn rescale(&self, py: Python<'_>) -> PyResult<PyCkksCiphertext> {
            let (ctx, x) = (self.ctx().clone(), self.ct.clone());
            Ok(self.wrap(py.detach(|| ctx.rescale(&x)).py()?))
        }
        /// Rotates the slots left by `step` with the registered Galois keys.
        fn rotate(&self, py: Python<'_>, step: Int<i64>) -> PyResult<PyCkksCiphertext> {
            let step = step.0;
            let k = self.shared.galois_keys("rotate", self.ct.key_id())?;
            let (ctx, x) = (self.ctx().clone(), self.ct.clone());
            Ok(self.wrap(py.detach(|| ctx.rotate(&x, step, &k)).py()?))
        }
        /// The bootstrap with the bootstrapping keys registered for this ciphertext's key pair
        /// (`CkksContext.bootstrap`).
        fn bootstrap(&self, py: Python<'_>) -> PyResult<PyCkksCiphertext> {
            let r = super::bootstrap::run(py, &self.shared, self.ct.clone(), None)?;
            Ok(self.wrap(r))
        }
        /// Conjugates every slot with the registered Galois keys.
        fn conjugate(&self, py: Python<'_>) -> PyResult<PyCkksCiphertext> {
            let k = self.shared.galois_keys("conjugate", self.ct.key_id())?;
            let (ctx, x) = (self.ctx().clone(), self.ct.clone());
            Ok(self.wrap(py.detach(|| ctx.conjugate(&x, &k)).py()?))
        }
    }
}

enum Operand {
    Ct(Arc<CkksCiphertext>),
    Pt(Arc<CkksPlaintext>),
    Real(f64),
    Values(Vec<rnsfhe::ckks::Complex>),
}

impl PyCkksCiphertext {
    /// x^k by square-and-multiply, each product aligned, relinearised and rescaled.
    fn power(
        ctx: &CkksContext,
        x: &Arc<CkksCiphertext>,
        k: u32,
        key: &rnsfhe::rlwe::RelinKey,
    ) -> rnsfhe::Result<CkksCiphertext> {
        let r = crate::convert::power_by_squaring(
            x,
            k,
            |a, b| Ok(Arc::new(ctx.mul_auto(a, b, key)?)),
            |b| Ok(Arc::new(ctx.multiply_rescale(b, b, key)?)),
        )?;
        Ok(Arc::unwrap_or_clone(r))
    }
    fn operand(&self, other: &Bound<'_, PyAny>, op: &str) -> PyResult<Operand> {
        if let Ok(c) = other.cast::<PyCkksCiphertext>() {
            same(&c.get().shared, &self.shared, "ciphertext")?;
            return Ok(Operand::Ct(c.get().ct.clone()));
        }
        if let Ok(p) = other.cast::<PyCkksPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(Operand::Pt(p.get().pt.clone()));
        }
        if let Some(c) = real_scalar(other)? {
            if !c.is_finite() {
                return Err(raise(
                    "OutOfRangeError",
                    format!("constant {c} is not finite"),
                ));
            }
            return Ok(Operand::Real(c));
        }
        if is_vector(other) {
            return Ok(Operand::Values(complex_values(other)?));
        }
        Err(PyTypeError::new_err(format!(
            "unsupported operand for CkksCiphertext {op}: {} (use a CkksCiphertext, CkksPlaintext, \
             real number or sequence of numbers)",
            type_name(other)
        )))
    }
    pub(crate) fn add_or_sub(
        &self,
        other: &Bound<'_, PyAny>,
        sub: bool,
    ) -> PyResult<PyCkksCiphertext> {
        let ctx = self.ctx();
        let a = &self.ct;
        let r = match self.operand(other, if sub { "-" } else { "+" })? {
            Operand::Ct(b) => {
                if sub {
                    ctx.sub_auto(a, &b)
                } else {
                    ctx.add_auto(a, &b)
                }
            }
            Operand::Pt(p) => {
                if sub {
                    ctx.sub_plain(a, &p)
                } else {
                    ctx.add_plain(a, &p)
                }
            }
            Operand::Real(c) => ctx.add_const(a, if sub { -c } else { c }),
            Operand::Values(v) => {
                let p = ctx.encode_at(&v, a.level(), a.scale()).py()?;
                if sub {
                    ctx.sub_plain(a, &p)
                } else {
                    ctx.add_plain(a, &p)
                }
            }
        };
        Ok(self.wrap(r.py()?))
    }
}
