//! `CkksContext.inverse(..., domain=...)`, `sqrt` and `inv_sqrt`: `circuits::newton` refreshed by
//! the context's bootstrap when the parameters are bootstrappable and bootstrapping keys are
//! registered for the ciphertext's key pair, and without a hook otherwise.

use std::sync::Arc;

use pyo3::prelude::*;
use rnsfhe::circuits::bootstrapping::{BootstrapHook, Bootstrapper, BootstrappingKeys};
use rnsfhe::circuits::newton::{self, Function};
use rnsfhe::eval::Levels;

use super::{bootstrap, PyCkksCiphertext, PyCkksContext};
use crate::keys::PyRelinKey;
use crate::OrPy;

/// The relative precision asked when the call names none: 2^-20.
pub(crate) const DEFAULT_BITS: f64 = 20.0;

/// The bootstrapper of the context with the keys registered for key pair `key`, when both exist.
fn hook_parts(
    py: Python<'_>,
    ctx: &PyCkksContext,
    key: Option<rnsfhe::rlwe::KeyId>,
) -> PyResult<Option<(Arc<Bootstrapper>, Arc<BootstrappingKeys>)>> {
    if bootstrap::preset(&ctx.shared).is_none() {
        return Ok(None);
    }
    let Ok(keys) = bootstrap::registered(&ctx.shared, key) else {
        return Ok(None);
    };
    Ok(Some((bootstrap::bootstrapper(py, &ctx.shared)?, keys)))
}

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
    let hook = hook_parts(py, ctx, x.key_id())?;
    // The relinearisation key: passed, registered, or the bootstrapping keys' own.
    let rlk = match (rlk, &hook) {
        (Some(_), _) | (None, None) => ctx.rlk(rlk, function.name(), x.key_id())?,
        (None, Some((_, keys))) => match ctx.rlk(None, function.name(), x.key_id()) {
            Ok(k) => k,
            Err(_) => keys.relin_key().py()?.clone(),
        },
    };
    let bits = bits.unwrap_or(DEFAULT_BITS);
    let c = ctx.ctx().clone();
    let eval = |levels: &Levels<'_, rnsfhe::ckks::CkksContext>| match function {
        Function::Inverse => newton::inverse(levels, &x, domain, bits, &rlk),
        Function::InvSqrt => newton::inv_sqrt(levels, &x, domain, bits, &rlk),
        Function::Sqrt => newton::sqrt(levels, &x, domain, bits, &rlk),
    };
    let r = py.detach(|| match &hook {
        Some((boot, keys)) => {
            let h = BootstrapHook::new(boot, keys);
            eval(&Levels::with_refresh(&*c, &h))
        }
        None => eval(&Levels::new(&*c)),
    });
    Ok(ctx.wrap(r.py()?))
}
