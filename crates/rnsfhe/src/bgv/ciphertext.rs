//! BGV plaintexts and ciphertexts.

use rnsfhe_math::ring::Poly;

use crate::rlwe::{KeyId, Parts};

/// A plaintext: n coefficients of Z_t\[X]/(Phi_m), in [0, t), tied to one context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgvPlaintext {
    pub(crate) coeffs: Vec<u64>,
    pub(crate) fingerprint: u64,
}

impl BgvPlaintext {
    /// The coefficients, in [0, t).
    pub fn coefficients(&self) -> &[u64] {
        &self.coeffs
    }
}

/// A ciphertext (c_0, c_1[, c_2]) over Q_l in NTT form with [c(s)]_{Q_l} = \[m]_t + t v.
#[derive(Clone, Debug)]
pub struct BgvCiphertext {
    /// The polynomials, with the seed of c_1 of a fresh symmetric encryption (half-size bytes).
    pub(crate) parts: Parts,
    pub(crate) level: usize,
    pub(crate) fingerprint: u64,
    /// The key pair it is encrypted under (`None`: a trivial or imported ciphertext).
    pub(crate) key_id: Option<KeyId>,
    /// log2 of bounds on ||[c(s)]_{Q_l}||_inf and ||.||_2 (see `noise.rs`); `None` when unknown.
    pub(crate) noise: Option<[f64; 2]>,
}

impl BgvCiphertext {
    /// The number of polynomials (2, or 3 after a product without relinearisation).
    pub fn size(&self) -> usize {
        self.parts.len()
    }
    /// The level l (moduli q_0..q_l).
    pub fn level(&self) -> usize {
        self.level
    }
    /// The polynomials, NTT form over Q_l.
    pub fn parts(&self) -> &[Poly] {
        &self.parts
    }
    /// The identity of the key pair it is encrypted under.
    pub fn key_id(&self) -> Option<KeyId> {
        self.key_id
    }
    /// log2 of the carried bound on ||[c(s)]_{Q_l}||_inf (`None` when unknown).
    pub fn noise_bound_log2(&self) -> Option<f64> {
        self.noise.map(|[i, _]| i)
    }

    /// The seed of c_1 for a fresh symmetric encryption (half-size serialisation); any operation
    /// that changes c_1 drops it.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.parts.seed()
    }
}
