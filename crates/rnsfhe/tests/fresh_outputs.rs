//! Operations that write their result into fresh polynomials (a + b, a - b, the tensor product,
//! CKKS decryption) against residue arithmetic in u128 and against the in-place forms, bit for bit:
//! ciphertexts of 2 and 3 parts in either order, seeded symmetric ciphertexts, BGV operands at two
//! levels in the automatic mode, and BFV.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::sync::Arc;

use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::sample::Csprng;

/// a[i] op b[i] modulo each limb's prime, in u128.
fn pointwise(
    ring: &RingContext,
    a: &Poly,
    b: &Poly,
    op: impl Fn(u128, u128, u128) -> u128,
) -> Vec<u64> {
    let n = ring.limb_len(Representation::Ntt);
    a.residues()
        .iter()
        .zip(b.residues())
        .enumerate()
        .map(|(i, (&x, &y))| {
            let q = u128::from(ring.moduli()[i / n].value());
            op(u128::from(x), u128::from(y), q) as u64
        })
        .collect()
}

fn sum(ring: &RingContext, a: &Poly, b: &Poly) -> Vec<u64> {
    pointwise(ring, a, b, |x, y, q| (x + y) % q)
}

fn difference(ring: &RingContext, a: &Poly, b: &Poly) -> Vec<u64> {
    pointwise(ring, a, b, |x, y, q| (x + q - y) % q)
}

fn product(ring: &RingContext, a: &Poly, b: &Poly) -> Vec<u64> {
    pointwise(ring, a, b, |x, y, q| x * y % q)
}

fn residues(parts: &[Poly]) -> Vec<Vec<u64>> {
    parts.iter().map(|p| p.residues().to_vec()).collect()
}

fn ckks() -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 11)
        .levels(3)
        .scale_bits(40)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

