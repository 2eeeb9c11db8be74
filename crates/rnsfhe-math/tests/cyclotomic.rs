//! Arithmetic modulo Phi_m (paper 001) against exact references.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_traits::Zero;
use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::{primitive_root, Modulus};
use rnsfhe_math::ring::cyclotomic::{CyclotomicPoly, CyclotomicRing, Form, Reduction};
use rnsfhe_math::Error;

const ALL: [Reduction; 3] = [
    Reduction::Barrett,
    Reduction::SparseBarrett,
    Reduction::Montgomery,
];

fn random(ctx: &Arc<CyclotomicRing>, rng: &mut rand::rngs::StdRng) -> CyclotomicPoly {
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
    CyclotomicPoly::from_residues(ctx, data).unwrap()
}

/// a * b in the ring, entering and leaving the Montgomery form where the ring uses it.
fn product(a: &CyclotomicPoly, b: &CyclotomicPoly) -> Vec<u64> {
    if a.context().reduction() == Reduction::Montgomery {
        let p = a
            .to_montgomery()
            .unwrap()
            .mul(&b.to_montgomery().unwrap())
            .unwrap();
        assert_eq!(p.form(), Form::Montgomery);
        p.from_montgomery().unwrap().residues().to_vec()
    } else {
        a.mul(b).unwrap().residues().to_vec()
    }
}

/// Schoolbook product over Z, remainder by the monic Phi_m over Z, then mod Q (per coefficient).
fn reference(a: &[BigUint], b: &[BigUint], phi: &[i64], q: &BigUint) -> Vec<BigUint> {
    let n = a.len();
    let mut c = vec![BigInt::zero(); 2 * n - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            c[i + j] += BigInt::from(x * y);
        }
    }
    for i in (n..c.len()).rev() {
        let t = std::mem::take(&mut c[i]);
        for (j, &p) in phi.iter().enumerate().take(n) {
            c[i - n + j] -= &t * p;
        }
    }
    let q = BigInt::from(q.clone());
    c.truncate(n);
    c.into_iter()
        .map(|x| (((x % &q) + &q) % &q).magnitude().clone())
        .collect()
}

fn compose(ctx: &CyclotomicRing, data: &[u64]) -> Vec<BigUint> {
    let (n, k) = (ctx.degree(), ctx.moduli().len());
    (0..n)
        .map(|j| {
            ctx.basis()
                .compose(&(0..k).map(|i| data[i * n + j]).collect::<Vec<_>>())
                .unwrap()
        })
        .collect()
}

