//! One modulus q < 2^62 with its Barrett constant floor(2^128 / q).
//!
//! Ranges: unless a name says `lazy`, inputs are in [0, q) and outputs in [0, q). Lazy forms state their
//! ranges. q < 2^62 keeps 4q below 2^64, which Harvey's lazy NTT butterflies need.

use crate::{Error, Result};

/// Largest supported modulus width: q < 2^62.
pub const MAX_MODULUS_BITS: u32 = 62;

/// A modulus 2 <= q < 2^62 with precomputed reduction constants. Primality is not required here
/// (plaintext moduli may be powers of two); algorithms that need a prime check it themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modulus {
    q: u64,
    bits: u32,
    /// floor(2^128 / q) as (low word, high word); the high word is floor(2^64 / q).
    ratio: (u64, u64),
}

/// A multiplicand w in [0, q) with its Shoup quotient floor(w * 2^64 / q), for fast products by a
/// constant (Harvey 2014; used for NTT twiddles and every precomputed RNS constant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shoup {
    /// The constant w, in [0, q).
    pub value: u64,
    /// floor(w * 2^64 / q).
    pub quotient: u64,
}

/// x - m when x >= m, else x (m > 0), branch-free: the minimum of x and x - m wrapped. The
/// compare-and-subtract form became data-dependent branches in some loops (about half mispredicted).
#[inline(always)]
fn sub_if_ge(x: u64, m: u64) -> u64 {
    x.min(x.wrapping_sub(m))
}

#[inline(always)]
fn mul_hi(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) >> 64) as u64
}

impl Modulus {
    /// Builds the constants for `q`; errors when q < 2 or q >= 2^62.
    pub fn new(q: u64) -> Result<Self> {
        if q < 2 || q >> MAX_MODULUS_BITS != 0 {
            return Err(Error::InvalidModulus {
                modulus: q,
                reason: format!("must satisfy 2 <= q < 2^{MAX_MODULUS_BITS}"),
            });
        }
        let ratio_hi = u64::MAX / q + u64::from(u64::MAX % q == q - 1);
        // floor(2^128 / q) = ratio_hi * 2^64 + floor((2^64 mod q) * 2^64 / q)
        let rem_hi = (((1u128 << 64) - u128::from(ratio_hi) * u128::from(q)) as u64) % q;
        let ratio_lo = ((u128::from(rem_hi) << 64) / u128::from(q)) as u64;
        Ok(Modulus {
            q,
            bits: 64 - q.leading_zeros(),
            ratio: (ratio_lo, ratio_hi),
        })
    }

    /// The modulus q.
    #[inline(always)]
    pub fn value(&self) -> u64 {
        self.q
    }

    /// Bit length of q.
    #[inline(always)]
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// floor(2^128 / q) as (low, high) words.
    #[inline(always)]
    pub fn barrett_ratio(&self) -> (u64, u64) {
        self.ratio
    }

    /// a + b mod q for a, b in [0, q).
    #[inline(always)]
    pub fn add(&self, a: u64, b: u64) -> u64 {
        sub_if_ge(a + b, self.q)
    }

