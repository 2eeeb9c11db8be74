//! Parties and collective key generation: `Party` (its secret stays in the process), CKG
//! (PETS 2021, Prot. 1), RKG (Prot. 2, two rounds), RTG (Prot. 3) and the thresholdizer's Shamir
//! shares (Mouchet, Bertrand and Hubaux, 2022, sec. 4); RTG (Prot. 3) is in `rtg.rs`. The collective keys are the context's own
//! key classes, registered like single-party keys.

use std::sync::{Arc, RwLock};

use pyo3::prelude::*;
use rnsfhe::multiparty::{self as mp, ckg, rkg};
use rnsfhe::rlwe::KeyContext;

use super::crp::{Ref, Reference};
use super::{key_context, level_or_top, PyCrs, PyGroup, PyRound, PyShare};
use crate::convert::{Int, LockedRng};
use crate::keys::{KeyOwner, Made, Owner, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::Shared;
use crate::OrPy;

/// A party: its index and secret share, which never leave the process (no pickling; the secret
/// key only through `secret_key()`, whose bytes need `allow_secret=True`).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Party")]
pub(crate) struct PyParty {
    pub owner: Owner,
    pub party: RwLock<mp::Party>,
    pub rng: LockedRng,
}

impl PyParty {
    pub(crate) fn wrap(owner: Owner, party: mp::Party, seed: Option<&[u8]>) -> PyResult<Self> {
        Ok(PyParty {
            owner,
            party: RwLock::new(party),
            rng: LockedRng::new(seed)?,
        })
    }
    /// Runs `f` on the party (checked to be of `owner`'s context) and its generator.
    pub(crate) fn with<T>(
        &self,
        owner: &Owner,
        f: impl FnOnce(&mp::Party, &mut rnsfhe_math::sample::Csprng) -> T,
    ) -> PyResult<T> {
        self.owner.check(owner, "party")?;
        let p = self.party.read().unwrap_or_else(|e| e.into_inner());
        Ok(self.rng.with(|r| f(&p, r)))
    }
    pub(crate) fn ctx(&self) -> &(dyn KeyContext + Sync) {
        key_context(&self.owner)
    }
}

#[pymethods]
impl PyParty {
    /// Party `index` of `context`'s parameters with a fresh secret (or `secret_key`); `seed`
    /// (32 bytes) makes its secret and shares reproducible (tests only).
    #[new]
    #[pyo3(signature = (context, index, *, secret_key=None, seed=None))]
    fn new(
        context: &Bound<'_, PyAny>,
        index: Int<u32>,
        secret_key: Option<&PySecretKey>,
        seed: Option<&[u8]>,
    ) -> PyResult<Self> {
        let owner = Owner::of(context)?;
        let mut rng = crate::convert::rng(seed)?;
        let p = match secret_key {
            Some(sk) => {
                let k = sk.get(&owner)?;
                mp::Party::new(index.0, copy_secret(&owner, k.as_ref())?)
            }
            None => mp::Party::generate(key_context(&owner), index.0, &mut rng).py()?,
        };
        let next: Option<[u8; 32]> = seed.map(|_| {
            let mut b = [0u8; 32];
            rng.fill_bytes(&mut b);
            b
        });
        PyParty::wrap(owner, p, next.as_ref().map(|b| &b[..]))
    }
    #[getter]
    fn index(&self) -> u32 {
        self.party.read().unwrap_or_else(|e| e.into_inner()).index()
    }
    /// The threshold group it acts in (None: N-out-of-N).
    #[getter]
    fn group(&self) -> Option<PyGroup> {
        let p = self.party.read().unwrap_or_else(|e| e.into_inner());
        p.group().cloned().map(PyGroup)
    }
    /// Records the collective public key its secret is a share of: key switching then refuses
    /// ciphertexts of other key pairs.
    fn join(&self, pk: &PyPublicKey) -> PyResult<()> {
        let k = pk.get(&self.owner)?;
        let mut p = self.party.write().unwrap_or_else(|e| e.into_inner());
        p.join(&k).py()
    }
    /// The party's secret share as a secret key (for tests: sums of them decrypt).
    fn secret_key(&self) -> PyResult<PySecretKey> {
        let p = self.party.read().unwrap_or_else(|e| e.into_inner());
        let key = Arc::new(copy_secret(&self.owner, p.secret())?);
        Ok(Made {
            owner: self.owner.clone(),
            key,
            seeded: false,
        }
        .into())
    }
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::keys::secret_export_refused("pickling a party"))
    }
    fn __repr__(&self) -> String {
        format!("Party({}, {})", self.index(), self.owner.label())
    }
}

