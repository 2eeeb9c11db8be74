//! Parameter validation. [`security`]: the HomomorphicEncryption.org bounds on log2 q.

pub mod security;

pub use security::{check_security, log2_product, max_log_q, min_degree, Security, SecurityLevel};
