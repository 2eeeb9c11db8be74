//! FastBconv, Bajard et al. (SAC 2016) eq. (2): the approximate CRT extension that skips the reduction modulo Q.

use super::converter::{batch_len, BaseConverter};
use super::dot::{dot_lazy, lazy_chunk};
use super::RnsBasis;
use crate::arith::Modulus;
use crate::parallel::Work;
use crate::Result;

/// Bajard et al. (SAC 2016), eq. (2): FastBconv(x, q, B) = ( sum_i |x_i q~_i|_{q_i} * (q / q_i) mod m )_{m in B}.
///
/// For x in [0, q) the output is x + alpha q in every target modulus, with an integer alpha in
/// [0, k - 1] (k = source size). Inputs: residues in [0, q_i); outputs in [0, p_j).
#[derive(Clone, Debug)]
pub struct FastBaseConverter {
    source: RnsBasis,
    target: RnsBasis,
    /// |q / q_i|_{p_j} at [j * k + i].
    punctured_mod_target: Vec<u64>,
    /// |f q~_i|_{q_i} with its Shoup quotient (f = 1 unless built by [`FastBaseConverter::with_factor`]).
    scaled_inv: Vec<crate::arith::Shoup>,
}

impl FastBaseConverter {
    /// Precomputes |q / q_i|_{p_j}. Any two bases are accepted (they need not be coprime).
    pub fn new(source: &RnsBasis, target: &RnsBasis) -> Self {
        Self::with_factor(source, target, 1)
    }

    /// FastBconv(|f x|_q, q, B) from the residues of x: the factor f is folded into the constants
    /// |f q~_i|_{q_i}, so it costs nothing (Bajard et al. (SAC 2016) section 4.2: the m~-Montgomery form of S0; Alg. 1
    /// line 2 with f = gamma t).
    pub fn with_factor(source: &RnsBasis, target: &RnsBasis, factor: u64) -> Self {
        let scaled_inv = scaled_inverses(source, factor);
        let punctured_mod_target = target
            .moduli()
            .iter()
            .flat_map(|p| {
                source
                    .punctured_products()
                    .iter()
                    .map(move |qs| super::residue(qs, p))
            })
            .collect();
        FastBaseConverter {
            source: source.clone(),
            target: target.clone(),
            punctured_mod_target,
            scaled_inv,
        }
    }
}

/// y_i = |x_i q~_i|_{q_i} for every limb (the first step of every CRT-based conversion).
/// |f q~_i|_{q_i} with Shoup quotients: the constants of FastBconv(|f x|_q, q, .).
pub(super) fn scaled_inverses(basis: &RnsBasis, factor: u64) -> Vec<crate::arith::Shoup> {
    basis
        .moduli()
        .iter()
        .zip(basis.inv_punctured_products())
        .map(|(q, w)| q.shoup(q.mul(q.reduce(factor), w.value)))
        .collect()
}

pub(super) fn scaled_residues(basis: &RnsBasis, input: &[u64], n: usize, y: &mut [u64]) {
    scaled_residues_by(basis, basis.inv_punctured_products(), input, n, y);
}

/// y_i = |x_i w_i|_{q_i} limb by limb.
pub(super) fn scaled_residues_by(
    basis: &RnsBasis,
    consts: &[crate::arith::Shoup],
    input: &[u64],
    n: usize,
    y: &mut [u64],
) {
    let moduli = basis.moduli();
    // Threads: one limb per task (the closure cannot fail).
    let _: Result<()> =
        crate::parallel::for_each_limb_as(Work::Light, &mut y[..moduli.len() * n], n, |i, yi| {
            crate::arith::vector::mul_shoup_scalar_into(
                &moduli[i],
                &input[i * n..(i + 1) * n],
                consts[i],
                yi,
            );
            Ok(())
        });
}

/// Coefficients converted together, so that the rows of y being summed stay in cache.
pub(super) const BLOCK: usize = 128;

