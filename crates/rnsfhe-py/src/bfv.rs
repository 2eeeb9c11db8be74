//! BFV in Python: parameters, context (keys, encoding, encryption, every operation), plaintexts and
//! ciphertexts with operators.

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::bfv::{BfvContext, BfvParameters, Ciphertext, Decryption, Multiplication, Plaintext};
use rnsfhe::rlwe::{KeySwitching, SecretDistribution};

use crate::convert::{
    i64_array, int_values, is_int, is_vector, security_out, type_name, LockedRng,
};
use crate::keys::{self, BfvShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<BfvContext> = Registry::new();

fn multiplication(name: &str) -> PyResult<Multiplication> {
    match name {
        "hps" => Ok(Multiplication::Hps),
        "behz" => Ok(Multiplication::Behz),
        _ => Err(raise(
            "ParameterError",
            format!("multiplication must be \"hps\" or \"behz\", got {name:?}"),
        )),
    }
}

fn decryption(name: &str) -> PyResult<Decryption> {
    match name {
        "gamma" | "alg1" => Ok(Decryption::Gamma),
        "power_of_two_gamma" | "lemma3" => Ok(Decryption::PowerOfTwoGamma),
        "floating_point" | "flp" => Ok(Decryption::FloatingPoint),
        "hps" => Ok(Decryption::Hps),
        _ => Err(raise(
            "ParameterError",
            format!(
                "decryption must be \"gamma\" (paper 000 Alg. 1), \"power_of_two_gamma\" (Lemma 3), \
                 \"floating_point\" (DecRNS-flp) or \"hps\", got {name:?}"
            ),
        )),
    }
}

fn decryption_name(d: Decryption) -> &'static str {
    match d {
        Decryption::Gamma => "gamma",
        Decryption::PowerOfTwoGamma => "power_of_two_gamma",
        Decryption::FloatingPoint => "floating_point",
        Decryption::Hps => "hps",
    }
}

/// BFV parameters: ring degree n, plaintext modulus t, ciphertext moduli q_i (chosen for the security
/// level unless given), the multiplication (HPS or BEHZ) and default decryption methods.
#[pyclass(frozen, module = "rnsfhe", name = "BfvParameters")]
pub(crate) struct PyBfvParameters {
    pub inner: BfvParameters,
}

