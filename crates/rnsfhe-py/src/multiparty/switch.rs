//! Collective decryption (CKS to s' = 0, PETS 2021 Prot. 4) and public-key switching (PCKS,
//! Prot. 5) over the Python ciphertexts of BFV, BGV and CKKS, with smudging noise.

use std::sync::Arc;

use pyo3::prelude::*;
use rnsfhe::multiparty::{self as mp, Collective};

use super::{PyCrs, PyGroup, PyRound, PyShare};
use crate::bfv::{PyBfvCiphertext, PyBfvPlaintext};
use crate::bgv::{PyBgvCiphertext, PyBgvPlaintext};
use crate::ckks::{PyCkksCiphertext, PyCkksPlaintext};
use crate::convert::Int;
use crate::keys::{KeyOwner, Owner, PyPublicKey};
use crate::registry::{same, Shared};
use crate::OrPy;

use super::party::PyParty;

/// A scheme's Python ciphertext and plaintext classes, for the generic protocol calls.
pub(super) trait PyValues:
    Collective + crate::registry::Scheme + Sized + Send + Sync
{
    /// The ciphertext of Python object `obj`, checked to be of `shared`'s context.
    fn ciphertext(
        obj: &Bound<'_, PyAny>,
        shared: &Arc<Shared<Self>>,
    ) -> PyResult<Arc<<Self as Collective>::Ciphertext>>;
    fn wrap_ct(
        py: Python<'_>,
        shared: &Arc<Shared<Self>>,
        ct: <Self as Collective>::Ciphertext,
    ) -> PyResult<Py<PyAny>>;
    fn wrap_pt(
        py: Python<'_>,
        shared: &Arc<Shared<Self>>,
        pt: <Self as Collective>::Plaintext,
    ) -> PyResult<Py<PyAny>>;
}

macro_rules! py_values {
    ($($Ctx:ty: $PyCt:ident, $PyPt:ident);*) => {
        $(impl PyValues for $Ctx {
            fn ciphertext(
                obj: &Bound<'_, PyAny>,
                shared: &Arc<Shared<Self>>,
            ) -> PyResult<Arc<<Self as Collective>::Ciphertext>> {
                let c = obj.cast::<$PyCt>().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(format!(
                        "expected a {} of the party's context, got {}",
                        <$PyCt as pyo3::PyClass>::NAME,
                        crate::convert::type_name(obj)
                    ))
                })?;
                same(&c.get().shared, shared, "ciphertext")?;
                Ok(c.get().ct.clone())
            }
            fn wrap_ct(py: Python<'_>, shared: &Arc<Shared<Self>>, ct: <Self as Collective>::Ciphertext) -> PyResult<Py<PyAny>> {
                Ok(Py::new(py, $PyCt { shared: shared.clone(), ct: Arc::new(ct) })?.into_any())
            }
            fn wrap_pt(py: Python<'_>, shared: &Arc<Shared<Self>>, pt: <Self as Collective>::Plaintext) -> PyResult<Py<PyAny>> {
                Ok(Py::new(py, $PyPt { shared: shared.clone(), pt: Arc::new(pt) })?.into_any())
            }
        })*
    };
}

py_values!(
    rnsfhe::bfv::BfvContext: PyBfvCiphertext, PyBfvPlaintext;
    rnsfhe::bgv::BgvContext: PyBgvCiphertext, PyBgvPlaintext;
    rnsfhe::ckks::CkksContext: PyCkksCiphertext, PyCkksPlaintext
);

/// Runs `$body` with `$S` the scheme's context type and `$s` its shared context.
macro_rules! with_scheme {
    ($owner:expr, $S:ident, $s:ident => $body:expr) => {
        match $owner {
            Owner::Bfv($s) => {
                type $S = rnsfhe::bfv::BfvContext;
                $body
            }
            Owner::Bgv($s) => {
                type $S = rnsfhe::bgv::BgvContext;
                $body
            }
            Owner::Ckks($s) => {
                type $S = rnsfhe::ckks::CkksContext;
                $body
            }
        }
    };
}

