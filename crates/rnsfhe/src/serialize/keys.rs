//! Secret, public, relinearisation and Galois keys and evaluation key sets to and from bytes
//! (scheme-independent; the schemes' contexts supply the key switcher and fingerprint through
//! [`KeyContext`]). Uniform components are stored as their seeds.
//!
//! Key-switching keys (relinearisation, Galois): format 5 stores each key's level; the keys of
//! formats 2 to 4 load as top-level keys.
//!
//! Galois keys: format 4 stores the keys from s to phi_{g^-1}(s) (hoisting: the automorphism after
//! the key product), k0 as used and the seeds of the k1 components, which are phi_{g^-1} of the
//! seeds' expansions; formats 2 and 3 hold the keys from s(X^g) to s and are converted on load
//! (phi_{g^-1} of every component).
//!
//! Secret keys: format 3 stores the key pair's identity and either one byte per ternary coefficient
//! or the residues of s over Q u P (a secret that is no ternary vector); format-2 bytes (ternary,
//! identity recomputed as a hash of the coefficients) still load, with that identity, so that they
//! open the ciphertexts and keys written beside them.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Kind, Reader, Writer};
use zeroize::Zeroizing;

use crate::rlwe::{
    inverse_mod, EncapsulationKeys, EvaluationKeySet, GaloisKeys, KeyContext, KeyId, KeyProfile,
    KeyStorage, KeySwitchKey, KeySwitcher, PublicKey, RelinKey, SecretKey, SwitchingKey,
};
use crate::{Error, Result};

/// Secret-key body flags (format 3).
const TERNARY: u8 = 1;
const RESIDUES: u8 = 2;

impl Writer {
    /// What a key was made under beyond the fingerprint (format 6; see [`KeyProfile`]): sigma, the
    /// secret distribution, the key-switching layout and the security level, as parameter bytes
    /// write them.
    pub(super) fn key_profile(&mut self, p: &KeyProfile) {
        self.common(p.sigma, p.secret, p.layout, p.security);
    }
}

impl Reader<'_> {
    /// Reads a key's profile (format 6; nothing before) and refuses one whose distributions or
    /// security differ from `ctx`'s (the layout is checked per key-switching key, where it
    /// matters).
    pub(super) fn check_key_profile(&mut self, ctx: &dyn KeyContext, what: &str) -> Result<()> {
        if self.version() < 6 {
            return Ok(());
        }
        let (sigma, secret, layout, security) = self.common()?;
        let found = KeyProfile {
            layout,
            sigma,
            secret,
            security,
        };
        found.check_distributions(&KeyProfile::of(ctx), what)
    }
}

