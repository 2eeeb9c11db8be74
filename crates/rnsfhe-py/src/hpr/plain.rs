//! HprPlaintext (an element of R_t, as BFV's Plaintext) and the encoding helpers of HprContext.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::context::PyHprContext;
use super::{same, HprShared};
use crate::convert::{i64_array, int_values, ByteData};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

/// An HPR-FV plaintext (an element of R_t): `ctx.encode(values)` batches integers into the slots,
/// `ctx.encode(values, coefficients=True)` sets the polynomial's coefficients.
#[pyclass(frozen, module = "rnsfhe", name = "HprPlaintext")]
pub(crate) struct PyHprPlaintext {
    pub(crate) shared: Arc<HprShared>,
    /// The coefficients in [0, t).
    pub(crate) m: Arc<Vec<u64>>,
}

#[pymethods]
impl PyHprPlaintext {
    /// A plaintext from `to_bytes` output, for `context`'s parameter set.
    #[staticmethod]
    fn from_bytes(context: &PyHprContext, data: ByteData) -> PyResult<Self> {
        context.plaintext_from_bytes(&data.0)
    }
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(
            py,
            &self.shared.ctx.plaintext_to_bytes(&self.m).py()?,
        ))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let b = self.shared.ctx.plaintext_to_bytes(&self.m).py()?;
        reduce(py, "HprPlaintext", &self.shared.params_bytes, &b)
    }
    /// None: numpy defers its operators to this class (no array of plaintexts from `array + pt`).
    #[classattr]
    fn __array_ufunc__(py: Python<'_>) -> Py<PyAny> {
        py.None()
    }
    /// The polynomial's coefficients in [0, t).
    fn coefficients<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i64>> {
        i64_array(py, self.m.iter().map(|&c| c as i64).collect())
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyHprPlaintext>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().shared, &self.shared) && o.get().m == self.m)
    }
    fn __repr__(&self) -> String {
        format!("HprPlaintext({})", self.shared.label)
    }
}

/// Integers (|v| < t) batched into the slots, or as the coefficients (any t) with `coefficients`;
/// fewer than n values are padded with zeros.
pub(crate) fn encode(
    shared: &Arc<HprShared>,
    values: &Bound<'_, PyAny>,
    coefficients: bool,
) -> PyResult<PyHprPlaintext> {
    let p = shared.ctx.params();
    let (n, t) = (p.degree(), p.plain_modulus());
    let v = int_values(values, t)?;
    let m = if coefficients {
        if v.len() > n {
            return Err(raise(
                "OutOfRangeError",
                format!("{} coefficients do not fit degree n = {n}", v.len()),
            ));
        }
        let mut m = v;
        m.resize(n, 0);
        m
    } else {
        shared.encoder()?.encode(&v).py()?
    };
    Ok(PyHprPlaintext {
        shared: shared.clone(),
        m: Arc::new(m),
    })
}

impl HprShared {
    /// The slots (or the coefficients) of plaintext coefficients m, in [0, t) or centred.
    pub(crate) fn decode(&self, m: &[u64], signed: bool, coefficients: bool) -> PyResult<Vec<i64>> {
        let t = self.ctx.params().plain_modulus();
        let centre = |c: u64| {
            if signed && c > t / 2 {
                c as i64 - t as i64
            } else {
                c as i64
            }
        };
        Ok(if coefficients {
            m.iter().map(|&c| centre(c)).collect()
        } else {
            self.encoder()?
                .decode(m)
                .py()?
                .into_iter()
                .map(centre)
                .collect()
        })
    }
}

/// The plaintext of `x`: an HprPlaintext of `shared`'s parameter set, or integers to batch.
pub(crate) fn plain(shared: &Arc<HprShared>, x: &Bound<'_, PyAny>) -> PyResult<Arc<Vec<u64>>> {
    if let Ok(p) = x.cast::<PyHprPlaintext>() {
        same(&p.get().shared, shared, "plaintext")?;
        return Ok(p.get().m.clone());
    }
    Ok(encode(shared, x, false)?.m)
}
