//! One live context per parameter set, with the evaluation keys registered for operators, found by
//! the identity of the key pair a ciphertext is encrypted under (several users may share a parameter
//! set: each one's keys serve only that user's ciphertexts). The keys of a key pair are the core's
//! [`EvaluationKeySet`] (BFV, BGV, CKKS; HPR's digit keys sit in a [`KeyPair`] of their own).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock, Weak};

use pyo3::prelude::*;
use rnsfhe::rlwe::{EvaluationKeySet, GaloisKeys, KeyId, RelinKey};
use rnsfhe_math::sample::Csprng;

use crate::{raise, OrPy};

/// What the binding layer needs to know of a scheme's Rust context: its parameters and how a
/// context is made of them, its key, plaintext and ciphertext types (the RLWE ones, or HPR's digit
/// keys), what is kept beside the context (HPR: its batch encoder), and the operations every scheme
/// has under one name (HPR's Rust API names and orders them differently).
pub(crate) trait Scheme {
    type Params;
    type SecretKey;
    type PublicKey;
    type RelinKey: EvalKey;
    type GaloisKeys: EvalKey;
    /// The evaluation keys of one key pair.
    type Keys: KeySet<Relin = Self::RelinKey, Galois = Self::GaloisKeys>;
    type Plaintext;
    type Ciphertext;
    /// What a parameter class carries beside the scheme's parameters (CKKS: the bootstrapping
    /// preset of `CkksParameters.bootstrappable`; the others: nothing).
    type Tag: Tag;
    type Extra;
    fn new_context(p: &Self::Params) -> rnsfhe::Result<Arc<Self>>;
    /// The parameter set's fingerprint, which its objects' bytes carry.
    fn fingerprint(&self) -> u64;
    fn extra(&self) -> Self::Extra;
    /// A fresh secret key and its public key.
    fn key_pair(&self, rng: &mut Csprng) -> rnsfhe::Result<(Self::SecretKey, Self::PublicKey)>;
    fn encrypt_public(
        &self,
        pt: &Self::Plaintext,
        pk: &Self::PublicKey,
        rng: &mut Csprng,
    ) -> rnsfhe::Result<Self::Ciphertext>;
    fn encrypt_secret(
        &self,
        pt: &Self::Plaintext,
        sk: &Self::SecretKey,
        rng: &mut Csprng,
    ) -> rnsfhe::Result<Self::Ciphertext>;
    /// a * b without relinearisation (3 parts).
    fn product(
        &self,
        a: &Self::Ciphertext,
        b: &Self::Ciphertext,
    ) -> rnsfhe::Result<Self::Ciphertext>;
}

/// A parameter set's tag: part of its context's identity, its bytes after the parameters' in
/// `to_bytes` (so that pickles and `from_bytes` keep it; bytes without one read as before).
pub(crate) trait Tag: Copy + Default + PartialEq + Send + Sync {
    /// The tag's bytes (none for no tag).
    fn to_bytes(&self) -> Vec<u8>;
    /// `bytes` split into the parameters' bytes and the tag after them.
    fn split(bytes: &[u8]) -> PyResult<(&[u8], Self)>;
    /// What labels add for the tag ("" for none).
    fn note(&self) -> String;
}

/// No tag (BFV, BGV, HPR).
impl Tag for () {
    fn to_bytes(&self) -> Vec<u8> {
        Vec::new()
    }
    fn split(bytes: &[u8]) -> PyResult<(&[u8], ())> {
        Ok((bytes, ()))
    }
    fn note(&self) -> String {
        String::new()
    }
}

/// An evaluation key, registered under its key pair's identity.
pub(crate) trait EvalKey {
    fn key_pair(&self) -> KeyId;
}

/// `EvalKey` for key types with an inherent `id()`.
macro_rules! eval_keys {
    ($($K:ty),*) => {
        $(impl crate::registry::EvalKey for $K {
            fn key_pair(&self) -> rnsfhe::rlwe::KeyId {
                self.id()
            }
        })*
    };
}
pub(crate) use eval_keys;

eval_keys!(RelinKey, GaloisKeys);

/// The evaluation keys of one key pair as the registry holds them: registering a key replaces the
/// one of its kind (as `register_keys` always did).
pub(crate) trait KeySet: Default + Send + Sync {
    type Relin;
    type Galois;
    fn relin(&self) -> Option<Arc<Self::Relin>>;
    fn galois(&self) -> Option<Arc<Self::Galois>>;
    fn set_relin(&mut self, k: Arc<Self::Relin>) -> rnsfhe::Result<()>;
    fn set_galois(&mut self, k: Arc<Self::Galois>) -> rnsfhe::Result<()>;
}

impl KeySet for EvaluationKeySet {
    type Relin = RelinKey;
    type Galois = GaloisKeys;
    fn relin(&self) -> Option<Arc<RelinKey>> {
        self.relin_key().ok().cloned()
    }
    fn galois(&self) -> Option<Arc<GaloisKeys>> {
        self.galois_keys().ok().cloned()
    }
    fn set_relin(&mut self, k: Arc<RelinKey>) -> rnsfhe::Result<()> {
        self.set_relin_key(k)
    }
    fn set_galois(&mut self, k: Arc<GaloisKeys>) -> rnsfhe::Result<()> {
        self.set_galois_keys(k)
    }
}

