//! The four RNS decryptions of x = [ct(s)]_q into round(t x / q) mod t (Bajard et al. (SAC 2016) section 3, HPS).

use num_bigint::BigUint;
use rnsfhe_math::arith::{is_prime, Modulus};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, FastRnsFloor, RnsBasis, ScaleAndRound};

use super::Decryption;
use crate::{Error, Result};

/// gamma for Alg. 1 and Lemma 3, chosen by Theorem 1 (Bajard et al. (SAC 2016)).
///
/// Theorem 1 needs gamma > 2k / (1 - t |q|_t / q) and guarantees decryption for
/// ||v|| <= q/t (1/2 - k/gamma) - |q|_t / 2. We take gamma >= 2^(p+1) k, so the bound loses at most a
/// 2^-p fraction of the ideal (Delta - |q|_t)/2, with p as large as keeps gamma t below 2^61 (capped
/// at 30): gamma t is a word and the loss is negligible. Decision recorded here and tested: p = 30
/// unless t is too large; t >= 2^(59 - log2 2k) is refused (use HPS decryption).
fn gamma_floor(k: usize, t: u64, q: &BigUint) -> Result<u64> {
    let two_k = 2 * k as u64;
    let room = 61i64 - i64::from(64 - t.leading_zeros()) - i64::from(64 - two_k.leading_zeros());
    if room < 2 {
        return Err(Error::InvalidParameters(format!(
            "t = {t} is too large for gamma-correction decryption with k = {k} moduli; use \
             Decryption::Hps or Decryption::FloatingPoint"
        )));
    }
    let p = room.min(30) as u32;
    let by_precision = two_k << p;
    // Theorem 1's lower bound 2k / (1 - t |q|_t / q): t |q|_t / q < 2^-20 for real parameters, so
    // 2k (1 + 2^-19) suffices; checked exactly.
    let q_t = (q % t).iter_u64_digits().next().unwrap_or(0);
    let slack = BigUint::from(t) * q_t;
    if slack * 2u32 >= *q {
        return Err(Error::InvalidParameters(
            "q is too small against t for RNS decryption (t |q|_t >= q/2)".into(),
        ));
    }
    Ok(by_precision)
}

/// The precomputed tables of every decryption method.
#[derive(Debug)]
pub(crate) struct Decryptor {
    t: Modulus,
    k: usize,
    nu: u32,
    /// Alg. 1 and Lemma 3, or why they are unavailable (t too large for gamma t to fit a word).
    gamma: std::result::Result<GammaTables, String>,
    /// DecRNS-flp: t / q_i in f64, and the two-word version.
    flp: Vec<f64>,
    flp_wide: ScaleAndRound,
    q_tilde: Vec<rnsfhe_math::arith::Shoup>,
    moduli: Vec<Modulus>,
    /// HPS.
    hps: ScaleAndRound,
}

/// The gamma-correction tables of Alg. 1 and Lemma 3.
#[derive(Debug)]
struct GammaTables {
    /// Alg. 1: FastBconv(|gamma t x|_q, q, {t, gamma}), |-q^-1| mod t and gamma, gamma^-1 mod t.
    gamma: Modulus,
    conv_gamma: FastBaseConverter,
    neg_inv_q_t: u64,
    neg_inv_q_gamma: u64,
    gamma_inv_t: u64,
    /// Lemma 3: gamma = 2^g, FastBconv to {gamma t}.
    log_gamma2: u32,
    gt: Modulus,
    conv_gt: FastBaseConverter,
    neg_inv_q_gt: u64,
}

