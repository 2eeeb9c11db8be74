//! The keys of a bootstrap: which Galois elements at which levels, the relinearisation key, and
//! their generation with progress (only the keys the chosen stages use).

use std::collections::BTreeMap;
use std::sync::Arc;

use rnsfhe_math::sample::Csprng;

use crate::circuits::dft::HomomorphicDft;
use crate::ckks::CkksContext;
use crate::rlwe::{
    EncapsulationKeys, EvaluationKeySet, GaloisKeys, KeyGenerator, KeyStorage, RelinKey, SecretKey,
};
use crate::serialize::{append_evaluation_keys, KeyBytes};
use crate::{Error, Result};

/// One Galois key a bootstrap uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GaloisRequirement {
    /// The Galois element g of X -> X^g.
    pub element: u64,
    /// The rotation step it serves (`None`: the conjugation).
    pub step: Option<i64>,
    /// The highest level it is used at: the key needs q_0..q_level and P only.
    pub level: usize,
}

impl GaloisRequirement {
    /// The rotation by `step` at `level`.
    pub fn rotation(ctx: &CkksContext, step: i64, level: usize) -> Self {
        GaloisRequirement {
            element: ctx.encoder().rotation_galois_element(step),
            step: Some(step),
            level,
        }
    }

    /// The conjugation at `level`.
    pub fn conjugation(ctx: &CkksContext, level: usize) -> Self {
        GaloisRequirement {
            element: ctx.encoder().conjugation_galois_element(),
            step: None,
            level,
        }
    }
}

/// The rotations of a DFT's stages, each at its stage's level.
pub(crate) fn stage_uses(ctx: &CkksContext, dft: &HomomorphicDft) -> Vec<GaloisRequirement> {
    dft.stages()
        .iter()
        .flat_map(|s| {
            s.rotation_steps()
                .into_iter()
                .map(move |step| GaloisRequirement::rotation(ctx, step, s.level()))
        })
        .collect()
}

/// Every key a [`super::Bootstrapper`] uses ([`super::Bootstrapper::key_requirements`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRequirements {
    /// The Galois keys, one per element (at the highest level any step uses it), by element.
    pub galois: Vec<GaloisRequirement>,
    /// The level of the relinearisation key (EvalMod's input level).
    pub relin_level: usize,
    /// Sparse-secret encapsulation: the Hamming weight of the ephemeral secret.
    pub encapsulation: Option<usize>,
}

impl KeyRequirements {
    /// The requirements of `uses` (merged by element, the highest level kept), a relinearisation
    /// key at `relin_level` and the encapsulation keys.
    pub(crate) fn new(
        uses: impl IntoIterator<Item = GaloisRequirement>,
        relin_level: usize,
        encapsulation: Option<usize>,
    ) -> Self {
        let mut by: BTreeMap<u64, GaloisRequirement> = BTreeMap::new();
        for u in uses {
            by.entry(u.element)
                .and_modify(|e| e.level = e.level.max(u.level))
                .or_insert(u);
        }
        KeyRequirements {
            galois: by.into_values().collect(),
            relin_level,
            encapsulation,
        }
    }

    /// The number of keys: Galois keys, the relinearisation key and the two encapsulation keys.
    pub fn count(&self) -> usize {
        self.galois.len() + 1 + if self.encapsulation.is_some() { 2 } else { 0 }
    }

    /// Refuses `keys` when one is missing: a `MissingGaloisKey` naming the element and its
    /// rotation step, or a `MissingKey` (the relinearisation or the encapsulation keys); encapsulation
    /// keys of another Hamming weight are an `InvalidParameters` (the bound on I was chosen for
    /// this one).
    pub(crate) fn check(&self, keys: &BootstrappingKeys) -> Result<()> {
        keys.set.relin_key()?;
        match (self.encapsulation, &keys.encapsulation) {
            (Some(_), None) => {
                return Err(Error::MissingKey(
                    "the encapsulation keys of this bootstrapper (generate_keys makes them)".into(),
                ))
            }
            (Some(h), Some(e)) if e.hamming_weight() != h => {
                return Err(Error::InvalidParameters(format!(
                    "encapsulation keys of Hamming weight {}, this bootstrapper's K is chosen for {h}",
                    e.hamming_weight()
                )))
            }
            _ => {}
        }
        let gk = keys.set.galois_keys()?;
        for g in &self.galois {
            if !gk.contains(g.element) {
                return Err(Error::MissingGaloisKey {
                    element: g.element,
                    step: g.step,
                });
            }
        }
        Ok(())
    }
}

