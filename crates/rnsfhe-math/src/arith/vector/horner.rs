//! Horner's rule over vectors of residues: `out[i] = sum_k rows[k][i] x^k mod q`, the evaluation of a
//! Shamir polynomial at a party's public point (Mouchet, Bertrand and Hubaux 2022, sec. 4: the
//! thresholdizer's share f_i(x_j)).
//!
//! Two steps `acc = acc x + c`: Shoup's product by the constant x (any x), and for the small points of
//! Shamir shares a cheaper one ([`SmallPoint`]): with (2q - 1) x + q - 1 < 2^64 the value v = acc x + c
//! fits one word, and its quotient by q comes from one 32 x 32-bit product ([`WordBarrett`]). The scalar backend runs
//! Shoup's step (the reference); the SIMD backends run the small step where it applies. Outputs are
//! reduced, so every backend gives the same bits.

use super::{avx512_kind, check, run_shoup_add, shoup_backend, Backend, Modulus};
use crate::arith::WordBarrett;
use crate::Result;

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

/// `out[i] = sum_k rows[k][i] x^k mod q` (rows\[0] the constant term), block by block: every row is
/// read once and the accumulator stays in the first-level cache. No rows give zeros; x is taken
/// mod q. With the fastest available backend (the small-point step where it applies).
///
/// Preconditions (checked by `debug_assert!` only): every row at least `out.len()` long, inputs in
/// [0, q). Output in [0, q).
pub fn horner(q: &Modulus, rows: &[&[u64]], x: u64, out: &mut [u64]) {
    debug_assert!(rows.iter().all(|r| r.len() >= out.len()));
    horner_on(shoup_backend(q), q, rows, x, out);
}

/// [`horner`] with an explicit backend (tests, benchmarks). Errors with `InvalidParameters` when the
/// backend is not available for q on this CPU and `LengthMismatch` when a row's length is not
/// `out.len()`; inputs must be in [0, q) (`debug_assert!`). Output in [0, q).
pub fn horner_with(
    backend: Backend,
    q: &Modulus,
    rows: &[&[u64]],
    x: u64,
    out: &mut [u64],
) -> Result<()> {
    check(backend, q, out.len(), rows)?;
    horner_on(backend, q, rows, x, out);
    Ok(())
}

fn horner_on(backend: Backend, q: &Modulus, rows: &[&[u64]], x: u64, out: &mut [u64]) {
    /// 8 KiB of accumulator: in L1 beside the rows' blocks on their way through.
    const BLOCK: usize = 1024;
    let Some((top, rest)) = rows.split_last() else {
        out.iter_mut().for_each(|x| *x = 0);
        return;
    };
    let x = q.reduce(x);
    let small = SmallPoint::new(q, x).filter(|_| backend != Backend::Scalar);
    let w = q.shoup(x);
    for (bi, acc) in out.chunks_mut(BLOCK).enumerate() {
        let range = bi * BLOCK..bi * BLOCK + acc.len();
        acc.copy_from_slice(&top[range.clone()]);
        for (k, row) in rest.iter().rev().enumerate() {
            let row = &row[range.clone()];
            match &small {
                Some(sp) => run_small(backend, sp, acc, row, k + 1 == rest.len()),
                None => run_shoup_add(backend, q, acc, None, w, Some(row)),
            }
        }
    }
}

/// One small-point step over acc and row on `backend` (the scalar loop for the others).
fn run_small(backend: Backend, sp: &SmallPoint, acc: &mut [u64], row: &[u64], last: bool) {
    #[cfg(target_arch = "x86_64")]
    if avx512_kind(backend).is_some() {
        if super::avx512::horner_small(sp, acc, row, last) {
            return;
        }
    } else if backend == Backend::Avx2 && super::avx2::horner_small(sp, acc, row, last) {
        return;
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (backend, avx512_kind);
    for (a, &c) in acc.iter_mut().zip(row) {
        *a = sp.step(*a, c, last);
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
