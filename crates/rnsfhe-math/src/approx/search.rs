//! The degree sequence of a composite sign approximation, after Lee, Lee, Kim and No ("Minimax
//! approximation of sign function by composite polynomial for homomorphic comparison", IEEE TDSC
//! 2021, section 5): first the least total depth, then, at that depth, the fewest non-scalar
//! products. Odd degrees 3..=63 (depth 2..=6) are searched.
//!
//! A component of odd degree d maps [a, 1] (0 < a < 1) onto [1 - E, 1 + E], E = E_d(a) the minimax
//! error of sign on [a, 1]; scaled by (1 - eta) / (1 + E) and given an input error up to eta, the
//! next component's interval is [a', 1] with a' = (1 - E)(1 - eta) / (1 + E) - eta. E_d(a) falls
//! as a or d grows, so a larger a dominates at equal cost, and a path stops when E <= 2^-log_err
//! (the last component is not scaled). Every E_d(a) is one Remez run, memoised.
//!
//! 1. Least depth, exactly: dynamic programming over the depth spent t. Within one depth the largest
//!    degree 2^j - 1 dominates, so best(t) = max over j of a'(2^j - 1, best(t - j)); the first t at
//!    which some chain reaches the target is the least depth D (about 5 D runs).
//! 2. Fewest products at depth D, over the depth profiles (j_1, ..., j_k) of the chains that reach
//!    the target in step 1: slot i takes any candidate degree of depth j_i, and per slot only the
//!    states (products, a) that no other beats on both are kept. Profiles that no step-1 chain
//!    has are not searched (that would cost hundreds of runs more); the result is therefore the
//!    fewest products among the degree choices of the least-depth chains' depth profiles.
//!
//! Cost model, for odd d evaluated by baby-step giant-step in the Chebyshev basis as the CKKS
//! evaluator does (baby steps T_1..T_(k-1), k = 2^ceil(m / 2), m = ceil(log2(d + 1))): depth m;
//! products = the T_i the product tree T_i = 2 T_a T_b - T_(a-b) computes for the odd baby steps
//! and the giant steps T_k, T_2k, ..., T_(2^(m-1)), plus one per giant-step product of the
//! recursion p = low + T_(2^j) high down to pieces of degree < k. Within one depth only the largest
//! degree of each product count is a candidate (it has the smallest error at that cost).

use super::real::Real;
use super::remez::{remez, Minimax, MinimaxProblem, RemezOptions};
use crate::{Error, Result};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The largest component degree searched (depth 6).
pub const MAX_COMPONENT_DEGREE: usize = 63;

/// The largest total depth searched before giving up.
const MAX_TOTAL_DEPTH: usize = 64;

/// A margin added to every measured component error before it is propagated: it covers the
/// rounding of the scaled coefficients to `f64` (about 2^-52 of their size, below 2^-46 here).
pub(crate) const ERROR_MARGIN: f64 = 1.5e-14;

/// ceil(log2(d + 1)): the levels a polynomial of degree d consumes.
pub fn depth(d: usize) -> usize {
    (usize::BITS - d.leading_zeros()) as usize
}

/// The non-scalar products of an odd polynomial of degree d under the cost model above.
pub fn products(d: usize) -> usize {
    let m = depth(d);
    let k = 1usize << m.div_ceil(2);
    let mut basis = BTreeSet::new();
    for i in (3..k).step_by(2) {
        need(i, &mut basis);
    }
    let mut g = k;
    while g < 1 << m && g <= d {
        need(g, &mut basis);
        g *= 2;
    }
    basis.len() + giant_products(d, k)
}

/// Adds i and what T_i = 2 T_a T_b - T_(a-b) needs (a the largest power of two below i).
fn need(i: usize, basis: &mut BTreeSet<usize>) {
    if i < 2 || !basis.insert(i) {
        return;
    }
    let a = 1usize << (usize::BITS - 1 - (i - 1).leading_zeros());
    need(a, basis);
    need(i - a, basis);
    need(a - (i - a), basis);
}

