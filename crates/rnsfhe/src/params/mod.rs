//! Parameter validation. [`security`]: the HomomorphicEncryption.org bounds on log2 q;
//! [`RlweParameters`]: the parameters BFV and BGV share.

pub mod security;
pub(crate) mod shared;

pub use security::{
    check_security, log2_product, max_log_q, min_degree, Security, SecurityLevel,
    MIN_SPARSE_WEIGHT, SPARSE_ESTIMATES, SPARSE_LOG_Q_SHARE, STANDARD_SIGMA,
};
pub use shared::RlweParameters;

use crate::{Error, Result};

/// What every modulus must be 1 modulo for the ring to exist: 2n for X^n + 1; lcm(N, m) for a general
/// Phi_m (size-N NTTs, N = N2(2n), and m-th roots for automorphisms; `RingContext::cyclotomic_primes`).
pub(crate) fn ring_step(n: usize, cyclotomic: Option<usize>) -> u64 {
    match cyclotomic {
        Some(m) => num_integer::lcm((2 * n).next_power_of_two(), m) as u64,
        None => 2 * n as u64,
    }
}

/// The degree word of the byte formats and fingerprints: n for X^n + 1; m with the top bit set for a
/// general Phi_m (so that a general ring whose phi(m) is a power of two, m = 255, 771, 1285, ..., is
/// never read back as X^n + 1; files of power-of-two rings are unchanged).
pub(crate) fn degree_word(n: usize, cyclotomic: Option<usize>) -> u64 {
    match cyclotomic {
        Some(m) => GENERAL_M_FLAG | m as u64,
        None => n as u64,
    }
}

/// The flag of [`degree_word`].
pub(crate) const GENERAL_M_FLAG: u64 = 1 << 63;

/// The flag of a Montgomery parameter set in a degree word of its bytes and fingerprint (Bajard et al. (SAC 2017)
/// section 4: BGV's ciphertexts c M and keys with M^2; FV's relinearisation keys with M): such bytes
/// hold other residues than those of the Barrett reductions.
pub(crate) const MONTGOMERY_FLAG: u64 = 1 << 62;

/// With [`MONTGOMERY_FLAG`]: FV's full Montgomery representation (Bajard et al. (SAC 2017) section 4.1, ciphertexts
/// c M, keys with M^2) rather than the mixed strategy (section 4.4).
pub(crate) const FULL_MONTGOMERY_FLAG: u64 = 1 << 60;

/// The flag of a parameter set asking for the plain Barrett reduction (Bajard et al. (SAC 2017) Alg. 1) in the
/// degree word of its bytes only: Alg. 1 and the optimised Alg. 2 give bit-identical results, so
/// fingerprints (and the bytes of ciphertexts and keys) do not carry it.
pub(crate) const BARRETT_FLAG: u64 = 1 << 61;

/// [`BARRETT_FLAG`] when a general Phi_m ring uses the plain Barrett reduction, else 0.
pub(crate) fn barrett_flag(cyclotomic: Option<usize>, r: rnsfhe_math::ring::Reduction) -> u64 {
    if cyclotomic.is_some() && r == rnsfhe_math::ring::Reduction::Barrett {
        BARRETT_FLAG
    } else {
        0
    }
}

/// Reads a [`degree_word`]: (n, Some(m)) for a general Phi_m, (n, None) otherwise; errors on an
/// index or degree beyond the supported range.
pub(crate) fn read_degree_word(word: u64) -> Result<(usize, Option<usize>)> {
    if word & GENERAL_M_FLAG == 0 {
        if word > 1 << 17 {
            return Err(Error::Malformed(format!("degree {word}")));
        }
        return Ok((word as usize, None));
    }
    let m = word & !GENERAL_M_FLAG;
    if !(3..=1 << 20).contains(&m) {
        return Err(Error::Malformed(format!("cyclotomic index {m}")));
    }
    let m = m as usize;
    Ok((rnsfhe_math::ring::cyclotomic::euler_phi(m), Some(m)))
}

