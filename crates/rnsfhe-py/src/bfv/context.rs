//! The Bfv context class: keys, encoding, encryption and every operation.

use super::*;
/// A BFV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
/// parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
/// reproducible (tests only).
#[pyclass(frozen, module = "rnsfhe", name = "BfvContext")]
pub(crate) struct PyBfvContext {
    pub(crate) shared: Arc<BfvShared>,
    pub(crate) rng: LockedRng,
}

impl PyBfvContext {
    pub(crate) fn owner(&self) -> Owner {
        Owner::Bfv(self.shared.clone())
    }
    pub(crate) fn ctx(&self) -> &Arc<BfvContext> {
        &self.shared.ctx
    }
    pub(crate) fn ct(&self, ct: Ciphertext) -> PyBfvCiphertext {
        PyBfvCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    /// A plaintext from a `BfvPlaintext` or from values to batch-encode.
    pub(crate) fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<Plaintext>> {
        if let Ok(p) = x.cast::<PyBfvPlaintext>() {
            let p = p.get();
            same(&p.shared, &self.shared, "plaintext")?;
            return Ok(p.pt.clone());
        }
        let v = int_values(x, self.ctx().params().plain_modulus())?;
        Ok(Arc::new(self.ctx().encode(&v).py()?))
    }
    pub(crate) fn check(&self, c: &PyBfvCiphertext) -> PyResult<()> {
        same(&c.shared, &self.shared, "ciphertext")
    }
    /// Runs `f` on the context and one ciphertext of this context without the GIL.
    pub(crate) fn unary(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        f: impl FnOnce(&BfvContext, &Ciphertext) -> rnsfhe::Result<Ciphertext> + Send,
    ) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        let (ctx, x) = (self.ctx().clone(), a.ct.clone());
        Ok(self.ct(py.detach(|| f(&ctx, &x)).py()?))
    }
}

#[pymethods]
impl PyBfvContext {
    #[new]
    #[pyo3(signature = (params=None, *, seed=None))]
    fn new(params: Option<&PyBfvParameters>, seed: Option<&[u8]>) -> PyResult<Self> {
        let p = match params {
            Some(p) => p.inner.clone(),
            None => BfvParameters::builder().build().py()?,
        };
        Ok(PyBfvContext {
            shared: shared(&p)?,
            rng: LockedRng::new(seed)?,
        })
    }

    #[getter]
    fn params(&self) -> PyBfvParameters {
        PyBfvParameters {
            inner: self.ctx().params().clone(),
        }
    }
    #[getter]
    fn degree(&self) -> usize {
        self.ctx().params().degree()
    }
    #[getter]
    fn plain_modulus(&self) -> u64 {
        self.ctx().params().plain_modulus()
    }
    /// Number of batching slots (0 when t does not allow batching).
    #[getter]
    fn slots(&self) -> usize {
        self.ctx().slots()
    }
    /// The multiplicative depth that bound (20) of paper 000 guarantees (a worst case).
    #[getter]
    fn worst_case_depth(&self) -> u32 {
        self.ctx().depth_inputs().depth()
    }

