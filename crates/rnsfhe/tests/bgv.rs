//! BGV end to end against an exact big-integer model of the decryption invariant
//! [c_0 + c_1 s + c_2 s^2]_{Q_l} = [m]_t + t v (Bajard et al. (SAC 2017)): every operation's phase is computed with
//! big integers and checked to be m modulo t, below Q_l / 2 and below the carried bound; modulus
//! switching against the exact formula of Lemma 3; a random circuit whose every result decrypts
//! right or is refused.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters, BgvPlaintext, ModulusSwitching};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{KeySwitching, SecretKey};
use rnsfhe::Error;
use rnsfhe_math::ring::reference::negacyclic_product;
use rnsfhe_math::sample::Csprng;

fn context(n: usize, t: u64, bits: &[u32], special: &[u32], ks: KeySwitching) -> Arc<BgvContext> {
    let p = BgvParameters::builder()
        .degree(n)
        .plain_modulus(t)
        .moduli_bits(bits)
        .special_moduli_bits(special)
        .key_switching(ks)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BgvContext::new(p).unwrap()
}

fn small() -> Arc<BgvContext> {
    context(64, 65537, &[40, 40, 40, 40], &[45], KeySwitching::default())
}

/// `small()` in `ModulusSwitching::Manual`.
fn small_manual() -> Arc<BgvContext> {
    let p = BgvParameters::builder()
        .degree(64)
        .moduli_bits(&[40, 40, 40, 40])
        .special_moduli_bits(&[45])
        .modulus_switching(ModulusSwitching::Manual)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BgvContext::new(p).unwrap()
}

/// The exact phase [c(s)]_{Q_l}, centred, with big integers.
fn exact_phase(ct: &BgvCiphertext, sk: &SecretKey) -> (Vec<BigInt>, BigUint) {
    let ring = ct.parts()[0].context().clone();
    let q = ring.basis().product().clone();
    let qi = BigInt::from(q.clone());
    let s: Vec<BigUint> = sk
        .coefficients()
        .unwrap()
        .iter()
        .map(|&c| BigInt::from(c).mod_floor(&qi).to_biguint().unwrap())
        .collect();
    let coeffs = |p: &rnsfhe_math::ring::Poly| {
        let mut p = p.clone();
        p.to_coefficient().unwrap();
        p.to_biguint().unwrap()
    };
    let mut acc = coeffs(&ct.parts()[0]);
    let mut power = s.clone();
    for (i, c) in ct.parts()[1..].iter().enumerate() {
        if i > 0 {
            power = negacyclic_product(&power, &s, &q);
        }
        let term = negacyclic_product(&coeffs(c), &power, &q);
        for (a, b) in acc.iter_mut().zip(term) {
            *a = (&*a + b) % &q;
        }
    }
    let half = &q / 2u32;
    let centred = acc
        .into_iter()
        .map(|a| {
            if a > half {
                BigInt::from(a) - &qi
            } else {
                BigInt::from(a)
            }
        })
        .collect();
    (centred, q)
}

/// Checks the invariant: phase = m mod t, |phase| < Q_l / 2, |phase| within the carried bound, and
/// that decryption gives m.
fn check(ctx: &BgvContext, ct: &BgvCiphertext, sk: &SecretKey, m: &[u64], what: &str) {
    let t = ctx.params().plain_modulus();
    let (x, q) = exact_phase(ct, sk);
    let ti = BigInt::from(t);
    for (j, (xj, &mj)) in x.iter().zip(m).enumerate() {
        let r = xj.mod_floor(&ti).to_u64().unwrap();
        assert_eq!(r, mj, "{what}: coefficient {j} of the phase is not m mod t");
    }
    let max = x.iter().map(|v| v.abs()).max().unwrap();
    assert!(
        max.clone() * 4u32 < BigInt::from(q),
        "{what}: the phase is too large to be an honest test"
    );
    if let Some(b) = ct.noise_bound_log2() {
        let lg = max.to_f64().unwrap().max(1.0).log2();
        assert!(
            lg <= b + 1e-9,
            "{what}: measured 2^{lg:.2} above the bound 2^{b:.2}"
        );
    }
    let pt = ctx.decrypt(ct, sk).unwrap();
    assert_eq!(pt.coefficients(), m, "{what}: decryption");
}

struct Model {
    n: usize,
    t: u64,
}

