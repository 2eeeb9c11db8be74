//! Chebyshev series: Clenshaw's recurrence in `f64` and in high precision, and the bases of the
//! minimax problems (all T_k, odd ones only, even ones only).

use super::real::Real;

/// Which Chebyshev polynomials T_k (k <= degree) a minimax polynomial is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// T_0, T_1, ..., T_d: any polynomial of degree d.
    Any,
    /// T_1, T_3, ..., T_d (d odd): an odd polynomial, for an odd function on a symmetric set.
    Odd,
    /// T_0, T_2, ..., T_d (d even): an even polynomial, for an even function on a symmetric set.
    Even,
}

impl Parity {
    /// The k of the T_k used at degree `d`, ascending.
    pub(crate) fn indices(self, d: usize) -> Vec<usize> {
        match self {
            Parity::Any => (0..=d).collect(),
            Parity::Odd => (1..=d).step_by(2).collect(),
            Parity::Even => (0..=d).step_by(2).collect(),
        }
    }

    /// The full coefficient vector c_0..c_d from the coefficients of [`Parity::indices`].
    pub(crate) fn expand(self, d: usize, compact: &[f64]) -> Vec<f64> {
        let mut full = vec![0.0; d + 1];
        for (k, c) in self.indices(d).into_iter().zip(compact) {
            full[k] = *c;
        }
        full
    }
}

/// sum_k c\[k] T_k(y) by Clenshaw's recurrence in `f64` (0 for no coefficients).
pub fn clenshaw(c: &[f64], y: f64) -> f64 {
    let (mut b1, mut b2) = (0.0, 0.0);
    for &ck in c.iter().skip(1).rev() {
        let b = ck + 2.0 * y * b1 - b2;
        b2 = b1;
        b1 = b;
    }
    c.first().map_or(0.0, |c0| c0 + y * b1 - b2)
}

/// sum_j c[j] phi_j(y) for the basis phi of `parity` (phi_j = T_(indices[j])), in high precision:
/// Clenshaw in y for `Any`; for `Odd`, T_(2j+1)(y) = y V_j(t) with t = T_2(y) = 2y^2 - 1 and the
/// third-kind V_j (V_0 = 1, V_1 = 2t - 1, V_(j+1) = 2t V_j - V_(j-1)), whose Clenshaw sum is
/// b_0 - b_1; for `Even`, T_(2j)(y) = T_j(t). Half the products of a full recurrence either way.
/// `one` carries the working precision.
pub(crate) fn evaluate(parity: Parity, c: &[Real], y: &Real, one: &Real) -> Real {
    let two = one.clone() + one;
    match parity {
        Parity::Any => clenshaw_real(c, y),
        Parity::Even => clenshaw_real(c, &(two * y * y - one)),
        Parity::Odd => {
            let two_t = (two.clone() * y * y - one) * two;
            let (mut b1, mut b2) = (Real::ZERO, Real::ZERO);
            for cj in c.iter().rev() {
                let b = cj.clone() + &two_t * &b1 - &b2;
                b2 = b1;
                b1 = b;
            }
            (b1 - b2) * y
        }
    }
}

/// sum_k c[k] T_k(y) by Clenshaw's recurrence in high precision.
fn clenshaw_real(c: &[Real], y: &Real) -> Real {
    let two_y = y.clone() + y;
    let (mut b1, mut b2) = (Real::ZERO, Real::ZERO);
    for ck in c.iter().skip(1).rev() {
        let b = ck.clone() + &two_y * &b1 - &b2;
        b2 = b1;
        b1 = b;
    }
    match c.first() {
        Some(c0) => c0.clone() + y * &b1 - b2,
        None => Real::ZERO,
    }
}

/// phi_j(y) = T_(indices[j])(y) for every j, by T_(k+1) = 2y T_k - T_(k-1).
pub(crate) fn basis_values(indices: &[usize], y: &Real, one: &Real) -> Vec<Real> {
    let top = indices.last().copied().unwrap_or(0);
    let two_y = y.clone() + y;
    let mut t = Vec::with_capacity(top + 1);
    t.push(one.clone());
    if top >= 1 {
        t.push(y.clone());
    }
    for k in 2..=top {
        let next = &two_y * &t[k - 1] - &t[k - 2];
        t.push(next);
    }
    indices.iter().map(|&k| t[k].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::super::real::{to_f64, Precision};
    use super::*;

    #[test]
    fn approx_clenshaw_matches_the_trigonometric_definition() {
        // T_k(cos t) = cos(k t), independent of any recurrence.
        let p = Precision(160);
        let one = p.int(1);
        let c: Vec<f64> = (0..12).map(|k| 1.0 / (k as f64 + 1.5)).collect();
        for &y in &[-0.93, -0.2, 0.0, 0.37, 0.999] {
            let theta = f64::acos(y);
            let direct: f64 = c
                .iter()
                .enumerate()
                .map(|(k, ck)| ck * (k as f64 * theta).cos())
                .sum();
            assert!((clenshaw(&c, y) - direct).abs() < 1e-14);
            let yr = p.of(y).unwrap_or(Real::ZERO);
            for parity in [Parity::Any, Parity::Odd, Parity::Even] {
                let idx = parity.indices(11);
                let compact: Vec<f64> = idx.iter().map(|&k| c[k]).collect();
                let full = parity.expand(11, &compact);
                let hp: Vec<Real> = compact
                    .iter()
                    .map(|x| p.of(*x).unwrap_or(Real::ZERO))
                    .collect();
                let got = to_f64(&evaluate(parity, &hp, &yr, &one));
                assert!(
                    (got - clenshaw(&full, y)).abs() < 1e-14,
                    "{parity:?} at {y}"
                );
                let phi = basis_values(&idx, &yr, &one);
                for (k, v) in idx.iter().zip(&phi) {
                    assert!((to_f64(v) - (*k as f64 * theta).cos()).abs() < 1e-14);
                }
            }
        }
    }
}
