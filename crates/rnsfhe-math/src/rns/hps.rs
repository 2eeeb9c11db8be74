//! Exact base conversion with a floating-point correction (HPS; ../shared/notes/hps.md).

use super::converter::{batch_len, BaseConverter};
use super::fast::{blocked_dots, scaled_residues, Extras};
use super::RnsBasis;
use crate::Result;

/// Halevi–Polyakov–Shoup exact conversion Q -> P: with y_i = |x_i q~_i|_{q_i},
/// x = sum_i y_i Q / q_i - v Q, v = round(sum_i y_i / q_i), computed in f64.
///
/// Output: the residues of the centered representative x in (-Q/2, Q/2]. Precision: each y_i / q_i
/// is off by at most 2^-52 relative (one rounding converting y_i, one dividing), so the sum is off by
/// less than k 2^-52; v is exact unless the centered x lies within k 2^-51 Q of +-Q/2, where the
/// result may be the other representative (x -+ Q). Inputs in [0, q_i), outputs in [0, p_j).
#[derive(Clone, Debug)]
pub struct HpsConverter {
    source: RnsBasis,
    target: RnsBasis,
    /// |Q / q_i|_{p_j} at [j (k + 1) + i], and -|Q|_{p_j} at [j (k + 1) + k] (the v row).
    punctured_mod_target: Vec<u64>,
    /// 1 / q_i.
    inv_q: Vec<f64>,
}

impl HpsConverter {
    /// Precomputes the constants. Any two bases are accepted.
    pub fn new(source: &RnsBasis, target: &RnsBasis) -> Self {
        let punctured_mod_target = target
            .moduli()
            .iter()
            .flat_map(|p| {
                let minus_q = p.neg(super::residue(source.product(), p));
                source
                    .punctured_products()
                    .iter()
                    .map(move |qs| super::residue(qs, p))
                    .chain(std::iter::once(minus_q))
            })
            .collect();
        let inv_q = source
            .moduli()
            .iter()
            .map(|q| 1.0 / q.value() as f64)
            .collect();
        HpsConverter {
            source: source.clone(),
            target: target.clone(),
            punctured_mod_target,
            inv_q,
        }
    }
}

/// y as f64, exactly for y < 2^52 (the exponent trick, which vectorises without AVX-512DQ).
#[inline(always)]
fn small_to_f64(y: u64) -> f64 {
    f64::from_bits(y | 0x4330_0000_0000_0000) - 4_503_599_627_370_496.0
}

impl BaseConverter for HpsConverter {
    fn source(&self) -> &RnsBasis {
        &self.source
    }

    fn target(&self) -> &RnsBasis {
        &self.target
    }

    fn convert(&self, input: &[u64], output: &mut [u64]) -> Result<()> {
        let k = self.source.len();
        let n = batch_len(k, self.target.len(), input, output)?;
        // Rows 0..k: y_i = |x_i q~_i|_{q_i}; row k: v = round(sum_i y_i / q_i), whose multiple of Q
        // the dot product subtracts through the constant -|Q|_{p_j}.
        // Every word is written below (the k rows, then v).
        let mut y = crate::pool::Buffer::stale((k + 1) * n);
        let (rows, v_row) = y.split_at_mut(k * n);
        scaled_residues(&self.source, input, n, rows);
        let q_max = self.source.max_modulus().value();
        let mut v = vec![0f64; n];
        for (yi, &inv) in rows.chunks_exact(n).zip(&self.inv_q) {
            if q_max >> 52 == 0 {
                for (s, &yv) in v.iter_mut().zip(yi) {
                    *s += small_to_f64(yv) * inv;
                }
            } else {
                for (s, &yv) in v.iter_mut().zip(yi) {
                    *s += yv as f64 * inv;
                }
            }
        }
        for (o, s) in v_row.iter_mut().zip(&v) {
            *o = s.round() as u64;
        }
        blocked_dots(
            &self.target,
            &y,
            n,
            &self.punctured_mod_target,
            q_max.max(k as u64 + 1),
            Extras::default(),
            output,
        );
        Ok(())
    }

    fn precomputed_bytes(&self) -> usize {
        8 * (self.punctured_mod_target.len() + 3 * self.source.len())
    }
}
