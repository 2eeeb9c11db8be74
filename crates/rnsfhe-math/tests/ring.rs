//! RingContext / Poly against an exact big-integer reference.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use num_bigint::BigInt;
use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::reference::negacyclic_product;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::Error;

fn random_poly(ctx: &std::sync::Arc<RingContext>, rng: &mut rand::rngs::StdRng) -> Poly {
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

#[test]
fn product_matches_negacyclic_product() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for (n, bits, k) in [
        (8usize, 60u32, 3usize),
        (64, 50, 2),
        (256, 61, 4),
        (32, 30, 5),
        (16, 62, 2),
    ] {
        let moduli = ntt_primes(bits, 2 * n as u64, k, &[]).unwrap();
        let ctx = RingContext::new(n, &moduli).unwrap();
        let a = random_poly(&ctx, &mut rng);
        let b = random_poly(&ctx, &mut rng);
        let want = negacyclic_product(
            &a.to_biguint().unwrap(),
            &b.to_biguint().unwrap(),
            ctx.basis().product(),
        );
        let (mut fa, mut fb) = (a.clone(), b.clone());
        fa.to_ntt().unwrap();
        fb.to_ntt().unwrap();
        let mut c = fa.mul(&fb).unwrap();
        c.to_coefficient().unwrap();
        assert_eq!(c.to_biguint().unwrap(), want, "n = {n}, {bits}-bit x {k}");
        // add / sub / neg / scalar against the reference.
        let q = ctx.basis().product();
        let (av, bv) = (a.to_biguint().unwrap(), b.to_biguint().unwrap());
        let sum = a.add(&b).unwrap().to_biguint().unwrap();
        let diff = a.sub(&b).unwrap().to_biguint().unwrap();
        let neg = a.neg().to_biguint().unwrap();
        let scaled = a.mul_scalar(123_456_789).to_biguint().unwrap();
        // A signed scalar beyond every modulus of the 30-bit rings, either sign.
        let big = 0x7fff_ffff_ffff_fff1i64;
        let (up, down) = (
            a.mul_signed_scalar(big).to_biguint().unwrap(),
            a.mul_signed_scalar(-big).to_biguint().unwrap(),
        );
        for j in 0..n {
            let t = (&av[j] * big as u64) % q;
            assert_eq!(up[j], t);
            assert_eq!(down[j], (q - &t) % q);
            assert_eq!(sum[j], (&av[j] + &bv[j]) % q);
            assert_eq!(diff[j], (&av[j] + q - &bv[j]) % q);
            assert_eq!(neg[j], (q - &av[j]) % q);
            assert_eq!(scaled[j], (&av[j] * 123_456_789u64) % q);
        }
    }
}

#[test]
fn signed_and_bigint_inputs() {
    let moduli = ntt_primes(40, 32, 3, &[]).unwrap();
    let ctx = RingContext::new(16, &moduli).unwrap();
    let coeffs: Vec<i64> = (0..16).map(|i| i * 1_000_003 - 7_000_000).collect();
    let p = Poly::from_signed(&ctx, &coeffs).unwrap();
    let big: Vec<BigInt> = coeffs.iter().map(|&c| BigInt::from(c)).collect();
    let p2 = Poly::from_bigint(&ctx, &big).unwrap();
    assert_eq!(p.residues(), p2.residues());
    assert_eq!(p.limb(2).unwrap().len(), 16);
    assert!(p.limb(3).is_err());
}

#[test]
fn automorphism_commutes_with_ntt() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let n = 64;
    let moduli = ntt_primes(55, 2 * n as u64, 2, &[]).unwrap();
    let ctx = RingContext::new(n, &moduli).unwrap();
    let a = random_poly(&ctx, &mut rng);
    let b = random_poly(&ctx, &mut rng);
    for g in [3i64, 5, 25, 2 * n as i64 - 1, -3] {
        let coeff = a.automorphism(g).unwrap();
        let mut via_ntt = a.clone();
        via_ntt.to_ntt().unwrap();
        let mut via_ntt = via_ntt.automorphism(g).unwrap();
        via_ntt.to_coefficient().unwrap();
        assert_eq!(coeff.residues(), via_ntt.residues(), "g = {g}");
        // A ring homomorphism: sigma(a * b) = sigma(a) * sigma(b).
        let (mut fa, mut fb) = (a.clone(), b.clone());
        fa.to_ntt().unwrap();
        fb.to_ntt().unwrap();
        let lhs = fa.mul(&fb).unwrap().automorphism(g).unwrap();
        let rhs = fa
            .automorphism(g)
            .unwrap()
            .mul(&fb.automorphism(g).unwrap())
            .unwrap();
        assert_eq!(lhs.residues(), rhs.residues());
    }
    // X -> X^3 on X^(n-1): X^(3n-3) = X^(2n) X^(n-3) = X^(n-3);
    // X -> X^(n+1) on X: X^(n+1) = -X.
    let mut mono = vec![0i64; n];
    mono[n - 1] = 1;
    let s = Poly::from_signed(&ctx, &mono)
        .unwrap()
        .automorphism(3)
        .unwrap();
    let mut want = vec![0i64; n];
    want[n - 3] = 1;
    assert_eq!(
        s.residues(),
        Poly::from_signed(&ctx, &want).unwrap().residues()
    );
    let mut x = vec![0i64; n];
    x[1] = 1;
    let s = Poly::from_signed(&ctx, &x)
        .unwrap()
        .automorphism(n as i64 + 1)
        .unwrap();
    x[1] = -1;
    assert_eq!(
        s.residues(),
        Poly::from_signed(&ctx, &x).unwrap().residues()
    );
}

