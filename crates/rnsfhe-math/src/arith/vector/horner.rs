//! Horner's rule over vectors of residues: `out[i] = sum_k rows[k][i] x^k mod q`, the evaluation of a
//! Shamir polynomial at a party's public point (Mouchet, Bertrand and Hubaux 2022, sec. 4: the
//! thresholdizer's share f_i(x_j)).
//!
//! Two steps `acc = acc x + c`: Shoup's product by the constant x (any x), and for the small points of
//! Shamir shares a cheaper one ([`SmallPoint`]): with (2q - 1) x + q - 1 < 2^64 the value v = acc x + c
//! fits one word, and its quotient by q comes from one 32 x 32-bit product (`arith::WordBarrett`). The scalar backend runs
//! Shoup's step (the reference); the SIMD backends run the small step where it applies. Outputs are
//! reduced, so every backend gives the same bits.

use super::small_point::SmallPoint;
use super::{avx512_kind, check, run_shoup_add, shoup_backend, Backend, Modulus};
use crate::Result;

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
