//! Encrypted matrices times encrypted matrices: `CkksContext.matrix_product(d)` (or `(d1, d2, d3)`)
//! encodes the transforms of Jiang, Kim, Lauter and Song's product (ACM CCS 2018, sections 3 and 4;
//! `rnsfhe::circuits::matrix::EncryptedMatrixProduct`) once, for ciphertexts of one slot count at
//! one level; `CkksContext.matmul_encrypted(a, b, product)` multiplies two ciphertexts holding the
//! matrices row-major with stride d = max(d1, d2, d3) (`pack`), three levels down.

use rnsfhe::circuits::matrix::EncryptedMatrixProduct;

use super::matrix::entries;
use super::*;

/// The encoded transforms of an encrypted d x d matrix product (see the module doc).
#[pyclass(frozen, module = "rnsfhe", name = "CkksMatrixProduct")]
pub(crate) struct PyCkksMatrixProduct {
    pub(crate) product: Arc<EncryptedMatrixProduct>,
    pub(crate) shared: Arc<CkksShared>,
}

#[pymethods]
impl PyCkksMatrixProduct {
    /// The padded dimension d = max(d1, d2, d3): every matrix is row-major with stride d.
    #[getter]
    fn d(&self) -> usize {
        self.product.dimension()
    }
    /// (d1, d2, d3): A is d1 x d2, B d2 x d3.
    #[getter]
    fn shape(&self) -> (usize, usize, usize) {
        self.product.shape()
    }
    /// The level of the inputs (the product is 3 levels down).
    #[getter]
    fn level(&self) -> usize {
        self.product.level()
    }
    /// The slot count of the inputs (at least d^2).
    #[getter]
    fn slots(&self) -> usize {
        self.product.slots()
    }
    /// The rotation steps `matmul_encrypted` needs Galois keys for.
    #[getter]
    fn rotation_steps(&self) -> Vec<i64> {
        self.product.rotation_steps()
    }
    /// The slot values of A (d1 x d2) or B (d2 x d3): row-major with stride d, zeros elsewhere
    /// (`ctx.encrypt(p.pack(A), pk)`). Float64 for real input, complex128 for complex.
    fn pack<'py>(&self, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (d1, d2, d3) = self.product.shape();
        let (v, complex, (rows, cols)) = entries(a, "a matrix to pack")?;
        if (rows, cols) != (d1, d2) && (rows, cols) != (d2, d3) {
            return Err(raise(
                "LengthMismatchError",
                format!(
                    "pack takes A ({d1} x {d2}) or B ({d2} x {d3}), got a {rows} x {cols} matrix"
                ),
            ));
        }
        let mut out = vec![Complex::new(0.0, 0.0); self.product.slots()];
        for i in 0..rows {
            for j in 0..cols {
                out[self.product.slot(i, j)] = v[i * cols + j];
            }
        }
        Ok(slots_array(a.py(), &out, complex))
    }
    /// The d1 x d3 product out of the decrypted slots of `matmul_encrypted`'s result
    /// (`ctx.decrypt(c, sk)`); the dtype of `values`.
    fn unpack<'py>(&self, values: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (d1, _, d3) = self.product.shape();
        let v = complex_values(values)?;
        let need = self.product.slot(d1 - 1, d3 - 1) + 1;
        if v.len() < need {
            return Err(raise(
                "LengthMismatchError",
                format!(
                    "a {d1} x {d3} product with stride {} takes {need} values, got {}",
                    self.product.dimension(),
                    v.len()
                ),
            ));
        }
        let kind: String = values
            .py()
            .import("numpy")?
            .call_method1("asarray", (values,))?
            .getattr("dtype")?
            .getattr("kind")?
            .extract()?;
        let out: Vec<Complex> = (0..d1 * d3)
            .map(|t| v[self.product.slot(t / d3, t % d3)])
            .collect();
        slots_array(values.py(), &out, kind == "c").call_method1("reshape", ((d1, d3),))
    }
    fn __repr__(&self) -> String {
        format!(
            "CkksMatrixProduct(shape={:?}, slots={}, level={}, rotations={})",
            self.product.shape(),
            self.product.slots(),
            self.product.level(),
            self.product.rotation_steps().len()
        )
    }
}

impl PyCkksMatrixProduct {
    /// The product of `shape` = (d1, d2, d3) matrices for `slots` slots (default: the smallest power
    /// of two holding d^2, d = max(d1, d2, d3)) at `level` (default: the top) of `shared`'s context.
    pub(crate) fn encode(
        py: Python<'_>,
        shared: &Arc<CkksShared>,
        shape: (usize, usize, usize),
        level: Option<usize>,
        slots: Option<usize>,
    ) -> PyResult<Self> {
        let ctx = shared.ctx.clone();
        let d = shape.0.max(shape.1).max(shape.2);
        let slots = slots.unwrap_or(d.saturating_mul(d).max(1).next_power_of_two());
        let level = level.unwrap_or(ctx.max_level());
        let product = py
            .detach(|| EncryptedMatrixProduct::rectangular(&ctx, shape, level, slots))
            .py()?;
        Ok(PyCkksMatrixProduct {
            product: Arc::new(product),
            shared: shared.clone(),
        })
    }

    /// (d1, d2, d3) from d or a 3-tuple.
    pub(crate) fn shape_of(obj: &Bound<'_, PyAny>) -> PyResult<(usize, usize, usize)> {
        if let Ok(d) = obj.extract::<Int<usize>>() {
            return Ok((d.0, d.0, d.0));
        }
        obj.extract::<(Int<usize>, Int<usize>, Int<usize>)>()
            .map(|(a, b, c)| (a.0, b.0, c.0))
            .map_err(|_| {
                PyTypeError::new_err(
                    "a matrix product takes d (d x d matrices) or (d1, d2, d3) (d1 x d2 by d2 x d3)",
                )
            })
    }
}