#[pymethods]
impl PyBfvParameters {
    #[new]
    #[pyo3(signature = (degree=8192, plain_modulus=65537, *, moduli=None, moduli_bits=None,
        special_moduli=None, special_moduli_bits=None, multiplication="hps", decryption=None,
        m_tilde=Some(65536), sigma=None, hamming_weight=None, digit_primes=None, security=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        degree: usize,
        plain_modulus: u64,
        moduli: Option<Vec<u64>>,
        moduli_bits: Option<Vec<u32>>,
        special_moduli: Option<Vec<u64>>,
        special_moduli_bits: Option<Vec<u32>>,
        multiplication: &str,
        decryption: Option<&str>,
        m_tilde: Option<u64>,
        sigma: Option<f64>,
        hamming_weight: Option<usize>,
        digit_primes: Option<usize>,
        security: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut b = BfvParameters::builder()
            .degree(degree)
            .plain_modulus(plain_modulus)
            .multiplication(self::multiplication(multiplication)?)
            .m_tilde(m_tilde)
            .security(crate::convert::security(security)?);
        if let Some(q) = moduli {
            b = b.moduli(&q);
        }
        if let Some(bits) = moduli_bits {
            b = b.moduli_bits(&bits);
        }
        if let Some(p) = special_moduli {
            b = b.special_moduli(&p);
        }
        if let Some(bits) = special_moduli_bits {
            b = b.special_moduli_bits(&bits);
        }
        if let Some(d) = decryption {
            b = b.decryption(self::decryption(d)?);
        }
        if let Some(s) = sigma {
            b = b.sigma(s);
        }
        if let Some(h) = hamming_weight {
            b = b.secret(SecretDistribution::HammingWeight(h));
        }
        if let Some(d) = digit_primes {
            b = b.key_switching(KeySwitching {
                digit_primes: d,
                ..KeySwitching::default()
            });
        }
        Ok(PyBfvParameters {
            inner: b.build().py()?,
        })
    }

    /// Paper 000's setting: n, k moduli of `bits` bits, t; BEHZ and Alg. 1 (not security-checked).
    #[staticmethod]
    fn paper000(degree: usize, k: usize, bits: u32, plain_modulus: u64) -> PyResult<Self> {
        let inner = BfvParameters::paper000(degree, k, bits, plain_modulus)
            .build()
            .py()?;
        Ok(PyBfvParameters { inner })
    }

    #[getter]
    fn degree(&self) -> usize {
        self.inner.degree()
    }
    #[getter]
    fn plain_modulus(&self) -> u64 {
        self.inner.plain_modulus()
    }
    #[getter]
    fn moduli(&self) -> Vec<u64> {
        self.inner.moduli().to_vec()
    }
    #[getter]
    fn special_moduli(&self) -> Vec<u64> {
        self.inner.special_moduli().to_vec()
    }
    /// log2 of q = prod q_i.
    #[getter]
    fn log_q(&self) -> f64 {
        self.inner.log_q()
    }
    /// Batching slots (n when t is a prime = 1 mod 2n, else 0).
    #[getter]
    fn slots(&self) -> usize {
        self.inner.batching_slots()
    }
    #[getter]
    fn multiplication(&self) -> &'static str {
        match self.inner.multiplication() {
            Multiplication::Hps => "hps",
            Multiplication::Behz => "behz",
        }
    }
    #[getter]
    fn decryption(&self) -> &'static str {
        decryption_name(self.inner.decryption())
    }
    /// 128, 192, 256 or "insecure".
    #[getter]
    fn security(&self) -> String {
        security_out(self.inner.security())
    }
    /// The parameter set in the rnsfhe binary format.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.inner.to_bytes())
    }
    /// Parameters from `to_bytes` output (validated again, security included).
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyBfvParameters {
            inner: BfvParameters::from_bytes(data).py()?,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBfvParameters>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }
    fn __hash__(&self) -> u64 {
        fnv(&self.inner.to_bytes())
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "BfvParameters", &self.inner.to_bytes(), &[])
    }
    fn __repr__(&self) -> String {
        label(&self.inner)
    }
}

