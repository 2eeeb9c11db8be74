//! [`SecretKey`]: any polynomial s mod Q u P (a ternary secret, a sum of secrets, a share), with the
//! identity of its key pair.

use std::sync::{Arc, OnceLock};

use rnsfhe_math::ring::{Form, Poly, Representation, RingContext};
use rnsfhe_math::sample::{ternary, ternary_hamming, Csprng};
use sha2::{Digest, Sha256};
use zeroize::{Zeroize, Zeroizing};

use super::generator::Crs;
use super::{is_montgomery, KeyContext, KeyId, PublicKey};
use crate::rlwe::KeySwitcher;
use crate::{Error, Result};

mod forms;
use forms::small_coefficients;

/// The secret-key distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecretDistribution {
    /// Uniform in {-1, 0, 1} (what the HE-standard security table assumes).
    Ternary,
    /// Exactly h non-zero coefficients in {-1, 1} (Cheon et al. (SAC 2018) uses h = 64).
    HammingWeight(usize),
}

/// Norms of a secret with small coefficients ([`SecretKey::norm`]): what noise bounds that involve
/// s need. The contexts' noise models assume the parameter set's distribution (ternary:
/// ||s||_1 <= n; Hamming weight h: ||s||_1 = h); a secret of larger norm (a sum of k ternary secrets
/// has ||s||_1 up to k n) makes their tracked bounds optimistic by about the ratio of the norms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SecretNorm {
    /// ||s||_1.
    pub l1: f64,
    /// ||s||_2.
    pub l2: f64,
    /// ||s||_inf.
    pub linf: u64,
}

/// A secret key s: any polynomial mod Q u P, in NTT form over Q and over Q u P (Montgomery rings:
/// s M), its signed coefficients when they are small, and the identity of its key pair. Zeroized on
/// drop.
///
/// Identity. A secret key made alone (sampled, imported from coefficients or residues) has the
/// identity of its canonical public key ([`super::KeyGenerator::public_key`]): a expands from a
/// seed derived from a hash of s (or from a common reference string, when the generator has one)
/// and the error from a ChaCha stream keyed by a second, domain-separated hash of s and of a's seed.
/// So `public_key(&sk)` always returns the same key, and loading or importing s gives back the same
/// identity. A secret given with an external public key (the collective secret of Mouchet et al.,
/// PETS 2021, a Shamir share) takes that key's identity ([`SecretKey::with_identity`]). A secret
/// that may not be exposed at Q u P (a sparse ephemeral secret, `exposure.rs`) has no public key:
/// its identity is a hash of s (`KeyId::of_secret_digest`).
///
/// Security: this is the argument of deterministic nonces in signatures (RFC 6979). The seeds are
/// outputs of SHA-256 keyed by s (n log2 3 bits of entropy for a ternary secret), a PRF of s: a's
/// seed is published with the key and reveals only a hash of s; the error's seed is never
/// published, and it also hashes a's seed, so two public keys of one secret (canonical, or under a
/// common reference string) never share an error (equal errors under different a would give
/// (a1 - a2) s, and s).
pub struct SecretKey {
    /// The signed coefficients when they are small (each exact in every limb).
    coeffs: Option<Zeroizing<Vec<i64>>>,
    /// s in NTT form over Q (on first use for [`Self::share_from_ntt`]: the first limbs of s_qp).
    s_q: OnceLock<Poly>,
    s_qp: Poly,
    /// The ring of Q.
    ring_q: Arc<RingContext>,
    /// SHA-256 of a domain tag, the fingerprint and s's residues: the key of the PRF that makes the
    /// seeds of s's canonical public keys (computed on first use for [`Self::share_from_ntt`]).
    digest: OnceLock<Zeroizing<[u8; 32]>>,
    fingerprint: u64,
    /// The identity, set when the key is made (on first use for [`Self::share_from_ntt`]: a hash
    /// of its NTT residues, which cannot fail).
    id: OnceLock<KeyId>,
    /// The distribution s was drawn from (imported: from its weight, `exposure::classify`).
    pub(super) distribution: SecretDistribution,
    /// The largest log2 modulus of an RLWE sample under s that keeps the parameters' security
    /// ([`crate::params::Security::max_log_q_for`]; infinite for research parameters).
    pub(super) max_log_modulus: f64,
}

impl core::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SecretKey({})", self.id())
    }
}

