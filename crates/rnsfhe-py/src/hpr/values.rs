//! HprPlaintext and HprCiphertext on the shared value layer (`rlwe_values!`), with HPR's
//! operators (as BFV's).

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::hpr::{HprCiphertext, HprContext, HprRelinKey};
use rnsfhe::rlwe::KeyId;

use super::{same, HprShared, PyHprContext};
use crate::convert::{
    i64_array, int_values, is_int, is_vector, power_by_squaring, type_name, ByteData, Int,
};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

/// HPR's name for the key pair of a ciphertext, under the one `rlwe_values!` calls.
trait KeyPair {
    fn key_id(&self) -> Option<KeyId>;
}

impl KeyPair for HprCiphertext {
    fn key_id(&self) -> Option<KeyId> {
        self.id()
    }
}

enum Operand {
    Ct(Arc<HprCiphertext>),
    /// Plaintext coefficients in [0, t).
    Pt(Arc<Vec<u64>>),
}

impl PyHprCiphertext {
    fn operand(&self, other: &Bound<'_, PyAny>, op: &str) -> PyResult<Operand> {
        let t = self.shared.ctx.params().plain_modulus();
        if let Ok(c) = other.cast::<PyHprCiphertext>() {
            same(&c.get().shared, &self.shared, "ciphertext")?;
            return Ok(Operand::Ct(c.get().ct.clone()));
        }
        if let Ok(p) = other.cast::<PyHprPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(Operand::Pt(p.get().pt.clone()));
        }
        if is_int(other) {
            let c: i64 = other.extract().map_err(|_| {
                raise(
                    "OutOfRangeError",
                    format!("integer {other} does not fit in 64 bits"),
                )
            })?;
            // The constant polynomial c is c in every slot.
            let mut m = vec![0u64; self.shared.ctx.params().degree()];
            m[0] = c.rem_euclid(t as i64) as u64;
            return Ok(Operand::Pt(Arc::new(m)));
        }
        if is_vector(other) {
            let v = int_values(other, t)?;
            return Ok(Operand::Pt(Arc::new(
                self.shared.encoder()?.encode(&v).py()?,
            )));
        }
        Err(PyTypeError::new_err(format!(
            "unsupported operand for HprCiphertext {op}: {} (use an HprCiphertext, HprPlaintext, int or \
             sequence of ints)",
            type_name(other)
        )))
    }
    fn negate(&self) -> PyResult<PyHprCiphertext> {
        Ok(self.wrap(self.shared.ctx.neg(&self.ct).py()?))
    }
}

crate::rlwe_context::rlwe_values! {
    context PyHprContext(HprShared, HprContext);
    /// An HPR-FV plaintext (an element of R_t): `ctx.encode(values)` batches integers into the slots,
    /// `ctx.encode(values, coefficients=True)` sets the polynomial's coefficients.
    plaintext PyHprPlaintext("HprPlaintext", Vec<u64>) {
        /// The polynomial's coefficients in [0, t).
        fn coefficients<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i64>> {
            i64_array(py, self.pt.iter().map(|&c| c as i64).collect())
        }
        fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
            other
                .cast::<PyHprPlaintext>()
                .is_ok_and(|o| Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().pt == self.pt)
        }
        fn __repr__(&self) -> String {
            format!("HprPlaintext({})", self.shared.label)
        }
    }
    /// An HPR-FV ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, integers and integer
    /// sequences (batched), unary `-`, and `**` for small powers; products are relinearised with the
    /// registered key of the key pair.
    ciphertext PyHprCiphertext("HprCiphertext", HprCiphertext) {
    fn __repr__(&self) -> String {
        format!(
            "HprCiphertext(size={}, {})",
            self.ct.size(),
            self.shared.label
        )
    }
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyHprCiphertext> {
        let ctx = &self.shared.ctx;
        Ok(self.wrap(
            match self.operand(other, "+")? {
                Operand::Ct(b) => ctx.add(&self.ct, &b),
                Operand::Pt(m) => ctx.add_plain(&self.ct, &m),
            }
            .py()?,
        ))
    }
    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyHprCiphertext> {
        self.__add__(other)
    }
    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyHprCiphertext> {
        let ctx = &self.shared.ctx;
        Ok(self.wrap(
            match self.operand(other, "-")? {
                Operand::Ct(b) => ctx.sub(&self.ct, &b),
                Operand::Pt(m) => {
                    let t = ctx.params().plain_modulus();
                    let neg: Vec<u64> = m.iter().map(|&x| (t - x) % t).collect();
                    ctx.add_plain(&self.ct, &neg)
                }
            }
            .py()?,
        ))
    }
    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyHprCiphertext> {
        self.negate()?.__add__(other)
    }
    fn __neg__(&self) -> PyResult<PyHprCiphertext> {
        self.negate()
    }
    fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyHprCiphertext> {
        let (ctx, a) = (self.shared.ctx.clone(), self.ct.clone());
        let r = match self.operand(other, "*")? {
            Operand::Ct(b) => {
                let id = KeyId::join(a.id(), b.id()).py()?;
                let k = self.shared.relin_key("ciphertext * ciphertext", id)?;
                py.detach(|| ctx.mul(&a, &b, &k))
            }
            Operand::Pt(m) => py.detach(|| ctx.mul_plain(&a, &m)),
        };
        Ok(self.wrap(r.py()?))
    }
    fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyHprCiphertext> {
        self.__mul__(py, other)
    }
    /// `ctx.sum_slots(self)` with the registered Galois keys.
    fn sum_slots(&self, py: Python<'_>) -> PyResult<PyHprCiphertext> {
        let k = self.shared.galois_keys("sum_slots", self.ct.id())?;
        let (ctx, a) = (self.shared.ctx.clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.sum_slots(&a, &k)).py()?))
    }
    /// Rotates both rows of the slot matrix by `step` (registered Galois keys).
    fn rotate_rows(&self, py: Python<'_>, step: Int<i64>) -> PyResult<PyHprCiphertext> {
        let g = self.shared.encoder()?.galois_element_for_rotation(step.0);
        self.galois(py, g, "rotate_rows")
    }
    /// Swaps the two rows of the slot matrix (registered Galois keys).
    fn rotate_columns(&self, py: Python<'_>) -> PyResult<PyHprCiphertext> {
        let g = self.shared.encoder()?.galois_element_for_row_swap();
        self.galois(py, g, "rotate_columns")
    }
}

}
impl PyHprCiphertext {
    /// x^k by square-and-multiply, each product relinearised (Bajard et al. (HPR-FV, ePrint 2019/500) section 4.1).
    fn power(
        ctx: &HprContext,
        x: &Arc<HprCiphertext>,
        k: u32,
        key: &HprRelinKey,
    ) -> rnsfhe::Result<HprCiphertext> {
        power_by_squaring(&**x, k, |a, b| ctx.mul(a, b, key), |a| ctx.mul(a, a, key))
    }
    fn galois(&self, py: Python<'_>, g: u64, what: &str) -> PyResult<PyHprCiphertext> {
        let k = self.shared.galois_keys(what, self.ct.id())?;
        let (ctx, a) = (self.shared.ctx.clone(), self.ct.clone());
        Ok(self.wrap(py.detach(|| ctx.apply_galois(&a, g, &k)).py()?))
    }
}
