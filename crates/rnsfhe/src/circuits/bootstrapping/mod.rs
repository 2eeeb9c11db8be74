//! CKKS bootstrapping (Cheon, Han, Kim, Kim and Song, Eurocrypt 2018; Chen, Chillotti and Song,
//! Eurocrypt 2019; Bossuat, Mouchet, Troncoso-Pastoriza and Hubaux, Eurocrypt 2021; Lattigo's
//! `circuits/ckks/bootstrapping` is the anchor): a ciphertext whose levels ran out refreshed to the
//! residual top level.
//!
//! - [`modraise`]: ModRaise and the bound on I(X) (the failure probability of a bootstrap);
//! - [`CoeffsToSlots`], [`SlotsToCoeffs`]: the homomorphic DFTs with bootstrapping's constants,
//!   SubSum for sparse packing, and the formats EvalMod reads ([`SlotsFormat`]);
//! - [`eval_mod`]: the homomorphic modular reduction;
//! - [`BootstrappingParameters`] (the chain and its precision budget, presets), [`Bootstrapper`]
//!   (the precomputed steps, [`KeyRequirements`], key generation, `bootstrap`) and
//!   [`CkksContext::bootstrap`].
//!
//! # Example
//!
//! A toy bootstrap (insecure parameters): a ciphertext at level 0 comes back at the residual top.
//!
//! ```no_run
//! use rnsfhe::circuits::bootstrapping::{Bootstrapper, BootstrappingParameters};
//! use rnsfhe::ckks::{CkksContext, Complex};
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = BootstrappingParameters::toy(11);
//! let ctx = CkksContext::new(params.ckks_parameters()?)?;
//! let boot = Bootstrapper::new(&ctx, params)?;
//! let mut rng = Csprng::from_seed([1; 32]);
//! let (sk, pk) = ctx.keygen(&mut rng)?;
//! let keys = boot.generate_keys(&sk, &mut rng, None)?;
//! let z = vec![Complex::new(0.5, -0.25); ctx.slots()];
//! let ct = ctx.drop_to_level(&ctx.encrypt(&ctx.encode(&z)?, &pk, &mut rng)?, 0)?;
//! let fresh = ctx.bootstrap(&ct, &boot, &keys)?;
//! assert_eq!(fresh.level(), boot.output_level());
//! # Ok(())
//! # }
//! ```

mod coeffs_to_slots;
pub mod eval_mod;
mod keys;
pub mod modraise;
mod params;
mod pipeline;
mod slots_to_coeffs;
mod stages;

use std::sync::Arc;

use rnsfhe_math::sample::Csprng;

pub use coeffs_to_slots::CoeffsToSlots;
pub use eval_mod::{EvalMod, EvalModParameters};
pub use keys::{BootstrappingKeys, GaloisRequirement, KeyRequirements};
pub use modraise::{mod_raise, ModRaiseBound};
pub use params::BootstrappingParameters;
pub use pipeline::BootstrappingOrder;
pub use slots_to_coeffs::SlotsToCoeffs;
pub use stages::SlotsFormat;

use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::SecretKey;
use crate::{Error, Result};
use pipeline::{Pipeline, Shape};

/// A bootstrap precomputed for one context: the encoded DFT stages, EvalMod's polynomials and the
/// key requirements.
#[derive(Debug)]
pub struct Bootstrapper {
    ctx: Arc<CkksContext>,
    params: BootstrappingParameters,
    pipeline: Pipeline,
    eval_mod: EvalMod,
    /// EvalMod's output scale: rho times the chain's at its output level ([`Self::landing`]).
    landing_scale: f64,
    requirements: KeyRequirements,
}