pub(super) use with_scheme;

/// `Smudging.for_ciphertext`.
pub(super) fn smudging_for(ct: &Bound<'_, PyAny>, lambda: u32) -> PyResult<mp::Smudging> {
    let ctx = ct.getattr("context")?;
    let o = Owner::of(&ctx)?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        mp::Smudging::for_ciphertext(&*s.ctx, &*c, lambda).py()
    })
}

/// log2 of the error bound `ct` carries (BFV, BGV), as `Smudging(noise_log2, ...)` and
/// `cks_share(..., noise_log2=...)` take it; None for CKKS. A ciphertext read from bytes carries
/// the bound its sender wrote: from a sender you do not trust, take this of a twin instead (the
/// same circuit on your own encryptions of zero) and state it with `noise_log2=`.
#[pyfunction]
fn noise_bound_log2(ct: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
    let ctx = ct.getattr("context")?;
    let o = Owner::of(&ctx)?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        mp::NoiseBound::carried_log2(&*s.ctx, &*c).py()
    })
}

/// The round of a collective decryption of `ct` (`target`: of a key switch to that collective
/// public key's key pair instead).
#[pyfunction]
#[pyo3(signature = (context, crs, ct, group=None, *, target=None))]
fn cks_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    group: Option<&PyGroup>,
    target: Option<&PyPublicKey>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    let target = target.map(|t| t.get(&o).map(|k| k.id())).transpose()?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        Ok(PyRound(mp::cks_round(&*s.ctx, &crs.0, &*c, target, group.map(|g| &g.0)).py()?))
    })
}

/// What a party checks its smudging against: the ciphertext's carried error bound (BFV, BGV), a
/// stated `noise_log2` (CKKS), or nothing when `allow_weak_smudging` (by name).
pub(super) fn floor(noise_log2: Option<f64>, allow_weak_smudging: bool) -> mp::NoiseBound {
    match (allow_weak_smudging, noise_log2) {
        (true, _) => mp::NoiseBound::Unchecked,
        (false, Some(b)) => mp::NoiseBound::Stated(b),
        (false, None) => mp::NoiseBound::Carried,
    }
}

/// The party's share of a collective decryption of `ct` (its secret times c1, plus smudging), or
/// of a key switch to the collective key pair of `target` (the party's counterpart there, which
/// has joined it): (s_i - s'_i) c1 plus smudging. Refused when the smudging is below what
/// lambda = 40 asks for the ciphertext's error bound: the one it carries (BFV, BGV) or
/// `noise_log2` (CKKS: state it); `allow_weak_smudging=True` skips the check.
#[pyfunction]
#[pyo3(signature = (party, ct, crs, smudging, *, target=None, noise_log2=None, allow_weak_smudging=false))]
#[allow(clippy::too_many_arguments)]
fn cks_share(
    py: Python<'_>,
    party: &PyParty,
    ct: &Bound<'_, PyAny>,
    crs: &PyCrs,
    smudging: &PySmudging,
    target: Option<&PyParty>,
    noise_log2: Option<f64>,
    allow_weak_smudging: bool,
) -> PyResult<PyShare> {
    let sm = mp::ShareSmudging::new(&smudging.0, floor(noise_log2, allow_weak_smudging));
    let o = party.owner.clone();
    if let Some(t) = target {
        t.owner.check(&o, "target party")?;
    }
    let share = with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        py.detach(|| party.with(&o, |p, r| {
            let t = target.map(|t| t.party.read().unwrap_or_else(|e| e.into_inner()));
            mp::cks_share(&*ctx, p, t.as_deref(), &*c, &crs.0, sm, r)
        }))?
    });
    Ok(PyShare::new(&o, share.py()?))
}

