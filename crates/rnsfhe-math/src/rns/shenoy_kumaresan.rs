//! Exact base conversion with a redundant modulus m_sk: FastBconvSK, Bajard et al. (SAC 2016) Lemma 6, eq. (12)–(13)
//! (a Shenoy–Kumaresan-like conversion).

use super::converter::{batch_len, BaseConverter};
use super::fast::{blocked_dots, scaled_residues, Extras};
use super::RnsBasis;
use crate::arith::Modulus;
use crate::{Error, Result};

/// Converts x given in B_sk = B u {m_sk} (the source base, m_sk last) to the target base q exactly:
/// alpha_sk = [(FastBconv(x, B, {m_sk}) - x_sk) M^-1]_{m_sk} (centered), then
/// FastBconvSK(x) = FastBconv(x, B, q) - alpha_sk M mod q = x mod q.
///
/// Exact for every integer x, positive or negative, with |x| < lambda M where
/// lambda = floor((m_sk - 1) / 2) - |B| (Lemma 6 asks m_sk > 2(|B| + ceil(lambda)), which this lambda
/// satisfies). Input residues x mod m in [0, m) for each m of B_sk; output in [0, q_j): the residues of
/// the signed x.
#[derive(Clone, Debug)]
pub struct SkConverter {
    source: RnsBasis,
    target: RnsBasis,
    b: RnsBasis,
    sk: RnsBasis,
    m_sk: Modulus,
    m_inv_sk: u64,
    /// |M / m_i|_{m_sk}.
    to_sk: Vec<u64>,
    /// Per target q_j, at [j (l + 2) + i]: |M / m_i|_{q_j} (i < l), then -M (the alpha + m_sk/2 row)
    /// and (m_sk / 2) M (the row of ones) modulo q_j.
    to_q: Vec<u64>,
}

impl SkConverter {
    /// B_sk = B u {m_sk} with m_sk the last modulus; errors when B_sk has fewer than 2 moduli or
    /// m_sk <= 2(|B| + 1).
    pub fn new(b_sk: &RnsBasis, target: &RnsBasis) -> Result<Self> {
        let l = b_sk.len().saturating_sub(1);
        if l == 0 {
            return Err(Error::InvalidBasis(
                "B_sk needs at least one modulus of B plus m_sk".into(),
            ));
        }
        let b = b_sk.sub_basis(0..l)?;
        let m_sk = b_sk.moduli()[l];
        if m_sk.value() <= 2 * l as u64 + 2 {
            return Err(Error::InvalidBasis(format!(
                "m_sk = {} must exceed 2(|B| + 1) = {} (Bajard et al. (SAC 2016), Lemma 6)",
                m_sk.value(),
                2 * l + 2
            )));
        }
        let sk = RnsBasis::new(&[m_sk.value()])?;
        let m_inv_sk = m_sk.inv(super::residue(b.product(), &m_sk))?;
        let to_sk = b
            .punctured_products()
            .iter()
            .map(|p| super::residue(p, &m_sk))
            .collect();
        let half = m_sk.value() / 2;
        let to_q = target
            .moduli()
            .iter()
            .flat_map(|q| {
                let m = super::residue(b.product(), q);
                b.punctured_products()
                    .iter()
                    .map(move |p| super::residue(p, q))
                    .chain([q.neg(m), q.mul(q.reduce(half), m)])
            })
            .collect();
        Ok(SkConverter {
            source: b_sk.clone(),
            target: target.clone(),
            b,
            sk,
            m_sk,
            m_inv_sk,
            to_sk,
            to_q,
        })
    }

    /// The lambda of Lemma 6 this converter honours: exact for |x| < lambda M.
    pub fn lambda(&self) -> u64 {
        (self.m_sk.value() - 1) / 2 - (self.source.len() as u64 - 1)
    }
}

impl BaseConverter for SkConverter {
    fn source(&self) -> &RnsBasis {
        &self.source
    }

    fn target(&self) -> &RnsBasis {
        &self.target
    }

    /// Rows y_i = |x_i (M/m_i)^-1|_{m_i}; one dot to m_sk gives alpha_sk, then one dot to q over the
    /// rows y, alpha_sk + m_sk/2 and ones (so every row is non-negative).
    fn convert(&self, input: &[u64], output: &mut [u64]) -> Result<()> {
        let (l, kq) = (self.b.len(), self.target.len());
        let n = batch_len(l + 1, kq, input, output)?;
        // Every word of y (the rows, alpha and the ones) and of fb is written below.
        let mut y = crate::pool::Buffer::stale((l + 2) * n);
        let (rows, extra) = y.split_at_mut(l * n);
        scaled_residues(&self.b, &input[..l * n], n, rows);
        let b_max = self.b.max_modulus().value();
        let mut fb = crate::pool::Buffer::stale(n);
        blocked_dots(
            &self.sk,
            rows,
            n,
            &self.to_sk,
            b_max,
            Extras::default(),
            &mut fb,
        );
        let msk = &self.m_sk;
        let half = msk.value() / 2;
        let (alpha_row, ones) = extra.split_at_mut(n);
        for ((a, &f), &x) in alpha_row.iter_mut().zip(&fb).zip(&input[l * n..]) {
            let alpha = msk.center(msk.mul(msk.sub(f, x), self.m_inv_sk));
            *a = alpha.wrapping_add(half as i64) as u64;
        }
        ones.iter_mut().for_each(|o| *o = 1);
        let y_max = b_max.max(msk.value());
        blocked_dots(
            &self.target,
            &y,
            n,
            &self.to_q,
            y_max,
            Extras::default(),
            output,
        );
        Ok(())
    }

    fn precomputed_bytes(&self) -> usize {
        8 * (self.to_q.len() + self.to_sk.len() + 2 * self.b.len() + 2)
    }
}
