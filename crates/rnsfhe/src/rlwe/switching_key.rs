//! [`SwitchingKey`]: a key-switching key from one secret to another (Lattigo's `EvaluationKey`
//! from `skIn` to `skOut`), tied to both secrets' identities, at a level, over the parameters' key
//! switcher or over one of q_0..q_l and a prefix P' of the special primes.
//!
//! Why a prefix of P: the key is RLWE samples under the target secret at the modulus Q_l P'. For a
//! sparse target (the ephemeral secret of sparse-secret encapsulation) that modulus must stay small
//! ([`crate::params::SPARSE_ESTIMATES`]): Lattigo's dense-to-sparse key lives over q_0 and p_0 only.
//! Such a key has its own [`KeySwitcher`] (the rings of q_0..q_l and P', shared by equal
//! descriptions, `Levels`); a ciphertext's limbs are moved onto its rings and back (copies of l + 1
//! limbs), and the ModDown divides by P' instead of P.

use std::borrow::Cow;
use std::sync::Arc;

use rnsfhe_math::ring::{Poly, RingContext, RingKind};
use rnsfhe_math::sample::Csprng;

use super::evalkeys::switch;
use super::keys::{log2_modulus, SeedSource};
use super::keyswitch::{select_limbs, within_key_level};
use super::{
    owned_by, KeyContext, KeyId, KeyOptions, KeySwitchKey, KeySwitcher, KeySwitching, Levels,
    ModulusChain, SecretDistribution, SecretKey,
};
use crate::{Error, Result};

/// A key that switches a ciphertext under `from` to one under `to`: RLWE samples under `to`
/// encrypting the gadget multiples of `from` (Cheon et al. (SAC 2018)'s KSGen(s', s)), at a level l (ciphertexts
/// at levels <= l) over q_0..q_l and the first `special` special primes.
#[derive(Clone, Debug)]
pub struct SwitchingKey {
    pub(crate) key: KeySwitchKey,
    /// The key switcher of q_0..q_l and P' when P' is a strict prefix of P (`None`: the
    /// parameters' own).
    pub(crate) own: Option<Arc<KeySwitcher>>,
    pub(crate) special: usize,
    pub(crate) fingerprint: u64,
    pub(crate) from: KeyId,
    pub(crate) to: KeyId,
    pub(crate) to_distribution: SecretDistribution,
}

impl SwitchingKey {
    /// The key of `from` -> `to` at (level l, `special` primes of P): over the parameters' switcher
    /// at level l when `special` is all of P, else over [`Self::switcher_for`].
    pub(crate) fn generate(
        ctx: &dyn KeyContext,
        from: &SecretKey,
        to: &SecretKey,
        (level, special): (usize, usize),
        rng: &mut Csprng,
    ) -> Result<Self> {
        let main = ctx.key_switcher();
        let own = Self::switcher_for(main, level, special)?;
        let sw = own.as_deref().unwrap_or(main);
        let key_level = if own.is_some() { sw.top_level() } else { level };
        let ring = sw.key_ring(0, key_level)?;
        to.check_exposure(log2_modulus(ring), "a switching key to this secret")?;
        let s_to = lift(main, sw, to.ntt_qp(), key_level)?;
        let s_from = lift(main, sw, from.ntt_qp(), key_level)?;
        let opts = KeyOptions::of(sw, SeedSource::Fresh, key_level);
        let g = ctx.error_distribution();
        let key = KeySwitchKey::generate_with(sw, &s_to, &s_from, g, rng, opts)?;
        Ok(SwitchingKey {
            key,
            own,
            special,
            fingerprint: ctx.params_fingerprint(),
            from: from.id(),
            to: to.id(),
            to_distribution: to.distribution(),
        })
    }

    /// The key switcher of a key at `level` over the first `special` special primes: `None` for
    /// all of them (the parameters' `main`), else one over q_0..q_level and P' (power-of-two
    /// rings, at least one special prime, the digit layout of `main` within the level).
    pub(crate) fn switcher_for(
        main: &KeySwitcher,
        level: usize,
        special: usize,
    ) -> Result<Option<Arc<KeySwitcher>>> {
        let all = main.ring_qp().moduli();
        let k = main.top_level() + 1;
        let p = all.len() - k;
        if level >= k || special > p {
            return Err(Error::LevelOutOfRange {
                op: format!("a switching key over {special} of the {p} special primes"),
                level,
                max: k - 1,
            });
        }
        if special == p {
            return Ok(None);
        }
        let ring = main.ring_qp();
        if special == 0 || ring.kind() != RingKind::PowerOfTwo {
            return Err(Error::InvalidParameters(format!(
                "a switching key over a prefix of the special primes needs at least one of them \
                 and a power-of-two ring (got {special} of {p})"
            )));
        }
        let q: Vec<u64> = all[..=level].iter().map(|m| m.value()).collect();
        let pp: Vec<u64> = all[k..k + special].iter().map(|m| m.value()).collect();
        let layout = main.layout();
        let layout = KeySwitching {
            digit_primes: layout.digit_primes.min(level + 1),
            ..layout
        };
        let levels = Levels::new(ring.degree(), &q, &pp)?;
        Ok(Some(Arc::new(KeySwitcher::on(levels, layout)?)))
    }

