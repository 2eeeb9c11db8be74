//! Squaring depths decided in the test: each square is decrypted and compared with a plaintext
//! model computed here (not the library's plaintext product), the verdict of the depth tests
//! (`#[path = "support/depth.rs"] mod depth;`).
#![allow(dead_code, clippy::unwrap_used)] // each test file uses what it needs; set-up aborts loudly

use rnsfhe::bfv::{BfvContext, Decryption};
use rnsfhe::hpr::{HprContext, HprPublicKey, HprRelinKey, HprSecretKey};
use rnsfhe::rlwe::{PublicKey, RelinKey, SecretKey};
use rnsfhe_math::sample::Csprng;

/// m^2 in Z_t[X]/(X^n + 1). For t = 2 by Frobenius (cross terms 2 m_i m_j vanish, X^(2i) wraps to
/// +X^(2i - n) since -1 = 1): out[2i mod n] = m_i + m_(i + n/2). Otherwise by schoolbook in u128,
/// X^n = -1.
pub fn negacyclic_square(m: &[u64], t: u64) -> Vec<u64> {
    let n = m.len();
    if t == 2 {
        let mut out = vec![0u64; n];
        for (i, &c) in m.iter().enumerate() {
            out[2 * i % n] ^= c & 1;
        }
        return out;
    }
    negacyclic_product(m, m, t)
}

/// a b in Z_t[X]/(X^n + 1) by schoolbook in u128 (X^n = -1).
pub fn negacyclic_product(a: &[u64], b: &[u64], t: u64) -> Vec<u64> {
    let n = a.len();
    let t128 = u128::from(t);
    let (mut plus, mut minus) = (vec![0u128; n], vec![0u128; n]);
    for (i, &a) in a.iter().enumerate() {
        if a == 0 {
            continue;
        }
        for (j, &b) in b.iter().enumerate() {
            let p = u128::from(a) * u128::from(b);
            if i + j < n {
                plus[i + j] += p;
            } else {
                minus[i + j - n] += p;
            }
        }
    }
    plus.iter()
        .zip(&minus)
        .map(|(p, q)| ((p % t128 + t128 - q % t128) % t128) as u64)
        .collect()
}

/// One square of a BFV squaring chain: its depth, decrypted plaintext equal to the model, and the
/// measured noise (log2).
pub struct BfvStep {
    pub depth: u32,
    pub correct: bool,
    pub noise_log2: f64,
}

/// Squares (with relinearisation) an encryption of `pt` up to `max` times, decrypting each square
/// with `method` and comparing it with `model` applied as often (on the plaintext's coefficients);
/// stops after the first wrong square.
#[allow(clippy::too_many_arguments)] // keys, input, model, method and limit
pub fn bfv_squaring_chain(
    ctx: &BfvContext,
    sk: &SecretKey,
    pk: &PublicKey,
    rlk: &RelinKey,
    coeffs: &[u64],
    model: impl Fn(&[u64]) -> Vec<u64>,
    method: Decryption,
    max: u32,
    rng: &mut Csprng,
) -> Vec<BfvStep> {
    let mut ct = ctx
        .encrypt(&ctx.plaintext_from_coefficients(coeffs).unwrap(), pk, rng)
        .unwrap();
    let mut want = coeffs.to_vec();
    let mut steps = Vec::new();
    for depth in 1..=max {
        ct = ctx.square(&ct, rlk).unwrap();
        want = model(&want);
        let got = ctx.decrypt_with(&ct, sk, method).unwrap();
        let correct = got.coefficients() == want.as_slice();
        steps.push(BfvStep {
            depth,
            correct,
            noise_log2: ctx.noise_log2(&ct, sk).unwrap(),
        });
        if !correct {
            break;
        }
    }
    steps
}

/// The squares of a BFV chain that decrypt right.
pub fn bfv_depth(steps: &[BfvStep]) -> u32 {
    steps.iter().take_while(|s| s.correct).count() as u32
}

/// The squarings (with relinearisation) after which an HPR encryption of binary `m` (t = 2) still
/// decrypts to m^(2^L) by [`negacyclic_square`], up to `max`.
pub fn hpr_squaring_depth(
    c: &HprContext,
    sk: &HprSecretKey,
    pk: &HprPublicKey,
    rlk: &HprRelinKey,
    m: &[u64],
    max: u32,
    rng: &mut Csprng,
) -> u32 {
    let t = c.params().plain_modulus();
    let mut ct = c.encrypt(pk, m, rng).unwrap();
    let mut want = m.to_vec();
    for depth in 1..=max {
        ct = c.mul(&ct, &ct, rlk).unwrap();
        want = negacyclic_square(&want, t);
        if c.decrypt(sk, &ct).unwrap() != want {
            return depth - 1;
        }
    }
    max
}
