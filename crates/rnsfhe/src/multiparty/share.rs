//! [`Share`]: what a party sends in a protocol round, and [`Round`]: what the share answers (the
//! protocol and its round, the session's common reference string, the round's input, the
//! threshold group, the level and Galois elements), so that an aggregator can refuse a share of
//! another round, session or input by comparing two small records.

use std::sync::{Arc, OnceLock};

use rnsfhe_math::ring::{Poly, Representation, RingContext};
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

use crate::rlwe::{Crs, KeyContext};
use crate::{Error, Result, ShareFault};

/// The protocols of Mouchet et al. (PETS 2021) and the thresholdizer of Mouchet, Bertrand and
/// Hubaux (2022), as tagged in a share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Protocol {
    /// CKG: collective public-key generation (one round).
    PublicKey = 1,
    /// RKG: relinearisation-key generation (two rounds).
    Relin = 2,
    /// RTG: Galois-key generation (one round).
    Galois = 3,
    /// CKS: collective key switching, to s' = 0 (decryption) or to another collective secret.
    KeySwitch = 4,
    /// PCKS: public-key switching to a receiver's public key.
    PublicKeySwitch = 5,
    /// The thresholdizer's Shamir share of one party's secret for another party (secret).
    Shamir = 6,
    /// Collective refresh (and masked transform) of a ciphertext to the top level (one round).
    Refresh = 7,
    /// Re-sharing: a Shamir share of an old party's Lagrange-weighted share for a new party
    /// (secret).
    Reshare = 8,
    /// A masked transform's encryption-to-shares share (under the input's parameters).
    EncToShares = 9,
    /// A masked transform's shares-to-encryption share (under the output's parameters).
    SharesToEnc = 10,
}

impl Protocol {
    pub(crate) fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            1 => Protocol::PublicKey,
            2 => Protocol::Relin,
            3 => Protocol::Galois,
            4 => Protocol::KeySwitch,
            5 => Protocol::PublicKeySwitch,
            6 => Protocol::Shamir,
            7 => Protocol::Refresh,
            8 => Protocol::Reshare,
            9 => Protocol::EncToShares,
            10 => Protocol::SharesToEnc,
            _ => return None,
        })
    }

    /// Whether its shares are secret (Shamir and re-sharing shares: zeroized, no bytes without
    /// consent).
    pub fn is_secret(self) -> bool {
        matches!(self, Protocol::Shamir | Protocol::Reshare)
    }

    /// The number of rounds (RKG has two, the others one).
    pub fn rounds(self) -> u8 {
        if self == Protocol::Relin {
            2
        } else {
            1
        }
    }
}

/// A threshold group: t and the parties it concerns, by index (sorted, distinct), and the epoch of
/// the sharing (0 for the first dealing; after a re-sharing, its own identity:
/// [`super::threshold::reshared_group`]). For a Shamir share, the N parties the secret is shared
/// among; for a share made with a combined threshold secret ([`super::ThresholdSecret::combine`]),
/// the t parties present, whose Lagrange coefficients the share depends on, with the epoch of
/// their secrets: shares of another epoch are of another sharing of s, and an aggregator refuses
/// them (stale). Party i's Shamir point is [`Group::point`]`(i)` = i + 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    pub(crate) t: u32,
    pub(crate) members: Vec<u32>,
    pub(crate) epoch: u64,
}

/// The most parties of one protocol (a bound for byte readers; any real use is far below).
pub const MAX_PARTIES: usize = 1 << 16;

impl Group {
    /// The group of threshold `t` over `members` (any order; distinct; 1 <= t <= their count).
    pub fn new(t: usize, members: &[u32]) -> Result<Self> {
        let members = sorted_parties(members, "group members")?;
        if t == 0 || t > members.len() {
            return Err(Error::InvalidParameters(format!(
                "threshold t = {t} must be in 1..={} (the group's size)",
                members.len()
            )));
        }
        Ok(Group {
            t: t as u32,
            members,
            epoch: 0,
        })
    }

