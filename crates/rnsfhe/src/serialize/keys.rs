//! Public, relinearisation and Galois keys to and from bytes (scheme-independent; the schemes' contexts
//! supply the key switcher and fingerprint). Uniform components are stored as their seeds.

use std::collections::BTreeMap;

use super::{Kind, Reader, Writer};
use zeroize::Zeroizing;

use crate::rlwe::{
    inverse_mod, GaloisKeys, KeyId, KeySwitchKey, KeySwitcher, PublicKey, RelinKey, SecretKey,
};
use crate::{Error, Result};

impl Writer {
    fn key_switch_key(&mut self, k: &KeySwitchKey) {
        self.u32(k.parts().len() as u32);
        for ((k0, _), seed) in k.parts().iter().zip(k.seeds()) {
            self.poly(k0);
            self.bytes(seed);
        }
    }
}

impl Reader<'_> {
    fn key_switch_key(&mut self, sw: &KeySwitcher) -> Result<KeySwitchKey> {
        let count = self.u32()? as usize;
        if count != sw.key_components() {
            return Err(Error::Malformed(format!(
                "a key of {count} components, this parameter set uses {}",
                sw.key_components()
            )));
        }
        let (mut k0, mut seeds) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for c in 0..count {
            // A truncated component is stored without its zero limbs (paper 000 section 4.6).
            let ring = sw
                .component_ring(c)
                .ok_or_else(|| Error::Internal(format!("key component {c} beyond the layout")))?;
            k0.push(self.poly(ring)?);
            seeds.push(self.seed()?);
        }
        KeySwitchKey::from_parts(sw, k0, seeds)
    }
}

/// Key serialisation for a scheme's context (`use rnsfhe::serialize::KeyBytes` to call it on
/// `BfvContext` and `CkksContext`).
pub trait KeyBytes {
    /// The context's key switcher.
    fn switcher(&self) -> &KeySwitcher;
    /// The key switcher relinearisation keys belong to (another one under FV's mixed strategy,
    /// paper 001 section 4.4).
    fn relin_switcher(&self) -> &KeySwitcher {
        self.switcher()
    }
    /// The context's parameter fingerprint.
    fn params_fingerprint(&self) -> u64;
    /// The context's id.
    fn context_id(&self) -> u64;

    /// A secret key as bytes: one byte per coefficient of s (0, 1 or 255 for -1). Keep these bytes
    /// secret; whoever holds them can decrypt.
    fn secret_key_to_bytes(&self, sk: &SecretKey) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::new(Kind::SecretKey, self.params_fingerprint());
        w.ternary(sk.coefficients());
        Zeroizing::new(w.finish())
    }
    /// A secret key from bytes written for this parameter set.
    fn secret_key_from_bytes(&self, bytes: &[u8]) -> Result<SecretKey> {
        let mut r = Reader::new(bytes, Kind::SecretKey, self.params_fingerprint())?;
        let coeffs = r.ternary(self.switcher().ring_q().degree())?;
        r.end()?;
        SecretKey::from_coefficients(self.switcher(), coeffs)
    }
    /// A public key as bytes (p0 and the seed of p1).
    fn public_key_to_bytes(&self, pk: &PublicKey) -> Vec<u8> {
        public_key_to_bytes(pk, self.params_fingerprint())
    }
    /// A public key from bytes written for this parameter set.
    fn public_key_from_bytes(&self, bytes: &[u8]) -> Result<PublicKey> {
        public_key_from_bytes(bytes, self.switcher(), self.params_fingerprint())
    }
    /// A relinearisation key as bytes (k0 components and the seeds of k1).
    fn relin_key_to_bytes(&self, rlk: &RelinKey) -> Vec<u8> {
        relin_key_to_bytes(rlk, self.params_fingerprint())
    }
    /// A relinearisation key from bytes written for this parameter set.
    fn relin_key_from_bytes(&self, bytes: &[u8]) -> Result<RelinKey> {
        relin_key_from_bytes(
            bytes,
            self.relin_switcher(),
            self.params_fingerprint(),
            self.context_id(),
        )
    }
    /// Galois keys as bytes.
    fn galois_keys_to_bytes(&self, gk: &GaloisKeys) -> Vec<u8> {
        galois_keys_to_bytes(gk, self.params_fingerprint())
    }
    /// Galois keys from bytes written for this parameter set.
    fn galois_keys_from_bytes(&self, bytes: &[u8]) -> Result<GaloisKeys> {
        galois_keys_from_bytes(
            bytes,
            self.switcher(),
            self.params_fingerprint(),
            self.context_id(),
        )
    }
}

fn public_key_to_bytes(pk: &PublicKey, fp: u64) -> Vec<u8> {
    let mut w = Writer::new(Kind::PublicKey, fp);
    w.u64(pk.id().0);
    w.poly(pk.parts().0);
    w.bytes(pk.seed());
    w.finish()
}

fn public_key_from_bytes(bytes: &[u8], sw: &KeySwitcher, fp: u64) -> Result<PublicKey> {
    let mut r = Reader::new(bytes, Kind::PublicKey, fp)?;
    let id = KeyId(r.u64()?);
    let p0 = r.poly(sw.ring_qp())?;
    let seed = r.seed()?;
    r.end()?;
    PublicKey::from_parts(p0, seed, id)
}

