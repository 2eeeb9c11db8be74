//! The Montgomery factor M = X^(N/2) + 1 mod Phi_m and its inverse in Z[X]/(Phi_m) (Bajard et al. (SAC 2017),
//! Lemma 1 and Appendix B), exactly: ||M^-1||_inf enters the noise of the Montgomery pipeline
//! (section 4, bounds (10) and (12)-(13), and the depths of section 4.3).

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::context::primes;
use super::phi::{cyclotomic_polynomial, reduction_expansion, times_x_mod_phi};
use super::Reduction;
use crate::ring::{Form, Poly, Representation, RingContext};
use crate::{Error, Result};

/// X^k mod Phi_m (monic, degree n) as exact integers; errors when a coefficient overflows 127 bits.
pub fn x_power_mod_phi(phi: &[i64], k: usize) -> Result<Vec<i128>> {
    let n = phi.len().saturating_sub(1);
    if n == 0 || phi[n] != 1 {
        return Err(Error::InvalidParameters(
            "x_power_mod_phi needs a monic polynomial of degree >= 1".into(),
        ));
    }
    let overflow = || Error::InvalidParameters(format!("X^{k} mod Phi_m overflows 127 bits"));
    let mut row = vec![0i128; n];
    if k < n {
        row[k] = 1;
        return Ok(row);
    }
    row[n - 1] = 1;
    for _ in n..=k {
        times_x_mod_phi(&mut row, phi).ok_or_else(overflow)?;
    }
    Ok(row)
}

/// M = X^(N/2) + 1 mod Phi_m, N = N2(2 phi(m)), as exact integers (length n).
pub fn montgomery_factor(m: usize) -> Result<Vec<i128>> {
    let phi = cyclotomic_polynomial(m)?;
    let n = phi.len() - 1;
    let mut f = x_power_mod_phi(&phi, (2 * n).next_power_of_two() / 2)?;
    f[0] += 1;
    Ok(f)
}

/// M^-1 in Z\[X]/(Phi_m) (m not a power of two, Lemma 1), exactly. Its residues modulo k NTT primes
/// come from a Montgomery ring (the residues of 1 read in Montgomery form stand for M^-1), lifted
/// centred; the lift x is accepted once x M = 1 modulo k further primes whose product exceeds twice
/// rho ||x||_2 ||M||_2 + 1, a bound on the coefficients of x M - 1 in Z\[X]/(Phi_m) (rho:
/// [`reduction_expansion`]), so that x M - 1 = 0 exactly. k doubles from 2 up to 64.
pub fn montgomery_inverse(m: usize) -> Result<Vec<BigInt>> {
    let phi = cyclotomic_polynomial(m)?;
    let rho = reduction_expansion(&phi)?;
    let mut k = 2;
    while k <= 64 {
        let all = primes(m, 60, 2 * k)?;
        let (lift_primes, check_primes) = all.split_at(k);
        let ring = RingContext::cyclotomic(m, lift_primes, Reduction::Montgomery)?;
        let mut one = Poly::from_signed(&ring, &unit(phi.len() - 1))?;
        // 1 read in Montgomery form stands for M^-1; 1 converted to it holds M.
        let factor = lift(&ring, &one.to_montgomery()?)?;
        one.relabel_form(Form::Montgomery)?;
        let x = lift(&ring, &one.from_montgomery()?)?;
        // M's coefficients are those of X^(N/2) mod Phi_m plus 1, at most rho + 1 < Q / 2: exact.
        let m_coeffs = factor
            .iter()
            .map(|c| c.to_i64().filter(|v| v.unsigned_abs() as f64 <= rho + 1.0))
            .collect::<Option<Vec<i64>>>()
            .ok_or_else(|| Error::Internal("M mod Phi_m above its bound rho + 1".into()))?;
        let m_l2 = m_coeffs
            .iter()
            .map(|&c| (c as f64).powi(2))
            .sum::<f64>()
            .sqrt();
        let x_l2 = x
            .iter()
            .map(|c| c.to_f64().unwrap_or(f64::INFINITY).powi(2))
            .sum::<f64>()
            .sqrt();
        let bound = rho * x_l2 * m_l2 + 1.0;
        let check_log2: f64 = check_primes.iter().map(|&q| (q as f64).log2()).sum();
        if bound.is_finite()
            && bound.log2() + 2.0 < check_log2
            && times_is_one(m, check_primes, &x, &m_coeffs)?
        {
            return Ok(x);
        }
        k *= 2;
    }
    Err(Error::InvalidParameters(format!(
        "M^-1 mod Phi_{m} did not lift exactly from 64 primes of 60 bits"
    )))
}

/// ||M^-1||_inf (Bajard et al. (SAC 2017) Appendix B).
pub fn montgomery_inverse_norm(m: usize) -> Result<f64> {
    let x = montgomery_inverse(m)?;
    let max = x.iter().map(Signed::abs).max().unwrap_or_else(BigInt::zero);
    Ok(max.to_f64().unwrap_or(f64::INFINITY))
}

