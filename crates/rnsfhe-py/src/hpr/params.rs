//! HprParameters, on the shared parameter layer (`rlwe_params!`).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::hpr::{HprContext, HprParameters};

use super::{label, HprShared, CONTEXTS};
use crate::convert::{security_out, ByteData, Int};
use crate::{bytes_out, reduce, OrPy, Reduced};

crate::rlwe_params::rlwe_params! {
    /// HPR-FV parameters (Bajard et al. (HPR-FV, ePrint 2019/500)): ring degree n, plaintext modulus t, k = `primes` primes of `bits`
    /// bits forming p, d = `digits` digits (q = p^d), error `sigma`, checked against `security`.
    class PyHprParameters("HprParameters", HprParameters, HprContext, HprShared);
    moduli p_moduli;
    methods {
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
            let inner =
                HprParameters::new(degree.0, plain_modulus.0, primes.0, digits.0, bits.0, sigma, s)
                    .py()?;
            Ok(inner.into())
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
    }
}
