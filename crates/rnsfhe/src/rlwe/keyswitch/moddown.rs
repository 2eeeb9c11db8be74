//! Step 3 of key switching: ModDown, the division by P of a sum over Q_l u P (Cheon et al. (SAC 2018) Alg. 2,
//! fastRNSFloor_P with rounding), in coefficient form or with the limbs of Q_l in NTT form
//! (`FastRnsFloor::apply_transformed`: the NTT of FastBconv's part only), and for a sum kept in NTT
//! form over Q_l u P by hoisted key switching ([`KeySwitcher::mod_down_lazy`]).

use super::*;

impl KeySwitcher {
    /// [`KeySwitcher::mod_down`] with the limbs of Q_l in NTT form (those of P in coefficient form);
    /// the output in NTT form.
    pub(super) fn mod_down_ntt(&self, x: &[u64], level: usize) -> Result<Poly> {
        let ring = &self.levels.rings()[level];
        let n = ring.degree();
        let (xq, xp) = x.split_at((level + 1) * n);
        // Every word is written by the floor (or the copy).
        Ok(Poly::from_fill(
            ring,
            Representation::Ntt,
            |out| match &self.moddown[level] {
                Some(floor) => {
                    floor.apply_transformed(xp, xq, out, |j, limb| ring.forward_limb(j, limb))
                }
                None => {
                    out.copy_from_slice(xq);
                    Ok(())
                }
            },
        )?)
    }

    /// ModDown of a coefficient-form polynomial over Q u P to Q (a copy of it over Q without special
    /// moduli).
    pub(crate) fn mod_down_qp(&self, x: &Poly) -> Result<Poly> {
        if !Arc::ptr_eq(x.context(), self.ring_qp())
            || x.representation() != Representation::Coefficient
        {
            return Err(Error::ContextMismatch(
                "ModDown needs a coefficient-form polynomial over Q u P".into(),
            ));
        }
        self.mod_down(x.residues(), self.k - 1)
    }

    /// ModDown at level l: fastRNSFloor_P(x, Q_l) = (x_Q - FastBconv(x_P, P, Q_l)) P^-1 (the Q_l part
    /// unchanged without special moduli). `x` holds the limbs of Q_l, then those of P.
    pub(super) fn mod_down(&self, x: &[u64], level: usize) -> Result<Poly> {
        let ring = &self.levels.rings()[level];
        let n = ring.degree();
        let (xq, xp) = x.split_at((level + 1) * n);
        let mut out = Poly::zero(ring, Representation::Coefficient);
        match &self.moddown[level] {
            Some(floor) => floor.apply(xp, xq, out.residues_mut())?,
            None => out.residues_mut().copy_from_slice(xq),
        }
        Ok(out)
    }

    /// ModDown of x over Q_l u P ([`Levels::ring_qp_at`], NTT form, such as the sums of
    /// [`KeySwitcher::gadget_product`]) to Q_l, in representation `form`: the limbs of P leave the
    /// NTT form, and in NTT form out those of Q_l never do (the same bits as the ModDown of
    /// [`KeySwitcher::switch_to`]).
    pub fn mod_down_lazy(&self, mut x: Poly, form: Representation) -> Result<Poly> {
        let level = self.lazy_level(&x)?;
        let ring = Arc::clone(x.context());
        let n = ring.degree();
        let data = x.residues_mut();
        let from = if form == Representation::Ntt {
            level + 1
        } else {
            0
        };
        parallel::for_each_limb(&mut data[from * n..], n, |s, limb| {
            ring.inverse_limb(from + s, limb, false)
        })?;
        if form == Representation::Ntt {
            self.mod_down_ntt(data, level)
        } else {
            self.mod_down(data, level)
        }
    }

    /// The level l of an NTT-form polynomial over Q_l u P of this chain, or an error.
    fn lazy_level(&self, x: &Poly) -> Result<usize> {
        let level = x
            .context()
            .moduli()
            .len()
            .wrapping_sub(self.special_count() + 1);
        if self
            .levels
            .ring_qp_at(level)
            .is_none_or(|r| !Arc::ptr_eq(r, x.context()))
            || x.representation() != Representation::Ntt
        {
            return Err(Error::ContextMismatch(
                "ModDown needs an NTT-form polynomial over Q_l u P of this chain".into(),
            ));
        }
        Ok(level)
    }