fn fnv(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn label(p: &BfvParameters) -> String {
    format!(
        "BfvParameters(degree={}, plain_modulus={}, log_q={:.1}, moduli={}, multiplication={:?}, security={})",
        p.degree(),
        p.plain_modulus(),
        p.log_q(),
        p.moduli().len(),
        match p.multiplication() {
            Multiplication::Hps => "hps",
            Multiplication::Behz => "behz",
        },
        security_out(p.security()),
    )
}

/// The shared context of a parameter set (one per set while any object uses it).
fn shared(p: &BfvParameters) -> PyResult<Arc<BfvShared>> {
    let p2 = p.clone();
    CONTEXTS
        .get_or_make(p.to_bytes(), label(p), move || BfvContext::new(p2))
        .py()
}

/// A BFV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
/// parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
/// reproducible (tests only).
#[pyclass(frozen, module = "rnsfhe", name = "BfvContext")]
pub(crate) struct PyBfvContext {
    shared: Arc<BfvShared>,
    rng: LockedRng,
}

impl PyBfvContext {
    pub(crate) fn owner(&self) -> Owner {
        Owner::Bfv(self.shared.clone())
    }
    fn ctx(&self) -> &Arc<BfvContext> {
        &self.shared.ctx
    }
    fn ct(&self, ct: Ciphertext) -> PyBfvCiphertext {
        PyBfvCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    /// A plaintext from a `BfvPlaintext` or from values to batch-encode.
    fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<Plaintext>> {
        if let Ok(p) = x.cast::<PyBfvPlaintext>() {
            let p = p.get();
            same(&p.shared, &self.shared, "plaintext")?;
            return Ok(p.pt.clone());
        }
        let v = int_values(x, self.ctx().params().plain_modulus())?;
        Ok(Arc::new(self.ctx().encode(&v).py()?))
    }
    fn check(&self, c: &PyBfvCiphertext) -> PyResult<()> {
        same(&c.shared, &self.shared, "ciphertext")
    }
    /// Runs `f` on the context and one ciphertext of this context without the GIL.
    fn unary(
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
            },
            PyPublicKey {
                owner: self.owner(),
                key: Arc::new(pk),
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
        })
    }
    /// Galois keys for row rotations by `steps` (and the column swap if `columns`); with
    /// `for_sum=True`, the keys `sum_slots` needs. Also registered for the ciphertext methods.
    #[pyo3(signature = (sk, steps=vec![1, -1], *, columns=true, for_sum=false))]
    fn galois_keys(
        &self,
        py: Python<'_>,
        sk: &PySecretKey,
        steps: Vec<i64>,
        columns: bool,
        for_sum: bool,
    ) -> PyResult<PyGaloisKeys> {
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
    /// Remaining noise budget in bits (0: the ciphertext no longer decrypts correctly).
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
    fn mul_scalar(&self, a: &PyBfvCiphertext, c: i64) -> PyResult<PyBfvCiphertext> {
        self.check(a)?;
        Ok(self.ct(self.ctx().mul_scalar(&a.ct, c).py()?))
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
        let k = self.rlk(rlk, "multiply")?;
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
        let k = self.rlk(rlk, "square")?;
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
        let k = self.rlk(rlk, "relinearize")?;
        self.unary(py, a, move |c, x| c.relinearize(x, &k))
    }
    /// Rotates both rows of the 2 x n/2 slot matrix left by `step` (right when negative).
    #[pyo3(signature = (a, step, keys=None))]
    fn rotate_rows(
        &self,
        py: Python<'_>,
        a: &PyBfvCiphertext,
        step: i64,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyBfvCiphertext> {
        let k = self.gk(keys, "rotate_rows")?;
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
        let k = self.gk(keys, "rotate_columns")?;
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
        let k = self.gk(keys, "sum_slots")?;
        self.unary(py, a, move |c, x| c.sum_slots(x, &k))
    }

    /// A ciphertext from `BfvCiphertext.to_bytes` output of this parameter set.
    fn ciphertext_from_bytes(&self, data: &[u8]) -> PyResult<PyBfvCiphertext> {
        Ok(self.ct(self.ctx().ciphertext_from_bytes(data).py()?))
    }
    /// A plaintext from `BfvPlaintext.to_bytes` output of this parameter set.
    fn plaintext_from_bytes(&self, data: &[u8]) -> PyResult<PyBfvPlaintext> {
        let pt = self.ctx().plaintext_from_bytes(data).py()?;
        Ok(PyBfvPlaintext {
            shared: self.shared.clone(),
            pt: Arc::new(pt),
        })
    }
    fn secret_key_from_bytes(&self, py: Python<'_>, data: &[u8]) -> PyResult<Py<PyAny>> {
        keys::load(py, self.owner(), "SecretKey", data)
    }
    fn public_key_from_bytes(&self, py: Python<'_>, data: &[u8]) -> PyResult<Py<PyAny>> {
        keys::load(py, self.owner(), "PublicKey", data)
    }
    fn relin_key_from_bytes(&self, py: Python<'_>, data: &[u8]) -> PyResult<Py<PyAny>> {
        keys::load(py, self.owner(), "RelinKey", data)
    }
    fn galois_keys_from_bytes(&self, py: Python<'_>, data: &[u8]) -> PyResult<Py<PyAny>> {
        keys::load(py, self.owner(), "GaloisKeys", data)
    }
    /// The context's parameter set as bytes (`BfvContext.from_bytes` rebuilds the context).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.shared.params_bytes)
    }
    /// The context of a parameter set's bytes (validated again, security included).
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Self::from_shared(shared(&BfvParameters::from_bytes(data).py()?)?)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "BfvContext", &self.shared.params_bytes, &[])
    }
    fn __repr__(&self) -> String {
        format!("BfvContext({})", self.shared.label)
    }
}