#[test]
fn three_reductions_match_the_big_integer_reference() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let ms = [
        3usize, 5, 7, 9, 13, 15, 21, 25, 27, 31, 35, 45, 49, 77, 81, 105, 121, 127, 231, 255, 385,
        771, 1285,
    ];
    for (idx, &m) in ms.iter().enumerate() {
        let bits = [30u32, 45, 60][idx % 3];
        let moduli = CyclotomicRing::primes(m, bits, 2).unwrap();
        let mut results = Vec::new();
        for r in ALL {
            let ctx = CyclotomicRing::new(m, &moduli, r).unwrap();
            let mut rng2 = rng.clone();
            let (a, b) = (random(&ctx, &mut rng2), random(&ctx, &mut rng2));
            let got = product(&a, &b);
            if results.is_empty() {
                let want = reference(
                    &compose(&ctx, a.residues()),
                    &compose(&ctx, b.residues()),
                    ctx.phi(),
                    ctx.basis().product(),
                );
                assert_eq!(compose(&ctx, &got), want, "m = {m}, {bits}-bit");
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

/// Evaluation at primitive m-th roots zeta mod q: (a b mod Phi_m)(zeta) = a(zeta) b(zeta).
fn eval(q: &Modulus, coeffs: &[u64], x: u64) -> u64 {
    coeffs
        .iter()
        .rev()
        .fold(0, |acc, &c| q.add(q.mul(acc, x), c))
}

#[test]
fn large_indices_agree_at_roots_of_phi() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for m in [4369usize, 5461, 8191, 21845, 65535] {
        let moduli = CyclotomicRing::primes(m, 60, 1).unwrap();
        let q = Modulus::new(moduli[0]).unwrap();
        let zeta = primitive_root(&q, m as u64).unwrap();
        let mut outputs = Vec::new();
        for r in ALL {
            let ctx = CyclotomicRing::new(m, &moduli, r).unwrap();
            let mut rng2 = rng.clone();
            let (a, b) = (random(&ctx, &mut rng2), random(&ctx, &mut rng2));
            let c = product(&a, &b);
            for k in [1u64, 2, 7] {
                let x = q.pow(zeta, k);
                let want = q.mul(eval(&q, a.residues(), x), eval(&q, b.residues(), x));
                assert_eq!(eval(&q, &c, x), want, "m = {m}, {r:?}");
            }
            outputs.push(c);
        }
        assert!(outputs.windows(2).all(|w| w[0] == w[1]), "m = {m}");
        if m == 4369 {
            let ctx = CyclotomicRing::new(m, &moduli, Reduction::SparseBarrett).unwrap();
            assert_eq!(ctx.sparse_multiple().unwrap().degree, 4112);
        }
        let _ = rng.random::<u64>();
    }
}

#[test]
fn automorphisms() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    for m in [15usize, 255, 771] {
        let moduli = CyclotomicRing::primes(m, 50, 1).unwrap();
        let q = Modulus::new(moduli[0]).unwrap();
        let zeta = primitive_root(&q, m as u64).unwrap();
        for r in ALL {
            let ctx = CyclotomicRing::new(m, &moduli, r).unwrap();
            let a = random(&ctx, &mut rng);
            for g in [2usize, 7, m - 1] {
                if num_integer::gcd(g, m) != 1 {
                    assert!(a.automorphism(g).is_err());
                    continue;
                }
                let s = a.automorphism(g).unwrap();
                assert_eq!(
                    eval(&q, s.residues(), zeta),
                    eval(&q, a.residues(), q.pow(zeta, g as u64))
                );
                if r == Reduction::Montgomery {
                    let sm = a
                        .to_montgomery()
                        .unwrap()
                        .automorphism(g)
                        .unwrap()
                        .from_montgomery()
                        .unwrap();
                    assert_eq!(sm.residues(), s.residues());
                }
            }
        }
    }
}

#[test]
fn bad_input() {
    let moduli = CyclotomicRing::primes(15, 40, 1).unwrap();
    assert!(matches!(
        CyclotomicRing::new(2, &moduli, Reduction::Barrett),
        Err(Error::InvalidDegree { .. })
    ));
    assert!(CyclotomicRing::new(
        16,
        &CyclotomicRing::primes(16, 40, 1).unwrap(),
        Reduction::Montgomery
    )
    .is_err());
    assert!(
        CyclotomicRing::new(15, &[19], Reduction::Barrett).is_err(),
        "19 is not 1 mod N = 16"
    );
    assert!(CyclotomicRing::primes(65535, 18, 1).is_err());
    let a_ctx = CyclotomicRing::new(15, &moduli, Reduction::Montgomery).unwrap();
    let b_ctx = CyclotomicRing::new(15, &moduli, Reduction::Montgomery).unwrap();
    let a = CyclotomicPoly::from_signed(&a_ctx, &[1, -2, 3, 0, 0, 0, 0, 5]).unwrap();
    let b = CyclotomicPoly::from_signed(&b_ctx, &[1; 8]).unwrap();
    assert!(matches!(a.add(&b), Err(Error::ContextMismatch(_))));
    assert!(
        matches!(a.mul(&a), Err(Error::WrongForm(_))),
        "plain operands in a Montgomery ring"
    );
    assert!(matches!(
        a.to_montgomery().unwrap().add(&a),
        Err(Error::WrongForm(_))
    ));
    assert!(a.from_montgomery().is_err());
    assert!(CyclotomicPoly::from_signed(&a_ctx, &[1; 7]).is_err());
    assert!(CyclotomicPoly::from_residues(&a_ctx, vec![moduli[0]; 8]).is_err());
    let plain = CyclotomicRing::new(15, &moduli, Reduction::Barrett).unwrap();
    let p = CyclotomicPoly::from_signed(&plain, &[1; 8]).unwrap();
    assert!(p.to_montgomery().is_err());
    assert!(p.mul(&p).unwrap().residues().iter().any(|&x| x != 0));
}

mod slots {
    use rand::{Rng, SeedableRng};
    use rnsfhe_math::ring::cyclotomic::{cyclotomic_polynomial, multiplicative_order, SlotAlgebra};
    use rnsfhe_math::Error;

    /// a * b mod (Phi_m, t) by schoolbook.
    fn mul_mod_phi(a: &[u64], b: &[u64], phi: &[i64], t: u64) -> Vec<u64> {
        let n = a.len();
        let tt = t as i128;
        let mut c = vec![0i128; 2 * n - 1];
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                c[i + j] = (c[i + j] + x as i128 * y as i128) % tt;
            }
        }
        for i in (n..c.len()).rev() {
            let v = c[i];
            for (j, &p) in phi.iter().enumerate().take(n) {
                c[i - n + j] = (c[i - n + j] - v * p as i128).rem_euclid(tt);
            }
        }
        c[..n].iter().map(|&x| x.rem_euclid(tt) as u64).collect()
    }

    /// Product of two slot elements in GF(t^d) = F_t[X]/(f).
    fn mul_slot(x: &[u64], y: &[u64], f: &[u64], t: u64) -> Vec<u64> {
        let d = f.len() - 1;
        let tt = t as u128;
        let mut c = vec![0u128; 2 * d];
        for (i, &a) in x.iter().enumerate() {
            for (j, &b) in y.iter().enumerate() {
                c[i + j] = (c[i + j] + a as u128 * b as u128) % tt;
            }
        }
        for i in (d..2 * d).rev() {
            let v = c[i];
            for (j, &p) in f.iter().enumerate().take(d) {
                c[i - d + j] = (c[i - d + j] + (tt - p as u128) * v) % tt;
            }
        }
        c[..d].iter().map(|&x| x as u64).collect()
    }

    #[test]
    fn encode_decode_and_slotwise_products() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        for (m, t, want_slots) in [
            (15usize, 2u64, 2usize),
            (255, 2, 16),
            (771, 2, 32),
            (1285, 2, 64),
            (15, 7681, 8),
            (15, 13, 2),
            (21, 5, 2),
            (35, 71, 24),
        ] {
            let alg = SlotAlgebra::new(m, t).unwrap();
            assert_eq!(alg.slots(), want_slots, "m = {m}, t = {t}");
            assert_eq!(alg.slots() * alg.slot_degree(), alg.degree());
            assert_eq!(Some(alg.slot_degree()), multiplicative_order(t, m as u64));
            let d = alg.slot_degree();
            let mut draw = || {
                (0..alg.slots())
                    .map(|_| (0..d).map(|_| rng.random_range(0..t)).collect::<Vec<u64>>())
                    .collect::<Vec<_>>()
            };
            let (sa, sb) = (draw(), draw());
            let (a, b) = (alg.encode(&sa).unwrap(), alg.encode(&sb).unwrap());
            assert_eq!(alg.decode(&a).unwrap(), sa);
            let phi = cyclotomic_polynomial(m).unwrap();
            let prod = alg.decode(&mul_mod_phi(&a, &b, &phi, t)).unwrap();
            for (i, f) in alg.factors().iter().enumerate() {
                assert_eq!(
                    prod[i],
                    mul_slot(&sa[i], &sb[i], f, t),
                    "m = {m}, t = {t}, slot {i}"
                );
            }
        }
    }

    #[test]
    fn bad_input() {
        assert!(
            matches!(SlotAlgebra::new(15, 5), Err(Error::InvalidParameters(_))),
            "t divides m"
        );
        assert!(
            matches!(SlotAlgebra::new(15, 4), Err(Error::InvalidParameters(_))),
            "t not prime"
        );
        let alg = SlotAlgebra::new(15, 2).unwrap();
        assert!(alg.encode(&[vec![0; 4]]).is_err(), "wrong slot count");
        assert!(
            alg.encode(&[vec![0; 3], vec![0; 4]]).is_err(),
            "wrong slot length"
        );
        assert!(
            alg.encode(&[vec![2, 0, 0, 0], vec![0; 4]]).is_err(),
            "value >= t"
        );
        assert!(alg.decode(&[0; 7]).is_err());
        assert!(alg.decode(&[3; 8]).is_err());
    }
}

#[test]
fn sums_of_products_reduce_once() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(14);
    for r in ALL {
        let moduli = CyclotomicRing::primes(231, 55, 2).unwrap();
        let ctx = CyclotomicRing::new(231, &moduli, r).unwrap();
        let mut ps: Vec<CyclotomicPoly> = (0..6).map(|_| random(&ctx, &mut rng)).collect();
        if r == Reduction::Montgomery {
            ps = ps.iter().map(|p| p.to_montgomery().unwrap()).collect();
        }
        let pairs: Vec<(&CyclotomicPoly, &CyclotomicPoly)> =
            ps.chunks(2).map(|c| (&c[0], &c[1])).collect();
        let once = CyclotomicPoly::sum_of_products(&pairs).unwrap();
        let mut each = pairs[0].0.mul(pairs[0].1).unwrap();
        for (a, b) in &pairs[1..] {
            each = each.add(&a.mul(b).unwrap()).unwrap();
        }
        assert_eq!(once.residues(), each.residues(), "{r:?}");
    }
    assert!(CyclotomicPoly::sum_of_products(&[]).is_err());
}
