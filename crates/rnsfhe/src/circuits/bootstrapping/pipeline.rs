//! The steps of a bootstrap in either order, around a modular reduction given as a map (EvalMod in
//! [`super::Bootstrapper`]; an exact secret-key reduction in tests).

use std::time::{Duration, Instant};

use super::keys::GaloisRequirement;
use super::stages::unpack;
use super::{mod_raise, CoeffsToSlots, SlotsFormat, SlotsToCoeffs};
use crate::circuits::lintrans::{CkksLinearTransform, DiagonalStorage};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// The order of the steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BootstrappingOrder {
    /// ModRaise, CoeffsToSlots, EvalMod, SlotsToCoeffs: any input level; the output at the
    /// residual top R (Cheon et al. 2018).
    #[default]
    CoeffsToSlotsFirst,
    /// SlotsToCoeffs on the input while it holds its last StC levels, then ModRaise, CoeffsToSlots,
    /// EvalMod: the output comes out of EvalMod with the StC levels still to spend (Lattigo's
    /// `DecodeThenModUp`; Bossuat et al. 2022's "slim" bootstrapping).
    SlotsToCoeffsFirst,
}

/// Wall time of each step of one bootstrap ([`super::Bootstrapper::bootstrap_timed`]): a
/// measurement hook at the step boundaries, nothing inside the steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StageTimings {
    /// SlotsToCoeffs (after EvalMod, or on the input in SlotsToCoeffs-first order).
    pub slots_to_coeffs: Duration,
    /// ModRaise with encapsulation's two key switches around it.
    pub mod_raise: Duration,
    /// CoeffsToSlots.
    pub coeffs_to_slots: Duration,
    /// Each EvalMod (one per CoeffsToSlots output), in order; side by side with two threads or
    /// more, so their sum may exceed the wall time ([`Self::total`] counts the longest).
    pub eval_mod: Vec<Duration>,
    /// The rest: bringing the input onto the chain, combining EvalMod's outputs (with META-BTS:
    /// the residual and the final sum too).
    pub other: Duration,
    /// META-BTS ([`super::meta_bts`]): the steps of the second bootstrap (of the residual); the
    /// fields above are the first's.
    pub second_iteration: Option<Box<StageTimings>>,
}

impl StageTimings {
    /// EvalMod's wall time: the sum of its runs with one thread, the longest with more (they run
    /// side by side).
    pub fn eval_mod_wall(&self) -> Duration {
        if rnsfhe_math::parallel::num_threads() > 1 {
            self.eval_mod.iter().copied().max().unwrap_or_default()
        } else {
            self.eval_mod.iter().sum()
        }
    }

    /// The wall time of the steps (both iterations with META-BTS).
    pub fn total(&self) -> Duration {
        self.slots_to_coeffs
            + self.mod_raise
            + self.coeffs_to_slots
            + self.eval_mod_wall()
            + self.other
            + self
                .second_iteration
                .as_ref()
                .map_or(Duration::ZERO, |s| s.total())
    }
}

/// `f()` with its wall time added to `into`.
fn timed<T>(into: &mut Duration, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let t = Instant::now();
    let out = f();
    *into += t.elapsed();
    out
}

/// The modular reduction step: each of CoeffsToSlots's outputs (slots y = x / K at the
/// reduction's input level) to rho gain (x - round(x)) at its output level on the chain's scale
/// there (EvalMod landing on rho times that scale, the ciphertext read at the chain's: its values
/// times rho, for free).
/// `Sync`: the reductions of CoeffsToSlots' outputs (two for full complex slots) run side by side
/// when more than one thread is set.
pub(crate) type ModStep<'a> = &'a (dyn Fn(&CkksCiphertext) -> Result<CkksCiphertext> + Sync);

/// CoeffsToSlots and SlotsToCoeffs placed on the chain for one order, and the levels between.
#[derive(Clone, Debug)]
pub(crate) struct Pipeline {
    pub(crate) order: BootstrappingOrder,
    pub(crate) cts: CoeffsToSlots,
    pub(crate) stc: SlotsToCoeffs,
    /// The level EvalMod reads (CoeffsToSlots's output level) and the one it lands on.
    pub(crate) eval_levels: (usize, usize),
    /// StC-first with `Packed` slots: [lo | hi] (2n real slots, EvalMod's output) to the n slots
    /// lo - i hi, at EvalMod's output level ([`Pipeline::new`]).
    pub(crate) unpack: Option<CkksLinearTransform>,
}

