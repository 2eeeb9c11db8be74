//! Constants of the integer schemes (BGV, BFV, HPR): integers taken modulo t, held centred in
//! (-t/2, t/2].

use crate::{Error, Result};

/// v mod t, centred in (-t/2, t/2].
pub(super) fn reduce(t: u64, v: i128) -> i64 {
    let t = i128::from(t);
    let r = v.rem_euclid(t);
    (if r > t / 2 { r - t } else { r }) as i64
}

/// The integer v mod t, centred; `InvalidParameters` for a v that is not an integer below 2^63.
pub(super) fn from_real(t: u64, v: f64) -> Result<i64> {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.2e18 {
        Ok(reduce(t, v as i128))
    } else {
        Err(Error::InvalidParameters(format!(
            "the integer schemes take integer constants (mod t), got {v}"
        )))
    }
}

/// a + k b mod t, centred.
pub(super) fn mul_add(t: u64, a: i64, k: i64, b: i64) -> i64 {
    reduce(t, i128::from(a) + i128::from(k) * i128::from(b))
}

/// Every value reduced and centred.
pub(super) fn reduce_all(t: u64, values: &[i64]) -> Vec<i64> {
    values.iter().map(|&v| reduce(t, i128::from(v))).collect()
}

/// The coefficients (in [0, t)) of the constant polynomial c, of length n: the constant c in every
/// slot of the batch layout.
pub(super) fn constant(t: u64, n: usize, c: i64) -> Vec<u64> {
    let mut coeffs = vec![0u64; n];
    if let Some(x) = coeffs.first_mut() {
        *x = i128::from(c).rem_euclid(i128::from(t)) as u64;
    }
    coeffs
}

/// Refuses a scale other than 1 (the integer schemes have no scale to land on).
pub(super) fn unit_scale(scale: f64, op: &str) -> Result<()> {
    if scale == 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "{op}: the integer schemes hold every ciphertext at scale 1, got {scale}"
        )))
    }
}

/// Refuses a level other than 0 (BFV and HPR have one level).
pub(super) fn level_zero(level: usize, op: &str) -> Result<()> {
    if level == 0 {
        Ok(())
    } else {
        Err(Error::InvalidParameters(format!(
            "{op}: level {level}; this scheme has level 0 only"
        )))
    }
}

/// The constant methods of an integer scheme's [`super::Evaluator`] (BGV, BFV, HPR): integers mod
/// t held centred, with `|$s| $t` the expression of t from the context `$s`.
macro_rules! integer_scalars {
    (|$s:ident| $t:expr) => {
        fn reduce_scalar(&self, c: i64) -> $crate::Result<i64> {
            let $s = self;
            Ok($crate::eval::integer::reduce($t, i128::from(c)))
        }
        fn scalar_from_int(&self, v: i64) -> i64 {
            let $s = self;
            $crate::eval::integer::reduce($t, i128::from(v))
        }
        fn scalar_from_real(&self, v: f64) -> $crate::Result<i64> {
            let $s = self;
            $crate::eval::integer::from_real($t, v)
        }
        fn scalar_mul_add(&self, a: i64, k: i64, b: i64) -> i64 {
            let $s = self;
            $crate::eval::integer::mul_add($t, a, k, b)
        }
    };
}
pub(super) use integer_scalars;

