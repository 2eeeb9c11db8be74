//! Hybrid Position-Residue digits (Bajard et al. (HPR-FV, ePrint 2019/500) section 2.2): an integer modulo q = p^d is
//! sum_i a_i p^i, each digit a_i an integer held in RNS over P u B_sk, P = {p_1..p_k} and
//! B_sk = {b_1..b_k, m_sk}, so that digits may grow past p between carry propagations.
//!
//! Layout of one digit of n coefficients: (2k + 1) rows of n residues, limb-major, P rows first,
//! then B, then m_sk (the order of [`HprBasis::full`]). The integer a digit stands for is the centred
//! representative modulo P * B * m_sk.

use num_bigint::BigInt;
use num_traits::Zero;

use super::converter::BaseConverter;
use super::fast::{blocked_dots, scaled_residues, Extras};
use super::{HpsConverter, RnsBasis, SkConverter};
use crate::arith::{vector, Modulus, Shoup};
use crate::{Error, Result};

/// The bases of HPR digits and the constants of carry propagation (Bajard et al. (HPR-FV, ePrint 2019/500) eqs. (4)-(6)).
#[derive(Clone, Debug)]
pub struct HprBasis {
    p: RnsBasis,
    b_sk: RnsBasis,
    full: RnsBasis,
    /// Per target m of B_sk, at [r (k + 1) + j]: |p / p_j|_m (j < k), then |-p|_m (the row counting
    /// centred residues, see [`HprBasis::carry`]).
    fbe_consts: Vec<u64>,
    /// p^-1 mod m for m in B_sk.
    inv_p: Vec<Shoup>,
    /// Exact return B_sk -> P (Shenoy-Kumaresan with m_sk, Bajard et al. (HPR-FV, ePrint 2019/500) eq. (5)).
    sk: SkConverter,
    /// Exact lift P -> B_sk of the centred [a]_p (HPS, Bajard et al. (HPR-FV, ePrint 2019/500) eq. (13)).
    hps: HpsConverter,
}

impl HprBasis {
    /// P = `p` (k primes), B_sk = `b_sk` (k + 1 moduli, m_sk last). Errors when the sizes do not
    /// match, the moduli are not pairwise coprime, or m_sk is too small for Shenoy-Kumaresan.
    pub fn new(p: &[u64], b_sk: &[u64]) -> Result<Self> {
        if p.is_empty() || b_sk.len() != p.len() + 1 {
            return Err(Error::InvalidBasis(format!(
                "HPR needs k >= 1 moduli in P and k + 1 in B_sk (B and m_sk); got {} and {}",
                p.len(),
                b_sk.len()
            )));
        }
        let p = RnsBasis::new(p)?;
        let b_sk = RnsBasis::new(b_sk)?;
        let full = p.concat(&b_sk)?;
        let pv = p.product();
        let fbe_consts = b_sk
            .moduli()
            .iter()
            .flat_map(|m| {
                let minus_p = m.neg(super::residue(pv, m));
                p.punctured_products()
                    .iter()
                    .map(move |x| super::residue(x, m))
                    .chain(std::iter::once(minus_p))
            })
            .collect();
        let inv_p = b_sk
            .moduli()
            .iter()
            .map(|m| Ok(m.shoup(m.inv(super::residue(pv, m))?)))
            .collect::<Result<Vec<_>>>()?;
        let sk = SkConverter::new(&b_sk, &p)?;
        let hps = HpsConverter::new(&p, &b_sk);
        Ok(HprBasis {
            p,
            b_sk,
            full,
            fbe_consts,
            inv_p,
            sk,
            hps,
        })
    }

    /// k, the number of moduli of P.
    pub fn k(&self) -> usize {
        self.p.len()
    }

    /// The base P of the radix p = p_1 ... p_k.
    pub fn p(&self) -> &RnsBasis {
        &self.p
    }

    /// B_sk = B u {m_sk}.
    pub fn b_sk(&self) -> &RnsBasis {
        &self.b_sk
    }

    /// P u B_sk, the base a digit lives in (2k + 1 moduli).
    pub fn full(&self) -> &RnsBasis {
        &self.full
    }

    /// Lemma 6 of Bajard et al. (SAC 2016) for the return B_sk -> P: carries must stay below lambda * b in absolute value.
    pub fn lambda(&self) -> u64 {
        self.sk.lambda()
    }

    fn check_digit(&self, digit: &[u64], what: &'static str) -> Result<usize> {
        let w = self.full.len();
        if digit.is_empty() || !digit.len().is_multiple_of(w) {
            return Err(Error::LengthMismatch {
                what,
                expected: w * (digit.len() / w).max(1),
                got: digit.len(),
            });
        }
        Ok(digit.len() / w)
    }

