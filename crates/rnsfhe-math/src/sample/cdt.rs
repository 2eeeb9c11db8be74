//! The full-scan CDT of [`super::DiscreteGaussian`] over many draws at once: the rng's words drawn
//! in bulk (the same words, in the same order, as one `next_u64` pair per sample: ChaCha's output
//! is one little-endian stream), then the table scanned for eight samples per AVX-512 vector, or
//! one at a time. Both are constant time in the values and give the same samples bit for bit.

use zeroize::Zeroizing;

use super::constant_time::{mask, opaque_zero};
use super::Csprng;

/// Samples per bulk draw of the rng (2 words each; 64 KiB of words, so that the multi-block ChaCha20
/// kernel of `Csprng::fill_words` runs long between its resynchronisations).
const CHUNK: usize = 4096;

/// One sample from the 128-bit draw r = (hi, lo): a sign bit and the count of table entries
/// t <= r mod 2^127 (borrow-based comparisons over the whole table), the sign applied by a mask.
#[inline(always)]
pub(super) fn scan_one(table: &[u128], hi: u64, lo: u64, zero: u64) -> i64 {
    let r = (u128::from(hi) << 64) | u128::from(lo);
    let u = r & ((1 << 127) - 1);
    let mut mag = 0u64;
    for &t in table {
        // u >= t exactly when u - t does not borrow.
        let (_, borrow) = u.overflowing_sub(t);
        mag += 1 - u64::from(borrow);
    }
    let m = mask(hi >> 63, zero) as i64;
    (mag as i64 ^ m).wrapping_sub(m)
}

/// The scalar scan of `words` (hi, lo per sample) into `out`.
fn scan_scalar(table: &[u128], words: &[u64], out: &mut [i64]) {
    let zero = opaque_zero();
    for (o, w) in out.iter_mut().zip(words.chunks_exact(2)) {
        *o = scan_one(table, w[0], w[1], zero);
    }
}

/// Fills `out` with samples of `table`, one (hi, lo) word pair of `rng` each, in order.
pub(super) fn fill(table: &[u128], rng: &mut Csprng, out: &mut [i64]) {
    let mut words = Zeroizing::new(vec![0u64; 2 * CHUNK]);
    for block in out.chunks_mut(CHUNK) {
        let w = &mut words[..2 * block.len()];
        rng.fill_words(w);
        scan(table, w, block);
    }
}

/// The scan of `words` into `out`: AVX-512F or AVX2 when the backend knob allows it, the scalar
/// scan for the tail.
fn scan(table: &[u128], words: &[u64], out: &mut [i64]) {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::arith::{backend, Backend};
        let done = match backend() {
            Backend::Avx512 | Backend::Avx512Ifma if Backend::Avx512.is_supported() => {
                // SAFETY: avx512f was detected.
                unsafe { scan_avx512(table, words, out) }
            }
            Backend::Avx2 | Backend::Avx512 | Backend::Avx512Ifma
                if Backend::Avx2.is_supported() =>
            {
                // SAFETY: avx2 was detected.
                unsafe { scan_avx2(table, words, out) }
            }
            _ => 0,
        };
        scan_scalar(table, &words[2 * done..], &mut out[done..]);
    }
    #[cfg(not(target_arch = "x86_64"))]
    scan_scalar(table, words, out);
}

/// Four samples per vector, as [`scan_avx512`] with AVX2's signed compares: u_hi and t_hi are below
/// 2^63, the low words are compared with their top bits flipped. Returns how many samples it wrote
/// (a multiple of 4).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn scan_avx2(table: &[u128], words: &[u64], out: &mut [i64]) -> usize {
    use core::arch::x86_64::*;
    let n = out.len().min(words.len() / 2) & !3;
    let low63 = _mm256_set1_epi64x(i64::MAX);
    let flip = _mm256_set1_epi64x(i64::MIN);
    for i in (0..n).step_by(4) {
        // SAFETY: words[2i..2i + 8] and out[i..i + 4] are in bounds (i + 4 <= n).
        let (v0, v1) = unsafe {
            let p = words.as_ptr().add(2 * i);
            (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(4).cast()),
            )
        };
        // Lanes in the order of samples 0, 2, 1, 3 (undone by the last permutation).
        let hi = _mm256_unpacklo_epi64(v0, v1);
        let lo = _mm256_xor_si256(_mm256_unpackhi_epi64(v0, v1), flip);
        let u_hi = _mm256_and_si256(hi, low63);
        let mut mag = _mm256_setzero_si256();
        for &t in table {
            let t_hi = _mm256_set1_epi64x((t >> 64) as i64);
            let t_lo = _mm256_set1_epi64x((t as u64 ^ (1 << 63)) as i64);
            let gt = _mm256_cmpgt_epi64(u_hi, t_hi);
            let eq = _mm256_cmpeq_epi64(u_hi, t_hi);
            let lt = _mm256_cmpgt_epi64(t_lo, lo);
            // All ones where u >= t: subtracting -1 counts it.
            mag = _mm256_sub_epi64(mag, _mm256_or_si256(gt, _mm256_andnot_si256(lt, eq)));
        }
        let m = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_srli_epi64::<63>(hi));
        let x = _mm256_sub_epi64(_mm256_xor_si256(mag, m), m);
        let x = _mm256_permute4x64_epi64::<0b11_01_10_00>(x);
        // SAFETY: as above.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), x) };
    }
    n
}