/// Key serialisation for a scheme's context (`use rnsfhe::serialize::KeyBytes` to call it on
/// `BfvContext`, `BgvContext` and `CkksContext`). Keys of one context load in every context of
/// equal parameters (the fingerprint is checked), in any process.
pub trait KeyBytes: KeyContext {
    /// A secret key as bytes: its key pair's identity, then one byte per coefficient of a ternary s
    /// (0, 1 or 255 for -1), or the residues of any other s over Q u P. Keep these bytes secret;
    /// whoever holds them can decrypt.
    fn secret_key_to_bytes(&self, sk: &SecretKey) -> Result<Zeroizing<Vec<u8>>> {
        let mut w = Writer::new(Kind::SecretKey, self.params_fingerprint());
        w.key_profile(&KeyProfile::of(self.as_key_context()));
        w.u64(sk.id().0);
        match sk.coefficients() {
            Some(c) if c.iter().all(|x| x.abs() <= 1) => {
                w.u8(TERNARY);
                w.ternary(c);
            }
            _ => {
                w.u8(RESIDUES);
                let mut p = rnsfhe_math::ring::Poly::from_residues(
                    self.key_switcher().ring_qp(),
                    sk.residues_qp()?.to_vec(),
                    rnsfhe_math::ring::Representation::Coefficient,
                )?;
                w.poly(&p);
                zeroize::Zeroize::zeroize(p.residues_mut());
            }
        }
        Ok(Zeroizing::new(w.finish()))
    }
    /// A secret key from bytes written for these parameters (format 3, or 2: ternary).
    fn secret_key_from_bytes(&self, bytes: &[u8]) -> Result<SecretKey> {
        let mut r = Reader::new(bytes, Kind::SecretKey, self.params_fingerprint())?;
        r.check_key_profile(self.as_key_context(), "secret key")?;
        let n = self.key_switcher().ring_q().degree();
        if r.version() == 2 {
            let coeffs = r.ternary(n)?;
            r.end()?;
            let id = KeyId::of_ternary_secret(&coeffs);
            return Ok(SecretKey::from_coefficients(self.as_key_context(), coeffs)?.with_id(id));
        }
        let id = KeyId(r.u64()?);
        let sk = match r.u8()? {
            TERNARY => {
                let coeffs = r.ternary(n)?;
                r.end()?;
                SecretKey::from_coefficients(self.as_key_context(), coeffs)?
            }
            RESIDUES => {
                let mut p = r.poly(self.key_switcher().ring_qp())?;
                let end = r.end();
                let sk = end.and_then(|()| SecretKey::from_poly(self.as_key_context(), &p));
                zeroize::Zeroize::zeroize(p.residues_mut());
                let sk = sk?;
                // One encoding per key: a ternary secret is written as ternary bytes.
                if sk
                    .coefficients()
                    .is_some_and(|c| c.iter().all(|x| x.abs() <= 1))
                {
                    return Err(Error::Malformed(
                        "a ternary secret stored as residues (format 3 writes it as ternary bytes)"
                            .into(),
                    ));
                }
                sk
            }
            f => {
                return Err(Error::Malformed(format!(
                "secret key body flag {f}, expected {TERNARY} (ternary) or {RESIDUES} (residues)"
            )))
            }
        };
        Ok(sk.with_id(id))
    }
    /// A public key as bytes (its key pair's identity, p0 and the seed of p1).
    fn public_key_to_bytes(&self, pk: &PublicKey) -> Vec<u8> {
        let mut w = Writer::new(Kind::PublicKey, pk.fingerprint());
        w.key_profile(&KeyProfile::of(self.as_key_context()));
        w.u64(pk.id().0);
        w.poly(pk.parts().0);
        w.bytes(pk.seed());
        w.finish()
    }
    /// A public key from bytes written for these parameters.
    fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<PublicKey> {
        let mut r = Reader::new(bytes, Kind::PublicKey, self.params_fingerprint())?;
        r.check_key_profile(self.as_key_context(), "public key")?;
        let id = KeyId(r.u64()?);
        let p0 = r.poly(self.key_switcher().ring_qp())?;
        let seed = r.seed()?;
        r.end()?;
        PublicKey::from_parts(self.as_key_context(), p0, seed, Some(id))
    }
    /// A relinearisation key as bytes (k0 components and the seeds of k1).
    fn relin_key_to_bytes(&self, rlk: &RelinKey) -> Vec<u8> {
        let mut w = Writer::new(Kind::RelinKey, rlk.fingerprint);
        w.key_profile(&KeyProfile::of(self.as_key_context()));
        w.u64(rlk.key_id.0);
        w.key_switch_key(&rlk.key);
        w.finish()
    }
    /// A relinearisation key from bytes written for these parameters.
    fn relin_key_from_bytes(&self, bytes: &[u8]) -> Result<RelinKey> {
        let fingerprint = self.params_fingerprint();
        let mut r = Reader::new(bytes, Kind::RelinKey, fingerprint)?;
        r.check_key_profile(self.as_key_context(), "relinearisation key")?;
        let key_id = KeyId(r.u64()?);
        let key = r.key_switch_key(self.relin_switcher())?;
        r.end()?;
        Ok(RelinKey {
            key,
            fingerprint,
            key_id,
        })
    }
    /// Galois keys as bytes.
    fn galois_keys_to_bytes(&self, gk: &GaloisKeys) -> Vec<u8> {
        let mut w = Writer::new(Kind::GaloisKeys, gk.fingerprint);
        w.key_profile(&KeyProfile::of(self.as_key_context()));
        w.u64(gk.key_id.0);
        w.galois_keys(gk);
        w.finish()
    }
    /// Galois keys from bytes written for these parameters.
    fn galois_keys_from_bytes(&self, bytes: &[u8]) -> Result<GaloisKeys> {
        let fingerprint = self.params_fingerprint();
        let mut r = Reader::new(bytes, Kind::GaloisKeys, fingerprint)?;
        r.check_key_profile(self.as_key_context(), "Galois keys")?;
        let key_id = KeyId(r.u64()?);
        let keys = r.galois_keys(self.key_switcher(), KeyStorage::Expanded)?;
        r.end()?;
        Ok(GaloisKeys {
            keys,
            fingerprint,
            key_id,
        })
    }
    /// A switching key as bytes: the identities of both key pairs, the target's distribution, the
    /// number of special primes, then the key (level first).
    fn switching_key_to_bytes(&self, key: &SwitchingKey) -> Vec<u8> {
        super::switching_keys::to_bytes(key)
    }
    /// A switching key from bytes written for these parameters.
    fn switching_key_from_bytes(&self, bytes: &[u8]) -> Result<SwitchingKey> {
        super::switching_keys::from_bytes(self.as_key_context(), bytes)
    }
    /// The encapsulation key pair as bytes: its two switching keys.
    fn encapsulation_keys_to_bytes(&self, keys: &EncapsulationKeys) -> Vec<u8> {
        super::switching_keys::pair_to_bytes(keys)
    }
    /// The encapsulation key pair from bytes written for these parameters.
    fn encapsulation_keys_from_bytes(&self, bytes: &[u8]) -> Result<EncapsulationKeys> {
        super::switching_keys::pair_from_bytes(self.as_key_context(), bytes)
    }
    /// An evaluation key set as bytes: its key pair (if any), then its relinearisation key and its
    /// Galois keys, each optional.
    fn evaluation_keys_to_bytes(&self, set: &EvaluationKeySet) -> Vec<u8> {
        let out = Vec::with_capacity(self.evaluation_keys_len(set));
        append_evaluation_keys(self.as_key_context(), set, out)
    }
    /// The length of [`Self::evaluation_keys_to_bytes`], from the keys' shapes: no bytes are made
    /// (bootstrapping's keys at N = 2^16 take 3.5 GiB).
    fn evaluation_keys_len(&self, set: &EvaluationKeySet) -> usize {
        let fp = set.owner().map_or(self.params_fingerprint(), |(f, _)| f);
        let profile = KeyProfile::of(self.as_key_context());
        write_evaluation_keys(Writer::counting(Kind::EvaluationKeySet, fp), &profile, set)
            .finish_len()
    }
    /// An evaluation key set from bytes written for these parameters.
    fn evaluation_keys_from_bytes(&self, bytes: &[u8]) -> Result<EvaluationKeySet> {
        self.evaluation_keys_from_bytes_with(bytes, KeyStorage::Expanded)
    }
    /// [`Self::evaluation_keys_from_bytes`] with the Galois keys in `galois` storage, each
    /// converted as it is read (at most one expanded Galois key held); the relinearisation key
    /// expanded.
    fn evaluation_keys_from_bytes_with(
        &self,
        bytes: &[u8],
        galois: KeyStorage,
    ) -> Result<EvaluationKeySet> {
        let fingerprint = self.params_fingerprint();
        let mut r = Reader::new(bytes, Kind::EvaluationKeySet, fingerprint)?;
        r.check_key_profile(self.as_key_context(), "evaluation key set")?;
        let id = r.key_id()?;
        let relin = r.option("relinearisation key", |r| {
            r.key_switch_key(self.relin_switcher())
        })?;
        let galois = r.option("Galois keys", |r| {
            r.galois_keys(self.key_switcher(), galois)
        })?;
        r.end()?;
        let mut set = EvaluationKeySet::new();
        let key_id = match (id, relin.is_some() || galois.is_some()) {
            (Some(id), true) => id,
            (None, false) => return Ok(set),
            (None, true) | (Some(_), false) => {
                return Err(Error::Malformed(
                    "an evaluation key set has a key pair exactly when it has keys".into(),
                ))
            }
        };
        if let Some(key) = relin {
            set.set_relin_key(Arc::new(RelinKey {
                key,
                fingerprint,
                key_id,
            }))?;
        }
        if let Some(keys) = galois {
            set.set_galois_keys(Arc::new(GaloisKeys {
                keys,
                fingerprint,
                key_id,
            }))?;
        }
        Ok(set)
    }
}

