//! Step 2 of key switching: the gadget product, per limb of Q_l u P the inner product of the digits'
//! extensions with the key's components, summed lazily and reduced once per word
//! (`vector::inner_product`; SEAL's lazy dyadic accumulation). [`KeySwitcher::gadget_product`] takes
//! the digits of [`KeySwitcher::decompose`] (Lattigo's `GadgetProductHoistedLazy`): the result stays
//! over Q_l u P, in NTT form, P times the switched value, so that sums of several products pay one
//! ModDown (Bossuat et al., Eurocrypt 2021, section 3.2, "double hoisting").

use super::decompose::Row;
use super::seeded::K1;
use super::*;

impl KeySwitcher {
    /// Refuses a key of another parameter set or key-switching layout, a key whose level is below
    /// `level` (the level of the polynomial to switch), and plain-form keys over a Montgomery ring.
    pub(crate) fn check_key(&self, key: &KeySwitchKey, level: usize) -> Result<()> {
        key.layout
            .check(&self.layout, "key-switching key (its gadget)")?;
        let ring = self.key_ring(0, key.level).ok();
        if key.k0.len() != self.key_components_at(key.level)
            || key
                .k0
                .first()
                .is_some_and(|k0| ring.is_none_or(|r| !Arc::ptr_eq(k0.context(), r)))
        {
            return Err(Error::ContextMismatch(
                "key-switching key belongs to another parameter set".into(),
            ));
        }
        within_key_level("key switching: the key", level, key.level)?;
        if self.ring_qp().reduction() == Some(Reduction::Montgomery)
            && (key
                .k0
                .iter()
                .any(|k| k.montgomery_form() != Form::Montgomery)
                || match &key.k1 {
                    K1::Full(k1) => k1.iter().any(|k| k.montgomery_form() != Form::Montgomery),
                    K1::Seeded(_) => true,
                })
        {
            return Err(Error::WrongForm(
                "key switching over a Montgomery ring needs keys in Montgomery form (to_montgomery)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Limb i of Q u P of the gadget product: out_c = sum_r ext_r k_c[rows[r].part] (c = 0, 1) in NTT
    /// form (`limb_len(Ntt)` words; general m: an unreduced sum of products), `ext` holding the
    /// digits' extensions to the limb ([`KeySwitcher::extend_limb`]).
    pub(super) fn gadget_limb<'a>(
        &self,
        key: &'a KeySwitchKey,
        i: usize,
        rows: &[Row],
        ext: &[u64],
        out0: &mut [u64],
        out1: &mut [u64],
    ) -> Result<()> {
        let len = self.ring_qp().limb_len(Representation::Ntt);
        let m = &self.ring_qp().moduli()[i];
        let digits: Vec<&[u64]> = (0..rows.len())
            .map(|r| &ext[r * len..(r + 1) * len])
            .collect();
        let slot_of = |p: usize| {
            self.key_slot(key.level, p, i)
                .ok_or_else(|| Error::Internal(format!("key component {p} has no limb {i}")))
        };
        let limbs = |k: &'a [Poly]| -> Result<Vec<&'a [u64]>> {
            rows.iter()
                .map(|row| {
                    let slot = slot_of(row.part)?;
                    Ok(&k[row.part].residues()[slot * len..(slot + 1) * len])
                })
                .collect()
        };
        let k0 = limbs(&key.k0)?;
        match &key.k1 {
            // Both parts in one pass over the digits.
            K1::Full(k1) => {
                vector::inner_product2(m, &digits, (&k0, &limbs(k1)?), out0, out1);
            }
            // Seeded storage: each row's k1 limb expanded into a scratch buffer, then the same
            // inner product.
            K1::Seeded(_) => {
                vector::inner_product(m, &digits, &k0, out0);
                let mut scratch = Buffer::stale(rows.len() * len);
                for (row, out) in rows.iter().zip(scratch.chunks_exact_mut(len)) {
                    slot_of(row.part)?;
                    key.expand_k1_limb(self, row.part, i, out)?;
                }
                let k1: Vec<&[u64]> = scratch.chunks_exact(len).collect();
                vector::inner_product(m, &digits, &k1, out1);
            }
        }
        Ok(())
    }

    /// The gadget product of hoisted digits with one key: (u_0, u_1) over Q_l u P
    /// ([`Levels::ring_qp_at`]), NTT form, with u_0 + u_1 s = P d s' + sum_j D_j e_j (the ModDown of
    /// [`KeySwitcher::mod_down_lazy`] divides by P). The same bits, limb by limb, as
    /// [`KeySwitcher::switch_to`]'s products before its ModDown.
    pub fn gadget_product(&self, dec: &Decomposed, key: &KeySwitchKey) -> Result<[Poly; 2]> {
        self.check_gadget(dec, key)?;
        let ring = &dec.ring;
        let n = ring.degree();
        // Every word is written by its limb's inner products.
        let mut second = None;
        let u0 = Poly::from_fill(ring, Representation::Ntt, |u0| {
            let u1 = Poly::from_fill(ring, Representation::Ntt, |u1| {
                parallel::for_each_limb2(
                    parallel::Work::Products(dec.rows),
                    u0,
                    u1,
                    n,
                    0,
                    |slot, out0, out1, _| self.gadget_product_limb(dec, key, slot, out0, out1),
                )
            })?;
            second = Some(u1);
            Ok::<(), Error>(())
        })?;
        let u1 = second.ok_or_else(|| Error::Internal("gadget product: no second part".into()))?;
        Ok([u0, u1])
    }

    /// Refuses a key of another parameter set and digits of another switcher.
    pub(crate) fn check_gadget(&self, dec: &Decomposed, key: &KeySwitchKey) -> Result<()> {
        self.check_key(key, dec.level)?;
        if !Arc::ptr_eq(self.ring_qp_at(dec.level)?, &dec.ring) {
            return Err(Error::ContextMismatch(
                "the decomposed digits belong to another parameter set".into(),
            ));
        }
        Ok(())
    }

    /// Limb `slot` of Q_l u P (q_0..q_l, then P) of [`KeySwitcher::gadget_product`], into `out0`
    /// and `out1` (n words each): for loops that consume the products limb by limb (sums of
    /// rotations). Checks: [`KeySwitcher::check_gadget`] once before.
    pub(crate) fn gadget_product_limb(
        &self,
        dec: &Decomposed,
        key: &KeySwitchKey,
        slot: usize,
        out0: &mut [u64],
        out1: &mut [u64],
    ) -> Result<()> {
        let n = dec.ring.degree();
        let stride = dec.rows * n;
        let i = if slot <= dec.level {
            slot
        } else {
            self.k + slot - dec.level - 1
        };
        let ext = &dec.ext[slot * stride..(slot + 1) * stride];
        self.gadget_limb(key, i, &dec.used[slot], ext, out0, out1)
    }

    /// The ring of Q_l u P, or an error beyond the chain.
    pub(crate) fn ring_qp_at(&self, level: usize) -> Result<&Arc<RingContext>> {
        self.levels
            .ring_qp_at(level)
            .ok_or_else(|| Error::LevelOutOfRange {
                op: "key switching".into(),
                level,
                max: self.k - 1,
            })
    }
}
