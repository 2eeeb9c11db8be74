//! The schemes' error type. The word-size layer's kinds ([`rnsfhe_math::Error`]) arrive through
//! `From` under the same variant names; the kinds that only schemes know (key pairs, levels, scales,
//! missing evaluation keys, noise, parameter sets) live here with structured fields, as fhe.rs's
//! `errors.rs` does, so that a caller can act on the two key identities, levels or scales without
//! parsing a message.

use crate::rlwe::KeyId;

/// Every error the schemes return. `#[non_exhaustive]`: match with a `_` arm.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A modulus out of the supported range, not prime where a prime is needed, or not NTT-friendly.
    #[error("invalid modulus {modulus}: {reason}")]
    InvalidModulus { modulus: u64, reason: String },
    /// A ring degree or transform size that is not supported.
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
    /// A value outside the range an operation accepts.
    #[error("value out of range: {0}")]
    OutOfRange(String),
    /// Operands over different rings or contexts (an internal shape the caller cannot fix by itself).
    #[error("context mismatch: {0}")]
    ContextMismatch(String),
    /// An operand in the wrong representation (coefficient vs NTT form, plain vs Montgomery).
    #[error("wrong representation: {0}")]
    WrongForm(String),
    /// No prime satisfies the request.
    #[error("not enough primes: {0}")]
    NotEnoughPrimes(String),
    /// A parameter set refused (insecure, inconsistent or unsupported), or an operation the
    /// parameters cannot carry out (too few levels, too high a degree).
    #[error("invalid parameters: {0}")]
    InvalidParameters(String),
    /// An element without inverse modulo the given modulus.
    #[error("{value} is not invertible modulo {modulus}")]
    NotInvertible { value: u64, modulus: u64 },
    /// Serialised bytes that cannot be read: bad magic, version or kind, truncated, a CRC or a size
    /// or residue out of range.
    #[error("malformed bytes: {0}")]
    Malformed(String),
    /// The operating system's random source failed.
    #[error("entropy source failed: {0}")]
    Entropy(String),
    /// A broken internal invariant: a bug in rnsfhe, not in the input.
    #[error("internal error (a bug in rnsfhe, please report it): {0}")]
    Internal(String),

    /// A key or ciphertext of another parameter set (`expected` and `found` are the parameter
    /// fingerprints).
    #[error(
        "parameter mismatch: the {what} belongs to parameter set {found:016x}, this context is \
         {expected:016x}"
    )]
    ParameterMismatch {
        what: String,
        expected: u64,
        found: u64,
    },
    /// A key made under other key parameters than this context's, on a field the fingerprint does
    /// not cover (`field`: the key-switching layout's digit primes, omega bits or truncation, the
    /// error's sigma, the secret distribution or the security level; see
    /// [`crate::rlwe::KeyProfile`]).
    #[error(
        "key parameter mismatch: the {what} was made with {field} = {key}, this context has \
         {field} = {context}; keys work only under the parameters they were made with"
    )]
    KeyParameterMismatch {
        what: String,
        field: &'static str,
        key: String,
        context: String,
    },
    /// Two operands, or an operand and a key (`what`), of two key pairs.
    #[error(
        "key mismatch: {what}: key pair {left} against key pair {right}; combine only ciphertexts \
         and keys of one key pair"
    )]
    KeyMismatch {
        what: String,
        left: KeyId,
        right: KeyId,
    },
    /// Operands at two levels where one is needed (`hint` says how to bring them together).
    #[error("level mismatch: {op}: operands at levels {left} and {right}; {hint}")]
    LevelMismatch {
        op: String,
        left: usize,
        right: usize,
        hint: String,
    },
    /// An operation that needs `needed` more levels than the ciphertext's `level` leaves.
    #[error(
        "level mismatch: {op}: needs {needed} more level(s), the ciphertext is at level {level}; \
         the modulus chain is exhausted"
    )]
    LevelsExhausted {
        op: String,
        level: usize,
        needed: usize,
    },
    /// A level outside the levels 0..=max an operation can reach.
    #[error("level mismatch: {op}: level {level} is outside the levels 0..={max} it can reach")]
    LevelOutOfRange {
        op: String,
        level: usize,
        max: usize,
    },
    /// Operands at two scales where one exact scale is needed (CKKS); `tolerance` is the relative
    /// difference accepted.
    #[error(
        "scale mismatch: {op}: operands at scales {} and {} (relative difference {:.3e}, \
         tolerance {tolerance:.1e}); {hint}",
        scale_text(*left), scale_text(*right), (left - right).abs() / left.abs().max(right.abs())
    )]
    ScaleMismatch {
        op: String,
        left: f64,
        right: f64,
        tolerance: f64,
        hint: String,
    },
    /// A rotation or automorphism whose Galois key was not generated: its element and, where the
    /// operation took rotation steps (`rotate_many`, `sum_rotations`, linear transforms), the step.
    #[error(
        "missing key: no Galois key for {}; generate the Galois keys with this rotation step (or \
         element)",
        missing_galois(*element, *step)
    )]
    MissingGaloisKey { element: u64, step: Option<i64> },
    /// Another evaluation key an operation needs and did not get.
    #[error("missing key: {0}")]
    MissingKey(String),
    /// A ciphertext of the wrong size or shape for the operation.
    #[error("invalid ciphertext: {0}")]
    InvalidCiphertext(String),
    /// A ciphertext whose noise has grown too large to decrypt reliably.
    #[error("noise budget exhausted: {0}")]
    NoiseBudgetExhausted(String),
    /// A multiparty share refused by an aggregator or a protocol step (`crate::multiparty`):
    /// `share` names it (protocol, round, parties), `fault` says what is wrong with it.
    #[error("share refused ({fault}): {share}: {detail}")]
    ShareRefused {
        share: String,
        fault: ShareFault,
        detail: String,
    },
}

