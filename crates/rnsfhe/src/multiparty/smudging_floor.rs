//! The floor under a party's smudging: before drawing its noise into a CKS or PCKS share, a party
//! checks that sigma is at least what statistical security [`DEFAULT_LAMBDA`] asks for one
//! decryption of the ciphertext's error ([`Smudging::new`]: sigma = 2^(lambda/2) sqrt(n) B for
//! ||e||_inf <= B), with the bound B it knows itself, not one an aggregator or a requester states:
//!
//! - BFV and BGV ciphertexts carry B ([`NoiseBound::Carried`], the default: a `&Smudging` is
//!   checked so). A ciphertext read from bytes carries the B its sender wrote: a party that does
//!   not trust the sender (an aggregator that computed the ciphertext) states instead the bound of
//!   a twin it computes itself, the same circuit on its own encryptions of zero
//!   ([`NoiseBound::carried_log2`] of the twin);
//! - CKKS ciphertexts carry none, and their level and scale say nothing of their error (a scale
//!   bounds the message, not the error; a bound of the scale itself would ask sigma of about 2^70 at
//!   n = 2^10, above the sampler's 2^48). So a CKKS party states B ([`Smudging::stated`], the error
//!   of its own analysis: about 2^5 for a fresh encryption, more after products), and a party may
//!   state B for BFV and BGV too, in place of the carried heuristic bound;
//! - an explicit opt-out, [`Smudging::unchecked`], draws any sigma (benchmarks, research, a
//!   protocol with its own analysis): the caller answers for what it reveals.
//!
//! A caller that wants more than lambda = 40, or plans several decryptions of one key pair, passes
//! a larger sigma ([`Smudging::new`] with its lambda and count); the floor only refuses less than
//! the default for one decryption.

use super::schemes::CiphertextView;
use super::{Collective, Smudging, DEFAULT_LAMBDA};
use crate::{Error, Result};

/// The bound on the ciphertext's error that a party checks its smudging against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoiseBound {
    /// The bound the ciphertext carries (BFV, BGV); refused for one without (CKKS, or a
    /// ciphertext built from parts).
    Carried,
    /// ||e||_inf <= 2^log2, stated by the party (in place of a carried bound).
    Stated(f64),
    /// No check (by name: the caller answers for the smudging).
    Unchecked,
}

impl NoiseBound {
    /// log2 of the bound on the error of `ct` that it carries, as [`Smudging::new`] takes it (BFV:
    /// of v in Delta m + v; BGV: of e in m + t e), or `None` (CKKS, or a ciphertext built from
    /// parts): what [`NoiseBound::Carried`] checks against (for a ciphertext read from bytes, the
    /// bound its sender wrote). A party given a ciphertext without one, or by a sender it does not
    /// trust, takes this of a twin it computes itself (the same circuit on its own encryptions of
    /// zero) and states it.
    pub fn carried_log2<C: Collective + ?Sized>(
        ctx: &C,
        ct: &C::Ciphertext,
    ) -> Result<Option<f64>> {
        Ok(ctx.view(ct)?.noise_log2)
    }
}

/// The smudging a party draws into a key-switching share, with the bound it is checked against:
/// what [`super::cks_share`] and [`super::pcks_share`] take (`&Smudging` converts to
/// [`NoiseBound::Carried`]).
#[derive(Clone, Copy, Debug)]
pub struct ShareSmudging<'a> {
    smudging: &'a Smudging,
    bound: NoiseBound,
}

impl<'a> From<&'a Smudging> for ShareSmudging<'a> {
    fn from(smudging: &'a Smudging) -> Self {
        ShareSmudging {
            smudging,
            bound: NoiseBound::Carried,
        }
    }
}

impl Smudging {
    /// This smudging checked against a stated bound ||e||_inf <= 2^`noise_log2` on the
    /// ciphertext's error (CKKS; or in place of a BFV or BGV ciphertext's carried bound).
    pub fn stated(&self, noise_log2: f64) -> ShareSmudging<'_> {
        ShareSmudging {
            smudging: self,
            bound: NoiseBound::Stated(noise_log2),
        }
    }

    /// This smudging unchecked: drawn whatever its sigma (the caller answers for it).
    pub fn unchecked(&self) -> ShareSmudging<'_> {
        ShareSmudging {
            smudging: self,
            bound: NoiseBound::Unchecked,
        }
    }
}

impl<'a> ShareSmudging<'a> {
    /// The smudging, with the bound it is checked against.
    pub fn new(smudging: &'a Smudging, bound: NoiseBound) -> Self {
        ShareSmudging { smudging, bound }
    }

    /// The smudging.
    pub fn smudging(&self) -> &'a Smudging {
        self.smudging
    }

    /// The bound it is checked against.
    pub fn bound(&self) -> NoiseBound {
        self.bound
    }

    /// The smudging, once checked against the error bound of the ciphertext of `v`: refused when
    /// sigma is below what [`DEFAULT_LAMBDA`] asks for it (see the module doc).
    pub(crate) fn checked(&self, v: &CiphertextView<'_>) -> Result<&'a Smudging> {
        let bound = match self.bound {
            NoiseBound::Unchecked => return Ok(self.smudging),
            NoiseBound::Stated(b) => b,
            NoiseBound::Carried => v.noise_log2.ok_or_else(|| {
                Error::InvalidParameters(
                    "smudging: this ciphertext carries no error bound (CKKS, or built from \
                     parts): state one (Rust: smudging.stated(noise_log2); Python: \
                     noise_log2=...), or opt out by name (smudging.unchecked(); \
                     allow_weak_smudging=True)"
                        .into(),
                )
            })?,
        };
        let degree = v.c1.context().degree();
        let need = Smudging::new(DEFAULT_LAMBDA, bound, degree, 1).map_err(|e| {
            Error::InvalidParameters(format!(
                "smudging: an error bound of 2^{bound:.2} cannot be hidden at lambda = \
                 {DEFAULT_LAMBDA}: {e}"
            ))
        })?;
        let sigma = self.smudging.sigma();
        if sigma < need.sigma() {
            return Err(Error::InvalidParameters(format!(
                "smudging sigma = 2^{:.2} is below the 2^{:.2} that lambda = {DEFAULT_LAMBDA} asks \
                 for one decryption of a ciphertext of error bound 2^{bound:.2} (degree {degree}): \
                 use Smudging::for_ciphertext (Python: Smudging.for_ciphertext), a larger sigma, \
                 or opt out by name (smudging.unchecked(); allow_weak_smudging=True)",
                sigma.log2(),
                need.sigma().log2()
            )));
        }
        Ok(self.smudging)
    }
}
