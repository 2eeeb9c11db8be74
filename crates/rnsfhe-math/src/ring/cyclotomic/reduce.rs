//! Per-modulus tables and kernels of the three reductions modulo Phi_m (Bajard et al. (SAC 2017), Algs. 1–4).

use super::phi::{barrett_quotient, SparseMultiple};
use super::Reduction;
use crate::arith::{Modulus, Shoup};
use crate::ntt::{CyclicNttTable, NttTable};
use crate::{Error, Result};

/// Alg. 1 tables for one alpha: mu = floor(X^(n+alpha)/Phi) in NTT_A form, Phi in NTT_n~ form.
#[derive(Debug)]
struct BarrettTables {
    alpha: usize,
    ntt_a: CyclicNttTable,
    mu_hat: Vec<Shoup>,
    ntt_nt: CyclicNttTable,
    phi_hat: Vec<Shoup>,
}

/// Algs. 3–4 tables: the half-size transforms sharing the size-N roots, W = -1/Phi (odd basis),
/// Z = Phi/2 (even basis), and M^2 mod Phi (entry to the Montgomery form) in NTT_N form.
#[derive(Debug)]
struct MontgomeryTables {
    odd: NttTable,
    even: CyclicNttTable,
    w: Vec<Shoup>,
    z: Vec<Shoup>,
    inv2: Shoup,
    m2_hat: Vec<Shoup>,
}

/// Everything one modulus needs.
#[derive(Debug)]
pub(crate) struct ModulusTables {
    q: Modulus,
    m: usize,
    n: usize,
    /// Non-zero coefficients of Phi below the leading one: (exponent, value mod q).
    phi_terms: Vec<(usize, u64)>,
    ntt_big: CyclicNttTable,
    barrett: Option<BarrettTables>,
    /// Degree and (exponent, +-1) terms of Q_sp.
    sparse: Option<(usize, Vec<(usize, i64)>)>,
    montgomery: Option<MontgomeryTables>,
}

impl BarrettTables {
    fn new(q: Modulus, phi: &[i64], alpha: usize) -> Result<Self> {
        let n = phi.len() - 1;
        let ntt_a = CyclicNttTable::new(q, (2 * alpha + 1).next_power_of_two().max(2))?;
        let mut mu_hat = barrett_quotient(phi, alpha, &q);
        mu_hat.resize(ntt_a.n(), 0);
        ntt_a.forward(&mut mu_hat)?;
        let mu_hat = mu_hat.into_iter().map(|x| q.shoup(x)).collect();
        let nt = n.next_power_of_two().max(2);
        let ntt_nt = CyclicNttTable::new(q, nt)?;
        let mut phi_hat = vec![0u64; nt];
        for (i, &c) in phi.iter().enumerate() {
            phi_hat[i % nt] = q.add(phi_hat[i % nt], q.reduce_i64(c));
        }
        ntt_nt.forward(&mut phi_hat)?;
        let phi_hat = phi_hat.into_iter().map(|x| q.shoup(x)).collect();
        Ok(BarrettTables {
            alpha,
            ntt_a,
            mu_hat,
            ntt_nt,
            phi_hat,
        })
    }

