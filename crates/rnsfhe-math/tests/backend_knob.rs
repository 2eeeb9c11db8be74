//! The process-wide backend knob: `RNSFHE_BACKEND` read once, `set_backend` overriding it, refusal of a
//! backend the CPU lacks, and every kernel without an explicit backend following the ceiling. One test
//! function: the knob is global to the process.
#![allow(clippy::unwrap_used)] // a test aborts loudly on a set-up error

#[path = "support/skip.rs"]
mod skip;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::{
    available_backends, backend_for, backend_from_env, detected_backend, ntt_primes, vector,
    Modulus,
};
use rnsfhe_math::ntt::{CyclicNttTable, NttTable};
use rnsfhe_math::{backend, set_backend, Backend, Error};

const ALL: [Backend; 4] = [
    Backend::Scalar,
    Backend::Avx2,
    Backend::Avx512,
    Backend::Avx512Ifma,
];

#[test]
fn knob_sets_the_ceiling_and_refuses_missing_features() {
    // The environment is read on the first call: forcing scalar works on every CPU.
    std::env::set_var("RNSFHE_BACKEND", " Scalar ");
    assert_eq!(backend_from_env().unwrap(), Some(Backend::Scalar));
    assert_eq!(backend(), Backend::Scalar);
    let q60 = Modulus::new(ntt_primes(60, 1 << 11, 1, &[]).unwrap()[0]).unwrap();
    let q49 = Modulus::new(ntt_primes(49, 1 << 11, 1, &[]).unwrap()[0]).unwrap();
    for q in [q60, q49] {
        assert_eq!(
            NttTable::new(q, 1 << 10).unwrap().backend(),
            Backend::Scalar
        );
        assert_eq!(vector::mul_backend(&q), Backend::Scalar);
    }
    // Read once: a later change of the variable has no effect.
    std::env::set_var("RNSFHE_BACKEND", "avx2");
    assert_eq!(backend(), Backend::Scalar);

    std::env::set_var("RNSFHE_BACKEND", "avx3");
    let e = backend_from_env().unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("avx3")),
        "{e}"
    );
    std::env::set_var("RNSFHE_BACKEND", "");
    assert_eq!(backend_from_env().unwrap(), None);

    for b in ALL {
        assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        match set_backend(b) {
            Ok(()) => {
                assert!(b.is_supported());
                assert_eq!(backend(), b);
                for q in [q60, q49] {
                    let want = available_backends(&q)
                        .into_iter()
                        .find(|&a| {
                            a == b
                                || a == Backend::Scalar
                                || (b == Backend::Avx512Ifma && a == Backend::Avx512)
                        })
                        .unwrap();
                    assert_eq!(backend_for(&q), want, "{b} for {} bits", q.bits());
                    assert_eq!(NttTable::new(q, 1 << 10).unwrap().backend(), want);
                    assert_eq!(CyclicNttTable::new(q, 1 << 10).unwrap().backend(), want);
                    assert_eq!(vector::mul_backend(&q), want);
                    assert_eq!(vector::shoup_backend(&q), want);
                }
            }
            Err(e) => {
                assert!(!b.is_supported());
                assert!(
                    matches!(&e, Error::InvalidParameters(m) if m.contains(b.name())),
                    "{e}"
                );
                std::env::set_var("RNSFHE_BACKEND", b.name());
                assert!(backend_from_env().is_err());
            }
        }
    }
    let mut reference = None;
    for b in ALL.into_iter().filter(|&b| {
        skip::runs(
            b,
            "backend_knob::knob_sets_the_ceiling_and_refuses_missing_features",
        )
    }) {
        set_backend(b).unwrap();
        default_kernels_match_u128(b);
        inner_products_match_u128(b);
        shoup2_add_matches_u128(b);
        let mut got = conversions();
        got.extend(automorphisms());
        // Scalar comes first in ALL: every other backend must reproduce its words.
        match &reference {
            None => reference = Some(got),
            Some(want) => assert!(got == *want, "conversions on {b} differ from scalar"),
        }
    }
    set_backend(detected_backend()).unwrap();
    assert_eq!(backend(), detected_backend());
}

