//! The binding layer every scheme shares (BFV, BGV, CKKS and HPR): `scheme_context!` writes each
//! scheme's context class (construction, key generation and registration, encryption, add / sub /
//! products, keys and values from bytes, pickling), `rlwe_context!` adds what the RLWE schemes share
//! on top (their key classes and relinearisation key), and `rlwe_values!` writes the plaintext and
//! ciphertext classes (bytes, pickling, identity, `**`).
//! Each takes the scheme's own methods as `methods { ... }` and puts them in the same `#[pymethods]`
//! block, since PyO3 allows one block per class (see `lib.rs`).
//!
//! `rlwe_params.rs` holds the same for the parameter classes, the builder keywords and unpickling.
//!
//! The macros name, at their call site, the scheme module's imports (`Arc`, `LockedRng`, `Owner`,
//! `ByteData`, the key classes, `keys`, `same`, `OrPy`, `reduce`, `bytes_out`, `type_name`,
//! `security_out`, `PyTypeError`), its `CONTEXTS` registry and its `label(&params)`.

/// Every scheme's context class (HPR's too): the struct, its Rust helpers (`ctx`, `wrap`, `check`,
/// `plaintext`, `unary`, `from_shared`, `rlk`, `gk`, `key`) and the Python methods every scheme has
/// (construction, `params`, `keygen`, `encrypt`, `multiply_no_relin`, keys from bytes,
/// `register_keys`, `add`, `sub`, plaintext and ciphertext bytes, the context's bytes and pickling,
/// `security`, repr), with the scheme's own `methods`. The scheme provides `owner(&self)`, what its
/// key classes' `get` checks against, and `plain(&self, x)`: a plaintext given or values to encode
/// for encryption. The scheme's Rust operations are called through `registry::Scheme`.
macro_rules! scheme_context {
    (
        $(#[$doc:meta])*
        class $Py:ident($name:literal, $Shared:ty, $Ctx:ty);
        params $PyParams:ident($Params:ty, default $default:expr);
        plaintext $PyPt:ident($Pt:ty);
        ciphertext $PyCt:ident($Ct:ty);
        keys $PySk:ident, $PyPk:ident, $PyRlk:ident, $PyGk:ident owned by $KOwner:ty;
        methods { $($extra:tt)* }
    ) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "rnsfhe", name = $name)]
        pub(crate) struct $Py {
            pub(crate) shared: Arc<$Shared>,
            pub(crate) rng: LockedRng,
        }

        impl $Py {
            pub(crate) fn ctx(&self) -> &Arc<$Ctx> {
                &self.shared.ctx
            }
            pub(crate) fn wrap(&self, ct: $Ct) -> $PyCt {
                $PyCt {
                    shared: self.shared.clone(),
                    ct: Arc::new(ct),
                }
            }
            pub(crate) fn plaintext(&self, pt: $Pt) -> $PyPt {
                $PyPt {
                    shared: self.shared.clone(),
                    pt: Arc::new(pt),
                }
            }
            /// The ciphertext, checked to be of this context.
            pub(crate) fn check(&self, c: &$PyCt) -> PyResult<Arc<$Ct>> {
                same(&c.shared, &self.shared, "ciphertext")?;
                Ok(c.ct.clone())
            }
            /// Runs `f` on the context and one ciphertext of this context without the GIL.
            pub(crate) fn unary(
                &self,
                py: Python<'_>,
                a: &$PyCt,
                f: impl FnOnce(&$Ctx, &$Ct) -> rnsfhe::Result<$Ct> + Send,
            ) -> PyResult<$PyCt> {
                let x = self.check(a)?;
                let ctx = self.ctx().clone();
                Ok(self.wrap(py.detach(|| f(&ctx, &x)).py()?))
            }
            pub(crate) fn from_shared(shared: Arc<$Shared>) -> PyResult<Self> {
                Ok($Py {
                    shared,
                    rng: LockedRng::new(None)?,
                })
            }
            /// The relinearisation key passed (checked to be this context's), or the one registered
            /// for key pair `key` (the ciphertext's; the scheme refuses a passed key of another pair).
            pub(crate) fn rlk(
                &self,
                k: Option<&$PyRlk>,
                what: &str,
                key: Option<rnsfhe::rlwe::KeyId>,
            ) -> PyResult<Arc<<$Ctx as crate::registry::Scheme>::RelinKey>> {
                match k {
                    Some(k) => k.get(&self.owner()),
                    None => self.shared.relin_key(what, key),
                }
            }
            /// The Galois keys passed (checked to be this context's), or the ones registered for
            /// key pair `key`.
            pub(crate) fn gk(
                &self,
                k: Option<&$PyGk>,
                what: &str,
                key: Option<rnsfhe::rlwe::KeyId>,
            ) -> PyResult<Arc<<$Ctx as crate::registry::Scheme>::GaloisKeys>> {
                match k {
                    Some(k) => k.get(&self.owner()),
                    None => self.shared.galois_keys(what, key),
                }
            }
            /// A Python key class around a fresh key of this context.
            fn key<K>(&self, key: K) -> crate::keys::Made<K, $KOwner> {
                crate::keys::Made {
                    owner: self.owner(),
                    key: Arc::new(key),
                    seeded: self.rng.seeded(),
                }
            }
        }

        #[pymethods]
        impl $Py {
            #[new]
            #[pyo3(signature = (params=None, *, seed=None))]
            fn new(params: Option<&$PyParams>, seed: Option<&[u8]>) -> PyResult<Self> {
                let shared = match params {
                    Some(p) => p.shared()?,
                    None => $PyParams::from($default.py()?).shared()?,
                };
                Ok($Py {
                    shared,
                    rng: LockedRng::new(seed)?,
                })
            }
            #[getter]
            fn params(&self) -> $PyParams {
                $PyParams::of(&self.shared)
            }
            /// A fresh secret key and its public key.
            fn keygen(&self, py: Python<'_>) -> PyResult<($PySk, $PyPk)> {
                let ctx = self.ctx().clone();
                let (sk, pk) = py
                    .detach(|| self.rng.with(|r| crate::registry::Scheme::key_pair(&*ctx, r)))
                    .py()?;
                Ok((self.key(sk).into(), self.key(pk).into()))
            }
            /// Encrypts a plaintext or values (as `encode` takes them): with a public key, or with a
            /// secret key (symmetric; stored at half size by `to_bytes` where the scheme seeds it).
            fn encrypt(
                &self,
                py: Python<'_>,
                x: &Bound<'_, PyAny>,
                key: &Bound<'_, PyAny>,
            ) -> PyResult<$PyCt> {
                use crate::registry::Scheme;
                let pt = self.plain(x)?;
                let ctx = self.ctx().clone();
                let ct = if let Ok(pk) = key.cast::<$PyPk>() {
                    let pk = pk.get().get(&self.owner())?;
                    py.detach(|| self.rng.with(|r| ctx.encrypt_public(&pt, &pk, r)))
                } else if let Ok(sk) = key.cast::<$PySk>() {
                    let sk = sk.get().get(&self.owner())?;
                    py.detach(|| self.rng.with(|r| ctx.encrypt_secret(&pt, &sk, r)))
                } else {
                    return Err(PyTypeError::new_err(format!(
                        "encrypt needs a {} or a {}, got {}",
                        <$PyPk as pyo3::PyClass>::NAME,
                        <$PySk as pyo3::PyClass>::NAME,
                        type_name(key)
                    )));
                };
                Ok(self.wrap(ct.py()?))
            }
            /// a * b without relinearisation (3 parts; HPR: Bajard et al. (HPR-FV, ePrint 2019/500) Prop. 1, eq. (16)).
            fn multiply_no_relin(&self, py: Python<'_>, a: &$PyCt, b: &$PyCt) -> PyResult<$PyCt> {
                let y = self.check(b)?;
                self.unary(py, a, |ctx, x| crate::registry::Scheme::product(ctx, x, &y))
            }
            /// A secret key from its `to_bytes(allow_secret=True)` output.
            fn secret_key_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
                let class = <$PySk as pyo3::PyClass>::NAME;
                crate::keys::KeyOwner::load(self.owner(), py, class, &data.0)
            }
            fn public_key_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
                let class = <$PyPk as pyo3::PyClass>::NAME;
                crate::keys::KeyOwner::load(self.owner(), py, class, &data.0)
            }
            fn relin_key_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
                let class = <$PyRlk as pyo3::PyClass>::NAME;
                crate::keys::KeyOwner::load(self.owner(), py, class, &data.0)
            }
            fn galois_keys_from_bytes(&self, py: Python<'_>, data: ByteData) -> PyResult<Py<PyAny>> {
                let class = <$PyGk as pyo3::PyClass>::NAME;
                crate::keys::KeyOwner::load(self.owner(), py, class, &data.0)
            }
            /// Registers loaded evaluation keys for the operators and ciphertext methods.
            #[pyo3(signature = (*, relin_key=None, galois_keys=None))]
            fn register_keys(
                &self,
                relin_key: Option<&$PyRlk>,
                galois_keys: Option<&$PyGk>,
            ) -> PyResult<()> {
                if let Some(k) = relin_key {
                    self.shared.set_relin_key(k.get(&self.owner())?)?;
                }
                if let Some(k) = galois_keys {
                    self.shared.set_galois_keys(k.get(&self.owner())?)?;
                }
                Ok(())
            }
            fn add(&self, a: &$PyCt, b: &$PyCt) -> PyResult<$PyCt> {
                let (x, y) = (self.check(a)?, self.check(b)?);
                Ok(self.wrap(self.ctx().add(&x, &y).py()?))
            }
            fn sub(&self, a: &$PyCt, b: &$PyCt) -> PyResult<$PyCt> {
                let (x, y) = (self.check(a)?, self.check(b)?);
                Ok(self.wrap(self.ctx().sub(&x, &y).py()?))
            }
            /// A ciphertext from the ciphertext class's `to_bytes` output of this parameter set.
            pub(crate) fn ciphertext_from_bytes(&self, data: ByteData) -> PyResult<$PyCt> {
                Ok(self.wrap(self.ctx().ciphertext_from_bytes(&data.0).py()?))
            }
            /// A plaintext from the plaintext class's `to_bytes` output of this parameter set.
            pub(crate) fn plaintext_from_bytes(&self, data: ByteData) -> PyResult<$PyPt> {
                Ok(self.plaintext(self.ctx().plaintext_from_bytes(&data.0).py()?))
            }
            /// The context's parameter set as bytes (`from_bytes` rebuilds the context).
            fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                bytes_out(py, &self.shared.params_bytes)
            }
            /// The context of a parameter set's bytes (validated again, security included, unless
            /// a live context has exactly these bytes). A set marked insecure loads only with
            /// `security="insecure"`, the opt-in its constructor asked for.
            #[staticmethod]
            #[pyo3(signature = (data, security = None))]
            fn from_bytes(data: ByteData, security: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                let allow = crate::insecure::insecure_opt_in(security)?;
                Self::from_shared($PyParams::shared_of(&data.0, allow)?)
            }
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
                reduce(py, $name, &self.shared.params_bytes, &[])
            }
            fn __repr__(&self) -> String {
                crate::convert::context_repr($name, &self.shared.label, &self.rng)
            }
            /// The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a
            /// context made with `seed=` (reproducible keys and encryptions: tests only).
            #[getter]
            fn security(&self) -> String {
                crate::convert::context_security(self.ctx().params().security(), &self.rng)
            }
            /// The parameter set's fingerprint (16 hex digits): every plaintext, ciphertext and key
            /// of these parameters carries it in its bytes, and loading refuses another.
            #[getter]
            fn fingerprint(&self) -> String {
                format!("{:016x}", crate::registry::Scheme::fingerprint(&**self.ctx()))
            }
            $($extra)*
        }
    };
}
pub(crate) use scheme_context;

