//! The CKKS encoder of Cheon et al. (SAC 2018), §2.1: tau^-1 (encoding) and tau (decoding) between C^(N/2) and
//! `R[X]/(X^N + 1)`, in O(N log N) with the "special FFT" over the orbit of 5 (as in HEAAN).
//!
//! **Convention.** zeta = exp(-pi i / N), the paper's choice (§2.1 and Appendix A.2), and slot j is
//! a(zeta^(5^j)) for 0 <= j < N/2 (the paper writes the exponents 1, 5, ..., meaning 5^j mod 2N).
//! With either sign of zeta the automorphisms act the same way on the slots: X -> X^(5^r mod 2N)
//! rotates the slots left by r (slot j becomes slot j + r) and X -> X^(2N-1) conjugates every slot,
//! since a(X^g) evaluated at zeta^(5^j) is a(zeta^(g 5^j)). The sign only decides whether decoded
//! values or their conjugates come out; SEAL / HEAAN / Lattigo use exp(+pi i / N), so a polynomial
//! encoded here decodes to the complex conjugates there.
//!
//! **Sparse packing.** n' = 2^k < N/2 slots are encoded in the subring `R[Y]`, Y = X^(N/(2n'))
//! (Y is a primitive 4n'-th root of unity at every zeta^(5^j)): the full N/2-slot vector is the n'
//! values repeated N/(2n') times, so rotations by r act on the n' values cyclically. Decoding with
//! n' slots reads only the subring coefficients, i.e. projects onto the subring: each returned slot
//! is the mean of its N/(2n') replicas (exactly the values for a subring polynomial).

use super::complex::Complex;
use crate::{Error, Result};

/// Largest supported ring degree N (as for the NTT): 2^17.
const MAX_DEGREE: usize = 1 << 17;

/// Coefficients of `encode` must satisfy |c| < 2^126 (headroom for sums of two in i128).
const MAX_COEFF_LOG2: i32 = 126;

/// The CKKS encoder for ring degree N: encoding tau^-1 and decoding tau of Cheon et al. (SAC 2018), §2.1.
///
/// Holds the 2N-th roots zeta^k (zeta = exp(-pi i / N)), the rotation group 5^j mod 2N
/// (0 <= j < N/2) and the bit-reversal table of size N/2; encoding and decoding then cost
/// O(n' log n') for n' slots plus O(N) to lay out the coefficients.
#[derive(Clone, Debug)]
pub struct CkksEncoder {
    n: usize,
    /// zeta^k for 0 <= k < 2N.
    roots: Vec<Complex>,
    /// 5^j mod 2N for 0 <= j < N/2.
    rot_group: Vec<usize>,
    /// Bit reversal of i in log2(N/2) bits, for i < N/2.
    bit_rev: Vec<usize>,
}

