//! CKKS in Python: parameters, context (keys, encoding, encryption, operations, functions),
//! plaintexts and ciphertexts with operators that align levels and rescale.

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::ckks::{logistic, CkksCiphertext, CkksContext, CkksParameters, CkksPlaintext};
use rnsfhe::rlwe::{KeySwitching, SecretDistribution};

use crate::bfv::power;
use crate::convert::{
    complex_values, is_vector, real_scalar, security_out, slots_array, type_name, LockedRng,
};
use crate::keys::{self, CkksShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<CkksContext> = Registry::new();

/// CKKS parameters (paper 004): ring degree N, L levels of `scale_bits`-bit primes close to
/// 2^scale_bits (the approximate basis), q_0 of `first_modulus_bits`, special primes for key switching.
#[pyclass(frozen, module = "rnsfhe", name = "CkksParameters")]
pub(crate) struct PyCkksParameters {
    pub inner: CkksParameters,
}

#[pymethods]
impl PyCkksParameters {
    #[new]
    #[pyo3(signature = (degree=16384, levels=5, scale_bits=40, *, first_modulus_bits=60,
        special_moduli_bits=vec![60], sigma=None, hamming_weight=None, digit_primes=None, security=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        degree: usize,
        levels: usize,
        scale_bits: u32,
        first_modulus_bits: u32,
        special_moduli_bits: Vec<u32>,
        sigma: Option<f64>,
        hamming_weight: Option<usize>,
        digit_primes: Option<usize>,
        security: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut b = CkksParameters::builder()
            .degree(degree)
            .levels(levels)
            .scale_bits(scale_bits)
            .first_modulus_bits(first_modulus_bits)
            .special_moduli_bits(&special_moduli_bits)
            .security(crate::convert::security(security)?);
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
        Ok(PyCkksParameters {
            inner: b.build().py()?,
        })
    }

    #[getter]
    fn degree(&self) -> usize {
        self.inner.degree()
    }
    #[getter]
    fn levels(&self) -> usize {
        self.inner.levels()
    }
    #[getter]
    fn scale_bits(&self) -> u32 {
        self.inner.scale_bits()
    }
    /// The default scale Delta = 2^scale_bits.
    #[getter]
    fn scale(&self) -> f64 {
        self.inner.scale()
    }
    /// q_0, q_1, ..., q_L.
    #[getter]
    fn moduli(&self) -> Vec<u64> {
        self.inner.moduli().to_vec()
    }
    #[getter]
    fn special_moduli(&self) -> Vec<u64> {
        self.inner.special_moduli().to_vec()
    }
    /// The approximate basis' eta: |q_j / 2^scale_bits - 1| < 2^-eta.
    #[getter]
    fn eta(&self) -> u32 {
        self.inner.eta()
    }
    /// log2 of Q P, the quantity the security bound limits.
    #[getter]
    fn log_qp(&self) -> f64 {
        self.inner.log_qp()
    }
    /// 128, 192, 256 or "insecure".
    #[getter]
    fn security(&self) -> String {
        security_out(self.inner.security())
    }
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.inner.to_bytes())
    }
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyCkksParameters {
            inner: CkksParameters::from_bytes(data).py()?,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyCkksParameters>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "CkksParameters", &self.inner.to_bytes(), &[])
    }
    fn __repr__(&self) -> String {
        label(&self.inner)
    }
}

fn label(p: &CkksParameters) -> String {
    format!(
        "CkksParameters(degree={}, levels={}, scale_bits={}, log_qp={:.1}, security={})",
        p.degree(),
        p.levels(),
        p.scale_bits(),
        p.log_qp(),
        security_out(p.security())
    )
}

fn shared(p: &CkksParameters) -> PyResult<Arc<CkksShared>> {
    let p2 = p.clone();
    CONTEXTS
        .get_or_make(p.to_bytes(), label(p), move || CkksContext::new(p2))
        .py()
}

