//! Many-slot plaintext algebra (paper 001, section 2.4): for a prime t not dividing m, Phi_m splits
//! modulo t into l = n / d irreducible factors of degree d = ord_m(t), and R_t = F_t[X]/(Phi_m) is the
//! product of l fields GF(t^d): a vector of l slot values is CRT-encoded into one plaintext.

use super::fpoly::{self, FPoly};
use super::phi::cyclotomic_polynomial;
use crate::arith::{is_prime, Modulus};
use crate::sample::Csprng;
use crate::{Error, Result};

/// The factorisation of Phi_m modulo t and the CRT idempotents that encode and decode slots.
#[derive(Clone, Debug)]
pub struct SlotAlgebra {
    t: Modulus,
    m: usize,
    d: usize,
    phi: FPoly,
    /// The l monic irreducible factors f_i of degree d.
    factors: Vec<FPoly>,
    /// e_i = 1 mod f_i, 0 mod f_j (j != i), degree < n.
    idempotents: Vec<FPoly>,
}

/// ord_m(t): the least d with t^d = 1 mod m.
pub fn multiplicative_order(t: u64, m: u64) -> Option<usize> {
    if num_integer::gcd(t, m) != 1 {
        return None;
    }
    let (mut x, mut d) = (t % m, 1usize);
    while x != 1 % m {
        x = ((u128::from(x) * u128::from(t)) % u128::from(m)) as u64;
        d += 1;
    }
    Some(d)
}

