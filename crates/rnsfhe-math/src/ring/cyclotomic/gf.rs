//! The field GF(t^d) = F_t[Y]/(G) for an irreducible G of degree d, and the factorisation of Phi_m
//! modulo t through a primitive m-th root of unity there (Bajard et al. (SAC 2017), section 2.4): each factor is the
//! minimal polynomial prod_j (X - zeta^(k t^j)) of zeta^k, one per coset `k <t>` of `Z_m^*`.

use num_bigint::BigUint;

use super::fpoly::{self, FPoly};
use crate::arith::Modulus;
use crate::sample::Csprng;
use crate::{Error, Result};

/// GF(t^d) as polynomials modulo a monic irreducible G (elements: trimmed [`FPoly`] of degree < d).
#[derive(Clone, Debug)]
pub(super) struct Gf {
    pub(super) t: Modulus,
    pub(super) g: FPoly,
}

impl Gf {
    pub(super) fn mul(&self, a: &[u64], b: &[u64]) -> FPoly {
        fpoly::rem(&self.t, &fpoly::mul(&self.t, a, b), &self.g)
    }

    /// a^e for an exponent given by its bits (big endian iteration over a BigUint).
    pub(super) fn pow_big(&self, a: &[u64], e: &BigUint) -> FPoly {
        let mut acc = fpoly::rem(&self.t, &[1], &self.g);
        for i in (0..e.bits()).rev() {
            acc = self.mul(&acc, &acc);
            if e.bit(i) {
                acc = self.mul(&acc, a);
            }
        }
        acc
    }

    pub(super) fn pow(&self, a: &[u64], e: u64) -> FPoly {
        self.pow_big(a, &BigUint::from(e))
    }

    /// r(w) for a polynomial r over F_t and w in the field (Horner).
    pub(super) fn eval(&self, r: &[u64], w: &[u64]) -> FPoly {
        r.iter().rev().fold(Vec::new(), |acc, &c| {
            fpoly::add(&self.t, &self.mul(&acc, w), &[c])
        })
    }
}

/// X^(t^k) mod f.
fn frobenius_power(t: &Modulus, f: &[u64], k: usize) -> FPoly {
    let mut x = fpoly::rem(t, &[0, 1], f);
    for _ in 0..k {
        x = fpoly::pow_mod(t, &x, u128::from(t.value()), f);
    }
    x
}

/// Rabin's test: f (monic, degree d) is irreducible iff X^(t^d) = X mod f and gcd(X^(t^(d/p)) - X, f) = 1
/// for every prime p | d.
fn is_irreducible(t: &Modulus, f: &[u64]) -> bool {
    let d = f.len() - 1;
    let x = fpoly::rem(t, &[0, 1], f);
    if fpoly::sub(t, &frobenius_power(t, f, d), &x)
        .iter()
        .any(|&c| c != 0)
    {
        return false;
    }
    crate::arith::roots::prime_factors(d as u64)
        .into_iter()
        .all(|p| {
            let h = fpoly::sub(t, &frobenius_power(t, f, d / p as usize), &x);
            fpoly::gcd(t, f, &h).len() == 1
        })
}

/// A monic irreducible polynomial of degree d over F_t (random trials, about d of them).
pub(super) fn irreducible(t: &Modulus, d: usize, rng: &mut Csprng) -> FPoly {
    loop {
        let mut f: FPoly = (0..d).map(|_| rng.uniform_mod(t)).collect();
        f.push(1);
        if is_irreducible(t, &f) {
            return f;
        }
    }
}

/// A primitive m-th root of unity in GF(t^d) (m | t^d - 1): a^((t^d - 1)/m) for random a until its
/// order is exactly m.
pub(super) fn primitive_root(gf: &Gf, d: usize, m: usize, rng: &mut Csprng) -> Result<FPoly> {
    let order = BigUint::from(gf.t.value()).pow(d as u32) - 1u32;
    if &order % m != BigUint::from(0u32) {
        return Err(Error::InvalidParameters(format!(
            "m = {m} does not divide t^d - 1 (t = {}, d = {d})",
            gf.t.value()
        )));
    }
    let e = order / m;
    let primes = crate::arith::roots::prime_factors(m as u64);
    loop {
        let a = fpoly::trim((0..d).map(|_| rng.uniform_mod(&gf.t)).collect());
        if a.is_empty() {
            continue;
        }
        let z = gf.pow_big(&a, &e);
        if primes
            .iter()
            .all(|&p| gf.pow(&z, m as u64 / p) != fpoly::rem(&gf.t, &[1], &gf.g))
        {
            return Ok(z);
        }
    }
}

/// The minimal polynomial over F_t of zeta^k: prod_{j < d} (X - zeta^(k t^j)), computed in GF(t^d)[X];
/// its coefficients lie in F_t.
pub(super) fn minimal_polynomial(gf: &Gf, zeta: &[u64], k: usize, d: usize) -> Result<FPoly> {
    let t = &gf.t;
    let mut root = gf.pow(zeta, k as u64);
    // Coefficients in GF(t^d), constant first.
    let mut f: Vec<FPoly> = vec![vec![1]];
    for _ in 0..d {
        let mut next: Vec<FPoly> = vec![Vec::new(); f.len() + 1];
        for (i, c) in f.iter().enumerate() {
            next[i + 1] = fpoly::add(t, &next[i + 1], c);
            next[i] = fpoly::sub(t, &next[i], &gf.mul(c, &root));
        }
        f = next;
        root = gf.pow(&root, t.value());
    }
    f.into_iter()
        .map(|c| match c.len() {
            0 => Ok(0),
            1 => Ok(c[0]),
            _ => Err(Error::InvalidParameters(
                "internal: a slot factor has a coefficient outside F_t".into(),
            )),
        })
        .collect()
}
