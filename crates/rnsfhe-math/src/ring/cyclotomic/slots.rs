//! Many-slot plaintext algebra (Bajard et al. (SAC 2017), section 2.4; HElib's PAlgebra and EncryptedArray): for a
//! prime t not dividing m, Phi_m splits modulo t into l = n / d irreducible factors of degree
//! d = ord_m(t), and R_t = F_t[X]/(Phi_m) is the product of l copies of GF(t^d), arranged as the
//! hypercube of `Z_m^* / <t>`.
//!
//! Slot e holds a(zeta^(k_e)) in GF(t^d) = F_t[Y]/(G), where zeta = Y is a primitive m-th root, G its
//! minimal polynomial and k_e = h_e^-1 mod m for the slot's hypercube representative h_e; so X -> X^g
//! moves the value of slot h to slot g h (a rotation by +1 along dimension i for g = g_i), and
//! X -> X^t raises every slot to the power t (Frobenius).
//!
//! Precomputation (fast for the SIMD case, small d): an irreducible of degree d and a primitive m-th
//! root zeta in GF(t^d), then each factor as prod_j (X - zeta^(k t^j)) — O(n d^3) field-coefficient
//! operations, no factoring; encode / decode by a subproduct tree (CRT) with lazily reduced schoolbook
//! products, O(n^2) and O(n log l) memory.

use super::fpoly::{self, FPoly};
use super::gf::{self, Gf};
use super::hypercube::{inverse, mul_mod, pow_mod, Dimension, Hypercube};
use super::phi::cyclotomic_polynomial;
use crate::arith::{is_prime, Modulus};
use crate::sample::Csprng;
use crate::{Error, Result};