    /// The epoch of the sharing (0: the first dealing).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The parties `present` of this group acting together (at least t of its members), with its
    /// t and epoch: the group of the rounds they run with combined secrets.
    pub fn subgroup(&self, present: &[u32]) -> Result<Group> {
        let present = sorted_parties(present, "the parties present")?;
        let strangers: Vec<u32> = (present.iter())
            .filter(|&&p| !self.contains(p))
            .copied()
            .collect();
        if present.len() < self.t() || !strangers.is_empty() {
            return Err(Error::InvalidParameters(format!(
                "{present:?} acting in the group {:?} (t = {}, epoch {:016x}): need at least t \
                 of its members (strangers: {strangers:?})",
                self.members, self.t, self.epoch
            )));
        }
        Ok(Group {
            t: self.t,
            members: present,
            epoch: self.epoch,
        })
    }

    /// The threshold t.
    pub fn t(&self) -> usize {
        self.t as usize
    }

    /// The members, sorted.
    pub fn members(&self) -> &[u32] {
        &self.members
    }

    /// The public Shamir point of party `index`: index + 1 (non-zero, below every prime).
    pub fn point(index: u32) -> u64 {
        u64::from(index) + 1
    }

    pub(crate) fn contains(&self, index: u32) -> bool {
        self.members.binary_search(&index).is_ok()
    }
}

/// Party indices sorted, refused when empty, repeated or more than [`MAX_PARTIES`].
pub(crate) fn sorted_parties(parties: &[u32], what: &str) -> Result<Vec<u32>> {
    let mut v = parties.to_vec();
    v.sort_unstable();
    v.dedup();
    if v.is_empty() || v.len() != parties.len() || v.len() > MAX_PARTIES {
        return Err(Error::InvalidParameters(format!(
            "{what}: {} indices, {} distinct; give 1..={MAX_PARTIES} distinct ones",
            parties.len(),
            v.len()
        )));
    }
    Ok(v)
}

/// What a share answers: one round of one protocol in one session (the hash of its common
/// reference string), for one input (`binding`: a hash of the round-1 aggregate, of the
/// ciphertext and target, or the recipient of a Shamir share; 0 when none), by one threshold
/// group (none: N-out-of-N), at one level, for the Galois elements of RTG. Every protocol module
/// has a function that makes the round of its step, for the parties and for the aggregator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub(crate) protocol: Protocol,
    pub(crate) round: u8,
    pub(crate) crs: u64,
    pub(crate) binding: u64,
    pub(crate) group: Option<Group>,
    pub(crate) level: usize,
    pub(crate) elements: Vec<u64>,
}