impl SlotAlgebra {
    /// Factors Phi_m modulo the prime t by equal-degree factorisation (Cantor–Zassenhaus; for t = 2 the
    /// trace map splits). Deterministic (seeded). Errors when t is not a prime below 2^62 or divides m.
    /// Cost: schoolbook, O(n^2 d log l) — precomputation for moderate n.
    pub fn new(m: usize, t: u64) -> Result<Self> {
        if !is_prime(t) {
            return Err(Error::InvalidParameters(format!(
                "the slot algebra needs a prime plaintext modulus; {t} is not prime"
            )));
        }
        let d = multiplicative_order(t, m as u64).ok_or_else(|| {
            Error::InvalidParameters(format!(
                "plaintext modulus {t} is not coprime to m = {m}: no batching slots"
            ))
        })?;
        let tm = Modulus::new(t)?;
        let phi = fpoly::from_signed(&tm, &cyclotomic_polynomial(m)?);
        let mut rng = Csprng::from_seed([0x51; 32]);
        let mut factors = Vec::new();
        let mut stack = vec![phi.clone()];
        while let Some(f) = stack.pop() {
            if f.len() - 1 == d {
                factors.push(f);
                continue;
            }
            let g = split(&tm, &f, d, &mut rng);
            let (h, _) = fpoly::div_rem(&tm, &f, &g);
            stack.push(fpoly::monic(&tm, h));
            stack.push(g);
        }
        factors.sort();
        let idempotents = factors
            .iter()
            .map(|f| {
                let (cofactor, _) = fpoly::div_rem(&tm, &phi, f);
                let inv = fpoly::inv_mod(&tm, &cofactor, f).ok_or_else(|| {
                    Error::InvalidParameters(format!("Phi_{m} is not squarefree modulo {t}"))
                })?;
                Ok(fpoly::rem(&tm, &fpoly::mul(&tm, &cofactor, &inv), &phi))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(SlotAlgebra {
            t: tm,
            m,
            d,
            phi,
            factors,
            idempotents,
        })
    }

    /// Number of slots l.
    pub fn slots(&self) -> usize {
        self.factors.len()
    }

    /// Degree d of each slot's field GF(t^d).
    pub fn slot_degree(&self) -> usize {
        self.d
    }

    /// n = phi(m).
    pub fn degree(&self) -> usize {
        self.phi.len() - 1
    }

    /// The cyclotomic index m.
    pub fn cyclotomic_index(&self) -> usize {
        self.m
    }

    /// The irreducible factors of Phi_m mod t (monic, constant first), in a fixed order.
    pub fn factors(&self) -> &[Vec<u64>] {
        &self.factors
    }

    /// Encodes l slots, each an element of GF(t^d) given as d coefficients in [0, t) (d = 1: one value),
    /// into the n coefficients of the plaintext polynomial. Errors on a wrong count or length, or a
    /// value >= t.
    pub fn encode(&self, slots: &[Vec<u64>]) -> Result<Vec<u64>> {
        if slots.len() != self.slots() {
            return Err(Error::LengthMismatch {
                what: "slot values",
                expected: self.slots(),
                got: slots.len(),
            });
        }
        let t = &self.t;
        let mut acc = vec![0u64; self.degree()];
        for (i, (s, e)) in slots.iter().zip(&self.idempotents).enumerate() {
            if s.len() != self.d {
                return Err(Error::LengthMismatch {
                    what: "slot element (coefficients in GF(t^d))",
                    expected: self.d,
                    got: s.len(),
                });
            }
            if let Some(&x) = s.iter().find(|&&x| x >= t.value()) {
                return Err(Error::OutOfRange(format!(
                    "slot {i} holds {x}, not below the plaintext modulus {}",
                    t.value()
                )));
            }
            let term = fpoly::rem(t, &fpoly::mul(t, &fpoly::trim(s.clone()), e), &self.phi);
            for (a, &x) in acc.iter_mut().zip(&term) {
                *a = t.add(*a, x);
            }
        }
        Ok(acc)
    }

    /// Decodes n plaintext coefficients (in [0, t)) into the l slot values (d coefficients each).
    pub fn decode(&self, coeffs: &[u64]) -> Result<Vec<Vec<u64>>> {
        if coeffs.len() != self.degree() {
            return Err(Error::LengthMismatch {
                what: "plaintext coefficients",
                expected: self.degree(),
                got: coeffs.len(),
            });
        }
        if let Some(&x) = coeffs.iter().find(|&&x| x >= self.t.value()) {
            return Err(Error::OutOfRange(format!(
                "coefficient {x} is not below the plaintext modulus {}",
                self.t.value()
            )));
        }
        let a = fpoly::trim(coeffs.to_vec());
        Ok(self
            .factors
            .iter()
            .map(|f| {
                let mut r = fpoly::rem(&self.t, &a, f);
                r.resize(self.d, 0);
                r
            })
            .collect())
    }
}

/// A proper monic factor of f, a product of irreducibles of degree d (Cantor–Zassenhaus).
fn split(t: &Modulus, f: &[u64], d: usize, rng: &mut Csprng) -> FPoly {
    let deg = f.len() - 1;
    loop {
        let a: FPoly = fpoly::trim((0..deg).map(|_| rng.uniform_mod(t)).collect());
        if a.len() < 2 {
            continue;
        }
        let g = fpoly::gcd(t, f, &a);
        if g.len() > 1 && g.len() < f.len() {
            return g;
        }
        let b = if t.value() == 2 {
            // Trace to F_2: a + a^2 + ... + a^(2^(d-1)) mod f.
            let (mut acc, mut p) = (a.clone(), a.clone());
            for _ in 1..d {
                p = fpoly::rem(t, &fpoly::mul(t, &p, &p), f);
                acc = fpoly::sub(t, &acc, &p); // in characteristic 2, minus is plus
            }
            acc
        } else {
            // a^((t^d - 1) / 2) = (a^(1 + t + ... + t^(d-1)))^((t - 1) / 2).
            let (mut norm, mut frob) = (a.clone(), a.clone());
            for _ in 1..d {
                frob = fpoly::pow_mod(t, &frob, u128::from(t.value()), f);
                norm = fpoly::rem(t, &fpoly::mul(t, &norm, &frob), f);
            }
            fpoly::sub(
                t,
                &fpoly::pow_mod(t, &norm, u128::from((t.value() - 1) / 2), f),
                &[1],
            )
        };
        let g = fpoly::gcd(t, f, &b);
        if g.len() > 1 && g.len() < f.len() {
            return g;
        }
    }
}
