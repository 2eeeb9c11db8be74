//! AVX2 building blocks shared by the NTT ([`crate::ntt`]) and the pointwise kernels ([`super::vector`]):
//! 4 lanes of u64, 64-bit products emulated from `vpmuludq` (32 x 32 -> 64 bits), Shoup's lazy product
//! (Harvey 2014) and the conditional subtraction. Every function needs avx2 (the callers' `target_feature`).

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

/// Broadcast constants of one modulus.
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    pub(crate) q: __m256i,
    pub(crate) q_hi: __m256i,
    pub(crate) two_q: __m256i,
    pub(crate) four_q: __m256i,
    /// q and 2q offset by 2^63 (for the `BIG` comparisons), and the offset.
    pub(crate) q_b: __m256i,
    pub(crate) two_q_b: __m256i,
    pub(crate) sign: __m256i,
}

impl Consts {
    #[inline(always)]
    pub(crate) unsafe fn new(q: u64) -> Self {
        // SAFETY: only called from the kernels, which run with avx2 enabled.
        unsafe {
            Consts {
                q: bcast(q),
                q_hi: bcast(q >> 32),
                two_q: bcast(2 * q),
                four_q: bcast(4 * q),
                q_b: bcast(q ^ 1 << 63),
                two_q_b: bcast((2 * q) ^ 1 << 63),
                sign: bcast(1 << 63),
            }
        }
    }
}

/// A broadcast twiddle: value, its high 32 bits, quotient, its high 32 bits.
pub(crate) type Tw = [__m256i; 4];

#[inline(always)]
pub(crate) unsafe fn bcast(x: u64) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe { _mm256_set1_epi64x(x as i64) }
}

#[inline(always)]
pub(crate) unsafe fn tw_of(w: u64, wq: u64) -> Tw {
    // SAFETY: the caller runs with avx2.
    unsafe { [bcast(w), bcast(w >> 32), bcast(wq), bcast(wq >> 32)] }
}

/// x - r if x >= r, else x (lane-wise, unsigned); r_b = r ^ 2^63. Without `BIG`, x < 2^63 and r <= 2^63.
#[inline(always)]
pub(crate) unsafe fn sub_if_ge<const BIG: bool>(
    x: __m256i,
    r: __m256i,
    r_b: __m256i,
    c: &Consts,
) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        if BIG {
            let lt = _mm256_cmpgt_epi64(r_b, _mm256_xor_si256(x, c.sign));
            _mm256_sub_epi64(x, _mm256_andnot_si256(lt, r))
        } else {
            // x - r is negative as a signed value exactly when x < r: keep x there.
            let d = _mm256_sub_epi64(x, r);
            _mm256_castpd_si256(_mm256_blendv_pd(
                _mm256_castsi256_pd(d),
                _mm256_castsi256_pd(x),
                _mm256_castsi256_pd(d),
            ))
        }
    }
}

/// `vpmuludq` as an opaque instruction: LLVM otherwise rebuilds the 32-bit products below into 64-bit
/// multiplies and lowers those again, with more products than written here.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn mul32(a: __m256i, b: __m256i) -> __m256i {
    let r: __m256i;
    // SAFETY: one register-only AVX2 instruction; the caller runs with avx2.
    unsafe {
        std::arch::asm!(
            "vpmuludq {r}, {a}, {b}",
            r = lateout(ymm_reg) r,
            a = in(ymm_reg) a,
            b = in(ymm_reg) b,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    r
}

/// The high 32 bits of each lane moved to its low half (the half `vpmuludq` reads); a shuffle, which runs
/// beside the shifts.
#[inline(always)]
pub(crate) unsafe fn hi32(x: __m256i) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe { _mm256_shuffle_epi32::<0b1011_0001>(x) }
}

/// y * w mod q in [0, 2q) for any y < 2^64 (Shoup, the quotient estimated from three 32-bit products).
#[inline(always)]
pub(crate) unsafe fn mul_lazy<const BIG: bool>(y: __m256i, w: &Tw, c: &Consts) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe { sub_if_ge::<BIG>(mul_lazy4(y, w, c), c.two_q, c.two_q_b, c) }
}

/// y * w mod q in [0, 4q) for any y < 2^64: [`mul_lazy`] without its correction.
#[inline(always)]
pub(crate) unsafe fn mul_lazy4(y: __m256i, w: &Tw, c: &Consts) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let [w_lo, w_hi, wq, wq_hi] = *w;
        let y_hi = hi32(y);
        // floor(y wq / 2^64) - e, e in {0, 1, 2}: y_lo wq_lo and the middle column's low halves dropped.
        let hh = mul32(y_hi, wq_hi);
        let lh = _mm256_srli_epi64::<32>(mul32(y, wq_hi));
        let hl = _mm256_srli_epi64::<32>(mul32(y_hi, wq));
        let qhat = _mm256_add_epi64(_mm256_add_epi64(hh, lh), hl);
        // y w - qhat q mod 2^64, from the low products and the middle columns shifted up; it lies
        // in [0, 4q).
        let qhat_hi = hi32(qhat);
        let low = _mm256_sub_epi64(mul32(y, w_lo), mul32(qhat, c.q));
        let mid = _mm256_sub_epi64(
            _mm256_add_epi64(mul32(y, w_hi), mul32(y_hi, w_lo)),
            _mm256_add_epi64(mul32(qhat, c.q_hi), mul32(qhat_hi, c.q)),
        );
        _mm256_add_epi64(low, _mm256_slli_epi64::<32>(mid))
    }
}