impl Round {
    /// The protocol.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }
    /// The round, from 1.
    pub fn round(&self) -> u8 {
        self.round
    }
    /// The hash of the session's common reference string ([`crs_id`]).
    pub fn crs(&self) -> u64 {
        self.crs
    }
    /// The hash of the round's input (0: none).
    pub fn binding(&self) -> u64 {
        self.binding
    }
    /// The threshold group, if the shares come from combined threshold secrets or are Shamir shares.
    pub fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }
    /// The level (of the keys, or of the ciphertext switched).
    pub fn level(&self) -> usize {
        self.level
    }
    /// The Galois elements (RTG), sorted.
    pub fn elements(&self) -> &[u64] {
        &self.elements
    }

    /// "Relin round 2" and the like.
    pub(crate) fn name(&self) -> String {
        format!("{:?} round {}", self.protocol, self.round)
    }

    /// The first field in which `other` differs from this round, said in words.
    pub(crate) fn difference(&self, other: &Round) -> Option<String> {
        if (self.protocol, self.round) != (other.protocol, other.round) {
            return Some(format!(
                "it is a {} share, {} expected",
                other.name(),
                self.name()
            ));
        }
        if self.crs != other.crs {
            return Some(format!(
                "made under the reference string {:016x}, this session's is {:016x}",
                other.crs, self.crs
            ));
        }
        if self.binding != other.binding {
            return Some(format!(
                "made for another input ({:016x}, this round's is {:016x}: another ciphertext, \
                 round-1 aggregate, target or recipient)",
                other.binding, self.binding
            ));
        }
        if self.group != other.group {
            return Some(format!(
                "made for the threshold group {:?}, this round's is {:?}",
                other.group, self.group
            ));
        }
        if self.level != other.level {
            return Some(format!(
                "made at level {}, this round's is {}",
                other.level, self.level
            ));
        }
        if self.elements != other.elements {
            return Some(format!(
                "made for the Galois elements {:?}, this round's are {:?}",
                other.elements, self.elements
            ));
        }
        None
    }

    /// The rings of the polynomials of a share of this round under `ctx`'s parameters, each with
    /// its representation (`None`: that of the ciphertext, NTT or coefficient form).
    pub(crate) fn layout(&self, ctx: &dyn KeyContext) -> Result<Vec<Slot>> {
        let sw = ctx.key_switcher();
        let ntt = Some(Representation::Ntt);
        if self.round == 0 || self.round > self.protocol.rounds() {
            return Err(Error::InvalidParameters(format!(
                "{} of a {}-round protocol",
                self.name(),
                self.protocol.rounds()
            )));
        }
        let key_rings = |per: usize| -> Result<Vec<Slot>> {
            let count = sw.key_components_at(self.level);
            let mut out = Vec::with_capacity(count * per);
            for c in 0..count {
                let ring = sw.key_ring(c, self.level)?;
                out.extend(std::iter::repeat_n((Arc::clone(ring), ntt), per));
            }
            Ok(out)
        };
        let top = sw.top_level();
        let at_top = |what: &str| -> Result<()> {
            if self.level != top {
                return Err(Error::InvalidParameters(format!(
                    "{what} at level {}: only at the top, {top}",
                    self.level
                )));
            }
            Ok(())
        };
        let ct_ring = || {
            sw.ring_at(self.level)
                .cloned()
                .ok_or(Error::LevelOutOfRange {
                    op: format!("a {} share", self.name()),
                    level: self.level,
                    max: top,
                })
        };
        match self.protocol {
            Protocol::PublicKey | Protocol::Shamir | Protocol::Reshare => {
                at_top("a public-key, Shamir or re-sharing share")?;
                Ok(vec![(Arc::clone(sw.ring_qp()), ntt)])
            }
            Protocol::Relin => key_rings(if self.round == 1 { 2 } else { 1 }),
            Protocol::Galois => {
                let one = key_rings(1)?;
                Ok(std::iter::repeat_n(one, self.elements.len())
                    .flatten()
                    .collect())
            }
            Protocol::KeySwitch => Ok(vec![(ct_ring()?, None)]),
            Protocol::PublicKeySwitch => Ok(vec![(ct_ring()?, None); 2]),
            Protocol::Refresh => Ok(vec![(ct_ring()?, None), (Arc::clone(sw.ring_q()), None)]),
            Protocol::EncToShares => Ok(vec![(ct_ring()?, None)]),
            Protocol::SharesToEnc => {
                at_top("a shares-to-encryption share")?;
                Ok(vec![(Arc::clone(sw.ring_q()), None)])
            }
        }
    }
}

/// The digest of one party's share ([`Share::digest`]).
pub type ShareDigest = [u8; 32];

/// A polynomial's ring and representation in a share (`None`: the ciphertext's).
pub(crate) type Slot = (Arc<RingContext>, Option<Representation>);

/// A party's share of a protocol round, or a sum of shares ([`super::Aggregator`]): the
/// parameter fingerprint, the [`Round`], the parties it covers (sorted), the digest of each one's
/// share ([`Self::contributions`]), whether it is the complete aggregate of its round, and its
/// polynomials. Serialisable ([`Self::to_bytes`]) with the format's header and checksum. A Shamir
/// share (secret) is zeroized on drop.
#[derive(Clone, Debug)]
pub struct Share {
    pub(crate) fingerprint: u64,
    pub(crate) round: Round,
    pub(crate) parties: Vec<u32>,
    /// For a sum of two or more parties' shares, the digest of each one's share, in the order of
    /// `parties` (empty for a single party's share: see `own`).
    pub(crate) digests: Vec<ShareDigest>,
    /// A single party's digest ([`Self::digest`]), computed on first use (once per share: by the
    /// aggregator that counts it, or the party that checks it).
    pub(crate) own: OnceLock<ShareDigest>,
    pub(crate) complete: bool,
    pub(crate) polys: Vec<Poly>,
}

impl Drop for Share {
    fn drop(&mut self) {
        if self.round.protocol.is_secret() {
            self.polys
                .iter_mut()
                .for_each(|p| p.residues_mut().zeroize());
        }
    }
}

