//! Exact base conversion with a redundant modulus m_sk: FastBconvSK, paper 000 Lemma 6, eq. (12)–(13)
//! (a Shenoy–Kumaresan-like conversion).

use super::converter::{batch_len, BaseConverter};
use super::{FastBaseConverter, RnsBasis};
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
    /// FastBconv from B to q u {m_sk}.
    fast: FastBaseConverter,
    m_sk: Modulus,
    /// M^-1 mod m_sk.
    m_inv_sk: u64,
    /// |M|_{q_j}.
    m_mod_target: Vec<u64>,
}

impl SkConverter {
    /// `b_sk` is B followed by m_sk (its last modulus). Errors when B_sk has fewer than two moduli or
    /// when m_sk is too small for any input (m_sk <= 2 |B|).
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
                "m_sk = {} must exceed 2(|B| + 1) = {} (paper 000, Lemma 6)",
                m_sk.value(),
                2 * l + 2
            )));
        }
        let mut out_moduli: Vec<u64> = target.moduli().iter().map(|q| q.value()).collect();
        out_moduli.push(m_sk.value());
        let fast_target = RnsBasis::new(&out_moduli)?;
        let fast = FastBaseConverter::new(&b, &fast_target);
        let m_inv_sk = m_sk.inv(super::residue(b.product(), &m_sk))?;
        let m_mod_target = target
            .moduli()
            .iter()
            .map(|q| super::residue(b.product(), q))
            .collect();
        Ok(SkConverter {
            source: b_sk.clone(),
            target: target.clone(),
            fast,
            m_sk,
            m_inv_sk,
            m_mod_target,
        })
    }

    /// The largest lambda for which the conversion is exact (|x| < lambda M).
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

    fn convert(&self, input: &[u64], output: &mut [u64]) -> Result<()> {
        let (l, kq) = (self.source.len() - 1, self.target.len());
        let n = batch_len(l + 1, kq, input, output)?;
        let mut fb = vec![0u64; (kq + 1) * n];
        self.fast.convert(&input[..l * n], &mut fb)?;
        let msk = &self.m_sk;
        let (fb_q, fb_sk) = fb.split_at(kq * n);
        for (t, (&f, &x)) in fb_sk.iter().zip(&input[l * n..]).enumerate() {
            let alpha = msk.center(msk.mul(msk.sub(f, x), self.m_inv_sk));
            for (j, q) in self.target.moduli().iter().enumerate() {
                let am = q.mul(q.reduce(alpha.unsigned_abs()), self.m_mod_target[j]);
                let v = fb_q[j * n + t];
                output[j * n + t] = if alpha >= 0 {
                    q.sub(v, am)
                } else {
                    q.add(v, am)
                };
            }
        }
        Ok(())
    }

    fn precomputed_bytes(&self) -> usize {
        self.fast.precomputed_bytes() + 8 * (self.m_mod_target.len() + 1)
    }
}
