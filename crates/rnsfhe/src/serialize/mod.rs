//! A versioned, self-describing binary format for parameter sets, plaintexts, ciphertexts (BFV, BGV and
//! CKKS) and public, relinearisation and Galois keys, with checks on load.
//!
//! Layout (little endian): magic `RNSF`, format version (u16), object kind (u8), the parameter set's
//! fingerprint (u64, FNV-1a over its description), then the object, then a CRC-32 (IEEE) of every
//! byte before it. A polynomial is its representation (u8), limb count (u32), degree (u32) and the
//! residues (u64 each). A fresh symmetric BFV, BGV or CKKS ciphertext stores its 32-byte seed instead
//! of c_1 (half size; BFV by a flag byte, BGV and CKKS by the top bit of the part count, `parts.rs`),
//! and every key stores the seeds of its uniform components; a BFV ciphertext stores its noise bounds
//! (see `bfv/noise.rs`) so that a loaded one keeps its budget. Ciphertexts, public keys and
//! evaluation keys store the [`KeyId`] of their key pair (a secret key's is
//! recomputed from it).
//!
//! Loading checks the magic, the version, the checksum (a CRC-32 detects every single-bit error and
//! every burst of up to 32 bits, so a flipped bit is refused rather than loaded as another value), the
//! kind, the fingerprint, every size against the context, and that every residue is below its
//! modulus, and returns an error naming the first problem; it never panics on malformed bytes.
//!
//! Size limits: every count read from the bytes is checked against the context (limbs, degree, parts,
//! keys, list lengths, degree at most 2^17) before anything is allocated, and every allocation follows
//! the successful read of the bytes it holds, so a loader's memory stays proportional to its input and
//! to the context's own sizes, whatever the bytes claim (tfhe-rs's safe deserialisation is the anchor).
//!
//! Version 6 (key profiles) writes, after the header of every secret, public, relinearisation and
//! Galois key and evaluation key set, the key profile ([`crate::rlwe::KeyProfile`]: sigma, the
//! secret distribution, the key-switching layout and the security level, which the fingerprint
//! does not cover), and before every key-switching key its layout (digit primes, omega bits,
//! truncation). Loading refuses a profile or layout other than the context's, naming the field.
//! Keys of versions 2 to 5 load where their shape decides their layout (no other valid layout
//! makes keys of as many components over the same rings) and are refused, saying why, elsewhere.
//! A multiparty aggregate of several parties lists the digest of each party's share (format 6;
//! older aggregates are refused: aggregate again), and a common reference string may carry an
//! instance nonce.
//!
//! Version 5 (keys at a level) writes every key-switching key (relinearisation, Galois, switching
//! keys) with its level l before its components, which then span q_0..q_l and P and the digits
//! that meet q_0..q_l only; keys of versions 2 to 4 load as top-level keys. It adds switching keys
//! and encapsulation key pairs (kinds 22 and 23), keys whose k1 is stored in full (the collective
//! relinearisation key: the top bit of the component count set), and the multiparty shares and
//! threshold secrets of `crate::multiparty` (kinds 24 and 25).
//!
//! Version 4 (hoisted key switching) writes Galois keys from s to phi_{g^-1}(s), the automorphism
//! after the key product; the Galois keys of versions 2 and 3 (from s(X^g) to s) are converted on
//! load (phi_{g^-1} of every component). Version 3 (keys apart from contexts) writes secret keys with
//! their identity and, for a secret that is no ternary vector, its residues; version 2 is still read.
//! Version 1 (before key identities and checksums) is refused with a message saying so.

mod bfv;
mod bgv;
mod ckks;
mod hpr;
mod key_switch_key;
mod keys;
#[cfg(test)]
mod old_formats;
mod params;
mod parts;
mod switching_keys;

use std::sync::Arc;

use rnsfhe_math::ring::{Poly, Representation, RingContext};

use crate::rlwe::KeyId;
use crate::{Error, Result};

pub(crate) use keys::append_evaluation_keys;
pub use keys::KeyBytes;

/// The format version written. Versions 2 to 5 are still read: their layouts are those of version 6
/// without the key profile and key-switching layout (2 to 5), the secret key's (version 2), the form
/// of Galois keys (2 and 3) and the level of key-switching keys (2 to 4: top-level keys; see
/// `keys`).
pub const VERSION: u16 = 6;
/// Bytes of the CRC-32 trailer.
const CHECKSUM_LEN: usize = 4;
const MAGIC: &[u8; 4] = b"RNSF";

/// What a byte string holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    BfvCiphertext = 1,
    CkksCiphertext = 2,
    PublicKey = 3,
    RelinKey = 4,
    GaloisKeys = 5,
    BfvParameters = 6,
    CkksParameters = 7,
    BfvPlaintext = 8,
    CkksPlaintext = 9,
    SecretKey = 10,
    BgvCiphertext = 11,
    BgvParameters = 12,
    BgvPlaintext = 13,
    HprCiphertext = 14,
    HprPublicKey = 15,
    HprRelinKey = 16,
    HprGaloisKeys = 17,
    HprParameters = 18,
    HprSecretKey = 19,
    HprPlaintext = 20,
    EvaluationKeySet = 21,
    SwitchingKey = 22,
    EncapsulationKeys = 23,
    MultipartyShare = 24,
    ThresholdSecret = 25,
}

