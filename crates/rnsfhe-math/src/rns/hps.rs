//! Exact base conversion with a floating-point correction (HPS; ../shared/notes/hps.md).

use super::converter::{batch_len, BaseConverter};
use super::fast::{blocked_dots, dot_row, scaled_residues, Extras};
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

impl HpsConverter {
    /// The bound on the rows of [`HpsConverter::prepare`].
    fn y_max(&self) -> u64 {
        let k = self.source.len() as u64;
        self.source.max_modulus().value().max(k + 1)
    }

    /// y_i = |x_i q~_i|_{q_i} in place for limb i of the source (row i of
    /// [`HpsConverter::prepare`]), for a task that has limb i in cache.
    pub fn scale_limb(&self, i: usize, x: &mut [u64]) {
        let (m, w) = (
            &self.source.moduli()[i],
            self.source.inv_punctured_products()[i],
        );
        crate::arith::vector::mul_shoup_scalar_assign(m, x, w);
    }

    /// The first step of the conversion of n integers (`input`: k n residues in the source): k + 1
    /// rows of n words into `y`, y_i = |x_i q~_i|_{q_i} and v = round(sum_i y_i / q_i), whose
    /// multiple of Q the dot product subtracts through the constant -|Q|_{p_j}. The rows that
    /// [`HpsConverter::convert_row`] takes, so that a task can convert the limb it works on.
    pub fn prepare(&self, input: &[u64], y: &mut [u64]) -> Result<()> {
        let k = self.source.len();
        let n = input.len() / k.max(1);
        check_len("HPS input", input.len(), k * n)?;
        check_len("HPS rows", y.len(), (k + 1) * n)?;
        let (rows, v_row) = y.split_at_mut(k * n);
        scaled_residues(&self.source, input, n, rows);
        let rows: Vec<&[u64]> = rows.chunks_exact(n).collect();
        self.correction(&rows, v_row);
        Ok(())
    }

    /// v\[b] = round(sum_i rows\[i]\[b] / q_i) for the scaled rows y_i (k rows of v.len() words, any
    /// range of columns): the row k of [`HpsConverter::prepare`].
    pub fn correction(&self, rows: &[&[u64]], v: &mut [u64]) {
        let q_max = self.source.max_modulus().value();
        let mut s = [0f64; 256];
        for (c, out) in v.chunks_mut(s.len()).enumerate() {
            let s = &mut s[..out.len()];
            s.iter_mut().for_each(|x| *x = 0.0);
            let at = c * 256;
            for (yi, &inv) in rows.iter().zip(&self.inv_q) {
                let yi = &yi[at..at + out.len()];
                if q_max >> 52 == 0 {
                    for (s, &yv) in s.iter_mut().zip(yi) {
                        *s += small_to_f64(yv) * inv;
                    }
                } else {
                    for (s, &yv) in s.iter_mut().zip(yi) {
                        *s += yv as f64 * inv;
                    }
                }
            }
            for (o, x) in out.iter_mut().zip(s.iter()) {
                *o = x.round() as u64;
            }
        }
    }

    /// Target limb t of the conversion from the k + 1 rows of [`HpsConverter::prepare`] (n words
    /// each) into `out` (n words): the same words as row t of [`BaseConverter::convert`].
    pub fn convert_row(&self, y: &[u64], t: usize, out: &mut [u64]) -> Result<()> {
        let k = self.source.len();
        let n = out.len();
        check_len("HPS rows", y.len(), (k + 1) * n)?;
        let p = self.target.moduli().get(t).ok_or_else(|| {
            crate::Error::OutOfRange(format!(
                "target limb {t} of a conversion to {} limbs",
                self.target.len()
            ))
        })?;
        let c = &self.punctured_mod_target[t * (k + 1)..(t + 1) * (k + 1)];
        dot_row(p, (y, n, 0), c, self.y_max(), None, 0, out);
        Ok(())
    }
}

fn check_len(what: &'static str, got: usize, expected: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(crate::Error::LengthMismatch {
            what,
            expected,
            got,
        })
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
        // Every word is written by `prepare` (the k rows, then v).
        let mut y = crate::pool::Buffer::stale((k + 1) * n);
        self.prepare(input, &mut y)?;
        blocked_dots(
            &self.target,
            &y,
            n,
            &self.punctured_mod_target,
            self.y_max(),
            Extras::default(),
            output,
        );
        Ok(())
    }

    fn precomputed_bytes(&self) -> usize {
        8 * (self.punctured_mod_target.len() + 3 * self.source.len())
    }
}
