//! RingContext / Poly over any Phi_m (Bajard et al. (SAC 2017)) against the exact big-integer references of
//! `ring::reference`, on the three reductions and beside the power-of-two ring.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::{ntt_primes, primitive_root, Modulus};
use rnsfhe_math::ring::reference::{cyclotomic_automorphism, cyclotomic_product, reduce_mod_phi};
use rnsfhe_math::ring::{Form, Poly, Reduction, Representation, RingContext, RingKind};
use rnsfhe_math::Error;

const ALL: [Reduction; 3] = [
    Reduction::Barrett,
    Reduction::SparseBarrett,
    Reduction::Montgomery,
];

/// The reductions a ring of index m accepts (Montgomery fails for m a power of two, Lemma 1).
fn reductions(m: usize) -> &'static [Reduction] {
    if m.is_power_of_two() {
        &ALL[..2]
    } else {
        &ALL
    }
}

fn random(ctx: &Arc<RingContext>, rng: &mut rand::rngs::StdRng) -> Poly {
    let n = ctx.degree();
    let data = ctx
        .moduli()
        .iter()
        .flat_map(|q| {
            (0..n)
                .map(|_| rng.random_range(0..q.value()))
                .collect::<Vec<_>>()
        })
        .collect();
    Poly::from_residues(ctx, data, Representation::Coefficient).unwrap()
}

fn ntt(p: &Poly) -> Poly {
    let mut p = p.clone();
    p.to_ntt().unwrap();
    p
}

fn coeff(p: &Poly) -> Poly {
    let mut p = p.clone();
    p.to_coefficient().unwrap();
    p
}

/// a * b in the ring through the NTT form, entering and leaving the Montgomery form where needed.
fn product(a: &Poly, b: &Poly) -> Poly {
    if a.context().reduction() == Some(Reduction::Montgomery) {
        let p = coeff(
            &ntt(&a.to_montgomery().unwrap())
                .mul(&ntt(&b.to_montgomery().unwrap()))
                .unwrap(),
        );
        assert_eq!(p.montgomery_form(), Form::Montgomery);
        p.from_montgomery().unwrap()
    } else {
        coeff(&ntt(a).mul(&ntt(b)).unwrap())
    }
}

fn big(p: &Poly) -> Vec<BigUint> {
    p.to_biguint().unwrap()
}

#[test]
fn products_match_the_big_integer_reference_on_three_reductions() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let ms = [
        3usize, 5, 7, 9, 13, 15, 16, 21, 25, 27, 31, 35, 45, 49, 64, 77, 81, 105, 121, 127, 231,
        255, 385, 771, 1285,
    ];
    for (idx, &m) in ms.iter().enumerate() {
        let bits = [30u32, 45, 60][idx % 3];
        let moduli = RingContext::cyclotomic_primes(m, bits, 2).unwrap();
        let mut results = Vec::new();
        for &r in reductions(m) {
            let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
            assert_eq!(ctx.kind(), RingKind::Cyclotomic { reduction: r });
            let mut rng2 = rng.clone();
            let (a, b) = (random(&ctx, &mut rng2), random(&ctx, &mut rng2));
            let got = big(&product(&a, &b));
            if results.is_empty() {
                let want = cyclotomic_product(&big(&a), &big(&b), ctx.phi(), ctx.basis().product());
                assert_eq!(got, want, "m = {m}, {bits}-bit");
            }
            results.push(got);
        }
        assert!(
            results.windows(2).all(|w| w[0] == w[1]),
            "m = {m}: reductions disagree"
        );
        let _ = rng.random::<u64>();
    }
}

