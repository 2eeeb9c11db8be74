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
