//! The key-switching key (Bajard et al. (SAC 2016) eq. (17), in the gadget form of `super`): per digit j and
//! sub-digit b, (k0, k1) with k0 + k1 s = P g_j omega^b s' - q_I e, its generation and its parts.
//!
//! A key has a level l: it lives over Q_l u P (the primes q_0..q_l and P) and holds only the
//! components of the digits that meet q_0..q_l, so it switches ciphertexts at levels <= l. Its
//! components are the limbs of Q_l u P of the top-level key of the same seeds and errors (the gadget
//! g_j is 1 on the digit's primes and 0 on the others at every level, and a's limbs expand from their
//! positions in Q u P, `uniform_seeded_at`): a key at level l costs (l + 1 + |P|) / (k + |P|) of the
//! top-level key's limbs for each of its components, to generate, store and serialise.
//!
//! Keys rebuilt from their stored components (bytes, collective keys) are in [`parts`].

mod parts;

use super::seeded::K1;
use super::*;
use crate::rlwe::keys::{expanded_at, is_montgomery, uniform_seeded_at, SeedSource};
use rnsfhe_math::ring::Form;

/// A key-switching key from s' to s: per digit j and sub-digit b, (k0, k1) in NTT form over
/// Q_l u P for its level l (Q u P at the top).
///
/// Montgomery rings (Bajard et al. (SAC 2017) sections 4.1-4.2): components are held in Montgomery form, with
/// value k0 + k1 s = P g_j omega^b s' - M e, and a uniform (its residues read in Montgomery form: the
/// value a M^-1, as uniform). The digits of
/// a Montgomery input c~ = c M are those of the residues c M, taken as plain values, so
/// sum_j d_j (k0_j + k1_j s) / P = c M s' - M e' + r, plain; read as Montgomery (relabelled), this
/// is c s' - e' + r M^-1: the key-switching error e' unchanged. These residues are the paper's evkM
/// = [(P(s'/M) + a s + e) M^2]_q up to the signs of a and e. The ModDown rounding r (special moduli
/// only) gains the factor M^-1.
#[derive(Clone, Debug)]
pub struct KeySwitchKey {
    pub(super) k0: Vec<Poly>,
    pub(super) k1: K1,
    pub(super) seeds: Vec<[u8; 32]>,
    pub(super) level: usize,
    /// The automorphism X -> X^h applied to every k1 (1: none), taken mod 2n.
    pub(super) galois: u64,
    /// The layout of the switcher the key was made or loaded over: a switcher of another layout
    /// refuses it ([`KeySwitcher::check_key`]).
    pub(super) layout: KeySwitching,
}

/// How a key is made: the error e M (`m_error`, Montgomery rings: inputs c M, Bajard et al. (SAC 2017) section
/// 4.2) or e (inputs c, the mixed strategy of section 4.4), where the seeds of the a come from
/// (fresh, or a common reference string), and the key's level.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyOptions<'a> {
    pub(crate) m_error: bool,
    pub(crate) source: SeedSource<'a>,
    pub(crate) level: usize,
}

impl<'a> KeyOptions<'a> {
    /// The options of a plain key over `sw` (e M on Montgomery rings) at `level`, seeds from
    /// `source`.
    pub(crate) fn of(sw: &KeySwitcher, source: SeedSource<'a>, level: usize) -> Self {
        KeyOptions {
            m_error: is_montgomery(sw.ring_qp()),
            source,
            level,
        }
    }
}

impl KeySwitchKey {
    /// A key holding its components in full.
    pub(super) fn full(
        sw: &KeySwitcher,
        parts: Vec<(Poly, Poly)>,
        seeds: Vec<[u8; 32]>,
        level: usize,
    ) -> Self {
        let (k0, k1) = exact(parts).into_iter().unzip();
        KeySwitchKey {
            k0,
            k1: K1::Full(k1),
            seeds,
            level,
            galois: 1,
            layout: sw.layout(),
        }
    }

    /// The key-switching layout the key was made for.
    pub fn layout(&self) -> KeySwitching {
        self.layout
    }

    /// The key components (k0, k1), NTT form over Q_l u P less the component's zero limbs (over
    /// [`KeySwitcher::key_ring`]: a truncated key is stored without its zero columns). Empty for a
    /// key in [`KeyStorage::Seeded`](super::KeyStorage::Seeded) storage (its k1 are expanded where they are used; see
    /// [`Self::k0`]).
    pub fn parts(&self) -> Vec<(&Poly, &Poly)> {
        match &self.k1 {
            K1::Full(k1) => self.k0.iter().zip(k1).collect(),
            K1::Seeded(_) => Vec::new(),
        }
    }

    /// The k0 components (as [`Self::parts`]), in either storage.
    pub fn k0(&self) -> &[Poly] {
        &self.k0
    }

    /// The level l: the key switches ciphertexts at levels 0..=l.
    pub fn level(&self) -> usize {
        self.level
    }

    /// Whether every k1 component is the expansion of a stored seed (keys made by one party); a
    /// key from [`Self::from_pairs_at`] holds its k1 in full.
    pub fn is_seeded(&self) -> bool {
        self.seeds.len() == self.k0.len()
    }

    /// The number of components (k0, k1).
    pub fn components(&self) -> usize {
        self.k0.len()
    }

