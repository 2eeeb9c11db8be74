//! RNS bases and conversions between them. Data layout everywhere: a batch of n integers in a base of k
//! moduli is one slice of length k * n, limb-major (`data[i * n + j]` = integer j modulo q_i, in [0, q_i)).
//!
//! Converters share the [`BaseConverter`] trait: [`FastBaseConverter`] (FastBconv, Bajard et al. (SAC 2016) eq. (2)),
//! [`FhbeConverter`] (Vollmer et al. (ARITH 2023) Alg. 1, same output), [`SkConverter`] (exact, Bajard et al. (SAC 2016) Lemma 6) and
//! [`HpsConverter`] (exact, floating-point correction). [`ScaleAndRound`] computes round(t x / Q) in
//! another base with a fixed-point fraction (HPS decryption and multiplication).

mod basis;
mod converter;
mod dot;
mod dot_avx2;
mod dot_avx512;
mod dot_ifma;
mod fast;
mod fhbe;
mod floor;
mod floor_ntt;
mod hpr;
mod hps;
mod round_avx2;
mod scale;
mod shenoy_kumaresan;

pub use basis::RnsBasis;
pub use converter::BaseConverter;
pub use fast::FastBaseConverter;
pub use fhbe::FhbeConverter;
pub use floor::{FastRnsFloor, SmMrqExtension};
pub use floor_ntt::{FloorAddend, FloorJob, FloorLimb};
pub use hpr::HprBasis;
pub use hps::HpsConverter;
pub use scale::ScaleAndRound;
pub use shenoy_kumaresan::SkConverter;

use crate::arith::Modulus;
use num_bigint::BigUint;

/// x mod q (precomputation only).
pub(crate) fn residue(x: &BigUint, q: &Modulus) -> u64 {
    num_traits::ToPrimitive::to_u64(&(x % q.value())).unwrap_or(0)
}