impl Drop for SecretKey {
    fn drop(&mut self) {
        if let Some(s_q) = self.s_q.get_mut() {
            s_q.residues_mut().zeroize();
        }
        self.s_qp.residues_mut().zeroize();
    }
}

/// A plain coefficient-form polynomial of `ring` into NTT form, and into the Montgomery form s M of
/// a Montgomery ring (Bajard et al. (SAC 2017) section 4), so that products with Montgomery ciphertexts and keys
/// keep their form and products with plain uniform a give a s.
fn ntt_form(mut p: Poly) -> Result<Poly> {
    p.to_ntt()?;
    if is_montgomery(p.context()) {
        let m = p.to_montgomery()?;
        p.residues_mut().zeroize();
        return Ok(m);
    }
    Ok(p)
}

/// The domain tag of the digest of s's plain coefficient-form residues over Q u P (the PRF key).
const COEFF_DIGEST: &[u8] = b"rnsfhe secret digest v1";
/// The domain tag of the identity of a share made in NTT form (a hash of its NTT residues).
const NTT_DIGEST: &[u8] = b"rnsfhe secret ntt identity v1";

/// SHA-256 of a domain tag, the fingerprint and residues of s over Q u P.
fn digest_of(tag: &[u8], fingerprint: u64, residues: &[u64]) -> Zeroizing<[u8; 32]> {
    let mut h = Sha256::new();
    h.update(tag);
    h.update(fingerprint.to_le_bytes());
    super::id::hash_words(&mut h, residues);
    Zeroizing::new(<[u8; 32]>::from(h.finalize()))
}

/// The largest log2 modulus of an RLWE sample under a secret of `dist` at `ctx`'s security, read
/// at the degree the parameters' gate reads the table at.
fn max_log_modulus(ctx: &dyn KeyContext, n: usize, dist: SecretDistribution) -> f64 {
    ctx.security()
        .max_log_q_for(crate::params::security_degree(n), dist)
}

impl SecretKey {
    /// Samples a secret from the context's distribution.
    pub fn generate(ctx: &dyn KeyContext, rng: &mut Csprng) -> Result<Self> {
        Ok(Self::sample(ctx, rng, None, ctx.secret_distribution())?.0)
    }

    /// A secret of distribution `dist` with its public key under `crs` (or its canonical one),
    /// whose identity both carry; no public key when `dist` is not secure at Q u P (an ephemeral
    /// sparse secret: its identity is then a hash of s, `KeyId::of_secret_digest`).
    pub(crate) fn sample(
        ctx: &dyn KeyContext,
        rng: &mut Csprng,
        crs: Option<&Crs>,
        dist: SecretDistribution,
    ) -> Result<(Self, Option<PublicKey>)> {
        let n = ctx.key_switcher().ring_q().degree();
        let coeffs = match dist {
            SecretDistribution::Ternary => ternary(rng, n),
            SecretDistribution::HammingWeight(h) => ternary_hamming(rng, n, h)?,
        };
        let s = Poly::from_signed(ctx.key_switcher().ring_qp(), &coeffs)?;
        Self::build(ctx, s, Some(coeffs), (true, crs), Some(dist))
    }

    /// A ternary secret key from given coefficients (tests and key import); each must be in
    /// {-1, 0, 1}.
    pub fn from_coefficients(ctx: &dyn KeyContext, coeffs: Zeroizing<Vec<i64>>) -> Result<Self> {
        if coeffs.iter().any(|c| c.abs() > 1) {
            return Err(Error::OutOfRange(
                "secret key coefficients must be in {-1, 0, 1} (from_signed takes any)".into(),
            ));
        }
        Self::from_signed(ctx, coeffs)
    }

    /// A secret key from any signed coefficients, e.g. a sum of the parties' ternary secrets.
    pub fn from_signed(ctx: &dyn KeyContext, coeffs: Zeroizing<Vec<i64>>) -> Result<Self> {
        let ring = ctx.key_switcher().ring_qp();
        if coeffs.len() != ring.degree() {
            return Err(Error::LengthMismatch {
                what: "secret key coefficients",
                expected: ring.degree(),
                got: coeffs.len(),
            });
        }
        let s = Poly::from_signed(ring, &coeffs)?;
        // Coefficients beyond the smallest prime are not one integer in every limb.
        let small = small_coefficients(&s);
        Ok(Self::build(ctx, s, small.map(|_| coeffs), (true, None), None)?.0)
    }

