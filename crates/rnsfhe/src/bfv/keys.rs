//! The row-rotation methods of a BFV context (the key types live in `rlwe`; `relin_key` with the
//! other key methods, `crate::rlwe::key_methods!`).

use super::BfvContext;

crate::encoding::batch::row_rotation_methods!(BfvContext, super::Ciphertext);
