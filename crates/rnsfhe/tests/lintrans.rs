//! Linear transforms by diagonals (`circuits::lintrans`) against the plaintext matrix-vector product:
//! 64 random diagonals (scattered and consecutive), full and sparse CKKS slots (within 2^-16 of the
//! largest value, on the chain's scale one level down), BFV and BGV exactly mod t (BGV at a lower
//! level too); the hoisted BSGS path and the naive one agree; refusals name the problem.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::circuits::lintrans::{
    BfvLinearTransform, BgvLinearTransform, CkksLinearTransform, Diagonals,
};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

const T: u64 = 65537;

/// A small deterministic generator (xorshift).
struct Rand(u64);
impl Rand {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() % 2_000_001) as f64 / 1_000_000.0 - 1.0
    }
    /// `count` distinct indices below `bound`.
    fn indices(&mut self, count: usize, bound: usize) -> Vec<usize> {
        let mut set = std::collections::BTreeSet::new();
        while set.len() < count {
            set.insert(self.next() as usize % bound);
        }
        set.into_iter().collect()
    }
}

/// y[t] = sum_k d_k[t] x[(t + k) mod len], per block of `len`.
fn matvec<T: Copy>(
    d: &Diagonals<T>,
    x: &[T],
    len: usize,
    zero: T,
    mul_add: impl Fn(T, T, T) -> T,
) -> Vec<T> {
    let mut y = vec![zero; x.len()];
    for (&k, dk) in d {
        for (s, o) in y.iter_mut().enumerate() {
            let (b, t) = (s / len, s % len);
            *o = mul_add(*o, dk[s], x[b * len + (t + k) % len]);
        }
    }
    y
}

