//! Remez against minimax errors known in closed form, and its refusals.

use super::real::{abs, to_f64};
use super::*;

fn power(n: usize) -> impl Fn(&Real) -> Real {
    move |x: &Real| (0..n).fold(Real::ONE, |acc, _| acc * x)
}

fn sign(x: &Real) -> Real {
    if *x < Real::ZERO {
        Real::NEG_ONE
    } else {
        Real::ONE
    }
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn approx_remez_power_has_error_two_to_minus_n() -> crate::Result<()> {
    // Chebyshev: the best degree-n approximation of x^(n+1) on [-1, 1] is x^(n+1) - 2^-n T_(n+1)(x),
    // with error 2^-n.
    for n in [1usize, 2, 5, 8, 13, 20, 31] {
        let m = remez(
            power(n + 1),
            &MinimaxProblem::new(n, &[(-1.0, 1.0)]),
            &RemezOptions::default(),
        )?;
        let want = 2f64.powi(-(n as i32));
        assert!(
            rel(m.levelled_error, want) < 1e-12,
            "n {n}: {}",
            m.levelled_error
        );
        // The f64 coefficients (up to ~0.5) move the error by ~1e-16 absolute.
        assert!(
            (m.max_error - want).abs() < 1e-12 * want + 1e-15,
            "n {n}: {}",
            m.max_error
        );
        for x in [-0.95f64, -0.3, 0.0, 0.41, 0.77, 1.0] {
            let best = x.powi(n as i32 + 1) - want * ((n + 1) as f64 * f64::acos(x)).cos();
            assert!((m.evaluate(x) - best).abs() < 1e-14, "n {n} at {x}");
        }
        assert_eq!(m.alternation.len(), n + 2);
    }
    Ok(())
}

#[test]
fn approx_remez_abs_by_degree_two_is_x2_plus_one_eighth() -> crate::Result<()> {
    let m = remez(
        abs,
        &MinimaxProblem::new(2, &[(-1.0, 1.0)]),
        &RemezOptions::default(),
    )?;
    assert!(rel(m.max_error, 0.125) < 1e-12);
    // x^2 + 1/8 = (T_0 + T_2) / 2 + 1/8.
    let want = [0.625, 0.0, 0.5];
    for (c, w) in m.chebyshev.iter().zip(want) {
        assert!((c - w).abs() < 1e-13, "{:?}", m.chebyshev);
    }
    // The even basis on [0, 1] finds the same polynomial.
    let e = remez(
        abs,
        &MinimaxProblem::even(2, &[(0.0, 1.0)]),
        &RemezOptions::default(),
    )?;
    assert!(rel(e.max_error, 0.125) < 1e-12);
    assert!(e
        .chebyshev
        .iter()
        .zip(want)
        .all(|(c, w)| (c - w).abs() < 1e-13));
    Ok(())
}

#[test]
fn approx_remez_exp_by_a_line() -> crate::Result<()> {
    // p(x) = m x + c touches the error -E at the tangent point t where e^t = m; equal errors +E at
    // -1 and 1 give m = (e - 1/e) / 2 = sinh 1, and then E = (e - 2m + m ln m) / 2.
    let e1 = std::f64::consts::E;
    let slope = (e1 - 1.0 / e1) / 2.0;
    let want = (e1 - 2.0 * slope + slope * slope.ln()) / 2.0;
    let m = remez(
        |x: &Real| x.exp(),
        &MinimaxProblem::new(1, &[(-1.0, 1.0)]),
        &RemezOptions::default(),
    )?;
    assert!(rel(m.max_error, want) < 1e-12, "{} vs {want}", m.max_error);
    assert!(rel(m.chebyshev[1], slope) < 1e-12);
    assert!((m.alternation[1] - slope.ln()).abs() < 1e-8);
    Ok(())
}

#[test]
fn approx_remez_sign_equioscillates_on_the_union() -> crate::Result<()> {
    let (a, d) = (2f64.powi(-8), 15);
    let odd = remez(
        sign,
        &MinimaxProblem::odd(d, &[(a, 1.0)]),
        &RemezOptions::default(),
    )?;
    // d + 2 alternation points on the symmetric set: (d + 3) / 2 on each half.
    assert_eq!(odd.alternation.len(), (d + 3) / 2);
    let errs: Vec<f64> = odd
        .alternation
        .iter()
        .map(|&x| odd.evaluate(x) - 1.0)
        .collect();
    for (i, e) in errs.iter().enumerate() {
        assert!(rel(e.abs(), odd.max_error) < 1e-10, "{errs:?}");
        if i > 0 {
            assert!(e.signum() != errs[i - 1].signum(), "{errs:?}");
        }
    }
    assert_eq!(odd.alternation.first().copied(), Some(a));
    assert_eq!(odd.alternation.last().copied(), Some(1.0));
    // The full basis on [-1, -a] U [a, 1] (the gap crossed by the exchange) finds the same, odd,
    // polynomial with d + 2 alternation points, by uniqueness of the minimax polynomial.
    let any = remez(
        sign,
        &MinimaxProblem::new(d, &[(-1.0, -a), (a, 1.0)]),
        &RemezOptions::default(),
    )?;
    assert_eq!(any.alternation.len(), d + 2);
    assert!(rel(any.max_error, odd.max_error) < 1e-10);
    for (p, q) in any.chebyshev.iter().zip(&odd.chebyshev) {
        assert!(
            (p - q).abs() < 1e-9,
            "{:?} vs {:?}",
            any.chebyshev,
            odd.chebyshev
        );
    }
    Ok(())
}

#[test]
fn approx_remez_degree_63_on_two_to_minus_30() -> crate::Result<()> {
    // Where f64 loses the alternation: still d + 2 equal errors.
    let a = 2f64.powi(-30);
    let m = remez(
        sign,
        &MinimaxProblem::odd(63, &[(a, 1.0)]),
        &RemezOptions::default(),
    )?;
    assert_eq!(m.alternation.len(), 33);
    assert!(m.levelled_error < 1.0 && m.levelled_error > 0.99);
    assert!(rel(m.max_error, m.levelled_error) < 1e-9);
    Ok(())
}

#[test]
fn approx_remez_refusals() {
    let o = RemezOptions::default();
    let refused = |p: MinimaxProblem| remez(sign, &p, &o).is_err();
    assert!(refused(MinimaxProblem::new(0, &[(-1.0, 1.0)])));
    assert!(refused(MinimaxProblem::new(3, &[])));
    assert!(refused(MinimaxProblem::new(3, &[(0.5, 0.5)])));
    assert!(refused(MinimaxProblem::new(3, &[(0.5, -0.5)])));
    assert!(refused(MinimaxProblem::new(3, &[(-1.0, 0.2), (0.1, 1.0)])));
    assert!(refused(MinimaxProblem::new(3, &[(f64::NAN, 1.0)])));
    assert!(refused(MinimaxProblem::new(3, &[(0.0, f64::INFINITY)])));
    assert!(refused(
        MinimaxProblem::new(3, &[(-1.0, 1.0)]).with_radius(0.5)
    ));
    assert!(refused(
        MinimaxProblem::new(3, &[(-1.0, 1.0)]).with_radius(f64::NAN)
    ));
    assert!(refused(MinimaxProblem::odd(3, &[(0.0, 1.0)])));
    assert!(refused(MinimaxProblem::odd(4, &[(0.1, 1.0)])));
    assert!(refused(MinimaxProblem::even(3, &[(0.0, 1.0)])));
    assert!(refused(MinimaxProblem::new(
        MAX_REMEZ_DEGREE + 1,
        &[(-1.0, 1.0)]
    )));
    let p = MinimaxProblem::new(3, &[(-1.0, 1.0)]);
    for bad in [
        RemezOptions {
            precision_bits: 32,
            ..o.clone()
        },
        RemezOptions {
            tolerance: 0.0,
            ..o.clone()
        },
        RemezOptions {
            tolerance: f64::NAN,
            ..o.clone()
        },
        RemezOptions {
            max_iterations: 0,
            ..o.clone()
        },
    ] {
        assert!(remez(sign, &p, &bad).is_err());
    }
    // A target that is not finite on the intervals (1/0 is an infinity in dashu).
    let inverse = |x: &Real| Real::ONE.with_precision(64).value() / x;
    match remez(inverse, &MinimaxProblem::new(3, &[(0.0, 1.0)]), &o) {
        Err(e) => assert!(e.to_string().contains("not finite at x = 0"), "{e}"),
        Ok(m) => panic!("approximated 1/x on [0, 1]: {m:?}"),
    }
    // Non-convergence is an error that names the degree and the intervals.
    let one_step = RemezOptions {
        max_iterations: 1,
        ..o.clone()
    };
    match remez(sign, &MinimaxProblem::odd(31, &[(1e-3, 1.0)]), &one_step) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.contains("degree 31") && text.contains("0.001"),
                "{text}"
            );
        }
        Ok(m) => panic!("converged in one exchange: {m:?}"),
    }
}

#[test]
fn approx_remez_exact_polynomial_stops_at_once() -> crate::Result<()> {
    // A cubic approximated by a cubic: zero error, no alternation to find.
    let f = |x: &Real| x.clone() * x * x - x;
    let m = remez(
        f,
        &MinimaxProblem::new(3, &[(-1.0, 1.0)]),
        &RemezOptions::default(),
    )?;
    assert!(m.max_error < 1e-15);
    // x^3 - x = (T_3 - T_1) / 4.
    assert!((m.chebyshev[3] - 0.25).abs() < 1e-15 && (m.chebyshev[1] + 0.25).abs() < 1e-15);
    let _ = to_f64(&Real::ONE);
    Ok(())
}
