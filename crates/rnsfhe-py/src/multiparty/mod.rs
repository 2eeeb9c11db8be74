//! `rnsfhe.multiparty`: the multiparty protocols of `rnsfhe::multiparty` (Mouchet et
//! al., PETS 2021; the thresholdizer of Mouchet, Bertrand and Hubaux, 2022) over the BFV, BGV and
//! CKKS contexts. This file holds the session objects (`Crs`, `Group`, `Round`, `Share`,
//! `Aggregator`) and the refusal exception; `crp.rs` the reference polynomials (`Crp`);
//! `party.rs` the parties and key generation (CKG, RKG, RTG); `threshold.rs` the Shamir shares; `switch.rs` collective decryption and key switching
//! with their `Smudging`; `refresh.rs` the collective refresh and its slot maps; `transform.rs`
//! the masked transform to another parameter set.
//!
//! Shares go between processes as bytes (`Share.to_bytes`, `Share.from_bytes`): a Shamir share is
//! secret, so its bytes need `allow_secret=True`, and no share pickles.

mod crp;
mod party;
mod refresh;
mod rtg;
mod switch;
mod threshold;
mod transform;

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rnsfhe::multiparty as mp;
use rnsfhe::rlwe::KeyContext;

use crate::convert::{ByteData, Int};
use crate::keys::{KeyOwner, Owner};
use crate::{bytes_out, raise, OrPy};

/// The core context behind a key owner, as the protocols see it.
pub(crate) fn key_context(o: &Owner) -> &(dyn KeyContext + Sync) {
    match o {
        Owner::Bfv(s) => s.ctx.as_ref(),
        Owner::Bgv(s) => s.ctx.as_ref(),
        Owner::Ckks(s) => s.ctx.as_ref(),
    }
}

/// The top key level (the default of RKG and RTG).
pub(crate) fn level_or_top(ctx: &dyn KeyContext, level: Option<Int<usize>>) -> usize {
    level.map_or(ctx.key_switcher().top_level(), |l| l.0)
}

/// `ShareRefusedError` for `Error::ShareRefused`, with the share, the fault ("duplicate",
/// "stale", "corrupted", "foreign", "unexpected", "missing") and the detail as attributes.
pub(crate) fn refused(share: &str, fault: rnsfhe::ShareFault, detail: &str, msg: String) -> PyErr {
    let e = raise("ShareRefusedError", msg);
    Python::attach(|py| {
        let v = e.value(py);
        let fault = format!("{fault:?}").to_lowercase();
        // Attributes are a convenience: the message already names the share and the fault.
        let _ = v.setattr("share", share);
        let _ = v.setattr("fault", fault);
        let _ = v.setattr("detail", detail);
    });
    e
}

/// What `Crs.__reduce__` returns: the class and its arguments (seed, nonce).
type Reduced<'py> = (
    Bound<'py, PyAny>,
    (Bound<'py, PyBytes>, Bound<'py, PyBytes>),
);

/// A common reference string: a public 32-byte seed every party of a session agrees on, with an
/// optional public instance nonce (up to 64 bytes) that separates protocol instances under one
/// seed (a retry, a second key generation): each expands its own polynomials, and the shares of
/// one are refused by the aggregators of another. The empty nonce is the seed alone.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Crs")]
pub(crate) struct PyCrs(pub rnsfhe::rlwe::Crs);

