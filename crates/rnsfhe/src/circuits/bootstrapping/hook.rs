//! The bootstrap as a [`Refresh`] hook: circuits written with [`crate::eval::Levels`] call it when
//! a ciphertext has too few levels for their next step.

use super::{Bootstrapper, BootstrappingKeys};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::eval::Refresh;
use crate::Result;

/// A bootstrapper with the keys of one key pair.
#[derive(Clone, Copy, Debug)]
pub struct BootstrapHook<'a> {
    bootstrapper: &'a Bootstrapper,
    keys: &'a BootstrappingKeys,
}

impl<'a> BootstrapHook<'a> {
    /// `bootstrapper` with `keys` (checked at each bootstrap).
    pub fn new(bootstrapper: &'a Bootstrapper, keys: &'a BootstrappingKeys) -> Self {
        BootstrapHook { bootstrapper, keys }
    }
}

impl Refresh<CkksContext> for BootstrapHook<'_> {
    fn min_input_level(&self) -> usize {
        self.bootstrapper.input_level()
    }
    fn output_level(&self) -> usize {
        self.bootstrapper.output_level()
    }
    fn refresh(&self, e: &CkksContext, ct: &CkksCiphertext) -> Result<CkksCiphertext> {
        self.bootstrapper.bootstrap(e, ct, self.keys)
    }
}