/// A CKKS context: keys, encoding of real or complex vectors, encryption, every operation and the
/// paper 004 functions. Contexts with equal parameters are interchangeable.
#[pyclass(frozen, module = "rnsfhe", name = "CkksContext")]
pub(crate) struct PyCkksContext {
    shared: Arc<CkksShared>,
    rng: LockedRng,
}

impl PyCkksContext {
    pub(crate) fn owner(&self) -> Owner {
        Owner::Ckks(self.shared.clone())
    }
    fn ctx(&self) -> &Arc<CkksContext> {
        &self.shared.ctx
    }
    fn wrap(&self, ct: CkksCiphertext) -> PyCkksCiphertext {
        PyCkksCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    fn check(&self, c: &PyCkksCiphertext) -> PyResult<Arc<CkksCiphertext>> {
        same(&c.shared, &self.shared, "ciphertext")?;
        Ok(c.ct.clone())
    }
    /// A plaintext given, or values encoded at `level` and `scale`.
    fn plain_at(
        &self,
        x: &Bound<'_, PyAny>,
        level: usize,
        scale: f64,
    ) -> PyResult<Arc<CkksPlaintext>> {
        if let Ok(p) = x.cast::<PyCkksPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(p.get().pt.clone());
        }
        let v = complex_values(x)?;
        Ok(Arc::new(self.ctx().encode_at(&v, level, scale).py()?))
    }
    fn rlk(&self, k: Option<&PyRelinKey>, what: &str) -> PyResult<Arc<rnsfhe::rlwe::RelinKey>> {
        keys::relin_key(k, &self.owner(), &self.shared, what)
    }
    fn gk(&self, k: Option<&PyGaloisKeys>, what: &str) -> PyResult<Arc<rnsfhe::rlwe::GaloisKeys>> {
        keys::galois_keys(k, &self.owner(), &self.shared, what)
    }
    fn from_shared(shared: Arc<CkksShared>) -> PyResult<Self> {
        Ok(PyCkksContext {
            shared,
            rng: LockedRng::new(None)?,
        })
    }
    /// Runs `f` on the context and one ciphertext without the GIL.
    fn unary(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        f: impl FnOnce(&CkksContext, &CkksCiphertext) -> rnsfhe::Result<CkksCiphertext> + Send,
    ) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        let ctx = self.ctx().clone();
        Ok(self.wrap(py.detach(|| f(&ctx, &x)).py()?))
    }
}

#[pymethods]
impl PyCkksContext {
    #[new]
    #[pyo3(signature = (params=None, *, seed=None))]
    fn new(params: Option<&PyCkksParameters>, seed: Option<&[u8]>) -> PyResult<Self> {
        let p = match params {
            Some(p) => p.inner.clone(),
            None => CkksParameters::builder()
                .degree(1 << 14)
                .levels(5)
                .build()
                .py()?,
        };
        Ok(PyCkksContext {
            shared: shared(&p)?,
            rng: LockedRng::new(seed)?,
        })
    }

    #[getter]
    fn params(&self) -> PyCkksParameters {
        PyCkksParameters {
            inner: self.ctx().params().clone(),
        }
    }
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
    /// The relinearisation key; also registered for `*` and `**`.
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
    /// Rotation keys for `steps` (default: every power of two below N/2, enough for `sum_slots`,
    /// `mean` and `variance`) and the conjugation key if `conjugation`. Also registered.
    #[pyo3(signature = (sk, steps=None, *, conjugation=false))]
    fn galois_keys(
        &self,
        py: Python<'_>,
        sk: &PySecretKey,
        steps: Option<Vec<i64>>,
        conjugation: bool,
    ) -> PyResult<PyGaloisKeys> {
        let s = sk.get(&self.owner())?;
        let steps = steps.unwrap_or_else(|| {
            let slots = self.ctx().slots() as i64;
            (0..)
                .map(|i| 1i64 << i)
                .take_while(|&x| x < slots)
                .collect()
        });
        let ctx = self.ctx().clone();
        let k = py
            .detach(|| {
                self.rng
                    .with(|r| ctx.galois_keys(&s, &steps, conjugation, r))
            })
            .py()?;
        let k = Arc::new(k);
        self.shared.set_galois_keys(k.clone());
        Ok(PyGaloisKeys {
            owner: self.owner(),
            key: k,
        })
    }
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

