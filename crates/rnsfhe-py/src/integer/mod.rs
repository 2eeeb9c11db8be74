//! What BFV and BGV share beyond the RLWE layer: plaintexts over Z_t[X]/(Phi_m), integer slots and
//! their operators, written once by `integer_scheme!` on top of `rlwe_context!` / `rlwe_values!`.
//!
//! Over a general Phi_m (`cyclotomic_index=m`, Bajard et al. (SAC 2017) section 2.4) the plaintext holds l slots of
//! GF(t^d): values go in and out as int64 arrays of shape (l, d), always two-dimensional (a 1-D
//! array of length l is accepted on the way in when d = 1), slot j holding the coefficients of a
//! polynomial of degree below d in the field GF(t)[Y]/(F(Y)). Slots are numbered along the hypercube
//! of `Z_m^* / <t>` (`hypercube`; HElib's PAlgebra), rotated by `rotate_dimension` and raised to the
//! power t by `frobenius`.

use numpy::PyArrayMethods;
use pyo3::prelude::*;
use rnsfhe::rlwe::{GaloisKeys, RelinKey};
use rnsfhe_math::ring::cyclotomic::SlotAlgebra;

use crate::convert::{i64_array, int_values};
use crate::raise;

/// The one operation BFV and BGV name differently.
pub(crate) trait Square {
    type Ct;
    /// a^2, relinearised with `k`.
    fn square_relin(&self, a: &Self::Ct, k: &RelinKey) -> rnsfhe::Result<Self::Ct>;
}

impl Square for rnsfhe::bfv::BfvContext {
    type Ct = rnsfhe::bfv::BfvCiphertext;
    fn square_relin(&self, a: &Self::Ct, k: &RelinKey) -> rnsfhe::Result<Self::Ct> {
        self.square(a, k)
    }
}

impl Square for rnsfhe::bgv::BgvContext {
    type Ct = rnsfhe::bgv::BgvCiphertext;
    fn square_relin(&self, a: &Self::Ct, k: &RelinKey) -> rnsfhe::Result<Self::Ct> {
        self.multiply(a, a, k)
    }
}

/// Slots of GF(t^d) from an array of shape (l, d) (or (l,) when d = 1) of integers with |v| < t.
pub(crate) fn slot_values(x: &Bound<'_, PyAny>, alg: &SlotAlgebra) -> PyResult<Vec<Vec<u64>>> {
    let (l, d, t) = (alg.slots(), alg.slot_degree(), alg.plaintext_modulus());
    let arr = x.py().import("numpy")?.call_method1("asarray", (x,))?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if shape != [l, d] && !(d == 1 && shape == [l]) {
        let one = if d == 1 {
            format!(" or ({l},)")
        } else {
            String::new()
        };
        return Err(raise(
            "LengthMismatchError",
            format!(
                "slots of GF({t}^{d}): expected an array of shape ({l}, {d}){one}, got shape \
                 {shape:?}"
            ),
        ));
    }
    let flat = int_values(&arr.call_method1("reshape", (-1,))?, t)?;
    Ok(flat.chunks(d).map(<[u64]>::to_vec).collect())
}

/// Slots as an int64 array of shape (l, d), in [0, t) or, with `signed`, centred in (-t/2, t/2].
pub(crate) fn slot_array<'py>(
    py: Python<'py>,
    slots: Vec<Vec<u64>>,
    alg: &SlotAlgebra,
    signed: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (l, d, t) = (slots.len(), alg.slot_degree(), alg.plaintext_modulus());
    let flat: Vec<i64> = slots
        .into_iter()
        .flatten()
        .map(|v| {
            if signed && v > t / 2 {
                v as i64 - t as i64
            } else {
                v as i64
            }
        })
        .collect();
    Ok(i64_array(py, flat).reshape([l, d])?.into_any())
}

/// t^p mod m: the Galois element of Frobenius applied p times.
fn frobenius_element(alg: &SlotAlgebra, p: usize) -> u64 {
    let m = alg.cyclotomic_index() as u128;
    let t = u128::from(alg.plaintext_modulus()) % m;
    (0..p).fold(1u128, |acc, _| acc * t % m) as u64
}

/// How to apply an automorphism of the slots: the Galois element g when `keys` hold its key, else
/// `count` applications of the one-step element (X -> X^g composed k times is X -> X^(g^k)).
pub(crate) enum Steps {
    Identity,
    Direct(u64),
    Repeat(usize),
}

/// Rotation of dimension `dim` by `k` (k mod o_i): directly when `keys` hold g_i^k, else k steps of
/// +1 (on a native dimension the shorter way round, with the key of +1 or -1).
pub(crate) fn rotation_steps(
    alg: &SlotAlgebra,
    dim: usize,
    k: i64,
    keys: &GaloisKeys,
) -> rnsfhe::Result<(Steps, i64)> {
    let g = alg.rotation_galois_element(dim, k)? as u64;
    let d = alg.dimensions()[dim];
    let k = k.rem_euclid(d.order as i64);
    Ok(if k == 0 {
        (Steps::Identity, 0)
    } else if keys.elements().contains(&g) {
        (Steps::Direct(g), k)
    } else if d.native && d.order as i64 - k < k {
        (Steps::Repeat(d.order - k as usize), -1)
    } else {
        (Steps::Repeat(k as usize), 1)
    })
}

/// Frobenius applied `p` times (p mod d): directly when `keys` hold t^p, else p single steps.
pub(crate) fn frobenius_steps(alg: &SlotAlgebra, p: i64, keys: &GaloisKeys) -> Steps {
    let p = p.rem_euclid(alg.slot_degree() as i64) as usize;
    let g = frobenius_element(alg, p);
    if p == 0 {
        Steps::Identity
    } else if keys.elements().contains(&g) {
        Steps::Direct(g)
    } else {
        Steps::Repeat(p)
    }
}

/// The Galois elements of the rotations (dimension, k) and Frobenius powers asked for.
pub(crate) fn galois_elements(
    alg: &SlotAlgebra,
    rotations: &[(usize, i64)],
    frobenius: &[i64],
) -> rnsfhe::Result<Vec<u64>> {
    let mut out = Vec::new();
    for &(dim, k) in rotations {
        out.push(alg.rotation_galois_element(dim, k)? as u64);
    }
    for &p in frobenius {
        out.push(frobenius_element(
            alg,
            p.rem_euclid(alg.slot_degree() as i64) as usize,
        ));
    }
    out.retain(|&g| g != 1);
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The hypercube dimensions as (generator, order, native) triples.
pub(crate) fn hypercube(alg: &SlotAlgebra) -> Vec<(usize, usize, bool)> {
    alg.dimensions()
        .iter()
        .map(|d| (d.generator, d.order, d.native))
        .collect()
}

mod context;
mod params;
pub(crate) mod values;

pub(crate) use context::integer_scheme;
pub(crate) use params::{cyclotomic_label, integer_params};