/// The kernels without a backend argument (they follow the ceiling) against u128 arithmetic: random
/// values and the edges 0, q - 1, lengths that leave tails after 4- and 8-lane vectors.
fn default_kernels_match_u128(b: Backend) {
    let mut rng = StdRng::seed_from_u64(0x6b6e_6f62);
    for bits in [2u32, 30, 50, 61, 62] {
        let q = Modulus::new(if bits == 2 {
            3
        } else {
            ntt_primes(bits, 1 << 11, 1, &[]).unwrap()[0]
        })
        .unwrap();
        let (qv, big) = (q.value(), u128::from(q.value()));
        for n in [0usize, 1, 3, 4, 5, 8, 13, 37] {
            let rand = |rng: &mut StdRng| -> Vec<u64> {
                (0..n).map(|_| rng.random_range(0..qv)).collect()
            };
            let edge: Vec<u64> = (0..n)
                .map(|i| if i % 3 == 0 { qv - 1 } else { 0 })
                .collect();
            for (a, c) in [
                (rand(&mut rng), rand(&mut rng)),
                (edge.clone(), vec![qv - 1; n]),
                (rand(&mut rng), edge.clone()),
            ] {
                let ctx = format!("{b}, q = {qv}, n = {n}");
                let (wide_a, wide_c): (Vec<u128>, Vec<u128>) = (
                    a.iter().map(|&x| u128::from(x)).collect(),
                    c.iter().map(|&x| u128::from(x)).collect(),
                );
                let mut x = a.clone();
                vector::add_assign(&q, &mut x, &c);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == (s + t) % big),
                    "add, {ctx}"
                );
                let mut x = a.clone();
                vector::sub_assign(&q, &mut x, &c);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == (s + big - t) % big),
                    "sub, {ctx}"
                );
                let mut x = a.clone();
                vector::mul_assign(&q, &mut x, &c);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == s * t % big),
                    "mul, {ctx}"
                );
                // The out-of-place forms write every word of a garbage output.
                let mut x = vec![u64::MAX; n];
                vector::mul_into(&q, &a, &c, &mut x);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == s * t % big),
                    "mul_into, {ctx}"
                );
                let mut x = vec![u64::MAX; n];
                vector::add_into(&q, &a, &c, &mut x);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == (s + t) % big),
                    "add_into, {ctx}"
                );
                let mut x = vec![u64::MAX; n];
                vector::sub_into(&q, &a, &c, &mut x);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == (s + big - t) % big),
                    "sub_into, {ctx}"
                );
                let w = q.shoup(a.first().copied().unwrap_or(qv - 1));
                let mut x = c.clone();
                vector::mul_shoup_scalar_acc(&q, &mut x, &a, w);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == (s * u128::from(w.value) + t) % big),
                    "mul_shoup_scalar_acc, {ctx}"
                );
                let mut x = c.clone();
                vector::mul_add_assign(&q, &mut x, &a, &c);
                assert!(
                    x.iter()
                        .zip(wide_a.iter().zip(&wide_c))
                        .all(|(&r, (&s, &t))| u128::from(r) == (s * t + t) % big),
                    "mul_add, {ctx}"
                );
                let w = q.shoup(c.first().copied().unwrap_or(qv - 1));
                let mut x = a.clone();
                vector::mul_shoup_scalar_assign(&q, &mut x, w);
                assert!(
                    x.iter()
                        .zip(&wide_a)
                        .all(|(&r, &s)| u128::from(r) == s * u128::from(w.value) % big),
                    "shoup, {ctx}"
                );
                // Reduction from [0, 2q) and the centred lift from a 40-bit modulus.
                let twice: Vec<u64> = a.iter().zip(&c).map(|(&s, &t)| s + t).collect();
                let mut x = vec![0; n];
                vector::reduce_into(&q, 2 * qv, &twice, &mut x);
                assert!(
                    x.iter().zip(&twice).all(|(&r, &s)| r == s % qv),
                    "reduce_into, {ctx}"
                );
                // Barrett from any u64 (random words and the edges u64::MAX, q, 4q - 1).
                let words: Vec<u64> = (0..n)
                    .map(|i| match i % 4 {
                        0 => u64::MAX,
                        1 => qv.wrapping_mul(4).wrapping_sub(1),
                        2 => qv,
                        _ => rng.random(),
                    })
                    .collect();
                vector::reduce_into(&q, u64::MAX, &words, &mut x);
                assert!(
                    x.iter().zip(&words).all(|(&r, &s)| r == s % qv),
                    "reduce_into any u64, {ctx}"
                );
                // Inner products of 1, 15 and 20 rows (20 rows of 62-bit q exceed 128-bit sums).
                for rows in [1usize, 15, 20] {
                    let ra: Vec<Vec<u64>> = (0..rows)
                        .map(|j| {
                            if j % 2 == 0 {
                                vec![qv - 1; n]
                            } else {
                                rand(&mut rng)
                            }
                        })
                        .collect();
                    let rb: Vec<Vec<u64>> = (0..rows)
                        .map(|j| {
                            if j % 3 == 0 {
                                vec![qv - 1; n]
                            } else {
                                rand(&mut rng)
                            }
                        })
                        .collect();
                    let (sa, sb): (Vec<&[u64]>, Vec<&[u64]>) = (
                        ra.iter().map(Vec::as_slice).collect(),
                        rb.iter().map(Vec::as_slice).collect(),
                    );
                    vector::inner_product(&q, &sa, &sb, &mut x);
                    for t in 0..n {
                        let want = (0..rows).fold(0u128, |acc, j| {
                            (acc + u128::from(ra[j][t]) * u128::from(rb[j][t])) % big
                        });
                        assert_eq!(
                            u128::from(x[t]),
                            want,
                            "inner_product, {rows} rows, t = {t}, {ctx}"
                        );
                    }
                }
                let from = Modulus::new(ntt_primes(40, 1 << 11, 1, &[]).unwrap()[0]).unwrap();
                let src: Vec<u64> = (0..n)
                    .map(|i| match i % 3 {
                        0 => from.value() / 2,
                        1 => from.value() / 2 + 1,
                        _ => rng.random_range(0..from.value()),
                    })
                    .collect();
                vector::lift_centered(&from, &q, &src, &mut x);
                assert!(
                    x.iter()
                        .zip(&src)
                        .all(|(&r, &s)| r == q.reduce_i64(from.center(s))),
                    "lift_centered, {ctx}"
                );
                // The lift from a slightly larger prime of the same width (from in (q, 2q)), and
                // the lift into q from itself minus nothing (from = q).
                if bits > 2 {
                    let ps = ntt_primes(bits, 1 << 11, 2, &[]).unwrap();
                    let (up, q2) = (Modulus::new(ps[0]).unwrap(), Modulus::new(ps[1]).unwrap());
                    for (from, into) in [(&up, &q2), (&q, &q)] {
                        let src: Vec<u64> = (0..n)
                            .map(|i| match i % 4 {
                                0 => from.value() / 2,
                                1 => from.value() - 1,
                                _ => rng.random_range(0..from.value()),
                            })
                            .collect();
                        let mut y = vec![0; n];
                        vector::lift_centered(from, into, &src, &mut y);
                        assert!(
                            y.iter()
                                .zip(&src)
                                .all(|(&r, &s)| r == into.reduce_i64(from.center(s))),
                            "lift_centered from {} into {}, {ctx}",
                            from.value(),
                            into.value()
                        );
                    }
                }
            }
        }
    }
}

