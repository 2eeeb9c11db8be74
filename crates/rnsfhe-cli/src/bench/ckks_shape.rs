//! A CKKS context's parameters as the CKKS tables name them.

use rnsfhe::ckks::CkksContext;

use crate::report::moduli_shape;

/// "N = 2^15, q 60 + 10 x 40 (+ 60), scale 2^40": the parameters of a context, for table rows.
pub fn describe(ctx: &CkksContext) -> String {
    let p = ctx.params();
    format!(
        "N = 2^{}, q {} (+ {}), scale 2^{}",
        ctx.slots().trailing_zeros() + 1,
        moduli_shape(p.moduli()),
        moduli_shape(p.special_moduli()),
        p.scale_bits()
    )
}
