//! The Bfv parameter class.

use super::*;

pub(crate) fn multiplication(name: &str) -> PyResult<Multiplication> {
    match name {
        "hps" => Ok(Multiplication::Hps),
        "behz" => Ok(Multiplication::Behz),
        _ => Err(raise(
            "ParameterError",
            format!("multiplication must be \"hps\" or \"behz\", got {name:?}"),
        )),
    }
}

pub(crate) fn decryption(name: &str) -> PyResult<Decryption> {
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

pub(crate) fn decryption_name(d: Decryption) -> &'static str {
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
    pub(crate) inner: BfvParameters,
}

#[pymethods]
impl PyBfvParameters {
    #[new]
    #[pyo3(signature = (degree=Int(8192), plain_modulus=Int(65537), *, moduli=None, moduli_bits=None,
        special_moduli=None, special_moduli_bits=None, multiplication="hps", decryption=None,
        m_tilde=Some(Int(65536)), sigma=None, hamming_weight=None, digit_primes=None, security=None,
        cyclotomic_index=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        degree: Int<usize>,
        plain_modulus: Int<u64>,
        moduli: Option<Vec<Int<u64>>>,
        moduli_bits: Option<Vec<Int<u32>>>,
        special_moduli: Option<Vec<Int<u64>>>,
        special_moduli_bits: Option<Vec<Int<u32>>>,
        multiplication: &str,
        decryption: Option<&str>,
        m_tilde: Option<Int<u64>>,
        sigma: Option<f64>,
        hamming_weight: Option<Int<usize>>,
        digit_primes: Option<Int<usize>>,
        security: Option<&Bound<'_, PyAny>>,
        cyclotomic_index: Option<Int<usize>>,
    ) -> PyResult<Self> {
        let (degree, plain_modulus, m_tilde) = (degree.0, plain_modulus.0, m_tilde.map(|m| m.0));
        let (moduli, moduli_bits) = (moduli.map(ints), moduli_bits.map(ints));
        let (special_moduli, special_moduli_bits) =
            (special_moduli.map(ints), special_moduli_bits.map(ints));
        let (hamming_weight, digit_primes) =
            (hamming_weight.map(|h| h.0), digit_primes.map(|d| d.0));
        let mut b = BfvParameters::builder()
            .degree(degree)
            .plain_modulus(plain_modulus)
            .multiplication(self::multiplication(multiplication)?)
            .m_tilde(m_tilde)
            .security(crate::convert::security(security)?);
        if let Some(m) = cyclotomic_index {
            b = b.cyclotomic_index(m.0);
        }
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
    fn paper000(
        degree: Int<usize>,
        k: Int<usize>,
        bits: Int<u32>,
        plain_modulus: Int<u64>,
    ) -> PyResult<Self> {
        let inner = BfvParameters::paper000(degree.0, k.0, bits.0, plain_modulus.0)
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
    /// The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1).
    #[getter]
    fn cyclotomic_index(&self) -> usize {
        self.inner.cyclotomic_index()
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
    fn from_bytes(data: ByteData) -> PyResult<Self> {
        let data = &data.0[..];
        Ok(PyBfvParameters {
            inner: BfvParameters::from_bytes(data).py()?,
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBfvParameters>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        bytes_out(py, &self.inner.to_bytes()).hash()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        reduce(py, "BfvParameters", &self.inner.to_bytes(), &[])
    }
    fn __repr__(&self) -> String {
        label(&self.inner)
    }
}

pub(crate) fn label(p: &BfvParameters) -> String {
    let m = if p.is_general_cyclotomic() {
        format!("cyclotomic_index={}, ", p.cyclotomic_index())
    } else {
        String::new()
    };
    format!(
        "BfvParameters({m}degree={}, plain_modulus={}, log_q={:.1}, moduli={}, multiplication={:?}, security={})",
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
pub(crate) fn shared(p: &BfvParameters) -> PyResult<Arc<BfvShared>> {
    let p2 = p.clone();
    CONTEXTS
        .get_or_make(p.to_bytes(), label(p), move || BfvContext::new(p2))
        .py()
}
