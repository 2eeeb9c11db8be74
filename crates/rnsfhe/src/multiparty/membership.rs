//! Whose shares an aggregate sums: the check every protocol's last step makes of the aggregate's
//! parties against the parties expected, and the digests of the inputs with which a party checks
//! that its own share was counted.
//!
//! An aggregate names its parties and carries, per party, the digest of the share that party sent
//! ([`Share::digest`]: BLAKE3 over the parameters, the round, the party's index and every residue of
//! its polynomials; 256 bits, so no other share has a given share's digest). Both arrive from bytes,
//! written by whoever aggregated, so nothing downstream takes them on trust:
//!
//! - the last step of every protocol (the collective keys, decryption, key switching, a threshold
//!   secret) takes the parties expected and refuses an aggregate of others, naming the missing
//!   ([`ShareFault::Missing`]) or unexpected ones ([`ShareFault::Unexpected`]): an aggregator that
//!   leaves out an honest party's share cannot pass off a key that the others hold alone;
//! - a party that kept its share (or its digest) checks that the aggregate counts that share and
//!   not another for it ([`Share::verify_contribution`]; [`ShareFault::Substituted`]), and RKG's
//!   round 2 makes that check itself ([`super::rkg::share_round2`]).
//!
//! What they do not prove: that the polynomials are the sum of the listed shares. An aggregator
//! that lies about both is caught only by someone holding the shares (aggregating them again gives
//! the same polynomials, bit for bit); proofs of correct aggregation are out of scope, as in the
//! semi-honest model of Mouchet et al. (PETS 2021).

use rnsfhe_math::ring::{Poly, Representation};

use super::share::{sorted_parties, ShareDigest};
use super::{Round, Share};
use crate::rlwe::KeyContext;
use crate::{Result, ShareFault};

/// BLAKE3 over a domain tag, the parameters, every field of the round, the party and the BLAKE3
/// of each of `polys` (its representation and every residue): a tree, so that the polynomials
/// hash side by side on the threads there are (a share of RKG round 1 at n = 2^14 is 14 MiB).
pub(crate) fn share_digest(
    fingerprint: u64,
    round: &Round,
    party: u32,
    polys: &[Poly],
) -> ShareDigest {
    let total = polys.iter().map(|p| p.residues().len()).sum();
    let leaves = rnsfhe_math::parallel::map(polys.len(), total, |i| {
        let mut h = blake3::Hasher::new();
        h.update(b"rnsfhe multiparty share polynomial v1");
        h.update(&[u8::from(polys[i].representation() == Representation::Ntt)]);
        crate::rlwe::le_bytes(polys[i].residues(), 8192, |b| {
            h.update(b);
        });
        Ok::<_, core::convert::Infallible>(*h.finalize().as_bytes())
    });
    let mut h = blake3::Hasher::new();
    h.update(b"rnsfhe multiparty share digest v1");
    h.update(&fingerprint.to_le_bytes());
    h.update(&[round.protocol as u8, round.round]);
    h.update(&round.crs.to_le_bytes());
    h.update(&round.binding.to_le_bytes());
    h.update(&[u8::from(round.group.is_some())]);
    if let Some(g) = &round.group {
        h.update(&g.t.to_le_bytes());
        words(&mut h, g.members.iter().map(|&m| u64::from(m)));
        if g.epoch != 0 {
            h.update(b"epoch");
            h.update(&g.epoch.to_le_bytes());
        }
    }
    h.update(&(round.level as u64).to_le_bytes());
    words(&mut h, round.elements.iter().copied());
    h.update(&party.to_le_bytes());
    h.update(&(polys.len() as u64).to_le_bytes());
    match leaves {
        Ok(leaves) => leaves.iter().for_each(|l| {
            h.update(l);
        }),
        Err(never) => match never {},
    }
    *h.finalize().as_bytes()
}

/// A length-prefixed list of words.
fn words(h: &mut blake3::Hasher, w: impl ExactSizeIterator<Item = u64>) {
    h.update(&(w.len() as u64).to_le_bytes());
    for x in w {
        h.update(&x.to_le_bytes());
    }
}

