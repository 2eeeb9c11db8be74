//! BGV's automatic modulus switching: with the default mode the plain operators
//! reach the depth of the hand-tuned chain (a `mod_switch` after each product), for X^n + 1 at the
//! default parameters of n = 2^14 and for a general Phi_255; every accepted decryption is checked
//! against an exact model of the plaintext arithmetic.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/any_m.rs"]
mod model;

use std::sync::Arc;

use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters, ModulusSwitching};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial;
use rnsfhe_math::sample::Csprng;

/// At most this many squarings are tried (far beyond any chain here).
const LIMIT: u32 = 40;

/// Squarings `x = x * x` of a fresh encryption counted while each decrypts to the exact square
/// (checked against `square`, the model of the plaintext arithmetic) and is not refused. With
/// `hand_tuned`, each product is followed by a `mod_switch` (none at level 0): the chain a user
/// tunes by hand. Returns the count and the levels the products were computed at.
fn squarings(
    ctx: &BgvContext,
    hand_tuned: bool,
    seed: u8,
    encode: impl Fn(&[u64]) -> rnsfhe::bgv::BgvPlaintext,
    decode: impl Fn(&rnsfhe::bgv::BgvPlaintext) -> Vec<u64>,
    square: impl Fn(&[u64]) -> Vec<u64>,
) -> (u32, Vec<usize>) {
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let t = ctx.params().plain_modulus();
    let mut m: Vec<u64> = (0..ctx.params().degree())
        .map(|_| rng.next_u64() % t)
        .collect();
    let mut x = ctx.encrypt(&encode(&m), &pk, &mut rng).unwrap();
    let (mut count, mut levels) = (0, Vec::new());
    while count < LIMIT {
        let Ok(mut y) = ctx.multiply(&x, &x, &rlk) else {
            break;
        };
        levels.push(y.level());
        if hand_tuned && y.level() > 0 {
            y = ctx.mod_switch(&y).unwrap();
        }
        m = square(&m);
        match ctx.decrypt(&y, &sk) {
            Ok(p) => assert_eq!(decode(&p), m, "squaring {}: accepted but wrong", count + 1),
            Err(_) => break,
        }
        count += 1;
        x = y;
    }
    (count, levels)
}

/// Slot-wise squares mod t.
fn slot_squares(t: u64) -> impl Fn(&[u64]) -> Vec<u64> {
    move |m| {
        m.iter()
            .map(|&v| (u128::from(v) * u128::from(v) % u128::from(t)) as u64)
            .collect()
    }
}

/// The default BGV parameters at n = 2^14 (t = 65537, 128-bit security: 8 ciphertext moduli).
fn default_2_14() -> Arc<BgvContext> {
    BgvContext::new(BgvParameters::builder().degree(1 << 14).build().unwrap()).unwrap()
}

/// (auto, hand-tuned) squaring counts of a batched power-of-two context.
fn slot_depths(ctx: &BgvContext) -> ((u32, Vec<usize>), (u32, Vec<usize>)) {
    let t = ctx.params().plain_modulus();
    let enc = |m: &[u64]| ctx.encode(m).unwrap();
    let dec = |p: &rnsfhe::bgv::BgvPlaintext| ctx.decode(p).unwrap();
    (
        squarings(ctx, false, 3, enc, dec, slot_squares(t)),
        squarings(ctx, true, 3, enc, dec, slot_squares(t)),
    )
}

#[test]
fn power_of_two_default_auto_depth_is_the_hand_tuned_depth() {
    let ctx = default_2_14();
    assert_eq!(ctx.max_level(), 7, "the default chain at 2^14");
    let ((auto, auto_levels), (hand, hand_levels)) = slot_depths(&ctx);
    eprintln!(
        "n = 2^14 defaults: plain operators {auto} squarings (products at levels {auto_levels:?}), \
         mod_switch after each product {hand} (at {hand_levels:?})"
    );
    assert!(hand >= 7, "the hand-tuned chain reached {hand}");
    assert_eq!(auto, hand, "plain operators against the hand-tuned chain");
    assert_eq!(auto_levels, hand_levels, "the products' levels");
}

