//! Plaintext matrices times encrypted vectors, one vector or a batch of them per ciphertext: the
//! Halevi-Shoup diagonals (Halevi and Shoup, "Algorithms in HElib", CRYPTO 2014, section 4.3) of the
//! slots x slots matrix that applies M to every vector of the batch where [`MatrixPacking`] puts it,
//! evaluated by [`CkksLinearTransform`] (hoisted baby-step giant-step).
//!
//! Entry (r, c) of M, for vector j, joins slot c of the vector to slot r of the result: diagonal
//! (pos(j, c) - pos(j, r)) mod slots at position pos(j, r). The diagonal count, which sets the cost
//! (about 2 sqrt(count) rotations and count plaintext products), does not grow with the batch:
//!
//! - [`BatchLayout::Interleaved`] (entry c of vector j at slot c B + j): a rotation by k B rotates
//!   every vector by k, cyclically over its n = slots / B entries, so the batch needs the diagonals
//!   k B of M padded to n x n: at most n, the cost of one n x n product.
//! - [`BatchLayout::Rows`] (vector j in slots [j n, j n + n), a row-major (B, n) array): a rotation
//!   by k moves entries across block borders, so the diagonals are the 2n - 1 offsets -(n-1)..n-1,
//!   each masked to its block positions: the cost of one zero-padded n x n product on more slots
//!   (about 1.4 times the rotations and twice the products of the interleaved layout), for any batch
//!   size and any n, and a ciphertext of `X.ravel()` as numpy lays it out.

use super::super::lintrans::{CkksLinearTransform, Diagonals};
use crate::ckks::{CkksContext, Complex};
use crate::{Error, Result};

/// Where the vectors of a batch sit in the slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchLayout {
    /// Vector j in slots [j stride, j stride + stride): a row-major (batch, stride) array.
    Rows {
        /// The distance between two vectors' first slots (at least the matrix's rows and cols).
        stride: usize,
    },
    /// Entry c of vector j at slot c batch + j: a column-major array, each vector of slots / batch
    /// entries (batch a power of two).
    Interleaved,
}

/// A batch of vectors in the slots of a ciphertext: how many, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixPacking {
    slots: usize,
    batch: usize,
    layout: BatchLayout,
}

impl MatrixPacking {
    /// One vector in the first `len` of `slots` slots (the others zero).
    pub fn single(slots: usize, len: usize) -> Result<Self> {
        Self::new(slots, 1, BatchLayout::Rows { stride: len })
    }

    /// `batch` vectors in `slots` slots laid out as `layout` says. Errors: `InvalidParameters` for
    /// slots that are not a power of two, a batch of 0, and an interleaved batch that is not a power
    /// of two up to the slots; `LengthMismatch` for rows of `batch` x `stride` beyond the slots.
    pub fn new(slots: usize, batch: usize, layout: BatchLayout) -> Result<Self> {
        if !slots.is_power_of_two() || batch == 0 {
            return Err(Error::InvalidParameters(format!(
                "{batch} vectors in {slots} slots: the slots must be a power of two and the batch \
                 at least 1"
            )));
        }
        match layout {
            BatchLayout::Rows { stride } => {
                if stride == 0 || batch.saturating_mul(stride) > slots {
                    return Err(Error::LengthMismatch {
                        what: "batch x stride (vectors of `stride` slots, one after the other)",
                        expected: slots,
                        got: batch.saturating_mul(stride),
                    });
                }
            }
            BatchLayout::Interleaved => {
                if !batch.is_power_of_two() || batch > slots {
                    return Err(Error::InvalidParameters(format!(
                        "an interleaved batch of {batch} vectors: the batch must be a power of two \
                         up to the {slots} slots (each vector takes every batch-th slot); use the \
                         rows layout for other batch sizes"
                    )));
                }
            }
        }
        Ok(MatrixPacking {
            slots,
            batch,
            layout,
        })
    }

    /// The slot count.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The number of vectors.
    pub fn batch(&self) -> usize {
        self.batch
    }
    /// The layout.
    pub fn layout(&self) -> BatchLayout {
        self.layout
    }
    /// The longest vector a batch entry holds: the stride, or slots / batch interleaved.
    pub fn vector_len(&self) -> usize {
        match self.layout {
            BatchLayout::Rows { stride } => stride,
            BatchLayout::Interleaved => self.slots / self.batch,
        }
    }
    /// The slot of entry `c` of vector `j` (both in range).
    pub fn slot(&self, j: usize, c: usize) -> usize {
        match self.layout {
            BatchLayout::Rows { stride } => j * stride + c,
            BatchLayout::Interleaved => c * self.batch + j,
        }
    }

