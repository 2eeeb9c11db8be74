//! Key switching: from d (under s') to (u0, u1) with u0 + u1 s = d s' + small, mod Q.
//!
//! Digits: D_j = [d (Q/Q_j)^-1]_{Q_j} for the RNS digit Q_j (paper 000 section 4.5: xi_q with one prime
//! per digit), so that sum_j D_j Q/Q_j = d mod Q. Key j encrypts P (Q/Q_j) omega^b s' under s (paper 000
//! eq. (17); with P = 1 it is rlk_RNS). With special moduli P, digits are extended to Q u P by FastBconv
//! (ModUp) and the sum is divided by P (ModDown), the hybrid form; the extension's q-overflows are
//! multiples of Q_j and vanish against the key's factor Q/Q_j.

use std::ops::Range;
use std::sync::Arc;

use num_bigint::BigUint;
use rnsfhe_math::arith::{vector, Modulus, Shoup};
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, FastRnsFloor, RnsBasis};
use rnsfhe_math::sample::{Csprng, DiscreteGaussian};

use super::keys::{gaussian_poly, uniform_ntt};
use super::{KeySwitching, SecretKey};
use crate::{Error, Result};

/// One digit's extension: FastBconv from Q_j to the other limbs of Q u P.
#[derive(Debug)]
struct ModUp {
    conv: FastBaseConverter,
    /// Limb indices (in Q u P) of the converter's target, in order.
    limbs: Vec<usize>,
}

/// The precomputation of key switching for one ciphertext basis Q and special basis P.
#[derive(Debug)]
pub struct KeySwitcher {
    ring_q: Arc<RingContext>,
    ring_qp: Arc<RingContext>,
    layout: KeySwitching,
    digits: Vec<Range<usize>>,
    /// (Q/Q_j)^-1 mod q_i for i in digit j, flattened in limb order.
    digit_inv: Vec<Shoup>,
    modup: Vec<Option<ModUp>>,
    /// ModDown = fastRNSFloor_P(x, Q) = (x_Q - FastBconv(x_P, P, Q)) P^-1.
    moddown: Option<FastRnsFloor>,
    /// Sub-digits per digit (omega digits, else 1).
    subdigits: Vec<usize>,
}

/// x mod q for a big integer (precomputation).
fn big_mod(x: &BigUint, q: &Modulus) -> u64 {
    num_traits::ToPrimitive::to_u64(&(x % q.value())).unwrap_or(0)
}

impl KeySwitcher {
    /// Builds the contexts Q and Q u P (`special` may be empty) and the digit constants.
    pub fn new(n: usize, q: &[u64], special: &[u64], layout: KeySwitching) -> Result<Self> {
        layout.validate(q.len(), special.len())?;
        let ring_q = RingContext::new(n, q)?;
        let all: Vec<u64> = q.iter().chain(special).copied().collect();
        let ring_qp = if special.is_empty() {
            Arc::clone(&ring_q)
        } else {
            RingContext::new(n, &all)?
        };
        let k = q.len();
        let digits: Vec<Range<usize>> = (0..k)
            .step_by(layout.digit_primes)
            .map(|s| s..(s + layout.digit_primes).min(k))
            .collect();
        let qb = ring_q.basis();
        let mut digit_inv = Vec::with_capacity(k);
        let mut modup = Vec::with_capacity(digits.len());
        let mut subdigits = Vec::with_capacity(digits.len());
        for r in &digits {
            let qj = qb.sub_basis(r.clone())?;
            let rest_q: BigUint = qb.product() / qj.product();
            for m in qj.moduli() {
                digit_inv.push(m.shoup(m.inv(big_mod(&rest_q, m))?));
            }
            let limbs: Vec<usize> = (0..all.len()).filter(|i| !r.contains(i)).collect();
            modup.push(if limbs.is_empty() {
                None
            } else {
                let target: Vec<u64> = limbs.iter().map(|&i| all[i]).collect();
                Some(ModUp {
                    conv: FastBaseConverter::new(&qj, &RnsBasis::new(&target)?),
                    limbs,
                })
            });
            subdigits.push(match layout.omega_bits {
                Some(w) => qj.moduli()[0].bits().div_ceil(w) as usize,
                None => 1,
            });
        }
        let moddown = if special.is_empty() {
            None
        } else {
            Some(FastRnsFloor::new(&RnsBasis::new(special)?, qb, 1)?)
        };
        Ok(KeySwitcher {
            ring_q,
            ring_qp,
            layout,
            digits,
            digit_inv,
            modup,
            moddown,
            subdigits,
        })
    }

    /// The ring of the ciphertext modulus Q.
    pub fn ring_q(&self) -> &Arc<RingContext> {
        &self.ring_q
    }

