//! The CKKS context class from the shared RLWE layer (`rlwe_context!`), with CKKS's encoding of real
//! or complex vectors, levels and scales, bootstrapping and rotations; its circuit methods (the
//! Cheon et al. (SAC 2018) functions) come from `functions.rs`.

use super::*;

super::functions::with_function_methods! {
    {
        /// A CKKS context: keys, encoding of real or complex vectors, encryption, every operation and the
        /// Cheon et al. (SAC 2018) functions. Contexts with equal parameters are interchangeable.
        class PyCkksContext("CkksContext", Ckks, CkksShared, CkksContext);
        params PyCkksParameters(
            CkksParameters,
            default CkksParameters::builder().degree(1 << 14).levels(5).build()
        );
        plaintext PyCkksPlaintext(CkksPlaintext);
        ciphertext PyCkksCiphertext(CkksCiphertext);
    }
    {
        /// N/2 complex slots.
        #[getter]
        fn slots(&self) -> usize {
            self.ctx().slots()
        }
        /// The top level L (fresh ciphertexts).
        #[getter]
        fn max_level(&self) -> usize {
            self.ctx().max_level()
        }
        /// The scale of ciphertexts at `level` (OpenFHE's FLEXIBLEAUTO): 2^scale_bits at the scale
        /// level R (`params.scale_level`, the top by default), Delta_l^2 / q_l one level below l
        /// (and sqrt(Delta_{l-1} q_l) above R). Operators and methods keep every ciphertext of a level
        /// at this scale, so ciphertexts of one level add without spending a level.
        fn scale_at(&self, level: Int<usize>) -> PyResult<f64> {
            self.ctx().scale_at(level.0).py()
        }

        /// Rotation keys for `steps` (default: every power of two below N/2, enough for `sum_slots`,
        /// `mean` and `variance`) and the conjugation key if `conjugation`; with `for_sum=True`,
        /// the powers of two as well as `steps` (the union). With `level`, keys for ciphertexts at
        /// levels <= `level` only (smaller: e.g. `ctx.bootstrap_level` for work between bootstraps).
        /// Also registered.
        #[pyo3(signature = (sk, steps=None, *, conjugation=false, for_sum=false, level=None))]
        fn galois_keys(
            &self,
            py: Python<'_>,
            sk: &PySecretKey,
            steps: Option<Vec<Int<i64>>>,
            conjugation: bool,
            for_sum: bool,
            level: Option<Int<usize>>,
        ) -> PyResult<PyGaloisKeys> {
            let s = sk.get(&self.owner())?;
            let slots = self.ctx().slots() as i64;
            let powers = (0..).map(|i| 1i64 << i).take_while(|&x| x < slots);
            let steps = match steps {
                Some(st) if for_sum => ints(st).into_iter().chain(powers).collect(),
                Some(st) => ints(st),
                None => powers.collect(),
            };
            let ctx = self.ctx().clone();
            let k = py
                .detach(|| {
                    self.rng.with(|r| match level {
                        Some(l) => ctx.galois_keys_at(&s, &steps, conjugation, l.0, r),
                        None => ctx.galois_keys(&s, &steps, conjugation, r),
                    })
                })
                .py()?;
            let k = Arc::new(k);
            self.shared.set_galois_keys(k.clone())?;
            Ok(PyGaloisKeys {
                owner: self.owner(),
                key: k,
                seeded: self.rng.seeded(),
            })
        }

        /// The keys of this context's bootstrap for `sk` (parameters from
        /// `CkksParameters.bootstrappable`): only the rotations its stages use, each at its level,
        /// seeded. Registered for the key pair, like `relin_key`. `progress`: True (default: a tqdm
        /// bar when tqdm is installed, else a line on stderr), False, or a callable(done, total).
        #[pyo3(signature = (sk, *, progress=None))]
        fn bootstrapping_keys(
            &self,
            py: Python<'_>,
            sk: &PySecretKey,
            progress: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyBootstrappingKeys> {
            super::bootstrap::generate(py, self, sk, progress)
        }
        /// Registers loaded bootstrapping keys for their key pair.
        fn register_bootstrapping_keys(&self, keys: &PyBootstrappingKeys) -> PyResult<()> {
            super::bootstrap::register_loaded(self, keys)
        }
        /// Bootstrapping keys from `BootstrappingKeys.to_bytes` output (not registered).
        fn bootstrapping_keys_from_bytes(&self, data: ByteData) -> PyResult<PyBootstrappingKeys> {
            PyBootstrappingKeys::load(self.shared.clone(), &data.0)
        }
        /// A ciphertext at level `bootstrap_min_level` or above refreshed to `bootstrap_level` (the
        /// same slots): with `keys`, or the bootstrapping keys registered for its key pair. The
        /// CoeffsToSlots-first presets take any level (0 and up); the SlotsToCoeffs-first ones
        /// (`bootstrappable(secret=192)`, N = 2^16) run SlotsToCoeffs first and need its levels,
        /// and refuse a lower input with a LevelMismatchError saying how many levels it lacks.
        #[pyo3(signature = (ct, keys=None))]
        fn bootstrap(
            &self,
            py: Python<'_>,
            ct: &PyCkksCiphertext,
            keys: Option<&PyBootstrappingKeys>,
        ) -> PyResult<PyCkksCiphertext> {
            let x = self.check(ct)?;
            Ok(self.wrap(super::bootstrap::run(py, &self.shared, x, keys)?))
        }
        /// `bootstrap` with the wall time of each step in seconds: a dict with `mod_raise`,
        /// `coeffs_to_slots`, `eval_mod`, `slots_to_coeffs`, `other` (bringing the input onto the
        /// chain, combining EvalMod's outputs) and `total`. With META-BTS each step sums both
        /// iterations.
        #[pyo3(signature = (ct, keys=None))]
        fn bootstrap_timed<'py>(
            &self,
            py: Python<'py>,
            ct: &PyCkksCiphertext,
            keys: Option<&PyBootstrappingKeys>,
        ) -> PyResult<(PyCkksCiphertext, Bound<'py, pyo3::types::PyDict>)> {
            let x = self.check(ct)?;
            let (out, times) = super::bootstrap::run_timed(py, &self.shared, x, keys)?;
            let d = pyo3::types::PyDict::new(py);
            for (step, seconds) in super::bootstrap::stage_seconds(&times) {
                d.set_item(step, seconds)?;
            }
            Ok((self.wrap(out), d))
        }
        /// The level of bootstrapped ciphertexts (the residual top level).
        #[getter]
        fn bootstrap_level(&self, py: Python<'_>) -> PyResult<usize> {
            super::bootstrap::output_level(py, &self.shared)
        }
        /// The bootstraps this context has run: `bootstrap` calls and those of circuits that
        /// bootstrap by themselves (comparisons, `inverse` on a domain, ...).
        #[getter]
        fn bootstraps(&self) -> usize {
            super::bootstrap::count(&self.shared)
        }
        /// The lowest level a ciphertext may have to be bootstrapped: 0 for the CoeffsToSlots-first
        /// presets, SlotsToCoeffs' input level for the SlotsToCoeffs-first ones.
        #[getter]
        fn bootstrap_min_level(&self, py: Python<'_>) -> PyResult<usize> {
            super::bootstrap::input_level(py, &self.shared)
        }

        /// Encodes up to N/2 real or complex values (finite) at `level` (default: the top) and `scale`
        /// (default: the level's scale `scale_at(level)`).
        #[pyo3(signature = (values, *, level=None, scale=None))]
        fn encode(
            &self,
            values: &Bound<'_, PyAny>,
            level: Option<Int<usize>>,
            scale: Option<f64>,
        ) -> PyResult<PyCkksPlaintext> {
            let v = complex_values(values)?;
            let level = level.map_or(self.ctx().max_level(), |l| l.0);
            let scale = match scale {
                Some(s) => s,
                None => self.ctx().scale_at(level).py()?,
            };
            let pt = self.ctx().encode_at(&v, level, scale).py()?;
            Ok(PyCkksPlaintext {
                shared: self.shared.clone(),
                pt: Arc::new(pt),
            })
        }
        /// The slots of a plaintext: float64 real parts, or complex128 with `complex=True`.
        #[pyo3(signature = (pt, *, complex=false))]
        fn decode<'py>(
            &self,
            py: Python<'py>,
            pt: &PyCkksPlaintext,
            complex: bool,
        ) -> PyResult<Bound<'py, PyAny>> {
            same(&pt.shared, &self.shared, "plaintext")?;
            let v = self.ctx().decode(&pt.pt).py()?;
            Ok(slots_array(py, &v, complex))
        }
        /// The decrypted phase m + e as a plaintext; with `flood`, plus the flooding noise (see
        /// `decrypt`).
        #[pyo3(signature = (ct, sk, *, flood=None))]
        fn decrypt_plaintext(
            &self,
            py: Python<'_>,
            ct: &PyCkksCiphertext,
            sk: &PySecretKey,
            flood: Option<&crate::flooding::PyFlooding>,
        ) -> PyResult<PyCkksPlaintext> {
            let c = self.check(ct)?;
            let s = sk.get(&self.owner())?;
            let ctx = self.ctx().clone();
            let pt = match flood {
                None => py.detach(|| ctx.decrypt(&c, &s)).py()?,
                Some(f) => {
                    let f = f.resolve(ctx.params().degree())?;
                    py.detach(|| self.rng.with(|r| ctx.decrypt_flooded(&c, &s, &f, r)))
                        .py()?
                }
            };
            Ok(PyCkksPlaintext {
                shared: self.shared.clone(),
                pt: Arc::new(pt),
            })
        }
        /// Decrypts and decodes: the ciphertext's slots (the encoded length rounded up to a power of
        /// two) as float64 real parts, or complex128 with `complex=True`.
        ///
        /// Without `flood` the result holds the ciphertext's error, a function of the secret key:
        /// anyone who sees it together with the ciphertext recovers the key (Li and Micciancio,
        /// Eurocrypt 2021). Keep raw decryptions to the key's owner; decrypt with
        /// `flood=rnsfhe.Flooding(noise_log2, decryptions=D)` whenever the values are shared (a
        /// server, another party, a published result), which adds noise that hides the error
        /// (IND-CPA-D) at a cost of about lambda/2 + log2(N) bits of precision.
        #[pyo3(signature = (ct, sk, *, complex=false, flood=None))]
        fn decrypt<'py>(
            &self,
            py: Python<'py>,
            ct: &PyCkksCiphertext,
            sk: &PySecretKey,
            complex: bool,
            flood: Option<&crate::flooding::PyFlooding>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let v = match flood {
                None => {
                    let pt = self.decrypt_plaintext(py, ct, sk, None)?;
                    return self.decode(py, &pt, complex);
                }
                Some(f) => {
                    let (c, s) = (self.check(ct)?, sk.get(&self.owner())?);
                    let ctx = self.ctx().clone();
                    let f = f.resolve(ctx.params().degree())?;
                    py.detach(|| self.rng.with(|r| ctx.decrypt_values_flooded(&c, &s, &f, r)))
                        .py()?
                }
            };
            Ok(slots_array(py, &v, complex))
        }
        /// log2 of the largest coefficient of ct's error against `expected` (a plaintext at its
        /// level: the exact encoding it should hold; or values, encoded at its level and scale,
        /// which adds the encoder's rounding, about 2^-50 of the scale): the `noise_log2` of a
        /// `Flooding`. Measure it on a rehearsal of the computation under a throwaway key pair,
        /// not on the ciphertext then decrypted for others.
        fn error_log2(
            &self,
            py: Python<'_>,
            ct: &PyCkksCiphertext,
            sk: &PySecretKey,
            expected: &Bound<'_, PyAny>,
        ) -> PyResult<f64> {
            let c = self.check(ct)?;
            let s = sk.get(&self.owner())?;
            let pt = match expected.cast::<PyCkksPlaintext>() {
                Ok(p) => {
                    same(&p.get().shared, &self.shared, "plaintext")?;
                    p.get().pt.clone()
                }
                Err(_) => {
                    let v = complex_values(expected)?;
                    Arc::new(self.ctx().encode_at(&v, c.level(), c.scale()).py()?)
                }
            };
            let ctx = self.ctx().clone();
            py.detach(|| ctx.error_log2(&c, &s, &pt)).py()
        }

        /// a and b at one level and one scale (what `+` and `-` do before adding): the higher one is
        /// brought down onto the other's level and scale; ciphertexts of one level already share its
        /// scale, and only scales chosen by hand that differ at one level spend a level.
        fn align(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            b: &PyCkksCiphertext,
        ) -> PyResult<(PyCkksCiphertext, PyCkksCiphertext)> {
            let (x, y) = (self.check(a)?, self.check(b)?);
            let ctx = self.ctx().clone();
            let (p, q) = py.detach(|| ctx.align(&x, &y)).py()?;
            Ok((self.wrap(p), self.wrap(q)))
        }
        fn negate(&self, a: &PyCkksCiphertext) -> PyResult<PyCkksCiphertext> {
            let mut x = (*self.check(a)?).clone();
            self.ctx().negate_assign(&mut x).py()?;
            Ok(self.wrap(x))
        }
        /// a + m; values are encoded at a's level and scale.
        fn add_plain(&self, a: &PyCkksCiphertext, m: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            let x = self.check(a)?;
            let p = self.plain_at(m, x.level(), x.scale())?;
            Ok(self.wrap(self.ctx().add_plain(&x, &p).py()?))
        }
        /// a - m; values are encoded at a's level and scale.
        fn sub_plain(&self, a: &PyCkksCiphertext, m: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
            let x = self.check(a)?;
            let p = self.plain_at(m, x.level(), x.scale())?;
            Ok(self.wrap(self.ctx().sub_plain(&x, &p).py()?))
        }
        /// a * m without rescaling (the scale multiplies); values are encoded at the scale that makes
        /// the product rescale onto the level's scale (the level's own scale for a ciphertext on it).
        fn mul_plain(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            m: &Bound<'_, PyAny>,
        ) -> PyResult<PyCkksCiphertext> {
            let x = self.check(a)?;
            let delta = self.ctx().scale_at(x.level()).py()?;
            let p = self.plain_at(m, x.level(), delta * delta / x.scale())?;
            let ctx = self.ctx().clone();
            Ok(self.wrap(py.detach(|| ctx.mul_plain(&x, &p)).py()?))
        }
        /// a + c for a real constant c.
        fn add_const(&self, a: &PyCkksCiphertext, c: f64) -> PyResult<PyCkksCiphertext> {
            let x = self.check(a)?;
            Ok(self.wrap(self.ctx().add_const(&x, c).py()?))
        }
        /// a * c for a real constant c, rescaled onto the scale of the level below (one level), as
        /// `a * c`.
        fn mul_const(&self, a: &PyCkksCiphertext, c: f64) -> PyResult<PyCkksCiphertext> {
            let x = self.check(a)?;
            Ok(self.wrap(self.ctx().mul_const_auto(&x, c).py()?))
        }
        /// a * b relinearised and, if `rescale` (default), rescaled; a and b at the same level.
        #[pyo3(signature = (a, b, rlk=None, *, rescale=true))]
        fn multiply(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            b: &PyCkksCiphertext,
            rlk: Option<&PyRelinKey>,
            rescale: bool,
        ) -> PyResult<PyCkksCiphertext> {
            let (x, y) = (self.check(a)?, self.check(b)?);
            let k = self.rlk(
                rlk,
                "multiply",
                KeyId::join(a.ct.key_id(), b.ct.key_id()).py()?,
            )?;
            let ctx = self.ctx().clone();
            let r = py.detach(|| {
                if rescale {
                    ctx.multiply_rescale(&x, &y, &k)
                } else {
                    ctx.multiply(&x, &y, &k)
                }
            });
            Ok(self.wrap(r.py()?))
        }
        #[pyo3(signature = (a, rlk=None))]
        fn relinearize(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            rlk: Option<&PyRelinKey>,
        ) -> PyResult<PyCkksCiphertext> {
            let k = self.rlk(rlk, "relinearize", a.ct.key_id())?;
            self.unary(py, a, move |c, x| {
                let mut r = x.clone();
                c.relinearize_assign(&mut r, &k)?;
                Ok(r)
            })
        }
        /// RS: divides by the top prime q_level, one level down.
        fn rescale(&self, py: Python<'_>, a: &PyCkksCiphertext) -> PyResult<PyCkksCiphertext> {
            self.unary(py, a, |c, x| c.rescale(x))
        }
        /// The same values at a lower level, on that level's scale (a product with 1 and a rescale
        /// take the last step; a scale chosen by hand is kept).
        fn drop_to_level(&self, a: &PyCkksCiphertext, level: Int<usize>) -> PyResult<PyCkksCiphertext> {
            let x = self.check(a)?;
            Ok(self.wrap(self.ctx().drop_to_level(&x, level.0).py()?))
        }
        /// Rotates the slots left by `step` (right when negative).
        #[pyo3(signature = (a, step, keys=None))]
        fn rotate(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            step: Int<i64>,
            keys: Option<&PyGaloisKeys>,
        ) -> PyResult<PyCkksCiphertext> {
            let step = step.0;
            let k = self.gk(keys, "rotate", a.ct.key_id())?;
            self.unary(py, a, move |c, x| c.rotate(x, step, &k))
        }
        /// The rotations of `a` left by every step (a list, one ciphertext per step; step 0 gives a
        /// copy), from one decomposition of the ciphertext (hoisting): each equals `rotate(a, step)`.
        #[pyo3(signature = (a, steps, keys=None))]
        fn rotate_many(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            steps: Vec<Int<i64>>,
            keys: Option<&PyGaloisKeys>,
        ) -> PyResult<Vec<PyCkksCiphertext>> {
            let steps = ints(steps);
            let k = self.gk(keys, "rotate_many", a.ct.key_id())?;
            let x = self.check(a)?;
            let ctx = self.ctx().clone();
            let out = py.detach(|| ctx.rotate_many(&x, &steps, &k)).py()?;
            Ok(out.into_iter().map(|c| self.wrap(c)).collect())
        }
        /// sum_i weights[i] * rotate(a, steps[i]) with one decomposition and one ModDown for the whole
        /// sum (double hoisting). `weights`: None (all 1: same level and scale), or one per step,
        /// real or complex numbers or slot vectors; weighted sums spend one level and land on the
        /// scale of the level below (`scale_at(level - 1)`).
        #[pyo3(signature = (a, steps, weights=None, keys=None))]
        fn sum_rotations(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            steps: Vec<Int<i64>>,
            weights: Option<&Bound<'_, PyAny>>,
            keys: Option<&PyGaloisKeys>,
        ) -> PyResult<PyCkksCiphertext> {
            let steps = ints(steps);
            let w = weights
                .map(Weights::parse)
                .transpose()?;
            let k = self.gk(keys, "sum_rotations", a.ct.key_id())?;
            self.unary(py, a, move |c, x| {
                c.sum_rotations(x, &steps, w.as_ref().map(Weights::view), &k)
            })
        }
        /// Complex conjugation of every slot (needs `galois_keys(..., conjugation=True)`).
        #[pyo3(signature = (a, keys=None))]
        fn conjugate(
            &self,
            py: Python<'_>,
            a: &PyCkksCiphertext,
            keys: Option<&PyGaloisKeys>,
        ) -> PyResult<PyCkksCiphertext> {
            let k = self.gk(keys, "conjugate", a.ct.key_id())?;
            self.unary(py, a, move |c, x| c.conjugate(x, &k))
        }
    }
}
