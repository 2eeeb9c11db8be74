//! AVX2 ChaCha20: 8 blocks at once, lane b of vector i holding word i of block `counter + b` (rotations
//! by 16 and 8 as byte shuffles, by 12 and 7 as shift pairs), then a transpose back to stream order.

use std::arch::x86_64::*;

use super::{blocks4, counters, rounds, LANES};

/// Blocks `counter .. counter + 8` of the keystream of `state` (counter words ignored) into `out[..64]`
/// as u64 words, stream order. Falls back to the scalar reference when the CPU lacks avx2.
pub(super) fn blocks8(state: &[u32; 16], counter: u64, out: &mut [u64]) {
    let out = &mut out[..64];
    if !is_x86_feature_detected!("avx2") {
        for (b, o) in out.chunks_exact_mut(8 * LANES).enumerate() {
            blocks4(state, counter.wrapping_add((LANES * b) as u64), o);
        }
        return;
    }
    // SAFETY: avx2 was detected just above; `out` is 64 writable u64 = 8 blocks.
    unsafe { blocks8_f(state, counter, out) }
}

/// Rotation of every 32-bit lane left by R (by 8 and 16 as byte shuffles rot8, rot16). Safety: avx2.
#[inline(always)]
unsafe fn rol<const R: i32, const L: i32>(x: __m256i, rot8: __m256i, rot16: __m256i) -> __m256i {
    // SAFETY: the caller runs with avx2; L = 32 - R.
    unsafe {
        match R {
            8 => _mm256_shuffle_epi8(x, rot8),
            16 => _mm256_shuffle_epi8(x, rot16),
            _ => _mm256_or_si256(_mm256_slli_epi32::<R>(x), _mm256_srli_epi32::<L>(x)),
        }
    }
}

/// The quarter round on four vectors of words (8 independent blocks). Safety: avx2.
#[inline(always)]
unsafe fn quarter(x: &mut [__m256i; 16], i: [usize; 4], rot8: __m256i, rot16: __m256i) {
    let [a, b, c, d] = i;
    // SAFETY: the caller runs with avx2; the intrinsics touch registers only.
    unsafe {
        x[a] = _mm256_add_epi32(x[a], x[b]);
        x[d] = rol::<16, 16>(_mm256_xor_si256(x[d], x[a]), rot8, rot16);
        x[c] = _mm256_add_epi32(x[c], x[d]);
        x[b] = rol::<12, 20>(_mm256_xor_si256(x[b], x[c]), rot8, rot16);
        x[a] = _mm256_add_epi32(x[a], x[b]);
        x[d] = rol::<8, 24>(_mm256_xor_si256(x[d], x[a]), rot8, rot16);
        x[c] = _mm256_add_epi32(x[c], x[d]);
        x[b] = rol::<7, 25>(_mm256_xor_si256(x[b], x[c]), rot8, rot16);
    }
}

#[target_feature(enable = "avx2")]
unsafe fn blocks8_f(state: &[u32; 16], counter: u64, out: &mut [u64]) {
    let (lo, hi) = counters::<8>(counter);
    // SAFETY: avx2 is enabled (caller); `lo` and `hi` are 8 readable u32 each; `out` holds 64 writable
    // u64 = 16 stores of 32 bytes at offsets 4k, k < 16.
    unsafe {
        // Byte shuffles rotating each 32-bit lane left by 8 and by 16.
        let rot8 = _mm256_setr_epi8(
            3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9,
            10, 15, 12, 13, 14,
        );
        let rot16 = _mm256_setr_epi8(
            2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11,
            8, 9, 14, 15, 12, 13,
        );
        let mut input = [_mm256_setzero_si256(); 16];
        for (v, &w) in input.iter_mut().zip(state) {
            *v = _mm256_set1_epi32(w as i32);
        }
        input[12] = _mm256_loadu_si256(lo.as_ptr().cast());
        input[13] = _mm256_loadu_si256(hi.as_ptr().cast());
        let mut x = input;
        rounds(|i| quarter(&mut x, i, rot8, rot16));
        for (v, i) in x.iter_mut().zip(input) {
            *v = _mm256_add_epi32(*v, i);
        }
        // As in the AVX-512 kernel: v[4g + j], 128-bit lane l, holds words 4g..4g+4 of block 4l + j.
        let mut t = [_mm256_setzero_si256(); 16];
        for i in 0..8 {
            t[2 * i] = _mm256_unpacklo_epi32(x[2 * i], x[2 * i + 1]);
            t[2 * i + 1] = _mm256_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
        }
        let mut v = [_mm256_setzero_si256(); 16];
        for g in 0..4 {
            let (a, b, c, d) = (t[4 * g], t[4 * g + 1], t[4 * g + 2], t[4 * g + 3]);
            v[4 * g] = _mm256_unpacklo_epi64(a, c);
            v[4 * g + 1] = _mm256_unpackhi_epi64(a, c);
            v[4 * g + 2] = _mm256_unpacklo_epi64(b, d);
            v[4 * g + 3] = _mm256_unpackhi_epi64(b, d);
        }
        // Block 4l + j: words 0..8 = lane l of v[j], v[4 + j]; words 8..16 = lane l of v[8 + j], v[12 + j].
        let p = out.as_mut_ptr();
        for j in 0..4 {
            let (a, b, c, d) = (v[j], v[4 + j], v[8 + j], v[12 + j]);
            let halves = [
                (
                    _mm256_permute2x128_si256::<0x20>(a, b),
                    _mm256_permute2x128_si256::<0x20>(c, d),
                ),
                (
                    _mm256_permute2x128_si256::<0x31>(a, b),
                    _mm256_permute2x128_si256::<0x31>(c, d),
                ),
            ];
            for (l, (w0, w8)) in halves.into_iter().enumerate() {
                let q = p.add(8 * (4 * l + j));
                _mm256_storeu_si256(q.cast(), w0);
                _mm256_storeu_si256(q.add(4).cast(), w8);
            }
        }
    }
}
