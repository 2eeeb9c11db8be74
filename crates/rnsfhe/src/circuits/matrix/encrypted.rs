//! Encrypted matrices multiplied: Jiang, Kim, Lauter and Song, "Secure Outsourced Matrix
//! Computation and Application to Neural Networks", ACM CCS 2018, section 3 (Algorithm 2) and the
//! rectangular case of section 4.
//!
//! A d x d matrix sits row-major in the first d^2 slots (entry (i, j) at slot d i + j, zeros after),
//! and
//!
//! A B = sum_{k < d} phi^k(sigma(A)) * psi^k(tau(B)),
//!
//! sigma(A)_{i,j} = A_{i,i+j}, tau(B)_{i,j} = B_{i+j,j}, phi (column shift) A_{i,j+1}, psi (row
//! shift) A_{i+1,j}, indices mod d. Each is a map of the d^2 slots, so a linear transform
//! ([`CkksLinearTransform`]): sigma has the 2d - 1 diagonals -(d-1)..d-1, tau the 2d - 1 multiples
//! of d (one hoisted baby-step giant-step each, about 3 sqrt(d) rotations); phi^k is two masked
//! rotations (k and k - d); psi^k is the rotation by d k when the slots are exactly d^2 (paper), and
//! two masked rotations (d k and d k - d^2) when the ciphertext has more slots than d^2. The phi^k
//! share one decomposition of sigma(A), the psi^k one of tau(B)
//! ([`CkksLinearTransform::apply_many`]); phi^0 and psi^0 are products with the mask of the d^2
//! slots, so that every term is at one level and scale. The products are tensored and summed before
//! one relinearisation and one rescale (the paper's lazy relinearisation).
//!
//! Rectangular (section 4): an l x d matrix A (l | d) times a d x d matrix B stacks d / l copies of A
//! (sigma reads them from A's l d slots), sums only the l terms k < l, and adds the result's rotations
//! by l d t, t < d / l (one hoisted sum, no level): row i < l then holds sum over all k. A d1 x d2 by
//! d2 x d3 product pads to d = max(d1, d2, d3) and l = the least divisor of d at least d1, every
//! matrix row-major with stride d.
//!
//! Depth 3, as the paper: sigma and tau (one level), the shifts (one level), the product (one
//! level); the result is at level l - 3 on the chain's scale. Decisions: the shifts of B take a
//! level even where psi^k is a bare rotation (d^2 = slots), so that the code path is one. A
//! rectangular product with l < d leaves other values than zeros after its first l rows (copies of
//! A B when d^2 = slots, partial sums otherwise): read the d1 x d3 result, or mask it.

use super::super::lintrans::{CkksLinearTransform, Diagonals};
use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::{Error, Result};

/// The levels an encrypted matrix product spends.
pub const MATRIX_PRODUCT_DEPTH: usize = 3;

/// The transforms of an encrypted d1 x d2 by d2 x d3 matrix product for ciphertexts of `slots` slots
/// at one level (see the module doc), encoded once.
#[derive(Clone, Debug)]
pub struct EncryptedMatrixProduct {
    shape: (usize, usize, usize),
    /// The padded square d and the rows l of A (l | d).
    d: usize,
    l: usize,
    level: usize,
    slots: usize,
    sigma: CkksLinearTransform,
    tau: CkksLinearTransform,
    /// phi^k and psi^k for k = 0..l (k = 0: the mask of the d^2 slots).
    phi: Vec<CkksLinearTransform>,
    psi: Vec<CkksLinearTransform>,
}

/// The diagonals of the map y[t] = x[src(t)] of the first `len` of `slots` slots (zeros after):
/// diagonal (src(t) - t) mod slots holds 1 at t.
fn permutation(len: usize, slots: usize, src: impl Fn(usize) -> usize) -> Diagonals<Complex> {
    let mut diags: Diagonals<Complex> = Diagonals::new();
    for t in 0..len {
        diags
            .entry((src(t) + slots - t) % slots)
            .or_insert_with(|| vec![Complex::new(0.0, 0.0); slots])[t] = Complex::new(1.0, 0.0);
    }
    diags
}

