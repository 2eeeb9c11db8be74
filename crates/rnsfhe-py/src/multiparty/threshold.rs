//! The thresholdizer (Mouchet, Bertrand and Hubaux, 2022, sec. 4): a party's Shamir polynomial
//! of its secret, the shares for the other parties, and the threshold secret any t parties
//! combine by Lagrange coefficients into shares of the collective secret.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::multiparty as mp;

use super::party::PyParty;
use super::{key_context, PyCrs, PyGroup, PyRound, PyShare};
use crate::convert::{ints, ByteData, Int};
use crate::keys::{KeyOwner, Owner};
use crate::{bytes_out, OrPy};

/// A party's Shamir polynomial of threshold t (its secret as the constant term; secret).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "ShamirPolynomial")]
pub(crate) struct PyShamirPolynomial {
    owner: Owner,
    poly: mp::ShamirPolynomial,
}

#[pymethods]
impl PyShamirPolynomial {
    /// The Shamir share of this polynomial for party `recipient` of `group` (secret: send its
    /// bytes only to the recipient).
    fn share_for(
        &self,
        py: Python<'_>,
        crs: &PyCrs,
        group: &PyGroup,
        recipient: Int<u32>,
    ) -> PyResult<PyShare> {
        let ctx = key_context(&self.owner);
        let s = py
            .detach(|| self.poly.share_for(ctx, &crs.0, &group.0, recipient.0))
            .py()?;
        Ok(PyShare::new(&self.owner, s))
    }
    #[getter]
    fn t(&self) -> usize {
        self.poly.t()
    }
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::keys::secret_export_refused(
            "pickling a Shamir polynomial",
        ))
    }
}

/// The party's Shamir polynomial of threshold `t`.
#[pyfunction]
fn shamir_polynomial(
    py: Python<'_>,
    party: &PyParty,
    t: Int<usize>,
) -> PyResult<PyShamirPolynomial> {
    let ctx = party.ctx();
    let poly = py.detach(|| {
        party.with(&party.owner, |p, r| {
            mp::threshold::shamir_polynomial(ctx, p, t.0, r)
        })
    })?;
    Ok(PyShamirPolynomial {
        owner: party.owner.clone(),
        poly: poly.py()?,
    })
}

/// The round of the Shamir shares for party `recipient` of `group`.
#[pyfunction]
fn shamir_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    group: &PyGroup,
    recipient: Int<u32>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    Ok(PyRound(
        mp::threshold::shamir_round(key_context(&o), &crs.0, &group.0, recipient.0).py()?,
    ))
}

/// Old party `secret`'s re-sharing polynomial for `new_group` (from `reshared_group`), acting
/// among `present` (at least t members of its group, itself among them): its `share_for(crs,
/// new_group, k)` goes to each new party k (secret).
#[pyfunction]
fn reshare_polynomial(
    py: Python<'_>,
    secret: &PyThresholdSecret,
    present: Vec<Int<u32>>,
    new_group: &PyGroup,
) -> PyResult<PyShamirPolynomial> {
    let ctx = key_context(&secret.owner);
    let present = ints(present);
    let mut rng = crate::convert::rng(None)?;
    let poly = py.detach(|| {
        mp::threshold::reshare_polynomial(ctx, &secret.secret, &present, &new_group.0, &mut rng)
    });
    Ok(PyShamirPolynomial {
        owner: secret.owner.clone(),
        poly: poly.py()?,
    })
}

/// The round of the re-sharing shares for new party `recipient` of `new_group` from the old
/// parties `acting` (`old_group.subgroup(present)`).
#[pyfunction]
fn reshare_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    acting: &PyGroup,
    new_group: &PyGroup,
    recipient: Int<u32>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    let ctx = key_context(&o);
    Ok(PyRound(
        mp::threshold::reshare_round(ctx, &crs.0, &acting.0, &new_group.0, recipient.0).py()?,
    ))
}

