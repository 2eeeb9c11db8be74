//! The Bgv parameter class.

use super::*;

crate::integer::integer_params! {
    /// BGV parameters: ring degree n, plaintext modulus t, the modulus chain q_0..q_L (each prime = 1 mod
    /// 2n and = 1 mod t; chosen for the security level unless given) and special moduli. For a general
    /// Phi_m (`cyclotomic_index=m`), `reduction="barrett"` (Bajard et al. (SAC 2017) Alg. 1), `"optimized"` (Alg. 2,
    /// default; same results) or `"montgomery"` (section 4.2: ciphertexts c M, keys with M^2);
    /// ignored for X^n + 1, as in Rust. `modulus_switching="auto"` (default) lets the operators
    /// (`*`, `**`, `+`, `-` and the context's methods) switch the modulus before products as the
    /// chain needs and align the levels of their operands; `"manual"` leaves it to `mod_switch`.
    class PyBgvParameters("BgvParameters", BgvParameters, BgvContext, BgvShared);
    methods {
        #[new]
        #[pyo3(signature = (degree=Int(8192), plain_modulus=Int(65537), *, moduli=None, moduli_bits=None,
            special_moduli=None, special_moduli_bits=None, sigma=None, hamming_weight=None,
            digit_primes=None, security=None,
            cyclotomic_index=None, reduction=None, modulus_switching=None, layout=None))]
        #[allow(clippy::too_many_arguments)]
        fn new(
            degree: Int<usize>,
            plain_modulus: Int<u64>,
            moduli: Option<Vec<Int<u64>>>,
            moduli_bits: Option<Vec<Int<u32>>>,
            special_moduli: Option<Vec<Int<u64>>>,
            special_moduli_bits: Option<Vec<Int<u32>>>,
            sigma: Option<f64>,
            hamming_weight: Option<Int<usize>>,
            digit_primes: Option<Int<usize>>,
            security: Option<&Bound<'_, PyAny>>,
            cyclotomic_index: Option<Int<usize>>,
            reduction: Option<&str>,
            modulus_switching: Option<&str>,
            layout: Option<&str>,
        ) -> PyResult<Self> {
            let mut b = BgvParameters::builder()
                .degree(degree.0)
                .plain_modulus(plain_modulus.0)
                .security(crate::convert::security(security)?);
            if let Some(mode) = modulus_switching {
                b = b.modulus_switching(switching_mode(mode)?);
            }
            crate::rlwe_params::builder_options!(b; cyclotomic_index: cyclotomic_index,
                reduction: reduction, moduli: moduli,
                moduli_bits: moduli_bits, special_moduli: special_moduli,
                special_moduli_bits: special_moduli_bits, sigma: sigma, hamming_weight: hamming_weight,
                digit_primes: digit_primes, layout: layout);
            Ok(b.build().py()?.into())
        }

        /// The top level L (fresh ciphertexts; each modulus switch goes one down).
        #[getter]
        fn max_level(&self) -> usize {
            self.inner.max_level()
        }

        /// Who switches the modulus: "auto" (the operators, before products; default) or
        /// "manual" (`mod_switch` by hand; operands at different levels refused).
        #[getter]
        fn modulus_switching(&self) -> &'static str {
            switching_name(self.inner.modulus_switching())
        }
    }
}

/// `modulus_switching=`: "auto" or "manual".
fn switching_mode(name: &str) -> PyResult<ModulusSwitching> {
    match name {
        "auto" => Ok(ModulusSwitching::Auto),
        "manual" => Ok(ModulusSwitching::Manual),
        _ => Err(crate::raise(
            "ParameterError",
            format!("modulus_switching must be \"auto\" or \"manual\", got {name:?}"),
        )),
    }
}

fn switching_name(mode: ModulusSwitching) -> &'static str {
    match mode {
        ModulusSwitching::Auto => "auto",
        ModulusSwitching::Manual => "manual",
    }
}

pub(crate) fn label(p: &BgvParameters) -> String {
    let m = crate::integer::cyclotomic_label(
        p.is_general_cyclotomic(),
        p.cyclotomic_index(),
        p.reduction(),
    );
    format!(
        "BgvParameters({m}degree={}, plain_modulus={}, log_q={:.1}, moduli={}, security={}{})",
        p.degree(),
        p.plain_modulus(),
        p.log_q(),
        p.moduli().len(),
        security_out(p.security()),
        match p.modulus_switching() {
            ModulusSwitching::Auto => "",
            ModulusSwitching::Manual => ", modulus_switching=\"manual\"",
        },
    )
}
