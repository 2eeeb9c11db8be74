//! The Rust-side helpers of the CKKS context class: operand checks, key lookup by key pair, wrapping
//! results, running an operation without the GIL (the Python methods are in `context.rs`).

use super::*;

impl PyCkksContext {
    pub(crate) fn owner(&self) -> Owner {
        Owner::Ckks(self.shared.clone())
    }
    pub(crate) fn ctx(&self) -> &Arc<CkksContext> {
        &self.shared.ctx
    }
    pub(crate) fn wrap(&self, ct: CkksCiphertext) -> PyCkksCiphertext {
        PyCkksCiphertext {
            shared: self.shared.clone(),
            ct: Arc::new(ct),
        }
    }
    pub(crate) fn check(&self, c: &PyCkksCiphertext) -> PyResult<Arc<CkksCiphertext>> {
        same(&c.shared, &self.shared, "ciphertext")?;
        Ok(c.ct.clone())
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
    /// The relinearisation key passed, or the one registered for key pair `key`.
    pub(crate) fn rlk(
        &self,
        k: Option<&PyRelinKey>,
        what: &str,
        key: Option<rnsfhe::rlwe::KeyId>,
    ) -> PyResult<Arc<rnsfhe::rlwe::RelinKey>> {
        keys::relin_key(k, &self.owner(), &self.shared, what, key)
    }
    /// The Galois keys passed, or the ones registered for key pair `key`.
    pub(crate) fn gk(
        &self,
        k: Option<&PyGaloisKeys>,
        what: &str,
        key: Option<rnsfhe::rlwe::KeyId>,
    ) -> PyResult<Arc<rnsfhe::rlwe::GaloisKeys>> {
        keys::galois_keys(k, &self.owner(), &self.shared, what, key)
    }
    pub(crate) fn from_shared(shared: Arc<CkksShared>) -> PyResult<Self> {
        Ok(PyCkksContext {
            shared,
            rng: LockedRng::new(None)?,
        })
    }
    /// Runs `f` on the context and one ciphertext without the GIL.
    pub(crate) fn unary(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        f: impl FnOnce(&CkksContext, &CkksCiphertext) -> rnsfhe::Result<CkksCiphertext> + Send,
    ) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        let ctx = self.ctx().clone();
        Ok(self.wrap(py.detach(|| f(&ctx, &x)).py()?))
    }
}
