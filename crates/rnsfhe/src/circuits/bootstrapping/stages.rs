//! The DFT stages of CoeffsToSlots and SlotsToCoeffs with bootstrapping's constants folded in, and
//! the 2n-slot forms of sparse packing (Chen, Chillotti and Song, Eurocrypt 2019, section 4.2;
//! Lattigo's `dft.RepackImagAsReal`).

use std::ops::Range;

use crate::circuits::dft::DftDirection;
use crate::ckks::{fft_stages, CkksEncoder, Complex, DiagonalMatrix};
use crate::{Error, Result};

/// How CoeffsToSlots hands the coefficients of a plaintext to EvalMod (which reduces real values)
/// and SlotsToCoeffs takes them back. With n slots, the coefficients the slots depend on are
/// lo_k = t_(k gap) and hi_k = t_(k gap + N/2), k < n, gap = N/(2n) (the encoder's layout
/// c_k = lo_k - i hi_k); both transforms see them in bit-reversed order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotsFormat {
    /// One ciphertext of n complex slots lo - i hi (the plain DFT; StC-first's input).
    Complex,
    /// Two ciphertexts of n real slots, lo and hi (full packing: EvalMod runs on each).
    Split,
    /// One ciphertext of 2n real slots [lo | hi] (n <= N/4: EvalMod runs once; the
    /// packing costs no rotation, see [`super::CoeffsToSlots`]).
    Packed,
    /// One ciphertext of n real slots, lo only: enough for real messages (hi follows from lo by
    /// the symmetry of a real message, or is an integer that EvalMod removes, see
    /// [`super::SlotsToCoeffs`]).
    Real,
}

impl SlotsFormat {
    /// The ciphertexts EvalMod reduces in this format.
    pub fn parts(self) -> usize {
        match self {
            SlotsFormat::Split => 2,
            _ => 1,
        }
    }
}

/// How a DFT's constant is shared among its stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spread {
    /// scaling^(1/budget) on each stage: no stage's diagonals carry a large or small constant
    /// alone (CoeffsToSlots, whose values stay of one order from input to output).
    Even,
    /// The whole constant and the growth of the later stages (about sqrt(2) per butterfly on
    /// random inputs) on the first stage, each later stage divided by its growth: the values reach
    /// their final size after the first stage, so the later stages' rescale noise is small against
    /// them (SlotsToCoeffs after EvalMod, whose inputs are coefficients, sqrt(n) times smaller than
    /// the slots they make).
    FrontLoaded,
}

/// The stages of `direction` on `slots` values in `budget` groups ([`fft_stages`]), times
/// `scaling` shared as `spread` says.
pub(super) fn scaled_stages(
    enc: &CkksEncoder,
    direction: DftDirection,
    slots: usize,
    budget: usize,
    scaling: f64,
    spread: Spread,
) -> Result<Vec<DiagonalMatrix>> {
    let st = fft_stages(enc, slots, budget)?;
    let stages = match direction {
        DftDirection::SlotsToCoeffs => st.decode,
        DftDirection::CoeffsToSlots => st.encode,
    };
    let factors: Vec<f64> = match spread {
        Spread::Even => vec![scaling.powf(1.0 / budget as f64); budget],
        Spread::FrontLoaded => {
            // The butterflies per stage, as fft_stages merges them (the first groups one larger).
            let log = slots.trailing_zeros() as usize;
            let (q, r) = (log / budget, log % budget);
            let growth: Vec<f64> = (0..budget)
                .map(|g| 2f64.powf((q + usize::from(g < r)) as f64 / 2.0))
                .collect();
            let later: f64 = growth.iter().skip(1).product();
            std::iter::once(scaling * later)
                .chain(growth.iter().skip(1).map(|g| 1.0 / g))
                .collect()
        }
    };
    Ok(stages
        .into_iter()
        .zip(factors)
        .map(|(m, f)| m.scaled(f))
        .collect())
}

/// `m` (n slots) on 2n slots for n-periodic inputs [v | v]: diagonal k keeps its index and repeats
/// its values (v[(i + k) mod 2n] = v[(i + k) mod n]), so the output is [m v | m v].
pub(super) fn lift(m: &DiagonalMatrix) -> DiagonalMatrix {
    DiagonalMatrix {
        slots: 2 * m.slots,
        diagonals: m
            .diagonals
            .iter()
            .map(|(&k, d)| (k, d.iter().chain(d).copied().collect()))
            .collect(),
    }
}

