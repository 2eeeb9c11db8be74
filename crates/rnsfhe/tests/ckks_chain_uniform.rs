//! CKKS chains ("Parameters"): uniform chains (one width for q_1..q_L) stay as main built
//! them before `chain_bits` and `scale_level`, bit for bit: primes (through the fingerprint), eta,
//! key-switching layout, bytes, scales; bytes of then load now.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::params::{ModuliLayout, Security};
use rnsfhe::rlwe::{KeySwitching, SecretDistribution};

#[path = "support/ckks.rs"]
mod ckks_support;
use ckks_support::top_down_scales;

/// Uniform parameter sets built with the builder's existing options.
fn uniform_sets() -> Vec<(&'static str, CkksParameters)> {
    let b = CkksParameters::builder;
    let insecure = Security::InsecureResearchOnly;
    vec![
        ("default", b().build().unwrap()),
        (
            "2^16 L24 s50",
            b().degree(1 << 16)
                .levels(24)
                .scale_bits(50)
                .build()
                .unwrap(),
        ),
        (
            "2^14 L6 s35 narrow",
            b().degree(1 << 14)
                .levels(6)
                .scale_bits(35)
                .layout(ModuliLayout::Narrow)
                .build()
                .unwrap(),
        ),
        (
            "2^15 L12 h192",
            b().levels(12)
                .secret(SecretDistribution::HammingWeight(192))
                .build()
                .unwrap(),
        ),
        (
            "2^13 L2 s60 q0 61",
            b().degree(1 << 13)
                .levels(2)
                .scale_bits(60)
                .first_modulus_bits(61)
                .security(insecure)
                .build()
                .unwrap(),
        ),
        (
            "2^16 L20 s45 digits 2",
            b().degree(1 << 16)
                .levels(20)
                .scale_bits(45)
                .special_moduli_bits(&[60, 60])
                .key_switching(KeySwitching {
                    digit_primes: 2,
                    ..KeySwitching::default()
                })
                .build()
                .unwrap(),
        ),
        (
            "2^11 L3 s40 insecure",
            b().degree(1 << 11)
                .levels(3)
                .security(insecure)
                .build()
                .unwrap(),
        ),
        (
            "2^12 L5 s30 q0 45 insecure",
            b().degree(1 << 12)
                .levels(5)
                .scale_bits(30)
                .first_modulus_bits(45)
                .security(insecure)
                .build()
                .unwrap(),
        ),
    ]
}

/// What main (before `chain_bits`) built for [`uniform_sets`]: fingerprint, CRC-32 of the bytes
/// (the bytes' last four), eta, primes per digit, special primes.
const PINNED: [(&str, u64, u32, u32, usize, usize); 8] = [
    ("default", 0xd86aaeb0342b4473, 0xbd0b1f16, 17, 4, 4),
    ("2^16 L24 s50", 0x89ac51d5aac05f5c, 0xfb142da6, 25, 7, 7),
    (
        "2^14 L6 s35 narrow",
        0x578acb234d6a80c4,
        0x78c621a5,
        14,
        3,
        3,
    ),
    ("2^15 L12 h192", 0x27e8ba1927c3d545, 0xae861823, 17, 4, 4),
    (
        "2^13 L2 s60 q0 61",
        0x5aea56c8ca9b73a9,
        0x6be11efb,
        43,
        1,
        1,
    ),
    (
        "2^16 L20 s45 digits 2",
        0xdfc3024c233edf76,
        0xc9f4f463,
        20,
        2,
        2,
    ),
    (
        "2^11 L3 s40 insecure",
        0x51908c135b5b5ddb,
        0x20119054,
        23,
        2,
        2,
    ),
    (
        "2^12 L5 s30 q0 45 insecure",
        0xc9b057033ef56fd4,
        0xa20563df,
        13,
        2,
        2,
    ),
];

/// The bytes main wrote for "2^11 L3 s40 insecure" (format version 4).
const OLD_BYTES: &str = "524e53460400070000000000000000000800000000000028000000170000000400000001c0ffffffffff0f0170ffffff00000001d0feffff0000000170feffff000000020000000180feffffffff0f0180fdffffffff0f9a9999999999094000000000000000000200000000000000000000000054901120";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Parameter bytes with the header's format version set to 4 and the CRC made again: format 5
/// (key-switching keys at a level) left the parameters' layout as it was, so the pins of format 4
/// hold for the rest of the bytes.
fn as_format_4(bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes[..bytes.len() - 4].to_vec();
    b[4..6].copy_from_slice(&4u16.to_le_bytes());
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Uniform chains are what they were: primes (through the fingerprint), bytes, eta, key-switching
/// layout and the scales of every level, bit for bit; the same widths through `chain_bits` give
/// the same parameters.
#[test]
fn uniform_chains_unchanged() {
    for ((name, p), pin) in uniform_sets().into_iter().zip(PINNED) {
        assert_eq!(name, pin.0);
        let bytes = as_format_4(&p.to_bytes());
        let crc = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
        let got = (
            p.fingerprint(),
            crc,
            p.eta(),
            p.key_switching().digit_primes,
            p.special_moduli().len(),
        );
        assert_eq!(got, (pin.1, pin.2, pin.3, pin.4, pin.5), "{name}");
        assert_eq!(p.scale_level(), p.levels(), "{name}");
        let ctx = CkksContext::new(p.clone()).unwrap();
        for (l, s) in top_down_scales(&p).iter().enumerate() {
            assert_eq!(
                ctx.scale_at(l).unwrap().to_bits(),
                s.to_bits(),
                "{name} level {l}"
            );
        }
        if name == "2^11 L3 s40 insecure" {
            assert_eq!(hex(&bytes), OLD_BYTES);
        }
    }
    // The same chain through chain_bits, and with the scale level named.
    let b = CkksParameters::builder;
    let uniform = b().build().unwrap();
    let mut widths = vec![60];
    widths.extend([40; 10]);
    assert_eq!(b().chain_bits(widths.clone()).build().unwrap(), uniform);
    assert_eq!(
        b().chain_bits(widths.clone())
            .scale_level(10)
            .build()
            .unwrap(),
        uniform
    );
    assert_eq!(uniform.chain_bits(), widths);
    // Today's refusal of drift stays.
    let drift = b()
        .degree(1 << 16)
        .levels(30)
        .scale_bits(45)
        .build()
        .unwrap();
    let err = CkksContext::new(drift).unwrap_err().to_string();
    assert!(err.contains("drift too far"), "{err}");
}

/// Bytes written before `scale_level` existed load as the same parameters (R = L).
#[test]
fn old_bytes_load() {
    let old = unhex(OLD_BYTES);
    let p = CkksParameters::from_bytes_allowing_insecure(&old).unwrap();
    let want = &uniform_sets()[6].1;
    assert_eq!(&p, want);
    assert_eq!(p.scale_level(), 3);
    assert_eq!(as_format_4(&p.to_bytes()), old);
}