    /// The centred fast base extension of a digit's P residues to B_sk, written to `fbe` ((k+1) n):
    /// sum_j [a (p/p_j)^-1]_{p_j} p / p_j with centred residues, = [a]_p + alpha p, |alpha| <= k/2
    /// (Bajard et al. (HPR-FV, ePrint 2019/500) section 2.2, FBE(a_i, P, B_sk)). The count of residues above p_j / 2 is one more
    /// row of the dot product (constant -p), so the centring costs no extra reduction.
    fn centred_fbe(&self, digit_p: &[u64], n: usize, fbe: &mut [u64]) {
        let k = self.k();
        let mut y = crate::pool::Buffer::zeroed((k + 1) * n);
        let (rows, count) = y.split_at_mut(k * n);
        scaled_residues(&self.p, digit_p, n, rows);
        for (row, p) in rows.chunks_exact(n).zip(self.p.moduli()) {
            let half = p.value() / 2;
            for (c, &v) in count.iter_mut().zip(row) {
                *c += u64::from(v > half);
            }
        }
        let y_max = self.p.max_modulus().value();
        blocked_dots(
            &self.b_sk,
            &y,
            n,
            &self.fbe_consts,
            y_max,
            Extras::default(),
            fbe,
        );
    }

    /// One carry (Bajard et al. (HPR-FV, ePrint 2019/500) section 2.2, eqs. (4)-(5)): for a digit a (coefficient form, (2k+1) n
    /// residues) writes c~ = (a - FBE(a, P, B_sk)) / p to `carry` in P u B_sk (exact division in
    /// B_sk, Shenoy-Kumaresan return to P) and leaves in `digit` the centred \[a]_p + alpha p, with
    /// |digit| <= k p / 2. Exact while |c~| < lambda * b ([`HprBasis::lambda`]).
    pub fn carry(&self, digit: &mut [u64], carry: &mut [u64]) -> Result<()> {
        let n = self.check_digit(digit, "HPR digit")?;
        if carry.len() != digit.len() {
            return Err(Error::LengthMismatch {
                what: "HPR carry",
                expected: digit.len(),
                got: carry.len(),
            });
        }
        let k = self.k();
        let (dp, db) = digit.split_at_mut(k * n);
        let (cp, cb) = carry.split_at_mut(k * n);
        self.centred_fbe(dp, n, cb);
        // cb = FBE; digit_B := FBE and carry_B := (a_B - FBE) p^-1.
        for ((m, w), (a, f)) in self
            .b_sk
            .moduli()
            .iter()
            .zip(&self.inv_p)
            .zip(db.chunks_exact_mut(n).zip(cb.chunks_exact_mut(n)))
        {
            vector::sub_assign(m, a, f);
            a.swap_with_slice(f); // a = FBE, f = a - FBE
            vector::mul_shoup_scalar_assign(m, f, *w);
        }
        self.sk.convert(cb, cp)
    }

    /// Keeps a digit modulo p only: its B_sk residues become the centred FBE, so the digit is
    /// \[a]_p + alpha p with |alpha| <= k/2 (the top digit of an element of R_q, whose carry is a
    /// multiple of q and is dropped).
    pub fn normalize(&self, digit: &mut [u64]) -> Result<()> {
        let n = self.check_digit(digit, "HPR digit")?;
        let (dp, db) = digit.split_at_mut(self.k() * n);
        self.centred_fbe(dp, n, db);
        Ok(())
    }

    /// Carry propagation over d digits (Bajard et al. (HPR-FV, ePrint 2019/500) eq. (6), (d - 1) carries): the carry of digit i is
    /// added to digit i + 1, the top digit is kept modulo p ([`HprBasis::normalize`]). Afterwards every
    /// digit satisfies |a_i| <= k p / 2 and the value modulo q = p^d is unchanged.
    pub fn propagate(&self, digits: &mut [&mut [u64]]) -> Result<()> {
        let Some(len) = digits.first().map(|d| d.len()) else {
            return Ok(());
        };
        let n = len / self.full.len().max(1);
        let mut carry = crate::pool::Buffer::zeroed(len);
        let last = digits.len() - 1;
        for i in 0..last {
            self.carry(digits[i], &mut carry)?;
            self.add_assign(digits[i + 1], &carry, n)?;
        }
        self.normalize(digits[last])
    }

