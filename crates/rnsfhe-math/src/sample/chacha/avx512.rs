//! AVX-512F ChaCha20: 16 blocks at once, lane b of vector i holding word i of block `counter + b`
//! (`vprold` rotates), then a 16 x 16 transpose of 32-bit words back to stream order; and the rejection
//! step of seed expansion, 8 draws per `vpcompressq`.

use std::arch::x86_64::*;

use super::{blocks4, counters, rounds, LANES};

/// Blocks `counter .. counter + 16` of the keystream of `state` (counter words ignored) into `out` as
/// u64 words, stream order. Falls back to the scalar reference when the CPU lacks avx512f.
pub(super) fn blocks16(state: &[u32; 16], counter: u64, out: &mut [u64; 128]) {
    if !is_x86_feature_detected!("avx512f") {
        for (b, o) in out.chunks_exact_mut(8 * LANES).enumerate() {
            blocks4(state, counter.wrapping_add((LANES * b) as u64), o);
        }
        return;
    }
    // SAFETY: avx512f was detected just above; `out` is 128 writable u64 = 16 blocks.
    unsafe { blocks16_f(state, counter, out) }
}

/// The quarter round on four vectors of words (16 independent blocks). Safety: avx512f.
#[inline(always)]
unsafe fn quarter(x: &mut [__m512i; 16], [a, b, c, d]: [usize; 4]) {
    // SAFETY: the caller runs with avx512f; the intrinsics touch registers only.
    unsafe {
        x[a] = _mm512_add_epi32(x[a], x[b]);
        x[d] = _mm512_rol_epi32::<16>(_mm512_xor_si512(x[d], x[a]));
        x[c] = _mm512_add_epi32(x[c], x[d]);
        x[b] = _mm512_rol_epi32::<12>(_mm512_xor_si512(x[b], x[c]));
        x[a] = _mm512_add_epi32(x[a], x[b]);
        x[d] = _mm512_rol_epi32::<8>(_mm512_xor_si512(x[d], x[a]));
        x[c] = _mm512_add_epi32(x[c], x[d]);
        x[b] = _mm512_rol_epi32::<7>(_mm512_xor_si512(x[b], x[c]));
    }
}

#[target_feature(enable = "avx512f")]
unsafe fn blocks16_f(state: &[u32; 16], counter: u64, out: &mut [u64; 128]) {
    let (lo, hi) = counters::<16>(counter);
    // SAFETY: avx512f is enabled (caller); `lo` and `hi` are 16 readable u32 each, `out` 128 writable
    // u64 = 16 stores of 64 bytes at offsets 8b, b < 16.
    unsafe {
        let mut input = [_mm512_setzero_si512(); 16];
        for (v, &w) in input.iter_mut().zip(state) {
            *v = _mm512_set1_epi32(w as i32);
        }
        input[12] = _mm512_loadu_si512(lo.as_ptr().cast());
        input[13] = _mm512_loadu_si512(hi.as_ptr().cast());
        let mut x = input;
        rounds(|i| quarter(&mut x, i));
        for (v, i) in x.iter_mut().zip(input) {
            *v = _mm512_add_epi32(*v, i);
        }
        // Words (2i, 2i+1) interleaved: t[2i] holds blocks 4l, 4l+1 of 128-bit lane l, t[2i+1] 4l+2, 4l+3.
        let mut t = [_mm512_setzero_si512(); 16];
        for i in 0..8 {
            t[2 * i] = _mm512_unpacklo_epi32(x[2 * i], x[2 * i + 1]);
            t[2 * i + 1] = _mm512_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
        }
        // v[4g + j], lane l: words 4g..4g+4 of block 4l + j.
        let mut v = [_mm512_setzero_si512(); 16];
        for g in 0..4 {
            let (a, b, c, d) = (t[4 * g], t[4 * g + 1], t[4 * g + 2], t[4 * g + 3]);
            v[4 * g] = _mm512_unpacklo_epi64(a, c);
            v[4 * g + 1] = _mm512_unpackhi_epi64(a, c);
            v[4 * g + 2] = _mm512_unpacklo_epi64(b, d);
            v[4 * g + 3] = _mm512_unpackhi_epi64(b, d);
        }
        // 4 x 4 transpose of 128-bit lanes: block 4l + j = lane l of v[j], v[4 + j], v[8 + j], v[12 + j].
        let p = out.as_mut_ptr();
        for j in 0..4 {
            let (a, b, c, d) = (v[j], v[4 + j], v[8 + j], v[12 + j]);
            let ab02 = _mm512_shuffle_i32x4::<0x88>(a, b);
            let ab13 = _mm512_shuffle_i32x4::<0xdd>(a, b);
            let cd02 = _mm512_shuffle_i32x4::<0x88>(c, d);
            let cd13 = _mm512_shuffle_i32x4::<0xdd>(c, d);
            let blocks = [
                _mm512_shuffle_i32x4::<0x88>(ab02, cd02),
                _mm512_shuffle_i32x4::<0x88>(ab13, cd13),
                _mm512_shuffle_i32x4::<0xdd>(ab02, cd02),
                _mm512_shuffle_i32x4::<0xdd>(ab13, cd13),
            ];
            for (l, blk) in blocks.into_iter().enumerate() {
                _mm512_storeu_si512(p.add(8 * (4 * l + j)).cast(), blk);
            }
        }
    }
}

/// Rejection sampling 8 words at a time: draws `words[i] >> shift`, keeps those < q, packed in order
/// into `out`, while 8 words and 8 free slots remain (the free slots past the kept words hold rejected
/// draws until later stores overwrite them). Returns (words used, residues written); the caller
/// finishes the rest word by word. Does nothing when the CPU lacks avx512f.
pub(super) fn reject(words: &[u64], shift: u32, q: u64, out: &mut [u64]) -> (usize, usize) {
    if !is_x86_feature_detected!("avx512f") {
        return (0, 0);
    }
    // SAFETY: avx512f was detected just above.
    unsafe { reject_f(words, shift, q, out) }
}

#[target_feature(enable = "avx512f")]
unsafe fn reject_f(words: &[u64], shift: u32, q: u64, out: &mut [u64]) -> (usize, usize) {
    let (mut i, mut k) = (0, 0);
    // SAFETY: avx512f is enabled (caller); each load reads words[i..i + 8] and each store writes
    // out[k..k + 8], both in bounds by the loop condition.
    unsafe {
        let vq = _mm512_set1_epi64(q as i64);
        let vs = _mm_cvtsi64_si128(i64::from(shift));
        while i + 8 <= words.len() && k + 8 <= out.len() {
            let x = _mm512_srl_epi64(_mm512_loadu_si512(words.as_ptr().add(i).cast()), vs);
            let m = _mm512_cmplt_epu64_mask(x, vq);
            // Compressed in a register, then all 8 lanes stored: the words past the kept ones are
            // overwritten by the next store or the caller's tail. (`vpcompressq` to memory is
            // microcoded on Zen 4, far slower than this pair; the output is the same.)
            let packed = _mm512_maskz_compress_epi64(m, x);
            _mm512_storeu_si512(out.as_mut_ptr().add(k).cast(), packed);
            i += 8;
            k += m.count_ones() as usize;
        }
    }
    (i, k)
}
