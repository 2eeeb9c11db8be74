//! Bajard et al. (SAC 2017) section 4.3 (Table 3) at small m: the theoretical depths of FV and BGV, with and
//! without the Montgomery representation, against the depths measured with checked decryption.
//! The theory is a worst-case bound (delta_R = n ||F_m||_inf, Lemma 4), so it guarantees its depth:
//! measured >= theory; the Montgomery factors only add noise: Montgomery theory <= plain theory;
//! FV in the full Montgomery representation (section 4.1) measured against its theory too, every
//! accepted checked decryption against the exact model;
//! BGV's measured depth is bounded by its chain (one modulus per product, one product at level 0).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/any_m.rs"]
mod model;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, FvMontgomery, Multiplication};
use rnsfhe::bgv::depth::DepthInputs;
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::params::Security;
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

const K: usize = 3;

/// FV squarings while the checked decryption holds (each accepted one equal to the exact power:
/// the carried bound is honest), with the theoretical depths without and with Montgomery.
fn fv_depth(m: usize, r: Reduction, full: bool, rng: &mut Csprng) -> (u32, u32, u32) {
    let n = rnsfhe_math::ring::cyclotomic::euler_phi(m) as f64;
    let phi = rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial(m).unwrap();
    let s = if full {
        FvMontgomery::Full
    } else {
        FvMontgomery::Mixed
    };
    let ctx = BfvContext::new(
        BfvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(2)
            .moduli_bits(&[62; K])
            .special_moduli_bits(&[62])
            .sigma(2.0 * n.sqrt())
            .multiplication(Multiplication::Behz)
            .reduction(r)
            .fv_montgomery(s)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    )
    .unwrap();
    let (sk, pk) = ctx.keygen(rng).unwrap();
    let rlk = ctx.relin_key(&sk, rng).unwrap();
    let a: Vec<u64> = (0..n as usize).map(|_| rng.next_u64() & 1).collect();
    let mut x = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, rng)
        .unwrap();
    let (mut measured, mut want) = (0, a.clone());
    while measured < 40 {
        x = ctx.multiply(&x, &x, &rlk).unwrap();
        want = model::mul_model(&want, &want, &phi, 2);
        match ctx.decrypt_checked(&x, &sk, Decryption::Hps) {
            Ok(p) => assert_eq!(p.coefficients(), &want[..], "m = {m}: accepted but wrong"),
            Err(_) => break,
        }
        measured += 1;
    }
    let plain = ctx.any_m_depth_inputs(false).unwrap().depth();
    let mont = ctx.any_m_depth_inputs(true).unwrap().depth();
    (measured, plain, mont)
}

/// BGV's theoretical depth and `BgvContext::measured_depth` (squarings each followed by a switch,
/// one at level 0, counted while they decrypt to the right slots).
fn bgv_depth(m: usize, r: Reduction, rng: &mut Csprng) -> (u32, u32) {
    let n = rnsfhe_math::ring::cyclotomic::euler_phi(m) as f64;
    let params = BgvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(2)
        .moduli_bits(&[62; K])
        .special_moduli_bits(&[62])
        .sigma(2.0 * n.sqrt())
        .reduction(r)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    let theory = DepthInputs::of(&params).unwrap().depth();
    let measured = BgvContext::new(params)
        .unwrap()
        .measured_depth(rng)
        .unwrap();
    (measured, theory)
}

#[test]
fn depth_theory_against_measured() {
    let mut rng = Csprng::from_seed([4; 32]);
    for m in [255, 771] {
        let (fv_meas, fv_plain, fv_mont) = fv_depth(m, Reduction::SparseBarrett, false, &mut rng);
        let (mixed_meas, _, _) = fv_depth(m, Reduction::Montgomery, false, &mut rng);
        let (full_meas, _, _) = fv_depth(m, Reduction::Montgomery, true, &mut rng);
        assert!(
            fv_mont <= full_meas,
            "m = {m}: FV full Montgomery theory {fv_mont} > measured {full_meas}"
        );
        assert!(
            fv_plain <= fv_meas,
            "m = {m}: FV theory {fv_plain} > measured {fv_meas}"
        );
        assert!(
            fv_mont <= fv_plain,
            "m = {m}: FV Montgomery theory above plain"
        );
        // The mixed strategy has the Barrett FV's noise: its depth is the same up to sampling.
        assert!(
            mixed_meas + 1 >= fv_meas && fv_plain <= mixed_meas,
            "m = {m}: mixed {mixed_meas}"
        );
        let (bgv_meas, bgv_plain) = bgv_depth(m, Reduction::SparseBarrett, &mut rng);
        let (mont_meas, bgv_mont) = bgv_depth(m, Reduction::Montgomery, &mut rng);
        for (meas, th) in [(bgv_meas, bgv_plain), (mont_meas, bgv_mont)] {
            assert!(th <= meas, "m = {m}: BGV theory {th} > measured {meas}");
            assert!(meas as usize <= K, "m = {m}: BGV deeper than its chain");
        }
        assert!(bgv_mont <= bgv_plain);
        eprintln!(
            "m = {m}: FV measured {fv_meas} (mixed {mixed_meas}, full Montgomery {full_meas}), theory {fv_plain} (Montgomery {fv_mont}); BGV measured {bgv_meas} (Montgomery {mont_meas}), theory {bgv_plain} (Montgomery {bgv_mont})"
        );
    }
}
