//! FV and BGV over any cyclotomic Phi_m (paper 001): encryption, addition, multiplication with
//! relinearisation (FV: BEHZ and HPS; BGV: with modulus switching), Galois automorphisms X -> X^g
//! (g in Z_m^*), squarings and slots, each checked against an exact model of the plaintext arithmetic
//! in Z_t[X]/(Phi_m); refusals of bad indices and moduli.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{GaloisKeys, PublicKey, RelinKey, SecretKey};
use rnsfhe::Error;
use rnsfhe_math::arith::{is_prime, Modulus};
use rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial;
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

/// c mod (Phi_m, t) for c of any length, by long division (Phi_m monic), exactly in u128.
fn reduce(mut c: Vec<u128>, phi: &[i64], t: u64) -> Vec<u64> {
    let n = phi.len() - 1;
    let t = u128::from(t);
    let phi_t: Vec<u128> = phi
        .iter()
        .map(|&p| (i128::from(p).rem_euclid(t as i128)) as u128)
        .collect();
    c.iter_mut().for_each(|x| *x %= t);
    for d in (n..c.len()).rev() {
        let top = c[d];
        if top == 0 {
            continue;
        }
        for (j, &p) in phi_t.iter().enumerate() {
            c[d - n + j] = (c[d - n + j] + t * t - top * p % t) % t;
        }
    }
    c.truncate(n);
    c.resize(n, 0);
    c.into_iter().map(|x| x as u64).collect()
}

/// a b mod (Phi_m, t).
fn mul_model(a: &[u64], b: &[u64], phi: &[i64], t: u64) -> Vec<u64> {
    let mut c = vec![0u128; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            c[i + j] = (c[i + j] + u128::from(x) * u128::from(y)) % u128::from(t);
        }
    }
    reduce(c, phi, t)
}

/// a(X^g) mod (Phi_m, t).
fn galois_model(a: &[u64], g: usize, m: usize, phi: &[i64], t: u64) -> Vec<u64> {
    let mut c = vec![0u128; m];
    for (i, &x) in a.iter().enumerate() {
        let e = i * g % m;
        c[e] = (c[e] + u128::from(x)) % u128::from(t);
    }
    reduce(c, phi, t)
}

fn add_model(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| (x + y) % t).collect()
}

/// The smallest prime t = 1 mod m (every slot is Z_t, d = 1).
fn prime_one_mod(m: u64) -> u64 {
    (1..).map(|k| k * m + 1).find(|&t| is_prime(t)).unwrap()
}

struct Setup {
    ctx: Arc<BgvContext>,
    sk: SecretKey,
    pk: PublicKey,
    rlk: RelinKey,
    gk: GaloisKeys,
    g: usize,
    phi: Vec<i64>,
    rng: Csprng,
}

