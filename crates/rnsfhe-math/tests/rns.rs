//! Base conversions against exact big-integer arithmetic.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use num_bigint::{BigInt, BigRng09, BigUint};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use rand::SeedableRng;
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::rns::{
    BaseConverter, FastBaseConverter, FastRnsFloor, FhbeConverter, HpsConverter, RnsBasis,
    ScaleAndRound, SkConverter, SmMrqExtension,
};
use rnsfhe_math::Error;

fn bases(k: usize, bits: u32, k2: usize) -> (RnsBasis, RnsBasis) {
    let all = ntt_primes(bits, 2, k + k2, &[]).unwrap();
    (
        RnsBasis::new(&all[..k]).unwrap(),
        RnsBasis::new(&all[k..]).unwrap(),
    )
}

/// Limb-major residues of a batch of integers.
fn encode(basis: &RnsBasis, xs: &[BigInt]) -> Vec<u64> {
    let n = xs.len();
    let mut out = vec![0u64; basis.len() * n];
    for (j, x) in xs.iter().enumerate() {
        for (i, r) in basis.decompose_signed(x).into_iter().enumerate() {
            out[i * n + j] = r;
        }
    }
    out
}

fn column(data: &[u64], n: usize, j: usize, k: usize) -> Vec<u64> {
    (0..k).map(|i| data[i * n + j]).collect()
}

fn random_below(rng: &mut rand::rngs::StdRng, bound: &BigUint, count: usize) -> Vec<BigInt> {
    let mut xs: Vec<BigInt> = (0..count)
        .map(|_| BigInt::from(rng.random_biguint_below(bound)))
        .collect();
    xs.push(BigInt::zero());
    xs.push(BigInt::from(bound - 1u32));
    xs
}

#[test]
fn fast_bconv_alpha_in_range_and_fhbe_identical() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for (k, bits, cs) in [
        (12usize, 62u32, vec![1usize, 2, 3, 4, 6, 12]),
        (26, 30, vec![2, 13]),
        (6, 50, vec![3]),
        (9, 61, vec![3, 9]),
    ] {
        let (src, dst) = bases(k, bits, k);
        let xs = random_below(&mut rng, src.product(), 40);
        let n = xs.len();
        let input = encode(&src, &xs);
        let fast = FastBaseConverter::new(&src, &dst);
        let mut out = vec![0u64; k * n];
        fast.convert(&input, &mut out).unwrap();
        let q = BigInt::from(src.product().clone());
        for (j, x) in xs.iter().enumerate() {
            // The output is x + alpha Q for one alpha in [0, k - 1].
            let got = column(&out, n, j, k);
            let alphas: Vec<usize> = (0..k)
                .filter(|&a| dst.decompose_signed(&(x + &q * a)) == got)
                .collect();
            assert_eq!(
                alphas.len(),
                1,
                "k = {k}, x = {x}: alpha candidates {alphas:?}"
            );
        }
        for c in cs {
            let fhbe = FhbeConverter::new(&src, &dst, c).unwrap();
            let mut out2 = vec![0u64; k * n];
            fhbe.convert(&input, &mut out2).unwrap();
            assert_eq!(out, out2, "k = {k}, c = {c}");
        }
    }
}

#[test]
fn sk_conversion_is_exact_up_to_lambda() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let primes = ntt_primes(40, 2, 5, &[]).unwrap();
    let m_sk = ntt_primes(20, 2, 1, &[]).unwrap()[0];
    let mut b = primes[..3].to_vec();
    b.push(m_sk);
    let b_sk = RnsBasis::new(&b).unwrap();
    let q = RnsBasis::new(&primes[3..]).unwrap();
    let sk = SkConverter::new(&b_sk, &q).unwrap();
    let m = BigInt::from(primes[..3].iter().fold(BigUint::one(), |a, &p| a * p));
    let bound = &m * BigInt::from(sk.lambda());
    let mut xs: Vec<BigInt> = (0..50)
        .map(|_| rng.random_bigint_range(&(-&bound + 1), &bound))
        .collect();
    xs.extend([
        &bound - 1,
        -&bound + 1,
        BigInt::zero(),
        m.clone(),
        -m.clone(),
    ]);
    let n = xs.len();
    let mut out = vec![0u64; 2 * n];
    sk.convert(&encode(&b_sk, &xs), &mut out).unwrap();
    for (j, x) in xs.iter().enumerate() {
        assert_eq!(column(&out, n, j, 2), q.decompose_signed(x), "x = {x}");
    }
    // m_sk too small for |B| = 3.
    assert!(SkConverter::new(
        &RnsBasis::new(&[primes[0], primes[1], primes[2], 7]).unwrap(),
        &q
    )
    .is_err());
}

