//! Noise bounds carried by ciphertexts, as HElib's `Ctxt::noiseBound`: log2 of upper bounds on
//! ||nu||_inf and ||nu||_2 of the noise, updated operation by operation (BFV, BGV, HPR; each scheme
//! keeps its own model of fresh, product and switching noise).

/// log2 of the bounds on ||nu||_inf and ||nu||_2.
pub(crate) type Bound = [f64; 2];

/// log2(2^a + 2^b), exact for -inf.
pub(crate) fn log2_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (1.0 + (lo - hi).exp2()).log2()
}

/// The bounds of a sum: both norms add (triangle inequality).
pub(crate) fn add2(a: Bound, b: Bound) -> Bound {
    [log2_add(a[0], b[0]), log2_add(a[1], b[1])]
}

/// [`add2`] of two carried bounds (`None`: unknown).
pub(crate) fn add(a: Option<Bound>, b: Option<Bound>) -> Option<Bound> {
    Some(add2(a?, b?))
}

/// Times a scalar c: both norms times |c|.
pub(crate) fn scale(a: Option<Bound>, c: f64) -> Option<Bound> {
    let [i, l] = a?;
    Some([i + c.log2(), l + c.log2()])
}