    /// a += b over P u B_sk (both (2k+1) n residues).
    pub fn add_assign(&self, a: &mut [u64], b: &[u64], n: usize) -> Result<()> {
        if a.len() != b.len() || a.len() != self.full.len() * n {
            return Err(Error::LengthMismatch {
                what: "HPR digit sum",
                expected: self.full.len() * n,
                got: a.len().min(b.len()),
            });
        }
        for ((x, y), m) in a
            .chunks_exact_mut(n)
            .zip(b.chunks_exact(n))
            .zip(self.full.moduli())
        {
            vector::add_assign(m, x, y);
        }
        Ok(())
    }

    /// The lift of Bajard et al. (HPR-FV, ePrint 2019/500) eq. (13) (HPS): the digit's B_sk residues become those of the centred
    /// \[a]_p, so the digit stands for an integer in (-p/2, p/2] (floating-point correction; off by
    /// p with probability about k n 2^-51, Bajard et al. (HPR-FV, ePrint 2019/500) Remark 2).
    pub fn lift_centred(&self, digit: &mut [u64]) -> Result<()> {
        let n = self.check_digit(digit, "HPR digit")?;
        let (dp, db) = digit.split_at_mut(self.k() * n);
        self.hps.convert(dp, db)
    }

    /// The single-digit decomposition of section 4.1, eq. (18): r_j = [a (p_j / p)]_{p_j} (centred,
    /// |r_j| < p_j / 2) for a digit's P residues, lifted to P u B_sk (a copy of a small value) into
    /// `out` (k digits, k (2k+1) n). After carry propagation sum_j r_j p / p_j is the digit itself.
    pub fn decompose(&self, digit_p: &[u64], out: &mut [u64]) -> Result<()> {
        let (k, w) = (self.k(), self.full.len());
        let n = digit_p.len() / k.max(1);
        if n == 0 || digit_p.len() != k * n || out.len() != k * w * n {
            return Err(Error::LengthMismatch {
                what: "HPR decomposition (k digits of P u B_sk)",
                expected: k * w * n,
                got: out.len(),
            });
        }
        // Every word is written by the scaled residues.
        let mut y = crate::pool::Buffer::stale(k * n);
        scaled_residues(&self.p, digit_p, n, &mut y);
        for ((row, pj), o) in y
            .chunks_exact(n)
            .zip(self.p.moduli())
            .zip(out.chunks_exact_mut(w * n))
        {
            for (m, dst) in self.full.moduli().iter().zip(o.chunks_exact_mut(n)) {
                vector::lift_centered(pj, m, row, dst);
            }
        }
        Ok(())
    }

    /// The exact integer value sum_i a_i p^i of d digits (coefficient form), coefficient by
    /// coefficient, with each digit's centred representative (big integers: tests and measurement).
    pub fn compose(&self, digits: &[&[u64]]) -> Result<Vec<BigInt>> {
        let Some(first) = digits.first() else {
            return Ok(Vec::new());
        };
        let n = self.check_digit(first, "HPR digit")?;
        let w = self.full.len();
        let p = BigInt::from(self.p.product().clone());
        let mut out = vec![BigInt::zero(); n];
        for digit in digits.iter().rev() {
            if digit.len() != w * n {
                return Err(Error::LengthMismatch {
                    what: "HPR digit",
                    expected: w * n,
                    got: digit.len(),
                });
            }
            for (j, o) in out.iter_mut().enumerate() {
                let res: Vec<u64> = (0..w).map(|i| digit[i * n + j]).collect();
                *o = &*o * &p + self.full.compose_centered(&res)?;
            }
        }
        Ok(out)
    }

    /// The digits of a non-negative integer below p^d in base p (precomputation, e.g. Delta).
    pub fn digits_of(&self, x: &num_bigint::BigUint, d: usize) -> Vec<num_bigint::BigUint> {
        let p = self.p.product();
        let mut x = x.clone();
        (0..d)
            .map(|_| {
                let r = &x % p;
                x /= p;
                r
            })
            .collect()
    }

    /// x mod m for every modulus of P u B_sk.
    pub fn residues_of(&self, x: &BigInt) -> Vec<u64> {
        self.full.decompose_signed(x)
    }

