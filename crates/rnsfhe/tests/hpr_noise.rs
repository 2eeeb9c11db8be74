//! HPR-FV noise: the exact noise budget against a big-integer model, and the checked decryption
//! that refuses (never decrypts wrongly) past the depth.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use rnsfhe::hpr::{depth::plain_product, HprContext, HprParameters, Relinearization};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

const N: usize = 32;

fn ctx(k: usize, d: usize, t: u64) -> std::sync::Arc<HprContext> {
    let p = HprParameters::new(N, t, k, d, 61, 3.2, Security::InsecureResearchOnly).unwrap();
    HprContext::new(&p).unwrap()
}

fn rand_msg(rng: &mut Csprng, t: u64) -> Vec<u64> {
    (0..N).map(|_| rng.next_u64() % t).collect()
}

/// The model: log2(q) - log2 ||[t v - |q|_t m]_q|| - 1, floored, from the exact noise v of
/// `noise_poly` (schoolbook products of big integers), or None when the noise is past q / 4t.
fn model_budget(c: &HprContext, v: &[BigInt], m: &[u64]) -> Option<u32> {
    let q = BigInt::from(c.params().q());
    let t = BigInt::from(c.params().plain_modulus());
    let qt = &q % &t;
    let mut max = BigInt::zero();
    for (vi, &mi) in v.iter().zip(m) {
        let mut x = (&t * vi - &qt * mi) % &q;
        if x > &q / 2i32 {
            x -= &q;
        } else if x < -(&q / 2i32) {
            x += &q;
        }
        max = max.max(x.abs());
    }
    if &max * 4 >= q {
        return None;
    }
    let log = if max.is_zero() {
        0.0
    } else {
        let shift = max.bits().saturating_sub(64);
        (&max >> shift).to_f64().unwrap().log2() + shift as f64
    };
    Some((c.params().log_q() - log - 1.0).max(0.0).floor() as u32)
}

/// Along a squaring chain (both relinearisations): the budget equals the exact model's at every
/// level it is positive, decreases with every multiplication, and every checked decryption is
/// either right or refused with `NoiseBudgetExhausted`; the chain is refused before (never after)
/// Alg. 1 first goes wrong.
#[test]
fn squaring_chain_budget_and_refusal() {
    for (k, d, t, mode) in [
        (2, 3, 193, Relinearization::PerResidue),
        (1, 4, 17, Relinearization::PerDigit),
        (3, 2, 65537, Relinearization::PerResidue),
    ] {
        let c = ctx(k, d, t);
        let mut rng = Csprng::from_seed([k as u8 + 40; 32]);
        let sk = c.secret_key(&mut rng).unwrap();
        let pk = c.public_key(&sk, &mut rng).unwrap();
        let rlk = c.relin_key(&sk, mode, &mut rng).unwrap();
        let mut want = rand_msg(&mut rng, t);
        let mut ct = c.encrypt(&pk, &want, &mut rng).unwrap();
        let mut last = u32::MAX;
        let mut refused_at = None;
        let mut wrong_at = None;
        for level in 0..40u32 {
            if level > 0 {
                ct = c.mul(&ct, &ct, &rlk).unwrap();
                want = plain_product(&want, &want, t).unwrap();
            }
            let budget = c.noise_budget(&sk, &ct).unwrap();
            let v = c.noise_poly(&sk, &ct, &want).unwrap();
            let checked = c.decrypt_checked(&sk, &ct);
            match &checked {
                Ok(got) => {
                    assert_eq!(got, &want, "k {k} level {level}: accepted and wrong");
                    assert!(budget > 0, "accepted with budget 0");
                    assert_eq!(Some(budget), model_budget(&c, &v, &want), "level {level}");
                    assert!(budget < last, "budget {budget} after {last}");
                    last = budget;
                }
                Err(Error::NoiseBudgetExhausted(_)) => {
                    assert_eq!(budget, 0);
                    refused_at.get_or_insert(level);
                }
                Err(e) => panic!("unexpected error {e}"),
            }
            if wrong_at.is_none() && c.decrypt(&sk, &ct).unwrap() != want {
                wrong_at = Some(level);
            }
            if wrong_at.is_some() && refused_at.is_some() {
                break;
            }
        }
        let (refused, wrong) = (refused_at.unwrap(), wrong_at.unwrap());
        assert!(refused <= wrong, "refused at {refused}, wrong at {wrong}");
        // The carried bound is pessimistic (10 standard deviations: about 2 bits per product).
        assert!(
            4 * refused >= 3 * wrong,
            "k {k}: refused at {refused}, wrong at {wrong}"
        );
        eprintln!("k {k} d {d} t {t}: refused at {refused}, Alg. 1 wrong at {wrong}");
        // The 3-part product is checked too.
        let three = c.mul_no_relin(&ct, &ct).unwrap();
        assert!(matches!(
            c.decrypt_checked(&sk, &three),
            Err(Error::NoiseBudgetExhausted(_))
        ));
    }
}