#[test]
fn power_of_two_general_ring_matches_the_negacyclic_ring() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(15);
    for m in [16usize, 256] {
        let n = m / 2;
        let moduli = ntt_primes(50, 2 * m as u64, 2, &[]).unwrap();
        let nega = RingContext::new(n, &moduli).unwrap();
        let (a, b) = (random(&nega, &mut rng), random(&nega, &mut rng));
        let want = big(&coeff(&ntt(&a).mul(&ntt(&b)).unwrap()));
        assert_eq!(
            want,
            cyclotomic_product(&big(&a), &big(&b), nega.phi(), nega.basis().product())
        );
        for &r in reductions(m) {
            let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
            let lift = |p: &Poly| {
                Poly::from_residues(&ctx, p.residues().to_vec(), Representation::Coefficient)
                    .unwrap()
            };
            assert_eq!(big(&product(&lift(&a), &lift(&b))), want, "m = {m}, {r:?}");
            let g = 5i64;
            assert_eq!(
                big(&lift(&a).automorphism(g).unwrap()),
                big(&a.automorphism(g).unwrap()),
                "m = {m}, {r:?}"
            );
        }
    }
}

/// Evaluation at a power of a primitive m-th root zeta mod q.
fn eval(q: &Modulus, coeffs: &[u64], x: u64) -> u64 {
    coeffs
        .iter()
        .rev()
        .fold(0, |acc, &c| q.add(q.mul(acc, x), c))
}

/// Schoolbook a * b mod (Phi_m, q) for one word-size prime (exact, u128): the reference for large m.
fn product_mod_q(a: &[u64], b: &[u64], phi: &[i64], q: u64) -> Vec<u64> {
    let n = a.len();
    let qq = u128::from(q);
    let mut c = vec![0u128; 2 * n - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            c[i + j] = (c[i + j] + u128::from(x) * u128::from(y)) % qq;
        }
    }
    reduce_mod_q(c, phi, q)
}

/// c (entries below q) mod (Phi_m, q) by long division.
fn reduce_mod_q(mut c: Vec<u128>, phi: &[i64], q: u64) -> Vec<u64> {
    let n = phi.len() - 1;
    let qq = u128::from(q);
    let phi: Vec<(usize, u128)> = phi[..n]
        .iter()
        .enumerate()
        .filter(|(_, &p)| p != 0)
        .map(|(j, &p)| (j, (p.rem_euclid(q as i64)) as u128))
        .collect();
    for i in (n..c.len()).rev() {
        let t = c[i];
        for &(j, p) in &phi {
            c[i - n + j] = (c[i - n + j] + qq - t * p % qq) % qq;
        }
    }
    c[..n].iter().map(|&x| x as u64).collect()
}

#[test]
fn m_4369_products_match_the_schoolbook_reference() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    let m = 4369;
    let moduli = RingContext::cyclotomic_primes(m, 60, 1).unwrap();
    let q = Modulus::new(moduli[0]).unwrap();
    let mut want = None;
    for r in ALL {
        let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
        let mut rng2 = rng.clone();
        let (a, b) = (random(&ctx, &mut rng2), random(&ctx, &mut rng2));
        let want = want
            .get_or_insert_with(|| product_mod_q(a.residues(), b.residues(), ctx.phi(), moduli[0]));
        assert_eq!(product(&a, &b).residues(), &want[..], "{r:?}");
        // a b + a, reduced once, and X -> X^3.
        let mut acc = Poly::zero(&ctx, Representation::Ntt);
        acc.mul_add_assign(&ntt(&entered(&a)), &ntt(&entered(&b)))
            .unwrap();
        acc.add_assign(&ntt(&entered(&a))).unwrap();
        let sum: Vec<u64> = want
            .iter()
            .zip(a.residues())
            .map(|(&x, &y)| q.add(x, y))
            .collect();
        assert_eq!(left(&coeff(&acc)).residues(), &sum[..], "{r:?}");
        let mut wide = vec![0u128; m];
        for (i, &x) in a.residues().iter().enumerate() {
            wide[i * 3 % m] = u128::from(x);
        }
        let want_auto = reduce_mod_q(wide, ctx.phi(), moduli[0]);
        assert_eq!(
            a.automorphism(3).unwrap().residues(),
            &want_auto[..],
            "{r:?}"
        );
        if r == Reduction::SparseBarrett {
            assert_eq!(ctx.sparse_multiple().unwrap().degree, 4112);
        }
    }
    let _ = rng.random::<u64>();
}