/// FNV-1a over a parameter description: scheme tag, degree, t or scale bits, moduli, special moduli.
pub(crate) fn fingerprint(tag: u64, degree: usize, x: u64, moduli: &[u64], special: &[u64]) -> u64 {
    let words = [tag, degree as u64, x]
        .into_iter()
        .chain(moduli.iter().copied())
        .chain([0])
        .chain(special.iter().copied());
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// An appending writer, or a counting one ([`Writer::counting`]: the length of the bytes without
/// them, e.g. to size a buffer or report the size of keys of gigabytes).
pub(crate) struct Writer {
    out: Vec<u8>,
    /// Where this object's bytes start in `out` (its CRC covers them).
    start: usize,
    /// `Some(length)` when counting.
    count: Option<usize>,
}

impl Writer {
    pub(crate) fn new(kind: Kind, fingerprint: u64) -> Self {
        Self::append(Vec::new(), kind, fingerprint)
    }
    /// A writer that appends to `out` (its CRC covers the appended bytes only).
    pub(crate) fn append(out: Vec<u8>, kind: Kind, fingerprint: u64) -> Self {
        Self::header(
            Writer {
                start: out.len(),
                out,
                count: None,
            },
            kind,
            fingerprint,
        )
    }
    /// A writer that only counts: [`Self::finish_len`] is the length [`Self::finish`] would return.
    pub(crate) fn counting(kind: Kind, fingerprint: u64) -> Self {
        Self::header(
            Writer {
                out: Vec::new(),
                start: 0,
                count: Some(0),
            },
            kind,
            fingerprint,
        )
    }
    fn header(mut w: Self, kind: Kind, fingerprint: u64) -> Self {
        w.bytes(MAGIC);
        w.bytes(&VERSION.to_le_bytes());
        w.u8(kind as u8);
        w.u64(fingerprint);
        w
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    pub(crate) fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        match self.count.as_mut() {
            Some(c) => *c += b.len(),
            None => self.out.extend_from_slice(b),
        }
    }
    pub(crate) fn poly(&mut self, p: &Poly) {
        self.u8(u8::from(p.representation() == Representation::Ntt));
        self.u32(p.context().moduli().len() as u32);
        self.u32(p.context().degree() as u32);
        if let Some(c) = self.count.as_mut() {
            *c += p.residues().len() * 8;
            return;
        }
        self.out.reserve(p.residues().len() * 8);
        for &r in p.residues() {
            self.out.extend_from_slice(&r.to_le_bytes());
        }
    }
    /// An optional field: a flag byte (0 or 1), then the value written by `put` when there is one.
    pub(crate) fn option<T>(&mut self, v: Option<T>, put: impl FnOnce(&mut Self, T)) {
        self.u8(u8::from(v.is_some()));
        if let Some(v) = v {
            put(self, v);
        }
    }
    /// An optional key identity.
    pub(crate) fn key_id(&mut self, id: Option<KeyId>) {
        self.option(id, |w, k| w.u64(k.0));
    }
    /// An optional noise bound (log2 of the bounds on ||nu||_inf and ||nu||_2).
    pub(crate) fn noise_bound(&mut self, b: Option<[f64; 2]>) {
        self.option(b, |w, [inf, l2]| {
            w.f64(inf);
            w.f64(l2);
        });
    }
    /// A ternary secret key: its count, then one byte per coefficient (0, 1 or 255 for -1).
    pub(crate) fn ternary(&mut self, coeffs: &[i64]) {
        self.u32(coeffs.len() as u32);
        coeffs.iter().for_each(|&c| self.u8(c as i8 as u8));
    }
    /// The bytes with their CRC-32 trailer.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        let crc = crc32fast::hash(&self.out[self.start..]);
        self.out.extend_from_slice(&crc.to_le_bytes());
        self.out
    }
    /// The length of the bytes with their trailer (of this object only, when appending).
    pub(crate) fn finish_len(&self) -> usize {
        self.count.unwrap_or(self.out.len() - self.start) + 4
    }
}

/// A checking reader.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    version: u16,
}

fn malformed(what: &str) -> Error {
    Error::Malformed(what.to_string())
}