impl GammaTables {
    fn new(q: &RnsBasis, t: &Modulus) -> Result<Self> {
        let tv = t.value();
        let floor = gamma_floor(q.len(), tv, q.product())?;
        // Alg. 1: the smallest prime >= the floor, coprime to t (prime and not t itself).
        let mut gamma = floor | 1;
        while !is_prime(gamma) || gamma == tv || tv.is_multiple_of(gamma) {
            gamma += 2;
        }
        let gm = Modulus::new(gamma)?;
        let tg = RnsBasis::new(&[tv, gamma])?;
        let neg_inv =
            |m: &Modulus| -> Result<u64> { Ok(m.neg(m.inv(big_mod(q.product(), m.value()))?)) };
        let log_gamma2 = 64 - (floor - 1).leading_zeros();
        let gt = Modulus::new((1u64 << log_gamma2) * tv)?;
        let neg_inv_q_gamma = neg_inv(&gm)?;
        Ok(GammaTables {
            gamma: gm,
            conv_gamma: FastBaseConverter::with_factor(q, &tg, gamma_t(gamma, tv)?),
            neg_inv_q_t: neg_inv(t)?,
            neg_inv_q_gamma,
            gamma_inv_t: t.inv(t.reduce(gamma))?,
            log_gamma2,
            neg_inv_q_gt: neg_inv(&gt)?,
            conv_gt: FastBaseConverter::with_factor(q, &RnsBasis::new(&[gt.value()])?, gt.value()),
            gt,
        })
    }
}

fn big_mod(x: &BigUint, m: u64) -> u64 {
    (x % m).iter_u64_digits().next().unwrap_or(0)
}

impl Decryptor {
    pub(crate) fn new(q: &RnsBasis, t: u64) -> Result<Self> {
        let tm = Modulus::new(t)?;
        let nu = q.max_modulus().bits();
        Ok(Decryptor {
            gamma: GammaTables::new(q, &tm).map_err(|e| e.to_string()),
            t: tm,
            k: q.len(),
            nu,
            flp: q
                .moduli()
                .iter()
                .map(|m| t as f64 / m.value() as f64)
                .collect(),
            flp_wide: ScaleAndRound::to_plain(q, t, false)?,
            q_tilde: q.inv_punctured_products().to_vec(),
            moduli: q.moduli().to_vec(),
            hps: ScaleAndRound::to_plain(q, t, true)?,
        })
    }

    fn gamma_tables(&self) -> Result<&GammaTables> {
        self.gamma
            .as_ref()
            .map_err(|why| Error::InvalidParameters(why.clone()))
    }

    /// gamma of Alg. 1 (odd prime) and of Lemma 3 (2^g); `None` when t is too large for them.
    pub(crate) fn gammas(&self) -> Option<(u64, u64)> {
        let g = self.gamma.as_ref().ok()?;
        Some((g.gamma.value(), 1u64 << g.log_gamma2))
    }

    /// Whether DecRNS-flp uses plain f64 (Bajard et al. (SAC 2016) section 3.5: 2 nu + log2 k - log2 t <= 52).
    /// max |t x / q - round(t x / q)| over the coefficients of a phase x: ||[t x]_q|| / q.
    pub(crate) fn noise_fraction(&self, x: &[u64]) -> Result<f64> {
        Ok(self.hps.max_fraction_distance(x)?)
    }

    pub(crate) fn flp_uses_f64(&self) -> bool {
        let lk = 64 - (self.k as u64).leading_zeros();
        let lt = 63 - self.t.value().leading_zeros();
        2 * self.nu + lk <= 52 + lt
    }

    /// round(t x / q) mod t for the n coefficients of x (limb-major residues over q).
    pub(crate) fn decrypt(&self, method: Decryption, x: &[u64], n: usize) -> Result<Vec<u64>> {
        let mut out = vec![0u64; n];
        match method {
            Decryption::Gamma => {
                let gt = self.gamma_tables()?;
                let mut s = vec![0u64; 2 * n];
                gt.conv_gamma.convert(x, &mut s)?;
                let (st, sg) = s.split_at(n);
                let (t, g) = (&self.t, &gt.gamma);
                for ((o, &a), &b) in out.iter_mut().zip(st).zip(sg) {
                    let a = t.mul(a, gt.neg_inv_q_t);
                    let b = g.center(g.mul(b, gt.neg_inv_q_gamma));
                    *o = t.mul(t.sub(a, t.reduce_i64(b)), gt.gamma_inv_t);
                }
            }
            Decryption::PowerOfTwoGamma => {
                let tables = self.gamma_tables()?;
                let gt = &tables.gt;
                tables.conv_gt.convert(x, &mut out)?;
                let half = 1u64 << (tables.log_gamma2 - 1);
                for o in out.iter_mut() {
                    let z = gt.mul(*o, tables.neg_inv_q_gt);
                    *o = self.t.reduce((z + half) >> tables.log_gamma2);
                }
            }
            Decryption::FloatingPoint => {
                let mut y = x.to_vec();
                for ((limb, m), w) in y.chunks_exact_mut(n).zip(&self.moduli).zip(&self.q_tilde) {
                    limb.iter_mut().for_each(|v| *v = m.mul_shoup(*v, *w));
                }
                if self.flp_uses_f64() {
                    let mut acc = vec![0f64; n];
                    for (limb, &c) in y.chunks_exact(n).zip(&self.flp) {
                        for (a, &v) in acc.iter_mut().zip(limb) {
                            *a += v as f64 * c;
                        }
                    }
                    for (o, a) in out.iter_mut().zip(acc) {
                        *o = self.t.reduce(a.round() as u64);
                    }
                } else {
                    self.flp_wide.apply(&y, &mut out)?;
                }
            }
            Decryption::Hps => self.hps.apply(x, &mut out)?,
        }
        Ok(out)
    }
}

