//! Arithmetic modulo one word-size modulus: [`Modulus`] (Barrett and Shoup reductions with documented lazy
//! ranges), prime generation ([`primes`]), roots of unity ([`roots`]) and pointwise SIMD kernels on slices of
//! residues ([`vector`]).

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
mod backend;
#[cfg(target_arch = "x86_64")]
pub(crate) mod lazy;
mod modulus;
pub mod primes;
pub mod roots;
pub mod vector;
#[cfg(target_arch = "x86_64")]
pub(crate) mod wide512;
mod word_barrett;
pub(crate) use word_barrett::WordBarrett;

#[cfg(target_arch = "x86_64")]
pub(crate) use backend::ifma_allowed;
pub use backend::{
    available_backends, backend, backend_for, backend_from_env, detected_backend, set_backend,
    Backend,
};
pub(crate) use backend::{avx2_allowed, avx512_allowed};
pub use modulus::{Modulus, Shoup, MAX_MODULUS_BITS};
pub use primes::{approximate_primes, is_prime, nearest_primes, ntt_primes};
pub use roots::{minimal_primitive_root, primitive_root};
