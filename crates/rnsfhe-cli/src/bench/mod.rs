//! `rnsfhe bench`: the papers' comparisons as markdown tables.

pub mod arith;
pub mod bfv;
pub mod bfv_depth;
pub mod bfv_hpr;
pub mod bfv_keys;
pub mod bfv_mp;
pub mod bgv;
pub mod ckks;
pub mod ckks_bootstrap;
pub mod ckks_compare;
pub mod ckks_flooding;
pub mod ckks_functions;
pub mod ckks_hoisting;
pub mod ckks_lr;
pub mod ckks_matmul;
mod ckks_shape;
pub mod cyclotomic;
pub mod multiparty;
mod multiparty_refresh;
mod multiparty_shares;
pub mod network;
pub mod threads;
