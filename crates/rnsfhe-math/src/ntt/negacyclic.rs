//! The negacyclic NTT of Z_q[X]/(X^n + 1).

use super::{bit_reverse, check_len, check_params, scalar};
use crate::arith::{minimal_primitive_root, Modulus, Shoup};
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
    /// psi^bitrev(j) at index j, with Shoup quotients.
    roots: Vec<Shoup>,
    /// psi^-bitrev(j) at index j: the inverse twiddle of the same butterfly group.
    inv_roots: Vec<Shoup>,
    /// n^-1 mod q.
    n_inv: Shoup,
}

impl NttTable {
    /// Builds the tables; errors when n is not a power of two in 2..=2^17, q is not prime, or
    /// q != 1 mod 2n.
    pub fn new(q: Modulus, n: usize) -> Result<Self> {
        check_params(&q, n, 2 * n as u64)?;
        let psi = minimal_primitive_root(&q, 2 * n as u64)?;
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
            roots,
            inv_roots,
            n_inv,
        })
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
        self.forward_lazy_unchecked(a);
        let q = self.q.value();
        a.iter_mut().for_each(|x| *x = scalar::correct_4q(*x, q));
        Ok(())
    }

    /// Inverse transform in place, 1/n included: input in [0, 2q) (any value below 2q), output in [0, q).
    /// Errors when `a.len() != n`.
    pub fn inverse(&self, a: &mut [u64]) -> Result<()> {
        check_len(a, self.n)?;
        scalar::inverse_lazy(a, &self.inv_roots, &self.q);
        a.iter_mut()
            .for_each(|x| *x = self.q.mul_shoup(*x, self.n_inv));
        Ok(())
    }

    /// Forward transform, output in [0, 4q); the caller guarantees `a.len() == n`.
    pub fn forward_lazy_unchecked(&self, a: &mut [u64]) {
        scalar::forward_lazy(a, &self.roots, &self.q);
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
                let t = NttTable::new(q, n).unwrap();
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