    /// The ring of Q u P (the same as Q without special moduli).
    pub fn ring_qp(&self) -> &Arc<RingContext> {
        &self.ring_qp
    }

    /// The number of key components (digits times sub-digits).
    pub fn key_components(&self) -> usize {
        self.subdigits.iter().sum()
    }

    fn special_product(&self) -> BigUint {
        let k = self.ring_q.moduli().len();
        self.ring_qp.moduli()[k..]
            .iter()
            .fold(BigUint::from(1u32), |a, m| a * m.value())
    }

    /// Truncated columns I_j of paper 000 section 4.6: the `truncation` limbs after j, cyclically.
    fn truncated(&self, j: usize) -> Vec<usize> {
        let k = self.ring_q.moduli().len();
        (1..=self.layout.truncation).map(|d| (j + d) % k).collect()
    }
}

/// A key-switching key from s' to s: per digit j and sub-digit b, (k0, k1) in NTT form over Q u P.
#[derive(Clone, Debug)]
pub struct KeySwitchKey {
    parts: Vec<(Poly, Poly)>,
    seeds: Vec<[u8; 32]>,
}

impl KeySwitchKey {
    /// Keys for s' given in NTT form over Q u P:
    /// k0 = P (Q/Q_j) omega^b s' - q_I (a s + e), k1 = q_I a (q_I = 1 unless truncated).
    pub fn generate(
        sw: &KeySwitcher,
        sk: &SecretKey,
        s_prime: &Poly,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<Self> {
        let ctx = &sw.ring_qp;
        if !Arc::ptr_eq(s_prime.context(), ctx) || s_prime.representation() != Representation::Ntt {
            return Err(Error::ContextMismatch(
                "key switching needs s' in NTT form over Q u P".into(),
            ));
        }
        let n = ctx.degree();
        let qb = sw.ring_q.basis();
        let p = sw.special_product();
        let mut parts = Vec::new();
        let mut seeds = Vec::new();
        for (j, r) in sw.digits.iter().enumerate() {
            let qj = qb.sub_basis(r.clone())?;
            let factor = p.clone() * (qb.product() / qj.product());
            let trunc = sw.truncated(j);
            let q_i: BigUint = trunc
                .iter()
                .fold(BigUint::from(1u32), |a, &i| a * qb.moduli()[i].value());
            for b in 0..sw.subdigits[j] {
                let w = sw.layout.omega_bits.map_or(0, |w| w * b as u32);
                let f = &factor << w;
                let idx = (parts.len() as u32) + 1;
                let (mut a, seed) = uniform_ntt(ctx, rng, idx)?;
                let mut e = gaussian_poly(ctx, g, rng)?;
                e.to_ntt()?;
                let mut k0 = a.mul(sk.ntt_qp())?;
                k0.add_assign(&e)?;
                let mut fs = s_prime.clone();
                for (limb, m) in fs.residues_mut().chunks_exact_mut(n).zip(ctx.moduli()) {
                    let c = m.shoup(big_mod(&f, m));
                    limb.iter_mut().for_each(|x| *x = m.mul_shoup(*x, c));
                }
                if q_i != BigUint::from(1u32) {
                    for poly in [&mut k0, &mut a] {
                        for (limb, m) in poly.residues_mut().chunks_exact_mut(n).zip(ctx.moduli()) {
                            let c = m.shoup(big_mod(&q_i, m));
                            limb.iter_mut().for_each(|x| *x = m.mul_shoup(*x, c));
                        }
                    }
                }
                fs.sub_assign(&k0)?;
                parts.push((fs, a));
                seeds.push(seed);
            }
        }
        Ok(KeySwitchKey { parts, seeds })
    }

    /// The key components (k0, k1), NTT form over Q u P.
    pub fn parts(&self) -> &[(Poly, Poly)] {
        &self.parts
    }

    /// The seeds of the k1 components (before truncation factors).
    pub fn seeds(&self) -> &[[u8; 32]] {
        &self.seeds
    }
}

impl KeySwitcher {
    /// Key switching of d (coefficient form over Q): returns (u0, u1) in coefficient form over Q with
    /// u0 + u1 s = d s' + e_ks (mod Q).
    pub fn switch(&self, d: &Poly, key: &KeySwitchKey) -> Result<(Poly, Poly)> {
        if !Arc::ptr_eq(d.context(), &self.ring_q) {
            return Err(Error::ContextMismatch(
                "key switching input is not over this context's modulus Q".into(),
            ));
        }
        if key.parts.len() != self.key_components()
            || key
                .parts
                .first()
                .is_some_and(|(k0, _)| !Arc::ptr_eq(k0.context(), &self.ring_qp))
        {
            return Err(Error::ContextMismatch(
                "key-switching key belongs to another parameter set".into(),
            ));
        }
        let owned;
        let d = if d.representation() == Representation::Coefficient {
            d
        } else {
            let mut c = d.clone();
            c.to_coefficient()?;
            owned = c;
            &owned
        };
        let ctx = &self.ring_qp;
        let n = ctx.degree();
        let dres = d.residues();
        // Digits D_j = [d (Q/Q_j)^-1]_{Q_j}, and for digits of several primes their ModUp to the
        // other limbs (single-prime digits are reduced limb by limb on the fly).
        let mut digits = Vec::with_capacity(self.digits.len());
        for (j, r) in self.digits.iter().enumerate() {
            let mut y = Buffer::zeroed(r.len() * n);
            for (t, i) in r.clone().enumerate() {
                let limb = &mut y[t * n..(t + 1) * n];
                limb.copy_from_slice(&dres[i * n..(i + 1) * n]);
                vector::mul_shoup_scalar_assign(&ctx.moduli()[i], limb, self.digit_inv[i]);
            }
            let up = match &self.modup[j] {
                Some(up) if r.len() > 1 && self.layout.omega_bits.is_none() => {
                    let mut out = Buffer::zeroed(up.limbs.len() * n);
                    up.conv.convert(&y, &mut out)?;
                    Some(out)
                }
                _ => None,
            };
            digits.push((y, up));
        }
        // Limb by limb: every digit's extension to this limb in NTT form (parts x n words), then one
        // lazy inner product with each key component.
        let mut u = [
            Poly::zero(ctx, Representation::Ntt),
            Poly::zero(ctx, Representation::Ntt),
        ];
        let mut ext = Buffer::zeroed(key.parts.len() * n);
        for (i, m) in ctx.moduli().iter().enumerate() {
            let r = i * n..(i + 1) * n;
            let mut used = Vec::with_capacity(key.parts.len());
            let mut part = 0usize;
            for (j, dig) in self.digits.iter().enumerate() {
                let (y, up) = &digits[j];
                let skip = self.truncated(j).contains(&i);
                for b in 0..self.subdigits[j] {
                    part += 1;
                    if skip {
                        continue;
                    }
                    let tmp = &mut ext[used.len() * n..(used.len() + 1) * n];
                    if let Some(w) = self.layout.omega_bits {
                        let mask = (1u64 << w) - 1;
                        for (o, &x) in tmp.iter_mut().zip(&y[..n]) {
                            *o = m.reduce((x >> (w * b as u32)) & mask);
                        }
                    } else if dig.contains(&i) {
                        let t = i - dig.start;
                        tmp.copy_from_slice(&y[t * n..(t + 1) * n]);
                    } else if let (Some(up), Some(mu)) = (up, &self.modup[j]) {
                        let t = mu.limbs.iter().position(|&l| l == i).unwrap_or(0);
                        tmp.copy_from_slice(&up[t * n..(t + 1) * n]);
                    } else {
                        let qj = ctx.moduli()[dig.start].value();
                        vector::reduce_into(m, qj, &y[..n], tmp);
                    }
                    ctx.ntt_tables()[i].forward(tmp)?;
                    used.push(part - 1);
                }
            }
            let rows: Vec<&[u64]> = (0..used.len()).map(|t| &ext[t * n..(t + 1) * n]).collect();
            for (c, poly) in u.iter_mut().enumerate() {
                let keys: Vec<&[u64]> = used
                    .iter()
                    .map(|&p| {
                        let (k0, k1) = &key.parts[p];
                        &(if c == 0 { k0 } else { k1 }).residues()[r.clone()]
                    })
                    .collect();
                vector::inner_product(m, &rows, &keys, &mut poly.residues_mut()[r.clone()]);
            }
        }
        for poly in u.iter_mut() {
            poly.to_coefficient()?;
        }
        let [u0, u1] = u;
        Ok((self.mod_down(u0)?, self.mod_down(u1)?))
    }

    /// ModDown: (x_Q - FastBconv(x_P, P, Q)) P^-1 in Q (identity without special moduli).
    fn mod_down(&self, x: Poly) -> Result<Poly> {
        let Some(floor) = &self.moddown else {
            return Ok(x);
        };
        let n = x.context().degree();
        let k = self.ring_q.moduli().len();
        let (xq, xp) = x.residues().split_at(k * n);
        let mut out = Poly::zero(&self.ring_q, Representation::Coefficient);
        floor.apply(xp, xq, out.residues_mut())?;
        Ok(out)
    }
}
