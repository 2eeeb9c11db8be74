//! The RLWE layer shared by BFV and CKKS: secret and public keys, the encryption of zero, and key
//! switching (RNS digits, second-level digits, special moduli) with relinearisation and Galois keys.

mod chain;
pub(crate) mod eval;
mod evalkeys;
mod keys;
mod keyswitch;
mod layout;
mod levels;

pub use chain::ModulusChain;
pub(crate) use evalkeys::owned_by;
pub use evalkeys::{GaloisKeys, RelinKey, MAX_GALOIS_ELEMENTS};
pub(crate) use keys::reduce_product;
pub use keys::{expand_seeded, KeyId, PublicKey, SecretDistribution, SecretKey};
pub(crate) use keyswitch::log2_add;
pub use keyswitch::{KeySwitchKey, KeySwitcher};
pub use layout::KeySwitching;
pub use levels::Levels;

use rnsfhe_math::ring::Poly;

/// a += b (or a -= b) part by part for ciphertexts of any sizes; the result has the larger size (the
/// shared core of both schemes' addition and subtraction).
pub(crate) fn add_parts(a: &mut Vec<Poly>, b: &[Poly], subtract: bool) -> crate::Result<()> {
    for (i, p) in b.iter().enumerate() {
        match a.get_mut(i) {
            Some(x) if subtract => x.sub_assign(p)?,
            Some(x) => x.add_assign(p)?,
            None if subtract => a.push(p.neg()),
            None => a.push(p.clone()),
        }
    }
    Ok(())
}
