//! BGV in Python: parameters, context (keys, encoding, encryption, modulus switching, every
//! operation), plaintexts and ciphertexts with operators. The key classes, registry, pickling and
//! error mapping are the ones BFV and CKKS use (`keys.rs`, `registry.rs`, `lib.rs`).

mod context;
mod params;

pub(crate) use context::{PyBgvCiphertext, PyBgvContext, PyBgvPlaintext};
pub(crate) use params::PyBgvParameters;

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters, BgvPlaintext, ModulusSwitching};
use rnsfhe::rlwe::KeyId;

use crate::convert::{
    i64_array, int_values, ints, is_int, is_vector, security_out, type_name, ByteData, Int,
    LockedRng,
};
use crate::keys::{self, BgvShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<BgvContext> = Registry::new();

crate::registry::rlwe_scheme!(BgvContext: BgvParameters, BgvPlaintext, BgvCiphertext, (), ());

crate::rlwe_params::rlwe_restore!(PyBgvParameters(BgvParameters), PyBgvContext, "Bgv", "bgv:");

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBgvParameters>()?;
    m.add_class::<PyBgvContext>()?;
    m.add_class::<PyBgvPlaintext>()?;
    m.add_class::<PyBgvCiphertext>()?;
    Ok(())
}
