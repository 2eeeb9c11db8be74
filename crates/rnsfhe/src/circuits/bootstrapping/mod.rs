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
//! # The steps
//!
//! CoeffsToSlots-first (the default): the input is brought to level 0 on the chain's scale
//! Delta_0; [ModRaise](mod_raise) reads it modulo Q_L (plaintext m' + q_0 I); [`CoeffsToSlots`]
//! (SubSum for sparse slots, the inverse DFT with the factor 1 / (q_0 K), the split into real
//! parts) puts x / K in the slots, x = m' / q_0 + I; [`EvalMod`] computes x - round(x); and
//! [`SlotsToCoeffs`] (the DFT with q_0 / (rho gain Delta_0)) puts m' back into the coefficients, at
//! the residual top R. SlotsToCoeffs-first runs SlotsToCoeffs on the input (it must hold the StC
//! budget's levels), then ModRaise, CoeffsToSlots and EvalMod: the output is EvalMod's, at R + stc.
//!
//! EvalMod lands on rho times the chain's scale of its output level and the result is read at the
//! chain's scale: its values times rho for nothing (CtS-first: rho = q_(out+1) / Delta_out, the
//! last EvalMod prime over the chain's scale, so its rescale noise is that of a 60-bit scale;
//! StC-first: rho = 2^r / gain, which turns EvalMod's m 2^-r into m).
//!
//! # Packing, real inputs and their cost ([`SlotsFormat`])
//!
//! - Full packing (N/2 slots): the N coefficients do not fit N/2 slots as real values, so
//!   CoeffsToSlots splits them into two ciphertexts (one conjugation) and EvalMod runs twice.
//! - Sparse packing, n <= N/4 slots, CtS-first: SubSum keeps the 2n coefficients of the subring,
//!   and CoeffsToSlots packs them as 2n real slots with the same conjugation (its last stage's rows
//!   n..2n carry a factor i; Lattigo's `RepackImagAsReal` rotates instead): EvalMod runs once, and
//!   SlotsToCoeffs unpacks within its first stage. SubSum costs log2(N / 2n) rotations, run before
//!   CoeffsToSlots' last stage (they commute with the others: [`CoeffsToSlots`]).
//! - Real inputs (`real_only`), full packing, CtS-first: EvalMod runs on the low half only (one
//!   EvalMod instead of two) and SlotsToCoeffs completes the high half by the symmetry of a real
//!   message (one conjugation at the output level); the imaginary part of the input (noise) is
//!   dropped. Sparse CtS-first: nothing is cheaper than the packed form, which already runs
//!   EvalMod once (the real form would add a conjugation): real inputs take it.
//! - SlotsToCoeffs-first: the input's slots become the coefficients; complex inputs need both halves
//!   reduced, real ones have only q_0 I in the high half and reduce the low half alone. Full
//!   packing: two EvalMods. Sparse complex slots (n <= N/4, an StC band of 2 levels or more):
//!   CoeffsToSlots packs [lo | hi] as above, EvalMod runs once, and one plaintext product with one
//!   rotation by n (the key SubSum's first step already needs) unpacks its output to lo - i hi
//!   on n slots. Level accounting: that product takes one level of the StC band (the chain is the
//!   same), so SlotsToCoeffs runs in `stc_budget` - 1 stages on inputs at level `stc_budget` - 1
//!   ([`Bootstrapper::input_level`]), and the output lands one level below EvalMod's, with the R
//!   residual levels between the two as at full packing.
//!
//! # Secrets and failure
//!
//! ModRaise adds q_0 I with ||I||_inf growing with the Hamming weight h of the secret
//! ([`ModRaiseBound`]): K = 16 holds for h = 32 (failure 2^-105 at N = 2^16) but not for h = 192
//! (K = 36 for 2^-40) or a dense secret (K = 537). With `encapsulation: Some(h)` (Bossuat,
//! Troncoso-Pastoriza and Hubaux, ACNS 2022) the level-0 ciphertext is switched to an ephemeral
//! secret of weight h before ModRaise and back to the parameters' secret right after, at the top
//! level ([`crate::rlwe::EncapsulationKeys`] has the security argument and Lattigo's v6.1.1
//! pitfall): any secret bootstraps with K = 16.
//!
//! # A second iteration
//!
//! With `meta_bts: Some(k)` ([`meta_bts`], Bae et al. 2022) the bootstrap runs twice: on the input,
//! then on its residual scaled up by 2^k, one reserved prime above the residual levels paying for
//! the correction; the result reaches the precision floor of the residual scale.
//!
//! # Keys
//!
//! [`KeyRequirements`] lists exactly what [`Bootstrapper::bootstrap`] uses: the rotation steps of
//! each DFT stage (its BSGS split) at that stage's level, SubSum's log2(N / 2n) steps at its level,
//! the conjugation at CoeffsToSlots' output level (and SlotsToCoeffs' for real inputs), the
//! relinearisation key at EvalMod's level, the encapsulation pair. Each key holds q_0..q_level and
//! P only; [`BootstrappingKeys::to_bytes`] stores them seeded.
//!
//! # Example
//!
//! A toy bootstrap (insecure parameters): a ciphertext at level 0 comes back at the residual top.
//!
//! ```
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
//! let got = ctx.decrypt_values(&fresh, &sk)?;
//! assert!(got.iter().all(|v| (*v - z[0]).abs() < 1e-6));
//! # Ok(())
//! # }
//! ```