    /// Modulus m of the full base by row.
    pub fn modulus(&self, row: usize) -> Option<&Modulus> {
        self.full.moduli().get(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::ntt_primes;
    use num_bigint::BigUint;
    use num_traits::Signed;

    fn basis(k: usize) -> HprBasis {
        let all = ntt_primes(61, 16, 2 * k + 1, &[]).unwrap();
        HprBasis::new(&all[..k], &all[k..]).unwrap()
    }

    fn rand_digit(
        h: &HprBasis,
        n: usize,
        bound: &BigInt,
        seed: &mut u64,
    ) -> (Vec<u64>, Vec<BigInt>) {
        let w = h.full().len();
        let mut data = vec![0u64; w * n];
        let mut vals = Vec::new();
        for j in 0..n {
            let mut x = BigInt::zero();
            for _ in 0..(bound.bits() / 60 + 2) {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                x = (x << 60) + BigInt::from(*seed >> 4);
            }
            let x = x % (bound * 2) - bound;
            for (i, r) in h.residues_of(&x).into_iter().enumerate() {
                data[i * n + j] = r;
            }
            vals.push(x);
        }
        (data, vals)
    }

    /// Eqs. (4)-(6): after propagation the value mod q is unchanged and every digit is at most
    /// k p / 2 in absolute value; each carry is exact.
    #[test]
    fn propagation_keeps_value_and_bounds_digits() {
        for k in 1..=3 {
            let h = basis(k);
            let (n, d) = (16, 4);
            let p = BigInt::from(h.p().product().clone());
            let q = num_traits::pow(p.clone(), d);
            // Digits up to 2^20 p^2 (a product's size), some negative.
            let bound = &p * &p * BigInt::from(1u64 << 20);
            let mut seed = 7 + k as u64;
            let mut digits: Vec<Vec<u64>> = (0..d)
                .map(|_| rand_digit(&h, n, &bound, &mut seed).0)
                .collect();
            let before = {
                let refs: Vec<&[u64]> = digits.iter().map(|v| v.as_slice()).collect();
                h.compose(&refs).unwrap()
            };
            let mut refs: Vec<&mut [u64]> = digits.iter_mut().map(|v| v.as_mut_slice()).collect();
            h.propagate(&mut refs).unwrap();
            let refs: Vec<&[u64]> = digits.iter().map(|v| v.as_slice()).collect();
            let after = h.compose(&refs).unwrap();
            for (a, b) in before.iter().zip(&after) {
                let diff: BigInt = a - b;
                assert!((diff % &q).is_zero(), "value changed modulo q");
            }
            let limit = &p * BigInt::from(k) / 2;
            for dg in &digits {
                for v in h.compose(&[dg.as_slice()]).unwrap() {
                    assert!(v.abs() <= limit, "digit {v} above k p / 2");
                }
            }
        }
    }

    /// One carry is exact: a = digit' + p c~ over the integers.
    #[test]
    fn one_carry_is_exact() {
        let h = basis(3);
        let n = 8;
        let p = BigInt::from(h.p().product().clone());
        let bound = &p * &p * BigInt::from(1u64 << 30);
        let mut seed = 99;
        let (mut a, vals) = rand_digit(&h, n, &bound, &mut seed);
        let mut c = vec![0u64; a.len()];
        h.carry(&mut a, &mut c).unwrap();
        let low = h.compose(&[a.as_slice()]).unwrap();
        let carry = h.compose(&[c.as_slice()]).unwrap();
        for ((v, l), c) in vals.iter().zip(&low).zip(&carry) {
            assert_eq!(*v, l + c * &p);
        }
    }

    /// Eq. (13) and eq. (18): the lift gives the centred [a]_p, and the decomposition recomposes
    /// the carried digit exactly.
    #[test]
    fn lift_and_decomposition() {
        let h = basis(2);
        let n = 8;
        let p = BigInt::from(h.p().product().clone());
        let mut seed = 5;
        let (mut a, vals) = rand_digit(&h, n, &(&p * 1000), &mut seed);
        h.lift_centred(&mut a).unwrap();
        for (v, l) in vals.iter().zip(h.compose(&[a.as_slice()]).unwrap()) {
            let mut r: BigInt = v % &p;
            if r > &p / 2 {
                r -= &p;
            } else if r <= -(&p / BigInt::from(2)) {
                r += &p;
            }
            assert_eq!(l, r);
        }
        let (mut a, _) = rand_digit(&h, n, &(&p * 1000), &mut seed);
        let mut c = vec![0u64; a.len()];
        h.carry(&mut a, &mut c).unwrap();
        let w = h.full().len();
        let mut r = vec![0u64; h.k() * w * n];
        h.decompose(&a[..h.k() * n], &mut r).unwrap();
        let want = h.compose(&[a.as_slice()]).unwrap();
        for (j, want) in want.iter().enumerate() {
            let mut sum = BigInt::zero();
            for (i, pj) in h.p().moduli().iter().enumerate() {
                let ri = h.compose(&[&r[i * w * n..(i + 1) * w * n]]).unwrap()[j].clone();
                assert!(ri.abs() * 2 < BigInt::from(pj.value()));
                sum += ri * (&p / BigInt::from(BigUint::from(pj.value())));
            }
            assert_eq!(&sum, want);
        }
    }
}
