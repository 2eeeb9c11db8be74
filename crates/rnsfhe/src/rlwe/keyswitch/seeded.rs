//! Key storage: a key-switching key's uniform components k1 = phi_h(q_I a_c) held in full or as the
//! 32-byte seeds of the a_c, expanded limb by limb where the gadget product multiplies them. Limb i of
//! a_c is the ChaCha20 stream of (seed_c, c + 1, i) drawn in NTT form (power-of-two rings,
//! `rnsfhe_math::sample::uniform_from_seed_at`), so the expansion gives the stored bits exactly; a
//! seeded key costs its k0 only (half the memory) and each use one expansion per limb of k1.

use super::*;

/// How a [`KeySwitchKey`] holds its uniform components k1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyStorage {
    /// In full, NTT form: the fastest to use, twice the memory of [`Self::Seeded`].
    #[default]
    Expanded,
    /// As their seeds, expanded limb by limb (ChaCha20) at each use, into a scratch buffer: the same
    /// products bit for bit. Keys made by one party over power-of-two rings without Montgomery form.
    Seeded,
}

/// The k1 of a key in its storage.
#[derive(Clone, Debug)]
pub(super) enum K1 {
    Full(Vec<Poly>),
    Seeded(SeededK1),
}

/// What the expansion of a seeded k1 needs besides the seeds.
#[derive(Clone, Debug)]
pub(super) struct SeededK1 {
    /// The gather table of the key's automorphism phi_h in NTT form (`None` for h = 1).
    index: Option<Arc<[u32]>>,
    /// Per component, q_I mod each limb of Q u P (empty without truncation).
    scales: Vec<Vec<u64>>,
}

impl SeededK1 {
    /// The table of the first `count` components (a key at a lower level).
    pub(super) fn first(&self, count: usize) -> Self {
        SeededK1 {
            index: self.index.clone(),
            scales: self.scales[..count.min(self.scales.len())].to_vec(),
        }
    }
}

impl KeySwitchKey {
    /// How the key holds its k1.
    pub fn storage(&self) -> KeyStorage {
        match self.k1 {
            K1::Full(_) => KeyStorage::Expanded,
            K1::Seeded(_) => KeyStorage::Seeded,
        }
    }

    /// The bytes the key's components take in memory (k0, and k1 when expanded).
    pub fn resident_bytes(&self) -> usize {
        let words = |p: &[Poly]| p.iter().map(|x| x.residues().len()).sum::<usize>();
        let k1 = match &self.k1 {
            K1::Full(k1) => words(k1),
            K1::Seeded(s) => s.scales.iter().map(Vec::len).sum(),
        };
        8 * (words(&self.k0) + k1) + 32 * self.seeds.len()
    }

    /// This key in `storage` (the same key switches, bit for bit). Seeded storage needs a key made
    /// by one party ([`Self::is_seeded`]) over a power-of-two ring without Montgomery form: else
    /// `InvalidParameters`.
    pub fn with_storage(self, sw: &KeySwitcher, storage: KeyStorage) -> Result<Self> {
        match (storage, &self.k1) {
            (KeyStorage::Expanded, K1::Full(_)) | (KeyStorage::Seeded, K1::Seeded(_)) => Ok(self),
            (KeyStorage::Seeded, K1::Full(_)) => self.seeded(sw),
            (KeyStorage::Expanded, K1::Seeded(_)) => self.expanded(sw),
        }
    }

    fn seeded(self, sw: &KeySwitcher) -> Result<Self> {
        let ring = sw.ring_qp();
        if !self.is_seeded() || ring.kind() != RingKind::PowerOfTwo || ring.reduction().is_some() {
            return Err(Error::InvalidParameters(
                "seeded key storage needs a key of seeded k1 (one party's) over a power-of-two ring \
                 without Montgomery form"
                    .into(),
            ));
        }
        let index = match self.galois {
            1 => None,
            h => Some(rnsfhe_math::ring::ntt_automorphism_index(ring.degree(), h)?.into()),
        };
        let mut scales = Vec::with_capacity(self.k0.len());
        for (j, _) in sw
            .digits
            .iter()
            .enumerate()
            .filter(|(_, r)| r.start <= self.level)
        {
            let q_i = sw.truncation_factor(j);
            let per_limb: Vec<u64> = q_i.map_or_else(Vec::new, |q| {
                ring.moduli().iter().map(|m| big_mod(&q, m)).collect()
            });
            scales.extend(std::iter::repeat_n(per_limb, sw.subdigits[j]));
        }
        scales.truncate(self.k0.len());
        Ok(KeySwitchKey {
            k1: K1::Seeded(SeededK1 { index, scales }),
            ..self
        })
    }