    /// Encodes up to N/2 real or complex values (finite) at `level` (default: the top) and `scale`
    /// (default: 2^scale_bits).
    #[pyo3(signature = (values, *, level=None, scale=None))]
    fn encode(
        &self,
        values: &Bound<'_, PyAny>,
        level: Option<usize>,
        scale: Option<f64>,
    ) -> PyResult<PyCkksPlaintext> {
        let v = complex_values(values)?;
        let level = level.unwrap_or(self.ctx().max_level());
        let scale = scale.unwrap_or(self.ctx().params().scale());
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
    /// Encrypts a plaintext or values with a `PublicKey` or a `SecretKey` (symmetric).
    fn encrypt(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<PyCkksCiphertext> {
        let pt = self.plain_at(x, self.ctx().max_level(), self.ctx().params().scale())?;
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
        Ok(self.wrap(ct.py()?))
    }
    fn decrypt_plaintext(
        &self,
        py: Python<'_>,
        ct: &PyCkksCiphertext,
        sk: &PySecretKey,
    ) -> PyResult<PyCkksPlaintext> {
        let c = self.check(ct)?;
        let s = sk.get(&self.owner())?;
        let ctx = self.ctx().clone();
        let pt = py.detach(|| ctx.decrypt(&c, &s)).py()?;
        Ok(PyCkksPlaintext {
            shared: self.shared.clone(),
            pt: Arc::new(pt),
        })
    }
    /// Decrypts and decodes: the ciphertext's slots (the encoded length rounded up to a power of
    /// two) as float64 real parts, or complex128 with `complex=True`.
    #[pyo3(signature = (ct, sk, *, complex=false))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ct: &PyCkksCiphertext,
        sk: &PySecretKey,
        complex: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pt = self.decrypt_plaintext(py, ct, sk)?;
        self.decode(py, &pt, complex)
    }

    fn add(&self, a: &PyCkksCiphertext, b: &PyCkksCiphertext) -> PyResult<PyCkksCiphertext> {
        let (x, y) = (self.check(a)?, self.check(b)?);
        Ok(self.wrap(self.ctx().add(&x, &y).py()?))
    }
    fn sub(&self, a: &PyCkksCiphertext, b: &PyCkksCiphertext) -> PyResult<PyCkksCiphertext> {
        let (x, y) = (self.check(a)?, self.check(b)?);
        Ok(self.wrap(self.ctx().sub(&x, &y).py()?))
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
    /// a * m without rescaling (the scale multiplies); values are encoded at the default scale.
    fn mul_plain(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        m: &Bound<'_, PyAny>,
    ) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        let p = self.plain_at(m, x.level(), self.ctx().params().scale())?;
        let ctx = self.ctx().clone();
        Ok(self.wrap(py.detach(|| ctx.mul_plain(&x, &p)).py()?))
    }
    /// a + c for a real constant c.
    fn add_const(&self, a: &PyCkksCiphertext, c: f64) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        Ok(self.wrap(self.ctx().add_const(&x, c).py()?))
    }
    /// a * c for a real constant c, rescaled back to a's scale (uses one level).
    fn mul_const(&self, a: &PyCkksCiphertext, c: f64) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        Ok(self.wrap(self.ctx().mul_const_rescale_to(&x, c, x.scale()).py()?))
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
        let k = self.rlk(rlk, "multiply")?;
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
    /// a * b without relinearisation (3 parts, not rescaled).
    fn multiply_no_relin(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        b: &PyCkksCiphertext,
    ) -> PyResult<PyCkksCiphertext> {
        let (x, y) = (self.check(a)?, self.check(b)?);
        let ctx = self.ctx().clone();
        Ok(self.wrap(py.detach(|| ctx.multiply_no_relin(&x, &y)).py()?))
    }
    #[pyo3(signature = (a, rlk=None))]
    fn relinearize(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.rlk(rlk, "relinearize")?;
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
    /// The same values at a lower level (no rescaling).
    fn drop_to_level(&self, a: &PyCkksCiphertext, level: usize) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        Ok(self.wrap(self.ctx().drop_to_level(&x, level).py()?))
    }
    /// Rotates the slots left by `step` (right when negative).
    #[pyo3(signature = (a, step, keys=None))]
    fn rotate(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        step: i64,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.gk(keys, "rotate")?;
        self.unary(py, a, move |c, x| c.rotate(x, step, &k))
    }
    /// Complex conjugation of every slot (needs `galois_keys(..., conjugation=True)`).
    #[pyo3(signature = (a, keys=None))]
    fn conjugate(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.gk(keys, "conjugate")?;
        self.unary(py, a, move |c, x| c.conjugate(x, &k))
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
        let k = self.rlk(rlk, "polynomial")?;
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
                c.evaluate_polynomial_bsgs(x, &coeffs, &k)
            } else {
                c.evaluate_polynomial(x, &coeffs, &k)
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
        degree: usize,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.rlk(rlk, "chebyshev")?;
        // Sample f at the nodes with the GIL held; the evaluation asks for the same nodes.
        let x = self.check(a)?;
        let ctx = self.ctx().clone();
        let table: Vec<(f64, f64)> = chebyshev_samples(f, lo, hi, degree)?;
        let r =
            py.detach(|| ctx.evaluate_chebyshev(&x, |t| lookup(&table, t), (lo, hi), degree, &k));
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
        let k = self.rlk(rlk, "exp")?;
        self.unary(py, a, move |c, x| c.exp(x, &k))
    }
    /// The logistic function by its Taylor polynomial of degree 7 (paper 004 Table 2).
    #[pyo3(signature = (a, rlk=None))]
    fn sigmoid(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.rlk(rlk, "sigmoid")?;
        self.unary(py, a, move |c, x| c.sigmoid(x, &k))
    }
    /// 1/x for x in (0, 2) by `iterations` steps of [12] Alg. 2 (paper 004 Table 2).
    #[pyo3(signature = (a, iterations=4, rlk=None))]
    fn inverse(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        iterations: usize,
        rlk: Option<&PyRelinKey>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.rlk(rlk, "inverse")?;
        self.unary(py, a, move |c, x| c.inverse(x, iterations, &k))
    }
    /// Every slot of the first `count` (a power of two, default all) set to their sum.
    #[pyo3(signature = (a, count=None, keys=None))]
    fn sum_slots(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        count: Option<usize>,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.gk(keys, "sum_slots")?;
        let n = count.unwrap_or(a.ct.slots());
        self.unary(py, a, move |c, x| c.sum_slots(x, n, &k))
    }
    /// The mean of the first `count` slots (paper 004 Table 3), in every slot.
    #[pyo3(signature = (a, count=None, keys=None))]
    fn mean(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        count: Option<usize>,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyCkksCiphertext> {
        let k = self.gk(keys, "mean")?;
        let n = count.unwrap_or(a.ct.slots());
        self.unary(py, a, move |c, x| c.mean(x, n, &k))
    }
    /// The variance of the first `count` slots (paper 004 Table 3), in every slot.
    #[pyo3(signature = (a, count=None, rlk=None, keys=None))]
    fn variance(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        count: Option<usize>,
        rlk: Option<&PyRelinKey>,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyCkksCiphertext> {
        let r = self.rlk(rlk, "variance")?;
        let k = self.gk(keys, "variance")?;
        let n = count.unwrap_or(a.ct.slots());
        self.unary(py, a, move |c, x| c.variance(x, n, &r, &k))
    }

    /// Logistic-regression training on encrypted data (paper 004 section 5.3, Nesterov's accelerated
    /// gradient): `z` encrypts `rnsfhe.logistic.pack(x, y)` (samples x features, bias included);
    /// returns the encrypted weights (slot j holds beta_j). Needs 6 levels per iteration plus one and
    /// the rotation keys of `rnsfhe.logistic.rotation_steps(samples, features)`.
    #[pyo3(signature = (z, samples, features, iterations, rlk=None, keys=None))]
    #[allow(clippy::too_many_arguments)]
    fn train_logistic(
        &self,
        py: Python<'_>,
        z: &PyCkksCiphertext,
        samples: usize,
        features: usize,
        iterations: usize,
        rlk: Option<&PyRelinKey>,
        keys: Option<&PyGaloisKeys>,
    ) -> PyResult<PyCkksCiphertext> {
        let r = self.rlk(rlk, "train_logistic")?;
        let k = self.gk(keys, "train_logistic")?;
        self.unary(py, z, move |c, x| {
            c.train_logistic(x, samples, features, iterations, &r, &k)
        })
    }
    fn ciphertext_from_bytes(&self, data: &[u8]) -> PyResult<PyCkksCiphertext> {
        Ok(self.wrap(self.ctx().ciphertext_from_bytes(data).py()?))
    }
    fn plaintext_from_bytes(&self, data: &[u8]) -> PyResult<PyCkksPlaintext> {
        let pt = self.ctx().plaintext_from_bytes(data).py()?;
        Ok(PyCkksPlaintext {
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
    /// The context's parameter set as bytes (`CkksContext.from_bytes` rebuilds the context).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.shared.params_bytes)
    }
    /// The context of a parameter set's bytes (validated again, security included).
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Self::from_shared(shared(&CkksParameters::from_bytes(data).py()?)?)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "CkksContext", &self.shared.params_bytes, &[])
    }
    fn __repr__(&self) -> String {
        format!("CkksContext({})", self.shared.label)
    }
}

/// f at the Chebyshev nodes of [lo, hi] (the same nodes `chebyshev_coefficients` samples).
fn chebyshev_samples(
    f: &Bound<'_, PyAny>,
    lo: f64,
    hi: f64,
    d: usize,
) -> PyResult<Vec<(f64, f64)>> {
    let nodes = std::cell::RefCell::new(Vec::new());
    // Record the points the interpolation asks for, then ask Python for the values.
    let _ = CkksContext::chebyshev_coefficients(
        |x| {
            nodes.borrow_mut().push(x);
            0.0
        },
        lo,
        hi,
        d,
    );
    nodes
        .into_inner()
        .into_iter()
        .map(|x| {
            let y: f64 = f.call1((x,))?.extract().map_err(|_| {
                PyTypeError::new_err(format!("f({x}) did not return a real number"))
            })?;
            if y.is_finite() {
                Ok((x, y))
            } else {
                Err(raise(
                    "OutOfRangeError",
                    format!("f({x}) = {y} is not finite"),
                ))
            }
        })
        .collect()
}

/// The recorded value of f at a node (nodes are recomputed identically, so the match is exact).
fn lookup(table: &[(f64, f64)], x: f64) -> f64 {
    table
        .iter()
        .find(|(t, _)| *t == x)
        .map_or(f64::NAN, |&(_, y)| y)
}

/// A CKKS plaintext: an encoding of slots at a level and a scale.
#[pyclass(frozen, module = "rnsfhe", name = "CkksPlaintext")]
pub(crate) struct PyCkksPlaintext {
    shared: Arc<CkksShared>,
    pt: Arc<CkksPlaintext>,
}

#[pymethods]
impl PyCkksPlaintext {
    /// A plaintext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyCkksContext, data: &[u8]) -> PyResult<Self> {
        context.plaintext_from_bytes(data)
    }
    #[getter]
    fn level(&self) -> usize {
        self.pt.level()
    }
    #[getter]
    fn scale(&self) -> f64 {
        self.pt.scale()
    }
    #[getter]
    fn slots(&self) -> usize {
        self.pt.slots()
    }
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.shared.ctx.plaintext_to_bytes(&self.pt).py()?,
        ))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.plaintext_to_bytes(&self.pt).py()?;
        reduce(py, "CkksPlaintext", &self.shared.params_bytes, &b)
    }
    fn __repr__(&self) -> String {
        format!(
            "CkksPlaintext(level={}, scale=2^{:.2}, slots={})",
            self.pt.level(),
            self.pt.scale().log2(),
            self.pt.slots()
        )
    }
}

