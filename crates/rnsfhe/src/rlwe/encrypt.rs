//! The RLWE encryption of zero under a public key (over Q u P, then ModDown, Cheon et al. (SAC 2018) Alg. 2, as
//! SEAL does) and under a secret key, in coefficient form (BFV, BGV) and straight into NTT form (CKKS).

use std::sync::Arc;

use rnsfhe_math::arith::vector;
use rnsfhe_math::parallel;
use rnsfhe_math::ring::{Poly, Representation, RingKind};
use rnsfhe_math::sample::{ternary, ternary_hamming, Csprng, DiscreteGaussian};

use super::keys::{gaussian_poly, is_montgomery, uniform_ntt};
use super::{KeySwitcher, PublicKey, SecretDistribution, SecretKey};
use crate::{Error, Result};

impl PublicKey {
    /// An encryption of zero in coefficient form over Q: (p0 u + e0, p1 u + e1) over Q u P, u from
    /// `dist`, divided by P (ModDown) when there are special moduli.
    pub fn encrypt_zero(
        &self,
        sw: &KeySwitcher,
        dist: SecretDistribution,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<(Poly, Poly)> {
        let ctx = self.parts().0.context();
        let (mut c0, mut c1) = self.products(sw, dist, rng)?;
        c0.to_coefficient()?;
        c1.to_coefficient()?;
        c0.add_assign(&gaussian_poly(ctx, g, rng)?)?;
        c1.add_assign(&gaussian_poly(ctx, g, rng)?)?;
        Ok((sw.mod_down_qp(&c0)?, sw.mod_down_qp(&c1)?))
    }

    /// [`PublicKey::encrypt_zero`] in NTT form over Q (CKKS): the same bits as its output taken to
    /// NTT form, for the same draws of u, e0, e1. On a power-of-two ring the limbs of Q of p u stay
    /// in NTT form: only those of P are inverted (e added there), and e's limbs of Q enter ModDown's
    /// coefficient-form correction before its forward NTT (k + 2 (k + |P|) NTTs instead of
    /// 3 (k + |P|) + 2 k).
    pub fn encrypt_zero_ntt(
        &self,
        sw: &KeySwitcher,
        dist: SecretDistribution,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<(Poly, Poly)> {
        let ctx = self.parts().0.context();
        if ctx.kind() != RingKind::PowerOfTwo {
            let (mut c0, mut c1) = self.encrypt_zero(sw, dist, g, rng)?;
            c0.to_ntt()?;
            c1.to_ntt()?;
            return Ok((c0, c1));
        }
        let (c0, c1) = self.products(sw, dist, rng)?;
        // e0 is drawn before e1, as in `encrypt_zero`, each as `gaussian_poly` draws it; their
        // residues are formed only on the limbs of P (those of Q enter ModDown's sum from e itself).
        let n = ctx.degree();
        let e0 = g.sample(rng, n);
        let e1 = g.sample(rng, n);
        let [c0, c1] = sw.mod_down_qp_ntt_plus_pair([c0, c1], [&e0, &e1], g.bound())?;
        Ok((c0, c1))
    }

    /// (p0 u, p1 u) in NTT form over Q u P for a fresh u of `dist` (u's residues are overwritten).
    fn products(
        &self,
        sw: &KeySwitcher,
        dist: SecretDistribution,
        rng: &mut Csprng,
    ) -> Result<(Poly, Poly)> {
        let ctx = self.parts().0.context();
        if !Arc::ptr_eq(ctx, sw.ring_qp()) {
            return Err(Error::ContextMismatch(
                "the public key belongs to another parameter set".into(),
            ));
        }
        let n = ctx.degree();
        let u = match dist {
            SecretDistribution::Ternary => ternary(rng, n),
            SecretDistribution::HammingWeight(h) => ternary_hamming(rng, n, h)?,
        };
        let mut u = Poly::from_signed_ntt(ctx, &u)?;
        if is_montgomery(ctx) {
            // p (plain) * u M reduces to p u: the output is plain, as elsewhere.
            u = u.to_montgomery()?;
        }
        let (p0, p1) = self.parts();
        if !Arc::ptr_eq(p0.context(), ctx)
            || !Arc::ptr_eq(p1.context(), ctx)
            || p0.representation() != Representation::Ntt
            || p1.representation() != Representation::Ntt
            || ctx.kind() != RingKind::PowerOfTwo
            || ctx.reduction().is_some()
        {
            // p1 u into a fresh polynomial, then p0 u over u (the pointwise product commutes bit
            // for bit).
            let c1 = u.mul(p1)?;
            u.mul_assign(p0)?;
            return Ok((u, c1));
        }
        // Both products limb by limb in one fan-out: p1 u written into c1, then p0 u over u itself
        // (its residues are overwritten), the same words as `mul` and `mul_assign`.
        let (r0, r1) = (p0.residues(), p1.residues());
        // Every word of c1 is written by its limb's task.
        let c1 = Poly::from_fill(ctx, Representation::Ntt, |c1| {
            parallel::for_each_limb2(
                parallel::Work::Products(1),
                u.residues_mut(),
                c1,
                n,
                0,
                |i, ui, ci, _| {
                    let (m, r) = (&ctx.moduli()[i], i * n..(i + 1) * n);
                    vector::mul_into(m, ui, &r1[r.clone()], ci);
                    vector::mul_assign(m, ui, &r0[r]);
                    Ok::<(), Error>(())
                },
            )
        })?;
        Ok((u, c1))
    }
}

impl SecretKey {
    /// A symmetric encryption of zero in coefficient form: (-(a s) + e, a), a expanded from the
    /// returned seed (so the second part can be stored as the seed).
    pub fn encrypt_zero(
        &self,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<(Poly, Poly, [u8; 32])> {
        let ctx = self.ring();
        self.check_exposure(super::keys::log2_modulus(ctx), "a symmetric encryption")?;
        let (mut a, seed) = uniform_ntt(ctx, rng, 0)?;
        let mut c0 = a.mul(self.ntt_q())?;
        c0.neg_assign();
        c0.to_coefficient()?;
        c0.add_assign(&gaussian_poly(ctx, g, rng)?)?;
        a.to_coefficient()?;
        Ok((c0, a, seed))
    }

    /// [`SecretKey::encrypt_zero`] in NTT form (CKKS): -(a s) + NTT(e) and a as drawn, the same bits
    /// as its output taken to NTT form, with k NTTs instead of 4 k (power-of-two rings; otherwise
    /// through the coefficient form).
    pub fn encrypt_zero_ntt(
        &self,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<(Poly, Poly, [u8; 32])> {
        let ctx = self.ring();
        if ctx.kind() != RingKind::PowerOfTwo {
            let (mut c0, mut a, seed) = self.encrypt_zero(g, rng)?;
            c0.to_ntt()?;
            a.to_ntt()?;
            return Ok((c0, a, seed));
        }
        self.check_exposure(super::keys::log2_modulus(ctx), "a symmetric encryption")?;
        let (a, seed) = uniform_ntt(ctx, rng, 0)?;
        let mut c0 = a.mul(self.ntt_q())?;
        c0.neg_assign();
        let mut e = gaussian_poly(ctx, g, rng)?;
        e.to_ntt()?;
        c0.add_assign(&e)?;
        Ok((c0, a, seed))
    }
}
