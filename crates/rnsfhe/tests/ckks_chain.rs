//! CKKS chains whose primes differ in width per level ("Parameters": `chain_bits`,
//! `scale_level`): widths honoured, the scales' relation at every level, a product walked down a mixed
//! chain, refusals, bytes and fingerprints, and the chain the bootstrapping preset needs at N = 2^16.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::SecretDistribution;
use rnsfhe::Error;
use rnsfhe_math::arith::is_prime;
use rnsfhe_math::sample::Csprng;

#[path = "support/ckks.rs"]
mod ckks_support;
use ckks_support::top_down_scales;

/// The toy mixed chain of the walk: q_0 of 60 bits | 2 levels of 40 | 3 of 55, scale 2^40 at R = 2.
const MIXED: [u32; 6] = [60, 40, 40, 55, 55, 55];

fn mixed(log_n: u32, bits: &[u32], r: usize) -> CkksParameters {
    CkksParameters::builder()
        .degree(1 << log_n)
        .chain_bits(bits.to_vec())
        .scale_level(r)
        .scale_bits(40)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap()
}

/// The `count` primes = 1 mod m nearest to 2^w (ties: smaller first): the candidates k m + 1 walked
/// outward from 2^w by distance, tested one by one (the reference for the library's approximate
/// basis).
fn nearest_by_trial(w: u32, m: u64, count: usize) -> Vec<u64> {
    let c = 1u64 << w;
    let (mut lo, mut hi) = (c - m + 1, c + 1);
    let mut found = Vec::new();
    while found.len() < count {
        // The nearer candidate first; on a tie the smaller.
        let q = if c - lo <= hi - c { lo } else { hi };
        if q == lo {
            lo -= m;
        } else {
            hi += m;
        }
        if is_prime(q) {
            found.push(q);
        }
    }
    found
}

/// Widths honoured, primes distinct and = 1 mod 2N, each width's primes the nearest to 2^width
/// (bottom first), q_0 the largest of its width not taken, eta a bound on every scaling prime.
#[test]
fn mixed_widths_honoured() {
    for (log_n, bits) in [
        (11, MIXED.to_vec()),
        (12, vec![50, 30, 30, 30, 45, 60, 45, 60, 61]),
        (16, vec![60, 40, 40, 40, 42, 60, 60, 56]),
    ] {
        let p = mixed(log_n, &bits, 1);
        let m = 2u64 << log_n;
        assert_eq!(p.chain_bits(), bits);
        assert_eq!((p.levels(), p.scale_level()), (bits.len() - 1, 1));
        let q = p.moduli();
        let mut all: Vec<u64> = q.iter().chain(p.special_moduli()).copied().collect();
        assert!(all.iter().all(|&x| is_prime(x) && x % m == 1));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), q.len() + p.special_moduli().len());
        let mut taken = Vec::new();
        for w in bits[1..].iter().copied() {
            if taken.contains(&w) {
                continue;
            }
            taken.push(w);
            let levels: Vec<usize> = (1..bits.len()).filter(|&l| bits[l] == w).collect();
            let want = nearest_by_trial(w, m, levels.len());
            let got: Vec<u64> = levels.iter().map(|&l| q[l]).collect();
            assert_eq!(got, want, "width {w}");
        }
        for (l, &x) in q.iter().enumerate().skip(1) {
            let d = (x as f64 / 2f64.powi(bits[l] as i32) - 1.0).abs();
            assert!(d < 2f64.powi(-(p.eta() as i32)), "level {l}");
        }
        let mut below: Vec<u64> = (1..(1u64 << bits[0]) / m)
            .rev()
            .map(|k| k * m + 1)
            .filter(|&x| is_prime(x) && !q[1..].contains(&x))
            .take(1)
            .collect();
        assert_eq!(q[0], below.remove(0));
    }
}

