//! HprParameters and HprContext.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::hpr::{HprCiphertext, HprParameters, Relinearization};

use super::keys::{PyHprGaloisKeys, PyHprPublicKey, PyHprRelinKey, PyHprSecretKey};
use super::plain::{encode, plain, PyHprPlaintext};
use super::values::PyHprCiphertext;
use super::{label, same, shared, HprShared};
use crate::convert::{i64_array, ints, security_out, type_name, ByteData, Int, LockedRng};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

/// HPR-FV parameters (paper 002): ring degree n, plaintext modulus t, k = `primes` primes of `bits`
/// bits forming p, d = `digits` digits (q = p^d), error `sigma`, checked against `security`.
#[pyclass(frozen, module = "rnsfhe", name = "HprParameters")]
pub(crate) struct PyHprParameters {
    pub(crate) inner: HprParameters,
}

#[pymethods]
impl PyHprParameters {
    #[new]
    #[pyo3(signature = (degree=Int(4096), plain_modulus=Int(65537), *, primes=Int(1), digits=Int(2),
        bits=Int(50), sigma=3.2, security=None))]
    fn new(
        degree: Int<usize>,
        plain_modulus: Int<u64>,
        primes: Int<usize>,
        digits: Int<usize>,
        bits: Int<u32>,
        sigma: f64,
        security: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let s = crate::convert::security(security)?;
        let inner = HprParameters::new(
            degree.0,
            plain_modulus.0,
            primes.0,
            digits.0,
            bits.0,
            sigma,
            s,
        )
        .py()?;
        Ok(PyHprParameters { inner })
    }
    #[getter]
    fn degree(&self) -> usize {
        self.inner.degree()
    }
    #[getter]
    fn plain_modulus(&self) -> u64 {
        self.inner.plain_modulus()
    }
    /// d: q = p^d.
    #[getter]
    fn digits(&self) -> usize {
        self.inner.digits()
    }
    /// The k primes of p.
    #[getter]
    fn moduli(&self) -> Vec<u64> {
        self.inner.p_moduli().to_vec()
    }
    /// B_sk = B u {m_sk} (m_sk last).
    #[getter]
    fn auxiliary_moduli(&self) -> Vec<u64> {
        self.inner.b_sk_moduli().to_vec()
    }
    #[getter]
    fn sigma(&self) -> f64 {
        self.inner.sigma()
    }
    #[getter]
    fn log_q(&self) -> f64 {
        self.inner.log_q()
    }
    #[getter]
    fn security(&self) -> String {
        security_out(self.inner.security())
    }
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.inner.to_bytes())
    }
    /// Parameters from `to_bytes` output (validated again, security included).
    #[staticmethod]
    fn from_bytes(data: ByteData) -> PyResult<Self> {
        Ok(PyHprParameters {
            inner: HprParameters::from_bytes(&data.0).py()?,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyHprParameters>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        bytes_out(py, &self.inner.to_bytes()).hash()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "HprParameters", &self.inner.to_bytes(), &[])
    }
    fn __repr__(&self) -> String {
        label(&self.inner)
    }
}

/// An HPR-FV context: keys, batch encryption, decryption (paper 002 Alg. 1) and evaluation.
/// `seed` (32 bytes) makes key generation and encryption reproducible (tests only).
#[pyclass(frozen, module = "rnsfhe", name = "HprContext")]
pub(crate) struct PyHprContext {
    pub(crate) shared: Arc<HprShared>,
    rng: LockedRng,
}