/// A relinearisation key and Galois keys of one key pair, for schemes outside the RLWE key layer
/// (HPR's digit keys).
pub(crate) struct KeyPair<R, G> {
    relin: Option<Arc<R>>,
    galois: Option<Arc<G>>,
}

impl<R, G> Default for KeyPair<R, G> {
    fn default() -> Self {
        KeyPair {
            relin: None,
            galois: None,
        }
    }
}

impl<R: Send + Sync, G: Send + Sync> KeySet for KeyPair<R, G> {
    type Relin = R;
    type Galois = G;
    fn relin(&self) -> Option<Arc<R>> {
        self.relin.clone()
    }
    fn galois(&self) -> Option<Arc<G>> {
        self.galois.clone()
    }
    fn set_relin(&mut self, k: Arc<R>) -> rnsfhe::Result<()> {
        self.relin = Some(k);
        Ok(())
    }
    fn set_galois(&mut self, k: Arc<G>) -> rnsfhe::Result<()> {
        self.galois = Some(k);
        Ok(())
    }
}

/// `Scheme` for an RLWE scheme's context (invoked by the scheme's module): RLWE keys, what is kept
/// beside the context (CKKS: its bootstrapping), its own operations.
macro_rules! rlwe_scheme {
    ($Ctx:ty: $Params:ty, $Pt:ty, $Ct:ty, $Tag:ty, $Extra:ty) => {
        impl crate::registry::Scheme for $Ctx {
            type Params = $Params;
            type SecretKey = rnsfhe::rlwe::SecretKey;
            type PublicKey = rnsfhe::rlwe::PublicKey;
            type RelinKey = rnsfhe::rlwe::RelinKey;
            type GaloisKeys = rnsfhe::rlwe::GaloisKeys;
            type Keys = rnsfhe::rlwe::EvaluationKeySet;
            type Plaintext = $Pt;
            type Ciphertext = $Ct;
            type Tag = $Tag;
            type Extra = $Extra;
            fn new_context(p: &$Params) -> rnsfhe::Result<std::sync::Arc<Self>> {
                <$Ctx>::new(p.clone())
            }
            fn fingerprint(&self) -> u64 {
                <$Ctx>::fingerprint(self)
            }
            fn extra(&self) -> $Extra {
                <$Extra>::default()
            }
            fn key_pair(
                &self,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> rnsfhe::Result<(rnsfhe::rlwe::SecretKey, rnsfhe::rlwe::PublicKey)> {
                self.keygen(rng)
            }
            fn encrypt_public(
                &self,
                pt: &$Pt,
                pk: &rnsfhe::rlwe::PublicKey,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> rnsfhe::Result<$Ct> {
                self.encrypt(pt, pk, rng)
            }
            fn encrypt_secret(
                &self,
                pt: &$Pt,
                sk: &rnsfhe::rlwe::SecretKey,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> rnsfhe::Result<$Ct> {
                self.encrypt_symmetric(pt, sk, rng)
            }
            fn product(&self, a: &$Ct, b: &$Ct) -> rnsfhe::Result<$Ct> {
                self.multiply_no_relin(a, b)
            }
        }
    };
}
pub(crate) use rlwe_scheme;

/// A scheme context shared by every Python object of its parameter set.
pub(crate) struct Shared<C: Scheme> {
    pub ctx: Arc<C>,
    /// The parameter set's bytes with its tag's (its identity, and what pickles carry).
    pub params_bytes: Vec<u8>,
    /// The parameter set's tag (`Scheme::Tag`).
    pub tag: C::Tag,
    /// A one-line description for messages and reprs.
    pub label: String,
    /// The scheme's `Scheme::extra`.
    pub extra: C::Extra,
    /// The registered evaluation keys of each key pair.
    keys: RwLock<BTreeMap<KeyId, C::Keys>>,
}

impl<C: Scheme> Shared<C> {
    /// The relinearisation key registered for key pair `key` (the ciphertext's), or a
    /// `MissingKeyError` saying how to get one.
    pub fn relin_key(&self, what: &str, key: Option<KeyId>) -> PyResult<Arc<C::RelinKey>> {
        find(&self.keys, key, KeySet::relin).ok_or_else(|| {
            missing(
                what,
                key,
                "a relinearisation key",
                "ctx.relin_key(sk)",
                "relin_key",
            )
        })
    }
    /// The Galois keys registered for key pair `key`, or a `MissingKeyError` saying how to get them.
    pub fn galois_keys(&self, what: &str, key: Option<KeyId>) -> PyResult<Arc<C::GaloisKeys>> {
        find(&self.keys, key, KeySet::galois).ok_or_else(|| {
            missing(
                what,
                key,
                "Galois keys",
                "ctx.galois_keys(sk, steps=[...])",
                "galois_keys",
            )
        })
    }
    pub fn set_relin_key(&self, k: Arc<C::RelinKey>) -> PyResult<()> {
        self.with_set(k.key_pair(), |s| s.set_relin(k))
    }
    pub fn set_galois_keys(&self, k: Arc<C::GaloisKeys>) -> PyResult<()> {
        self.with_set(k.key_pair(), |s| s.set_galois(k))
    }
    /// Runs `f` on the key set of key pair `id` (made empty if there is none).
    fn with_set(
        &self,
        id: KeyId,
        f: impl FnOnce(&mut C::Keys) -> rnsfhe::Result<()>,
    ) -> PyResult<()> {
        let mut map = self.keys.write().unwrap_or_else(|e| e.into_inner());
        f(map.entry(id).or_default()).py()
    }
}

/// The key (`get` of a key set) of key pair `key`; for a ciphertext without identity (trivial or
/// imported), the only registered key of that kind if there is exactly one.
fn find<S: KeySet, K>(
    sets: &RwLock<BTreeMap<KeyId, S>>,
    key: Option<KeyId>,
    get: impl Fn(&S) -> Option<Arc<K>>,
) -> Option<Arc<K>> {
    let map = sets.read().unwrap_or_else(|e| e.into_inner());
    match key {
        Some(id) => map.get(&id).and_then(get),
        None => {
            let mut all = map.values().filter_map(get);
            match (all.next(), all.next()) {
                (Some(k), None) => Some(k),
                _ => None,
            }
        }
    }
}

/// The `MissingKeyError` of `what` needing `key_kind` for key pair `key`.
fn missing(what: &str, key: Option<KeyId>, key_kind: &str, generate: &str, arg: &str) -> PyErr {
    let owner = match key {
        Some(id) => format!("for key pair {id} (the ciphertext's)"),
        None => "(the ciphertext has no key identity, so pass the key explicitly)".into(),
    };
    raise(
        "MissingKeyError",
        format!(
            "{what} needs {key_kind} {owner}: generate it with {generate} using that key pair's \
             secret key, or register a loaded one with ctx.register_keys({arg}=...)"
        ),
    )
}

/// Refuses an object (`what`) of another parameter set than the context's.
pub(crate) fn same<C: Scheme>(
    a: &Arc<Shared<C>>,
    ctx: &Arc<Shared<C>>,
    what: &str,
) -> PyResult<()> {
    if Arc::ptr_eq(a, ctx) {
        Ok(())
    } else {
        Err(mismatch(what, &a.label, &ctx.label))
    }
}

/// The `ContextMismatchError` for an object (`what`) of parameter set `theirs` used with `ours`.
pub(crate) fn mismatch(what: &str, theirs: &str, ours: &str) -> PyErr {
    raise(
        "ContextMismatchError",
        format!(
            "the {what} belongs to another parameter set ({theirs}), not to this context ({ours})"
        ),
    )
}

/// Live contexts by parameter bytes with their tag's (weak: a context dies with its last Python object).
pub(crate) struct Registry<C: Scheme>(Mutex<Vec<Entry<C>>>);

/// A parameter set's bytes and its live context.
type Entry<C> = (Vec<u8>, Weak<Shared<C>>);

impl<C: Scheme> Registry<C> {
    pub const fn new() -> Self {
        Registry(Mutex::new(Vec::new()))
    }

    /// The live context whose identity (parameter bytes, then the tag's) is exactly `identity`: its
    /// parameters and tag were checked when it was made, so bytes equal to them need no parsing or
    /// checking again (unpickling many objects of one context). `None` when no live context has them.
    pub fn live(&self, identity: &[u8]) -> Option<Arc<Shared<C>>> {
        find_live(&self.lock(), identity)
    }

    /// The live context of these parameter bytes (with `tag`'s), or a new one made by `make`.
    pub fn get_or_make(
        &self,
        params_bytes: Vec<u8>,
        tag: C::Tag,
        label: String,
        make: impl FnOnce() -> rnsfhe::Result<Arc<C>>,
    ) -> rnsfhe::Result<Arc<Shared<C>>> {
        let mut live = self.lock();
        live.retain(|(_, w)| w.strong_count() > 0);
        if let Some(s) = find_live(&live, &params_bytes) {
            return Ok(s);
        }
        let ctx = make()?;
        let shared = Arc::new(Shared {
            extra: ctx.extra(),
            ctx,
            params_bytes: params_bytes.clone(),
            tag,
            label,
            keys: RwLock::new(BTreeMap::new()),
        });
        live.push((params_bytes, Arc::downgrade(&shared)));
        Ok(shared)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry<C>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The live context of `identity` among `entries` (byte-for-byte equality).
fn find_live<C: Scheme>(entries: &[Entry<C>], identity: &[u8]) -> Option<Arc<Shared<C>>> {
    entries
        .iter()
        .find(|(b, _)| b.as_slice() == identity)
        .and_then(|(_, w)| w.upgrade())
}