/// Delta_R = 2^scale_bits; Delta_{l-1} = Delta_l^2 / q_l at every level: to the last bit below R
/// (the f64 steps of a rescaled product), within 2^-48 above R; above R each scale is the geometric
/// mean of the one below and its prime.
#[test]
fn scales_relation_every_level() {
    // R up to 2: the 55-bit levels are no levels of the 40-bit scale.
    for r in 0..=2 {
        let p = mixed(11, &MIXED, r);
        let ctx = CkksContext::new(p.clone()).unwrap();
        let q = p.moduli();
        let s: Vec<f64> = (0..q.len()).map(|l| ctx.scale_at(l).unwrap()).collect();
        assert_eq!(s[r], 2f64.powi(40));
        for l in 1..q.len() {
            let rescaled = s[l] * s[l] / q[l] as f64;
            if l <= r {
                assert_eq!(rescaled.to_bits(), s[l - 1].to_bits(), "R = {r}, level {l}");
            } else {
                assert!(
                    (rescaled / s[l - 1] - 1.0).abs() < 2f64.powi(-48),
                    "R = {r}, level {l}"
                );
                let mean = (s[l - 1].log2() + (q[l] as f64).log2()) / 2.0;
                assert!((s[l].log2() - mean).abs() < 1e-9);
            }
        }
    }
    // R = L is the top-down chain of before.
    let p = mixed(11, &[60, 40, 40, 40, 40, 40], 5);
    let ctx = CkksContext::new(p.clone()).unwrap();
    for (l, s) in top_down_scales(&p).iter().enumerate() {
        assert_eq!(ctx.scale_at(l).unwrap().to_bits(), s.to_bits());
    }
}

fn unit_values(rng: &mut u64, k: usize) -> Vec<Complex> {
    (0..k)
        .map(|_| {
            *rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let t = (*rng >> 11) as f64 / (1u64 << 53) as f64 * std::f64::consts::TAU;
            Complex::new(t.cos(), t.sin())
        })
        .collect()
}