impl PyHprContext {
    pub(crate) fn from_shared(shared: Arc<HprShared>) -> PyResult<Self> {
        Ok(PyHprContext {
            shared,
            rng: LockedRng::new(None)?,
        })
    }
    fn ct(&self, ct: HprCiphertext) -> PyHprCiphertext {
        PyHprCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    pub(crate) fn ciphertext_from_bytes(&self, data: ByteData) -> PyResult<PyHprCiphertext> {
        Ok(self.ct(self.shared.ctx.ciphertext_from_bytes(&data.0).py()?))
    }
    pub(crate) fn public_key_from_bytes(&self, data: ByteData) -> PyResult<PyHprPublicKey> {
        let key = Arc::new(self.shared.ctx.public_key_from_bytes(&data.0).py()?);
        Ok(PyHprPublicKey {
            shared: self.shared.clone(),
            key,
        })
    }
    pub(crate) fn relin_key_from_bytes(&self, data: ByteData) -> PyResult<PyHprRelinKey> {
        let key = Arc::new(self.shared.ctx.relin_key_from_bytes(&data.0).py()?);
        Ok(PyHprRelinKey {
            shared: self.shared.clone(),
            key,
        })
    }
    pub(crate) fn secret_key_from_bytes(&self, data: ByteData) -> PyResult<PyHprSecretKey> {
        let key = Arc::new(self.shared.ctx.secret_key_from_bytes(&data.0).py()?);
        Ok(PyHprSecretKey {
            shared: self.shared.clone(),
            key,
        })
    }
    pub(crate) fn plaintext_from_bytes(&self, data: &[u8]) -> PyResult<PyHprPlaintext> {
        Ok(PyHprPlaintext {
            shared: self.shared.clone(),
            m: Arc::new(self.shared.ctx.plaintext_from_bytes(data).py()?),
        })
    }
    pub(crate) fn galois_keys_from_bytes(&self, data: ByteData) -> PyResult<PyHprGaloisKeys> {
        let key = Arc::new(self.shared.ctx.galois_keys_from_bytes(&data.0).py()?);
        Ok(PyHprGaloisKeys {
            shared: self.shared.clone(),
            key,
        })
    }
}

#[pymethods]
impl PyHprContext {
    #[new]
    #[pyo3(signature = (params, *, seed=None))]
    fn new(params: &PyHprParameters, seed: Option<&[u8]>) -> PyResult<Self> {
        Ok(PyHprContext {
            shared: shared(&params.inner)?,
            rng: LockedRng::new(seed)?,
        })
    }
    #[getter]
    fn params(&self) -> PyHprParameters {
        PyHprParameters {
            inner: self.shared.ctx.params().clone(),
        }
    }
    /// Number of batching slots (0 when t does not allow batching).
    #[getter]
    fn slots(&self) -> usize {
        self.shared.enc.as_ref().map_or(0, |e| e.slots())
    }
    /// A fresh secret key and its public key.
    fn keygen(&self, py: Python<'_>) -> PyResult<(PyHprSecretKey, PyHprPublicKey)> {
        let ctx = self.shared.ctx.clone();
        let (sk, pk) = py
            .detach(|| {
                self.rng.with(|r| {
                    let sk = ctx.secret_key(r)?;
                    let pk = ctx.public_key(&sk, r)?;
                    Ok::<_, rnsfhe::Error>((sk, pk))
                })
            })
            .py()?;
        let shared = self.shared.clone();
        Ok((
            PyHprSecretKey {
                shared: shared.clone(),
                key: Arc::new(sk),
            },
            PyHprPublicKey {
                shared,
                key: Arc::new(pk),
            },
        ))
    }
    /// The relinearisation key of `sk` ("residue": single-digit r_{i,j}, paper 002 section 4.1;
    /// "digit": whole digits, Remark 5); also registered for `*` on this key pair's ciphertexts.
    #[pyo3(signature = (sk, relinearization="residue"))]
    fn relin_key(
        &self,
        py: Python<'_>,
        sk: &PyHprSecretKey,
        relinearization: &str,
    ) -> PyResult<PyHprRelinKey> {
        let mode = match relinearization {
            "residue" => Relinearization::PerResidue,
            "digit" => Relinearization::PerDigit,
            other => {
                return Err(raise(
                    "ParameterError",
                    format!("relinearization {other:?}: use \"residue\" or \"digit\""),
                ))
            }
        };
        let s = sk.get(&self.shared)?;
        let ctx = self.shared.ctx.clone();
        let k = Arc::new(
            py.detach(|| self.rng.with(|r| ctx.relin_key(&s, mode, r)))
                .py()?,
        );
        self.shared.set_relin_key(k.clone());
        Ok(PyHprRelinKey {
            shared: self.shared.clone(),
            key: k,
        })
    }
    /// Galois keys for row rotations by `steps` (and the row swap if `columns`); with
    /// `for_sum=True`, the keys `sum_slots` needs. Also registered.
    #[pyo3(signature = (sk, steps=vec![Int(1), Int(-1)], *, columns=true, for_sum=false))]
    fn galois_keys(
        &self,
        py: Python<'_>,
        sk: &PyHprSecretKey,
        steps: Vec<Int<i64>>,
        columns: bool,
        for_sum: bool,
    ) -> PyResult<PyHprGaloisKeys> {
        let enc = self.shared.encoder()?;
        let mut gs: Vec<u64> = ints(steps)
            .into_iter()
            .map(|s| enc.galois_element_for_rotation(s))
            .collect();
        if columns {
            gs.push(enc.galois_element_for_row_swap());
        }
        if for_sum {
            gs = self.shared.ctx.sum_slots_elements();
        }
        let s = sk.get(&self.shared)?;
        let ctx = self.shared.ctx.clone();
        let k = Arc::new(
            py.detach(|| self.rng.with(|r| ctx.galois_keys(&s, &gs, r)))
                .py()?,
        );
        self.shared.set_galois_keys(k.clone());
        Ok(PyHprGaloisKeys {
            shared: self.shared.clone(),
            key: k,
        })
    }
    /// Registers loaded evaluation keys for the operators.
    #[pyo3(signature = (*, relin_key=None, galois_keys=None))]
    fn register_keys(
        &self,
        relin_key: Option<&PyHprRelinKey>,
        galois_keys: Option<&PyHprGaloisKeys>,
    ) -> PyResult<()> {
        if let Some(k) = relin_key {
            self.shared.set_relin_key(k.get(&self.shared)?);
        }
        if let Some(k) = galois_keys {
            self.shared.set_galois_keys(k.get(&self.shared)?);
        }
        Ok(())
    }
    /// Batch-encodes integers (|v| < t, negative values mod t) into the slots, or with
    /// `coefficients=True` into the polynomial's coefficients (any t).
    #[pyo3(signature = (values, *, coefficients=false))]
    fn encode(&self, values: &Bound<'_, PyAny>, coefficients: bool) -> PyResult<PyHprPlaintext> {
        encode(&self.shared, values, coefficients)
    }
    /// The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or, with
    /// `signed=True`, centred in (-t/2, t/2].
    #[pyo3(signature = (pt, *, signed=false, coefficients=false))]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        pt: &PyHprPlaintext,
        signed: bool,
        coefficients: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        same(&pt.shared, &self.shared, "plaintext")?;
        Ok(i64_array(
            py,
            self.shared.decode(&pt.m, signed, coefficients)?,
        ))
    }
    /// Encrypts a plaintext or integers batched into the slots (|v| < t, negatives mod t) with a
    /// public key or, symmetrically, a secret key.
    fn encrypt(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyHprCiphertext> {
        let m = plain(&self.shared, x)?;
        let ctx = self.shared.ctx.clone();
        let ct = if let Ok(pk) = key.cast::<PyHprPublicKey>() {
            let pk = pk.get().get(&self.shared)?;
            py.detach(|| self.rng.with(|r| ctx.encrypt(&pk, &m, r)))
        } else if let Ok(sk) = key.cast::<PyHprSecretKey>() {
            let sk = sk.get().get(&self.shared)?;
            py.detach(|| self.rng.with(|r| ctx.encrypt_symmetric(&sk, &m, r)))
        } else {
            return Err(PyTypeError::new_err(format!(
                "key must be an HprPublicKey or HprSecretKey, got {}",
                type_name(key)
            )));
        };
        Ok(self.ct(ct.py()?))
    }
    /// Decrypts to a plaintext (paper 002 Alg. 1). With `check_noise` (default) a ciphertext whose
    /// noise budget is exhausted raises `NoiseBudgetExhaustedError` instead of decrypting to wrong
    /// values.
    #[pyo3(signature = (ct, sk, *, check_noise=true))]
    fn decrypt_plaintext(
        &self,
        py: Python<'_>,
        ct: &PyHprCiphertext,
        sk: &PyHprSecretKey,
        check_noise: bool,
    ) -> PyResult<PyHprPlaintext> {
        same(&ct.shared, &self.shared, "ciphertext")?;
        let s = sk.get(&self.shared)?;
        let (ctx, x) = (self.shared.ctx.clone(), ct.ct.clone());
        let m = py
            .detach(|| {
                if check_noise {
                    ctx.decrypt_checked(&s, &x)
                } else {
                    ctx.decrypt(&s, &x)
                }
            })
            .py()?;
        Ok(PyHprPlaintext {
            shared: self.shared.clone(),
            m: Arc::new(m),
        })
    }
    /// Decrypts and decodes the slots (see `decode`); `check_noise` as in `decrypt_plaintext`.
    #[pyo3(signature = (ct, sk, *, signed=false, coefficients=false, check_noise=true))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ct: &PyHprCiphertext,
        sk: &PyHprSecretKey,
        signed: bool,
        coefficients: bool,
        check_noise: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        let pt = self.decrypt_plaintext(py, ct, sk, check_noise)?;
        self.decode(py, &pt, signed, coefficients)
    }
    /// Remaining noise budget in bits (exact). 0 when the ciphertext may no longer decrypt
    /// correctly: the measured noise or the noise bound the ciphertext carries reached the limit (a
    /// ciphertext loaded from bytes carries no bound and is judged by the measurement alone).
    fn noise_budget(
        &self,
        py: Python<'_>,
        ct: &PyHprCiphertext,
        sk: &PyHprSecretKey,
    ) -> PyResult<u32> {
        same(&ct.shared, &self.shared, "ciphertext")?;
        let s = sk.get(&self.shared)?;
        let (ctx, x) = (self.shared.ctx.clone(), ct.ct.clone());
        py.detach(|| ctx.noise_budget(&s, &x)).py()
    }
    /// Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`, or the
    /// registered ones).
    #[pyo3(signature = (a, keys=None))]
    fn sum_slots(
        &self,
        py: Python<'_>,
        a: &PyHprCiphertext,
        keys: Option<&PyHprGaloisKeys>,
    ) -> PyResult<PyHprCiphertext> {
        same(&a.shared, &self.shared, "ciphertext")?;
        let k = match keys {
            Some(k) => k.get(&self.shared)?,
            None => self.shared.galois_keys("sum_slots", a.ct.id())?,
        };
        let (ctx, x) = (self.shared.ctx.clone(), a.ct.clone());
        Ok(self.ct(py.detach(|| ctx.sum_slots(&x, &k)).py()?))
    }
    /// The product without relinearisation: 3 parts (paper 002 Prop. 1, eq. (16)).
    fn multiply_no_relin(
        &self,
        py: Python<'_>,
        a: &PyHprCiphertext,
        b: &PyHprCiphertext,
    ) -> PyResult<PyHprCiphertext> {
        same(&a.shared, &self.shared, "ciphertext")?;
        same(&b.shared, &self.shared, "ciphertext")?;
        let (ctx, x, y) = (self.shared.ctx.clone(), a.ct.clone(), b.ct.clone());
        Ok(self.ct(py.detach(|| ctx.mul_no_relin(&x, &y)).py()?))
    }
    /// Relinearises a 3-part ciphertext (section 4.1) with `relin_key` or the registered one.
    #[pyo3(signature = (a, relin_key=None))]
    fn relinearize(
        &self,
        py: Python<'_>,
        a: &PyHprCiphertext,
        relin_key: Option<&PyHprRelinKey>,
    ) -> PyResult<PyHprCiphertext> {
        same(&a.shared, &self.shared, "ciphertext")?;
        let k = match relin_key {
            Some(k) => k.get(&self.shared)?,
            None => self.shared.relin_key("relinearize", a.ct.id())?,
        };
        let (ctx, x) = (self.shared.ctx.clone(), a.ct.clone());
        Ok(self.ct(py.detach(|| ctx.relinearize(&x, &k)).py()?))
    }
    #[pyo3(name = "ciphertext_from_bytes")]
    fn py_ciphertext_from_bytes(&self, data: ByteData) -> PyResult<PyHprCiphertext> {
        self.ciphertext_from_bytes(data)
    }
    /// A secret key from `HprSecretKey.to_bytes(allow_secret=True)` output.
    #[pyo3(name = "secret_key_from_bytes")]
    fn py_secret_key_from_bytes(&self, data: ByteData) -> PyResult<PyHprSecretKey> {
        self.secret_key_from_bytes(data)
    }
    #[pyo3(name = "plaintext_from_bytes")]
    fn py_plaintext_from_bytes(&self, data: ByteData) -> PyResult<PyHprPlaintext> {
        self.plaintext_from_bytes(&data.0)
    }
    #[pyo3(name = "public_key_from_bytes")]
    fn py_public_key_from_bytes(&self, data: ByteData) -> PyResult<PyHprPublicKey> {
        self.public_key_from_bytes(data)
    }
    #[pyo3(name = "relin_key_from_bytes")]
    fn py_relin_key_from_bytes(&self, data: ByteData) -> PyResult<PyHprRelinKey> {
        self.relin_key_from_bytes(data)
    }
    #[pyo3(name = "galois_keys_from_bytes")]
    fn py_galois_keys_from_bytes(&self, data: ByteData) -> PyResult<PyHprGaloisKeys> {
        self.galois_keys_from_bytes(data)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "HprContext", &self.shared.params_bytes, &[])
    }
    fn __repr__(&self) -> String {
        crate::convert::context_repr("HprContext", &self.shared.label, &self.rng)
    }
}
