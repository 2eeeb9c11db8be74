//! The parameter side of the binding layer every scheme shares: `rlwe_params!` writes each scheme's
//! parameter class (with its tag and its `shared()` context), `builder_options!` applies the builder keywords
//! every RLWE scheme takes, `rlwe_restore!` unpickles a scheme's objects and keys. Like the macros of
//! `rlwe_context.rs`, they name the scheme module's imports at their call site.

/// Rebuilds a pickled object or key of one scheme: `$prefix` is its class-name prefix ("Bfv"), `$key`
/// its key prefix ("bfv:"). With `keys(py, ctx, class, data) => expr` in place of `$key`, `expr`
/// rebuilds the scheme's keys (`class`: the kind without `$prefix`).
macro_rules! rlwe_restore {
    ($PyParams:ident($Params:ty), $PyCtx:ident, $prefix:literal, $key:literal) => {
        crate::rlwe_params::rlwe_restore!($PyParams($Params), $PyCtx, $prefix,
            keys(py, ctx, class, data, kind) =>
                keys::restore(py, ctx.owner(), kind.strip_prefix($key), kind, data)?);
    };
    (
        $PyParams:ident($Params:ty), $PyCtx:ident, $prefix:literal,
        keys($py:ident, $ctx:ident, $class:ident, $data:ident, $kind:ident) => $keys:expr
    ) => {
        /// Rebuilds a pickled object or key of this scheme.
        pub(crate) fn restore(
            $py: Python<'_>,
            $kind: &str,
            params: &[u8],
            $data: &[u8],
        ) -> PyResult<Py<PyAny>> {
            let $class = $kind.strip_prefix($prefix);
            if $class == Some("Parameters") {
                return Ok(Py::new($py, $PyParams::from_identity(params, false)?)?.into_any());
            }
            let $ctx = $PyCtx::from_shared($PyParams::shared_of(params, false)?)?;
            let bytes = || ByteData($data.to_vec());
            Ok(match $class {
                Some("Context") => Py::new($py, $ctx)?.into_any(),
                Some("BfvCiphertext") => Py::new($py, $ctx.ciphertext_from_bytes(bytes())?)?.into_any(),
                Some("BfvPlaintext") => Py::new($py, $ctx.plaintext_from_bytes(bytes())?)?.into_any(),
                _ => $keys,
            })
        }
    };
}
pub(crate) use rlwe_restore;

