//! Collective refresh (`rnsfhe::multiparty::refresh`): a ciphertext at any level back at the top
//! level with a fresh error, in one round (`refresh_share`, an `Aggregator`, `refresh_finalize`),
//! optionally applying a slot map on the way (`SlotMap`: the masked transform).

use std::sync::Arc;

use pyo3::prelude::*;
use rnsfhe::multiparty::{self as mp, refresh};

use super::party::PyParty;
use super::switch::{floor, with_scheme, PySmudging, PyValues};
use super::{PyCrs, PyGroup, PyRound, PyShare};
use crate::convert::Int;
use crate::keys::{KeyOwner, Owner};
use crate::OrPy;

/// A linear map of the slots applied during a refresh: `rotate(step)`, `automorphism(g)` (every
/// scheme), `permute(perm)` and `linear(matrix)` (BFV and BGV: exact modulo t), `complex(matrix)`
/// (CKKS).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "SlotMap")]
#[derive(Clone)]
pub(crate) struct PySlotMap(pub mp::SlotMap);

#[pymethods]
impl PySlotMap {
    /// Rotation left by `step` slots (BFV, BGV: both rows, as `rotate_rows`; CKKS: as `rotate`).
    #[staticmethod]
    fn rotate(step: i64) -> Self {
        PySlotMap(mp::SlotMap::Rotate(step))
    }
    /// The automorphism X -> X^g (odd g below 2n): 2n - 1 swaps BFV's and BGV's rows and
    /// conjugates CKKS's slots.
    #[staticmethod]
    fn automorphism(g: u64) -> Self {
        PySlotMap(mp::SlotMap::Automorphism(g))
    }
    /// out[i] = in[perm[i]] over the n slots (BFV, BGV).
    #[staticmethod]
    fn permute(perm: Vec<Int<usize>>) -> Self {
        PySlotMap(mp::SlotMap::Permute(crate::convert::ints(perm)))
    }
    /// out = matrix @ in modulo t over the n slots (BFV, BGV; an n x n matrix with entries in
    /// [0, t)).
    #[staticmethod]
    fn linear(matrix: Vec<Vec<Int<u64>>>) -> Self {
        let flat = matrix.into_iter().flat_map(crate::convert::ints).collect();
        PySlotMap(mp::SlotMap::Linear(flat))
    }
    /// out = matrix @ in over the n' slots of a CKKS ciphertext (an n' x n' complex matrix, n'
    /// the ciphertext's slots): each share mapped in double-double arithmetic, the result in the
    /// slots' subring; its error is the matrix applied to the refreshed error.
    #[staticmethod]
    fn complex(matrix: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (a, _, (rows, cols)) = crate::ckks::matrix::entries(matrix, "a slot map")?;
        if rows != cols {
            return Err(crate::raise(
                "ParameterError",
                format!("a slot map is a square matrix, got {rows} x {cols}"),
            ));
        }
        Ok(PySlotMap(mp::SlotMap::Complex(a)))
    }
    fn __repr__(&self) -> String {
        match &self.0 {
            mp::SlotMap::Rotate(s) => format!("SlotMap.rotate({s})"),
            mp::SlotMap::Automorphism(g) => format!("SlotMap.automorphism({g})"),
            mp::SlotMap::Permute(p) => format!("SlotMap.permute(<{} slots>)", p.len()),
            mp::SlotMap::Linear(a) => format!("SlotMap.linear(<{} entries>)", a.len()),
            mp::SlotMap::Complex(a) => format!("SlotMap.complex(<{} entries>)", a.len()),
        }
    }
}

/// What the parties of one refresh agree on: for CKKS a bound 2^`values_log2` on the slots'
/// modulus (the masks' size follows), the masks' statistical security `lambda_`, and an optional
/// `SlotMap` applied on the way. BFV and BGV masks are uniform modulo t: no bound.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Refresh")]
#[derive(Clone)]
pub(crate) struct PyRefresh(pub mp::Refresh);

#[pymethods]
impl PyRefresh {
    #[new]
    #[pyo3(signature = (values_log2=None, *, lambda_=40, map=None))]
    fn new(values_log2: Option<f64>, lambda_: u32, map: Option<&PySlotMap>) -> PyResult<Self> {
        let r = match values_log2 {
            Some(v) => mp::Refresh::ckks(v).py()?,
            None => mp::Refresh::new(),
        };
        let r = r.with_lambda(lambda_).py()?;
        Ok(PyRefresh(match map {
            Some(m) => r.with_map(m.0.clone()),
            None => r,
        }))
    }
    /// The slot map applied, if any.
    #[getter]
    fn map(&self) -> Option<PySlotMap> {
        self.0.map().cloned().map(PySlotMap)
    }
    /// The bits of a CKKS mask at a level of scale 2^`scale_log2` under smudging `smudging` on
    /// degree `degree` (None for BFV and BGV): Q_l needs these plus log2(parties) + 2 bits.
    fn mask_bits(&self, scale_log2: f64, smudging: &PySmudging, degree: usize) -> Option<u32> {
        self.0.mask_bits(scale_log2, smudging.0.sigma(), degree)
    }
    fn __repr__(&self) -> String {
        format!("Refresh({:?})", self.0)
    }
}

/// The uniform polynomial a of one refresh, expanded once (public: anyone with the CRS computes
/// it); made by `refresh_crp`, it goes where `refresh_share` and `refresh_finalize` take the `Crs`:
/// the same shares and ciphertext, without expanding a again.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "RefreshCrp")]
pub(crate) struct PyRefreshCrp {
    owner: Owner,
    crp: Arc<mp::RefreshCrp>,
}