    /// The Halevi-Shoup diagonals of the slots x slots matrix applying the rows x cols matrix `m`
    /// (row-major) to every vector: see the module doc; all-zero diagonals are left out. Errors:
    /// `LengthMismatch` for `m` of another length than rows x cols, or rows or cols of 0 or beyond
    /// [`Self::vector_len`]; `OutOfRange` for an entry that is not finite; `InvalidParameters` for
    /// the zero matrix.
    pub fn diagonals(&self, m: &[Complex], rows: usize, cols: usize) -> Result<Diagonals<Complex>> {
        if m.len() != rows.saturating_mul(cols) {
            return Err(Error::LengthMismatch {
                what: "matrix entries (rows x cols)",
                expected: rows.saturating_mul(cols),
                got: m.len(),
            });
        }
        let n = self.vector_len();
        if rows == 0 || cols == 0 || rows > n || cols > n {
            return Err(Error::LengthMismatch {
                what: "matrix rows and cols (1 up to the vector length of the packing)",
                expected: n,
                got: rows.max(cols),
            });
        }
        if let Some(i) = m
            .iter()
            .position(|z| !(z.re.is_finite() && z.im.is_finite()))
        {
            return Err(Error::OutOfRange(format!(
                "matrix entry ({}, {}) is {} + {}i: entries must be finite",
                i / cols,
                i % cols,
                m[i].re,
                m[i].im
            )));
        }
        let s = self.slots;
        let mut diags: Diagonals<Complex> = Diagonals::new();
        for r in 0..rows {
            for c in 0..cols {
                let z = m[r * cols + c];
                if z.re == 0.0 && z.im == 0.0 {
                    continue;
                }
                for j in 0..self.batch {
                    let (to, from) = (self.slot(j, r), self.slot(j, c));
                    diags
                        .entry((from + s - to) % s)
                        .or_insert_with(|| vec![Complex::new(0.0, 0.0); s])[to] = z;
                }
            }
        }
        if diags.is_empty() {
            return Err(Error::InvalidParameters(
                "the zero matrix: its product is the zero vector (encrypt zeros instead)".into(),
            ));
        }
        Ok(diags)
    }

    /// The linear transform applying `m` (rows x cols, row-major) to every vector of the batch, for
    /// ciphertexts of [`Self::slots`] slots at `level` ([`CkksLinearTransform::new`]): the product
    /// is one level down, vector j's result in its slots 0..rows.
    pub fn transform(
        &self,
        ctx: &CkksContext,
        m: &[Complex],
        rows: usize,
        cols: usize,
        level: usize,
    ) -> Result<CkksLinearTransform> {
        CkksLinearTransform::new(ctx, &self.diagonals(m, rows, cols)?, level, self.slots)
    }

    /// The slot vector of `batch` vectors of `len` entries (row-major, `x[j len + c]`) in this
    /// packing, zeros elsewhere. Errors: `LengthMismatch` for another batch size, `len` beyond
    /// [`Self::vector_len`], or `x` of another length than batch x len.
    pub fn pack(&self, x: &[Complex], batch: usize, len: usize) -> Result<Vec<Complex>> {
        if batch != self.batch || len > self.vector_len() || x.len() != batch * len {
            return Err(Error::LengthMismatch {
                what: "vectors to pack (batch x len, len up to the vector length)",
                expected: self.batch * self.vector_len().min(len),
                got: x.len(),
            });
        }
        let mut out = vec![Complex::new(0.0, 0.0); self.slots];
        for j in 0..batch {
            for c in 0..len {
                out[self.slot(j, c)] = x[j * len + c];
            }
        }
        Ok(out)
    }

    /// Entries 0..len of every vector in `slots` (a decrypted product), row-major: the inverse of
    /// [`Self::pack`]. Errors: `LengthMismatch` for `len` beyond [`Self::vector_len`] or fewer
    /// values than the slots.
    pub fn unpack(&self, slots: &[Complex], len: usize) -> Result<Vec<Complex>> {
        if len > self.vector_len() || slots.len() < self.slots {
            return Err(Error::LengthMismatch {
                what: "slot values to unpack (at least the packing's slots)",
                expected: self.slots,
                got: slots.len(),
            });
        }
        Ok((0..self.batch)
            .flat_map(|j| (0..len).map(move |c| (j, c)))
            .map(|(j, c)| slots[self.slot(j, c)])
            .collect())
    }
}
