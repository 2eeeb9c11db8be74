//! Integer polynomials behind arithmetic modulo Phi_m (Bajard et al. (SAC 2017), section 2): the cyclotomic polynomial,
//! Euler's phi, the sparse multiples Q_sp = Phi_m' (X^(m/m')) and the Barrett quotient mu.

use crate::{Error, Result};

/// Prime factors of m, each once, increasing.
fn prime_factors(m: usize) -> Vec<usize> {
    crate::arith::roots::prime_factors(m as u64)
        .into_iter()
        .map(|p| p as usize)
        .collect()
}

/// Euler's phi(m).
pub fn euler_phi(m: usize) -> usize {
    prime_factors(m).iter().fold(m, |acc, &p| acc / p * (p - 1))
}

fn divisors(m: usize) -> Vec<usize> {
    (1..=m).filter(|d| m.is_multiple_of(*d)).collect()
}

/// Moebius mu(k) in {-1, 0, 1}.
fn moebius(k: usize) -> i32 {
    let ps = prime_factors(k);
    if ps.iter().product::<usize>() != k {
        0
    } else if ps.len().is_multiple_of(2) {
        1
    } else {
        -1
    }
}

/// The coefficients of Phi_m (constant first), from Phi_m = prod_{d | m} (X^d - 1)^mu(m/d): products by
/// the binomials first, then exact divisions by the others (each O(degree)). Errors for m = 0 or when a
/// coefficient would leave i64 (far beyond any m a ring can use).
pub fn cyclotomic_polynomial(m: usize) -> Result<Vec<i64>> {
    if m == 0 {
        return Err(Error::InvalidDegree {
            degree: 0,
            reason: "the cyclotomic index m must be >= 1".into(),
        });
    }
    let mut p: Vec<i128> = vec![1];
    let ds = divisors(m);
    for &d in ds.iter().filter(|&&d| moebius(m / d) == 1) {
        // p * (X^d - 1)
        let mut next = vec![0i128; p.len() + d];
        for (i, &c) in p.iter().enumerate() {
            next[i + d] += c;
            next[i] -= c;
        }
        p = next;
    }
    for &d in ds.iter().filter(|&&d| moebius(m / d) == -1) {
        // p / (X^d - 1): p_{i+d} = q_i - q_{i+d}, top down.
        let deg_q = p.len() - 1 - d;
        let mut q = vec![0i128; deg_q + 1];
        for i in (0..=deg_q).rev() {
            q[i] = p[i + d] + q.get(i + d).copied().unwrap_or(0);
        }
        p = q;
    }
    p.into_iter()
        .map(|c| {
            i64::try_from(c)
                .map_err(|_| Error::OutOfRange(format!("Phi_{m} has a coefficient beyond 64 bits")))
        })
        .collect()
}

/// A sparse multiple of Phi_m for the optimised Barrett reduction (Bajard et al. (SAC 2017), Alg. 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseMultiple {
    /// The divisor m' of m: Q_sp = Phi_m'(X^(m/m')).
    pub m_prime: usize,
    /// Degree of Q_sp.
    pub degree: usize,
    /// Non-zero coefficients below the (monic) leading one: (exponent, +-1).
    pub terms: Vec<(usize, i64)>,
}

impl SparseMultiple {
    /// Q_sp = Phi_m'(X^(m/m')) for a divisor m' of m whose Phi_m' has coefficients in {-1, 0, 1}; Phi_m
    /// divides it because a primitive m-th root to the power m/m' is a primitive m'-th root. This covers
    /// the paper's Phi_m'p Phi_m' = Phi_m'(X^p), applied once or twice.
    fn from_divisor(m: usize, m_prime: usize) -> Result<Option<Self>> {
        let phi = cyclotomic_polynomial(m_prime)?;
        if phi.iter().any(|c| c.abs() > 1) {
            return Ok(None);
        }
        let k = m / m_prime;
        let degree = (phi.len() - 1) * k;
        let terms = phi
            .iter()
            .enumerate()
            .take(phi.len() - 1)
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i * k, c))
            .collect();
        Ok(Some(SparseMultiple {
            m_prime,
            degree,
            terms,
        }))
    }

    /// Additions to reduce a polynomial of degree < `len` to degree < deg Q_sp.
    pub fn cost(&self, len: usize) -> usize {
        self.terms.len() * len.saturating_sub(self.degree)
    }
}

