//! Hoisted Galois automorphisms: many rotations of one ciphertext (c_0, c_1) from one decomposition of
//! c_1 (Halevi and Shoup, "Faster homomorphic linear transformations in HElib", CRYPTO 2018,
//! section 5), and sums of rotated terms with one ModDown ("double hoisting": Bossuat,
//! Troncoso-Pastoriza and Hubaux, "Efficient bootstrapping for approximate homomorphic encryption with
//! non-sparse keys", Eurocrypt 2021, section 3.2 and Alg. 2). Lattigo's `AutomorphismHoisted` and
//! `AutomorphismHoistedLazy` are the anchors.
//!
//! The automorphism comes after the key product: the Galois key of g switches from s to
//! phi_{g^-1}(s) ([`super::GaloisKeys`]), so with (u_0, u_1) = sum_j D_j(c_1) K_j,
//! u_0 + u_1 phi_{g^-1}(s) = c_1 s + e and phi_g(c_0 + u_0) + phi_g(u_1) s = phi_g(c_0 + c_1 s) + phi_g(e):
//! the digits D_j(c_1) do not depend on g. A rotation, alone ([`rotate_one`], the key switch limb by
//! limb) or among many ([`Hoisted::rotate`], the key products of shared digits), divides by P and
//! then applies phi_g over Q_l: the same bits either way. A term of a sum stays over Q_l u P, where
//! the automorphism is a permutation of each limb (NTT form) applied before the common ModDown: the
//! term is phi_g(u_0 + P c_0, u_1) times its weight, and the sum is divided by P once (a sum of one
//! term equals the rotation after decryption; bit for bit only as far as the rounded FastBconv of
//! ModDown commutes with the signs of phi_g).
//!
//! BGV (a `ModulusChain` with t > 1, Bajard et al. (SAC 2017) section 2): the digits are those of t^-1 c_1, c_0 enters
//! as P t^-1 c_0, and the ModDown is multiplied by t, so the error stays a multiple of t (as
//! [`super::ModulusChain`]'s key switch).
//!
//! Where hoisting applies: power-of-two rings without a Montgomery form (every digit layout: RNS
//! digits of one or several primes, omega digits, truncated key columns, with or without special
//! primes; CKKS, BGV and BFV over X^n + 1). General Phi_m rings (Bajard et al. (SAC 2017)'s NTT_N form, Montgomery
//! rings) rotate one key at a time through [`KeySwitcher::switch_to`] with the automorphism after it,
//! and sums there take integer weights only.

use std::sync::Arc;

use rnsfhe_math::arith::{vector, Modulus, Shoup};
use rnsfhe_math::parallel;
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Poly, Representation, RingContext, RingKind};

use super::evalkeys::switch;
use super::{owned_by, Decomposed, GaloisKeys, KeyId, KeySwitcher, ModulusChain};
use crate::{Error, Result};

/// What a term of a sum of rotations is multiplied by.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Weight<'a> {
    /// 1.
    One,
    /// An integer, the same in every slot (a centred residue mod t, or a CKKS constant times its
    /// scale).
    Integer(i64),
    /// A plaintext over Q_l u P ([`KeySwitcher::ring_qp_at`]) in NTT form (power-of-two rings).
    Plain(&'a Poly),
}

/// Whether the switcher's rings take hoisted key switching (see the module documentation).
pub(crate) fn hoistable(sw: &KeySwitcher) -> bool {
    let ring = sw.ring_qp();
    ring.kind() == RingKind::PowerOfTwo && ring.reduction().is_none()
}

/// Refuses keys of another context or key pair and ciphertexts other than 2 parts over one level of
/// `sw`; returns the level.
pub(crate) fn check(
    sw: &KeySwitcher,
    keys: &GaloisKeys,
    parts: &[Poly],
    fingerprint: u64,
    ct_key: Option<KeyId>,
) -> Result<usize> {
    owned_by(
        (keys.fingerprint, keys.key_id),
        (fingerprint, ct_key),
        "Galois key",
    )?;
    if parts.len() != 2 {
        return Err(Error::InvalidCiphertext(format!(
            "a rotation needs 2-part ciphertexts, got {} parts; relinearize first",
            parts.len()
        )));
    }
    sw.levels()
        .level_of(parts[0].context())
        .filter(|_| Arc::ptr_eq(parts[0].context(), parts[1].context()))
        .ok_or_else(|| {
            Error::ContextMismatch(
                "the ciphertext's parts are not over one level of this context".into(),
            )
        })
}

