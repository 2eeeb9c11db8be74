//! High-precision reals for the minimax computations: dashu's binary floats (`dashu-float`) rounded
//! to nearest at a working precision fixed per computation. Every constant is built at that
//! precision (a dashu float made from an `f64` would otherwise carry only the bits of its mantissa).

use crate::{Error, Result};
use dashu_float::round::mode::HalfEven;
use dashu_float::FBig;

/// A binary floating-point number of arbitrary precision, rounded to nearest (ties to even).
/// The target functions of [`super::remez()`] take and return it.
pub type Real = FBig<HalfEven>;

/// A working precision in bits; builds constants at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Precision(pub(crate) usize);

impl Precision {
    /// `x` exactly, carried at this precision. Errors: `OutOfRange` for NaN or an infinity.
    pub(crate) fn of(self, x: f64) -> Result<Real> {
        if !x.is_finite() {
            return Err(Error::OutOfRange(format!(
                "{x} is not a finite number; minimax approximation takes finite inputs only"
            )));
        }
        let v = Real::try_from(x)
            .map_err(|_| Error::Internal(format!("the finite {x} did not convert")))?;
        Ok(self.round(v))
    }

    /// The integer `n` at this precision (exact for |n| < 2^53).
    pub(crate) fn int(self, n: i64) -> Real {
        self.round(Real::from(n))
    }

    /// `x` carried at this precision (rounded if it has more bits).
    pub(crate) fn round(self, x: Real) -> Real {
        x.with_precision(self.0).value()
    }
}

/// The nearest `f64` (saturating to an infinity beyond its range).
pub(crate) fn to_f64(x: &Real) -> f64 {
    x.to_f64().value()
}

/// |x|.
pub(crate) fn abs(x: &Real) -> Real {
    if is_negative(x) {
        -x.clone()
    } else {
        x.clone()
    }
}

/// x < 0.
pub(crate) fn is_negative(x: &Real) -> bool {
    *x < Real::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_real_round_trip_and_refusal() {
        let p = Precision(200);
        let third = p.int(1) / p.int(3);
        assert_eq!(to_f64(&third), 1.0 / 3.0);
        assert!(to_f64(&abs(&(third.clone() - p.int(1)))) - 2.0 / 3.0 < 1e-16);
        assert_eq!(third.precision(), 200);
        assert_eq!(to_f64(&p.of(0.1).unwrap_or(Real::ZERO)), 0.1);
        assert!(p.of(f64::NAN).is_err());
        assert!(p.of(f64::INFINITY).is_err());
    }
}
