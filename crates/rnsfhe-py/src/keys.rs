//! Keys of either scheme: secret, public, relinearisation and Galois keys. A key remembers its
//! context; using it with another parameter set raises `ContextMismatchError`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rnsfhe::bfv::BfvContext;
use rnsfhe::bgv::BgvContext;
use rnsfhe::ckks::CkksContext;
use rnsfhe::rlwe;
use rnsfhe::serialize::KeyBytes;

use crate::registry::{mismatch, Shared};
use crate::{bytes_out, raise, reduce_ex, OrPy, Reduced};

pub(crate) type BfvShared = Shared<BfvContext>;
pub(crate) type BgvShared = Shared<BgvContext>;
pub(crate) type CkksShared = Shared<CkksContext>;

/// The context a key of an RLWE scheme belongs to (its `KeyOwner` is in `rlwe_owner.rs`, which
/// knows the schemes' Python context classes).
#[derive(Clone)]
pub(crate) enum Owner {
    Bfv(Arc<BfvShared>),
    Bgv(Arc<BgvShared>),
    Ckks(Arc<CkksShared>),
}

/// What a key class remembers of its context and how its keys go to and come from bytes: the RLWE
/// schemes' `Owner`, HPR's shared context (`hpr::keys`).
pub(crate) trait KeyOwner: Sized {
    /// The parameter set's one-line description.
    fn label(&self) -> &str;
    fn params_bytes(&self) -> &[u8];
    /// The pickle kind of key class `class` ("bfv:PublicKey"; HPR's class names are their own).
    fn kind(&self, class: &str) -> String;
    /// Whether `other` is the same context.
    fn same(&self, other: &Self) -> bool;
    /// The owner of a context object (`Key.from_bytes(context, data)`).
    fn of(context: &Bound<'_, PyAny>) -> PyResult<Self>;
    /// A key of Python class `class` loaded from bytes.
    fn load(self, py: Python<'_>, class: &str, data: &[u8]) -> PyResult<Py<PyAny>>;
    /// Refuses a key of another context than `expected`.
    fn check(&self, expected: &Self, what: &str) -> PyResult<()> {
        if self.same(expected) {
            Ok(())
        } else {
            Err(mismatch(what, self.label(), expected.label()))
        }
    }
}

/// A key's bytes in the rnsfhe format (`Zeroizing` for a secret key).
pub(crate) trait KeyToBytes<K> {
    type Bytes: AsRef<[u8]>;
    fn key_to_bytes(&self, key: &K) -> rnsfhe::Result<Self::Bytes>;
}

impl Owner {
    pub(crate) fn scheme(&self) -> &'static str {
        match self {
            Owner::Bfv(_) => "bfv",
            Owner::Bgv(_) => "bgv",
            Owner::Ckks(_) => "ckks",
        }
    }
    fn key_bytes(&self) -> &dyn KeyBytes {
        match self {
            Owner::Bfv(s) => s.ctx.as_ref(),
            Owner::Bgv(s) => s.ctx.as_ref(),
            Owner::Ckks(s) => s.ctx.as_ref(),
        }
    }
}

/// The RLWE keys' bytes, through the scheme's `KeyBytes`.
macro_rules! owner_key_bytes {
    ($($K:ty: $to:ident -> $B:ty),*) => {
        $(impl KeyToBytes<$K> for Owner {
            type Bytes = $B;
            fn key_to_bytes(&self, key: &$K) -> rnsfhe::Result<$B> {
                Ok(self.key_bytes().$to(key))
            }
        })*
    };
}
impl KeyToBytes<rlwe::SecretKey> for Owner {
    type Bytes = zeroize::Zeroizing<Vec<u8>>;
    fn key_to_bytes(&self, key: &rlwe::SecretKey) -> rnsfhe::Result<Self::Bytes> {
        self.key_bytes().secret_key_to_bytes(key)
    }
}
owner_key_bytes!(
    rlwe::PublicKey: public_key_to_bytes -> Vec<u8>,
    rlwe::RelinKey: relin_key_to_bytes -> Vec<u8>,
    rlwe::GaloisKeys: galois_keys_to_bytes -> Vec<u8>
);

/// A key a context just made, before it becomes its Python class (`.into()`).
pub(crate) struct Made<K, O = Owner> {
    pub owner: O,
    pub key: Arc<K>,
    pub seeded: bool,
}

/// A key class of owner type `$Owner` (`KeyOwner`): a public one with bytes and pickling, or with
/// `@secret` a secret one (bytes only when asked for, no pickling), with the class's own `$extra`
/// methods.
macro_rules! key_class {
    ($py_name:literal, $rust:ident, $inner:ty, $what:literal, $Owner:ty $(, $extra:item)*) => {
        crate::keys::key_class!(@class $py_name, $rust, $inner, $what, $Owner,
            /// The key in the rnsfhe binary format (load it with the context's `*_from_bytes`).
            fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                Ok(bytes_out(py, self.owner.key_to_bytes(&*self.key).py()?.as_ref()))
            },
            /// Pickles through `_restore`; from protocol 5 on the bytes go out of band.
            fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
                let b = self.owner.key_to_bytes(&*self.key).py()?;
                let kind = self.owner.kind($py_name);
                reduce_ex(py, &kind, self.owner.params_bytes(), b.as_ref(), protocol)
            }
            $(, $extra)*
        );
    };
    (@secret $py_name:literal, $rust:ident, $inner:ty, $Owner:ty $(, $extra:item)*) => {
        crate::keys::key_class!(@class $py_name, $rust, $inner, "secret key", $Owner,
            /// The secret key in the rnsfhe binary format. Refused unless `allow_secret=True`:
            /// whoever holds the bytes can decrypt every ciphertext of this key pair.
            #[pyo3(signature = (*, allow_secret=false))]
            fn to_bytes<'py>(&self, py: Python<'py>, allow_secret: bool) -> PyResult<Bound<'py, PyBytes>> {
                if !allow_secret {
                    return Err(crate::keys::secret_export_refused("sk.to_bytes()"));
                }
                Ok(bytes_out(py, self.owner.key_to_bytes(&*self.key).py()?.as_ref()))
            },
            /// Secret keys do not pickle (a pickle leaves the process silently): use
            /// `to_bytes(allow_secret=True)`.
            fn __reduce__(&self) -> PyResult<()> {
                Err(crate::keys::secret_export_refused("pickling a secret key"))
            },
            /// The same immutable key (copies inside the process are harmless).
            fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
                slf
            },
            /// The same immutable key.
            fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
                slf
            }
            $(, $extra)*
        );
    };
    (@class $py_name:literal, $rust:ident, $inner:ty, $what:literal, $Owner:ty $(, $extra:item)*) => {
        #[doc = concat!("A ", $what, " (made by a context; see `to_bytes` and pickling).")]
        #[pyclass(frozen, module = "rnsfhe", name = $py_name)]
        pub(crate) struct $rust {
            pub owner: $Owner,
            pub key: Arc<$inner>,
            /// Made by a seeded context (reproducible: tests only).
            pub seeded: bool,
        }

        impl From<crate::keys::Made<$inner, $Owner>> for $rust {
            fn from(m: crate::keys::Made<$inner, $Owner>) -> Self {
                $rust {
                    owner: m.owner,
                    key: m.key,
                    seeded: m.seeded,
                }
            }
        }

        impl $rust {
            /// The inner key, checked to belong to `owner`.
            pub fn get(&self, owner: &$Owner) -> PyResult<Arc<$inner>> {
                crate::keys::KeyOwner::check(&self.owner, owner, $what)?;
                Ok(self.key.clone())
            }
        }

        #[pymethods]
        impl $rust {
            /// The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys.
            #[getter]
            fn key_id(&self) -> String {
                self.key.id().to_string()
            }
            fn __repr__(&self) -> String {
                format!(
                    concat!($py_name, "({}, key pair {}{})"),
                    crate::keys::KeyOwner::label(&self.owner),
                    self.key.id(),
                    crate::convert::seeded_note(self.seeded)
                )
            }
            /// The key from `to_bytes` output, for `context`'s parameter set (a context of the
            /// key's scheme).
            #[staticmethod]
            fn from_bytes(
                py: Python<'_>,
                context: &Bound<'_, PyAny>,
                data: crate::convert::ByteData,
            ) -> PyResult<Py<PyAny>> {
                let owner = <$Owner as crate::keys::KeyOwner>::of(context)?;
                crate::keys::KeyOwner::load(owner, py, $py_name, &data.0)
            }
            $($extra)*
        }
    };
}
pub(crate) use key_class;

