//! Secret and public keys and the RLWE encryption of zero.

use std::sync::Arc;

use rnsfhe_math::ring::{Poly, Representation, RingContext, RingKind};
use rnsfhe_math::sample::{ternary, ternary_hamming, Csprng, DiscreteGaussian};
use zeroize::{Zeroize, Zeroizing};

use super::KeySwitcher;
use crate::{Error, Result};

/// The secret-key distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecretDistribution {
    /// Uniform in {-1, 0, 1} (what the HE-standard security table assumes).
    Ternary,
    /// Exactly h non-zero coefficients in {-1, 1} (paper 004 uses h = 64).
    HammingWeight(usize),
}

/// The identity of a key pair (OpenFHE's keyTag): the first 8 bytes of SHA-256 over a domain tag and
/// the secret's coefficients. Public keys, evaluation keys and ciphertexts carry the identity of the
/// secret they belong to, so that a key or ciphertext of another key pair is refused instead of
/// giving garbage. Decision: a one-way function of s (not a random tag) so that a secret key loaded
/// from bytes or imported from coefficients has the same identity without storing it, and the
/// identity reveals nothing usable about s (s has n log2(3) bits of entropy; 64 bits of a hash
/// identify a pair among users, they do not authenticate it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(pub u64);

impl core::fmt::Display for KeyId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl core::fmt::Debug for KeyId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "KeyId({self})")
    }
}

impl KeyId {
    pub(crate) fn of_secret(coeffs: &[i64]) -> KeyId {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(b"rnsfhe key identity v1");
        h.update((coeffs.len() as u64).to_le_bytes());
        let bytes: Zeroizing<Vec<u8>> = Zeroizing::new(coeffs.iter().map(|&c| c as u8).collect());
        h.update(&bytes[..]);
        let d = h.finalize();
        let mut id = [0u8; 8];
        id.copy_from_slice(&d[..8]);
        KeyId(u64::from_le_bytes(id))
    }

    /// The identity of a value made from two operands of identities `a` and `b` (`None`: a trivial or
    /// imported ciphertext, compatible with any key); an error naming both when they differ.
    pub fn join(a: Option<KeyId>, b: Option<KeyId>) -> Result<Option<KeyId>> {
        match (a, b) {
            (Some(x), Some(y)) if x != y => Err(Error::KeyMismatch {
                what: "the operands were encrypted under two different key pairs".into(),
                left: x,
                right: y,
            }),
            (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
            (None, None) => Ok(None),
        }
    }

    /// Refuses a `what` (a key) of identity `key` for a ciphertext of identity `ct`.
    pub fn check(ct: Option<KeyId>, key: KeyId, what: &str) -> Result<()> {
        match ct {
            Some(c) if c != key => Err(Error::KeyMismatch {
                what: format!("the ciphertext (left) against the {what} (right)"),
                left: c,
                right: key,
            }),
            _ => Ok(()),
        }
    }
}

/// A secret key s: its coefficients and its NTT form over Q and over Q u P. Zeroized on drop.
pub struct SecretKey {
    coeffs: Zeroizing<Vec<i64>>,
    s_q: Poly,
    s_qp: Poly,
    id: KeyId,
}

impl core::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SecretKey({})", self.id)
    }
}

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.s_q.residues_mut().zeroize();
        self.s_qp.residues_mut().zeroize();
    }
}

/// s in NTT form; in a Montgomery ring (paper 001 section 4) held as s M, so that products with
/// Montgomery ciphertexts and keys keep their form and products with plain uniform a give a s.
fn ntt_of(ctx: &Arc<RingContext>, coeffs: &[i64]) -> Result<Poly> {
    let mut p = Poly::from_signed(ctx, coeffs)?;
    p.to_ntt()?;
    if is_montgomery(ctx) {
        return Ok(p.to_montgomery()?);
    }
    Ok(p)
}