#[pymethods]
impl PyCrs {
    /// The CRS of `seed` (32 bytes), or a fresh random one, for the instance `nonce`.
    #[new]
    #[pyo3(signature = (seed=None, nonce=None))]
    fn new(seed: Option<&[u8]>, nonce: Option<&[u8]>) -> PyResult<Self> {
        let s: [u8; 32] = match seed {
            Some(s) => s.try_into().map_err(|_| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "a CRS seed is 32 bytes, got {}",
                    s.len()
                ))
            })?,
            None => {
                let mut r = crate::convert::rng(None)?;
                let mut b = [0u8; 32];
                r.fill_bytes(&mut b);
                b
            }
        };
        Ok(PyCrs(
            rnsfhe::rlwe::Crs::with_nonce(s, nonce.unwrap_or_default()).py()?,
        ))
    }
    /// The seed (public).
    #[getter]
    fn seed<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, self.0.bytes())
    }
    /// The instance nonce (public; empty for none).
    #[getter]
    fn nonce<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, self.0.nonce())
    }
    /// The CRS of the same seed for the instance `nonce`.
    fn with_nonce(&self, nonce: &[u8]) -> PyResult<Self> {
        Ok(PyCrs(
            rnsfhe::rlwe::Crs::with_nonce(*self.0.bytes(), nonce).py()?,
        ))
    }
    /// The CRS's identity, as carried by every share of its session.
    #[getter]
    fn id(&self) -> u64 {
        mp::crs_id(&self.0)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let cls = py.import("rnsfhe.multiparty")?.getattr("Crs")?;
        let seed = bytes_out(py, self.0.bytes());
        Ok((cls, (seed, bytes_out(py, self.0.nonce()))))
    }
    fn __repr__(&self) -> String {
        match self.0.nonce() {
            [] => format!("Crs(id {:016x})", mp::crs_id(&self.0)),
            n => format!("Crs(id {:016x}, nonce {n:?})", mp::crs_id(&self.0)),
        }
    }
}

/// A threshold group: t and the parties' indices (party i's Shamir point is i + 1).
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Group")]
#[derive(Clone)]
pub(crate) struct PyGroup(pub mp::Group);

#[pymethods]
impl PyGroup {
    #[new]
    fn new(t: Int<usize>, members: Vec<Int<u32>>) -> PyResult<Self> {
        Ok(PyGroup(
            mp::Group::new(t.0, &crate::convert::ints(members)).py()?,
        ))
    }
    #[getter]
    fn t(&self) -> usize {
        self.0.t()
    }
    #[getter]
    fn members(&self) -> Vec<u32> {
        self.0.members().to_vec()
    }
    /// The epoch of the sharing (0: the first dealing; a re-sharing's own after).
    #[getter]
    fn epoch(&self) -> u64 {
        self.0.epoch()
    }
    /// The parties `present` (at least t members) acting together, with this group's t and
    /// epoch: the group of their rounds with combined secrets.
    fn subgroup(&self, present: Vec<Int<u32>>) -> PyResult<PyGroup> {
        Ok(PyGroup(
            self.0.subgroup(&crate::convert::ints(present)).py()?,
        ))
    }
    fn __repr__(&self) -> String {
        match self.0.epoch() {
            0 => format!("Group(t={}, members={:?})", self.0.t(), self.0.members()),
            e => format!(
                "Group(t={}, members={:?}, epoch={e:016x})",
                self.0.t(),
                self.0.members()
            ),
        }
    }
}

/// What a share answers: a protocol round of one session, input and group.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Round")]
pub(crate) struct PyRound(pub mp::Round);

/// The Python name of a protocol.
fn protocol_name(p: mp::Protocol) -> &'static str {
    match p {
        mp::Protocol::PublicKey => "ckg",
        mp::Protocol::Relin => "rkg",
        mp::Protocol::Galois => "rtg",
        mp::Protocol::KeySwitch => "cks",
        mp::Protocol::PublicKeySwitch => "pcks",
        mp::Protocol::Shamir => "shamir",
        mp::Protocol::Refresh => "refresh",
        mp::Protocol::Reshare => "reshare",
        mp::Protocol::EncToShares => "enc_to_shares",
        mp::Protocol::SharesToEnc => "shares_to_enc",
    }
}

#[pymethods]
impl PyRound {
    /// "ckg", "rkg", "rtg", "cks", "pcks" or "shamir".
    #[getter]
    fn protocol(&self) -> &'static str {
        protocol_name(self.0.protocol())
    }
    #[getter]
    fn round(&self) -> u8 {
        self.0.round()
    }
    #[getter]
    fn crs_id(&self) -> u64 {
        self.0.crs()
    }
    #[getter]
    fn level(&self) -> usize {
        self.0.level()
    }
    #[getter]
    fn elements(&self) -> Vec<u64> {
        self.0.elements().to_vec()
    }
    #[getter]
    fn group(&self) -> Option<PyGroup> {
        self.0.group().cloned().map(PyGroup)
    }
    fn __repr__(&self) -> String {
        format!(
            "Round({} round {}, crs {:016x})",
            self.protocol(),
            self.0.round(),
            self.0.crs()
        )
    }
}

