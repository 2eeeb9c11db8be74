//! The Ckks parameter class.

use super::*;

/// CKKS parameters (paper 004): ring degree N, L levels of `scale_bits`-bit primes close to
/// 2^scale_bits (the approximate basis), q_0 of `first_modulus_bits`, special primes for key switching
/// (default, with `digit_primes` unset: 3 digits and as many 60-bit special primes as a digit has primes,
/// within the security bound; more digits where the bound needs it).
#[pyclass(frozen, module = "rnsfhe", name = "CkksParameters")]
pub(crate) struct PyCkksParameters {
    pub(crate) inner: CkksParameters,
}

#[pymethods]
impl PyCkksParameters {
    #[new]
    #[pyo3(signature = (degree=Int(16384), levels=Int(5), scale_bits=Int(40), *,
        first_modulus_bits=Int(60), special_moduli_bits=None, sigma=None, hamming_weight=None, digit_primes=None, security=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        degree: Int<usize>,
        levels: Int<usize>,
        scale_bits: Int<u32>,
        first_modulus_bits: Int<u32>,
        special_moduli_bits: Option<Vec<Int<u32>>>,
        sigma: Option<f64>,
        hamming_weight: Option<Int<usize>>,
        digit_primes: Option<Int<usize>>,
        security: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (degree, levels, scale_bits, first_modulus_bits) =
            (degree.0, levels.0, scale_bits.0, first_modulus_bits.0);
        let (hamming_weight, digit_primes) =
            (hamming_weight.map(|h| h.0), digit_primes.map(|d| d.0));
        let mut b = CkksParameters::builder()
            .degree(degree)
            .levels(levels)
            .scale_bits(scale_bits)
            .first_modulus_bits(first_modulus_bits)
            .security(crate::convert::security(security)?);
        if let Some(bits) = special_moduli_bits {
            b = b.special_moduli_bits(&ints(bits));
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
    fn from_bytes(data: ByteData) -> PyResult<Self> {
        let data = &data.0[..];
        Ok(PyCkksParameters {
            inner: CkksParameters::from_bytes(data).py()?,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyCkksParameters>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        bytes_out(py, &self.inner.to_bytes()).hash()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "CkksParameters", &self.inner.to_bytes(), &[])
    }
    fn __repr__(&self) -> String {
        label(&self.inner)
    }
}

pub(crate) fn label(p: &CkksParameters) -> String {
    format!(
        "CkksParameters(degree={}, levels={}, scale_bits={}, log_qp={:.1}, security={})",
        p.degree(),
        p.levels(),
        p.scale_bits(),
        p.log_qp(),
        security_out(p.security())
    )
}

pub(crate) fn shared(p: &CkksParameters) -> PyResult<Arc<CkksShared>> {
    let p2 = p.clone();
    CONTEXTS
        .get_or_make(p.to_bytes(), label(p), move || CkksContext::new(p2))
        .py()
}