/// The evaluation keys of a bootstrap: a relinearisation key and the Galois keys of
/// [`KeyRequirements`] in one [`EvaluationKeySet`] (its serialisation, registry and sharing), each
/// at the level it is used at, and the [`EncapsulationKeys`] when the bootstrap encapsulates.
#[derive(Clone, Debug)]
pub struct BootstrappingKeys {
    set: EvaluationKeySet,
    encapsulation: Option<EncapsulationKeys>,
}

impl BootstrappingKeys {
    /// Keys from an evaluation key set and the encapsulation keys (e.g. loaded from bytes);
    /// checked against a bootstrapper when it uses them.
    pub fn from_parts(set: EvaluationKeySet, encapsulation: Option<EncapsulationKeys>) -> Self {
        BootstrappingKeys { set, encapsulation }
    }

    /// The encapsulation keys, if any.
    pub fn encapsulation(&self) -> Option<&EncapsulationKeys> {
        self.encapsulation.as_ref()
    }

    /// The keys as bytes: the length of the evaluation key set's bytes (u64, little endian), those
    /// bytes (`evaluation_keys_to_bytes`: seeded, each key at its level), then the encapsulation
    /// pair's (`encapsulation_keys_to_bytes`), if any. Each part carries its own header and
    /// checksum.
    /// The bytes are written once, into a buffer of [`Self::serialized_len`] (no copy of the keys'
    /// gigabytes).
    pub fn to_bytes(&self, ctx: &CkksContext) -> Vec<u8> {
        let set = ctx.evaluation_keys_len(&self.set);
        let enc = self
            .encapsulation
            .as_ref()
            .map(|e| ctx.encapsulation_keys_to_bytes(e));
        let mut out = Vec::with_capacity(8 + set + enc.as_ref().map_or(0, Vec::len));
        out.extend_from_slice(&(set as u64).to_le_bytes());
        let mut out = append_evaluation_keys(ctx, &self.set, out);
        if let Some(e) = enc {
            out.extend_from_slice(&e);
        }
        out
    }

    /// The length of [`Self::to_bytes`], from the keys' shapes (no bytes made but the
    /// encapsulation pair's, a few MB).
    pub fn serialized_len(&self, ctx: &CkksContext) -> usize {
        let enc = self
            .encapsulation
            .as_ref()
            .map_or(0, |e| ctx.encapsulation_keys_to_bytes(e).len());
        8 + ctx.evaluation_keys_len(&self.set) + enc
    }

    /// The keys from [`Self::to_bytes`]. Errors: `Malformed` for a length beyond the bytes, and the
    /// errors of the parts' loaders.
    pub fn from_bytes(ctx: &CkksContext, bytes: &[u8]) -> Result<Self> {
        Self::from_bytes_with(ctx, bytes, KeyStorage::Expanded)
    }

    /// [`Self::from_bytes`] with the Galois keys in `storage`, each converted as it is read (the
    /// relinearisation key expanded, as [`super::BootstrappingParameters::key_storage`] makes it).
    pub fn from_bytes_with(ctx: &CkksContext, bytes: &[u8], storage: KeyStorage) -> Result<Self> {
        let head: [u8; 8] = bytes
            .get(..8)
            .and_then(|h| h.try_into().ok())
            .ok_or_else(|| Error::Malformed("bootstrapping keys: no length".into()))?;
        let len = usize::try_from(u64::from_le_bytes(head))
            .ok()
            .filter(|&l| l <= bytes.len() - 8)
            .ok_or_else(|| {
                Error::Malformed("bootstrapping keys: a length beyond the bytes".into())
            })?;
        let set = ctx.evaluation_keys_from_bytes_with(&bytes[8..8 + len], storage)?;
        let rest = &bytes[8 + len..];
        let encapsulation = if rest.is_empty() {
            None
        } else {
            Some(ctx.encapsulation_keys_from_bytes(rest)?)
        };
        Ok(BootstrappingKeys { set, encapsulation })
    }

