//! Python values in and out: integer vectors for BFV, real or complex vectors for CKKS, security
//! levels, seeds. Every refusal names the problem (type, dimension, index and value).

use numpy::{Complex64, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyFloat, PyInt, PyList, PyRange, PyString, PyTuple};
use rnsfhe::ckks::Complex;
use rnsfhe::params::{Security, SecurityLevel};
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

use crate::{raise, OrPy};

/// `numpy.asarray(obj)` checked to be one-dimensional, with its dtype kind.
fn as_vector<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<(Bound<'py, PyAny>, char)> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence or 1-D numpy array of numbers, got {}",
            type_name(obj)
        )));
    }
    if obj.is_instance_of::<PyInt>()
        || obj.is_instance_of::<PyFloat>()
        || obj.is_instance_of::<PyComplex>()
    {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence or 1-D numpy array, got a single {}; wrap it in a list",
            type_name(obj)
        )));
    }
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("asarray", (obj,)).map_err(|e| {
        PyTypeError::new_err(format!(
            "{what} must be a sequence or 1-D numpy array, got {}: {e}",
            type_name(obj)
        ))
    })?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} must be one-dimensional, got a {ndim}-D array"
        )));
    }
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    Ok((arr, kind.chars().next().unwrap_or('?')))
}

/// The Python type name of an object, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// Integers for BFV slots, each with |v| < t, as residues in [0, t) (negative v becomes t + v).
pub(crate) fn int_values(obj: &Bound<'_, PyAny>, t: u64) -> PyResult<Vec<u64>> {
    let (arr, kind) = as_vector(obj, "BFV values")?;
    let len: usize = arr.len()?;
    let signed: Vec<i128> = match kind {
        _ if len == 0 => Vec::new(),
        'i' | 'b' => {
            let a: PyReadonlyArray1<i64> = arr.call_method1("astype", ("int64",))?.extract()?;
            a.as_array().iter().map(|&v| i128::from(v)).collect()
        }
        'u' => {
            let a: PyReadonlyArray1<u64> = arr.call_method1("astype", ("uint64",))?.extract()?;
            a.as_array().iter().map(|&v| i128::from(v)).collect()
        }
        'O' => {
            let mut out = Vec::with_capacity(len);
            for (i, item) in arr.try_iter()?.enumerate() {
                let item = item?;
                if !item.is_instance_of::<PyInt>() {
                    return Err(PyTypeError::new_err(format!(
                        "BFV values must be integers; item {i} is a {}",
                        type_name(&item)
                    )));
                }
                out.push(item.extract::<i128>().map_err(|_| {
                    raise(
                        "OutOfRangeError",
                        format!(
                            "BFV value at index {i} is out of range: |v| must be below t = {t}"
                        ),
                    )
                })?);
            }
            out
        }
        _ => {
            let dtype: String = arr.getattr("dtype")?.str()?.extract()?;
            return Err(PyTypeError::new_err(format!(
                "BFV values must be integers, got an array of dtype {dtype}"
            )));
        }
    };
    signed
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v.unsigned_abs() >= u128::from(t) {
                Err(raise(
                    "OutOfRangeError",
                    format!(
                        "BFV value {v} at index {i} is out of range: |v| must be below t = {t}"
                    ),
                ))
            } else if v < 0 {
                Ok(t - v.unsigned_abs() as u64)
            } else {
                Ok(v as u64)
            }
        })
        .collect()
}

