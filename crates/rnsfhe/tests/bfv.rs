//! BFV end to end: every decryption method against exact big-integer decryption, both
//! multiplication methods, relinearisation layouts, rotations, and the refused inputs.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use rnsfhe::bfv::{BfvCiphertext, BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{KeySwitching, SecretKey};
use rnsfhe::Error;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::reference::negacyclic_product;
use rnsfhe_math::sample::Csprng;

const DECRYPTIONS: [Decryption; 4] = [
    Decryption::Gamma,
    Decryption::PowerOfTwoGamma,
    Decryption::FloatingPoint,
    Decryption::Hps,
];

fn context(
    n: usize,
    bits: &[u32],
    special: &[u32],
    t: u64,
    mul: Multiplication,
    ks: KeySwitching,
) -> Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(n)
        .plain_modulus(t)
        .moduli_bits(bits)
        .special_moduli_bits(special)
        .multiplication(mul)
        .key_switching(ks)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

/// Exact decryption: round(t [c0 + c1 s + ...]_q / q) mod t with big integers.
fn exact_decrypt(ctx: &BfvContext, ct: &BfvCiphertext, sk: &SecretKey) -> Vec<u64> {
    let q = ctx.ring().basis().product().clone();
    let n = ctx.params().degree();
    let s: Vec<BigUint> = sk
        .coefficients()
        .unwrap()
        .iter()
        .map(|&c| {
            BigInt::from(c)
                .mod_floor(&BigInt::from(q.clone()))
                .to_biguint()
                .unwrap()
        })
        .collect();
    let mut acc: Vec<BigUint> = ct.parts()[0].to_biguint().unwrap();
    let mut power = s.clone();
    for part in &ct.parts()[1..] {
        let prod = negacyclic_product(&part.to_biguint().unwrap(), &power, &q);
        for (a, p) in acc.iter_mut().zip(prod) {
            *a = (&*a + p) % &q;
        }
        power = negacyclic_product(&power, &s, &q);
    }
    let t = BigUint::from(ctx.params().plain_modulus());
    (0..n)
        .map(|i| {
            let num = &acc[i] * &t * 2u32 + &q;
            let r = (num / (&q * 2u32)) % &t;
            r.iter_u64_digits().next().unwrap_or(0)
        })
        .collect()
}

fn check_all_decryptions(ctx: &BfvContext, ct: &BfvCiphertext, sk: &SecretKey, want: &[u64]) {
    let exact = exact_decrypt(ctx, ct, sk);
    assert_eq!(exact, want, "exact decryption");
    for m in DECRYPTIONS {
        let pt = ctx.decrypt_with(ct, sk, m).unwrap();
        assert_eq!(pt.coefficients(), want, "{m:?}");
    }
}

fn random_plain(rng: &mut Csprng, n: usize, t: u64) -> Vec<u64> {
    let m = Modulus::new(t).unwrap();
    (0..n).map(|_| rng.uniform_mod(&m)).collect()
}

/// Negacyclic product of plaintexts mod t.
fn plain_product(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
    let conv = |v: &[u64]| v.iter().map(|&x| BigUint::from(x)).collect::<Vec<_>>();
    negacyclic_product(&conv(a), &conv(b), &BigUint::from(t))
        .into_iter()
        .map(|x| x.iter_u64_digits().next().unwrap_or(0))
        .collect()
}

#[test]
fn every_decryption_matches_exact_decryption() {
    let mut rng = Csprng::from_seed([1; 32]);
    for (bits, t) in [
        (30u32, 2u64),
        (30, 1024),
        (50, 65537),
        (60, 65537),
        (61, (1 << 30) + 3),
    ] {
        let ctx = context(
            64,
            &[bits; 4],
            &[],
            t,
            Multiplication::Hps,
            KeySwitching::default(),
        );
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let m = random_plain(&mut rng, 64, t);
        let pt = ctx.plaintext_from_coefficients(&m).unwrap();
        let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
        check_all_decryptions(&ctx, &ct, &sk, &m);
        let cs = ctx.encrypt_symmetric(&pt, &sk, &mut rng).unwrap();
        assert!(cs.seed().is_some());
        check_all_decryptions(&ctx, &cs, &sk, &m);
    }
}

