//! `integer_params!`: the parameter class of an integer scheme (BFV, BGV): `rlwe_params!` with the
//! getters both have, and the label's cyclotomic part.

/// An integer scheme's parameter class: `rlwe_params!` with `plain_modulus`, `cyclotomic_index`,
/// `reduction`, `log_q` and `slots`, and the scheme's own `methods`.
macro_rules! integer_params {
    (
        $(#[$doc:meta])*
        class $Py:ident($name:literal, $Params:ty, $Ctx:ty, $Shared:ty);
        methods { $($extra:tt)* }
    ) => {
        crate::rlwe_params::rlwe_params! {
            $(#[$doc])*
            class $Py($name, $Params, $Ctx, $Shared);
            moduli moduli, special special_moduli;
            methods {
                #[getter]
                fn plain_modulus(&self) -> u64 {
                    self.inner.plain_modulus()
                }
                /// The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1).
                #[getter]
                fn cyclotomic_index(&self) -> usize {
                    self.inner.cyclotomic_index()
                }
                /// How products are reduced modulo Phi_m: "barrett", "optimized" or "montgomery"
                /// (keyword `reduction=`, Bajard et al. (SAC 2017) sections 3-4); `None` for X^n + 1, where the
                /// keyword is ignored as in Rust.
                #[getter]
                fn reduction(&self) -> Option<&'static str> {
                    crate::convert::reduction_name(
                        self.inner.is_general_cyclotomic(),
                        self.inner.reduction(),
                    )
                }
                /// log2 of q = prod q_i (at the top level for BGV).
                #[getter]
                fn log_q(&self) -> f64 {
                    self.inner.log_q()
                }
                /// Batching slots: n when t is a prime = 1 mod 2n, l = phi(m) / d for a general
                /// Phi_m, else 0.
                #[getter]
                fn slots(&self) -> usize {
                    self.inner.batching_slots()
                }
                $($extra)*
            }
        }
    };
}
pub(crate) use integer_params;

/// The label's part for a general Phi_m ("cyclotomic_index=m, reduction=..., "; empty for X^n + 1).
pub(crate) fn cyclotomic_label(
    general: bool,
    m: usize,
    reduction: rnsfhe_math::ring::Reduction,
) -> String {
    if general {
        format!(
            "cyclotomic_index={m}, reduction={:?}, ",
            crate::convert::reduction_name(true, reduction).unwrap_or_default()
        )
    } else {
        String::new()
    }
}
