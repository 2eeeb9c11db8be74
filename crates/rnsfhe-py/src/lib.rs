//! The `rnsfhe._rnsfhe` extension module: Python classes over the Rust core. The package `rnsfhe`
//! (python/rnsfhe) re-exports them with the exception hierarchy of `rnsfhe.errors`.
//!
//! Conventions:
//! - Every heavy operation releases the GIL (`py.detach`).
//! - Contexts with equal parameters are one context: constructing, unpickling or loading parameters
//!   that equal a live context's returns that context, so keys and ciphertexts move between them.
//!   Equal includes the parameters' tag (`registry::Tag`: CKKS's bootstrapping preset).
//! - Evaluation keys registered with a context are kept per key pair: every key and ciphertext
//!   carries its key pair's identity (`key_id`), operators use the keys of the ciphertext's own pair,
//!   and mixing two pairs raises `KeyMismatchError`; several users can share one parameter set.
//! - A secret key leaves the process only through `to_bytes(allow_secret=True)`; it does not pickle.
//! - Objects are immutable (`frozen`); operators return new objects.
//! - Every Rust error becomes the `rnsfhe.errors` class of its kind, with the Rust message.
//!
//! One binding layer for every scheme: `rlwe_context.rs` holds `macro_rules!` macros that write
//! each scheme's context, parameter, plaintext and ciphertext classes with the methods all schemes
//! share (`scheme_context!`: keys and their registry, encryption, add / sub / products, bytes and
//! pickling, errors; `rlwe_context!` adds the RLWE key classes of BFV, BGV and CKKS), `keys.rs` the
//! key classes of every scheme (`key_class!`, HPR's included), `registry.rs` the live contexts and
//! the `Scheme` trait (key types, and the operations HPR's Rust API names differently), and
//! `integer/` the ones BFV and BGV share on top (encoding of integer or GF(t^d) slots, plaintext
//! ops, operators, relinearisation, rotations, Frobenius). A scheme's own methods go into the same
//! macro call, because PyO3 allows one `#[pymethods]` block per class. Chosen over PyO3's
//! `multiple-pymethods` feature, which would need the `inventory` crate and its link-time
//! registration for the same effect, and over generic functions alone, which would leave every
//! `#[pymethods]` signature written once per scheme. Where two schemes name an operation
//! differently, a small trait (`integer::Square`, `registry::Scheme`) says which is meant.

mod bfv;
mod bgv;
mod ckks;
mod convert;
mod flooding;
mod hpr;
mod insecure;
mod integer;
mod keys;
mod multiparty;
mod registry;
mod rlwe_context;
mod rlwe_owner;
mod rlwe_params;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView, PyType};

/// Maps a Rust error to the `rnsfhe.errors` class of its kind.
pub(crate) fn err(e: rnsfhe::Error) -> PyErr {
    use rnsfhe::Error as E;
    if let E::ShareRefused {
        share,
        fault,
        detail,
    } = &e
    {
        return multiparty::refused(share, *fault, detail, e.to_string());
    }
    let class = match &e {
        E::InvalidModulus { .. }
        | E::InvalidDegree { .. }
        | E::InvalidBasis(_)
        | E::NotEnoughPrimes(_)
        | E::InvalidParameters(_)
        | E::NotInvertible { .. } => "ParameterError",
        E::LevelMismatch { .. } | E::LevelsExhausted { .. } | E::LevelOutOfRange { .. } => {
            "LevelMismatchError"
        }
        E::ScaleMismatch { .. } => "ScaleMismatchError",
        E::LengthMismatch { .. } => "LengthMismatchError",
        E::OutOfRange(_) => "OutOfRangeError",
        E::ContextMismatch(_) | E::ParameterMismatch { .. } | E::KeyParameterMismatch { .. } => {
            "ContextMismatchError"
        }
        E::KeyMismatch { .. } => "KeyMismatchError",
        E::WrongForm(_) => "RepresentationError",
        E::MissingKey(_) | E::MissingGaloisKey { .. } => "MissingKeyError",
        E::InvalidCiphertext(_) => "CiphertextError",
        E::Malformed(_) => "SerializationError",
        E::NoiseBudgetExhausted(_) => "NoiseBudgetExhaustedError",
        E::Entropy(_) => "EntropyError",
        E::Internal(_) => "InternalError",
        _ => "RnsfheError",
    };
    raise(class, e.to_string())
}

/// An exception of the named `rnsfhe.errors` class (ValueError if that module cannot be imported).
pub(crate) fn raise(class: &str, msg: String) -> PyErr {
    Python::attach(|py| {
        let cls = py
            .import("rnsfhe.errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match cls {
            Ok(t) => PyErr::from_type(t, msg),
            Err(_) => PyValueError::new_err(msg),
        }
    })
}

/// `Result<T, rnsfhe::Error>` to `PyResult<T>`.
pub(crate) trait OrPy<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> OrPy<T> for rnsfhe::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(err)
    }
}

