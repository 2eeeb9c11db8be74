//! Bajard et al. (HPR-FV, ePrint 2019/500) section 7: the depth of a squaring chain (Table 3's measured depths), and the NTTs
//! counted in the code (Tables 1-2).

use std::sync::atomic::{AtomicU64, Ordering};

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::ToPrimitive;
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, RingContext};
use rnsfhe_math::sample::Csprng;

use super::{HprContext, HprPublicKey, HprRelinKey, HprSecretKey};
use crate::Result;

static FORWARD: AtomicU64 = AtomicU64::new(0);
static INVERSE: AtomicU64 = AtomicU64::new(0);

/// Forward and inverse single-modulus NTTs run by HPR operations since the last [`reset_ntt_count`]
/// (process-wide; the unit of Bajard et al. (HPR-FV, ePrint 2019/500) Tables 1-2).
pub fn ntt_count() -> (u64, u64) {
    (
        FORWARD.load(Ordering::Relaxed),
        INVERSE.load(Ordering::Relaxed),
    )
}

/// Sets the counters of [`ntt_count`] to zero.
pub fn reset_ntt_count() {
    FORWARD.store(0, Ordering::Relaxed);
    INVERSE.store(0, Ordering::Relaxed);
}

/// `p.to_ntt()`, counted.
pub(super) fn fwd(p: &mut Poly) -> Result<()> {
    if p.representation() == rnsfhe_math::ring::Representation::Coefficient {
        FORWARD.fetch_add(p.context().moduli().len() as u64, Ordering::Relaxed);
    }
    Ok(p.to_ntt()?)
}

/// `p.to_coefficient()`, counted.
pub(super) fn inv(p: &mut Poly) -> Result<()> {
    if p.representation() == rnsfhe_math::ring::Representation::Ntt {
        INVERSE.fetch_add(p.context().moduli().len() as u64, Ordering::Relaxed);
    }
    Ok(p.to_coefficient()?)
}

/// a b in Z_t\[X]/(X^n + 1), exactly (NTT over primes whose product exceeds 2 n t^2).
pub fn plain_product(a: &[u64], b: &[u64], t: u64) -> Result<Vec<u64>> {
    let n = a.len();
    let bits = (n as f64).log2() + 2.0 * (t as f64).log2() + 2.0;
    let primes = ntt_primes(60, 2 * n as u64, (bits / 59.0).ceil() as usize, &[])?;
    let ring = RingContext::new(n, &primes)?;
    let centred = |x: &[u64]| -> Result<Poly> {
        let c: Vec<i64> = x
            .iter()
            .map(|&v| {
                if v > t / 2 {
                    v as i64 - t as i64
                } else {
                    v as i64
                }
            })
            .collect();
        let mut p = Poly::from_signed(&ring, &c)?;
        p.to_ntt()?;
        Ok(p)
    };
    let mut c = centred(a)?.mul(&centred(b)?)?;
    c.to_coefficient()?;
    let tb = BigInt::from(t);
    let k = primes.len();
    (0..n)
        .map(|j| {
            let col: Vec<u64> = (0..k).map(|i| c.residues()[i * n + j]).collect();
            let x = ring.basis().compose_centered(&col)?;
            Ok(x.mod_floor(&tb).to_u64().unwrap_or(0))
        })
        .collect()
}

impl HprContext {
    /// Squares an encryption of `m` up to `max` times with relinearisation, and returns the number
    /// of squarings after which decryption still gives m^(2^L) (Bajard et al. (HPR-FV, ePrint 2019/500) section 7).
    pub fn measure_squaring_depth(
        &self,
        sk: &HprSecretKey,
        pk: &HprPublicKey,
        rlk: &HprRelinKey,
        m: &[u64],
        max: u32,
        rng: &mut Csprng,
    ) -> Result<u32> {
        let t = self.params.plain_modulus();
        let mut ct = self.encrypt(pk, m, rng)?;
        let mut want = m.to_vec();
        for depth in 1..=max {
            ct = self.mul(&ct, &ct, rlk)?;
            want = plain_product(&want, &want, t)?;
            if self.decrypt(sk, &ct)? != want {
                return Ok(depth - 1);
            }
        }
        Ok(max)
    }
}