    /// The keys as an evaluation key set (serialise it with `evaluation_keys_to_bytes`).
    pub fn evaluation_keys(&self) -> &EvaluationKeySet {
        &self.set
    }

    /// The relinearisation key.
    pub fn relin_key(&self) -> Result<&Arc<RelinKey>> {
        self.set.relin_key()
    }

    /// The Galois keys.
    pub fn galois_keys(&self) -> Result<&Arc<GaloisKeys>> {
        self.set.galois_keys()
    }

    /// The Galois keys in `storage` (`KeySwitchKey::with_storage`: the same bootstraps bit for
    /// bit), converted one at a time; e.g. [`KeyStorage::Seeded`] after [`Self::from_bytes`]. The
    /// relinearisation key stays as it is (expanded: EvalMod's every product uses it).
    pub fn with_storage(self, ctx: &CkksContext, storage: KeyStorage) -> Result<Self> {
        let mut set = EvaluationKeySet::new();
        let relin = self.set.relin_key().ok().cloned();
        let galois = self.set.galois_keys().ok().cloned();
        drop(self.set);
        if let Some(r) = relin {
            set.set_relin_key(r)?;
        }
        if let Some(g) = galois {
            let g = Arc::try_unwrap(g).unwrap_or_else(|g| GaloisKeys::clone(&g));
            set.set_galois_keys(Arc::new(g.with_storage(ctx.key_switcher(), storage)?))?;
        }
        Ok(BootstrappingKeys {
            set,
            encapsulation: self.encapsulation,
        })
    }

    /// The bytes the relinearisation and Galois keys take in memory (k0, and k1 when expanded).
    pub fn resident_bytes(&self) -> usize {
        let relin = self.set.relin_key().map_or(0, |r| r.key().resident_bytes());
        relin + self.set.galois_keys().map_or(0, |g| g.resident_bytes())
    }
}

/// The keys of `req` for `sk`, one at a time, calling `progress(done, total)` after each.
pub(crate) fn generate(
    ctx: &CkksContext,
    req: &KeyRequirements,
    sk: &SecretKey,
    rng: &mut Csprng,
    storage: KeyStorage,
    mut progress: Option<&mut dyn FnMut(usize, usize)>,
) -> Result<BootstrappingKeys> {
    let total = req.count();
    let mut done = 0;
    let mut tick = |done: &mut usize| {
        *done += 1;
        if let Some(p) = progress.as_mut() {
            p(*done, total);
        }
    };
    let mut set = EvaluationKeySet::new();
    let mut gen = KeyGenerator::new(ctx, rng);
    // The relinearisation key stays expanded: every EvalMod product uses it, and it is one key of
    // many. Each Galois key is converted to `storage` as soon as it is made: at most one expanded
    // Galois key is held.
    set.set_relin_key(Arc::new(gen.relin_key_at(sk, req.relin_level)?))?;
    tick(&mut done);
    let mut galois: Option<GaloisKeys> = None;
    for g in &req.galois {
        let k = gen
            .galois_keys_at(sk, &[g.element], g.level)?
            .with_storage(ctx.key_switcher(), storage)?;
        match galois.as_mut() {
            Some(all) => all.insert(k)?,
            None => galois = Some(k),
        }
        tick(&mut done);
    }
    if let Some(all) = galois {
        set.set_galois_keys(Arc::new(all))?;
    }
    let encapsulation = match req.encapsulation {
        Some(h) => {
            let e = gen.encapsulation_keys(sk, h)?;
            tick(&mut done);
            tick(&mut done);
            Some(e)
        }
        None => None,
    };
    Ok(BootstrappingKeys { set, encapsulation })
}
