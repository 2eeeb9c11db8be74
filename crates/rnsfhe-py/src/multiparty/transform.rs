//! The masked transform to another parameter set (`rnsfhe::multiparty::transform`): a ciphertext
//! of one context re-encrypted at the top level of another of the same scheme (another modulus
//! chain or ring degree) under that context's collective key, in one round: each party sends two
//! shares (`transform_share`), one aggregated under each context, then `transform_finalize`.

use pyo3::prelude::*;
use rnsfhe::multiparty::transform;

use super::party::PyParty;
use super::refresh::PyRefresh;
use super::switch::{floor, PySmudging, PyValues};
use super::{PyCrs, PyGroup, PyRound, PyShare};
use crate::convert::Int;
use crate::keys::{KeyOwner, Owner, PyPublicKey};
use crate::OrPy;

/// Runs `$body` with `$S` the scheme's context type and `$a`, `$b` the two shared contexts of one
/// scheme; another scheme's pair is refused.
macro_rules! with_two {
    ($pair:expr, $S:ident, $a:ident, $b:ident => $body:expr) => {
        match $pair {
            (Owner::Bfv($a), Owner::Bfv($b)) => {
                type $S = rnsfhe::bfv::BfvContext;
                $body
            }
            (Owner::Bgv($a), Owner::Bgv($b)) => {
                type $S = rnsfhe::bgv::BgvContext;
                $body
            }
            (Owner::Ckks($a), Owner::Ckks($b)) => {
                type $S = rnsfhe::ckks::CkksContext;
                $body
            }
            (a, b) => Err(crate::raise(
                "ParameterError",
                format!(
                    "a masked transform between {} and {}: both contexts must be of one scheme",
                    a.label(),
                    b.label()
                ),
            )),
        }
    };
}

/// The two rounds of the transform of `ct` (of `context_in`) with `refresh` to `context_out`'s
/// parameters and their collective key `target`: (encryption-to-shares round, aggregated under
/// `context_in`; shares-to-encryption round, under `context_out`). `group`, `group_out`: the
/// threshold groups present of the input's and output's secrets (`group_out` defaults to `group`).
#[pyfunction]
#[pyo3(signature = (context_in, context_out, crs, ct, refresh, target, group=None, group_out=None))]
#[allow(clippy::too_many_arguments)]
fn transform_rounds(
    context_in: &Bound<'_, PyAny>,
    context_out: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    refresh: &PyRefresh,
    target: &PyPublicKey,
    group: Option<&PyGroup>,
    group_out: Option<&PyGroup>,
) -> PyResult<(PyRound, PyRound)> {
    let (i, o) = (Owner::of(context_in)?, Owner::of(context_out)?);
    let id = target.get(&o)?.id();
    let groups = [group.map(|g| &g.0), group_out.or(group).map(|g| &g.0)];
    with_two!((&i, &o), S, a, b => {
        let c = S::ciphertext(ct, a)?;
        let [r, s] = transform::rounds((&*a.ctx, &*b.ctx), &crs.0, &*c, &refresh.0, id, groups)
            .py()?;
        Ok((PyRound(r), PyRound(s)))
    })
}

/// The transform shares of `ct` by one party: `party_in` its secret under the input's context,
/// `party_out` its secret under the output's, joined to that context's collective public key.
/// Returns (encryption-to-shares share, shares-to-encryption share). The smudging is checked as
/// `cks_share`'s (the carried bound of BFV and BGV, `noise_log2` for CKKS).
#[pyfunction]
#[pyo3(signature = (party_in, party_out, ct, crs, refresh, smudging, *, noise_log2=None, allow_weak_smudging=false))]
#[allow(clippy::too_many_arguments)]
fn transform_share(
    py: Python<'_>,
    party_in: &PyParty,
    party_out: &PyParty,
    ct: &Bound<'_, PyAny>,
    crs: &PyCrs,
    refresh: &PyRefresh,
    smudging: &PySmudging,
    noise_log2: Option<f64>,
    allow_weak_smudging: bool,
) -> PyResult<(PyShare, PyShare)> {
    let sm =
        rnsfhe::multiparty::ShareSmudging::new(&smudging.0, floor(noise_log2, allow_weak_smudging));
    let (i, o) = (party_in.owner.clone(), party_out.owner.clone());
    let shares = with_two!((&i, &o), S, a, b => {
        let c = S::ciphertext(ct, a)?;
        let (ca, cb) = (a.ctx.clone(), b.ctx.clone());
        py.detach(|| {
            party_in.with(&i, |p, r| {
                party_out.with(&o, |q, _| {
                    transform::share((&*ca, &*cb), (p, q), &*c, &crs.0, &refresh.0, sm, r)
                })
            })
        })
    })?;
    let [s_in, s_out] = shares?.py()?;
    Ok((PyShare::new(&i, s_in), PyShare::new(&o, s_out)))
}

/// The transformed ciphertext (a ciphertext of `context_out` at its top level, of the collective
/// key `target`, with a fresh error; the slot map applied) from the complete aggregates of the two
/// rounds over the transform shares of `parties`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn transform_finalize(
    py: Python<'_>,
    context_in: &Bound<'_, PyAny>,
    context_out: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    refresh: &PyRefresh,
    aggregate_in: &PyShare,
    aggregate_out: &PyShare,
    parties: Vec<Int<u32>>,
    target: &PyPublicKey,
    smudging: &PySmudging,
) -> PyResult<Py<PyAny>> {
    let (i, o) = (Owner::of(context_in)?, Owner::of(context_out)?);
    let (agg_in, agg_out) = (aggregate_in.get(&i)?, aggregate_out.get(&o)?);
    let id = target.get(&o)?.id();
    let who = crate::convert::ints(parties);
    with_two!((&i, &o), S, a, b => {
        let c = S::ciphertext(ct, a)?;
        let (ca, cb) = (a.ctx.clone(), b.ctx.clone());
        let out = py
            .detach(|| {
                transform::finalize(
                    (&*ca, &*cb),
                    &crs.0,
                    &*c,
                    &refresh.0,
                    [agg_in, agg_out],
                    &who,
                    id,
                    &smudging.0,
                )
            })
            .py()?;
        S::wrap_ct(py, b, out)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(transform_rounds, m)?,
        wrap_pyfunction!(transform_share, m)?,
        wrap_pyfunction!(transform_finalize, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
