//! CKKS bootstrapping, stage by stage (Cheon, Han, Kim, Kim, Song, Eurocrypt 2018; Bossuat et al.,
//! Eurocrypt 2021): after ModRaise and CoeffsToSlots, [`eval_mod`] removes the multiples of q_0
//! from the slots (the homomorphic modular reduction), before SlotsToCoeffs.

pub mod eval_mod;

pub use eval_mod::{EvalMod, EvalModParameters};
