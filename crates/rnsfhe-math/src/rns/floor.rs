//! fastRNSFloor (Bajard et al. (SAC 2016) section 4.3) and the extension S0 + S1 of Alg. 3 (FastBconv in m~-Montgomery
//! form followed by SmMRq, Alg. 2), each as one FastBconv-style dot product.

use num_bigint::BigUint;

use super::fast::{blocked_dots, scaled_inverses, scaled_residues_by, Extras};
use super::RnsBasis;
use crate::arith::{vector, Modulus, Shoup};
use crate::{Error, Result};

pub(super) fn max_modulus(b: &RnsBasis) -> u64 {
    b.max_modulus().value()
}

pub(super) fn check(what: &'static str, got: usize, expected: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            what,
            expected,
            got,
        })
    }
}

/// fastRNSFloor_q(f x, B) = (f x - FastBconv(|f x|_q, q, B)) |q^-1|_B for x given in q and B:
/// floor(f x / q) - e with e in [0, k] (Bajard et al. (SAC 2016) Lemma 5 with f = t).
///
/// One dot product: sum_i |x_i f q~_i|_{q_i} (-|q/q_i|_m q^-1) + x_m (f q^-1) modulo each m of B.
#[derive(Clone, Debug)]
pub struct FastRnsFloor {
    pub(super) q: RnsBasis,
    pub(super) b: RnsBasis,
    pub(super) scaled_inv: Vec<Shoup>,
    /// -|q/q_i|_m q^-1 at [j k + i] for the j-th modulus m of B.
    pub(super) consts: Vec<u64>,
    /// f q^-1 modulo each modulus of B.
    pub(super) own: Vec<u64>,
    /// floor(q/2) modulo each modulus of q and of B, added first when rounding (see `rounded`).
    pub(super) half: Option<(Vec<u64>, Vec<u64>)>,
}

impl FastRnsFloor {
    /// As [`FastRnsFloor::new`] with factor 1 but rounding, with an error of mean zero:
    /// floor((x + k q / 2) / q) - u for the FastBconv overflow u in [0, k), whose mean is about
    /// (k - 1) / 2 for k moduli in q. Adding k q / 2 rather than q / 2 centres both the rounding and
    /// u. This matters when the result is multiplied by a secret: an error of mean 1/2 in every
    /// coefficient, times s, is about n^(3/2) in the canonical embedding (ModDown of key switching and
    /// of public-key encryption, Cheon et al. (SAC 2018) Alg. 2). Measured at N = 2^14 with 2 special primes: CKKS
    /// fresh and rotation errors 4e-7 with q / 2, 1.5e-8 and 6e-8 with k q / 2.
    pub fn rounded(q: &RnsBasis, b: &RnsBasis) -> Result<Self> {
        let mut f = Self::new(q, b, 1)?;
        let h: BigUint = q.product() * BigUint::from(q.len()) / 2u32;
        let res = |basis: &RnsBasis| -> Vec<u64> {
            basis
                .moduli()
                .iter()
                .map(|m| super::residue(&h, m))
                .collect()
        };
        f.half = Some((res(q), res(b)));
        Ok(f)
    }

    /// Precomputes for bases q and B (coprime) and the factor f.
    pub fn new(q: &RnsBasis, b: &RnsBasis, factor: u64) -> Result<Self> {
        let scaled_inv = scaled_inverses(q, factor);
        let mut consts = Vec::with_capacity(q.len() * b.len());
        let mut own = Vec::with_capacity(b.len());
        for m in b.moduli() {
            let inv_q = m.inv(super::residue(q.product(), m))?;
            let minus = m.neg(inv_q);
            consts.extend(
                q.punctured_products()
                    .iter()
                    .map(|p| m.mul(super::residue(p, m), minus)),
            );
            own.push(m.mul(m.reduce(factor), inv_q));
        }
        Ok(FastRnsFloor {
            q: q.clone(),
            b: b.clone(),
            scaled_inv,
            consts,
            own,
            half: None,
        })
    }

