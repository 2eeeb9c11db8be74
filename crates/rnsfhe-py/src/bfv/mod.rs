//! BFV in Python: parameters, context (keys, encoding, encryption, every operation), plaintexts and
//! ciphertexts with operators.
//!
//! `params` holds the parameter class, `context` the context, plaintext and ciphertext classes (written
//! by the shared layers `rlwe_context` and `integer`).

mod context;
mod params;

pub(crate) use context::{PyBfvCiphertext, PyBfvContext, PyBfvPlaintext};
pub(crate) use params::PyBfvParameters;
use params::*;

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::bfv::{
    BfvCiphertext, BfvContext, BfvParameters, BfvPlaintext, Decryption, FvMontgomery,
    Multiplication,
};
use rnsfhe::rlwe::KeyId;

use crate::convert::{
    i64_array, int_values, ints, is_int, is_vector, security_out, type_name, ByteData, Int,
    LockedRng,
};
use crate::keys::{self, BfvShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<BfvContext> = Registry::new();

crate::registry::rlwe_scheme!(BfvContext: BfvParameters, BfvPlaintext, BfvCiphertext, (), ());

crate::rlwe_params::rlwe_restore!(PyBfvParameters(BfvParameters), PyBfvContext, "Bfv", "bfv:");

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBfvParameters>()?;
    m.add_class::<PyBfvContext>()?;
    m.add_class::<PyBfvPlaintext>()?;
    m.add_class::<PyBfvCiphertext>()?;
    Ok(())
}
