//! Public-key encryption straight into NTT form (CKKS): `PublicKey::encrypt_zero_ntt` gives
//! the same bits as `encrypt_zero` (coefficient form, ModDown) followed by `to_ntt`, for the same
//! draws of u, e0 and e1: with one and several special primes, none, and a Hamming-weight u; and
//! `SecretKey::encrypt_zero_ntt` the bits of `encrypt_zero` then `to_ntt`.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::params::Security;
use rnsfhe::rlwe::{
    KeyContext, KeyGenerator, KeySwitcher, KeySwitching, SecretDistribution, SecretKey,
};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::Representation;
use rnsfhe_math::sample::{Csprng, DiscreteGaussian, DEFAULT_TAIL};

/// Keys over a bare key switcher (no scheme context).
struct Bare {
    sw: KeySwitcher,
    dist: SecretDistribution,
    g: DiscreteGaussian,
}

impl KeyContext for Bare {
    fn key_switcher(&self) -> &KeySwitcher {
        &self.sw
    }
    fn params_fingerprint(&self) -> u64 {
        0
    }
    fn secret_distribution(&self) -> SecretDistribution {
        self.dist
    }
    fn security(&self) -> Security {
        // Toy moduli at n = 2^10, no parameter set: no security gate.
        Security::InsecureResearchOnly
    }
    fn error_distribution(&self) -> &DiscreteGaussian {
        &self.g
    }
    fn as_key_context(&self) -> &dyn KeyContext {
        self
    }
}

#[test]
fn ntt_form_equals_coefficient_form_then_ntt() {
    let n = 1 << 10;
    let g = DiscreteGaussian::new(3.2, DEFAULT_TAIL).unwrap();
    for (k, special, dist) in [
        (4usize, 2usize, SecretDistribution::Ternary),
        (3, 1, SecretDistribution::HammingWeight(64)),
        (3, 0, SecretDistribution::Ternary),
    ] {
        let all = ntt_primes(50, 2 * n as u64, k + special, &[]).unwrap();
        let (q, p) = all.split_at(k);
        let bare = Bare {
            sw: KeySwitcher::new(n, q, p, KeySwitching::default()).unwrap(),
            dist,
            g: g.clone(),
        };
        let sw = &bare.sw;
        let mut rng = Csprng::from_seed([7; 32]);
        let sk = SecretKey::generate(&bare, &mut rng).unwrap();
        let pk = KeyGenerator::new(&bare, &mut rng).public_key(&sk).unwrap();
        for seed in [1u8, 2] {
            let mut r = Csprng::from_seed([seed; 32]);
            let (mut w0, mut w1) = pk.encrypt_zero(sw, dist, &g, &mut r).unwrap();
            w0.to_ntt().unwrap();
            w1.to_ntt().unwrap();
            let mut r = Csprng::from_seed([seed; 32]);
            let (g0, g1) = pk.encrypt_zero_ntt(sw, dist, &g, &mut r).unwrap();
            assert_eq!(g0.representation(), Representation::Ntt);
            assert!(std::sync::Arc::ptr_eq(g0.context(), sw.ring_q()));
            assert_eq!(g0.residues(), w0.residues(), "k = {k}, |P| = {special}");
            assert_eq!(g1.residues(), w1.residues(), "k = {k}, |P| = {special}");
            // The symmetric encryption likewise.
            let mut r = Csprng::from_seed([seed; 32]);
            let (mut w0, mut w1, ws) = sk.encrypt_zero(&g, &mut r).unwrap();
            w0.to_ntt().unwrap();
            w1.to_ntt().unwrap();
            let mut r = Csprng::from_seed([seed; 32]);
            let (g0, g1, gs) = sk.encrypt_zero_ntt(&g, &mut r).unwrap();
            assert_eq!(g0.representation(), Representation::Ntt);
            assert_eq!(
                (g0.residues(), g1.residues(), gs),
                (w0.residues(), w1.residues(), ws)
            );
        }
    }
}