    /// A secret key from a polynomial over the context's ring Q u P (`key_switcher().ring_qp()`),
    /// in either representation (plain form): any residues, e.g. a Shamir share uniform mod Q u P.
    pub fn from_poly(ctx: &dyn KeyContext, s: &Poly) -> Result<Self> {
        Self::of_poly(ctx, s, true)
    }

    /// [`Self::from_poly`] without a key pair of its own (identity: a hash of s,
    /// `KeyId::of_secret_digest`), for an additive share of a collective secret that never
    /// publishes a key of its own (`crate::multiparty::ThresholdSecret::combine`): no canonical
    /// public key, a product and a Gaussian over Q u P saved.
    pub(crate) fn share_from_poly(ctx: &dyn KeyContext, s: &Poly) -> Result<Self> {
        Self::of_poly(ctx, s, false)
    }

    /// [`Self::share_from_poly`] of a share in plain NTT form over Q u P (a plain ring) that is no
    /// small polynomial (a threshold share times its Lagrange coefficient, t >= 2): its NTT forms
    /// are its limbs (over Q: on first use), and its digest (the same as [`Self::share_from_poly`]'s) and its identity (a
    /// hash of the NTT residues) are computed on first use, so that making it costs nothing
    /// (Lattigo's combiner only scales the share).
    pub(crate) fn share_from_ntt(ctx: &dyn KeyContext, mut s: Poly) -> Result<Self> {
        let sw = ctx.key_switcher();
        let (ring, ring_q) = (sw.ring_qp(), sw.ring_q());
        let plain_ntt = s.representation() == Representation::Ntt
            && s.montgomery_form() == Form::Plain
            && !is_montgomery(ring);
        if !(Arc::ptr_eq(s.context(), ring) && plain_ntt) {
            s.residues_mut().zeroize();
            return Err(Error::ContextMismatch(
                "a share in NTT form needs the context's plain ring Q u P".into(),
            ));
        }
        let n = ring.degree();
        let distribution = super::exposure::classify(ctx, None, n);
        Ok(SecretKey {
            coeffs: None,
            s_q: OnceLock::new(),
            s_qp: s,
            ring_q: Arc::clone(ring_q),
            digest: OnceLock::new(),
            fingerprint: ctx.params_fingerprint(),
            id: OnceLock::new(),
            distribution,
            max_log_modulus: max_log_modulus(ctx, n, distribution),
        })
    }

    /// This key overwritten by [`Self::share_from_ntt`] of the residues `fill` writes (every word,
    /// each below its modulus), in its own buffer when it is a share over `ctx`'s plain ring Q u P
    /// in NTT form (no allocation: Lattigo's combiner writes into its secret key); otherwise a new
    /// buffer. The previous secret's forms are zeroized, its cached digest and identity dropped.
    pub(crate) fn refill_share_ntt(
        &mut self,
        ctx: &dyn KeyContext,
        fill: impl FnOnce(&mut [u64]),
    ) -> Result<()> {
        let ring = ctx.key_switcher().ring_qp();
        let reusable = Arc::ptr_eq(self.s_qp.context(), ring)
            && self.s_qp.representation() == Representation::Ntt
            && self.s_qp.montgomery_form() == Form::Plain
            && !is_montgomery(ring)
            && self.fingerprint == ctx.params_fingerprint();
        if !reusable {
            *self = Self::share_from_ntt(
                ctx,
                Poly::from_fill(ring, Representation::Ntt, |d| {
                    fill(d);
                    Ok::<(), Error>(())
                })?,
            )?;
            return Ok(());
        }
        if let Some(mut s_q) = self.s_q.take() {
            s_q.residues_mut().zeroize();
        }
        self.coeffs = None;
        self.digest = OnceLock::new();
        self.id = OnceLock::new();
        self.ring_q = Arc::clone(ctx.key_switcher().ring_q());
        fill(self.s_qp.residues_mut());
        let n = ring.degree();
        self.distribution = super::exposure::classify(ctx, None, n);
        self.max_log_modulus = max_log_modulus(ctx, n, self.distribution);
        Ok(())
    }

    fn of_poly(ctx: &dyn KeyContext, s: &Poly, pair: bool) -> Result<Self> {
        let ring = ctx.key_switcher().ring_qp();
        if !Arc::ptr_eq(s.context(), ring) {
            return Err(Error::ContextMismatch(
                "a secret key's polynomial must be over the context's ring Q u P".into(),
            ));
        }
        let mut p = match s.montgomery_form() {
            Form::Plain => s.clone(),
            Form::Montgomery => s.from_montgomery()?,
        };
        // Given in plain NTT form over a plain ring, s is already its NTT forms (no NTT back).
        let ntt =
            (p.representation() == Representation::Ntt && !is_montgomery(ring)).then(|| p.clone());
        p.to_coefficient()?;
        let small = small_coefficients(&p);
        let sk = Self::build_with(ctx, p, ntt, small, (pair, None), None);
        Ok(sk?.0)
    }