    fn expanded(self, sw: &KeySwitcher) -> Result<Self> {
        let n = sw.ring_qp().degree();
        let limbs = sw.limbs_at(self.level);
        let k1 = (0..self.k0.len())
            .map(|c| {
                let ring = sw.key_ring(c, self.level)?;
                let mut k = Poly::from_fill(ring, Representation::Ntt, |dst| {
                    let held = limbs
                        .iter()
                        .filter(|&&i| sw.key_slot(self.level, c, i).is_some());
                    for (out, &i) in dst.chunks_exact_mut(n).zip(held) {
                        self.expand_k1_limb(sw, c, i, out)?;
                    }
                    Ok::<(), Error>(())
                })?;
                k.shrink_to_fit();
                Ok(k)
            })
            .collect::<Result<_>>()?;
        Ok(KeySwitchKey {
            k1: K1::Full(k1),
            ..self
        })
    }

    /// Limb i of Q u P of component c's k1, NTT form, into `out` (n words): phi_h(q_I a_c) with a_c
    /// expanded from its seed. For a key in seeded storage.
    pub(super) fn expand_k1_limb(
        &self,
        sw: &KeySwitcher,
        c: usize,
        i: usize,
        out: &mut [u64],
    ) -> Result<()> {
        let K1::Seeded(s) = &self.k1 else {
            return Err(Error::Internal("expansion of a key held in full".into()));
        };
        let (m, seed) = sw
            .ring_qp()
            .moduli()
            .get(i)
            .zip(self.seeds.get(c))
            .ok_or_else(|| Error::Internal(format!("key component {c} has no limb {i}")))?;
        let index = c as u32 + 1;
        let scale = s.scales.get(c).and_then(|v| v.get(i)).copied();
        let expand = |a: &mut [u64]| {
            rnsfhe_math::sample::uniform_limb_from_seed(seed, index, m, i, a);
            if let Some(q_i) = scale {
                vector::mul_shoup_scalar_assign(m, a, m.shoup(q_i));
            }
        };
        match &s.index {
            // A Galois key's k1 is phi_h(q_I a): expanded into a pooled buffer (every word written, no
            // zero fill), then permuted.
            Some(idx) => {
                let mut a = Buffer::stale(out.len());
                expand(&mut a);
                for (d, &j) in out.iter_mut().zip(idx.iter()) {
                    *d = a[j as usize];
                }
            }
            None => expand(out),
        }
        Ok(())
    }
}

/// A shared key in `storage`: taken when this is its only holder, else converted from a copy.
fn shared_with_storage(
    k: Arc<KeySwitchKey>,
    sw: &KeySwitcher,
    storage: KeyStorage,
) -> Result<Arc<KeySwitchKey>> {
    if k.storage() == storage {
        return Ok(k);
    }
    let k = Arc::try_unwrap(k).unwrap_or_else(|k| KeySwitchKey::clone(&k));
    Ok(Arc::new(k.with_storage(sw, storage)?))
}

impl crate::rlwe::RelinKey {
    /// The key in `storage` ([`KeySwitchKey::with_storage`]; `sw`: the context's relinearisation
    /// switcher).
    pub fn with_storage(self, sw: &KeySwitcher, storage: KeyStorage) -> Result<Self> {
        Ok(crate::rlwe::RelinKey {
            key: self.key.with_storage(sw, storage)?,
            ..self
        })
    }
}

impl crate::rlwe::GaloisKeys {
    /// Every key in `storage` ([`KeySwitchKey::with_storage`]; `sw`: the context's switcher), one
    /// at a time (a key shared with another set is copied first).
    pub fn with_storage(mut self, sw: &KeySwitcher, storage: KeyStorage) -> Result<Self> {
        // Consumed and rebuilt key by key: each old key is dropped as soon as it is converted.
        self.keys = std::mem::take(&mut self.keys)
            .into_iter()
            .map(|(g, k)| Ok((g, shared_with_storage(k, sw, storage)?)))
            .collect::<Result<_>>()?;
        Ok(self)
    }

    /// The bytes the keys take in memory ([`KeySwitchKey::resident_bytes`]).
    pub fn resident_bytes(&self) -> usize {
        self.keys.values().map(|k| k.resident_bytes()).sum()
    }
}
