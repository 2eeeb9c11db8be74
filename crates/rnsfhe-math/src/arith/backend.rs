//! The SIMD [`Backend`] of every kernel (NTTs, pointwise vector kernels, lazy sums), CPU detection, and the
//! process-wide knob: `RNSFHE_BACKEND=scalar|avx2|avx512|avx512ifma` (read once) or [`set_backend`].
//!
//! The knob is a ceiling: a kernel for modulus q runs the first of [`available_backends`]`(q)` that is not
//! faster than [`backend`] (IFMA kernels need q < 2^50, so with `avx512ifma` a 60-bit q runs AVX-512F).

use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

use super::Modulus;
use crate::{Error, Result};

/// A kernel family. Every backend computes bit-identical results to [`Backend::Scalar`] for outputs in
/// [0, q); only lazy outputs (e.g. the lazy NTT's [0, 4q)) may differ in their representative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Portable Harvey butterflies (Harvey 2014) and `Modulus` arithmetic; always available.
    Scalar,
    /// AVX-512 IFMA with 52-bit Shoup quotients (the approach of Intel HEXL); q < 2^50, x86_64 with
    /// avx512f and avx512ifma.
    Avx512Ifma,
    /// AVX-512F with the 64-bit Shoup product emulated from 32-bit multiplies; any q < 2^62, x86_64 with
    /// avx512f.
    Avx512,
    /// AVX2, 4 lanes, the 64-bit products emulated from 32-bit multiplies; any q < 2^62, x86_64 with avx2.
    Avx2,
}

/// Every backend, fastest first.
const ORDER: [Backend; 4] = [
    Backend::Avx512Ifma,
    Backend::Avx512,
    Backend::Avx2,
    Backend::Scalar,
];

impl Backend {
    /// A short lower-case name ("scalar", "avx2", "avx512", "avx512ifma"), as `RNSFHE_BACKEND` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx512Ifma => "avx512ifma",
            Backend::Avx512 => "avx512",
            Backend::Avx2 => "avx2",
        }
    }

    /// Rank in speed: Scalar 0, Avx2 1, Avx512 2, Avx512Ifma 3.
    fn rank(self) -> u8 {
        match self {
            Backend::Scalar => 0,
            Backend::Avx2 => 1,
            Backend::Avx512 => 2,
            Backend::Avx512Ifma => 3,
        }
    }

    /// Whether this CPU has the instructions of the backend (for some modulus).
    pub fn is_supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Backend::Scalar => true,
                Backend::Avx2 => is_x86_feature_detected!("avx2"),
                // DQ (`vpmullq`) with F: every AVX-512 CPU since Skylake-SP and Zen 4 has both.
                Backend::Avx512 => {
                    is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512dq")
                }
                Backend::Avx512Ifma => {
                    Backend::Avx512.is_supported() && is_x86_feature_detected!("avx512ifma")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Backend::Scalar
        }
    }

    /// Whether this CPU can run the backend for modulus q (IFMA needs q < 2^50).
    pub fn is_available(self, q: &Modulus) -> bool {
        self.is_supported() && (self != Backend::Avx512Ifma || q.bits() <= 50)
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;

    /// Parses a [`Backend::name`] (case-insensitive, surrounding spaces ignored).
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim().to_ascii_lowercase();
        ORDER.into_iter().find(|b| b.name() == s).ok_or_else(|| {
            Error::InvalidParameters(format!(
                "unknown backend {s:?}: expected one of scalar, avx2, avx512, avx512ifma"
            ))
        })
    }
}

/// The backends this CPU runs for modulus q, fastest first; [`Backend::Scalar`] is always last. The knob
/// ([`backend`]) does not filter this list (tests and benchmarks compare every backend).
pub fn available_backends(q: &Modulus) -> Vec<Backend> {
    ORDER.into_iter().filter(|b| b.is_available(q)).collect()
}

/// The fastest backend for q on this CPU within the knob's ceiling: what the kernels without an explicit
/// backend run.
pub fn backend_for(q: &Modulus) -> Backend {
    let cap = backend().rank();
    ORDER
        .into_iter()
        .find(|b| b.rank() <= cap && b.is_available(q))
        .unwrap_or(Backend::Scalar)
}