    /// The checks of both forms and the first step of fastRNSFloor: (n, the scaled residues of x_q,
    /// plus half of q first where the floor rounds).
    pub(super) fn scaled_input(
        &self,
        xq: &[u64],
        xb_len: usize,
        out_len: usize,
    ) -> Result<(usize, crate::pool::Buffer)> {
        let n = self.lengths(xq.len(), xb_len, out_len)?;
        // Every word overwritten by the scaled copy of x_q.
        let mut y = crate::pool::Buffer::stale(xq.len());
        // Threads: one limb per task (the closure cannot fail); the scaled copy written once.
        let _: Result<()> =
            crate::parallel::for_each_limb_as(crate::parallel::Work::Light, &mut y, n, |i, yi| {
                let (m, w) = (&self.q.moduli()[i], self.scaled_inv[i]);
                vector::mul_shoup_scalar_into(m, &xq[i * n..(i + 1) * n], w, yi);
                self.add_source_half(i, yi);
                Ok(())
            });
        Ok((n, y))
    }

    /// The first step of fastRNSFloor on limb i of x_q, in place: y_i = |(x_i + h_i) w_i|_{q_i} with
    /// w_i = |f q~_i|_{q_i} and h the rounding half (0 without rounding), for x_i in [0, q_i). The rows
    /// that [`FastRnsFloor::apply_transformed_jobs`] takes, for a caller that has limb i in cache
    /// (after its inverse NTT).
    pub fn scale_source_limb(&self, i: usize, x: &mut [u64]) {
        let (m, w) = (&self.q.moduli()[i], self.scaled_inv[i]);
        vector::mul_shoup_scalar_assign(m, x, w);
        self.add_source_half(i, x);
    }

    /// |h_i w_i|_{q_i} added to limb i of the scaled x_q where the floor rounds:
    /// |(x_i + h_i) w_i|_{q_i} = |x_i w_i + |h_i w_i|_{q_i}|_{q_i}, the half added after the product.
    fn add_source_half(&self, i: usize, y: &mut [u64]) {
        if let Some((hq, _)) = &self.half {
            let (m, w) = (&self.q.moduli()[i], self.scaled_inv[i]);
            vector::add_scalar_assign(m, y, m.mul_shoup(hq[i], w));
        }
    }

    /// n for inputs of k n and |B| n words and an output of |B| n words (errors naming the input).
    pub(super) fn lengths(&self, xq_len: usize, xb_len: usize, out_len: usize) -> Result<usize> {
        let n = out_len / self.b.len().max(1);
        check("fastRNSFloor output", out_len, n * self.b.len())?;
        check("fastRNSFloor input in q", xq_len, n * self.q.len())?;
        check("fastRNSFloor input in B", xb_len, n * self.b.len())?;
        Ok(n)
    }

    /// `xq`: k n residues in q, `xb`: |B| n residues in B (limb-major); writes |B| n residues.
    pub fn apply(&self, xq: &[u64], xb: &[u64], out: &mut [u64]) -> Result<()> {
        if self.q.len() == 1 {
            // One source prime q0 (ModDown by one special prime): y = (x_q0 + half) q~ mod q0 in one
            // pass (the words of `scaled_input`), then out = x_b (f/q) - (y mod b) / q plus the
            // rounding constant half (f/q), in one pass per modulus of B.
            let n = self.lengths(xq.len(), xb.len(), out.len())?;
            let p = &self.q.moduli()[0];
            let (s, hq) = (
                self.scaled_inv[0],
                self.half.as_ref().map_or(0, |(hq, _)| hq[0]),
            );
            let mut y = crate::pool::Buffer::stale(n);
            vector::mul_shoup2_add(p, (xq, s), (xq, p.shoup(0)), p.mul(hq, s.value), &mut y);
            let q0 = p.value();
            for (j, m) in self.b.moduli().iter().enumerate() {
                let hb = self.half.as_ref().map_or(0, |(_, hb)| hb[j]);
                if q0 <= m.value() && m.neg(self.consts[j]) == self.own[j] {
                    // f = 1 (own = q^-1 = -consts) and y < q <= m: (x_b - y + half) q^-1.
                    let o = &mut out[j * n..(j + 1) * n];
                    let xj = &xb[j * n..(j + 1) * n];
                    vector::sub_mul_shoup(m, xj, &y, hb, m.shoup(self.own[j]), o);
                    continue;
                }
                let h = m.mul(hb, self.own[j]);
                vector::mul_shoup2_add(
                    m,
                    (&xb[j * n..(j + 1) * n], m.shoup(self.own[j])),
                    (&y, m.shoup(self.consts[j])),
                    h,
                    &mut out[j * n..(j + 1) * n],
                );
            }
            return Ok(());
        }
        let (n, y) = self.scaled_input(xq, xb.len(), out.len())?;
        let extras = Extras {
            add: None,
            own: Some((xb, &self.own)),
        };
        blocked_dots(
            &self.b,
            &y,
            n,
            &self.consts,
            max_modulus(&self.q),
            extras,
            out,
        );
        // Rounding: the half of x_B times f q^-1, one constant per modulus of B (x_B itself is not
        // copied to add it).
        if let Some((_, hb)) = &self.half {
            for (j, m) in self.b.moduli().iter().enumerate() {
                let c = m.mul(hb[j], self.own[j]);
                vector::add_scalar_assign(m, &mut out[j * n..(j + 1) * n], c);
            }
        }
        Ok(())
    }
}

