//! [`KeyGenerator`]: every key of a parameter set, with an optional common reference string
//! ([`Crs`]) that the uniform parts of the keys expand from.

use std::sync::Arc;

use rnsfhe_math::ring::{Poly, RingContext};
use rnsfhe_math::sample::Csprng;
use sha2::{Digest, Sha256};

use super::{KeyContext, PublicKey, SecretDistribution, SecretKey};
use crate::rlwe::{GaloisKeys, KeyOptions, RelinKey, SwitchingKey};
use crate::{Error, Result};

/// A common reference string: a public 32-byte seed that parties agree on (Mouchet et al., PETS
/// 2021, section 4: "CRS"). The uniform polynomial a of a public key and of every key-switching key
/// component expands from it with a domain-separated index, so independent parties draw the same
/// a, the precondition of collective key generation (the sum of their p0 over that a is a key of
/// the sum of their secrets).
///
/// An optional instance nonce ([`Crs::with_nonce`], up to [`MAX_CRS_NONCE`] public bytes) separates
/// protocol instances under one seed (a retried key generation, a second key pair): each expands
/// its own polynomials, and the shares of one carry another reference-string identity than those
/// of the other. The empty nonce ([`Crs::new`]) expands exactly what a CRS without one did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crs {
    seed: [u8; 32],
    nonce: [u8; MAX_CRS_NONCE],
    nonce_len: u8,
}

/// The longest instance nonce of a [`Crs`] (hash a longer instance name first).
pub const MAX_CRS_NONCE: usize = 64;

/// What a uniform polynomial drawn from a [`Crs`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Domain {
    /// The public key.
    PublicKey,
    /// The relinearisation key.
    Relin,
    /// The Galois key of an element.
    Galois(u64),
}

impl Crs {
    /// The CRS of a public seed (empty nonce).
    pub fn new(seed: [u8; 32]) -> Self {
        Crs {
            seed,
            nonce: [0; MAX_CRS_NONCE],
            nonce_len: 0,
        }
    }

    /// The CRS of a public seed for the protocol instance `nonce` (public; at most
    /// [`MAX_CRS_NONCE`] bytes; empty: [`Crs::new`]).
    pub fn with_nonce(seed: [u8; 32], nonce: &[u8]) -> Result<Self> {
        if nonce.len() > MAX_CRS_NONCE {
            return Err(Error::InvalidParameters(format!(
                "a CRS instance nonce of {} bytes: at most {MAX_CRS_NONCE} (hash a longer name)",
                nonce.len()
            )));
        }
        let mut crs = Crs::new(seed);
        crs.nonce[..nonce.len()].copy_from_slice(nonce);
        crs.nonce_len = nonce.len() as u8;
        Ok(crs)
    }

    /// The public seed.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.seed
    }

    /// The instance nonce (empty for [`Crs::new`]).
    pub fn nonce(&self) -> &[u8] {
        &self.nonce[..usize::from(self.nonce_len)]
    }

    /// Feeds the nonce, when there is one, to `h` (length-prefixed, after everything else, so that
    /// the empty nonce hashes exactly as before nonces existed).
    pub(crate) fn hash_nonce(&self, h: &mut Sha256) {
        if self.nonce_len > 0 {
            h.update(b"instance nonce");
            h.update([self.nonce_len]);
            h.update(self.nonce());
        }
    }

    /// The seed of component `component` of the key `domain` for parameters `fingerprint`:
    /// SHA-256 over a domain tag, the CRS, the fingerprint, the key's kind (and Galois element),
    /// the component, and the instance nonce if any.
    pub(crate) fn seed(&self, fingerprint: u64, domain: Domain, component: u32) -> [u8; 32] {
        let (kind, element) = match domain {
            Domain::PublicKey => (0u8, 0u64),
            Domain::Relin => (1, 0),
            Domain::Galois(g) => (2, g),
        };
        let mut h = Sha256::new();
        h.update(b"rnsfhe crs expansion v1");
        h.update(self.seed);
        h.update(fingerprint.to_le_bytes());
        h.update([kind]);
        h.update(element.to_le_bytes());
        h.update(component.to_le_bytes());
        self.hash_nonce(&mut h);
        h.finalize().into()
    }
}