/// `ModulusSwitching::Manual` keeps the explicit behaviour: plain products stay at the top level
/// (refused after a few squarings, fewer than the hand-tuned chain) and the hand-tuned chain there
/// reaches the depth of the automatic mode.
#[test]
fn power_of_two_manual_mode_switches_only_by_hand() {
    let params = BgvParameters::builder()
        .degree(1 << 14)
        .modulus_switching(ModulusSwitching::Manual)
        .build()
        .unwrap();
    assert_eq!(params.modulus_switching(), ModulusSwitching::Manual);
    let back = BgvParameters::from_bytes_allowing_insecure(&params.to_bytes()).unwrap();
    assert_eq!(back, params, "the mode through bytes");
    let ctx = BgvContext::new(params).unwrap();
    // The mode is not part of the fingerprint: ciphertexts and keys serve both modes.
    assert_eq!(ctx.fingerprint(), default_2_14().fingerprint());
    let ((plain, plain_levels), (hand, _)) = slot_depths(&ctx);
    let ((auto, _), _) = slot_depths(&default_2_14());
    eprintln!(
        "n = 2^14 manual mode: plain products {plain} squarings, mod_switch after each {hand}"
    );
    assert!(plain_levels.iter().all(|&l| l == 7), "{plain_levels:?}");
    assert!(plain < hand, "manual plain {plain}, hand-tuned {hand}");
    assert_eq!(hand, auto);
}

/// Phi_255 (n = 128; t = 2: 16 slots of GF(2^8); t = 1021 = 1 mod 255: 128 slots of GF(1021)),
/// ten 50-bit primes: squarings of random polynomials (their square mod (Phi_255, t) exact).
fn phi_255(t: u64) -> Arc<BgvContext> {
    let params = BgvParameters::builder()
        .cyclotomic_index(255)
        .plain_modulus(t)
        .moduli_bits(&[50; 10])
        .special_moduli_bits(&[55])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BgvContext::new(params).unwrap()
}

fn coefficient_depths(ctx: &BgvContext, seed: u8) -> ((u32, Vec<usize>), (u32, Vec<usize>)) {
    let t = ctx.params().plain_modulus();
    let phi = cyclotomic_polynomial(ctx.params().cyclotomic_index()).unwrap();
    let enc = |m: &[u64]| ctx.plaintext_from_coefficients(m).unwrap();
    let dec = |p: &rnsfhe::bgv::BgvPlaintext| p.coefficients().to_vec();
    let sq = |m: &[u64]| model::mul_model(m, m, &phi, t);
    (
        squarings(ctx, false, seed, enc, dec, sq),
        squarings(ctx, true, seed, enc, dec, sq),
    )
}

/// Phi_255, t = 1021: each product's noise is far above the switching floor, so the automatic
/// policy switches exactly where the hand-tuned chain does: the same depth, products at the same
/// levels.
#[test]
fn general_m_auto_depth_is_the_hand_tuned_depth() {
    let ctx = phi_255(1021);
    let ((auto, auto_levels), (hand, hand_levels)) = coefficient_depths(&ctx, 5);
    eprintln!(
        "Phi_255, t = 1021, 10 x 50 bits: plain operators {auto} squarings (products at levels \
         {auto_levels:?}), mod_switch after each product {hand} (at {hand_levels:?})"
    );
    assert!(hand >= 8, "the hand-tuned chain reached {hand}");
    assert_eq!(auto, hand, "plain operators against the hand-tuned chain");
    assert_eq!(auto_levels, hand_levels);
}

/// Phi_255, t = 2 (the ring, where 8 plain squarings were refused with 10 primes): the
/// products' noise stays so small that the policy keeps two squarings at some levels, which a
/// `mod_switch` after each product cannot: at least the hand-tuned depth.
#[test]
fn general_m_binary_auto_depth_reaches_the_hand_tuned_depth() {
    let ctx = phi_255(2);
    let ((auto, auto_levels), (hand, hand_levels)) = coefficient_depths(&ctx, 5);
    eprintln!(
        "Phi_255, t = 2, 10 x 50 bits: plain operators {auto} squarings (products at levels \
         {auto_levels:?}), mod_switch after each product {hand} (at {hand_levels:?})"
    );
    assert!(hand >= 9, "the hand-tuned chain reached {hand}");
    assert!(
        auto >= hand,
        "plain operators {auto} below the hand-tuned {hand}"
    );
}