/// Whether the ring reduces products by Montgomery (general Phi_m, paper 001 section 3.2).
pub(crate) fn is_montgomery(ctx: &RingContext) -> bool {
    ctx.reduction() == Some(rnsfhe_math::ring::Reduction::Montgomery)
}

impl SecretKey {
    /// Samples a secret from `dist` for the rings of `sw`.
    pub fn generate(sw: &KeySwitcher, dist: SecretDistribution, rng: &mut Csprng) -> Result<Self> {
        let n = sw.ring_q().degree();
        let coeffs = match dist {
            SecretDistribution::Ternary => ternary(rng, n),
            SecretDistribution::HammingWeight(h) => ternary_hamming(rng, n, h)?,
        };
        Self::from_coefficients(sw, coeffs)
    }

    /// A secret key from given coefficients (tests and key import); each must be in {-1, 0, 1}.
    pub fn from_coefficients(sw: &KeySwitcher, coeffs: Zeroizing<Vec<i64>>) -> Result<Self> {
        if coeffs.len() != sw.ring_q().degree() {
            return Err(Error::LengthMismatch {
                what: "secret key coefficients",
                expected: sw.ring_q().degree(),
                got: coeffs.len(),
            });
        }
        if coeffs.iter().any(|c| c.abs() > 1) {
            return Err(Error::OutOfRange(
                "secret key coefficients must be in {-1, 0, 1}".into(),
            ));
        }
        let s_q = ntt_of(sw.ring_q(), &coeffs)?;
        let s_qp = ntt_of(sw.ring_qp(), &coeffs)?;
        let id = KeyId::of_secret(&coeffs);
        Ok(SecretKey {
            coeffs,
            s_q,
            s_qp,
            id,
        })
    }

    /// The identity of this key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }

    /// The signed coefficients of s.
    pub fn coefficients(&self) -> &[i64] {
        &self.coeffs
    }

    /// s in NTT form over Q.
    pub fn ntt_q(&self) -> &Poly {
        &self.s_q
    }

    /// s in NTT form over `ring`, a level of Q (its first moduli, the same NTT tables): the
    /// decryptions at a level of CKKS and BGV and BFV's switched one.
    pub fn ntt_at(&self, ring: &Arc<RingContext>) -> Result<Poly> {
        let own = self.s_q.context();
        let k = ring.moduli().len();
        let len = ring.limb_len(Representation::Ntt);
        if k > own.moduli().len()
            || ring.moduli() != &own.moduli()[..k]
            || len != own.limb_len(Representation::Ntt)
        {
            return Err(Error::ContextMismatch(
                "the secret key's modulus Q does not start with this ring's moduli".into(),
            ));
        }
        let mut s = Poly::zero(ring, Representation::Ntt);
        s.residues_mut()
            .copy_from_slice(&self.s_q.residues()[..k * len]);
        Ok(s)
    }

    /// s in NTT form over Q u P.
    pub fn ntt_qp(&self) -> &Poly {
        &self.s_qp
    }

    /// The ring context of Q this key belongs to.
    pub fn ring(&self) -> &Arc<RingContext> {
        self.s_q.context()
    }
}

/// A public key (p0, p1) = ([-(a s + e)]_{QP}, a) in NTT form over Q u P (Q alone without special
/// moduli); a expands from `seed`. Encrypting over Q u P and dividing by P (as SEAL does) leaves a fresh
/// ciphertext with about the noise of a secret-key encryption instead of e u + e0 + e1 s.
#[derive(Clone, Debug)]
pub struct PublicKey {
    p0: Poly,
    p1: Poly,
    seed: [u8; 32],
    id: KeyId,
}

/// e in coefficient form over `ctx`, from the Gaussian.
pub(crate) fn gaussian_poly(
    ctx: &Arc<RingContext>,
    g: &DiscreteGaussian,
    rng: &mut Csprng,
) -> Result<Poly> {
    let e = g.sample(rng, ctx.degree());
    Ok(Poly::from_signed(ctx, &e)?)
}