/// The largest row l1 and l2 norms of the matrix of w -> w M^-1 in Z\[X]/(Phi_m) (columns
/// X^j M^-1 mod Phi_m, in f64): ||w M^-1||_inf <= l1 ||w||_inf, and for w with independent
/// coefficients of standard deviation s each coefficient of w M^-1 has one of at most l2 s. The
/// noise factors of the full Montgomery FV (Bajard et al. (SAC 2017) Prop. 1). O(n^2).
pub fn montgomery_inverse_row_norms(m: usize) -> Result<(f64, f64)> {
    let phi = cyclotomic_polynomial(m)?;
    let n = phi.len() - 1;
    let mut col: Vec<f64> = montgomery_inverse(m)?
        .iter()
        .map(|c| c.to_f64().unwrap_or(f64::INFINITY))
        .collect();
    let (mut l1, mut l2) = (vec![0f64; n], vec![0f64; n]);
    for j in 0..n {
        if j > 0 {
            // X col mod Phi_m: shift up, subtract the top coefficient times Phi_m.
            let top = col[n - 1];
            for i in (1..n).rev() {
                col[i] = col[i - 1] - top * phi[i] as f64;
            }
            col[0] = -top * phi[0] as f64;
        }
        for ((a, b), &c) in l1.iter_mut().zip(l2.iter_mut()).zip(&col) {
            *a += c.abs();
            *b += c * c;
        }
    }
    let max = |v: &[f64]| v.iter().copied().fold(0f64, f64::max);
    Ok((max(&l1), max(&l2).sqrt()))
}

/// The centred lift of every coefficient of `p` (coefficient form) from its RNS basis.
fn lift(ring: &RingContext, p: &Poly) -> Result<Vec<BigInt>> {
    let n = ring.degree();
    let k = ring.moduli().len();
    let basis = ring.basis();
    (0..n)
        .map(|j| {
            let r: Vec<u64> = (0..k).map(|i| p.residues()[i * n + j]).collect();
            basis.compose_centered(&r)
        })
        .collect()
}

fn unit(n: usize) -> Vec<i64> {
    let mut v = vec![0i64; n];
    v[0] = 1;
    v
}

/// Whether x * M = 1 in Z_q[X]/(Phi_m) for every q of `moduli` (a Barrett ring: plain products).
fn times_is_one(m: usize, moduli: &[u64], x: &[BigInt], m_coeffs: &[i64]) -> Result<bool> {
    let ring = RingContext::cyclotomic(m, moduli, Reduction::Barrett)?;
    let n = ring.degree();
    let mut data = Vec::with_capacity(n * moduli.len());
    for &q in moduli {
        let qb = BigInt::from(q);
        for c in x {
            let r = ((c % &qb) + &qb) % &qb;
            data.push(r.to_u64().unwrap_or(0));
        }
    }
    let mut a = Poly::from_residues(&ring, data, Representation::Coefficient)?;
    let mut b = Poly::from_signed(&ring, m_coeffs)?;
    a.to_ntt()?;
    b.to_ntt()?;
    a.mul_assign(&b)?;
    a.to_coefficient()?;
    let one = Poly::from_signed(&ring, &unit(n))?;
    Ok(a.residues() == one.residues())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;

    /// M^-1 M = 1 checked independently with big integers (schoolbook product, long division by
    /// Phi_m) for small m; a wrong candidate (x + 1) fails the modular check.
    #[test]
    fn inverse_is_exact() {
        for m in [21usize, 45, 255] {
            let x = montgomery_inverse(m).unwrap();
            let f = montgomery_factor(m).unwrap();
            let phi = cyclotomic_polynomial(m).unwrap();
            let n = phi.len() - 1;
            let mut c = vec![BigInt::zero(); 2 * n - 1];
            for (i, a) in x.iter().enumerate() {
                for (j, &b) in f.iter().enumerate() {
                    c[i + j] += a * BigInt::from(b);
                }
            }
            for d in (n..c.len()).rev() {
                let top = c[d].clone();
                for (j, &p) in phi.iter().enumerate() {
                    c[d - n + j] -= &top * BigInt::from(p);
                }
            }
            assert_eq!(c[0], BigInt::from(1), "m = {m}");
            assert!(c[1..n].iter().all(Zero::is_zero), "m = {m}");
            let mut wrong = x.clone();
            wrong[0] += 1;
            let fi: Vec<i64> = f.iter().map(|&v| v as i64).collect();
            let moduli = primes(m, 60, 4).unwrap();
            assert!(times_is_one(m, &moduli, &x, &fi).unwrap());
            assert!(!times_is_one(m, &moduli, &wrong, &fi).unwrap());
        }
        assert!(montgomery_inverse(256).is_err());
    }

    /// The row norms of w -> w M^-1 against the matrix built another way: column j is
    /// sum_k x_k (X^(j+k) mod Phi_m), exactly in i128 (`x_power_mod_phi`).
    #[test]
    fn row_norms_match_the_matrix() {
        for m in [21usize, 45, 63] {
            let x: Vec<i128> = montgomery_inverse(m)
                .unwrap()
                .iter()
                .map(|c| c.to_i128().unwrap())
                .collect();
            let phi = cyclotomic_polynomial(m).unwrap();
            let n = phi.len() - 1;
            let mut cols = vec![vec![0i128; n]; n]; // cols[j][i]: row i, column j
            for (j, col) in cols.iter_mut().enumerate() {
                for (k, &xk) in x.iter().enumerate() {
                    for (c, r) in col.iter_mut().zip(x_power_mod_phi(&phi, j + k).unwrap()) {
                        *c += xk * r;
                    }
                }
            }
            let row = |i: usize, f: &dyn Fn(i128) -> f64| cols.iter().map(|c| f(c[i])).sum::<f64>();
            let l1 = (0..n)
                .map(|i| row(i, &|v| v.unsigned_abs() as f64))
                .fold(0f64, f64::max);
            let l2 = (0..n)
                .map(|i| row(i, &|v| (v as f64).powi(2)))
                .fold(0f64, f64::max)
                .sqrt();
            let (g1, g2) = montgomery_inverse_row_norms(m).unwrap();
            assert_eq!(g1, l1, "m = {m}: l1");
            assert!((g2 - l2).abs() <= 1e-9 * l2, "m = {m}: l2 {g2} vs {l2}");
            assert!(l1 >= 1.0);
        }
    }
}
