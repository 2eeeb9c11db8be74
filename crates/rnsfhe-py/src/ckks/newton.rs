//! `CkksContext.inverse(..., domain=...)`, `sqrt` and `inv_sqrt`: `circuits::newton` refreshed by
//! the context's bootstrap when the parameters are bootstrappable and bootstrapping keys are
//! registered for the ciphertext's key pair, and without a hook otherwise.

use pyo3::prelude::*;
use rnsfhe::circuits::newton::{self, Function};

use super::{bootstrap, PyCkksCiphertext, PyCkksContext};
use crate::keys::PyRelinKey;

/// The relative precision asked when the call names none: 2^-20.
pub(crate) const DEFAULT_BITS: f64 = 20.0;

/// `function` of `a` on `domain` to `bits` (default [`DEFAULT_BITS`]).
pub(crate) fn run(
    py: Python<'_>,
    ctx: &PyCkksContext,
    a: &PyCkksCiphertext,
    function: Function,
    domain: (f64, f64),
    bits: Option<f64>,
    rlk: Option<&PyRelinKey>,
) -> PyResult<PyCkksCiphertext> {
    let x = ctx.check(a)?;
    let rlk = rlk.map(|r| r.get(&ctx.owner())).transpose()?;
    let bits = bits.unwrap_or(DEFAULT_BITS);
    let what = function.name();
    let r = bootstrap::with_levels(py, &ctx.shared, x.key_id(), rlk, true, what, |levels, k| {
        match function {
            Function::Inverse => newton::inverse(levels, &x, domain, bits, k),
            Function::InvSqrt => newton::inv_sqrt(levels, &x, domain, bits, k),
            Function::Sqrt => newton::sqrt(levels, &x, domain, bits, k),
        }
    })?;
    Ok(ctx.wrap(r))
}