fn relin_key_to_bytes(rlk: &RelinKey, fp: u64) -> Vec<u8> {
    let mut w = Writer::new(Kind::RelinKey, fp);
    w.u64(rlk.key_id.0);
    w.key_switch_key(&rlk.key);
    w.finish()
}

fn relin_key_from_bytes(
    bytes: &[u8],
    sw: &KeySwitcher,
    fp: u64,
    context_id: u64,
) -> Result<RelinKey> {
    let mut r = Reader::new(bytes, Kind::RelinKey, fp)?;
    let key_id = KeyId(r.u64()?);
    let key = r.key_switch_key(sw)?;
    r.end()?;
    Ok(RelinKey {
        key,
        context_id,
        key_id,
    })
}

/// Kind 21: per element g, the k0 components of the key (from s to phi_{g^-1}(s)) and the seeds a of
/// its k1 components, which are phi_{g^-1}(a) (`rlwe::GaloisKeys`).
fn galois_keys_to_bytes(gk: &GaloisKeys, fp: u64) -> Vec<u8> {
    let mut w = Writer::new(Kind::GaloisKeysInverse, fp);
    w.u64(gk.key_id.0);
    w.u32(gk.keys.len() as u32);
    for (g, k) in &gk.keys {
        w.u64(*g);
        w.key_switch_key(k);
    }
    w.finish()
}

fn galois_keys_from_bytes(
    bytes: &[u8],
    sw: &KeySwitcher,
    fp: u64,
    context_id: u64,
) -> Result<GaloisKeys> {
    let (mut r, kind) = Reader::new_of(bytes, &[Kind::GaloisKeysInverse, Kind::GaloisKeys], fp)?;
    let key_id = KeyId(r.u64()?);
    let count = r.u32()? as usize;
    // m = 2n for power-of-two rings; elements of Z_m^* in general.
    let two_n = sw.ring_q().cyclotomic_index() as u64;
    if count > sw.ring_q().degree() {
        return Err(Error::Malformed(format!(
            "{count} Galois keys for degree {}",
            sw.ring_q().degree()
        )));
    }
    let mut keys = BTreeMap::new();
    for _ in 0..count {
        let g = r.u64()?;
        if g >= two_n || num_integer::gcd(g, two_n) != 1 || g == 1 || keys.contains_key(&g) {
            return Err(Error::Malformed(format!(
                "Galois element {g} (in Z_m^*, below m = {two_n}, not 1, no repeats)"
            )));
        }
        // Kind 5 (rnsfhe before hoisting) holds the key from s(X^g) to s: phi_{g^-1} of all of it.
        let old = kind == Kind::GaloisKeys;
        keys.insert(
            g,
            r.key_switch_key(sw)?
                .automorphism(inverse_mod(g, two_n)?, old)?,
        );
    }
    r.end()?;
    Ok(GaloisKeys {
        keys,
        context_id,
        key_id,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::ckks::{CkksContext, CkksParameters};
    use crate::params::Security;
    use rnsfhe_math::sample::Csprng;

    /// Bytes of kind 5 (the keys from s(X^g) to s that rnsfhe wrote before hoisting: k0 = phi_g of
    /// today's) load as today's keys, and rotate the same; today's bytes (kind 21) round-trip.
    #[test]
    fn old_galois_key_bytes_are_converted() {
        let p = CkksParameters::builder()
            .degree(256)
            .levels(2)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let ctx = CkksContext::new(p).unwrap();
        let mut rng = Csprng::from_seed([9; 32]);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let gk = ctx.galois_keys(&sk, &[1, 3], true, &mut rng).unwrap();
        let fp = ctx.params_fingerprint();
        let mut w = Writer::new(Kind::GaloisKeys, fp);
        w.u64(gk.key_id.0);
        w.u32(gk.keys.len() as u32);
        for (g, k) in &gk.keys {
            w.u64(*g);
            w.key_switch_key(&k.automorphism(*g, true).unwrap());
        }
        let old = w.finish();
        let new = ctx.galois_keys_to_bytes(&gk);
        assert_eq!(new[6], Kind::GaloisKeysInverse as u8);
        for bytes in [old, new] {
            let back = ctx.galois_keys_from_bytes(&bytes).unwrap();
            for (g, k) in &gk.keys {
                for ((a0, a1), (b0, b1)) in k.parts().iter().zip(back.keys[g].parts()) {
                    assert_eq!(a0.residues(), b0.residues(), "k0 of {g}");
                    assert_eq!(a1.residues(), b1.residues(), "k1 of {g}");
                }
            }
            let z: Vec<crate::ckks::Complex> = (0..8)
                .map(|i| crate::ckks::Complex::from_real(i as f64))
                .collect();
            let ct = ctx
                .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
                .unwrap();
            let r = ctx.rotate(&ct, 3, &back).unwrap();
            let got = ctx.decrypt_values(&r, &sk).unwrap();
            assert!((got[0].re - 3.0).abs() < 1e-3, "{:?}", got[0]);
        }
    }
}
