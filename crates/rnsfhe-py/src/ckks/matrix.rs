//! Plaintext matrices for encrypted vectors: `CkksContext.matrix(M, batch=B, layout=...)` encodes a
//! rows x cols matrix (real or complex) once, as the Halevi-Shoup diagonals of the slots x slots
//! matrix that applies M to each of B vectors where the layout puts them
//! (`rnsfhe::circuits::matrix::MatrixPacking`: "rows", vector j in slots [j stride, j stride +
//! stride), a row-major (B, stride) array, the default since a ciphertext of `X.ravel()` is one; or
//! "interleaved", entry c of vector j at slot c B + j, which needs n diagonals where "rows" needs
//! 2n - 1); `CkksContext.matmul(x, matrix)` evaluates them by the core's hoisted baby-step
//! giant-step. `CkksMatrix.pack` / `unpack` move a (B, cols) array into the layout and the (B, rows)
//! result out of the decrypted slots.

use numpy::{Complex64, PyReadonlyArray2};
use rnsfhe::circuits::lintrans::CkksLinearTransform;
use rnsfhe::circuits::matrix::{BatchLayout, MatrixPacking};

use super::*;

/// A matrix encoded for `CkksContext.matmul` (see the module doc).
#[pyclass(frozen, module = "rnsfhe", name = "CkksMatrix")]
pub(crate) struct PyCkksMatrix {
    pub(crate) transform: Arc<CkksLinearTransform>,
    pub(crate) shape: (usize, usize),
    pub(crate) packing: MatrixPacking,
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
    /// The number of vectors per ciphertext.
    #[getter]
    fn batch(&self) -> usize {
        self.packing.batch()
    }
    /// "rows" or "interleaved".
    #[getter]
    fn layout(&self) -> &'static str {
        match self.packing.layout() {
            BatchLayout::Rows { .. } => "rows",
            BatchLayout::Interleaved => "interleaved",
        }
    }
    /// The slots each vector owns: the stride of "rows", slots / batch "interleaved".
    #[getter]
    fn stride(&self) -> usize {
        self.packing.vector_len()
    }
    /// The rotation steps `matmul` needs Galois keys for (`ctx.galois_keys(sk, steps=...)`).
    #[getter]
    fn rotation_steps(&self) -> Vec<i64> {
        self.transform.rotation_steps()
    }
    /// The slot values of a (batch, cols) array (or, for batch 1, a vector of cols) in this
    /// matrix's layout, zeros elsewhere: `ctx.encrypt(mat.pack(X), pk)`. Float64 for real input,
    /// complex128 for complex.
    fn pack<'py>(&self, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = x.py();
        let (b, cols) = (self.packing.batch(), self.shape.1);
        let arr = py.import("numpy")?.call_method1("asarray", (x,))?;
        let ndim: usize = arr.getattr("ndim")?.extract()?;
        let arr = if ndim == 1 && b == 1 {
            arr.call_method1("reshape", ((1, -1),))?
        } else {
            arr
        };
        let (v, complex, shape) = entries(&arr, "vectors to pack")?;
        if shape != (b, cols) {
            return Err(raise(
                "LengthMismatchError",
                format!(
                    "pack takes the {b} vectors of {cols} entries the matrix multiplies, a ({b}, \
                     {cols}) array; got {shape:?}"
                ),
            ));
        }
        let out = self.packing.pack(&v, b, cols).py()?;
        Ok(slots_array(py, &out, complex))
    }
    /// The (batch, rows) products out of the decrypted slots of `matmul`'s result
    /// (`ctx.decrypt(y, sk)`), the inverse of `pack`; the dtype of `values`.
    fn unpack<'py>(&self, values: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = values.py();
        let v = complex_values(values)?;
        let kind: String = py
            .import("numpy")?
            .call_method1("asarray", (values,))?
            .getattr("dtype")?
            .getattr("kind")?
            .extract()?;
        let out = self.packing.unpack(&v, self.shape.0).py()?;
        slots_array(py, &out, kind == "c")
            .call_method1("reshape", ((self.packing.batch(), self.shape.0),))
    }
    fn __repr__(&self) -> String {
        format!(
            "CkksMatrix(shape={:?}, batch={}, layout={:?}, slots={}, level={}, rotations={})",
            self.shape,
            self.packing.batch(),
            self.layout(),
            self.transform.slots(),
            self.transform.level(),
            self.transform.rotation_steps().len()
        )
    }
}

/// The entries of a 2-D array-like (any numeric dtype, as complex128), row-major, whether its dtype
/// is complex, and its shape; `what` names it in errors.
pub(crate) fn entries(
    m: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(Vec<Complex>, bool, (usize, usize))> {
    let np = m.py().import("numpy")?;
    let arr = np
        .call_method1("asarray", (m,))
        .map_err(|e| PyTypeError::new_err(format!("{what} must be a 2-D array: {e}")))?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if ndim != 2 || !matches!(kind.as_str(), "b" | "i" | "u" | "f" | "c") {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a 2-D numeric array, got {ndim} dimension(s) of dtype kind {kind:?}"
        )));
    }
    let a: PyReadonlyArray2<Complex64> = arr.call_method1("astype", ("complex128",))?.extract()?;
    let view = a.as_array();
    let out = view.iter().map(|z| Complex::new(z.re, z.im)).collect();
    Ok((out, kind == "c", view.dim()))
}

impl PyCkksMatrix {
    /// `m` encoded for `batch` vectors laid out as `layout` ("rows" with `stride`, default max(rows,
    /// cols); "interleaved") in `slots` slots (default: the smallest power of two holding them) at
    /// `level` (default: the top) of `shared`'s context.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn encode(
        py: Python<'_>,
        shared: &Arc<CkksShared>,
        m: &Bound<'_, PyAny>,
        level: Option<usize>,
        slots: Option<usize>,
        batch: usize,
        layout: &str,
        stride: Option<usize>,
    ) -> PyResult<Self> {
        let ctx = shared.ctx.clone();
        let (m, _, (rows, cols)) = entries(m, "a matrix")?;
        let widest = rows.max(cols).max(1);
        let (layout, need) =
            match (layout, stride) {
                ("rows", s) => {
                    let s = s.unwrap_or(widest);
                    (BatchLayout::Rows { stride: s }, batch.saturating_mul(s))
                }
                ("interleaved", None) => (
                    BatchLayout::Interleaved,
                    batch.saturating_mul(widest.next_power_of_two()),
                ),
                ("interleaved", Some(_)) => return Err(PyValueError::new_err(
                    "stride is the rows layout's: an interleaved vector owns slots / batch slots",
                )),
                (other, _) => {
                    return Err(PyValueError::new_err(format!(
                        "layout must be \"rows\" or \"interleaved\", got {other:?}"
                    )))
                }
            };
        let slots = slots.unwrap_or(need.max(1).next_power_of_two());
        if slots > ctx.slots() {
            return Err(raise(
                "LengthMismatchError",
                format!(
                    "a {rows} x {cols} matrix for {batch} vector(s) needs {slots} slots, more than \
                     the N/2 = {} the parameters have",
                    ctx.slots()
                ),
            ));
        }
        let packing = MatrixPacking::new(slots, batch, layout).py()?;
        let level = level.unwrap_or(ctx.max_level());
        let transform = py
            .detach(|| packing.transform(&ctx, &m, rows, cols, level))
            .py()?;
        Ok(PyCkksMatrix {
            transform: Arc::new(transform),
            shape: (rows, cols),
            packing,
            shared: shared.clone(),
        })
    }
}