/// A uniform polynomial in NTT form expanded from a fresh seed; returns it with the seed.
pub(crate) fn uniform_ntt(
    ctx: &Arc<RingContext>,
    rng: &mut Csprng,
    index: u32,
) -> Result<(Poly, [u8; 32])> {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    Ok((uniform_seeded(ctx, &seed, index)?, seed))
}

/// Polynomial `index` expanded from `seed`, in NTT form. Power-of-two rings draw the n NTT values
/// directly; a general-m ring draws the n coefficients and transforms them (its NTT_N form has
/// N > n values per limb, and only those of a polynomial of degree < n are valid, paper 001 section 3).
pub(crate) fn uniform_seeded(ctx: &Arc<RingContext>, seed: &[u8; 32], index: u32) -> Result<Poly> {
    let data =
        rnsfhe_math::sample::uniform_from_seed_indexed(seed, index, ctx.moduli(), ctx.degree());
    if ctx.kind() == RingKind::PowerOfTwo {
        return Ok(Poly::from_residues(ctx, data, Representation::Ntt)?);
    }
    let mut a = Poly::from_residues(ctx, data, Representation::Coefficient)?;
    a.to_ntt()?;
    Ok(a)
}

/// Reduces an unreduced general-m product (NTT form) modulo Phi_m and returns to the NTT form, so
/// that it can enter a further product (a no-op otherwise: power-of-two rings never hold one).
pub(crate) fn reduce_product(p: &mut Poly) -> Result<()> {
    if p.is_unreduced_product() {
        p.to_coefficient()?;
        p.to_ntt()?;
    }
    Ok(())
}

impl PublicKey {
    /// (-(a s + e), a) with a uniform from a fresh seed and e Gaussian.
    pub fn generate(sk: &SecretKey, g: &DiscreteGaussian, rng: &mut Csprng) -> Result<Self> {
        let ctx = sk.ntt_qp().context();
        let (a, seed) = uniform_ntt(ctx, rng, 0)?;
        let mut e = gaussian_poly(ctx, g, rng)?;
        e.to_ntt()?;
        let mut p0 = a.mul(sk.ntt_qp())?;
        p0.add_assign(&e)?;
        p0.neg_assign();
        reduce_product(&mut p0)?;
        Ok(PublicKey {
            p0,
            p1: a,
            seed,
            id: sk.id(),
        })
    }

    /// The identity of the key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }

    /// The two components in NTT form.
    pub fn parts(&self) -> (&Poly, &Poly) {
        (&self.p0, &self.p1)
    }

    /// The seed that a expands from (`uniform_from_seed`).
    pub fn seed(&self) -> &[u8; 32] {
        &self.seed
    }

    /// Rebuilds a public key from p0 (NTT form over Q u P), the seed of p1 and the identity of its
    /// key pair (deserialisation).
    pub fn from_parts(p0: Poly, seed: [u8; 32], id: KeyId) -> Result<Self> {
        if p0.representation() != Representation::Ntt {
            return Err(Error::WrongForm("a public key's p0 is in NTT form".into()));
        }
        let p1 = uniform_seeded(p0.context(), &seed, 0)?;
        Ok(PublicKey { p0, p1, seed, id })
    }
}

impl SecretKey {
    /// Ok when the key is over `ring` (a context's ring Q), else the key belongs to another
    /// parameter set.
    pub(crate) fn check_ring(&self, ring: &Arc<RingContext>) -> Result<()> {
        if Arc::ptr_eq(self.ring(), ring) {
            Ok(())
        } else {
            Err(Error::ContextMismatch(
                "the secret key belongs to another parameter set; generate it with this context"
                    .into(),
            ))
        }
    }

