//! The homomorphic DFT of CKKS bootstrapping: the encoder's special FFT evaluated on encrypted slots
//! as a product of sparse linear transforms, one level per stage (Chen, Chillotti and Song,
//! "Improved bootstrapping for approximate homomorphic encryption", Eurocrypt 2019, sections 3-4;
//! Lattigo's `circuits/ckks/dft`, `DFTMatrix` and `DFTEvaluator`, are the anchor).
//!
//! - SlotsToCoeffs evaluates the decoding map U on the slots: a ciphertext whose slots hold v
//!   becomes one whose plaintext has the coefficients v (in the encoder's layout);
//! - CoeffsToSlots evaluates U^-1: the inverse.
//!
//! [`fft_stages()`] factors U and U^-1 into `budget` sparse matrices (radix-2 butterflies merged as
//! evenly as possible); [`HomomorphicDft`] turns each into a [`CkksLinearTransform`] (hoisted BSGS)
//! at its level, so that a DFT of `budget` stages consumes `budget` levels and uses about
//! 2^(log2(slots) / budget + 1) diagonals per stage: fewer levels cost more rotations (CCS19's
//! level collapsing).
//!
//! Bit reversal is left out as in [`fft_stages()`]: SlotsToCoeffs takes its input in bit-reversed
//! order and CoeffsToSlots gives its output in bit-reversed order, so that
//! CoeffsToSlots(SlotsToCoeffs(z)) = z and SlotsToCoeffs(CoeffsToSlots(z)) = z (bootstrapping's
//! slot-wise EvalMod between the two does not see the order). The stages' diagonal convention,
//! `out[i] = sum_k diag_k[i] v[(i + k) mod n]`, is the linear transforms'
//! `diag_k[t] = M[t][(t + k) mod slots]`: the diagonals pass over unchanged.
//!
//! Left out (bootstrapping's own steps): the conjugation that splits CoeffsToSlots's output into
//! real and imaginary parts, the repacking of sparse slots, and the scaling constants EvalMod wants
//! folded into the matrices.

use super::lintrans::{CkksLinearTransform, DiagonalStorage, Diagonals};
use crate::ckks::{fft_stages, CkksCiphertext, CkksContext, Complex, DiagonalMatrix};
use crate::rlwe::GaloisKeys;
use crate::{Error, Result};

/// The map a [`HomomorphicDft`] evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DftDirection {
    /// The decoding map U ([`fft_stages()`]' `decode` stages; input in bit-reversed order).
    SlotsToCoeffs,
    /// The encoding map U^-1 ([`fft_stages()`]' `encode` stages; output in bit-reversed order).
    CoeffsToSlots,
}

/// A homomorphic DFT on `slots` slots (N/2, or fewer with sparse packing) for ciphertexts at one
/// level l on the chain's scale: stage k is a [`CkksLinearTransform`] at level l - k, so the
/// output is at level l - budget on the chain's scale there.
#[derive(Clone, Debug)]
pub struct HomomorphicDft {
    direction: DftDirection,
    slots: usize,
    level: usize,
    matrices: Vec<DiagonalMatrix>,
    stages: Vec<CkksLinearTransform>,
}

impl HomomorphicDft {
    /// The DFT in `direction` on `slots` slots, factored into `budget` stages
    /// ([`fft_stages()`]), for inputs at `level`.
    ///
    /// Errors: `OutOfRange` for a slot count that is not a power of two in 2..=N/2 or a budget
    /// outside 1..=log2(slots); `InvalidParameters` for a `level` above the top or below `budget`
    /// (each stage consumes one level).
    pub fn new(
        ctx: &CkksContext,
        direction: DftDirection,
        slots: usize,
        budget: usize,
        level: usize,
    ) -> Result<Self> {
        let st = fft_stages(ctx.encoder(), slots, budget)?;
        let matrices = match direction {
            DftDirection::SlotsToCoeffs => st.decode,
            DftDirection::CoeffsToSlots => st.encode,
        };
        Self::from_matrices(ctx, direction, matrices, level)
    }

    /// The DFT from its stages (applied in order, stage k at `level` - k): [`Self::new`]'s path, open
    /// for stages merged otherwise (e.g. with EvalMod's constants folded in).
    ///
    /// Errors: `InvalidParameters` for no stages, stages of different sizes, or a `level` above the
    /// top or below the stage count; those of [`CkksLinearTransform::new`].
    ///
    /// The diagonals are held in NTT form ([`DiagonalStorage::Ntt`]); [`Self::from_matrices_with`]
    /// chooses.
    pub fn from_matrices(
        ctx: &CkksContext,
        direction: DftDirection,
        matrices: Vec<DiagonalMatrix>,
        level: usize,
    ) -> Result<Self> {
        Self::from_matrices_with(ctx, direction, matrices, level, DiagonalStorage::Ntt)
    }

