//! The library's one source of randomness: ChaCha20 (RFC 8439 core, via `rand_chacha`), OS-seeded in
//! production and seedable for tests, plus unbiased uniform sampling modulo q (seed expansion, on
//! the same sampling: `expand.rs`).

use core::sync::atomic::{compiler_fence, Ordering};

use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng, TryRngCore};
use zeroize::Zeroizing;

use super::chacha::{Kernel, Keystream};
use crate::arith::Modulus;
use crate::{Error, Result};

/// Top bit of a ChaCha stream id: set for every stream used by seed expansion, clear for a [`Csprng`]
/// built with [`Csprng::from_seed`] (stream 0), so the two never share keystream even under one seed.
pub(crate) const EXPAND_STREAM: u64 = 1 << 63;

/// A ChaCha20 CSPRNG. Not `Clone` (a clone would repeat the stream); its state is wiped on drop.
pub struct Csprng {
    rng: ChaCha20Rng,
}

impl core::fmt::Debug for Csprng {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Csprng { .. }")
    }
}

impl Drop for Csprng {
    fn drop(&mut self) {
        let blank = ChaCha20Rng::from_seed([0u8; 32]);
        // SAFETY: `&mut self.rng` is valid, aligned and exclusively borrowed. `ChaCha20Rng` owns no heap
        // memory and has no drop glue (checked by a test), so overwriting it without dropping the old
        // value leaks nothing. The volatile write keeps the wipe of key and buffered output from being
        // optimised away as a dead store.
        unsafe { core::ptr::write_volatile(&mut self.rng, blank) };
        compiler_fence(Ordering::SeqCst);
    }
}

impl Csprng {
    /// Seeds ChaCha20 with 32 bytes from the operating system (`getrandom`); fails with
    /// [`Error::Entropy`] if the OS source fails.
    pub fn from_os_entropy() -> Result<Self> {
        let mut seed = Zeroizing::new([0u8; 32]);
        OsRng
            .try_fill_bytes(seed.as_mut())
            .map_err(|e| Error::Entropy(e.to_string()))?;
        Ok(Self::from_seed(*seed))
    }

    /// Deterministic generator from a 32-byte key (ChaCha20 stream 0, block counter 0). For tests and
    /// reproducible runs; production code should use [`Csprng::from_os_entropy`].
    pub fn from_seed(seed: [u8; 32]) -> Self {
        Csprng {
            rng: ChaCha20Rng::from_seed(seed),
        }
    }

    /// Generator on a seed-expansion stream (top bit of the stream id set).
    pub(crate) fn expansion(seed: &[u8; 32], stream: u64) -> Self {
        let mut rng = ChaCha20Rng::from_seed(*seed);
        rng.set_stream(EXPAND_STREAM | stream);
        Csprng { rng }
    }

