//! Evaluation keys shared by the schemes: relinearisation (s^2 -> s) and Galois (s -> phi_{g^-1}(s))
//! keys, tied to their parameter set by its fingerprint (any context of equal parameters, in any
//! process, takes them) and to their key pair by its [`KeyId`].

use std::collections::BTreeMap;
use std::sync::Arc;

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::{Csprng, DiscreteGaussian};

use super::keyswitch::within_key_level;
use super::{KeyId, KeyOptions, KeySwitchKey, KeySwitcher, ModulusChain, SecretKey};
use crate::{Error, Result};

/// The relinearisation key: a key-switching key from s^2 to s (Bajard et al. (SAC 2016) rlk_RNS, eq. (17); Cheon et al. (SAC 2018)
/// evk = KSGen(s^2, s)).
#[derive(Clone, Debug)]
pub struct RelinKey {
    pub(crate) key: KeySwitchKey,
    pub(crate) fingerprint: u64,
    pub(crate) key_id: KeyId,
}

/// Galois keys for chosen Galois elements g (each shared by `Arc`, so that merged sets do not copy
/// keys): the key of g switches from s to phi_{g^-1}(s), so that the automorphism comes after the
/// key product (Lattigo's convention) and one decomposition of c_1 serves every g (hoisting,
/// `rlwe::hoisted`): phi_g(u_0 + c_0) + phi_g(u_1) s = phi_g(c_0 + c_1 s) for
/// u_0 + u_1 phi_{g^-1}(s) = c_1 s. It is phi_{g^-1} of the key from s(X^g) to s: its k_1 components
/// are phi_{g^-1} of the expansions of their seeds (the byte format stores the seeds). Each key has
/// its level ([`KeySwitchKey::level`]): a set may hold keys of several levels (e.g. CoeffsToSlots'
/// rotations at the top, SlotsToCoeffs' near the bottom), and a rotation of a ciphertext above its
/// key's level is refused naming the rotation.
#[derive(Clone, Debug)]
pub struct GaloisKeys {
    pub(crate) keys: BTreeMap<u64, Arc<KeySwitchKey>>,
    pub(crate) fingerprint: u64,
    pub(crate) key_id: KeyId,
}

/// Refuses an evaluation key (`what`, of parameters and key pair `key`) for a ciphertext of
/// parameters and key pair `ct` (`None`: a trivial ciphertext, any pair).
pub(crate) fn owned_by(key: (u64, KeyId), ct: (u64, Option<KeyId>), what: &str) -> Result<()> {
    super::keys::check_params(key.0, ct.0, what)?;
    KeyId::check(ct.1, key.1, what)
}

impl RelinKey {
    /// The key KSGen(s^2, s) of `sk` over `sw` at the level of `opts`, with its error e M
    /// (`m_error`) or e, for parameters `fingerprint`, a's seeds from its source. The mixed
    /// strategy's key (Bajard et al. (SAC 2017) section 4.4) is the second over a Montgomery ring: the Montgomery
    /// form of the plain key (residues (P g s^2 - a s - e) M, "keys carrying M"), so that plain
    /// digits reduced by Montgomery give the plain relinearisation.
    pub(crate) fn generate_with(
        sw: &KeySwitcher,
        sk: &SecretKey,
        g: &DiscreteGaussian,
        fingerprint: u64,
        rng: &mut Csprng,
        opts: KeyOptions<'_>,
    ) -> Result<Self> {
        let s = sw.restrict_qp(sk.ntt_qp(), opts.level)?;
        let s2 = s.mul(&s)?;
        Ok(RelinKey {
            key: KeySwitchKey::generate_with(sw, &s, &s2, g, rng, opts)?,
            fingerprint,
            key_id: sk.id(),
        })
    }

    /// The level l of the key: it relinearises ciphertexts at levels 0..=l.
    pub fn level(&self) -> usize {
        self.key.level()
    }

    /// The fingerprint of the parameters this key belongs to.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The key-switching key.
    pub fn key(&self) -> &KeySwitchKey {
        &self.key
    }

    /// The identity of the key pair this key belongs to.
    pub fn id(&self) -> KeyId {
        self.key_id
    }