/// One rotation of a ciphertext at `level`: c_1 switched by itself with the key of g
/// ([`KeySwitcher::switch_to`], limb by limb; BGV's t-scaled switch), then [`rotated`]. The same
/// bits as [`Hoisted::rotate`]. Checks as [`Hoisted::new`]; a copy for g = 1.
pub(crate) fn rotate_one(
    sw: &KeySwitcher,
    chain: Option<&ModulusChain>,
    keys: &GaloisKeys,
    parts: &[Poly],
    (g, level): (u64, usize),
) -> Result<Vec<Poly>> {
    let g = g % sw.ring_q().cyclotomic_index() as u64;
    if g == 1 {
        return Ok(parts.to_vec());
    }
    let key = keys.get_at(g, level, None)?;
    if chain.is_none()
        && hoistable(sw)
        && parts
            .iter()
            .all(|p| p.representation() == Representation::Ntt)
    {
        // c_0 and the automorphism folded into the ModDown (the same bits as below).
        let idx = sw.gather_table(g)?;
        return Ok(sw.switch_gathered(&parts[1], key, &parts[0], &idx)?.into());
    }
    let (u0, u1) = switch(sw, chain, &parts[1], key, parts[0].representation())?;
    rotated(u0, u1, &parts[0], g)
}

impl GaloisKeys {
    /// X -> X^g on 2 ciphertext parts of parameters `fingerprint` and key pair `ct_key`, switched
    /// back to s: the parts of the result, in the input's representation (a copy for g = 1). Shared
    /// by BFV, BGV (`scaled`: errors times t) and CKKS: the key switch of c_1, then the automorphism
    /// (`rotate_one`), the same bits as the same rotation among many
    /// (`Hoisted::rotate`).
    pub(crate) fn apply(
        &self,
        sw: &KeySwitcher,
        scaled: Option<&ModulusChain>,
        parts: &[Poly],
        g: u64,
        fingerprint: u64,
        ct_key: Option<KeyId>,
    ) -> Result<Vec<Poly>> {
        let level = check(sw, self, parts, fingerprint, ct_key)?;
        rotate_one(sw, scaled, self, parts, (g, level))
    }
}

/// (phi_g(c_0 + u_0), phi_g(u_1)) for (u_0, u_1) the key switch of c_1 by the key of g (from s to
/// phi_{g^-1}(s)): the rotation of (c_0, c_1) under s.
fn rotated(mut u0: Poly, u1: Poly, c0: &Poly, g: u64) -> Result<Vec<Poly>> {
    u0.add_assign(c0)?;
    Ok(vec![u0.automorphism(g as i64)?, u1.automorphism(g as i64)?])
}

/// A 2-part ciphertext prepared for many Galois automorphisms: c_1 (t^-1 c_1 for BGV) decomposed once.
pub(crate) struct Hoisted<'a> {
    sw: &'a KeySwitcher,
    chain: Option<&'a ModulusChain>,
    keys: &'a GaloisKeys,
    parts: &'a [Poly],
    level: usize,
    /// `None` on rings that switch one key at a time.
    digits: Option<Decomposed>,
}

impl<'a> Hoisted<'a> {
    /// Checks the keys against the ciphertext (context `context_id`, key pair `ct_key`) and its parts
    /// (2, over a level of `sw`), and decomposes c_1. `chain`: BGV's chain (errors scaled by t),
    /// `None` for BFV and CKKS.
    pub(crate) fn new(
        sw: &'a KeySwitcher,
        chain: Option<&'a ModulusChain>,
        keys: &'a GaloisKeys,
        parts: &'a [Poly],
        fingerprint: u64,
        ct_key: Option<KeyId>,
    ) -> Result<Self> {
        let level = check(sw, keys, parts, fingerprint, ct_key)?;
        let digits = if hoistable(sw) {
            Some(match chain.filter(|c| c.plain_modulus() != 1) {
                Some(c) => {
                    let mut d = parts[1].clone();
                    c.div_t(&mut d);
                    sw.decompose(&d)?
                }
                None => sw.decompose(&parts[1])?,
            })
        } else {
            None
        };
        Ok(Hoisted {
            sw,
            chain,
            keys,
            parts,
            level,
            digits,
        })
    }

    /// The level l of the ciphertext.
    pub(crate) fn level(&self) -> usize {
        self.level
    }

    /// The ring of Q_l u P where the lazy terms live.
    pub(crate) fn ring_qp(&self) -> Result<&Arc<RingContext>> {
        self.sw.ring_qp_at(self.level)
    }

