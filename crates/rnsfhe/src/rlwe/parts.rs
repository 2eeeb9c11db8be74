//! The polynomials of a BFV, BGV or CKKS ciphertext, with the seed of c_1 while c_1 is still its
//! expansion (a fresh symmetric encryption, stored half size by `crate::serialize`).
//!
//! The seed is private and only [`Parts::seeded`] sets it; every mutable access that can reach c_1
//! ([`Parts::polys_mut`], [`Parts::into_vec`]) drops it, so no operation can change c_1 and keep a
//! seed that no longer expands to it. [`Parts::c0_mut`] (plaintext addition) keeps it.

use std::ops::Deref;

use rnsfhe_math::ring::Poly;

/// The parts (c_0, c_1[, c_2, ...]) of a ciphertext and the seed of c_1 when it has one.
#[derive(Clone, Debug)]
pub(crate) struct Parts {
    polys: Vec<Poly>,
    seed: Option<[u8; 32]>,
}

impl Parts {
    /// (c_0, c_1) with c_1 the expansion of `seed` (fresh symmetric encryption; the seeded bytes).
    pub(crate) fn seeded(c0: Poly, c1: Poly, seed: [u8; 32]) -> Self {
        Self {
            polys: vec![c0, c1],
            seed: Some(seed),
        }
    }

    /// The seed of c_1, while c_1 is its expansion.
    pub(crate) fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_ref()
    }

    /// The polynomials, mutable: drops the seed.
    pub(crate) fn polys_mut(&mut self) -> &mut Vec<Poly> {
        self.seed = None;
        &mut self.polys
    }

    /// c_0, mutable (c_1 and the seed unchanged).
    pub(crate) fn c0_mut(&mut self) -> &mut Poly {
        &mut self.polys[0]
    }

    /// The polynomials (the seed dropped).
    pub(crate) fn into_vec(self) -> Vec<Poly> {
        self.polys
    }
}

/// Parts without a seed (every ciphertext but a fresh symmetric encryption).
impl From<Vec<Poly>> for Parts {
    fn from(polys: Vec<Poly>) -> Self {
        Self { polys, seed: None }
    }
}

impl Deref for Parts {
    type Target = [Poly];
    fn deref(&self) -> &[Poly] {
        &self.polys
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use rnsfhe_math::ring::{Representation, RingContext};

    use super::*;

    fn polys() -> (Poly, Poly) {
        let ring = RingContext::new(16, &[97]).unwrap();
        let one = Poly::from_signed(&ring, &[1; 16]).unwrap();
        (one, Poly::zero(&ring, Representation::Coefficient))
    }

    /// Only c_0 can change with the seed kept; any other mutable access drops it.
    #[test]
    fn mutable_access_to_c1_drops_the_seed() {
        let (c0, c1) = polys();
        let mut p = Parts::seeded(c0, c1, [7; 32]);
        p.c0_mut().neg_assign();
        assert_eq!(p.seed(), Some(&[7; 32]));
        let copy = p.clone();
        assert_eq!(copy.seed(), Some(&[7; 32]));
        p.polys_mut();
        assert_eq!(p.seed(), None);
        assert_eq!(copy.seed(), Some(&[7; 32]));
        let (c0, c1) = polys();
        assert_eq!(Parts::from(vec![c0, c1]).seed(), None);
    }
}
