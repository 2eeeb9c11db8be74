//! The minimax polynomial of degree d of a function on a union of closed intervals, by the Remez
//! exchange algorithm with the modifications of Lee, Lee, Lee, Kim and No for unions ("High-precision
//! bootstrapping of RNS-CKKS homomorphic encryption using optimal minimax polynomial approximation
//! and inverse sine function", Eurocrypt 2021, section 3): the extrema are searched on every
//! interval, one is kept per run of equal sign (the largest), and surplus points are removed in
//! alternation-preserving pairs of least error until d + 2 remain (d + 1 basis functions + 1).
//!
//! Arithmetic is done in `dashu-float` at a working precision of a few hundred bits: the errors
//! sought are often far below the `f64` resolution of the values they are errors of (the later
//! components of a composite sign approximate 1 within 2^-40 to 2^-100; x^32 has minimax error
//! 2^-31 next to coefficients near 1), where `f64` cannot see the alternation at all. The
//! coefficients are returned as `f64`, and the error reported is that of those `f64` coefficients.

use super::chebyshev::{basis_values, evaluate, Parity};
pub use super::problem::{Minimax, MinimaxProblem, RemezOptions, MAX_REMEZ_DEGREE};
use super::real::{abs, is_negative, to_f64, Precision, Real};
use crate::{Error, Result};
use std::cell::Cell;

/// The minimax polynomial of `problem` for `f` (given and returning high-precision reals; it is
/// called only on the approximation set). Errors: `InvalidParameters` for a malformed problem or
/// options, and when the exchange does not converge (naming degree and intervals).
pub fn remez<F: Fn(&Real) -> Real>(
    f: F,
    problem: &MinimaxProblem,
    options: &RemezOptions,
) -> Result<Minimax> {
    let intervals = problem.checked()?;
    let fine = (64..=4096).contains(&options.precision_bits)
        && options.tolerance > 0.0
        && options.tolerance < 1.0
        && options.max_iterations > 0
        && options.samples_per_gap >= 2;
    if !fine {
        return Err(Error::InvalidParameters(format!(
            "Remez options {options:?}: need 64 <= precision_bits <= 4096, 0 < tolerance < 1, \
             max_iterations >= 1, samples_per_gap >= 2"
        )));
    }
    let solver = Solver::new(f, problem, &intervals, options)?;
    solver.run(problem)
}

/// A point of the approximation set with the error p(x) - f(x) there.
#[derive(Clone)]
struct Point {
    x: Real,
    e: Real,
}

struct Solver<F> {
    f: F,
    prec: Precision,
    one: Real,
    inv_r: Real,
    parity: Parity,
    indices: Vec<usize>,
    intervals: Vec<(Real, Real)>,
    options: RemezOptions,
    /// The first x where f was not finite (f is then taken as 0 there and the run refused).
    infinite_at: Cell<Option<f64>>,
}

impl<F: Fn(&Real) -> Real> Solver<F> {
    fn new(f: F, pb: &MinimaxProblem, iv: &[(f64, f64)], options: &RemezOptions) -> Result<Self> {
        let prec = Precision(options.precision_bits);
        let one = prec.int(1);
        let inv_r = one.clone() / prec.of(pb.radius)?;
        let intervals = iv
            .iter()
            .map(|&(a, b)| Ok((prec.of(a)?, prec.of(b)?)))
            .collect::<Result<Vec<_>>>()?;
        Ok(Solver {
            f,
            prec,
            one,
            inv_r,
            parity: pb.parity,
            indices: pb.parity.indices(pb.degree),
            intervals,
            options: options.clone(),
            infinite_at: Cell::new(None),
        })
    }

    fn fail(&self, pb: &MinimaxProblem, why: &str) -> Error {
        Error::InvalidParameters(format!(
            "Remez for degree {} ({:?}) on {:?}: {why}; try a lower degree, a higher precision_bits \
             or a wider interval",
            pb.degree, pb.parity, pb.intervals
        ))
    }

