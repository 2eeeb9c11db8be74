//! `integer_values!`: the plaintext and ciphertext classes of an integer scheme (BFV, BGV) with their
//! operators, on top of `rlwe_values!`.

/// The plaintext and ciphertext classes of an integer scheme, with the scheme's own ciphertext
/// `methods`; called by `integer_scheme!`, whose module-level helpers (`plain_of`, `rotate_dimension`,
/// `frobenius`) it uses.
macro_rules! integer_values {
    (
        $upper:literal;
        context $Py:ident($Shared:ty, $Ctx:ty);
        plaintext $PyPt:ident($pname:literal, $Pt:ty);
        ciphertext $PyCt:ident($cname:literal, $Ct:ty);
        methods { $($ctx_extra:tt)* }
    ) => {
        enum Operand {
            Ct(Arc<$Ct>),
            Pt(Arc<$Pt>),
            Int(i64),
        }

        impl $PyCt {
            /// The right operand of an operator as a ciphertext, a plaintext or an integer.
            fn operand(&self, other: &Bound<'_, PyAny>, op: &str) -> PyResult<Operand> {
                if let Ok(c) = other.cast::<$PyCt>() {
                    same(&c.get().shared, &self.shared, "ciphertext")?;
                    return Ok(Operand::Ct(c.get().ct.clone()));
                }
                if is_int(other) {
                    let c: i64 = other.extract().map_err(|_| {
                        raise("OutOfRangeError", format!("integer {} does not fit in 64 bits", other))
                    })?;
                    return Ok(Operand::Int(c));
                }
                if other.cast::<$PyPt>().is_ok() || is_vector(other) {
                    return Ok(Operand::Pt(plain_of(&self.shared, other)?));
                }
                Err(PyTypeError::new_err(format!(
                    concat!("unsupported operand for ", $cname, " {}: {} (use a ", $cname, ", ", $pname,
                        ", int or sequence of ints)"),
                    op,
                    type_name(other)
                )))
            }
            /// The constant polynomial c, which is c in every slot.
            pub(crate) fn constant(&self, c: i64) -> PyResult<$Pt> {
                self.ctx().encode_coefficients(&[c]).py()
            }
            pub(crate) fn multiply_by(&self, py: Python<'_>, b: &$Ct) -> PyResult<$PyCt> {
                let k = self.shared.relin_key(
                    "ciphertext * ciphertext",
                    KeyId::join(self.ct.key_id(), b.key_id()).py()?,
                )?;
                let (ctx, a) = (self.ctx().clone(), self.ct.clone());
                Ok(self.wrap(py.detach(|| ctx.multiply(&a, b, &k)).py()?))
            }
            /// x^k by square-and-multiply, each product relinearised.
            fn power(
                ctx: &$Ctx,
                x: &Arc<$Ct>,
                k: u32,
                key: &rnsfhe::rlwe::RelinKey,
            ) -> rnsfhe::Result<$Ct> {
                crate::convert::power_by_squaring(
                    &**x,
                    k,
                    |a, b| ctx.multiply(a, b, key),
                    |a| ctx.square_relin(a, key),
                )
            }
            /// Runs `f` with the registered Galois keys of this ciphertext's key pair.
            fn with_galois(
                &self,
                py: Python<'_>,
                what: &str,
                f: impl FnOnce(&$Ctx, &$Ct, &rnsfhe::rlwe::GaloisKeys) -> rnsfhe::Result<$Ct> + Send,
            ) -> PyResult<$PyCt> {
                let k = self.shared.galois_keys(what, self.ct.key_id())?;
                let (ctx, x) = (self.ctx().clone(), self.ct.clone());
                Ok(self.wrap(py.detach(|| f(&ctx, &x, &k)).py()?))
            }
        }

        $crate::rlwe_context::rlwe_values! {
            context $Py($Shared, $Ctx);
            #[doc = concat!("A ", $upper, " plaintext (an element of R_t).")]
            plaintext $PyPt($pname, $Pt) {
                /// The polynomial's coefficients in [0, t).
                fn coefficients<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i64>> {
                    i64_array(py, self.pt.coefficients().iter().map(|&c| c as i64).collect())
                }
                fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                    other.cast::<$PyPt>().is_ok_and(|o| {
                        Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().pt == self.pt
                    })
                }
                fn __repr__(&self) -> String {
                    format!(concat!($pname, "({})"), self.shared.label)
                }
            }
            #[doc = concat!("A ", $upper, " ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, ",
                "integers and integer sequences (slot arrays for a general Phi_m), unary `-`, and `**` ",
                "for small powers (products use the registered relinearisation key).")]
            ciphertext $PyCt($cname, $Ct) {
                fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
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
                fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
                    self.__add__(other)
                }
                fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
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
                fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
                    self.__neg__()?.__add__(other)
                }
                fn __neg__(&self) -> PyResult<$PyCt> {
                    Ok(self.wrap(self.ctx().negate(&self.ct).py()?))
                }
                fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
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
                fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
                    self.__mul__(py, other)
                }
                /// `ctx.rotate_rows(self, step)` with the registered Galois keys.
                fn rotate_rows(&self, py: Python<'_>, step: Int<i64>) -> PyResult<$PyCt> {
                    let step = step.0;
                    self.with_galois(py, "rotate_rows", move |c, x, k| c.rotate_rows(x, step, k))
                }
                /// `ctx.rotate_columns(self)` with the registered Galois keys.
                fn rotate_columns(&self, py: Python<'_>) -> PyResult<$PyCt> {
                    self.with_galois(py, "rotate_columns", |c, x, k| c.rotate_columns(x, k))
                }
                /// `ctx.sum_slots(self)` with the registered Galois keys.
                fn sum_slots(&self, py: Python<'_>) -> PyResult<$PyCt> {
                    self.with_galois(py, "sum_slots", |c, x, k| c.sum_slots(x, k))
                }
                /// `ctx.rotate_dimension(self, dimension, steps)` with the registered Galois keys.
                fn rotate_dimension(
                    &self,
                    py: Python<'_>,
                    dimension: Int<usize>,
                    steps: Int<i64>,
                ) -> PyResult<$PyCt> {
                    let (dim, s) = (dimension.0, steps.0);
                    self.with_galois(py, "rotate_dimension", move |c, x, k| {
                        rotate_dimension(c, x, dim, s, k)
                    })
                }
                /// `ctx.frobenius(self, power)` with the registered Galois keys.
                #[pyo3(signature = (power=Int(1)))]
                fn frobenius(&self, py: Python<'_>, power: Int<i64>) -> PyResult<$PyCt> {
                    let p = power.0;
                    self.with_galois(py, "frobenius", move |c, x, k| frobenius(c, x, p, k))
                }
                $($ctx_extra)*
            }
        }
    };
}
pub(crate) use integer_values;