/// Real or complex values for CKKS slots (finite; NaN and infinities are refused by the encoder).
pub(crate) fn complex_values(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Complex>> {
    let (arr, kind) = as_vector(obj, "CKKS values")?;
    match kind {
        'c' => {
            let a: PyReadonlyArray1<Complex64> =
                arr.call_method1("astype", ("complex128",))?.extract()?;
            Ok(a.as_array()
                .iter()
                .map(|z| Complex::new(z.re, z.im))
                .collect())
        }
        'f' | 'i' | 'u' | 'b' => {
            let a: PyReadonlyArray1<f64> = arr.call_method1("astype", ("float64",))?.extract()?;
            Ok(a.as_array().iter().map(|&x| Complex::new(x, 0.0)).collect())
        }
        'O' => {
            let a = arr
                .call_method1("astype", ("complex128",))
                .map_err(|_| PyTypeError::new_err("CKKS values must be real or complex numbers"))?;
            complex_values(&a)
        }
        _ => {
            let dtype: String = arr.getattr("dtype")?.str()?.extract()?;
            Err(PyTypeError::new_err(format!(
                "CKKS values must be real or complex numbers, got an array of dtype {dtype}"
            )))
        }
    }
}

/// True for `isinstance(obj, numbers.<abc>)` (numpy registers its scalar types there).
fn is_number(obj: &Bound<'_, PyAny>, abc: &str) -> bool {
    obj.py()
        .import("numbers")
        .and_then(|m| m.getattr(abc))
        .and_then(|c| obj.is_instance(&c))
        .unwrap_or(false)
}

/// A real number as a CKKS constant: a Python int or float or a numpy real scalar (`np.int64(3)`,
/// `np.float32(0.5)`); `None` for anything else (complex constants are not supported). An int too
/// large for a float is an `OutOfRangeError`.
pub(crate) fn real_scalar(obj: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
    if !(obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() || is_number(obj, "Real"))
    {
        return Ok(None);
    }
    obj.extract::<f64>().map(Some).map_err(|_| {
        raise(
            "OutOfRangeError",
            format!("constant {obj} does not fit in a float"),
        )
    })
}

/// One weight of `sum_rotations`: an integer, a real or complex number, or a vector (any other
/// operand).
pub(crate) enum WeightItem<'py> {
    Int(i64),
    Real(f64),
    Complex(Complex),
    Vector(Bound<'py, PyAny>),
}

/// The weights of `sum_rotations`, one per step, classified item by item: Python and numpy integers,
/// real or complex numbers, else vectors (values or plaintexts).
pub(crate) fn weight_items<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<WeightItem<'py>>> {
    if !is_vector(obj) {
        return Err(PyTypeError::new_err(format!(
            "weights must be a sequence with one weight per step, got {}",
            type_name(obj)
        )));
    }
    let items = obj
        .try_iter()?
        .map(|item| {
            let item = item?;
            if is_int(&item) {
                if let Ok(x) = item.extract::<i64>() {
                    return Ok(WeightItem::Int(x));
                }
            }
            if let Some(x) = real_scalar(&item)? {
                return Ok(WeightItem::Real(x));
            }
            if item.is_instance_of::<PyComplex>() || is_number(&item, "Complex") {
                let re: f64 = item.getattr("real")?.extract()?;
                let im: f64 = item.getattr("imag")?.extract()?;
                return Ok(WeightItem::Complex(Complex::new(re, im)));
            }
            Ok(WeightItem::Vector(item))
        })
        .collect::<PyResult<Vec<_>>>()?;
    // A count other than the step count is the core's `LengthMismatch`.
    Ok(items)
}

/// True for Python ints (not bools) and numpy integer scalars.
pub(crate) fn is_int(obj: &Bound<'_, PyAny>) -> bool {
    !obj.is_instance_of::<PyBool>() && (obj.is_instance_of::<PyInt>() || is_number(obj, "Integral"))
}

/// True for a list, tuple, range or array-like operand.
pub(crate) fn is_vector(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
        || obj.is_instance_of::<PyRange>()
        || obj.hasattr("__array__").unwrap_or(false)
}

/// Decoded integers out as an int64 array.
pub(crate) fn i64_array<'py>(py: Python<'py>, v: Vec<i64>) -> Bound<'py, PyArray1<i64>> {
    PyArray1::from_vec(py, v)
}

/// Decoded slots out: float64 (real parts) or complex128.
pub(crate) fn slots_array<'py>(py: Python<'py>, v: &[Complex], complex: bool) -> Bound<'py, PyAny> {
    if complex {
        PyArray1::from_vec(py, v.iter().map(|z| Complex64::new(z.re, z.im)).collect()).into_any()
    } else {
        PyArray1::from_vec(py, v.iter().map(|z| z.re).collect::<Vec<f64>>()).into_any()
    }
}

