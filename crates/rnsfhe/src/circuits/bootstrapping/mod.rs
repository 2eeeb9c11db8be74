//! CKKS bootstrapping (Cheon, Han, Kim, Kim and Song, Eurocrypt 2018; Chen, Chillotti and Song,
//! Eurocrypt 2019; Bossuat, Mouchet, Troncoso-Pastoriza and Hubaux, Eurocrypt 2021; Lattigo's
//! `circuits/ckks/bootstrapping` is the anchor): a ciphertext at level 0 refreshed to the residual
//! top level.
//!
//! - [`modraise`]: ModRaise and the bound on I(X);

pub mod modraise;

pub use modraise::{mod_raise, ModRaiseBound};