/// The format CoeffsToSlots hands to EvalMod: `Packed` for sparse slots of CtS-first (one EvalMod;
/// real inputs gain nothing more there), `Real` for real inputs otherwise (one EvalMod instead of
/// two), `Packed` for sparse complex slots of StC-first with an StC band of 2 levels or more (one
/// EvalMod; one of the band's levels unpacks its output, [`Pipeline::new`]), else `Split`.
pub(crate) fn format(
    order: BootstrappingOrder,
    slots: usize,
    max_slots: usize,
    real: bool,
    stc_budget: usize,
) -> SlotsFormat {
    let sparse = 2 * slots <= max_slots;
    match order {
        BootstrappingOrder::CoeffsToSlotsFirst if sparse => SlotsFormat::Packed,
        _ if real => SlotsFormat::Real,
        BootstrappingOrder::SlotsToCoeffsFirst if sparse && stc_budget >= 2 => SlotsFormat::Packed,
        _ => SlotsFormat::Split,
    }
}

/// The shape of a pipeline: slot count, real inputs, the DFT budgets, EvalMod's depth, K and gain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub(crate) order: BootstrappingOrder,
    pub(crate) slots: usize,
    pub(crate) real: bool,
    pub(crate) cts_budget: usize,
    pub(crate) stc_budget: usize,
    pub(crate) eval_depth: usize,
    pub(crate) k: f64,
    pub(crate) gain: f64,
    /// rho, the factor on the reduction's outputs ([`ModStep`]).
    pub(crate) landing: f64,
    /// How the DFTs hold their diagonals.
    pub(crate) storage: DiagonalStorage,
}

impl Pipeline {
    /// The transforms for `shape` on `ctx`'s chain: CoeffsToSlots at the top level L with the
    /// factor 1 / (q_0 K), EvalMod below it, and SlotsToCoeffs with q_0 / (rho gain Delta_0), after
    /// EvalMod (CtS-first: rho gain (m Delta_0 / q_0) back to m) or at level `stc_budget` on the
    /// input (StC-first: the plaintext at level 0 is m q_0 / (rho gain), so that EvalMod reads
    /// x = I + m / (rho gain), small for rho gain = 2^r, and gives m exactly: the message ratio is
    /// 2^r whatever q_0 / Delta_0 is).
    ///
    /// StC-first with sparse complex slots (`Packed`, n <= N/4): one EvalMod on [lo | hi] instead
    /// of two on lo and hi. Its output is turned back into n complex slots by the map of
    /// [`unpack`] (diagonals 0 and n: one rotation, one plaintext product, one level), since no
    /// level-free operation (rotations, conjugation, products by +-1 or +-i) makes the n-periodic
    /// [lo - i hi | lo - i hi] from [lo | hi]. That level comes from the StC band (chain
    /// unchanged): SlotsToCoeffs runs in `stc_budget` - 1 stages on inputs at that level, the
    /// output lands at EvalMod's output level - 1, and the R residual levels between stay.
    pub(crate) fn new(ctx: &CkksContext, shape: Shape) -> Result<Self> {
        let top = ctx.max_level();
        let (c, d, s) = (shape.cts_budget, shape.eval_depth, shape.stc_budget);
        let first = shape.order == BootstrappingOrder::CoeffsToSlotsFirst;
        let needed = c + d + if first { s } else { 0 };
        if needed > top || (!first && s > top - needed) {
            return Err(Error::InvalidParameters(format!(
                "bootstrapping needs {} levels (CoeffsToSlots {c}, EvalMod {d}, SlotsToCoeffs {s}); \
                 the chain has {top}",
                c + d + s
            )));
        }
        let q0 = ctx.ring_at(0)?.moduli()[0].value() as f64;
        let format = format(shape.order, shape.slots, ctx.slots(), shape.real, s);
        let unpacks = !first && format == SlotsFormat::Packed;
        let cts = CoeffsToSlots::new(
            ctx,
            shape.slots,
            c,
            top,
            1.0 / (q0 * shape.k),
            format,
            shape.storage,
        )?;
        let eval_levels = (top - c, top - c - d);
        let (stc_level, stc_format) = if first {
            (eval_levels.1, format)
        } else {
            (s - usize::from(unpacks), SlotsFormat::Complex)
        };
        let factor = q0 / (shape.gain * shape.landing * ctx.scale_at(0)?);
        let stc = SlotsToCoeffs::new(
            ctx,
            shape.slots,
            s - usize::from(unpacks),
            stc_level,
            factor,
            stc_format,
            shape.storage,
        )?;
        let unpack = unpacks
            .then(|| {
                let m = unpack(shape.slots);
                CkksLinearTransform::with_storage(
                    ctx,
                    &m.diagonals,
                    eval_levels.1,
                    m.slots,
                    shape.storage,
                )
            })
            .transpose()?;
        Ok(Pipeline {
            order: shape.order,
            cts,
            stc,
            eval_levels,
            unpack,
        })
    }

    /// The level of the outputs: R (CtS-first) or EvalMod's output level (StC-first; one below
    /// when the output is unpacked).
    pub(crate) fn output_level(&self) -> usize {
        match self.order {
            BootstrappingOrder::CoeffsToSlotsFirst => self.stc.output_level(),
            BootstrappingOrder::SlotsToCoeffsFirst => {
                self.eval_levels.1 - usize::from(self.unpack.is_some())
            }
        }
    }

