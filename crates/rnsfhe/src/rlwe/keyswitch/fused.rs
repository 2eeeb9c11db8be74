//! Key switching in NTT form with every stage split over limbs: the key products limb by limb, the
//! limbs of P leaving the NTT form and taking ModDown's first step in the same task, then the
//! ModDown of both output polynomials in one fan-out over (polynomial, limb of Q_l), each task
//! converting, transforming and finishing its limb (`FastRnsFloor::apply_transformed_jobs`), with a
//! rotation's c_0 and automorphism folded in. Two polynomials of 11 limbs give 22 tasks, so that two
//! threads stay busy to the end of every stage.

use std::collections::HashMap;
use std::sync::RwLock;

use rnsfhe_math::ring::ntt_automorphism_index;
use rnsfhe_math::rns::{FloorJob, FloorLimb};

use super::decompose::DigitSource;
use super::*;

/// Entries of gather tables kept per switcher at most (16 MiB): 128 tables at n = 2^15, more than a
/// bootstrapping's rotations; beyond it a table is computed for each use.
const MAX_GATHER_ENTRIES: usize = 1 << 22;

/// The gather tables (`ntt_automorphism_index`) of the Galois elements used so far, each computed
/// once: a table costs about as much as a limb's gather (3 ns an entry), which a rotation would pay
/// on one thread before its fan-outs.
#[derive(Debug, Default)]
pub(super) struct GatherTables(RwLock<HashMap<usize, Arc<[u32]>>>);