#[test]
fn multiplication_both_methods_all_decryptions() {
    let mut rng = Csprng::from_seed([2; 32]);
    let n = 128;
    for mul in [Multiplication::Behz, Multiplication::Hps] {
        for (bits, k, special, t) in [
            (30u32, 5usize, vec![], 2u64),
            (30, 5, vec![], 1024),
            (50, 3, vec![50], 65537),
            (60, 4, vec![60], 257),
            (62, 3, vec![], 1024),
            // The default layout's shape at 2^13: digits wider than the special prime.
            (59, 3, vec![43], 65537),
        ] {
            let ctx = context(n, &vec![bits; k], &special, t, mul, KeySwitching::default());
            let (sk, pk) = ctx.keygen(&mut rng).unwrap();
            let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
            let a = random_plain(&mut rng, n, t);
            let b = random_plain(&mut rng, n, t);
            let ca = ctx
                .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, &mut rng)
                .unwrap();
            let cb = ctx
                .encrypt(&ctx.plaintext_from_coefficients(&b).unwrap(), &pk, &mut rng)
                .unwrap();
            let want = plain_product(&a, &b, t);
            let c3 = ctx.multiply_no_relin(&ca, &cb).unwrap();
            assert_eq!(c3.size(), 3);
            check_all_decryptions(&ctx, &c3, &sk, &want);
            let c2 = ctx.relinearize(&c3, &rlk).unwrap();
            check_all_decryptions(&ctx, &c2, &sk, &want);
            let sq = ctx.square(&ca, &rlk).unwrap();
            check_all_decryptions(&ctx, &sq, &sk, &plain_product(&a, &a, t));
            assert!(ctx.noise_budget(&c2, &sk).unwrap() > 0, "{mul:?} {bits}");
        }
    }
}

#[test]
fn relinearisation_layouts() {
    let mut rng = Csprng::from_seed([3; 32]);
    let n = 64;
    let t = 65537;
    let mut budgets = Vec::new();
    for (special, ks) in [
        (vec![], KeySwitching::default()),
        (
            vec![],
            KeySwitching {
                omega_bits: Some(10),
                ..KeySwitching::default()
            },
        ),
        (
            vec![],
            KeySwitching {
                truncation: 2,
                ..KeySwitching::default()
            },
        ),
        (
            vec![],
            KeySwitching {
                digit_primes: 2,
                ..KeySwitching::default()
            },
        ),
        (
            vec![60, 60],
            KeySwitching {
                digit_primes: 2,
                ..KeySwitching::default()
            },
        ),
        (
            vec![60],
            KeySwitching {
                digit_primes: 5,
                ..KeySwitching::default()
            },
        ),
    ] {
        let ctx = context(n, &[60; 5], &special, t, Multiplication::Hps, ks);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let a = random_plain(&mut rng, n, t);
        let ca = ctx
            .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, &mut rng)
            .unwrap();
        let sq = ctx.square(&ca, &rlk).unwrap();
        assert_eq!(
            exact_decrypt(&ctx, &sq, &sk),
            plain_product(&a, &a, t),
            "{ks:?}"
        );
        // Bajard et al. (SAC 2016) section 4.6: row j of a truncated key is zero on the limbs I_j = {j+1, .., j+i}
        // (cyclically) and is stored without them; every stored limb is non-zero.
        let q = ctx.params().moduli();
        let k = q.len();
        for (j, (k0, k1)) in rlk.key().parts().iter().enumerate() {
            let kept: Vec<u64> = (0..k)
                .filter(|i| !(1..=ks.truncation).any(|d| (j + d) % k == *i))
                .map(|i| q[i])
                .chain(ctx.params().special_moduli().iter().copied())
                .collect();
            for part in [k0, k1] {
                let stored: Vec<u64> = part.context().moduli().iter().map(|m| m.value()).collect();
                assert_eq!(stored, kept, "{ks:?} row {j}");
                assert!(
                    part.residues()
                        .chunks_exact(n)
                        .all(|l| l.iter().any(|&x| x != 0)),
                    "{ks:?} row {j}: a zero limb is stored"
                );
            }
        }
        budgets.push((ks, ctx.noise_budget(&sq, &sk).unwrap()));
    }
    // Remark 2: omega = 2^10 digits shrink the relinearisation noise (digits < 2^10 instead of < q_j,
    // 60 bits): 20+ bits more budget than one digit per prime (about 31 here, when the product's own
    // noise takes over); truncation (section 4.6) costs budget.
    let budget =
        |pred: &dyn Fn(&KeySwitching) -> bool| budgets.iter().find(|(k, _)| pred(k)).unwrap().1;
    let plain = budget(&|k| *k == KeySwitching::default());
    let omega = budget(&|k| k.omega_bits.is_some());
    let truncated = budget(&|k| k.truncation > 0);
    assert!(
        omega >= plain + 20,
        "omega digits: {omega} bits, one digit per prime: {plain} bits"
    );
    assert!(
        truncated < plain,
        "truncated key: {truncated} bits, full key: {plain} bits"
    );
}

