//! The small-point step of Horner's rule for Shamir shares (`horner`): acc = acc x + c with one
//! 32 x 32-bit product ([`WordBarrett`]) where x is small enough that acc x + c fits one word. The
//! scalar step here is the tails' and the reference of the AVX2 and AVX-512 kernels.

use super::Modulus;
use crate::arith::WordBarrett;

/// The small-point step's constants: a point x < 2^32 with (2q - 1) x + q - 1 < 2^64 and q of at
/// least 34 bits. acc in [0, 2q) (lazy), c in [0, q): v = acc x + c < 2^64, and the one-product Barrett
/// step ([`WordBarrett`]) takes it to [0, 2q), the next accumulator, without a correction. The last
/// step subtracts q once where needed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SmallPoint {
    pub(crate) x: u64,
    pub(crate) b: WordBarrett,
}

impl SmallPoint {
    /// The constants for x (reduced mod q), or `None` when q or x is out of the step's range.
    pub(crate) fn new(q: &Modulus, x: u64) -> Option<Self> {
        let qv = u128::from(q.value());
        // (2q - 1) x + q - 1 < 2^64: v = acc x + c fits one word.
        if x >= 1 << 32 || (2 * qv - 1) * u128::from(x) + qv > 1 << 64 {
            return None;
        }
        Some(SmallPoint {
            x,
            b: WordBarrett::new(q)?,
        })
    }

    /// One step on one value (the SIMD kernels' tails): acc in [0, 2q) to [0, 2q), or to [0, q)
    /// when `last`.
    #[inline(always)]
    pub(crate) fn step(&self, acc: u64, c: u64, last: bool) -> u64 {
        let r = self.b.reduce_lazy(acc * self.x + c);
        if last && r >= self.b.q {
            r - self.b.q
        } else {
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The range checks: fewer than 34 bits, x too large for one word, a power-of-two q.
    #[test]
    fn small_point_range() {
        let m = |q: u64| Modulus::new(q).unwrap_or_else(|e| panic!("{e}"));
        let q55 = m((1 << 55) - (1 << 20) + 1);
        assert!(SmallPoint::new(&q55, 1).is_some());
        assert!(SmallPoint::new(&q55, 255).is_some());
        assert!(SmallPoint::new(&q55, 256).is_none(), "(2q - 1) 256 >= 2^64");
        assert!(SmallPoint::new(&m((1 << 33) - 9), 3).is_none(), "L = 33");
        assert!(SmallPoint::new(&m((1 << 61) - 1), 3).is_some(), "L = 61");
        assert!(
            SmallPoint::new(&m((1 << 62) - 57), 1).is_some(),
            "L = 62, x = 1"
        );
        assert!(
            SmallPoint::new(&m((1 << 62) - 57), 2).is_none(),
            "L = 62, x = 2"
        );
        assert!(SmallPoint::new(&m(1 << 40), 3).is_none(), "q = 2^(L-1)");
        assert!(
            SmallPoint::new(&m((1 << 34) + 1), 1 << 32).is_none(),
            "x >= 2^32"
        );
    }

    /// The step against u128 arithmetic at the extremes of its range.
    #[test]
    fn small_step_exact() {
        for (qv, x) in [
            ((1u64 << 34) + 1, 1u64 << 28),
            ((1 << 55) + 1, 255),
            ((1 << 61) - 1, 3),
            ((1 << 62) - 57, 1),
        ] {
            let q = Modulus::new(qv).unwrap_or_else(|e| panic!("{e}"));
            let Some(sp) = SmallPoint::new(&q, x) else {
                panic!("q = {qv}, x = {x} in range")
            };
            for acc in [0, 1, qv - 1, qv, 2 * qv - 1] {
                for c in [0, 1, qv - 1] {
                    let want = (u128::from(acc) * u128::from(x) + u128::from(c)) % u128::from(qv);
                    let r = sp.step(acc, c, false);
                    assert!(r < 2 * qv && u128::from(r) % u128::from(qv) == want);
                    assert_eq!(u128::from(sp.step(acc, c, true)), want);
                }
            }
        }
    }
}
