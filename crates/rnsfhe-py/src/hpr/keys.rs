//! The HPR key classes (their own: HPR keys are digit polynomials modulo q = p^d), written by the
//! shared `key_class!` with the shared context as their owner.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::hpr::{HprGaloisKeys, HprPublicKey, HprRelinKey, HprSecretKey};

use super::{HprShared, PyHprContext};
use crate::keys::{key_class, loaded, KeyOwner, KeyToBytes};
use crate::{bytes_out, raise, reduce_ex, OrPy, Reduced};

impl KeyOwner for Arc<HprShared> {
    fn label(&self) -> &str {
        &self.label
    }
    fn params_bytes(&self) -> &[u8] {
        &self.params_bytes
    }
    fn kind(&self, class: &str) -> String {
        class.to_string()
    }
    fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(self, other)
    }
    fn of(context: &Bound<'_, PyAny>) -> PyResult<Self> {
        match context.cast::<PyHprContext>() {
            Ok(c) => Ok(c.get().owner()),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "context must be an HprContext, got {}",
                crate::convert::type_name(context)
            ))),
        }
    }
    fn load(self, py: Python<'_>, class: &str, data: &[u8]) -> PyResult<Py<PyAny>> {
        let ctx = self.ctx.clone();
        match class {
            "HprSecretKey" => {
                loaded::<_, PyHprSecretKey, _>(py, ctx.secret_key_from_bytes(data), self)
            }
            "HprPublicKey" => {
                loaded::<_, PyHprPublicKey, _>(py, ctx.public_key_from_bytes(data), self)
            }
            "HprRelinKey" => {
                loaded::<_, PyHprRelinKey, _>(py, ctx.relin_key_from_bytes(data), self)
            }
            "HprGaloisKeys" => {
                loaded::<_, PyHprGaloisKeys, _>(py, ctx.galois_keys_from_bytes(data), self)
            }
            other => Err(raise(
                "SerializationError",
                format!("unknown pickled key class {other:?}"),
            )),
        }
    }
}

impl KeyToBytes<HprSecretKey> for Arc<HprShared> {
    type Bytes = zeroize::Zeroizing<Vec<u8>>;
    fn key_to_bytes(&self, key: &HprSecretKey) -> rnsfhe::Result<Self::Bytes> {
        Ok(self.ctx.secret_key_to_bytes(key))
    }
}

/// HPR's public evaluation keys' bytes.
macro_rules! hpr_key_bytes {
    ($($K:ty: $to:ident),*) => {
        $(impl KeyToBytes<$K> for Arc<HprShared> {
            type Bytes = Vec<u8>;
            fn key_to_bytes(&self, key: &$K) -> rnsfhe::Result<Vec<u8>> {
                self.ctx.$to(key)
            }
        })*
    };
}
hpr_key_bytes!(
    HprPublicKey: public_key_to_bytes,
    HprRelinKey: relin_key_to_bytes,
    HprGaloisKeys: galois_keys_to_bytes
);

key_class!(@secret "HprSecretKey", PyHprSecretKey, HprSecretKey, Arc<HprShared>);
key_class!(
    "HprPublicKey",
    PyHprPublicKey,
    HprPublicKey,
    "public key",
    Arc<HprShared>
);
key_class!(
    "HprRelinKey",
    PyHprRelinKey,
    HprRelinKey,
    "relinearisation key",
    Arc<HprShared>,
    /// "residue" (single-digit r_{i,j}, section 4.1) or "digit" (Remark 5).
    #[getter]
    fn relinearization(&self) -> &'static str {
        match self.key.mode() {
            rnsfhe::hpr::Relinearization::PerResidue => "residue",
            rnsfhe::hpr::Relinearization::PerDigit => "digit",
        }
    }
);
key_class!(
    "HprGaloisKeys",
    PyHprGaloisKeys,
    HprGaloisKeys,
    "Galois keys",
    Arc<HprShared>
);
