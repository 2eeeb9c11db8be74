//! CoeffsToSlots: the coefficients of a ciphertext's plaintext moved into its slots, as real values
//! for EvalMod (Cheon et al., Eurocrypt 2018, section 4.2; Chen, Chillotti and Song, Eurocrypt
//! 2019, sections 3-4: the sparse-stage DFT and the trace of sparse packing).
//!
//! For n slots (gap = N/(2n)):
//!
//! 1. SubSum (n < N/2): t <- t + phi_(5^(n 2^i))(t) for i < log2(gap), the trace over the
//!    automorphisms X -> X^g, g = 1 mod 4n, that fix the subring of Y = X^gap: it multiplies the
//!    coefficients at multiples of gap by gap and kills the others, so the part of q_0 I outside the
//!    subring (ModRaise's I is a full polynomial) disappears. log2(gap) rotations, no level.
//! 2. The inverse DFT U^-1 on the n slots in `budget` sparse stages ([`HomomorphicDft`], hoisted
//!    BSGS, one level each), with the constants folded into the stages (spread evenly): the input's
//!    scale Delta_l (its slots are t / Delta_l), `factor` (1 / (q_0 K) in bootstrapping), 1/gap for
//!    the trace and 1/2 for the split below. The output z holds factor (lo - i hi) in bit-reversed
//!    order ([`SlotsFormat`]).
//!
//!    SubSum runs before the last stage ([`CoeffsToSlots::trace_level`]): on the N/2 slots,
//!    SubSum is sum_j rot_(j n)(t), j < gap, and a stage whose diagonals are n-periodic (every
//!    stage on n slots, and the lifted stages of `Packed` but the last, whose rows n..2n carry i)
//!    commutes with rotations by multiples of n, so the result is the same. Its log2(gap) key
//!    switches run one level above the output instead of at the top, over fewer primes and digits
//!    (3 of CoeffsToSlots' 26 key switches at 2^12 slots of N = 2^16), with smaller keys. After
//!    the last stage instead, their errors would meet the output with no rescale after them (2 to
//!    4 bits lost at N = 2^11 in `pipeline_tests`); before it, the toy errors are those of SubSum
//!    at the top within 0.3 bit (0.1 mean / 0.2 worst slot at 2^12 slots of `n16_h192`).
//! 3. The split into real values by one conjugation (no level): lo = z + conj z and
//!    hi = i (z - conj z) (the product by i is the monomial X^(N/2) up to sign: no level).
//!    Packed (n <= N/4): the stages act on 2n slots ([v | v] is how the n-periodic slots of the
//!    subring read on 2n slots) and the last stage's rows n..2n carry a factor i, so that
//!    z = [c | i c] and z + conj z = [2 Re c | 2 Re(i c)] = [2 lo | 2 hi]: the real and imaginary
//!    parts packed side by side by the one conjugation, without Lattigo's extra rotation.

use super::keys::{stage_uses, GaloisRequirement};
use super::stages::{check_arguments, lift, scale_rows, scaled_stages, SlotsFormat, Spread};
use crate::circuits::dft::{DftDirection, HomomorphicDft};
use crate::circuits::lintrans::DiagonalStorage;
use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::eval::Evaluator;
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// CoeffsToSlots for ciphertexts of `slots` slots at one level on the chain's scale (module doc).
#[derive(Clone, Debug)]
pub struct CoeffsToSlots {
    slots: usize,
    format: SlotsFormat,
    factor: f64,
    trace_steps: Vec<i64>,
    /// The stage SubSum runs before (the stage count: after the DFT).
    trace_at: usize,
    dft: HomomorphicDft,
}

impl CoeffsToSlots {
    /// CoeffsToSlots of `slots` slots (a power of two in 2..=N/2; 2..=N/4 for `Packed`) in `budget`
    /// stages for inputs at `level`: the output holds `factor` times the coefficients of the input's
    /// plaintext (module doc), at `level` - `budget` on the chain's scale there.
    ///
    /// Errors: `InvalidParameters` for a slot count, format or factor that does not fit; those of
    /// [`HomomorphicDft::from_matrices`] (a level below the budget).
    pub fn new(
        ctx: &CkksContext,
        slots: usize,
        budget: usize,
        level: usize,
        factor: f64,
        format: SlotsFormat,
        storage: DiagonalStorage,
    ) -> Result<Self> {
        let half = ctx.slots();
        check_arguments("CoeffsToSlots", half, slots, factor, format)?;
        let gap = half / slots;
        let split = if format == SlotsFormat::Complex {
            1.0
        } else {
            0.5
        };
        let scaling = ctx.scale_at(level)? * factor * split / gap as f64;
        let dir = DftDirection::CoeffsToSlots;
        let mut stages = scaled_stages(ctx.encoder(), dir, slots, budget, scaling, Spread::Even)?;
        // SubSum runs before the last stage (module doc).
        let trace_at = budget - 1;
        if format == SlotsFormat::Packed {
            stages = stages.iter().map(lift).collect();
            if let Some(last) = stages.last_mut() {
                scale_rows(last, slots..2 * slots, Complex::new(0.0, 1.0));
            }
        }
        let dft = HomomorphicDft::from_matrices_with(ctx, dir, stages, level, storage)?;
        let trace_steps = (0..gap.trailing_zeros())
            .map(|i| (slots << i) as i64)
            .collect();
        Ok(CoeffsToSlots {
            slots,
            format,
            factor,
            trace_steps,
            trace_at,
            dft,
        })
    }