/// Eight samples per vector: u >= t as (u_hi > t_hi) or (u_hi = t_hi and u_lo >= t_lo), unsigned
/// 64-bit compares; returns how many samples it wrote (a multiple of 8).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn scan_avx512(table: &[u128], words: &[u64], out: &mut [i64]) -> usize {
    use core::arch::x86_64::*;
    let n = out.len().min(words.len() / 2) & !7;
    let even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    let odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    let low63 = _mm512_set1_epi64(i64::MAX);
    let one = _mm512_set1_epi64(1);
    for i in (0..n).step_by(8) {
        // SAFETY: words[2i..2i + 16] and out[i..i + 8] are in bounds (i + 8 <= n).
        let (v0, v1) = unsafe {
            let p = words.as_ptr().add(2 * i);
            (
                _mm512_loadu_si512(p.cast()),
                _mm512_loadu_si512(p.add(8).cast()),
            )
        };
        let hi = _mm512_permutex2var_epi64(v0, even, v1);
        let lo = _mm512_permutex2var_epi64(v0, odd, v1);
        let u_hi = _mm512_and_si512(hi, low63);
        let mut mag = _mm512_setzero_si512();
        for &t in table {
            let t_hi = _mm512_set1_epi64((t >> 64) as i64);
            let t_lo = _mm512_set1_epi64(t as u64 as i64);
            let gt = _mm512_cmpgt_epu64_mask(u_hi, t_hi);
            let eq = _mm512_cmpeq_epu64_mask(u_hi, t_hi);
            let ge = _mm512_cmpge_epu64_mask(lo, t_lo);
            mag = _mm512_mask_add_epi64(mag, gt | (eq & ge), mag, one);
        }
        // Negative when the top bit of hi is set: (mag ^ m) - m with m = 0 - sign.
        let m = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_srli_epi64::<63>(hi));
        let x = _mm512_sub_epi64(_mm512_xor_si512(mag, m), m);
        // SAFETY: as above.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), x) };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::DiscreteGaussian;

    /// The bulk samples are the one-at-a-time samples of the same rng, through `fill` (the
    /// backend of the knob) and through each kernel directly (a misaligned stream, a length that
    /// is no multiple of 8 or of the chunk).
    #[test]
    fn bulk_equals_one_at_a_time_on_every_kernel() {
        for (sigma, tail) in [(3.2, 6.0), (1.0, 4.0), (40.0, 6.0)] {
            let g = DiscreteGaussian::new(sigma, tail).unwrap();
            let table = g.table();
            let mut want = vec![0i64; 1237];
            let mut words = Vec::new();
            let mut r = Csprng::from_seed([9; 32]);
            r.fill_bytes(&mut [0u8; 4]);
            let zero = opaque_zero();
            for x in &mut want {
                let (hi, lo) = (r.next_u64(), r.next_u64());
                words.extend([hi, lo]);
                *x = scan_one(table, hi, lo, zero);
            }
            let mut got = vec![0i64; want.len()];
            let mut r = Csprng::from_seed([9; 32]);
            r.fill_bytes(&mut [0u8; 4]);
            fill(table, &mut r, &mut got);
            assert_eq!(got, want, "fill, sigma {sigma}");
            let mut got = vec![0i64; want.len()];
            scan_scalar(table, &words, &mut got);
            assert_eq!(got, want, "scalar, sigma {sigma}");
            #[cfg(target_arch = "x86_64")]
            {
                type Scan = unsafe fn(&[u128], &[u64], &mut [i64]) -> usize;
                let test = "sample::cdt::bulk_equals_one_at_a_time_on_every_kernel";
                let kernels: [(&str, bool, usize, Scan); 2] = [
                    (
                        "avx512",
                        crate::skip::runs(crate::arith::Backend::Avx512, test)
                            && is_x86_feature_detected!("avx512f"),
                        8,
                        scan_avx512,
                    ),
                    (
                        "avx2",
                        crate::skip::runs(crate::arith::Backend::Avx2, test)
                            && is_x86_feature_detected!("avx2"),
                        4,
                        scan_avx2,
                    ),
                ];
                for (name, _, lanes, scan) in kernels.into_iter().filter(|k| k.1) {
                    let mut got = vec![0i64; want.len()];
                    // SAFETY: the kernel's feature was detected.
                    let done = unsafe { scan(table, &words, &mut got) };
                    assert_eq!(done, want.len() / lanes * lanes, "{name}");
                    assert_eq!(got[..done], want[..done], "{name}, sigma {sigma}");
                }
            }
        }
    }
}