fn setup(m: usize, t: u64, bits: &[u32], reduction: Reduction) -> Setup {
    let params = BgvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(t)
        .moduli_bits(bits)
        .special_moduli_bits(&[55])
        .reduction(reduction)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BgvContext::new(params).unwrap();
    let mut rng = Csprng::from_seed([m as u8; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let g = (2..m)
        .find(|&g| num_integer::gcd(g, m) == 1 && g as u64 % t != 1)
        .unwrap();
    let gk = ctx
        .galois_keys_for_elements(&sk, &[g as u64, (m - 1) as u64], &mut rng)
        .unwrap();
    Setup {
        ctx,
        sk,
        pk,
        rlk,
        gk,
        g,
        phi: cyclotomic_polynomial(m).unwrap(),
        rng,
    }
}

impl Setup {
    fn random(&mut self) -> Vec<u64> {
        let t = Modulus::new(self.ctx.params().plain_modulus()).unwrap();
        (0..self.ctx.params().degree())
            .map(|_| self.rng.uniform_mod(&t))
            .collect()
    }
    fn encrypt(&mut self, a: &[u64], public: bool) -> BgvCiphertext {
        let pt = self.ctx.plaintext_from_coefficients(a).unwrap();
        if public {
            self.ctx.encrypt(&pt, &self.pk, &mut self.rng).unwrap()
        } else {
            self.ctx
                .encrypt_symmetric(&pt, &self.sk, &mut self.rng)
                .unwrap()
        }
    }
    fn decrypt(&self, ct: &BgvCiphertext) -> Vec<u64> {
        self.ctx
            .decrypt(ct, &self.sk)
            .unwrap()
            .coefficients()
            .to_vec()
    }
}

/// Every operation at one (m, t) against the model.
fn check_all(m: usize, t: u64, bits: &[u32], reduction: Reduction) {
    let mut s = setup(m, t, bits, reduction);
    let ctx = Arc::clone(&s.ctx);
    let (phi, n) = (s.phi.clone(), ctx.params().degree());
    assert_eq!(n, phi.len() - 1);
    let a = s.random();
    let b = s.random();
    let ca = s.encrypt(&a, true);
    let cb = s.encrypt(&b, false);
    assert_eq!(s.decrypt(&ca), a, "m = {m}, t = {t}: public-key encryption");
    assert_eq!(s.decrypt(&cb), b, "m = {m}, t = {t}: symmetric encryption");
    assert_eq!(s.decrypt(&ctx.add(&ca, &cb).unwrap()), add_model(&a, &b, t));
    let ab = mul_model(&a, &b, &phi, t);
    let prod3 = ctx.multiply_no_relin(&ca, &cb).unwrap();
    assert_eq!(s.decrypt(&prod3), ab, "m = {m}, t = {t}: tensor product");
    let prod = ctx.multiply(&ca, &cb, &s.rlk).unwrap();
    assert_eq!(
        s.decrypt(&prod),
        ab,
        "m = {m}, t = {t}: relinearised product"
    );
    let down = ctx.mod_switch(&prod).unwrap();
    assert_eq!(s.decrypt(&down), ab, "m = {m}, t = {t}: modulus switching");
    for g in [s.g, m - 1] {
        let rot = ctx.apply_galois(&ca, g as u64, &s.gk).unwrap();
        assert_eq!(
            s.decrypt(&rot),
            galois_model(&a, g, m, &phi, t),
            "m = {m}, t = {t}: X -> X^{g}"
        );
    }
    // Depth: squarings, switching the modulus after each.
    let mut x = ctx.mod_switch(&ca).unwrap();
    let mut want = a.clone();
    for _ in 0..ctx.max_level().saturating_sub(1).min(3) {
        x = ctx
            .mod_switch(&ctx.multiply(&x, &x, &s.rlk).unwrap())
            .unwrap();
        want = mul_model(&want, &want, &phi, t);
        assert_eq!(
            s.decrypt(&x),
            want,
            "m = {m}, t = {t}: squaring at level {}",
            x.level()
        );
    }
    // Slots: slot-wise products (d = 1: integers mod t).
    if ctx.slots() > 0 {
        let alg = ctx.slot_algebra().unwrap();
        let d = alg.slot_degree();
        assert_eq!(ctx.slots() * d, n);
        let sa = alg.decode(&a).unwrap();
        let sb = alg.decode(&b).unwrap();
        let pa = ctx.encode_slots(&sa).unwrap();
        assert_eq!(pa.coefficients(), &a[..], "slots round trip");
        let got = ctx
            .decode_slots(&ctx.decrypt(&prod, &s.sk).unwrap())
            .unwrap();
        assert_eq!(got, alg.decode(&ab).unwrap());
        if d == 1 {
            let want: Vec<Vec<u64>> = sa
                .iter()
                .zip(&sb)
                .map(|(x, y)| vec![x[0] * y[0] % t])
                .collect();
            assert_eq!(got, want, "m = {m}, t = {t}: slot-wise product");
        }
    }
}

#[test]
fn small_m_binary_and_prime() {
    for m in [21, 45] {
        check_all(m, 2, &[50, 50, 50, 50], Reduction::SparseBarrett);
        check_all(
            m,
            prime_one_mod(m as u64),
            &[50, 50, 50, 50],
            Reduction::Barrett,
        );
    }
}

#[test]
fn m_255_771_1285() {
    for m in [255, 771, 1285] {
        check_all(m, 2, &[50, 50, 50, 50], Reduction::SparseBarrett);
        check_all(
            m,
            prime_one_mod(m as u64),
            &[55, 55, 55, 55],
            Reduction::SparseBarrett,
        );
    }
}

/// BGV in the Montgomery representation (paper 001 section 4.2): every phase of `check_all` against
/// the exact model, for m in {21, 255, 771}, t = 2 and (m = 21) a prime t with d = 1.
#[test]
fn bgv_montgomery_any_m() {
    for m in [21, 255, 771] {
        check_all(m, 2, &[50, 50, 50, 50], Reduction::Montgomery);
    }
    check_all(
        21,
        prime_one_mod(21),
        &[55, 55, 55, 55],
        Reduction::Montgomery,
    );
}

/// Montgomery and Barrett BGV decrypt a product, a switch, a rotation and the plaintext operations to
/// the same message, and the
/// Montgomery ciphertext holds c M: leaving the form gives a ciphertext that decrypts right with the
/// plain arithmetic of the Barrett ring (same moduli, same secret).
#[test]
fn bgv_montgomery_agrees_with_barrett() {
    use rnsfhe_math::ring::{Form, Poly, Representation};
    let m = 255;
    let mut mo = setup(m, 2, &[50, 50, 50], Reduction::Montgomery);
    let mut ba = setup(m, 2, &[50, 50, 50], Reduction::Barrett);
    let (a, b) = (mo.random(), mo.random());
    let run = |s: &mut Setup| {
        let ca = s.encrypt(&a, true);
        let cb = s.encrypt(&b, false);
        let prod = s.ctx.multiply(&ca, &cb, &s.rlk).unwrap();
        let down = s.ctx.mod_switch(&prod).unwrap();
        let rot = s.ctx.apply_galois(&down, s.g as u64, &s.gk).unwrap();
        let pb = s.ctx.plaintext_from_coefficients(&b).unwrap();
        let plain_ops = [
            s.ctx.mul_plain(&ca, &pb).unwrap(),
            s.ctx.add_plain(&ca, &pb).unwrap(),
            s.ctx.mul_scalar(&ca, 3).unwrap(),
        ]
        .map(|c| s.decrypt(&c));
        (ca, s.decrypt(&down), s.decrypt(&rot), plain_ops)
    };
    let (ca, mo_down, mo_rot, mo_plain) = run(&mut mo);
    let (_, ba_down, ba_rot, ba_plain) = run(&mut ba);
    assert_eq!(mo_down, ba_down);
    assert_eq!(mo_rot, ba_rot);
    assert_eq!(mo_plain, ba_plain);
    assert_eq!(mo_plain[0], mul_model(&a, &b, &mo.phi, 2));
    assert_eq!(mo_plain[1], add_model(&a, &b, 2));
    assert_eq!(mo_down, mul_model(&a, &b, &mo.phi, 2));
    // The parts are in Montgomery form; their values c (out of the form) under the same secret in
    // the Barrett ring decrypt to a.
    let ring = ba.ctx.ring_at(ca.level()).unwrap();
    let sk_ba = SecretKey::from_coefficients(
        ba.ctx.key_switcher(),
        zeroize::Zeroizing::new(mo.sk.coefficients().to_vec()),
    )
    .unwrap();
    let parts: Vec<Poly> = ca
        .parts()
        .iter()
        .map(|p| {
            assert_eq!(p.montgomery_form(), Form::Montgomery);
            let mut c = p.from_montgomery().unwrap();
            c.to_coefficient().unwrap();
            assert_ne!(c.residues(), {
                let mut raw = p.clone();
                raw.to_coefficient().unwrap();
                raw.residues().to_vec()
            });
            Poly::from_residues(ring, c.residues().to_vec(), Representation::Coefficient).unwrap()
        })
        .collect();
    let plain = ba
        .ctx
        .ciphertext_from_parts(parts, Some(sk_ba.id()))
        .unwrap();
    let got = ba.ctx.decrypt(&plain, &sk_ba).unwrap();
    assert_eq!(got.coefficients(), &a[..]);
}

/// Bytes of a Montgomery parameter set keep the representation, and its ciphertexts and keys come
/// back as c M and keys with M^2 (a product of read-back parts decrypts right); a Barrett context
/// of the same moduli does not take them (the fingerprints differ).
#[test]
fn bgv_montgomery_bytes_round_trip() {
    use rnsfhe::serialize::KeyBytes;
    let mut s = setup(255, 2, &[50, 50, 50], Reduction::Montgomery);
    let p = BgvParameters::from_bytes(&s.ctx.params().to_bytes()).unwrap();
    assert!(p.is_montgomery());
    assert_eq!(&p, s.ctx.params());
    let ctx2 = BgvContext::new(p).unwrap();
    let (a, b) = (s.random(), s.random());
    let ca = s.encrypt(&a, true);
    let cb = s.encrypt(&b, false);
    let bytes = s.ctx.ciphertext_to_bytes(&ca).unwrap();
    let ca2 = ctx2.ciphertext_from_bytes(&bytes).unwrap();
    let cb2 = ctx2
        .ciphertext_from_bytes(&s.ctx.ciphertext_to_bytes(&cb).unwrap())
        .unwrap();
    let sk2 = ctx2
        .secret_key_from_bytes(&s.ctx.secret_key_to_bytes(&s.sk))
        .unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&s.ctx.relin_key_to_bytes(&s.rlk))
        .unwrap();
    let prod = ctx2.multiply(&ca2, &cb2, &rlk2).unwrap();
    let got = ctx2.decrypt(&prod, &sk2).unwrap().coefficients().to_vec();
    assert_eq!(got, mul_model(&a, &b, &s.phi, 2));
    let barrett = setup(255, 2, &[50, 50, 50], Reduction::Barrett);
    assert!(barrett.ctx.ciphertext_from_bytes(&bytes).is_err());
}

#[test]
fn refusals() {
    let build = |m: usize, t: u64| {
        BgvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(t)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .security(Security::InsecureResearchOnly)
            .build()
    };
    for m in [0, 1, 2] {
        assert!(
            matches!(build(m, 2), Err(Error::InvalidDegree { .. })),
            "m = {m}"
        );
    }
    // A modulus that is 1 mod 2n-ish but not 1 mod lcm(N, m, t).
    let bad = BgvParameters::builder()
        .cyclotomic_index(21)
        .plain_modulus(2)
        .moduli(&[65537])
        .security(Security::InsecureResearchOnly)
        .build();
    assert!(matches!(
        bad,
        Err(Error::InvalidModulus { modulus: 65537, .. })
    ));
    // Montgomery: the representation of section 4.2 for a general Phi_m, none for X^n + 1.
    let mont = |m: usize| {
        BgvParameters::builder()
            .cyclotomic_index(m)
            .reduction(Reduction::Montgomery)
            .moduli_bits(&[50, 50])
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap()
            .is_montgomery()
    };
    assert!(mont(21));
    assert!(!mont(64));
    // m a power of two: the negacyclic ring of degree m / 2.
    assert_eq!(build(64, 2).unwrap().degree(), 32);
    let mut s = setup(21, 2, &[50, 50], Reduction::Barrett);
    let ca = {
        let a = s.random();
        s.encrypt(&a, true)
    };
    assert!(matches!(
        s.ctx.rotate_rows(&ca, 1, &s.gk),
        Err(Error::InvalidParameters(_))
    ));
    let ctx = Arc::clone(&s.ctx);
    assert!(matches!(
        ctx.galois_keys_for_elements(&s.sk, &[7], &mut s.rng),
        Err(Error::InvalidParameters(_))
    ));
    assert!(matches!(
        ctx.apply_galois(&ca, 5, &s.gk),
        Err(Error::MissingKey(_))
    ));
}

/// FV at one (m, t) and multiplication method against the model: encryption, addition, product with
/// relinearisation, squarings, X -> X^g, slots (checked decryption: the noise bound must hold).
fn check_fv(m: usize, t: u64, bits: &[u32], mul: Multiplication, reduction: Reduction) {
    let params = BfvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(t)
        .moduli_bits(bits)
        .special_moduli_bits(&[60])
        .multiplication(mul)
        .reduction(reduction)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let ctx = BfvContext::new(params).unwrap();
    let phi = cyclotomic_polynomial(m).unwrap();
    let n = ctx.params().degree();
    assert_eq!(n, phi.len() - 1);
    let mut rng = Csprng::from_seed([m as u8 ^ 0x5a; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let g = (2..m).find(|&g| num_integer::gcd(g, m) == 1).unwrap();
    let gk = ctx
        .galois_keys_for_elements(&sk, &[g as u64], &mut rng)
        .unwrap();
    let tm = Modulus::new(t).unwrap();
    let mut random = || (0..n).map(|_| rng.uniform_mod(&tm)).collect::<Vec<u64>>();
    let (a, b) = (random(), random());
    let mut rng = Csprng::from_seed([7; 32]);
    let ca = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, &mut rng)
        .unwrap();
    let cb = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&b).unwrap(), &pk, &mut rng)
        .unwrap();
    let dec = |ct: &rnsfhe::bfv::Ciphertext| {
        ctx.decrypt_checked(ct, &sk, Decryption::Hps)
            .unwrap()
            .coefficients()
            .to_vec()
    };
    let what = format!("FV m = {m}, t = {t}, {mul:?}");
    assert_eq!(dec(&ca), a, "{what}: encryption");
    assert_eq!(
        dec(&ctx.add(&ca, &cb).unwrap()),
        add_model(&a, &b, t),
        "{what}: add"
    );
    let ab = mul_model(&a, &b, &phi, t);
    let prod = ctx.multiply(&ca, &cb, &rlk).unwrap();
    assert_eq!(dec(&prod), ab, "{what}: product");
    let rot = ctx.apply_galois(&ca, g as u64, &gk).unwrap();
    assert_eq!(
        dec(&rot),
        galois_model(&a, g, m, &phi, t),
        "{what}: X -> X^{g}"
    );
    let (mut x, mut want) = (ca.clone(), a.clone());
    for i in 0..2 {
        x = ctx.multiply(&x, &x, &rlk).unwrap();
        want = mul_model(&want, &want, &phi, t);
        assert_eq!(dec(&x), want, "{what}: squaring {i}");
    }
    if ctx.slots() > 0 {
        let got = ctx.decode_slots(&ctx.decrypt(&prod, &sk).unwrap()).unwrap();
        assert_eq!(got, ctx.slot_algebra().unwrap().decode(&ab).unwrap());
    }
}

