//! Keys are tied to everything they depend on: the fingerprint (ring, moduli, scale) and the key
//! profile (key-switching layout, sigma, secret distribution, security). Two parameter sets that
//! differ only in `digit_primes` share a fingerprint; a relinearisation key of one must be refused
//! by the other, in memory and from bytes, rather than relinearise to garbage. Parameter bytes of an
//! insecure set load only with the explicit opt-in.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::BgvParameters;
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::{Security, SecurityLevel};
use rnsfhe::rlwe::{KeySwitching, SecretDistribution};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// N = 4096, 5 levels, two 60-bit special primes, `digit_primes` primes per digit.
fn ckks(digit_primes: usize) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(4096)
        .levels(5)
        .scale_bits(30)
        .first_modulus_bits(40)
        .special_moduli_bits(&[60, 60])
        .key_switching(KeySwitching {
            digit_primes,
            ..Default::default()
        })
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn field_of(e: &Error) -> Option<&'static str> {
    match e {
        Error::KeyParameterMismatch { field, .. } => Some(field),
        _ => None,
    }
}

#[test]
fn a_relin_key_of_another_gadget_is_refused_not_misused() {
    let (four, five) = (ckks(4), ckks(5));
    assert_eq!(
        four.fingerprint(),
        five.fingerprint(),
        "the premise: one fingerprint"
    );
    let mut rng = Csprng::from_seed([36; 32]);
    let (sk, pk) = four.keygen(&mut rng).unwrap();
    let rlk4 = four.relin_key(&sk, &mut rng).unwrap();

    // The same secret in the other context (keys apart from contexts: it loads there).
    let sk5 = five
        .secret_key_from_bytes(&four.secret_key_to_bytes(&sk).unwrap())
        .unwrap();
    let pk5 = five
        .public_key_from_bytes(&four.public_key_to_bytes(&pk))
        .unwrap();
    let z: Vec<Complex> = (0..8)
        .map(|i| Complex::from_real(0.25 * i as f64))
        .collect();
    let ct = five
        .encrypt(&five.encode(&z).unwrap(), &pk5, &mut rng)
        .unwrap();

    // From bytes: refused, naming the field.
    let err = five
        .relin_key_from_bytes(&four.relin_key_to_bytes(&rlk4))
        .unwrap_err();
    assert_eq!(field_of(&err), Some("digit_primes"), "{err}");
    assert!(err.to_string().contains("digit_primes = 4"), "{err}");
    assert!(err.to_string().contains("digit_primes = 5"), "{err}");

    // In memory: the product refuses the key of the other gadget.
    let err = five.multiply(&ct, &ct, &rlk4).unwrap_err();
    assert_eq!(field_of(&err), Some("digit_primes"), "{err}");

    // The context's own key works: x * x decrypts to the squares.
    let rlk5 = five.relin_key(&sk5, &mut rng).unwrap();
    let sq = five.multiply(&ct, &ct, &rlk5).unwrap();
    let got = five.decrypt_values(&sq, &sk5).unwrap();
    for (g, v) in got.iter().zip(&z) {
        assert!((g.re - v.re * v.re).abs() < 1e-3, "{g:?} against {v:?}^2");
    }
}

#[test]
fn galois_keys_and_key_sets_carry_their_layout() {
    let (four, five) = (ckks(4), ckks(5));
    let mut rng = Csprng::from_seed([37; 32]);
    let (sk, _) = four.keygen(&mut rng).unwrap();
    let gk = four.galois_keys(&sk, &[1], false, &mut rng).unwrap();
    let err = five
        .galois_keys_from_bytes(&four.galois_keys_to_bytes(&gk))
        .unwrap_err();
    assert_eq!(field_of(&err), Some("digit_primes"), "{err}");
    let mut set = rnsfhe::rlwe::EvaluationKeySet::new();
    set.set_relin_key(Arc::new(four.relin_key(&sk, &mut rng).unwrap()))
        .unwrap();
    let err = five
        .evaluation_keys_from_bytes(&four.evaluation_keys_to_bytes(&set))
        .unwrap_err();
    assert_eq!(field_of(&err), Some("digit_primes"), "{err}");
    // Their own context takes them back.
    four.galois_keys_from_bytes(&four.galois_keys_to_bytes(&gk))
        .unwrap();
    four.evaluation_keys_from_bytes(&four.evaluation_keys_to_bytes(&set))
        .unwrap();
}

/// BFV sets that differ only in sigma, the secret distribution or the security level share a
/// fingerprint; their keys are refused across them, naming the field.
#[test]
fn keys_name_the_distribution_or_security_they_were_made_under() {
    let base = || {
        BfvParameters::builder()
            .degree(4096)
            .plain_modulus(65537)
            .moduli_bits(&[36, 36])
            .special_moduli_bits(&[37])
    };
    let standard = BfvContext::new(base().build().unwrap()).unwrap();
    let wider = BfvContext::new(base().sigma(4.0).build().unwrap()).unwrap();
    let sparse = BfvContext::new(
        base()
            .secret(SecretDistribution::HammingWeight(64))
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    )
    .unwrap();
    let insecure = BfvContext::new(
        base()
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(standard.fingerprint(), wider.fingerprint());
    assert_eq!(standard.fingerprint(), sparse.fingerprint());
    let mut rng = Csprng::from_seed([38; 32]);
    let (sk, pk) = standard.keygen(&mut rng).unwrap();
    let rlk = standard.relin_key(&sk, &mut rng).unwrap();
    let pk_bytes = standard.public_key_to_bytes(&pk);
    let cases: [(&BfvContext, &str); 3] = [
        (&wider, "sigma"),
        (&sparse, "secret distribution"),
        (&insecure, "security"),
    ];
    for (ctx, field) in cases {
        let err = ctx.public_key_from_bytes(&pk_bytes).unwrap_err();
        assert_eq!(field_of(&err), Some(field), "{err}");
        let err = ctx
            .relin_key_from_bytes(&standard.relin_key_to_bytes(&rlk))
            .unwrap_err();
        assert_eq!(field_of(&err), Some(field), "{err}");
        let err = ctx
            .secret_key_from_bytes(&standard.secret_key_to_bytes(&sk).unwrap())
            .unwrap_err();
        assert_eq!(field_of(&err), Some(field), "{err}");
    }
    standard.public_key_from_bytes(&pk_bytes).unwrap();
}

/// Parameter bytes of a set marked insecure load only with the opt-in its builder asked for.
#[test]
fn insecure_parameter_bytes_need_the_opt_in() {
    let c = ckks(1).params().clone();
    let bytes = c.to_bytes();
    let err = CkksParameters::from_bytes(&bytes).unwrap_err().to_string();
    assert!(err.contains("from_bytes_allowing_insecure"), "{err}");
    assert_eq!(
        CkksParameters::from_bytes_allowing_insecure(&bytes).unwrap(),
        c
    );

    let b = BgvParameters::builder()
        .degree(1024)
        .plain_modulus(257)
        .moduli_bits(&[40, 40])
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    assert!(BgvParameters::from_bytes(&b.to_bytes()).is_err());
    assert_eq!(
        BgvParameters::from_bytes_allowing_insecure(&b.to_bytes()).unwrap(),
        b
    );
    // A secure set loads either way.
    let secure = BfvParameters::builder()
        .degree(4096)
        .plain_modulus(65537)
        .security(Security::Standard(SecurityLevel::Bits128))
        .build()
        .unwrap();
    assert_eq!(
        BfvParameters::from_bytes(&secure.to_bytes()).unwrap(),
        secure
    );
}