/// The group `t` of `members` that a re-sharing of `old`'s secret under `crs` deals to, with a
/// new epoch (old and new shares never aggregate together).
#[pyfunction]
fn reshared_group(
    old: &PyGroup,
    crs: &PyCrs,
    t: Int<usize>,
    members: Vec<Int<u32>>,
) -> PyResult<PyGroup> {
    Ok(PyGroup(
        mp::threshold::reshared_group(&old.0, &crs.0, t.0, &ints(members)).py()?,
    ))
}

/// A party's threshold secret: the sum of the Shamir shares it received (secret).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "ThresholdSecret")]
pub(crate) struct PyThresholdSecret {
    owner: Owner,
    secret: mp::ThresholdSecret,
}

#[pymethods]
impl PyThresholdSecret {
    /// Party `index`'s threshold secret from the complete aggregate of the Shamir shares it
    /// received from every member of `group` (refused when it misses any or is of another group).
    #[staticmethod]
    fn from_aggregate(
        context: &Bound<'_, PyAny>,
        crs: &PyCrs,
        group: &PyGroup,
        aggregate: &PyShare,
        index: Int<u32>,
    ) -> PyResult<Self> {
        let o = Owner::of(context)?;
        let secret = mp::ThresholdSecret::from_aggregate(
            key_context(&o),
            &crs.0,
            &group.0,
            aggregate.get(&o)?,
            index.0,
        )
        .py()?;
        Ok(PyThresholdSecret { owner: o, secret })
    }
    /// New party `index`'s threshold secret of `new_group` from the complete aggregate of the
    /// re-sharing shares it received from every member of `acting` (the old parties).
    #[staticmethod]
    fn from_reshare(
        context: &Bound<'_, PyAny>,
        crs: &PyCrs,
        acting: &PyGroup,
        new_group: &PyGroup,
        aggregate: &PyShare,
        index: Int<u32>,
    ) -> PyResult<Self> {
        let o = Owner::of(context)?;
        let secret = mp::ThresholdSecret::from_reshare(
            key_context(&o),
            &crs.0,
            &acting.0,
            &new_group.0,
            aggregate.get(&o)?,
            index.0,
        )
        .py()?;
        Ok(PyThresholdSecret { owner: o, secret })
    }
    /// The party acting among the t or more parties `present` (its share times its Lagrange
    /// coefficient): its shares of those parties' rounds sum to shares of the collective secret.
    #[pyo3(signature = (present, *, seed=None))]
    fn combine(&self, present: Vec<Int<u32>>, seed: Option<&[u8]>) -> PyResult<PyParty> {
        let p = self
            .secret
            .combine(key_context(&self.owner), &ints(present))
            .py()?;
        PyParty::wrap(self.owner.clone(), p, seed)
    }
    #[getter]
    fn index(&self) -> u32 {
        self.secret.index()
    }
    #[getter]
    fn group(&self) -> PyGroup {
        PyGroup(self.secret.group().clone())
    }
    /// The secret's bytes: refused unless `allow_secret=True`.
    #[pyo3(signature = (*, allow_secret=false))]
    fn to_bytes<'py>(&self, py: Python<'py>, allow_secret: bool) -> PyResult<Bound<'py, PyBytes>> {
        if !allow_secret {
            return Err(crate::keys::secret_export_refused(
                "ThresholdSecret.to_bytes()",
            ));
        }
        Ok(bytes_out(py, &self.secret.to_bytes()))
    }
    #[staticmethod]
    fn from_bytes(context: &Bound<'_, PyAny>, data: ByteData) -> PyResult<Self> {
        let o = Owner::of(context)?;
        let secret = mp::ThresholdSecret::from_bytes(key_context(&o), &data.0).py()?;
        Ok(PyThresholdSecret { owner: o, secret })
    }
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::keys::secret_export_refused(
            "pickling a threshold secret",
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyShamirPolynomial>()?;
    m.add_class::<PyThresholdSecret>()?;
    m.add_function(wrap_pyfunction!(shamir_polynomial, m)?)?;
    m.add_function(wrap_pyfunction!(reshare_polynomial, m)?)?;
    m.add_function(wrap_pyfunction!(reshare_round, m)?)?;
    m.add_function(wrap_pyfunction!(reshared_group, m)?)?;
    m.add_function(wrap_pyfunction!(shamir_round, m)?)
}
