//! [`HprCiphertext`]: 2 or 3 HPR polynomials (d carried digits each, coefficient form).

use super::noise::Bound;
use super::Digits;
use crate::rlwe::KeyId;

/// An HPR-FV ciphertext: parts c_0, c_1 (and c_2 before relinearisation), each d digits over
/// P u B_sk, carried (|digit| <= k p / 2), coefficient form; with the identity of its key pair.
#[derive(Clone, Debug)]
pub struct HprCiphertext {
    parts: Vec<Digits>,
    id: Option<KeyId>,
    /// log2 of the carried bounds on ||nu||_inf and ||nu||_2 (`noise.rs`); None when unknown.
    pub(super) noise: Option<Bound>,
}

impl HprCiphertext {
    pub(super) fn new(parts: Vec<Digits>, id: Option<KeyId>) -> Self {
        HprCiphertext {
            parts,
            id,
            noise: None,
        }
    }

    /// The same ciphertext with the carried noise bound `noise`.
    pub(super) fn with_noise(mut self, noise: Option<Bound>) -> Self {
        self.noise = noise;
        self
    }

    /// Deserialisation: parts already carried and checked, with the stored noise bound (None:
    /// unknown, the checked decryption then relies on the measurement alone).
    pub(crate) fn from_parts(parts: Vec<Digits>, id: Option<KeyId>, noise: Option<Bound>) -> Self {
        HprCiphertext::new(parts, id).with_noise(noise)
    }

    /// log2 of the carried bounds on ||nu||_inf and ||nu||_2 (serialisation).
    pub(crate) fn noise_bounds(&self) -> Option<Bound> {
        self.noise
    }

    /// log2 of the carried bound on the invariant noise ||nu||_inf (`noise.rs`), if known.
    pub fn noise_bound_log2(&self) -> Option<f64> {
        self.noise.map(|b| b[0])
    }

    /// The parts, each d digits.
    pub fn parts(&self) -> &[Digits] {
        &self.parts
    }

    pub(super) fn parts_mut(&mut self) -> &mut Vec<Digits> {
        &mut self.parts
    }

    /// 2, or 3 after a multiplication without relinearisation.
    pub fn size(&self) -> usize {
        self.parts.len()
    }

    /// The identity of the key pair (None for a trivial ciphertext).
    pub fn id(&self) -> Option<KeyId> {
        self.id
    }
}