/// `ct` switched to the collective key pair of `target` (its collective public key) from the
/// complete aggregate of the key-switch shares of `parties`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn cks_switch(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    aggregate: &PyShare,
    parties: Vec<Int<u32>>,
    target: &PyPublicKey,
    smudging: &PySmudging,
) -> PyResult<Py<PyAny>> {
    let o = Owner::of(context)?;
    let (agg, id) = (aggregate.get(&o)?, target.get(&o)?.id());
    let who = crate::convert::ints(parties);
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        let out = py
            .detach(|| mp::key_switch(&*ctx, &crs.0, &*c, agg, &who, id, &smudging.0))
            .py()?;
        S::wrap_ct(py, s, out)
    })
}

/// The plaintext of `ct` from the complete aggregate of the decryption shares of `parties`.
#[pyfunction]
fn cks_decrypt(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    aggregate: &PyShare,
    parties: Vec<Int<u32>>,
    smudging: &PySmudging,
) -> PyResult<Py<PyAny>> {
    let o = Owner::of(context)?;
    let agg = aggregate.get(&o)?;
    let who = crate::convert::ints(parties);
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        let pt = py.detach(|| mp::decrypt(&*ctx, &crs.0, &*c, agg, &who, &smudging.0)).py()?;
        S::wrap_pt(py, s, pt)
    })
}

/// The round of a public-key switch of `ct` to `receiver`'s public key.
#[pyfunction]
#[pyo3(signature = (context, crs, ct, receiver, group=None))]
fn pcks_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    receiver: &PyPublicKey,
    group: Option<&PyGroup>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    let pk = receiver.get(&o)?;
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        Ok(PyRound(mp::pcks_round(&*s.ctx, &crs.0, &*c, &pk, group.map(|g| &g.0)).py()?))
    })
}

/// The party's share of a public-key switch of `ct` to `receiver`'s public key (its smudging
/// checked as `cks_share`'s).
#[pyfunction]
#[pyo3(signature = (party, receiver, ct, crs, smudging, *, noise_log2=None, allow_weak_smudging=false))]
#[allow(clippy::too_many_arguments)]
fn pcks_share(
    py: Python<'_>,
    party: &PyParty,
    receiver: &PyPublicKey,
    ct: &Bound<'_, PyAny>,
    crs: &PyCrs,
    smudging: &PySmudging,
    noise_log2: Option<f64>,
    allow_weak_smudging: bool,
) -> PyResult<PyShare> {
    let sm = mp::ShareSmudging::new(&smudging.0, floor(noise_log2, allow_weak_smudging));
    let o = party.owner.clone();
    let pk = receiver.get(&o)?;
    let share = with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        py.detach(|| party.with(&o, |p, r| mp::pcks_share(&*ctx, p, &pk, &*c, &crs.0, sm, r)))?
    });
    Ok(PyShare::new(&o, share.py()?))
}

/// `ct` re-encrypted under `receiver`'s public key from the complete PCKS aggregate of the
/// shares of `parties`; the noise bound assumes `receiver_secret` of the receiver's key pair (its
/// public key cannot show it).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn pcks_switch(
    py: Python<'_>,
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    ct: &Bound<'_, PyAny>,
    aggregate: &PyShare,
    parties: Vec<Int<u32>>,
    receiver: &PyPublicKey,
    smudging: &PySmudging,
    receiver_secret: &PyReceiverSecret,
) -> PyResult<Py<PyAny>> {
    let o = Owner::of(context)?;
    let (agg, pk) = (aggregate.get(&o)?, receiver.get(&o)?);
    let who = crate::convert::ints(parties);
    with_scheme!(&o, S, s => {
        let c = S::ciphertext(ct, s)?;
        let ctx = s.ctx.clone();
        let out = py
            .detach(|| {
                let rs = receiver_secret.0;
                mp::public_key_switch(&*ctx, &crs.0, &*c, agg, &who, &pk, rs, &smudging.0)
            })
            .py()?;
        S::wrap_ct(py, s, out)
    })
}
/// What PCKS's noise bound assumes of the receiver's key pair: one key pair of the parameters'
/// distributions (`single()`), the collective key pair of `parties` parties (`collective`), or
/// norms the receiver states (`stated`: ||s'||_2 and the deviation of its public key's error).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "ReceiverSecret")]
#[derive(Clone)]
pub(crate) struct PyReceiverSecret(mp::ReceiverSecret);