/// A share, or a (partial or complete) aggregate of shares.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Share")]
pub(crate) struct PyShare {
    pub owner: Owner,
    pub share: Arc<mp::Share>,
}

impl PyShare {
    pub(crate) fn new(owner: &Owner, share: mp::Share) -> Self {
        PyShare {
            owner: owner.clone(),
            share: Arc::new(share),
        }
    }
    /// The share, checked to be of `owner`'s context.
    pub(crate) fn get(&self, owner: &Owner) -> PyResult<&mp::Share> {
        self.owner.check(owner, "share")?;
        Ok(&self.share)
    }
}

#[pymethods]
impl PyShare {
    /// The share in the rnsfhe format (magic, version, CRC, parameters, round, parties, CRS). A
    /// Shamir share is secret: its bytes need `allow_secret=True`.
    #[pyo3(signature = (*, allow_secret=false))]
    fn to_bytes<'py>(&self, py: Python<'py>, allow_secret: bool) -> PyResult<Bound<'py, PyBytes>> {
        if self.share.round().protocol().is_secret() && !allow_secret {
            return Err(raise(
                "SecretKeyExportError",
                "a Shamir share is a share of a party's secret: send it only to its recipient, \
                 over a private channel, with to_bytes(allow_secret=True)"
                    .into(),
            ));
        }
        Ok(bytes_out(py, &self.share.to_bytes()))
    }
    /// A share from `to_bytes` output, for `context`'s parameter set (refused with
    /// `ShareRefusedError` when corrupted or foreign).
    #[staticmethod]
    fn from_bytes(context: &Bound<'_, PyAny>, data: ByteData) -> PyResult<Self> {
        let owner = Owner::of(context)?;
        let s = mp::Share::from_bytes(key_context(&owner), &data.0).map_err(|e| {
            let fault = match e {
                rnsfhe::Error::ParameterMismatch { .. } => rnsfhe::ShareFault::Foreign,
                _ => rnsfhe::ShareFault::Corrupted,
            };
            let what = format!("share bytes ({} bytes)", data.0.len());
            refused(
                &what,
                fault,
                &e.to_string(),
                format!("{what} refused ({fault}): {e}"),
            )
        })?;
        Ok(PyShare::new(&owner, s))
    }
    /// "ckg", "rkg", "rtg", "cks", "pcks" or "shamir".
    #[getter]
    fn protocol(&self) -> &'static str {
        protocol_name(self.share.round().protocol())
    }
    /// The protocol's round, from 1.
    #[getter]
    fn round(&self) -> u8 {
        self.share.round().round()
    }
    /// The full round record.
    #[getter]
    fn round_info(&self) -> PyRound {
        PyRound(self.share.round().clone())
    }
    /// The party whose share it is (None for a sum of several parties' shares).
    #[getter]
    fn party(&self) -> Option<u32> {
        match self.share.parties() {
            [p] => Some(*p),
            _ => None,
        }
    }
    /// The parties whose shares it sums.
    #[getter]
    fn parties(&self) -> Vec<u32> {
        self.share.parties().to_vec()
    }
    /// The identity of the session's CRS.
    #[getter]
    fn crs_id(&self) -> u64 {
        self.share.round().crs()
    }
    /// Whether it is the complete aggregate of its round.
    #[getter]
    fn is_complete(&self) -> bool {
        self.share.is_complete()
    }
    /// The digest of a single party's share (32 bytes), which the aggregates that count it list
    /// for that party: keep it (or the share) to check them with `verify_contribution`.
    #[getter]
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(bytes_out(py, &self.share.digest().py()?))
    }
    /// The parties whose shares it sums, each with the digest of its share.
    #[getter]
    fn contributions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (p, digest) in self.share.contributions() {
            d.set_item(p, bytes_out(py, &digest))?;
        }
        Ok(d)
    }
    /// Checks that this aggregate counts `own` (a party's own share, kept when it was sent) for
    /// that party; raises `ShareRefusedError` ("missing": not counted, "substituted": another
    /// share counted in its name, "stale": a share of another round).
    fn verify_contribution(&self, own: &PyShare) -> PyResult<()> {
        own.owner.check(&self.owner, "share")?;
        self.share.verify_contribution(&own.share).py()
    }
    /// `verify_contribution` of the share of `digest` (its `digest`) that party `party` sent.
    fn verify_contribution_digest(&self, party: Int<u32>, digest: ByteData) -> PyResult<()> {
        let d: mp::ShareDigest = digest.0.as_slice().try_into().map_err(|_| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "a share digest is 32 bytes, got {}",
                digest.0.len()
            ))
        })?;
        self.share.verify_contribution_digest(party.0, &d).py()
    }
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "shares do not pickle: send share.to_bytes() and load with Share.from_bytes(ctx, data)",
        ))
    }
    fn __repr__(&self) -> String {
        format!(
            "Share({} round {}, parties {:?}, crs {:016x})",
            self.protocol(),
            self.round(),
            self.share.parties(),
            self.share.round().crs()
        )
    }
}