/// A CKKS ciphertext. Operators: `+ - *` with ciphertexts (levels aligned by dropping the higher
/// one), plaintexts, real numbers and sequences; products are relinearised (registered key) and
/// rescaled; unary `-`; `**` for small powers.
#[pyclass(frozen, module = "rnsfhe", name = "CkksCiphertext")]
pub(crate) struct PyCkksCiphertext {
    shared: Arc<CkksShared>,
    ct: Arc<CkksCiphertext>,
}

enum Operand {
    Ct(Arc<CkksCiphertext>),
    Pt(Arc<CkksPlaintext>),
    Real(f64),
    Values(Vec<rnsfhe::ckks::Complex>),
}

impl PyCkksCiphertext {
    fn wrap(&self, ct: CkksCiphertext) -> PyCkksCiphertext {
        PyCkksCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    fn ctx(&self) -> &Arc<CkksContext> {
        &self.shared.ctx
    }
    fn operand(&self, other: &Bound<'_, PyAny>, op: &str) -> PyResult<Operand> {
        if let Ok(c) = other.cast::<PyCkksCiphertext>() {
            same(&c.get().shared, &self.shared, "ciphertext")?;
            return Ok(Operand::Ct(c.get().ct.clone()));
        }
        if let Ok(p) = other.cast::<PyCkksPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(Operand::Pt(p.get().pt.clone()));
        }
        if let Some(c) = real_scalar(other) {
            if !c.is_finite() {
                return Err(raise(
                    "OutOfRangeError",
                    format!("constant {c} is not finite"),
                ));
            }
            return Ok(Operand::Real(c));
        }
        if is_vector(other) {
            return Ok(Operand::Values(complex_values(other)?));
        }
        Err(PyTypeError::new_err(format!(
            "unsupported operand for CkksCiphertext {op}: {} (use a CkksCiphertext, CkksPlaintext, \
             real number or sequence of numbers)",
            type_name(other)
        )))
    }
    /// Both at the lower of the two levels. The higher one is brought down by a rescale of a product
    /// with 1 whose constant gives it exactly the other's scale (the primes are only close to the
    /// scale, so scales drift apart); this costs nothing the level drop did not already give up.
    fn aligned(
        ctx: &CkksContext,
        a: &Arc<CkksCiphertext>,
        b: &Arc<CkksCiphertext>,
    ) -> rnsfhe::Result<(Arc<CkksCiphertext>, Arc<CkksCiphertext>)> {
        let down = |hi: &Arc<CkksCiphertext>, lo: &Arc<CkksCiphertext>| {
            let x = ctx.drop_to_level(hi, lo.level() + 1)?;
            ctx.mul_const_rescale_to(&x, 1.0, lo.scale()).map(Arc::new)
        };
        Ok(match a.level().cmp(&b.level()) {
            std::cmp::Ordering::Equal => (a.clone(), b.clone()),
            std::cmp::Ordering::Greater => (down(a, b)?, b.clone()),
            std::cmp::Ordering::Less => (a.clone(), down(b, a)?),
        })
    }
    fn add_or_sub(&self, other: &Bound<'_, PyAny>, sub: bool) -> PyResult<PyCkksCiphertext> {
        let ctx = self.ctx();
        let a = &self.ct;
        let r = match self.operand(other, if sub { "-" } else { "+" })? {
            Operand::Ct(b) => {
                let (x, y) = Self::aligned(ctx, a, &b).py()?;
                if sub {
                    ctx.sub(&x, &y)
                } else {
                    ctx.add(&x, &y)
                }
            }
            Operand::Pt(p) => {
                if sub {
                    ctx.sub_plain(a, &p)
                } else {
                    ctx.add_plain(a, &p)
                }
            }
            Operand::Real(c) => ctx.add_const(a, if sub { -c } else { c }),
            Operand::Values(v) => {
                let p = ctx.encode_at(&v, a.level(), a.scale()).py()?;
                if sub {
                    ctx.sub_plain(a, &p)
                } else {
                    ctx.add_plain(a, &p)
                }
            }
        };
        Ok(self.wrap(r.py()?))
    }
}

