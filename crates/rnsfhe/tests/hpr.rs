//! HPR-FV (Bajard et al. (HPR-FV, ePrint 2019/500)) against exact big-integer models: Alg. 1 with Lemmas 1-2 and condition (11),
//! plaintext operations, multiplication (Lemma 3, Prop. 1, Lemma 4), relinearisation (19),
//! rotations with batching.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};
use rnsfhe::encoding::BatchEncoder;
use rnsfhe::hpr::{HprContext, HprParameters, Relinearization};
use rnsfhe::params::{Security, SecurityLevel};
use rnsfhe_math::sample::Csprng;

const N: usize = 32;
const T: u64 = 193; // 1 mod 2n: batching

fn ctx(k: usize, d: usize, t: u64) -> std::sync::Arc<HprContext> {
    let p = HprParameters::new(N, t, k, d, 61, 3.2, Security::InsecureResearchOnly).unwrap();
    HprContext::new(&p).unwrap()
}

fn rand_msg(rng: &mut Csprng, t: u64) -> Vec<u64> {
    (0..N).map(|_| rng.next_u64() % t).collect()
}

/// m m' in Z_t[X]/(X^n + 1).
fn mul_mod_t(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
    let n = a.len();
    let mut out = vec![0i128; n];
    for i in 0..n {
        for j in 0..n {
            let p = (a[i] as i128) * (b[j] as i128);
            if i + j < n {
                out[i + j] += p;
            } else {
                out[i + j - n] -= p;
            }
        }
    }
    out.iter()
        .map(|&x| x.rem_euclid(t as i128) as u64)
        .collect()
}

fn p_of(c: &HprContext) -> BigInt {
    BigInt::from(c.basis().p().product().clone())
}

#[test]
fn parameters_are_validated() {
    // Table 3's 2^14 set is 100-bit: refused at 128 bits, accepted with the explicit override.
    let e = HprParameters::new(
        1 << 14,
        2,
        3,
        3,
        61,
        8.0,
        Security::Standard(SecurityLevel::Bits128),
    )
    .unwrap_err();
    assert!(e.to_string().contains("438"), "{e}");
    HprParameters::new(1 << 14, 2, 3, 3, 61, 8.0, Security::InsecureResearchOnly).unwrap();
    // A secure set: n = 2^15, k = 2, d = 7 (854 bits).
    let ok = HprParameters::new(1 << 15, 65537, 2, 7, 61, 3.2, Security::default()).unwrap();
    assert!(ok.log_q() < 881.0);
    for bad in [
        HprParameters::new(N, 1, 2, 3, 61, 3.2, Security::InsecureResearchOnly),
        HprParameters::new(N, T, 0, 3, 61, 3.2, Security::InsecureResearchOnly),
        HprParameters::new(N, T, 2, 1, 61, 3.2, Security::InsecureResearchOnly),
        HprParameters::new(N, T, 2, 3, 40, 3.2, Security::InsecureResearchOnly),
        HprParameters::new(24, T, 2, 3, 61, 3.2, Security::InsecureResearchOnly),
        HprParameters::new(N, T, 2, 3, 61, -1.0, Security::InsecureResearchOnly),
    ] {
        assert!(bad.is_err());
    }
    // B too narrow for the products: 50-bit B against 61-bit P at a huge t.
    let p: Vec<u64> = rnsfhe_math::arith::ntt_primes(61, 64, 2, &[]).unwrap();
    let b: Vec<u64> = rnsfhe_math::arith::ntt_primes(50, 64, 3, &[]).unwrap();
    let e = HprParameters::with_moduli(
        N,
        (1 << 39) + 1,
        3,
        &p,
        &b,
        3.2,
        Security::InsecureResearchOnly,
    )
    .unwrap_err();
    assert!(e.to_string().contains("too small"), "{e}");
}

#[test]
fn encrypt_decrypt_round_trip() {
    for (k, d) in [(1, 2), (2, 3), (3, 2)] {
        let c = ctx(k, d, T);
        let mut rng = Csprng::from_seed([k as u8; 32]);
        let sk = c.secret_key(&mut rng).unwrap();
        let pk = c.public_key(&sk, &mut rng).unwrap();
        for _ in 0..3 {
            let m = rand_msg(&mut rng, T);
            let ct = c.encrypt(&pk, &m, &mut rng).unwrap();
            assert_eq!(c.decrypt(&sk, &ct).unwrap(), m);
            let ct = c.encrypt_symmetric(&sk, &m, &mut rng).unwrap();
            assert_eq!(c.decrypt(&sk, &ct).unwrap(), m);
        }
    }
}