/// Terms added to the FastBconv sums of [`blocked_dots`].
#[derive(Clone, Copy, Default)]
pub(super) struct Extras<'a> {
    /// n values below 2^62 added to every target.
    pub add: Option<&'a [u64]>,
    /// (rows, constants): target j also gets rows[j n + b] * constants[j], rows below p_j; or, for
    /// rows of n values, rows[b] * constants[j] (one row shared by every target, below every p_j).
    pub own: Option<(&'a [u64], &'a [u64])>,
}

/// The dot-product kernel chosen for one target modulus (see [`blocked_dots`]).
struct RowKernel {
    #[cfg(target_arch = "x86_64")]
    ifma: Option<crate::arith::lazy::Ifma52>,
    avx512: bool,
    avx2: bool,
}

impl RowKernel {
    /// The fastest kernel for target p, `terms` products a word of rows below `y_max`, n words a row.
    fn new(p: &Modulus, y_max: u64, terms: usize, n: usize) -> Self {
        RowKernel {
            #[cfg(target_arch = "x86_64")]
            ifma: n
                .is_multiple_of(16)
                .then(|| super::dot_ifma::reducer(y_max, p, terms))
                .flatten(),
            avx512: super::dot_avx512::available(y_max, p, terms),
            avx2: n.is_multiple_of(8) && super::dot_avx2::available(y_max, p, terms),
        }
    }