/// Products of the recursion p = low + T_mm high (mm the largest power of two <= deg) down to
/// pieces of degree < k.
fn giant_products(deg: usize, k: usize) -> usize {
    if deg < k {
        return 0;
    }
    let mm = 1usize << (usize::BITS - 1 - deg.leading_zeros());
    let high = deg - mm;
    usize::from(high >= 1) + giant_products(high, k) + giant_products(mm - 1, k)
}

/// The candidate degrees: for each depth 2..=6 and product count, the largest odd degree.
fn candidates() -> Vec<usize> {
    let mut best: HashMap<(usize, usize), usize> = HashMap::new();
    for d in (3..=MAX_COMPONENT_DEGREE).step_by(2) {
        best.insert((depth(d), products(d)), d);
    }
    let mut c: Vec<usize> = best.into_values().collect();
    c.sort_unstable();
    c
}

/// One component: the minimax sign approximation of degree d on [a, 1].
pub(crate) struct Step {
    pub(crate) minimax: Minimax,
    /// The measured error plus [`ERROR_MARGIN`].
    pub(crate) error: f64,
}

/// A search state: the path so far, its products, the next interval's lower end.
#[derive(Clone)]
struct State {
    path: Vec<Rc<Step>>,
    products: usize,
    a: f64,
}

/// The search: targets and the memoised components.
pub(crate) struct Search {
    target: f64,
    eta: f64,
    options: RemezOptions,
    memo: HashMap<(usize, u64), Rc<Step>>,
}

impl Search {
    /// Target 2^-log_err, tolerated input error eta = 2^-max(log_alpha, log_err).
    pub(crate) fn new(log_alpha: u32, log_err: u32) -> Self {
        Search {
            target: 2f64.powi(-(log_err as i32)),
            eta: 2f64.powi(-(log_alpha.max(log_err) as i32)),
            options: RemezOptions::default(),
            memo: HashMap::new(),
        }
    }

    fn step(&mut self, d: usize, a: f64) -> Result<Rc<Step>> {
        if let Some(s) = self.memo.get(&(d, a.to_bits())) {
            return Ok(s.clone());
        }
        let minimax = remez(
            |_: &Real| Real::ONE,
            &MinimaxProblem::odd(d, &[(a, 1.0)]),
            &self.options,
        )?;
        let error = minimax.max_error + ERROR_MARGIN;
        let s = Rc::new(Step { minimax, error });
        self.memo.insert((d, a.to_bits()), s.clone());
        Ok(s)
    }

    /// eta = 2^-log_err: the input error each component after the first tolerates.
    pub(crate) fn eta(&self) -> f64 {
        self.eta
    }

    /// The next interval's lower end after a component of error `e` (scaled by (1 - eta)/(1 + e)).
    pub(crate) fn next(&self, e: f64) -> f64 {
        (1.0 - e) * (1.0 - self.eta) / (1.0 + e) - self.eta
    }

    /// Extends `s` by degree d: `Ok(Err(path))` when it finishes, `Ok(Ok(state))` when it
    /// progresses, `Ok(Ok(None))`-like `None` when it does not.
    fn extend(&mut self, s: &State, d: usize) -> Result<Option<std::result::Result<State, State>>> {
        let step = self.step(d, s.a)?;
        let mut path = s.path.clone();
        let e = step.error;
        path.push(step);
        let products = s.products + products(d);
        if e <= self.target {
            return Ok(Some(Err(State {
                path,
                products,
                a: 1.0,
            })));
        }
        let a = self.next(e);
        Ok((a > s.a).then_some(Ok(State { path, products, a })))
    }