/// [`KeyBytes::evaluation_keys_to_bytes`] of `ctx`'s keys appended to `out` (its CRC covers the
/// appended bytes), without a copy of gigabytes of keys.
pub(crate) fn append_evaluation_keys(
    ctx: &dyn KeyContext,
    set: &EvaluationKeySet,
    out: Vec<u8>,
) -> Vec<u8> {
    let fp = set.owner().map_or(ctx.params_fingerprint(), |(f, _)| f);
    let profile = KeyProfile::of(ctx);
    write_evaluation_keys(
        Writer::append(out, Kind::EvaluationKeySet, fp),
        &profile,
        set,
    )
    .finish()
}

/// An evaluation key set's body: its key pair (if any), then its relinearisation key and its Galois
/// keys, each optional.
fn write_evaluation_keys(mut w: Writer, profile: &KeyProfile, set: &EvaluationKeySet) -> Writer {
    w.key_profile(profile);
    w.key_id(set.id());
    w.option(set.relin_key().ok(), |w, k| w.key_switch_key(&k.key));
    w.option(set.galois_keys().ok(), |w, g| w.galois_keys(g));
    w
}

impl Writer {
    /// Galois keys' count, then each element and key.
    fn galois_keys(&mut self, gk: &GaloisKeys) {
        self.u32(gk.keys.len() as u32);
        for (g, k) in &gk.keys {
            self.u64(*g);
            self.key_switch_key(k);
        }
    }
}

