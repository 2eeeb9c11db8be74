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

use crate::registry::{mismatch, Scheme, Shared};
use crate::{bytes_out, raise, reduce_ex, OrPy, Reduced};

pub(crate) type BfvShared = Shared<BfvContext>;
pub(crate) type BgvShared = Shared<BgvContext>;
pub(crate) type CkksShared = Shared<CkksContext>;

/// The context a key belongs to.
#[derive(Clone)]
pub(crate) enum Owner {
    Bfv(Arc<BfvShared>),
    Bgv(Arc<BgvShared>),
    Ckks(Arc<CkksShared>),
}

impl Owner {
    fn label(&self) -> &str {
        match self {
            Owner::Bfv(s) => &s.label,
            Owner::Bgv(s) => &s.label,
            Owner::Ckks(s) => &s.label,
        }
    }
    fn scheme(&self) -> &'static str {
        match self {
            Owner::Bfv(_) => "bfv",
            Owner::Bgv(_) => "bgv",
            Owner::Ckks(_) => "ckks",
        }
    }
    fn params_bytes(&self) -> &[u8] {
        match self {
            Owner::Bfv(s) => &s.params_bytes,
            Owner::Bgv(s) => &s.params_bytes,
            Owner::Ckks(s) => &s.params_bytes,
        }
    }
    fn key_bytes(&self) -> &dyn KeyBytes {
        match self {
            Owner::Bfv(s) => s.ctx.as_ref(),
            Owner::Bgv(s) => s.ctx.as_ref(),
            Owner::Ckks(s) => s.ctx.as_ref(),
        }
    }
    /// Refuses a key of another context than `expected`.
    fn check(&self, expected: &Owner, what: &str) -> PyResult<()> {
        let same = match (self, expected) {
            (Owner::Bfv(a), Owner::Bfv(b)) => Arc::ptr_eq(a, b),
            (Owner::Bgv(a), Owner::Bgv(b)) => Arc::ptr_eq(a, b),
            (Owner::Ckks(a), Owner::Ckks(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if same {
            Ok(())
        } else {
            Err(mismatch(what, self.label(), expected.label()))
        }
    }
}

/// A key a context just made, before it becomes its Python class (`.into()`).
pub(crate) struct Made<K> {
    pub owner: Owner,
    pub key: Arc<K>,
    pub seeded: bool,
}

macro_rules! key_class {
    ($py_name:literal, $rust:ident, $inner:ty, $what:literal, $to_bytes:ident $(, $extra:item)*) => {
        key_class!(@class $py_name, $rust, $inner, $what,
            /// The key in the rnsfhe binary format (load it with the context's `*_from_bytes`).
            fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                let b = self.owner.key_bytes().$to_bytes(&self.key);
                bytes_out(py, &b)
            },
            /// Pickles through `_restore`; from protocol 5 on the bytes go out of band.
            fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
                let b = self.owner.key_bytes().$to_bytes(&self.key);
                let kind = format!("{}:{}", self.owner.scheme(), $py_name);
                reduce_ex(py, &kind, self.owner.params_bytes(), &b, protocol)
            }
            $(, $extra)*
        );
    };
    (@class $py_name:literal, $rust:ident, $inner:ty, $what:literal $(, $extra:item)*) => {
        #[doc = concat!("A ", $what, " (made by a context; see `to_bytes` and pickling).")]
        #[pyclass(frozen, module = "rnsfhe", name = $py_name)]
        pub(crate) struct $rust {
            pub owner: Owner,
            pub key: Arc<$inner>,
            /// Made by a seeded context (reproducible: tests only).
            pub seeded: bool,
        }

        impl From<Made<$inner>> for $rust {
            fn from(m: Made<$inner>) -> Self {
                $rust {
                    owner: m.owner,
                    key: m.key,
                    seeded: m.seeded,
                }
            }
        }

        impl $rust {
            /// The inner key, checked to belong to `owner`.
            pub fn get(&self, owner: &Owner) -> PyResult<Arc<$inner>> {
                self.owner.check(owner, $what)?;
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
                    self.owner.label(),
                    self.key.id(),
                    crate::convert::seeded_note(self.seeded)
                )
            }
            /// The key from `to_bytes` output, for `context`'s parameter set (a `BfvContext`, `BgvContext`
            /// or `CkksContext`).
            #[staticmethod]
            fn from_bytes(
                py: Python<'_>,
                context: &Bound<'_, PyAny>,
                data: crate::convert::ByteData,
            ) -> PyResult<Py<PyAny>> {
                load(py, owner_of(context)?, $py_name, &data.0)
            }
            $($extra)*
        }
    };
}

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

