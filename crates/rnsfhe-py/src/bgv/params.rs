//! The Bgv parameter class.

use super::*;

/// BGV parameters: ring degree n, plaintext modulus t, the modulus chain q_0..q_L (each prime = 1 mod
/// 2n and = 1 mod t; chosen for the security level unless given) and special moduli.
#[pyclass(frozen, module = "rnsfhe", name = "BgvParameters")]
pub(crate) struct PyBgvParameters {
    pub(crate) inner: BgvParameters,
}

#[pymethods]
impl PyBgvParameters {
    #[new]
    #[pyo3(signature = (degree=Int(8192), plain_modulus=Int(65537), *, moduli=None, moduli_bits=None,
        special_moduli=None, special_moduli_bits=None, sigma=None, hamming_weight=None,
        digit_primes=None, security=None,
        cyclotomic_index=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        degree: Int<usize>,
        plain_modulus: Int<u64>,
        moduli: Option<Vec<Int<u64>>>,
        moduli_bits: Option<Vec<Int<u32>>>,
        special_moduli: Option<Vec<Int<u64>>>,
        special_moduli_bits: Option<Vec<Int<u32>>>,
        sigma: Option<f64>,
        hamming_weight: Option<Int<usize>>,
        digit_primes: Option<Int<usize>>,
        security: Option<&Bound<'_, PyAny>>,
        cyclotomic_index: Option<Int<usize>>,
    ) -> PyResult<Self> {
        let mut b = BgvParameters::builder()
            .degree(degree.0)
            .plain_modulus(plain_modulus.0)
            .security(crate::convert::security(security)?);
        if let Some(m) = cyclotomic_index {
            b = b.cyclotomic_index(m.0);
        }
        if let Some(q) = moduli {
            b = b.moduli(&ints(q));
        }
        if let Some(bits) = moduli_bits {
            b = b.moduli_bits(&ints(bits));
        }
        if let Some(p) = special_moduli {
            b = b.special_moduli(&ints(p));
        }
        if let Some(bits) = special_moduli_bits {
            b = b.special_moduli_bits(&ints(bits));
        }
        if let Some(s) = sigma {
            b = b.sigma(s);
        }
        if let Some(h) = hamming_weight {
            b = b.secret(SecretDistribution::HammingWeight(h.0));
        }
        if let Some(d) = digit_primes {
            b = b.key_switching(KeySwitching {
                digit_primes: d.0,
                ..KeySwitching::default()
            });
        }
        Ok(PyBgvParameters {
            inner: b.build().py()?,
        })
    }

    #[getter]
    fn degree(&self) -> usize {
        self.inner.degree()
    }
    #[getter]
    fn plain_modulus(&self) -> u64 {
        self.inner.plain_modulus()
    }
    /// The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1).
    #[getter]
    fn cyclotomic_index(&self) -> usize {
        self.inner.cyclotomic_index()
    }
    /// The chain q_0..q_L (level l has q_0..q_l).
    #[getter]
    fn moduli(&self) -> Vec<u64> {
        self.inner.moduli().to_vec()
    }
    #[getter]
    fn special_moduli(&self) -> Vec<u64> {
        self.inner.special_moduli().to_vec()
    }
    /// The top level L (fresh ciphertexts; each modulus switch goes one down).
    #[getter]
    fn max_level(&self) -> usize {
        self.inner.max_level()
    }
    /// log2 of Q = prod q_i at the top level.
    #[getter]
    fn log_q(&self) -> f64 {
        self.inner.log_q()
    }
    /// Batching slots (n when t is a prime = 1 mod 2n, else 0).
    #[getter]
    fn slots(&self) -> usize {
        self.inner.batching_slots()
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
    fn from_bytes(data: ByteData) -> PyResult<Self> {
        Ok(PyBgvParameters {
            inner: BgvParameters::from_bytes(&data.0).py()?,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBgvParameters>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        bytes_out(py, &self.inner.to_bytes()).hash()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "BgvParameters", &self.inner.to_bytes(), &[])
    }
    fn __repr__(&self) -> String {
        label(&self.inner)
    }
}

pub(crate) fn label(p: &BgvParameters) -> String {
    let m = if p.is_general_cyclotomic() {
        format!("cyclotomic_index={}, ", p.cyclotomic_index())
    } else {
        String::new()
    };
    format!(
        "BgvParameters({m}degree={}, plain_modulus={}, log_q={:.1}, moduli={}, security={})",
        p.degree(),
        p.plain_modulus(),
        p.log_q(),
        p.moduli().len(),
        security_out(p.security()),
    )
}

/// The shared context of a parameter set (one per set while any object uses it).
pub(crate) fn shared(p: &BgvParameters) -> PyResult<Arc<BgvShared>> {
    let p2 = p.clone();
    CONTEXTS
        .get_or_make(p.to_bytes(), label(p), move || BgvContext::new(p2))
        .py()
}