    /// X -> X^g and key switching back to s: the parts in the ciphertext's representation (a copy
    /// for g = 1). The key product of the shared digits, its ModDown (times t for BGV), then the
    /// automorphism on Q_l: the same bits as [`rotate_one`], which switches c_1 by itself.
    pub(crate) fn rotate(&self, g: u64) -> Result<Vec<Poly>> {
        let g = g % self.sw.ring_q().cyclotomic_index() as u64;
        if g == 1 {
            return Ok(self.parts.to_vec());
        }
        let Some(digits) = &self.digits else {
            return rotate_one(self.sw, self.chain, self.keys, self.parts, (g, self.level));
        };
        let key = self.keys.get_at(g, self.level, None)?;
        let form = self.parts[0].representation();
        if form == Representation::Ntt && self.chain.is_none() {
            // The gadget product, ModDown, c_0 and the automorphism limb by limb (the same bits as
            // below).
            let idx = self.sw.gather_table(g)?;
            return Ok(self
                .sw
                .rotate_hoisted(digits, key, &self.parts[0], &idx)?
                .into());
        }
        let [u0, u1] = self.sw.gadget_product(digits, key)?;
        let mut u = [
            self.sw.mod_down_lazy(u0, form)?,
            self.sw.mod_down_lazy(u1, form)?,
        ];
        if let Some(c) = self.chain {
            u.iter_mut().for_each(|x| c.mul_t(x));
        }
        let [u0, u1] = u;
        rotated(u0, u1, &self.parts[0], g)
    }

    /// P t^-1 c (t = 1 but for BGV) over Q_l u P in NTT form, zero on the limbs of P: a part of the
    /// ciphertext as a lazy term (Lattigo's `MulScalarBigint(c, P)`).
    pub(crate) fn lift(&self, c: &Poly) -> Result<Poly> {
        let ring = self.ring_qp()?;
        let n = ring.degree();
        let factors = self.p_over_t()?;
        let mut x = c.clone();
        x.to_ntt()?;
        let mut out = Poly::zero(ring, Representation::Ntt);
        for (((o, src), m), w) in out
            .residues_mut()
            .chunks_exact_mut(n)
            .zip(x.residues().chunks_exact(n))
            .zip(ring.moduli())
            .zip(&factors)
        {
            o.copy_from_slice(src);
            rnsfhe_math::arith::vector::mul_shoup_scalar_assign(m, o, *w);
        }
        Ok(out)
    }

    /// P t^-1 modulo q_0..q_l.
    fn p_over_t(&self) -> Result<Vec<Shoup>> {
        let all = self.sw.ring_qp().moduli();
        let k = self.sw.levels().count();
        let t = self.chain.map_or(1, ModulusChain::plain_modulus);
        all[..=self.level]
            .iter()
            .map(|m: &Modulus| {
                let p = all[k..]
                    .iter()
                    .fold(1u64, |a, pj| m.mul(a, m.reduce(pj.value())));
                Ok(m.shoup(m.mul(p, m.inv(m.reduce(t))?)))
            })
            .collect()
    }

    /// The lazy term of g: phi_g(u_0 + P t^-1 c_0, u_1) over Q_l u P, NTT form (`c0` = [`Hoisted::lift`]
    /// of c_0), or (P t^-1 c_0, P t^-1 c_1) for g = 1. ModDown of it (times t) is the rotation, up to
    /// the rounding of the ModDown.
    pub(crate) fn lazy(&self, g: u64, c0: &Poly) -> Result<[Poly; 2]> {
        let digits = self.digits.as_ref().ok_or_else(|| {
            Error::InvalidParameters(
                "lazy (hoisted) rotations need a power-of-two ring without Montgomery form".into(),
            )
        })?;
        let g = g % self.sw.ring_q().cyclotomic_index() as u64;
        if g == 1 {
            return Ok([c0.clone(), self.lift(&self.parts[1])?]);
        }
        let [mut u0, u1] = self
            .sw
            .gadget_product(digits, self.keys.get_at(g, self.level, None)?)?;
        u0.add_assign(c0)?;
        Ok([u0.automorphism(g as i64)?, u1.automorphism(g as i64)?])
    }

    /// ModDown of a lazy sum (times t for BGV): parts in the ciphertext's representation.
    pub(crate) fn finish(&self, acc: [Poly; 2]) -> Result<Vec<Poly>> {
        let [a0, a1] = acc;
        let form = self.form();
        let mut out = vec![
            self.sw.mod_down_lazy(a0, form)?,
            self.sw.mod_down_lazy(a1, form)?,
        ];
        if let Some(c) = self.chain {
            out.iter_mut().for_each(|u| c.mul_t(u));
        }
        Ok(out)
    }