#[test]
fn large_indices_agree_at_roots_of_phi() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for m in [5461usize, 8191, 21845] {
        let moduli = RingContext::cyclotomic_primes(m, 60, 1).unwrap();
        let q = Modulus::new(moduli[0]).unwrap();
        let zeta = primitive_root(&q, m as u64).unwrap();
        let mut outputs = Vec::new();
        for r in ALL {
            let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
            let mut rng2 = rng.clone();
            let (a, b) = (random(&ctx, &mut rng2), random(&ctx, &mut rng2));
            let c = product(&a, &b);
            for k in [1u64, 2, 7] {
                let x = q.pow(zeta, k);
                let want = q.mul(eval(&q, a.residues(), x), eval(&q, b.residues(), x));
                assert_eq!(eval(&q, c.residues(), x), want, "m = {m}, {r:?}");
            }
            outputs.push(c.residues().to_vec());
        }
        assert!(outputs.windows(2).all(|w| w[0] == w[1]), "m = {m}");
        let _ = rng.random::<u64>();
    }
}

#[test]
fn linear_operations_in_both_forms() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(17);
    for m in [16usize, 21, 255, 771, 1285] {
        let moduli = RingContext::cyclotomic_primes(m, 50, 3).unwrap();
        for &r in reductions(m) {
            let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
            let q = ctx.basis().product();
            let (a, b) = (random(&ctx, &mut rng), random(&ctx, &mut rng));
            let (av, bv) = (big(&a), big(&b));
            for via_ntt in [false, true] {
                let f = |p: Poly| if via_ntt { coeff(&p) } else { p };
                let (x, y) = if via_ntt {
                    (ntt(&a), ntt(&b))
                } else {
                    (a.clone(), b.clone())
                };
                let sum = big(&f(x.add(&y).unwrap()));
                let diff = big(&f(x.sub(&y).unwrap()));
                let neg = big(&f(x.neg()));
                let scaled = big(&f(x.mul_scalar(987_654_321)));
                for j in 0..ctx.degree() {
                    assert_eq!(sum[j], (&av[j] + &bv[j]) % q);
                    assert_eq!(diff[j], (&av[j] + q - &bv[j]) % q);
                    assert_eq!(neg[j], (q - &av[j]) % q);
                    assert_eq!(scaled[j], (&av[j] * 987_654_321u64) % q);
                }
            }
        }
    }
}

/// The ring's form of a (Montgomery rings: a M).
fn entered(a: &Poly) -> Poly {
    if a.context().reduction() == Some(Reduction::Montgomery) {
        a.to_montgomery().unwrap()
    } else {
        a.clone()
    }
}

fn left(a: &Poly) -> Poly {
    if a.montgomery_form() == Form::Montgomery {
        a.from_montgomery().unwrap()
    } else {
        a.clone()
    }
}