    /// This key at a lower `level`: its first [`KeySwitcher::key_components_at`] components on the
    /// limbs of Q_level u P (no arithmetic: the same bits as a key generated at that level with the
    /// same seeds and errors, and the same key products there). Errors above the key's level.
    pub fn at_level(&self, sw: &KeySwitcher, level: usize) -> Result<Self> {
        if level > self.level {
            return Err(Error::LevelOutOfRange {
                op: format!("lower a key of level {} to another level", self.level),
                level,
                max: self.level,
            });
        }
        if level == self.level {
            return Ok(self.clone());
        }
        let (ring, limbs) = sw.work_ring(level)?;
        let count = sw.key_components_at(level).min(self.k0.len());
        let lower = |c: usize, k: &Poly| {
            let slots = limbs
                .iter()
                .map(|&i| {
                    sw.key_slot(self.level, c, i).ok_or_else(|| {
                        Error::Internal(format!("key component {c} has no limb {i}"))
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            select_limbs(k, ring, &slots)
        };
        let k0 = (0..count)
            .map(|c| lower(c, &self.k0[c]))
            .collect::<Result<_>>()?;
        let k1 = match &self.k1 {
            K1::Full(k1) => K1::Full(
                (0..count)
                    .map(|c| lower(c, &k1[c]))
                    .collect::<Result<_>>()?,
            ),
            K1::Seeded(s) => K1::Seeded(s.first(count)),
        };
        Ok(KeySwitchKey {
            k0,
            k1,
            seeds: self.seeds[..count.min(self.seeds.len())].to_vec(),
            level,
            galois: self.galois,
            layout: self.layout,
        })
    }

    /// X -> X^h applied to every k1 component and, if `k0`, to every k0 component (NTT form kept;
    /// the seeds still name the k1 components before the automorphism). A Galois key is
    /// phi_{g^-1} of the key from phi_g(s) to s ([`crate::rlwe::GaloisKeys`]).
    pub(crate) fn automorphism(&self, h: u64, k0: bool) -> Result<Self> {
        let k0 = self
            .k0
            .iter()
            .map(|a| {
                let mut a = if k0 {
                    a.automorphism(h as i64)?
                } else {
                    a.clone()
                };
                a.shrink_to_fit();
                Ok(a)
            })
            .collect::<Result<_>>()?;
        let k1 = match &self.k1 {
            K1::Full(k1) => K1::Full(
                k1.iter()
                    .map(|b| {
                        let mut b = b.automorphism(h as i64)?;
                        b.shrink_to_fit();
                        Ok(b)
                    })
                    .collect::<Result<_>>()?,
            ),
            K1::Seeded(_) => {
                return Err(Error::WrongForm(
                    "an automorphism of a seeded-storage key: expand it first".into(),
                ))
            }
        };
        let two_n = 2 * self.k0.first().map_or(1, |p| p.context().degree()) as u64;
        Ok(KeySwitchKey {
            k0,
            k1,
            seeds: self.seeds.clone(),
            level: self.level,
            galois: (u128::from(self.galois) * u128::from(h) % u128::from(two_n)) as u64,
            layout: self.layout,
        })
    }

    /// The seeds of the k1 components (before truncation factors); empty for a key whose k1 is held
    /// in full ([`Self::is_seeded`]).
    pub fn seeds(&self) -> &[[u8; 32]] {
        &self.seeds
    }
}

/// Refuses a ciphertext at `level` for a key of level `max` (`what`: the operation and the key,
/// e.g. "rotate by 5: the Galois key"): `LevelOutOfRange` with "{what} is for levels <= {max}".
pub(crate) fn within_key_level(what: &str, level: usize, max: usize) -> Result<()> {
    if level <= max {
        return Ok(());
    }
    Err(Error::LevelOutOfRange {
        op: format!("{what} is for levels <= {max}"),
        level,
        max,
    })
}

/// Key components in buffers of their exact length: a key is kept for the session, and a pooled
/// buffer (`rnsfhe_math::pool`) may be up to twice its length.
pub(super) fn exact(mut parts: Vec<(Poly, Poly)>) -> Vec<(Poly, Poly)> {
    for (k0, k1) in &mut parts {
        k0.shrink_to_fit();
        k1.shrink_to_fit();
    }
    parts
}

/// x *= c limb by limb (c a big integer, e.g. the truncation factor q_I).
pub(super) fn scale_by(x: &mut Poly, c: &BigUint) {
    let ctx = Arc::clone(x.context());
    let n = ctx.limb_len(x.representation());
    for (limb, m) in x.residues_mut().chunks_exact_mut(n).zip(ctx.moduli()) {
        vector::mul_shoup_scalar_assign(m, limb, m.shoup(big_mod(c, m)));
    }
}

impl KeySwitcher {
    /// q_I, the product of digit j's truncated columns (Bajard et al. (SAC 2016) section 4.6); `None` without
    /// truncation.
    pub(super) fn truncation_factor(&self, j: usize) -> Option<BigUint> {
        let cols = self.truncated(j);
        if cols.is_empty() {
            return None;
        }
        let m = self.ring_qp().moduli();
        Some(
            cols.iter()
                .fold(BigUint::from(1u32), |a, &i| a * m[i].value()),
        )
    }
}
