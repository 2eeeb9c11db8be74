//! HPR-FV (paper 002) in Python: parameters, context (keys, batch encryption, decryption by
//! Alg. 1 with the noise check, operations), plaintexts, ciphertexts with operators, and the HPR
//! key classes. Contexts with equal parameters are one context; evaluation keys are registered per
//! key pair, as for BFV.

mod context;
mod keys;
mod plain;
mod values;

pub(crate) use context::{PyHprContext, PyHprParameters};
pub(crate) use keys::{PyHprGaloisKeys, PyHprPublicKey, PyHprRelinKey, PyHprSecretKey};
pub(crate) use plain::PyHprPlaintext;
pub(crate) use values::PyHprCiphertext;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock, Weak};

use pyo3::prelude::*;
use rnsfhe::encoding::BatchEncoder;
use rnsfhe::hpr::{HprContext, HprGaloisKeys, HprParameters, HprRelinKey};
use rnsfhe::rlwe::KeyId;

use crate::convert::{security_out, ByteData};
use crate::{raise, OrPy};

/// The context of one HPR parameter set, shared by its Python objects, with the evaluation keys
/// registered per key pair.
pub(crate) struct HprShared {
    pub ctx: Arc<HprContext>,
    /// Batching (t prime and 1 mod 2n), else None.
    pub enc: Option<BatchEncoder>,
    pub params_bytes: Vec<u8>,
    pub label: String,
    rlk: RwLock<BTreeMap<KeyId, Arc<HprRelinKey>>>,
    galois: RwLock<BTreeMap<KeyId, Arc<HprGaloisKeys>>>,
}

/// Live HPR contexts by parameter bytes.
static LIVE: Mutex<Vec<(Vec<u8>, Weak<HprShared>)>> = Mutex::new(Vec::new());

/// The live shared context of `p`, or a new one.
pub(crate) fn shared(p: &HprParameters) -> PyResult<Arc<HprShared>> {
    let bytes = p.to_bytes();
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    live.retain(|(_, w)| w.strong_count() > 0);
    if let Some(s) = live
        .iter()
        .find(|(b, _)| *b == bytes)
        .and_then(|(_, w)| w.upgrade())
    {
        return Ok(s);
    }
    let s = Arc::new(HprShared {
        ctx: HprContext::new(p).py()?,
        enc: BatchEncoder::new(p.degree(), p.plain_modulus()).ok(),
        params_bytes: bytes.clone(),
        label: label(p),
        rlk: RwLock::new(BTreeMap::new()),
        galois: RwLock::new(BTreeMap::new()),
    });
    live.push((bytes, Arc::downgrade(&s)));
    Ok(s)
}

pub(crate) fn label(p: &HprParameters) -> String {
    format!(
        "HprParameters(degree={}, plain_modulus={}, primes={}, digits={}, log_q={:.1}, security={})",
        p.degree(),
        p.plain_modulus(),
        p.p_moduli().len(),
        p.digits(),
        p.log_q(),
        security_out(p.security()),
    )
}

fn find<K>(ring: &RwLock<BTreeMap<KeyId, Arc<K>>>, key: Option<KeyId>) -> Option<Arc<K>> {
    let map = ring.read().unwrap_or_else(|e| e.into_inner());
    match key {
        Some(id) => map.get(&id).cloned(),
        None if map.len() == 1 => map.values().next().cloned(),
        None => None,
    }
}

fn missing(what: &str, key: Option<KeyId>, kind: &str, how: &str) -> PyErr {
    let owner = match key {
        Some(id) => format!("for key pair {id} (the ciphertext's)"),
        None => "(the ciphertext has no key identity)".into(),
    };
    raise(
        "MissingKeyError",
        format!("{what} needs {kind} {owner}: generate it with {how} using that key pair's secret key, or register a loaded one with ctx.register_keys(...)"),
    )
}

impl HprShared {
    pub fn relin_key(&self, what: &str, key: Option<KeyId>) -> PyResult<Arc<HprRelinKey>> {
        find(&self.rlk, key)
            .ok_or_else(|| missing(what, key, "a relinearisation key", "ctx.relin_key(sk)"))
    }
    pub fn galois_keys(&self, what: &str, key: Option<KeyId>) -> PyResult<Arc<HprGaloisKeys>> {
        find(&self.galois, key)
            .ok_or_else(|| missing(what, key, "Galois keys", "ctx.galois_keys(sk)"))
    }
    pub fn set_relin_key(&self, k: Arc<HprRelinKey>) {
        let mut m = self.rlk.write().unwrap_or_else(|e| e.into_inner());
        m.insert(k.id(), k);
    }
    pub fn set_galois_keys(&self, k: Arc<HprGaloisKeys>) {
        let mut m = self.galois.write().unwrap_or_else(|e| e.into_inner());
        m.insert(k.id(), k);
    }
    /// The batch encoder, or an error saying t does not batch.
    pub fn encoder(&self) -> PyResult<&BatchEncoder> {
        self.enc.as_ref().ok_or_else(|| {
            raise(
                "ParameterError",
                format!(
                    "plain_modulus {} does not allow batching at degree {} (use a prime t = 1 mod 2n)",
                    self.ctx.params().plain_modulus(),
                    self.ctx.params().degree()
                ),
            )
        })
    }
}

/// Refuses an object (`what`) of another parameter set.
pub(crate) fn same(a: &Arc<HprShared>, b: &Arc<HprShared>, what: &str) -> PyResult<()> {
    if Arc::ptr_eq(a, b) {
        Ok(())
    } else {
        Err(crate::registry::mismatch(what, &a.label, &b.label))
    }
}

/// Rebuilds a pickled HPR object or key.
pub(crate) fn restore(
    py: Python<'_>,
    kind: &str,
    params: &[u8],
    data: &[u8],
) -> PyResult<Py<PyAny>> {
    let p = HprParameters::from_bytes(params).py()?;
    if kind == "HprParameters" {
        return Ok(Py::new(py, PyHprParameters { inner: p })?.into_any());
    }
    let ctx = PyHprContext::from_shared(shared(&p)?)?;
    let data = ByteData(data.to_vec());
    Ok(match kind {
        "HprContext" => Py::new(py, ctx)?.into_any(),
        "HprCiphertext" => Py::new(py, ctx.ciphertext_from_bytes(data)?)?.into_any(),
        "HprPublicKey" => Py::new(py, ctx.public_key_from_bytes(data)?)?.into_any(),
        "HprRelinKey" => Py::new(py, ctx.relin_key_from_bytes(data)?)?.into_any(),
        "HprGaloisKeys" => Py::new(py, ctx.galois_keys_from_bytes(data)?)?.into_any(),
        "HprPlaintext" => Py::new(py, ctx.plaintext_from_bytes(&data.0)?)?.into_any(),
        other => {
            return Err(raise(
                "SerializationError",
                format!("unknown pickled class {other:?}"),
            ))
        }
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHprParameters>()?;
    m.add_class::<PyHprContext>()?;
    m.add_class::<PyHprCiphertext>()?;
    m.add_class::<PyHprPlaintext>()?;
    m.add_class::<PyHprSecretKey>()?;
    m.add_class::<PyHprPublicKey>()?;
    m.add_class::<PyHprRelinKey>()?;
    m.add_class::<PyHprGaloisKeys>()?;
    Ok(())
}
