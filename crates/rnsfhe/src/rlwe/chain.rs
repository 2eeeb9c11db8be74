//! [`ModulusChain`]: over the rings of the levels Q_l = q_0 ... q_l ([`Levels`]), the constants that
//! take a polynomial from level l to level l - 1 (BGV modulus switching, CKKS rescaling).
//!
//! One step is Bajard et al. (SAC 2017) Lemma 3: c' = (c + delta) / q_l over Q_{l-1} with
//! delta = t [-c t^-1]_{q_l} (centred), so that delta = -c mod q_l and delta = 0 mod t. For BGV
//! (q_l = 1 mod t) the phase keeps [m]_t and its noise is divided by q_l plus t (r_0 + r_1 s) / q_l;
//! with t = 1 it is the rounded division round(c / q_l) of CKKS's RS. Written on the ring's public
//! operations (limb selection, forms), so it serves any cyclotomic the ring supports.

use std::sync::Arc;

use rnsfhe_math::arith::{vector, Backend, Shoup};
use rnsfhe_math::parallel;
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Poly, Representation, RingContext};

use super::{KeySwitchKey, KeySwitcher, Levels};
use crate::{Error, Result};

/// The constants of the step from level l to l - 1.
#[derive(Debug)]
struct Step {
    /// t^-1 mod q_l (none for t = 1).
    t_inv: Option<Shoup>,
    /// q_l^-1 mod q_i, i < l.
    inv: Vec<Shoup>,
    /// t mod q_i, i < l (none for t = 1).
    t_mod: Option<Vec<Shoup>>,
}

/// The modulus-switching constants of a modulus chain for a plaintext modulus t (t = 1: rounding
/// division), over the rings of its [`Levels`] (shared with the scheme's [`KeySwitcher`]).
#[derive(Debug)]
pub struct ModulusChain {
    levels: Arc<Levels>,
    t: u64,
    steps: Vec<Option<Step>>,
    /// t^-1 and t modulo each q_i of the top level (levels are prefixes); empty for t = 1.
    t_inv: Vec<Shoup>,
    t_mod: Vec<Shoup>,
}

impl ModulusChain {
    /// The chain of `sw`'s levels for plaintext modulus t: [`ModulusChain::on`] its [`Levels`].
    pub fn new(sw: &KeySwitcher, t: u64) -> Result<Self> {
        Self::on(Arc::clone(sw.levels()), t)
    }

    /// The chain of `levels` for plaintext modulus t (t coprime to every q_l; BGV wants
    /// q_l = 1 mod t so that the message is unchanged, Lemma 3).
    pub fn on(levels: Arc<Levels>, t: u64) -> Result<Self> {
        let rings = levels.rings();
        let mut steps = vec![None];
        for (l, ring) in rings.iter().enumerate().skip(1) {
            let ql = &ring.moduli()[l];
            let below = &ring.moduli()[..l];
            let inv = below
                .iter()
                .map(|qi| Ok(qi.shoup(qi.inv(qi.reduce(ql.value()))?)))
                .collect::<Result<Vec<_>>>()?;
            let (t_inv, t_mod) = if t == 1 {
                (None, None)
            } else {
                let t_mod = below.iter().map(|qi| qi.shoup(qi.reduce(t))).collect();
                (Some(ql.shoup(ql.inv(ql.reduce(t))?)), Some(t_mod))
            };
            steps.push(Some(Step { t_inv, inv, t_mod }));
        }
        let (mut t_inv, mut t_mod) = (Vec::new(), Vec::new());
        if t != 1 {
            for q in levels.ring_q().moduli() {
                t_inv.push(q.shoup(q.inv(q.reduce(t))?));
                t_mod.push(q.shoup(q.reduce(t)));
            }
        }
        Ok(ModulusChain {
            levels,
            t,
            steps,
            t_inv,
            t_mod,
        })
    }

    /// The number of levels (the top level is `levels() - 1`).
    pub fn levels(&self) -> usize {
        self.levels.count()
    }

    /// The rings of the levels.
    pub fn rings(&self) -> &Arc<Levels> {
        &self.levels
    }

    /// The plaintext modulus the steps keep (1 for rounding).
    pub fn plain_modulus(&self) -> u64 {
        self.t
    }

    /// The ring of level l (moduli q_0..q_l), or an error beyond the chain.
    pub fn ring_at(&self, level: usize) -> Result<&Arc<RingContext>> {
        self.levels
            .ring_at(level)
            .ok_or_else(|| Error::LevelOutOfRange {
                op: "modulus chain".into(),
                level,
                max: self.levels.count() - 1,
            })
    }