/// `reduction=` of a general Phi_m ring (Bajard et al. (SAC 2017) section 3 and 4): "barrett" (Alg. 1),
/// "optimized" (Alg. 2, the default) or "montgomery" (Algs. 3-4; BGV's section 4.2 pipeline, FV's
/// mixed strategy of section 4.4).
pub(crate) fn reduction(name: &str) -> PyResult<Reduction> {
    match name {
        "barrett" => Ok(Reduction::Barrett),
        "optimized" => Ok(Reduction::SparseBarrett),
        "montgomery" => Ok(Reduction::Montgomery),
        _ => Err(raise(
            "ParameterError",
            format!("reduction must be \"barrett\", \"optimized\" or \"montgomery\", got {name:?}"),
        )),
    }
}

/// The `reduction` getter: its name for a general Phi_m, `None` for X^n + 1 (no reduction by Phi_m).
/// `layout=`: "default" or "narrow" (every prime below 2^50, for AVX-512 IFMA CPUs).
pub(crate) fn layout(name: &str) -> PyResult<rnsfhe::params::ModuliLayout> {
    name.parse()
        .map_err(|e: rnsfhe::Error| raise("ParameterError", e.to_string()))
}

pub(crate) fn reduction_name(general: bool, r: Reduction) -> Option<&'static str> {
    general.then_some(match r {
        Reduction::Barrett => "barrett",
        Reduction::SparseBarrett => "optimized",
        Reduction::Montgomery => "montgomery",
    })
}

/// `security=`: 128, 192, 256 or "insecure" (research only: no bound on log q).
pub(crate) fn security(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Security> {
    let Some(obj) = obj else {
        return Ok(Security::default());
    };
    if let Ok(s) = obj.extract::<String>() {
        if s == "insecure" {
            return Ok(Security::InsecureResearchOnly);
        }
    } else if let Ok(bits) = obj.extract::<u32>() {
        for level in SecurityLevel::ALL {
            if level.bits() == bits {
                return Ok(Security::Standard(level));
            }
        }
    }
    Err(raise(
        "ParameterError",
        format!(
            "security must be 128, 192, 256 or \"insecure\", got {}",
            obj.repr()?
        ),
    ))
}

/// The security of a parameter set as Python sees it.
pub(crate) fn security_out(s: Security) -> String {
    match s {
        Security::Standard(l) => l.bits().to_string(),
        Security::InsecureResearchOnly => "insecure".into(),
    }
}

/// A context's security as Python sees it: its parameters', or "insecure (seeded)" when the
/// context's randomness comes from a seed (reproducible, so its keys and encryptions are not secret).
pub(crate) fn context_security(s: Security, rng: &LockedRng) -> String {
    if rng.seeded() {
        "insecure (seeded)".into()
    } else {
        security_out(s)
    }
}

/// The `repr` suffix of a context or key made from a seed (reproducible: tests only).
pub(crate) fn seeded_note(seeded: bool) -> &'static str {
    if seeded {
        ", seeded (NOT secure)"
    } else {
        ""
    }
}

/// `repr` of a context: `Name(label)`, with ", seeded (NOT secure)" for a seeded one.
pub(crate) fn context_repr(name: &str, label: &str, rng: &LockedRng) -> String {
    format!("{name}({label}{})", seeded_note(rng.seeded()))
}

/// A context's CSPRNG, shared by its threads, and whether it came from a seed.
pub(crate) struct LockedRng(std::sync::Mutex<Csprng>, bool);

impl LockedRng {
    pub fn new(seed: Option<&[u8]>) -> PyResult<Self> {
        Ok(LockedRng(std::sync::Mutex::new(rng(seed)?), seed.is_some()))
    }
    /// Whether the generator was seeded (reproducible, tests only).
    pub fn seeded(&self) -> bool {
        self.1
    }
    pub fn with<T>(&self, f: impl FnOnce(&mut Csprng) -> T) -> T {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut g)
    }
}

/// A CSPRNG from a 32-byte seed (reproducible runs) or from the operating system.
pub(crate) fn rng(seed: Option<&[u8]>) -> PyResult<Csprng> {
    match seed {
        None => Csprng::from_os_entropy().py(),
        Some(s) => {
            let s: [u8; 32] = s.try_into().map_err(|_| {
                PyValueError::new_err(format!("seed must be 32 bytes, got {}", s.len()))
            })?;
            Ok(Csprng::from_seed(s))
        }
    }
}