/// The degree the security table is read at: n itself for powers of two; for a general phi(m) the
/// largest tabulated power of two not above it (a conservative reading: fewer modulus bits).
pub(crate) fn security_degree(n: usize) -> usize {
    if n.is_power_of_two() {
        n
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

/// log2 |x| (0 for x = 0), also past the range of f64 (log q above 1024 bits: many wide moduli).
pub(crate) fn log2_big(x: &num_bigint::BigInt) -> f64 {
    use num_traits::ToPrimitive;
    let shift = x.bits().saturating_sub(64);
    let top = (x.magnitude() >> shift).to_f64().unwrap_or(1.0);
    top.max(1.0).log2() + shift as f64
}

/// Resolves a builder's `cyclotomic_index(m)` (Bajard et al. (SAC 2017)): Some(m) with `degree` set to phi(m) for a
/// general m; None with `degree` = m / 2 for m a power of two (the negacyclic ring); errors on m < 3
/// and on N2(2 phi(m)) > 2^17.
pub(crate) fn resolve_cyclotomic(m: Option<usize>, degree: &mut usize) -> Result<Option<usize>> {
    match m {
        None => Ok(None),
        Some(m) if m < 3 => Err(Error::InvalidDegree {
            degree: m,
            reason: "the cyclotomic index m must be >= 3".into(),
        }),
        Some(m) if m.is_power_of_two() => {
            *degree = m / 2;
            Ok(None)
        }
        Some(m) => {
            let n = rnsfhe_math::ring::cyclotomic::euler_phi(m);
            if (2 * n).next_power_of_two() > 1 << 17 {
                return Err(Error::InvalidDegree {
                    degree: m,
                    reason: format!("phi(m) = {n} needs NTTs of size N2(2 phi(m)) above 2^17"),
                });
            }
            *degree = n;
            Ok(Some(m))
        }
    }
}

/// Ok when sigma is finite and at least the sampler's minimum.
pub(crate) fn check_sigma(sigma: f64) -> Result<()> {
    if sigma.is_finite() && sigma >= rnsfhe_math::sample::MIN_SIGMA {
        return Ok(());
    }
    Err(Error::InvalidParameters(format!(
        "sigma = {sigma} is below {} or not finite",
        rnsfhe_math::sample::MIN_SIGMA
    )))
}

/// Ok when a plaintext made for parameters `made_by` (a fingerprint) may enter a context of
/// parameters `id`: any context of equal parameters takes it.
pub(crate) fn check_plaintext(made_by: u64, id: u64) -> Result<()> {
    crate::rlwe::check_params(made_by, id, "plaintext")
}

/// Ok when a ciphertext of `parts` polynomials made for parameters `made_by` (a fingerprint) may
/// enter a context of parameters `id`: any context of equal parameters takes it, in any process.
pub(crate) fn check_ciphertext(made_by: u64, id: u64, parts: usize) -> Result<()> {
    crate::rlwe::check_params(made_by, id, "ciphertext")?;
    if parts < 2 {
        return Err(Error::InvalidCiphertext(format!(
            "a ciphertext has at least 2 parts, this one {parts}"
        )));
    }
    Ok(())
}

/// How the default moduli split the security bound's log2 QP, when neither moduli nor their widths are
/// given. Parameters must not depend on the machine (two parties build them apart), so the layout is
/// a parameter, not a detection: pick `Narrow` when the machines that compute have AVX-512 IFMA.
/// Measured (docs/tutorials/parameters.md, "BFV"; bench/results/layout/): on an IFMA CPU `Narrow` runs BFV products and rotations
/// about twice as fast; on an AVX2-only CPU it is slower (more primes, same 64-bit emulated products).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModuliLayout {
    /// The scheme's own default: BFV the fewest primes of at most 60 bits
    /// (`default_bfv_moduli_bits`: fastest on AVX2 and scalar), BGV primes of at most 49 bits.
    #[default]
    Default,
    /// Every ciphertext and special prime of at most 49 bits, so that every kernel (NTTs, base
    /// extensions, key-switching sums) runs AVX-512 IFMA's 52-bit arithmetic: the security bound split
    /// into the fewest such primes, the last one special (`default_moduli_bits`).
    Narrow,
}

impl std::str::FromStr for ModuliLayout {
    type Err = Error;

    /// "default" or "narrow" (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "default" => Ok(ModuliLayout::Default),
            "narrow" => Ok(ModuliLayout::Narrow),
            _ => Err(Error::InvalidParameters(format!(
                "unknown moduli layout {s:?}: expected \"default\" or \"narrow\" (every prime below 2^50, \
                 for AVX-512 IFMA CPUs)"
            ))),
        }
    }
}

/// The widest prime of [`ModuliLayout::Narrow`] (and of BGV's default): the AVX-512 IFMA kernels run
/// every q < 2^50 (NTTs) and p < 2^51 (dot products).
pub(crate) const NARROW_BITS: u32 = 49;