fn gamma_t(gamma: u64, t: u64) -> Result<u64> {
    gamma.checked_mul(t).ok_or_else(|| {
        Error::InvalidParameters("gamma t does not fit in a word; use HPS decryption".into())
    })
}

/// Decryption after a modulus switch to a prefix q' = q_0 ... q_{l} of q: the fast path of
/// `BfvContext::decrypt` for two-part ciphertexts over X^n + 1.
///
/// c_j' = round(q' c_j / q) (`FastRnsFloor::rounded` over the dropped primes, error |e_j| <= k'' / 2 + 1
/// for k'' dropped primes), then the chosen method over q'. The phase becomes
/// (q'/q)(Delta m + v) + e_0 + e_1 s, so t x' / q' = t x / q + t (e_0 + e_1 s) / q' (mod t): with
/// ||e_0 + e_1 s|| <= R = (k''/2 + 1)(1 + n) for ternary s, choosing log2 q' >= log2 t + log2 R + 64
/// moves every fraction by less than 2^-64. Decision: the fewest primes of q meeting that; then
/// the switched decryption equals the one over q whenever the full phase's fraction is more than
/// 2^-64 (plus the method's own approximation) from the rounding boundary: any ciphertext with a
/// noise budget of 1 bit or more. What SEAL's `mod_switch_to_next` and OpenFHE's `Compress` let a
/// user do by hand, done inside `decrypt`.
#[derive(Debug)]
pub(crate) struct SwitchedDecryption {
    /// q' = q_0 ... q_level.
    pub(crate) level: usize,
    /// round(x / q'') onto q', q'' = the dropped primes.
    floor: FastRnsFloor,
    pub(crate) dec: Decryptor,
}

impl SwitchedDecryption {
    /// The switch for q (k primes) and t over X^n + 1, or `None` when no proper prefix of q is wide
    /// enough.
    pub(crate) fn new(q: &RnsBasis, t: u64, n: usize) -> Result<Option<Self>> {
        let k = q.len();
        let log_t = f64::from(64 - t.leading_zeros());
        let log_r = ((k as f64 / 2.0 + 1.0) * (n as f64 + 1.0)).log2();
        let need = log_t + log_r + 64.0;
        let mut bits = 0.0;
        for (i, m) in q.moduli().iter().enumerate().take(k - 1) {
            // floor(log2 q_i) = bits - 1: a lower bound on log2 q'.
            bits += f64::from(m.bits() - 1);
            // Worth it from one dropped prime: at n = 2^13 (3 primes, 2 kept) 0.449 against 0.516 ms
            // per decryption + decode (`bfv_mul 8192 hps 2000 dec`, AVX2, one-pass one-prime ModDown).
            if bits >= need {
                let keep = q.sub_basis(0..i + 1)?;
                let drop = q.sub_basis(i + 1..k)?;
                return Ok(Some(SwitchedDecryption {
                    level: i,
                    floor: FastRnsFloor::rounded(&drop, &keep)?,
                    dec: Decryptor::new(&keep, t)?,
                }));
            }
        }
        Ok(None)
    }

    /// round(q' c / q) over q' for c over q (limb-major residues, n coefficients), into `out`.
    pub(crate) fn switch(&self, c: &[u64], n: usize, out: &mut [u64]) -> Result<()> {
        let (keep, drop) = c.split_at((self.level + 1) * n);
        Ok(self.floor.apply(drop, keep, out)?)
    }
}