    /// sum_i w_i phi_{g_i}(ct) with one ModDown per part (double hoisting), in the ciphertext's
    /// representation. On rings that switch one key at a time: the sum of [`Hoisted::rotate`]s,
    /// integer weights only.
    pub(crate) fn sum(&self, terms: &[(u64, Weight<'_>)]) -> Result<Vec<Poly>> {
        let Some(digits) = &self.digits else {
            return self.sum_separately(terms);
        };
        let c0 = self.lift_c0()?;
        let ring = self.ring_qp()?;
        let n = ring.degree();
        let m = self.sw.ring_q().cyclotomic_index() as u64;
        // Per term: its key and gather table (none for g = 1), checked and made once.
        let mut c1 = None;
        let mut prepared = Vec::with_capacity(terms.len());
        for &(g, w) in terms {
            let g = g % m;
            if g == 1 {
                if c1.is_none() {
                    c1 = Some(self.lift(&self.parts[1])?);
                }
                prepared.push((None, w));
                continue;
            }
            let key = self.keys.get_at(g, self.level, None)?;
            self.sw.check_gadget(digits, key)?;
            prepared.push((Some((key, self.sw.gather_table(g)?)), w));
        }
        for (_, w) in &prepared {
            check_weight(*w, ring)?;
        }
        // Limb by limb: every term's key product on this limb, permuted, weighted and summed while
        // the limb's sums stay in cache (no term over all of Q_l u P is ever stored).
        let mut acc = [
            Poly::zero(ring, Representation::Ntt),
            Poly::zero(ring, Representation::Ntt),
        ];
        let [a0, a1] = &mut acc;
        let (c0r, c1r) = (c0.residues(), c1.as_ref().map(Poly::residues));
        parallel::for_each_limb2(
            parallel::Work::Heavy,
            a0.residues_mut(),
            a1.residues_mut(),
            n,
            3 * n,
            |slot, a0, a1, scratch| {
                let q = &ring.moduli()[slot];
                let r = slot * n..(slot + 1) * n;
                let (u0, rest) = scratch.split_at_mut(n);
                let (u1, t) = rest.split_at_mut(n);
                for (key, w) in &prepared {
                    let w = LimbWeight::of(*w, q, slot, n);
                    match key {
                        None => {
                            add_term(q, a0, &c0r[r.clone()], None, w, t);
                            if let Some(c1) = c1r {
                                add_term(q, a1, &c1[r.clone()], None, w, t);
                            }
                        }
                        Some((key, idx)) => {
                            self.sw.gadget_product_limb(digits, key, slot, u0, u1)?;
                            vector::add_assign(q, u0, &c0r[r.clone()]);
                            add_term(q, a0, u0, Some(idx), w, t);
                            add_term(q, a1, u1, Some(idx), w, t);
                        }
                    }
                }
                Ok::<(), Error>(())
            },
        )?;
        self.finish(acc)
    }

    /// The key switch by g of a lazy pair (a_0, a_1) over Q_l u P, before its automorphism
    /// (Lattigo's giant steps in `MultiplyByDiagMatrixBSGS`): a_1 goes down to Q_l (its ModDown,
    /// which for BGV is already the t^-1-scaled value that key switching decomposes), is decomposed
    /// and switched with the key of g, and the result stays lazy: (a_0 + U_0, U_1), whose phi_g
    /// ([`accumulate`]) is the rotation. The pair itself for g = 1.
    pub(crate) fn switch_lazy(&self, acc: [Poly; 2], g: u64) -> Result<[Poly; 2]> {
        let sw = self.sw;
        let g = g % sw.ring_q().cyclotomic_index() as u64;
        if g == 1 {
            return Ok(acc);
        }
        let key = self.keys.get_at(g, self.level, None)?;
        let [a0, a1] = acc;
        let a1 = sw.mod_down_lazy(a1, Representation::Ntt)?;
        let [mut u0, u1] = sw.gadget_product(&sw.decompose(&a1)?, key)?;
        u0.add_assign(&a0)?;
        Ok([u0, u1])
    }

    /// [`Hoisted::lift`] of c_0.
    pub(crate) fn lift_c0(&self) -> Result<Poly> {
        self.lift(&self.parts[0])
    }

    /// The ciphertext's representation.
    pub(crate) fn form(&self) -> Representation {
        self.parts[0].representation()
    }

    /// The sum of separate rotations (general Phi_m rings).
    fn sum_separately(&self, terms: &[(u64, Weight<'_>)]) -> Result<Vec<Poly>> {
        let mut acc: Option<Vec<Poly>> = None;
        for &(g, w) in terms {
            let mut r = self.rotate(g)?;
            for x in r.iter_mut() {
                match w {
                    Weight::One => {}
                    Weight::Integer(c) => mul_integer(x, c),
                    Weight::Plain(_) => {
                        return Err(Error::InvalidParameters(
                            "plaintext weights of a sum of rotations need a power-of-two ring"
                                .into(),
                        ))
                    }
                }
            }
            match acc.as_mut() {
                None => acc = Some(r),
                Some(a) => {
                    for (a, x) in a.iter_mut().zip(&r) {
                        a.add_assign(x)?;
                    }
                }
            }
        }
        acc.ok_or_else(|| Error::InvalidParameters("a sum of no rotations".into()))
    }
}

/// x *= c for a signed integer c.
pub(crate) fn mul_integer(x: &mut Poly, c: i64) {
    x.mul_scalar_assign(c.unsigned_abs());
    if c < 0 {
        x.neg_assign();
    }
}

/// Refuses a plaintext weight that is not over `ring` (Q_l u P) in NTT form.
fn check_weight(w: Weight<'_>, ring: &Arc<RingContext>) -> Result<()> {
    match w {
        Weight::Plain(p)
            if !Arc::ptr_eq(p.context(), ring) || p.representation() != Representation::Ntt =>
        {
            Err(Error::ContextMismatch(
                "a plaintext weight must be over Q_l u P in NTT form".into(),
            ))
        }
        _ => Ok(()),
    }
}

/// A weight on one limb: 1, a Shoup constant, or the plaintext's limb.
#[derive(Clone, Copy)]
enum LimbWeight<'a> {
    One,
    Constant(Shoup),
    Plain(&'a [u64]),
}

impl<'a> LimbWeight<'a> {
    fn of(w: Weight<'a>, q: &Modulus, slot: usize, n: usize) -> Self {
        match w {
            Weight::One => LimbWeight::One,
            Weight::Integer(c) => LimbWeight::Constant(q.shoup(q.reduce_i64(c))),
            Weight::Plain(p) => LimbWeight::Plain(&p.residues()[slot * n..(slot + 1) * n]),
        }
    }
}

/// a += w * phi(x) on one limb modulo q, phi by its gather table (`None`: the identity): the
/// gather into the scratch `t` (n words), then the vector product and sum.
fn add_term(
    q: &Modulus,
    a: &mut [u64],
    x: &[u64],
    idx: Option<&[u32]>,
    w: LimbWeight<'_>,
    t: &mut [u64],
) {
    let y: &[u64] = match idx {
        Some(idx) => {
            t.iter_mut().zip(idx).for_each(|(o, &j)| *o = x[j as usize]);
            t
        }
        None => x,
    };
    match w {
        LimbWeight::One => vector::add_assign(q, a, y),
        LimbWeight::Constant(ws) => {
            if idx.is_none() {
                t.copy_from_slice(x);
            }
            vector::mul_shoup_scalar_assign(q, t, ws);
            vector::add_assign(q, a, t);
        }
        LimbWeight::Plain(p) => vector::mul_add_assign(q, a, y, p),
    }
}

/// acc += phi(x) over Q_l u P (NTT form), phi by its gather table (`None`: the identity), limb by
/// limb (the giant steps of a linear transform).
pub(crate) fn accumulate(acc: &mut Poly, x: &Poly, idx: Option<&[u32]>) -> Result<()> {
    let ring = Arc::clone(x.context());
    let same =
        |p: &Poly| Arc::ptr_eq(p.context(), &ring) && p.representation() == Representation::Ntt;
    if !same(acc) || !same(x) {
        return Err(Error::Internal(
            "a lazy term over another ring or not in NTT form".into(),
        ));
    }
    let n = ring.degree();
    let xs = x.residues();
    parallel::for_each_limb_as(parallel::Work::Light, acc.residues_mut(), n, |l, a| {
        let q = &ring.moduli()[l];
        let mut t = Buffer::stale(n);
        add_term(q, a, &xs[l * n..(l + 1) * n], idx, LimbWeight::One, &mut t);
        Ok::<(), Error>(())
    })
}