    /// A secret key from limb-major residues over Q u P (`ring_qp().limb_len(form)` per modulus) in
    /// representation `form`.
    pub fn from_residues(
        ctx: &dyn KeyContext,
        residues: Zeroizing<Vec<u64>>,
        form: Representation,
    ) -> Result<Self> {
        let mut p = Poly::from_residues(ctx.key_switcher().ring_qp(), residues.to_vec(), form)?;
        let sk = Self::from_poly(ctx, &p);
        p.residues_mut().zeroize();
        sk
    }

    /// This secret with the identity of the key pair of `pk` (a collective public key, or the public
    /// key of the secret a share belongs to): the ciphertexts and keys of that pair are then this
    /// key's. Not checked against s (a share does not decrypt alone).
    pub fn with_identity(mut self, pk: &PublicKey) -> Result<Self> {
        super::id::check_params(pk.fingerprint(), self.fingerprint, "public key")?;
        self.id = OnceLock::from(pk.id());
        Ok(self)
    }

    /// This secret with identity `id` (bytes that store it; format-2 bytes' legacy identity).
    pub(crate) fn with_id(mut self, id: KeyId) -> Self {
        self.id = OnceLock::from(id);
        self
    }

    /// The secret key of coefficient-form residues `s` (plain, over Q u P, zeroized here) of
    /// distribution `dist` (`None`: from its coefficients) and, with `pair`, its public key under
    /// `crs` (or its canonical public key), whose hash is the pair's identity; without `pair`, or
    /// when s may not be exposed at Q u P, no public key and the identity
    /// `KeyId::of_secret_digest`.
    fn build(
        ctx: &dyn KeyContext,
        s: Poly,
        coeffs: Option<Zeroizing<Vec<i64>>>,
        pc: (bool, Option<&Crs>),
        dist: Option<SecretDistribution>,
    ) -> Result<(Self, Option<PublicKey>)> {
        Self::build_with(ctx, s, None, coeffs, pc, dist)
    }

    /// [`Self::build`] with s's NTT form over Q u P when known (`ntt`, plain ring): its NTT forms
    /// are then its limbs, not two more transforms.
    fn build_with(
        ctx: &dyn KeyContext,
        mut s: Poly,
        ntt: Option<Poly>,
        coeffs: Option<Zeroizing<Vec<i64>>>,
        (pair, crs): (bool, Option<&Crs>),
        dist: Option<SecretDistribution>,
    ) -> Result<(Self, Option<PublicKey>)> {
        let sw = ctx.key_switcher();
        let fingerprint = ctx.params_fingerprint();
        let digest = digest_of(COEFF_DIGEST, fingerprint, s.residues());
        let (s_q, s_qp) = match ntt {
            Some(p) => (
                Poly::from_residues(
                    sw.ring_q(),
                    p.residues()
                        [..sw.ring_q().limb_len(Representation::Ntt) * sw.ring_q().moduli().len()]
                        .to_vec(),
                    Representation::Ntt,
                )
                .map_err(Error::from),
                Ok(p),
            ),
            None => Self::ntt_pair(sw, &s),
        };
        s.residues_mut().zeroize();
        let n = sw.ring_q().degree();
        let distribution = dist
            .unwrap_or_else(|| super::exposure::classify(ctx, coeffs.as_ref().map(|c| &c[..]), n));
        let mut sk = SecretKey {
            coeffs,
            s_q: OnceLock::from(s_q?),
            s_qp: s_qp?,
            ring_q: Arc::clone(sw.ring_q()),
            id: OnceLock::from(KeyId::of_secret_digest(fingerprint, &digest)),
            digest: OnceLock::from(digest),
            fingerprint,
            distribution,
            max_log_modulus: max_log_modulus(ctx, n, distribution),
        };
        if !pair || sk.max_log_modulus < super::exposure::log2_modulus(sw.ring_qp()) {
            return Ok((sk, None));
        }
        let pk = PublicKey::starting_pair(ctx, &sk, crs)?;
        sk.id = OnceLock::from(pk.id());
        Ok((sk, Some(pk)))
    }
}
