//! BGV keys: secret and public keys, relinearisation and Galois keys (power-of-two steps, row swap,
//! explicit elements, the hypercube of a general Phi_m).

use super::BgvContext;

crate::rlwe::key_methods!(BgvContext);
crate::encoding::batch::row_rotation_methods!(BgvContext, super::BgvCiphertext);
