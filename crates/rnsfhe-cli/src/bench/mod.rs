//! `rnsfhe bench`: the papers' comparisons as markdown tables.

pub mod arith;
pub mod cyclotomic;
