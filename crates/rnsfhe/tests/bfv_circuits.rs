//! Random BFV circuits (products, rotations, `sum_slots`, additions, plaintext
//! products) at n = 4096 and 8192, t = 786433, BEHZ and HPS, checked against the clear-text result.
//! Every result either decrypts right through `decrypt_checked` or is refused with
//! `NoiseBudgetExhausted`; `noise_budget` is 0 whenever the plain decryption is wrong.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers abort loudly

use rnsfhe::bfv::{BfvCiphertext, BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::rlwe::{GaloisKeys, RelinKey, SecretKey};
use rnsfhe::Error;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::sample::Csprng;
use std::sync::Arc;

const T: u64 = 786433;

struct Setup {
    ctx: Arc<BfvContext>,
    sk: SecretKey,
    pk: rnsfhe::rlwe::PublicKey,
    rlk: RelinKey,
    gk: GaloisKeys,
    tm: Modulus,
}

fn setup(n: usize, mul: Multiplication, rng: &mut Csprng) -> Setup {
    let p = BfvParameters::builder()
        .degree(n)
        .plain_modulus(T)
        .multiplication(mul)
        .build()
        .unwrap();
    let ctx = BfvContext::new(p).unwrap();
    let (sk, pk) = ctx.keygen(rng).unwrap();
    let rlk = ctx.relin_key(&sk, rng).unwrap();
    let gk = ctx.galois_keys_for_sum(&sk, rng).unwrap();
    Setup {
        ctx,
        sk,
        pk,
        rlk,
        gk,
        tm: Modulus::new(T).unwrap(),
    }
}

/// Rows of the 2 x n/2 slot matrix rotated left by `step`.
fn rotate(v: &[u64], step: usize) -> Vec<u64> {
    let h = v.len() / 2;
    let mut out = vec![0; v.len()];
    for r in 0..2 {
        for i in 0..h {
            out[r * h + i] = v[r * h + (i + step) % h];
        }
    }
    out
}

/// What one result did: accepted right, refused, or (the defect) accepted wrong / budget > 0 wrong.
#[derive(Default, Debug)]
struct Tally {
    right: usize,
    refused: usize,
    lies: Vec<String>,
}

fn check(s: &Setup, ct: &BfvCiphertext, want: &[u64], what: &str, tally: &mut Tally) {
    let ctx = &s.ctx;
    let plain = ctx.decode(&ctx.decrypt(ct, &s.sk).unwrap()).unwrap();
    let budget = ctx.noise_budget(ct, &s.sk).unwrap();
    if plain != want && budget > 0 {
        tally
            .lies
            .push(format!("{what}: wrong with budget {budget}"));
    }
    // The carried bound holds wherever the measurement is unambiguous (bound below 1/2).
    let bound = ct.noise_bound_log2().unwrap();
    let measured = ctx.noise_log2(ct, &s.sk).unwrap() + (T as f64).log2() - ctx.params().log_q();
    if bound < -1.0 && measured > bound + 1e-6 {
        tally.lies.push(format!(
            "{what}: measured 2^{measured:.2} above the bound 2^{bound:.2}"
        ));
    }
    for method in [Decryption::Hps, Decryption::Gamma] {
        match ctx.decrypt_checked(ct, &s.sk, method) {
            Ok(pt) if ctx.decode(&pt).unwrap() == want => tally.right += 1,
            Ok(_) => tally
                .lies
                .push(format!("{what}: {method:?} accepted a wrong decryption")),
            Err(Error::NoiseBudgetExhausted(_)) => tally.refused += 1,
            Err(e) => panic!("{what}: {e}"),
        }
    }
}

/// Random circuits of `ops` steps over a pool of encryptions; returns the tally.
fn random_circuits(s: &Setup, circuits: usize, ops: usize, rng: &mut Csprng) -> Tally {
    let ctx = &s.ctx;
    let n = ctx.params().degree();
    let tm = &s.tm;
    let mut tally = Tally::default();
    let small = Modulus::new(1 << 12).unwrap();
    for c in 0..circuits {
        let fresh = |rng: &mut Csprng| {
            let v: Vec<u64> = (0..n).map(|_| rng.uniform_mod(tm)).collect();
            let ct = ctx.encrypt(&ctx.encode(&v).unwrap(), &s.pk, rng).unwrap();
            (ct, v)
        };
        let mut pool = vec![fresh(rng), fresh(rng)];
        for step in 0..ops {
            // Half the steps continue from the latest result, so circuits get deep.
            let i = match rng.uniform_mod(&small) % 2 {
                0 => pool.len() - 1,
                _ => rng.uniform_mod(&small) as usize % pool.len(),
            };
            let j = rng.uniform_mod(&small) as usize % pool.len();
            let (a, va) = pool[i].clone();
            let (b, vb) = pool[j].clone();
            let op = rng.uniform_mod(&small) % 8;
            let zip = |f: &dyn Fn(u64, u64) -> u64| -> Vec<u64> {
                va.iter().zip(&vb).map(|(&x, &y)| f(x, y)).collect()
            };
            let (ct, v, name) = match op {
                0..=2 => (
                    ctx.multiply(&a, &b, &s.rlk).unwrap(),
                    zip(&|x, y| tm.mul(x, y)),
                    "multiply",
                ),
                3 => {
                    let k = 1usize << (rng.uniform_mod(&small) as usize % 11);
                    (
                        ctx.rotate_rows(&a, k as i64, &s.gk).unwrap(),
                        rotate(&va, k),
                        "rotate",
                    )
                }
                4 => {
                    let total = va.iter().fold(0, |acc, &x| tm.add(acc, x));
                    (
                        ctx.sum_slots(&a, &s.gk).unwrap(),
                        vec![total; n],
                        "sum_slots",
                    )
                }
                5 => (ctx.add(&a, &b).unwrap(), zip(&|x, y| tm.add(x, y)), "add"),
                6 => {
                    let m: Vec<u64> = (0..n).map(|_| rng.uniform_mod(tm)).collect();
                    let got = ctx.mul_plain(&a, &ctx.encode(&m).unwrap()).unwrap();
                    let v = va.iter().zip(&m).map(|(&x, &y)| tm.mul(x, y)).collect();
                    (got, v, "mul_plain")
                }
                _ => (
                    ctx.sub(&a, &ctx.rotate_columns(&b, &s.gk).unwrap())
                        .unwrap(),
                    va.iter()
                        .zip(vb[n / 2..].iter().chain(&vb[..n / 2]))
                        .map(|(&x, &y)| tm.sub(x, y))
                        .collect(),
                    "sub_swapped",
                ),
            };
            check(
                s,
                &ct,
                &v,
                &format!("circuit {c} step {step} {name}"),
                &mut tally,
            );
            pool.push((ct, v));
        }
    }
    tally
}

fn assert_no_lies(tally: &Tally, label: &str) {
    assert!(
        tally.lies.is_empty(),
        "{label}: {} lies ({} right, {} refused): {:?}",
        tally.lies.len(),
        tally.right,
        tally.refused,
        &tally.lies[..tally.lies.len().min(5)]
    );
    // The checks are not vacuous: most results are accepted, and some are refused.
    assert!(tally.right > tally.refused / 2, "{label}: {tally:?}");
    assert!(tally.refused > 0, "{label}: {tally:?}");
}

/// The reproducer: decrypt(sum_slots(multiply(enc(x), enc(x)))) at n = 4096.
#[test]
fn sum_slots_of_a_square_is_right_or_refused() {
    let mut rng = Csprng::from_seed([11; 32]);
    for mul in [Multiplication::Hps, Multiplication::Behz] {
        let s = setup(4096, mul, &mut rng);
        let mut tally = Tally::default();
        for k in 0..10 {
            let x: Vec<u64> = (0..4096).map(|_| rng.uniform_mod(&s.tm)).collect();
            let ct = s
                .ctx
                .encrypt(&s.ctx.encode(&x).unwrap(), &s.pk, &mut rng)
                .unwrap();
            let sq = s.ctx.multiply(&ct, &ct, &s.rlk).unwrap();
            let total = x.iter().fold(0, |a, &v| s.tm.add(a, s.tm.mul(v, v)));
            let sum = s.ctx.sum_slots(&sq, &s.gk).unwrap();
            check(
                &s,
                &sum,
                &vec![total; 4096],
                &format!("{mul:?} try {k}"),
                &mut tally,
            );
        }
        assert!(tally.lies.is_empty(), "{mul:?}: {tally:?}");
    }
}

#[test]
fn random_circuits_n4096() {
    let mut rng = Csprng::from_seed([12; 32]);
    for mul in [Multiplication::Hps, Multiplication::Behz] {
        let s = setup(4096, mul, &mut rng);
        let tally = random_circuits(&s, 12, 6, &mut rng);
        assert_no_lies(&tally, &format!("n = 4096 {mul:?}"));
    }
}

#[test]
fn random_circuits_n8192() {
    let mut rng = Csprng::from_seed([13; 32]);
    for mul in [Multiplication::Hps, Multiplication::Behz] {
        let s = setup(8192, mul, &mut rng);
        let tally = random_circuits(&s, 5, 12, &mut rng);
        assert_no_lies(&tally, &format!("n = 8192 {mul:?}"));
    }
}

/// Squaring chains ending in `sum_slots`, at every depth until refused (n = 8192).
#[test]
fn squarings_then_sum_slots_n8192() {
    let mut rng = Csprng::from_seed([14; 32]);
    for mul in [Multiplication::Hps, Multiplication::Behz] {
        let s = setup(8192, mul, &mut rng);
        let mut tally = Tally::default();
        for _ in 0..2 {
            let mut x: Vec<u64> = (0..8192).map(|_| rng.uniform_mod(&s.tm)).collect();
            let mut ct = s
                .ctx
                .encrypt(&s.ctx.encode(&x).unwrap(), &s.pk, &mut rng)
                .unwrap();
            for depth in 1..=7 {
                ct = s.ctx.multiply(&ct, &ct, &s.rlk).unwrap();
                x.iter_mut().for_each(|v| *v = s.tm.mul(*v, *v));
                let total = x.iter().fold(0, |a, &v| s.tm.add(a, v));
                let sum = s.ctx.sum_slots(&ct, &s.gk).unwrap();
                check(
                    &s,
                    &sum,
                    &vec![total; 8192],
                    &format!("{mul:?} depth {depth}"),
                    &mut tally,
                );
            }
        }
        assert_no_lies(&tally, &format!("{mul:?}"));
    }
}

/// The carried bound holds (and results are right or refused) for other layouts: Bajard et al. (SAC 2016)'s
/// 30-bit moduli without special modulus (BEHZ, sigma = 8), omega digits, hybrid digits with special
/// moduli, a sparse secret; squarings, rotations, `sum_slots` and plaintext products until refused.
#[test]
fn bound_holds_across_layouts() {
    use rnsfhe::params::Security;
    use rnsfhe::rlwe::{KeySwitching, SecretDistribution};
    let mut rng = Csprng::from_seed([15; 32]);
    let ks = |digit_primes, omega_bits| KeySwitching {
        digit_primes,
        omega_bits,
        truncation: 0,
    };
    let sets = [
        BfvParameters::paper000(2048, 4, 30, 1024).build().unwrap(),
        BfvParameters::paper000(2048, 4, 30, 2)
            .key_switching(ks(1, Some(12)))
            .build()
            .unwrap(),
        BfvParameters::builder()
            .degree(2048)
            .plain_modulus(12289)
            .moduli_bits(&[40, 40, 40, 40])
            .special_moduli_bits(&[50, 50])
            .key_switching(ks(2, None))
            .secret(SecretDistribution::HammingWeight(64))
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    ];
    for p in sets {
        let ctx = BfvContext::new(p).unwrap();
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let s = Setup {
            rlk: ctx.relin_key(&sk, &mut rng).unwrap(),
            gk: ctx.galois_keys_for_sum(&sk, &mut rng).unwrap(),
            tm: Modulus::new(ctx.params().plain_modulus()).unwrap(),
            ctx,
            sk,
            pk,
        };
        let mut tally = Tally::default();
        let n = s.ctx.params().degree();
        let tm = &s.tm;
        let mut x: Vec<u64> = (0..n).map(|_| rng.uniform_mod(tm)).collect();
        let mut ct = s
            .ctx
            .encrypt_symmetric(
                &s.ctx.plaintext_from_coefficients(&x).unwrap(),
                &s.sk,
                &mut rng,
            )
            .unwrap();
        for depth in 0..8 {
            ct = s.ctx.square(&ct, &s.rlk).unwrap();
            let sq = s.ctx.multiply_plaintexts(
                &s.ctx.plaintext_from_coefficients(&x).unwrap(),
                &s.ctx.plaintext_from_coefficients(&x).unwrap(),
            );
            x = sq.unwrap().coefficients().to_vec();
            let label = format!("{:?} depth {depth}", s.ctx.params().key_switching());
            check_coefficients(&s, &ct, &x, &label, &mut tally);
            let rotated = s.ctx.rotate_rows(&ct, 1, &s.gk).unwrap();
            let back = s.ctx.rotate_rows(&rotated, -1, &s.gk);
            if let Ok(b) = back {
                check_coefficients(&s, &b, &x, &label, &mut tally);
            }
        }
        assert!(tally.lies.is_empty(), "{tally:?}");
        assert!(tally.right > 0 && tally.refused > 0, "{tally:?}");
    }
}

/// [`check`] for a plaintext given by its coefficients (t need not allow batching).
fn check_coefficients(s: &Setup, ct: &BfvCiphertext, want: &[u64], what: &str, tally: &mut Tally) {
    let ctx = &s.ctx;
    let t = ctx.params().plain_modulus() as f64;
    let plain = ctx.decrypt(ct, &s.sk).unwrap();
    let budget = ctx.noise_budget(ct, &s.sk).unwrap();
    if plain.coefficients() != want && budget > 0 {
        tally
            .lies
            .push(format!("{what}: wrong with budget {budget}"));
    }
    let bound = ct.noise_bound_log2().unwrap();
    let measured = ctx.noise_log2(ct, &s.sk).unwrap() + t.log2() - ctx.params().log_q();
    if bound < -1.0 && measured > bound + 1e-6 {
        tally.lies.push(format!(
            "{what}: measured 2^{measured:.2} above the bound 2^{bound:.2}"
        ));
    }
    match ctx.decrypt_checked(ct, &s.sk, ctx.params().decryption()) {
        Ok(pt) if pt.coefficients() == want => tally.right += 1,
        Ok(_) => tally
            .lies
            .push(format!("{what}: accepted a wrong decryption")),
        Err(Error::NoiseBudgetExhausted(_)) => tally.refused += 1,
        Err(e) => panic!("{what}: {e}"),
    }
}