/// An RLWE scheme's context class (BFV, BGV, CKKS): `scheme_context!` with the RLWE key classes,
/// their `owner` and `relin_key`.
macro_rules! rlwe_context {
    (
        $(#[$doc:meta])*
        class $Py:ident($name:literal, $Owner:ident, $Shared:ty, $Ctx:ty);
        params $PyParams:ident($Params:ty, default $default:expr);
        plaintext $PyPt:ident($Pt:ty);
        ciphertext $PyCt:ident($Ct:ty);
        methods { $($extra:tt)* }
    ) => {
        crate::rlwe_context::scheme_context! {
            $(#[$doc])*
            class $Py($name, $Shared, $Ctx);
            params $PyParams($Params, default $default);
            plaintext $PyPt($Pt);
            ciphertext $PyCt($Ct);
            keys PySecretKey, PyPublicKey, PyRelinKey, PyGaloisKeys owned by Owner;
            methods {
                /// The relinearisation key of `sk`; also registered for `*` and `**` on ciphertexts.
                fn relin_key(&self, py: Python<'_>, sk: &PySecretKey) -> PyResult<PyRelinKey> {
                    let s = sk.get(&self.owner())?;
                    let ctx = self.ctx().clone();
                    let k = py.detach(|| self.rng.with(|r| ctx.relin_key(&s, r))).py()?;
                    let k: PyRelinKey = self.key(k).into();
                    self.shared.set_relin_key(k.key.clone())?;
                    Ok(k)
                }
                $($extra)*
            }
        }

        impl $Py {
            pub(crate) fn owner(&self) -> Owner {
                Owner::$Owner(self.shared.clone())
            }
        }
    };
}
pub(crate) use rlwe_context;

/// A scheme's plaintext and ciphertext classes: the structs and the methods every scheme has
/// (`from_bytes`, `to_bytes`, pickling, numpy deferral; `key_id`, `size`, `context` and `**` on
/// ciphertexts), with the scheme's own `methods` for each. The scheme provides the ciphertext's
/// `power(ctx, x, k, relin_key)`: x^k by its products.
macro_rules! rlwe_values {
    (
        context $PyCtx:ident($Shared:ty, $Ctx:ty);
        $(#[$pdoc:meta])*
        plaintext $PyPt:ident($pname:literal, $Pt:ty) { $($pextra:tt)* }
        $(#[$cdoc:meta])*
        ciphertext $PyCt:ident($cname:literal, $Ct:ty) { $($cextra:tt)* }
    ) => {
        $(#[$pdoc])*
        #[pyclass(frozen, module = "rnsfhe", name = $pname)]
        pub(crate) struct $PyPt {
            pub(crate) shared: Arc<$Shared>,
            pub(crate) pt: Arc<$Pt>,
        }

        #[pymethods]
        impl $PyPt {
            /// A plaintext from `to_bytes` output, for `context`'s parameter set.
            #[staticmethod]
            fn from_bytes(context: &$PyCtx, data: ByteData) -> PyResult<Self> {
                context.plaintext_from_bytes(data)
            }
            /// None: numpy defers its operators to this class (no array of plaintexts from
            /// `array + pt`).
            #[classattr]
            fn __array_ufunc__(py: Python<'_>) -> Py<PyAny> {
                py.None()
            }
            fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                Ok(bytes_out(py, &self.shared.ctx.plaintext_to_bytes(&self.pt).py()?))
            }
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
                let b = self.shared.ctx.plaintext_to_bytes(&self.pt).py()?;
                reduce(py, $pname, &self.shared.params_bytes, &b)
            }
            $($pextra)*
        }

        $(#[$cdoc])*
        #[pyclass(frozen, module = "rnsfhe", name = $cname)]
        pub(crate) struct $PyCt {
            pub(crate) shared: Arc<$Shared>,
            pub(crate) ct: Arc<$Ct>,
        }

        impl $PyCt {
            pub(crate) fn wrap(&self, ct: $Ct) -> $PyCt {
                $PyCt {
                    shared: self.shared.clone(),
                    ct: Arc::new(ct),
                }
            }
            pub(crate) fn ctx(&self) -> &Arc<$Ctx> {
                &self.shared.ctx
            }
        }

        #[pymethods]
        impl $PyCt {
            /// A ciphertext from `to_bytes` output, for `context`'s parameter set.
            #[staticmethod]
            fn from_bytes(context: &$PyCtx, data: ByteData) -> PyResult<Self> {
                context.ciphertext_from_bytes(data)
            }
            /// None: numpy defers `array + ct` (and `- *`) to `ct.__radd__`, the slot-wise sum.
            #[classattr]
            fn __array_ufunc__(py: Python<'_>) -> Py<PyAny> {
                py.None()
            }
            /// The identity of the key pair it is encrypted under (16 hex digits; None for a
            /// trivial ciphertext). Operators find the evaluation keys registered for this key pair.
            #[getter]
            fn key_id(&self) -> Option<String> {
                self.ct.key_id().map(|k| k.to_string())
            }
            /// Number of polynomials (2, or 3 after `multiply_no_relin`).
            #[getter]
            fn size(&self) -> usize {
                self.ct.size()
            }
            /// A context of this ciphertext's parameter set.
            #[getter]
            fn context(&self) -> PyResult<$PyCtx> {
                $PyCtx::from_shared(self.shared.clone())
            }
            /// The ciphertext in the rnsfhe binary format.
            fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                Ok(bytes_out(py, &self.ctx().ciphertext_to_bytes(&self.ct).py()?))
            }
            /// Pickles through `_restore`; from protocol 5 on the bytes go out of band.
            fn __reduce_ex__<'py>(&self, py: Python<'py>, protocol: i64) -> PyResult<Reduced<'py>> {
                let b = self.ctx().ciphertext_to_bytes(&self.ct).py()?;
                crate::reduce_ex(py, $cname, &self.shared.params_bytes, &b, protocol)
            }
            /// x ** k for 1 <= k <= 64 by square-and-multiply (depth ceil(log2 k); CKKS: at most
            /// ceil(log2 k) + popcount(k) levels), relinearised with the registered key of the key
            /// pair.
            fn __pow__(
                &self,
                py: Python<'_>,
                k: &Bound<'_, PyAny>,
                modulo: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<$PyCt> {
                let k = crate::convert::power(k, modulo)?;
                let key = self.shared.relin_key("ciphertext ** k", self.ct.key_id())?;
                let (ctx, x) = (self.ctx().clone(), self.ct.clone());
                Ok(self.wrap(py.detach(|| Self::power(&ctx, &x, k, &key)).py()?))
            }
            $($cextra)*
        }
    };
}
pub(crate) use rlwe_values;
