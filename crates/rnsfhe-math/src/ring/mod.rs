//! Polynomial rings Z_Q\[X]/(Phi_m(X)) in RNS form: [`RingContext`] holds the precomputation (basis, NTT
//! tables), [`Poly`] the residues — one type for every m, as HElib's DoubleCRT: power-of-two
//! cyclotomics (Phi_2n = X^n + 1, negacyclic NTT, [`RingContext::new`]) and any Phi_m (Bajard et al. (SAC 2017), cyclic
//! NTT of size N2(2n) and a reduction modulo Phi_m, [`RingContext::cyclotomic`]).

mod automorphism;
mod context;
pub mod cyclotomic;
mod poly;
pub mod reference;

pub use automorphism::ntt_automorphism_index;
pub use context::{RingContext, RingKind};
pub use cyclotomic::{Form, Reduction};
pub use poly::{Poly, Representation};

/// Ok when `data` holds n residues per modulus (limb-major), each below its modulus; otherwise an error
/// naming the length or the first residue out of range.
pub(crate) fn check_residues(
    moduli: &[crate::arith::Modulus],
    n: usize,
    data: &[u64],
) -> crate::Result<()> {
    let expected = n * moduli.len();
    if data.len() != expected {
        return Err(crate::Error::LengthMismatch {
            what: "polynomial residues",
            expected,
            got: data.len(),
        });
    }
    for (i, (limb, q)) in data.chunks_exact(n.max(1)).zip(moduli).enumerate() {
        if let Some(j) = limb.iter().position(|&x| x >= q.value()) {
            return Err(crate::Error::OutOfRange(format!(
                "residue {} of coefficient {j} is not below modulus q_{i} = {}",
                limb[j],
                q.value()
            )));
        }
    }
    Ok(())
}
