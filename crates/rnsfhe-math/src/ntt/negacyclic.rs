//! The negacyclic NTT of Z_q[X]/(X^n + 1).

use super::backend::Transform;
use super::{bit_reverse, check_len, check_params, Backend};
use crate::arith::{backend_for, minimal_primitive_root, Modulus, Shoup};
use crate::Result;

/// Tables of the negacyclic NTT of size n modulo a prime q = 1 mod 2n.
///
/// Order convention (the ring layer's automorphisms rely on it): after [`NttTable::forward`],
/// `a[i] = A(psi^(2 bitrev(i) + 1))`, where psi is the minimal primitive 2n-th root of unity and bitrev
/// reverses log2(n) bits.
#[derive(Clone, Debug)]
pub struct NttTable {
    q: Modulus,
    n: usize,
    psi: u64,
    /// Twiddles psi^bitrev(j) and psi^-bitrev(j) at index j (the inverse twiddle of the same butterfly
    /// group), n^-1, and the kernel.
    tr: Transform,
}

impl NttTable {
    /// Builds the tables with [`backend_for`]`(q)` (the fastest backend this CPU runs for q within the
    /// `RNSFHE_BACKEND` ceiling: AVX-512 IFMA for q < 2^50, AVX-512F, AVX2, scalar); errors when n is
    /// not a power of two in 2..=2^17, q is not prime, or q != 1 mod 2n.
    pub fn new(q: Modulus, n: usize) -> Result<Self> {
        let backend = backend_for(&q);
        Self::with_backend(q, n, backend)
    }

    /// Builds the tables for a given kernel; errors as [`NttTable::new`] does, and with
    /// `InvalidParameters` when the CPU or q does not support `backend`. Sizes n < 16 always run the
    /// scalar kernels.
    pub fn with_backend(q: Modulus, n: usize, backend: Backend) -> Result<Self> {
        check_params(&q, n, 2 * n as u64)?;
        let psi = minimal_primitive_root(&q, 2 * n as u64)?;
        Self::build(q, n, psi, backend)
    }

    /// The tables for a given primitive 2n-th root psi (e.g. the odd half of a cyclic NTT of size 2n,
    /// Bajard et al. (SAC 2017) Alg. 3); fastest backend. Errors as [`NttTable::new`], and when psi^n != -1.
    pub fn with_root(q: Modulus, n: usize, psi: u64) -> Result<Self> {
        check_params(&q, n, 2 * n as u64)?;
        if psi >= q.value() || q.pow(psi, n as u64) != q.value() - 1 {
            return Err(crate::Error::InvalidParameters(format!(
                "{psi} is not a primitive {}-th root of unity modulo {}",
                2 * n,
                q.value()
            )));
        }
        let backend = backend_for(&q);
        Self::build(q, n, psi, backend)
    }

    fn build(q: Modulus, n: usize, psi: u64, backend: Backend) -> Result<Self> {
        let psi_inv = q.inv(psi)?;
        let log_n = n.trailing_zeros();
        let mut roots = vec![Shoup::default(); n];
        let mut inv_roots = vec![Shoup::default(); n];
        let (mut p, mut pi) = (1u64, 1u64);
        let mut pows = vec![0u64; n];
        let mut inv_pows = vec![0u64; n];
        for j in 0..n {
            pows[j] = p;
            inv_pows[j] = pi;
            p = q.mul(p, psi);
            pi = q.mul(pi, psi_inv);
        }
        for j in 0..n {
            roots[j] = q.shoup(pows[bit_reverse(j, log_n)]);
        }
        // Gentleman–Sande undoes stage m of Cooley–Tukey with the inverse of the same twiddle.
        for j in 1..n {
            inv_roots[j] = q.shoup(inv_pows[bit_reverse(j, log_n)]);
        }
        let n_inv = q.shoup(q.inv(n as u64)?);
        Ok(NttTable {
            q,
            n,
            psi,
            tr: Transform::new(q, roots, inv_roots, n_inv, backend)?,
        })
    }

    /// The kernel in use.
    pub fn backend(&self) -> Backend {
        self.tr.backend()
    }

    /// The transform size n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The modulus q.
    pub fn modulus(&self) -> &Modulus {
        &self.q
    }

    /// The primitive 2n-th root of unity psi used.
    pub fn psi(&self) -> u64 {
        self.psi
    }