impl Model {
    fn add(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        a.iter().zip(b).map(|(x, y)| (x + y) % self.t).collect()
    }
    fn neg(&self, a: &[u64]) -> Vec<u64> {
        a.iter().map(|x| (self.t - x) % self.t).collect()
    }
    fn sub(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        self.add(a, &self.neg(b))
    }
    fn scalar(&self, a: &[u64], c: i64) -> Vec<u64> {
        let c = c.rem_euclid(self.t as i64) as u128;
        a.iter()
            .map(|&x| (u128::from(x) * c % u128::from(self.t)) as u64)
            .collect()
    }
    fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let t = BigUint::from(self.t);
        let big = |v: &[u64]| v.iter().map(|&x| BigUint::from(x)).collect::<Vec<_>>();
        negacyclic_product(&big(a), &big(b), &t)
            .into_iter()
            .map(|x| x.to_u64().unwrap())
            .collect()
    }
    fn galois(&self, a: &[u64], g: u64) -> Vec<u64> {
        let two_n = 2 * self.n as u64;
        let mut out = vec![0u64; self.n];
        for (j, &x) in a.iter().enumerate() {
            let e = (j as u64 * g) % two_n;
            if e < self.n as u64 {
                out[e as usize] = x;
            } else {
                out[(e - self.n as u64) as usize] = (self.t - x) % self.t;
            }
        }
        out
    }
}

fn random_plain(ctx: &BgvContext, rng: &mut Csprng) -> BgvPlaintext {
    let t = ctx.params().plain_modulus();
    let v: Vec<u64> = (0..ctx.params().degree())
        .map(|_| rng.next_u64() % t)
        .collect();
    ctx.encode(&v).unwrap()
}

#[test]
fn moduli_are_one_mod_2n_and_t() {
    let ctx = small();
    let step = 128 * 65537;
    for &q in ctx.params().moduli() {
        assert_eq!(q % step, 1, "q = {q}");
    }
    let bad = BgvParameters::builder()
        .degree(64)
        .moduli(&[ctx.params().special_moduli()[0]])
        .special_moduli(&[])
        .security(Security::InsecureResearchOnly)
        .build();
    assert!(matches!(bad, Err(Error::InvalidModulus { .. })), "{bad:?}");
}

#[test]
fn every_operation_keeps_the_invariant() {
    let ctx = small();
    let (n, t) = (64, 65537);
    let model = Model { n, t };
    let mut rng = Csprng::from_seed([7; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1, -3], true, &mut rng).unwrap();
    let pa = random_plain(&ctx, &mut rng);
    let pb = random_plain(&ctx, &mut rng);
    let (ma, mb) = (pa.coefficients().to_vec(), pb.coefficients().to_vec());
    let a = ctx.encrypt(&pa, &pk, &mut rng).unwrap();
    let b = ctx.encrypt_symmetric(&pb, &sk, &mut rng).unwrap();
    check(&ctx, &a, &sk, &ma, "public-key encryption");
    check(&ctx, &b, &sk, &mb, "symmetric encryption");
    check(
        &ctx,
        &ctx.add(&a, &b).unwrap(),
        &sk,
        &model.add(&ma, &mb),
        "add",
    );
    check(
        &ctx,
        &ctx.sub(&a, &b).unwrap(),
        &sk,
        &model.sub(&ma, &mb),
        "sub",
    );
    check(
        &ctx,
        &ctx.negate(&a).unwrap(),
        &sk,
        &model.neg(&ma),
        "negate",
    );
    check(
        &ctx,
        &ctx.add_plain(&a, &pb).unwrap(),
        &sk,
        &model.add(&ma, &mb),
        "add_plain",
    );
    check(
        &ctx,
        &ctx.sub_plain(&a, &pb).unwrap(),
        &sk,
        &model.sub(&ma, &mb),
        "sub_plain",
    );
    check(
        &ctx,
        &ctx.mul_plain(&a, &pb).unwrap(),
        &sk,
        &model.mul(&ma, &mb),
        "mul_plain",
    );
    check(
        &ctx,
        &ctx.mul_scalar(&a, -12345).unwrap(),
        &sk,
        &model.scalar(&ma, -12345),
        "scalar",
    );
    let prod = ctx.multiply_no_relin(&a, &b).unwrap();
    assert_eq!(prod.size(), 3);
    let mab = model.mul(&ma, &mb);
    check(&ctx, &prod, &sk, &mab, "tensor");
    let rel = ctx.relinearize(&prod, &rlk).unwrap();
    check(&ctx, &rel, &sk, &mab, "relinearised");
    let down3 = ctx.mod_switch(&prod).unwrap();
    check(&ctx, &down3, &sk, &mab, "mod switch of 3 parts");
    let down = ctx.mod_switch(&rel).unwrap();
    assert_eq!(down.level(), rel.level() - 1);
    check(&ctx, &down, &sk, &mab, "mod switch");
    for step in [1i64, -3] {
        let g = ctx.galois_element(step);
        let r = ctx.rotate_rows(&down, step, &gk).unwrap();
        check(&ctx, &r, &sk, &model.galois(&mab, g), "rotate rows");
        // The slots moved as the batch layout says.
        let slots = ctx.decode(&ctx.decrypt(&r, &sk).unwrap()).unwrap();
        let before = ctx.decode(&ctx.decrypt(&down, &sk).unwrap()).unwrap();
        let half = n / 2;
        let s = step.rem_euclid(half as i64) as usize;
        for i in 0..half {
            assert_eq!(slots[i], before[(i + s) % half]);
            assert_eq!(slots[half + i], before[half + (i + s) % half]);
        }
    }
    let c = ctx.rotate_columns(&down, &gk).unwrap();
    check(
        &ctx,
        &c,
        &sk,
        &model.galois(&mab, 2 * n as u64 - 1),
        "rotate columns",
    );
    // Down the whole chain with a product at each level.
    let mut x = ctx.encrypt(&pa, &pk, &mut rng).unwrap();
    let mut m = ma.clone();
    while x.level() > 0 {
        x = ctx
            .mod_switch(&ctx.multiply(&x, &b_at(&ctx, &b, x.level()), &rlk).unwrap())
            .unwrap();
        m = model.mul(&m, &mb);
        check(&ctx, &x, &sk, &m, "product chain");
    }
    let budget = ctx.noise_budget(&x, &sk).unwrap();
    assert!(budget > 0.0, "budget {budget}");
}

