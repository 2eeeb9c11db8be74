//! The multi-precision baselines of Bajard et al. (SAC 2016) Table 5 (DecMP, MultMP): the same NTT products, with the
//! division and rounding done on big integers after CRT composition (as the paper's GMP code does).

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use rnsfhe::bfv::{BfvCiphertext, BfvContext};
use rnsfhe::rlwe::SecretKey;
use rnsfhe::Result;
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{BaseConverter, HpsConverter, RnsBasis};

/// Big-integer decryption and multiplication for one BFV context.
pub struct MultiPrecision {
    ctx: Arc<BfvContext>,
    /// The extension B' (product > n Q) where the tensor is computed exactly.
    ring_ext: Arc<RingContext>,
    up: HpsConverter,
    full: RnsBasis,
}

impl MultiPrecision {
    pub fn new(ctx: &Arc<BfvContext>) -> Result<Self> {
        let q = ctx.ring().basis();
        let n = ctx.params().degree();
        let bits = ctx.ring().moduli()[0].bits();
        let need = BigUint::from(4 * n as u64) * q.product();
        let mut excl: Vec<u64> = q.moduli().iter().map(|m| m.value()).collect();
        let mut ext = Vec::new();
        while ext.iter().fold(BigUint::from(1u32), |a, &x| a * x) <= need {
            let p = ntt_primes(bits, 2 * n as u64, 1, &excl)?[0];
            excl.push(p);
            ext.push(p);
        }
        let eb = RnsBasis::new(&ext)?;
        Ok(MultiPrecision {
            ctx: Arc::clone(ctx),
            ring_ext: RingContext::new(n, &ext)?,
            up: HpsConverter::new(q, &eb),
            full: q.concat(&eb)?,
        })
    }

    /// DecMP: the phase by NTT, then round(t [x]_q / q) mod t on big integers.
    pub fn decrypt(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<Vec<u64>> {
        let x = self.ctx.phase(ct, sk)?;
        let q = self.ctx.ring().basis().product();
        let t = self.ctx.params().plain_modulus();
        Ok(x.to_biguint()?
            .into_iter()
            .map(|c| {
                let r: BigUint = ((c * t * 2u32 + q) / (q * 2u32)) % t;
                r.iter_u64_digits().next().unwrap_or(0)
            })
            .collect())
    }

    /// MultMP without relinearisation: exact tensor in Q u B' by NTT, then [round(t x / q)]_q per
    /// coefficient on big integers.
    pub fn multiply_no_relin(&self, a: &BfvCiphertext, b: &BfvCiphertext) -> Result<Vec<Poly>> {
        let ring_q = self.ctx.ring();
        let lift = |p: &Poly| -> Result<(Poly, Poly)> {
            let mut e = Poly::zero(&self.ring_ext, Representation::Coefficient);
            self.up.convert(p.residues(), e.residues_mut())?;
            let mut p = p.clone();
            p.to_ntt()?;
            e.to_ntt()?;
            Ok((p, e))
        };
        let (a0, a0e) = lift(&a.parts()[0])?;
        let (a1, a1e) = lift(&a.parts()[1])?;
        let (b0, b0e) = lift(&b.parts()[0])?;
        let (b1, b1e) = lift(&b.parts()[1])?;
        let mut c1 = a0.mul(&b1)?;
        c1.add_assign(&a1.mul(&b0)?)?;
        let mut c1e = a0e.mul(&b1e)?;
        c1e.add_assign(&a1e.mul(&b0e)?)?;
        let pairs = [
            (a0.mul(&b0)?, a0e.mul(&b0e)?),
            (c1, c1e),
            (a1.mul(&b1)?, a1e.mul(&b1e)?),
        ];
        let q = BigInt::from(ring_q.basis().product().clone());
        let t = BigInt::from(self.ctx.params().plain_modulus());
        let k = ring_q.moduli().len();
        let n = ring_q.degree();
        let mut out = Vec::new();
        for (mut xq, mut xe) in pairs {
            xq.to_coefficient()?;
            xe.to_coefficient()?;
            let kk = self.full.len();
            let mut col = vec![0u64; kk];
            let mut res = Poly::zero(ring_q, Representation::Coefficient);
            for j in 0..n {
                for (i, c) in col.iter_mut().enumerate() {
                    *c = if i < k {
                        xq.residues()[i * n + j]
                    } else {
                        xe.residues()[(i - k) * n + j]
                    };
                }
                let x = self.full.compose_centered(&col)?;
                let num: BigInt = &x * &t * 2 + &q;
                let r = num.div_floor(&(&q * 2)).mod_floor(&q);
                for (i, m) in ring_q.basis().decompose_signed(&r).into_iter().enumerate() {
                    res.residues_mut()[i * n + j] = m;
                }
            }
            out.push(res);
        }
        Ok(out)
    }
}
