//! Key switching: from d (under s') to (u0, u1) with u0 + u1 s = d s' + small, modulo the ciphertext
//! modulus Q_l of any level l (a prefix q_0..q_l of the chain).
//!
//! Digits are RNS digits (Bajard et al. (SAC 2016) section 4.5: xi_q, one prime per digit by default; groups of primes
//! for the hybrid form). Key j encrypts P g_j omega^b s' under s, with the gadget
//! g_j = (Q/Q_j) [(Q/Q_j)^-1]_{Q_j} (1 modulo the primes of digit j, 0 modulo the others), so the digit
//! is the plain residue [d]_{Q_j}. This is Bajard et al. (SAC 2016)'s rlk_RNS (eq. (17)) with the constant
//! (Q/Q_j)^-1 moved from the digit into the key, as SEAL and Lattigo do: the same products and noise,
//! one multiplication less per digit, and keys valid at every level (Cheon et al. (SAC 2018)'s CKKS). With special
//! moduli P the digits are extended to Q_l u P (ModUp, Cheon et al. (SAC 2018) Alg. 1; centred, `decompose::Extension`) and the sum is
//! divided by P (ModDown, Alg. 2, here fastRNSFloor); the extension's overflows are multiples of Q_j,
//! which g_j P sends to 0 modulo every limb.
//!
//! The steps live apart: `decompose` (digits and ModUp), `gadget` (the key's inner products) and
//! `moddown`. [`KeySwitcher::switch_to`] runs them limb by limb for one key; hoisted key switching
//! ([`KeySwitcher::decompose`] once, [`KeySwitcher::gadget_product`] per key,
//! [`KeySwitcher::mod_down_lazy`] per output or per sum) shares the digits of one polynomial among
//! many keys, with the same bits per key. In NTT form on power-of-two rings `fused` runs every
//! stage as one fan-out over limbs (over both output polynomials' limbs for ModDown), with a
//! relinearisation's sums and a rotation's c_0 and automorphism folded into the ModDown.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use num_bigint::BigUint;
use rnsfhe_math::arith::{vector, Modulus};
use rnsfhe_math::parallel;
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Form, Poly, Reduction, Representation, RingContext, RingKind};
use rnsfhe_math::rns::{BaseConverter, FastBaseConverter, FastRnsFloor, HpsConverter, RnsBasis};
use rnsfhe_math::sample::{Csprng, DiscreteGaussian};

mod decompose;
mod fused;
mod gadget;
mod key;
mod keygen;
mod levels;
mod moddown;
mod rescale;
mod seeded;

pub use decompose::Decomposed;
use decompose::{Extension, ModUp};
pub use key::KeySwitchKey;
pub(crate) use key::{within_key_level, KeyOptions};
pub(crate) use levels::select_limbs;
pub use seeded::KeyStorage;

use super::keys::{gaussian_poly, reduce_product};
use super::noise::log2_add;
use super::{KeySwitching, Levels, SecretKey};
use crate::{Error, Result};

/// The precomputation of key switching for a modulus chain Q = q_0..q_{k-1} and special moduli P.
#[derive(Debug)]
pub struct KeySwitcher {
    /// The rings of the levels and of Q u P, shared with the scheme's [`super::ModulusChain`].
    levels: Arc<Levels>,
    k: usize,
    layout: KeySwitching,
    digits: Vec<Range<usize>>,
    /// modup[l][j]: the extension of digit j at level l when it has several primes there.
    modup: Vec<Vec<Option<ModUp>>>,
    /// moddown[l] = fastRNSFloor_P(x, Q_l) with rounding (none without special moduli).
    moddown: Vec<Option<FastRnsFloor>>,
    /// rescale_down[l]: ModDown and the rescale by q_l in one division (`rescale`).
    rescale_down: Vec<Option<rescale::RescaleDown>>,
    /// Sub-digits per digit (omega digits, else 1).
    subdigits: Vec<usize>,
    /// Per key component: the ring its (k0, k1) are stored over, Q u P without the component's zero
    /// limbs (Bajard et al. (SAC 2016) section 4.6: a truncated row is zero on I_j), and each limb's slot in it.
    components: Vec<(Arc<RingContext>, Vec<Option<usize>>)>,
    /// The NTT-form gather tables of the Galois elements rotated by so far (`fused::GatherTables`).
    gathers: fused::GatherTables,
}

