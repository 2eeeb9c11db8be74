//! The moduli layouts. `ModuliLayout::Narrow` puts every prime below 2^50 (AVX-512 IFMA's
//! range) at the same log2 q; CKKS's default narrows only its special primes, where P stays 2^8 above
//! the widest key-switching digit, and computes as precisely as with 60-bit special primes.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_error;

use rnsfhe::bfv::BfvParameters;
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::ModuliLayout;
use rnsfhe_math::sample::Csprng;

fn widths(moduli: &[u64]) -> Vec<u32> {
    moduli.iter().map(|q| 64 - q.leading_zeros()).collect()
}

/// The widths of the ciphertext primes, then of the special primes.
fn all_widths(moduli: &[u64], special: &[u64]) -> Vec<u32> {
    widths(&[moduli, special].concat())
}

#[test]
fn layout_names_parse_and_unknown_ones_are_refused() {
    assert_eq!(
        " Narrow ".parse::<ModuliLayout>().unwrap(),
        ModuliLayout::Narrow
    );
    assert_eq!(
        "default".parse::<ModuliLayout>().unwrap(),
        ModuliLayout::Default
    );
    let e = "ifma".parse::<ModuliLayout>().unwrap_err().to_string();
    assert!(e.contains("ifma") && e.contains("narrow"), "{e}");
}

#[test]
fn narrow_bfv_keeps_log_q_with_primes_below_2_50() {
    for n in [8192usize, 16384] {
        let wide = BfvParameters::builder().degree(n).build().unwrap();
        let narrow = BfvParameters::builder()
            .degree(n)
            .layout(ModuliLayout::Narrow)
            .build()
            .unwrap();
        let all = |p: &BfvParameters| all_widths(p.moduli(), p.special_moduli());
        assert!(all(&narrow).iter().all(|&w| w <= 49), "{:?}", all(&narrow));
        assert!(all(&wide).iter().any(|&w| w > 50), "{:?}", all(&wide));
        assert!((narrow.log_q() - wide.log_q()).abs() < 1.0, "n = {n}");
        assert_eq!(
            widths(narrow.special_moduli()),
            widths(wide.special_moduli())
        );
    }
}

#[test]
fn ckks_special_primes_narrow_only_where_p_stays_above_the_digits() {
    // N = 2^15, 60 + 40 x 10, 3 digits of 4 primes (widest 180 bits): 4 x 49 = 196 bits >= 188.
    let p = CkksParameters::builder().build().unwrap();
    assert_eq!(widths(&p.moduli()[..1]), vec![60]);
    assert_eq!(widths(p.special_moduli()), vec![49; 4]);
    assert_eq!(p.key_switching().digit_primes, 4);
    // N = 2^14, L = 5 (2 digits of 100 bits: 98 < 108) and L = 7 (one prime per digit, 60 bits):
    // the 60-bit special primes stay.
    for (levels, specials) in [(5, vec![60, 60]), (7, vec![60])] {
        let p = CkksParameters::builder()
            .degree(1 << 14)
            .levels(levels)
            .build()
            .unwrap();
        assert_eq!(widths(p.special_moduli()), specials, "L = {levels}");
    }
    // Explicit special primes are kept as given.
    let p = CkksParameters::builder()
        .special_moduli_bits(&[60])
        .build()
        .unwrap();
    assert_eq!(widths(p.special_moduli()), vec![60]);
    // Narrow: q_0 and P of 49 bits too.
    let p = CkksParameters::builder()
        .layout(ModuliLayout::Narrow)
        .build()
        .unwrap();
    let all = all_widths(p.moduli(), p.special_moduli());
    assert!(all.iter().all(|&w| w <= 49), "{all:?}");
}

/// Worst slot error of x^2 (mul + relin + rescale) then a rotation by 1, x in [-1, 1].
fn square_rotate_error(p: CkksParameters) -> f64 {
    let ctx = CkksContext::new(p).unwrap();
    let mut rng = Csprng::from_seed([5; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let slots = ctx.slots();
    let x: Vec<f64> = (0..slots)
        .map(|i| ((i * 7919) % 2001) as f64 / 1000.0 - 1.0)
        .collect();
    let xs: Vec<Complex> = x.iter().map(|&v| Complex::from_real(v)).collect();
    let ct = ctx
        .encrypt(&ctx.encode(&xs).unwrap(), &pk, &mut rng)
        .unwrap();
    let sq = ctx.multiply_rescale(&ct, &ct, &rlk).unwrap();
    let r = ctx.rotate(&sq, 1, &gk).unwrap();
    let got = ctx.decrypt_values(&r, &sk).unwrap();
    worst_error((0..slots).map(|i| (got[i].re - x[(i + 1) % slots].powi(2)).abs()))
}

#[test]
fn ckks_narrow_special_primes_keep_precision() {
    let narrow = square_rotate_error(CkksParameters::builder().build().unwrap());
    let wide = square_rotate_error(
        CkksParameters::builder()
            .special_moduli_bits(&[60; 4])
            .key_switching(rnsfhe::rlwe::KeySwitching {
                digit_primes: 4,
                ..Default::default()
            })
            .build()
            .unwrap(),
    );
    eprintln!(
        "ERR narrow 2^{:.2} wide 2^{:.2}",
        narrow.log2(),
        wide.log2()
    );
    // Both well inside 2^-20 at scale 2^40, and the 49-bit P no worse than twice the 60-bit one.
    assert!(
        narrow < 2f64.powi(-20) && wide < 2f64.powi(-20),
        "{narrow} {wide}"
    );
    assert!(
        narrow < 2.0 * wide + 1e-9,
        "49-bit P {narrow}, 60-bit P {wide}"
    );
}