#[test]
fn sums_of_products_reduce_once_and_mix_with_plain_values() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(14);
    for m in [21usize, 32, 231, 255] {
        let moduli = RingContext::cyclotomic_primes(m, 55, 2).unwrap();
        for &r in reductions(m) {
            let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
            let ps: Vec<Poly> = (0..7).map(|_| random(&ctx, &mut rng)).collect();
            let mut acc = Poly::zero(&ctx, Representation::Ntt);
            let mut want = vec![BigInt::from(0); 2 * ctx.degree()];
            for k in 0..3 {
                let (a, b) = (&ps[2 * k], &ps[2 * k + 1]);
                acc.mul_add_assign(&ntt(&entered(a)), &ntt(&entered(b)))
                    .unwrap();
                for (i, x) in big(a).iter().enumerate() {
                    for (j, y) in big(b).iter().enumerate() {
                        want[i + j] += BigInt::from(x * y);
                    }
                }
            }
            assert!(acc.is_unreduced_product());
            // Adding a reduced value to the unreduced sum (Montgomery rings: promoted by Psi).
            acc.add_assign(&ntt(&entered(&ps[6]))).unwrap();
            for (j, x) in big(&ps[6]).iter().enumerate() {
                want[j] += BigInt::from(x.clone());
            }
            let got = big(&left(&coeff(&acc)));
            assert_eq!(
                got,
                reduce_mod_phi(&want, ctx.phi(), ctx.basis().product()),
                "m = {m}, {r:?}"
            );
            // mul then add equals mul_add.
            let mut each = ntt(&entered(&ps[0])).mul(&ntt(&entered(&ps[1]))).unwrap();
            each.add_assign(&ntt(&entered(&ps[2])).mul(&ntt(&entered(&ps[3]))).unwrap())
                .unwrap();
            let mut once = Poly::zero(&ctx, Representation::Ntt);
            once.mul_add_assign(&ntt(&entered(&ps[0])), &ntt(&entered(&ps[1])))
                .unwrap();
            once.mul_add_assign(&ntt(&entered(&ps[2])), &ntt(&entered(&ps[3])))
                .unwrap();
            assert_eq!(coeff(&each).residues(), coeff(&once).residues());
            // A product of products is refused, not wrapped.
            assert!(matches!(each.mul(&each), Err(Error::WrongForm(_))));
        }
    }
}

#[test]
fn select_drops_moduli() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(18);
    let m = 255;
    let moduli = RingContext::cyclotomic_primes(m, 40, 3).unwrap();
    for r in ALL {
        let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
        let low = ctx.select(&[0, 2]).unwrap();
        assert_eq!(low.kind(), ctx.kind());
        assert_eq!(low.ntt_size(), ctx.ntt_size());
        let (a, b) = (random(&ctx, &mut rng), random(&ctx, &mut rng));
        let n = ctx.degree();
        let drop = |p: &Poly| {
            let v = [p.limb(0).unwrap(), p.limb(2).unwrap()].concat();
            Poly::from_residues(&low, v, Representation::Coefficient).unwrap()
        };
        let full = product(&a, &b);
        let part = product(&drop(&a), &drop(&b));
        assert_eq!(&part.residues()[..n], full.limb(0).unwrap());
        assert_eq!(&part.residues()[n..], full.limb(2).unwrap());
    }
    assert!(RingContext::cyclotomic(m, &moduli, Reduction::Barrett)
        .unwrap()
        .select(&[3])
        .is_err());
}

#[test]
fn automorphisms_for_every_unit() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    for (m, every) in [
        (21usize, true),
        (15, true),
        (32, true),
        (255, false),
        (771, false),
        (1285, false),
    ] {
        let moduli = RingContext::cyclotomic_primes(m, 50, 2).unwrap();
        for &r in reductions(m) {
            let ctx = RingContext::cyclotomic(m, &moduli, r).unwrap();
            let a = random(&ctx, &mut rng);
            let gs: Vec<usize> = if every {
                (1..m).collect()
            } else {
                vec![2, 3, 7, m - 1, m + 2]
            };
            for g in gs {
                if num_integer::gcd(g, m) != 1 {
                    assert!(matches!(
                        a.automorphism(g as i64),
                        Err(Error::OutOfRange(_))
                    ));
                    continue;
                }
                let want =
                    cyclotomic_automorphism(&big(&a), g % m, m, ctx.phi(), ctx.basis().product());
                assert_eq!(
                    big(&a.automorphism(g as i64).unwrap()),
                    want,
                    "m = {m}, g = {g}"
                );
                assert_eq!(big(&coeff(&ntt(&a).automorphism(g as i64).unwrap())), want);
                if r == Reduction::Montgomery {
                    let sm = a.to_montgomery().unwrap().automorphism(g as i64).unwrap();
                    assert_eq!(sm.montgomery_form(), Form::Montgomery);
                    assert_eq!(big(&sm.from_montgomery().unwrap()), want);
                }
            }
            let inv = a.automorphism(-1).unwrap().automorphism(-1).unwrap();
            assert_eq!(inv.residues(), a.residues());
        }
    }
}