impl PyBfvContext {
    fn rlk(&self, k: Option<&PyRelinKey>, what: &str) -> PyResult<Arc<rnsfhe::rlwe::RelinKey>> {
        keys::relin_key(k, &self.owner(), &self.shared, what)
    }
    fn gk(&self, k: Option<&PyGaloisKeys>, what: &str) -> PyResult<Arc<rnsfhe::rlwe::GaloisKeys>> {
        keys::galois_keys(k, &self.owner(), &self.shared, what)
    }
    fn from_shared(shared: Arc<BfvShared>) -> PyResult<Self> {
        Ok(PyBfvContext {
            shared,
            rng: LockedRng::new(None)?,
        })
    }
}

/// A BFV plaintext (an element of R_t).
#[pyclass(frozen, module = "rnsfhe", name = "BfvPlaintext")]
pub(crate) struct PyBfvPlaintext {
    shared: Arc<BfvShared>,
    pt: Arc<Plaintext>,
}

#[pymethods]
impl PyBfvPlaintext {
    /// A plaintext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyBfvContext, data: &[u8]) -> PyResult<Self> {
        context.plaintext_from_bytes(data)
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
            .cast::<PyBfvPlaintext>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().pt == self.pt)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.plaintext_to_bytes(&self.pt).py()?;
        reduce(py, "BfvPlaintext", &self.shared.params_bytes, &b)
    }
    fn __repr__(&self) -> String {
        format!("BfvPlaintext({})", self.shared.label)
    }
}

/// A BFV ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, integers and integer
/// sequences, unary `-`, and `**` for small powers (products use the registered relinearisation key).
#[pyclass(frozen, module = "rnsfhe", name = "BfvCiphertext")]
pub(crate) struct PyBfvCiphertext {
    shared: Arc<BfvShared>,
    ct: Arc<Ciphertext>,
}

/// The largest exponent `**` accepts (each doubling costs one level of depth).
const MAX_POWER: u32 = 64;

impl PyBfvCiphertext {
    fn wrap(&self, ct: Ciphertext) -> PyBfvCiphertext {
        PyBfvCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    fn ctx(&self) -> &Arc<BfvContext> {
        &self.shared.ctx
    }
    /// The right operand of an operator as a ciphertext, a plaintext or an integer.
    fn operand(&self, other: &Bound<'_, PyAny>, op: &str) -> PyResult<Operand> {
        if let Ok(c) = other.cast::<PyBfvCiphertext>() {
            same(&c.get().shared, &self.shared, "ciphertext")?;
            return Ok(Operand::Ct(c.get().ct.clone()));
        }
        if let Ok(p) = other.cast::<PyBfvPlaintext>() {
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
            "unsupported operand for BfvCiphertext {op}: {} (use a BfvCiphertext, BfvPlaintext, int or \
             sequence of ints)",
            type_name(other)
        )))
    }
    /// The constant polynomial c, which is c in every slot.
    fn constant(&self, c: i64) -> PyResult<Plaintext> {
        self.ctx().encode_coefficients(&[c]).py()
    }
    fn multiply_by(&self, py: Python<'_>, b: &Ciphertext) -> PyResult<PyBfvCiphertext> {
        let k = self.shared.relin_key("ciphertext * ciphertext")?;
        let (ctx, a) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.multiply(&a, b, &k)).py()?))
    }
}

enum Operand {
    Ct(Arc<Ciphertext>),
    Pt(Arc<Plaintext>),
    Int(i64),
}

