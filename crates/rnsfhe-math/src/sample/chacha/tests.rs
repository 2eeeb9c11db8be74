//! Every kernel against `rand_chacha` (the reference): raw keystream and rejection sampling, bit for bit.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use super::{Kernel, Keystream, BATCH_BLOCKS};
use crate::arith::{Backend, Modulus};
use crate::sample::csprng::EXPAND_STREAM;
use crate::sample::{uniform_from_seed_at, uniform_from_seed_at_with, Csprng};

/// Every kernel this CPU runs (scalar always).
fn kernels() -> Vec<Kernel> {
    let mut ks: Vec<Kernel> = [Backend::Scalar, Backend::Avx2, Backend::Avx512]
        .into_iter()
        .filter_map(Kernel::of)
        .collect();
    ks.dedup();
    ks
}

/// The kernels `test` runs: [`kernels`] without the SIMD ones the CPU lacks (recorded as skipped).
fn tested_kernels(test: &str) -> Vec<Kernel> {
    let mut ks: Vec<Kernel> = [Backend::Scalar, Backend::Avx2, Backend::Avx512]
        .into_iter()
        .filter(|&b| crate::skip::runs(b, test))
        .filter_map(Kernel::of)
        .collect();
    ks.dedup();
    ks
}

/// Seeds and streams from a fixed generator, plus edge values.
fn cases(count: usize) -> Vec<([u8; 32], u64)> {
    let mut g = ChaCha20Rng::from_seed([0x5a; 32]);
    let mut out = vec![
        ([0u8; 32], 0),
        ([0xff; 32], u64::MAX),
        ([1; 32], EXPAND_STREAM),
    ];
    while out.len() < count {
        let mut seed = [0u8; 32];
        g.fill_bytes(&mut seed);
        out.push((seed, g.next_u64()));
    }
    out
}

fn reference(seed: &[u8; 32], stream: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(*seed);
    rng.set_stream(stream);
    rng
}

#[test]
fn kernels_cover_the_cpu() {
    let ks = kernels();
    assert_eq!(ks[0], Kernel::Scalar);
    #[cfg(target_arch = "x86_64")]
    {
        assert_eq!(ks.contains(&Kernel::Avx2), is_x86_feature_detected!("avx2"));
        assert_eq!(
            ks.contains(&Kernel::Avx512),
            is_x86_feature_detected!("avx512f")
        );
    }
}

#[test]
fn keystream_matches_rand_chacha() {
    // Chunk lengths that straddle refills at every offset.
    let chunks = [1usize, 7, 8, 9, 63, 64, 65, 127, 128, 129, 300, 1000];
    for kernel in tested_kernels("sample::chacha::keystream_matches_rand_chacha") {
        for (seed, stream) in cases(40) {
            let mut rng = reference(&seed, stream);
            let mut ks = Keystream::new(&seed, stream, kernel);
            for &len in &chunks {
                let mut got = vec![0u64; len];
                ks.fill(&mut got);
                let want: Vec<u64> = (0..len).map(|_| rng.next_u64()).collect();
                assert_eq!(got, want, "{kernel:?} stream {stream:#x} chunk {len}");
            }
        }
    }
}

#[test]
fn counter_carries_into_the_high_word() {
    // Start BATCH_BLOCKS / 2 blocks below 2^32: one refill crosses the carry into word 13.
    let start = (1u64 << 32) - (BATCH_BLOCKS as u64) / 2;
    for kernel in tested_kernels("sample::chacha::counter_carries_into_the_high_word") {
        let (seed, stream) = ([3u8; 32], 11);
        let mut rng = reference(&seed, stream);
        rng.set_word_pos(u128::from(start) * 16);
        let mut ks = Keystream::new(&seed, stream, kernel);
        ks.counter = start;
        let mut got = vec![0u64; 3 * 8 * BATCH_BLOCKS];
        ks.fill(&mut got);
        let want: Vec<u64> = got.iter().map(|_| rng.next_u64()).collect();
        assert_eq!(got, want, "{kernel:?}");
    }
}

/// Moduli of 2 to 62 bits: just above a power of two (acceptance ~1/2, many rejections) and just below.
fn moduli() -> Vec<Modulus> {
    let mut qs = vec![2u64, 3, 17];
    for bits in [17u32, 20, 31, 32, 33, 40, 50, 52, 55, 59, 60, 61, 62] {
        qs.push((1 << (bits - 1)) + 1);
        qs.push((1 << bits) - 1);
    }
    qs.push(0x0fff_ffff_fffc_0001);
    qs.into_iter()
        .filter_map(|q| Modulus::new(q).ok())
        .collect()
}

