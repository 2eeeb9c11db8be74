//! The masked transform: a linear map of the slots applied during a refresh (Mouchet et al., PETS
//! 2021, the refresh with a transform of the shared plaintext; Lattigo's
//! `MaskedLinearTransformationProtocol`). The refresh's plaintext is
//! additively shared as d + sum_i M_i = m (modulo t for BFV and BGV, over the integers for CKKS):
//! each party maps its mask M_i, the aggregator maps d, and the refreshed ciphertext encrypts
//! map(d) + sum_i map(M_i) = map(m). So any map that is linear over the shares works:
//!
//! - BFV and BGV: any linear map of the n slots modulo t ([`SlotMap::Linear`], [`SlotMap::Permute`]
//!   and the automorphisms below): the masks are uniform in R_t, decoded to slots, mapped and
//!   encoded exactly;
//! - every scheme: a Galois automorphism X -> X^g ([`SlotMap::Rotate`], [`SlotMap::Automorphism`]:
//!   rotations, the row swap of BFV and BGV, CKKS's conjugation), a signed permutation of the
//!   coefficients, exact on integers.
//!
//! - CKKS: a complex matrix A on the ciphertext's n' slots ([`SlotMap::Complex`]): each share is
//!   decoded to its slots, multiplied by A and encoded back to integers. The CKKS masks have about
//!   lambda + log2(n) + log2(Delta) + 1 bits (100 at n = 2^14 and Delta = 2^45): in f64 their
//!   slots would err by 2^47 units, more than the message (Lattigo decodes its masks in big
//!   floats). Decision: double-double arithmetic (about 104 bits, `ckks_map`), which errs by about
//!   n' 2^(b - 104) units per coefficient plus a rounding per share: for b = 111 and n' = 2^10,
//!   2^17 units, 2^-28 of Delta = 2^45, far below what the smudging costs. The result keeps the
//!   subring of the slots only, and its error is A applied to the refreshed error (the smudging's
//!   cost grows with A's norm). O(n'^2) per share.
//!
//! # To another parameter set
//!
//! The same protocol re-encrypts under other parameters B (another modulus chain and/or ring
//! degree; Lattigo's `MaskedLinearTransformationProtocol` with other output parameters): party i
//! sends h0_i = s_i c_1 + e_i - Enc_A(M_i) under the input's parameters A and h1_i = -s'_i a_B +
//! Enc_B(map(M_i)) + e'_i under B's, each a [`Share`](super::Share) aggregated under its own
//! parameters ([`rounds`], [`share`], [`finalize`]).
//!
//! Decision, on the secrets: each party holds one secret per parameter set, s_i under A and s'_i
//! under B (a [`Party`](super::Party) of each context; Lattigo's skIn and skOut), and the output is
//! encrypted under B's collective key s' = sum_i s'_i (its public key from a CKG under B, the
//! `target`), so the transform also switches keys. No secret is mapped between rings: a ternary s_i
//! lifts to any chain of its degree, but a threshold share (uniform modulo Q_A P_A) does not, and
//! a ring embedding X -> Y^(N_B/N_A) of s would make B's key a structured one of A's ring. With
//! threshold secrets, the parties present combine both sharings (the groups of both rounds).
//!
//! Decision, on the plaintext: what maps between rings is the masked plaintext and the masks,
//! linearly, so the shares still sum to the plaintext (when the degree changes):
//!
//! - CKKS: the ciphertext's n' slots (sparse packing: the subring of Y = X^(N / 2n')) keep their
//!   values: the 2n' subring coefficients go from X^(j N_A / 2n') to X^(j N_B / 2n') (refused when
//!   B's ring holds fewer than n' slots), at B's top-level scale;
//! - BFV and BGV: the same t in both (the shares are modulo t). With the same degree the
//!   coefficients are kept; with another degree (batching in both), slot (r, c) of the 2 x N_A/2
//!   matrix goes to slot (r, c) of the 2 x N_B/2 one, for the columns both have (zeros in B's
//!   others; A's beyond B's dropped).
//!
//! A [`SlotMap`] applies in A's slots, before the change of ring. The mask sizes, smudging and
//! what the aggregator learns are the refresh's ([`super::refresh`]).