#[test]
fn batched_arithmetic_and_rotations() {
    let mut rng = Csprng::from_seed([4; 32]);
    let n = 256;
    let t = 65537;
    // vec![40]: a special prime narrower than the digits, as in the 2^13 default.
    for special in [vec![], vec![55], vec![40]] {
        let ctx = context(
            n,
            &[55; 3],
            &special,
            t,
            Multiplication::Behz,
            KeySwitching::default(),
        );
        assert_eq!(ctx.slots(), n);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &[1, -3], true, &mut rng).unwrap();
        let sum_keys = ctx.galois_keys_for_sum(&sk, &mut rng).unwrap();
        let a = random_plain(&mut rng, n, t);
        let b = random_plain(&mut rng, n, t);
        let ca = ctx
            .encrypt(&ctx.encode(&a).unwrap(), &pk, &mut rng)
            .unwrap();
        let pb = ctx.encode(&b).unwrap();
        let cb = ctx.encrypt_symmetric(&pb, &sk, &mut rng).unwrap();
        let dec = |c: &BfvCiphertext| ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap();
        let tm = Modulus::new(t).unwrap();
        let zip = |f: &dyn Fn(u64, u64) -> u64| {
            a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect::<Vec<_>>()
        };
        assert_eq!(dec(&ctx.add(&ca, &cb).unwrap()), zip(&|x, y| tm.add(x, y)));
        assert_eq!(dec(&ctx.sub(&ca, &cb).unwrap()), zip(&|x, y| tm.sub(x, y)));
        assert_eq!(
            dec(&ctx.multiply(&ca, &cb, &rlk).unwrap()),
            zip(&|x, y| tm.mul(x, y))
        );
        assert_eq!(
            dec(&ctx.mul_plain(&ca, &pb).unwrap()),
            zip(&|x, y| tm.mul(x, y))
        );
        assert_eq!(
            dec(&ctx.add_plain(&ca, &pb).unwrap()),
            zip(&|x, y| tm.add(x, y))
        );
        assert_eq!(
            dec(&ctx.sub_plain(&ca, &pb).unwrap()),
            zip(&|x, y| tm.sub(x, y))
        );
        assert_eq!(
            dec(&ctx.negate(&ca).unwrap()),
            a.iter().map(|&x| tm.neg(x)).collect::<Vec<_>>()
        );
        assert_eq!(
            dec(&ctx.mul_scalar(&ca, -3).unwrap()),
            a.iter().map(|&x| tm.mul(x, t - 3)).collect::<Vec<_>>()
        );
        let half = n / 2;
        let rot = |v: &[u64], s: i64| -> Vec<u64> {
            let mut out = vec![0; n];
            for r in 0..2 {
                for i in 0..half {
                    out[r * half + i] =
                        v[r * half + (i as i64 + s).rem_euclid(half as i64) as usize];
                }
            }
            out
        };
        assert_eq!(dec(&ctx.rotate_rows(&ca, 1, &gk).unwrap()), rot(&a, 1));
        assert_eq!(dec(&ctx.rotate_rows(&ca, -3, &gk).unwrap()), rot(&a, -3));
        let swapped: Vec<u64> = a[half..].iter().chain(&a[..half]).copied().collect();
        assert_eq!(dec(&ctx.rotate_columns(&ca, &gk).unwrap()), swapped);
        let total = a.iter().fold(0, |s, &x| tm.add(s, x));
        assert_eq!(dec(&ctx.sum_slots(&ca, &sum_keys).unwrap()), vec![total; n]);
        assert!(matches!(
            ctx.rotate_rows(&ca, 2, &gk),
            Err(Error::MissingGaloisKey { .. })
        ));
    }
}

