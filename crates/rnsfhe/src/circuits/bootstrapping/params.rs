//! [`BootstrappingParameters`]: the shape of a bootstrap (slots, the DFTs' level budgets, EvalMod,
//! the order, encapsulation, real inputs) and the CKKS chain it implies, with its precision budget.
//!
//! # The chain
//!
//! Bottom first, one band per step, each with its own prime width (`chain_bits`):
//!
//! - CoeffsToSlots-first: `[q_0 | R residual | StC | EvalMod | CtS]`; the scale 2^scale_bits is
//!   exact at level R (`scale_level`), the levels above take scales near their primes
//!   (Delta_l = sqrt(Delta_(l-1) q_l)), those below drift with the residual primes.
//! - SlotsToCoeffs-first: `[q_0 | StC | R residual | EvalMod | CtS]`: StC runs on the input at levels
//!   stc..1, so its band sits at the bottom, and the output (EvalMod's) is at R + stc, on 2^scale_bits.
//!
//! q_0 = Delta_0 2^r for the message ratio r = `log_message_ratio` (the input is brought to level 0
//! on the chain's scale Delta_0 ~ 2^scale_bits): EvalMod reads x = I + m Delta_0 / q_0.
//!
//! # Precision budget (errors per slot, in the message's units; sigma = sqrt((h + 1)/12) the
//! rounding noise of one rescale per coefficient for a key of weight h: 4 for h = 192, 60 for dense
//! ternary at N = 2^16)
//!
//! - The sine: without arcsine, (2 pi)^2 |m 2^-r|^2 / 6 relative, 2r - 3.7 bits in the corner
//!   |m| = sqrt(2) of the unit square; with the arcsine of degree 3, (2 pi)^4 3/40 |m 2^-r|^4:
//!   4r - 9 bits; degree 5: 6r - 14 bits (EvalMod's module doc).
//! - CoeffsToSlots-first: an error e on y = x / K (a CtS-domain slot) is an error q_0 K e on one
//!   coefficient of the message, and SlotsToCoeffs sums N of them into each slot:
//!   sqrt(N) K 2^r e. The last rescale of CtS leaves e = sqrt(N) sigma / Delta_cts per slot, so
//!   N K 2^r sigma / Delta_cts in total; EvalMod's own rescales (Delta_evalmod, times 4 per double
//!   angle after them) add as much; EvalMod's output rescale (at Delta_stc, the scale of SlotsToCoeffs'
//!   input) sqrt(N/2) 2^r sqrt(N) sigma / Delta_stc. At N = 2^16, K = 16, dense sigma: 2^(r - 33)
//!   for each with 60-bit EvalMod primes and Delta_stc = 2^55, so r = 8 for 24 bits.
//! - SlotsToCoeffs-first: CtS reads the slots as coefficients: the same errors without the sqrt(N)
//!   of the sum, 2^(r - 41) each, so r up to 15 (the sine then limits: 2r - 3.7 = 26 bits).
//! - Every operation at the residual scale: sqrt(N) sigma / 2^scale_bits (2^-26 for dense sigma at
//!   2^40).
//!
//! The DFTs' diagonals are encoded at about their level's prime: 60-bit CtS primes keep them to
//! 2^-50 relative (the constants are spread over the stages; SlotsToCoeffs front-loads its own,
//! see [`super::SlotsToCoeffs`]).
//!
//! # Measured at N = 2^16 (encapsulation h = 32, 2^15 slots, one thread, Intel Xeon Ice Lake with
//! AVX-512 IFMA: `ckks_bootstrap` example; "loaded": other builds ran, times 1.5-5x the quiet ones)
//!
//! | preset | secret | log QP | keys (serialised) | time | precision mean / worst (bits) |
//! |---|---|---|---|---|---|
//! | [`Self::n16`] (CtS-first, r = 8, arcsine 3) | dense | 1733 | 52 keys, 3.6 GiB | 23.9 s quiet | 23.7 / 19.5 |
//! | same, real inputs | dense | 1733 | 52 keys, 3.6 GiB | 22.8 s loaded | 23.1 / 19.3 |
//! | same, 2^12 slots | dense | 1733 | 43 keys, 2.8 GiB | 22.4 s loaded | 25.8 / 21.9 |
//! | [`Self::n16_slots_to_coeffs_first`] (r = 15) | dense | 1645 | 52 keys, 2.4 GiB | 23.5 s loaded | 24.3 / 20.5 |
//! | [`Self::n16_h192`] (StC-first, r = 15, 4 primes per digit) | h = 192 | 1539 | 52 keys, 3.2 GiB | 37.1 s loaded | 27.9 / 22.5 |
//! | [`Self::n16_meta_bts`] (CtS-first, scale 2^53, r = 7, k = 17, 6 residual levels) | dense | 1716 | 52 keys, 2.7 GiB | 153.2 s best, heavily loaded | 38.9 / 36.2 |
//! | [`Self::n16_h192_meta_bts`] (the same with k = 20, 4 residual levels, 4 primes per digit) | h = 192 | 1549 | 52 keys, 2.7 GiB | 190.5 s best, heavily loaded (16 % of a core) | 42.8 / 39.8 |
//!
//! META-BTS rows: against the decrypted input, both bootstraps and the final sum (`ckks_bootstrap
//! n16-meta` / `n16-h192-meta 32768 2 1`); peak RSS 9.7 and 9.3 GiB.
//!
//! Loaded, the same hour: [`Self::n16`] 44.4 and 48.5 s, [`Self::n16_h192`] 37.1 s (StC 1.7 s at
//! the bottom levels against 4.9-6.4 s, CtS 12.9 s against 14.6-16.4 s, the EvalMods 21.9 s
//! against 21.7-26.8 s): about 0.8x, so near an 18 s target if that holds on a quiet machine
//! (not measured quietly yet). Peak RSS while bootstrapping 10.1 GB against 12.4 GB.
//! Where the time goes ([`super::Bootstrapper::bootstrap_timed`], [`Self::n16`], loaded, 44-48 s
//! in all): CoeffsToSlots 30-37 %, the two EvalMods 50-55 %, SlotsToCoeffs 11-13 %, ModRaise with
//! encapsulation 2 %. A profile of the bootstrap alone (`perf`, same run): the RNS basis
//! extension's dot products 18 % (their AVX2 kernel: the 60-bit primes are beyond IFMA and have no
//! AVX-512 twin), key switching's inner products 17 % (AVX2 and lazy scalar), NTTs 25 %, memory
//! copies and zero fills 15 %, page faults 5 %. Levers not taken yet, with these numbers: an
//! AVX-512 twin of the 60-bit dot and inner-product kernels, fewer copies in key switching.
//!
//! Decisions. The secret: h = 192 buys 4 bits (27.9 / 22.5, against a 24 / 20 target) in a chain
//! that fits its 1554 bits only SlotsToCoeffs-first (no arcsine: 8 EvalMod levels) with 4 primes
//! per digit; CoeffsToSlots-first needs 10 EvalMod levels (arcsine, r = 8) and does not fit. The
//! dense CtS-first [`Self::n16`] stays the default (any input level). EvalMod's polynomial: r = 3
//! with degree 38 saves 4 of 17 products but costs a level (EvalMod's table), which neither chain
//! has room for. Two threads: the EvalMods of the real and imaginary parts run side by side
//! ([`super::StageTimings::eval_mod`]).
//!
//! CoeffsToSlots-first at N = 2^16 is held to 23.7 bits by the budget: the dense secret's rescale
//! noise (sigma = 60) times sqrt(N) K 2^r leaves r = 8, where the arcsine of degree 3 is the
//! largest that fits 1747 bits with 10 residual levels; a secret of weight 192 would gain 4 bits
//! but its bound is 1554 bits. SlotsToCoeffs-first has no sqrt(N) and reaches the targets.
use super::pipeline::BootstrappingOrder;
use super::EvalModParameters;
use crate::circuits::lintrans::DiagonalStorage;
use crate::circuits::poly::depth;
use crate::ckks::CkksParameters;
use crate::params::{Security, SecurityLevel};
use crate::rlwe::{KeyStorage, KeySwitching, SecretDistribution};
use crate::{Error, Result};

