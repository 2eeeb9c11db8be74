//! BEHZ multiplication tables and steps (paper 000 Alg. 3, S0–S4; S5 is key switching).

use std::sync::Arc;

use num_bigint::BigUint;
use rnsfhe_math::arith::{ntt_primes, Modulus, Shoup};
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, RnsBasis, SkConverter};

use crate::{Error, Result};

/// Everything BEHZ multiplication precomputes: the bases B, B_sk = B u {m_sk}, m~, and the
/// converters of S0, S3 and S4.
#[derive(Debug)]
pub struct BehzTool {
    q: RnsBasis,
    ring_bsk: Arc<RingContext>,
    m_tilde: Option<Modulus>,
    /// S0: FastBconv(|m~ c|_q, q, B_sk u {m~}) (factor 1 and target B_sk without m~).
    s0: FastBaseConverter,
    /// S1 constants: -q^-1 mod m~, then per m in B_sk: q mod m and m~^-1 mod m.
    neg_inv_q_mt: u64,
    q_mod_bsk: Vec<Shoup>,
    inv_mt_bsk: Vec<Shoup>,
    /// S3: FastBconv(|t x|_q, q, B_sk), t mod m and q^-1 mod m for m in B_sk.
    s3: FastBaseConverter,
    t_bsk: Vec<Shoup>,
    inv_q_bsk: Vec<Shoup>,
    /// S4: FastBconvSK(B_sk -> q).
    s4: SkConverter,
    rho: f64,
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
        n: usize,
        q: &RnsBasis,
        t: u64,
        m_tilde: Option<u64>,
        exclude: &[u64],
    ) -> Result<Self> {
        let k = q.len();
        let bits = q.moduli().iter().map(Modulus::bits).max().unwrap_or(30);
        let rho = match m_tilde {
            Some(m) => (2 * k + 2) as f64 / m as f64,
            None => (2 * k - 1) as f64,
        };
        // bound = delta t q/2 (1 + rho)^2 + 1/2 + k, with (1 + rho)^2 rounded up to a rational.
        let scale = 1u64 << 20;
        let one_rho = ((1.0 + rho) * scale as f64).ceil() as u64;
        let bound: BigUint = BigUint::from(n as u64) * t * q.product() * one_rho * one_rho
            / (2u64 * scale * scale)
            + k as u64
            + 1u32;
        let mut excl = exclude.to_vec();
        excl.extend(q.moduli().iter().map(Modulus::value));
        let m_sk = ntt_primes(bits, 2 * n as u64, 1, &excl)?[0];
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
            let p = ntt_primes(bits, 2 * n as u64, 1, &excl)?[0];
            excl.push(p);
            b.push(p);
        }
        let mut bsk_moduli = b.clone();
        bsk_moduli.push(m_sk);
        let bsk = RnsBasis::new(&bsk_moduli)?;
        let ring_bsk = RingContext::new(n, &bsk_moduli)?;
        let mt = m_tilde.map(Modulus::new).transpose()?;
        let (s0, neg_inv_q_mt) = match &mt {
            Some(m) => {
                let mut target = bsk_moduli.clone();
                target.push(m.value());
                let conv = FastBaseConverter::with_factor(q, &RnsBasis::new(&target)?, m.value());
                let qm = big_mod(q.product(), m);
                (conv, m.neg(m.inv(qm)?))
            }
            None => (FastBaseConverter::new(q, &bsk), 0),
        };
        let per_bsk = |f: &dyn Fn(&Modulus) -> Result<u64>| -> Result<Vec<Shoup>> {
            bsk.moduli().iter().map(|m| Ok(m.shoup(f(m)?))).collect()
        };
        let q_mod_bsk = per_bsk(&|m| Ok(big_mod(q.product(), m)))?;
        let inv_mt_bsk = per_bsk(&|m| match &mt {
            Some(x) => m.inv(m.reduce(x.value())),
            None => Ok(1),
        })?;
        let t_bsk = per_bsk(&|m| Ok(m.reduce(t)))?;
        let inv_q_bsk = per_bsk(&|m| m.inv(big_mod(q.product(), m)))?;
        let s4 = SkConverter::new(&bsk, q)?;
        if BigUint::from(s4.lambda()) * (bsk.product() / m_sk) <= bound {
            return Err(Error::InvalidParameters(
                "BEHZ: m_sk too small for Proposition 2".into(),
            ));
        }
        Ok(BehzTool {
            q: q.clone(),
            ring_bsk,
            m_tilde: mt,
            s0,
            neg_inv_q_mt,
            q_mod_bsk,
            inv_mt_bsk,
            s3: FastBaseConverter::with_factor(q, &bsk, t),
            t_bsk,
            inv_q_bsk,
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
        let n = c.context().degree();
        let nb = self.ring_bsk.moduli().len();
        let mut out = Poly::zero(&self.ring_bsk, Representation::Coefficient);
        let Some(mt) = &self.m_tilde else {
            self.s0.convert(c.residues(), out.residues_mut())?;
            return Ok(out);
        };
        let mut ext = vec![0u64; (nb + 1) * n];
        self.s0.convert(c.residues(), &mut ext)?;
        let (main, last) = ext.split_at(nb * n);
        // S1 (Alg. 2): r = [-c''_m~ / q]_m~ centered; c'_m = (c''_m + q r) m~^-1.
        let r: Vec<i64> = last
            .iter()
            .map(|&x| mt.center(mt.mul(x, self.neg_inv_q_mt)))
            .collect();
        for (((o, x), m), (qm, inv)) in out
            .residues_mut()
            .chunks_exact_mut(n)
            .zip(main.chunks_exact(n))
            .zip(self.ring_bsk.moduli())
            .zip(self.q_mod_bsk.iter().zip(&self.inv_mt_bsk))
        {
            for ((ov, &xv), &rv) in o.iter_mut().zip(x).zip(&r) {
                let qr = m.mul_shoup(m.reduce_i64(rv), *qm);
                *ov = m.mul_shoup(m.add(xv, qr), *inv);
            }
        }
        Ok(out)
    }

    /// S3 + S4: from x (coefficient form) in q and B_sk to round-ish(t x / q) + b in q
    /// (fastRNSFloor, then FastBconvSK).
    pub fn scale_down(&self, xq: &Poly, xb: &Poly, ring_q: &Arc<RingContext>) -> Result<Poly> {
        let n = xq.context().degree();
        let mut floor = vec![0u64; xb.residues().len()];
        self.s3.convert(xq.residues(), &mut floor)?;
        for (((o, x), m), (tm, iq)) in floor
            .chunks_exact_mut(n)
            .zip(xb.residues().chunks_exact(n))
            .zip(self.ring_bsk.moduli())
            .zip(self.t_bsk.iter().zip(&self.inv_q_bsk))
        {
            for (ov, &xv) in o.iter_mut().zip(x) {
                *ov = m.mul_shoup(m.sub(m.mul_shoup(xv, *tm), *ov), *iq);
            }
        }
        let mut out = Poly::zero(ring_q, Representation::Coefficient);
        self.s4.convert(&floor, out.residues_mut())?;
        let _ = &self.q;
        Ok(out)
    }
}

fn big_mod(x: &BigUint, m: &Modulus) -> u64 {
    (x % m.value()).iter_u64_digits().next().unwrap_or(0)
}
