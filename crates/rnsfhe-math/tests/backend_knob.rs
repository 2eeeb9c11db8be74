//! The process-wide backend knob: `RNSFHE_BACKEND` read once, `set_backend` overriding it, refusal of a
//! backend the CPU lacks, and every kernel without an explicit backend following the ceiling. One test
//! function: the knob is global to the process.
#![allow(clippy::unwrap_used)] // a test aborts loudly on a set-up error

use rnsfhe_math::arith::{
    available_backends, backend_for, backend_from_env, detected_backend, ntt_primes, vector,
    Modulus,
};
use rnsfhe_math::ntt::{CyclicNttTable, NttTable};
use rnsfhe_math::{backend, set_backend, Backend, Error};

const ALL: [Backend; 4] = [
    Backend::Scalar,
    Backend::Avx2,
    Backend::Avx512,
    Backend::Avx512Ifma,
];

#[test]
fn knob_sets_the_ceiling_and_refuses_missing_features() {
    // The environment is read on the first call: forcing scalar works on every CPU.
    std::env::set_var("RNSFHE_BACKEND", " Scalar ");
    assert_eq!(backend_from_env().unwrap(), Some(Backend::Scalar));
    assert_eq!(backend(), Backend::Scalar);
    let q60 = Modulus::new(ntt_primes(60, 1 << 11, 1, &[]).unwrap()[0]).unwrap();
    let q49 = Modulus::new(ntt_primes(49, 1 << 11, 1, &[]).unwrap()[0]).unwrap();
    for q in [q60, q49] {
        assert_eq!(
            NttTable::new(q, 1 << 10).unwrap().backend(),
            Backend::Scalar
        );
        assert_eq!(vector::mul_backend(&q), Backend::Scalar);
    }
    // Read once: a later change of the variable has no effect.
    std::env::set_var("RNSFHE_BACKEND", "avx2");
    assert_eq!(backend(), Backend::Scalar);

    std::env::set_var("RNSFHE_BACKEND", "avx3");
    let e = backend_from_env().unwrap_err();
    assert!(
        matches!(&e, Error::InvalidParameters(m) if m.contains("avx3")),
        "{e}"
    );
    std::env::set_var("RNSFHE_BACKEND", "");
    assert_eq!(backend_from_env().unwrap(), None);

    for b in ALL {
        assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        match set_backend(b) {
            Ok(()) => {
                assert!(b.is_supported());
                assert_eq!(backend(), b);
                for q in [q60, q49] {
                    let want = available_backends(&q)
                        .into_iter()
                        .find(|&a| {
                            a == b
                                || a == Backend::Scalar
                                || (b == Backend::Avx512Ifma && a == Backend::Avx512)
                        })
                        .unwrap();
                    assert_eq!(backend_for(&q), want, "{b} for {} bits", q.bits());
                    assert_eq!(NttTable::new(q, 1 << 10).unwrap().backend(), want);
                    assert_eq!(CyclicNttTable::new(q, 1 << 10).unwrap().backend(), want);
                    assert_eq!(vector::mul_backend(&q), want);
                    assert_eq!(vector::shoup_backend(&q), want);
                }
            }
            Err(e) => {
                assert!(!b.is_supported());
                assert!(
                    matches!(&e, Error::InvalidParameters(m) if m.contains(b.name())),
                    "{e}"
                );
                std::env::set_var("RNSFHE_BACKEND", b.name());
                assert!(backend_from_env().is_err());
            }
        }
    }
    set_backend(detected_backend()).unwrap();
    assert_eq!(backend(), detected_backend());
}
