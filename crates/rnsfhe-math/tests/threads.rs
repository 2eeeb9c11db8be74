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
    for t in [1, 2, 3] {
        rnsfhe_math::set_num_threads(t).unwrap();
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
}