    /// out\[b] = (sum_i y\[i n + start + b] c\[i] + add\[b] + own row\[b] c_own) mod p (acc: scratch
    /// of out.len()).
    #[allow(clippy::too_many_arguments)] // a kernel's plain slices and scalars
    fn block(
        &self,
        p: &Modulus,
        (y, n, start): (&[u64], usize, usize),
        c: &[u64],
        y_max: u64,
        add: Option<&[u64]>,
        own: Option<(&[u64], u64)>,
        out: &mut [u64],
        acc: &mut [u128],
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(red) = &self.ifma {
            if super::dot_ifma::dot(p, red, y, n, start, c, add, own, out) {
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx512 && super::dot_avx512::dot(p, y, n, start, c, add, own, out) {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 && super::dot_avx2::dot(p, y, n, start, c, add, own, out) {
            return;
        }
        let chunk = lazy_chunk(y_max, p.value());
        dot_lazy(p, y, n, start, c, chunk, acc, out);
        if let Some(a) = add {
            for (o, &x) in out.iter_mut().zip(a) {
                *o = p.add(*o, p.reduce(x));
            }
        }
        if let Some((r, cj)) = own {
            for (o, &x) in out.iter_mut().zip(r) {
                *o = p.add(*o, p.mul(x, cj));
            }
        }
    }
}

/// One target row of [`blocked_dots`]: out\[b] = (sum_i y\[i stride + start + b] c\[i] + own
/// row\[b] c_own + constant) mod p for b < out.len(), block by block (c.len() rows of values below
/// `y_max`; `own` = (row, c_own) with the row below p; `constant` in [0, p)). The same words as that
/// row of [`blocked_dots`] plus the constant: for a task that converts one limb and goes on with it
/// while it is in cache (a base conversion fused with the NTT that follows).
pub(super) fn dot_row(
    p: &Modulus,
    (y, stride, start): (&[u64], usize, usize),
    c: &[u64],
    y_max: u64,
    own: Option<(&[u64], u64)>,
    constant: u64,
    out: &mut [u64],
) {
    let n = out.len();
    let kernel = RowKernel::new(p, y_max, c.len() + usize::from(own.is_some()) + 1, n);
    let mut acc = [0u128; BLOCK];
    for (b, o) in out.chunks_mut(BLOCK).enumerate() {
        let (at, bl) = (b * BLOCK, o.len());
        let own = own.map(|(r, cj)| (&r[at..at + bl], cj));
        kernel.block(
            p,
            (y, stride, start + at),
            c,
            y_max,
            None,
            own,
            o,
            &mut acc[..bl],
        );
        if constant != 0 {
            crate::arith::vector::add_scalar_assign(p, o, constant);
        }
    }
}

/// out_j = sum_i y_i * consts[j k + i] (+ extras) mod p_j for every target p_j (the FastBconv sum),
/// block by block of coefficients; y holds k rows of n values below `y_max`. Targets that allow it
/// (odd, below 2^51, with IFMA present) use the AVX-512 IFMA kernel; other targets with the AVX-512
/// backends the AVX-512F kernel, with the AVX2 backend the AVX2 kernel, while the 128-bit sums cannot
/// overflow.
pub(super) fn blocked_dots(
    target: &RnsBasis,
    y: &[u64],
    n: usize,
    consts: &[u64],
    y_max: u64,
    extras: Extras<'_>,
    output: &mut [u64],
) {
    let k = consts.len() / target.len().max(1);
    let own_max = if extras.own.is_some() { 1 } else { 0 };
    let kernels: Vec<RowKernel> = target
        .moduli()
        .iter()
        .map(|p| RowKernel::new(p, y_max, k + own_max + 1, n))
        .collect();
    // Row j, coefficients start..start + out.len(), into `out` (acc: scratch of out.len()).
    let row = |j: usize, start: usize, out: &mut [u64], acc: &mut [u128]| {
        let bl = out.len();
        let add = extras.add.map(|a| &a[start..start + bl]);
        let own = extras.own.map(|(rows, c)| {
            let at = if rows.len() == n { 0 } else { j * n } + start;
            (&rows[at..at + bl], c[j])
        });
        kernels[j].block(
            &target.moduli()[j],
            (y, n, start),
            &consts[j * k..(j + 1) * k],
            y_max,
            add,
            own,
            out,
            acc,
        );
    };
    let work = Work::Products(k);
    if target.len() > 1 && crate::parallel::splits(target.len() * n, work) {
        // Threads: one target row per task (rows are disjoint); the closure cannot fail.
        let _: Result<()> = crate::parallel::for_each_limb_as(
            work,
            &mut output[..target.len() * n],
            n,
            |j, out| {
                let mut acc = vec![0u128; BLOCK.min(n)];
                for start in (0..n).step_by(BLOCK) {
                    let bl = BLOCK.min(n - start);
                    row(j, start, &mut out[start..start + bl], &mut acc[..bl]);
                }
                Ok(())
            },
        );
        return;
    }
    // One thread: block by block, every row, so that a block of y stays in cache across the rows.
    let mut acc = vec![0u128; BLOCK.min(n)];
    for start in (0..n).step_by(BLOCK) {
        let bl = BLOCK.min(n - start);
        for j in 0..target.len() {
            row(
                j,
                start,
                &mut output[j * n + start..j * n + start + bl],
                &mut acc[..bl],
            );
        }
    }
}

impl BaseConverter for FastBaseConverter {
    fn source(&self) -> &RnsBasis {
        &self.source
    }

    fn target(&self) -> &RnsBasis {
        &self.target
    }

    fn convert(&self, input: &[u64], output: &mut [u64]) -> Result<()> {
        let k = self.source.len();
        let n = batch_len(k, self.target.len(), input, output)?;
        // Every word is written by the scaled residues.
        let mut y = crate::pool::Buffer::stale(k * n);
        scaled_residues_by(&self.source, &self.scaled_inv, input, n, &mut y);
        let q_max = self.source.max_modulus().value();
        blocked_dots(
            &self.target,
            &y,
            n,
            &self.punctured_mod_target,
            q_max,
            Extras::default(),
            output,
        );
        Ok(())
    }

    fn precomputed_bytes(&self) -> usize {
        8 * (self.punctured_mod_target.len() + 2 * self.source.len())
    }
}