/// Where the seeds of a key-switching key's uniform components come from: fresh from the rng (each
/// key its own), or from a CRS (the same for every party).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SeedSource<'a> {
    /// 32 bytes from the rng per component.
    Fresh,
    /// [`Crs::seed`] for this fingerprint and key.
    Crs(&'a Crs, u64, Domain),
    /// [`Self::Crs`] with the uniform polynomials already expanded ([`uniform_at`](Self::uniform_at)
    /// of every component, in order): a party's shares reuse them (Lattigo's CRP).
    Expanded(&'a Crs, u64, Domain, &'a [Poly]),
}

impl SeedSource<'_> {
    /// The seed of component `component`.
    pub(crate) fn seed(&self, rng: &mut Csprng, component: u32) -> [u8; 32] {
        match *self {
            SeedSource::Fresh => {
                let mut seed = [0u8; 32];
                rng.fill_bytes(&mut seed);
                seed
            }
            SeedSource::Crs(crs, fingerprint, domain)
            | SeedSource::Expanded(crs, fingerprint, domain, _) => {
                crs.seed(fingerprint, domain, component)
            }
        }
    }

    /// The uniform polynomial of component `component` of seed `seed` over `ctx` (limb j: limb
    /// `limbs[j]` of the expansion over Q u P), or its copy when already expanded.
    pub(crate) fn uniform_at(
        &self,
        ctx: &Arc<RingContext>,
        seed: &[u8; 32],
        component: u32,
        limbs: &[usize],
    ) -> Result<Poly> {
        match *self {
            SeedSource::Expanded(.., polys) => expanded_at(ctx, polys, component),
            _ => super::uniform_seeded_at(ctx, seed, component + 1, limbs),
        }
    }

    /// This source for the Galois key of element g (the same source otherwise).
    pub(crate) fn for_galois(&self, g: u64) -> Self {
        match *self {
            SeedSource::Crs(crs, fp, _) | SeedSource::Expanded(crs, fp, ..) => {
                SeedSource::Crs(crs, fp, Domain::Galois(g))
            }
            SeedSource::Fresh => SeedSource::Fresh,
        }
    }
}

/// A copy of the expanded uniform polynomial of component `component` (refused when missing or
/// over another ring than `ctx`, the key's level).
pub(crate) fn expanded_at(ctx: &Arc<RingContext>, polys: &[Poly], component: u32) -> Result<Poly> {
    let a = polys
        .get(component as usize)
        .ok_or_else(|| Error::Internal(format!("no expanded uniform polynomial {component}")))?;
    if !Arc::ptr_eq(a.context(), ctx) {
        return Err(Error::ContextMismatch(
            "expanded reference polynomials of another level".into(),
        ));
    }
    Ok(a.clone())
}

/// Every key of a parameter set (a BFV, BGV or CKKS context, through [`KeyContext`]): secret and
/// public keys, relinearisation and Galois keys, with an optional common reference string.
///
/// Without a CRS, key-switching keys draw a fresh seed per component from the rng (stored, so that
/// keys serialise seeded), as the contexts' `relin_key` and `galois_keys` do (they delegate here).
/// With a CRS, the uniform part of every key expands from it ([`Crs`]), so parties holding
/// different secrets produce keys with the same a. Public keys are deterministic either way
/// ([`KeyGenerator::public_key`]).
///
/// # Example
///
/// Two parties with one CRS; the sum of their p0 is a public key of the sum of their secrets:
///
/// ```
/// use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
/// use rnsfhe::params::Security;
/// use rnsfhe::rlwe::{Crs, KeyGenerator, PublicKey, SecretKey};
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let params = CkksParameters::builder()
///     .degree(1024)
///     .levels(1)
///     .security(Security::InsecureResearchOnly)
///     .build()?;
/// let ctx = CkksContext::new(params)?;
/// let crs = Crs::new([9; 32]);
/// let (mut r1, mut r2) = (Csprng::from_seed([1; 32]), Csprng::from_seed([2; 32]));
/// let (s1, p1) = KeyGenerator::new(&*ctx, &mut r1).with_crs(crs).key_pair()?;
/// let (s2, p2) = KeyGenerator::new(&*ctx, &mut r2).with_crs(crs).key_pair()?;
/// assert_eq!(p1.parts().1.residues(), p2.parts().1.residues()); // one a
///
/// let p0 = p1.parts().0.add(p2.parts().0)?;
/// let pk = PublicKey::from_parts(&*ctx, p0, *p1.seed(), None)?;
/// let s: Vec<i64> = s1.coefficients().unwrap().iter().zip(s2.coefficients().unwrap())
///     .map(|(a, b)| a + b).collect();
/// let sk = SecretKey::from_signed(&*ctx, s.into())?.with_identity(&pk)?;
///
/// let ct = ctx.encrypt(&ctx.encode(&[Complex::new(0.25, 0.0)])?, &pk, &mut r1)?;
/// assert!((ctx.decrypt_values(&ct, &sk)?[0].re - 0.25).abs() < 1e-6);
/// # Ok(())
/// # }
/// ```
pub struct KeyGenerator<'a> {
    ctx: &'a dyn KeyContext,
    rng: &'a mut Csprng,
    crs: Option<Crs>,
}

