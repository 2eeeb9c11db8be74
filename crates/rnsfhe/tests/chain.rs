//! `rlwe::ModulusChain` against an exact big-integer model: one step is Bajard et al. (SAC 2017) Lemma 3,
//! c' = (c + delta) / q_l with delta = t [-c t^-1]_{q_l} centred (t = 1: CKKS's rescale
//! round(c / q_l)), on power-of-two and general-m rings, in both forms; level drops keep c mod Q_l.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use num_bigint::{BigInt, BigUint};
use num_traits::Zero;
use rnsfhe::rlwe::{KeySwitcher, KeySwitching, ModulusChain};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, Reduction, Representation, RingContext};
use rnsfhe_math::sample::Csprng;

fn centred(x: &BigInt, q: &BigInt) -> BigInt {
    let mut r = ((x % q) + q) % q;
    if &r * 2 > *q {
        r -= q;
    }
    r
}

/// The exact step: (c + t [-c t^-1]_{q_l}) / q_l mod Q_{l-1}, for every coefficient.
fn model(c: &[BigUint], moduli: &[u64], t: u64) -> Vec<BigUint> {
    let l = moduli.len() - 1;
    let ql = BigInt::from(moduli[l]);
    let lower: BigInt = moduli[..l].iter().map(|&q| BigInt::from(q)).product();
    let t_inv = BigInt::from(t).modinv(&ql).unwrap();
    c.iter()
        .map(|x| {
            let x = BigInt::from(x.clone());
            let delta = BigInt::from(t) * centred(&(-&x * &t_inv), &ql);
            let sum = &x + delta;
            assert!((&sum % &ql).is_zero());
            let r = ((sum / &ql) % &lower + &lower) % &lower;
            r.to_biguint().unwrap()
        })
        .collect()
}

fn random_poly(ring: &std::sync::Arc<RingContext>, rng: &mut Csprng) -> Poly {
    let n = ring.degree();
    let mut p = Poly::zero(ring, Representation::Coefficient);
    for (limb, q) in p.residues_mut().chunks_exact_mut(n).zip(ring.moduli()) {
        for x in limb.iter_mut() {
            *x = rng.next_u64() % q.value();
        }
    }
    p
}

fn check_chain(sw: &KeySwitcher, t: u64) {
    let chain = ModulusChain::new(sw, t).unwrap();
    let mut rng = Csprng::from_seed([7; 32]);
    for l in (1..chain.levels()).rev() {
        let ring = chain.ring_at(l).unwrap().clone();
        let moduli: Vec<u64> = ring.moduli().iter().map(|m| m.value()).collect();
        for form in [Representation::Coefficient, Representation::Ntt] {
            let x = random_poly(&ring, &mut rng);
            let want = model(&x.to_biguint().unwrap(), &moduli, t);
            let mut input = x.clone();
            if form == Representation::Ntt {
                input.to_ntt().unwrap();
            }
            let mut got = chain.switch_down(&input).unwrap();
            assert_eq!(got.representation(), form);
            assert!(std::sync::Arc::ptr_eq(
                got.context(),
                chain.ring_at(l - 1).unwrap()
            ));
            got.to_coefficient().unwrap();
            assert_eq!(
                got.to_biguint().unwrap(),
                want,
                "level {l}, t = {t}, {form:?}"
            );
            // A drop keeps the value modulo Q_{l-1}.
            let mut dropped = chain.drop_to(&input, l - 1).unwrap();
            dropped.to_coefficient().unwrap();
            let lower: BigUint = moduli[..l].iter().map(|&q| BigUint::from(q)).product();
            let kept: Vec<BigUint> = x.to_biguint().unwrap().iter().map(|c| c % &lower).collect();
            assert_eq!(dropped.to_biguint().unwrap(), kept);
        }
    }
    // Level 0 has no step.
    let bottom = random_poly(chain.ring_at(0).unwrap(), &mut rng);
    assert!(chain.switch_down(&bottom).is_err());
}

#[test]
fn power_of_two_steps_match_lemma_3_and_rounding() {
    let q = ntt_primes(50, 64, 4, &[]).unwrap();
    let p = ntt_primes(55, 64, 1, &q).unwrap();
    let sw = KeySwitcher::new(32, &q, &p, KeySwitching::default()).unwrap();
    check_chain(&sw, 1);
    check_chain(&sw, 65537);
}

#[test]
fn general_m_steps_match_lemma_3_and_rounding() {
    let m = 45;
    let all = RingContext::cyclotomic_primes(m, 40, 4).unwrap();
    for reduction in [Reduction::Barrett, Reduction::SparseBarrett] {
        let sw =
            KeySwitcher::cyclotomic(m, &all[..3], &all[3..], KeySwitching::default(), reduction)
                .unwrap();
        check_chain(&sw, 1);
        check_chain(&sw, 2);
    }
}

#[test]
fn ring_limb_transforms_match_the_poly_transforms() {
    let pow2 = RingContext::new(32, &ntt_primes(50, 64, 2, &[]).unwrap()).unwrap();
    let m45 = RingContext::cyclotomic(
        45,
        &RingContext::cyclotomic_primes(45, 40, 2).unwrap(),
        Reduction::Barrett,
    )
    .unwrap();
    let mut rng = Csprng::from_seed([3; 32]);
    for ring in [pow2, m45] {
        let x = random_poly(&ring, &mut rng);
        let mut y = x.clone();
        y.to_ntt().unwrap();
        let (n, len) = (ring.degree(), ring.ntt_size());
        for i in 0..ring.moduli().len() {
            let mut buf = vec![0u64; len];
            buf[..n].copy_from_slice(x.limb(i).unwrap());
            ring.forward_limb(i, &mut buf).unwrap();
            assert_eq!(buf, y.limb(i).unwrap());
            ring.inverse_limb(i, &mut buf, false).unwrap();
            assert_eq!(&buf[..n], x.limb(i).unwrap());
        }
        // Refusals: a limb beyond the ring, a wrong length.
        let mut buf = vec![0u64; len];
        assert!(ring.forward_limb(ring.moduli().len(), &mut buf).is_err());
        assert!(ring.inverse_limb(0, &mut buf[..len - 1], false).is_err());
    }
}

/// Every backend the CPU has (the scalar one fuses the NTT-form step into one pass after a lazy NTT
/// for q < 2^61; 62-bit moduli take the other path): the same exact values. The knob is global, and
/// every other test of this file gives the same bits on any backend.
#[test]
fn steps_match_on_every_backend() {
    let q = ntt_primes(50, 64, 3, &[]).unwrap();
    let p = ntt_primes(55, 64, 1, &q).unwrap();
    let q62 = ntt_primes(62, 64, 3, &p).unwrap();
    let m = rnsfhe_math::arith::Modulus::new(q[0]).unwrap();
    let before = rnsfhe_math::backend();
    for b in rnsfhe_math::arith::available_backends(&m) {
        rnsfhe_math::set_backend(b).unwrap();
        for chain in [&q, &q62] {
            let sw = KeySwitcher::new(32, chain, &p, KeySwitching::default()).unwrap();
            check_chain(&sw, 1);
            check_chain(&sw, 65537);
        }
    }
    rnsfhe_math::set_backend(before).unwrap();
}
