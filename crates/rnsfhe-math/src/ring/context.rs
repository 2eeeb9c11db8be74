//! [`RingContext`]: degree, RNS basis and NTT tables of one ring, built once and shared by `Arc`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::cyclotomic::{GeneralTables, Reduction, SparseMultiple};
use super::Representation;
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
    /// Any Phi_m (Bajard et al. (SAC 2017)): cyclic NTTs of size N = N2(2n) and, after the inverse, a reduction modulo
    /// Phi_m by the given method (built by [`RingContext::cyclotomic`]).
    Cyclotomic {
        /// How products are reduced modulo Phi_m.
        reduction: Reduction,
    },
}

/// The precomputation of one ring R_Q = Z_Q\[X]/(Phi_m): the RNS basis of Q and one NTT table per
/// modulus. Contexts are compared by identity (a unique id), never by deep equality.
#[derive(Debug)]
pub struct RingContext {
    id: u64,
    kind: RingKind,
    m: usize,
    n: usize,
    basis: RnsBasis,
    ntt: Vec<Arc<NttTable>>,
    /// Phi_m's coefficients, constant first.
    phi: Arc<Vec<i64>>,
    /// The general-m tables (kind `Cyclotomic` only).
    general: Option<GeneralTables>,
}

impl RingContext {
    /// The power-of-two cyclotomic ring Z_Q\[X]/(X^n + 1), Q = prod(moduli). Errors when n is not a power
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
        let mut phi = vec![0i64; n + 1];
        phi[0] = 1;
        phi[n] = 1;
        Ok(Arc::new(RingContext {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind: RingKind::PowerOfTwo,
            m: 2 * n,
            n,
            basis,
            ntt,
            phi: Arc::new(phi),
            general: None,
        }))
    }

    /// The ring Z_Q\[X]/(Phi_m) for any m >= 3 (Bajard et al. (SAC 2017)), over primes q_i = 1 mod N, N = N2(2 phi(m))
    /// (see [`RingContext::cyclotomic_primes`]), reducing products by `reduction`. For m a power of two
    /// this builds the general (cyclic-NTT) ring, not the negacyclic one of [`RingContext::new`]; the
    /// Montgomery reduction is refused there (Bajard et al. (SAC 2017), Lemma 1). Errors on m < 3, N > 2^17, a modulus
    /// not prime or not 1 mod N, or repeated moduli.
    pub fn cyclotomic(m: usize, moduli: &[u64], reduction: Reduction) -> Result<Arc<Self>> {
        let basis = RnsBasis::new(moduli)?;
        let (phi, general) = GeneralTables::new(m, basis.moduli(), reduction)?;
        Ok(Arc::new(RingContext {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind: RingKind::Cyclotomic { reduction },
            m,
            n: phi.len() - 1,
            basis,
            ntt: Vec::new(),
            phi: Arc::new(phi),
            general: Some(general),
        }))
    }

    /// `count` primes of `bits` bits with q = 1 mod lcm(N, m), N = N2(2 phi(m)): the size-N NTTs and the
    /// m-th roots (automorphisms, slots) both exist. Errors when m < 3 or too few such primes exist.
    pub fn cyclotomic_primes(m: usize, bits: u32, count: usize) -> Result<Vec<u64>> {
        super::cyclotomic::primes(m, bits, count)
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

    /// The negacyclic NTT table of each modulus; empty for a general-m ring (kind `Cyclotomic`), whose
    /// transforms are cyclic of size [`RingContext::ntt_size`] and reached through [`super::Poly`].
    pub fn ntt_tables(&self) -> &[Arc<NttTable>] {
        &self.ntt
    }

    /// Limb i (modulus q_i) into the NTT form, in place: `buf` holds `limb_len(Ntt)` words with the n
    /// coefficients first. Power-of-two: the negacyclic NTT; general m: NTT_N of the coefficients
    /// (the tail of `buf` is overwritten). The per-limb step of [`super::Poly::to_ntt`], for loops
    /// that work limb by limb (key switching, modulus switching).
    pub fn forward_limb(&self, i: usize, buf: &mut [u64]) -> Result<()> {
        self.check_limb(i, buf.len())?;
        match &self.general {
            Some(g) => g.tables()[i].forward_in_place(buf),
            None => self.ntt[i].forward(buf),
        }
    }

    /// Limb i out of the NTT form, in place: the n coefficients land in `buf[..n]` (`buf` holds
    /// `limb_len(Ntt)` words). General m: `product` says the values are those of an unreduced sum of
    /// products (deg <= 2n - 2), reduced modulo Phi_m once here (Bajard et al. (SAC 2017) section 3; a Montgomery ring
    /// gives c M^-1); power-of-two rings ignore it. The per-limb step of [`super::Poly::to_coefficient`].
    pub fn inverse_limb(&self, i: usize, buf: &mut [u64], product: bool) -> Result<()> {
        self.check_limb(i, buf.len())?;
        match &self.general {
            Some(g) => {
                let mut out = crate::pool::zeroed(self.n);
                let r = g.tables()[i].reduce_limb(buf, product, &mut out);
                buf[..self.n].copy_from_slice(&out);
                crate::pool::recycle(out);
                r
            }
            None => self.ntt[i].inverse(buf),
        }
    }

    fn check_limb(&self, i: usize, len: usize) -> Result<()> {
        if i >= self.moduli().len() {
            return Err(Error::OutOfRange(format!(
                "limb {i} of a ring with {} moduli",
                self.moduli().len()
            )));
        }
        if len != self.ntt_size() {
            return Err(Error::LengthMismatch {
                what: "NTT-form limb",
                expected: self.ntt_size(),
                got: len,
            });
        }
        Ok(())
    }

    /// Phi_m's integer coefficients, constant first (n + 1 of them).
    pub fn phi(&self) -> &[i64] {
        &self.phi
    }

    /// The reduction modulo Phi_m of a general-m ring; None for power-of-two rings.
    pub fn reduction(&self) -> Option<Reduction> {
        match self.kind {
            RingKind::Cyclotomic { reduction } => Some(reduction),
            RingKind::PowerOfTwo => None,
        }
    }

    /// Words per limb of the NTT form: n for power-of-two rings, N = N2(2n) for general m.
    pub fn ntt_size(&self) -> usize {
        self.general.as_ref().map_or(self.n, GeneralTables::big_n)
    }

    /// Words per limb of a polynomial in `form`.
    pub fn limb_len(&self, form: Representation) -> usize {
        match form {
            Representation::Coefficient => self.n,
            Representation::Ntt => self.ntt_size(),
        }
    }

    /// The sparse multiple Q_sp of Phi_m used by [`Reduction::SparseBarrett`], when one helps.
    pub fn sparse_multiple(&self) -> Option<&SparseMultiple> {
        self.general.as_ref().and_then(GeneralTables::sparse)
    }

    /// The general-m tables (kind `Cyclotomic`).
    pub(crate) fn general(&self) -> Option<&GeneralTables> {
        self.general.as_ref()
    }

    /// A new context over the moduli at positions `limbs` of this one (a level's prefix of a modulus
    /// chain, or the Q part of Q u P), sharing the NTT tables. Errors on an empty or out-of-range
    /// selection.
    pub fn select(&self, limbs: &[usize]) -> Result<Arc<Self>> {
        let k = self.moduli().len();
        if limbs.is_empty() || limbs.iter().any(|&i| i >= k) {
            return Err(Error::InvalidBasis(format!(
                "limb selection {limbs:?} is empty or beyond the {k} moduli of this ring"
            )));
        }
        let moduli: Vec<u64> = limbs.iter().map(|&i| self.moduli()[i].value()).collect();
        Ok(Arc::new(RingContext {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind: self.kind,
            m: self.m,
            n: self.n,
            basis: RnsBasis::new(&moduli)?,
            ntt: if self.ntt.is_empty() {
                Vec::new()
            } else {
                limbs.iter().map(|&i| Arc::clone(&self.ntt[i])).collect()
            },
            phi: Arc::clone(&self.phi),
            general: self.general.as_ref().map(|g| g.select(limbs)),
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
