//! The BGV classes: context, plaintext and ciphertext from the shared integer-scheme layer
//! (`integer_scheme!`), with BGV's decryption, noise budget and modulus switching.

use super::*;

crate::integer::integer_scheme! {
    "BGV";
    /// A BGV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
    /// parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
    /// reproducible (tests only). With the parameters' default `modulus_switching="auto"` the
    /// products (`multiply`, `square`, `*`, `**`) switch the modulus as the chain needs and sums and
    /// products align the levels of their operands; with `"manual"`, `mod_switch` does it by hand.
    class PyBgvContext("BgvContext", Bgv, BgvShared, BgvContext);
    params PyBgvParameters(BgvParameters);
    plaintext PyBgvPlaintext("BgvPlaintext", BgvPlaintext);
    ciphertext PyBgvCiphertext("BgvCiphertext", BgvCiphertext);
    context methods {
        /// The top level L of fresh ciphertexts.
        #[getter]
        fn max_level(&self) -> usize {
            self.ctx().max_level()
        }
        /// Decrypts to a plaintext: [[c(s)]_q]_t. A ciphertext whose noise may have wrapped past q/2
        /// raises `NoiseBudgetExhaustedError` instead of decrypting to wrong values.
        fn decrypt_plaintext(
            &self,
            py: Python<'_>,
            ct: &PyBgvCiphertext,
            sk: &PySecretKey,
        ) -> PyResult<PyBgvPlaintext> {
            let (c, s) = (self.check(ct)?, sk.get(&self.owner())?);
            let ctx = self.ctx().clone();
            Ok(self.plaintext(py.detach(|| ctx.decrypt(&c, &s)).py()?))
        }
        /// Decrypts and decodes the slots (see `decode`).
        #[pyo3(signature = (ct, sk, *, signed=false, coefficients=false))]
        fn decrypt<'py>(
            &self,
            py: Python<'py>,
            ct: &PyBgvCiphertext,
            sk: &PySecretKey,
            signed: bool,
            coefficients: bool,
        ) -> PyResult<Bound<'py, PyAny>> {
            let pt = self.decrypt_plaintext(py, ct, sk)?;
            self.decode(py, &pt, signed, coefficients)
        }
        /// Remaining noise budget in bits. 0 when the ciphertext may no longer decrypt correctly: the
        /// measured noise or the noise bound the ciphertext carries reached the limit (a ciphertext
        /// loaded from bytes carries no bound and is judged by the measurement alone).
        fn noise_budget(&self, py: Python<'_>, ct: &PyBgvCiphertext, sk: &PySecretKey) -> PyResult<u32> {
            let (c, s) = (self.check(ct)?, sk.get(&self.owner())?);
            let ctx = self.ctx().clone();
            Ok(py.detach(|| ctx.noise_budget(&c, &s)).py()?.floor() as u32)
        }
        /// Modulus switching one level down (Bajard et al. (SAC 2017) Lemma 3): the same message, the noise divided
        /// by the dropped prime. Raises `LevelMismatchError` at level 0. Available in both modes
        /// (`modulus_switching="auto"` switches before products by itself).
        fn mod_switch(&self, py: Python<'_>, a: &PyBgvCiphertext) -> PyResult<PyBgvCiphertext> {
            self.unary(py, a, |c, x| c.mod_switch(x))
        }
        /// Modulus switching down to `level`.
        fn mod_switch_to_level(
            &self,
            py: Python<'_>,
            a: &PyBgvCiphertext,
            level: Int<usize>,
        ) -> PyResult<PyBgvCiphertext> {
            let level = level.0;
            self.unary(py, a, move |c, x| c.mod_switch_to_level(x, level))
        }
    }
    ciphertext methods {
        /// The level l (moduli q_0..q_l); fresh ciphertexts are at the top level.
        #[getter]
        fn level(&self) -> usize {
            self.ct.level()
        }
        /// `ctx.mod_switch(self)`: one level down, the same message.
        fn mod_switch(&self, py: Python<'_>) -> PyResult<PyBgvCiphertext> {
            let (ctx, x) = (self.ctx().clone(), self.ct.clone());
            Ok(self.wrap(py.detach(|| ctx.mod_switch(&x)).py()?))
        }
        fn __repr__(&self) -> String {
            format!(
                "BgvCiphertext(size={}, level={}, {})",
                self.ct.size(),
                self.ct.level(),
                self.shared.label
            )
        }
    }
}
