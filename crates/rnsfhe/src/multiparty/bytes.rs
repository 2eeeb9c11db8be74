//! Shares and threshold secrets to and from bytes (format 5, kinds 24 and 25), with the format's
//! header (magic, version, kind, parameter fingerprint) and CRC-32 trailer.
//!
//! A share: protocol (u8), round (u8), the CRS's identity (u64), the binding (u64), the optional
//! threshold group (t, member count, members as u32; a re-shared group sets the top bit of t and
//! ends with its epoch, u64), the level (u32), the Galois elements (count,
//! u64 each), the complete flag (u8), the parties (count, u32 each), for a sum of two or more
//! parties' shares the digest of each one's share (32 bytes each, in the parties' order; a single
//! party's share has its digest recomputed from its fields: [`Share::digest`]), then its
//! polynomials (count, each with its representation), over the rings its round's layout gives.
//! Every count is checked against its bound before anything is allocated.
//!
//! A threshold secret: the party's index (u32), its group (t, count, members) and its share (NTT
//! form over Q u P). Keep those bytes secret.

use zeroize::Zeroizing;

use super::share::MAX_PARTIES;
use super::{Group, Protocol, Round, Share, ThresholdSecret};
use crate::rlwe::KeyContext;
use crate::serialize::{Kind, Reader, Writer};
use crate::{Error, Result};

fn malformed(what: String) -> Error {
    Error::Malformed(what)
}

/// The flag on a group's t word that says an epoch follows its members (a re-shared group; t is
/// at most [`MAX_PARTIES`], so the bit is free, and readers without epochs refuse the group).
const EPOCH_FLAG: u32 = 1 << 31;

impl Writer {
    fn group(&mut self, g: &Group) {
        if g.epoch == 0 {
            self.u32(g.t);
            self.parties(&g.members);
        } else {
            self.u32(g.t | EPOCH_FLAG);
            self.parties(&g.members);
            self.u64(g.epoch);
        }
    }

    fn parties(&mut self, p: &[u32]) {
        self.u32(p.len() as u32);
        p.iter().for_each(|&i| self.u32(i));
    }
}

impl Reader<'_> {
    /// Party indices written by `Writer::parties`: at most [`MAX_PARTIES`], sorted and distinct.
    fn parties(&mut self, what: &str) -> Result<Vec<u32>> {
        let count = self.u32()? as usize;
        if count == 0 || count > MAX_PARTIES {
            return Err(malformed(format!(
                "{count} {what}, 1..={MAX_PARTIES} expected"
            )));
        }
        let mut v = Vec::with_capacity(count);
        for _ in 0..count {
            v.push(self.u32()?);
        }
        if v.windows(2).any(|w| w[0] >= w[1]) {
            return Err(malformed(format!("{what} not sorted and distinct")));
        }
        Ok(v)
    }

    fn group(&mut self) -> Result<Group> {
        let word = self.u32()?;
        let members = self.parties("group members")?;
        let mut g = Group::new((word & !EPOCH_FLAG) as usize, &members)
            .map_err(|e| malformed(format!("a threshold group: {e}")))?;
        if word & EPOCH_FLAG != 0 {
            g.epoch = self.u64()?;
            if g.epoch == 0 {
                return Err(malformed("a re-shared group of epoch 0".into()));
            }
        }
        Ok(g)
    }
}

impl Share {
    /// The share as bytes (zeroized on drop: a Shamir share is secret).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let r = &self.round;
        let mut w = Writer::new(Kind::MultipartyShare, self.fingerprint);
        w.u8(r.protocol as u8);
        w.u8(r.round);
        w.u64(r.crs);
        w.u64(r.binding);
        w.option(r.group.as_ref(), |w, g| w.group(g));
        w.u32(r.level as u32);
        w.u32(r.elements.len() as u32);
        r.elements.iter().for_each(|&e| w.u64(e));
        w.u8(u8::from(self.complete));
        w.parties(&self.parties);
        self.digests.iter().for_each(|d| w.bytes(d));
        w.u32(self.polys.len() as u32);
        self.polys.iter().for_each(|p| w.poly(p));
        Zeroizing::new(w.finish())
    }

    /// A share from bytes written for `ctx`'s parameters.
    pub fn from_bytes(ctx: &dyn KeyContext, bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, Kind::MultipartyShare, ctx.params_fingerprint())?;
        let p = r.u8()?;
        let protocol =
            Protocol::from_u8(p).ok_or_else(|| malformed(format!("protocol tag {p}")))?;
        let round_no = r.u8()?;
        let crs = r.u64()?;
        let binding = r.u64()?;
        let group = r.option("threshold group", |r| r.group())?;
        let level = r.u32()? as usize;
        let count = r.u32()? as usize;
        let n = ctx.key_switcher().ring_q().degree();
        if count > n {
            return Err(malformed(format!("{count} Galois elements for degree {n}")));
        }
        let mut elements = Vec::with_capacity(count);
        for _ in 0..count {
            elements.push(r.u64()?);
        }
        let round = Round {
            protocol,
            round: round_no,
            crs,
            binding,
            group,
            level,
            elements,
        };
        let complete = match r.u8()? {
            0 => false,
            1 => true,
            f => return Err(malformed(format!("complete flag {f}"))),
        };
        let parties = r.parties("parties")?;
        let mut digests = Vec::with_capacity(parties.len());
        if parties.len() > 1 && r.version() < 6 {
            return Err(malformed(format!(
                "an aggregate of {} parties in format {}, which did not list the digests of its \
                 shares: aggregate the shares again with this version",
                parties.len(),
                r.version()
            )));
        }
        if parties.len() > 1 {
            for _ in &parties {
                digests.push(r.seed()?);
            }
        }
        let layout = round
            .layout(ctx)
            .map_err(|e| malformed(format!("a {} share: {e}", round.name())))?;
        let polys_count = r.u32()? as usize;
        if polys_count != layout.len() {
            return Err(malformed(format!(
                "a {} share of {polys_count} polynomials, {} expected",
                round.name(),
                layout.len()
            )));
        }
        let mut polys = Vec::with_capacity(polys_count);
        for (ring, form) in &layout {
            let poly = r.poly(ring)?;
            if form.is_some_and(|f| f != poly.representation()) {
                return Err(malformed(format!(
                    "a {} share's polynomial in the wrong representation",
                    round.name()
                )));
            }
            polys.push(poly);
        }
        r.end()?;
        Ok(Share {
            fingerprint: ctx.params_fingerprint(),
            round,
            parties,
            digests,
            own: std::sync::OnceLock::new(),
            complete,
            polys,
        })
    }
}

impl ThresholdSecret {
    /// The threshold secret as bytes. Keep them secret.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::new(Kind::ThresholdSecret, self.fingerprint);
        w.u32(self.index);
        w.group(&self.group);
        w.poly(&self.share);
        Zeroizing::new(w.finish())
    }

    /// A threshold secret from bytes written for `ctx`'s parameters.
    pub fn from_bytes(ctx: &dyn KeyContext, bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, Kind::ThresholdSecret, ctx.params_fingerprint())?;
        let index = r.u32()?;
        let group = r.group()?;
        if !group.contains(index) {
            return Err(malformed(format!(
                "party {index}'s threshold secret for a group without it"
            )));
        }
        let share = r.poly(ctx.key_switcher().ring_qp())?;
        r.end()?;
        if share.representation() != rnsfhe_math::ring::Representation::Ntt {
            return Err(malformed("a threshold share in coefficient form".into()));
        }
        Ok(ThresholdSecret {
            index,
            group,
            share,
            fingerprint: ctx.params_fingerprint(),
        })
    }
}