/// Truncated key columns are for power-of-two rings only.
fn refuse_truncation(m: usize, layout: KeySwitching) -> Result<()> {
    if layout.truncation > 0 {
        return Err(Error::InvalidParameters(format!(
            "truncated key-switching keys (truncation = {}) are only available for power-of-two \
             rings; use truncation 0 with cyclotomic_index = {m}",
            layout.truncation
        )));
    }
    Ok(())
}

/// x mod q for a big integer (precomputation).
fn big_mod(x: &BigUint, q: &Modulus) -> u64 {
    num_traits::ToPrimitive::to_u64(&(x % q.value())).unwrap_or(0)
}

impl KeySwitcher {
    /// Builds the rings of every level and of Q u P (`special` may be empty) and the digit tables.
    pub fn new(n: usize, q: &[u64], special: &[u64], layout: KeySwitching) -> Result<Self> {
        layout.validate(q.len(), special.len())?;
        Self::on(Levels::new(n, q, special)?, layout)
    }

    /// As [`KeySwitcher::new`] over Z\[X]/(Phi_m) for any m (Bajard et al. (SAC 2017)): the rings are
    /// [`RingContext::cyclotomic`] with `reduction`, and key switching sums the digits' products in
    /// NTT_N form and reduces modulo Phi_m once per output (section 3). Truncated key columns are not
    /// supported there.
    pub fn cyclotomic(
        m: usize,
        q: &[u64],
        special: &[u64],
        layout: KeySwitching,
        reduction: Reduction,
    ) -> Result<Self> {
        layout.validate(q.len(), special.len())?;
        refuse_truncation(m, layout)?;
        Self::on(Levels::cyclotomic(m, q, special, reduction)?, layout)
    }

    /// The digit tables of `layout` over the rings of `levels` (which it keeps and shares).
    pub fn on(levels: Arc<Levels>, layout: KeySwitching) -> Result<Self> {
        let ring_qp = levels.ring_qp();
        let k = levels.count();
        layout.validate(k, ring_qp.moduli().len() - k)?;
        if ring_qp.reduction().is_some() {
            refuse_truncation(ring_qp.cyclotomic_index(), layout)?;
        }
        let all: Vec<u64> = ring_qp.moduli().iter().map(Modulus::value).collect();
        let special = &all[k..];
        let p_limbs: Vec<usize> = (k..all.len()).collect();
        let digits: Vec<Range<usize>> = (0..k)
            .step_by(layout.digit_primes)
            .map(|s| s..(s + layout.digit_primes).min(k))
            .collect();
        let mut modup = Vec::with_capacity(k);
        let mut moddown = Vec::with_capacity(k);
        for (l, ring) in levels.rings().iter().enumerate() {
            let mut per_digit = Vec::with_capacity(digits.len());
            for r in &digits {
                let own: Vec<usize> = r.clone().filter(|&i| i <= l).collect();
                if own.len() < 2 || layout.omega_bits.is_some() {
                    per_digit.push(None);
                    continue;
                }
                let limbs: Vec<usize> = (0..=l)
                    .filter(|i| !r.contains(i))
                    .chain(p_limbs.iter().copied())
                    .collect();
                let src: Vec<u64> = own.iter().map(|&i| all[i]).collect();
                let dst: Vec<u64> = limbs.iter().map(|&i| all[i]).collect();
                per_digit.push(if dst.is_empty() {
                    None
                } else {
                    Some(ModUp {
                        conv: {
                            let (src, dst) = (RnsBasis::new(&src)?, RnsBasis::new(&dst)?);
                            if ring_qp.reduction().is_none() {
                                Extension::Centred(HpsConverter::new(&src, &dst))
                            } else {
                                Extension::Fast(FastBaseConverter::new(&src, &dst))
                            }
                        },
                        limbs,
                    })
                });
            }
            modup.push(per_digit);
            moddown.push(if special.is_empty() {
                None
            } else {
                Some(FastRnsFloor::rounded(
                    &RnsBasis::new(special)?,
                    ring.basis(),
                )?)
            });
        }
        let subdigits = digits
            .iter()
            .map(|r| match layout.omega_bits {
                Some(w) => Modulus::new(all[r.start]).map_or(1, |m| m.bits().div_ceil(w) as usize),
                None => 1,
            })
            .collect();
        let rescale_down = (0..k)
            .map(|l| rescale::RescaleDown::new(&levels, l))
            .collect::<Result<_>>()?;
        let mut sw = KeySwitcher {
            levels,
            k,
            layout,
            digits,
            modup,
            moddown,
            rescale_down,
            subdigits,
            components: Vec::new(),
            gathers: fused::GatherTables::default(),
        };
        for (j, &count) in sw.subdigits.iter().enumerate() {
            let zero = sw.truncated(j);
            let kept: Vec<usize> = (0..all.len()).filter(|i| !zero.contains(i)).collect();
            let ring = if zero.is_empty() {
                sw.ring_qp().clone()
            } else {
                sw.levels.selection(&kept)?
            };
            let mut slots = vec![None; all.len()];
            for (slot, &i) in kept.iter().enumerate() {
                slots[i] = Some(slot);
            }
            sw.components
                .extend(std::iter::repeat_n((ring, slots), count));
        }
        Ok(sw)
    }

