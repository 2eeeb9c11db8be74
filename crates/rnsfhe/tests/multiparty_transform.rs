//! Masked transforms (`multiparty::transform`, a refresh with a `SlotMap`) against their plaintext
//! models: BFV permutations and linear maps modulo t, BGV and BFV rotations, CKKS conjugation and
//! rotation.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/multiparty.rs"]
mod mp;

use mp::{bfv, bgv, ckks, refresh_by, session, T};
use rnsfhe::ckks::Complex;
use rnsfhe::multiparty::{Refresh, Smudging};
use rnsfhe::rlwe::Crs;
use rnsfhe::rlwe::KeyContext;
use rnsfhe_math::sample::Csprng;

/// Masked transforms against their plaintext models: a BFV permutation and linear map of the
/// slots modulo t, a BGV rotation of the rows, CKKS conjugation and rotation.
#[test]
fn masked_transforms() {
    use rnsfhe::multiparty::SlotMap;
    let crs = Crs::new([38; 32]);
    let mut rng = Csprng::from_seed([38; 32]);
    let n = 1024;
    let ctx = bfv(n, &[55, 55, 55]);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let x = mp::values(n, 8);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let run = |map: SlotMap, rng: &mut Csprng| {
        let spec = Refresh::new().with_map(map);
        let out = refresh_by(&*ctx, &crs, &ps, &ct, &spec, &sm, rng).unwrap();
        ctx.decode(&ctx.decrypt(&out, &s).unwrap()).unwrap()
    };
    let perm: Vec<usize> = (0..n).map(|i| (i * 37 + 11) % n).collect();
    let want: Vec<u64> = perm.iter().map(|&i| x[i]).collect();
    assert_eq!(run(SlotMap::Permute(perm), &mut rng), want);
    let a: Vec<u64> = (0..n * n).map(|i| (i as u64 * 7919 + 13) % T).collect();
    let want: Vec<u64> = (0..n)
        .map(|i| (0..n).fold(0, |acc, j| (acc + a[i * n + j] * x[j]) % T))
        .collect();
    assert_eq!(run(SlotMap::Linear(a), &mut rng), want);
    let half = n / 2;
    let want: Vec<u64> = (0..n)
        .map(|i| x[(i / half) * half + (i % half + 5) % half])
        .collect();
    assert_eq!(run(SlotMap::Rotate(5), &mut rng), want);

    let ctx = bgv(n);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let ct = ctx.mod_switch(&ct).unwrap();
    let sm = Smudging::for_ciphertext(&*ctx, &ct, 40).unwrap();
    let spec = Refresh::new().with_map(SlotMap::Automorphism(2 * n as u64 - 1));
    let out = refresh_by(&*ctx, &crs, &ps, &ct, &spec, &sm, &mut rng).unwrap();
    let want: Vec<u64> = (0..n).map(|i| x[(i + half) % n]).collect();
    assert_eq!(ctx.decode(&ctx.decrypt(&out, &s).unwrap()).unwrap(), want);

    let ctx = ckks(2048, 2);
    let (ps, pk, s) = session(&*ctx, &crs, 3, &mut rng);
    let v: Vec<Complex> = (0..1024)
        .map(|i| Complex::new((i % 19) as f64 / 19.0, (i % 5) as f64 / 5.0))
        .collect();
    let ct = ctx
        .encrypt(&ctx.encode(&v).unwrap(), &pk, &mut rng)
        .unwrap();
    let sm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    for (map, want) in [
        (
            SlotMap::Automorphism(4095),
            v.iter()
                .map(|z| Complex::new(z.re, -z.im))
                .collect::<Vec<_>>(),
        ),
        (
            SlotMap::Rotate(3),
            (0..1024).map(|i| v[(i + 3) % 1024]).collect(),
        ),
    ] {
        let spec = Refresh::ckks(0.0).unwrap().with_map(map);
        let out = refresh_by(&*ctx, &crs, &ps, &ct, &spec, sm.stated(6.0), &mut rng).unwrap();
        for (g, w) in ctx.decrypt_values(&out, &s).unwrap().iter().zip(&want) {
            assert!((g.re - w.re).abs() < 0.05 && (g.im - w.im).abs() < 0.05);
        }
    }
}

/// Parties with a secret under each of two parameter sets, and each set's collective public key
/// (joined) and collective secret: what a masked transform between them needs.
struct TwoSets {
    ps_in: Vec<rnsfhe::multiparty::Party>,
    ps_out: Vec<rnsfhe::multiparty::Party>,
    pk_in: rnsfhe::rlwe::PublicKey,
    pk_out: rnsfhe::rlwe::PublicKey,
    s_out: rnsfhe::rlwe::SecretKey,
}

