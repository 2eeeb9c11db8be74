//! Ternary secrets: dense uniform over {-1, 0, 1}, and fixed Hamming weight h.
//!
//! Constant time: no branch or memory index depends on a sampled value. Dense sampling maps each random
//! word through a multiply-high. Fixed-weight sampling sorts (random key, value) words with a bitonic
//! network whose compare-exchanges are branch-free masks and whose access pattern depends only on n
//! (the approach of fixed-weight samplers in NTRU Prime / Classic McEliece). What is *not* hidden: n
//! and h (public parameters), and whether a 62-bit key collision forced a retry (probability below
//! n^2 / 2^63; the retry draws fresh keys, so the event is independent of the returned secret).

use zeroize::Zeroizing;

use super::constant_time::{mask, opaque_zero};
use super::Csprng;
use crate::{Error, Result};

/// n coefficients, each -1, 0 or 1 with probability 1/3 (up to 2^-64: a word r maps to
/// floor(3r / 2^64) - 1 and 2^64 = 1 mod 3). Constant time in the values.
pub fn ternary(rng: &mut Csprng, n: usize) -> Zeroizing<Vec<i64>> {
    let mut out = Zeroizing::new(vec![0i64; n]);
    for x in out.iter_mut() {
        let r = rng.next_u64();
        *x = ((u128::from(r) * 3) >> 64) as i64 - 1;
    }
    out
}

/// Branch-free compare-exchange: afterwards `*a <= *b`; `zero` from [`opaque_zero`].
#[inline(always)]
fn cswap(a: &mut u64, b: &mut u64, zero: u64) {
    let (_, b_lt_a) = b.overflowing_sub(*a);
    let t = (*a ^ *b) & mask(u64::from(b_lt_a), zero);
    *a ^= t;
    *b ^= t;
}

/// Ascending bitonic sort of a power-of-two slice; the compare sequence depends only on the length.
fn bitonic_sort(v: &mut [u64]) {
    let len = v.len();
    let zero = opaque_zero();
    let mut k = 2;
    while k <= len {
        let mut j = k / 2;
        while j > 0 {
            // Compare i with i + j inside each block of 2j; direction is bit k of the (public) index.
            for (b, block) in v.chunks_exact_mut(2 * j).enumerate() {
                let (lo, hi) = block.split_at_mut(j);
                if (b * 2 * j) & k == 0 {
                    lo.iter_mut().zip(hi).for_each(|(x, y)| cswap(x, y, zero));
                } else {
                    lo.iter_mut().zip(hi).for_each(|(x, y)| cswap(y, x, zero));
                }
            }
            j /= 2;
        }
        k *= 2;
    }
}