impl<'a> KeyGenerator<'a> {
    /// A generator for `ctx`'s parameters drawing from `rng`.
    pub fn new(ctx: &'a dyn KeyContext, rng: &'a mut Csprng) -> Self {
        KeyGenerator {
            ctx,
            rng,
            crs: None,
        }
    }

    /// This generator with a common reference string.
    pub fn with_crs(mut self, crs: Crs) -> Self {
        self.crs = Some(crs);
        self
    }

    /// The common reference string, if any.
    pub fn crs(&self) -> Option<&Crs> {
        self.crs.as_ref()
    }

    /// The source of key-switching seeds for keys of kind `domain` under `crs`.
    fn source(crs: &Option<Crs>, fingerprint: u64, domain: Domain) -> SeedSource<'_> {
        match crs {
            Some(c) => SeedSource::Crs(c, fingerprint, domain),
            None => SeedSource::Fresh,
        }
    }

    /// A secret key of the parameters' distribution, with the identity of its public key under this
    /// generator ([`Self::public_key`]).
    pub fn secret_key(&mut self) -> Result<SecretKey> {
        self.secret_key_with(self.ctx.secret_distribution())
    }

    /// A secret key of distribution `dist`, e.g. an ephemeral sparse secret
    /// (`SecretDistribution::HammingWeight(32)`) for parameters whose secrets are ternary. Its
    /// [`SecretKey::max_log_modulus`] follows `dist`: a distribution that the parameters' security
    /// does not admit at Q u P gets no public key (identity: a hash of s), and every key or
    /// ciphertext under it above that modulus is refused.
    pub fn secret_key_with(&mut self, dist: SecretDistribution) -> Result<SecretKey> {
        let n = self.ctx.key_switcher().ring_q().degree();
        if let SecretDistribution::HammingWeight(h) = dist {
            if h == 0 || h > n {
                return Err(Error::InvalidParameters(format!(
                    "hamming_weight = {h} must be in 1..=n = {n}"
                )));
            }
        }
        Ok(SecretKey::sample(self.ctx, self.rng, self.crs.as_ref(), dist)?.0)
    }

    /// The public key of `sk`: a from the CRS (or, without one, from a hash of s) and the error from
    /// a stream keyed by s, so the same secret always gives the same key (see [`SecretKey`]). It
    /// carries `sk`'s identity.
    pub fn public_key(&mut self, sk: &SecretKey) -> Result<PublicKey> {
        self.check(sk)?;
        PublicKey::of_secret(self.ctx, sk, self.crs.as_ref())
    }

    /// A fresh secret key and its public key (KeyGen of every scheme).
    pub fn key_pair(&mut self) -> Result<(SecretKey, PublicKey)> {
        // The public key that gave the secret key its identity: the one `public_key` returns.
        let dist = self.ctx.secret_distribution();
        let (sk, pk) = SecretKey::sample(self.ctx, self.rng, self.crs.as_ref(), dist)?;
        let pk = pk.ok_or_else(|| {
            Error::Internal("the parameters' own secret distribution has no public key".into())
        })?;
        Ok((sk, pk))
    }

    /// The relinearisation key KSGen(s^2, s) of `sk` (BGV scales its error by t at use; FV's mixed
    /// strategy makes it over its Montgomery ring, Bajard et al. (SAC 2017) section 4.4).
    pub fn relin_key(&mut self, sk: &SecretKey) -> Result<RelinKey> {
        let top = self.ctx.key_switcher().top_level();
        self.relin_key_at(sk, top)
    }

    /// [`Self::relin_key`] at `level`: over q_0..q_level and P with the digits that meet
    /// q_0..q_level only, for ciphertexts at levels <= `level` (generation and size in proportion).
    pub fn relin_key_at(&mut self, sk: &SecretKey, level: usize) -> Result<RelinKey> {
        self.check(sk)?;
        let (sw, msw) = (self.ctx.key_switcher(), self.ctx.relin_switcher());
        let fp = self.ctx.params_fingerprint();
        let g = self.ctx.error_distribution();
        let seeds = Self::source(&self.crs, fp, Domain::Relin);
        sk.check_exposure(
            super::log2_modulus(sw.key_ring(0, level)?),
            "a relinearisation key",
        )?;
        if std::ptr::eq(sw, msw) {
            return RelinKey::generate_with(
                sw,
                sk,
                g,
                fp,
                self.rng,
                KeyOptions::of(sw, seeds, level),
            );
        }
        // The same s over the Montgomery ring (held as s M there), keys carrying M (section 4.4).
        let sk_m = sk.on_switcher(msw)?;
        let opts = KeyOptions {
            m_error: false,
            source: seeds,
            level,
        };
        RelinKey::generate_with(msw, &sk_m, g, fp, self.rng, opts)
    }

    /// Galois keys of `sk` for the Galois elements `elements` (in Z_m^*, taken mod m; 1 needs no
    /// key; at most [`crate::rlwe::MAX_GALOIS_ELEMENTS`] distinct ones per call: merge sets with
    /// [`GaloisKeys::merge`]).
    pub fn galois_keys(&mut self, sk: &SecretKey, elements: &[u64]) -> Result<GaloisKeys> {
        let top = self.ctx.key_switcher().top_level();
        self.galois_keys_at(sk, elements, top)
    }

    /// [`Self::galois_keys`] at `level`: each key over q_0..q_level and P with the digits that
    /// meet q_0..q_level only, for ciphertexts at levels <= `level` (e.g. the rotations of
    /// SlotsToCoeffs near the bottom of the chain). Keys of several levels merge into one set.
    pub fn galois_keys_at(
        &mut self,
        sk: &SecretKey,
        elements: &[u64],
        level: usize,
    ) -> Result<GaloisKeys> {
        self.check(sk)?;
        let sw = self.ctx.key_switcher();
        sk.check_exposure(super::log2_modulus(sw.key_ring(0, level)?), "a Galois key")?;
        let seeds = Self::source(&self.crs, self.ctx.params_fingerprint(), Domain::Galois(0));
        GaloisKeys::generate(
            sw,
            sk,
            elements,
            self.ctx.error_distribution(),
            self.ctx.params_fingerprint(),
            self.rng,
            KeyOptions::of(sw, seeds, level),
        )
    }

    /// A key that switches a ciphertext at a level <= `level` from `from` to `to`
    /// ([`SwitchingKey`]; e.g. between a dense and a sparse secret), over q_0..q_level and the
    /// longest prefix P' of the special primes with log2(Q_level P') within `to`'s
    /// [`SecretKey::max_log_modulus`] (all of P for a secret of the parameters' distribution). The
    /// key is RLWE samples under `to` at Q_level P': refused when even one special prime is too
    /// many. Seeds are always fresh (never from a CRS: two keys to one secret with one a would
    /// leak the difference of their sources).
    pub fn switching_key(
        &mut self,
        from: &SecretKey,
        to: &SecretKey,
        level: usize,
    ) -> Result<SwitchingKey> {
        let special = SwitchingKey::admissible_special(self.ctx.key_switcher(), to, level)?;
        self.switching_key_with(from, to, level, special)
    }

    /// [`Self::switching_key`] over the first `special` special primes (all of them: the
    /// parameters' key switcher; fewer: a key switcher of q_0..q_level and P' of its own).
    pub fn switching_key_with(
        &mut self,
        from: &SecretKey,
        to: &SecretKey,
        level: usize,
        special: usize,
    ) -> Result<SwitchingKey> {
        self.check(from)?;
        self.check(to)?;
        SwitchingKey::generate(self.ctx, from, to, (level, special), self.rng)
    }

    /// The top level of the parameters' chain.
    pub(crate) fn top_level(&self) -> usize {
        self.ctx.key_switcher().top_level()
    }

    fn check(&self, sk: &SecretKey) -> Result<()> {
        sk.check_owner(
            self.ctx.params_fingerprint(),
            self.ctx.key_switcher().ring_q(),
        )
    }
}
