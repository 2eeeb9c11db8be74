//! Bootstrapping from Python (issue 24): `CkksParameters.bootstrappable` (the presets of
//! `rnsfhe::circuits::bootstrapping::BootstrappingParameters`), the bootstrapping keys (registered per
//! key pair beside the context, bytes and pickling), `CkksContext.bootstrap` and
//! `CkksCiphertext.bootstrap`, and key generation's progress (a Python callback called with the GIL
//! taken back for it only).

use std::collections::BTreeMap;
use std::sync::{Mutex, RwLock};

use rnsfhe::circuits::bootstrapping::{Bootstrapper, BootstrappingKeys, BootstrappingParameters};
use rnsfhe::params::{Security, SecurityLevel};
use rnsfhe::rlwe::SecretDistribution;

use super::*;

/// What `CkksParameters.bootstrappable` was given (`None`: the preset's value). It names the
/// bootstrapping parameters and travels in front of the keys' bytes, so another process (a Dask
/// worker) rebuilds the same bootstrap from the keys alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Preset {
    log_degree: u32,
    slots: Option<usize>,
    residual_levels: Option<usize>,
    scale_bits: Option<u32>,
    security: Security,
    secret: Option<SecretDistribution>,
}

/// The tag in front of a preset's bytes (version 1).
const MAGIC: &[u8; 8] = b"rnsfBTP1";
/// The bytes of a preset: the tag and six u64.
const PRESET_BYTES: usize = 8 + 6 * 8;

impl Preset {
    /// The bootstrapping parameters: N = 2^16 is `BootstrappingParameters::n16` (128-bit by
    /// default, dense ternary secret) or, for a sparse secret (`secret=192`),
    /// `BootstrappingParameters::n16_h192` (its chain fits the sparse secret's smaller bound);
    /// N = 2^11..2^13 the insecure `toy` presets for tests and notebooks (refused unless
    /// `security="insecure"` is asked for).
    pub(crate) fn parameters(&self) -> PyResult<BootstrappingParameters> {
        let mut p = match self.log_degree {
            16 if matches!(self.secret, Some(SecretDistribution::HammingWeight(_))) => {
                BootstrappingParameters::n16_h192()
            }
            16 => BootstrappingParameters::n16(),
            11..=13 if self.security == Security::InsecureResearchOnly => {
                BootstrappingParameters::toy(self.log_degree)
            }
            11..=13 => {
                return Err(raise(
                    "ParameterError",
                    format!(
                        "the bootstrappable presets at N = 2^{} are insecure (for tests and \
                         notebooks): ask for them with security=\"insecure\"",
                        self.log_degree
                    ),
                ))
            }
            n => {
                return Err(raise(
                    "ParameterError",
                    format!(
                        "no bootstrappable preset at N = 2^{n}: logn is 16, or 11..=13 (insecure)"
                    ),
                ))
            }
        };
        p.security = self.security;
        if let Some(s) = self.slots {
            p.slots = s;
        }
        if let Some(r) = self.residual_levels {
            p.residual_levels = r;
        }
        if let Some(b) = self.scale_bits {
            p.scale_bits = b;
        }
        if let Some(s) = self.secret {
            p.secret = s;
        }
        p.validate().py()?;
        Ok(p)
    }