fn b_at(ctx: &BgvContext, b: &BgvCiphertext, level: usize) -> BgvCiphertext {
    ctx.mod_switch_to_level(b, level).unwrap()
}

/// Lemma 3 exactly: every part becomes (c + t [-c t^-1]_{q_l}) / q_l over Q_{l-1}.
#[test]
fn mod_switch_is_lemma_3() {
    let ctx = small();
    let t = BigInt::from(65537u64);
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let a = ctx
        .encrypt_symmetric(&random_plain(&ctx, &mut rng), &sk, &mut rng)
        .unwrap();
    let d = ctx.mod_switch(&a).unwrap();
    let l = a.level();
    let ql = BigInt::from(ctx.params().moduli()[l]);
    let lower = d.parts()[0].context().basis().product().clone();
    let lower = BigInt::from(lower);
    for (p, q) in a.parts().iter().zip(d.parts()) {
        let mut p = p.clone();
        p.to_coefficient().unwrap();
        let mut q = q.clone();
        q.to_coefficient().unwrap();
        let t_inv = t.modpow(&(&ql - 2), &ql);
        for (x, y) in p
            .to_biguint()
            .unwrap()
            .into_iter()
            .zip(q.to_biguint().unwrap())
        {
            let x = BigInt::from(x);
            let mut r = (-&x * &t_inv).mod_floor(&ql);
            if r > &ql / 2 {
                r -= &ql;
            }
            let num = &x + &t * r;
            assert!(num.is_multiple_of(&ql));
            let want = (num / &ql).mod_floor(&lower);
            assert_eq!(BigInt::from(y), want);
        }
    }
    assert!(BigInt::zero() < lower);
}