/// The key-switching inner product against u128 sums for the widths of the key-switching layouts (43-bit
/// special primes, 55-61-bit ciphertext primes, the edges 2^59 + 1, 2^60 - 1, 2^60 + 1 around the AVX2
/// split-sum kernel's limit and 2^61 - 1), 0..=9 and 17 rows (several blocks of rows for 60-bit q), all
/// operands q - 1 (the largest sums) or random, and tails after 4- and 8-lane vectors.
fn inner_products_match_u128(b: Backend) {
    let mut rng = StdRng::seed_from_u64(0x696e_6e72);
    let mut qs: Vec<u64> = [43u32, 50, 55, 58, 59, 60, 61]
        .iter()
        .map(|&bits| ntt_primes(bits, 1 << 11, 1, &[]).unwrap()[0])
        .collect();
    qs.extend([(1 << 59) + 1, (1 << 60) - 1, (1 << 60) + 1, (1 << 61) - 1]);
    for qv in qs {
        let q = Modulus::new(qv).unwrap();
        let n = 37;
        for rows in (0usize..=9).chain([17]) {
            for max in [true, false] {
                let mut rows_of = || -> Vec<Vec<u64>> {
                    (0..rows)
                        .map(|_| {
                            (0..n)
                                .map(|_| if max { qv - 1 } else { rng.random_range(0..qv) })
                                .collect()
                        })
                        .collect()
                };
                let (ra, rb) = (rows_of(), rows_of());
                let (sa, sb): (Vec<&[u64]>, Vec<&[u64]>) = (
                    ra.iter().map(Vec::as_slice).collect(),
                    rb.iter().map(Vec::as_slice).collect(),
                );
                let mut x = vec![u64::MAX; n];
                vector::inner_product(&q, &sa, &sb, &mut x);
                for (t, &got) in x.iter().enumerate() {
                    let want = (0..rows).fold(0u128, |acc, j| {
                        (acc + u128::from(ra[j][t]) * u128::from(rb[j][t])) % u128::from(qv)
                    });
                    assert_eq!(
                        u128::from(got),
                        want,
                        "inner_product on {b}, q = {qv}, {rows} rows, t = {t}"
                    );
                }
            }
        }
    }
}