/// N = 2^11, 60 | 40 40 | 55 55 55 with R = 2: a fresh ciphertext at the top is multiplied at every
/// level by a fresh encryption at that level (encoded at the level's scale), relinearised and
/// rescaled. Every product's scale Delta_l^2 rescales onto Delta_{l-1} within 2^-48, the rescale
/// keeps the chain's scale exactly, and the slots match the product of the values.
#[test]
fn walk_down_a_mixed_chain() {
    let ctx = CkksContext::new(mixed(11, &MIXED, 2)).unwrap();
    let mut rng = Csprng::from_seed([24; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let mut seed = 11u64;
    let k = ctx.slots();
    let mut want = unit_values(&mut seed, k);
    let top = ctx.max_level();
    let mut c = ctx
        .encrypt(&ctx.encode(&want).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!((c.level(), c.scale()), (top, ctx.scale_at(top).unwrap()));
    for l in (1..=top).rev() {
        let v = unit_values(&mut seed, k);
        let pt = ctx.encode_at(&v, l, ctx.scale_at(l).unwrap()).unwrap();
        let d = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
        let prod = ctx.multiply(&c, &d, &rlk).unwrap();
        let q = ctx.params().moduli()[l] as f64;
        let lands = prod.scale() / q / ctx.scale_at(l - 1).unwrap() - 1.0;
        assert!(lands.abs() < 2f64.powi(-48), "level {l}: {lands:e}");
        c = ctx.rescale(&prod).unwrap();
        assert_eq!(
            (c.level(), c.scale()),
            (l - 1, ctx.scale_at(l - 1).unwrap())
        );
        for (w, x) in want.iter_mut().zip(&v) {
            *w = *w * *x;
        }
        let got = ctx.decrypt_values(&c, &sk).unwrap();
        assert_eq!(got.len(), want.len());
        let err = worst_error(
            got.iter()
                .zip(&want)
                .map(|(a, b)| (a.re - b.re).abs().max((a.im - b.im).abs())),
        );
        println!(
            "level {}: scale 2^{:.2}, error 2^{:.1}",
            l - 1,
            c.scale().log2(),
            err.log2()
        );
        assert!(
            err < 2f64.powi(-24),
            "level {}: error 2^{:.1}",
            l - 1,
            err.log2()
        );
    }
}

/// Widths out of range, too few entries, a scale level above L, q_0 narrower than the scale, a
/// width without enough primes, and levels below R far from the scale are refused, naming them.
#[test]
fn bad_chains_refused() {
    let b = || {
        CkksParameters::builder()
            .degree(1 << 12)
            .security(Security::InsecureResearchOnly)
    };
    let msg = |r: Result<CkksParameters, Error>| r.unwrap_err().to_string();
    assert!(msg(b().chain_bits(vec![60, 40, 19]).build()).contains("chain_bits[2] = 19"));
    assert!(msg(b().chain_bits(vec![60, 62, 40]).build()).contains("chain_bits[1] = 62"));
    assert!(msg(b().chain_bits(vec![60]).build()).contains("1 entries"));
    assert!(msg(b().chain_bits(vec![60; 62]).build()).contains("62 entries"));
    assert!(msg(b().chain_bits(vec![60, 40]).scale_level(2).build()).contains("scale_level R = 2"));
    assert!(msg(b().chain_bits(vec![30, 40]).build()).contains("q_0 of 30 bits"));
    let few = b()
        .degree(1 << 16)
        .scale_bits(20)
        .chain_bits(vec![60, 40, 20, 20, 20, 20, 20, 20, 20, 20])
        .build();
    assert!(matches!(few, Err(Error::NotEnoughPrimes(_))));
    assert!(msg(few).contains("levels [2, 3, 4, 5, 6, 7, 8, 9]"));
    let far = b()
        .chain_bits(vec![60, 30, 40, 40])
        .scale_level(3)
        .build()
        .unwrap();
    let err = CkksContext::new(far).unwrap_err().to_string();
    assert!(err.contains("levels 1..=3 must be near 2^40"), "{err}");
}

/// Mixed parameters round-trip through bytes; the fingerprint tells them from the uniform chain and
/// from the same chain at another scale level; a scale word naming a level below 0 is refused.
#[test]
fn mixed_bytes_and_fingerprints() {
    let p = mixed(11, &MIXED, 2);
    let back = CkksParameters::from_bytes_allowing_insecure(&p.to_bytes()).unwrap();
    assert_eq!(back, p);
    assert_eq!(back.scale_level(), 2);
    let fps = [
        p.fingerprint(),
        mixed(11, &MIXED, 5).fingerprint(),
        mixed(11, &[60, 40, 40, 40, 40, 40], 5).fingerprint(),
    ];
    assert!(fps[0] != fps[1] && fps[1] != fps[2] && fps[0] != fps[2]);
    // The scale word (after the 15-byte header and the degree): L - R = 6 > L = 5.
    let mut bad = p.to_bytes();
    bad[23..27].copy_from_slice(&(40u32 | 6 << 8).to_le_bytes());
    let body = bad.len() - 4;
    let crc = crc32fast::hash(&bad[..body]);
    bad[body..].copy_from_slice(&crc.to_le_bytes());
    let err = CkksParameters::from_bytes_allowing_insecure(&bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("scale level"), "{err}");
}

/// What the bootstrapping preset needs: N = 2^16 at the library's 128-bit gate, q_0 of 60
/// bits | 10 residual levels of 40 (R = 10) | 3 SlotsToCoeffs levels of 42 | 9 EvalMod levels of 60 |
/// 4 CoeffsToSlots levels of 56, the default key-switching layout: for the dense ternary secret and
/// the sparse H = 192 secret (the gate's 89% share of the bound). Both fit: dense, 5 digits of 6
/// primes and 6 special primes of 60 bits (log QP 1710 of 1747); H = 192, 9 digits of 3 and 3 special
/// primes (1530 of 1554.8). Parameters only (no keys): light enough for the normal suite.
#[test]
fn bootstrapping_chain_at_2_16() {
    let mut bits = vec![60];
    bits.extend([40; 10]);
    bits.extend([42; 3]);
    bits.extend([60; 9]);
    bits.extend([56; 4]);
    for (secret, per, max_log_qp) in [
        (SecretDistribution::Ternary, 6, 1747.0),
        (SecretDistribution::HammingWeight(192), 3, 1747.0 * 0.89),
    ] {
        let p = CkksParameters::builder()
            .degree(1 << 16)
            .chain_bits(bits.clone())
            .scale_bits(40)
            .scale_level(10)
            .secret(secret)
            .build()
            .unwrap();
        let specials: Vec<u32> = p
            .special_moduli()
            .iter()
            .map(|&q| (q as f64).log2().round() as u32)
            .collect();
        let log_p: f64 = p.special_moduli().iter().map(|&q| (q as f64).log2()).sum();
        let ctx = CkksContext::new(p.clone()).unwrap();
        let scales: Vec<String> = (0..=p.levels())
            .map(|l| format!("{:.2}", ctx.scale_at(l).unwrap().log2()))
            .collect();
        println!(
            "{secret:?}: log QP {:.1} (log Q {:.1}, log P {log_p:.1}), {} primes per digit, \
             P = {specials:?}, eta {}, scales {scales:?}",
            p.log_qp(),
            p.log_qp() - log_p,
            p.key_switching().digit_primes,
            p.eta()
        );
        assert_eq!(p.chain_bits(), bits);
        assert_eq!(p.key_switching().digit_primes, per);
        assert_eq!(specials, vec![60; per]);
        assert!(p.log_qp() <= max_log_qp);
        // The widest digit (per consecutive primes) is within P.
        let widest = worst_error(
            p.moduli()
                .chunks(per)
                .map(|d| d.iter().map(|&q| (q as f64).log2()).sum::<f64>()),
        );
        assert!(
            widest <= log_p + 0.01,
            "digit 2^{widest:.2}, P 2^{log_p:.2}"
        );
    }
}