#[test]
fn refusals() {
    let ctx = small();
    let mut rng = Csprng::from_seed([11; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let (sk2, pk2) = ctx.keygen(&mut rng).unwrap();
    let p = random_plain(&ctx, &mut rng);
    let a = ctx.encrypt(&p, &pk, &mut rng).unwrap();
    let b = ctx.encrypt(&p, &pk2, &mut rng).unwrap();
    assert!(matches!(ctx.add(&a, &b), Err(Error::KeyMismatch { .. })));
    assert!(matches!(
        ctx.decrypt(&a, &sk2),
        Err(Error::KeyMismatch { .. })
    ));
    let rlk2 = ctx.relin_key(&sk2, &mut rng).unwrap();
    let prod = ctx.multiply_no_relin(&a, &a).unwrap();
    assert!(matches!(
        ctx.relinearize(&prod, &rlk2),
        Err(Error::KeyMismatch { .. })
    ));
    let low = ctx.mod_switch(&a).unwrap();
    // Operands at different levels: aligned to the lower one by the default automatic mode,
    // refused by the manual mode.
    assert_eq!(ctx.add(&a, &low).unwrap().level(), low.level());
    assert_eq!(
        ctx.multiply_no_relin(&a, &low).unwrap().level(),
        low.level()
    );
    let manual = small_manual();
    let (_, mpk) = manual.keygen(&mut rng).unwrap();
    let ma = manual
        .encrypt(&random_plain(&manual, &mut rng), &mpk, &mut rng)
        .unwrap();
    let mlow = manual.mod_switch(&ma).unwrap();
    assert!(matches!(
        manual.add(&ma, &mlow),
        Err(Error::LevelMismatch { .. })
    ));
    assert!(matches!(
        manual.multiply_no_relin(&ma, &mlow),
        Err(Error::LevelMismatch { .. })
    ));
    let bottom = ctx.mod_switch_to_level(&a, 0).unwrap();
    assert!(matches!(
        ctx.mod_switch(&bottom),
        Err(Error::LevelsExhausted {
            level: 0,
            needed: 1,
            ..
        })
    ));
    assert!(matches!(
        ctx.mod_switch_to_level(&low, 3),
        Err(Error::LevelOutOfRange { level: 3, .. })
    ));
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    assert!(matches!(
        ctx.rotate_rows(&a, 2, &gk),
        Err(Error::MissingGaloisKey { .. })
    ));
    // Other parameters (t); a context of equal parameters would take them (tests/keys_apart.rs).
    let other = context(64, 257, &[40, 40, 40, 40], &[45], KeySwitching::default());
    assert!(matches!(
        other.decrypt(&a, &sk),
        Err(Error::ParameterMismatch { .. })
    ));
    // Squaring at level 0 without switching exhausts the 40-bit modulus: refused, never wrong.
    let mut x = bottom;
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let mut refused = false;
    for _ in 0..3 {
        x = ctx.multiply(&x, &x, &rlk).unwrap();
        if let Err(e) = ctx.decrypt(&x, &sk) {
            assert!(matches!(e, Error::NoiseBudgetExhausted(_)), "{e:?}");
            refused = true;
            break;
        }
    }
    assert!(refused);
    assert_eq!(ctx.noise_budget(&x, &sk).unwrap(), 0.0);
}

/// Random circuits: every result decrypts to the model or is refused with an error.
#[test]
fn random_circuit_decrypts_right_or_is_refused() {
    for (seed, t, ks) in [
        (1u8, 65537u64, KeySwitching::default()),
        (
            2,
            257,
            KeySwitching {
                digit_primes: 2,
                ..KeySwitching::default()
            },
        ),
    ] {
        let ctx = context(64, t, &[36, 36, 36, 36], &[40], ks);
        let model = Model { n: 64, t };
        let mut rng = Csprng::from_seed([seed; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &[1, 5], true, &mut rng).unwrap();
        let mut pool: Vec<(BgvCiphertext, Vec<u64>)> = (0..3)
            .map(|_| {
                let p = random_plain(&ctx, &mut rng);
                let m = p.coefficients().to_vec();
                (ctx.encrypt(&p, &pk, &mut rng).unwrap(), m)
            })
            .collect();
        let (mut ok, mut refused) = (0, 0);
        for _ in 0..60 {
            let i = (rng.next_u64() % pool.len() as u64) as usize;
            let j = (rng.next_u64() % pool.len() as u64) as usize;
            let (a, ma) = pool[i].clone();
            let (b, mb) = pool[j].clone();
            let r = match rng.next_u64() % 8 {
                0 => ctx.add(&a, &b).map(|c| (c, model.add(&ma, &mb))),
                1 => ctx.sub(&a, &b).map(|c| (c, model.sub(&ma, &mb))),
                2 | 3 => ctx.multiply(&a, &b, &rlk).map(|c| (c, model.mul(&ma, &mb))),
                4 => ctx.mod_switch(&a).map(|c| (c, ma.clone())),
                5 => ctx
                    .rotate_rows(&a, 5, &gk)
                    .map(|c| (c, model.galois(&ma, ctx.galois_element(5)))),
                6 => {
                    let l = a.level().min(b.level());
                    ctx.mod_switch_to_level(&a, l).map(|c| (c, ma.clone()))
                }
                _ => ctx.mul_scalar(&a, 3).map(|c| (c, model.scalar(&ma, 3))),
            };
            let Ok((c, m)) = r else {
                refused += 1;
                continue;
            };
            match ctx.decrypt(&c, &sk) {
                Ok(pt) => {
                    assert_eq!(pt.coefficients(), &m[..], "a wrong decryption");
                    ok += 1;
                    pool.push((c, m));
                }
                Err(e) => {
                    assert!(matches!(e, Error::NoiseBudgetExhausted(_)), "{e:?}");
                    refused += 1;
                }
            }
            if pool.len() > 8 {
                pool.remove(3);
            }
        }
        assert!(ok > 10, "only {ok} results decrypted ({refused} refused)");
    }
}

/// Parameters, plaintexts, ciphertexts and keys through bytes: the same values back, a flipped bit
/// and another parameter set refused.
#[test]
fn bytes_round_trip() {
    use rnsfhe::serialize::KeyBytes;
    let ctx = small();
    let mut rng = Csprng::from_seed([13; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let params = BgvParameters::from_bytes_allowing_insecure(&ctx.params().to_bytes()).unwrap();
    assert_eq!(&params, ctx.params());
    let ctx2 = BgvContext::new(params).unwrap();
    let p = random_plain(&ctx, &mut rng);
    let pb = ctx.plaintext_to_bytes(&p).unwrap();
    assert_eq!(ctx.plaintext_from_bytes(&pb).unwrap(), p);
    let ct = ctx
        .mod_switch(&ctx.encrypt(&p, &pk, &mut rng).unwrap())
        .unwrap();
    let bytes = ctx.ciphertext_to_bytes(&ct).unwrap();
    let back = ctx.ciphertext_from_bytes(&bytes).unwrap();
    assert_eq!(back.level(), ct.level());
    assert_eq!(back.noise_bound_log2(), ct.noise_bound_log2());
    assert_eq!(
        ctx.decrypt(&back, &sk).unwrap(),
        ctx.decrypt(&ct, &sk).unwrap()
    );
    let mut flipped = bytes.clone();
    flipped[40] ^= 4;
    assert!(matches!(
        ctx.ciphertext_from_bytes(&flipped),
        Err(Error::Malformed(_))
    ));
    // Keys: loaded into a second context of the same parameters, they work there.
    let sk2 = ctx2
        .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk).unwrap())
        .unwrap();
    assert_eq!(sk2.id(), sk.id());
    let pk2 = ctx2
        .public_key_from_bytes(&ctx.public_key_to_bytes(&pk))
        .unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let gk2 = ctx2
        .galois_keys_from_bytes(&ctx.galois_keys_to_bytes(&gk))
        .unwrap();
    let p2 = ctx2.plaintext_from_bytes(&pb).unwrap();
    let a = ctx2.encrypt(&p2, &pk2, &mut rng).unwrap();
    let sq = ctx2
        .rotate_rows(&ctx2.multiply(&a, &a, &rlk2).unwrap(), 1, &gk2)
        .unwrap();
    let model = Model { n: 64, t: 65537 };
    let m = model.galois(
        &model.mul(p.coefficients(), p.coefficients()),
        ctx2.galois_element(1),
    );
    check(&ctx2, &sq, &sk2, &m, "keys from bytes");
    let other = context(64, 257, &[40, 40], &[45], KeySwitching::default());
    assert!(other.ciphertext_from_bytes(&bytes).is_err());
}

#[test]
fn sum_slots_sums_every_slot() {
    let ctx = small();
    let mut rng = Csprng::from_seed([17; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys_for_sum(&sk, &mut rng).unwrap();
    let v: Vec<u64> = (0..64).map(|i| i * i + 1).collect();
    let a = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let s = ctx.sum_slots(&a, &gk).unwrap();
    let want = v.iter().sum::<u64>() % 65537;
    assert!(ctx
        .decode(&ctx.decrypt(&s, &sk).unwrap())
        .unwrap()
        .iter()
        .all(|&x| x == want));
}

/// Bajard et al. (SAC 2017) section 4.3: the theoretical depth is a worst case, so never above the measured one,
/// and the measured depth uses every level of the small chain.
#[test]
fn depth_theory_and_measure() {
    use rnsfhe::bgv::depth::DepthInputs;
    let ctx = small();
    let mut rng = Csprng::from_seed([19; 32]);
    let measured = ctx.measured_depth(&mut rng).unwrap();
    let theory = DepthInputs::of(ctx.params()).unwrap().depth();
    assert!(
        theory >= 1 && theory <= measured,
        "theory {theory}, measured {measured}"
    );
    assert!(measured >= 3, "measured {measured}");
    // More levels, more depth; a larger t, less.
    let mut inputs = DepthInputs::of(ctx.params()).unwrap();
    inputs.log_moduli.push(40.0);
    assert!(inputs.depth() > theory);
    inputs.t = 2f64.powi(30);
    assert!(inputs.depth() < theory + 1);
}