mod coeffs_to_slots;
pub mod eval_mod;
mod hook;
mod keys;
pub mod meta_bts;
pub mod modraise;
mod params;
mod pipeline;
mod slots_to_coeffs;
mod stages;

use std::sync::Arc;
use std::time::Instant;

use rnsfhe_math::sample::Csprng;

pub use coeffs_to_slots::CoeffsToSlots;
pub use eval_mod::{EvalMod, EvalModParameters};
pub use hook::BootstrapHook;
pub use keys::{BootstrappingKeys, GaloisRequirement, KeyRequirements};
pub use modraise::{mod_raise, ModRaiseBound};
pub use params::BootstrappingParameters;
pub use pipeline::{BootstrappingOrder, StageTimings};
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
            storage: params.diagonal_storage,
        };
        let pipeline = Pipeline::new(ctx, shape)?;
        let uses = pipeline.galois_uses(ctx);
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
        // META-BTS's correction spends the reserved prime above R.
        self.pipeline.output_level() - usize::from(self.params.meta_bts.is_some())
    }
    /// The lowest level an input may have: 0 (CtS-first) or SlotsToCoeffs' input level (StC-first:
    /// the StC budget, one less for sparse complex slots, whose output unpacking takes one of the
    /// band's levels).
    pub fn input_level(&self) -> usize {
        match self.params.order {
            BootstrappingOrder::CoeffsToSlotsFirst => 0,
            BootstrappingOrder::SlotsToCoeffsFirst => self.pipeline.stc.level(),
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
        let storage = self.params.key_storage;
        keys::generate(&self.ctx, &self.requirements, sk, rng, storage, progress)
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
        Ok(self.bootstrap_timed(ctx, ct, keys)?.0)
    }

    /// [`Self::bootstrap`] with the wall time of each step (for benchmarks).
    pub fn bootstrap_timed(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &BootstrappingKeys,
    ) -> Result<(CkksCiphertext, StageTimings)> {
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
        let mut times = StageTimings::default();
        let out = match self.params.meta_bts {
            None => self
                .pipeline
                .run(ctx, ct, gk, &raise, &reduce, &mut times)?,
            Some(k) => {
                let x = pipeline::onto_chain(ctx, ct, self.input_level())?;
                let first = self
                    .pipeline
                    .run(ctx, &x, gk, &raise, &reduce, &mut times)?;
                let (t, mut second) = (Instant::now(), StageTimings::default());
                let mut again = |c: &CkksCiphertext| {
                    self.pipeline.run(ctx, c, gk, &raise, &reduce, &mut second)
                };
                let out = meta_bts::second_iteration(ctx, &x, &first, k, &mut again)?;
                times.other += t.elapsed().saturating_sub(second.total());
                times.second_iteration = Some(Box::new(second));
                out
            }
        };
        Ok((out, times))
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