    /// The level of a ring of this chain (by identity), if it is one.
    pub fn level_of(&self, ring: &Arc<RingContext>) -> Option<usize> {
        self.levels.level_of(ring)
    }

    /// One step down (Bajard et al. (SAC 2017) Lemma 3): (x + t [-x t^-1]_{q_l}) / q_l over level l - 1, in the
    /// input's representation. Errors at level 0 (the chain is exhausted) or off the chain.
    pub fn switch_down(&self, x: &Poly) -> Result<Poly> {
        let l = self.level_of(x.context()).ok_or_else(|| {
            Error::ContextMismatch("modulus switching: the polynomial is not on this chain".into())
        })?;
        let step = self.steps[l]
            .as_ref()
            .ok_or_else(|| Error::LevelsExhausted {
                op: "modulus switching".into(),
                level: 0,
                needed: 1,
            })?;
        let lower = &self.levels.rings()[l - 1];
        let form = x.representation();
        // An unreduced general-m product is reduced first (its limbs cannot be split as they are).
        let reduced;
        let x = if x.is_unreduced_product() {
            let mut r = x.clone();
            super::keys::reduce_product(&mut r)?;
            reduced = r;
            &reduced
        } else {
            x
        };
        let (ring, n, len) = (x.context(), lower.degree(), lower.limb_len(form));
        let ql = &ring.moduli()[l];
        // r = [x t^-1]_{q_l} in coefficient form (the first n words of `last`).
        let src = x.residues();
        let mut last = Buffer::stale(len);
        last.copy_from_slice(&src[l * len..]);
        if form == Representation::Ntt {
            ring.inverse_limb(l, &mut last, false)?;
        }
        if let Some(w) = step.t_inv {
            vector::mul_shoup_scalar_assign(ql, &mut last[..n], w);
        }
        // Limb by limb, on the threads there are (rnsfhe_math::parallel), in the output limb itself
        // (zero beyond n): (x - t r) q_l^-1 = (t r - x) (-q_l^-1) with r centred, so that delta = -t r.
        let down_limb = |i: usize, o: &mut [u64]| -> Result<()> {
            let m = &lower.moduli()[i];
            vector::lift_centered(ql, m, &last[..n], &mut o[..n]);
            if let Some(t) = &step.t_mod {
                vector::mul_shoup_scalar_assign(m, &mut o[..n], t[i]);
            }
            let x = &src[i * len..(i + 1) * len];
            let table = lower.ntt_tables().get(i).filter(|_| m.value() < 1 << 61);
            if let (Some(t), Representation::Ntt, Backend::Scalar) =
                (table, form, vector::shoup_backend(m))
            {
                // Scalar, one pass after a lazy NTT (t r in [0, 4q)): x + 4q - t r is below 5q < 2^64,
                // which the Shoup product takes whole (the same residues as the passes below).
                t.forward_lazy_unchecked(o);
                let (q4, w) = (4 * m.value(), step.inv[i]);
                for (o, &x) in o.iter_mut().zip(x) {
                    *o = m.mul_shoup(x + q4 - *o, w);
                }
            } else {
                if form == Representation::Ntt {
                    lower.forward_limb(i, o)?;
                }
                vector::sub_assign(m, o, x);
                vector::mul_shoup_scalar_assign(m, o, m.shoup(m.neg(step.inv[i].value)));
            }
            Ok(())
        };
        let fill = |data: &mut [u64]| {
            parallel::for_each_limb(data, len, |i, o| {
                let m = &lower.moduli()[i];
                let x = &src[i * len..(i + 1) * len];
                let lazy = lower.ntt_tables().get(i).is_some()
                    && m.value() < 1 << 61
                    && vector::shoup_backend(m) == Backend::Scalar;
                if form == Representation::Ntt && len == n && !lazy {
                    // The lift in a scratch limb, then o = (x - NTT(t r)) q_l^-1 written once.
                    let mut t = Buffer::stale(n);
                    vector::lift_centered(ql, m, &last[..n], &mut t);
                    if let Some(tm) = &step.t_mod {
                        vector::mul_shoup_scalar_assign(m, &mut t, tm[i]);
                    }
                    lower.forward_limb(i, &mut t)?;
                    vector::sub_mul_shoup(m, x, &t, 0, step.inv[i], o);
                    return Ok(());
                }
                down_limb(i, o)
            })
        };
        // Every word written where limbs hold n values (power-of-two rings); zeros beyond n otherwise.
        let mut out = if len == n {
            Poly::from_fill(lower, form, fill)?
        } else {
            let mut p = Poly::zero(lower, form);
            fill(p.residues_mut())?;
            p
        };
        keep_form(&mut out, x)?;
        Ok(out)
    }