/// A scheme's parameter class: the struct, the methods every scheme's parameters have (`degree`,
/// `moduli` (and `special_moduli` where the scheme has them: `moduli m, special s;` names the Rust
/// getters), `security`, bytes, equality, hashing, pickling, repr by the scheme's `label`) with the
/// scheme's own `methods`; the struct holds the scheme's tag beside the parameters (`Scheme::Tag`:
/// in the bytes, equality and label), and `shared()` is the one live context of a parameter set and
/// tag (kept while any object uses it).
macro_rules! rlwe_params {
    (
        $(#[$doc:meta])*
        class $Py:ident($name:literal, $Params:ty, $Ctx:ty, $Shared:ty);
        moduli $moduli:ident $(, special $special:ident)?;
        methods { $($extra:tt)* }
    ) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "rnsfhe", name = $name)]
        pub(crate) struct $Py {
            pub(crate) inner: $Params,
            /// The scheme's `registry::Scheme::Tag`.
            pub(crate) tag: <$Ctx as crate::registry::Scheme>::Tag,
        }

        /// Parameters without a tag.
        impl From<$Params> for $Py {
            fn from(inner: $Params) -> Self {
                $Py {
                    inner,
                    tag: Default::default(),
                }
            }
        }

        impl $Py {
            /// The parameters' bytes, then the tag's: `to_bytes`, and the context's identity.
            pub(crate) fn identity(&self) -> Vec<u8> {
                let mut b = self.inner.to_bytes();
                b.extend_from_slice(&crate::registry::Tag::to_bytes(&self.tag));
                b
            }
            /// Parameters and their tag from `to_bytes` output (validated again); a set marked
            /// insecure only with `allow_insecure` or the process-wide opt-in
            /// (`crate::insecure::check`).
            fn parse(bytes: &[u8], allow_insecure: bool) -> PyResult<Self> {
                let (params, tag) = crate::registry::Tag::split(bytes)?;
                let inner = <$Params>::from_bytes_allowing_insecure(params).py()?;
                crate::insecure::check(inner.security(), allow_insecure, $name)?;
                Ok($Py { inner, tag })
            }
            /// The parameters and tag of a context.
            pub(crate) fn of(shared: &$Shared) -> Self {
                $Py {
                    inner: shared.ctx.params().clone(),
                    tag: shared.tag,
                }
            }
            /// Parameters from `to_bytes` output: the live context's when one has exactly these
            /// bytes (`Registry::live`: checked when it was made), else parsed and validated again.
            pub(crate) fn from_identity(bytes: &[u8], allow_insecure: bool) -> PyResult<Self> {
                match CONTEXTS.live(bytes) {
                    Some(s) => Ok(Self::of(&s)),
                    None => Self::parse(bytes, allow_insecure),
                }
            }
            /// The shared context of `to_bytes` output: the live one with exactly these bytes, else
            /// that of the bytes parsed and validated again (unpickling, `Context.from_bytes`).
            pub(crate) fn shared_of(bytes: &[u8], allow_insecure: bool) -> PyResult<Arc<$Shared>> {
                match CONTEXTS.live(bytes) {
                    Some(s) => Ok(s),
                    None => Self::parse(bytes, allow_insecure)?.shared(),
                }
            }
            /// The label of messages and reprs.
            fn label(&self) -> String {
                label(&self.inner) + &crate::registry::Tag::note(&self.tag)
            }
            /// The shared context of this parameter set and tag (one while any object uses it).
            pub(crate) fn shared(&self) -> PyResult<Arc<$Shared>> {
                CONTEXTS
                    .get_or_make(self.identity(), self.tag, self.label(), || {
                        <$Ctx as crate::registry::Scheme>::new_context(&self.inner)
                    })
                    .py()
            }
        }

        #[pymethods]
        impl $Py {
            #[getter]
            fn degree(&self) -> usize {
                self.inner.degree()
            }
            /// The ciphertext moduli: q_0, q_1, ... (level l has q_0..q_l); for HPR the k primes of
            /// p (q = p^d).
            #[getter]
            fn moduli(&self) -> Vec<u64> {
                self.inner.$moduli().to_vec()
            }
            $(
                #[getter]
                fn special_moduli(&self) -> Vec<u64> {
                    self.inner.$special().to_vec()
                }
            )?
            /// 128, 192, 256 or "insecure".
            #[getter]
            fn security(&self) -> String {
                security_out(self.inner.security())
            }
            /// The parameter set in the rnsfhe binary format (CKKS: then its bootstrapping preset).
            fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                bytes_out(py, &self.identity())
            }
            /// Parameters from `to_bytes` output (validated again, security included, unless a live
            /// context has exactly these bytes). A set marked insecure loads only with
            /// `security="insecure"`, the opt-in its constructor asked for.
            #[staticmethod]
            #[pyo3(signature = (data, security = None))]
            fn from_bytes(data: ByteData, security: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                Self::from_identity(&data.0, crate::insecure::insecure_opt_in(security)?)
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other
                    .cast::<$Py>()
                    .is_ok_and(|o| o.get().identity() == self.identity())
            }
            fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
                bytes_out(py, &self.identity()).hash()
            }
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
                reduce(py, $name, &self.identity(), &[])
            }
            fn __repr__(&self) -> String {
                self.label()
            }
            $($extra)*
        }

    };
}
pub(crate) use rlwe_params;

/// Applies the optional keyword arguments every scheme's builder takes: `b = builder.opt(value)` for
/// each `opt: Option<...>` given (lists of `Int` for the moduli, `hamming_weight` as the secret's
/// distribution, `digit_primes` as the key switching's digits).
macro_rules! builder_options {
    ($b:ident; $($opt:ident: $v:expr),* $(,)?) => {
        $(
            if let Some(v) = $v {
                $b = crate::rlwe_params::builder_options!(@one $b, $opt, v);
            }
        )*
    };
    (@one $b:ident, sigma, $v:ident) => {
        $b.sigma($v)
    };
    (@one $b:ident, hamming_weight, $v:ident) => {
        $b.secret(rnsfhe::rlwe::SecretDistribution::HammingWeight($v.0))
    };
    (@one $b:ident, digit_primes, $v:ident) => {
        $b.key_switching(rnsfhe::rlwe::KeySwitching {
            digit_primes: $v.0,
            ..rnsfhe::rlwe::KeySwitching::default()
        })
    };
    (@one $b:ident, cyclotomic_index, $v:ident) => {
        $b.cyclotomic_index($v.0)
    };
    (@one $b:ident, reduction, $v:ident) => {
        $b.reduction(crate::convert::reduction($v)?)
    };
    (@one $b:ident, layout, $v:ident) => {
        $b.layout(crate::convert::layout($v)?)
    };
    (@one $b:ident, $opt:ident, $v:ident) => {
        $b.$opt(&crate::convert::ints($v))
    };
}
pub(crate) use builder_options;
