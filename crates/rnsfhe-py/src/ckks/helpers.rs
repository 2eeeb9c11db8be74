//! The Rust-side helpers of the CKKS context class beyond the shared ones of `rlwe_context!`: the
//! plaintext of an operand (the Python methods are in `context.rs`).

use super::*;

impl PyCkksContext {
    /// A plaintext given, or values encoded for encryption (top level, its scale).
    pub(crate) fn plain(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<CkksPlaintext>> {
        let top = self.ctx().max_level();
        self.plain_at(x, top, self.ctx().scale_at(top).py()?)
    }
    /// A plaintext given, or values encoded at `level` and `scale`.
    pub(crate) fn plain_at(
        &self,
        x: &Bound<'_, PyAny>,
        level: usize,
        scale: f64,
    ) -> PyResult<Arc<CkksPlaintext>> {
        if let Ok(p) = x.cast::<PyCkksPlaintext>() {
            same(&p.get().shared, &self.shared, "plaintext")?;
            return Ok(p.get().pt.clone());
        }
        let v = complex_values(x)?;
        Ok(Arc::new(self.ctx().encode_at(&v, level, scale).py()?))
    }
}

/// The weights of `sum_rotations`, owned: all real numbers, real and complex numbers, or all slot
/// vectors.
pub(crate) enum Weights {
    Real(Vec<f64>),
    Complex(Vec<Complex>),
    Vectors(Vec<Vec<Complex>>),
}

impl Weights {
    /// One weight per step from Python: numbers, or value vectors.
    pub(crate) fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let items = weight_items(obj)?;
        let real = |w: &WeightItem<'_>| match w {
            WeightItem::Int(x) => Some(*x as f64),
            WeightItem::Real(x) => Some(*x),
            _ => None,
        };
        if items.iter().all(|w| real(w).is_some()) {
            return Ok(Weights::Real(items.iter().filter_map(real).collect()));
        }
        if items.iter().all(|w| !matches!(w, WeightItem::Vector(_))) {
            let v = items.iter().filter_map(|w| match w {
                WeightItem::Int(_) | WeightItem::Real(_) => real(w).map(|x| Complex::new(x, 0.0)),
                WeightItem::Complex(z) => Some(*z),
                WeightItem::Vector(_) => None,
            });
            return Ok(Weights::Complex(v.collect()));
        }
        let mut out = Vec::with_capacity(items.len());
        for w in &items {
            match w {
                WeightItem::Vector(v) => out.push(complex_values(v)?),
                _ => {
                    return Err(PyTypeError::new_err(
                        "weights must be all numbers or all vectors, not a mix",
                    ))
                }
            }
        }
        Ok(Weights::Vectors(out))
    }

    /// The borrowed form the library takes.
    pub(crate) fn view(&self) -> CkksWeights<'_> {
        match self {
            Weights::Real(v) => CkksWeights::Real(v),
            Weights::Complex(v) => CkksWeights::Complex(v),
            Weights::Vectors(v) => CkksWeights::Vectors(v),
        }
    }
}
