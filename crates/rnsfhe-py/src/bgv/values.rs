//! Bgv plaintexts and ciphertexts, with the operators.

use super::*;
/// A BGV plaintext (an element of R_t).
#[pyclass(frozen, module = "rnsfhe", name = "BgvPlaintext")]
pub(crate) struct PyBgvPlaintext {
    pub(crate) shared: Arc<BgvShared>,
    pub(crate) pt: Arc<BgvPlaintext>,
}

#[pymethods]
impl PyBgvPlaintext {
    /// A plaintext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyBgvContext, data: ByteData) -> PyResult<Self> {
        context.plaintext_from_bytes(data)
    }
    /// None: numpy defers its operators to this class (no array of plaintexts from `array + pt`).
    #[classattr]
    fn __array_ufunc__(py: Python<'_>) -> Py<PyAny> {
        py.None()
    }
    /// The polynomial's coefficients in [0, t).
    fn coefficients<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i64>> {
        i64_array(
            py,
            self.pt.coefficients().iter().map(|&c| c as i64).collect(),
        )
    }
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.shared.ctx.plaintext_to_bytes(&self.pt).py()?,
        ))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBgvPlaintext>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().pt == self.pt)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.plaintext_to_bytes(&self.pt).py()?;
        reduce(py, "BgvPlaintext", &self.shared.params_bytes, &b)
    }
    fn __repr__(&self) -> String {
        format!("BgvPlaintext({})", self.shared.label)
    }
}

/// A BGV ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, integers and integer
/// sequences, unary `-`, and `**` for small powers (products use the registered relinearisation key).
#[pyclass(frozen, module = "rnsfhe", name = "BgvCiphertext")]
pub(crate) struct PyBgvCiphertext {
    pub(crate) shared: Arc<BgvShared>,
    pub(crate) ct: Arc<BgvCiphertext>,
}

impl PyBgvCiphertext {
    pub(crate) fn wrap(&self, ct: BgvCiphertext) -> PyBgvCiphertext {
        PyBgvCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    pub(crate) fn ctx(&self) -> &Arc<BgvContext> {
        &self.shared.ctx
    }
    /// The right operand of an operator as a ciphertext, a plaintext or an integer.
    fn operand(&self, other: &Bound<'_, PyAny>, op: &str) -> PyResult<Operand> {
        if let Ok(c) = other.cast::<PyBgvCiphertext>() {
            same(&c.get().shared, &self.shared, "ciphertext")?;
            return Ok(Operand::Ct(c.get().ct.clone()));
        }
        if let Ok(p) = other.cast::<PyBgvPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(Operand::Pt(p.get().pt.clone()));
        }
        if is_int(other) {
            let c: i64 = other.extract().map_err(|_| {
                raise(
                    "OutOfRangeError",
                    format!("integer {} does not fit in 64 bits", other),
                )
            })?;
            return Ok(Operand::Int(c));
        }
        if is_vector(other) {
            let v = int_values(other, self.ctx().params().plain_modulus())?;
            return Ok(Operand::Pt(Arc::new(self.ctx().encode(&v).py()?)));
        }
        Err(PyTypeError::new_err(format!(
            "unsupported operand for BgvCiphertext {op}: {} (use a BgvCiphertext, BgvPlaintext, int or \
             sequence of ints)",
            type_name(other)
        )))
    }
    /// The constant polynomial c, which is c in every slot.
    pub(crate) fn constant(&self, c: i64) -> PyResult<BgvPlaintext> {
        self.ctx().encode_coefficients(&[c]).py()
    }
    pub(crate) fn multiply_by(
        &self,
        py: Python<'_>,
        b: &BgvCiphertext,
    ) -> PyResult<PyBgvCiphertext> {
        let k = self.shared.relin_key(
            "ciphertext * ciphertext",
            KeyId::join(self.ct.key_id(), b.key_id()).py()?,
        )?;
        let (ctx, a) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.multiply(&a, b, &k)).py()?))
    }
}

enum Operand {
    Ct(Arc<BgvCiphertext>),
    Pt(Arc<BgvPlaintext>),
    Int(i64),
}

