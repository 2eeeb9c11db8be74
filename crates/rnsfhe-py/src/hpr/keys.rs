//! The HPR key classes (their own: HPR keys are digit polynomials modulo q = p^d).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::hpr::{HprGaloisKeys, HprPublicKey, HprRelinKey, HprSecretKey};

use super::{same, HprShared};
use crate::{bytes_out, reduce_ex, OrPy, Reduced};

macro_rules! hpr_key {
    ($py_name:literal, $rust:ident, $inner:ty, $what:literal $(, $extra:item)*) => {
        #[doc = concat!("An HPR ", $what, " (made by an HprContext).")]
        #[pyclass(frozen, module = "rnsfhe", name = $py_name)]
        pub(crate) struct $rust {
            pub shared: Arc<HprShared>,
            pub key: Arc<$inner>,
        }
        impl $rust {
            /// The inner key, checked to belong to `shared`'s parameter set.
            pub fn get(&self, shared: &Arc<HprShared>) -> PyResult<Arc<$inner>> {
                same(&self.shared, shared, $what)?;
                Ok(self.key.clone())
            }
        }
        #[pymethods]
        impl $rust {
            /// The identity of the key pair (16 hex digits).
            #[getter]
            fn key_id(&self) -> String {
                self.key.id().to_string()
            }
            fn __repr__(&self) -> String {
                format!(concat!($py_name, "({}, key pair {})"), self.shared.label, self.key.id())
            }
            $($extra)*
        }
    };
}

hpr_key!(
    "HprSecretKey",
    PyHprSecretKey,
    HprSecretKey,
    "secret key",
    /// The secret key in the rnsfhe binary format. Refused unless `allow_secret=True`: whoever
    /// holds the bytes can decrypt every ciphertext of this key pair.
    #[pyo3(signature = (*, allow_secret=false))]
    fn to_bytes<'py>(&self, py: Python<'py>, allow_secret: bool) -> PyResult<Bound<'py, PyBytes>> {
        if !allow_secret {
            return Err(crate::keys::secret_export_refused("sk.to_bytes()"));
        }
        Ok(bytes_out(
            py,
            &self.shared.ctx.secret_key_to_bytes(&self.key),
        ))
    },
    /// A secret key from `to_bytes(allow_secret=True)` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &super::PyHprContext, data: crate::convert::ByteData) -> PyResult<Self> {
        context.secret_key_from_bytes(data)
    },
    /// Secret keys do not pickle (a pickle leaves the process silently): use
    /// `to_bytes(allow_secret=True)`.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::keys::secret_export_refused("pickling a secret key"))
    }
);
hpr_key!(
    "HprPublicKey",
    PyHprPublicKey,
    HprPublicKey,
    "public key",
    /// The key in the rnsfhe binary format (`ctx.public_key_from_bytes` loads it).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.shared.ctx.public_key_to_bytes(&self.key).py()?,
        ))
    },
    fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.public_key_to_bytes(&self.key).py()?;
        reduce_ex(py, "HprPublicKey", &self.shared.params_bytes, &b, protocol)
    }
);
hpr_key!(
    "HprRelinKey",
    PyHprRelinKey,
    HprRelinKey,
    "relinearisation key",
    /// "residue" (single-digit r_{i,j}, section 4.1) or "digit" (Remark 5).
    #[getter]
    fn relinearization(&self) -> &'static str {
        match self.key.mode() {
            rnsfhe::hpr::Relinearization::PerResidue => "residue",
            rnsfhe::hpr::Relinearization::PerDigit => "digit",
        }
    },
    /// The key in the rnsfhe binary format (`ctx.relin_key_from_bytes` loads it).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.shared.ctx.relin_key_to_bytes(&self.key).py()?,
        ))
    },
    fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.relin_key_to_bytes(&self.key).py()?;
        reduce_ex(py, "HprRelinKey", &self.shared.params_bytes, &b, protocol)
    }
);
hpr_key!(
    "HprGaloisKeys",
    PyHprGaloisKeys,
    HprGaloisKeys,
    "Galois keys",
    /// The keys in the rnsfhe binary format (`ctx.galois_keys_from_bytes` loads them).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.shared.ctx.galois_keys_to_bytes(&self.key).py()?,
        ))
    },
    fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.galois_keys_to_bytes(&self.key).py()?;
        reduce_ex(py, "HprGaloisKeys", &self.shared.params_bytes, &b, protocol)
    }
);