fn two_sets(
    input: &dyn rnsfhe::rlwe::KeyContext,
    output: &dyn rnsfhe::rlwe::KeyContext,
    crs: &Crs,
    rng: &mut Csprng,
) -> TwoSets {
    let (ps_in, pk_in, _) = session(input, crs, 3, rng);
    let (ps_out, pk_out, s_out) = session(output, crs, 3, rng);
    TwoSets {
        ps_in,
        ps_out,
        pk_in,
        pk_out,
        s_out,
    }
}

/// The transform of `ct` from `io.0`'s parameters to `io.1`'s by the parties of `sets` (every
/// share, one aggregation per parameter set, the last step).
fn transform_by<'s, C: rnsfhe::multiparty::Refreshable>(
    io: (&C, &C),
    crs: &Crs,
    sets: &TwoSets,
    ct: &C::Ciphertext,
    spec: &Refresh,
    sm: impl Into<rnsfhe::multiparty::ShareSmudging<'s>>,
    rng: &mut Csprng,
) -> rnsfhe::Result<C::Ciphertext> {
    use rnsfhe::multiparty::transform;
    let sm = sm.into();
    let mut ins = Vec::new();
    let mut outs = Vec::new();
    for (p, q) in sets.ps_in.iter().zip(&sets.ps_out) {
        let [a, b] = transform::share(io, (p, q), ct, crs, spec, sm, rng)?;
        ins.push(a);
        outs.push(b);
    }
    let target = sets.pk_out.id();
    let [r_in, r_out] = transform::rounds(io, crs, ct, spec, target, [None, None])?;
    let agg_in = mp::aggregate(io.0.as_key_context(), r_in, &ins);
    let agg_out = mp::aggregate(io.1.as_key_context(), r_out, &outs);
    let who = mp::indices(&sets.ps_in);
    transform::finalize(
        io,
        crs,
        ct,
        spec,
        [&agg_in, &agg_out],
        &who,
        target,
        sm.smudging(),
    )
}