    /// The slot count n of the inputs.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The output format.
    pub fn format(&self) -> SlotsFormat {
        self.format
    }
    /// The factor on the coefficients.
    pub fn factor(&self) -> f64 {
        self.factor
    }
    /// The level of the inputs.
    pub fn level(&self) -> usize {
        self.dft.level()
    }
    /// The level of the outputs.
    pub fn output_level(&self) -> usize {
        self.dft.output_level()
    }
    /// The DFT (its stages, levels and rotation steps).
    pub fn dft(&self) -> &HomomorphicDft {
        &self.dft
    }
    /// The rotation steps of SubSum, used at [`Self::trace_level`] (none with full packing).
    pub fn trace_steps(&self) -> &[i64] {
        &self.trace_steps
    }
    /// The level SubSum runs at: that of the last stage (module doc).
    pub fn trace_level(&self) -> usize {
        self.level() - self.trace_at
    }
    /// Whether the split needs the conjugation key (at [`Self::output_level`]).
    pub fn needs_conjugation(&self) -> bool {
        self.format != SlotsFormat::Complex
    }

    /// The Galois keys [`Self::apply`] uses, each at the highest level it is used at: SubSum's at
    /// [`Self::trace_level`], each DFT stage's steps at its level, the conjugation at the output
    /// level.
    pub fn galois_uses(&self, ctx: &CkksContext) -> Vec<GaloisRequirement> {
        let mut out: Vec<GaloisRequirement> = self
            .trace_steps
            .iter()
            .map(|&s| GaloisRequirement::rotation(ctx, s, self.trace_level()))
            .collect();
        out.extend(stage_uses(ctx, &self.dft));
        if self.needs_conjugation() {
            out.push(GaloisRequirement::conjugation(ctx, self.output_level()));
        }
        out
    }

    /// SubSum (module doc, step 1): the trace onto the subring of the slots, times gap; `ct` itself
    /// with full packing. [`Self::apply`] runs it at [`Self::trace_level`] (keys there).
    pub fn trace(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        let mut t = ct.clone();
        for &s in &self.trace_steps {
            let r = ctx.rotate(&t, s, keys)?;
            ctx.add_assign(&mut t, &r)?;
        }
        Ok(t)
    }

    /// CoeffsToSlots of `ct` (at [`Self::level`] on the chain's scale, [`Self::slots`] slots): the
    /// ciphertexts of the format ([`SlotsFormat`]: lo and hi for `Split`, one otherwise), at
    /// [`Self::output_level`] on the chain's scale. Keys: [`Self::galois_uses`].
    ///
    /// Errors: `LengthMismatch` for another slot count; those of [`HomomorphicDft::apply`] (level,
    /// scale, a missing key names its step).
    pub fn apply(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &GaloisKeys,
    ) -> Result<Vec<CkksCiphertext>> {
        if ct.slots() != self.slots {
            return Err(Error::LengthMismatch {
                what: "CoeffsToSlots slots (the ciphertext's slot count)",
                expected: self.slots,
                got: ct.slots(),
            });
        }
        let mut t = ct.clone();
        if self.format == SlotsFormat::Packed {
            // The same plaintext read on 2n slots (after SubSum: the subring's n-periodic slots).
            t.slots = 2 * self.slots;
        }
        for (k, stage) in self.dft.stages().iter().enumerate() {
            if k == self.trace_at {
                t = self.trace(ctx, &t, keys)?;
            }
            t = stage.apply(ctx, &t, keys)?;
        }
        let z = t;
        if self.format == SlotsFormat::Complex {
            return Ok(vec![z]);
        }
        let c = ctx.conjugate(&z, keys)?;
        let lo = ctx.add(&z, &c)?;
        if self.format != SlotsFormat::Split {
            return Ok(vec![lo]);
        }
        let d = ctx.sub(&z, &c)?;
        let hi = Evaluator::mul_const_to_scale(ctx, &d, Complex::new(0.0, 1.0), d.scale())?;
        Ok(vec![lo, hi])
    }

    /// The plaintext model of [`Self::apply`] from the N coefficients of the input's plaintext
    /// (the integers t, not divided by the scale): the expected slot vectors of each output
    /// ciphertext (module doc; independent of the DFT's stages). Errors: `LengthMismatch`.
    pub fn apply_plain(&self, ctx: &CkksContext, coeffs: &[f64]) -> Result<Vec<Vec<Complex>>> {
        let n_ring = 2 * ctx.slots();
        if coeffs.len() != n_ring {
            return Err(Error::LengthMismatch {
                what: "CoeffsToSlots model coefficients (N)",
                expected: n_ring,
                got: coeffs.len(),
            });
        }
        let (n, gap) = (self.slots, ctx.slots() / self.slots);
        let enc = ctx.encoder();
        let at = |j: usize, off: usize| self.factor * coeffs[enc.bit_reverse(j, n) * gap + off];
        let lo: Vec<Complex> = (0..n).map(|j| Complex::from_real(at(j, 0))).collect();
        let hi: Vec<Complex> = (0..n)
            .map(|j| Complex::from_real(at(j, ctx.slots())))
            .collect();
        Ok(match self.format {
            SlotsFormat::Complex => vec![lo
                .iter()
                .zip(&hi)
                .map(|(l, h)| Complex::new(l.re, -h.re))
                .collect()],
            SlotsFormat::Split => vec![lo, hi],
            SlotsFormat::Packed => vec![lo.into_iter().chain(hi).collect()],
            SlotsFormat::Real => vec![lo],
        })
    }
}
