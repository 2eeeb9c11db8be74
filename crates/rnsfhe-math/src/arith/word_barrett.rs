//! Barrett's reduction of one word with one 32 x 32-bit product, for q of 34 to 62 bits (L = bit length):
//! est = floor(floor(v / 2^32) mu / 2^(L-1)) with mu = floor(2^(31+L) / q) < 2^32. For any v < 2^64,
//! floor(v / q) - est < 1 + (v mod 2^32) / q + floor(v / 2^32) (2^32 / q - mu / 2^(L-1))
//! < 1 + 2^(33-L) + 2^(33-L) <= 2, so est is at most 1 short and v - est q lies in [0, 2q); est < 2^31,
//! so est q takes two 32 x 32-bit products. The small-point Horner step of Shamir shares
//! ([`super::vector::horner`]) and the forward NTT's growth mode reduce with it; the SIMD kernels
//! (`avx2::barrett_word`, `vector::avx512::barrett_word`) compute the same estimate lane-wise.

use super::Modulus;

/// The constants of the one-product Barrett step for one modulus.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordBarrett {
    pub(crate) q: u64,
    pub(crate) mu: u64,
    /// L - 1.
    pub(crate) shift: u32,
}

impl WordBarrett {
    /// The constants for q, or `None` below 34 bits or for q = 2^(L-1) (where mu would be 2^32).
    pub(crate) fn new(q: &Modulus) -> Option<Self> {
        let (qv, l) = (q.value(), q.bits());
        if l < 34 {
            return None;
        }
        let mu = u64::try_from((1u128 << (31 + l)) / u128::from(qv)).ok()?;
        (mu < 1 << 32).then_some(WordBarrett {
            q: qv,
            mu,
            shift: l - 1,
        })
    }

    /// v mod q in [0, 2q) for any v < 2^64.
    #[inline(always)]
    pub(crate) fn reduce_lazy(&self, v: u64) -> u64 {
        v - (((v >> 32) * self.mu) >> self.shift) * self.q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against u128 arithmetic at the ends of the width range and of v.
    #[test]
    fn lazy_reduction_in_two_q() {
        for qv in [
            (1u64 << 33) + 1,
            (1 << 34) - 41,
            (1 << 55) + 1,
            (1 << 62) - 57,
        ] {
            let q = Modulus::new(qv).unwrap_or_else(|e| panic!("{e}"));
            let Some(b) = WordBarrett::new(&q) else {
                panic!("q = {qv}")
            };
            for v in [
                0,
                1,
                qv - 1,
                qv,
                2 * qv - 1,
                1 << 63,
                u64::MAX - qv,
                u64::MAX,
            ] {
                let r = b.reduce_lazy(v);
                assert!(r < 2 * qv && r % qv == v % qv, "q = {qv}, v = {v}: {r}");
            }
        }
        let m = |q: u64| Modulus::new(q).unwrap_or_else(|e| panic!("{e}"));
        assert!(WordBarrett::new(&m((1 << 33) - 9)).is_none(), "33 bits");
        assert!(WordBarrett::new(&m(1 << 40)).is_none(), "q = 2^(L-1)");
    }
}
