//! The functions Newton's method evaluates ([`super`]): 1/x, 1/sqrt(x) and sqrt(x), with what the
//! plan and the initial approximations need to know of each.

/// The functions of [`super`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    /// 1 / x.
    Inverse,
    /// 1 / sqrt(x).
    InvSqrt,
    /// sqrt(x).
    Sqrt,
}

impl Function {
    /// The exact value (the reference of the bounds).
    pub fn exact(self, x: f64) -> f64 {
        match self {
            Function::Inverse => 1.0 / x,
            Function::InvSqrt => 1.0 / x.sqrt(),
            Function::Sqrt => x.sqrt(),
        }
    }

    /// The levels of the final Newton step: a constant product and two products (sqrt: one more,
    /// the product by x).
    pub fn final_levels(self) -> usize {
        match self {
            Function::Sqrt => 4,
            _ => 3,
        }
    }

    /// Its name in messages (and Python's method).
    pub fn name(self) -> &'static str {
        match self {
            Function::Inverse => "inverse",
            Function::InvSqrt => "inv_sqrt",
            Function::Sqrt => "sqrt",
        }
    }
}
