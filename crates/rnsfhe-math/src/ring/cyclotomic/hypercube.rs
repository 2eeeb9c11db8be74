//! The hypercube structure of `Z_m^* / <t>` (HElib's PAlgebra): generators g_i with orders o_i such that
//! `Z_m^* / <t>` is the direct product of the cyclic groups <g_i>, slot e = (e_1, ..., e_k) (mixed radix,
//! e_1 most significant) standing for the coset of h_e = prod g_i^(e_i) mod m.

use crate::{Error, Result};

/// One dimension of the hypercube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dimension {
    /// The generator g_i (an element of Z_m^*).
    pub generator: usize,
    /// Its order o_i in Z_m^* / <t, g_1, ..., g_(i-1)>: the length of the dimension.
    pub order: usize,
    /// Native: g_i^(o_i) = 1 mod m, so that X -> X^(g_i) rotates the dimension as a cycle. Otherwise
    /// g_i^(o_i) = t^s mod m and the slots that wrap around come back raised to the power t^s.
    pub native: bool,
    /// The s of g_i^(o_i) = t^s mod m (0 for a native dimension).
    pub wrap_frobenius: usize,
}

/// Z_m^* / <t> as a hypercube, with the map from units to (slot, power of t).
#[derive(Clone, Debug)]
pub(super) struct Hypercube {
    pub(super) dims: Vec<Dimension>,
    /// h_e for every slot index e.
    pub(super) reps: Vec<usize>,
    /// For a unit u: (e, j) with u = h_e t^j mod m.
    coset: Vec<Option<(usize, usize)>>,
}

pub(super) fn mul_mod(a: usize, b: usize, m: usize) -> usize {
    ((a as u64 * b as u64) % m as u64) as usize
}

pub(super) fn pow_mod(a: usize, mut e: usize, m: usize) -> usize {
    let (mut acc, mut base) = (1 % m, a % m);
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        e >>= 1;
    }
    acc
}

/// a^-1 mod m for a unit a.
pub(super) fn inverse(a: usize, m: usize) -> usize {
    let e = num_integer::Integer::extended_gcd(&(a as i64), &(m as i64));
    e.x.rem_euclid(m as i64) as usize
}

impl Hypercube {
    /// Greedy decomposition (as HElib): take an element of largest order o in Z_m^* / S, S = <t, g_1,
    /// ...>; o divides the exponent of that quotient, so x^o = t^a prod g_i^(b_i) with o | b_i, and
    /// x prod g_i^(-b_i / o) generates a direct factor. Among the candidates, a native one is preferred.
    pub(super) fn new(m: usize, t: usize, d: usize) -> Result<Self> {
        let units: Vec<usize> = (1..m).filter(|&x| num_integer::gcd(x, m) == 1).collect();
        // exps[x] = exponents (of g_1, g_2, ...) of x in S = <t, g_1, ...> modulo <t>, when x is in S.
        let mut exps: Vec<Option<Vec<usize>>> = vec![None; m];
        let mut x = 1 % m;
        for _ in 0..d {
            exps[x] = Some(Vec::new());
            x = mul_mod(x, t, m);
        }
        let mut size = d;
        let mut dims: Vec<Dimension> = Vec::new();
        while size < units.len() {
            let order_in_quotient = |x: usize| {
                let (mut y, mut k) = (x, 1);
                while exps[y].is_none() {
                    y = mul_mod(y, x, m);
                    k += 1;
                }
                (k, y)
            };
            let mut best: Option<(usize, Dimension)> = None;
            for &x in units.iter().filter(|&&x| exps[x].is_none()) {
                let (o, y) = order_in_quotient(x);
                if best
                    .as_ref()
                    .is_some_and(|(bo, b)| o < *bo || (o == *bo && b.native))
                {
                    continue;
                }
                let Some(b) = &exps[y] else { continue };
                // x' = x * prod g_i^(-b_i / o).
                let mut g = x;
                for (dim, &bi) in dims.iter().zip(b) {
                    if bi % o != 0 {
                        return Err(Error::InvalidParameters(format!(
                            "internal: hypercube of Z_{m}^*/<{t}> is not a direct product"
                        )));
                    }
                    g = mul_mod(g, inverse(pow_mod(dim.generator, bi / o, m), m), m);
                }
                let w = pow_mod(g, o, m);
                let s = (0..d).find(|&s| pow_mod(t, s, m) == w);
                let Some(s) = s else { continue };
                best = Some((
                    o,
                    Dimension {
                        generator: g,
                        order: o,
                        native: w == 1 % m,
                        wrap_frobenius: s,
                    },
                ));
            }
            let Some((o, dim)) = best else {
                return Err(Error::InvalidParameters(format!(
                    "internal: no generator found for Z_{m}^*/<{t}>"
                )));
            };
            let members: Vec<(usize, Vec<usize>)> = (0..m)
                .filter_map(|y| exps[y].clone().map(|e| (y, e)))
                .collect();
            let mut p = 1 % m;
            for e in 0..o {
                for (y, ev) in &members {
                    let z = mul_mod(*y, p, m);
                    let mut v = ev.clone();
                    v.push(e);
                    exps[z] = Some(v);
                }
                p = mul_mod(p, dim.generator, m);
            }
            size *= o;
            dims.push(dim);
        }
        let l = units.len() / d;
        let mut reps = Vec::with_capacity(l);
        for idx in 0..l {
            let (mut h, mut rest) = (1 % m, idx);
            for dim in dims.iter().rev() {
                h = mul_mod(h, pow_mod(dim.generator, rest % dim.order, m), m);
                rest /= dim.order;
            }
            reps.push(h);
        }
        let mut coset = vec![None; m];
        for (e, &h) in reps.iter().enumerate() {
            let mut u = h;
            for j in 0..d {
                coset[u] = Some((e, j));
                u = mul_mod(u, t, m);
            }
        }
        Ok(Hypercube { dims, reps, coset })
    }

    /// (e, j) with u = h_e t^j mod m, for a unit u.
    pub(super) fn locate(&self, u: usize) -> Option<(usize, usize)> {
        self.coset.get(u).copied().flatten()
    }

    /// Slot index of coordinates e (e_i < o_i).
    pub(super) fn index(&self, coords: &[usize]) -> Option<usize> {
        if coords.len() != self.dims.len() {
            return None;
        }
        coords
            .iter()
            .zip(&self.dims)
            .try_fold(0usize, |acc, (&e, dim)| {
                (e < dim.order).then_some(acc * dim.order + e)
            })
    }

    /// Coordinates of slot index `idx`.
    pub(super) fn coordinates(&self, mut idx: usize) -> Vec<usize> {
        let mut c = vec![0; self.dims.len()];
        for (ci, dim) in c.iter_mut().zip(&self.dims).rev() {
            *ci = idx % dim.order;
            idx /= dim.order;
        }
        c
    }
}
