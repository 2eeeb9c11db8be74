//! The CKKS context's circuit methods: polynomials, Chebyshev interpolation, Cheon et al. (SAC 2018)'s functions
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
                /// sign(x) for x in [-bound, bound]: +-1 where |x| >= 2^-alpha bound (within the
                /// composite's error; between, a value in [-1, 1] of x's sign). Bootstraps by itself
                /// when the context is bootstrappable and has bootstrapping keys for the key pair
                /// (`bootstrap=False`: never); else it needs the composite's depth in levels.
                #[pyo3(signature = (a, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                fn sign(&self, py: Python<'_>, a: &PyCkksCiphertext, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, |c, x, b| c.sign(x, b))
                }
                /// step(x): 1 for x > 0, 0 for x < 0 ((sign + 1) / 2; `sign` for the domain).
                #[pyo3(signature = (a, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                fn step(&self, py: Python<'_>, a: &PyCkksCiphertext, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, |c, x, b| c.step(x, b))
                }
                /// |x| = x sign(x) (within 2 |x| where |x| < 2^-alpha bound).
                #[pyo3(signature = (a, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                fn abs(&self, py: Python<'_>, a: &PyCkksCiphertext, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, |c, x, b| c.abs(x, b))
                }
                /// ReLU(x) = max(x, 0) = x step(x) (within |x| where |x| < 2^-alpha bound).
                #[pyo3(signature = (a, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                fn relu(&self, py: Python<'_>, a: &PyCkksCiphertext, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, |c, x, b| c.relu(x, b))
                }
                /// clip(x, lo, hi) for x in [-bound, bound], -bound <= lo < hi <= bound.
                #[pyo3(signature = (a, lo, hi, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn clip(&self, py: Python<'_>, a: &PyCkksCiphertext, lo: f64, hi: f64, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, move |c, x, b| c.clip(x, lo, hi, b))
                }
                /// The mask of a > b (1 where a > b, 0 where a < b; `b` a ciphertext or a number),
                /// for a, b in [-bound, bound]: decided where |a - b| >= 2^(1-alpha) bound.
                #[pyo3(signature = (a, b, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn greater(&self, py: Python<'_>, a: &PyCkksCiphertext, b: &Bound<'_, PyAny>, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_two(py, a, b, (alpha.0, bound, bootstrap), rlk, |c, x, y, b| super::compare::greater(c, x, y, b))
                }
                /// The mask of a < b (`greater` with the operands swapped).
                #[pyo3(signature = (a, b, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn less(&self, py: Python<'_>, a: &PyCkksCiphertext, b: &Bound<'_, PyAny>, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_two(py, a, b, (alpha.0, bound, bootstrap), rlk, |c, x, y, b| super::compare::less(c, x, y, b))
                }
                /// max(a, b) slot by slot (`b` a ciphertext or a number), a, b in [-bound, bound].
                #[pyo3(signature = (a, b, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn max(&self, py: Python<'_>, a: &PyCkksCiphertext, b: &Bound<'_, PyAny>, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_two(py, a, b, (alpha.0, bound, bootstrap), rlk, |c, x, y, b| super::compare::extreme(c, x, y, b, false))
                }
                /// min(a, b) slot by slot.
                #[pyo3(signature = (a, b, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn min(&self, py: Python<'_>, a: &PyCkksCiphertext, b: &Bound<'_, PyAny>, alpha: Int<u32>, bound: f64, bootstrap: bool, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    self.compare_two(py, a, b, (alpha.0, bound, bootstrap), rlk, |c, x, y, b| super::compare::extreme(c, x, y, b, true))
                }
                /// The rotation steps `max_slots`, `argmax` and `top_k` need for blocks of `block`
                /// slots (default: the ciphertext's slots): make Galois keys for them.
                #[pyo3(signature = (block, slots=None))]
                fn comparison_steps(&self, block: Int<usize>, slots: Option<Int<usize>>) -> Vec<i64> {
                    let slots = slots.map_or(self.ctx().slots(), |s| s.0);
                    circuits::compare::slots::max_steps(block.0, slots)
                }
                /// The maximum of each block of `block` consecutive slots (default: all the
                /// ciphertext's slots), in every slot of its block: log2(block) `max`es over
                /// rotations. Galois keys for `comparison_steps(block)`: `keys` or the registered ones.
                #[pyo3(signature = (a, block=None, *, alpha=Int(super::compare::DEFAULT_ALPHA), bound=1.0, bootstrap=true, keys=None, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn max_slots(&self, py: Python<'_>, a: &PyCkksCiphertext, block: Option<Int<usize>>, alpha: Int<u32>, bound: f64, bootstrap: bool, keys: Option<&PyGaloisKeys>, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    let block = block.map_or(a.ct.slots(), |b| b.0);
                    let gk = self.gk(keys, "max_slots", a.ct.key_id())?;
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, move |c, x, b| c.max_slots(x, block, b, &gk))
                }
                /// The argmax of each block as a 0/1 mask (1 in the slot of the block's maximum),
                /// for maxima that exceed the rest of their block by at least `gap`. Within `gap`
                /// of the maximum, slots get a value in [0, 1]. Choose alpha >= log2(8 bound / gap).
                #[pyo3(signature = (a, block=None, *, gap=0.0009765625, alpha=Int(super::compare::DEFAULT_ALPHA + 2), bound=1.0, bootstrap=true, keys=None, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn argmax(&self, py: Python<'_>, a: &PyCkksCiphertext, block: Option<Int<usize>>, gap: f64, alpha: Int<u32>, bound: f64, bootstrap: bool, keys: Option<&PyGaloisKeys>, rlk: Option<&PyRelinKey>) -> PyResult<PyCkksCiphertext> {
                    let block = block.map_or(a.ct.slots(), |b| b.0);
                    let gk = self.gk(keys, "argmax", a.ct.key_id())?;
                    self.compare_one(py, a, (alpha.0, bound, bootstrap), rlk, move |c, x, b| c.argmax(x, block, gap, b, &gk))
                }
                /// The k largest values of each block, largest first: a list of (maximum, mask)
                /// pairs, each maximum in every slot of its block and its argmax mask.
                #[pyo3(signature = (a, k, block=None, *, gap=0.0009765625, alpha=Int(super::compare::DEFAULT_ALPHA + 2), bound=1.0, bootstrap=true, keys=None, rlk=None))]
                #[allow(clippy::too_many_arguments)]
                fn top_k(&self, py: Python<'_>, a: &PyCkksCiphertext, k: Int<usize>, block: Option<Int<usize>>, gap: f64, alpha: Int<u32>, bound: f64, bootstrap: bool, keys: Option<&PyGaloisKeys>, rlk: Option<&PyRelinKey>) -> PyResult<Vec<(PyCkksCiphertext, PyCkksCiphertext)>> {
                    let (k, block) = (k.0, block.map_or(a.ct.slots(), |b| b.0));
                    let gk = self.gk(keys, "top_k", a.ct.key_id())?;
                    let x = self.check(a)?;
                    let rlk = rlk.map(|r| r.get(&self.owner())).transpose()?;
                    let opts = super::compare::Options::new(alpha.0, bound, bootstrap);
                    let out = super::compare::comparing(py, &self.shared, x.key_id(), rlk, opts, move |c| c.top_k(&x, k, block, gap, bound, &gk))?;
                    Ok(out.into_iter().map(|(m, i)| (self.wrap(m), self.wrap(i))).collect())
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
                /// exp(x) by its Taylor polynomial of degree 7 (Cheon et al. (SAC 2018) Table 2).
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
                /// The logistic function by its Taylor polynomial of degree 7 (Cheon et al. (SAC 2018) Table 2).
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
                /// The mean of the first `count` slots (Cheon et al. (SAC 2018) Table 3), in every slot, at the input's scale
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
                /// The variance of the first `count` slots (Cheon et al. (SAC 2018) Table 3), in every slot; E[x^2] and E[x]^2
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

                /// Logistic-regression training on encrypted data (Cheon et al. (SAC 2018) section 5.3, Nesterov's accelerated
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

                /// 1/x. With `domain=(lo, hi)` (0 < lo < hi, such as (2**-10, 1)): to a relative
                /// error of 2**-`bits` (default 20) before the scheme's noise, by an initial
                /// polynomial, Goldschmidt iterations and a final Newton step, the count computed
                /// from the initial error; bootstrapped in between when the parameters are
                /// bootstrappable and bootstrapping keys are registered for `a`'s key pair (then
                /// a fresh `a` is first dropped to `bootstrap_level`), else within `a`'s levels.
                /// Inputs just outside the domain converge more slowly; far outside (x <= 0,
                /// x > hi + lo) they get meaningless values, which can spoil every slot.
                /// Without a domain: x in (0, 2) by `iterations` steps (default 4) of [12] Alg. 2
                /// (Cheon et al. (SAC 2018) Table 2).
                #[pyo3(signature = (a, iterations=None, rlk=None, *, domain=None, bits=None))]
                fn inverse(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    iterations: Option<Int<usize>>,
                    rlk: Option<&PyRelinKey>,
                    domain: Option<(f64, f64)>,
                    bits: Option<f64>,
                ) -> PyResult<PyCkksCiphertext> {
                    if let Some(domain) = domain {
                        if iterations.is_some() {
                            return Err(raise(
                                "ParameterError",
                                "inverse: with a domain the iteration count follows from the \
                                 domain and bits; pass one or the other"
                                    .into(),
                            ));
                        }
                        let f = rnsfhe::circuits::newton::Function::Inverse;
                        return super::newton::run(py, self, a, f, domain, bits, rlk);
                    }
                    if bits.is_some() {
                        return Err(raise(
                            "ParameterError",
                            "inverse: bits needs domain=(lo, hi), the range of the inputs".into(),
                        ));
                    }
                    let iterations = iterations.map_or(4, |i| i.0);
                    let k = self.rlk(rlk, "inverse", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| circuits::inverse(c, x, iterations, &k))
                }
                /// sqrt(x) for x in `domain` = (lo, hi), 0 < lo < hi, to a relative error of
                /// 2**-`bits` (default 20), as `inverse` with a domain (bootstrapped in between when
                /// it can be).
                #[pyo3(signature = (a, *, domain, bits=None, rlk=None))]
                fn sqrt(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    domain: (f64, f64),
                    bits: Option<f64>,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let f = rnsfhe::circuits::newton::Function::Sqrt;
                    super::newton::run(py, self, a, f, domain, bits, rlk)
                }
                /// 1/sqrt(x) for x in `domain` = (lo, hi), as `sqrt`.
                #[pyo3(signature = (a, *, domain, bits=None, rlk=None))]
                fn inv_sqrt(
                    &self,
                    py: Python<'_>,
                    a: &PyCkksCiphertext,
                    domain: (f64, f64),
                    bits: Option<f64>,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<PyCkksCiphertext> {
                    let f = rnsfhe::circuits::newton::Function::InvSqrt;
                    super::newton::run(py, self, a, f, domain, bits, rlk)
                }
            }
        }
    };
}
pub(crate) use with_function_methods;
