//! The Bgv context class: keys, encoding, encryption and every operation.

use super::*;
/// A BGV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
/// parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
/// reproducible (tests only).
#[pyclass(frozen, module = "rnsfhe", name = "BgvContext")]
pub(crate) struct PyBgvContext {
    pub(crate) shared: Arc<BgvShared>,
    pub(crate) rng: LockedRng,
}

impl PyBgvContext {
    pub(crate) fn owner(&self) -> Owner {
        Owner::Bgv(self.shared.clone())
    }
    pub(crate) fn ctx(&self) -> &Arc<BgvContext> {
        &self.shared.ctx
    }
    pub(crate) fn ct(&self, ct: BgvCiphertext) -> PyBgvCiphertext {
        PyBgvCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    /// A plaintext from a `BgvPlaintext` or from values to batch-encode.
    pub(crate) fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<BgvPlaintext>> {
        if let Ok(p) = x.cast::<PyBgvPlaintext>() {
            let p = p.get();
            same(&p.shared, &self.shared, "plaintext")?;
            return Ok(p.pt.clone());
        }
        let v = int_values(x, self.ctx().params().plain_modulus())?;
        Ok(Arc::new(self.ctx().encode(&v).py()?))
    }
    pub(crate) fn check(&self, c: &PyBgvCiphertext) -> PyResult<()> {
        same(&c.shared, &self.shared, "ciphertext")
    }
    /// Runs `f` on the context and one ciphertext of this context without the GIL.
    pub(crate) fn unary(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        f: impl FnOnce(&BgvContext, &BgvCiphertext) -> rnsfhe::Result<BgvCiphertext> + Send,
    ) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        let (ctx, x) = (self.ctx().clone(), a.ct.clone());
        Ok(self.ct(py.detach(|| f(&ctx, &x)).py()?))
    }
}

#[pymethods]
impl PyBgvContext {
    #[new]
    #[pyo3(signature = (params=None, *, seed=None))]
    fn new(params: Option<&PyBgvParameters>, seed: Option<&[u8]>) -> PyResult<Self> {
        let p = match params {
            Some(p) => p.inner.clone(),
            None => BgvParameters::builder().build().py()?,
        };
        Ok(PyBgvContext {
            shared: shared(&p)?,
            rng: LockedRng::new(seed)?,
        })
    }