#[test]
fn hps_conversion_is_exact_centered() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for bits in [30u32, 55, 62] {
        let (src, dst) = bases(6, bits, 4);
        let q = BigInt::from(src.product().clone());
        let half: BigInt = &q / 2u32;
        let eps = &q >> 40u32;
        let mut xs: Vec<BigInt> = (0..60)
            .map(|_| rng.random_bigint_range(&(-&half + 1), &(&half + 1)))
            .collect();
        // Documented limit: exact unless |x| is within k 2^-51 Q of Q/2; test at 2^-40 Q from it.
        xs.extend([
            &half - &eps,
            -&half + &eps + 1,
            BigInt::zero(),
            BigInt::from(-1),
        ]);
        let n = xs.len();
        let mut out = vec![0u64; 4 * n];
        HpsConverter::new(&src, &dst)
            .convert(&encode(&src, &xs), &mut out)
            .unwrap();
        for (j, x) in xs.iter().enumerate() {
            assert!(x.abs() <= half);
            assert_eq!(
                column(&out, n, j, 4),
                dst.decompose_signed(x),
                "{bits} bits, x = {x}"
            );
        }
    }
}

#[test]
fn bad_input() {
    let (src, dst) = bases(6, 40, 3);
    let fast = FastBaseConverter::new(&src, &dst);
    assert!(matches!(
        fast.convert(&[0; 13], &mut [0; 6]),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(matches!(
        fast.convert(&[0; 12], &mut [0; 7]),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(matches!(
        fast.convert(&[], &mut []),
        Err(Error::LengthMismatch { .. })
    ));
    let e = FhbeConverter::new(&src, &dst, 4).unwrap_err();
    assert!(e.to_string().contains("does not divide"), "{e}");
    assert!(FhbeConverter::new(&src, &dst, 0).is_err());
    assert!(SkConverter::new(&RnsBasis::new(&[65537]).unwrap(), &dst).is_err());
    let hps = HpsConverter::new(&src, &dst);
    assert!(hps.convert(&[0; 6], &mut [0; 2]).is_err());
    assert!(fast.precomputed_bytes() > 0 && hps.source().len() == 6 && hps.target().len() == 3);
}

/// round(a / b) for b > 0, ties away from zero never tested (inputs avoid them).
fn round_div(a: &BigInt, b: &BigInt) -> BigInt {
    let two = BigInt::from(2);
    num_integer::Integer::div_floor(&(a * &two + b), &(b * &two))
}

#[test]
fn scale_and_round_to_plain_matches_bigint() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for (bits, k, t) in [
        (30u32, 5usize, 2u64),
        (50, 6, 65537),
        (60, 8, 1 << 20),
        (61, 3, 3),
    ] {
        let (q, _) = bases(k, bits, 1);
        let qb = BigInt::from(q.product().clone());
        let xs = random_below(&mut rng, q.product(), 62);
        let n = xs.len(); // 64: a multiple of 16, so the AVX-512 IFMA path runs where available
        let tb = BigInt::from(t);
        for folded in [true, false] {
            let sr = ScaleAndRound::to_plain(&q, t, folded).unwrap();
            let mut input = encode(&q, &xs);
            if !folded {
                for (i, qi) in q.moduli().iter().enumerate() {
                    let w = q.inv_punctured_products()[i];
                    for v in &mut input[i * n..(i + 1) * n] {
                        *v = qi.mul_shoup(*v, w);
                    }
                }
            }
            let mut out = vec![0u64; n];
            sr.apply(&input, &mut out).unwrap();
            for (j, x) in xs.iter().enumerate() {
                let want = round_div(&(x * &tb), &qb).mod_floor(&tb);
                assert_eq!(
                    BigInt::from(out[j]),
                    want,
                    "{bits} bits t {t} folded {folded}"
                );
            }
        }
    }
}

#[test]
fn scale_and_round_to_extension_matches_bigint() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for (bits, k, kp, t) in [
        (30u32, 4usize, 6usize, 2u64),
        (60, 5, 6, 65537),
        (61, 8, 9, 1 << 30),
    ] {
        let (q, p) = bases(k, bits, kp);
        let s = q.concat(&p).unwrap();
        let qb = BigInt::from(q.product().clone());
        // Documented limit: values within k 2^-63 of a half-integer may round either way; the edge
        // case sits -half + 7Q/5, where t x / Q is 2t/5 + a multiple of 1/2 away from a tie.
        let half = BigInt::from(s.product().clone()) / 2u32;
        let xs: Vec<BigInt> = (0..61)
            .map(|_| rng.random_bigint_range(&(-&half + 1), &half))
            .chain([BigInt::zero(), BigInt::from(-1), -&half + &qb * 7u32 / 5u32])
            .collect();
        let n = xs.len();
        let sr = ScaleAndRound::to_extension(&q, &p, t).unwrap();
        let mut out = vec![0u64; kp * n];
        let input = encode(&s, &xs);
        sr.apply(&input, &mut out).unwrap();
        // The residues of Q and of P apart: the same words (into a buffer of other words); a
        // missing or short part is refused.
        let (xq, xp) = input.split_at(k * n);
        let mut split = vec![u64::MAX; kp * n];
        sr.apply_split(xq, Some(xp), &mut split).unwrap();
        assert_eq!(split, out, "{bits} bits: apply_split");
        assert!(sr.apply_split(xq, None, &mut split).is_err());
        assert!(sr.apply_split(&xq[1..], Some(xp), &mut split).is_err());
        assert!(sr.apply_split(xq, Some(&xp[1..]), &mut split).is_err());
        let tb = BigInt::from(t);
        for (j, x) in xs.iter().enumerate() {
            let want = round_div(&(x * &tb), &qb);
            assert_eq!(
                column(&out, n, j, kp),
                p.decompose_signed(&want),
                "{bits} bits x={x} j={j}"
            );
        }
    }
}

#[test]
fn fast_bconv_with_factor_scales_first() {
    let (q, p) = bases(5, 50, 3);
    let xs: Vec<BigInt> = (0..20u32).map(|i| BigInt::from(i) * 1_000_003u32).collect();
    let n = xs.len();
    let f = 1u64 << 16;
    let mut a = vec![0u64; 3 * n];
    let mut b = vec![0u64; 3 * n];
    FastBaseConverter::with_factor(&q, &p, f)
        .convert(&encode(&q, &xs), &mut a)
        .unwrap();
    let scaled: Vec<BigInt> = xs
        .iter()
        .map(|x| (x * f) % BigInt::from(q.product().clone()))
        .collect();
    FastBaseConverter::new(&q, &p)
        .convert(&encode(&q, &scaled), &mut b)
        .unwrap();
    assert_eq!(a, b);
}

#[test]
fn fast_rns_floor_is_floor_minus_small_error() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    for (bits, k, kb, t) in [
        (30u32, 4usize, 6usize, 1024u64),
        (49, 6, 8, 65537),
        (60, 3, 5, 7),
    ] {
        let (q, b) = bases(k, bits, kb);
        let s = q.concat(&b).unwrap();
        let qb = BigInt::from(q.product().clone());
        let bound = &qb << 20u32;
        let xs: Vec<BigInt> = (0..62)
            .map(|_| rng.random_bigint_range(&(-&bound), &bound))
            .chain([BigInt::zero(), BigInt::from(-1)])
            .collect();
        let n = xs.len();
        let all = encode(&s, &xs);
        let mut out = vec![0u64; kb * n];
        FastRnsFloor::new(&q, &b, t)
            .unwrap()
            .apply(&all[..k * n], &all[k * n..], &mut out)
            .unwrap();
        for (j, x) in xs.iter().enumerate() {
            let got = b.compose_centered(&column(&out, n, j, kb)).unwrap();
            let e = (x * BigInt::from(t)).div_floor(&qb) - got;
            assert!(
                e >= BigInt::zero() && e <= BigInt::from(k),
                "{bits} bits: e = {e}"
            );
        }
    }
}

#[test]
fn smmrq_extension_meets_lemma_4() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for (bits, k, kb, mt) in [
        (30u32, 5usize, 6usize, 1u64 << 8),
        (49, 8, 9, 1 << 16),
        (60, 3, 4, 1 << 16),
    ] {
        let (q, bsk) = bases(k, bits, kb);
        let xs = random_below(&mut rng, q.product(), 62);
        let n = xs.len();
        let mut out = vec![0u64; kb * n];
        SmMrqExtension::new(&q, &bsk, mt)
            .unwrap()
            .apply(&encode(&q, &xs), &mut out)
            .unwrap();
        let qb = BigInt::from(q.product().clone());
        // |c'| <= q/2 + q (k + 1) / m~ (Lemma 4 with tau = k).
        let limit = &qb / 2 + &qb * (k as u64 + 1) / mt;
        for (j, x) in xs.iter().enumerate() {
            let got = bsk.compose_centered(&column(&out, n, j, kb)).unwrap();
            assert_eq!((&got - x).mod_floor(&qb), BigInt::zero(), "congruent mod q");
            assert!(
                got.abs() <= limit,
                "{bits} bits: |c'| = {got} above {limit}"
            );
        }
    }
}