#[pymethods]
impl PyReceiverSecret {
    /// One key pair of the parameters' distributions (`ctx.keygen()`).
    #[staticmethod]
    fn single() -> Self {
        PyReceiverSecret(mp::ReceiverSecret::Single)
    }
    /// The collective key pair of `parties` parties (a CKG public key).
    #[staticmethod]
    fn collective(parties: Int<usize>) -> Self {
        PyReceiverSecret(mp::ReceiverSecret::Collective { parties: parties.0 })
    }
    /// Stated by the receiver: ||s'||_2 and the standard deviation of its public key's error.
    #[staticmethod]
    fn stated(l2: f64, error_sigma: f64) -> Self {
        PyReceiverSecret(mp::ReceiverSecret::Stated { l2, error_sigma })
    }
    fn __repr__(&self) -> String {
        format!("ReceiverSecret({:?})", self.0)
    }
}

/// The smudging noise of collective decryption and key switching (Gaussian of deviation sigma
/// per party), sized for statistical security 2^-lambda over a ciphertext noise of 2^noise_log2.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Smudging")]
#[derive(Clone)]
pub(crate) struct PySmudging(pub mp::Smudging);

#[pymethods]
impl PySmudging {
    #[new]
    #[pyo3(signature = (noise_log2, degree, *, lambda_=mp::DEFAULT_LAMBDA, decryptions=1))]
    fn new(noise_log2: f64, degree: Int<usize>, lambda_: u32, decryptions: u64) -> PyResult<Self> {
        Ok(PySmudging(
            mp::Smudging::new(lambda_, noise_log2, degree.0, decryptions).py()?,
        ))
    }
    /// Smudging of deviation `sigma` (a share refuses it below the ciphertext's floor unless
    /// `allow_weak_smudging=True`).
    #[staticmethod]
    fn with_sigma(sigma: f64) -> PyResult<Self> {
        Ok(PySmudging(mp::Smudging::with_sigma(sigma).py()?))
    }
    /// For one decryption of `ct` from the noise bound it carries (BFV, BGV; CKKS: use the
    /// constructor with a stated bound).
    #[staticmethod]
    #[pyo3(signature = (ct, *, lambda_=mp::DEFAULT_LAMBDA))]
    fn for_ciphertext(ct: &Bound<'_, PyAny>, lambda_: u32) -> PyResult<Self> {
        smudging_for(ct, lambda_).map(PySmudging)
    }
    #[getter]
    fn sigma(&self) -> f64 {
        self.0.sigma()
    }
    /// log2 of the bound on the sum of `parties` parties' smudging noise.
    fn bound_log2(&self, parties: Int<usize>) -> f64 {
        self.0.bound_log2(parties.0)
    }
    fn __repr__(&self) -> String {
        format!("Smudging(sigma=2^{:.2})", self.0.sigma().log2())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySmudging>()?;
    m.add_class::<PyReceiverSecret>()?;
    for f in [
        wrap_pyfunction!(noise_bound_log2, m)?,
        wrap_pyfunction!(cks_round, m)?,
        wrap_pyfunction!(cks_share, m)?,
        wrap_pyfunction!(cks_decrypt, m)?,
        wrap_pyfunction!(cks_switch, m)?,
        wrap_pyfunction!(pcks_round, m)?,
        wrap_pyfunction!(pcks_share, m)?,
        wrap_pyfunction!(pcks_switch, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
