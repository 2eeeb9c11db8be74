//! Key switching against its straightforward composition (the kernels behind it may change,
//! its bits may not): for the default layout (one prime per digit, one special prime p), u_c =
//! round-half-down ModDown of sum_j [d]_{q_j} (centred) k_{c,j} over Q u P, i.e.
//! (X + h - [X + h]_p) / p mod Q with h = floor(p / 2), computed with big integers and the ring's
//! plain polynomial products.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use rnsfhe::rlwe::{KeySwitchKey, KeySwitcher, KeySwitching};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, Representation};

/// xorshift64*: test words without a dependency.
fn words(seed: &mut u64, moduli: &[u64], n: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(moduli.len() * n);
    for &q in moduli {
        for i in 0..n {
            *seed ^= *seed >> 12;
            *seed ^= *seed << 25;
            *seed ^= *seed >> 27;
            let r = seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
            // Edges too: q - 1 and 0, the largest digits and products.
            out.push(match i % 7 {
                0 => q - 1,
                1 => 0,
                _ => r % q,
            });
        }
    }
    out
}

#[test]
fn switch_equals_modown_of_digit_products() {
    let n = 256usize;
    for (bits, special) in [(59u32, 43u32), (60, 60), (50, 61)] {
        let q = ntt_primes(bits, 2 * n as u64, 3, &[]).unwrap();
        let p = ntt_primes(special, 2 * n as u64, 1, &q).unwrap();
        let sw = KeySwitcher::new(n, &q, &p, KeySwitching::default()).unwrap();
        let (ring_q, ring_qp) = (sw.ring_q().clone(), sw.ring_qp().clone());
        let all: Vec<u64> = q.iter().chain(&p).copied().collect();
        let mut seed = 0x1234_5678_9abc_def1u64 ^ u64::from(bits);
        let k0: Vec<Poly> = (0..3)
            .map(|_| {
                Poly::from_residues(&ring_qp, words(&mut seed, &all, n), Representation::Ntt)
                    .unwrap()
            })
            .collect();
        let seeds: Vec<[u8; 32]> = (0..3u8).map(|j| [j + 1; 32]).collect();
        let key = KeySwitchKey::from_parts(&sw, k0, seeds).unwrap();
        let d = Poly::from_residues(
            &ring_q,
            words(&mut seed, &q, n),
            Representation::Coefficient,
        )
        .unwrap();
        let (u0, u1) = sw.switch(&d, &key).unwrap();
        let pv = BigInt::from(p[0]);
        for (c, u) in [(0, &u0), (1, &u1)] {
            let mut acc = Poly::zero(&ring_qp, Representation::Ntt);
            for (j, &qj) in q.iter().enumerate() {
                let limb = d.limb(j).unwrap();
                let centred: Vec<BigInt> = limb
                    .iter()
                    .map(|&x| {
                        if x > qj / 2 {
                            BigInt::from(x) - BigInt::from(qj)
                        } else {
                            BigInt::from(x)
                        }
                    })
                    .collect();
                let mut digit = Poly::from_bigint(&ring_qp, &centred).unwrap();
                digit.to_ntt().unwrap();
                let (k0, k1) = &key.parts()[j];
                acc.add_assign(&digit.mul(if c == 0 { k0 } else { k1 }).unwrap())
                    .unwrap();
            }
            acc.to_coefficient().unwrap();
            let want: Vec<BigInt> = acc
                .to_biguint()
                .unwrap()
                .into_iter()
                .map(|x: BigUint| {
                    let x: BigInt = BigInt::from(x) + &pv / 2;
                    let y = x.mod_floor(&pv);
                    (x - y) / &pv
                })
                .collect();
            let want = Poly::from_bigint(&ring_q, &want).unwrap();
            assert!(
                u.residues() == want.residues(),
                "{bits}-bit q, {special}-bit p: u{c} differs from the composition"
            );
        }
    }
}