#[pymethods]
impl PyCkksCiphertext {
    /// A ciphertext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyCkksContext, data: &[u8]) -> PyResult<Self> {
        context.ciphertext_from_bytes(data)
    }
    /// Levels left (rescalings still possible).
    #[getter]
    fn level(&self) -> usize {
        self.ct.level()
    }
    #[getter]
    fn scale(&self) -> f64 {
        self.ct.scale()
    }
    #[getter]
    fn slots(&self) -> usize {
        self.ct.slots()
    }
    #[getter]
    fn size(&self) -> usize {
        self.ct.size()
    }
    #[getter]
    fn context(&self) -> PyResult<PyCkksContext> {
        PyCkksContext::from_shared(self.shared.clone())
    }
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.ctx().ciphertext_to_bytes(&self.ct).py()?,
        ))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let b = self.ctx().ciphertext_to_bytes(&self.ct).py()?;
        reduce(py, "CkksCiphertext", &self.shared.params_bytes, &b)
    }
    fn __repr__(&self) -> String {
        format!(
            "CkksCiphertext(level={}, scale=2^{:.2}, slots={}, size={})",
            self.ct.level(),
            self.ct.scale().log2(),
            self.ct.slots(),
            self.ct.size()
        )
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
        self.add_or_sub(other, false)
    }
    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
        self.add_or_sub(other, false)
    }
    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
        self.add_or_sub(other, true)
    }
    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
        self.__neg__()?.add_or_sub(other, false)
    }
    fn __neg__(&self) -> PyResult<PyCkksCiphertext> {
        let mut x = (*self.ct).clone();
        self.ctx().negate_assign(&mut x).py()?;
        Ok(self.wrap(x))
    }
    fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
        let ctx = self.ctx().clone();
        let a = self.ct.clone();
        let r = match self.operand(other, "*")? {
            Operand::Ct(b) => {
                let k = self.shared.relin_key("ciphertext * ciphertext")?;
                py.detach(|| {
                    let (x, y) = Self::aligned(&ctx, &a, &b)?;
                    ctx.multiply_rescale(&x, &y, &k)
                })
            }
            Operand::Pt(p) => py.detach(|| ctx.rescale(&ctx.mul_plain(&a, &p)?)),
            Operand::Real(c) => ctx.mul_const_rescale_to(&a, c, a.scale()),
            Operand::Values(v) => {
                // Encoded at scale q_level, so the rescaled product keeps a's scale exactly.
                let q = ctx.params().moduli().get(a.level()).copied().unwrap_or(1) as f64;
                let p = ctx.encode_at(&v, a.level(), q).py()?;
                py.detach(|| ctx.rescale(&ctx.mul_plain(&a, &p)?))
            }
        };
        Ok(self.wrap(r.py()?))
    }
    fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyCkksCiphertext> {
        self.__mul__(py, other)
    }
    /// x ** k for 1 <= k <= 64 by square-and-multiply (ceil(log2 k) + popcount levels at most).
    fn __pow__(
        &self,
        py: Python<'_>,
        k: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyCkksCiphertext> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Err(PyTypeError::new_err(
                "pow() with a modulus is not supported on ciphertexts",
            ));
        }
        let k = power(k)?;
        let key = self.shared.relin_key("ciphertext ** k")?;
        let ctx = self.ctx().clone();
        let x = self.ct.clone();
        let r = py.detach(|| -> rnsfhe::Result<CkksCiphertext> {
            let (mut acc, mut base, mut e) = (None::<Arc<CkksCiphertext>>, x, k);
            loop {
                if e & 1 == 1 {
                    acc = Some(match acc {
                        None => base.clone(),
                        Some(a) => {
                            let (p, q) = Self::aligned(&ctx, &a, &base)?;
                            Arc::new(ctx.multiply_rescale(&p, &q, &key)?)
                        }
                    });
                }
                e >>= 1;
                if e == 0 {
                    break;
                }
                base = Arc::new(ctx.multiply_rescale(&base, &base, &key)?);
            }
            Ok((*acc.unwrap_or(base)).clone())
        });
        Ok(self.wrap(r.py()?))
    }
    /// RS by the top prime.
    fn rescale(&self, py: Python<'_>) -> PyResult<PyCkksCiphertext> {
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.rescale(&x)).py()?))
    }
    /// Rotates the slots left by `step` with the registered Galois keys.
    fn rotate(&self, py: Python<'_>, step: i64) -> PyResult<PyCkksCiphertext> {
        let k = self.shared.galois_keys("rotate")?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.rotate(&x, step, &k)).py()?))
    }
    /// Conjugates every slot with the registered Galois keys.
    fn conjugate(&self, py: Python<'_>) -> PyResult<PyCkksCiphertext> {
        let k = self.shared.galois_keys("conjugate")?;
        let (ctx, x) = (self.ctx().clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.conjugate(&x, &k)).py()?))
    }
}