impl CkksEncoder {
    /// An encoder for ring degree `n` = N, a power of two in 2..=2^17 (N/2 slots).
    ///
    /// Errors: `InvalidDegree` when N is not a power of two or out of range.
    pub fn new(n: usize) -> Result<Self> {
        if !n.is_power_of_two() || !(2..=MAX_DEGREE).contains(&n) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: format!("CKKS needs N a power of two in 2..={MAX_DEGREE}"),
            });
        }
        let m = 2 * n;
        let roots = (0..m)
            .map(|k| Complex::from_angle(-2.0 * core::f64::consts::PI * k as f64 / m as f64))
            .collect();
        let half = n / 2;
        let mut rot_group = Vec::with_capacity(half);
        let mut g = 1usize;
        for _ in 0..half {
            rot_group.push(g);
            g = g * 5 % m;
        }
        let log_half = half.trailing_zeros();
        let bit_rev = (0..half)
            .map(|i| {
                if log_half == 0 {
                    0
                } else {
                    i.reverse_bits() >> (usize::BITS - log_half)
                }
            })
            .collect();
        Ok(CkksEncoder {
            n,
            roots,
            rot_group,
            bit_rev,
        })
    }

    /// The ring degree N.
    pub fn degree(&self) -> usize {
        self.n
    }

    /// The number of slots with full packing, N/2.
    pub fn max_slots(&self) -> usize {
        self.n / 2
    }

    /// The slot count actually used for `len` values: the next power of two (Cheon et al. (SAC 2018) §2.1 with
    /// sparse packing, see the module doc). Errors: `OutOfRange` for 0 or more than N/2 values.
    fn slot_count(&self, len: usize) -> Result<usize> {
        if len == 0 {
            return Err(Error::OutOfRange(
                "CKKS encoding needs at least one slot".into(),
            ));
        }
        if len > self.n / 2 {
            return Err(Error::OutOfRange(format!(
                "{len} values do not fit: ring degree N = {} holds at most N/2 = {} slots",
                self.n,
                self.n / 2
            )));
        }
        Ok(len.next_power_of_two())
    }

    /// tau^-1 (Cheon et al. (SAC 2018), §2.1): the N real coefficients of the polynomial whose slots are
    /// `slots`, unscaled and unrounded.
    ///
    /// `slots.len()` may be 1..=N/2; a length n that is not a power of two is zero-padded to the
    /// next power of two n', and n' < N/2 uses sparse packing (the polynomial lies in the subring
    /// of X^(N/(2n')), see the module doc). O(n' log n' + N).
    ///
    /// Errors: `OutOfRange` for an empty input, more than N/2 values, or a NaN/infinite value.
    pub fn embed_inverse(&self, slots: &[Complex]) -> Result<Vec<f64>> {
        let count = self.slot_count(slots.len())?;
        if let Some(i) = slots.iter().position(|z| !z.is_finite()) {
            return Err(Error::OutOfRange(format!(
                "CKKS slot {i} is not finite ({:?}); only finite values can be encoded",
                slots[i]
            )));
        }
        let mut buf = vec![Complex::ZERO; count];
        buf[..slots.len()].copy_from_slice(slots);
        self.special_fft_inv(&mut buf);
        let half = self.n / 2;
        let gap = half / count;
        let mut coeffs = vec![0.0; self.n];
        for (k, c) in buf.iter().enumerate() {
            // slot j = sum_k (a_k - i a_{k+N/2}) zeta^(5^j k) since zeta^(N/2 5^j) = -i.
            coeffs[k * gap] = c.re;
            coeffs[k * gap + half] = -c.im;
        }
        Ok(coeffs)
    }

    /// tau (Cheon et al. (SAC 2018), §2.1): all N/2 slots a(zeta^(5^j)) of the real polynomial `coeffs`.
    ///
    /// `coeffs` of any length is read modulo X^N + 1 (coefficient i >= N counts as
    /// (-1)^(i / N) X^(i mod N)), so a short vector is zero-padded. O(N log N).
    pub fn embed(&self, coeffs: &[f64]) -> Vec<Complex> {
        let mut folded = vec![0.0; self.n];
        for (i, &c) in coeffs.iter().enumerate() {
            if (i / self.n) & 1 == 0 {
                folded[i % self.n] += c;
            } else {
                folded[i % self.n] -= c;
            }
        }
        self.gather_and_fft(&folded, self.n / 2)
    }

    /// Encodes `values` at scale Delta (Cheon et al. (SAC 2018), §2.1: m = round(Delta tau^-1(z))).
    ///
    /// Returns the N integer coefficients; lengths, padding and sparse packing as in
    /// [`CkksEncoder::embed_inverse`]. The bound a level's modulus sets is checked by the context
    /// (`CkksContext::encode_at`), which knows the level.
    ///
    /// Errors (`OutOfRange`, with a message): `scale` not finite or below 1 (the encoding's resolution
    /// is 1/scale, so a scale below 1 loses every value below 1); an empty input, more than N/2 values
    /// or a NaN/infinite value; a scaled coefficient with |c| >= 2^126; input that is not all zero but
    /// whose every coefficient rounds to 0 (the message would be lost: raise the scale).
    pub fn encode(&self, values: &[Complex], scale: f64) -> Result<Vec<i128>> {
        Ok(self
            .encode_rounded(values, scale)?
            .into_iter()
            .map(|y| y as i128)
            .collect())
    }

    /// The coefficients of [`CkksEncoder::encode`] as the integer-valued f64 they are rounded to
    /// (exact as integers: below 2^MAX_COEFF_LOG2 in magnitude), with its checks and errors.
    pub(crate) fn encode_rounded(&self, values: &[Complex], scale: f64) -> Result<Vec<f64>> {
        check_scale(scale)?;
        if scale < 1.0 {
            return Err(Error::OutOfRange(format!(
                "CKKS scale {scale:e} is below 1: values below 1/scale would round to 0; use a scale >= 1"
            )));
        }
        let mut coeffs = self.embed_inverse(values)?;
        let limit = 2f64.powi(MAX_COEFF_LOG2);
        for (i, x) in coeffs.iter_mut().enumerate() {
            let y = (*x * scale).round();
            if !(y.is_finite() && y.abs() < limit) {
                return Err(Error::OutOfRange(format!(
                    "CKKS coefficient {i} = {y:e} after scaling by {scale:e} exceeds 2^{MAX_COEFF_LOG2} \
                     in magnitude; lower the scale or the values"
                )));
            }
            *x = y;
        }
        let nonzero = values.iter().any(|z| z.re != 0.0 || z.im != 0.0);
        if nonzero && coeffs.iter().all(|&c| c == 0.0) {
            let largest = values
                .iter()
                .map(|z| z.re.abs().max(z.im.abs()))
                .fold(0.0, f64::max);
            return Err(Error::OutOfRange(format!(
                "CKKS values (largest {largest:e}) all round to 0 at scale {scale:e}: the message would \
                 be lost; raise the scale"
            )));
        }
        Ok(coeffs)
    }

    /// [`CkksEncoder::encode`] for real values (imaginary parts 0); same lengths and errors.
    pub fn encode_real(&self, values: &[f64], scale: f64) -> Result<Vec<i128>> {
        let z: Vec<Complex> = values.iter().map(|&x| Complex::from_real(x)).collect();
        self.encode(&z, scale)
    }

    /// Decodes `slots` values at scale Delta: tau(a) / Delta (Cheon et al. (SAC 2018), §2.1), where `coeffs` are
    /// the N centred real coefficients of the plaintext (e.g. the decrypted residues lifted to
    /// (-Q/2, Q/2] and converted to f64); the division by `scale` happens here.
    ///
    /// `slots` is the count given to [`CkksEncoder::encode`] (1..=N/2); it is rounded up to a power
    /// of two n' internally and the first `slots` values are returned. With n' < N/2 only the subring
    /// coefficients are read (each value is the mean of its replicas, see the module doc).
    /// O(n' log n' + n').
    ///
    /// Errors: `LengthMismatch` when `coeffs.len() != N`; `OutOfRange` for a bad `scale` or slot count.
    pub fn decode(&self, coeffs: &[f64], scale: f64, slots: usize) -> Result<Vec<Complex>> {
        check_scale(scale)?;
        let count = self.slot_count(slots)?;
        if coeffs.len() != self.n {
            return Err(Error::LengthMismatch {
                what: "CKKS decode coefficients (ring degree N)",
                expected: self.n,
                got: coeffs.len(),
            });
        }
        let mut out = self.gather_and_fft(coeffs, count);
        out.truncate(slots);
        let inv = 1.0 / scale;
        out.iter_mut().for_each(|z| *z = z.scale(inv));
        Ok(out)
    }

    /// The real parts of [`CkksEncoder::decode`]; same arguments and errors.
    pub fn decode_real(&self, coeffs: &[f64], scale: f64, slots: usize) -> Result<Vec<f64>> {
        Ok(self
            .decode(coeffs, scale, slots)?
            .into_iter()
            .map(|z| z.re)
            .collect())
    }

    /// The Galois element 5^step mod 2N of X -> X^(5^step), which rotates the slots left by
    /// `step` (Cheon et al. (SAC 2018), §4 rotation keys; module doc). Negative steps rotate right (5 is inverted
    /// modulo 2N through step mod N/2, the order of 5). With sparse packing n' slots rotate
    /// cyclically within n'.
    pub fn rotation_galois_element(&self, step: i64) -> u64 {
        let half = (self.n / 2) as i64;
        let r = step.rem_euclid(half) as usize;
        self.rot_group[r] as u64
    }

    /// The Galois element 2N - 1 of X -> X^(-1), which conjugates every slot (Cheon et al. (SAC 2018), §4).
    pub fn conjugation_galois_element(&self) -> u64 {
        2 * self.n as u64 - 1
    }

    /// Reads the n' = `count` subring coefficients as c_k = a_(k gap) - i a_(k gap + N/2) and
    /// evaluates them at the first n' rotation-group roots with the special FFT.
    fn gather_and_fft(&self, coeffs: &[f64], count: usize) -> Vec<Complex> {
        let half = self.n / 2;
        let gap = half / count;
        let mut buf: Vec<Complex> = (0..count)
            .map(|k| Complex::new(coeffs[k * gap], -coeffs[k * gap + half]))
            .collect();
        self.special_fft(&mut buf);
        buf
    }

    /// The twiddle of butterfly j (< len / 2) in the special FFT's stage of length `len` (a power
    /// of two, 4 len <= 2N): xi^(5^j mod 4 len) for xi = zeta^(2N / (4 len)), a primitive
    /// 4 len-th root of unity ([`Self::special_fft`]; the stages of `fft_stages`).
    pub(crate) fn twiddle(&self, len: usize, j: usize) -> Complex {
        let lenq = 4 * len;
        self.roots[(self.rot_group[j] & (lenq - 1)) * (2 * self.n / lenq)]
    }

    /// The twiddle of the inverse butterfly: xi^(-(5^j mod 4 len)), the conjugate of
    /// [`Self::twiddle`] ([`Self::special_fft_inv`]).
    pub(crate) fn inverse_twiddle(&self, len: usize, j: usize) -> Complex {
        let lenq = 4 * len;
        self.roots[(lenq - (self.rot_group[j] & (lenq - 1))) * (2 * self.n / lenq)]
    }

    /// Bit reversal of i in log2(`count`) bits (`count` a power of two <= N/2): the order the special
    /// FFT reads its input in.
    pub(crate) fn bit_reverse(&self, i: usize, count: usize) -> usize {
        self.bit_rev[i] >> ((self.n / 2).trailing_zeros() - count.trailing_zeros())
    }

    fn bit_reverse_permute(&self, v: &mut [Complex]) {
        for i in 0..v.len() {
            let r = self.bit_reverse(i, v.len());
            if i < r {
                v.swap(i, r);
            }
        }
    }

    /// out[j] = sum_k v_k xi^(k 5^j) for j < n' = v.len() (a power of two <= N/2), where
    /// xi = zeta^(N/(2n')) is a primitive 4n'-th root: the decoding half of HEAAN's special FFT
    /// (decimation in time after a bit-reversal; butterflies of length `len` use xi^(5^j mod 4 len)).
    fn special_fft(&self, v: &mut [Complex]) {
        let size = v.len();
        self.bit_reverse_permute(v);
        let mut len = 2;
        while len <= size {
            let lenh = len / 2;
            for chunk in v.chunks_exact_mut(len) {
                let (lo, hi) = chunk.split_at_mut(lenh);
                for (j, (u, w)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                    let t = *w * self.twiddle(len, j);
                    let a = *u;
                    *u = a + t;
                    *w = a - t;
                }
            }
            len *= 2;
        }
    }

    /// The inverse of [`Self::special_fft`] (the butterflies undone in reverse order with the
    /// conjugate twiddles, then the bit reversal and the division by n').
    fn special_fft_inv(&self, v: &mut [Complex]) {
        let size = v.len();
        let mut len = size;
        while len >= 2 {
            let lenh = len / 2;
            for chunk in v.chunks_exact_mut(len) {
                let (lo, hi) = chunk.split_at_mut(lenh);
                for (j, (u, w)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                    let (a, b) = (*u, *w);
                    *u = a + b;
                    *w = (a - b) * self.inverse_twiddle(len, j);
                }
            }
            len /= 2;
        }
        self.bit_reverse_permute(v);
        let inv = 1.0 / size as f64;
        v.iter_mut().for_each(|z| *z = z.scale(inv));
    }
}