    /// A fresh secret key and its public key.
    fn keygen(&self, py: Python<'_>) -> PyResult<(PySecretKey, PyPublicKey)> {
        let ctx = self.ctx().clone();
        let (sk, pk) = py.detach(|| self.rng.with(|r| ctx.keygen(r))).py()?;
        Ok((
            PySecretKey {
                owner: self.owner(),
                key: Arc::new(sk),
                seeded: self.rng.seeded(),
            },
            PyPublicKey {
                owner: self.owner(),
                key: Arc::new(pk),
                seeded: self.rng.seeded(),
            },
        ))
    }
    /// The relinearisation key of `sk`; also registered for `*` and `**` on ciphertexts.
    fn relin_key(&self, py: Python<'_>, sk: &PySecretKey) -> PyResult<PyRelinKey> {
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let k = Arc::new(py.detach(|| self.rng.with(|r| ctx.relin_key(&s, r))).py()?);
        self.shared.set_relin_key(k.clone());
        Ok(PyRelinKey {
            owner: self.owner(),
            key: k,
            seeded: self.rng.seeded(),
        })
    }
    /// Galois keys for row rotations by `steps` (and the column swap if `columns`); with
    /// `for_sum=True`, the keys `sum_slots` needs. Also registered for the ciphertext methods.
    #[pyo3(signature = (sk, steps=vec![Int(1), Int(-1)], *, columns=true, for_sum=false))]
    fn galois_keys(
        &self,
        py: Python<'_>,
        sk: &PySecretKey,
        steps: Vec<Int<i64>>,
        columns: bool,
        for_sum: bool,
    ) -> PyResult<PyGaloisKeys> {
        let steps = ints(steps);
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let k = py
            .detach(|| {
                self.rng.with(|r| {
                    if for_sum {
                        ctx.galois_keys_for_sum(&s, r)
                    } else {
                        ctx.galois_keys(&s, &steps, columns, r)
                    }
                })
            })
            .py()?;
        let k = Arc::new(k);
        self.shared.set_galois_keys(k.clone());
        Ok(PyGaloisKeys {
            owner: self.owner(),
            key: k,
            seeded: self.rng.seeded(),
        })
    }
    /// Registers loaded evaluation keys for the operators and ciphertext methods.
    #[pyo3(signature = (*, relin_key=None, galois_keys=None))]
    fn register_keys(
        &self,
        relin_key: Option<&PyRelinKey>,
        galois_keys: Option<&PyGaloisKeys>,
    ) -> PyResult<()> {
        if let Some(k) = relin_key {
            self.shared.set_relin_key(k.get(&self.owner())?);
        }
        if let Some(k) = galois_keys {
            self.shared.set_galois_keys(k.get(&self.owner())?);
        }
        Ok(())
    }