pub(crate) fn restore(
    py: Python<'_>,
    kind: &str,
    params: &[u8],
    data: &[u8],
) -> PyResult<Py<PyAny>> {
    let p = CkksParameters::from_bytes(params).py()?;
    if kind == "CkksParameters" {
        return Ok(Py::new(py, PyCkksParameters { inner: p })?.into_any());
    }
    let ctx = PyCkksContext::from_shared(shared(&p)?)?;
    Ok(match kind {
        "CkksContext" => Py::new(py, ctx)?.into_any(),
        "CkksCiphertext" => Py::new(py, ctx.ciphertext_from_bytes(data)?)?.into_any(),
        "CkksPlaintext" => Py::new(py, ctx.plaintext_from_bytes(data)?)?.into_any(),
        k => match k.strip_prefix("ckks:") {
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

/// The rotation steps `CkksContext.train_logistic` needs for `samples` x `features`.
#[pyfunction]
fn logistic_rotation_steps(samples: usize, features: usize) -> Vec<i64> {
    let (r, f) = logistic::layout(samples, features);
    logistic::rotation_steps(r, f)
}

/// The same training in floating point (the reference the encrypted run follows): the weights.
#[pyfunction]
fn logistic_train_plain(z: Vec<Vec<f64>>, iterations: usize) -> Vec<f64> {
    logistic::train_plain(&z, iterations)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(logistic_rotation_steps, m)?)?;
    m.add_function(wrap_pyfunction!(logistic_train_plain, m)?)?;
    m.add(
        "LOGISTIC_LEVELS_PER_ITERATION",
        logistic::LEVELS_PER_ITERATION,
    )?;
    m.add_class::<PyCkksParameters>()?;
    m.add_class::<PyCkksContext>()?;
    m.add_class::<PyCkksPlaintext>()?;
    m.add_class::<PyCkksCiphertext>()?;
    Ok(())
}