/// The refusal to export a secret key without `allow_secret=True`.
pub(crate) fn secret_export_refused(how: &str) -> PyErr {
    raise(
        "SecretKeyExportError",
        format!(
            "{how} would copy the secret key out of this process; whoever holds those bytes can \
             decrypt. If that is intended, call sk.to_bytes(allow_secret=True) and load the bytes \
             with ctx.secret_key_from_bytes(...)"
        ),
    )
}

key_class!(@secret "SecretKey", PySecretKey, rlwe::SecretKey, Owner);
key_class!(
    "PublicKey",
    PyPublicKey,
    rlwe::PublicKey,
    "public key",
    Owner
);
key_class!(
    "RelinKey",
    PyRelinKey,
    rlwe::RelinKey,
    "relinearisation key",
    Owner
);
key_class!(
    "GaloisKeys",
    PyGaloisKeys,
    rlwe::GaloisKeys,
    "Galois keys",
    Owner,
    /// The Galois elements g (automorphisms X -> X^g) these keys cover.
    #[getter]
    fn elements(&self) -> Vec<u64> {
        self.key.elements()
    }
);

/// A pickled key of this scheme (`class` is the kind without its `bfv:`/`bgv:`/`ckks:` prefix, `None` when
/// the prefix was not this scheme's).
pub(crate) fn restore(
    py: Python<'_>,
    owner: Owner,
    class: Option<&str>,
    kind: &str,
    data: &[u8],
) -> PyResult<Py<PyAny>> {
    match class {
        Some(class) => load(py, owner, class, data),
        None => Err(raise(
            "SerializationError",
            format!("unknown pickled class {kind:?}"),
        )),
    }
}

