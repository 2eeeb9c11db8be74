//! BFV in Python: parameters, context (keys, encoding, encryption, every operation), plaintexts and
//! ciphertexts with operators.
//!
//! `params` holds the parameter class, `context` the context class, `values` plaintexts and
//! ciphertexts with their operators.

mod context;
mod params;
mod values;

pub(crate) use context::PyBfvContext;
pub(crate) use params::PyBfvParameters;
use params::*;
pub(crate) use values::{PyBfvCiphertext, PyBfvPlaintext};

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::bfv::{BfvContext, BfvParameters, Ciphertext, Decryption, Multiplication, Plaintext};
use rnsfhe::rlwe::{KeyId, KeySwitching, SecretDistribution};

use crate::convert::{
    i64_array, int_values, ints, is_int, is_vector, power, security_out, type_name, ByteData, Int,
    LockedRng,
};
use crate::keys::{self, BfvShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<BfvContext> = Registry::new();

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
        "BfvCiphertext" => {
            Py::new(py, ctx.ciphertext_from_bytes(ByteData(data.to_vec()))?)?.into_any()
        }
        "BfvPlaintext" => {
            Py::new(py, ctx.plaintext_from_bytes(ByteData(data.to_vec()))?)?.into_any()
        }
        key => keys::restore(py, ctx.owner(), key.strip_prefix("bfv:"), kind, data)?,
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBfvParameters>()?;
    m.add_class::<PyBfvContext>()?;
    m.add_class::<PyBfvPlaintext>()?;
    m.add_class::<PyBfvCiphertext>()?;
    Ok(())
}
