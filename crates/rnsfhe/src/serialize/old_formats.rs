//! Bytes of earlier format versions load as today's keys: Galois keys of formats 2 and 3 (keys from
//! s(X^g) to s) are converted, key-switching keys of formats 2 to 4 (no level) load as top-level
//! keys, and keys of formats 2 to 5 (no key profile, no layout per key-switching key) load where
//! their shape decides their layout. The old bytes are made from today's by rewriting the header's
//! version and removing the fields the old format lacked: the key profile after the header, each
//! key-switching key's layout and, before format 5, its level.
#![allow(clippy::unwrap_used)] // test

use std::sync::Arc;

use super::KeyBytes;
use crate::ckks::{CkksContext, CkksParameters, Complex};
use crate::params::Security;
use crate::rlwe::{EvaluationKeySet, GaloisKeys};
use rnsfhe_math::sample::Csprng;

/// Rewrites bytes of format 6 as format `version` (2 to 5): the header's version, no key profile,
/// no layout (and before format 5 no level) before each key-switching key, a new checksum.
struct Old<'a> {
    src: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    version: u16,
}

impl Old<'_> {
    fn copy(&mut self, n: usize) {
        self.out
            .extend_from_slice(&self.src[self.pos..self.pos + n]);
        self.pos += n;
    }
    fn word(&self) -> u32 {
        u32::from_le_bytes(self.src[self.pos..self.pos + 4].try_into().unwrap())
    }
    /// A key-switching key: its layout (and before format 5 its level) dropped, its components
    /// copied.
    fn key(&mut self) {
        self.pos += 12;
        if self.version >= 5 {
            self.copy(4);
        } else {
            self.pos += 4;
        }
        let count = self.word();
        self.copy(4);
        for _ in 0..count {
            self.copy(1);
            let limbs = self.word() as usize;
            self.copy(4);
            let n = self.word() as usize;
            self.copy(4);
            self.copy(limbs * n * 8 + 32);
        }
    }
    /// Galois keys: count, then element and key.
    fn galois(&mut self) {
        let count = self.word();
        self.copy(4);
        for _ in 0..count {
            self.copy(8);
            self.key();
        }
    }
    fn finish(mut self) -> Vec<u8> {
        assert_eq!(self.pos + 4, self.src.len(), "the whole body was read");
        self.out[4..6].copy_from_slice(&self.version.to_le_bytes());
        let crc = crc32fast::hash(&self.out);
        self.out.extend_from_slice(&crc.to_le_bytes());
        self.out
    }
}

/// Bytes of a key profile (sigma, secret, layout, security: 8 + 8 + 12 + 1).
const PROFILE: usize = 29;

/// Key `bytes` (format 6: a header of 15 bytes, then the key profile) rewritten as `version` by
/// `body`.
fn as_version(bytes: &[u8], version: u16, body: impl FnOnce(&mut Old<'_>)) -> Vec<u8> {
    assert!((2..=5).contains(&version));
    let mut o = Old {
        src: bytes,
        pos: 0,
        out: Vec::new(),
        version,
    };
    o.copy(15);
    o.pos += PROFILE;
    body(&mut o);
    o.finish()
}

fn context() -> Arc<CkksContext> {
    context_with(2, 1)
}

fn context_with(levels: usize, digit_primes: usize) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(256)
        .levels(levels)
        .key_switching(crate::rlwe::KeySwitching {
            digit_primes,
            ..Default::default()
        })
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

/// Galois keys of formats 2 and 3 (from s(X^g) to s: k0 is phi_g of today's) load as today's
/// keys and rotate the same; format 4 (today's form, no level) loads as top-level keys; format-5
/// bytes round-trip.
#[test]
fn old_galois_key_bytes_are_converted() {
    let ctx = context();
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let gk = ctx.galois_keys(&sk, &[1, 3], true, &mut rng).unwrap();
    // Today's keys written as the old ones were: phi_g of every component, seeds kept.
    let old_keys = GaloisKeys {
        keys: gk
            .keys
            .iter()
            .map(|(g, k)| (*g, Arc::new(k.automorphism(*g, true).unwrap())))
            .collect(),
        fingerprint: gk.fingerprint,
        key_id: gk.key_id,
    };
    let old = ctx.galois_keys_to_bytes(&old_keys);
    let new = ctx.galois_keys_to_bytes(&gk);
    let strip = |o: &mut Old<'_>| {
        o.copy(8);
        o.galois();
    };
    let z: Vec<Complex> = (0..8).map(|i| Complex::from_real(i as f64)).collect();
    let ct = ctx
        .encrypt(&ctx.encode(&z).unwrap(), &pk, &mut rng)
        .unwrap();
    let versions = [
        as_version(&old, 2, strip),
        as_version(&old, 3, strip),
        as_version(&new, 4, strip),
        new.clone(),
    ];
    for bytes in versions {
        assert!(bytes.len() < new.len() || bytes == new);
        let back = ctx.galois_keys_from_bytes(&bytes).unwrap();
        for (g, k) in &gk.keys {
            assert_eq!(back.level(*g), Some(ctx.max_level()));
            for ((a0, a1), (b0, b1)) in k.parts().iter().zip(back.keys[g].parts()) {
                assert_eq!(a0.residues(), b0.residues(), "k0 of {g}");
                assert_eq!(a1.residues(), b1.residues(), "k1 of {g}");
            }
        }
        let r = ctx.rotate(&ct, 3, &back).unwrap();
        let got = ctx.decrypt_values(&r, &sk).unwrap();
        assert!((got[0].re - 3.0).abs() < 1e-3, "{:?}", got[0]);
    }
    // Format 4 bytes read as format 5 are refused (the level field is missing), not misread.
    let v4 = as_version(&new, 4, strip);
    let mut as5 = v4[..v4.len() - 4].to_vec();
    as5[4..6].copy_from_slice(&5u16.to_le_bytes());
    let crc = crc32fast::hash(&as5);
    as5.extend_from_slice(&crc.to_le_bytes());
    assert!(ctx.galois_keys_from_bytes(&as5).is_err());
}