/// [`super::WordBarrett::reduce_lazy`] lane-wise: v mod q in [0, 2q) for any v, with mu and the shift
/// L - 1 of the modulus' `WordBarrett` (est < 2^31, so est q from two products).
#[inline(always)]
pub(crate) unsafe fn barrett_word(v: __m256i, mu: __m256i, shift: __m128i, c: &Consts) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let est = _mm256_srl_epi64(mul32(_mm256_srli_epi64::<32>(v), mu), shift);
        let est_q = _mm256_add_epi64(mul32(est, c.q), _mm256_slli_epi64::<32>(mul32(est, c.q_hi)));
        _mm256_sub_epi64(v, est_q)
    }
}

/// a * b mod 2^64 from three 32 x 32-bit products.
#[inline(always)]
pub(crate) unsafe fn mul_lo(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let cross = _mm256_add_epi64(mul32(a, hi32(b)), mul32(hi32(a), b));
        _mm256_add_epi64(mul32(a, b), _mm256_slli_epi64::<32>(cross))
    }
}

/// floor(a * b / 2^64) - e with e in {0, 1, 2}, from three 32 x 32-bit products (a_lo b_lo and the low
/// halves of the middle column dropped).
#[inline(always)]
pub(crate) unsafe fn mul_hi_approx(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let (a_hi, b_hi) = (hi32(a), hi32(b));
        let lh = _mm256_srli_epi64::<32>(mul32(a, b_hi));
        let hl = _mm256_srli_epi64::<32>(mul32(a_hi, b));
        _mm256_add_epi64(_mm256_add_epi64(mul32(a_hi, b_hi), lh), hl)
    }
}

/// The full product a * b as (low, high) 64-bit words, from four 32 x 32-bit products.
#[inline(always)]
pub(crate) unsafe fn mul_wide(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let (a_hi, b_hi) = (hi32(a), hi32(b));
        let m32 = bcast(u64::from(u32::MAX));
        let ll = mul32(a, b);
        // Each sum is at most (2^32 - 1)^2 + 2 (2^32 - 1) < 2^64: no carry is lost.
        let mid = _mm256_add_epi64(mul32(a, b_hi), _mm256_srli_epi64::<32>(ll));
        let mid2 = _mm256_add_epi64(mul32(a_hi, b), _mm256_and_si256(mid, m32));
        let hi = _mm256_add_epi64(
            _mm256_add_epi64(mul32(a_hi, b_hi), _mm256_srli_epi64::<32>(mid)),
            _mm256_srli_epi64::<32>(mid2),
        );
        let lo = _mm256_or_si256(_mm256_slli_epi64::<32>(mid2), _mm256_and_si256(ll, m32));
        (lo, hi)
    }
}

/// (hi, lo) + (ph, pl) as 128-bit lane values (the carry out of the low word from an unsigned compare).
#[inline(always)]
pub(crate) unsafe fn add128(
    lo: __m256i,
    hi: __m256i,
    pl: __m256i,
    ph: __m256i,
    c: &Consts,
) -> (__m256i, __m256i) {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let sum = _mm256_add_epi64(lo, pl);
        // The sum wrapped exactly when it is below the addend; the mask is -1 there.
        let carry = _mm256_cmpgt_epi64(_mm256_xor_si256(pl, c.sign), _mm256_xor_si256(sum, c.sign));
        (sum, _mm256_sub_epi64(_mm256_add_epi64(hi, ph), carry))
    }
}

/// x mod q in [0, q) for any x < 2^64, with ratio = floor(2^64 / q): the estimate
/// floor(x ratio / 2^64) - e (e <= 2 from the 3-product high half) is at most 3 short of floor(x / q), so
/// x - est q lies in [0, 4q) and two conditional subtractions finish.
#[inline(always)]
pub(crate) unsafe fn reduce64<const BIG: bool>(x: __m256i, ratio: __m256i, c: &Consts) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let r = _mm256_sub_epi64(x, mul_lo(mul_hi_approx(x, ratio), c.q));
        sub_if_ge::<BIG>(sub_if_ge::<BIG>(r, c.two_q, c.two_q_b, c), c.q, c.q_b, c)
    }
}

/// (hi 2^64 + lo) mod q in [0, q): (hi mod q) (2^64 mod q) + lo mod q, with r64 = 2^64 mod q as a Shoup
/// operand and ratio = floor(2^64 / q).
#[inline(always)]
pub(crate) unsafe fn reduce128<const BIG: bool>(
    lo: __m256i,
    hi: __m256i,
    ratio: __m256i,
    r64: &Tw,
    c: &Consts,
) -> __m256i {
    // SAFETY: the caller runs with avx2.
    unsafe {
        let h = mul_lazy::<BIG>(reduce64::<BIG>(hi, ratio, c), r64, c);
        let s = _mm256_add_epi64(
            sub_if_ge::<BIG>(h, c.q, c.q_b, c),
            reduce64::<BIG>(lo, ratio, c),
        );
        sub_if_ge::<BIG>(s, c.q, c.q_b, c)
    }
}
