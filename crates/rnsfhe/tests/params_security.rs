//! Parameters the HE-standard table does not cover (sparse secrets, small sigma)
//! are refused at every standard level unless security is explicitly `InsecureResearchOnly`, and a
//! Hamming weight outside 1..=n is refused always.
#![allow(clippy::unwrap_used, clippy::panic)] // test helpers abort loudly

use rnsfhe::bfv::BfvParameters;
use rnsfhe::ckks::CkksParameters;
use rnsfhe::params::{Security, SecurityLevel, MIN_SPARSE_WEIGHT};
use rnsfhe::rlwe::SecretDistribution::{self, HammingWeight, Ternary};
use rnsfhe::Error;

fn bfv(n: usize, secret: SecretDistribution, sigma: f64, security: Security) -> rnsfhe::Result<()> {
    BfvParameters::builder()
        .degree(n)
        .plain_modulus(65537)
        .secret(secret)
        .sigma(sigma)
        .security(security)
        .build()
        .map(drop)
}

fn ckks(
    n: usize,
    secret: SecretDistribution,
    sigma: f64,
    security: Security,
) -> rnsfhe::Result<()> {
    CkksParameters::builder()
        .degree(n)
        .levels(4)
        .secret(secret)
        .sigma(sigma)
        .security(security)
        .build()
        .map(drop)
}

fn refused(r: rnsfhe::Result<()>, words: &str) {
    match r {
        Err(Error::InvalidParameters(m)) => assert!(m.contains(words), "{m}"),
        other => panic!("expected a refusal naming {words:?}, got {other:?}"),
    }
}

const STD: Security = Security::Standard(SecurityLevel::Bits128);
const INSECURE: Security = Security::InsecureResearchOnly;

#[test]
fn sparse_secrets_refused_unless_insecure() {
    for h in [1, 2, 16, 64, MIN_SPARSE_WEIGHT - 1] {
        refused(bfv(8192, HammingWeight(h), 3.2, STD), "Hamming weight");
        bfv(8192, HammingWeight(h), 3.2, INSECURE).unwrap();
    }
    for h in [1, 8, 64] {
        refused(ckks(16384, HammingWeight(h), 3.2, STD), "Hamming weight");
        ckks(16384, HammingWeight(h), 3.2, INSECURE).unwrap();
    }
    // Dense fixed-weight secrets are as good as ternary; h = 192 within 89% of the bound.
    bfv(8192, HammingWeight(8192 * 2 / 3 + 1), 3.2, STD).unwrap();
    ckks(16384, HammingWeight(MIN_SPARSE_WEIGHT), 3.2, STD).unwrap();
}

#[test]
fn weight_192_only_within_the_estimated_share_of_the_bound() {
    let s = STD;
    let h = HammingWeight(192);
    // The estimated sets (SparseLWEkit, lattice estimator): OpenFHE / Lattigo at n = 2^15..2^17.
    for (n, log_q) in [(1 << 15, 767.0), (1 << 16, 1553.0), (1 << 17, 3104.0)] {
        s.check_distributions(n, log_q, 3.19, h).unwrap();
    }
    // The ternary bound itself is too much for a weight-192 secret.
    refused(
        s.check_distributions(1 << 15, 881.0, 3.19, h),
        "at most 784 bits",
    );
    s.check_distributions(1 << 15, 881.0, 3.19, Ternary)
        .unwrap();
}

#[test]
fn small_sigma_refused_unless_insecure() {
    for sigma in [0.5, 1.0, 3.0] {
        refused(bfv(8192, Ternary, sigma, STD), "sigma");
        refused(ckks(16384, Ternary, sigma, STD), "sigma");
        bfv(8192, Ternary, sigma, INSECURE).unwrap();
    }
    bfv(8192, Ternary, 3.19, STD).unwrap();
}

#[test]
fn hamming_weight_outside_1_to_n_refused_always() {
    for security in [STD, INSECURE] {
        for h in [0, 8193, usize::MAX] {
            refused(bfv(8192, HammingWeight(h), 3.2, security), "1..=n = 8192");
        }
        refused(
            ckks(1024, HammingWeight(1025), 3.2, INSECURE),
            "1..=n = 1024",
        );
    }
}