    /// Relinearises ciphertext parts of parameters `fingerprint` and key pair `ct_key` in place: 3 parts
    /// become 2 (the key switch of the last one, in the parts' representation), 2 stay. Shared by BFV
    /// and CKKS.
    pub(crate) fn relinearize(
        &self,
        sw: &KeySwitcher,
        scaled: Option<&ModulusChain>,
        parts: &mut Vec<Poly>,
        fingerprint: u64,
        ct_key: Option<KeyId>,
    ) -> Result<()> {
        owned_by(
            (self.fingerprint, self.key_id),
            (fingerprint, ct_key),
            "relinearisation key",
        )?;
        match parts.len() {
            2 => Ok(()),
            3 => {
                let level = parts[2].context().moduli().len().wrapping_sub(1);
                within_key_level(
                    "relinearisation: the relinearisation key",
                    level,
                    self.level(),
                )?;
                let c2 = parts
                    .pop()
                    .ok_or_else(|| Error::InvalidCiphertext("empty".into()))?;
                let form = parts[0].representation();
                if scaled.is_none()
                    && super::hoisted::hoistable(sw)
                    && [&parts[0], &parts[1], &c2]
                        .iter()
                        .all(|p| p.representation() == Representation::Ntt)
                {
                    // The sums folded into the ModDown (the same bits as below).
                    let [d0, d1] = sw.switch_add(&c2, &self.key, [&parts[0], &parts[1]])?;
                    *parts = vec![d0, d1];
                    return Ok(());
                }
                let (u0, u1) = switch(sw, scaled, &c2, &self.key, form)?;
                for (p, u) in parts.iter_mut().zip([u0, u1]) {
                    p.add_assign(&u)?;
                }
                Ok(())
            }
            s => Err(Error::InvalidCiphertext(format!(
                "relinearisation takes 2 or 3 parts, got {s}"
            ))),
        }
    }

    /// Relinearisation of 3 ciphertext parts (NTT form, of parameters `fingerprint` and key pair
    /// `ct_key`, at a level l >= 1) and the rescale by q_l in one division
    /// (`KeySwitcher::switch_rescale`): the 2 parts at level l - 1, or `None` where the switcher
    /// does not fuse them (the caller relinearises and rescales apart). Refuses as
    /// [`Self::relinearize`] does.
    pub(crate) fn relinearize_rescale(
        &self,
        sw: &KeySwitcher,
        parts: &[Poly],
        fingerprint: u64,
        ct_key: Option<KeyId>,
    ) -> Result<Option<[Poly; 2]>> {
        owned_by(
            (self.fingerprint, self.key_id),
            (fingerprint, ct_key),
            "relinearisation key",
        )?;
        let [c0, c1, c2] = parts else {
            return Ok(None);
        };
        let level = c2.context().moduli().len().wrapping_sub(1);
        within_key_level(
            "relinearisation: the relinearisation key",
            level,
            self.level(),
        )?;
        sw.switch_rescale(c2, &self.key, [c0, c1])
    }
}

/// The most Galois keys one call generates (distinct elements other than 1): a bound on a caller's
/// step list, since every key costs as much time and memory as a relinearisation key. Sets grow
/// beyond it by [`GaloisKeys::merge`].
pub const MAX_GALOIS_ELEMENTS: usize = 256;

impl GaloisKeys {
    /// Keys for the odd Galois elements `elements` (taken mod 2n; 1 needs no key) at the level of
    /// `opts`, for parameters `fingerprint`, a's seeds from its source (its domain set per
    /// element).
    pub(crate) fn generate(
        sw: &KeySwitcher,
        sk: &SecretKey,
        elements: &[u64],
        g: &DiscreteGaussian,
        fingerprint: u64,
        rng: &mut Csprng,
        opts: KeyOptions<'_>,
    ) -> Result<Self> {
        // m = 2n for power-of-two rings; any m for the general ones (elements of Z_m^*).
        let two_n = sw.ring_q().cyclotomic_index() as u64;
        let distinct = elements
            .iter()
            .map(|e| e % two_n)
            .filter(|&e| e != 1)
            .collect::<std::collections::BTreeSet<u64>>()
            .len();
        if distinct > MAX_GALOIS_ELEMENTS {
            return Err(Error::OutOfRange(format!(
                "{distinct} distinct Galois elements requested, at most {MAX_GALOIS_ELEMENTS} keys are \
                 generated at once (each is as large as a relinearisation key)"
            )));
        }
        let mut keys = BTreeMap::new();
        // s over Q_l u P once; each key's s' is an automorphism of it.
        let s = sw.restrict_qp(sk.ntt_qp(), opts.level)?;
        for &e in elements {
            let e = e % two_n;
            if num_integer::gcd(e, two_n) != 1 {
                return Err(Error::InvalidParameters(format!(
                    "Galois element {e} is not coprime to m = {two_n}; elements must lie in Z_m^* \
                     (odd modulo 2n for power-of-two rings)"
                )));
            }
            if e == 1 || keys.contains_key(&e) {
                continue;
            }
            let s_g = s.automorphism(e as i64)?;
            let opts = KeyOptions {
                source: opts.source.for_galois(e),
                ..opts
            };
            let key = KeySwitchKey::generate_with(sw, &s, &s_g, g, rng, opts)?;
            keys.insert(e, Arc::new(key.automorphism(inverse_mod(e, two_n)?, true)?));
        }
        Ok(GaloisKeys {
            keys,
            fingerprint,
            key_id: sk.id(),
        })
    }

    /// The identity of the key pair these keys belong to.
    pub fn id(&self) -> KeyId {
        self.key_id
    }

