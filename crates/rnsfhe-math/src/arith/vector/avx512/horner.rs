//! The small-point Horner step of Shamir shares on 8 lanes and the one-product Barrett step
//! ([`WordBarrett`]) it and the AVX-512F NTT's growth mode reduce with.

use std::arch::x86_64::*;

use super::{load, reduce_once, store, tail_mask};
use crate::arith::vector::small_point::SmallPoint;
use crate::arith::{Backend, WordBarrett};

/// One small-point Horner step ([`SmallPoint`]) on the common prefix: acc = acc x + c
/// from [0, 2q) to [0, 2q), or to [0, q) when `last`; false without avx512f. The same kernel for both
/// AVX-512 backends (32 x 32-bit products only).
pub(in crate::arith::vector) fn horner_small(
    sp: &SmallPoint,
    acc: &mut [u64],
    row: &[u64],
    last: bool,
) -> bool {
    if !Backend::Avx512.is_supported() {
        return false;
    }
    let n = acc.len().min(row.len());
    // SAFETY: avx512f was detected; acc and row hold n elements each.
    unsafe {
        if last {
            horner_small_k::<true>(sp, acc.as_mut_ptr(), row.as_ptr(), n);
        } else {
            horner_small_k::<false>(sp, acc.as_mut_ptr(), row.as_ptr(), n);
        }
    }
    true
}

/// The small-point step on 8 lanes, as the AVX2 kernel (`avx2::horner_small_k`); the last step's
/// correction is an unsigned minimum. Safety: avx512f; lanes below n readable at c, writable at a.
#[target_feature(enable = "avx512f")]
unsafe fn horner_small_k<const LAST: bool>(sp: &SmallPoint, a: *mut u64, c: *const u64, n: usize) {
    // SAFETY: the caller's; masked-off lanes are not accessed.
    unsafe {
        let b = WordConsts::new(&sp.b);
        let x = _mm512_set1_epi64(sp.x as i64);
        let step = |i: usize, m: __mmask8| {
            let acc = load(a, i, m);
            let ax = _mm512_add_epi64(
                _mm512_mul_epu32(acc, x),
                _mm512_slli_epi64::<32>(_mm512_mul_epu32(_mm512_srli_epi64::<32>(acc), x)),
            );
            let r = barrett_word(_mm512_add_epi64(ax, load(c, i, m)), &b);
            store(a, i, m, if LAST { reduce_once(r, b.q) } else { r });
        };
        let mut i = 0;
        while i + 8 <= n {
            step(i, !0);
            i += 8;
        }
        if i < n {
            step(i, tail_mask(n - i));
        }
    }
}

/// A [`WordBarrett`]'s constants broadcast: q, its high half, mu and the shift L - 1.
#[derive(Clone, Copy)]
pub(crate) struct WordConsts {
    pub(crate) q: __m512i,
    q_hi: __m512i,
    mu: __m512i,
    shift: __m128i,
}

impl WordConsts {
    #[inline(always)]
    pub(crate) unsafe fn new(b: &WordBarrett) -> Self {
        // SAFETY: the caller runs with avx512f.
        unsafe {
            WordConsts {
                q: _mm512_set1_epi64(b.q as i64),
                q_hi: _mm512_set1_epi64((b.q >> 32) as i64),
                mu: _mm512_set1_epi64(b.mu as i64),
                shift: _mm_cvtsi64_si128(i64::from(b.shift)),
            }
        }
    }
}

/// [`WordBarrett::reduce_lazy`] lane-wise: v mod q in [0, 2q) for any v.
#[inline(always)]
pub(crate) unsafe fn barrett_word(v: __m512i, b: &WordConsts) -> __m512i {
    // SAFETY: the caller runs with avx512f.
    unsafe {
        let est = _mm512_srl_epi64(_mm512_mul_epu32(_mm512_srli_epi64::<32>(v), b.mu), b.shift);
        let est_q = _mm512_add_epi64(
            _mm512_mul_epu32(est, b.q),
            _mm512_slli_epi64::<32>(_mm512_mul_epu32(est, b.q_hi)),
        );
        _mm512_sub_epi64(v, est_q)
    }
}
