//! Rotations of the many slots of a general Phi_m (Bajard et al. (SAC 2017) section 2.4) along the hypercube of
//! `Z_m^* / <t>` (HElib's PAlgebra, `rnsfhe_math::ring::cyclotomic::SlotAlgebra`): the Galois elements a
//! scheme needs keys for, shared by FV and BGV.

use rnsfhe_math::ring::cyclotomic::SlotAlgebra;

use crate::Result;

/// The Galois elements of one-step rotations (k = 1 and k = -1) along every dimension, then the
/// Frobenius element t mod m: the keys that rotations by +-1 along each dimension need and for
/// X -> X^t. Duplicates (a dimension of order 2, where +1 = -1) appear once.
pub fn hypercube_galois_elements(slots: &SlotAlgebra) -> Result<Vec<u64>> {
    let mut out: Vec<u64> = Vec::new();
    for i in 0..slots.dimensions().len() {
        for k in [1, -1] {
            let g = slots.rotation_galois_element(i, k)? as u64;
            if g != 1 && !out.contains(&g) {
                out.push(g);
            }
        }
    }
    let f = slots.frobenius_galois_element() as u64;
    if f != 1 && !out.contains(&f) {
        out.push(f);
    }
    Ok(out)
}

/// The slot-rotation methods of an FV or BGV context `$ctx` with ciphertext `$ct` over a general
/// Phi_m: hypercube keys, rotations along one dimension, Frobenius, and the refusal of power-of-two
/// row rotations (the context provides `slot_algebra`, `galois_keys_for_elements`, `apply_galois` and
/// `params().cyclotomic`).
macro_rules! hypercube_methods {
    ($ctx:ty, $ct:ty) => {
        impl $ctx {
            /// Galois keys for one-step rotations (+1 and -1) along every hypercube dimension of the
            /// slots and for Frobenius (general Phi_m; Bajard et al. (SAC 2017) section 2.4, HElib's PAlgebra).
            pub fn galois_keys_for_hypercube(
                &self,
                sk: &$crate::rlwe::SecretKey,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<$crate::rlwe::GaloisKeys> {
                let elements =
                    $crate::encoding::hypercube::hypercube_galois_elements(self.slot_algebra()?)?;
                self.galois_keys_for_elements(sk, &elements, rng)
            }

            /// Rotates the slots along hypercube dimension `dimension` by `k` (the value of slot e
            /// moves to e + k); needs the key of that Galois element (steps of +-1:
            /// [`Self::galois_keys_for_hypercube`]).
            pub fn rotate_dimension(
                &self,
                a: &$ct,
                dimension: usize,
                k: i64,
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<$ct> {
                let g = self.slot_algebra()?.rotation_galois_element(dimension, k)? as u64;
                self.apply_galois(a, g, keys)
            }

            /// Frobenius X -> X^t: every slot raised to the power t (general Phi_m).
            pub fn frobenius(
                &self,
                a: &$ct,
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<$ct> {
                let g = self.slot_algebra()?.frobenius_galois_element() as u64;
                self.apply_galois(a, g, keys)
            }

            /// Refuses `what` (row rotations by steps) on a general Phi_m ring.
            pub(crate) fn refuse_general(&self, what: &str) -> $crate::Result<()> {
                match self.params().cyclotomic {
                    Some(m) => Err($crate::Error::InvalidParameters(format!(
                        "{what} is defined for power-of-two rings; for Phi_{m} use Galois elements \
                         of Z_m^* (galois_keys_for_elements, apply_galois)"
                    ))),
                    None => Ok(()),
                }
            }
        }
    };
}
pub(crate) use hypercube_methods;