    /// [`Self::from_matrices`] with the diagonals held as `storage` says (the same results bit for
    /// bit).
    pub fn from_matrices_with(
        ctx: &CkksContext,
        direction: DftDirection,
        matrices: Vec<DiagonalMatrix>,
        level: usize,
        storage: DiagonalStorage,
    ) -> Result<Self> {
        let slots = matrices
            .first()
            .map(|m| m.slots)
            .ok_or_else(|| Error::InvalidParameters("a DFT needs at least one stage".into()))?;
        if matrices.iter().any(|m| m.slots != slots) {
            return Err(Error::InvalidParameters(
                "the stages of a DFT must have one slot count".into(),
            ));
        }
        let budget = matrices.len();
        if level > ctx.max_level() || level < budget {
            return Err(Error::InvalidParameters(format!(
                "a DFT of {budget} stages consumes {budget} levels: start level {level} is not in \
                 {budget}..={}",
                ctx.max_level()
            )));
        }
        let stages = matrices
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let d = lintrans_diagonals(m);
                CkksLinearTransform::with_storage(ctx, &d, level - k, slots, storage)
            })
            .collect::<Result<_>>()?;
        Ok(HomomorphicDft {
            direction,
            slots,
            level,
            matrices,
            stages,
        })
    }

    /// The map evaluated.
    pub fn direction(&self) -> DftDirection {
        self.direction
    }
    /// The slot count.
    pub fn slots(&self) -> usize {
        self.slots
    }
    /// The number of stages, which is the number of levels consumed.
    pub fn budget(&self) -> usize {
        self.stages.len()
    }
    /// The level of the inputs.
    pub fn level(&self) -> usize {
        self.level
    }
    /// The level of the output: [`Self::level`] - [`Self::budget`].
    pub fn output_level(&self) -> usize {
        self.level - self.stages.len()
    }
    /// The stages as plaintext matrices, in the order applied (the model: [`Self::apply_plain`]).
    pub fn matrices(&self) -> &[DiagonalMatrix] {
        &self.matrices
    }
    /// The stages as linear transforms, in the order applied (their splits, levels and steps).
    pub fn stages(&self) -> &[CkksLinearTransform] {
        &self.stages
    }
    /// The bytes the stages' encoded diagonals hold.
    pub fn encoded_bytes(&self) -> usize {
        self.stages
            .iter()
            .map(CkksLinearTransform::encoded_bytes)
            .sum()
    }
    /// The rotation steps [`Self::apply`] needs Galois keys for: the union over the stages, sorted.
    pub fn rotation_steps(&self) -> Vec<i64> {
        let mut steps: Vec<i64> = self
            .stages
            .iter()
            .flat_map(CkksLinearTransform::rotation_steps)
            .collect();
        steps.sort_unstable();
        steps.dedup();
        steps
    }

    /// The stages applied in order to `ct` (at [`Self::level`], on the chain's scale, with
    /// [`Self::slots`] slots): the output is at [`Self::output_level`] on the chain's scale there.
    /// Keys: [`Self::rotation_steps`]. Errors: those of [`CkksLinearTransform::apply`] (another
    /// level, scale or slot count; a missing key names its step).
    pub fn apply(
        &self,
        ctx: &CkksContext,
        ct: &CkksCiphertext,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        let mut stages = self.stages.iter();
        let first = stages
            .next()
            .ok_or_else(|| Error::Internal("a DFT without stages".into()))?;
        let mut r = first.apply(ctx, ct, keys)?;
        for s in stages {
            r = s.apply(ctx, &r, keys)?;
        }
        Ok(r)
    }

    /// The plaintext model of [`Self::apply`]: the stage matrices applied in order to `v`
    /// ([`Self::slots`] values). Errors: `LengthMismatch`.
    pub fn apply_plain(&self, v: &[Complex]) -> Result<Vec<Complex>> {
        self.matrices
            .iter()
            .try_fold(v.to_vec(), |x, m| m.apply(&x))
    }
}

/// A stage's diagonals for [`CkksLinearTransform`]: the same convention (module doc), diagonals that
/// are zero everywhere left out (they would cost a rotation for nothing).
fn lintrans_diagonals(m: &DiagonalMatrix) -> Diagonals<Complex> {
    m.diagonals
        .iter()
        .filter(|(_, d)| d.iter().any(|x| *x != Complex::ZERO))
        .map(|(&k, d)| (k, d.clone()))
        .collect()
}
