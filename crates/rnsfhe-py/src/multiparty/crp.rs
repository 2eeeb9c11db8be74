//! `Crp`: the common reference polynomials of one CKG, RKG or RTG instance, expanded once from
//! the `Crs` (`ckg_crp`, `rkg_crp`, `rtg_crp`). Every step that takes a `Crs` for these protocols
//! (the shares and the last step) takes a `Crp` in its place: the same shares and keys, without
//! expanding the polynomials again.

use std::sync::Arc;

use pyo3::prelude::*;
use rnsfhe::multiparty::{self as mp, ckg, rkg, rtg};

use super::{key_context, level_or_top, PyCrs};
use crate::convert::Int;
use crate::keys::{KeyOwner, Owner};
use crate::OrPy;

/// The reference polynomials of one protocol instance (public: anyone with the CRS computes
/// them). Made by `ckg_crp`, `rkg_crp` or `rtg_crp`; pass it where a `Crs` goes.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Crp")]
pub(crate) struct PyCrp {
    owner: Owner,
    crp: Arc<mp::Crp>,
}

#[pymethods]
impl PyCrp {
    /// The common reference string they expand.
    #[getter]
    fn crs(&self) -> PyCrs {
        PyCrs(*self.crp.crs())
    }
    /// The level of the keys.
    #[getter]
    fn level(&self) -> usize {
        self.crp.level()
    }
    /// The Galois elements (RTG), sorted; empty for CKG and RKG.
    #[getter]
    fn elements(&self) -> Vec<u64> {
        self.crp.elements()
    }
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "a Crp does not pickle: send the Crs and expand it where needed",
        ))
    }
    fn __repr__(&self) -> String {
        format!(
            "Crp(crs {:016x}, level {}, elements {:?})",
            mp::crs_id(self.crp.crs()),
            self.crp.level(),
            self.crp.elements()
        )
    }
}

/// A `Crs` or a `Crp` where a protocol step takes its reference.
#[derive(FromPyObject)]
pub(crate) enum Reference<'py> {
    Crs(PyRef<'py, PyCrs>),
    Crp(PyRef<'py, PyCrp>),
}

/// A resolved reference: the CRS, or the expanded polynomials checked to be of the context.
pub(crate) enum Ref {
    Crs(rnsfhe::rlwe::Crs),
    Crp(Arc<mp::Crp>),
}

impl Reference<'_> {
    /// The reference for `owner`'s context (a `Crp` of another context is refused).
    pub(crate) fn resolve(&self, owner: &Owner) -> PyResult<Ref> {
        match self {
            Reference::Crs(c) => Ok(Ref::Crs(c.0)),
            Reference::Crp(c) => {
                c.owner.check(owner, "reference polynomials (Crp)")?;
                Ok(Ref::Crp(c.crp.clone()))
            }
        }
    }
}

fn wrap(owner: Owner, crp: rnsfhe::Result<mp::Crp>) -> PyResult<PyCrp> {
    Ok(PyCrp {
        owner,
        crp: Arc::new(crp.py()?),
    })
}

/// The reference polynomial a of CKG under `crs`.
#[pyfunction]
fn ckg_crp(py: Python<'_>, context: &Bound<'_, PyAny>, crs: &PyCrs) -> PyResult<PyCrp> {
    let o = Owner::of(context)?;
    let ctx = key_context(&o);
    let c = py.detach(|| ckg::crp(ctx, &crs.0));
    wrap(o, c)
}

/// The reference polynomials of RKG for a key at `level` (default: the top) under `crs`.
#[pyfunction]
#[pyo3(signature = (context, crs, level=None))]
fn rkg_crp(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    level: Option<Int<usize>>,
) -> PyResult<PyCrp> {
    let o = Owner::of(context)?;
    let ctx = key_context(&o);
    let level = level_or_top(ctx, level);
    let c = py.detach(|| rkg::crp(ctx, &crs.0, level));
    wrap(o, c)
}

/// The reference polynomials of RTG for Galois `elements` at `level` (default: the top).
#[pyfunction]
#[pyo3(signature = (context, crs, elements, level=None))]
fn rtg_crp(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    elements: Vec<u64>,
    level: Option<Int<usize>>,
) -> PyResult<PyCrp> {
    let o = Owner::of(context)?;
    let ctx = key_context(&o);
    let level = level_or_top(ctx, level);
    let c = py.detach(|| rtg::crp(ctx, &crs.0, &elements, level));
    wrap(o, c)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCrp>()?;
    for f in [
        wrap_pyfunction!(ckg_crp, m)?,
        wrap_pyfunction!(rkg_crp, m)?,
        wrap_pyfunction!(rtg_crp, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