/// A mixed circuit in the automatic mode on a small ring: products and sums of ciphertexts at
/// different levels, plaintext and scalar operands, each result decrypted against the slot-wise
/// model; the same operands in the manual mode refused with `LevelMismatch` as before.
#[test]
fn mixed_circuit_in_auto_mode() {
    let (n, t) = (256usize, 65537u64);
    let build = |mode| {
        let p = BgvParameters::builder()
            .degree(n)
            .plain_modulus(t)
            .moduli_bits(&[45; 6])
            .special_moduli_bits(&[50])
            .modulus_switching(mode)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        BgvContext::new(p).unwrap()
    };
    let ctx = build(ModulusSwitching::Auto);
    let top = ctx.max_level();
    let mut rng = Csprng::from_seed([21; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let random = |rng: &mut Csprng| -> Vec<u64> { (0..n).map(|_| rng.next_u64() % t).collect() };
    let (ma, mb, mc, mp) = (
        random(&mut rng),
        random(&mut rng),
        random(&mut rng),
        random(&mut rng),
    );
    let zip = |x: &[u64], y: &[u64], f: &dyn Fn(u128, u128) -> u128| -> Vec<u64> {
        x.iter()
            .zip(y)
            .map(|(&u, &v)| (f(u128::from(u), u128::from(v)) % u128::from(t)) as u64)
            .collect()
    };
    let mul = |x: &[u64], y: &[u64]| zip(x, y, &|u, v| u * v);
    let add = |x: &[u64], y: &[u64]| zip(x, y, &|u, v| u + v);
    let sub = |x: &[u64], y: &[u64]| zip(x, y, &|u, v| u + u128::from(t) - v);
    let enc = |m: &[u64], rng: &mut Csprng| ctx.encrypt(&ctx.encode(m).unwrap(), &pk, rng).unwrap();
    let check = |c: &BgvCiphertext, m: &[u64], what: &str| {
        let got = ctx.decode(&ctx.decrypt(c, &sk).unwrap()).unwrap();
        assert_eq!(got, m, "{what}: wrong decryption");
    };
    let (a, b, c) = (enc(&ma, &mut rng), enc(&mb, &mut rng), enc(&mc, &mut rng));
    let pt = ctx.encode(&mp).unwrap();

    // A product of fresh ciphertexts is computed at the top (switching would only cost a level).
    let ab = ctx.multiply(&a, &b, &rlk).unwrap();
    let mab = mul(&ma, &mb);
    assert_eq!(ab.level(), top);
    check(&ab, &mab, "a b");
    // Its square: both operands switched down first (a product's bound is far above the floor).
    let abab = ctx.multiply(&ab, &ab, &rlk).unwrap();
    assert_eq!(abab.level(), top - 1);
    check(&abab, &mul(&mab, &mab), "(a b)^2");
    // Its product with a fresh ciphertext: the rule weighs both bounds (one switch would gain
    // about log2 q for a b but little for c: here the product stays at the top).
    let abc = ctx.multiply(&ab, &c, &rlk).unwrap();
    check(&abc, &mul(&mab, &mc), "(a b) c");
    // Operands at different levels: aligned to the lower one (two levels below the top here).
    let low = ctx.mod_switch_to_level(&c, top - 2).unwrap();
    let prod = ctx.multiply(&ab, &low, &rlk).unwrap();
    assert!(prod.level() <= top - 2, "level {}", prod.level());
    check(
        &prod,
        &mul(&mab, &mc),
        "(a b) at the top times c two levels below",
    );
    let prod2 = ctx.multiply(&low, &ab, &rlk).unwrap();
    check(&prod2, &mul(&mc, &mab), "the same, operands swapped");
    // Sums and differences at different levels: at the lower level, both operand orders.
    let sum = ctx.add(&ab, &low).unwrap();
    assert_eq!(sum.level(), top - 2);
    check(&sum, &add(&mab, &mc), "a b + c (levels differ)");
    check(
        &ctx.sub(&low, &ab).unwrap(),
        &sub(&mc, &mab),
        "c - a b (levels differ)",
    );
    let mut acc = ab.clone();
    ctx.add_assign(&mut acc, &low).unwrap();
    assert_eq!(acc.level(), top - 2);
    check(
        &acc,
        &add(&mab, &mc),
        "add_assign lowering its left operand",
    );
    // Plaintext and scalar operands keep the ciphertext's level (a switch never helps them).
    let scaled = ctx.mul_scalar(&ab, -7).unwrap();
    let mscaled = zip(&mab, &mab, &|u, _| u * u128::from(t - 7));
    assert_eq!(scaled.level(), top);
    check(&scaled, &mscaled, "a b * -7");
    let plain = ctx
        .add_plain(&ctx.mul_plain(&scaled, &pt).unwrap(), &pt)
        .unwrap();
    let mplain = add(&mul(&mscaled, &mp), &mp);
    assert_eq!(plain.level(), top);
    check(&plain, &mplain, "(a b * -7) p + p");
    // A deeper mix: a rotation, products of products at different levels, down to level 0.
    let rot = ctx.rotate_rows(&plain, 1, &gk).unwrap();
    let half = n / 2;
    let mrot: Vec<u64> = (0..n)
        .map(|i| mplain[(i / half) * half + (i % half + 1) % half])
        .collect();
    check(&rot, &mrot, "rotation");
    let mut x = ctx.multiply(&rot, &abc, &rlk).unwrap();
    let mut mx = mul(&mrot, &mul(&mab, &mc));
    check(&x, &mx, "rotated times (a b) c");
    let mut y = ctx.sub(&prod, &c).unwrap();
    let mut my = sub(&mul(&mab, &mc), &mc);
    check(&y, &my, "a b c - c (levels differ)");
    for step in 0..3 {
        let (x_old, mx_old) = (x.clone(), mx.clone());
        // x y + x: the product may be computed lower than x, so the sum aligns them.
        x = ctx.add(&ctx.multiply(&x, &y, &rlk).unwrap(), &x).unwrap();
        mx = add(&mul(&mx_old, &my), &mx_old);
        check(&x, &mx, &format!("step {step}: x y + x"));
        // y = x_old p, left at x_old's level (above x's): the next product aligns them.
        y = ctx.mul_plain(&x_old, &pt).unwrap();
        my = mul(&mx_old, &mp);
        check(&y, &my, &format!("step {step}: x p"));
    }
    assert!(
        x.level() < top - 2,
        "the circuit went down the chain: level {}",
        x.level()
    );

    // Without a carried bound (imported parts) operands are aligned but not switched further.
    let imported = ctx
        .ciphertext_from_parts(ab.parts().to_vec(), ab.key_id())
        .unwrap();
    assert_eq!(imported.noise_bound_log2(), None);
    let p3 = ctx.multiply(&imported, &c, &rlk).unwrap();
    assert_eq!(p3.level(), top);
    check(&p3, &mul(&mab, &mc), "imported (a b) times c");

    // Manual mode: no switch, operands at different levels refused as before.
    let manual = build(ModulusSwitching::Manual);
    let (sk2, pk2) = manual.keygen(&mut rng).unwrap();
    let rlk2 = manual.relin_key(&sk2, &mut rng).unwrap();
    let a2 = manual
        .encrypt(&manual.encode(&ma).unwrap(), &pk2, &mut rng)
        .unwrap();
    let sq = manual.multiply(&a2, &a2, &rlk2).unwrap();
    let sq2 = manual.multiply(&sq, &sq, &rlk2).unwrap();
    assert_eq!(
        (sq.level(), sq2.level()),
        (top, top),
        "manual products stay at their level"
    );
    let low2 = manual.mod_switch_to_level(&a2, top - 2).unwrap();
    for r in [
        manual.add(&sq, &low2),
        manual.sub(&low2, &sq),
        manual.multiply(&sq, &low2, &rlk2),
    ] {
        assert!(matches!(r, Err(Error::LevelMismatch { .. })), "{r:?}");
    }
    let mut acc2 = sq.clone();
    assert!(matches!(
        manual.add_assign(&mut acc2, &low2),
        Err(Error::LevelMismatch { .. })
    ));
    let ok = manual.multiply(
        &manual.mod_switch(&sq).unwrap(),
        &manual.mod_switch(&a2).unwrap(),
        &rlk2,
    );
    let m3 = mul(&mul(&ma, &ma), &ma);
    assert_eq!(
        manual
            .decode(&manual.decrypt(&ok.unwrap(), &sk2).unwrap())
            .unwrap(),
        m3
    );
}
