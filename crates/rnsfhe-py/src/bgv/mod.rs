//! BGV in Python: parameters, context (keys, encoding, encryption, modulus switching, every
//! operation), plaintexts and ciphertexts with operators. The key classes, registry, pickling and
//! error mapping are the ones BFV and CKKS use (`keys.rs`, `registry.rs`, `lib.rs`).

mod context;
mod params;
mod values;

pub(crate) use context::PyBgvContext;
pub(crate) use params::PyBgvParameters;
use params::*;
pub(crate) use values::{PyBgvCiphertext, PyBgvPlaintext};

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters, BgvPlaintext};
use rnsfhe::rlwe::{KeyId, KeySwitching, SecretDistribution};

use crate::convert::{
    i64_array, int_values, ints, is_int, is_vector, power, security_out, type_name, ByteData, Int,
    LockedRng,
};
use crate::keys::{self, BgvShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<BgvContext> = Registry::new();

/// Rebuilds a pickled BGV object or key.
pub(crate) fn restore(
    py: Python<'_>,
    kind: &str,
    params: &[u8],
    data: &[u8],
) -> PyResult<Py<PyAny>> {
    let p = BgvParameters::from_bytes(params).py()?;
    if kind == "BgvParameters" {
        return Ok(Py::new(py, PyBgvParameters { inner: p })?.into_any());
    }
    let ctx = PyBgvContext::from_shared(shared(&p)?)?;
    Ok(match kind {
        "BgvContext" => Py::new(py, ctx)?.into_any(),
        "BgvCiphertext" => {
            Py::new(py, ctx.ciphertext_from_bytes(ByteData(data.to_vec()))?)?.into_any()
        }
        "BgvPlaintext" => {
            Py::new(py, ctx.plaintext_from_bytes(ByteData(data.to_vec()))?)?.into_any()
        }
        key => keys::restore(py, ctx.owner(), key.strip_prefix("bgv:"), kind, data)?,
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBgvParameters>()?;
    m.add_class::<PyBgvContext>()?;
    m.add_class::<PyBgvPlaintext>()?;
    m.add_class::<PyBgvCiphertext>()?;
    Ok(())
}
