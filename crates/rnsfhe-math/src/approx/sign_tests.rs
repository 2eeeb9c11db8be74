//! The composite sign approximations: the shipped tables against their bounds (in `f64` and in
//! 256-bit precision), their robustness to component input errors, one entry recomputed, the
//! refusals, and the generator of `sign_tables.rs`.

use super::composite::evaluate_precise;
use super::real::{to_f64, Precision};
use super::*;

/// The (log_alpha, log_err) pairs the generator ships.
const TABLE_PAIRS: [(u32, u32); 11] = [
    (8, 20),
    (12, 20),
    (16, 20),
    (20, 20),
    (24, 20),
    (30, 20),
    (8, 8),
    (12, 12),
    (16, 16),
    (24, 24),
    (30, 30),
];

fn shipped() -> Vec<CompositeSign> {
    sign_table_pairs()
        .into_iter()
        .filter_map(|(a, e)| sign_table(a, e))
        .collect()
}

/// Log-spaced and evenly spaced points of [lo, 1].
fn grid(lo: f64, n: usize) -> impl Iterator<Item = f64> {
    (0..=n)
        .map(move |i| lo.powf(1.0 - i as f64 / n as f64))
        .chain((0..=n).map(move |i| lo + (1.0 - lo) * i as f64 / n as f64))
}

fn same(a: &CompositeSign, b: &CompositeSign, tol: f64) -> bool {
    a.degrees() == b.degrees()
        && a.components.iter().zip(&b.components).all(|(p, q)| {
            p.domain == q.domain
                && p.chebyshev
                    .iter()
                    .zip(&q.chebyshev)
                    .all(|(x, y)| (x - y).abs() <= tol)
        })
        && (a.max_error - b.max_error).abs() <= tol
}

#[test]
fn approx_sign_table_has_every_generated_pair() {
    assert_eq!(sign_table_pairs(), TABLE_PAIRS.to_vec());
    assert!(sign_table(7, 20).is_none());
}

#[test]
fn approx_sign_table_recomputes_alpha_8() -> crate::Result<()> {
    let computed = composite_sign(8, 8)?;
    let table = sign_table(8, 8).ok_or(crate::Error::Internal("no (8, 8) table".into()))?;
    assert!(
        same(&computed, &table, 1e-12),
        "{computed:?}\nvs\n{table:?}"
    );
    Ok(())
}

#[test]
fn approx_sign_tables_meet_their_bounds() -> crate::Result<()> {
    let p = Precision(256);
    for s in shipped() {
        let (alpha, bound) = (
            2f64.powi(-(s.log_alpha as i32)),
            2f64.powi(-(s.log_err as i32)),
        );
        let what = format!("2^-{} / 2^-{}: {:?}", s.log_alpha, s.log_err, s.degrees());
        assert!(s.max_error <= bound, "{what}: {}", s.max_error);
        assert_eq!(
            s.depth(),
            s.degrees().iter().map(|&d| search::depth(d)).sum::<usize>()
        );
        for c in &s.components {
            assert_eq!(c.domain, (-1.0, 1.0));
            assert!(c.degree() % 2 == 1 && c.degree() <= search::MAX_COMPONENT_DEGREE);
            assert!(
                c.chebyshev.iter().step_by(2).all(|&v| v == 0.0),
                "{what}: not odd"
            );
        }
        // Decided inputs: within 2^-log_err of sign, and odd.
        for x in grid(alpha, 20_000) {
            let y = s.evaluate(x);
            assert!((y - 1.0).abs() <= bound, "{what}: P({x}) = {y}");
            assert_eq!(s.evaluate(-x), -y);
        }
        // Undecided inputs |x| < alpha: same sign as x, bounded by 1 + 2^-log_err.
        for x in grid(alpha * 1e-6, 2_000).map(|x| x * alpha) {
            let y = s.evaluate(x);
            assert!(
                (0.0..=1.0 + bound).contains(&y),
                "{what}: P({x}) = {y} in the gap"
            );
        }
        // The f64 Clenshaw agrees with 256-bit evaluation (the coefficients taken exactly).
        for x in [alpha, 1.5 * alpha, 0.01, 0.3, 0.77, 1.0] {
            let precise = to_f64(&evaluate_precise(&s, &p.of(x)?, p)?);
            assert!((precise - s.evaluate(x)).abs() < 1e-12, "{what} at {x}");
            assert!((precise - 1.0).abs() <= bound, "{what} at {x}: {precise}");
        }
    }
    Ok(())
}

