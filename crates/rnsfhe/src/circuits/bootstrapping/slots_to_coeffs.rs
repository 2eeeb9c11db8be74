//! SlotsToCoeffs: real coefficient values held in slots (EvalMod's outputs) moved back into the
//! coefficients of the plaintext, i.e. the decoding map U applied to the slots (Cheon et al.,
//! Eurocrypt 2018, section 4.2; Chen, Chillotti and Song, Eurocrypt 2019).
//!
//! Inputs by [`SlotsFormat`] (lo, hi in bit-reversed order):
//!
//! - `Complex`: one ciphertext holding lo - i hi: the DFT alone (StC-first's first step, on the
//!   message's slots);
//! - `Split`: lo and hi, combined as lo - i hi (a monomial product, no level), then the DFT;
//! - `Packed`: [lo | hi] on 2n slots; the first stage is preceded by the unpacking
//!   [lo | hi] -> [lo - i hi | lo - i hi] (diagonals 0 and n, merged into the stage: no level,
//!   at most one more giant step) and every stage acts on 2n slots, whose output is read on n;
//! - `Real`: lo only, for a real message: its plaintext a is symmetric (a(X^-1) = a(X), i.e.
//!   a_(N-k) = -a_k), so a = r(X) + r(X^-1) for r the polynomial of lo with lo_0 halved, and its
//!   slots are U r + conj(U r): the DFT with column 0 halved, then one conjugation (no level).
//!   This saves one of the two EvalMods of full packing; the hi half of the raised plaintext (its
//!   q_0 I included) is never reduced, and the message's anti-symmetric part (an imaginary part,
//!   noise for a real message) is dropped.
//!
//! The output holds `factor` times the slots of the plaintext whose coefficients are the inputs
//! (q_0 / (gain Delta_0) in bootstrapping: EvalMod's gain and the message ratio undone), at the
//! input level minus the budget, on the chain's scale there.

use super::keys::{stage_uses, GaloisRequirement};
use super::stages::{
    check_arguments, lift, scale_column, scaled_stages, unpack, SlotsFormat, Spread,
};
use crate::circuits::dft::{DftDirection, HomomorphicDft};
use crate::circuits::lintrans::DiagonalStorage;
use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::eval::Evaluator;
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// SlotsToCoeffs for `slots` output slots at one level on the chain's scale (module doc).
#[derive(Clone, Debug)]
pub struct SlotsToCoeffs {
    slots: usize,
    format: SlotsFormat,
    factor: f64,
    dft: HomomorphicDft,
}