pub(crate) use super::transform_params::to_ring;
pub use super::transform_params::{crp, finalize, finalize_with, rounds, share, share_with};

use rnsfhe_math::arith::Modulus;

use crate::ckks::Complex;
use crate::{Error, Result};

/// A linear map of the slots applied during a refresh ([`super::Refresh::with_map`]).
#[derive(Clone, Debug, PartialEq)]
pub enum SlotMap {
    /// Rotation by `step` slots: BFV and BGV rotate both rows of the 2 x n/2 slot matrix left by
    /// `step` (as `rotate_rows`), CKKS the slots left by `step` (as `rotate`).
    Rotate(i64),
    /// The automorphism X -> X^g for an odd g (mod 2n): 2n - 1 swaps the rows of BFV and BGV and
    /// conjugates CKKS's slots.
    Automorphism(u64),
    /// out\[i\] = in\[perm\[i\]\] over the n slots of BFV or BGV (perm a permutation of 0..n).
    Permute(Vec<usize>),
    /// out\[i\] = sum_j a\[i n + j\] in\[j\] mod t over the n slots of BFV or BGV (a row-major n x n
    /// matrix with entries in [0, t)).
    Linear(Vec<u64>),
    /// out\[i\] = sum_j a\[i n' + j\] in\[j\] over the n' slots of a CKKS ciphertext (a row-major
    /// n' x n' complex matrix, n' the ciphertext's slots), applied to the shares in double-double
    /// arithmetic (`ckks_map`: its error and cost in the module doc below).
    Complex(Vec<Complex>),
}

impl SlotMap {
    /// A 64-bit identity of the map, which the refresh's round binds.
    pub(crate) fn digest(&self) -> u64 {
        let mut h = blake3::Hasher::new();
        h.update(b"rnsfhe slot map v1");
        let (tag, words): (u8, Vec<u64>) = match self {
            SlotMap::Rotate(s) => (1, vec![*s as u64]),
            SlotMap::Automorphism(g) => (2, vec![*g]),
            SlotMap::Permute(p) => (3, p.iter().map(|&i| i as u64).collect()),
            SlotMap::Linear(a) => (4, a.clone()),
            SlotMap::Complex(a) => (
                5,
                a.iter()
                    .flat_map(|z| [z.re.to_bits(), z.im.to_bits()])
                    .collect(),
            ),
        };
        h.update(&[tag]);
        h.update(&(words.len() as u64).to_le_bytes());
        crate::rlwe::le_bytes(&words, 8192, |b| {
            h.update(b);
        });
        let mut w = [0u8; 8];
        w.copy_from_slice(&h.finalize().as_bytes()[..8]);
        u64::from_le_bytes(w)
    }

    /// The Galois element of an automorphism (`rotation`: the element of a rotation by a step),
    /// or `None` for a map of the decoded slots.
    fn element(&self, n: usize, rotation: impl Fn(i64) -> u64) -> Result<Option<u64>> {
        match self {
            SlotMap::Rotate(s) => Ok(Some(rotation(*s))),
            SlotMap::Automorphism(g) if g % 2 == 1 && *g < 2 * n as u64 => Ok(Some(*g)),
            SlotMap::Automorphism(g) => Err(Error::InvalidParameters(format!(
                "slot map: the automorphism X -> X^{g} needs an odd g below 2n = {}",
                2 * n
            ))),
            _ => Ok(None),
        }
    }

    /// The map of a plaintext of BFV or BGV given by its coefficients modulo t: an automorphism
    /// on the coefficients, or `decode`, the map of the slots and `encode`.
    pub(crate) fn apply_plain(
        &self,
        coeffs: &[u64],
        t: &Modulus,
        rotation: impl Fn(i64) -> u64,
        decode: impl Fn(&[u64]) -> Result<Vec<u64>>,
        encode: impl Fn(&[u64]) -> Result<Vec<u64>>,
    ) -> Result<Vec<u64>> {
        let n = coeffs.len();
        if let Some(g) = self.element(n, rotation)? {
            return Ok(automorphism(coeffs, g, |x| t.neg(x)));
        }
        let slots = decode(coeffs)?;
        let out = match self {
            SlotMap::Permute(p) => {
                check_permutation(p, n)?;
                p.iter().map(|&i| slots[i]).collect::<Vec<_>>()
            }
            SlotMap::Linear(a) => {
                if a.len() != n * n || a.iter().any(|&x| x >= t.value()) {
                    return Err(Error::InvalidParameters(format!(
                        "slot map: a linear map of {n} slots is an {n} x {n} matrix with entries \
                         below t = {}, got {} entries",
                        t.value(),
                        a.len()
                    )));
                }
                a.chunks_exact(n)
                    .map(|row| {
                        row.iter()
                            .zip(&slots)
                            .fold(0, |acc, (&x, &y)| t.add(acc, t.mul(x, y)))
                    })
                    .collect()
            }
            _ => return Err(Error::Internal("slot map without slots".into())),
        };
        encode(&out)
    }

