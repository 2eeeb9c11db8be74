//! [`KeyId`]: the identity of a key pair, computed from its public key.

use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use rnsfhe_math::ring::{Poly, Representation};

use crate::{Error, Result};

/// The identity of a key pair (OpenFHE's keyTag): the first 8 bytes of SHA-256 over a domain tag,
/// the parameter fingerprint, the seed of the public key's uniform part a and the residues of its
/// p0 over the first prime (NTT form). Public keys, evaluation keys and ciphertexts carry the
/// identity of their key pair, so that a key or ciphertext of another pair is refused instead of
/// giving garbage.
///
/// Decision: a function of the public key, not of the secret, so that every holder of a key pair
/// computes it: the parties of a collective key (Mouchet et al., PETS 2021), who never hold s, hash
/// the aggregated public key. A secret key carries the identity of its key pair (see
/// [`super::SecretKey`]: that of its canonical public key, or of a public key it is given). 64 bits
/// of a hash identify a pair among users; they do not authenticate it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(pub u64);

impl core::fmt::Display for KeyId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl core::fmt::Debug for KeyId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "KeyId({self})")
    }
}

/// The first 8 bytes of a digest as a [`KeyId`].
fn first_word(d: &[u8]) -> KeyId {
    let mut id = [0u8; 8];
    id.copy_from_slice(&d[..8]);
    KeyId(u64::from_le_bytes(id))
}

impl KeyId {
    /// The identity of the key pair whose public key is (p0, a = expand(seed)), for parameters of
    /// fingerprint `fingerprint`; p0 in NTT form (its first limb is hashed).
    pub fn of_public_key(fingerprint: u64, seed: &[u8; 32], p0: &Poly) -> Result<KeyId> {
        if p0.representation() != Representation::Ntt {
            return Err(Error::WrongForm("a public key's p0 is in NTT form".into()));
        }
        let first = p0.limb(0)?;
        let mut h = Sha256::new();
        h.update(b"rnsfhe key identity v2");
        h.update(fingerprint.to_le_bytes());
        h.update(seed);
        h.update((first.len() as u64).to_le_bytes());
        hash_words(&mut h, first);
        Ok(first_word(&h.finalize()))
    }

    /// The identity of a secret that has no public key at these parameters (a sparse ephemeral
    /// secret, exposed only at small moduli): the first 8 bytes of SHA-256 over a domain tag, the
    /// fingerprint and `digest`, the secret's PRF key (a hash of s), so it reveals nothing of s
    /// that the PRF does not.
    pub(crate) fn of_secret_digest(fingerprint: u64, digest: &[u8; 32]) -> KeyId {
        let mut h = Sha256::new();
        h.update(b"rnsfhe secret identity v1");
        h.update(fingerprint.to_le_bytes());
        h.update(digest);
        first_word(&h.finalize())
    }

    /// The identity of version 1 (format-2 bytes, HPR keys): a hash of a ternary secret's
    /// coefficients. HPR keeps it (its keys are digit vectors outside the RLWE key layer); secret
    /// keys read from format-2 bytes take it, so that they still open the ciphertexts and keys
    /// written beside them.
    pub(crate) fn of_ternary_secret(coeffs: &[i64]) -> KeyId {
        let mut h = Sha256::new();
        h.update(b"rnsfhe key identity v1");
        h.update((coeffs.len() as u64).to_le_bytes());
        let bytes: Zeroizing<Vec<u8>> = Zeroizing::new(coeffs.iter().map(|&c| c as u8).collect());
        h.update(&bytes[..]);
        first_word(&h.finalize())
    }

    /// The identity of a value made from two operands of identities `a` and `b` (`None`: a trivial or
    /// imported ciphertext, compatible with any key); an error naming both when they differ.
    pub fn join(a: Option<KeyId>, b: Option<KeyId>) -> Result<Option<KeyId>> {
        match (a, b) {
            (Some(x), Some(y)) if x != y => Err(Error::KeyMismatch {
                what: "the operands were encrypted under two different key pairs".into(),
                left: x,
                right: y,
            }),
            (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
            (None, None) => Ok(None),
        }
    }

    /// Refuses a `what` (a key) of identity `key` for a ciphertext of identity `ct`.
    pub fn check(ct: Option<KeyId>, key: KeyId, what: &str) -> Result<()> {
        match ct {
            Some(c) if c != key => Err(Error::KeyMismatch {
                what: format!("the ciphertext (left) against the {what} (right)"),
                left: c,
                right: key,
            }),
            _ => Ok(()),
        }
    }
}

/// Feeds `words` to `h` as their little-endian bytes, 512 words per update (the same digest as
/// one update per word, without a call per word: a secret's 2^17 words hash 3 times faster).
pub(crate) fn hash_words(h: &mut Sha256, words: &[u64]) {
    le_bytes(words, 512, |b| h.update(b));
}

/// `words` as little-endian bytes handed to `sink` `block` words at a time, through one buffer
/// (zeroized on drop: the words may be a secret's).
pub(crate) fn le_bytes(words: &[u64], block: usize, mut sink: impl FnMut(&[u8])) {
    let mut buf = Zeroizing::new(vec![0u8; 8 * block.min(words.len())]);
    for chunk in words.chunks(block.max(1)) {
        for (b, w) in buf.chunks_exact_mut(8).zip(chunk) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        sink(&buf[..8 * chunk.len()]);
    }
}

/// Refuses a `what` (a key or key set) of parameters `theirs` in a context of parameters `ours`
/// (fingerprints): keys serve every context of equal parameters, in any process, and no other.
pub(crate) fn check_params(theirs: u64, ours: u64, what: &str) -> Result<()> {
    if theirs == ours {
        return Ok(());
    }
    Err(Error::ParameterMismatch {
        what: what.into(),
        expected: ours,
        found: theirs,
    })
}
