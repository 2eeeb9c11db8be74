//! Bootstrapping from Python: the presets ([`preset`]: `CkksParameters.bootstrappable`,
//! the tag of the parameters it makes, so a context of them keeps its preset), the keys ([`keys`]:
//! registered per key pair beside the context, bytes and pickling), the bootstrapper of a context,
//! `CkksContext.bootstrap` and `CkksCiphertext.bootstrap`, and the progress of long calls
//! ([`progress`]).

mod keys;
mod levels;
mod preset;
mod progress;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, RwLock};

use rnsfhe::circuits::bootstrapping::{Bootstrapper, BootstrappingKeys, StageTimings};

use super::*;
use keys::key_pair;
use keys::registered;
pub(crate) use keys::{generate, register_loaded, PyBootstrappingKeys};
pub(crate) use levels::with_levels;
pub(crate) use preset::{bootstrappable, Preset};
use progress::Progress;

/// What a CKKS context keeps for bootstrapping: for parameters without a preset, the preset of the
/// first bootstrapping keys loaded for them; its bootstrapper (built on first use) and the keys
/// registered per key pair.
#[derive(Default)]
pub(crate) struct Bootstrapping {
    loaded_preset: OnceLock<Preset>,
    bootstrapper: Mutex<Option<Arc<Bootstrapper>>>,
    keys: RwLock<BTreeMap<KeyId, Arc<BootstrappingKeys>>>,
    /// The bootstraps run so far (`ctx.bootstrap` and circuits that bootstrap by themselves).
    count: AtomicUsize,
}

/// Counts one bootstrap of `shared`'s context.
pub(crate) fn counted(shared: &CkksShared) {
    shared.extra.count.fetch_add(1, Ordering::Relaxed);
}

/// The bootstraps `shared`'s context has run.
pub(crate) fn count(shared: &CkksShared) -> usize {
    shared.extra.count.load(Ordering::Relaxed)
}

/// The preset of `shared`'s bootstrap: its parameters' (`CkksParameters.bootstrappable`, or their
/// bytes), else, for parameters made without one (by hand, or bytes written before parameters
/// carried it), that of the first bootstrapping keys loaded for them.
fn preset(shared: &CkksShared) -> Option<Preset> {
    shared
        .tag
        .or_else(|| shared.extra.loaded_preset.get().copied())
}

/// The bootstrapper of `shared`'s parameters, built once (without the GIL and without holding the
/// lock, which another thread may wait on with the GIL held).
pub(crate) fn bootstrapper(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
) -> PyResult<Arc<Bootstrapper>> {
    let slot = || {
        shared
            .extra
            .bootstrapper
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    };
    if let Some(b) = slot().as_ref() {
        return Ok(b.clone());
    }
    let preset = preset(shared).ok_or_else(|| {
        raise(
            "ParameterError",
            format!(
                "{} is not bootstrappable: make the parameters with \
                 rnsfhe.CkksParameters.bootstrappable(...) (or load bootstrapping keys made for \
                 them)",
                shared.label
            ),
        )
    })?;
    let params = preset.parameters()?;
    let ctx = shared.ctx.clone();
    let b = Arc::new(py.detach(|| Bootstrapper::new(&ctx, params)).py()?);
    Ok(slot().get_or_insert(b).clone())
}

/// `CkksContext.train_logistic(..., bootstrap=True)`: the training refreshed by this context's
/// bootstrap with the keys registered for the data's key pair.
pub(crate) fn train(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    z: Arc<CkksCiphertext>,
    (samples, features, iterations): (usize, usize, usize),
    rlk: &rnsfhe::rlwe::RelinKey,
    keys: &rnsfhe::rlwe::GaloisKeys,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<CkksCiphertext> {
    let boot = bootstrapper(py, shared)?;
    let bk = registered(shared, z.key_id())?;
    let progress = Progress::new(py, progress, "training")?;
    let ctx = shared.ctx.clone();
    progress.run(py, |tick| {
        // The training runs in the residual band (the levels above hold scales near their wide
        // primes, where its constants would not fit a word).
        let top = boot.output_level();
        let z = if z.level() > top {
            Arc::new(ctx.drop_to_level(&z, top)?)
        } else {
            z
        };
        let mut refresh = |c: &CkksCiphertext| {
            let out = boot.bootstrap(&ctx, c, &bk);
            counted(shared);
            out
        };
        circuits::logistic::train_logistic_refreshed(
            &ctx,
            &z,
            samples,
            features,
            iterations,
            rlk,
            keys,
            &mut refresh,
            Some(tick),
        )
    })
}

/// The bootstrap of `ct` (`CkksContext.bootstrap`, `CkksCiphertext.bootstrap`): with `keys`, or
/// the keys registered for the ciphertext's key pair.
pub(crate) fn run(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    ct: Arc<CkksCiphertext>,
    keys: Option<&PyBootstrappingKeys>,
) -> PyResult<CkksCiphertext> {
    Ok(run_timed(py, shared, ct, keys)?.0)
}

/// [`run`] with the wall time of each step (`CkksContext.bootstrap_timed`).
pub(crate) fn run_timed(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    ct: Arc<CkksCiphertext>,
    keys: Option<&PyBootstrappingKeys>,
) -> PyResult<(CkksCiphertext, StageTimings)> {
    let boot = bootstrapper(py, shared)?;
    let k = match keys {
        Some(k) => {
            same(&k.shared, shared, "bootstrapping keys")?;
            KeyId::check(ct.key_id(), key_pair(&k.keys)?, "bootstrapping keys").py()?;
            k.keys.clone()
        }
        None => registered(shared, ct.key_id())?,
    };
    let ctx = shared.ctx.clone();
    let out = py.detach(|| boot.bootstrap_timed(&ctx, &ct, &k)).py()?;
    counted(shared);
    Ok(out)
}

/// The steps of `t` in seconds, in the order of a CoeffsToSlots-first bootstrap, then `other` and
/// `total`. With META-BTS each step sums both iterations. `eval_mod` is EvalMod's wall time (its
/// runs side by side with two threads or more, [`StageTimings::eval_mod_wall`]).
pub(crate) fn stage_seconds(t: &StageTimings) -> Vec<(&'static str, f64)> {
    let mut steps = vec![
        ("mod_raise", t.mod_raise.as_secs_f64()),
        ("coeffs_to_slots", t.coeffs_to_slots.as_secs_f64()),
        ("eval_mod", t.eval_mod_wall().as_secs_f64()),
        ("slots_to_coeffs", t.slots_to_coeffs.as_secs_f64()),
        ("other", t.other.as_secs_f64()),
    ];
    if let Some(second) = &t.second_iteration {
        for (step, more) in steps.iter_mut().zip(stage_seconds(second)) {
            step.1 += more.1;
        }
    }
    steps.push(("total", t.total().as_secs_f64()));
    steps
}

/// The level of a bootstrap's outputs on this context (building its bootstrapper).
pub(crate) fn output_level(py: Python<'_>, shared: &Arc<CkksShared>) -> PyResult<usize> {
    Ok(bootstrapper(py, shared)?.output_level())
}

/// The lowest level a bootstrap's input may have on this context (building its bootstrapper).
pub(crate) fn input_level(py: Python<'_>, shared: &Arc<CkksShared>) -> PyResult<usize> {
    Ok(bootstrapper(py, shared)?.input_level())
}