    /// A secret key of distribution `dist` over `sw`'s rings and its public key (KeyGen of every
    /// scheme).
    pub(crate) fn generate_pair(
        sw: &KeySwitcher,
        dist: SecretDistribution,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<(SecretKey, PublicKey)> {
        let sk = SecretKey::generate(sw, dist, rng)?;
        let pk = PublicKey::generate(&sk, g, rng)?;
        Ok((sk, pk))
    }
}

/// KeyGen and the secret-key check of a scheme context `$ctx` (fields `sw`, `params.secret`,
/// `gaussian`, `id`), written once for BFV, BGV and CKKS; with `relin`, also the relinearisation key
/// KSGen(s^2, s) (BFV's mixed strategy has its own).
macro_rules! key_methods {
    ($ctx:ty) => {
        impl $ctx {
            /// A secret key (distribution from the parameters) and its public key.
            pub fn keygen(
                &self,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<($crate::rlwe::SecretKey, $crate::rlwe::PublicKey)> {
                $crate::rlwe::SecretKey::generate_pair(
                    &self.sw,
                    self.params.secret,
                    &self.gaussian,
                    rng,
                )
            }

            pub(crate) fn check_secret(&self, sk: &$crate::rlwe::SecretKey) -> $crate::Result<()> {
                sk.check_ring(self.sw.ring_q())
            }
        }
    };
    ($ctx:ty, relin) => {
        $crate::rlwe::key_methods!($ctx);
        impl $ctx {
            /// The relinearisation key KSGen(s^2, s) of `sk` (BGV scales its error by t at use).
            pub fn relin_key(
                &self,
                sk: &$crate::rlwe::SecretKey,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<$crate::rlwe::RelinKey> {
                self.check_secret(sk)?;
                $crate::rlwe::RelinKey::generate(&self.sw, sk, &self.gaussian, self.id, rng)
            }
        }
    };
}
pub(crate) use key_methods;

/// Re-expands the second part of a seeded symmetric ciphertext (see [`SecretKey::encrypt_zero`]).
pub fn expand_seeded(ctx: &Arc<RingContext>, seed: &[u8; 32]) -> Result<Poly> {
    let mut a = uniform_seeded(ctx, seed, 0)?;
    a.to_coefficient()?;
    Ok(a)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use num_bigint::BigInt;
    use num_traits::ToPrimitive;

    use super::*;
    use crate::rlwe::KeySwitching;

    /// ModDown of public-key encryption and key switching rounds to nearest: x - P y is within P/2
    /// (a floor's bias of 1/2 times s is large in CKKS's canonical embedding).
    #[test]
    fn mod_down_rounds_to_nearest() {
        let n = 1024;
        let q = rnsfhe_math::arith::ntt_primes(48, 2 * n as u64, 4, &[]).unwrap();
        let p = rnsfhe_math::arith::ntt_primes(48, 2 * n as u64, 1, &q).unwrap();
        let sw = KeySwitcher::new(n, &q, &p, KeySwitching::default()).unwrap();
        let mut rng = Csprng::from_seed([3; 32]);
        let ctx = sw.ring_qp();
        let x = Poly::from_residues(
            ctx,
            rng.uniform_poly(ctx.moduli(), n),
            Representation::Coefficient,
        )
        .unwrap();
        let y = sw.mod_down_qp(&x).unwrap();
        let pq = BigInt::from(ctx.basis().product().clone());
        let pp = BigInt::from(p[0]);
        let mut mean = 0f64;
        for (a, b) in x
            .to_biguint()
            .unwrap()
            .into_iter()
            .zip(y.to_biguint().unwrap())
        {
            let mut r = (BigInt::from(a) - &pp * BigInt::from(b)) % &pq;
            if r < BigInt::from(0) {
                r += &pq;
            }
            if r > &pq / 2 {
                r -= &pq;
            }
            let f = r.to_f64().unwrap() / p[0] as f64;
            assert!(f.abs() <= 0.5, "residual {f} P");
            mean += f / n as f64;
        }
        assert!(mean.abs() < 0.05, "mean residual {mean} P");
    }
}