/// `mul_shoup2_add` (x wx + y wy + c mod q, any 64-bit x and y) and `sub_mul_shoup` ((x - y + c) w, reduced
/// words) against u128 arithmetic: 2- to 62-bit q,
/// random words, the edges 0, q - 1, q, 2^64 - 1, constants 0 and q - 1, tails after 4 lanes.
fn shoup2_add_matches_u128(b: Backend) {
    let mut rng = StdRng::seed_from_u64(0x7368_7032);
    for bits in [2u32, 30, 43, 59, 60, 61, 62] {
        let qv = if bits == 2 {
            3
        } else {
            ntt_primes(bits, 1 << 11, 1, &[]).unwrap()[0]
        };
        let q = Modulus::new(qv).unwrap();
        let n = 23;
        let word = |rng: &mut StdRng, i: usize| match i % 5 {
            0 => u64::MAX,
            1 => qv - 1,
            2 => qv,
            3 => 0,
            _ => rng.random(),
        };
        for (wx, wy, c) in [
            (qv - 1, qv - 1, qv - 1),
            (1, 0, 0),
            (rng.random(), rng.random(), 1),
        ] {
            let x: Vec<u64> = (0..n).map(|i| word(&mut rng, i)).collect();
            let y: Vec<u64> = (0..n).map(|i| word(&mut rng, i + 2)).collect();
            let (wx, wy) = (q.shoup(wx), q.shoup(wy));
            let mut out = vec![u64::MAX; n];
            vector::mul_shoup2_add(&q, (&x, wx), (&y, wy), c % qv, &mut out);
            // sub_mul_shoup on the reduced words: (x - y + c) w.
            let (xr, yr): (Vec<u64>, Vec<u64>) = (
                x.iter().map(|v| v % qv).collect(),
                y.iter().map(|v| v % qv).collect(),
            );
            let mut sub = vec![u64::MAX; n];
            vector::sub_mul_shoup(&q, &xr, &yr, c % qv, wx, &mut sub);
            for t in 0..n {
                let want = ((u128::from(xr[t]) + u128::from(qv) - u128::from(yr[t])
                    + u128::from(c % qv))
                    * u128::from(wx.value))
                    % u128::from(qv);
                assert_eq!(
                    u128::from(sub[t]),
                    want,
                    "sub_mul_shoup on {b}, q = {qv}, t = {t}"
                );
            }
            for t in 0..n {
                let want = (u128::from(x[t]) * u128::from(wx.value)
                    + u128::from(y[t]) * u128::from(wy.value)
                    + u128::from(c % qv))
                    % u128::from(qv);
                assert_eq!(
                    u128::from(out[t]),
                    want,
                    "mul_shoup2_add on {b}, q = {qv}, t = {t}"
                );
            }
        }
    }
}