/// A copy of a secret key (through its bytes: secret keys do not clone).
fn copy_secret(o: &Owner, sk: &rnsfhe::rlwe::SecretKey) -> PyResult<rnsfhe::rlwe::SecretKey> {
    let kb: &dyn rnsfhe::serialize::KeyBytes = match o {
        Owner::Bfv(s) => s.ctx.as_ref(),
        Owner::Bgv(s) => s.ctx.as_ref(),
        Owner::Ckks(s) => s.ctx.as_ref(),
    };
    kb.secret_key_from_bytes(&kb.secret_key_to_bytes(sk).py()?)
        .py()
}

pub(super) fn group_of(g: Option<&PyGroup>) -> Option<&mp::Group> {
    g.map(|g| &g.0)
}

/// The round of CKG.
#[pyfunction]
#[pyo3(signature = (context, crs, group=None))]
fn ckg_round(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    group: Option<&PyGroup>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    Ok(PyRound(ckg::round(
        key_context(&o),
        &crs.0,
        group_of(group),
    )))
}

/// The party's CKG share p0_i = -(s_i a + e_i) (`crs`: a `Crs` or its `ckg_crp`).
#[pyfunction]
fn ckg_share(py: Python<'_>, party: &PyParty, crs: Reference<'_>) -> PyResult<PyShare> {
    let ctx = party.ctx();
    let r = crs.resolve(&party.owner)?;
    let s = py.detach(|| {
        party.with(&party.owner, |p, _| match &r {
            Ref::Crs(c) => ckg::share(ctx, p, c),
            Ref::Crp(c) => ckg::share_with(ctx, p, c),
        })
    })?;
    Ok(PyShare::new(&party.owner, s.py()?))
}

/// The collective public key from the complete CKG aggregate of the shares of `parties` (refused
/// when it misses any or sums others'; `crs`: a `Crs` or its `ckg_crp`).
#[pyfunction]
fn ckg_public_key(
    context: &Bound<'_, PyAny>,
    crs: Reference<'_>,
    aggregate: &PyShare,
    parties: Vec<Int<u32>>,
) -> PyResult<PyPublicKey> {
    let o = Owner::of(context)?;
    let (ctx, agg) = (key_context(&o), aggregate.get(&o)?);
    let who = crate::convert::ints(parties);
    let pk = match crs.resolve(&o)? {
        Ref::Crs(c) => ckg::public_key(ctx, &c, agg, &who),
        Ref::Crp(c) => ckg::public_key_with(ctx, &c, agg, &who),
    }
    .py()?;
    Ok(Made {
        owner: o,
        key: Arc::new(pk),
        seeded: false,
    }
    .into())
}

/// The first round of RKG at `level` (default: the top).
#[pyfunction]
#[pyo3(signature = (context, crs, level=None, group=None))]
fn rkg_round1(
    context: &Bound<'_, PyAny>,
    crs: &PyCrs,
    level: Option<Int<usize>>,
    group: Option<&PyGroup>,
) -> PyResult<PyRound> {
    let o = Owner::of(context)?;
    let ctx = key_context(&o);
    Ok(PyRound(
        rkg::round1(ctx, &crs.0, level_or_top(ctx, level), group_of(group)).py()?,
    ))
}

/// The second round of RKG, bound to the round-1 aggregate.
#[pyfunction]
fn rkg_round2(round1_aggregate: &PyShare) -> PyResult<PyRound> {
    Ok(PyRound(rkg::round2(&round1_aggregate.share).py()?))
}

/// The ephemeral secret u_i of a party between RKG's two rounds (never leaves the process).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "RelinEphemeral")]
pub(crate) struct PyRelinEphemeral(rkg::RelinEphemeral);

#[pymethods]
impl PyRelinEphemeral {
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::keys::secret_export_refused(
            "pickling an RKG ephemeral secret",
        ))
    }
}

