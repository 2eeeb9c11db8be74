//! HPR-FV (Bajard et al. (HPR-FV, ePrint 2019/500)): BFV with q = p^d, each ciphertext coefficient a positional number in base p
//! whose d digits are held in RNS over P u B_sk ([`rnsfhe_math::rns::HprBasis`]).
//!
//! Decryption reads the top digit only (Alg. 1); multiplication lifts the top digits (eq. (13)),
//! multiplies digit polynomials keeping the digits d-1..2d-2 (Lemma 3, Prop. 1) and relinearises
//! with single-digit r_{i,j} (section 4.1) or, as an option, whole digits (Remark 5).
//!
//! Decision on Remark 3 (keys of degree i in Y): as we read it, the key masking Y^i (p/p_j) s^2 would
//! keep only digits 0..i of an RLWE sample without reduction modulo q, so that digit 1 of b would be
//! exactly -a_1 s and reveal s; we keep full RLWE samples modulo q (d digits each). The product with
//! a key costs d digit products per r_{i,j} instead of i + 1.

mod ciphertext;
mod context;
pub mod depth;
mod keys;
mod noise;
mod operations;
mod params;
mod slots;

pub use ciphertext::HprCiphertext;
pub use context::{Digits, HprContext, HprPublicKey, HprSecretKey};
pub use keys::{HprGaloisKeys, HprRelinKey, Relinearization};
pub use params::HprParameters;
