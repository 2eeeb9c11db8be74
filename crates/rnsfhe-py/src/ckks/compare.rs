//! Comparisons from Python (`rnsfhe::circuits::compare`): the context's `sign`, `step`,
//! `greater`, `less`, `abs`, `relu`, `max`, `min`, `clip`, `max_slots`, `argmax` and `top_k`,
//! and the ciphertexts' `>` and `<`. They bootstrap by themselves when the context is
//! bootstrappable and bootstrapping keys are registered for the ciphertext's key pair (counted in
//! `ctx.bootstraps`); otherwise they run on the levels the ciphertext has.

use rnsfhe::circuits::compare::{Comparator, Composite};
use rnsfhe::rlwe::RelinKey;

use super::*;

/// The default alpha: decide |x| >= 2^-12 of the bound.
pub(crate) const DEFAULT_ALPHA: u32 = 12;

/// The sign composite's error: within 2^-20 of +-1 where decided.
const PRECISION: u32 = 20;

/// The second operand of a two-input comparison: a ciphertext or a number.
pub(crate) enum Other {
    Ct(Arc<CkksCiphertext>),
    Value(f64),
}

impl Other {
    /// A ciphertext of `shared`'s context, or a finite real number.
    pub(crate) fn from_py(shared: &Arc<CkksShared>, b: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(c) = b.cast::<PyCkksCiphertext>() {
            let c = c.get();
            same(&c.shared, shared, "ciphertext")?;
            return Ok(Other::Ct(c.ct.clone()));
        }
        match b.extract::<f64>() {
            Ok(v) if v.is_finite() => Ok(Other::Value(v)),
            _ => Err(PyTypeError::new_err(format!(
                "the second operand must be a CkksCiphertext or a finite real number, got {}",
                type_name(b)
            ))),
        }
    }

    fn key(&self) -> Option<KeyId> {
        match self {
            Other::Ct(c) => c.key_id(),
            Other::Value(_) => None,
        }
    }
}

/// How a comparison runs: alpha, the bound of the inputs and whether it may bootstrap.
#[derive(Clone, Copy)]
pub(crate) struct Options {
    pub alpha: u32,
    pub bound: f64,
    pub bootstrap: bool,
}

impl Options {
    pub(crate) fn new(alpha: u32, bound: f64, bootstrap: bool) -> Self {
        Options {
            alpha,
            bound,
            bootstrap,
        }
    }
}

