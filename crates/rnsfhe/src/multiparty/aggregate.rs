//! [`Aggregator`]: the sum of the shares of one round, with its refusals (a
//! duplicated, stale, corrupted or foreign share, an unexpected party, and the missing ones at
//! the end). Every protocol aggregates by addition (PETS 2021: "the aggregation is the sum"), so
//! one aggregator serves them all.

use std::collections::{BTreeMap, BTreeSet};

use rnsfhe_math::ring::Representation;

use super::share::{sorted_parties, ShareDigest, Slot};
use super::{Round, Share};
use crate::rlwe::KeyContext;
use crate::{Error, Result, ShareFault};

/// The running sum of the shares of one [`Round`] from an expected set of parties.
///
/// A share is added only after every check passed (a refused share leaves the sum as it was):
/// its parameters (`Foreign`), its round, session, input, threshold group, level and elements
/// (`Stale`), its parties (`Unexpected` outside the expected set, `Duplicate` when already
/// counted), its shape (`Corrupted`), and, from bytes, its checksum and layout (`Corrupted`).
/// Shares may be partial sums themselves ([`Self::partial`]), so aggregation can be a tree. The
/// result lists the digest of every party's share ([`Share::contributions`]), taken from the
/// partial sums for their parties.
#[derive(Debug)]
pub struct Aggregator {
    fingerprint: u64,
    round: Round,
    layout: Vec<Slot>,
    expected: BTreeSet<u32>,
    seen: BTreeMap<u32, ShareDigest>,
    sum: Vec<rnsfhe_math::ring::Poly>,
}

impl Aggregator {
    /// An aggregator of `round` under `ctx`'s parameters expecting the shares of `parties` (for a
    /// round with a threshold group, exactly its members).
    pub fn new(ctx: &dyn KeyContext, round: Round, parties: &[u32]) -> Result<Self> {
        let parties = sorted_parties(parties, "the parties of an aggregation")?;
        if let Some(g) = &round.group {
            if g.members != parties {
                return Err(Error::InvalidParameters(format!(
                    "{}: the parties {parties:?} are not the threshold group's members {:?}",
                    round.name(),
                    g.members
                )));
            }
        }
        Ok(Aggregator {
            fingerprint: ctx.params_fingerprint(),
            layout: round.layout(ctx)?,
            round,
            expected: parties.into_iter().collect(),
            seen: BTreeMap::new(),
            sum: Vec::new(),
        })
    }

    /// The round aggregated.
    pub fn round(&self) -> &Round {
        &self.round
    }

    /// Adds a share (or a partial sum), or refuses it with [`Error::ShareRefused`] naming it and
    /// the fault; the sum is unchanged on refusal.
    pub fn add(&mut self, share: &Share) -> Result<()> {
        if share.fingerprint != self.fingerprint {
            return Err(share.refused(
                ShareFault::Foreign,
                format!(
                    "made for parameter set {:016x}, this aggregation's is {:016x}",
                    share.fingerprint, self.fingerprint
                ),
            ));
        }
        if let Some(why) = self.round.difference(&share.round) {
            return Err(share.refused(ShareFault::Stale, why));
        }
        let stray: Vec<u32> = share
            .parties
            .iter()
            .filter(|p| !self.expected.contains(p))
            .copied()
            .collect();
        if !stray.is_empty() {
            return Err(share.refused(
                ShareFault::Unexpected,
                format!(
                    "parties {stray:?} are not among the expected {:?}",
                    self.expected
                ),
            ));
        }
        let again: Vec<u32> = share
            .parties
            .iter()
            .filter(|p| self.seen.contains_key(p))
            .copied()
            .collect();
        if !again.is_empty() {
            return Err(share.refused(
                ShareFault::Duplicate,
                format!("the shares of parties {again:?} were already added"),
            ));
        }
        self.check_shape(share)?;
        if self.sum.is_empty() {
            self.sum = share.polys.clone();
        } else {
            for (s, p) in self.sum.iter_mut().zip(&share.polys) {
                s.add_assign(p)?;
            }
        }
        self.seen.extend(share.contributions());
        Ok(())
    }

