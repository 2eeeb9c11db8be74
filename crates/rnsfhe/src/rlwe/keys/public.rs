//! [`PublicKey`]: (p0, p1) = ([-(a s + e)]_{QP}, a), a expanded from a seed.

use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::generator::{Crs, Domain};
use super::{gaussian_poly, reduce_product, uniform_seeded, KeyContext, KeyId, SecretKey};
use crate::{Error, Result};

/// A public key (p0, p1) = ([-(a s + e)]_{QP}, a) in NTT form over Q u P (Q alone without special
/// moduli); a expands from `seed`. Encrypting over Q u P and dividing by P (as SEAL does) leaves a fresh
/// ciphertext with about the noise of a secret-key encryption instead of e u + e0 + e1 s.
#[derive(Clone, Debug)]
pub struct PublicKey {
    p0: Poly,
    p1: Poly,
    seed: [u8; 32],
    fingerprint: u64,
    id: KeyId,
}

/// The seed of a's of s's canonical public key without a common reference string.
fn canonical_seed(sk: &SecretKey) -> Result<[u8; 32]> {
    let mut h = Sha256::new();
    h.update(b"rnsfhe canonical public key a v1");
    h.update(sk.digest()?);
    Ok(h.finalize().into())
}

/// The key of the error's ChaCha stream of s's public key with a of seed `a_seed`: secret, and
/// distinct for every a.
fn error_seed(sk: &SecretKey, a_seed: &[u8; 32]) -> Result<Zeroizing<[u8; 32]>> {
    let mut h = Sha256::new();
    h.update(b"rnsfhe public key error v1");
    h.update(sk.digest()?);
    h.update(a_seed);
    Ok(Zeroizing::new(h.finalize().into()))
}

impl PublicKey {
    /// s's public key under `crs` (a from the CRS), or its canonical one (a from a hash of s):
    /// deterministic, the error from a ChaCha stream keyed by a hash of s and of a's seed (see
    /// [`SecretKey`] for the argument). It carries the secret key's identity.
    pub(crate) fn of_secret(
        ctx: &dyn KeyContext,
        sk: &SecretKey,
        crs: Option<&Crs>,
    ) -> Result<Self> {
        let mut pk = Self::unidentified(ctx, sk, crs)?;
        pk.id = sk.id();
        Ok(pk)
    }

    /// [`Self::of_secret`] with the identity of a new key pair: the hash of this key
    /// ([`KeyId::of_public_key`]), which `SecretKey`'s constructors give the secret key too.
    pub(crate) fn starting_pair(
        ctx: &dyn KeyContext,
        sk: &SecretKey,
        crs: Option<&Crs>,
    ) -> Result<Self> {
        let mut pk = Self::unidentified(ctx, sk, crs)?;
        pk.id = KeyId::of_public_key(pk.fingerprint, &pk.seed, &pk.p0)?;
        Ok(pk)
    }

    /// The key of [`Self::of_secret`], its identity not yet set (`KeyId(0)`).
    fn unidentified(ctx: &dyn KeyContext, sk: &SecretKey, crs: Option<&Crs>) -> Result<Self> {
        let fingerprint = ctx.params_fingerprint();
        let seed = match crs {
            Some(c) => c.seed(fingerprint, Domain::PublicKey, 0),
            None => canonical_seed(sk)?,
        };
        let a = uniform_seeded(sk.ntt_qp().context(), &seed, 0)?;
        let p0 = Self::p0_of(ctx, sk, &a, &seed)?;
        Ok(PublicKey {
            p0,
            p1: a,
            seed,
            fingerprint,
            id: KeyId(0),
        })
    }

    /// p0 = -(a s + e) of s's public key with a (NTT form over Q u P) of seed `seed`, the error
    /// from the stream of [`error_seed`]: the part of [`Self::of_secret`] that depends on s.
    pub(crate) fn p0_of(
        ctx: &dyn KeyContext,
        sk: &SecretKey,
        a: &Poly,
        seed: &[u8; 32],
    ) -> Result<Poly> {
        let ring = sk.ntt_qp().context();
        sk.check_exposure(super::log2_modulus(ring), "a public key")?;
        let mut erng = Csprng::from_seed(*error_seed(sk, seed)?);
        // p0 = -(a s + e): the product accumulated into e in place (no copy of a).
        let mut p0 = gaussian_poly(ring, ctx.error_distribution(), &mut erng)?;
        p0.to_ntt()?;
        p0.mul_add_assign(a, sk.ntt_qp())?;
        p0.neg_assign();
        reduce_product(&mut p0)?;
        Ok(p0)
    }

    /// The identity of the key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }

    /// The fingerprint of the parameters this key belongs to.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The two components in NTT form.
    pub fn parts(&self) -> (&Poly, &Poly) {
        (&self.p0, &self.p1)
    }

    /// The seed that a expands from (`uniform_from_seed`).
    pub fn seed(&self) -> &[u8; 32] {
        &self.seed
    }

    /// Rebuilds a public key of `ctx`'s parameters from p0 (NTT form over Q u P), the seed of p1 and
    /// the identity of its key pair; `None`: the key starts a key pair of its own, whose identity is
    /// its hash ([`KeyId::of_public_key`]), e.g. a collective public key (sum of the parties' p0
    /// over a common a, Mouchet et al., PETS 2021).
    pub fn from_parts(
        ctx: &dyn KeyContext,
        p0: Poly,
        seed: [u8; 32],
        id: Option<KeyId>,
    ) -> Result<Self> {
        let p1 = uniform_seeded(ctx.key_switcher().ring_qp(), &seed, 0)?;
        Self::from_parts_expanded(ctx, p0, seed, p1, id)
    }

    /// [`Self::from_parts`] with p1, the expansion of `seed`, given (a collective public key from
    /// reference polynomials already expanded, `multiparty::ckg::public_key_with`).
    pub(crate) fn from_parts_expanded(
        ctx: &dyn KeyContext,
        p0: Poly,
        seed: [u8; 32],
        p1: Poly,
        id: Option<KeyId>,
    ) -> Result<Self> {
        if p0.representation() != Representation::Ntt || p1.representation() != Representation::Ntt
        {
            return Err(Error::WrongForm("a public key is in NTT form".into()));
        }
        let qp = ctx.key_switcher().ring_qp();
        if !std::sync::Arc::ptr_eq(p0.context(), qp) || !std::sync::Arc::ptr_eq(p1.context(), qp) {
            return Err(Error::ContextMismatch(
                "a public key is over the context's ring Q u P".into(),
            ));
        }
        let fingerprint = ctx.params_fingerprint();
        let id = match id {
            Some(id) => id,
            None => KeyId::of_public_key(fingerprint, &seed, &p0)?,
        };
        Ok(PublicKey {
            p0,
            p1,
            seed,
            fingerprint,
            id,
        })
    }

    /// Refuses this key in a context of parameters `fingerprint`.
    pub(crate) fn check_params(&self, fingerprint: u64) -> Result<()> {
        super::id::check_params(self.fingerprint, fingerprint, "public key")
    }
}
