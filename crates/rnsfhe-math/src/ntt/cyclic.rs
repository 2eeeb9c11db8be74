//! The cyclic NTT of Z_q[X]/(X^N - 1), N a power of two (products modulo general cyclotomics, Bajard et al. (SAC 2017)).

use super::backend::Transform;
use super::{bit_reverse, check_len, check_params, Backend};
use crate::arith::{backend_for, minimal_primitive_root, Modulus, Shoup};
use crate::Result;

/// Tables of the cyclic NTT of size N modulo a prime q = 1 mod N. After [`CyclicNttTable::forward`],
/// `a[i] = A(omega^bitrev(i))` with omega the minimal primitive N-th root of unity.
///
/// Same kernels as the negacyclic transform: stage m, group i splits X^(2t) - c into X^t -+ sqrt(c), and
/// for X^N - 1 that square root is omega^bitrev_(log N - 1)(i).
#[derive(Clone, Debug)]
pub struct CyclicNttTable {
    q: Modulus,
    n: usize,
    omega: u64,
    /// Twiddles (same layout and kernels as the negacyclic ones), N^-1, and the kernel.
    tr: Transform,
}

impl CyclicNttTable {
    /// Builds the tables with the fastest backend for q (as [`super::NttTable::new`]); errors when N is not a
    /// power of two in 2..=2^17, q is not prime, or q != 1 mod N.
    pub fn new(q: Modulus, n: usize) -> Result<Self> {
        let backend = backend_for(&q);
        Self::with_backend(q, n, backend)
    }

    /// Builds the tables for a given kernel; errors as [`CyclicNttTable::new`], and with `InvalidParameters`
    /// when the CPU or q does not support `backend`.
    pub fn with_backend(q: Modulus, n: usize, backend: Backend) -> Result<Self> {
        check_params(&q, n, n as u64)?;
        let omega = minimal_primitive_root(&q, n as u64)?;
        Self::build(q, n, omega, backend)
    }

    /// The tables for a given primitive N-th root omega (e.g. the square of a size-2N transform's root,
    /// Bajard et al. (SAC 2017) Alg. 3–4); fastest backend. Errors as [`CyclicNttTable::new`], and when
    /// omega^(N/2) != -1.
    pub fn with_root(q: Modulus, n: usize, omega: u64) -> Result<Self> {
        check_params(&q, n, n as u64)?;
        if omega >= q.value() || q.pow(omega, n as u64 / 2) != q.value() - 1 {
            return Err(crate::Error::InvalidParameters(format!(
                "{omega} is not a primitive {n}-th root of unity modulo {}",
                q.value()
            )));
        }
        let backend = backend_for(&q);
        Self::build(q, n, omega, backend)
    }

    fn build(q: Modulus, n: usize, omega: u64, backend: Backend) -> Result<Self> {
        let omega_inv = q.inv(omega)?;
        let log_half = n.trailing_zeros() - 1;
        let mut roots = vec![Shoup::default(); n];
        let mut inv_roots = vec![Shoup::default(); n];
        let mut m = 1;
        while m < n {
            for i in 0..m {
                let e = bit_reverse(i, log_half) as u64;
                roots[m + i] = q.shoup(q.pow(omega, e));
                inv_roots[m + i] = q.shoup(q.pow(omega_inv, e));
            }
            m <<= 1;
        }
        let n_inv = q.shoup(q.inv(n as u64)?);
        Ok(CyclicNttTable {
            q,
            n,
            omega,
            tr: Transform::new(q, roots, inv_roots, n_inv, backend)?,
        })
    }

    /// The kernel in use.
    pub fn backend(&self) -> Backend {
        self.tr.backend()
    }

    /// The transform size N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The modulus q.
    pub fn modulus(&self) -> &Modulus {
        &self.q
    }

    /// The primitive N-th root of unity omega used.
    pub fn omega(&self) -> u64 {
        self.omega
    }

    /// Forward transform in place: input in [0, q), output in [0, q). Errors when `a.len() != N`.
    pub fn forward(&self, a: &mut [u64]) -> Result<()> {
        check_len(a, self.n)?;
        self.tr.forward(a);
        Ok(())
    }

    /// Inverse transform in place, 1/N included: input in [0, 2q), output in [0, q).
    pub fn inverse(&self, a: &mut [u64]) -> Result<()> {
        check_len(a, self.n)?;
        self.tr.inverse(a);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::ntt_primes;

    #[test]
    fn matches_naive_and_cyclic_convolution() {
        for log_n in 1..=7 {
            let n = 1usize << log_n;
            for bits in [20u32, 45, 62] {
                let q = Modulus::new(ntt_primes(bits, n as u64, 1, &[]).unwrap()[0]).unwrap();
                for t in [
                    CyclicNttTable::new(q, n).unwrap(),
                    CyclicNttTable::with_backend(q, n, Backend::Scalar).unwrap(),
                ] {
                    let a: Vec<u64> = (0..n as u64)
                        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(3) % q.value())
                        .collect();
                    let b: Vec<u64> = (0..n as u64)
                        .map(|i| i.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(11) % q.value())
                        .collect();
                    let mut fa = a.clone();
                    t.forward(&mut fa).unwrap();
                    for (i, &v) in fa.iter().enumerate() {
                        let x = q.pow(t.omega(), bit_reverse(i, log_n) as u64);
                        assert_eq!(v, a.iter().rev().fold(0, |acc, &c| q.add(q.mul(acc, x), c)));
                    }
                    let mut fb = b.clone();
                    t.forward(&mut fb).unwrap();
                    let mut c: Vec<u64> = fa.iter().zip(&fb).map(|(&x, &y)| q.mul(x, y)).collect();
                    t.inverse(&mut c).unwrap();
                    let mut want = vec![0u64; n];
                    for i in 0..n {
                        for j in 0..n {
                            want[(i + j) % n] = q.add(want[(i + j) % n], q.mul(a[i], b[j]));
                        }
                    }
                    assert_eq!(c, want, "n = {n}, {bits} bits");
                }
            }
        }
    }

    #[test]
    fn bad_parameters() {
        let q = Modulus::new(65537).unwrap();
        assert!(CyclicNttTable::new(q, 1 << 17).is_err());
        assert!(CyclicNttTable::new(q, 6).is_err());
        let t = CyclicNttTable::new(q, 1 << 16).unwrap();
        assert!(t.forward(&mut [0; 4]).is_err());
    }
}
