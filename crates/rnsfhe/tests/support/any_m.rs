//! Exact models of Z_t[X]/(Phi_m) and the FV / BGV set-ups that the any-m tests check against
//! (shared by tests/any_m.rs and tests/any_m_montgomery.rs).
#![allow(dead_code)] // each test file uses part of it

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters, BfvParametersBuilder, Decryption, Multiplication};
use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{GaloisKeys, PublicKey, RelinKey, SecretKey};
use rnsfhe_math::arith::{is_prime, Modulus};
use rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial;
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

/// c mod (Phi_m, t) for c of any length, by long division (Phi_m monic), exactly in u128.
pub fn reduce(mut c: Vec<u128>, phi: &[i64], t: u64) -> Vec<u64> {
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
pub fn mul_model(a: &[u64], b: &[u64], phi: &[i64], t: u64) -> Vec<u64> {
    let mut c = vec![0u128; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            c[i + j] = (c[i + j] + u128::from(x) * u128::from(y)) % u128::from(t);
        }
    }
    reduce(c, phi, t)
}

/// a(X^g) mod (Phi_m, t).
pub fn galois_model(a: &[u64], g: usize, m: usize, phi: &[i64], t: u64) -> Vec<u64> {
    let mut c = vec![0u128; m];
    for (i, &x) in a.iter().enumerate() {
        let e = i * g % m;
        c[e] = (c[e] + u128::from(x)) % u128::from(t);
    }
    reduce(c, phi, t)
}

pub fn add_model(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| (x + y) % t).collect()
}

/// The smallest prime t = 1 mod m (every slot is Z_t, d = 1).
pub fn prime_one_mod(m: u64) -> u64 {
    (1..).map(|k| k * m + 1).find(|&t| is_prime(t)).unwrap()
}

pub struct Setup {
    pub ctx: Arc<BgvContext>,
    pub sk: SecretKey,
    pub pk: PublicKey,
    pub rlk: RelinKey,
    pub gk: GaloisKeys,
    pub g: usize,
    pub phi: Vec<i64>,
    pub rng: Csprng,
}

pub fn setup(m: usize, t: u64, bits: &[u32], reduction: Reduction) -> Setup {
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
    pub fn random(&mut self) -> Vec<u64> {
        let t = Modulus::new(self.ctx.params().plain_modulus()).unwrap();
        (0..self.ctx.params().degree())
            .map(|_| self.rng.uniform_mod(&t))
            .collect()
    }
    pub fn encrypt(&mut self, a: &[u64], public: bool) -> BgvCiphertext {
        let pt = self.ctx.plaintext_from_coefficients(a).unwrap();
        if public {
            self.ctx.encrypt(&pt, &self.pk, &mut self.rng).unwrap()
        } else {
            self.ctx
                .encrypt_symmetric(&pt, &self.sk, &mut self.rng)
                .unwrap()
        }
    }
    pub fn decrypt(&self, ct: &BgvCiphertext) -> Vec<u64> {
        self.ctx
            .decrypt(ct, &self.sk)
            .unwrap()
            .coefficients()
            .to_vec()
    }
}

/// Every operation at one (m, t) against the model.
pub fn check_all(m: usize, t: u64, bits: &[u32], reduction: Reduction) {
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

/// FV at one (m, t) and multiplication method against the model: encryption, addition, product with
/// relinearisation, squarings, X -> X^g, slots (checked decryption: the noise bound must hold).
pub fn check_fv(m: usize, t: u64, bits: &[u32], mul: Multiplication, reduction: Reduction) {
    check_fv_params(
        fv_builder(m, t, bits, mul)
            .reduction(reduction)
            .build()
            .unwrap(),
    );
}

/// The builder of `check_fv`'s parameter sets (special modulus of 60 bits, no security check).
pub fn fv_builder(m: usize, t: u64, bits: &[u32], mul: Multiplication) -> BfvParametersBuilder {
    BfvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(t)
        .moduli_bits(bits)
        .special_moduli_bits(&[60])
        .multiplication(mul)
        .security(Security::InsecureResearchOnly)
}

/// `check_fv` on a parameter set of a general Phi_m.
pub fn check_fv_params(params: BfvParameters) {
    let (m, t, mul) = (
        params.cyclotomic_index(),
        params.plain_modulus(),
        params.multiplication(),
    );
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
    let dec = |ct: &rnsfhe::bfv::BfvCiphertext| {
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
