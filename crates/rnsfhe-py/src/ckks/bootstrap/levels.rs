//! Circuits that bootstrap by themselves from Python (comparisons, `inverse` on a domain, `sqrt`,
//! `inv_sqrt`): a `Levels` whose hook is this context's bootstrap with the keys registered for the
//! ciphertext's key pair, when the parameters are bootstrappable and those keys exist (each
//! bootstrap counted in `ctx.bootstraps`); a `Levels` without a hook otherwise.

use rnsfhe::circuits::bootstrapping::BootstrapHook;
use rnsfhe::eval::{Levels, Refresh};
use rnsfhe::rlwe::RelinKey;

use super::*;

/// The context's bootstrap as a hook, each call counted.
struct Counted<'a> {
    hook: BootstrapHook<'a>,
    shared: &'a CkksShared,
}

impl Refresh<CkksContext> for Counted<'_> {
    fn min_input_level(&self) -> usize {
        self.hook.min_input_level()
    }
    fn output_level(&self) -> usize {
        self.hook.output_level()
    }
    fn refresh(&self, e: &CkksContext, ct: &CkksCiphertext) -> rnsfhe::Result<CkksCiphertext> {
        let out = self.hook.refresh(e, ct)?;
        counted(self.shared);
        Ok(out)
    }
}

/// The bootstrapper and the bootstrapping keys registered for key pair `key`, when this context
/// is bootstrappable and has them; `None` otherwise.
fn available(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    key: Option<KeyId>,
) -> PyResult<Option<(Arc<Bootstrapper>, Arc<BootstrappingKeys>)>> {
    if preset(shared).is_none() {
        return Ok(None);
    }
    let Ok(keys) = registered(shared, key) else {
        return Ok(None);
    };
    Ok(Some((bootstrapper(py, shared)?, keys)))
}

/// Runs `f` without the GIL on `Levels` over `shared`'s context, refreshed by its bootstrap when
/// `bootstrap` allows and the keys of key pair `key` are registered, with the relinearisation key
/// `rlk`, else the one registered for `key`, else the bootstrapping keys' own (`what` names the
/// call in the missing-key error).
pub(crate) fn with_levels<T: Send>(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    key: Option<KeyId>,
    rlk: Option<Arc<RelinKey>>,
    bootstrap: bool,
    what: &str,
    f: impl FnOnce(&Levels<'_, CkksContext>, &RelinKey) -> rnsfhe::Result<T> + Send,
) -> PyResult<T> {
    let booting = if bootstrap {
        available(py, shared, key)?
    } else {
        None
    };
    let rlk = match (rlk, &booting) {
        (Some(k), _) => k,
        (None, Some((_, keys))) => shared
            .relin_key(what, key)
            .or_else(|_| keys.relin_key().cloned().py())?,
        (None, None) => shared.relin_key(what, key)?,
    };
    let ctx = shared.ctx.clone();
    py.detach(|| {
        let counted = booting.as_ref().map(|(b, k)| Counted {
            hook: BootstrapHook::new(b, k),
            shared,
        });
        let levels = match &counted {
            Some(h) => Levels::with_refresh(&*ctx, h),
            None => Levels::new(&*ctx),
        };
        f(&levels, &rlk)
    })
    .py()
}
