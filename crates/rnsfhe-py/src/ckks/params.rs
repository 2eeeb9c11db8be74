//! The Ckks parameter class.

use super::*;

crate::rlwe_params::rlwe_params! {
    /// CKKS parameters (Cheon et al. (SAC 2018)): ring degree N, L levels of `scale_bits`-bit primes close to
    /// 2^scale_bits (the approximate basis), q_0 of `first_modulus_bits`, special primes for key switching
    /// (default, with `digit_primes` unset: 3 digits and as many special primes as a digit has primes,
    /// within the security bound; more digits where the bound needs it; the special primes have 49 bits
    /// where P stays 2^8 above the widest digit, else 60). `first_modulus_bits` defaults to 60;
    /// `layout="narrow"` makes q_0 and P 49 bits (every prime below 2^50, for AVX-512 IFMA CPUs).
    /// `chain_bits` gives the widths of q_0, q_1, ..., q_L instead (bottom first, each 20..=61: the
    /// chains of bootstrapping, whose top levels want wider primes), overriding `levels` and
    /// `first_modulus_bits`; `scale_level` is the level R whose scale is 2^scale_bits (default: the
    /// top level; the others follow, see `CkksContext.scale_at`).
    class PyCkksParameters("CkksParameters", CkksParameters, CkksContext, CkksShared);
    moduli moduli, special special_moduli;
    methods {
        #[new]
        #[pyo3(signature = (degree=Int(16384), levels=Int(5), scale_bits=Int(40), *,
            first_modulus_bits=None, special_moduli_bits=None, sigma=None, hamming_weight=None, digit_primes=None, security=None,
            layout=None, chain_bits=None, scale_level=None))]
        #[allow(clippy::too_many_arguments)]
        fn new(
            degree: Int<usize>,
            levels: Int<usize>,
            scale_bits: Int<u32>,
            first_modulus_bits: Option<Int<u32>>,
            special_moduli_bits: Option<Vec<Int<u32>>>,
            sigma: Option<f64>,
            hamming_weight: Option<Int<usize>>,
            digit_primes: Option<Int<usize>>,
            security: Option<&Bound<'_, PyAny>>,
            layout: Option<&str>,
            chain_bits: Option<Vec<Int<u32>>>,
            scale_level: Option<Int<usize>>,
        ) -> PyResult<Self> {
            let mut b = CkksParameters::builder()
                .degree(degree.0)
                .levels(levels.0)
                .scale_bits(scale_bits.0)
                .security(crate::convert::security(security)?);
            if let Some(bits) = first_modulus_bits {
                b = b.first_modulus_bits(bits.0);
            }
            if let Some(bits) = chain_bits {
                b = b.chain_bits(bits.into_iter().map(|x| x.0).collect());
            }
            if let Some(r) = scale_level {
                b = b.scale_level(r.0);
            }
            crate::rlwe_params::builder_options!(b; special_moduli_bits: special_moduli_bits,
                sigma: sigma, hamming_weight: hamming_weight, digit_primes: digit_primes,
                layout: layout);
            Ok(b.build().py()?.into())
        }

        /// Bootstrappable parameters: the 128-bit preset at N = 2^16 (`logn=16`: 2^15
        /// slots, 10 residual levels of 40 bits, dense ternary secret with sparse-secret
        /// encapsulation), or, with `security="insecure"`, the small INSECURE presets at
        /// `logn` 11..13 for tests and notebooks (2 residual levels of 45 bits). `slots` (a power of
        /// two: sparse packing below N/2), `residual_levels` and `scale_bits` override the preset's;
        /// `secret` is "ternary" or a Hamming weight. `meta_bts` (True, or k in 1..=40): META-BTS, a
        /// second bootstrap of the first one's residual scaled by 2^k (Bae et al., CCS 2022), on its
        /// own preset at N = 2^16 (residual scale 2^53, 6 residual levels dense, 4 with
        /// `secret=192`, the one that reaches 40 bits); at the toy presets k = 20 and the chain's
        /// prime above the residual levels reserved. Checked by the security gate. The parameters
        /// carry the preset (in `to_bytes`, pickles, equality and repr), and so does a context of
        /// them: two presets of one chain make two contexts.
        #[staticmethod]
        #[pyo3(signature = (slots=None, residual_levels=None, scale_bits=None, *, security=None,
            secret=None, logn=Int(16), meta_bts=None))]
        fn bootstrappable(
            slots: Option<Int<usize>>,
            residual_levels: Option<Int<usize>>,
            scale_bits: Option<Int<u32>>,
            security: Option<&Bound<'_, PyAny>>,
            secret: Option<&Bound<'_, PyAny>>,
            logn: Int<u32>,
            meta_bts: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            super::bootstrap::bootstrappable(
                slots.map(|x| x.0),
                residual_levels.map(|x| x.0),
                scale_bits.map(|x| x.0),
                security,
                secret,
                meta_bts,
                logn.0,
            )
        }
        #[getter]
        fn levels(&self) -> usize {
            self.inner.levels()
        }
        #[getter]
        fn scale_bits(&self) -> u32 {
            self.inner.scale_bits()
        }
        /// The scale 2^scale_bits of the scale level (the top level by default).
        #[getter]
        fn scale(&self) -> f64 {
            self.inner.scale()
        }
        /// The level R whose scale is 2^scale_bits.
        #[getter]
        fn scale_level(&self) -> usize {
            self.inner.scale_level()
        }
        /// The widths of q_0, q_1, ..., q_L (log2 q rounded).
        #[getter]
        fn chain_bits(&self) -> Vec<u32> {
            self.inner.chain_bits()
        }
        /// The approximate basis' eta: |q_j / 2^bits_j - 1| < 2^-eta for every q_j, j >= 1, bits_j
        /// its width (`chain_bits`).
        #[getter]
        fn eta(&self) -> u32 {
            self.inner.eta()
        }
        /// log2 of Q P, the quantity the security bound limits.
        #[getter]
        fn log_qp(&self) -> f64 {
            self.inner.log_qp()
        }
    }
}

pub(crate) fn label(p: &CkksParameters) -> String {
    format!(
        "CkksParameters(degree={}, levels={}, scale_bits={}, log_qp={:.1}, security={})",
        p.degree(),
        p.levels(),
        p.scale_bits(),
        p.log_qp(),
        security_out(p.security())
    )
}