    /// phi(ModDown(x) + add) in NTT form over Q_l for x over Q_l u P in NTT form (power-of-two
    /// rings), phi the automorphism of the gather table `idx` (`ntt_automorphism_index`), `add` over
    /// Q_l in NTT form: the same bits as [`KeySwitcher::mod_down_lazy`] to NTT form, `add_assign`
    /// and `automorphism`, limb by limb with no full-size intermediate (a hoisted rotation).
    pub(crate) fn mod_down_gathered(
        &self,
        mut x: Poly,
        add: Option<&Poly>,
        idx: &[u32],
    ) -> Result<Poly> {
        let level = self.lazy_level(&x)?;
        let ring = &self.levels.rings()[level];
        let n = ring.degree();
        if add.is_some_and(|a| {
            !Arc::ptr_eq(a.context(), ring) || a.representation() != Representation::Ntt
        }) || ring.kind() != RingKind::PowerOfTwo
        {
            return Err(Error::ContextMismatch(
                "a gathered ModDown adds an NTT-form polynomial over Q_l of a power-of-two ring"
                    .into(),
            ));
        }
        let qp = Arc::clone(x.context());
        let data = x.residues_mut();
        let from = level + 1;
        parallel::for_each_limb(&mut data[from * n..], n, |s, limb| {
            qp.inverse_limb(from + s, limb, false)
        })?;
        let (xq, xp) = data.split_at(from * n);
        let add = add.map(Poly::residues);
        Ok(Poly::from_fill(ring, Representation::Ntt, |out| {
            match &self.moddown[level] {
                Some(floor) => floor.apply_transformed_gathered(
                    xp,
                    xq,
                    out,
                    |j, limb| ring.forward_limb(j, limb),
                    add,
                    idx,
                ),
                // No special primes: the sum and the gather alone.
                None => {
                    let mut t = Buffer::stale(n);
                    for (j, o) in out.chunks_exact_mut(n).enumerate() {
                        t.copy_from_slice(&xq[j * n..(j + 1) * n]);
                        if let Some(a) = add {
                            vector::add_assign(&ring.moduli()[j], &mut t, &a[j * n..(j + 1) * n]);
                        }
                        for (d, &i) in o.iter_mut().zip(idx) {
                            *d = t[i as usize];
                        }
                    }
                    Ok(())
                }
            }
        })?)
    }

    /// ModDown over Q u P of x + e, in NTT form over Q: `x` holds the limbs of Q in NTT form and those
    /// of P in coefficient form (e's P part already added), `e` the small signed error itself
    /// (|e\[i]| <= `bound`), whose residues over Q enter the floor without being formed. The same
    /// bits as NTT(ModDown(x + e)) with x in coefficient form (public-key encryption, which keeps
    /// the product p u in NTT form on Q: no inverse and forward NTT of those limbs).
    pub(crate) fn mod_down_qp_ntt_plus(&self, x: &[u64], e: &[i64], bound: u64) -> Result<Poly> {
        let level = self.k - 1;
        let ring = &self.levels.rings()[level];
        let n = ring.degree();
        if ring.kind() != RingKind::PowerOfTwo || x.len() != self.ring_qp().moduli().len() * n {
            return Err(Error::ContextMismatch(
                "ModDown in NTT form needs a power-of-two ring and residues over Q u P".into(),
            ));
        }
        let (xq, xp) = x.split_at((level + 1) * n);
        if let Some(floor) = &self.moddown[level] {
            // Every word written by the floor.
            return Ok(Poly::from_fill(ring, Representation::Ntt, |o| {
                floor.apply_transformed_plus_small(xp, xq, e, bound, o, |j, l| {
                    ring.forward_limb(j, l)
                })
            })?);
        }
        // No special primes: x + NTT(e) on Q.
        let mut e = Poly::from_signed(ring, e)?;
        e.to_ntt()?;
        Poly::from_fill(ring, Representation::Ntt, |o| {
            for (((o, x), e), m) in o
                .chunks_exact_mut(n)
                .zip(xq.chunks_exact(n))
                .zip(e.residues().chunks_exact(n))
                .zip(ring.moduli())
            {
                vector::add_into(m, x, e, o);
            }
            Ok::<(), Error>(())
        })
    }
}
