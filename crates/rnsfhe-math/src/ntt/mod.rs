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