#[pymethods]
impl PyBgvCiphertext {
    /// A ciphertext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyBgvContext, data: ByteData) -> PyResult<Self> {
        context.ciphertext_from_bytes(data)
    }
    /// The identity of the key pair it is encrypted under (16 hex digits; None for a trivial
    /// ciphertext). Operators find the evaluation keys registered for this key pair.
    #[getter]
    fn key_id(&self) -> Option<String> {
        self.ct.key_id().map(|k| k.to_string())
    }
    /// None: numpy defers `array + ct` (and `- *`) to `ct.__radd__`, the slot-wise sum.
    #[classattr]
    fn __array_ufunc__(py: Python<'_>) -> Py<PyAny> {
        py.None()
    }
    /// The level l (moduli q_0..q_l); fresh ciphertexts are at the top level.
    #[getter]
    fn level(&self) -> usize {
        self.ct.level()
    }
    /// `ctx.mod_switch(self)`: one level down, the same message.
    fn mod_switch(&self, py: Python<'_>) -> PyResult<PyBgvCiphertext> {
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.mod_switch(&x)).py()?))
    }
    /// Number of polynomials (2, or 3 after `multiply_no_relin`).
    #[getter]
    fn size(&self) -> usize {
        self.ct.size()
    }
    /// A context of this ciphertext's parameter set.
    #[getter]
    fn context(&self) -> PyResult<PyBgvContext> {
        PyBgvContext::from_shared(self.shared.clone())
    }
    /// The ciphertext in the rnsfhe binary format .
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.ctx().ciphertext_to_bytes(&self.ct).py()?,
        ))
    }
    /// Pickles through `_restore`; from protocol 5 on the bytes go out of band.
    fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
        let b = self.ctx().ciphertext_to_bytes(&self.ct).py()?;
        crate::reduce_ex(py, "BgvCiphertext", &self.shared.params_bytes, &b, protocol)
    }
    fn __repr__(&self) -> String {
        format!(
            "BgvCiphertext(size={}, level={}, {})",
            self.ct.size(),
            self.ct.level(),
            self.shared.label
        )
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        let ctx = self.ctx();
        Ok(self.wrap(
            match self.operand(other, "+")? {
                Operand::Ct(b) => ctx.add(&self.ct, &b),
                Operand::Pt(p) => ctx.add_plain(&self.ct, &p),
                Operand::Int(c) => ctx.add_plain(&self.ct, &self.constant(c)?),
            }
            .py()?,
        ))
    }
    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        self.__add__(other)
    }
    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        let ctx = self.ctx();
        Ok(self.wrap(
            match self.operand(other, "-")? {
                Operand::Ct(b) => ctx.sub(&self.ct, &b),
                Operand::Pt(p) => ctx.sub_plain(&self.ct, &p),
                Operand::Int(c) => ctx.sub_plain(&self.ct, &self.constant(c)?),
            }
            .py()?,
        ))
    }
    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        let neg = self.wrap(self.ctx().negate(&self.ct).py()?);
        neg.__add__(other)
    }
    fn __neg__(&self) -> PyResult<PyBgvCiphertext> {
        Ok(self.wrap(self.ctx().negate(&self.ct).py()?))
    }
    fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        let ctx = self.ctx().clone();
        match self.operand(other, "*")? {
            Operand::Ct(b) => self.multiply_by(py, &b),
            Operand::Pt(p) => {
                let a = self.ct.clone();
                Ok(self.wrap(py.detach(|| ctx.mul_plain(&a, &p)).py()?))
            }
            Operand::Int(c) => Ok(self.wrap(ctx.mul_scalar(&self.ct, c).py()?)),
        }
    }
    fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        self.__mul__(py, other)
    }
    /// x ** k for 1 <= k <= 64 by square-and-multiply (depth ceil(log2 k)).
    fn __pow__(
        &self,
        py: Python<'_>,
        k: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBgvCiphertext> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Err(PyTypeError::new_err(
                "pow() with a modulus is not supported on ciphertexts",
            ));
        }
        let k = power(k)?;
        let key = self.shared.relin_key("ciphertext ** k", self.ct.key_id())?;
        let ctx = self.ctx().clone();
        let x = self.ct.clone();
        let r = py.detach(|| -> rnsfhe::Result<BgvCiphertext> {
            let (mut acc, mut base, mut e) = (None::<BgvCiphertext>, (*x).clone(), k);
            loop {
                if e & 1 == 1 {
                    acc = Some(match acc {
                        None => base.clone(),
                        Some(a) => ctx.multiply(&a, &base, &key)?,
                    });
                }
                e >>= 1;
                if e == 0 {
                    break;
                }
                base = ctx.multiply(&base, &base, &key)?;
            }
            Ok(acc.unwrap_or(base))
        });
        Ok(self.wrap(r.py()?))
    }
    /// `ctx.rotate_rows(self, step)` with the registered Galois keys.
    fn rotate_rows(&self, py: Python<'_>, step: Int<i64>) -> PyResult<PyBgvCiphertext> {
        let step = step.0;
        let k = self.shared.galois_keys("rotate_rows", self.ct.key_id())?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.rotate_rows(&x, step, &k)).py()?))
    }
    /// `ctx.rotate_columns(self)` with the registered Galois keys.
    fn rotate_columns(&self, py: Python<'_>) -> PyResult<PyBgvCiphertext> {
        let k = self
            .shared
            .galois_keys("rotate_columns", self.ct.key_id())?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.rotate_columns(&x, &k)).py()?))
    }
    /// `ctx.sum_slots(self)` with the registered Galois keys.
    fn sum_slots(&self, py: Python<'_>) -> PyResult<PyBgvCiphertext> {
        let k = self.shared.galois_keys("sum_slots", self.ct.key_id())?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.sum_slots(&x, &k)).py()?))
    }
}