/// Lemma 1: [c_{0,d-1} + c_{1,d-1} s]_p = (c_0(p) + c_1(p) s) / p^{d-1} + e + eps p with
/// ||e|| <= p / (p - 1) beta (1 + n B_key), beta = k / 2 after carries.
#[test]
fn lemma1_top_digit_error() {
    let (k, d) = (3, 3);
    let c = ctx(k, d, T);
    let mut rng = Csprng::from_seed([3; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let m = rand_msg(&mut rng, T);
    let ct = c.encrypt(&pk, &m, &mut rng).unwrap();
    let p = p_of(&c);
    let pd1 = num_traits::pow(p.clone(), d - 1);
    let s: Vec<BigInt> = sk.coefficients().iter().map(|&x| BigInt::from(x)).collect();
    let b = c.basis();
    let value = |part: &[rnsfhe_math::ring::Poly], top_only: bool| -> Vec<BigInt> {
        let digits: Vec<&[u64]> = part.iter().map(|x| x.residues()).collect();
        if top_only {
            b.compose(&digits[d - 1..]).unwrap()
        } else {
            b.compose(&digits).unwrap()
        }
    };
    let conv = |a: &[BigInt], s: &[BigInt]| -> Vec<BigInt> {
        let mut out = vec![BigInt::zero(); N];
        for i in 0..N {
            for j in 0..N {
                let v = &a[i] * &s[j];
                if i + j < N {
                    out[i + j] += v;
                } else {
                    out[i + j - N] -= v;
                }
            }
        }
        out
    };
    let w: Vec<BigInt> = {
        let c1s = conv(&value(&ct.parts()[1], false), &s);
        value(&ct.parts()[0], false)
            .iter()
            .zip(&c1s)
            .map(|(a, b)| a + b)
            .collect()
    };
    let x: Vec<BigInt> = {
        let c1s = conv(&value(&ct.parts()[1], true), &s);
        value(&ct.parts()[0], true)
            .iter()
            .zip(&c1s)
            .map(|(a, b)| a + b)
            .collect()
    };
    let q = &pd1 * &p;
    // |e| p^{d-1} = |[p^{d-1} x - W]_q| (centred).
    let bound_num = &p * BigInt::from(k as u64) * BigInt::from(1 + N as u64) * &pd1; // times 1/(2(p-1))
    let mut worst = BigInt::zero();
    for (xi, wi) in x.iter().zip(&w) {
        let mut r = ((&pd1 * xi - wi) % &q + &q) % &q;
        if r > &q / 2 {
            r -= &q;
        }
        let lhs = r.abs() * 2 * (&p - 1);
        assert!(lhs <= bound_num, "Lemma 1 bound exceeded");
        worst = worst.max(r.abs());
    }
    assert!(!worst.is_zero());
}

/// Lemma 2 / condition (11): noise just inside the bound decrypts; just past q / (2t) it does not.
#[test]
fn condition_11_and_failure_past_the_bound() {
    let (k, d, t) = (2, 3, 17);
    let c = ctx(k, d, t);
    let mut rng = Csprng::from_seed([11; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let m = rand_msg(&mut rng, t);
    let ct = c.encrypt_symmetric(&sk, &m, &mut rng).unwrap();
    let fresh = BigInt::from(c.noise(&sk, &ct, &m).unwrap());
    let q = BigInt::from(c.params().q());
    let p = p_of(&c);
    let qt = &q % t;
    let gamma = BigInt::from(1u64 << 30);
    // (11): q/(2t) (1 - k/gamma - 2 t beta (1 + n) / (p - 1)) - |q|_t / 2 with beta = k / 2, as
    // an exact rational lower bound (floor).
    let tb = BigInt::from(t);
    let kk = BigInt::from(k as u64);
    let num = &q * (&gamma * (&p - 1) - &kk * (&p - 1) - &tb * &kk * (1 + N as u64) * &gamma)
        - &qt * &tb * &gamma * (&p - 1);
    let bound11 = num / (2 * &tb * &gamma * (&p - 1));
    for sign in [1i64, -1] {
        let mut v = vec![BigInt::zero(); N];
        v[5] = (&bound11 - &fresh - 1) * sign;
        let noisy = c.add(&ct, &c.trivial(&v).unwrap()).unwrap();
        assert!(BigInt::from(c.noise(&sk, &noisy, &m).unwrap()) < bound11);
        assert_eq!(c.decrypt(&sk, &noisy).unwrap(), m, "inside (11)");
        // Past the bound: q / (2t) (1 + 2k / gamma) (Alg. 1 resolves the half-way point only to
        // k / gamma, the term k / gamma of (11)); coefficient 5 moves by one step of Delta.
        let past = &q * (&gamma + 2 * &kk) / (2 * &tb * &gamma);
        v[5] = (past + &fresh + 2 * &tb) * sign;
        let noisy = c.add(&ct, &c.trivial(&v).unwrap()).unwrap();
        let got = c.decrypt(&sk, &noisy).unwrap();
        let mut want = m.clone();
        want[5] = (m[5] as i64 + sign).rem_euclid(t as i64) as u64;
        assert_eq!(got, want, "past q / 2t");
    }
}

#[test]
fn additions_and_plaintext_operations() {
    let c = ctx(2, 3, T);
    let mut rng = Csprng::from_seed([4; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let (a, b, m) = (
        rand_msg(&mut rng, T),
        rand_msg(&mut rng, T),
        rand_msg(&mut rng, T),
    );
    let ca = c.encrypt(&pk, &a, &mut rng).unwrap();
    let cb = c.encrypt(&pk, &b, &mut rng).unwrap();
    let sum: Vec<u64> = a.iter().zip(&b).map(|(x, y)| (x + y) % T).collect();
    let diff: Vec<u64> = a.iter().zip(&b).map(|(x, y)| (x + T - y) % T).collect();
    let neg: Vec<u64> = a.iter().map(|x| (T - x) % T).collect();
    assert_eq!(c.decrypt(&sk, &c.add(&ca, &cb).unwrap()).unwrap(), sum);
    assert_eq!(c.decrypt(&sk, &c.sub(&ca, &cb).unwrap()).unwrap(), diff);
    assert_eq!(c.decrypt(&sk, &c.neg(&ca).unwrap()).unwrap(), neg);
    let pa: Vec<u64> = a.iter().zip(&m).map(|(x, y)| (x + y) % T).collect();
    assert_eq!(c.decrypt(&sk, &c.add_plain(&ca, &m).unwrap()).unwrap(), pa);
    let prod = c.mul_plain(&ca, &m).unwrap();
    assert_eq!(c.decrypt(&sk, &prod).unwrap(), mul_mod_t(&a, &m, T));
    // Carried digits after every operation: |digit| <= k p / 2.
    let limit = p_of(&c) * 2 / 2;
    for part in prod.parts() {
        for digit in part {
            for v in c.basis().compose(&[digit.residues()]).unwrap() {
                assert!(v.abs() <= limit);
            }
        }
    }
    // Key identities: another key pair's ciphertext is refused.
    let sk2 = c.secret_key(&mut rng).unwrap();
    let other = c.encrypt_symmetric(&sk2, &a, &mut rng).unwrap();
    assert!(c.add(&ca, &other).is_err());
    assert!(c.decrypt(&sk2, &ca).is_err());
}

/// Lemma 3, eq. (14)-(15): each part of the unrelinearised product is round(t c c' / q) (of the
/// lifted inputs) up to B_e + k/2 (+ 1/2 of rounding); Prop. 1: it decrypts to m m'.
#[test]
fn product_matches_exact_tensor() {
    for (k, d) in [(1, 3), (2, 3), (3, 2)] {
        let c = ctx(k, d, T);
        let mut rng = Csprng::from_seed([20 + k as u8; 32]);
        let sk = c.secret_key(&mut rng).unwrap();
        let pk = c.public_key(&sk, &mut rng).unwrap();
        let (a, b) = (rand_msg(&mut rng, T), rand_msg(&mut rng, T));
        let ca = c.encrypt(&pk, &a, &mut rng).unwrap();
        let cb = c.encrypt(&pk, &b, &mut rng).unwrap();
        let prod = c.mul_no_relin(&ca, &cb).unwrap();
        assert_eq!(c.decrypt(&sk, &prod).unwrap(), mul_mod_t(&a, &b, T));
        let p = p_of(&c);
        let q = num_traits::pow(p.clone(), d);
        // The lift of eq. (13): low digits as they are, the top digit centred modulo p.
        let lift = |part: &[rnsfhe_math::ring::Poly]| -> Vec<BigInt> {
            let digits: Vec<&[u64]> = part.iter().map(|x| x.residues()).collect();
            let low = c.basis().compose(&digits[..d - 1]).unwrap();
            let top = c.basis().compose(&digits[d - 1..]).unwrap();
            low.iter()
                .zip(top)
                .map(|(l, t)| {
                    let mut r = ((t % &p) + &p) % &p;
                    if r > &p / 2 {
                        r -= &p;
                    }
                    l + r * num_traits::pow(p.clone(), d - 1)
                })
                .collect()
        };
        let (a0, a1, b0, b1) = (
            lift(&ca.parts()[0]),
            lift(&ca.parts()[1]),
            lift(&cb.parts()[0]),
            lift(&cb.parts()[1]),
        );
        let conv = |x: &[BigInt], y: &[BigInt]| -> Vec<BigInt> {
            let mut out = vec![BigInt::zero(); N];
            for i in 0..N {
                for j in 0..N {
                    let v = &x[i] * &y[j];
                    if i + j < N {
                        out[i + j] += v;
                    } else {
                        out[i + j - N] -= v;
                    }
                }
            }
            out
        };
        let a0b1 = conv(&a0, &b1);
        let a1b0 = conv(&a1, &b0);
        let exact = [
            conv(&a0, &b0),
            a0b1.iter().zip(&a1b0).map(|(x, y)| x + y).collect(),
            conv(&a1, &b1),
        ];
        // B_e of (15) with beta = k/2, delta = n, plus k/2 and the rounding.
        let be = 6.0 * N as f64 * T as f64 * (k as f64 / 2.0).powi(2) * (d as f64 - 1.0);
        let limit = be + k as f64 / 2.0 + 1.0;
        let mut worst = 0f64;
        for (i, ex) in exact.iter().enumerate() {
            let ours = c.compose(&prod.parts()[i]).unwrap();
            for (o, e) in ours.iter().zip(ex) {
                // round(t e / q)
                let num: BigInt = BigInt::from(T) * e * 2 + &q;
                let r = num.div_floor_(&(&q * 2));
                let mut diff = ((o - r) % &q + &q) % &q;
                if diff > &q / 2 {
                    diff -= &q;
                }
                let dv = diff.abs().to_f64().unwrap();
                worst = worst.max(dv);
                assert!(dv <= limit, "part {i}: |error| {dv} > B_e + k/2 = {limit}");
            }
        }
        eprintln!("k = {k}, d = {d}: Lemma 3 error {worst} <= {limit}");
    }
}

trait DivFloor {
    fn div_floor_(&self, other: &Self) -> Self;
}

impl DivFloor for BigInt {
    fn div_floor_(&self, other: &BigInt) -> BigInt {
        num_integer::Integer::div_floor(self, other)
    }
}

/// Lemma 4 (22) and the relinearisation noise (19), measured; both decompositions decrypt.
#[test]
fn multiplication_with_relinearisation_noise() {
    let (k, d) = (2, 3);
    let c = ctx(k, d, T);
    let mut rng = Csprng::from_seed([30; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let rlk = c
        .relin_key(&sk, Relinearization::PerResidue, &mut rng)
        .unwrap();
    let rlk_digit = c
        .relin_key(&sk, Relinearization::PerDigit, &mut rng)
        .unwrap();
    let p = p_of(&c).to_f64().unwrap();
    let pj_sum: f64 = c
        .basis()
        .p()
        .moduli()
        .iter()
        .map(|m| m.value() as f64)
        .sum();
    let (nf, tf, kf, df) = (N as f64, T as f64, k as f64, d as f64);
    let b_err = 6.0 * 3.2;
    for _ in 0..3 {
        let (a, b) = (rand_msg(&mut rng, T), rand_msg(&mut rng, T));
        let ca = c.encrypt(&pk, &a, &mut rng).unwrap();
        let cb = c.encrypt(&pk, &b, &mut rng).unwrap();
        let want = mul_mod_t(&a, &b, T);
        let v = c.noise(&sk, &ca, &a).unwrap().to_f64().unwrap();
        let v2 = c.noise(&sk, &cb, &b).unwrap().to_f64().unwrap();
        let three = c.mul_no_relin(&ca, &cb).unwrap();
        let relin = c.relinearize(&three, &rlk).unwrap();
        let fused = c.mul(&ca, &cb, &rlk).unwrap();
        for ct in [&three, &relin, &fused] {
            assert_eq!(c.decrypt(&sk, ct).unwrap(), want);
        }
        let coarse = c.mul(&ca, &cb, &rlk_digit).unwrap();
        assert_eq!(c.decrypt(&sk, &coarse).unwrap(), want);
        // (19): the noise relinearisation adds.
        let n3 = c.noise_poly(&sk, &three, &want).unwrap();
        let nr = c.noise_poly(&sk, &relin, &want).unwrap();
        let e_relin = worst_error(
            n3.iter()
                .zip(&nr)
                .map(|(x, y)| (x - y).abs().to_f64().unwrap()),
        );
        let b19 = nf * df * b_err * pj_sum;
        assert!(e_relin <= b19, "(19): {e_relin} > {b19}");
        assert!(e_relin > 0.0);
        // (22) with r_inf = (n + 1)/2 + 1, B_key = 1, delta = n.
        let r_inf = (nf + 1.0) / 2.0 + 1.0;
        let be = 6.0 * nf * tf * (kf / 2.0).powi(2) * p * ((df - 1.0) / (p - 1.0));
        let b22 = nf * tf * (r_inf + 0.5) * (v + v2)
            + nf / 2.0 * v.min(v2)
            + 0.5
            + tf * (0.5 + tf * nf * (1.0 + r_inf))
            + be * (1.0 + nf + nf * nf)
            + b19;
        let vm = c.noise(&sk, &fused, &want).unwrap().to_f64().unwrap();
        assert!(vm <= b22, "(22): {vm} > {b22}");
        eprintln!("fresh {v:.3e}, {v2:.3e}; mult {vm:.3e} <= (22) {b22:.3e}; relin {e_relin:.3e} <= (19) {b19:.3e}");
    }
}

/// Rotations of batched slots (t = 1 mod 2n) with Galois key switching on digits.
#[test]
fn rotations_with_batching() {
    let c = ctx(2, 3, T);
    let enc = BatchEncoder::new(N, T).unwrap();
    let mut rng = Csprng::from_seed([40; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let vals = rand_msg(&mut rng, T);
    let ct = c
        .encrypt(&pk, &enc.encode(&vals).unwrap(), &mut rng)
        .unwrap();
    let g = enc.galois_element_for_rotation(3);
    let swap = enc.galois_element_for_row_swap();
    let keys = c.galois_keys(&sk, &[g, swap], &mut rng).unwrap();
    let rot = c.apply_galois(&ct, g, &keys).unwrap();
    let got = enc.decode(&c.decrypt(&sk, &rot).unwrap()).unwrap();
    let h = N / 2;
    for r in 0..2 {
        for i in 0..h {
            assert_eq!(got[r * h + i], vals[r * h + (i + 3) % h]);
        }
    }
    let sw = enc
        .decode(
            &c.decrypt(&sk, &c.apply_galois(&ct, swap, &keys).unwrap())
                .unwrap(),
        )
        .unwrap();
    assert_eq!(&sw[..h], &vals[h..]);
    assert!(c.apply_galois(&ct, 5, &keys).is_err(), "missing key");
    // Batched product: slot-wise.
    let rlk = c
        .relin_key(&sk, Relinearization::PerResidue, &mut rng)
        .unwrap();
    let sq = c.mul(&ct, &ct, &rlk).unwrap();
    let got = enc.decode(&c.decrypt(&sk, &sq).unwrap()).unwrap();
    let want: Vec<u64> = vals.iter().map(|v| v * v % T).collect();
    assert_eq!(got, want);
    let _ = (BigUint::one(), Signed::abs(&BigInt::one()));
}

/// Parameters, ciphertexts and keys through bytes: same results, corruption and other parameter
/// sets refused, B_sk residues recomputed from P.
#[test]
fn serialization_round_trip_and_refusals() {
    let c = ctx(2, 3, T);
    let mut rng = Csprng::from_seed([50; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let rlk = c
        .relin_key(&sk, Relinearization::PerResidue, &mut rng)
        .unwrap();
    let enc = BatchEncoder::new(N, T).unwrap();
    let gk = c
        .galois_keys(&sk, &[enc.galois_element_for_rotation(1)], &mut rng)
        .unwrap();
    let params = c.params().clone();
    assert_eq!(
        HprParameters::from_bytes_allowing_insecure(&params.to_bytes()).unwrap(),
        params
    );
    let pk2 = c
        .public_key_from_bytes(&c.public_key_to_bytes(&pk).unwrap())
        .unwrap();
    let rlk2 = c
        .relin_key_from_bytes(&c.relin_key_to_bytes(&rlk).unwrap())
        .unwrap();
    let gk2 = c
        .galois_keys_from_bytes(&c.galois_keys_to_bytes(&gk).unwrap())
        .unwrap();
    let (a, b) = (rand_msg(&mut rng, T), rand_msg(&mut rng, T));
    let ca = c.encrypt(&pk2, &a, &mut rng).unwrap();
    let cb = c.encrypt(&pk, &b, &mut rng).unwrap();
    let bytes = c.ciphertext_to_bytes(&ca).unwrap();
    let ca2 = c.ciphertext_from_bytes(&bytes).unwrap();
    assert_eq!(ca2.id(), ca.id());
    for (x, y) in ca
        .parts()
        .iter()
        .flatten()
        .zip(ca2.parts().iter().flatten())
    {
        assert_eq!(
            x.residues(),
            y.residues(),
            "carried digits come back identical"
        );
    }
    let prod = c.mul(&ca2, &cb, &rlk2).unwrap();
    assert_eq!(c.decrypt(&sk, &prod).unwrap(), mul_mod_t(&a, &b, T));
    let g = enc.galois_element_for_rotation(1);
    let rot = c.apply_galois(&ca2, g, &gk2).unwrap();
    let got = enc.decode(&c.decrypt(&sk, &rot).unwrap()).unwrap();
    let want = enc.decode(&a).unwrap();
    assert_eq!(got[0], want[1]);
    // A flipped bit, a truncation and another parameter set are refused.
    let mut bad = bytes.clone();
    bad[40] ^= 1;
    assert!(c.ciphertext_from_bytes(&bad).is_err());
    assert!(c.ciphertext_from_bytes(&bytes[..bytes.len() - 9]).is_err());
    let other = ctx(2, 4, T);
    assert!(other.ciphertext_from_bytes(&bytes).is_err());
    assert!(c.relin_key_from_bytes(&bytes).is_err(), "wrong kind");
}

/// A key of another parameter set made from the same secret coefficients (same key identity) is
/// refused with an error, not used.
#[test]
fn foreign_keys_are_refused() {
    let c = ctx(2, 3, T);
    // Same k and d, other primes (60 bits): the key has the right shape but other moduli.
    let other = HprContext::new(
        &HprParameters::new(N, T, 2, 3, 60, 3.2, Security::InsecureResearchOnly).unwrap(),
    )
    .unwrap();
    let mut rng = Csprng::from_seed([60; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let coeffs = zeroize::Zeroizing::new(sk.coefficients().to_vec());
    let sk_other = other.secret_key_from(coeffs).unwrap();
    assert_eq!(sk.id(), sk_other.id());
    let rlk_other = other
        .relin_key(&sk_other, Relinearization::PerResidue, &mut rng)
        .unwrap();
    let m = rand_msg(&mut rng, T);
    let ct = c.encrypt_symmetric(&sk, &m, &mut rng).unwrap();
    assert!(c.mul(&ct, &ct, &rlk_other).is_err());
    assert!(c.decrypt(&sk_other, &ct).is_err());
}