    /// Alg. 1: c (degree <= n + alpha, given as at most n + alpha + 1 coefficients) mod Phi into out (n).
    fn reduce(&self, q: &Modulus, n: usize, c: &[u64], out: &mut [u64]) -> Result<()> {
        let alpha = self.alpha;
        // Q = floor(floor(c / X^n) * mu / X^alpha), exact for a monic Phi.
        let mut hi = vec![0u64; self.ntt_a.n()];
        for (h, &x) in hi.iter_mut().zip(c.iter().skip(n).take(alpha + 1)) {
            *h = x;
        }
        self.ntt_a.forward(&mut hi)?;
        hi.iter_mut()
            .zip(&self.mu_hat)
            .for_each(|(x, &y)| *x = q.mul_shoup(*x, y));
        self.ntt_a.inverse(&mut hi)?;
        let nt = self.ntt_nt.n();
        let mut quotient = vec![0u64; nt];
        quotient[..alpha + 1].copy_from_slice(&hi[alpha..2 * alpha + 1]);
        // r = c - Q Phi, computed modulo X^n~ - 1 (deg r < n <= n~).
        self.ntt_nt.forward(&mut quotient)?;
        quotient
            .iter_mut()
            .zip(&self.phi_hat)
            .for_each(|(x, &y)| *x = q.mul_shoup(*x, y));
        self.ntt_nt.inverse(&mut quotient)?;
        let mut folded = vec![0u64; nt];
        for (i, &x) in c.iter().enumerate() {
            folded[i % nt] = q.add(folded[i % nt], x);
        }
        for ((o, &f), &qp) in out.iter_mut().zip(&folded).zip(&quotient) {
            *o = q.sub(f, qp);
        }
        Ok(())
    }
}