/// Why a multiparty share was refused ([`Error::ShareRefused`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ShareFault {
    /// A party whose share was already counted.
    Duplicate,
    /// A share of another protocol, round, reference string, input or threshold group.
    Stale,
    /// Bytes that fail their checksum or do not parse.
    Corrupted,
    /// A share of another parameter set.
    Foreign,
    /// A party the aggregation does not expect.
    Unexpected,
    /// Parties whose shares never arrived (an aggregation finished early), or a partial sum where
    /// the complete one is needed.
    Missing,
    /// An aggregate that counts another share for a party than the one that party sent.
    Substituted,
}

impl core::fmt::Display for ShareFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ShareFault::Duplicate => "duplicated",
            ShareFault::Stale => "stale",
            ShareFault::Corrupted => "corrupted",
            ShareFault::Foreign => "foreign",
            ShareFault::Unexpected => "unexpected party",
            ShareFault::Missing => "missing",
            ShareFault::Substituted => "substituted",
        })
    }
}

/// `Result` with the schemes' [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// A scale in full for messages: its value to 17 significant digits and its log2 to 12 decimals.
pub(crate) fn scale_text(s: f64) -> String {
    format!("{s:.16e} (2^{:.12})", s.log2())
}

impl From<rnsfhe_math::Error> for Error {
    fn from(e: rnsfhe_math::Error) -> Self {
        use rnsfhe_math::Error as M;
        match e {
            M::InvalidModulus { modulus, reason } => Error::InvalidModulus { modulus, reason },
            M::InvalidDegree { degree, reason } => Error::InvalidDegree { degree, reason },
            M::InvalidBasis(s) => Error::InvalidBasis(s),
            M::LengthMismatch {
                what,
                expected,
                got,
            } => Error::LengthMismatch {
                what,
                expected,
                got,
            },
            M::OutOfRange(s) => Error::OutOfRange(s),
            M::ContextMismatch(s) => Error::ContextMismatch(s),
            M::WrongForm(s) => Error::WrongForm(s),
            M::NotEnoughPrimes(s) => Error::NotEnoughPrimes(s),
            M::InvalidParameters(s) => Error::InvalidParameters(s),
            M::NotInvertible { value, modulus } => Error::NotInvertible { value, modulus },
            M::Entropy(s) => Error::Entropy(s),
            M::Internal(s) => Error::Internal(s),
            other => Error::Internal(format!("unmapped arithmetic error: {other}")),
        }
    }
}

/// "rotation step s (Galois element g)" or "element g".
fn missing_galois(element: u64, step: Option<i64>) -> String {
    match step {
        Some(s) => format!("rotation step {s} (Galois element {element})"),
        None => format!("element {element}"),
    }
}
