//! The CKKS context's circuit methods: polynomials, Chebyshev interpolation, paper 004's functions
//! and statistics, and logistic-regression training. `with_function_methods!` adds them to the
//! methods of the context class's `rlwe_context!` call, since PyO3 allows one `#[pymethods]` block
//! per class (`lib.rs`).

/// `rlwe_context! { $head methods { $own, then the circuit methods } }`.
macro_rules! with_function_methods {
    ({ $($head:tt)* } { $($own:tt)* }) => {
        crate::rlwe_context::rlwe_context! {
            $($head)*
            methods {
                $($own)*

                /// A plaintext matrix M (rows x cols, any numeric dtype, real or complex) encoded
                /// once for `matmul` as the Halevi-Shoup diagonals of the matrix applying M to each
                /// of `batch` vectors of one ciphertext, at the cost of one product: `layout="rows"`
                /// (default) puts vector j in slots [j stride, j stride + stride) (`stride` default
                /// max(rows, cols)): a ciphertext of a row-major (batch, stride) array, 2 stride - 1
                /// diagonals; `"interleaved"` puts entry c of vector j at slot c batch + j (batch a
                /// power of two): n = slots / batch diagonals, the cheaper. `mat.pack(X)` lays a
                /// (batch, cols) array out, `mat.unpack(values)` takes the (batch, rows) products out.
                /// For vectors of `slots` slots (default: the smallest power of two holding the batch)
                /// at `level` (default: the top).
                #[pyo3(signature = (m, *, level=None, slots=None, batch=Int(1), layout="rows", stride=None))]
                #[allow(clippy::too_many_arguments)]
                fn matrix(
                    &self,
                    py: Python<'_>,
                    m: &Bound<'_, PyAny>,
                    level: Option<Int<usize>>,
                    slots: Option<Int<usize>>,
                    batch: Int<usize>,
                    layout: &str,
                    stride: Option<Int<usize>>,
                ) -> PyResult<super::PyCkksMatrix> {
                    super::PyCkksMatrix::encode(
                        py,
                        &self.shared,
                        m,
                        level.map(|l| l.0),
                        slots.map(|s| s.0),
                        batch.0,
                        layout,
                        stride.map(|s| s.0),
                    )
                }
                /// y = M x for every vector x of `a` (laid out as `m.pack` does; one vector: x in the
                /// first cols slots, zeros up to the matrix's slots, as a ciphertext of x padded with
                /// zeros), `m` a `CkksMatrix` (or an array, encoded for one vector at `a`'s level and
                /// slots); y comes out where x was (`m.unpack`), one level down, by hoisted baby-step
                /// giant-step. Galois keys for `matrix.rotation_steps`: `keys`, or those registered for
                /// `a`'s key pair.
                #[pyo3(signature = (a, m, keys=None))]
                fn matmul(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    m: &Bound<'_, PyAny>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<PyCkksCiphertext> {
                    let built;
                    let matrix = match m.cast::<super::PyCkksMatrix>() {
                        Ok(b) => b.get(),
                        Err(_) => {
                            let level = Some(a.ct.level());
                            let slots = Some(a.ct.slots());
                            built = super::PyCkksMatrix::encode(
                                py, &self.shared, m, level, slots, 1, "rows", None,
                            )?;
                            &built
                        }
                    };
                    if !Arc::ptr_eq(&matrix.shared, &self.shared) {
                        return Err(raise(
                            "ContextMismatchError",
                            "the matrix was encoded for another parameter set".into(),
                        ));
                    }
                    let (have, want) = (a.ct.slots(), matrix.transform.slots());
                    if have != want {
                        return Err(raise(
                            "LengthMismatchError",
                            format!(
                                "the ciphertext has {have} slots, the matrix multiplies vectors \
                                 of {want}: encrypt the vector padded with zeros to {want} values \
                                 (fewer slots repeat the values instead; `matrix.pack` pads), or \
                                 encode the matrix with slots={have}"
                            ),
                        ));
                    }
                    let k = self.gk(keys, "matmul", a.ct.key_id())?;
                    let t = matrix.transform.clone();
                    self.unary(py, a, move |c, x| t.apply(c, x, &k))
                }
                /// The transforms of an encrypted matrix product (Jiang, Kim, Lauter and Song, ACM CCS
                /// 2018), encoded once for `matmul_encrypted`: `shape` d (d x d matrices) or (d1, d2,
                /// d3) (d1 x d2 by d2 x d3; d1 dividing d = max sums d1 terms instead of d), for
                /// ciphertexts of `slots` slots (default: the smallest power of two holding d^2) at
                /// `level` (default: the top, at least 3). Its `rotation_steps` are the Galois keys it
                /// needs; `pack` and `unpack` lay matrices out row-major with stride d.
                #[pyo3(signature = (shape, *, level=None, slots=None))]
                fn matrix_product(
                    &self,
                    py: Python<'_>,
                    shape: &Bound<'_, PyAny>,
                    level: Option<Int<usize>>,
                    slots: Option<Int<usize>>,
                ) -> PyResult<super::PyCkksMatrixProduct> {
                    let shape = super::PyCkksMatrixProduct::shape_of(shape)?;
                    super::PyCkksMatrixProduct::encode(
                        py,
                        &self.shared,
                        shape,
                        level.map(|l| l.0),
                        slots.map(|s| s.0),
                    )
                }
                /// A B for ciphertexts `a`, `b` of A (d1 x d2) and B (d2 x d3) row-major with stride d
                /// (`product.pack`), `product` a `CkksMatrixProduct` (or its shape, encoded for `a`'s
                /// level and slots): the product row-major with stride d (`product.unpack`), 3 levels
                /// down. Keys: `rlk` and `keys` (for `product.rotation_steps`), or those registered
                /// for `a`'s key pair.
                #[pyo3(signature = (a, b, product, rlk=None, keys=None))]
                fn matmul_encrypted(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    b: &PyCkksCiphertext,
                    product: &Bound<'_, PyAny>,
                    rlk: Option<&PyRelinKey>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<PyCkksCiphertext> {
                    let built;
                    let p = match product.cast::<super::PyCkksMatrixProduct>() {
                        Ok(p) => p.get(),
                        Err(_) => {
                            let shape = super::PyCkksMatrixProduct::shape_of(product).map_err(|_| {
                                PyTypeError::new_err(
                                    "product must be a CkksMatrixProduct (ctx.matrix_product(...)), d \
                                     or (d1, d2, d3)",
                                )
                            })?;
                            let (level, slots) = (Some(a.ct.level()), Some(a.ct.slots()));
                            built = super::PyCkksMatrixProduct::encode(py, &self.shared, shape, level, slots)?;
                            &built
                        }
                    };
                    if !Arc::ptr_eq(&p.shared, &self.shared) {
                        return Err(raise(
                            "ContextMismatchError",
                            "the matrix product was encoded for another parameter set".into(),
                        ));
                    }
                    let y = self.check(b)?;
                    let r = self.rlk(rlk, "matmul_encrypted", a.ct.key_id())?;
                    let k = self.gk(keys, "matmul_encrypted", a.ct.key_id())?;
                    let prod = p.product.clone();
                    self.unary(py, a, move |c, x| prod.apply(c, x, &y, &r, &k))
                }
                /// sum_i coeffs[i] x^i: baby-step giant-step (`method="bsgs"`, default) or the power tree
                /// (`method="powers"`).
                #[pyo3(signature = (a, coeffs, *, method="bsgs", rlk=None))]
                fn polynomial(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    coeffs: Vec<f64>,
                    method: &str,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let k = self.rlk(rlk, "polynomial", a.ct.key_id())?;
                    let bsgs = match method {
                        "bsgs" => true,
                        "powers" => false,
                        m => {
                            return Err(PyValueError::new_err(format!(
                                "method must be \"bsgs\" or \"powers\", got {m:?}"
                            )))
                        }
                    };
                    self.unary(py, a, move |c, x| {
                        if bsgs {
                            circuits::evaluate_polynomial_bsgs(c, x, &coeffs, &k)
                        } else {
                            circuits::evaluate_polynomial(c, x, &coeffs, &k)
                        }
                    })
                }
                /// f on [lo, hi] by its degree-d Chebyshev interpolant (f is called at the d + 1 nodes).
                #[pyo3(signature = (a, f, lo, hi, degree, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn chebyshev(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    f: &Bound<'_, PyAny>,
                    lo: f64,
                    hi: f64,
                    degree: Int<usize>,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let degree = degree.0;
                    let k = self.rlk(rlk, "chebyshev", a.ct.key_id())?;
                    // Sample f at the nodes with the GIL held; the evaluation asks for the same nodes. The degree
                    // is checked (range and levels) before f is called.
                    let x = self.check(a)?;
                    let ctx = self.ctx().clone();
                    circuits::check_chebyshev_degree(&x, degree).py()?;
                    let table: Vec<(f64, f64)> = chebyshev_samples(f, lo, hi, degree)?;
                    let r = py.detach(|| {
                        circuits::evaluate_chebyshev(&ctx, &x, |t| lookup(&table, t), (lo, hi), degree, &k)
                    });
                    Ok(self.wrap(r.py()?))
                }
                /// exp(x) by its Taylor polynomial of degree 7 (paper 004 Table 2).
                #[pyo3(signature = (a, rlk=None))]
                fn exp(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let k = self.rlk(rlk, "exp", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| circuits::exp(c, x, &k))
                }
                /// The logistic function by its Taylor polynomial of degree 7 (paper 004 Table 2).
                #[pyo3(signature = (a, rlk=None))]
                fn sigmoid(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let k = self.rlk(rlk, "sigmoid", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| circuits::sigmoid(c, x, &k))
                }
                /// 1/x for x in (0, 2) by `iterations` steps of [12] Alg. 2 (paper 004 Table 2).
                #[pyo3(signature = (a, iterations=Int(4), rlk=None))]
                fn inverse(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    iterations: Int<usize>,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let iterations = iterations.0;
                    let k = self.rlk(rlk, "inverse", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| circuits::inverse(c, x, iterations, &k))
                }
                /// Every slot set to the sum of the first `count` slots (a power of two, default: the
                /// ciphertext's slots; a smaller count clears the other slots first, one level).
                #[pyo3(signature = (a, count=None, keys=None))]
                fn sum_slots(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    count: Option<Int<usize>>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<PyCkksCiphertext> {
                    let k = self.gk(keys, "sum_slots", a.ct.key_id())?;
                    let n = count.map_or(a.ct.slots(), |c| c.0);
                    self.unary(py, a, move |c, x| circuits::sum_slots(c, x, n, &k))
                }
                /// The mean of the first `count` slots (paper 004 Table 3), in every slot, at the input's scale
                /// (one level; one more for a count below the ciphertext's slots).
                #[pyo3(signature = (a, count=None, keys=None))]
                fn mean(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    count: Option<Int<usize>>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<PyCkksCiphertext> {
                    let k = self.gk(keys, "mean", a.ct.key_id())?;
                    let n = count.map_or(a.ct.slots(), |c| c.0);
                    self.unary(py, a, move |c, x| circuits::mean(c, x, n, &k))
                }
                /// The variance of the first `count` slots (paper 004 Table 3), in every slot; E[x^2] and E[x]^2
                /// meet at one exact scale, so a small spread keeps its precision (two levels, three for a count
                /// below the ciphertext's slots).
                #[pyo3(signature = (a, count=None, rlk=None, keys=None))]
                fn variance(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    count: Option<Int<usize>>,
                    rlk: Option<&PyRelinKey>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<PyCkksCiphertext> {
                    let r = self.rlk(rlk, "variance", a.ct.key_id())?;
                    let k = self.gk(keys, "variance", a.ct.key_id())?;
                    let n = count.map_or(a.ct.slots(), |c| c.0);
                    self.unary(py, a, move |c, x| circuits::variance(c, x, n, &r, &k))
                }

                /// Logistic-regression training on encrypted data (paper 004 section 5.3, Nesterov's accelerated
                /// gradient): `z` encrypts `rnsfhe.logistic.pack(x, y)` (samples x features, bias included);
                /// returns the encrypted weights (slot j holds beta_j). Needs 6 levels per iteration plus one and
                /// the rotation keys of `rnsfhe.logistic.rotation_steps(samples, features)`. With
                /// `bootstrap=True` (bootstrappable parameters, registered bootstrapping keys, the conjugation
                /// key), any number of iterations: the weights are bootstrapped, one bootstrap per refresh,
                /// when their levels run out (|weights| <= `rnsfhe.logistic.WEIGHT_BOUND`); `progress` as for
                /// `bootstrapping_keys`, over the iterations.
                #[pyo3(signature = (z, samples, features, iterations, rlk=None, keys=None, *, bootstrap=false,
                    progress=None))]
                #[allow(clippy::too_many_arguments)]
                fn train_logistic(
                    &self,
                    py: Python<'_>,
                    z: &PyCkksCiphertext,
                    samples: Int<usize>,
                    features: Int<usize>,
                    iterations: Int<usize>,
                    rlk: Option<&PyRelinKey>,
                    keys: Option<&PyGaloisKeys>,
                    bootstrap: bool,
                    progress: Option<&Bound<'_, PyAny>>,
                ) -> PyResult<PyCkksCiphertext> {
                    let (samples, features, iterations) = (samples.0, features.0, iterations.0);
                    let r = self.rlk(rlk, "train_logistic", z.ct.key_id())?;
                    let k = self.gk(keys, "train_logistic", z.ct.key_id())?;
                    if bootstrap {
                        let x = self.check(z)?;
                        let shape = (samples, features, iterations);
                        return Ok(self.wrap(super::bootstrap::train(py, &self.shared, x, shape, &r, &k, progress)?));
                    }
                    self.unary(py, z, move |c, x| {
                        circuits::train_logistic(c, x, samples, features, iterations, &r, &k)
                    })
                }
            }
        }
    };
}
pub(crate) use with_function_methods;