/// The parameters of a bootstrap and of the CKKS chain it runs on (module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct BootstrappingParameters {
    /// log2 of the ring degree N.
    pub log_degree: u32,
    /// The slot count n (a power of two up to N/2; below, sparse packing).
    pub slots: usize,
    /// CoeffsToSlots' stages (levels).
    pub cts_budget: usize,
    /// SlotsToCoeffs' band of levels: its stages, except StC-first with sparse complex slots
    /// (n <= N/4), where one of them unpacks EvalMod's single output (`stc_budget` - 1 stages).
    pub stc_budget: usize,
    /// EvalMod (K, double angles, degrees, message ratio).
    pub eval_mod: EvalModParameters,
    /// The order of the steps.
    pub order: BootstrappingOrder,
    /// Sparse-secret encapsulation: the Hamming weight of the ephemeral secret (`None`: ModRaise
    /// under the parameters' own secret).
    pub encapsulation: Option<usize>,
    /// The residual levels R left for computation.
    pub residual_levels: usize,
    /// Inputs with real slots (see [`super::SlotsToCoeffs`]: one EvalMod instead of two where that
    /// is cheaper).
    pub real_only: bool,
    /// META-BTS (Bae et al. 2022; Lattigo's `IterationsParameters`): `Some(k)` bootstraps the
    /// residual of a first bootstrap, scaled up by 2^k, a second time ([`super::meta_bts`]), with
    /// one reserved prime of `scale_bits` above the residual levels; `None`: one bootstrap.
    pub meta_bts: Option<u32>,
    /// How CoeffsToSlots and SlotsToCoeffs hold their diagonals: NTT form (fastest; 2.8 GiB at
    /// N = 2^16) or compact (one word per coefficient, lifted and transformed at each use: about
    /// 0.1 GiB, for about 10 % more time per bootstrap). The ciphertexts are the same bit for bit.
    pub diagonal_storage: DiagonalStorage,
    /// How the Galois keys of [`super::Bootstrapper::generate_keys`] hold their uniform halves:
    /// expanded (fastest) or seeded (half their memory, each k1 limb expanded from its seed at each
    /// use). The relinearisation key stays expanded. The ciphertexts are the same bit for bit.
    /// Seeded in the N = 2^16 presets (`n16-h192`: keys 3263 instead of 6369 MiB in
    /// memory, peak 6951 instead of 10098 MiB, about 12 % more time with the AVX-512 ChaCha20
    /// kernel), expanded in the toy presets (memory is no concern there).
    pub key_storage: KeyStorage,
    /// log2 of the scale of the residual levels (their primes' width).
    pub scale_bits: u32,
    /// The widths of the SlotsToCoeffs band, bottom first (`stc_budget` entries).
    pub stc_bits: Vec<u32>,
    /// The width of EvalMod's primes.
    pub eval_mod_bits: u32,
    /// The width of CoeffsToSlots' primes.
    pub cts_bits: u32,
    /// Key switching: primes per digit (alpha; the special primes are alpha primes of 61 bits).
    pub digit_primes: usize,
    /// The secret's distribution.
    pub secret: SecretDistribution,
    /// The security level the CKKS parameters are checked against.
    pub security: Security,
}

