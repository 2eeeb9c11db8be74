//! Prime generation: deterministic Miller–Rabin, NTT-friendly primes q = 1 mod M, and the CKKS
//! approximate-basis primes of Cheon et al. (SAC 2018), Appendix B.

use super::MAX_MODULUS_BITS;
use crate::{Error, Result};

/// The first twelve primes: as Miller–Rabin bases they decide primality for every n < 3.3 * 10^24
/// (Sorenson and Webster 2015), so for every u64.
const MR_BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

fn mul_mod(a: u64, b: u64, n: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(n)) as u64
}

fn pow_mod(mut a: u64, mut e: u64, n: u64) -> u64 {
    let mut acc = 1 % n;
    a %= n;
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_mod(acc, a, n);
        }
        a = mul_mod(a, a, n);
        e >>= 1;
    }
    acc
}

/// Deterministic primality test for any u64 (Miller–Rabin with the first twelve prime bases).
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for &p in &MR_BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for &a in &MR_BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// `count` distinct primes q = 1 mod `m` of exactly `bits` bits (2^(bits-1) < q < 2^bits), largest
/// first, skipping those in `exclude`. For a negacyclic NTT of size n take m = 2n; for Z\[X]/(Phi_m),
/// m = the cyclic NTT size or the cyclotomic index.
pub fn ntt_primes(bits: u32, m: u64, count: usize, exclude: &[u64]) -> Result<Vec<u64>> {
    if !(2..=MAX_MODULUS_BITS).contains(&bits) {
        return Err(Error::NotEnoughPrimes(format!(
            "prime width {bits} bits is outside 2..={MAX_MODULUS_BITS}"
        )));
    }
    if m == 0 || m >= 1u64 << (bits - 1) {
        return Err(Error::NotEnoughPrimes(format!(
            "no {bits}-bit prime can be 1 mod {m}: m must be below 2^{}",
            bits - 1
        )));
    }
    let lo = 1u64 << (bits - 1);
    let top = (1u64 << bits) - 1;
    // Largest candidate = 1 mod m below 2^bits.
    let mut q = top - (top - 1) % m;
    let mut found = Vec::with_capacity(count);
    while found.len() < count && q > lo {
        if is_prime(q) && !exclude.contains(&q) {
            found.push(q);
        }
        if q < m {
            break;
        }
        q -= m;
    }
    if found.len() < count {
        return Err(Error::NotEnoughPrimes(format!(
            "asked for {count} primes of {bits} bits that are 1 mod {m}, found {}; use wider primes \
             or a smaller degree",
            found.len()
        )));
    }
    Ok(found)
}

/// The CKKS approximate-basis primes of Cheon et al. (SAC 2018), Appendix B: every prime q = 1 mod `m` (m = 2N) with
/// |q / 2^kappa - 1| < 2^-eta, ordered by distance to 2^kappa (closest first, ties: smaller first).
///
/// Decision: the condition is evaluated in double precision, as the paper's own counts show it was. The
/// exact rational test admits one more prime for (kappa, eta) = (61, 37), 2^61 - 2^24 + 1, whose ratio
/// rounds to exactly 1 - 2^-37 in f64; with f64 the counts are the paper's 22, 33 and 26 for N = 2^15.
pub fn approximate_primes(kappa: u32, eta: u32, m: u64) -> Result<Vec<u64>> {
    if kappa >= MAX_MODULUS_BITS || eta == 0 || eta >= kappa || m == 0 || m.count_ones() != 1 {
        return Err(Error::NotEnoughPrimes(format!(
            "approximate primes need eta < kappa < {MAX_MODULUS_BITS} and m a power of two \
             (got kappa = {kappa}, eta = {eta}, m = {m})"
        )));
    }
    let center = 1u64 << kappa;
    let radius = 1u64 << (kappa - eta);
    let scale = 2f64.powi(-(kappa as i32));
    let bound = 2f64.powi(-(eta as i32));
    let mut primes = Vec::new();
    // q = 1 mod m with center - radius <= q <= center + radius (m divides center when m <= 2^kappa).
    let start = (center - radius) - (center - radius) % m + 1;
    let mut q = start;
    while q <= center + radius {
        if (q as f64 * scale - 1.0).abs() < bound && is_prime(q) {
            primes.push(q);
        }
        q += m;
    }
    primes.sort_by_key(|&q| (q.abs_diff(center), q));
    Ok(primes)
}