#[test]
fn approx_sign_tables_tolerate_component_input_errors() {
    // Each component after the first takes its input off by up to eta = 2^-max(log_err,
    // log_alpha) (the evaluation error of the previous ones): the inputs stay in [-1, 1], the
    // result within 2^-log_err.
    for s in shipped() {
        let (alpha, eta) = (2f64.powi(-(s.log_alpha as i32)), s.input_error());
        let bound = 2f64.powi(-(s.log_err as i32));
        for (i, x) in grid(alpha, 3_000).enumerate() {
            for pattern in [0usize, usize::MAX, 0b0101_0101, 0b1010_1010, i] {
                let mut y = s.components[0].evaluate(x);
                for (k, c) in s.components.iter().enumerate().skip(1) {
                    y += if pattern >> k & 1 == 1 { eta } else { -eta };
                    assert!(
                        y.abs() <= 1.0,
                        "{:?}: input {y} of component {k}",
                        s.degrees()
                    );
                    y = c.evaluate(y);
                }
                assert!((y - 1.0).abs() <= bound, "{:?} at {x}: {y}", s.degrees());
            }
        }
    }
}

#[test]
fn approx_sign_composite_refusals() {
    for (la, le) in [
        (0, 20),
        (composite::MAX_LOG_ALPHA + 1, 20),
        (8, 0),
        (8, composite::MAX_LOG_ERR + 1),
    ] {
        assert!(composite_sign(la, le).is_err(), "({la}, {le})");
        assert!(sign_table(la, le).is_none());
    }
}

/// Writes `sign_tables.rs` from computed composites (numbers in `{:?}`, which round-trips).
fn render(entries: &[CompositeSign]) -> String {
    let mut out = String::from(
        "//! Composite minimax approximations of sign shipped with the crate: for each (log_alpha,\n\
         //! log_err), the odd Chebyshev coefficients c_1, c_3, ... on [-1, 1] of each component p_1,\n\
         //! p_2, ..., as computed by `composite_sign(log_alpha, log_err)`. Generated, do not edit:\n\
         //! `RNSFHE_WRITE_SIGN_TABLES=1 cargo test -p rnsfhe-math --lib approx_sign_tables_generator\n\
         //! -- --ignored` rewrites it (without the variable the same test asserts that it matches).\n\n\
         /// One shipped composite: the odd coefficients c_1, c_3, ... of each component on [-1, 1].\n\
         pub(crate) struct TableEntry {\n\
         \x20   pub(crate) log_alpha: u32,\n\
         \x20   pub(crate) log_err: u32,\n\
         \x20   pub(crate) max_error: f64,\n\
         \x20   pub(crate) components: &'static [&'static [f64]],\n\
         }\n\n\
         #[rustfmt::skip]\n\
         pub(crate) const SIGN_TABLES: &[TableEntry] = &[\n",
    );
    for s in entries {
        out += &format!(
            "    TableEntry {{ log_alpha: {}, log_err: {}, max_error: {:?}, components: &[\n",
            s.log_alpha, s.log_err, s.max_error
        );
        for c in &s.components {
            out += "        &[\n";
            let mut line = String::new();
            for v in c.chebyshev.iter().skip(1).step_by(2) {
                let item = format!("{v:?},");
                if !line.is_empty() && 12 + line.len() + 1 + item.len() > 100 {
                    out += &format!("            {line}\n");
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line += &item;
            }
            out += &format!("            {line}\n        ],\n");
        }
        out += "    ] },\n";
    }
    out + "];\n"
}

#[test]
#[ignore = "recomputes every shipped composite (minutes); RNSFHE_WRITE_SIGN_TABLES=1 rewrites the file"]
fn approx_sign_tables_generator() -> crate::Result<()> {
    let computed = TABLE_PAIRS
        .iter()
        .map(|&(a, e)| composite_sign(a, e))
        .collect::<crate::Result<Vec<_>>>()?;
    if std::env::var_os("RNSFHE_WRITE_SIGN_TABLES").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/approx/sign_tables.rs");
        std::fs::write(path, render(&computed))
            .map_err(|e| crate::Error::Internal(e.to_string()))?;
    }
    for s in &computed {
        let table = sign_table(s.log_alpha, s.log_err);
        assert!(
            table.as_ref().is_some_and(|t| same(s, t, 1e-12)),
            "sign_tables.rs differs from the computation at ({}, {}): regenerate it",
            s.log_alpha,
            s.log_err
        );
    }
    Ok(())
}
