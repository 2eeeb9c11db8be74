//! The transform both NTT tables delegate to: twiddles and the kernel of one [`Backend`].

use super::scalar;
use crate::arith::{Backend, Modulus, Shoup};
use crate::{Error, Result};

#[cfg(target_arch = "x86_64")]
use super::{avx2, avx2_fma, avx512};

/// The SIMD tables of one transform.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Debug)]
enum Simd {
    Avx512(avx512::Tables),
    Avx2(avx2::Tables),
    /// The AVX2 backend's kernel in binary64 with FMA, for q < 2^50.
    Avx2Fma(avx2_fma::Tables),
}

#[cfg(target_arch = "x86_64")]
impl Simd {
    fn forward(&self, a: &mut [u64], reduce: bool) -> bool {
        match self {
            Simd::Avx512(t) => t.forward(a, reduce),
            Simd::Avx2(t) => t.forward(a, reduce),
            Simd::Avx2Fma(t) => t.forward(a, reduce),
        }
    }

    fn inverse(&self, a: &mut [u64]) -> bool {
        match self {
            Simd::Avx512(t) => t.inverse(a),
            Simd::Avx2(t) => t.inverse(a),
            Simd::Avx2Fma(t) => t.inverse(a),
        }
    }
}

/// Twiddles of one transform (bit-reversed layout of [`scalar`]) and the kernel that runs it.
#[derive(Clone, Debug)]
pub(super) struct Transform {
    q: Modulus,
    backend: Backend,
    roots: Vec<Shoup>,
    inv_roots: Vec<Shoup>,
    n_inv: Shoup,
    /// inv_roots[1] / n, the scaled twiddle of the scalar inverse's last stage.
    w1_n_inv: Shoup,
    /// Present for the SIMD backends when n >= 16 (smaller sizes run the scalar kernels).
    #[cfg(target_arch = "x86_64")]
    simd: Option<Simd>,
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
            Backend::Avx512Ifma | Backend::Avx512 => {
                let ifma = backend == Backend::Avx512Ifma;
                avx512::Tables::new(&q, &roots, &inv_roots, n_inv, ifma).map(Simd::Avx512)
            }
            Backend::Avx2 => avx2_fma::Tables::new(&q, &roots, &inv_roots, n_inv)
                .map(Simd::Avx2Fma)
                .or_else(|| avx2::Tables::new(&q, &roots, &inv_roots, n_inv).map(Simd::Avx2)),
            _ => None,
        };
        let w1_n_inv = q.shoup(q.mul(inv_roots.get(1).map_or(1, |w| w.value), n_inv.value));
        Ok(Transform {
            q,
            backend,
            w1_n_inv,
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
        scalar::forward(a, &self.roots, &self.q, true);
    }

    /// Input in [0, 4q), output in [0, 4q) (values may differ between backends, residues do not).
    pub(super) fn forward_lazy(&self, a: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = &self.simd {
            if s.forward(a, false) {
                return;
            }
        }
        scalar::forward(a, &self.roots, &self.q, false);
    }

    /// Input in [0, 2q), output in [0, q), 1/n included; the caller checked the length.
    pub(super) fn inverse(&self, a: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = &self.simd {
            if s.inverse(a) {
                return;
            }
        }
        scalar::inverse(a, &self.inv_roots, &self.q, self.n_inv, self.w1_n_inv);
    }
}