#[test]
fn uniform_matches_csprng_uniform_mod() {
    let lens = [0usize, 1, 5, 127, 128, 129, 1000, 4096 + 3];
    for kernel in tested_kernels("sample::chacha::uniform_matches_csprng_uniform_mod") {
        for (c, (seed, stream)) in cases(6).into_iter().enumerate() {
            for m in moduli() {
                let len = lens[c % lens.len()] + m.bits() as usize;
                let mut want = Csprng::expansion(&seed, stream);
                let want: Vec<u64> = (0..len).map(|_| want.uniform_mod(&m)).collect();
                let mut got = vec![u64::MAX; len];
                let mut ks = Keystream::new(&seed, EXPAND_STREAM | stream, kernel);
                ks.fill_uniform(&m, &mut got);
                assert_eq!(got, want, "{kernel:?} q = {} len {len}", m.value());
                // The stream goes on where rejection left it, across calls.
                let mut more = vec![0u64; 77];
                ks.fill_uniform(&m, &mut more);
                let mut rng = Csprng::expansion(&seed, stream);
                let all: Vec<u64> = (0..len + 77).map(|_| rng.uniform_mod(&m)).collect();
                assert_eq!(more, all[len..], "{kernel:?} q = {}", m.value());
            }
        }
    }
}

#[test]
fn expansion_matches_rand_chacha_on_every_backend() {
    let ms = moduli();
    let positions: Vec<usize> = (0..ms.len()).map(|i| 3 * i + 1).collect();
    let n = 300;
    for (seed, stream) in cases(4) {
        let index = stream as u32;
        let mut want = Vec::new();
        for (m, &pos) in ms.iter().zip(&positions) {
            let mut rng = Csprng::expansion(&seed, u64::from(index) << 32 | pos as u64);
            want.extend((0..n).map(|_| rng.uniform_mod(m)));
        }
        assert_eq!(uniform_from_seed_at(&seed, index, &ms, &positions, n), want);
        for b in [
            Backend::Scalar,
            Backend::Avx2,
            Backend::Avx512,
            Backend::Avx512Ifma,
        ] {
            let got = uniform_from_seed_at_with(b, &seed, index, &ms, &positions, n);
            if !crate::skip::runs(
                b,
                "sample::chacha::expansion_matches_rand_chacha_on_every_backend",
            ) {
                assert!(got.is_ok() || !b.is_supported(), "{b}: {got:?}");
                continue;
            }
            assert_eq!(got.unwrap(), want, "{b}");
        }
    }
}

#[test]
fn csprng_bulk_draws_the_words_of_uniform_mod() {
    let ms = moduli();
    // After 0, 1 (odd position: the rand_chacha path) and 3 words of fill_bytes, and a next_u64.
    for skip_words in [0usize, 1, 2, 3] {
        let mut a = Csprng::from_seed([8; 32]);
        let mut b = Csprng::from_seed([8; 32]);
        let mut bytes = vec![0u8; 4 * skip_words];
        a.fill_bytes(&mut bytes);
        b.fill_bytes(&mut bytes);
        assert_eq!(a.next_u64(), b.next_u64());
        for n in [1usize, 20, 600] {
            let got = a.uniform_poly(&ms, n);
            let want: Vec<u64> = ms
                .iter()
                .flat_map(|m| (0..n).map(|_| b.uniform_mod(m)).collect::<Vec<_>>())
                .collect();
            assert_eq!(got, want, "skip {skip_words} n {n}");
            // Both generators resume at the same word.
            assert_eq!(a.next_u64(), b.next_u64(), "skip {skip_words} n {n}");
        }
    }
}

#[test]
fn word_positions_round_trip() {
    for kernel in tested_kernels("sample::chacha::word_positions_round_trip") {
        for pos in [0u128, 2, 14, 16, 30, 2 * 128, 2 * 128 + 6, 1 << 40] {
            let mut rng = reference(&[4; 32], 9);
            rng.set_word_pos(pos);
            let mut ks = Keystream::at_word(&[4; 32], 9, pos, kernel).unwrap();
            assert_eq!(ks.word_pos(), pos);
            let mut got = [0u64; 200];
            ks.fill(&mut got);
            assert_eq!(ks.word_pos(), pos + 400);
            assert!(got.iter().all(|&w| w == rng.next_u64()), "{kernel:?} {pos}");
        }
        assert!(Keystream::at_word(&[4; 32], 9, 3, kernel).is_none());
        assert!(Keystream::at_word(&[4; 32], 9, 1 << 68, kernel).is_none());
    }
}