/// The default moduli widths of a scheme: the security bound max log2(QP) for n (at `security`'s
/// level, 128 bits for research-only sets) split into primes of at most 49 bits (the AVX-512 IFMA NTT
/// range), the last one special: (ciphertext widths, special widths).
pub(crate) fn default_moduli_bits(n: usize, security: Security) -> Result<(Vec<u32>, Vec<u32>)> {
    let level = match security {
        Security::Standard(l) => l,
        Security::InsecureResearchOnly => SecurityLevel::Bits128,
    };
    let total = max_log_q(security_degree(n), level).ok_or_else(|| {
        Error::InvalidParameters(format!(
            "no default moduli for n = {n}: the security table covers 2^10..2^17; pass moduli_bits"
        ))
    })?;
    let count = total.div_ceil(NARROW_BITS).max(2) as usize;
    let mut bits: Vec<u32> = (0..count)
        .map(|i| total / count as u32 + u32::from((i as u32) < total % count as u32))
        .collect();
    bits.iter_mut().for_each(|b| *b = (*b).min(NARROW_BITS));
    let special = bits.pop().map(|b| vec![b]).unwrap_or_default();
    Ok((bits, special))
}

/// The widest default BFV prime: the AVX2 and AVX-512F NTTs cost the same for every q < 2^61 (64-bit
/// products emulated), 62-bit primes take a slower compare path, and HPS and BEHZ are exact up to 62
/// bits (`tests/bfv.rs` checks 60, 61 and 62 bits against big integers).
pub(crate) const BFV_MAX_WIDTH: u32 = 60;

/// BFV's default moduli widths: the special prime and log2 q of [`default_moduli_bits`] (so the same
/// log2 q), with q split into the fewest primes of at most [`BFV_MAX_WIDTH`] bits; one prime per
/// key-switching digit (hybrid key switching with one special prime).
///
/// Why (measured on an AMD EPYC Zen 3, one thread, loaded; the tables and commands are in
/// bench/results/layout/): key switching costs about (k + 1) forward NTTs per digit,
/// so 3 digits of 58-59 bits instead of 4 of 43-44 bits at n = 2^13 (7 instead of 8 of 48-49 bits
/// at 2^14) make a rotation about 30% (20%) faster, mul+relin 25% (15%) and decryption 20% (12%)
/// faster, on the AVX2 and the scalar backend.
/// Measured cost: the digits are wider than the special prime, so key switching adds more noise.
/// At 2^13 (q = 59 + 58 + 58 bits, P = 43) the budget after one mul+relin is 2 bits lower (113
/// bits, as with SEAL's default 43 + 43 + 44 + 44 | 44), a rotation of a fresh ciphertext costs 11
/// bits (none before), and repeated squaring reaches depth 4 (as SEAL's layout) where the previous
/// layout reached 5 by 0.2-0.7 bits; the worst-case bound (20) of Bajard et al. (SAC 2016) gives 2 instead of 3
/// (it grows with the width). At 2^14 (q = 5 x 56 + 2 x 55, P = 48) the budget after mul+relin is
/// unchanged (329 bits), a fresh rotation costs 4 bits, and the squaring depth stays 12.
/// Not chosen: two primes per digit (2^13: depth 4 and a slower rotation; 2^14: depth 11), and no
/// special prime (BV; 4 x 54-55 bits at 2^13 keeps depth 5, but a rotation of a fresh ciphertext
/// costs ~50 bits and decryption is not faster). On AVX-512 IFMA the narrow layout
/// ([`ModuliLayout::Narrow`], every prime of at most 49 bits) is faster (Intel Xeon Ice Lake,
/// one thread: BFV 2^14 mul+relin 27.3 against 42.8 ms, rotate 7.8 against 10.5 ms) and on AVX2 slower
/// (56.0 against 47.7, 15.8 against 12.8 ms): no one layout is fastest on both, and this one stays the
/// default (bench/results/layout/intel-xeon-icelake/).
pub(crate) fn default_bfv_moduli_bits(
    n: usize,
    security: Security,
) -> Result<(Vec<u32>, Vec<u32>)> {
    let (bits, special) = default_moduli_bits(n, security)?;
    let log_q: u32 = bits.iter().sum();
    let count = log_q.div_ceil(BFV_MAX_WIDTH).max(1);
    let wide = (0..count)
        .map(|i| log_q / count + u32::from(i < log_q % count))
        .collect();
    Ok((wide, special))
}

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;

    #[test]
    fn log2_big_past_f64() {
        let x = BigInt::from(3) << 2000usize;
        assert!((super::log2_big(&x) - (2000.0 + 3f64.log2())).abs() < 1e-9);
        assert!((super::log2_big(&-x) - (2000.0 + 3f64.log2())).abs() < 1e-9);
        assert_eq!(super::log2_big(&BigInt::from(0)), 0.0);
        assert!((super::log2_big(&BigInt::from(1u64 << 40)) - 40.0).abs() < 1e-12);
    }
}