/// Residues (limb-major, n per limb) of x_j = floor((j' + 1/2 + e_j) Q / t) with offsets e_j = +-2^-b,
/// b in 46..=66: integers whose t x / Q sits just above or below a half-integer, where a rounding with
/// less than b bits of fraction flips (the inputs on which scale-and-round's backends once differed).
fn near_half(
    basis: &rnsfhe_math::rns::RnsBasis,
    q: &num_bigint::BigUint,
    t: u64,
    n: usize,
) -> Vec<u64> {
    use num_bigint::BigUint;
    let xs: Vec<BigUint> = (0..n as u64)
        .map(|j| {
            let b = 46 + (j / 2) % 21;
            let half = BigUint::from(2 * (j * 7919 % t) + 1) << 69u32;
            let e = BigUint::from(1u32) << (70 - b);
            let num = if j % 2 == 0 { half + e } else { half - e };
            (num * q / (BigUint::from(t) << 70u32)) % q
        })
        .collect();
    basis
        .moduli()
        .iter()
        .flat_map(|m| {
            let v: Vec<u64> = xs
                .iter()
                .map(|x| (x % m.value()).iter_u64_digits().next().unwrap_or(0))
                .collect();
            v
        })
        .collect()
}

/// FastBconv, FHBE (on FastBconv's dot-product kernel), and scale-and-round (HPS decryption and
/// multiplication) on random residues and on inputs next to a rounding boundary, n = 64 (the vector
/// kernels' multiples), their words concatenated: compared across backends, bit for bit.
fn conversions() -> Vec<u64> {
    use rnsfhe_math::rns::{
        BaseConverter, FastBaseConverter, FhbeConverter, RnsBasis, ScaleAndRound,
    };
    let mut rng = StdRng::seed_from_u64(0x636f_6e76);
    let n = 64;
    let mut words = Vec::new();
    for (k, bits, cs) in [
        (12usize, 30u32, &[2usize, 3, 6][..]),
        (8, 49, &[2, 4][..]),
        (6, 60, &[2, 3][..]),
        (4, 62, &[2][..]),
    ] {
        let primes = ntt_primes(bits, 2, 2 * k, &[]).unwrap();
        let (q, p) = (
            RnsBasis::new(&primes[..k]).unwrap(),
            RnsBasis::new(&primes[k..]).unwrap(),
        );
        let residues = |basis: &RnsBasis, rng: &mut StdRng| -> Vec<u64> {
            basis
                .moduli()
                .iter()
                .flat_map(|m| {
                    let v: Vec<u64> = (0..n)
                        .map(|j| match j % 5 {
                            0 => m.value() - 1,
                            1 => 0,
                            _ => rng.random_range(0..m.value()),
                        })
                        .collect();
                    v
                })
                .collect()
        };
        let input = residues(&q, &mut rng);
        let mut out = vec![0u64; k * n];
        FastBaseConverter::new(&q, &p)
            .convert(&input, &mut out)
            .unwrap();
        for &c in cs {
            let mut fhbe = vec![0u64; k * n];
            FhbeConverter::new(&q, &p, c)
                .unwrap()
                .convert(&input, &mut fhbe)
                .unwrap();
            assert_eq!(fhbe, out, "FHBE c = {c}, {k} x {bits}");
        }
        words.extend(out);
        for t in [2u64, 65537] {
            let mut dec = vec![0u64; n];
            ScaleAndRound::to_plain(&q, t, true)
                .unwrap()
                .apply(&input, &mut dec)
                .unwrap();
            words.extend(dec);
            // Next to a boundary: the plain (folded) and extension forms of HPS on the same integers.
            let edge = near_half(&q, q.product(), t, n);
            let mut dec = vec![0u64; n];
            ScaleAndRound::to_plain(&q, t, true)
                .unwrap()
                .apply(&edge, &mut dec)
                .unwrap();
            // Offsets of 2^-56 or more (b <= 56) are beyond every backend's error (k 2^-64): the exact
            // rounding is j' + 1 above the half, j' below it.
            for (j, &d) in dec
                .iter()
                .enumerate()
                .filter(|(j, _)| 46 + (j / 2) % 21 <= 56)
            {
                let want = (j as u64 * 7919 % t + u64::from(j % 2 == 0)) % t;
                assert_eq!(
                    d, want,
                    "HPS decryption next to a half, j = {j}, {k} x {bits}"
                );
            }
            words.extend(dec);
            let mut mul = vec![0u64; k * n];
            let mut edge_ext = edge.clone();
            edge_ext.extend(near_half(&p, q.product(), t, n));
            ScaleAndRound::to_extension(&q, &p, t)
                .unwrap()
                .apply(&edge_ext, &mut mul)
                .unwrap();
            words.extend(mul);
            let mut ext = input.clone();
            ext.extend(residues(&p, &mut rng));
            let mut mul = vec![0u64; k * n];
            ScaleAndRound::to_extension(&q, &p, t)
                .unwrap()
                .apply(&ext, &mut mul)
                .unwrap();
            words.extend(mul);
        }
    }
    words
}