/// Rough cost of the NTT-based Barrett step for alpha (Alg. 1): two NTTs of size A = N2(2 alpha + 1)
/// and two of size N2(n), in butterflies; an addition counts one, a butterfly three.
pub(crate) fn barrett_cost(n: usize, alpha: usize) -> usize {
    let a = (2 * alpha + 1).next_power_of_two();
    let nt = n.next_power_of_two();
    3 * (a * a.trailing_zeros() as usize + nt * nt.trailing_zeros() as usize)
}

/// The sparse multiple that minimises (additions of the sparse step) + (Barrett cost for the remaining
/// alpha), for products of degree <= 2n - 2 folded modulo X^m - 1 (Alg. 2, steps 1–2). None when no
/// candidate beats plain Barrett.
pub fn best_sparse_multiple(m: usize) -> Result<Option<SparseMultiple>> {
    let n = euler_phi(m);
    let len = (2 * n - 1).min(m);
    let plain = barrett_cost(n, n.saturating_sub(2));
    let mut best: Option<(usize, SparseMultiple)> = None;
    for d in divisors(m) {
        let Some(sp) = SparseMultiple::from_divisor(m, d)? else {
            continue;
        };
        if sp.degree >= len {
            continue; // reduces nothing
        }
        let alpha = sp.degree.checked_sub(n + 1);
        let cost = sp.cost(len) + alpha.map_or(0, |a| barrett_cost(n, a));
        if cost < plain && best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((cost, sp));
        }
    }
    Ok(best.map(|(_, sp)| sp))
}

/// mu = floor(X^(n + alpha) / Phi) for a monic Phi of degree n, as alpha + 1 integers reduced by
/// `reduce` (constant first): the reversed power-series inverse of rev(Phi) modulo X^(alpha + 1), using
/// only Phi's non-zero coefficients (alpha * HW(Phi) operations).
pub(crate) fn barrett_quotient(phi: &[i64], alpha: usize, q: &crate::arith::Modulus) -> Vec<u64> {
    let n = phi.len() - 1;
    // rev(Phi)_j = phi_{n - j}; rev(Phi)_0 = 1.
    let rev: Vec<(usize, u64)> = (1..=n)
        .filter(|&j| phi[n - j] != 0)
        .map(|j| (j, q.reduce_i64(phi[n - j])))
        .collect();
    let mut g = vec![0u64; alpha + 1];
    g[0] = 1 % q.value();
    for k in 1..=alpha {
        let mut s = 0u64;
        for &(j, c) in rev.iter().take_while(|(j, _)| *j <= k) {
            s = q.add(s, q.mul(c, g[k - j]));
        }
        g[k] = q.neg(s);
    }
    g.reverse();
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cyclotomics() {
        assert_eq!(cyclotomic_polynomial(1).unwrap(), vec![-1, 1]);
        assert_eq!(cyclotomic_polynomial(2).unwrap(), vec![1, 1]);
        assert_eq!(cyclotomic_polynomial(8).unwrap(), vec![1, 0, 0, 0, 1]);
        assert_eq!(cyclotomic_polynomial(12).unwrap(), vec![1, 0, -1, 0, 1]);
        assert_eq!(
            cyclotomic_polynomial(15).unwrap(),
            vec![1, -1, 0, 1, -1, 1, 0, -1, 1]
        );
        // Phi_105 is the first with a coefficient -2.
        assert!(cyclotomic_polynomial(105).unwrap().contains(&-2));
        for m in [255usize, 771, 1285, 4369, 5461, 8191, 21845, 65535] {
            assert_eq!(
                cyclotomic_polynomial(m).unwrap().len() - 1,
                euler_phi(m),
                "m = {m}"
            );
        }
        assert_eq!(euler_phi(21845), 16384);
        assert!(cyclotomic_polynomial(0).is_err());
    }

    #[test]
    fn sparse_multiple_of_4369_is_phi17_of_x257() {
        let sp = best_sparse_multiple(4369).unwrap().unwrap();
        assert_eq!((sp.m_prime, sp.degree), (17, 4112));
        assert_eq!(sp.terms.len(), 16);
        // Every candidate is a multiple of Phi_m: check by exact division for a small m.
        let m = 255;
        let phi = cyclotomic_polynomial(m).unwrap();
        for d in divisors(m) {
            if let Some(sp) = SparseMultiple::from_divisor(m, d).unwrap() {
                let mut c = vec![0i64; sp.degree + 1];
                c[sp.degree] = 1;
                for &(e, v) in &sp.terms {
                    c[e] = v;
                }
                for i in (phi.len() - 1..=sp.degree).rev() {
                    let t = c[i];
                    for (j, &pj) in phi.iter().enumerate() {
                        c[i + 1 + j - phi.len()] -= t * pj;
                    }
                }
                assert!(c.iter().all(|&x| x == 0), "m' = {d}");
            }
        }
    }
}

