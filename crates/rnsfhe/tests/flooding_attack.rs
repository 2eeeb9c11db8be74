//! Li and Micciancio's key recovery from shared CKKS decryptions ("On the security of homomorphic
//! encryption on approximate numbers", Eurocrypt 2021, section 4), mounted against the library: an
//! attacker holding a ciphertext (c_0, c_1) and its decrypted values re-encodes them at the
//! ciphertext's scale, which gives the phase m + e = c_0 + c_1 s exactly, and solves
//! s = (m + e - c_0) c_1^-1 in the NTT domain. It recovers the secret from raw decryptions and
//! nothing from flooded ones (`rlwe::flooding`).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{Flooding, PublicKey};
use rnsfhe_math::ring::Poly;
use rnsfhe_math::sample::Csprng;

fn context() -> std::sync::Arc<CkksContext> {
    // Small N and scale 2^40: the decoded f64 slots re-encode to the phase's integers exactly.
    let p = CkksParameters::builder()
        .degree(1024)
        .levels(1)
        .scale_bits(40)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

/// The attacker's candidate secret in the NTT domain from `ct` and the decrypted `values`, or
/// `None` when some NTT slot of c_1 is zero (not invertible: the attacker takes another ciphertext).
fn recover(ctx: &CkksContext, ct: &CkksCiphertext, values: &[Complex]) -> Option<Poly> {
    // round(Delta tau^-1(values)): the encoding, read from a trivial ciphertext (m, 0).
    let phase = ctx.encrypt_trivial(values, ct.level(), ct.scale()).unwrap();
    let (c0, c1) = (&ct.parts()[0], &ct.parts()[1]);
    let ring = c0.context();
    let n = ring.degree();
    let mut s = Poly::zero(ring, rnsfhe_math::ring::Representation::Ntt);
    let mut out = s.residues().to_vec();
    let mut pt = phase.parts()[0].clone();
    pt.sub_assign(c0).unwrap();
    for (i, q) in ring.moduli().iter().enumerate() {
        for j in 0..n {
            let k = i * n + j;
            let inv = q.inv(c1.residues()[k]).ok()?;
            out[k] = q.mul(pt.residues()[k], inv);
        }
    }
    s.residues_mut().copy_from_slice(&out);
    Some(s)
}

/// A fresh encryption of values with the attacker's needs met (c_1 invertible), and the values.
fn invertible_ciphertext(
    ctx: &CkksContext,
    pk: &PublicKey,
    rng: &mut Csprng,
) -> (CkksCiphertext, Vec<Complex>) {
    loop {
        let v: Vec<Complex> = (0..512)
            .map(|i| Complex::new((i % 13) as f64 / 13.0 - 0.5, (i % 7) as f64 / 7.0))
            .collect();
        let ct = ctx.encrypt(&ctx.encode(&v).unwrap(), pk, rng).unwrap();
        let c1 = &ct.parts()[1];
        if c1.residues().iter().all(|&r| r != 0) {
            return (ct, v);
        }
    }
}

/// Raw decryption: the secret falls out. Flooded decryption (lambda = 40, the fresh error's bound
/// measured on a rehearsal under a throwaway key): the candidate is not the secret, and not even
/// a small polynomial.
#[test]
fn li_micciancio_key_recovery() {
    let ctx = context();
    let mut rng = Csprng::from_seed([61; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let (ct, _) = invertible_ciphertext(&ctx, &pk, &mut rng);
    let truth = sk.ntt_at(ct.parts()[0].context()).unwrap();

    let raw = ctx.decrypt_values(&ct, &sk).unwrap();
    let s = recover(&ctx, &ct, &raw).expect("c_1 invertible");
    assert_eq!(
        s.residues(),
        truth.residues(),
        "raw decryption gives the key away"
    );

    // The flooding's bound: a rehearsal encryption under a throwaway key.
    let (throwaway, throwaway_pk) = ctx.keygen(&mut rng).unwrap();
    let (rehearsal, v) = invertible_ciphertext(&ctx, &throwaway_pk, &mut rng);
    let bound = ctx
        .error_log2(&rehearsal, &throwaway, &ctx.encode(&v).unwrap())
        .unwrap();
    assert!(bound > 2.0 && bound < 16.0, "a fresh error: 2^{bound}");
    let flood = Flooding::new(40, bound + 1.0, 1024, 1).unwrap();
    let flooded = ctx
        .decrypt_values_flooded(&ct, &sk, &flood, &mut rng)
        .unwrap();
    let s = recover(&ctx, &ct, &flooded).expect("c_1 invertible");
    assert_ne!(s.residues(), truth.residues());
    let mut c = s.clone();
    c.to_coefficient().unwrap();
    let q0 = &c.context().moduli()[0];
    let small = c.residues()[..1024]
        .iter()
        .filter(|&&r| q0.center(r).abs() <= 1)
        .count();
    assert!(small < 8, "{small} of 1024 coefficients look ternary");
    // The flooded values keep log2 Delta - log2(sqrt(n/2) sigma) bits (here few: scale 2^40).
    let err: Vec<f64> = flooded
        .iter()
        .zip(&raw)
        .flat_map(|(a, b)| [a.re - b.re, a.im - b.im])
        .collect();
    let rms = (err.iter().map(|e| e * e).sum::<f64>() / err.len() as f64).sqrt();
    let predicted = flood.precision_bits(40.0, 1024, 1);
    eprintln!(
        "bound 2^{bound:.2}, sigma 2^{:.2}: precision {:.2} bits, predicted {predicted:.2}",
        flood.sigma().log2(),
        -rms.log2()
    );
    assert!((-rms.log2() - predicted).abs() < 1.0);
}