    /// Batch-encodes integers (|v| < t, negative values mod t) into the slots, or with
    /// `coefficients=True` into the polynomial's coefficients (any t).
    #[pyo3(signature = (values, *, coefficients=false))]
    fn encode(&self, values: &Bound<'_, PyAny>, coefficients: bool) -> PyResult<PyBfvPlaintext> {
        let t = self.ctx().params().plain_modulus();
        let v = int_values(values, t)?;
        let pt = if coefficients {
            let signed: Vec<i64> = v.iter().map(|&x| x as i64).collect();
            self.ctx().encode_coefficients(&signed).py()?
        } else {
            self.ctx().encode(&v).py()?
        };
        Ok(PyBfvPlaintext {
            shared: self.shared.clone(),
            pt: Arc::new(pt),
        })
    }
    /// The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or, with
    /// `signed=True`, centred in (-t/2, t/2].
    #[pyo3(signature = (pt, *, signed=false, coefficients=false))]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        pt: &PyBfvPlaintext,
        signed: bool,
        coefficients: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        same(&pt.shared, &self.shared, "plaintext")?;
        let ctx = self.ctx();
        let v = match (coefficients, signed) {
            (true, true) => ctx.decode_coefficients(&pt.pt).py()?,
            (true, false) => pt.pt.coefficients().iter().map(|&c| c as i64).collect(),
            (false, true) => ctx.decode_signed(&pt.pt).py()?,
            (false, false) => ctx
                .decode(&pt.pt)
                .py()?
                .into_iter()
                .map(|c| c as i64)
                .collect(),
        };
        Ok(i64_array(py, v))
    }
    /// Encrypts a plaintext or values: with a `PublicKey`, or with a `SecretKey` (symmetric, stored
    /// at half size by `to_bytes`).
    fn encrypt(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyBfvCiphertext> {
        let pt = self.plain(x)?;
        let ctx = self.ctx().clone();
        let ct = if let Ok(pk) = key.cast::<PyPublicKey>() {
            let pk = pk.get().get(&self.owner())?;
            py.detach(|| self.rng.with(|r| ctx.encrypt(&pt, &pk, r)))
        } else if let Ok(sk) = key.cast::<PySecretKey>() {
            let sk = sk.get().get(&self.owner())?;
            py.detach(|| self.rng.with(|r| ctx.encrypt_symmetric(&pt, &sk, r)))
        } else {
            return Err(PyTypeError::new_err(format!(
                "encrypt needs a PublicKey or a SecretKey, got {}",
                type_name(key)
            )));
        };
        Ok(self.ct(ct.py()?))
    }
    /// Decrypts to a plaintext, by the parameters' default method or `method` ("gamma",
    /// "power_of_two_gamma", "floating_point", "hps"). With `check_noise` (default) a ciphertext
    /// whose noise budget is exhausted raises `NoiseBudgetExhaustedError` instead of decrypting to
    /// wrong values.
    #[pyo3(signature = (ct, sk, *, method=None, check_noise=true))]
    fn decrypt_plaintext(
        &self,
        py: Python<'_>,
        ct: &PyBfvCiphertext,
        sk: &PySecretKey,
        method: Option<&str>,
        check_noise: bool,
    ) -> PyResult<PyBfvPlaintext> {
        self.check(ct)?;
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let c = ct.ct.clone();
        let d = match method {
            None => ctx.params().decryption(),
            Some(m) => decryption(m)?,
        };
        let pt = py
            .detach(|| {
                if check_noise {
                    ctx.decrypt_checked(&c, &s, d)
                } else {
                    ctx.decrypt_with(&c, &s, d)
                }
            })
            .py()?;
        Ok(PyBfvPlaintext {
            shared: self.shared.clone(),
            pt: Arc::new(pt),
        })
    }
    /// Decrypts and decodes the slots (see `decode`); `method` and `check_noise` as in
    /// `decrypt_plaintext`.
    #[pyo3(signature = (ct, sk, *, method=None, signed=false, coefficients=false, check_noise=true))]
    #[allow(clippy::too_many_arguments)]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ct: &PyBfvCiphertext,
        sk: &PySecretKey,
        method: Option<&str>,
        signed: bool,
        coefficients: bool,
        check_noise: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        let pt = self.decrypt_plaintext(py, ct, sk, method, check_noise)?;
        self.decode(py, &pt, signed, coefficients)
    }
    /// Remaining noise budget in bits. 0 when the ciphertext may no longer decrypt correctly: the
    /// measured noise or the noise bound the ciphertext carries reached the limit (a ciphertext
    /// loaded from bytes carries no bound and is judged by the measurement alone).
    fn noise_budget(
        &self,
        py: Python<'_>,
        ct: &PyBfvCiphertext,
        sk: &PySecretKey,
    ) -> PyResult<u32> {
        self.check(ct)?;
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let c = ct.ct.clone();
        py.detach(|| ctx.noise_budget(&c, &s)).py()
    }

    fn add(&self, a: &PyBfvCiphertext, b: &PyBfvCiphertext) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        self.check(b)?;
        Ok(self.ct(self.ctx().add(&a.ct, &b.ct).py()?))
    }
    fn sub(&self, a: &PyBfvCiphertext, b: &PyBfvCiphertext) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        self.check(b)?;
        Ok(self.ct(self.ctx().sub(&a.ct, &b.ct).py()?))
    }
    fn negate(&self, a: &PyBfvCiphertext) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().negate(&a.ct).py()?))
    }
    /// a + m for a plaintext or values m.
    fn add_plain(&self, a: &PyBfvCiphertext, m: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().add_plain(&a.ct, &*self.plain(m)?).py()?))
    }
    /// a - m for a plaintext or values m.
    fn sub_plain(&self, a: &PyBfvCiphertext, m: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().sub_plain(&a.ct, &*self.plain(m)?).py()?))
    }
    /// a * m (slot-wise) for a plaintext or values m.
    fn mul_plain(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        m: &Bound<'_, PyAny>,
    ) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        let (ctx, m, c) = (self.ctx().clone(), self.plain(m)?, a.ct.clone());
        Ok(self.ct(py.detach(|| ctx.mul_plain(&c, &m)).py()?))
    }
    /// a * c for an integer c.
    fn mul_scalar(&self, a: &PyBfvCiphertext, c: Int<i64>) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().mul_scalar(&a.ct, c.0).py()?))
    }
    /// a * b, relinearised with `rlk` (default: the registered key).
    #[pyo3(signature = (a, b, rlk=None))]
    fn multiply(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        b: &PyBfvCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        self.check(b)?;
        let k = self.rlk(
            rlk,
            "multiply",
            KeyId::join(a.ct.key_id(), b.ct.key_id()).py()?,
        )?;
        let (ctx, x, y) = (self.ctx().clone(), a.ct.clone(), b.ct.clone());
        Ok(self.ct(py.detach(|| ctx.multiply(&x, &y, &k)).py()?))
    }
    /// a * b without relinearisation (3 parts).
    fn multiply_no_relin(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        b: &PyBfvCiphertext,
    ) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        self.check(b)?;
        let (ctx, x, y) = (self.ctx().clone(), a.ct.clone(), b.ct.clone());
        Ok(self.ct(py.detach(|| ctx.multiply_no_relin(&x, &y)).py()?))
    }
    /// a^2, relinearised.
    #[pyo3(signature = (a, rlk=None))]
    fn square(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyBfvCiphertext> {
        let k = self.rlk(rlk, "square", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.square(x, &k))
    }
    /// A 3-part ciphertext back to 2 parts.
    #[pyo3(signature = (a, rlk=None))]
    fn relinearize(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyBfvCiphertext> {
        let k = self.rlk(rlk, "relinearize", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.relinearize(x, &k))
    }
    /// Rotates both rows of the 2 x n/2 slot matrix left by `step` (right when negative).
    #[pyo3(signature = (a, step, keys=None))]
    fn rotate_rows(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        step: Int<i64>,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBfvCiphertext> {
        let step = step.0;
        let k = self.gk(keys, "rotate_rows", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.rotate_rows(x, step, &k))
    }
    /// Swaps the two rows of the slot matrix.
    #[pyo3(signature = (a, keys=None))]
    fn rotate_columns(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBfvCiphertext> {
        let k = self.gk(keys, "rotate_columns", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.rotate_columns(x, &k))
    }
    /// Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`).
    #[pyo3(signature = (a, keys=None))]
    fn sum_slots(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBfvCiphertext> {
        let k = self.gk(keys, "sum_slots", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.sum_slots(x, &k))
    }

    /// A ciphertext from `BfvCiphertext.to_bytes` output of this parameter set.
    pub(crate) fn ciphertext_from_bytes(&self, data: ByteData) -> PyResult<PyBfvCiphertext> {
        Ok(self.ct(self.ctx().ciphertext_from_bytes(&data.0).py()?))
    }
    /// A plaintext from `BfvPlaintext.to_bytes` output of this parameter set.
    pub(crate) fn plaintext_from_bytes(&self, data: ByteData) -> PyResult<PyBfvPlaintext> {
        let pt = self.ctx().plaintext_from_bytes(&data.0).py()?;
        Ok(PyBfvPlaintext {
            shared: self.shared.clone(),
            pt: Arc::new(pt),
        })
    }
    fn secret_key_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
        let data = &data.0[..];
        keys::load(py, self.owner(), "SecretKey", data)
    }
    fn public_key_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
        let data = &data.0[..];
        keys::load(py, self.owner(), "PublicKey", data)
    }
    fn relin_key_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
        let data = &data.0[..];
        keys::load(py, self.owner(), "RelinKey", data)
    }
    fn galois_keys_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
        let data = &data.0[..];
        keys::load(py, self.owner(), "GaloisKeys", data)
    }
    /// The context's parameter set as bytes (`BfvContext.from_bytes` rebuilds the context).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.shared.params_bytes)
    }
    /// The context of a parameter set's bytes (validated again, security included).
    #[staticmethod]
    fn from_bytes(data: ByteData) -> PyResult<Self> {
        let data = &data.0[..];
        Self::from_shared(shared(&BfvParameters::from_bytes(data).py()?)?)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "BfvContext", &self.shared.params_bytes, &[])
    }
    fn __repr__(&self) -> String {
        crate::convert::context_repr("BfvContext", &self.shared.label, &self.rng)
    }
    /// The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a context
    /// made with `seed=` (reproducible keys and encryptions: tests only).
    #[getter]
    fn security(&self) -> String {
        crate::convert::context_security(self.ctx().params().security(), &self.rng)
    }
}

impl PyBfvContext {
    /// The relinearisation key passed, or the one registered for key pair `key`.
    pub(crate) fn rlk(
        &self,
        k: Option<&PyRelinKey>,
        what: &str,
        key: Option<rnsfhe::rlwe::KeyId>,
    ) -> PyResult<Arc<rnsfhe::rlwe::RelinKey>> {
        keys::relin_key(k, &self.owner(), &self.shared, what, key)
    }
    /// The Galois keys passed, or the ones registered for key pair `key`.
    pub(crate) fn gk(
        &self,
        k: Option<&PyGaloisKeys>,
        what: &str,
        key: Option<rnsfhe::rlwe::KeyId>,
    ) -> PyResult<Arc<rnsfhe::rlwe::GaloisKeys>> {
        keys::galois_keys(k, &self.owner(), &self.shared, what, key)
    }
    pub(crate) fn from_shared(shared: Arc<BfvShared>) -> PyResult<Self> {
        Ok(PyBfvContext {
            shared,
            rng: LockedRng::new(None)?,
        })
    }
}
