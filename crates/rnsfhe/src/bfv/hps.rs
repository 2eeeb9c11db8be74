//! HPS multiplication tables and steps (../shared/notes/hps.md, steps 1, 3 and 4).

use std::sync::Arc;

use num_bigint::BigUint;
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{BaseConverter, HpsConverter, RnsBasis, ScaleAndRound};

use crate::Result;

/// Everything HPS multiplication precomputes: the auxiliary base P and its three converters.
#[derive(Debug)]
pub struct HpsTool {
    ring_p: Arc<RingContext>,
    /// Step 1: exact Q -> P (centered).
    up: HpsConverter,
    /// Step 3: round(t x / Q) from Q u P into P.
    scale: ScaleAndRound,
    /// Step 4: exact P -> Q (centered).
    down: HpsConverter,
}

impl HpsTool {
    /// P: the fewest primes of q's width (distinct from `exclude`) with P > 2 t delta Q + 4, so that
    /// the tensor (|x| <= delta Q^2 / 2, delta = n for X^n + 1, delta_R for Phi_m) is centred in Q P
    /// and round(t x / Q) is centred in P.
    pub fn new(shape: &super::RingShape, q: &RnsBasis, t: u64, exclude: &[u64]) -> Result<Self> {
        let bits = q.max_modulus().bits();
        let need: BigUint = BigUint::from(2 * shape.delta_int()) * t * q.product() + 4u32;
        let mut excl = exclude.to_vec();
        excl.extend(q.moduli().iter().map(Modulus::value));
        let mut p: Vec<u64> = Vec::new();
        while p.iter().fold(BigUint::from(1u32), |a, &x| a * x) <= need {
            let x = ntt_primes(bits, shape.step(), 1, &excl)?[0];
            excl.push(x);
            p.push(x);
        }
        let pb = RnsBasis::new(&p)?;
        Ok(HpsTool {
            ring_p: shape.ring(&p)?,
            up: HpsConverter::new(q, &pb),
            scale: ScaleAndRound::to_extension(q, &pb, t)?,
            down: HpsConverter::new(&pb, q),
        })
    }

    /// The ring of P.
    pub fn ring_p(&self) -> &Arc<RingContext> {
        &self.ring_p
    }

    /// Step 1: the centred representative of c in P.
    pub fn extend(&self, c: &Poly) -> Result<Poly> {
        // Every word is written by the conversion.
        Ok(Poly::from_fill(
            &self.ring_p,
            Representation::Coefficient,
            |out| self.up.convert(c.residues(), out),
        )?)
    }

    /// Steps 3 + 4: round(t x / Q) for x given in Q and P, returned in Q.
    pub fn scale_down(&self, xq: &Poly, xp: &Poly, ring_q: &Arc<RingContext>) -> Result<Poly> {
        // Every word of in_p and of the output is written by the scaling and the conversion.
        let mut in_p = Buffer::stale(xp.residues().len());
        self.scale
            .apply_split(xq.residues(), Some(xp.residues()), &mut in_p)?;
        Ok(Poly::from_fill(
            ring_q,
            Representation::Coefficient,
            |out| self.down.convert(&in_p, out),
        )?)
    }
}
