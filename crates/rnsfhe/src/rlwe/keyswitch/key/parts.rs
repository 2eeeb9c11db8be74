//! Key-switching keys rebuilt from their components: k0 with the seeds of k1 (deserialisation,
//! collective keys from reference polynomials) or both in full (collective relinearisation keys).

use super::*;

impl KeySwitchKey {
    /// Rebuilds a top-level key from its k0 components and the seeds of its k1 components
    /// (deserialisation): k1 of component i expands from seed i with index i + 1, times q_I when
    /// truncated.
    pub fn from_parts(sw: &KeySwitcher, k0: Vec<Poly>, seeds: Vec<[u8; 32]>) -> Result<Self> {
        Self::from_parts_at(sw, k0, seeds, sw.top_level())
    }

    /// [`Self::from_parts`] for a key at `level` (k0 over [`KeySwitcher::key_ring`] of the level).
    pub fn from_parts_at(
        sw: &KeySwitcher,
        k0: Vec<Poly>,
        seeds: Vec<[u8; 32]>,
        level: usize,
    ) -> Result<Self> {
        Self::from_parts_expanded(sw, k0, seeds, None, level)
    }

    /// [`Self::from_parts_at`] with the expansions of the seeds given when `uniforms` is some
    /// (what [`Self::crs_uniforms`] returns: a collective key from reference polynomials already
    /// expanded, `multiparty::rtg::galois_keys_with`).
    pub(crate) fn from_parts_expanded(
        sw: &KeySwitcher,
        k0: Vec<Poly>,
        seeds: Vec<[u8; 32]>,
        uniforms: Option<&[Poly]>,
        level: usize,
    ) -> Result<Self> {
        let (ctx, limbs) = sw.work_ring(level)?;
        let count = sw.key_components_at(level);
        if k0.len() != count || seeds.len() != k0.len() {
            return Err(Error::LengthMismatch {
                what: "key-switching key components",
                expected: count,
                got: k0.len().min(seeds.len()),
            });
        }
        let mut parts = Vec::with_capacity(count);
        let mut idx = 0usize;
        for (j, _) in sw
            .digits
            .iter()
            .enumerate()
            .filter(|(_, r)| r.start <= level)
        {
            let q_i = sw.truncation_factor(j);
            for _ in 0..sw.subdigits[j] {
                let ring = sw.key_ring(idx, level)?;
                if !Arc::ptr_eq(k0[idx].context(), ring)
                    || k0[idx].representation() != Representation::Ntt
                {
                    return Err(Error::ContextMismatch(
                        "key-switching key components must be in NTT form over Q_l u P (less \
                         their zero limbs)"
                            .into(),
                    ));
                }
                let mut a = match uniforms {
                    Some(u) => expanded_at(ctx, u, idx as u32)?,
                    None => uniform_seeded_at(ctx, &seeds[idx], idx as u32 + 1, &limbs)?,
                };
                let mut k0i = k0[idx].clone();
                if is_montgomery(ctx) {
                    a.relabel_form(Form::Montgomery)?;
                    k0i.relabel_form(Form::Montgomery)?;
                }
                if let Some(q_i) = &q_i {
                    scale_by(&mut a, q_i);
                }
                parts.push((k0i, sw.compact(idx, level, a)?));
                idx += 1;
            }
        }
        Ok(KeySwitchKey::full(sw, parts, seeds, level))
    }

    /// A key at `level` from its components (k0, k1) given in full, NTT form over
    /// [`KeySwitcher::key_ring`]: a key whose k1 is no expansion of a seed, e.g. the collective
    /// relinearisation key of Mouchet et al. (PETS 2021, RKG), whose k1 is the sum of the parties'
    /// s_i a + e_i. It has no seeds ([`Self::is_seeded`]); the byte format stores its k1.
    pub fn from_pairs_at(sw: &KeySwitcher, pairs: Vec<(Poly, Poly)>, level: usize) -> Result<Self> {
        let count = sw.key_components_at(level);
        if pairs.len() != count {
            return Err(Error::LengthMismatch {
                what: "key-switching key components",
                expected: count,
                got: pairs.len(),
            });
        }
        let mont = is_montgomery(sw.ring_qp());
        let mut parts = Vec::with_capacity(count);
        for (c, (mut k0, mut k1)) in pairs.into_iter().enumerate() {
            let ring = sw.key_ring(c, level)?;
            for k in [&mut k0, &mut k1] {
                if !Arc::ptr_eq(k.context(), ring) || k.representation() != Representation::Ntt {
                    return Err(Error::ContextMismatch(
                        "key-switching key components must be in NTT form over Q_l u P (less \
                         their zero limbs)"
                            .into(),
                    ));
                }
                if mont {
                    k.relabel_form(Form::Montgomery)?;
                }
            }
            parts.push((k0, k1));
        }
        Ok(KeySwitchKey::full(sw, parts, Vec::new(), level))
    }
}
