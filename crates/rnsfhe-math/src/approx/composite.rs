//! Composite minimax approximations of sign(x) on [-1, -alpha] U [alpha, 1] (Lee, Lee, Kim and No,
//! "Minimax approximation of sign function by composite polynomial for homomorphic comparison",
//! IEEE TDSC 2021): p_k o ... o p_1, p_1 the odd minimax approximation of sign on
//! [-1, -alpha] U [alpha, 1] and each next one that of sign on the image of the previous, with
//! the degrees found by [`super::search`].
//!
//! Decisions (each tested in `sign_tests`):
//! - Every component is expressed on the Chebyshev interval [-1, 1]: p_i (i < k) is the minimax
//!   polynomial q_i, of error E_i, times (1 - eta) / (1 + E_i), so that its image of the
//!   approximation set, widened by eta, stays in [-1, 1]; a CKKS evaluator then needs no change of
//!   variable (which would cost a level) and each next domain is [-1, -a'] U [a', 1] with
//!   a' = (1 - E_i)(1 - eta) / (1 + E_i) - eta.
//! - eta = 2^-max(log_err, log_alpha) ([`CompositeSign::input_error`]): each component after the
//!   first tolerates an error of up to eta added to its input (the evaluation error of the
//!   previous ones); the first one's input is x itself. eta is 2^-log_err unless alpha is smaller:
//!   p_1 lifts alpha only to about d_1 alpha, so an input error of 2^-log_err >> alpha would make
//!   +alpha and -alpha indistinguishable (no composite exists for, say, alpha = 2^-30 with 2^-20).
//! - On |x| < alpha the composite is odd and stays in [-1 - 2^-log_err, 1 + 2^-log_err]: a
//!   minimax odd approximation of sign on [a, 1] has all its critical points inside (a, 1), so it is
//!   monotone on [0, a], from 0 to 1 - E, which the next component maps the same way.

use super::chebyshev::clenshaw;
use super::real::{abs, to_f64, Precision, Real};
use super::search::{depth, products, Search};
use super::sign_tables::SIGN_TABLES;
use crate::{Error, Result};

/// The largest log_alpha accepted (alpha = 2^-40).
pub const MAX_LOG_ALPHA: u32 = 40;
/// The largest log_err accepted: the `f64` coefficients carry about 2^-52 of their size, so a
/// smaller error is not reliably reached.
pub const MAX_LOG_ERR: u32 = 40;

/// One polynomial of a composite: sum_k chebyshev\[k] T_k(x / r) on `domain` = (-r, r).
#[derive(Clone, Debug, PartialEq)]
pub struct Component {
    /// The Chebyshev interval (-r, r); (-1, 1) for every component built here.
    pub domain: (f64, f64),
    /// c_0..c_d; only the odd entries are non-zero.
    pub chebyshev: Vec<f64>,
}

impl Component {
    /// The degree d.
    pub fn degree(&self) -> usize {
        self.chebyshev.len().saturating_sub(1)
    }

    /// p(x) in `f64` (Clenshaw).
    pub fn evaluate(&self, x: f64) -> f64 {
        clenshaw(&self.chebyshev, x / self.domain.1)
    }
}

/// p_k o ... o p_1 ~ sign(x) on alpha <= |x| <= 1, alpha = 2^-log_alpha, within 2^-log_err.
#[derive(Clone, Debug, PartialEq)]
pub struct CompositeSign {
    /// alpha = 2^-log_alpha: the smallest |x| decided.
    pub log_alpha: u32,
    /// The tolerated error 2^-log_err (and the evaluation error each component tolerates).
    pub log_err: u32,
    /// p_1 first.
    pub components: Vec<Component>,
    /// The worst |P(x) - sign(x)| on alpha <= |x| <= 1 found by an `f64` scan of 2^17 points and
    /// measured, around its 16 largest local maxima, in 256-bit precision.
    pub max_error: f64,
}

impl CompositeSign {
    /// The levels spent: sum of ceil(log2(d_i + 1)).
    pub fn depth(&self) -> usize {
        self.components.iter().map(|c| depth(c.degree())).sum()
    }

    /// d_1, ..., d_k.
    pub fn degrees(&self) -> Vec<usize> {
        self.components.iter().map(Component::degree).collect()
    }

    /// eta = 2^-max(log_err, log_alpha): the error each component after the first tolerates on its
    /// input, on top of which the result stays within 2^-log_err of sign(x).
    pub fn input_error(&self) -> f64 {
        2f64.powi(-(self.log_alpha.max(self.log_err) as i32))
    }

    /// The non-scalar products under the cost model of [`super::search`].
    pub fn products(&self) -> usize {
        self.components.iter().map(|c| products(c.degree())).sum()
    }

    /// P(x) in `f64`: the components in turn, each by Clenshaw.
    pub fn evaluate(&self, x: f64) -> f64 {
        self.components.iter().fold(x, |y, c| c.evaluate(y))
    }
}

/// Checks alpha = 2^-log_alpha < 1 and the error bound. Errors: `InvalidParameters`.
fn check(log_alpha: u32, log_err: u32) -> Result<()> {
    if log_alpha == 0 || log_alpha > MAX_LOG_ALPHA {
        return Err(Error::InvalidParameters(format!(
            "log_alpha {log_alpha}: alpha = 2^-log_alpha must be below 1 and at least \
             2^-{MAX_LOG_ALPHA} (log_alpha in 1..={MAX_LOG_ALPHA})"
        )));
    }
    if log_err == 0 || log_err > MAX_LOG_ERR {
        return Err(Error::InvalidParameters(format!(
            "log_err {log_err}: the error 2^-log_err must be below 1 and at least \
             2^-{MAX_LOG_ERR} (log_err in 1..={MAX_LOG_ERR})"
        )));
    }
    Ok(())
}