#[test]
fn ckks_sums_products_and_decryption_are_the_residue_arithmetic() {
    let ctx = ckks();
    let mut rng = Csprng::from_seed([31; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let x: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::new(i as f64 / 100.0, -0.5))
        .collect();
    let pt = ctx.encode(&x).unwrap();
    let a = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let b = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let seeded = ctx.encrypt_symmetric(&pt, &sk, &mut rng).unwrap();
    assert!(seeded.seed().is_some());
    let ring = ctx.ring_at(ctx.max_level()).unwrap().clone();
    let (ap, bp) = (a.parts(), b.parts());

    // The tensor product: (a0 b0, a0 b1 + a1 b0, a1 b1).
    let t = ctx.multiply_no_relin(&a, &b).unwrap();
    let cross: Vec<u64> = {
        let (x, y) = (
            product(&ring, &ap[0], &bp[1]),
            product(&ring, &ap[1], &bp[0]),
        );
        let n = ring.degree();
        x.iter()
            .zip(&y)
            .enumerate()
            .map(|(i, (&u, &v))| {
                let q = u128::from(ring.moduli()[i / n].value());
                ((u128::from(u) + u128::from(v)) % q) as u64
            })
            .collect()
    };
    assert_eq!(
        residues(t.parts()),
        vec![
            product(&ring, &ap[0], &bp[0]),
            cross,
            product(&ring, &ap[1], &bp[1])
        ]
    );

    // Sums and differences of 2 + 2, 3 + 2 and 2 + 3 parts, and with a seeded operand.
    // A relinearised product: 2 parts at the tensor's scale.
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let r = ctx.multiply(&a, &b, &rlk).unwrap();
    for (u, v) in [(&a, &b), (&t, &r), (&r, &t), (&seeded, &a), (&a, &seeded)] {
        let (up, vp) = (u.parts(), v.parts());
        let s = ctx.add(u, v).unwrap();
        let d = ctx.sub(u, v).unwrap();
        let mut s_in = u.clone();
        ctx.add_assign(&mut s_in, v).unwrap();
        let mut d_in = u.clone();
        ctx.sub_assign(&mut d_in, v).unwrap();
        assert_eq!(residues(s.parts()), residues(s_in.parts()));
        assert_eq!(residues(d.parts()), residues(d_in.parts()));
        assert!(
            s.seed().is_none() && d.seed().is_none(),
            "a sum changes c_1"
        );
        assert_eq!(
            (s.level(), s.scale(), s.slots()),
            (s_in.level(), s_in.scale(), s_in.slots())
        );
        for i in 0..up.len().max(vp.len()) {
            let want_s = match (up.get(i), vp.get(i)) {
                (Some(x), Some(y)) => sum(&ring, x, y),
                (Some(x), None) | (None, Some(x)) => x.residues().to_vec(),
                (None, None) => unreachable!(),
            };
            let want_d = match (up.get(i), vp.get(i)) {
                (Some(x), Some(y)) => difference(&ring, x, y),
                (Some(x), None) => x.residues().to_vec(),
                (None, Some(y)) => difference(&ring, &Poly::zero(&ring, Representation::Ntt), y),
                (None, None) => unreachable!(),
            };
            assert_eq!(s.parts()[i].residues(), &want_s[..], "sum part {i}");
            assert_eq!(d.parts()[i].residues(), &want_d[..], "difference part {i}");
        }
    }

    // Decryption: c0 + c1 s (and + c2 s^2), decoded, against the decoding of that polynomial.
    let s = sk.ntt_at(&ring).unwrap();
    let s2 = product(&ring, &s, &s);
    let s2 = Poly::from_residues(&ring, s2, Representation::Ntt).unwrap();
    for ct in [&a, &seeded, &t] {
        let p = ct.parts();
        let mut phase = Poly::from_residues(
            &ring,
            sum(&ring, &p[0], &{
                Poly::from_residues(&ring, product(&ring, &p[1], &s), Representation::Ntt).unwrap()
            }),
            Representation::Ntt,
        )
        .unwrap();
        if let Some(c2) = p.get(2) {
            let c2s2 =
                Poly::from_residues(&ring, product(&ring, c2, &s2), Representation::Ntt).unwrap();
            phase =
                Poly::from_residues(&ring, sum(&ring, &phase, &c2s2), Representation::Ntt).unwrap();
        }
        let want = ctx
            .decode(
                &ctx.plaintext_from_poly(phase, ct.level(), ct.scale(), ct.slots())
                    .unwrap(),
            )
            .unwrap();
        let got = ctx.decrypt_values(ct, &sk).unwrap();
        let again = ctx.decode(&ctx.decrypt(ct, &sk).unwrap()).unwrap();
        let bits = |v: &[Complex]| -> Vec<(u64, u64)> {
            v.iter().map(|c| (c.re.to_bits(), c.im.to_bits())).collect()
        };
        assert_eq!(bits(&got), bits(&want), "{} parts", p.len());
        assert_eq!(bits(&again), bits(&want), "{} parts", p.len());
    }
}

#[test]
fn bgv_sums_at_two_levels_and_bfv_sums_equal_the_in_place_forms() {
    let mut rng = Csprng::from_seed([32; 32]);
    let bgv = BgvContext::new(
        BgvParameters::builder()
            .degree(1 << 11)
            .plain_modulus(65537)
            .moduli_bits(&[50; 4])
            .special_moduli_bits(&[55])
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    )
    .unwrap();
    let (sk, pk) = bgv.keygen(&mut rng).unwrap();
    let m: Vec<u64> = (0..bgv.slots() as u64).collect();
    let pt = bgv.encode(&m).unwrap();
    let a = bgv.encrypt(&pt, &pk, &mut rng).unwrap();
    let b = bgv.encrypt(&pt, &pk, &mut rng).unwrap();
    let low = bgv.mod_switch_to_level(&b, 1).unwrap();
    let t = bgv.multiply_no_relin(&a, &b).unwrap();
    for (u, v) in [(&a, &b), (&a, &low), (&low, &a), (&t, &a)] {
        let s = bgv.add(u, v).unwrap();
        let d = bgv.sub(u, v).unwrap();
        let mut s_in = u.clone();
        bgv.add_assign(&mut s_in, v).unwrap();
        let mut d_in = u.clone();
        bgv.sub_assign(&mut d_in, v).unwrap();
        assert_eq!(residues(s.parts()), residues(s_in.parts()));
        assert_eq!(residues(d.parts()), residues(d_in.parts()));
        assert_eq!(s.level(), s_in.level());
        let want: Vec<u64> = m.iter().map(|&x| 2 * x % 65537).collect();
        if u.parts().len() == 2 {
            assert_eq!(bgv.decode(&bgv.decrypt(&s, &sk).unwrap()).unwrap(), want);
        }
    }

    let bfv = BfvContext::new(
        BfvParameters::builder()
            .degree(1 << 11)
            .plain_modulus(65537)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    )
    .unwrap();
    let (sk, pk) = bfv.keygen(&mut rng).unwrap();
    let pt = bfv.encode(&m).unwrap();
    let a = bfv.encrypt(&pt, &pk, &mut rng).unwrap();
    let b = bfv.encrypt_symmetric(&pt, &sk, &mut rng).unwrap();
    for (u, v) in [(&a, &b), (&b, &a)] {
        let s = bfv.add(u, v).unwrap();
        let mut s_in = u.clone();
        bfv.add_assign(&mut s_in, v).unwrap();
        assert_eq!(residues(s.parts()), residues(s_in.parts()));
        let d = bfv.sub(u, v).unwrap();
        let mut d_in = u.clone();
        bfv.sub_assign(&mut d_in, v).unwrap();
        assert_eq!(residues(d.parts()), residues(d_in.parts()));
        assert_eq!(
            bfv.decode(&bfv.decrypt(&d, &sk).unwrap()).unwrap(),
            vec![0; m.len()]
        );
    }
}
