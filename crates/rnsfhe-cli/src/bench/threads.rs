//! `rnsfhe bench threads`: where a fan-out across limbs starts to pay on two threads, the measurement
//! behind `rnsfhe_math::parallel::DEFAULT_MIN_PARALLEL_WORDS` and `LIGHT_PER_HEAVY`. The same fan-out
//! (forward and inverse NTTs of every limb: heavy work; a sum of two polynomials: light work) at
//! growing sizes, on one thread and on two threads with every fan-out split, in alternating batches
//! so that both see the same machine load; the fastest batch of each.

use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::parallel;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::sample::Csprng;
use rnsfhe_math::Result;

use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, Budget};

/// n of every ring; the sizes are 1 to 64 limbs of it.
const N: usize = 1 << 14;

pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text(&format!(
        "\n### One thread against two, one fan-out across limbs (n = 2^14; the default threshold is \
         2^{} words of heavy work, light words count 1/{})\n",
        parallel::DEFAULT_MIN_PARALLEL_WORDS.trailing_zeros(),
        parallel::LIGHT_PER_HEAVY
    ));
    let mut table = Table::new(&[
        "work",
        "limbs",
        "words",
        "one thread",
        "two threads",
        "ratio",
    ]);
    let mut rng = Csprng::from_seed([7; 32]);
    let moduli = ntt_primes(49, 2 * N as u64, 64, &[])?;
    let (before, min) = (parallel::num_threads(), parallel::min_parallel_words());
    parallel::set_min_parallel_words(0);
    for (work, limbs) in [
        ("NTT + inverse", &[1usize, 2, 3, 4, 6, 8, 16][..]),
        ("add", &[2, 4, 8, 16, 32, 64][..]),
    ] {
        for &l in limbs {
            let ring = RingContext::new(N, &moduli[..l])?;
            let a = Poly::from_residues(
                &ring,
                rng.uniform_poly(ring.moduli(), N),
                Representation::Coefficient,
            )?;
            let b = a.clone();
            let mut x = a.clone();
            let mut step = || -> Result<()> {
                if work == "add" {
                    x.add_assign(&b)?;
                } else {
                    x.to_ntt()?;
                    x.to_coefficient()?;
                }
                Ok(())
            };
            // Alternating batches: one thread, two threads, ... (the fastest of each).
            let (mut one, mut two) = (f64::INFINITY, f64::INFINITY);
            for _ in 0..5 {
                parallel::set_num_threads(1)?;
                one = one.min(budget.seconds_per_call(|| drop(std::hint::black_box(step()))));
                parallel::set_num_threads(2)?;
                two = two.min(budget.seconds_per_call(|| drop(std::hint::black_box(step()))));
            }
            table.row(vec![
                work.to_string(),
                l.to_string(),
                format!("2^{}", (l * N).ilog2()),
                human(one),
                human(two),
                format!("{:.2}x", two / one),
            ]);
        }
    }
    parallel::set_num_threads(before)?;
    parallel::set_min_parallel_words(min);
    rep.table(&table);
    Ok(())
}
