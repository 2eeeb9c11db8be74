//! One live context per parameter set, with the evaluation keys registered for operators.

use std::sync::{Arc, Mutex, RwLock, Weak};

use pyo3::prelude::*;
use rnsfhe::rlwe::{GaloisKeys, RelinKey};

use crate::raise;

/// A scheme context shared by every Python object of its parameter set.
pub(crate) struct Shared<C> {
    pub ctx: Arc<C>,
    /// The parameter set's bytes (its identity, and what pickles carry).
    pub params_bytes: Vec<u8>,
    /// A one-line description for messages and reprs.
    pub label: String,
    rlk: RwLock<Option<Arc<RelinKey>>>,
    galois: RwLock<Option<Arc<GaloisKeys>>>,
}

impl<C> Shared<C> {
    /// The registered relinearisation key, or a `MissingKeyError` saying how to get one.
    pub fn relin_key(&self, what: &str) -> PyResult<Arc<RelinKey>> {
        read(&self.rlk).ok_or_else(|| {
            raise(
                "MissingKeyError",
                format!(
                    "{what} needs a relinearisation key: generate one with ctx.relin_key(sk) or \
                     register a loaded one with ctx.register_keys(relin_key=...)"
                ),
            )
        })
    }
    /// The registered Galois keys, or a `MissingKeyError` saying how to get them.
    pub fn galois_keys(&self, what: &str) -> PyResult<Arc<GaloisKeys>> {
        read(&self.galois).ok_or_else(|| {
            raise(
                "MissingKeyError",
                format!(
                    "{what} needs Galois keys: generate them with ctx.galois_keys(sk, steps=[...]) \
                     or register loaded ones with ctx.register_keys(galois_keys=...)"
                ),
            )
        })
    }
    pub fn set_relin_key(&self, k: Arc<RelinKey>) {
        write(&self.rlk, k);
    }
    pub fn set_galois_keys(&self, k: Arc<GaloisKeys>) {
        write(&self.galois, k);
    }
}

/// Refuses an object (`what`) of another parameter set than the context's.
pub(crate) fn same<C>(a: &Arc<Shared<C>>, ctx: &Arc<Shared<C>>, what: &str) -> PyResult<()> {
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

fn read<T>(l: &RwLock<Option<Arc<T>>>) -> Option<Arc<T>> {
    l.read().unwrap_or_else(|e| e.into_inner()).clone()
}

fn write<T>(l: &RwLock<Option<Arc<T>>>, v: Arc<T>) {
    *l.write().unwrap_or_else(|e| e.into_inner()) = Some(v);
}

/// Live contexts by parameter bytes (weak: a context dies with its last Python object).
pub(crate) struct Registry<C>(Mutex<Vec<Entry<C>>>);

/// A parameter set's bytes and its live context.
type Entry<C> = (Vec<u8>, Weak<Shared<C>>);

impl<C> Registry<C> {
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
        let shared = Arc::new(Shared {
            ctx: make()?,
            params_bytes: params_bytes.clone(),
            label,
            rlk: RwLock::new(None),
            galois: RwLock::new(None),
        });
        live.push((params_bytes, Arc::downgrade(&shared)));
        Ok(shared)
    }
}
