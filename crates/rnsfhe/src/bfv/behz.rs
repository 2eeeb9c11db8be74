//! BEHZ multiplication tables and steps (Bajard et al. (SAC 2016) Alg. 3, S0–S4; S5 is key switching).

use std::sync::Arc;

use num_bigint::BigUint;
use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{
    BaseConverter, FastBaseConverter, FastRnsFloor, RnsBasis, SkConverter, SmMrqExtension,
};

use crate::{Error, Result};

/// Everything BEHZ multiplication precomputes: the bases B, B_sk = B u {m_sk}, m~, and the
/// converters of S0–S1, S3 and S4.
#[derive(Debug)]
pub struct BehzTool {
    ring_bsk: Arc<RingContext>,
    /// S0 + S1 with m~ (FastBconv in m~-Montgomery form, then SmMRq), or S0 alone without m~.
    extend: Extension,
    /// S3: fastRNSFloor_q(t x, B_sk).
    s3: FastRnsFloor,
    /// S4: FastBconvSK(B_sk -> q).
    s4: SkConverter,
    rho: f64,
}

#[derive(Debug)]
enum Extension {
    SmMrq(SmMrqExtension),
    Plain(FastBaseConverter),
}

/// The sizes chosen by Lemma 4 and Proposition 2, for reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BehzSizes {
    /// |B|.
    pub b: usize,
    /// log2 m_sk.
    pub log_m_sk: u32,
    /// rho of Lemma 4 (1 + rho bounds ||ct'|| / (q/2) after SmMRq).
    pub rho: f64,
}

impl BehzTool {
    /// Sizes B and m_sk for degree n, plaintext modulus t and base q (moduli of `bits` bits, distinct
    /// from `exclude`).
    ///
    /// Lemma 4: after S0–S1, ||ct'|| <= q/2 (1 + rho) with m~ rho > 2 tau + 1, tau = k; we take
    /// rho = (2k + 2) / m~ (and rho = 2k - 1 without SmMRq, the FastBconv bound). Proposition 2:
    /// lambda M > delta t q/2 (1 + rho)^2 + 1/2 + k and m_sk > 2(|B| + lambda); m_sk is an NTT prime
    /// of the same width as q and lambda = floor(m_sk / 2) - |B| - 1 (the largest allowed), and |B| is
    /// the smallest count of primes meeting the first inequality.
    pub fn new(
        shape: &super::RingShape,
        q: &RnsBasis,
        t: u64,
        m_tilde: Option<u64>,
        exclude: &[u64],
    ) -> Result<Self> {
        let k = q.len();
        let bits = q.max_modulus().bits();
        let rho = match m_tilde {
            Some(m) => (2 * k + 2) as f64 / m as f64,
            None => (2 * k - 1) as f64,
        };
        // bound = delta t q/2 (1 + rho)^2 + 1/2 + k, with (1 + rho)^2 rounded up to a rational.
        let scale = 1u64 << 20;
        let one_rho = ((1.0 + rho) * scale as f64).ceil() as u64;
        let bound: BigUint = BigUint::from(shape.delta_int()) * t * q.product() * one_rho * one_rho
            / (2u64 * scale * scale)
            + k as u64
            + 1u32;
        let mut excl = exclude.to_vec();
        excl.extend(q.moduli().iter().map(Modulus::value));
        let m_sk = ntt_primes(bits, shape.step(), 1, &excl)?[0];
        excl.push(m_sk);
        let mut b: Vec<u64> = Vec::new();
        loop {
            let m: BigUint = b.iter().fold(BigUint::from(1u32), |a, &x| a * x);
            let lambda = m_sk / 2 - b.len() as u64 - 1;
            if !b.is_empty() && m * lambda > bound {
                break;
            }
            if b.len() > 4 * k + 8 {
                return Err(Error::InvalidParameters(
                    "BEHZ: no auxiliary base B found (Proposition 2)".into(),
                ));
            }
            let p = ntt_primes(bits, shape.step(), 1, &excl)?[0];
            excl.push(p);
            b.push(p);
        }
        let mut bsk_moduli = b.clone();
        bsk_moduli.push(m_sk);
        let bsk = RnsBasis::new(&bsk_moduli)?;
        let ring_bsk = shape.ring(&bsk_moduli)?;
        let extend = match m_tilde {
            Some(m) => Extension::SmMrq(SmMrqExtension::new(q, &bsk, m)?),
            None => Extension::Plain(FastBaseConverter::new(q, &bsk)),
        };
        let s4 = SkConverter::new(&bsk, q)?;
        if BigUint::from(s4.lambda()) * (bsk.product() / m_sk) <= bound {
            return Err(Error::InvalidParameters(
                "BEHZ: m_sk too small for Proposition 2".into(),
            ));
        }
        Ok(BehzTool {
            ring_bsk,
            extend,
            s3: FastRnsFloor::new(q, &bsk, t)?,
            s4,
            rho,
        })
    }

    /// The ring of B_sk.
    pub fn ring_bsk(&self) -> &Arc<RingContext> {
        &self.ring_bsk
    }

    /// |B|, log2 m_sk and rho.
    pub fn sizes(&self) -> BehzSizes {
        let m = self.ring_bsk.moduli();
        BehzSizes {
            b: m.len() - 1,
            log_m_sk: m.last().map_or(0, Modulus::bits),
            rho: self.rho,
        }
    }

    /// S0 + S1: c (coefficient form over q) to c' = c mod q in B_sk with ||c'|| <= q/2 (1 + rho).
    pub fn extend(&self, c: &Poly) -> Result<Poly> {
        // Every word is written by the extension.
        Ok(Poly::from_fill(
            &self.ring_bsk,
            Representation::Coefficient,
            |out| match &self.extend {
                Extension::SmMrq(e) => e.apply(c.residues(), out),
                Extension::Plain(f) => f.convert(c.residues(), out),
            },
        )?)
    }

    /// S3 + S4: from x (coefficient form) in q and B_sk to floor(t x / q) - b in q, b in [0, k]
    /// (fastRNSFloor, then FastBconvSK).
    pub fn scale_down(&self, xq: &Poly, xb: &Poly, ring_q: &Arc<RingContext>) -> Result<Poly> {
        // Every word of the floor and of the output is written by S3 and S4.
        let mut floor = Buffer::stale(xb.residues().len());
        self.s3.apply(xq.residues(), xb.residues(), &mut floor)?;
        Ok(Poly::from_fill(
            ring_q,
            Representation::Coefficient,
            |out| self.s4.convert(&floor, out),
        )?)
    }
}