impl<'a> Reader<'a> {
    /// Checks the header (magic, version), the checksum, the kind and the fingerprint.
    pub(crate) fn new(data: &'a [u8], kind: Kind, fingerprint: u64) -> Result<Self> {
        let mut r = Reader {
            data,
            pos: 0,
            version: 0,
        };
        if r.take(4)? != MAGIC {
            return Err(malformed("not rnsfhe data (bad magic)"));
        }
        let version = u16::from_le_bytes([r.u8()?, r.u8()?]);
        if version == 1 {
            return Err(malformed(
                "format version 1 was written by rnsfhe before key identities and checksums; \
                 this library reads versions 2 to 5: serialise the object again with this version",
            ));
        }
        if !(2..=VERSION).contains(&version) {
            return Err(malformed(&format!(
                "format version {version}, this library reads versions 2 to {VERSION}"
            )));
        }
        r.version = version;
        let body = data.len().checked_sub(CHECKSUM_LEN).filter(|&b| b >= r.pos);
        let body = body.ok_or_else(|| malformed("truncated: no room for the checksum"))?;
        let mut stored = [0u8; CHECKSUM_LEN];
        stored.copy_from_slice(&data[body..]);
        let (stored, computed) = (u32::from_le_bytes(stored), crc32fast::hash(&data[..body]));
        if stored != computed {
            return Err(malformed(&format!(
                "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the bytes were \
                 corrupted or truncated"
            )));
        }
        r.data = &data[..body];
        let k = r.u8()?;
        if k != kind as u8 {
            return Err(malformed(&format!(
                "the bytes hold object kind {k}, expected {} ({kind:?})",
                kind as u8
            )));
        }
        let found = r.u64()?;
        if found != fingerprint {
            return Err(Error::ParameterMismatch {
                what: format!("{kind:?} bytes"),
                expected: fingerprint,
                found,
            });
        }
        Ok(r)
    }
    /// The format version of the bytes.
    pub(crate) fn version(&self) -> u16 {
        self.version
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or_else(|| {
            malformed(&format!(
                "truncated: {n} more bytes needed at offset {}, {} left",
                self.pos,
                self.data.len() - self.pos
            ))
        })?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    pub(crate) fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }
    /// An optional field written by [`Writer::option`] (`what` names it in the error).
    pub(crate) fn option<T>(
        &mut self,
        what: &str,
        get: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<Option<T>> {
        match self.u8()? {
            0 => Ok(None),
            1 => get(self).map(Some),
            f => Err(malformed(&format!("{what} flag {f}, expected 0 or 1"))),
        }
    }
    /// An optional key identity written by [`Writer::key_id`].
    pub(crate) fn key_id(&mut self) -> Result<Option<KeyId>> {
        self.option("key identity", |r| Ok(KeyId(r.u64()?)))
    }
    /// An optional noise bound written by [`Writer::noise_bound`]; NaN is refused.
    pub(crate) fn noise_bound(&mut self) -> Result<Option<[f64; 2]>> {
        self.option("noise bound", |r| {
            let b = [r.f64()?, r.f64()?];
            if b.iter().any(|x| x.is_nan()) {
                return Err(Error::Malformed("a NaN noise bound".into()));
            }
            Ok(b)
        })
    }
    /// A ternary secret key written by [`Writer::ternary`], of degree n.
    pub(crate) fn ternary(&mut self, n: usize) -> Result<zeroize::Zeroizing<Vec<i64>>> {
        let count = self.u32()? as usize;
        if count != n {
            return Err(Error::Malformed(format!(
                "a secret key of {count} coefficients, this parameter set has degree {n}"
            )));
        }
        let mut coeffs = zeroize::Zeroizing::new(Vec::with_capacity(n));
        for i in 0..n {
            coeffs.push(match self.u8()? {
                0 => 0,
                1 => 1,
                255 => -1,
                b => {
                    return Err(Error::Malformed(format!(
                        "secret key coefficient {i} is byte {b}, expected 0, 1 or 255 (-1)"
                    )))
                }
            });
        }
        Ok(coeffs)
    }
    pub(crate) fn seed(&mut self) -> Result<[u8; 32]> {
        let mut s = [0u8; 32];
        s.copy_from_slice(self.take(32)?);
        Ok(s)
    }
    /// A polynomial over `ctx`: sizes must match, residues must be below their moduli.
    pub(crate) fn poly(&mut self, ctx: &Arc<RingContext>) -> Result<Poly> {
        let form = match self.u8()? {
            0 => Representation::Coefficient,
            1 => Representation::Ntt,
            f => return Err(malformed(&format!("representation flag {f}"))),
        };
        let (limbs, n) = (self.u32()? as usize, self.u32()? as usize);
        if limbs != ctx.moduli().len() || n != ctx.degree() {
            return Err(malformed(&format!(
                "a polynomial of {limbs} limbs of degree {n}, the context has {} of degree {}",
                ctx.moduli().len(),
                ctx.degree()
            )));
        }
        // Words per limb: n, or N = N2(2n) for a general-m ring in NTT form.
        let bytes = self.take(limbs * ctx.limb_len(form) * 8)?;
        let data = bytes
            .chunks_exact(8)
            .map(|c| {
                let mut a = [0u8; 8];
                a.copy_from_slice(c);
                u64::from_le_bytes(a)
            })
            .collect();
        Ok(Poly::from_residues(ctx, data, form)?)
    }
    /// Errors unless every byte was read.
    pub(crate) fn end(&self) -> Result<()> {
        if self.pos == self.data.len() {
            Ok(())
        } else {
            Err(malformed(&format!(
                "{} trailing bytes",
                self.data.len() - self.pos
            )))
        }
    }
}
