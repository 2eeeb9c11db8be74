//! CKKS plaintexts and ciphertexts: polynomials in NTT form at a level, with their scale.

use rnsfhe_math::ring::Poly;

use crate::rlwe::{KeyId, Parts};

/// An encoded vector: Delta tau^-1(z) at a level, NTT form.
#[derive(Clone, Debug)]
pub struct CkksPlaintext {
    pub(crate) poly: Poly,
    pub(crate) level: usize,
    pub(crate) scale: f64,
    pub(crate) slots: usize,
    pub(crate) fingerprint: u64,
}

impl CkksPlaintext {
    /// The level (number of primes above q_0).
    pub fn level(&self) -> usize {
        self.level
    }
    /// The scale Delta of the encoding.
    pub fn scale(&self) -> f64 {
        self.scale
    }
    /// The number of slots encoded (a power of two up to N/2).
    pub fn slots(&self) -> usize {
        self.slots
    }
}

/// A ciphertext (c_0, c_1[, c_2]) at a level, NTT form, with ct(s) = Delta m + e (mod Q_level).
#[derive(Clone, Debug)]
pub struct CkksCiphertext {
    /// The polynomials, with the seed of c_1 of a fresh symmetric encryption (half-size bytes).
    pub(crate) parts: Parts,
    pub(crate) level: usize,
    pub(crate) scale: f64,
    pub(crate) slots: usize,
    pub(crate) fingerprint: u64,
    /// The key pair it is encrypted under (`None`: a trivial or imported ciphertext).
    pub(crate) key_id: Option<KeyId>,
}

impl CkksCiphertext {
    /// The identity of the key pair it is encrypted under (`None` for a trivial or imported
    /// ciphertext, which combines with any).
    pub fn key_id(&self) -> Option<KeyId> {
        self.key_id
    }
    /// The level: the modulus is q_0 ... q_level, and `level` rescalings remain.
    pub fn level(&self) -> usize {
        self.level
    }
    /// The scale of the encrypted values.
    pub fn scale(&self) -> f64 {
        self.scale
    }
    /// The number of slots in use.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The number of polynomials (3 after a product without relinearisation).
    pub fn size(&self) -> usize {
        self.parts.len()
    }
    /// The polynomials, NTT form over Q_level.
    pub fn parts(&self) -> &[Poly] {
        &self.parts
    }

    /// The seed of c_1 for a fresh symmetric encryption (half-size serialisation); any operation
    /// that changes c_1 drops it.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.parts.seed()
    }
}