fn ckks_chain(
    n: usize,
    chain: &[u32],
    scale_bits: u32,
) -> std::sync::Arc<rnsfhe::ckks::CkksContext> {
    use rnsfhe::ckks::{CkksContext, CkksParameters};
    let p = CkksParameters::builder()
        .degree(n)
        .chain_bits(chain.to_vec())
        .scale_bits(scale_bits)
        .special_moduli_bits(&[60])
        .security(rnsfhe::params::Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

fn bgv_chain(n: usize, chain: &[u32]) -> std::sync::Arc<rnsfhe::bgv::BgvContext> {
    use rnsfhe::bgv::{BgvContext, BgvParameters};
    let p = BgvParameters::builder()
        .degree(n)
        .plain_modulus(T)
        .moduli_bits(chain)
        .special_moduli_bits(&[55])
        .security(rnsfhe::params::Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BgvContext::new(p).unwrap()
}

/// CKKS to another chain of the same degree, to a ring twice as large and to one half as large,
/// with a rotation on the way: 256 values (sparse packing) against their rotation, decrypted under
/// the output's collective secret, at the precision the smudging leaves (its prediction for the
/// input's scale, less a bit at most: a change of ring keeps the subring's coefficients only,
/// which can only lower the error).
#[test]
fn ckks_transform_to_other_parameters() {
    use rnsfhe::multiparty::SlotMap;
    let crs = Crs::new([51; 32]);
    let mut rng = Csprng::from_seed([51; 32]);
    let a = ckks_chain(2048, &[60, 45, 45], 45);
    let v: Vec<Complex> = (0..256)
        .map(|i| Complex::new((i % 23) as f64 / 23.0 - 0.5, (i % 7) as f64 / 7.0))
        .collect();
    let want: Vec<Complex> = (0..256).map(|i| v[(i + 5) % 256]).collect();
    let sm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    let spec = Refresh::ckks(0.0).unwrap().with_map(SlotMap::Rotate(5));
    for (n_out, chain) in [
        (2048, vec![55, 40, 40, 40]),
        (4096, vec![60, 50, 50]),
        (1024, vec![60, 45]),
    ] {
        let b = ckks_chain(n_out, &chain, chain[1]);
        let sets = two_sets(&*a, &*b, &crs, &mut rng);
        let ct = a
            .encrypt(&a.encode(&v).unwrap(), &sets.pk_in, &mut rng)
            .unwrap();
        let out = transform_by(
            (&*a, &*b),
            &crs,
            &sets,
            &ct,
            &spec,
            sm.stated(6.0),
            &mut rng,
        )
        .unwrap();
        assert_eq!((out.level(), out.slots()), (b.max_level(), 256));
        assert_eq!(out.key_id(), Some(sets.pk_out.id()));
        let got = b.decrypt_values(&out, &sets.s_out).unwrap();
        let mse: f64 = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g.re - w.re).powi(2) + (g.im - w.im).powi(2))
            .sum::<f64>()
            / (2 * got.len()) as f64;
        let measured = -0.5 * mse.log2();
        let predicted = sm.flooding().precision_bits(ct.scale().log2(), 2048, 3);
        eprintln!(
            "CKKS transform to N = {n_out}: precision {measured:.2} bits, predicted {predicted:.2}"
        );
        assert!(measured > predicted - 1.0, "N = {n_out}: {measured} bits");
        // Computing on under the output's parameters: the sum with a fresh encryption.
        let fresh = b
            .encrypt(&b.encode(&v).unwrap(), &sets.pk_out, &mut rng)
            .unwrap();
        let sum = b.add(&out, &fresh).unwrap();
        let got = b.decrypt_values(&sum, &sets.s_out).unwrap();
        assert!((got[3].re - (want[3].re + v[3].re)).abs() < 2f64.powi(-4));
    }
}

/// BGV from level 1 of one chain to the top of another, and to a ring twice as large (the rows of
/// the slot matrix carried), with the rows swapped on the way; BFV to a smaller ring; each against
/// its plaintext model modulo t, and a fresh noise budget under the output's parameters.
#[test]
fn bgv_and_bfv_transform_to_other_parameters() {
    use rnsfhe::multiparty::SlotMap;
    let crs = Crs::new([52; 32]);
    let mut rng = Csprng::from_seed([52; 32]);
    let n = 1024;
    let a = bgv_chain(n, &[50, 50, 50]);
    let x = mp::values(n, 52);
    let half = n / 2;
    let swapped: Vec<u64> = (0..n).map(|i| x[(i + half) % n]).collect();
    let spec = Refresh::new().with_map(SlotMap::Automorphism(2 * n as u64 - 1));
    for n_out in [1024, 2048] {
        let b = bgv_chain(n_out, &[55, 45, 45, 45]);
        let sets = two_sets(&*a, &*b, &crs, &mut rng);
        let ct = a
            .encrypt(&a.encode(&x).unwrap(), &sets.pk_in, &mut rng)
            .unwrap();
        let ct = a.mod_switch(&ct).unwrap();
        let sm = Smudging::for_ciphertext(&*a, &ct, 40).unwrap();
        let out = transform_by((&*a, &*b), &crs, &sets, &ct, &spec, &sm, &mut rng).unwrap();
        let got = b.decode(&b.decrypt(&out, &sets.s_out).unwrap()).unwrap();
        let (h_in, h_out) = (half, n_out / 2);
        let want: Vec<u64> = (0..n_out)
            .map(|i| {
                let (r, c) = (i / h_out, i % h_out);
                if c < h_in {
                    swapped[r * h_in + c]
                } else {
                    0
                }
            })
            .collect();
        assert_eq!(got, want, "BGV to N = {n_out}");
        let budget = b.noise_budget(&out, &sets.s_out).unwrap();
        let fresh = b
            .encrypt(&b.encode(&x).unwrap(), &sets.pk_out, &mut rng)
            .unwrap();
        let fresh_budget = b.noise_budget(&fresh, &sets.s_out).unwrap();
        eprintln!("BGV transform to N = {n_out}: budget {budget:.1} bits, fresh {fresh_budget:.1}");
        assert!(
            budget + 2.0 >= fresh_budget,
            "{budget} against {fresh_budget}"
        );
    }

    let a = bfv(2048, &[55, 55, 55]);
    let b = bfv(1024, &[55, 55]);
    let sets = two_sets(&*a, &*b, &crs, &mut rng);
    let x = mp::values(2048, 53);
    let ct = a
        .encrypt(&a.encode(&x).unwrap(), &sets.pk_in, &mut rng)
        .unwrap();
    let sm = Smudging::for_ciphertext(&*a, &ct, 40).unwrap();
    let out = transform_by((&*a, &*b), &crs, &sets, &ct, &Refresh::new(), &sm, &mut rng).unwrap();
    let got = b.decode(&b.decrypt(&out, &sets.s_out).unwrap()).unwrap();
    let want: Vec<u64> = (0..1024).map(|i| x[(i / 512) * 1024 + i % 512]).collect();
    assert_eq!(got, want);
}

/// Refusals: another plaintext modulus, more CKKS slots than the output ring holds, a party's two
/// secrets of different indices, an output secret that joined no key, a share aggregated under
/// the other parameters (foreign), a refresh share in a transform round, and an aggregate for
/// another target key (stale).
#[test]
fn transform_refusals() {
    use rnsfhe::multiparty::{refresh, transform, Aggregator, Party};
    use rnsfhe::{Error, ShareFault};
    let crs = Crs::new([53; 32]);
    let mut rng = Csprng::from_seed([53; 32]);
    let a = bfv(1024, &[55, 55, 55]);
    let b = {
        use rnsfhe::bfv::{BfvContext, BfvParameters};
        let p = BfvParameters::builder()
            .degree(1024)
            .plain_modulus(12289)
            .moduli_bits(&[55, 55])
            .special_moduli_bits(&[55])
            .security(rnsfhe::params::Security::InsecureResearchOnly)
            .build()
            .unwrap();
        BfvContext::new(p).unwrap()
    };
    let sets = two_sets(&*a, &*b, &crs, &mut rng);
    let ct = a
        .encrypt(&a.encode(&[1, 2, 3]).unwrap(), &sets.pk_in, &mut rng)
        .unwrap();
    let sm = Smudging::for_ciphertext(&*a, &ct, 40).unwrap();
    let spec = Refresh::new();
    let err = transform_by((&*a, &*b), &crs, &sets, &ct, &spec, &sm, &mut rng).unwrap_err();
    assert!(
        matches!(&err, Error::InvalidParameters(m) if m.contains("plaintext moduli")),
        "{err}"
    );

    let c = ckks_chain(2048, &[60, 45, 45], 45);
    let d = ckks_chain(1024, &[60, 45, 45], 45);
    let sets_cd = two_sets(&*c, &*d, &crs, &mut rng);
    let v = vec![Complex::new(0.25, 0.0); 1024];
    let ct_c = c
        .encrypt(&c.encode(&v).unwrap(), &sets_cd.pk_in, &mut rng)
        .unwrap();
    let csm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    let cspec = Refresh::ckks(0.0).unwrap();
    let err = transform_by(
        (&*c, &*d),
        &crs,
        &sets_cd,
        &ct_c,
        &cspec,
        csm.stated(6.0),
        &mut rng,
    )
    .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidParameters(m) if m.contains("slots")),
        "{err}"
    );

    let e = bfv(1024, &[50, 50]);
    let sets = two_sets(&*a, &*e, &crs, &mut rng);
    let io = (&*a, &*e);
    let ct = a
        .encrypt(&a.encode(&[1, 2, 3]).unwrap(), &sets.pk_in, &mut rng)
        .unwrap();
    let err = transform::share(
        io,
        (&sets.ps_in[0], &sets.ps_out[1]),
        &ct,
        &crs,
        &spec,
        &sm,
        &mut rng,
    )
    .unwrap_err();
    assert!(err.to_string().contains("party 1"), "{err}");
    let lone = Party::generate(&*e, 0, &mut rng).unwrap();
    let err =
        transform::share(io, (&sets.ps_in[0], &lone), &ct, &crs, &spec, &sm, &mut rng).unwrap_err();
    assert!(err.to_string().contains("joined no"), "{err}");

    let target = sets.pk_out.id();
    let [r_in, r_out] = transform::rounds(io, &crs, &ct, &spec, target, [None, None]).unwrap();
    let [s_in, s_out] = transform::share(
        io,
        (&sets.ps_in[0], &sets.ps_out[0]),
        &ct,
        &crs,
        &spec,
        &sm,
        &mut rng,
    )
    .unwrap();
    // The shares-to-encryption share under the input's parameters: foreign.
    let mut agg = Aggregator::new(a.as_key_context(), r_in.clone(), &[0, 1, 2]).unwrap();
    let fault = |e: Error| match e {
        Error::ShareRefused { fault, .. } => fault,
        other => panic!("{other}"),
    };
    assert_eq!(fault(agg.add(&s_out).unwrap_err()), ShareFault::Foreign);
    agg.add(&s_in).unwrap();
    // A refresh share of the same ciphertext: stale.
    let r = refresh::share(&*a, &sets.ps_in[1], &ct, &crs, &spec, &sm, &mut rng).unwrap();
    assert_eq!(fault(agg.add(&r).unwrap_err()), ShareFault::Stale);
    // The output round of another target key (the input's): stale.
    let [_, other] =
        transform::rounds(io, &crs, &ct, &spec, sets.pk_in.id(), [None, None]).unwrap();
    let mut agg = Aggregator::new(e.as_key_context(), other, &[0, 1, 2]).unwrap();
    assert_eq!(fault(agg.add(&s_out).unwrap_err()), ShareFault::Stale);
    let _ = r_out;
}

