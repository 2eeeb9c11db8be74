//! CKKS ciphertexts to and from bytes.

use super::parts::seeded_parts;
use super::{fingerprint, Kind, Reader, Writer};
use crate::ckks::{CkksCiphertext, CkksContext, CkksParameters};
use crate::{Error, Result};

impl CkksParameters {
    /// The fingerprint of this parameter set (FNV-1a over what defines its rings and chain: degree
    /// word, the scale word `scale_word`, moduli, special moduli): the identity that
    /// contexts, keys and ciphertexts of these parameters share, in any process.
    pub fn fingerprint(&self) -> u64 {
        let p = self;
        fingerprint(
            2,
            p.degree(),
            u64::from(p.scale_word()),
            p.moduli(),
            p.special_moduli(),
        )
    }

    /// The scale word of the bytes and the fingerprint: scale_bits in the low 8 bits and L - R (the
    /// levels above the scale level R) above them, so that parameters with R = L (every set before
    /// `scale_level`) keep their bytes and fingerprints, and sets that differ only in R differ.
    pub(crate) fn scale_word(&self) -> u32 {
        self.scale_bits | ((self.levels() - self.scale_level) as u32) << SCALE_BITS_WIDTH
    }
}

/// The bits of scale_bits in [`CkksParameters::scale_word`].
pub(super) const SCALE_BITS_WIDTH: u32 = 8;

impl CkksContext {
    /// A ciphertext as bytes (level, scale, slot count, polynomials; a fresh symmetric encryption:
    /// c_0 and the seed of c_1, half size).
    pub fn ciphertext_to_bytes(&self, ct: &CkksCiphertext) -> Result<Vec<u8>> {
        self.check_ct(ct)?;
        let mut w = Writer::new(Kind::CkksCiphertext, self.fingerprint());
        w.key_id(ct.key_id());
        w.u32(ct.level() as u32);
        w.f64(ct.scale());
        w.u32(ct.slots() as u32);
        w.parts(&ct.parts);
        Ok(w.finish())
    }

    /// A ciphertext from bytes written by [`CkksContext::ciphertext_to_bytes`] for this parameter set.
    pub fn ciphertext_from_bytes(&self, bytes: &[u8]) -> Result<CkksCiphertext> {
        let mut r = Reader::new(bytes, Kind::CkksCiphertext, self.fingerprint())?;
        let key_id = r.key_id()?;
        let level = r.u32()? as usize;
        let scale = r.f64()?;
        let slots = r.u32()? as usize;
        if level > self.max_level() {
            return Err(Error::InvalidCiphertext(format!(
                "level {level} is above the top level {}",
                self.max_level()
            )));
        }
        if !(scale.is_finite() && scale >= 1.0) {
            return Err(Error::InvalidCiphertext(format!(
                "scale {scale} is not a valid scale"
            )));
        }
        if !slots.is_power_of_two() || slots > self.slots() {
            return Err(Error::InvalidCiphertext(format!(
                "{slots} slots: a power of two up to {} expected",
                self.slots()
            )));
        }
        let ring = self.ring_at(level)?.clone();
        let (polys, seed) = r.parts(|r| r.poly(&ring), |s| self.seeded_c1(s, level))?;
        r.end()?;
        let mut ct = self.ciphertext_from_parts(polys, level, scale, slots, key_id)?;
        ct.parts = seeded_parts(ct.parts, seed)?;
        Ok(ct)
    }
}
