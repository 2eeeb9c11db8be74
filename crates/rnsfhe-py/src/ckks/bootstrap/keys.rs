//! `BootstrappingKeys` from Python: generation with progress, bytes and pickles, registration per
//! key pair beside the context.

use rnsfhe::circuits::bootstrapping::BootstrappingKeys;

use super::super::*;
use super::{bootstrapper, preset, Preset, Progress};
use crate::registry::Tag;

/// The Python class of bootstrapping keys.
#[pyclass(frozen, module = "rnsfhe", name = "BootstrappingKeys")]
pub(crate) struct PyBootstrappingKeys {
    pub(super) shared: Arc<CkksShared>,
    pub(super) keys: Arc<BootstrappingKeys>,
    preset: Preset,
    seeded: bool,
}

/// The key pair of bootstrapping keys (their relinearisation key's).
pub(super) fn key_pair(k: &BootstrappingKeys) -> PyResult<KeyId> {
    Ok(k.relin_key().py()?.id())
}

impl PyBootstrappingKeys {
    fn bytes(&self) -> Vec<u8> {
        let preset = self.preset.to_bytes();
        let mut out = Vec::with_capacity(preset.len() + self.keys.serialized_len(&self.shared.ctx));
        out.extend_from_slice(&preset);
        out.extend_from_slice(&self.keys.to_bytes(&self.shared.ctx));
        out
    }

    /// Keys from `to_bytes` output for `shared`'s parameters and preset (parameters without one
    /// take the keys' preset, if no other keys gave them one before).
    pub(crate) fn load(shared: Arc<CkksShared>, data: &[u8]) -> PyResult<Self> {
        let (preset, rest) = Preset::from_bytes(data, "rnsfhe bootstrapping keys")?;
        let canonical = preset.canonical()?;
        let params = canonical.parameters()?;
        if params.ckks_parameters().py()? != *shared.ctx.params() {
            return Err(crate::registry::mismatch(
                "bootstrapping keys",
                "a bootstrappable preset of other parameters",
                &shared.label,
            ));
        }
        // Held as the preset holds its keys (seeded at N = 2^16: half the memory).
        let keys =
            BootstrappingKeys::from_bytes_with(&shared.ctx, rest, params.key_storage).py()?;
        key_pair(&keys)?;
        let ours = shared
            .tag
            .unwrap_or_else(|| *shared.extra.loaded_preset.get_or_init(|| canonical));
        if ours != canonical {
            return Err(crate::registry::mismatch(
                "bootstrapping keys",
                &format!("the same chain,{}", Some(canonical).note()),
                &shared.label,
            ));
        }
        Ok(PyBootstrappingKeys {
            shared,
            keys: Arc::new(keys),
            preset,
            seeded: false,
        })
    }
}

#[pymethods]
impl PyBootstrappingKeys {
    /// The identity of the key pair (16 hex digits).
    #[getter]
    fn key_id(&self) -> PyResult<String> {
        Ok(key_pair(&self.keys)?.to_string())
    }
    /// The size of `to_bytes()` (seeded keys, each at the level it is used at).
    #[getter]
    fn nbytes(&self) -> usize {
        self.preset.to_bytes().len() + self.keys.serialized_len(&self.shared.ctx)
    }
    /// The Galois elements g (X -> X^g) of the rotation keys: only those the bootstrap's stages use.
    #[getter]
    fn elements(&self) -> PyResult<Vec<u64>> {
        Ok(self.keys.galois_keys().py()?.elements())
    }
    /// The keys in the rnsfhe binary format, after the preset they were made for (load them with
    /// `BootstrappingKeys.from_bytes` or `CkksContext.bootstrapping_keys_from_bytes`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes_out(py, &self.bytes())
    }
    /// The keys from `to_bytes` output, for `context`'s parameter set (not registered: see
    /// `CkksContext.register_bootstrapping_keys`).
    #[staticmethod]
    fn from_bytes(context: &PyCkksContext, data: ByteData) -> PyResult<Self> {
        Self::load(context.shared.clone(), &data.0)
    }
    /// Pickles through `_restore`; from protocol 5 on the bytes go out of band.
    fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
        let b = self.bytes();
        crate::reduce_ex(
            py,
            "ckks:BootstrappingKeys",
            &self.shared.params_bytes,
            &b,
            protocol,
        )
    }
    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "BootstrappingKeys({}, key pair {}, {} rotation keys{})",
            self.shared.label,
            key_pair(&self.keys)?,
            self.keys.galois_keys().py()?.elements().len(),
            crate::convert::seeded_note(self.seeded)
        ))
    }
}

/// `CkksContext.bootstrapping_keys`: the keys of `sk` for this context's bootstrap, registered for
/// its key pair; `progress` is True (a bar: `rnsfhe._progress`), False or a callable (done, total).
pub(crate) fn generate(
    py: Python<'_>,
    ctx: &PyCkksContext,
    sk: &PySecretKey,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyBootstrappingKeys> {
    let s = sk.get(&ctx.owner())?;
    let boot = bootstrapper(py, &ctx.shared)?;
    let preset = preset(&ctx.shared)
        .ok_or_else(|| raise("InternalError", "a bootstrapper without its preset".into()))?;
    let progress = Progress::new(py, progress, "bootstrapping keys")?;
    let keys = progress.run(py, |tick| {
        ctx.rng.with(|r| boot.generate_keys(&s, r, Some(tick)))
    })?;
    let keys = Arc::new(keys);
    register(&ctx.shared, &keys)?;
    Ok(PyBootstrappingKeys {
        shared: ctx.shared.clone(),
        keys,
        preset,
        seeded: ctx.rng.seeded(),
    })
}

/// Registers `keys` for their key pair (replacing that pair's bootstrapping keys).
fn register(shared: &Arc<CkksShared>, keys: &Arc<BootstrappingKeys>) -> PyResult<()> {
    let id = key_pair(keys)?;
    let mut map = shared.extra.keys.write().unwrap_or_else(|e| e.into_inner());
    map.insert(id, keys.clone());
    Ok(())
}

/// `CkksContext.register_bootstrapping_keys`.
pub(crate) fn register_loaded(ctx: &PyCkksContext, keys: &PyBootstrappingKeys) -> PyResult<()> {
    same(&keys.shared, &ctx.shared, "bootstrapping keys")?;
    register(&ctx.shared, &keys.keys)
}

/// The bootstrapping keys registered for key pair `key` (a ciphertext without identity: the only
/// registered ones), or a `MissingKeyError` saying how to get them.
pub(super) fn registered(
    shared: &CkksShared,
    key: Option<KeyId>,
) -> PyResult<Arc<BootstrappingKeys>> {
    let map = shared.extra.keys.read().unwrap_or_else(|e| e.into_inner());
    let found = match key {
        Some(id) => map.get(&id).cloned(),
        None if map.len() == 1 => map.values().next().cloned(),
        None => None,
    };
    found.ok_or_else(|| {
        let owner = match key {
            Some(id) => format!("for key pair {id} (the ciphertext's)"),
            None => "(the ciphertext has no key identity, so pass the keys explicitly)".into(),
        };
        raise(
            "MissingKeyError",
            format!(
                "bootstrap needs bootstrapping keys {owner}: generate them with \
                 ctx.bootstrapping_keys(sk) using that key pair's secret key, or register loaded \
                 ones with ctx.register_bootstrapping_keys(keys)"
            ),
        )
    })
}
