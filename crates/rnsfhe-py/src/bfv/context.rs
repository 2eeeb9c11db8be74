//! The BFV classes: context, plaintext and ciphertext from the shared integer-scheme layer
//! (`integer_scheme!`), with BFV's own decryption methods, noise budget and depth bound.

use super::*;

crate::integer::integer_scheme! {
    "BFV";
    /// A BFV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
    /// parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
    /// reproducible (tests only).
    class PyBfvContext("BfvContext", Bfv, BfvShared, BfvContext);
    params PyBfvParameters(BfvParameters);
    plaintext PyBfvPlaintext("BfvPlaintext", BfvPlaintext);
    ciphertext PyBfvCiphertext("BfvCiphertext", BfvCiphertext);
    context methods {
        /// The multiplicative depth that bound (20) of Bajard et al. (SAC 2016) guarantees (a worst case).
        #[getter]
        fn worst_case_depth(&self) -> u32 {
            self.ctx().depth_inputs().depth()
        }
        /// Decrypts to a plaintext, by the parameters' default method or `method` ("gamma",
        /// "power_of_two_gamma", "floating_point", "hps"). With `check_noise` (default) a ciphertext
        /// whose noise budget is exhausted raises `NoiseBudgetExhaustedError` instead of decrypting to
        /// wrong values.
        #[pyo3(signature = (ct, sk, *, method=None, check_noise=true))]
        fn decrypt_plaintext(
            &self,
            py: Python<'_>,
            ct: &PyBfvCiphertext,
            sk: &PySecretKey,
            method: Option<&str>,
            check_noise: bool,
        ) -> PyResult<PyBfvPlaintext> {
            let c = self.check(ct)?;
            let s = sk.get(&self.owner())?;
            let ctx = self.ctx().clone();
            let d = match method {
                None => None,
                Some(m) => Some(decryption(m)?),
            };
            let pt = py
                .detach(|| match (check_noise, d) {
                    (true, d) => ctx.decrypt_checked(&c, &s, d.unwrap_or(ctx.params().decryption())),
                    // The default method: `decrypt`'s modulus switch first where it pays.
                    (false, None) => ctx.decrypt(&c, &s),
                    (false, Some(d)) => ctx.decrypt_with(&c, &s, d),
                })
                .py()?;
            Ok(self.plaintext(pt))
        }
        /// Decrypts and decodes the slots (see `decode`); `method` and `check_noise` as in
        /// `decrypt_plaintext`.
        #[pyo3(signature = (ct, sk, *, method=None, signed=false, coefficients=false, check_noise=true))]
        #[allow(clippy::too_many_arguments)]
        fn decrypt<'py>(
            &self,
            py: Python<'py>,
            ct: &PyBfvCiphertext,
            sk: &PySecretKey,
            method: Option<&str>,
            signed: bool,
            coefficients: bool,
            check_noise: bool,
        ) -> PyResult<Bound<'py, PyAny>> {
            let pt = self.decrypt_plaintext(py, ct, sk, method, check_noise)?;
            self.decode(py, &pt, signed, coefficients)
        }
        /// Remaining noise budget in bits. 0 when the ciphertext may no longer decrypt correctly: the
        /// measured noise or the noise bound the ciphertext carries reached the limit (a ciphertext
        /// loaded from bytes carries no bound and is judged by the measurement alone).
        fn noise_budget(&self, py: Python<'_>, ct: &PyBfvCiphertext, sk: &PySecretKey) -> PyResult<u32> {
            let (c, s) = (self.check(ct)?, sk.get(&self.owner())?);
            let ctx = self.ctx().clone();
            py.detach(|| ctx.noise_budget(&c, &s)).py()
        }
    }
    ciphertext methods {
        fn __repr__(&self) -> String {
            format!("BfvCiphertext(size={}, {})", self.ct.size(), self.shared.label)
        }
    }
}
