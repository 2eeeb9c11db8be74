//! The scalar pieces of the FastBconv dot product out[b] = sum_i y_i[b] c_i mod p that the SIMD kernels
//! (`dot_avx2`, `dot_avx512`, `dot_ifma`) share with `fast::blocked_dots`, which picks a kernel: the
//! scalar twin the kernels are tested against, the bound on lazy accumulation, and the check of a
//! kernel's arguments.

use crate::arith::Modulus;

/// out[b] = sum_i y[i * stride + start + b] * c[i] mod p for b < out.len(), accumulated in u128 and
/// reduced every `chunk` terms (see [`lazy_chunk`]); `acc` is scratch of out.len() words.
#[allow(clippy::too_many_arguments)] // a kernel: plain slices and scalars, no natural grouping
pub(super) fn dot_lazy(
    p: &Modulus,
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    chunk: usize,
    acc: &mut [u128],
    out: &mut [u64],
) {
    let len = out.len();
    acc.iter_mut().for_each(|a| *a = 0);
    for (i, &ci) in c.iter().enumerate() {
        let yi = &y[i * stride + start..i * stride + start + len];
        let ci = u128::from(ci);
        for (a, &v) in acc.iter_mut().zip(yi) {
            *a += u128::from(v) * ci;
        }
        if (i + 1) % chunk == 0 {
            acc.iter_mut()
                .for_each(|a| *a = u128::from(p.reduce_u128(*a)));
        }
    }
    for (o, &a) in out.iter_mut().zip(acc.iter()) {
        *o = p.reduce_u128(a);
    }
}

/// Whether the arguments of a SIMD dot kernel (`dot_ifma::dot`, `dot_avx2::dot`, `dot_avx512::dot`) are in range for
/// `len` outputs: the rows of y at i * stride + start (one per constant) inside y, and `add` and the
/// own row of len values.
pub(super) fn dot_args_fit(
    y: &[u64],
    stride: usize,
    start: usize,
    c: &[u64],
    add: Option<&[u64]>,
    own: Option<(&[u64], u64)>,
    len: usize,
) -> bool {
    add.is_none_or(|a| a.len() == len)
        && own.is_none_or(|o| o.0.len() == len)
        && (c.is_empty() || (c.len() - 1) * stride + start + len <= y.len())
}

/// How many products below a * b can be added to a value below max(a, b) without passing 2^128.
pub(super) fn lazy_chunk(a_max: u64, b_max: u64) -> usize {
    let prod = u128::from(a_max) * u128::from(b_max);
    ((u128::MAX - u128::from(a_max.max(b_max))) / prod.max(1)).clamp(1, 1 << 20) as usize
}
