//! The RLWE layer shared by BFV, BGV and CKKS: secret and public keys, the encryption of zero, and key
//! switching (RNS digits, second-level digits, special moduli) with relinearisation and Galois keys.

mod evalkeys;
mod keys;
mod keyswitch;
mod layout;

pub use evalkeys::{GaloisKeys, RelinKey};
pub use keys::{expand_seeded, PublicKey, SecretDistribution, SecretKey};
pub use keyswitch::{KeySwitchKey, KeySwitcher};
pub use layout::KeySwitching;