#[test]
fn refused_inputs() {
    let mut rng = Csprng::from_seed([5; 32]);
    let ks = KeySwitching::default();
    let a = context(64, &[40; 2], &[], 257, Multiplication::Hps, ks);
    // Other parameters (t): contexts of equal parameters share their keys and ciphertexts
    // (tests/keys_apart.rs); these share the rings but not the parameter set.
    let b = context(64, &[40; 2], &[], 769, Multiplication::Hps, ks);
    let (ska, pka) = a.keygen(&mut rng).unwrap();
    let (skb, pkb) = b.keygen(&mut rng).unwrap();
    let rlk = a.relin_key(&ska, &mut rng).unwrap();
    let pt = a.encode(&[1, 2, 3]).unwrap();
    let ca = a.encrypt(&pt, &pka, &mut rng).unwrap();
    let cb = b.encrypt(&b.encode(&[1]).unwrap(), &pkb, &mut rng).unwrap();
    assert!(matches!(
        a.add(&ca, &cb),
        Err(Error::ParameterMismatch { .. })
    ));
    assert!(matches!(
        a.encrypt(&pt, &pkb, &mut rng),
        Err(Error::ParameterMismatch { .. })
    ));
    assert!(matches!(
        b.encrypt(&pt, &pkb, &mut rng),
        Err(Error::ParameterMismatch { .. })
    ));
    assert!(matches!(
        a.decrypt(&ca, &skb),
        Err(Error::ParameterMismatch { .. })
    ));
    assert!(matches!(a.encode(&[257]), Err(Error::OutOfRange(_))));
    assert!(matches!(a.encode(&[0; 65]), Err(Error::OutOfRange(_))));
    let c3 = a.multiply_no_relin(&ca, &ca).unwrap();
    assert!(matches!(
        a.multiply_no_relin(&c3, &ca),
        Err(Error::InvalidCiphertext(_))
    ));
    assert!(a.relinearize(&c3, &rlk).is_ok());
    let ct = BfvParameters::builder()
        .degree(64)
        .plain_modulus(65537)
        .build();
    assert!(matches!(
        ct,
        Err(Error::InvalidParameters(_)) | Err(Error::InvalidDegree { .. })
    ));
    let p = BfvParameters::builder()
        .degree(4096)
        .plain_modulus(3)
        .build()
        .unwrap();
    let c = BfvContext::new(p).unwrap();
    assert!(matches!(c.encode(&[1]), Err(Error::InvalidParameters(_))));
    let insecure = BfvParameters::builder()
        .degree(1024)
        .moduli_bits(&[60; 4])
        .build();
    assert!(insecure.is_err());
}

#[test]
fn large_plain_modulus_keeps_hps_decryption() {
    // t near 2^59: gamma t no longer fits a word, so Alg. 1 and Lemma 3 report an error while HPS and
    // floating-point decryption work.
    let mut rng = Csprng::from_seed([8; 32]);
    let t = (1u64 << 59) + 27;
    let ctx = context(
        64,
        &[60; 4],
        &[60],
        t,
        Multiplication::Hps,
        KeySwitching::default(),
    );
    assert!(ctx.gammas().is_none());
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let m = random_plain(&mut rng, 64, t);
    let ct = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&m).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_eq!(
        ctx.decrypt_with(&ct, &sk, Decryption::Hps)
            .unwrap()
            .coefficients(),
        m
    );
    assert_eq!(exact_decrypt(&ctx, &ct, &sk), m);
    assert!(matches!(
        ctx.decrypt_with(&ct, &sk, Decryption::Gamma),
        Err(Error::InvalidParameters(_))
    ));
    assert!(matches!(
        ctx.decrypt_with(&ct, &sk, Decryption::PowerOfTwoGamma),
        Err(Error::InvalidParameters(_))
    ));
}