impl ModulusTables {
    pub(crate) fn new(
        q: Modulus,
        m: usize,
        phi: &[i64],
        big_n: usize,
        reduction: Reduction,
        sparse: Option<&SparseMultiple>,
    ) -> Result<Self> {
        let n = phi.len() - 1;
        let ntt_big = CyclicNttTable::new(q, big_n)?;
        let phi_terms: Vec<(usize, u64)> = phi
            .iter()
            .enumerate()
            .take(n)
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i, q.reduce_i64(c)))
            .collect();
        let mut t = ModulusTables {
            q,
            m,
            n,
            phi_terms,
            ntt_big,
            barrett: None,
            sparse: None,
            montgomery: None,
        };
        match (reduction, sparse) {
            (Reduction::Montgomery, _) => t.montgomery = Some(t.montgomery_tables(phi)?),
            (Reduction::SparseBarrett, Some(sp)) => {
                t.sparse = Some((sp.degree, sp.terms.clone()));
                if let Some(alpha) = sp.degree.checked_sub(n + 1) {
                    t.barrett = Some(BarrettTables::new(q, phi, alpha)?);
                }
            }
            _ => t.barrett = Some(BarrettTables::new(q, phi, n.saturating_sub(2))?),
        }
        Ok(t)
    }

    fn montgomery_tables(&self, phi: &[i64]) -> Result<MontgomeryTables> {
        let (q, big_n) = (self.q, self.ntt_big.n());
        let half = big_n / 2;
        let omega = self.ntt_big.omega();
        let odd = NttTable::with_root(q, half, omega)?;
        let even = CyclicNttTable::with_root(q, half, q.mul(omega, omega))?;
        let mut phi_hat: Vec<u64> = phi.iter().map(|&c| q.reduce_i64(c)).collect();
        phi_hat.resize(big_n, 0);
        self.ntt_big.forward(&mut phi_hat)?;
        let inv2 = q.inv(2)?;
        let w = phi_hat[half..]
            .iter()
            .map(|&v| {
                q.inv(v)
                    .map(|i| q.shoup(q.neg(i)))
                    .map_err(|_| Error::InvalidModulus {
                        modulus: q.value(),
                        reason:
                            "Phi_m vanishes at a root of X^(N/2) + 1 modulo q (Bajard et al. (SAC 2017), Lemma 1)"
                                .into(),
                    })
            })
            .collect::<Result<Vec<_>>>()?;
        let z = phi_hat[..half]
            .iter()
            .map(|&v| q.shoup(q.mul(v, inv2)))
            .collect();
        // M^2 = (X^(N/2) + 1)^2 = X^N + 2 X^(N/2) + 1 mod Phi.
        let mut m2 = vec![0u64; big_n + 1];
        m2[0] = 1;
        m2[half] = 2 % q.value();
        m2[big_n] = 1;
        self.reduce_long(&mut m2);
        m2.truncate(big_n);
        m2[self.n..].iter_mut().for_each(|x| *x = 0);
        self.ntt_big.forward(&mut m2)?;
        Ok(MontgomeryTables {
            odd,
            even,
            w,
            z,
            inv2: q.shoup(inv2),
            m2_hat: m2.into_iter().map(|x| q.shoup(x)).collect(),
        })
    }

    /// Schoolbook long division by the monic Phi (mod q) in place: afterwards c has degree < n. Costs
    /// (len - n) * HW(Phi); for precomputation and automorphisms.
    pub(super) fn reduce_long(&self, c: &mut [u64]) {
        let (q, n) = (&self.q, self.n);
        for i in (n..c.len()).rev() {
            let t = c[i];
            if t == 0 {
                continue;
            }
            c[i] = 0;
            for &(j, v) in &self.phi_terms {
                c[i - n + j] = q.sub(c[i - n + j], q.mul(t, v));
            }
        }
    }

    /// NTT_N of a polynomial of degree < n.
    fn forward_big(&self, a: &[u64]) -> Result<Vec<u64>> {
        let mut v = vec![0u64; self.ntt_big.n()];
        v[..a.len()].copy_from_slice(a);
        self.ntt_big.forward(&mut v)?;
        Ok(v)
    }

    /// NTT_N of the n coefficients `a` into `out` (N words).
    pub(crate) fn forward_limb(&self, a: &[u64], out: &mut [u64]) -> Result<()> {
        out[..a.len()].copy_from_slice(a);
        out[a.len()..].iter_mut().for_each(|x| *x = 0);
        self.ntt_big.forward(out)
    }

    /// NTT_N in place of the n coefficients in `buf[..n]` (`buf` of N words, its tail zeroed first).
    pub(crate) fn forward_in_place(&self, buf: &mut [u64]) -> Result<()> {
        buf[self.n..].iter_mut().for_each(|x| *x = 0);
        self.ntt_big.forward(buf)
    }

    /// From the NTT_N values `c_hat` (clobbered) of c to the n coefficients of c mod Phi_m in `out`.
    /// When `product` is false, deg c < n and only the inverse NTT runs; otherwise c is a sum of
    /// products (deg c <= 2n - 2) reduced once by the ring's method (Bajard et al. (SAC 2017), section 3; Montgomery:
    /// c M^-1, Alg. 3, straight from the NTT_N values).
    pub(crate) fn reduce_limb(
        &self,
        c_hat: &mut [u64],
        product: bool,
        out: &mut [u64],
    ) -> Result<()> {
        if product {
            if let Some(mt) = &self.montgomery {
                return self.montgomery_reduce(mt, c_hat, out);
            }
        }
        self.ntt_big.inverse(c_hat)?;
        if product {
            self.reduce_product(c_hat[..2 * self.n - 1].to_vec(), out)
        } else {
            out.copy_from_slice(&c_hat[..self.n]);
            Ok(())
        }
    }

    /// Whether NTT_N values are those of a polynomial of degree < n (one inverse NTT_N on a copy).
    pub(crate) fn is_reduced_ntt(&self, c_hat: &[u64]) -> Result<bool> {
        let mut c = c_hat.to_vec();
        self.ntt_big.inverse(&mut c)?;
        Ok(c[self.n..].iter().all(|&x| x == 0))
    }

    /// Montgomery rings: NTT_N values of c (deg c < n) to those of c Psi, Psi = X^(N/2) + 1, so that the
    /// Montgomery reduction gives back c. Psi(omega^bitrev(i)) = 2 for i < N/2 and 0 above.
    pub(crate) fn promote(&self, c_hat: &mut [u64]) {
        if self.montgomery.is_some() {
            let half = c_hat.len() / 2;
            let (lo, hi) = c_hat.split_at_mut(half);
            lo.iter_mut().for_each(|x| *x = self.q.add(*x, *x));
            hi.iter_mut().for_each(|x| *x = 0);
        }
    }

    /// X -> X^g on n coefficients (g coprime to m, below m): X^i -> X^(ig mod m), then a long division
    /// by Phi_m (degree < m to < n).
    pub(crate) fn automorphism_limb(&self, a: &[u64], g: usize, out: &mut [u64]) {
        let (q, m) = (&self.q, self.m);
        let mut wide = vec![0u64; m.max(self.n)];
        for (i, &x) in a.iter().enumerate() {
            let e = i * g % m;
            wide[e] = q.add(wide[e], x);
        }
        self.reduce_long(&mut wide);
        out.copy_from_slice(&wide[..self.n]);
    }

    /// Algs. 1–2: a product c of degree <= 2n - 2 reduced modulo Phi_m into out.
    fn reduce_product(&self, mut c: Vec<u64>, out: &mut [u64]) -> Result<()> {
        let q = &self.q;
        if let Some((degree, terms)) = &self.sparse {
            // Alg. 2, step 1: Phi_m | X^m - 1.
            if c.len() > self.m {
                for i in self.m..c.len() {
                    c[i - self.m] = q.add(c[i - self.m], c[i]);
                }
                c.truncate(self.m);
            }
            // Step 2: reduce by the monic Q_sp with +-1 coefficients, additions only.
            for i in (*degree..c.len()).rev() {
                let t = c[i];
                c[i] = 0;
                for &(e, v) in terms {
                    let k = i - degree + e;
                    c[k] = if v > 0 {
                        q.sub(c[k], t)
                    } else {
                        q.add(c[k], t)
                    };
                }
            }
            c.truncate(*degree);
        }
        match &self.barrett {
            Some(bt) => bt.reduce(q, self.n, &c, out),
            None => {
                // Q_sp = Phi_m itself: already reduced.
                out.iter_mut()
                    .zip(c.iter().chain(std::iter::repeat(&0)))
                    .for_each(|(o, &x)| *o = x);
                Ok(())
            }
        }
    }

    /// Alg. 3 (with Alg. 4 as the odd-to-even conversion): c_hat = NTT_N(c), deg c <= N/2 + n - 1, to
    /// c Psi^-1 mod Phi_m (n coefficients) in out.
    fn montgomery_reduce(
        &self,
        mt: &MontgomeryTables,
        c_hat: &mut [u64],
        out: &mut [u64],
    ) -> Result<()> {
        let q = &self.q;
        let half = c_hat.len() / 2;
        let (even, odd) = c_hat.split_at_mut(half);
        // 1. Q = -c / Phi mod Psi, known at the odd points.
        odd.iter_mut()
            .zip(&mt.w)
            .for_each(|(x, &w)| *x = q.mul_shoup(*x, w));
        // 2. BaseConv (Alg. 4): coefficients by an inverse negacyclic NTT, then the even points.
        mt.odd.inverse(odd)?;
        mt.even.forward(odd)?;
        // 3. (c + Q Phi) / Psi at the even points, where Psi = 2.
        for ((e, &qv), &z) in even.iter_mut().zip(odd.iter()).zip(&mt.z) {
            *e = q.add(q.mul_shoup(*e, mt.inv2), q.mul_shoup(qv, z));
        }
        // 4. Back to coefficients: degree < n <= N/2, so exact.
        mt.even.inverse(even)?;
        out.copy_from_slice(&even[..self.n]);
        Ok(())
    }

    /// Entry to (a -> a M) or exit from (a M -> a) the Montgomery form, by a Montgomery reduction of
    /// a M^2 or of a.
    pub(crate) fn convert_montgomery(&self, a: &[u64], enter: bool, out: &mut [u64]) -> Result<()> {
        let Some(mt) = &self.montgomery else {
            return Err(Error::WrongForm(
                "this ring does not use Montgomery reduction".into(),
            ));
        };
        let mut c = self.forward_big(a)?;
        if enter {
            let q = &self.q;
            c.iter_mut()
                .zip(&mt.m2_hat)
                .for_each(|(x, &y)| *x = q.mul_shoup(*x, y));
        }
        self.montgomery_reduce(mt, &mut c, out)
    }
}