#[test]
fn bad_input_is_an_error() {
    let moduli = ntt_primes(40, 32, 2, &[]).unwrap();
    let ctx = RingContext::new(16, &moduli).unwrap();
    let other = RingContext::new(16, &moduli).unwrap();
    assert!(matches!(
        RingContext::new(12, &moduli),
        Err(Error::InvalidDegree { .. })
    ));
    assert!(
        RingContext::new(64, &moduli).is_err(),
        "moduli are not 1 mod 128"
    );
    assert!(
        RingContext::new(16, &[moduli[0], moduli[0]]).is_err(),
        "repeated modulus"
    );
    assert!(
        RingContext::new(16, &[moduli[0], 97 * 193]).is_err(),
        "not prime"
    );
    let a = Poly::zero(&ctx, Representation::Coefficient);
    let b = Poly::zero(&other, Representation::Coefficient);
    assert!(matches!(a.add(&b), Err(Error::ContextMismatch(_))));
    let mut c = Poly::zero(&ctx, Representation::Ntt);
    assert!(matches!(a.add(&c), Err(Error::WrongForm(_))));
    assert!(matches!(a.mul(&a), Err(Error::WrongForm(_))));
    assert!(c.mul_assign(&c.clone()).is_ok());
    assert!(matches!(
        Poly::from_residues(&ctx, vec![0; 31], Representation::Coefficient),
        Err(Error::LengthMismatch { .. })
    ));
    let mut bad = vec![0; 32];
    bad[20] = moduli[1];
    assert!(matches!(
        Poly::from_residues(&ctx, bad, Representation::Coefficient),
        Err(Error::OutOfRange(_))
    ));
    assert!(a.automorphism(4).is_err());
    assert!(Poly::from_signed(&ctx, &[1, 2]).is_err());
    assert!(c.to_biguint().is_err());
    c.to_coefficient().unwrap();
    assert!(c.to_biguint().is_ok());
}

/// `from_signed` against the exact residue (c mod q by big integers) and `Modulus::reduce_i64`: any
/// i64 (the Barrett path) and small values (the masked path), on moduli of 17 to 62 bits.
mod from_signed_exact {
    use super::*;
    use proptest::prelude::*;

    fn check(coeffs: &[i64]) {
        for bits in [17u32, 40, 62] {
            let n = coeffs.len();
            let moduli = ntt_primes(bits, 2 * n as u64, 2, &[]).unwrap();
            let ctx = RingContext::new(n, &moduli).unwrap();
            let p = Poly::from_signed(&ctx, coeffs).unwrap();
            for (i, q) in ctx.moduli().iter().enumerate() {
                let limb = p.limb(i).unwrap();
                for (&r, &c) in limb.iter().zip(coeffs) {
                    let qb = BigInt::from(q.value());
                    let want = ((BigInt::from(c) % &qb) + &qb) % &qb;
                    assert_eq!(BigInt::from(r), want, "c = {c}, q = {}", q.value());
                    assert_eq!(r, q.reduce_i64(c));
                }
            }
        }
    }

    proptest! {
        #[test]
        fn any_i64(c in proptest::collection::vec(any::<i64>(), 8)) {
            check(&c);
        }

        #[test]
        fn small(c in proptest::collection::vec(-70_000i64..70_000, 8)) {
            check(&c);
        }

        #[test]
        fn mixed(c in proptest::collection::vec(-20i64..20, 7), big in any::<i64>()) {
            let mut c = c;
            c.push(big);
            check(&c);
        }
    }

    #[test]
    fn extremes() {
        check(&[i64::MIN, i64::MAX, -1, 0, 1, i64::MIN + 1, -65_537, 65_537]);
    }
}