impl EncryptedMatrixProduct {
    /// The product of d x d matrices in ciphertexts of `slots` slots (d^2 <= slots) at `level`
    /// (>= 3): [`Self::rectangular`] with (d, d, d).
    pub fn new(ctx: &CkksContext, d: usize, level: usize, slots: usize) -> Result<Self> {
        Self::rectangular(ctx, (d, d, d), level, slots)
    }

    /// The product of a d1 x d2 matrix by a d2 x d3 one, `shape` = (d1, d2, d3), each row-major with
    /// stride d = max(d1, d2, d3) ([`Self::slot`]) in ciphertexts of `slots` slots (d^2 <= slots)
    /// at `level` (>= 3). Errors: `InvalidParameters` for a dimension 0, d^2 beyond the slots or a
    /// slot count that is not a power of two up to N/2; `LevelsExhausted` for a level below 3
    /// (naming it); `LevelOutOfRange` for a level above the top.
    pub fn rectangular(
        ctx: &CkksContext,
        shape: (usize, usize, usize),
        level: usize,
        slots: usize,
    ) -> Result<Self> {
        let (d1, d2, d3) = shape;
        let d = d1.max(d2).max(d3);
        let len = d.saturating_mul(d);
        if d1.min(d2).min(d3) == 0 || len > slots || !slots.is_power_of_two() || slots > ctx.slots()
        {
            return Err(Error::InvalidParameters(format!(
                "{d1} x {d2} by {d2} x {d3} matrices in {slots} slots: need dimensions >= 1 and, \
                 for d = max = {d}, d^2 = {len} <= slots, the slots a power of two up to N/2 = {}",
                ctx.slots()
            )));
        }
        if level > ctx.max_level() {
            return Err(Error::LevelOutOfRange {
                op: "encrypted matrix product".into(),
                level,
                max: ctx.max_level(),
            });
        }
        if level < MATRIX_PRODUCT_DEPTH {
            return Err(Error::LevelsExhausted {
                op: "encrypted matrix product".into(),
                level,
                needed: MATRIX_PRODUCT_DEPTH,
            });
        }
        let l = (d1..=d).find(|l| d % l == 0).unwrap_or(d);
        let at =
            |diags: &Diagonals<Complex>, lv: usize| CkksLinearTransform::new(ctx, diags, lv, slots);
        // sigma of A stacked d / l times, read from A's l d slots.
        let sigma = at(
            &permutation(len, slots, |t| d * (t / d % l) + (t / d + t % d) % d),
            level,
        )?;
        let tau = at(
            &permutation(len, slots, |t| d * ((t / d + t % d) % d) + t % d),
            level,
        )?;
        let mut phi = Vec::with_capacity(l);
        let mut psi = Vec::with_capacity(l);
        for k in 0..l {
            let column = permutation(len, slots, |t| d * (t / d) + (t % d + k) % d);
            let row = permutation(len, slots, |t| d * ((t / d + k) % d) + t % d);
            phi.push(at(&column, level - 1)?);
            psi.push(at(&row, level - 1)?);
        }
        Ok(EncryptedMatrixProduct {
            shape,
            d,
            l,
            level,
            slots,
            sigma,
            tau,
            phi,
            psi,
        })
    }