    fn run(&self, pb: &MinimaxProblem) -> Result<Minimax> {
        let m = self.indices.len() + 1;
        let mut reference = self.initial_reference(m);
        for iteration in 1..=self.options.max_iterations {
            let solved = self.solve(&reference);
            let mut ext = match &solved {
                Some((c, _)) => self.extrema(c, &reference, self.options.samples_per_gap),
                None => Vec::new(),
            };
            if let Some(x) = self.infinite_at.get() {
                return Err(Error::OutOfRange(format!(
                    "the function to approximate is not finite at x = {x}; it must be finite on \
                     every interval of {:?}",
                    pb.intervals
                )));
            }
            let (c, h) = solved.ok_or_else(|| self.fail(pb, "the reference system is singular"))?;
            // An error below 2^-(precision / 2) is as exact as the working precision can tell
            // (and far below what f64 coefficients carry): the reference is kept as it is.
            if spread(&ext).0 <= self.one.clone() >> (self.prec.0 / 2) as isize {
                return self.finish(pb, &c, &h, &reference, iteration);
            }
            if ext.len() < m {
                return Err(self.fail(pb, "the error lost its alternation"));
            }
            reduce(&mut ext, m);
            let (hi, lo) = spread(&ext);
            if to_f64(&((hi.clone() - &lo) / &hi)) <= self.options.tolerance {
                let alternation: Vec<Real> = ext.into_iter().map(|p| p.x).collect();
                return self.finish(pb, &c, &h, &alternation, iteration);
            }
            reference = ext.into_iter().map(|p| p.x).collect();
        }
        Err(self.fail(
            pb,
            &format!(
                "no equioscillation after {} exchanges",
                self.options.max_iterations
            ),
        ))
    }

    /// The result for the converged coefficients `c`: rounded to `f64`, measured densely.
    fn finish(
        &self,
        pb: &MinimaxProblem,
        c: &[Real],
        h: &Real,
        alternation: &[Real],
        iterations: usize,
    ) -> Result<Minimax> {
        let compact: Vec<f64> = c.iter().map(to_f64).collect();
        if compact.iter().any(|x| !x.is_finite()) {
            return Err(self.fail(pb, "a coefficient does not fit an f64"));
        }
        let rounded = compact
            .iter()
            .map(|&x| self.prec.of(x))
            .collect::<Result<Vec<_>>>()?;
        let ext = self.extrema(&rounded, alternation, 4 * self.options.samples_per_gap);
        let (max_error, _) = spread(&ext);
        Ok(Minimax {
            degree: pb.degree,
            domain: (-pb.radius, pb.radius),
            chebyshev: pb.parity.expand(pb.degree, &compact),
            max_error: to_f64(&max_error),
            levelled_error: to_f64(&abs(h)),
            alternation: alternation.iter().map(to_f64).collect(),
            iterations,
        })
    }

    /// f(x) at the working precision (0 where it is not finite, recording x).
    fn target(&self, x: &Real) -> Real {
        let v = (self.f)(x);
        if v.repr().is_finite() {
            self.prec.round(v)
        } else {
            if self.infinite_at.get().is_none() {
                self.infinite_at.set(Some(to_f64(x)));
            }
            Real::ZERO
        }
    }

    /// p(x) - f(x).
    fn error(&self, c: &[Real], x: &Real) -> Real {
        let p = evaluate(self.parity, c, &(x * &self.inv_r), &self.one);
        p - self.target(x)
    }

    /// m points spread over the union like Chebyshev extrema over its total length.
    fn initial_reference(&self, m: usize) -> Vec<Real> {
        let lengths: Vec<Real> = self.intervals.iter().map(|(a, b)| b.clone() - a).collect();
        let total = lengths.iter().fold(Real::ZERO, |s, l| s + l);
        let half = self.one.clone() >> 1;
        (0..m)
            .map(|k| {
                let cos = self
                    .prec
                    .of((std::f64::consts::PI * k as f64 / (m - 1) as f64).cos());
                let mut t = (self.one.clone() - cos.unwrap_or(Real::ZERO)) * &half * &total;
                for ((a, _), l) in self.intervals.iter().zip(&lengths) {
                    if t <= *l {
                        return a.clone() + &t;
                    }
                    t -= l;
                }
                self.intervals.last().map_or(Real::ZERO, |iv| iv.1.clone())
            })
            .collect()
    }

