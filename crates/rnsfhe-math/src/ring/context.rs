//! [`RingContext`]: degree, RNS basis and NTT tables of one ring, built once and shared by `Arc`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::arith::Modulus;
use crate::ntt::NttTable;
use crate::rns::RnsBasis;
use crate::{Error, Result};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Which cyclotomic polynomial the ring reduces by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RingKind {
    /// Phi_m = X^n + 1 with m = 2n a power of two: negacyclic NTT, coefficient and NTT forms.
    PowerOfTwo,
}

/// The precomputation of one ring R_Q = Z_Q[X]/(Phi_m): the RNS basis of Q and one NTT table per
/// modulus. Contexts are compared by identity (a unique id), never by deep equality.
#[derive(Debug)]
pub struct RingContext {
    id: u64,
    kind: RingKind,
    m: usize,
    n: usize,
    basis: RnsBasis,
    ntt: Vec<Arc<NttTable>>,
}

impl RingContext {
    /// The power-of-two cyclotomic ring Z_Q[X]/(X^n + 1), Q = prod(moduli). Errors when n is not a power
    /// of two in 2..=2^17, when a modulus is not prime or not 1 mod 2n, or when moduli repeat.
    pub fn new(n: usize, moduli: &[u64]) -> Result<Arc<Self>> {
        let basis = RnsBasis::new(moduli)?;
        Self::with_basis(n, basis)
    }

    /// As [`RingContext::new`] with a basis already built.
    pub fn with_basis(n: usize, basis: RnsBasis) -> Result<Arc<Self>> {
        if !n.is_power_of_two() || n < 2 {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: "must be a power of two >= 2".into(),
            });
        }
        let ntt = basis
            .moduli()
            .iter()
            .map(|&q| NttTable::new(q, n).map(Arc::new))
            .collect::<Result<Vec<_>>>()?;
        Ok(Arc::new(RingContext {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind: RingKind::PowerOfTwo,
            m: 2 * n,
            n,
            basis,
            ntt,
        }))
    }

    /// Unique identity of this context.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The kind of cyclotomic.
    pub fn kind(&self) -> RingKind {
        self.kind
    }

    /// The cyclotomic index m (Phi_m); 2n for power-of-two rings.
    pub fn cyclotomic_index(&self) -> usize {
        self.m
    }

    /// The ring degree n = phi(m): coefficients per residue polynomial.
    pub fn degree(&self) -> usize {
        self.n
    }

    /// The RNS basis of Q.
    pub fn basis(&self) -> &RnsBasis {
        &self.basis
    }

    /// The moduli q_i.
    pub fn moduli(&self) -> &[Modulus] {
        self.basis.moduli()
    }

    /// The NTT table of each modulus.
    pub fn ntt_tables(&self) -> &[Arc<NttTable>] {
        &self.ntt
    }

    /// A new context over the moduli at positions `limbs` of this one (a level's prefix of a modulus
    /// chain, or the Q part of Q u P), sharing the NTT tables. Errors on an empty or out-of-range
    /// selection.
    pub fn select(&self, limbs: &[usize]) -> Result<Arc<Self>> {
        if limbs.is_empty() || limbs.iter().any(|&i| i >= self.ntt.len()) {
            return Err(Error::InvalidBasis(format!(
                "limb selection {limbs:?} is empty or beyond the {} moduli of this ring",
                self.ntt.len()
            )));
        }
        let moduli: Vec<u64> = limbs.iter().map(|&i| self.moduli()[i].value()).collect();
        Ok(Arc::new(RingContext {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind: self.kind,
            m: self.m,
            n: self.n,
            basis: RnsBasis::new(&moduli)?,
            ntt: limbs.iter().map(|&i| Arc::clone(&self.ntt[i])).collect(),
        }))
    }

    /// Ok when `other` is this very context.
    pub(crate) fn check_same(&self, other: &RingContext, op: &str) -> Result<()> {
        if self.id == other.id {
            Ok(())
        } else {
            Err(Error::ContextMismatch(format!(
                "{op}: operands belong to different rings (context ids {} and {}); build both from the same RingContext",
                self.id, other.id
            )))
        }
    }
}