    /// Fills `dest` with uniformly random bytes.
    pub fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.rng.fill_bytes(dest);
    }

    /// A uniformly random 64-bit word.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Fills `out` with the next words of [`Csprng::next_u64`] (the same words, in order), from the
    /// multi-block ChaCha20 kernel (AVX2 or AVX-512F within the `RNSFHE_BACKEND` ceiling) when `out`
    /// is long: the random words of Gaussian sampling.
    pub fn fill_words(&mut self, out: &mut [u64]) {
        if self.bulk(out.len(), |ks| ks.fill(out)) {
            return;
        }
        for x in out {
            *x = self.next_u64();
        }
    }

    /// A uniformly random value in [0, q), by rejection: draw the top `bits(q)` bits of a word and retry
    /// while the draw is >= q (each try succeeds with probability > 1/2). Exactly uniform, no `% q`
    /// bias. The running time reveals only the number of rejected draws, which is independent of the
    /// accepted value; intended for public uniform parts (`a` of a ciphertext or key).
    #[inline]
    pub fn uniform_mod(&mut self, modulus: &Modulus) -> u64 {
        let q = modulus.value();
        // bits(q) is in [2, 62], so the shift is in [2, 62].
        let shift = 64 - modulus.bits();
        loop {
            let x = self.next_u64() >> shift;
            if x < q {
                return x;
            }
        }
    }

    /// Fills `out` (limb-major, `out[i*n + j]` in [0, q_i)) with independent uniform residues, which by
    /// the CRT is a uniform polynomial modulo Q = prod q_i. Errors if `out.len() != moduli.len() * n`.
    /// Draws the same words as repeated [`Csprng::uniform_mod`], from the multi-block ChaCha20 kernel
    /// (AVX2 or AVX-512F within the `RNSFHE_BACKEND` ceiling) when `out` is long.
    pub fn fill_uniform(&mut self, moduli: &[Modulus], n: usize, out: &mut [u64]) -> Result<()> {
        check_len(moduli.len(), n, out.len())?;
        self.fill_limbs(moduli, n, out);
        Ok(())
    }

    /// A new uniform RNS polynomial of `moduli.len() * n` words; see [`Csprng::fill_uniform`].
    pub fn uniform_poly(&mut self, moduli: &[Modulus], n: usize) -> Vec<u64> {
        let mut out = vec![0u64; moduli.len() * n];
        self.fill_limbs(moduli, n, &mut out);
        out
    }

    /// Limb i of `out` (n words) uniform mod `moduli[i]`; `out.len() == moduli.len() * n`.
    fn fill_limbs(&mut self, moduli: &[Modulus], n: usize, out: &mut [u64]) {
        if n == 0 {
            return;
        }
        let bulk = self.bulk(out.len(), |ks| {
            for (limb, m) in out.chunks_exact_mut(n).zip(moduli) {
                ks.fill_uniform(m, limb);
            }
        });
        if bulk {
            return;
        }
        for (limb, m) in out.chunks_exact_mut(n).zip(moduli) {
            for x in limb {
                *x = self.uniform_mod(m);
            }
        }
    }

    /// Runs `draw` on the multi-block ChaCha20 kernel from this generator's position, then moves
    /// the generator past what it drew: the same words as `rand_chacha`. False (nothing drawn) for
    /// fewer than [`BULK_MIN`] words, under the scalar ceiling, or at an odd 32-bit position.
    fn bulk(&mut self, len: usize, draw: impl FnOnce(&mut Keystream)) -> bool {
        let kernel = Kernel::current();
        if kernel == Kernel::Scalar || len < BULK_MIN {
            return false;
        }
        let seed = Zeroizing::new(self.rng.get_seed());
        let (stream, pos) = (self.rng.get_stream(), self.rng.get_word_pos());
        match Keystream::at_word(&seed, stream, pos, kernel) {
            Some(mut ks) => {
                draw(&mut ks);
                self.rng.set_word_pos(ks.word_pos());
                true
            }
            None => false,
        }
    }
}

/// Requests of at least this many residues go through the multi-block kernel (below, its 1 KiB refill
/// and the resynchronisation of `rand_chacha` cost more than they save).
const BULK_MIN: usize = 512;