key_class!(
    @class "SecretKey",
    PySecretKey,
    rlwe::SecretKey,
    "secret key",
    /// The secret key in the rnsfhe binary format. Refused unless `allow_secret=True`: whoever
    /// holds the bytes can decrypt every ciphertext of this key pair.
    #[pyo3(signature = (*, allow_secret=false))]
    fn to_bytes<'py>(&self, py: Python<'py>, allow_secret: bool) -> PyResult<Bound<'py, PyBytes>> {
        if !allow_secret {
            return Err(secret_export_refused("sk.to_bytes()"));
        }
        let b = self.owner.key_bytes().secret_key_to_bytes(&self.key);
        Ok(bytes_out(py, &b))
    },
    /// Secret keys do not pickle (a pickle leaves the process silently): use
    /// `to_bytes(allow_secret=True)`.
    fn __reduce__(&self) -> PyResult<()> {
        Err(secret_export_refused("pickling a secret key"))
    },
    /// The same immutable key (copies inside the process are harmless).
    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    },
    /// The same immutable key.
    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
);
key_class!(
    "PublicKey",
    PyPublicKey,
    rlwe::PublicKey,
    "public key",
    public_key_to_bytes
);
key_class!(
    "RelinKey",
    PyRelinKey,
    rlwe::RelinKey,
    "relinearisation key",
    relin_key_to_bytes
);
key_class!(
    "GaloisKeys",
    PyGaloisKeys,
    rlwe::GaloisKeys,
    "Galois keys",
    galois_keys_to_bytes,
    /// The Galois elements g (automorphisms X -> X^g) these keys cover.
    #[getter]
    fn elements(&self) -> Vec<u64> {
        self.key.elements()
    }
);

/// The relinearisation key passed, checked to be `owner`'s, or the one registered with the context
/// for key pair `key` (the ciphertext's; the scheme refuses a passed key of another pair).
pub(crate) fn relin_key<C: Scheme<RelinKey = rlwe::RelinKey>>(
    k: Option<&PyRelinKey>,
    owner: &Owner,
    shared: &Shared<C>,
    what: &str,
    key: Option<rlwe::KeyId>,
) -> PyResult<Arc<rlwe::RelinKey>> {
    match k {
        Some(k) => k.get(owner),
        None => shared.relin_key(what, key),
    }
}

/// The Galois keys passed, checked to be `owner`'s, or the ones registered with the context for key
/// pair `key`.
pub(crate) fn galois_keys<C: Scheme<GaloisKeys = rlwe::GaloisKeys>>(
    k: Option<&PyGaloisKeys>,
    owner: &Owner,
    shared: &Shared<C>,
    what: &str,
    key: Option<rlwe::KeyId>,
) -> PyResult<Arc<rlwe::GaloisKeys>> {
    match k {
        Some(k) => k.get(owner),
        None => shared.galois_keys(what, key),
    }
}

/// The owner of a `BfvContext` or `CkksContext`.
fn owner_of(context: &Bound<'_, PyAny>) -> PyResult<Owner> {
    if let Ok(c) = context.cast::<crate::bfv::PyBfvContext>() {
        Ok(c.get().owner())
    } else if let Ok(c) = context.cast::<crate::bgv::PyBgvContext>() {
        Ok(c.get().owner())
    } else if let Ok(c) = context.cast::<crate::ckks::PyCkksContext>() {
        Ok(c.get().owner())
    } else {
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "context must be a BgvContext, a BfvContext or a CkksContext, got {}",
            crate::convert::type_name(context)
        )))
    }
}

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
    Ok(match class {
        "SecretKey" => {
            let key = Arc::new(kb.secret_key_from_bytes(data).py()?);
            Py::new(
                py,
                PySecretKey {
                    owner,
                    key,
                    seeded: false,
                },
            )?
            .into_any()
        }
        "PublicKey" => {
            let key = Arc::new(kb.public_key_from_bytes(data).py()?);
            Py::new(
                py,
                PyPublicKey {
                    owner,
                    key,
                    seeded: false,
                },
            )?
            .into_any()
        }
        "RelinKey" => {
            let key = Arc::new(kb.relin_key_from_bytes(data).py()?);
            Py::new(
                py,
                PyRelinKey {
                    owner,
                    key,
                    seeded: false,
                },
            )?
            .into_any()
        }
        "GaloisKeys" => {
            let key = Arc::new(kb.galois_keys_from_bytes(data).py()?);
            Py::new(
                py,
                PyGaloisKeys {
                    owner,
                    key,
                    seeded: false,
                },
            )?
            .into_any()
        }
        other => {
            return Err(raise(
                "SerializationError",
                format!("unknown pickled key class {other:?}"),
            ))
        }
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySecretKey>()?;
    m.add_class::<PyPublicKey>()?;
    m.add_class::<PyRelinKey>()?;
    m.add_class::<PyGaloisKeys>()?;
    Ok(())
}