impl Share {
    /// A single party's share.
    pub(crate) fn of_party(
        ctx: &dyn KeyContext,
        round: Round,
        party: u32,
        polys: Vec<Poly>,
    ) -> Self {
        Share {
            fingerprint: ctx.params_fingerprint(),
            round,
            parties: vec![party],
            digests: Vec::new(),
            own: OnceLock::new(),
            complete: false,
            polys,
        }
    }

    /// The fingerprint of the parameters.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    /// The round it answers.
    pub fn round(&self) -> &Round {
        &self.round
    }
    /// The parties it covers (one for a party's share), sorted.
    pub fn parties(&self) -> &[u32] {
        &self.parties
    }
    /// Whether it is the complete aggregate of its round ([`super::Aggregator::finish`]).
    pub fn is_complete(&self) -> bool {
        self.complete
    }
    /// The polynomials.
    pub fn polys(&self) -> &[Poly] {
        &self.polys
    }

    /// "Relin round 1 share of party 3" and the like, for errors.
    pub(crate) fn name(&self) -> String {
        let who = match self.parties.as_slice() {
            [one] => format!("party {one}"),
            many => format!("parties {many:?}"),
        };
        let what = if self.complete { "aggregate" } else { "share" };
        format!("{} {what} of {who}", self.round.name())
    }

    /// The refusal of this share for `fault`.
    pub(crate) fn refused(&self, fault: ShareFault, detail: String) -> Error {
        Error::ShareRefused {
            share: self.name(),
            fault,
            detail,
        }
    }

    /// Ok when this is the complete aggregate of `expected` under `ctx`'s parameters (what a
    /// protocol's last step takes).
    pub(crate) fn check_aggregate(&self, ctx: &dyn KeyContext, expected: &Round) -> Result<()> {
        self.check_round(ctx, expected)?;
        if !self.complete {
            return Err(self.refused(
                ShareFault::Missing,
                "a partial sum or a single share where the complete aggregate is needed \
                 (Aggregator::finish)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Ok when this share is of `ctx`'s parameters and answers `expected`.
    pub(crate) fn check_round(&self, ctx: &dyn KeyContext, expected: &Round) -> Result<()> {
        if self.fingerprint != ctx.params_fingerprint() {
            return Err(self.refused(
                ShareFault::Foreign,
                format!(
                    "made for parameter set {:016x}, these are {:016x}",
                    self.fingerprint,
                    ctx.params_fingerprint()
                ),
            ));
        }
        match expected.difference(&self.round) {
            Some(why) => Err(self.refused(ShareFault::Stale, why)),
            None => Ok(()),
        }
    }
}

/// The identity of a session's common reference string: the first 8 bytes of SHA-256 over a
/// domain tag and the CRS, with its instance nonce if any (shares carry it; the CRS itself stays
/// with the parties), so that an aggregator refuses the shares of another instance as stale.
pub fn crs_id(crs: &Crs) -> u64 {
    let mut h = Sha256::new();
    h.update(b"rnsfhe multiparty crs v1");
    h.update(crs.bytes());
    crs.hash_nonce(&mut h);
    first_word(&h.finalize())
}

/// The first 8 bytes of BLAKE3 over a domain tag, `words` and the first limb of each polynomial:
/// what binds a share to its round's input (a ciphertext, a round-1 aggregate). One limb of a
/// uniform-looking polynomial identifies it as well as all of them. BLAKE3 rather than the SHA-256
/// of the identities above: a binding hashes megabytes (an RKG round-1 aggregate at N = 2^14: 1.75
/// MiB, 10 % of a round-2 share under SHA-256), which BLAKE3's SIMD tree hashes several times
/// faster; the words go in 64 KiB blocks so that it has whole chunks to run in parallel.
pub(crate) fn digest(tag: &str, words: &[u64], polys: &[&Poly]) -> Result<u64> {
    let mut h = blake3::Hasher::new();
    h.update(tag.as_bytes());
    for w in words {
        h.update(&w.to_le_bytes());
    }
    for p in polys {
        h.update(&[u8::from(p.representation() == Representation::Ntt)]);
        crate::rlwe::le_bytes(p.limb(0)?, 8192, |b| {
            h.update(b);
        });
    }
    Ok(first_word(h.finalize().as_bytes()))
}

fn first_word(d: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&d[..8]);
    u64::from_le_bytes(w)
}
