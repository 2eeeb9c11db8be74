//! The polynomials of a CKKS or BGV ciphertext in bytes: the part count, then every part; or, for a
//! fresh symmetric encryption, the count 2 with its top bit set, c_0 and the 32-byte seed of c_1
//! (half size). Full ciphertexts keep the bytes of every earlier version; a loader before the seeded
//! form refuses seeded bytes by their count. BFV marks its seeded form with a flag byte of its own
//! (`bfv.rs`); both rebuild the seeded parts through [`seeded_parts`].

use rnsfhe_math::ring::Poly;

use super::{Reader, Writer};
use crate::rlwe::Parts;
use crate::{Error, Result};

/// The top bit of the part count: c_0 and the seed of c_1 follow.
const SEEDED: u32 = 1 << 31;

impl Writer {
    /// The parts: c_0 and the seed while c_1 is its expansion, every polynomial otherwise.
    pub(crate) fn parts(&mut self, parts: &Parts) {
        match parts.seed() {
            Some(seed) if parts.len() == 2 => {
                self.u32(2 | SEEDED);
                self.poly(&parts[0]);
                self.bytes(seed);
            }
            _ => {
                self.u32(parts.len() as u32);
                parts.iter().for_each(|p| self.poly(p));
            }
        }
    }
}

impl Reader<'_> {
    /// The parts written by [`Writer::parts`], 2 or 3: each read by `read`, or c_0 read by `read`
    /// and c_1 made from its seed by `expand` (the seed returned, for [`seeded_parts`] once the
    /// parts are checked).
    pub(crate) fn parts(
        &mut self,
        mut read: impl FnMut(&mut Self) -> Result<Poly>,
        expand: impl FnOnce(&[u8; 32]) -> Result<Poly>,
    ) -> Result<(Vec<Poly>, Option<[u8; 32]>)> {
        let count = self.u32()?;
        if count == 2 | SEEDED {
            let c0 = read(self)?;
            let seed = self.seed()?;
            return Ok((vec![c0, expand(&seed)?], Some(seed)));
        }
        if !(2..=3).contains(&count) {
            return Err(Error::InvalidCiphertext(format!(
                "{count} polynomials, 2 or 3 expected"
            )));
        }
        let polys = (0..count).map(|_| read(self)).collect::<Result<Vec<_>>>()?;
        Ok((polys, None))
    }
}

/// The checked parts of a ciphertext read from seeded bytes, seeded again (`seed`: `None` for full
/// bytes).
pub(crate) fn seeded_parts(parts: Parts, seed: Option<[u8; 32]>) -> Result<Parts> {
    let Some(seed) = seed else {
        return Ok(parts);
    };
    let [c0, c1]: [Poly; 2] = parts.into_vec().try_into().map_err(|p: Vec<Poly>| {
        Error::InvalidCiphertext(format!("seeded bytes with {} polynomials", p.len()))
    })?;
    Ok(Parts::seeded(c0, c1, seed))
}
