//! CKKS bootstrapping (Cheon, Han, Kim, Kim and Song, Eurocrypt 2018; Chen, Chillotti and Song,
//! Eurocrypt 2019; Bossuat, Mouchet, Troncoso-Pastoriza and Hubaux, Eurocrypt 2021; Lattigo's
//! `circuits/ckks/bootstrapping` is the anchor): a ciphertext at level 0 refreshed to the residual
//! top level.
//!
//! - [`modraise`]: ModRaise and the bound on I(X);
//! - [`CoeffsToSlots`], [`SlotsToCoeffs`]: the homomorphic DFTs with bootstrapping's constants,
//!   SubSum for sparse packing, and the formats EvalMod reads ([`SlotsFormat`]).

mod coeffs_to_slots;
mod keys;
pub mod modraise;
mod pipeline;
mod slots_to_coeffs;
mod stages;

pub use coeffs_to_slots::CoeffsToSlots;
pub use keys::{BootstrappingKeys, GaloisRequirement, KeyRequirements};
pub use modraise::{mod_raise, ModRaiseBound};
pub use pipeline::BootstrappingOrder;
pub use slots_to_coeffs::SlotsToCoeffs;
pub use stages::SlotsFormat;
