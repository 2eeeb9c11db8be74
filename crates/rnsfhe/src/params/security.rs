//! Security bounds for RLWE with a ternary secret (classical attacks), and the explicit opt-out for
//! research parameters.
//!
//! Sources of the bounds table:
//! - n = 1024..32768: Albrecht et al., "Homomorphic Encryption Security Standard",
//!   HomomorphicEncryption.org, Nov. 2018, the recommended-parameter tables for the ternary secret
//!   distribution (error sigma ~ 3.2) at classical security (the same numbers as SEAL's
//!   `hestdparms.h`).
//! - n = 65536, 131072: OpenFHE `src/core/lib/lattice/stdlatticeparms.cpp`, `HEStd_ternary` /
//!   `HEStd_*_classic` entries, as of commit f387eaf05bdbcf7a970622fdd48aec443363a0e8 (same as the
//!   standard for n <= 32768). Older OpenFHE (e.g. 0d4c01eff68f) listed 1772/1228/956 for 65536;
//!   we take the later, smaller (more conservative) values.
//!
//! The bound applies to the largest modulus any key lives under: for key switching with special
//! primes that is log2(P * Q), not log2(Q).

use crate::{Error, Result};

use crate::rlwe::SecretDistribution;

/// The error standard deviation the HE-standard table assumes: 8 / sqrt(2 pi) = 3.19 (SEAL and
/// OpenFHE use 3.19 or 3.2). A smaller sigma is refused at every standard level.
pub const STANDARD_SIGMA: f64 = 3.19;

/// The smallest Hamming weight h of a sparse secret accepted at a standard level.
///
/// Decision: the table assumes a uniform ternary secret; a secret with few non-zero coefficients
/// opens hybrid attacks (lattice reduction plus guessing or meet-in-the-middle on the few non-zero
/// coefficients: Howgrave-Graham 2007; Albrecht EC 2017; Cheon-Hhan-Hong-Son IEEE Access 2019; Son-
/// Cheon WAHC 2019), which the ternary table does not cover. The only estimates we can cite are the
/// lattice estimator's (commit 6019056) for the libraries' h = 192 sets, collected by
/// HomomorphicEncryption.org's SparseLWEkit: n = 2^15, log q 767 (OpenFHE) 134.1 bits; 2^16, 1553
/// (OpenFHE, Lattigo) 134.0; 2^17, 3104 (OpenFHE) 135.7; the best attack is the hybrid BDD-MitM in
/// each, and these log q are 87-89% of the ternary bound. So h >= 192 is accepted with log q at most
/// [`SPARSE_LOG_Q_SHARE`] of the ternary bound (the same share at 192 and 256 bits: an
/// extrapolation), and h >= 2n/3 (the ternary secret's mean weight) with the ternary bound. Weights
/// below 192 (Cheon et al. (SAC 2018)'s HWT(64), for which the paper itself claims only 80 bits) are refused
/// unless security is explicitly `InsecureResearchOnly`, or an estimate of [`SPARSE_ESTIMATES`]
/// covers the modulus (the small moduli of sparse-secret encapsulation).
pub const MIN_SPARSE_WEIGHT: usize = 192;

/// The share of the ternary log q bound a sparse secret of weight in [192, 2n/3) may use.
pub const SPARSE_LOG_Q_SHARE: f64 = 0.89;