fn check_scale(scale: f64) -> Result<()> {
    if scale.is_finite() && scale > 0.0 {
        Ok(())
    } else {
        Err(Error::OutOfRange(format!(
            "CKKS scale must be finite and > 0, got {scale}"
        )))
    }
}

/// Applies X -> X^g to the real coefficients of a polynomial in `R[X]/(X^n + 1)`, n = `coeffs.len()`.
///
/// Coefficient i moves to X^(i g mod 2n), negated when i g mod 2n >= n. For odd g this is the
/// Galois automorphism (Cheon et al. (SAC 2018), §4: rotation by [`CkksEncoder::rotation_galois_element`],
/// conjugation by [`CkksEncoder::conjugation_galois_element`]); for even g it is only this
/// coefficient map (colliding terms are added) and not a ring automorphism. Never fails; an empty
/// input gives an empty output.
pub fn apply_galois_f64(coeffs: &[f64], g: u64) -> Vec<f64> {
    let n = coeffs.len();
    let mut out = vec![0.0; n];
    if n == 0 {
        return out;
    }
    let two_n = 2 * n as u128;
    for (i, &c) in coeffs.iter().enumerate() {
        let e = (i as u128 * u128::from(g) % two_n) as usize;
        if e < n {
            out[e] += c;
        } else {
            out[e - n] -= c;
        }
    }
    out
}