/// Runs `f` with a comparator for `shared`'s context without the GIL: the sign composite of
/// `opts.alpha` on the context's `Levels` (bootstrapping by itself where it can,
/// `bootstrap::with_levels`).
pub(crate) fn comparing<T: Send>(
    py: Python<'_>,
    shared: &Arc<CkksShared>,
    key: Option<KeyId>,
    rlk: Option<Arc<RelinKey>>,
    opts: Options,
    f: impl FnOnce(&Comparator<'_>) -> rnsfhe::Result<T> + Send,
) -> PyResult<T> {
    if !(opts.bound.is_finite() && opts.bound > 0.0) {
        return Err(PyValueError::new_err(format!(
            "bound must be finite and > 0, got {}",
            opts.bound
        )));
    }
    let sign = py.detach(|| Composite::sign(opts.alpha, PRECISION)).py()?;
    super::bootstrap::with_levels(
        py,
        shared,
        key,
        rlk,
        opts.bootstrap,
        "comparison",
        |l, k| f(&Comparator::new(l, k, &sign)),
    )
}

/// a - v, or v - a with `flip`.
fn minus_value(
    cmp: &Comparator<'_>,
    a: &CkksCiphertext,
    v: f64,
    flip: bool,
) -> rnsfhe::Result<CkksCiphertext> {
    let ctx = cmp.levels().evaluator();
    let mut d = ctx.add_const(a, -v)?;
    if flip {
        ctx.negate_assign(&mut d)?;
    }
    Ok(d)
}

/// The mask of a > b for a ciphertext or a number b.
pub(crate) fn greater(
    cmp: &Comparator<'_>,
    a: &CkksCiphertext,
    b: &Other,
    bound: f64,
) -> rnsfhe::Result<CkksCiphertext> {
    match b {
        Other::Ct(b) => cmp.greater(a, b, bound),
        Other::Value(v) => cmp.step(&minus_value(cmp, a, *v, false)?, 2.0 * bound),
    }
}

/// The mask of a < b for a ciphertext or a number b.
pub(crate) fn less(
    cmp: &Comparator<'_>,
    a: &CkksCiphertext,
    b: &Other,
    bound: f64,
) -> rnsfhe::Result<CkksCiphertext> {
    match b {
        Other::Ct(b) => cmp.greater(b, a, bound),
        Other::Value(v) => cmp.step(&minus_value(cmp, a, *v, true)?, 2.0 * bound),
    }
}

/// max(a, b) (`min` with `smaller`) for a ciphertext or a number b.
pub(crate) fn extreme(
    cmp: &Comparator<'_>,
    a: &CkksCiphertext,
    b: &Other,
    bound: f64,
    smaller: bool,
) -> rnsfhe::Result<CkksCiphertext> {
    match (b, smaller) {
        (Other::Ct(b), false) => cmp.max(a, b, bound),
        (Other::Ct(b), true) => cmp.min(a, b, bound),
        // max(a, v) = v + relu(a - v); min(a, v) = v - relu(v - a).
        (Other::Value(v), _) => {
            let r = cmp.relu(&minus_value(cmp, a, *v, smaller)?, 2.0 * bound)?;
            if smaller {
                minus_value(cmp, &r, *v, true)
            } else {
                cmp.levels().evaluator().add_const(&r, *v)
            }
        }
    }
}

/// The key pair of a and b together (`KeyId::join`).
pub(crate) fn joint_key(a: &CkksCiphertext, b: &Other) -> PyResult<Option<KeyId>> {
    KeyId::join(a.key_id(), b.key()).py()
}

impl PyCkksContext {
    /// `f(comparator, a, bound)` for a ciphertext of this context ([`comparing`]).
    pub(crate) fn compare_one(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        (alpha, bound, bootstrap): (u32, f64, bool),
        rlk: Option<&PyRelinKey>,
        f: impl FnOnce(&Comparator<'_>, &CkksCiphertext, f64) -> rnsfhe::Result<CkksCiphertext> + Send,
    ) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        let rlk = rlk.map(|r| r.get(&self.owner())).transpose()?;
        let opts = Options::new(alpha, bound, bootstrap);
        let out = comparing(py, &self.shared, x.key_id(), rlk, opts, |c| f(c, &x, bound))?;
        Ok(self.wrap(out))
    }

    /// `f(comparator, a, b, bound)` for a ciphertext and a ciphertext or number of this context.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn compare_two(
        &self,
        py: Python<'_>,
        a: &PyCkksCiphertext,
        b: &Bound<'_, PyAny>,
        (alpha, bound, bootstrap): (u32, f64, bool),
        rlk: Option<&PyRelinKey>,
        f: impl FnOnce(&Comparator<'_>, &CkksCiphertext, &Other, f64) -> rnsfhe::Result<CkksCiphertext>
            + Send,
    ) -> PyResult<PyCkksCiphertext> {
        let x = self.check(a)?;
        let y = Other::from_py(&self.shared, b)?;
        let key = joint_key(&x, &y)?;
        let rlk = rlk.map(|r| r.get(&self.owner())).transpose()?;
        let opts = Options::new(alpha, bound, bootstrap);
        let out = comparing(py, &self.shared, key, rlk, opts, |c| f(c, &x, &y, bound))?;
        Ok(self.wrap(out))
    }
}

impl PyCkksCiphertext {
    /// The mask of self > other (self < other with `less`), with the default options.
    pub(crate) fn masked(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        less: bool,
    ) -> PyResult<PyCkksCiphertext> {
        let y = Other::from_py(&self.shared, other)?;
        let key = joint_key(&self.ct, &y)?;
        let opts = Options::new(DEFAULT_ALPHA, 1.0, true);
        let x = self.ct.clone();
        let out = comparing(py, &self.shared, key, None, opts, |c| {
            if less {
                self::less(c, &x, &y, 1.0)
            } else {
                greater(c, &x, &y, 1.0)
            }
        })?;
        Ok(self.wrap(out))
    }
}