/// Estimates for sparse secrets of weight below [`MIN_SPARSE_WEIGHT`] at small moduli, as
/// (n at least, h at least, log2 q at most, estimated classical bits): an RLWE instance with
/// n >= n_0, h >= h_0 and log q <= log q_0 is taken to be at least as hard as the estimated one
/// (hardness grows with n and h and falls with q).
///
/// Source: the lattice estimator (commit 6019056, sigma 3.2) as run by HomomorphicEncryption.org's
/// SparseLWEkit (`src/data/lattice_estimator_estimates.csv`): n = 2^16, log q 121, h = 32, best
/// attack bdd_mitm_hybrid 2^171.9 (log q 117: 2^172.9) — the modulus q_0 p_0 of the dense-to-sparse
/// key of sparse-secret encapsulation in Bossuat, Troncoso-Pastoriza and Hubaux (ACNS 2022) and
/// Lattigo (60 + 61 bits); n = 2^16, log q 300, h = 128, bdd_mitm_hybrid 2^326.9. No estimate we
/// can cite covers h = 32 at larger q (e.g. the 250 bits of q_0 and three special primes), nor
/// n = 2^15: those are refused at a standard level.
pub const SPARSE_ESTIMATES: [(usize, usize, f64, u32); 2] =
    [(65536, 32, 121.0, 171), (65536, 128, 300.0, 326)];

/// Target classical security of the RLWE instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecurityLevel {
    /// 128-bit classical security (the usual default).
    Bits128,
    /// 192-bit classical security.
    Bits192,
    /// 256-bit classical security.
    Bits256,
}

impl SecurityLevel {
    /// All levels, weakest first.
    pub const ALL: [SecurityLevel; 3] = [Self::Bits128, Self::Bits192, Self::Bits256];

    /// The security level in bits (128, 192 or 256).
    pub fn bits(self) -> u32 {
        match self {
            Self::Bits128 => 128,
            Self::Bits192 => 192,
            Self::Bits256 => 256,
        }
    }

    fn column(self) -> usize {
        match self {
            Self::Bits128 => 0,
            Self::Bits192 => 1,
            Self::Bits256 => 2,
        }
    }
}

/// What a parameter set must satisfy: a standard level (refusal above the bound), or an explicit,
/// named opt-out for research reproductions (e.g. 30-bit NFLlib moduli at small n). Defaults to
/// 128-bit security.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Security {
    /// Enforce the HE-standard bound for this level.
    Standard(SecurityLevel),
    /// No security bound: only structural checks (n a power of two, log2 q positive). Never use for
    /// real data.
    InsecureResearchOnly,
}

impl Default for Security {
    fn default() -> Self {
        Security::Standard(SecurityLevel::Bits128)
    }
}

impl Security {
    /// Checks the secret and error distributions: a Hamming weight in 1..=n always; at a standard
    /// level also sigma >= [`STANDARD_SIGMA`] and a sparse weight per [`MIN_SPARSE_WEIGHT`] (log q
    /// is the modulus of [`Security::check`], already within the ternary bound).
    pub fn check_distributions(
        self,
        n: usize,
        log_q: f64,
        sigma: f64,
        secret: SecretDistribution,
    ) -> Result<()> {
        let h = match secret {
            SecretDistribution::HammingWeight(h) if h == 0 || h > n => {
                return Err(Error::InvalidParameters(format!(
                    "hamming_weight = {h} must be in 1..=n = {n}"
                )));
            }
            SecretDistribution::HammingWeight(h) => Some(h),
            SecretDistribution::Ternary => None,
        };
        let Security::Standard(level) = self else {
            return Ok(());
        };
        let bits = level.bits();
        if sigma < STANDARD_SIGMA {
            return Err(Error::InvalidParameters(format!(
                "sigma = {sigma} is below the {STANDARD_SIGMA} that the {bits}-bit security table \
                 assumes; use sigma >= {STANDARD_SIGMA}, or security = insecure for research"
            )));
        }
        let Some(h) = h else { return Ok(()) };
        let max = self.max_log_q_for(n, secret);
        if log_q <= max {
            return Ok(());
        }
        let fix = "use a uniform ternary secret (no hamming_weight), or security = insecure for \
                   research";
        if h < MIN_SPARSE_WEIGHT && max == 0.0 {
            return Err(Error::InvalidParameters(format!(
                "a secret of Hamming weight {h} is not {bits}-bit secure (hybrid and \
                 meet-in-the-middle attacks on sparse secrets; weights below {MIN_SPARSE_WEIGHT} \
                 are refused but at the small moduli of SPARSE_ESTIMATES): {fix}"
            )));
        }
        let rule = if h < MIN_SPARSE_WEIGHT {
            "SPARSE_ESTIMATES".to_string()
        } else {
            format!("{SPARSE_LOG_Q_SHARE} of the ternary bound")
        };
        Err(Error::InvalidParameters(format!(
            "a secret of Hamming weight {h} at n = {n} allows at most {max:.0} bits of q at \
             {bits}-bit security ({rule}), got {}: shrink q, or {fix}",
            fmt_bits(log_q)
        )))
    }

