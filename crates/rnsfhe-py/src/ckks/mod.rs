//! CKKS in Python: parameters, context (keys, encoding, encryption, operations, functions),
//! plaintexts and ciphertexts with operators that align levels and rescale.
//!
//! `params` holds the parameter class, `context` the context class, `values` plaintexts and
//! ciphertexts with their operators.

mod chebyshev;
mod context;
mod params;
mod values;

use chebyshev::*;
pub(crate) use context::PyCkksContext;
pub(crate) use params::PyCkksParameters;
use params::*;
pub(crate) use values::{PyCkksCiphertext, PyCkksPlaintext};

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::ckks::{logistic, CkksCiphertext, CkksContext, CkksParameters, CkksPlaintext};
use rnsfhe::rlwe::{KeyId, KeySwitching, SecretDistribution};

use crate::convert::{
    complex_values, is_vector, power, real_scalar, security_out, slots_array, type_name, LockedRng,
};
use crate::keys::{self, CkksShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<CkksContext> = Registry::new();

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
        key => keys::restore(py, ctx.owner(), key.strip_prefix("ckks:"), kind, data)?,
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