    /// Solves sum_j c_j phi_j(x_i) + (-1)^i h = f(x_i) (Gaussian elimination, partial pivoting);
    /// `None` when singular.
    fn solve(&self, reference: &[Real]) -> Option<(Vec<Real>, Real)> {
        let m = reference.len();
        let mut rows: Vec<Vec<Real>> = reference
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let mut row = basis_values(&self.indices, &(x * &self.inv_r), &self.one);
                row.push(if i % 2 == 0 {
                    self.one.clone()
                } else {
                    -self.one.clone()
                });
                row.push(self.target(x));
                row
            })
            .collect();
        for col in 0..m {
            let pivot = (col..m).max_by(|&i, &j| abs(&rows[i][col]).cmp(&abs(&rows[j][col])))?;
            if rows[pivot][col] == Real::ZERO {
                return None;
            }
            rows.swap(col, pivot);
            let (top, rest) = rows.split_at_mut(col + 1);
            let prow = &top[col];
            for row in rest.iter_mut() {
                let factor = row[col].clone() / &prow[col];
                for k in col..=m {
                    row[k] -= &factor * &prow[k];
                }
            }
        }
        let mut sol = vec![Real::ZERO; m];
        for i in (0..m).rev() {
            let mut s = rows[i][m].clone();
            for k in i + 1..m {
                s -= &rows[i][k] * &sol[k];
            }
            sol[i] = s / &rows[i][i];
        }
        let h = sol.pop()?;
        Some((sol, h))
    }

    /// The extrema of p - f: a scan with `k` samples between neighbouring nodes (interval ends and
    /// `nodes`), one point per run of equal sign (its largest), refined by golden-section search.
    fn extrema(&self, c: &[Real], nodes: &[Real], k: usize) -> Vec<Point> {
        let mut out: Vec<Point> = Vec::new();
        for (a, b) in &self.intervals {
            let mut knots: Vec<Real> = nodes.iter().filter(|x| *x > a && *x < b).cloned().collect();
            knots.insert(0, a.clone());
            knots.push(b.clone());
            let mut xs: Vec<Real> = Vec::with_capacity(knots.len() * k);
            let step = self.one.clone() / self.prec.int(k as i64);
            for w in knots.windows(2) {
                let gap = w[1].clone() - &w[0];
                xs.extend((0..k).map(|j| w[0].clone() + &gap * &step * self.prec.int(j as i64)));
            }
            xs.push(b.clone());
            let es: Vec<Real> = xs.iter().map(|x| self.error(c, x)).collect();
            let mut i = 0;
            while i < xs.len() {
                if es[i] == Real::ZERO {
                    i += 1;
                    continue;
                }
                let neg = is_negative(&es[i]);
                let mut best = i;
                let mut j = i;
                while j < xs.len() && es[j] != Real::ZERO && is_negative(&es[j]) == neg {
                    if abs(&es[j]) > abs(&es[best]) {
                        best = j;
                    }
                    j += 1;
                }
                let at = |k: usize| Point {
                    x: xs[k].clone(),
                    e: es[k].clone(),
                };
                let p = if best == 0 || best + 1 == xs.len() {
                    let (lo, hi) = (
                        &xs[best.saturating_sub(1)],
                        &xs[(best + 1).min(xs.len() - 1)],
                    );
                    self.golden(c, lo, hi, at(best))
                } else {
                    self.parabolic(c, [at(best - 1), at(best), at(best + 1)])
                };
                match out.last_mut() {
                    Some(last) if is_negative(&last.e) == is_negative(&p.e) => {
                        if abs(&p.e) > abs(&last.e) {
                            *last = p;
                        }
                    }
                    _ => out.push(p),
                }
                i = j;
            }
        }
        out
    }

    /// The largest |p - f| near `t[1]` (of its sign, `t[1]` the largest of the three) by successive
    /// parabolic interpolation through three bracketing points: the error is smooth and its peak
    /// quadratic, so a few steps reach the peak's value to the working precision.
    fn parabolic(&self, c: &[Real], mut t: [Point; 3]) -> Point {
        let neg = is_negative(&t[1].e);
        let score = |e: &Real| if neg { -e.clone() } else { e.clone() };
        let width = t[2].x.clone() - &t[0].x;
        let stop = width >> 60;
        let half = self.one.clone() >> 1;
        for _ in 0..12 {
            let [p0, p1, p2] = &t;
            let (s0, s1, s2) = (score(&p0.e), score(&p1.e), score(&p2.e));
            let (d0, d2) = (p1.x.clone() - &p0.x, p1.x.clone() - &p2.x);
            let num = &d0 * &d0 * (s1.clone() - &s2) - &d2 * &d2 * (s1.clone() - &s0);
            let den = &d0 * (s1.clone() - &s2) - &d2 * (s1 - &s0);
            if den == Real::ZERO {
                break;
            }
            let v = p1.x.clone() - &half * num / den;
            if v <= p0.x || v >= p2.x || abs(&(v.clone() - &p1.x)) <= stop {
                break;
            }
            let pv = Point {
                e: self.error(c, &v),
                x: v,
            };
            let left = pv.x < p1.x;
            let [p0, p1, p2] = t;
            t = match (score(&pv.e) > score(&p1.e), left) {
                (true, true) => [p0, pv, p1],
                (true, false) => [p1, pv, p2],
                (false, true) => [pv, p1, p2],
                (false, false) => [p0, p1, pv],
            };
        }
        let [_, p1, _] = t;
        p1
    }

    /// The largest |p - f| of the sign of `start` on [lo, hi] by golden-section search, or
    /// `start` (next to an interval's end, where the peak may be the end itself).
    fn golden(&self, c: &[Real], lo: &Real, hi: &Real, start: Point) -> Point {
        let neg = is_negative(&start.e);
        let score = |e: &Real| if neg { -e.clone() } else { e.clone() };
        let g = self.prec.of(0.618_033_988_749_894_9).unwrap_or(Real::ZERO);
        let (mut lo, mut hi) = (lo.clone(), hi.clone());
        let mut x1 = hi.clone() - &g * (hi.clone() - &lo);
        let mut x2 = lo.clone() + &g * (hi.clone() - &lo);
        let (mut e1, mut e2) = (self.error(c, &x1), self.error(c, &x2));
        for _ in 0..40 {
            if score(&e1) < score(&e2) {
                lo = x1;
                x1 = x2;
                e1 = e2;
                x2 = lo.clone() + &g * (hi.clone() - &lo);
                e2 = self.error(c, &x2);
            } else {
                hi = x2;
                x2 = x1;
                e2 = e1;
                x1 = hi.clone() - &g * (hi.clone() - &lo);
                e1 = self.error(c, &x1);
            }
        }
        [Point { x: x1, e: e1 }, Point { x: x2, e: e2 }]
            .into_iter()
            .fold(start, |best, p| {
                if score(&p.e) > score(&best.e) {
                    p
                } else {
                    best
                }
            })
    }
}