    /// The largest log2 q of an RLWE instance of degree n whose secret follows `secret` that this
    /// requirement accepts: unbounded for [`Security::InsecureResearchOnly`]; at a standard level
    /// the ternary bound for a dense secret (a uniform ternary one, or h >= 2n/3),
    /// [`SPARSE_LOG_Q_SHARE`] of it for h in [192, 2n/3), and below 192 the largest log q of the
    /// [`SPARSE_ESTIMATES`] that cover (n, h) at this level (0 where none does: nothing).
    pub fn max_log_q_for(self, n: usize, secret: SecretDistribution) -> f64 {
        let Security::Standard(level) = self else {
            return f64::INFINITY;
        };
        let dense = max_log_q(n, level).map_or(0.0, f64::from);
        match secret {
            SecretDistribution::Ternary => dense,
            SecretDistribution::HammingWeight(h) if 3 * h >= 2 * n => dense,
            SecretDistribution::HammingWeight(h) if h >= MIN_SPARSE_WEIGHT => {
                dense * SPARSE_LOG_Q_SHARE
            }
            SecretDistribution::HammingWeight(h) => SPARSE_ESTIMATES
                .iter()
                .filter(|&&(n0, h0, _, b)| n >= n0 && h >= h0 && b >= level.bits())
                .map(|&(_, _, q, _)| q)
                .fold(0.0, f64::max),
        }
    }

    /// Checks (n, log2 q): the standard bound via [`check_security`], or for
    /// [`Security::InsecureResearchOnly`] only that n is a power of two >= 2 and log_q is finite and
    /// positive.
    pub fn check(self, n: usize, log_q: f64) -> Result<()> {
        match self {
            Security::Standard(level) => check_security(n, log_q, level),
            Security::InsecureResearchOnly => {
                check_shape(n, log_q)?;
                if n < 2 {
                    return Err(Error::InvalidDegree {
                        degree: n,
                        reason: "ring degree must be a power of two >= 2".into(),
                    });
                }
                Ok(())
            }
        }
    }
}

/// (n, max log2 q at 128, 192, 256 bits); ternary secret, classical. See the module doc for sources.
const TABLE: [(usize, [u32; 3]); 8] = [
    (1024, [27, 19, 14]),         // HE standard (ternary)
    (2048, [54, 37, 29]),         // HE standard (ternary)
    (4096, [109, 75, 58]),        // HE standard (ternary)
    (8192, [218, 152, 118]),      // HE standard (ternary)
    (16384, [438, 305, 237]),     // HE standard (ternary)
    (32768, [881, 611, 476]),     // HE standard (ternary)
    (65536, [1747, 1199, 929]),   // OpenFHE stdlatticeparms.cpp @ f387eaf
    (131072, [3523, 2411, 1866]), // OpenFHE stdlatticeparms.cpp @ f387eaf
];

/// Largest log2 q allowed for ring degree n at `level`, or `None` if n is not in the table
/// (n must be a power of two in [1024, 131072]).
pub fn max_log_q(n: usize, level: SecurityLevel) -> Option<u32> {
    TABLE
        .iter()
        .find(|(d, _)| *d == n)
        .map(|(_, b)| b[level.column()])
}

/// Smallest tabulated n whose bound at `level` admits `log_q` bits, or `None` if even n = 131072
/// does not.
pub fn min_degree(log_q: f64, level: SecurityLevel) -> Option<usize> {
    TABLE
        .iter()
        .find(|(_, b)| log_q <= f64::from(b[level.column()]))
        .map(|(d, _)| *d)
}