/// Relinearisation keys and evaluation key sets of format 4 load as top-level keys with the same
/// components; a level-1 key of format 5 keeps its level.
#[test]
fn old_relin_and_key_set_bytes_load_at_the_top() {
    let ctx = context();
    let mut rng = Csprng::from_seed([4; 32]);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let bytes = ctx.relin_key_to_bytes(&rlk);
    let old = as_version(&bytes, 4, |o| {
        o.copy(8);
        o.key();
    });
    for b in [&old, &bytes] {
        let back = ctx.relin_key_from_bytes(b).unwrap();
        assert_eq!(back.level(), ctx.max_level());
        for ((a0, a1), (b0, b1)) in rlk.key().parts().iter().zip(back.key().parts()) {
            assert_eq!(a0.residues(), b0.residues());
            assert_eq!(a1.residues(), b1.residues());
        }
    }
    let mut set = EvaluationKeySet::new();
    set.set_relin_key(Arc::new(rlk.clone())).unwrap();
    set.add_galois_keys(&ctx.galois_keys(&sk, &[1], false, &mut rng).unwrap())
        .unwrap();
    let bytes = ctx.evaluation_keys_to_bytes(&set);
    let old = as_version(&bytes, 4, |o| {
        o.copy(1 + 8);
        o.copy(1);
        o.key();
        o.copy(1);
        o.galois();
    });
    let back = ctx.evaluation_keys_from_bytes(&old).unwrap();
    assert_eq!(back.relin_key().unwrap().level(), ctx.max_level());
    assert_eq!(back.galois_elements(), set.galois_elements());
    let low = crate::rlwe::KeyGenerator::new(&*ctx, &mut rng)
        .relin_key_at(&sk, 1)
        .unwrap();
    let back = ctx
        .relin_key_from_bytes(&ctx.relin_key_to_bytes(&low))
        .unwrap();
    assert_eq!(back.level(), 1);
}

/// Format-5 relinearisation keys (no layout recorded) load where their component count decides the
/// layout (one prime per digit), and are refused, saying why, where another layout makes keys of
/// the same shape (2 primes per digit over 4 primes: 2 components, as 3 primes per digit make).
#[test]
fn format_5_keys_load_only_where_the_shape_decides_the_layout() {
    let five = |bytes: &[u8]| {
        as_version(bytes, 5, |o| {
            o.copy(8);
            o.key();
        })
    };
    let mut rng = Csprng::from_seed([5; 32]);
    let ctx = context_with(3, 1);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let back = ctx
        .relin_key_from_bytes(&five(&ctx.relin_key_to_bytes(&rlk)))
        .unwrap();
    assert_eq!(back.key().layout(), rlk.key().layout());

    let ctx = context_with(3, 2);
    let (sk, _) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let err = ctx
        .relin_key_from_bytes(&five(&ctx.relin_key_to_bytes(&rlk)))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("do not record their key-switching layout"),
        "{err}"
    );
    assert!(err.contains("digit_primes: 3"), "{err}");
    // Today's bytes of the same key load.
    ctx.relin_key_from_bytes(&ctx.relin_key_to_bytes(&rlk))
        .unwrap();
}
