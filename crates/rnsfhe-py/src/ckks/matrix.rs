//! Plaintext matrices for encrypted vectors: `CkksContext.matrix(M)` encodes a rows x cols matrix
//! (real or complex) as the Halevi-Shoup diagonals of its zero-padded slots x slots square,
//! diag_k[t] = M[t][(t + k) mod slots] (Halevi and Shoup, CRYPTO 2014 and 2018), once, for
//! vectors of `slots` slots at one level; `CkksContext.matmul(x, matrix)` evaluates y = M x by the
//! core's hoisted baby-step giant-step (`rnsfhe::circuits::lintrans::CkksLinearTransform`). The
//! vector x sits in the first cols slots of its ciphertext (the others hold zeros, as `encrypt`
//! leaves them) and y comes out in the first rows slots, one level down on the chain's scale.

use numpy::{Complex64, PyReadonlyArray2};
use rnsfhe::circuits::lintrans::{CkksLinearTransform, Diagonals};

use super::*;

/// A matrix encoded for `CkksContext.matmul` (see the module doc).
#[pyclass(frozen, module = "rnsfhe", name = "CkksMatrix")]
pub(crate) struct PyCkksMatrix {
    pub(crate) transform: Arc<CkksLinearTransform>,
    pub(crate) shape: (usize, usize),
    pub(crate) shared: Arc<CkksShared>,
}

#[pymethods]
impl PyCkksMatrix {
    /// (rows, cols) of the matrix.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        self.shape
    }
    /// The level of the vectors it multiplies (the product is one level down).
    #[getter]
    fn level(&self) -> usize {
        self.transform.level()
    }
    /// The slot count of the vectors it multiplies.
    #[getter]
    fn slots(&self) -> usize {
        self.transform.slots()
    }
    /// The rotation steps `matmul` needs Galois keys for (`ctx.galois_keys(sk, steps=...)`).
    #[getter]
    fn rotation_steps(&self) -> Vec<i64> {
        self.transform.rotation_steps()
    }
    fn __repr__(&self) -> String {
        format!(
            "CkksMatrix(shape={:?}, slots={}, level={}, diagonals={})",
            self.shape,
            self.transform.slots(),
            self.transform.level(),
            self.transform.split().rotation_steps().len()
        )
    }
}

/// The rows x cols entries of a 2-D array-like (any numeric dtype, as complex128), row-major.
fn entries(m: &Bound<'_, PyAny>) -> PyResult<(Vec<Complex>, usize, usize)> {
    let np = m.py().import("numpy")?;
    let arr = np
        .call_method1("asarray", (m,))
        .map_err(|e| PyTypeError::new_err(format!("a matrix must be a 2-D array: {e}")))?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if ndim != 2 || !matches!(kind.as_str(), "b" | "i" | "u" | "f" | "c") {
        return Err(PyTypeError::new_err(format!(
            "a matrix must be a 2-D numeric array, got {ndim} dimension(s) of dtype kind {kind:?}"
        )));
    }
    let a: PyReadonlyArray2<Complex64> = arr.call_method1("astype", ("complex128",))?.extract()?;
    let view = a.as_array();
    let (rows, cols) = view.dim();
    let mut out = Vec::with_capacity(rows * cols);
    for ((r, c), z) in view.indexed_iter() {
        if !(z.re.is_finite() && z.im.is_finite()) {
            return Err(raise(
                "OutOfRangeError",
                format!("matrix entry ({r}, {c}) is {z}: entries must be finite"),
            ));
        }
        out.push(Complex::new(z.re, z.im));
    }
    Ok((out, rows, cols))
}

/// The Halevi-Shoup diagonals of the rows x cols matrix `m` padded to slots x slots: entry (r, c)
/// goes to diagonal (c - r) mod slots at position r; all-zero diagonals are left out.
fn diagonals(m: &[Complex], rows: usize, cols: usize, slots: usize) -> Diagonals<Complex> {
    let mut diags: Diagonals<Complex> = Diagonals::new();
    for r in 0..rows {
        for c in 0..cols {
            let z = m[r * cols + c];
            if z.re != 0.0 || z.im != 0.0 {
                let k = (c + slots - r) % slots;
                diags
                    .entry(k)
                    .or_insert_with(|| vec![Complex::new(0.0, 0.0); slots])[r] = z;
            }
        }
    }
    diags
}

impl PyCkksMatrix {
    /// `m` encoded for vectors of `slots` slots (default: the smallest power of two holding rows and
    /// cols) at `level` (default: the top) of `shared`'s context.
    pub(crate) fn encode(
        py: Python<'_>,
        shared: &Arc<CkksShared>,
        m: &Bound<'_, PyAny>,
        level: Option<usize>,
        slots: Option<usize>,
    ) -> PyResult<Self> {
        let ctx = shared.ctx.clone();
        let (m, rows, cols) = entries(m)?;
        let need = rows.max(cols).max(1).next_power_of_two();
        let slots = slots.unwrap_or(need);
        if rows == 0 || cols == 0 || slots < rows.max(cols) || slots > ctx.slots() {
            return Err(raise(
                "LengthMismatchError",
                format!(
                    "a {rows} x {cols} matrix on {slots} slots: rows and cols must be 1..=slots, \
                     slots a power of two up to N/2 = {}",
                    ctx.slots()
                ),
            ));
        }
        let diags = diagonals(&m, rows, cols, slots);
        if diags.is_empty() {
            return Err(PyValueError::new_err(
                "the zero matrix: its product is the zero vector (encrypt zeros instead)",
            ));
        }
        let level = level.unwrap_or(ctx.max_level());
        let transform = py
            .detach(|| CkksLinearTransform::new(&ctx, &diags, level, slots))
            .py()?;
        Ok(PyCkksMatrix {
            transform: Arc::new(transform),
            shape: (rows, cols),
            shared: shared.clone(),
        })
    }
}
