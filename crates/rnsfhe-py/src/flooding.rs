//! `rnsfhe.Flooding`: the noise flooding of a decryption (`rnsfhe::rlwe::Flooding`), for
//! `CkksContext.decrypt(..., flood=...)`. Its sigma = 2^(lambda/2) sqrt(n D) 2^noise_log2 needs
//! the ring degree n, which the context supplies when the flooding was made without one.

use pyo3::prelude::*;
use rnsfhe::rlwe::{Flooding, DEFAULT_LAMBDA};

use crate::convert::Int;
use crate::OrPy;

/// Noise flooding for decryptions that leave the key's owner (IND-CPA-D: Li and Micciancio,
/// Eurocrypt 2021; Li, Micciancio, Schultz and Sorrell, Crypto 2022): a discrete Gaussian of
/// sigma = 2^(lambda_/2) sqrt(n * decryptions) 2^noise_log2 added to every coefficient of the
/// decrypted phase, for ciphertext errors of at most 2^noise_log2 (measure it on a rehearsal under
/// a throwaway key: `CkksContext.error_log2`) and `decryptions` decryptions under the key.
#[pyclass(frozen, module = "rnsfhe", name = "Flooding")]
#[derive(Clone)]
pub(crate) struct PyFlooding {
    lambda: u32,
    noise_log2: f64,
    decryptions: u64,
    degree: Option<usize>,
    sigma: Option<f64>,
}

impl PyFlooding {
    /// The flooding on a ring of `degree` (the context's).
    pub(crate) fn resolve(&self, degree: usize) -> PyResult<Flooding> {
        match self.sigma {
            Some(s) => Flooding::with_sigma(s).py(),
            None => Flooding::new(
                self.lambda,
                self.noise_log2,
                self.degree.unwrap_or(degree),
                self.decryptions,
            )
            .py(),
        }
    }

    fn resolved(&self) -> PyResult<Flooding> {
        match (self.sigma, self.degree) {
            (None, None) => Err(crate::raise(
                "ParameterError",
                "this Flooding has no ring degree yet: give degree=, or use sigma_for(degree)"
                    .into(),
            )),
            (_, d) => self.resolve(d.unwrap_or(1)),
        }
    }
}

#[pymethods]
impl PyFlooding {
    /// Flooding for errors of at most 2^noise_log2 over `decryptions` decryptions under one key,
    /// statistical security `lambda_` bits (default 40); `degree`: the ring degree (default: the
    /// context's, at decryption).
    #[new]
    #[pyo3(signature = (noise_log2, degree=None, *, lambda_=DEFAULT_LAMBDA, decryptions=1))]
    fn new(
        noise_log2: f64,
        degree: Option<Int<usize>>,
        lambda_: u32,
        decryptions: u64,
    ) -> PyResult<Self> {
        let degree = degree.map(|d| d.0);
        // Validates the arguments now (with a stand-in degree when none is given).
        Flooding::new(lambda_, noise_log2, degree.unwrap_or(1), decryptions).py()?;
        Ok(PyFlooding {
            lambda: lambda_,
            noise_log2,
            decryptions,
            degree,
            sigma: None,
        })
    }
    /// Flooding of a given sigma (1 to 2^1000; what it hides is the caller's to judge).
    #[staticmethod]
    fn with_sigma(sigma: f64) -> PyResult<Self> {
        Flooding::with_sigma(sigma).py()?;
        Ok(PyFlooding {
            lambda: DEFAULT_LAMBDA,
            noise_log2: 0.0,
            decryptions: 1,
            degree: None,
            sigma: Some(sigma),
        })
    }
    /// sigma on a ring of `degree`.
    fn sigma_for(&self, degree: Int<usize>) -> PyResult<f64> {
        Ok(self.resolve(degree.0)?.sigma())
    }
    /// sigma (needs the degree: given to the constructor, or a `with_sigma` flooding).
    #[getter]
    fn sigma(&self) -> PyResult<f64> {
        Ok(self.resolved()?.sigma())
    }
    /// The bits of precision a CKKS decryption at scale 2^scale_log2 keeps on a ring of `degree`
    /// after `parties` draws (1 for one key): scale_log2 - log2(sqrt(parties * degree / 2) sigma).
    #[pyo3(signature = (scale_log2, degree, parties=Int(1)))]
    fn precision_bits(
        &self,
        scale_log2: f64,
        degree: Int<usize>,
        parties: Int<usize>,
    ) -> PyResult<f64> {
        let f = self.resolve(degree.0)?;
        Ok(f.precision_bits(scale_log2, degree.0, parties.0))
    }
    /// log2 of the scale that keeps `bits` bits of precision (the inverse of `precision_bits`).
    #[pyo3(signature = (bits, degree, parties=Int(1)))]
    fn scale_log2_for(&self, bits: f64, degree: Int<usize>, parties: Int<usize>) -> PyResult<f64> {
        let f = self.resolve(degree.0)?;
        Ok(f.scale_log2_for(bits, degree.0, parties.0))
    }
    fn __repr__(&self) -> String {
        match (self.sigma, self.degree) {
            (Some(s), _) => format!("Flooding(sigma=2^{:.2})", s.log2()),
            (None, d) => format!(
                "Flooding(noise_log2={}, degree={}, lambda_={}, decryptions={})",
                self.noise_log2,
                d.map_or("None".into(), |d| d.to_string()),
                self.lambda,
                self.decryptions
            ),
        }
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFlooding>()
}