/// The operations BGV and BFV share in their [`super::Evaluator`] (`$ctx` with ciphertext `$ct`
/// and plaintext `$pt`): sums and products by plaintexts through the inherent methods, constants
/// through the constant polynomial, slot vectors batch-encoded, rotations of the rows and the row
/// swap, and the hoisted `rotate_many` and `sum_rotations` (integer weights, level and scale kept).
macro_rules! batched_integer_methods {
    ($ctx:ty, $ct:ty, $pt:ty) => {
        $crate::eval::integer::integer_scalars!(|c| c.t().value());

        fn add_assign(&self, a: &mut $ct, b: &$ct) -> $crate::Result<()> {
            <$ctx>::add_assign(self, a, b)
        }
        fn sub_assign(&self, a: &mut $ct, b: &$ct) -> $crate::Result<()> {
            <$ctx>::sub_assign(self, a, b)
        }
        fn negate_assign(&self, a: &mut $ct) -> $crate::Result<()> {
            <$ctx>::negate_assign(self, a)
        }
        fn add_const(&self, a: &$ct, c: i64) -> $crate::Result<$ct> {
            let coeffs =
                $crate::eval::integer::constant(self.t().value(), self.params().degree(), c);
            <$ctx>::add_plain(self, a, &self.plaintext_from_coefficients(&coeffs)?)
        }
        fn add_plain(&self, a: &$ct, m: &$pt) -> $crate::Result<$ct> {
            <$ctx>::add_plain(self, a, m)
        }
        fn mul_plain(&self, a: &$ct, m: &$pt) -> $crate::Result<$ct> {
            <$ctx>::mul_plain(self, a, m)
        }
        fn relinearize(&self, a: &$ct, rlk: &$crate::rlwe::RelinKey) -> $crate::Result<$ct> {
            <$ctx>::relinearize(self, a, rlk)
        }
        fn mul_const_to_scale(&self, a: &$ct, c: i64, scale: f64) -> $crate::Result<$ct> {
            $crate::eval::integer::unit_scale(scale, "mul_const_to_scale")?;
            self.mul_scalar(a, c)
        }
        fn mul_values_to_scale(&self, a: &$ct, values: &[i64], scale: f64) -> $crate::Result<$ct> {
            $crate::eval::integer::unit_scale(scale, "mul_values_to_scale")?;
            let v = $crate::eval::integer::reduce_all(self.t().value(), values);
            <$ctx>::mul_plain(self, a, &self.encode_signed(&v)?)
        }
        fn rotate(
            &self,
            a: &$ct,
            step: i64,
            keys: &$crate::rlwe::GaloisKeys,
        ) -> $crate::Result<$ct> {
            self.rotate_rows(a, step, keys)
        }
        fn conjugate(&self, a: &$ct, keys: &$crate::rlwe::GaloisKeys) -> $crate::Result<$ct> {
            self.rotate_columns(a, keys)
        }
        fn rotate_many(
            &self,
            a: &$ct,
            steps: &[i64],
            keys: &$crate::rlwe::GaloisKeys,
        ) -> $crate::Result<Vec<$ct>> {
            <$ctx>::rotate_many(self, a, steps, keys)
        }
        fn sum_rotations(
            &self,
            a: &$ct,
            steps: &[i64],
            weights: Option<&[i64]>,
            keys: &$crate::rlwe::GaloisKeys,
        ) -> $crate::Result<$ct> {
            let w = weights.map($crate::encoding::rotations::IntegerWeights::Scalars);
            <$ctx>::sum_rotations(self, a, steps, w, keys)
        }
    };
}
pub(super) use batched_integer_methods;

/// The level and scale methods of a scheme with one level and no scale (BFV, HPR; ciphertext
/// `$ct`): level 0, scale 1, a rescale that does nothing.
macro_rules! single_level_methods {
    ($ct:ty) => {
        fn max_level(&self) -> usize {
            0
        }
        fn level(&self, _ct: &$ct) -> usize {
            0
        }
        fn scale(&self, _ct: &$ct) -> f64 {
            1.0
        }
        fn default_scale(&self, level: usize) -> $crate::Result<f64> {
            $crate::eval::integer::level_zero(level, "default_scale")?;
            Ok(1.0)
        }
        fn rescale_levels(&self) -> usize {
            0
        }
        fn rescale_factor(&self, _level: usize) -> $crate::Result<f64> {
            Ok(1.0)
        }
        fn rescale(&self, a: &$ct) -> $crate::Result<$ct> {
            self.check_ct(a)?;
            Ok(a.clone())
        }
        fn drop_level(&self, a: &$ct, level: usize) -> $crate::Result<$ct> {
            $crate::eval::integer::level_zero(level, "drop_level")?;
            self.check_ct(a)?;
            Ok(a.clone())
        }
    };
}
pub(super) use single_level_methods;