    #[getter]
    fn params(&self) -> PyBgvParameters {
        PyBgvParameters {
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
    /// The top level L of fresh ciphertexts.
    #[getter]
    fn max_level(&self) -> usize {
        self.ctx().max_level()
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
    fn encode(&self, values: &Bound<'_, PyAny>, coefficients: bool) -> PyResult<PyBgvPlaintext> {
        let t = self.ctx().params().plain_modulus();
        let v = int_values(values, t)?;
        let pt = if coefficients {
            let signed: Vec<i64> = v.iter().map(|&x| x as i64).collect();
            self.ctx().encode_coefficients(&signed).py()?
        } else {
            self.ctx().encode(&v).py()?
        };
        Ok(PyBgvPlaintext {
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
        pt: &PyBgvPlaintext,
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
    ) -> PyResult<PyBgvCiphertext> {
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
    /// Decrypts to a plaintext: [[c(s)]_q]_t. A ciphertext whose noise may have wrapped past q/2
    /// raises `NoiseBudgetExhaustedError` instead of decrypting to wrong values.
    fn decrypt_plaintext(
        &self,
        py: Python<'_>,
        ct: &PyBgvCiphertext,
        sk: &PySecretKey,
    ) -> PyResult<PyBgvPlaintext> {
        self.check(ct)?;
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let c = ct.ct.clone();
        let pt = py.detach(|| ctx.decrypt(&c, &s)).py()?;
        Ok(PyBgvPlaintext {
            shared: self.shared.clone(),
            pt: Arc::new(pt),
        })
    }
    /// Decrypts and decodes the slots (see `decode`).
    #[pyo3(signature = (ct, sk, *, signed=false, coefficients=false))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ct: &PyBgvCiphertext,
        sk: &PySecretKey,
        signed: bool,
        coefficients: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        let pt = self.decrypt_plaintext(py, ct, sk)?;
        self.decode(py, &pt, signed, coefficients)
    }
    /// Remaining noise budget in bits. 0 when the ciphertext may no longer decrypt correctly: the
    /// measured noise or the noise bound the ciphertext carries reached the limit (a ciphertext
    /// loaded from bytes carries no bound and is judged by the measurement alone).
    fn noise_budget(
        &self,
        py: Python<'_>,
        ct: &PyBgvCiphertext,
        sk: &PySecretKey,
    ) -> PyResult<u32> {
        self.check(ct)?;
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let c = ct.ct.clone();
        Ok(py.detach(|| ctx.noise_budget(&c, &s)).py()?.floor() as u32)
    }
    /// Modulus switching one level down (paper 001 Lemma 3): the same message, the noise divided by
    /// the dropped prime. Raises `LevelMismatchError` at level 0.
    fn mod_switch(&self, py: Python<'_>, a: &PyBgvCiphertext) -> PyResult<PyBgvCiphertext> {
        self.unary(py, a, |c, x| c.mod_switch(x))
    }
    /// Modulus switching down to `level`.
    fn mod_switch_to_level(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        level: Int<usize>,
    ) -> PyResult<PyBgvCiphertext> {
        let level = level.0;
        self.unary(py, a, move |c, x| c.mod_switch_to_level(x, level))
    }

    fn add(&self, a: &PyBgvCiphertext, b: &PyBgvCiphertext) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        self.check(b)?;
        Ok(self.ct(self.ctx().add(&a.ct, &b.ct).py()?))
    }
    fn sub(&self, a: &PyBgvCiphertext, b: &PyBgvCiphertext) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        self.check(b)?;
        Ok(self.ct(self.ctx().sub(&a.ct, &b.ct).py()?))
    }
    fn negate(&self, a: &PyBgvCiphertext) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().negate(&a.ct).py()?))
    }
    /// a + m for a plaintext or values m.
    fn add_plain(&self, a: &PyBgvCiphertext, m: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().add_plain(&a.ct, &*self.plain(m)?).py()?))
    }
    /// a - m for a plaintext or values m.
    fn sub_plain(&self, a: &PyBgvCiphertext, m: &Bound<'_, PyAny>) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().sub_plain(&a.ct, &*self.plain(m)?).py()?))
    }
    /// a * m (slot-wise) for a plaintext or values m.
    fn mul_plain(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        m: &Bound<'_, PyAny>,
    ) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        let (ctx, m, c) = (self.ctx().clone(), self.plain(m)?, a.ct.clone());
        Ok(self.ct(py.detach(|| ctx.mul_plain(&c, &m)).py()?))
    }
    /// a * c for an integer c.
    fn mul_scalar(&self, a: &PyBgvCiphertext, c: Int<i64>) -> PyResult<PyBgvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().mul_scalar(&a.ct, c.0).py()?))
    }
    /// a * b, relinearised with `rlk` (default: the registered key).
    #[pyo3(signature = (a, b, rlk=None))]
    fn multiply(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        b: &PyBgvCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyBgvCiphertext> {
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
        a: &PyBgvCiphertext,
        b: &PyBgvCiphertext,
    ) -> PyResult<PyBgvCiphertext> {
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
        a: &PyBgvCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyBgvCiphertext> {
        let k = self.rlk(rlk, "square", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.multiply(x, x, &k))
    }
    /// A 3-part ciphertext back to 2 parts.
    #[pyo3(signature = (a, rlk=None))]
    fn relinearize(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyBgvCiphertext> {
        let k = self.rlk(rlk, "relinearize", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.relinearize(x, &k))
    }
    /// Rotates both rows of the 2 x n/2 slot matrix left by `step` (right when negative).
    #[pyo3(signature = (a, step, keys=None))]
    fn rotate_rows(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        step: Int<i64>,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBgvCiphertext> {
        let step = step.0;
        let k = self.gk(keys, "rotate_rows", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.rotate_rows(x, step, &k))
    }
    /// Swaps the two rows of the slot matrix.
    #[pyo3(signature = (a, keys=None))]
    fn rotate_columns(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBgvCiphertext> {
        let k = self.gk(keys, "rotate_columns", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.rotate_columns(x, &k))
    }
    /// Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`).
    #[pyo3(signature = (a, keys=None))]
    fn sum_slots(
        &self,
        py: Python<'_>,
        a: &PyBgvCiphertext,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBgvCiphertext> {
        let k = self.gk(keys, "sum_slots", a.ct.key_id())?;
        self.unary(py, a, move |c, x| c.sum_slots(x, &k))
    }

    /// A ciphertext from `BgvCiphertext.to_bytes` output of this parameter set.
    pub(crate) fn ciphertext_from_bytes(&self, data: ByteData) -> PyResult<PyBgvCiphertext> {
        Ok(self.ct(self.ctx().ciphertext_from_bytes(&data.0).py()?))
    }
    /// A plaintext from `BgvPlaintext.to_bytes` output of this parameter set.
    pub(crate) fn plaintext_from_bytes(&self, data: ByteData) -> PyResult<PyBgvPlaintext> {
        let pt = self.ctx().plaintext_from_bytes(&data.0).py()?;
        Ok(PyBgvPlaintext {
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
    /// The context's parameter set as bytes (`BgvContext.from_bytes` rebuilds the context).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.shared.params_bytes)
    }
    /// The context of a parameter set's bytes (validated again, security included).
    #[staticmethod]
    fn from_bytes(data: ByteData) -> PyResult<Self> {
        let data = &data.0[..];
        Self::from_shared(shared(&BgvParameters::from_bytes(data).py()?)?)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "BgvContext", &self.shared.params_bytes, &[])
    }
    fn __repr__(&self) -> String {
        crate::convert::context_repr("BgvContext", &self.shared.label, &self.rng)
    }
    /// The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a context
    /// made with `seed=` (reproducible keys and encryptions: tests only).
    #[getter]
    fn security(&self) -> String {
        crate::convert::context_security(self.ctx().params().security(), &self.rng)
    }
}

impl PyBgvContext {
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
    pub(crate) fn from_shared(shared: Arc<BgvShared>) -> PyResult<Self> {
        Ok(PyBgvContext {
            shared,
            rng: LockedRng::new(None)?,
        })
    }
}
