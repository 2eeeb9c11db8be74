//! BFV plaintexts and ciphertexts.

use rnsfhe_math::ring::Poly;

use crate::rlwe::{KeyId, Parts};

/// A plaintext: n coefficients of Z_t\[X]/(X^n + 1), in [0, t), tied to one context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BfvPlaintext {
    pub(crate) coeffs: Vec<u64>,
    pub(crate) fingerprint: u64,
}

impl BfvPlaintext {
    /// The coefficients, in [0, t).
    pub fn coefficients(&self) -> &[u64] {
        &self.coeffs
    }
}

/// A ciphertext (c_0, c_1[, c_2, ...]) over Q in coefficient form, with ct(s) = Delta m + v (mod Q).
#[derive(Clone, Debug)]
pub struct BfvCiphertext {
    /// The polynomials, with the seed of c_1 of a fresh symmetric encryption (half-size bytes).
    pub(crate) parts: Parts,
    pub(crate) fingerprint: u64,
    /// The key pair it is encrypted under (`None`: a trivial or imported ciphertext).
    pub(crate) key_id: Option<KeyId>,
    /// log2 of bounds on the invariant noise ||nu||_inf and ||nu||_2 (see `noise.rs`); `None` when
    /// the history is unknown (built from parts; bytes keep the bounds).
    pub(crate) noise: Option<[f64; 2]>,
}

impl BfvCiphertext {
    /// The number of polynomials (2 after relinearisation, 3 after a product without it).
    pub fn size(&self) -> usize {
        self.parts.len()
    }

    /// The polynomials, coefficient form over Q.
    pub fn parts(&self) -> &[Poly] {
        &self.parts
    }

    /// The identity of the key pair it is encrypted under (`None` for a trivial or imported
    /// ciphertext, which combines with any).
    pub fn key_id(&self) -> Option<KeyId> {
        self.key_id
    }

    /// log2 of the carried bound on the invariant noise ||t ct(s)/q - m||_inf (`None` for a
    /// ciphertext built from parts; loaded bytes keep it); the checked decryption refuses it from -2
    /// (1/4) up.
    pub fn noise_bound_log2(&self) -> Option<f64> {
        self.noise.map(|[inf, _]| inf)
    }

    /// The seed of c_1 for a fresh symmetric encryption (half-size serialisation).
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.parts.seed()
    }
}
