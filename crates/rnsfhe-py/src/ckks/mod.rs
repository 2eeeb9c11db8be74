//! CKKS in Python: parameters, context (keys, encoding, encryption, operations, functions),
//! plaintexts and ciphertexts with operators that align levels and rescale.
//!
//! `params` holds the parameter class, `context` the context class (its circuit methods in
//! `functions`), `values` plaintexts and ciphertexts with their operators, `bootstrap`
//! bootstrapping (presets, keys, progress).

mod bootstrap;
mod chebyshev;
mod compare;
mod context;
mod functions;
mod helpers;
pub(crate) mod matrix;
mod matrix_product;
mod newton;
mod params;
mod values;

pub(crate) use bootstrap::{Bootstrapping, Preset, PyBootstrappingKeys};
use chebyshev::*;
pub(crate) use context::PyCkksContext;
use helpers::Weights;
pub(crate) use matrix::PyCkksMatrix;
pub(crate) use matrix_product::PyCkksMatrixProduct;
pub(crate) use params::PyCkksParameters;
pub(crate) use values::{PyCkksCiphertext, PyCkksPlaintext};

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::circuits;
use rnsfhe::ckks::{
    CkksCiphertext, CkksContext, CkksParameters, CkksPlaintext, CkksWeights, Complex,
};
use rnsfhe::rlwe::KeyId;

use crate::convert::{
    complex_values, ints, is_vector, real_scalar, security_out, slots_array, type_name,
    weight_items, ByteData, Int, LockedRng, WeightItem,
};
use crate::keys::{self, CkksShared, Owner, PyGaloisKeys, PyPublicKey, PyRelinKey, PySecretKey};
use crate::registry::{same, Registry};
use crate::{bytes_out, raise, reduce, OrPy, Reduced};

static CONTEXTS: Registry<CkksContext> = Registry::new();

crate::registry::rlwe_scheme!(
    CkksContext: CkksParameters, CkksPlaintext, CkksCiphertext, Option<Preset>, Bootstrapping
);

// Bootstrapping keys are CKKS's own; the RLWE keys go through `keys::restore`.
crate::rlwe_params::rlwe_restore! {
    PyCkksParameters(CkksParameters), PyCkksContext, "Ckks",
    keys(py, ctx, _class, data, kind) => match kind.strip_prefix("ckks:") {
        Some("BootstrappingKeys") => {
            Py::new(py, PyBootstrappingKeys::load(ctx.shared.clone(), data)?)?.into_any()
        }
        class => keys::restore(py, ctx.owner(), class, kind, data)?,
    }
}

/// The most slots a layout can use: N/2 for the largest ring degree, 2^17.
const MAX_LAYOUT_SLOTS: usize = 1 << 16;

/// The most iterations `logistic_train_plain` runs (the encrypted training is bounded by its levels).
const MAX_PLAIN_ITERATIONS: usize = 10_000;

/// Refuses a samples x features layout that no ring degree holds.
fn check_layout(samples: usize, features: usize) -> PyResult<()> {
    let fits = |x: usize| (1..=MAX_LAYOUT_SLOTS).contains(&x);
    if fits(samples)
        && fits(features)
        && fits(samples.next_power_of_two() * features.next_power_of_two())
    {
        return Ok(());
    }
    Err(raise(
        "OutOfRangeError",
        format!(
            "{samples} samples x {features} features: both must be >= 1 and their padded product at \
             most {MAX_LAYOUT_SLOTS} slots"
        ),
    ))
}

/// The rotation steps `CkksContext.train_logistic` needs for `samples` x `features`.
#[pyfunction]
fn logistic_rotation_steps(samples: Int<usize>, features: Int<usize>) -> PyResult<Vec<i64>> {
    check_layout(samples.0, features.0)?;
    let (r, f) = circuits::logistic::layout(samples.0, features.0);
    Ok(circuits::logistic::rotation_steps(r, f))
}

/// The same training in floating point (the reference the encrypted run follows): the weights.
#[pyfunction]
fn logistic_train_plain(z: Vec<Vec<f64>>, iterations: Int<usize>) -> PyResult<Vec<f64>> {
    if iterations.0 > MAX_PLAIN_ITERATIONS {
        return Err(raise(
            "OutOfRangeError",
            format!(
                "{} iterations, at most {MAX_PLAIN_ITERATIONS}",
                iterations.0
            ),
        ));
    }
    Ok(circuits::logistic::train_plain(&z, iterations.0))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(logistic_rotation_steps, m)?)?;
    m.add_function(wrap_pyfunction!(logistic_train_plain, m)?)?;
    m.add(
        "LOGISTIC_LEVELS_PER_ITERATION",
        circuits::logistic::LEVELS_PER_ITERATION,
    )?;
    m.add("LOGISTIC_WEIGHT_BOUND", circuits::logistic::WEIGHT_BOUND)?;
    m.add_class::<PyCkksParameters>()?;
    m.add_class::<PyCkksContext>()?;
    m.add_class::<PyCkksMatrix>()?;
    m.add_class::<PyCkksMatrixProduct>()?;
    m.add_class::<PyCkksPlaintext>()?;
    m.add_class::<PyCkksCiphertext>()?;
    m.add_class::<PyBootstrappingKeys>()?;
    Ok(())
}
