//! The checks of seeded (half-size) ciphertexts shared by `seeded.rs` and `seeded_bgv.rs` (`#[path =
//! "support/seeded.rs"] mod seeded_support;`): bit-exact round trips through bytes, sizes, and seeds
//! corrupted in the bytes.
#![allow(dead_code, clippy::unwrap_used)] // each test file uses what it needs; checks abort loudly

use rnsfhe::bfv::BfvCiphertext;
use rnsfhe::bgv::BgvCiphertext;
use rnsfhe::ckks::CkksCiphertext;
use rnsfhe::Error;
use rnsfhe_math::ring::{Poly, Representation};

/// The residues and representation of every part.
pub fn bits(parts: &[Poly]) -> Vec<(Vec<u64>, bool)> {
    parts
        .iter()
        .map(|p| {
            (
                p.residues().to_vec(),
                p.representation() == Representation::Ntt,
            )
        })
        .collect()
}

/// What the checks read of a ciphertext of any scheme.
pub trait Seeded {
    fn seed_of(&self) -> Option<&[u8; 32]>;
    fn parts_of(&self) -> &[Poly];
}

macro_rules! seeded {
    ($($ct:ty),*) => {$(
        impl Seeded for $ct {
            fn seed_of(&self) -> Option<&[u8; 32]> {
                self.seed()
            }
            fn parts_of(&self) -> &[Poly] {
                self.parts()
            }
        }
    )*};
}
seeded!(CkksCiphertext, BgvCiphertext, BfvCiphertext);

/// Writes `ct` by `to`, loads it by `from` and checks the bytes against `full_len` (a full
/// ciphertext of its shape): half size and a bit-exact load keeping the seed when seeded.
pub fn round_trip<C: Seeded>(
    ct: &C,
    to: impl Fn(&C) -> rnsfhe::Result<Vec<u8>>,
    from: impl Fn(&[u8]) -> rnsfhe::Result<C>,
    full_len: usize,
    op: &str,
) -> C {
    let bytes = to(ct).unwrap();
    let back = from(&bytes).unwrap();
    assert_eq!(back.seed_of(), ct.seed_of(), "{op}: the seed after loading");
    assert!(
        bits(back.parts_of()) == bits(ct.parts_of()),
        "{op}: loaded parts differ"
    );
    let len = bytes.len();
    if ct.seed_of().is_some() {
        assert!(len * 2 < full_len + 400, "{op}: {len} bytes vs {full_len}");
    } else {
        assert!(len * 2 > full_len, "{op}: {len} bytes vs {full_len}");
    }
    back
}

/// The bytes of a seeded ciphertext with one bit of its seed flipped: as they are (refused by the
/// CRC) and resealed (they load, with another c_1).
pub fn flip_seed(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut bad = bytes.to_vec();
    let body = bad.len() - 4;
    bad[body - 32] ^= 1;
    let mut resealed = bad.clone();
    let crc = crc32fast::hash(&bad[..body]);
    resealed[body..].copy_from_slice(&crc.to_le_bytes());
    (bad, resealed)
}

pub fn refused_by_crc(r: rnsfhe::Result<impl std::fmt::Debug>) -> bool {
    matches!(r, Err(Error::Malformed(m)) if m.contains("checksum"))
}