/// n coefficients with exactly h nonzero, each nonzero ±1 with probability 1/2, the support uniform
/// among the C(n, h) subsets. Requires h <= n (any n, not only powers of two). See the module doc for
/// what is constant time.
///
/// Method: word i = (62 random key bits) << 2 | code, code = 1 (+1) or 2 (-1) with a random sign for
/// i < h and 0 otherwise; pad to a power of two with `u64::MAX`; sort; read the codes in order.
/// Distinct uniform keys make the sorting permutation uniform.
pub fn ternary_hamming(rng: &mut Csprng, n: usize, h: usize) -> Result<Zeroizing<Vec<i64>>> {
    if h > n {
        return Err(Error::OutOfRange(format!(
            "Hamming weight h = {h} exceeds the degree n = {n}"
        )));
    }
    let len = n
        .checked_next_power_of_two()
        .ok_or_else(|| Error::OutOfRange(format!("degree n = {n} is too large to sort")))?;
    let mut words = Zeroizing::new(vec![u64::MAX; len]);
    loop {
        for (i, w) in words[..n].iter_mut().enumerate() {
            let r = rng.next_u64();
            let nonzero = u64::from(i < h);
            *w = (r & !3) | (nonzero * (1 + (r & 1)));
        }
        bitonic_sort(&mut words);
        // Branch-free scan for equal adjacent keys (a collision); retry only then.
        let mut collide = 0u64;
        for pair in words[..n].windows(2) {
            let d = (pair[0] ^ pair[1]) >> 2;
            collide |= u64::from(d == 0);
        }
        if collide == 0 {
            break;
        }
        words[..n].fill(0);
        words[n..].fill(u64::MAX);
    }
    let mut out = Zeroizing::new(vec![0i64; n]);
    for (x, &w) in out.iter_mut().zip(words.iter()) {
        let code = w & 3;
        *x = (code & 1) as i64 - (code >> 1) as i64;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_proportions_and_support() {
        let mut rng = Csprng::from_seed([11; 32]);
        let n = 300_000;
        let s = ternary(&mut rng, n);
        let mut counts = [0usize; 3];
        for &x in s.iter() {
            assert!((-1..=1).contains(&x));
            counts[(x + 1) as usize] += 1;
        }
        // Each proportion within 6 standard deviations (sd = sqrt(2/9 / n) ~ 8.6e-4).
        for c in counts {
            let p = c as f64 / n as f64;
            assert!((p - 1.0 / 3.0).abs() < 0.0052, "{counts:?}");
        }
        // Chi-square, 2 degrees of freedom: P(> 30) ~ 3e-7.
        let e = n as f64 / 3.0;
        let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        assert!(chi < 30.0, "chi2 = {chi}");
        let mean = s.iter().sum::<i64>() as f64 / n as f64;
        assert!(mean.abs() < 0.01);
    }

    #[test]
    fn bitonic_sorts() {
        let mut rng = Csprng::from_seed([12; 32]);
        for len in [1usize, 2, 4, 64, 1024] {
            let mut v: Vec<u64> = (0..len).map(|_| rng.next_u64() % 50).collect();
            let mut w = v.clone();
            w.sort_unstable();
            bitonic_sort(&mut v);
            assert_eq!(v, w);
        }
    }

    #[test]
    fn hamming_weight_is_exact() {
        let mut rng = Csprng::from_seed([13; 32]);
        for (n, h) in [
            (1, 0),
            (1, 1),
            (100, 10),
            (1024, 64),
            (4096, 4096),
            (4096, 0),
        ] {
            let s = ternary_hamming(&mut rng, n, h).unwrap();
            assert_eq!(s.len(), n);
            assert!(s.iter().all(|x| (-1..=1).contains(x)));
            assert_eq!(s.iter().filter(|&&x| x != 0).count(), h, "n={n} h={h}");
        }
        assert!(ternary_hamming(&mut rng, 0, 0).unwrap().is_empty());
        assert!(matches!(
            ternary_hamming(&mut rng, 8, 9),
            Err(Error::OutOfRange(_))
        ));
    }

    #[test]
    fn hamming_placement_and_signs_are_uniform() {
        let mut rng = Csprng::from_seed([14; 32]);
        let (n, h, trials) = (48, 8, 20_000);
        let mut hits = vec![0usize; n];
        let (mut plus, mut minus) = (0usize, 0usize);
        for _ in 0..trials {
            let s = ternary_hamming(&mut rng, n, h).unwrap();
            for (j, &x) in s.iter().enumerate() {
                hits[j] += usize::from(x != 0);
                plus += usize::from(x == 1);
                minus += usize::from(x == -1);
            }
        }
        // Per-position chi-square, 47 degrees of freedom: P(> 110) < 1e-6.
        let e = (trials * h) as f64 / n as f64;
        let chi: f64 = hits.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        assert!(chi < 110.0, "chi2 = {chi}, hits {hits:?}");
        // Signs: sd of plus - minus is sqrt(trials * h) = 400; allow 6 sd.
        assert_eq!(plus + minus, trials * h);
        assert!((plus as i64 - minus as i64).abs() < 2400);
    }
}
