//! Key switching straight into NTT form: `KeySwitcher::switch_to(d, key, Ntt)` gives the
//! same bits as `switch` of d in coefficient form followed by `to_ntt`, for every layout (hybrid
//! digits, one prime per digit with one special prime, omega digits, truncated keys) and level.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::rlwe::KeySwitching;
use rnsfhe_math::ring::Representation;
use rnsfhe_math::sample::Csprng;

fn layouts() -> Vec<(KeySwitching, Vec<u32>)> {
    let ks = |digit_primes, omega_bits, truncation| KeySwitching {
        digit_primes,
        omega_bits,
        truncation,
    };
    vec![
        (ks(2, None, 0), vec![60, 60]),
        (ks(4, None, 0), vec![60, 60, 60]),
        (ks(1, None, 0), vec![60]),
        (ks(1, Some(20), 0), vec![]),
        (ks(1, None, 1), vec![]),
    ]
}

#[test]
fn ntt_output_equals_coefficient_output_then_ntt() {
    for (layout, special) in layouts() {
        let p = CkksParameters::builder()
            .degree(1 << 10)
            .levels(4)
            .scale_bits(30)
            .key_switching(layout)
            .special_moduli_bits(&special)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let ctx = CkksContext::new(p).unwrap();
        let mut rng = Csprng::from_seed([3; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        let vals: Vec<Complex> = (0..64).map(|i| Complex::new(i as f64, 1.0)).collect();
        let x = ctx
            .encrypt(&ctx.encode(&vals).unwrap(), &pk, &mut rng)
            .unwrap();
        let sw = ctx.key_switcher();
        for level in [4, 2, 0] {
            let c = ctx.drop_to_level(&x, level).unwrap();
            let d = &c.parts()[1];
            assert_eq!(d.representation(), Representation::Ntt);
            let (v0, v1) = sw.switch_to(d, rlk.key(), Representation::Ntt).unwrap();
            let mut dc = d.clone();
            dc.to_coefficient().unwrap();
            let (mut u0, mut u1) = sw.switch(&dc, rlk.key()).unwrap();
            u0.to_ntt().unwrap();
            u1.to_ntt().unwrap();
            for (v, u) in [(&v0, &u0), (&v1, &u1)] {
                assert_eq!(v.representation(), Representation::Ntt);
                assert!(
                    v.residues() == u.residues(),
                    "{layout:?}, level {level}: NTT-form key switching differs"
                );
            }
            // A coefficient-form result from an NTT-form input: the same bits as from coefficients.
            let (w0, _) = sw.switch(d, rlk.key()).unwrap();
            let (z0, _) = sw.switch(&dc, rlk.key()).unwrap();
            w0.residues()
                .iter()
                .zip(z0.residues())
                .for_each(|(a, b)| assert_eq!(a, b, "{layout:?}, level {level}"));
        }
    }
}