    /// Forward transform in place: input in [0, q) (any value < 4q is accepted), output in [0, q).
    /// Errors when `a.len() != n`.
    pub fn forward(&self, a: &mut [u64]) -> Result<()> {
        check_len(a, self.n)?;
        self.tr.forward(a);
        Ok(())
    }

    /// Inverse transform in place, 1/n included: input in [0, 2q) (any value below 2q), output in [0, q).
    /// Errors when `a.len() != n`.
    pub fn inverse(&self, a: &mut [u64]) -> Result<()> {
        check_len(a, self.n)?;
        self.tr.inverse(a);
        Ok(())
    }

    /// Forward transform, input in [0, 4q), output in [0, 4q) (congruent to [`NttTable::forward`]'s; the
    /// representative may differ between backends); the caller guarantees `a.len() == n`.
    pub fn forward_lazy_unchecked(&self, a: &mut [u64]) {
        self.tr.forward_lazy(a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::ntt_primes;
    use crate::Error;

    /// a[i] = A(psi^(2 bitrev(i) + 1)) by direct evaluation.
    fn naive(a: &[u64], t: &NttTable) -> Vec<u64> {
        let (q, n) = (t.modulus(), t.n());
        let log_n = n.trailing_zeros();
        (0..n)
            .map(|i| {
                let x = q.pow(t.psi(), (2 * bit_reverse(i, log_n) + 1) as u64);
                a.iter().rev().fold(0, |acc, &c| q.add(q.mul(acc, x), c))
            })
            .collect()
    }

    #[test]
    fn matches_naive_evaluation_and_round_trips() {
        for log_n in 1..=8 {
            let n = 1usize << log_n;
            for bits in [30u32, 50, 60, 61, 62] {
                let q = Modulus::new(ntt_primes(bits, 2 * n as u64, 1, &[]).unwrap()[0]).unwrap();
                // The default backend and the scalar reference kernels.
                for t in [
                    NttTable::new(q, n).unwrap(),
                    NttTable::with_backend(q, n, Backend::Scalar).unwrap(),
                ] {
                    let a: Vec<u64> = (0..n as u64)
                        .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i << 7) % q.value())
                        .collect();
                    let mut b = a.clone();
                    t.forward(&mut b).unwrap();
                    assert_eq!(b, naive(&a, &t), "n = {n}, {bits} bits");
                    t.inverse(&mut b).unwrap();
                    assert_eq!(a, b);
                    let mut edge = vec![q.value() - 1; n];
                    t.forward(&mut edge).unwrap();
                    t.inverse(&mut edge).unwrap();
                    assert!(edge.iter().all(|&x| x == q.value() - 1));
                    // Lazy forward: residues equal to the reduced transform's.
                    let mut lazy = a.clone();
                    t.forward_lazy_unchecked(&mut lazy);
                    let mut full = a.clone();
                    t.forward(&mut full).unwrap();
                    assert!(lazy
                        .iter()
                        .zip(&full)
                        .all(|(&l, &f)| l < 4 * q.value() && l % q.value() == f));
                }
            }
        }
    }

    #[test]
    fn round_trips_at_large_sizes() {
        for log_n in [12u32, 15, 17] {
            let n = 1usize << log_n;
            let q = Modulus::new(ntt_primes(61, 2 * n as u64, 1, &[]).unwrap()[0]).unwrap();
            let t = NttTable::new(q, n).unwrap();
            let a: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % q.value())
                .collect();
            let mut b = a.clone();
            t.forward(&mut b).unwrap();
            t.inverse(&mut b).unwrap();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn bad_parameters() {
        let q = Modulus::new(65537).unwrap();
        assert!(matches!(
            NttTable::new(q, 3),
            Err(Error::InvalidDegree { .. })
        ));
        assert!(matches!(
            NttTable::new(q, 1 << 18),
            Err(Error::InvalidDegree { .. })
        ));
        assert!(matches!(
            NttTable::new(q, 1 << 16),
            Err(Error::InvalidModulus { .. })
        ));
        assert!(matches!(
            NttTable::new(Modulus::new(65535).unwrap(), 2),
            Err(Error::InvalidModulus { .. })
        ));
        let t = NttTable::new(q, 16).unwrap();
        assert!(matches!(
            t.forward(&mut [0; 15]),
            Err(Error::LengthMismatch { .. })
        ));
        assert!(matches!(
            t.inverse(&mut [0; 17]),
            Err(Error::LengthMismatch { .. })
        ));
    }
}