/// The running sum of one round's shares from an expected set of parties.
#[pyclass(frozen, module = "rnsfhe.multiparty", name = "Aggregator")]
pub(crate) struct PyAggregator {
    owner: Owner,
    inner: Mutex<Option<mp::Aggregator>>,
}

impl PyAggregator {
    fn with<T>(&self, f: impl FnOnce(&mut mp::Aggregator) -> PyResult<T>) -> PyResult<T> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match g.as_mut() {
            Some(a) => f(a),
            None => Err(pyo3::exceptions::PyRuntimeError::new_err(
                "this aggregator is finished",
            )),
        }
    }
}

#[pymethods]
impl PyAggregator {
    /// An aggregator of `round` under `context`'s parameters expecting `parties`' shares.
    #[new]
    fn new(context: &Bound<'_, PyAny>, round: &PyRound, parties: Vec<Int<u32>>) -> PyResult<Self> {
        let owner = Owner::of(context)?;
        let parties = crate::convert::ints(parties);
        let a = mp::Aggregator::new(key_context(&owner), round.0.clone(), &parties).py()?;
        Ok(PyAggregator {
            owner,
            inner: Mutex::new(Some(a)),
        })
    }
    /// Adds a share (refused with `ShareRefusedError`: duplicate, stale, foreign, unexpected).
    fn add(&self, py: Python<'_>, share: &PyShare) -> PyResult<()> {
        if !share.owner.same(&self.owner) {
            let fp = key_context(&share.owner).params_fingerprint();
            let msg = format!("a share of another parameter set (fingerprint {fp:016x})");
            return Err(refused(
                &format!("share of parties {:?}", share.share.parties()),
                rnsfhe::ShareFault::Foreign,
                &msg,
                format!("share refused (foreign): {msg}"),
            ));
        }
        let s = share.share.clone();
        self.with(|a| py.detach(|| a.add(&s)).py())
    }
    /// Adds a share from bytes (also refused when corrupted).
    fn add_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<()> {
        let ctx = key_context(&self.owner);
        self.with(|a| py.detach(|| a.add_bytes(ctx, &data.0)).py())
    }
    /// The expected parties whose shares have not arrived.
    #[getter]
    fn missing(&self) -> PyResult<Vec<u32>> {
        self.with(|a| Ok(a.missing()))
    }
    #[getter]
    fn is_complete(&self) -> PyResult<bool> {
        self.with(|a| Ok(a.is_complete()))
    }
    #[getter]
    fn round(&self) -> PyResult<PyRound> {
        self.with(|a| Ok(PyRound(a.round().clone())))
    }
    /// The sum so far, as a share (for tree aggregation).
    fn partial(&self) -> PyResult<PyShare> {
        let s = self.with(|a| a.partial().py())?;
        Ok(PyShare::new(&self.owner, s))
    }
    /// The complete aggregate (refused while parties are missing); the aggregator is spent.
    fn finish(&self) -> PyResult<PyShare> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let a = g.take().ok_or_else(|| {
            pyo3::exceptions::PyRuntimeError::new_err("this aggregator is finished")
        })?;
        Ok(PyShare::new(&self.owner, a.finish().py()?))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCrs>()?;
    m.add_class::<PyGroup>()?;
    m.add_class::<PyRound>()?;
    m.add_class::<PyShare>()?;
    m.add_class::<PyAggregator>()?;
    party::register(m)?;
    threshold::register(m)?;
    crp::register(m)?;
    rtg::register(m)?;
    refresh::register(m)?;
    transform::register(m)?;
    switch::register(m)
}