/// S0 + S1 of Bajard et al. (SAC 2016) Alg. 3: from c in q to c' in B_sk with c' = c mod q and
/// ||c'|| <= q/2 (1 + rho), m~ rho > 2k + 1 (Lemma 4).
///
/// S0: c''_m~ = FastBconv(|m~ c|_q, q, {m~}); r = [-c''_m~ / q]_m~ (centred). S1 (Alg. 2) for each m of
/// B_sk: c'_m = (FastBconv(|m~ c|_q)_m + q r) m~^-1, computed as one dot product over the rows
/// |c_i m~ q~_i|_{q_i}, r + m~ (non-negative) and ones, with constants |q/q_i|_m m~^-1, q m~^-1 and
/// -q mod m.
#[derive(Clone, Debug)]
pub struct SmMrqExtension {
    q: RnsBasis,
    b_sk: RnsBasis,
    m_tilde: RnsBasis,
    scaled_inv: Vec<Shoup>,
    to_mt: Vec<u64>,
    neg_inv_q_mt: u64,
    to_bsk: Vec<u64>,
}

impl SmMrqExtension {
    /// Precomputes for q, B_sk and m~ (pairwise coprime, m~ >= 2).
    pub fn new(q: &RnsBasis, b_sk: &RnsBasis, m_tilde: u64) -> Result<Self> {
        let mt = Modulus::new(m_tilde)?;
        let scaled_inv = scaled_inverses(q, m_tilde);
        let to_mt = q
            .punctured_products()
            .iter()
            .map(|p| super::residue(p, &mt))
            .collect();
        let neg_inv_q_mt = mt.neg(mt.inv(super::residue(q.product(), &mt))?);
        let mut to_bsk = Vec::new();
        for m in b_sk.moduli() {
            let inv_mt = m.inv(m.reduce(m_tilde))?;
            let qm = super::residue(q.product(), m);
            to_bsk.extend(
                q.punctured_products()
                    .iter()
                    .map(|p| m.mul(super::residue(p, m), inv_mt)),
            );
            to_bsk.push(m.mul(qm, inv_mt));
            to_bsk.push(m.neg(qm));
        }
        Ok(SmMrqExtension {
            q: q.clone(),
            b_sk: b_sk.clone(),
            m_tilde: RnsBasis::new(&[m_tilde])?,
            scaled_inv,
            to_mt,
            neg_inv_q_mt,
            to_bsk,
        })
    }

    /// `c`: k n residues in q; writes |B_sk| n residues of c'.
    pub fn apply(&self, c: &[u64], out: &mut [u64]) -> Result<()> {
        let k = self.q.len();
        let n = out.len() / self.b_sk.len().max(1);
        check("SmMRq output", out.len(), n * self.b_sk.len())?;
        check("SmMRq input", c.len(), n * k)?;
        // Every word of y (the rows, r and the ones) and of c_mt is written below.
        let mut y = crate::pool::Buffer::stale((k + 2) * n);
        let (rows, extra) = y.split_at_mut(k * n);
        scaled_residues_by(&self.q, &self.scaled_inv, c, n, rows);
        let mut c_mt = crate::pool::Buffer::stale(n);
        let q_max = max_modulus(&self.q);
        blocked_dots(
            &self.m_tilde,
            rows,
            n,
            &self.to_mt,
            q_max,
            Extras::default(),
            &mut c_mt,
        );
        let mt = &self.m_tilde.moduli()[0];
        let (r_row, ones) = extra.split_at_mut(n);
        for (r, &x) in r_row.iter_mut().zip(&c_mt) {
            let centred = mt.center(mt.mul(x, self.neg_inv_q_mt));
            *r = centred.wrapping_add(mt.value() as i64) as u64;
        }
        ones.iter_mut().for_each(|o| *o = 1);
        let y_max = q_max.max(2 * mt.value());
        blocked_dots(
            &self.b_sk,
            &y,
            n,
            &self.to_bsk,
            y_max,
            Extras::default(),
            out,
        );
        Ok(())
    }
}
