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
                /// for `matmul` as the Halevi-Shoup diagonals of its zero-padded square: for
                /// vectors of `slots` slots (default: the smallest power of two holding rows and
                /// cols) at `level` (default: the top). Build it once, multiply many vectors.
                #[pyo3(signature = (m, *, level=None, slots=None))]
                fn matrix(
                    &self,
                    py: Python<'_>,
                    m: &Bound<'_, PyAny>,
                    level: Option<Int<usize>>,
                    slots: Option<Int<usize>>,
                ) -> PyResult<super::PyCkksMatrix> {
                    super::PyCkksMatrix::encode(
                        py,
                        &self.shared,
                        m,
                        level.map(|l| l.0),
                        slots.map(|s| s.0),
                    )
                }
                /// y = M x: `a` holds x in its first cols slots and zeros up to the matrix's slots
                /// (encrypt x padded with zeros: a ciphertext of fewer slots repeats its values),
                /// `m` is a `CkksMatrix` (or an array, encoded for `a`'s level and slots); y comes
                /// out in the first rows slots, one level down, by hoisted baby-step giant-step. Galois keys for
                /// `matrix.rotation_steps`: `keys`, or those registered for `a`'s key pair.
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
                            built = super::PyCkksMatrix::encode(py, &self.shared, m, level, slots)?;
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
                                 (fewer slots repeat the values instead), or encode the matrix \
                                 with slots={have}"
                            ),
                        ));
                    }
                    let k = self.gk(keys, "matmul", a.ct.key_id())?;
                    let t = matrix.transform.clone();
                    self.unary(py, a, move |c, x| t.apply(c, x, &k))
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

                /// 1/x. With `domain=(lo, hi)` (0 < lo < hi, such as (2**-10, 1)): to a relative
                /// error of 2**-`bits` (default 20) before the scheme's noise, by an initial
                /// polynomial, Goldschmidt iterations and a final Newton step, the count computed
                /// from the initial error; bootstrapped in between when the parameters are
                /// bootstrappable and bootstrapping keys are registered for `a`'s key pair (then
                /// a fresh `a` is first dropped to `bootstrap_level`), else within `a`'s levels.
                /// Inputs just outside the domain converge more slowly; far outside (x <= 0,
                /// x > hi + lo) they get meaningless values, which can spoil every slot.
                /// Without a domain: x in (0, 2) by `iterations` steps (default 4) of [12] Alg. 2
                /// (paper 004 Table 2).
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