/// A complex matrix on CKKS slots during a refresh and during a transform to a ring twice as large:
/// the unitary DFT of 128 slots (so the refreshed error keeps its size), against the matrix
/// product in f64, at the precision the smudging leaves, and a non-unitary map (a running sum)
/// whose error grows with its norm as stated.
#[test]
fn ckks_complex_linear_maps() {
    use rnsfhe::multiparty::SlotMap;
    let crs = Crs::new([54; 32]);
    let mut rng = Csprng::from_seed([54; 32]);
    let slots = 128;
    let a = ckks_chain(2048, &[60, 45, 45], 45);
    let b = ckks_chain(4096, &[60, 50, 50], 50);
    let sets = two_sets(&*a, &*b, &crs, &mut rng);
    let s_in = mp::sum_secret(&*a, &sets.ps_in, &sets.pk_in);
    let v: Vec<Complex> = (0..slots)
        .map(|i| Complex::new((i % 11) as f64 / 11.0 - 0.5, (i % 4) as f64 / 4.0))
        .collect();
    let ct = a
        .encrypt(&a.encode(&v).unwrap(), &sets.pk_in, &mut rng)
        .unwrap();
    let inv = 1.0 / (slots as f64).sqrt();
    let dft: Vec<Complex> = (0..slots * slots)
        .map(|e| {
            let (i, j) = (e / slots, e % slots);
            let t = -2.0 * std::f64::consts::PI * ((i * j) % slots) as f64 / slots as f64;
            Complex::new(t.cos() * inv, t.sin() * inv)
        })
        .collect();
    let running: Vec<Complex> = (0..slots * slots)
        .map(|e| Complex::new(if e % slots <= e / slots { 1.0 } else { 0.0 }, 0.0))
        .collect();
    let product = |m: &[Complex]| -> Vec<Complex> {
        (0..slots)
            .map(|i| (0..slots).fold(Complex::default(), |acc, j| acc + m[i * slots + j] * v[j]))
            .collect()
    };
    let sm = Smudging::new(40, 6.0, 2048, 1).unwrap();
    let predicted = sm.flooding().precision_bits(ct.scale().log2(), 2048, 3);
    let bits = |got: &[Complex], want: &[Complex]| {
        let mse = got
            .iter()
            .zip(want)
            .map(|(g, w)| (g.re - w.re).powi(2) + (g.im - w.im).powi(2))
            .sum::<f64>()
            / (2 * want.len()) as f64;
        -0.5 * mse.log2()
    };
    let spec = Refresh::ckks(0.0)
        .unwrap()
        .with_map(SlotMap::Complex(dft.clone()));
    let out = refresh_by(&*a, &crs, &sets.ps_in, &ct, &spec, sm.stated(6.0), &mut rng).unwrap();
    let refreshed = bits(&a.decrypt_values(&out, &s_in).unwrap(), &product(&dft));
    let spec_b = Refresh::ckks(0.0)
        .unwrap()
        .with_map(SlotMap::Complex(dft.clone()));
    let out = transform_by(
        (&*a, &*b),
        &crs,
        &sets,
        &ct,
        &spec_b,
        sm.stated(6.0),
        &mut rng,
    )
    .unwrap();
    let transformed = bits(
        &b.decrypt_values(&out, &sets.s_out).unwrap(),
        &product(&dft),
    );
    let spec_r = Refresh::ckks(4.0)
        .unwrap()
        .with_map(SlotMap::Complex(running.clone()));
    let out = refresh_by(
        &*a,
        &crs,
        &sets.ps_in,
        &ct,
        &spec_r,
        sm.stated(6.0),
        &mut rng,
    )
    .unwrap();
    let summed = bits(&a.decrypt_values(&out, &s_in).unwrap(), &product(&running));
    eprintln!(
        "CKKS complex maps ({slots} slots): DFT refreshed {refreshed:.2} bits, transformed to N = \
         4096 {transformed:.2} bits, running sum {summed:.2} bits; the smudging predicts \
         {predicted:.2} (the running sum's norm: about 2^{:.1})",
        ((slots * (slots + 1) / 2) as f64 / slots as f64)
            .sqrt()
            .log2()
    );
    assert!(refreshed > predicted - 1.0 && transformed > predicted - 1.0);
    // The running sum's rows have up to 128 ones: the error grows by its Frobenius norm per row.
    let growth = ((slots + 1) as f64 / 2.0).sqrt().log2();
    assert!(summed > predicted - growth - 1.0);
}