/// The fastest backend this CPU supports.
pub fn detected_backend() -> Backend {
    ORDER
        .into_iter()
        .find(|b| b.is_supported())
        .unwrap_or(Backend::Scalar)
}

/// 0 = not read yet, else rank + 1 of the ceiling.
static CEILING: AtomicU8 = AtomicU8::new(0);

/// The backend named by `RNSFHE_BACKEND`: `Ok(None)` when unset or empty, an `InvalidParameters` error
/// when it names no backend or one this CPU lacks.
pub fn backend_from_env() -> Result<Option<Backend>> {
    match std::env::var("RNSFHE_BACKEND") {
        Ok(s) if !s.trim().is_empty() => {
            let b: Backend = s.parse().map_err(|e| match e {
                Error::InvalidParameters(m) => {
                    Error::InvalidParameters(format!("RNSFHE_BACKEND: {m}"))
                }
                e => e,
            })?;
            check_supported(b)?;
            Ok(Some(b))
        }
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(Error::InvalidParameters(
            "RNSFHE_BACKEND is not valid UTF-8".into(),
        )),
    }
}

fn check_supported(b: Backend) -> Result<()> {
    if b.is_supported() {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "backend {} is not supported by this CPU (it has: {})",
            b.name(),
            ORDER
                .into_iter()
                .filter(|b| b.is_supported())
                .map(Backend::name)
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// The process-wide backend ceiling: the last [`set_backend`], else `RNSFHE_BACKEND` (read on the first
/// call), else [`detected_backend`]. An invalid `RNSFHE_BACKEND` is reported once on stderr and ignored
/// ([`backend_from_env`] returns the error itself).
pub fn backend() -> Backend {
    let r = CEILING.load(Ordering::Relaxed);
    if r != 0 {
        return from_rank(r - 1);
    }
    let b = match backend_from_env() {
        Ok(b) => b.unwrap_or_else(detected_backend),
        Err(e) => {
            eprintln!("rnsfhe: {e}; using {}", detected_backend().name());
            detected_backend()
        }
    };
    // A concurrent set_backend wins over the environment.
    match CEILING.compare_exchange(0, b.rank() + 1, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => b,
        Err(r) => from_rank(r - 1),
    }
}

/// Sets the process-wide backend ceiling (overriding `RNSFHE_BACKEND`); errors with `InvalidParameters`
/// when this CPU lacks the backend's instructions. Tables built before keep their kernels.
pub fn set_backend(b: Backend) -> Result<()> {
    check_supported(b)?;
    CEILING.store(b.rank() + 1, Ordering::Relaxed);
    Ok(())
}

fn from_rank(r: u8) -> Backend {
    ORDER
        .into_iter()
        .find(|b| b.rank() == r)
        .unwrap_or(Backend::Scalar)
}

/// Whether the AVX2 kernels may run for q: the knob's backend for q is AVX2 or above and the CPU has
/// AVX2. Kernels without an AVX-512 twin ask this, so that an AVX-512 CPU runs their AVX2 form rather
/// than the scalar one (every AVX-512 CPU has AVX2).
pub(crate) fn avx2_allowed(q: &Modulus) -> bool {
    backend_for(q).rank() >= Backend::Avx2.rank() && Backend::Avx2.is_supported()
}

/// Whether the AVX-512F kernels may run for q: the knob's backend for q is AVX-512F or AVX-512 IFMA
/// (which runs AVX-512F for q above 2^50), so the CPU has avx512f.
pub(crate) fn avx512_allowed(q: &Modulus) -> bool {
    matches!(backend_for(q), Backend::Avx512 | Backend::Avx512Ifma)
}

/// Whether the knob allows the AVX-512 IFMA kernels and the CPU has them (the lazy IFMA sums and dot
/// products, which have no other SIMD twin yet, ask this).
#[cfg(target_arch = "x86_64")]
pub(crate) fn ifma_allowed() -> bool {
    backend() == Backend::Avx512Ifma && Backend::Avx512Ifma.is_supported()
}
