//! The many-slot plaintext algebra (Bajard et al. (SAC 2017), section 2.4) against schoolbook references: CRT round
//! trip, slot-wise sums and products, rotations along the hypercube and Frobenius.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rand::{Rng, SeedableRng};
use rnsfhe_math::ring::cyclotomic::{cyclotomic_polynomial, multiplicative_order, SlotAlgebra};
use rnsfhe_math::Error;

/// c mod (Phi_m, t) by schoolbook long division (c of any length).
fn reduce(c: Vec<i128>, phi: &[i64], t: u64) -> Vec<u64> {
    let n = phi.len() - 1;
    let tt = i128::from(t);
    let mut c: Vec<i128> = c.into_iter().map(|x| x.rem_euclid(tt)).collect();
    c.resize(c.len().max(n), 0);
    let terms: Vec<(usize, i128)> = phi[..n]
        .iter()
        .enumerate()
        .filter(|(_, &p)| p != 0)
        .map(|(j, &p)| (j, i128::from(p)))
        .collect();
    for i in (n..c.len()).rev() {
        let v = c[i].rem_euclid(tt);
        for &(j, p) in &terms {
            c[i - n + j] = (c[i - n + j] - v * p).rem_euclid(tt);
        }
    }
    c[..n].iter().map(|&x| x.rem_euclid(tt) as u64).collect()
}

/// a * b mod (Phi_m, t).
fn mul_mod_phi(a: &[u64], b: &[u64], phi: &[i64], t: u64) -> Vec<u64> {
    let n = a.len();
    let tt = i128::from(t);
    let mut c = vec![0i128; 2 * n - 1];
    for (i, &x) in a.iter().enumerate() {
        if x != 0 {
            for (j, &y) in b.iter().enumerate() {
                c[i + j] = (c[i + j] + i128::from(x) * i128::from(y)) % tt;
            }
        }
    }
    reduce(c, phi, t)
}

/// a(X^g) mod (Phi_m, t).
fn automorphism(a: &[u64], g: usize, m: usize, phi: &[i64], t: u64) -> Vec<u64> {
    let mut c = vec![0i128; m];
    for (i, &x) in a.iter().enumerate() {
        c[i * g % m] += i128::from(x);
    }
    reduce(c, phi, t)
}

/// x * y in GF(t^d) = F_t[Y]/(G), schoolbook.
fn mul_slot(x: &[u64], y: &[u64], g: &[u64], t: u64) -> Vec<u64> {
    let d = g.len() - 1;
    let tt = i128::from(t);
    let mut c = vec![0i128; 2 * d];
    for (i, &a) in x.iter().enumerate() {
        for (j, &b) in y.iter().enumerate() {
            c[i + j] = (c[i + j] + i128::from(a) * i128::from(b)) % tt;
        }
    }
    for i in (d..2 * d).rev() {
        let v = c[i];
        for (j, &p) in g.iter().enumerate().take(d) {
            c[i - d + j] = (c[i - d + j] - v * i128::from(p)).rem_euclid(tt);
        }
    }
    c[..d].iter().map(|&x| x as u64).collect()
}

/// x^(t^p) by repeated products (t small).
fn frobenius(x: &[u64], p: usize, g: &[u64], t: u64) -> Vec<u64> {
    let mut r = x.to_vec();
    for _ in 0..p {
        let mut acc = {
            let mut one = vec![0u64; x.len()];
            one[0] = 1;
            one
        };
        for _ in 0..t {
            acc = mul_slot(&acc, &r, g, t);
        }
        r = acc;
    }
    r
}

fn draw(alg: &SlotAlgebra, rng: &mut rand::rngs::StdRng) -> Vec<Vec<u64>> {
    let t = alg.plaintext_modulus();
    (0..alg.slots())
        .map(|_| {
            (0..alg.slot_degree())
                .map(|_| rng.random_range(0..t))
                .collect()
        })
        .collect()
}

#[test]
fn encode_decode_and_slotwise_sums_and_products() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    for (m, t, want_slots) in [
        (15usize, 2u64, 2usize),
        (21, 2, 2),
        (255, 2, 16),
        (771, 2, 32),
        (1285, 2, 64),
        (4369, 2, 256),
        (15, 7681, 8),
        (15, 13, 2),
        (21, 5, 2),
        (35, 71, 24),
        (255, 257, 16),
        (255, 193, 8),
        (255, 1021, 128),
    ] {
        let alg = SlotAlgebra::new(m, t).unwrap();
        assert_eq!(alg.slots(), want_slots, "m = {m}, t = {t}");
        assert_eq!(alg.slots() * alg.slot_degree(), alg.degree());
        assert_eq!(Some(alg.slot_degree()), multiplicative_order(t, m as u64));
        let g = alg.field_polynomial().to_vec();
        let (sa, sb) = (draw(&alg, &mut rng), draw(&alg, &mut rng));
        let (a, b) = (alg.encode(&sa).unwrap(), alg.encode(&sb).unwrap());
        assert_eq!(alg.decode(&a).unwrap(), sa, "m = {m}, t = {t}");
        let phi = cyclotomic_polynomial(m).unwrap();
        let prod = alg.decode(&mul_mod_phi(&a, &b, &phi, t)).unwrap();
        let sum: Vec<u64> = a.iter().zip(&b).map(|(x, y)| (x + y) % t).collect();
        let sum = alg.decode(&sum).unwrap();
        for i in 0..alg.slots() {
            assert_eq!(
                prod[i],
                mul_slot(&sa[i], &sb[i], &g, t),
                "m = {m}, t = {t}, slot {i}"
            );
            assert_eq!(prod[i], alg.slot_mul(&sa[i], &sb[i]).unwrap());
            let s: Vec<u64> = sa[i].iter().zip(&sb[i]).map(|(x, y)| (x + y) % t).collect();
            assert_eq!(sum[i], s);
        }
        // Every factor has degree d and slot 0's factor is the field polynomial.
        assert!(alg
            .factors()
            .iter()
            .all(|f| f.len() == alg.slot_degree() + 1));
        assert_eq!(alg.factors()[0], g);
    }
}

