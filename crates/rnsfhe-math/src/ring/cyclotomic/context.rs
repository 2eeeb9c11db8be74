//! [`GeneralTables`]: what a [`crate::ring::RingContext`] of kind `Cyclotomic` holds beyond the RNS
//! basis — Phi_m, the size N = N2(2n) of the product NTTs, the reduction and its per-modulus tables.

use std::sync::Arc;

use super::phi::{best_sparse_multiple, cyclotomic_polynomial, euler_phi, SparseMultiple};
use super::reduce::ModulusTables;
use crate::arith::{ntt_primes, Modulus};
use crate::{Error, Result};

/// How products are reduced modulo Phi_m (Bajard et al. (SAC 2017), section 3). All give bit-identical results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// NTT-based Barrett reduction with alpha = n - 2 (Alg. 1).
    Barrett,
    /// Folding modulo X^m - 1, reduction by a sparse multiple Q_sp of Phi_m, then Alg. 1 (Alg. 2). Falls
    /// back to plain Barrett when no sparse multiple helps.
    SparseBarrett,
    /// NTT-based Montgomery reduction with Psi = X^(N/2) + 1 (Algs. 3–4): a product of a M and b M
    /// reduces to a b M, M = Psi mod Phi_m; enter with `Poly::to_montgomery`, leave with
    /// `Poly::from_montgomery`.
    Montgomery,
}

/// Whether a polynomial holds a or a M mod Phi_m (Montgomery rings; every other ring is `Plain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The polynomial itself.
    Plain,
    /// a * M mod Phi_m (Montgomery representation, Bajard et al. (SAC 2017) section 4).
    Montgomery,
}

/// `count` primes of `bits` bits with q = 1 mod lcm(N, m).
pub(crate) fn primes(m: usize, bits: u32, count: usize) -> Result<Vec<u64>> {
    check_index(m)?;
    let big_n = (2 * euler_phi(m)).next_power_of_two();
    let lcm = num_integer::lcm(big_n, m) as u64;
    ntt_primes(bits, lcm, count, &[]).map_err(|e| {
        Error::NotEnoughPrimes(format!("for Phi_{m} (N = {big_n}, q = 1 mod {lcm}): {e}"))
    })
}

fn check_index(m: usize) -> Result<()> {
    if m < 3 {
        return Err(Error::InvalidDegree {
            degree: m,
            reason: "the cyclotomic index must be >= 3".into(),
        });
    }
    Ok(())
}

/// The general-m part of a ring: shared by `select` (per-modulus tables behind `Arc`).
#[derive(Debug)]
pub(crate) struct GeneralTables {
    big_n: usize,
    sparse: Option<SparseMultiple>,
    tables: Vec<Arc<ModulusTables>>,
}

impl GeneralTables {
    /// Phi_m and the tables for `moduli`; errors as `RingContext::cyclotomic`.
    pub(crate) fn new(
        m: usize,
        moduli: &[Modulus],
        reduction: Reduction,
    ) -> Result<(Vec<i64>, Self)> {
        check_index(m)?;
        let phi = cyclotomic_polynomial(m)?;
        let n = phi.len() - 1;
        let big_n = (2 * n).next_power_of_two();
        if reduction == Reduction::Montgomery && m.is_power_of_two() {
            return Err(Error::InvalidParameters(format!(
                "Montgomery reduction needs Phi_m invertible modulo X^(N/2) + 1, which fails for m = {m} a power of two (Bajard et al. (SAC 2017), Lemma 1); use Barrett"
            )));
        }
        let sparse = if reduction == Reduction::SparseBarrett {
            best_sparse_multiple(m)?
        } else {
            None
        };
        let tables = moduli
            .iter()
            .map(|&q| {
                ModulusTables::new(q, m, &phi, big_n, reduction, sparse.as_ref()).map(Arc::new)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((
            phi,
            GeneralTables {
                big_n,
                sparse,
                tables,
            },
        ))
    }

    /// The tables of the moduli at positions `limbs` (checked by the caller).
    pub(crate) fn select(&self, limbs: &[usize]) -> Self {
        GeneralTables {
            big_n: self.big_n,
            sparse: self.sparse.clone(),
            tables: limbs.iter().map(|&i| Arc::clone(&self.tables[i])).collect(),
        }
    }

    pub(crate) fn big_n(&self) -> usize {
        self.big_n
    }

    pub(crate) fn sparse(&self) -> Option<&SparseMultiple> {
        self.sparse.as_ref()
    }

    pub(crate) fn tables(&self) -> &[Arc<ModulusTables>] {
        &self.tables
    }
}
