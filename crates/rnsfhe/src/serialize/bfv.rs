//! BFV ciphertexts to and from bytes.

use super::parts::seeded_parts;
use super::{fingerprint, Kind, Reader, Writer};
use crate::bfv::{BfvCiphertext, BfvContext, BfvParameters};
use crate::rlwe::expand_seeded;
use crate::{Error, Result};

impl BfvParameters {
    /// The fingerprint of this parameter set (FNV-1a over what defines its rings and chain: degree
    /// word, t or scale bits, moduli, special moduli): the identity that contexts, keys and
    /// ciphertexts of these parameters share, in any process.
    pub fn fingerprint(&self) -> u64 {
        let p = self;
        fingerprint(
            1,
            p.fingerprint_degree(),
            p.plain_modulus(),
            p.moduli(),
            p.special_moduli(),
        )
    }
}

impl BfvContext {
    /// A ciphertext as bytes; a fresh symmetric encryption stores its seed for c_1 (half size).
    pub fn ciphertext_to_bytes(&self, ct: &BfvCiphertext) -> Result<Vec<u8>> {
        self.check_ct(ct)?;
        let mut w = Writer::new(Kind::BfvCiphertext, self.fingerprint());
        w.key_id(ct.key_id);
        w.noise_bound(ct.noise);
        w.u32(ct.parts.len() as u32);
        match (ct.seed(), ct.parts.len()) {
            (Some(seed), 2) => {
                w.u8(1);
                w.poly(&ct.parts[0]);
                w.bytes(seed);
            }
            _ => {
                w.u8(0);
                ct.parts.iter().for_each(|p| w.poly(p));
            }
        }
        Ok(w.finish())
    }

    /// A ciphertext from bytes written by [`BfvContext::ciphertext_to_bytes`] for this parameter set.
    pub fn ciphertext_from_bytes(&self, bytes: &[u8]) -> Result<BfvCiphertext> {
        let mut r = Reader::new(bytes, Kind::BfvCiphertext, self.fingerprint())?;
        let key_id = r.key_id()?;
        let noise = r.noise_bound()?;
        let parts = r.u32()? as usize;
        if !(2..=16).contains(&parts) {
            return Err(Error::InvalidCiphertext(format!(
                "the bytes declare {parts} polynomials, expected 2..=16"
            )));
        }
        let ring = self.ring();
        // Full Montgomery: the residues written are c M; read them as such.
        let read = |r: &mut Reader| -> Result<rnsfhe_math::ring::Poly> {
            let mut p = r.poly(ring)?;
            if self.params().is_full_montgomery() {
                p.relabel_form(rnsfhe_math::ring::Form::Montgomery)?;
            }
            Ok(p)
        };
        let mut ct = match r.u8()? {
            1 if parts == 2 && !self.params().is_full_montgomery() => {
                let c0 = r.poly(ring)?;
                let seed = r.seed()?;
                let mut ct =
                    self.ciphertext_from_parts(vec![c0, expand_seeded(ring, &seed)?], key_id)?;
                ct.parts = seeded_parts(ct.parts, Some(seed))?;
                ct
            }
            0 => {
                let polys = (0..parts)
                    .map(|_| read(&mut r))
                    .collect::<Result<Vec<_>>>()?;
                self.ciphertext_from_parts(polys, key_id)?
            }
            f => {
                return Err(Error::InvalidCiphertext(format!(
                    "seed flag {f} with {parts} polynomials"
                )))
            }
        };
        r.end()?;
        ct.noise = noise;
        Ok(ct)
    }
}