    /// The fingerprint of the parameters these keys belong to.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Adds the keys of `other` (same key pair, same parameters). Of two keys of one element the
    /// one of the higher level is kept (it switches every ciphertext the other does, at the same
    /// cost per switch), the one held on a tie. The keys are shared, not copied.
    pub fn merge(&mut self, other: &GaloisKeys) -> Result<()> {
        self.check_same_pair(other)?;
        for (&g, k) in &other.keys {
            self.put(g, Arc::clone(k));
        }
        Ok(())
    }

    /// [`Self::merge`] taking `other`.
    pub fn insert(&mut self, other: GaloisKeys) -> Result<()> {
        self.check_same_pair(&other)?;
        for (g, k) in other.keys {
            self.put(g, k);
        }
        Ok(())
    }

    /// Holds `k` for g unless a key of g of at least its level is held.
    fn put(&mut self, g: u64, k: Arc<KeySwitchKey>) {
        match self.keys.get(&g) {
            Some(held) if held.level() >= k.level() => {}
            _ => {
                self.keys.insert(g, k);
            }
        }
    }

    /// The level of the key of element g (it switches ciphertexts at levels 0..=level), if held.
    pub fn level(&self, g: u64) -> Option<usize> {
        self.keys.get(&g).map(|k| k.level())
    }

    /// Whether there is a key for element g (taken as given: reduce it mod m first).
    pub fn contains(&self, g: u64) -> bool {
        self.keys.contains_key(&g)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there is no key.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn check_same_pair(&self, other: &GaloisKeys) -> Result<()> {
        super::keys::check_params(other.fingerprint, self.fingerprint, "Galois keys merged")?;
        if other.key_id != self.key_id {
            return Err(Error::KeyMismatch {
                what: "Galois keys (left) merged into Galois keys (right)".into(),
                left: other.key_id,
                right: self.key_id,
            });
        }
        Ok(())
    }

    /// The Galois elements with a key.
    pub fn elements(&self) -> Vec<u64> {
        self.keys.keys().copied().collect()
    }

    /// Refuses a missing key, or one below `level` (the ciphertext's), before any work: the error
    /// names the element and, when given, the rotation step it serves.
    pub(crate) fn require(&self, g: u64, step: Option<i64>, level: usize) -> Result<()> {
        if g == 1 {
            return Ok(());
        }
        self.get_at(g, level, step).map(|_| ())
    }

    /// The key of element g for a ciphertext at `level`: `MissingGaloisKey`, or `LevelOutOfRange`
    /// naming the rotation (`step`) or the element when the key's level is below `level`.
    pub(crate) fn get_at(&self, g: u64, level: usize, step: Option<i64>) -> Result<&KeySwitchKey> {
        let key = self
            .keys
            .get(&g)
            .ok_or(Error::MissingGaloisKey { element: g, step })?;
        if level > key.level() {
            let what = match step {
                Some(s) => format!("rotate by {s}: the Galois key"),
                None => format!("automorphism X -> X^{g}: the Galois key"),
            };
            within_key_level(&what, level, key.level())?;
        }
        Ok(key)
    }

    /// The key of element g, or an error naming the missing key.
    pub(crate) fn get(&self, g: u64) -> Result<&KeySwitchKey> {
        self.keys
            .get(&g)
            .map(|k| &**k)
            .ok_or(Error::MissingGaloisKey {
                element: g,
                step: None,
            })
    }
}

/// g^-1 mod m for g in Z_m^* (extended Euclid).
pub(crate) fn inverse_mod(g: u64, m: u64) -> Result<u64> {
    let (mut r0, mut r1) = (i128::from(m), i128::from(g % m));
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    if r0 != 1 {
        return Err(Error::InvalidParameters(format!(
            "Galois element {g} is not invertible modulo m = {m}"
        )));
    }
    Ok(t0.rem_euclid(i128::from(m)) as u64)
}

/// Key switching for every scheme: with the error scaled by the chain's t when given (BGV), plain
/// otherwise (BFV, CKKS).
pub(super) fn switch(
    sw: &KeySwitcher,
    scaled: Option<&ModulusChain>,
    d: &Poly,
    key: &KeySwitchKey,
    form: Representation,
) -> Result<(Poly, Poly)> {
    match scaled {
        Some(chain) => {
            let (mut u0, mut u1) = chain.switch_key(sw, d, key)?;
            if form == Representation::Ntt {
                u0.to_ntt()?;
                u1.to_ntt()?;
            }
            Ok((u0, u1))
        }
        None => {
            let (mut u0, mut u1) = sw.switch_to(d, key, form)?;
            if super::keys::is_montgomery(d.context())
                && d.montgomery_form() == rnsfhe_math::ring::Form::Montgomery
            {
                // Digits of c M against keys with M^2 (FV in the full Montgomery representation,
                // Bajard et al. (SAC 2017) section 4.1): the residues are those of (u_0, u_1) M.
                u0.relabel_form(rnsfhe_math::ring::Form::Montgomery)?;
                u1.relabel_form(rnsfhe_math::ring::Form::Montgomery)?;
            }
            Ok((u0, u1))
        }
    }
}
