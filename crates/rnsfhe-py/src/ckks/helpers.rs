//! The Rust-side helpers of the CKKS context class beyond the shared ones of `rlwe_context!`: the
//! plaintext of an operand (the Python methods are in `context.rs`).

use super::*;

impl PyCkksContext {
    /// A plaintext given, or values encoded for encryption (top level, default scale).
    pub(crate) fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<CkksPlaintext>> {
        self.plain_at(x, self.ctx().max_level(), self.ctx().params().scale())
    }
    /// A plaintext given, or values encoded at `level` and `scale`.
    pub(crate) fn plain_at(
        &self,
        x: &Bound<'_, PyAny>,
        level: usize,
        scale: f64,
    ) -> PyResult<Arc<CkksPlaintext>> {
        if let Ok(p) = x.cast::<PyCkksPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(p.get().pt.clone());
        }
        let v = complex_values(x)?;
        Ok(Arc::new(self.ctx().encode_at(&v, level, scale).py()?))
    }
}