    /// The Galois keys [`Self::run`] uses: CoeffsToSlots', SlotsToCoeffs' and the unpacking's,
    /// each at its level.
    pub(crate) fn galois_uses(&self, ctx: &CkksContext) -> Vec<GaloisRequirement> {
        let mut out = self.cts.galois_uses(ctx);
        out.extend(self.stc.galois_uses(ctx));
        if let Some(u) = &self.unpack {
            out.extend(
                u.rotation_steps()
                    .into_iter()
                    .map(|s| GaloisRequirement::rotation(ctx, s, u.level())),
            );
        }
        out
    }

    /// The bootstrap of `ct` with `reduce` as EvalMod and `raise` as ModRaise (the plain one, or the
    /// one with encapsulation's key switches around it), each step's time added to `times`.
    pub(crate) fn run(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &GaloisKeys,
        raise: &dyn Fn(&CkksCiphertext) -> Result<CkksCiphertext>,
        reduce: ModStep<'_>,
        times: &mut StageTimings,
    ) -> Result<CkksCiphertext> {
        if ct.slots() != self.cts.slots() {
            return Err(Error::LengthMismatch {
                what: "bootstrapping slots (the ciphertext's slot count)",
                expected: self.cts.slots(),
                got: ct.slots(),
            });
        }
        let first = self.order == BootstrappingOrder::CoeffsToSlotsFirst;
        let low = if first {
            timed(&mut times.other, || onto_chain(ctx, ct, 0))?
        } else {
            let input = timed(&mut times.other, || onto_chain(ctx, ct, self.stc.level()))?;
            timed(&mut times.slots_to_coeffs, || {
                self.stc.apply(ctx, std::slice::from_ref(&input), keys)
            })?
        };
        let raised = timed(&mut times.mod_raise, || raise(&low))?;
        let parts = timed(&mut times.coeffs_to_slots, || {
            self.cts.apply(ctx, &raised, keys)
        })?;
        // Side by side with two threads or more: the limb loops inside one EvalMod leave the
        // second thread idle between them (small products, rescales, constants); an EvalMod is
        // always worth a thread.
        let timed_reduce = |i: usize| {
            let t = Instant::now();
            reduce(&parts[i]).map(|r| (r, t.elapsed()))
        };
        let (reduced, spent): (Vec<_>, Vec<_>) =
            rnsfhe_math::parallel::map(parts.len(), usize::MAX, timed_reduce)?
                .into_iter()
                .unzip();
        times.eval_mod = spent;
        if first {
            return timed(&mut times.slots_to_coeffs, || {
                self.stc.apply(ctx, &reduced, keys)
            });
        }
        timed(&mut times.other, || {
            match (reduced.as_slice(), &self.unpack) {
                ([lo, hi], None) => super::slots_to_coeffs::combine(ctx, lo, hi),
                ([packed], Some(u)) => {
                    let mut z = u.apply(ctx, packed, keys)?;
                    z.slots = self.cts.slots();
                    Ok(z)
                }
                ([lo], None) => Ok(lo.clone()),
                _ => Err(Error::Internal("EvalMod outputs of no format".into())),
            }
        })
    }

    /// The default ModRaise: `ct` (level 0) to the top level.
    pub(crate) fn raise(ctx: &CkksContext, ct: &CkksCiphertext) -> Result<CkksCiphertext> {
        mod_raise(ctx, ct, ctx.max_level())
    }
}

/// `ct` at `level` on the chain's scale there: dropped (a ciphertext off the chain is brought onto it
/// by the last level it drops, as `align` does). Errors: `LevelsExhausted` below `level`;
/// `ScaleMismatch` at `level` off the chain.
pub(crate) fn onto_chain(
    ctx: &CkksContext,
    ct: &CkksCiphertext,
    level: usize,
) -> Result<CkksCiphertext> {
    let target = ctx.scale_at(level)?;
    if ct.level() < level {
        return Err(Error::LevelsExhausted {
            op: "SlotsToCoeffs-first bootstrapping (SlotsToCoeffs runs on the input)".into(),
            level: ct.level(),
            needed: level,
        });
    }
    if ctx.on_chain(ct.level(), ct.scale()) {
        return ctx.drop_to_level(ct, level);
    }
    if ct.level() == level {
        return Err(Error::ScaleMismatch {
            op: "bootstrap (the ciphertext, the chain's scale of its level)".into(),
            left: ct.scale(),
            right: target,
            tolerance: crate::ckks::SCALE_TOLERANCE,
            hint: "bootstrap a ciphertext on the chain's scale, or one level higher".into(),
        });
    }
    let x = ctx.drop_to_level_keeping_scale(ct, level + 1)?;
    ctx.mul_const_rescale_to(&x, 1.0, target)
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