    /// (d1, d2, d3): A is d1 x d2, B d2 x d3, the product d1 x d3.
    pub fn shape(&self) -> (usize, usize, usize) {
        self.shape
    }
    /// The slot of entry (i, j) of A, B or the product: d i + j, d = max(d1, d2, d3).
    pub fn slot(&self, i: usize, j: usize) -> usize {
        self.d * i + j
    }
    /// The rotation steps of the rectangular sum: l d t for t = 1..d / l (none when l = d).
    fn sum_steps(&self) -> Vec<i64> {
        (1..self.d / self.l)
            .map(|t| (self.l * self.d * t) as i64)
            .collect()
    }
    /// The padded dimension d = max(d1, d2, d3).
    pub fn dimension(&self) -> usize {
        self.d
    }
    /// The level of the inputs; the product is [`MATRIX_PRODUCT_DEPTH`] levels down.
    pub fn level(&self) -> usize {
        self.level
    }
    /// The slot count of the inputs.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The bytes the encoded diagonals hold.
    pub fn encoded_bytes(&self) -> usize {
        self.transforms()
            .map(CkksLinearTransform::encoded_bytes)
            .sum()
    }

    fn transforms(&self) -> impl Iterator<Item = &CkksLinearTransform> {
        [&self.sigma, &self.tau]
            .into_iter()
            .chain(&self.phi)
            .chain(&self.psi)
    }

    /// The rotation steps [`Self::apply`] needs Galois keys for (sorted, without 0).
    pub fn rotation_steps(&self) -> Vec<i64> {
        let mut s: Vec<i64> = self.transforms().flat_map(|t| t.rotation_steps()).collect();
        s.extend(self.sum_steps());
        s.sort_unstable();
        s.dedup();
        s
    }

    /// A B for `a` and `b` encrypting A and B row-major with stride d ([`Self::slot`]), zeros in
    /// the rest of their frames (A's first l d slots, B's first d^2; later slots are not read), at [`Self::level`] on the chain's scale: the product row-major with stride d at
    /// level - 3 on the chain's scale (see the module doc for the slots after its rows).
    /// Errors: `LevelMismatch` or `LengthMismatch` for an input at another level or slot count than
    /// the product's; those of [`CkksLinearTransform::apply`] (scale, context, missing Galois keys
    /// naming the step), and of the multiplication (key pairs, relinearisation key).
    pub fn apply(
        &self,
        ctx: &CkksContext,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        rlk: &RelinKey,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        for (name, c) in [("A", a), ("B", b)] {
            if c.level() != self.level {
                return Err(Error::LevelMismatch {
                    op: format!("encrypted matrix product (the ciphertext of {name}, the product)"),
                    left: c.level(),
                    right: self.level,
                    hint: "encode the product for the ciphertexts' level, or bring them to its \
                           level with drop_to_level"
                        .into(),
                });
            }
            if c.slots() != self.slots {
                return Err(Error::LengthMismatch {
                    what: "encrypted matrix product slots (the ciphertext's against the product's)",
                    expected: self.slots,
                    got: c.slots(),
                });
            }
        }
        let sa = self.sigma.apply(ctx, a, keys)?;
        let tb = self.tau.apply(ctx, b, keys)?;
        let phi: Vec<&CkksLinearTransform> = self.phi.iter().collect();
        let psi: Vec<&CkksLinearTransform> = self.psi.iter().collect();
        let ak = CkksLinearTransform::apply_many(ctx, &sa, &phi, keys)?;
        let bk = CkksLinearTransform::apply_many(ctx, &tb, &psi, keys)?;
        let mut acc: Option<CkksCiphertext> = None;
        for (x, y) in ak.iter().zip(&bk) {
            let p = ctx.multiply_no_relin(x, y)?;
            acc = Some(match acc {
                None => p,
                Some(mut s) => {
                    ctx.add_assign(&mut s, &p)?;
                    s
                }
            });
        }
        let mut r = acc.ok_or_else(|| Error::Internal("a matrix product without terms".into()))?;
        ctx.relinearize_assign(&mut r, rlk)?;
        ctx.rescale_assign(&mut r)?;
        if self.l == self.d {
            return Ok(r);
        }
        let mut steps = vec![0];
        steps.extend(self.sum_steps());
        ctx.sum_rotations(&r, &steps, None, keys)
    }
}
