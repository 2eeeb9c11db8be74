//! Kernel selection: the [`Backend`] enum, CPU detection, and the transform both NTT tables delegate to.

use super::scalar;
use crate::arith::{Modulus, Shoup};
use crate::{Error, Result};

#[cfg(target_arch = "x86_64")]
use super::avx512;

/// An NTT kernel. Every backend computes bit-identical results to [`Backend::Scalar`] through
/// `forward`/`inverse` (outputs in [0, q) are unique); only lazy outputs (in [0, 4q)) may differ.
///
/// The pointwise kernels of [`crate::arith::vector`] use the same enum: their SIMD versions have the same
/// feature and modulus requirements, so [`Backend::is_available`] answers for them too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Portable Harvey butterflies (Harvey 2014); always available.
    Scalar,
    /// AVX-512 IFMA with 52-bit Shoup quotients (the approach of Intel HEXL); q < 2^50, x86_64 with
    /// avx512f and avx512ifma.
    Avx512Ifma,
    /// AVX-512F with the 64-bit Shoup product emulated from 32-bit multiplies; any q < 2^62, x86_64 with
    /// avx512f.
    Avx512,
}

impl Backend {
    /// A short lower-case name ("scalar", "avx512ifma", "avx512") for tables and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx512Ifma => "avx512ifma",
            Backend::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the backend for modulus q.
    pub fn is_available(self, q: &Modulus) -> bool {
        match self {
            Backend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Ifma => avx512::supported(q, true),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::supported(q, false),
            #[cfg(not(target_arch = "x86_64"))]
            _ => {
                let _ = q;
                false
            }
        }
    }
}

/// The backends this CPU runs for modulus q, fastest first; [`Backend::Scalar`] is always last.
pub fn available_backends(q: &Modulus) -> Vec<Backend> {
    [Backend::Avx512Ifma, Backend::Avx512, Backend::Scalar]
        .into_iter()
        .filter(|b| b.is_available(q))
        .collect()
}

/// Twiddles of one transform (bit-reversed layout of [`scalar`]) and the kernel that runs it.
#[derive(Clone, Debug)]
pub(super) struct Transform {
    q: Modulus,
    backend: Backend,
    roots: Vec<Shoup>,
    inv_roots: Vec<Shoup>,
    n_inv: Shoup,
    /// Present for the SIMD backends when n >= 16 (smaller sizes run the scalar kernels).
    #[cfg(target_arch = "x86_64")]
    simd: Option<avx512::Tables>,
}

impl Transform {
    /// Errors with `InvalidParameters` when the CPU or q does not support `backend`.
    pub(super) fn new(
        q: Modulus,
        roots: Vec<Shoup>,
        inv_roots: Vec<Shoup>,
        n_inv: Shoup,
        backend: Backend,
    ) -> Result<Self> {
        if !backend.is_available(&q) {
            return Err(Error::InvalidParameters(format!(
                "NTT backend {} is not available for q = {} on this CPU",
                backend.name(),
                q.value()
            )));
        }
        #[cfg(target_arch = "x86_64")]
        let simd = match backend {
            Backend::Scalar => None,
            b => avx512::Tables::new(&q, &roots, &inv_roots, n_inv, b == Backend::Avx512Ifma),
        };
        Ok(Transform {
            q,
            backend,
            roots,
            inv_roots,
            n_inv,
            #[cfg(target_arch = "x86_64")]
            simd,
        })
    }

    pub(super) fn backend(&self) -> Backend {
        self.backend
    }

    /// Input in [0, 4q), output in [0, q); the caller checked the length.
    pub(super) fn forward(&self, a: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = &self.simd {
            if s.forward(a, true) {
                return;
            }
        }
        scalar::forward_lazy(a, &self.roots, &self.q);
        let q = self.q.value();
        a.iter_mut().for_each(|x| *x = scalar::correct_4q(*x, q));
    }

    /// Input in [0, 4q), output in [0, 4q) (values may differ between backends, residues do not).
    pub(super) fn forward_lazy(&self, a: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = &self.simd {
            if s.forward(a, false) {
                return;
            }
        }
        scalar::forward_lazy(a, &self.roots, &self.q);
    }

    /// Input in [0, 2q), output in [0, q), 1/n included; the caller checked the length.
    pub(super) fn inverse(&self, a: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = &self.simd {
            if s.inverse(a) {
                return;
            }
        }
        scalar::inverse_lazy(a, &self.inv_roots, &self.q);
        a.iter_mut()
            .for_each(|x| *x = self.q.mul_shoup(*x, self.n_inv));
    }
}