/// The width of the special primes.
const SPECIAL_BITS: u32 = 61;

impl BootstrappingParameters {
    /// The 128-bit preset at N = 2^16 with 2^15 slots, 10 residual levels of 40 bits, a dense ternary
    /// secret and sparse-secret encapsulation (h = 32, K = 16), in the default order: log QP 1733 of
    /// the 1747 the gate allows a dense secret at N = 2^16 (a weight-192 secret's 1554 does not
    /// hold this chain).
    pub fn n16() -> Self {
        BootstrappingParameters {
            log_degree: 16,
            slots: 1 << 15,
            cts_budget: 4,
            stc_budget: 3,
            eval_mod: EvalModParameters {
                k: 16,
                double_angle: 2,
                sine_degree: 60,
                arcsine_degree: 3,
                log_message_ratio: 8,
            },
            order: BootstrappingOrder::CoeffsToSlotsFirst,
            encapsulation: Some(32),
            residual_levels: 10,
            real_only: false,
            meta_bts: None,
            diagonal_storage: DiagonalStorage::Ntt,
            key_storage: KeyStorage::Seeded,
            scale_bits: 40,
            stc_bits: vec![40, 40, 60],
            eval_mod_bits: 60,
            cts_bits: 60,
            digit_primes: 5,
            secret: SecretDistribution::Ternary,
            security: Security::Standard(SecurityLevel::Bits128),
        }
    }

