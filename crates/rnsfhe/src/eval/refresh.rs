//! Levels on demand: the hook through which a circuit that runs out of levels gets new ones.
//!
//! A [`Refresh`] restores a ciphertext's levels (CKKS bootstrapping with its keys,
//! `circuits::bootstrapping::BootstrapHook`; any other way of re-encrypting at a high level fits
//! the same shape). A circuit never calls it directly: it asks its [`Levels`] for a ciphertext
//! with the levels its next step spends ([`Levels::ensure`]), and `Levels` refreshes only when the
//! ciphertext has too few, counting the refreshes. Without a hook, too few levels is an error that
//! names the step and what is missing. This is the shape of Lattigo v6's
//! `schemes.Bootstrapper` (`MinimumInputLevel`, `OutputLevel`) as its composite-polynomial
//! evaluator uses it.

use std::cell::Cell;

use super::Evaluator;
use crate::{Error, Result};

/// A way to bring a ciphertext back to a high level with the same slot values.
pub trait Refresh<E: Evaluator> {
    /// The lowest level an input may have (CKKS: the bootstrapper's input level, which
    /// SlotsToCoeffs-first bootstrapping spends on its first stage).
    fn min_input_level(&self) -> usize;
    /// The level of the outputs.
    fn output_level(&self) -> usize;
    /// The same values at [`Self::output_level`].
    fn refresh(&self, e: &E, ct: &E::Ciphertext) -> Result<E::Ciphertext>;
}

/// An evaluator with an optional [`Refresh`]: what circuits that may run deeper than the chain
/// are written with. Not `Sync` (the refresh count is a `Cell`): one per evaluation.
pub struct Levels<'a, E: Evaluator> {
    e: &'a E,
    hook: Option<&'a dyn Refresh<E>>,
    refreshes: Cell<usize>,
}

impl<'a, E: Evaluator> Levels<'a, E> {
    /// `e` alone: a circuit that needs more levels than a ciphertext has fails.
    pub fn new(e: &'a E) -> Self {
        Levels {
            e,
            hook: None,
            refreshes: Cell::new(0),
        }
    }

    /// `e` with `hook` to call when a ciphertext has too few levels.
    pub fn with_refresh(e: &'a E, hook: &'a dyn Refresh<E>) -> Self {
        Levels {
            e,
            hook: Some(hook),
            refreshes: Cell::new(0),
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &'a E {
        self.e
    }

    /// Whether a refresh hook is present.
    pub fn can_refresh(&self) -> bool {
        self.hook.is_some()
    }

    /// How many refreshes [`Self::ensure`] has made so far.
    pub fn refreshes(&self) -> usize {
        self.refreshes.get()
    }

    /// The levels a ciphertext at `level` can spend before it must be refreshed (with a hook, the
    /// levels above its minimum input level; without one, `level`).
    pub fn spendable(&self, level: usize) -> usize {
        level.saturating_sub(self.floor())
    }

    /// The most levels one step can ever spend: what a refreshed ciphertext has to spend (with a
    /// hook), or the top level (without one).
    pub fn most_spendable(&self) -> usize {
        match self.hook {
            Some(h) => h.output_level().saturating_sub(h.min_input_level()),
            None => self.e.max_level(),
        }
    }

    /// `ct` brought into the levels a refresh yields: with a hook, a ciphertext above the hook's
    /// output level is lowered to it on the scheme's scale (the levels above belong to the
    /// refresh's own stages: CKKS bootstrapping's, whose scales sit near wide primes where a
    /// circuit's constants would not fit a word); otherwise itself.
    pub fn enter(&self, ct: E::Ciphertext) -> Result<E::Ciphertext> {
        match self.hook {
            Some(h) if self.e.level(&ct) > h.output_level() => {
                self.onto_level(ct, h.output_level())
            }
            _ => Ok(ct),
        }
    }

    /// `ct` itself when it can spend `levels` more (0: when it is at or above the hook's minimum
    /// input level, so that it can still be refreshed later), else refreshed (with a hook); a
    /// ciphertext above the levels a refresh yields is first lowered into them ([`Self::enter`]).
    ///
    /// Errors: `LevelsExhausted` without a hook (the message says which step and how many levels),
    /// or when even a refreshed ciphertext could not spend `levels`; the hook's errors.
    pub fn ensure(&self, ct: E::Ciphertext, levels: usize, op: &str) -> Result<E::Ciphertext> {
        let ct = self.enter(ct)?;
        let have = self.e.level(&ct);
        let want = self.floor() + levels;
        if have >= want {
            return Ok(ct);
        }
        let Some(hook) = self.hook else {
            return Err(Error::LevelsExhausted {
                op: format!("{op} (give a bootstrapper to refresh the ciphertext in between)"),
                level: have,
                needed: want - have,
            });
        };
        if self.most_spendable() < levels {
            return Err(Error::LevelsExhausted {
                op: format!(
                    "{op}: one step spends {levels} levels, more than a refreshed ciphertext has \
                     ({})",
                    self.most_spendable()
                ),
                level: hook.output_level(),
                needed: levels - self.most_spendable(),
            });
        }
        let out = hook.refresh(self.e, &ct)?;
        self.refreshes.set(self.refreshes.get() + 1);
        Ok(out)
    }

    /// `a` and `b` each able to spend `levels`, at one level (the lower of the two).
    pub fn ensure_pair(
        &self,
        a: E::Ciphertext,
        b: E::Ciphertext,
        levels: usize,
        op: &str,
    ) -> Result<(E::Ciphertext, E::Ciphertext)> {
        let a = self.ensure(a, levels, op)?;
        let b = self.ensure(b, levels, op)?;
        let level = self.e.level(&a).min(self.e.level(&b));
        let a = self.onto_level(a, level)?;
        let b = self.onto_level(b, level)?;
        Ok((a, b))
    }

    /// `ct` at `level` on the scheme's scale there (itself when it is at `level`; else dropped and
    /// multiplied by 1 onto [`Evaluator::default_scale`], as [`Evaluator::lower_onto`]).
    pub fn onto_level(&self, ct: E::Ciphertext, level: usize) -> Result<E::Ciphertext> {
        if self.e.level(&ct) == level {
            Ok(ct)
        } else {
            self.e.lower_onto(&ct, level, self.e.default_scale(level)?)
        }
    }

    fn floor(&self) -> usize {
        self.hook.map_or(0, |h| h.min_input_level())
    }
}