/// Automorphisms X -> X^g in both representations (n = 2^10, three 60-bit limbs, random residues with
/// the edges 0 and q - 1), the coefficient form against its definition X^j -> (-1)^floor(jg / n) X^(jg
/// mod n); the words of both forms, to compare across backends.
fn automorphisms() -> Vec<u64> {
    use rnsfhe_math::ring::{Poly, Representation, RingContext};
    let mut rng = StdRng::seed_from_u64(0x6175_746f);
    let n = 1usize << 10;
    let moduli = ntt_primes(60, 2 * n as u64, 3, &[]).unwrap();
    let ctx = RingContext::new(n, &moduli).unwrap();
    let data: Vec<u64> = moduli
        .iter()
        .flat_map(|&q| {
            let v: Vec<u64> = (0..n)
                .map(|j| match j % 7 {
                    0 => 0,
                    1 => q - 1,
                    _ => rng.random_range(0..q),
                })
                .collect();
            v
        })
        .collect();
    let mut words = Vec::new();
    for g in [3i64, 5, -1, 2 * n as i64 - 3, 12_345] {
        let a = Poly::from_residues(&ctx, data.clone(), Representation::Coefficient).unwrap();
        let s = a.automorphism(g).unwrap();
        let ge = g.rem_euclid(2 * n as i64) as usize;
        for (i, &q) in moduli.iter().enumerate() {
            let mut want = vec![0u64; n];
            for j in 0..n {
                let (e, x) = ((j * ge) % (2 * n), data[i * n + j]);
                if e < n {
                    want[e] = x;
                } else {
                    want[e - n] = (q - x) % q;
                }
            }
            assert_eq!(&s.residues()[i * n..(i + 1) * n], &want[..], "g = {g}");
        }
        words.extend_from_slice(s.residues());
        let a = Poly::from_residues(&ctx, data.clone(), Representation::Ntt).unwrap();
        words.extend_from_slice(a.automorphism(g).unwrap().residues());
    }
    words
}
