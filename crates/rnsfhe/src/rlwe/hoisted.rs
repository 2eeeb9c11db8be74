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
//! the digits D_j(c_1) do not depend on g. Over Q_l u P (NTT form) the automorphism is a permutation
//! of each limb, so it is applied there, before ModDown; a term of a sum is
//! phi_g(u_0 + P c_0, u_1) times its weight, and the sum is divided by P once.
//!
//! BGV (a `ModulusChain` with t > 1, paper 001 section 2): the digits are those of t^-1 c_1, c_0 enters
//! as P t^-1 c_0, and the ModDown is multiplied by t, so the error stays a multiple of t (as
//! [`super::ModulusChain`]'s key switch).
//!
//! Where hoisting applies: power-of-two rings without a Montgomery form (every digit layout: RNS
//! digits of one or several primes, omega digits, truncated key columns, with or without special
//! primes; CKKS, BGV and BFV over X^n + 1). General Phi_m rings (paper 001's NTT_N form, Montgomery
//! rings) rotate one key at a time through [`KeySwitcher::switch_to`] with the automorphism after it,
//! and sums there take integer weights only.

use std::sync::Arc;

use rnsfhe_math::arith::{Modulus, Shoup};
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
        context_id: u64,
        ct_key: Option<KeyId>,
    ) -> Result<Self> {
        owned_by(
            (keys.context_id, keys.key_id),
            (context_id, ct_key),
            "Galois key",
        )?;
        if parts.len() != 2 {
            return Err(Error::InvalidCiphertext(format!(
                "a rotation needs 2-part ciphertexts, got {} parts; relinearize first",
                parts.len()
            )));
        }
        let level = sw
            .levels()
            .level_of(parts[0].context())
            .filter(|_| Arc::ptr_eq(parts[0].context(), parts[1].context()))
            .ok_or_else(|| {
                Error::ContextMismatch(
                    "the ciphertext's parts are not over one level of this context".into(),
                )
            })?;
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

    /// The ring of Q_l u P where the lazy terms live.
    pub(crate) fn ring_qp(&self) -> Result<&Arc<RingContext>> {
        self.sw.ring_qp_at(self.level)
    }

    /// X -> X^g and key switching back to s: the parts in the ciphertext's representation (a copy
    /// for g = 1). The same bits as [`Hoisted::sum`] of the one term (g, 1).
    pub(crate) fn rotate(&self, g: u64) -> Result<Vec<Poly>> {
        let g = g % self.sw.ring_q().cyclotomic_index() as u64;
        if g == 1 {
            return Ok(self.parts.to_vec());
        }
        let key = self.keys.get(g)?;
        let form = self.parts[0].representation();
        let [mut u0, u1] = match &self.digits {
            Some(digits) => {
                let [u0, u1] = self.sw.gadget_product(digits, key)?;
                let down = |u: &Poly| self.sw.mod_down_lazy(u.automorphism(g as i64)?, form);
                let mut out = [down(&u0)?, down(&u1)?];
                if let Some(c) = self.chain {
                    out.iter_mut().for_each(|u| c.mul_t(u));
                }
                out
            }
            None => {
                let (u0, u1) = switch(self.sw, self.chain, &self.parts[1], key, form)?;
                [u0.automorphism(g as i64)?, u1.automorphism(g as i64)?]
            }
        };
        u0.add_assign(&self.parts[0].automorphism(g as i64)?)?;
        Ok(vec![u0, u1])
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
    /// of c_0), or (P t^-1 c_0, P t^-1 c_1) for g = 1. ModDown of it (times t) is the rotation.
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
        let [mut u0, u1] = self.sw.gadget_product(digits, self.keys.get(g)?)?;
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
        if self.digits.is_none() {
            return self.sum_separately(terms);
        }
        let c0 = self.lift_c0()?;
        let mut acc: Option<[Poly; 2]> = None;
        for &(g, w) in terms {
            let mut term = self.lazy(g, &c0)?;
            for x in term.iter_mut() {
                apply_weight(x, w)?;
            }
            match acc.as_mut() {
                None => acc = Some(term),
                Some(a) => {
                    a[0].add_assign(&term[0])?;
                    a[1].add_assign(&term[1])?;
                }
            }
        }
        let acc = acc.ok_or_else(|| Error::InvalidParameters("a sum of no rotations".into()))?;
        self.finish(acc)
    }

    /// The rotation by g of a lazy pair (a_0, a_1) over Q_l u P (Lattigo's giant steps in
    /// `MultiplyByDiagMatrixBSGS`): a_1 goes down to Q_l (its ModDown, which for BGV is already the
    /// t^-1-scaled value that key switching decomposes), is decomposed and switched with the key of
    /// g, and the result stays lazy: phi_g(a_0 + U_0, U_1). A copy for g = 1.
    pub(crate) fn rotate_lazy(&self, acc: &[Poly; 2], g: u64) -> Result<[Poly; 2]> {
        let sw = self.sw;
        let g = g % sw.ring_q().cyclotomic_index() as u64;
        if g == 1 {
            return Ok(acc.clone());
        }
        let key = self.keys.get(g)?;
        let a1 = sw.mod_down_lazy(acc[1].clone(), Representation::Ntt)?;
        let [mut u0, u1] = sw.gadget_product(&sw.decompose(&a1)?, key)?;
        u0.add_assign(&acc[0])?;
        Ok([u0.automorphism(g as i64)?, u1.automorphism(g as i64)?])
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

/// x *= w (x over Q_l u P in NTT form).
pub(crate) fn apply_weight(x: &mut Poly, w: Weight<'_>) -> Result<()> {
    match w {
        Weight::One => Ok(()),
        Weight::Integer(c) => {
            mul_integer(x, c);
            Ok(())
        }
        Weight::Plain(p) => x.mul_assign(p),
    }
}