    /// The ring key component `c` is stored over: Q u P, less the limbs where the component is zero
    /// by construction (the truncated columns I_j of Bajard et al. (SAC 2016) section 4.6).
    pub fn component_ring(&self, c: usize) -> Option<&Arc<RingContext>> {
        self.components.get(c).map(|(r, _)| r)
    }

    /// Drops the zero limbs of component `c` of a key at `level` from a polynomial over its
    /// [`Self::work_ring`] (NTT form kept; only truncated top-level keys have zero limbs).
    fn compact(&self, c: usize, level: usize, x: Poly) -> Result<Poly> {
        let ring = self.key_ring(c, level)?;
        if Arc::ptr_eq(ring, x.context()) {
            return Ok(x);
        }
        let n = ring.limb_len(Representation::Ntt);
        let res = x.residues();
        let data: Vec<u64> = self.components[c]
            .1
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .flat_map(|(i, _)| res[i * n..(i + 1) * n].iter().copied())
            .collect();
        Ok(Poly::from_residues(ring, data, x.representation())?)
    }

    /// The rings of the levels and of Q u P this switcher works on.
    pub fn levels(&self) -> &Arc<Levels> {
        &self.levels
    }

    /// The ring of the full ciphertext modulus Q.
    pub fn ring_q(&self) -> &Arc<RingContext> {
        self.levels.ring_q()
    }

    /// The ring of level l (moduli q_0..q_l); `None` beyond the chain.
    pub fn ring_at(&self, level: usize) -> Option<&Arc<RingContext>> {
        self.levels.ring_at(level)
    }

    /// The ring of Q u P.
    pub fn ring_qp(&self) -> &Arc<RingContext> {
        self.levels.ring_qp()
    }

    /// The number of key components (digits times sub-digits).
    pub fn key_components(&self) -> usize {
        self.subdigits.iter().sum()
    }

    fn special_product(&self) -> BigUint {
        self.ring_qp().moduli()[self.k..]
            .iter()
            .fold(BigUint::from(1u32), |a, m| a * m.value())
    }

