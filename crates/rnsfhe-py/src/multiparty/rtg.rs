//! RTG, collective Galois-key generation (PETS 2021, Prot. 3): its round, the parties' shares and
//! the collective keys (registered with the context), and the Galois elements of slot rotations.

use std::sync::Arc;

use pyo3::prelude::*;
use rnsfhe::multiparty::rtg;

use super::crp::{Ref, Reference};
use super::party::{group_of, register_keys, PyParty};
use super::{key_context, level_or_top, PyCrs, PyGroup, PyRound, PyShare};
use crate::convert::{ints, Int};
use crate::keys::{KeyOwner, Made, Owner, PyGaloisKeys, PyPublicKey};
use crate::OrPy;

/// The round of RTG for Galois `elements` at `level` (default: the top).
#[pyfunction]
#[pyo3(signature = (context, crs, elements, level=None, group=None))]
fn rtg_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    elements: Vec<u64>,
    level: Option<Int<usize>>,
    group: Option<&PyGroup>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    let ctx = key_context(&o);
    let r = rtg::round(
        ctx,
        &crs.0,
        &elements,
        level_or_top(ctx, level),
        group_of(group),
    );
    Ok(PyRound(r.py()?))
}

/// The party's RTG share for Galois `elements` at `level` (default: the top); `crs`: a `Crs`, or
/// its `rtg_crp`, which fixes the elements and level (if given, they must agree).
#[pyfunction]
#[pyo3(signature = (party, crs, elements=None, level=None))]
fn rtg_share(
    py: Python<'_>,
    party: &PyParty,
    crs: Reference<'_>,
    elements: Option<Vec<u64>>,
    level: Option<Int<usize>>,
) -> PyResult<PyShare> {
    let ctx = party.ctx();
    let reference = crs.resolve(&party.owner)?;
    let s = match (&reference, elements) {
        (Ref::Crs(c), Some(elements)) => {
            let level = level_or_top(ctx, level);
            py.detach(|| {
                party.with(&party.owner, |p, r| {
                    rtg::share(ctx, p, c, &elements, level, r)
                })
            })?
        }
        (Ref::Crs(_), None) => {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "rtg_share: the Galois elements are needed with a Crs",
            ))
        }
        (Ref::Crp(c), elements) => {
            let given = elements.unwrap_or_else(|| c.elements());
            let want = rtg::round(ctx, c.crs(), &given, level.map_or(c.level(), |l| l.0), None);
            let want = want.py()?;
            if want.elements() != c.elements() || want.level() != c.level() {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "rtg_share: elements {:?} at level {} given, the Crp's are {:?} at level {}",
                    want.elements(),
                    want.level(),
                    c.elements(),
                    c.level()
                )));
            }
            py.detach(|| party.with(&party.owner, |p, r| rtg::share_with(ctx, p, c, r)))?
        }
    };
    Ok(PyShare::new(&party.owner, s.py()?))
}

/// The collective Galois keys from the complete RTG aggregate of the shares of `parties`,
/// registered with the context (`crs`: a `Crs` or its `rtg_crp`).
#[pyfunction]
fn rtg_galois_keys(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: Reference<'_>,
    aggregate: &PyShare,
    parties: Vec<Int<u32>>,
    pk: &PyPublicKey,
) -> PyResult<PyGaloisKeys> {
    let o = Owner::of(context)?;
    let (ctx, agg, pk) = (key_context(&o), aggregate.get(&o)?, pk.get(&o)?);
    let reference = crs.resolve(&o)?;
    let who = ints(parties);
    let k = py.detach(|| match &reference {
        Ref::Crs(c) => rtg::galois_keys(ctx, c, agg, &who, &pk),
        Ref::Crp(c) => rtg::galois_keys_with(ctx, c, agg, &who, &pk),
    });
    let k = Arc::new(k.py()?);
    register_keys(&o, None, Some(&k))?;
    Ok(Made {
        owner: o,
        key: k,
        seeded: false,
    }
    .into())
}

/// The Galois elements of slot rotations by `steps` (BFV, BGV: rows; CKKS: slots), with the row
/// swap (BFV, BGV) or the conjugation (CKKS) if `swap`.
#[pyfunction]
#[pyo3(signature = (context, steps, *, swap=false))]
fn galois_elements(
    context: &Bound<'_, PyAny>,
    steps: Vec<Int<i64>>,
    swap: bool,
) -> PyResult<Vec<u64>> {
    let steps = ints(steps);
    let mut v: Vec<u64> = match Owner::of(context)? {
        Owner::Bfv(s) => steps
            .iter()
            .map(|&k| s.ctx.galois_element(k))
            .chain(swap.then(|| s.ctx.row_swap_element()))
            .collect(),
        Owner::Bgv(s) => steps
            .iter()
            .map(|&k| s.ctx.galois_element(k))
            .chain(swap.then(|| s.ctx.row_swap_element()))
            .collect(),
        Owner::Ckks(s) => {
            let e = s.ctx.encoder();
            steps
                .iter()
                .map(|&k| e.rotation_galois_element(k))
                .chain(swap.then(|| e.conjugation_galois_element()))
                .collect()
        }
    };
    v.sort_unstable();
    v.dedup();
    Ok(v)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(rtg_round, m)?,
        wrap_pyfunction!(rtg_share, m)?,
        wrap_pyfunction!(rtg_galois_keys, m)?,
        wrap_pyfunction!(galois_elements, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