/// log2 of the product of `moduli` (the total bit size of an RNS modulus), as an f64.
pub fn log2_product(moduli: &[u64]) -> f64 {
    moduli.iter().map(|&q| (q as f64).log2()).sum()
}

fn check_shape(n: usize, log_q: f64) -> Result<()> {
    if !n.is_power_of_two() {
        return Err(Error::InvalidDegree {
            degree: n,
            reason: "ring degree must be a power of two".into(),
        });
    }
    if !(log_q.is_finite() && log_q > 0.0) {
        return Err(Error::OutOfRange(format!(
            "log2 q = {log_q}: must be finite and positive"
        )));
    }
    Ok(())
}

fn fmt_bits(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x}")
    } else {
        format!("{x:.2}")
    }
}

/// Refuses (n, log2 q) unless log_q <= [`max_log_q`]`(n, level)`. Errors: n not a power of two or
/// outside [1024, 131072] ([`Error::InvalidDegree`]), log_q not finite and positive
/// ([`Error::OutOfRange`]), log_q above the bound ([`Error::InvalidParameters`], naming the bound and
/// the fix). For research parameters use [`Security::InsecureResearchOnly`].
pub fn check_security(n: usize, log_q: f64, level: SecurityLevel) -> Result<()> {
    check_shape(n, log_q)?;
    let Some(max) = max_log_q(n, level) else {
        return Err(Error::InvalidDegree {
            degree: n,
            reason: "the HE security tables cover n = 1024..131072 only; for toy or research \
                     parameters opt out explicitly with Security::InsecureResearchOnly"
                .into(),
        });
    };
    if log_q <= f64::from(max) {
        return Ok(());
    }
    let fix = match min_degree(log_q, level) {
        Some(d) => format!("raise n to {d} or shrink q to at most {max} bits"),
        None => format!("shrink q to at most {max} bits"),
    };
    Err(Error::InvalidParameters(format!(
        "n = {n} allows at most {max} bits of q at {}-bit security; got {}: {fix}",
        level.bits(),
        fmt_bits(log_q)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use SecurityLevel::*;

    /// The expected bounds, written out independently of TABLE: (level, n, bits).
    const EXPECTED: [(SecurityLevel, [u32; 8]); 3] = [
        (Bits128, [27, 54, 109, 218, 438, 881, 1747, 3523]),
        (Bits192, [19, 37, 75, 152, 305, 611, 1199, 2411]),
        (Bits256, [14, 29, 58, 118, 237, 476, 929, 1866]),
    ];

    #[test]
    fn every_entry_and_its_boundary() {
        for (level, row) in EXPECTED {
            for (i, &bound) in row.iter().enumerate() {
                let n = 1024usize << i;
                assert_eq!(max_log_q(n, level), Some(bound), "n={n} {level:?}");
                let b = f64::from(bound);
                check_security(n, b, level).unwrap();
                check_security(n, b - 0.5, level).unwrap();
                assert!(matches!(
                    check_security(n, b + 0.01, level),
                    Err(Error::InvalidParameters(_))
                ));
                assert_eq!(min_degree(b, level), Some(n));
            }
        }
    }

    #[test]
    fn monotone_in_degree_and_level() {
        for level in SecurityLevel::ALL {
            for w in TABLE.windows(2) {
                assert_eq!(w[1].0, 2 * w[0].0);
                assert!(w[1].1[level.column()] > w[0].1[level.column()]);
            }
        }
        for (_, b) in TABLE {
            assert!(b[0] > b[1] && b[1] > b[2]);
        }
    }

    #[test]
    fn refusal_names_bound_and_fix() {
        let err = check_security(8192, 240.0, Bits128).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid parameters: n = 8192 allows at most 218 bits of q at 128-bit security; got 240: \
             raise n to 16384 or shrink q to at most 218 bits"
        );
        let err = check_security(131072, 4000.5, Bits256).unwrap_err();
        assert!(err
            .to_string()
            .contains("got 4000.50: shrink q to at most 1866 bits"));
        // Default is 128-bit and refuses the same.
        assert!(Security::default().check(8192, 240.0).is_err());
    }

    #[test]
    fn override_admits_research_parameters() {
        // E.g. NFLlib-style 30-bit moduli: 20 of them at n = 2048, far above 54 bits.
        let log_q = log2_product(&[(1 << 30) - 35; 20]);
        assert!((log_q - 600.0).abs() < 1e-3);
        assert!(check_security(2048, log_q, Bits128).is_err());
        Security::InsecureResearchOnly.check(2048, log_q).unwrap();
        Security::InsecureResearchOnly.check(16, 60.0).unwrap();
        // Structural checks still apply.
        assert!(Security::InsecureResearchOnly.check(1000, 60.0).is_err());
        assert!(Security::InsecureResearchOnly.check(1, 60.0).is_err());
        assert!(Security::InsecureResearchOnly.check(16, f64::NAN).is_err());
    }

    /// The modulus a secret may be exposed at: the ternary bound, 89% of it for h in [192, 2n/3),
    /// the cited estimates below 192 (h >= 32 at n >= 2^16: 121 bits at 128-bit; h >= 128: 300
    /// bits at every level), nothing elsewhere; unbounded for research parameters.
    #[test]
    fn max_log_q_for_each_distribution() {
        use SecretDistribution::{HammingWeight as H, Ternary};
        let std = Security::Standard(Bits128);
        let n16 = 65536;
        assert_eq!(std.max_log_q_for(n16, Ternary), 1747.0);
        assert_eq!(std.max_log_q_for(n16, H(50_000)), 1747.0);
        assert!((std.max_log_q_for(n16, H(192)) - 1747.0 * SPARSE_LOG_Q_SHARE).abs() < 1e-9);
        assert_eq!(std.max_log_q_for(n16, H(32)), 121.0);
        assert_eq!(std.max_log_q_for(n16, H(64)), 121.0);
        assert_eq!(std.max_log_q_for(n16, H(128)), 300.0);
        assert_eq!(std.max_log_q_for(2 * n16, H(32)), 121.0);
        assert_eq!(std.max_log_q_for(n16 / 2, H(32)), 0.0);
        assert_eq!(std.max_log_q_for(n16, H(31)), 0.0);
        assert_eq!(Security::Standard(Bits192).max_log_q_for(n16, H(32)), 0.0);
        assert_eq!(
            Security::Standard(Bits256).max_log_q_for(n16, H(128)),
            300.0
        );
        assert_eq!(
            Security::InsecureResearchOnly.max_log_q_for(1024, H(1)),
            f64::INFINITY
        );
        // The parameter gate follows it: h = 32 at 2^16 with 121 bits passes, 122 is refused.
        std.check_distributions(n16, 121.0, 3.2, H(32)).unwrap();
        let err = std.check_distributions(n16, 122.0, 3.2, H(32)).unwrap_err();
        assert!(err.to_string().contains("at most 121 bits"), "{err}");
        let err = std
            .check_distributions(n16 / 2, 60.0, 3.2, H(32))
            .unwrap_err();
        assert!(err.to_string().contains("Hamming weight 32"), "{err}");
    }

    #[test]
    fn bad_degree_or_log_q() {
        for n in [0usize, 1000, 3000, 12288] {
            assert!(matches!(
                check_security(n, 10.0, Bits128),
                Err(Error::InvalidDegree { .. })
            ));
        }
        for n in [512usize, 262144] {
            assert_eq!(max_log_q(n, Bits128), None);
            let err = check_security(n, 10.0, Bits128).unwrap_err();
            assert!(err.to_string().contains("InsecureResearchOnly"), "{err}");
        }
        for log_q in [0.0, -1.0, f64::INFINITY, f64::NAN] {
            assert!(matches!(
                check_security(4096, log_q, Bits128),
                Err(Error::OutOfRange(_))
            ));
        }
        assert_eq!(min_degree(5000.0, Bits128), None);
    }
}
