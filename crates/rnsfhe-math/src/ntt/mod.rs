//! Number-theoretic transforms over one prime modulus: the negacyclic NTT of Z_q[X]/(X^n + 1)
//! ([`NttTable`]) and the cyclic NTT of Z_q[X]/(X^N - 1) ([`CyclicNttTable`]).
//!
//! The scalar kernels (Harvey 2014, "Faster arithmetic for number-theoretic transforms": lazy
//! butterflies with Shoup twiddles) are the reference every faster backend is tested against. On x86_64,
//! AVX2 and AVX-512 kernels ([`Backend`]) run behind the same tables, chosen at construction by CPU detection
//! within the process-wide ceiling ([`crate::arith::backend`]).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod backend;
mod cyclic;
mod negacyclic;
mod scalar;

pub use crate::arith::{available_backends, Backend};
pub use cyclic::CyclicNttTable;
pub use negacyclic::NttTable;

use crate::arith::{is_prime, Modulus};
use crate::{Error, Result};

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

/// The forward SIMD kernels' growth mode: their butterflies skip both corrections to 2q (x's and the
/// product's), so each stage adds at most 4q to the bound and log2(n) stages leave values below
/// 4q (log2(n) + 1); the last pass reduces them by a Barrett step with one 32 x 32-bit product:
/// est = floor(floor(v / 2^32) mu / 2^(L-1)), mu = floor(2^(31+L) / q) < 2^32, is at most 1 short
/// of floor(v / q) for L >= 34 and any v < 2^64 (the bound of [`crate::arith::vector::horner`]'s
/// small-point step), so v - est q lies in [0, 2q). Chosen when 4q (log2(n) + 2) < 2^63 (every
/// value and x + 4q stay below 2^63, which AVX2's sign-based comparisons need) and L >= 34: for the
/// 55-bit primes of the multiparty anchor, q < 2^56 at n = 2^17.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
struct Grow {
    mu: u64,
    /// L - 1.
    shift: u32,
}

#[cfg(target_arch = "x86_64")]
impl Grow {
    fn new(q: &Modulus, n: usize) -> Option<Self> {
        let (qv, l) = (u128::from(q.value()), q.bits());
        let stages = u128::from(n.trailing_zeros());
        if l < 34 || 4 * qv * (stages + 2) >= 1 << 63 {
            return None;
        }
        let mu = u64::try_from((1u128 << (31 + l)) / qv).ok()?;
        (mu < 1 << 32).then_some(Grow { mu, shift: l - 1 })
    }
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