impl Reader<'_> {
    /// Galois keys written by [`Writer::galois_keys`], over `sw`: the k1 components are phi_{g^-1}
    /// of their seeds' expansions, and before format 4 (keys from s(X^g) to s) the k0 components are
    /// converted too.
    fn galois_keys(
        &mut self,
        sw: &KeySwitcher,
        storage: KeyStorage,
    ) -> Result<BTreeMap<u64, Arc<KeySwitchKey>>> {
        let old = self.version() < 4;
        let count = self.u32()? as usize;
        // m = 2n for power-of-two rings; elements of Z_m^* in general.
        let two_n = sw.ring_q().cyclotomic_index() as u64;
        if count > sw.ring_q().degree() {
            return Err(Error::Malformed(format!(
                "{count} Galois keys for degree {}",
                sw.ring_q().degree()
            )));
        }
        let mut keys = BTreeMap::new();
        for _ in 0..count {
            let g = self.u64()?;
            if g >= two_n || num_integer::gcd(g, two_n) != 1 || g == 1 || keys.contains_key(&g) {
                return Err(Error::Malformed(format!(
                    "Galois element {g} (in Z_m^*, below m = {two_n}, not 1, no repeats)"
                )));
            }
            let key = self.key_switch_key(sw)?;
            // A key held in full is stored as used; a seeded k1 is phi_{g^-1} of its expansion.
            let key = if key.is_seeded() {
                key.automorphism(inverse_mod(g, two_n)?, old)?
            } else {
                key
            };
            keys.insert(g, Arc::new(key.with_storage(sw, storage)?));
        }
        Ok(keys)
    }
}