impl<T> OrPy<T> for rnsfhe_math::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(|e| err(e.into()))
    }
}

/// Rebuilds a pickled object: `kind` names the class, `params` are its parameter set's bytes and
/// `data` the object's own bytes (any bytes-like object: a protocol-5 out-of-band buffer arrives
/// as whatever the transport made of it).
#[pyfunction]
fn _restore(
    py: Python<'_>,
    kind: &str,
    params: &[u8],
    data: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let data = match data.cast::<PyBytes>() {
        Ok(b) => b.clone(),
        Err(_) => PyMemoryView::from(data)?
            .call_method0("tobytes")?
            .cast_into::<PyBytes>()
            .map_err(PyErr::from)?,
    };
    let data = data.as_bytes();
    match kind {
        k if k.starts_with("Bfv") || k.starts_with("bfv:") => bfv::restore(py, kind, params, data),
        k if k.starts_with("Bgv") || k.starts_with("bgv:") => bgv::restore(py, kind, params, data),
        k if k.starts_with("Hpr") => hpr::restore(py, kind, params, data),
        _ => ckks::restore(py, kind, params, data),
    }
}

/// The pickle form of every object: `_restore(kind, parameter bytes, object bytes)`.
pub(crate) type Reduced<'py> = (
    Bound<'py, PyAny>,
    (String, Bound<'py, PyBytes>, Bound<'py, PyAny>),
);

/// `__reduce__` for an object of `kind` (a class name, `bfv:`/`ckks:` prefixed for keys).
pub(crate) fn reduce<'py>(
    py: Python<'py>,
    kind: &str,
    params: &[u8],
    data: &[u8],
) -> PyResult<Reduced<'py>> {
    reduce_ex(py, kind, params, data, 0)
}

/// `__reduce_ex__(protocol)` for ciphertexts and keys: from protocol 5 on, the object's bytes go
/// as a `pickle.PickleBuffer`, which a pickler with a `buffer_callback` (Dask's) sends out of band
/// (a separate zero-copy frame) and any other pickler writes in band as before.
pub(crate) fn reduce_ex<'py>(
    py: Python<'py>,
    kind: &str,
    params: &[u8],
    data: &[u8],
    protocol: i64,
) -> PyResult<Reduced<'py>> {
    let restore = py.import("rnsfhe._rnsfhe")?.getattr("_restore")?;
    let mut payload = bytes_out(py, data).into_any();
    if protocol >= 5 {
        payload = py
            .import("pickle")?
            .getattr("PickleBuffer")?
            .call1((payload,))?;
    }
    Ok((restore, (kind.to_string(), bytes_out(py, params), payload)))
}

/// Bytes out as a Python `bytes`.
pub(crate) fn bytes_out<'py>(py: Python<'py>, b: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, b)
}

/// Sets the number of threads each rnsfhe operation uses across RNS limbs (0: every core; default 1,
/// or the `RNSFHE_NUM_THREADS` environment variable). Results do not depend on it.
#[pyfunction]
fn set_num_threads(count: usize) -> PyResult<()> {
    rnsfhe::set_num_threads(count).py()
}

/// The number of threads each rnsfhe operation uses.
#[pyfunction]
fn num_threads() -> usize {
    rnsfhe::num_threads()
}

/// Forces the SIMD kernel backend ("scalar", "avx2", "avx512" or "avx512ifma"; the same as the
/// `RNSFHE_BACKEND` environment variable), refused when this CPU lacks it. It is a ceiling: contexts
/// made afterwards use the fastest backend up to it that suits each modulus; existing ones keep theirs.
#[pyfunction]
fn set_backend(name: &str) -> PyResult<()> {
    let backend = name.parse::<rnsfhe::Backend>().py()?;
    rnsfhe::set_backend(backend).py()
}

/// The SIMD kernel backend in force (the ceiling set by `set_backend` or `RNSFHE_BACKEND`, else the
/// fastest this CPU has).
#[pyfunction]
fn backend() -> &'static str {
    rnsfhe::backend().name()
}

#[pymodule]
fn _rnsfhe(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(set_backend, m)?)?;
    m.add_function(wrap_pyfunction!(insecure::allow_insecure_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(num_threads, m)?)?;
    // The package version is the crate's, which is the workspace's (Cargo.toml, the one place it is
    // written; maturin gives the wheel the same). A Cargo pre-release such as 0.2.0-rc.1 reads here as
    // written, while the wheel's metadata spells it as PEP 440 does (0.2.0rc1).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FORMAT_VERSION", rnsfhe::serialize::VERSION)?;
    bfv::register(m)?;
    bgv::register(m)?;
    ckks::register(m)?;
    hpr::register(m)?;
    keys::register(m)?;
    multiparty::register(m)?;
    flooding::register(m)?;
    Ok(())
}
