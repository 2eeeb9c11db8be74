//! The keys of a bootstrap: which Galois elements at which levels, the relinearisation key, and
//! their generation with progress (only the keys the chosen stages use).

use std::collections::BTreeMap;
use std::sync::Arc;

use rnsfhe_math::sample::Csprng;

use crate::circuits::dft::HomomorphicDft;
use crate::ckks::CkksContext;
use crate::rlwe::{EvaluationKeySet, GaloisKeys, KeyGenerator, RelinKey, SecretKey};
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
    /// rotation step, or a `MissingKey`.
    pub(crate) fn check(&self, keys: &BootstrappingKeys) -> Result<()> {
        keys.set.relin_key()?;
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
/// [`KeyRequirements`] in one [`EvaluationKeySet`] (its serialisation, registry and sharing).
#[derive(Clone, Debug)]
pub struct BootstrappingKeys {
    set: EvaluationKeySet,
}

impl BootstrappingKeys {
    /// Keys from an evaluation key set (e.g. loaded from bytes with
    /// `evaluation_keys_from_bytes`); checked against a bootstrapper when it uses them.
    pub fn from_set(set: EvaluationKeySet) -> Self {
        BootstrappingKeys { set }
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
}

/// The keys of `req` for `sk`, one at a time, calling `progress(done, total)` after each.
pub(crate) fn generate(
    ctx: &CkksContext,
    req: &KeyRequirements,
    sk: &SecretKey,
    rng: &mut Csprng,
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
    set.set_relin_key(Arc::new(gen.relin_key(sk)?))?;
    tick(&mut done);
    let mut galois: Option<GaloisKeys> = None;
    for g in &req.galois {
        let k = gen.galois_keys(sk, &[g.element])?;
        match galois.as_mut() {
            Some(all) => all.insert(k)?,
            None => galois = Some(k),
        }
        tick(&mut done);
    }
    if let Some(all) = galois {
        set.set_galois_keys(Arc::new(all))?;
    }
    Ok(BootstrappingKeys { set })
}