    /// The map of CKKS coefficients (integers) of a ciphertext of `slots` slots: an automorphism,
    /// or a complex matrix on the slots (module doc).
    pub(crate) fn apply_integers(
        &self,
        coeffs: &[i128],
        slots: usize,
        rotation: impl Fn(i64) -> u64,
    ) -> Result<Vec<i128>> {
        if let SlotMap::Complex(a) = self {
            return super::ckks_map::apply(coeffs, a, slots);
        }
        match self.element(coeffs.len(), rotation)? {
            Some(g) => Ok(automorphism(coeffs, g, |x: i128| -x)),
            None => Err(Error::InvalidParameters(
                "a CKKS refresh applies Galois automorphisms (SlotMap::Rotate, \
                 SlotMap::Automorphism) and complex matrices on the slots (SlotMap::Complex); \
                 permutations and matrices modulo t are for BFV and BGV"
                    .into(),
            )),
        }
    }

    /// Ok when the map is one this scheme applies (`plain`: BFV or BGV, ring degree `n`; CKKS:
    /// a ciphertext of `slots` slots).
    pub(crate) fn check(&self, plain: bool, n: usize, slots: usize) -> Result<()> {
        self.element(n, |_| 1)?;
        match self {
            SlotMap::Complex(_) if plain => Err(Error::InvalidParameters(
                "SlotMap::Complex is a map of CKKS slots; BFV and BGV take SlotMap::Linear \
                 (modulo t)"
                    .into(),
            )),
            SlotMap::Complex(a) if a.len() != slots * slots || a.iter().any(|z| !z.is_finite()) => {
                Err(Error::InvalidParameters(format!(
                    "slot map: a complex map of a ciphertext of {slots} slots is a {slots} x \
                     {slots} matrix of finite entries, got {} entries",
                    a.len()
                )))
            }
            SlotMap::Permute(p) if plain => check_permutation(p, n),
            SlotMap::Linear(a) if plain && a.len() != n * n => {
                Err(Error::InvalidParameters(format!(
                    "slot map: a linear map of {n} slots has {} entries, not n^2",
                    a.len()
                )))
            }
            SlotMap::Permute(_) | SlotMap::Linear(_) if !plain => {
                self.apply_integers(&[], 0, |_| 1).map(|_| ())
            }
            _ => Ok(()),
        }
    }
}

fn check_permutation(p: &[usize], n: usize) -> Result<()> {
    let mut seen = vec![false; n];
    let ok = p.len() == n
        && p.iter()
            .all(|&i| i < n && !std::mem::replace(&mut seen[i], true));
    if ok {
        return Ok(());
    }
    Err(Error::InvalidParameters(format!(
        "slot map: a permutation of the {n} slots lists each of 0..{n} once (got {} entries)",
        p.len()
    )))
}

/// X -> X^g on coefficients: X^j goes to X^(jg mod n), negated when jg mod 2n >= n.
fn automorphism<T: Copy + Default>(coeffs: &[T], g: u64, neg: impl Fn(T) -> T) -> Vec<T> {
    let n = coeffs.len();
    let mut out = vec![T::default(); n];
    let two_n = 2 * n as u64;
    for (j, &c) in coeffs.iter().enumerate() {
        let e = (j as u64 * g) % two_n;
        if e < n as u64 {
            out[e as usize] = c;
        } else {
            out[(e - n as u64) as usize] = neg(c);
        }
    }
    out
}