impl Bootstrapper {
    /// The bootstrap of `params` on `ctx`, whose chain must be the one `params` implies
    /// ([`BootstrappingParameters::ckks_parameters`]).
    ///
    /// Errors: those of [`BootstrappingParameters::validate`]; `ParameterMismatch` for a context of
    /// another chain; those of the steps.
    pub fn new(ctx: &Arc<CkksContext>, params: BootstrappingParameters) -> Result<Self> {
        let want = params.ckks_parameters()?;
        let have = ctx.params();
        if want.moduli() != have.moduli()
            || want.special_moduli() != have.special_moduli()
            || want.degree() != have.degree()
            || want.secret_distribution() != have.secret_distribution()
        {
            return Err(Error::ParameterMismatch {
                what: "bootstrapping parameters' chain (found) and the context (expected)".into(),
                expected: ctx.fingerprint(),
                found: want.fingerprint(),
            });
        }
        let eval_in = ctx.max_level() - params.cts_budget;
        let eval_mod = EvalMod::new(ctx, params.eval_mod, eval_in)?;
        if eval_mod.depth() != params.eval_mod_depth() {
            return Err(Error::Internal(format!(
                "EvalMod spends {} levels, the chain has {} for it",
                eval_mod.depth(),
                params.eval_mod_depth()
            )));
        }
        let out = eval_mod.output_level();
        let chain_out = ctx.scale_at(out)?;
        let landing = match params.order {
            BootstrappingOrder::CoeffsToSlotsFirst => {
                eval_mod.prime_output_scale(&**ctx)? / chain_out
            }
            BootstrappingOrder::SlotsToCoeffsFirst => {
                2f64.powi(params.eval_mod.log_message_ratio as i32) / eval_mod.gain()
            }
        };
        let shape = Shape {
            order: params.order,
            slots: params.slots,
            real: params.real_only,
            cts_budget: params.cts_budget,
            stc_budget: params.stc_budget,
            eval_depth: eval_mod.depth(),
            k: f64::from(params.eval_mod.k),
            gain: eval_mod.gain(),
            landing,
        };
        let pipeline = Pipeline::new(ctx, shape)?;
        let uses = pipeline
            .cts
            .galois_uses(ctx)
            .into_iter()
            .chain(pipeline.stc.galois_uses(ctx));
        let requirements = KeyRequirements::new(uses, eval_in, params.encapsulation);
        Ok(Bootstrapper {
            ctx: Arc::clone(ctx),
            params,
            pipeline,
            eval_mod,
            landing_scale: landing * chain_out,
            requirements,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &BootstrappingParameters {
        &self.params
    }
    /// The keys [`Self::bootstrap`] uses (only those: the chosen stages' rotations at their levels).
    pub fn key_requirements(&self) -> &KeyRequirements {
        &self.requirements
    }
    /// The level of the outputs: R (CtS-first) or R + stc (StC-first, where the StC levels are still
    /// to be spent before the next bootstrap).
    pub fn output_level(&self) -> usize {
        self.pipeline.output_level()
    }
    /// The lowest level an input may have: 0 (CtS-first) or the StC budget (StC-first).
    pub fn input_level(&self) -> usize {
        match self.params.order {
            BootstrappingOrder::CoeffsToSlotsFirst => 0,
            BootstrappingOrder::SlotsToCoeffsFirst => self.params.stc_budget,
        }
    }
    /// CoeffsToSlots.
    pub fn coeffs_to_slots(&self) -> &CoeffsToSlots {
        &self.pipeline.cts
    }
    /// SlotsToCoeffs.
    pub fn slots_to_coeffs(&self) -> &SlotsToCoeffs {
        &self.pipeline.stc
    }
    /// EvalMod.
    pub fn eval_mod(&self) -> &EvalMod {
        &self.eval_mod
    }

    /// The keys of [`Self::key_requirements`] for `sk`, calling `progress(done, total)` after each
    /// (key generation takes about a minute at N = 2^16).
    pub fn generate_keys(
        &self,
        sk: &SecretKey,
        rng: &mut Csprng,
        progress: Option<&mut dyn FnMut(usize, usize)>,
    ) -> Result<BootstrappingKeys> {
        keys::generate(&self.ctx, &self.requirements, sk, rng, progress)
    }

    /// The bootstrap of `ct` (any level: dropped to level 0 first, or to the StC budget in
    /// StC-first order): the same slots at [`Self::output_level`], on the chain's scale there.
    ///
    /// Errors: `ParameterMismatch` for a context or ciphertext of other parameters; a missing key
    /// (`MissingGaloisKey` names the element and rotation step); `LengthMismatch` for another slot
    /// count; `LevelsExhausted` for a StC-first input below the StC budget; `ScaleMismatch` for an
    /// input at its lowest level off the chain's scale.
    pub fn bootstrap(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &BootstrappingKeys,
    ) -> Result<CkksCiphertext> {
        crate::rlwe::check_params(ctx.fingerprint(), self.ctx.fingerprint(), "bootstrapper")?;
        self.requirements.check(keys)?;
        let (gk, rlk) = (keys.galois_keys()?, keys.relin_key()?);
        let encapsulation = keys.encapsulation();
        // Encapsulation (Bossuat et al., ACNS 2022): ModRaise under the ephemeral sparse secret.
        let raise = |c: &CkksCiphertext| match encapsulation {
            Some(e) => {
                let sparse = ctx.switch_key(c, e.dense_to_sparse())?;
                let raised = Pipeline::raise(ctx, &sparse)?;
                ctx.switch_key(&raised, e.sparse_to_dense())
            }
            None => Pipeline::raise(ctx, c),
        };
        // EvalMod lands on rho Delta_out and is read at Delta_out: its values times rho for free.
        let reduce = |c: &CkksCiphertext| {
            let mut r = self.eval_mod.apply_with(ctx, c, rlk, self.landing_scale)?;
            r.scale = ctx.scale_at(r.level())?;
            Ok(r)
        };
        self.pipeline.run(ctx, ct, gk, &raise, &reduce)
    }
}

impl CkksContext {
    /// The bootstrap of `ct` by `bootstrapper` with its keys ([`Bootstrapper::bootstrap`]): the
    /// evaluator-side entry.
    pub fn bootstrap(
        &self,
        ct: &CkksCiphertext,
        bootstrapper: &Bootstrapper,
        keys: &BootstrappingKeys,
    ) -> Result<CkksCiphertext> {
        bootstrapper.bootstrap(self, ct, keys)
    }
}
