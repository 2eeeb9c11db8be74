//! The phase of a CKKS ciphertext, c_0 + c_1 s (+ c_2 s^2): what decryption returns.

use std::sync::Arc;

use rnsfhe_math::arith::vector;
use rnsfhe_math::parallel;
use rnsfhe_math::ring::{Poly, Representation, RingContext};

use super::{CkksCiphertext, CkksContext};
use crate::rlwe::SecretKey;
use crate::{Error, Result};

impl CkksContext {
    /// c_0 + c_1 s (+ c_2 s^2) over the ciphertext's level, NTT form. Two parts in NTT form over a
    /// power-of-two ring: limb by limb in one pass over a fresh output, s read from the key
    /// without a copy (the same words as the product and the sum part by part).
    pub(crate) fn phase(&self, ct: &CkksCiphertext, sk: &SecretKey) -> Result<Poly> {
        let ring = self.ring_at(ct.level)?;
        match &ct.parts[..] {
            [c0, c1] if phase_in_one_pass(ring, c0, c1) => {
                let s = sk.ntt_residues_at(ring)?;
                let n = ring.degree();
                let (r0, r1) = (c0.residues(), c1.residues());
                Ok(Poly::from_fill(ring, Representation::Ntt, |out| {
                    parallel::for_each_limb_as(parallel::Work::Products(1), out, n, |i, o| {
                        let r = i * n..(i + 1) * n;
                        o.copy_from_slice(&r0[r.clone()]);
                        vector::mul_add_assign(&ring.moduli()[i], o, &r1[r.clone()], &s[r]);
                        Ok::<(), Error>(())
                    })
                })?)
            }
            _ => self.phase_by_parts(ct, sk),
        }
    }

    /// c_0 + c_1 s (+ c_2 s^2) over the ciphertext's level, part by part.
    fn phase_by_parts(&self, ct: &CkksCiphertext, sk: &SecretKey) -> Result<Poly> {
        let s = sk.ntt_at(self.ring_at(ct.level)?)?;
        let mut acc = ct.parts[0].clone();
        let mut power = s.clone();
        for (i, c) in ct.parts.iter().enumerate().skip(1) {
            acc.add_assign(&c.mul(&power)?)?;
            if i + 1 < ct.parts.len() {
                power.mul_assign(&s)?;
            }
        }
        Ok(acc)
    }
}

/// Whether c_0 + c_1 s can be formed limb by limb from plain words: both parts over `ring` (a
/// power-of-two ring without a Montgomery form) in NTT form and not unreduced products.
fn phase_in_one_pass(ring: &Arc<RingContext>, c0: &Poly, c1: &Poly) -> bool {
    ring.kind() == rnsfhe_math::ring::RingKind::PowerOfTwo
        && ring.reduction().is_none()
        && [c0, c1].iter().all(|c| {
            Arc::ptr_eq(c.context(), ring)
                && c.representation() == Representation::Ntt
                && !c.is_unreduced_product()
        })
}
