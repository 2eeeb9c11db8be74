//! [`Levels`]: the rings of a modulus chain, built once per parameter set and shared.
//!
//! Level l has the ring over Q_l = q_0 ... q_l; key switching works over Q u P (special moduli P).
//! Every ring is a limb selection of Q u P's ring, so all levels share its NTT tables (NTT_N for
//! a general Phi_m, Bajard et al. (SAC 2017)). As Lattigo's `rlwe.Parameters` (RingQ, RingP, RingQP, levels as
//! prefixes), this type holds only what is independent of the scheme: [`super::KeySwitcher`] adds
//! the digit tables and [`super::ModulusChain`] the modulus-switching constants of a plaintext
//! modulus t, both borrowing these rings.
//!
//! Rings are shared by parameters, not by context object: [`Levels::new`] and
//! [`Levels::cyclotomic`] return the live levels of equal arguments when there are some (a
//! process-wide weak map from the ring's description to its levels). Two contexts built from equal
//! parameters therefore hold the same `Arc<RingContext>`s, so that a ciphertext or key of one is a
//! value of the other: the ring-level checks (`Arc::ptr_eq`, the math crate's context ids) stay
//! internal invariants, and equal parameter sets cost their tables once. Decision (rather than
//! re-homing polynomials at every operation): one lookup at context creation, no copies, and the
//! memory of the tables saved; a ring dies with its last context, key or ciphertext.

use std::sync::{Arc, Mutex, Weak};

use rnsfhe_math::ring::{Reduction, RingContext};

use crate::{Error, Result};

/// What defines the rings of a chain: the degree (or m and the reduction of a general Phi_m), Q and P.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Description {
    n: usize,
    cyclotomic: Option<(usize, Reduction)>,
    q: Vec<u64>,
    special: Vec<u64>,
}

/// The live levels of every description (weak: entries die with their last user).
static LIVE: Mutex<Vec<(Description, Weak<Levels>)>> = Mutex::new(Vec::new());

/// The rings Q_0 ⊂ ... ⊂ Q_{k-1} = Q and Q u P of a modulus chain.
#[derive(Debug)]
pub struct Levels {
    /// rings[l] has the moduli q_0..q_l (a selection of `ring_qp`).
    rings: Vec<Arc<RingContext>>,
    /// rings_qp[l] has the moduli q_0..q_l and then P: where hoisted key switching accumulates
    /// (the top one is `ring_qp` itself).
    rings_qp: Vec<Arc<RingContext>>,
    ring_qp: Arc<RingContext>,
    /// Other limb selections of `ring_qp` made once and shared ([`Levels::selection`]).
    selections: Mutex<Vec<(Vec<usize>, Arc<RingContext>)>>,
}

impl Levels {
    /// The levels of X^n + 1 with ciphertext moduli `q` and special moduli `special` (may be empty);
    /// the live ones of equal arguments if there are some.
    pub fn new(n: usize, q: &[u64], special: &[u64]) -> Result<Arc<Self>> {
        Self::shared(Description {
            n,
            cyclotomic: None,
            q: q.to_vec(),
            special: special.to_vec(),
        })
    }

    /// The levels of `Z[X]/(Phi_m)` for any m (Bajard et al. (SAC 2017)) with the given modular reduction; the live
    /// ones of equal arguments if there are some.
    pub fn cyclotomic(
        m: usize,
        q: &[u64],
        special: &[u64],
        reduction: Reduction,
    ) -> Result<Arc<Self>> {
        Self::shared(Description {
            n: 0,
            cyclotomic: Some((m, reduction)),
            q: q.to_vec(),
            special: special.to_vec(),
        })
    }

    /// The live levels of `d`, or new ones (built outside the lock: two threads may build the same
    /// levels at once, and the first registered wins).
    fn shared(d: Description) -> Result<Arc<Self>> {
        if let Some(l) = Self::live(&d) {
            return Ok(l);
        }
        let all = concat(&d.q, &d.special);
        let ring = match d.cyclotomic {
            Some((m, reduction)) => RingContext::cyclotomic(m, &all, reduction)?,
            None => RingContext::new(d.n, &all)?,
        };
        let built = Self::from_ring(ring, d.q.len())?;
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        live.retain(|(_, w)| w.strong_count() > 0);
        if let Some(l) = live
            .iter()
            .find(|(x, _)| *x == d)
            .and_then(|(_, w)| w.upgrade())
        {
            return Ok(l);
        }
        live.push((d, Arc::downgrade(&built)));
        Ok(built)
    }

    fn live(d: &Description) -> Option<Arc<Self>> {
        let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        live.iter()
            .find(|(x, _)| x == d)
            .and_then(|(_, w)| w.upgrade())
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

    /// The levels of `ring_qp`, whose first `k` moduli are Q (the rest are P): new levels over the
    /// caller's ring, not shared with other users of equal moduli (as [`Levels::new`] does).
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
        let all = ring_qp.moduli().len();
        let rings_qp = (0..k)
            .map(|l| {
                if l + 1 == k {
                    return Ok(Arc::clone(&ring_qp));
                }
                ring_qp.select(&(0..=l).chain(k..all).collect::<Vec<_>>())
            })
            .collect::<rnsfhe_math::Result<Vec<_>>>()?;
        Ok(Arc::new(Levels {
            rings,
            rings_qp,
            ring_qp,
            selections: Mutex::new(Vec::new()),
        }))
    }

    /// The ring of the limbs `limbs` of Q u P (in that order), made once per set of limbs and shared
    /// by every user of these levels (key components without their zero limbs).
    pub fn selection(&self, limbs: &[usize]) -> Result<Arc<RingContext>> {
        let mut made = self.selections.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, r)) = made.iter().find(|(l, _)| l == limbs) {
            return Ok(Arc::clone(r));
        }
        let r = self.ring_qp.select(limbs)?;
        made.push((limbs.to_vec(), Arc::clone(&r)));
        Ok(r)
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

    /// The ring of Q_l u P (moduli q_0..q_l, then P; Q u P itself at the top level), where hoisted
    /// key switching keeps its sums; `None` beyond the chain.
    pub fn ring_qp_at(&self, level: usize) -> Option<&Arc<RingContext>> {
        self.rings_qp.get(level)
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
