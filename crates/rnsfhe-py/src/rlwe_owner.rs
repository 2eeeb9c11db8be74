//! `KeyOwner` for the RLWE schemes' [`Owner`]: the owner read off a BFV, BGV or CKKS context
//! object (`Key.from_bytes(context, data)`) and keys loaded for it. The one place of the key layer
//! that knows the schemes' Python context classes, so that `keys` (which the contexts use) needs
//! none of them.

use pyo3::prelude::*;
use std::sync::Arc;

use crate::keys::{load, KeyOwner, Owner};

impl KeyOwner for Owner {
    fn label(&self) -> &str {
        match self {
            Owner::Bfv(s) => &s.label,
            Owner::Bgv(s) => &s.label,
            Owner::Ckks(s) => &s.label,
        }
    }
    fn params_bytes(&self) -> &[u8] {
        match self {
            Owner::Bfv(s) => &s.params_bytes,
            Owner::Bgv(s) => &s.params_bytes,
            Owner::Ckks(s) => &s.params_bytes,
        }
    }
    fn kind(&self, class: &str) -> String {
        format!("{}:{class}", self.scheme())
    }
    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Owner::Bfv(a), Owner::Bfv(b)) => Arc::ptr_eq(a, b),
            (Owner::Bgv(a), Owner::Bgv(b)) => Arc::ptr_eq(a, b),
            (Owner::Ckks(a), Owner::Ckks(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
    fn of(context: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(c) = context.cast::<crate::bfv::PyBfvContext>() {
            Ok(c.get().owner())
        } else if let Ok(c) = context.cast::<crate::bgv::PyBgvContext>() {
            Ok(c.get().owner())
        } else if let Ok(c) = context.cast::<crate::ckks::PyCkksContext>() {
            Ok(c.get().owner())
        } else {
            Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "context must be a BgvContext, a BfvContext or a CkksContext, got {}",
                crate::convert::type_name(context)
            )))
        }
    }
    fn load(self, py: Python<'_>, class: &str, data: &[u8]) -> PyResult<Py<PyAny>> {
        load(py, self, class, data)
    }
}