    /// a - b mod q for a, b in [0, q).
    #[inline(always)]
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        // a < b wraps d to 2^64 - (b - a), above d + q mod 2^64 = q - (b - a); otherwise d < d + q.
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.q))
    }

    /// -a mod q for a in [0, q).
    #[inline(always)]
    pub fn neg(&self, a: u64) -> u64 {
        if a == 0 {
            0
        } else {
            self.q - a
        }
    }

    /// Barrett reduction of any u128 to [0, 2q) (lazy).
    #[inline(always)]
    pub fn reduce_u128_lazy(&self, x: u128) -> u64 {
        let (x0, x1) = (x as u64, (x >> 64) as u64);
        let (r0, r1) = self.ratio;
        // floor(x * ratio / 2^128) exactly; it is floor(x / q) or one less.
        let mid = u128::from(x0) * u128::from(r1) + u128::from(mul_hi(x0, r0));
        // A carry out of `mid` adds 2^128 to x*ratio, i.e. 2^64 to the estimate: invisible modulo 2^64,
        // and the result lies in [0, 2q) with 2q < 2^64, so everything below is computed modulo 2^64.
        let mid = mid.wrapping_add(u128::from(x1) * u128::from(r0));
        let est = x1.wrapping_mul(r1).wrapping_add((mid >> 64) as u64);
        x0.wrapping_sub(est.wrapping_mul(self.q))
    }

    /// Barrett reduction of any u128 to [0, q).
    #[inline(always)]
    pub fn reduce_u128(&self, x: u128) -> u64 {
        sub_if_ge(self.reduce_u128_lazy(x), self.q)
    }

    /// Reduction of any u64 to [0, q).
    #[inline(always)]
    pub fn reduce(&self, a: u64) -> u64 {
        sub_if_ge(
            a.wrapping_sub(mul_hi(a, self.ratio.1).wrapping_mul(self.q)),
            self.q,
        )
    }

    /// Reduction of a signed integer to [0, q).
    #[inline(always)]
    pub fn reduce_i64(&self, a: i64) -> u64 {
        let r = self.reduce(a.unsigned_abs());
        if a < 0 {
            self.neg(r)
        } else {
            r
        }
    }

    /// The centered representative of a in [0, q): in (-q/2, q/2].
    #[inline(always)]
    pub fn center(&self, a: u64) -> i64 {
        if a > self.q >> 1 {
            a as i64 - self.q as i64
        } else {
            a as i64
        }
    }

    /// a * b mod q, for a, b < 2^64 with a * b < 2^128 (always true), output in [0, q).
    #[inline(always)]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.reduce_u128(u128::from(a) * u128::from(b))
    }

    /// a * b + c mod q for a, b, c in [0, q).
    #[inline(always)]
    pub fn mul_add(&self, a: u64, b: u64, c: u64) -> u64 {
        self.reduce_u128(u128::from(a) * u128::from(b) + u128::from(c))
    }

    /// Precomputes the Shoup quotient of w; w must be in [0, q) (reduced here if not).
    #[inline]
    pub fn shoup(&self, w: u64) -> Shoup {
        let value = self.reduce(w);
        Shoup {
            value,
            quotient: ((u128::from(value) << 64) / u128::from(self.q)) as u64,
        }
    }

    /// a * w mod q in [0, 2q) for any a < 2^64 (Shoup's lazy product).
    #[inline(always)]
    pub fn mul_shoup_lazy(&self, a: u64, w: Shoup) -> u64 {
        let hi = mul_hi(a, w.quotient);
        a.wrapping_mul(w.value)
            .wrapping_sub(hi.wrapping_mul(self.q))
    }

    /// a * w mod q in [0, q) for any a < 2^64.
    #[inline(always)]
    pub fn mul_shoup(&self, a: u64, w: Shoup) -> u64 {
        sub_if_ge(self.mul_shoup_lazy(a, w), self.q)
    }

    /// a^e mod q for a in [0, q) (square and multiply; e is public).
    pub fn pow(&self, a: u64, mut e: u64) -> u64 {
        let mut base = self.reduce(a);
        let mut acc = self.reduce(1);
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }

    /// The inverse of a modulo q (extended Euclid; q need not be prime). Errors when gcd(a, q) != 1.
    pub fn inv(&self, a: u64) -> Result<u64> {
        let a = self.reduce(a);
        let (mut r0, mut r1) = (i128::from(self.q), i128::from(a));
        let (mut t0, mut t1) = (0i128, 1i128);
        while r1 != 0 {
            let quo = r0 / r1;
            (r0, r1) = (r1, r0 - quo * r1);
            (t0, t1) = (t1, t0 - quo * t1);
        }
        if r0 != 1 {
            return Err(Error::NotInvertible {
                value: a,
                modulus: self.q,
            });
        }
        Ok(t0.rem_euclid(i128::from(self.q)) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MODULI: [u64; 6] = [
        2,
        3,
        65537,
        1_152_921_504_606_748_673,
        (1 << 62) - 57,
        (1 << 61) - 1,
    ];

    #[test]
    fn rejects_out_of_range() {
        assert!(Modulus::new(0).is_err());
        assert!(Modulus::new(1).is_err());
        assert!(Modulus::new(1 << 62).is_err());
        assert!(Modulus::new(u64::MAX).is_err());
        assert!(Modulus::new((1 << 62) - 1).is_ok());
    }

    #[test]
    fn ratio_is_floor_2_128_over_q() {
        for &q in &MODULI {
            let m = Modulus::new(q).unwrap();
            let (lo, hi) = m.barrett_ratio();
            let want = num_bigint::BigUint::from(1u8) << 128u32;
            let want = want / q;
            let got = (num_bigint::BigUint::from(hi) << 64u32) + lo;
            assert_eq!(got, want, "q = {q}");
        }
    }

    #[test]
    fn edges() {
        for &q in &MODULI {
            let m = Modulus::new(q).unwrap();
            assert_eq!(m.mul(q - 1, q - 1), 1 % q);
            assert_eq!(m.reduce_u128(u128::MAX), (u128::MAX % u128::from(q)) as u64);
            assert_eq!(m.reduce(u64::MAX), u64::MAX % q);
            assert_eq!(
                m.add(q - 1, q - 1),
                (2 * (q as u128) - 2).rem_euclid(q as u128) as u64
            );
            assert_eq!(m.sub(0, q - 1), 1 % q);
            assert_eq!(m.neg(0), 0);
            assert_eq!(
                m.reduce_i64(i64::MIN),
                (i64::MIN as i128).rem_euclid(q as i128) as u64
            );
        }
    }

    #[test]
    fn inverse_and_pow() {
        let m = Modulus::new(65537).unwrap();
        assert_eq!(m.mul(m.inv(12345).unwrap(), 12345), 1);
        assert_eq!(m.pow(3, 65536), 1);
        let t = Modulus::new(1 << 16).unwrap();
        assert!(matches!(t.inv(4), Err(Error::NotInvertible { .. })));
        assert_eq!(t.mul(t.inv(3).unwrap(), 3), 1);
    }

    proptest! {
        #[test]
        fn barrett_matches_u128(qi in 0usize..6, x in any::<u128>(), a in any::<u64>(), b in any::<u64>()) {
            let q = MODULI[qi];
            let m = Modulus::new(q).unwrap();
            let lazy = m.reduce_u128_lazy(x);
            prop_assert!(lazy < 2 * q);
            prop_assert_eq!(m.reduce_u128(x) as u128, x % q as u128);
            let (a, b) = (a % q, b % q);
            prop_assert_eq!(m.mul(a, b) as u128, (a as u128 * b as u128) % q as u128);
            prop_assert_eq!(m.reduce_i64(a as i64 - b as i64) as i128, (a as i128 - b as i128).rem_euclid(q as i128));
        }

        #[test]
        fn shoup_matches(qi in 0usize..6, a in any::<u64>(), w in any::<u64>()) {
            let q = MODULI[qi];
            let m = Modulus::new(q).unwrap();
            let s = m.shoup(w);
            let lazy = m.mul_shoup_lazy(a, s);
            prop_assert!(lazy < 2 * q);
            prop_assert_eq!(m.mul_shoup(a, s) as u128, (a as u128 * (w % q) as u128) % q as u128);
        }

        #[test]
        fn add_sub_reduce_match_u128(qi in 0usize..6, a in any::<u64>(), b in any::<u64>()) {
            let q = MODULI[qi];
            let m = Modulus::new(q).unwrap();
            prop_assert_eq!(m.reduce(a), a % q);
            for (x, y) in [(a % q, b % q), (0, q - 1), (q - 1, 0), (q - 1, q - 1), (0, 0)] {
                prop_assert_eq!(m.add(x, y) as u128, (x as u128 + y as u128) % q as u128);
                prop_assert_eq!(m.sub(x, y) as i128, (x as i128 - y as i128).rem_euclid(q as i128));
            }
        }

        #[test]
        fn center_round_trips(qi in 0usize..6, a in any::<u64>()) {
            let m = Modulus::new(MODULI[qi]).unwrap();
            let a = a % m.value();
            let c = m.center(a);
            prop_assert!(2 * c.unsigned_abs() <= m.value());
            prop_assert_eq!(m.reduce_i64(c), a);
        }
    }
}