    /// [`Self::n16`] in the SlotsToCoeffs-first order: StC on the input's last 3 levels of 40 bits,
    /// a message ratio of 2^15 without arcsine (8 EvalMod levels), 6 primes per digit.
    pub fn n16_slots_to_coeffs_first() -> Self {
        BootstrappingParameters {
            eval_mod: EvalModParameters {
                k: 16,
                double_angle: 2,
                sine_degree: 60,
                arcsine_degree: 0,
                log_message_ratio: 15,
            },
            digit_primes: 6,
            ..Self::n16()
        }
        .slots_to_coeffs_first()
    }

    /// [`Self::n16`] with META-BTS ([`super::meta_bts`]): residual scale 2^53 (the dense secret's
    /// rescale noise, sqrt(N) sigma / Delta per slot, at 2^-39), message ratio 2^7 (q_0 of 60 bits:
    /// the encapsulation key's q_0 P stays within the gate's 121 bits for h = 32), 6 residual
    /// levels and the reserved prime, k = 17; log QP 1716. Measured (loaded machine): 38.9 / 36.2
    /// bits mean / worst against the decrypted input (38.6 / 35.5 before the final sum took one
    /// rescale instead of two), one bootstrap on this chain 24.2 / 22.2: the dense secret's floor
    /// (`meta_bts`' error budget); [`Self::n16_h192_meta_bts`] reaches 40 bits.
    pub fn n16_meta_bts() -> Self {
        BootstrappingParameters {
            eval_mod: EvalModParameters {
                log_message_ratio: 7,
                ..Self::n16().eval_mod
            },
            residual_levels: 6,
            meta_bts: Some(17),
            scale_bits: 53,
            ..Self::n16()
        }
    }

    /// META-BTS on the sparse secret of Hamming weight 192 ([`super::meta_bts`]'s error budget):
    /// [`Self::n16_meta_bts`]'s CoeffsToSlots-first chain (residual scale 2^53, message ratio 2^7,
    /// arcsine of degree 3, k = 20) with the secret of [`Self::n16_h192`], whose rescale noise
    /// (sigma = 4 against 60) puts the floor near 2^-43 instead of 2^-39; 4 residual levels and
    /// the reserved prime, 4 primes per digit: log QP 1549 of the 1554 the gate allows h = 192.
    /// Measured (heavily loaded machine): 42.8 / 39.8 bits mean / worst against the decrypted
    /// input (42.7 / 39.5 per real and imaginary part against the input values), peak RSS 9.3 GiB.
    pub fn n16_h192_meta_bts() -> Self {
        BootstrappingParameters {
            residual_levels: 4,
            meta_bts: Some(20),
            digit_primes: 4,
            secret: SecretDistribution::HammingWeight(192),
            ..Self::n16_meta_bts()
        }
    }

    /// The 128-bit preset with the sparse secret of Hamming weight 192 (the second secret offered;
    /// sparse-secret encapsulation at h = 32 as in [`Self::n16`]): [`Self::n16_slots_to_coeffs_first`]
    /// with 4 primes per digit, log QP 1539 of the 1554 the gate allows h = 192 at N = 2^16. The
    /// rescale noise of h = 192 (sigma = 4 against 60) gives 4 bits over the dense preset: 27.9 mean
    /// / 22.5 worst (module doc's table).
    pub fn n16_h192() -> Self {
        BootstrappingParameters {
            digit_primes: 4,
            secret: SecretDistribution::HammingWeight(192),
            ..Self::n16_slots_to_coeffs_first()
        }
    }