    /// [`Self::add`] of a share given as bytes ([`Share::to_bytes`]): bytes that fail their
    /// checksum or do not parse are refused as `Corrupted`, bytes of other parameters as
    /// `Foreign`.
    pub fn add_bytes(&mut self, ctx: &dyn KeyContext, bytes: &[u8]) -> Result<()> {
        let share = Share::from_bytes(ctx, bytes).map_err(|e| {
            let fault = match e {
                Error::ParameterMismatch { .. } => ShareFault::Foreign,
                _ => ShareFault::Corrupted,
            };
            Error::ShareRefused {
                share: format!("{} share bytes ({} bytes)", self.round.name(), bytes.len()),
                fault,
                detail: e.to_string(),
            }
        })?;
        self.add(&share)
    }

    /// The number of polynomials, their rings and representations against the round's layout
    /// (the ciphertext's representation, where the layout leaves it open, set by the first share).
    fn check_shape(&self, share: &Share) -> Result<()> {
        if share.polys.len() != self.layout.len() {
            return Err(share.refused(
                ShareFault::Corrupted,
                format!(
                    "{} polynomials, this round has {}",
                    share.polys.len(),
                    self.layout.len()
                ),
            ));
        }
        for (i, (p, (ring, form))) in share.polys.iter().zip(&self.layout).enumerate() {
            let want: Option<Representation> =
                form.or_else(|| self.sum.get(i).map(|s| s.representation()));
            let ring_ok = std::sync::Arc::ptr_eq(p.context(), ring);
            if !ring_ok || want.is_some_and(|w| w != p.representation()) {
                return Err(share.refused(
                    ShareFault::Corrupted,
                    format!("polynomial {i} is over another ring or in another representation"),
                ));
            }
        }
        Ok(())
    }

    /// The digests of the parties' shares as a sum lists them (none for a single party's).
    fn digests(&self) -> Vec<ShareDigest> {
        if self.seen.len() > 1 {
            self.seen.values().copied().collect()
        } else {
            Vec::new()
        }
    }

    /// A single party's digest, already known.
    fn own(&self) -> std::sync::OnceLock<ShareDigest> {
        match self.seen.values().next() {
            Some(d) if self.seen.len() == 1 => std::sync::OnceLock::from(*d),
            _ => std::sync::OnceLock::new(),
        }
    }

    /// The expected parties whose shares have not arrived.
    pub fn missing(&self) -> Vec<u32> {
        (self.expected.iter())
            .filter(|p| !self.seen.contains_key(p))
            .copied()
            .collect()
    }

    /// Whether every expected share was added.
    pub fn is_complete(&self) -> bool {
        self.seen.keys().eq(self.expected.iter())
    }

    /// The sum so far, as a share of the parties counted (to aggregate in a tree).
    pub fn partial(&self) -> Result<Share> {
        if self.seen.is_empty() {
            return Err(Error::ShareRefused {
                share: format!("{} aggregate", self.round.name()),
                fault: ShareFault::Missing,
                detail: "no share was added".into(),
            });
        }
        Ok(Share {
            fingerprint: self.fingerprint,
            round: self.round.clone(),
            parties: self.seen.keys().copied().collect(),
            digests: self.digests(),
            own: self.own(),
            complete: false,
            polys: self.sum.clone(),
        })
    }

    /// The complete aggregate (what the protocol's next step takes), or a `Missing` refusal naming
    /// the parties whose shares never arrived.
    pub fn finish(mut self) -> Result<Share> {
        let missing = self.missing();
        if !missing.is_empty() {
            return Err(Error::ShareRefused {
                share: format!("{} aggregate", self.round.name()),
                fault: ShareFault::Missing,
                detail: format!("no share from parties {missing:?} (of {:?})", self.expected),
            });
        }
        Ok(Share {
            fingerprint: self.fingerprint,
            round: self.round.clone(),
            parties: self.seen.keys().copied().collect(),
            digests: self.digests(),
            own: self.own(),
            complete: true,
            polys: std::mem::take(&mut self.sum),
        })
    }
}

impl Drop for Aggregator {
    /// A sum of Shamir shares (a threshold secret) is zeroized.
    fn drop(&mut self) {
        if self.round.protocol.is_secret() {
            for p in &mut self.sum {
                zeroize::Zeroize::zeroize(p.residues_mut());
            }
        }
    }
}
