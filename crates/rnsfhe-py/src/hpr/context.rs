//! HprContext: the shared context layer (`scheme_context!`) with HPR's own methods: its evaluation
//! keys (per-residue or per-digit relinearisation, rotations and slot sums), batch encoding,
//! decryption by Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1 with the noise check, and slot sums.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::hpr::{HprCiphertext, HprContext, HprParameters, Relinearization};
use rnsfhe::params::Security;

use super::keys::{PyHprGaloisKeys, PyHprPublicKey, PyHprRelinKey, PyHprSecretKey};
use super::plain::{encode, plain, PyHprPlaintext};
use super::values::PyHprCiphertext;
use super::{same, HprShared, PyHprParameters};
use crate::convert::{i64_array, ints, type_name, ByteData, Int, LockedRng};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

crate::rlwe_context::scheme_context! {
    /// An HPR-FV context: keys, batch encryption, decryption (Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1) and evaluation.
    /// `seed` (32 bytes) makes key generation and encryption reproducible (tests only).
    class PyHprContext("HprContext", HprShared, HprContext);
    params PyHprParameters(
        HprParameters,
        default HprParameters::new(4096, 65537, 1, 2, 50, 3.2, Security::default())
    );
    plaintext PyHprPlaintext(Vec<u64>);
    ciphertext PyHprCiphertext(HprCiphertext);
    keys PyHprSecretKey, PyHprPublicKey, PyHprRelinKey, PyHprGaloisKeys owned by Arc<HprShared>;
    methods {
        /// Number of batching slots (0 when t does not allow batching).
        #[getter]
        fn slots(&self) -> usize {
            self.shared.extra.as_ref().map_or(0, |e| e.slots())
        }
        /// The relinearisation key of `sk` ("residue": single-digit r_{i,j}, Bajard et al. (HPR-FV, ePrint 2019/500) section 4.1;
        /// "digit": whole digits, Remark 5); also registered for `*` on this key pair's ciphertexts.
        #[pyo3(signature = (sk, relinearization="residue"))]
        fn relin_key(
            &self,
            py: Python<'_>,
            sk: &PyHprSecretKey,
            relinearization: &str,
        ) -> PyResult<PyHprRelinKey> {
            let mode = match relinearization {
                "residue" => Relinearization::PerResidue,
                "digit" => Relinearization::PerDigit,
                other => {
                    return Err(raise(
                        "ParameterError",
                        format!("relinearization {other:?}: use \"residue\" or \"digit\""),
                    ))
                }
            };
            let s = sk.get(&self.shared)?;
            let ctx = self.ctx().clone();
            let k = py.detach(|| self.rng.with(|r| ctx.relin_key(&s, mode, r))).py()?;
            let k: PyHprRelinKey = self.key(k).into();
            self.shared.set_relin_key(k.key.clone())?;
            Ok(k)
        }
        /// Galois keys for row rotations by `steps` (default +1 and -1, or none with `for_sum`)
        /// and the row swap if `columns`; with `for_sum=True`, also the keys `sum_slots` needs (the
        /// union with `steps`). Also registered.
        #[pyo3(signature = (sk, steps=None, *, columns=true, for_sum=false))]
        fn galois_keys(
            &self,
            py: Python<'_>,
            sk: &PyHprSecretKey,
            steps: Option<Vec<Int<i64>>>,
            columns: bool,
            for_sum: bool,
        ) -> PyResult<PyHprGaloisKeys> {
            let enc = self.shared.encoder()?;
            let steps = match steps {
                Some(st) => ints(st),
                None if for_sum => Vec::new(),
                None => vec![1, -1],
            };
            let mut gs: Vec<u64> = steps
                .into_iter()
                .map(|s| enc.galois_element_for_rotation(s))
                .collect();
            if columns && !for_sum {
                gs.push(enc.galois_element_for_row_swap());
            }
            if for_sum {
                // The slot sum's elements include the row swap.
                gs.extend(self.ctx().sum_slots_elements());
            }
            let s = sk.get(&self.shared)?;
            let ctx = self.ctx().clone();
            let k = py.detach(|| self.rng.with(|r| ctx.galois_keys(&s, &gs, r))).py()?;
            let k: PyHprGaloisKeys = self.key(k).into();
            self.shared.set_galois_keys(k.key.clone())?;
            Ok(k)
        }
        /// Batch-encodes integers (|v| < t, negative values mod t) into the slots, or with
        /// `coefficients=True` into the polynomial's coefficients (any t).
        #[pyo3(signature = (values, *, coefficients=false))]
        fn encode(&self, values: &Bound<'_, PyAny>, coefficients: bool) -> PyResult<PyHprPlaintext> {
            Ok(self.plaintext(encode(&self.shared, values, coefficients)?))
        }
        /// The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or, with
        /// `signed=True`, centred in (-t/2, t/2].
        #[pyo3(signature = (pt, *, signed=false, coefficients=false))]
        fn decode<'py>(
            &self,
            py: Python<'py>,
            pt: &PyHprPlaintext,
            signed: bool,
            coefficients: bool,
        ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
            same(&pt.shared, &self.shared, "plaintext")?;
            Ok(i64_array(py, self.shared.decode(&pt.pt, signed, coefficients)?))
        }
        /// Decrypts to a plaintext (Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1). With `check_noise` (default) a ciphertext whose
        /// noise budget is exhausted raises `NoiseBudgetExhaustedError` instead of decrypting to wrong
        /// values.
        #[pyo3(signature = (ct, sk, *, check_noise=true))]
        fn decrypt_plaintext(
            &self,
            py: Python<'_>,
            ct: &PyHprCiphertext,
            sk: &PyHprSecretKey,
            check_noise: bool,
        ) -> PyResult<PyHprPlaintext> {
            let x = self.check(ct)?;
            let s = sk.get(&self.shared)?;
            let ctx = self.ctx().clone();
            let m = py
                .detach(|| {
                    if check_noise {
                        ctx.decrypt_checked(&s, &x)
                    } else {
                        ctx.decrypt(&s, &x)
                    }
                })
                .py()?;
            Ok(self.plaintext(m))
        }
        /// Decrypts and decodes the slots (see `decode`); `check_noise` as in `decrypt_plaintext`.
        #[pyo3(signature = (ct, sk, *, signed=false, coefficients=false, check_noise=true))]
        fn decrypt<'py>(
            &self,
            py: Python<'py>,
            ct: &PyHprCiphertext,
            sk: &PyHprSecretKey,
            signed: bool,
            coefficients: bool,
            check_noise: bool,
        ) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
            let pt = self.decrypt_plaintext(py, ct, sk, check_noise)?;
            self.decode(py, &pt, signed, coefficients)
        }
        /// Remaining noise budget in bits (exact). 0 when the ciphertext may no longer decrypt
        /// correctly: the measured noise or the noise bound the ciphertext carries reached the limit (a
        /// ciphertext loaded from bytes carries no bound and is judged by the measurement alone).
        fn noise_budget(&self, py: Python<'_>, ct: &PyHprCiphertext, sk: &PyHprSecretKey) -> PyResult<u32> {
            let (x, s) = (self.check(ct)?, sk.get(&self.shared)?);
            let ctx = self.ctx().clone();
            py.detach(|| ctx.noise_budget(&s, &x)).py()
        }
        /// Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`, or the
        /// registered ones).
        #[pyo3(signature = (a, keys=None))]
        fn sum_slots(
            &self,
            py: Python<'_>,
            a: &PyHprCiphertext,
            keys: Option<&PyHprGaloisKeys>,
        ) -> PyResult<PyHprCiphertext> {
            let k = self.gk(keys, "sum_slots", a.ct.id())?;
            self.unary(py, a, |ctx, x| ctx.sum_slots(x, &k))
        }
        /// Relinearises a 3-part ciphertext (section 4.1) with `relin_key` or the registered one.
        #[pyo3(signature = (a, relin_key=None))]
        fn relinearize(
            &self,
            py: Python<'_>,
            a: &PyHprCiphertext,
            relin_key: Option<&PyHprRelinKey>,
        ) -> PyResult<PyHprCiphertext> {
            let k = self.rlk(relin_key, "relinearize", a.ct.id())?;
            self.unary(py, a, |ctx, x| ctx.relinearize(x, &k))
        }
    }
}

impl PyHprContext {
    /// What HPR's key classes check against: the shared context itself.
    pub(crate) fn owner(&self) -> Arc<HprShared> {
        self.shared.clone()
    }
    /// The plaintext of `x`: an HprPlaintext of this context, or integers to batch.
    pub(crate) fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<Vec<u64>>> {
        plain(&self.shared, x)
    }
}