/// Computes the composite for alpha = 2^-log_alpha and error 2^-log_err: the degree search and
/// every component by Remez in 256-bit precision (seconds; [`sign_table`] is instant for the
/// shipped pairs). Errors: `InvalidParameters` for log_alpha or log_err out of range, or when no
/// composite is found.
pub fn composite_sign(log_alpha: u32, log_err: u32) -> Result<CompositeSign> {
    check(log_alpha, log_err)?;
    let alpha = 2f64.powi(-(log_alpha as i32));
    let mut search = Search::new(log_alpha, log_err);
    let steps = search.run(alpha)?;
    let last = steps.len().saturating_sub(1);
    let components = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let scale = if i == last {
                1.0
            } else {
                (1.0 - search.eta()) / (1.0 + s.error)
            };
            Component {
                domain: (-1.0, 1.0),
                chebyshev: s.minimax.chebyshev.iter().map(|c| c * scale).collect(),
            }
        })
        .collect();
    let mut out = CompositeSign {
        log_alpha,
        log_err,
        components,
        max_error: 0.0,
    };
    out.max_error = measure(&out)?;
    Ok(out)
}

/// The shipped composite for (log_alpha, log_err), if there is one (see [`sign_table_pairs`]).
pub fn sign_table(log_alpha: u32, log_err: u32) -> Option<CompositeSign> {
    let e = SIGN_TABLES
        .iter()
        .find(|e| e.log_alpha == log_alpha && e.log_err == log_err)?;
    let components = e
        .components
        .iter()
        .map(|odd| {
            let mut c = vec![0.0; 2 * odd.len()];
            for (j, v) in odd.iter().enumerate() {
                c[2 * j + 1] = *v;
            }
            Component {
                domain: (-1.0, 1.0),
                chebyshev: c,
            }
        })
        .collect();
    Some(CompositeSign {
        log_alpha,
        log_err,
        components,
        max_error: e.max_error,
    })
}

/// The (log_alpha, log_err) pairs [`sign_table`] has.
pub fn sign_table_pairs() -> Vec<(u32, u32)> {
    SIGN_TABLES
        .iter()
        .map(|e| (e.log_alpha, e.log_err))
        .collect()
}

/// P(x) in high precision (the coefficients exact, Clenshaw at `p`).
pub(crate) fn evaluate_precise(s: &CompositeSign, x: &Real, p: Precision) -> Result<Real> {
    let one = p.int(1);
    let mut y = x.clone();
    for c in &s.components {
        let odd: Vec<Real> = c
            .chebyshev
            .iter()
            .skip(1)
            .step_by(2)
            .map(|&v| p.of(v))
            .collect::<Result<_>>()?;
        let r = p.of(c.domain.1)?;
        y = super::chebyshev::evaluate(super::chebyshev::Parity::Odd, &odd, &(y / r), &one);
    }
    Ok(y)
}

/// max |P(x) - 1| on [alpha, 1] (P is odd): an `f64` scan of 2^16 log-spaced and 2^16 evenly
/// spaced points finds the local maxima; the 16 largest are refined by golden-section search in
/// 256-bit precision between their neighbours.
pub(crate) fn measure(s: &CompositeSign) -> Result<f64> {
    let alpha = 2f64.powi(-(s.log_alpha as i32));
    let n = 1 << 16;
    let mut xs: Vec<f64> = (0..=n)
        .map(|i| alpha.powf(1.0 - i as f64 / n as f64))
        .chain((0..=n).map(|i| alpha + (1.0 - alpha) * i as f64 / n as f64))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let es: Vec<f64> = xs.iter().map(|&x| (s.evaluate(x) - 1.0).abs()).collect();
    let mut peaks: Vec<usize> = (0..xs.len())
        .filter(|&i| (i == 0 || es[i] >= es[i - 1]) && (i + 1 == xs.len() || es[i] >= es[i + 1]))
        .collect();
    peaks.sort_by(|&i, &j| es[j].total_cmp(&es[i]));
    peaks.truncate(16);
    let p = Precision(256);
    let err = |x: &Real| -> Result<Real> { Ok(abs(&(evaluate_precise(s, x, p)? - p.int(1)))) };
    let g = p.of(0.618_033_988_749_894_9)?;
    let mut worst = Real::ZERO;
    for i in peaks {
        let (mut lo, mut hi) = (
            p.of(xs[i.saturating_sub(1)])?,
            p.of(xs[(i + 1).min(xs.len() - 1)])?,
        );
        let mut best = err(&p.of(xs[i])?)?;
        for _ in 0..40 {
            let x1 = hi.clone() - &g * (hi.clone() - &lo);
            let x2 = lo.clone() + &g * (hi.clone() - &lo);
            let (e1, e2) = (err(&x1)?, err(&x2)?);
            if e1 < e2 {
                lo = x1;
            } else {
                hi = x2;
            }
            let e = if e1 > e2 { e1 } else { e2 };
            if e > best {
                best = e;
            }
        }
        if best > worst {
            worst = best;
        }
    }
    Ok(to_f64(&worst))
}
