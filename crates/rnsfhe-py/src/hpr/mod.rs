//! HPR-FV (Bajard et al. (HPR-FV, ePrint 2019/500)) in Python: parameters, context (keys, batch encryption, decryption by
//! Alg. 1 with the noise check, operations), plaintexts, ciphertexts with operators, and the HPR
//! key classes. Contexts with equal parameters are one context; evaluation keys are registered per
//! key pair, as for BFV.
//!
//! `context` holds the context class, `values` the plaintext and ciphertext classes, `plain` the
//! encoding helpers. The value classes name the context class (a ciphertext's `context`,
//! `HprCiphertext.from_bytes(ctx, data)`) through this module, as the other schemes' do.

mod context;
mod keys;
mod params;
mod plain;
mod values;

pub(crate) use context::PyHprContext;
pub(crate) use keys::{PyHprGaloisKeys, PyHprPublicKey, PyHprRelinKey, PyHprSecretKey};
pub(crate) use params::PyHprParameters;
pub(crate) use plain::PyHprPlaintext;
pub(crate) use values::PyHprCiphertext;

use std::sync::Arc;

use pyo3::prelude::*;
use rnsfhe::encoding::BatchEncoder;
use rnsfhe::hpr::{
    HprCiphertext, HprContext, HprGaloisKeys, HprParameters, HprPublicKey, HprRelinKey,
    HprSecretKey,
};
use rnsfhe_math::sample::Csprng;

use crate::convert::{security_out, ByteData};
use crate::keys::KeyOwner;
use crate::raise;
use crate::registry::{Registry, Scheme, Shared};

pub(crate) use crate::registry::same;

/// HPR on the shared registry: its digit evaluation keys, and its batch encoder (batching: t prime
/// and 1 mod 2n, else None) kept beside the context.
impl Scheme for HprContext {
    type Params = HprParameters;
    type SecretKey = HprSecretKey;
    type PublicKey = HprPublicKey;
    type RelinKey = HprRelinKey;
    type GaloisKeys = HprGaloisKeys;
    type Keys = crate::registry::KeyPair<HprRelinKey, HprGaloisKeys>;
    /// The coefficients in [0, t).
    type Plaintext = Vec<u64>;
    type Ciphertext = HprCiphertext;
    type Tag = ();
    type Extra = Option<BatchEncoder>;
    fn new_context(p: &HprParameters) -> rnsfhe::Result<Arc<Self>> {
        HprContext::new(p)
    }
    fn fingerprint(&self) -> u64 {
        self.params().fingerprint()
    }
    fn extra(&self) -> Option<BatchEncoder> {
        BatchEncoder::new(self.params().degree(), self.params().plain_modulus()).ok()
    }
    fn key_pair(&self, rng: &mut Csprng) -> rnsfhe::Result<(HprSecretKey, HprPublicKey)> {
        let sk = self.secret_key(rng)?;
        let pk = self.public_key(&sk, rng)?;
        Ok((sk, pk))
    }
    fn encrypt_public(
        &self,
        m: &Vec<u64>,
        pk: &HprPublicKey,
        rng: &mut Csprng,
    ) -> rnsfhe::Result<HprCiphertext> {
        self.encrypt(pk, m, rng)
    }
    fn encrypt_secret(
        &self,
        m: &Vec<u64>,
        sk: &HprSecretKey,
        rng: &mut Csprng,
    ) -> rnsfhe::Result<HprCiphertext> {
        self.encrypt_symmetric(sk, m, rng)
    }
    /// Bajard et al. (HPR-FV, ePrint 2019/500) Prop. 1, eq. (16).
    fn product(&self, a: &HprCiphertext, b: &HprCiphertext) -> rnsfhe::Result<HprCiphertext> {
        self.mul_no_relin(a, b)
    }
}

crate::registry::eval_keys!(HprRelinKey, HprGaloisKeys);

/// The context of one HPR parameter set, shared by its Python objects, with the evaluation keys
/// registered per key pair.
pub(crate) type HprShared = Shared<HprContext>;

/// Live HPR contexts by parameter bytes.
static CONTEXTS: Registry<HprContext> = Registry::new();

pub(crate) fn label(p: &HprParameters) -> String {
    format!(
        "HprParameters(degree={}, plain_modulus={}, primes={}, digits={}, log_q={:.1}, security={})",
        p.degree(),
        p.plain_modulus(),
        p.p_moduli().len(),
        p.digits(),
        p.log_q(),
        security_out(p.security()),
    )
}

impl HprShared {
    /// The batch encoder, or an error saying t does not batch.
    pub fn encoder(&self) -> PyResult<&BatchEncoder> {
        self.extra.as_ref().ok_or_else(|| {
            raise(
                "ParameterError",
                format!(
                    "plain_modulus {} does not allow batching at degree {} (use a prime t = 1 mod 2n)",
                    self.ctx.params().plain_modulus(),
                    self.ctx.params().degree()
                ),
            )
        })
    }
}

crate::rlwe_params::rlwe_restore!(PyHprParameters(HprParameters), PyHprContext, "Hpr",
    keys(py, ctx, _class, data, kind) => ctx.owner().load(py, kind, data)?);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHprParameters>()?;
    m.add_class::<PyHprContext>()?;
    m.add_class::<PyHprCiphertext>()?;
    m.add_class::<PyHprPlaintext>()?;
    m.add_class::<PyHprSecretKey>()?;
    m.add_class::<PyHprPublicKey>()?;
    m.add_class::<PyHprRelinKey>()?;
    m.add_class::<PyHprGaloisKeys>()?;
    Ok(())
}