impl KeySwitcher {
    /// The gather table of X -> X^g in NTT form over this switcher's rings (g odd; power-of-two
    /// rings), from the cache when it was made before.
    pub(crate) fn gather_table(&self, g: u64) -> Result<Arc<[u32]>> {
        let n = self.ring_qp().degree();
        let key = (g % (2 * n as u64)) as usize;
        let cache = &self.gathers.0;
        if let Some(t) = cache.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(Arc::clone(t));
        }
        let table: Arc<[u32]> = ntt_automorphism_index(n, g)?.into();
        let mut w = cache.write().unwrap_or_else(|e| e.into_inner());
        if (w.len() + 1) * n <= MAX_GATHER_ENTRIES {
            w.insert(key, Arc::clone(&table));
        }
        Ok(table)
    }

    /// The key products (u_0, u_1) of the digits of `src` with `key`, limb by limb over Q_l u P (each
    /// digit's extension to the limb, the inner products, and the limb out of the NTT form unless
    /// `ntt_out` keeps the limbs of Q_l in it). With `ntt_out` and `scaled` (power-of-two rings) the
    /// limbs of P leave the NTT form already scaled for ModDown ([`FastRnsFloor::scale_source_limb`]),
    /// as [`KeySwitcher::mod_down_pair`] takes them. General m: the n coefficients of each limb moved
    /// to the front.
    pub(super) fn key_products(
        &self,
        src: &DigitSource<'_>,
        key: &KeySwitchKey,
        ntt_out: bool,
        scaled: bool,
    ) -> Result<(Buffer, Buffer)> {
        let level = src.level;
        let ctx = self.ring_qp();
        let n = ctx.degree();
        // Words per limb in NTT form: n, or N = N2(2n) for general m (Bajard et al. (SAC 2017)).
        let len = ctx.limb_len(Representation::Ntt);
        let limbs = self.limbs_at(level);
        let scale = self.moddown[level].as_ref().filter(|_| ntt_out && scaled);
        // Every word is written by the limb's inner product below.
        let mut u0 = Buffer::stale(limbs.len() * len);
        let mut u1 = Buffer::stale(limbs.len() * len);
        // One task per limb (threads across limbs; see rnsfhe_math::parallel), each with a scratch for
        // the digits' extensions to its limb.
        let ext_len = key.k0.len() * len;
        parallel::for_each_limb2(
            parallel::Work::Heavy,
            &mut u0,
            &mut u1,
            len,
            ext_len,
            |slot, out0, out1, ext| {
                let i = limbs[slot];
                let rows = self.rows_at(level, i);
                self.extend_limb(src, i, &rows, ext)?;
                self.gadget_limb(key, i, &rows, ext, out0, out1)?;
                for out in [out0, out1] {
                    // NTT form out (power-of-two): the limbs of Q_l stay in it for ModDown.
                    if !(ntt_out && i < self.k) {
                        ctx.inverse_limb(i, out, true)?;
                    }
                    if let (Some(f), true) = (scale, i >= self.k) {
                        f.scale_source_limb(i - self.k, &mut out[..n]);
                    }
                }
                Ok::<(), Error>(())
            },
        )?;
        if len != n {
            // General m: the n coefficients of each limb to the front, limb-major.
            for u in [&mut u0, &mut u1] {
                for slot in 1..limbs.len() {
                    u.copy_within(slot * len..slot * len + n, slot * n);
                }
            }
        }
        Ok((u0, u1))
    }

    /// ModDown to Q_l of two polynomials over Q_l u P whose limbs of Q_l are in NTT form and whose
    /// limbs of P are in coefficient form, scaled ([`KeySwitcher::key_products`] with `ntt_out`):
    /// the outputs in NTT form, `adds` (over Q_l, NTT form) added, and with `idx` the gather of
    /// `ntt_automorphism_index` applied to both (power-of-two rings). One fan-out over the limbs of
    /// both; the same bits as the ModDown of each (`mod_down_lazy` to NTT form), `add_assign` and
    /// `automorphism` one after another.
    pub(super) fn mod_down_pair(
        &self,
        level: usize,
        u: [&[u64]; 2],
        adds: [Option<&Poly>; 2],
        idx: Option<&[u32]>,
    ) -> Result<[Poly; 2]> {
        let ring = &self.levels.rings()[level];
        let n = ring.degree();
        if adds
            .iter()
            .flatten()
            .any(|a| !Arc::ptr_eq(a.context(), ring) || a.representation() != Representation::Ntt)
            || (idx.is_some() && ring.kind() != RingKind::PowerOfTwo)
        {
            return Err(Error::ContextMismatch(
                "ModDown in NTT form adds NTT-form polynomials over Q_l, and gathers on \
                 power-of-two rings only"
                    .into(),
            ));
        }
        let adds = adds.map(|a| a.map(Poly::residues));
        let q_len = (level + 1) * n;
        Poly::from_fill_many::<2, Error>(ring, Representation::Ntt, |[o0, o1]| {
            match &self.moddown[level] {
                Some(floor) => {
                    let jobs = u
                        .iter()
                        .zip([o0, o1])
                        .enumerate()
                        .map(|(a, (x, out))| {
                            let (xb_t, y) = x.split_at(q_len);
                            FloorJob {
                                y,
                                xb_t,
                                xb_add: None,
                                add: adds[a],
                                out,
                            }
                        })
                        .collect();
                    Ok(floor.apply_transformed_jobs(
                        jobs,
                        |j, limb| ring.forward_limb(j, limb),
                        idx,
                    )?)
                }
                // No special primes: the sum and the gather alone.
                None => parallel::for_each_array_limb(
                    parallel::Work::Light,
                    vec![o0, o1],
                    n,
                    n,
                    |a, j, o, t| {
                        let r = j * n..(j + 1) * n;
                        t.copy_from_slice(&u[a][r.clone()]);
                        if let Some(x) = adds[a] {
                            vector::add_assign(&ring.moduli()[j], t, &x[r]);
                        }
                        match idx {
                            Some(idx) => {
                                o.iter_mut().zip(idx).for_each(|(d, &i)| *d = t[i as usize])
                            }
                            None => o.copy_from_slice(t),
                        }
                        Ok(())
                    },
                ),
            }
        })
    }

    /// (phi(c_0 + u_0), phi(u_1)) in NTT form for (u_0, u_1) the key switch of d by `key`, phi the
    /// automorphism of the gather table `idx`: a rotation's key switch with c_0 and the automorphism
    /// folded into its ModDown. Power-of-two rings without a Montgomery form; d and c_0 in NTT form
    /// over one level. The same bits as [`KeySwitcher::switch_to`] to NTT form, the sum and the
    /// automorphism.
    pub(crate) fn switch_gathered(
        &self,
        d: &Poly,
        key: &KeySwitchKey,
        c0: &Poly,
        idx: &[u32],
    ) -> Result<[Poly; 2]> {
        self.check_key(key, self.level_of_input(d)?)?;
        let src = self.digit_source(d)?;
        let (u0, u1) = self.key_products(&src, key, true, true)?;
        self.mod_down_pair(src.level, [&u0, &u1], [Some(c0), None], Some(idx))
    }

    /// (c_0 + u_0, c_1 + u_1) in NTT form for (u_0, u_1) the key switch of d by `key` (a
    /// relinearisation: d = c_2), the sums folded into the ModDown. Power-of-two rings without a
    /// Montgomery form; d and the parts in NTT form over one level. The same bits as
    /// [`KeySwitcher::switch_to`] to NTT form and the sums.
    pub(crate) fn switch_add(
        &self,
        d: &Poly,
        key: &KeySwitchKey,
        parts: [&Poly; 2],
    ) -> Result<[Poly; 2]> {
        self.check_key(key, self.level_of_input(d)?)?;
        let src = self.digit_source(d)?;
        let (u0, u1) = self.key_products(&src, key, true, true)?;
        self.mod_down_pair(src.level, [&u0, &u1], parts.map(Some), None)
    }

    /// [`KeySwitcher::switch_gathered`] from hoisted digits: first the limbs of P (the gadget
    /// product, out of the NTT form, scaled for ModDown), then one task per limb of Q_l that makes
    /// the limb's gadget product and finishes both floors, c_0 and the gather while it is in cache
    /// (`FastRnsFloor::transformed_limb`): the key products of Q_l are never stored whole. The same
    /// bits as `gadget_product`, `mod_down_lazy`, the sum and the automorphism.
    pub(crate) fn rotate_hoisted(
        &self,
        dec: &Decomposed,
        key: &KeySwitchKey,
        c0: &Poly,
        idx: &[u32],
    ) -> Result<[Poly; 2]> {
        self.check_gadget(dec, key)?;
        let level = dec.level;
        let qp = &dec.ring;
        let n = qp.degree();
        let ring = &self.levels.rings()[level];
        let Some(floor) = &self.moddown[level] else {
            // No special primes: the key products are the switched values.
            let [u0, u1] = self.gadget_product(dec, key)?;
            return self.mod_down_pair(
                level,
                [u0.residues(), u1.residues()],
                [Some(c0), None],
                Some(idx),
            );
        };
        if !Arc::ptr_eq(c0.context(), ring) || c0.representation() != Representation::Ntt {
            return Err(Error::ContextMismatch(
                "a hoisted rotation adds c_0 in NTT form over the ciphertext's level".into(),
            ));
        }
        let specials = dec.used.len() - (level + 1);
        // Every word is written by its limb's inner products.
        let mut y0 = Buffer::stale(specials * n);
        let mut y1 = Buffer::stale(specials * n);
        parallel::for_each_limb2(
            parallel::Work::Products(dec.rows),
            &mut y0,
            &mut y1,
            n,
            0,
            |s, out0, out1, _| {
                let slot = level + 1 + s;
                self.gadget_product_limb(dec, key, slot, out0, out1)?;
                for out in [out0, out1] {
                    qp.inverse_limb(slot, out, false)?;
                    floor.scale_source_limb(s, out);
                }
                Ok::<(), Error>(())
            },
        )?;
        let to_t = |j: usize, limb: &mut [u64]| ring.forward_limb(j, limb);
        let c0 = c0.residues();
        Poly::from_fill_many::<2, Error>(ring, Representation::Ntt, |[o0, o1]| {
            parallel::for_each_limb2(
                parallel::Work::Heavy,
                o0,
                o1,
                n,
                4 * n,
                |j, out0, out1, s| {
                    let (u, t) = s.split_at_mut(2 * n);
                    let (u0, u1) = u.split_at_mut(n);
                    self.gadget_product_limb(dec, key, j, u0, u1)?;
                    let r = j * n..(j + 1) * n;
                    for (y, u, add, out) in
                        [(&y0, &*u0, Some(&c0[r]), out0), (&y1, &*u1, None, out1)]
                    {
                        let limb = FloorLimb {
                            xb_t: u,
                            xb_add: None,
                            add,
                        };
                        floor.transformed_limb(j, y, limb, &to_t, Some(idx), out, t)?;
                    }
                    Ok::<(), Error>(())
                },
            )
        })
    }
}
