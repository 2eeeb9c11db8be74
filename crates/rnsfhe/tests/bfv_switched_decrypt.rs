//! `BfvContext::decrypt` switches a two-part ciphertext to a shorter prefix of q before decrypting
//! (decrypt.rs, `SwitchedDecryption`): it must give the plaintext of the decryption over the whole
//! q for every ciphertext whose phase is more than 2^-64 from a rounding boundary (tested at 2^-60), with a real c_1
//! (the switch's rounding times s), for every method.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use rnsfhe::bfv::{BfvCiphertext, BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::params::Security;
use rnsfhe::rlwe::SecretKey;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ring::Poly;
use rnsfhe_math::sample::Csprng;

const METHODS: [Decryption; 4] = [
    Decryption::Gamma,
    Decryption::PowerOfTwoGamma,
    Decryption::FloatingPoint,
    Decryption::Hps,
];

/// n = 64 with six 30-bit primes (the switch keeps 4 of them for t = 65537), or a wider set.
fn context(n: usize, bits: &[u32], t: u64, method: Decryption) -> Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(n)
        .plain_modulus(t)
        .moduli_bits(bits)
        .special_moduli_bits(&[])
        .multiplication(Multiplication::Behz)
        .decryption(method)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

fn random_plain(ctx: &BfvContext, rng: &mut Csprng) -> rnsfhe::bfv::BfvPlaintext {
    let t = Modulus::new(ctx.params().plain_modulus()).unwrap();
    let m: Vec<u64> = (0..ctx.params().degree())
        .map(|_| rng.uniform_mod(&t))
        .collect();
    ctx.plaintext_from_coefficients(&m).unwrap()
}

#[test]
fn switched_decryption_equals_the_full_one_along_a_product_chain() {
    let mut rng = Csprng::from_seed([41; 32]);
    for method in METHODS {
        for (n, bits, t) in [
            (64, vec![30u32; 6], 65537u64),
            (128, vec![50, 50, 50, 50], 257),
        ] {
            let ctx = context(n, &bits, t, method);
            // The fewest primes with log2 t + log2((k''/2 + 1)(n + 1)) + 64 bits.
            assert_eq!(ctx.decryption_moduli(), if n == 64 { 4 } else { 2 });
            let (sk, pk) = ctx.keygen(&mut rng).unwrap();
            let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
            let mut ct = ctx
                .encrypt(&random_plain(&ctx, &mut rng), &pk, &mut rng)
                .unwrap();
            // Until the noise is exhausted, and one step past it.
            for step in 0..8 {
                let full = ctx.decrypt_with(&ct, &sk, method).unwrap();
                assert_eq!(
                    ctx.decrypt(&ct, &sk).unwrap(),
                    full,
                    "{method:?}, n = {n}, step {step}"
                );
                if ctx.noise_budget(&ct, &sk).unwrap() == 0 {
                    break;
                }
                // The checked decryption works on the switched phase too.
                assert_eq!(ctx.decrypt_checked(&ct, &sk, method).unwrap(), full);
                let other = ctx
                    .encrypt(&random_plain(&ctx, &mut rng), &pk, &mut rng)
                    .unwrap();
                ct = ctx.multiply(&ct, &other, &rlk).unwrap();
            }
            // Three parts (no relinearisation) take the full path: the same result.
            let three = ctx.multiply_no_relin(&ct, &ct).unwrap();
            assert_eq!(
                ctx.decrypt(&three, &sk).unwrap(),
                ctx.decrypt_with(&three, &sk, method).unwrap()
            );
        }
    }
}

/// c_0 changed so that t [c_0 + c_1 s]_q / q = m + f exactly (to within t / q) for the centred
/// m of `pt` and the fraction f(i) of coefficient i; c_1 unchanged.
fn with_fraction(
    ctx: &BfvContext,
    ct: &BfvCiphertext,
    sk: &SecretKey,
    pt: &rnsfhe::bfv::BfvPlaintext,
    f: impl Fn(usize) -> (BigInt, BigInt),
) -> BfvCiphertext {
    let q = BigInt::from(ctx.ring().basis().product().clone());
    let t = ctx.params().plain_modulus();
    let tm = Modulus::new(t).unwrap();
    let x: Vec<BigUint> = ctx.phase(ct, sk).unwrap().to_biguint().unwrap();
    let c0: Vec<BigUint> = ct.parts()[0].to_biguint().unwrap();
    let coeffs: Vec<BigInt> = (0..ctx.params().degree())
        .map(|i| {
            // x* = round(q (m + num/den) / t); c_0* = c_0 + x* - x.
            let (num, den) = f(i);
            let m = BigInt::from(tm.center(pt.coefficients()[i]));
            let top: BigInt = &q * (&m * &den + &num) * BigInt::from(2) + BigInt::from(t) * &den;
            let target = top.div_floor(&(BigInt::from(t) * &den * 2));
            (BigInt::from(c0[i].clone()) + target - BigInt::from(x[i].clone())).mod_floor(&q)
        })
        .collect();
    let c0 = Poly::from_bigint(ctx.ring(), &coeffs).unwrap();
    ctx.ciphertext_from_parts(vec![c0, ct.parts()[1].clone()], ct.key_id())
        .unwrap()
}