    /// A small preset for tests, labelled [`Security::InsecureResearchOnly`]: N = 2^`log_degree`
    /// (11..=13), full slots, 2 residual levels, budgets 3 and 2, a secret of Hamming weight 32
    /// (K = 16 without encapsulation).
    pub fn toy(log_degree: u32) -> Self {
        BootstrappingParameters {
            log_degree,
            slots: 1 << (log_degree - 1),
            cts_budget: 3,
            stc_budget: 2,
            eval_mod: EvalModParameters {
                k: 16,
                double_angle: 2,
                sine_degree: 60,
                arcsine_degree: 3,
                log_message_ratio: 10,
            },
            order: BootstrappingOrder::CoeffsToSlotsFirst,
            encapsulation: None,
            residual_levels: 2,
            real_only: false,
            meta_bts: None,
            diagonal_storage: DiagonalStorage::Ntt,
            key_storage: KeyStorage::Expanded,
            scale_bits: 45,
            stc_bits: vec![55, 60],
            eval_mod_bits: 60,
            cts_bits: 60,
            digit_primes: 3,
            secret: SecretDistribution::HammingWeight(32),
            security: Security::InsecureResearchOnly,
        }
    }

    /// These parameters in the SlotsToCoeffs-first order: the StC band moves below the residual
    /// levels, where the scales follow Delta_(l-1) = Delta_l^2 / q_l, so its primes take the
    /// residual width (wider ones would pull the scales down).
    pub fn slots_to_coeffs_first(mut self) -> Self {
        self.order = BootstrappingOrder::SlotsToCoeffsFirst;
        self.stc_bits = vec![self.scale_bits; self.stc_budget];
        self
    }

    /// The ring degree N.
    pub fn degree(&self) -> usize {
        1 << self.log_degree
    }

    /// EvalMod's levels: the cosine's Chebyshev degree (odd terms are zero), the double angles and
    /// the arcsine (`EvalMod::depth`, checked against it when a bootstrapper is built).
    pub fn eval_mod_depth(&self) -> usize {
        let p = &self.eval_mod;
        let arcsine = if p.arcsine_degree == 0 {
            0
        } else {
            depth(p.arcsine_degree)
        };
        depth(p.sine_degree & !1) + p.double_angle as usize + arcsine
    }

    /// log2 of q_0: the residual scale times the message ratio.
    pub fn q0_bits(&self) -> u32 {
        self.scale_bits + self.eval_mod.log_message_ratio
    }

    /// The chain's widths, q_0 first (module doc).
    pub fn chain_bits(&self) -> Vec<u32> {
        let reserved = usize::from(self.meta_bts.is_some());
        let residual = std::iter::repeat_n(self.scale_bits, self.residual_levels + reserved);
        let stc = self.stc_bits.iter().copied();
        let tail = std::iter::repeat_n(self.eval_mod_bits, self.eval_mod_depth())
            .chain(std::iter::repeat_n(self.cts_bits, self.cts_budget));
        let mut bits = vec![self.q0_bits()];
        match self.order {
            BootstrappingOrder::CoeffsToSlotsFirst => bits.extend(residual.chain(stc)),
            BootstrappingOrder::SlotsToCoeffsFirst => bits.extend(stc.chain(residual)),
        }
        bits.extend(tail);
        bits
    }

    /// The level whose scale is exactly 2^scale_bits: the top of the residual band.
    pub fn scale_level(&self) -> usize {
        match self.order {
            BootstrappingOrder::CoeffsToSlotsFirst => self.residual_levels,
            BootstrappingOrder::SlotsToCoeffsFirst => self.residual_levels + self.stc_budget,
        }
    }

    /// log2 of Q P.
    pub fn log_qp(&self) -> u32 {
        self.chain_bits().iter().sum::<u32>() + SPECIAL_BITS * self.digit_primes as u32
    }