/// (max, min) of |e| over `points` (zeros when empty).
fn spread(points: &[Point]) -> (Real, Real) {
    let mags: Vec<Real> = points.iter().map(|p| abs(&p.e)).collect();
    let hi = mags
        .iter()
        .cloned()
        .fold(Real::ZERO, |a, b| if b > a { b } else { a });
    let lo = mags
        .iter()
        .cloned()
        .reduce(|a, b| if b < a { b } else { a });
    (hi, lo.unwrap_or(Real::ZERO))
}

/// Removes points until `m` remain, keeping the alternation and the largest error: one surplus
/// point goes from whichever end has the smaller error; otherwise the pair (two neighbours, or the
/// two ends) of least total error goes.
fn reduce(points: &mut Vec<Point>, m: usize) {
    while points.len() > m {
        let n = points.len();
        let mag: Vec<Real> = points.iter().map(|p| abs(&p.e)).collect();
        let top = (0..n).max_by(|&i, &j| mag[i].cmp(&mag[j])).unwrap_or(0);
        if n - m == 1 {
            let drop_first = top == n - 1 || (top != 0 && mag[0] <= mag[n - 1]);
            points.remove(if drop_first { 0 } else { n - 1 });
            continue;
        }
        let mut best: Option<(Real, usize, usize)> = None;
        let mut consider = |i: usize, j: usize| {
            if i == top || j == top {
                return;
            }
            let s = mag[i].clone() + &mag[j];
            if best.as_ref().is_none_or(|(b, _, _)| s < *b) {
                best = Some((s, i, j));
            }
        };
        for i in 0..n - 1 {
            consider(i, i + 1);
        }
        consider(0, n - 1);
        let (_, i, j) = best.unwrap_or((Real::ZERO, 0, 1));
        points.remove(j.max(i));
        points.remove(j.min(i));
    }
}