/// Rows `rows` of `m` times `c`.
pub(super) fn scale_rows(m: &mut DiagonalMatrix, rows: Range<usize>, c: Complex) {
    for d in m.diagonals.values_mut() {
        for x in &mut d[rows.clone()] {
            *x = *x * c;
        }
    }
}

/// Column `j` of `m` times `c`: the entry of diagonal k in row (j - k) mod n.
pub(super) fn scale_column(m: &mut DiagonalMatrix, j: usize, c: Complex) {
    let n = m.slots;
    for (&k, d) in m.diagonals.iter_mut() {
        let i = (j + n - k) % n;
        d[i] = d[i] * c;
    }
}

/// [lo | hi] (2n slots) to the n-periodic [lo - i hi | lo - i hi]: diagonal 0 is 1 on the first n
/// rows and -i on the last n, diagonal n is -i on the first n and 1 on the last n.
pub(super) fn unpack(n: usize) -> DiagonalMatrix {
    let (one, minus_i) = (Complex::from_real(1.0), Complex::new(0.0, -1.0));
    let half = |a: Complex, b: Complex| -> Vec<Complex> {
        std::iter::repeat_n(a, n)
            .chain(std::iter::repeat_n(b, n))
            .collect()
    };
    DiagonalMatrix {
        slots: 2 * n,
        diagonals: [(0, half(one, minus_i)), (n, half(minus_i, one))]
            .into_iter()
            .collect(),
    }
}

/// The checks both DFTs of bootstrapping make on their arguments (`op` names the caller): `slots` a
/// power of two in 2..=`half` (N/2), 2 `slots` <= `half` for [`SlotsFormat::Packed`], and a finite,
/// positive `factor`. Errors: `InvalidParameters` naming the argument.
pub(super) fn check_arguments(
    op: &str,
    half: usize,
    slots: usize,
    factor: f64,
    format: SlotsFormat,
) -> Result<()> {
    if !slots.is_power_of_two() || !(2..=half).contains(&slots) {
        return Err(Error::InvalidParameters(format!(
            "{op}: {slots} slots; a power of two in 2..={half}"
        )));
    }
    if format == SlotsFormat::Packed && 2 * slots > half {
        return Err(Error::InvalidParameters(format!(
            "{op}: packing real and imaginary parts needs 2n <= N/2 slots, n = {slots}"
        )));
    }
    if !(factor.is_finite() && factor > 0.0) {
        return Err(Error::InvalidParameters(format!(
            "{op}: factor {factor} must be finite and > 0"
        )));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;

    fn v(n: usize) -> Vec<Complex> {
        (0..n)
            .map(|i| Complex::new(i as f64 * 0.25 - 1.0, 0.5 - i as f64 * 0.125))
            .collect()
    }

    #[test]
    fn lift_acts_on_periodic_inputs() {
        let enc = CkksEncoder::new(64).unwrap();
        let m =
            &scaled_stages(&enc, DftDirection::CoeffsToSlots, 8, 2, 3.0, Spread::Even).unwrap()[1];
        let x = v(8);
        let want = m.apply(&x).unwrap();
        let twice: Vec<Complex> = x.iter().chain(&x).copied().collect();
        let got = lift(m).apply(&twice).unwrap();
        for i in 0..16 {
            assert!((got[i] - want[i % 8]).abs() < 1e-12);
        }
    }

    #[test]
    fn unpack_and_column_scaling() {
        let (lo, hi) = (v(4), v(4).iter().map(|z| z.conj()).collect::<Vec<_>>());
        let packed: Vec<Complex> = lo.iter().chain(&hi).copied().collect();
        let got = unpack(4).apply(&packed).unwrap();
        for i in 0..8 {
            let want = lo[i % 4] - hi[i % 4] * Complex::new(0.0, 1.0);
            assert!((got[i] - want).abs() < 1e-12);
        }
        let enc = CkksEncoder::new(64).unwrap();
        let mut m = scaled_stages(
            &enc,
            DftDirection::SlotsToCoeffs,
            8,
            1,
            1.0,
            Spread::FrontLoaded,
        )
        .unwrap()[0]
            .clone();
        let before = m.clone();
        scale_column(&mut m, 0, Complex::from_real(0.5));
        let mut x = v(8);
        let a = m.apply(&x).unwrap();
        x[0] = x[0].scale(0.5);
        let b = before.apply(&x).unwrap();
        for i in 0..8 {
            assert!((a[i] - b[i]).abs() < 1e-12);
        }
    }
}