#[pymethods]
impl PyRefreshCrp {
    /// The common reference string it expands.
    #[getter]
    fn crs(&self) -> PyCrs {
        PyCrs(*self.crp.crs())
    }
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "a RefreshCrp does not pickle: send the Crs and expand it where needed",
        ))
    }
    fn __repr__(&self) -> String {
        format!("RefreshCrp(crs {:016x})", mp::crs_id(self.crp.crs()))
    }
}

/// A `Crs` or a `RefreshCrp` where a refresh step takes its reference.
#[derive(FromPyObject)]
enum Reference<'py> {
    Crs(PyRef<'py, PyCrs>),
    Crp(PyRef<'py, PyRefreshCrp>),
}

impl Reference<'_> {
    /// The expanded a for `owner`'s context (a `RefreshCrp` of another context is refused), or
    /// the CRS.
    fn resolve(&self, owner: &Owner) -> PyResult<Result<rnsfhe::rlwe::Crs, Arc<mp::RefreshCrp>>> {
        match self {
            Reference::Crs(c) => Ok(Ok(c.0)),
            Reference::Crp(c) => {
                c.owner
                    .check(owner, "refresh reference polynomial (RefreshCrp)")?;
                Ok(Err(c.crp.clone()))
            }
        }
    }
}

/// The uniform a of the refresh of `ct` with `refresh` under `crs`, expanded once.
#[pyfunction]
fn refresh_crp(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    refresh: &PyRefresh,
) -> PyResult<PyRefreshCrp> {
    let o = Owner::of(context)?;
    let crp = with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        refresh::crp(&*s.ctx, &crs.0, &*c, &refresh.0).py()?
    });
    Ok(PyRefreshCrp {
        owner: o,
        crp: Arc::new(crp),
    })
}

/// The round of the refresh of `ct` with `refresh` (`group`: the threshold group present).
#[pyfunction]
#[pyo3(signature = (context, crs, ct, refresh, group=None))]
fn refresh_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    refresh: &PyRefresh,
    group: Option<&PyGroup>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let g = group.map(|g| &g.0);
        Ok(PyRound(refresh::round(&*s.ctx, &crs.0, &*c, &refresh.0, g).py()?))
    })
}

/// The party's refresh share of `ct`: its secret times c1 minus a fresh mask, with smudging, and
/// the mask re-encrypted under its secret at the top level. The smudging is checked as
/// `cks_share`'s (the carried bound of BFV and BGV, `noise_log2` for CKKS). `crs`: the `Crs`, or
/// the `RefreshCrp` of this refresh (the same share).
#[pyfunction]
#[pyo3(signature = (party, ct, crs, refresh, smudging, *, noise_log2=None, allow_weak_smudging=false))]
#[allow(clippy::too_many_arguments)]
fn refresh_share(
    py: Python<'_>,
    party: &PyParty,
    ct: &Bound<'_, PyAny>,
    crs: Reference<'_>,
    refresh: &PyRefresh,
    smudging: &PySmudging,
    noise_log2: Option<f64>,
    allow_weak_smudging: bool,
) -> PyResult<PyShare> {
    let sm = mp::ShareSmudging::new(&smudging.0, floor(noise_log2, allow_weak_smudging));
    let o = party.owner.clone();
    let reference = crs.resolve(&o)?;
    let share = with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        py.detach(|| party.with(&o, |p, r| match &reference {
            Ok(crs) => refresh::share(&*ctx, p, &*c, crs, &refresh.0, sm, r),
            Err(crp) => refresh::share_with(&*ctx, p, &*c, crp, &refresh.0, sm, r),
        }))?
    });
    Ok(PyShare::new(&o, share.py()?))
}

/// The refreshed ciphertext (top level, fresh error; the slot map applied) from the complete
/// aggregate of the refresh shares of `parties` (`crs`: the `Crs`, or the `RefreshCrp` of this
/// refresh).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn refresh_finalize(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: Reference<'_>,
    ct: &Bound<'_, PyAny>,
    refresh: &PyRefresh,
    aggregate: &PyShare,
    parties: Vec<Int<u32>>,
    smudging: &PySmudging,
) -> PyResult<Py<PyAny>> {
    let o = Owner::of(context)?;
    let agg = aggregate.get(&o)?;
    let who = crate::convert::ints(parties);
    let reference = crs.resolve(&o)?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        let (spec, sm) = (&refresh.0, &smudging.0);
        let out = py
            .detach(|| match &reference {
                Ok(crs) => refresh::finalize(&*ctx, crs, &*c, spec, agg, &who, sm),
                Err(crp) => refresh::finalize_with(&*ctx, crp, &*c, spec, agg, &who, sm),
            })
            .py()?;
        S::wrap_ct(py, s, out)
    })
}

/// log2 of the room `ct` (BFV, BGV) leaves for a refresh by `parties` parties with `smudging`:
/// positive when the refresh goes through; None for CKKS.
#[pyfunction]
fn refresh_headroom_log2(
    ct: &Bound<'_, PyAny>,
    smudging: &PySmudging,
    parties: usize,
) -> PyResult<Option<f64>> {
    let ctx = ct.getattr("context")?;
    let o = Owner::of(&ctx)?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        refresh::headroom_log2(&*s.ctx, &*c, &smudging.0, parties).py()
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySlotMap>()?;
    m.add_class::<PyRefresh>()?;
    m.add_class::<PyRefreshCrp>()?;
    for f in [
        wrap_pyfunction!(refresh_crp, m)?,
        wrap_pyfunction!(refresh_round, m)?,
        wrap_pyfunction!(refresh_share, m)?,
        wrap_pyfunction!(refresh_finalize, m)?,
        wrap_pyfunction!(refresh_headroom_log2, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
