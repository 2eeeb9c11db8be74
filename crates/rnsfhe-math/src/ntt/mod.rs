//! Number-theoretic transforms over one prime modulus: the negacyclic NTT of Z_q\[X]/(X^n + 1)
//! ([`NttTable`]) and the cyclic NTT of Z_q\[X]/(X^N - 1) ([`CyclicNttTable`]).
//!
//! The scalar kernels (Harvey 2014, "Faster arithmetic for number-theoretic transforms": lazy
//! butterflies with Shoup twiddles) are the reference every faster backend is tested against. On x86_64,
//! AVX2 and AVX-512 kernels ([`Backend`]) run behind the same tables, chosen at construction by CPU detection
//! within the process-wide ceiling ([`crate::arith::backend`]).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_fma;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod backend;
mod cyclic;
mod negacyclic;
mod scalar;

pub use crate::arith::{available_backends, Backend};
pub use cyclic::CyclicNttTable;
pub use negacyclic::NttTable;

#[cfg(target_arch = "x86_64")]
use crate::arith::WordBarrett;
use crate::arith::{is_prime, Modulus};
use crate::{Error, Result};

/// The widest primes of the AVX2 kernels in binary64 with FMA (the NTT's and the pointwise
/// product's): 50 bits, 4q < 2^52.
#[cfg(target_arch = "x86_64")]
pub(crate) const AVX2_FMA_MAX_BITS: u32 = avx2_fma::MAX_BITS;

/// Largest supported transform size, 2^17.
pub const MAX_NTT_SIZE: usize = 1 << 17;

fn bit_reverse(i: usize, log_n: u32) -> usize {
    if log_n == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - log_n)
    }
}

/// Checks the size and that q is a prime with q = 1 mod `order`.
fn check_params(q: &Modulus, n: usize, order: u64) -> Result<()> {
    if !n.is_power_of_two() || !(2..=MAX_NTT_SIZE).contains(&n) {
        return Err(Error::InvalidDegree {
            degree: n,
            reason: format!("NTT size must be a power of two in 2..={MAX_NTT_SIZE}"),
        });
    }
    if !is_prime(q.value()) {
        return Err(Error::InvalidModulus {
            modulus: q.value(),
            reason: "NTT modulus must be prime".into(),
        });
    }
    if !(q.value() - 1).is_multiple_of(order) {
        return Err(Error::InvalidModulus {
            modulus: q.value(),
            reason: format!("not NTT-friendly for size {n}: q must be 1 mod {order}"),
        });
    }
    Ok(())
}

/// The forward SIMD kernels' growth mode for q and n, or `None` where it does not apply: their
/// butterflies skip both corrections to 2q (x's and the product's), so each stage adds at most 4q to
/// the bound and log2(n) stages leave values below 4q (log2(n) + 1); the last pass reduces them by the
/// one-product Barrett step ([`WordBarrett`], to [0, 2q)). Chosen when 4q (log2(n) + 2) < 2^63 (every
/// value and x + 4q stay below 2^63, which AVX2's sign-based comparisons need) and q has at least 34
/// bits: for the 55-bit primes of the multiparty anchor, q < 2^56 at n = 2^17.
#[cfg(target_arch = "x86_64")]
fn grow(q: &Modulus, n: usize) -> Option<WordBarrett> {
    let stages = u128::from(n.trailing_zeros());
    if 4 * u128::from(q.value()) * (stages + 2) >= 1 << 63 {
        return None;
    }
    WordBarrett::new(q)
}

fn check_len(a: &[u64], n: usize) -> Result<()> {
    if a.len() == n {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            what: "NTT input",
            expected: n,
            got: a.len(),
        })
    }
}
