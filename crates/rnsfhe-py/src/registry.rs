//! One live context per parameter set, with the evaluation keys registered for operators, found by
//! the identity of the key pair a ciphertext is encrypted under (several users may share a parameter
//! set: each one's keys serve only that user's ciphertexts).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock, Weak};

use pyo3::prelude::*;
use rnsfhe::rlwe::{GaloisKeys, KeyId, PublicKey, RelinKey, SecretKey};
use rnsfhe_math::sample::Csprng;

use crate::raise;

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
    type Plaintext;
    type Ciphertext;
    type Extra;
    fn new_context(p: &Self::Params) -> rnsfhe::Result<Arc<Self>>;
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

/// The RLWE schemes: RLWE keys, nothing beside the context, their own operations.
macro_rules! rlwe_scheme {
    ($($Ctx:ty: $Params:ty, $Pt:ty, $Ct:ty);*) => {
        $(impl Scheme for $Ctx {
            type Params = $Params;
            type SecretKey = SecretKey;
            type PublicKey = PublicKey;
            type RelinKey = RelinKey;
            type GaloisKeys = GaloisKeys;
            type Plaintext = $Pt;
            type Ciphertext = $Ct;
            type Extra = ();
            fn new_context(p: &$Params) -> rnsfhe::Result<Arc<Self>> {
                <$Ctx>::new(p.clone())
            }
            fn extra(&self) {}
            fn key_pair(&self, rng: &mut Csprng) -> rnsfhe::Result<(SecretKey, PublicKey)> {
                self.keygen(rng)
            }
            fn encrypt_public(&self, pt: &$Pt, pk: &PublicKey, rng: &mut Csprng) -> rnsfhe::Result<$Ct> {
                self.encrypt(pt, pk, rng)
            }
            fn encrypt_secret(&self, pt: &$Pt, sk: &SecretKey, rng: &mut Csprng) -> rnsfhe::Result<$Ct> {
                self.encrypt_symmetric(pt, sk, rng)
            }
            fn product(&self, a: &$Ct, b: &$Ct) -> rnsfhe::Result<$Ct> {
                self.multiply_no_relin(a, b)
            }
        })*
    };
}
rlwe_scheme!(
    rnsfhe::bfv::BfvContext: rnsfhe::bfv::BfvParameters, rnsfhe::bfv::Plaintext, rnsfhe::bfv::Ciphertext;
    rnsfhe::bgv::BgvContext: rnsfhe::bgv::BgvParameters, rnsfhe::bgv::BgvPlaintext, rnsfhe::bgv::BgvCiphertext;
    rnsfhe::ckks::CkksContext: rnsfhe::ckks::CkksParameters, rnsfhe::ckks::CkksPlaintext, rnsfhe::ckks::CkksCiphertext
);

/// A scheme context shared by every Python object of its parameter set.
pub(crate) struct Shared<C: Scheme> {
    pub ctx: Arc<C>,
    /// The parameter set's bytes (its identity, and what pickles carry).
    pub params_bytes: Vec<u8>,
    /// A one-line description for messages and reprs.
    pub label: String,
    /// The scheme's `Scheme::extra`.
    pub extra: C::Extra,
    rlk: Keyring<C::RelinKey>,
    galois: Keyring<C::GaloisKeys>,
}

/// Registered evaluation keys by key pair.
type Keyring<K> = RwLock<BTreeMap<KeyId, Arc<K>>>;

impl<C: Scheme> Shared<C> {
    /// The relinearisation key registered for key pair `key` (the ciphertext's), or a
    /// `MissingKeyError` saying how to get one.
    pub fn relin_key(&self, what: &str, key: Option<KeyId>) -> PyResult<Arc<C::RelinKey>> {
        find(&self.rlk, key).ok_or_else(|| {
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
        find(&self.galois, key).ok_or_else(|| {
            missing(
                what,
                key,
                "Galois keys",
                "ctx.galois_keys(sk, steps=[...])",
                "galois_keys",
            )
        })
    }
    pub fn set_relin_key(&self, k: Arc<C::RelinKey>) {
        insert(&self.rlk, k.key_pair(), k);
    }
    pub fn set_galois_keys(&self, k: Arc<C::GaloisKeys>) {
        insert(&self.galois, k.key_pair(), k);
    }
}

/// The key of key pair `key`; for a ciphertext without identity (trivial or imported), the only
/// registered key if there is exactly one.
fn find<K>(ring: &Keyring<K>, key: Option<KeyId>) -> Option<Arc<K>> {
    let map = ring.read().unwrap_or_else(|e| e.into_inner());
    match key {
        Some(id) => map.get(&id).cloned(),
        None if map.len() == 1 => map.values().next().cloned(),
        None => None,
    }
}

fn insert<K>(ring: &Keyring<K>, id: KeyId, k: Arc<K>) {
    ring.write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, k);
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

/// Live contexts by parameter bytes (weak: a context dies with its last Python object).
pub(crate) struct Registry<C: Scheme>(Mutex<Vec<Entry<C>>>);

/// A parameter set's bytes and its live context.
type Entry<C> = (Vec<u8>, Weak<Shared<C>>);

impl<C: Scheme> Registry<C> {
    pub const fn new() -> Self {
        Registry(Mutex::new(Vec::new()))
    }

    /// The live context of these parameter bytes, or a new one made by `make`.
    pub fn get_or_make(
        &self,
        params_bytes: Vec<u8>,
        label: String,
        make: impl FnOnce() -> rnsfhe::Result<Arc<C>>,
    ) -> rnsfhe::Result<Arc<Shared<C>>> {
        let mut live = self.0.lock().unwrap_or_else(|e| e.into_inner());
        live.retain(|(_, w)| w.strong_count() > 0);
        if let Some(s) = live
            .iter()
            .find(|(b, _)| *b == params_bytes)
            .and_then(|(_, w)| w.upgrade())
        {
            return Ok(s);
        }
        let ctx = make()?;
        let shared = Arc::new(Shared {
            extra: ctx.extra(),
            ctx,
            params_bytes: params_bytes.clone(),
            label,
            rlk: RwLock::new(BTreeMap::new()),
            galois: RwLock::new(BTreeMap::new()),
        });
        live.push((params_bytes, Arc::downgrade(&shared)));
        Ok(shared)
    }
}