    /// The most special primes (a prefix of P, all of it at best) whose product with Q_level keeps
    /// an RLWE sample under `to` within its [`SecretKey::max_log_modulus`]; refused below one.
    pub(crate) fn admissible_special(
        sw: &KeySwitcher,
        to: &SecretKey,
        level: usize,
    ) -> Result<usize> {
        let all = sw.ring_qp().moduli();
        let k = sw.top_level() + 1;
        if level >= k {
            return Err(Error::LevelOutOfRange {
                op: "a switching key's level".into(),
                level,
                max: k - 1,
            });
        }
        let lg = |i: usize| (all[i].value() as f64).log2();
        let mut log = (0..=level).map(lg).sum::<f64>();
        let mut special = 0;
        for i in k..all.len() {
            log += lg(i);
            if to.check_exposure(log, "").is_err() {
                break;
            }
            special += 1;
        }
        if special == 0 && all.len() > k {
            let one = (0..=level).chain([k]).map(lg).sum::<f64>();
            to.check_exposure(
                one,
                "a switching key to this secret (q_0..q_l and one special prime)",
            )?;
        }
        Ok(special)
    }

    /// The identity of the key pair of the source secret.
    pub fn from_id(&self) -> KeyId {
        self.from
    }

    /// The identity of the key pair of the target secret.
    pub fn to_id(&self) -> KeyId {
        self.to
    }

    /// The distribution of the target secret.
    pub fn to_distribution(&self) -> SecretDistribution {
        self.to_distribution
    }

    /// A switched ciphertext's noise bound (`tracked`, the scheme's key-switching model) when the
    /// target secret has the parameters' distribution `params` (what the noise models assume), else
    /// `None`: the one rule of every scheme's `switch_key`.
    pub(crate) fn tracked_noise<N>(
        &self,
        params: SecretDistribution,
        tracked: impl FnOnce() -> Option<N>,
    ) -> Option<N> {
        (self.to_distribution == params).then(tracked).flatten()
    }

    /// The fingerprint of the parameters.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The level l: the key switches ciphertexts at levels 0..=l.
    pub fn level(&self) -> usize {
        self.key.level()
    }

    /// The number of special primes P' the key uses (a prefix of P).
    pub fn special_primes(&self) -> usize {
        self.special
    }

    /// The key-switching key (over [`Self::key_switcher`]'s rings).
    pub fn key(&self) -> &KeySwitchKey {
        &self.key
    }

    /// The key switcher the key belongs to: `main` (the parameters') or its own (a prefix of P).
    pub fn key_switcher<'a>(&'a self, main: &'a KeySwitcher) -> &'a KeySwitcher {
        self.own.as_deref().unwrap_or(main)
    }

    /// log2 of the modulus Q_l P' of the key's RLWE samples (under the target secret).
    pub fn log_modulus(&self) -> f64 {
        self.key
            .k0()
            .first()
            .map_or(0.0, |k0| log2_modulus(k0.context()))
    }

    /// Switches 2 ciphertext parts (over a level of `main`'s chain, key pair `ct_key`, parameters
    /// `fingerprint`) to the target secret: (c_0 + u_0, u_1) with (u_0, u_1) the key switch of
    /// c_1, in the parts' representation; BGV's t-scaled error with `scaled`. Refuses another key
    /// pair than the source, a ciphertext above the key's level, and other parameters.
    pub(crate) fn apply(
        &self,
        main: &KeySwitcher,
        scaled: Option<&ModulusChain>,
        parts: &[Poly],
        fingerprint: u64,
        ct_key: Option<KeyId>,
    ) -> Result<Vec<Poly>> {
        owned_by(
            (self.fingerprint, self.from),
            (fingerprint, ct_key),
            "switching key (its source secret)",
        )?;
        if parts.len() != 2 {
            return Err(Error::InvalidCiphertext(format!(
                "key switching needs 2-part ciphertexts, got {} parts; relinearize first",
                parts.len()
            )));
        }
        let level = main.levels().level_of(parts[0].context()).ok_or_else(|| {
            Error::ContextMismatch("the ciphertext is not over a level of this context".into())
        })?;
        within_key_level("switch keys: the switching key", level, self.level())?;
        let sw = self.key_switcher(main);
        let form = parts[0].representation();
        let c1 = rehome(Cow::Borrowed(&parts[1]), sw.ring_at(level))?;
        let (u0, u1) = switch(sw, scaled, &c1, &self.key, form)?;
        let back = main.ring_at(level);
        let mut c0 = parts[0].clone();
        c0.add_assign(&*rehome(Cow::Owned(u0), back)?)?;
        Ok(vec![c0, rehome(Cow::Owned(u1), back)?.into_owned()])
    }
}

/// x over the ring `to` of the same moduli (a level of another switcher): x itself, or a copy of
/// its limbs there.
fn rehome<'a>(x: Cow<'a, Poly>, to: Option<&Arc<RingContext>>) -> Result<Cow<'a, Poly>> {
    let to = to.ok_or_else(|| Error::Internal("a level beyond a switching key's chain".into()))?;
    if Arc::ptr_eq(x.context(), to) {
        return Ok(x);
    }
    let slots: Vec<usize> = (0..to.moduli().len()).collect();
    Ok(Cow::Owned(select_limbs(&x, to, &slots)?))
}

/// A secret over `main`'s Q u P (NTT form) for a key at `level` of `sw`: itself when `sw` is
/// `main` (the key restricts it), else its limbs q_0..q_level and the first special primes.
fn lift<'a>(
    main: &KeySwitcher,
    sw: &KeySwitcher,
    s: &'a Poly,
    level: usize,
) -> Result<Cow<'a, Poly>> {
    if std::ptr::eq(main, sw) {
        return Ok(Cow::Borrowed(s));
    }
    let k = main.top_level() + 1;
    let special = sw.ring_qp().moduli().len() - (level + 1);
    let slots: Vec<usize> = (0..=level).chain(k..k + special).collect();
    Ok(Cow::Owned(select_limbs(s, sw.ring_qp(), &slots)?))
}
