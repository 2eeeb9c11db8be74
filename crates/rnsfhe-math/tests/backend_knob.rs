//! The process-wide backend knob: `RNSFHE_BACKEND` read once, `set_backend` overriding it, refusal of a
//! backend the CPU lacks, and every kernel without an explicit backend following the ceiling. One test
//! function: the knob is global to the process.
#![allow(clippy::unwrap_used)] // a test aborts loudly on a set-up error

#[path = "support/kernels_u128.rs"]
mod kernels_u128;
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
        kernels_u128::default_kernels_match_u128(b);
        kernels_u128::inner_products_match_u128(b);
        kernels_u128::shoup2_add_matches_u128(b);
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
