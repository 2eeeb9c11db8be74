//! The Bfv parameter class.

use super::*;

pub(crate) fn multiplication(name: &str) -> PyResult<Multiplication> {
    match name {
        "hps" => Ok(Multiplication::Hps),
        "behz" => Ok(Multiplication::Behz),
        _ => Err(raise(
            "ParameterError",
            format!(
                "multiplication must be \"hps\" or \"behz\", got {name:?} (HPR-FV has its own \
                 parameter class: rnsfhe.HprParameters)"
            ),
        )),
    }
}

pub(crate) fn decryption(name: &str) -> PyResult<Decryption> {
    match name {
        "gamma" | "alg1" => Ok(Decryption::Gamma),
        "power_of_two_gamma" | "lemma3" => Ok(Decryption::PowerOfTwoGamma),
        "floating_point" | "flp" => Ok(Decryption::FloatingPoint),
        "hps" => Ok(Decryption::Hps),
        _ => Err(raise(
            "ParameterError",
            format!(
                "decryption must be \"gamma\" (Bajard et al. (SAC 2016) Alg. 1), \"power_of_two_gamma\" (Lemma 3), \
                 \"floating_point\" (DecRNS-flp) or \"hps\", got {name:?}"
            ),
        )),
    }
}

/// "mixed" (Bajard et al. (SAC 2017) section 4.4, the default) or "full" (sections 4 and 4.1: ciphertexts c M).
pub(crate) fn fv_montgomery(name: &str) -> PyResult<FvMontgomery> {
    match name {
        "mixed" => Ok(FvMontgomery::Mixed),
        "full" => Ok(FvMontgomery::Full),
        _ => Err(raise(
            "ParameterError",
            format!("montgomery must be \"mixed\" or \"full\", got {name:?}"),
        )),
    }
}

pub(crate) fn decryption_name(d: Decryption) -> &'static str {
    match d {
        Decryption::Gamma => "gamma",
        Decryption::PowerOfTwoGamma => "power_of_two_gamma",
        Decryption::FloatingPoint => "floating_point",
        Decryption::Hps => "hps",
    }
}

crate::integer::integer_params! {
    /// BFV parameters: ring degree n, plaintext modulus t, ciphertext moduli q_i (chosen for the security
    /// level unless given), the multiplication (HPS or BEHZ) and default decryption methods. For a general
    /// Phi_m (`cyclotomic_index=m`), `reduction="barrett"` (Bajard et al. (SAC 2017) Alg. 1), `"optimized"` (Alg. 2,
    /// default; same results) or `"montgomery"` (the mixed strategy of section 4.4: relinearisation
    /// keys carry M; with `montgomery="full"` the full representation of sections 4 and 4.1:
    /// ciphertexts c M, keys with M^2, a smaller depth); ignored for X^n + 1, as in Rust.
    /// `layout="narrow"` puts every default prime below 2^50 (same log q): about 1.5x faster on CPUs
    /// with AVX-512 IFMA, slower on AVX2-only CPUs (docs/tutorials/parameters.md, "BFV").
    class PyBfvParameters("BfvParameters", BfvParameters, BfvContext, BfvShared);
    methods {
        #[new]
        #[pyo3(signature = (degree=Int(8192), plain_modulus=Int(65537), *, moduli=None, moduli_bits=None,
            special_moduli=None, special_moduli_bits=None, multiplication="hps", decryption=None,
            m_tilde=Some(Int(65536)), sigma=None, hamming_weight=None, digit_primes=None, security=None,
            cyclotomic_index=None, reduction=None, montgomery=None, layout=None))]
        #[allow(clippy::too_many_arguments)]
        fn new(
            degree: Int<usize>,
            plain_modulus: Int<u64>,
            moduli: Option<Vec<Int<u64>>>,
            moduli_bits: Option<Vec<Int<u32>>>,
            special_moduli: Option<Vec<Int<u64>>>,
            special_moduli_bits: Option<Vec<Int<u32>>>,
            multiplication: &str,
            decryption: Option<&str>,
            m_tilde: Option<Int<u64>>,
            sigma: Option<f64>,
            hamming_weight: Option<Int<usize>>,
            digit_primes: Option<Int<usize>>,
            security: Option<&Bound<'_, PyAny>>,
            cyclotomic_index: Option<Int<usize>>,
            reduction: Option<&str>,
            montgomery: Option<&str>,
            layout: Option<&str>,
        ) -> PyResult<Self> {
            let mut b = BfvParameters::builder()
                .degree(degree.0)
                .plain_modulus(plain_modulus.0)
                .multiplication(self::multiplication(multiplication)?)
                .m_tilde(m_tilde.map(|m| m.0))
                .security(crate::convert::security(security)?);
            if let Some(d) = decryption {
                b = b.decryption(self::decryption(d)?);
            }
            if let Some(s) = montgomery {
                b = b.fv_montgomery(self::fv_montgomery(s)?);
            }
            crate::rlwe_params::builder_options!(b; cyclotomic_index: cyclotomic_index,
                reduction: reduction, moduli: moduli,
                moduli_bits: moduli_bits, special_moduli: special_moduli,
                special_moduli_bits: special_moduli_bits, sigma: sigma, hamming_weight: hamming_weight,
                digit_primes: digit_primes, layout: layout);
            Ok(b.build().py()?.into())
        }

        /// Bajard et al. (SAC 2016)'s setting: n, k moduli of `bits` bits, t; BEHZ and Alg. 1 (not security-checked).
        #[staticmethod]
        fn paper000(
            degree: Int<usize>,
            k: Int<usize>,
            bits: Int<u32>,
            plain_modulus: Int<u64>,
        ) -> PyResult<Self> {
            let inner = BfvParameters::paper000(degree.0, k.0, bits.0, plain_modulus.0)
                .build()
                .py()?;
            Ok(inner.into())
        }

        #[getter]
        fn multiplication(&self) -> &'static str {
            match self.inner.multiplication() {
                Multiplication::Hps => "hps",
                Multiplication::Behz => "behz",
            }
        }
        #[getter]
        fn decryption(&self) -> &'static str {
            decryption_name(self.inner.decryption())
        }
        /// With `reduction="montgomery"`: "mixed" (section 4.4) or "full" (ciphertexts c M,
        /// sections 4 and 4.1); `None` otherwise.
        #[getter]
        fn montgomery(&self) -> Option<&'static str> {
            if self.inner.is_full_montgomery() {
                Some("full")
            } else if self.inner.is_mixed_montgomery() {
                Some("mixed")
            } else {
                None
            }
        }
    }
}

pub(crate) fn label(p: &BfvParameters) -> String {
    let mut m = crate::integer::cyclotomic_label(
        p.is_general_cyclotomic(),
        p.cyclotomic_index(),
        p.reduction(),
    );
    if p.is_full_montgomery() {
        m.push_str("montgomery=\"full\", ");
    }
    format!(
        "BfvParameters({m}degree={}, plain_modulus={}, log_q={:.1}, moduli={}, multiplication={:?}, security={})",
        p.degree(),
        p.plain_modulus(),
        p.log_q(),
        p.moduli().len(),
        match p.multiplication() {
            Multiplication::Hps => "hps",
            Multiplication::Behz => "behz",
        },
        security_out(p.security()),
    )
}
