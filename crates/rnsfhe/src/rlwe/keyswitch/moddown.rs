//! Step 3 of key switching: ModDown, the division by P of a sum over Q_l u P (Cheon et al. (SAC 2018) Alg. 2,
//! fastRNSFloor_P with rounding), in coefficient form or with the limbs of Q_l in NTT form
//! (`FastRnsFloor::apply_transformed`: the NTT of FastBconv's part only), and for a sum kept in NTT
//! form over Q_l u P by hoisted key switching ([`KeySwitcher::mod_down_lazy`]).

use super::*;
use rnsfhe_math::rns::{FloorAddend, FloorJob};

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
        // Every word is written by the floor (or the copy).
        Ok(Poly::from_fill(
            ring,
            Representation::Coefficient,
            |out| match &self.moddown[level] {
                Some(floor) => floor.apply(xp, xq, out),
                None => {
                    out.copy_from_slice(xq);
                    Ok(())
                }
            },
        )?)
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

    /// [`KeySwitcher::mod_down_qp_ntt_plus`] of two polynomials at once: x_a (over Q u P, NTT form,
    /// as `PublicKey::encrypt_zero_ntt`'s products p_a u) plus the small signed error e_a
    /// (|e_a\[i]| <= `bound`), to NTT form over Q. The limbs of P leave the NTT form, take e's
    /// residues and ModDown's scaling in one task each; then both floors run in one fan-out over
    /// (polynomial, limb of Q), e + bound entering each as one row shared by every limb of Q. The
    /// same bits as the ModDown of each.
    pub(crate) fn mod_down_qp_ntt_plus_pair(
        &self,
        mut x: [Poly; 2],
        e: [&[i64]; 2],
        bound: u64,
    ) -> Result<[Poly; 2]> {
        let qp = Arc::clone(self.ring_qp());
        let level = self.k - 1;
        let ring = &self.levels.rings()[level];
        let n = ring.degree();
        let k = self.k;
        if x.iter()
            .any(|p| !Arc::ptr_eq(p.context(), &qp) || p.representation() != Representation::Ntt)
            || e.iter().any(|e| e.len() != n)
            || ring.kind() != RingKind::PowerOfTwo
        {
            return Err(Error::ContextMismatch(
                "ModDown in NTT form needs a power-of-two ring, products in NTT form over Q u P \
                 and errors of n coefficients"
                    .into(),
            ));
        }
        let Some(floor) = &self.moddown[level] else {
            let [x0, x1] = x;
            return Ok([
                self.mod_down_qp_ntt_plus(x0.residues(), e[0], bound)?,
                self.mod_down_qp_ntt_plus(x1.residues(), e[1], bound)?,
            ]);
        };
        // e_a + bound, checked against the bound (every word written).
        let mut rows = [Buffer::stale(n), Buffer::stale(n)];
        for (row, e) in rows.iter_mut().zip(e) {
            floor.small_addend_row(e, bound, row)?;
        }
        let [x0, x1] = &mut x;
        let p_parts = vec![
            &mut x0.residues_mut()[k * n..],
            &mut x1.residues_mut()[k * n..],
        ];
        // Scratch: e's residues modulo the limb's prime (written before they are read).
        parallel::for_each_array_limb(parallel::Work::Heavy, p_parts, n, n, |a, j, limb, t| {
            let m = &qp.moduli()[k + j];
            qp.inverse_limb(k + j, limb, false)?;
            vector::reduce_signed_into(m, bound, e[a], t);
            vector::add_assign(m, limb, t);
            floor.scale_source_limb(j, limb);
            Ok::<(), Error>(())
        })?;
        Poly::from_fill_many::<2, Error>(ring, Representation::Ntt, |[o0, o1]| {
            let jobs = x
                .iter()
                .zip(&rows)
                .zip([o0, o1])
                .map(|((x, row), out)| {
                    let (xb_t, y) = x.residues().split_at(k * n);
                    FloorJob {
                        y,
                        xb_t,
                        xb_add: Some(FloorAddend::Shared(row, bound)),
                        add: None,
                        out,
                    }
                })
                .collect();
            Ok(floor.apply_transformed_jobs(jobs, |j, limb| ring.forward_limb(j, limb), None)?)
        })
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
