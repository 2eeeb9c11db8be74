//! [`Levels`]: the rings of a modulus chain, built once per parameter set and shared.
//!
//! Level l has the ring over Q_l = q_0 ... q_l; key switching works over Q u P (special moduli P).
//! Every ring is a limb selection of Q u P's ring, so all levels share its NTT tables (NTT_N for
//! a general Phi_m, paper 001). As Lattigo's `rlwe.Parameters` (RingQ, RingP, RingQP, levels as
//! prefixes), this type holds only what is independent of the scheme: [`super::KeySwitcher`] adds
//! the digit tables and [`super::ModulusChain`] the modulus-switching constants of a plaintext
//! modulus t, both borrowing these rings.

use std::sync::Arc;

use rnsfhe_math::ring::{Reduction, RingContext};

use crate::{Error, Result};

/// The rings Q_0 ⊂ ... ⊂ Q_{k-1} = Q and Q u P of a modulus chain.
#[derive(Debug)]
pub struct Levels {
    /// rings[l] has the moduli q_0..q_l (a selection of `ring_qp`).
    rings: Vec<Arc<RingContext>>,
    ring_qp: Arc<RingContext>,
}

impl Levels {
    /// The levels of X^n + 1 with ciphertext moduli `q` and special moduli `special` (may be empty).
    pub fn new(n: usize, q: &[u64], special: &[u64]) -> Result<Arc<Self>> {
        Self::from_ring(RingContext::new(n, &concat(q, special))?, q.len())
    }

    /// The levels of `Z[X]/(Phi_m)` for any m (paper 001) with the given modular reduction.
    pub fn cyclotomic(
        m: usize,
        q: &[u64],
        special: &[u64],
        reduction: Reduction,
    ) -> Result<Arc<Self>> {
        Self::from_ring(
            RingContext::cyclotomic(m, &concat(q, special), reduction)?,
            q.len(),
        )
    }

    /// As [`Levels::new`] for power-of-two m (`m` = None, degree `n`) or [`Levels::cyclotomic`].
    pub fn of(
        n: usize,
        cyclotomic: Option<(usize, Reduction)>,
        q: &[u64],
        special: &[u64],
    ) -> Result<Arc<Self>> {
        match cyclotomic {
            Some((m, reduction)) => Self::cyclotomic(m, q, special, reduction),
            None => Self::new(n, q, special),
        }
    }

    /// The levels of `ring_qp`, whose first `k` moduli are Q (the rest are P).
    pub fn from_ring(ring_qp: Arc<RingContext>, k: usize) -> Result<Arc<Self>> {
        if k == 0 || k > ring_qp.moduli().len() {
            return Err(Error::InvalidParameters(format!(
                "a modulus chain needs 1..={} ciphertext moduli, got {k}",
                ring_qp.moduli().len()
            )));
        }
        let rings = (0..k)
            .map(|l| ring_qp.select(&(0..=l).collect::<Vec<_>>()))
            .collect::<rnsfhe_math::Result<Vec<_>>>()?;
        Ok(Arc::new(Levels { rings, ring_qp }))
    }

    /// The number of levels k (the top level is k - 1).
    pub fn count(&self) -> usize {
        self.rings.len()
    }

    /// The ring of level l (moduli q_0..q_l); `None` beyond the chain.
    pub fn ring_at(&self, level: usize) -> Option<&Arc<RingContext>> {
        self.rings.get(level)
    }

    /// The ring of every level, from level 0.
    pub fn rings(&self) -> &[Arc<RingContext>] {
        &self.rings
    }

    /// The ring of the full ciphertext modulus Q (the top level).
    pub fn ring_q(&self) -> &Arc<RingContext> {
        &self.rings[self.rings.len() - 1]
    }

    /// The ring of Q u P.
    pub fn ring_qp(&self) -> &Arc<RingContext> {
        &self.ring_qp
    }

    /// The level of a ring of this chain (by identity), if it is one.
    pub fn level_of(&self, ring: &Arc<RingContext>) -> Option<usize> {
        let l = ring.moduli().len().checked_sub(1)?;
        self.rings
            .get(l)
            .filter(|r| Arc::ptr_eq(r, ring))
            .map(|_| l)
    }
}

fn concat(q: &[u64], special: &[u64]) -> Vec<u64> {
    q.iter().chain(special).copied().collect()
}