#[test]
fn fv_any_m_behz_and_hps() {
    for m in [21, 255, 771, 1285] {
        for t in [2, prime_one_mod(m as u64)] {
            for mul in [Multiplication::Behz, Multiplication::Hps] {
                check_fv(m, t, &[55, 55, 55], mul, Reduction::SparseBarrett);
            }
        }
    }
    check_fv(
        45,
        2,
        &[55, 55, 55],
        Multiplication::Hps,
        Reduction::Barrett,
    );
}

/// FV with the mixed strategy of paper 001 section 4.4 (optimised Barrett tensor, Montgomery
/// relinearisation with keys carrying M): every phase of `check_fv` against the exact model.
#[test]
fn fv_mixed_montgomery_any_m() {
    for m in [21, 255, 771] {
        for mul in [Multiplication::Behz, Multiplication::Hps] {
            check_fv(m, 2, &[55, 55, 55], mul, Reduction::Montgomery);
        }
    }
    check_fv(
        21,
        prime_one_mod(21),
        &[55, 55, 55],
        Multiplication::Hps,
        Reduction::Montgomery,
    );
}

/// The mixed strategy's relinearisation keys live on the Montgomery ring in Montgomery form (residues
/// K M), its ciphertexts on the optimised Barrett ring in plain form; the parameter bytes keep the
/// strategy and the relinearisation key comes back usable; a plain FV context of the same moduli
/// refuses the bytes (the fingerprints differ).
#[test]
fn fv_mixed_keys_carry_m_and_round_trip() {
    use rnsfhe::serialize::KeyBytes;
    use rnsfhe_math::ring::Form;
    let build = |r: Reduction| {
        BfvParameters::builder()
            .cyclotomic_index(255)
            .plain_modulus(2)
            .moduli_bits(&[55, 55, 55])
            .special_moduli_bits(&[60])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap()
    };
    let params = build(Reduction::Montgomery);
    assert!(params.is_mixed_montgomery());
    let ctx = BfvContext::new(params.clone()).unwrap();
    assert_eq!(
        ctx.ring().reduction(),
        Some(Reduction::SparseBarrett),
        "the tensor's ring"
    );
    assert_eq!(
        ctx.relin_switcher().ring_q().reduction(),
        Some(Reduction::Montgomery)
    );
    let mut rng = Csprng::from_seed([3; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    for (k0, k1) in rlk.key().parts() {
        assert_eq!(k0.montgomery_form(), Form::Montgomery);
        assert_eq!(k1.montgomery_form(), Form::Montgomery);
    }
    let back = BfvParameters::from_bytes(&params.to_bytes()).unwrap();
    assert_eq!(back, params);
    let ctx2 = BfvContext::new(back).unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
    let sk2 = ctx2
        .secret_key_from_bytes(&ctx.secret_key_to_bytes(&sk))
        .unwrap();
    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n).map(|i| (i % 3 == 0) as u64).collect();
    let pt = ctx.plaintext_from_coefficients(&a).unwrap();
    let ca = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let ca2 = ctx2
        .ciphertext_from_bytes(&ctx.ciphertext_to_bytes(&ca).unwrap())
        .unwrap();
    let sq = ctx2.multiply(&ca2, &ca2, &rlk2).unwrap();
    let phi = cyclotomic_polynomial(255).unwrap();
    let got = ctx2.decrypt_checked(&sq, &sk2, Decryption::Hps).unwrap();
    assert_eq!(got.coefficients(), &mul_model(&a, &a, &phi, 2)[..]);
    let plain = BfvContext::new(build(Reduction::SparseBarrett)).unwrap();
    assert!(plain
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .is_err());
}

#[test]
fn fv_refusals() {
    let build = |m: usize| {
        BfvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .security(Security::InsecureResearchOnly)
            .build()
    };
    assert!(matches!(build(2), Err(Error::InvalidDegree { .. })));
    let bad = BfvParameters::builder()
        .cyclotomic_index(255)
        .plain_modulus(2)
        .moduli(&[65537])
        .security(Security::InsecureResearchOnly)
        .build();
    assert!(matches!(
        bad,
        Err(Error::InvalidModulus { modulus: 65537, .. })
    ));
    let ctx = BfvContext::new(build(21).unwrap()).unwrap();
    let mut rng = Csprng::from_seed([1; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    assert!(matches!(
        ctx.galois_keys(&sk, &[1], false, &mut rng),
        Err(Error::InvalidParameters(_))
    ));
}

/// Bytes of a general-m parameter set, its keys and ciphertexts come back as the same ring: phi(255)
/// = 128 is a power of two, and the degree alone would rebuild X^128 + 1.
#[test]
fn bytes_round_trip_keeps_the_ring() {
    use rnsfhe::serialize::KeyBytes;
    let mut s = setup(255, 2, &[50, 50, 50], Reduction::SparseBarrett);
    let p = BgvParameters::from_bytes(&s.ctx.params().to_bytes()).unwrap();
    assert_eq!(p.cyclotomic_index(), 255);
    assert_eq!(&p, s.ctx.params());
    let ctx2 = BgvContext::new(p).unwrap();
    let (a, b) = (s.random(), s.random());
    let ca = s.encrypt(&a, true);
    let cb = s.encrypt(&b, false);
    let ca2 = ctx2
        .ciphertext_from_bytes(&s.ctx.ciphertext_to_bytes(&ca).unwrap())
        .unwrap();
    let cb2 = ctx2
        .ciphertext_from_bytes(&s.ctx.ciphertext_to_bytes(&cb).unwrap())
        .unwrap();
    let sk2 = ctx2
        .secret_key_from_bytes(&s.ctx.secret_key_to_bytes(&s.sk))
        .unwrap();
    let rlk2 = ctx2
        .relin_key_from_bytes(&s.ctx.relin_key_to_bytes(&s.rlk))
        .unwrap();
    let gk2 = ctx2
        .galois_keys_from_bytes(&s.ctx.galois_keys_to_bytes(&s.gk))
        .unwrap();
    let prod = ctx2.multiply(&ca2, &cb2, &rlk2).unwrap();
    let got = ctx2.decrypt(&prod, &sk2).unwrap().coefficients().to_vec();
    assert_eq!(got, mul_model(&a, &b, &s.phi, 2));
    let rot = ctx2.apply_galois(&ca2, s.g as u64, &gk2).unwrap();
    let got = ctx2.decrypt(&rot, &sk2).unwrap().coefficients().to_vec();
    assert_eq!(got, galois_model(&a, s.g, 255, &s.phi, 2));
    let fv = BfvParameters::builder()
        .cyclotomic_index(771)
        .plain_modulus(2)
        .moduli_bits(&[50, 50])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let back = BfvParameters::from_bytes(&fv.to_bytes()).unwrap();
    assert_eq!(back.cyclotomic_index(), 771);
    assert_eq!(back, fv);
}

/// Parameter bytes keep each reduction (paper 001 Alg. 1, Alg. 2, Montgomery) of FV and BGV; Alg. 1
/// and Alg. 2 share a fingerprint (bit-identical residues, so their ciphertexts are interchangeable).
#[test]
fn bytes_keep_the_reduction() {
    let all = [
        Reduction::Barrett,
        Reduction::SparseBarrett,
        Reduction::Montgomery,
    ];
    for r in all {
        let bgv = BgvParameters::builder()
            .cyclotomic_index(255)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let back = BgvParameters::from_bytes(&bgv.to_bytes()).unwrap();
        assert_eq!((back.reduction(), &back), (r, &bgv));
        let fv = BfvParameters::builder()
            .cyclotomic_index(21)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let back = BfvParameters::from_bytes(&fv.to_bytes()).unwrap();
        assert_eq!((back.reduction(), &back), (r, &fv));
    }
    let fingerprint = |r: Reduction| {
        let p = BgvParameters::builder()
            .cyclotomic_index(255)
            .plain_modulus(2)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .reduction(r)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        BgvContext::new(p).unwrap().fingerprint()
    };
    assert_eq!(
        fingerprint(Reduction::Barrett),
        fingerprint(Reduction::SparseBarrett)
    );
    assert_ne!(
        fingerprint(Reduction::Barrett),
        fingerprint(Reduction::Montgomery)
    );
}

/// The slots `old` after the automorphism X -> X^g, predicted by the hypercube's slot map (new slot e
/// holds old slot e' raised to t^p).
fn expected_slots(
    alg: &rnsfhe_math::ring::cyclotomic::SlotAlgebra,
    old: &[Vec<u64>],
    g: usize,
) -> Vec<Vec<u64>> {
    alg.automorphism_slot_map(g)
        .unwrap()
        .into_iter()
        .map(|(e, p)| alg.slot_frobenius(&old[e], p).unwrap())
        .collect()
}

/// Hypercube rotations (+1 and -1 along every dimension) and Frobenius on encrypted slots move and
/// raise the slots as the hypercube of Z_m^* / <t> says, for FV (HPS) and BGV, with t = 2 (slots of
/// GF(2^d)) and with a prime t of one-coefficient slots.
#[test]
fn hypercube_rotations_and_frobenius_on_ciphertexts() {
    for (m, t) in [(255usize, 2u64), (771, 2), (255, 1021)] {
        let params = BfvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(t)
            .moduli_bits(&[50, 50, 50])
            .special_moduli_bits(&[60])
            .multiplication(Multiplication::Hps)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let fv = BfvContext::new(params).unwrap();
        let mut rng = Csprng::from_seed([m as u8 ^ t as u8; 32]);
        let (sk, pk) = fv.keygen(&mut rng).unwrap();
        let gk = fv.galois_keys_for_hypercube(&sk, &mut rng).unwrap();
        let alg = fv.slot_algebra().unwrap();
        let tm = Modulus::new(t).unwrap();
        let slots: Vec<Vec<u64>> = (0..alg.slots())
            .map(|_| {
                (0..alg.slot_degree())
                    .map(|_| rng.uniform_mod(&tm))
                    .collect()
            })
            .collect();
        let ct = fv
            .encrypt(&fv.encode_slots(&slots).unwrap(), &pk, &mut rng)
            .unwrap();
        let dec = |c: &rnsfhe::bfv::Ciphertext| {
            fv.decode_slots(&fv.decrypt_checked(c, &sk, Decryption::Hps).unwrap())
                .unwrap()
        };
        assert!(
            !alg.dimensions().is_empty(),
            "m = {m}: no hypercube dimension"
        );
        for dim in 0..alg.dimensions().len() {
            for k in [1i64, -1] {
                let g = alg.rotation_galois_element(dim, k).unwrap();
                let got = dec(&fv.rotate_dimension(&ct, dim, k, &gk).unwrap());
                assert_eq!(
                    got,
                    expected_slots(alg, &slots, g),
                    "FV m = {m}, t = {t}, dim {dim}, k {k}"
                );
            }
        }
        let g = alg.frobenius_galois_element();
        if g != 1 {
            let got = dec(&fv.frobenius(&ct, &gk).unwrap());
            let want: Vec<Vec<u64>> = slots
                .iter()
                .map(|s| alg.slot_frobenius(s, 1).unwrap())
                .collect();
            assert_eq!(got, want, "FV Frobenius m = {m}, t = {t}");
            assert_eq!(want, expected_slots(alg, &slots, g));
        }
        // A rotation by 2 needs a key nobody generated: refused, not garbage.
        if alg.dimensions()[0].order > 3 {
            assert!(fv.rotate_dimension(&ct, 0, 2, &gk).is_err());
        }
        assert!(fv
            .rotate_dimension(&ct, alg.dimensions().len(), 1, &gk)
            .is_err());

        // BGV on the same (m, t).
        let mut s = setup(m, t, &[50, 50, 50], Reduction::Barrett);
        let gk = s.ctx.galois_keys_for_hypercube(&s.sk, &mut s.rng).unwrap();
        let alg = s.ctx.slot_algebra().unwrap();
        let ct = s
            .ctx
            .encrypt(&s.ctx.encode_slots(&slots).unwrap(), &s.pk, &mut s.rng)
            .unwrap();
        for dim in 0..alg.dimensions().len() {
            let g = alg.rotation_galois_element(dim, 1).unwrap();
            let r = s.ctx.rotate_dimension(&ct, dim, 1, &gk).unwrap();
            let got = s
                .ctx
                .decode_slots(&s.ctx.decrypt(&r, &s.sk).unwrap())
                .unwrap();
            assert_eq!(
                got,
                expected_slots(alg, &slots, g),
                "BGV m = {m}, t = {t}, dim {dim}"
            );
        }
    }
}