    fn to_bytes(self) -> Vec<u8> {
        let security = match self.security {
            Security::Standard(l) => u64::from(l.bits()),
            Security::InsecureResearchOnly => 0,
        };
        let secret = match self.secret {
            None => 0,
            Some(SecretDistribution::Ternary) => u64::MAX,
            Some(SecretDistribution::HammingWeight(h)) => h as u64,
        };
        let mut out = MAGIC.to_vec();
        for x in [
            u64::from(self.log_degree),
            self.slots.map_or(0, |s| s as u64),
            self.residual_levels.map_or(0, |r| r as u64),
            u64::from(self.scale_bits.unwrap_or(0)),
            security,
            secret,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// A preset from the front of `bytes`, and the bytes after it.
    fn from_bytes(bytes: &[u8]) -> PyResult<(Self, &[u8])> {
        let bad = || raise("SerializationError", "not rnsfhe bootstrapping keys".into());
        if bytes.len() < PRESET_BYTES || &bytes[..8] != MAGIC {
            return Err(bad());
        }
        let word = |i: usize| {
            let w: [u8; 8] = bytes[8 + 8 * i..16 + 8 * i].try_into().unwrap_or_default();
            u64::from_le_bytes(w)
        };
        let some = |x: u64| (x != 0).then_some(x as usize);
        let security = match word(4) {
            0 => Security::InsecureResearchOnly,
            b => SecurityLevel::ALL
                .into_iter()
                .find(|l| u64::from(l.bits()) == b)
                .map(Security::Standard)
                .ok_or_else(bad)?,
        };
        let secret = match word(5) {
            0 => None,
            u64::MAX => Some(SecretDistribution::Ternary),
            h => Some(SecretDistribution::HammingWeight(h as usize)),
        };
        let preset = Preset {
            log_degree: u32::try_from(word(0)).map_err(|_| bad())?,
            slots: some(word(1)),
            residual_levels: some(word(2)),
            scale_bits: some(word(3)).and_then(|b| u32::try_from(b).ok()),
            security,
            secret,
        };
        Ok((preset, &bytes[PRESET_BYTES..]))
    }
}

/// The presets made in this process, by their CKKS parameters' bytes (what `bootstrappable` or
/// loaded keys said a parameter set is for).
static PRESETS: Mutex<Vec<(Vec<u8>, Preset)>> = Mutex::new(Vec::new());

fn remember(params_bytes: Vec<u8>, preset: Preset) {
    let mut all = PRESETS.lock().unwrap_or_else(|e| e.into_inner());
    if !all.iter().any(|(b, _)| *b == params_bytes) {
        all.push((params_bytes, preset));
    }
}

fn preset_of(params_bytes: &[u8]) -> Option<Preset> {
    let all = PRESETS.lock().unwrap_or_else(|e| e.into_inner());
    all.iter().find(|(b, _)| b == params_bytes).map(|(_, p)| *p)
}

/// `CkksParameters.bootstrappable`: the CKKS parameters of a preset, remembered as bootstrappable.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bootstrappable(
    slots: Option<usize>,
    residual_levels: Option<usize>,
    scale_bits: Option<u32>,
    security: Option<&Bound<'_, PyAny>>,
    secret: Option<&Bound<'_, PyAny>>,
    log_degree: u32,
) -> PyResult<PyCkksParameters> {
    let security = match security {
        Some(s) => crate::convert::security(Some(s))?,
        None => Security::default(),
    };
    let secret = secret.map(secret_distribution).transpose()?;
    let preset = Preset {
        log_degree,
        slots,
        residual_levels,
        scale_bits,
        security,
        secret,
    };
    let p = preset.parameters()?.ckks_parameters().py()?;
    remember(p.to_bytes(), preset);
    Ok(PyCkksParameters { inner: p })
}

/// "ternary" or a Hamming weight.
fn secret_distribution(s: &Bound<'_, PyAny>) -> PyResult<SecretDistribution> {
    if let Ok(h) = s.extract::<usize>() {
        return Ok(SecretDistribution::HammingWeight(h));
    }
    match s.extract::<String>() {
        Ok(t) if t == "ternary" => Ok(SecretDistribution::Ternary),
        _ => Err(raise(
            "ParameterError",
            format!(
                "secret must be \"ternary\" or a Hamming weight, got {}",
                s.repr()?
            ),
        )),
    }
}

/// What a CKKS context keeps for bootstrapping: its bootstrapper (built on first use) and the keys
/// registered per key pair.
#[derive(Default)]
pub(crate) struct Bootstrapping {
    bootstrapper: Mutex<Option<Arc<Bootstrapper>>>,
    keys: RwLock<BTreeMap<KeyId, Arc<BootstrappingKeys>>>,
}

/// The bootstrapper of `shared`'s parameters, built once (without the GIL and without holding the
/// lock, which another thread may wait on with the GIL held).
pub(crate) fn bootstrapper(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
) -> PyResult<Arc<Bootstrapper>> {
    let slot = || {
        shared
            .extra
            .bootstrapper
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    };
    if let Some(b) = slot().as_ref() {
        return Ok(b.clone());
    }
    let preset = preset_of(&shared.params_bytes).ok_or_else(|| {
        raise(
            "ParameterError",
            format!(
                "{} is not bootstrappable: make the parameters with \
                 rnsfhe.CkksParameters.bootstrappable(...) (in this process, or load bootstrapping \
                 keys made for them)",
                shared.label
            ),
        )
    })?;
    let params = preset.parameters()?;
    let ctx = shared.ctx.clone();
    let b = Arc::new(py.detach(|| Bootstrapper::new(&ctx, params)).py()?);
    Ok(slot().get_or_insert(b).clone())
}

/// The Python class of bootstrapping keys.
#[pyclass(frozen, module = "rnsfhe", name = "BootstrappingKeys")]
pub(crate) struct PyBootstrappingKeys {
    shared: Arc<CkksShared>,
    keys: Arc<BootstrappingKeys>,
    preset: Preset,
    seeded: bool,
}

/// The key pair of bootstrapping keys (their relinearisation key's).
fn key_pair(k: &BootstrappingKeys) -> PyResult<KeyId> {
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

    /// Keys from `to_bytes` output for `shared`'s parameters.
    pub(crate) fn load(shared: Arc<CkksShared>, data: &[u8]) -> PyResult<Self> {
        let (preset, rest) = Preset::from_bytes(data)?;
        let want = preset.parameters()?.ckks_parameters().py()?.to_bytes();
        if want != shared.params_bytes {
            return Err(crate::registry::mismatch(
                "bootstrapping keys",
                "a bootstrappable preset of other parameters",
                &shared.label,
            ));
        }
        remember(want, preset);
        let keys = BootstrappingKeys::from_bytes(&shared.ctx, rest).py()?;
        key_pair(&keys)?;
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
    let preset = preset_of(&ctx.shared.params_bytes)
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

/// A `progress=` argument as a Python callable (`rnsfhe._progress.callback`), called from Rust
/// with the GIL taken back for the call only; its first error is kept and raised after the run.
struct Progress(Option<Py<PyAny>>);

impl Progress {
    fn new(py: Python<'_>, progress: Option<&Bound<'_, PyAny>>, desc: &str) -> PyResult<Self> {
        let cb = py
            .import("rnsfhe._progress")?
            .getattr("callback")?
            .call1((progress, desc))?;
        Ok(Progress((!cb.is_none()).then(|| cb.unbind())))
    }

    /// Runs `f` without the GIL, giving it the tick to call after each step.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn FnMut(usize, usize)) -> rnsfhe::Result<T> + Send,
    ) -> PyResult<T> {
        let mut failure: Option<PyErr> = None;
        let out = py.detach(|| {
            let mut tick = |done: usize, total: usize| {
                if let (Some(cb), None) = (&self.0, &failure) {
                    Python::attach(|py| {
                        if let Err(e) = cb.call1(py, (done, total)) {
                            failure = Some(e);
                        }
                    });
                }
            };
            f(&mut tick)
        });
        match failure {
            Some(e) => Err(e),
            None => out.py(),
        }
    }
}

/// `CkksContext.train_logistic(..., bootstrap=True)`: the training refreshed by this context's
/// bootstrap with the keys registered for the data's key pair.
pub(crate) fn train(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    z: Arc<CkksCiphertext>,
    (samples, features, iterations): (usize, usize, usize),
    rlk: &rnsfhe::rlwe::RelinKey,
    keys: &rnsfhe::rlwe::GaloisKeys,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<CkksCiphertext> {
    let boot = bootstrapper(py, shared)?;
    let bk = registered(shared, z.key_id())?;
    let progress = Progress::new(py, progress, "training")?;
    let ctx = shared.ctx.clone();
    progress.run(py, |tick| {
        // The training runs in the residual band (the levels above hold scales near their wide
        // primes, where its constants would not fit a word).
        let top = boot.output_level();
        let z = if z.level() > top {
            Arc::new(ctx.drop_to_level(&z, top)?)
        } else {
            z
        };
        let mut refresh = |c: &CkksCiphertext| boot.bootstrap(&ctx, c, &bk);
        circuits::logistic::train_logistic_refreshed(
            &ctx,
            &z,
            samples,
            features,
            iterations,
            rlk,
            keys,
            &mut refresh,
            Some(tick),
        )
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
fn registered(shared: &CkksShared, key: Option<KeyId>) -> PyResult<Arc<BootstrappingKeys>> {
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

/// The bootstrap of `ct` (`CkksContext.bootstrap`, `CkksCiphertext.bootstrap`): with `keys`, or
/// the keys registered for the ciphertext's key pair.
pub(crate) fn run(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    ct: Arc<CkksCiphertext>,
    keys: Option<&PyBootstrappingKeys>,
) -> PyResult<CkksCiphertext> {
    let boot = bootstrapper(py, shared)?;
    let k = match keys {
        Some(k) => {
            same(&k.shared, shared, "bootstrapping keys")?;
            KeyId::check(ct.key_id(), key_pair(&k.keys)?, "bootstrapping keys").py()?;
            k.keys.clone()
        }
        None => registered(shared, ct.key_id())?,
    };
    let ctx = shared.ctx.clone();
    py.detach(|| boot.bootstrap(&ctx, &ct, &k)).py()
}

/// The level of a bootstrap's outputs on this context (building its bootstrapper).
pub(crate) fn output_level(py: Python<'_>, shared: &Arc<CkksShared>) -> PyResult<usize> {
    Ok(bootstrapper(py, shared)?.output_level())
}