#[test]
fn switched_decryption_agrees_near_the_rounding_boundary() {
    let mut rng = Csprng::from_seed([42; 32]);
    for method in METHODS {
        let ctx = context(64, &[30; 6], 65537, method);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let pt = random_plain(&ctx, &mut rng);
        let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
        let den = BigInt::from(1u64) << 62usize;
        let t = Modulus::new(ctx.params().plain_modulus()).unwrap();
        // f = +-(1/2 - 2^-60) for HPS (exact rounding); the other methods decrypt correctly only
        // to within their own approximation of 1/2 (k / gamma for Theorem 1, the float error of
        // DecRNS-flp), so +-(1/2 - 2^-20) there.
        let inside = match method {
            Decryption::Hps => (&den >> 1usize) - BigInt::from(4),
            _ => (&den >> 1usize) - (&den >> 20usize),
        };
        let sign = |i: usize| {
            if i.is_multiple_of(3) {
                Sign::Minus
            } else {
                Sign::Plus
            }
        };
        let near = with_fraction(&ctx, &ct, &sk, &pt, |i| {
            let mut v = inside.clone();
            if sign(i) == Sign::Minus {
                v = -v;
            }
            (v, den.clone())
        });
        assert_eq!(
            ctx.decrypt_with(&near, &sk, method).unwrap(),
            pt,
            "{method:?} full"
        );
        assert_eq!(ctx.decrypt(&near, &sk).unwrap(), pt, "{method:?} inside");
        // f = +-(1/2 + 2^-60): both decrypt to m +- 1 (exact rounding).
        let past = with_fraction(&ctx, &ct, &sk, &pt, |i| {
            let mut v = (&den >> 1usize) + BigInt::from(4);
            if sign(i) == Sign::Minus {
                v = -v;
            }
            (v, den.clone())
        });
        let want: Vec<u64> = pt
            .coefficients()
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                if sign(i) == Sign::Minus {
                    t.sub(m, 1)
                } else {
                    t.add(m, 1)
                }
            })
            .collect();
        if method == Decryption::Hps {
            assert_eq!(ctx.decrypt(&past, &sk).unwrap().coefficients(), want);
            assert_eq!(
                ctx.decrypt_with(&past, &sk, method).unwrap().coefficients(),
                want,
                "{method:?} past"
            );
        }
    }
}

#[test]
fn switched_decryption_refuses_a_foreign_key() {
    let mut rng = Csprng::from_seed([43; 32]);
    let ctx = context(64, &[30; 6], 65537, Decryption::Hps);
    // Other parameters (t): a context of equal parameters would take the key (tests/keys_apart.rs).
    let other = context(64, &[30; 6], 257, Decryption::Hps);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let (sk2, _) = ctx.keygen(&mut rng).unwrap();
    let (osk, _) = other.keygen(&mut rng).unwrap();
    let ct = ctx
        .encrypt(&random_plain(&ctx, &mut rng), &pk, &mut rng)
        .unwrap();
    assert!(ctx.decrypt(&ct, &sk).is_ok());
    assert!(matches!(
        ctx.decrypt(&ct, &osk),
        Err(rnsfhe::Error::ParameterMismatch { .. })
    ));
    assert!(ctx.decrypt(&ct, &sk2).is_err());
}

#[test]
fn default_sets_switch_to_two_primes() {
    for (n, want) in [(8192usize, 2usize), (16384, 2)] {
        let p = BfvParameters::builder()
            .degree(n)
            .plain_modulus(65537)
            .build()
            .unwrap();
        let ctx = BfvContext::new(p).unwrap();
        assert_eq!(ctx.decryption_moduli(), want, "n = {n}");
    }
}