#[test]
fn fast_rns_floor_rounded_is_centred() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for (bits, k, kb) in [
        (60u32, 1usize, 4usize),
        (49, 2, 5),
        (40, 1, 3),
        (48, 1, 4),
        (50, 3, 3),
    ] {
        let (p, q) = bases(k, bits, kb);
        let s = p.concat(&q).unwrap();
        let pb = BigInt::from(p.product().clone());
        let xs = random_below(&mut rng, s.product(), 2046);
        let n = xs.len();
        let all = encode(&s, &xs);
        let mut out = vec![0u64; kb * n];
        FastRnsFloor::rounded(&p, &q)
            .unwrap()
            .apply(&all[..k * n], &all[k * n..], &mut out)
            .unwrap();
        let qb = BigInt::from(q.product().clone());
        let mut sum = 0f64;
        for (j, x) in xs.iter().enumerate() {
            let got = BigInt::from(q.compose(&column(&out, n, j, kb)).unwrap());
            // got = round(x / P) + (k - 1) / 2 - u mod Q, u in [0, k - 1]: the residual x - P got is
            // within P (k / 2 + 1/2) of 0 and has mean 0.
            let r = (x - &pb * &got).mod_floor(&(&pb * &qb));
            let r = if r > (&pb * &qb) / 2 {
                r - &pb * &qb
            } else {
                r
            };
            let ratio = num_traits::ToPrimitive::to_f64(&r).unwrap()
                / num_traits::ToPrimitive::to_f64(&pb).unwrap();
            assert!(
                ratio.abs() <= 0.5 + k as f64 / 2.0,
                "{bits} bits: residual {ratio}"
            );
            sum += ratio;
        }
        let mean = sum / n as f64;
        assert!(mean.abs() < 0.05, "{bits} bits: mean residual {mean}");
    }
}

