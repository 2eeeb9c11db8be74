//! How a linear transform holds its pre-rotated diagonals over Q_l u P: in NTT form (computed
//! once, l + 1 + |P| words per coefficient), or compact: the encoding's integers as their residues
//! modulo the largest prime M of Q_l u P (one word per coefficient), each limb lifted from them
//! (the centred representative, exact while every |c| < M/2) and transformed at each use. Both
//! give the same residues, bit for bit: each limb is the canonical residue of the same integers.
//!
//! At N = 2^16 the bootstrapping DFTs' diagonals take 2.8 GiB in NTT form and 0.1 GiB compact; the
//! price is one lift and one NTT per limb and diagonal at each use (Lattigo keeps them in NTT form).

use std::sync::Arc;

use rnsfhe_math::arith::vector;
use rnsfhe_math::ring::{Poly, Representation, RingContext, RingKind};

use crate::ckks::integers_to_ntt;
use crate::{Error, Result};

/// How a [`super::CkksLinearTransform`] holds its encoded diagonals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagonalStorage {
    /// NTT form over Q_l u P, computed once: the fastest to apply, (l + 1 + |P|) words per
    /// coefficient and diagonal.
    #[default]
    Ntt,
    /// One word per coefficient and diagonal, lifted to Q_l u P and transformed limb by limb at
    /// each use; the same products bit for bit. A diagonal whose integers reach M/2 (M the largest
    /// prime of Q_l u P) is held in NTT form.
    Compact,
}

/// One pre-rotated diagonal over Q_l u P.
#[derive(Clone, Debug)]
pub(crate) enum Diagonal {
    /// NTT form.
    Ntt(Poly),
    /// The residues modulo limb `prime` of `ring` (coefficient form) of integers below half of it.
    Compact {
        ring: Arc<RingContext>,
        prime: usize,
        residues: Vec<u64>,
    },
}

impl Diagonal {
    /// The diagonal of integer coefficients `coeffs` over `ring`, held as `storage` says.
    pub(crate) fn new(
        ring: &Arc<RingContext>,
        coeffs: &[i128],
        storage: DiagonalStorage,
    ) -> Result<Self> {
        let largest = coeffs.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0);
        let prime = ring
            .moduli()
            .iter()
            .enumerate()
            .max_by_key(|(_, m)| m.value())
            .map(|(i, m)| (i, m.value()));
        match (storage, prime) {
            (DiagonalStorage::Compact, Some((i, m)))
                if ring.kind() == RingKind::PowerOfTwo && largest < u128::from(m / 2) =>
            {
                let q = i128::from(m);
                Ok(Diagonal::Compact {
                    ring: Arc::clone(ring),
                    prime: i,
                    residues: coeffs.iter().map(|&c| c.rem_euclid(q) as u64).collect(),
                })
            }
            _ => Ok(Diagonal::Ntt(integers_to_ntt(ring, coeffs)?)),
        }
    }

    /// The ring Q_l u P.
    pub(crate) fn ring(&self) -> &Arc<RingContext> {
        match self {
            Diagonal::Ntt(p) => p.context(),
            Diagonal::Compact { ring, .. } => ring,
        }
    }

    /// Whether [`Self::limb`] computes the limb (into its buffer).
    pub(crate) fn is_compact(&self) -> bool {
        matches!(self, Diagonal::Compact { .. })
    }

    /// The bytes held.
    pub(crate) fn bytes(&self) -> usize {
        8 * match self {
            Diagonal::Ntt(p) => p.residues().len(),
            Diagonal::Compact { residues, .. } => residues.len(),
        }
    }

    /// Limb `i` in NTT form: the held one, or lifted and transformed into `buf` (n words).
    pub(crate) fn limb<'a>(&'a self, i: usize, buf: &'a mut [u64]) -> Result<&'a [u64]> {
        match self {
            Diagonal::Ntt(p) => {
                let n = p.context().limb_len(Representation::Ntt);
                p.residues()
                    .get(i * n..(i + 1) * n)
                    .ok_or_else(|| Error::Internal(format!("a diagonal has no limb {i}")))
            }
            Diagonal::Compact {
                ring,
                prime,
                residues,
            } => {
                let m = ring.moduli();
                let (from, q) = match (m.get(*prime), m.get(i)) {
                    (Some(f), Some(q)) => (f, q),
                    _ => return Err(Error::Internal(format!("a diagonal has no limb {i}"))),
                };
                if i == *prime {
                    buf.copy_from_slice(residues);
                } else {
                    vector::lift_centered(from, q, residues, buf);
                }
                ring.forward_limb(i, buf)?;
                Ok(buf)
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use rnsfhe_math::sample::Csprng;

    /// Compact limbs equal the NTT form's, bit for bit, on the active backend (run the suite under
    /// each `RNSFHE_BACKEND`), for integers up to just below M/2 of both signs; M/2 and beyond stay in
    /// NTT form.
    #[test]
    fn compact_limbs_equal_the_ntt_form() {
        let n = 1 << 11;
        let q = rnsfhe_math::arith::ntt_primes(40, 2 * n as u64, 2, &[]).unwrap();
        let q60 = rnsfhe_math::arith::ntt_primes(60, 2 * n as u64, 2, &q).unwrap();
        let p =
            rnsfhe_math::arith::ntt_primes(61, 2 * n as u64, 1, &[&q[..], &q60].concat()).unwrap();
        let all: Vec<u64> = [&q[..], &q60, &p].concat();
        let ring = RingContext::new(n, &all).unwrap();
        let half = (p[0] / 2) as i128;
        let mut rng = Csprng::from_seed([9; 32]);
        let mut coeffs: Vec<i128> = (0..n)
            .map(|_| (rng.next_u64() as i128 % half) * if rng.next_u64() & 1 == 0 { 1 } else { -1 })
            .collect();
        coeffs[0] = half - 1;
        coeffs[1] = -(half - 1);
        let want = integers_to_ntt(&ring, &coeffs).unwrap();
        let d = Diagonal::new(&ring, &coeffs, DiagonalStorage::Compact).unwrap();
        assert!(d.is_compact());
        assert_eq!(d.bytes(), 8 * n);
        let mut buf = vec![0u64; n];
        for i in 0..all.len() {
            assert_eq!(
                d.limb(i, &mut buf).unwrap(),
                want.limb(i).unwrap(),
                "limb {i}"
            );
        }
        coeffs[2] = half;
        let d = Diagonal::new(&ring, &coeffs, DiagonalStorage::Compact).unwrap();
        assert!(!d.is_compact());
        assert_eq!(
            d.limb(3, &mut buf).unwrap(),
            integers_to_ntt(&ring, &coeffs).unwrap().limb(3).unwrap()
        );
    }
}