/// Noise added past q / 4t (a trivial ciphertext, no carried bound) is refused by the measurement,
/// while Alg. 1 alone still returns a result; just inside, the ciphertext decrypts.
#[test]
fn measured_noise_past_a_quarter_is_refused() {
    let (k, d, t) = (2, 3, 17);
    let c = ctx(k, d, t);
    let mut rng = Csprng::from_seed([12; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let m = rand_msg(&mut rng, t);
    let ct = c.encrypt_symmetric(&sk, &m, &mut rng).unwrap();
    assert!(ct.noise_bound_log2().is_some());
    let q = BigInt::from(c.params().q());
    for (num, ok) in [(1u32, true), (3, false)] {
        // v_5 = num q / (8 t): nu_5 about num / 8.
        let mut v = vec![BigInt::zero(); N];
        v[5] = &q * num / (8 * t);
        let noisy = c.add(&ct, &c.trivial(&v).unwrap()).unwrap();
        assert!(noisy.noise_bound_log2().is_none());
        assert!(c.decrypt(&sk, &noisy).is_ok());
        let got = c.decrypt_checked(&sk, &noisy);
        if ok {
            assert_eq!(got.unwrap(), m);
            assert!(c.noise_budget(&sk, &noisy).unwrap() >= 1);
        } else {
            assert!(matches!(got, Err(Error::NoiseBudgetExhausted(_))));
            assert_eq!(c.noise_budget(&sk, &noisy).unwrap(), 0);
        }
    }
}

/// Additions, plaintext operations and rotations carry bounds the measurement stays below.
#[test]
fn plaintext_operations_keep_the_bound() {
    let (k, d, t) = (2, 3, 193);
    let c = ctx(k, d, t);
    let mut rng = Csprng::from_seed([13; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let (a, b) = (rand_msg(&mut rng, t), rand_msg(&mut rng, t));
    let ca = c.encrypt(&pk, &a, &mut rng).unwrap();
    let fresh = c.noise_budget(&sk, &ca).unwrap();
    let mut x = c.add_plain(&c.mul_plain(&ca, &b).unwrap(), &a).unwrap();
    let want = {
        let p = plain_product(&a, &b, t).unwrap();
        p.iter()
            .zip(&a)
            .map(|(x, y)| (x + y) % t)
            .collect::<Vec<_>>()
    };
    assert_eq!(c.decrypt_checked(&sk, &x).unwrap(), want);
    let after = c.noise_budget(&sk, &x).unwrap();
    assert!(after < fresh && after > 0, "{after} after {fresh}");
    let keys = c.galois_keys(&sk, &[3], &mut rng).unwrap();
    x = c.apply_galois(&x, 3, &keys).unwrap();
    assert!(x.noise_bound_log2().is_some());
    assert!(c.decrypt_checked(&sk, &x).is_ok());
    let v = c
        .noise_poly(&sk, &c.sub(&x, &x).unwrap(), &vec![0; N])
        .unwrap();
    assert!(v.iter().all(|x| x.is_zero()));
}

/// sum_slots against the slot sum mod t, with a carried bound the measurement stays below.
#[test]
fn sum_slots_sums_and_keeps_the_bound() {
    let t = 193; // 1 mod 2n: batching
    let c = ctx(2, 3, t);
    let enc = rnsfhe::encoding::BatchEncoder::new(N, t).unwrap();
    let mut rng = Csprng::from_seed([14; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let keys = c.galois_keys_for_sum(&sk, &mut rng).unwrap();
    let v = rand_msg(&mut rng, t);
    let ct = c.encrypt(&pk, &enc.encode(&v).unwrap(), &mut rng).unwrap();
    let s = c.sum_slots(&ct, &keys).unwrap();
    let want = v.iter().sum::<u64>() % t;
    let got = enc.decode(&c.decrypt_checked(&sk, &s).unwrap()).unwrap();
    assert!(got.iter().all(|&x| x == want), "{got:?} != {want}");
    assert!(c.noise_budget(&sk, &s).unwrap() < c.noise_budget(&sk, &ct).unwrap());
}