/// The party's RKG round-1 share and its ephemeral secret (keep it for round 2); `crs`: a `Crs`
/// or its `rkg_crp` (whose level is the key's: `level`, if given, must agree).
#[pyfunction]
#[pyo3(signature = (party, crs, level=None))]
fn rkg_share_round1(
    py: Python<'_>,
    party: &PyParty,
    crs: Reference<'_>,
    level: Option<Int<usize>>,
) -> PyResult<(PyShare, PyRelinEphemeral)> {
    let ctx = party.ctx();
    let reference = crs.resolve(&party.owner)?;
    if let (Ref::Crp(c), Some(l)) = (&reference, &level) {
        if c.level() != l.0 {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "rkg_share_round1: level {} given, the Crp's is {}",
                l.0,
                c.level()
            )));
        }
    }
    let level = level_or_top(ctx, level);
    let r = py.detach(|| {
        party.with(&party.owner, |p, r| match &reference {
            Ref::Crs(c) => rkg::share_round1(ctx, p, c, level, r),
            Ref::Crp(c) => rkg::share_round1_with(ctx, p, c, r),
        })
    })?;
    let (s, e) = r.py()?;
    Ok((PyShare::new(&party.owner, s), PyRelinEphemeral(e)))
}

/// The party's RKG round-2 share from the round-1 aggregate (refused unless it counts the round-1
/// share drawn with `ephemeral`).
#[pyfunction]
fn rkg_share_round2(
    py: Python<'_>,
    party: &PyParty,
    ephemeral: &PyRelinEphemeral,
    round1_aggregate: &PyShare,
) -> PyResult<PyShare> {
    let ctx = party.ctx();
    let agg = round1_aggregate.get(&party.owner)?;
    let s = py.detach(|| {
        party.with(&party.owner, |p, r| {
            rkg::share_round2(ctx, p, &ephemeral.0, agg, r)
        })
    })?;
    Ok(PyShare::new(&party.owner, s.py()?))
}

/// Registers a collective relinearisation key or Galois keys with their context.
pub(super) fn register_keys(
    o: &Owner,
    relin: Option<&Arc<rnsfhe::rlwe::RelinKey>>,
    galois: Option<&Arc<rnsfhe::rlwe::GaloisKeys>>,
) -> PyResult<()> {
    fn reg<
        C: crate::registry::Scheme<
            RelinKey = rnsfhe::rlwe::RelinKey,
            GaloisKeys = rnsfhe::rlwe::GaloisKeys,
        >,
    >(
        s: &Shared<C>,
        relin: Option<&Arc<rnsfhe::rlwe::RelinKey>>,
        galois: Option<&Arc<rnsfhe::rlwe::GaloisKeys>>,
    ) -> PyResult<()> {
        if let Some(k) = relin {
            s.set_relin_key(k.clone())?;
        }
        if let Some(k) = galois {
            s.set_galois_keys(k.clone())?;
        }
        Ok(())
    }
    match o {
        Owner::Bfv(s) => reg(s, relin, galois),
        Owner::Bgv(s) => reg(s, relin, galois),
        Owner::Ckks(s) => reg(s, relin, galois),
    }
}

/// The collective relinearisation key from RKG's two aggregates of the shares of `parties`,
/// registered with the context for the ciphertexts of the collective public key `pk`.
#[pyfunction]
fn rkg_relin_key(
    context: &Bound<'_, PyAny>,
    round1_aggregate: &PyShare,
    round2_aggregate: &PyShare,
    parties: Vec<Int<u32>>,
    pk: &PyPublicKey,
) -> PyResult<PyRelinKey> {
    let o = Owner::of(context)?;
    let (a1, a2, pk) = (
        round1_aggregate.get(&o)?,
        round2_aggregate.get(&o)?,
        pk.get(&o)?,
    );
    let who = crate::convert::ints(parties);
    let k = Arc::new(rkg::relin_key(key_context(&o), a1, a2, &who, &pk).py()?);
    register_keys(&o, Some(&k), None)?;
    Ok(Made {
        owner: o,
        key: k,
        seeded: false,
    }
    .into())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyParty>()?;
    m.add_class::<PyRelinEphemeral>()?;
    for f in [
        wrap_pyfunction!(ckg_round, m)?,
        wrap_pyfunction!(ckg_share, m)?,
        wrap_pyfunction!(ckg_public_key, m)?,
        wrap_pyfunction!(rkg_round1, m)?,
        wrap_pyfunction!(rkg_round2, m)?,
        wrap_pyfunction!(rkg_share_round1, m)?,
        wrap_pyfunction!(rkg_share_round2, m)?,
        wrap_pyfunction!(rkg_relin_key, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