    /// log2 of a bound on ||e_ks||_inf, the noise that [`KeySwitcher::switch`] adds to u0 + u1 s
    /// (for a 2^-70-per-coefficient tail, `z` standard deviations): z sigma sqrt(n sum_j M_j^2) / P for
    /// the digits' products with the keys' errors (M_j the largest digit: q_j / 2 centred, 2^omega,
    /// or (#primes) Q_j after ModUp; times q_I when truncated), plus the ModDown rounding
    /// (#special + 1)(1 + ||s||_1). `s_l1` bounds ||s||_1.
    pub fn noise_log2(&self, sigma: f64, z: f64, s_l1: f64) -> f64 {
        let m = self.ring_qp().moduli();
        let lg = |i: usize| (m[i].value() as f64).log2();
        let mut sum = f64::NEG_INFINITY;
        for (j, r) in self.digits.iter().enumerate() {
            let trunc: f64 = self.truncated(j).iter().map(|&i| lg(i)).sum();
            let digit = match self.layout.omega_bits {
                Some(w) => f64::from(w),
                None if r.len() == 1 => lg(r.start) - 1.0,
                None => r.clone().map(lg).sum::<f64>() + (r.len() as f64).log2(),
            };
            let per = 2.0 * (digit + trunc) + (self.subdigits[j] as f64).log2();
            sum = log2_add(sum, per);
        }
        let special = m.len() - self.k;
        let p_log2: f64 = (self.k..m.len()).map(lg).sum();
        let gadget =
            (z * sigma).log2() + 0.5 * ((self.ring_qp().degree() as f64).log2() + sum) - p_log2;
        if special == 0 {
            return gadget;
        }
        log2_add(gadget, ((special + 1) as f64 * (1.0 + s_l1)).log2())
    }

    /// Truncated columns I_j of Bajard et al. (SAC 2016) section 4.6: the `truncation` limbs after j, cyclically.
    fn truncated(&self, j: usize) -> Vec<usize> {
        (1..=self.layout.truncation)
            .map(|d| (j + d) % self.k)
            .collect()
    }
}

impl KeySwitcher {
    /// Key switching of d (over the ring of any level l, either representation): returns (u0, u1) in
    /// coefficient form over the same ring with u0 + u1 s = d s' + e_ks (mod Q_l).
    pub fn switch(&self, d: &Poly, key: &KeySwitchKey) -> Result<(Poly, Poly)> {
        self.switch_to(d, key, Representation::Coefficient)
    }

    /// [`KeySwitcher::switch`] with (u0, u1) in representation `form`: the same bits as `switch`
    /// followed by `to_ntt`. In NTT form the limbs of Q_l never leave it (ModDown adds the NTT of
    /// FastBconv's part, `FastRnsFloor::apply_transformed`), and an input in NTT form gives its own
    /// digits' limbs without a round trip: 3 of the 4 NTTs per limb of Q_l are saved.
    pub fn switch_to(
        &self,
        d: &Poly,
        key: &KeySwitchKey,
        form: Representation,
    ) -> Result<(Poly, Poly)> {
        let to_ntt = form == Representation::Ntt;
        self.check_key(key, self.level_of_input(d)?)?;
        let src = self.digit_source(d)?;
        let level = src.level;
        let ctx = self.ring_qp();
        let n = ctx.degree();
        // Output straight in NTT form, the limbs of Q_l never leaving it: power-of-two rings only.
        let ntt_out = to_ntt && ctx.limb_len(Representation::Ntt) == n;
        // The limbs of Q_l u P, their sums (NTT form), limb by limb: every digit's extension to the
        // limb, in NTT form, then one lazy inner product with each key component, and back to
        // coefficients (general m: the sum of products reduced modulo Phi_m once, Bajard et al. (SAC 2017) section 3).
        let (u0, u1) = self.key_products(&src, key, ntt_out, ntt_out)?;
        if ntt_out {
            let [d0, d1] = self.mod_down_pair(level, [&u0, &u1], [None, None], None)?;
            return Ok((d0, d1));
        }
        let limbs = self.limbs_at(level).len();
        let (u0, u1) = (&u0[..limbs * n], &u1[..limbs * n]);
        let down = |u: &[u64]| {
            let mut x = self.mod_down(u, level)?;
            if to_ntt {
                x.to_ntt()?;
            }
            Ok::<Poly, Error>(x)
        };
        let words = u0.len() + u1.len();
        let (d0, d1) = parallel::join(words, || down(u0), || down(u1));
        Ok((d0?, d1?))
    }

    /// The number of special primes |P|.
    pub(super) fn special_count(&self) -> usize {
        self.ring_qp().moduli().len() - self.k
    }
}
