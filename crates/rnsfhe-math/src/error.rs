//! The error type of the word-size layer (the schemes crate wraps it in `rnsfhe::Error`, which adds
//! the scheme-level kinds: key pairs, levels, scales, missing keys, noise, malformed bytes).

use thiserror::Error as ThisError;

/// Every failure that user input can cause. Messages say what is wrong and, where there is one, the fix.
#[derive(Debug, Clone, PartialEq, Eq, ThisError)]
#[non_exhaustive]
pub enum Error {
    /// A modulus is out of the supported range, not prime where a prime is needed, or not NTT-friendly.
    #[error("invalid modulus {modulus}: {reason}")]
    InvalidModulus { modulus: u64, reason: String },
    /// A ring degree or transform size that is not supported (e.g. not a power of two).
    #[error("invalid degree {degree}: {reason}")]
    InvalidDegree { degree: usize, reason: String },
    /// An RNS base that is empty, has repeated or non-coprime moduli, or does not fit an algorithm.
    #[error("invalid RNS base: {0}")]
    InvalidBasis(String),
    /// Two lengths that must agree do not.
    #[error("length mismatch in {what}: expected {expected}, got {got}")]
    LengthMismatch {
        what: &'static str,
        expected: usize,
        got: usize,
    },
    /// A value is outside the range an operation accepts.
    #[error("value out of range: {0}")]
    OutOfRange(String),
    /// Operands belong to different contexts (ring, basis or parameter set).
    #[error("context mismatch: {0}")]
    ContextMismatch(String),
    /// An operand is in the wrong representation (e.g. coefficient vs NTT form).
    #[error("wrong representation: {0}")]
    WrongForm(String),
    /// No prime satisfies the request (too few in range, or none of the wanted shape).
    #[error("not enough primes: {0}")]
    NotEnoughPrimes(String),
    /// A parameter set is refused (insecure, inconsistent or unsupported).
    #[error("invalid parameters: {0}")]
    InvalidParameters(String),
    /// An element has no inverse modulo the given modulus.
    #[error("{value} is not invertible modulo {modulus}")]
    NotInvertible { value: u64, modulus: u64 },

    /// The operating system's random source failed (e.g. while seeding a CSPRNG).
    #[error("entropy source failed: {0}")]
    Entropy(String),

    /// A broken internal invariant: a bug in rnsfhe, not in the input. Returned instead of a silently
    /// wrong value; please report it with the message.
    #[error("internal error (a bug in rnsfhe, please report it): {0}")]
    Internal(String),
}

/// `Result` with the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