fn ckks_context() -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(3)
        .scale_bits(40)
        .special_moduli_bits(&[55, 55])
        .key_switching(rnsfhe::rlwe::KeySwitching {
            digit_primes: 2,
            ..Default::default()
        })
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn check_ckks(slots: usize, indices: &[usize], seed: u64) {
    let ctx = ckks_context();
    let mut r = Rand(seed);
    let diagonals: Diagonals<Complex> = indices
        .iter()
        .map(|&k| {
            let v = (0..slots)
                .map(|_| Complex::new(r.unit() / 8.0, r.unit() / 8.0))
                .collect();
            (k, v)
        })
        .collect();
    let x: Vec<Complex> = (0..slots)
        .map(|_| Complex::new(r.unit(), r.unit()))
        .collect();
    let want = matvec(&diagonals, &x, slots, Complex::new(0.0, 0.0), |o, a, b| {
        o + a * b
    });
    let level = ctx.max_level();
    let lt = CkksLinearTransform::new(&ctx, &diagonals, level, slots).unwrap();
    let mut steps = lt.rotation_steps();
    steps.extend(lt.naive_rotation_steps());
    let mut rng = Csprng::from_seed([seed as u8; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let big = want.iter().map(|z| z.abs()).fold(1.0, f64::max);
    for (y, what) in [
        (lt.apply(&ctx, &ct, &gk).unwrap(), "bsgs"),
        (lt.apply_naive(&ctx, &ct, &gk).unwrap(), "naive"),
    ] {
        assert_eq!(y.level(), level - 1, "{what}");
        assert_eq!(y.scale(), ctx.scale_at(level - 1).unwrap(), "{what}");
        let got = ctx.decrypt_values(&y, &sk).unwrap();
        for (t, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (*g - *w).abs() < big / 65536.0,
                "{what}, {slots} slots, slot {t}: {g:?} vs {w:?}"
            );
        }
    }
}

#[test]
fn ckks_transform_matches_the_matrix_product() {
    // 64 scattered diagonals over the full 512 slots, 64 consecutive ones (the sqrt split 8 x 8).
    check_ckks(512, &Rand(11).indices(64, 512), 1);
    let consecutive: Vec<usize> = (0..64).collect();
    check_ckks(512, &consecutive, 2);
    // Sparse: 128 slots of 512, 64 diagonals.
    check_ckks(128, &Rand(12).indices(64, 128), 3);
}

#[test]
fn bsgs_split_follows_the_square_root_rule() {
    let ctx = ckks_context();
    let d: Diagonals<Complex> = (0..64).map(|k| (k, vec![Complex::new(1.0, 0.0)])).collect();
    let lt = CkksLinearTransform::new(&ctx, &d, 3, 512).unwrap();
    assert_eq!(lt.split().n1, 8);
    assert_eq!(lt.rotation_steps().len(), 14); // 7 baby + 7 giant
    let lt = CkksLinearTransform::with_baby_steps(&ctx, &d, 3, 512, 16).unwrap();
    assert_eq!(lt.split().giants.len(), 4);
}

fn integer_diagonals(n: usize, indices: &[usize], r: &mut Rand) -> Diagonals<u64> {
    indices
        .iter()
        .map(|&k| (k, (0..n).map(|_| r.next() % T).collect()))
        .collect()
}

fn mod_t(o: u64, a: u64, b: u64) -> u64 {
    ((u128::from(o) + u128::from(a) * u128::from(b)) % u128::from(T)) as u64
}

#[test]
fn bfv_transform_matches_the_matrix_product_mod_t() {
    let p = BfvParameters::builder()
        .degree(1024)
        .plain_modulus(T)
        .moduli_bits(&[55, 55, 55])
        .special_moduli_bits(&[60])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BfvContext::new(p).unwrap();
    let mut r = Rand(21);
    let d = integer_diagonals(1024, &r.indices(64, 512), &mut r);
    let lt = BfvLinearTransform::new(&ctx, &d).unwrap();
    let mut steps = lt.rotation_steps();
    steps.extend(lt.naive_rotation_steps());
    let mut rng = Csprng::from_seed([21; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng).unwrap();
    let x: Vec<u64> = (0..1024).map(|_| r.next() % T).collect();
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let want = matvec(&d, &x, 512, 0, mod_t);
    for y in [
        lt.apply(&ctx, &ct, &gk).unwrap(),
        lt.apply_naive(&ctx, &ct, &gk).unwrap(),
    ] {
        assert!(ctx.noise_budget(&y, &sk).unwrap() > 0);
        assert_eq!(ctx.decode(&ctx.decrypt(&y, &sk).unwrap()).unwrap(), want);
    }
}

#[test]
fn bgv_transform_matches_the_matrix_product_at_two_levels() {
    let p = BgvParameters::builder()
        .degree(1024)
        .plain_modulus(T)
        .moduli_bits(&[50, 50, 50, 50])
        .special_moduli_bits(&[60])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BgvContext::new(p).unwrap();
    let mut r = Rand(31);
    let d = integer_diagonals(1024, &(0..64).collect::<Vec<_>>(), &mut r);
    let mut rng = Csprng::from_seed([31; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let x: Vec<u64> = (0..1024).map(|_| r.next() % T).collect();
    let top = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let want = matvec(&d, &x, 512, 0, mod_t);
    for level in [3, 1] {
        let lt = BgvLinearTransform::at_level(&ctx, &d, level, None).unwrap();
        let gk = ctx
            .galois_keys(&sk, &lt.rotation_steps(), false, &mut rng)
            .unwrap();
        let ct = ctx.mod_switch_to_level(&top, level).unwrap();
        let y = lt.apply(&ctx, &ct, &gk).unwrap();
        assert_eq!(y.level(), level);
        assert_eq!(ctx.decode(&ctx.decrypt(&y, &sk).unwrap()).unwrap(), want);
        if level == 1 {
            let e = lt.apply(&ctx, &top, &gk).unwrap_err();
            assert!(matches!(e, Error::LevelMismatch { .. }), "{e}");
        }
    }
}

#[test]
fn refusals_name_the_problem() {
    let ctx = ckks_context();
    let d: Diagonals<Complex> = [(0, vec![Complex::new(1.0, 0.0)]), (3, vec![])]
        .into_iter()
        .collect();
    let lt = CkksLinearTransform::new(&ctx, &d, 3, 512).unwrap();
    let mut rng = Csprng::from_seed([41; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let ct = ctx
        .encrypt(
            &ctx.encode(&[Complex::new(1.0, 0.0); 512]).unwrap(),
            &pk,
            &mut rng,
        )
        .unwrap();
    let e = lt.apply(&ctx, &ct, &gk).unwrap_err();
    assert!(
        matches!(&e, Error::MissingGaloisKey { step: Some(3), .. })
            && e.to_string().contains("step 3"),
        "{e}"
    );
    let low = ctx.drop_to_level(&ct, 2).unwrap();
    assert!(matches!(
        lt.apply(&ctx, &low, &gk),
        Err(Error::LevelMismatch { .. })
    ));
    assert!(CkksLinearTransform::new(&ctx, &d, 0, 512).is_err());
    assert!(matches!(
        CkksLinearTransform::new(&ctx, &d, 3, 2),
        Err(Error::LengthMismatch { .. })
    )); // diagonal 3 of 2 slots
    let empty = Diagonals::new();
    assert!(CkksLinearTransform::new(&ctx, &empty, 3, 512).is_err());
}
