//! `FastRnsFloor::apply_transformed_jobs`: several polynomials' ModDowns in one fan-out over
//! (polynomial, limb) give the bits of each floor on its own, then T, the addend and the gather, for
//! one thread and for two threads with every fan-out split. One test function: the thread count is
//! process-wide.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ntt::NttTable;
use rnsfhe_math::rns::{FastRnsFloor, FloorAddend, FloorJob, RnsBasis};

/// Residues below each modulus, limb-major.
fn residues(rng: &mut rand::rngs::StdRng, basis: &RnsBasis, n: usize) -> Vec<u64> {
    basis
        .moduli()
        .iter()
        .flat_map(|m| {
            (0..n)
                .map(|_| rng.random_range(0..m.value()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn jobs_match_one_floor_at_a_time() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    let n = 64usize;
    for (bits, k, kb) in [(60u32, 1usize, 4usize), (49, 4, 5), (40, 3, 3)] {
        let all = ntt_primes(bits, 2 * n as u64, k + kb, &[]).unwrap();
        let (q, b) = (
            RnsBasis::new(&all[..k]).unwrap(),
            RnsBasis::new(&all[k..]).unwrap(),
        );
        let tables: Vec<NttTable> = b
            .moduli()
            .iter()
            .map(|m| NttTable::new(*m, n).unwrap())
            .collect();
        let to_t = |j: usize, limb: &mut [u64]| tables[j].forward(limb);
        let idx: Vec<u32> = (0..n as u32).map(|i| (i * 7 + 5) % n as u32).collect();
        for floor in [
            FastRnsFloor::new(&q, &b, 1).unwrap(),
            FastRnsFloor::rounded(&q, &b).unwrap(),
        ] {
            // Three polynomials: x_0 with a coefficient-form addend of x_B, x_1 with an addend after
            // T, x_2 with a small signed addend e shared by every modulus of B (entries at its
            // bound), whose reference is the floor with e's residues.
            let xq: Vec<Vec<u64>> = (0..3).map(|_| residues(&mut rng, &q, n)).collect();
            let xb_t: Vec<Vec<u64>> = (0..3).map(|_| residues(&mut rng, &b, n)).collect();
            let xb_add = residues(&mut rng, &b, n);
            let add = residues(&mut rng, &b, n);
            let bound = 21u64;
            let e: Vec<i64> = (0..n)
                .map(|i| match i % 5 {
                    0 => bound as i64,
                    1 => -(bound as i64),
                    _ => rng.random_range(-(bound as i64)..=bound as i64),
                })
                .collect();
            let e_res: Vec<u64> = b
                .moduli()
                .iter()
                .flat_map(|m| e.iter().map(|&v| m.reduce_i64(v)).collect::<Vec<_>>())
                .collect();
            let mut row = vec![0u64; n];
            floor.small_addend_row(&e, bound, &mut row).unwrap();
            assert!(floor
                .small_addend_row(&e, bound - 1, &mut row.clone())
                .is_err());
            let mut want2 = vec![0u64; kb * n];
            floor
                .apply_transformed_plus(&xq[2], &xb_t[2], &e_res, &mut want2, to_t)
                .unwrap();
            // One floor at a time (the reference: `apply_transformed` is checked against the floor
            // in coefficient form and the NTT in tests/rns.rs), then the addend and the gather.
            let mut want0 = vec![0u64; kb * n];
            floor
                .apply_transformed_plus(&xq[0], &xb_t[0], &xb_add, &mut want0, to_t)
                .unwrap();
            let mut want1 = vec![0u64; kb * n];
            floor
                .apply_transformed(&xq[1], &xb_t[1], &mut want1, to_t)
                .unwrap();
            for (j, m) in b.moduli().iter().enumerate() {
                for (w, &a) in want1[j * n..(j + 1) * n].iter_mut().zip(&add[j * n..]) {
                    *w = m.add(*w, a);
                }
            }
            let gather = |x: &[u64]| -> Vec<u64> {
                x.chunks_exact(n)
                    .flat_map(|l| idx.iter().map(|&i| l[i as usize]).collect::<Vec<_>>())
                    .collect()
            };
            for threads in [1usize, 2] {
                rnsfhe_math::set_num_threads(threads).unwrap();
                rnsfhe_math::parallel::set_min_parallel_words(0);
                for gathered in [false, true] {
                    // The scaled residues of x_q, limb by limb.
                    let y: Vec<Vec<u64>> = xq
                        .iter()
                        .map(|x| {
                            let mut y = x.clone();
                            for (i, limb) in y.chunks_exact_mut(n).enumerate() {
                                floor.scale_source_limb(i, limb);
                            }
                            y
                        })
                        .collect();
                    let (mut got0, mut got1) = (vec![0u64; kb * n], vec![0u64; kb * n]);
                    let mut got2 = vec![0u64; kb * n];
                    let jobs = vec![
                        FloorJob {
                            y: &y[0],
                            xb_t: &xb_t[0],
                            xb_add: Some(FloorAddend::Residues(&xb_add)),
                            add: None,
                            out: &mut got0,
                        },
                        FloorJob {
                            y: &y[1],
                            xb_t: &xb_t[1],
                            xb_add: None,
                            add: Some(&add),
                            out: &mut got1,
                        },
                        FloorJob {
                            y: &y[2],
                            xb_t: &xb_t[2],
                            xb_add: Some(FloorAddend::Shared(&row, bound)),
                            add: None,
                            out: &mut got2,
                        },
                    ];
                    floor
                        .apply_transformed_jobs(jobs, to_t, gathered.then_some(&idx[..]))
                        .unwrap();
                    let (w0, w1, w2) = if gathered {
                        (gather(&want0), gather(&want1), gather(&want2))
                    } else {
                        (want0.clone(), want1.clone(), want2.clone())
                    };
                    let what = format!("{bits} bits, k = {k}, {threads} threads, {floor:?}");
                    assert_eq!(got0, w0, "first job: {what}, gathered {gathered}");
                    assert_eq!(got1, w1, "second job: {what}, gathered {gathered}");
                    assert_eq!(got2, w2, "shared row: {what}, gathered {gathered}");
                }
                // A job of another length, a gather table with an entry beyond the limb.
                let y = vec![0u64; k * n];
                let mut out = vec![0u64; kb * n];
                let short = FloorJob {
                    y: &y[1..],
                    xb_t: &xb_t[0],
                    xb_add: None,
                    add: None,
                    out: &mut out,
                };
                assert!(floor
                    .apply_transformed_jobs(vec![short], to_t, None)
                    .is_err());
                let mut bad = idx.clone();
                bad[3] = n as u32;
                let job = FloorJob {
                    y: &y,
                    xb_t: &xb_t[0],
                    xb_add: None,
                    add: None,
                    out: &mut out,
                };
                assert!(floor
                    .apply_transformed_jobs(vec![job], to_t, Some(&bad))
                    .is_err());
            }
            rnsfhe_math::set_num_threads(1).unwrap();
        }
    }
}
