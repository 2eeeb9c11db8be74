//! Sampling a Python function at the Chebyshev nodes, for `CkksContext.chebyshev`.

use super::*;

/// f at the Chebyshev nodes of [lo, hi] (the same nodes `chebyshev_coefficients` samples).
pub(crate) fn chebyshev_samples(
    f: &Bound<'_, PyAny>,
    lo: f64,
    hi: f64,
    d: usize,
) -> PyResult<Vec<(f64, f64)>> {
    let nodes = std::cell::RefCell::new(Vec::new());
    // Record the points the interpolation asks for, then ask Python for the values.
    let _ = circuits::chebyshev_coefficients(
        |x| {
            nodes.borrow_mut().push(x);
            0.0
        },
        lo,
        hi,
        d,
    );
    nodes
        .into_inner()
        .into_iter()
        .map(|x| {
            let y: f64 = f.call1((x,))?.extract().map_err(|_| {
                PyTypeError::new_err(format!("f({x}) did not return a real number"))
            })?;
            if y.is_finite() {
                Ok((x, y))
            } else {
                Err(raise(
                    "OutOfRangeError",
                    format!("f({x}) = {y} is not finite"),
                ))
            }
        })
        .collect()
}

/// The recorded value of f at a node (nodes are recomputed identically, so the match is exact).
pub(crate) fn lookup(table: &[(f64, f64)], x: f64) -> f64 {
    table
        .iter()
        .find(|(t, _)| *t == x)
        .map_or(f64::NAN, |&(_, y)| y)
}
