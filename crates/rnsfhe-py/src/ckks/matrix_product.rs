//! Encrypted matrices times encrypted matrices: `CkksContext.matrix_product(d)` encodes the
//! transforms of Jiang, Kim, Lauter and Song's d x d product (ACM CCS 2018;
//! `rnsfhe::circuits::matrix::EncryptedMatrixProduct`) once, for ciphertexts of one slot count at
//! one level; `CkksContext.matmul_encrypted(a, b, product)` multiplies two ciphertexts holding d x d
//! matrices row-major in their first d^2 slots, three levels down.

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
    /// The matrix dimension d.
    #[getter]
    fn d(&self) -> usize {
        self.product.dimension()
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
    /// A d x d array's slot values: row-major, zero-padded to `slots` (`ctx.encrypt(p.pack(A), pk)`).
    fn pack<'py>(&self, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let d = self.product.dimension();
        let (mut v, complex, shape) = entries(a, "a matrix to pack")?;
        if shape != (d, d) {
            return Err(raise(
                "LengthMismatchError",
                format!("pack takes a {d} x {d} matrix, got {shape:?}"),
            ));
        }
        v.resize(self.product.slots(), Complex::new(0.0, 0.0));
        Ok(slots_array(a.py(), &v, complex))
    }
    /// The d x d matrix in the first d^2 of the decrypted slots (`ctx.decrypt(c, sk)`).
    fn unpack<'py>(&self, values: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let d = self.product.dimension();
        let arr = values
            .py()
            .import("numpy")?
            .call_method1("asarray", (values,))?;
        let len: usize = arr.getattr("size")?.extract()?;
        if len < d * d {
            return Err(raise(
                "LengthMismatchError",
                format!("a {d} x {d} matrix takes {} values, got {len}", d * d),
            ));
        }
        arr.call_method1("ravel", ())?
            .get_item(pyo3::types::PySlice::new(
                values.py(),
                0,
                (d * d) as isize,
                1,
            ))?
            .call_method1("reshape", ((d, d),))
    }
    fn __repr__(&self) -> String {
        format!(
            "CkksMatrixProduct(d={}, slots={}, level={}, rotations={})",
            self.product.dimension(),
            self.product.slots(),
            self.product.level(),
            self.product.rotation_steps().len()
        )
    }
}

impl PyCkksMatrixProduct {
    /// The product of d x d matrices for `slots` slots (default: the smallest power of two holding
    /// d^2) at `level` (default: the top) of `shared`'s context.
    pub(crate) fn encode(
        py: Python<'_>,
        shared: &Arc<CkksShared>,
        d: usize,
        level: Option<usize>,
        slots: Option<usize>,
    ) -> PyResult<Self> {
        let ctx = shared.ctx.clone();
        let slots = slots.unwrap_or(d.saturating_mul(d).max(1).next_power_of_two());
        let level = level.unwrap_or(ctx.max_level());
        let product = py
            .detach(|| EncryptedMatrixProduct::new(&ctx, d, level, slots))
            .py()?;
        Ok(PyCkksMatrixProduct {
            product: Arc::new(product),
            shared: shared.clone(),
        })
    }
}