/// The largest exponent `**` accepts (each doubling costs one level of depth).
const MAX_POWER: u32 = 64;

/// The exponent of `x ** k` (`pow(x, k, modulo)`): an int in 1..=MAX_POWER, and no modulus.
pub(crate) fn power(k: &Bound<'_, PyAny>, modulo: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    if modulo.is_some_and(|m| !m.is_none()) {
        return Err(PyTypeError::new_err(
            "pow() with a modulus is not supported on ciphertexts",
        ));
    }
    if !is_int(k) {
        return Err(PyTypeError::new_err(format!(
            "the exponent must be an int, got {}",
            type_name(k)
        )));
    }
    match k.extract::<i64>() {
        Ok(e) if (1..=i64::from(MAX_POWER)).contains(&e) => Ok(e as u32),
        _ => Err(raise(
            "OutOfRangeError",
            format!("the exponent must be between 1 and {MAX_POWER}, got {k}"),
        )),
    }
}

/// x^k (k >= 1) by square-and-multiply (depth ceil(log2 k)): `mul` multiplies the accumulated
/// product by a power, `square` squares a power.
pub(crate) fn power_by_squaring<C: Clone>(
    x: &C,
    k: u32,
    mul: impl Fn(&C, &C) -> rnsfhe::Result<C>,
    square: impl Fn(&C) -> rnsfhe::Result<C>,
) -> rnsfhe::Result<C> {
    let (mut acc, mut base, mut e) = (None::<C>, x.clone(), k);
    loop {
        if e & 1 == 1 {
            acc = Some(match acc {
                None => base.clone(),
                Some(a) => mul(&a, &base)?,
            });
        }
        e >>= 1;
        if e == 0 {
            break;
        }
        base = square(&base)?;
    }
    Ok(acc.unwrap_or(base))
}

/// An integer argument of Rust type `T` (`usize`, `u32`, `u64`, `i64`): a Python int out of T's range
/// is an `OutOfRangeError` stating the range, not a bare `OverflowError` (PyO3 adds the note "while
/// processing '<argument>'" naming the argument). Every integer argument of the bindings uses it.
pub(crate) struct Int<T>(pub T);

macro_rules! checked_int {
    ($($t:ty),*) => {$(
        impl<'a, 'py> FromPyObject<'a, 'py> for Int<$t> {
            type Error = PyErr;
            fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                match obj.extract::<$t>() {
                    Ok(v) => Ok(Int(v)),
                    Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
                        Err(raise(
                            "OutOfRangeError",
                            format!(
                                "integer {} is out of range: expected {} to {}",
                                obj.repr().map(|r| r.to_string()).unwrap_or_default(),
                                <$t>::MIN,
                                <$t>::MAX
                            ),
                        ))
                    }
                    Err(e) => Err(e),
                }
            }
        }
    )*};
}
checked_int!(usize, u32, u64, i64);

/// `[Int<T>]` to `[T]`.
pub(crate) fn ints<T>(v: Vec<Int<T>>) -> Vec<T> {
    v.into_iter().map(|Int(x)| x).collect()
}

/// Serialized input: `bytes`, `bytearray`, `memoryview` or any C-contiguous byte buffer.
pub(crate) struct ByteData(pub Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for ByteData {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(ByteData(b.as_bytes().to_vec()));
        }
        if let Ok(b) = obj.cast::<pyo3::types::PyByteArray>() {
            return Ok(ByteData(b.to_vec()));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "serialized data must be bytes, bytearray or memoryview, got str",
            ));
        }
        let view = obj
            .py()
            .import("builtins")?
            .getattr("memoryview")?
            .call1((obj,))
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "serialized data must be bytes, bytearray or memoryview, got {}",
                    type_name(&obj)
                ))
            })?;
        let b = view.call_method0("tobytes")?;
        Ok(ByteData(b.cast::<PyBytes>()?.as_bytes().to_vec()))
    }
}