    /// x *= t modulo the moduli of x's level (no-op for t = 1).
    pub(crate) fn mul_t(&self, x: &mut Poly) {
        scale_limbs(x, &self.t_mod);
    }

    /// x *= t^-1 modulo the moduli of x's level (no-op for t = 1).
    pub(crate) fn div_t(&self, x: &mut Poly) {
        scale_limbs(x, &self.t_inv);
    }

    /// Key switching of d with the error scaled by t (BGV; Bajard et al. (SAC 2017) section 2): the switcher's
    /// (u_0, u_1) for t^-1 d, times t, so t u_0 + t u_1 s = d s' + t e_ks (mod Q_l) and the phase keeps
    /// [m]_t with the keys of BFV and CKKS unchanged (as Lattigo's BGV). For t = 1 it is
    /// [`KeySwitcher::switch`]. Coefficient form out.
    pub(crate) fn switch_key(
        &self,
        sw: &KeySwitcher,
        d: &Poly,
        key: &KeySwitchKey,
    ) -> Result<(Poly, Poly)> {
        if self.t == 1 {
            return sw.switch(d, key);
        }
        let mut d = d.clone();
        scale_limbs(&mut d, &self.t_inv);
        d.to_coefficient()?;
        let (mut u0, mut u1) = sw.switch(&d, key)?;
        scale_limbs(&mut u0, &self.t_mod);
        scale_limbs(&mut u1, &self.t_mod);
        if super::keys::is_montgomery(d.context()) {
            // Digits of c M against keys with M^2: the residues are those of (u_0, u_1) M (Bajard et al. (SAC 2017)
            // sections 4.1-4.2, `rlwe::KeySwitchKey`).
            for u in [&mut u0, &mut u1] {
                u.relabel_form(rnsfhe_math::ring::Form::Montgomery)?;
            }
        }
        Ok((u0, u1))
    }

    /// The first limbs of x, over level `level` (no division: the value mod Q_level).
    pub fn drop_to(&self, x: &Poly, level: usize) -> Result<Poly> {
        let ring = self.ring_at(level)?;
        let len = ring.limb_len(x.representation()) * (level + 1);
        let reduced;
        let x = if x.is_unreduced_product() {
            let mut r = x.clone();
            super::keys::reduce_product(&mut r)?;
            reduced = r;
            &reduced
        } else {
            x
        };
        let res = x.residues();
        if self.level_of(x.context()).is_none_or(|l| l < level) {
            return Err(Error::LevelOutOfRange {
                op: format!("drop a polynomial of {} limbs", x.context().moduli().len()),
                level,
                max: x.context().moduli().len().saturating_sub(1),
            });
        }
        // A pooled copy of the limbs, which are residues of the same moduli already.
        let mut out = Poly::from_fill(ring, x.representation(), |o| {
            o.copy_from_slice(&res[..len]);
            Ok::<(), Error>(())
        })?;
        keep_form(&mut out, x)?;
        Ok(out)
    }
}

/// Gives `out` the Montgomery form of `x`: both steps act on the residues, so c M stays c' M (paper
/// 001 section 4.2: delta = [-c~/t]_{q_l} t is computed from the residues of c~ = c M).
fn keep_form(out: &mut Poly, x: &Poly) -> Result<()> {
    if super::keys::is_montgomery(x.context()) {
        out.relabel_form(x.montgomery_form())?;
    }
    Ok(())
}

/// x_i *= w_i limb by limb (the first limbs of `w`, as many as x has; no-op for an empty `w`).
fn scale_limbs(x: &mut Poly, w: &[Shoup]) {
    if w.is_empty() {
        return;
    }
    let n = x.context().limb_len(x.representation());
    let ctx = Arc::clone(x.context());
    for ((limb, q), w) in x
        .residues_mut()
        .chunks_exact_mut(n)
        .zip(ctx.moduli())
        .zip(w)
    {
        vector::mul_shoup_scalar_assign(q, limb, *w);
    }
}
