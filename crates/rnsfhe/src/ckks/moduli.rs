//! The primes of a CKKS chain: q_1..q_L nearest to 2^(their width) (Cheon et al. (SAC 2018)'s approximate basis,
//! per width), q_0, and the default key-switching layout with its special primes P.

use rnsfhe_math::arith::{nearest_primes, ntt_primes};

use crate::params::{log2_product, NARROW_BITS};
use crate::rlwe::KeySwitching;
use crate::{Error, Result};

/// The widths a chain prime may have: 20 bits is the narrowest with primes = 1 mod 2N up to N = 2^17
/// (2N < 2^(bits - 1)); 61 the widest because the nearest primes to 2^bits lie on both sides of it and
/// the math layer's moduli stay below 2^62 (`rnsfhe_math::arith::MAX_MODULUS_BITS`).
pub(super) const CHAIN_WIDTHS: std::ops::RangeInclusive<u32> = 20..=61;

/// q_0, q_1, ..., q_L for the widths `bits` (q_0's first) and the achieved eta. Each width of q_1..q_L
/// takes its primes = 1 mod `m` nearest to 2^width ([`nearest_primes`]), assigned to its levels bottom
/// first (the nearest to the lowest), distinct from those of the other widths; eta is the smallest
/// over the widths, so that every |q_j / 2^bits_j - 1| < 2^-eta (j >= 1). q_0 is no scaling prime:
/// the largest prime of its width = 1 mod `m` not yet taken (as the uniform chain always had). A
/// uniform chain (one width for q_1..q_L) gives the primes of Cheon et al. (SAC 2018)'s Setup exactly.
pub(super) fn chain_primes(bits: &[u32], m: u64) -> Result<(Vec<u64>, u32)> {
    let mut chain = vec![0u64; bits.len()];
    let mut eta = u32::MAX;
    let mut taken: Vec<u64> = Vec::new();
    for (j, &w) in bits.iter().enumerate().skip(1) {
        if bits[1..j].contains(&w) {
            continue;
        }
        let levels: Vec<usize> = (j..bits.len()).filter(|&l| bits[l] == w).collect();
        let (primes, e) = nearest_primes(w, levels.len(), m, &taken).map_err(|_| {
            Error::NotEnoughPrimes(format!(
                "no {} primes = 1 mod 2N = {m} near 2^{w} for the levels {levels:?}",
                levels.len()
            ))
        })?;
        for (&l, &q) in levels.iter().zip(&primes) {
            chain[l] = q;
        }
        taken.extend(primes);
        eta = eta.min(e);
    }
    chain[0] = ntt_primes(bits[0], m, 1, &taken)?[0];
    Ok((chain, eta))
}

/// The rounded widths of primes (log2 q to the nearest integer).
pub(super) fn widths(primes: &[u64]) -> Vec<u32> {
    primes
        .iter()
        .map(|&q| (q as f64).log2().round() as u32)
        .collect()
}

/// The width of the default special primes: the layout's (60, or 49 and at least the scale for
/// [`ModuliLayout::Narrow`](crate::params::ModuliLayout)), raised to the widest of q_1..q_L, so that a
/// digit of scaling primes is never wider than as many special primes (P >= the widest digit, save
/// q_0's share). Uniform chains have q_1..q_L of the scale's width, never above the layout's: unchanged.
pub(super) fn special_width(layout_width: u32, chain: &[u64]) -> u32 {
    widths(&chain[1..]).into_iter().fold(layout_width, u32::max)
}

/// Digit counts tried for the default key-switching layout, fewest first.
const DEFAULT_DIGITS: usize = 3;

/// The default key-switching layout for a chain of `k` primes (chosen by measured cost within
/// the security bound, not only by noise). Fewer digits mean fewer NTTs and inner products per key
/// switch, but each digit needs special primes P at least as wide as the digit, which costs log QP.
/// Measured (`examples/ckks_ops 15 10 40 6 rot|mulrs D D`, AMD EPYC Zen 3, AVX2, one thread), N = 2^15,
/// 60 + 40 x 10: 11 digits of 1 prime and 1 special prime 96 / 95 ms (rotate / mul+relin+rescale),
/// 6 digits of 2 and 2 specials 64 / 73 ms, 3 digits of 4 and 4 specials 51 / 62 ms, 2 digits of 6 and
/// 6 specials 49 / 60 ms. Rule: the fewest digits from 3 up (OpenFHE's default; below 3 the gain is
/// small and the specials' cost in security budget large) such that ceil(k / digits) special primes
/// keep log QP within `fits`; else one prime per digit and one special prime.
/// The special primes are `width` bits wide ([`special_width`]); `fits` gets their number.
pub(super) fn default_layout(
    k: usize,
    width: u32,
    fits: impl Fn(usize) -> bool,
) -> (KeySwitching, Vec<u32>) {
    for digits in DEFAULT_DIGITS.min(k)..=k {
        let per = k.div_ceil(digits);
        if fits(per) {
            let ks = KeySwitching {
                digit_primes: per,
                ..KeySwitching::default()
            };
            return (ks, vec![width; per]);
        }
    }
    (KeySwitching::default(), vec![width])
}

/// The default layout's special primes narrowed to [`NARROW_BITS`] bits where that keeps P at least
/// 2^8 above the widest digit (the digits of `per` consecutive chain primes, q_0's first), else the
/// `wide` ones ([`special_width`]). The key-switching term (widest digit) sigma sqrt(dnum N) / P then
/// stays orders of magnitude below ModDown's rounding term (about sqrt(N h / 12)), and every special limb runs
/// AVX-512 IFMA's 52-bit kernels. Precision measured against 60-bit special primes: x^2 then a
/// rotation at N = 2^15, L = 10, six key seeds, worst slot error 2^-22.75..-23.24 against
/// 2^-22.57..-23.16 (`tests/moduli_layout.rs`); random circuits at N = 2^15, L = 12 (`tests/
/// ckks_scales.rs`, four key seeds), median node error 0.0-0.3 bits higher, worst node within the
/// spread of the seeds. Measured (`peer_bench --ckks
/// 32768:10`, Intel Xeon with AVX-512 IFMA, one thread, medians): N = 2^15, 60 + 40 x 10 with 4
/// special primes of 49 instead of 60 bits, mul+relin+rescale 30.6 against 37.7 ms and rotate 24.7
/// against 31.8 ms on avx512ifma; 54.5 against 55.0 and 43.8 against 44.8 ms on avx2 (no loss).
pub(super) fn narrow_specials(
    chain: &[u64],
    per: usize,
    wide: Vec<u32>,
    m: u64,
) -> Result<Vec<u32>> {
    let widest_digit = chain
        .chunks(per.max(1))
        .map(log2_product)
        .fold(0.0, f64::max);
    let narrow = vec![NARROW_BITS; wide.len()];
    let p = ntt_primes(NARROW_BITS, m, narrow.len(), chain)?;
    Ok(if log2_product(&p) >= widest_digit + 8.0 {
        narrow
    } else {
        wide
    })
}