#[test]
fn bad_input() {
    let moduli = RingContext::cyclotomic_primes(15, 40, 1).unwrap();
    assert!(matches!(
        RingContext::cyclotomic(2, &moduli, Reduction::Barrett),
        Err(Error::InvalidDegree { .. })
    ));
    assert!(RingContext::cyclotomic(
        16,
        &RingContext::cyclotomic_primes(16, 40, 1).unwrap(),
        Reduction::Montgomery
    )
    .is_err());
    assert!(
        RingContext::cyclotomic(15, &[19], Reduction::Barrett).is_err(),
        "19 is not 1 mod N = 16"
    );
    assert!(RingContext::cyclotomic_primes(65535, 18, 1).is_err());
    let a_ctx = RingContext::cyclotomic(15, &moduli, Reduction::Montgomery).unwrap();
    let b_ctx = RingContext::cyclotomic(15, &moduli, Reduction::Montgomery).unwrap();
    let a = Poly::from_signed(&a_ctx, &[1, -2, 3, 0, 0, 0, 0, 5]).unwrap();
    let b = Poly::from_signed(&b_ctx, &[1; 8]).unwrap();
    assert!(matches!(a.add(&b), Err(Error::ContextMismatch(_))));
    assert!(
        matches!(ntt(&a).mul(&ntt(&a)), Err(Error::WrongForm(_))),
        "plain operands in a Montgomery ring"
    );
    assert!(
        matches!(a.mul(&a), Err(Error::WrongForm(_))),
        "coefficient form"
    );
    assert!(matches!(
        a.to_montgomery().unwrap().add(&a),
        Err(Error::WrongForm(_))
    ));
    assert!(a.from_montgomery().is_err());
    assert!(Poly::from_signed(&a_ctx, &[1; 7]).is_err());
    assert!(Poly::from_residues(&a_ctx, vec![moduli[0]; 8], Representation::Coefficient).is_err());
    assert!(
        Poly::from_residues(&a_ctx, vec![0; 8], Representation::Ntt).is_err(),
        "NTT form holds N = 16 values per limb"
    );
    let mut spike = vec![0u64; 16];
    spike[0] = 1;
    assert!(
        matches!(
            Poly::from_residues(&a_ctx, spike, Representation::Ntt),
            Err(Error::OutOfRange(_))
        ),
        "NTT_N values of a polynomial of degree >= n"
    );
    let back =
        Poly::from_residues(&a_ctx, ntt(&a).residues().to_vec(), Representation::Ntt).unwrap();
    assert_eq!(coeff(&back).residues(), a.residues());
    let plain = RingContext::cyclotomic(15, &moduli, Reduction::Barrett).unwrap();
    let p = Poly::from_signed(&plain, &[1; 8]).unwrap();
    assert!(p.to_montgomery().is_err());
    assert!(coeff(&ntt(&p).mul(&ntt(&p)).unwrap())
        .residues()
        .iter()
        .any(|&x| x != 0));
    // Mixed products in a Montgomery ring: a M * b = a b.
    let am = ntt(&a.to_montgomery().unwrap());
    let mixed = coeff(&am.mul(&ntt(&a)).unwrap());
    assert_eq!(mixed.montgomery_form(), Form::Plain);
    assert_eq!(
        big(&mixed),
        cyclotomic_product(&big(&a), &big(&a), a_ctx.phi(), a_ctx.basis().product())
    );
}