impl SlotsToCoeffs {
    /// SlotsToCoeffs onto `slots` slots (a power of two in 2..=N/2; 2..=N/4 for `Packed`) in
    /// `budget` stages for inputs at `level` (module doc).
    ///
    /// Errors: `InvalidParameters` for a slot count, format or factor that does not fit; those of
    /// [`HomomorphicDft::from_matrices`].
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
        check_arguments("SlotsToCoeffs", half, slots, factor, format)?;
        let dir = DftDirection::SlotsToCoeffs;
        let mut stages = scaled_stages(
            ctx.encoder(),
            dir,
            slots,
            budget,
            factor,
            Spread::FrontLoaded,
        )?;
        match format {
            SlotsFormat::Real => scale_column(&mut stages[0], 0, Complex::from_real(0.5)),
            SlotsFormat::Packed => {
                let first = lift(&stages[0]).after(&unpack(slots));
                stages = std::iter::once(first)
                    .chain(stages[1..].iter().map(lift))
                    .collect();
            }
            SlotsFormat::Complex | SlotsFormat::Split => {}
        }
        let dft = HomomorphicDft::from_matrices_with(ctx, dir, stages, level, storage)?;
        Ok(SlotsToCoeffs {
            slots,
            format,
            factor,
            dft,
        })
    }

    /// The slot count n of the output.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The input format.
    pub fn format(&self) -> SlotsFormat {
        self.format
    }
    /// The level of the inputs.
    pub fn level(&self) -> usize {
        self.dft.level()
    }
    /// The level of the output.
    pub fn output_level(&self) -> usize {
        self.dft.output_level()
    }
    /// The DFT (its stages, levels and rotation steps).
    pub fn dft(&self) -> &HomomorphicDft {
        &self.dft
    }

    /// The Galois keys [`Self::apply`] uses, each at the highest level it is used at: each DFT
    /// stage's steps at its level, the conjugation of `Real` at the output level.
    pub fn galois_uses(&self, ctx: &CkksContext) -> Vec<GaloisRequirement> {
        let mut out = stage_uses(ctx, &self.dft);
        if self.format == SlotsFormat::Real {
            out.push(GaloisRequirement::conjugation(ctx, self.output_level()));
        }
        out
    }

    /// SlotsToCoeffs of the format's inputs (at [`Self::level`] on the chain's scale: lo and hi for
    /// `Split`, one ciphertext otherwise, of n slots, 2n for `Packed`): one ciphertext of
    /// [`Self::slots`] slots at [`Self::output_level`] on the chain's scale.
    ///
    /// Errors: `LengthMismatch` for another number of inputs or slot count; those of
    /// [`HomomorphicDft::apply`].
    pub fn apply(
        &self,
        ctx: &CkksContext,
        inputs: &[CkksCiphertext],
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        if inputs.len() != self.format.parts() {
            return Err(Error::LengthMismatch {
                what: "SlotsToCoeffs inputs (ciphertexts of the format)",
                expected: self.format.parts(),
                got: inputs.len(),
            });
        }
        let width = match self.format {
            SlotsFormat::Packed => 2 * self.slots,
            _ => self.slots,
        };
        if let Some(ct) = inputs.iter().find(|c| c.slots() != width) {
            return Err(Error::LengthMismatch {
                what: "SlotsToCoeffs input slots",
                expected: width,
                got: ct.slots(),
            });
        }
        let z = match self.format {
            SlotsFormat::Split => combine(ctx, &inputs[0], &inputs[1])?,
            _ => inputs[0].clone(),
        };
        let mut w = self.dft.apply(ctx, &z, keys)?;
        w.slots = self.slots;
        if self.format == SlotsFormat::Real {
            let c = ctx.conjugate(&w, keys)?;
            ctx.add_assign(&mut w, &c)?;
        }
        Ok(w)
    }

    /// The plaintext model of [`Self::apply`]: `factor` times the first n slots of the polynomial
    /// whose coefficients the inputs hold (the format's slot vectors, real parts read; module doc),
    /// computed with the encoder's decoding map (independent of the DFT's stages).
    /// Errors: `LengthMismatch`.
    pub fn apply_plain(&self, ctx: &CkksContext, inputs: &[Vec<Complex>]) -> Result<Vec<Complex>> {
        let n = self.slots;
        let wrong = |got| Error::LengthMismatch {
            what: "SlotsToCoeffs model inputs",
            expected: n,
            got,
        };
        let first = inputs.first().ok_or(wrong(0))?;
        let (lo, hi): (Vec<f64>, Vec<f64>) = match self.format {
            SlotsFormat::Complex => first.iter().map(|z| (z.re, -z.im)).unzip(),
            SlotsFormat::Split => {
                let second = inputs.get(1).ok_or(wrong(1))?;
                (
                    first.iter().map(|z| z.re).collect(),
                    second.iter().map(|z| z.re).collect(),
                )
            }
            SlotsFormat::Packed => {
                let v: Vec<f64> = first.iter().map(|z| z.re).collect();
                let cut = n.min(v.len());
                (v[..cut].to_vec(), v[cut..].to_vec())
            }
            SlotsFormat::Real => {
                let lo: Vec<f64> = first.iter().map(|z| z.re).collect();
                // hi_0 = 0, hi_(n-k) = -lo_k (the symmetric completion, in bit-reversed order).
                let enc = ctx.encoder();
                let hi = (0..lo.len())
                    .map(|j| match enc.bit_reverse(j, n) {
                        0 => 0.0,
                        k => -lo[enc.bit_reverse(n - k, n)],
                    })
                    .collect();
                (lo, hi)
            }
        };
        if lo.len() != n || hi.len() != n {
            return Err(wrong(lo.len().min(hi.len())));
        }
        let enc = ctx.encoder();
        let (half, gap) = (ctx.slots(), ctx.slots() / n);
        let mut coeffs = vec![0.0; 2 * half];
        for j in 0..n {
            let k = enc.bit_reverse(j, n);
            coeffs[k * gap] = lo[j];
            coeffs[k * gap + half] = hi[j];
        }
        Ok(enc
            .embed(&coeffs)
            .into_iter()
            .take(n)
            .map(|z| z.scale(self.factor))
            .collect())
    }
}

/// lo - i hi (the product by -i is the monomial X^(N/2): no level).
pub(super) fn combine(
    ctx: &CkksContext,
    lo: &CkksCiphertext,
    hi: &CkksCiphertext,
) -> Result<CkksCiphertext> {
    let t = Evaluator::mul_const_to_scale(ctx, hi, Complex::new(0.0, -1.0), hi.scale())?;
    ctx.add(lo, &t)
}