/// `FastRnsFloor::apply_transformed` with T = the negacyclic NTT gives the bits of NTT(apply(x)), for
/// one and several primes in q, with and without rounding (ModDown of key switching in NTT form).
#[test]
fn fast_rns_floor_in_ntt_form_matches_floor_then_ntt() {
    use rand::Rng;
    use rnsfhe_math::ntt::NttTable;
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let n = 64usize;
    for (bits, k, kb) in [(60u32, 1usize, 4usize), (60, 3, 5), (40, 4, 3)] {
        let all = ntt_primes(bits, 2 * n as u64, k + kb, &[]).unwrap();
        let (q, b) = (
            RnsBasis::new(&all[..k]).unwrap(),
            RnsBasis::new(&all[k..]).unwrap(),
        );
        let s = q.concat(&b).unwrap();
        let xs = random_below(&mut rng, s.product(), n - 2);
        let x = encode(&s, &xs);
        let (xq, xb) = x.split_at(k * n);
        let tables: Vec<NttTable> = b
            .moduli()
            .iter()
            .map(|m| NttTable::new(*m, n).unwrap())
            .collect();
        let mut xb_t = xb.to_vec();
        for (limb, t) in xb_t.chunks_exact_mut(n).zip(&tables) {
            t.forward(limb).unwrap();
        }
        for floor in [
            FastRnsFloor::new(&q, &b, 1).unwrap(),
            FastRnsFloor::rounded(&q, &b).unwrap(),
        ] {
            let mut want = vec![0u64; kb * n];
            floor.apply(xq, xb, &mut want).unwrap();
            for (limb, t) in want.chunks_exact_mut(n).zip(&tables) {
                t.forward(limb).unwrap();
            }
            let mut got = vec![0u64; kb * n];
            floor
                .apply_transformed(xq, &xb_t, &mut got, |j, limb| tables[j].forward(limb))
                .unwrap();
            assert_eq!(got, want, "{bits} bits, k = {k}, {floor:?}");
            // With a coefficient-form addend a in B: the bits of NTT(apply(xq, xb + a)).
            let a: Vec<u64> = b
                .moduli()
                .iter()
                .flat_map(|m| {
                    (0..n)
                        .map(|_| rng.random_range(0..m.value()))
                        .collect::<Vec<_>>()
                })
                .collect();
            let xb_a: Vec<u64> = xb
                .chunks_exact(n)
                .zip(a.chunks_exact(n))
                .zip(b.moduli())
                .flat_map(|((x, y), m)| {
                    x.iter()
                        .zip(y)
                        .map(|(&u, &v)| m.add(u, v))
                        .collect::<Vec<_>>()
                })
                .collect();
            floor.apply(xq, &xb_a, &mut want).unwrap();
            for (limb, t) in want.chunks_exact_mut(n).zip(&tables) {
                t.forward(limb).unwrap();
            }
            floor
                .apply_transformed_plus(xq, &xb_t, &a, &mut got, |j, limb| tables[j].forward(limb))
                .unwrap();
            assert_eq!(got, want, "with addend: {bits} bits, k = {k}, {floor:?}");
            assert!(floor
                .apply_transformed_plus(xq, &xb_t, &a[1..], &mut got, |j, limb| tables[j]
                    .forward(limb))
                .is_err());
            // A small signed addend e, the same in every modulus of B (an encryption error), with
            // entries at its bound: the bits of the same sum with e's residues.
            let bound = 19u64;
            let e: Vec<i64> = (0..n)
                .map(|i| match i % 7 {
                    0 => bound as i64,
                    1 => -(bound as i64),
                    _ => rng.random_range(-(bound as i64)..=bound as i64),
                })
                .collect();
            let e_res: Vec<u64> = b
                .moduli()
                .iter()
                .flat_map(|m| e.iter().map(|&v| m.reduce_i64(v)).collect::<Vec<_>>())
                .collect();
            floor
                .apply_transformed_plus(xq, &xb_t, &e_res, &mut want, |j, limb| {
                    tables[j].forward(limb)
                })
                .unwrap();
            got.fill(u64::MAX);
            floor
                .apply_transformed_plus_small(xq, &xb_t, &e, bound, &mut got, |j, limb| {
                    tables[j].forward(limb)
                })
                .unwrap();
            assert_eq!(got, want, "small addend: {bits} bits, k = {k}, {floor:?}");
            let small = |e: &[i64], bound: u64, out: &mut [u64]| {
                floor.apply_transformed_plus_small(xq, &xb_t, e, bound, out, |j, limb| {
                    tables[j].forward(limb)
                })
            };
            assert!(
                small(&e, bound - 1, &mut got).is_err(),
                "an entry beyond the bound"
            );
            assert!(small(&e[1..], bound, &mut got).is_err(), "a short addend");
            assert!(
                small(&e, 1 << 62, &mut got).is_err(),
                "a bound beyond the moduli"
            );
            // Gathered: out[i] = (T(apply(x)) + c)[idx[i]] for a permutation idx and an addend c
            // after T (a hoisted rotation's ModDown, c_0 and automorphism in one pass).
            let mut plain = vec![0u64; kb * n];
            floor
                .apply_transformed(xq, &xb_t, &mut plain, |j, limb| tables[j].forward(limb))
                .unwrap();
            let idx: Vec<u32> = (0..n as u32).map(|i| (i * 5 + 3) % n as u32).collect();
            for add in [None, Some(&a)] {
                let want: Vec<u64> = b
                    .moduli()
                    .iter()
                    .enumerate()
                    .flat_map(|(j, m)| {
                        let (p, a) = (&plain[j * n..(j + 1) * n], add.map(|a| &a[j * n..]));
                        idx.iter()
                            .map(|&i| m.add(p[i as usize], a.map_or(0, |a| a[i as usize])))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                floor
                    .apply_transformed_gathered(
                        xq,
                        &xb_t,
                        &mut got,
                        |j, limb| tables[j].forward(limb),
                        add.map(Vec::as_slice),
                        &idx,
                    )
                    .unwrap();
                assert_eq!(got, want, "gathered: {bits} bits, k = {k}, {floor:?}");
            }
            let mut bad = idx.clone();
            bad[0] = n as u32;
            for idx in [&idx[1..], &bad[..]] {
                assert!(floor
                    .apply_transformed_gathered(xq, &xb_t, &mut got, |_, _| Ok(()), None, idx)
                    .is_err());
            }
        }
    }
}

/// The one-prime fastRNSFloor (ModDown by one special prime p, as in key switching), with and without
/// rounding, is exact: (X + h - [X + h]_p) / p modulo every modulus of B, h = floor(p / 2) or 0, for
/// p below and above the moduli of B (the FastBconv part then needs a reduction).
#[test]
fn fast_rns_floor_one_prime_is_exact() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    for (pbits, bbits, kb) in [
        (43u32, 59u32, 3usize),
        (60, 50, 2),
        (61, 61, 2),
        (30, 62, 1),
    ] {
        let p = RnsBasis::new(&ntt_primes(pbits, 2, 1, &[]).unwrap()).unwrap();
        let b = RnsBasis::new(&ntt_primes(bbits, 4, kb + 1, &[]).unwrap()[1..]).unwrap();
        let s = p.concat(&b).unwrap();
        let xs = random_below(&mut rng, s.product(), 61);
        let n = xs.len();
        let all = encode(&s, &xs);
        let pv = BigInt::from(p.product().clone());
        for (floor, h) in [
            (FastRnsFloor::new(&p, &b, 1).unwrap(), BigInt::zero()),
            (FastRnsFloor::rounded(&p, &b).unwrap(), &pv / 2),
        ] {
            let mut out = vec![0u64; kb * n];
            floor.apply(&all[..n], &all[n..], &mut out).unwrap();
            for (j, x) in xs.iter().enumerate() {
                let y = (x + &h).mod_floor(&pv);
                let want = encode(&b, &[(x + &h - y) / &pv]);
                assert_eq!(
                    column(&out, n, j, kb),
                    want,
                    "{pbits}/{bbits} bits, {floor:?}"
                );
            }
        }
    }
}