    /// The degree sequence: least depth, then fewest products; its components.
    pub(crate) fn run(&mut self, alpha: f64) -> Result<Vec<Rc<Step>>> {
        let start = State {
            path: Vec::new(),
            products: 0,
            a: alpha,
        };
        let profiles = self.least_depth(&start)?;
        let mut winner: Option<State> = None;
        for profile in profiles {
            if let Some(done) = self.fewest_products(&start, &profile)? {
                if winner.as_ref().is_none_or(|w| done.products < w.products) {
                    winner = Some(done);
                }
            }
        }
        winner.map(|w| w.path).ok_or_else(|| {
            Error::Internal(format!(
                "the least-depth composite from alpha = {alpha} was lost"
            ))
        })
    }

    /// The least total depth D reaching the target, by dynamic programming over the depth spent
    /// with the largest degree of each depth (it dominates its depth): the best a after spending
    /// t levels is the best of one component of depth j after the best a at t - j. Returns the
    /// depth profiles (component depths in order) of the chains that reach the target at D.
    fn least_depth(&mut self, start: &State) -> Result<Vec<Vec<usize>>> {
        let mut best: Vec<Option<State>> = vec![None; MAX_TOTAL_DEPTH + 1];
        best[0] = Some(start.clone());
        for total in 1..=MAX_TOTAL_DEPTH {
            let mut done = Vec::new();
            for j in 2..=depth(MAX_COMPONENT_DEGREE) {
                let Some(from) = total.checked_sub(j).and_then(|t| best[t].clone()) else {
                    continue;
                };
                match self.extend(&from, (1 << j) - 1)? {
                    Some(Err(finished)) => done.push(finished),
                    Some(Ok(next)) if best[total].as_ref().is_none_or(|b| next.a > b.a) => {
                        best[total] = Some(next);
                    }
                    _ => {}
                }
            }
            if !done.is_empty() {
                return Ok(done
                    .iter()
                    .map(|s| s.path.iter().map(|p| depth(p.minimax.degree)).collect())
                    .collect());
            }
        }
        Err(Error::InvalidParameters(format!(
            "no composite of odd degrees <= {MAX_COMPONENT_DEGREE} within depth {MAX_TOTAL_DEPTH} \
             reaches the requested error from alpha = {}",
            start.a
        )))
    }

    /// The fewest products along one depth profile: each slot of depth j takes a candidate degree
    /// of depth j, keeping per slot the states no other beats on both products and a.
    fn fewest_products(&mut self, start: &State, profile: &[usize]) -> Result<Option<State>> {
        let cands = candidates();
        let mut frontier = vec![start.clone()];
        let mut done: Option<State> = None;
        for (slot, &j) in profile.iter().enumerate() {
            let last = slot + 1 == profile.len();
            let mut next_frontier = Vec::new();
            for s in &frontier {
                for &d in cands.iter().filter(|&&d| depth(d) == j) {
                    match self.extend(s, d)? {
                        Some(Err(f))
                            if last && done.as_ref().is_none_or(|b| f.products < b.products) =>
                        {
                            done = Some(f);
                        }
                        Some(Ok(n)) if !last => insert(&mut next_frontier, n),
                        _ => {}
                    }
                }
            }
            frontier = next_frontier;
        }
        Ok(done)
    }
}

/// Adds `s` to a Pareto frontier of (fewer products, larger a), dropping what it beats.
fn insert(frontier: &mut Vec<State>, s: State) {
    if frontier
        .iter()
        .any(|f| f.products <= s.products && f.a >= s.a)
    {
        return;
    }
    frontier.retain(|f| !(s.products <= f.products && s.a >= f.a));
    frontier.push(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_cost_model() {
        assert_eq!([3, 7, 15, 31, 63].map(depth), [2, 3, 4, 5, 6]);
        assert_eq!([1, 3, 5, 7].map(products), [0, 2, 4, 4]);
        // T_3 = 2 T_2 T_1 - T_1 after T_2: two products.
        assert_eq!(products(15), 7);
        assert_eq!(candidates(), vec![3, 7, 11, 15, 23, 31, 39, 47, 55, 63]);
    }
}