#[pymethods]
impl PyBfvCiphertext {
    /// A ciphertext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyBfvContext, data: &[u8]) -> PyResult<Self> {
        context.ciphertext_from_bytes(data)
    }
    /// Number of polynomials (2, or 3 after `multiply_no_relin`).
    #[getter]
    fn size(&self) -> usize {
        self.ct.size()
    }
    /// A context of this ciphertext's parameter set.
    #[getter]
    fn context(&self) -> PyResult<PyBfvContext> {
        PyBfvContext::from_shared(self.shared.clone())
    }
    /// The ciphertext in the rnsfhe binary format (a fresh symmetric encryption is half size).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.ctx().ciphertext_to_bytes(&self.ct).py()?,
        ))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let b = self.ctx().ciphertext_to_bytes(&self.ct).py()?;
        reduce(py, "BfvCiphertext", &self.shared.params_bytes, &b)
    }
    fn __repr__(&self) -> String {
        format!(
            "BfvCiphertext(size={}, {})",
            self.ct.size(),
            self.shared.label
        )
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
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
    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
        self.__add__(other)
    }
    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
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
    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
        let neg = self.wrap(self.ctx().negate(&self.ct).py()?);
        neg.__add__(other)
    }
    fn __neg__(&self) -> PyResult<PyBfvCiphertext> {
        Ok(self.wrap(self.ctx().negate(&self.ct).py()?))
    }
    fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
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
    fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyBfvCiphertext> {
        self.__mul__(py, other)
    }
    /// x ** k for 1 <= k <= 64 by square-and-multiply (depth ceil(log2 k)).
    fn __pow__(
        &self,
        py: Python<'_>,
        k: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBfvCiphertext> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Err(PyTypeError::new_err(
                "pow() with a modulus is not supported on ciphertexts",
            ));
        }
        let k = power(k)?;
        let key = self.shared.relin_key("ciphertext ** k")?;
        let ctx = self.ctx().clone();
        let x = self.ct.clone();
        let r = py.detach(|| -> rnsfhe::Result<Ciphertext> {
            let (mut acc, mut base, mut e) = (None::<Ciphertext>, (*x).clone(), k);
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
                base = ctx.square(&base, &key)?;
            }
            Ok(acc.unwrap_or(base))
        });
        Ok(self.wrap(r.py()?))
    }
    /// `ctx.rotate_rows(self, step)` with the registered Galois keys.
    fn rotate_rows(&self, py: Python<'_>, step: i64) -> PyResult<PyBfvCiphertext> {
        let k = self.shared.galois_keys("rotate_rows")?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.rotate_rows(&x, step, &k)).py()?))
    }
    /// `ctx.rotate_columns(self)` with the registered Galois keys.
    fn rotate_columns(&self, py: Python<'_>) -> PyResult<PyBfvCiphertext> {
        let k = self.shared.galois_keys("rotate_columns")?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.rotate_columns(&x, &k)).py()?))
    }
    /// `ctx.sum_slots(self)` with the registered Galois keys.
    fn sum_slots(&self, py: Python<'_>) -> PyResult<PyBfvCiphertext> {
        let k = self.shared.galois_keys("sum_slots")?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.sum_slots(&x, &k)).py()?))
    }
}

/// The exponent of `**`: an int in 1..=MAX_POWER.
pub(crate) fn power(k: &Bound<'_, PyAny>) -> PyResult<u32> {
    if !is_int(k) {
        return Err(PyTypeError::new_err(format!(
            "the exponent must be an int, got {}",
            type_name(k)
        )));
    }
    match k.extract::<i64>() {
        Ok(e) if (1..=i64::from(MAX_POWER)).contains(&e) => Ok(e as u32),
        _ => Err(PyValueError::new_err(format!(
            "the exponent must be between 1 and {MAX_POWER}, got {k}"
        ))),
    }
}

/// Rebuilds a pickled BFV object or key.
pub(crate) fn restore(
    py: Python<'_>,
    kind: &str,
    params: &[u8],
    data: &[u8],
) -> PyResult<Py<PyAny>> {
    let p = BfvParameters::from_bytes(params).py()?;
    if kind == "BfvParameters" {
        return Ok(Py::new(py, PyBfvParameters { inner: p })?.into_any());
    }
    let ctx = PyBfvContext::from_shared(shared(&p)?)?;
    Ok(match kind {
        "BfvContext" => Py::new(py, ctx)?.into_any(),
        "BfvCiphertext" => Py::new(py, ctx.ciphertext_from_bytes(data)?)?.into_any(),
        "BfvPlaintext" => Py::new(py, ctx.plaintext_from_bytes(data)?)?.into_any(),
        k => match k.strip_prefix("bfv:") {
            Some(class) => keys::load(py, ctx.owner(), class, data)?,
            None => {
                return Err(raise(
                    "SerializationError",
                    format!("unknown pickled class {kind:?}"),
                ))
            }
        },
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBfvParameters>()?;
    m.add_class::<PyBfvContext>()?;
    m.add_class::<PyBfvPlaintext>()?;
    m.add_class::<PyBfvCiphertext>()?;
    Ok(())
}
