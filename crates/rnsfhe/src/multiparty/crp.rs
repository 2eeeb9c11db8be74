//! [`Crp`]: the common reference polynomials of one protocol instance (Lattigo's CRP), the
//! uniform a of every key component expanded once from the [`Crs`] (PETS 2021, section 4: "a is
//! sampled from the CRS"), so that a party's shares, the rounds it repeats and the last step do
//! not expand them again. A share made with a [`Crp`] is the share made with its [`Crs`], bit for
//! bit: the expansion is the same, done once.

use rnsfhe_math::ring::Poly;

use super::{crs_id, Protocol, Round};
use crate::rlwe::{Crs, Domain, KeyContext, KeySwitchKey};
use crate::{Error, Result};

/// The uniform polynomials of the keys of one CKG, RKG or RTG instance: per key (the public key,
/// the relinearisation key, or one Galois key per element), the a of each component, in NTT form
/// over the key's ring at `level`. Public: anyone holding the CRS computes the same.
#[derive(Clone, Debug)]
pub struct Crp {
    pub(crate) crs: Crs,
    pub(crate) fingerprint: u64,
    pub(crate) level: usize,
    pub(crate) keys: Vec<(Domain, Vec<Poly>)>,
}

impl Crp {
    /// The a of the public key of `crs` (over Q u P).
    pub(crate) fn public_key(ctx: &dyn KeyContext, crs: &Crs) -> Result<Self> {
        let fp = ctx.params_fingerprint();
        let sw = ctx.key_switcher();
        let seed = crs.seed(fp, Domain::PublicKey, 0);
        let a = crate::rlwe::uniform_seeded(sw.ring_qp(), &seed, 0)?;
        Ok(Crp {
            crs: *crs,
            fingerprint: fp,
            level: sw.top_level(),
            keys: vec![(Domain::PublicKey, vec![a])],
        })
    }

    /// The a of the components of the key-switching keys `domains` at `level` under `crs`.
    pub(crate) fn switching_keys(
        ctx: &dyn KeyContext,
        crs: &Crs,
        domains: impl IntoIterator<Item = Domain>,
        level: usize,
    ) -> Result<Self> {
        let fp = ctx.params_fingerprint();
        let sw = ctx.key_switcher();
        let keys = domains
            .into_iter()
            .map(|d| Ok((d, KeySwitchKey::crs_uniforms(sw, crs, fp, d, level)?)))
            .collect::<Result<_>>()?;
        Ok(Crp {
            crs: *crs,
            fingerprint: fp,
            level,
            keys,
        })
    }

    /// The common reference string expanded.
    pub fn crs(&self) -> &Crs {
        &self.crs
    }

    /// The level of the keys.
    pub fn level(&self) -> usize {
        self.level
    }

    /// The Galois elements of an RTG instance's keys, sorted (empty for CKG and RKG).
    pub fn elements(&self) -> Vec<u64> {
        self.keys
            .iter()
            .filter_map(|(d, _)| match d {
                Domain::Galois(g) => Some(*g),
                _ => None,
            })
            .collect()
    }

    /// The expansions of key `domain`'s components, if this instance has that key.
    pub(crate) fn uniforms(&self, domain: Domain) -> Option<&[Poly]> {
        self.keys.iter().find(|k| k.0 == domain).map(|k| &k.1[..])
    }

    /// Ok when these are the reference polynomials of the aggregate's round `round` under `ctx`'s
    /// parameters (what a last step takes with them): refused, naming them, when of other
    /// parameters, another protocol, reference string, level or Galois elements.
    pub(crate) fn check_for(&self, ctx: &dyn KeyContext, round: &Round, what: &str) -> Result<()> {
        let domain = match round.protocol {
            Protocol::PublicKey => Domain::PublicKey,
            Protocol::Relin => Domain::Relin,
            Protocol::Galois => Domain::Galois(0),
            p => {
                return Err(Error::InvalidParameters(format!(
                    "{what}: a {p:?} round has no reference polynomials"
                )))
            }
        };
        self.check(ctx, domain, what)?;
        let why = if crs_id(&self.crs) != round.crs {
            format!(
                "expanded from the reference string {:016x}, the aggregate's is {:016x}",
                crs_id(&self.crs),
                round.crs
            )
        } else if self.level != round.level {
            format!(
                "at level {}, the aggregate's is {}",
                self.level, round.level
            )
        } else if self.elements() != round.elements {
            format!(
                "for the Galois elements {:?}, the aggregate's are {:?}",
                self.elements(),
                round.elements
            )
        } else {
            return Ok(());
        };
        Err(Error::InvalidParameters(format!(
            "{what}: reference polynomials (Crp) of another instance: {why}"
        )))
    }

    /// Ok when these are of `ctx`'s parameters and of the key `what` expects (`domain` of the
    /// first key: the protocol's kind).
    pub(crate) fn check(&self, ctx: &dyn KeyContext, domain: Domain, what: &str) -> Result<()> {
        crate::rlwe::check_params(self.fingerprint, ctx.params_fingerprint(), what)?;
        let same_kind = match (self.keys.first().map(|k| k.0), domain) {
            (Some(Domain::Galois(_)), Domain::Galois(_)) => true,
            (Some(d), want) => d == want,
            (None, _) => false,
        };
        if !same_kind {
            return Err(Error::InvalidParameters(format!(
                "{what}: reference polynomials of another key ({:?})",
                self.keys.first().map(|k| k.0)
            )));
        }
        Ok(())
    }
}