impl Share {
    /// The digest of a single party's share, what the aggregates that count it list for that party
    /// (keep it, or the share, to check them: [`Self::verify_contribution`]); refused for a sum of
    /// several parties' shares (see [`Self::contributions`]). Computed once, on first use.
    pub fn digest(&self) -> Result<ShareDigest> {
        match self.parties.as_slice() {
            [one] => Ok(*self
                .own
                .get_or_init(|| share_digest(self.fingerprint, &self.round, *one, &self.polys))),
            _ => Err(self.refused(
                ShareFault::Unexpected,
                "a sum of several parties' shares has no digest of its own; see contributions()"
                    .into(),
            )),
        }
    }

    /// The parties whose shares it sums, each with the digest of its share, sorted by party.
    pub fn contributions(&self) -> Vec<(u32, ShareDigest)> {
        match self.digest() {
            Ok(d) => vec![(self.parties[0], d)],
            Err(_) => self
                .parties
                .iter()
                .copied()
                .zip(self.digests.iter().copied())
                .collect(),
        }
    }

    /// Ok when this aggregate (or partial sum) counts `own`, a single party's share, for that
    /// party: refused as `Stale` for a share of another round, `Missing` when it counts no share
    /// of that party, `Substituted` when it counts another share for it.
    pub fn verify_contribution(&self, own: &Share) -> Result<()> {
        if let Some(why) = self.round.difference(&own.round) {
            return Err(self.refused(
                ShareFault::Stale,
                format!("the share checked against it is of another round: {why}"),
            ));
        }
        let party = match own.parties.as_slice() {
            [p] => *p,
            _ => {
                return Err(own.refused(
                    ShareFault::Unexpected,
                    "a party checks its own share, not a sum of several".into(),
                ))
            }
        };
        self.verify_contribution_digest(party, &own.digest()?)
    }

    /// [`Self::verify_contribution`] of the share of digest `digest` that party `party` sent.
    pub fn verify_contribution_digest(&self, party: u32, digest: &ShareDigest) -> Result<()> {
        match self.contributions().iter().find(|(p, _)| *p == party) {
            None => Err(self.refused(
                ShareFault::Missing,
                format!("party {party}'s share is not counted in it"),
            )),
            Some((_, d)) if d != digest => Err(self.refused(
                ShareFault::Substituted,
                format!("it counts another share for party {party} than the one that party sent"),
            )),
            Some(_) => Ok(()),
        }
    }

    /// Ok when this sums the shares of exactly `expected` (and, for a threshold round, its group
    /// is those parties): refused naming the missing (`Missing`) or unexpected (`Unexpected`)
    /// parties.
    pub(crate) fn check_parties(&self, expected: &[u32]) -> Result<()> {
        let want = sorted_parties(expected, "the parties expected")?;
        let missing: Vec<u32> = (want.iter())
            .filter(|p| self.parties.binary_search(p).is_err())
            .copied()
            .collect();
        let stray: Vec<u32> = (self.parties.iter())
            .filter(|p| want.binary_search(p).is_err())
            .copied()
            .collect();
        if !missing.is_empty() || !stray.is_empty() {
            let fault = if missing.is_empty() {
                ShareFault::Unexpected
            } else {
                ShareFault::Missing
            };
            return Err(self.refused(
                fault,
                format!(
                    "it sums the shares of {:?}, the parties expected are {want:?}: missing \
                     {missing:?}, unexpected {stray:?}",
                    self.parties
                ),
            ));
        }
        if let Some(g) = self.round.group.as_ref().filter(|g| g.members != want) {
            return Err(self.refused(
                ShareFault::Stale,
                format!(
                    "made for the threshold group {:?}, the parties expected are {want:?}",
                    g.members
                ),
            ));
        }
        Ok(())
    }

    /// Ok when this is the complete aggregate of `expected` under `ctx`'s parameters, of the
    /// shares of exactly `parties`: what every protocol's last step takes.
    pub(crate) fn check_final(
        &self,
        ctx: &dyn KeyContext,
        expected: &Round,
        parties: &[u32],
    ) -> Result<()> {
        self.check_aggregate(ctx, expected)?;
        self.check_parties(parties)
    }
}
