//! `integer_scheme!`: the context class of an integer scheme (BFV, BGV) with the methods both share,
//! then its plaintext and ciphertext classes through `values::integer_values!`.

/// The classes of an integer scheme (BFV, BGV): context, plaintext and ciphertext, each with the
/// methods the two share, and the scheme's own `context`/`ciphertext` methods.
macro_rules! integer_scheme {
    (
        $upper:literal;
        $(#[$doc:meta])*
        class $Py:ident($name:literal, $Owner:ident, $Shared:ty, $Ctx:ty);
        params $PyParams:ident($Params:ty);
        plaintext $PyPt:ident($pname:literal, $Pt:ty);
        ciphertext $PyCt:ident($cname:literal, $Ct:ty);
        context methods { $($cx:tt)* }
        ciphertext methods { $($ctx_extra:tt)* }
    ) => {
        use $crate::integer::{Square as _, Steps};

        /// A plaintext given (checked to be of this parameter set) or values to encode.
        fn plain_of(shared: &Arc<$Shared>, x: &Bound<'_, PyAny>) -> PyResult<Arc<$Pt>> {
            if let Ok(p) = x.cast::<$PyPt>() {
                let p = p.get();
                same(&p.shared, shared, "plaintext")?;
                return Ok(p.pt.clone());
            }
            Ok(Arc::new(encode_values(&shared.ctx, x)?))
        }

        /// Values encoded into the slots: integers (|v| < t) for X^n + 1, an (l, d) array of GF(t^d)
        /// slots for a general Phi_m.
        fn encode_values(ctx: &$Ctx, x: &Bound<'_, PyAny>) -> PyResult<$Pt> {
            if ctx.params().is_general_cyclotomic() {
                let alg = ctx.slot_algebra().py()?;
                ctx.encode_slots(&$crate::integer::slot_values(x, alg)?).py()
            } else {
                ctx.encode(&int_values(x, ctx.params().plain_modulus())?).py()
            }
        }

        /// The weights of `sum_rotations`, one per step: integers (taken mod t), or plaintexts or
        /// slot values to encode (not a mix).
        fn int_weights(
            shared: &Arc<$Shared>,
            obj: &Bound<'_, PyAny>,
        ) -> PyResult<(Vec<i64>, Vec<$Pt>)> {
            use $crate::convert::WeightItem;
            let (mut ints, mut plains) = (Vec::new(), Vec::new());
            for item in $crate::convert::weight_items(obj)? {
                match item {
                    WeightItem::Int(x) => ints.push(x),
                    WeightItem::Vector(v) => plains.push((*plain_of(shared, &v)?).clone()),
                    _ => {
                        return Err(pyo3::exceptions::PyTypeError::new_err(
                            "integer-scheme weights are integers, or plaintexts or slot values",
                        ))
                    }
                }
            }
            if !ints.is_empty() && !plains.is_empty() {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "weights must be all integers or all plaintexts / slot values, not a mix",
                ));
            }
            Ok((ints, plains))
        }

        /// Applies `steps` of an automorphism: `one` is one step, `g` the direct element.
        fn apply_steps(
            ctx: &$Ctx,
            x: &$Ct,
            steps: Steps,
            keys: &rnsfhe::rlwe::GaloisKeys,
            one: impl Fn(&$Ct) -> rnsfhe::Result<$Ct>,
        ) -> rnsfhe::Result<$Ct> {
            match steps {
                Steps::Identity => Ok(x.clone()),
                Steps::Direct(g) => ctx.apply_galois(x, g, keys),
                Steps::Repeat(n) => (1..n).try_fold(one(x)?, |r, _| one(&r)),
            }
        }

        /// Rotation of hypercube dimension `dim` by `k` (see `integer::rotation_steps`).
        fn rotate_dimension(
            ctx: &$Ctx,
            x: &$Ct,
            dim: usize,
            k: i64,
            keys: &rnsfhe::rlwe::GaloisKeys,
        ) -> rnsfhe::Result<$Ct> {
            let (steps, step) = $crate::integer::rotation_steps(ctx.slot_algebra()?, dim, k, keys)?;
            apply_steps(ctx, x, steps, keys, |c| ctx.rotate_dimension(c, dim, step, keys))
        }

        /// Frobenius applied `p` times (see `integer::frobenius_steps`).
        fn frobenius(
            ctx: &$Ctx,
            x: &$Ct,
            p: i64,
            keys: &rnsfhe::rlwe::GaloisKeys,
        ) -> rnsfhe::Result<$Ct> {
            let steps = $crate::integer::frobenius_steps(ctx.slot_algebra()?, p, keys);
            apply_steps(ctx, x, steps, keys, |c| ctx.frobenius(c, keys))
        }

        impl $Py {
            /// A plaintext from a plaintext object or from values to encode.
            pub(crate) fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<$Pt>> {
                plain_of(&self.shared, x)
            }
        }

        $crate::rlwe_context::rlwe_context! {
            $(#[$doc])*
            class $Py($name, $Owner, $Shared, $Ctx);
            params $PyParams($Params, default <$Params>::builder().build());
            plaintext $PyPt($Pt);
            ciphertext $PyCt($Ct);
            methods {
                #[getter]
                fn degree(&self) -> usize {
                    self.ctx().params().degree()
                }
                #[getter]
                fn plain_modulus(&self) -> u64 {
                    self.ctx().params().plain_modulus()
                }
                /// Number of batching slots: n for X^n + 1 with a prime t = 1 mod 2n, l for a general
                /// Phi_m (0 when t does not allow batching).
                #[getter]
                fn slots(&self) -> usize {
                    self.ctx().slots()
                }
                /// The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1).
                #[getter]
                fn cyclotomic_index(&self) -> usize {
                    self.ctx().params().cyclotomic_index()
                }
                /// d, the degree of each slot's field GF(t^d) (general Phi_m; 1 for X^n + 1).
                #[getter]
                fn slot_degree(&self) -> PyResult<usize> {
                    if !self.ctx().params().is_general_cyclotomic() {
                        return Ok(1);
                    }
                    Ok(self.ctx().slot_algebra().py()?.slot_degree())
                }
                /// G(Y), the monic irreducible of degree d (coefficients from Y^0 up) with GF(t^d) =
                /// GF(t)[Y]/(G) the field of every slot (general Phi_m): slot values are coefficients
                /// of polynomials in Y reduced mod G.
                #[getter]
                fn slot_polynomial(&self) -> PyResult<Vec<u64>> {
                    Ok(self.ctx().slot_algebra().py()?.field_polynomial().to_vec())
                }
                /// The hypercube of Z_m^* / <t> (general Phi_m): per dimension (generator g_i, order
                /// o_i, native), slot indices in mixed radix with dimension 0 most significant.
                #[getter]
                fn hypercube(&self) -> PyResult<Vec<(usize, usize, bool)>> {
                    Ok($crate::integer::hypercube(self.ctx().slot_algebra().py()?))
                }
                /// Galois keys, also registered for the ciphertext methods. For X^n + 1: row
                /// rotations by `steps` (default +1 and -1, or none with `for_sum`) and the column
                /// swap if `columns`, plus with `for_sum=True` the keys `sum_slots` needs (the union
                /// with `steps`). For a general Phi_m: by default +1 and -1
                /// along every hypercube dimension and Frobenius; or exactly the `rotations` ((dimension,
                /// k) pairs) and `frobenius` powers asked for.
                #[pyo3(signature = (sk, steps=None, *, columns=true, for_sum=false, rotations=None,
                    frobenius=None))]
                #[allow(clippy::too_many_arguments)]
                fn galois_keys(
                    &self,
                    py: Python<'_>,
                    sk: &PySecretKey,
                    steps: Option<Vec<Int<i64>>>,
                    columns: bool,
                    for_sum: bool,
                    rotations: Option<Vec<(Int<usize>, Int<i64>)>>,
                    frobenius: Option<Vec<Int<i64>>>,
                ) -> PyResult<PyGaloisKeys> {
                    let s = sk.get(&self.owner())?;
                    let ctx = self.ctx().clone();
                    let general = ctx.params().is_general_cyclotomic();
                    let elements = if rotations.is_some() || frobenius.is_some() {
                        let r: Vec<(usize, i64)> =
                            rotations.unwrap_or_default().into_iter().map(|(d, k)| (d.0, k.0)).collect();
                        let f = ints(frobenius.unwrap_or_default());
                        let alg = ctx.slot_algebra().py()?;
                        Some($crate::integer::galois_elements(alg, &r, &f).py()?)
                    } else {
                        None
                    };
                    let hypercube = general && steps.is_none() && !for_sum;
                    let (steps, columns) = if for_sum {
                        // The steps asked for and those of the slot sum (which needs the swap).
                        let mut st = steps.map_or(Vec::new(), ints);
                        st.extend(ctx.sum_slots_steps());
                        (st, true)
                    } else {
                        (steps.map_or(vec![1, -1], ints), columns)
                    };
                    let k = py
                        .detach(|| {
                            self.rng.with(|r| match &elements {
                                Some(e) => ctx.galois_keys_for_elements(&s, e, r),
                                None if hypercube => ctx.galois_keys_for_hypercube(&s, r),
                                None => ctx.galois_keys(&s, &steps, columns, r),
                            })
                        })
                        .py()?;
                    let k: PyGaloisKeys = self.key(k).into();
                    self.shared.set_galois_keys(k.key.clone())?;
                    Ok(k)
                }
                /// Encodes into the slots: integers (|v| < t, negative values mod t) for X^n + 1, an
                /// (l, d) array of GF(t^d) slots for a general Phi_m; with `coefficients=True`,
                /// integers into the polynomial's coefficients (any t).
                #[pyo3(signature = (values, *, coefficients=false))]
                fn encode(&self, values: &Bound<'_, PyAny>, coefficients: bool) -> PyResult<$PyPt> {
                    let pt = if coefficients {
                        let t = self.ctx().params().plain_modulus();
                        let signed: Vec<i64> =
                            int_values(values, t)?.iter().map(|&x| x as i64).collect();
                        self.ctx().encode_coefficients(&signed).py()?
                    } else {
                        encode_values(self.ctx(), values)?
                    };
                    Ok(self.plaintext(pt))
                }
                /// The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or,
                /// with `signed=True`, centred in (-t/2, t/2]; shape (l, d) for a general Phi_m.
                #[pyo3(signature = (pt, *, signed=false, coefficients=false))]
                fn decode<'py>(
                    &self,
                    py: Python<'py>,
                    pt: &$PyPt,
                    signed: bool,
                    coefficients: bool,
                ) -> PyResult<Bound<'py, PyAny>> {
                    same(&pt.shared, &self.shared, "plaintext")?;
                    let ctx = self.ctx();
                    if !coefficients && ctx.params().is_general_cyclotomic() {
                        let alg = ctx.slot_algebra().py()?;
                        let s = ctx.decode_slots(&pt.pt).py()?;
                        return $crate::integer::slot_array(py, s, alg, signed);
                    }
                    let v = match (coefficients, signed) {
                        (true, true) => ctx.decode_coefficients(&pt.pt).py()?,
                        (true, false) => pt.pt.coefficients().iter().map(|&c| c as i64).collect(),
                        (false, true) => ctx.decode_signed(&pt.pt).py()?,
                        (false, false) => {
                            ctx.decode(&pt.pt).py()?.into_iter().map(|c| c as i64).collect()
                        }
                    };
                    Ok(i64_array(py, v).into_any())
                }
                fn negate(&self, a: &$PyCt) -> PyResult<$PyCt> {
                    Ok(self.wrap(self.ctx().negate(&*self.check(a)?).py()?))
                }
                /// a + m for a plaintext or values m.
                fn add_plain(&self, a: &$PyCt, m: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
                    let x = self.check(a)?;
                    Ok(self.wrap(self.ctx().add_plain(&x, &*self.plain(m)?).py()?))
                }
                /// a - m for a plaintext or values m.
                fn sub_plain(&self, a: &$PyCt, m: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
                    let x = self.check(a)?;
                    Ok(self.wrap(self.ctx().sub_plain(&x, &*self.plain(m)?).py()?))
                }
                /// a * m (slot-wise) for a plaintext or values m.
                fn mul_plain(&self, py: Python<'_>, a: &$PyCt, m: &Bound<'_, PyAny>) -> PyResult<$PyCt> {
                    let (ctx, c, m) = (self.ctx().clone(), self.check(a)?, self.plain(m)?);
                    Ok(self.wrap(py.detach(|| ctx.mul_plain(&c, &m)).py()?))
                }
                /// a * c for an integer c.
                fn mul_scalar(&self, a: &$PyCt, c: Int<i64>) -> PyResult<$PyCt> {
                    Ok(self.wrap(self.ctx().mul_scalar(&*self.check(a)?, c.0).py()?))
                }
                /// a * b, relinearised with `rlk` (default: the registered key).
                #[pyo3(signature = (a, b, rlk=None))]
                fn multiply(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    b: &$PyCt,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<$PyCt> {
                    let (x, y) = (self.check(a)?, self.check(b)?);
                    let k = self.rlk(rlk, "multiply", KeyId::join(x.key_id(), y.key_id()).py()?)?;
                    let ctx = self.ctx().clone();
                    Ok(self.wrap(py.detach(|| ctx.multiply(&x, &y, &k)).py()?))
                }
                /// a^2, relinearised.
                #[pyo3(signature = (a, rlk=None))]
                fn square(&self, py: Python<'_>, a: &$PyCt, rlk: Option<&PyRelinKey>) -> PyResult<$PyCt> {
                    let k = self.rlk(rlk, "square", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| c.square_relin(x, &k))
                }
                /// A 3-part ciphertext back to 2 parts.
                #[pyo3(signature = (a, rlk=None))]
                fn relinearize(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    rlk: Option<&PyRelinKey>,
                ) -> PyResult<$PyCt> {
                    let k = self.rlk(rlk, "relinearize", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| c.relinearize(x, &k))
                }
                /// Rotates both rows of the 2 x n/2 slot matrix left by `step` (right when negative).
                #[pyo3(signature = (a, step, keys=None))]
                fn rotate_rows(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    step: Int<i64>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<$PyCt> {
                    let step = step.0;
                    let k = self.gk(keys, "rotate_rows", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| c.rotate_rows(x, step, &k))
                }
                /// The row rotations of `a` by every step (a list, one ciphertext per step; step 0 gives
                /// a copy), from one decomposition of the ciphertext (hoisting): each equals
                /// `rotate_rows(a, step)`.
                #[pyo3(signature = (a, steps, keys=None))]
                fn rotate_many(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    steps: Vec<Int<i64>>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<Vec<$PyCt>> {
                    let steps = ints(steps);
                    let k = self.gk(keys, "rotate_many", a.ct.key_id())?;
                    let x = self.check(a)?;
                    let ctx = self.ctx().clone();
                    let out = py.detach(|| ctx.rotate_many(&x, &steps, &k)).py()?;
                    Ok(out.into_iter().map(|c| self.wrap(c)).collect())
                }
                /// sum_i weights[i] * rotate_rows(a, steps[i]) with one decomposition and one ModDown
                /// for the whole sum (double hoisting). `weights`: None (all 1), or one per step:
                /// integers (taken mod t), or plaintexts or slot values (slot-wise products).
                #[pyo3(signature = (a, steps, weights=None, keys=None))]
                fn sum_rotations(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    steps: Vec<Int<i64>>,
                    weights: Option<&Bound<'_, PyAny>>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<$PyCt> {
                    use rnsfhe::encoding::IntegerWeights;
                    let steps = ints(steps);
                    let w = weights
                        .map(|w| int_weights(&self.shared, w))
                        .transpose()?;
                    let k = self.gk(keys, "sum_rotations", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| {
                        let w = w.as_ref().map(|(i, p)| {
                            if p.is_empty() {
                                IntegerWeights::Scalars(i)
                            } else {
                                IntegerWeights::Plaintexts(p)
                            }
                        });
                        c.sum_rotations(x, &steps, w, &k)
                    })
                }
                /// Swaps the two rows of the slot matrix.
                #[pyo3(signature = (a, keys=None))]
                fn rotate_columns(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<$PyCt> {
                    let k = self.gk(keys, "rotate_columns", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| c.rotate_columns(x, &k))
                }
                /// Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`).
                #[pyo3(signature = (a, keys=None))]
                fn sum_slots(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<$PyCt> {
                    let k = self.gk(keys, "sum_slots", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| c.sum_slots(x, &k))
                }
                /// Rotates the slots of a general Phi_m along hypercube dimension `dimension` by
                /// `steps`: the value of slot e moves to e + steps (on a non-native dimension the
                /// values that wrap around come back raised to a power of t). Uses the key of g^steps
                /// if there is one, else repeated steps of +-1.
                #[pyo3(signature = (a, dimension, steps, keys=None))]
                fn rotate_dimension(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    dimension: Int<usize>,
                    steps: Int<i64>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<$PyCt> {
                    let (dim, k) = (dimension.0, steps.0);
                    let gk = self.gk(keys, "rotate_dimension", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| rotate_dimension(c, x, dim, k, &gk))
                }
                /// Frobenius X -> X^(t^power): every slot raised to the power t^power (general Phi_m).
                #[pyo3(signature = (a, power=Int(1), keys=None))]
                fn frobenius(
                    &self,
                    py: Python<'_>,
                    a: &$PyCt,
                    power: Int<i64>,
                    keys: Option<&PyGaloisKeys>,
                ) -> PyResult<$PyCt> {
                    let p = power.0;
                    let gk = self.gk(keys, "frobenius", a.ct.key_id())?;
                    self.unary(py, a, move |c, x| frobenius(c, x, p, &gk))
                }
                $($cx)*
            }
        }

        $crate::integer::values::integer_values! {
            $upper;
            context $Py($Shared, $Ctx);
            plaintext $PyPt($pname, $Pt);
            ciphertext $PyCt($cname, $Ct);
            methods { $($ctx_extra)* }
        }
    };
}
pub(crate) use integer_scheme;