/// A key of class `class` loaded from bytes for `owner`'s context.
pub(crate) fn load(py: Python<'_>, owner: Owner, class: &str, data: &[u8]) -> PyResult<Py<PyAny>> {
    let kb = owner.key_bytes();
    match class {
        "SecretKey" => loaded::<_, PySecretKey, _>(py, kb.secret_key_from_bytes(data), owner),
        "PublicKey" => loaded::<_, PyPublicKey, _>(py, kb.public_key_from_bytes(data), owner),
        "RelinKey" => loaded::<_, PyRelinKey, _>(py, kb.relin_key_from_bytes(data), owner),
        "GaloisKeys" => loaded::<_, PyGaloisKeys, _>(py, kb.galois_keys_from_bytes(data), owner),
        // CKKS restores its own (`ckks::restore`); any other scheme's are refused.
        "BootstrappingKeys" => Err(raise(
            "SerializationError",
            "bootstrapping keys are CKKS keys".into(),
        )),
        other => Err(raise(
            "SerializationError",
            format!("unknown pickled key class {other:?}"),
        )),
    }
}

/// The Python key class `C` around a key loaded from bytes.
pub(crate) fn loaded<K, C, O>(
    py: Python<'_>,
    key: rnsfhe::Result<K>,
    owner: O,
) -> PyResult<Py<PyAny>>
where
    C: pyo3::PyClass + From<Made<K, O>>,
    pyo3::PyClassInitializer<C>: From<C>,
{
    let made = Made {
        key: Arc::new(key.py()?),
        owner,
        seeded: false,
    };
    Ok(Py::new(py, C::from(made))?.into_any())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySecretKey>()?;
    m.add_class::<PyPublicKey>()?;
    m.add_class::<PyRelinKey>()?;
    m.add_class::<PyGaloisKeys>()?;
    Ok(())
}