fn check_len(k: usize, n: usize, got: usize) -> Result<()> {
    let expected = k
        .checked_mul(n)
        .ok_or_else(|| Error::OutOfRange(format!("{k} limbs of degree {n} overflow usize")))?;
    if got != expected {
        return Err(Error::LengthMismatch {
            what: "RNS polynomial (moduli.len() * n)",
            expected,
            got,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::{uniform_from_seed, uniform_from_seed_at, uniform_from_seed_indexed};

    fn moduli() -> Vec<Modulus> {
        [
            17u64,
            (1 << 40) + 1,
            0x3fff_fff0_0001,
            (1 << 61) + 1,
            3 << 59,
        ]
        .iter()
        .map(|&q| Modulus::new(q).unwrap())
        .collect()
    }

    /// Chi-square over min(q, 64) or 16 near-equal buckets, after asserting every x < q and checking
    /// the mean and variance of x/q to 6 standard deviations.
    fn uniform_stats(xs: &[u64], q: u64) -> f64 {
        assert!(xs.iter().all(|&x| x < q), "value >= q = {q}");
        let n = xs.len() as f64;
        let qf = q as f64;
        let mean = xs.iter().map(|&x| x as f64 / qf).sum::<f64>() / n;
        let var = xs
            .iter()
            .map(|&x| (x as f64 / qf - mean).powi(2))
            .sum::<f64>()
            / n;
        let (want_mean, want_var) = ((qf - 1.0) / (2.0 * qf), (qf * qf - 1.0) / (12.0 * qf * qf));
        assert!(
            (mean - want_mean).abs() < 6.0 * want_var.sqrt() / n.sqrt(),
            "mean {mean}"
        );
        // sd of the sample variance of U(0,1): sqrt(1/80 - 1/144) / sqrt(n).
        assert!(
            (var - want_var).abs() < 6.0 * 0.0746 / n.sqrt(),
            "var {var}"
        );
        let b = if q <= 64 { q } else { 16 };
        let mut obs = vec![0usize; b as usize];
        for &x in xs {
            obs[(u128::from(x) * u128::from(b) / u128::from(q)) as usize] += 1;
        }
        let ceil = |k: u64| (u128::from(k) * u128::from(q)).div_ceil(u128::from(b));
        (0..b)
            .map(|k| {
                let e = (ceil(k + 1) - ceil(k)) as f64 / qf * n;
                (obs[k as usize] as f64 - e).powi(2) / e
            })
            .sum()
    }

    // Chi-square with at most 16 degrees of freedom: P(> 60) < 1e-6.
    const CHI_MAX: f64 = 60.0;

    #[test]
    fn uniform_mod_is_uniform() {
        let mut rng = Csprng::from_seed([4; 32]);
        let n = 200_000;
        for m in moduli() {
            let xs: Vec<u64> = (0..n).map(|_| rng.uniform_mod(&m)).collect();
            let chi = uniform_stats(&xs, m.value());
            assert!(chi < CHI_MAX, "q = {}: chi2 {chi}", m.value());
        }
        // The seed-expanded polynomial passes the same tests, limb by limb.
        let ms = moduli();
        let poly = uniform_from_seed(&[6; 32], &ms, n);
        for (i, m) in ms.iter().enumerate() {
            let chi = uniform_stats(&poly[i * n..(i + 1) * n], m.value());
            assert!(chi < CHI_MAX, "expanded q = {}: chi2 {chi}", m.value());
        }
    }

    #[test]
    fn chi_square_catches_modulo_bias() {
        // Power check: `next_u64() % q` for q = 1.5 * 2^60 over-weights [0, 2^64 mod q) by 1/10.
        let q = 3u64 << 59;
        let mut rng = Csprng::from_seed([4; 32]);
        let xs: Vec<u64> = (0..200_000).map(|_| rng.next_u64() % q).collect();
        let n = xs.len() as f64;
        let mut obs = [0usize; 16];
        for &x in &xs {
            obs[(u128::from(x) * 16 / u128::from(q)) as usize] += 1;
        }
        let chi: f64 = obs
            .iter()
            .map(|&o| (o as f64 - n / 16.0).powi(2) / (n / 16.0))
            .sum();
        assert!(chi > 3.0 * CHI_MAX, "chi2 {chi}");
    }

    #[test]
    fn fill_words_continues_next_u64() {
        // From word positions before, inside and across the kernel's batches, and an odd 32-bit
        // position (after 4 bytes) where the kernel cannot start: the words of next_u64, and the
        // generator resumes right after them.
        for skip in [0usize, 1, 7, 16, 17, 300] {
            for (odd, len) in [
                (false, 0usize),
                (false, 5),
                (false, 511),
                (false, 512),
                (false, 4099),
                (true, 2048),
            ] {
                let (mut a, mut b) = (Csprng::from_seed([9; 32]), Csprng::from_seed([9; 32]));
                if odd {
                    a.fill_bytes(&mut [0u8; 4]);
                    b.fill_bytes(&mut [0u8; 4]);
                }
                for _ in 0..skip {
                    a.next_u64();
                    b.next_u64();
                }
                let mut got = vec![0u64; len];
                a.fill_words(&mut got);
                let want: Vec<u64> = (0..len).map(|_| b.next_u64()).collect();
                assert_eq!(got, want, "skip {skip}, odd {odd}, len {len}");
                assert_eq!(a.next_u64(), b.next_u64(), "after: skip {skip}, len {len}");
            }
        }
    }

    #[test]
    fn state_is_plain_data() {
        // The Drop wipe relies on ChaCha20Rng having no drop glue.
        assert!(!core::mem::needs_drop::<ChaCha20Rng>());
    }

    #[test]
    fn seeded_is_deterministic_and_os_is_not() {
        let mut a = Csprng::from_seed([1; 32]);
        let mut b = Csprng::from_seed([1; 32]);
        let mut c = Csprng::from_seed([2; 32]);
        let (xa, xb, xc): (Vec<u64>, Vec<u64>, Vec<u64>) = (
            (0..8).map(|_| a.next_u64()).collect(),
            (0..8).map(|_| b.next_u64()).collect(),
            (0..8).map(|_| c.next_u64()).collect(),
        );
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
        let mut o1 = Csprng::from_os_entropy().unwrap();
        let mut o2 = Csprng::from_os_entropy().unwrap();
        let y1: Vec<u64> = (0..8).map(|_| o1.next_u64()).collect();
        let y2: Vec<u64> = (0..8).map(|_| o2.next_u64()).collect();
        assert_ne!(y1, y2);
        assert_ne!(y1, xa);
        let mut bytes = [0u8; 40];
        o1.fill_bytes(&mut bytes);
        assert!(bytes.iter().any(|&x| x != 0));
        assert_eq!(format!("{o1:?}"), "Csprng { .. }");
    }

    #[test]
    fn fill_uniform_checks_length_and_range() {
        let ms = moduli();
        let mut rng = Csprng::from_seed([3; 32]);
        let mut out = vec![0u64; ms.len() * 64 - 1];
        assert!(matches!(
            rng.fill_uniform(&ms, 64, &mut out),
            Err(Error::LengthMismatch { .. })
        ));
        let mut out = vec![u64::MAX; ms.len() * 64];
        rng.fill_uniform(&ms, 64, &mut out).unwrap();
        for (i, m) in ms.iter().enumerate() {
            assert!(out[i * 64..(i + 1) * 64].iter().all(|&x| x < m.value()));
        }
        rng.fill_uniform(&ms, 0, &mut []).unwrap();
        assert_eq!(rng.uniform_poly(&ms, 8).len(), ms.len() * 8);
    }

    #[test]
    fn seed_expansion_is_deterministic_and_separated() {
        let ms = moduli();
        let n = 256;
        let s = [9u8; 32];
        let a = uniform_from_seed(&s, &ms, n);
        assert_eq!(a, uniform_from_seed(&s, &ms, n));
        assert_eq!(a, uniform_from_seed_indexed(&s, 0, &ms, n));
        assert_ne!(a, uniform_from_seed_indexed(&s, 1, &ms, n));
        assert_ne!(a, uniform_from_seed(&[8u8; 32], &ms, n));
        // Not the keystream of a Csprng under the same seed.
        assert_ne!(a, Csprng::from_seed(s).uniform_poly(&ms, n));
        assert_ne!(a, Csprng::from_os_entropy().unwrap().uniform_poly(&ms, n));
        // Limb i depends only on (seed, index, i, q_i, n): a prefix basis reproduces the prefix.
        let b = uniform_from_seed(&s, &ms[..2], n);
        assert_eq!(b[..], a[..2 * n]);
        // Two equal moduli still get independent limbs.
        let same = [ms[1], ms[1]];
        let c = uniform_from_seed(&s, &same, n);
        assert_ne!(c[..n], c[n..]);
        // A sub-basis at its positions in the full basis (limbs 0, 2, 4) reproduces those limbs.
        let sub = [ms[0], ms[2], ms[4]];
        let d = uniform_from_seed_at(&s, 3, &sub, &[0, 2, 4], n);
        let full = uniform_from_seed_indexed(&s, 3, &ms, n);
        for (j, i) in [0usize, 2, 4].into_iter().enumerate() {
            assert_eq!(d[j * n..(j + 1) * n], full[i * n..(i + 1) * n]);
        }
        assert_ne!(d, uniform_from_seed_indexed(&s, 3, &sub, n));
    }
}