/// Rotations along each dimension and Frobenius move the slots as the hypercube says.
fn check_hypercube(m: usize, t: u64, rng: &mut rand::rngs::StdRng) {
    let alg = SlotAlgebra::new(m, t).unwrap();
    let dims = alg.dimensions().to_vec();
    assert_eq!(dims.iter().map(|d| d.order).product::<usize>(), alg.slots());
    let (phi, g) = (
        cyclotomic_polynomial(m).unwrap(),
        alg.field_polynomial().to_vec(),
    );
    let d = alg.slot_degree();
    let s = draw(&alg, rng);
    let a = alg.encode(&s).unwrap();
    for (i, dim) in dims.iter().enumerate() {
        assert_eq!(
            dim.native,
            (0..dim.order).fold(1usize, |x, _| x * dim.generator % m) == 1
        );
        for k in [1i64, 2, -1] {
            let ge = alg.rotation_galois_element(i, k).unwrap();
            let got = alg.decode(&automorphism(&a, ge, m, &phi, t)).unwrap();
            let kk = k.rem_euclid(dim.order as i64) as usize;
            for (e, value) in got.iter().enumerate() {
                let mut c = alg.slot_coordinates(e);
                let wraps = c[i] < kk;
                c[i] = (c[i] + dim.order - kk) % dim.order;
                let src = &s[alg.slot_index(&c).unwrap()];
                let want = if wraps {
                    frobenius(src, dim.wrap_frobenius, &g, t)
                } else {
                    src.clone()
                };
                assert_eq!(value, &want, "m = {m}, t = {t}, dim {i}, k = {k}, slot {e}");
            }
            let map = alg.automorphism_slot_map(ge).unwrap();
            for (e, &(src, p)) in map.iter().enumerate() {
                assert_eq!(got[e], alg.slot_frobenius(&s[src], p).unwrap());
            }
        }
    }
    let frob = alg
        .decode(&automorphism(
            &a,
            alg.frobenius_galois_element(),
            m,
            &phi,
            t,
        ))
        .unwrap();
    for (e, v) in frob.iter().enumerate() {
        assert_eq!(
            v,
            &frobenius(&s[e], 1, &g, t),
            "Frobenius, m = {m}, t = {t}"
        );
        assert_eq!(v, &alg.slot_frobenius(&s[e], 1).unwrap());
    }
    assert_eq!(alg.slot_frobenius(&s[0], d).unwrap(), s[0]);
}

#[test]
fn rotations_and_frobenius_follow_the_hypercube() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(22);
    for (m, t) in [
        (15usize, 2u64),
        (21, 2),
        (255, 2),
        (771, 2),
        (1285, 2),
        (35, 71),
        (21, 13),
        (91, 3),
    ] {
        check_hypercube(m, t, &mut rng);
    }
}

/// m = 21845 = 5 * 17 * 257, t = 2: 1024 slots of GF(2^16). Run with
/// `cargo test --release -p rnsfhe-math --test slots -- --ignored`.
#[test]
#[ignore = "slow (opt-in tier): cargo test --release -p rnsfhe-math --test slots -- --ignored"]
fn m_21845_slots() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    let start = std::time::Instant::now();
    let alg = SlotAlgebra::new(21845, 2).unwrap();
    eprintln!("SlotAlgebra::new(21845, 2): {:?}", start.elapsed());
    assert_eq!((alg.slots(), alg.slot_degree()), (1024, 16));
    let s = draw(&alg, &mut rng);
    let start = std::time::Instant::now();
    let a = alg.encode(&s).unwrap();
    eprintln!("encode: {:?}", start.elapsed());
    let start = std::time::Instant::now();
    assert_eq!(alg.decode(&a).unwrap(), s);
    eprintln!("decode: {:?}", start.elapsed());
    check_hypercube(21845, 2, &mut rng);
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
    assert!(alg
        .rotation_galois_element(alg.dimensions().len(), 1)
        .is_err());
    assert!(alg.automorphism_slot_map(5).is_err());
    assert!(alg.slot_mul(&[0; 3], &[0; 4]).is_err());
    assert!(alg.slot_index(&[99]).is_none());
}
