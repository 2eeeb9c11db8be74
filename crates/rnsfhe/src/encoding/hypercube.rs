//! Rotations of the many slots of a general Phi_m (paper 001 section 2.4) along the hypercube of
//! Z_m^* / <t> (HElib's PAlgebra, `rnsfhe_math::ring::cyclotomic::SlotAlgebra`): the Galois elements a
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
