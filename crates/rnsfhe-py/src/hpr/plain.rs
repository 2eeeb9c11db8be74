//! The encoding helpers of HprContext: integers batched into the slots or set as coefficients.

use std::sync::Arc;

use pyo3::prelude::*;

pub(crate) use super::values::PyHprPlaintext;
use super::{same, HprShared};
use crate::convert::int_values;
use crate::{raise, OrPy};

/// Integers (|v| < t) batched into the slots, or as the coefficients (any t) with `coefficients`;
/// fewer than n values are padded with zeros.
pub(crate) fn encode(
    shared: &Arc<HprShared>,
    values: &Bound<'_, PyAny>,
    coefficients: bool,
) -> PyResult<Vec<u64>> {
    let p = shared.ctx.params();
    let (n, t) = (p.degree(), p.plain_modulus());
    let v = int_values(values, t)?;
    let m = if coefficients {
        if v.len() > n {
            return Err(raise(
                "OutOfRangeError",
                format!("{} coefficients do not fit degree n = {n}", v.len()),
            ));
        }
        let mut m = v;
        m.resize(n, 0);
        m
    } else {
        shared.encoder()?.encode(&v).py()?
    };
    Ok(m)
}

impl HprShared {
    /// The slots (or the coefficients) of plaintext coefficients m, in [0, t) or centred.
    pub(crate) fn decode(&self, m: &[u64], signed: bool, coefficients: bool) -> PyResult<Vec<i64>> {
        let t = self.ctx.params().plain_modulus();
        let centre = |c: u64| {
            if signed && c > t / 2 {
                c as i64 - t as i64
            } else {
                c as i64
            }
        };
        Ok(if coefficients {
            m.iter().map(|&c| centre(c)).collect()
        } else {
            self.encoder()?
                .decode(m)
                .py()?
                .into_iter()
                .map(centre)
                .collect()
        })
    }
}

/// The plaintext of `x`: an HprPlaintext of `shared`'s parameter set, or integers to batch.
pub(crate) fn plain(shared: &Arc<HprShared>, x: &Bound<'_, PyAny>) -> PyResult<Arc<Vec<u64>>> {
    if let Ok(p) = x.cast::<PyHprPlaintext>() {
        same(&p.get().shared, shared, "plaintext")?;
        return Ok(p.get().pt.clone());
    }
    Ok(Arc::new(encode(shared, x, false)?))
}
