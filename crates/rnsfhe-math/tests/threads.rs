//! Element-wise polynomial operations on the threads: add, sub and mul of polynomials large
//! enough to run limb by limb on the pool give the bits of the per-limb kernels, for 1, 2 and 3 threads.
//! One test function: the thread count is process-wide.
#![allow(clippy::unwrap_used)] // a test aborts loudly on a set-up error

use rand::{Rng, SeedableRng};
use rnsfhe_math::arith::{ntt_primes, vector};
use rnsfhe_math::ring::{Poly, Representation, RingContext};

#[test]
fn elementwise_ops_match_per_limb_kernels_for_any_thread_count() {
    let n = 1 << 14;
    let moduli = ntt_primes(50, 2 * n as u64, 5, &[]).unwrap();
    let ctx = RingContext::new(n, &moduli).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut random = || {
        let data: Vec<u64> = moduli
            .iter()
            .flat_map(|&q| (0..n).map(|_| rng.random_range(0..q)).collect::<Vec<_>>())
            .collect();
        Poly::from_residues(&ctx, data, Representation::Ntt).unwrap()
    };
    let (a, b) = (random(), random());
    // The reference: the kernels limb by limb, on this thread.
    let want = |f: fn(&rnsfhe_math::arith::Modulus, &mut [u64], &[u64])| -> Vec<u64> {
        let mut x = a.residues().to_vec();
        for ((limb, src), q) in x
            .chunks_exact_mut(n)
            .zip(b.residues().chunks_exact(n))
            .zip(ctx.moduli())
        {
            f(q, limb, src);
        }
        x
    };
    let (add, sub, mul) = (
        want(vector::add_assign),
        want(vector::sub_assign),
        want(vector::mul_assign),
    );
    // Every fan-out split (threshold 0), then none (a threshold no fan-out reaches).
    for (t, min_words) in [(1, 0), (2, 0), (3, 0), (2, usize::MAX)] {
        rnsfhe_math::set_num_threads(t).unwrap();
        rnsfhe_math::parallel::set_min_parallel_words(min_words);
        let mut x = a.clone();
        x.add_assign(&b).unwrap();
        assert!(x.residues() == add, "add with {t} threads");
        let mut x = a.clone();
        x.sub_assign(&b).unwrap();
        assert!(x.residues() == sub, "sub with {t} threads");
        let mut x = a.clone();
        x.mul_assign(&b).unwrap();
        assert!(x.residues() == mul, "mul with {t} threads");
    }
    rnsfhe_math::set_num_threads(1).unwrap();
    small_fan_outs_stay_on_the_calling_thread();
}

/// Below the threshold a fan-out runs inline on the caller (no pool thread ever sees it); above it,
/// on the pool. Part of the test above: the thread count is process-wide.
fn small_fan_outs_stay_on_the_calling_thread() {
    use rnsfhe_math::parallel::{self, Work};
    rnsfhe_math::set_num_threads(2).unwrap();
    parallel::set_min_parallel_words(parallel::DEFAULT_MIN_PARALLEL_WORDS);
    let on_pool = |work: Work, words: usize| {
        let mut data = vec![0u64; words];
        let _: Result<(), ()> =
            parallel::for_each_limb_as(work, &mut data, words / 4, |_, limb| {
                limb[0] = u64::from(rayon::current_thread_index().is_some());
                Ok(())
            });
        data.contains(&1)
    };
    let min = parallel::DEFAULT_MIN_PARALLEL_WORDS;
    // A decryption's few limbs at n = 2^14, and an addition below the light threshold: inline.
    assert!(!on_pool(Work::Heavy, 2 << 14));
    assert!(!on_pool(Work::Light, min));
    assert!(!parallel::splits(min - 1, Work::Heavy));
    // Large fan-outs go to the pool.
    assert!(on_pool(Work::Heavy, min));
    assert!(on_pool(Work::Light, min * parallel::LIGHT_PER_HEAVY));
    // Four products a word: 4 / PRODUCTS_PER_HEAVY heavy words.
    let four = min * parallel::PRODUCTS_PER_HEAVY / 4;
    assert!(parallel::splits(four, Work::Products(4)));
    assert!(!parallel::splits(four - 1, Work::Products(4)));
    // One thread: never the pool.
    rnsfhe_math::set_num_threads(1).unwrap();
    assert!(!on_pool(Work::Heavy, 4 * min));
    let (a, b) = parallel::join(usize::MAX, rayon::current_thread_index, || 1);
    assert_eq!((a, b), (None, 1));
}