/// The slot structure of R_t = F_t\[X]/(Phi_m).
#[derive(Clone, Debug)]
pub struct SlotAlgebra {
    t: Modulus,
    m: usize,
    d: usize,
    n: usize,
    cube: Hypercube,
    /// GF(t^d) = F_t[Y]/(G), G = the factor of slot 0 (h_0 = 1).
    field: Gf,
    /// Subproduct tree: level 0 the l factors F_e in slot order, the last level [Phi_m mod t].
    tree: Vec<Vec<FPoly>>,
    /// Y^(k_e) mod G: the image of X in slot e's field.
    to_field: Vec<FPoly>,
    /// X^(h_e) mod F_e: the image of Y back in F_t[X]/(F_e).
    from_field: Vec<FPoly>,
    /// (Phi_m / F_e)^-1 mod F_e (CRT).
    crt: Vec<FPoly>,
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

fn build_tree(t: &Modulus, leaves: Vec<FPoly>) -> Vec<Vec<FPoly>> {
    let mut tree = vec![leaves];
    while let Some(level) = tree.last().filter(|l| l.len() > 1) {
        let up = level
            .chunks(2)
            .map(|c| match c {
                [a, b] => fpoly::mul(t, a, b),
                _ => c[0].clone(),
            })
            .collect();
        tree.push(up);
    }
    tree
}

impl SlotAlgebra {
    /// The slots of Phi_m modulo the prime t. Deterministic (seeded). Errors when m < 3, t is not a
    /// prime below 2^62 or t divides m.
    pub fn new(m: usize, t: u64) -> Result<Self> {
        if !is_prime(t) {
            return Err(Error::InvalidParameters(format!(
                "the slot algebra needs a prime plaintext modulus; {t} is not prime"
            )));
        }
        if m < 3 {
            return Err(Error::InvalidDegree {
                degree: m,
                reason: "the cyclotomic index must be >= 3".into(),
            });
        }
        let d = multiplicative_order(t, m as u64).ok_or_else(|| {
            Error::InvalidParameters(format!(
                "plaintext modulus {t} is not coprime to m = {m}: no batching slots"
            ))
        })?;
        let tm = Modulus::new(t)?;
        let phi = fpoly::from_signed(&tm, &cyclotomic_polynomial(m)?);
        let n = phi.len() - 1;
        let cube = Hypercube::new(m, (t % m as u64) as usize, d)?;
        let mut rng = Csprng::from_seed([0x51; 32]);
        let gf0 = Gf {
            t: tm,
            g: gf::irreducible(&tm, d, &mut rng),
        };
        let zeta = gf::primitive_root(&gf0, d, m, &mut rng)?;
        let factors = cube
            .reps
            .iter()
            .map(|&h| gf::minimal_polynomial(&gf0, &zeta, inverse(h, m), d))
            .collect::<Result<Vec<_>>>()?;
        let field = Gf {
            t: tm,
            g: factors[0].clone(),
        };
        let x = [0u64, 1];
        let to_field = cube
            .reps
            .iter()
            .map(|&h| fpoly::pow_mod(&tm, &x, inverse(h, m) as u128, &field.g))
            .collect();
        let from_field = cube
            .reps
            .iter()
            .zip(&factors)
            .map(|(&h, f)| fpoly::pow_mod(&tm, &x, h as u128, f))
            .collect();
        let tree = build_tree(&tm, factors);
        if tree.last().and_then(|l| l.first()) != Some(&phi) {
            return Err(Error::InvalidParameters(format!(
                "internal: the slot factors do not multiply to Phi_{m} mod {t}"
            )));
        }
        // (Phi / F_e)^-1 = F_e' / Phi' mod F_e.
        let derivative = |f: &[u64]| -> FPoly {
            fpoly::trim(
                f.iter()
                    .enumerate()
                    .skip(1)
                    .map(|(i, &c)| tm.mul(c, tm.reduce(i as u64)))
                    .collect(),
            )
        };
        let mut alg = SlotAlgebra {
            t: tm,
            m,
            d,
            n,
            cube,
            field,
            tree,
            to_field,
            from_field,
            crt: Vec::new(),
        };
        let phi_rems = alg.remainders(&derivative(&phi));
        alg.crt = alg.tree[0]
            .iter()
            .zip(&phi_rems)
            .map(|(f, r)| {
                let inv = fpoly::inv_mod(&tm, r, f).ok_or_else(|| {
                    Error::InvalidParameters(format!("Phi_{m} is not squarefree modulo {t}"))
                })?;
                Ok(fpoly::rem(&tm, &fpoly::mul(&tm, &derivative(f), &inv), f))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(alg)
    }

    /// a mod F_e for every slot, down the subproduct tree.
    fn remainders(&self, a: &[u64]) -> Vec<FPoly> {
        let t = &self.t;
        let mut rems: Vec<FPoly> = vec![fpoly::trim(a.to_vec())];
        for level in self.tree.iter().rev() {
            rems = level
                .iter()
                .enumerate()
                .map(|(i, f)| fpoly::rem(t, &rems[i / 2], f))
                .collect();
        }
        rems
    }

    /// Number of slots l.
    pub fn slots(&self) -> usize {
        self.tree[0].len()
    }

    /// Degree d of each slot's field GF(t^d).
    pub fn slot_degree(&self) -> usize {
        self.d
    }

    /// n = phi(m).
    pub fn degree(&self) -> usize {
        self.n
    }

    /// The cyclotomic index m.
    pub fn cyclotomic_index(&self) -> usize {
        self.m
    }

    /// The plaintext modulus t.
    pub fn plaintext_modulus(&self) -> u64 {
        self.t.value()
    }

    /// The irreducible factors F_e of Phi_m mod t (monic, constant first), in slot order.
    pub fn factors(&self) -> &[Vec<u64>] {
        &self.tree[0]
    }

    /// G, the monic irreducible of degree d with GF(t^d) = F_t\[Y]/(G) the field of every slot.
    pub fn field_polynomial(&self) -> &[u64] {
        &self.field.g
    }

    fn check_slot(&self, s: &[u64], i: usize) -> Result<()> {
        if s.len() != self.d {
            return Err(Error::LengthMismatch {
                what: "slot element (coefficients in GF(t^d))",
                expected: self.d,
                got: s.len(),
            });
        }
        if let Some(&x) = s.iter().find(|&&x| x >= self.t.value()) {
            return Err(Error::OutOfRange(format!(
                "slot {i} holds {x}, not below the plaintext modulus {}",
                self.t.value()
            )));
        }
        Ok(())
    }

    fn padded(&self, mut x: FPoly) -> Vec<u64> {
        x.resize(self.d, 0);
        x
    }

    /// Encodes l slots, each an element of GF(t^d) given as d coefficients in [0, t) (d = 1: one value),
    /// into the n coefficients of the plaintext polynomial (CRT up the subproduct tree). Errors on a
    /// wrong count or length, or a value >= t.
    pub fn encode(&self, slots: &[Vec<u64>]) -> Result<Vec<u64>> {
        if slots.len() != self.slots() {
            return Err(Error::LengthMismatch {
                what: "slot values",
                expected: self.slots(),
                got: slots.len(),
            });
        }
        let t = &self.t;
        let mut level: Vec<FPoly> = Vec::with_capacity(slots.len());
        for (i, s) in slots.iter().enumerate() {
            self.check_slot(s, i)?;
            let f = &self.tree[0][i];
            let local = Gf {
                t: *t,
                g: f.clone(),
            };
            let r = local.eval(&fpoly::trim(s.clone()), &self.from_field[i]);
            level.push(fpoly::rem(t, &fpoly::mul(t, &r, &self.crt[i]), f));
        }
        for products in &self.tree[..self.tree.len() - 1] {
            level = level
                .chunks(2)
                .enumerate()
                .map(|(j, c)| match c {
                    [a, b] => fpoly::add(
                        t,
                        &fpoly::mul(t, a, &products[2 * j + 1]),
                        &fpoly::mul(t, b, &products[2 * j]),
                    ),
                    _ => c[0].clone(),
                })
                .collect();
        }
        let mut out = level.into_iter().next().unwrap_or_default();
        out.resize(self.n, 0);
        Ok(out)
    }

    /// Decodes n plaintext coefficients (in [0, t)) into the l slot values (d coefficients each).
    pub fn decode(&self, coeffs: &[u64]) -> Result<Vec<Vec<u64>>> {
        if coeffs.len() != self.n {
            return Err(Error::LengthMismatch {
                what: "plaintext coefficients",
                expected: self.n,
                got: coeffs.len(),
            });
        }
        if let Some(&x) = coeffs.iter().find(|&&x| x >= self.t.value()) {
            return Err(Error::OutOfRange(format!(
                "coefficient {x} is not below the plaintext modulus {}",
                self.t.value()
            )));
        }
        Ok(self
            .remainders(coeffs)
            .iter()
            .zip(&self.to_field)
            .map(|(r, w)| self.padded(self.field.eval(r, w)))
            .collect())
    }

    /// The dimensions of the hypercube `Z_m^* / <t>` (HElib's PAlgebra generators and orders).
    pub fn dimensions(&self) -> &[Dimension] {
        &self.cube.dims
    }

    /// The slot index of hypercube coordinates (e_1, ..., e_k), e_i below the order of dimension i
    /// (mixed radix, e_1 most significant); None when out of range.
    pub fn slot_index(&self, coords: &[usize]) -> Option<usize> {
        self.cube.index(coords)
    }

    /// The hypercube coordinates of a slot index (below `slots()`).
    pub fn slot_coordinates(&self, index: usize) -> Vec<usize> {
        self.cube.coordinates(index)
    }

    /// The representative h_e = prod g_i^(e_i) mod m of a slot; None when out of range.
    pub fn slot_representative(&self, index: usize) -> Option<usize> {
        self.cube.reps.get(index).copied()
    }

    /// The Galois element g_i^k mod m (k taken mod o_i) whose automorphism X -> X^g rotates dimension
    /// i by k: the value of slot e moves to slot e + k (along i). On a non-native dimension the values
    /// that wrap around come back raised to t^(s) (`Dimension::wrap_frobenius`). Errors on a bad i.
    pub fn rotation_galois_element(&self, dimension: usize, k: i64) -> Result<usize> {
        let dim = self.cube.dims.get(dimension).ok_or_else(|| {
            Error::OutOfRange(format!(
                "dimension {dimension} of a hypercube with {} dimensions",
                self.cube.dims.len()
            ))
        })?;
        let k = k.rem_euclid(dim.order as i64) as usize;
        Ok(pow_mod(dim.generator, k, self.m))
    }

    /// The Frobenius element t mod m: X -> X^t raises every slot to the power t.
    pub fn frobenius_galois_element(&self) -> usize {
        (self.t.value() % self.m as u64) as usize
    }

    /// What X -> X^g does to the slots: entry e is (e', p) when the new slot e holds the old slot e'
    /// raised to the power t^p. Errors when g is not a unit mod m.
    pub fn automorphism_slot_map(&self, g: usize) -> Result<Vec<(usize, usize)>> {
        let m = self.m;
        if num_integer::gcd(g, m) != 1 {
            return Err(Error::OutOfRange(format!(
                "automorphism exponent {g} is not coprime to m = {m}"
            )));
        }
        let g_inv = inverse(g % m, m);
        self.cube
            .reps
            .iter()
            .map(|&h| {
                // New slot h: a(zeta^(g / h)) = old value at u = h / g = h_e' t^j, to the power t^-j.
                let (e, j) = self.cube.locate(mul_mod(h, g_inv, m)).ok_or_else(|| {
                    Error::InvalidParameters("internal: a unit outside the hypercube".into())
                })?;
                Ok((e, (self.d - j) % self.d))
            })
            .collect()
    }

    /// x * y in GF(t^d) (slot-wise product).
    pub fn slot_mul(&self, x: &[u64], y: &[u64]) -> Result<Vec<u64>> {
        self.check_slot(x, 0)?;
        self.check_slot(y, 0)?;
        Ok(self.padded(
            self.field
                .mul(&fpoly::trim(x.to_vec()), &fpoly::trim(y.to_vec())),
        ))
    }

    /// x^(t^p) in GF(t^d) (Frobenius applied p times).
    pub fn slot_frobenius(&self, x: &[u64], p: usize) -> Result<Vec<u64>> {
        self.check_slot(x, 0)?;
        let mut r = fpoly::trim(x.to_vec());
        for _ in 0..p % self.d {
            r = self.field.pow(&r, self.t.value());
        }
        Ok(self.padded(r))
    }
}