/// The `count` primes q = 1 mod `m` closest to 2^`kappa` that are not in `exclude`, closest first (ties:
/// smaller first), with the largest eta such that every one satisfies |q / 2^kappa - 1| < 2^-eta: the
/// approximate basis of Cheon et al. (SAC 2018), Appendix B ([`approximate_primes`] at the largest eta that still
/// offers `count` primes). They alternate above and below 2^kappa as their distance grows, so that
/// consecutive levels of a CKKS chain built from them keep scales near 2^kappa.
pub fn nearest_primes(
    kappa: u32,
    count: usize,
    m: u64,
    exclude: &[u64],
) -> Result<(Vec<u64>, u32)> {
    let mut eta = kappa.saturating_sub(1);
    while eta > 1 {
        let found = match approximate_primes(kappa, eta, m) {
            Ok(found) => found,
            Err(Error::NotEnoughPrimes(_)) => Vec::new(),
            Err(e) => return Err(e),
        };
        let found: Vec<u64> = found.into_iter().filter(|q| !exclude.contains(q)).collect();
        if found.len() >= count {
            return Ok((found[..count].to_vec(), eta));
        }
        eta -= 1;
    }
    Err(Error::NotEnoughPrimes(format!(
        "no {count} primes = 1 mod {m} near 2^{kappa}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miller_rabin_agrees_with_trial_division() {
        let trial = |n: u64| {
            n >= 2
                && (2..)
                    .take_while(|d| d * d <= n)
                    .all(|d| !n.is_multiple_of(d))
        };
        for n in 0..20_000u64 {
            assert_eq!(is_prime(n), trial(n), "n = {n}");
        }
        // Strong pseudoprimes to several bases, and large primes.
        for n in [
            3_215_031_751u64,
            2_152_302_898_747,
            3_474_749_660_383,
            341_550_071_728_321,
        ] {
            assert!(!is_prime(n));
        }
        assert!(is_prime((1 << 61) - 1));
        assert!(is_prime(18_446_744_073_709_551_557));
        assert!(!is_prime(u64::MAX));
    }

    #[test]
    fn ntt_primes_shape() {
        let ps = ntt_primes(60, 1 << 15, 10, &[]).unwrap();
        assert_eq!(ps.len(), 10);
        for w in ps.windows(2) {
            assert!(w[0] > w[1]);
        }
        for &q in &ps {
            assert!(is_prime(q) && q % (1 << 15) == 1 && q >> 59 == 1);
        }
        let more = ntt_primes(60, 1 << 15, 2, &ps[..1]).unwrap();
        assert_eq!(more, ps[1..3]);
        // General cyclotomic index (odd m).
        for q in ntt_primes(40, 21845 * 2, 3, &[]).unwrap() {
            assert_eq!(q % 43690, 1);
        }
    }

    #[test]
    fn ntt_primes_errors() {
        assert!(matches!(
            ntt_primes(63, 2, 1, &[]),
            Err(Error::NotEnoughPrimes(_))
        ));
        assert!(matches!(
            ntt_primes(17, 1 << 17, 1, &[]),
            Err(Error::NotEnoughPrimes(_))
        ));
        assert!(matches!(
            ntt_primes(20, 1 << 15, 50, &[]),
            Err(Error::NotEnoughPrimes(_))
        ));
    }

    #[test]
    fn nearest_primes_by_distance() {
        let m = 1u64 << 12;
        // Every prime = 1 mod m within 2^20 of 2^40, by trial: the closest ones first.
        let center = 1u64 << 40;
        let mut all: Vec<u64> = (0..(1u64 << 21) / m)
            .map(|k| center - (1 << 20) + k * m + 1)
            .filter(|&q| is_prime(q))
            .collect();
        all.sort_by_key(|&q| (q.abs_diff(center), q));
        let (got, eta) = nearest_primes(40, 12, m, &[]).unwrap();
        assert_eq!(got, all[..12]);
        let widest = got.iter().map(|&q| q.abs_diff(center)).max().unwrap() as f64;
        assert!(widest / (center as f64) < 2f64.powi(-(eta as i32)));
        assert!(widest / (center as f64) >= 2f64.powi(-(eta as i32 + 1)) || eta == 39);
        // Excluded primes are skipped; the next closest take their place.
        let (skip, _) = nearest_primes(40, 11, m, &all[..1]).unwrap();
        assert_eq!(skip, all[1..12]);
        assert!(got.iter().any(|&q| q > center) && got.iter().any(|&q| q < center));
        assert!(matches!(
            nearest_primes(20, 100, 1 << 17, &[]),
            Err(Error::NotEnoughPrimes(_))
        ));
    }

    /// Cheon et al. (SAC 2018), Appendix B: 22, 33 and 26 primes for (kappa, eta, N) = (61,37,2^15), (55,31,2^15),
    /// (49,25,2^15), q0 = 2^61 + 0xb0001 among the first, and the 15 primes used for Table 1 among the
    /// second. The text copy garbles the runs of f and 0 in the hexadecimal strings (it prints
    /// `200000000000b0001`, `7ffffffffe90001`, `7fffffbdb0001`, `7fffffba0001`, ...: 13 to 17 digits where
    /// a 56-bit number has 14); each listed prime is read as the 14-digit number with the same leading digit
    /// and the same trailing digits, as below; the q0 string is read as 2^61 + 0xb0001.
    #[test]
    fn paper_004_appendix_b() {
        let n2 = 1u64 << 16;
        let p61 = approximate_primes(61, 37, n2).unwrap();
        let p55 = approximate_primes(55, 31, n2).unwrap();
        let p49 = approximate_primes(49, 25, n2).unwrap();
        assert_eq!((p61.len(), p55.len(), p49.len()), (22, 33, 26));
        assert!(p61.contains(&0x2000_0000_000b_0001));
        assert_eq!(p61[0], 0x2000_0000_000b_0001, "q0 is the closest to 2^61");
        let table1: [u64; 15] = [
            0x80000000080001,
            0x80000000130001,
            0x7fffffffe90001,
            0x80000000190001,
            0x800000001d0001,
            0x7fffffffbf0001,
            0x7fffffffbd0001,
            0x80000000440001,
            0x7fffffffba0001,
            0x80000000490001,
            0x80000000500001,
            0x7fffffffaa0001,
            0x7fffffffa50001,
            0x800000005e0001,
            0x7fffffff9f0001,
        ];
        for q in table1 {
            assert!(p55.contains(&q), "{q:#x} missing");
        }
        // The 15 listed are the 15 closest to 2^55.
        let mut closest: Vec<u64> = p55[..15].to_vec();
        closest.sort_unstable();
        let mut listed = table1.to_vec();
        listed.sort_unstable();
        assert_eq!(closest, listed);
        for &q in p61.iter().chain(&p55).chain(&p49) {
            assert!(is_prime(q) && q % n2 == 1);
        }
        // The boundary prime the exact rational test would admit.
        assert!(is_prime((1 << 61) - (1 << 24) + 1) && !p61.contains(&((1 << 61) - (1 << 24) + 1)));
    }
}