    /// Checks the shape. Errors: `InvalidParameters` naming the setting.
    pub fn validate(&self) -> Result<()> {
        let bad = |what: String| Err(Error::InvalidParameters(format!("bootstrapping: {what}")));
        if !(2..=17).contains(&self.log_degree) {
            return bad(format!("log2 N = {} is not in 2..=17", self.log_degree));
        }
        let half = self.degree() / 2;
        if !self.slots.is_power_of_two() || !(2..=half).contains(&self.slots) {
            return bad(format!(
                "{} slots: a power of two in 2..={half}",
                self.slots
            ));
        }
        let log_slots = self.slots.trailing_zeros() as usize;
        for (name, b) in [("CtS", self.cts_budget), ("StC", self.stc_budget)] {
            if !(1..=log_slots).contains(&b) {
                return bad(format!("{name} budget {b} is not in 1..={log_slots}"));
            }
        }
        if self.stc_bits.len() != self.stc_budget {
            return bad(format!(
                "{} StC widths for a budget of {}",
                self.stc_bits.len(),
                self.stc_budget
            ));
        }
        if self.residual_levels == 0 {
            return bad("no residual level".into());
        }
        if self.q0_bits() > 61 {
            return bad(format!(
                "q_0 of {} bits (scale 2^{} times the message ratio 2^{}) exceeds 61",
                self.q0_bits(),
                self.scale_bits,
                self.eval_mod.log_message_ratio
            ));
        }
        if let Some(k) = self.meta_bts.filter(|k| !(1..=40).contains(k)) {
            return bad(format!("META-BTS residual factor 2^{k}: k in 1..=40"));
        }
        if self.digit_primes == 0 {
            return bad("no prime per digit".into());
        }
        if self.encapsulation == Some(0) {
            return bad("an ephemeral secret of Hamming weight 0".into());
        }
        Ok(())
    }

    /// The CKKS parameters of the chain (module doc), checked by the library's security gate.
    pub fn ckks_parameters(&self) -> Result<CkksParameters> {
        self.validate()?;
        CkksParameters::builder()
            .degree(self.degree())
            .chain_bits(self.chain_bits())
            .scale_bits(self.scale_bits)
            .scale_level(self.scale_level())
            .special_moduli_bits(&vec![SPECIAL_BITS; self.digit_primes])
            .key_switching(KeySwitching {
                digit_primes: self.digit_primes,
                ..KeySwitching::default()
            })
            .secret(self.secret)
            .security(self.security)
            .build()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;

    /// The 128-bit presets pass the library's security gate; their chains have the bands of the
    /// module doc and at least 10 residual levels of 40 bits.
    #[test]
    fn presets_pass_the_gate() {
        for p in [
            BootstrappingParameters::n16(),
            BootstrappingParameters::n16_slots_to_coeffs_first(),
            BootstrappingParameters::n16_meta_bts(),
            BootstrappingParameters::n16_h192(),
            BootstrappingParameters::n16_h192_meta_bts(),
        ] {
            let c = p.ckks_parameters().unwrap();
            eprintln!(
                "{:?} {} {:?} QP {:.1}",
                p.order,
                c.levels(),
                c.chain_bits(),
                c.log_qp()
            );
            assert_eq!(c.chain_bits(), p.chain_bits());
            assert!(c.log_qp() <= f64::from(p.log_qp()) + 1.0);
            assert!(p.residual_levels >= 10 || p.meta_bts.is_some());
            assert!(p.scale_bits >= 40);
            assert_eq!(c.scale_level(), p.scale_level());
        }
        for log in 11..=13 {
            assert!(BootstrappingParameters::toy(log).ckks_parameters().is_ok());
        }
    }

    #[test]
    fn refusals() {
        let mut p = BootstrappingParameters::toy(11);
        p.slots = 3;
        assert!(p.validate().is_err());
        let mut p = BootstrappingParameters::toy(11);
        p.cts_budget = 11;
        assert!(p.validate().is_err());
        let mut p = BootstrappingParameters::toy(11);
        p.eval_mod.log_message_ratio = 20;
        assert!(p.validate().is_err()); // q_0 of 65 bits
        let mut p = BootstrappingParameters::n16();
        p.residual_levels = 14;
        assert!(p.ckks_parameters().is_err()); // beyond the security bound
    }
}