/// The expansion of the reduction modulo Phi_m on products: the least rho with
/// row <- X row mod Phi_m (monic, degree n = row.len()): shift up, subtract the top coefficient
/// times Phi_m; None when a coefficient overflows 127 bits.
pub(super) fn times_x_mod_phi(row: &mut [i128], phi: &[i64]) -> Option<()> {
    let n = row.len();
    let top = row[n - 1];
    for j in (1..n).rev() {
        row[j] = row[j - 1].checked_sub(top.checked_mul(i128::from(phi[j]))?)?;
    }
    row[0] = top.checked_mul(-i128::from(phi[0]))?;
    Some(())
}

/// ||c mod Phi_m||_inf <= rho ||c||_inf for every c of degree <= 2n - 2, i.e. the largest column sum
/// max_j sum_k |(X^k mod Phi_m)_j| over k < 2n - 1 (exact, from the rows X^k mod Phi_m). With
/// ||a b||_inf <= ||a||_2 ||b||_2 before reduction it bounds products in R = Z\[X]/(Phi_m), as the
/// expansion factor delta_R of Bajard et al. (SAC 2017) Lemma 4 (delta_R <= n ||F_m||_inf) does. Power-of-two m: 2.
/// Errors when Phi_m is not monic of degree >= 1 or a row overflows 127 bits.
pub fn reduction_expansion(phi: &[i64]) -> Result<f64> {
    let n = phi.len().saturating_sub(1);
    if n == 0 || phi[n] != 1 {
        return Err(Error::InvalidParameters(
            "reduction_expansion needs a monic polynomial of degree >= 1".into(),
        ));
    }
    let overflow = || Error::InvalidParameters("X^k mod Phi_m overflows 127 bits".into());
    let mut col = vec![1f64; n]; // rows X^0..X^(n-1): one 1 per column
    let mut row = vec![0i128; n];
    row[n - 1] = 1; // X^(n-1)
    for _ in n..(2 * n - 1) {
        // X * row mod Phi_m: shift, then subtract top * Phi_m (monic).
        times_x_mod_phi(&mut row, phi).ok_or_else(overflow)?;
        for (c, &r) in col.iter_mut().zip(&row) {
            *c += r.unsigned_abs() as f64;
        }
    }
    Ok(col.into_iter().fold(0.0, f64::max))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod expansion_tests {
    use super::*;

    /// X^n + 1: every X^(n+k) = -X^k, so each column sums to 2 (k < n - 1) or 1 (the last).
    #[test]
    fn expansion_of_power_of_two_and_brute_force() {
        assert_eq!(
            reduction_expansion(&cyclotomic_polynomial(16).unwrap()).unwrap(),
            2.0
        );
        // Brute force for Phi_21 (n = 12): reduce each X^k by long division and sum the columns.
        let phi = cyclotomic_polynomial(21).unwrap();
        let n = phi.len() - 1;
        let mut col = vec![0i64; n];
        for k in 0..(2 * n - 1) {
            let mut c = vec![0i64; k + 1];
            c[k] = 1;
            for d in (n..=k).rev() {
                let top = c[d];
                for (j, &p) in phi.iter().enumerate() {
                    c[d - n + j] -= top * p;
                }
            }
            for j in 0..n.min(c.len()) {
                col[j] += c[j].abs();
            }
        }
        let want = *col.iter().max().unwrap() as f64;
        assert_eq!(reduction_expansion(&phi).unwrap(), want);
    }
}
