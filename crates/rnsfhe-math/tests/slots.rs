//! The many-slot plaintext algebra (paper 001, section 2.4) against schoolbook references.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

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
